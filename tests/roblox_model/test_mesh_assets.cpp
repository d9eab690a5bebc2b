// MeshParts and FileMeshes drawn with their real meshes from an asset folder (docs/formats/roblox-model.md §5.3,
// §5.4): the placement arithmetic of the reference (size / InitialSize and centring; Scale + Offset), identical
// assets instanced, textures and SurfaceAppearance maps, gzip-wrapped files, the Studio folder layout, skinned
// meshes with their skeleton in bind pose, and what stays a placeholder.
#include "common/compression.hpp"
#include "common/png.hpp"
#include "gamefmt/config.hpp"
#include "gamefmt/roblox_model.hpp"
#include "importers/roblox_mesh/mesh_builder.hpp"
#include "importers/roblox_mesh/mesh_writer.hpp"
#include "importers/roblox_model/document/binary_writer.hpp"
#include "support/import_helpers.hpp"
#include "support/rbx_values.hpp"
#include "support/scene_build.hpp"

#include <assimp/GltfMaterial.h>
#include <assimp/material.h>
#include <assimp/scene.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace gamefmt {
namespace {

using Bytes = std::vector<std::uint8_t>;

// A 2.00 box from (0, 0, 0) to (2, 4, 6): its bounds are centred on (1, 2, 3), off the origin.
Bytes BoxMesh() {
    rbxmesh::BuildInput in;
    for (int i = 0; i < 8; ++i) {
        rbxmesh::Vertex v;
        v.px = (i & 1) ? 2.0f : 0.0f;
        v.py = (i & 2) ? 4.0f : 0.0f;
        v.pz = (i & 4) ? 6.0f : 0.0f;
        v.ny = 1;
        in.vertices.push_back(v);
    }
    in.lods.push_back({{0, 1, 3},
                       {0, 3, 2},
                       {4, 6, 7},
                       {4, 7, 5},
                       {0, 4, 5},
                       {0, 5, 1},
                       {2, 3, 7},
                       {2, 7, 6},
                       {0, 2, 6},
                       {0, 6, 4},
                       {1, 5, 7},
                       {1, 7, 3}});
    rbxmesh::BuildOptions options;
    options.version = "2.00";
    options.generateLods = false;
    return rbxmesh::WriteRobloxMesh(rbxmesh::BuildRobloxMesh(in, options));
}

Bytes GreyPng(std::uint8_t grey, std::uint32_t size = 2) {
    std::vector<std::uint8_t> rgba(std::size_t(size) * size * 4, grey);
    for (std::size_t i = 3; i < rgba.size(); i += 4) rgba[i] = 255;
    return EncodePngRgba(rgba.data(), size, size);
}

rbx::Content Uri(const std::string &uri) {
    return rbx::Content{rbx::Content::Source::Uri, uri, rbx::kNoInstance};
}

std::uint32_t AddMeshPart(rbx::Document &doc, const char *name, const std::string &meshUri, rbx::Vector3 size,
                          rbx::Vector3 initialSize, rbx::Vector3 at = {}) {
    const auto part = doc.addInstance("MeshPart", name, rbx::kNoInstance);
    rbx::AddProperty(doc, part, "size", rbx::Type::Vector3, size);
    rbx::AddProperty(doc, part, "InitialSize", rbx::Type::Vector3, initialSize);
    rbx::CFrame frame;
    frame.position = at;
    rbx::AddProperty(doc, part, "CFrame", rbx::Type::CFrame, frame);
    rbx::AddProperty(doc, part, "MeshContent", rbx::Type::Content, Uri(meshUri));
    return part;
}

// The corner of the mesh's bounds picked by `pick` (fmin or fmax per axis).
aiVector3D Corner(const aiMesh *m, float (*pick)(float, float)) {
    aiVector3D out = m->mVertices[0];
    for (unsigned i = 1; i < m->mNumVertices; ++i) {
        const aiVector3D &v = m->mVertices[i];
        out = aiVector3D(pick(out.x, v.x), pick(out.y, v.y), pick(out.z, v.z));
    }
    return out;
}
aiVector3D Min(const aiMesh *m) {
    return Corner(m, [](float a, float b) { return std::fmin(a, b); });
}
aiVector3D Max(const aiMesh *m) {
    return Corner(m, [](float a, float b) { return std::fmax(a, b); });
}

#define EXPECT_VEC(v, X, Y, Z)                                                                                         \
    do {                                                                                                               \
        EXPECT_NEAR((v).x, (X), 1e-5);                                                                                 \
        EXPECT_NEAR((v).y, (Y), 1e-5);                                                                                 \
        EXPECT_NEAR((v).z, (Z), 1e-5);                                                                                 \
    } while (0)

test::ImportResult ImportWithAssets(const rbx::Document &doc, const std::string &folders) {
    return test::ImportMemory(rbx::WriteBinary(doc), "rbxm", 0,
                              [&](Assimp::Importer &i) { i.SetPropertyString(GAMEFMT_RBX_ASSET_DIR, folders); });
}

// §5.3: MeshPart vertices are centred on their bounds and scaled by size / InitialSize per axis; two MeshParts of
// one asset and one size share a mesh, a third of another size gets its own; an InitialSize of 0 means the mesh's
// own extent; an id nobody has stays a placeholder.
TEST(RbxMeshAssets, MeshPartsAreCentredScaledAndInstanced) {
    const auto dir = test::ScratchDir("rbx_mesh_assets_meshpart");
    test::WriteBytes(dir / "500.mesh", BoxMesh());
    rbx::Document doc;
    AddMeshPart(doc, "A", "rbxassetid://500", {4, 4, 3}, {2, 4, 6}, {10, 0, 0});
    AddMeshPart(doc, "B", "rbxassetid://500", {4, 4, 3}, {2, 4, 6}, {-10, 0, 0});
    AddMeshPart(doc, "C", "rbxassetid://500", {1, 1, 1}, {0, 0, 0});
    AddMeshPart(doc, "D", "rbxassetid://404", {1, 2, 3}, {1, 2, 3});
    const test::ImportResult r = ImportWithAssets(doc, dir.string());
    ASSERT_TRUE(r) << r.error;
    const aiNode *a = r.scene->mRootNode->FindNode("A");
    const aiNode *b = r.scene->mRootNode->FindNode("B");
    const aiNode *c = r.scene->mRootNode->FindNode("C");
    const aiNode *d = r.scene->mRootNode->FindNode("D");
    ASSERT_TRUE(a && b && c && d);
    EXPECT_EQ(test::MetaText(a, gamefmt::kRbxGeometry), "mesh");
    EXPECT_EQ(test::MetaText(d, gamefmt::kRbxGeometry), "placeholder");
    EXPECT_EQ(test::MetaText(d, gamefmt::kRbxUnresolved), "rbxassetid://404");
    ASSERT_EQ(a->mNumMeshes, 1u);
    ASSERT_EQ(b->mNumMeshes, 1u);
    EXPECT_EQ(a->mMeshes[0], b->mMeshes[0]); // one asset, one size: one mesh
    EXPECT_NE(a->mMeshes[0], c->mMeshes[0]);
    EXPECT_EQ(r.scene->mNumMeshes, 3u); // A/B, C, D's placeholder

    const aiMesh *ab = r.scene->mMeshes[a->mMeshes[0]];
    EXPECT_EQ(ab->mNumVertices, 8u);
    EXPECT_EQ(ab->mNumFaces, 12u);
    // (v - (1, 2, 3)) ∘ (4/2, 4/4, 3/6): exactly the part's size around its origin.
    EXPECT_VEC(Min(ab), -2, -2, -1.5);
    EXPECT_VEC(Max(ab), 2, 2, 1.5);
    EXPECT_VEC(a->mTransformation * aiVector3D(), 10, 0, 0);
    // C: InitialSize (0, 0, 0) → the extent (2, 4, 6) → scale (1/2, 1/4, 1/6).
    const aiMesh *cm = r.scene->mMeshes[c->mMeshes[0]];
    EXPECT_VEC(Min(cm), -0.5, -0.5, -0.5);
    EXPECT_VEC(Max(cm), 0.5, 0.5, 0.5);
    // Normals stay unit length after the non-uniform scale.
    for (unsigned i = 0; i < ab->mNumVertices; ++i) EXPECT_NEAR(ab->mNormals[i].Length(), 1.0f, 1e-5);
}

// §5.3: a FileMesh is v∘Scale + Offset (the part's size not applied), its TextureId the base colour image with
// VertexColor as tint; the mesh is found gzip-wrapped under an id without extension, the texture in the Studio
// layout (content/<path>).
TEST(RbxMeshAssets, FileMeshScaleOffsetTextureAndGzip) {
    const auto dir = test::ScratchDir("rbx_mesh_assets_filemesh");
    const Bytes mesh = BoxMesh();
    test::WriteBytes(dir / "700", DeflateGzip(mesh.data(), mesh.size()));
    std::filesystem::create_directories(dir / "content" / "textures");
    const Bytes png = GreyPng(200);
    test::WriteBytes(dir / "content" / "textures" / "skin.png", png);

    rbx::Document doc;
    const auto part = doc.addInstance("Part", "Hat", rbx::kNoInstance);
    rbx::AddProperty(doc, part, "size", rbx::Type::Vector3, rbx::Vector3{9, 9, 9});
    rbx::AddProperty(doc, part, "CFrame", rbx::Type::CFrame, rbx::CFrame{});
    const auto special = doc.addInstance("SpecialMesh", "Mesh", part);
    rbx::AddProperty(doc, special, "MeshType", rbx::Type::Enum, rbx::EnumValue{5});
    rbx::AddProperty(doc, special, "MeshId", rbx::Type::Content, Uri("https://www.roblox.com/asset/?id=700"));
    rbx::AddProperty(doc, special, "TextureId", rbx::Type::Content, Uri("rbxasset://textures/skin.png"));
    rbx::AddProperty(doc, special, "Scale", rbx::Type::Vector3, rbx::Vector3{2, 1, 0.5f});
    rbx::AddProperty(doc, special, "Offset", rbx::Type::Vector3, rbx::Vector3{0, 1, 0});
    rbx::AddProperty(doc, special, "VertexColor", rbx::Type::Vector3, rbx::Vector3{1, 0.5f, 0.25f});
    const test::ImportResult r = ImportWithAssets(doc, dir.string());
    ASSERT_TRUE(r) << r.error;
    const aiNode *hat = r.scene->mRootNode->FindNode("Hat");
    ASSERT_NE(hat, nullptr);
    EXPECT_EQ(test::MetaText(hat, gamefmt::kRbxGeometry), "mesh");
    ASSERT_EQ(hat->mNumMeshes, 1u);
    const aiMesh *m = r.scene->mMeshes[hat->mMeshes[0]];
    // (0..2, 0..4, 0..6) ∘ (2, 1, 0.5) + (0, 1, 0): not centred, not the part's 9³.
    EXPECT_VEC(Min(m), 0, 1, 0);
    EXPECT_VEC(Max(m), 4, 5, 3);

    ASSERT_EQ(r.scene->mNumTextures, 1u);
    ASSERT_EQ(r.scene->mTextures[0]->mWidth, png.size());
    EXPECT_EQ(std::memcmp(r.scene->mTextures[0]->pcData, png.data(), png.size()), 0);
    const aiMaterial *mat = r.scene->mMaterials[m->mMaterialIndex];
    aiString path;
    ASSERT_EQ(mat->GetTexture(aiTextureType_BASE_COLOR, 0, &path), aiReturn_SUCCESS);
    EXPECT_STREQ(path.C_Str(), "*0");
    aiColor4D colour;
    ASSERT_EQ(mat->Get(AI_MATKEY_COLOR_DIFFUSE, colour), aiReturn_SUCCESS);
    EXPECT_FLOAT_EQ(colour.r, 1.0f);
    EXPECT_FLOAT_EQ(colour.g, 0.5f);
    EXPECT_FLOAT_EQ(colour.b, 0.25f);
}

// §5.5: a SurfaceAppearance's ColorMap, NormalMap and the metalness + roughness pair; the pair is combined into
// glTF's metallic-roughness image (G = roughness, B = metalness).
TEST(RbxMeshAssets, SurfaceAppearanceMaps) {
    const auto dir = test::ScratchDir("rbx_mesh_assets_surface");
    test::WriteBytes(dir / "500.mesh", BoxMesh());
    test::WriteBytes(dir / "11.png", GreyPng(10));
    test::WriteBytes(dir / "12.png", GreyPng(128));
    test::WriteBytes(dir / "13.png", GreyPng(77, 4));
    test::WriteBytes(dir / "14.png", GreyPng(201, 2));
    rbx::Document doc;
    const auto part = AddMeshPart(doc, "Statue", "rbxassetid://500", {2, 4, 6}, {2, 4, 6});
    const auto sa = doc.addInstance("SurfaceAppearance", "SurfaceAppearance", part);
    rbx::AddProperty(doc, sa, "ColorMapContent", rbx::Type::Content, Uri("rbxassetid://11"));
    rbx::AddProperty(doc, sa, "NormalMapContent", rbx::Type::Content, Uri("rbxassetid://12"));
    rbx::AddProperty(doc, sa, "MetalnessMapContent", rbx::Type::Content, Uri("rbxassetid://13"));
    rbx::AddProperty(doc, sa, "RoughnessMapContent", rbx::Type::Content, Uri("rbxassetid://14"));
    const test::ImportResult r = ImportWithAssets(doc, dir.string());
    ASSERT_TRUE(r) << r.error;
    const aiNode *node = r.scene->mRootNode->FindNode("Statue");
    ASSERT_NE(node, nullptr);
    ASSERT_EQ(node->mNumMeshes, 1u);
    const aiMaterial *mat = r.scene->mMaterials[r.scene->mMeshes[node->mMeshes[0]]->mMaterialIndex];
    const auto texture = [&](aiTextureType type, unsigned index = 0) {
        aiString path;
        return mat->GetTexture(type, index, &path) == aiReturn_SUCCESS ? std::string(path.C_Str()) : std::string();
    };
    EXPECT_EQ(texture(aiTextureType_BASE_COLOR), "*0");
    EXPECT_EQ(texture(aiTextureType_NORMALS), "*1");
    EXPECT_EQ(texture(aiTextureType_METALNESS), "*2");
    EXPECT_EQ(texture(aiTextureType_DIFFUSE_ROUGHNESS), "*3");
    EXPECT_EQ(texture(aiTextureType_UNKNOWN), "*4"); // AI_MATKEY_GLTF_PBRMETALLICROUGHNESS_METALLICROUGHNESS_TEXTURE
    ASSERT_EQ(r.scene->mNumTextures, 5u);
    const aiTexture *combined = r.scene->mTextures[4];
    const RgbaImage image = DecodePngRgba(reinterpret_cast<const std::uint8_t *>(combined->pcData), combined->mWidth);
    EXPECT_EQ(image.width, 4u); // the larger of the two maps
    EXPECT_EQ(image.height, 4u);
    for (std::size_t i = 0; i < image.rgba.size(); i += 4) {
        EXPECT_EQ(image.rgba[i + 1], 201); // roughness
        EXPECT_EQ(image.rgba[i + 2], 77);  // metalness
    }
    float metallic = 0, roughness = 0;
    ASSERT_EQ(mat->Get(AI_MATKEY_METALLIC_FACTOR, metallic), aiReturn_SUCCESS);
    ASSERT_EQ(mat->Get(AI_MATKEY_ROUGHNESS_FACTOR, roughness), aiReturn_SUCCESS);
    EXPECT_EQ(metallic, 1.0f);
    EXPECT_EQ(roughness, 1.0f);
}

// A skinned mesh keeps its bones: the skeleton hangs under the MeshPart's node, placed by the same scale and shift
// as the vertices, so every bone's global transform times its offset matrix is the mesh node's (the bind pose).
TEST(RbxMeshAssets, SkinnedMeshPartKeepsItsSkeletonInBindPose) {
    const auto dir = test::ScratchDir("rbx_mesh_assets_skinned");
    test::WriteBytes(dir / "900.mesh", test::ReadBytes(test::TestDataDir() / "skinned-bar.mesh"));
    rbx::Document doc;
    // skinned-bar spans (-0.5, 0, -0.5)..(0.5, 4, 0.5): centred on (0, 2, 0), scaled ×2.
    AddMeshPart(doc, "Arm", "rbxassetid://900", {2, 8, 2}, {1, 4, 1}, {0, 5, 0});
    AddMeshPart(doc, "Arm", "rbxassetid://900", {2, 8, 2}, {1, 4, 1}, {3, 5, 0});
    const test::ImportResult r = ImportWithAssets(doc, dir.string());
    ASSERT_TRUE(r) << r.error;
    EXPECT_EQ(r.scene->mNumMeshes, 2u); // each skinned instance has its own skeleton, so its own mesh
    for (const char *name : {"Arm", "Arm.1"}) {
        const aiNode *arm = r.scene->mRootNode->FindNode(name);
        ASSERT_NE(arm, nullptr) << name;
        ASSERT_EQ(arm->mNumMeshes, 1u);
        const aiMesh *m = r.scene->mMeshes[arm->mMeshes[0]];
        EXPECT_VEC(Min(m), -1, -4, -1);
        EXPECT_VEC(Max(m), 1, 4, 1);
        ASSERT_EQ(m->mNumBones, 2u);
        const aiMatrix4x4 meshGlobal = test::GlobalTransform(arm);
        for (unsigned b = 0; b < m->mNumBones; ++b) {
            const aiNode *bone = r.scene->mRootNode->FindNode(m->mBones[b]->mName);
            ASSERT_NE(bone, nullptr) << m->mBones[b]->mName.C_Str();
            // The bone belongs to this arm's skeleton.
            const aiNode *up = bone;
            while (up != nullptr && up != arm) up = up->mParent;
            EXPECT_EQ(up, arm) << m->mBones[b]->mName.C_Str();
            const aiMatrix4x4 bind = test::GlobalTransform(bone) * m->mBones[b]->mOffsetMatrix;
            for (unsigned row = 0; row < 4; ++row)
                for (unsigned col = 0; col < 4; ++col) EXPECT_NEAR(bind[row][col], meshGlobal[row][col], 1e-4);
        }
    }
}

// A file that is there but is not a mesh, and a mesh file that does not read, leave the part a placeholder box with
// a warning naming the file.
TEST(RbxMeshAssets, UnreadableMeshFilesStayPlaceholders) {
    const auto dir = test::ScratchDir("rbx_mesh_assets_bad");
    test::WriteBytes(dir / "31.mesh", GreyPng(1));
    test::WriteText(dir / "32.mesh", "version 2.00\nnot really");
    rbx::Document doc;
    AddMeshPart(doc, "Png", "rbxassetid://31", {1, 1, 1}, {1, 1, 1});
    AddMeshPart(doc, "Broken", "rbxassetid://32", {1, 1, 1}, {1, 1, 1});
    const test::ImportResult r = ImportWithAssets(doc, dir.string());
    ASSERT_TRUE(r) << r.error;
    EXPECT_EQ(test::MetaText(r.scene->mRootNode->FindNode("Png"), gamefmt::kRbxGeometry), "placeholder");
    EXPECT_EQ(test::MetaText(r.scene->mRootNode->FindNode("Broken"), gamefmt::kRbxGeometry), "placeholder");
    bool notMesh = false, unreadable = false;
    for (const std::string &line : r.log) {
        notMesh = notMesh || (line.find("31.mesh is a png file; not used as a mesh") != std::string::npos);
        unreadable = unreadable || (line.find("32.mesh (for rbxassetid://32) cannot be read") != std::string::npos);
    }
    EXPECT_TRUE(notMesh);
    EXPECT_TRUE(unreadable);
}

} // namespace
} // namespace gamefmt

namespace gamefmt {
namespace {

// The generated asset place with testdata/rbx-assets (rbx_place_fixtures.hpp lists both): every kind of asset the
// folder resolves, with exact counts and placements.
TEST(RbxMeshAssets, AssetPlaceResolvesIntoTheTestdataFolder) {
    const test::ImportResult r = test::ImportFile(test::TestDataDir() / "asset-place.rbxl", 0, [](Assimp::Importer &i) {
        i.SetPropertyString(GAMEFMT_RBX_ASSET_DIR, (test::TestDataDir() / "rbx-assets").string());
    });
    ASSERT_TRUE(r) << r.error;
    EXPECT_TRUE(r.validationWarnings.empty());
    const aiNode *root = r.scene->mRootNode;
    for (const char *name : {"Statue", "Statue2", "Rig", "Shiny", "Hatted"})
        EXPECT_EQ(test::MetaText(root->FindNode(name), gamefmt::kRbxGeometry), "mesh") << name;
    EXPECT_EQ(test::MetaText(root->FindNode("Missing"), gamefmt::kRbxGeometry), "placeholder");
    EXPECT_EQ(test::MetaText(root->FindNode("Missing"), gamefmt::kRbxUnresolved), "rbxassetid://2999");
    // Statue and Statue2 share one mesh; Shiny (another material), Rig, the hat and the placeholder have their own.
    EXPECT_EQ(r.scene->mNumMeshes, 5u);
    const auto meshOf = [&](const char *name) { return r.scene->mMeshes[root->FindNode(name)->mMeshes[0]]; };
    EXPECT_EQ(meshOf("Statue"), meshOf("Statue2"));
    // The pyramid (bounds centred on (0, 1.5, 0)) × size / InitialSize = 2.
    const aiMesh *statue = meshOf("Statue");
    EXPECT_EQ(statue->mNumVertices, 16u);
    EXPECT_EQ(statue->mNumFaces, 6u); // LOD 0 only
    EXPECT_VEC(Min(statue), -2, -3, -2);
    EXPECT_VEC(Max(statue), 2, 3, 2);
    // The gzip-wrapped skinned bar: 20 vertices, 36 triangles, 2 bones, scaled ×2 around its centre.
    const aiMesh *rig = meshOf("Rig");
    EXPECT_EQ(rig->mNumVertices, 20u);
    EXPECT_EQ(rig->mNumFaces, 36u);
    EXPECT_EQ(rig->mNumBones, 2u);
    EXPECT_VEC(Min(rig), -1, -4, -1);
    EXPECT_VEC(Max(rig), 1, 4, 1);
    // The FileMesh from the Studio layout: the cone × Scale 2 + Offset (0, 0.5, 0), not centred.
    const aiMesh *hat = meshOf("Hatted");
    EXPECT_EQ(hat->mNumVertices, 9u);
    EXPECT_EQ(hat->mNumFaces, 8u);
    EXPECT_VEC(Min(hat), -2, 0.5, -2);
    EXPECT_VEC(Max(hat), 2, 3.5, 2);
    aiColor4D tint;
    ASSERT_EQ(r.scene->mMaterials[hat->mMaterialIndex]->Get(AI_MATKEY_COLOR_DIFFUSE, tint), aiReturn_SUCCESS);
    EXPECT_FLOAT_EQ(tint.g, 0.5f);
    // Images: 2003 (Statue's, the hat's), the SurfaceAppearance's four and their combined metallic-roughness.
    EXPECT_EQ(r.scene->mNumTextures, 6u);
    aiString path;
    EXPECT_EQ(r.scene->mMaterials[statue->mMaterialIndex]->GetTexture(aiTextureType_BASE_COLOR, 0, &path),
              aiReturn_SUCCESS);
    EXPECT_EQ(r.scene->mMaterials[hat->mMaterialIndex]->GetTexture(aiTextureType_BASE_COLOR, 0, &path),
              aiReturn_SUCCESS);
    EXPECT_STREQ(path.C_Str(), "*0"); // the same image as the statue's
    EXPECT_EQ(r.scene->mMaterials[meshOf("Shiny")->mMaterialIndex]->GetTexture(aiTextureType_NORMALS, 0, &path),
              aiReturn_SUCCESS);
}

} // namespace
} // namespace gamefmt
