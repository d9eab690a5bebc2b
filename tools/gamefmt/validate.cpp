// The `validate` verb: raw import with aiProcess_ValidateDataStructure and extra-verbose re-validation,
// reporting the validation warnings Assimp only logs (5.2.5 sets no scene flag for them).
#include "loading.hpp"
#include "log.hpp"
#include "options.hpp"
#include "verbs.hpp"

#include "gamefmt/gamefmt.hpp"

#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>

#include <ostream>

namespace gamefmt::cli {

int RunValidate(const Args &args, std::ostream &out, std::ostream &err) {
    bool strict = false;
    CommonOptions common;
    std::vector<std::string> files;
    const auto verbFlags = [&](ArgCursor &cursor, std::string &) {
        if (cursor.Flag(nullptr, "--strict")) return strict = true, FlagResult::Consumed;
        return FlagResult::NotMine;
    };
    if (!ParseVerbArgs("validate", args, kPostProcessFlags | kPropertyFlags | kLogFlags, verbFlags, common, files, err))
        return kExitUsage;
    if (files.empty()) {
        err << "gamefmt validate: expected FILE... (see 'gamefmt help validate')\n";
        return kExitUsage;
    }

    LogSession log(common, err);
    if (!log.Ok()) {
        err << "gamefmt validate: " << log.Error() << '\n';
        return kExitUsage;
    }
    LogCollector warnings;
    log.CollectWarnings(warnings, "Validation warning");

    const std::unique_ptr<Assimp::Importer> importer = gamefmt::MakeImporter();
    // Re-validates after every post-processing step too (debug Assimp builds only, which Debian's is).
    importer->SetExtraVerbose(true);
    ApplyProperties(common.properties, *importer);
    int status = kExitOk;
    for (const std::string &file : files) {
        const LoadResult loaded = LoadScene(*importer, file, aiProcess_ValidateDataStructure, common.ppSteps);
        const std::vector<std::string> found = warnings.Take();
        if (loaded.scene == nullptr) {
            PrintFileError(err, loaded.failedStage == "import" ? "validate" : "post-process", file, loaded.error);
            status = kExitBadInput;
            continue;
        }
        for (const std::string &line : found) {
            // Drop the logger's "Warn,  T0: " prefix.
            const std::size_t at = line.find("Validation warning");
            out << file << ": " << line.substr(at == std::string::npos ? 0 : at) << '\n';
        }
        out << file << ": valid";
        if (!found.empty()) out << " (" << found.size() << " validation warning" << (found.size() == 1 ? ")" : "s)");
        if (loaded.incomplete) out << " (incomplete scene: no geometry)";
        out << '\n';
        if (strict && !found.empty()) {
            err << "gamefmt: '" << file << "' has validation warnings (--strict)\n";
            status = kExitBadInput;
        }
        importer->FreeScene();
    }
    return status;
}

} // namespace gamefmt::cli
