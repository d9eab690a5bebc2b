// Scene tests of the Second Life mesh importer (docs/formats/sl-mesh.md §10-§12, §15): the reference's worked examples
// and small assets written with our own writer, through a registered, validating Importer — values, the
// frame, LOD choice and fallback, materials, rig, skeleton, physics, metadata, options and glb2 export.
#include "fixtures/sl_fixtures.hpp"
#include "gamefmt/config.hpp"
#include "gamefmt/gamefmt.hpp"
#include "importers/sl_mesh/asset.hpp"
#include "importers/sl_mesh/llsd.hpp"
#include "importers/sl_mesh/skeleton.hpp"
#include "support/import_helpers.hpp"
#include "support/scene_build.hpp"

#include <assimp/BaseImporter.h>
#include <assimp/Exporter.hpp>
#include <assimp/Importer.hpp>
#include <assimp/commonMetaData.h>
#include <assimp/importerdesc.h>
#include <assimp/material.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace {

using namespace gamefmt::test;
using namespace gamefmt::slmesh;
namespace fixtures = gamefmt::fixtures;
using Bytes = std::vector<std::uint8_t>;

// ---------------------------------------------------------------- helpers

const aiNode *FindNode(const aiNode *node, const std::string &name) {
    if (node == nullptr) return nullptr;
    if (name == node->mName.C_Str()) return node;
    for (unsigned i = 0; i < node->mNumChildren; ++i)
        if (const aiNode *found = FindNode(node->mChildren[i], name)) return found;
    return nullptr;
}

std::size_t CountNodes(const aiNode *node) {
    std::size_t n = 1;
    for (unsigned i = 0; i < node->mNumChildren; ++i) n += CountNodes(node->mChildren[i]);
    return n;
}

const aiMesh *MeshNamed(const aiScene *scene, const std::string &name) {
    for (unsigned i = 0; i < scene->mNumMeshes; ++i)
        if (name == scene->mMeshes[i]->mName.C_Str()) return scene->mMeshes[i];
    return nullptr;
}

aiMatrix4x4 GlobalTransform(const aiNode *node, const aiNode *stopAt = nullptr) {
    aiMatrix4x4 m;
    for (const aiNode *n = node; n != nullptr && n != stopAt; n = n->mParent) m = n->mTransformation * m;
    return m;
}

std::string MaterialName(const aiScene *scene, unsigned index) {
    aiString name;
    scene->mMaterials[index]->Get(AI_MATKEY_NAME, name);
    return name.C_Str();
}

bool HasKey(const aiMetadata *md, const char *key) {
    if (md == nullptr) return false;
    for (unsigned i = 0; i < md->mNumProperties; ++i)
        if (std::strcmp(md->mKeys[i].C_Str(), key) == 0) return true;
    return false;
}

std::string MetaString(const aiMetadata *md, const char *key) {
    aiString s;
    if (md == nullptr || !md->Get(key, s)) return "<absent>";
    return s.C_Str();
}

void ExpectMatrixRows(const aiMatrix4x4 &m, const std::vector<float> &rows, float tolerance = 1e-6f) {
    const float got[16] = {m.a1, m.a2, m.a3, m.a4, m.b1, m.b2, m.b3, m.b4,
                           m.c1, m.c2, m.c3, m.c4, m.d1, m.d2, m.d3, m.d4};
    for (int i = 0; i < 16; ++i) EXPECT_NEAR(got[i], rows[static_cast<std::size_t>(i)], tolerance) << "element " << i;
}

bool LogHas(const ImportResult &r, const std::string &text) {
    for (const std::string &line : r.log)
        if (line.find(text) != std::string::npos) return true;
    return false;
}

ImporterSetup Props(std::function<void(Assimp::Importer &)> f) {
    return f;
}

ImporterSetup LodString(const std::string &value) {
    return [value](Assimp::Importer &imp) { imp.SetPropertyString(GAMEFMT_SLMESH_LOD, value); };
}

ImporterSetup BoolOption(const char *name, bool value) {
    return [name, value](Assimp::Importer &imp) { imp.SetPropertyBool(name, value); };
}

// ---------------------------------------------------------------- small assets made with the model + writer

Matrix16 IdentityMatrix() {
    Matrix16 m{};
    m[0] = m[5] = m[10] = m[15] = 1.0;
    return m;
}

Matrix16 TranslationMatrix(double x, double y, double z) {
    Matrix16 m = IdentityMatrix();
    m[12] = x;
    m[13] = y;
    m[14] = z;
    return m;
}

// A face holding one triangle of the unit cube's corners (positions q 0 / 65535 in the ±0.5 domain).
Face TriangleFace(std::uint16_t shift = 0) {
    Face face;
    face.positionDomain = Domain3{};
    face.positions = {0, 0, 0, 0xFFFF, shift, 0xFFFF, 0, 0xFFFF, 0xFFFF};
    face.indices = {0, 1, 2};
    return face;
}

Face NoGeometryFace() {
    Face face;
    face.noGeometry = true;
    face.noGeometryValue = LLSD::Boolean(true);
    return face;
}

WeightRecord Record(std::initializer_list<std::pair<int, std::uint16_t>> list) {
    WeightRecord r;
    for (const auto &inf : list) {
        r.influences[r.count].joint = static_cast<std::uint8_t>(inf.first);
        r.influences[r.count].weight = inf.second;
        ++r.count;
    }
    return r;
}

// The triangle weighted to two joints (by default vertex 0 to joint 0, vertices 1 and 2 to joint 1).
SLMeshAsset TwoJointTriangle(const std::vector<std::string> &joints, const std::vector<Matrix16> &inverseBind,
                             const std::vector<WeightRecord> &weights = {Record({{0, 65535}}), Record({{1, 65535}}),
                                                                         Record({{1, 65535}})}) {
    SLMeshAsset asset;
    Face face = TriangleFace();
    face.hasWeights = true;
    face.weights = weights;
    asset.lods[kHighLod] = Lod{{face}};
    Skin skin;
    skin.jointNames = joints;
    skin.inverseBind = inverseBind;
    asset.skin = skin;
    return asset;
}

SLMeshAsset StaticAsset() {
    SLMeshAsset asset;
    asset.lods[kHighLod] = Lod{{TriangleFace()}};
    return asset;
}

// A header naming only the given blocks (each {offset, size}) followed by the blocks' bytes.
Bytes AssetWithBlocks(const std::vector<std::pair<std::string, Bytes>> &blocks) {
    LLSD header = LLSD::MakeMap();
    Bytes body;
    for (const auto &b : blocks) {
        header.set(b.first, LLSD::MakeMap({{"offset", LLSD::Integer(static_cast<std::int32_t>(body.size()))},
                                           {"size", LLSD::Integer(static_cast<std::int32_t>(b.second.size()))}}));
        body.insert(body.end(), b.second.begin(), b.second.end());
    }
    Bytes out = WriteBinaryLLSD(header);
    out.insert(out.end(), body.begin(), body.end());
    return out;
}

ImportResult ImportAsset(const SLMeshAsset &asset, const ImporterSetup &setup = {}) {
    return ImportMemory(WriteAsset(asset), "llmesh", 0, setup);
}

void ExpectClean(const ImportResult &r) {
    ASSERT_TRUE(r) << r.error;
    EXPECT_TRUE(r.validationWarnings.empty()) << r.validationWarnings.front();
}

// ---------------------------------------------------------------- §11.2: the one-triangle asset

TEST(SlScene, TriangleOf11_2ImportsExactly) {
    for (const Bytes &bytes : {fixtures::SlTriangleAssetStored(), fixtures::SlTriangleAssetLevel9()}) {
        const ImportResult r = ImportMemory(bytes, "llmesh");
        ExpectClean(r);
        const aiScene *s = r.scene;
        EXPECT_EQ(SourceFormat(s), "Second Life mesh asset");
        ASSERT_EQ(s->mNumMeshes, 1u);
        const aiMesh *m = s->mMeshes[0];
        EXPECT_STREQ(m->mName.C_Str(), "high_lod_face0");
        EXPECT_EQ(m->mMaterialIndex, 0u);
        EXPECT_EQ(m->mPrimitiveTypes, static_cast<unsigned>(aiPrimitiveType_TRIANGLE));
        ASSERT_EQ(m->mNumVertices, 3u);
        ASSERT_EQ(m->mNumFaces, 1u);
        EXPECT_EQ(m->mFaces[0].mIndices[0], 0u);
        EXPECT_EQ(m->mFaces[0].mIndices[1], 1u);
        EXPECT_EQ(m->mFaces[0].mIndices[2], 2u);
        // Positions exactly A, B, C, in the SL frame.
        const aiVector3D expected[3] = {{-0.5f, -0.5f, -0.5f}, {0.5f, -0.5f, 0.5f}, {-0.5f, 0.5f, 0.5f}};
        const aiVector3D uv[3] = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
        ASSERT_NE(m->mNormals, nullptr);
        ASSERT_NE(m->mTextureCoords[0], nullptr);
        EXPECT_EQ(m->mNumUVComponents[0], 2u);
        EXPECT_EQ(m->mTextureCoords[1], nullptr);
        for (unsigned i = 0; i < 3; ++i) {
            EXPECT_EQ(m->mVertices[i], expected[i]) << i;
            EXPECT_EQ(m->mTextureCoords[0][i], uv[i]) << i;
            EXPECT_FLOAT_EQ(m->mNormals[i].x, -0.5773556f);
            EXPECT_FLOAT_EQ(m->mNormals[i].y, -0.5773556f);
            EXPECT_FLOAT_EQ(m->mNormals[i].z, 0.5773251f);
            EXPECT_EQ(m->mNormals[i].x, DequantizeNormal(13849)); // bit-exact float32 (§4.1)
            EXPECT_EQ(m->mNormals[i].z, DequantizeNormal(51685));
        }
        EXPECT_EQ(m->mNumBones, 0u);

        // Root: Rx(-90°), SL +Z -> +Y, SL +Y -> -Z.
        const aiNode *root = s->mRootNode;
        EXPECT_STREQ(root->mName.C_Str(), "SecondLifeMesh"); // a memory read has no file stem
        ExpectMatrixRows(root->mTransformation, {1, 0, 0, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1}, 0.0f);
        const aiVector3D up = root->mTransformation * aiVector3D(0, 0, 1);
        EXPECT_EQ(up, aiVector3D(0, 1, 0));
        const aiVector3D left = root->mTransformation * aiVector3D(0, 1, 0);
        EXPECT_EQ(left, aiVector3D(0, 0, -1));
        EXPECT_EQ(ChildNames(root), std::vector<std::string>{"high_lod"});
        const aiNode *lod = Child(root, "high_lod");
        ASSERT_EQ(lod->mNumMeshes, 1u);
        EXPECT_TRUE(lod->mTransformation.IsIdentity());
        std::int32_t level = -1;
        ASSERT_TRUE(lod->mMetaData != nullptr && lod->mMetaData->Get("sl.lodLevel", level));
        EXPECT_EQ(level, 3);

        // One white material named after the face.
        ASSERT_EQ(s->mNumMaterials, 1u);
        EXPECT_EQ(MaterialName(s, 0), "face0");
        aiColor4D diffuse, base;
        ASSERT_EQ(s->mMaterials[0]->Get(AI_MATKEY_COLOR_DIFFUSE, diffuse), AI_SUCCESS);
        ASSERT_EQ(s->mMaterials[0]->Get(AI_MATKEY_BASE_COLOR, base), AI_SUCCESS);
        EXPECT_EQ(diffuse, aiColor4D(1, 1, 1, 1));
        EXPECT_EQ(base, aiColor4D(1, 1, 1, 1));

        // No header facts in this file: only the format and the level imported.
        EXPECT_EQ(MetaString(s->mMetaData, AI_METADATA_SOURCE_FORMAT), "Second Life mesh asset");
        EXPECT_EQ(MetaString(s->mMetaData, "sl.lod"), "high");
        for (const char *key : {AI_METADATA_SOURCE_FORMAT_VERSION, "sl.version", "sl.creator", "sl.date",
                                "sl.dateSeconds", "sl.submodelId", "sl.normalizedScale", "UpAxis", "UpAxisSign"})
            EXPECT_FALSE(HasKey(s->mMetaData, key)) << key;
    }
}

TEST(SlScene, ZUpOptionKeepsTheFrameAndSaysSo) {
    const ImportResult r =
        ImportMemory(fixtures::SlTriangleAssetStored(), "llmesh", 0, BoolOption(GAMEFMT_SLMESH_YUP, false));
    ExpectClean(r);
    EXPECT_TRUE(r.scene->mRootNode->mTransformation.IsIdentity());
    std::int32_t axis = 0, sign = 0;
    ASSERT_TRUE(r.scene->mMetaData->Get("UpAxis", axis));
    ASSERT_TRUE(r.scene->mMetaData->Get("UpAxisSign", sign));
    EXPECT_EQ(axis, 2);
    EXPECT_EQ(sign, 1);
    EXPECT_EQ(r.scene->mMeshes[0]->mVertices[1], aiVector3D(0.5f, -0.5f, 0.5f));
}

TEST(SlScene, FileImportNamesTheRootAfterTheStem) {
    const auto dir = ScratchDir("sl_scene_stem");
    WriteBytes(dir / "little tri.llmesh", fixtures::SlTriangleAssetLevel9());
    const ImportResult r = ImportFile(dir / "little tri.llmesh");
    ExpectClean(r);
    EXPECT_STREQ(r.scene->mRootNode->mName.C_Str(), "little tri");
    // A stem that collides with a structural node name leaves the structural name alone.
    WriteBytes(dir / "high_lod.llmesh", fixtures::SlTriangleAssetLevel9());
    const ImportResult clash = ImportFile(dir / "high_lod.llmesh");
    ExpectClean(clash);
    EXPECT_STREQ(clash.scene->mRootNode->mName.C_Str(), "high_lod.1");
    EXPECT_NE(Child(clash.scene->mRootNode, "high_lod"), nullptr);
}

TEST(SlScene, ForeignBytesAreRejectedWithAClearMessage) {
    const Bytes junk = {'{', 0, 0, 0, 1, 'x', 'y', 'z', 0, 0, 0, 0, 0, 0, 0, 0};
    const ImportResult r = ImportMemory(junk, "llmesh");
    EXPECT_FALSE(r);
    EXPECT_NE(r.error.find("not a Second Life mesh asset"), std::string::npos) << r.error;

    auto importer = gamefmt::MakeImporter();
    const Assimp::BaseImporter *sl = importer->GetImporter("llmesh");
    ASSERT_NE(sl, nullptr);
    EXPECT_STREQ(sl->GetInfo()->mName, "gamefmt Second Life mesh");
    EXPECT_STREQ(sl->GetInfo()->mFileExtensions, "llmesh slm");
    EXPECT_EQ(sl->GetInfo()->mFlags,
              static_cast<unsigned>(aiImporterFlags_SupportBinaryFlavour | aiImporterFlags_SupportCompressedFlavour));
    EXPECT_FALSE(sl->CanRead("does-not-exist.llmesh", importer->GetIOHandler(), false));
}

TEST(SlScene, ContentDetectionFindsAssetsWithoutTheExtension) {
    const auto dir = ScratchDir("sl_scene_detect");
    WriteBytes(dir / "asset.bin", fixtures::SlTriangleAssetStored());
    const ImportResult r = ImportFile(dir / "asset.bin");
    ExpectClean(r);
    EXPECT_EQ(SourceFormat(r.scene), "Second Life mesh asset");
}

// ---------------------------------------------------------------- §11.5: rig, offsets, skeleton

TEST(SlScene, RiggedOffsetIsInverseBindTimesBindShape) {
    const ImportResult r = ImportMemory(fixtures::SlRiggedAsset(), "llmesh");
    ExpectClean(r);
    const aiScene *s = r.scene;
    ASSERT_EQ(s->mNumMeshes, 2u);
    for (unsigned m = 0; m < s->mNumMeshes; ++m) {
        const aiMesh *mesh = s->mMeshes[m];
        EXPECT_EQ(mesh->mMaterialIndex, m);
        ASSERT_EQ(mesh->mNumBones, 3u);
        EXPECT_STREQ(mesh->mBones[0]->mName.C_Str(), "mPelvis");
        EXPECT_STREQ(mesh->mBones[1]->mName.C_Str(), "mTorso");
        EXPECT_STREQ(mesh->mBones[2]->mName.C_Str(), "mChest");
        // IB (identity, e14 = -1.067) · BS (scale 0.5, translation (0.1, 0.2, 1.0)).
        ExpectMatrixRows(mesh->mBones[0]->mOffsetMatrix,
                         {0.5f, 0, 0, 0.1f, 0, 0.5f, 0, 0.2f, 0, 0, 0.5f, -0.067f, 0, 0, 0, 1});
        ExpectMatrixRows(mesh->mBones[2]->mOffsetMatrix,
                         {0.5f, 0, 0, 0.1f, 0, 0.5f, 0, 0.2f, 0, 0, 0.5f, 1.0f - 1.356f, 0, 0, 0, 1});
    }

    // §11.5's vertex: (0.5, 0.5, 0.5) -> bind (0.35, 0.45, 1.25) -> pelvis-local (0.35, 0.45, 0.183) -> back
    // to (0.35, 0.45, 1.25) through mPelvis at (0, 0, 1.067).
    const aiNode *root = s->mRootNode;
    const aiNode *pelvis = Child(root, "mPelvis");
    ASSERT_NE(pelvis, nullptr);
    const aiMatrix4x4 pelvisWorld = GlobalTransform(pelvis, root); // in the SL frame (below the root rotation)
    EXPECT_NEAR(pelvisWorld.a4, 0.0f, 1e-6f);
    EXPECT_NEAR(pelvisWorld.b4, 0.0f, 1e-6f);
    EXPECT_NEAR(pelvisWorld.c4, 1.067f, 1e-6f);
    const aiMesh *cap = MeshNamed(s, "high_lod_face1");
    ASSERT_NE(cap, nullptr);
    bool found = false;
    for (unsigned v = 0; v < cap->mNumVertices; ++v) {
        if (cap->mVertices[v] != aiVector3D(0.5f, 0.5f, 0.5f)) continue;
        found = true;
        const aiVector3D local = cap->mBones[0]->mOffsetMatrix * cap->mVertices[v];
        EXPECT_NEAR(local.x, 0.35f, 1e-6f);
        EXPECT_NEAR(local.y, 0.45f, 1e-6f);
        EXPECT_NEAR(local.z, 0.183f, 1e-6f);
        const aiVector3D world = pelvisWorld * local;
        EXPECT_NEAR(world.x, 0.35f, 1e-6f);
        EXPECT_NEAR(world.y, 0.45f, 1e-6f);
        EXPECT_NEAR(world.z, 1.25f, 1e-6f);
        // Skinned through all of the vertex's bones: the same, except that the fixture's mChest inverse bind only
        // undoes the joint's height, not its x of -0.015 (the Bento spine's offsets), weighted 0.5.
        aiVector3D skinned;
        for (unsigned b = 0; b < cap->mNumBones; ++b) {
            const aiBone *bone = cap->mBones[b];
            const aiNode *joint = FindNode(root, bone->mName.C_Str());
            ASSERT_NE(joint, nullptr);
            for (unsigned w = 0; w < bone->mNumWeights; ++w)
                if (bone->mWeights[w].mVertexId == v)
                    skinned += (GlobalTransform(joint, root) * bone->mOffsetMatrix * cap->mVertices[v]) *
                               bone->mWeights[w].mWeight;
        }
        EXPECT_NEAR(skinned.x, 0.35f - 0.5f * 0.015f, 1e-5f);
        EXPECT_NEAR(skinned.y, 0.45f, 1e-5f);
        EXPECT_NEAR(skinned.z, 1.25f, 1e-5f);
    }
    EXPECT_TRUE(found);
}

TEST(SlScene, SkeletonHasTheUsedJointsAndTheirAncestors) {
    const ImportResult r = ImportMemory(fixtures::SlRiggedAsset(), "llmesh");
    ExpectClean(r);
    const aiNode *root = r.scene->mRootNode;
    EXPECT_EQ(ChildNames(root), (std::vector<std::string>{"high_lod", "mPelvis"}));
    const aiNode *pelvis = Child(root, "mPelvis");
    ASSERT_NE(pelvis, nullptr);
    // mPelvis -> mSpine1 -> mSpine2 -> mTorso -> mSpine3 -> mSpine4 -> mChest: 7 joints, a chain.
    EXPECT_EQ(CountNodes(pelvis), 7u);
    std::vector<std::string> chain;
    for (const aiNode *n = pelvis; n != nullptr; n = n->mNumChildren ? n->mChildren[0] : nullptr) {
        chain.emplace_back(n->mName.C_Str());
        EXPECT_LE(n->mNumChildren, 1u);
    }
    EXPECT_EQ(chain,
              (std::vector<std::string>{"mPelvis", "mSpine1", "mSpine2", "mTorso", "mSpine3", "mSpine4", "mChest"}));
    EXPECT_NEAR(GlobalTransform(FindNode(root, "mTorso"), root).c4, 1.151f, 1e-6f);
    EXPECT_NEAR(GlobalTransform(FindNode(root, "mChest"), root).c4, 1.356f, 1e-6f);
    // The root rotation applies to the skeleton too: mPelvis ends up 1.067 up in Assimp's Y.
    EXPECT_NEAR(GlobalTransform(pelvis).b4, 1.067f, 1e-6f);
}

TEST(SlScene, FullSkeletonOptionGivesAll159Joints) {
    const ImportResult r =
        ImportMemory(fixtures::SlRiggedAsset(), "llmesh", 0, BoolOption(GAMEFMT_SLMESH_SKELETON, true));
    ExpectClean(r);
    const aiNode *root = r.scene->mRootNode;
    const aiNode *pelvis = Child(root, "mPelvis");
    ASSERT_NE(pelvis, nullptr);
    EXPECT_EQ(CountNodes(pelvis), kAvatarJointCount);
    // Every joint's world matrix is the table's (L_HAND, a rotated volume, included).
    for (const char *name : {"mHead", "L_HAND", "mToeRight", "mFaceJaw", "mTail6"}) {
        const aiNode *node = FindNode(root, name);
        ASSERT_NE(node, nullptr) << name;
        const gamefmt::Mat4 expected = AvatarJointWorldMatrix(static_cast<std::size_t>(FindAvatarJoint(name)));
        const aiMatrix4x4 got = GlobalTransform(node, root);
        ExpectMatrixRows(got,
                         {expected.m[0][0], expected.m[0][1], expected.m[0][2], expected.m[0][3], expected.m[1][0],
                          expected.m[1][1], expected.m[1][2], expected.m[1][3], expected.m[2][0], expected.m[2][1],
                          expected.m[2][2], expected.m[2][3], 0, 0, 0, 1},
                         1e-5f);
    }
}

TEST(SlScene, WeightsAreRenormalisedAndZeroWeightBonesKept) {
    const ImportResult r = ImportMemory(fixtures::SlRiggedAsset(), "llmesh");
    ExpectClean(r); // zero-weight aiBones pass ValidateDataStructure on 5.2.5 without a warning
    for (unsigned m = 0; m < r.scene->mNumMeshes; ++m) {
        const aiMesh *mesh = r.scene->mMeshes[m];
        std::vector<double> sums(mesh->mNumVertices, 0.0);
        for (unsigned b = 0; b < mesh->mNumBones; ++b)
            for (unsigned w = 0; w < mesh->mBones[b]->mNumWeights; ++w) {
                const aiVertexWeight &vw = mesh->mBones[b]->mWeights[w];
                EXPECT_GT(vw.mWeight, 0.0f); // zero influences are skipped
                sums[vw.mVertexId] += vw.mWeight;
            }
        for (unsigned v = 0; v < mesh->mNumVertices; ++v) EXPECT_NEAR(sums[v], 1.0, 1e-6) << "vertex " << v;
    }
    // The sides use only mPelvis and mTorso: mChest is a bone without weights, kept for the joint list.
    const aiMesh *sides = MeshNamed(r.scene, "high_lod_face0");
    ASSERT_NE(sides, nullptr);
    EXPECT_EQ(sides->mBones[2]->mNumWeights, 0u);
    EXPECT_EQ(sides->mBones[2]->mWeights, nullptr);
    // 0.75 / 0.25 stored as 49151 / 16383 (sum 65534) come back renormalised.
    bool sawSplit = false;
    for (unsigned w = 0; w < sides->mBones[1]->mNumWeights; ++w) {
        const aiVertexWeight &vw = sides->mBones[1]->mWeights[w];
        EXPECT_NEAR(vw.mWeight, 49151.0 / 65534.0, 1e-6);
        sawSplit = true;
    }
    EXPECT_TRUE(sawSplit);
}

TEST(SlScene, ExactRenormalisationOfRawWeights) {
    const ImportResult r = ImportAsset(
        TwoJointTriangle({"mPelvis", "mTorso"}, {TranslationMatrix(0, 0, -1.067), TranslationMatrix(0, 0, -1.151)},
                         {Record({{0, 30000}, {1, 10000}}), Record({{1, 65535}}), Record({{0, 0}, {1, 100}})}));
    ExpectClean(r);
    const aiMesh *m = r.scene->mMeshes[0];
    ASSERT_EQ(m->mNumBones, 2u);
    ASSERT_EQ(m->mBones[0]->mNumWeights, 1u); // the zero influence of vertex 2 is skipped
    EXPECT_EQ(m->mBones[0]->mWeights[0].mVertexId, 0u);
    EXPECT_FLOAT_EQ(m->mBones[0]->mWeights[0].mWeight, 0.75f);
    ASSERT_EQ(m->mBones[1]->mNumWeights, 3u);
    EXPECT_FLOAT_EQ(m->mBones[1]->mWeights[0].mWeight, 0.25f);
    EXPECT_FLOAT_EQ(m->mBones[1]->mWeights[1].mWeight, 1.0f);
    EXPECT_FLOAT_EQ(m->mBones[1]->mWeights[2].mWeight, 1.0f);
    // No bind shape: the offset is the inverse bind matrix itself (translation in row, not column, d).
    ExpectMatrixRows(m->mBones[1]->mOffsetMatrix, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -1.151f, 0, 0, 0, 1});
}

TEST(SlScene, UnknownJointBecomesARootChildAtItsInverseBind) {
    const ImportResult r = ImportAsset(
        TwoJointTriangle({"mPelvis", "myTail"}, {TranslationMatrix(0, 0, -1.067), TranslationMatrix(-0.25, 0, -0.5)},
                         {Record({{0, 65535}}), Record({{1, 65535}}), Record({{1, 30000}, {0, 30000}})}));
    ExpectClean(r);
    const aiNode *root = r.scene->mRootNode;
    EXPECT_EQ(ChildNames(root), (std::vector<std::string>{"high_lod", "mPelvis", "myTail"}));
    const aiNode *tail = Child(root, "myTail");
    ASSERT_NE(tail, nullptr);
    ExpectMatrixRows(tail->mTransformation, {1, 0, 0, 0.25f, 0, 1, 0, 0, 0, 0, 1, 0.5f, 0, 0, 0, 1});
    EXPECT_EQ(CountNodes(Child(root, "mPelvis")), 1u);
    EXPECT_STREQ(r.scene->mMeshes[0]->mBones[1]->mName.C_Str(), "myTail");
    EXPECT_TRUE(LogHas(r, "myTail")) << "expected a warning naming the unknown joint";
}

TEST(SlScene, RepeatedJointNameGetsANodeOfItsOwn) {
    const ImportResult r = ImportAsset(
        TwoJointTriangle({"mPelvis", "mPelvis"}, {TranslationMatrix(0, 0, -1.067), TranslationMatrix(0, 0, -1.0)}));
    ExpectClean(r); // bone names stay unique per mesh and each matches one node
    const aiMesh *m = r.scene->mMeshes[0];
    EXPECT_STREQ(m->mBones[0]->mName.C_Str(), "mPelvis");
    EXPECT_STREQ(m->mBones[1]->mName.C_Str(), "mPelvis.1");
    const aiNode *second = Child(r.scene->mRootNode, "mPelvis.1");
    ASSERT_NE(second, nullptr);
    EXPECT_NEAR(second->mTransformation.c4, 1.0f, 1e-6f);
    aiString original;
    ASSERT_TRUE(second->mMetaData != nullptr && second->mMetaData->Get("sl.jointName", original));
    EXPECT_STREQ(original.C_Str(), "mPelvis");
}

TEST(SlScene, AliasesAndOverridesPlaceJoints) {
    SLMeshAsset asset =
        TwoJointTriangle({"hip", "avatar_mTorso"}, {TranslationMatrix(0, 0, -1.067), TranslationMatrix(0, 0, -1.151)});
    // Joint position overrides: e[12..14] is the local position, used as is (no inversion).
    asset.skin->altInverseBind = {TranslationMatrix(0, 0, 1.2), TranslationMatrix(0.05, 0, 0.1)};
    asset.skin->hasAltInverseBind = true;
    const ImportResult r = ImportAsset(asset);
    ExpectClean(r);
    const aiMesh *m = r.scene->mMeshes[0];
    EXPECT_STREQ(m->mBones[0]->mName.C_Str(), "mPelvis");
    EXPECT_STREQ(m->mBones[1]->mName.C_Str(), "mTorso");
    const aiNode *root = r.scene->mRootNode;
    const aiNode *pelvis = Child(root, "mPelvis");
    ASSERT_NE(pelvis, nullptr);
    EXPECT_NEAR(pelvis->mTransformation.c4, 1.2f, 1e-6f);
    const aiNode *torso = FindNode(root, "mTorso");
    ASSERT_NE(torso, nullptr);
    EXPECT_NEAR(torso->mTransformation.a4, 0.05f, 1e-6f);
    EXPECT_NEAR(torso->mTransformation.c4, 0.1f, 1e-6f);
    // The Bento joints between keep their defaults.
    EXPECT_NEAR(FindNode(root, "mSpine1")->mTransformation.c4, 0.084f, 1e-6f);

    // A mismatched override set is ignored as a whole.
    asset.skin->altInverseBind.pop_back();
    const ImportResult ignored = ImportAsset(asset);
    ExpectClean(ignored);
    EXPECT_NEAR(Child(ignored.scene->mRootNode, "mPelvis")->mTransformation.c4, 1.067f, 1e-6f);
}

TEST(SlScene, RiggedMeshesIgnoreNormalizedScale) {
    SLMeshAsset asset;
    Face face = TriangleFace();
    face.normalizedScale = Real3{2, 3, 4};
    face.hasWeights = true;
    face.weights = {Record({{0, 65535}}), Record({{0, 65535}}), Record({{0, 65535}})};
    asset.lods[kHighLod] = Lod{{face}};
    Skin skin;
    skin.jointNames = {"mPelvis"};
    skin.inverseBind = {TranslationMatrix(0, 0, -1.067)};
    asset.skin = skin;
    const ImportResult r = ImportAsset(asset);
    ExpectClean(r);
    EXPECT_TRUE(Child(r.scene->mRootNode, "high_lod")->mTransformation.IsIdentity());
}

// ---------------------------------------------------------------- faces and materials

TEST(SlScene, NoGeometryFaceKeepsItsMaterialSlot) {
    SLMeshAsset asset;
    asset.lods[kHighLod] = Lod{{TriangleFace(), NoGeometryFace(), TriangleFace(100)}};
    const ImportResult r = ImportAsset(asset);
    ExpectClean(r);
    ASSERT_EQ(r.scene->mNumMeshes, 2u);
    EXPECT_STREQ(r.scene->mMeshes[0]->mName.C_Str(), "high_lod_face0");
    EXPECT_EQ(r.scene->mMeshes[0]->mMaterialIndex, 0u);
    EXPECT_STREQ(r.scene->mMeshes[1]->mName.C_Str(), "high_lod_face2");
    EXPECT_EQ(r.scene->mMeshes[1]->mMaterialIndex, 2u);
    ASSERT_EQ(r.scene->mNumMaterials, 3u);
    for (unsigned i = 0; i < 3; ++i) EXPECT_EQ(MaterialName(r.scene, i), "face" + std::to_string(i));
    // Normals and UVs absent in the file stay absent.
    EXPECT_EQ(r.scene->mMeshes[0]->mNormals, nullptr);
    EXPECT_EQ(r.scene->mMeshes[0]->mTextureCoords[0], nullptr);
}

TEST(SlScene, RiggedLowestLevelKeepsTheNoGeometrySlot) {
    const ImportResult r = ImportMemory(fixtures::SlRiggedAsset(), "llmesh", 0, LodString("lowest"));
    ExpectClean(r);
    EXPECT_EQ(ChildNames(r.scene->mRootNode), (std::vector<std::string>{"lowest_lod", "mPelvis"}));
    ASSERT_EQ(r.scene->mNumMeshes, 1u);
    EXPECT_STREQ(r.scene->mMeshes[0]->mName.C_Str(), "lowest_lod_face0");
    EXPECT_EQ(r.scene->mNumMaterials, 2u);
    EXPECT_EQ(MetaString(r.scene->mMetaData, "sl.lod"), "lowest");
    // The quad lies on x = 0.5: a zero-range axis decodes to Min exactly.
    for (unsigned v = 0; v < r.scene->mMeshes[0]->mNumVertices; ++v)
        EXPECT_EQ(r.scene->mMeshes[0]->mVertices[v].x, 0.5f);
}

TEST(SlScene, UnreferencedVerticesAreDroppedAndTheOrderKept) {
    SLMeshAsset asset;
    Face face;
    face.positionDomain = Domain3{};
    face.positions = {0, 0, 0, 1, 1, 1, 0xFFFF, 0, 0, 0, 0xFFFF, 0};
    face.indices = {0, 2, 3};
    asset.lods[kHighLod] = Lod{{face}};
    const ImportResult r = ImportAsset(asset);
    ExpectClean(r);
    const aiMesh *m = r.scene->mMeshes[0];
    ASSERT_EQ(m->mNumVertices, 3u);
    EXPECT_EQ(m->mVertices[1], aiVector3D(0.5f, -0.5f, -0.5f));
    EXPECT_EQ(m->mFaces[0].mIndices[2], 2u);
}

TEST(SlScene, MissingDomainsUseTheDefaults) {
    SLMeshAsset asset;
    Face face = TriangleFace();
    face.positionDomain.reset();
    face.hasTexCoords = true;
    face.texCoords = {0, 0, 0xFFFF, 0, 0, 0xFFFF};
    asset.lods[kHighLod] = Lod{{face}};
    const ImportResult r = ImportAsset(asset);
    ExpectClean(r);
    const aiMesh *m = r.scene->mMeshes[0];
    EXPECT_EQ(m->mVertices[0], aiVector3D(-0.5f, -0.5f, -0.5f));
    EXPECT_EQ(m->mVertices[1], aiVector3D(0.5f, -0.5f, 0.5f));
    EXPECT_EQ(m->mTextureCoords[0][1], aiVector3D(1, 0, 0));
    EXPECT_TRUE(LogHas(r, "PositionDomain"));
}

TEST(SlScene, SlmMaterialNamesComeFromTheMaterialList) {
    const ImportResult r = ImportMemory(fixtures::SlSlmContainer(), "slm");
    ExpectClean(r);
    ASSERT_EQ(r.scene->mNumMaterials, 2u);
    EXPECT_EQ(MaterialName(r.scene, 0), "red");
    EXPECT_EQ(MaterialName(r.scene, 1), "blue");
    ASSERT_EQ(r.scene->mNumMeshes, 2u);
    EXPECT_EQ(r.scene->mMeshes[1]->mMaterialIndex, 1u);

    // An empty entry falls back to "face<i>"; a bare asset with a material_list works the same.
    SLMeshAsset asset;
    asset.lods[kHighLod] = Lod{{TriangleFace(), TriangleFace(5)}};
    asset.materialList = std::vector<std::string>{"", "wood"};
    const ImportResult bare = ImportAsset(asset);
    ExpectClean(bare);
    EXPECT_EQ(MaterialName(bare.scene, 0), "face0");
    EXPECT_EQ(MaterialName(bare.scene, 1), "wood");

    const ImportResult missing = ImportMemory(fixtures::SlSlmContainer(), "slm", 0, [](Assimp::Importer &imp) {
        imp.SetPropertyInteger(GAMEFMT_SLMESH_SLM_MESH, 3);
    });
    EXPECT_FALSE(missing);
    EXPECT_NE(missing.error.find("mesh 3"), std::string::npos) << missing.error;
}

// ---------------------------------------------------------------- levels of detail

TEST(SlScene, LodOptionSelectsTheLevel) {
    const Bytes rigged = fixtures::SlRiggedAsset();
    const struct {
        ImporterSetup setup;
        const char *node;
        const char *name;
    } cases[] = {
        {{}, "high_lod", "high"},
        {LodString("medium"), "medium_lod", "medium"},
        {LodString("Low"), "low_lod", "low"},
        {LodString("lowest"), "lowest_lod", "lowest"},
        {LodString("medium_lod"), "medium_lod", "medium"},
        {[](Assimp::Importer &imp) { imp.SetPropertyInteger(GAMEFMT_SLMESH_LOD, 1); }, "low_lod", "low"},
        {[](Assimp::Importer &imp) { imp.SetPropertyInteger(GAMEFMT_SLMESH_LOD, 3); }, "high_lod", "high"},
    };
    for (const auto &c : cases) {
        SCOPED_TRACE(c.node);
        const ImportResult r = ImportMemory(rigged, "llmesh", 0, c.setup);
        ExpectClean(r);
        const aiNode *lod = Child(r.scene->mRootNode, c.node);
        ASSERT_NE(lod, nullptr);
        EXPECT_EQ(ChildNames(r.scene->mRootNode).size(), 2u);
        EXPECT_EQ(MetaString(r.scene->mMetaData, "sl.lod"), c.name);
        for (unsigned i = 0; i < lod->mNumMeshes; ++i)
            EXPECT_EQ(std::string(r.scene->mMeshes[lod->mMeshes[i]]->mName.C_Str()).rfind(c.node, 0), 0u);
    }
}

TEST(SlScene, AllLevelsBecomeSiblingNodes) {
    for (const ImporterSetup &setup : {LodString("all"), BoolOption(GAMEFMT_SLMESH_ALL_LODS, true)}) {
        const ImportResult r = ImportMemory(fixtures::SlRiggedAsset(), "llmesh", 0, setup);
        ExpectClean(r);
        const aiNode *root = r.scene->mRootNode;
        EXPECT_EQ(ChildNames(root),
                  (std::vector<std::string>{"high_lod", "medium_lod", "low_lod", "lowest_lod", "mPelvis"}));
        const char *names[] = {"high_lod", "medium_lod", "low_lod", "lowest_lod"};
        for (int i = 0; i < 4; ++i) {
            std::int32_t level = -1;
            const aiNode *lod = Child(root, names[i]);
            ASSERT_TRUE(lod->mMetaData != nullptr && lod->mMetaData->Get("sl.lodLevel", level));
            EXPECT_EQ(level, 3 - i);
        }
        EXPECT_EQ(r.scene->mNumMeshes, 2u + 2u + 2u + 1u);
        EXPECT_EQ(MetaString(r.scene->mMetaData, "sl.lod"), "all");
    }
}

TEST(SlScene, MissingLevelFallsBackLowerThenHigher) {
    // Only medium_lod in the file (the §11.2 block): the default (high) falls back to it.
    const Bytes onlyMedium = AssetWithBlocks({{"medium_lod", fixtures::SlTriangleBlockStored()}});
    const ImportResult r = ImportMemory(onlyMedium, "llmesh");
    ExpectClean(r);
    EXPECT_EQ(ChildNames(r.scene->mRootNode), std::vector<std::string>{"medium_lod"});
    EXPECT_STREQ(r.scene->mMeshes[0]->mName.C_Str(), "medium_lod_face0");
    EXPECT_EQ(MetaString(r.scene->mMetaData, "sl.lod"), "medium");
    EXPECT_TRUE(LogHas(r, "medium_lod imported instead"));
    // lowest asked: nothing lower, so the next higher level.
    const ImportResult up = ImportMemory(onlyMedium, "llmesh", 0, LodString("lowest"));
    ExpectClean(up);
    EXPECT_NE(Child(up.scene->mRootNode, "medium_lod"), nullptr);

    // high + low in the file, medium asked: lower first (low), not high.
    SLMeshAsset asset;
    asset.lods[kHighLod] = Lod{{TriangleFace()}};
    asset.lods[kLowLod] = Lod{{TriangleFace(7)}};
    const ImportResult lower = ImportAsset(asset, LodString("medium"));
    ExpectClean(lower);
    EXPECT_EQ(ChildNames(lower.scene->mRootNode), std::vector<std::string>{"low_lod"});
    // A level of NoGeometry faces only counts as missing.
    asset.lods[kMediumLod] = Lod{{NoGeometryFace()}};
    const ImportResult empty = ImportAsset(asset, LodString("medium"));
    ExpectClean(empty);
    EXPECT_EQ(ChildNames(empty.scene->mRootNode), std::vector<std::string>{"low_lod"});
    // With "all", only the levels that exist (and have triangles).
    const ImportResult all = ImportAsset(asset, LodString("all"));
    ExpectClean(all);
    EXPECT_EQ(ChildNames(all.scene->mRootNode), (std::vector<std::string>{"high_lod", "low_lod"}));
}

TEST(SlScene, BadLodValuesFailNamingTheOption) {
    for (const ImporterSetup &setup :
         {LodString("ultra"), LodString(""),
          Props([](Assimp::Importer &imp) { imp.SetPropertyInteger(GAMEFMT_SLMESH_LOD, 4); }),
          Props([](Assimp::Importer &imp) { imp.SetPropertyInteger(GAMEFMT_SLMESH_LOD, -1); })}) {
        const ImportResult r = ImportMemory(fixtures::SlTriangleAssetStored(), "llmesh", 0, setup);
        EXPECT_FALSE(r);
        EXPECT_NE(r.error.find(GAMEFMT_SLMESH_LOD), std::string::npos) << r.error;
        EXPECT_NE(r.error.find("\"lowest\""), std::string::npos) << r.error;
    }
}

TEST(SlScene, OtherOptionsAreReadAndChecked) {
    // A tiny inflate cap still holds these small blocks; <= 0 means the default.
    for (const int mib : {1, 0, -5}) {
        const ImportResult r = ImportMemory(fixtures::SlRiggedAsset(), "llmesh", 0, [mib](Assimp::Importer &imp) {
            imp.SetPropertyInteger(GAMEFMT_SLMESH_MAX_INFLATED, mib);
        });
        ExpectClean(r);
    }
    const ImportResult negative = ImportMemory(fixtures::SlSlmContainer(), "slm", 0, [](Assimp::Importer &imp) {
        imp.SetPropertyInteger(GAMEFMT_SLMESH_SLM_MESH, -1);
    });
    EXPECT_FALSE(negative);
    EXPECT_NE(negative.error.find(GAMEFMT_SLMESH_SLM_MESH), std::string::npos) << negative.error;
    // Options are per read: the same Importer reads with new values next time.
    Assimp::Importer importer;
    gamefmt::RegisterImporters(importer);
    const Bytes rigged = fixtures::SlRiggedAsset();
    importer.SetPropertyString(GAMEFMT_SLMESH_LOD, "low");
    const aiScene *low = importer.ReadFileFromMemory(rigged.data(), rigged.size(), 0, "llmesh");
    ASSERT_NE(low, nullptr) << importer.GetErrorString();
    EXPECT_NE(Child(low->mRootNode, "low_lod"), nullptr);
    importer.SetPropertyString(GAMEFMT_SLMESH_LOD, "high");
    const aiScene *high = importer.ReadFileFromMemory(rigged.data(), rigged.size(), 0, "llmesh");
    ASSERT_NE(high, nullptr) << importer.GetErrorString();
    EXPECT_NE(Child(high->mRootNode, "high_lod"), nullptr);
}

TEST(SlScene, AssetWithoutTrianglesFails) {
    SLMeshAsset asset;
    asset.lods[kHighLod] = Lod{{NoGeometryFace()}};
    const ImportResult r = ImportAsset(asset);
    EXPECT_FALSE(r);
    EXPECT_NE(r.error.find("Second Life mesh"), std::string::npos) << r.error;
}

// ---------------------------------------------------------------- static size

TEST(SlScene, NormalizedScaleScalesTheLodNode) {
    SLMeshAsset asset;
    Face face = TriangleFace();
    face.normalizedScale = Real3{2, 3, 0.5};
    asset.lods[kHighLod] = Lod{{face}};
    const ImportResult r = ImportAsset(asset);
    ExpectClean(r);
    ExpectMatrixRows(Child(r.scene->mRootNode, "high_lod")->mTransformation,
                     {2, 0, 0, 0, 0, 3, 0, 0, 0, 0, 0.5f, 0, 0, 0, 0, 1}, 0.0f);
    aiVector3D scale;
    ASSERT_TRUE(r.scene->mMetaData->Get("sl.normalizedScale", scale));
    EXPECT_EQ(scale, aiVector3D(2, 3, 0.5f));
    // The vertices stay normalized.
    EXPECT_EQ(r.scene->mMeshes[0]->mVertices[1], aiVector3D(0.5f, -0.5f, 0.5f));

    const ImportResult off = ImportAsset(asset, BoolOption(GAMEFMT_SLMESH_NORMALIZED_SCALE, false));
    ExpectClean(off);
    EXPECT_TRUE(Child(off.scene->mRootNode, "high_lod")->mTransformation.IsIdentity());
    EXPECT_TRUE(off.scene->mMetaData->Get("sl.normalizedScale", scale)); // still reported
}

// ---------------------------------------------------------------- physics

SLMeshAsset PhysicsAsset() {
    SLMeshAsset asset = StaticAsset();
    asset.physicsMesh = Lod{{TriangleFace(9)}};
    PhysicsConvex convex;
    convex.domain = Domain3{};
    convex.hasBoundingVerts = true;
    convex.boundingVerts = {0, 0, 0, 0xFFFF, 0, 0, 0, 0xFFFF, 0, 0, 0, 0xFFFF}; // §11.6 tetrahedron
    convex.hasHullList = true;
    convex.hullList = {3, 5};
    // hull_0: 3 points (no hull); hull_1: a square pyramid.
    convex.positions = {0,      0, 0, 100,    0,      0, 0, 100,    0, 0,      0,      0,
                        0xFFFF, 0, 0, 0xFFFF, 0xFFFF, 0, 0, 0xFFFF, 0, 0x8000, 0x8000, 0xFFFF};
    asset.physicsConvex = convex;
    return asset;
}

void ExpectOutward(const aiMesh *m) {
    aiVector3D centroid;
    for (unsigned v = 0; v < m->mNumVertices; ++v) centroid += m->mVertices[v];
    centroid /= static_cast<ai_real>(m->mNumVertices);
    for (unsigned f = 0; f < m->mNumFaces; ++f) {
        ASSERT_EQ(m->mFaces[f].mNumIndices, 3u);
        const aiVector3D a = m->mVertices[m->mFaces[f].mIndices[0]], b = m->mVertices[m->mFaces[f].mIndices[1]],
                         c = m->mVertices[m->mFaces[f].mIndices[2]];
        const aiVector3D n = (b - a) ^ (c - a);
        EXPECT_GT(n * (a - centroid), 0.0f) << m->mName.C_Str() << " triangle " << f << " faces inward";
    }
}

TEST(SlScene, PhysicsOptionAddsMeshesAndHulls) {
    const SLMeshAsset asset = PhysicsAsset();
    const ImportResult none = ImportAsset(asset);
    ExpectClean(none);
    EXPECT_EQ(Child(none.scene->mRootNode, "physics"), nullptr);
    EXPECT_EQ(none.scene->mNumMeshes, 1u);

    const ImportResult r = ImportAsset(asset, BoolOption(GAMEFMT_SLMESH_PHYSICS, true));
    ExpectClean(r);
    const aiScene *s = r.scene;
    const aiNode *physics = Child(s->mRootNode, "physics");
    ASSERT_NE(physics, nullptr);
    EXPECT_EQ(ChildNames(physics), (std::vector<std::string>{"physics_mesh", "physics_convex"}));
    ASSERT_EQ(s->mNumMaterials, 2u);
    EXPECT_EQ(MaterialName(s, 1), "physics");

    const aiMesh *collision = MeshNamed(s, "physics_mesh_face0");
    ASSERT_NE(collision, nullptr);
    EXPECT_EQ(collision->mMaterialIndex, 1u);
    EXPECT_EQ(Child(physics, "physics_mesh")->mNumMeshes, 1u);

    const aiNode *convex = Child(physics, "physics_convex");
    ASSERT_EQ(convex->mNumMeshes, 3u);
    const aiMesh *bounding = s->mMeshes[convex->mMeshes[0]];
    EXPECT_STREQ(bounding->mName.C_Str(), "bounding_hull");
    EXPECT_EQ(bounding->mMaterialIndex, 1u);
    EXPECT_EQ(bounding->mPrimitiveTypes, static_cast<unsigned>(aiPrimitiveType_TRIANGLE));
    EXPECT_EQ(bounding->mNumVertices, 4u);
    EXPECT_EQ(bounding->mNumFaces, 4u);
    ExpectOutward(bounding);

    const aiMesh *flat = s->mMeshes[convex->mMeshes[1]];
    EXPECT_STREQ(flat->mName.C_Str(), "hull_0");
    EXPECT_EQ(flat->mPrimitiveTypes, static_cast<unsigned>(aiPrimitiveType_POINT));
    EXPECT_EQ(flat->mNumVertices, 3u);
    EXPECT_EQ(flat->mNumFaces, 3u);
    EXPECT_EQ(flat->mFaces[2].mNumIndices, 1u);
    EXPECT_TRUE(LogHas(r, "hull_0"));

    const aiMesh *pyramid = s->mMeshes[convex->mMeshes[2]];
    EXPECT_STREQ(pyramid->mName.C_Str(), "hull_1");
    EXPECT_EQ(pyramid->mNumVertices, 5u);
    EXPECT_EQ(pyramid->mNumFaces, 6u); // 4 sides + the square base as 2 triangles
    ExpectOutward(pyramid);
}

TEST(SlScene, RiggedFixturePhysicsConvexIsTheTetrahedron) {
    const ImportResult r =
        ImportMemory(fixtures::SlRiggedAsset(), "llmesh", 0, BoolOption(GAMEFMT_SLMESH_PHYSICS, true));
    ExpectClean(r);
    const aiMesh *hull = MeshNamed(r.scene, "bounding_hull");
    ASSERT_NE(hull, nullptr);
    EXPECT_EQ(hull->mNumFaces, 4u);
    EXPECT_EQ(hull->mNumBones, 0u);
    ExpectOutward(hull);
}

// ---------------------------------------------------------------- metadata

TEST(SlScene, HeaderFactsBecomeMetadataOnlyWhenPresent) {
    SLMeshAsset asset = StaticAsset();
    asset.version = 1;
    UUIDBytes creator{};
    for (std::size_t i = 0; i < creator.size(); ++i) creator[i] = static_cast<std::uint8_t>(0xA0 + i);
    asset.creator = creator;
    asset.date = 1700000000.5; // 2023-11-14 22:13:20.5 UTC
    asset.submodelId = 2;
    const ImportResult r = ImportAsset(asset);
    ExpectClean(r);
    const aiMetadata *md = r.scene->mMetaData;
    EXPECT_EQ(MetaString(md, AI_METADATA_SOURCE_FORMAT), "Second Life mesh asset");
    EXPECT_EQ(MetaString(md, AI_METADATA_SOURCE_FORMAT_VERSION), "1");
    std::int32_t version = 0, submodel = 0;
    ASSERT_TRUE(md->Get("sl.version", version));
    EXPECT_EQ(version, 1);
    ASSERT_TRUE(md->Get("sl.submodelId", submodel));
    EXPECT_EQ(submodel, 2);
    EXPECT_EQ(MetaString(md, "sl.creator"), "a0a1a2a3-a4a5-a6a7-a8a9-aaabacadaeaf");
    EXPECT_EQ(MetaString(md, "sl.date"), "2023-11-14T22:13:20.5Z");
    double seconds = 0;
    ASSERT_TRUE(md->Get("sl.dateSeconds", seconds));
    EXPECT_EQ(seconds, 1700000000.5);

    asset.date = 0.0;
    asset.version = 0;
    const ImportResult epoch = ImportAsset(asset);
    ExpectClean(epoch);
    EXPECT_EQ(MetaString(epoch.scene->mMetaData, "sl.date"), "1970-01-01T00:00:00Z");
    EXPECT_EQ(MetaString(epoch.scene->mMetaData, AI_METADATA_SOURCE_FORMAT_VERSION), "0");
    asset.date = 951782400.0; // a leap day
    EXPECT_EQ(MetaString(ImportAsset(asset).scene->mMetaData, "sl.date"), "2000-02-29T00:00:00Z");
}

// ---------------------------------------------------------------- damaged input

TEST(SlScene, DamagedAssetsFailCleanlyOrValidate) {
    const Bytes good = fixtures::SlSlmContainer();
    const ImporterSetup everything = [](Assimp::Importer &imp) {
        imp.SetPropertyBool(GAMEFMT_SLMESH_PHYSICS, true);
        imp.SetPropertyBool(GAMEFMT_SLMESH_ALL_LODS, true);
    };
    std::size_t imported = 0, failed = 0;
    const auto check = [&](const Bytes &bytes) {
        const ImportResult r = ImportMemory(bytes, "slm", 0, everything);
        if (!r) {
            EXPECT_FALSE(r.error.empty());
            ++failed;
            return;
        }
        ++imported;
        EXPECT_TRUE(r.validationWarnings.empty()) << r.validationWarnings.front();
    };
    for (std::size_t n = 1; n < good.size(); n += 13)
        check(Bytes(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n)));
    std::uint32_t seed = 12345;
    for (int i = 0; i < 150; ++i) {
        Bytes bad = good;
        seed = seed * 1664525u + 1013904223u;
        const std::size_t at = (seed >> 8) % bad.size();
        seed = seed * 1664525u + 1013904223u;
        bad[at] = static_cast<std::uint8_t>(bad[at] ^ (1u + (seed >> 24) % 255u));
        check(bad);
    }
    EXPECT_GT(failed, 0u);
    EXPECT_GT(imported, 0u);
}

// ---------------------------------------------------------------- glb2

void ExpectGlb2(const aiScene *scene, unsigned bones) {
    Assimp::Exporter exporter;
    gamefmt::RegisterExporters(exporter);
    const aiExportDataBlob *blob = exporter.ExportToBlob(scene, "glb2");
    ASSERT_NE(blob, nullptr) << exporter.GetErrorString();
    const auto *data = static_cast<const std::uint8_t *>(blob->data);
    const ImportResult back = ImportMemory(Bytes(data, data + blob->size), "glb");
    ASSERT_TRUE(back) << back.error;
    EXPECT_GE(back.scene->mNumMeshes, 1u);
    unsigned maxBones = 0;
    for (unsigned m = 0; m < back.scene->mNumMeshes; ++m)
        maxBones = std::max(maxBones, back.scene->mMeshes[m]->mNumBones);
    EXPECT_EQ(maxBones, bones);
}

TEST(SlScene, ScenesConvertToGlb2) {
    {
        SCOPED_TRACE("triangle");
        const ImportResult r = ImportMemory(fixtures::SlTriangleAssetLevel9(), "llmesh");
        ExpectClean(r);
        ExpectGlb2(r.scene, 0);
    }
    {
        SCOPED_TRACE("rigged");
        const ImportResult r = ImportMemory(fixtures::SlRiggedAsset(), "llmesh");
        ExpectClean(r);
        ExpectGlb2(r.scene, 3);
    }
    {
        SCOPED_TRACE("rigged, all levels, physics, full skeleton, Z-up");
        const ImportResult r = ImportMemory(fixtures::SlRiggedAsset(), "llmesh", 0, [](Assimp::Importer &imp) {
            imp.SetPropertyString(GAMEFMT_SLMESH_LOD, "all");
            imp.SetPropertyBool(GAMEFMT_SLMESH_PHYSICS, true);
            imp.SetPropertyBool(GAMEFMT_SLMESH_SKELETON, true);
            imp.SetPropertyBool(GAMEFMT_SLMESH_YUP, false);
        });
        ExpectClean(r);
        ExpectGlb2(r.scene, 3);
    }
    {
        SCOPED_TRACE("static with physics and point hulls");
        const ImportResult r = ImportAsset(PhysicsAsset(), BoolOption(GAMEFMT_SLMESH_PHYSICS, true));
        ExpectClean(r);
        ExpectGlb2(r.scene, 0);
    }
}

// The importer's scene is what the llmesh exporter reads back (the layout contract of assimp_glue/sl_mesh/scene.hpp).
TEST(SlScene, ReExportThroughLlmeshKeepsTheHighLevel) {
    for (const bool yUp : {true, false}) {
        SCOPED_TRACE(yUp ? "Y-up" : "Z-up");
        const ImportResult first =
            ImportMemory(fixtures::SlRiggedAsset(), "llmesh", 0, BoolOption(GAMEFMT_SLMESH_YUP, yUp));
        ExpectClean(first);
        Assimp::Exporter exporter;
        gamefmt::RegisterExporters(exporter);
        const aiExportDataBlob *blob = exporter.ExportToBlob(first.scene, "llmesh");
        ASSERT_NE(blob, nullptr) << exporter.GetErrorString();
        const auto *data = static_cast<const std::uint8_t *>(blob->data);
        const ImportResult second = ImportMemory(Bytes(data, data + blob->size), "llmesh");
        ExpectClean(second);
        ASSERT_EQ(second.scene->mNumMeshes, first.scene->mNumMeshes);
        for (unsigned m = 0; m < first.scene->mNumMeshes; ++m) {
            const aiMesh *a = first.scene->mMeshes[m];
            const aiMesh *b = second.scene->mMeshes[m];
            EXPECT_STREQ(a->mName.C_Str(), b->mName.C_Str());
            EXPECT_EQ(a->mNumVertices, b->mNumVertices);
            EXPECT_EQ(a->mNumFaces, b->mNumFaces);
            ASSERT_EQ(a->mNumBones, b->mNumBones);
            for (unsigned i = 0; i < a->mNumBones; ++i)
                EXPECT_STREQ(a->mBones[i]->mName.C_Str(), b->mBones[i]->mName.C_Str());
            // Skinned bind-pose positions agree within a quantization step of the 1 m cube.
            for (unsigned v = 0; v < std::min(a->mNumVertices, b->mNumVertices); ++v) {
                const aiVector3D pa = a->mBones[0]->mOffsetMatrix * a->mVertices[v];
                const aiVector3D pb = b->mBones[0]->mOffsetMatrix * b->mVertices[v];
                EXPECT_NEAR(pa.x, pb.x, 1e-4f);
                EXPECT_NEAR(pa.y, pb.y, 1e-4f);
                EXPECT_NEAR(pa.z, pb.z, 1e-4f);
            }
        }
    }
}

TEST(SlScene, SurvivesTheUsualPostProcessing) {
    for (const unsigned flags :
         {unsigned(aiProcess_Triangulate | aiProcess_JoinIdenticalVertices), unsigned(aiProcess_GenSmoothNormals),
          unsigned(aiProcessPreset_TargetRealtime_MaxQuality)}) {
        const ImportResult r = ImportMemory(fixtures::SlRiggedAsset(), "llmesh", flags);
        ASSERT_TRUE(r) << r.error;
        EXPECT_GE(r.scene->mNumMeshes, 1u);
    }
}

} // namespace
