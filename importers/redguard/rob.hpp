// Redguard ROB archives ("OARC", redguard-3d.md §9): named segments, each an embedded model (types 0/256) or
// a reference to an external <name>.3DC (type 512). The reader only frames the archive; models are read
// from the payloads with ReadModel. No Assimp here.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
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

} // namespace gamefmt::redguard
