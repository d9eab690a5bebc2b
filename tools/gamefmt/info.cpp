// The `info` verb: import a file (post-processed like upstream's `assimp info`) and describe the scene.
#include "info_report.hpp"
#include "loading.hpp"
#include "log.hpp"
#include "options.hpp"
#include "verbs.hpp"

#include "gamefmt/gamefmt.hpp"

#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>

#include <ostream>

namespace gamefmt::cli {

int RunInfo(const Args &args, std::ostream &out, std::ostream &err) {
    bool raw = false, silent = false, json = false;
    CommonOptions common;
    std::vector<std::string> files;
    const auto verbFlags = [&](ArgCursor &cursor, std::string &) {
        if (cursor.flag("-r", "--raw")) return raw = true, FlagResult::Consumed;
        if (cursor.flag("-s", "--silent")) return silent = true, FlagResult::Consumed;
        if (cursor.flag(nullptr, "--json")) return json = true, FlagResult::Consumed;
        return FlagResult::NotMine;
    };
    if (!ParseVerbArgs("info", args, kPostProcessFlags | kPropertyFlags | kLogFlags, verbFlags, common, files, err))
        return kExitUsage;
    if (files.size() != 1) {
        err << "gamefmt info: expected one FILE, got " << files.size() << " (see 'gamefmt help info')\n";
        return kExitUsage;
    }
    if (common.verbose && silent) {
        err << "gamefmt info: -v and -s cannot be combined\n";
        return kExitUsage;
    }
    if (raw && common.ppGiven) {
        err << "gamefmt info: -r (no post-processing) conflicts with the post-processing flags given\n";
        return kExitUsage;
    }

    LogSession log(common, err);
    if (log.failed("info", err)) return kExitUsage;
    const std::unique_ptr<Assimp::Importer> importer = MakeConfiguredImporter(common.properties);
    // As upstream: the MaxQuality preset unless -r or explicit steps.
    const unsigned steps =
        raw ? 0u : (common.ppGiven ? common.ppSteps : unsigned(aiProcessPreset_TargetRealtime_MaxQuality));
    const LoadResult loaded = LoadScene(*importer, files[0], 0, steps);
    if (loaded.scene == nullptr) {
        PrintFileError(err, loaded.failedStage, files[0], loaded.error);
        return kExitBadInput;
    }
    log.reportWarnings(files[0]); // a failed import shows only its error

    InfoInput input;
    input.path = files[0];
    input.scene = loaded.scene;
    importer->GetMemoryRequirements(input.memory);
    input.incomplete = loaded.incomplete;
    input.stepsRequested = steps;
    input.stepsApplied = loaded.stepsApplied;
    input.verbose = common.verbose;
    input.silent = silent;
    if (json)
        WriteInfoJson(input, out);
    else
        WriteInfoText(input, out);
    return kExitOk;
}

} // namespace gamefmt::cli
