// Registration of gamefmt's importers and exporters on an Assimp::Importer / Assimp::Exporter.
#include "gamefmt/gamefmt.hpp"

#include "assimp_glue/common/fallback_importer.hpp"
#include "assimp_glue/gltf/exporter.hpp"
#include "assimp_glue/redguard/exporter.hpp"
#include "assimp_glue/redguard/importer.hpp"
#include "assimp_glue/redguard/level_importer.hpp"
#include "assimp_glue/roblox_mesh/exporter.hpp"
#include "assimp_glue/roblox_mesh/importer.hpp"
#include "assimp_glue/roblox_model/exporter.hpp"
#include "assimp_glue/roblox_model/importer.hpp"
#include "assimp_glue/sl_mesh/exporter.hpp"
#include "assimp_glue/sl_mesh/importer.hpp"
#include "importers/redguard/detect.hpp"
#include "importers/roblox_mesh/detect.hpp"

#include <assimp/Exporter.hpp>
#include <assimp/Importer.hpp>

#include <cstring>
#include <functional>

#ifndef GAMEFMT_VERSION_STRING
#define GAMEFMT_VERSION_STRING "0.0.0"
#endif

namespace gamefmt {
namespace {

struct ImporterEntry {
    const aiImporterDesc *desc;
    const char *clashingExtension; // a built-in claims it: put ours ahead (docs/formats/assimp-integration.md §2.3)
    bool readable;
    std::function<Assimp::BaseImporter *()> make;
    // With a clashing extension: our format and the built-in's, for the combined error (FallbackImporter).
    const char *ours = nullptr;
    glue::FallbackImporter::Mismatch mismatch = nullptr;
    const char *theirs = nullptr;
};

const std::vector<ImporterEntry> &ImporterTable() {
    static const std::vector<ImporterEntry> table = {
        {&glue::RobloxMeshImporter::Description(), "mesh", true, [] { return new glue::RobloxMeshImporter(); },
         "a Roblox mesh", &rbxmesh::DescribeMismatch, "an Ogre mesh"},
        {&glue::RobloxModelImporter::Description(), nullptr, true, [] { return new glue::RobloxModelImporter(); }},
        {&glue::SlMeshImporter::Description(), nullptr, true, [] { return new glue::SlMeshImporter(); }},
        {&glue::RedguardImporter::Description(), "3d", true, [] { return new glue::RedguardImporter(); },
         "a Redguard model", &redguard::DescribeMismatch, "an Unreal mesh"},
        {&glue::RedguardLevelImporter::Description(), nullptr, true, [] { return new glue::RedguardLevelImporter(); }},
    };
    return table;
}

// Exporters arrive with their formats. The entry strings must have static storage: Assimp keeps them by pointer.
const std::vector<Assimp::Exporter::ExportFormatEntry> &ExporterTable() {
    static const std::vector<Assimp::Exporter::ExportFormatEntry> table = [] {
        std::vector<Assimp::Exporter::ExportFormatEntry> entries;
        for (const auto &entry : glue::RobloxMeshExportEntries()) entries.push_back(entry);
        for (const auto &entry : glue::RobloxModelExportEntries()) entries.push_back(entry);
        for (const auto &entry : glue::SlMeshExportEntries()) entries.push_back(entry);
        for (const auto &entry : glue::RedguardExportEntries()) entries.push_back(entry);
        for (const auto &entry : glue::GltfExportEntries()) entries.push_back(entry);
        return entries;
    }();
    return table;
}

} // namespace

const char *Version() {
    return GAMEFMT_VERSION_STRING;
}

bool IsExpectedValidationWarning(const std::string &logLine) {
    const std::size_t at = logLine.find("Validation warning");
    return at != std::string::npos && logLine.find("aiBone::mNumWeights is zero", at) != std::string::npos;
}

bool IsGamefmtImporter(const Assimp::BaseImporter *loader) {
    if (loader == nullptr) return false;
    const aiImporterDesc *info = loader->GetInfo();
    if (info == nullptr || info->mName == nullptr) return false;
    for (const ImporterEntry &entry : ImporterTable())
        if (std::strcmp(info->mName, entry.desc->mName) == 0) return true;
    return false;
}

std::size_t RegisterImporters(Assimp::Importer &importer) {
    for (std::size_t i = 0; i < importer.GetImporterCount(); ++i)
        if (IsGamefmtImporter(importer.GetImporter(i))) return 0;

    std::size_t added = 0;
    for (const ImporterEntry &entry : ImporterTable()) {
        Assimp::BaseImporter *builtin =
            entry.clashingExtension != nullptr ? importer.GetImporter(entry.clashingExtension) : nullptr;
        // UnregisterLoader hands ownership back to us; RegisterLoader takes it again.
        if (builtin != nullptr) importer.UnregisterLoader(builtin);
        importer.RegisterLoader(entry.make());
        ++added;
        if (builtin != nullptr)
            importer.RegisterLoader(new glue::FallbackImporter(builtin, entry.ours, entry.mismatch, entry.theirs));
    }
    return added;
}

std::size_t RegisterExporters(Assimp::Exporter &exporter) {
    std::size_t added = 0;
    for (const Assimp::Exporter::ExportFormatEntry &entry : ExporterTable())
        if (exporter.RegisterExporter(entry) == AI_SUCCESS) ++added;
    return added;
}

std::unique_ptr<Assimp::Importer> MakeImporter() {
    auto importer = std::make_unique<Assimp::Importer>();
    RegisterImporters(*importer);
    return importer;
}

std::unique_ptr<Assimp::Exporter> MakeExporter() {
    auto exporter = std::make_unique<Assimp::Exporter>();
    RegisterExporters(*exporter);
    return exporter;
}

std::vector<FormatInfo> Formats() {
    std::vector<FormatInfo> formats;
    for (const ImporterEntry &entry : ImporterTable())
        formats.push_back({entry.desc->mName, entry.desc->mFileExtensions, entry.readable});
    return formats;
}

} // namespace gamefmt
