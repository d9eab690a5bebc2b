// Roblox rigs and animations (docs/formats/roblox-model.md §5.6): the synthetic rig of §9.1 through a
// registered Importer, binary and XML, its parts' world positions at the table's times computed by an evaluator of
// the scene's nodes and keys written here (glTF LINEAR semantics: lerp, slerp), the easing values of §9.2,
// binding, hostile input, options, the lossless .rbxm/.rbxmx round trip with rigs present, and the corpus.
#include "assimp_glue/roblox_model/rigs.hpp"
#include "cli/run_cli.hpp"
#include "common/error.hpp"
#include "common/utf8_path.hpp"
#include "fixtures/rbx_avatar_fixtures.hpp"
#include "fixtures/rbx_place_fixtures.hpp"
#include "gamefmt/config.hpp"
#include "gamefmt/gamefmt.hpp"
#include "gamefmt/metadata.hpp"
#include "importers/roblox_model/document/binary_writer.hpp"
#include "importers/roblox_model/document/properties.hpp"
#include "importers/roblox_model/document/reader.hpp"
#include "importers/roblox_model/document/value_text.hpp"
#include "importers/roblox_model/document/xml_writer.hpp"
#include "importers/roblox_model/motion/curves.hpp"
#include "importers/roblox_model/motion/easing.hpp"
#include "importers/roblox_model/motion/keyframes.hpp"
#include "importers/roblox_model/motion/rigs.hpp"
#include "support/import_helpers.hpp"
#include "support/rbx_compare.hpp"
#include "support/rbx_values.hpp"

#include <assimp/Exporter.hpp>
#include <assimp/Importer.hpp>
#include <assimp/scene.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace gamefmt {
namespace {

using rbx::Document;
using rbx::kNoInstance;
using test::ImportMemory;
using test::ImportResult;

constexpr double kH = 0.70710678118654752;

// Ease by the numbers the file stores (PoseEasingStyle, PoseEasingDirection), as the reference's tables give them.
double EaseN(std::uint32_t style, std::uint32_t direction, double u) {
    return rbx::Ease(static_cast<rbx::EasingStyle>(style), static_cast<rbx::EasingDirection>(direction), u);
}

// ------------------------------------------------------------------ the synthetic rig (§9.1)

rbx::CFrame At(float x, float y, float z, std::array<float, 9> r = {1, 0, 0, 0, 1, 0, 0, 0, 1}) {
    rbx::CFrame cf;
    cf.position = {x, y, z};
    cf.rotation = r;
    return cf;
}
const std::array<float, 9> kRx90 = {1, 0, 0, 0, 0, -1, 0, 1, 0};
const std::array<float, 9> kRy90 = {0, 0, 1, 0, 1, 0, -1, 0, 0};

struct RigBuilder {
    Document doc;

    std::uint32_t part(const char *name, std::uint32_t parent, rbx::CFrame cf) {
        const std::uint32_t i = doc.addInstance("Part", name, parent);
        rbx::AddProperty(doc, i, "CFrame", rbx::Type::CFrame, cf);
        rbx::AddProperty(doc, i, "size", rbx::Type::Vector3, rbx::Vector3{1, 1, 2});
        return i;
    }
    std::uint32_t motor(const char *name, std::uint32_t parent, std::uint32_t p0, std::uint32_t p1, rbx::CFrame c0,
                        rbx::CFrame c1) {
        const std::uint32_t m = doc.addInstance("Motor6D", name, parent);
        rbx::AddProperty(doc, m, "C0", rbx::Type::CFrame, c0);
        rbx::AddProperty(doc, m, "C1", rbx::Type::CFrame, c1);
        rbx::AddProperty(doc, m, "Part0", rbx::Type::Ref, rbx::RefValue{p0});
        rbx::AddProperty(doc, m, "Part1", rbx::Type::Ref, rbx::RefValue{p1});
        return m;
    }
    std::uint32_t sequence(const char *name, std::uint32_t parent, bool loop = false) {
        const std::uint32_t s = doc.addInstance("KeyframeSequence", name, parent);
        rbx::AddProperty(doc, s, "Loop", rbx::Type::Bool, loop);
        rbx::AddProperty(doc, s, "Priority", rbx::Type::Enum, rbx::EnumValue{2});
        rbx::AddProperty(doc, s, "AuthoredHipHeight", rbx::Type::Float32, 2.0f);
        return s;
    }
    std::uint32_t keyframe(std::uint32_t seq, float time) {
        const std::uint32_t k = doc.addInstance("Keyframe", "Keyframe", seq);
        rbx::AddProperty(doc, k, "Time", rbx::Type::Float32, time);
        return k;
    }
    std::uint32_t pose(const char *name, std::uint32_t parent, float weight, rbx::CFrame cf = At(0, 0, 0),
                       std::uint32_t style = 0, std::uint32_t direction = 0) {
        const std::uint32_t p = doc.addInstance("Pose", name, parent);
        rbx::AddProperty(doc, p, "CFrame", rbx::Type::CFrame, cf);
        rbx::AddProperty(doc, p, "Weight", rbx::Type::Float32, weight);
        rbx::AddProperty(doc, p, "EasingStyle", rbx::Type::Enum, rbx::EnumValue{style});
        rbx::AddProperty(doc, p, "EasingDirection", rbx::Type::Enum, rbx::EnumValue{direction});
        return p;
    }
};

// Model `name` with Base, Upper (Motor6D Shoulder) and Lower (Motor6D Elbow) at `dx` studs along X.
std::uint32_t AddArm(RigBuilder &b, const char *name, float dx = 0) {
    const std::uint32_t model = b.doc.addInstance("Model", name, kNoInstance);
    const std::uint32_t base = b.part("Base", model, At(dx, 5, 0));
    const std::uint32_t upper = b.part("Upper", model, At(dx, 5, -2));
    const std::uint32_t lower = b.part("Lower", model, At(dx, 5, -4));
    b.motor("Shoulder", upper, base, upper, At(0, 0, -1), At(0, 0, 1));
    b.motor("Elbow", lower, upper, lower, At(0, 0, -1), At(0, 0, 1));
    return model;
}

// KeyframeSequence "Raise" of §9.1 (keyframes stored in the order 0, 2, 1) under `parent`.
void AddRaise(RigBuilder &b, std::uint32_t parent) {
    const std::uint32_t seq = b.sequence("Raise", parent);
    const std::uint32_t k0 = b.keyframe(seq, 0);
    b.pose("Lower", b.pose("Upper", b.pose("Base", k0, 0), 1), 1);
    const std::uint32_t k2 = b.keyframe(seq, 2);
    b.pose("Lower", b.pose("Upper", b.pose("Base", k2, 0), 0), 1, At(0, 0, 0, kRy90));
    const std::uint32_t k1 = b.keyframe(seq, 1);
    b.pose("Lower", b.pose("Upper", b.pose("Base", k1, 0), 1, At(0, 0, 0, kRx90)), 1, At(0, 0.5f, 0));
}

Document ArmDocument() {
    RigBuilder b;
    const std::uint32_t model = AddArm(b, "Arm");
    AddRaise(b, b.doc.addInstance("Model", "AnimSaves", model));
    return std::move(b.doc);
}

ImportResult ImportDoc(const Document &doc, bool xml, const test::ImporterSetup &setup = {}) {
    if (xml) {
        const std::string text = rbx::WriteXml(doc);
        return ImportMemory(std::vector<std::uint8_t>(text.begin(), text.end()), "rbxmx", 0, setup);
    }
    return ImportMemory(rbx::WriteBinary(doc), "rbxm", 0, setup);
}

// ------------------------------------------------------------------ the oracle: the scene evaluated at a time

const aiNode *FindNode(const aiNode *node, const std::string &name) {
    if (name == node->mName.C_Str()) return node;
    for (unsigned i = 0; i < node->mNumChildren; ++i)
        if (const aiNode *found = FindNode(node->mChildren[i], name)) return found;
    return nullptr;
}

// The local transform of a channel at `tick`: position lerped and rotation slerped between the two keys around it
// (glTF LINEAR), held outside.
aiMatrix4x4 ChannelAt(const aiNodeAnim &ch, double tick) {
    const auto vec = [&](const aiVectorKey *keys, unsigned n) {
        if (tick <= keys[0].mTime) return keys[0].mValue;
        for (unsigned i = 0; i + 1 < n; ++i)
            if (tick < keys[i + 1].mTime) {
                const auto u = static_cast<ai_real>((tick - keys[i].mTime) / (keys[i + 1].mTime - keys[i].mTime));
                return keys[i].mValue + (keys[i + 1].mValue - keys[i].mValue) * u;
            }
        return keys[n - 1].mValue;
    };
    const auto rot = [&](const aiQuatKey *keys, unsigned n) {
        if (tick <= keys[0].mTime) return keys[0].mValue;
        for (unsigned i = 0; i + 1 < n; ++i)
            if (tick < keys[i + 1].mTime) {
                const auto u = static_cast<ai_real>((tick - keys[i].mTime) / (keys[i + 1].mTime - keys[i].mTime));
                aiQuaternion q;
                aiQuaternion::Interpolate(q, keys[i].mValue, keys[i + 1].mValue, u);
                return q.Normalize();
            }
        return keys[n - 1].mValue;
    };
    const aiVector3D p = vec(ch.mPositionKeys, ch.mNumPositionKeys);
    aiMatrix4x4 m(rot(ch.mRotationKeys, ch.mNumRotationKeys).GetMatrix());
    m.a4 = p.x, m.b4 = p.y, m.c4 = p.z;
    return m;
}

// The world transform of `name` at `seconds` of animation `anim` (null: at rest).
aiMatrix4x4 WorldAt(const aiScene &scene, const aiAnimation *anim, const std::string &name, double seconds) {
    const aiNode *node = FindNode(scene.mRootNode, name);
    EXPECT_NE(node, nullptr) << name;
    if (node == nullptr) return {};
    aiMatrix4x4 world;
    for (; node != nullptr; node = node->mParent) {
        aiMatrix4x4 local = node->mTransformation;
        if (anim != nullptr)
            for (unsigned c = 0; c < anim->mNumChannels; ++c)
                if (anim->mChannels[c]->mNodeName == node->mName)
                    local = ChannelAt(*anim->mChannels[c], seconds * anim->mTicksPerSecond);
        world = local * world;
    }
    return world;
}

::testing::AssertionResult Near(const aiMatrix4x4 &m, double x, double y, double z, double tol = 1e-4) {
    if (std::fabs(m.a4 - x) <= tol && std::fabs(m.b4 - y) <= tol && std::fabs(m.c4 - z) <= tol)
        return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "at (" << m.a4 << ", " << m.b4 << ", " << m.c4 << "), expected (" << x
                                         << ", " << y << ", " << z << ")";
}

const aiAnimation *AnimationNamed(const aiScene &scene, const std::string &name) {
    for (unsigned a = 0; a < scene.mNumAnimations; ++a)
        if (name == scene.mAnimations[a]->mName.C_Str()) return scene.mAnimations[a];
    return nullptr;
}

rbx::Document ReadDoc(const std::filesystem::path &path) {
    const std::vector<std::uint8_t> bytes = test::ReadBytes(path);
    return rbx::ReadDocument(bytes.data(), bytes.size());
}

bool LogHas(const ImportResult &r, const std::string &text) {
    for (const std::string &line : r.log)
        if (line.find(text) != std::string::npos) return true;
    return false;
}

std::size_t CountNodes(const aiNode *node, bool jointsOnly) {
    std::string joint;
    const bool isJoint = node->mMetaData != nullptr && GetMetadataText(node->mMetaData, glue::kRbxJoint, joint);
    std::size_t n = (!jointsOnly || isJoint) ? 1 : 0;
    for (unsigned i = 0; i < node->mNumChildren; ++i) n += CountNodes(node->mChildren[i], jointsOnly);
    return n;
}

// ------------------------------------------------------------------ §9.1

class RbxRigArm : public ::testing::TestWithParam<bool> {};

TEST_P(RbxRigArm, EveryRowOfTheReferenceTable) {
    const ImportResult r = ImportDoc(ArmDocument(), GetParam());
    ASSERT_TRUE(r) << r.error;
    EXPECT_TRUE(r.validationWarnings.empty());
    const aiScene &s = *r.scene;
    ASSERT_EQ(s.mNumAnimations, 1u);
    const aiAnimation *raise = AnimationNamed(s, "Raise");
    ASSERT_NE(raise, nullptr);
    EXPECT_EQ(raise->mNumChannels, 2u);
    EXPECT_DOUBLE_EQ(raise->mDuration / raise->mTicksPerSecond, 2.0);
    // At rest every part is at its stored CFrame.
    EXPECT_TRUE(Near(WorldAt(s, nullptr, "Base", 0), 0, 5, 0));
    EXPECT_TRUE(Near(WorldAt(s, nullptr, "Upper", 0), 0, 5, -2));
    EXPECT_TRUE(Near(WorldAt(s, nullptr, "Lower", 0), 0, 5, -4));
    struct Row {
        double t, ux, uy, uz, lx, ly, lz;
    };
    const Row rows[] = {
        {0, 0, 5, -2, 0, 5, -4},   {0.5, 0, 5 + kH, -1 - kH, 0, 5 + 3.25 * kH, -1 - 2.75 * kH},
        {1, 0, 6, -1, 0, 8, -0.5}, {1.5, 0, 6, -1, -kH, 7 + kH, -0.75},
        {2, 0, 6, -1, -1, 7, -1},
    };
    for (const Row &row : rows) {
        EXPECT_TRUE(Near(WorldAt(s, raise, "Upper", row.t), row.ux, row.uy, row.uz)) << "Upper at t=" << row.t;
        EXPECT_TRUE(Near(WorldAt(s, raise, "Lower", row.t), row.lx, row.ly, row.lz)) << "Lower at t=" << row.t;
    }
    // Rotations: Upper is Rx(45°) at 0.5 (its Y axis turned towards +Z), Lower at 2 is Rx90·Ry90.
    const aiMatrix4x4 u = WorldAt(s, raise, "Upper", 0.5);
    EXPECT_NEAR(u.b2, kH, 1e-5);
    EXPECT_NEAR(u.c2, kH, 1e-5);
    const aiMatrix4x4 l = WorldAt(s, raise, "Lower", 2);
    const Rigid expected = rbx::RigidFromCFrame(At(0, 0, 0, kRx90)) * rbx::RigidFromCFrame(At(0, 0, 0, kRy90));
    const ai_real got[9] = {l.a1, l.a2, l.a3, l.b1, l.b2, l.b3, l.c1, l.c2, l.c3};
    for (int i = 0; i < 9; ++i) EXPECT_NEAR(got[i], expected.r[static_cast<std::size_t>(i)], 1e-5) << i;
}

TEST_P(RbxRigArm, JointNodesAndTheirMetadata) {
    const ImportResult r = ImportDoc(ArmDocument(), GetParam());
    ASSERT_TRUE(r) << r.error;
    const aiScene &s = *r.scene;
    // Base → Shoulder:C0 → Shoulder:T → Upper → Elbow:C0 → Elbow:T → Lower.
    const aiNode *lower = FindNode(s.mRootNode, "Lower");
    ASSERT_NE(lower, nullptr);
    const char *chain[] = {"Elbow:T", "Elbow:C0", "Upper", "Shoulder:T", "Shoulder:C0", "Base", "Arm"};
    const aiNode *n = lower->mParent;
    for (const char *name : chain) {
        ASSERT_NE(n, nullptr);
        EXPECT_STREQ(n->mName.C_Str(), name);
        n = n->mParent;
    }
    EXPECT_EQ(CountNodes(s.mRootNode, true), 4u);
    std::string parent;
    ASSERT_TRUE(GetMetadataText(lower->mMetaData, glue::kRbxRigParent, parent));
    EXPECT_EQ(parent, "Arm");
    EXPECT_EQ(GetMetadataInt(lower->mMetaData, glue::kRbxRigIndex), 2);
    // Animation metadata (scene metadata "anim.0.*").
    std::string text;
    ASSERT_TRUE(GetMetadataText(s.mMetaData, "anim.0.rbx.path", text));
    EXPECT_EQ(text, "Arm/AnimSaves/Raise");
    bool loop = true;
    ASSERT_TRUE(s.mMetaData->Get("anim.0.rbx.loop", loop));
    EXPECT_FALSE(loop);
    EXPECT_EQ(GetMetadataInt(s.mMetaData, "anim.0.rbx.keyframes"), 3);
}

TEST_P(RbxRigArm, ExportWritesTheInstanceTreeUnchanged) {
    const Document original = ArmDocument();
    const ImportResult r = ImportDoc(original, GetParam());
    ASSERT_TRUE(r) << r.error;
    Assimp::Exporter exporter;
    RegisterExporters(exporter);
    for (const char *id : {"rbxm", "rbxmx"}) {
        const aiExportDataBlob *blob = exporter.ExportToBlob(r.scene, id);
        ASSERT_NE(blob, nullptr) << id << ": " << exporter.GetErrorString();
        const Document back = rbx::ReadDocument(static_cast<const std::uint8_t *>(blob->data), blob->size);
        EXPECT_EQ(rbx::CompareDocuments(original, back), "") << id;
    }
}

INSTANTIATE_TEST_SUITE_P(BinaryAndXml, RbxRigArm, ::testing::Bool(),
                         [](const ::testing::TestParamInfo<bool> &p) { return p.param ? "xml" : "binary"; });

// ------------------------------------------------------------------ §9.2 and the evaluator

TEST(RbxAnimation, EasingSpotValues) {
    EXPECT_NEAR(EaseN(5, 0, .25), .015625, 1e-9);
    EXPECT_NEAR(EaseN(5, 1, .25), .578125, 1e-9);
    EXPECT_NEAR(EaseN(3, 0, .25), .578125, 1e-9);
    EXPECT_NEAR(EaseN(4, 1, .5), .765625, 1e-9);
    EXPECT_NEAR(EaseN(4, 0, .5), .234375, 1e-9);
    EXPECT_NEAR(EaseN(2, 1, .5), 1.015625, 1e-6);
    EXPECT_NEAR(EaseN(5, 2, .25), .0625, 1e-9);
    EXPECT_EQ(EaseN(1, 1, .999), 0);
    EXPECT_EQ(EaseN(1, 0, .001), 1);
    // §5.3's check values at .25/.5/.75.
    const double u[3] = {.25, .5, .75};
    const double cubicIn[3] = {.578125, .875, .984375}, bounceInOut[3] = {.117188, .5, .617188},
                 elasticIn[3] = {-.005524, -.015625, .088388}, elasticInOut[3] = {.011969, .5, .988031};
    for (int i = 0; i < 3; ++i) {
        EXPECT_NEAR(EaseN(3, 0, u[i]), cubicIn[i], 1e-6);
        EXPECT_NEAR(EaseN(4, 2, u[i]), bounceInOut[i], 1e-6);
        EXPECT_NEAR(EaseN(2, 0, u[i]), elasticIn[i], 1e-6);
        EXPECT_NEAR(EaseN(2, 2, u[i]), elasticInOut[i], 1e-6);
    }
    EXPECT_EQ(EaseN(99, 7, .3), .3); // unknown style: Linear
}

// One joint keyed 0 → 1 stud along X over a second with `style`/`direction`; the channel's samples against §5.3.
void CheckEasedChannel(std::uint32_t style, std::uint32_t direction, double tolerance, unsigned fps = 60) {
    RigBuilder b;
    const std::uint32_t model = AddArm(b, "Arm");
    const std::uint32_t seq = b.sequence("Ease", model);
    b.pose("Upper", b.pose("Base", b.keyframe(seq, 0), 0), 1, At(0, 0, 0), style, direction);
    b.pose("Upper", b.pose("Base", b.keyframe(seq, 1), 0), 1, At(1, 0, 0));
    const ImportResult r = ImportDoc(b.doc, false, [&](Assimp::Importer &imp) {
        imp.SetPropertyInteger(GAMEFMT_RBX_ANIMATION_FPS, static_cast<int>(fps));
    });
    ASSERT_TRUE(r) << r.error;
    const aiAnimation *anim = AnimationNamed(*r.scene, "Ease");
    ASSERT_NE(anim, nullptr);
    for (double t = 0; t <= 1.0001; t += 1.0 / 97) {
        const double expected = EaseN(style, direction, t);
        const aiMatrix4x4 m = ChannelAt(*anim->mChannels[0], t * anim->mTicksPerSecond);
        EXPECT_NEAR(m.a4, expected, tolerance) << "style " << style << " dir " << direction << " t " << t;
    }
}

TEST(RbxAnimation, NonLinearEasingIsBakedWithinTheBound) {
    // §7.2: error ≤ (1/8)(h/D)²·max|α''|·Δ with Δ = 1, D = 1, h = 1/60: Cubic 6 → 2.1e-4, InOut 12 → 4.2e-4,
    // Bounce 15.1 (InOut 30.3; kinks sampled) → 5.3e-4 (1.1e-3), Elastic 386 → 0.0134 (at 240 fps: 8.4e-4).
    for (std::uint32_t dir : {0u, 1u}) {
        CheckEasedChannel(3, dir, 2.2e-4);
        CheckEasedChannel(5, dir, 2.2e-4);
        CheckEasedChannel(4, dir, 5.3e-4);
        CheckEasedChannel(2, dir, 8.4e-4, 240);
    }
    CheckEasedChannel(5, 2, 4.2e-4);
    CheckEasedChannel(4, 2, 1.1e-3);
    CheckEasedChannel(2, 1, 0.0134);
}

TEST(RbxAnimation, ConstantEasingSwitchesWithinOneTick) {
    for (std::uint32_t dir : {0u, 1u, 2u}) {
        RigBuilder b;
        const std::uint32_t model = AddArm(b, "Arm");
        const std::uint32_t seq = b.sequence("Step", model);
        b.pose("Upper", b.pose("Base", b.keyframe(seq, 0), 0), 1, At(0, 0, 0), 1, dir);
        b.pose("Upper", b.pose("Base", b.keyframe(seq, 1), 0), 1, At(1, 0, 0));
        const ImportResult r = ImportDoc(b.doc, false);
        ASSERT_TRUE(r) << r.error;
        const aiNodeAnim &ch = *r.scene->mAnimations[0]->mChannels[0];
        const double switchAt = dir == 0 ? 0 : dir == 1 ? 1 : 0.5, tick = 1.0 / 2400;
        for (double t : {0.1, 0.3, 0.49, 0.51, 0.7, 0.99}) {
            if (std::fabs(t - switchAt) < tick) continue;
            EXPECT_NEAR(ChannelAt(ch, t * 2400).a4, t < switchAt ? 0 : 1, 1e-6) << "dir " << dir << " t " << t;
        }
    }
}

// ------------------------------------------------------------------ binding

TEST(RbxAnimation, TwoRigsShareOneSequence) {
    RigBuilder b;
    AddArm(b, "Arm");
    AddArm(b, "Arm2", 10);
    AddRaise(b, b.doc.addInstance("Folder", "Saves", kNoInstance));
    const ImportResult r = ImportDoc(b.doc, false);
    ASSERT_TRUE(r) << r.error;
    ASSERT_EQ(r.scene->mNumAnimations, 2u);
    const aiAnimation *a = AnimationNamed(*r.scene, "Raise@Arm"), *a2 = AnimationNamed(*r.scene, "Raise@Arm2");
    ASSERT_NE(a, nullptr);
    ASSERT_NE(a2, nullptr);
    EXPECT_TRUE(Near(WorldAt(*r.scene, a, "Lower", 1), 0, 8, -0.5));
    EXPECT_TRUE(Near(WorldAt(*r.scene, a2, "Lower.1", 1), 10, 8, -0.5));
    EXPECT_TRUE(Near(WorldAt(*r.scene, a, "Lower.1", 1), 10, 5, -4)); // the other rig stays at rest
}

// Issue #37 (4): two alike rigs (two R15 characters, say) and a sequence with a track neither has (a weapon
// joint scripts make at run time): each rig binds as many tracks, so each gets the animation, not the first alone.
TEST(RbxAnimation, AlikeRigsBothGetAPartlyBoundSequence) {
    RigBuilder b;
    AddArm(b, "Arm");
    AddArm(b, "Arm2", 10);
    const std::uint32_t seq = b.sequence("Grip", b.doc.addInstance("Folder", "Saves", kNoInstance));
    const std::uint32_t base = b.pose("Base", b.keyframe(seq, 0), 0);
    b.pose("Upper", base, 1, At(0, 1, 0));
    b.pose("SwordAttach", base, 1);
    const ImportResult r = ImportDoc(b.doc, false);
    ASSERT_TRUE(r) << r.error;
    ASSERT_EQ(r.scene->mNumAnimations, 2u);
    const aiAnimation *a = AnimationNamed(*r.scene, "Grip@Arm"), *a2 = AnimationNamed(*r.scene, "Grip@Arm2");
    ASSERT_NE(a, nullptr);
    ASSERT_NE(a2, nullptr);
    // Each moves its own rig's Upper up 1 stud (Shoulder's Transform), the other rig's stays where it is.
    EXPECT_TRUE(Near(WorldAt(*r.scene, a, "Upper", 0), 0, 6, -2));
    EXPECT_TRUE(Near(WorldAt(*r.scene, a2, "Upper.1", 0), 10, 6, -2));
    EXPECT_TRUE(Near(WorldAt(*r.scene, a, "Upper.1", 0), 10, 5, -2));
    for (const char *rig : {"Arm", "Arm2"}) {
        const unsigned i = AnimationNamed(*r.scene, std::string("Grip@") + rig) == r.scene->mAnimations[0] ? 0 : 1;
        std::string text;
        ASSERT_TRUE(GetMetadataText(r.scene->mMetaData, "anim." + std::to_string(i) + ".rbx.rig", text));
        EXPECT_EQ(text, rig);
        ASSERT_TRUE(GetMetadataText(r.scene->mMetaData, "anim." + std::to_string(i) + ".rbx.unboundTracks", text));
        EXPECT_EQ(text, "[\"Base/SwordAttach\"]");
    }
}

TEST(RbxAnimation, SequencesBindingNowhereAreReportedAndEmptyOnesSkipped) {
    RigBuilder b;
    const std::uint32_t model = AddArm(b, "Arm");
    const std::uint32_t sword = b.sequence("SwordSwing", model);
    b.pose("SwordAttach", b.pose("Base", b.keyframe(sword, 0), 0), 1);
    b.sequence("Empty", model);
    const ImportResult r = ImportDoc(b.doc, false);
    ASSERT_TRUE(r) << r.error;
    EXPECT_EQ(r.scene->mNumAnimations, 0u);
    EXPECT_TRUE(LogHas(r, "KeyframeSequence 'SwordSwing' (1 tracks) binds to no rig"));
    EXPECT_TRUE(LogHas(r, "1 KeyframeSequence(s) or CurveAnimation(s) without a single key skipped"));
}

TEST(RbxAnimation, HalfBoundSequencesDriveTheRigAndListTheRest) {
    RigBuilder b;
    const std::uint32_t model = AddArm(b, "Arm");
    const std::uint32_t seq = b.sequence("Grip", model);
    const std::uint32_t base = b.pose("Base", b.keyframe(seq, 0), 0);
    b.pose("Upper", base, 1, At(0, 1, 0));
    b.pose("SwordAttach", base, 1);
    const ImportResult r = ImportDoc(b.doc, false);
    ASSERT_TRUE(r) << r.error;
    ASSERT_EQ(r.scene->mNumAnimations, 1u);
    // Upper's keys, and Lower at rest (one identity key: every joint of the rig is keyed).
    ASSERT_EQ(r.scene->mAnimations[0]->mNumChannels, 2u);
    EXPECT_STREQ(r.scene->mAnimations[0]->mChannels[0]->mNodeName.C_Str(), "Shoulder:T");
    const aiNodeAnim &rest = *r.scene->mAnimations[0]->mChannels[1];
    EXPECT_STREQ(rest.mNodeName.C_Str(), "Elbow:T");
    ASSERT_EQ(rest.mNumPositionKeys, 1u);
    ASSERT_EQ(rest.mNumRotationKeys, 1u);
    EXPECT_EQ(rest.mPositionKeys[0].mValue, aiVector3D(0, 0, 0));
    EXPECT_EQ(rest.mRotationKeys[0].mValue, aiQuaternion(1, 0, 0, 0));
    std::string unbound;
    ASSERT_TRUE(GetMetadataText(r.scene->mMetaData, "anim.0.rbx.unboundTracks", unbound));
    EXPECT_EQ(unbound, "[\"Base/SwordAttach\"]");
    EXPECT_TRUE(LogHas(r, "1 of 2 tracks bind to no joint of rig 'Arm'"));
}

TEST(RbxAnimation, DuplicateSequenceNamesAreNumbered) {
    RigBuilder b;
    const std::uint32_t model = AddArm(b, "Arm");
    AddRaise(b, model);
    AddRaise(b, model);
    const ImportResult r = ImportDoc(b.doc, false);
    ASSERT_TRUE(r) << r.error;
    ASSERT_EQ(r.scene->mNumAnimations, 2u);
    EXPECT_STREQ(r.scene->mAnimations[0]->mName.C_Str(), "Raise");
    EXPECT_STREQ(r.scene->mAnimations[1]->mName.C_Str(), "Raise #2");
}

// ------------------------------------------------------------------ hostile rigs

TEST(RbxRigHostile, MissingJointEndsAndCyclesDoNotHang) {
    RigBuilder b;
    const std::uint32_t model = b.doc.addInstance("Model", "Loop", kNoInstance);
    const std::uint32_t a = b.part("A", model, At(0, 0, 0)), c = b.part("B", model, At(0, 0, -2));
    b.motor("AB", model, a, c, At(0, 0, -1), At(0, 0, 1));
    b.motor("BA", model, c, a, At(0, 0, 1), At(0, 0, -1));
    b.motor("Dangling", model, a, kNoInstance, At(0, 0, 0), At(0, 0, 0));
    b.motor("Self", model, a, a, At(0, 0, 0), At(0, 0, 0));
    const ImportResult r = ImportDoc(b.doc, false);
    ASSERT_TRUE(r) << r.error;
    EXPECT_TRUE(LogHas(r, "form a cycle with no root part"));
    EXPECT_EQ(CountNodes(r.scene->mRootNode, true), 0u);
    EXPECT_TRUE(Near(WorldAt(*r.scene, nullptr, "B", 0), 0, 0, -2));
}

TEST(RbxRigHostile, HugeTimesNaNAndSkewedFramesAreRepairedOrSkipped) {
    RigBuilder b;
    const std::uint32_t model = AddArm(b, "Arm");
    const std::uint32_t seq = b.sequence("Bad", model);
    const float nan = std::numeric_limits<float>::quiet_NaN();
    b.pose("Upper", b.pose("Base", b.keyframe(seq, 0), 0), 1, At(nan, 0, 0, {nan, 0, 0, 0, nan, 0, 0, 0, 1}));
    b.pose("Upper", b.pose("Base", b.keyframe(seq, 1e30f), 0), 1, At(0, 3, 0));
    b.pose("Upper", b.pose("Base", b.keyframe(seq, nan), 0), 1, At(0, 3, 0));
    b.pose("Upper", b.pose("Base", b.keyframe(seq, 1), 0), 1, At(0, 1, 0, {2, 0, 0, 0, 2, 0, 0, 0, 2}));
    const ImportResult r = ImportDoc(b.doc, false);
    ASSERT_TRUE(r) << r.error;
    EXPECT_TRUE(LogHas(r, "keyframe at time 1000000015047466219876688855040.000000 s skipped"));
    EXPECT_TRUE(LogHas(r, "2 Pose CFrame(s) not a rotation"));
    const aiAnimation *anim = AnimationNamed(*r.scene, "Bad");
    ASSERT_NE(anim, nullptr);
    EXPECT_DOUBLE_EQ(anim->mDuration / anim->mTicksPerSecond, 1.0);
    // The NaN key became the identity at the origin; the scaled rotation became a rotation again.
    EXPECT_TRUE(Near(WorldAt(*r.scene, anim, "Upper", 0), 0, 5, -2));
    const aiMatrix4x4 m = WorldAt(*r.scene, anim, "Upper", 1);
    EXPECT_NEAR(m.a1, 1, 1e-6);
    EXPECT_NEAR(m.b2, 1, 1e-6);
    for (unsigned c = 0; c < anim->mNumChannels; ++c)
        for (unsigned k = 0; k < anim->mChannels[c]->mNumPositionKeys; ++k)
            EXPECT_TRUE(std::isfinite(anim->mChannels[c]->mPositionKeys[k].mValue.x));
}

TEST(RbxRigHostile, ADayLongEasedSegmentIsBakedWithinTheCap) {
    RigBuilder b;
    const std::uint32_t model = AddArm(b, "Arm");
    const std::uint32_t seq = b.sequence("Slow", model);
    b.pose("Upper", b.pose("Base", b.keyframe(seq, 0), 0), 1, At(0, 0, 0), 2, 0); // Elastic
    b.pose("Upper", b.pose("Base", b.keyframe(seq, 86400), 0), 1, At(1, 0, 0));
    const ImportResult r =
        ImportDoc(b.doc, false, [](Assimp::Importer &imp) { imp.SetPropertyInteger(GAMEFMT_RBX_ANIMATION_FPS, 1000); });
    ASSERT_TRUE(r) << r.error;
    const aiAnimation *anim = AnimationNamed(*r.scene, "Slow");
    ASSERT_NE(anim, nullptr);
    // 86.4 million keys at 1000 fps; the cap samples the segment 4096 times (plus its two ends).
    EXPECT_LE(anim->mChannels[0]->mNumPositionKeys, 4098u);
    EXPECT_GE(anim->mChannels[0]->mNumPositionKeys, 4000u);
}

TEST(RbxRigHostile, DuplicatePartNamesBindByBothNames) {
    RigBuilder b;
    const std::uint32_t model = b.doc.addInstance("Model", "Twins", kNoInstance);
    const std::uint32_t root = b.part("Root", model, At(0, 0, 0));
    const std::uint32_t left = b.part("Side", model, At(-2, 0, 0)), right = b.part("Arm", model, At(2, 0, 0));
    const std::uint32_t hand = b.part("Side", model, At(2, 0, -2)); // named like `left`, under `right`
    b.motor("L", model, root, left, At(-2, 0, 0), At(0, 0, 0));
    b.motor("R", model, root, right, At(2, 0, 0), At(0, 0, 0));
    b.motor("H", model, right, hand, At(0, 0, -2), At(0, 0, 0));
    const std::uint32_t seq = b.sequence("Wave", model);
    b.pose("Side", b.pose("Arm", b.pose("Root", b.keyframe(seq, 0), 0), 0), 1, At(0, 1, 0));
    const ImportResult r = ImportDoc(b.doc, false);
    ASSERT_TRUE(r) << r.error;
    const aiAnimation *anim = AnimationNamed(*r.scene, "Wave");
    ASSERT_NE(anim, nullptr);
    EXPECT_TRUE(Near(WorldAt(*r.scene, anim, "Side.1", 0), 2, 1, -2));
    EXPECT_TRUE(Near(WorldAt(*r.scene, anim, "Side", 0), -2, 0, 0));
}

// ------------------------------------------------------------------ options

TEST(RbxRigOptions, RigsAndAnimationsCanBeSwitchedOff) {
    const Document doc = ArmDocument();
    const ImportResult off =
        ImportDoc(doc, false, [](Assimp::Importer &imp) { imp.SetPropertyBool(GAMEFMT_RBX_RIGS, false); });
    ASSERT_TRUE(off) << off.error;
    EXPECT_EQ(CountNodes(off.scene->mRootNode, true), 0u);
    EXPECT_EQ(off.scene->mNumAnimations, 0u);
    EXPECT_STREQ(FindNode(off.scene->mRootNode, "Lower")->mParent->mName.C_Str(), "Arm");
    const ImportResult still =
        ImportDoc(doc, false, [](Assimp::Importer &imp) { imp.SetPropertyBool(GAMEFMT_RBX_ANIMATIONS, false); });
    ASSERT_TRUE(still) << still.error;
    EXPECT_EQ(CountNodes(still.scene->mRootNode, true), 4u);
    EXPECT_EQ(still.scene->mNumAnimations, 0u);
    const ImportResult bad =
        ImportDoc(doc, false, [](Assimp::Importer &imp) { imp.SetPropertyInteger(GAMEFMT_RBX_ANIMATION_FPS, 0); });
    EXPECT_FALSE(bad);
    EXPECT_NE(bad.error.find("GAMEFMT_RBX_ANIMATION_FPS is 0; valid values: 1 to 1000"), std::string::npos);
}

// ------------------------------------------------------------------ as a user sees it

TEST(RbxRigDemo, TheDemoRigsWalkAndItsMarker) {
    const ImportResult r = test::ImportFile(test::TestDataDir() / "demo-rig.rbxm");
    ASSERT_TRUE(r) << r.error;
    ASSERT_EQ(r.scene->mNumAnimations, 1u);
    const aiAnimation &walk = *r.scene->mAnimations[0];
    EXPECT_STREQ(walk.mName.C_Str(), "Walk");
    EXPECT_EQ(walk.mDuration, 1.5 * 2400);
    EXPECT_EQ(walk.mNumChannels, 15u); // 9 keyed joints, 6 at rest
    std::string text;
    ASSERT_TRUE(GetMetadataText(r.scene->mMetaData, "anim.0.rbx.markers", text));
    EXPECT_EQ(text, "[{\"time\":0.500000,\"name\":\"Step\",\"value\":\"left\"}]");
    bool loop = false;
    ASSERT_TRUE(r.scene->mMetaData->Get("anim.0.rbx.loop", loop));
    EXPECT_TRUE(loop);
    EXPECT_EQ(GetMetadataInt(r.scene->mMetaData, "anim.0.rbx.priority"), 1);
    // The sword rides on the right hand: its node hangs under RightHand.
    const aiNode *sword = FindNode(r.scene->mRootNode, "Sword");
    ASSERT_NE(sword, nullptr);
    EXPECT_STREQ(sword->mParent->mName.C_Str(), "RightHand");
    EXPECT_TRUE(Near(WorldAt(*r.scene, nullptr, "Sword", 0), 1.5, 2.35, -2));
}

TEST(RbxRigCli, InfoListsAnimationsAndTheGlbCarriesThem) {
    const std::filesystem::path dir = test::ScratchDir("rbx-rig-cli");
    const std::filesystem::path rbxm = dir / "arm.rbxm", glb = dir / "arm.glb";
    test::WriteBytes(rbxm, rbx::WriteBinary(ArmDocument()));
    const test::CliResult info = test::Cli({"info", "--raw", rbxm.string()});
    ASSERT_EQ(info.code, 0) << info.err;
    // 2 s, 2 channels of 3 keys (position, rotation) and one scaling key each: Upper 0, 1 (+ hold at 2); Lower 0, 1, 2.
    EXPECT_NE(info.out.find("0 'Raise': 2 s (4800 ticks at 2400 ticks/s), 2 node channels, 0 mesh channels, 0 morph "
                            "channels, 14 keys"),
              std::string::npos)
        << info.out;
    const test::CliResult none = test::Cli({"info", "--rbx-no-animations", rbxm.string()});
    ASSERT_EQ(none.code, 0) << none.err;
    EXPECT_NE(none.out.find("Animations:         0"), std::string::npos);
    const test::CliResult out = test::Cli({"export", rbxm.string(), glb.string()});
    ASSERT_EQ(out.code, 0) << out.err;
    const std::vector<std::uint8_t> bytes = test::ReadBytes(glb);
    ASSERT_GT(bytes.size(), 20u);
    std::uint32_t jsonLength = 0;
    std::memcpy(&jsonLength, bytes.data() + 12, 4);
    const std::string json(bytes.begin() + 20, bytes.begin() + 20 + jsonLength);
    EXPECT_NE(json.find("\"name\":\"Raise\""), std::string::npos);
    EXPECT_NE(
        json.find("\"extras\":{\"rbx.sequence\":\"Raise\",\"rbx.rig\":\"Arm\",\"rbx.path\":\"Arm/AnimSaves/Raise\","
                  "\"rbx.loop\":false,\"rbx.priority\":2,\"rbx.authoredHipHeight\":2,\"rbx.keyframes\":3}"),
        std::string::npos)
        << json;
    EXPECT_EQ(json.find("\"anim.0."), std::string::npos); // not in the scene's extras
    EXPECT_NE(json.find("\"name\":\"Shoulder:T\""), std::string::npos);
}

// ------------------------------------------------------------------ skinned MeshParts follow their Bones

// A vertex of `mesh` skinned at `seconds` of `anim` (null: at rest): Σ w · world(bone node) · offset · v.
aiVector3D Skinned(const aiScene &scene, const aiAnimation *anim, double seconds, const aiMesh &mesh, unsigned vertex) {
    aiVector3D out(0, 0, 0);
    for (unsigned b = 0; b < mesh.mNumBones; ++b) {
        const aiBone &bone = *mesh.mBones[b];
        for (unsigned w = 0; w < bone.mNumWeights; ++w) {
            if (bone.mWeights[w].mVertexId != vertex) continue;
            const aiMatrix4x4 m = WorldAt(scene, anim, bone.mName.C_Str(), seconds) * bone.mOffsetMatrix;
            out += (m * mesh.mVertices[vertex]) * bone.mWeights[w].mWeight;
        }
    }
    return out;
}

TEST(RbxRigBones, SkinnedMeshPartsFollowTheirBones) {
    // MeshPart "Bar" shows the skinned bar of testdata/rbx-assets/2002 (bones Root at the mesh's foot, Tip 2 up),
    // centred at (0, 2, 0): Bone "Root" at (0, -2, 0) in the part, Bone "Tip" 2 above it. "Bend" turns Tip 90° about
    // Z at t = 1 (top ring, all Tip's, swings round the Tip's pivot at world (0, 2, 0)).
    const Document doc = fixtures::SkinnedRigDocument();
    const ImportResult r = ImportDoc(doc, false, [](Assimp::Importer &imp) {
        imp.SetPropertyString(GAMEFMT_RBX_ASSET_DIR, PathToUtf8(test::TestDataDir() / "rbx-assets"));
    });
    ASSERT_TRUE(r) << r.error;
    const aiAnimation *bend = AnimationNamed(*r.scene, "Bend");
    ASSERT_NE(bend, nullptr);
    const aiNode *barNode = FindNode(r.scene->mRootNode, "Bar");
    ASSERT_NE(barNode, nullptr);
    ASSERT_EQ(barNode->mNumMeshes, 1u);
    const aiMesh &mesh = *r.scene->mMeshes[barNode->mMeshes[0]];
    ASSERT_EQ(mesh.mNumBones, 2u);
    EXPECT_STREQ(mesh.mBones[0]->mName.C_Str(), "Root:T");
    EXPECT_STREQ(mesh.mBones[1]->mName.C_Str(), "Tip:T");
    // Vertex 16..19: the top ring (mesh y = 4, part y = 2, world y = 4), corners (±0.5, ±0.5).
    for (unsigned v = 16; v < 20; ++v) {
        const aiVector3D local = mesh.mVertices[v]; // part space
        const aiVector3D rest = Skinned(*r.scene, nullptr, 0, mesh, v);
        EXPECT_NEAR(rest.x, local.x, 1e-5);
        EXPECT_NEAR(rest.y, local.y + 2, 1e-5);
        const aiVector3D bent = Skinned(*r.scene, bend, 1, mesh, v);
        // Rz90 about the pivot (0, 2, 0): x' = −(y − 2), y' = 2 + x, with y = local.y + 2 in the world.
        EXPECT_NEAR(bent.x, -(local.y + 2 - 2), 1e-4) << v;
        EXPECT_NEAR(bent.y, 2 + local.x, 1e-4) << v;
        EXPECT_NEAR(bent.z, local.z, 1e-4) << v;
    }
}

// ------------------------------------------------------------------ animation assets

// The Arm with Humanoid → Animator → Animation "RaiseAnim" (AnimationId rbxassetid://4242); the asset folder holds
// 4242.rbxm: the Raise KeyframeSequence alone, as an uploaded animation is.
std::filesystem::path ArmWithAnimationAsset(Document &rig) {
    RigBuilder b;
    const std::uint32_t model = AddArm(b, "Arm");
    const std::uint32_t animator =
        b.doc.addInstance("Animator", "Animator", b.doc.addInstance("Humanoid", "Humanoid", model));
    const std::uint32_t anim = b.doc.addInstance("Animation", "RaiseAnim", animator);
    rbx::AddProperty(b.doc, anim, "AnimationId", rbx::Type::String, std::string("rbxassetid://4242"));
    rig = std::move(b.doc);
    RigBuilder asset;
    AddRaise(asset, kNoInstance);
    const std::filesystem::path dir = test::ScratchDir("rbx-anim-assets");
    test::WriteBytes(dir / "4242.rbxm", rbx::WriteBinary(asset.doc));
    test::WriteBytes(dir / "arm.rbxm", rbx::WriteBinary(rig));
    return dir;
}

TEST(RbxAnimationAssets, AnAnimatorsAnimationPlaysItsAsset) {
    Document rig;
    const std::filesystem::path dir = ArmWithAnimationAsset(rig);
    const ImportResult r = ImportDoc(
        rig, false, [&](Assimp::Importer &imp) { imp.SetPropertyString(GAMEFMT_RBX_ASSET_DIR, PathToUtf8(dir)); });
    ASSERT_TRUE(r) << r.error;
    const aiAnimation *anim = AnimationNamed(*r.scene, "RaiseAnim");
    ASSERT_NE(anim, nullptr);
    EXPECT_TRUE(Near(WorldAt(*r.scene, anim, "Lower", 1), 0, 8, -0.5));
    EXPECT_TRUE(Near(WorldAt(*r.scene, anim, "Lower", 1.5), -kH, 7 + kH, -0.75));
    std::string text;
    ASSERT_TRUE(GetMetadataText(r.scene->mMetaData, "anim.0.rbx.animationId", text));
    EXPECT_EQ(text, "rbxassetid://4242");
    ASSERT_TRUE(GetMetadataText(r.scene->mMetaData, "anim.0.rbx.path", text));
    EXPECT_EQ(text, "Arm/Humanoid/Animator/RaiseAnim");
    ASSERT_TRUE(GetMetadataText(r.scene->mMetaData, "anim.0.rbx.sequence", text));
    EXPECT_EQ(text, "Raise");
}

TEST(RbxAnimationAssets, MissingOrWrongAssetsAreReported) {
    Document rig;
    const std::filesystem::path dir = ArmWithAnimationAsset(rig);
    const ImportResult none = ImportDoc(rig, false);
    ASSERT_TRUE(none) << none.error;
    EXPECT_EQ(none.scene->mNumAnimations, 0u);
    EXPECT_TRUE(LogHas(none, "1 animation asset(s) named by Animation instances are not looked up"));
    // A PNG where the animation should be: not used, said so, and the animation stays missing.
    const std::filesystem::path wrong = test::ScratchDir("rbx-anim-assets-wrong");
    test::WriteBytes(wrong / "4242", test::ReadBytes(test::TestDataDir() / "rbx-assets" / "1001.png"));
    const ImportResult bad = ImportDoc(
        rig, false, [&](Assimp::Importer &imp) { imp.SetPropertyString(GAMEFMT_RBX_ASSET_DIR, PathToUtf8(wrong)); });
    ASSERT_TRUE(bad) << bad.error;
    EXPECT_EQ(bad.scene->mNumAnimations, 0u);
    EXPECT_TRUE(LogHas(bad, "is a png file; not used as an animation"));
    EXPECT_TRUE(LogHas(bad, "are not in the asset folders"));
    // `gamefmt assets --missing` names the id without the folder, and finds it with.
    const test::CliResult missing = test::Cli({"assets", "--missing", PathToUtf8(dir / "arm.rbxm")});
    ASSERT_EQ(missing.code, 0) << missing.err;
    EXPECT_EQ(missing.out, "4242\n");
    const test::CliResult found = test::Cli({"assets", "--asset-dir", PathToUtf8(dir), PathToUtf8(dir / "arm.rbxm")});
    ASSERT_EQ(found.code, 0) << found.err;
    EXPECT_NE(found.out.find("rbxassetid://4242  animation  found"), std::string::npos) << found.out;
}

// ------------------------------------------------------------------ CurveAnimation (§3.2)

using fixtures::FloatCurveBlob;

TEST(RbxCurves, FloatCurveVersion1) {
    const std::string empty("\x01\x00\x00\x00\x00\x00\x00\x00\x01\x00\x00\x00\x00\x00\x00\x00", 16); // §3.2, real files
    const auto none = rbx::ReadFloatCurve(reinterpret_cast<const std::uint8_t *>(empty.data()), empty.size());
    ASSERT_TRUE(none.has_value());
    EXPECT_TRUE(none->empty());
    const std::string blob = FloatCurveBlob(1, {{0, 0, 2, 0}, {2400, 1, 1, 0}, {4800, 3, 0, 0}, {7200, 5, 1, 0}});
    const auto keys = rbx::ReadFloatCurve(reinterpret_cast<const std::uint8_t *>(blob.data()), blob.size());
    ASSERT_TRUE(keys.has_value());
    ASSERT_EQ(keys->size(), 4u);
    EXPECT_EQ((*keys)[1].time, 1.0);
    // Cubic with zero tangents from 0 to 1 (smoothstep), Linear 1 → 3, Constant 3 until the next key.
    EXPECT_NEAR(rbx::EvaluateFloatCurve(*keys, 0.25), 0.15625, 1e-9);
    EXPECT_NEAR(rbx::EvaluateFloatCurve(*keys, 0.5), 0.5, 1e-9);
    EXPECT_NEAR(rbx::EvaluateFloatCurve(*keys, 1.5), 2, 1e-9);
    EXPECT_NEAR(rbx::EvaluateFloatCurve(*keys, 2.9), 3, 1e-9);
    EXPECT_NEAR(rbx::EvaluateFloatCurve(*keys, 9), 5, 1e-9);
    EXPECT_NEAR(rbx::EvaluateFloatCurve(*keys, -1), 0, 1e-9);
    const std::string v2 = FloatCurveBlob(2, {{0, 0, 1, 0}});
    EXPECT_FALSE(rbx::ReadFloatCurve(reinterpret_cast<const std::uint8_t *>(v2.data()), v2.size()).has_value());
    const std::string shuffled = FloatCurveBlob(1, {{2400, 0, 1, 0}, {0, 1, 1, 0}});
    EXPECT_THROW(rbx::ReadFloatCurve(reinterpret_cast<const std::uint8_t *>(shuffled.data()), shuffled.size()),
                 FormatError);
    for (std::size_t cut = 0; cut < blob.size(); ++cut)
        EXPECT_THROW(rbx::ReadFloatCurve(reinterpret_cast<const std::uint8_t *>(blob.data()), cut), FormatError) << cut;
}

TEST(RbxCurves, CurveAnimationDrivesTheRig) {
    RigBuilder b;
    const std::uint32_t model = AddArm(b, "Arm");
    const std::uint32_t curve = b.doc.addInstance("CurveAnimation", "Lift", model);
    rbx::AddProperty(b.doc, curve, "Loop", rbx::Type::Bool, false);
    const std::uint32_t base = b.doc.addInstance("Folder", "Base", curve);
    const std::uint32_t upper = b.doc.addInstance("Folder", "Upper", base);
    const std::uint32_t rotation = b.doc.addInstance("EulerRotationCurve", "Rotation", upper);
    rbx::AddProperty(b.doc, rotation, "RotationOrder", rbx::Type::Enum, rbx::EnumValue{0});
    const std::uint32_t x = b.doc.addInstance("FloatCurve", "X", rotation);
    rbx::AddProperty(b.doc, x, "ValuesAndTimes", rbx::Type::String,
                     FloatCurveBlob(1, {{0, 0, 1, 0}, {2400, 1.5707963f, 1, 0}}));
    const std::uint32_t lower = b.doc.addInstance("Folder", "Lower", upper);
    const std::uint32_t position = b.doc.addInstance("Vector3Curve", "Position", lower);
    const std::uint32_t y = b.doc.addInstance("FloatCurve", "Y", position);
    rbx::AddProperty(b.doc, y, "ValuesAndTimes", rbx::Type::String, FloatCurveBlob(2, {{0, 0, 1, 0}}));
    for (bool xml : {false, true}) {
        const ImportResult r = ImportDoc(b.doc, xml);
        ASSERT_TRUE(r) << r.error;
        const aiAnimation *lift = AnimationNamed(*r.scene, "Lift");
        ASSERT_NE(lift, nullptr);
        // Upper turns about X from 0 to 90° over a second: at 0.5 it is the §9.1 row (Rx 45°); at 1, (0, 6, −1).
        EXPECT_TRUE(Near(WorldAt(*r.scene, lift, "Upper", 0.5), 0, 5 + kH, -1 - kH));
        EXPECT_TRUE(Near(WorldAt(*r.scene, lift, "Upper", 1), 0, 6, -1));
        EXPECT_TRUE(LogHas(r, "FloatCurve 'Position.Y' of joint 'Lower' is not version 1; its curve data is kept"));
    }
}

// ------------------------------------------------------------------ the reverse (§8)

// The KeyframeSequences `id` writes for `scene` (rig: the scene's own, or the file `rig`).
Document ExportAnimations(const aiScene *scene, const char *id, const std::string &rig = {}) {
    Assimp::Exporter exporter;
    RegisterExporters(exporter);
    Assimp::ExportProperties props;
    if (!rig.empty()) props.SetPropertyString(GAMEFMT_RBX_ANIMATION_RIG, rig);
    const aiExportDataBlob *blob = exporter.ExportToBlob(scene, id, 0, &props);
    EXPECT_NE(blob, nullptr) << id << ": " << exporter.GetErrorString();
    if (blob == nullptr) return {};
    return rbx::ReadDocument(static_cast<const std::uint8_t *>(blob->data), blob->size);
}

// Every track of `original`'s sequence named `name` has, in `back`'s, the same Transform at each of `times` (10⁻⁴).
void ExpectSameTransforms(const Document &original, const Document &back, const std::string &name,
                          const std::vector<double> &times, const std::string &backName = {}) {
    std::vector<std::string> warnings;
    const auto find = [&](const Document &doc, const std::string &wanted) {
        for (rbx::Sequence &s : rbx::ReadSequences(doc, warnings))
            if (s.name == wanted) return s;
        ADD_FAILURE() << "no sequence " << wanted;
        return rbx::Sequence();
    };
    const rbx::Sequence a = find(original, name), b = find(back, backName.empty() ? name : backName);
    ASSERT_FALSE(a.tracks.empty());
    for (const rbx::Track &ta : a.tracks) {
        const rbx::Track *tb = nullptr;
        for (const rbx::Track &t : b.tracks)
            if (t.name == ta.name && t.parent == ta.parent) tb = &t;
        ASSERT_NE(tb, nullptr) << ta.parent << "/" << ta.name;
        for (double t : times) {
            const Rigid x = rbx::EvaluateTrack(ta, t), y = rbx::EvaluateTrack(*tb, t);
            for (std::size_t i = 0; i < 3; ++i) EXPECT_NEAR(x.p[i], y.p[i], 1e-4) << ta.name << " t=" << t;
            for (std::size_t i = 0; i < 9; ++i) EXPECT_NEAR(x.r[i], y.r[i], 1e-4) << ta.name << " t=" << t;
        }
    }
}

TEST(RbxAnimationExport, RbxmToKeyframeSequencesKeepsEveryTransform) {
    const Document arm = ArmDocument();
    const ImportResult r = ImportDoc(arm, false);
    ASSERT_TRUE(r) << r.error;
    for (const char *id : {"rbxanim", "rbxanimx"}) {
        const Document back = ExportAnimations(r.scene, id);
        ASSERT_EQ(back.roots.size(), 1u) << id;
        const rbx::Instance &seq = back.instances[back.roots[0]];
        EXPECT_EQ(back.className(seq), "KeyframeSequence");
        EXPECT_EQ(seq.name, "Raise");
        EXPECT_EQ(seq.children.size(), 3u); // keyframes at 0, 1, 2
        ExpectSameTransforms(arm, back, "Raise", {0, 0.25, 0.5, 1, 1.5, 2});
        // Loop false travelled through the animation's metadata; the top Pose is the root part, Weight 0.
        const rbx::Property *loop = back.findProperty(seq, "Loop");
        ASSERT_NE(loop, nullptr);
        EXPECT_FALSE(std::get<bool>(loop->value.data));
        const rbx::Instance &key = back.instances[seq.children[0]];
        ASSERT_EQ(key.children.size(), 1u);
        EXPECT_EQ(back.instances[key.children[0]].name, "Base");
    }
}

TEST(RbxAnimationExport, ThroughGlbAndStockAssimpWithARigFile) {
    const Document arm = ArmDocument();
    const std::filesystem::path dir = test::ScratchDir("rbx-anim-export");
    test::WriteBytes(dir / "arm.rbxm", rbx::WriteBinary(arm));
    const ImportResult r = test::ImportFile(dir / "arm.rbxm");
    ASSERT_TRUE(r) << r.error;
    const test::Exported glb = test::ExportScene(r.scene, "gamefmt-glb");
    ASSERT_TRUE(glb.ok) << glb.error;
    // Assimp's own glTF importer reads it back (metres, no rbx metadata): the rig comes from the file.
    Assimp::Importer importer;
    const aiScene *scene = importer.ReadFileFromMemory(glb.bytes.data(), glb.bytes.size(), 0, "glb");
    ASSERT_NE(scene, nullptr) << importer.GetErrorString();
    ExpectSameTransforms(arm, ExportAnimations(scene, "rbxanim", PathToUtf8(dir / "arm.rbxm")), "Raise",
                         {0, 0.5, 1, 1.5, 2});
}

// Issue #37 (4): a sequence two alike rigs share goes rbxm -> glb -> Assimp's own glTF importer -> KeyframeSequences
// with the file as the rig, one per rig. The second rig's joint nodes have uniquified names (`Shoulder:T.1`): the
// export finds them by the joint referent their node metadata (the glb's node extras) keeps, not by name.
TEST(RbxAnimationExport, AlikeRigsEachGetTheirSequenceThroughGlb) {
    RigBuilder b;
    AddArm(b, "Arm");
    AddArm(b, "Arm2", 10);
    AddRaise(b, b.doc.addInstance("Folder", "Saves", kNoInstance));
    const std::filesystem::path dir = test::ScratchDir("rbx-anim-two-rigs");
    test::WriteBytes(dir / "arms.rbxm", rbx::WriteBinary(b.doc));
    const ImportResult r = test::ImportFile(dir / "arms.rbxm");
    ASSERT_TRUE(r) << r.error;
    ASSERT_EQ(r.scene->mNumAnimations, 2u);
    const test::Exported glb = test::ExportScene(r.scene, "gamefmt-glb");
    ASSERT_TRUE(glb.ok) << glb.error;
    Assimp::Importer importer;
    const aiScene *scene = importer.ReadFileFromMemory(glb.bytes.data(), glb.bytes.size(), 0, "glb");
    ASSERT_NE(scene, nullptr) << importer.GetErrorString();
    ASSERT_EQ(scene->mNumAnimations, 2u);
    const Document back = ExportAnimations(scene, "rbxanim", PathToUtf8(dir / "arms.rbxm"));
    ASSERT_EQ(back.roots.size(), 2u);
    std::set<std::string> names;
    for (std::uint32_t root : back.roots) names.insert(back.instances[root].name);
    EXPECT_EQ(names, (std::set<std::string>{"Raise@Arm", "Raise@Arm2"}));
    // Both carry Raise's Transforms: the second rig's joints were found, not skipped.
    ExpectSameTransforms(b.doc, back, "Raise", {0, 0.5, 1, 1.5, 2}, "Raise@Arm");
    ExpectSameTransforms(b.doc, back, "Raise", {0, 0.5, 1, 1.5, 2}, "Raise@Arm2");
}

// The synthetic rig animated the way Blender exports a scene it imported: part nodes side by side, world
// transforms animated, in metres (§9.1's table, ×0.28); the joint Transforms follow T = C0⁻¹·P0⁻¹·P1·C1.
TEST(RbxAnimationExport, WorldSpaceAnimatedPartsConvertThroughTheJoints) {
    struct Pose {
        double x, y, z;
        Rigid rot;
    };
    const auto rot = [](std::array<float, 9> r) { return rbx::RigidFromCFrame(At(0, 0, 0, r)); };
    const Rigid id, rx90 = rot(kRx90), ry90 = rot(kRy90);
    const Rigid rx45 = RigidFromQuat(Slerp({}, QuatFromRigid(rx90), 0.5), {0, 0, 0});
    const Rigid ry45 = RigidFromQuat(Slerp({}, QuatFromRigid(ry90), 0.5), {0, 0, 0});
    const double times[] = {0, 0.5, 1, 1.5, 2};
    const std::vector<Pose> upper = {
        {0, 5, -2, id}, {0, 5 + kH, -1 - kH, rx45}, {0, 6, -1, rx90}, {0, 6, -1, rx90}, {0, 6, -1, rx90}};
    const std::vector<Pose> lower = {{0, 5, -4, id},
                                     {0, 5 + 3.25 * kH, -1 - 2.75 * kH, rx45},
                                     {0, 8, -0.5, rx90},
                                     {-kH, 7 + kH, -0.75, rx90 * ry45},
                                     {-1, 7, -1, rx90 * ry90}};
    aiScene scene;
    scene.mRootNode = new aiNode("Root");
    const char *names[] = {"Base", "Upper", "Lower"};
    scene.mRootNode->mNumChildren = 3;
    scene.mRootNode->mChildren = new aiNode *[3];
    for (unsigned i = 0; i < 3; ++i) {
        scene.mRootNode->mChildren[i] = new aiNode(names[i]);
        scene.mRootNode->mChildren[i]->mParent = scene.mRootNode;
    }
    scene.mRootNode->mChildren[0]->mTransformation =
        aiMatrix4x4(aiVector3D(1, 1, 1), aiQuaternion(), aiVector3D(0, 1.4f, 0));
    auto *anim = new aiAnimation();
    anim->mName = aiString("Raise");
    anim->mTicksPerSecond = 1;
    anim->mDuration = 2;
    anim->mNumChannels = 2;
    anim->mChannels = new aiNodeAnim *[2];
    for (unsigned c = 0; c < 2; ++c) {
        const std::vector<Pose> &poses = c == 0 ? upper : lower;
        auto *ch = anim->mChannels[c] = new aiNodeAnim();
        ch->mNodeName = aiString(names[c + 1]);
        ch->mNumPositionKeys = ch->mNumRotationKeys = 5;
        ch->mPositionKeys = new aiVectorKey[5];
        ch->mRotationKeys = new aiQuatKey[5];
        for (unsigned k = 0; k < 5; ++k) {
            const Pose &p = poses[k];
            ch->mPositionKeys[k] =
                aiVectorKey(times[k], aiVector3D(static_cast<ai_real>(p.x * 0.28), static_cast<ai_real>(p.y * 0.28),
                                                 static_cast<ai_real>(p.z * 0.28)));
            const Quatd q = QuatFromRigid(p.rot);
            ch->mRotationKeys[k] =
                aiQuatKey(times[k], aiQuaternion(static_cast<ai_real>(q.w), static_cast<ai_real>(q.x),
                                                 static_cast<ai_real>(q.y), static_cast<ai_real>(q.z)));
        }
    }
    scene.mNumAnimations = 1;
    scene.mAnimations = new aiAnimation *[1] { anim };
    const std::filesystem::path dir = test::ScratchDir("rbx-anim-world");
    const Document arm = ArmDocument();
    test::WriteBytes(dir / "arm.rbxm", rbx::WriteBinary(arm));
    const Document back = ExportAnimations(&scene, "rbxanim", PathToUtf8(dir / "arm.rbxm"));
    // Upper's Transform at its keys is Raise's: I, Rx45 (interpolated), Rx90, held; Lower's likewise.
    ExpectSameTransforms(arm, back, "Raise", {0, 0.5, 1, 1.5, 2});
}

TEST(RbxAnimationExport, RefusesWithoutARigOrAnimation) {
    const ImportResult mesh = test::ImportFile(test::TestDataDir() / "sl-rigged.llmesh");
    ASSERT_TRUE(mesh) << mesh.error;
    Assimp::Exporter exporter;
    RegisterExporters(exporter);
    EXPECT_EQ(exporter.ExportToBlob(mesh.scene, "rbxanim"), nullptr);
    EXPECT_NE(std::string(exporter.GetErrorString()).find("needs the rig they are for"), std::string::npos)
        << exporter.GetErrorString();
    RigBuilder b;
    AddArm(b, "Arm");
    const ImportResult still = ImportDoc(b.doc, false);
    ASSERT_TRUE(still) << still.error;
    EXPECT_EQ(exporter.ExportToBlob(still.scene, "rbxanim"), nullptr);
    EXPECT_NE(std::string(exporter.GetErrorString()).find("no animation of the scene moves a joint"), std::string::npos)
        << exporter.GetErrorString();
}

// ------------------------------------------------------------------ the corpus

TEST(RbxRigCorpus, AmsMeleeR15AndItsSequences) {
    GAMEFMT_REQUIRE_CORPUS(dir, "rbx/public-places/ams-melee.rbxl");
    const ImportResult r = test::ImportFile(dir);
    ASSERT_TRUE(r) << r.error;
    // (Assimp's validator warns about the opacity 0 of invisible parts such as HumanoidRootPart: not checked here.)
    const aiScene &s = *r.scene;
    const aiAnimation *walk = AnimationNamed(s, "Walk");
    ASSERT_NE(walk, nullptr);
    // 12 tracks, all bound, and the R15 joints no track keys (Waist, Neck, RightWrist) held at rest.
    EXPECT_EQ(walk->mNumChannels, 15u);
    // Keyframe times are float32 (0.6 s stored as 0.60000002): snapped to Studio's tick, the length is 1440 ticks.
    EXPECT_EQ(walk->mDuration, 1440.0);
    EXPECT_EQ(AnimationNamed(s, "StunLeft")->mDuration, 1520.0); // 0.6333333 s
    EXPECT_EQ(GetMetadataInt(s.mMetaData, "anim.3.rbx.keyframes"), 5);
    std::string text;
    ASSERT_TRUE(GetMetadataText(s.mMetaData, "anim.3.rbx.sequence", text));
    EXPECT_EQ(text, "Walk");
    EXPECT_FALSE(GetMetadataText(s.mMetaData, "anim.3.rbx.unboundTracks", text)); // all 12 tracks bound
    // Every Motor6D's Part1 at rest is at its stored CFrame: the node under each `:T` joint node, found through the
    // joint's rbx.joint referent in the document read independently of the scene.
    const rbx::Document doc = ReadDoc(dir);
    std::map<std::string, std::uint32_t> byReferent;
    for (std::uint32_t i = 0; i < doc.instances.size(); ++i) byReferent.emplace(rbx::ReferentText(doc, i), i);
    const std::optional<std::uint32_t> part1Name = doc.names.find("Part1");
    ASSERT_TRUE(part1Name.has_value());
    std::size_t checked = 0;
    std::vector<const aiNode *> stack{s.mRootNode};
    while (!stack.empty()) {
        const aiNode *n = stack.back();
        stack.pop_back();
        for (unsigned i = 0; i < n->mNumChildren; ++i) stack.push_back(n->mChildren[i]);
        std::string referent;
        const std::string name = n->mName.C_Str();
        if (n->mMetaData == nullptr || !GetMetadataText(n->mMetaData, glue::kRbxJoint, referent) ||
            name.compare(name.size() - 2, 2, ":T") != 0 || n->mNumChildren != 1)
            continue;
        const rbx::Instance &motor = doc.instances.at(byReferent.at(referent));
        const auto &part1 = std::get<rbx::RefValue>(motor.find(*part1Name)->value.data);
        const auto &c = std::get<rbx::CFrame>(doc.findProperty(doc.instances.at(part1.target), "CFrame")->value.data);
        EXPECT_TRUE(
            Near(WorldAt(s, nullptr, n->mChildren[0]->mName.C_Str(), 0), c.position.x, c.position.y, c.position.z))
            << name;
        ++checked;
    }
    EXPECT_GE(checked, 15u);
    // Weapon sequences whose joints are made at run time are reported, not half-played.
    EXPECT_TRUE(LogHas(r, "KeyframeSequence 'SwordHolster' (1 tracks) binds to no rig"));
    EXPECT_EQ(AnimationNamed(s, "SwordHolster"), nullptr);
}

TEST(RbxRigCorpus, RoundTripsStayLosslessWithRigs) {
    GAMEFMT_REQUIRE_CORPUS(dir, "rbx/public-places");
    Assimp::Exporter exporter;
    RegisterExporters(exporter);
    for (const char *name : {"ams-melee.rbxl", "unstablerem.rbxl", "libre-duel-lobby.rbxm"}) {
        const ImportResult r = test::ImportFile(dir / name);
        ASSERT_TRUE(r) << name << ": " << r.error;
        if (std::strcmp(name, "libre-duel-lobby.rbxm") != 0) {
            EXPECT_GT(CountNodes(r.scene->mRootNode, true), 0u) << name;
        }
        const rbx::Document original = ReadDoc(dir / name);
        for (const char *id : {"rbxm", "rbxmx"}) {
            const aiExportDataBlob *blob = exporter.ExportToBlob(r.scene, id);
            ASSERT_NE(blob, nullptr) << name << " " << id << ": " << exporter.GetErrorString();
            const rbx::Document back = rbx::ReadDocument(static_cast<const std::uint8_t *>(blob->data), blob->size);
            EXPECT_EQ(rbx::CompareDocuments(original, back), "") << name << " via " << id;
        }
    }
}

// Issue #27's "done when": with rigs rebuilt and animations made (the defaults), every Roblox file of the corpus
// still goes file → scene → file (its own encoding) as the same document.
TEST(RbxRigCorpus, EveryCorpusFileRoundTripsWithRigsOn) {
    const auto root = test::CorpusDir();
    if (!root || !std::filesystem::exists(*root / "rbx")) GTEST_SKIP() << "no corpus";
    Assimp::Exporter exporter;
    RegisterExporters(exporter);
    std::size_t files = 0, rigged = 0;
    for (const auto &entry : std::filesystem::recursive_directory_iterator(*root / "rbx")) {
        const std::string ext = entry.path().extension().string();
        if (ext != ".rbxm" && ext != ".rbxmx" && ext != ".rbxl" && ext != ".rbxlx") continue;
        const ImportResult r = test::ImportFile(entry.path());
        ASSERT_TRUE(r) << entry.path() << ": " << r.error;
        ++files;
        rigged += CountNodes(r.scene->mRootNode, true) != 0 ? 1 : 0;
        // Into its own encoding: XML values of unknown types have no binary form (docs/formats/roblox-model.md §6).
        const aiExportDataBlob *blob = exporter.ExportToBlob(r.scene, ext.back() == 'x' ? "rbxmx" : "rbxm");
        ASSERT_NE(blob, nullptr) << entry.path() << ": " << exporter.GetErrorString();
        const rbx::Document back = rbx::ReadDocument(static_cast<const std::uint8_t *>(blob->data), blob->size);
        EXPECT_EQ(rbx::CompareDocuments(ReadDoc(entry.path()), back), "") << entry.path();
    }
    EXPECT_GT(files, 100u);
    EXPECT_GE(rigged, 3u); // ams-melee, chickynoid-example, unstablerem at least
}

TEST(RbxRigCorpus, UnstableremBones) {
    GAMEFMT_REQUIRE_CORPUS(dir, "rbx/public-places/unstablerem.rbxl");
    const rbx::Document doc = ReadDoc(dir);
    const rbx::RigSet set = rbx::FindRigs(doc);
    std::size_t bones = 0;
    for (const rbx::RigJoint &j : set.joints) bones += j.bone ? 1 : 0;
    EXPECT_EQ(bones, 758u);
    const ImportResult r = test::ImportFile(dir);
    ASSERT_TRUE(r) << r.error;
    // Every Bone got its `:T` node: a joint node (rbx.joint) whose parent is not a Motor6D's `:C0`.
    std::size_t boneT = 0;
    std::vector<const aiNode *> stack{r.scene->mRootNode};
    while (!stack.empty()) {
        const aiNode *n = stack.back();
        stack.pop_back();
        const std::string name = n->mName.C_Str();
        std::string joint;
        if (n->mMetaData != nullptr && GetMetadataText(n->mMetaData, glue::kRbxJoint, joint) && name.size() > 2 &&
            name.compare(name.size() - 2, 2, ":T") == 0) {
            const std::string parent = n->mParent->mName.C_Str();
            if (parent.size() < 3 || parent.compare(parent.size() - 3, 3, ":C0") != 0) ++boneT;
        }
        for (unsigned i = 0; i < n->mNumChildren; ++i) stack.push_back(n->mChildren[i]);
    }
    EXPECT_EQ(boneT, 758u);
    // Its 27 Animations (36 AnimationControllers) name assets that are not in the file: 26 distinct ids, reported.
    EXPECT_TRUE(LogHas(r, "26 animation asset(s) named by Animation instances are not looked up"));
}

} // namespace
} // namespace gamefmt
