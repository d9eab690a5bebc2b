// Roblox parts → meshes, materials, lights and the camera (docs/formats/roblox-model.md §5.2–§5.5): what Studio
// shows of a place or model, generated from the file alone. Identical geometry with the same look is one
// aiMesh shared by every node that shows it; every distinct look is one aiMaterial.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

struct aiLight;
struct aiNode;
struct aiScene;

namespace gamefmt::rbx {
struct Document;
}

namespace gamefmt::glue {

// Which instances get geometry (GAMEFMT_RBX_GEOMETRY_SCOPE).
enum class RbxGeometryScope : std::uint8_t {
    Auto,      // Workspace for places, everything for models
    Workspace, // the descendants of a top-level Workspace
    All,       // every part in the file
};

// An image found for a content URI (GAMEFMT_RBX_ASSET_DIR): its bytes and "png" or "jpg".
struct RbxImage {
    std::vector<std::uint8_t> bytes;
    std::string format;
};
// Finds the image a content URI names, or nullopt (the URI then stays in the material as $rbx.textureUri).
using RbxImageResolver = std::function<std::optional<RbxImage>(const std::string &uri)>;

struct RbxGeometryOptions {
    bool enabled = true;
    RbxGeometryScope scope = RbxGeometryScope::Auto;
    bool skipInvisible = false; // GAMEFMT_RBX_SKIP_INVISIBLE: no mesh for Transparency >= 1
    unsigned segments = 24;     // GAMEFMT_RBX_SEGMENTS: around cylinders and spheres
    bool sun = false;           // GAMEFMT_RBX_SUN: a directional light from Lighting's time and latitude
    RbxImageResolver images;    // null: every image URI is unresolved
};

// Adds the geometry of `doc` to `scene`, whose node for instance i is `nodes[i]` (null when the instance is
// not in the tree). `order` lists the instances in tree pre-order; `isPlace` decides the Auto scope.
// Sets meshes, materials, textures, lights and cameras on `scene` and mesh indices on the nodes; placeholders
// get node metadata rbx.geometry = "placeholder" and rbx.unresolved = their asset URI. Warnings go to
// Assimp's logger (one per kind of problem, with a count).
void AddRobloxGeometry(const rbx::Document &doc, const std::vector<aiNode *> &nodes,
                       const std::vector<std::uint32_t> &order, bool isPlace, const RbxGeometryOptions &options,
                       aiScene *scene);

// The sun of the place's top-level Lighting as a directional light named `nodeName` (shining along the
// direction Appearance::sun gives, colour white × Lighting.Brightness); null when there is no Lighting or the
// sun is below the horizon.
std::unique_ptr<aiLight> RobloxSunLight(const rbx::Document &doc, const std::string &nodeName);

} // namespace gamefmt::glue
