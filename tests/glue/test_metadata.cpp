// The metadata codec (include/gamefmt/metadata.hpp): the stored layout entry by entry, the way back, and
// what a reader does with metadata that breaks the layout.
#include "gamefmt/metadata.hpp"

#include "fixtures/rbx_fixtures.hpp"
#include "gamefmt/config.hpp"
#include "support/import_helpers.hpp"

#include <assimp/SceneCombiner.h>
#include <assimp/scene.h>
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

namespace {

using gamefmt::ForEachMetadata;
using gamefmt::GetMetadataBlob;
using gamefmt::GetMetadataInt;
using gamefmt::GetMetadataText;
using gamefmt::MetadataBuilder;
using gamefmt::MetadataValue;

std::unique_ptr<aiMetadata> Build(const MetadataBuilder &b) {
    return std::unique_ptr<aiMetadata>(b.build());
}

std::string Key(const aiMetadata &md, unsigned i) {
    return std::string(md.mKeys[i].data, md.mKeys[i].length);
}

std::string Str(const aiMetadata &md, unsigned i) {
    EXPECT_EQ(md.mValues[i].mType, AI_AISTRING) << Key(md, i);
    const auto *s = static_cast<const aiString *>(md.mValues[i].mData);
    return std::string(s->data, s->length);
}

TEST(Metadata, EveryTypeKeepsItsValue) {
    MetadataBuilder b;
    b.add("b", true);
    b.add("i", std::int32_t(-5));
    b.add("u", std::uint64_t(1) << 40);
    b.add("f", 1.5f);
    b.add("d", 2.25);
    b.add("s", "text");
    b.add("v", aiVector3D(1, 2, 3));
    const auto m = Build(b);
    ASSERT_EQ(m->mNumProperties, 7u);
    bool bv = false;
    std::int32_t i = 0;
    std::uint64_t u = 0;
    float f = 0;
    double d = 0;
    aiString s;
    aiVector3D v;
    EXPECT_TRUE(m->Get("b", bv) && bv);
    EXPECT_TRUE(m->Get("i", i) && i == -5);
    EXPECT_TRUE(m->Get("u", u) && u == (std::uint64_t(1) << 40));
    EXPECT_TRUE(m->Get("f", f) && f == 1.5f);
    EXPECT_TRUE(m->Get("d", d) && d == 2.25);
    EXPECT_TRUE(m->Get("s", s) && std::string(s.C_Str()) == "text");
    EXPECT_TRUE(m->Get("v", v) && v == aiVector3D(1, 2, 3));
    EXPECT_EQ(GetMetadataInt(m.get(), "i"), -5);
    EXPECT_EQ(GetMetadataInt(m.get(), "u"), std::int64_t(1) << 40);
    EXPECT_EQ(GetMetadataInt(m.get(), "s"), std::nullopt);
    EXPECT_EQ(GetMetadataInt(m.get(), "missing"), std::nullopt);
}

TEST(Metadata, ShortTextIsOneEntryAndLongTextIsLengthThenParts) {
    MetadataBuilder b;
    b.add("before", std::int32_t(1));
    b.add("exact", std::string(1000, 'e')); // the largest text that stays one entry
    b.add("long", std::string(2500, 'q'));
    b.add("after", "x");
    const auto m = Build(b);
    ASSERT_EQ(m->mNumProperties, 7u); // before, exact, long + 3 parts, after
    EXPECT_EQ(Str(*m, 1), std::string(1000, 'e'));
    EXPECT_EQ(Key(*m, 2), "long");
    ASSERT_EQ(m->mValues[2].mType, AI_UINT64);
    EXPECT_EQ(*static_cast<const std::uint64_t *>(m->mValues[2].mData), 2500u);
    EXPECT_EQ(Key(*m, 3), "long#0");
    EXPECT_EQ(Key(*m, 4), "long#1");
    EXPECT_EQ(Key(*m, 5), "long#2");
    EXPECT_EQ(Str(*m, 3).size(), 1000u);
    EXPECT_EQ(Str(*m, 4).size(), 1000u);
    EXPECT_EQ(Str(*m, 5).size(), 500u);
    EXPECT_EQ(Key(*m, 6), "after");

    std::string back;
    ASSERT_TRUE(GetMetadataText(m.get(), "long", back));
    EXPECT_EQ(back, std::string(2500, 'q'));
    ASSERT_TRUE(GetMetadataText(m.get(), "exact", back));
    EXPECT_EQ(back.size(), 1000u);
    EXPECT_FALSE(GetMetadataText(m.get(), "missing", back));
    EXPECT_FALSE(GetMetadataText(m.get(), "before", back)); // an INT32 is not a text
    // The length entry of a long text is not an integer value.
    EXPECT_EQ(GetMetadataInt(m.get(), "long"), std::nullopt);
    aiString plain;
    EXPECT_FALSE(m->Get("long", plain)) << "a plain aiString reader never takes a part for the value";
}

TEST(Metadata, PartsAreNeverCutInsideAUtf8Sequence) {
    // 999 ASCII bytes then a 3-byte character: the first part stops before it (999 bytes).
    const std::string text = std::string(999, 'a') + "\xE2\x82\xAC" + std::string(1200, 'b');
    MetadataBuilder b;
    b.add("t", text);
    const auto m = Build(b);
    ASSERT_EQ(m->mNumProperties, 4u);
    EXPECT_EQ(Str(*m, 1), std::string(999, 'a'));
    EXPECT_EQ(Str(*m, 2).substr(0, 3), "\xE2\x82\xAC");
    std::string back;
    ASSERT_TRUE(GetMetadataText(m.get(), "t", back));
    EXPECT_EQ(back, text);
}

TEST(Metadata, TextIsSanitisedButNeverTruncated) {
    std::string text(3000, 'z');
    text[10] = '\0';
    MetadataBuilder b;
    b.add("t", text);
    const auto m = Build(b);
    std::string back;
    ASSERT_TRUE(GetMetadataText(m.get(), "t", back));
    EXPECT_EQ(back.size(), 3002u); // NUL became U+FFFD (3 bytes); nothing was cut
    EXPECT_EQ(back.substr(10, 3), "\xEF\xBF\xBD");
}

TEST(Metadata, BlobsRoundTripEveryByte) {
    std::vector<std::uint8_t> small = {0, 1, 2, 0xFF};
    std::vector<std::uint8_t> big(5000);
    for (std::size_t i = 0; i < big.size(); ++i) big[i] = static_cast<std::uint8_t>(i * 7);
    MetadataBuilder b;
    b.addBlob("small", small);
    b.addBlob("empty", std::vector<std::uint8_t>());
    b.addBlob("big", big);
    const auto m = Build(b);
    EXPECT_EQ(Str(*m, 0), "AAEC/w=="); // RFC 4648 base64
    std::vector<std::uint8_t> back;
    ASSERT_TRUE(GetMetadataBlob(m.get(), "small", back));
    EXPECT_EQ(back, small);
    ASSERT_TRUE(GetMetadataBlob(m.get(), "empty", back));
    EXPECT_TRUE(back.empty());
    ASSERT_TRUE(GetMetadataBlob(m.get(), "big", back));
    EXPECT_EQ(back, big);
}

TEST(Metadata, ForEachVisitsLogicalEntriesInOrder) {
    MetadataBuilder b;
    b.add("a", std::int32_t(3));
    b.add("long", std::string(1500, 'l'));
    b.add("s", "#2"); // looks like nothing special: a plain text
    const auto m = Build(b);
    std::vector<std::string> seen;
    ForEachMetadata(*m, [&](const MetadataValue &v) {
        seen.push_back(std::string(v.key) + (v.isText ? "=" + std::to_string(v.text.size()) : "") + "/" +
                       std::to_string(v.parts));
    });
    EXPECT_EQ(seen, (std::vector<std::string>{"a/0", "long=1500/2", "s=2/0"}));
}

// Hand-built metadata that breaks the layout: readers refuse the long form and show entries as stored.
TEST(Metadata, MalformedLongFormsAreNotJoined) {
    const auto make = [](std::uint64_t length, std::vector<std::pair<std::string, std::string>> parts) {
        aiMetadata *md = aiMetadata::Alloc(static_cast<unsigned>(1 + parts.size()));
        md->Set(0, "k", length);
        for (unsigned i = 0; i < parts.size(); ++i) md->Set(i + 1, parts[i].first, aiString(parts[i].second));
        return std::unique_ptr<aiMetadata>(md);
    };
    const std::string p(1000, 'p');
    std::string out;
    // Good, for contrast.
    EXPECT_TRUE(GetMetadataText(make(1500, {{"k#0", p}, {"k#1", std::string(500, 'p')}}).get(), "k", out));
    // Too short, too long, a gap in the numbering, a length no part count reaches.
    EXPECT_FALSE(GetMetadataText(make(1500, {{"k#0", p}}).get(), "k", out));
    EXPECT_FALSE(GetMetadataText(make(1500, {{"k#0", p}, {"k#1", p}}).get(), "k", out));
    EXPECT_FALSE(GetMetadataText(make(1500, {{"k#0", p}, {"k#2", std::string(500, 'p')}}).get(), "k", out));
    EXPECT_FALSE(GetMetadataText(make(std::uint64_t(1) << 62, {{"k#0", p}}).get(), "k", out));
    // A UINT64 that is a plain number stays one: no part follows it.
    const auto number = make(5000, {{"other", "x"}});
    EXPECT_EQ(GetMetadataInt(number.get(), "k"), 5000);
    unsigned visited = 0;
    ForEachMetadata(*make(1500, {{"k#0", p}}), [&](const MetadataValue &v) {
        ++visited;
        EXPECT_EQ(v.parts, 0u);
    });
    EXPECT_EQ(visited, 2u);
}

TEST(Metadata, MergeAppendsAndAssimpCopiesTheResult) {
    aiScene scene;
    MetadataBuilder first;
    first.add("a", std::int32_t(1));
    first.mergeInto(scene.mMetaData);
    MetadataBuilder second;
    second.add("long", std::string(2100, 'x'));
    second.mergeInto(scene.mMetaData);
    ASSERT_EQ(scene.mMetaData->mNumProperties, 5u);
    // Flat metadata survives Assimp's own deep copy (what every Exporter::Export does first).
    aiMetadata *copy = nullptr;
    Assimp::SceneCombiner::Copy(&copy, scene.mMetaData);
    ASSERT_NE(copy, nullptr);
    std::string back;
    EXPECT_TRUE(GetMetadataText(copy, "long", back) && back == std::string(2100, 'x'));
    EXPECT_EQ(GetMetadataInt(copy, "a"), 1);
    delete copy;
}

// Every importer keeps to the flat rule, with every option that adds metadata on, for every fixture in
// testdata/ and a generated model with per-node properties.
TEST(Metadata, NoImporterWritesNestedMetadata) {
    std::vector<gamefmt::test::ImportResult> results;
    for (const char *name : {"skinned-bar.mesh", "sl-rigged.llmesh", "rg-animated.3dc"})
        results.push_back(gamefmt::test::ImportFile(gamefmt::test::TestDataDir() / name));
    // A mesh with bytes after its last section: rbxmesh.trailingBytes was a nested block before the codec.
    std::ifstream file(gamefmt::test::TestDataDir() / "skinned-bar.mesh", std::ios::binary);
    std::vector<std::uint8_t> mesh((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
    ASSERT_FALSE(mesh.empty());
    for (const std::uint8_t extra : {1, 2, 3, 4}) mesh.push_back(extra); // (GCC 14 misreads insert of a list here)
    results.push_back(gamefmt::test::ImportMemory(mesh, "mesh"));
    ASSERT_TRUE(results.back()) << results.back().error;
    std::vector<std::uint8_t> trailing;
    EXPECT_TRUE(gamefmt::GetMetadataBlob(results.back().scene->mMetaData, "rbxmesh.trailingBytes", trailing));
    EXPECT_EQ(trailing, (std::vector<std::uint8_t>{1, 2, 3, 4}));
    results.push_back(
        gamefmt::test::ImportMemory(gamefmt::fixtures::rbx::AllTypes(), "rbxm", 0, [](Assimp::Importer &importer) {
            importer.SetPropertyBool(GAMEFMT_RBX_NODE_PROPERTIES, true);
        }));
    for (const auto &r : results) {
        ASSERT_TRUE(r) << r.error;
        unsigned entries = 0;
        const auto check = [&](const aiMetadata *md) {
            for (unsigned i = 0; md != nullptr && i < md->mNumProperties; ++i, ++entries)
                EXPECT_NE(md->mValues[i].mType, AI_AIMETADATA) << Key(*md, i);
        };
        check(r.scene->mMetaData);
        std::vector<const aiNode *> stack{r.scene->mRootNode};
        while (!stack.empty()) {
            const aiNode *node = stack.back();
            stack.pop_back();
            check(node->mMetaData);
            for (unsigned i = 0; i < node->mNumChildren; ++i) stack.push_back(node->mChildren[i]);
        }
        EXPECT_GE(entries, 3u); // each scene has some metadata to check
    }
}

} // namespace
