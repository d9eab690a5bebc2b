// Hostile variants of every fixture (issue #11, docs/security.md): for each gamefmt file in testdata/ (and in
// ../shared/corpus/ when it is there), 64 truncations and 200 seeded random byte flips, each imported with
// validation under the test build's ASan/UBSan. Every variant must give a valid scene or an error naming the
// format and the byte offset; a crash, hang or abort fails the run. Deterministic: fixed seeds, fixed cut points.
//
// Also: every fuzz seed through the CLI's default preset and through glb export, so LeakSanitizer (at exit)
// sees every path a seed takes.
#include "fixtures/fuzz_seed_fixtures.hpp"
#include "gamefmt/gamefmt.hpp"
#include "support/import_helpers.hpp"

#include <assimp/Exporter.hpp>
#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <filesystem>
#include <ostream>
#include <random>
#include <string>
#include <vector>

namespace gamefmt {
namespace {

namespace fs = std::filesystem;

struct MutationCase {
    std::string name; // for the test name
    fs::path path;
    std::string hint;   // extension, lower case, no dot
    std::string format; // what an error must name
};

// The format an error about a file with this extension must name; empty for files that are not ours.
std::string FormatOf(const std::string &extension) {
    if (extension == "mesh") return "Roblox mesh";
    if (extension == "rbxm" || extension == "rbxl" || extension == "rbxmx" || extension == "rbxlx")
        return "Roblox model";
    if (extension == "llmesh" || extension == "slm") return "Second Life mesh";
    if (extension == "3d" || extension == "3dc" || extension == "rob" || extension == "rgm" || extension == "wld")
        return "Redguard";
    return {};
}

std::string Lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return s;
}

void AddCase(std::vector<MutationCase> &cases, const fs::path &path, const std::string &label) {
    const std::string extension = Lower(path.extension().string().substr(path.has_extension() ? 1 : 0));
    const std::string format = FormatOf(extension);
    if (format.empty()) return;
    std::string name = label;
    for (char &c : name)
        if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
    cases.push_back({name, path, extension, format});
}

std::vector<MutationCase> Cases() {
    std::vector<MutationCase> cases;
    std::vector<fs::path> files;
    for (const auto &entry : fs::directory_iterator(test::TestDataDir())) files.push_back(entry.path());
    std::sort(files.begin(), files.end());
    for (const fs::path &f : files) AddCase(cases, f, "testdata_" + f.filename().string());
    if (const auto corpus = test::CorpusDir()) {
        std::vector<fs::path> real;
        for (const char *sub : {"mesh", "rbx/rbx-test-files"}) {
            if (!fs::exists(*corpus / sub)) continue;
            for (const auto &entry : fs::recursive_directory_iterator(*corpus / sub))
                if (entry.is_regular_file()) real.push_back(entry.path());
        }
        std::sort(real.begin(), real.end());
        for (const fs::path &f : real) AddCase(cases, f, "corpus_" + fs::relative(f, *corpus).string());
    }
    return cases;
}

// FNV-1a 64 of the case name: each file gets its own fixed random stream.
std::uint64_t Seed(const std::string &name) {
    std::uint64_t h = 0xCBF29CE484222325ull;
    for (char c : name) h = (h ^ static_cast<unsigned char>(c)) * 0x100000001B3ull;
    return h;
}

// gtest prints a parameter in failure messages and test lists: the path, not the struct's bytes.
void PrintTo(const MutationCase &c, std::ostream *out) {
    *out << c.path.string();
}

class Mutation : public ::testing::TestWithParam<MutationCase> {};

TEST_P(Mutation, TruncationsAndByteFlipsGiveASceneOrANamedError) {
    const MutationCase &c = GetParam();
    const std::vector<std::uint8_t> original = test::ReadBytes(c.path);
    ASSERT_FALSE(original.empty());
    const std::unique_ptr<Assimp::Importer> importer = MakeImporter();

    std::size_t scenes = 0, errors = 0;
    const auto check = [&](const std::vector<std::uint8_t> &bytes, const std::string &what) {
        // ReadFileFromMemory refuses an empty buffer before any importer sees it; one byte is the least.
        const std::vector<std::uint8_t> &input = bytes.empty() ? std::vector<std::uint8_t>{0} : bytes;
        const aiScene *scene =
            importer->ReadFileFromMemory(input.data(), input.size(), aiProcess_ValidateDataStructure, c.hint.c_str());
        if (scene != nullptr) {
            ++scenes;
            importer->FreeScene();
            return;
        }
        ++errors;
        const std::string error = importer->GetErrorString();
        EXPECT_NE(error.find(c.format), std::string::npos) << what << ": " << error;
        // ... and where in the file the problem is (issue #11: every codec error gives the byte offset).
        EXPECT_NE(error.find("byte offset"), std::string::npos) << what << ": " << error;
    };

    // 64 cut points spread over the file (0 included, the whole file excluded).
    for (std::size_t k = 0; k < 64; ++k) {
        const std::size_t length = original.size() * k / 64;
        check(std::vector<std::uint8_t>(original.begin(), original.begin() + static_cast<std::ptrdiff_t>(length)),
              "truncated to " + std::to_string(length) + " bytes");
    }
    // 200 variants with 1-8 bytes set to other values.
    std::mt19937_64 rng(Seed(c.name));
    for (int i = 0; i < 200; ++i) {
        std::vector<std::uint8_t> bytes = original;
        const int flips = 1 + static_cast<int>(rng() % 8);
        std::string what = "variant " + std::to_string(i) + " flipping";
        for (int f = 0; f < flips; ++f) {
            const std::size_t at = rng() % bytes.size();
            bytes[at] ^= static_cast<std::uint8_t>(1 + rng() % 255);
            what += " " + std::to_string(at);
        }
        check(bytes, what);
    }
    EXPECT_EQ(scenes + errors, 264u);
}

INSTANTIATE_TEST_SUITE_P(Files, Mutation, ::testing::ValuesIn(Cases()),
                         [](const ::testing::TestParamInfo<MutationCase> &info) { return info.param.name; });

// Every input a fuzzer ever found a problem with (fuzz/regressions/<target>/, named by content hash) imports to
// a scene or an error naming its format, under the suite's sanitizers, and a scene exports to glb.
TEST(FuzzRegressions, EveryPastFindingIsHandled) {
    const fs::path root = fs::path(GAMEFMT_SOURCE_DIR) / "fuzz" / "regressions";
    std::size_t files = 0;
    for (const auto &entry : fs::recursive_directory_iterator(root)) {
        if (!entry.is_regular_file()) continue;
        const std::string extension = Lower(entry.path().extension().string().substr(1));
        const std::string format = FormatOf(extension);
        ASSERT_FALSE(format.empty()) << entry.path();
        const std::vector<std::uint8_t> bytes = test::ReadBytes(entry.path());
        const std::unique_ptr<Assimp::Importer> importer = MakeImporter();
        const aiScene *scene = importer->ReadFileFromMemory(bytes.data(), bytes.size(), aiProcess_ValidateDataStructure,
                                                            extension.c_str());
        if (scene == nullptr) {
            EXPECT_NE(std::string(importer->GetErrorString()).find(format), std::string::npos)
                << entry.path() << ": " << importer->GetErrorString();
        } else {
            // and what it imports to is written by our glTF writer, as the fuzz targets do
            const std::unique_ptr<Assimp::Exporter> exporter = MakeExporter();
            EXPECT_NE(exporter->ExportToBlob(scene, "gamefmt-glb"), nullptr)
                << entry.path() << ": " << exporter->GetErrorString();
        }
        ++files;
    }
    EXPECT_GE(files, 1u);
}

// The extension each whole-import fuzz target's seeds are read with (fuzz/CMakeLists.txt).
const char *HintOf(const std::string &target) {
    if (target == "roblox_mesh") return "mesh";
    if (target == "roblox_model") return "rbxm";
    if (target == "roblox_model_xml") return "rbxmx";
    if (target == "roblox_place") return "rbxl";
    if (target == "sl_mesh") return "llmesh";
    if (target == "redguard") return "3d";
    if (target == "redguard_rob") return "rob";
    if (target == "redguard_rgm") return "rgm";
    if (target == "redguard_wld") return "wld";
    return nullptr;
}

TEST(FuzzSeeds, ThroughTheCliPresetAndGlbExport) {
    std::size_t seeds = 0, exported = 0;
    for (const auto &[target, files] : fixtures::FuzzSeedSets()) {
        const char *hint = HintOf(target);
        if (hint == nullptr) continue; // codec-only targets
        for (const fixtures::Fixture &f : files) {
            ++seeds;
            const std::unique_ptr<Assimp::Importer> importer = MakeImporter();
            const aiScene *scene = importer->ReadFileFromMemory(f.bytes.data(), f.bytes.size(), 0, hint);
            if (scene == nullptr) continue; // e.g. the header-only seeds: an error is fine, a leak is not
            // glb export of the raw scene with gamefmt's writer (what `gamefmt export x y.glb` does) ...
            const std::unique_ptr<Assimp::Exporter> exporter = MakeExporter();
            exported += exporter->ExportToBlob(scene, "gamefmt-glb") != nullptr ? 1 : 0;
            // ... then the preset `gamefmt info` applies (skipped for incomplete scenes, as the CLI does).
            if ((scene->mFlags & AI_SCENE_FLAGS_INCOMPLETE) == 0)
                (void)importer->ApplyPostProcessing(aiProcessPreset_TargetRealtime_MaxQuality |
                                                    aiProcess_ValidateDataStructure);
        }
    }
    EXPECT_GT(seeds, 30u);
    EXPECT_GT(exported, 20u);
}

} // namespace
} // namespace gamefmt
