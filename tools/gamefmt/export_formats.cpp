// Export format listing and lookup.
#include "export_formats.hpp"

#include "assimp_glue/gltf/exporter.hpp"
#include "assimp_glue/gltf/writer.hpp"
#include "assimp_glue/roblox_model/exporter.hpp"
#include "common/ascii.hpp"

#include <assimp/DefaultIOSystem.h>
#include <assimp/DefaultLogger.hpp>
#include <assimp/Exporter.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <algorithm>
#include <cctype>
#include <exception>
#include <unordered_set>

namespace gamefmt::cli {
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
    std::string ext = AsciiLower(extension);
    if (!ext.empty() && ext[0] == '.') ext.erase(0, 1);
    if (ext.empty()) return nullptr;
    // Roblox places share the model exporters: the writer layout is the same, only the name differs.
    if (ext == "rbxl")
        ext = "rbxm";
    else if (ext == "rbxlx")
        ext = "rbxmx";
    for (const ExportFormat &format : formats)
        if (format.gamefmt && AsciiLower(format.extension) == ext) return &format;
    for (const ExportFormat &format : formats)
        if (AsciiLower(format.extension) == ext) return &format;
    return nullptr;
}

namespace {

// Calls `entry` the way Exporter::Export would after its scene copy: true with `error` empty on success.
bool CallExporter(const Assimp::Exporter::ExportFormatEntry &entry, const aiScene &scene, const std::string &path,
                  const Assimp::ExportProperties &properties, std::string &error, Assimp::IOSystem *io) {
    Assimp::DefaultIOSystem defaultIo;
    if (io == nullptr) io = &defaultIo;
    Assimp::ExportProperties told = properties; // Exporter::Export tells every exporter this
    told.SetPropertyBool("bJoinIdenticalVertices", (entry.mEnforcePP & aiProcess_JoinIdenticalVertices) != 0);
    try {
        entry.mExportFunction(path.c_str(), io, &scene, &told);
        error.clear();
    } catch (const std::exception &e) {
        error = e.what();
        if (error.empty()) error = std::string("the ") + entry.mDescription.id + " exporter failed";
    }
    return true;
}

// Steps that only touch meshes (glTF 2 and 3DS enforce JoinIdenticalVertices, Triangulate and SortByPType; OBJ
// GenSmoothNormals; Collada, FBX and others none): on a scene without meshes the copy Exporter::Export makes
// first is pure cost. X (left-handed) and PLY/STL (PreTransformVertices) change nodes and keep the copy.
bool IsMeshOnlySteps(unsigned steps) {
    constexpr unsigned kMeshOnly = aiProcess_JoinIdenticalVertices | aiProcess_Triangulate | aiProcess_SortByPType |
                                   aiProcess_GenNormals | aiProcess_GenSmoothNormals | aiProcess_ValidateDataStructure;
    return (steps & ~kMeshOnly) == 0;
}

} // namespace

bool ExportWithoutCopy(const Assimp::Exporter &exporter, const aiScene &scene, const std::string &id,
                       const std::string &path, const Assimp::ExportProperties &properties, std::string &error,
                       Assimp::IOSystem *io) {
    for (const Assimp::Exporter::ExportFormatEntry &entry : glue::RobloxModelExportEntries())
        if (id == entry.mDescription.id && entry.mEnforcePP == 0)
            return CallExporter(entry, scene, path, properties, error, io);
    // gamefmt's glTF writer takes meshes of one primitive type as they are: no copy needed.
    for (const Assimp::Exporter::ExportFormatEntry &entry : glue::GltfExportEntries())
        if (id == entry.mDescription.id && glue::HasCleanPrimitives(scene))
            return CallExporter(entry, scene, path, properties, error, io);
    if (scene.mNumMeshes != 0) return false;
    for (std::size_t i = 0; i < exporter.GetExportFormatCount(); ++i) {
        const aiExportFormatDesc *desc = exporter.GetExportFormatDescription(i);
        if (desc == nullptr || desc->id == nullptr || id != desc->id) continue;
        // Assimp returns the address of the description inside its ExportFormatEntry (the first member of a
        // standard-layout struct, 5.2.5 and later alike), which is how the worker function is reached without
        // Exporter::Export's deep copy. tests/cli checks the bytes equal Exporter::Export's.
        const auto *entry = reinterpret_cast<const Assimp::Exporter::ExportFormatEntry *>(desc);
        if (entry->mExportFunction == nullptr || !IsMeshOnlySteps(entry->mEnforcePP)) return false;
        return CallExporter(*entry, scene, path, properties, error, io);
    }
    return false;
}

} // namespace gamefmt::cli
