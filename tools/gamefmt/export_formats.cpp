// Export format listing and lookup.
#include "export_formats.hpp"

#include "assimp_glue/gltf/nodes.hpp"
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
                  const Assimp::ExportProperties &properties, std::string &error) {
    Assimp::DefaultIOSystem io;
    Assimp::ExportProperties told = properties; // Exporter::Export tells every exporter this
    told.SetPropertyBool("bJoinIdenticalVertices", (entry.mEnforcePP & aiProcess_JoinIdenticalVertices) != 0);
    try {
        entry.mExportFunction(path.c_str(), &io, &scene, &told);
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

// glb2/gltf2 of a static scene (nodes, triangle meshes, materials, embedded images, cameras, lights), written by
// gamefmt's streamed writer (assimp_glue/gltf/nodes.hpp); .gltf puts its data beside it as <stem>.bin.
bool WriteStaticGltf(const aiScene &scene, bool binary, const std::string &path, std::string &error) {
    Assimp::DefaultIOSystem io;
    const std::size_t dot = path.find_last_of('.');
    const std::size_t slash = path.find_last_of("/\\");
    const std::string stem =
        dot != std::string::npos && (slash == std::string::npos || dot > slash) ? path.substr(0, dot) : path;
    try {
        glue::RunStreamingExport("glTF", "glTF", &scene, &io, [&](const glue::OpenOutput &open) {
            const glue::GltfWriteReport report = glue::WriteStaticGltf(scene, binary, path, stem + ".bin", open);
            if (report.lostMatrices != 0)
                Assimp::DefaultLogger::get()->warn(("glTF export: " + std::to_string(report.lostMatrices) +
                                                    " node(s) have a transform that is not finite; written without it")
                                                       .c_str());
            if (report.droppedItems != 0)
                Assimp::DefaultLogger::get()->warn(("glTF export: " + std::to_string(report.droppedItems) +
                                                    " camera(s) or light(s) left out (no node of their name, or an "
                                                    "area or ambient light, which glTF has not)")
                                                       .c_str());
        });
        error.clear();
    } catch (const std::exception &e) {
        error = e.what();
    }
    return true;
}

} // namespace

bool ExportWithoutCopy(const Assimp::Exporter &exporter, const aiScene &scene, const std::string &id,
                       const std::string &path, const Assimp::ExportProperties &properties, std::string &error) {
    for (const Assimp::Exporter::ExportFormatEntry &entry : glue::RobloxModelExportEntries())
        if (id == entry.mDescription.id && entry.mEnforcePP == 0)
            return CallExporter(entry, scene, path, properties, error);
    if ((id == "glb2" || id == "gltf2") && glue::IsStaticScene(scene))
        return WriteStaticGltf(scene, id == "glb2", path, error);
    if (scene.mNumMeshes != 0) return false;
    for (std::size_t i = 0; i < exporter.GetExportFormatCount(); ++i) {
        const aiExportFormatDesc *desc = exporter.GetExportFormatDescription(i);
        if (desc == nullptr || desc->id == nullptr || id != desc->id) continue;
        // Assimp returns the address of the description inside its ExportFormatEntry (the first member of a
        // standard-layout struct, 5.2.5 and later alike), which is how the worker function is reached without
        // Exporter::Export's deep copy. tests/cli checks the bytes equal Exporter::Export's.
        const auto *entry = reinterpret_cast<const Assimp::Exporter::ExportFormatEntry *>(desc);
        if (entry->mExportFunction == nullptr || !IsMeshOnlySteps(entry->mEnforcePP)) return false;
        return CallExporter(*entry, scene, path, properties, error);
    }
    return false;
}

} // namespace gamefmt::cli
