// Roblox smooth terrain (docs/formats/roblox-terrain.md): the Terrain.SmoothGrid voxel blob decoded strictly into
// 32³ chunks (terrain.cpp). The mesher that turns the voxels into triangles is geometry processing, one layer up:
// meshing/terrain_mesher.hpp.
#pragma once

#include "importers/roblox_model/document/dom.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gamefmt::rbx {

inline constexpr const char *kTerrainFormatName = "Roblox terrain";
inline constexpr int kTerrainChunkEdge = 32;             // voxels per chunk edge
inline constexpr int kTerrainChunkVoxels = 32 * 32 * 32; // voxels per chunk
inline constexpr float kVoxelStuds = 4.0f;
inline constexpr std::uint8_t kTerrainAir = 0, kTerrainWater = 1;
inline constexpr std::size_t kTerrainMaterialCount = 23; // ids with a name (§5); 23–63 are unknown solids

// One 32³ chunk; voxel i has local x = i & 31, z = (i >> 5) & 31, y = i >> 10 (§4.4). A layered chunk — every y layer
// one material and occupancy: solid rock, open air, deep water, a sea floor; most chunks of a real map — keeps no
// arrays, only its 32 layer values.
struct TerrainChunk {
    std::array<std::int32_t, 3> position{};   // in chunks (global voxel = 32 · position + local)
    std::vector<std::uint8_t> material;       // 32768 material ids (0 Air, 1 Water, 2… solids); empty if compact
    std::vector<std::uint8_t> occupancy;      // 32768 stored bytes: amount = (b + 1) / 256; absent = 255 (full)
    std::vector<std::uint8_t> liquid;         // empty, or 32768 liquid amounts of shoreline voxels: 0 none,
                                              // else (b + 1) capped at 255, amount = value / 256
    bool hasSolid = false, hasLiquid = false; // any voxel of material ≥ 2; any Water voxel or shoreline liquid
    // Whether every y layer holds one material and occupancy (and no liquid escape); then layers[y] =
    // material << 8 | occupancy (Air: occupancy 255).
    bool layered = false;
    std::array<std::uint16_t, 32> layers{};
    bool isUniform = false; // every voxel one value: uniformMaterial, uniformOccupancy (layered too)
    std::uint8_t uniformMaterial = kTerrainAir, uniformOccupancy = 255;

    bool compact() const { return material.empty(); } // layered, values in `layers` (32-voxel chunks only)
    bool uniform() const { return isUniform; }
    std::uint8_t materialAt(std::size_t i) const {
        return material.empty() ? static_cast<std::uint8_t>(layers[(i >> 10) & 31] >> 8) : material[i];
    }
    std::uint8_t occupancyAt(std::size_t i) const {
        return occupancy.empty() ? static_cast<std::uint8_t>(layers[(i >> 10) & 31] & 255) : occupancy[i];
    }
    std::uint8_t liquidAt(std::size_t i) const { return liquid.empty() ? 0 : liquid[i]; }
};

struct TerrainGrid {
    std::vector<TerrainChunk> chunks;
    std::size_t uniformChunks = 0;  // chunks of one value (TerrainChunk::uniform)
    std::size_t compactChunks = 0;  // chunks without arrays (TerrainChunk::compact: layered), uniform ones included
    std::uint64_t nonAirVoxels = 0; // voxels whose material is not Air (water included)
    std::uint64_t runs = 0;
    std::vector<std::string> warnings;
};

// Decodes a SmoothGrid blob (§4, §7). Throws FormatError (kTerrainFormatName, problem, byte offset) for an
// unsupported header or a malformed chunk; `maxBytes` caps the memory the dense chunks take (64 KiB each, charged
// before a chunk is known to be uniform).
TerrainGrid DecodeSmoothGrid(const std::uint8_t *data, std::size_t size,
                             std::uint64_t maxBytes = std::uint64_t(1) << 30);

// Enum.Material value and name of a terrain material id (§5): (1280, "Grass") for 2; (0, "Unknown<id>") for ids
// 23 and up.
std::uint32_t TerrainEnumMaterial(std::uint8_t id);
std::string TerrainMaterialName(std::uint8_t id);

// MaterialColors (§5): the sRGB colour of each id < 23 from the 69-byte blob, the `classic` defaults for what the
// blob lacks; ids 0 and 1 are reserved (their bytes are ignored).
std::array<Color3uint8, kTerrainMaterialCount> TerrainMaterialColors(const std::uint8_t *data, std::size_t size);

// The key of a chunk (or voxel, or dual cell) position within ±2^20 per axis, for hash tables.
inline std::uint64_t TerrainPositionKey(std::int64_t x, std::int64_t y, std::int64_t z) {
    const auto part = [](std::int64_t v) { return static_cast<std::uint64_t>(v + (1 << 20)) & 0x1FFFFF; };
    return part(x) << 42 | part(y) << 21 | part(z);
}

} // namespace gamefmt::rbx
