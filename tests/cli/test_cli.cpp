// Tests of the gamefmt command line, run in-process through RunCli (plus a few through the built executable).
#include "cli.hpp"
#include "json_writer.hpp"
#include "log.hpp"
#include "options.hpp"

#include "cli/mini_json.hpp"
#include "cli/run_cli.hpp"
#include "common/utf8_path.hpp"
#include "fixtures/rbx_place_fixtures.hpp"
#include "support/import_helpers.hpp"

#include "gamefmt/gamefmt.hpp"

#include <assimp/Exporter.hpp>
#include <assimp/Importer.hpp>
#include <assimp/importerdesc.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <assimp/version.h>

#include <gtest/gtest.h>
#include <png.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <filesystem>
#include <future>
#include <limits>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#if defined(GAMEFMT_HAVE_CLI)
#ifndef _WIN32
#include <sys/wait.h>
#endif
#endif

namespace {

namespace fs = std::filesystem;
using namespace gamefmt::test;

std::string Cube() {
    return (TestDataDir() / "cube.obj").string();
}

// The value after `label` on the line that starts with it ("Vertices:           8" -> "8").
std::string Field(const std::string &text, const std::string &label) {
    std::istringstream lines(text);
    std::string line;
    while (std::getline(lines, line)) {
        if (line.rfind(label, 0) != 0) continue;
        std::string value = line.substr(label.size());
        value.erase(0, value.find_first_not_of(' '));
        return value;
    }
    return "<no line '" + label + "'>";
}

// Every `label` → value pair against Field() of `text`.
void ExpectFields(const std::string &text, const std::vector<std::pair<std::string, std::string>> &expected) {
    for (const auto &[label, value] : expected) EXPECT_EQ(Field(text, label), value) << label;
}

// The first four bytes of a file ("glTF" for glb).
std::string Magic(const fs::path &path) {
    const std::vector<std::uint8_t> bytes = ReadBytes(path);
    return std::string(bytes.begin(),
                       bytes.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(4, bytes.size())));
}

std::vector<std::string> Lines(const std::string &text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    return lines;
}

std::string LastLine(const std::string &text) {
    const std::vector<std::string> lines = Lines(text);
    return lines.empty() ? std::string() : lines.back();
}

// A one-line error that names `file`.
void ExpectOneLineErrorNaming(const std::string &err, const std::string &file) {
    EXPECT_EQ(std::count(err.begin(), err.end(), '\n'), 1) << err;
    EXPECT_NE(err.find("'" + file + "'"), std::string::npos) << err;
}

// A Roblox mesh signature with a truncated header behind it: gamefmt's importer rejects it.
fs::path WriteBrokenMesh(const fs::path &dir) {
    const fs::path path = dir / "broken.mesh";
    WriteText(path, "version 2.00\n\x01\x02");
    return path;
}

// What the Roblox mesh reader says about WriteBrokenMesh's file: the 12-byte 2.00 header is cut short
// at byte 13, right after the version line.
constexpr const char *kBrokenMeshError = "Roblox mesh: ";

// A Redguard model signature followed by a header cut short at 8 of its 64 bytes.
fs::path WriteTruncatedRedguard(const fs::path &dir) {
    const fs::path path = dir / "truncated.3d";
    WriteText(path, std::string("v5.0\x03\x00\x00\x00", 8));
    return path;
}

// ---------------------------------------------------------------- dispatch, help, version

// convert imports on several threads into one collector: each thread takes its own lines, whole, whatever
// other threads logged around them (a self-move once emptied the other threads' lines).
TEST(CliLog, CollectorGivesEachThreadItsOwnLinesWhole) {
    gamefmt::cli::LogCollector collector;
    std::promise<void> added, taken;
    std::vector<std::string> worker;
    std::thread other([&] {
        collector.add("Warn:  the other thread"); // first in the collector
        added.set_value();
        taken.get_future().wait(); // the main thread takes its line past this one
        worker = collector.take();
    });
    added.get_future().wait();
    collector.add("Warn:  the main thread");
    const std::vector<std::string> mine = collector.take();
    taken.set_value();
    other.join();
    EXPECT_EQ(mine, std::vector<std::string>{"the main thread"});
    EXPECT_EQ(worker, std::vector<std::string>{"the other thread"});
}

TEST(Cli, NoArgumentsPrintsUsageToStderrAndFails) {
    const CliResult run = Cli({});
    EXPECT_EQ(run.code, gamefmt::cli::kExitUsage);
    EXPECT_TRUE(run.out.empty());
    EXPECT_NE(run.err.find("Usage: gamefmt VERB"), std::string::npos) << run.err;
}

TEST(Cli, HelpListsEveryVerb) {
    for (const char *spelling : {"help", "--help", "-h"}) {
        const CliResult run = Cli({spelling});
        EXPECT_EQ(run.code, gamefmt::cli::kExitOk) << spelling;
        EXPECT_TRUE(run.err.empty()) << run.err;
        for (const char *verb : {"info", "export", "convert", "validate", "extract", "listext", "knowext", "listexport",
                                 "exportinfo", "version", "help"})
            EXPECT_NE(run.out.find(std::string("  ") + verb), std::string::npos) << verb << " missing from help";
    }
}

TEST(Cli, HelpForOneVerbListsItsFlags) {
    const CliResult info = Cli({"help", "info"});
    EXPECT_EQ(info.code, gamefmt::cli::kExitOk);
    for (const char *flag : {"--json", "--raw", "-ptv", "--pretransform-vertices", "-embtex", "--config=fast",
                             "--option NAME=VALUE", "--show-log"})
        EXPECT_NE(info.out.find(flag), std::string::npos) << flag;
    // "VERB --help" is the same text.
    EXPECT_EQ(Cli({"info", "--help"}).out, info.out);
    // Verbs without shared flags do not list them.
    EXPECT_EQ(Cli({"help", "listext"}).out.find("-ptv"), std::string::npos);
    EXPECT_EQ(Cli({"help", "frobnicate"}).code, gamefmt::cli::kExitUsage);
}

TEST(Cli, UnknownVerbIsAUsageError) {
    const CliResult run = Cli({"frobnicate", "x"});
    EXPECT_EQ(run.code, gamefmt::cli::kExitUsage);
    EXPECT_NE(run.err.find("'frobnicate'"), std::string::npos) << run.err;
    EXPECT_EQ(std::count(run.err.begin(), run.err.end(), '\n'), 1);
}

TEST(Cli, VersionReportsTheLinkedAssimp) {
    for (const char *spelling : {"version", "--version"}) {
        const CliResult run = Cli({spelling});
        ASSERT_EQ(run.code, gamefmt::cli::kExitOk);
        EXPECT_EQ(Lines(run.out).at(0), std::string("gamefmt ") + gamefmt::Version());
        const std::string assimp = "Assimp " + std::to_string(aiGetVersionMajor()) + "." +
                                   std::to_string(aiGetVersionMinor()) + "." + std::to_string(aiGetVersionPatch());
        EXPECT_NE(run.out.find(assimp), std::string::npos) << run.out;
        if (aiGetCompileFlags() & ASSIMP_CFLAGS_DEBUG) {
            EXPECT_NE(run.out.find(" -debug"), std::string::npos);
        }
        if (aiGetCompileFlags() & ASSIMP_CFLAGS_SHARED) {
            EXPECT_NE(run.out.find(" -shared"), std::string::npos);
        }
        if (aiGetCompileFlags() & ASSIMP_CFLAGS_SINGLETHREADED) {
            EXPECT_NE(run.out.find(" -st"), std::string::npos);
        }
    }
    EXPECT_EQ(Cli({"version", "extra"}).code, gamefmt::cli::kExitUsage);
}

// ---------------------------------------------------------------- info

TEST(Cli, InfoRawCubeHasTheObjPolygons) {
    const CliResult run = Cli({"info", Cube(), "-r"});
    ASSERT_EQ(run.code, gamefmt::cli::kExitOk) << run.err;
    // OBJ import gives one vertex per face corner: 6 quads -> 24 vertices, 6 polygon faces.
    // Two nodes: the root (named after the file) and the "Cube" object; one material: Assimp's default (no .mtl).
    ExpectFields(run.out, {{"Meshes:", "1"},
                           {"Vertices:", "24"},
                           {"Faces:", "6"},
                           {"Primitive Types:", "polygons"},
                           {"Nodes:", "2"},
                           {"Maximum depth", "2"},
                           {"Materials:", "1"},
                           {"Post-processing:", "none (raw)"},
                           {"Importer:", "Wavefront Object Importer"}});
}

// The terrain flags reach the importer whether the number is written as an integer or not ("0" arrives as an
// integer property, "0.05" as a float one): full resolution has the most faces, a finer bound more than the default;
// one thread gives the default's faces; a bound out of range is refused with the option's name.
TEST(Cli, TerrainErrorAndThreadsFlags) {
    const std::string place = (TestDataDir() / "terrain-place.rbxl").string();
    const auto faces = [&](std::vector<std::string> args) {
        args.insert(args.begin(), {"info", place, "-r"});
        const CliResult run = Cli(args);
        EXPECT_EQ(run.code, gamefmt::cli::kExitOk) << run.err;
        return std::stoul(Field(run.out, "Faces:"));
    };
    const unsigned long simplified = faces({}), full = faces({"--rbx-terrain-error", "0"}),
                        finer = faces({"--rbx-terrain-error", "0.05"}), single = faces({"--rbx-terrain-threads", "1"});
    EXPECT_GT(full, finer);
    EXPECT_GT(finer, simplified);
    EXPECT_EQ(single, simplified);
    const CliResult bad = Cli({"info", place, "--rbx-terrain-error", "65"});
    EXPECT_NE(bad.code, gamefmt::cli::kExitOk);
    EXPECT_NE(bad.err.find("GAMEFMT_RBX_TERRAIN_ERROR is 65"), std::string::npos) << bad.err;
}

// "--rg-scale 2" arrives as an integer property and "--rg-scale 2.0" as a float one: both scale (the integer was
// ignored until issue #28's NumberProperty).
TEST(Cli, RedguardScaleWrittenAsAnInteger) {
    const std::string model = (TestDataDir() / "rg-animated.3dc").string();
    const auto top = [&](const char *scale) {
        const CliResult run = Cli({"info", model, "-r", "--rg-scale", scale});
        EXPECT_EQ(run.code, gamefmt::cli::kExitOk) << run.err;
        return Field(run.out, "Maximum point");
    };
    EXPECT_EQ(top("1"), "(1.000000 2.000000 1.000000)");
    EXPECT_EQ(top("2"), "(2.000000 4.000000 2.000000)");
    EXPECT_EQ(top("2.0"), "(2.000000 4.000000 2.000000)");
}

TEST(Cli, InfoDefaultsToTheMaxQualityPreset) {
    const CliResult run = Cli({"info", Cube()});
    ASSERT_EQ(run.code, gamefmt::cli::kExitOk) << run.err;
    // Triangulate: 6 quads -> 12 triangles. GenSmoothNormals averages the three face normals at each corner
    // (90 degrees apart, under the 175 degree limit), so JoinIdenticalVertices merges 24 -> 8 vertices.
    ExpectFields(run.out, {{"Meshes:", "1"},
                           {"Vertices:", "8"},
                           {"Faces:", "12"},
                           {"Primitive Types:", "triangles"},
                           {"Average faces/mesh", "12"},
                           {"Minimum point", "(0.000000 0.000000 0.000000)"},
                           {"Maximum point", "(1.000000 1.000000 1.000000)"},
                           {"Center point", "(0.500000 0.500000 0.500000)"},
                           {"Post-processing:", "preset TargetRealtime_MaxQuality"}});
    EXPECT_NE(Field(run.out, "Memory consumption:").find(" B"), std::string::npos);
    // The lists: material names, meshes, node tree.
    EXPECT_NE(run.out.find("'DefaultMaterial'"), std::string::npos);
    EXPECT_NE(run.out.find("0 'Cube': 8 vertices, 12 faces, material 0"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("\nNode hierarchy:\ncube.obj\n  Cube (mesh 0)\n"), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("SourceAsset_Format: \"Wavefront Object Importer\" (string)"), std::string::npos);
}

TEST(Cli, InfoExplicitStepsReplaceThePreset) {
    const CliResult run = Cli({"info", Cube(), "-tri"});
    ASSERT_EQ(run.code, gamefmt::cli::kExitOk) << run.err;
    EXPECT_EQ(Field(run.out, "Vertices:"), "24"); // not joined
    EXPECT_EQ(Field(run.out, "Faces:"), "12");
    EXPECT_EQ(Field(run.out, "Post-processing:"), "triangulate");
}

TEST(Cli, InfoSilentStopsAfterTheStatistics) {
    const CliResult run = Cli({"info", Cube(), "-s"});
    ASSERT_EQ(run.code, gamefmt::cli::kExitOk);
    EXPECT_EQ(Field(run.out, "Faces:"), "12");
    EXPECT_EQ(run.out.find("Node hierarchy"), std::string::npos);
}

TEST(Cli, InfoJsonIsOneValidObject) {
    const CliResult run = Cli({"info", Cube(), "--json"});
    ASSERT_EQ(run.code, gamefmt::cli::kExitOk) << run.err;
    gamefmt::test::json::Parser parser(run.out);
    const auto doc = parser.parse();
    ASSERT_TRUE(doc.has_value()) << parser.error() << "\n" << run.out;
    using Type = gamefmt::test::json::Value::Type;
    ASSERT_EQ(doc->type, Type::Object);
    ASSERT_NE(doc->get("file"), nullptr);
    EXPECT_EQ(doc->get("file")->text, Cube());
    EXPECT_EQ(doc->get("format")->text, "Wavefront Object Importer");
    EXPECT_EQ(doc->get("formatVersion")->type, Type::Null);
    EXPECT_FALSE(doc->get("incomplete")->boolean);
    EXPECT_GT(doc->get("memoryBytes")->number, 0.0);
    const auto *counts = doc->get("counts");
    ASSERT_NE(counts, nullptr);
    EXPECT_EQ(counts->get("meshes")->number, 1.0);
    EXPECT_EQ(counts->get("vertices")->number, 8.0);
    EXPECT_EQ(counts->get("faces")->number, 12.0);
    EXPECT_EQ(counts->get("nodes")->number, 2.0);
    const auto *bounds = doc->get("bounds");
    ASSERT_NE(bounds, nullptr);
    ASSERT_EQ(bounds->get("max")->items.size(), 3u);
    EXPECT_EQ(bounds->get("max")->items[0].number, 1.0);
    EXPECT_EQ(bounds->get("center")->items[2].number, 0.5);
    const auto *meshes = doc->get("meshes");
    ASSERT_NE(meshes, nullptr);
    ASSERT_EQ(meshes->items.size(), 1u);
    EXPECT_EQ(meshes->items[0].get("name")->text, "Cube");
    EXPECT_EQ(meshes->items[0].get("faces")->number, 12.0);
    EXPECT_EQ(meshes->items[0].get("materialName")->text, "DefaultMaterial");
    const auto *nodes = doc->get("nodes");
    ASSERT_NE(nodes, nullptr);
    ASSERT_EQ(nodes->items.size(), 2u);
    EXPECT_EQ(nodes->items[0].get("parent")->type, Type::Null);
    EXPECT_EQ(nodes->items[1].get("name")->text, "Cube");
    EXPECT_EQ(nodes->items[1].get("parent")->number, 0.0);
    EXPECT_EQ(nodes->items[1].get("meshes")->items.at(0).number, 0.0);
    EXPECT_EQ(doc->get("metadata")->get("SourceAsset_Format")->get("type")->text, "string");

    // Raw and verbose: still valid JSON, with the raw counts and node transforms.
    const CliResult raw = Cli({"info", Cube(), "--json", "-r", "-v"});
    ASSERT_EQ(raw.code, gamefmt::cli::kExitOk);
    gamefmt::test::json::Parser rawParser(raw.out);
    const auto rawDoc = rawParser.parse();
    ASSERT_TRUE(rawDoc.has_value()) << rawParser.error();
    EXPECT_EQ(rawDoc->get("counts")->get("vertices")->number, 24.0);
    EXPECT_EQ(rawDoc->get("counts")->get("faces")->number, 6.0);
    EXPECT_EQ(rawDoc->get("nodes")->items.at(1).get("transform")->items.size(), 16u);
}

TEST(Cli, InfoOnAMissingFileNamesIt) {
    const std::string missing = (ScratchDir("cli_info_missing") / "nowhere.obj").string();
    const CliResult run = Cli({"info", missing});
    EXPECT_EQ(run.code, gamefmt::cli::kExitBadInput);
    ExpectOneLineErrorNaming(run.err, missing);
    EXPECT_EQ(run.err.rfind("gamefmt: cannot import '", 0), 0u) << run.err;
}

TEST(Cli, InfoOnATruncatedRedguardModelReportsTheReadersError) {
    const std::string model = WriteTruncatedRedguard(ScratchDir("cli_info_truncated_rg")).string();
    const CliResult run = Cli({"info", model});
    EXPECT_EQ(run.code, gamefmt::cli::kExitBadInput);
    ExpectOneLineErrorNaming(run.err, model);
    // The Redguard reader, not Unreal's (which also claims .3d), says what is wrong and where.
    EXPECT_NE(run.err.find("Redguard 3D: "), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("shorter than the 64-byte header"), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("(at byte offset 0)"), std::string::npos) << run.err;
    EXPECT_EQ(run.err.find("not implemented"), std::string::npos) << run.err;
}

TEST(Cli, InfoOnACorruptMeshReportsTheReadersError) {
    const std::string mesh = WriteBrokenMesh(ScratchDir("cli_info_corrupt")).string();
    const CliResult run = Cli({"info", mesh});
    EXPECT_EQ(run.code, gamefmt::cli::kExitBadInput);
    ExpectOneLineErrorNaming(run.err, mesh);
    EXPECT_NE(run.err.find(kBrokenMeshError), std::string::npos) << run.err;
    EXPECT_NE(run.err.find("(at byte offset "), std::string::npos) << run.err;
}

TEST(Cli, InfoUsageErrors) {
    EXPECT_EQ(Cli({"info"}).code, gamefmt::cli::kExitUsage);
    EXPECT_EQ(Cli({"info", Cube(), Cube()}).code, gamefmt::cli::kExitUsage);
    EXPECT_EQ(Cli({"info", Cube(), "--bogus"}).code, gamefmt::cli::kExitUsage);
    EXPECT_EQ(Cli({"info", Cube(), "-r", "-tri"}).code, gamefmt::cli::kExitUsage);
    EXPECT_EQ(Cli({"info", Cube(), "-v", "-s"}).code, gamefmt::cli::kExitUsage);
    EXPECT_EQ(Cli({"info", Cube(), "-cslow"}).code, gamefmt::cli::kExitUsage);
    EXPECT_EQ(Cli({"info", Cube(), "--option"}).code, gamefmt::cli::kExitUsage);
    EXPECT_EQ(Cli({"info", Cube(), "--option", "NOVALUE"}).code, gamefmt::cli::kExitUsage);
    const CliResult run = Cli({"info", Cube(), "--bogus"});
    EXPECT_NE(run.err.find("'--bogus'"), std::string::npos) << run.err;
}

TEST(Cli, InfoAcceptsPropertiesAndPresets) {
    const CliResult run =
        Cli({"info", Cube(), "-s", "-cfast", "--option", "GAMEFMT_TEST_INT=3", "--option=GAMEFMT_TEST_S=x", "--option",
             "GAMEFMT_TEST_F=0.5", "--option", "GAMEFMT_TEST_B=true"});
    EXPECT_EQ(run.code, gamefmt::cli::kExitOk) << run.err;
    EXPECT_EQ(Field(run.out, "Post-processing:"), "preset TargetRealtime_Fast");
}

TEST(Cli, ShowLogSendsAssimpsLogToStderr) {
    const CliResult run = Cli({"info", Cube(), "-s", "-l"});
    ASSERT_EQ(run.code, gamefmt::cli::kExitOk);
    EXPECT_NE(run.err.find("Wavefront Object Importer"), std::string::npos) << run.err;
    // Without -l nothing is logged to our stderr.
    EXPECT_TRUE(Cli({"info", Cube(), "-s"}).err.empty());
}

// ---------------------------------------------------------------- export

TEST(Cli, ExportToGlbChoosesOurWriterAndReimports) {
    const fs::path dir = ScratchDir("cli_export_glb");
    const std::string out = (dir / "cube.glb").string();
    const CliResult run = Cli({"export", Cube(), out});
    ASSERT_EQ(run.code, gamefmt::cli::kExitOk) << run.err;
    EXPECT_NE(run.out.find("Wrote " + out + " (gamefmt-glb, "), std::string::npos) << run.out;
    const std::vector<std::uint8_t> bytes = ReadBytes(out);
    ASSERT_GE(bytes.size(), 12u);
    EXPECT_EQ(std::string(bytes.begin(), bytes.begin() + 4), "glTF");
    EXPECT_EQ(bytes[4] | bytes[5] << 8 | bytes[6] << 16 | bytes[7] << 24, 2); // container version 2
    EXPECT_NE(run.out.find(std::to_string(bytes.size()) + " bytes"), std::string::npos);

    // Our writer triangulates the quads and welds the OBJ's 24 face corners: the 8 corners (no normals or UVs
    // to tell the corner copies apart) and 12 triangles.
    const auto reimported = gamefmt::test::ImportFile(out);
    ASSERT_TRUE(reimported) << reimported.error;
    ASSERT_EQ(reimported.scene->mNumMeshes, 1u);
    EXPECT_EQ(reimported.scene->mMeshes[0]->mNumVertices, 8u);
    EXPECT_EQ(reimported.scene->mMeshes[0]->mNumFaces, 12u);
    EXPECT_TRUE(reimported.validationWarnings.empty());

    // Assimp's own writer stays reachable by its id.
    const std::string theirs = (dir / "cube-assimp.glb").string();
    const CliResult assimp = Cli({"export", Cube(), theirs, "-f", "glb2"});
    ASSERT_EQ(assimp.code, gamefmt::cli::kExitOk) << assimp.err;
    EXPECT_NE(assimp.out.find("Wrote " + theirs + " (glb2, "), std::string::npos) << assimp.out;
    EXPECT_NE(ReadBytes(theirs), ReadBytes(out));
}

TEST(Cli, ExportToObj) {
    const fs::path dir = ScratchDir("cli_export_obj");
    const std::string out = (dir / "copy.obj").string();
    const CliResult run = Cli({"export", Cube(), out});
    ASSERT_EQ(run.code, gamefmt::cli::kExitOk) << run.err;
    EXPECT_NE(run.out.find("(obj, "), std::string::npos) << run.out;
    EXPECT_TRUE(fs::exists(dir / "copy.mtl")); // the obj exporter writes its material file beside it
    // Exported raw, so the quads survive; re-imported OBJ has one vertex per corner again.
    const auto reimported = gamefmt::test::ImportFile(out);
    ASSERT_TRUE(reimported) << reimported.error;
    ASSERT_EQ(reimported.scene->mNumMeshes, 1u);
    EXPECT_EQ(reimported.scene->mMeshes[0]->mNumFaces, 6u);
    EXPECT_EQ(reimported.scene->mMeshes[0]->mNumVertices, 24u);
}

// A glb with lights: Assimp's glTF importer nests their extensions in node metadata, on which the scene copy of
// Exporter::Export (every Assimp writer, OBJ here) aborted. The CLI flattens them; the glb also becomes an .rbxm
// with sidecar meshes (--rbx-mesh-version) that the asset folder (--asset-dir) resolves.
TEST(Cli, GlbWithLightsExportsToObjAndRbxm) {
    const fs::path dir = ScratchDir("cli_glb_lights");
    const std::string glb = (dir / "demo.glb").string();
    ASSERT_EQ(Cli({"export", (gamefmt::test::TestDataDir() / "demo-place.rbxl").string(), glb}).code,
              gamefmt::cli::kExitOk);
    const CliResult obj = Cli({"export", glb, (dir / "demo.obj").string()});
    ASSERT_EQ(obj.code, gamefmt::cli::kExitOk) << obj.err;
    EXPECT_TRUE(fs::exists(dir / "demo.obj"));
    const CliResult rbxm = Cli({"export", glb, (dir / "demo.rbxm").string(), "--rbx-mesh-version", "2.00"});
    ASSERT_EQ(rbxm.code, gamefmt::cli::kExitOk) << rbxm.err;
    const std::vector<std::uint8_t> mesh = ReadBytes((dir / "demo_0.mesh").string());
    ASSERT_GE(mesh.size(), 12u);
    EXPECT_EQ(std::string(mesh.begin(), mesh.begin() + 12), "version 2.00");
    const CliResult info = Cli({"info", (dir / "demo.rbxm").string(), "--asset-dir", dir.string(), "-v"});
    ASSERT_EQ(info.code, gamefmt::cli::kExitOk) << info.err;
    EXPECT_EQ(info.err.find("placeholder"), std::string::npos) << info.err;
    EXPECT_NE(info.err.find("mesh asset(s) loaded from the asset folders"), std::string::npos) << info.err;
}

TEST(Cli, ExportFormatFlagOverridesTheExtension) {
    const fs::path dir = ScratchDir("cli_export_flag");
    for (const std::vector<std::string> &spelling :
         {std::vector<std::string>{"-f", "glb2"}, {"-fglb2"}, {"--format", "glb2"}, {"--format=glb2"}}) {
        const std::string out = (dir / "model.bin").string();
        std::vector<std::string> args = {"export", Cube(), out};
        args.insert(args.end(), spelling.begin(), spelling.end());
        const CliResult run = Cli(args);
        ASSERT_EQ(run.code, gamefmt::cli::kExitOk) << spelling[0] << ": " << run.err;
        EXPECT_EQ(Magic(out), "glTF");
        fs::remove(out);
    }
    // "-fd" is the find-degenerates step, not format "d".
    const CliResult run = Cli({"export", Cube(), (dir / "steps.glb").string(), "-fd", "-tri"});
    EXPECT_EQ(run.code, gamefmt::cli::kExitOk) << run.err;
}

TEST(Cli, ExportWithoutOutNamesTheFileAfterTheFormat) {
    const fs::path dir = ScratchDir("cli_export_noout");
    fs::copy_file(Cube(), dir / "box.obj");
    const CliResult run = Cli({"export", (dir / "box.obj").string(), "-f", "stl"});
    ASSERT_EQ(run.code, gamefmt::cli::kExitOk) << run.err;
    EXPECT_TRUE(fs::exists(dir / "box.stl"));
    EXPECT_EQ(Cli({"export", (dir / "box.obj").string()}).code, gamefmt::cli::kExitUsage);
    EXPECT_EQ(Cli({"export", (dir / "box.obj").string(), "-f", "obj"}).code, gamefmt::cli::kExitUsage);
}

TEST(Cli, ExportUnknownFormatIsAUsageError) {
    const fs::path dir = ScratchDir("cli_export_unknown");
    const CliResult byId = Cli({"export", Cube(), (dir / "x.glb").string(), "-f", "nosuchformat"});
    EXPECT_EQ(byId.code, gamefmt::cli::kExitUsage);
    EXPECT_NE(byId.err.find("'nosuchformat'"), std::string::npos) << byId.err;
    EXPECT_NE(byId.err.find("gamefmt listexport"), std::string::npos) << byId.err;
    const CliResult byExtension = Cli({"export", Cube(), (dir / "x.nosuchext").string()});
    EXPECT_EQ(byExtension.code, gamefmt::cli::kExitUsage);
    EXPECT_NE(byExtension.err.find("gamefmt listexport"), std::string::npos) << byExtension.err;
    EXPECT_EQ(Cli({"export", Cube(), (dir / "noextension").string()}).code, gamefmt::cli::kExitUsage);
    EXPECT_FALSE(fs::exists(dir / "x.glb"));
}

TEST(Cli, ExportOfAMissingInputNamesIt) {
    const fs::path dir = ScratchDir("cli_export_missing");
    const std::string in = (dir / "absent.obj").string();
    const CliResult run = Cli({"export", in, (dir / "x.glb").string()});
    EXPECT_EQ(run.code, gamefmt::cli::kExitBadInput);
    ExpectOneLineErrorNaming(run.err, in);
    EXPECT_FALSE(fs::exists(dir / "x.glb"));
}

TEST(Cli, ExportOfABrokenInputNamesIt) {
    const fs::path dir = ScratchDir("cli_export_broken");
    const std::string in = WriteBrokenMesh(dir).string();
    const CliResult run = Cli({"export", in, (dir / "x.glb").string()});
    EXPECT_EQ(run.code, gamefmt::cli::kExitBadInput);
    ExpectOneLineErrorNaming(run.err, in);
    EXPECT_NE(run.err.find(kBrokenMeshError), std::string::npos) << run.err;
}

// ---------------------------------------------------------------- listings

TEST(Cli, ListExtHasOursAndAssimps) {
    const CliResult run = Cli({"listext"});
    ASSERT_EQ(run.code, gamefmt::cli::kExitOk);
    EXPECT_EQ(std::count(run.out.begin(), run.out.end(), '\n'), 1); // one line, like upstream
    const std::string list = ";" + Lines(run.out).at(0) + ";";
    for (const char *ext : {"*.mesh", "*.rbxm", "*.rbxmx", "*.rbxl", "*.rbxlx", "*.llmesh", "*.slm", "*.3d", "*.3dc",
                            "*.rob", "*.obj", "*.glb"})
        EXPECT_NE(list.find(std::string(";") + ext + ";"), std::string::npos) << ext;
}

TEST(Cli, KnowExtMeshNamesOursFirstThenOgre) {
    // Ogre's loader name as the linked Assimp reports it.
    Assimp::Importer plain;
    const std::size_t ogre = plain.GetImporterIndex("mesh");
    ASSERT_NE(ogre, static_cast<std::size_t>(-1));
    const std::string ogreName = plain.GetImporterInfo(ogre)->mName;

    for (const char *spelling : {"mesh", ".mesh", "*.mesh", "MESH"}) {
        const CliResult run = Cli({"knowext", spelling});
        EXPECT_EQ(run.code, gamefmt::cli::kExitOk) << spelling;
        EXPECT_EQ(Lines(run.out).at(0), "File extension 'mesh'  is known") << spelling;
        const std::size_t ours = run.out.find("gamefmt Roblox mesh");
        const std::size_t theirs = run.out.find(ogreName);
        ASSERT_NE(ours, std::string::npos) << run.out;
        ASSERT_NE(theirs, std::string::npos) << run.out;
        EXPECT_LT(ours, theirs) << "gamefmt's loader must come first";
    }
}

TEST(Cli, KnowExtUnknownExtension) {
    const CliResult run = Cli({"knowext", ".xyz"});
    EXPECT_EQ(run.code, gamefmt::cli::kExitBadInput);
    EXPECT_EQ(run.out, "File extension 'xyz'  is not known\n");
    EXPECT_EQ(Cli({"knowext"}).code, gamefmt::cli::kExitUsage);
}

TEST(Cli, ListExportHasEveryBuiltInId) {
    const CliResult run = Cli({"listexport"});
    ASSERT_EQ(run.code, gamefmt::cli::kExitOk);
    const std::vector<std::string> ids = Lines(run.out);
    EXPECT_NE(std::find(ids.begin(), ids.end(), "glb2"), ids.end());
    EXPECT_NE(std::find(ids.begin(), ids.end(), "obj"), ids.end());
    const Assimp::Exporter plain;
    for (std::size_t i = 0; i < plain.GetExportFormatCount(); ++i)
        EXPECT_NE(std::find(ids.begin(), ids.end(), plain.GetExportFormatDescription(i)->id), ids.end());
    EXPECT_EQ(ids.size(), gamefmt::MakeExporter()->GetExportFormatCount());
}

TEST(Cli, ExportInfoPrintsIdExtensionDescription) {
    const CliResult run = Cli({"exportinfo", "glb2"});
    ASSERT_EQ(run.code, gamefmt::cli::kExitOk);
    const std::vector<std::string> lines = Lines(run.out);
    ASSERT_EQ(lines.size(), 3u);
    EXPECT_EQ(lines[0], "glb2");
    EXPECT_EQ(lines[1], "glb");
    EXPECT_FALSE(lines[2].empty());
    EXPECT_EQ(Cli({"exportinfo", "nosuchformat"}).code, gamefmt::cli::kExitUsage);
}

// ---------------------------------------------------------------- validate

TEST(Cli, ValidateCube) {
    const CliResult run = Cli({"validate", Cube()});
    EXPECT_EQ(run.code, gamefmt::cli::kExitOk) << run.err;
    EXPECT_EQ(run.out, Cube() + ": valid\n");
    // With steps, re-validated after each one; --strict passes when there are no warnings.
    EXPECT_EQ(Cli({"validate", Cube(), "-tri", "-jiv", "--strict"}).code, gamefmt::cli::kExitOk);
}

TEST(Cli, ValidateCorruptMeshNamesTheFile) {
    const std::string mesh = WriteBrokenMesh(ScratchDir("cli_validate_mesh")).string();
    const CliResult run = Cli({"validate", mesh});
    EXPECT_EQ(run.code, gamefmt::cli::kExitBadInput);
    ExpectOneLineErrorNaming(run.err, mesh);
    EXPECT_NE(run.err.find(kBrokenMeshError), std::string::npos) << run.err;
}

TEST(Cli, ValidateGarbageObj) {
    const fs::path dir = ScratchDir("cli_validate_obj");
    // Assimp's OBJ reader skips lines it does not understand: text garbage imports as a scene with no
    // meshes and no INCOMPLETE flag, which ValidateDataStructure rejects.
    const std::string text = (dir / "text.obj").string();
    WriteText(text, "this is not a model\nnor is this\n");
    const CliResult run = Cli({"validate", text});
    EXPECT_EQ(run.code, gamefmt::cli::kExitBadInput);
    ExpectOneLineErrorNaming(run.err, text);
    EXPECT_NE(run.err.find("mNumMeshes is 0"), std::string::npos) << run.err;
    // Files under 16 bytes are refused before parsing.
    const std::string tiny = (dir / "tiny.obj").string();
    WriteText(tiny, "\x01\x02garbage");
    const CliResult tinyRun = Cli({"validate", tiny});
    EXPECT_EQ(tinyRun.code, gamefmt::cli::kExitBadInput);
    ExpectOneLineErrorNaming(tinyRun.err, tiny);
    EXPECT_NE(tinyRun.err.find("too small"), std::string::npos) << tinyRun.err;
}

// Issue #25: --strict checks a Roblox place's parts against their own properties. The mixed place (every source of
// meshes interleaved) has every part right; what --strict reports is only its one missing mesh asset (a
// placeholder: guessed data).
TEST(Cli, ValidateStrictChecksRobloxParts) {
    const fs::path dir = ScratchDir("cli_validate_parts");
    const std::string place = (dir / "mixed.rbxl").string();
    WriteBytes(place, gamefmt::fixtures::MixedPlace(gamefmt::fixtures::MixedOrder::RoundRobin));
    const std::string assets = (TestDataDir() / "rbx-assets").string();
    const CliResult run = Cli({"validate", place, "--strict", "-q", "--asset-dir", assets});
    EXPECT_EQ(run.code, gamefmt::cli::kExitBadInput) << run.out << run.err;
    EXPECT_EQ(run.out, place + ": valid\n");
    EXPECT_EQ(run.err, "gamefmt: '" + place + "' has 1 warning(s) of lost or guessed data (--strict)\n");
}

TEST(Cli, ValidateSeveralFilesReportsEach) {
    const std::string mesh = WriteBrokenMesh(ScratchDir("cli_validate_many")).string();
    const CliResult run = Cli({"validate", Cube(), mesh});
    EXPECT_EQ(run.code, gamefmt::cli::kExitBadInput);
    EXPECT_EQ(run.out, Cube() + ": valid\n");
    ExpectOneLineErrorNaming(run.err, mesh);
}

// ---------------------------------------------------------------- convert

TEST(Cli, ConvertStopsAfterTheFirstFailure) {
    const fs::path dir = ScratchDir("cli_convert_stop");
    const std::string broken = WriteBrokenMesh(dir).string();
    const std::string outDir = (dir / "out").string();

    // The good file first: it passes, then the broken one fails.
    const CliResult run = Cli({"convert", Cube(), broken, "-o", outDir, "-j", "1"});
    EXPECT_EQ(run.code, gamefmt::cli::kExitBadInput);
    EXPECT_EQ(LastLine(run.out), "1 passed, 1 failed") << run.out;
    EXPECT_NE(run.out.find("[1/2] ok   " + Cube() + " -> "), std::string::npos) << run.out;
    EXPECT_NE(run.err.find("[2/2] FAIL " + broken + ": "), std::string::npos) << run.err;
    EXPECT_TRUE(fs::exists(fs::path(outDir) / "cube.glb"));

    // The broken file first: nothing more is started.
    fs::remove(fs::path(outDir) / "cube.glb");
    const CliResult stopped = Cli({"convert", broken, Cube(), "-o", outDir, "-j", "1"});
    EXPECT_EQ(stopped.code, gamefmt::cli::kExitBadInput);
    EXPECT_EQ(LastLine(stopped.out), "0 passed, 1 failed") << stopped.out;
    EXPECT_FALSE(fs::exists(fs::path(outDir) / "cube.glb"));
}

TEST(Cli, ConvertKeepGoing) {
    const fs::path dir = ScratchDir("cli_convert_keep");
    const std::string broken = WriteBrokenMesh(dir).string();
    const CliResult run = Cli({"convert", broken, Cube(), "-o", dir.string(), "-j", "1", "--keep-going"});
    EXPECT_EQ(run.code, gamefmt::cli::kExitBadInput);
    EXPECT_EQ(LastLine(run.out), "1 passed, 1 failed") << run.out;
    EXPECT_NE(run.err.find("FAIL " + broken + ": cannot import: "), std::string::npos) << run.err;
    EXPECT_NE(run.err.find(kBrokenMeshError), std::string::npos) << run.err;
    EXPECT_EQ(Magic(dir / "cube.glb"), "glTF");
}

TEST(Cli, ConvertWritesBesideEachInputByDefault) {
    const fs::path dir = ScratchDir("cli_convert_beside");
    fs::copy_file(Cube(), dir / "a.obj");
    fs::copy_file(Cube(), dir / "b.obj");
    const CliResult run = Cli({"convert", (dir / "a.obj").string(), (dir / "b.obj").string(), "-f", "stl"});
    EXPECT_EQ(run.code, gamefmt::cli::kExitOk) << run.err;
    EXPECT_EQ(LastLine(run.out), "2 passed, 0 failed");
    EXPECT_NE(run.out.find("[1/2] ok   "), std::string::npos);
    EXPECT_NE(run.out.find("[2/2] ok   "), std::string::npos);
    EXPECT_TRUE(fs::exists(dir / "a.stl"));
    EXPECT_TRUE(fs::exists(dir / "b.stl"));
}

TEST(Cli, ConvertWritesIndexedGlb) {
    // The cube's 8 corners: 24 face-corner vertices after the OBJ import, welded to 8 by our glTF writer
    // (Assimp's glb2 exporter joins them too; importing with the join instead left its glb un-indexed).
    const fs::path dir = ScratchDir("cli_convert_indexed");
    const CliResult run = Cli({"convert", Cube(), "-o", dir.string()});
    ASSERT_EQ(run.code, gamefmt::cli::kExitOk) << run.err;
    const gamefmt::test::ImportResult glb = gamefmt::test::ImportFile(dir / "cube.glb");
    ASSERT_TRUE(glb) << glb.error;
    ASSERT_EQ(glb.scene->mNumMeshes, 1u);
    EXPECT_EQ(glb.scene->mMeshes[0]->mNumVertices, 8u);
    EXPECT_EQ(glb.scene->mMeshes[0]->mNumFaces, 12u);
}

TEST(Cli, ConvertUsageErrors) {
    const fs::path dir = ScratchDir("cli_convert_usage");
    EXPECT_EQ(Cli({"convert"}).code, gamefmt::cli::kExitUsage);
    EXPECT_EQ(Cli({"convert", Cube(), "-f", "nosuchformat"}).code, gamefmt::cli::kExitUsage);
    EXPECT_EQ(Cli({"convert", Cube(), "-j", "0"}).code, gamefmt::cli::kExitUsage);
    EXPECT_EQ(Cli({"convert", Cube(), "-o"}).code, gamefmt::cli::kExitUsage);
    // Two inputs that would write the same output.
    const CliResult clash = Cli({"convert", Cube(), Cube(), "-o", dir.string()});
    EXPECT_EQ(clash.code, gamefmt::cli::kExitUsage);
    EXPECT_NE(clash.err.find("would both write"), std::string::npos) << clash.err;
    // An input its own output would overwrite.
    fs::copy_file(Cube(), dir / "same.obj");
    EXPECT_EQ(Cli({"convert", (dir / "same.obj").string(), "-f", "obj"}).code, gamefmt::cli::kExitUsage);
}

// ---------------------------------------------------------------- extract

TEST(Cli, ExtractWithoutTexturesSaysSo) {
    const CliResult run = Cli({"extract", Cube()});
    EXPECT_EQ(run.code, gamefmt::cli::kExitOk) << run.err;
    EXPECT_EQ(run.out, Cube() + ": no embedded textures\n");
}

// An .assbin scene (Assimp's lossless dump) with one compressed and one uncompressed embedded texture.
void WriteSceneWithTextures(const fs::path &path, const std::vector<std::uint8_t> &compressed) {
    aiScene scene;
    scene.mRootNode = new aiNode("root");
    scene.mRootNode->mNumMeshes = 1;
    scene.mRootNode->mMeshes = new unsigned[1]{0};
    auto *mesh = new aiMesh();
    mesh->mName = "tri";
    mesh->mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
    mesh->mNumVertices = 3;
    mesh->mVertices = new aiVector3D[3]{{0, 0, 0}, {1, 0, 0}, {0, 1, 0}};
    mesh->mNumFaces = 1;
    mesh->mFaces = new aiFace[1];
    mesh->mFaces[0].mNumIndices = 3;
    mesh->mFaces[0].mIndices = new unsigned[3]{0, 1, 2};
    scene.mNumMeshes = 1;
    scene.mMeshes = new aiMesh *[1] { mesh };
    auto *material = new aiMaterial();
    const aiString name("textured");
    material->AddProperty(&name, AI_MATKEY_NAME);
    scene.mNumMaterials = 1;
    scene.mMaterials = new aiMaterial *[1] { material };

    auto *packed = new aiTexture();
    packed->mWidth = static_cast<unsigned>(compressed.size()); // bytes
    packed->mHeight = 0;
    std::strcpy(packed->achFormatHint, "png");
    packed->pcData = new aiTexel[(compressed.size() + 3) / 4];
    std::memcpy(packed->pcData, compressed.data(), compressed.size());
    auto *raw = new aiTexture();
    raw->mWidth = 2;
    raw->mHeight = 1;
    std::strcpy(raw->achFormatHint, "rgba8888");
    raw->pcData = new aiTexel[2];
    raw->pcData[0].r = 255, raw->pcData[0].g = 0, raw->pcData[0].b = 0, raw->pcData[0].a = 255;
    raw->pcData[1].r = 0, raw->pcData[1].g = 0, raw->pcData[1].b = 255, raw->pcData[1].a = 128;
    scene.mNumTextures = 2;
    scene.mTextures = new aiTexture *[2] { packed, raw };

    Assimp::Exporter exporter;
    ASSERT_EQ(exporter.Export(&scene, "assbin", path.string()), AI_SUCCESS) << exporter.GetErrorString();
}

TEST(Cli, ExtractWritesCompressedBytesAndPngForTexels) {
    const fs::path dir = ScratchDir("cli_extract");
    const std::vector<std::uint8_t> compressed = {0x89, 'P', 'N', 'G', 1, 2, 3}; // bytes are copied, not decoded
    const fs::path model = dir / "textured.assbin";
    WriteSceneWithTextures(model, compressed);
    if (HasFatalFailure()) return;

    const CliResult run = Cli({"extract", model.string(), (dir / "tex.png").string()});
    ASSERT_EQ(run.code, gamefmt::cli::kExitOk) << run.err;
    EXPECT_EQ(ReadBytes(dir / "tex_img0.png"), compressed);
    EXPECT_NE(run.out.find("Wrote " + (dir / "tex_img0.png").string() + " (7 bytes)"), std::string::npos) << run.out;

    // The texels become a real PNG with the same pixels.
    const std::vector<std::uint8_t> png = ReadBytes(dir / "tex_img1.png");
    png_image image;
    std::memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    ASSERT_TRUE(png_image_begin_read_from_memory(&image, png.data(), png.size())) << image.message;
    EXPECT_EQ(image.width, 2u);
    EXPECT_EQ(image.height, 1u);
    image.format = PNG_FORMAT_RGBA;
    std::vector<std::uint8_t> pixels(PNG_IMAGE_SIZE(image));
    ASSERT_TRUE(png_image_finish_read(&image, nullptr, pixels.data(), 0, nullptr)) << image.message;
    EXPECT_EQ(pixels, (std::vector<std::uint8_t>{255, 0, 0, 255, 0, 0, 255, 128}));

    // One texture with -s: no suffix.
    const CliResult one = Cli({"extract", model.string(), (dir / "single").string(), "-t", "1", "-s"});
    ASSERT_EQ(one.code, gamefmt::cli::kExitOk) << one.err;
    EXPECT_EQ(ReadBytes(dir / "single.png"), png);
    EXPECT_EQ(Cli({"extract", model.string(), "-t", "2"}).code, gamefmt::cli::kExitUsage);
}

// ---------------------------------------------------------------- building blocks

TEST(Cli, JsonStringsAreEscapedAndValidUtf8) {
    using gamefmt::cli::JsonQuote;
    EXPECT_EQ(JsonQuote("plain"), "\"plain\"");
    EXPECT_EQ(JsonQuote("a\"b\\c/"), "\"a\\\"b\\\\c/\"");
    EXPECT_EQ(JsonQuote("\n\r\t\b\f"), "\"\\n\\r\\t\\b\\f\"");
    EXPECT_EQ(JsonQuote(std::string("\x01\x1f\x7f", 3)), "\"\\u0001\\u001f\\u007f\"");
    EXPECT_EQ(JsonQuote(std::string("nul\0in", 6)), "\"nul\\u0000in\"");
    EXPECT_EQ(JsonQuote("caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80"), "\"caf\xC3\xA9 \xE2\x82\xAC \xF0\x9F\x98\x80\"");
    const std::string fffd = "\xEF\xBF\xBD";
    EXPECT_EQ(JsonQuote("\xFF"), "\"" + fffd + "\"");                                  // never valid
    EXPECT_EQ(JsonQuote("\xC0\xAF"), "\"" + fffd + fffd + "\"");                       // overlong '/'
    EXPECT_EQ(JsonQuote("\xED\xA0\x80"), "\"" + fffd + fffd + fffd + "\"");            // a surrogate
    EXPECT_EQ(JsonQuote("a\xE2\x82"), "\"a" + fffd + "\"");                            // truncated sequence
    EXPECT_EQ(JsonQuote("\xF4\x90\x80\x80"), "\"" + fffd + fffd + fffd + fffd + "\""); // above U+10FFFF
}

TEST(Cli, JsonWriterProducesParseableDocuments) {
    std::ostringstream out;
    gamefmt::cli::JsonWriter json(out);
    json.beginObject();
    json.key("nan");
    json.number(std::numeric_limits<double>::quiet_NaN());
    json.key("inf");
    json.number(std::numeric_limits<float>::infinity());
    json.key("tenth");
    json.number(0.1f);
    json.key("big");
    json.unsignedInteger(18446744073709551615ull);
    json.key("neg");
    json.integer(-5);
    json.key("empty");
    json.beginArray();
    json.endArray();
    json.key("inline");
    json.beginArray(true);
    json.boolean(true);
    json.null();
    json.string("\xFF");
    json.endArray();
    json.endObject();
    gamefmt::test::json::Parser parser(out.str());
    const auto doc = parser.parse();
    ASSERT_TRUE(doc.has_value()) << parser.error() << "\n" << out.str();
    using Type = gamefmt::test::json::Value::Type;
    EXPECT_EQ(doc->get("nan")->type, Type::Null);
    EXPECT_EQ(doc->get("inf")->type, Type::Null);
    EXPECT_NE(out.str().find("\"tenth\": 0.1,"), std::string::npos) << out.str(); // shortest float form
    EXPECT_NE(out.str().find("18446744073709551615"), std::string::npos);
    EXPECT_EQ(doc->get("neg")->number, -5.0);
    EXPECT_TRUE(doc->get("empty")->items.empty());
    EXPECT_EQ(doc->get("inline")->items.size(), 3u);
    EXPECT_EQ(doc->get("inline")->items[2].text, "\xEF\xBF\xBD");
}

TEST(Cli, OptionValuesAreTypedByHowTheyRead) {
    using gamefmt::cli::Property;
    Property p;
    std::string error;
    ASSERT_TRUE(gamefmt::cli::ParseProperty("A=42", p, error));
    EXPECT_EQ(p.kind, Property::Kind::Integer);
    EXPECT_EQ(p.integer, 42);
    ASSERT_TRUE(gamefmt::cli::ParseProperty("A=-7", p, error));
    EXPECT_EQ(p.integer, -7);
    ASSERT_TRUE(gamefmt::cli::ParseProperty("A=0.25", p, error));
    EXPECT_EQ(p.kind, Property::Kind::Float);
    EXPECT_EQ(p.number, 0.25);
    ASSERT_TRUE(gamefmt::cli::ParseProperty("A=1e3", p, error));
    EXPECT_EQ(p.kind, Property::Kind::Float);
    ASSERT_TRUE(gamefmt::cli::ParseProperty("A=true", p, error));
    EXPECT_EQ(p.kind, Property::Kind::Bool);
    EXPECT_TRUE(p.boolean);
    ASSERT_TRUE(gamefmt::cli::ParseProperty("A=false", p, error));
    EXPECT_FALSE(p.boolean);
    ASSERT_TRUE(gamefmt::cli::ParseProperty("NAME=a=b", p, error));
    EXPECT_EQ(p.kind, Property::Kind::String);
    EXPECT_EQ(p.name, "NAME");
    EXPECT_EQ(p.text, "a=b");
    ASSERT_TRUE(gamefmt::cli::ParseProperty("A=", p, error));
    EXPECT_EQ(p.kind, Property::Kind::String);
    ASSERT_TRUE(gamefmt::cli::ParseProperty("A=nan", p, error));
    EXPECT_EQ(p.kind, Property::Kind::String); // not a finite float
    EXPECT_FALSE(gamefmt::cli::ParseProperty("A", p, error));
    EXPECT_FALSE(gamefmt::cli::ParseProperty("=1", p, error));
    EXPECT_FALSE(gamefmt::cli::ParseProperty("A=99999999999", p, error));
}

// ---------------------------------------------------------------- the real executable

#if defined(GAMEFMT_HAVE_CLI)
int RunExe(const std::string &arguments) {
#ifdef _WIN32
    // cmd.exe /c drops the first and the last quote of the line: one more pair keeps the exe's own quotes.
    // _wsystem: the narrow std::system would pass UTF-8 file names through the ANSI code page.
    const std::string command = std::string("\"\"") + GAMEFMT_CLI_EXE + "\" " + arguments + " >NUL 2>&1\"";
    return _wsystem(gamefmt::PathFromUtf8(command).wstring().c_str()); // the program's exit status itself
#else
    const std::string command = std::string("\"") + GAMEFMT_CLI_EXE + "\" " + arguments + " >/dev/null 2>&1";
    const int status = std::system(command.c_str());
    return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
#endif
}

TEST(Cli, ExecutableExitStatus) {
    EXPECT_EQ(RunExe("version"), 0);
    EXPECT_EQ(RunExe(""), 2);
    EXPECT_EQ(RunExe("frobnicate"), 2);
    EXPECT_EQ(RunExe("knowext xyz"), 1);
}

TEST(Cli, ExecutableConvertsOnSeveralThreads) {
    // In-process runs share the test harness's (non-thread-safe) logger and convert one file at a time;
    // the executable installs its own, so this exercises the worker threads.
    const fs::path dir = ScratchDir("cli_exe_convert");
    std::string inputs;
    for (const char *name : {"a.obj", "b.obj", "c.obj"}) {
        fs::copy_file(Cube(), dir / name);
        inputs += " \"" + (dir / name).string() + "\"";
    }
    EXPECT_EQ(RunExe("convert" + inputs + " -j 3 -l -o \"" + (dir / "out").string() + "\""), 0);
    for (const char *name : {"a.glb", "b.glb", "c.glb"}) EXPECT_TRUE(fs::exists(dir / "out" / name)) << name;
}

TEST(Cli, ExecutableTakesNonAsciiNamesWithSpaces) {
    // Through the real program's command line (on Windows: its UTF-16 command line, made UTF-8 in main), a batch
    // on two threads, into a folder whose name has spaces and non-ASCII letters.
    const fs::path dir = ScratchDir("cli_exe_unicode") / gamefmt::PathFromUtf8("m\xC3\xB6"
                                                                               "del f\xC3\xB6lder"); // "mödel földer"
    fs::create_directories(dir);
    std::string inputs;
    const std::vector<std::string> names = {"\xC3\xA4 b.obj", "\xD0\xB4\xD0\xB0.obj",
                                            "\xE6\xA8\xA1.obj"}; // "ä b", "да", "模"
    for (const std::string &name : names) {
        fs::copy_file(Cube(), dir / gamefmt::PathFromUtf8(name));
        inputs += " \"" + gamefmt::PathToUtf8(dir / gamefmt::PathFromUtf8(name)) + "\"";
    }
    const fs::path out = dir / gamefmt::PathFromUtf8("\xC3\xBCt out"); // "üt out"
    EXPECT_EQ(RunExe("convert" + inputs + " -j 2 -q -o \"" + gamefmt::PathToUtf8(out) + "\""), 0);
    for (const std::string &name : names) {
        const std::string glb = name.substr(0, name.size() - 4) + ".glb";
        EXPECT_TRUE(fs::is_regular_file(out / gamefmt::PathFromUtf8(glb))) << glb;
        EXPECT_EQ(RunExe("info \"" + gamefmt::PathToUtf8(out / gamefmt::PathFromUtf8(glb)) + "\""), 0) << glb;
    }
}
#endif

// ------------------------------------------------------------------ Roblox models: dump, class counts

TEST(Cli, DumpPrintsTheInstanceTreeWithProperties) {
    GAMEFMT_REQUIRE_CORPUS(dir, "rbx/rbx-test-files/models/three-nested-folders");
    const CliResult r = Cli({"dump", (dir / "xml.rbxmx").string()});
    ASSERT_EQ(r.code, 0) << r.err;
    // Names, classes and referents from xml.rbxmx; its empty BinaryStrings are empty String values.
    EXPECT_EQ(r.out, "# Roblox model (xml)\n"
                     "# meta ExplicitAutoJoints = true\n"
                     "Folder \"Grandparent\" [RBX1D9CFE870933479BAA4E19EE25425D56]\n"
                     "  .AttributesSerialize = String:\n"
                     "  .Tags = String:\n"
                     "  Folder \"Parent\" [RBX7AA03CDF4C794CDD8876D3C8C57EF4B3]\n"
                     "    .AttributesSerialize = String:\n"
                     "    .Tags = String:\n"
                     "    Folder \"Child\" [RBX6E85619D54184CA488CC26F59A1DAB94]\n"
                     "      .AttributesSerialize = String:\n"
                     "      .Tags = String:\n");
}

TEST(Cli, DumpRefusesOtherScenes) {
    const CliResult r = Cli({"dump", (TestDataDir() / "cube.obj").string()});
    EXPECT_EQ(r.code, gamefmt::cli::kExitBadInput);
    EXPECT_NE(r.err.find("not a Roblox model or place"), std::string::npos) << r.err;
    EXPECT_EQ(Cli({"dump"}).code, gamefmt::cli::kExitUsage);
}

TEST(Cli, InfoCountsRobloxClasses) {
    GAMEFMT_REQUIRE_CORPUS(dir, "rbx/rbx-test-files/models/three-unique-parts");
    const CliResult r = Cli({"info", (dir / "binary.rbxm").string()});
    ASSERT_EQ(r.code, 0) << r.err;
    EXPECT_NE(r.out.find("\nRoblox classes:\n    3 Part\n"), std::string::npos) << r.out;
    const CliResult j = Cli({"info", "--json", (dir / "binary.rbxm").string()});
    ASSERT_EQ(j.code, 0) << j.err;
    EXPECT_NE(j.out.find("\"robloxClasses\""), std::string::npos) << j.out;
}

// ---------------------------------------------------------------- Second Life mesh

std::string SlRigged() {
    return (TestDataDir() / "sl-rigged.llmesh").string();
}

TEST(Cli, SlLodFlagChoosesTheLevels) {
    const CliResult high = Cli({"info", "-r", SlRigged()});
    ASSERT_EQ(high.code, gamefmt::cli::kExitOk) << high.err;
    EXPECT_NE(high.out.find("high_lod"), std::string::npos) << high.out;
    EXPECT_EQ(high.out.find("lowest_lod"), std::string::npos) << high.out;
    const CliResult all = Cli({"info", "-r", "--sl-lod", "all", SlRigged()});
    ASSERT_EQ(all.code, gamefmt::cli::kExitOk) << all.err;
    for (const char *lod : {"high_lod", "medium_lod", "low_lod", "lowest_lod"})
        EXPECT_NE(all.out.find(lod), std::string::npos) << lod << "\n" << all.out;
    const CliResult lowest = Cli({"info", "-r", "--sl-lod=lowest", SlRigged()});
    ASSERT_EQ(lowest.code, gamefmt::cli::kExitOk) << lowest.err;
    EXPECT_NE(lowest.out.find("lowest_lod"), std::string::npos) << lowest.out;
    EXPECT_EQ(lowest.out.find("high_lod"), std::string::npos) << lowest.out;
    // A bad level names the option and the values it takes.
    const CliResult bad = Cli({"info", "--sl-lod", "best", SlRigged()});
    EXPECT_EQ(bad.code, gamefmt::cli::kExitBadInput);
    EXPECT_NE(bad.err.find("GAMEFMT_SLMESH_LOD"), std::string::npos) << bad.err;
    EXPECT_NE(bad.err.find("lowest"), std::string::npos) << bad.err;
}

TEST(Cli, SlRiggedMeshConvertsToGlbWithItsJoints) {
    const fs::path dir = ScratchDir("cli_sl_glb");
    const std::string out = (dir / "rigged.glb").string();
    const CliResult run = Cli({"export", SlRigged(), out});
    ASSERT_EQ(run.code, gamefmt::cli::kExitOk) << run.err;
    const auto glb = gamefmt::test::ImportFile(out);
    ASSERT_TRUE(glb) << glb.error;
    ASSERT_GE(glb.scene->mNumMeshes, 1u);
    EXPECT_TRUE(glb.scene->mMeshes[0]->HasBones());
    for (const char *joint : {"mPelvis", "mTorso", "mChest"})
        EXPECT_NE(glb.scene->mRootNode->FindNode(joint), nullptr) << joint;
}

TEST(Cli, AnySceneExportsToLlmeshAndBack) {
    const fs::path dir = ScratchDir("cli_sl_export");
    const std::string out = (dir / "cube.llmesh").string();
    const CliResult run = Cli({"export", Cube(), out, "--sl-material-list", "--sl-no-lods"});
    ASSERT_EQ(run.code, gamefmt::cli::kExitOk) << run.err;
    EXPECT_NE(run.out.find("(llmesh, "), std::string::npos) << run.out;
    const auto back = gamefmt::test::ImportFile(out);
    ASSERT_TRUE(back) << back.error;
    ASSERT_EQ(back.scene->mNumMeshes, 1u);
    EXPECT_EQ(back.scene->mMeshes[0]->mNumFaces, 12u);
    EXPECT_TRUE(back.validationWarnings.empty());
}

} // namespace

// ---------------------------------------------------------------- Redguard

namespace {
TEST(Cli, RedguardAnimatedModelShowsItsAnimationAndConvertsToGlb) {
    const std::string model = (TestDataDir() / "rg-animated.3dc").string();
    const CliResult info = Cli({"info", "-r", model});
    ASSERT_EQ(info.code, gamefmt::cli::kExitOk) << info.err;
    EXPECT_NE(info.out.find("Animations:         1"), std::string::npos) << info.out;
    EXPECT_NE(info.out.find("Redguard 3D"), std::string::npos) << info.out;
    const fs::path dir = ScratchDir("cli_rg_glb");
    const std::string out = (dir / "animated.glb").string();
    const CliResult run = Cli({"export", model, out, "--rg-fps", "24"});
    ASSERT_EQ(run.code, gamefmt::cli::kExitOk) << run.err;
    EXPECT_NE(run.out.find("(gamefmt-glb, "), std::string::npos) << run.out;
    EXPECT_GT(ReadBytes(out).size(), 100u);
}
} // namespace

namespace gamefmt::test {
namespace {

// `assets`: every asset URI of the generated asset place with its kind, users and whether testdata/rbx-assets
// resolves it (as the importer would: the gzip-wrapped mesh without extension, the Studio layout); --missing lists
// the unresolved ids once each across files; --json says the same for programs.
TEST(Cli, AssetsListsWhatAPlaceReferencesAndWhatResolves) {
    const std::string place = (TestDataDir() / "asset-place.rbxl").string();
    const std::string folder = (TestDataDir() / "rbx-assets").string();
    const CliResult text = Cli({"assets", place, "--asset-dir", folder});
    ASSERT_EQ(text.code, gamefmt::cli::kExitOk) << text.err;
    EXPECT_NE(text.out.find("# " + place + ": 9 asset reference(s)\n"), std::string::npos) << text.out;
    EXPECT_NE(text.out.find("rbxassetid://2001  mesh  found " + folder +
                            "/2001.mesh  3 use(s): Workspace.Statue, Workspace.Statue2, Workspace.Shiny\n"),
              std::string::npos)
        << text.out;
    EXPECT_NE(text.out.find("rbxassetid://2002  mesh  found " + folder + "/2002  1 use(s): Workspace.Rig\n"),
              std::string::npos);
    EXPECT_NE(text.out.find("rbxasset://fonts/hat.mesh  mesh  found " + folder + "/content/fonts/hat.mesh"),
              std::string::npos);
    EXPECT_NE(text.out.find("rbxassetid://2999  mesh  missing  1 use(s): Workspace.Missing\n"), std::string::npos);
    EXPECT_NE(text.out.find("rbxassetid://2006  surface map  found"), std::string::npos);

    const CliResult missing =
        Cli({"assets", place, (TestDataDir() / "demo-place.rbxl").string(), "--missing", "--asset-dir", folder});
    ASSERT_EQ(missing.code, gamefmt::cli::kExitOk) << missing.err;
    EXPECT_EQ(missing.out, "2999\n"); // the demo place's assets are all in rbx-assets
    // Without a folder nothing is looked up, so every id is missing.
    const CliResult none = Cli({"assets", (TestDataDir() / "demo-place.rbxl").string(), "--missing"});
    EXPECT_EQ(none.out, "1002\n777\n555\n1001\n3001\n"); // the decal, meshes, texture and union

    const CliResult js = Cli({"assets", place, "--json", "--asset-dir", folder});
    ASSERT_EQ(js.code, gamefmt::cli::kExitOk) << js.err;
    json::Parser parser(js.out);
    const std::optional<json::Value> v = parser.parse();
    ASSERT_TRUE(v.has_value()) << parser.error() << "\n" << js.out;
    ASSERT_NE(v->get("assets"), nullptr);
    const json::Value &assets = *v->get("assets");
    ASSERT_EQ(assets.items.size(), 9u);
    const json::Value &first = assets.items[0];
    EXPECT_EQ(first.get("uri")->text, "rbxassetid://2001");
    EXPECT_EQ(first.get("id")->text, "2001");
    EXPECT_EQ(first.get("kind")->text, "mesh");
    EXPECT_EQ(first.get("status")->text, "found");
    EXPECT_EQ(first.get("instances")->items.size(), 3u);

    EXPECT_EQ(Cli({"assets", (TestDataDir() / "cube.obj").string()}).code, gamefmt::cli::kExitBadInput);
    EXPECT_EQ(Cli({"assets"}).code, gamefmt::cli::kExitUsage);
}

// Union assets (issue #29 point 6): a union's AssetId is listed as a union, resolved as a Roblox model (the XML one
// has no extension), and --missing prints the id the folder lacks.
TEST(Cli, AssetsListsUnionAssets) {
    const auto dir = ScratchDir("cli_union_assets");
    std::filesystem::create_directories(dir / "union-assets");
    for (const fixtures::Fixture &f : fixtures::UnionAssetFiles()) WriteBytes(dir / f.name, f.bytes);
    const std::string place = (dir / "union-asset-place.rbxl").string();
    const std::string folder = (dir / "union-assets").string();
    const CliResult text = Cli({"assets", place, "--asset-dir", folder});
    ASSERT_EQ(text.code, gamefmt::cli::kExitOk) << text.err;
    EXPECT_NE(
        text.out.find("rbxassetid://3001  union  found " + folder + "/3001.rbxm  1 use(s): Workspace.CloudUnion\n"),
        std::string::npos)
        << text.out;
    EXPECT_NE(text.out.find("rbxassetid://3002  union  found " + folder + "/3002  1 use(s): Workspace.CloudUnion2\n"),
              std::string::npos)
        << text.out;
    EXPECT_NE(text.out.find("rbxassetid://3003  union  missing  1 use(s): Workspace.LostUnion\n"), std::string::npos)
        << text.out;
    const CliResult missing = Cli({"assets", place, "--missing", "--asset-dir", folder});
    ASSERT_EQ(missing.code, gamefmt::cli::kExitOk) << missing.err;
    EXPECT_EQ(missing.out, "3003\n");
}

} // namespace
} // namespace gamefmt::test

namespace gamefmt::test {
namespace {

// `formats`: one line per family with its extensions and export ids, from the registered importers and exporters.
TEST(Cli, FormatsListsWhatIsReadAndWritten) {
    const CliResult run = Cli({"formats"});
    ASSERT_EQ(run.code, gamefmt::cli::kExitOk) << run.err;
    const auto line = [&](const std::string &start) {
        const std::size_t at = run.out.find("\n" + start);
        return at == std::string::npos ? std::string() : run.out.substr(at + 1, run.out.find('\n', at + 1) - at - 1);
    };
    const std::string mesh = line("Roblox mesh");
    EXPECT_NE(mesh.find(".mesh"), std::string::npos) << run.out;
    EXPECT_NE(mesh.find("rbxmesh rbxmesh2 rbxmesh3 rbxmesh4 rbxmesh5 rbxmesh6 rbxmesh7"), std::string::npos) << mesh;
    const std::string model = line("Roblox model/place");
    EXPECT_NE(model.find(".rbxm .rbxl .rbxmx .rbxlx"), std::string::npos) << run.out;
    EXPECT_NE(model.find("rbxm rbxmx"), std::string::npos) << model;
    EXPECT_NE(line("Second Life mesh").find("llmesh"), std::string::npos) << run.out;
    EXPECT_NE(line("Redguard").find("rg3d rg3dc"), std::string::npos) << run.out;
    EXPECT_NE(line("glTF 2.0").find("gamefmt-glb gamefmt-gltf"), std::string::npos) << run.out;
    EXPECT_EQ(Cli({"formats", "x"}).code, gamefmt::cli::kExitUsage);
}

// The manual page and the bash completion are generated from the verb table and the flag help: every verb and
// every named flag is in both (roff escapes hyphens).
TEST(Cli, ManPageAndCompletionCoverEveryVerbAndFlag) {
    const CliResult man = Cli({"help", "--man"});
    const CliResult bash = Cli({"help", "--bash-completion"});
    ASSERT_EQ(man.code, gamefmt::cli::kExitOk);
    ASSERT_EQ(bash.code, gamefmt::cli::kExitOk);
    EXPECT_EQ(man.out.rfind(".TH GAMEFMT 1 ", 0), 0u);
    const auto roff = [](std::string s) {
        std::string out;
        for (char c : s) out += c == '-' ? std::string("\\-") : std::string(1, c);
        return out;
    };
    // A whole word of the completion's lists (between spaces or quotes).
    const auto word = [&](const std::string &w) {
        for (std::size_t at = bash.out.find(w); at != std::string::npos; at = bash.out.find(w, at + 1)) {
            const char before = at == 0 ? ' ' : bash.out[at - 1], after = bash.out[at + w.size()];
            if ((before == ' ' || before == '"') && (after == ' ' || after == '"')) return true;
        }
        return false;
    };
    for (const char *verb : {"info", "export", "convert", "validate", "extract", "dump", "assets", "formats", "listext",
                             "knowext", "listexport", "exportinfo", "version", "help"}) {
        EXPECT_NE(man.out.find(".B " + std::string(verb)), std::string::npos) << verb;
        EXPECT_TRUE(word(verb)) << verb;
    }
    for (const char *flag : {"--asset-dir", "--rbx-terrain-stride", "--rbx-terrain-error", "--rbx-terrain-threads",
                             "--rbx-mesh-version", "--keep-units", "--sl-lod", "--rg-palette", "--from-list",
                             "--include", "--exclude", "--force", "--manifest", "--resume", "--shard"}) {
        EXPECT_NE(man.out.find(roff(flag)), std::string::npos) << flag;
        EXPECT_TRUE(word(flag)) << flag;
    }
#ifndef _WIN32 // Windows has neither man nor bash completion: the build does not install them there
    // The build wrote both for installation.
    EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(GAMEFMT_BINARY_DIR) / "share" / "gamefmt.1"));
    EXPECT_TRUE(std::filesystem::exists(std::filesystem::path(GAMEFMT_BINARY_DIR) / "share" / "gamefmt.bash"));
#endif
}

} // namespace
} // namespace gamefmt::test

namespace gamefmt::test {
namespace {

// `preload-path` prints the preload library this build made (nothing is installed on a test machine's prefix),
// which exists; scripts/check-preload drives the stock assimp command, the C API and Open3D with it.
TEST(Cli, PreloadPathNamesTheLibrary) {
    const CliResult run = Cli({"preload-path"});
#ifndef GAMEFMT_HAVE_PRELOAD
    // A tree without the library (the fuzz tree): an error naming both places, exit 1.
    EXPECT_EQ(run.code, gamefmt::cli::kExitBadInput);
    EXPECT_NE(run.err.find("libgamefmt_preload.so is neither installed"), std::string::npos) << run.err;
    return;
#endif
    ASSERT_EQ(run.code, gamefmt::cli::kExitOk) << run.err;
    ASSERT_FALSE(run.out.empty());
    const std::string path = run.out.substr(0, run.out.size() - 1);
    EXPECT_EQ(std::filesystem::path(path).filename(), "libgamefmt_preload.so");
    EXPECT_TRUE(std::filesystem::is_regular_file(path)) << path;
    EXPECT_EQ(Cli({"preload-path", "x"}).code, gamefmt::cli::kExitUsage);
}

} // namespace
} // namespace gamefmt::test
