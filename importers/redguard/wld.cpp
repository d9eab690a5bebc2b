// WLD world files (docs/formats/redguard-world.md §2): header checks, section framing and the 2 × 2 stitching.
#include "importers/redguard/wld.hpp"

#include "common/byte_reader.hpp"
#include "common/error.hpp"

#include <algorithm>
#include <cstring>

namespace gamefmt::redguard {
namespace {

constexpr std::size_t kMapBytes = kWldSectionMap * kWldSectionMap; // 16,384
constexpr std::size_t kSectionSize = kWldSectionHeaderSize + 4 * kMapBytes;
constexpr std::size_t kSectionOffsets = 0x90;    // four u32 section offsets
constexpr std::uint32_t kSectionHeaderWord = 22; // header 0x18
constexpr std::size_t kBankWord = 3;             // section header u16 [3]

std::uint32_t U32At(const std::uint8_t *p) {
    return std::uint32_t{p[0]} | std::uint32_t{p[1]} << 8 | std::uint32_t{p[2]} << 16 | std::uint32_t{p[3]} << 24;
}

} // namespace

const std::array<std::uint16_t, 128> &WldHeightTable() {
    static const std::array<std::uint16_t, 128> kTable = {
        0,    40,   40,   40,   80,   80,   80,   120,  120,  120,  160,  160,  160,  200,  200,  200,
        240,  240,  240,  280,  280,  320,  320,  320,  360,  360,  400,  400,  400,  440,  440,  480,
        480,  480,  520,  520,  560,  560,  600,  600,  600,  640,  640,  680,  680,  720,  720,  760,
        760,  800,  800,  840,  840,  880,  880,  920,  920,  960,  1000, 1000, 1040, 1040, 1080, 1120,
        1120, 1160, 1160, 1200, 1240, 1240, 1280, 1320, 1320, 1360, 1400, 1440, 1440, 1480, 1520, 1560,
        1600, 1600, 1640, 1680, 1720, 1760, 1800, 1840, 1880, 1920, 1960, 2000, 2040, 2080, 2120, 2200,
        2240, 2280, 2320, 2400, 2440, 2520, 2560, 2640, 2680, 2760, 2840, 2920, 3000, 3080, 3160, 3240,
        3360, 3440, 3560, 3680, 3800, 3960, 4080, 4280, 4440, 4680, 4920, 5200, 5560, 6040, 6680, 7760};
    return kTable;
}

bool LooksLikeWld(const std::uint8_t *data, std::size_t size) noexcept {
    return data != nullptr && size >= kWldMinSize && U32At(data + 0x18) == kSectionHeaderWord &&
           U32At(data + kSectionOffsets) == kWldHeaderSize;
}

WldWorld ReadWld(const std::uint8_t *data, std::size_t size) {
    if (data == nullptr) size = 0;
    if (size < kWldMinSize)
        throw FormatError(
            kWldFormatName,
            "a world file has at least " + std::to_string(kWldMinSize) + " bytes, this one " + std::to_string(size), 0);
    WldWorld world;
    ByteReader in(data, size, kWldFormatName);
    for (std::uint32_t &w : world.header) w = in.u32le();
    if (world.header[0x18 / 4] != kSectionHeaderWord)
        throw FormatError(kWldFormatName,
                          "header word 0x18 (the section header size) is " + std::to_string(world.header[0x18 / 4]) +
                              ", 22 expected",
                          0x18);
    if (world.header[kSectionOffsets / 4] != kWldHeaderSize)
        throw FormatError(kWldFormatName,
                          "the first section offset (0x90) is " + std::to_string(world.header[kSectionOffsets / 4]) +
                              ", 1184 expected",
                          kSectionOffsets);
    if (world.header[0x14 / 4] != 1)
        world.warnings.push_back("header word 0x14 is " + std::to_string(world.header[0x14 / 4]) +
                                 " where the game's files have 1 (read anyway)");

    std::array<std::size_t, 4> offsets{};
    for (std::size_t s = 0; s < 4; ++s) {
        const std::size_t at = kSectionOffsets + 4 * s;
        const std::uint32_t offset = world.header[at / 4];
        if (offset < kWldHeaderSize || offset > size || size - offset < kSectionSize)
            throw FormatError(kWldFormatName,
                              "section " + std::to_string(s) + " at offset " + std::to_string(offset) + " (" +
                                  std::to_string(kSectionSize) + " bytes) lies outside the " + std::to_string(size) +
                                  "-byte file",
                              at);
        for (std::size_t t = 0; t < s; ++t)
            if (offset < offsets[t] + kSectionSize && offsets[t] < offset + kSectionSize)
                throw FormatError(kWldFormatName,
                                  "section " + std::to_string(s) + " at offset " + std::to_string(offset) +
                                      " overlaps section " + std::to_string(t) + " at " + std::to_string(offsets[t]),
                                  at);
        offsets[s] = offset;
    }

    world.heights.assign(kWldGrid * kWldGrid, 0);
    world.textures.assign(kWldGrid * kWldGrid, 0);
    for (std::size_t s = 0; s < 4; ++s) {
        const std::uint8_t *section = data + offsets[s];
        for (std::size_t i = 0; i < 11; ++i)
            world.sectionHeaders[s][i] =
                static_cast<std::uint16_t>(section[2 * i] | static_cast<unsigned>(section[2 * i + 1]) << 8);
        const std::uint16_t bank = world.sectionHeaders[s][kBankWord];
        if (bank != kWldTerrainBank)
            world.warnings.push_back("section " + std::to_string(s) + " names texture bank " + std::to_string(bank) +
                                     "; the engine always uses TEXBSI.302, and so does gamefmt");
        const std::uint8_t *map1 = section + kWldSectionHeaderSize;
        const std::uint8_t *map3 = map1 + 2 * kMapBytes;
        const std::size_t x0 = kWldSectionMap * (s % 2), y0 = kWldSectionMap * (s / 2);
        for (std::size_t y = 0; y < kWldSectionMap; ++y) {
            std::memcpy(&world.heights[(y0 + y) * kWldGrid + x0], map1 + y * kWldSectionMap, kWldSectionMap);
            std::memcpy(&world.textures[(y0 + y) * kWldGrid + x0], map3 + y * kWldSectionMap, kWldSectionMap);
        }
    }
    if (size != kWldHeaderSize + 4 * kSectionSize + 16 && world.warnings.size() < 8)
        world.warnings.push_back("the file has " + std::to_string(size) + " bytes where the game's have 263432");
    return world;
}

} // namespace gamefmt::redguard
