// Redguard WLD world (terrain) files (docs/formats/redguard-world.md §2): a 1184-byte header, 2 × 2 sections of
// four 128 × 128 maps (height, unused, texture, unused) and a footer, stitched into one 256 × 256 grid; the
// height table; the per-cell texture and quarter-turn. No Assimp here.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gamefmt::redguard {

inline constexpr const char *kWldFormatName = "Redguard WLD";

inline constexpr std::size_t kWldHeaderSize = 1184;
inline constexpr std::size_t kWldSectionHeaderSize = 22;
inline constexpr std::size_t kWldSectionMap = 128;          // a section's maps are 128 × 128
inline constexpr std::size_t kWldGrid = 2 * kWldSectionMap; // the stitched grid: 256 × 256 vertices
inline constexpr std::size_t kWldMinSize = 1200;            // below this a file is rejected (§5.2)
inline constexpr std::uint16_t kWldTerrainBank = 302;       // the engine's terrain bank (§2.3)
inline constexpr std::int32_t kWldCellSize = 256;           // model units between grid vertices (§2.4)

// The height table (§2.2): model units for the 7-bit height value.
const std::array<std::uint16_t, 128> &WldHeightTable();

struct WldWorld {
    std::array<std::uint32_t, 296> header{};
    std::array<std::array<std::uint16_t, 11>, 4> sectionHeaders{};
    // The stitched maps, row-major, gy = row (growing downward in the map image), gx = column.
    std::vector<std::uint8_t> heights;  // Map1 as stored (bit 7 kept; the height is table[h & 0x7F])
    std::vector<std::uint8_t> textures; // Map3 as stored: image = t & 0x3F, quarter-turns = t >> 6
    std::vector<std::string> warnings;

    std::uint8_t heightByte(std::size_t gx, std::size_t gy) const { return heights[gy * kWldGrid + gx]; }
    std::uint8_t textureByte(std::size_t gx, std::size_t gy) const { return textures[gy * kWldGrid + gx]; }
    // The height of vertex (gx, gy) in model units, up positive.
    std::int32_t height(std::size_t gx, std::size_t gy) const { return WldHeightTable()[heightByte(gx, gy) & 0x7F]; }
};

// Reads data[0..size). Throws FormatError (kWldFormatName, byte offset) for a file under 1200 bytes, a header
// whose section-header size (0x18) is not 22 or first section offset (0x90) not 1184, or sections that overlap
// or run past the end; warns for 0x14 != 1 or a section naming a bank other than 302.
WldWorld ReadWld(const std::uint8_t *data, std::size_t size);

// True when data has a WLD header: at least 1200 bytes, 0x18 = 22 and 0x90 = 1184.
bool LooksLikeWld(const std::uint8_t *data, std::size_t size) noexcept;

} // namespace gamefmt::redguard
