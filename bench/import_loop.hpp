// The timed import loop every import benchmark runs: ReadFileFromMemory per iteration, the scene's memory
// taken and the scene freed outside the timing (an application holds the scene; freeing it is not import).
#pragma once

#include "gamefmt/gamefmt.hpp"
#include <assimp/Exporter.hpp>
#include <assimp/Importer.hpp>
#include <assimp/scene.h>
#include <benchmark/benchmark.h>

#include <cstdint>
#include <vector>

namespace gamefmt::bench {

// Imports `bytes` (extension hint `hint`) with `flags` once per iteration; sets the "scene_MB" counter to
// the last scene's aiMemoryInfo total. Stops with SkipWithError when an import fails.
inline void ImportLoop(benchmark::State &state, Assimp::Importer &importer, const std::vector<std::uint8_t> &bytes,
                       unsigned flags, const char *hint) {
    double sceneBytes = 0;
    for (auto _ : state) {
        const aiScene *scene = importer.ReadFileFromMemory(bytes.data(), bytes.size(), flags, hint);
        if (scene == nullptr) {
            state.SkipWithError(importer.GetErrorString());
            break;
        }
        benchmark::DoNotOptimize(scene->mNumMeshes);
        state.PauseTiming();
        aiMemoryInfo memory;
        importer.GetMemoryRequirements(memory);
        sceneBytes = memory.total;
        importer.FreeScene();
        state.ResumeTiming();
    }
    state.counters["scene_MB"] = sceneBytes / 1e6;
}

// The glb gamefmt's writer makes of `scene` (the side of a "beside Assimp's glTF importer" comparison); empty, with
// SkipWithError, when the export fails.
inline std::vector<std::uint8_t> GlbOf(benchmark::State &state, const aiScene *scene) {
    Assimp::Exporter exporter;
    gamefmt::RegisterExporters(exporter);
    const aiExportDataBlob *blob = exporter.ExportToBlob(scene, "gamefmt-glb");
    if (blob == nullptr) {
        state.SkipWithError(exporter.GetErrorString());
        return {};
    }
    return {static_cast<const std::uint8_t *>(blob->data), static_cast<const std::uint8_t *>(blob->data) + blob->size};
}

} // namespace gamefmt::bench
