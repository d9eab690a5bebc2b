// Import throughput: each format of the same height field through a registered Importer, raw and with
// validation, so our importers and Assimp's built-ins are measured side by side in one run.
// Each format issue adds its writer of the height field to kFormats.
#include "heightfield.hpp"

#include "gamefmt/gamefmt.hpp"
#include "import_loop.hpp"
#include "importers/roblox_mesh/mesh_reader.hpp"

#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <benchmark/benchmark.h>

#include <algorithm>
#include <functional>
#include <map>
#include <string>

namespace {

using gamefmt::bench::HeightField;

struct Format {
    const char *name; // benchmark label
    const char *hint; // ReadFileFromMemory extension hint
    std::function<std::vector<std::uint8_t>(const HeightField &)> write;
};

const Format kFormats[] = {
    {"assimp_stl_binary", "stl", gamefmt::bench::ToBinaryStl},
    {"assimp_ply_binary", "ply", gamefmt::bench::ToBinaryPly},
    {"assimp_obj", "obj", gamefmt::bench::ToObj},
    {"gamefmt_rbxmesh_200", "mesh", gamefmt::bench::ToRobloxMesh200},
};

// Files are built once per (format, size) and shared by the raw and validated runs.
const std::vector<std::uint8_t> &Bytes(const Format &format, std::uint32_t n) {
    static std::map<std::pair<std::string, std::uint32_t>, std::vector<std::uint8_t>> cache;
    auto key = std::make_pair(std::string(format.name), n);
    auto it = cache.find(key);
    if (it == cache.end()) it = cache.emplace(key, format.write(gamefmt::bench::MakeHeightField(n))).first;
    return it->second;
}

void BM_Import(benchmark::State &state, const Format &format, unsigned flags) {
    const auto n = static_cast<std::uint32_t>(state.range(0));
    const std::vector<std::uint8_t> &bytes = Bytes(format, n);
    auto importer = gamefmt::MakeImporter();
    gamefmt::bench::ImportLoop(state, *importer, bytes, flags, format.hint);
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes.size()));
    state.counters["triangles"] = static_cast<double>(2.0 * (n - 1) * (n - 1));
    state.counters["file_MB"] = static_cast<double>(bytes.size()) / 1e6;
}

// The Roblox mesh codec alone (bytes → format model), on the same bytes as import/gamefmt_rbxmesh_200: the
// difference between the two is the cost of building the aiScene and of Assimp's bookkeeping.
void BM_ReadRobloxMesh(benchmark::State &state) {
    const auto n = static_cast<std::uint32_t>(state.range(0));
    const Format &format = *std::find_if(std::begin(kFormats), std::end(kFormats),
                                         [](const Format &f) { return std::string(f.name) == "gamefmt_rbxmesh_200"; });
    const std::vector<std::uint8_t> &bytes = Bytes(format, n);
    for (auto _ : state) {
        const gamefmt::rbxmesh::RobloxMesh mesh = gamefmt::rbxmesh::ReadRobloxMesh(bytes.data(), bytes.size());
        benchmark::DoNotOptimize(mesh.vertices.data());
    }
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes.size()));
    state.counters["triangles"] = static_cast<double>(2.0 * (n - 1) * (n - 1));
    state.counters["file_MB"] = static_cast<double>(bytes.size()) / 1e6;
}

int RegisterAll() {
    for (const Format &format : kFormats) {
        benchmark::RegisterBenchmark((std::string("import/") + format.name + "/raw").c_str(), BM_Import, format, 0u)
            ->Arg(100)
            ->Arg(1000)
            ->Unit(benchmark::kMillisecond);
        benchmark::RegisterBenchmark((std::string("import/") + format.name + "/validate").c_str(), BM_Import, format,
                                     unsigned(aiProcess_ValidateDataStructure))
            ->Arg(1000)
            ->Unit(benchmark::kMillisecond);
    }
    benchmark::RegisterBenchmark("codec/rbxmesh_200/read", BM_ReadRobloxMesh)
        ->Arg(100)
        ->Arg(1000)
        ->Unit(benchmark::kMillisecond);
    return 0;
}
const int kRegistered = RegisterAll();

} // namespace

BENCHMARK_MAIN();
