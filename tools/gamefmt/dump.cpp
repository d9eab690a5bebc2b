// The `dump` verb: the instance tree of a Roblox model or place with every property in the "<Type>:<text>"
// form of value_text.hpp, read back from the imported scene (DocumentFromScene, so import options apply).
#include "loading.hpp"
#include "log.hpp"
#include "options.hpp"
#include "verbs.hpp"

#include "gamefmt/gamefmt.hpp"
#include "gamefmt/metadata.hpp"
#include "gamefmt/roblox_model.hpp"
#include "importers/roblox_model/document/dom.hpp"
#include "importers/roblox_model/document/tree_walk.hpp"
#include "importers/roblox_model/document/value_text.hpp"

#include <assimp/Importer.hpp>
#include <assimp/scene.h>

#include <cstring>
#include <ostream>
#include <vector>

namespace gamefmt::cli {
namespace {

std::string MetaText(const aiMetadata *md, const char *key) {
    std::string text;
    GetMetadataText(md, key, text);
    return text;
}

// The document's tree, iterative (the file decides the depth): class "name" [referent], then its properties.
void DumpTree(const rbx::Document &doc, std::ostream &out) {
    rbx::ForEachInTreeOrder(doc, [&](const rbx::TreeStep &step) {
        const rbx::Instance &inst = doc.instances[step.index];
        const std::string indent((step.depth - 1) * 2, ' ');
        out << indent << doc.className(inst) << " \"" << OneLine(inst.name) << "\" ["
            << OneLine(rbx::ReferentText(doc, step.index)) << "]\n";
        for (const rbx::Property &p : inst.properties)
            out << indent << "  ." << doc.names.str(p.name) << " = " << OneLine(rbx::FormatValue(doc, p.value)) << '\n';
    });
}

} // namespace

int RunDump(const Args &args, std::ostream &out, std::ostream &err) {
    CommonOptions common;
    std::vector<std::string> files;
    const auto noVerbFlags = [](ArgCursor &, std::string &) { return FlagResult::NotMine; };
    if (!ParseVerbArgs("dump", args, kPropertyFlags | kLogFlags, noVerbFlags, common, files, err)) return kExitUsage;
    if (files.size() != 1) {
        err << "gamefmt dump: expected one FILE, got " << files.size() << " (see 'gamefmt help dump')\n";
        return kExitUsage;
    }
    LogSession log(common, err);
    if (log.failed("dump", err)) return kExitUsage;
    const std::unique_ptr<Assimp::Importer> importer = MakeConfiguredImporter(common.properties);
    const LoadResult loaded = LoadScene(*importer, files[0], 0, 0);
    if (loaded.scene == nullptr) {
        PrintFileError(err, loaded.failedStage, files[0], loaded.error);
        return kExitBadInput;
    }
    log.reportWarnings(files[0]); // a failed import shows only its error
    if (!IsRobloxModelScene(*loaded.scene)) {
        PrintFileError(err, "dump", files[0], "not a Roblox model or place (no rbx.source metadata)");
        return kExitBadInput;
    }
    const aiMetadata *sm = loaded.scene->mMetaData;
    out << "# " << MetaText(sm, "SourceAsset_Format") << " (" << MetaText(sm, kRbxFormat) << ")\n";
    if (sm != nullptr)
        ForEachMetadata(*sm, [&](const MetadataValue &v) {
            if (v.isText && v.key.substr(0, 9) == "rbx.meta.")
                out << "# meta " << v.key.substr(9) << " = " << OneLine(std::string(v.text)) << '\n';
        });
    rbx::Document doc;
    try {
        RobloxDocumentFromScene(*loaded.scene, doc);
    } catch (const std::exception &e) {
        PrintFileError(err, "dump", files[0], e.what());
        return kExitBadInput;
    }
    DumpTree(doc, out);
    return kExitOk;
}

} // namespace gamefmt::cli
