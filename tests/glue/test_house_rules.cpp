// Rules of the house that a compiler does not check (docs/formats/assimp-integration.md §13 "Errors and build").
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

namespace {

TEST(HouseRules, NoSourceIncludesHeadersThatFailToLinkOnDebian) {
    // Split so this file does not match itself.
    const std::vector<std::string> forbidden = {std::string("StreamReader") + ".h", std::string("fast_atof") + ".h",
                                                std::string("LogAux") + ".h", std::string("pbrmaterial") + ".h"};
    const std::filesystem::path root(GAMEFMT_SOURCE_DIR);
    std::size_t scanned = 0;
    for (const char *dir : {"common", "importers", "assimp_glue", "include", "tools", "tests", "fuzz", "bench"}) {
        if (!std::filesystem::exists(root / dir)) continue;
        for (const auto &entry : std::filesystem::recursive_directory_iterator(root / dir)) {
            const std::string ext = entry.path().extension().string();
            if (ext != ".cpp" && ext != ".hpp" && ext != ".h" && ext != ".cc") continue;
            std::ifstream in(entry.path());
            std::stringstream text;
            text << in.rdbuf();
            ++scanned;
            for (const std::string &header : forbidden)
                EXPECT_EQ(text.str().find("#include <assimp/" + header), std::string::npos)
                    << entry.path() << " includes " << header;
        }
    }
    EXPECT_GT(scanned, 10u);
}

TEST(HouseRules, OnlyGlueAndToolsIncludeAssimp) {
    const std::filesystem::path root(GAMEFMT_SOURCE_DIR);
    for (const char *dir : {"common", "importers"}) {
        for (const auto &entry : std::filesystem::recursive_directory_iterator(root / dir)) {
            if (!entry.is_regular_file()) continue;
            std::ifstream in(entry.path());
            std::stringstream text;
            text << in.rdbuf();
            EXPECT_EQ(text.str().find("<assimp/"), std::string::npos) << entry.path() << " includes Assimp";
        }
    }
}

std::string ReadText(const std::filesystem::path &path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
}

bool StartsWith(const std::string &s, const std::string &prefix) {
    return s.compare(0, prefix.size(), prefix) == 0;
}

// The room of a file or an include path: "common", "meshing", "importers/<format>" (the Roblox model's rooms:
// "importers/roblox_model/document" …), "assimp_glue/<folder>" ("assimp_glue" for register.cpp), "gamefmt" (the
// installed headers), "tools".
std::string RoomOf(const std::string &path) {
    std::vector<std::string> parts;
    std::stringstream in(path);
    for (std::string part; std::getline(in, part, '/');) parts.push_back(part);
    if (parts.size() > 3 && parts[0] == "importers" && parts[1] == "roblox_model")
        return parts[0] + "/" + parts[1] + "/" + parts[2];
    if (parts.size() > 2 && (parts[0] == "importers" || parts[0] == "assimp_glue")) return parts[0] + "/" + parts[1];
    if (parts.size() > 1 && parts[0] == "include") return parts[1];
    return parts.empty() ? std::string() : parts[0];
}

// docs/architecture.md "Layers and rooms": which rooms a room may include. A room always includes itself.
bool MayInclude(const std::string &from, const std::string &to) {
    if (from == to || to == "common") return true;
    if (from == "common") return false;
    if (StartsWith(from, "importers/roblox_model/")) { // document ← geometry ← appearance ← avatar; document ← motion
        const std::string room = from.substr(std::string("importers/roblox_model/").size());
        const std::string doc = "importers/roblox_model/document", geo = "importers/roblox_model/geometry";
        if (room == "geometry" || room == "motion") return to == doc;
        if (room == "appearance") return to == doc || to == geo;
        if (room == "avatar")
            return to == doc || to == geo || to == "importers/roblox_model/appearance" ||
                   to == "importers/roblox_model/motion";
        return false;
    }
    if (StartsWith(from, "importers/")) return false; // a codec uses common/ and its own folder only
    if (from == "meshing") return StartsWith(to, "importers/");
    if (from == "gamefmt") return false;
    if (StartsWith(from, "assimp_glue")) {
        if (StartsWith(to, "importers/") || to == "meshing" || to == "gamefmt" || to == "assimp_glue/common")
            return true;
        return from == "assimp_glue" && StartsWith(to, "assimp_glue/"); // register.cpp lists every format
    }
    return true; // tools/: the command line uses every layer
}

// Every #include "…" of the library's sources obeys the layers: nothing points up, codecs stay apart, one format's
// glue does not use another's (what two formats share is in assimp_glue/common/), the Roblox model's rooms keep
// their order.
TEST(HouseRules, EveryIncludeStaysInItsLayer) {
    const std::filesystem::path root(GAMEFMT_SOURCE_DIR);
    const std::regex include("#include \"([^\"]+)\"");
    std::size_t checked = 0;
    for (const char *dir : {"common", "importers", "meshing", "assimp_glue", "include"}) {
        for (const auto &entry : std::filesystem::recursive_directory_iterator(root / dir)) {
            const std::string ext = entry.path().extension().string();
            if (!entry.is_regular_file() || (ext != ".cpp" && ext != ".hpp" && ext != ".h")) continue;
            const std::string file = entry.path().lexically_relative(root).generic_string();
            const std::string from = RoomOf(file), text = ReadText(entry.path());
            for (auto m = std::sregex_iterator(text.begin(), text.end(), include); m != std::sregex_iterator(); ++m) {
                const std::string target = (*m)[1].str();
                if (target.find('/') == std::string::npos) continue; // a file beside it
                ++checked;
                EXPECT_TRUE(MayInclude(from, RoomOf(target))) << file << " (" << from << ") includes " << target;
            }
        }
    }
    EXPECT_GT(checked, 400u);
    // The rule itself, on the edges it exists to refuse.
    EXPECT_FALSE(MayInclude("importers/roblox_model/document", "importers/roblox_model/motion"));
    EXPECT_FALSE(MayInclude("importers/roblox_model/geometry", "meshing"));
    EXPECT_FALSE(MayInclude("importers/roblox_model/motion", "importers/roblox_model/avatar"));
    EXPECT_FALSE(MayInclude("importers/roblox_model/appearance", "importers/roblox_model/avatar"));
    EXPECT_FALSE(MayInclude("assimp_glue/sl_mesh", "assimp_glue/roblox_mesh"));
    EXPECT_FALSE(MayInclude("assimp_glue/roblox_model", "assimp_glue/roblox_mesh"));
    EXPECT_FALSE(MayInclude("meshing", "assimp_glue/common"));
    EXPECT_FALSE(MayInclude("importers/sl_mesh", "importers/roblox_mesh"));
    EXPECT_FALSE(MayInclude("common", "importers/redguard"));
}

// Every source, test, script and document cites the repository's own references (docs/formats/): nothing points at
// the team's references beside the repository. The shared corpus is read in place by tests (and may be named).
TEST(HouseRules, NothingCitesReferencesOutsideTheRepository) {
    const std::filesystem::path root(GAMEFMT_SOURCE_DIR);
    const std::string outside = std::string("shared/") + "formats"; // split so this file does not match itself
    std::size_t scanned = 0;
    for (const char *dir : {"common", "importers", "meshing", "assimp_glue", "include", "tools", "tests", "fuzz",
                            "bench", "scripts", "docs", "integrations", ".ci"}) {
        if (!std::filesystem::exists(root / dir)) continue;
        for (const auto &entry : std::filesystem::recursive_directory_iterator(root / dir)) {
            if (!entry.is_regular_file() || entry.file_size() > (4u << 20)) continue;
            const std::string ext = entry.path().extension().string();
            if (ext == ".png" || ext == ".jpg" || ext == ".glb" || ext == ".pyc") continue;
            ++scanned;
            EXPECT_EQ(ReadText(entry.path()).find(outside), std::string::npos)
                << entry.path().lexically_relative(root).generic_string() << " cites " << outside;
        }
    }
    for (const char *file : {"README.md", "CMakeLists.txt"})
        EXPECT_EQ(ReadText(root / file).find(outside), std::string::npos) << file;
    EXPECT_GT(scanned, 200u);
}

// "Every new option is a documented Assimp property and a CLI flag": each #define in config.hpp has a comment
// naming its CLI form, a row in the README's option table, and — when the CLI form is a named flag — that flag
// in the command line's table.
TEST(HouseRules, EveryOptionIsDocumentedAndReachableFromTheCommandLine) {
    const std::filesystem::path root(GAMEFMT_SOURCE_DIR);
    const std::string config = ReadText(root / "include/gamefmt/config.hpp");
    const std::string readme = ReadText(root / "README.md");
    const std::string cli = ReadText(root / "tools/gamefmt/options.cpp");
    const std::regex define(R"(#define (GAMEFMT_[A-Z0-9_]+) )");
    std::size_t options = 0;
    std::size_t previousEnd = 0;
    for (auto it = std::sregex_iterator(config.begin(), config.end(), define); it != std::sregex_iterator(); ++it) {
        const std::string name = (*it)[1];
        const std::size_t at = static_cast<std::size_t>(it->position());
        const std::string comment = config.substr(previousEnd, at - previousEnd);
        previousEnd = at + static_cast<std::size_t>(it->length());
        ++options;
        EXPECT_NE(readme.find("`" + name + "`"), std::string::npos) << name << " has no row in README.md";
        const std::size_t cliAt = comment.rfind("CLI:");
        ASSERT_NE(cliAt, std::string::npos) << name << ": its comment in config.hpp names no CLI form";
        std::smatch flag;
        const std::string cliText = comment.substr(cliAt);
        if (std::regex_search(cliText, flag, std::regex(R"(CLI: (--[a-z0-9-]+))")) && flag[1] != "--option") {
            EXPECT_NE(cli.find("{\"" + std::string(flag[1]) + "\""), std::string::npos)
                << name << ": flag " << flag[1] << " is not in the command line's NamedOptions table";
        }
    }
    EXPECT_GE(options, 20u);
}

} // namespace
