// Layered clothing on characters (docs/formats/roblox-avatar.md §3; docs/roblox-model.md "Avatars"): each WrapLayer's
// mesh fitted from its inner cage onto the body's WrapTarget cages (meshing/cage_fit), layers stacked by Order, and
// skinned to the body parts so it follows the rig's animations.
#pragma once

#include "assimp_glue/roblox_model/geometry.hpp"

#include <cstdint>
#include <vector>

struct aiNode;
struct aiScene;

namespace gamefmt::rbx {
struct Document;
}

namespace gamefmt::glue {

// Node metadata of a layered clothing part: "fitted", or why it kept its authored shape ("no body cages", "cage
// missing", "mesh missing").
inline constexpr const char *kRbxLayered = "rbx.layered";

// Runs after the geometry and the rigs (the part nodes are the bones): for every character with WrapLayers, fits each
// layer's mesh and replaces the handle's mesh by the fitted, skinned one. Cage and mesh assets come through
// `options.assets`; a layer whose cages or body cages are missing keeps its mesh as authored (one warning naming the
// accessories). Does nothing when `options.clothing` is false.
void FitLayeredClothing(const rbx::Document &doc, const std::vector<aiNode *> &nodes, const RbxGeometryOptions &options,
                        aiScene *scene);

} // namespace gamefmt::glue
