// The `convert` verb: batch export (gamefmt-glb by default) on worker threads, one Importer and Exporter each,
// over inputs streamed from the arguments, walked directories and --from-list (batch_inputs.hpp), with crash-safe
// outputs (staged_io.hpp), a manifest and --resume (manifest.hpp) and --shard K/N (docs/batch.md). A status line
// per file as it finishes and a final "N passed, N failed".
#include "args.hpp"
#include "batch_inputs.hpp"
#include "export_formats.hpp"
#include "loading.hpp"
#include "log.hpp"
#include "manifest.hpp"
#include "options.hpp"
#include "scene_stats.hpp"
#include "staged_io.hpp"
#include "verbs.hpp"

#include "common/sha256.hpp"
#include "common/utf8_path.hpp"
#include "gamefmt/config.hpp"
#include "gamefmt/gamefmt.hpp"
#include "gamefmt/roblox_model.hpp"

#include <assimp/Exporter.hpp>
#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <map>
#include <mutex>
#include <ostream>
#include <system_error>
#include <thread>
#include <unordered_set>

namespace gamefmt::cli {
namespace {

namespace fs = std::filesystem;

// Import raw and let Exporter::Export run the steps the format forces (glTF: join, triangulate, sort) on
// its copy. Applying them at import looks cheaper (the reference suggested it) but on Assimp 5.2.5 the
// exporter then makes the copy verbose again and, crediting the importer's join, never re-joins it: the
// glb came out un-indexed (the 42-vertex torso as 132 vertices). Measured; see tests/cli.
constexpr unsigned kConvertSteps = 0;

struct Settings {
    const ExportFormat *format = nullptr;
    unsigned steps = kConvertSteps;
    const std::vector<Property> *properties = nullptr;
    std::string outDir;
    bool force = false;
    bool keepGoing = false;
    ManifestWriter *manifest = nullptr;    // null: no --manifest
    const ManifestIndex *resume = nullptr; // null: no --resume
};

// Where an input's output goes: DIR/<name>.<ext> (or beside the input without -o); a file found by walking a
// directory keeps its path below that directory (DIR/sub/name.ext), so equal names in two folders do not collide.
std::string OutputFor(const BatchInput &input, const std::string &outDir, const std::string &extension) {
    const fs::path in = PathFromUtf8(input.path);
    if (outDir.empty() || input.relative.empty()) {
        fs::path name = in.filename();
        name.replace_extension(extension);
        return PathToUtf8(outDir.empty() ? in.parent_path() / name : PathFromUtf8(outDir) / name);
    }
    fs::path rel = PathFromUtf8(input.relative);
    rel.replace_extension(extension);
    return PathToUtf8(PathFromUtf8(outDir) / rel);
}

// The input's size and SHA-256, read in 1 MiB blocks. False with `error` when it cannot be read.
bool Identify(const std::string &path, std::uint64_t &size, std::string &sha, std::string &error) {
    std::ifstream in(PathFromUtf8(path), std::ios::binary);
    if (!in) {
        error = "cannot read '" + path + "'";
        return false;
    }
    Sha256 hash;
    std::vector<char> block(std::size_t(1) << 20);
    size = 0;
    while (in) {
        in.read(block.data(), static_cast<std::streamsize>(block.size()));
        const auto got = static_cast<std::size_t>(in.gcount());
        hash.update(reinterpret_cast<const std::uint8_t *>(block.data()), got);
        size += got;
    }
    if (in.bad()) {
        error = "cannot read '" + path + "'";
        return false;
    }
    sha = hash.hexDigest();
    return true;
}

bool AllExist(const std::vector<std::string> &paths) {
    std::error_code ec;
    for (const std::string &p : paths)
        if (!fs::is_regular_file(PathFromUtf8(p), ec)) return false;
    return !paths.empty();
}

// What a scene holds, for the status line: "12 meshes (3480 faces), 9 materials, 2 textures, 1 animation, 15 bones,
// 36 drawn instances" (bones when skinned; for Roblox models and places, the instances whose node shows a mesh:
// parts, terrain, decals).
std::string Summary(const aiScene &scene) {
    const auto count = [](std::uint64_t n, const char *one, const char *many) {
        return std::to_string(n) + " " + (n == 1 ? one : many);
    };
    std::uint64_t faces = 0, bones = 0, parts = 0;
    for (unsigned i = 0; i < scene.mNumMeshes; ++i) {
        faces += scene.mMeshes[i]->mNumFaces;
        bones += scene.mMeshes[i]->mNumBones;
    }
    std::string text = count(scene.mNumMeshes, "mesh", "meshes") + " (" + count(faces, "face", "faces") + "), " +
                       count(scene.mNumMaterials, "material", "materials") + ", " +
                       count(scene.mNumTextures, "texture", "textures") + ", " +
                       count(scene.mNumAnimations, "animation", "animations");
    if (bones > 0) text += ", " + count(bones, "bone", "bones");
    if (gamefmt::IsRobloxModelScene(scene)) {
        ForEachNode(scene, [&parts](const aiNode &node, std::uint64_t, std::int64_t, std::uint64_t,
                                    const aiMatrix4x4 &) { parts += node.mNumMeshes > 0 ? 1 : 0; });
        text += ", " + count(parts, "drawn instance", "drawn instances");
    }
    return text;
}

// Converts one file through `io` (staged); returns "" or the reason it failed; `summary` says what it held.
std::string ConvertOne(Assimp::Importer &importer, Assimp::Exporter &exporter, StagedIOSystem &io,
                       const std::string &in, const std::string &out, const Settings &settings, std::string &summary) {
    const LoadResult loaded = LoadScene(importer, in, 0, settings.steps);
    if (loaded.scene == nullptr) {
        const std::string reason = OneLine(loaded.error);
        return "cannot " + loaded.failedStage + ": " + (reason.empty() ? "Assimp gave no reason" : reason);
    }
    Assimp::ExportProperties properties; // Export writes into it, so a fresh one per file
    ApplyExportProperties(*settings.properties, in, properties);
    summary = Summary(*loaded.scene);
    std::string direct; // our Roblox model exporters are called without Exporter::Export's scene copy
    const bool handled = ExportWithoutCopy(exporter, *loaded.scene, settings.format->id, out, properties, direct, &io);
    const bool written = handled
                             ? direct.empty()
                             : exporter.Export(loaded.scene, settings.format->id, out, 0, &properties) == AI_SUCCESS;
    importer.FreeScene(); // hold one scene per worker at most
    if (!written) {
        io.discard();
        const std::string reason = OneLine(handled ? direct : exporter.GetErrorString());
        return "cannot export: " +
               (reason.empty() ? "the " + settings.format->id + " exporter gave no reason (run with -v to see its log)"
                               : reason);
    }
    return {};
}

enum class Status : std::uint8_t { Ok, Failed, Skipped, Done };

class Batch {
public:
    Batch(InputStream &inputs, const Settings &settings, LogSession &log, std::size_t total, std::ostream &out,
          std::ostream &err)
        : mInputs(inputs), mSettings(settings), mLog(log), mTotal(total), mOut(out), mErr(err) {}

    void worker() {
        std::unique_ptr<Assimp::Importer> importer;
        std::unique_ptr<Assimp::Exporter> exporter;
        StagedIOSystem *io = nullptr; // owned by `exporter`
        while (mSettings.keepGoing || !mFailedOnce.load()) {
            InputStream::Next next = mInputs.next();
            if (next.kind == InputStream::Next::Kind::End) break;
            if (next.kind == InputStream::Next::Kind::Problem) {
                finish(Status::Failed, "", "", next.problem);
                continue;
            }
            const BatchInput *input = &next.input;
            try {
                if (!importer) {
                    importer = MakeConfiguredImporter(*mSettings.properties);
                    exporter = gamefmt::MakeExporter();
                    io = new StagedIOSystem();
                    exporter->SetIOHandler(io);
                }
                process(*input, *importer, *exporter, *io);
            } catch (const std::exception &e) {
                finish(Status::Failed, input->path, "", std::string("unexpected error: ") + e.what());
            }
        }
    }

    std::size_t count(Status s) const { return mCounts[static_cast<int>(s)]; }
    std::size_t finished() const { return mCounts[0] + mCounts[1] + mCounts[2] + mCounts[3]; }
    bool stoppedEarly() const { return !mSettings.keepGoing && mFailedOnce.load(); }

private:
    void process(const BatchInput &input, Assimp::Importer &importer, Assimp::Exporter &exporter, StagedIOSystem &io) {
        const auto start = std::chrono::steady_clock::now();
        ManifestEntry entry;
        entry.input = input.path;
        const std::string target = OutputFor(input, mSettings.outDir, mSettings.format->extension);
        std::string error;
        std::error_code ec;
        // A path that is not a file fails here, before anything is held for it (a list of a million paths of which
        // most are gone costs no memory per path).
        if (!fs::is_regular_file(PathFromUtf8(input.path), ec))
            return record(entry, target, fs::exists(PathFromUtf8(input.path), ec) ? "not a file" : "no such file");
        const bool identify = mSettings.manifest != nullptr || mSettings.resume != nullptr;
        if (identify && !Identify(input.path, entry.size, entry.sha256, error)) return record(entry, target, error);
        const ManifestEntry *before = mSettings.resume != nullptr ? mSettings.resume->find(input.path) : nullptr;
        const bool oursBefore =
            before != nullptr && before->status == ManifestStatus::Ok &&
            std::find(before->outputs.begin(), before->outputs.end(), target) != before->outputs.end();
        if (oursBefore && before->size == entry.size && before->sha256 == entry.sha256 && AllExist(before->outputs))
            return finish(Status::Done, input.path, target, "converted by an earlier run (--resume)");
        if (!claim(target)) return record(entry, target, "another input of this run writes '" + target + "'");
        if (IsSameFile(input.path, target))
            return record(entry, target, "converting it would overwrite it; use -o DIR");
        if (!mSettings.force && !oursBefore && fs::exists(PathFromUtf8(target), ec)) {
            entry.status = ManifestStatus::Skipped;
            entry.error = "'" + target + "' exists (use --force to overwrite)";
            if (mSettings.manifest != nullptr) mSettings.manifest->write(entry);
            return finish(Status::Skipped, input.path, target, entry.error);
        }
        const fs::path parent = PathFromUtf8(target).parent_path();
        if (!parent.empty()) fs::create_directories(parent, ec);
        std::string summary;
        error = ConvertOne(importer, exporter, io, input.path, target, mSettings, summary);
        if (error.empty()) {
            entry.outputs = io.outputs();
            error = io.commit();
        }
        const std::vector<std::string> warnings = mLog.takeWarnings();
        entry.warnings = warnings.size();
        entry.ms = static_cast<std::uint64_t>(
            std::chrono::duration_cast<std::chrono::milliseconds>(std::chrono::steady_clock::now() - start).count());
        if (error.empty() && mLog.summarises()) {
            std::lock_guard<std::mutex> lock(mMutex);
            PrintWarnings(mErr, input.path, warnings);
        }
        record(entry, target, error, summary);
    }

    // Writes the manifest line and the status line of a converted or failed input.
    void record(ManifestEntry &entry, const std::string &target, const std::string &error,
                const std::string &summary = {}) {
        entry.status = error.empty() ? ManifestStatus::Ok : ManifestStatus::Error;
        entry.error = error;
        if (!error.empty()) entry.outputs.clear();
        if (mSettings.manifest != nullptr) mSettings.manifest->write(entry);
        finish(error.empty() ? Status::Ok : Status::Failed, entry.input, target, error.empty() ? summary : error);
    }

    // One output may come from one input only (a hash of its normalised absolute path per converted input).
    bool claim(const std::string &target) {
        std::error_code ec;
        fs::path key = fs::absolute(PathFromUtf8(target), ec).lexically_normal();
        const std::uint64_t hash = ShardHash(PathToUtf8(key));
        std::lock_guard<std::mutex> lock(mMutex);
        return mClaimed.insert(hash).second;
    }

    void finish(Status status, const std::string &in, const std::string &target, const std::string &why) {
        std::lock_guard<std::mutex> lock(mMutex);
        ++mCounts[static_cast<int>(status)];
        const std::string k =
            '[' + std::to_string(finished()) + (mTotal > 0 ? '/' + std::to_string(mTotal) : "") + "] ";
        switch (status) {
        case Status::Ok:
            mOut << k << "ok   " << in << " -> " << target << (why.empty() ? "" : ": " + why) << std::endl;
            break;
        case Status::Failed:
            mFailedOnce = true;
            mErr << k << "FAIL " << (in.empty() ? "" : in + ": ") << why << std::endl;
            break;
        case Status::Skipped:
        case Status::Done:
            mOut << k << "skip " << in << ": " << why << std::endl;
            break;
        }
    }

    InputStream &mInputs;
    const Settings &mSettings;
    LogSession &mLog;
    const std::size_t mTotal; // 0: not known (directories, lists)
    std::ostream &mOut;
    std::ostream &mErr;
    std::mutex mMutex;
    std::atomic<bool> mFailedOnce{false};
    std::size_t mCounts[4] = {0, 0, 0, 0};
    std::unordered_set<std::uint64_t> mClaimed;
};

// Two file arguments that would write the same output are a usage error before anything is converted (what the
// arguments name is known up front; for directories and lists the second one fails when it comes).
bool CheckArgumentOutputs(const std::vector<std::string> &inputs, const std::string &outDir,
                          const std::string &extension, std::ostream &err) {
    std::map<fs::path, std::size_t> claimed;
    for (std::size_t i = 0; i < inputs.size(); ++i) {
        std::error_code ec;
        if (fs::is_directory(PathFromUtf8(inputs[i]), ec)) continue;
        const std::string out = OutputFor({inputs[i], ""}, outDir, extension);
        if (IsSameFile(inputs[i], out)) {
            err << "gamefmt convert: converting '" << inputs[i] << "' would overwrite it; use -o DIR\n";
            return false;
        }
        const auto [it, fresh] = claimed.emplace(fs::absolute(PathFromUtf8(out)).lexically_normal(), i);
        if (!fresh) {
            err << "gamefmt convert: '" << inputs[it->second] << "' and '" << inputs[i] << "' would both write '" << out
                << "'\n";
            return false;
        }
    }
    return true;
}

struct ConvertArgs {
    std::string formatId = "gamefmt-glb", outDir, jobsText, fromList, manifest, shard;
    bool keepGoing = false, force = false, resume = false;
    std::vector<std::string> include, exclude;
};

FlagResult ConvertFlag(ArgCursor &cursor, std::string &error, ConvertArgs &a) {
    if (IsPostProcessFlag(cursor.current())) return FlagResult::NotMine;
    if (cursor.flag("-k", "--keep-going")) return a.keepGoing = true, FlagResult::Consumed;
    if (cursor.flag(nullptr, "--force")) return a.force = true, FlagResult::Consumed;
    if (cursor.flag(nullptr, "--resume")) return a.resume = true, FlagResult::Consumed;
    return ConsumeValuedFlag(cursor,
                             {{"-f", "--format", true, &a.formatId, nullptr},
                              {"-o", "--output", false, &a.outDir, nullptr},
                              {"-j", "--jobs", true, &a.jobsText, nullptr},
                              {nullptr, "--from-list", false, &a.fromList, nullptr},
                              {nullptr, "--manifest", false, &a.manifest, nullptr},
                              {nullptr, "--shard", false, &a.shard, nullptr},
                              {nullptr, "--include", false, nullptr, &a.include},
                              {nullptr, "--exclude", false, nullptr, &a.exclude}},
                             error);
}

// The worker count: -j, else one per core; at most one per input when the inputs are known; one when the host's
// Assimp logger is not thread-safe.
std::size_t Workers(long long jobsWanted, std::size_t total, LogSession &log, std::ostream &err) {
    std::size_t workers = jobsWanted > 0 ? static_cast<std::size_t>(jobsWanted)
                                         : std::max<std::size_t>(1, std::thread::hardware_concurrency());
    if (total > 0) workers = std::min(workers, total);
    if (workers > 1 && !log.threadSafe()) {
        if (jobsWanted > 1)
            err << "gamefmt convert: note: one file at a time, because the program's Assimp logger is not "
                   "thread-safe\n";
        workers = 1;
    }
    return std::max<std::size_t>(workers, 1);
}

int RunBatch(InputStream &inputs, Settings &settings, std::size_t workers, LogSession &log, std::ostream &out,
             std::ostream &err) {
    const std::vector<Property> properties = WithCoreShare(*settings.properties, workers);
    settings.properties = &properties;
    Batch batch(inputs, settings, log, inputs.countKnown() ? inputs.count() : 0, out, err);
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

    if (batch.stoppedEarly()) out << "stopped after the first failure (use --keep-going to go on)\n";
    out << batch.count(Status::Ok) << " passed, " << batch.count(Status::Failed) << " failed";
    if (batch.count(Status::Skipped) > 0) out << ", " << batch.count(Status::Skipped) << " skipped (outputs exist)";
    if (batch.count(Status::Done) > 0) out << ", " << batch.count(Status::Done) << " already done";
    out << std::endl;
    return batch.count(Status::Failed) > 0 ? kExitBadInput : kExitOk;
}

} // namespace

int RunConvert(const Args &args, std::ostream &out, std::ostream &err) {
    ConvertArgs a;
    CommonOptions common;
    std::vector<std::string> inputs;
    const auto verbFlags = [&](ArgCursor &cursor, std::string &error) { return ConvertFlag(cursor, error, a); };
    if (!ParseVerbArgs("convert", args, kPostProcessFlags | kPropertyFlags | kLogFlags, verbFlags, common, inputs, err))
        return kExitUsage;
    if (inputs.empty() && a.fromList.empty()) {
        err << "gamefmt convert: no input files (see 'gamefmt help convert')\n";
        return kExitUsage;
    }
    long long jobsWanted = 0;
    if (!a.jobsText.empty() && !ParseCount(a.jobsText, 1, 1024, jobsWanted)) {
        err << "gamefmt convert: -j needs a number from 1 to 1024, got '" << a.jobsText << "'\n";
        return kExitUsage;
    }
    InputOptions inputOptions;
    if (!a.shard.empty() && !ParseShard(a.shard, inputOptions.shardIndex, inputOptions.shardCount)) {
        err << "gamefmt convert: --shard needs K/N with 0 <= K < N (e.g. 0/4), got '" << a.shard << "'\n";
        return kExitUsage;
    }
    if (a.resume && a.manifest.empty()) {
        err << "gamefmt convert: --resume needs --manifest FILE (the manifest of the run to resume)\n";
        return kExitUsage;
    }

    const std::vector<ExportFormat> formats = ListExportFormats(*gamefmt::MakeExporter());
    Settings settings;
    settings.format = FindFormatById(formats, a.formatId);
    if (settings.format == nullptr) {
        err << "gamefmt convert: unknown export format '" << a.formatId << "'; " << kListExportHint << '\n';
        return kExitUsage;
    }
    settings.steps = kConvertSteps | common.ppSteps;
    settings.properties = &common.properties;
    settings.outDir = a.outDir;
    settings.force = a.force;
    settings.keepGoing = a.keepGoing;
    if (!CheckArgumentOutputs(inputs, a.outDir, settings.format->extension, err)) return kExitUsage;

    const std::unique_ptr<Assimp::Importer> probe = MakeConfiguredImporter({});
    inputOptions.arguments = inputs;
    inputOptions.fromList = a.fromList;
    inputOptions.include = a.include;
    inputOptions.exclude = a.exclude;
    inputOptions.defaultFilter = [&probe](const std::string &extension) {
        return !extension.empty() && probe->IsExtensionSupported(extension);
    };
    InputStream stream(inputOptions);
    std::string problem;
    ManifestIndex index;
    ManifestWriter manifest;
    if (!stream.open(problem) || (a.resume && !index.load(a.manifest, problem)) ||
        (!a.manifest.empty() && !manifest.open(a.manifest, problem))) {
        err << "gamefmt convert: " << problem << '\n';
        return kExitBadInput;
    }
    if (index.badLines() > 0)
        err << "gamefmt convert: note: " << index.badLines() << " line(s) of '" << a.manifest
            << "' are not manifest lines (a run killed mid-line?); their inputs are converted again\n";
    if (!a.manifest.empty()) settings.manifest = &manifest;
    if (a.resume) settings.resume = &index;
    if (!a.outDir.empty()) {
        std::error_code ec;
        fs::create_directories(PathFromUtf8(a.outDir), ec);
        if (ec) {
            err << "gamefmt: cannot create output directory '" << a.outDir << "': " << ec.message() << '\n';
            return kExitBadInput;
        }
    }

    LogSession log(common, err);
    if (log.failed("convert", err)) return kExitUsage;
    if (settings.manifest != nullptr) log.collectWarnings(); // counted in the manifest, with -q, -l and -v too
    const std::size_t workers = Workers(jobsWanted, stream.countKnown() ? stream.count() : 0, log, err);
    return RunBatch(stream, settings, workers, log, out, err);
}

} // namespace gamefmt::cli
