// Avatars (issue #40): the layered clothing fit alone (meshing/cage_fit: a cage of N samples, a garment of M vertices:
// time per garment vertex), and the generated R15 avatar imported dressed (classic clothing composited, two layers
// fitted, FACS baked) beside Assimp's own glTF importer reading the glb of the same scene. Results in
// docs/performance.md.
#include "gamefmt/config.hpp"
#include "gamefmt/gamefmt.hpp"
#include "import_loop.hpp"
#include "meshing/cage_fit.hpp"

#include <assimp/Exporter.hpp>
#include <assimp/Importer.hpp>
#include <assimp/scene.h>
#include <benchmark/benchmark.h>

#include <cmath>
#include <filesystem>
#include <string>
#include <vector>

namespace {

using gamefmt::Vec3d;
using gamefmt::meshing::Cage;

// rings × segments points on an ellipsoid; `scale` stretches it.
std::vector<Vec3d> Ellipsoid(int rings, int segments, double scale) {
    std::vector<Vec3d> out;
    for (int r = 1; r <= rings; ++r)
        for (int s = 0; s < segments; ++s) {
            const double th = 3.14159265358979 * r / (rings + 1), ph = 2 * 3.14159265358979 * s / segments;
            out.push_back({scale * std::sin(th) * std::cos(ph), 2 * scale * std::cos(th),
                           0.6 * scale * std::sin(th) * std::sin(ph)});
        }
    return out;
}

// A cage of range(0) samples (inner: an ellipsoid; target: it bent) and a garment of range(1) vertices between it and
// an outer cage 10% larger: FitLayer (mesh field 300/32/32, cage field 128/16/8, auto-skin search).
void BM_CageFitLayer(benchmark::State &state) {
    const int samples = static_cast<int>(state.range(0)), vertices = static_cast<int>(state.range(1));
    const int segments = 50, rings = samples / segments;
    Cage inner, outer, target;
    inner.positions = Ellipsoid(rings, segments, 1.0);
    for (std::size_t i = 0; i < inner.positions.size(); ++i) {
        inner.uvs.push_back({static_cast<double>(i % segments) / 512,
                             static_cast<double>(i / static_cast<std::size_t>(segments)) / 512.0});
        const Vec3d &p = inner.positions[i];
        target.positions.push_back({p.x * 1.2 + 0.1 * std::sin(2 * p.y), p.y * 0.9, p.z * 1.1 + 0.2});
        outer.positions.push_back(p * 1.1);
    }
    target.uvs = outer.uvs = inner.uvs;
    const int garmentSegments = 100;
    const std::vector<Vec3d> garment = Ellipsoid(vertices / garmentSegments, garmentSegments, 1.05);
    for (auto _ : state) {
        const gamefmt::meshing::LayerFit fit = gamefmt::meshing::FitLayer(target, inner, outer, garment);
        benchmark::DoNotOptimize(fit.mesh.data());
    }
    state.SetItemsProcessed(state.iterations() * static_cast<std::int64_t>(garment.size())); // garment vertices
}
BENCHMARK(BM_CageFitLayer)
    ->Args({1000, 10000})
    ->Args({2000, 20000})
    ->Args({4000, 40000})
    ->Unit(benchmark::kMillisecond);

std::filesystem::path TestData() {
    return std::filesystem::path(GAMEFMT_SOURCE_DIR) / "testdata";
}

// The generated R15 avatar (testdata/avatar-r15.rbxm, its assets in testdata/rbx-assets) imported dressed.
void BM_AvatarImportDressed(benchmark::State &state) {
    const std::string file = (TestData() / "avatar-r15.rbxm").string();
    for (auto _ : state) {
        Assimp::Importer importer;
        gamefmt::RegisterImporters(importer);
        importer.SetPropertyString(GAMEFMT_RBX_ASSET_DIR, (TestData() / "rbx-assets").string());
        const aiScene *scene = importer.ReadFile(file, 0);
        if (scene == nullptr) state.SkipWithError(importer.GetErrorString());
        benchmark::DoNotOptimize(scene);
    }
}
BENCHMARK(BM_AvatarImportDressed)->Unit(benchmark::kMillisecond);

// Assimp's own glTF importer reading the glb gamefmt writes of the dressed avatar (the same meshes, textures,
// skins, morph targets and animations).
void BM_AvatarGlbAssimp(benchmark::State &state) {
    Assimp::Importer source;
    gamefmt::RegisterImporters(source);
    source.SetPropertyString(GAMEFMT_RBX_ASSET_DIR, (TestData() / "rbx-assets").string());
    const aiScene *scene = source.ReadFile((TestData() / "avatar-r15.rbxm").string(), 0);
    if (scene == nullptr) {
        state.SkipWithError(source.GetErrorString());
        return;
    }
    const std::vector<std::uint8_t> glb = gamefmt::bench::GlbOf(state, scene);
    if (glb.empty()) return;
    for (auto _ : state) {
        Assimp::Importer importer;
        const aiScene *back = importer.ReadFileFromMemory(glb.data(), glb.size(), 0, "glb");
        benchmark::DoNotOptimize(back);
    }
}
BENCHMARK(BM_AvatarGlbAssimp)->Unit(benchmark::kMillisecond);

} // namespace
