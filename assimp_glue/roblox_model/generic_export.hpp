// Any scene → a Roblox model or place (docs/formats/roblox-model.md §6 "Generic scenes"): a node with meshes
// becomes a Model with one MeshPart per aiMesh, other nodes Models (with children) or Folders; every MeshPart's
// mesh is a sidecar .mesh file beside the output and its texture a sidecar image, named by MeshId / TextureID so
// that importing the written file with the output folder as asset folder gives back the geometry.
#pragma once

#include "importers/roblox_model/document/dom.hpp"

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

struct aiScene;

namespace gamefmt::glue {

struct GenericRbxOptions {
    bool place = false;                    // .rbxl/.rbxlx: everything under a Workspace service
    std::string stem = "model";            // sidecars are "<stem>_<n>.mesh" and "<stem>_tex<n>.<ext>"
    std::string meshVersion = "4.00";      // GAMEFMT_RBX_MESH_VERSION: "2.00" … "7.00" or "auto"
    std::string uriPrefix = "rbxasset://"; // GAMEFMT_RBX_MESH_URI_PREFIX: MeshId / TextureID = prefix + file name
    // Reads an external texture file (a path of the scene's materials); false when it cannot.
    std::function<bool(const std::string &path, std::vector<std::uint8_t> &bytes)> readFile;
};

struct GenericRbxResult {
    rbx::Document doc;
    std::vector<std::pair<std::string, std::vector<std::uint8_t>>> sidecars; // (file name, bytes), in order
    std::vector<std::string> warnings;
};

// Builds the document and its sidecars. Lengths are converted to studs (StudsPerSceneUnit). Throws FormatError
// ("Roblox model") when the scene has no root node.
GenericRbxResult GenericSceneToRoblox(const aiScene &scene, const GenericRbxOptions &options);

} // namespace gamefmt::glue
