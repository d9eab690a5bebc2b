// Issue #13's goals on Studio-like generated places (studio_place.hpp) of 14,000 and 26,000 instances (the
// classes of the real 1.6 MB and 2.5 MB places the goals were set on): import time against Assimp's own glTF
// importer reading the glb we write of the same scene, and the import's peak memory, measured in a child
// process so that nothing else the benchmark program holds is counted.
//   GAMEFMT_BENCH_WRITE_PLACES=DIR also writes the two places as DIR/place-14k.rbxl and DIR/place-26k.rbxl.
#include "assimp_glue/gltf/writer.hpp"
#include "gamefmt/gamefmt.hpp"
#include "import_loop.hpp"
#include "importers/roblox_model/document/binary_writer.hpp"
#include "peak_memory.hpp"
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

// Peak resident memory of one import (and of the glb export after it) in a fresh process (this program,
// re-run with GAMEFMT_BENCH_MEASURE_IMPORT): its peak minus its resident size before the import. Reported
// too: the whole process's peak, what /usr/bin/time would say of such a program.
void BM_RbxPlacePeakMemory(benchmark::State &state) {
    const Place &place = PlaceOf(state.range(0));
    gamefmt::bench::PeakMemory(state, place.bytes);
    Label(state, place);
}

BENCHMARK(BM_RbxPlaceImport)->Arg(14)->Arg(26)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RbxPlaceGlbImportByAssimp)->Arg(14)->Arg(26)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RbxPlacePeakMemory)->Arg(14)->Arg(26)->Unit(benchmark::kMillisecond)->Iterations(1);

} // namespace
