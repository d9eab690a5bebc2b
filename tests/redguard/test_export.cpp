// Tests of the Redguard exporters rg3d / rg3dc (docs/formats/redguard-3d.md §15): registration, round trips through the
// importer (synthetic corpus file -> aiScene -> file, byte-exact where the scene keeps everything, and
// geometry, UVs, materials and frames otherwise), scenes from elsewhere (an OBJ, scenes built in code), the
// options and their errors.
#include "assimp_glue/redguard/exporter.hpp"

#include "common/error.hpp"
#include "fixtures/redguard_fixtures.hpp"
#include "gamefmt/config.hpp"
#include "gamefmt/gamefmt.hpp"
#include "importers/redguard/model.hpp"
#include "support/bits.hpp"
#include "support/expect_error.hpp"
#include "support/import_helpers.hpp"

#include <assimp/Exporter.hpp>
#include <assimp/Importer.hpp>
#include <assimp/cexport.h>
#include <assimp/material.h>
#include <assimp/scene.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

namespace {

namespace rg = gamefmt::redguard;
namespace fx = gamefmt::fixtures::rg;
using Bytes = std::vector<std::uint8_t>;
using namespace gamefmt::test;

// ---------------------------------------------------------------- helpers

Exported Export(const aiScene *scene, const char *id, const Assimp::ExportProperties *props = nullptr) {
    return gamefmt::test::ExportScene(scene, id, props);
}

rg::RG3DModel Read(const Bytes &b) {
    return rg::ReadModel(b.data(), b.size());
}

// Every face of two models, compared corner by corner: raw positions, accumulated UVs, texture value, tex_hi.
void ExpectSameFaces(const rg::RG3DModel &a, const rg::RG3DModel &b) {
    ASSERT_EQ(a.faces.size(), b.faces.size());
    const auto uvA = rg::CornerUVs(a), uvB = rg::CornerUVs(b);
    std::size_t c = 0;
    for (std::size_t f = 0; f < a.faces.size(); ++f) {
        const rg::Face &fa = a.faces[f], &fb = b.faces[f];
        EXPECT_EQ(fa.texture, fb.texture) << "face " << f;
        EXPECT_EQ(fa.texHi, fb.texHi) << "face " << f;
        ASSERT_EQ(fa.corners.size(), fb.corners.size()) << "face " << f;
        for (std::size_t k = 0; k < fa.corners.size(); ++k, ++c) {
            for (int i = 0; i < 3; ++i)
                EXPECT_EQ(a.vertices[3 * fa.corners[k].vertex + i], b.vertices[3 * fb.corners[k].vertex + i])
                    << "face " << f << " corner " << k;
            EXPECT_EQ(uvA[c], uvB[c]) << "face " << f << " corner " << k;
        }
    }
}

aiMatrix4x4 Global(const aiNode *node) {
    aiMatrix4x4 m;
    for (; node != nullptr; node = node->mParent) m = node->mTransformation * m;
    return m;
}

// A canonical text of every polygon of a scene: material name and corners (world position, UV) in order.
struct SceneFace {
    std::string material;
    std::vector<aiVector3D> positions;
    std::vector<aiVector3D> uvs;
};

void CollectFaces(const aiScene *scene, const aiNode *node, std::vector<SceneFace> &out) {
    const aiMatrix4x4 global = Global(node);
    for (unsigned i = 0; i < node->mNumMeshes; ++i) {
        const aiMesh *mesh = scene->mMeshes[node->mMeshes[i]];
        aiString name;
        scene->mMaterials[mesh->mMaterialIndex]->Get(AI_MATKEY_NAME, name);
        for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
            SceneFace face;
            face.material = name.C_Str();
            for (unsigned k = 0; k < mesh->mFaces[f].mNumIndices; ++k) {
                const unsigned v = mesh->mFaces[f].mIndices[k];
                face.positions.push_back(global * mesh->mVertices[v]);
                face.uvs.push_back(mesh->mTextureCoords[0] ? mesh->mTextureCoords[0][v] : aiVector3D());
            }
            out.push_back(face);
        }
    }
    for (unsigned c = 0; c < node->mNumChildren; ++c) CollectFaces(scene, node->mChildren[c], out);
}

std::vector<SceneFace> Faces(const aiScene *scene) {
    std::vector<SceneFace> faces;
    CollectFaces(scene, scene->mRootNode, faces);
    return faces;
}

// Faces of `b` matching those of `a` (same material and corners within the tolerances), in any face order.
void ExpectSameSceneFaces(const aiScene *a, const aiScene *b, float posTol, float uvTol) {
    std::vector<SceneFace> fa = Faces(a), fb = Faces(b);
    ASSERT_EQ(fa.size(), fb.size());
    std::vector<bool> used(fb.size(), false);
    for (const SceneFace &face : fa) {
        bool found = false;
        for (std::size_t j = 0; j < fb.size() && !found; ++j) {
            if (used[j] || fb[j].material != face.material || fb[j].positions.size() != face.positions.size()) continue;
            bool same = true;
            for (std::size_t k = 0; k < face.positions.size() && same; ++k) {
                same = (face.positions[k] - fb[j].positions[k]).Length() <= posTol &&
                       std::fabs(face.uvs[k].x - fb[j].uvs[k].x) <= uvTol &&
                       std::fabs(face.uvs[k].y - fb[j].uvs[k].y) <= uvTol;
            }
            if (same) used[j] = found = true;
        }
        EXPECT_TRUE(found) << "a face of material " << face.material << " with " << face.positions.size()
                           << " corners at (" << face.positions[0].x << ", " << face.positions[0].y << ", "
                           << face.positions[0].z << ") is missing after the round trip";
    }
}

const aiMaterial *MaterialNamed(const aiScene *scene, const std::string &name) {
    for (unsigned m = 0; m < scene->mNumMaterials; ++m) {
        aiString n;
        if (scene->mMaterials[m]->Get(AI_MATKEY_NAME, n) == AI_SUCCESS && name == n.C_Str())
            return scene->mMaterials[m];
    }
    return nullptr;
}

// ---------------------------------------------------------------- scenes built in code

aiMaterial *Material(const std::string &name, const aiColor4D *colour = nullptr) {
    auto *m = new aiMaterial();
    const aiString n(name);
    m->AddProperty(&n, AI_MATKEY_NAME);
    if (colour != nullptr) m->AddProperty(colour, 1, AI_MATKEY_COLOR_DIFFUSE);
    return m;
}

// A polygon mesh: `polygons` index `positions`; UVs (u, v) per vertex when given.
aiMesh *PolygonMesh(const std::vector<aiVector3D> &positions, const std::vector<std::vector<unsigned>> &polygons,
                    unsigned material, const std::vector<aiVector3D> &uvs = {}) {
    auto *mesh = new aiMesh();
    mesh->mMaterialIndex = material;
    mesh->mNumVertices = static_cast<unsigned>(positions.size());
    mesh->mVertices = new aiVector3D[positions.size()];
    std::copy(positions.begin(), positions.end(), mesh->mVertices);
    if (!uvs.empty()) {
        mesh->mTextureCoords[0] = new aiVector3D[uvs.size()];
        std::copy(uvs.begin(), uvs.end(), mesh->mTextureCoords[0]);
        mesh->mNumUVComponents[0] = 2;
    }
    mesh->mNumFaces = static_cast<unsigned>(polygons.size());
    mesh->mFaces = new aiFace[polygons.size()];
    for (std::size_t f = 0; f < polygons.size(); ++f) {
        aiFace &face = mesh->mFaces[f];
        face.mNumIndices = static_cast<unsigned>(polygons[f].size());
        face.mIndices = new unsigned[polygons[f].size()];
        std::copy(polygons[f].begin(), polygons[f].end(), face.mIndices);
        mesh->mPrimitiveTypes |= polygons[f].size() == 3 ? aiPrimitiveType_TRIANGLE : aiPrimitiveType_POLYGON;
    }
    return mesh;
}

std::unique_ptr<aiScene> SceneOf(std::vector<aiMesh *> meshes, std::vector<aiMaterial *> materials,
                                 const aiMatrix4x4 &transform = aiMatrix4x4()) {
    auto scene = std::make_unique<aiScene>();
    scene->mRootNode = new aiNode("Root");
    auto *child = new aiNode("Model");
    child->mTransformation = transform;
    child->mParent = scene->mRootNode;
    scene->mRootNode->mNumChildren = 1;
    scene->mRootNode->mChildren = new aiNode *[1] { child };
    child->mNumMeshes = static_cast<unsigned>(meshes.size());
    child->mMeshes = new unsigned[meshes.size()];
    for (unsigned i = 0; i < meshes.size(); ++i) child->mMeshes[i] = i;
    scene->mNumMeshes = static_cast<unsigned>(meshes.size());
    scene->mMeshes = new aiMesh *[meshes.size()];
    std::copy(meshes.begin(), meshes.end(), scene->mMeshes);
    scene->mNumMaterials = static_cast<unsigned>(materials.size());
    scene->mMaterials = new aiMaterial *[materials.size()];
    std::copy(materials.begin(), materials.end(), scene->mMaterials);
    return scene;
}

// Gives `mesh` one anim mesh per offset: the base positions `base` moved by it, named "frame<k>" when `named`.
void AddFrames(aiMesh *mesh, const std::vector<aiVector3D> &base, const std::vector<aiVector3D> &offsets,
               bool named = false) {
    const auto count = static_cast<unsigned>(offsets.size());
    mesh->mNumAnimMeshes = count;
    mesh->mAnimMeshes = new aiAnimMesh *[count];
    for (unsigned a = 0; a < count; ++a) {
        auto *anim = new aiAnimMesh();
        if (named) anim->mName = aiString("frame" + std::to_string(a));
        anim->mNumVertices = static_cast<unsigned>(base.size());
        anim->mVertices = new aiVector3D[base.size()];
        for (std::size_t v = 0; v < base.size(); ++v) anim->mVertices[v] = base[v] + offsets[a];
        mesh->mAnimMeshes[a] = anim;
    }
}

// Two quads side by side: a coloured one (red) and a textured one named "tex376_19".
std::unique_ptr<aiScene> TwoMaterialScene(const aiMatrix4x4 &transform = aiMatrix4x4()) {
    const aiColor4D red(1, 0, 0, 1);
    const std::vector<aiVector3D> quad = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    std::vector<aiVector3D> moved;
    for (const aiVector3D &p : quad) moved.push_back(p + aiVector3D(2, 0.5f, 0.25f));
    const std::vector<aiVector3D> uvs = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    return SceneOf({PolygonMesh(quad, {{0, 1, 2, 3}}, 0), PolygonMesh(moved, {{0, 1, 2, 3}}, 1, uvs)},
                   {Material("Paint", &red), Material("tex376_19")}, transform);
}

// `file` imported, then exported as rg3d with GAMEFMT_RG_EXPORT_VERSION v4.0.
Exported ImportedThenExportedAsV40(const Bytes &file) {
    const ImportResult in = ImportMemory(file, "3d");
    if (!in) {
        Exported failed;
        failed.error = "import: " + in.error;
        return failed;
    }
    Assimp::ExportProperties props;
    props.SetPropertyString(GAMEFMT_RG_EXPORT_VERSION, "v4.0");
    return Export(in.scene, "rg3d", &props);
}

// ---------------------------------------------------------------- registration

TEST(RgExport, RegisteredAsRg3dAndRg3dc) {
    Assimp::Exporter exporter;
    const std::size_t before = exporter.GetExportFormatCount();
    gamefmt::RegisterExporters(exporter);
    int found = 0;
    for (std::size_t i = before; i < exporter.GetExportFormatCount(); ++i) {
        const aiExportFormatDesc *desc = exporter.GetExportFormatDescription(i);
        const std::string id = desc->id;
        if (id == "rg3d") {
            EXPECT_STREQ(desc->fileExtension, "3d");
            ++found;
        } else if (id == "rg3dc") {
            EXPECT_STREQ(desc->fileExtension, "3dc");
            ++found;
        }
        if (id == "rg3d" || id == "rg3dc") {
            EXPECT_TRUE(Contains(desc->description, "Redguard"));
        }
    }
    EXPECT_EQ(found, 2);
}

// ---------------------------------------------------------------- round trips through the importer

TEST(RgExport, Triangle246V50RoundTripsByteExact) {
    const Bytes file = fx::Triangle246V50();
    const ImportResult in = ImportMemory(file, "3d");
    ASSERT_TRUE(in) << in.error;
    const Exported out = Export(in.scene, "rg3d");
    ASSERT_TRUE(out.ok) << out.error;
    EXPECT_EQ(out.bytes, file);
}

TEST(RgExport, Triangle198ExportedAsV40IsByteExact) {
    const Bytes file = fx::Triangle198V40();
    const Exported out = ImportedThenExportedAsV40(file);
    ASSERT_TRUE(out.ok) << out.error;
    EXPECT_EQ(out.bytes, file);
}

TEST(RgExport, PolygonZooRoundTripsFacesTexturesUVsAndSection4) {
    const Bytes file = fx::Generate(fx::PolygonZoo()); // includes a concave face the importer ear-clips
    const ImportResult in = ImportMemory(file, "3d");
    ASSERT_TRUE(in) << in.error;
    const Exported out = Export(in.scene, "rg3d");
    ASSERT_TRUE(out.ok) << out.error;
    const rg::RG3DModel original = Read(file), back = Read(out.bytes);
    ExpectSameFaces(original, back);
    EXPECT_EQ(back.radius, original.radius);
    ASSERT_EQ(back.section4.size(), original.section4.size());
    EXPECT_EQ(back.section4, original.section4);
    EXPECT_EQ(back.faceNormals, original.faceNormals);
    // Imported again: the same polygons, materials and UVs.
    const ImportResult again = ImportMemory(out.bytes, "3d");
    ASSERT_TRUE(again) << again.error;
    ExpectSameSceneFaces(in.scene, again.scene, 0.0f, 0.0f);
    for (const char *name : {"tex376_19", "color85", "tex0_0", "tex599_999"}) {
        const aiMaterial *a = MaterialNamed(in.scene, name), *b = MaterialNamed(again.scene, name);
        ASSERT_NE(a, nullptr) << name;
        ASSERT_NE(b, nullptr) << name;
        int rawA = 0, rawB = 1;
        EXPECT_EQ(a->Get("$rg.tex_raw", 0, 0, rawA), AI_SUCCESS);
        EXPECT_EQ(b->Get("$rg.tex_raw", 0, 0, rawB), AI_SUCCESS);
        EXPECT_EQ(rawA, rawB) << name;
    }
}

// rg.section4's reference forms (assimp_glue/redguard/scene.hpp): face indices, runs "a-b" and "offset/index·4"
// all name faces; a run longer than a group can hold, or backwards, makes the text malformed (one group of
// every face is written, with a warning).
TEST(RgExport, Section4ReferenceFormsNameFaces) {
    const Bytes file = fx::Generate(fx::PolygonZoo());
    const ImportResult in = ImportMemory(file, "3d");
    ASSERT_TRUE(in) << in.error;
    const std::size_t faces = Read(file).faces.size();
    ASSERT_GE(faces, 4u);
    const auto exportWith = [&](const std::string &refs) {
        aiScene *copy = nullptr;
        aiCopyScene(in.scene, &copy);
        aiNode *node = copy->mRootNode->mChildren[0];
        aiMetadata *md = node->mMetaData;
        for (unsigned i = 0; i < md->mNumProperties; ++i) {
            if (std::string(md->mKeys[i].C_Str()) != "rg.section4") continue;
            const std::string text = static_cast<const aiString *>(md->mValues[i].mData)->C_Str();
            md->Set(i, "rg.section4", aiString(text.substr(0, text.find(':') + 1) + refs));
        }
        Exported out = Export(copy, "rg3d");
        aiFreeScene(copy);
        return out;
    };
    const Exported mixed = exportWith("1-2,0/0,999/12");
    ASSERT_TRUE(mixed.ok) << mixed.error;
    const rg::RG3DModel back = Read(mixed.bytes);
    ASSERT_EQ(back.section4.size(), 1u);
    std::vector<std::uint16_t> times4;
    for (const rg::Section4Ref &ref : back.section4[0].refs) times4.push_back(ref.faceIndexTimes4);
    EXPECT_EQ(times4, (std::vector<std::uint16_t>{4, 8, 0, 12}));
    for (const char *bad : {"2-1", "0-70000", "x"}) {
        const Exported out = exportWith(bad);
        ASSERT_TRUE(out.ok) << out.error;
        const rg::RG3DModel all = Read(out.bytes);
        ASSERT_EQ(all.section4.size(), 1u) << bad;
        EXPECT_EQ(all.section4[0].refs.size(), faces) << bad; // one group of every face
    }
}

TEST(RgExport, TangledPolygonsComeBackWhole) {
    // The importer ear-clips faces 0-2 (rg.face_order "0x5,1x3,2x3"); the exporter joins them again: the same
    // faces, corners in the same order, the same vertices.
    const Bytes file = fx::Generate(fx::TangledPolygons());
    const ImportResult in = ImportMemory(file, "3d");
    ASSERT_TRUE(in) << in.error;
    const Exported out = Export(in.scene, "rg3d");
    ASSERT_TRUE(out.ok) << out.error;
    const rg::RG3DModel original = Read(file), back = Read(out.bytes);
    ASSERT_EQ(back.faces.size(), 4u);
    ExpectSameFaces(original, back);
    EXPECT_EQ(back.vertices, original.vertices);
}

TEST(RgExport, PolygonZooAsV40KeepsItsTableAndDropsSection4) {
    const Bytes file = fx::Generate(fx::PolygonZoo());
    const Exported out = ImportedThenExportedAsV40(file);
    ASSERT_TRUE(out.ok) << out.error;
    const rg::RG3DModel back = Read(out.bytes);
    EXPECT_EQ(back.version, rg::Version::V40);
    EXPECT_FALSE(back.hasSection4);
    EXPECT_EQ(U32At(out.bytes, 0x1C), 0u);
    EXPECT_NE(U32At(out.bytes, 0x28), 0u); // rg.vertex_normals = "table"
    ExpectSameFaces(Read(file), back);
}

TEST(RgExport, RobSegmentsMergeIntoOneModel) {
    const Bytes tri = fx::Triangle198V40();
    const ImportResult in = ImportMemory(fx::GenerateRob({{"A", 0, tri}, {"B", 0, fx::Triangle246V50()}}), "rob");
    ASSERT_TRUE(in) << in.error;
    const Exported out = Export(in.scene, "rg3d");
    ASSERT_TRUE(out.ok) << out.error;
    const rg::RG3DModel model = Read(out.bytes);
    EXPECT_EQ(model.faces.size(), 2u);
    EXPECT_EQ(model.vertexCount(), 3u); // both triangles share their positions
    EXPECT_EQ(model.faces[0].texture, 0x506FCC31u);
    EXPECT_EQ(model.radius, 512u);
}

TEST(RgExport, AnimatedType2RoundTripsAsRg3dc) {
    fx::GenModel clean = fx::AnimatedType2();
    clean.packedNormalJunkBits = 0;
    const Bytes file = fx::Generate(clean);
    const ImportResult in = ImportMemory(file, "3dc");
    ASSERT_TRUE(in) << in.error;
    const Exported out = Export(in.scene, "rg3dc");
    ASSERT_TRUE(out.ok) << out.error;
    const rg::RG3DModel original = Read(file), back = Read(out.bytes);
    EXPECT_EQ(back.frameType, 2u);
    ExpectSameFaces(original, back);
    ASSERT_EQ(back.frames.size(), original.frames.size());
    // Frame positions per face corner (vertex numbering may differ).
    for (std::size_t k = 0; k < back.frames.size(); ++k)
        for (std::size_t f = 0; f < back.faces.size(); ++f)
            for (std::size_t c = 0; c < back.faces[f].corners.size(); ++c)
                for (int i = 0; i < 3; ++i)
                    EXPECT_EQ(back.frames[k].positions[3 * back.faces[f].corners[c].vertex + i],
                              original.frames[k].positions[3 * original.faces[f].corners[c].vertex + i]);
    // The file lists its vertices out of first-use order (0, 1, 4, 2, 3); rg.vertex_order carries that order
    // through the scene, so the exported file is the generated one, byte for byte (junk bits 0 here).
    EXPECT_EQ(out.bytes, file);
    EXPECT_EQ(back.vertexCount(), original.vertexCount());
    EXPECT_EQ(back.radius, original.radius);
    // The same scene through rg3d: base pose only.
    const Exported still = Export(in.scene, "rg3d");
    ASSERT_TRUE(still.ok) << still.error;
    const rg::RG3DModel baseOnly = Read(still.bytes);
    EXPECT_TRUE(baseOnly.frames.empty());
    EXPECT_EQ(baseOnly.vertices.size(), original.vertices.size());
}

TEST(RgExport, BaseFrameOptionStillExportsFrame0AsBase) {
    fx::GenModel clean = fx::AnimatedType2();
    clean.packedNormalJunkBits = 0;
    const Bytes file = fx::Generate(clean);
    const ImportResult in = ImportMemory(
        file, "3dc", 0, [](Assimp::Importer &importer) { importer.SetPropertyInteger(GAMEFMT_RG_BASE_FRAME, 1); });
    ASSERT_TRUE(in) << in.error;
    const Exported out = Export(in.scene, "rg3dc");
    ASSERT_TRUE(out.ok) << out.error;
    const rg::RG3DModel original = Read(file), back = Read(out.bytes);
    ExpectSameFaces(original, back);
    ASSERT_EQ(back.frames.size(), 3u);
}

// ---------------------------------------------------------------- scenes from elsewhere

TEST(RgExport, CubeObjKeepsGeometry) {
    const ImportResult obj = gamefmt::test::ImportFile(gamefmt::test::TestDataDir() / "cube.obj");
    ASSERT_TRUE(obj) << obj.error;
    const Exported out = Export(obj.scene, "rg3d");
    ASSERT_TRUE(out.ok) << out.error;
    const rg::RG3DModel model = Read(out.bytes);
    EXPECT_EQ(model.faces.size(), 6u);
    EXPECT_EQ(model.vertexCount(), 8u);             // welded by position, smooth slots in the table
    EXPECT_EQ(model.faces[0].texture, 0xFFF0FF00u); // no Redguard data: the default color:255
    const ImportResult back = ImportMemory(out.bytes, "3d");
    ASSERT_TRUE(back) << back.error;
    // Positions within 1/256 (exact here), polygons kept as quads; the material becomes "color255".
    std::vector<SceneFace> a = Faces(obj.scene), b = Faces(back.scene);
    ASSERT_EQ(a.size(), b.size());
    for (const SceneFace &f : b) {
        EXPECT_EQ(f.material, "color255");
        EXPECT_EQ(f.positions.size(), 4u);
    }
    for (std::size_t f = 0; f < a.size(); ++f)
        for (std::size_t k = 0; k < a[f].positions.size(); ++k)
            EXPECT_LE((a[f].positions[k] - b[f].positions[k]).Length(), 1.0f / 256);
}

TEST(RgExport, BuiltSceneKeepsGeometryAndMaterials) {
    aiMatrix4x4 transform;
    aiMatrix4x4::Translation(aiVector3D(0.5f, 0.125f, -1), transform);
    const auto scene = TwoMaterialScene(transform);
    const Exported out = Export(scene.get(), "rg3d");
    ASSERT_TRUE(out.ok) << out.error;
    const ImportResult back = ImportMemory(out.bytes, "3d");
    ASSERT_TRUE(back) << back.error;
    const std::vector<SceneFace> faces = Faces(back.scene);
    ASSERT_EQ(faces.size(), 2u);
    EXPECT_EQ(faces[0].material, "color255");
    EXPECT_EQ(faces[1].material, "tex376_19");
    const std::vector<SceneFace> source = Faces(scene.get());
    for (std::size_t f = 0; f < 2; ++f)
        for (std::size_t k = 0; k < 4; ++k) {
            EXPECT_LE((source[f].positions[k] - faces[f].positions[k]).Length(), 1.0f / 256);
            if (f == 1) {
                EXPECT_NEAR(source[f].uvs[k].x, faces[f].uvs[k].x, 1.0f / (16 * 256));
                EXPECT_NEAR(source[f].uvs[k].y, faces[f].uvs[k].y, 1.0f / (16 * 256));
            }
        }
    // The winding survives: the quad faces +Z in both scenes.
    const aiVector3D n =
        (faces[0].positions[1] - faces[0].positions[0]) ^ (faces[0].positions[2] - faces[0].positions[0]);
    EXPECT_GT(n.z, 0);
}

TEST(RgExport, MirroringTransformKeepsFacesFrontFacing) {
    aiMatrix4x4 mirror;
    aiMatrix4x4::Scaling(aiVector3D(-1, 1, 1), mirror);
    const auto scene = TwoMaterialScene(mirror);
    const rg::RG3DModel model =
        Read(gamefmt::glue::ExportRedguardToBytes(*scene, gamefmt::glue::RedguardExportKind::Model3D, nullptr).bytes);
    // Mirrored in X the quad still faces +Z (Assimp) = +Z native: the stored face normal points along +Z.
    ASSERT_EQ(model.faces.size(), 2u);
    EXPECT_EQ(model.faceNormals[2], 256);
    const rg::Face &face = model.faces[0];
    EXPECT_EQ(face.corners[0].vertex, 0u);                        // corner 0 stays first: (0,0,0)
    EXPECT_EQ(model.vertices[3 * face.corners[1].vertex + 0], 0); // then (0,1,0): the order is reversed
    EXPECT_EQ(model.vertices[3 * face.corners[1].vertex + 1], -256);
    EXPECT_EQ(model.vertices[3 * face.corners[3].vertex + 0], 256); // and (−1,0,0) last
}

TEST(RgExport, StaticSceneAsRg3dcIsSingleFrameType8) {
    const auto scene = TwoMaterialScene();
    const Exported out = Export(scene.get(), "rg3dc");
    ASSERT_TRUE(out.ok) << out.error;
    EXPECT_EQ(std::string(out.bytes.begin(), out.bytes.begin() + 4), "v4.0");
    EXPECT_EQ(U32At(out.bytes, 0x10), 1u);
    EXPECT_EQ(U32At(out.bytes, U32At(out.bytes, 0x14) + 12), 8u);
    EXPECT_EQ(U32At(out.bytes, 0x28), 0u);
    EXPECT_EQ(Read(out.bytes).faces.size(), 2u);
}

TEST(RgExport, AnimMeshesBecomeFrames) {
    // A triangle with two anim meshes and no Redguard metadata: N = 1 + 2, the base mesh is frame 0.
    const std::vector<aiVector3D> tri = {{1, 0, 0}, {0, 2, 0}, {-1, 0, 0}};
    aiMesh *mesh = PolygonMesh(tri, {{0, 1, 2}}, 0);
    AddFrames(mesh, tri, {{0, 1, 0}, {0, 2, 0}});
    const auto scene = SceneOf({mesh}, {Material("tex376_19")});
    const auto result =
        gamefmt::glue::ExportRedguardToBytes(*scene, gamefmt::glue::RedguardExportKind::Model3DC, nullptr);
    const rg::RG3DModel model = Read(result.bytes);
    EXPECT_EQ(model.frameType, 2u);
    ASSERT_EQ(model.frames.size(), 2u);
    EXPECT_EQ(model.frames[0].positions[1], -256);
    EXPECT_EQ(model.frames[1].positions[1], -512);
    EXPECT_EQ(model.vertices[1], 0);
    EXPECT_EQ(model.radius, 1024u); // frame 2's apex at y = 4
    // Through rg3d: the base pose only, with a warning.
    const auto still =
        gamefmt::glue::ExportRedguardToBytes(*scene, gamefmt::glue::RedguardExportKind::Model3D, nullptr);
    EXPECT_TRUE(Read(still.bytes).frames.empty());
    EXPECT_TRUE(std::any_of(still.warnings.begin(), still.warnings.end(),
                            [](const std::string &w) { return Contains(w, "base pose"); }));
    // A frame 200 units away: type 0 with a warning.
    for (unsigned v = 0; v < 3; ++v) mesh->mAnimMeshes[1]->mVertices[v] = tri[v] + aiVector3D(200, 0, 0);
    const auto far = gamefmt::glue::ExportRedguardToBytes(*scene, gamefmt::glue::RedguardExportKind::Model3DC, nullptr);
    EXPECT_EQ(Read(far.bytes).frameType, 0u);
    EXPECT_TRUE(std::any_of(far.warnings.begin(), far.warnings.end(),
                            [](const std::string &w) { return Contains(w, "type 0"); }));
}

TEST(RgExport, AnimMeshesNamedFrame0IncludeTheBasePose) {
    // The importer's layout without its metadata (as after a glTF round trip): "frame0" is the base pose.
    const std::vector<aiVector3D> tri = {{1, 0, 0}, {0, 2, 0}, {-1, 0, 0}};
    aiMesh *mesh = PolygonMesh(tri, {{0, 1, 2}}, 0);
    AddFrames(mesh, tri, {{0, 0, 0}, {0, 0, 1}, {0, 0, 2}}, true);
    const auto scene = SceneOf({mesh}, {Material("tex376_19")});
    const rg::RG3DModel model =
        Read(gamefmt::glue::ExportRedguardToBytes(*scene, gamefmt::glue::RedguardExportKind::Model3DC, nullptr).bytes);
    ASSERT_EQ(model.frames.size(), 2u);
    EXPECT_EQ(model.frames[0].positions[2], 256);
    EXPECT_EQ(model.frames[1].positions[2], 512);
}

TEST(RgExport, MorphKeysSelectFrames) {
    // Two shape targets and an animation keyed at t = 0 (target 1) and t = 1 (half of target 0): two frames.
    const std::vector<aiVector3D> tri = {{1, 0, 0}, {0, 2, 0}, {-1, 0, 0}};
    aiMesh *mesh = PolygonMesh(tri, {{0, 1, 2}}, 0);
    mesh->mName = aiString("tri");
    AddFrames(mesh, tri, {{2, 0, 0}, {0, 0, 1}});
    auto scene = SceneOf({mesh}, {Material("tex376_19")});
    auto *animation = new aiAnimation();
    animation->mName = aiString("clip");
    animation->mTicksPerSecond = 12;
    animation->mDuration = 1;
    animation->mNumMorphMeshChannels = 1;
    animation->mMorphMeshChannels = new aiMeshMorphAnim *[1];
    auto *channel = new aiMeshMorphAnim();
    channel->mName = aiString("tri");
    channel->mNumKeys = 2;
    channel->mKeys = new aiMeshMorphKey[2];
    for (unsigned k = 0; k < 2; ++k) {
        aiMeshMorphKey &key = channel->mKeys[k];
        key.mTime = k;
        key.mNumValuesAndWeights = 1;
        key.mValues = new unsigned[1]{k == 0 ? 1u : 0u};
        key.mWeights = new double[1]{k == 0 ? 1.0 : 0.5};
    }
    animation->mMorphMeshChannels[0] = channel;
    scene->mNumAnimations = 1;
    scene->mAnimations = new aiAnimation *[1] { animation };
    const rg::RG3DModel model =
        Read(gamefmt::glue::ExportRedguardToBytes(*scene, gamefmt::glue::RedguardExportKind::Model3DC, nullptr).bytes);
    ASSERT_EQ(model.frames.size(), 2u);
    EXPECT_EQ(model.frames[0].positions[0], -256); // target 1: z + 1
    EXPECT_EQ(model.frames[0].positions[2], 256);
    EXPECT_EQ(model.frames[1].positions[0], -512); // half of target 0: x + 1
    EXPECT_EQ(model.frames[1].positions[2], 0);
}

TEST(RgExport, V27ModelsGetV5TextureValues) {
    const ImportResult in = ImportMemory(fx::TriangleV27(), "3d");
    ASSERT_TRUE(in) << in.error;
    const Exported out = Export(in.scene, "rg3d");
    ASSERT_TRUE(out.ok) << out.error;
    const rg::RG3DModel model = Read(out.bytes);
    ASSERT_EQ(model.faces.size(), 1u);
    EXPECT_EQ(model.faces[0].texture, 0x506FCC31u); // the u16 0xBC13 is bank 376, image 19
    EXPECT_EQ(model.version, rg::Version::V50);
}

// ---------------------------------------------------------------- options

TEST(RgExport, DefaultTextureOption) {
    const auto scene = TwoMaterialScene();
    Assimp::ExportProperties props;
    props.SetPropertyString(GAMEFMT_RG_DEFAULT_TEXTURE, "tex:12/34");
    const Exported out = Export(scene.get(), "rg3d", &props);
    ASSERT_TRUE(out.ok) << out.error;
    const rg::RG3DModel model = Read(out.bytes);
    EXPECT_EQ(model.faces[0].texture, *rg::EncodeBase40(12, 34));
    EXPECT_EQ(model.faces[1].texture, 0x506FCC31u);
    props.SetPropertyString(GAMEFMT_RG_DEFAULT_TEXTURE, "color:7");
    EXPECT_EQ(Read(Export(scene.get(), "rg3d", &props).bytes).faces[0].texture, 0xFFF00700u);
}

TEST(RgExport, PaletteOptionPicksTheNearestColour) {
    const std::filesystem::path dir = gamefmt::test::ScratchDir("rg_export_palette");
    gamefmt::test::WriteBytes(dir / "TEST.COL", fx::GeneratePalette()); // entry i = (i, 255 − i, 7i mod 256)
    const auto scene = TwoMaterialScene();
    Assimp::ExportProperties props;
    props.SetPropertyString(GAMEFMT_RG_PALETTE, (dir / "TEST").string());
    auto exporter = gamefmt::MakeExporter();
    const std::filesystem::path target = dir / "out.3d";
    ASSERT_EQ(exporter->Export(scene.get(), "rg3d", target.string(), 0u, &props), AI_SUCCESS)
        << exporter->GetErrorString();
    const rg::RG3DModel model = Read(gamefmt::test::ReadBytes(target));
    // Red (255, 0, 0): the nearest entry of the generated palette.
    std::uint32_t best = 0;
    double bestD = 1e30;
    for (int i = 0; i < 256; ++i) {
        const double r = i - 255.0, g = 255 - i, b = (i * 7) & 0xFF;
        const double d = r * r + g * g + b * b;
        if (d < bestD) {
            bestD = d;
            best = static_cast<std::uint32_t>(i);
        }
    }
    EXPECT_EQ(model.faces[0].texture, 0xFFF00000u | best << 8);
    props.SetPropertyString(GAMEFMT_RG_PALETTE, (dir / "MISSING").string());
    EXPECT_NE(exporter->Export(scene.get(), "rg3d", target.string(), 0u, &props), AI_SUCCESS);
    EXPECT_TRUE(Contains(exporter->GetErrorString(), "MISSING")) << exporter->GetErrorString();
}

TEST(RgExport, ScaleAndFallbackSizeOptions) {
    const auto scene = TwoMaterialScene();
    Assimp::ExportProperties props;
    props.SetPropertyFloat(GAMEFMT_RG_SCALE, 0.5f);
    props.SetPropertyInteger(GAMEFMT_RG_FALLBACK_TEX_SIZE, 64);
    const Exported out = Export(scene.get(), "rg3d", &props);
    ASSERT_TRUE(out.ok) << out.error;
    const rg::RG3DModel model = Read(out.bytes);
    EXPECT_EQ(model.vertices[3], -512);               // x = 1 at scale 0.5
    EXPECT_EQ(model.faces[1].corners[1].du, 16 * 64); // u = 1 on a 64-texel fallback texture
}

TEST(RgExport, BadOptionsFailWithClearErrors) {
    const auto scene = TwoMaterialScene();
    const std::vector<std::pair<const char *, const char *>> bad = {{GAMEFMT_RG_EXPORT_VERSION, "v2.7"},
                                                                    {GAMEFMT_RG_DEFAULT_TEXTURE, "blue"},
                                                                    {GAMEFMT_RG_DEFAULT_TEXTURE, "tex:600/1"},
                                                                    {GAMEFMT_RG_SCALE, "-1"},
                                                                    {GAMEFMT_RG_FALLBACK_TEX_SIZE, "0"}};
    for (const auto &option : bad) {
        Assimp::ExportProperties props;
        props.SetPropertyString(option.first, option.second);
        const Exported out = Export(scene.get(), "rg3d", &props);
        EXPECT_FALSE(out.ok) << option.first;
        EXPECT_TRUE(Contains(out.error, option.first)) << out.error;
        EXPECT_TRUE(Contains(out.error, option.second)) << out.error;
    }
}

TEST(RgExport, UnwritableScenesFailWithClearErrors) {
    std::vector<aiVector3D> ring;
    std::vector<unsigned> big;
    for (unsigned i = 0; i < 300; ++i) {
        ring.emplace_back(std::cos(i * 0.02f), std::sin(i * 0.02f), 0);
        big.push_back(i);
    }
    const auto scene = SceneOf({PolygonMesh(ring, {big}, 0)}, {Material("x")});
    const Exported out = Export(scene.get(), "rg3d");
    EXPECT_FALSE(out.ok);
    EXPECT_TRUE(Contains(out.error, "triangulate")) << out.error;

    const auto far = SceneOf({PolygonMesh({{1e8f, 0, 0}, {0, 1, 0}, {0, 0, 1}}, {{0, 1, 2}}, 0)}, {Material("x")});
    const Exported huge = Export(far.get(), "rg3d");
    EXPECT_FALSE(huge.ok);
    EXPECT_TRUE(Contains(huge.error, "i32")) << huge.error;
}

} // namespace
