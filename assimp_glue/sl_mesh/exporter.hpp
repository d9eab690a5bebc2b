// The Second Life mesh exporter (docs/formats/sl-mesh.md §13): aiScene -> BuildInput -> BuildAsset -> WriteAsset ->
// bytes through the IOSystem, registered under the id "llmesh".
#pragma once

#include "importers/sl_mesh/asset_builder.hpp"

#include <assimp/Exporter.hpp>

#include <cstdint>
#include <string>
#include <vector>

struct aiScene;

namespace gamefmt::glue {

const std::vector<Assimp::Exporter::ExportFormatEntry> &SlMeshExportEntries();

// What the scene holds, in the builder's terms (exposed for tests).
struct SlMeshSceneInput {
    slmesh::BuildInput input;
    std::vector<std::string> warnings;
};

// Converts a triangulated scene: node transforms and the Y-up -> Z-up rotation baked (none when the scene
// metadata says UpAxis = 2), one face per material, LOD levels from nodes with `sl.lodLevel`, physics from a
// node named "physics_mesh", bones mapped to canonical SL joint names (unknown names: FormatError listing them).
SlMeshSceneInput ExtractSlMeshInput(const aiScene &scene);

// The whole export without the IOSystem: file bytes per output file, [0] the model, [k] submodel k.
std::vector<std::vector<std::uint8_t>> ExportSlMeshToBytes(const aiScene &scene,
                                                           const Assimp::ExportProperties *properties);

} // namespace gamefmt::glue
