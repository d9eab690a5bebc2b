// Issue #13's goals on Studio-like generated places (studio_place.hpp) of 14,000 and 26,000 instances (the
// classes of the real 1.6 MB and 2.5 MB places the goals were set on): import time against Assimp's own glTF
// importer reading the glb we write of the same scene, and the import's peak memory, measured in a child
// process so that nothing else the benchmark program holds is counted.
//   GAMEFMT_BENCH_WRITE_PLACES=DIR also writes the two places as DIR/place-14k.rbxl and DIR/place-26k.rbxl.
#include "assimp_glue/gltf/writer.hpp"
#include "gamefmt/gamefmt.hpp"
#include "import_loop.hpp"
#include "importers/roblox_model/writer.hpp"
#include "studio_place.hpp"

#include <assimp/Importer.hpp>
#include <assimp/scene.h>
#include <benchmark/benchmark.h>

#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <map>
#include <string>
#include <vector>

namespace {

using Bytes = std::vector<std::uint8_t>;

struct Place {
    Bytes bytes;
    std::size_t instances = 0;
};

const Place &PlaceOf(std::int64_t thousands) {
    static std::map<std::int64_t, Place> places;
    auto it = places.find(thousands);
    if (it != places.end()) return it->second;
    Place p;
    const gamefmt::rbx::Document doc = gamefmt::bench::StudioLikePlace(static_cast<std::size_t>(thousands) * 1000);
    p.instances = doc.instances.size();
    p.bytes = gamefmt::rbx::WriteBinary(doc);
    if (const char *dir = std::getenv("GAMEFMT_BENCH_WRITE_PLACES")) {
        std::ofstream out(std::string(dir) + "/place-" + std::to_string(thousands) + "k.rbxl", std::ios::binary);
        out.write(reinterpret_cast<const char *>(p.bytes.data()), static_cast<std::streamsize>(p.bytes.size()));
    }
    return places.emplace(thousands, std::move(p)).first->second;
}

const aiScene *Import(Assimp::Importer &importer, const Bytes &bytes, const char *hint) {
    gamefmt::RegisterImporters(importer);
    return importer.ReadFileFromMemory(bytes.data(), bytes.size(), 0, hint);
}

void Label(benchmark::State &state, const Place &place) {
    state.counters["file_bytes"] = static_cast<double>(place.bytes.size());
    state.counters["instances"] = static_cast<double>(place.instances);
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * place.instances));
}

// Our import of the place (ImportLoop: the scene is freed outside the timing, as for every import benchmark).
void BM_RbxPlaceImport(benchmark::State &state) {
    const Place &place = PlaceOf(state.range(0));
    Assimp::Importer importer;
    const aiScene *scene = Import(importer, place.bytes, "rbxl");
    if (scene == nullptr) {
        state.SkipWithError(importer.GetErrorString());
        return;
    }
    state.counters["meshes"] = scene->mNumMeshes;
    state.counters["materials"] = scene->mNumMaterials;
    gamefmt::bench::ImportLoop(state, importer, place.bytes, 0, "rbxl");
    Label(state, place);
}

// Assimp's glTF 2 importer reading the glb gamefmt writes of the same scene, the same way (the yardstick:
// ours must not be slower).
void BM_RbxPlaceGlbImportByAssimp(benchmark::State &state) {
    const Place &place = PlaceOf(state.range(0));
    std::vector<std::uint8_t> glb;
    {
        Assimp::Importer importer;
        const aiScene *scene = Import(importer, place.bytes, "rbxl");
        if (scene == nullptr) {
            state.SkipWithError(importer.GetErrorString());
            return;
        }
        gamefmt::glue::WriteGltf(*scene, gamefmt::glue::GltfOptions{}, "p.glb", "", [&glb](const std::string &) {
            return gamefmt::glue::ByteSink([&glb](const char *d, std::size_t n) { glb.insert(glb.end(), d, d + n); });
        });
    }
    Assimp::Importer importer;
    gamefmt::bench::ImportLoop(state, importer, glb, 0, "glb");
    state.counters["glb_bytes"] = static_cast<double>(glb.size());
    Label(state, place);
}

// VmRSS or VmHWM of this process, KiB (/proc/self/status); 0 when unreadable.
long StatusKiB(const char *field) {
    long value = 0;
    if (FILE *f = std::fopen("/proc/self/status", "r")) {
        char line[256];
        const std::size_t n = std::strlen(field);
        while (std::fgets(line, sizeof line, f) != nullptr)
            if (std::strncmp(line, field, n) == 0 && line[n] == ':') value = std::atol(line + n + 1);
        std::fclose(f);
    }
    return value;
}

// The child side of BM_RbxPlacePeakMemory: a fresh copy of this program started with
// GAMEFMT_BENCH_MEASURE_IMPORT=FILE imports FILE, writes the glb of it (counting bytes), prints
// "<rss before> <peak after import> <peak after export>" in KiB and exits before main() runs.
struct MeasureInChild {
    MeasureInChild() {
        const char *file = std::getenv("GAMEFMT_BENCH_MEASURE_IMPORT");
        if (file == nullptr) return;
        std::ifstream in(file, std::ios::binary);
        const Bytes bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const long before = StatusKiB("VmRSS");
        long afterImport = -1, afterExport = -1;
        {
            Assimp::Importer importer;
            const aiScene *scene = Import(importer, bytes, "rbxl");
            afterImport = StatusKiB("VmHWM");
            if (scene != nullptr) {
                std::size_t written = 0;
                gamefmt::glue::WriteGltf(
                    *scene, gamefmt::glue::GltfOptions{}, "p.glb", "", [&written](const std::string &) {
                        return gamefmt::glue::ByteSink([&written](const char *, std::size_t n) { written += n; });
                    });
                afterExport = StatusKiB("VmHWM");
            }
        }
        std::printf("%ld %ld %ld\n", before, afterImport, afterExport);
        std::fflush(stdout);
        _exit(afterImport > 0 && afterExport > 0 ? 0 : 1);
    }
} gMeasureInChild;

// Peak resident memory of one import (and of the glb export after it) in a fresh process (this program,
// re-run with GAMEFMT_BENCH_MEASURE_IMPORT): its peak minus its resident size before the import. Reported
// too: the whole process's peak, what /usr/bin/time would say of such a program.
void BM_RbxPlacePeakMemory(benchmark::State &state) {
    const Place &place = PlaceOf(state.range(0));
    char path[] = "/tmp/gamefmt-bench-XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0 || write(fd, place.bytes.data(), place.bytes.size()) != static_cast<ssize_t>(place.bytes.size())) {
        state.SkipWithError("cannot write the place to /tmp");
        return;
    }
    close(fd);
    long before = 0, imported = 0, exported = 0;
    for (auto _ : state) {
        const std::string command =
            "GAMEFMT_BENCH_MEASURE_IMPORT=" + std::string(path) + " /proc/" + std::to_string(getpid()) + "/exe";
        FILE *child = popen(command.c_str(), "r");
        if (child == nullptr || std::fscanf(child, "%ld %ld %ld", &before, &imported, &exported) != 3 ||
            pclose(child) != 0) {
            state.SkipWithError("the measuring process failed");
            break;
        }
    }
    unlink(path);
    state.counters["import_peak_MiB"] = static_cast<double>(imported - before) / 1024;
    state.counters["import_and_glb_peak_MiB"] = static_cast<double>(exported - before) / 1024;
    state.counters["process_peak_MiB"] = static_cast<double>(exported) / 1024;
    Label(state, place);
}

// Arguments: thousands of instances.
BENCHMARK(BM_RbxPlaceImport)->Arg(14)->Arg(26)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RbxPlaceGlbImportByAssimp)->Arg(14)->Arg(26)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RbxPlacePeakMemory)->Arg(14)->Arg(26)->Unit(benchmark::kMillisecond)->Iterations(1);

} // namespace
