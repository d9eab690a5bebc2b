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
    std::ifstream in(path);
    std::stringstream text;
    text << in.rdbuf();
    return text.str();
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
