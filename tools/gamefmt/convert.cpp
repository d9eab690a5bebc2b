// The `convert` verb: batch export (gamefmt-glb by default) on worker threads, one Importer and Exporter each,
// with a status line per file as it finishes and a final "N passed, N failed".
#include "args.hpp"
#include "export_formats.hpp"
#include "loading.hpp"
#include "log.hpp"
#include "options.hpp"
#include "verbs.hpp"

#include "common/utf8_path.hpp"
#include "gamefmt/gamefmt.hpp"

#include <assimp/Exporter.hpp>
#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>

#include <algorithm>
#include <atomic>
#include <filesystem>
#include <map>
#include <mutex>
#include <ostream>
#include <system_error>
#include <thread>

namespace gamefmt::cli {
namespace {

namespace fs = std::filesystem;

// Import raw and let Exporter::Export run the steps the format forces (glTF: join, triangulate, sort) on
// its copy. Applying them at import looks cheaper (the reference suggested it) but on Assimp 5.2.5 the
// exporter then makes the copy verbose again and, crediting the importer's join, never re-joins it: the
// glb came out un-indexed (the 42-vertex torso as 132 vertices). Measured; see tests/cli.
constexpr unsigned kConvertSteps = 0;

struct Job {
    std::string in;
    std::string out;
};

struct Settings {
    const ExportFormat *format = nullptr;
    unsigned steps = kConvertSteps;
    const std::vector<Property> *properties = nullptr;
};

// Converts one file; returns "" or the reason it failed.
std::string ConvertOne(Assimp::Importer &importer, Assimp::Exporter &exporter, const Job &job,
                       const Settings &settings) {
    const LoadResult loaded = LoadScene(importer, job.in, 0, settings.steps);
    if (loaded.scene == nullptr) {
        const std::string reason = OneLine(loaded.error);
        return "cannot " + loaded.failedStage + ": " + (reason.empty() ? "Assimp gave no reason" : reason);
    }
    Assimp::ExportProperties properties; // Export writes into it, so a fresh one per file
    ApplyExportProperties(*settings.properties, job.in, properties);
    std::string direct; // our Roblox model exporters are called without Exporter::Export's scene copy
    const bool handled = ExportWithoutCopy(exporter, *loaded.scene, settings.format->id, job.out, properties, direct);
    const bool written =
        handled ? direct.empty()
                : exporter.Export(loaded.scene, settings.format->id, job.out, 0, &properties) == AI_SUCCESS;
    importer.FreeScene(); // hold one scene per worker at most
    if (!written) {
        const std::string reason = OneLine(handled ? direct : exporter.GetErrorString());
        return "cannot export: " +
               (reason.empty() ? "the " + settings.format->id + " exporter gave no reason (run with -v to see its log)"
                               : reason);
    }
    return {};
}

class Batch {
public:
    Batch(const std::vector<Job> &jobs, const Settings &settings, bool keepGoing, LogSession &log, std::ostream &out,
          std::ostream &err)
        : mJobs(jobs), mSettings(settings), mKeepGoing(keepGoing), mLog(log), mOut(out), mErr(err) {}

    void worker() {
        std::unique_ptr<Assimp::Importer> importer;
        std::unique_ptr<Assimp::Exporter> exporter;
        while (mKeepGoing || !mFailedOnce.load()) {
            const std::size_t i = mNext.fetch_add(1);
            if (i >= mJobs.size()) break;
            std::string error;
            try {
                if (!importer) {
                    importer = MakeConfiguredImporter(*mSettings.properties);
                    exporter = gamefmt::MakeExporter();
                }
                error = ConvertOne(*importer, *exporter, mJobs[i], mSettings);
            } catch (const std::exception &e) {
                error = std::string("unexpected error: ") + e.what();
            }
            report(mJobs[i], error, mLog.takeWarnings());
        }
    }

    std::size_t passed() const { return mPassed; }
    std::size_t failed() const { return mFailed; }
    std::size_t finished() const { return mPassed + mFailed; }

private:
    void report(const Job &job, const std::string &error, const std::vector<std::string> &warnings) {
        std::lock_guard<std::mutex> lock(mMutex);
        if (mLog.summarises() && error.empty()) PrintWarnings(mErr, job.in, warnings);
        const std::size_t k = finished() + 1;
        if (error.empty()) {
            ++mPassed;
            mOut << '[' << k << '/' << mJobs.size() << "] ok   " << job.in << " -> " << job.out << std::endl;
        } else {
            ++mFailed;
            mFailedOnce = true;
            mErr << '[' << k << '/' << mJobs.size() << "] FAIL " << job.in << ": " << error << std::endl;
        }
    }

    const std::vector<Job> &mJobs;
    const Settings &mSettings;
    const bool mKeepGoing;
    LogSession &mLog;
    std::ostream &mOut;
    std::ostream &mErr;
    std::mutex mMutex;
    std::atomic<std::size_t> mNext{0};
    std::atomic<bool> mFailedOnce{false};
    std::size_t mPassed = 0;
    std::size_t mFailed = 0;
};

// Plans every output path up front, so two inputs never write the same file and none overwrites itself.
bool PlanJobs(const std::vector<std::string> &inputs, const std::string &outDir, const std::string &extension,
              std::vector<Job> &jobs, std::ostream &err) {
    std::map<fs::path, std::size_t> claimed;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        const fs::path in = PathFromUtf8(inputs[i]);
        fs::path name = in.filename();
        name.replace_extension(extension);
        const fs::path out = outDir.empty() ? in.parent_path() / name : PathFromUtf8(outDir) / name;
        const fs::path key = fs::absolute(out).lexically_normal();
        if (IsSameFile(inputs[i], PathToUtf8(out))) {
            err << "gamefmt convert: converting '" << inputs[i] << "' would overwrite it; use -o DIR\n";
            return false;
        }
        const auto [it, fresh] = claimed.emplace(key, i);
        if (!fresh) {
            err << "gamefmt convert: '" << inputs[it->second] << "' and '" << inputs[i] << "' would both write '"
                << PathToUtf8(out) << "'\n";
            return false;
        }
        jobs.push_back({inputs[i], PathToUtf8(out)});
    }
    return true;
}

// Converts the planned jobs on up to `jobsWanted` threads (0: one per core; one when the program's Assimp
// logger is not thread-safe), prints the summary and returns the exit code.
int RunBatch(std::vector<Job> &jobs, const Settings &settings, bool keepGoing, LogSession &log, long long jobsWanted,
             std::ostream &out, std::ostream &err) {
    std::size_t workers = jobsWanted > 0 ? static_cast<std::size_t>(jobsWanted)
                                         : std::max<std::size_t>(1, std::thread::hardware_concurrency());
    workers = std::min(workers, jobs.size());
    if (workers > 1 && !log.threadSafe()) {
        if (jobsWanted > 1)
            err << "gamefmt convert: note: one file at a time, because the program's Assimp logger is not "
                   "thread-safe\n";
        workers = 1;
    }

    Batch batch(jobs, settings, keepGoing, log, out, err);
    std::vector<std::thread> threads;
    for (std::size_t t = 1; t < workers; ++t) {
        try {
            threads.emplace_back([&batch] { batch.worker(); });
        } catch (const std::system_error &) {
            break; // fewer threads than asked for: the ones we have share the work
        }
    }
    batch.worker(); // this thread works too
    for (std::thread &thread : threads) thread.join();

    const std::size_t notStarted = jobs.size() - batch.finished();
    if (notStarted > 0)
        out << notStarted << " not converted: stopped after the first failure (use --keep-going to go on)\n";
    out << batch.passed() << " passed, " << batch.failed() << " failed" << std::endl;
    return batch.failed() > 0 ? kExitBadInput : kExitOk;
}

} // namespace

int RunConvert(const Args &args, std::ostream &out, std::ostream &err) {
    std::string formatId = "gamefmt-glb", outDir, jobsText;
    bool keepGoing = false;
    CommonOptions common;
    std::vector<std::string> inputs;
    const auto verbFlags = [&](ArgCursor &cursor, std::string &error) {
        if (IsPostProcessFlag(cursor.current())) return FlagResult::NotMine;
        if (cursor.flag("-k", "--keep-going")) return keepGoing = true, FlagResult::Consumed;
        const struct {
            const char *shortName, *longName;
            bool attached;
            std::string *value;
        } valued[] = {
            {"-f", "--format", true, &formatId}, {"-o", "--output", false, &outDir}, {"-j", "--jobs", true, &jobsText}};
        for (const auto &flag : valued) {
            switch (cursor.value(flag.shortName, flag.longName, flag.attached, *flag.value)) {
            case ArgCursor::Match::Yes:
                return FlagResult::Consumed;
            case ArgCursor::Match::MissingValue:
                error = std::string(flag.shortName) + " needs a value";
                return FlagResult::Error;
            case ArgCursor::Match::No:
                break;
            }
        }
        return FlagResult::NotMine;
    };
    if (!ParseVerbArgs("convert", args, kPostProcessFlags | kPropertyFlags | kLogFlags, verbFlags, common, inputs, err))
        return kExitUsage;
    if (inputs.empty()) {
        err << "gamefmt convert: no input files (see 'gamefmt help convert')\n";
        return kExitUsage;
    }
    long long jobsWanted = 0;
    if (!jobsText.empty() && !ParseCount(jobsText, 1, 1024, jobsWanted)) {
        err << "gamefmt convert: -j needs a number from 1 to 1024, got '" << jobsText << "'\n";
        return kExitUsage;
    }

    const std::vector<ExportFormat> formats = ListExportFormats(*gamefmt::MakeExporter());
    Settings settings;
    settings.format = FindFormatById(formats, formatId);
    if (settings.format == nullptr) {
        err << "gamefmt convert: unknown export format '" << formatId << "'; " << kListExportHint << '\n';
        return kExitUsage;
    }
    settings.steps = kConvertSteps | common.ppSteps;
    settings.properties = &common.properties;
    std::vector<Job> jobs;
    if (!PlanJobs(inputs, outDir, settings.format->extension, jobs, err)) return kExitUsage;
    if (!outDir.empty()) {
        std::error_code ec;
        fs::create_directories(PathFromUtf8(outDir), ec);
        if (ec) {
            err << "gamefmt: cannot create output directory '" << outDir << "': " << ec.message() << '\n';
            return kExitBadInput;
        }
    }

    LogSession log(common, err);
    if (log.failed("convert", err)) return kExitUsage;
    return RunBatch(jobs, settings, keepGoing, log, jobsWanted, out, err);
}

} // namespace gamefmt::cli
