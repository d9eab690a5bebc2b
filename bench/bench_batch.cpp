// Issue #29: `gamefmt convert` over whole folders, in-process (RunCli), with 1 and 2 workers: files per second and per
// core on 10,000 small generated files and on a mix of big places; and the peak memory of a run over a list of
// 1,000,000 paths of which 10,000 exist (the inputs are streamed, so it must not grow with the list).
#if defined(GAMEFMT_BENCH_HAVE_CLI)
#include "cli.hpp"
#include "peak_memory.hpp"

#include "fixtures/fixtures.hpp"
#include "fixtures/rbx_place_fixtures.hpp"

#include <benchmark/benchmark.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

namespace fs = std::filesystem;
using Bytes = std::vector<std::uint8_t>;

void Write(const fs::path &path, const Bytes &bytes) {
    std::ofstream out(path, std::ios::binary);
    out.write(reinterpret_cast<const char *>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

fs::path Root() {
    return fs::temp_directory_path() / ("gamefmt-bench-batch-" + std::to_string(getpid()));
}

// The files are removed when the benchmark program ends (the measuring child leaves with _exit).
struct RemoveAtExit {
    ~RemoveAtExit() {
        std::error_code ec;
        fs::remove_all(Root(), ec);
    }
} gRemoveAtExit;

// 10,000 small files: the small testdata fixtures (Roblox meshes and models, Second Life, Redguard, OBJ; under
// 64 KB each) in turn, under distinct names.
const fs::path &SmallFiles() {
    static const fs::path dir = [] {
        const fs::path d = Root() / "small";
        fs::create_directories(d);
        std::vector<gamefmt::fixtures::Fixture> small;
        for (gamefmt::fixtures::Fixture &f : gamefmt::fixtures::TestdataFixtures())
            if (f.bytes.size() < 65536 && f.name.find('/') == std::string::npos &&
                f.name.find('.') != std::string::npos)
                small.push_back(std::move(f));
        for (int i = 0; i < 10000; ++i) {
            const auto &f = small[static_cast<std::size_t>(i) % small.size()];
            Write(d / (std::to_string(i) + "_" + f.name), f.bytes);
        }
        return d;
    }();
    return dir;
}

// Big places: the generated terrain maps, the mixed and the demo places, twice each.
const fs::path &BigPlaces() {
    static const fs::path dir = [] {
        namespace fx = gamefmt::fixtures;
        const fs::path d = Root() / "big";
        fs::create_directories(d);
        const std::pair<const char *, Bytes> places[] = {{"big-terrain.rbxl", fx::BigTerrainPlace()},
                                                         {"hilly-terrain.rbxl", fx::HillyTerrainPlace()},
                                                         {"mixed.rbxl", fx::MixedPlace(fx::MixedOrder::RoundRobin)},
                                                         {"terrain.rbxl", fx::TerrainPlace()}};
        for (int copy = 0; copy < 2; ++copy)
            for (const auto &[name, bytes] : places) Write(d / (std::to_string(copy) + "_" + name), bytes);
        return d;
    }();
    return dir;
}

std::size_t FilesIn(const fs::path &dir) {
    std::size_t n = 0;
    for (const auto &e : fs::directory_iterator(dir)) n += e.is_regular_file() ? 1 : 0;
    return n;
}

void Convert(benchmark::State &state, const fs::path &in) {
    const int workers = static_cast<int>(state.range(0));
    const fs::path out = Root() / ("out-" + in.filename().string() + "-" + std::to_string(workers));
    const std::size_t files = FilesIn(in);
    for (auto _ : state) {
        std::ostringstream sink, errors;
        const int code = gamefmt::cli::RunCli(
            {"convert", in.string(), "-o", out.string(), "-q", "-k", "--force", "-j", std::to_string(workers)}, sink,
            errors);
        if (code != 0) state.SkipWithError(("convert failed: " + errors.str().substr(0, 300)).c_str());
    }
    state.counters["files"] = static_cast<double>(files);
    state.counters["files_per_second"] =
        benchmark::Counter(static_cast<double>(files), benchmark::Counter::kIsIterationInvariantRate);
    state.counters["files_per_second_per_worker"] =
        benchmark::Counter(static_cast<double>(files) / workers, benchmark::Counter::kIsIterationInvariantRate);
}

void BM_BatchSmallFiles(benchmark::State &state) {
    Convert(state, SmallFiles());
}

void BM_BatchBigPlaces(benchmark::State &state) {
    Convert(state, BigPlaces());
}

// The child side of BM_BatchListPeakMemory: GAMEFMT_BENCH_CONVERT_LIST=LIST:OUT converts LIST into OUT (two workers,
// --keep-going), prints "<rss before> <peak>" in KiB and exits before main() runs.
struct ConvertListInChild {
    ConvertListInChild() {
        const char *spec = std::getenv("GAMEFMT_BENCH_CONVERT_LIST");
        if (spec == nullptr) return;
        const std::string s = spec;
        const std::size_t colon = s.find(':');
        const long before = gamefmt::bench::StatusKiB("VmRSS");
        std::ostream none(nullptr);
        const int code = gamefmt::cli::RunCli(
            {"convert", "--from-list", s.substr(0, colon), "-o", s.substr(colon + 1), "-q", "-k", "--force", "-j", "2"},
            none, none);
        std::printf("%ld %ld\n", before, gamefmt::bench::StatusKiB("VmHWM"));
        std::fflush(stdout);
        _exit(code <= 1 ? 0 : 1); // 0, or 1 when the 990,000 paths that do not exist fail: both expected
    }
} gConvertListInChild;

// Argument 0: a list of the 10,000 files alone; 1: a list of 1,000,000 paths, every 100th one of the 10,000 files,
// the others gone. The two peaks should be the same.
void BM_BatchListPeakMemory(benchmark::State &state) {
    const fs::path small = SmallFiles();
    const bool million = state.range(0) == 1;
    const fs::path list = Root() / (million ? "million.txt" : "existing.txt");
    {
        std::vector<std::string> real;
        for (const auto &e : fs::directory_iterator(small)) real.push_back(e.path().string());
        std::ofstream out(list, std::ios::binary);
        const std::size_t paths = million ? 1000000 : real.size(), step = million ? 100 : 1;
        for (std::size_t i = 0; i < paths; ++i)
            out << (i % step == 0 && i / step < real.size()
                        ? real[i / step]
                        : (small / ("gone-" + std::to_string(i) + ".mesh")).string())
                << '\n';
    }
    const fs::path out = Root() / "out-list";
    long before = 0, peak = 0;
    for (auto _ : state) {
        const std::string command = "GAMEFMT_BENCH_CONVERT_LIST=" + list.string() + ":" + out.string() + " /proc/" +
                                    std::to_string(getpid()) + "/exe";
        FILE *child = popen(command.c_str(), "r");
        if (child == nullptr || std::fscanf(child, "%ld %ld", &before, &peak) != 2 || pclose(child) != 0) {
            state.SkipWithError("the child run failed");
            return;
        }
    }
    state.counters["paths"] = million ? 1000000 : 10000;
    state.counters["existing"] = 10000;
    state.counters["rss_before_MiB"] = static_cast<double>(before) / 1024;
    state.counters["peak_MiB"] = static_cast<double>(peak) / 1024;
    state.counters["peak_minus_before_MiB"] = static_cast<double>(peak - before) / 1024;
}

BENCHMARK(BM_BatchSmallFiles)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();
BENCHMARK(BM_BatchBigPlaces)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();
BENCHMARK(BM_BatchListPeakMemory)->Arg(0)->Arg(1)->Unit(benchmark::kMillisecond)->Iterations(1)->UseRealTime();

} // namespace
#endif
