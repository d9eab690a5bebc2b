// Any scene → .rbxm/.rbxmx (docs/formats/roblox-model.md §6 "Generic scenes"): Models and MeshParts with sidecar
// meshes and images; importing the written file with its folder as asset folder gives back the source geometry
// (a Roblox place → glb → rbxl keeps its sizes in studs; a hand-built scene's rotation, scale, mirror and
// translation; a skinned mesh keeps its bones), colours and textures map, and the options say what they do.
#include "cli/mini_json.hpp"
#include "fixtures/rbx_place_fixtures.hpp"
#include "gamefmt/config.hpp"
#include "gamefmt/gamefmt.hpp"
#include "gamefmt/metadata.hpp"
#include "importers/roblox_model/document/reader.hpp"
#include "support/import_helpers.hpp"
#include "support/scene_build.hpp"

#include <assimp/Exporter.hpp>
#include <assimp/scene.h>
#include <assimp/version.h>
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstring>
#include <optional>
#include <string>
#include <vector>

namespace gamefmt {
namespace {

using Bytes = std::vector<std::uint8_t>;

struct Geometry {
    std::vector<aiVector3D> points; // world positions of every vertex of every mesh instance
    std::size_t triangles = 0;
};

void Collect(const aiScene *scene, const aiNode *node, const aiMatrix4x4 &parent, float scale, Geometry &out) {
    const aiMatrix4x4 world = parent * node->mTransformation;
    for (unsigned i = 0; i < node->mNumMeshes; ++i) {
        const aiMesh *m = scene->mMeshes[node->mMeshes[i]];
        out.triangles += m->mNumFaces;
        for (unsigned v = 0; v < m->mNumVertices; ++v) out.points.push_back((world * m->mVertices[v]) * scale);
    }
    for (unsigned i = 0; i < node->mNumChildren; ++i) Collect(scene, node->mChildren[i], world, scale, out);
}

Geometry WorldGeometry(const aiScene *scene, float scale = 1) {
    Geometry g;
    Collect(scene, scene->mRootNode, aiMatrix4x4(), scale, g);
    return g;
}

// The largest distance from a point of `a` to the nearest point of `b`.
float Farthest(const std::vector<aiVector3D> &a, const std::vector<aiVector3D> &b) {
    float worst = 0;
    for (const aiVector3D &p : a) {
        float best = INFINITY;
        for (const aiVector3D &q : b) best = std::fmin(best, (p - q).SquareLength());
        worst = std::fmax(worst, std::sqrt(best));
    }
    return worst;
}

void ExpectSameGeometry(const Geometry &source, const Geometry &back, float tolerance) {
    EXPECT_EQ(back.triangles, source.triangles);
    EXPECT_LT(Farthest(source.points, back.points), tolerance);
    EXPECT_LT(Farthest(back.points, source.points), tolerance);
}

// Writes `scene` with exporter `format` to `dir/name` (sidecars beside it); "" or the exporter's error.
std::string Write(const aiScene *scene, const std::filesystem::path &dir, const std::string &name,
                  const char *format = "rbxm", const Assimp::ExportProperties *props = nullptr) {
    const std::unique_ptr<Assimp::Exporter> exporter = MakeExporter();
    if (exporter->Export(scene, format, (dir / name).string(), 0u, props) != aiReturn_SUCCESS)
        return exporter->GetErrorString();
    return {};
}

test::ImportResult ImportWithFolder(const std::filesystem::path &file) {
    return test::ImportFile(
        file, 0, [&](Assimp::Importer &i) { i.SetPropertyString(GAMEFMT_RBX_ASSET_DIR, file.parent_path().string()); });
}

// #14 and §6: the demo place → our glb → Assimp's glTF importer → .rbxl (a generic scene: glTF metres, so studs
// = metres × 100 / 28) → our importer with the output folder as asset folder: the same world geometry in studs
// as the place itself, within float tolerance.
// Objects and arrays in a JSON value, itself included.
std::size_t Containers(const test::json::Value &v) {
    using Type = test::json::Value::Type;
    if (v.type != Type::Object && v.type != Type::Array) return 0;
    std::size_t n = 1;
    for (const test::json::Value &item : v.type == Type::Object ? v.values : v.items) n += Containers(item);
    return n;
}

// The nested metadata blocks Assimp's glTF importer makes of a glb's "extensions": those of every node, and with
// `topLevel` the document's own.
std::size_t ExtensionBlocks(const std::filesystem::path &glb, bool topLevel) {
    const std::vector<std::uint8_t> bytes = test::ReadBytes(glb);
    const std::uint32_t length =
        static_cast<std::uint32_t>(bytes.at(12)) | static_cast<std::uint32_t>(bytes.at(13)) << 8 |
        static_cast<std::uint32_t>(bytes.at(14)) << 16 | static_cast<std::uint32_t>(bytes.at(15)) << 24;
    test::json::Parser parser(std::string(bytes.begin() + 20, bytes.begin() + 20 + length));
    const std::optional<test::json::Value> doc = parser.parse();
    if (!doc) return 0;
    std::size_t blocks = 0;
    if (const test::json::Value *nodes = doc->get("nodes"))
        for (const test::json::Value &node : nodes->items)
            if (const test::json::Value *extensions = node.get("extensions")) blocks += Containers(*extensions);
    if (const test::json::Value *extensions = doc->get("extensions"); extensions != nullptr && topLevel)
        blocks += Containers(*extensions);
    return blocks;
}

TEST(RbxGenericExport, PlaceThroughGlbKeepsItsGeometryInStuds) {
    const auto dir = test::ScratchDir("rbx_generic_glb");
    const test::ImportResult place =
        test::ImportFile(test::TestDataDir() / "demo-place.rbxl", 0, [](Assimp::Importer &i) {
            i.SetPropertyString(GAMEFMT_RBX_ASSET_DIR, (test::TestDataDir() / "rbx-assets").string());
        });
    ASSERT_TRUE(place) << place.error;
    ASSERT_EQ(Write(place.scene, dir, "demo.glb", "gamefmt-glb"), "");
    const test::ImportResult glb = test::ImportFile(dir / "demo.glb");
    ASSERT_TRUE(glb) << glb.error;
    // Assimp's glTF importer nests the lights' extensions in node metadata (and, from Assimp 6, the glTF's own
    // top-level "extensions" in the scene's); Exporter::Export's copy aborts on that. One block per JSON object or
    // array inside them, counted from the glb itself.
    const std::unique_ptr<aiScene> owned(glb.importer->GetOrphanedScene());
    EXPECT_EQ(FlattenNestedMetadata(*owned), ExtensionBlocks(dir / "demo.glb", aiGetVersionMajor() >= 6));
    const aiNode *glow = owned->mRootNode->FindNode("Glow");
    ASSERT_TRUE(glow != nullptr && glow->mMetaData != nullptr);
    EXPECT_TRUE(glow->mMetaData->HasKey("extensions.KHR_lights_punctual.light"));
    EXPECT_EQ(FlattenNestedMetadata(*owned), 0u);
    ASSERT_EQ(Write(owned.get(), dir, "back.rbxl"), "");
    const test::ImportResult back = ImportWithFolder(dir / "back.rbxl");
    ASSERT_TRUE(back) << back.error;

    const Geometry source = WorldGeometry(place.scene);
    ASSERT_GT(source.triangles, 100u);
    ExpectSameGeometry(source, WorldGeometry(owned.get(), 100.0f / 28.0f), 2e-3f);
    ExpectSameGeometry(source, WorldGeometry(back.scene), 2e-3f);
    // A place: everything under Workspace; every MeshPart's mesh resolved.
    ASSERT_EQ(back.scene->mRootNode->mNumChildren, 1u);
    EXPECT_STREQ(back.scene->mRootNode->mChildren[0]->mName.C_Str(), "Workspace");
    for (const std::string &line : back.log) EXPECT_EQ(line.find("placeholder"), std::string::npos) << line;
}

// One mesh under a rotated (90° about Y), non-uniformly scaled, mirrored and translated node, and the same mesh
// again under a plain node: each MeshPart's CFrame is a rotation, its sidecar holds the rest, and the import
// gives the world vertices back; colour (sRGB diffuse), opacity and reflectivity map to the part's properties.
TEST(RbxGenericExport, TransformsColoursAndTexturesMap) {
    const auto dir = test::ScratchDir("rbx_generic_scene");
    aiScene scene;
    scene.mRootNode = new aiNode("Root");
    auto *turned = new aiNode("Turned");
    auto *plain = new aiNode("Plain");
    // Columns: x → (0, 0, -2) (rotation 90° about Y, scaled 2), y → (0, 1, 0), z → (-1, 0, 0) mirrored; at (5, 6, 7).
    turned->mTransformation = aiMatrix4x4(0, 0, -1, 5, 0, 1, 0, 6, -2, 0, 0, 7, 0, 0, 0, 1);
    test::AddChildren(scene.mRootNode, {turned, plain});
    test::SetMeshList(&scene, {test::GridMesh(4, 1.0f, "Floor")});
    test::SetMeshes(turned, {0});
    test::SetMeshes(plain, {0});
    test::AddMaterials(&scene, 1);
    const aiColor4D diffuse(1.0f, 0.5f, 0.0f, 1.0f);
    scene.mMaterials[0]->AddProperty(&diffuse, 1, AI_MATKEY_COLOR_DIFFUSE);
    const float opacity = 0.75f, reflectivity = 0.25f;
    scene.mMaterials[0]->AddProperty(&opacity, 1, AI_MATKEY_OPACITY);
    scene.mMaterials[0]->AddProperty(&reflectivity, 1, AI_MATKEY_REFLECTIVITY);
    const Bytes png = fixtures::DemoTileImage();
    scene.mNumTextures = 1;
    scene.mTextures = new aiTexture *[1] { new aiTexture() };
    scene.mTextures[0]->mWidth = static_cast<unsigned>(png.size());
    scene.mTextures[0]->pcData = new aiTexel[(png.size() + 3) / 4]();
    std::memcpy(scene.mTextures[0]->pcData, png.data(), png.size());
    std::strcpy(scene.mTextures[0]->achFormatHint, "png");
    const aiString path("*0");
    scene.mMaterials[0]->AddProperty(&path, AI_MATKEY_TEXTURE(aiTextureType_DIFFUSE, 0));

    ASSERT_EQ(Write(&scene, dir, "grid.rbxmx", "rbxmx"), "");
    // Two placements of one mesh with different scales and mirroring: two sidecars; one image.
    EXPECT_TRUE(std::filesystem::exists(dir / "grid_0.mesh"));
    EXPECT_TRUE(std::filesystem::exists(dir / "grid_1.mesh"));
    EXPECT_FALSE(std::filesystem::exists(dir / "grid_2.mesh"));
    EXPECT_EQ(test::ReadBytes(dir / "grid_tex0.png"), png);
    const Bytes mesh = test::ReadBytes(dir / "grid_0.mesh");
    EXPECT_EQ(std::string(mesh.begin(), mesh.begin() + 12), "version 4.00");

    const test::ImportResult back = ImportWithFolder(dir / "grid.rbxmx");
    ASSERT_TRUE(back) << back.error;
    ExpectSameGeometry(WorldGeometry(&scene), WorldGeometry(back.scene), 1e-4f);

    // The document: a model (META ExplicitAutoJoints), Root → Turned/Plain Models → MeshParts named after the mesh.
    const Bytes xml = test::ReadBytes(dir / "grid.rbxmx");
    const rbx::Document doc = rbx::ReadDocument(xml.data(), xml.size());
    ASSERT_EQ(doc.meta.size(), 1u);
    EXPECT_EQ(doc.meta[0], (std::pair<std::string, std::string>("ExplicitAutoJoints", "true")));
    std::vector<std::uint32_t> parts;
    for (std::uint32_t i = 0; i < doc.instances.size(); ++i)
        if (doc.className(doc.instances[i]) == "MeshPart") parts.push_back(i);
    ASSERT_EQ(parts.size(), 2u);
    const rbx::Instance &turnedPart = doc.instances[parts[0]];
    EXPECT_EQ(turnedPart.name, "Floor");
    EXPECT_EQ(doc.instances[turnedPart.parent].name, "Turned");
    const auto prop = [&](const rbx::Instance &inst, const char *name) -> const rbx::Value & {
        const rbx::Property *p = doc.findProperty(inst, name);
        EXPECT_NE(p, nullptr) << name;
        return p->value;
    };
    const auto &colour = prop(turnedPart, "Color3uint8").as<rbx::Color3uint8>();
    EXPECT_EQ(colour.r, 255);
    EXPECT_EQ(colour.g, 128);
    EXPECT_EQ(colour.b, 0);
    EXPECT_FLOAT_EQ(prop(turnedPart, "Transparency").as<float>(), 0.25f);
    EXPECT_FLOAT_EQ(prop(turnedPart, "Reflectance").as<float>(), 0.25f);
    EXPECT_EQ(prop(turnedPart, "Material").as<rbx::EnumValue>().value, 272u);
    EXPECT_EQ(prop(turnedPart, "MeshId").as<std::string>(), "rbxasset://grid_0.mesh");
    EXPECT_EQ(prop(turnedPart, "TextureID").as<std::string>(), "rbxasset://grid_tex0.png");
    // The rotation: orthonormal, proper (the mirror went into the sidecar), x axis along (0, 0, -1).
    const auto &frame = prop(turnedPart, "CFrame").as<rbx::CFrame>();
    // x = (0, 0, -1), y = (0, 1, 0), z = x × y = (1, 0, 0): rows (R00 R01 R02) = (0 0 1), (0 1 0), (-1 0 0).
    const std::array<float, 9> want{0, 0, 1, 0, 1, 0, -1, 0, 0};
    for (std::size_t i = 0; i < 9; ++i) EXPECT_NEAR(frame.rotation[i], want[i], 1e-6) << i;
    const float det =
        frame.rotation[0] * (frame.rotation[4] * frame.rotation[8] - frame.rotation[5] * frame.rotation[7]) -
        frame.rotation[1] * (frame.rotation[3] * frame.rotation[8] - frame.rotation[5] * frame.rotation[6]) +
        frame.rotation[2] * (frame.rotation[3] * frame.rotation[7] - frame.rotation[4] * frame.rotation[6]);
    EXPECT_NEAR(det, 1, 1e-5);
    // Size = InitialSize = the sidecar's extent: 3 × 2 (scaled x) by the grid's height by 3.
    const auto &size = prop(turnedPart, "size").as<rbx::Vector3>();
    EXPECT_NEAR(size.x, 6, 1e-5);
    EXPECT_NEAR(size.z, 3, 1e-5);
    const auto &initial = prop(turnedPart, "InitialSize").as<rbx::Vector3>();
    EXPECT_EQ(initial.x, size.x);
    EXPECT_EQ(initial.z, size.z);
}

// A skinned mesh keeps its bones through the sidecar: the imported MeshPart has two bones in bind pose and the
// same world vertices; the mesh version and URI prefix options are obeyed.
TEST(RbxGenericExport, SkinnedMeshAndOptions) {
    const auto dir = test::ScratchDir("rbx_generic_skinned");
    const test::ImportResult bar = test::ImportFile(test::TestDataDir() / "skinned-bar.mesh");
    ASSERT_TRUE(bar) << bar.error;
    Assimp::ExportProperties props;
    props.SetPropertyString(GAMEFMT_RBX_MESH_VERSION, "5.00");
    props.SetPropertyString(GAMEFMT_RBX_MESH_URI_PREFIX, "rbxasset://imported/");
    ASSERT_EQ(Write(bar.scene, dir, "bar.rbxm", "rbxm", &props), "");
    const Bytes mesh = test::ReadBytes(dir / "bar_0.mesh");
    EXPECT_EQ(std::string(mesh.begin(), mesh.begin() + 12), "version 5.00");
    std::filesystem::create_directories(dir / "imported");
    std::filesystem::rename(dir / "bar_0.mesh", dir / "imported" / "bar_0.mesh");

    const test::ImportResult back = ImportWithFolder(dir / "bar.rbxm");
    ASSERT_TRUE(back) << back.error;
    // Lengths: the .mesh scene says 28 cm per unit, so studs = units; the bar is 4 studs tall.
    ExpectSameGeometry(WorldGeometry(bar.scene), WorldGeometry(back.scene), 1e-4f);
    ASSERT_EQ(back.scene->mNumMeshes, 1u);
    const aiMesh *m = back.scene->mMeshes[0];
    ASSERT_EQ(m->mNumBones, 2u);
    const aiNode *holder = nullptr;
    std::vector<const aiNode *> stack{back.scene->mRootNode};
    while (!stack.empty()) {
        const aiNode *n = stack.back();
        stack.pop_back();
        if (n->mNumMeshes == 1) holder = n;
        for (unsigned i = 0; i < n->mNumChildren; ++i) stack.push_back(n->mChildren[i]);
    }
    ASSERT_NE(holder, nullptr);
    for (unsigned b = 0; b < 2; ++b) {
        const aiNode *bone = back.scene->mRootNode->FindNode(m->mBones[b]->mName);
        ASSERT_NE(bone, nullptr);
        const aiMatrix4x4 bind = test::GlobalTransform(bone) * m->mBones[b]->mOffsetMatrix,
                          want = test::GlobalTransform(holder);
        for (unsigned r = 0; r < 4; ++r)
            for (unsigned c = 0; c < 4; ++c) EXPECT_NEAR(bind[r][c], want[r][c], 1e-4);
    }
    // A bad version is an error naming the option.
    props.SetPropertyString(GAMEFMT_RBX_MESH_VERSION, "3.01");
    const std::string error = Write(bar.scene, dir, "bad.rbxm", "rbxm", &props);
    EXPECT_NE(error.find("GAMEFMT_RBX_MESH_VERSION must be 2.00 to 7.00 or auto, not '3.01'"), std::string::npos)
        << error;
}

} // namespace
} // namespace gamefmt
