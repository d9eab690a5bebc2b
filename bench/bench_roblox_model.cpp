// Roblox model/place codec throughput: decode (ReadBinary), encode (WriteBinary) and the whole import to an
// aiScene, on the largest rbx-test-files place and the four real modern places of rbx/public-places (skipped when
// the corpus is absent) and on a generated place of 100,000 Parts. Reported: bytes_per_second of the file,
// decompressed_per_second of chunk data, and items_per_second = instances.
#include "assimp_glue/gltf/writer.hpp"
#include "fixtures/rbx_place_fixtures.hpp"
#include "gamefmt/config.hpp"
#include "gamefmt/gamefmt.hpp"
#include "importers/roblox_model/document/binary_reader.hpp"
#include "importers/roblox_model/document/binary_writer.hpp"
#include "importers/roblox_model/document/dom.hpp"

#include <assimp/Exporter.hpp>
#include <assimp/Importer.hpp>
#include <assimp/scene.h>
#include <benchmark/benchmark.h>

#include <malloc.h>

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <optional>
#include <string>
#include <vector>

namespace {

namespace rbx = gamefmt::rbx;
using Bytes = std::vector<std::uint8_t>;

// Sum of the uncompressed chunk lengths (docs/formats/roblox-model.md §2.1), walking the framing only.
std::uint64_t DecompressedBytes(const Bytes &file) {
    std::uint64_t total = 0;
    std::size_t pos = 32;
    while (pos + 16 <= file.size()) {
        std::uint32_t cl = 0, ul = 0;
        std::memcpy(&cl, file.data() + pos + 4, 4);
        std::memcpy(&ul, file.data() + pos + 8, 4);
        total += ul;
        const bool end = std::memcmp(file.data() + pos, "END\0", 4) == 0;
        pos += 16 + (cl != 0 ? cl : ul);
        if (end) break;
    }
    return total;
}

struct Input {
    std::string label;
    Bytes bytes;
    std::size_t instances = 0;
    std::uint64_t decompressed = 0;
};

// The corpus folder `sub` (below rbx/), from $GAMEFMT_CORPUS or ../shared/corpus beside the project.
std::optional<std::filesystem::path> CorpusFolder(const char *sub) {
    std::vector<std::filesystem::path> roots;
    if (const char *env = std::getenv("GAMEFMT_CORPUS")) roots.emplace_back(env);
    roots.emplace_back(std::string(GAMEFMT_SOURCE_DIR) + "/../shared/corpus"); // beside the project
    for (const auto &root : roots) {
        const auto folder = root / "rbx" / sub;
        std::error_code ec;
        if (std::filesystem::is_directory(folder, ec)) return folder;
    }
    return std::nullopt;
}

Input ReadInput(const std::filesystem::path &path, std::string label) {
    Input in;
    std::ifstream f(path, std::ios::binary);
    in.bytes.assign(std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>());
    in.label = std::move(label);
    in.instances = rbx::ReadBinary(in.bytes.data(), in.bytes.size()).instances.size();
    in.decompressed = DecompressedBytes(in.bytes);
    return in;
}

// The largest binary place of the corpus, or an empty input.
const Input &CorpusPlace() {
    static const Input input = [] {
        Input in;
        const auto places = CorpusFolder("rbx-test-files/places");
        if (!places) return in;
        std::filesystem::path best;
        std::uintmax_t bestSize = 0;
        for (const auto &entry : std::filesystem::recursive_directory_iterator(*places))
            if (entry.path().extension() == ".rbxl" && entry.file_size() > bestSize) {
                best = entry.path();
                bestSize = entry.file_size();
            }
        if (best.empty()) return in;
        return ReadInput(best, best.parent_path().filename().string());
    }();
    return input;
}

// The real modern places (rbx/public-places, issue #25): 0 the 27,368-instance block-built lobby, 1 the place with
// 77 M terrain voxels, 2 the combat kit (R15 rig, 19 KeyframeSequences), 3 the world with 758 Bones.
const Input &PublicPlace(std::size_t k) {
    static const std::vector<Input> inputs = [] {
        std::vector<Input> out(4);
        const auto folder = CorpusFolder("public-places");
        if (!folder) return out;
        const char *names[] = {"libre-duel-lobby.rbxm", "chickynoid-example.rbxl", "ams-melee.rbxl",
                               "unstablerem.rbxl"};
        for (std::size_t i = 0; i < out.size(); ++i)
            if (std::filesystem::exists(*folder / names[i])) out[i] = ReadInput(*folder / names[i], names[i]);
        return out;
    }();
    return inputs[k];
}

// A place of `parts` Parts under Workspace, with the properties Studio writes most: CFrame (every fourth
// rotated, the rest identity), size, Color3uint8, Anchored, CanCollide, Material, Transparency,
// Reflectance, shape, TopSurface, BottomSurface, Locked.
rbx::Document GeneratedPlace(std::size_t parts) {
    rbx::Document doc;
    const auto workspace = doc.addInstance("Workspace", "Workspace");
    doc.instances[workspace].isService = true;
    doc.setParent(workspace, rbx::kNoInstance);
    doc.instances.reserve(parts + 1);
    const std::uint32_t nCFrame = doc.names.intern("CFrame"), nSize = doc.names.intern("size"),
                        nColor = doc.names.intern("Color3uint8"), nAnchored = doc.names.intern("Anchored"),
                        nCollide = doc.names.intern("CanCollide"), nMaterial = doc.names.intern("Material"),
                        nTransparency = doc.names.intern("Transparency"), nReflect = doc.names.intern("Reflectance"),
                        nShape = doc.names.intern("shape"), nTop = doc.names.intern("TopSurface"),
                        nBottom = doc.names.intern("BottomSurface"), nLocked = doc.names.intern("Locked");
    for (std::size_t i = 0; i < parts; ++i) {
        const auto part = doc.addInstance("Part", "Part" + std::to_string(i % 1000), workspace);
        auto &props = doc.instances[part].properties;
        props.reserve(12);
        auto add = [&](std::uint32_t name, rbx::Type type, rbx::ValueData data) {
            rbx::Property p;
            p.name = name;
            p.value.type = type;
            p.value.data = std::move(data);
            props.push_back(std::move(p));
        };
        rbx::CFrame cf;
        cf.position = {static_cast<float>(i % 317) * 4.0f, static_cast<float>(i % 13),
                       static_cast<float>(i / 317) * 2.0f};
        if (i % 4 == 0) cf.rotation = {0.8f, 0, 0.6f, 0, 1, 0, -0.6f, 0, 0.8f};
        add(nCFrame, rbx::Type::CFrame, cf);
        add(nSize, rbx::Type::Vector3, rbx::Vector3{4, 1.2f, 2});
        add(nColor, rbx::Type::Color3uint8,
            rbx::Color3uint8{static_cast<std::uint8_t>(i), static_cast<std::uint8_t>(i >> 3), 165});
        add(nAnchored, rbx::Type::Bool, true);
        add(nCollide, rbx::Type::Bool, i % 7 != 0);
        add(nMaterial, rbx::Type::Enum, rbx::EnumValue{i % 3 == 0 ? 272u : 256u});
        add(nTransparency, rbx::Type::Float32, i % 10 == 0 ? 0.5f : 0.0f);
        add(nReflect, rbx::Type::Float32, 0.0f);
        add(nShape, rbx::Type::Enum, rbx::EnumValue{1});
        add(nTop, rbx::Type::Enum, rbx::EnumValue{0});
        add(nBottom, rbx::Type::Enum, rbx::EnumValue{0});
        add(nLocked, rbx::Type::Bool, false);
    }
    return doc;
}

const Input &GeneratedInput() {
    static const Input input = [] {
        Input in;
        in.label = "generated_100k_parts";
        const rbx::Document doc = GeneratedPlace(100000);
        in.bytes = rbx::WriteBinary(doc);
        in.instances = doc.instances.size();
        in.decompressed = DecompressedBytes(in.bytes);
        return in;
    }();
    return input;
}

void Report(benchmark::State &state, const Input &in) {
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * in.bytes.size()));
    state.SetItemsProcessed(static_cast<std::int64_t>(state.iterations() * in.instances));
    state.counters["decompressed_per_second"] =
        benchmark::Counter(static_cast<double>(in.decompressed), benchmark::Counter::kIsIterationInvariantRate,
                           benchmark::Counter::kIs1024);
    state.SetLabel(in.label);
}

// Argument 0: the largest rbx-test-files place; 1: the generated place; 2–5: the public places.
const Input *Pick(benchmark::State &state) {
    const std::int64_t k = state.range(0);
    const Input &in = k == 0 ? CorpusPlace() : k == 1 ? GeneratedInput() : PublicPlace(static_cast<std::size_t>(k - 2));
    if (in.bytes.empty()) {
        state.SkipWithError("corpus place not found (../shared/corpus beside the project, or $GAMEFMT_CORPUS)");
        return nullptr;
    }
    return &in;
}

void BM_RbxDecodeBinary(benchmark::State &state) {
    const Input *in = Pick(state);
    if (in == nullptr) return;
    for (auto _ : state) {
        rbx::Document doc = rbx::ReadBinary(in->bytes.data(), in->bytes.size());
        benchmark::DoNotOptimize(doc.instances.data());
    }
    Report(state, *in);
}

void BM_RbxEncodeBinary(benchmark::State &state) {
    const Input *in = Pick(state);
    if (in == nullptr) return;
    const rbx::Document doc = rbx::ReadBinary(in->bytes.data(), in->bytes.size());
    for (auto _ : state) {
        Bytes out = rbx::WriteBinary(doc);
        benchmark::DoNotOptimize(out.data());
    }
    Report(state, *in);
}

// Imports `in` through a registered Importer; null (and the benchmark skipped) when the import fails.
const aiScene *ImportOrSkip(benchmark::State &state, Assimp::Importer &importer, const Input &in,
                            bool geometry = true) {
    gamefmt::RegisterImporters(importer);
    importer.SetPropertyBool(GAMEFMT_RBX_GEOMETRY, geometry);
    const aiScene *scene = importer.ReadFileFromMemory(in.bytes.data(), in.bytes.size(), 0, "rbxl");
    if (scene == nullptr) state.SkipWithError(importer.GetErrorString());
    return scene;
}

void BM_RbxImportScene(benchmark::State &state) {
    const Input *in = Pick(state);
    if (in == nullptr) return;
    unsigned meshes = 0, materials = 0;
    for (auto _ : state) {
        Assimp::Importer importer;
        const aiScene *scene = ImportOrSkip(state, importer, *in);
        if (scene == nullptr) return;
        meshes = scene->mNumMeshes;
        materials = scene->mNumMaterials;
        benchmark::DoNotOptimize(scene->mRootNode);
    }
    state.counters["meshes"] = meshes; // shared: identical parts show one mesh
    state.counters["materials"] = materials;
    Report(state, *in);
}

// The same import with GAMEFMT_RBX_GEOMETRY off: the instance tree alone, so the difference to
// BM_RbxImportScene is what building the parts' meshes, materials and lights costs.
void BM_RbxImportNodesOnly(benchmark::State &state) {
    const Input *in = Pick(state);
    if (in == nullptr) return;
    for (auto _ : state) {
        Assimp::Importer importer;
        const aiScene *scene = ImportOrSkip(state, importer, *in, false);
        if (scene == nullptr) return;
        benchmark::DoNotOptimize(scene->mRootNode);
    }
    Report(state, *in);
}

// The imported place written as glb by gamefmt's glTF writer (what `gamefmt export place.glb`
// runs), timed alone: the import happens once, outside the loop. Bytes are counted, not kept.
void BM_RbxExportGlb(benchmark::State &state) {
    const Input *in = Pick(state);
    if (in == nullptr) return;
    Assimp::Importer importer;
    const aiScene *scene = ImportOrSkip(state, importer, *in);
    if (scene == nullptr) return;
    std::size_t bytes = 0;
    for (auto _ : state) {
        bytes = 0;
        const gamefmt::glue::ByteSink sink = [&bytes](const char *, std::size_t n) { bytes += n; };
        gamefmt::glue::WriteGltf(*scene, gamefmt::glue::GltfOptions{}, "place.glb", "",
                                 [&sink](const std::string &) { return sink; });
    }
    state.counters["glb_bytes"] = static_cast<double>(bytes);
    Report(state, *in);
}

// The same glb from Assimp's glb2 exporter (Exporter::ExportToBlob, with its scene copy), for comparison.
void BM_RbxExportGlbAssimp(benchmark::State &state) {
    const Input *in = Pick(state);
    if (in == nullptr) return;
    Assimp::Importer importer;
    const aiScene *scene = ImportOrSkip(state, importer, *in);
    if (scene == nullptr) return;
    std::size_t bytes = 0;
    for (auto _ : state) {
        Assimp::Exporter exporter;
        const aiExportDataBlob *blob = exporter.ExportToBlob(scene, "glb2");
        if (blob == nullptr) {
            state.SkipWithError(exporter.GetErrorString());
            return;
        }
        bytes = blob->size;
    }
    state.counters["glb_bytes"] = static_cast<double>(bytes);
    Report(state, *in);
}

// Heap bytes the imported scene holds per instance (glibc mallinfo2: in use after the import minus before,
// with the Importer and its scene alive; 0 under ASan, whose allocator mallinfo2 does not see), next to sizeof(aiNode).
// Issue #11: the per-node property bags made this ~16 KB; an aiNode alone is ~1.1 KB (its mName is a fixed 1 KB
// aiString).
// What the scene's metadata (scene and nodes) occupies: per entry a key aiString, a value of its type and the
// aiMetadataEntry, plus each block's header.
std::size_t MetadataBytes(const aiMetadata *md) {
    if (md == nullptr) return 0;
    std::size_t bytes = sizeof(aiMetadata);
    for (unsigned i = 0; i < md->mNumProperties; ++i) {
        bytes += sizeof(aiString) + sizeof(aiMetadataEntry);
        switch (md->mValues[i].mType) {
        case AI_AISTRING:
            bytes += sizeof(aiString);
            break;
        case AI_AIVECTOR3D:
            bytes += sizeof(aiVector3D);
            break;
        default:
            bytes += 8;
            break;
        }
    }
    return bytes;
}

std::size_t SceneMetadataBytes(const aiScene &scene) {
    std::size_t bytes = MetadataBytes(scene.mMetaData);
    std::vector<const aiNode *> stack{scene.mRootNode};
    while (!stack.empty()) {
        const aiNode *node = stack.back();
        stack.pop_back();
        bytes += MetadataBytes(node->mMetaData);
        for (unsigned i = 0; i < node->mNumChildren; ++i) stack.push_back(node->mChildren[i]);
    }
    return bytes;
}

void BM_RbxSceneMemory(benchmark::State &state) {
    const Input *in = Pick(state);
    if (in == nullptr) return;
    double perInstance = 0;
    double metadataPerInstance = 0;
    for (auto _ : state) {
        const std::size_t before = mallinfo2().uordblks;
        Assimp::Importer importer;
        const aiScene *scene = ImportOrSkip(state, importer, *in);
        if (scene == nullptr) return;
        perInstance = static_cast<double>(mallinfo2().uordblks - before) / static_cast<double>(in->instances);
        metadataPerInstance = static_cast<double>(SceneMetadataBytes(*scene)) / static_cast<double>(in->instances);
    }
    state.counters["heap_bytes_per_instance"] = perInstance;
    state.counters["metadata_bytes_per_instance"] = metadataPerInstance;
    state.counters["aiNode_bytes"] = static_cast<double>(sizeof(aiNode));
    state.SetLabel(in->label);
}

// Terrain (issue #15 point 4): the big generated map (7.5 M voxels) imported at stride 1, 2 and 4; heap growth of the
// import (mallinfo2, what the scene holds afterwards) and triangles as counters. docs/performance.md has the
// process peaks (/usr/bin/time).
void BM_RbxTerrainImport(benchmark::State &state) {
    static const std::vector<std::uint8_t> map = gamefmt::fixtures::BigTerrainPlace();
    double heap = 0, triangles = 0;
    for (auto _ : state) {
        const std::size_t before = mallinfo2().uordblks;
        Assimp::Importer importer;
        gamefmt::RegisterImporters(importer);
        importer.SetPropertyInteger(GAMEFMT_RBX_TERRAIN_STRIDE, static_cast<int>(state.range(0)));
        const aiScene *scene = importer.ReadFileFromMemory(map.data(), map.size(), 0, "rbxl");
        if (scene == nullptr) {
            state.SkipWithError(importer.GetErrorString());
            return;
        }
        heap = static_cast<double>(mallinfo2().uordblks - before);
        triangles = 0;
        for (unsigned m = 0; m < scene->mNumMeshes; ++m) triangles += scene->mMeshes[m]->mNumFaces;
    }
    state.counters["scene_heap_MB"] = heap / (1 << 20);
    state.counters["triangles"] = triangles;
}
BENCHMARK(BM_RbxTerrainImport)->Arg(1)->Arg(2)->Arg(4)->Unit(benchmark::kMillisecond)->Iterations(1);

// Argument 0: the largest rbx-test-files place; 1: the generated place; 2–5: the public places (PublicPlace).
BENCHMARK(BM_RbxDecodeBinary)->DenseRange(0, 5)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RbxEncodeBinary)->DenseRange(0, 5)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RbxImportScene)->DenseRange(0, 5)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RbxImportNodesOnly)->DenseRange(0, 5)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RbxExportGlb)->DenseRange(0, 5)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RbxExportGlbAssimp)->DenseRange(0, 5)->Unit(benchmark::kMillisecond);
BENCHMARK(BM_RbxSceneMemory)->DenseRange(0, 5)->Unit(benchmark::kMillisecond)->Iterations(1);

} // namespace

namespace gamefmt::bench {
// The 100,000-part generated place, for bench_gltf.cpp.
const std::vector<std::uint8_t> &GeneratedPlaceBytes() {
    return GeneratedInput().bytes;
}
} // namespace gamefmt::bench
