// The Second Life avatar skeleton (docs/formats/sl-mesh.md §9) as a static table, with joint lookup, the uploader's
// name aliases and each joint's default local transform.
#pragma once

#include "common/math.hpp"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace gamefmt::slmesh {

enum class JointKind : unsigned char { Bone, Collision };

struct AvatarJoint {
    const char *name;
    int parent;     // index into kAvatarJoints, -1 for mPelvis
    float pos[3];   // offset from the parent, metres (XML `pos`)
    float rot[3];   // Euler degrees; applied X first, then Y, then Z (R = Rz*Ry*Rx, column vectors)
    float scale[3]; // 1 for bones; ellipsoid scale for collision volumes
    JointKind kind;
    bool extended; // Bento ("extended") rather than "base"
};

constexpr std::size_t kAvatarJointCount = 159; // 133 bones + 26 collision volumes, parents first
extern const AvatarJoint kAvatarJoints[kAvatarJointCount];

// Index of the joint with exactly this (case-sensitive) name, or -1.
int FindAvatarJoint(std::string_view name);

// The canonical joint name for a name an uploader accepts: a joint name itself, the Collada aliases of §9
// (hip -> mPelvis, abdomen -> mTorso, lShldr -> mShoulderLeft ...) and "avatar_<base bone>"; nullopt for
// anything else.
std::optional<std::string> CanonicalJointName(std::string_view name);

// The default local transform T(pos) * Rz * Ry * Rx * S(scale) (row-major, like aiMatrix4x4).
Mat4 AvatarJointLocalMatrix(std::size_t index);
// The default world transform (product of the local transforms from mPelvis down).
Mat4 AvatarJointWorldMatrix(std::size_t index);

} // namespace gamefmt::slmesh
