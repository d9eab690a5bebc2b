// The `formats` verb: what gamefmt reads and writes, from the registered importers and exporter entries (the
// README's format table, from the code): one line per format family with its extensions and export ids.
#include "verbs.hpp"

#include "assimp_glue/gltf/exporter.hpp"
#include "assimp_glue/redguard/exporter.hpp"
#include "assimp_glue/roblox_mesh/exporter.hpp"
#include "assimp_glue/roblox_model/exporter.hpp"
#include "assimp_glue/sl_mesh/exporter.hpp"
#include "gamefmt/gamefmt.hpp"

#include <assimp/Importer.hpp>
#include <assimp/importerdesc.h>

#include <cstdio>
#include <ostream>
#include <sstream>
#include <string>
#include <vector>

namespace gamefmt::cli {
namespace {

std::vector<std::string> Words(const std::string &text) {
    std::istringstream in(text);
    std::vector<std::string> out;
    for (std::string w; in >> w;) out.push_back(w);
    return out;
}

void Row(std::ostream &out, const std::string &a, const std::string &b, const std::string &c) {
    char line[512];
    std::snprintf(line, sizeof line, "%-30s %-26s %s\n", a.c_str(), b.c_str(), c.c_str());
    out << line;
}

} // namespace

int RunFormats(const Args &args, std::ostream &out, std::ostream &err) {
    if (!args.empty()) {
        err << "gamefmt formats: takes no arguments (see 'gamefmt help formats')\n";
        return kExitUsage;
    }
    std::vector<const Assimp::Exporter::ExportFormatEntry *> writers;
    for (const auto *list : {&glue::RobloxMeshExportEntries(), &glue::RobloxModelExportEntries(),
                             &glue::SlMeshExportEntries(), &glue::RedguardExportEntries(), &glue::GltfExportEntries()})
        for (const auto &entry : *list) writers.push_back(&entry);
    std::vector<bool> shown(writers.size(), false);

    Row(out, "format", "reads", "writes (export ids)");
    const std::unique_ptr<Assimp::Importer> importer = MakeImporter();
    for (std::size_t i = 0; i < importer->GetImporterCount(); ++i) {
        const aiImporterDesc *desc = importer->GetImporterInfo(i);
        if (desc == nullptr || std::string(desc->mName).rfind("gamefmt ", 0) != 0) continue;
        const std::vector<std::string> extensions = Words(desc->mFileExtensions);
        std::string reads, writes;
        for (const std::string &e : extensions) reads += (reads.empty() ? "." : " .") + e;
        for (std::size_t w = 0; w < writers.size(); ++w)
            for (const std::string &e : extensions)
                if (!shown[w] && e == writers[w]->mDescription.fileExtension) {
                    writes += (writes.empty() ? "" : " ") + std::string(writers[w]->mDescription.id);
                    shown[w] = true;
                }
        Row(out, std::string(desc->mName).substr(8), reads, writes.empty() ? "-" : writes);
    }
    std::string others;
    for (std::size_t w = 0; w < writers.size(); ++w)
        if (!shown[w]) others += (others.empty() ? "" : " ") + std::string(writers[w]->mDescription.id);
    if (!others.empty()) Row(out, "glTF 2.0 (gamefmt's writer)", "(Assimp's reader)", others);
    out << "\nEvery other format Assimp reads and writes works too: 'gamefmt listext', 'gamefmt listexport'.\n";
    return kExitOk;
}

} // namespace gamefmt::cli
