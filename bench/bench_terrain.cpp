// Issue #28's goals for Roblox terrain, side by side in one run: our import of a terrain place at the defaults
// (full resolution, simplified to 0.5 studs, all cores) against Assimp's glTF importer reading the glb we write for
// it; the mesher alone per voxel (one thread) against a pass that only reads the chunk arrays (the physical limit);
// peak memory; and the simplification error measured against the full-resolution surface (a sampled Hausdorff
// estimate, both directions, solid and water apart).
// Places (argument 0 of each benchmark): 0 the generated big map (7.5 M voxels), 1 the generated hilly map,
// 2 rbx/public-places/chickynoid-example.rbxl (77 M voxels; skipped without the corpus).
#include "assimp_glue/gltf/writer.hpp"
#include "fixtures/rbx_place_fixtures.hpp"
#include "fixtures/terrain_distance.hpp"
#include "gamefmt/config.hpp"
#include "gamefmt/gamefmt.hpp"
#include "import_loop.hpp"
#include "importers/roblox_model/document/dom.hpp"
#include "importers/roblox_model/document/reader.hpp"
#include "importers/roblox_model/geometry/terrain.hpp"
#include "meshing/terrain_mesher.hpp"
#include "peak_memory.hpp"

#include <assimp/Importer.hpp>
#include <assimp/scene.h>
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

namespace rbx = gamefmt::rbx;
using Bytes = std::vector<std::uint8_t>;

struct Place {
    std::string label;
    Bytes bytes;
    rbx::TerrainGrid grid; // decoded once, for the mesher benchmarks
};

const Place *PlaceOf(benchmark::State &state) {
    static std::vector<Place> places = [] {
        std::vector<Place> out(3);
        out[0].label = "big generated map";
        out[0].bytes = gamefmt::fixtures::BigTerrainPlace();
        out[1].label = "hilly generated map";
        out[1].bytes = gamefmt::fixtures::HillyTerrainPlace();
        out[2].label = "chickynoid-example";
        const char *env = std::getenv("GAMEFMT_CORPUS");
        const std::filesystem::path root = env != nullptr
                                               ? std::filesystem::path(env)
                                               : std::filesystem::path(GAMEFMT_SOURCE_DIR) / ".." / "shared" / "corpus";
        const auto file = root / "rbx" / "public-places" / "chickynoid-example.rbxl";
        if (std::filesystem::exists(file)) {
            std::ifstream in(file, std::ios::binary);
            out[2].bytes.assign(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
        }
        for (Place &p : out) {
            if (p.bytes.empty()) continue;
            const rbx::Document doc = rbx::ReadDocument(p.bytes.data(), p.bytes.size());
            for (const rbx::Instance &inst : doc.instances) {
                if (doc.className(inst) != "Terrain") continue;
                const rbx::Property *grid = doc.findProperty(inst, "SmoothGrid");
                const std::string *blob = grid != nullptr ? std::get_if<std::string>(&grid->value.data) : nullptr;
                if (blob != nullptr && blob->size() > 2) {
                    p.grid = rbx::DecodeSmoothGrid(reinterpret_cast<const std::uint8_t *>(blob->data()), blob->size());
                    break;
                }
            }
        }
        return out;
    }();
    const Place &p = places.at(static_cast<std::size_t>(state.range(0)));
    if (p.bytes.empty()) {
        state.SkipWithError("the corpus file is absent");
        return nullptr;
    }
    state.SetLabel(p.label);
    return &p;
}

std::uint64_t ChunkVoxels(const rbx::TerrainGrid &grid) {
    return grid.chunks.size() * static_cast<std::uint64_t>(rbx::kTerrainChunkVoxels);
}

void Configure(Assimp::Importer &importer, int threads) {
    gamefmt::RegisterImporters(importer);
    importer.SetPropertyInteger(GAMEFMT_RBX_TERRAIN_THREADS, threads);
}

std::size_t Triangles(const aiScene &scene) {
    std::size_t n = 0;
    for (unsigned m = 0; m < scene.mNumMeshes; ++m) n += scene.mMeshes[m]->mNumFaces;
    return n;
}

// Rates per voxel (non-Air) and per output triangle of one iteration.
void Rates(benchmark::State &state, const Place &p, double triangles) {
    state.counters["voxels"] = static_cast<double>(p.grid.nonAirVoxels);
    state.counters["triangles"] = triangles;
    state.counters["voxels_per_second"] =
        benchmark::Counter(static_cast<double>(p.grid.nonAirVoxels), benchmark::Counter::kIsIterationInvariantRate);
    state.counters["triangles_per_second"] =
        benchmark::Counter(triangles, benchmark::Counter::kIsIterationInvariantRate);
}

// Our import at the defaults (argument 1: GAMEFMT_RBX_TERRAIN_THREADS, 0 = all cores).
void BM_TerrainImport(benchmark::State &state) {
    const Place *p = PlaceOf(state);
    if (p == nullptr) return;
    Assimp::Importer importer;
    Configure(importer, static_cast<int>(state.range(1)));
    const aiScene *scene = importer.ReadFileFromMemory(p->bytes.data(), p->bytes.size(), 0, "rbxl");
    if (scene == nullptr) {
        state.SkipWithError(importer.GetErrorString());
        return;
    }
    const double triangles = static_cast<double>(Triangles(*scene));
    gamefmt::bench::ImportLoop(state, importer, p->bytes, 0, "rbxl");
    Rates(state, *p, triangles);
}

// Assimp's glTF 2 importer reading the glb gamefmt writes for the default import (the yardstick).
void BM_TerrainGlbImportByAssimp(benchmark::State &state) {
    const Place *p = PlaceOf(state);
    if (p == nullptr) return;
    Bytes glb;
    double triangles = 0;
    {
        Assimp::Importer importer;
        Configure(importer, 0);
        const aiScene *scene = importer.ReadFileFromMemory(p->bytes.data(), p->bytes.size(), 0, "rbxl");
        if (scene == nullptr) {
            state.SkipWithError(importer.GetErrorString());
            return;
        }
        triangles = static_cast<double>(Triangles(*scene));
        gamefmt::glue::WriteGltf(*scene, gamefmt::glue::GltfOptions{}, "p.glb", "", [&glb](const std::string &) {
            return gamefmt::glue::ByteSink([&glb](const char *d, std::size_t n) { glb.insert(glb.end(), d, d + n); });
        });
    }
    Assimp::Importer importer;
    gamefmt::bench::ImportLoop(state, importer, glb, 0, "glb");
    state.counters["glb_MB"] = static_cast<double>(glb.size()) / 1e6;
    Rates(state, *p, triangles);
}

// The mesher alone on the decoded grid (argument 1: threads; argument 2: error in 1/100 studs, 0 = none).
// chunk_voxels_per_second counts every voxel of every chunk (air and rock included): what a mesher that looked at
// each voxel would have to get through.
void BM_TerrainMesher(benchmark::State &state) {
    const Place *p = PlaceOf(state);
    if (p == nullptr) return;
    rbx::TerrainMeshOptions options;
    options.threads = static_cast<int>(state.range(1));
    options.error = static_cast<float>(state.range(2)) / 100.0f;
    double triangles = 0, full = 0;
    for (auto _ : state) {
        const rbx::TerrainSurface s = rbx::MeshTerrain(p->grid, options);
        state.PauseTiming();
        triangles = 0;
        for (const auto &t : s.trianglesByMaterial) triangles += static_cast<double>(t.size()) / 3;
        full = static_cast<double>(s.fullTriangles);
        state.ResumeTiming();
    }
    state.counters["full_triangles"] = full;
    state.counters["chunk_voxels_per_second"] =
        benchmark::Counter(static_cast<double>(ChunkVoxels(p->grid)), benchmark::Counter::kIsIterationInvariantRate);
    Rates(state, *p, triangles);
}

// The physical limit: one pass that only reads the chunk arrays (every byte of the dense chunks, the 32 layer
// values of a compact one), as a mesher must at least.
void BM_TerrainReadChunks(benchmark::State &state) {
    const Place *p = PlaceOf(state);
    if (p == nullptr) return;
    std::uint64_t bytes = 0;
    for (auto _ : state) {
        std::uint64_t sum = 0;
        bytes = 0;
        for (const rbx::TerrainChunk &c : p->grid.chunks) {
            if (c.compact()) {
                for (const std::uint16_t v : c.layers) sum += v;
                continue;
            }
            for (std::size_t i = 0; i < c.material.size(); ++i) sum += c.material[i] + c.occupancy[i];
            bytes += 2 * c.material.size();
        }
        benchmark::DoNotOptimize(sum);
    }
    state.counters["dense_MB"] = static_cast<double>(bytes) / 1e6;
    state.counters["bytes_per_second"] =
        benchmark::Counter(static_cast<double>(bytes), benchmark::Counter::kIsIterationInvariantRate);
    state.counters["chunk_voxels_per_second"] =
        benchmark::Counter(static_cast<double>(ChunkVoxels(p->grid)), benchmark::Counter::kIsIterationInvariantRate);
}

void BM_TerrainPeakMemory(benchmark::State &state) {
    const Place *p = PlaceOf(state);
    if (p == nullptr) return;
    gamefmt::bench::PeakMemory(state, p->bytes);
}

// ------------------------------------------------------------------ simplification error (sampled Hausdorff)

// One iteration: the full-resolution surface and the simplified one (argument 1: error in 1/100 studs); counters
// in studs: the largest and the mean distance of sampled points of each surface to the other (solid and water).
void BM_TerrainSimplificationError(benchmark::State &state) {
    const Place *p = PlaceOf(state);
    if (p == nullptr) return;
    rbx::TerrainMeshOptions full;
    full.threads = 2;
    rbx::TerrainMeshOptions simplified = full;
    simplified.error = static_cast<float>(state.range(1)) / 100.0f;
    for (auto _ : state) {
        const rbx::TerrainSurface a = rbx::MeshTerrain(p->grid, full);
        const rbx::TerrainSurface b = rbx::MeshTerrain(p->grid, simplified);
        for (const bool water : {false, true}) {
            using gamefmt::fixtures::Distances;
            const gamefmt::fixtures::TriangleGrid gridA(a, water), gridB(b, water);
            if (gridA.empty()) continue;
            const Distances ab = gamefmt::fixtures::SampledDistances(a, gridB, water, 400000),
                            ba = gamefmt::fixtures::SampledDistances(b, gridA, water, 400000);
            const std::string kind = water ? "water_" : "solid_";
            state.counters[kind + "max_full_to_simplified"] = ab.max;
            state.counters[kind + "mean_full_to_simplified"] = ab.mean();
            state.counters[kind + "max_simplified_to_full"] = ba.max;
            state.counters[kind + "mean_simplified_to_full"] = ba.mean();
            state.counters[kind + "samples"] = static_cast<double>(ab.samples + ba.samples);
        }
        std::size_t tb = 0;
        for (const auto &t : b.trianglesByMaterial) tb += t.size() / 3;
        state.counters["triangles_full"] = static_cast<double>(a.fullTriangles);
        state.counters["triangles_simplified"] = static_cast<double>(tb);
        state.counters["meshopt_reported_error"] = b.simplifierError;
    }
}

BENCHMARK(BM_TerrainImport)->ArgsProduct({{0, 1, 2}, {1, 0}})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TerrainGlbImportByAssimp)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TerrainMesher)->ArgsProduct({{0, 1, 2}, {1}, {0, 50}})->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TerrainReadChunks)->DenseRange(0, 2)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_TerrainPeakMemory)->DenseRange(0, 2)->Unit(benchmark::kMillisecond)->Iterations(1);
BENCHMARK(BM_TerrainSimplificationError)->ArgsProduct({{0, 1, 2}, {50}})->Unit(benchmark::kMillisecond)->Iterations(1);

} // namespace
