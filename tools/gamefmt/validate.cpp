// The `validate` verb: raw import with aiProcess_ValidateDataStructure and extra-verbose re-validation,
// reporting the validation warnings Assimp only logs (5.2.5 sets no scene flag for them).
#include "loading.hpp"
#include "log.hpp"
#include "options.hpp"
#include "verbs.hpp"

#include "gamefmt/gamefmt.hpp"

#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>

#include <algorithm>
#include <ostream>

namespace gamefmt::cli {

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
        for (std::string &line : log.takeWarnings())
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
        if (strict && (!validation.empty() || lossy != 0)) {
            err << "gamefmt: '" << file << "' has ";
            if (!validation.empty())
                err << validation.size() << " validation warning(s)" << (lossy != 0 ? " and " : "");
            if (lossy != 0) err << lossy << " warning(s) of lost or guessed data";
            err << " (--strict)\n";
            status = kExitBadInput;
        }
        importer->FreeScene();
    }
    return status;
}

} // namespace gamefmt::cli
