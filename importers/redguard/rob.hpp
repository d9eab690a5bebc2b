// Redguard ROB archives ("OARC", docs/formats/redguard-3d.md §9): named segments, each an embedded model (types 0/256)
// or a reference to an external <name>.3DC (type 512). The reader only frames the archive; models are read from the
// payloads with ReadModel. No Assimp here.
#pragma once

#include "importers/redguard/model.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gamefmt::redguard {

struct RobSegment {
    std::string name;                      // up to 8 bytes, NUL padding removed (may use all 8 with no NUL)
    std::uint16_t type = 0;                // 0, 256 embedded; 512 external <name>.3DC; others unknown
    std::uint16_t flags = 0;               // render flags (0x0E)
    std::array<std::uint8_t, 80> header{}; // the segment header as stored
    std::size_t payloadOffset = 0;         // archive offset of the payload (model offsets are relative to it)
    std::size_t payloadSize = 0;
    bool embedded() const { return type == 0 || type == 256; }
};

struct RobArchive {
    std::array<std::uint8_t, 20> header{};
    std::vector<RobSegment> segments;
    bool hasEndMarker = false;         // "END " after the last segment
    std::vector<std::string> warnings; // unknown types, missing END, count mismatches
};

// Frames the archive in data[0..size). Throws FormatError (kFormatName) for a bad signature or a segment
// past the end of the file; warns on a missing "END " or a segment count that disagrees with the segments.
RobArchive ReadRob(const std::uint8_t *data, std::size_t size);

// What one segment shows once resolved (§9): its embedded model, the external <name>.3DC model, or nothing.
struct RobEntry {
    enum class Source { Embedded, External, MissingExternal, UnreadableExternal, UnknownType };
    const RobSegment *segment = nullptr;
    Source source = Source::UnknownType;
    std::optional<RG3DModel> model;
    std::string externalPath; // the external file as opened (External, UnreadableExternal)
    std::string warning;      // why the segment shows nothing (empty when it shows a model)
};

// The bytes of <name>.3DC for a type-512 segment and the path opened; nullopt when not found.
using ExternalModelLookup =
    std::function<std::optional<std::pair<std::string, std::vector<std::uint8_t>>>(const std::string &name)>;

// Resolves every segment of `rob` (framed from data[0..size)) in order and hands each to `visit` before reading
// the next (so a caller that converts models as they come keeps one in memory, and in cache): embedded payloads
// are read as models (a FormatError there fails the whole archive), type-512 segments through `lookup` (missing
// or unreadable externals leave the segment empty with a warning), unknown types are skipped with a warning.
void ForEachRobEntry(const RobArchive &rob, const std::uint8_t *data, std::size_t size,
                     const ExternalModelLookup &lookup, const std::function<void(RobEntry &)> &visit);

} // namespace gamefmt::redguard
