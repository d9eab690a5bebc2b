// Roblox rigs and animations in the aiScene (docs/roblox-model.md "Rigs and animations";
// docs/formats/roblox-model.md §5.6): the node tree rebuilt along Motor6D joints (`<joint>:C0` static →
// `<joint>:T` animated → the Part1 node) with welded parts riding along, Bones given a `<bone>:T` node, and one
// aiAnimation per (KeyframeSequence, rig) whose tracks bind.
#pragma once

#include "assimp_glue/roblox_model/geometry.hpp"

#include <cstdint>
#include <string_view>
#include <vector>

struct aiNode;
struct aiScene;

namespace gamefmt::rbx {
struct Document;
}

namespace gamefmt::glue {

class UniqueNames;

// Node metadata of the rig nodes (docs/metadata.md): joint nodes carry rbx.joint (the Motor6D or Bone referent,
// they are not instances); a part node moved under a joint or a weld carries rbx.rigParent (the node name of its
// instance parent, "DataModel" at the top) and rbx.rigIndex (its place among that parent's children), which
// DocumentFromScene uses to put the instance back.
inline constexpr const char *kRbxJoint = "rbx.joint";
inline constexpr const char *kRbxRigParent = "rbx.rigParent";
inline constexpr const char *kRbxRigIndex = "rbx.rigIndex";
// Node metadata of an animation clip (KeyframeSequence, CurveAnimation): how many instances below it (Keyframes,
// Poses, curves) have no node of their own; DocumentFromScene keeps them as the file has them.
inline constexpr const char *kRbxCollapsed = "rbx.collapsed";
// Scene metadata of animation a (0-based aiAnimation index): "anim.<a>.<key>"; the glTF writer moves these into
// the animation's extras (docs/metadata.md).
inline constexpr const char *kAnimationMetadataPrefix = "anim.";

struct RbxRigOptions {
    bool rigs = true;       // GAMEFMT_RBX_RIGS
    bool animations = true; // GAMEFMT_RBX_ANIMATIONS (needs rigs)
    unsigned fps = 60;      // GAMEFMT_RBX_ANIMATION_FPS: baking rate of non-linear easing
    // Animation assets (an Animation's AnimationId: a downloaded .rbxm/.rbxmx holding a KeyframeSequence) are read
    // through this (GAMEFMT_RBX_ASSET_DIR); null: they stay unresolved.
    RbxAssetResolver assets;
};

// The properties rigs and animations read (ImportRobloxModel keeps them when it decodes only what it needs).
bool RigsRead(std::string_view name);

// Restructures the nodes of `nodes` (one per instance, null for those not in the tree) along the document's
// rigs and appends the animations to `scene`. Warnings go to Assimp's log.
void AddRobloxRigs(const rbx::Document &doc, const std::vector<aiNode *> &nodes, const RbxRigOptions &options,
                   aiScene *scene, UniqueNames &names);

} // namespace gamefmt::glue
