// The `validate` verb: raw import with aiProcess_ValidateDataStructure and extra-verbose re-validation,
// reporting the validation warnings Assimp only logs (5.2.5 sets no scene flag for them).
#include "loading.hpp"
#include "log.hpp"
#include "options.hpp"
#include "verbs.hpp"

#include "assimp_glue/roblox_model/scene.hpp"
#include "common/error.hpp"
#include "gamefmt/gamefmt.hpp"

#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>

#include <algorithm>
#include <ostream>
#include <string>
#include <vector>

namespace gamefmt::cli {
namespace {

// Roblox scenes: parts whose node shows another part's mesh or look (glue::CheckRobloxParts); a source that does
// not read back is itself a problem.
std::vector<std::string> PartProblems(const aiScene &scene) {
    try {
        return glue::CheckRobloxParts(scene);
    } catch (const FormatError &e) {
        return {std::string("check failed: ") + e.what()};
    }
}

} // namespace

int RunValidate(const Args &args, std::ostream &out, std::ostream &err) {
    bool strict = false;
    CommonOptions common;
    std::vector<std::string> files;
    const auto verbFlags = [&](ArgCursor &cursor, std::string &) {
        if (cursor.flag(nullptr, "--strict")) return strict = true, FlagResult::Consumed;
        return FlagResult::NotMine;
    };
    if (!ParseVerbArgs("validate", args, kPostProcessFlags | kPropertyFlags | kLogFlags, verbFlags, common, files, err))
        return kExitUsage;
    if (files.empty()) {
        err << "gamefmt validate: expected FILE... (see 'gamefmt help validate')\n";
        return kExitUsage;
    }

    LogSession log(common, err);
    if (log.failed("validate", err)) return kExitUsage;
    log.collectWarnings(); // --strict needs them even with -q or -l

    const std::unique_ptr<Assimp::Importer> importer = MakeConfiguredImporter(common.properties);
    // Re-validates after every post-processing step too (debug Assimp builds only, which Debian's is).
    importer->SetExtraVerbose(true);
    int status = kExitOk;
    for (const std::string &file : files) {
        const LoadResult loaded = LoadScene(*importer, file, aiProcess_ValidateDataStructure, common.ppSteps);
        std::vector<std::string> validation, other;
        for (std::string &line : log.takeWarnings()) // the expected ones never get here (LogCollector::add)
            (line.find("Validation warning") != std::string::npos ? validation : other).push_back(std::move(line));
        if (loaded.scene == nullptr) {
            PrintFileError(err, loaded.failedStage == "import" ? "validate" : "post-process", file, loaded.error);
            status = kExitBadInput;
            continue;
        }
        if (log.summarises()) PrintWarnings(err, file, other);
        for (const std::string &line : validation)
            out << file << ": " << line.substr(line.find("Validation warning")) << '\n';
        out << file << ": valid";
        if (!validation.empty())
            out << " (" << validation.size() << " validation warning" << (validation.size() == 1 ? ")" : "s)");
        if (loaded.incomplete) out << " (incomplete scene: no geometry)";
        out << '\n';
        const std::size_t lossy = static_cast<std::size_t>(
            std::count_if(other.begin(), other.end(), [](const std::string &w) { return IsDataLossWarning(w); }));
        const std::vector<std::string> parts =
            strict && common.ppSteps == 0 ? PartProblems(*loaded.scene) : std::vector<std::string>();
        for (std::size_t k = 0; k < parts.size() && k < 10; ++k) out << file << ": part " << parts[k] << '\n';
        if (parts.size() > 10) out << file << ": ... and " << parts.size() - 10 << " more parts\n";
        if (strict && (!validation.empty() || lossy != 0 || !parts.empty())) {
            err << "gamefmt: '" << file << "' has ";
            const char *sep = "";
            if (!validation.empty()) err << validation.size() << " validation warning(s)", sep = " and ";
            if (lossy != 0) err << sep << lossy << " warning(s) of lost or guessed data", sep = " and ";
            if (!parts.empty()) err << sep << parts.size() << " part(s) not drawn with their own geometry or look";
            err << " (--strict)\n";
            status = kExitBadInput;
        }
        importer->FreeScene();
    }
    return status;
}

} // namespace gamefmt::cli
