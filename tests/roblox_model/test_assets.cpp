// Content URIs against local asset folders (docs/formats/roblox-model.md §5.5): every URI form the reference
// lists, `..` refused, the candidate files in order, images recognised by their bytes, and two folders searched in
// order through a registered Importer.
#include "assimp_glue/roblox_model/assets.hpp"
#include "fixtures/rbx_place_fixtures.hpp"
#include "gamefmt/config.hpp"
#include "importers/roblox_model/document/binary_writer.hpp"
#include "support/import_helpers.hpp"
#include "support/rbx_values.hpp"

#include <assimp/scene.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>
#include <vector>

namespace gamefmt {
namespace {

using glue::ParseContentUri;
using glue::RbxContentKey;
using Kind = RbxContentKey::Kind;

void ExpectKey(const char *uri, Kind kind, const std::string &value) {
    const RbxContentKey key = ParseContentUri(uri);
    EXPECT_EQ(key.kind, kind) << uri;
    EXPECT_EQ(key.value, kind == Kind::None ? std::string() : value) << uri;
}

TEST(RbxAssets, EveryUriFormOfTheReference) {
    ExpectKey("rbxassetid://123", Kind::Id, "123");
    ExpectKey("  RbxAssetId://42 \n", Kind::Id, "42"); // scheme case-insensitive, trimmed
    ExpectKey("rbxassetid://12a", Kind::None, "");
    ExpectKey("rbxassetid://", Kind::None, "");
    ExpectKey("http://www.roblox.com/asset/?id=7", Kind::Id, "7");
    ExpectKey("https://www.roblox.com//asset/?id=8", Kind::Id, "8"); // doubled slash
    ExpectKey("https://www.roblox.com/asset?id=9", Kind::Id, "9");
    ExpectKey("https://assetdelivery.roblox.com/v1/asset/?version=1&ID=10", Kind::Id, "10");
    ExpectKey("https://roblox.com/asset/?id=11", Kind::Id, "11");
    ExpectKey("https://notroblox.com/asset/?id=1", Kind::None, ""); // the host must be roblox.com's
    ExpectKey("https://www.roblox.com.evil.net/asset/?id=1", Kind::None, "");
    ExpectKey("https://www.roblox.com/catalog/?id=1", Kind::None, "");
    ExpectKey("https://www.roblox.com/asset/?id=", Kind::None, "");
    ExpectKey("rbxasset://textures/face.png", Kind::Path, "textures/face.png");
    ExpectKey("rbxasset://textures\\face.png", Kind::Path, "textures/face.png");
    ExpectKey("rbxasset://./a//b/c.png", Kind::Path, "a/b/c.png");
    ExpectKey("rbxasset://../secret.png", Kind::None, ""); // never out of the folder
    ExpectKey("rbxasset://textures/../../secret.png", Kind::None, "");
    ExpectKey("rbxthumb://type=Asset&id=1&w=150&h=150", Kind::None, "");
    ExpectKey("", Kind::None, "");
}

TEST(RbxAssets, CandidatesInOrderPerFolder) {
    // An image id: its own extensions, then the files an indirection may be saved as (a Decal's model, a TexturePack).
    EXPECT_EQ(glue::CandidatePaths({"A", "B/"}, {Kind::Id, "5"}),
              (std::vector<std::string>{"A/5", "A/5.png", "A/5.jpg", "A/5.jpeg", "A/5.rbxm", "A/5.rbxmx", "A/5.xml",
                                        "B/5", "B/5.png", "B/5.jpg", "B/5.jpeg", "B/5.rbxm", "B/5.rbxmx", "B/5.xml"}));
    EXPECT_EQ(glue::CandidatePaths({"A"}, {Kind::Id, "5"}, glue::RbxAssetKind::Union),
              (std::vector<std::string>{"A/5", "A/5.rbxm", "A/5.rbxmx"}));
    EXPECT_EQ(glue::CandidatePaths({"A"}, {Kind::Id, "5"}, glue::RbxAssetKind::TexturePack),
              (std::vector<std::string>{"A/5", "A/5.xml"}));
    EXPECT_EQ(glue::CandidatePaths({"A"}, {Kind::Path, "t/x.png"}),
              (std::vector<std::string>{"A/t/x.png", "A/content/t/x.png", "A/PlatformContent/pc/t/x.png",
                                        "A/ExtraContent/t/x.png"}));
    EXPECT_TRUE(glue::CandidatePaths({"A"}, {Kind::None, ""}).empty());
    // Meshes: the id, then "<id>.mesh" (docs/formats/roblox-model.md §5.4), then a MeshPart asset's model; paths as
    // for images.
    EXPECT_EQ(glue::CandidatePaths({"A", "B"}, {Kind::Id, "5"}, glue::RbxAssetKind::Mesh),
              (std::vector<std::string>{"A/5", "A/5.mesh", "A/5.rbxm", "A/5.rbxmx", "B/5", "B/5.mesh", "B/5.rbxm",
                                        "B/5.rbxmx"}));
    EXPECT_EQ(glue::CandidatePaths({"A"}, {Kind::Path, "m/x.mesh"}, glue::RbxAssetKind::Mesh).size(), 4u);
    const std::uint8_t mesh[10] = {'v', 'e', 'r', 's', 'i', 'o', 'n', ' ', '4', '.'};
    EXPECT_EQ(glue::SniffAsset(mesh, sizeof mesh), "mesh");
    EXPECT_EQ(glue::SniffAsset(mesh, 8), ""); // "version " without a digit
    EXPECT_EQ(glue::SplitAssetFolders(" a ; b\n;;c "), (std::vector<std::string>{"a", "b", "c"}));
}

TEST(RbxAssets, ImagesAreRecognisedByTheirBytes) {
    const std::uint8_t png[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    const std::uint8_t jpeg[4] = {0xFF, 0xD8, 0xFF, 0xE0};
    const std::uint8_t gif[6] = {'G', 'I', 'F', '8', '9', 'a'};
    EXPECT_EQ(glue::SniffImage(png, sizeof png), "png");
    EXPECT_EQ(glue::SniffImage(png, 7), ""); // cut short
    EXPECT_EQ(glue::SniffImage(jpeg, sizeof jpeg), "jpg");
    EXPECT_EQ(glue::SniffImage(gif, sizeof gif), "");
}

// Two folders, searched in order: the first holds "77" as text (not an image: skipped with a warning) and the
// Studio layout content/textures/x.png; the second holds 77.jpg.
TEST(RbxAssets, FoldersAreSearchedInOrderThroughTheImporter) {
    const auto dir = test::ScratchDir("rbx_assets_folders");
    const auto first = dir / "first", second = dir / "second";
    std::filesystem::create_directories(first / "content" / "textures");
    std::filesystem::create_directories(second);
    test::WriteText(first / "77", "not an image");
    const std::vector<std::uint8_t> jpeg = {0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 'J', 'F', 'I', 'F'};
    test::WriteBytes(second / "77.jpg", jpeg);
    test::WriteBytes(first / "content" / "textures" / "x.png", fixtures::DemoTileImage());

    rbx::Document doc;
    const auto part = doc.addInstance("Part", "Wall", rbx::kNoInstance);
    rbx::AddProperty(doc, part, "size", rbx::Type::Vector3, rbx::Vector3{4, 4, 1});
    rbx::AddProperty(doc, part, "CFrame", rbx::Type::CFrame, rbx::CFrame{});
    const std::pair<const char *, const char *> decals[] = {{"ById", "rbxassetid://77"},
                                                            {"ByPath", "rbxasset://textures/x.png"}};
    for (const auto &[name, uri] : decals) {
        const auto decal = doc.addInstance("Decal", name, part);
        rbx::AddProperty(doc, decal, "Texture", rbx::Type::String, std::string(uri));
    }
    const test::ImportResult r = test::ImportMemory(rbx::WriteBinary(doc), "rbxm", 0, [&](Assimp::Importer &i) {
        i.SetPropertyString(GAMEFMT_RBX_ASSET_DIR, first.string() + ";" + second.string());
    });
    ASSERT_TRUE(r) << r.error;
    ASSERT_EQ(r.scene->mNumTextures, 2u);
    EXPECT_STREQ(r.scene->mTextures[0]->achFormatHint, "jpg");
    ASSERT_EQ(r.scene->mTextures[0]->mWidth, jpeg.size());
    EXPECT_EQ(std::memcmp(r.scene->mTextures[0]->pcData, jpeg.data(), jpeg.size()), 0);
    EXPECT_STREQ(r.scene->mTextures[1]->achFormatHint, "png");
    EXPECT_EQ(r.scene->mRootNode->FindNode("ById")->mNumMeshes, 1u);
    EXPECT_EQ(r.scene->mRootNode->FindNode("ByPath")->mNumMeshes, 1u);
    bool warned = false;
    for (const std::string &line : r.log)
        warned = warned || line.find("is neither a Roblox mesh or model nor a PNG or JPEG image") != std::string::npos;
    EXPECT_TRUE(warned);

    // A named folder that does not exist is an error, not silently missing images.
    const test::ImportResult typo = test::ImportMemory(rbx::WriteBinary(doc), "rbxm", 0, [&](Assimp::Importer &i) {
        i.SetPropertyString(GAMEFMT_RBX_ASSET_DIR, first.string() + ";" + (dir / "no-such-folder").string());
    });
    EXPECT_FALSE(typo);
    EXPECT_NE(typo.error.find("no-such-folder\" (GAMEFMT_RBX_ASSET_DIR, --asset-dir) does not exist"),
              std::string::npos)
        << typo.error;
}

} // namespace
} // namespace gamefmt
