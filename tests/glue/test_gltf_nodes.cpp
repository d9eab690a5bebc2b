// The streamed glTF writer for node-only scenes (assimp_glue/gltf/writer.hpp): layout checked against the
// glTF 2.0 specification (glb header and JSON chunk, column-major matrices, children by index), names made
// valid UTF-8 JSON strings, no recursion, output in bounded pieces.
#include "assimp_glue/gltf/writer.hpp"
#include "cli/mini_json.hpp"
#include "support/scene_build.hpp"

#include <assimp/scene.h>
#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace gamefmt {
namespace {

namespace json = test::json;

struct Written {
    std::string bytes;
    std::vector<std::size_t> pieces;
    std::size_t lost = 0;
};

Written Write(const aiScene &scene, bool binary) {
    Written w;
    w.lost = glue::WriteNodeOnlyGltf(scene, binary, [&w](const char *data, std::size_t size) {
        w.bytes.append(data, size);
        w.pieces.push_back(size);
    });
    return w;
}

json::Value Parse(const std::string &text) {
    json::Parser parser(text);
    const std::optional<json::Value> value = parser.parse();
    EXPECT_TRUE(value.has_value()) << parser.error();
    return value.value_or(json::Value{});
}

std::uint32_t U32(const std::string &bytes, std::size_t at) {
    std::uint32_t v = 0;
    for (int k = 3; k >= 0; --k) v = (v << 8) | static_cast<unsigned char>(bytes[at + k]);
    return v;
}

std::vector<double> Numbers(const json::Value *array) {
    std::vector<double> out;
    if (array != nullptr)
        for (const json::Value &item : array->items) out.push_back(item.number);
    return out;
}

// root -> "a" (translated by (1, 2, 3)) -> "b"; root -> "c".
aiScene *SmallScene() {
    auto *scene = new aiScene;
    scene->mRootNode = new aiNode("root");
    auto *a = new aiNode("a");
    auto *b = new aiNode("b");
    auto *c = new aiNode("c");
    a->mTransformation.a4 = 1;
    a->mTransformation.b4 = 2;
    a->mTransformation.c4 = 3;
    a->mTransformation.a2 = 0.5f; // a shear term: shows which way the matrix is written
    test::AddChildren(scene->mRootNode, {a, c});
    test::AddChildren(a, {b});
    return scene;
}

TEST(GltfNodes, TextHasTheNodesInBreadthFirstOrder) {
    const std::unique_ptr<aiScene> scene(SmallScene());
    ASSERT_TRUE(glue::IsNodeOnlyScene(*scene));
    const Written w = Write(*scene, false);
    EXPECT_EQ(w.lost, 0u);
    const json::Value doc = Parse(w.bytes);
    ASSERT_NE(doc.get("asset"), nullptr);
    EXPECT_EQ(doc.get("asset")->get("version")->text, "2.0");
    EXPECT_EQ(doc.get("scene")->number, 0);
    EXPECT_EQ(Numbers(doc.get("scenes")->items[0].get("nodes")), std::vector<double>{0});
    EXPECT_EQ(doc.get("buffers"), nullptr); // nothing to hold: no EMPTY_ENTITY
    EXPECT_EQ(doc.get("meshes"), nullptr);
    const json::Value *nodes = doc.get("nodes");
    ASSERT_NE(nodes, nullptr);
    ASSERT_EQ(nodes->items.size(), 4u);
    // Breadth-first: root, a, c, b.
    EXPECT_EQ(nodes->items[0].get("name")->text, "root");
    EXPECT_EQ(Numbers(nodes->items[0].get("children")), (std::vector<double>{1, 2}));
    EXPECT_EQ(nodes->items[1].get("name")->text, "a");
    EXPECT_EQ(Numbers(nodes->items[1].get("children")), std::vector<double>{3});
    EXPECT_EQ(nodes->items[2].get("name")->text, "c");
    EXPECT_EQ(nodes->items[3].get("name")->text, "b");
    EXPECT_EQ(nodes->items[2].get("children"), nullptr);
    EXPECT_EQ(nodes->items[0].get("matrix"), nullptr); // identity: omitted
    // Column-major (glTF 2.0 §5.25): translation in elements 12-14; row 0 column 1 (a2) is element 4.
    EXPECT_EQ(Numbers(nodes->items[1].get("matrix")),
              (std::vector<double>{1, 0, 0, 0, 0.5, 1, 0, 0, 0, 0, 1, 0, 1, 2, 3, 1}));
}

TEST(GltfNodes, GlbHasOneJsonChunkPaddedWithSpaces) {
    const std::unique_ptr<aiScene> scene(SmallScene());
    const std::string text = Write(*scene, false).bytes;
    const std::string glb = Write(*scene, true).bytes;
    ASSERT_GE(glb.size(), 20u);
    EXPECT_EQ(glb.substr(0, 4), "glTF");
    EXPECT_EQ(U32(glb, 4), 2u);
    EXPECT_EQ(U32(glb, 8), glb.size());
    const std::uint32_t chunk = U32(glb, 12);
    EXPECT_EQ(chunk % 4, 0u);
    EXPECT_EQ(chunk, glb.size() - 20); // no BIN chunk
    EXPECT_EQ(glb.substr(16, 4), "JSON");
    EXPECT_EQ(glb.substr(20, text.size()), text);
    EXPECT_EQ(glb.substr(20 + text.size()), std::string(chunk - text.size(), ' '));
    EXPECT_LT(chunk - text.size(), 4u);
}

TEST(GltfNodes, NamesBecomeValidUtf8JsonStrings) {
    aiScene scene;
    scene.mRootNode = new aiNode("root");
    const std::vector<std::string> raw = {std::string("quote\" back\\slash"),
                                          std::string("tab\tnul\0end", 11),
                                          "caf\xC3\xA9 \xF0\x9F\x98\x80",
                                          "bad \xFF byte",
                                          "overlong \xC0\xAF",
                                          "surrogate \xED\xA0\x80",
                                          "cut \xE2\x82"};
    std::vector<aiNode *> children;
    for (const std::string &name : raw) {
        auto *node = new aiNode;
        node->mName.Set(name);
        children.push_back(node);
    }
    test::AddChildren(scene.mRootNode, children);
    const json::Value doc = Parse(Write(scene, false).bytes);
    const json::Value *nodes = doc.get("nodes");
    ASSERT_NE(nodes, nullptr);
    ASSERT_EQ(nodes->items.size(), 8u);
    const std::string fffd = "\xEF\xBF\xBD";
    EXPECT_EQ(nodes->items[1].get("name")->text, "quote\" back\\slash");
    EXPECT_EQ(nodes->items[2].get("name")->text, std::string("tab\tnul\0end", 11));
    EXPECT_EQ(nodes->items[3].get("name")->text, "caf\xC3\xA9 \xF0\x9F\x98\x80");
    EXPECT_EQ(nodes->items[4].get("name")->text, "bad " + fffd + " byte");
    EXPECT_EQ(nodes->items[5].get("name")->text, "overlong " + fffd + fffd);
    EXPECT_EQ(nodes->items[6].get("name")->text, "surrogate " + fffd + fffd + fffd);
    EXPECT_EQ(nodes->items[7].get("name")->text, "cut " + fffd); // one maximal ill-formed subpart
}

TEST(GltfNodes, NonFiniteMatricesAreLeftOutAndCounted) {
    const std::unique_ptr<aiScene> scene(SmallScene());
    scene->mRootNode->mChildren[1]->mTransformation.b4 = std::numeric_limits<ai_real>::quiet_NaN();
    scene->mRootNode->mChildren[0]->mChildren[0]->mTransformation.c1 = std::numeric_limits<ai_real>::infinity();
    const Written w = Write(*scene, false);
    EXPECT_EQ(w.lost, 2u);
    const json::Value doc = Parse(w.bytes); // JSON has no NaN: it must still parse
    EXPECT_EQ(doc.get("nodes")->items[2].get("matrix"), nullptr);
    EXPECT_EQ(doc.get("nodes")->items[3].get("matrix"), nullptr);
    EXPECT_NE(doc.get("nodes")->items[1].get("matrix"), nullptr);
}

TEST(GltfNodes, DeepAndWideTreesStreamInBoundedPieces) {
    // A 100,000-deep chain (no recursion) beside 100,000 siblings with matrices: several MB of JSON.
    aiScene scene;
    scene.mRootNode = new aiNode("root");
    auto *chain = new aiNode("chain");
    auto *wide = new aiNode("wide");
    test::AddChildren(scene.mRootNode, {chain, wide});
    aiNode *at = chain;
    for (int i = 0; i < 100000; ++i) {
        auto *next = new aiNode("d" + std::to_string(i));
        test::AddChildren(at, {next});
        at = next;
    }
    std::vector<aiNode *> siblings;
    for (int i = 0; i < 100000; ++i) {
        auto *node = new aiNode("w" + std::to_string(i));
        node->mTransformation.a4 = static_cast<ai_real>(i);
        siblings.push_back(node);
    }
    test::AddChildren(wide, siblings);
    const Written w = Write(scene, true);
    ASSERT_GT(w.bytes.size(), 5000000u);
    ASSERT_GE(w.pieces.size(), 5u);
    for (std::size_t i = 0; i < w.pieces.size(); ++i) EXPECT_LE(w.pieces[i], (std::size_t(1) << 20) + 4096) << i;
    EXPECT_EQ(U32(w.bytes, 8), w.bytes.size());
    const json::Value doc = Parse(w.bytes.substr(20, U32(w.bytes, 12)));
    EXPECT_EQ(doc.get("nodes")->items.size(), 200003u);
}

TEST(GltfNodes, ANodeListedTwiceOrACycleIsWrittenOnce) {
    // root -> a -> b, and b lists root and a again (a cycle no importer makes, but a hand-built scene may).
    aiScene scene;
    scene.mRootNode = new aiNode("root");
    auto *a = new aiNode("a");
    auto *b = new aiNode("b");
    test::AddChildren(scene.mRootNode, {a});
    test::AddChildren(a, {b});
    b->mNumChildren = 2;
    b->mChildren = new aiNode *[2] { scene.mRootNode, a };
    const json::Value doc = Parse(Write(scene, false).bytes);
    ASSERT_EQ(doc.get("nodes")->items.size(), 3u);
    EXPECT_EQ(doc.get("nodes")->items[2].get("name")->text, "b");
    EXPECT_EQ(doc.get("nodes")->items[2].get("children"), nullptr);
    // Not owned twice: unlink before the scene frees its tree.
    b->mNumChildren = 0;
    delete[] b->mChildren;
    b->mChildren = nullptr;
}

TEST(GltfNodes, OnlyScenesWithNothingButNodes) {
    const std::unique_ptr<aiScene> scene(SmallScene());
    EXPECT_TRUE(glue::IsNodeOnlyScene(*scene));
    scene->mNumCameras = 1;
    scene->mCameras = new aiCamera *[1] { new aiCamera };
    EXPECT_FALSE(glue::IsNodeOnlyScene(*scene));
    aiScene empty;
    EXPECT_FALSE(glue::IsNodeOnlyScene(empty)); // no root
}

} // namespace
} // namespace gamefmt
