// The export formats an Exporter with gamefmt registered offers, and how the verbs pick one: by id, or by
// the output file's extension, preferring gamefmt's own exporters for their extensions.
#pragma once

#include <string>
#include <vector>

struct aiScene;
namespace Assimp {
class Exporter;
class ExportProperties;
class IOSystem;
} // namespace Assimp

namespace gamefmt::cli {

struct ExportFormat {
    std::string id;
    std::string extension; // without the dot
    std::string description;
    bool gamefmt = false; // one of ours rather than an Assimp built-in
};

// Every format of `exporter`, in its order. Ours are told apart as the ids a plain Exporter lacks.
std::vector<ExportFormat> ListExportFormats(const Assimp::Exporter &exporter);

// The format with id `id` (exact), or null.
const ExportFormat *FindFormatById(const std::vector<ExportFormat> &formats, const std::string &id);

// The format to write a file with extension `extension` (case-insensitive, with or without the dot): ours
// first, then the first matching entry (so "glb" gives gamefmt-glb and "gltf" gamefmt-gltf). Null when none matches.
const ExportFormat *FindFormatForExtension(const std::vector<ExportFormat> &formats, const std::string &extension);

// Writes `scene` by calling the exporter directly where Exporter::Export's deep copy of the scene buys
// nothing — for a 300,000-instance place that copy is 340 MB of nodes: gamefmt's Roblox model exporters
// (no post-processing), and, for scenes without meshes, every Assimp exporter whose enforced steps only touch
// meshes (3ds, collada, fbx, obj, …; not x, ply or stl), and gamefmt's glTF writer (gamefmt-glb/-gltf) when
// every mesh has faces of one primitive type (glue::HasCleanPrimitives; otherwise its enforced Triangulate and
// SortByPType need the copy).
// Returns false (and writes nothing) otherwise; when true, `error` is empty on success. Files are written through
// `io` (null: Assimp's default IOSystem), as Exporter::Export writes through the exporter's IOHandler.
bool ExportWithoutCopy(const Assimp::Exporter &exporter, const aiScene &scene, const std::string &id,
                       const std::string &path, const Assimp::ExportProperties &properties, std::string &error,
                       Assimp::IOSystem *io = nullptr);

// The usage hint every "unknown format" message ends with.
inline constexpr const char *kListExportHint = "run 'gamefmt listexport' for the format ids";

} // namespace gamefmt::cli
