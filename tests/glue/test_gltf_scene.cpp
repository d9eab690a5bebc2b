// gamefmt's glTF writer (assimp_glue/gltf/writer.hpp) on the generated Roblox demo place and
// on hand-built scenes: glb chunk layout and buffer views per the glTF 2.0 specification (§4.4 GLB, §5.11
// bufferView alignment), shared meshes, materials, embedded images, camera and lights, and the way back
// through Assimp's own glTF importer.
#include "assimp_glue/gltf/writer.hpp"
#include "cli/mini_json.hpp"
#include "fixtures/rbx_place_fixtures.hpp"
#include "gamefmt/config.hpp"
#include "support/import_helpers.hpp"
#include "support/scene_build.hpp"

#include <assimp/scene.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace gamefmt {
namespace {

namespace json = test::json;
constexpr double kPi = 3.14159265358979323846;

struct Files {
    std::map<std::string, std::string> bytes; // path → contents
};

Files Write(const aiScene &scene, bool binary, glue::GltfWriteReport *report = nullptr) {
    Files files;
    glue::GltfOptions options;
    options.binary = binary;
    options.keepUnits = true; // studs, as the expectations below are
    const glue::GltfWriteReport r =
        glue::WriteGltf(scene, options, "out/place.glb", "out/place.bin", [&files](const std::string &path) {
            std::string *target = &files.bytes[path];
            return glue::ByteSink([target](const char *data, std::size_t size) { target->append(data, size); });
        });
    if (report != nullptr) *report = r;
    return files;
}

std::uint32_t U32(const std::string &bytes, std::size_t at) {
    std::uint32_t v = 0;
    for (int k = 3; k >= 0; --k) v = (v << 8) | static_cast<unsigned char>(bytes[at + k]);
    return v;
}

// A glb's JSON (parsed) and BIN chunk.
struct Glb {
    json::Value doc;
    std::string bin;
};

Glb Split(const std::string &glb) {
    Glb out;
    EXPECT_EQ(glb.substr(0, 4), "glTF");
    EXPECT_EQ(U32(glb, 8), glb.size());
    const std::uint32_t jsonLength = U32(glb, 12);
    EXPECT_EQ(glb.substr(16, 4), "JSON");
    EXPECT_EQ(jsonLength % 4, 0u);
    json::Parser parser(glb.substr(20, jsonLength));
    const std::optional<json::Value> doc = parser.parse();
    EXPECT_TRUE(doc) << parser.error();
    if (doc) out.doc = *doc;
    const std::size_t binAt = 20 + jsonLength;
    if (binAt < glb.size()) {
        EXPECT_EQ(glb.substr(binAt + 4, 4), std::string("BIN\0", 4));
        out.bin = glb.substr(binAt + 8, U32(glb, binAt));
        EXPECT_EQ(binAt + 8 + out.bin.size(), glb.size());
    }
    return out;
}

const aiScene *DemoScene(test::ImportResult &holder) {
    holder = test::ImportMemory(fixtures::DemoPlace(), "rbxl", 0, [](Assimp::Importer &importer) {
        importer.SetPropertyString(GAMEFMT_RBX_ASSET_DIR, (test::TestDataDir() / "rbx-assets").string());
    });
    EXPECT_TRUE(holder) << holder.error;
    return holder.scene;
}

const json::Value *NodeNamed(const json::Value &doc, const std::string &name) {
    for (const json::Value &node : doc.get("nodes")->items)
        if (const json::Value *n = node.get("name"); n != nullptr && n->text == name) return &node;
    ADD_FAILURE() << "no node " << name;
    return nullptr;
}

TEST(GltfScene, DemoPlaceLayoutFollowsTheSpecification) {
    test::ImportResult holder;
    const aiScene *scene = DemoScene(holder);
    ASSERT_NE(scene, nullptr);
    const Files files = Write(*scene, true);
    ASSERT_EQ(files.bytes.size(), 1u);
    const Glb glb = Split(files.bytes.at("out/place.glb"));
    const json::Value &doc = glb.doc;

    // One buffer, the BIN chunk (4-byte multiple); every view 4-aligned and inside it, in order.
    ASSERT_NE(doc.get("buffers"), nullptr);
    ASSERT_EQ(doc.get("buffers")->items.size(), 1u);
    EXPECT_EQ(doc.get("buffers")->items[0].get("uri"), nullptr);
    EXPECT_EQ(doc.get("buffers")->items[0].get("byteLength")->number, static_cast<double>(glb.bin.size()));
    EXPECT_EQ(glb.bin.size() % 4, 0u);
    double end = 0;
    for (const json::Value &view : doc.get("bufferViews")->items) {
        const double offset = view.get("byteOffset")->number, length = view.get("byteLength")->number;
        EXPECT_EQ(std::fmod(offset, 4), 0);
        EXPECT_GE(offset, end);
        end = offset + length;
    }
    EXPECT_LE(end, static_cast<double>(glb.bin.size()));

    // Meshes as in the scene: 27, shared by the 10 bricks (and the other pairs).
    EXPECT_EQ(doc.get("meshes")->items.size(), 27u);
    EXPECT_EQ(doc.get("materials")->items.size(), 16u);
    const double brick = NodeNamed(doc, "Brick")->get("mesh")->number;
    for (int i = 1; i < 10; ++i)
        EXPECT_EQ(NodeNamed(doc, "Brick." + std::to_string(i))->get("mesh")->number, brick) << i;

    // The brick's POSITION accessor: min/max of a 4×1×2 box, float VEC3, its view an ARRAY_BUFFER.
    const json::Value &primitive =
        doc.get("meshes")->items[static_cast<std::size_t>(brick)].get("primitives")->items[0];
    const json::Value &position =
        doc.get("accessors")->items[static_cast<std::size_t>(primitive.get("attributes")->get("POSITION")->number)];
    EXPECT_EQ(position.get("componentType")->number, 5126);
    EXPECT_EQ(position.get("count")->number, 24);
    const std::vector<double> lo{-2, -0.5, -1}, hi{2, 0.5, 1};
    for (std::size_t k = 0; k < 3; ++k) {
        EXPECT_EQ(position.get("min")->items[k].number, lo[k]);
        EXPECT_EQ(position.get("max")->items[k].number, hi[k]);
    }
    const json::Value &view =
        doc.get("bufferViews")->items[static_cast<std::size_t>(position.get("bufferView")->number)];
    EXPECT_EQ(view.get("target")->number, 34962);
    const json::Value &indices =
        doc.get("accessors")->items[static_cast<std::size_t>(primitive.get("indices")->number)];
    EXPECT_EQ(indices.get("componentType")->number, 5123); // 24 vertices: unsigned short
    EXPECT_EQ(indices.get("count")->number, 36);
}

TEST(GltfScene, MaterialsImagesCameraAndLights) {
    test::ImportResult holder;
    const aiScene *scene = DemoScene(holder);
    ASSERT_NE(scene, nullptr);
    const Glb glb = Split(Write(*scene, true).bytes.at("out/place.glb"));
    const json::Value &doc = glb.doc;
    std::map<std::string, const json::Value *> materials;
    for (const json::Value &m : doc.get("materials")->items) materials[m.get("name")->text] = &m;

    const json::Value *glass = materials.at("rbx_Glass_A0C8FF_t0.5");
    EXPECT_EQ(glass->get("alphaMode")->text, "BLEND");
    EXPECT_NEAR(glass->get("pbrMetallicRoughness")->get("baseColorFactor")->items[3].number, 0.5, 1e-7);
    const json::Value *metal = materials.at("rbx_Metal_C8C8C8_r0.25");
    EXPECT_EQ(metal->get("pbrMetallicRoughness")->get("metallicFactor")->number, 1);
    EXPECT_EQ(metal->get("alphaMode"), nullptr); // opaque is the default
    const json::Value *neon = materials.at("rbx_Neon_00FF00");
    ASSERT_NE(neon->get("emissiveFactor"), nullptr);
    EXPECT_EQ(neon->get("emissiveFactor")->items[1].number, 1);

    // The decal's image: a PNG in a buffer view, byte for byte the asset folder's file.
    const json::Value *decal = materials.at("rbx_Decal_FFFFFF_1");
    const auto texture =
        static_cast<std::size_t>(decal->get("pbrMetallicRoughness")->get("baseColorTexture")->get("index")->number);
    const auto image = static_cast<std::size_t>(doc.get("textures")->items[texture].get("source")->number);
    const json::Value &img = doc.get("images")->items[image];
    EXPECT_EQ(img.get("mimeType")->text, "image/png");
    const json::Value &view = doc.get("bufferViews")->items[static_cast<std::size_t>(img.get("bufferView")->number)];
    const auto expected = fixtures::DemoDecalImage();
    ASSERT_EQ(view.get("byteLength")->number, static_cast<double>(expected.size()));
    EXPECT_EQ(glb.bin.substr(static_cast<std::size_t>(view.get("byteOffset")->number), expected.size()),
              std::string(expected.begin(), expected.end()));

    // Camera: the vertical field of view comes back as Roblox's 50°.
    ASSERT_EQ(doc.get("cameras")->items.size(), 1u);
    EXPECT_NEAR(doc.get("cameras")->items[0].get("perspective")->get("yfov")->number, 50 * kPi / 180, 1e-6);
    EXPECT_EQ(NodeNamed(doc, "Camera")->get("camera")->number, 0);

    // Lights (KHR_lights_punctual): colour normalised, brightness as intensity, Roblox range.
    ASSERT_EQ(doc.get("extensionsUsed")->items.size(), 1u);
    EXPECT_EQ(doc.get("extensionsUsed")->items[0].text, "KHR_lights_punctual");
    const json::Value &lights = *doc.get("extensions")->get("KHR_lights_punctual")->get("lights");
    ASSERT_EQ(lights.items.size(), 3u);
    const json::Value &glow = lights.items[0];
    EXPECT_EQ(glow.get("type")->text, "point");
    EXPECT_NEAR(glow.get("intensity")->number, 2, 1e-6);
    EXPECT_NEAR(glow.get("color")->items[1].number, 0.8, 1e-6);
    EXPECT_EQ(glow.get("range")->number, 12);
    // The spot shines down (Face Bottom): a child node turns glTF's -Z onto -Y.
    const json::Value *spot = NodeNamed(doc, "Spot.light");
    ASSERT_NE(spot, nullptr);
    const json::Value &m = *spot->get("matrix");
    EXPECT_EQ(-m.items[8].number, 0); // -Z column = (0, -1, 0)
    EXPECT_EQ(-m.items[9].number, -1);
    EXPECT_EQ(-m.items[10].number, 0);
    EXPECT_NEAR(lights.items[1].get("spot")->get("outerConeAngle")->number, 30 * kPi / 180, 1e-6);
}

TEST(GltfScene, AssimpReadsItBack) {
    test::ImportResult holder;
    const aiScene *scene = DemoScene(holder);
    ASSERT_NE(scene, nullptr);
    const std::string glb = Write(*scene, true).bytes.at("out/place.glb");
    const test::ImportResult back = test::ImportMemory(std::vector<std::uint8_t>(glb.begin(), glb.end()), "glb");
    ASSERT_TRUE(back) << back.error;
    EXPECT_EQ(back.scene->mNumMeshes, 27u);
    EXPECT_EQ(back.scene->mNumTextures, 3u);
    EXPECT_EQ(back.scene->mNumCameras, 1u);
    EXPECT_EQ(back.scene->mNumLights, 3u);
    const aiNode *first = back.scene->mRootNode->FindNode("Brick");
    ASSERT_NE(first, nullptr);
    ASSERT_EQ(first->mNumMeshes, 1u);
    for (int i = 1; i < 10; ++i) {
        const aiNode *n = back.scene->mRootNode->FindNode(("Brick." + std::to_string(i)).c_str());
        ASSERT_NE(n, nullptr);
        ASSERT_EQ(n->mNumMeshes, 1u);
        EXPECT_EQ(n->mMeshes[0], first->mMeshes[0]) << i;
    }
    // Positions, normals and UVs (v flipped on the way out and back) as imported from the place.
    const aiNode *original = scene->mRootNode->FindNode("Tiles");
    const aiNode *copy = back.scene->mRootNode->FindNode("Tiles");
    ASSERT_TRUE(original != nullptr && copy != nullptr);
    const aiMesh *a = scene->mMeshes[original->mMeshes[0]];
    const aiMesh *b = back.scene->mMeshes[copy->mMeshes[0]];
    ASSERT_EQ(a->mNumVertices, b->mNumVertices);
    for (unsigned i = 0; i < a->mNumVertices; ++i) {
        EXPECT_EQ(a->mVertices[i], b->mVertices[i]) << i;
        EXPECT_EQ(a->mNormals[i], b->mNormals[i]) << i;
        EXPECT_FLOAT_EQ(a->mTextureCoords[0][i].x, b->mTextureCoords[0][i].x) << i;
        EXPECT_FLOAT_EQ(a->mTextureCoords[0][i].y, b->mTextureCoords[0][i].y) << i;
    }
}

TEST(GltfScene, TextFormPutsTheDataBesideItAndIsDeterministic) {
    test::ImportResult holder;
    const aiScene *scene = DemoScene(holder);
    ASSERT_NE(scene, nullptr);
    const Files text = Write(*scene, false);
    ASSERT_EQ(text.bytes.size(), 2u);
    json::Parser parser(text.bytes.at("out/place.glb"));
    const std::optional<json::Value> doc = parser.parse();
    ASSERT_TRUE(doc) << parser.error();
    EXPECT_EQ(doc->get("buffers")->items[0].get("uri")->text, "place.bin");
    const Glb glb = Split(Write(*scene, true).bytes.at("out/place.glb"));
    EXPECT_EQ(text.bytes.at("out/place.bin"), glb.bin);
    EXPECT_EQ(Write(*scene, true).bytes, Write(*scene, true).bytes);
}

// A single-triangle-soup mesh of `vertices` vertices on the root node.
aiScene *SoupScene(unsigned vertices) {
    auto *scene = new aiScene;
    scene->mRootNode = new aiNode("root");
    scene->mNumMaterials = 1;
    scene->mMaterials = new aiMaterial *[1] { new aiMaterial };
    auto *mesh = new aiMesh;
    mesh->mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
    mesh->mNumVertices = vertices;
    mesh->mVertices = new aiVector3D[vertices];
    for (unsigned i = 0; i < vertices; ++i)
        mesh->mVertices[i] = aiVector3D(static_cast<float>(i), 0, 0); // distinct: not welded
    mesh->mNumFaces = vertices / 3;
    mesh->mFaces = new aiFace[mesh->mNumFaces];
    for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
        mesh->mFaces[f].mNumIndices = 3;
        mesh->mFaces[f].mIndices = new unsigned[3]{3 * f, 3 * f + 1, 3 * f + 2};
    }
    scene->mNumMeshes = 1;
    scene->mMeshes = new aiMesh *[1] { mesh };
    test::SetMeshes(scene->mRootNode, {0});
    return scene;
}

TEST(GltfScene, IndicesWidenWhenShortWouldHitTheRestartValue) {
    // 65,535 is the primitive-restart value of unsigned short: a mesh whose indices reach it needs 32 bits.
    for (const unsigned vertices : {65532u, 65535u}) {
        const std::unique_ptr<aiScene> scene(SoupScene(vertices));
        const Glb glb = Split(Write(*scene, true).bytes.at("out/place.glb"));
        const json::Value &indices = glb.doc.get("accessors")->items.back();
        EXPECT_EQ(indices.get("componentType")->number, vertices < 65535 ? 5123 : 5125) << vertices;
        EXPECT_EQ(indices.get("count")->number, vertices) << vertices;
    }
}

TEST(GltfScene, HostileMeshesStillGiveValidData) {
    {
        const std::unique_ptr<aiScene> scene(SoupScene(6));
        scene->mMeshes[0]->mFaces[0].mIndices[2] = 7; // out of range: the face is left out
        glue::GltfWriteReport report;
        const Glb glb = Split(Write(*scene, true, &report).bytes.at("out/place.glb"));
        EXPECT_EQ(report.droppedFaces, 1u);
        EXPECT_EQ(glb.doc.get("accessors")->items.back().get("count")->number, 3);
    }
    {
        const std::unique_ptr<aiScene> scene(SoupScene(3));
        scene->mMeshes[0]->mVertices[1].y = NAN; // written as 0, the bounds stay finite
        glue::GltfWriteReport report;
        const Glb glb = Split(Write(*scene, true, &report).bytes.at("out/place.glb"));
        EXPECT_EQ(report.fixedValues, 1u);
        const json::Value &position = glb.doc.get("accessors")->items[0];
        EXPECT_EQ(position.get("max")->items[1].number, 0);
        float y = 1;
        std::memcpy(&y, glb.bin.data() + 12 + 4, 4);
        EXPECT_EQ(y, 0.0f);
    }
    {
        const std::unique_ptr<aiScene> scene(SoupScene(3));
        const aiString external("textures/wood.png"); // a file, and no reader: left out, counted
        scene->mMaterials[0]->AddProperty(&external, AI_MATKEY_TEXTURE(aiTextureType_DIFFUSE, 0));
        scene->mMeshes[0]->mTextureCoords[0] = new aiVector3D[3];
        scene->mMeshes[0]->mNumUVComponents[0] = 2;
        glue::GltfWriteReport report;
        const Glb glb = Split(Write(*scene, true, &report).bytes.at("out/place.glb"));
        EXPECT_EQ(report.droppedTextures, 1u);
        EXPECT_EQ(glb.doc.get("images"), nullptr);
        EXPECT_EQ(glb.doc.get("materials")->items[0].get("pbrMetallicRoughness")->get("baseColorTexture"), nullptr);
    }
    {
        // A quad as one polygon face: a fan of two triangles.
        const std::unique_ptr<aiScene> scene(SoupScene(3));
        aiMesh &mesh = *scene->mMeshes[0];
        mesh.mPrimitiveTypes = aiPrimitiveType_POLYGON;
        delete[] mesh.mVertices;
        mesh.mVertices = new aiVector3D[4]{{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 1, 0}};
        mesh.mNumVertices = 4;
        delete[] mesh.mFaces[0].mIndices;
        mesh.mFaces[0].mNumIndices = 4;
        mesh.mFaces[0].mIndices = new unsigned[4]{0, 1, 2, 3};
        EXPECT_FALSE(glue::HasCleanPrimitives(*scene));
        const Glb glb = Split(Write(*scene, true).bytes.at("out/place.glb"));
        const json::Value &indices = glb.doc.get("accessors")->items.back();
        ASSERT_EQ(indices.get("count")->number, 6);
        const std::size_t at =
            static_cast<std::size_t>(glb.doc.get("bufferViews")->items.back().get("byteOffset")->number);
        std::uint16_t i[6];
        std::memcpy(i, glb.bin.data() + at, 12);
        EXPECT_EQ(std::vector<std::uint16_t>(i, i + 6), (std::vector<std::uint16_t>{0, 1, 2, 0, 2, 3}));
    }
    const std::unique_ptr<aiScene> fine(SoupScene(3));
    EXPECT_TRUE(glue::HasCleanPrimitives(*fine));
}

} // namespace
} // namespace gamefmt
