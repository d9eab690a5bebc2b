// Test helpers for importing through a registered, validating Importer.
#include "support/import_helpers.hpp"

#include "common/utf8_path.hpp"
#include "gamefmt/gamefmt.hpp"
#include "support/log_capture.hpp"

#include <assimp/commonMetaData.h>
#include <assimp/postprocess.h>

#include <cstdlib>
#include <fstream>
#include <stdexcept>

namespace gamefmt::test {
namespace {

ImportResult Run(const std::function<const aiScene *(Assimp::Importer &)> &read, const ImporterSetup &setup) {
    ImportResult result;
    result.importer = gamefmt::MakeImporter();
    result.importer->SetExtraVerbose(true); // re-validates after every post-processing step (debug Assimp)
    if (setup) setup(*result.importer);
    LogCapture capture;
    result.scene = read(*result.importer);
    if (result.scene == nullptr) result.error = result.importer->GetErrorString();
    result.log = capture.lines();
    for (const std::string &line : result.log)
        if (line.find("Validation warning") != std::string::npos && !gamefmt::IsExpectedValidationWarning(line))
            result.validationWarnings.push_back(line);
    return result;
}

} // namespace

ImportResult ImportFile(const std::filesystem::path &path, unsigned flags, const ImporterSetup &setup) {
    return Run(
        [&](Assimp::Importer &imp) {
            return imp.ReadFile(gamefmt::PathToUtf8(path), flags | aiProcess_ValidateDataStructure);
        },
        setup);
}

ImportResult ImportMemory(const std::vector<std::uint8_t> &bytes, const std::string &hint, unsigned flags,
                          const ImporterSetup &setup) {
    return Run(
        [&](Assimp::Importer &imp) {
            return imp.ReadFileFromMemory(bytes.data(), bytes.size(), flags | aiProcess_ValidateDataStructure,
                                          hint.c_str());
        },
        setup);
}

Exported ExportScene(const aiScene *scene, const std::string &formatId, const Assimp::ExportProperties *props) {
    const std::unique_ptr<Assimp::Exporter> exporter = gamefmt::MakeExporter();
    Exported out;
    const aiExportDataBlob *blob = exporter->ExportToBlob(scene, formatId.c_str(), 0u, props);
    if (blob == nullptr) {
        out.error = exporter->GetErrorString();
        return out;
    }
    for (; blob != nullptr; blob = blob->next) {
        const auto *data = static_cast<const std::uint8_t *>(blob->data);
        out.files.emplace_back(data, data + blob->size);
        out.names.emplace_back(blob->name.C_Str());
    }
    out.bytes = out.files.front();
    out.ok = true;
    return out;
}

std::filesystem::path TestDataDir() {
    return std::filesystem::path(GAMEFMT_SOURCE_DIR) / "testdata";
}

std::optional<std::filesystem::path> CorpusDir() {
    if (const char *env = std::getenv("GAMEFMT_CORPUS"); env != nullptr && *env != '\0') {
        if (std::filesystem::is_directory(env)) return std::filesystem::path(env);
        return std::nullopt;
    }
    const std::filesystem::path dir = std::filesystem::path(GAMEFMT_SOURCE_DIR) / ".." / "shared" / "corpus";
    if (std::filesystem::is_directory(dir)) return std::filesystem::weakly_canonical(dir);
    return std::nullopt;
}

std::filesystem::path ScratchDir(const std::string &name) {
    const std::filesystem::path dir = std::filesystem::path(GAMEFMT_BINARY_DIR) / "test-scratch" / name;
    std::filesystem::remove_all(dir);
    std::filesystem::create_directories(dir);
    return dir;
}

std::vector<std::uint8_t> ReadBytes(const std::filesystem::path &path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot open " + path.string());
    return std::vector<std::uint8_t>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void WriteBytes(const std::filesystem::path &path, const std::vector<std::uint8_t> &bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char *>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    if (!out) throw std::runtime_error("cannot write " + path.string());
}

void WriteText(const std::filesystem::path &path, const std::string &text) {
    WriteBytes(path, std::vector<std::uint8_t>(text.begin(), text.end()));
}

std::string SourceFormat(const aiScene *scene) {
    if (scene == nullptr || scene->mMetaData == nullptr) return {};
    aiString value;
    if (!scene->mMetaData->Get(AI_METADATA_SOURCE_FORMAT, value)) return {};
    return value.C_Str();
}

} // namespace gamefmt::test
