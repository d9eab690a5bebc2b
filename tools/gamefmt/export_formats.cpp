// Export format listing and lookup.
#include "export_formats.hpp"

#include "assimp_glue/roblox_model_exporter.hpp"

#include <assimp/DefaultIOSystem.h>
#include <assimp/Exporter.hpp>
#include <assimp/scene.h>

#include <algorithm>
#include <cctype>
#include <exception>
#include <unordered_set>

namespace gamefmt::cli {
namespace {

std::string Lower(std::string text) {
    std::transform(text.begin(), text.end(), text.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    return text;
}

} // namespace

std::vector<ExportFormat> ListExportFormats(const Assimp::Exporter &exporter) {
    std::unordered_set<std::string> builtins;
    const Assimp::Exporter plain;
    for (std::size_t i = 0; i < plain.GetExportFormatCount(); ++i)
        if (const aiExportFormatDesc *desc = plain.GetExportFormatDescription(i)) builtins.insert(desc->id);

    std::vector<ExportFormat> formats;
    for (std::size_t i = 0; i < exporter.GetExportFormatCount(); ++i) {
        const aiExportFormatDesc *desc = exporter.GetExportFormatDescription(i);
        if (desc == nullptr || desc->id == nullptr) continue;
        ExportFormat format;
        format.id = desc->id;
        format.extension = desc->fileExtension != nullptr ? desc->fileExtension : "";
        format.description = desc->description != nullptr ? desc->description : "";
        format.gamefmt = builtins.count(format.id) == 0;
        formats.push_back(std::move(format));
    }
    return formats;
}

const ExportFormat *FindFormatById(const std::vector<ExportFormat> &formats, const std::string &id) {
    for (const ExportFormat &format : formats)
        if (format.id == id) return &format;
    return nullptr;
}

const ExportFormat *FindFormatForExtension(const std::vector<ExportFormat> &formats, const std::string &extension) {
    std::string ext = Lower(extension);
    if (!ext.empty() && ext[0] == '.') ext.erase(0, 1);
    if (ext.empty()) return nullptr;
    // Roblox places share the model exporters: the writer layout is the same, only the name differs.
    if (ext == "rbxl")
        ext = "rbxm";
    else if (ext == "rbxlx")
        ext = "rbxmx";
    for (const ExportFormat &format : formats)
        if (format.gamefmt && Lower(format.extension) == ext) return &format;
    for (const ExportFormat &format : formats)
        if (Lower(format.extension) == ext) return &format;
    return nullptr;
}

bool ExportWithoutCopy(const aiScene &scene, const std::string &id, const std::string &path,
                       const Assimp::ExportProperties &properties, std::string &error) {
    for (const Assimp::Exporter::ExportFormatEntry &entry : glue::RobloxModelExportEntries()) {
        if (id != entry.mDescription.id || entry.mEnforcePP != 0) continue;
        Assimp::DefaultIOSystem io;
        try {
            entry.mExportFunction(path.c_str(), &io, &scene, &properties);
            error.clear();
        } catch (const std::exception &e) {
            error = e.what();
            if (error.empty()) error = "the " + id + " exporter failed";
        }
        return true;
    }
    return false;
}

} // namespace gamefmt::cli
