// Redguard import throughput (issue #6): a generated ROB archive of several hundred v5.0 models (each a
// subdivided, textured box with quads and triangles, vertex normals through the indirection table and a
// Section4 group) through a registered Importer, next to the codec alone (archive framing + ReadModel of
// every segment).
#include "fixtures/redguard_fixtures.hpp"

#include "gamefmt/gamefmt.hpp"
#include "import_loop.hpp"
#include "importers/redguard/model.hpp"
#include "importers/redguard/rob.hpp"
#include "importers/redguard/wld.hpp"

#include <assimp/Exporter.hpp>
#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <benchmark/benchmark.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

namespace {

namespace rg = gamefmt::fixtures::rg;

// An n x n grid of quads on each of the 6 sides of a box, half of the quads split into two triangles; every
// side its own texture (bank 300 + side, image = model % 64).
rg::GenModel BoxModel(unsigned model, unsigned n) {
    rg::GenModel m;
    m.version = "v5.0";
    const std::int32_t half = 256 * 8;
    auto add = [&m](std::int32_t x, std::int32_t y, std::int32_t z) {
        m.vertices.push_back({x, y, z});
        return static_cast<std::uint32_t>(m.vertices.size() - 1);
    };
    for (unsigned side = 0; side < 6; ++side) {
        const unsigned axis = side / 2;
        const std::int32_t sign = side % 2 == 0 ? 1 : -1;
        std::vector<std::uint32_t> grid;
        for (unsigned j = 0; j <= n; ++j)
            for (unsigned i = 0; i <= n; ++i) {
                const std::int32_t a = -half + static_cast<std::int32_t>(2 * half * i / n);
                const std::int32_t b = -half + static_cast<std::int32_t>(2 * half * j / n);
                std::int32_t p[3];
                p[axis] = sign * half;
                p[(axis + 1) % 3] = sign > 0 ? a : b;
                p[(axis + 2) % 3] = sign > 0 ? b : a;
                grid.push_back(add(p[0], p[1], p[2]));
            }
        const std::uint32_t texture = *gamefmt::redguard::EncodeBase40(300 + side, model % 64);
        for (unsigned j = 0; j < n; ++j)
            for (unsigned i = 0; i < n; ++i) {
                const std::uint32_t v00 = grid[j * (n + 1) + i], v10 = grid[j * (n + 1) + i + 1];
                const std::uint32_t v01 = grid[(j + 1) * (n + 1) + i], v11 = grid[(j + 1) * (n + 1) + i + 1];
                const std::int16_t s = 16 * 64 / static_cast<std::int16_t>(n);
                if ((i + j) % 2 == 0) {
                    rg::GenFace quad;
                    quad.texture = texture;
                    quad.vertices = {v00, v10, v11, v01};
                    quad.duv = {{0, 0}, {s, 0}, {0, s}, {static_cast<std::int16_t>(-s), 0}};
                    m.faces.push_back(quad);
                } else {
                    rg::GenFace a, b;
                    a.texture = b.texture = texture;
                    a.vertices = {v00, v10, v11};
                    a.duv = {{0, 0}, {s, 0}, {0, s}};
                    b.vertices = {v00, v11, v01};
                    b.duv = {{0, 0}, {s, s}, {static_cast<std::int16_t>(-s), 0}};
                    m.faces.push_back(a);
                    m.faces.push_back(b);
                }
            }
    }
    return m;
}

struct Archive {
    std::vector<std::uint8_t> bytes;
    std::size_t models = 0, faces = 0, vertices = 0;
};

const Archive &GeneratedArchive() {
    static const Archive archive = [] {
        Archive a;
        std::vector<rg::GenSegment> segments;
        for (unsigned k = 0; k < 400; ++k) {
            const rg::GenModel model = BoxModel(k, 4 + k % 5);
            a.faces += model.faces.size();
            a.vertices += model.vertices.size();
            segments.push_back({"M" + std::to_string(k), 0, rg::Generate(model)});
        }
        a.models = segments.size();
        a.bytes = rg::GenerateRob(segments);
        return a;
    }();
    return archive;
}

void Counters(benchmark::State &state) {
    const Archive &a = GeneratedArchive();
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * a.bytes.size()));
    state.counters["models"] = static_cast<double>(a.models);
    state.counters["faces"] = static_cast<double>(a.faces);
    state.counters["models_per_s"] =
        benchmark::Counter(static_cast<double>(state.iterations() * a.models), benchmark::Counter::kIsRate);
    state.counters["file_MB"] = static_cast<double>(a.bytes.size()) / 1e6;
}

void BM_RgImportArchive(benchmark::State &state, unsigned flags) {
    const Archive &a = GeneratedArchive();
    auto importer = gamefmt::MakeImporter();
    gamefmt::bench::ImportLoop(state, *importer, a.bytes, flags, "rob");
    Counters(state);
}

// The codec alone: frame the archive and read every embedded model.
void BM_RgReadArchive(benchmark::State &state) {
    const Archive &a = GeneratedArchive();
    for (auto _ : state) {
        const gamefmt::redguard::RobArchive rob = gamefmt::redguard::ReadRob(a.bytes.data(), a.bytes.size());
        std::size_t faces = 0;
        for (const auto &segment : rob.segments) {
            const gamefmt::redguard::RG3DModel model = gamefmt::redguard::ReadModel(
                a.bytes.data() + segment.payloadOffset, segment.payloadSize, segment.payloadOffset);
            faces += model.faces.size();
        }
        benchmark::DoNotOptimize(faces);
    }
    Counters(state);
}

// ---- Levels (issue #41): the generated demo world (256 × 256 grid, 130,050 triangles in 4 textures) and the demo
// level (that world plus its placed models), next to Assimp's own glTF importer reading the glb of each.

std::filesystem::path LevelDir() {
    return std::filesystem::path(GAMEFMT_SOURCE_DIR) / "testdata" / "rg-level";
}

void LevelCounters(benchmark::State &state) {
    state.counters["triangles"] = 130050;
    // Seconds per terrain triangle (printed with an SI prefix: "70n" is 70 ns).
    state.counters["s_per_triangle"] = benchmark::Counter(static_cast<double>(state.iterations()) * 130050,
                                                          benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void BM_RgImportLevel(benchmark::State &state, const char *file) {
    const std::string path = (LevelDir() / file).string();
    for (auto _ : state) {
        Assimp::Importer importer;
        gamefmt::RegisterImporters(importer);
        const aiScene *scene = importer.ReadFile(path, 0);
        if (scene == nullptr) state.SkipWithError(importer.GetErrorString());
        benchmark::DoNotOptimize(scene);
        state.PauseTiming(); // freeing the scene is the application's business, not the import's
        importer.FreeScene();
        state.ResumeTiming();
    }
    LevelCounters(state);
}

void BM_RgLevelGlbAssimp(benchmark::State &state, const char *file) {
    Assimp::Importer source;
    gamefmt::RegisterImporters(source);
    const aiScene *scene = source.ReadFile((LevelDir() / file).string(), 0);
    if (scene == nullptr) {
        state.SkipWithError(source.GetErrorString());
        return;
    }
    const std::vector<std::uint8_t> glb = gamefmt::bench::GlbOf(state, scene);
    if (glb.empty()) return;
    Assimp::Importer importer;
    gamefmt::bench::ImportLoop(state, importer, glb, 0, "glb");
    LevelCounters(state);
}

void BM_RgReadWorld(benchmark::State &state) {
    std::ifstream in(LevelDir() / "DEMO.WLD", std::ios::binary);
    const std::vector<std::uint8_t> bytes((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
    for (auto _ : state) {
        const gamefmt::redguard::WldWorld world = gamefmt::redguard::ReadWld(bytes.data(), bytes.size());
        benchmark::DoNotOptimize(world.heights.data());
    }
}

int RegisterAll() {
    benchmark::RegisterBenchmark("Redguard/import_world", BM_RgImportLevel, "DEMO.WLD")->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("Redguard/world_glb_assimp", BM_RgLevelGlbAssimp, "DEMO.WLD")
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("Redguard/import_level", BM_RgImportLevel, "DEMO.RGM")->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("Redguard/level_glb_assimp", BM_RgLevelGlbAssimp, "DEMO.RGM")
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("Redguard/codec_read_world", BM_RgReadWorld)->Unit(benchmark::kMicrosecond);
    benchmark::RegisterBenchmark("Redguard/import_rob/raw", BM_RgImportArchive, 0u)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("Redguard/import_rob/triangulate_validate", BM_RgImportArchive,
                                 unsigned(aiProcess_Triangulate | aiProcess_ValidateDataStructure))
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("Redguard/codec_read_rob", BM_RgReadArchive)->Unit(benchmark::kMillisecond);
    return 0;
}
const int kRegistered = RegisterAll();

} // namespace
