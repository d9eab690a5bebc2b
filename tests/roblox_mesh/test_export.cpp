// The Roblox mesh exporter (docs/formats/roblox-mesh.md §14): registration, options, the aiScene → BuildInput
// conversion on hand-built scenes, exports of every version re-read by our reader and importer, skinning, the corpus
// round trip, errors and the command line.
#include "assimp_glue/common/export_util.hpp"
#include "assimp_glue/roblox_mesh/exporter.hpp"

#include "common/base64.hpp"
#include "common/error.hpp"
#include "fixtures/roblox_mesh_fixtures.hpp"
#include "gamefmt/config.hpp"
#include "gamefmt/gamefmt.hpp"
#include "importers/roblox_mesh/mesh_reader.hpp"
#include "importers/roblox_mesh/mesh_writer.hpp"
#include "support/expect_error.hpp"
#include "support/import_helpers.hpp"
#include "support/scene_build.hpp"

#include <assimp/Exporter.hpp>
#include <assimp/Importer.hpp>
#include <assimp/cexport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <gtest/gtest.h>

#if defined(GAMEFMT_HAVE_CLI)
#include "cli.hpp"
#endif

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
namespace rb = gamefmt::rbxmesh;
using gamefmt::glue::ExtractRobloxMeshInput;
using gamefmt::glue::RobloxMeshSceneInput;
using namespace gamefmt::test;

const char *const kIds[] = {"rbxmesh", "rbxmesh2", "rbxmesh3", "rbxmesh4", "rbxmesh5", "rbxmesh6", "rbxmesh7"};

// ---------------------------------------------------------------- helpers

Exported Export(const aiScene *scene, const std::string &id, const Assimp::ExportProperties *props = nullptr) {
    return ExportScene(scene, id, props);
}

rb::RobloxMesh Read(const std::vector<std::uint8_t> &bytes) {
    return rb::ReadRobloxMesh(bytes.data(), bytes.size());
}

std::string VersionLine(const std::vector<std::uint8_t> &bytes) {
    if (bytes.size() < 12) return {};
    return std::string(bytes.begin(), bytes.begin() + 12);
}

std::vector<std::size_t> LevelFaceCounts(const rb::RobloxMesh &mesh) {
    std::vector<std::size_t> counts;
    for (const rb::LodLevel &level : rb::LodLevels(mesh)) counts.push_back(level.faceEnd - level.faceBegin);
    return counts;
}

// One triangle (or a polygon of `corners` vertices on the unit circle) with normals +Z, UVs and tangents.
aiMesh *Polygon(unsigned corners = 3, bool withTangents = true) {
    auto *mesh = new aiMesh();
    mesh->mPrimitiveTypes = corners == 3 ? aiPrimitiveType_TRIANGLE : aiPrimitiveType_POLYGON;
    mesh->mNumVertices = corners;
    mesh->mVertices = new aiVector3D[corners];
    mesh->mNormals = new aiVector3D[corners];
    mesh->mTextureCoords[0] = new aiVector3D[corners];
    mesh->mNumUVComponents[0] = 2;
    if (withTangents) {
        mesh->mTangents = new aiVector3D[corners];
        mesh->mBitangents = new aiVector3D[corners];
    }
    for (unsigned i = 0; i < corners; ++i) {
        const float a = 6.2831853f * static_cast<float>(i) / static_cast<float>(corners);
        mesh->mVertices[i] = aiVector3D(std::cos(a), std::sin(a), 0);
        mesh->mNormals[i] = aiVector3D(0, 0, 1);
        mesh->mTextureCoords[0][i] = aiVector3D(0.25f * static_cast<float>(i), 0.125f * static_cast<float>(i), 0);
        if (withTangents) {
            mesh->mTangents[i] = aiVector3D(1, 0, 0);
            mesh->mBitangents[i] = aiVector3D(0, 1, 0);
        }
    }
    mesh->mNumFaces = 1;
    mesh->mFaces = new aiFace[1];
    mesh->mFaces[0].mNumIndices = corners;
    mesh->mFaces[0].mIndices = new unsigned[corners];
    for (unsigned i = 0; i < corners; ++i) mesh->mFaces[0].mIndices[i] = i;
    return mesh;
}

std::unique_ptr<aiScene> GridScene(unsigned n) {
    auto scene = std::make_unique<aiScene>();
    scene->mRootNode = new aiNode("Root");
    auto *node = new aiNode("GridNode");
    AddChildren(scene->mRootNode, {node});
    SetMeshes(node, {0});
    SetMeshList(scene.get(), {GridMesh(n, 0.5f)});
    AddMaterials(scene.get(), 1);
    return scene;
}

// A skinned strip: a chain of `boneCount` bones along +X (each turned a little about Y), a grid mesh whose
// vertices each follow the two bones nearest in X. The mesh node is moved by `meshNode`, so the exporter
// must use W = G_mesh · inverse(offset).
struct SkinnedScene {
    std::unique_ptr<aiScene> scene;
    std::vector<aiMatrix4x4> boneWorld;                            // expected bind pose per bone
    std::map<std::string, std::map<std::string, float>> weightsAt; // world position key → bone → weight
};

std::string Key(const aiVector3D &p) {
    char text[96];
    std::snprintf(text, sizeof text, "%.3f,%.3f,%.3f", static_cast<double>(p.x), static_cast<double>(p.y),
                  static_cast<double>(p.z));
    return text;
}

SkinnedScene MakeSkinnedScene(unsigned boneCount, const aiMatrix4x4 &meshNode) {
    SkinnedScene out;
    out.scene = std::make_unique<aiScene>();
    aiScene *scene = out.scene.get();
    scene->mRootNode = new aiNode("Root");
    auto *armature = new aiNode("Armature");
    auto *meshNodePtr = new aiNode("Body");
    meshNodePtr->mTransformation = meshNode;
    AddChildren(scene->mRootNode, {armature, meshNodePtr});
    SetMeshes(meshNodePtr, {0});

    const float step = 0.5f;
    aiNode *parent = armature;
    aiMatrix4x4 global;
    std::vector<aiNode *> boneNodes;
    for (unsigned b = 0; b < boneCount; ++b) {
        auto *node = new aiNode("bone" + std::to_string(b));
        aiMatrix4x4 translate, rotate;
        aiMatrix4x4::Translation(aiVector3D(b == 0 ? 0.0f : step, 0, 0), translate);
        aiMatrix4x4::RotationY(b % 5 == 0 ? 0.03f : 0.0f, rotate);
        node->mTransformation = translate * rotate;
        AddChildren(parent, {node});
        global = global * node->mTransformation;
        out.boneWorld.push_back(global);
        boneNodes.push_back(node);
        parent = node;
    }

    // Grid in mesh space: X spans the bones, 4 rows in Z.
    const unsigned nx = boneCount * 2, nz = 4;
    auto *mesh = new aiMesh();
    mesh->mName = aiString("Skin");
    mesh->mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
    mesh->mNumVertices = nx * nz;
    mesh->mVertices = new aiVector3D[nx * nz];
    mesh->mNormals = new aiVector3D[nx * nz];
    for (unsigned z = 0; z < nz; ++z)
        for (unsigned x = 0; x < nx; ++x) {
            mesh->mVertices[z * nx + x] =
                aiVector3D(static_cast<float>(x) * step * 0.5f, 0, static_cast<float>(z) * 0.3f);
            mesh->mNormals[z * nx + x] = aiVector3D(0, 1, 0);
        }
    mesh->mNumFaces = 2 * (nx - 1) * (nz - 1);
    mesh->mFaces = new aiFace[mesh->mNumFaces];
    unsigned f = 0;
    for (unsigned z = 0; z + 1 < nz; ++z)
        for (unsigned x = 0; x + 1 < nx; ++x) {
            const unsigned i = z * nx + x;
            mesh->mFaces[f].mNumIndices = 3;
            mesh->mFaces[f++].mIndices = new unsigned[3]{i, i + nx, i + 1};
            mesh->mFaces[f].mNumIndices = 3;
            mesh->mFaces[f++].mIndices = new unsigned[3]{i + 1, i + nx, i + nx + 1};
        }
    // Weights: vertex x → bone k = x / 2 gets 0.7 (or 1.0 at the ends), bone k + 1 gets 0.3.
    std::vector<std::vector<aiVertexWeight>> perBone(boneCount);
    for (unsigned z = 0; z < nz; ++z)
        for (unsigned x = 0; x < nx; ++x) {
            const unsigned v = z * nx + x;
            const unsigned k = x / 2;
            const aiVector3D world = meshNode * mesh->mVertices[v];
            auto &w = out.weightsAt[Key(world)];
            if (k + 1 < boneCount && x % 2 == 1) {
                perBone[k].push_back(aiVertexWeight(v, 0.7f));
                perBone[k + 1].push_back(aiVertexWeight(v, 0.3f));
                w["bone" + std::to_string(k)] = 0.7f;
                w["bone" + std::to_string(k + 1)] = 0.3f;
            } else {
                perBone[k].push_back(aiVertexWeight(v, 1.0f));
                w["bone" + std::to_string(k)] = 1.0f;
            }
        }
    aiMatrix4x4 meshGlobal = meshNode;
    mesh->mNumBones = boneCount;
    mesh->mBones = new aiBone *[boneCount];
    for (unsigned b = 0; b < boneCount; ++b) {
        auto *bone = new aiBone();
        bone->mName = aiString("bone" + std::to_string(b));
        // Mesh space → bone space: inverse(W_bone) · G_mesh.
        aiMatrix4x4 inverseWorld = out.boneWorld[b];
        inverseWorld.Inverse();
        bone->mOffsetMatrix = inverseWorld * meshGlobal;
        bone->mNumWeights = static_cast<unsigned>(perBone[b].size());
        bone->mWeights = new aiVertexWeight[perBone[b].size()];
        std::copy(perBone[b].begin(), perBone[b].end(), bone->mWeights);
        mesh->mBones[b] = bone;
    }
    SetMeshList(scene, {mesh});
    AddMaterials(scene, 1);
    return out;
}

bool MatrixNear(const aiMatrix4x4 &a, const aiMatrix4x4 &b, float tolerance) {
    const float *pa = &a.a1, *pb = &b.a1;
    for (int i = 0; i < 16; ++i)
        if (!(std::fabs(pa[i] - pb[i]) <= tolerance * (1.0f + std::fabs(pa[i])))) return false;
    return true;
}

// Per vertex of a file: bone name → weight (subset-local indices resolved through the subset holding it).
std::map<std::string, float> FileWeights(const rb::RobloxMesh &mesh, std::uint32_t vertex) {
    std::map<std::string, float> weights;
    if (mesh.envelopes.empty()) return weights;
    for (const rb::Subset &s : mesh.subsets) {
        if (vertex < s.vertsBegin || vertex >= s.vertsBegin + s.vertsLength) continue;
        const rb::Envelope &e = mesh.envelopes[vertex];
        for (int k = 0; k < 4; ++k) {
            if (e.weights[k] == 0 || e.bones[k] >= s.numBoneIndices) continue;
            const std::uint16_t bone = s.boneIndices[e.bones[k]];
            if (bone < mesh.bones.size()) weights[mesh.bones[bone].name] += e.weights[k] / 255.0f;
        }
        break;
    }
    return weights;
}

void ExpectWeightsNear(const std::map<std::string, float> &a, const std::map<std::string, float> &b,
                       const std::string &where) {
    std::set<std::string> names;
    for (const auto &[name, w] : a) names.insert(name);
    for (const auto &[name, w] : b) names.insert(name);
    for (const std::string &name : names) {
        const float wa = a.count(name) ? a.at(name) : 0.0f;
        const float wb = b.count(name) ? b.at(name) : 0.0f;
        ASSERT_NEAR(wa, wb, 1.0f / 255.0f + 1e-6f) << where << " bone " << name;
    }
}

// Renames a bone everywhere a scene names it: its node and the aiBones of every mesh.
void RenameBone(aiScene *scene, const std::string &from, const std::string &to) {
    for (unsigned m = 0; m < scene->mNumMeshes; ++m)
        for (unsigned b = 0; b < scene->mMeshes[m]->mNumBones; ++b)
            if (from == scene->mMeshes[m]->mBones[b]->mName.C_Str()) scene->mMeshes[m]->mBones[b]->mName = aiString(to);
    if (aiNode *node = scene->mRootNode->FindNode(from.c_str())) node->mName = aiString(to);
}

// Sets scene metadata `rbxmesh.facs` the way docs/metadata.md describes it, built by hand: the base64 text as
// one string, or (beyond 1000 characters) its length (UINT64) then its parts "rbxmesh.facs#<i>"; then
// rbxmesh.facsFormat.
void AttachFacs(aiScene *scene, const std::vector<std::uint8_t> &blob) {
    const std::string text = gamefmt::Base64Encode(blob);
    const unsigned parts = text.size() <= 1000 ? 0 : static_cast<unsigned>((text.size() + 999) / 1000);
    delete scene->mMetaData;
    scene->mMetaData = aiMetadata::Alloc(2 + parts);
    if (parts == 0) scene->mMetaData->Set(0, "rbxmesh.facs", aiString(text));
    if (parts != 0) scene->mMetaData->Set(0, "rbxmesh.facs", static_cast<std::uint64_t>(text.size()));
    for (unsigned p = 0; p < parts; ++p)
        scene->mMetaData->Set(1 + p, "rbxmesh.facs#" + std::to_string(p), aiString(text.substr(p * 1000, 1000)));
    scene->mMetaData->Set(1 + parts, "rbxmesh.facsFormat", static_cast<std::int32_t>(1));
}

ImporterSetup AllLods() {
    return [](Assimp::Importer &importer) {
        importer.SetPropertyBool(GAMEFMT_RBXMESH_IMPORT_ALL_LODS, true);
        importer.SetPropertyBool(GAMEFMT_RBXMESH_BAKE_FACS, false);
    };
}

// ---------------------------------------------------------------- registration and options

TEST(RobloxMeshExport, RegistersSevenIdsOnceWithTheMeshExtension) {
    Assimp::Exporter exporter;
    const std::size_t builtins = exporter.GetExportFormatCount();
    EXPECT_GE(gamefmt::RegisterExporters(exporter), 7u);
    EXPECT_EQ(gamefmt::RegisterExporters(exporter), 0u);
    std::map<std::string, std::pair<std::string, std::string>> ours;
    for (std::size_t i = builtins; i < exporter.GetExportFormatCount(); ++i) {
        const aiExportFormatDesc *desc = exporter.GetExportFormatDescription(i);
        ours[desc->id] = {desc->fileExtension, desc->description};
    }
    for (const char *id : kIds) {
        ASSERT_EQ(ours.count(id), 1u) << id;
        EXPECT_EQ(ours[id].first, "mesh") << id;
    }
    EXPECT_NE(ours["rbxmesh"].second.find("auto"), std::string::npos);
    for (int v = 2; v <= 7; ++v)
        EXPECT_NE(ours["rbxmesh" + std::to_string(v)].second.find(std::to_string(v) + ".00"), std::string::npos);
}

TEST(RobloxMeshExport, VersionAndRatioText) {
    using gamefmt::glue::ParseLodRatios;
    using gamefmt::rbxmesh::NormaliseRobloxMeshVersion;
    EXPECT_EQ(NormaliseRobloxMeshVersion("7.00"), "7.00");
    EXPECT_EQ(NormaliseRobloxMeshVersion("7"), "7.00");
    EXPECT_EQ(NormaliseRobloxMeshVersion(" 4.01 "), "4.01");
    EXPECT_EQ(NormaliseRobloxMeshVersion("AUTO"), "auto");
    for (const char *bad : {"", "1.00", "1.01", "3.01", "4.02", "8.00", "seven", "7.00x"})
        EXPECT_FALSE(NormaliseRobloxMeshVersion(bad)) << bad;
    EXPECT_EQ(ParseLodRatios("0.5,0.25"), (std::vector<float>{0.5f, 0.25f}));
    EXPECT_EQ(ParseLodRatios(" 0.3 "), (std::vector<float>{0.3f}));
    for (const char *bad : {"", "0.5,", "0", "1", "1.5", "-0.5", "half", "0.5;0.25"})
        EXPECT_FALSE(ParseLodRatios(bad)) << bad;
}

TEST(RobloxMeshExport, VersionPrecedenceIdThenPropertyThenSourceThenAuto) {
    using gamefmt::glue::ResolveRobloxMeshExportSettings;
    auto scene = GridScene(3);
    scene->mMetaData = aiMetadata::Alloc(4);
    scene->mMetaData->Set(0, "SourceAsset_Format", aiString("Roblox FileMesh"));
    scene->mMetaData->Set(1, "SourceAsset_FormatVersion", aiString("7.00"));
    scene->mMetaData->Set(2, "rbxmesh.coremeshVersion", static_cast<std::int32_t>(1));
    scene->mMetaData->Set(3, "rbxmesh.lodLevels", static_cast<std::int32_t>(1));

    Assimp::ExportProperties none;
    auto s = ResolveRobloxMeshExportSettings(*scene, "", &none);
    EXPECT_EQ(s.version, "7.00"); // the source's
    EXPECT_TRUE(s.versionFromSource);
    EXPECT_FALSE(s.draco);        // the source had a raw COREMESH
    EXPECT_FALSE(s.generateLods); // and one level

    Assimp::ExportProperties props;
    props.SetPropertyFloat(GAMEFMT_RBXMESH_VERSION, 4.01f); // the command line types "4.01" as a float
    s = ResolveRobloxMeshExportSettings(*scene, "", &props);
    EXPECT_EQ(s.version, "4.01");
    EXPECT_FALSE(s.versionFromSource);
    EXPECT_TRUE(s.draco);
    s = ResolveRobloxMeshExportSettings(*scene, "3.00", &props);
    EXPECT_EQ(s.version, "3.00");

    props.SetPropertyString(GAMEFMT_RBXMESH_VERSION, "auto");
    EXPECT_EQ(ResolveRobloxMeshExportSettings(*scene, "", &props).version, "auto");

    // 1.xx sources are not writable: auto.
    scene->mMetaData->Set(1, "SourceAsset_FormatVersion", aiString("1.00"));
    EXPECT_EQ(ResolveRobloxMeshExportSettings(*scene, "", &none).version, "auto");
    // Not a Roblox mesh: auto, LODs generated, Draco.
    auto plain = GridScene(3);
    s = ResolveRobloxMeshExportSettings(*plain, "", &none);
    EXPECT_EQ(s.version, "auto");
    EXPECT_TRUE(s.generateLods);
    EXPECT_TRUE(s.draco);
    EXPECT_EQ(s.lodRatios, (std::vector<float>{0.5f, 0.25f}));
}

TEST(RobloxMeshExport, OptionValues) {
    using gamefmt::glue::ResolveRobloxMeshExportSettings;
    auto scene = GridScene(3);
    Assimp::ExportProperties props;
    props.SetPropertyBool(GAMEFMT_RBXMESH_DRACO, false);
    props.SetPropertyBool(GAMEFMT_RBXMESH_GENERATE_LODS, false);
    props.SetPropertyString(GAMEFMT_RBXMESH_LOD_RATIOS, "0.6,0.3,0.1");
    auto s = ResolveRobloxMeshExportSettings(*scene, "", &props);
    EXPECT_FALSE(s.draco);
    EXPECT_FALSE(s.generateLods);
    EXPECT_EQ(s.lodRatios, (std::vector<float>{0.6f, 0.3f, 0.1f}));

    Assimp::ExportProperties single;
    single.SetPropertyFloat(GAMEFMT_RBXMESH_LOD_RATIOS, 0.5f);
    single.SetPropertyString(GAMEFMT_RBXMESH_DRACO, "true");
    s = ResolveRobloxMeshExportSettings(*scene, "", &single);
    EXPECT_EQ(s.lodRatios, (std::vector<float>{0.5f}));
    EXPECT_TRUE(s.draco);

    for (const auto &[name, value] :
         std::vector<std::pair<const char *, const char *>>{{GAMEFMT_RBXMESH_VERSION, "1.00"},
                                                            {GAMEFMT_RBXMESH_VERSION, "9"},
                                                            {GAMEFMT_RBXMESH_LOD_RATIOS, "0.5,,0.2"},
                                                            {GAMEFMT_RBXMESH_LOD_RATIOS, "2"},
                                                            {GAMEFMT_RBXMESH_DRACO, "maybe"}}) {
        Assimp::ExportProperties bad;
        bad.SetPropertyString(name, value);
        const gamefmt::FormatError e = Thrown([&] { ResolveRobloxMeshExportSettings(*scene, "", &bad); });
        EXPECT_TRUE(Contains(e.what(), name)) << e.what();
        EXPECT_TRUE(Contains(e.what(), value)) << e.what();

        // Through the Exporter the text reaches GetErrorString.
        const Exported out = Export(scene.get(), "rbxmesh", &bad);
        EXPECT_FALSE(out.ok);
        EXPECT_TRUE(Contains(out.error, "Roblox mesh export")) << out.error;
        EXPECT_TRUE(Contains(out.error, name)) << out.error;
    }
}

// ---------------------------------------------------------------- aiScene → BuildInput

TEST(RobloxMeshExport, VertexConventions) {
    auto scene = std::make_unique<aiScene>();
    scene->mRootNode = new aiNode("Root");
    SetMeshes(scene->mRootNode, {0});
    aiMesh *mesh = Polygon(3);
    // Tangent (1, -1, 0)/√2 → bytes round((1 ± 1/√2)·127) = 217, 37, and 127; the bitangent opposes N×t.
    mesh->mTangents[1] = aiVector3D(1, -1, 0);
    mesh->mBitangents[1] = aiVector3D(-1, -1, 0); // N×t = (1,1,0)/√2: opposite → sign byte 0
    mesh->mTangents[2] = aiVector3D(0, 0, 0);     // absent
    mesh->mColors[0] = new aiColor4D[3];
    mesh->mColors[0][0] = aiColor4D(1, 0.5f, 0, 1);
    mesh->mColors[0][1] = aiColor4D(2, -1, 0.2f, 0.5f);
    mesh->mColors[0][2] = aiColor4D(0, 0, 0, 0);
    SetMeshList(scene.get(), {mesh});
    AddMaterials(scene.get(), 1);

    const RobloxMeshSceneInput in = ExtractRobloxMeshInput(*scene);
    ASSERT_EQ(in.input.vertices.size(), 3u);
    ASSERT_EQ(in.input.lods.size(), 1u);
    ASSERT_EQ(in.input.lods[0].size(), 1u);
    EXPECT_TRUE(in.input.influences.empty());
    EXPECT_TRUE(in.input.bones.empty());
    const rb::Vertex &v0 = in.input.vertices[0];
    const rb::Vertex &v1 = in.input.vertices[1];
    const rb::Vertex &v2 = in.input.vertices[2];
    EXPECT_EQ(v0.px, 1.0f);
    EXPECT_EQ(v0.nz, 1.0f);
    EXPECT_EQ(v1.u, 0.25f);
    EXPECT_EQ(v1.v, 1.0f - 0.125f); // V top-down in the file
    EXPECT_EQ(v0.tangent, (std::array<std::uint8_t, 4>{254, 127, 127, 254}));
    EXPECT_EQ(v1.tangent, (std::array<std::uint8_t, 4>{217, 37, 127, 0}));
    EXPECT_EQ(v2.tangent, (std::array<std::uint8_t, 4>{0x7F, 0x7F, 0x7F, 0x00}));
    EXPECT_EQ(v0.color, (std::array<std::uint8_t, 4>{255, 128, 0, 255}));
    EXPECT_EQ(v1.color, (std::array<std::uint8_t, 4>{255, 0, 51, 128}));
    EXPECT_EQ(v2.color, (std::array<std::uint8_t, 4>{0, 0, 0, 0}));
}

TEST(RobloxMeshExport, MissingAttributesGetDefaults) {
    auto scene = std::make_unique<aiScene>();
    scene->mRootNode = new aiNode("Root");
    SetMeshes(scene->mRootNode, {0});
    aiMesh *mesh = Polygon(3, false);
    delete[] mesh->mTextureCoords[0];
    mesh->mTextureCoords[0] = nullptr;
    mesh->mNumUVComponents[0] = 0;
    SetMeshList(scene.get(), {mesh});
    const RobloxMeshSceneInput in = ExtractRobloxMeshInput(*scene);
    for (const rb::Vertex &v : in.input.vertices) {
        EXPECT_EQ(v.tangent, (std::array<std::uint8_t, 4>{0x7F, 0x7F, 0x7F, 0x00}));
        EXPECT_EQ(v.color, (std::array<std::uint8_t, 4>{255, 255, 255, 255}));
        EXPECT_EQ(v.u, 0.0f);
        EXPECT_EQ(v.v, 1.0f); // Assimp v = 0
    }
}

TEST(RobloxMeshExport, NodeTransformsAreBaked) {
    auto scene = std::make_unique<aiScene>();
    scene->mRootNode = new aiNode("Root");
    auto *parent = new aiNode("Parent");
    auto *child = new aiNode("Child");
    auto *mirror = new aiNode("Mirror");
    AddChildren(scene->mRootNode, {parent, mirror});
    AddChildren(parent, {child});
    // Parent: translate (10, 0, 0); child: scale X by 2 and rotate 90° about Z.
    aiMatrix4x4::Translation(aiVector3D(10, 0, 0), parent->mTransformation);
    aiMatrix4x4 rotate, scale;
    aiMatrix4x4::RotationZ(1.5707963f, rotate);
    aiMatrix4x4::Scaling(aiVector3D(2, 1, 1), scale);
    child->mTransformation = rotate * scale;
    aiMatrix4x4::Scaling(aiVector3D(-1, 1, 1), mirror->mTransformation);
    SetMeshes(child, {0});
    SetMeshes(mirror, {1});
    aiMesh *slanted = Polygon(3);
    slanted->mNormals[0] = aiVector3D(1, 0, 1).Normalize(); // a normal leaning in X, where the scale is
    SetMeshList(scene.get(), {slanted, Polygon(3)});
    AddMaterials(scene.get(), 1);

    const RobloxMeshSceneInput in = ExtractRobloxMeshInput(*scene);
    ASSERT_EQ(in.input.vertices.size(), 6u);
    ASSERT_EQ(in.input.lods.size(), 1u);
    ASSERT_EQ(in.input.lods[0].size(), 2u);
    // Vertex 0 of the child mesh: (1,0,0) → scale (2,0,0) → rotate (0,2,0) → translate (10,2,0).
    const rb::Vertex &a = in.input.vertices[0];
    EXPECT_NEAR(a.px, 10.0f, 1e-5f);
    EXPECT_NEAR(a.py, 2.0f, 1e-5f);
    EXPECT_NEAR(a.pz, 0.0f, 1e-5f);
    // Normal (1,0,1)/√2 by the inverse-transpose: X halved → (0.5,0,1), rotated → (0,0.5,1), normalised.
    const float len = std::sqrt(0.25f + 1.0f);
    EXPECT_NEAR(a.nx, 0.0f, 1e-5f);
    EXPECT_NEAR(a.ny, 0.5f / len, 1e-5f);
    EXPECT_NEAR(a.nz, 1.0f / len, 1e-5f);
    // Tangent (1,0,0) → (0,1,0) after rotation: bytes 127, 254, 127; sign still +.
    EXPECT_EQ(a.tangent, (std::array<std::uint8_t, 4>{127, 254, 127, 254}));
    // The mirrored triangle flips its winding so it still faces its (mirrored) normal.
    const rb::Face &mirrored = in.input.lods[0][1];
    EXPECT_EQ(mirrored.a, 3u);
    EXPECT_EQ(mirrored.b, 5u);
    EXPECT_EQ(mirrored.c, 4u);
    EXPECT_NEAR(in.input.vertices[3].px, -1.0f, 1e-6f);
    EXPECT_NEAR(in.input.vertices[3].nz, 1.0f, 1e-6f);
}

TEST(RobloxMeshExport, MeshesMergeAndPrimitivesOtherThanTrianglesAreHandled) {
    auto scene = std::make_unique<aiScene>();
    scene->mRootNode = new aiNode("Root");
    auto *a = new aiNode("A");
    auto *b = new aiNode("B");
    AddChildren(scene->mRootNode, {a, b});
    SetMeshes(a, {0, 1});
    SetMeshes(b, {0, 2}); // mesh 0 instanced twice
    aiMesh *quad = Polygon(4);
    quad->mMaterialIndex = 1;
    aiMesh *line = Polygon(3);
    line->mFaces[0].mNumIndices = 2; // a line: skipped
    line->mPrimitiveTypes = aiPrimitiveType_LINE;
    aiMesh *anim = Polygon(3);
    anim->mNumAnimMeshes = 1;
    anim->mAnimMeshes = new aiAnimMesh *[1];
    anim->mAnimMeshes[0] = new aiAnimMesh();
    SetMeshList(scene.get(), {quad, line, anim});
    AddMaterials(scene.get(), 2);

    const RobloxMeshSceneInput in = ExtractRobloxMeshInput(*scene);
    // quad (4) + quad again (4) + anim (3); the line mesh brings no vertices.
    ASSERT_EQ(in.input.vertices.size(), 11u);
    ASSERT_EQ(in.input.lods.size(), 1u);
    ASSERT_EQ(in.input.lods[0].size(), 2u + 2u + 1u); // quads fanned into 2 triangles
    EXPECT_EQ(in.input.lods[0][2].a, 4u);             // second instance after the first four vertices
    EXPECT_EQ(in.input.lods[0][4].a, 8u);
    const auto has = [&](const std::string &needle) {
        return std::any_of(in.warnings.begin(), in.warnings.end(),
                           [&](const std::string &w) { return w.find(needle) != std::string::npos; });
    };
    EXPECT_TRUE(has("point and line primitives skipped")) << ::testing::PrintToString(in.warnings);
    EXPECT_TRUE(has("2 materials")) << ::testing::PrintToString(in.warnings);
}

TEST(RobloxMeshExport, LodLevelNodesFormLevels) {
    auto scene = std::make_unique<aiScene>();
    scene->mRootNode = new aiNode("Root");
    std::vector<aiNode *> nodes;
    for (int level : {2, 0, 1}) {
        auto *node = new aiNode("LOD" + std::to_string(level));
        node->mMetaData = aiMetadata::Alloc(1);
        node->mMetaData->Set(0, "rbxmesh.lodLevel", static_cast<std::int32_t>(level));
        nodes.push_back(node);
    }
    AddChildren(scene->mRootNode, nodes);
    auto *inner = new aiNode("Inner"); // a mesh under a level node belongs to that level
    AddChildren(nodes[1], {inner});
    SetMeshes(nodes[0], {0});
    SetMeshes(nodes[1], {1});
    SetMeshes(inner, {1});
    SetMeshes(nodes[2], {2});
    SetMeshList(scene.get(), {Polygon(3), Polygon(5), Polygon(4)});
    AddMaterials(scene.get(), 1);

    const RobloxMeshSceneInput in = ExtractRobloxMeshInput(*scene);
    EXPECT_EQ(in.sceneLevels, 3u);
    ASSERT_EQ(in.input.lods.size(), 3u);
    EXPECT_EQ(in.input.lods[0].size(), 6u); // two pentagons
    EXPECT_EQ(in.input.lods[1].size(), 2u); // the quad
    EXPECT_EQ(in.input.lods[2].size(), 1u); // the triangle
    // Level 0's vertices come first in the pool.
    EXPECT_EQ(in.input.lods[0][0].a, 0u);
    EXPECT_EQ(in.input.lods[1][0].a, 10u);
    EXPECT_EQ(in.input.lods[2][0].a, 14u);
}

TEST(RobloxMeshExport, SkeletonFromBonesWithMeshNodeTransform) {
    aiMatrix4x4 meshNode;
    aiMatrix4x4::Translation(aiVector3D(0, 1, 2), meshNode);
    const SkinnedScene skinned = MakeSkinnedScene(4, meshNode);
    // A bone whose file name the importer had to make unique writes the file's name back.
    aiNode *renamed = skinned.scene->mRootNode->FindNode("bone3");
    renamed->mMetaData = aiMetadata::Alloc(1);
    renamed->mMetaData->Set(0, "rbxmesh.originalName", aiString("bone2"));
    const RobloxMeshSceneInput in = ExtractRobloxMeshInput(*skinned.scene);
    ASSERT_EQ(in.input.bones.size(), 4u);
    for (unsigned b = 0; b < 4; ++b) {
        const rb::BoneInput &bone = in.input.bones[b];
        EXPECT_EQ(bone.name, "bone" + std::to_string(b == 3 ? 2 : b));
        EXPECT_EQ(bone.parent, static_cast<std::int32_t>(b) - 1);
        const aiMatrix4x4 &w = skinned.boneWorld[b];
        const float expected[12] = {w.a1, w.a2, w.a3, w.b1, w.b2, w.b3, w.c1, w.c2, w.c3, w.a4, w.b4, w.c4};
        const float got[12] = {bone.rotation[0], bone.rotation[1], bone.rotation[2], bone.rotation[3],
                               bone.rotation[4], bone.rotation[5], bone.rotation[6], bone.rotation[7],
                               bone.rotation[8], bone.position[0], bone.position[1], bone.position[2]};
        for (int i = 0; i < 12; ++i) EXPECT_NEAR(got[i], expected[i], 1e-5f) << "bone " << b << " element " << i;
    }
    ASSERT_EQ(in.input.influences.size(), in.input.vertices.size());
    // Vertex 1 (x = 1 of 8): 0.7 on bone 0, 0.3 on bone 1.
    ASSERT_EQ(in.input.influences[1].size(), 2u);
    std::map<std::uint32_t, float> w1;
    for (const rb::Influence &i : in.input.influences[1]) w1[i.bone] = i.weight;
    EXPECT_FLOAT_EQ(w1[0], 0.7f);
    EXPECT_FLOAT_EQ(w1[1], 0.3f);
    // Positions are baked with the mesh node's translation.
    EXPECT_FLOAT_EQ(in.input.vertices[0].py, 1.0f);
    EXPECT_FLOAT_EQ(in.input.vertices[0].pz, 2.0f);
}

TEST(RobloxMeshExport, BonesSharedAcrossMeshesAndNodesBetweenBones) {
    auto scene = std::make_unique<aiScene>();
    scene->mRootNode = new aiNode("Root");
    auto *hip = new aiNode("Hip");
    auto *helper = new aiNode("Helper"); // no aiBone, between Hip and Knee
    auto *knee = new aiNode("Knee");
    auto *meshA = new aiNode("MeshA");
    auto *meshB = new aiNode("MeshB");
    AddChildren(scene->mRootNode, {hip, meshA, meshB});
    AddChildren(hip, {helper});
    AddChildren(helper, {knee});
    aiMatrix4x4::Translation(aiVector3D(0, 2, 0), hip->mTransformation);
    aiMatrix4x4::Translation(aiVector3D(0, -0.5f, 0), helper->mTransformation);
    aiMatrix4x4::Translation(aiVector3D(0, -0.5f, 0), knee->mTransformation);
    SetMeshes(meshA, {0});
    SetMeshes(meshB, {1});
    const auto bone = [](const char *name, float y) {
        auto *b = new aiBone();
        b->mName = aiString(name);
        aiMatrix4x4::Translation(aiVector3D(0, -y, 0), b->mOffsetMatrix);
        b->mNumWeights = 1;
        b->mWeights = new aiVertexWeight[1]{aiVertexWeight(0, 1.0f)};
        return b;
    };
    aiMesh *a = Polygon(3);
    a->mNumBones = 2;
    a->mBones = new aiBone *[2] { bone("Hip", 2), bone("Knee", 1) };
    aiMesh *b = Polygon(3);
    b->mNumBones = 1;
    b->mBones = new aiBone *[1] { bone("Knee", 1) };
    SetMeshList(scene.get(), {a, b});
    AddMaterials(scene.get(), 1);

    const RobloxMeshSceneInput in = ExtractRobloxMeshInput(*scene);
    ASSERT_EQ(in.input.bones.size(), 3u); // Hip, Knee, then Helper
    EXPECT_EQ(in.input.bones[0].name, "Hip");
    EXPECT_EQ(in.input.bones[1].name, "Knee");
    EXPECT_EQ(in.input.bones[2].name, "Helper");
    EXPECT_EQ(in.input.bones[0].parent, -1);
    EXPECT_EQ(in.input.bones[2].parent, 0); // Helper under Hip
    EXPECT_EQ(in.input.bones[1].parent, 2); // Knee under Helper
    EXPECT_FLOAT_EQ(in.input.bones[2].position[1], 1.5f);
    EXPECT_FLOAT_EQ(in.input.bones[1].position[1], 1.0f);
    // Vertex 0 of mesh A and vertex 0 of mesh B (pool index 3) are both bound to Knee, the same bone.
    ASSERT_EQ(in.input.influences.size(), 6u);
    EXPECT_EQ(in.input.influences[3].size(), 1u);
    EXPECT_EQ(in.input.influences[3][0].bone, 1u);
    EXPECT_EQ(in.input.influences[0].size(), 2u);
}

TEST(RobloxMeshExport, CountsBeyondU32AreRejectedBeforeReading) {
    auto scene = std::make_unique<aiScene>();
    scene->mRootNode = new aiNode("Root");
    SetMeshes(scene->mRootNode, {0, 0});
    aiMesh *mesh = Polygon(3);
    mesh->mNumVertices = 0x80000000u; // claims more than it holds: the check must come before any read
    SetMeshList(scene.get(), {mesh});
    const gamefmt::FormatError e = Thrown([&] { ExtractRobloxMeshInput(*scene); });
    EXPECT_TRUE(Contains(e.what(), "4294967296 vertices")) << e.what();
    mesh->mNumVertices = 3;
}

TEST(RobloxMeshExport, EmptySceneIsAnErrorWithText) {
    auto scene = std::make_unique<aiScene>();
    scene->mRootNode = new aiNode("Root");
    const Exported none = Export(scene.get(), "rbxmesh");
    EXPECT_FALSE(none.ok);
    EXPECT_TRUE(Contains(none.error, "Roblox mesh")) << none.error;
    EXPECT_TRUE(Contains(none.error, "no triangles")) << none.error;

    // Lines only: nothing to write either.
    auto lines = std::make_unique<aiScene>();
    lines->mRootNode = new aiNode("Root");
    SetMeshes(lines->mRootNode, {0});
    aiMesh *line = Polygon(3);
    line->mFaces[0].mNumIndices = 2;
    line->mPrimitiveTypes = aiPrimitiveType_LINE;
    SetMeshList(lines.get(), {line});
    AddMaterials(lines.get(), 1);
    const Exported out = Export(lines.get(), "rbxmesh4");
    EXPECT_FALSE(out.ok);
    EXPECT_TRUE(Contains(out.error, "Roblox mesh export")) << out.error;
}

// ---------------------------------------------------------------- whole exports

TEST(RobloxMeshExport, CubeToEveryVersion) {
    const ImportResult cube = ImportFile(TestDataDir() / "cube.obj", aiProcess_Triangulate);
    ASSERT_TRUE(cube) << cube.error;
    ASSERT_EQ(cube.scene->mNumMeshes, 1u);
    const aiMesh *source = cube.scene->mMeshes[0];
    ASSERT_EQ(source->mNumFaces, 12u);
    std::set<std::array<float, 3>> sourcePositions;
    for (unsigned i = 0; i < source->mNumVertices; ++i)
        sourcePositions.insert({source->mVertices[i].x, source->mVertices[i].y, source->mVertices[i].z});

    const std::map<std::string, std::string> expectedVersion = {
        {"rbxmesh", "2.00"},  {"rbxmesh2", "2.00"}, {"rbxmesh3", "3.00"}, {"rbxmesh4", "4.00"},
        {"rbxmesh5", "5.00"}, {"rbxmesh6", "6.00"}, {"rbxmesh7", "7.00"}};
    for (const char *id : kIds) {
        SCOPED_TRACE(id);
        const Exported out = Export(cube.scene, id);
        ASSERT_TRUE(out.ok) << out.error;
        EXPECT_EQ(VersionLine(out.bytes), "version " + expectedVersion.at(id));
        const rb::RobloxMesh model = Read(out.bytes);
        EXPECT_EQ(model.version, expectedVersion.at(id));
        EXPECT_EQ(model.warnings, std::vector<std::string>{});
        if (std::string(id) == "rbxmesh7") {
            EXPECT_EQ(model.coremeshVersion, 2u);
        }
        if (std::string(id) == "rbxmesh6") {
            EXPECT_EQ(model.coremeshVersion, 1u);
        }

        const ImportResult back = ImportMemory(out.bytes, "mesh");
        ASSERT_TRUE(back) << back.error;
        EXPECT_TRUE(back.validationWarnings.empty());
        ASSERT_EQ(back.scene->mNumMeshes, 1u);
        const aiMesh *mesh = back.scene->mMeshes[0];
        EXPECT_EQ(mesh->mNumFaces, 12u);
        std::set<std::array<float, 3>> positions;
        for (unsigned i = 0; i < mesh->mNumVertices; ++i)
            positions.insert({mesh->mVertices[i].x, mesh->mVertices[i].y, mesh->mVertices[i].z});
        EXPECT_EQ(positions, sourcePositions); // exact
        // Every face corner keeps its position (the winding is kept too).
        for (unsigned f = 0; f < 12; ++f)
            for (unsigned k = 0; k < 3; ++k) {
                const aiVector3D &a = source->mVertices[source->mFaces[f].mIndices[k]];
                const aiVector3D &b = mesh->mVertices[mesh->mFaces[f].mIndices[k]];
                EXPECT_EQ(a, b) << "face " << f << " corner " << k;
            }
        ASSERT_NE(mesh->mTextureCoords[0], nullptr);
        EXPECT_NE(mesh->mNormals, nullptr);
    }
}

TEST(RobloxMeshExport, GeneratedLodsForVersionsWithLodTables) {
    auto scene = GridScene(24); // 1058 triangles
    for (const char *id : {"rbxmesh3", "rbxmesh4", "rbxmesh5", "rbxmesh6", "rbxmesh7"}) {
        SCOPED_TRACE(id);
        const Exported out = Export(scene.get(), id);
        ASSERT_TRUE(out.ok) << out.error;
        const rb::RobloxMesh model = Read(out.bytes);
        const std::vector<std::size_t> counts = LevelFaceCounts(model);
        ASSERT_GE(counts.size(), 2u);
        EXPECT_EQ(counts[0], 1058u);
        for (std::size_t i = 1; i < counts.size(); ++i) EXPECT_LE(counts[i] * 4, counts[i - 1] * 3) << i;
        if (std::string(id) != "rbxmesh3") { // 3.00 has no lodType field
            EXPECT_NE(model.lodType, 0u);
        }
    }
    // Auto with one level is 2.00: no LOD table at all.
    const Exported autoOut = Export(scene.get(), "rbxmesh");
    ASSERT_TRUE(autoOut.ok) << autoOut.error;
    EXPECT_EQ(Read(autoOut.bytes).version, "2.00");

    Assimp::ExportProperties noLods;
    noLods.SetPropertyBool(GAMEFMT_RBXMESH_GENERATE_LODS, false);
    const Exported single = Export(scene.get(), "rbxmesh3", &noLods);
    ASSERT_TRUE(single.ok) << single.error;
    const rb::RobloxMesh one = Read(single.bytes);
    EXPECT_EQ(LevelFaceCounts(one), std::vector<std::size_t>{1058});
    EXPECT_EQ(one.lodOffsets.size(), 2u); // [0, N]

    Assimp::ExportProperties oneRatio;
    oneRatio.SetPropertyString(GAMEFMT_RBXMESH_LOD_RATIOS, "0.5");
    const Exported half = Export(scene.get(), "rbxmesh4", &oneRatio);
    ASSERT_TRUE(half.ok) << half.error;
    EXPECT_EQ(LevelFaceCounts(Read(half.bytes)).size(), 2u);

    // A scene that brings its own levels keeps them: none are generated.
    const ImportResult back = ImportMemory(Export(scene.get(), "rbxmesh3").bytes, "mesh", 0, AllLods());
    ASSERT_TRUE(back) << back.error;
    const Exported again = Export(back.scene, "rbxmesh");
    ASSERT_TRUE(again.ok) << again.error;
    const rb::RobloxMesh levels = Read(again.bytes);
    EXPECT_EQ(levels.version, "3.00");
    EXPECT_EQ(LevelFaceCounts(levels).size(), back.scene->mNumMeshes);
}

void CheckSkinnedRoundTrip(const char *id, const char *version) {
    SCOPED_TRACE(id);
    aiMatrix4x4 meshNode, rotate;
    aiMatrix4x4::Translation(aiVector3D(0.5f, 1.0f, -2.0f), meshNode);
    aiMatrix4x4::RotationY(0.3f, rotate);
    meshNode = meshNode * rotate;
    const SkinnedScene skinned = MakeSkinnedScene(32, meshNode);
    const Exported out = Export(skinned.scene.get(), id);
    ASSERT_TRUE(out.ok) << out.error;
    const rb::RobloxMesh model = Read(out.bytes);
    EXPECT_EQ(model.version, version);
    ASSERT_EQ(model.bones.size(), 32u);
    ASSERT_GE(model.subsets.size(), 2u); // 32 bones do not fit one subset
    for (const rb::Subset &s : model.subsets) EXPECT_LE(s.numBoneIndices, rb::kMaxBonesPerSubset);

    const ImportResult back = ImportMemory(out.bytes, "mesh");
    ASSERT_TRUE(back) << back.error;
    EXPECT_TRUE(back.validationWarnings.empty()) << ::testing::PrintToString(back.validationWarnings);
    ASSERT_EQ(back.scene->mNumMeshes, 1u);
    const aiMesh *mesh = back.scene->mMeshes[0];
    ASSERT_EQ(mesh->mNumBones, 32u);
    std::map<std::string, std::map<std::string, float>> weightsAt;
    for (unsigned b = 0; b < mesh->mNumBones; ++b) {
        const aiBone *bone = mesh->mBones[b];
        const std::string name = bone->mName.C_Str();
        ASSERT_EQ(name.rfind("bone", 0), 0u) << name;
        const unsigned index = static_cast<unsigned>(std::stoul(name.substr(4)));
        ASSERT_LT(index, 32u);
        aiMatrix4x4 bind = bone->mOffsetMatrix;
        bind.Inverse();
        EXPECT_TRUE(MatrixNear(bind, skinned.boneWorld[index], 1e-5f)) << name;
        for (unsigned w = 0; w < bone->mNumWeights; ++w)
            // Subsets duplicate shared vertices: the copies carry the same weights.
            weightsAt[Key(mesh->mVertices[bone->mWeights[w].mVertexId])][name] = bone->mWeights[w].mWeight;
    }
    ASSERT_EQ(weightsAt.size(), skinned.weightsAt.size());
    for (const auto &[key, expected] : skinned.weightsAt) {
        ASSERT_EQ(weightsAt.count(key), 1u) << key;
        ExpectWeightsNear(weightsAt.at(key), expected, key);
    }
}

TEST(RobloxMeshExport, SkinnedSceneTo400) {
    CheckSkinnedRoundTrip("rbxmesh4", "4.00");
}
TEST(RobloxMeshExport, SkinnedSceneTo700) {
    CheckSkinnedRoundTrip("rbxmesh7", "7.00");
}

TEST(RobloxMeshExport, SkinnedSceneAutoIs400AndOlderVersionsDropTheSkeleton) {
    const SkinnedScene skinned = MakeSkinnedScene(5, aiMatrix4x4());
    const Exported autoOut = Export(skinned.scene.get(), "rbxmesh");
    ASSERT_TRUE(autoOut.ok) << autoOut.error;
    EXPECT_EQ(Read(autoOut.bytes).version, "4.00");
    const Exported v2 = Export(skinned.scene.get(), "rbxmesh2");
    ASSERT_TRUE(v2.ok) << v2.error;
    const rb::RobloxMesh model = Read(v2.bytes);
    EXPECT_EQ(model.version, "2.00");
    EXPECT_TRUE(model.bones.empty());
}

TEST(RobloxMeshExport, FacsPassesThroughOnlyWhenItsBonesExist) {
    SkinnedScene skinned = MakeSkinnedScene(4, aiMatrix4x4());
    const std::vector<std::uint8_t> blob = gamefmt::fixtures::rbxmesh::FacsBlob(); // face bones Head, Jaw
    ASSERT_TRUE(rb::ParseFacs(blob));
    AttachFacs(skinned.scene.get(), blob);

    // The skeleton lacks Head and Jaw: FACS dropped, auto stays at 4.00.
    const Exported dropped = Export(skinned.scene.get(), "rbxmesh");
    ASSERT_TRUE(dropped.ok) << dropped.error;
    rb::RobloxMesh model = Read(dropped.bytes);
    EXPECT_EQ(model.version, "4.00");
    EXPECT_FALSE(model.facs);

    RenameBone(skinned.scene.get(), "bone1", "Head");
    RenameBone(skinned.scene.get(), "bone2", "Jaw");
    const Exported withFacs = Export(skinned.scene.get(), "rbxmesh");
    ASSERT_TRUE(withFacs.ok) << withFacs.error;
    model = Read(withFacs.bytes);
    EXPECT_EQ(model.version, "5.00");
    ASSERT_TRUE(model.facs);
    EXPECT_EQ(model.facs->blob, blob);
    const Exported chunked = Export(skinned.scene.get(), "rbxmesh7");
    ASSERT_TRUE(chunked.ok) << chunked.error;
    model = Read(chunked.bytes);
    ASSERT_TRUE(model.facs);
    EXPECT_EQ(model.facs->blob, blob);
    // 4.00 cannot hold it.
    const Exported v4 = Export(skinned.scene.get(), "rbxmesh4");
    ASSERT_TRUE(v4.ok) << v4.error;
    EXPECT_FALSE(Read(v4.bytes).facs);
}

TEST(RobloxMeshExport, HsravisOnlyInChunkedVersions) {
    gamefmt::fixtures::rbxmesh::ChunkedOptions options;
    options.hsravis = true; // bitCount 10, bits 05 02
    const ImportResult imported = ImportMemory(gamefmt::fixtures::rbxmesh::Chunked(options), "mesh");
    ASSERT_TRUE(imported) << imported.error;
    for (const char *id : {"rbxmesh", "rbxmesh6"}) { // the round trip keeps 7.00
        const Exported out = Export(imported.scene, id);
        ASSERT_TRUE(out.ok) << out.error;
        const rb::RobloxMesh model = Read(out.bytes);
        ASSERT_TRUE(model.hsravis) << id;
        EXPECT_EQ(model.hsravis->bitCount, 10u);
        EXPECT_EQ(model.hsravis->bits, (std::vector<std::uint8_t>{0x05, 0x02}));
    }
    const Exported v4 = Export(imported.scene, "rbxmesh4");
    ASSERT_TRUE(v4.ok) << v4.error;
    EXPECT_FALSE(Read(v4.bytes).hsravis);
}

// ---------------------------------------------------------------- the real corpus

struct CorpusCase {
    std::string file;
    std::string version; // expected written version
};

TEST(RobloxMeshExport, CorpusRoundTripsInTheirOwnVersion) {
    GAMEFMT_REQUIRE_CORPUS(dir, "mesh");
    std::size_t files = 0;
    for (const auto &entry : fs::directory_iterator(dir)) {
        if (entry.path().extension() != ".mesh") continue;
        ++files;
        const std::string name = entry.path().filename().string();
        SCOPED_TRACE(name);
        const std::vector<std::uint8_t> sourceBytes = ReadBytes(entry.path());
        const rb::RobloxMesh source = Read(sourceBytes);
        const ImportResult imported = ImportFile(entry.path(), 0, AllLods());
        ASSERT_TRUE(imported) << imported.error;

        const Exported out = Export(imported.scene, "rbxmesh");
        ASSERT_TRUE(out.ok) << out.error;
        const rb::RobloxMesh written = Read(out.bytes);
        const std::string expected = source.isText() ? "2.00" : source.version;
        EXPECT_EQ(written.version, expected);
        if (source.isChunked()) {
            EXPECT_EQ(written.coremeshVersion, source.coremeshVersion);
        }
        if (source.version == "4.01" || source.version == "5.00") {
            EXPECT_EQ(written.v4Unused, source.v4Unused);
            EXPECT_EQ(written.lodType, source.lodType);
        }

        // Levels and faces: the same count per level, every corner at exactly the same position.
        const std::vector<rb::LodLevel> sourceLevels = rb::LodLevels(source);
        const std::vector<rb::LodLevel> writtenLevels = rb::LodLevels(written);
        ASSERT_EQ(writtenLevels.size(), sourceLevels.size());
        for (std::size_t l = 0; l < sourceLevels.size(); ++l) {
            const std::uint32_t n = sourceLevels[l].faceEnd - sourceLevels[l].faceBegin;
            ASSERT_EQ(writtenLevels[l].faceEnd - writtenLevels[l].faceBegin, n) << "level " << l;
            for (std::uint32_t j = 0; j < n; ++j) {
                const rb::Face &fs_ = source.faces[sourceLevels[l].faceBegin + j];
                const rb::Face &fw = written.faces[writtenLevels[l].faceBegin + j];
                const std::uint32_t cs[3] = {fs_.a, fs_.b, fs_.c}, cw[3] = {fw.a, fw.b, fw.c};
                for (int k = 0; k < 3; ++k) {
                    const rb::Vertex &a = source.vertices[cs[k]];
                    const rb::Vertex &b = written.vertices[cw[k]];
                    ASSERT_TRUE(a.px == b.px && a.py == b.py && a.pz == b.pz)
                        << "level " << l << " face " << j << " corner " << k;
                    // V goes through 1 - (1 - v): within a few ulps of the value (UVs reach 12 in one file).
                    ASSERT_NEAR(a.u, b.u, 4e-7f * (1 + std::fabs(a.u)));
                    ASSERT_NEAR(a.v, b.v, 4e-7f * (1 + std::fabs(a.v)));
                    EXPECT_EQ(a.color, b.color);
                    // Normals: the importer normalises them, Draco quantises them to 11 bits.
                    const float len = std::sqrt(a.nx * a.nx + a.ny * a.ny + a.nz * a.nz);
                    if (len > 1e-6f) {
                        ASSERT_NEAR(a.nx / len, b.nx, 2e-3f);
                        ASSERT_NEAR(a.ny / len, b.ny, 2e-3f);
                        ASSERT_NEAR(a.nz / len, b.nz, 2e-3f);
                    }
                    // A valid tangent keeps its direction (within the re-normalisation) and its handedness.
                    const auto decode = [](std::uint8_t byte) { return std::min(1.0f, byte / 127.0f - 1.0f); };
                    const float tx = decode(a.tangent[0]), ty = decode(a.tangent[1]), tz = decode(a.tangent[2]);
                    const bool zeroBytes = a.tangent == std::array<std::uint8_t, 4>{0, 0, 0, 0}; // "none" (torso)
                    if (!zeroBytes && std::sqrt(tx * tx + ty * ty + tz * tz) >= 0.5f) {
                        for (int c = 0; c < 3; ++c) ASSERT_NEAR(a.tangent[c], b.tangent[c], 3) << "tangent " << c;
                        ASSERT_EQ(a.tangent[3] >= 127, b.tangent[3] >= 127);
                    }
                    if (source.hasSkinning())
                        ExpectWeightsNear(FileWeights(source, cs[k]), FileWeights(written, cw[k]),
                                          "level " + std::to_string(l) + " face " + std::to_string(j));
                }
            }
        }

        // Bones by name, bind poses within 1e-5.
        ASSERT_EQ(written.bones.size(), source.bones.size());
        std::map<std::string, const rb::Bone *> writtenBones;
        for (const rb::Bone &b : written.bones) writtenBones[b.name] = &b;
        for (const rb::Bone &b : source.bones) {
            ASSERT_EQ(writtenBones.count(b.name), 1u) << b.name;
            const rb::Bone &w = *writtenBones.at(b.name);
            for (int i = 0; i < 9; ++i) EXPECT_NEAR(w.rotation[i], b.rotation[i], 1e-5f) << b.name;
            for (int i = 0; i < 3; ++i)
                EXPECT_NEAR(w.position[i], b.position[i], 1e-5f * (1 + std::fabs(b.position[i]))) << b.name;
            const std::string parent = b.parent == rb::kNoBone ? "" : source.bones[b.parent].name;
            const std::string writtenParent = w.parent == rb::kNoBone ? "" : written.bones[w.parent].name;
            EXPECT_EQ(writtenParent, parent) << b.name;
        }

        // FACS byte for byte.
        ASSERT_EQ(written.facs.has_value(), source.facs.has_value());
        if (source.facs) {
            EXPECT_TRUE(written.facs->blob == source.facs->blob);
        }

        // And our importer reads the result, every level.
        const ImportResult back = ImportMemory(out.bytes, "mesh", 0, AllLods());
        ASSERT_TRUE(back) << back.error;
        EXPECT_TRUE(back.validationWarnings.empty());
        std::size_t meshes = 0;
        for (std::size_t l = 0; l < writtenLevels.size(); ++l)
            if (writtenLevels[l].faceEnd > writtenLevels[l].faceBegin) ++meshes;
        EXPECT_EQ(back.scene->mNumMeshes, meshes);
    }
    EXPECT_GE(files, 8u);
}

TEST(RobloxMeshExport, BakedFacsPosesAreNotWrittenBack) {
    GAMEFMT_REQUIRE_CORPUS(dir, "mesh");
    const fs::path file = dir / "krakow10_rbx_mesh__meshes_13674780763.mesh";
    if (!fs::exists(file)) GTEST_SKIP() << "5.00 corpus file missing";
    const ImportResult imported = ImportFile(file); // FACS baked into aiAnimMeshes by default
    ASSERT_TRUE(imported) << imported.error;
    ASSERT_GT(imported.scene->mMeshes[0]->mNumAnimMeshes, 0u);
    const Exported out = Export(imported.scene, "rbxmesh");
    ASSERT_TRUE(out.ok) << out.error;
    const rb::RobloxMesh written = Read(out.bytes);
    const rb::RobloxMesh source = Read(ReadBytes(file));
    EXPECT_EQ(written.version, "5.00");
    ASSERT_TRUE(written.facs);
    EXPECT_TRUE(written.facs->blob == source.facs->blob);
    // LOD0 only was imported and the file had levels: they are generated again.
    EXPECT_EQ(LevelFaceCounts(written)[0], LevelFaceCounts(source)[0]);

    // Exporting it as 4.00 drops the FACS blob.
    const Exported v4 = Export(imported.scene, "rbxmesh4");
    ASSERT_TRUE(v4.ok) << v4.error;
    EXPECT_FALSE(Read(v4.bytes).facs);

    // A renamed face bone: FACS dropped; the round trip keeps 5.00 (without FACS), auto becomes 4.00.
    aiScene *copy = nullptr;
    aiCopyScene(imported.scene, &copy);
    ASSERT_NE(copy, nullptr);
    ASSERT_TRUE(source.facs && source.facs->parsed);
    const std::string faceBone = source.facs->parsed->faceBoneNames.at(0);
    RenameBone(copy, faceBone, faceBone + "_renamed");
    const Exported renamed = Export(copy, "rbxmesh");
    Assimp::ExportProperties autoVersion;
    autoVersion.SetPropertyString(GAMEFMT_RBXMESH_VERSION, "auto");
    const Exported renamedAuto = Export(copy, "rbxmesh", &autoVersion);
    aiFreeScene(copy);
    ASSERT_TRUE(renamed.ok) << renamed.error;
    const rb::RobloxMesh kept = Read(renamed.bytes);
    EXPECT_EQ(kept.version, "5.00");
    EXPECT_TRUE(!kept.facs || kept.facs->blob.empty()); // a 5.00 header always has the FACS fields
    ASSERT_TRUE(renamedAuto.ok) << renamedAuto.error;
    const rb::RobloxMesh fallback = Read(renamedAuto.bytes);
    EXPECT_EQ(fallback.version, "4.00");
    EXPECT_FALSE(fallback.facs);
}

// ---------------------------------------------------------------- the command line

#if defined(GAMEFMT_HAVE_CLI)
int Cli(const std::vector<std::string> &args, std::string *err = nullptr) {
    std::ostringstream out, errStream;
    const int code = gamefmt::cli::RunCli(args, out, errStream);
    if (err != nullptr) *err = errStream.str();
    return code;
}

TEST(RobloxMeshExport, CommandLine) {
    const fs::path dir = ScratchDir("rbxmesh_export_cli");
    const std::string cube = (TestDataDir() / "cube.obj").string();

    std::string err;
    ASSERT_EQ(Cli({"export", cube, (dir / "a.mesh").string()}, &err), 0) << err;
    const std::vector<std::uint8_t> a = ReadBytes(dir / "a.mesh");
    EXPECT_EQ(VersionLine(a), "version 2.00");
    EXPECT_EQ(Read(a).faces.size(), 12u);

    ASSERT_EQ(Cli({"export", cube, (dir / "b.mesh").string(), "--mesh-version", "7.00"}, &err), 0) << err;
    const std::vector<std::uint8_t> b = ReadBytes(dir / "b.mesh");
    ASSERT_GT(b.size(), 13u + 16u);
    EXPECT_EQ(std::string(b.begin(), b.begin() + 13), "version 7.00\n");
    EXPECT_EQ(std::string(b.begin() + 13, b.begin() + 21), "COREMESH");
    EXPECT_EQ(b[21] | (b[22] << 8) | (b[23] << 16) | (b[24] << 24), 2); // chunk version 2: Draco
    EXPECT_EQ(Read(b).faces.size() > 0, true);

    ASSERT_EQ(Cli({"export", cube, (dir / "c.mesh").string(), "--mesh-version=7.00", "--no-draco"}, &err), 0) << err;
    const std::vector<std::uint8_t> c = ReadBytes(dir / "c.mesh");
    EXPECT_EQ(c[21], 1); // COREMESH v1

    ASSERT_EQ(Cli({"export", cube, (dir / "d.mesh").string(), "--mesh-version", "4.01", "--no-lods"}, &err), 0) << err;
    const rb::RobloxMesh d = Read(ReadBytes(dir / "d.mesh"));
    EXPECT_EQ(d.version, "4.01");
    EXPECT_EQ(LevelFaceCounts(d).size(), 1u);

    ASSERT_EQ(Cli({"export", cube, (dir / "e.mesh").string(), "-f", "rbxmesh3", "--lod-ratios", "0.5"}, &err), 0)
        << err;
    EXPECT_EQ(Read(ReadBytes(dir / "e.mesh")).version, "3.00");

    EXPECT_NE(Cli({"export", cube, (dir / "f.mesh").string(), "--lod-ratios", "lots"}, &err), 0);
    EXPECT_TRUE(Contains(err, GAMEFMT_RBXMESH_LOD_RATIOS)) << err;
    EXPECT_NE(Cli({"export", cube, (dir / "g.mesh").string(), "--mesh-version", "1.00"}, &err), 0);
    EXPECT_TRUE(Contains(err, GAMEFMT_RBXMESH_VERSION)) << err;

    std::ostringstream listOut, listErr;
    ASSERT_EQ(gamefmt::cli::RunCli({"listexport"}, listOut, listErr), 0);
    for (const char *id : kIds) EXPECT_TRUE(Contains(listOut.str(), std::string(id) + "\n")) << id;
}
#endif

} // namespace
