// gamefmt's glTF writer (assimp_glue/gltf/writer.hpp) on hand-built scenes, checked against the glTF 2.0
// specification and docs/gltf.md: skins (skinned meshes at the root without a
// transform, one JOINTS/WEIGHTS set per 4 influences, weights normalised the way the validator sums them,
// inverse bind matrices that give the identity in the bind pose), morph targets (deltas, targetNames, equal
// counts per primitive), node and weight animations, metadata as extras, units, determinism, and the way back
// through Assimp's own glTF importer.
#include "assimp_glue/gltf/extras.hpp"
#include "assimp_glue/gltf/writer.hpp"
#include "cli/mini_json.hpp"
#include "gamefmt/metadata.hpp"
#include "support/import_helpers.hpp"
#include "support/scene_build.hpp"

#include <assimp/GltfMaterial.h>
#include <assimp/scene.h>
#include <draco/compression/decode.h>
#include <gtest/gtest.h>
#include <meshoptimizer.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace gamefmt {
namespace {

namespace json = test::json;

struct Glb {
    std::string bytes;
    json::Value doc;
    std::string bin;
    glue::GltfWriteReport report;
};

std::uint32_t U32(const std::string &bytes, std::size_t at) {
    std::uint32_t v = 0;
    for (int k = 3; k >= 0; --k) v = (v << 8) | static_cast<unsigned char>(bytes[at + k]);
    return v;
}

Glb Write(const aiScene &scene, glue::GltfOptions options = {}) {
    Glb out;
    out.report = glue::WriteGltf(scene, options, "x.glb", "x.bin", [&out](const std::string &) {
        return glue::ByteSink([&out](const char *data, std::size_t size) { out.bytes.append(data, size); });
    });
    const std::uint32_t jsonLength = U32(out.bytes, 12);
    json::Parser parser(out.bytes.substr(20, jsonLength));
    const std::optional<json::Value> doc = parser.parse();
    EXPECT_TRUE(doc) << parser.error();
    if (doc) out.doc = *doc;
    const std::size_t binAt = 20 + jsonLength;
    if (binAt < out.bytes.size()) out.bin = out.bytes.substr(binAt + 8, U32(out.bytes, binAt));
    return out;
}

const json::Value &Item(const Glb &g, const char *array, double index) {
    return g.doc.get(array)->items.at(static_cast<std::size_t>(index));
}

// The accessor's elements as numbers (float, unsigned byte or short), tightly packed.
std::vector<double> Read(const Glb &g, double accessorIndex) {
    const json::Value &a = Item(g, "accessors", accessorIndex);
    const json::Value &view = Item(g, "bufferViews", a.get("bufferView")->number);
    static const std::map<std::string, int> kComponents = {
        {"SCALAR", 1}, {"VEC2", 2}, {"VEC3", 3}, {"VEC4", 4}, {"MAT4", 16}};
    const std::size_t n = static_cast<std::size_t>(a.get("count")->number) * kComponents.at(a.get("type")->text);
    const auto type = static_cast<int>(a.get("componentType")->number);
    std::size_t at = static_cast<std::size_t>(view.get("byteOffset")->number);
    std::vector<double> out;
    for (std::size_t i = 0; i < n; ++i) {
        if (type == 5126) {
            float f = 0;
            std::memcpy(&f, g.bin.data() + at, 4);
            out.push_back(f);
            at += 4;
        } else if (type == 5121) {
            out.push_back(static_cast<unsigned char>(g.bin[at++]));
        } else {
            std::uint16_t s = 0;
            std::memcpy(&s, g.bin.data() + at, 2);
            out.push_back(s);
            at += 2;
        }
    }
    return out;
}

const json::Value *NodeNamed(const Glb &g, const std::string &name, std::size_t *index = nullptr) {
    const std::vector<json::Value> &nodes = g.doc.get("nodes")->items;
    for (std::size_t i = 0; i < nodes.size(); ++i)
        if (const json::Value *n = nodes[i].get("name"); n != nullptr && n->text == name) {
            if (index != nullptr) *index = i;
            return &nodes[i];
        }
    return nullptr;
}

aiMatrix4x4 MatrixOf(const json::Value &node) {
    const json::Value *m = node.get("matrix");
    if (m == nullptr) return aiMatrix4x4();
    std::vector<float> v;
    for (const json::Value &x : m->items) v.push_back(static_cast<float>(x.number));
    return aiMatrix4x4(v[0], v[4], v[8], v[12], v[1], v[5], v[9], v[13], v[2], v[6], v[10], v[14], v[3], v[7], v[11],
                       v[15]);
}

aiMatrix4x4 FromColumnMajor(const double *m) {
    float f[16];
    for (int i = 0; i < 16; ++i) f[i] = static_cast<float>(m[i]);
    return aiMatrix4x4(f[0], f[4], f[8], f[12], f[1], f[5], f[9], f[13], f[2], f[6], f[10], f[14], f[3], f[7], f[11],
                       f[15]);
}

// The global transform of node `index` from the written hierarchy.
aiMatrix4x4 GlobalOf(const Glb &g, std::size_t index) {
    const std::vector<json::Value> &nodes = g.doc.get("nodes")->items;
    for (std::size_t p = 0; p < nodes.size(); ++p)
        if (const json::Value *children = nodes[p].get("children"))
            for (const json::Value &c : children->items)
                if (static_cast<std::size_t>(c.number) == index) return GlobalOf(g, p) * MatrixOf(nodes[index]);
    return MatrixOf(nodes[index]);
}

aiNode *Node(const char *name, const aiVector3D &translation = {}) {
    auto *node = new aiNode(name);
    node->mTransformation.a4 = translation.x;
    node->mTransformation.b4 = translation.y;
    node->mTransformation.c4 = translation.z;
    return node;
}

aiMesh *Triangle(const char *name, float x = 0) {
    auto *mesh = new aiMesh;
    mesh->mName = name;
    mesh->mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
    mesh->mNumVertices = 3;
    mesh->mVertices = new aiVector3D[3]{{x, 0, 0}, {x + 1, 0, 0}, {x, 1, 0}};
    mesh->mNormals = new aiVector3D[3]{{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
    mesh->mNumFaces = 1;
    mesh->mFaces = new aiFace[1];
    mesh->mFaces[0].mNumIndices = 3;
    mesh->mFaces[0].mIndices = new unsigned[3]{0, 1, 2};
    return mesh;
}

// root → Body (at y = 1, a skinned triangle) and root → Armature → J0 → … → J4 (0.1 apart along +Y). Vertex 0
// has 5 influences 0.4/0.3/0.15/0.1/0.05; vertex 1 J0 at 0.5 (not normalised); vertex 2 none.
aiScene *SkinnedScene() {
    auto *scene = new aiScene;
    scene->mRootNode = Node("root");
    aiNode *body = Node("Body", {0, 1, 0});
    aiNode *armature = Node("Armature");
    test::AddChildren(scene->mRootNode, {body, armature});
    aiNode *parent = armature;
    std::vector<aiMatrix4x4> globals;
    aiMatrix4x4 global;
    for (int j = 0; j < 5; ++j) {
        aiNode *joint = Node(("J" + std::to_string(j)).c_str(), {0, 0.1f, 0});
        test::AddChildren(parent, {joint});
        global = global * joint->mTransformation;
        globals.push_back(global);
        parent = joint;
    }
    aiMesh *mesh = Triangle("BodyMesh");
    const aiMatrix4x4 meshGlobal = body->mTransformation;
    const float weights[5] = {0.4f, 0.3f, 0.15f, 0.1f, 0.05f};
    mesh->mNumBones = 5;
    mesh->mBones = new aiBone *[5];
    for (unsigned j = 0; j < 5; ++j) {
        auto *bone = new aiBone;
        bone->mName = "J" + std::to_string(j);
        aiMatrix4x4 inverse = globals[j];
        bone->mOffsetMatrix = inverse.Inverse() * meshGlobal; // J · offset = the mesh node's global: the bind pose
        bone->mNumWeights = j == 0 ? 2 : 1;
        bone->mWeights = new aiVertexWeight[bone->mNumWeights];
        bone->mWeights[0] = aiVertexWeight(0, weights[j]);
        if (j == 0) bone->mWeights[1] = aiVertexWeight(1, 0.5f);
        mesh->mBones[j] = bone;
    }
    test::SetMeshList(scene, {mesh});
    test::AddMaterials(scene, 1);
    test::SetMeshes(body, {0});
    return scene;
}

TEST(GltfWriter, SkinnedMeshMovesToTheRootWithItsTransformBakedIn) {
    const std::unique_ptr<aiScene> scene(SkinnedScene());
    const Glb g = Write(*scene);
    std::size_t body = 0;
    const json::Value *node = NodeNamed(g, "Body", &body);
    ASSERT_NE(node, nullptr);
    EXPECT_EQ(node->get("matrix"), nullptr);
    ASSERT_NE(node->get("skin"), nullptr);
    const std::vector<json::Value> &roots = g.doc.get("scenes")->items[0].get("nodes")->items;
    ASSERT_EQ(roots.size(), 2u);
    EXPECT_EQ(roots[0].number, 0);
    EXPECT_EQ(roots[1].number, static_cast<double>(body));
    for (const json::Value &child : g.doc.get("nodes")->items[0].get("children")->items)
        EXPECT_NE(child.number, static_cast<double>(body));
    // Positions carry Body's translation now.
    const json::Value &prim = Item(g, "meshes", node->get("mesh")->number).get("primitives")->items[0];
    EXPECT_EQ(Read(g, prim.get("attributes")->get("POSITION")->number),
              (std::vector<double>{0, 1, 0, 1, 1, 0, 0, 2, 0}));
    // One skin, joints J0..J4 in bone order; each joint's global transform times its IBM is the identity in
    // the bind pose.
    const json::Value &skin = Item(g, "skins", node->get("skin")->number);
    ASSERT_EQ(skin.get("joints")->items.size(), 5u);
    const std::vector<double> ibm = Read(g, skin.get("inverseBindMatrices")->number);
    for (std::size_t j = 0; j < 5; ++j) {
        const auto joint = static_cast<std::size_t>(skin.get("joints")->items[j].number);
        EXPECT_EQ(g.doc.get("nodes")->items[joint].get("name")->text, "J" + std::to_string(j));
        const double *m = ibm.data() + 16 * j;
        const aiMatrix4x4 inverseBind = FromColumnMajor(m);
        EXPECT_TRUE((GlobalOf(g, joint) * inverseBind).Equal(aiMatrix4x4(), 1e-5f)) << "J" << j;
    }
}

// The validator's rule (gltf-and-consumers.md §5.5): the float32 sum in slot order is 1 within 2e-7 per weight.
void ExpectNormalised(const std::vector<double> &w0, const std::vector<double> &w1, std::size_t vertex) {
    float sum = 0;
    int nonZero = 0;
    for (const std::vector<double> *set : {&w0, &w1})
        for (std::size_t k = 0; k < 4 && !set->empty(); ++k) {
            sum += static_cast<float>((*set)[vertex * 4 + k]);
            nonZero += (*set)[vertex * 4 + k] != 0;
        }
    EXPECT_LE(std::fabs(sum - 1.0f), 2e-7f * static_cast<float>(nonZero)) << "vertex " << vertex;
}

TEST(GltfWriter, InfluencesAreSortedCappedAndNormalised) {
    const std::unique_ptr<aiScene> scene(SkinnedScene());
    for (const unsigned limit : {8u, 4u}) {
        glue::GltfOptions options;
        options.maxInfluences = limit;
        const Glb g = Write(*scene, options);
        EXPECT_EQ(g.report.unweightedVertices, 1u);
        EXPECT_EQ(g.report.trimmedVertices, limit == 4 ? 1u : 0u);
        const json::Value &attributes = *Item(g, "meshes", 0).get("primitives")->items[0].get("attributes");
        const std::vector<double> j0 = Read(g, attributes.get("JOINTS_0")->number);
        const std::vector<double> w0 = Read(g, attributes.get("WEIGHTS_0")->number);
        EXPECT_EQ(std::vector<double>(j0.begin(), j0.begin() + 4), (std::vector<double>{0, 1, 2, 3}));
        EXPECT_EQ(std::vector<double>(j0.begin() + 4, j0.end()), (std::vector<double>{0, 0, 0, 0, 0, 0, 0, 0}));
        // Vertex 1: J0 alone at 1; vertex 2 (no weight): J0 at 1; unused slots (0, 0).
        EXPECT_EQ(std::vector<double>(w0.begin() + 4, w0.end()), (std::vector<double>{1, 0, 0, 0, 1, 0, 0, 0}));
        std::vector<double> w1;
        if (limit == 8) {
            ASSERT_NE(attributes.get("JOINTS_1"), nullptr);
            EXPECT_EQ(Read(g, attributes.get("JOINTS_1")->number),
                      (std::vector<double>{4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}));
            w1 = Read(g, attributes.get("WEIGHTS_1")->number);
            EXPECT_NEAR(w1[0], 0.05, 1e-7);
            EXPECT_NEAR(w0[1], 0.3, 1e-7);
        } else {
            EXPECT_EQ(attributes.get("JOINTS_1"), nullptr);
            EXPECT_NEAR(w0[1], 0.3 / 0.95, 1e-7); // the 4 heaviest, renormalised
            EXPECT_NEAR(w0[3], 0.1 / 0.95, 1e-7);
        }
        for (std::size_t v = 0; v < 3; ++v) ExpectNormalised(w0, w1, v);
    }
}

TEST(GltfWriter, UnitScaleKeepsTheBindPose) {
    const std::unique_ptr<aiScene> scene(SkinnedScene());
    MetadataBuilder md;
    md.add("UnitScaleFactor", 28.0);
    scene->mMetaData = md.build();
    const Glb g = Write(*scene);
    EXPECT_DOUBLE_EQ(g.report.unitScale, 0.28);
    std::size_t body = 0;
    const json::Value *node = NodeNamed(g, "Body", &body);
    ASSERT_NE(node, nullptr);
    const std::vector<double> p =
        Read(g, Item(g, "meshes", 0).get("primitives")->items[0].get("attributes")->get("POSITION")->number);
    EXPECT_NEAR(p[4], 0.28, 1e-7); // vertex 1 at (1, 1, 0) units = (0.28, 0.28, 0) m
    EXPECT_NEAR(p[3], 0.28, 1e-7);
    std::size_t j4 = 0;
    ASSERT_NE(NodeNamed(g, "J4", &j4), nullptr);
    EXPECT_NEAR(GlobalOf(g, j4).b4, 0.5 * 0.28, 1e-6);
    const json::Value &skin = Item(g, "skins", 0);
    const std::vector<double> ibm = Read(g, skin.get("inverseBindMatrices")->number);
    const double *m = ibm.data() + 16 * 4;
    const aiMatrix4x4 inverseBind = FromColumnMajor(m);
    EXPECT_TRUE((GlobalOf(g, j4) * inverseBind).Equal(aiMatrix4x4(), 1e-5f));

    glue::GltfOptions keep;
    keep.keepUnits = true;
    const Glb studs = Write(*scene, keep);
    EXPECT_DOUBLE_EQ(studs.report.unitScale, 1.0);
    EXPECT_EQ(
        Read(studs, Item(studs, "meshes", 0).get("primitives")->items[0].get("attributes")->get("POSITION")->number)[4],
        1.0);
}

// Box (meshes BoxMesh with targets Smile and Blink, Lid without) and an animation "talk" at 10 ticks/s: a morph
// channel on BoxMesh and a node channel on Box.
aiScene *MorphScene() {
    auto *scene = new aiScene;
    scene->mRootNode = Node("root");
    aiNode *box = Node("Box");
    test::AddChildren(scene->mRootNode, {box});
    aiMesh *mesh = Triangle("BoxMesh");
    mesh->mMethod = aiMorphingMethod_MORPH_NORMALIZED;
    mesh->mNumAnimMeshes = 2;
    mesh->mAnimMeshes = new aiAnimMesh *[2];
    for (unsigned k = 0; k < 2; ++k) {
        auto *target = new aiAnimMesh;
        target->mName = k == 0 ? "Smile" : "Blink";
        target->mNumVertices = 3;
        target->mVertices = new aiVector3D[3];
        for (unsigned v = 0; v < 3; ++v)
            target->mVertices[v] = mesh->mVertices[v] + aiVector3D(0, 0, k == 0 ? 1.0f : -2.0f);
        target->mWeight = k == 0 ? 0.25f : 0.0f;
        mesh->mAnimMeshes[k] = target;
    }
    test::SetMeshList(scene, {mesh, Triangle("Lid", 5)});
    test::AddMaterials(scene, 1);
    test::SetMeshes(box, {0, 1});

    auto *anim = new aiAnimation;
    anim->mName = "talk";
    anim->mTicksPerSecond = 10;
    anim->mDuration = 10;
    anim->mNumMorphMeshChannels = 1;
    anim->mMorphMeshChannels = new aiMeshMorphAnim *[1];
    auto *morph = new aiMeshMorphAnim;
    morph->mName = "BoxMesh";
    morph->mNumKeys = 4;
    morph->mKeys = new aiMeshMorphKey[4];
    const double times[4] = {0, 5, 5, 10}; // the second key at 5 is out of order: left out
    const std::vector<std::vector<double>> weights = {{1, 0}, {0, 1}, {1, 1}, {0.5, 0.5}};
    for (unsigned k = 0; k < 4; ++k) {
        aiMeshMorphKey &key = morph->mKeys[k];
        key.mTime = times[k];
        key.mNumValuesAndWeights = 2;
        key.mValues = new unsigned[2]{0, 1};
        key.mWeights = new double[2]{weights[k][0], weights[k][1]};
    }
    anim->mMorphMeshChannels[0] = morph;
    anim->mNumChannels = 1;
    anim->mChannels = new aiNodeAnim *[1];
    auto *channel = new aiNodeAnim;
    channel->mNodeName = "Box";
    channel->mNumPositionKeys = 2;
    channel->mPositionKeys = new aiVectorKey[2]{aiVectorKey(0, {0, 0, 0}), aiVectorKey(10, {1, 2, 3})};
    channel->mNumRotationKeys = 1;
    channel->mRotationKeys = new aiQuatKey[1]{aiQuatKey(0, aiQuaternion(2, 0, 0, 0))};
    anim->mChannels[0] = channel;
    scene->mNumAnimations = 1;
    scene->mAnimations = new aiAnimation *[1] { anim };
    return scene;
}

// MorphScene with its Box meshes replaced by 32 x 32 grids (BoxMesh keeps two targets lifting its rows).
aiScene *BigMorphScene() {
    aiScene *scene = MorphScene();
    aiMesh *grid = test::GridMesh(32, 1.0f, "BoxMesh");
    grid->mNumAnimMeshes = 2;
    grid->mAnimMeshes = new aiAnimMesh *[2];
    for (unsigned k = 0; k < 2; ++k) {
        auto *target = new aiAnimMesh;
        target->mName = k == 0 ? "Smile" : "Blink";
        target->mNumVertices = grid->mNumVertices;
        target->mVertices = new aiVector3D[grid->mNumVertices];
        for (unsigned v = 0; v < grid->mNumVertices; ++v)
            target->mVertices[v] = grid->mVertices[v] + aiVector3D(0, (v / 32) % 2 == k ? 0.5f : 0.0f, 0);
        grid->mAnimMeshes[k] = target;
    }
    delete scene->mMeshes[0];
    delete scene->mMeshes[1];
    scene->mMeshes[0] = grid;
    scene->mMeshes[1] = test::GridMesh(32, 1.0f, "Lid");
    return scene;
}

TEST(GltfWriter, MorphTargetsAreDeltasWithTheirNames) {
    const std::unique_ptr<aiScene> scene(MorphScene());
    const Glb g = Write(*scene);
    ASSERT_EQ(g.doc.get("meshes")->items.size(), 1u);
    const json::Value &mesh = Item(g, "meshes", 0);
    const std::vector<json::Value> &names = mesh.get("extras")->get("targetNames")->items;
    ASSERT_EQ(names.size(), 2u);
    EXPECT_EQ(names[0].text, "Smile");
    EXPECT_EQ(names[1].text, "Blink");
    EXPECT_EQ(mesh.get("weights")->items[0].number, 0.25);
    EXPECT_EQ(mesh.get("weights")->items[1].number, 0);
    // Both primitives have 2 targets (Lid's are zero: MESH_PRIMITIVES_UNEQUAL_TARGETS_COUNT otherwise).
    const std::vector<json::Value> &prims = mesh.get("primitives")->items;
    ASSERT_EQ(prims.size(), 2u);
    ASSERT_EQ(prims[0].get("targets")->items.size(), 2u);
    ASSERT_EQ(prims[1].get("targets")->items.size(), 2u);
    EXPECT_EQ(Read(g, prims[0].get("targets")->items[1].get("POSITION")->number),
              (std::vector<double>{0, 0, -2, 0, 0, -2, 0, 0, -2}));
    const json::Value &blinkMin =
        *Item(g, "accessors", prims[0].get("targets")->items[1].get("POSITION")->number).get("min");
    EXPECT_EQ(blinkMin.items[2].number, -2);
    EXPECT_EQ(Read(g, prims[1].get("targets")->items[0].get("POSITION")->number), std::vector<double>(9, 0.0));
}

TEST(GltfWriter, NodeAndWeightAnimations) {
    const std::unique_ptr<aiScene> scene(MorphScene());
    const Glb g = Write(*scene);
    EXPECT_EQ(g.report.droppedKeys, 1u);
    ASSERT_EQ(g.doc.get("animations")->items.size(), 1u);
    const json::Value &anim = Item(g, "animations", 0);
    EXPECT_EQ(anim.get("name")->text, "talk");
    std::size_t box = 0;
    ASSERT_NE(NodeNamed(g, "Box", &box), nullptr);
    std::map<std::string, std::pair<std::vector<double>, std::vector<double>>> byPath;
    for (const json::Value &channel : anim.get("channels")->items) {
        EXPECT_EQ(channel.get("target")->get("node")->number, static_cast<double>(box));
        const json::Value &sampler =
            anim.get("samplers")->items.at(static_cast<std::size_t>(channel.get("sampler")->number));
        EXPECT_EQ(sampler.get("interpolation")->text, "LINEAR");
        byPath[channel.get("target")->get("path")->text] = {Read(g, sampler.get("input")->number),
                                                            Read(g, sampler.get("output")->number)};
    }
    ASSERT_EQ(byPath.size(), 3u);
    EXPECT_EQ(byPath["weights"].first, (std::vector<double>{0, 0.5, 1}));
    EXPECT_EQ(byPath["weights"].second, (std::vector<double>{1, 0, 0, 1, 0.5, 0.5})); // keys × targets
    EXPECT_EQ(byPath["translation"].first, (std::vector<double>{0, 1}));
    EXPECT_EQ(byPath["translation"].second, (std::vector<double>{0, 0, 0, 1, 2, 3}));
    EXPECT_EQ(byPath["rotation"].second, (std::vector<double>{0, 0, 0, 1})); // x y z w, normalised
    // Time accessors have min and max.
    const json::Value &input = Item(g, "accessors", anim.get("samplers")->items[0].get("input")->number);
    ASSERT_NE(input.get("min"), nullptr);
    ASSERT_NE(input.get("max"), nullptr);
}

TEST(GltfWriter, AssimpReadsSkinsMorphNamesAndChannelsBack) {
    const std::unique_ptr<aiScene> skinned(SkinnedScene());
    const Glb s = Write(*skinned);
    const test::ImportResult back =
        test::ImportMemory(std::vector<std::uint8_t>(s.bytes.begin(), s.bytes.end()), "glb");
    ASSERT_TRUE(back) << back.error;
    const aiNode *body = back.scene->mRootNode->FindNode("Body");
    ASSERT_NE(body, nullptr);
    ASSERT_EQ(body->mNumMeshes, 1u);
    EXPECT_EQ(back.scene->mMeshes[body->mMeshes[0]]->mNumBones, 5u);

    const std::unique_ptr<aiScene> morph(MorphScene());
    const Glb m = Write(*morph);
    const test::ImportResult again =
        test::ImportMemory(std::vector<std::uint8_t>(m.bytes.begin(), m.bytes.end()), "glb");
    ASSERT_TRUE(again) << again.error;
    const aiMesh *mesh = again.scene->mMeshes[0];
    ASSERT_EQ(mesh->mNumAnimMeshes, 2u);
    EXPECT_STREQ(mesh->mAnimMeshes[0]->mName.C_Str(), "Smile");
    EXPECT_STREQ(mesh->mAnimMeshes[1]->mName.C_Str(), "Blink");
    ASSERT_EQ(again.scene->mNumAnimations, 1u);
    EXPECT_EQ(again.scene->mAnimations[0]->mNumMorphMeshChannels, 1u);
    EXPECT_EQ(again.scene->mAnimations[0]->mNumChannels, 1u);
}

TEST(GltfWriter, MetadataBecomesExtras) {
    const std::unique_ptr<aiScene> scene(MorphScene());
    MetadataBuilder node;
    node.add("flag", true);
    node.add("count", std::int32_t(-3));
    node.add("big", std::uint64_t(1) << 40);
    node.add("ratio", 0.5f);
    node.add("where", aiVector3D(1, 2, 3));
    node.add("rbx.props.Size", "Vector3:4 1.20000005 2");
    node.add("rbx.props.Anchored", "Bool:true");
    node.add("rbx.props.Name", "string:Brick 7");
    node.add("long", std::string(2500, 'x'));
    const std::uint8_t blob[3] = {1, 2, 3};
    node.addBlob("rbx.source", blob, 3);
    scene->mRootNode->mChildren[0]->mMetaData = node.build();
    MetadataBuilder sceneMd;
    sceneMd.add("SourceAsset_Copyright", "CC0 by someone");
    sceneMd.add("SourceAsset_Format", "test");
    scene->mMetaData = sceneMd.build();
    const Glb g = Write(*scene);
    const json::Value *extras = NodeNamed(g, "Box")->get("extras");
    ASSERT_NE(extras, nullptr);
    EXPECT_TRUE(extras->get("flag")->boolean);
    EXPECT_EQ(extras->get("count")->number, -3);
    EXPECT_EQ(extras->get("big")->number, 1099511627776.0);
    EXPECT_EQ(extras->get("ratio")->number, 0.5);
    EXPECT_EQ(extras->get("where")->items.size(), 3u);
    const std::vector<json::Value> &size = extras->get("rbx.props.Size")->items;
    ASSERT_EQ(size.size(), 3u);
    EXPECT_EQ(size[1].number, 1.20000005);
    EXPECT_TRUE(extras->get("rbx.props.Anchored")->boolean);
    EXPECT_EQ(extras->get("rbx.props.Name")->text, "Brick 7");
    EXPECT_EQ(extras->get("long")->text.size(), 2500u); // the codec's long form, joined
    EXPECT_EQ(extras->get("rbx.source"), nullptr);      // blobs stay out
    EXPECT_EQ(g.doc.get("asset")->get("copyright")->text, "CC0 by someone");
    EXPECT_EQ(g.doc.get("asset")->get("extras")->get("SourceAsset_Format")->text, "test");
}

TEST(GltfWriter, RobloxPropertiesAreTyped) {
    EXPECT_EQ(glue::RobloxPropertyJson("Vector3:4 1.20000005 2"), "[4,1.20000005,2]");
    EXPECT_EQ(glue::RobloxPropertyJson("CFrame:1 2 3 1 0 0 0 1 0 0 0 1"), "[1,2,3,1,0,0,0,1,0,0,0,1]");
    EXPECT_EQ(glue::RobloxPropertyJson("Float32:0.5"), "0.5");
    EXPECT_EQ(glue::RobloxPropertyJson("Float32:NAN"), "\"NAN\"");
    EXPECT_EQ(glue::RobloxPropertyJson("Int64:-12"), "-12");
    EXPECT_EQ(glue::RobloxPropertyJson("Bool:false"), "false");
    EXPECT_EQ(glue::RobloxPropertyJson("Vector3:1 INF 2"), "\"1 INF 2\"");
    EXPECT_EQ(glue::RobloxPropertyJson("Content:rbxassetid://5"), "\"rbxassetid://5\"");
    EXPECT_EQ(glue::RobloxPropertyJson("Ref:null"), "\"null\"");
    EXPECT_EQ(glue::RobloxPropertyJson("no type"), "\"no type\"");
}

TEST(GltfWriter, SameSceneSameBytes) {
    for (aiScene *raw : {SkinnedScene(), MorphScene()}) {
        const std::unique_ptr<aiScene> scene(raw);
        EXPECT_EQ(Write(*scene).bytes, Write(*scene).bytes);
    }
}

TEST(GltfWriter, EmptySceneHasNoBuffers) {
    aiScene scene;
    scene.mRootNode = Node("only");
    const Glb g = Write(scene);
    EXPECT_TRUE(g.report.noGeometry);
    EXPECT_EQ(g.doc.get("buffers"), nullptr);
    EXPECT_EQ(g.doc.get("accessors"), nullptr);
    EXPECT_EQ(g.bytes.size(), 20u + U32(g.bytes, 12)); // no BIN chunk
}

} // namespace
} // namespace gamefmt

namespace gamefmt {
namespace {

std::string ViewBytes(const Glb &g, const json::Value &view) {
    return g.bin.substr(static_cast<std::size_t>(view.get("byteOffset")->number),
                        static_cast<std::size_t>(view.get("byteLength")->number));
}

TEST(GltfWriter, MeshoptViewsDecodeToTheUncompressedBytes) {
    for (aiScene *raw : {BigMorphScene(), SkinnedScene()}) {
        const std::unique_ptr<aiScene> scene(raw);
        const Glb plain = Write(*scene);
        glue::GltfOptions options;
        options.meshopt = true;
        const Glb packed = Write(*scene, options);
        if (scene->mMeshes[0]->mNumVertices < 100) { // nothing worth encoding: the file stays plain
            EXPECT_EQ(packed.bytes, plain.bytes);
            continue;
        }
        ASSERT_EQ(packed.doc.get("buffers")->items.size(), 2u);
        EXPECT_LT(packed.bytes.size(), plain.bytes.size());
        const json::Value &fallback = packed.doc.get("buffers")->items[1];
        EXPECT_EQ(fallback.get("uri"), nullptr);
        EXPECT_TRUE(fallback.get("extensions")->get("EXT_meshopt_compression")->get("fallback")->boolean);
        EXPECT_EQ(packed.doc.get("extensionsRequired")->items[0].text, "EXT_meshopt_compression");
        const std::vector<json::Value> &views = packed.doc.get("bufferViews")->items;
        ASSERT_EQ(views.size(), plain.doc.get("bufferViews")->items.size());
        std::size_t encoded = 0;
        for (std::size_t i = 0; i < views.size(); ++i) {
            const std::string expected = ViewBytes(plain, plain.doc.get("bufferViews")->items[i]);
            const json::Value *ext = views[i].get("extensions");
            if (ext == nullptr) {
                EXPECT_EQ(views[i].get("buffer")->number, 0);
                EXPECT_EQ(ViewBytes(packed, views[i]), expected) << i;
                continue;
            }
            ++encoded;
            const json::Value &m = *ext->get("EXT_meshopt_compression");
            EXPECT_EQ(views[i].get("buffer")->number, 1);
            const std::string data = ViewBytes(packed, m);
            const auto count = static_cast<std::size_t>(m.get("count")->number);
            const auto stride = static_cast<std::size_t>(m.get("byteStride")->number);
            std::string decoded(count * stride, '\0');
            const auto *in = reinterpret_cast<const unsigned char *>(data.data());
            int rc = -1;
            if (m.get("mode")->text == "ATTRIBUTES")
                rc = meshopt_decodeVertexBuffer(decoded.data(), count, stride, in, data.size());
            else if (m.get("mode")->text == "TRIANGLES")
                rc = meshopt_decodeIndexBuffer(decoded.data(), count, stride, in, data.size());
            else
                rc = meshopt_decodeIndexSequence(decoded.data(), count, stride, in, data.size());
            EXPECT_EQ(rc, 0) << i;
            EXPECT_EQ(decoded, expected) << "view " << i << " (" << m.get("mode")->text << ")";
        }
        EXPECT_GE(encoded, 4u);
    }
}

TEST(GltfWriter, DracoPrimitivesDecodeToTheGeometry) {
    auto *raw = new aiScene;
    raw->mRootNode = Node("root");
    aiMesh *mesh = test::GridMesh(16, 1.0f, "Field");
    { // one more triangle touching the grid only at its corner vertex 0: a non-manifold vertex, which Draco's
      // edgebreaker splits, so the decoded points (what every accessor of the primitive must count) are 259
        const auto grow = [](aiVector3D *&array, const aiVector3D &a, const aiVector3D &b) {
            auto *bigger = new aiVector3D[258];
            std::copy(array, array + 256, bigger);
            bigger[256] = a;
            bigger[257] = b;
            delete[] array;
            array = bigger;
        };
        grow(mesh->mVertices, {-1, 0, -2}, {-2, 0, -1});
        grow(mesh->mNormals, {0, 1, 0}, {0, 1, 0});
        grow(mesh->mTextureCoords[0], {0, 0, 0}, {0, 0, 0});
        mesh->mNumVertices = 258;
        auto *faces = new aiFace[mesh->mNumFaces + 1];
        for (unsigned f = 0; f < mesh->mNumFaces; ++f) std::swap(faces[f], mesh->mFaces[f]);
        faces[mesh->mNumFaces].mNumIndices = 3;
        faces[mesh->mNumFaces].mIndices = new unsigned[3]{0, 257, 256};
        delete[] mesh->mFaces;
        mesh->mFaces = faces;
        ++mesh->mNumFaces;
    }
    aiMesh *morph = Triangle("Morph"); // one morph target: every primitive of the mesh then needs one
    morph->mNumAnimMeshes = 1;
    morph->mAnimMeshes = new aiAnimMesh *[1] { new aiAnimMesh };
    morph->mAnimMeshes[0]->mNumVertices = 3;
    morph->mAnimMeshes[0]->mVertices = new aiVector3D[3]{{0, 0, 1}, {1, 0, 1}, {0, 1, 1}};
    test::SetMeshList(raw, {mesh, Triangle("Tiny"), morph});
    test::AddMaterials(raw, 1);
    test::SetMeshes(raw->mRootNode, {0, 1, 2});
    const std::unique_ptr<aiScene> scene(raw);
    glue::GltfOptions options;
    options.draco = true;
    const Glb g = Write(*scene, options);
    EXPECT_LT(g.bytes.size(), Write(*scene).bytes.size());
    // The triangle is too small for Draco to pay: it stays plain.
    EXPECT_EQ(Item(g, "meshes", 0).get("primitives")->items[1].get("extensions"), nullptr);
    EXPECT_EQ(g.doc.get("extensionsRequired")->items[0].text, "KHR_draco_mesh_compression");
    const json::Value &prim = Item(g, "meshes", 0).get("primitives")->items[0];
    const json::Value &ext = *prim.get("extensions")->get("KHR_draco_mesh_compression");
    EXPECT_EQ(Item(g, "accessors", prim.get("attributes")->get("POSITION")->number).get("bufferView"), nullptr);
    const std::string data = ViewBytes(g, Item(g, "bufferViews", ext.get("bufferView")->number));
    draco::DecoderBuffer in;
    in.Init(data.data(), data.size());
    draco::Decoder decoder;
    auto decoded = decoder.DecodeMeshFromBuffer(&in);
    ASSERT_TRUE(decoded.ok());
    const draco::Mesh &dm = *decoded.value();
    EXPECT_EQ(dm.num_faces(), mesh->mNumFaces);
    ASSERT_EQ(dm.num_points(), 259u);
    EXPECT_EQ(Item(g, "accessors", prim.get("attributes")->get("POSITION")->number).get("count")->number, 259);
    // The Draco primitive's zero morph target has as many elements as its (decoded) POSITION.
    ASSERT_EQ(prim.get("targets")->items.size(), 1u);
    EXPECT_EQ(Item(g, "accessors", prim.get("targets")->items[0].get("POSITION")->number).get("count")->number,
              dm.num_points());
    const draco::PointAttribute *position =
        dm.GetAttributeByUniqueId(static_cast<std::uint32_t>(ext.get("attributes")->get("POSITION")->number));
    const draco::PointAttribute *uv =
        dm.GetAttributeByUniqueId(static_cast<std::uint32_t>(ext.get("attributes")->get("TEXCOORD_0")->number));
    ASSERT_NE(position, nullptr);
    ASSERT_NE(uv, nullptr);
    // Each point keeps its position (14-bit quantisation) and its v-flipped UV, wherever Draco put it.
    for (std::uint32_t i = 0; i < dm.num_points(); ++i) {
        float p[3], t[2];
        position->GetMappedValue(draco::PointIndex(i), p);
        uv->GetMappedValue(draco::PointIndex(i), t);
        bool found = false;
        for (unsigned v = 0; v < mesh->mNumVertices && !found; ++v) {
            const aiVector3D &q = mesh->mVertices[v];
            if (std::fabs(p[0] - q.x) < 1e-3f && std::fabs(p[1] - q.y) < 1e-3f && std::fabs(p[2] - q.z) < 1e-3f) {
                found = true;
                EXPECT_NEAR(t[0], mesh->mTextureCoords[0][v].x, 1e-3);
                EXPECT_NEAR(t[1], 1 - mesh->mTextureCoords[0][v].y, 1e-3);
            }
        }
        EXPECT_TRUE(found) << "point " << i;
    }
}

} // namespace
} // namespace gamefmt

namespace gamefmt {
namespace {

TEST(GltfWriter, RobloxMeshGoesToMetresAndBackToStuds) {
    // A Roblox mesh states 28 cm per stud: its glb is in metres, and the Roblox mesh writer turns a scene Assimp
    // read from glTF back into studs, so .mesh -> .glb -> .mesh keeps the size.
    const test::ImportResult source = test::ImportFile(test::TestDataDir() / "skinned-bar.mesh");
    ASSERT_TRUE(source) << source.error;
    const aiMesh &original = *source.scene->mMeshes[0];
    const Glb g = Write(*source.scene);
    EXPECT_DOUBLE_EQ(g.report.unitScale, 0.28);
    const json::Value &accessor = Item(
        g, "accessors", Item(g, "meshes", 0).get("primitives")->items[0].get("attributes")->get("POSITION")->number);
    EXPECT_NEAR(accessor.get("max")->items[1].number, 4 * 0.28, 1e-6); // the bar is 4 studs tall
    const test::ImportResult glb = test::ImportMemory(std::vector<std::uint8_t>(g.bytes.begin(), g.bytes.end()), "glb");
    ASSERT_TRUE(glb) << glb.error;
    const test::Exported mesh = test::ExportScene(glb.scene, "rbxmesh");
    ASSERT_TRUE(mesh.ok) << mesh.error;
    const test::ImportResult back = test::ImportMemory(mesh.bytes, "mesh");
    ASSERT_TRUE(back) << back.error;
    const aiMesh &again = *back.scene->mMeshes[0];
    ASSERT_EQ(again.mNumVertices, original.mNumVertices);
    for (unsigned v = 0; v < original.mNumVertices; ++v)
        EXPECT_LT((again.mVertices[v] - original.mVertices[v]).Length(), 1e-5f) << v;
    EXPECT_EQ(again.mNumBones, original.mNumBones);
}

} // namespace
} // namespace gamefmt

namespace gamefmt {
namespace {

TEST(GltfWriter, EveryUvSetColourSetTangentAndTextureTransform) {
    auto *raw = new aiScene;
    raw->mRootNode = Node("root");
    aiMesh *mesh = Triangle("Tri");
    for (unsigned set = 0; set < 2; ++set) {
        mesh->mTextureCoords[set] = new aiVector3D[3]{{0, 0, 0}, {1, 0, 0}, {0, 0.25f * float(set + 1), 0}};
        mesh->mNumUVComponents[set] = 2;
    }
    mesh->mColors[0] = new aiColor4D[3]{{1, 0, 0, 1}, {0, 1, 0, 0.5f}, {2, -1, 0, 1}}; // clamped to [0, 1]
    mesh->mTangents = new aiVector3D[3]{{2, 0, 0}, {1, 0, 0}, {1, 0, 0}};              // unit length in the file
    mesh->mBitangents = new aiVector3D[3]{{0, 1, 0}, {0, -1, 0}, {0, 1, 0}};           // vertex 1 mirrored: w = -1
    test::SetMeshList(raw, {mesh});
    test::AddMaterials(raw, 1);
    test::SetMeshes(raw->mRootNode, {0});
    aiMaterial &material = *raw->mMaterials[0];
    const aiString file("wood.png");
    material.AddProperty(&file, AI_MATKEY_TEXTURE(aiTextureType_DIFFUSE, 0));
    const int second = 1;
    material.AddProperty(&second, 1, AI_MATKEY_UVWSRC(aiTextureType_DIFFUSE, 0));
    aiUVTransform transform;
    transform.mScaling = aiVector2D(4, 2);
    material.AddProperty(&transform, 1, AI_MATKEY_UVTRANSFORM(aiTextureType_DIFFUSE, 0));
    const int nearest = 9728, clamp = aiTextureMapMode_Clamp;
    material.AddProperty(&nearest, 1, AI_MATKEY_GLTF_MAPPINGFILTER_MAG(aiTextureType_DIFFUSE, 0));
    material.AddProperty(&clamp, 1, AI_MATKEY_MAPPINGMODE_U(aiTextureType_DIFFUSE, 0));
    const std::unique_ptr<aiScene> scene(raw);

    static const std::uint8_t kPng[] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n', 0, 0, 0, 0};
    glue::GltfOptions options;
    std::vector<std::string> asked;
    options.readFile = [&asked](const std::string &path, std::vector<std::uint8_t> &bytes) {
        asked.push_back(path);
        bytes.assign(std::begin(kPng), std::end(kPng));
        return true;
    };
    const Glb g = Write(*scene, options);
    EXPECT_EQ(asked, std::vector<std::string>{"wood.png"});
    const json::Value &attributes = *Item(g, "meshes", 0).get("primitives")->items[0].get("attributes");
    EXPECT_EQ(Read(g, attributes.get("TEXCOORD_1")->number), (std::vector<double>{0, 1, 1, 1, 0, 0.5}));
    EXPECT_EQ(Read(g, attributes.get("COLOR_0")->number), (std::vector<double>{1, 0, 0, 1, 0, 1, 0, 0.5, 1, 0, 0, 1}));
    EXPECT_EQ(Read(g, attributes.get("TANGENT")->number), (std::vector<double>{1, 0, 0, 1, 1, 0, 0, -1, 1, 0, 0, 1}));
    // The texture: the file's bytes embedded as PNG, on UV set 1, with its scale as KHR_texture_transform.
    const json::Value &info = *Item(g, "materials", 0).get("pbrMetallicRoughness")->get("baseColorTexture");
    EXPECT_EQ(info.get("texCoord")->number, 1);
    const json::Value &tt = *info.get("extensions")->get("KHR_texture_transform");
    EXPECT_EQ(tt.get("scale")->items[0].number, 4);
    EXPECT_EQ(tt.get("scale")->items[1].number, 2);
    const json::Value &sampler =
        Item(g, "samplers", Item(g, "textures", info.get("index")->number).get("sampler")->number);
    EXPECT_EQ(sampler.get("magFilter")->number, 9728);
    EXPECT_EQ(sampler.get("wrapS")->number, 33071);
    EXPECT_EQ(sampler.get("wrapT"), nullptr); // REPEAT, the default
    EXPECT_EQ(Item(g, "images", 0).get("mimeType")->text, "image/png");
    EXPECT_EQ(ViewBytes(g, Item(g, "bufferViews", Item(g, "images", 0).get("bufferView")->number)),
              std::string(std::begin(kPng), std::end(kPng)));
    // Assimp's glTF importer gives the same transform back (the inverse of its mapping is what is written).
    const test::ImportResult back =
        test::ImportMemory(std::vector<std::uint8_t>(g.bytes.begin(), g.bytes.end()), "glb");
    ASSERT_TRUE(back) << back.error;
    aiUVTransform read;
    ASSERT_EQ(back.scene->mMaterials[back.scene->mMeshes[0]->mMaterialIndex]->Get(
                  AI_MATKEY_UVTRANSFORM(aiTextureType_DIFFUSE, 0), read),
              AI_SUCCESS);
    EXPECT_NEAR(read.mScaling.x, 4, 1e-6);
    EXPECT_NEAR(read.mScaling.y, 2, 1e-6);
    EXPECT_NEAR(read.mTranslation.x, transform.mTranslation.x, 1e-5);
    EXPECT_NEAR(read.mTranslation.y, transform.mTranslation.y, 1e-5);
    EXPECT_NEAR(read.mRotation, 0, 1e-6);
}

} // namespace
} // namespace gamefmt
