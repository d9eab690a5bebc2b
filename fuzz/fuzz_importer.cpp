// libFuzzer harness for one gamefmt importer: bytes → ReadFileFromMemory (hint GAMEFMT_FUZZ_HINT) with
// validation and a realtime preset → when that succeeds, export it with gamefmt's glTF writer (gamefmt-glb) in
// memory.
// Only gamefmt's loaders are registered, so every input exercises our code (and no finding belongs to a
// built-in importer that merely shares the extension).
#include "assimp_glue/gltf/writer.hpp"
#include "gamefmt/config.hpp"
#include "gamefmt/gamefmt.hpp"

#include <assimp/BaseImporter.h>
#include <assimp/Exporter.hpp>
#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

#ifndef GAMEFMT_FUZZ_HINT
#error "GAMEFMT_FUZZ_HINT must name the extension to fuzz"
#endif

namespace {

// 1 MiB: larger inputs mostly measure memory bandwidth, not parser logic.
constexpr std::size_t kMaxInput = 1u << 20;

std::unique_ptr<Assimp::Importer> MakeFuzzImporter() {
    auto importer = std::make_unique<Assimp::Importer>();
    std::vector<Assimp::BaseImporter *> builtins;
    for (std::size_t i = 0; i < importer->GetImporterCount(); ++i) builtins.push_back(importer->GetImporter(i));
    for (Assimp::BaseImporter *loader : builtins) {
        importer->UnregisterLoader(loader); // ownership returns to us
        delete loader;
    }
    gamefmt::RegisterImporters(*importer);
    return importer;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    if (size > kMaxInput) return 0;
    static std::unique_ptr<Assimp::Importer> importer = MakeFuzzImporter();
#if defined(GAMEFMT_FUZZ_PLACE)
    // roblox_place: whole places up to 1 MiB (shapes, unions, terrain, asset-less meshes) imported with validation
    // and written as glb, on one terrain thread; Assimp's own post-processing is left out, so that big scenes still
    // run at more than 100 executions per second: it is gamefmt's scene building and glTF writer that are fuzzed.
    importer->SetPropertyInteger(GAMEFMT_RBX_TERRAIN_THREADS, 1);
    const aiScene *scene = importer->ReadFileFromMemory(data, size, aiProcess_ValidateDataStructure, GAMEFMT_FUZZ_HINT);
#elif defined(GAMEFMT_FUZZ_NO_PRESET)
    // redguard_wld: a world is always 130,050 triangles; the preset would spend each run on Assimp's own passes.
    const aiScene *scene = importer->ReadFileFromMemory(data, size, aiProcess_ValidateDataStructure, GAMEFMT_FUZZ_HINT);
#else
    const aiScene *scene = importer->ReadFileFromMemory(data, size, aiProcess_ValidateDataStructure, GAMEFMT_FUZZ_HINT);
    // The whole realtime preset, FindDegenerates included: Assimp 5.2.5's Triangulate emits nothing for a
    // polygon it finds no ear in (an empty mesh then leaks on Assimp's error path), and no gamefmt importer
    // hands it such a polygon any more (Redguard ear-clips every face that is not convex and simple).
    if (scene != nullptr && (scene->mFlags & AI_SCENE_FLAGS_INCOMPLETE) == 0)
        scene = importer->ApplyPostProcessing(aiProcessPreset_TargetRealtime_Quality | aiProcess_ValidateDataStructure);
#endif
    if (scene != nullptr) {
        Assimp::Exporter exporter;
        gamefmt::RegisterExporters(exporter);
        const aiExportDataBlob *blob = exporter.ExportToBlob(scene, "gamefmt-glb");
        (void)blob;
    }
    importer->FreeScene();
    return 0;
}
