// An aiScene in the Roblox mesh builder's terms (docs/formats/roblox-mesh.md §14): shared by the glue that writes
// Roblox meshes — the .mesh exporter (assimp_glue/roblox_mesh/exporter.cpp) and the Roblox model exporter, which
// writes a place's MeshPart assets (assimp_glue/roblox_model/generic_export.cpp).
#pragma once

#include "importers/roblox_mesh/mesh_builder.hpp"

#include <cstddef>
#include <string>
#include <vector>

struct aiScene;

namespace gamefmt::glue {

// What the scene holds, in the builder's terms. Exposed for tests.
struct RobloxMeshSceneInput {
    rbxmesh::BuildInput input;
    std::size_t sceneLevels = 1;       // LOD levels the scene itself carries (nodes with rbxmesh.lodLevel)
    std::vector<std::string> warnings; // also sent to Assimp's logger
};

// Converts a (post-processed) scene: node transforms baked, every mesh merged into one vertex pool, LOD
// levels from nodes with INT32 metadata `rbxmesh.lodLevel`, bones from the aiBones (plus non-bone nodes
// between bones), influences per vertex, the FACS / HSRAVIS passthrough blobs from the scene metadata.
// Throws FormatError ("Roblox mesh") when the scene cannot become a mesh (no triangles, > 2^32 vertices).
RobloxMeshSceneInput ExtractRobloxMeshInput(const aiScene &scene);

} // namespace gamefmt::glue
