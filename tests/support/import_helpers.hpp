// Test helpers: import a file or a buffer through an Importer with gamefmt registered and
// aiProcess_ValidateDataStructure (plus extra-verbose re-validation), collecting validation warnings.
#pragma once

#include <assimp/Exporter.hpp>
#include <assimp/Importer.hpp>
#include <assimp/scene.h>

#include <cstdint>
#include <filesystem>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gamefmt::test {

struct ImportResult {
    std::unique_ptr<Assimp::Importer> importer; // owns the scene
    const aiScene *scene = nullptr;             // null when the import failed
    std::string error;                          // Importer::GetErrorString() on failure
    std::vector<std::string> validationWarnings;
    std::vector<std::string> log; // every line logged during the import

    explicit operator bool() const { return scene != nullptr; }
};

using ImporterSetup = std::function<void(Assimp::Importer &)>;

// Reads `path` with `flags | aiProcess_ValidateDataStructure` through a fresh registered Importer.
ImportResult ImportFile(const std::filesystem::path &path, unsigned flags = 0, const ImporterSetup &setup = {});

// Reads `bytes` with ReadFileFromMemory and the extension hint `hint` ("mesh", "obj", ...).
ImportResult ImportMemory(const std::vector<std::uint8_t> &bytes, const std::string &hint, unsigned flags = 0,
                          const ImporterSetup &setup = {});

// One export through a fresh Exporter with gamefmt registered: every blob the exporter wrote (the main file
// first, then e.g. submodels), or the exporter's error.
struct Exported {
    std::vector<std::uint8_t> bytes;              // the main file (files[0])
    std::vector<std::vector<std::uint8_t>> files; // every blob, in the exporter's order
    std::vector<std::string> names;               // their aiExportDataBlob names
    std::string error;                            // Exporter::GetErrorString() on failure
    bool ok = false;
};
Exported ExportScene(const aiScene *scene, const std::string &formatId,
                     const Assimp::ExportProperties *props = nullptr);

// The project's testdata/ folder.
std::filesystem::path TestDataDir();

// The real-file corpus, ../shared/corpus beside the project (or $GAMEFMT_CORPUS), if it is there.
std::optional<std::filesystem::path> CorpusDir();

// A fresh, empty scratch directory for one test (under the build tree).
std::filesystem::path ScratchDir(const std::string &name);

std::vector<std::uint8_t> ReadBytes(const std::filesystem::path &path);
void WriteBytes(const std::filesystem::path &path, const std::vector<std::uint8_t> &bytes);
void WriteText(const std::filesystem::path &path, const std::string &text);

// The aiImporterDesc name of the loader that handled the last ReadFile on `importer`, found through the
// scene's SourceAsset_Format (which Assimp fills with the loader's mName unless the loader set it).
std::string SourceFormat(const aiScene *scene);

} // namespace gamefmt::test

// Skips the current test when the corpus folder (or the named sub-folder) is absent.
#define GAMEFMT_REQUIRE_CORPUS(var, sub)                                                                               \
    const auto var##_root = ::gamefmt::test::CorpusDir();                                                              \
    if (!var##_root || !std::filesystem::exists(*var##_root / (sub)))                                                  \
        GTEST_SKIP() << "corpus folder '" << (sub) << "' not found (../shared/corpus or $GAMEFMT_CORPUS)";             \
    const std::filesystem::path var = *var##_root / (sub)
