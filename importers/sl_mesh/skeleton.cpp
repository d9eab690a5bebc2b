// Avatar skeleton look-ups (docs/formats/sl-mesh.md §9): joint by name, the uploader's Collada aliases, and the default
// local/world transforms built from the static table in skeleton_table.cpp.
#include "importers/sl_mesh/skeleton.hpp"

#include <cmath>
#include <string>
#include <unordered_map>

namespace gamefmt::slmesh {
namespace {

const std::unordered_map<std::string_view, int> &JointIndex() {
    static const std::unordered_map<std::string_view, int> index = [] {
        std::unordered_map<std::string_view, int> m;
        m.reserve(kAvatarJointCount * 2);
        for (std::size_t i = 0; i < kAvatarJointCount; ++i) m.emplace(kAvatarJoints[i].name, static_cast<int>(i));
        return m;
    }();
    return index;
}

// The Collada names the viewer's uploader maps to base bones (§9).
struct Alias {
    const char *alias;
    const char *joint;
};
constexpr Alias kAliases[] = {
    {"hip", "mPelvis"},          {"abdomen", "mTorso"},        {"chest", "mChest"},        {"neck", "mNeck"},
    {"head", "mHead"},           {"figureHair", "mSkull"},     {"lCollar", "mCollarLeft"}, {"rCollar", "mCollarRight"},
    {"lShldr", "mShoulderLeft"}, {"rShldr", "mShoulderRight"}, {"lForeArm", "mElbowLeft"}, {"rForeArm", "mElbowRight"},
    {"lHand", "mWristLeft"},     {"rHand", "mWristRight"},     {"lThigh", "mHipLeft"},     {"rThigh", "mHipRight"},
    {"lShin", "mKneeLeft"},      {"rShin", "mKneeRight"},      {"lFoot", "mAnkleLeft"},    {"rFoot", "mAnkleRight"},
};

bool IsBaseBone(const AvatarJoint &j) {
    return j.kind == JointKind::Bone && !j.extended;
}

Mat4d LocalDouble(const AvatarJoint &j) {
    constexpr double kPi = 3.14159265358979323846;
    const double rx = static_cast<double>(j.rot[0]) * kPi / 180.0;
    const double ry = static_cast<double>(j.rot[1]) * kPi / 180.0;
    const double rz = static_cast<double>(j.rot[2]) * kPi / 180.0;
    Mat4d x, y, z, s, t;
    x.m[1][1] = std::cos(rx);
    x.m[1][2] = -std::sin(rx);
    x.m[2][1] = std::sin(rx);
    x.m[2][2] = std::cos(rx);
    y.m[0][0] = std::cos(ry);
    y.m[0][2] = std::sin(ry);
    y.m[2][0] = -std::sin(ry);
    y.m[2][2] = std::cos(ry);
    z.m[0][0] = std::cos(rz);
    z.m[0][1] = -std::sin(rz);
    z.m[1][0] = std::sin(rz);
    z.m[1][1] = std::cos(rz);
    for (int i = 0; i < 3; ++i) {
        s.m[i][i] = static_cast<double>(j.scale[i]);
        t.m[i][3] = static_cast<double>(j.pos[i]);
    }
    // Exact zero angles (every bone) keep the identity rotation exactly.
    Mat4d r;
    if (j.rot[0] != 0.0f || j.rot[1] != 0.0f || j.rot[2] != 0.0f) r = z * y * x;
    return t * r * s;
}

} // namespace

int FindAvatarJoint(std::string_view name) {
    const auto &index = JointIndex();
    const auto it = index.find(name);
    return it == index.end() ? -1 : it->second;
}

std::optional<std::string> CanonicalJointName(std::string_view name) {
    if (FindAvatarJoint(name) >= 0) return std::string(name);
    for (const Alias &a : kAliases)
        if (name == a.alias) return std::string(a.joint);
    constexpr std::string_view kPrefix = "avatar_";
    if (name.size() > kPrefix.size() && name.substr(0, kPrefix.size()) == kPrefix) {
        const int j = FindAvatarJoint(name.substr(kPrefix.size()));
        if (j >= 0 && IsBaseBone(kAvatarJoints[j])) return std::string(kAvatarJoints[j].name);
    }
    return std::nullopt;
}

Mat4 AvatarJointLocalMatrix(std::size_t index) {
    if (index >= kAvatarJointCount) return Mat4();
    return LocalDouble(kAvatarJoints[index]).toFloat();
}

Mat4 AvatarJointWorldMatrix(std::size_t index) {
    if (index >= kAvatarJointCount) return Mat4();
    Mat4d world = LocalDouble(kAvatarJoints[index]);
    // Parents precede children in the table, so the walk up always terminates.
    for (int p = kAvatarJoints[index].parent; p >= 0 && static_cast<std::size_t>(p) < kAvatarJointCount;
         p = kAvatarJoints[p].parent)
        world = LocalDouble(kAvatarJoints[p]) * world;
    return world.toFloat();
}

} // namespace gamefmt::slmesh
