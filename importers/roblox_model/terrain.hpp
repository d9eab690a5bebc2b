// Roblox smooth terrain (docs/formats/roblox-terrain.md): the Terrain.SmoothGrid voxel blob decoded strictly into
// 32³ chunks, and a surface-nets mesher (§8.2) that turns the voxels into triangles per material, plus water
// (§8.3). No Assimp here: the glue builds aiMeshes from TerrainSurface.
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

// One 32³ chunk; voxel i has local x = i & 31, z = (i >> 5) & 31, y = i >> 10 (§4.4).
struct TerrainChunk {
    std::array<std::int32_t, 3> position{}; // in chunks (global voxel = 32 · position + local)
    std::vector<std::uint8_t> material;     // 32768 material ids (0 Air, 1 Water, 2… solids)
    std::vector<std::uint8_t> occupancy;    // 32768 stored bytes: amount = (b + 1) / 256; absent = 255 (full)
    std::vector<std::uint8_t> liquid;       // empty, or 32768 liquid amounts of shoreline voxels: 0 none,
                                            // else (b + 1) capped at 255, amount = value / 256
};

struct TerrainGrid {
    std::vector<TerrainChunk> chunks;
    std::uint64_t nonAirVoxels = 0; // voxels whose material is not Air (water included)
    std::uint64_t runs = 0;
    std::vector<std::string> warnings;
};

// Decodes a SmoothGrid blob (§4, §7). Throws FormatError (kTerrainFormatName, problem, byte offset) for an
// unsupported header or a malformed chunk; `maxBytes` caps the memory the dense chunks take (64 KiB each).
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
};

struct TerrainMeshOptions {
    int stride = 1;    // 1, 2 or 4: cells of 4·stride studs (§8.4)
    bool water = true; // the water pass (§8.3)
};

// Surface nets of §8.2 over the whole sparse grid (no seams at chunk borders); with `water`, the §8.3 pass's
// triangles are in trianglesByMaterial[kTerrainWater].
TerrainSurface MeshTerrain(const TerrainGrid &grid, const TerrainMeshOptions &options);

} // namespace gamefmt::rbx
