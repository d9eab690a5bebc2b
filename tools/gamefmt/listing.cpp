// The listing verbs, with upstream's wording: listext, knowext, listexport, exportinfo.
#include "export_formats.hpp"
#include "options.hpp"
#include "verbs.hpp"

#include "common/ascii.hpp"
#include "gamefmt/gamefmt.hpp"

#include <assimp/Exporter.hpp>
#include <assimp/Importer.hpp>
#include <assimp/importerdesc.h>

#include <algorithm>
#include <cctype>
#include <ostream>
#include <sstream>

namespace gamefmt::cli {
namespace {

// Positional arguments only; `count` of them.
bool ParsePlain(const std::string &verb, const Args &args, std::size_t count, const char *what,
                std::vector<std::string> &positional, std::ostream &err) {
    CommonOptions unused;
    if (!ParseVerbArgs(verb, args, 0, nullptr, unused, positional, err)) return false;
    if (positional.size() != count) {
        err << "gamefmt " << verb << ": expected " << what << " (see 'gamefmt help " << verb << "')\n";
        return false;
    }
    return true;
}

// "mesh", ".mesh" and "*.mesh" all mean mesh, as Importer::GetImporter accepts them.
std::string NormalizeExtension(const std::string &text) {
    std::size_t start = 0;
    if (start < text.size() && text[start] == '*') ++start;
    if (start < text.size() && text[start] == '.') ++start;
    return AsciiLower(text.substr(start));
}

} // namespace

int RunListExt(const Args &args, std::ostream &out, std::ostream &err) {
    std::vector<std::string> positional;
    if (!ParsePlain("listext", args, 0, "no arguments", positional, err)) return kExitUsage;
    std::string list;
    gamefmt::MakeImporter()->GetExtensionList(list);
    out << list << '\n';
    return kExitOk;
}

int RunKnowExt(const Args &args, std::ostream &out, std::ostream &err) {
    std::vector<std::string> positional;
    if (!ParsePlain("knowext", args, 1, "one extension", positional, err)) return kExitUsage;
    const std::string ext = NormalizeExtension(positional[0]);
    const std::unique_ptr<Assimp::Importer> importer = gamefmt::MakeImporter();
    // Registration order is the order ReadFile tries the loaders in.
    std::vector<std::string> loaders;
    for (std::size_t i = 0; i < importer->GetImporterCount() && !ext.empty(); ++i) {
        const aiImporterDesc *desc = importer->GetImporterInfo(i);
        if (desc == nullptr || desc->mFileExtensions == nullptr) continue;
        std::istringstream claimed(desc->mFileExtensions);
        std::string token;
        while (claimed >> token) {
            if (AsciiLower(token) == ext) {
                loaders.push_back(desc->mName != nullptr ? desc->mName : "(unnamed loader)");
                break;
            }
        }
    }
    // Upstream's wording, double space included.
    out << "File extension '" << ext << "'  is " << (loaders.empty() ? "not known" : "known") << '\n';
    for (const std::string &name : loaders) out << "    " << name << '\n';
    return loaders.empty() ? kExitBadInput : kExitOk;
}

int RunListExport(const Args &args, std::ostream &out, std::ostream &err) {
    std::vector<std::string> positional;
    if (!ParsePlain("listexport", args, 0, "no arguments", positional, err)) return kExitUsage;
    for (const ExportFormat &format : ListExportFormats(*gamefmt::MakeExporter())) out << format.id << '\n';
    return kExitOk;
}

int RunExportInfo(const Args &args, std::ostream &out, std::ostream &err) {
    std::vector<std::string> positional;
    if (!ParsePlain("exportinfo", args, 1, "one format id", positional, err)) return kExitUsage;
    const std::vector<ExportFormat> formats = ListExportFormats(*gamefmt::MakeExporter());
    const ExportFormat *format = FindFormatById(formats, positional[0]);
    if (format == nullptr) {
        err << "gamefmt exportinfo: unknown export format '" << positional[0] << "'; " << kListExportHint << '\n';
        return kExitUsage;
    }
    out << format->id << '\n' << format->extension << '\n' << format->description << '\n';
    return kExitOk;
}

} // namespace gamefmt::cli
