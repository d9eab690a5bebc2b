// Roblox smooth terrain (docs/formats/roblox-terrain.md): the Terrain.SmoothGrid voxel blob decoded strictly into
// 32³ chunks (terrain.cpp), and a dense, chunk-parallel surface-nets mesher (§8.2, §8.3) that turns the voxels into
// triangles per material and simplifies them to an error bound (terrain_mesher.cpp). No Assimp here: the glue builds
// aiMeshes from TerrainSurface.
#pragma once

#include "importers/roblox_model/dom.hpp"

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

// A triangle surface: one vertex list (studs, world space) with smooth normals and, per material id, triangles.
struct TerrainSurface {
    std::vector<Vector3> positions;
    std::vector<Vector3> normals;
    std::vector<std::vector<std::uint32_t>> trianglesByMaterial; // index = material id (Water's: the water pass)
    std::uint64_t fullTriangles = 0;                             // triangles before simplification
    std::uint64_t meshedChunks = 0;        // chunks that had a surface (the others were skipped whole)
    float simplifierError = 0;             // the largest error meshoptimizer reported for a patch, studs
    std::uint64_t unsimplifiedPatches = 0; // chunk surfaces left as they were (meshoptimizer left a zero-area triangle)
};

struct TerrainMeshOptions {
    int stride = 1;    // 1, 2 or 4: cells of 4·stride studs (§8.4)
    bool water = true; // the water pass (§8.3)
    // Simplification bound in studs; 0 = none (the surface-nets surface as is). Each chunk's surface of each
    // material is simplified on its own with its borders locked (no cracks at chunk or material borders): flat
    // regions exactly (their inner vertices removed), the rest by meshopt_simplify to this error.
    float error = 0;
    int threads = 1; // chunks meshed in parallel; the output does not depend on it
    // Chunks whose whole neighbourhood is layered (a sea floor) skip the general path: same output, for tests.
    bool layeredShortcut = true;
};

// Surface nets of §8.2 over the sparse grid, chunk by chunk with a two-voxel apron read from the neighbours, then
// stitched: a vertex on a chunk border is one vertex (no seams, no cracks, normals summed over both sides). With
// `water`, the §8.3 pass's triangles are in trianglesByMaterial[kTerrainWater]. Throws std::bad_alloc only.
TerrainSurface MeshTerrain(const TerrainGrid &grid, const TerrainMeshOptions &options);

// The key of a chunk (or voxel, or dual cell) position within ±2^20 per axis, for hash tables.
inline std::uint64_t TerrainPositionKey(std::int64_t x, std::int64_t y, std::int64_t z) {
    const auto part = [](std::int64_t v) { return static_cast<std::uint64_t>(v + (1 << 20)) & 0x1FFFFF; };
    return part(x) << 42 | part(y) << 21 | part(z);
}

} // namespace gamefmt::rbx
