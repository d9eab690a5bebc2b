// The Roblox terrain mesher (docs/formats/roblox-terrain.md §8): dense, chunk-parallel surface nets (§8.2, §8.3) over
// the decoded grid (importers/roblox_model/geometry/terrain.hpp), triangles per material, simplified to an error
// bound with meshoptimizer. Geometry processing: threads and meshoptimizer, no bytes and no Assimp; the glue builds
// aiMeshes from TerrainSurface.
#pragma once

#include "importers/roblox_model/geometry/terrain.hpp"

#include <cstdint>
#include <vector>

namespace gamefmt::rbx {

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

} // namespace gamefmt::rbx
