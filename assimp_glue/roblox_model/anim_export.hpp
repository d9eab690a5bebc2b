// Animations back to Roblox (docs/formats/roblox-model.md §5.6 and §6; docs/roblox-model.md "Animations back to
// Roblox"): every animation of a scene becomes a KeyframeSequence for a target rig, written as a .rbxm/.rbxmx whose
// top level holds one KeyframeSequence per animation, for Studio's Animation Editor.
#pragma once

#include <string>

struct aiScene;

namespace gamefmt::rbx {
struct Document;
}

namespace gamefmt::glue {

struct AnimationExportOptions {
    // Translations of scenes that are not in studs (no UnitScaleFactor 28) are divided by this (metres per stud).
    double metresPerStud = 0.28;
};

// The KeyframeSequences of `scene`'s animations for the first rig of `rig` whose joints they drive (the Motor6D
// joint tree and Bones of rbx::FindRigs). A joint's Transform comes from its "<joint>:T" node (gamefmt's layout,
// exact) or, without one, from the animated world transforms of the nodes named after its two parts:
// T = C0⁻¹ · P0⁻¹ · P1 · C1. Key times: the channel key times that move the joint, snapped to 1/2400 s. Throws
// FormatError ("Roblox model") when no animation drives any joint of any rig.
rbx::Document AnimationsToRoblox(const aiScene &scene, const rbx::Document &rig,
                                 const AnimationExportOptions &options = {});

} // namespace gamefmt::glue
