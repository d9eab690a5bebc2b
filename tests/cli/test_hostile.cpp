// Files made to hurt (issue #11, docs/security.md): deep trees, huge instance counts, output size, empty
// meshes, warnings, error messages. Every case here once crashed, leaked, blew up or misled.
#include "cli/mini_json.hpp"
#include "cli/run_cli.hpp"
#include "export_formats.hpp"

#include "assimp_glue/common/import_guard.hpp"
#include "support/expect_error.hpp"
#include "support/import_helpers.hpp"
#include "support/log_capture.hpp"
#include "support/scene_build.hpp"

#include "fixtures/rbx_fixtures.hpp"
#include "fixtures/redguard_fixtures.hpp"
#include "gamefmt/config.hpp"
#include "gamefmt/gamefmt.hpp"
#include "importers/roblox_mesh/mesh_builder.hpp"
#include "importers/roblox_mesh/mesh_writer.hpp"
#include "importers/roblox_model/document/binary_writer.hpp"
#include "importers/roblox_model/document/dom.hpp"
#include "importers/roblox_model/document/reader.hpp"
#include "importers/roblox_model/document/xml_writer.hpp"
#include "support/rbx_compare.hpp"

#include <assimp/Exporter.hpp>
#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <string>
#include <vector>

namespace gamefmt {
namespace {

namespace fs = std::filesystem;
using test::Contains;
using test::ScratchDir;
namespace fx = fixtures::rg;
namespace json = test::json;

using test::Cli;
using CliRun = test::CliResult;

// `depth` Folders, each the child of the previous (the first is top-level, level 1).
rbx::Document FolderChain(std::size_t depth) {
    rbx::Document doc;
    std::uint32_t parent = rbx::kNoInstance;
    for (std::size_t i = 0; i < depth; ++i) {
        const std::uint32_t folder = doc.addInstance("Folder", "F" + std::to_string(i), parent);
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

// Issue #29 point 5: what the importer read, the rbxm exporter reads back. The chain's 1.7 MB compress into a few
// hundred bytes of rbx.source; the ceiling on inflating it is the recorded rbx.sourceSize, not a ratio.
TEST(Hostile, DeepChainImportedWithTheCapRaisedExportsToRbxmToo) {
    const fs::path dir = ScratchDir("hostile_deep_chain_rbxm");
    test::WriteBytes(dir / "chain.rbxm", rbx::WriteBinary(FolderChain(100000)));
    const CliRun run =
        Cli({"export", "--max-node-depth", "200000", (dir / "chain.rbxm").string(), (dir / "back.rbxm").string()});
    ASSERT_EQ(run.code, cli::kExitOk) << run.out << run.err;
    const std::vector<std::uint8_t> written = test::ReadBytes(dir / "back.rbxm");
    const rbx::Document back = rbx::ReadDocument(written.data(), written.size());
    ASSERT_EQ(back.instances.size(), 100000u);
    // Still one chain, in order: F0 is top-level and every Folder is the parent of the next.
    EXPECT_EQ(back.instances[0].parent, rbx::kNoInstance);
    for (std::uint32_t i = 1; i < 100000; i += 9973) {
        EXPECT_EQ(back.instances[i].name, "F" + std::to_string(i));
        EXPECT_EQ(back.instances[i].parent, i - 1);
    }
    EXPECT_EQ(back.instances[99999].name, "F99999");
    EXPECT_EQ(back.instances[99999].parent, 99998u);
}

TEST(Hostile, DepthLimitIsAPropertyAndAFlag) {
    const rbx::Document doc = FolderChain(600);
    const std::vector<std::uint8_t> bytes = rbx::WriteBinary(doc);

    const test::ImportResult refused = test::ImportMemory(bytes, "rbxm");
    EXPECT_FALSE(refused);
    EXPECT_FALSE(Contains(refused.error, "601")) << refused.error; // the first node too deep is named, not the last
    EXPECT_TRUE(Contains(refused.error, "513 levels")) << refused.error;

    const test::ImportResult raised = test::ImportMemory(
        bytes, "rbxm", 0, [](Assimp::Importer &importer) { importer.SetPropertyInteger(GAMEFMT_MAX_NODE_DEPTH, 600); });
    ASSERT_TRUE(raised) << raised.error;
    std::size_t levels = 0;
    for (const aiNode *node = raised.scene->mRootNode; node->mNumChildren != 0; node = node->mChildren[0]) ++levels;
    EXPECT_EQ(levels, 600u);

    const test::ImportResult lowered = test::ImportMemory(
        bytes, "rbxm", 0, [](Assimp::Importer &importer) { importer.SetPropertyInteger(GAMEFMT_MAX_NODE_DEPTH, 10); });
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
    const test::ImportResult result = test::ImportMemory(std::vector<std::uint8_t>(xml.begin(), xml.end()), "rbxmx");
    EXPECT_FALSE(result);
    EXPECT_TRUE(Contains(result.error, "Folder 'F512'")) << result.error;
    EXPECT_TRUE(Contains(result.error, "513 levels")) << result.error;
}

TEST(Hostile, DeepBoneChainInARobloxMeshIsRefused) {
    // One skinned triangle on a chain of 700 bones (docs/formats/roblox-mesh.md: bone parents are free u16 indices).
    rbxmesh::BuildInput input;
    input.vertices.resize(3);
    input.vertices[1].px = 1;
    input.vertices[2].py = 1;
    input.lods.push_back({{0, 1, 2}});
    input.influences.assign(3, {{0, 1.0f}});
    for (int i = 0; i < 700; ++i)
        input.bones.push_back({"B" + std::to_string(i), i - 1, {1, 0, 0, 0, 1, 0, 0, 0, 1}, {}});
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

// --- no empty meshes (point 4)

aiMesh *TriangleMesh(const char *name, unsigned faces) {
    auto *mesh = new aiMesh();
    mesh->mName = name;
    mesh->mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
    if (faces == 0) return mesh;
    mesh->mNumVertices = 3;
    mesh->mVertices = new aiVector3D[3]{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    mesh->mNumFaces = faces;
    mesh->mFaces = new aiFace[faces];
    for (unsigned f = 0; f < faces; ++f) {
        mesh->mFaces[f].mNumIndices = 3;
        mesh->mFaces[f].mIndices = new unsigned[3]{0, 1, 2};
    }
    return mesh;
}

// Every importer ends with FinishImportedScene, so an empty mesh cannot leave any of them.
TEST(Hostile, FinishImportedSceneDropsEmptyMeshesAndRemapsNodes) {
    aiScene scene;
    scene.mRootNode = new aiNode("root");
    auto *a = new aiNode("a");
    auto *b = new aiNode("b");
    test::AddChildren(scene.mRootNode, {a, b});
    test::SetMeshList(&scene, {TriangleMesh("empty0", 0), TriangleMesh("good1", 1), TriangleMesh("empty2", 0),
                               TriangleMesh("good3", 2)});
    test::SetMeshes(a, {0, 1});
    test::SetMeshes(b, {2, 3, 1});
    test::LogCapture log;
    glue::FinishImportedScene(&scene, "Test format", {});
    ASSERT_EQ(scene.mNumMeshes, 2u);
    EXPECT_STREQ(scene.mMeshes[0]->mName.C_Str(), "good1");
    EXPECT_STREQ(scene.mMeshes[1]->mName.C_Str(), "good3");
    ASSERT_EQ(a->mNumMeshes, 1u);
    EXPECT_EQ(a->mMeshes[0], 0u);
    ASSERT_EQ(b->mNumMeshes, 2u);
    EXPECT_EQ(b->mMeshes[0], 1u);
    EXPECT_EQ(b->mMeshes[1], 0u);
    EXPECT_EQ(scene.mFlags & AI_SCENE_FLAGS_INCOMPLETE, 0u);
    int warnings = 0;
    for (const std::string &line : log.lines())
        warnings += Contains(line, "Test format: mesh 'empty") && Contains(line, "0 faces and 0 vertices; dropped");
    EXPECT_EQ(warnings, 2);

    // Nothing left: no meshes at all, node lists emptied, the scene flagged incomplete.
    aiScene none;
    none.mRootNode = new aiNode("root");
    test::SetMeshList(&none, {TriangleMesh("empty", 0)});
    test::SetMeshes(none.mRootNode, {0});
    glue::FinishImportedScene(&none, "Test format", {});
    EXPECT_EQ(none.mNumMeshes, 0u);
    EXPECT_EQ(none.mRootNode->mNumMeshes, 0u);
    EXPECT_NE(none.mFlags & AI_SCENE_FLAGS_INCOMPLETE, 0u);
}

TEST(Hostile, TangledRedguardPolygonGivesNoEmptyMesh) {
    // A v5.0 model whose only face is a self-crossing 7-gon: Assimp 5.2.5's triangulation emits nothing for
    // it, so the mesh went empty in Assimp's steps (ValidateDataStructure failed; SortByPType and the glb
    // exporter leaked). The importer ear-clips it: 5 triangles.
    fx::GenModel model = fx::TangledPolygons();
    model.faces.resize(1);
    model.vertices.resize(7);
    const std::vector<std::uint8_t> bytes = fx::Generate(model);

    for (const unsigned flags : {0u, unsigned(aiProcessPreset_TargetRealtime_MaxQuality)}) {
        const test::ImportResult result = test::ImportMemory(bytes, "3d", flags);
        ASSERT_TRUE(result) << result.error;
        ASSERT_EQ(result.scene->mNumMeshes, 1u);
        EXPECT_EQ(result.scene->mMeshes[0]->mNumFaces, 5u) << flags;
    }

    // Through the CLI's default preset and glb export (LeakSanitizer checks the process at exit).
    const fs::path dir = ScratchDir("hostile_tangled_rg");
    test::WriteBytes(dir / "tangle.3d", bytes);
    const CliRun info = Cli({"info", (dir / "tangle.3d").string()});
    EXPECT_EQ(info.code, cli::kExitOk) << info.err;
    EXPECT_TRUE(Contains(info.out, "Faces:              5\n")) << info.out;
    const CliRun glb = Cli({"export", (dir / "tangle.3d").string(), (dir / "tangle.glb").string()});
    EXPECT_EQ(glb.code, cli::kExitOk) << glb.err;
}

// --- errors that help (point 6)

TEST(Hostile, NulInATextMeshNumberDoesNotCutTheMessage) {
    const std::string text = std::string("version 1.00\n1\n[1") + std::string("\0", 1) +
                             "2,0,0][0,0,1][0,0,0][1,0,0][0,0,1][1,0,0][0,1,0][0,0,1][0,1,0]";
    const test::ImportResult r = test::ImportMemory(std::vector<std::uint8_t>(text.begin(), text.end()), "mesh");
    ASSERT_FALSE(r);
    EXPECT_TRUE(Contains(r.error, "Roblox mesh: ")) << r.error;
    EXPECT_TRUE(Contains(r.error, "'1\\x002' is not a number (at byte offset 16)")) << r.error;
}

TEST(Hostile, HugeXmlVersionAttributeIsQuotedShort) {
    const std::string xml = "<roblox version=\"" + std::string(100000, '9') + "\"></roblox>";
    const test::ImportResult r = test::ImportMemory(std::vector<std::uint8_t>(xml.begin(), xml.end()), "rbxmx");
    ASSERT_FALSE(r);
    EXPECT_TRUE(Contains(r.error, "unsupported XML version '" + std::string(64, '9') + "... (100000 bytes)'"))
        << r.error.substr(0, 300);
    EXPECT_LT(r.error.size(), 300u);
    EXPECT_TRUE(Contains(r.error, "byte offset")) << r.error;
}

// --- warnings people see (point 5)

std::size_t Count(const std::string &text, const std::string &needle) {
    std::size_t n = 0;
    for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++n;
    return n;
}

// sl-rigged.llmesh cut at 70%: the medium and high LOD blocks lie beyond the end.
fs::path TruncatedSlAsset(const fs::path &dir) {
    std::vector<std::uint8_t> bytes = test::ReadBytes(test::TestDataDir() / "sl-rigged.llmesh");
    bytes.resize(bytes.size() * 7 / 10);
    test::WriteBytes(dir / "cut.llmesh", bytes);
    return dir / "cut.llmesh";
}

TEST(Hostile, LostLodsAreWarningsAndFailValidateStrict) {
    const std::string cut = TruncatedSlAsset(ScratchDir("hostile_sl_cut")).string();

    const CliRun info = Cli({"info", cut});
    EXPECT_EQ(info.code, cli::kExitOk) << info.err;
    EXPECT_TRUE(Contains(info.err, "gamefmt: '" + cut + "': 3 warnings\n")) << info.err;
    EXPECT_TRUE(Contains(info.err, "  warning: Second Life mesh: medium_lod: block at ")) << info.err;
    EXPECT_TRUE(Contains(info.err, "  warning: Second Life mesh: high_lod: block at ")) << info.err;
    EXPECT_TRUE(Contains(info.err, "high_lod is absent or has no triangles; low_lod imported instead")) << info.err;

    EXPECT_EQ(Cli({"info", "-q", cut}).err, "");

    const CliRun plain = Cli({"validate", cut});
    EXPECT_EQ(plain.code, cli::kExitOk) << plain.err;
    const CliRun strict = Cli({"validate", "--strict", cut});
    EXPECT_EQ(strict.code, cli::kExitBadInput) << strict.out << strict.err;
    EXPECT_TRUE(Contains(strict.err, "has 3 warning(s) of lost or guessed data (--strict)")) << strict.err;
    // -q hides the list but --strict still counts it.
    EXPECT_EQ(Cli({"validate", "--strict", "-q", cut}).code, cli::kExitBadInput);
    // The intact file passes --strict.
    EXPECT_EQ(Cli({"validate", "--strict", (test::TestDataDir() / "sl-rigged.llmesh").string()}).code, cli::kExitOk);
}

TEST(Hostile, WarningSummaryShowsTenAndLogShowsAll) {
    // Twelve unknown chunks: twelve "kept raw" warnings from the Roblox model reader.
    namespace rfx = fixtures::rbx;
    std::vector<std::uint8_t> bytes = rfx::Header(0, 0);
    for (int i = 0; i < 12; ++i) rfx::AppendChunk(bytes, ("ZZ" + std::to_string(10 + i)).c_str(), {1, 2, 3});
    rfx::AppendEnd(bytes);
    const fs::path dir = ScratchDir("hostile_many_warnings");
    test::WriteBytes(dir / "odd.rbxm", bytes);
    const std::string file = (dir / "odd.rbxm").string();

    const CliRun info = Cli({"info", file});
    EXPECT_EQ(info.code, cli::kExitOk) << info.err;
    EXPECT_TRUE(Contains(info.err, "': 12 warnings\n")) << info.err;
    EXPECT_EQ(Count(info.err, "  warning: Roblox model: unknown chunk 'ZZ"), 10u) << info.err;
    EXPECT_TRUE(Contains(info.err, "  ... and 2 more (-l shows the whole log, -q none)\n")) << info.err;

    const CliRun all = Cli({"info", "-l", file});
    EXPECT_EQ(Count(all.err, "Roblox model: unknown chunk 'ZZ"), 12u) << all.err;
    EXPECT_FALSE(Contains(all.err, "more (-l shows")) << all.err;

    EXPECT_EQ(Cli({"info", "--quiet", file}).err, "");
}

TEST(Hostile, MissingNamedPaletteIsAnError) {
    const fs::path dir = ScratchDir("hostile_missing_palette");
    test::WriteBytes(dir / "tri.3dc", fx::Generate(fx::Triangle14Model("v5.0")));
    const CliRun run = Cli({"info", (dir / "tri.3dc").string(), "--rg-palette", (dir / "missing.col").string()});
    EXPECT_EQ(run.code, cli::kExitBadInput) << run.err;
    EXPECT_TRUE(Contains(run.err, "Redguard 3D: palette \"" + (dir / "missing.col").string() + "\"")) << run.err;
    EXPECT_TRUE(Contains(run.err, "not found")) << run.err;
}

TEST(Hostile, ExportRefusesToOverwriteItsInput) {
    const fs::path dir = ScratchDir("hostile_overwrite");
    const fs::path mesh = test::TestDataDir() / "skinned-bar.mesh";
    fs::copy_file(mesh, dir / "a.mesh");
    const std::vector<std::uint8_t> before = test::ReadBytes(dir / "a.mesh");

    const CliRun same = Cli({"export", (dir / "a.mesh").string(), (dir / "a.mesh").string()});
    EXPECT_EQ(same.code, cli::kExitUsage) << same.err;
    EXPECT_TRUE(Contains(same.err, "is the input file")) << same.err;

    // The same file by another spelling and through a link: a symbolic link, or on Windows (where making one
    // needs a privilege, and Wine has none) a hard link.
    const CliRun dotted = Cli({"export", (dir / "a.mesh").string(), (dir / "." / "a.mesh").string()});
    EXPECT_EQ(dotted.code, cli::kExitUsage) << dotted.err;
#ifdef _WIN32
    fs::create_hard_link(dir / "a.mesh", dir / "link.mesh");
    const CliRun upper = Cli({"export", (dir / "a.mesh").string(), (dir / "A.MESH").string()});
    EXPECT_EQ(upper.code, cli::kExitUsage) << upper.err; // case-insensitive names: the same file
#else
    fs::create_symlink(dir / "a.mesh", dir / "link.mesh");
#endif
    const CliRun linked = Cli({"export", (dir / "a.mesh").string(), (dir / "link.mesh").string()});
    EXPECT_EQ(linked.code, cli::kExitUsage) << linked.err;
    EXPECT_EQ(test::ReadBytes(dir / "a.mesh"), before);

    // A different file is fine.
    EXPECT_EQ(Cli({"export", (dir / "a.mesh").string(), (dir / "b.mesh").string()}).code, cli::kExitOk);
}

TEST(Hostile, RobloxExportWithoutTheCopyStillReportsErrors) {
    // The CLI writes rbxm/rbxmx without Exporter::Export's scene copy (docs/performance.md); errors still
    // come out as one line and nothing is written, sidecars included.
    const fs::path dir = ScratchDir("hostile_direct_export");
    const CliRun run = Cli({"export", (test::TestDataDir() / "cube.obj").string(), (dir / "x.rbxm").string(),
                            "--rbx-mesh-version", "3.01"});
    EXPECT_EQ(run.code, cli::kExitBadInput);
    EXPECT_TRUE(Contains(run.err, "gamefmt: cannot export '" + (dir / "x.rbxm").string() +
                                      "': Roblox model export: option GAMEFMT_RBX_MESH_VERSION must be 2.00 to 7.00 "
                                      "or auto, not '3.01'"))
        << run.err;
    EXPECT_FALSE(fs::exists(dir / "x.rbxm"));
    EXPECT_FALSE(fs::exists(dir / "x_0.mesh"));
}

TEST(Hostile, ConvertWritesRobloxModelsWithoutTheCopyToo) {
    const fs::path dir = ScratchDir("hostile_convert_rbx");
    const rbx::Document doc = FolderChain(5);
    test::WriteBytes(dir / "chain.rbxm", rbx::WriteBinary(doc));
    const CliRun run = Cli({"convert", (dir / "chain.rbxm").string(), "-f", "rbxmx", "-o", (dir / "out").string()});
    ASSERT_EQ(run.code, cli::kExitOk) << run.out << run.err;
    const std::vector<std::uint8_t> xml = test::ReadBytes(dir / "out" / "chain.rbxmx");
    const rbx::Document back = rbx::ReadDocument(xml.data(), xml.size());
    EXPECT_EQ(rbx::CompareDocuments(doc, back), "");
}

// A model of three framed Parts: nodes with transforms, no meshes.
fs::path MeshlessPartsModel(const fs::path &dir) {
    rbx::Document doc;
    const auto model = doc.addInstance("Model", "M", rbx::kNoInstance);
    for (int i = 0; i < 3; ++i) {
        const auto part = doc.addInstance("Part", "P" + std::to_string(i), model);
        rbx::Property cf;
        cf.name = doc.names.intern("CFrame");
        cf.value.type = rbx::Type::CFrame;
        rbx::CFrame frame;
        frame.position = {static_cast<float>(i), 2.0f * static_cast<float>(i), -1.0f};
        cf.value.data = frame;
        doc.instances[part].properties.push_back(cf);
    }
    test::WriteBytes(dir / "m.rbxm", rbx::WriteBinary(doc));
    return dir / "m.rbxm";
}

std::vector<std::uint8_t> BlobBytes(const aiExportDataBlob *blob) {
    const auto *data = static_cast<const std::uint8_t *>(blob->data);
    return std::vector<std::uint8_t>(data, data + blob->size);
}

TEST(Hostile, GlbOfANodeOnlySceneIsStreamedByOurWriter) {
    // glb/gltf of a model with framed Parts (nodes, no meshes) go to gamefmt's streamed node writer: no scene
    // copy, no per-node DOM (Assimp's exporter took ~2 KB per node), no empty buffer (validator EMPTY_ENTITY).
    const fs::path dir = ScratchDir("hostile_glb_direct");
    MeshlessPartsModel(dir);
    const CliRun glb = Cli({"export", "--rbx-no-geometry", (dir / "m.rbxm").string(), (dir / "m.glb").string()});
    ASSERT_EQ(glb.code, cli::kExitOk) << glb.err;
    const CliRun gltf = Cli({"export", "--rbx-no-geometry", (dir / "m.rbxm").string(), (dir / "m.gltf").string()});
    ASSERT_EQ(gltf.code, cli::kExitOk) << gltf.err;
    EXPECT_FALSE(fs::exists(dir / "m.bin"));
    const std::vector<std::uint8_t> bytes = test::ReadBytes(dir / "m.glb");
    const std::vector<std::uint8_t> text = test::ReadBytes(dir / "m.gltf");
    ASSERT_GE(bytes.size(), 20u + text.size());
    EXPECT_EQ(std::string(bytes.begin(), bytes.begin() + 4), "glTF");
    EXPECT_EQ(std::string(bytes.begin() + 16, bytes.begin() + 20), "JSON");
    EXPECT_EQ(std::vector<std::uint8_t>(bytes.begin() + 20, bytes.begin() + 20 + std::ptrdiff_t(text.size())), text);

    json::Parser parser(std::string(text.begin(), text.end()));
    const std::optional<json::Value> doc = parser.parse();
    ASSERT_TRUE(doc) << parser.error();
    EXPECT_EQ(doc->get("buffers"), nullptr);
    const json::Value *nodes = doc->get("nodes");
    ASSERT_NE(nodes, nullptr);
    ASSERT_EQ(nodes->items.size(), 5u); // DataModel, M, P0-P2
    EXPECT_EQ(nodes->items[1].get("name")->text, "M");
    ASSERT_NE(nodes->items[3].get("matrix"), nullptr);
    const std::vector<json::Value> &m = nodes->items[3].get("matrix")->items;
    ASSERT_EQ(m.size(), 16u);
    // P1's CFrame position (1, 2, -1) studs: Roblox and glTF are both Y-up, right-handed, so it is the
    // translation, in metres (UnitScaleFactor 28 cm per stud).
    EXPECT_NEAR(m[12].number, 0.28, 1e-7);
    EXPECT_NEAR(m[13].number, 0.56, 1e-7);
    EXPECT_NEAR(m[14].number, -0.28, 1e-7);

    // Scenes with meshes still go through Exporter::Export.
    const std::unique_ptr<Assimp::Exporter> exporter = MakeExporter();
    const test::ImportResult cube = test::ImportFile(test::TestDataDir() / "cube.obj");
    ASSERT_TRUE(cube) << cube.error;
    std::string error;
    EXPECT_FALSE(cli::ExportWithoutCopy(*exporter, *cube.scene, "glb2", (dir / "c.glb").string(), {}, error));
    // ... and so do scenes with polygons for gamefmt's writer (the copy triangulates them).
    EXPECT_FALSE(cli::ExportWithoutCopy(*exporter, *cube.scene, "gamefmt-glb", (dir / "c.glb").string(), {}, error));
    EXPECT_FALSE(fs::exists(dir / "c.glb"));
}

TEST(Hostile, OtherMeshlessExportsSkipTheCopyWhereItChangesNothing) {
    // Exporters whose enforced steps only touch meshes are called directly for a mesh-less scene; the bytes
    // equal Exporter::Export's (formats without a timestamp or file name inside). X (left-handed axes) and
    // PLY/STL (PreTransformVertices) change nodes: they keep the copy.
    const fs::path dir = ScratchDir("hostile_direct_other");
    MeshlessPartsModel(dir);
    const test::ImportResult imported = test::ImportFile(
        dir / "m.rbxm", 0, [](Assimp::Importer &importer) { importer.SetPropertyBool(GAMEFMT_RBX_GEOMETRY, false); });
    ASSERT_TRUE(imported) << imported.error;
    ASSERT_EQ(imported.scene->mNumMeshes, 0u);
    const std::unique_ptr<Assimp::Exporter> exporter = MakeExporter();
    for (const std::string id : {"3ds", "x3d", "assjson"}) {
        const fs::path out = dir / ("direct." + id);
        std::string error = "unset";
        ASSERT_TRUE(cli::ExportWithoutCopy(*exporter, *imported.scene, id, out.string(), {}, error)) << id;
        EXPECT_EQ(error, "") << id;
        const aiExportDataBlob *blob = exporter->ExportToBlob(imported.scene, id.c_str());
        ASSERT_NE(blob, nullptr) << id << ": " << exporter->GetErrorString();
#ifdef _WIN32
        // Assimp opens its text exporters' files in text mode ("wt"): on Windows every '\n' is written "\r\n".
        std::vector<std::uint8_t> written = test::ReadBytes(out);
        if (id != "3ds") // the text formats
            written.erase(std::remove(written.begin(), written.end(), std::uint8_t{'\r'}), written.end());
        EXPECT_EQ(written, BlobBytes(blob)) << id;
#else
        EXPECT_EQ(test::ReadBytes(out), BlobBytes(blob)) << id;
#endif
    }
    for (const std::string id : {"x", "ply", "stl"}) {
        std::string error;
        EXPECT_FALSE(cli::ExportWithoutCopy(*exporter, *imported.scene, id, (dir / ("copy." + id)).string(), {}, error))
            << id;
    }
}

} // namespace
} // namespace gamefmt
