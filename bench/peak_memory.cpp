// The child side of PeakMemory: a fresh copy of this program started with GAMEFMT_BENCH_MEASURE_IMPORT=FILE imports
// FILE, writes the glb of it (counting bytes), prints "<rss before> <peak after import> <peak after export>" in KiB
// and exits before main() runs.
#include "peak_memory.hpp"

#include "assimp_glue/gltf/writer.hpp"
#include "gamefmt/gamefmt.hpp"

#include <assimp/Importer.hpp>
#include <assimp/scene.h>

#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <iterator>
#include <string>

namespace gamefmt::bench {

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

namespace {

struct MeasureInChild {
    MeasureInChild() {
        const char *file = std::getenv("GAMEFMT_BENCH_MEASURE_IMPORT");
        if (file == nullptr) return;
        std::ifstream in(file, std::ios::binary);
        const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        const long before = StatusKiB("VmRSS");
        long afterImport = -1, afterExport = -1;
        {
            Assimp::Importer importer;
            RegisterImporters(importer);
            const aiScene *scene = importer.ReadFileFromMemory(bytes.data(), bytes.size(), 0, "rbxl");
            afterImport = StatusKiB("VmHWM");
            if (scene != nullptr) {
                std::size_t written = 0;
                glue::WriteGltf(*scene, glue::GltfOptions{}, "p.glb", "", [&written](const std::string &) {
                    return glue::ByteSink([&written](const char *, std::size_t n) { written += n; });
                });
                afterExport = StatusKiB("VmHWM");
            }
        }
        std::printf("%ld %ld %ld\n", before, afterImport, afterExport);
        std::fflush(stdout);
        _exit(afterImport > 0 && afterExport > 0 ? 0 : 1);
    }
} gMeasureInChild;

} // namespace

void PeakMemory(benchmark::State &state, const std::vector<std::uint8_t> &bytes) {
    char path[] = "/tmp/gamefmt-bench-XXXXXX";
    const int fd = mkstemp(path);
    if (fd < 0 || write(fd, bytes.data(), bytes.size()) != static_cast<ssize_t>(bytes.size())) {
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
}

} // namespace gamefmt::bench
