// Redguard RGM scene files (docs/formats/redguard-world.md §1): tagged sections (tag, u32 big-endian length,
// little-endian payload, a bare "END " at the end), of which the placement records (MPOB, MPSO, MPSF, MPRP, MPSL,
// MPMK) and the actor fields a static import needs (RAHD, RAAN) are decoded; every other section is skipped by its
// length. Native units and axes (positions in model units, +Y down): the conversion to Assimp's frame is the
// glue's job. No Assimp here.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gamefmt::redguard {

// The format name FormatError carries for scene files.
inline constexpr const char *kRgmFormatName = "Redguard RGM";

// Fixed record sizes (§1.1).
inline constexpr std::size_t kMpsoRecord = 66, kMpobRecord = 66, kMpsfRecord = 24, kMprpRecord = 80, kMpslRecord = 42,
                             kMpmkRecord = 13, kRahdRecord = 165;

// A position in model units (the i24 fields, §1.2): X and Y signed, Z unsigned.
struct RgmPosition {
    std::int32_t x = 0, y = 0, z = 0;
};

struct RgmStatic { // MPSO (§1.3)
    std::uint32_t id = 0;
    std::string model; // up to 12 bytes, cut at the first NUL and the first '.'
    RgmPosition position;
    std::array<std::int32_t, 9> m{}; // Q4.28, M[r][c] = m[3r + c]
    std::size_t offset = 0;          // the record's byte offset in the file
};

struct RgmScripted { // MPOB (§1.4)
    std::uint32_t id = 0;
    std::uint8_t type = 0, active = 0, isStatic = 0;
    std::string script, model; // 9-byte fields
    RgmPosition position;
    std::array<std::uint32_t, 3> angles{}; // 2048 = a full turn
    std::uint16_t texture = 0;
    std::array<std::int16_t, 7> values{}; // intensity, radius, model_id, world_id, red, green, blue
    std::size_t offset = 0;
};

struct RgmFlat { // MPSF (§1.5)
    std::uint32_t id = 0;
    RgmPosition position;
    std::uint16_t texture = 0; // bank = v >> 7, image = v & 0x7F
    std::size_t offset = 0;
};

struct RgmRope { // MPRP (§1.5)
    std::uint32_t id = 0;
    RgmPosition position;
    std::int16_t links = 0;
    std::string endModel, linkModel;
    std::array<std::int32_t, 4> fields{}; // angle_y, type, swing, speed (unused)
    std::size_t offset = 0;
};

struct RgmLight { // MPSL (§1.5): only the position is agreed on; the record is kept whole
    RgmPosition position;
    std::array<std::uint8_t, kMpslRecord> raw{};
    std::size_t offset = 0;
};

struct RgmMarker { // MPMK (§1.5), read as interleaved 13-byte records
    RgmPosition position;
    std::uint8_t flag = 0;
};

struct RgmActor { // RAHD (§1.6)
    std::string script;
    std::uint16_t instances = 0;
    std::int16_t textureOverride = 0;
    std::string firstAnimationModel; // the stem of the first RAAN entry, upper-cased; "" when none
};

struct RgmScene {
    std::vector<RgmStatic> statics;
    std::vector<RgmScripted> scripted;
    std::vector<RgmFlat> flats;
    std::vector<RgmRope> ropes;
    std::vector<RgmLight> lights;
    std::vector<RgmMarker> markers;
    std::vector<RgmActor> actors;
    std::vector<std::string> sections; // every section tag in file order
    std::vector<std::string> skipped;  // tags of sections a static import ignores (scripts, AI, …), once each
    std::vector<std::string> warnings; // truncated record lists, unknown tags, a missing END
    bool hasEnd = false;
};

// Reads the sections of data[0..size). Throws FormatError (kRgmFormatName, with the byte offset) for a section
// whose length runs past the end of the file or a placement section whose count does not fit its payload by more
// than a partial record (a count larger than the payload keeps the whole records with a warning).
RgmScene ReadRgm(const std::uint8_t *data, std::size_t size);

// True when data starts like an RGM: a known section tag (or an "END "-only file of 4 or 8 bytes). With `whole`
// (data is the whole file) the section's big-endian length must also fit.
bool LooksLikeRgm(const std::uint8_t *data, std::size_t size, bool whole = true) noexcept;

// The actor an MPOB record names (by script name, case-insensitive); nullptr when none.
const RgmActor *FindActor(const RgmScene &scene, const std::string &script);

} // namespace gamefmt::redguard
