// Where assets come from besides a flat folder (docs/formats/roblox-model.md §5.5): TexturePack assets (XML naming a
// SurfaceAppearance's maps) and the Roblox installs `--asset-dir auto` finds (made-up installs: the layout each
// launcher uses, docs/roblox-assets.md "Roblox installs").
#include "assimp_glue/roblox_model/installs.hpp"
#include "common/utf8_path.hpp"
#include "importers/roblox_model/appearance/texture_pack.hpp"
#include "support/import_helpers.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <thread>
#include <vector>

namespace gamefmt {
namespace {

namespace fs = std::filesystem;

std::optional<rbx::TexturePackMaps> Pack(const std::string &text) {
    return rbx::ReadTexturePack(reinterpret_cast<const std::uint8_t *>(text.data()), text.size());
}

TEST(RbxTexturePack, MapsAreReadFromTheXml) {
    const auto maps = Pack("<?xml version=\"1.0\"?>\n<roblox>\n  <color> 15001 </color><normal>0</normal>"
                           "<metalness>rbxassetid://77</metalness><roughness>15004</roughness><emissive>12</emissive>"
                           "<height></height></roblox>");
    ASSERT_TRUE(maps);
    EXPECT_EQ(maps->color, "rbxassetid://15001"); // blanks trimmed
    EXPECT_EQ(maps->normal, "");                  // 0 = none
    EXPECT_EQ(maps->metalness, "rbxassetid://77");
    EXPECT_EQ(maps->roughness, "rbxassetid://15004");
    EXPECT_EQ(maps->emissive, "rbxassetid://12");
    EXPECT_EQ(maps->height, "");
    const auto odd = Pack("<roblox><color>12ab</color><normal>http://evil/1</normal></roblox>");
    ASSERT_TRUE(odd);
    EXPECT_EQ(odd->color, ""); // not an id: no map, never a URL of another kind
    EXPECT_EQ(odd->normal, "");
}

TEST(RbxTexturePack, ModelsAndGarbageAreNotPacks) {
    EXPECT_FALSE(Pack("<roblox version=\"4\"><Item class=\"Part\" referent=\"R\"></Item></roblox>")); // a model
    EXPECT_FALSE(Pack("<roblox><color>1</color><Item class=\"Part\"/></roblox>"));
    EXPECT_FALSE(Pack("<roblox></roblox>"));        // no maps
    EXPECT_FALSE(Pack("<roblox><color>1</color>")); // cut short
    EXPECT_FALSE(Pack("<texturepack><color>1</color></texturepack>"));
    EXPECT_FALSE(Pack(std::string("<roblox!\x89\xff\r\n\x1a\n", 14)));
    EXPECT_FALSE(Pack("<roblox><color>1</color></roblox>" + std::string(70000, ' '))); // larger than any pack
    EXPECT_FALSE(Pack(""));
    const std::string ok = "<roblox><color>1</color></roblox>";
    EXPECT_TRUE(rbx::LooksLikeTexturePack(reinterpret_cast<const std::uint8_t *>(ok.data()), ok.size()));
}

void MakeInstall(const fs::path &dir, const char *content = "content") {
    fs::create_directories(dir / content);
}

TEST(RbxInstalls, FoundWhereEachLauncherPutsThem) {
    const fs::path root = test::ScratchDir("rbx-installs");
    const fs::path local = root / "AppData Local \xC3\xBC"; // "AppData Local ü"
    // "old" is made first, "new" later: the folders' own times order them (setting a folder's time is refused
    // under Wine, so the test does not).
    MakeInstall(local / "Roblox" / "Versions" / "version-old");
    std::this_thread::sleep_for(std::chrono::milliseconds(100));
    MakeInstall(local / "Roblox" / "Versions" / "version-new");
    fs::create_directories(local / "Roblox" / "Versions" / "version-empty"); // no content folder: not an install
    MakeInstall(local / "Bloxstrap" / "Versions" / "version-b", "PlatformContent");
    MakeInstall(root / "Applications" / "RobloxStudio.app" / "Contents" / "Resources");
    const fs::path home = root / "home";
    MakeInstall(home / ".local" / "share" / "vinegar" / "versions" / "version-v");
    MakeInstall(home / ".var" / "app" / "org.vinegarhq.Vinegar" / "data" / "vinegar" / "versions" / "version-f");
    MakeInstall(home / ".var" / "app" / "org.vinegarhq.Sober" / "data" / "sober" / "assets");

    glue::InstallPlaces places;
    places.localAppData = PathToUtf8(local);
    places.home = PathToUtf8(home);
    places.applications = {PathToUtf8(root / "Applications"), PathToUtf8(root / "no-such-folder")};
    const std::vector<std::string> found = glue::FindRobloxInstalls(places);
    const std::vector<fs::path> want = {local / "Roblox" / "Versions" / "version-new", // newest first
                                        local / "Roblox" / "Versions" / "version-old",
                                        local / "Bloxstrap" / "Versions" / "version-b",
                                        root / "Applications" / "RobloxStudio.app" / "Contents" / "Resources",
                                        home / ".local" / "share" / "vinegar" / "versions" / "version-v",
                                        home / ".var" / "app" / "org.vinegarhq.Vinegar" / "data" / "vinegar" /
                                            "versions" / "version-f",
                                        home / ".var" / "app" / "org.vinegarhq.Sober" / "data" / "sober" / "assets"};
    ASSERT_EQ(found.size(), want.size());
    for (std::size_t i = 0; i < want.size(); ++i) EXPECT_EQ(PathFromUtf8(found[i]), want[i]) << i;

    // XDG_DATA_HOME replaces ~/.local/share for Vinegar.
    MakeInstall(root / "xdg" / "vinegar" / "versions" / "version-x");
    places = {};
    places.xdgDataHome = PathToUtf8(root / "xdg");
    const std::vector<std::string> xdg = glue::FindRobloxInstalls(places);
    ASSERT_EQ(xdg.size(), 1u);
    EXPECT_EQ(PathFromUtf8(xdg[0]), root / "xdg" / "vinegar" / "versions" / "version-x");
    EXPECT_TRUE(glue::FindRobloxInstalls(glue::InstallPlaces{}).empty());
}

TEST(RbxInstalls, AutoIsReplacedInPlace) {
    // Other folders keep their order around "auto"; whatever this machine has goes where "auto" was.
    bool none = false;
    const std::vector<std::string> out = glue::ExpandAssetFolders({"a", "auto", "b"}, &none);
    ASSERT_GE(out.size(), 2u);
    EXPECT_EQ(out.front(), "a");
    EXPECT_EQ(out.back(), "b");
    EXPECT_EQ(none, out.size() == 2);
    EXPECT_EQ(glue::ExpandAssetFolders({"x"}), (std::vector<std::string>{"x"}));
}

} // namespace
} // namespace gamefmt
