// Roblox model/place export: aiScene metadata → document → WriteBinary / WriteXml → bytes via the IOSystem.
#include "assimp_glue/roblox_model/exporter.hpp"

#include "assimp_glue/common/export_util.hpp"
#include "assimp_glue/common/io_util.hpp"
#include "assimp_glue/roblox_model/scene.hpp"
#include "common/ascii.hpp"
#include "common/error.hpp"
#include "gamefmt/config.hpp"
#include "importers/roblox_model/dom.hpp"
#include "importers/roblox_model/writer.hpp"

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

// The document a Roblox scene stands for; FormatError for any other scene.
rbx::Document DocumentToExport(const aiScene &scene) {
    if (!IsRobloxModelScene(scene))
        throw FormatError(rbx::kFormatName,
                          "only scenes imported from Roblox models or places (scene metadata rbx.source, or nodes "
                          "with rbx.ClassName) "
                          "can be exported for now; generic scenes are not supported yet");
    rbx::Document doc;
    DocumentFromScene(scene, doc);
    return doc;
}

void Export(const char *path, Assimp::IOSystem *io, const aiScene *scene, const Assimp::ExportProperties *props,
            bool xml) {
    const std::string file = path != nullptr ? path : "";
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

} // namespace

std::vector<std::uint8_t> ExportRobloxModelToBytes(const aiScene &scene, bool xml,
                                                   const Assimp::ExportProperties *properties) {
    rbx::BinaryWriteOptions binary;
    if (!xml) binary.compression = CompressionOption(properties);
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
        Entry("rbxm", "Roblox binary model/place (.rbxm; name the output .rbxl for a place)", "rbxm", &ExportBinary, 0),
        Entry("rbxmx", "Roblox XML model/place (.rbxmx; name the output .rbxlx for a place)", "rbxmx", &ExportXml, 0),
    };
    return entries;
}

} // namespace gamefmt::glue
