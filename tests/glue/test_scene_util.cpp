// Scene helpers: aiString safety, unique names, materials, metadata.
#include "assimp_glue/common/scene_util.hpp"

#include <assimp/commonMetaData.h>
#include <gtest/gtest.h>

#include <set>
#include <string>

namespace {

using namespace gamefmt::glue;

TEST(SceneUtil, AiStringReplacesNulAndInvalidUtf8) {
    EXPECT_EQ(SanitizeForAiString(std::string("a\0b", 3)), "a\xEF\xBF\xBD"
                                                           "b");
    EXPECT_EQ(SanitizeForAiString("\xFF"
                                  "x"),
              "\xEF\xBF\xBD"
              "x");
    EXPECT_EQ(SanitizeForAiString("\xC0\xAF"), "\xEF\xBF\xBD\xEF\xBF\xBD");                 // overlong '/'
    EXPECT_EQ(SanitizeForAiString("\xED\xA0\x80"), "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD"); // surrogate
    EXPECT_EQ(SanitizeForAiString("h\xC3\xA9llo \xF0\x9F\x99\x82"), "h\xC3\xA9llo \xF0\x9F\x99\x82");
    const aiString s = ToAiString(std::string("a\0b", 3));
    EXPECT_EQ(s.length, 5u);
    EXPECT_EQ(std::string(s.C_Str()), "a\xEF\xBF\xBD"
                                      "b");
}

TEST(SceneUtil, AiStringCutsLongTextAtUtf8Boundary) {
    std::string text(1022, 'x');
    text += "\xC3\xA9\xC3\xA9"; // 1022 + 4 bytes: only one more byte fits, not a whole 2-byte char
    const std::string clean = SanitizeForAiString(text);
    EXPECT_EQ(clean.size(), 1022u);
    const aiString s = ToAiString(std::string(5000, 'y'));
    EXPECT_EQ(s.length, 1023u);
}

TEST(SceneUtil, UniqueNamesSuffixInOrder) {
    UniqueNames names;
    EXPECT_EQ(names.make("Part"), "Part");
    EXPECT_EQ(names.make("Part"), "Part.1");
    EXPECT_EQ(names.make("Part.2"), "Part.2");
    EXPECT_EQ(names.make("Part"), "Part.3"); // skips the taken Part.2
    EXPECT_EQ(names.make(""), "");
    EXPECT_EQ(names.make(""), ".1");
}

TEST(SceneUtil, UniqueNamesStayUniqueWhileTheTableGrows) {
    // 300 names of 100 kinds, each kind asked three times, across many table growths and arena blocks (a
    // 70,000-byte name does not fit the 64 KiB block).
    UniqueNames names;
    std::set<std::string> seen;
    for (int round = 0; round < 3; ++round)
        for (int i = 0; i < 100; ++i) {
            const std::string base = "N" + std::to_string(i);
            const std::string got = names.make(base);
            EXPECT_EQ(got, round == 0 ? base : base + "." + std::to_string(round));
            EXPECT_TRUE(seen.insert(got).second) << got;
        }
    const std::string longName(70000, 'x');
    EXPECT_EQ(names.make(longName), longName);
    EXPECT_EQ(names.make(longName), longName + ".1");
    EXPECT_TRUE(names.taken("N42.2"));
    EXPECT_TRUE(names.taken(longName));
    EXPECT_FALSE(names.taken("N42.3"));
    EXPECT_FALSE(UniqueNames().taken("anything"));
}

TEST(SceneUtil, MaterialHasBaseAndDiffuse) {
    aiMaterial *m = MakeMaterial("Red", aiColor4D(1, 0, 0, 1));
    aiColor4D base, diffuse;
    aiString name;
    EXPECT_EQ(m->Get(AI_MATKEY_BASE_COLOR, base), AI_SUCCESS);
    EXPECT_EQ(m->Get(AI_MATKEY_COLOR_DIFFUSE, diffuse), AI_SUCCESS);
    EXPECT_EQ(m->Get(AI_MATKEY_NAME, name), AI_SUCCESS);
    EXPECT_EQ(base, aiColor4D(1, 0, 0, 1));
    EXPECT_EQ(diffuse, aiColor4D(1, 0, 0, 1));
    EXPECT_STREQ(name.C_Str(), "Red");
    delete m;
}

TEST(SceneUtil, MergeKeepsExistingEntries) {
    aiScene scene;
    MetadataBuilder first;
    first.add("a", std::int32_t(1));
    first.mergeInto(scene.mMetaData);
    SetSourceAsset(&scene, "Roblox FileMesh", "2.00");
    ASSERT_NE(scene.mMetaData, nullptr);
    EXPECT_EQ(scene.mMetaData->mNumProperties, 3u);
    std::int32_t a = 0;
    aiString format, version;
    EXPECT_TRUE(scene.mMetaData->Get("a", a) && a == 1);
    EXPECT_TRUE(scene.mMetaData->Get(AI_METADATA_SOURCE_FORMAT, format));
    EXPECT_STREQ(format.C_Str(), "Roblox FileMesh");
    EXPECT_TRUE(scene.mMetaData->Get(AI_METADATA_SOURCE_FORMAT_VERSION, version));
    EXPECT_STREQ(version.C_Str(), "2.00");
}

} // namespace

TEST(SceneUtil, GetMetadataIntReadsInt32AndUint64Only) {
    aiMetadata *md = aiMetadata::Alloc(4);
    md->Set(0, "i", std::int32_t(-7));
    md->Set(1, "u", std::uint64_t(3));
    md->Set(2, "big", std::uint64_t(0xFFFFFFFFFFFFFFFFull));
    md->Set(3, "s", aiString("12"));
    EXPECT_EQ(gamefmt::glue::GetMetadataInt(md, "i"), std::optional<std::int64_t>(-7));
    EXPECT_EQ(gamefmt::glue::GetMetadataInt(md, "u"), std::optional<std::int64_t>(3));
    EXPECT_EQ(gamefmt::glue::GetMetadataInt(md, "big"),
              std::optional<std::int64_t>(std::numeric_limits<std::int64_t>::max()));
    EXPECT_FALSE(gamefmt::glue::GetMetadataInt(md, "s"));
    EXPECT_FALSE(gamefmt::glue::GetMetadataInt(md, "missing"));
    EXPECT_FALSE(gamefmt::glue::GetMetadataInt(nullptr, "i"));
    aiMetadata::Dealloc(md);
}
