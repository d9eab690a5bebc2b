// The gamefmt-glb / gamefmt-gltf exporters (exporter.hpp).
#include "assimp_glue/gltf/exporter.hpp"

#include "assimp_glue/common/io_util.hpp"

#include "assimp_glue/common/export_util.hpp"
#include "assimp_glue/gltf/writer.hpp"
#include "gamefmt/config.hpp"

#include <assimp/DefaultLogger.hpp>
#include <assimp/IOStream.hpp>
#include <assimp/IOSystem.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <memory>
#include <string>

namespace gamefmt::glue {
namespace {

constexpr std::size_t kMaxTextureBytes = std::size_t(256) << 20;

void Warn(std::size_t count, const std::string &what) {
    if (count != 0) Assimp::DefaultLogger::get()->warn(("glTF export: " + std::to_string(count) + " " + what).c_str());
}

GltfOptions OptionsFrom(const Assimp::ExportProperties *props, Assimp::IOSystem *io, bool binary) {
    GltfOptions options;
    options.binary = binary;
    if (props != nullptr) {
        options.keepUnits = ReadExportBool(*props, GAMEFMT_GLTF_KEEP_UNITS, "glTF").value_or(false);
        options.draco = ReadExportBool(*props, GAMEFMT_GLTF_DRACO, "glTF").value_or(false);
        options.meshopt = ReadExportBool(*props, GAMEFMT_GLTF_MESHOPT, "glTF").value_or(false);
        std::string text;
        if (ReadExportText(*props, GAMEFMT_GLTF_MAX_INFLUENCES, text, "%.0f")) {
            if (text != "4" && text != "8")
                ThrowExportError("glTF export: " GAMEFMT_GLTF_MAX_INFLUENCES " must be 4 or 8, not '" + text + "'");
            options.maxInfluences = text == "4" ? 4 : 8;
        }
    }
    std::string base;
    if (props != nullptr) ReadExportText(*props, GAMEFMT_GLTF_TEXTURE_BASE, base);
    options.readFile = MakeTextureReader(io, base, kMaxTextureBytes);
    return options;
}

void Export(const char *path, Assimp::IOSystem *io, const aiScene *scene, const Assimp::ExportProperties *props,
            bool binary) {
    const GltfOptions options = OptionsFrom(props, io, binary);
    const std::string target = path != nullptr ? path : "";
    const std::size_t dot = target.find_last_of('.');
    const std::size_t slash = target.find_last_of("/\\");
    const std::string stem =
        dot != std::string::npos && (slash == std::string::npos || dot > slash) ? target.substr(0, dot) : target;
    RunStreamingExport("glTF", "glTF", scene, io, [&](const OpenOutput &open) {
        const GltfWriteReport r = WriteGltf(*scene, options, target, stem + ".bin", open);
        Warn(r.lostMatrices, "node transform(s) not finite; written without them");
        Warn(r.droppedItems,
             "camera(s), light(s) or joint(s) without a node of their name (area and ambient lights: glTF has none)");
        Warn(r.droppedTextures, "texture(s) left out (not PNG/JPEG, not found, or on a UV set a primitive lacks)");
        Warn(r.trimmedVertices,
             "vertices had more bone influences than kept (GAMEFMT_GLTF_MAX_INFLUENCES); the heaviest kept");
        Warn(r.unweightedVertices, "skinned vertices had no weight; bound to their skin's first joint");
        Warn(r.droppedKeys, "animation key(s) out of order, negative or not finite; left out");
        Warn(r.droppedChannels, "animation channel(s) naming no node (or a skinned mesh's node); left out");
        Warn(r.droppedFaces, "face(s) left out: points or lines in a triangle mesh, or indices out of range");
        Warn(r.fixedValues, "vertex position(s) not finite; written as 0");
        if (r.noGeometry)
            Assimp::DefaultLogger::get()->warn("glTF export: the scene has no mesh: the file holds nodes only (Godot 3 "
                                               "refuses such files)");
    });
}

void ExportGlb(const char *path, Assimp::IOSystem *io, const aiScene *scene, const Assimp::ExportProperties *props) {
    Export(path, io, scene, props, true);
}

void ExportGltf(const char *path, Assimp::IOSystem *io, const aiScene *scene, const Assimp::ExportProperties *props) {
    Export(path, io, scene, props, false);
}

} // namespace

const std::vector<Assimp::Exporter::ExportFormatEntry> &GltfExportEntries() {
    using Entry = Assimp::Exporter::ExportFormatEntry;
    // Triangulate and SortByPType give every mesh one primitive type; no JoinIdenticalVertices (our meshes are
    // indexed already, and it does not remap anim meshes).
    static const std::vector<Entry> entries = {
        Entry("gamefmt-glb",
              "glTF 2.0 binary by gamefmt (skins, morph targets with names, animations, metadata as extras, "
              "metres; Assimp's is glb2)",
              "glb", &ExportGlb, aiProcess_Triangulate | aiProcess_SortByPType),
        Entry("gamefmt-gltf", "glTF 2.0 JSON + .bin by gamefmt (Assimp's is gltf2)", "gltf", &ExportGltf,
              aiProcess_Triangulate | aiProcess_SortByPType),
    };
    return entries;
}

} // namespace gamefmt::glue
