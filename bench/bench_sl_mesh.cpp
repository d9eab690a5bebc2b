// Second Life mesh import throughput (issue #5): a large generated rigged asset (4 LODs, 8 faces, about
// 60k vertices and 118k triangles in high_lod) through a registered Importer, next to the cost of only
// zlib-inflating the blocks the importer reads, the codec alone, and Assimp's PLY and OBJ importers on the
// same high-LOD triangles.
#include "heightfield.hpp"

#include "common/compression.hpp"
#include "gamefmt/gamefmt.hpp"
#include "import_loop.hpp"
#include "importers/sl_mesh/asset.hpp"

#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace {

namespace sl = gamefmt::slmesh;

constexpr unsigned kFaces = 8;

// One face: an n x n grid over a wavy surface, each face in its own strip of the unit cube. Quantized
// directly (the values are what a writer would store); weights blend two joints along x.
sl::Face GridFace(unsigned face, unsigned n, bool rigged, gamefmt::bench::HeightField *plain) {
    sl::Face f;
    f.positionDomain = sl::Domain3{};
    f.texCoordDomain = sl::Domain2{};
    f.hasNormals = f.hasTexCoords = true;
    f.hasWeights = rigged;
    const std::size_t base = plain != nullptr ? plain->vertexCount() : 0;
    for (unsigned j = 0; j < n; ++j)
        for (unsigned i = 0; i < n; ++i) {
            const float u = float(i) / float(n - 1), v = float(j) / float(n - 1);
            const float x = u - 0.5f;
            const float y = (float(face) + v) / float(kFaces) - 0.5f;
            const float z = 0.25f * std::sin(6.0f * u) * std::cos(5.0f * v);
            for (float c : {x, y, z}) f.positions.push_back(sl::QuantizeComponent(c, -0.5f, 0.5f));
            for (float c : {0.0f, 0.0f, 1.0f}) f.normals.push_back(sl::QuantizeNormal(c));
            f.texCoords.push_back(sl::QuantizeComponent(u, 0, 1));
            f.texCoords.push_back(sl::QuantizeComponent(v, 0, 1));
            if (rigged) {
                sl::WeightRecord r;
                r.count = 2;
                r.influences[0] = {0, static_cast<std::uint16_t>((1.0f - u) * 65535.0f)};
                r.influences[1] = {1, static_cast<std::uint16_t>(u * 65535.0f)};
                f.weights.push_back(r);
            }
            if (plain != nullptr)
                for (float c : {x, y, z}) plain->positions.push_back(c);
        }
    for (unsigned j = 0; j + 1 < n; ++j)
        for (unsigned i = 0; i + 1 < n; ++i) {
            const auto a = static_cast<std::uint16_t>(j * n + i);
            const auto b = static_cast<std::uint16_t>(a + 1), c = static_cast<std::uint16_t>(a + n),
                       d = static_cast<std::uint16_t>(a + n + 1);
            for (std::uint16_t k : {a, b, d, a, d, c}) {
                f.indices.push_back(k);
                if (plain != nullptr) plain->indices.push_back(static_cast<std::uint32_t>(base + k));
            }
        }
    return f;
}

struct Generated {
    std::vector<std::uint8_t> llmesh;
    gamefmt::bench::HeightField highLod; // the same high-LOD triangles, unquantized, for PLY/OBJ
    std::size_t highVertices = 0, highTriangles = 0;
};

const Generated &Asset() {
    static const Generated generated = [] {
        Generated g;
        sl::SLMeshAsset asset;
        const unsigned sizes[4] = {11, 22, 44, 87}; // lowest ... high: 87 x 87 x 8 = 60,552 vertices
        for (int level = 0; level < 4; ++level) {
            sl::Lod lod;
            for (unsigned face = 0; face < kFaces; ++face)
                lod.faces.push_back(GridFace(face, sizes[level], true, level == sl::kHighLod ? &g.highLod : nullptr));
            asset.lods[level] = std::move(lod);
        }
        sl::Skin skin;
        skin.jointNames = {"mPelvis", "mTorso"};
        for (double z : {-1.067, -1.151}) {
            sl::Matrix16 m{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, sl::FloatWidened(z), 1};
            skin.inverseBind.push_back(m);
        }
        skin.bindShape = sl::Matrix16{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1};
        asset.skin = std::move(skin);
        sl::PhysicsConvex convex;
        convex.hasBoundingVerts = true;
        convex.domain = sl::Domain3{};
        for (std::uint16_t q : {0, 0, 0, 65535, 0, 0, 0, 65535, 0, 0, 0, 65535}) convex.boundingVerts.push_back(q);
        asset.physicsConvex = std::move(convex);
        g.llmesh = sl::WriteAsset(asset);
        g.highVertices = g.highLod.vertexCount();
        g.highTriangles = g.highLod.triangleCount();
        return g;
    }();
    return generated;
}

void Counters(benchmark::State &state, std::size_t bytes) {
    const Generated &g = Asset();
    state.SetBytesProcessed(static_cast<std::int64_t>(state.iterations() * bytes));
    state.counters["vertices"] = static_cast<double>(g.highVertices);
    state.counters["triangles"] = static_cast<double>(g.highTriangles);
    state.counters["file_MB"] = static_cast<double>(bytes) / 1e6;
}

void BM_SlImport(benchmark::State &state, unsigned flags) {
    const std::vector<std::uint8_t> &bytes = Asset().llmesh;
    auto importer = gamefmt::MakeImporter();
    gamefmt::bench::ImportLoop(state, *importer, bytes, flags, "llmesh");
    Counters(state, bytes.size());
}

// What the importer must at least do: inflate the blocks it reads (high_lod and skin), found by the same
// header the codec parses.
void BM_SlInflateOnly(benchmark::State &state) {
    const std::vector<std::uint8_t> &bytes = Asset().llmesh;
    const sl::LLSDParseResult header = sl::ParseBinaryLLSD(bytes.data(), bytes.size());
    std::vector<std::pair<std::size_t, std::size_t>> blocks;
    for (const char *key : {"high_lod", "skin"}) {
        const sl::LLSD *entry = header.value.find(key);
        blocks.emplace_back(header.end + static_cast<std::size_t>(entry->find("offset")->asInteger()),
                            static_cast<std::size_t>(entry->find("size")->asInteger()));
    }
    std::size_t inflated = 0;
    for (auto _ : state) {
        inflated = 0;
        for (const auto &block : blocks) {
            const std::vector<std::uint8_t> out =
                gamefmt::InflateZlibUnknownSize(bytes.data() + block.first, block.second, "bench", block.first);
            inflated += out.size();
            benchmark::DoNotOptimize(out.data());
        }
    }
    state.counters["inflated_MB"] = static_cast<double>(inflated) / 1e6;
    Counters(state, bytes.size());
}

// The codec alone (bytes -> SLMeshAsset) with the blocks the importer asks for by default.
void BM_SlReadAsset(benchmark::State &state) {
    const std::vector<std::uint8_t> &bytes = Asset().llmesh;
    sl::ReadOptions options;
    options.blocks = sl::kBlockHigh | sl::kBlockSkin;
    for (auto _ : state) {
        const sl::SLMeshAsset asset = sl::ReadAsset(bytes.data(), bytes.size(), options);
        benchmark::DoNotOptimize(asset.lods[sl::kHighLod]->faces.data());
    }
    Counters(state, bytes.size());
}

void BM_AssimpSameGeometry(benchmark::State &state, bool ply) {
    const Generated &g = Asset();
    static const std::vector<std::uint8_t> plyBytes = gamefmt::bench::ToBinaryPly(Asset().highLod);
    static const std::vector<std::uint8_t> objBytes = gamefmt::bench::ToObj(Asset().highLod);
    const std::vector<std::uint8_t> &bytes = ply ? plyBytes : objBytes;
    Assimp::Importer importer;
    for (auto _ : state) {
        const aiScene *scene = importer.ReadFileFromMemory(bytes.data(), bytes.size(), 0, ply ? "ply" : "obj");
        if (scene == nullptr) {
            state.SkipWithError(importer.GetErrorString());
            break;
        }
        benchmark::DoNotOptimize(scene->mNumMeshes);
        state.PauseTiming();
        importer.FreeScene();
        state.ResumeTiming();
    }
    (void)g;
    Counters(state, bytes.size());
}

int RegisterAll() {
    benchmark::RegisterBenchmark("SlMesh/import/raw", BM_SlImport, 0u)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("SlMesh/import/validate", BM_SlImport, unsigned(aiProcess_ValidateDataStructure))
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("SlMesh/inflate_only", BM_SlInflateOnly)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("SlMesh/codec_read", BM_SlReadAsset)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("SlMesh/assimp_ply_same_high_lod", BM_AssimpSameGeometry, true)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("SlMesh/assimp_obj_same_high_lod", BM_AssimpSameGeometry, false)
        ->Unit(benchmark::kMillisecond);
    return 0;
}
const int kRegistered = RegisterAll();

} // namespace
