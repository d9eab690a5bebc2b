// Writes the seed corpus of every fuzz target into OUTDIR/<target>/ from the fixture generators.
//   gamefmt_fuzz_seeds OUTDIR
#include "fixtures/fixtures.hpp"
#include "fixtures/roblox_mesh_fixtures.hpp"
#include "importers/roblox_mesh/mesh_builder.hpp"
#include "importers/roblox_mesh/mesh_writer.hpp"

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <string>
#include <vector>

namespace {

// Small files of every version the writer produces, made by the exporter's own path (BuildRobloxMesh +
// WriteRobloxMesh), so the fuzzer starts from valid LOD tables, subsets, FACS and Draco streams.
std::vector<gamefmt::fixtures::Fixture> RobloxMeshSeeds() {
    namespace rb = gamefmt::rbxmesh;
    // A 4 x 4 grid (18 triangles) with a second, coarser level; three bones along Y for the skinned seeds.
    rb::BuildInput input;
    for (std::uint32_t z = 0; z < 4; ++z)
        for (std::uint32_t x = 0; x < 4; ++x) {
            rb::Vertex v;
            v.px = static_cast<float>(x);
            v.py = 0.1f * static_cast<float>(x * z);
            v.pz = static_cast<float>(z);
            v.ny = 1;
            v.u = static_cast<float>(x) / 3;
            v.v = static_cast<float>(z) / 3;
            v.tangent = {254, 127, 127, 254};
            v.color = {static_cast<std::uint8_t>(60 * x), 200, static_cast<std::uint8_t>(60 * z), 255};
            input.vertices.push_back(v);
        }
    input.lods.resize(2);
    for (std::uint32_t z = 0; z < 3; ++z)
        for (std::uint32_t x = 0; x < 3; ++x) {
            const std::uint32_t i = z * 4 + x;
            input.lods[0].push_back({i, i + 4, i + 1});
            input.lods[0].push_back({i + 1, i + 4, i + 5});
        }
    input.lods[1] = {{0, 12, 3}, {3, 12, 15}};
    const rb::RobloxMesh staticMesh = rb::BuildRobloxMesh(input, {"3.00", false, {}, false});

    rb::BuildInput skinned = input;
    for (const char *name : {"Root", "Head", "Jaw"}) {
        rb::BoneInput bone;
        bone.name = name;
        bone.parent = static_cast<std::int32_t>(skinned.bones.size()) - 1;
        bone.position = {0, static_cast<float>(skinned.bones.size()), 0};
        skinned.bones.push_back(bone);
    }
    skinned.influences.resize(skinned.vertices.size());
    for (std::size_t i = 0; i < skinned.vertices.size(); ++i)
        skinned.influences[i] = {{static_cast<std::uint32_t>(i % 3), 0.75f},
                                 {static_cast<std::uint32_t>((i + 1) % 3), 0.25f}};
    rb::Facs facs;
    facs.blob = gamefmt::fixtures::rbxmesh::FacsBlob(); // face bones Head and Jaw
    skinned.facs = facs;

    const auto build = [](const rb::BuildInput &in, const char *version) {
        return rb::BuildRobloxMesh(in, {version, false, {}, false});
    };
    const auto write = [](const rb::RobloxMesh &mesh, bool draco = true) {
        return rb::WriteRobloxMesh(mesh, {"", draco});
    };
    return {
        {"header_only.mesh", gamefmt::fixtures::RobloxMeshHeaderOnly()},
        {"export_200.mesh", write(build(input, "2.00"))},
        {"export_300_lods.mesh", write(staticMesh)},
        {"export_400_skinned.mesh", write(build(skinned, "4.00"))},
        {"export_500_facs.mesh", write(build(skinned, "5.00"))},
        {"export_600_skinned_facs.mesh", write(build(skinned, "6.00"))},
        {"export_700_draco_skinned_facs.mesh", write(build(skinned, "7.00"))},
        {"export_700_raw.mesh", write(build(input, "7.00"), false)},
    };
}

} // namespace

int main(int argc, char **argv) {
    if (argc != 2) {
        std::cerr << "usage: gamefmt_fuzz_seeds OUTDIR\n";
        return 2;
    }
    namespace fx = gamefmt::fixtures;
    const std::map<std::string, std::vector<fx::Fixture>> seeds = {
        {"roblox_mesh", RobloxMeshSeeds()},
        {"roblox_model", {{"magic.rbxm", {'<', 'r', 'o', 'b', 'l', 'o', 'x', '!', 0x89, 0xFF, 0x0D, 0x0A, 0x1A, 0x0A}}}},
        {"roblox_model_xml", {{"empty.rbxmx", fx::Bytes{'<', 'r', 'o', 'b', 'l', 'o', 'x', '>', '<', '/', 'r', 'o', 'b',
                                                        'l', 'o', 'x', '>'}}}},
        {"sl_mesh", {{"map.llmesh", fx::Bytes{0x7B, 0, 0, 0, 1, 0x6B, 0, 0, 0, 8, 'h', 'i', 'g', 'h', '_', 'l', 'o',
                                              'd', 0x69, 0, 0, 0, 0, 0x7D}}}},
        {"redguard", {{"header_only.3d", fx::RedguardHeaderOnly()}}},
    };
    for (const auto &[target, files] : seeds) {
        const std::filesystem::path dir = std::filesystem::path(argv[1]) / target;
        std::filesystem::create_directories(dir);
        for (const fx::Fixture &f : files) {
            std::ofstream out(dir / f.name, std::ios::binary);
            out.write(reinterpret_cast<const char *>(f.bytes.data()), static_cast<std::streamsize>(f.bytes.size()));
        }
    }
    return 0;
}
