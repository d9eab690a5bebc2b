// Rules of the house that a compiler does not check (assimp-integration.md §13 "Errors and build").
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
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

} // namespace
