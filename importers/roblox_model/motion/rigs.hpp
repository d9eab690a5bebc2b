// Roblox rigs (docs/formats/roblox-animation.md §4): Motor6D and Bone joint trees and the parts welded to them, found
// in the document model. Plain math on the document, no Assimp: the glue (assimp_glue/roblox_model/rigs.cpp) turns
// them into nodes; keyframes.hpp and curves.hpp read the animations that drive them.
#pragma once

#include "common/math.hpp"
#include "importers/roblox_model/document/dom.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace gamefmt::rbx {

// One joint: a Motor6D (world(part1) = world(part0) · c0 · T · c1⁻¹) or a Bone (world(bone) = world(parent) ·
// Bone.CFrame · T: c0 = Bone.CFrame, c1 = identity, part0 = the parent part or Bone, part1 = the Bone).
struct RigJoint {
    std::uint32_t instance = kNoInstance; // the Motor6D or the Bone
    std::uint32_t part0 = kNoInstance;
    std::uint32_t part1 = kNoInstance;
    Rigid c0, c1;
    bool bone = false;
};

// A part that rides rigidly on a rig part through a weld: world(part) = world(on) · local.
struct RiderWeld {
    std::uint32_t part = kNoInstance;
    std::uint32_t on = kNoInstance;
    std::uint32_t weld = kNoInstance;
    Rigid local;
};

struct Rig {
    std::string name;                  // the nearest ancestor Model's name, else the root part's
    std::uint32_t model = kNoInstance; // that Model
    std::uint32_t root = kNoInstance;  // the root part (Part1 of no joint)
    std::vector<std::uint32_t> joints; // indices into RigSet::joints, every joint after its parent side's joint
};

struct RigSet {
    std::vector<RigJoint> joints;
    std::vector<Rig> rigs;
    std::vector<RiderWeld> riders; // each after the rider its `on` part rides on, if any
    std::vector<std::string> warnings;
};

// A weld the file does not hold but the caller knows of (an accessory worn by its matching attachments,
// docs/formats/roblox-avatar.md §6): `rider` rides on `on` at world(rider) = world(on) · local.
struct ImpliedWeld {
    std::uint32_t on = kNoInstance;
    std::uint32_t rider = kNoInstance;
    Rigid local;
};

// §4.1: Motor6Ds whose Part0 and Part1 are distinct BaseParts (Enabled ≠ false), grouped into connected rigs
// walked breadth-first from the root (HumanoidRootPart preferred); a part that is Part1 of two motors keeps the
// first; motors in a cycle are left out with a warning. Bones under rig parts join that rig; a Bone tree under
// another part is a rig of its own. Weld, ManualWeld, Snap, Glue, Motor and WeldConstraint attach other parts;
// `implied` welds attach parts that none of those reaches first (their RiderWeld::weld is kNoInstance).
RigSet FindRigs(const Document &doc, const std::vector<ImpliedWeld> &implied = {});

} // namespace gamefmt::rbx
