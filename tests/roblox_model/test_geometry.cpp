// Roblox places as 3D scenes (docs/formats/roblox-model.md §5.2–§5.5), through a registered Importer with
// validation: the generated demo place (tests/fixtures/rbx_place_fixtures.hpp) — shapes and mesh children in
// their part frames, placeholders, looks as shared materials, instancing, decals and textures with images from
// the asset folder, lights, the camera, the scope and invisible-part options — and the corpus places.
#include "common/base64.hpp"
#include "fixtures/rbx_place_fixtures.hpp"
#include "gamefmt/config.hpp"
#include "gamefmt/metadata.hpp"
#include "gamefmt/roblox_model.hpp"
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
#include <set>
#include <string>
#include <vector>

namespace gamefmt {
namespace {

using test::ImportMemory;
using test::ImportResult;

constexpr float kPi = 3.14159265358979323846f;

ImportResult ImportDemo(const test::ImporterSetup &extra = {}, bool assets = true) {
    return ImportMemory(fixtures::DemoPlace(), "rbxl", 0, [&](Assimp::Importer &importer) {
        if (assets) importer.SetPropertyString(GAMEFMT_RBX_ASSET_DIR, (test::TestDataDir() / "rbx-assets").string());
        if (extra) extra(importer);
    });
}

const aiNode *Node(const aiScene *scene, const char *name) {
    const aiNode *node = scene->mRootNode->FindNode(name);
    EXPECT_NE(node, nullptr) << name;
    return node;
}

// The one mesh a node shows.
const aiMesh *MeshOf(const aiScene *scene, const char *name) {
    const aiNode *node = Node(scene, name);
    if (node == nullptr || node->mNumMeshes != 1) {
        ADD_FAILURE() << name << " has " << (node ? node->mNumMeshes : 0) << " meshes, expected 1";
        return nullptr;
    }
    return scene->mMeshes[node->mMeshes[0]];
}

unsigned MeshIndex(const aiScene *scene, const char *name) {
    const aiNode *node = Node(scene, name);
    return node != nullptr && node->mNumMeshes == 1 ? node->mMeshes[0] : ~0u;
}

struct Box {
    aiVector3D min{1e9f, 1e9f, 1e9f}, max{-1e9f, -1e9f, -1e9f};
};
Box Bounds(const aiMesh *mesh) {
    Box b;
    for (unsigned i = 0; i < mesh->mNumVertices; ++i) {
        const aiVector3D &p = mesh->mVertices[i];
        b.min = aiVector3D(std::min(b.min.x, p.x), std::min(b.min.y, p.y), std::min(b.min.z, p.z));
        b.max = aiVector3D(std::max(b.max.x, p.x), std::max(b.max.y, p.y), std::max(b.max.z, p.z));
    }
    return b;
}

void ExpectBounds(const aiScene *scene, const char *name, const aiVector3D &min, const aiVector3D &max) {
    const aiMesh *mesh = MeshOf(scene, name);
    if (mesh == nullptr) return;
    const Box b = Bounds(mesh);
    EXPECT_NEAR(b.min.x, min.x, 1e-5f) << name;
    EXPECT_NEAR(b.min.y, min.y, 1e-5f) << name;
    EXPECT_NEAR(b.min.z, min.z, 1e-5f) << name;
    EXPECT_NEAR(b.max.x, max.x, 1e-5f) << name;
    EXPECT_NEAR(b.max.y, max.y, 1e-5f) << name;
    EXPECT_NEAR(b.max.z, max.z, 1e-5f) << name;
}

std::string MaterialName(const aiScene *scene, const aiMesh *mesh) {
    aiString name;
    scene->mMaterials[mesh->mMaterialIndex]->Get(AI_MATKEY_NAME, name);
    return name.C_Str();
}

float MaterialFloat(const aiScene *scene, const char *node, const char *key, unsigned type, unsigned index) {
    const aiMesh *mesh = MeshOf(scene, node);
    float value = -1;
    if (mesh != nullptr) {
        EXPECT_EQ(scene->mMaterials[mesh->mMaterialIndex]->Get(key, type, index, value), AI_SUCCESS);
    }
    return value;
}

std::string NodeText(const aiScene *scene, const char *node, const char *key) {
    std::string text;
    const aiNode *n = Node(scene, node);
    if (n == nullptr || !GetMetadataText(n->mMetaData, key, text)) return "<absent>";
    return text;
}

TEST(RbxGeometry, DemoPlaceCounts) {
    const ImportResult r = ImportDemo();
    ASSERT_TRUE(r) << r.error;
    // 36 parts in the Workspace show 24 distinct geometry+look pairs (10 bricks share one, Seat/VehicleSeat,
    // CornerWedge/PartCornerWedge and Legacy/Rotated share theirs) plus 3 decal quads with their images (Face, Tiles,
    // Logo: rbx-assets has every asset the place names, the union's too).
    EXPECT_EQ(r.scene->mNumMeshes, 27u);
    EXPECT_EQ(r.scene->mNumMaterials, 16u); // 13 part looks + 3 decal looks
    EXPECT_EQ(r.scene->mNumTextures, 3u);
    EXPECT_EQ(r.scene->mNumLights, 3u); // "Off" is disabled
    EXPECT_EQ(r.scene->mNumCameras, 1u);
    EXPECT_EQ(r.scene->mFlags & AI_SCENE_FLAGS_INCOMPLETE, 0u);
    // Part "Invisible" (Transparency 1) keeps its geometry with opacity 0, which Assimp's validator warns about
    // (it wants 0 < opacity); nothing else may warn.
    ASSERT_EQ(r.validationWarnings.size(), 1u);
    EXPECT_NE(r.validationWarnings[0].find("Invalid opacity value"), std::string::npos) << r.validationWarnings[0];
}

TEST(RbxGeometry, EveryWorkspacePartOwnsOneMeshAndNothingElseDoes) {
    const ImportResult r = ImportDemo();
    ASSERT_TRUE(r) << r.error;
    const std::set<std::string> parts = {"Baseplate",     "Block",
                                         "Ball",          "Cylinder",
                                         "Wedge",         "CornerWedge",
                                         "PartWedge",     "PartCornerWedge",
                                         "Truss",         "Spawn",
                                         "Seat",          "VehicleSeat",
                                         "SpecialSphere", "SpecialCylinder",
                                         "BlockMeshed",   "CylinderMeshed",
                                         "FileMeshed",    "MeshPart",
                                         "Union",         "Glass",
                                         "Invisible",     "ForceField",
                                         "Metal",         "Legacy",
                                         "Rotated",       "Lamp",
                                         "Brick",         "Brick.1",
                                         "Brick.2",       "Brick.3",
                                         "Brick.4",       "Brick.5",
                                         "Brick.6",       "Brick.7",
                                         "Brick.8",       "Brick.9",
                                         "Tiles",         "Face",
                                         "Logo"};
    std::vector<const aiNode *> stack{r.scene->mRootNode};
    std::size_t withMesh = 0;
    while (!stack.empty()) {
        const aiNode *node = stack.back();
        stack.pop_back();
        const bool expected = parts.count(node->mName.C_Str()) != 0;
        EXPECT_EQ(node->mNumMeshes, expected ? 1u : 0u) << node->mName.C_Str();
        withMesh += node->mNumMeshes;
        for (unsigned i = 0; i < node->mNumChildren; ++i) stack.push_back(node->mChildren[i]);
    }
    EXPECT_EQ(withMesh, parts.size());
    // Outside the Workspace: nodes without geometry.
    EXPECT_EQ(Node(r.scene, "Stored")->mNumMeshes, 0u);
    EXPECT_EQ(Node(r.scene, "Stray")->mNumMeshes, 0u);
}

TEST(RbxGeometry, ShapesSizesAndMeshChildrenInThePartFrame) {
    const ImportResult r = ImportDemo();
    ASSERT_TRUE(r) << r.error;
    ExpectBounds(r.scene, "Block", {-2, -0.5f, -1}, {2, 0.5f, 1});
    ExpectBounds(r.scene, "Ball", {-1.5f, -1.5f, -1.5f}, {1.5f, 1.5f, 1.5f});      // diameter min(3,4,5)
    ExpectBounds(r.scene, "Cylinder", {-2, -1, -1}, {2, 1, 1});                    // along X, diameter min(2,3)
    ExpectBounds(r.scene, "Truss", {-1, -5, -1}, {1, 5, 1});                       // a box of its size
    ExpectBounds(r.scene, "SpecialSphere", {-1, -1, -1}, {1, 3, 1});               // semi-axes (1,2,1) at (0,1,0)
    ExpectBounds(r.scene, "SpecialCylinder", {-1, -0.5f, -0.5f}, {1, 0.5f, 0.5f}); // X cylinder, d = min(1,1)
    ExpectBounds(r.scene, "BlockMeshed", {0, -2, -0.5f}, {2, 2, 0.5f});            // (4,4,4)∘(0.5,1,0.25) + (1,0,0)
    ExpectBounds(r.scene, "CylinderMeshed", {-1, -2, -1}, {1, 2, 1});              // Y cylinder, d = min(2,3)
    ExpectBounds(r.scene, "MeshPart", {-1.5f, -1.5f, -1.5f}, {1.5f, 1.5f, 1.5f});  // 777's cone (2,1.5,2) → (3,3,3)

    // The shape names reach the mesh names; the wedge's slope faces the front (-Z) and up.
    EXPECT_STREQ(MeshOf(r.scene, "Wedge")->mName.C_Str(), "wedge 4x2x4");
    EXPECT_STREQ(MeshOf(r.scene, "PartCornerWedge")->mName.C_Str(), "cornerwedge 4x2x4");
    EXPECT_EQ(NodeText(r.scene, "MeshPart", kRbxGeometry), "mesh");
    EXPECT_EQ(MeshOf(r.scene, "MeshPart")->mNumFaces, 8u); // the cone of 777.mesh
    const aiMesh *wedge = MeshOf(r.scene, "Wedge");
    bool slope = false;
    for (unsigned i = 0; i < wedge->mNumVertices; ++i) {
        const aiVector3D &n = wedge->mNormals[i];
        if (std::fabs(n.y - 2 / std::sqrt(5.0f)) < 1e-5f && std::fabs(n.z + 1 / std::sqrt(5.0f)) < 1e-5f) slope = true;
    }
    EXPECT_TRUE(slope) << "no vertex with the slope normal ∝ (0, Z, -Y) = (0, 4, -2)";
}

TEST(RbxGeometry, NodeTransformsAreTheRigidCFrames) {
    const ImportResult r = ImportDemo();
    ASSERT_TRUE(r) << r.error;
    const aiMatrix4x4 &rotated = Node(r.scene, "Rotated")->mTransformation;
    const float want[12] = {0, 0, 1, 0, 0, 1, 0, 2, -1, 0, 0, -12};
    const float got[12] = {rotated.a1, rotated.a2, rotated.a3, rotated.a4, rotated.b1, rotated.b2,
                           rotated.b3, rotated.b4, rotated.c1, rotated.c2, rotated.c3, rotated.c4};
    for (int i = 0; i < 12; ++i) EXPECT_FLOAT_EQ(got[i], want[i]) << i;
    // Bricks under a Model (identity) keep their world translation; size stays in the vertices.
    const aiMatrix4x4 &brick = Node(r.scene, "Brick.7")->mTransformation;
    EXPECT_FLOAT_EQ(brick.a4, 24);
    EXPECT_FLOAT_EQ(brick.b4, 7.5f);
    EXPECT_FLOAT_EQ(brick.c4, -12);
    EXPECT_FLOAT_EQ(brick.a1, 1);
    EXPECT_FLOAT_EQ(brick.b2, 1);
    EXPECT_FLOAT_EQ(brick.c3, 1);
}

TEST(RbxGeometry, IdenticalPartsShareOneMesh) {
    const ImportResult r = ImportDemo();
    ASSERT_TRUE(r) << r.error;
    const unsigned brick = MeshIndex(r.scene, "Brick");
    for (const char *name :
         {"Brick.1", "Brick.2", "Brick.3", "Brick.4", "Brick.5", "Brick.6", "Brick.7", "Brick.8", "Brick.9"})
        EXPECT_EQ(MeshIndex(r.scene, name), brick) << name;
    EXPECT_EQ(MeshIndex(r.scene, "Legacy"), MeshIndex(r.scene, "Rotated")); // rotation is the node's
    EXPECT_EQ(MeshIndex(r.scene, "Seat"), MeshIndex(r.scene, "VehicleSeat"));
    EXPECT_EQ(MeshIndex(r.scene, "CornerWedge"), MeshIndex(r.scene, "PartCornerWedge"));
    // Same geometry, different look: different meshes.
    EXPECT_NE(MeshIndex(r.scene, "Wedge"), MeshIndex(r.scene, "PartWedge"));
    EXPECT_NE(MeshIndex(r.scene, "Glass"), MeshIndex(r.scene, "Metal"));
}

TEST(RbxGeometry, LooksBecomeSharedNamedMaterials) {
    const ImportResult r = ImportDemo();
    ASSERT_TRUE(r) << r.error;
    EXPECT_EQ(MaterialName(r.scene, MeshOf(r.scene, "Block")), "rbx_Plastic_C4281C");
    EXPECT_EQ(MaterialName(r.scene, MeshOf(r.scene, "Baseplate")), "rbx_Slate_635F62");
    EXPECT_EQ(MaterialName(r.scene, MeshOf(r.scene, "Legacy")), "rbx_Plastic_FF0000"); // BrickColor 1004
    EXPECT_EQ(MaterialName(r.scene, MeshOf(r.scene, "Truss")), "rbx_Plastic_A3A2A5");  // default colour (194)
    EXPECT_EQ(MaterialName(r.scene, MeshOf(r.scene, "Glass")), "rbx_Glass_A0C8FF_t0.5");
    EXPECT_EQ(MaterialName(r.scene, MeshOf(r.scene, "Invisible")), "rbx_Plastic_A3A2A5_t1");
    EXPECT_EQ(MaterialName(r.scene, MeshOf(r.scene, "Metal")), "rbx_Metal_C8C8C8_r0.25");
    // The grey Plastic look is one material for every part that has it.
    EXPECT_EQ(MeshOf(r.scene, "Truss")->mMaterialIndex, MeshOf(r.scene, "BlockMeshed")->mMaterialIndex);

    EXPECT_FLOAT_EQ(MaterialFloat(r.scene, "Glass", AI_MATKEY_OPACITY), 0.5f);
    EXPECT_FLOAT_EQ(MaterialFloat(r.scene, "Glass", AI_MATKEY_ROUGHNESS_FACTOR), 0.05f);
    EXPECT_FLOAT_EQ(MaterialFloat(r.scene, "Invisible", AI_MATKEY_OPACITY), 0.0f);
    EXPECT_FLOAT_EQ(MaterialFloat(r.scene, "ForceField", AI_MATKEY_OPACITY), 0.5f);
    EXPECT_FLOAT_EQ(MaterialFloat(r.scene, "Metal", AI_MATKEY_METALLIC_FACTOR), 1.0f);
    EXPECT_FLOAT_EQ(MaterialFloat(r.scene, "Metal", AI_MATKEY_ROUGHNESS_FACTOR), 0.4f);
    EXPECT_FLOAT_EQ(MaterialFloat(r.scene, "Metal", AI_MATKEY_REFLECTIVITY), 0.25f);
    EXPECT_FLOAT_EQ(MaterialFloat(r.scene, "Block", AI_MATKEY_METALLIC_FACTOR), 0.0f);

    const aiMaterial *block = r.scene->mMaterials[MeshOf(r.scene, "Block")->mMaterialIndex];
    aiColor4D colour, base;
    ASSERT_EQ(block->Get(AI_MATKEY_COLOR_DIFFUSE, colour), AI_SUCCESS);
    EXPECT_FLOAT_EQ(colour.r, 196 / 255.0f); // sRGB as stored
    EXPECT_FLOAT_EQ(colour.g, 40 / 255.0f);
    EXPECT_FLOAT_EQ(colour.b, 28 / 255.0f);
    // The PBR base colour is linear: ((c + 0.055) / 1.055)^2.4 (IEC 61966-2-1).
    ASSERT_EQ(block->Get(AI_MATKEY_BASE_COLOR, base), AI_SUCCESS);
    EXPECT_NEAR(base.r, std::pow((196 / 255.0 + 0.055) / 1.055, 2.4), 1e-6);
    EXPECT_NEAR(base.g, std::pow((40 / 255.0 + 0.055) / 1.055, 2.4), 1e-6);
    EXPECT_NEAR(base.b, std::pow((28 / 255.0 + 0.055) / 1.055, 2.4), 1e-6);
    int material = 0;
    EXPECT_EQ(block->Get("$rbx.material", 0, 0, material), AI_SUCCESS);
    EXPECT_EQ(material, 256);

    // Neon glows in its own colour; Plastic does not glow.
    aiColor3D emissive;
    const aiMaterial *ball = r.scene->mMaterials[MeshOf(r.scene, "Ball")->mMaterialIndex];
    ASSERT_EQ(ball->Get(AI_MATKEY_COLOR_EMISSIVE, emissive), AI_SUCCESS);
    EXPECT_FLOAT_EQ(emissive.g, 1.0f);
    EXPECT_FLOAT_EQ(emissive.r, 0.0f);
    EXPECT_NE(block->Get(AI_MATKEY_COLOR_EMISSIVE, emissive), AI_SUCCESS);
}

TEST(RbxGeometry, PlaceholdersNameTheirAssets) {
    const ImportResult r = ImportDemo({}, false); // without the asset folder
    ASSERT_TRUE(r) << r.error;
    EXPECT_EQ(NodeText(r.scene, "MeshPart", kRbxGeometry), "placeholder");
    EXPECT_EQ(NodeText(r.scene, "MeshPart", kRbxUnresolved), "rbxassetid://777");
    EXPECT_EQ(NodeText(r.scene, "FileMeshed", kRbxGeometry), "placeholder");
    EXPECT_EQ(NodeText(r.scene, "FileMeshed", kRbxUnresolved), "rbxassetid://555");
    EXPECT_EQ(NodeText(r.scene, "Union", kRbxGeometry), "placeholder");
    EXPECT_EQ(NodeText(r.scene, "Union", kRbxUnresolved), "rbxassetid://3001"); // nothing else in the file
    EXPECT_EQ(NodeText(r.scene, "Block", kRbxGeometry), "<absent>");
    bool warned = false;
    for (const std::string &line : r.log) warned = warned || line.find("3 MeshPart(s)") != std::string::npos;
    EXPECT_TRUE(warned);
}

TEST(RbxGeometry, DecalsAndTexturesLieOnTheirFacesWithTheirImages) {
    const ImportResult r = ImportDemo();
    ASSERT_TRUE(r) << r.error;
    // Decal "Face" on Block's Front (-Z) face, z = -1 - 0.001 (ZIndex 1).
    const aiMesh *face = MeshOf(r.scene, "Face");
    ASSERT_NE(face, nullptr);
    EXPECT_EQ(face->mNumVertices, 4u);
    for (unsigned i = 0; i < face->mNumVertices; ++i) EXPECT_FLOAT_EQ(face->mVertices[i].z, -1.001f);
    const aiMaterial *decal = r.scene->mMaterials[face->mMaterialIndex];
    aiString path;
    ASSERT_EQ(decal->Get(AI_MATKEY_TEXTURE(aiTextureType_DIFFUSE, 0), path), AI_SUCCESS);
    ASSERT_EQ(path.C_Str()[0], '*');
    const aiTexture *image = r.scene->mTextures[std::stoi(path.C_Str() + 1)];
    EXPECT_EQ(image->mHeight, 0u);
    EXPECT_STREQ(image->achFormatHint, "png");
    const auto expected = fixtures::DemoDecalImage(); // "1002" has no extension: found by id, sniffed as PNG
    ASSERT_EQ(image->mWidth, expected.size());
    EXPECT_EQ(std::memcmp(image->pcData, expected.data(), expected.size()), 0);
    aiString alpha;
    EXPECT_EQ(decal->Get(AI_MATKEY_GLTF_ALPHAMODE, alpha), AI_SUCCESS);
    EXPECT_STREQ(alpha.C_Str(), "BLEND");

    // Texture "Tiles" on the Baseplate's top (y = 1.001), 8-stud tiles over 96 × 64 studs.
    const aiMesh *tiles = MeshOf(r.scene, "Tiles");
    ASSERT_NE(tiles, nullptr);
    float minU = 1e9f, maxU = -1e9f, minV = 1e9f, maxV = -1e9f;
    for (unsigned i = 0; i < tiles->mNumVertices; ++i) {
        EXPECT_FLOAT_EQ(tiles->mVertices[i].y, 1.001f);
        minU = std::min(minU, tiles->mTextureCoords[0][i].x);
        maxU = std::max(maxU, tiles->mTextureCoords[0][i].x);
        minV = std::min(minV, tiles->mTextureCoords[0][i].y);
        maxV = std::max(maxV, tiles->mTextureCoords[0][i].y);
    }
    EXPECT_FLOAT_EQ(maxU - minU, 12.0f);
    EXPECT_FLOAT_EQ(maxV - minV, 8.0f);

    // "Logo" names a Studio content image, found in the Studio layout (rbx-assets/content/textures/).
    const aiMesh *logo = MeshOf(r.scene, "Logo");
    ASSERT_NE(logo, nullptr);
    EXPECT_EQ(logo->mNumVertices, 4u);
    EXPECT_EQ(NodeText(r.scene, "Logo", kRbxUnresolved), "<absent>");
}

TEST(RbxGeometry, WithoutAnAssetFolderDecalsStayOut) {
    const ImportResult r = ImportDemo({}, false);
    ASSERT_TRUE(r) << r.error;
    EXPECT_EQ(r.scene->mNumMeshes, 24u);
    EXPECT_EQ(r.scene->mNumTextures, 0u);
    EXPECT_EQ(Node(r.scene, "Face")->mNumMeshes, 0u);
    EXPECT_EQ(NodeText(r.scene, "Face", kRbxUnresolved), "rbxassetid://1002");
}

// Issue #37 (2): a 2008 place's Decal whose image is inside the file (legacy <Content><binary>): the image is
// embedded as its own bytes, as Roblox showed it; a <hash> names content on old servers and draws nothing.
TEST(RbxGeometry, LegacyBinaryContentImagesAreEmbedded) {
    const std::vector<std::uint8_t> png = fixtures::DemoDecalImage();
    const std::string xml =
        "<roblox version=\"4\"><Item class=\"Part\" referent=\"RBX0\"><Properties><string name=\"Name\">Block</string>"
        "<Vector3 name=\"size\"><X>4</X><Y>2</Y><Z>2</Z></Vector3></Properties>"
        "<Item class=\"Decal\" referent=\"RBX1\"><Properties><string name=\"Name\">Old</string>"
        "<Content name=\"Texture\"><binary>" +
        Base64Encode(png) +
        "</binary></Content></Properties></Item>"
        "<Item class=\"Decal\" referent=\"RBX2\"><Properties><string name=\"Name\">Hashed</string>"
        "<token name=\"Face\">1</token><Content name=\"Texture\"><hash>0123456789abcdef</hash></Content>"
        "</Properties></Item></Item></roblox>";
    const ImportResult r = ImportMemory(std::vector<std::uint8_t>(xml.begin(), xml.end()), "rbxmx");
    ASSERT_TRUE(r) << r.error;
    ASSERT_EQ(r.scene->mNumTextures, 1u);
    const aiTexture *image = r.scene->mTextures[0];
    EXPECT_EQ(image->mHeight, 0u);
    EXPECT_STREQ(image->achFormatHint, "png");
    ASSERT_EQ(image->mWidth, png.size());
    EXPECT_EQ(std::memcmp(image->pcData, png.data(), png.size()), 0);
    const aiMesh *face = MeshOf(r.scene, "Old");
    ASSERT_NE(face, nullptr);
    aiString path;
    ASSERT_EQ(r.scene->mMaterials[face->mMaterialIndex]->Get(AI_MATKEY_TEXTURE(aiTextureType_DIFFUSE, 0), path),
              AI_SUCCESS);
    EXPECT_STREQ(path.C_Str(), "*0");
    EXPECT_EQ(Node(r.scene, "Hashed")->mNumMeshes, 0u);
}

const aiLight *Light(const aiScene *scene, const char *name) {
    for (unsigned i = 0; i < scene->mNumLights; ++i)
        if (std::string(scene->mLights[i]->mName.C_Str()) == name) return scene->mLights[i];
    ADD_FAILURE() << "no light " << name;
    return nullptr;
}

TEST(RbxGeometry, LightsShineFromTheirParts) {
    const ImportResult r = ImportDemo();
    ASSERT_TRUE(r) << r.error;
    const aiLight *glow = Light(r.scene, "Glow");
    ASSERT_NE(glow, nullptr);
    EXPECT_EQ(glow->mType, aiLightSource_POINT);
    EXPECT_FLOAT_EQ(glow->mColorDiffuse.r, 2.0f); // colour × brightness 2
    EXPECT_FLOAT_EQ(glow->mColorDiffuse.g, 1.6f);
    EXPECT_FLOAT_EQ(glow->mColorDiffuse.b, 0.8f);
    float range = 0;
    EXPECT_TRUE(Node(r.scene, "Glow")->mMetaData->Get(kRbxLightRange, range));
    EXPECT_FLOAT_EQ(range, 12);

    const aiLight *spot = Light(r.scene, "Spot");
    ASSERT_NE(spot, nullptr);
    EXPECT_EQ(spot->mType, aiLightSource_SPOT);
    EXPECT_FLOAT_EQ(spot->mDirection.y, -1); // Face Bottom
    EXPECT_FLOAT_EQ(spot->mAngleOuterCone, 30 * kPi / 180);

    const aiLight *panel = Light(r.scene, "Panel");
    ASSERT_NE(panel, nullptr);
    EXPECT_EQ(panel->mType, aiLightSource_SPOT);
    EXPECT_FLOAT_EQ(panel->mDirection.z, -1);   // Face Front
    EXPECT_FLOAT_EQ(panel->mPosition.z, -0.5f); // the centre of the 1×4×1 lamp's front face
    EXPECT_FLOAT_EQ(panel->mAngleOuterCone, 60 * kPi / 180);
    EXPECT_FLOAT_EQ(panel->mColorDiffuse.r, 1.5f);
    for (unsigned i = 0; i < r.scene->mNumLights; ++i) EXPECT_STRNE(r.scene->mLights[i]->mName.C_Str(), "Off");
}

TEST(RbxGeometry, CurrentCameraBecomesTheCamera) {
    const ImportResult r = ImportDemo();
    ASSERT_TRUE(r) << r.error;
    ASSERT_EQ(r.scene->mNumCameras, 1u);
    const aiCamera *camera = r.scene->mCameras[0];
    EXPECT_STREQ(camera->mName.C_Str(), "Camera");
    EXPECT_FLOAT_EQ(camera->mLookAt.z, -1);
    // Vertical FieldOfView 50°; Assimp keeps half the horizontal angle, at 16:9.
    EXPECT_NEAR(camera->mHorizontalFOV, std::atan(std::tan(25 * kPi / 180) * 16 / 9), 1e-6f);
    const aiMatrix4x4 &m = Node(r.scene, "Camera")->mTransformation;
    EXPECT_FLOAT_EQ(m.b4, 20);
    EXPECT_FLOAT_EQ(m.c4, -60);
    EXPECT_FLOAT_EQ(m.a1, -1);
    EXPECT_NEAR(m.b3, 1 / std::sqrt(10.0f), 1e-6f);  // R12 = s
    EXPECT_NEAR(m.c3, -3 / std::sqrt(10.0f), 1e-6f); // R22 = -c: the camera looks along +Z
}

TEST(RbxGeometry, SunFromLightingOnRequest) {
    // Lighting: TimeOfDay 09:00, latitude 0, Brightness 2. The documented sky model: θ = 2π·9/24,
    // α = 23.5°·cos(π·(9/24)/182.6282) − 0°, direction to the sun (sin θ cos α, −cos θ cos α, −sin α): in the
    // morning it stands toward +X, about 40° high.
    const ImportResult r = ImportDemo([](Assimp::Importer &i) { i.SetPropertyBool(GAMEFMT_RBX_SUN, true); });
    ASSERT_TRUE(r) << r.error;
    EXPECT_EQ(r.scene->mNumLights, 4u);
    const aiNode *node = test::Child(r.scene->mRootNode, "Sun");
    ASSERT_NE(node, nullptr);
    const aiLight *sun = Light(r.scene, "Sun");
    ASSERT_NE(sun, nullptr);
    EXPECT_EQ(sun->mType, aiLightSource_DIRECTIONAL);
    const double theta = 2 * kPi * 9 / 24, alpha = 23.5 * kPi / 180 * std::cos(kPi * (9.0 / 24) / 182.6282);
    EXPECT_NEAR(sun->mDirection.x, -std::sin(theta) * std::cos(alpha), 1e-5);
    EXPECT_NEAR(sun->mDirection.y, std::cos(theta) * std::cos(alpha), 1e-5);
    EXPECT_NEAR(sun->mDirection.z, std::sin(alpha), 1e-5);
    EXPECT_NEAR(std::asin(-sun->mDirection.y) * 180 / kPi, 40.4, 0.1);
    EXPECT_FLOAT_EQ(sun->mColorDiffuse.r, 2);

    // At 22:00 the sun is below the horizon: no light, no node.
    rbx::Document night;
    const auto lighting = night.addInstance("Lighting", "Lighting", rbx::kNoInstance);
    night.instances[lighting].isService = true;
    rbx::AddProperty(night, lighting, "TimeOfDay", rbx::Type::String, std::string("22:00:00"));
    const ImportResult dark = ImportMemory(rbx::WriteBinary(night), "rbxl", 0,
                                           [](Assimp::Importer &i) { i.SetPropertyBool(GAMEFMT_RBX_SUN, true); });
    ASSERT_TRUE(dark) << dark.error;
    EXPECT_EQ(dark.scene->mNumLights, 0u);
    EXPECT_EQ(test::Child(dark.scene->mRootNode, "Sun"), nullptr);
}

TEST(RbxGeometry, ScopeAllAndSkipInvisible) {
    const ImportResult all =
        ImportDemo([](Assimp::Importer &i) { i.SetPropertyString(GAMEFMT_RBX_GEOMETRY_SCOPE, "all"); });
    ASSERT_TRUE(all) << all.error;
    EXPECT_EQ(all.scene->mNumMeshes, 28u); // Stored and Stray share one new grey 4×1×2 brick
    EXPECT_EQ(MeshIndex(all.scene, "Stored"), MeshIndex(all.scene, "Stray"));

    const ImportResult skip =
        ImportDemo([](Assimp::Importer &i) { i.SetPropertyBool(GAMEFMT_RBX_SKIP_INVISIBLE, true); });
    ASSERT_TRUE(skip) << skip.error;
    EXPECT_EQ(skip.scene->mNumMeshes, 26u);
    EXPECT_EQ(Node(skip.scene, "Invisible")->mNumMeshes, 0u);

    const ImportResult bad =
        ImportDemo([](Assimp::Importer &i) { i.SetPropertyString(GAMEFMT_RBX_GEOMETRY_SCOPE, "world"); });
    EXPECT_FALSE(bad);
    EXPECT_NE(bad.error.find("GAMEFMT_RBX_GEOMETRY_SCOPE"), std::string::npos) << bad.error;

    const ImportResult coarse = ImportDemo([](Assimp::Importer &i) { i.SetPropertyInteger(GAMEFMT_RBX_SEGMENTS, 8); });
    ASSERT_TRUE(coarse) << coarse.error;
    EXPECT_EQ(MeshOf(coarse.scene, "Cylinder")->mNumFaces, 8u * 4); // 8 side quads + two 8-triangle caps
}

// SpecialMesh MeshType Head (0) has no geometry we know exactly: it is drawn as the nearest simple shape, a Y cylinder
// of diameter min(X, Z) (roblox-model.md §5.1), and one warning says so.
TEST(RbxGeometry, HeadSpecialMeshIsAnApproximatedCylinder) {
    rbx::Document doc;
    const auto part = doc.addInstance("Part", "Head", rbx::kNoInstance);
    rbx::AddProperty(doc, part, "size", rbx::Type::Vector3, rbx::Vector3{2, 1, 1});
    rbx::AddProperty(doc, part, "CFrame", rbx::Type::CFrame, rbx::CFrame{});
    const auto mesh = doc.addInstance("SpecialMesh", "Mesh", part);
    rbx::AddProperty(doc, mesh, "MeshType", rbx::Type::Enum, rbx::EnumValue{0});
    const ImportResult r = ImportMemory(rbx::WriteBinary(doc), "rbxm");
    ASSERT_TRUE(r) << r.error;
    ExpectBounds(r.scene, "Head", {-0.5f, -0.5f, -0.5f}, {0.5f, 0.5f, 0.5f}); // Y cylinder, d = min(2,1)
    bool warned = false;
    for (const std::string &line : r.log)
        warned = warned || line.find("1 SpecialMesh(es) of type Head") != std::string::npos;
    EXPECT_TRUE(warned);
}

TEST(RbxGeometry, ModelsDrawEveryPart) {
    // A model (no Workspace): the default scope is everything.
    rbx::Document doc;
    const auto part = doc.addInstance("Part", "Loose", rbx::kNoInstance);
    rbx::AddProperty(doc, part, "size", rbx::Type::Vector3, rbx::Vector3{2, 2, 2});
    rbx::AddProperty(doc, part, "CFrame", rbx::Type::CFrame, rbx::CFrame{});
    const ImportResult r = ImportMemory(rbx::WriteBinary(doc), "rbxm");
    ASSERT_TRUE(r) << r.error;
    EXPECT_EQ(r.scene->mNumMeshes, 1u);
    EXPECT_EQ(Node(r.scene, "Loose")->mNumMeshes, 1u);
}

TEST(RbxGeometry, OddSizesNeitherCrashNorTurnInsideOut) {
    // NaN and infinite sizes draw nothing (node kept, one warning); a negative size is read as its magnitude.
    rbx::Document doc;
    const auto add = [&](const char *name, rbx::Vector3 size) {
        const auto part = doc.addInstance("Part", name, rbx::kNoInstance);
        rbx::AddProperty(doc, part, "size", rbx::Type::Vector3, size);
        rbx::AddProperty(doc, part, "CFrame", rbx::Type::CFrame, rbx::CFrame{});
    };
    add("NotANumber", {NAN, 1, 1});
    add("Infinite", {1, INFINITY, 1});
    add("Negative", {-4, 1, -2});
    const ImportResult r = ImportMemory(rbx::WriteBinary(doc), "rbxm");
    ASSERT_TRUE(r) << r.error;
    EXPECT_EQ(Node(r.scene, "NotANumber")->mNumMeshes, 0u);
    EXPECT_EQ(Node(r.scene, "Infinite")->mNumMeshes, 0u);
    ExpectBounds(r.scene, "Negative", {-2, -0.5f, -1}, {2, 0.5f, 1});
    bool warned = false;
    for (const std::string &line : r.log) warned = warned || line.find("2 part(s) whose size") != std::string::npos;
    EXPECT_TRUE(warned);
    // Still outward: the +X face's normal points to +X.
    const aiMesh *mesh = MeshOf(r.scene, "Negative");
    EXPECT_FLOAT_EQ(mesh->mNormals[0].x, 1);
}

// Corpus: every BasePart under the Workspace of a place (and everywhere in a model) owns a mesh; other nodes
// own none. Classes come from the per-node properties, independently of the geometry code.
TEST(RbxGeometry, CorpusPartsOwnGeometry) {
    GAMEFMT_REQUIRE_CORPUS(dir, "rbx/rbx-test-files");
    const std::set<std::string> partClasses = {"Part",        "WedgePart",     "CornerWedgePart",
                                               "TrussPart",   "SpawnLocation", "Seat",
                                               "VehicleSeat", "MeshPart",      "UnionOperation"};
    std::size_t files = 0, parts = 0;
    for (const auto &entry : std::filesystem::recursive_directory_iterator(dir)) {
        const std::string ext = entry.path().extension().string();
        if (ext != ".rbxl" && ext != ".rbxm" && ext != ".rbxlx" && ext != ".rbxmx") continue;
        const ImportResult r = test::ImportFile(entry.path(), 0, [](Assimp::Importer &importer) {
            importer.SetPropertyBool(GAMEFMT_RBX_NODE_PROPERTIES, true);
        });
        ASSERT_TRUE(r) << entry.path() << ": " << r.error;
        ++files;
        const bool place = ext == ".rbxl" || ext == ".rbxlx";
        struct Item {
            const aiNode *node;
            bool inWorkspace;
        };
        std::vector<Item> stack{{r.scene->mRootNode, !place}};
        while (!stack.empty()) {
            const Item item = stack.back();
            stack.pop_back();
            std::string cls;
            if (item.node->mMetaData != nullptr) GetMetadataText(item.node->mMetaData, kRbxClassName, cls);
            const bool isPart = partClasses.count(cls) != 0;
            if (isPart && item.inWorkspace) {
                ++parts;
                EXPECT_EQ(item.node->mNumMeshes, 1u) << entry.path() << ": " << item.node->mName.C_Str();
            }
            if (!isPart && cls != "Decal" && cls != "Texture") {
                EXPECT_EQ(item.node->mNumMeshes, 0u) << item.node->mName.C_Str();
            }
            const bool below = item.inWorkspace || cls == "Workspace";
            for (unsigned i = 0; i < item.node->mNumChildren; ++i) stack.push_back({item.node->mChildren[i], below});
        }
    }
    EXPECT_GE(files, 100u);
    EXPECT_GE(parts, 40u); // the cases' READMEs list dozens of parts under their Workspaces and models
}

} // namespace
} // namespace gamefmt
