// Files made to hurt (issue #11, docs/security.md): deep trees, huge instance counts, output size, empty
// meshes, warnings, error messages. Every case here once crashed, leaked, blew up or misled.
#include "cli/run_cli.hpp"

#include "support/expect_error.hpp"
#include "support/import_helpers.hpp"

#include "gamefmt/config.hpp"
#include "importers/roblox_mesh/mesh_builder.hpp"
#include "importers/roblox_mesh/mesh_writer.hpp"
#include "importers/roblox_model/dom.hpp"
#include "importers/roblox_model/writer.hpp"

#include <assimp/Importer.hpp>
#include <assimp/scene.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

namespace gamefmt {
namespace {

namespace fs = std::filesystem;
using test::Contains;
using test::ScratchDir;

using test::Cli;
using CliRun = test::CliResult;

// `depth` Folders, each the child of the previous (the first is top-level, level 1).
rbx::Document FolderChain(std::size_t depth) {
    rbx::Document doc;
    std::uint32_t parent = rbx::kNoInstance;
    for (std::size_t i = 0; i < depth; ++i) {
        const std::uint32_t folder = doc.addInstance("Folder", "F" + std::to_string(i));
        doc.setParent(folder, parent);
        parent = folder;
    }
    return doc;
}

// --- depth (point 1)

TEST(Hostile, DeepRobloxChainIsAnErrorNamingTheInstanceAndDepth) {
    const fs::path dir = ScratchDir("hostile_deep_chain");
    const fs::path model = dir / "chain.rbxm";
    test::WriteBytes(model, rbx::WriteBinary(FolderChain(100000)));

    const CliRun info = Cli({"info", model.string()});
    EXPECT_EQ(info.code, cli::kExitBadInput) << info.out << info.err;
    // Level 513 is the 513th Folder, F512 (binary referents are the instance indices, so referent 512).
    EXPECT_TRUE(Contains(info.err, "Roblox model")) << info.err;
    EXPECT_TRUE(Contains(info.err, "instance 512 (Folder 'F512')")) << info.err;
    EXPECT_TRUE(Contains(info.err, "Folder 'F512'")) << info.err;
    EXPECT_TRUE(Contains(info.err, "513 levels below the root")) << info.err;
    EXPECT_TRUE(Contains(info.err, "limit of 512")) << info.err;

    // The export that used to overflow the stack inside Assimp's glTF exporter now fails cleanly.
    const CliRun exportRun = Cli({"export", model.string(), (dir / "chain.glb").string()});
    EXPECT_EQ(exportRun.code, cli::kExitBadInput) << exportRun.err;
    EXPECT_FALSE(fs::exists(dir / "chain.glb"));
}

TEST(Hostile, DepthLimitIsAPropertyAndAFlag) {
    const rbx::Document doc = FolderChain(600);
    const std::vector<std::uint8_t> bytes = rbx::WriteBinary(doc);

    const test::ImportResult refused = test::ImportMemory(bytes, "rbxm");
    EXPECT_FALSE(refused);
    EXPECT_FALSE(Contains(refused.error, "601")) << refused.error; // the first node too deep is named, not the last
    EXPECT_TRUE(Contains(refused.error, "513 levels")) << refused.error;

    const test::ImportResult raised = test::ImportMemory(bytes, "rbxm", 0, [](Assimp::Importer &importer) {
        importer.SetPropertyInteger(GAMEFMT_MAX_NODE_DEPTH, 600);
    });
    ASSERT_TRUE(raised) << raised.error;
    std::size_t levels = 0;
    for (const aiNode *node = raised.scene->mRootNode; node->mNumChildren != 0; node = node->mChildren[0]) ++levels;
    EXPECT_EQ(levels, 600u);

    const test::ImportResult lowered = test::ImportMemory(bytes, "rbxm", 0, [](Assimp::Importer &importer) {
        importer.SetPropertyInteger(GAMEFMT_MAX_NODE_DEPTH, 10);
    });
    EXPECT_FALSE(lowered);
    EXPECT_TRUE(Contains(lowered.error, "Folder 'F10'")) << lowered.error;
    EXPECT_TRUE(Contains(lowered.error, "11 levels")) << lowered.error;

    const fs::path dir = ScratchDir("hostile_depth_flag");
    test::WriteBytes(dir / "chain.rbxm", bytes);
    EXPECT_EQ(Cli({"info", (dir / "chain.rbxm").string()}).code, cli::kExitBadInput);
    const CliRun flag = Cli({"info", "--max-node-depth", "600", (dir / "chain.rbxm").string()});
    EXPECT_EQ(flag.code, cli::kExitOk) << flag.err;
}

TEST(Hostile, DeepXmlChainIsRefusedToo) {
    const std::string xml = rbx::WriteXml(FolderChain(2000));
    const test::ImportResult result =
        test::ImportMemory(std::vector<std::uint8_t>(xml.begin(), xml.end()), "rbxmx");
    EXPECT_FALSE(result);
    EXPECT_TRUE(Contains(result.error, "Folder 'F512'")) << result.error;
    EXPECT_TRUE(Contains(result.error, "513 levels")) << result.error;
}

TEST(Hostile, DeepBoneChainInARobloxMeshIsRefused) {
    // One skinned triangle on a chain of 700 bones (roblox-mesh.md: bone parents are free u16 indices).
    rbxmesh::BuildInput input;
    input.vertices.resize(3);
    input.vertices[1].px = 1;
    input.vertices[2].py = 1;
    input.lods.push_back({{0, 1, 2}});
    input.influences.assign(3, {{0, 1.0f}});
    for (int i = 0; i < 700; ++i) input.bones.push_back({"B" + std::to_string(i), i - 1, {1, 0, 0, 0, 1, 0, 0, 0, 1}, {}});
    rbxmesh::BuildOptions options;
    options.generateLods = false;
    const std::vector<std::uint8_t> bytes = rbxmesh::WriteRobloxMesh(rbxmesh::BuildRobloxMesh(input, options));

    const test::ImportResult refused = test::ImportMemory(bytes, "mesh");
    EXPECT_FALSE(refused);
    EXPECT_TRUE(Contains(refused.error, "Roblox mesh")) << refused.error;
    EXPECT_TRUE(Contains(refused.error, "513 levels below the root, deeper than the limit of 512")) << refused.error;

    const test::ImportResult raised = test::ImportMemory(bytes, "mesh", 0, [](Assimp::Importer &importer) {
        importer.SetPropertyInteger(GAMEFMT_MAX_NODE_DEPTH, 1000);
    });
    ASSERT_TRUE(raised) << raised.error;
    ASSERT_EQ(raised.scene->mNumMeshes, 1u);
    EXPECT_EQ(raised.scene->mMeshes[0]->mNumBones, 700u); // the whole skeleton is kept, weighted or not
}

// --- instance cap (point 2)

TEST(Hostile, InstanceCapRefusesBeforeAllocating) {
    rbx::Document doc;
    for (int i = 0; i < 50; ++i) doc.setParent(doc.addInstance("Part", "P" + std::to_string(i)), rbx::kNoInstance);
    const std::vector<std::uint8_t> binary = rbx::WriteBinary(doc);
    const std::string xmlText = rbx::WriteXml(doc);
    const std::vector<std::uint8_t> xml(xmlText.begin(), xmlText.end());
    const auto cap = [](Assimp::Importer &importer) { importer.SetPropertyInteger(GAMEFMT_RBX_MAX_INSTANCES, 49); };

    EXPECT_TRUE(test::ImportMemory(binary, "rbxm"));
    const test::ImportResult b = test::ImportMemory(binary, "rbxm", 0, cap);
    EXPECT_FALSE(b);
    // The header's counts are only hints; the INST chunk (the first chunk, right after the 32-byte file
    // header; LZ4-compressed, so the position inside it is given as a decompressed byte) declares them.
    EXPECT_TRUE(Contains(b.error, "INST chunk: 50 instances exceed the limit of 49")) << b.error;
    EXPECT_TRUE(Contains(b.error, "(decompressed byte 0) (at byte offset 32)")) << b.error;

    EXPECT_TRUE(test::ImportMemory(xml, "rbxmx"));
    const test::ImportResult x = test::ImportMemory(xml, "rbxmx", 0, cap);
    EXPECT_FALSE(x);
    EXPECT_TRUE(Contains(x.error, "more than 49 instances")) << x.error;

    const fs::path dir = ScratchDir("hostile_instance_cap");
    test::WriteBytes(dir / "parts.rbxm", binary);
    EXPECT_EQ(Cli({"info", "--rbx-max-instances", "49", (dir / "parts.rbxm").string()}).code, cli::kExitBadInput);
    EXPECT_EQ(Cli({"info", "--rbx-max-instances", "50", (dir / "parts.rbxm").string()}).code, cli::kExitOk);
}

// --- output size (point 3)

TEST(Hostile, XmlOutputIsLinearInDepth) {
    const std::size_t shallow = rbx::WriteXml(FolderChain(1000)).size();
    const std::size_t deep = rbx::WriteXml(FolderChain(3000)).size();
    EXPECT_LE(deep, 4 * shallow) << shallow << " bytes for 1,000 levels, " << deep << " for 3,000";
    // Shallow trees keep Studio's one-tab-per-level layout.
    const std::string two = rbx::WriteXml(FolderChain(2));
    EXPECT_TRUE(Contains(two, "\n\t\t<Item class=\"Folder\"")) << two;
}

} // namespace
} // namespace gamefmt
