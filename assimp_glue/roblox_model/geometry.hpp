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

class UniqueNames;

// Which instances get geometry (GAMEFMT_RBX_GEOMETRY_SCOPE).
enum class RbxGeometryScope : std::uint8_t {
    Auto,      // Workspace for places, everything for models
    Workspace, // the descendants of a top-level Workspace
    All,       // every part in the file
};

// What an asset is looked up as: an image, a Roblox mesh, a Roblox model (an animation's KeyframeSequences, a
// union's PartOperationAsset) or a TexturePack (the XML naming a SurfaceAppearance's maps).
enum class RbxAssetKind : std::uint8_t { Image, Mesh, Animation, Union, TexturePack };

// An asset found for a content URI (GAMEFMT_RBX_ASSET_DIR): its bytes (gzip already inflated) and what they
// are, sniffed: "png", "jpg", "mesh", "rbxm"/"rbxmx" (a Roblox model: animation and union assets) or "texturepack".
struct RbxAsset {
    std::vector<std::uint8_t> bytes;
    std::string format;
    std::string path; // the file it came from
};
// Finds the asset of `kind` a content URI names, or nullopt (the URI then stays unresolved: in the material as
// $rbx.textureUri, or as a placeholder box with rbx.unresolved).
using RbxAssetResolver = std::function<std::optional<RbxAsset>(const std::string &uri, RbxAssetKind kind)>;

struct RbxGeometryOptions {
    bool enabled = true;
    RbxGeometryScope scope = RbxGeometryScope::Auto;
    bool skipInvisible = false; // GAMEFMT_RBX_SKIP_INVISIBLE: no mesh for Transparency >= 1
    unsigned segments = 24;     // GAMEFMT_RBX_SEGMENTS: around cylinders and spheres
    bool sun = false;           // GAMEFMT_RBX_SUN: a directional light from Lighting's time and latitude
    RbxAssetResolver assets;    // null: every asset URI is unresolved
    bool terrain = true;        // GAMEFMT_RBX_TERRAIN: mesh Terrain.SmoothGrid
    bool terrainWater = true;   // GAMEFMT_RBX_TERRAIN_WATER
    int terrainStride = 1;      // GAMEFMT_RBX_TERRAIN_STRIDE: 1, 2 or 4
    float terrainError = 0.5f;  // GAMEFMT_RBX_TERRAIN_ERROR: studs, 0 = unsimplified
    int terrainThreads = 1;     // GAMEFMT_RBX_TERRAIN_THREADS resolved (0 = hardware concurrency → that count)
    std::uint64_t terrainBudget = std::uint64_t(1) << 30; // bytes of dense voxel chunks (GAMEFMT_RBX_MAX_DECOMPRESSED)
    bool clothing = true;  // GAMEFMT_RBX_CLOTHING: composite classic clothing onto characters' body parts
    int clothingScale = 1; // GAMEFMT_RBX_CLOTHING_SCALE: composite textures at 1..8 × Roblox's layout size
};

// Adds the geometry of `doc` to `scene`, whose node for instance i is `nodes[i]` (null when the instance is
// not in the tree). `order` lists the instances in tree pre-order; `isPlace` decides the Auto scope.
// Sets meshes, materials, textures, lights and cameras on `scene` and mesh indices on the nodes; placeholders
// get node metadata rbx.geometry = "placeholder" and rbx.unresolved = their asset URI. Warnings go to
// Assimp's logger (one per kind of problem, with a count).
// MeshParts and FileMeshes whose mesh resolves through `options.assets` get the real mesh (rbx.geometry =
// "mesh"); a skinned one gets its skeleton as a child node, named through `names` (the scene's unique names).
void AddRobloxGeometry(const rbx::Document &doc, const std::vector<aiNode *> &nodes,
                       const std::vector<std::uint32_t> &order, bool isPlace, const RbxGeometryOptions &options,
                       aiScene *scene, UniqueNames *names = nullptr);

// The sun of the place's top-level Lighting as a directional light named `nodeName` (shining along the
// direction Appearance::sun gives, colour white × Lighting.Brightness); null when there is no Lighting or the
// sun is below the horizon.
std::unique_ptr<aiLight> RobloxSunLight(const rbx::Document &doc, const std::string &nodeName);

} // namespace gamefmt::glue
