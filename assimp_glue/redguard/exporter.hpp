// The Redguard exporters (docs/formats/redguard-3d.md §15): aiScene -> BuildInput -> BuildModel -> WriteModel -> bytes
// through the IOSystem, registered under the ids "rg3d" (.3d, v5.0 or v4.0) and "rg3dc" (.3dc, frame type 2).
#pragma once

#include "importers/redguard/model_builder.hpp"

#include <assimp/Exporter.hpp>

#include <cstdint>
#include <string>
#include <vector>

struct aiScene;

namespace Assimp {
class IOSystem;
}

namespace gamefmt::glue {

const std::vector<Assimp::Exporter::ExportFormatEntry> &RedguardExportEntries();

enum class RedguardExportKind { Model3D, Model3DC };

// What the scene holds, in the builder's terms (exposed for tests): every mesh of every node merged, node
// transforms applied; polygons in file order and concave faces the importer split re-joined when the model
// node carries rg.face_order; frames from anim meshes (§15 "Frame count").
struct RedguardSceneInput {
    redguard::BuildInput input;
    std::string vertexNormals; // rg.vertex_normals of the model node ("" when absent)
    std::vector<std::string> warnings;
};
RedguardSceneInput ExtractRedguardInput(const aiScene &scene);

struct RedguardExportResult {
    std::vector<std::uint8_t> bytes;
    std::vector<std::string> warnings; // also sent to Assimp's logger
};

// The whole export without writing: options from `properties` (may be null); `io` (may be null) opens the
// GAMEFMT_RG_PALETTE file, relative to `path`'s folder when not found as given. Throws FormatError.
RedguardExportResult ExportRedguardToBytes(const aiScene &scene, RedguardExportKind kind,
                                           const Assimp::ExportProperties *properties, Assimp::IOSystem *io = nullptr,
                                           const std::string &path = "");

} // namespace gamefmt::glue
