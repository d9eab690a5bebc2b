// Tests of the Second Life mesh exporter (docs/formats/sl-mesh.md §13, §15): registration, the aiScene -> BuildInput
// conversion (frame, faces per material, LOD and physics nodes, joints and aliases), errors through
// Assimp's Exporter, submodel files, and round trips export -> import through our importer: static and
// rigged scenes, imported "all LODs" scenes and the Z-up frame.
#include "assimp_glue/sl_mesh/exporter.hpp"

#include "common/error.hpp"
#include "gamefmt/config.hpp"
#include "gamefmt/gamefmt.hpp"
#include "importers/sl_mesh/asset.hpp"
#include "importers/sl_mesh/asset_builder.hpp"
#include "importers/sl_mesh/llsd.hpp"
#include "support/expect_error.hpp"
#include "support/import_helpers.hpp"
#include "support/scene_build.hpp"

#include <assimp/Exporter.hpp>
#include <assimp/Importer.hpp>
#include <assimp/cexport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

namespace sl = gamefmt::slmesh;
using gamefmt::glue::ExtractSlMeshInput;
using gamefmt::glue::SlMeshSceneInput;
using namespace gamefmt::test;

using Bytes = std::vector<std::uint8_t>;

// ---------------------------------------------------------------- export helpers

Exported Export(const aiScene *scene, const Assimp::ExportProperties *props = nullptr) {
    return gamefmt::test::ExportScene(scene, "llmesh", props);
}

ImportResult ImportLlmesh(const Bytes &bytes, const gamefmt::test::ImporterSetup &setup = {}) {
    return ImportMemory(bytes, "llmesh", 0, setup);
}

// ---------------------------------------------------------------- scene building

// An axis-aligned box [lo, hi] of 24 vertices (4 per side) with outward normals and UVs, 12 triangles.
aiMesh *Box(const aiVector3D &lo, const aiVector3D &hi, unsigned material = 0) {
    auto *mesh = new aiMesh();
    mesh->mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
    mesh->mMaterialIndex = material;
    mesh->mNumVertices = 24;
    mesh->mVertices = new aiVector3D[24];
    mesh->mNormals = new aiVector3D[24];
    mesh->mTextureCoords[0] = new aiVector3D[24];
    mesh->mNumUVComponents[0] = 2;
    mesh->mNumFaces = 12;
    mesh->mFaces = new aiFace[12];
    unsigned v = 0, f = 0;
    for (int axis = 0; axis < 3; ++axis)
        for (int sign = 0; sign < 2; ++sign) {
            const int u = (axis + 1) % 3, w = (axis + 2) % 3;
            aiVector3D normal(0, 0, 0);
            normal[axis] = sign ? 1.0f : -1.0f;
            const float corners[4][2] = {{0, 0}, {1, 0}, {1, 1}, {0, 1}};
            for (int c = 0; c < 4; ++c) {
                aiVector3D p;
                p[axis] = sign ? hi[axis] : lo[axis];
                p[u] = corners[c][0] > 0 ? hi[u] : lo[u];
                p[w] = corners[c][1] > 0 ? hi[w] : lo[w];
                mesh->mVertices[v + c] = p;
                mesh->mNormals[v + c] = normal;
                mesh->mTextureCoords[0][v + c] =
                    aiVector3D(0.1f + 0.8f * corners[c][0], 0.2f + 0.6f * corners[c][1], 0);
            }
            const unsigned tris[2][3] = {{0, 1, 2}, {0, 2, 3}};
            for (const auto &t : tris) {
                aiFace &face = mesh->mFaces[f++];
                face.mNumIndices = 3;
                face.mIndices = new unsigned[3];
                for (int k = 0; k < 3; ++k) face.mIndices[k] = v + (sign ? t[k] : t[2 - k]);
            }
            v += 4;
        }
    return mesh;
}

// A scene whose root holds `meshes` on one child node with `transform`.
std::unique_ptr<aiScene> SceneOf(std::vector<aiMesh *> meshes, unsigned materials,
                                 const aiMatrix4x4 &transform = aiMatrix4x4()) {
    auto scene = std::make_unique<aiScene>();
    scene->mRootNode = new aiNode("Root");
    aiNode *child = new aiNode("Model");
    child->mTransformation = transform;
    std::vector<unsigned> indices;
    for (unsigned i = 0; i < meshes.size(); ++i) indices.push_back(i);
    SetMeshes(child, indices);
    AddChildren(scene->mRootNode, {child});
    SetMeshList(scene.get(), meshes);
    AddMaterials(scene.get(), materials);
    return scene;
}

// ---------------------------------------------------------------- reading results back

struct WorldVertex {
    aiVector3D position;
    aiVector3D uv;
    bool hasUv = false;
    unsigned material = 0;
};

// Every vertex of every mesh, in world space (node transforms applied).
std::vector<WorldVertex> WorldVertices(const aiScene *scene, std::size_t *triangles = nullptr) {
    std::vector<WorldVertex> out;
    std::vector<std::pair<const aiNode *, aiMatrix4x4>> stack{{scene->mRootNode, aiMatrix4x4()}};
    while (!stack.empty()) {
        const auto item = stack.back();
        stack.pop_back();
        const aiMatrix4x4 global = item.second * item.first->mTransformation;
        for (unsigned i = 0; i < item.first->mNumMeshes; ++i) {
            const aiMesh *mesh = scene->mMeshes[item.first->mMeshes[i]];
            for (unsigned v = 0; v < mesh->mNumVertices; ++v) {
                WorldVertex wv;
                wv.position = global * mesh->mVertices[v];
                wv.hasUv = mesh->mTextureCoords[0] != nullptr;
                if (wv.hasUv) wv.uv = mesh->mTextureCoords[0][v];
                wv.material = mesh->mMaterialIndex;
                out.push_back(wv);
            }
            if (triangles != nullptr)
                for (unsigned f = 0; f < mesh->mNumFaces; ++f) *triangles += mesh->mFaces[f].mNumIndices == 3 ? 1 : 0;
        }
        for (unsigned c = 0; c < item.first->mNumChildren; ++c) stack.push_back({item.first->mChildren[c], global});
    }
    return out;
}

aiVector3D BoundsCentre(const std::vector<WorldVertex> &vertices, aiVector3D *extent = nullptr) {
    aiVector3D lo = vertices.at(0).position, hi = lo;
    for (const WorldVertex &v : vertices)
        for (int k = 0; k < 3; ++k) {
            lo[k] = std::min(lo[k], v.position[k]);
            hi[k] = std::max(hi[k], v.position[k]);
        }
    if (extent != nullptr) *extent = hi - lo;
    return (lo + hi) * 0.5f;
}

// Every vertex of `got` matches a vertex of `want` (positions within `tolerance` per axis, UVs within
// `uvTolerance`) and the other way round.
void ExpectSameVertexSets(const std::vector<WorldVertex> &want, const std::vector<WorldVertex> &got,
                          const aiVector3D &tolerance, float uvTolerance) {
    const auto matches = [&](const WorldVertex &a, const WorldVertex &b) {
        for (int k = 0; k < 3; ++k)
            if (!(std::fabs(a.position[k] - b.position[k]) <= tolerance[k])) return false;
        if (a.hasUv && b.hasUv)
            for (int k = 0; k < 2; ++k)
                if (!(std::fabs(a.uv[k] - b.uv[k]) <= uvTolerance)) return false;
        return true;
    };
    for (const auto *pair : {&want, &got}) {
        const auto &from = *pair;
        const auto &to = pair == &want ? got : want;
        std::size_t misses = 0;
        for (const WorldVertex &v : from)
            if (std::none_of(to.begin(), to.end(), [&](const WorldVertex &w) { return matches(v, w); })) {
                if (++misses <= 3)
                    ADD_FAILURE() << (pair == &want ? "source" : "imported") << " vertex (" << v.position.x << ", "
                                  << v.position.y << ", " << v.position.z << ") uv (" << v.uv.x << ", " << v.uv.y
                                  << ") has no counterpart";
            }
        EXPECT_EQ(misses, 0u);
    }
}

sl::SLMeshAsset ReadBack(const Bytes &bytes) {
    return sl::ReadAsset(bytes.data(), bytes.size());
}

std::size_t Triangles(const sl::Lod &lod) {
    std::size_t n = 0;
    for (const sl::Face &face : lod.faces) n += face.noGeometry ? 0 : face.triangleCount();
    return n;
}

// ---------------------------------------------------------------- registration

TEST(SlExport, RegisteredAsLlmesh) {
    Assimp::Exporter exporter;
    const std::size_t before = exporter.GetExportFormatCount();
    gamefmt::RegisterExporters(exporter);
    bool found = false;
    for (std::size_t i = before; i < exporter.GetExportFormatCount(); ++i) {
        const aiExportFormatDesc *desc = exporter.GetExportFormatDescription(i);
        if (std::string(desc->id) != "llmesh") continue;
        found = true;
        EXPECT_STREQ(desc->fileExtension, "llmesh");
        EXPECT_TRUE(Contains(desc->description, "Second Life"));
    }
    EXPECT_TRUE(found);
}

// ---------------------------------------------------------------- scene -> BuildInput

TEST(SlExport, ExtractBakesTransformsIntoTheZUpFrame) {
    // Y-up scene: node translation (1, 2, 3); Y-up (x, y, z) -> SL (x, -z, y).
    aiMatrix4x4 t;
    aiMatrix4x4::Translation(aiVector3D(1, 2, 3), t);
    auto scene = SceneOf({Box(aiVector3D(0, 0, 0), aiVector3D(1, 1, 1))}, 1, t);
    const SlMeshSceneInput in = ExtractSlMeshInput(*scene);
    ASSERT_EQ(in.input.lods[sl::kHighLod].size(), 1u);
    const sl::BuildFace &face = in.input.lods[sl::kHighLod][0];
    ASSERT_EQ(face.positions.size(), 72u);
    float lo[3] = {1e9f, 1e9f, 1e9f}, hi[3] = {-1e9f, -1e9f, -1e9f};
    for (std::size_t i = 0; i < face.positions.size(); ++i) {
        lo[i % 3] = std::min(lo[i % 3], face.positions[i]);
        hi[i % 3] = std::max(hi[i % 3], face.positions[i]);
    }
    EXPECT_EQ(lo[0], 1.0f);
    EXPECT_EQ(hi[0], 2.0f);
    EXPECT_EQ(lo[1], -4.0f); // -z
    EXPECT_EQ(hi[1], -3.0f);
    EXPECT_EQ(lo[2], 2.0f); // y
    EXPECT_EQ(hi[2], 3.0f);
    // The +Y normal of the box points up (+Z) in SL.
    const aiMesh *box = scene->mMeshes[0];
    for (unsigned v = 0; v < box->mNumVertices; ++v)
        if (box->mNormals[v].y > 0.5f) {
            EXPECT_FLOAT_EQ(face.normals[3 * v + 2], 1.0f);
        }
    EXPECT_EQ(face.indices.size(), 36u);
    EXPECT_EQ(face.texCoords.size(), 48u);
    EXPECT_TRUE(in.input.jointNames.empty());

    // UpAxis = 2: already Z-up, no rotation.
    scene->mMetaData = aiMetadata::Alloc(1);
    scene->mMetaData->Set(0, "UpAxis", static_cast<std::int32_t>(2));
    const SlMeshSceneInput zup = ExtractSlMeshInput(*scene);
    const sl::BuildFace &zface = zup.input.lods[sl::kHighLod][0];
    for (std::size_t i = 0; i < zface.positions.size(); i += 3) {
        EXPECT_EQ(zface.positions[i + 1], box->mVertices[i / 3].y + 2.0f);
        EXPECT_EQ(zface.positions[i + 2], box->mVertices[i / 3].z + 3.0f);
    }
}

TEST(SlExport, ExtractLodNodesPhysicsAndPrimitives) {
    auto scene = std::make_unique<aiScene>();
    scene->mRootNode = new aiNode("Root");
    aiNode *high = new aiNode("high_lod");
    aiNode *low = new aiNode("low_lod");
    aiNode *physics = new aiNode("physics");
    aiNode *physicsMesh = new aiNode("physics_mesh");
    aiNode *convex = new aiNode("physics_convex");
    high->mMetaData = aiMetadata::Alloc(1);
    high->mMetaData->Set(0, "sl.lodLevel", static_cast<std::int32_t>(3));
    low->mMetaData = aiMetadata::Alloc(1);
    low->mMetaData->Set(0, "sl.lodLevel", static_cast<std::int32_t>(1));
    aiMesh *withLines = Box(aiVector3D(0, 0, 0), aiVector3D(1, 1, 1), 1);
    // Turn the last triangle into a line: skipped with a warning.
    withLines->mFaces[11].mNumIndices = 2;
    withLines->mPrimitiveTypes |= aiPrimitiveType_LINE;
    SetMeshList(scene.get(),
                {Box(aiVector3D(0, 0, 0), aiVector3D(1, 1, 1), 0), withLines,
                 Box(aiVector3D(0, 0, 0), aiVector3D(1, 1, 1), 0), Box(aiVector3D(0, 0, 0), aiVector3D(1, 1, 1), 2),
                 Box(aiVector3D(0, 0, 0), aiVector3D(1, 1, 1), 2)});
    AddMaterials(scene.get(), 3);
    SetMeshes(high, {0, 1});
    SetMeshes(low, {2});
    SetMeshes(physicsMesh, {3});
    SetMeshes(convex, {4});
    AddChildren(physics, {physicsMesh, convex});
    AddChildren(scene->mRootNode, {high, low, physics});
    const SlMeshSceneInput in = ExtractSlMeshInput(*scene);
    ASSERT_EQ(in.input.lods[sl::kHighLod].size(), 2u);
    EXPECT_EQ(in.input.lods[sl::kHighLod][0].materialIndex, 0u);
    EXPECT_EQ(in.input.lods[sl::kHighLod][1].materialIndex, 1u);
    EXPECT_EQ(in.input.lods[sl::kHighLod][1].indices.size(), 33u);
    EXPECT_TRUE(in.input.lods[sl::kMediumLod].empty());
    ASSERT_EQ(in.input.lods[sl::kLowLod].size(), 1u);
    EXPECT_TRUE(in.input.lods[sl::kLowestLod].empty());
    ASSERT_EQ(in.input.physicsMesh.size(), 1u); // physics_convex is not exported geometry
    EXPECT_EQ(in.input.physicsMesh[0].indices.size(), 36u);
    EXPECT_EQ(in.input.materialNames, (std::vector<std::string>{"mat0", "mat1", "mat2"}));
    EXPECT_TRUE(std::any_of(in.warnings.begin(), in.warnings.end(),
                            [](const std::string &w) { return Contains(w, "points and lines"); }));

    // Export: low_lod given, medium copied from high, lowest from low; physics_mesh written.
    const Exported out = Export(scene.get());
    ASSERT_TRUE(out.ok) << out.error;
    const sl::SLMeshAsset asset = ReadBack(out.files.at(0));
    EXPECT_EQ(Triangles(*asset.lods[sl::kHighLod]), 23u);
    EXPECT_EQ(Triangles(*asset.lods[sl::kMediumLod]), 23u);
    EXPECT_EQ(Triangles(*asset.lods[sl::kLowLod]), 12u);
    EXPECT_EQ(Triangles(*asset.lods[sl::kLowestLod]), 12u);
    ASSERT_TRUE(asset.physicsMesh);
    EXPECT_EQ(Triangles(*asset.physicsMesh), 12u);
}

// ---------------------------------------------------------------- errors and submodels

TEST(SlExport, NineMaterialsFailUnlessSubmodels) {
    std::vector<aiMesh *> meshes;
    for (unsigned m = 0; m < 9; ++m)
        meshes.push_back(Box(aiVector3D(float(m), 0, 0), aiVector3D(float(m) + 0.5f, 1, 1), m));
    auto scene = SceneOf(meshes, 9);
    const Exported failed = Export(scene.get());
    EXPECT_FALSE(failed.ok);
    EXPECT_TRUE(Contains(failed.error, "more than 8 materials (9)")) << failed.error;
    EXPECT_TRUE(Contains(failed.error, "--sl-submodels")) << failed.error;

    Assimp::ExportProperties props;
    props.SetPropertyBool(GAMEFMT_SLMESH_SUBMODELS, true);
    props.SetPropertyBool(GAMEFMT_SLMESH_MATERIAL_LIST, true);
    const Exported out = Export(scene.get(), &props);
    ASSERT_TRUE(out.ok) << out.error;
    ASSERT_EQ(out.files.size(), 2u);
    const sl::SLMeshAsset main = ReadBack(out.files[0]);
    const sl::SLMeshAsset sub = ReadBack(out.files[1]);
    EXPECT_FALSE(main.submodelId);
    ASSERT_TRUE(sub.submodelId);
    EXPECT_EQ(*sub.submodelId, 1);
    EXPECT_EQ(main.lods[sl::kHighLod]->faces.size(), 8u);
    EXPECT_EQ(sub.lods[sl::kHighLod]->faces.size(), 1u);
    ASSERT_TRUE(sub.materialList);
    EXPECT_EQ(*sub.materialList, std::vector<std::string>{"mat8"});
}

TEST(SlExport, SubmodelFilesAreNamedAfterTheStem) {
    std::vector<aiMesh *> meshes;
    for (unsigned m = 0; m < 17; ++m)
        meshes.push_back(Box(aiVector3D(0, 0, float(m)), aiVector3D(1, 1, float(m) + 1), m));
    auto scene = SceneOf(meshes, 17);
    const std::filesystem::path dir = gamefmt::test::ScratchDir("sl_export_submodels");
    Assimp::ExportProperties props;
    props.SetPropertyInteger(GAMEFMT_SLMESH_SUBMODELS, 1);
    auto exporter = gamefmt::MakeExporter();
    ASSERT_EQ(exporter->Export(scene.get(), "llmesh", (dir / "model.llmesh").string(), 0u, &props), AI_SUCCESS)
        << exporter->GetErrorString();
    for (const char *name : {"model.llmesh", "model_1.llmesh", "model_2.llmesh"}) {
        ASSERT_TRUE(std::filesystem::exists(dir / name)) << name;
        const Bytes bytes = gamefmt::test::ReadBytes(dir / name);
        EXPECT_NO_THROW(ReadBack(bytes)) << name;
    }
    EXPECT_EQ(*ReadBack(gamefmt::test::ReadBytes(dir / "model_2.llmesh")).submodelId, 2);
}

TEST(SlExport, BadOptionAndEmptySceneErrors) {
    auto scene = SceneOf({Box(aiVector3D(0, 0, 0), aiVector3D(1, 1, 1))}, 1);
    Assimp::ExportProperties props;
    props.SetPropertyString(GAMEFMT_SLMESH_LOD_RATIOS, "0.5,banana");
    const Exported bad = Export(scene.get(), &props);
    EXPECT_FALSE(bad.ok);
    EXPECT_TRUE(Contains(bad.error, GAMEFMT_SLMESH_LOD_RATIOS)) << bad.error;

    auto empty = std::make_unique<aiScene>();
    empty->mRootNode = new aiNode("Root");
    AddMaterials(empty.get(), 1);
    const Exported none = Export(empty.get());
    EXPECT_FALSE(none.ok);
    EXPECT_TRUE(Contains(none.error, "no triangles")) << none.error;
}

// An n x n height field in the XZ plane (Y-up), shared vertices, normals +Y.
aiMesh *GridMesh(unsigned n) {
    auto *mesh = new aiMesh();
    mesh->mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
    mesh->mNumVertices = n * n;
    mesh->mVertices = new aiVector3D[n * n];
    mesh->mNormals = new aiVector3D[n * n];
    for (unsigned j = 0; j < n; ++j)
        for (unsigned i = 0; i < n; ++i) {
            const float u = float(i) / float(n - 1), v = float(j) / float(n - 1);
            mesh->mVertices[j * n + i] = aiVector3D(u, 0.2f * std::sin(6.0f * u) * std::cos(5.0f * v), v);
            mesh->mNormals[j * n + i] = aiVector3D(0, 1, 0);
        }
    mesh->mNumFaces = 2 * (n - 1) * (n - 1);
    mesh->mFaces = new aiFace[mesh->mNumFaces];
    unsigned f = 0;
    for (unsigned j = 0; j + 1 < n; ++j)
        for (unsigned i = 0; i + 1 < n; ++i) {
            const unsigned a = j * n + i;
            const unsigned tris[2][3] = {{a, a + n + 1, a + 1}, {a, a + n, a + n + 1}};
            for (const auto &t : tris) {
                mesh->mFaces[f].mNumIndices = 3;
                mesh->mFaces[f].mIndices = new unsigned[3]{t[0], t[1], t[2]};
                ++f;
            }
        }
    return mesh;
}

TEST(SlExport, LodOptions) {
    auto scene = SceneOf({GridMesh(33)}, 1); // 2,048 triangles
    const auto counts = [&](const Assimp::ExportProperties *props) {
        const Exported out = Export(scene.get(), props);
        EXPECT_TRUE(out.ok) << out.error;
        std::array<std::size_t, 4> n{};
        if (!out.ok) return n;
        const sl::SLMeshAsset asset = ReadBack(out.files.at(0));
        for (int l = sl::kLowestLod; l <= sl::kHighLod; ++l) n[static_cast<std::size_t>(l)] = Triangles(*asset.lods[l]);
        return n;
    };
    // Default: about 1/2, 1/4, 1/8.
    const std::array<std::size_t, 4> byDefault = counts(nullptr);
    EXPECT_EQ(byDefault[sl::kHighLod], 2048u);
    EXPECT_LE(byDefault[sl::kMediumLod], 2048u * 5 / 8);
    EXPECT_LE(byDefault[sl::kLowLod], 2048u * 5 / 16);
    EXPECT_LE(byDefault[sl::kLowestLod], 2048u * 5 / 32);
    EXPECT_LT(byDefault[sl::kLowestLod], byDefault[sl::kLowLod]);
    EXPECT_LT(byDefault[sl::kLowLod], byDefault[sl::kMediumLod]);

    Assimp::ExportProperties noLods;
    noLods.SetPropertyBool(GAMEFMT_SLMESH_GENERATE_LODS, false);
    for (std::size_t n : counts(&noLods)) EXPECT_EQ(n, 2048u);

    // The viewer's own ratios (divide by 3 per level); one ratio given: the others halve it.
    Assimp::ExportProperties viewer;
    viewer.SetPropertyString(GAMEFMT_SLMESH_LOD_RATIOS, "0.333,0.111,0.037");
    const std::array<std::size_t, 4> thirds = counts(&viewer);
    EXPECT_LE(thirds[sl::kMediumLod], 2048u * 5 / 12);
    EXPECT_LE(thirds[sl::kLowestLod], 2048u / 20);
    EXPECT_LT(thirds[sl::kLowestLod], thirds[sl::kLowLod]);
    Assimp::ExportProperties one;
    one.SetPropertyString(GAMEFMT_SLMESH_LOD_RATIOS, "0.25");
    const std::array<std::size_t, 4> quarter = counts(&one);
    EXPECT_LE(quarter[sl::kMediumLod], 2048u * 5 / 16);
    EXPECT_LT(quarter[sl::kLowestLod], quarter[sl::kLowLod]);
    EXPECT_LT(quarter[sl::kLowLod], quarter[sl::kMediumLod]);
}

// ---------------------------------------------------------------- round trips through our importer

TEST(SlExport, ObjCubeRoundTripKeepsTrianglesAndCentredPositions) {
    const ImportResult source =
        gamefmt::test::ImportFile(gamefmt::test::TestDataDir() / "cube.obj", aiProcess_Triangulate);
    ASSERT_TRUE(source) << source.error;
    const Exported out = Export(source.scene);
    ASSERT_TRUE(out.ok) << out.error;
    ASSERT_EQ(out.files.size(), 1u);
    const ImportResult back = ImportLlmesh(out.files[0]);
    ASSERT_TRUE(back) << back.error;
    EXPECT_TRUE(back.validationWarnings.empty());

    std::size_t sourceTriangles = 0, backTriangles = 0;
    std::vector<WorldVertex> want = WorldVertices(source.scene, &sourceTriangles);
    const std::vector<WorldVertex> got = WorldVertices(back.scene, &backTriangles);
    EXPECT_EQ(backTriangles, sourceTriangles);
    EXPECT_EQ(backTriangles, 12u);
    aiVector3D extent;
    const aiVector3D centre = BoundsCentre(want, &extent);
    for (WorldVertex &v : want) v.position -= centre; // the format does not store a static mesh's placement
    const aiVector3D step = extent * (1.0f / 65535.0f) * 1.01f + aiVector3D(1e-6f, 1e-6f, 1e-6f);
    ExpectSameVertexSets(want, got, step, 1.0f / 65535.0f);
}

TEST(SlExport, SceneRoundTripRestoresSizeUvsAndMaterials) {
    aiMatrix4x4 t, s;
    aiMatrix4x4::Translation(aiVector3D(5, -2, 1), t);
    aiMatrix4x4::Scaling(aiVector3D(2, 0.5f, 3), s);
    auto scene = SceneOf({Box(aiVector3D(0, 0, 0), aiVector3D(1, 1, 1), 0),
                          Box(aiVector3D(1.5f, 0.25f, 0), aiVector3D(2, 0.75f, 0.5f), 1)},
                         2, t * s);
    const Exported out = Export(scene.get());
    ASSERT_TRUE(out.ok) << out.error;
    const sl::SLMeshAsset asset = ReadBack(out.files.at(0));
    for (int l = sl::kLowestLod; l <= sl::kHighLod; ++l) EXPECT_EQ(asset.lods[l]->faces.size(), 2u);
    ASSERT_TRUE(asset.lods[sl::kHighLod]->faces[0].normalizedScale);

    const ImportResult back = ImportLlmesh(out.files[0]);
    ASSERT_TRUE(back) << back.error;
    EXPECT_TRUE(back.validationWarnings.empty());
    std::size_t sourceTriangles = 0, backTriangles = 0;
    std::vector<WorldVertex> want = WorldVertices(scene.get(), &sourceTriangles);
    const std::vector<WorldVertex> got = WorldVertices(back.scene, &backTriangles);
    EXPECT_EQ(backTriangles, sourceTriangles);
    aiVector3D extent;
    const aiVector3D centre = BoundsCentre(want, &extent);
    for (WorldVertex &v : want) v.position -= centre;
    const aiVector3D step = extent * (1.0f / 65535.0f) * 1.01f + aiVector3D(1e-5f, 1e-5f, 1e-5f);
    // UV domains are per face (0.1..0.9 x 0.2..0.8): one step of 0.8 / 65535.
    ExpectSameVertexSets(want, got, step, 0.8f / 65535.0f * 1.01f);
    // Materials by index.
    for (const WorldVertex &v : got) EXPECT_LT(v.material, 2u);
}

// A rigged scene in the importer's own layout (root = SL -> Y-up rotation, vertices already in the unit cube),
// bones mPelvis, mTorso and the alias lShldr.
std::unique_ptr<aiScene> RiggedScene(const char *third = "lShldr") {
    aiMesh *mesh = Box(aiVector3D(-0.5f, -0.5f, -0.5f), aiVector3D(0.5f, 0.5f, 0.5f));
    const char *names[3] = {"mPelvis", "mTorso", third};
    const aiVector3D offsets[3] = {aiVector3D(0, 0, -1.067f), aiVector3D(0.01f, 0, -1.151f),
                                   aiVector3D(0.02f, -0.1f, -1.5f)};
    mesh->mNumBones = 3;
    mesh->mBones = new aiBone *[3];
    std::vector<std::vector<aiVertexWeight>> weights(3);
    for (unsigned v = 0; v < mesh->mNumVertices; ++v) {
        // 1, 2 or 3 influences per vertex, summing to 1.
        switch (v % 3) {
        case 0:
            weights[0].push_back({v, 1.0f});
            break;
        case 1:
            weights[0].push_back({v, 0.625f});
            weights[1].push_back({v, 0.375f});
            break;
        default:
            weights[0].push_back({v, 0.5f});
            weights[1].push_back({v, 0.3f});
            weights[2].push_back({v, 0.2f});
        }
    }
    for (unsigned b = 0; b < 3; ++b) {
        auto *bone = new aiBone();
        bone->mName = aiString(names[b]);
        aiMatrix4x4::Translation(offsets[b], bone->mOffsetMatrix);
        bone->mNumWeights = static_cast<unsigned>(weights[b].size());
        bone->mWeights = new aiVertexWeight[weights[b].size()];
        std::copy(weights[b].begin(), weights[b].end(), bone->mWeights);
        mesh->mBones[b] = bone;
    }
    auto scene = SceneOf({mesh}, 1);
    // Z-up SL data under the importer's root rotation rows (1,0,0) (0,0,1) (0,-1,0).
    scene->mRootNode->mTransformation = aiMatrix4x4(1, 0, 0, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1);
    return scene;
}

TEST(SlExport, RiggedRoundTripKeepsJointsBindMatricesAndWeights) {
    auto scene = RiggedScene();
    const SlMeshSceneInput in = ExtractSlMeshInput(*scene);
    EXPECT_EQ(in.input.jointNames, (std::vector<std::string>{"mPelvis", "mTorso", "mShoulderLeft"}));

    const Exported out = Export(scene.get());
    ASSERT_TRUE(out.ok) << out.error;
    const sl::SLMeshAsset asset = ReadBack(out.files.at(0));
    ASSERT_TRUE(asset.skin);
    EXPECT_EQ(asset.skin->jointNames, (std::vector<std::string>{"mPelvis", "mTorso", "mShoulderLeft"}));
    EXPECT_FALSE(asset.lods[sl::kHighLod]->faces[0].normalizedScale);

    const ImportResult back = ImportLlmesh(out.files[0]);
    ASSERT_TRUE(back) << back.error;
    EXPECT_TRUE(back.validationWarnings.empty());
    const aiMesh *source = scene->mMeshes[0];
    std::size_t meshes = 0;
    for (unsigned m = 0; m < back.scene->mNumMeshes; ++m) {
        const aiMesh *mesh = back.scene->mMeshes[m];
        if (mesh->mNumBones == 0) continue;
        ++meshes;
        ASSERT_EQ(mesh->mNumBones, 3u);
        const char *expected[3] = {"mPelvis", "mTorso", "mShoulderLeft"};
        for (unsigned b = 0; b < 3; ++b) {
            EXPECT_STREQ(mesh->mBones[b]->mName.C_Str(), expected[b]);
            const aiMatrix4x4 &got = mesh->mBones[b]->mOffsetMatrix;
            const aiMatrix4x4 &want = source->mBones[b]->mOffsetMatrix;
            for (int r = 0; r < 4; ++r)
                for (int c = 0; c < 4; ++c) EXPECT_NEAR(got[r][c], want[r][c], 1e-5) << "bone " << b << " " << r << c;
        }
        EXPECT_EQ(mesh->mNumFaces, source->mNumFaces);
        // Weights per vertex, matched by position, UV and normal, within 4/65535.
        std::vector<std::array<float, 3>> gotWeights(mesh->mNumVertices, {0, 0, 0});
        for (unsigned b = 0; b < 3; ++b)
            for (unsigned w = 0; w < mesh->mBones[b]->mNumWeights; ++w)
                gotWeights[mesh->mBones[b]->mWeights[w].mVertexId][b] = mesh->mBones[b]->mWeights[w].mWeight;
        std::vector<std::array<float, 3>> wantWeights(source->mNumVertices, {0, 0, 0});
        for (unsigned b = 0; b < 3; ++b)
            for (unsigned w = 0; w < source->mBones[b]->mNumWeights; ++w)
                wantWeights[source->mBones[b]->mWeights[w].mVertexId][b] = source->mBones[b]->mWeights[w].mWeight;
        for (unsigned v = 0; v < mesh->mNumVertices; ++v) {
            bool matched = false;
            for (unsigned s = 0; s < source->mNumVertices && !matched; ++s) {
                if ((mesh->mVertices[v] - source->mVertices[s]).Length() > 2e-5f) continue;
                if ((mesh->mTextureCoords[0][v] - source->mTextureCoords[0][s]).Length() > 2e-5f) continue;
                if ((mesh->mNormals[v] - source->mNormals[s]).Length() > 1e-4f) continue; // corners repeat per side
                matched = true;
                for (int b = 0; b < 3; ++b)
                    EXPECT_NEAR(gotWeights[v][b], wantWeights[s][b], 4.0 / 65535.0) << "vertex " << v << " joint " << b;
            }
            EXPECT_TRUE(matched) << "vertex " << v;
        }
    }
    EXPECT_EQ(meshes, 1u);
}

TEST(SlExport, UnknownBoneNameIsAClearError) {
    auto scene = RiggedScene("Foo");
    const Exported out = Export(scene.get());
    EXPECT_FALSE(out.ok);
    EXPECT_TRUE(Contains(out.error, "bone 'Foo' is not a Second Life avatar joint")) << out.error;
    EXPECT_TRUE(Contains(out.error, "mPelvis")) << out.error;
    const gamefmt::FormatError e = Thrown([&] { ExtractSlMeshInput(*scene); });
    EXPECT_TRUE(Contains(e.message(), "'Foo'"));
}

// An asset with four generated levels, written by our own writer.
Bytes FourLodAsset() {
    sl::BuildInput input;
    sl::BuildFace grid;
    const unsigned n = 30;
    for (unsigned j = 0; j < n; ++j)
        for (unsigned i = 0; i < n; ++i) {
            const float u = float(i) / float(n - 1), v = float(j) / float(n - 1);
            grid.positions.insert(grid.positions.end(), {u * 2.0f, v, 0.3f * std::sin(5.0f * u) * std::cos(4.0f * v)});
            grid.normals.insert(grid.normals.end(), {0, 0, 1});
            grid.texCoords.insert(grid.texCoords.end(), {u, v});
        }
    for (unsigned j = 0; j + 1 < n; ++j)
        for (unsigned i = 0; i + 1 < n; ++i) {
            const unsigned a = j * n + i;
            grid.indices.insert(grid.indices.end(), {a, a + 1, a + n + 1, a, a + n + 1, a + n});
        }
    input.lods[sl::kHighLod].push_back(grid);
    return sl::WriteAsset(sl::BuildAsset(input).assets.at(0));
}

TEST(SlExport, ImportedAllLodsSceneReExportsItsFourLevels) {
    const Bytes original = FourLodAsset();
    const sl::SLMeshAsset before = ReadBack(original);
    std::size_t counts[4];
    for (int l = sl::kLowestLod; l <= sl::kHighLod; ++l) counts[l] = Triangles(*before.lods[l]);
    ASSERT_LT(counts[sl::kLowestLod], counts[sl::kHighLod]);

    const ImportResult all =
        ImportLlmesh(original, [](Assimp::Importer &imp) { imp.SetPropertyString(GAMEFMT_SLMESH_LOD, "all"); });
    ASSERT_TRUE(all) << all.error;
    const Exported out = Export(all.scene);
    ASSERT_TRUE(out.ok) << out.error;
    const sl::SLMeshAsset after = ReadBack(out.files.at(0));
    for (int l = sl::kLowestLod; l <= sl::kHighLod; ++l) {
        ASSERT_TRUE(after.lods[l]);
        EXPECT_EQ(Triangles(*after.lods[l]), counts[l]) << sl::LodKey(l);
        EXPECT_EQ(after.lods[l]->faces.size(), before.lods[l]->faces.size());
    }
    // Positions come back in the SL frame within one step per cycle (§4.1), same NormalizedScale.
    const sl::Face &a = before.lods[sl::kHighLod]->faces[0];
    const sl::Face &b = after.lods[sl::kHighLod]->faces[0];
    ASSERT_EQ(a.positions.size(), b.positions.size());
    for (std::size_t i = 0; i < a.positions.size(); ++i) EXPECT_NEAR(a.positions[i], b.positions[i], 1.0) << i;
    ASSERT_TRUE(a.normalizedScale && b.normalizedScale);
    for (int k = 0; k < 3; ++k)
        EXPECT_NEAR((*a.normalizedScale)[k], (*b.normalizedScale)[k], 1e-4 * (*a.normalizedScale)[k]);
}

TEST(SlExport, ZUpImportReExportsTheSameCoordinates) {
    const Bytes original = FourLodAsset();
    const sl::SLMeshAsset before = ReadBack(original);
    for (bool yUp : {true, false}) {
        SCOPED_TRACE(yUp ? "Y-up import" : "Z-up import");
        const ImportResult imported =
            ImportLlmesh(original, [yUp](Assimp::Importer &imp) { imp.SetPropertyBool(GAMEFMT_SLMESH_YUP, yUp); });
        ASSERT_TRUE(imported) << imported.error;
        const Exported out = Export(imported.scene);
        ASSERT_TRUE(out.ok) << out.error;
        const sl::SLMeshAsset after = ReadBack(out.files.at(0));
        const sl::Face &a = before.lods[sl::kHighLod]->faces[0];
        const sl::Face &b = after.lods[sl::kHighLod]->faces[0];
        ASSERT_EQ(a.positions.size(), b.positions.size());
        for (std::size_t i = 0; i < a.positions.size(); ++i) ASSERT_NEAR(a.positions[i], b.positions[i], 1.0) << i;
        ASSERT_EQ(a.indices, b.indices);
        // Generated again from the re-imported high level: four levels, fewer triangles each.
        for (int l = sl::kLowestLod; l < sl::kHighLod; ++l)
            EXPECT_LT(Triangles(*after.lods[l]), Triangles(*after.lods[l + 1])) << sl::LodKey(l);
    }
}

} // namespace
