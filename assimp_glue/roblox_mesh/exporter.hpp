// The Roblox mesh exporter (docs/formats/roblox-mesh.md §14): aiScene → BuildInput → BuildRobloxMesh → WriteRobloxMesh
// → bytes through the IOSystem, registered under the ids rbxmesh (auto version) and rbxmesh2 ... rbxmesh7.
#pragma once

#include "importers/roblox_mesh/mesh_builder.hpp"

#include <assimp/Exporter.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

struct aiScene;

namespace gamefmt::glue {

// The exporter entries, `rbxmesh` first (so extension lookups pick the auto-version exporter). Every
// string has static storage, as Assimp keeps them by pointer.
const std::vector<Assimp::Exporter::ExportFormatEntry> &RobloxMeshExportEntries();

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

// The options the properties, the exporter id and the scene decide (the precedence of §14.7 and the issue:
// id version > GAMEFMT_RBXMESH_VERSION > the source version of a Roblox mesh round trip > auto).
struct RobloxMeshExportSettings {
    std::string version = "auto";   // "auto" or a writable version "2.00" ... "7.00"
    bool versionFromSource = false; // taken from SourceAsset_FormatVersion of a Roblox mesh round trip
    bool draco = true;
    bool generateLods = true;
    std::vector<float> lodRatios{0.5f, 0.25f};
};

// `idVersion` is the version the exporter id names ("" for rbxmesh). Throws FormatError naming the option
// whose value is bad.
RobloxMeshExportSettings ResolveRobloxMeshExportSettings(const aiScene &scene, const std::string &idVersion,
                                                         const Assimp::ExportProperties *properties);

// The whole export without the IOSystem: the file's bytes. Throws FormatError.
std::vector<std::uint8_t> ExportRobloxMeshToBytes(const aiScene &scene, const std::string &idVersion,
                                                  const Assimp::ExportProperties *properties);

} // namespace gamefmt::glue
