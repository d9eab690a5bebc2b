// libFuzzer targets for the codecs alone, without Assimp: bytes → reader → (when it reads) writer → reader.
// Whole imports (fuzz_importer.cpp) spend most of each run in Assimp's post-processing and glTF export; the
// codecs are where the hostile bytes are parsed, so these targets run them an order of magnitude faster.
// GAMEFMT_FUZZ_CODEC picks the codec: 1 Roblox mesh, 2 Roblox model (binary and XML), 3 Redguard model,
// 4 Redguard ROB archive (framing, then every embedded model), 5 Roblox union blobs (render meshes and hulls),
// 6 Roblox terrain SmoothGrid (decode, then mesh small grids at every stride).
#include "common/error.hpp"
#include "importers/redguard/model.hpp"
#include "importers/redguard/rgm.hpp"
#include "importers/redguard/rob.hpp"
#include "importers/redguard/wld.hpp"
#include "importers/roblox_mesh/mesh_reader.hpp"
#include "importers/roblox_mesh/mesh_writer.hpp"
#include "importers/roblox_model/appearance/texture_pack.hpp"
#include "importers/roblox_model/document/binary_writer.hpp"
#include "importers/roblox_model/document/reader.hpp"
#include "importers/roblox_model/document/xml_writer.hpp"
#include "importers/roblox_model/geometry/terrain.hpp"
#include "importers/roblox_model/geometry/union_mesh.hpp"
#include "importers/roblox_model/motion/curves.hpp"
#include "importers/roblox_model/motion/keyframes.hpp"
#include "importers/roblox_model/motion/rigs.hpp"
#include "meshing/terrain_mesher.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#ifndef GAMEFMT_FUZZ_CODEC
#error "GAMEFMT_FUZZ_CODEC must pick the codec (1-6)"
#endif

namespace {

constexpr std::size_t kMaxInput = 1u << 20;

// Whatever the writer makes of a model it accepted must read back.
template <typename Read> void ReadBack(const std::vector<std::uint8_t> &bytes, Read read) {
    try {
        read(bytes.data(), bytes.size());
    } catch (const gamefmt::FormatError &) {
        __builtin_trap();
    }
}

// One function per codec; each fuzz target (GAMEFMT_FUZZ_CODEC) calls one, so the others are unused there.
[[maybe_unused]] void RobloxMesh(const std::uint8_t *data, std::size_t size) {
    const gamefmt::rbxmesh::RobloxMesh mesh = gamefmt::rbxmesh::ReadRobloxMesh(data, size);
    std::vector<std::uint8_t> written;
    try {
        written = gamefmt::rbxmesh::WriteRobloxMesh(mesh);
    } catch (const gamefmt::FormatError &) {
        return; // the reader is lenient where the writer is strict (e.g. bone names with NULs)
    }
    ReadBack(written, gamefmt::rbxmesh::ReadRobloxMesh);
}

[[maybe_unused]] void RobloxModel(const std::uint8_t *data, std::size_t size) {
    // A TexturePack asset is a <roblox> XML document too (texture_pack.hpp): its reader sees every model input.
    if (const auto pack = gamefmt::rbx::ReadTexturePack(data, size))
        for (const std::string *uri : {&pack->color, &pack->normal, &pack->metalness, &pack->roughness})
            if (!uri->empty() && uri->rfind("rbxassetid://", 0) != 0) __builtin_trap();
    gamefmt::rbx::ReadOptions options;
    options.maxDecompressed = 64u << 20;
    options.maxInstances = 100000;
    const gamefmt::rbx::Document doc = gamefmt::rbx::ReadDocument(data, size, options);
    // Rigs and animations (importers/roblox_model/motion/): joint trees, sequences, curves, every track evaluated once.
    const gamefmt::rbx::RigSet rigs = gamefmt::rbx::FindRigs(doc);
    std::vector<std::string> warnings;
    std::vector<gamefmt::rbx::Sequence> sequences = gamefmt::rbx::ReadSequences(doc, warnings);
    for (auto &curve : gamefmt::rbx::ReadCurveAnimations(doc, 30, warnings)) sequences.push_back(std::move(curve));
    for (const gamefmt::rbx::Sequence &seq : sequences) {
        for (const gamefmt::rbx::Rig &rig : rigs.rigs) (void)gamefmt::rbx::BindTracks(doc, rigs, rig, seq);
        for (const gamefmt::rbx::Track &track : seq.tracks) (void)gamefmt::rbx::EvaluateTrack(track, seq.length / 2);
    }
    std::vector<std::uint8_t> binary;
    std::string xml;
    try {
        binary = gamefmt::rbx::WriteBinary(doc);
        xml = gamefmt::rbx::WriteXml(doc);
    } catch (const gamefmt::FormatError &) {
        return;
    }
    (void)xml;
    ReadBack(binary, [&](const std::uint8_t *d, std::size_t n) { gamefmt::rbx::ReadDocument(d, n, options); });
}

void RedguardModel(const std::uint8_t *data, std::size_t size, std::size_t base = 0) {
    const gamefmt::redguard::RG3DModel model = gamefmt::redguard::ReadModel(data, size, base);
    (void)gamefmt::redguard::CornerUVs(model);
    (void)gamefmt::redguard::CornerNormals(model);
    (void)gamefmt::redguard::FaceRecordOffsets(model, model.header[15]);
    if (gamefmt::redguard::IsV2(model.version)) return; // never written
    std::vector<std::uint8_t> written;
    try {
        written = gamefmt::redguard::WriteModel(model);
    } catch (const gamefmt::FormatError &) {
        return;
    }
    ReadBack(written, [](const std::uint8_t *d, std::size_t n) { gamefmt::redguard::ReadModel(d, n); });
}

[[maybe_unused]] void RedguardRob(const std::uint8_t *data, std::size_t size) {
    const gamefmt::redguard::RobArchive archive = gamefmt::redguard::ReadRob(data, size);
    for (const gamefmt::redguard::RobSegment &segment : archive.segments) {
        if (!segment.embedded() || segment.payloadOffset > size) continue;
        try {
            RedguardModel(data + segment.payloadOffset, std::min(segment.payloadSize, size - segment.payloadOffset),
                          segment.payloadOffset);
        } catch (const gamefmt::FormatError &) {
        }
    }
}

// Union blobs (docs/formats/roblox-union-mesh.md): every index of a decoded mesh addresses a position.
[[maybe_unused]] void RobloxUnion(const std::uint8_t *data, std::size_t size) {
    for (int hulls = 0; hulls < 2; ++hulls) {
        std::optional<gamefmt::rbx::UnionMesh> mesh;
        try {
            mesh = hulls != 0 ? gamefmt::rbx::DecodeUnionHulls(data, size)
                              : gamefmt::rbx::DecodeUnionRenderMesh(data, size);
        } catch (const gamefmt::FormatError &) {
            continue;
        }
        if (!mesh) continue;
        if (mesh->indices.size() % 3 != 0) __builtin_trap();
        for (std::uint32_t i : mesh->indices)
            if (i >= mesh->positions.size()) __builtin_trap();
    }
}

// Terrain (docs/formats/roblox-terrain.md): decode; grids of a few chunks are meshed too (big ones would only
// measure the mesher's speed) at every stride, unsimplified and simplified with two threads; every triangle must
// index a vertex, and the thread count must not change the output.
[[maybe_unused]] void RobloxTerrain(const std::uint8_t *data, std::size_t size) {
    const gamefmt::rbx::TerrainGrid grid = gamefmt::rbx::DecodeSmoothGrid(data, size, std::uint64_t(64) << 20);
    if (grid.chunks.size() > 4) return;
    for (int stride : {1, 2, 4})
        for (float error : {0.0f, 0.5f}) {
            gamefmt::rbx::TerrainMeshOptions options;
            options.stride = stride;
            options.error = error;
            options.threads = error > 0 ? 2 : 1;
            const gamefmt::rbx::TerrainSurface s = gamefmt::rbx::MeshTerrain(grid, options);
            if (s.normals.size() != s.positions.size()) __builtin_trap();
            for (const auto &tris : s.trianglesByMaterial)
                for (std::uint32_t i : tris)
                    if (i >= s.positions.size()) __builtin_trap();
            if (error > 0 && stride == 1) {
                options.threads = 1;
                const gamefmt::rbx::TerrainSurface one = gamefmt::rbx::MeshTerrain(grid, options);
                if (one.trianglesByMaterial != s.trianglesByMaterial) __builtin_trap();
            }
        }
}

// Redguard levels (docs/formats/redguard-world.md): an RGM's sections and records, a WLD's header, sections and maps.
// Every decoded record must be whole; the stitched maps must be 256 × 256.
[[maybe_unused]] void RedguardLevel(const std::uint8_t *data, std::size_t size) {
    if (gamefmt::redguard::LooksLikeWld(data, size)) {
        const gamefmt::redguard::WldWorld world = gamefmt::redguard::ReadWld(data, size);
        if (world.heights.size() != 65536 || world.textures.size() != 65536) __builtin_trap();
        for (std::size_t gy = 0; gy < 256; gy += 17)
            for (std::size_t gx = 0; gx < 256; gx += 17)
                if (world.height(gx, gy) < 0 || world.height(gx, gy) > 7760) __builtin_trap();
        return;
    }
    const gamefmt::redguard::RgmScene scene = gamefmt::redguard::ReadRgm(data, size);
    if (scene.statics.size() * gamefmt::redguard::kMpsoRecord > size) __builtin_trap();
    if (scene.scripted.size() * gamefmt::redguard::kMpobRecord > size) __builtin_trap();
    if (scene.markers.size() * gamefmt::redguard::kMpmkRecord > size) __builtin_trap();
    for (const auto &o : scene.scripted) (void)gamefmt::redguard::FindActor(scene, o.script);
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    if (size > kMaxInput) return 0;
    try {
#if GAMEFMT_FUZZ_CODEC == 1
        RobloxMesh(data, size);
#elif GAMEFMT_FUZZ_CODEC == 2
        RobloxModel(data, size);
#elif GAMEFMT_FUZZ_CODEC == 3
        RedguardModel(data, size);
#elif GAMEFMT_FUZZ_CODEC == 4
        RedguardRob(data, size);
#elif GAMEFMT_FUZZ_CODEC == 5
        RobloxUnion(data, size);
#elif GAMEFMT_FUZZ_CODEC == 6
        RobloxTerrain(data, size);
#elif GAMEFMT_FUZZ_CODEC == 7
        RedguardLevel(data, size);
#endif
    } catch (const gamefmt::FormatError &) {
    }
    return 0;
}
