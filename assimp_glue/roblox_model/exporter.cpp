// Roblox model/place export: aiScene metadata → document → WriteBinary / WriteXml → bytes via the IOSystem.
#include "assimp_glue/roblox_model/exporter.hpp"

#include "assimp_glue/common/export_util.hpp"
#include "assimp_glue/common/io_util.hpp"
#include "assimp_glue/common/scene_util.hpp"
#include "assimp_glue/roblox_model/anim_export.hpp"
#include "assimp_glue/roblox_model/generic_export.hpp"
#include "assimp_glue/roblox_model/scene.hpp"
#include "common/ascii.hpp"
#include "common/error.hpp"
#include "gamefmt/config.hpp"
#include "importers/roblox_mesh/mesh_writer.hpp"
#include "importers/roblox_model/document/binary_writer.hpp"
#include "importers/roblox_model/document/dom.hpp"
#include "importers/roblox_model/document/reader.hpp"
#include "importers/roblox_model/document/xml_writer.hpp"

#include <assimp/DefaultIOSystem.h>
#include <assimp/DefaultLogger.hpp>
#include <assimp/Exceptional.h>
#include <assimp/IOStream.hpp>
#include <assimp/IOSystem.hpp>
#include <assimp/scene.h>

#include <cctype>
#include <new>

namespace gamefmt::glue {
namespace {

rbx::Compression CompressionOption(const Assimp::ExportProperties *properties) {
    if (properties == nullptr || !properties->HasPropertyString(GAMEFMT_RBX_EXPORT_COMPRESSION))
        return rbx::Compression::Lz4;
    std::string text = properties->GetPropertyString(GAMEFMT_RBX_EXPORT_COMPRESSION);
    text = AsciiLower(std::move(text));
    if (text == "lz4" || text.empty()) return rbx::Compression::Lz4;
    if (text == "zstd") return rbx::Compression::Zstd;
    if (text == "none") return rbx::Compression::None;
    throw FormatError(rbx::kFormatName, std::string("option ") + GAMEFMT_RBX_EXPORT_COMPRESSION +
                                            " must be lz4, zstd or none, not '" + text + "'");
}

// The document a Roblox scene stands for (the DOM round trip of §6).
rbx::Document DocumentToExport(const aiScene &scene) {
    rbx::Document doc;
    DocumentFromScene(scene, doc);
    return doc;
}

std::string Lower(std::string s) {
    return AsciiLower(std::move(s));
}

// The options of a generic scene's export (§6): place or model by the output's extension, sidecar names from its
// stem, the sidecar mesh version and URI prefix, external textures read relative to GAMEFMT_GLTF_TEXTURE_BASE.
GenericRbxOptions GenericOptions(const std::string &file, Assimp::IOSystem *io, const Assimp::ExportProperties *props) {
    GenericRbxOptions options;
    const std::size_t slash = file.find_last_of("/\\");
    const std::string name = slash == std::string::npos ? file : file.substr(slash + 1);
    const std::size_t dot = name.find_last_of('.');
    const std::string ext = dot == std::string::npos ? std::string() : Lower(name.substr(dot + 1));
    options.place = ext == "rbxl" || ext == "rbxlx";
    options.stem = dot == std::string::npos || dot == 0 ? name : name.substr(0, dot);
    if (options.stem.empty()) options.stem = "model";
    std::string base;
    if (props != nullptr) {
        std::string text;
        if (ReadExportText(*props, GAMEFMT_RBX_MESH_VERSION, text, "%.2f")) {
            const std::optional<std::string> version = rbxmesh::NormaliseRobloxMeshVersion(text);
            if (!version)
                throw FormatError(rbx::kFormatName, std::string("option ") + GAMEFMT_RBX_MESH_VERSION +
                                                        " must be 2.00 to 7.00 or auto, not '" + text + "'");
            options.meshVersion = *version;
        }
        if (ReadExportText(*props, GAMEFMT_RBX_MESH_URI_PREFIX, text)) options.uriPrefix = text;
        ReadExportText(*props, GAMEFMT_GLTF_TEXTURE_BASE, base);
    }
    options.readFile = MakeTextureReader(io, base, std::uint64_t(64) << 20);
    return options;
}

// The folder part of `file` ("" or ending in '/').
std::string FolderOf(const std::string &file) {
    const std::size_t slash = file.find_last_of("/\\");
    return slash == std::string::npos ? std::string() : file.substr(0, slash + 1);
}

GenericRbxResult GenericExport(const std::string &file, Assimp::IOSystem *io, const aiScene &scene,
                               const Assimp::ExportProperties *props) {
    GenericRbxResult result = GenericSceneToRoblox(scene, GenericOptions(file, io, props));
    for (const std::string &w : result.warnings) LogWarn("Roblox model export: " + w);
    return result;
}

// The rig the animation export targets: GAMEFMT_RBX_ANIMATION_RIG's file, else the scene's own document.
rbx::Document AnimationRig(const aiScene &scene, Assimp::IOSystem *io, const Assimp::ExportProperties *props) {
    std::string rigFile;
    if (props != nullptr && ReadExportText(*props, GAMEFMT_RBX_ANIMATION_RIG, rigFile) && !rigFile.empty()) {
        // ExportToBlob's IOSystem only writes: then the file system.
        std::vector<std::uint8_t> bytes;
        Assimp::DefaultIOSystem disk;
        if (!TryReadFile(io, rigFile, kMaxInputFileSize, bytes) &&
            !TryReadFile(&disk, rigFile, kMaxInputFileSize, bytes))
            throw FormatError(rbx::kFormatName, "cannot read the rig file \"" + SanitizeForAiString(rigFile, 200) +
                                                    "\" (GAMEFMT_RBX_ANIMATION_RIG, --rbx-animation-rig)");
        return rbx::ReadDocument(bytes.data(), bytes.size());
    }
    if (!IsRobloxModelScene(scene))
        throw FormatError(rbx::kFormatName, "writing animations for Roblox needs the rig they are for: give the "
                                            "Roblox file that holds it (GAMEFMT_RBX_ANIMATION_RIG, "
                                            "--rbx-animation-rig FILE)");
    rbx::Document doc;
    DocumentFromScene(scene, doc);
    return doc;
}

void ExportAnimations(const std::string &file, Assimp::IOSystem *io, const aiScene *scene,
                      const Assimp::ExportProperties *props, bool xml) {
    RunExport("Roblox animation", rbx::kFormatName, scene, io, [&] {
        const rbx::Document doc = AnimationsToRoblox(*scene, AnimationRig(*scene, io, props));
        if (xml) {
            const std::string text = rbx::WriteXml(doc);
            return ExportedFiles{{file, std::vector<std::uint8_t>(text.begin(), text.end())}};
        }
        rbx::BinaryWriteOptions binary;
        binary.compression = CompressionOption(props);
        return ExportedFiles{{file, rbx::WriteBinary(doc, binary)}};
    });
}

void Export(const char *path, Assimp::IOSystem *io, const aiScene *scene, const Assimp::ExportProperties *props,
            bool xml) {
    const std::string file = path != nullptr ? path : "";
    if (scene != nullptr && props != nullptr &&
        ReadExportBool(*props, GAMEFMT_RBX_ANIMATION_ONLY, rbx::kFormatName).value_or(false)) {
        ExportAnimations(file, io, scene, props, xml);
        return;
    }
    if (scene != nullptr && !IsRobloxModelScene(*scene)) {
        // Any other scene: a document of Models and MeshParts plus sidecar meshes and images beside the file.
        RunExport("Roblox model", rbx::kFormatName, scene, io, [&] {
            GenericRbxResult result = GenericExport(file, io, *scene, props);
            ExportedFiles files;
            if (xml) {
                const std::string text = rbx::WriteXml(result.doc);
                files.emplace_back(file, std::vector<std::uint8_t>(text.begin(), text.end()));
            } else {
                rbx::BinaryWriteOptions binary;
                binary.compression = CompressionOption(props);
                files.emplace_back(file, rbx::WriteBinary(result.doc, binary));
            }
            const std::string folder = FolderOf(file);
            for (auto &[name, bytes] : result.sidecars) files.emplace_back(folder + name, std::move(bytes));
            return files;
        });
        return;
    }
    if (!xml) {
        RunExport("Roblox model", rbx::kFormatName, scene, io, [&] {
            return ExportedFiles{{file, ExportRobloxModelToBytes(*scene, false, props)}};
        });
        return;
    }
    // XML is streamed to the file: a 300,000-part model is 180 MB of text, never held whole.
    RunStreamingExport("Roblox model", rbx::kFormatName, scene, io, [&](const OpenOutput &open) {
        const rbx::Document doc = DocumentToExport(*scene);
        rbx::WriteXml(doc, open(file));
    });
}

void ExportBinary(const char *p, Assimp::IOSystem *io, const aiScene *s, const Assimp::ExportProperties *props) {
    Export(p, io, s, props, false);
}
void ExportXml(const char *p, Assimp::IOSystem *io, const aiScene *s, const Assimp::ExportProperties *props) {
    Export(p, io, s, props, true);
}
void ExportAnimBinary(const char *p, Assimp::IOSystem *io, const aiScene *s, const Assimp::ExportProperties *props) {
    ExportAnimations(p != nullptr ? p : "", io, s, props, false);
}
void ExportAnimXml(const char *p, Assimp::IOSystem *io, const aiScene *s, const Assimp::ExportProperties *props) {
    ExportAnimations(p != nullptr ? p : "", io, s, props, true);
}

} // namespace

std::vector<std::uint8_t> ExportRobloxModelToBytes(const aiScene &scene, bool xml,
                                                   const Assimp::ExportProperties *properties) {
    rbx::BinaryWriteOptions binary;
    if (!xml) binary.compression = CompressionOption(properties);
    if (!IsRobloxModelScene(scene))
        throw FormatError(rbx::kFormatName, "a generic scene is written with its sidecar files through the rbxm / "
                                            "rbxmx exporter entries, not to one buffer");
    rbx::Document doc = DocumentToExport(scene);
    if (xml) {
        std::string text = rbx::WriteXml(doc);
        doc = rbx::Document(); // freed before the copy below: the peak holds the text twice, not the document too
        return std::vector<std::uint8_t>(text.begin(), text.end());
    }
    return rbx::WriteBinary(doc, binary);
}

const std::vector<Assimp::Exporter::ExportFormatEntry> &RobloxModelExportEntries() {
    using Entry = Assimp::Exporter::ExportFormatEntry;
    // No post-processing: the exporters read the node metadata only.
    static const std::vector<Entry> entries = {
        Entry("rbxm",
              "Roblox binary model/place (.rbxm; name the output .rbxl for a place; other scenes get sidecar .mesh "
              "and image files)",
              "rbxm", &ExportBinary, 0),
        Entry("rbxmx",
              "Roblox XML model/place (.rbxmx; name the output .rbxlx for a place; other scenes get sidecar .mesh "
              "and image files)",
              "rbxmx", &ExportXml, 0),
        Entry("rbxanim",
              "Roblox KeyframeSequences of the scene's animations (.rbxm; the rig: the scene's own or "
              "GAMEFMT_RBX_ANIMATION_RIG)",
              "rbxm", &ExportAnimBinary, 0),
        Entry("rbxanimx",
              "Roblox KeyframeSequences of the scene's animations, XML (.rbxmx; the rig: the scene's own or "
              "GAMEFMT_RBX_ANIMATION_RIG)",
              "rbxmx", &ExportAnimXml, 0),
    };
    return entries;
}

} // namespace gamefmt::glue
