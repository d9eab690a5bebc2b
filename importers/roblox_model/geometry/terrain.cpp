// SmoothGrid decoding (docs/formats/roblox-terrain.md §4, §7); the mesher is meshing/terrain_mesher.cpp.
#include "importers/roblox_model/geometry/terrain.hpp"

#include "common/byte_reader.hpp"
#include "common/error.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_set>
#include <utility>

namespace gamefmt::rbx {
namespace {

constexpr std::int64_t kMaxChunkCoordinate = 1024; // §7: a full-terrain copy spans about ±1000 chunks
constexpr std::uint64_t kChunkBytes = std::uint64_t{2} * kTerrainChunkVoxels;

struct MaterialInfo {
    std::uint32_t value;
    const char *name;
    std::uint32_t classic;
};

// §5, by id.
constexpr MaterialInfo kMaterials[kTerrainMaterialCount] = {
    {1792, "Air", 0},
    {2048, "Water", 0},
    {1280, "Grass", 0x6A7F3F},
    {800, "Slate", 0x3F7F6B},
    {816, "Concrete", 0x7F663F},
    {848, "Brick", 0x8A563E},
    {1296, "Sand", 0x8F7E5F},
    {528, "WoodPlanks", 0x8B6D4F},
    {896, "Rock", 0x666C6F},
    {1552, "Glacier", 0x65B0EA},
    {1328, "Snow", 0xC3C7DA},
    {912, "Sandstone", 0x895A47},
    {1344, "Mud", 0x3A2E24},
    {788, "Basalt", 0x1E1E25},
    {1360, "Ground", 0x665C3B},
    {804, "CrackedLava", 0xE89C4A},
    {1376, "Asphalt", 0x737B6B},
    {880, "Cobblestone", 0x847B5A},
    {1536, "Ice", 0x81C2E0},
    {1284, "LeafyGrass", 0x73844A},
    {1392, "Salt", 0xC6BDB5},
    {820, "Limestone", 0xCEAD94},
    {836, "Pavement", 0x94948C},
};

// The runs of one chunk (§4.3, §4.5) into `chunk`'s dense arrays (`material` and `occupancy` are 32768 bytes of
// scratch on entry; a layered chunk, uniform ones included, hands them back and keeps its layer values); oddities
// counted in `counts`.
struct OddCounts {
    std::size_t airBytes = 0, unknown = 0, oddLiquid = 0;
};

void DecodeRuns(ByteReader &r, TerrainChunk &chunk, OddCounts &counts, std::uint64_t &used, std::uint64_t &nonAir,
                std::uint64_t &runs) {
    bool uniform = true;
    int v = 0;
    while (v < kTerrainChunkVoxels) {
        const std::size_t runAt = r.tell();
        const std::uint8_t lead = r.u8();
        std::uint8_t material = lead & 63;
        std::uint8_t occupancy = 255;
        if ((lead & 0x40) != 0) occupancy = r.u8();
        int count = 1;
        int liquid = -1;
        if ((lead & 0x80) != 0) {
            const std::uint8_t c = r.u8();
            if (c == 0)
                liquid = r.u8();
            else
                count = c + 1;
        }
        if (v + count > kTerrainChunkVoxels)
            r.failAt(runAt, "a run of " + std::to_string(count) + " voxels crosses the chunk end (" +
                                std::to_string(kTerrainChunkVoxels - v) + " voxels left)");
        if (material == kTerrainAir && (lead & 0x40) != 0) ++counts.airBytes;
        if (liquid >= 0 && material == kTerrainAir) { // an escape on Air: a liquid-only voxel
            material = kTerrainWater;
            occupancy = static_cast<std::uint8_t>(liquid);
            liquid = -1;
            ++counts.oddLiquid;
        } else if (liquid >= 0 && material == kTerrainWater) { // on Water: the larger amount
            occupancy = static_cast<std::uint8_t>(std::max<int>(occupancy, liquid));
            liquid = -1;
            ++counts.oddLiquid;
        }
        if (material >= kTerrainMaterialCount) ++counts.unknown;
        if (material == kTerrainAir) occupancy = 255; // ignored on Air (§4.5)
        if (v != 0 && (material != chunk.material[0] || occupancy != chunk.occupancy[0] || liquid >= 0))
            uniform = false;
        std::fill(chunk.material.begin() + v, chunk.material.begin() + v + count, material);
        std::fill(chunk.occupancy.begin() + v, chunk.occupancy.begin() + v + count, occupancy);
        if (liquid >= 0) {
            if (chunk.liquid.empty()) {
                used += kTerrainChunkVoxels;
                chunk.liquid.assign(kTerrainChunkVoxels, 0);
            }
            chunk.liquid[static_cast<std::size_t>(v)] = static_cast<std::uint8_t>(std::min(liquid + 1, 255));
        }
        if (material != kTerrainAir) nonAir += static_cast<std::uint64_t>(count);
        chunk.hasSolid = chunk.hasSolid || material >= 2;
        chunk.hasLiquid = chunk.hasLiquid || material == kTerrainWater || liquid >= 0;
        ++runs;
        v += count;
    }
    if (uniform && chunk.liquid.empty()) {
        chunk.isUniform = true;
        chunk.uniformMaterial = chunk.material[0];
        chunk.uniformOccupancy = chunk.occupancy[0];
        chunk.layered = true;
        chunk.layers.fill(static_cast<std::uint16_t>(chunk.uniformMaterial << 8 | chunk.uniformOccupancy));
        return;
    }
    chunk.layered = chunk.liquid.empty();
    constexpr std::size_t kLayer = std::size_t{kTerrainChunkEdge} * kTerrainChunkEdge;
    for (std::size_t y = 0; y < kTerrainChunkEdge && chunk.layered; ++y) {
        const std::uint8_t *m = chunk.material.data() + y * kLayer, *o = chunk.occupancy.data() + y * kLayer;
        std::uint8_t differs = 0; // no early exit: the loop vectorises
        for (std::size_t i = 0; i < kLayer; ++i) differs |= static_cast<std::uint8_t>((m[i] ^ m[0]) | (o[i] ^ o[0]));
        chunk.layered = differs == 0;
        chunk.layers[y] = static_cast<std::uint16_t>(m[0] << 8 | o[0]);
    }
}

} // namespace

std::uint32_t TerrainEnumMaterial(std::uint8_t id) {
    return id < kTerrainMaterialCount ? kMaterials[id].value : 0;
}

std::string TerrainMaterialName(std::uint8_t id) {
    return id < kTerrainMaterialCount ? kMaterials[id].name : "Unknown" + std::to_string(id);
}

std::array<Color3uint8, kTerrainMaterialCount> TerrainMaterialColors(const std::uint8_t *data, std::size_t size) {
    std::array<Color3uint8, kTerrainMaterialCount> out{};
    for (std::size_t id = 0; id < kTerrainMaterialCount; ++id) {
        const std::uint32_t c = kMaterials[id].classic;
        out[id] = {std::uint8_t(c >> 16), std::uint8_t(c >> 8), std::uint8_t(c)};
        if (id >= 2 && data != nullptr && size >= 3 * id + 3)
            out[id] = {data[3 * id], data[3 * id + 1], data[3 * id + 2]};
    }
    return out;
}

TerrainGrid DecodeSmoothGrid(const std::uint8_t *data, std::size_t size, std::uint64_t maxBytes) {
    if (size < 2)
        throw FormatError(kTerrainFormatName, "SmoothGrid of " + std::to_string(size) + " bytes has no header", 0);
    if (data[0] != 1 || data[1] != 5)
        throw FormatError(kTerrainFormatName,
                          "unsupported SmoothGrid header " + std::to_string(data[0]) + " " + std::to_string(data[1]) +
                              " (only version 1 with 32-voxel chunks, 01 05, is known)",
                          0);
    ByteReader r(data, size, kTerrainFormatName);
    r.seek(2);
    TerrainGrid grid;
    std::int64_t pos[3] = {0, 0, 0};
    std::unordered_set<std::uint64_t> seen;
    std::size_t outside = 0, repeated = 0;
    OddCounts counts;
    std::uint64_t used = 0;
    std::vector<std::uint8_t> scratchMaterial, scratchOccupancy;
    while (!r.atEnd()) {
        const std::size_t chunkAt = r.tell();
        if (r.remaining() < 12)
            r.fail("truncated chunk: " + std::to_string(r.remaining()) +
                   " bytes where a 12-byte position delta starts");
        std::uint8_t b[12];
        for (std::uint8_t &v : b) v = r.u8();
        for (int a = 0; a < 3; ++a) {
            const std::uint32_t d = std::uint32_t(b[a]) << 24 | std::uint32_t(b[3 + a]) << 16 |
                                    std::uint32_t(b[6 + a]) << 8 | std::uint32_t(b[9 + a]);
            pos[a] += static_cast<std::int32_t>(d);
        }
        used += kChunkBytes;
        if (used > maxBytes)
            r.failAt(chunkAt, "the terrain needs more than the " + std::to_string(maxBytes >> 20) +
                                  " MiB allowed (GAMEFMT_RBX_MAX_DECOMPRESSED)");
        TerrainChunk chunk;
        chunk.material = std::exchange(scratchMaterial, {});
        chunk.occupancy = std::exchange(scratchOccupancy, {});
        chunk.material.resize(kTerrainChunkVoxels);
        chunk.occupancy.resize(kTerrainChunkVoxels);
        std::uint64_t nonAir = 0, runs = 0;
        DecodeRuns(r, chunk, counts, used, nonAir, runs);
        if (chunk
                .layered) { // the layer values say it all: the arrays go back to the scratch, their bytes to the budget
            scratchMaterial = std::move(chunk.material);
            scratchOccupancy = std::move(chunk.occupancy);
            chunk.material = {};
            chunk.occupancy = {};
            used -= kChunkBytes;
        }
        grid.runs += runs;
        const bool inRange = std::abs(pos[0]) <= kMaxChunkCoordinate && std::abs(pos[1]) <= kMaxChunkCoordinate &&
                             std::abs(pos[2]) <= kMaxChunkCoordinate;
        if (!inRange) {
            ++outside;
            continue;
        }
        if (!seen.insert(TerrainPositionKey(pos[0], pos[1], pos[2])).second) {
            ++repeated;
            continue;
        }
        chunk.position = {static_cast<std::int32_t>(pos[0]), static_cast<std::int32_t>(pos[1]),
                          static_cast<std::int32_t>(pos[2])};
        grid.nonAirVoxels += nonAir;
        if (chunk.uniform()) ++grid.uniformChunks;
        if (chunk.compact()) ++grid.compactChunks;
        grid.chunks.push_back(std::move(chunk));
    }
    if (outside != 0)
        grid.warnings.push_back(std::to_string(outside) + " chunk(s) beyond ±1024 chunks from the origin skipped");
    if (repeated != 0) grid.warnings.push_back(std::to_string(repeated) + " chunk(s) at a repeated position skipped");
    if (counts.airBytes != 0)
        grid.warnings.push_back(std::to_string(counts.airBytes) + " Air run(s) with an occupancy byte");
    if (counts.unknown != 0)
        grid.warnings.push_back(std::to_string(counts.unknown) +
                                " run(s) of an unknown material id (23–63), drawn as solid");
    if (counts.oddLiquid != 0)
        grid.warnings.push_back(std::to_string(counts.oddLiquid) + " liquid escape(s) on Air or Water read as water");
    return grid;
}

} // namespace gamefmt::rbx
