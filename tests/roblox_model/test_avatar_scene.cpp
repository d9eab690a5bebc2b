// Avatars through a registered Importer (docs/roblox-model.md "Avatars"; docs/formats/roblox-avatar.md §1–§2): the
// generated R15 and R6 characters in classic clothing. Each body part's mesh is sampled where its own UVs point, in the
// texture its own material embeds, and the colour found is compared with what the fixture's templates put at that
// face (rbx_avatar_fixtures.hpp): the oracle is the template colours and the body meshes' UVs, not the compositor.
#include "cli/run_cli.hpp"
#include "common/png.hpp"
#include "common/utf8_path.hpp"
#include "fixtures/rbx_avatar_fixtures.hpp"
#include "gamefmt/config.hpp"
#include "importers/roblox_model/document/binary_writer.hpp"
#include "support/import_helpers.hpp"

#include <assimp/Importer.hpp>
#include <assimp/scene.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <filesystem>
#include <string>
#include <vector>

namespace {

using gamefmt::fixtures::Rgb;
namespace fx = gamefmt::fixtures;

const aiNode *FindNode(const aiNode *node, const std::string &name) {
    if (name == node->mName.C_Str()) return node;
    for (unsigned i = 0; i < node->mNumChildren; ++i)
        if (const aiNode *found = FindNode(node->mChildren[i], name)) return found;
    return nullptr;
}

gamefmt::test::ImportResult ImportAvatar(const char *file, bool assets = true, bool clothing = true) {
    return gamefmt::test::ImportFile(gamefmt::test::TestDataDir() / file, 0, [&](Assimp::Importer &i) {
        if (assets) i.SetPropertyString(GAMEFMT_RBX_ASSET_DIR, (gamefmt::test::TestDataDir() / "rbx-assets").string());
        i.SetPropertyBool(GAMEFMT_RBX_CLOTHING, clothing);
    });
}

// The body part's one mesh, its material's embedded base colour texture decoded (empty when it has none).
struct Drawn {
    const aiMesh *mesh = nullptr;
    const aiMaterial *material = nullptr;
    gamefmt::RgbaImage texture;
};

Drawn DrawnPart(const aiScene &scene, const std::string &part) {
    Drawn d;
    const aiNode *node = FindNode(scene.mRootNode, part);
    if (node == nullptr || node->mNumMeshes != 1) return d;
    d.mesh = scene.mMeshes[node->mMeshes[0]];
    d.material = scene.mMaterials[d.mesh->mMaterialIndex];
    aiString path;
    if (d.material->GetTexture(aiTextureType_DIFFUSE, 0, &path) == AI_SUCCESS && path.C_Str()[0] == '*') {
        const aiTexture *t = scene.mTextures[std::stoi(path.C_Str() + 1)];
        if (t->mHeight == 0)
            d.texture = gamefmt::DecodePngRgba(reinterpret_cast<const std::uint8_t *>(t->pcData), t->mWidth);
    }
    return d;
}

// The colour the texture shows on the mesh's face whose normal is `normal`, at the point (s, t) of the face: s from
// the corner where the face's vertices have the largest (a, b) to the smallest, along the face's two axes a and b
// (0.5, 0.5 is the centre).
Rgb SampleFace(const Drawn &d, const aiVector3D &normal, float s, float t) {
    std::vector<unsigned> corners;
    for (unsigned v = 0; v < d.mesh->mNumVertices; ++v)
        if ((d.mesh->mNormals[v] - normal).Length() < 1e-4f) corners.push_back(v);
    EXPECT_EQ(corners.size(), 4u);
    if (corners.size() != 4 || d.texture.width == 0) return {0, 0, 0};
    // The face's two in-plane axes.
    const int axis = std::fabs(normal.x) > 0.5f ? 0 : std::fabs(normal.y) > 0.5f ? 1 : 2;
    const int a = axis == 0 ? 1 : 0, b = axis == 2 ? 1 : 2;
    float lo[2] = {1e9f, 1e9f}, hi[2] = {-1e9f, -1e9f};
    for (unsigned v : corners) {
        const aiVector3D &p = d.mesh->mVertices[v];
        lo[0] = std::fmin(lo[0], p[a]);
        hi[0] = std::fmax(hi[0], p[a]);
        lo[1] = std::fmin(lo[1], p[b]);
        hi[1] = std::fmax(hi[1], p[b]);
    }
    // Bilinear in the corners: the UV at the point whose a, b are hi − s·(hi − lo), hi − t·(hi − lo).
    const float pa = hi[0] - s * (hi[0] - lo[0]), pb = hi[1] - t * (hi[1] - lo[1]);
    aiVector3D uv;
    float total = 0;
    for (unsigned v : corners) {
        const aiVector3D &p = d.mesh->mVertices[v];
        const float wa = 1 - std::fabs(p[a] - pa) / (hi[0] - lo[0]), wb = 1 - std::fabs(p[b] - pb) / (hi[1] - lo[1]);
        uv += d.mesh->mTextureCoords[0][v] * (wa * wb);
        total += wa * wb;
    }
    uv /= total;
    const int x = static_cast<int>(std::floor(uv.x * d.texture.width));
    const int y = static_cast<int>(std::floor((1 - uv.y) * d.texture.height));
    const std::uint8_t *px = &d.texture.rgba[(std::size_t(y) * d.texture.width + std::size_t(x)) * 4];
    return {px[0], px[1], px[2]};
}

::testing::AssertionResult Same(const Rgb &got, const Rgb &want) {
    if (got.r == want.r && got.g == want.g && got.b == want.b) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "(" << int(got.r) << "," << int(got.g) << "," << int(got.b)
                                         << ") instead of (" << int(want.r) << "," << int(want.g) << "," << int(want.b)
                                         << ")";
}

const aiVector3D kFront(0, 0, -1), kBack(0, 0, 1), kRight(1, 0, 0);

TEST(RbxAvatarScene, R15BodyPartsWearTheirClothingWhereTheirUvsPoint) {
    const auto r = ImportAvatar("avatar-r15.rbxm");
    ASSERT_TRUE(r) << r.error;
    const aiScene &s = *r.scene;
    const Drawn upper = DrawnPart(s, "UpperTorso");
    ASSERT_NE(upper.mesh, nullptr);
    ASSERT_EQ(upper.texture.width, 388u);
    ASSERT_EQ(upper.texture.height, 272u);
    // The T-shirt's opaque centre covers the front's middle; the shirt front around it; the back is the shirt's.
    EXPECT_TRUE(Same(SampleFace(upper, kFront, 0.5f, 0.5f), fx::kTee));
    EXPECT_TRUE(Same(SampleFace(upper, kFront, 0.1f, 0.1f), fx::kShirtFront));
    EXPECT_TRUE(Same(SampleFace(upper, kBack, 0.5f, 0.5f), fx::kShirtBack));
    // The lower torso's front lies in the shirt's transparent rows: the pants show.
    const Drawn lower = DrawnPart(s, "LowerTorso");
    EXPECT_EQ(lower.texture.width, 388u);
    EXPECT_TRUE(Same(SampleFace(lower, kFront, 0.5f, 0.5f), fx::kPantsTorso));
    // Arms wear the shirt, legs the pants; each limb group has its own texture.
    EXPECT_TRUE(Same(SampleFace(DrawnPart(s, "LeftUpperArm"), kFront, 0.5f, 0.5f), fx::kShirtLeftF));
    EXPECT_TRUE(Same(SampleFace(DrawnPart(s, "LeftHand"), kFront, 0.5f, 0.5f), fx::kShirtLeftF));
    EXPECT_TRUE(Same(SampleFace(DrawnPart(s, "RightLowerArm"), kFront, 0.5f, 0.5f), fx::kShirtRightF));
    EXPECT_TRUE(Same(SampleFace(DrawnPart(s, "LeftUpperArm"), kBack, 0.5f, 0.5f), Rgb{130, 250, 0}));
    EXPECT_TRUE(Same(SampleFace(DrawnPart(s, "LeftUpperLeg"), kFront, 0.5f, 0.5f), fx::kPantsLeftF));
    EXPECT_TRUE(Same(SampleFace(DrawnPart(s, "RightFoot"), kFront, 0.5f, 0.5f), fx::kPantsRightF));
    EXPECT_TRUE(Same(SampleFace(DrawnPart(s, "RightUpperLeg"), kRight, 0.5f, 0.5f), Rgb{30, 90, 60}));
    EXPECT_EQ(DrawnPart(s, "LeftUpperArm").texture.width, 264u);
    EXPECT_EQ(DrawnPart(s, "LeftUpperArm").material, DrawnPart(s, "LeftLowerArm").material); // one texture per group
    EXPECT_NE(DrawnPart(s, "LeftUpperArm").material, DrawnPart(s, "LeftUpperLeg").material);
    // The head has no clothing: its BodyColors colour, no texture.
    const Drawn head = DrawnPart(s, "Head");
    ASSERT_NE(head.material, nullptr);
    EXPECT_EQ(head.texture.width, 0u);
    aiColor4D c;
    ASSERT_EQ(head.material->Get(AI_MATKEY_COLOR_DIFFUSE, c), AI_SUCCESS);
    EXPECT_NEAR(c.r * 255, fx::kBodyColours[0].r, 0.01);
    EXPECT_NEAR(c.g * 255, fx::kBodyColours[0].g, 0.01);
    EXPECT_NEAR(c.b * 255, fx::kBodyColours[0].b, 0.01);
    // Where no clothing covers a limb (the arm texture's unused corner), the limb's body colour shows.
    const Drawn arm = DrawnPart(s, "LeftUpperArm");
    const std::uint8_t *corner = &arm.texture.rgba[(std::size_t(10) * 264 + 250) * 4];
    EXPECT_TRUE(Same({corner[0], corner[1], corner[2]}, fx::kBodyColours[2]));
}

TEST(RbxAvatarScene, R6BodyPartsAreAtlasBoxes) {
    const auto r = ImportAvatar("avatar-r6.rbxm");
    ASSERT_TRUE(r) << r.error;
    const aiScene &s = *r.scene;
    const Drawn torso = DrawnPart(s, "Torso");
    ASSERT_NE(torso.mesh, nullptr);
    ASSERT_EQ(torso.texture.width, 1024u);
    ASSERT_EQ(torso.texture.height, 512u);
    EXPECT_EQ(torso.mesh->mNumVertices, 24u);
    EXPECT_TRUE(Same(SampleFace(torso, kFront, 0.5f, 0.5f), fx::kTee));
    EXPECT_TRUE(Same(SampleFace(torso, kFront, 0.1f, 0.1f), fx::kShirtFront));
    EXPECT_TRUE(Same(SampleFace(torso, kFront, 0.1f, 0.95f), fx::kPantsTorso)); // the shirt's transparent rows
    EXPECT_TRUE(Same(SampleFace(torso, kBack, 0.5f, 0.5f), fx::kShirtBack));
    EXPECT_TRUE(Same(SampleFace(DrawnPart(s, "Right Arm"), kFront, 0.5f, 0.5f), fx::kShirtRightF));
    EXPECT_TRUE(Same(SampleFace(DrawnPart(s, "Left Arm"), kFront, 0.5f, 0.5f), fx::kShirtLeftF));
    EXPECT_TRUE(Same(SampleFace(DrawnPart(s, "Left Leg"), kFront, 0.5f, 0.5f), fx::kPantsLeftF));
    EXPECT_TRUE(Same(SampleFace(DrawnPart(s, "Right Leg"), kFront, 0.5f, 0.5f), fx::kPantsRightF));
    // One atlas for the whole character.
    EXPECT_EQ(DrawnPart(s, "Torso").material, DrawnPart(s, "Left Leg").material);
    // Mesh bounds are the part's size (a 2×2×1 torso).
    aiVector3D lo(1e9f, 1e9f, 1e9f), hi(-1e9f, -1e9f, -1e9f);
    for (unsigned v = 0; v < torso.mesh->mNumVertices; ++v)
        for (int k = 0; k < 3; ++k) {
            lo[k] = std::fmin(lo[k], torso.mesh->mVertices[v][k]);
            hi[k] = std::fmax(hi[k], torso.mesh->mVertices[v][k]);
        }
    EXPECT_NEAR(hi.x - lo.x, 2, 1e-6);
    EXPECT_NEAR(hi.y - lo.y, 2, 1e-6);
    EXPECT_NEAR(hi.z - lo.z, 1, 1e-6);
}

TEST(RbxAvatarScene, WithoutClothingOrImagesBodyColoursRemain) {
    for (const bool assets : {false, true}) {
        const auto r = ImportAvatar("avatar-r6.rbxm", assets, /*clothing=*/assets ? false : true);
        ASSERT_TRUE(r) << r.error;
        for (const auto &[part, colour] : std::vector<std::pair<std::string, Rgb>>{{"Torso", fx::kBodyColours[1]},
                                                                                   {"Left Leg", fx::kBodyColours[4]}}) {
            const Drawn d = DrawnPart(*r.scene, part);
            ASSERT_NE(d.material, nullptr);
            EXPECT_EQ(d.texture.width, 0u) << part;
            aiColor4D c;
            ASSERT_EQ(d.material->Get(AI_MATKEY_COLOR_DIFFUSE, c), AI_SUCCESS);
            EXPECT_NEAR(c.r * 255, colour.r, 0.01) << part;
            EXPECT_NEAR(c.g * 255, colour.g, 0.01) << part;
            EXPECT_NEAR(c.b * 255, colour.b, 0.01) << part;
        }
        // Missing images: one warning naming them.
        std::size_t warned = 0;
        for (const std::string &line : r.log)
            if (line.find("classic clothing") != std::string::npos &&
                line.find("rbxassetid://4001") != std::string::npos)
                ++warned;
        EXPECT_EQ(warned, assets ? 0u : 1u);
    }
}

// The node a rig moved out of its instance parent `parent` (rbx.rigParent) and its world transform.
bool WorldOfRider(const aiNode *node, const std::string &parent, aiMatrix4x4 above, aiMatrix4x4 &out) {
    const aiMatrix4x4 world = above * node->mTransformation;
    aiString value;
    if (node->mMetaData != nullptr && node->mMetaData->Get("rbx.rigParent", value) && parent == value.C_Str()) {
        out = world;
        return true;
    }
    for (unsigned i = 0; i < node->mNumChildren; ++i)
        if (WorldOfRider(node->mChildren[i], parent, world, out)) return true;
    return false;
}

// §6, §7.7: a handle is worn where its attachment meets the body's: Handle = Part · bodyAtt · handleAtt⁻¹ (the
// fixture's numbers: the Cap by attachments alone, the Backpack by its AccessoryWeld, the R6 OldHat by
// AttachmentPoint), whatever CFrame the file stored for it.
TEST(RbxAvatarScene, AccessoriesSitOnTheirAttachments) {
    const auto r15 = ImportAvatar("avatar-r15.rbxm");
    ASSERT_TRUE(r15) << r15.error;
    const auto r6 = ImportAvatar("avatar-r6.rbxm");
    ASSERT_TRUE(r6) << r6.error;
    const struct {
        const aiScene *scene;
        const char *accessory;
        aiVector3D at;
    } cases[] = {{r15.scene, "Cap", {0, 6.05f, 0}},
                 {r15.scene, "Backpack", {0, 3.8f, 0.8f}},
                 {r6.scene, "OldHat", {0, 5.3f, 0}}};
    for (const auto &c : cases) {
        aiMatrix4x4 world;
        ASSERT_TRUE(WorldOfRider(c.scene->mRootNode, c.accessory, aiMatrix4x4(), world)) << c.accessory;
        EXPECT_NEAR(world.a4, c.at.x, 1e-5) << c.accessory;
        EXPECT_NEAR(world.b4, c.at.y, 1e-5) << c.accessory;
        EXPECT_NEAR(world.c4, c.at.z, 1e-5) << c.accessory;
    }
}

const aiAnimation *AnimationNamed(const aiScene &scene, const std::string &name) {
    for (unsigned a = 0; a < scene.mNumAnimations; ++a)
        if (name == scene.mAnimations[a]->mName.C_Str()) return scene.mAnimations[a];
    return nullptr;
}

// The weight a morph key gives target `target` (by index among `names`).
double KeyWeight(const aiMeshMorphKey &key, const std::vector<std::string> &names, const std::string &target) {
    for (unsigned j = 0; j < key.mNumValuesAndWeights; ++j)
        if (key.mValues[j] < names.size() && names[key.mValues[j]] == target) return key.mWeights[j];
    return -1;
}

// §5, §7.6: the dynamic head's FACS poses are morph targets weighted by its FaceControls; the Smile sequence's
// NumberPoses and the Blink curve animate them (the fixture's values, by hand: LeftEyeClosed 0.2 at 0 s and 1.0 at
// 1 s is 0.6 at 0.5 s; a corrective weighs the product of its controls; a control a clip does not animate keeps the
// file's value), beside the Neck's joint track of the same clip.
TEST(RbxAvatarScene, FaceControlsAndTheirAnimationsDriveTheHeadsMorphTargets) {
    const auto r = ImportAvatar("avatar-r15.rbxm");
    ASSERT_TRUE(r) << r.error;
    const aiScene &s = *r.scene;
    const aiNode *head = FindNode(s.mRootNode, "Head");
    ASSERT_NE(head, nullptr);
    ASSERT_EQ(head->mNumMeshes, 1u);
    const aiMesh *mesh = s.mMeshes[head->mMeshes[0]];
    std::vector<std::string> names;
    for (unsigned a = 0; a < mesh->mNumAnimMeshes; ++a) names.emplace_back(mesh->mAnimMeshes[a]->mName.C_Str());
    ASSERT_EQ(names, (std::vector<std::string>{"c_JD", "l_EC", "r_EC", "c_JD+l_EC", "c_JD+l_EC+r_EC"}));
    const float rest[] = {0.25f, 0.5f, 0, 0.125f, 0};
    for (unsigned a = 0; a < 5; ++a) EXPECT_FLOAT_EQ(mesh->mAnimMeshes[a]->mWeight, rest[a]) << names[a];
    // The jaw pose moves the mesh (the FACS matrices of the fixture are not zero).
    float moved = 0;
    for (unsigned v = 0; v < mesh->mNumVertices; ++v)
        moved = std::fmax(moved, (mesh->mAnimMeshes[0]->mVertices[v] - mesh->mVertices[v]).Length());
    EXPECT_GT(moved, 0.01f);

    const aiAnimation *smile = AnimationNamed(s, "Smile");
    ASSERT_NE(smile, nullptr);
    ASSERT_EQ(smile->mNumMorphMeshChannels, 1u);
    const aiMeshMorphAnim *ch = smile->mMorphMeshChannels[0];
    EXPECT_STREQ(ch->mName.C_Str(), "Head");
    ASSERT_EQ(ch->mNumKeys, 3u);
    const double jaw[] = {0, 1, 0.5}, eye[] = {0.2, 0.6, 1.0};
    for (unsigned k = 0; k < 3; ++k) {
        EXPECT_NEAR(ch->mKeys[k].mTime / smile->mTicksPerSecond, 0.5 * k, 1e-9);
        EXPECT_NEAR(KeyWeight(ch->mKeys[k], names, "c_JD"), jaw[k], 1e-6) << k;
        EXPECT_NEAR(KeyWeight(ch->mKeys[k], names, "l_EC"), eye[k], 1e-6) << k;
        EXPECT_NEAR(KeyWeight(ch->mKeys[k], names, "r_EC"), 0, 1e-9) << k;
        EXPECT_NEAR(KeyWeight(ch->mKeys[k], names, "c_JD+l_EC"), jaw[k] * eye[k], 1e-6) << k;
    }
    bool neck = false;
    for (unsigned c = 0; c < smile->mNumChannels; ++c)
        neck = neck || std::string(smile->mChannels[c]->mNodeName.C_Str()) == "Neck:T";
    EXPECT_TRUE(neck);

    const aiAnimation *blink = AnimationNamed(s, "Blink");
    ASSERT_NE(blink, nullptr);
    ASSERT_EQ(blink->mNumMorphMeshChannels, 1u);
    const aiMeshMorphAnim *b = blink->mMorphMeshChannels[0];
    ASSERT_EQ(b->mNumKeys, 3u);
    const double closed[] = {0, 1, 0};
    for (unsigned k = 0; k < 3; ++k) {
        EXPECT_NEAR(b->mKeys[k].mTime / blink->mTicksPerSecond, 0.25 * k, 1e-9);
        EXPECT_NEAR(KeyWeight(b->mKeys[k], names, "r_EC"), closed[k], 1e-6) << k;
        EXPECT_NEAR(KeyWeight(b->mKeys[k], names, "c_JD"), 0.25, 1e-6) << k; // the file's FaceControls value
        EXPECT_NEAR(KeyWeight(b->mKeys[k], names, "c_JD+l_EC+r_EC"), 0.25 * 0.5 * closed[k], 1e-6) << k;
    }

    // Through the glb and Assimp's own glTF importer: the weights animation and the rest weights survive.
    const gamefmt::test::Exported glb = gamefmt::test::ExportScene(r.scene, "gamefmt-glb");
    ASSERT_TRUE(glb.ok) << glb.error;
    Assimp::Importer importer;
    const aiScene *back = importer.ReadFileFromMemory(glb.bytes.data(), glb.bytes.size(), 0, "glb");
    ASSERT_NE(back, nullptr) << importer.GetErrorString();
    const aiAnimation *smileBack = AnimationNamed(*back, "Smile");
    ASSERT_NE(smileBack, nullptr);
    ASSERT_EQ(smileBack->mNumMorphMeshChannels, 1u);
    const aiMeshMorphAnim *cb = smileBack->mMorphMeshChannels[0];
    ASSERT_EQ(cb->mNumKeys, 3u);
    // The glb's targets keep the mesh's order; Assimp reads the weights back by index.
    for (unsigned k = 0; k < 3; ++k) {
        double got[5] = {0, 0, 0, 0, 0};
        for (unsigned j = 0; j < cb->mKeys[k].mNumValuesAndWeights; ++j)
            if (cb->mKeys[k].mValues[j] < 5) got[cb->mKeys[k].mValues[j]] = cb->mKeys[k].mWeights[j];
        EXPECT_NEAR(got[0], jaw[k], 1e-6) << k;
        EXPECT_NEAR(got[1], eye[k], 1e-6) << k;
        EXPECT_NEAR(got[3], jaw[k] * eye[k], 1e-6) << k;
    }
}

aiMatrix4x4 GlobalOf(const aiNode *node) {
    aiMatrix4x4 m;
    for (; node != nullptr; node = node->mParent) m = node->mTransformation * m;
    return m;
}

// The handle node of a garment (the rider whose instance parent is the accessory `name`).
const aiNode *Garment(const aiNode *node, const std::string &name) {
    aiString value;
    if (node->mMetaData != nullptr && node->mMetaData->Get("rbx.rigParent", value) && name == value.C_Str())
        return node;
    for (unsigned i = 0; i < node->mNumChildren; ++i)
        if (const aiNode *found = Garment(node->mChildren[i], name)) return found;
    return nullptr;
}

// A skinned garment's vertices in world space at rest (Σ boneGlobal · offset · v) and, per vertex, its bone's name.
struct Worn {
    std::vector<aiVector3D> at;
    std::vector<std::string> bone;
};
Worn WornAtRest(const aiScene &s, const aiNode &handle) {
    Worn w;
    const aiMesh *mesh = s.mMeshes[handle.mMeshes[0]];
    w.at.assign(mesh->mNumVertices, aiVector3D());
    w.bone.assign(mesh->mNumVertices, "");
    for (unsigned b = 0; b < mesh->mNumBones; ++b) {
        const aiBone *bone = mesh->mBones[b];
        const aiNode *node = FindNode(s.mRootNode, bone->mName.C_Str());
        EXPECT_NE(node, nullptr) << bone->mName.C_Str();
        if (node == nullptr) continue;
        const aiMatrix4x4 m = GlobalOf(node) * bone->mOffsetMatrix;
        for (unsigned k = 0; k < bone->mNumWeights; ++k) {
            const aiVertexWeight &vw = bone->mWeights[k];
            w.at[vw.mVertexId] += (m * mesh->mVertices[vw.mVertexId]) * vw.mWeight;
            w.bone[vw.mVertexId] = bone->mName.C_Str();
        }
    }
    return w;
}

// §3, §7.4–§7.5 in the scene: the jacket (authored for a body 0.9 × as wide, arms at ±1.35) is fitted onto this
// avatar: its sleeves move onto the arms at ±1.5, its body wraps the 2-stud torso; each vertex rides on the body part
// its cage says; the vest (Order 2, first in the file) lies over the fitted jacket; the scarf, whose outer cage is not
// in the asset folder, keeps its authored shape with a warning naming it.
TEST(RbxAvatarScene, LayeredClothingIsFittedStackedAndSkinnedToTheBody) {
    const std::filesystem::path dir = gamefmt::test::ScratchDir("rbx-avatar-scarf");
    gamefmt::test::WriteBytes(dir / "scarf.rbxm", gamefmt::rbx::WriteBinary(fx::AvatarR15WithMissingCage()));
    const auto r = gamefmt::test::ImportFile(dir / "scarf.rbxm", 0, [](Assimp::Importer &i) {
        i.SetPropertyString(GAMEFMT_RBX_ASSET_DIR, (gamefmt::test::TestDataDir() / "rbx-assets").string());
    });
    ASSERT_TRUE(r) << r.error;
    const aiScene &s = *r.scene;
    const aiNode *jacket = Garment(s.mRootNode, "Jacket"), *vest = Garment(s.mRootNode, "Vest"),
                 *scarf = Garment(s.mRootNode, "Scarf");
    ASSERT_NE(jacket, nullptr);
    ASSERT_NE(vest, nullptr);
    ASSERT_NE(scarf, nullptr);
    const auto layered = [](const aiNode *n) {
        aiString v;
        return n->mMetaData != nullptr && n->mMetaData->Get("rbx.layered", v) ? std::string(v.C_Str()) : std::string();
    };
    EXPECT_EQ(layered(jacket), "fitted");
    EXPECT_EQ(layered(vest), "fitted");
    EXPECT_EQ(layered(scarf), "cage missing");
    bool warned = false;
    for (const std::string &line : r.log)
        warned = warned || (line.find("'Scarf'") != std::string::npos && line.find("cage") != std::string::npos);
    EXPECT_TRUE(warned);

    const Worn j = WornAtRest(s, *jacket);
    ASSERT_EQ(j.at.size(), 6u * 96u);
    // The jacket's vertices come part by part (96 each): UpperTorso, LowerTorso, LeftUpperArm, LeftLowerArm,
    // RightUpperArm, RightLowerArm (rbx_avatar_fixtures.hpp). Each sleeve is centred on this avatar's arm (x = ±1.5),
    // not the reference body's (±1.35), and mostly rides on its own arm part.
    const struct {
        std::size_t block;
        const char *part;
        float x;
    } sleeves[] = {
        {2, "LeftUpperArm", -1.5f}, {3, "LeftLowerArm", -1.5f}, {4, "RightUpperArm", 1.5f}, {5, "RightLowerArm", 1.5f}};
    for (const auto &sleeve : sleeves) {
        float sum = 0;
        std::size_t own = 0;
        for (std::size_t v = sleeve.block * 96; v < (sleeve.block + 1) * 96; ++v) {
            sum += j.at[v].x;
            if (j.bone[v] == sleeve.part) ++own;
        }
        EXPECT_NEAR(sum / 96, sleeve.x, 0.02f) << sleeve.part;
        EXPECT_GT(own, 48u) << sleeve.part;
    }
    for (std::size_t v = 0; v < j.at.size(); ++v) EXPECT_FALSE(j.bone[v].empty()) << v;
    // The jacket's body wraps the torso: on the torso's height band away from the arms, outside the 2 × 1 box.
    float jacketFront = 0;
    for (std::size_t v = 0; v < j.at.size(); ++v)
        if (std::fabs(j.at[v].x) < 0.5f && j.at[v].y > 3.2f && j.at[v].y < 4.4f)
            jacketFront = std::fmax(jacketFront, -j.at[v].z);
    EXPECT_GT(jacketFront, 0.55f);
    EXPECT_LT(jacketFront, 0.75f);
    // The vest lies over it.
    const Worn w = WornAtRest(s, *vest);
    float vestFront = 0;
    for (std::size_t v = 0; v < w.at.size(); ++v)
        if (std::fabs(w.at[v].x) < 0.5f && w.at[v].y > 3.2f && w.at[v].y < 4.4f)
            vestFront = std::fmax(vestFront, -w.at[v].z);
    EXPECT_GT(vestFront, jacketFront + 0.05f);
}

// §6 of the issue: `gamefmt assets` lists what an avatar needs — body meshes and the dynamic head, the clothing
// templates, the cages — so that a fetch gets it all; the scarf's missing cage is the one id --missing prints.
TEST(RbxAvatarScene, AssetsListsEverythingAnAvatarNeeds) {
    const std::string file = gamefmt::PathToUtf8(gamefmt::test::TestDataDir() / "avatar-r15.rbxm");
    const std::string folder = gamefmt::PathToUtf8(gamefmt::test::TestDataDir() / "rbx-assets");
    const std::filesystem::path dir = gamefmt::test::ScratchDir("rbx-avatar-assets");
    gamefmt::test::WriteBytes(dir / "scarf.rbxm", gamefmt::rbx::WriteBinary(fx::AvatarR15WithMissingCage()));
    const std::string withScarf = gamefmt::PathToUtf8(dir / "scarf.rbxm");
    const gamefmt::test::CliResult listed = gamefmt::test::Cli({"assets", "--asset-dir", folder, withScarf});
    ASSERT_EQ(listed.code, 0) << listed.err;
    for (const char *line :
         {"rbxassetid://4001  clothing  found", "rbxassetid://4002  clothing  found",
          "rbxassetid://4003  clothing  found", "rbxassetid://4116  mesh  found", "rbxassetid://4201  cage  found",
          "rbxassetid://4302  cage  found", "rbxassetid://4999  cage  missing"})
        EXPECT_NE(listed.out.find(line), std::string::npos) << line << "\n" << listed.out;
    const gamefmt::test::CliResult missing =
        gamefmt::test::Cli({"assets", "--missing", "--asset-dir", folder, withScarf});
    ASSERT_EQ(missing.code, 0) << missing.err;
    EXPECT_EQ(missing.out, "4999\n");
    // The avatar of testdata needs nothing it does not have.
    const gamefmt::test::CliResult complete = gamefmt::test::Cli({"assets", "--missing", "--asset-dir", folder, file});
    ASSERT_EQ(complete.code, 0) << complete.err;
    EXPECT_EQ(complete.out, "");
}

} // namespace
