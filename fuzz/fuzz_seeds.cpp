// Writes the seed corpus of every fuzz target into OUTDIR/<target>/ from the fixture generators.
//   gamefmt_fuzz_seeds OUTDIR
#include "fixtures/fixtures.hpp"
#include "fixtures/roblox_mesh_fixtures.hpp"
#include "importers/roblox_mesh/mesh_builder.hpp"
#include "importers/roblox_mesh/mesh_writer.hpp"
#include "fixtures/rbx_fixtures.hpp"
#include "fixtures/redguard_fixtures.hpp"
#include "fixtures/sl_fixtures.hpp"
#include "importers/roblox_model/dom.hpp"
#include "importers/roblox_model/reader.hpp"
#include "importers/roblox_model/writer.hpp"

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

// A small model as the writers make it: a Model with two Parts (CFrame, size, Color3uint8, Anchored,
// Material, Transparency) and a Ref between them.
gamefmt::rbx::Document SmallRobloxDocument() {
    namespace rbx = gamefmt::rbx;
    rbx::Document doc;
    doc.meta.emplace_back("ExplicitAutoJoints", "true");
    const auto model = doc.addInstance("Model", "Model");
    doc.setParent(model, rbx::kNoInstance);
    for (int i = 0; i < 2; ++i) {
        const auto part = doc.addInstance("Part", i == 0 ? "Base" : "Top");
        doc.setParent(part, model);
        auto add = [&](const char *name, rbx::Type type, rbx::ValueData data) {
            rbx::Property p;
            p.name = doc.names.intern(name);
            p.value.type = type;
            p.value.data = std::move(data);
            doc.instances[part].properties.push_back(std::move(p));
        };
        rbx::CFrame cf;
        cf.position = {0, 2.0f * static_cast<float>(i), 0};
        if (i == 1) cf.rotation = {0, 0, 1, 0, 1, 0, -1, 0, 0};
        add("CFrame", rbx::Type::CFrame, cf);
        add("size", rbx::Type::Vector3, rbx::Vector3{4, 1, 2});
        add("Color3uint8", rbx::Type::Color3uint8, rbx::Color3uint8{163, 162, 165});
        add("Anchored", rbx::Type::Bool, true);
        add("Material", rbx::Type::Enum, rbx::EnumValue{256});
        add("Transparency", rbx::Type::Float32, 0.25f);
    }
    rbx::Property ref;
    ref.name = doc.names.intern("PrimaryPart");
    ref.value.type = rbx::Type::Ref;
    ref.value.data = rbx::RefValue{1};
    doc.instances[model].properties.push_back(ref);
    return doc;
}

// Binary seeds: the hand-built fixtures (every type, each chunk compression, odd PRNT tables, unknown chunks
// and types) and a small document written by WriteBinary. XML seeds: the same documents through WriteXml.
void RobloxModelSeeds(std::vector<gamefmt::fixtures::Fixture> &binary, std::vector<gamefmt::fixtures::Fixture> &xml) {
    namespace fx = gamefmt::fixtures::rbx;
    namespace rbx = gamefmt::rbx;
    binary = {{"all_types_raw.rbxm", fx::AllTypes(fx::ChunkMode::Raw)},
              {"all_types_lz4.rbxm", fx::AllTypes(fx::ChunkMode::Lz4)},
              {"all_types_zstd.rbxm", fx::AllTypes(fx::ChunkMode::Zstd)},
              {"three_folders.rbxm", fx::ThreeFolders()},
              {"unknown_chunk.rbxm", fx::UnknownChunk()},
              {"unknown_type.rbxm", fx::UnknownTypeId()},
              {"prnt_out_of_order.rbxm", fx::PrntOutOfOrder()},
              {"orphan_and_cycle.rbxm", fx::OrphanAndCycle()},
              {"tags_sharedstring.rbxm", fx::TagsAsSharedString()}};
    const rbx::Document small = SmallRobloxDocument();
    binary.push_back({"small_written.rbxm", rbx::WriteBinary(small)});
    const std::string smallXml = rbx::WriteXml(small);
    xml.push_back({"small_written.rbxmx", gamefmt::fixtures::Bytes(smallXml.begin(), smallXml.end())});
    try {
        const auto bytes = fx::AllTypes();
        const std::string text = rbx::WriteXml(rbx::ReadBinary(bytes.data(), bytes.size()));
        xml.push_back({"all_types.rbxmx", gamefmt::fixtures::Bytes(text.begin(), text.end())});
    } catch (const std::exception &e) {
        std::cerr << "gamefmt_fuzz_seeds: all_types.rbxmx skipped: " << e.what() << '\n';
    }
    xml.push_back({"empty.rbxmx", gamefmt::fixtures::Bytes{'<', 'r', 'o', 'b', 'l', 'o', 'x', '>', '<', '/', 'r', 'o',
                                                           'b', 'l', 'o', 'x', '>'}});
}

} // namespace

int main(int argc, char **argv) {
    if (argc != 2) {
        std::cerr << "usage: gamefmt_fuzz_seeds OUTDIR\n";
        return 2;
    }
    namespace fx = gamefmt::fixtures;
    std::vector<fx::Fixture> rbxBinary, rbxXml;
    RobloxModelSeeds(rbxBinary, rbxXml);
    const std::map<std::string, std::vector<fx::Fixture>> seeds = {
        {"roblox_mesh", RobloxMeshSeeds()},
        {"roblox_model", rbxBinary},
        {"roblox_model_xml", rbxXml},
        {"sl_mesh",
         {{"triangle_stored.llmesh", fx::SlTriangleAssetStored()},
          {"triangle_level9.llmesh", fx::SlTriangleAssetLevel9()},
          {"rigged.llmesh", fx::SlRiggedAsset()},
          {"model.slm", fx::SlSlmContainer()}}},
        {"sl_llsd",
         {{"triangle_lod.llsd", fx::SlTriangleLodLlsd()},
          {"header.llsd", fx::SlHeaderHighLodOnly(170)}}},
        {"redguard",
         {{"header_only.3d", fx::RedguardHeaderOnly()},
          {"triangle_v40.3d", fx::rg::Triangle198V40()},
          {"triangle_v50.3d", fx::rg::Triangle246V50()},
          {"triangle_v27.3d", fx::rg::TriangleV27()},
          {"polygons.3d", fx::rg::Generate(fx::rg::PolygonZoo())},
          {"animated_type2.3dc", fx::rg::Generate(fx::rg::AnimatedType2())},
          {"multiframe_type0.3dc", fx::rg::Generate(fx::rg::MultiFrameType0())}}},
        {"redguard_rob",
         {{"triangle.rob", fx::rg::TriangleRob()},
          {"mixed.rob", fx::rg::GenerateRob({{"TRI", 0, fx::rg::Triangle198V40()},
                                              {"ANIM", 256, fx::rg::Generate(fx::rg::AnimatedType2())},
                                              {"EXTERNAL", 512, {}}})}}},
        {"rg_texbsi",
         {{"bank.texbsi", fx::rg::GenerateTexBsi({{"D76019", 8, 8, 1, {}, false},
                                                  {"D76020", 4, 2, 3, {}, true}})},
          {"palette.col", fx::rg::GeneratePalette()}}},
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
