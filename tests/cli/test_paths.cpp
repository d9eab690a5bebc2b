// File names the way users have them: non-ASCII, with spaces, and on Windows with drive letters and backslashes;
// XML models with CRLF line ends. The same tests run on Linux and, under Wine, as a Windows program (README
// "Windows"); the Windows-only ones are marked. Paths cross gamefmt and Assimp as UTF-8 strings.
#include "cli/run_cli.hpp"
#include "common/utf8_path.hpp"
#include "support/import_helpers.hpp"

#include "gamefmt/gamefmt.hpp"

#include <assimp/Exporter.hpp>
#include <assimp/scene.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace gamefmt::test {
namespace {

namespace fs = std::filesystem;

// UTF-8 (the sources are UTF-8, and so is the compilers' execution character set).
const char *const kFolder = "dir with spaces \xC3\xBCn\xC3\xAF";                      // "dir with spaces ünï"
const char *const kNames[] = {"\xC4\x89ube \xC3\xBC.obj",                             // "ĉube ü.obj"
                              "\xD0\xBC\xD0\xBE\xD0\xB4\xD0\xB5\xD0\xBB\xD1\x8C.obj", // "модель.obj"
                              "\xE6\xA8\xA1\xE5\x9E\x8B 1.obj"};                      // "模型 1.obj"

fs::path UnicodeDir(const std::string &name) {
    const fs::path dir = ScratchDir(name) / PathFromUtf8(kFolder);
    fs::create_directories(dir);
    return dir;
}

// Every vertex of every mesh, in order: two imports of the same bytes must give the same list.
std::vector<float> AllVertices(const aiScene &scene) {
    std::vector<float> out;
    for (unsigned m = 0; m < scene.mNumMeshes; ++m)
        for (unsigned v = 0; v < scene.mMeshes[m]->mNumVertices; ++v) {
            const aiVector3D &p = scene.mMeshes[m]->mVertices[v];
            out.insert(out.end(), {p.x, p.y, p.z});
        }
    return out;
}

std::vector<std::string> NodeNames(const aiNode &root) {
    std::vector<std::string> names;
    std::function<void(const aiNode &)> walk = [&](const aiNode &node) {
        names.emplace_back(node.mName.C_Str());
        for (unsigned i = 0; i < node.mNumChildren; ++i) walk(*node.mChildren[i]);
    };
    walk(root);
    return names;
}

bool DirectoryHolds(const fs::path &dir, const std::string &utf8Name) {
    for (const fs::directory_entry &entry : fs::directory_iterator(dir))
        if (PathToUtf8(entry.path().filename()) == utf8Name) return true;
    return false;
}

TEST(Paths, Utf8NamesSurviveThePathHelpers) {
    for (const char *name : kNames) {
        const fs::path p = PathFromUtf8(name);
        EXPECT_EQ(PathToUtf8(p), name);
        EXPECT_EQ(PathToUtf8(p.extension()), ".obj");
        EXPECT_EQ(PathToUtf8(p.stem()) + ".obj", name);
    }
}

TEST(Paths, ImportAndExportNonAsciiNamesInAFolderWithSpaces) {
    const ImportResult reference = ImportFile(TestDataDir() / "cube.obj");
    ASSERT_TRUE(reference) << reference.error;
    const fs::path dir = UnicodeDir("paths_import");
    const std::unique_ptr<Assimp::Exporter> exporter = MakeExporter();
    // The same cube through glb under a plain ASCII name: what each non-ASCII one must read back as.
    ASSERT_EQ(exporter->Export(reference.scene, "glb2", PathToUtf8(dir.parent_path() / "ascii.glb")), AI_SUCCESS);
    const ImportResult referenceGlb = ImportFile(dir.parent_path() / "ascii.glb");
    ASSERT_TRUE(referenceGlb) << referenceGlb.error;
    for (const char *name : kNames) {
        const fs::path in = dir / PathFromUtf8(name);
        fs::copy_file(TestDataDir() / "cube.obj", in, fs::copy_options::overwrite_existing);
        const ImportResult r = ImportFile(in);
        ASSERT_TRUE(r) << name << ": " << r.error;
        EXPECT_EQ(AllVertices(*r.scene), AllVertices(*reference.scene)) << name;

        const std::string stem = PathToUtf8(PathFromUtf8(name).stem());
        ASSERT_EQ(exporter->Export(r.scene, "glb2", PathToUtf8(dir / PathFromUtf8(stem + ".glb"))), AI_SUCCESS)
            << name << ": " << exporter->GetErrorString();
        EXPECT_TRUE(DirectoryHolds(dir, stem + ".glb")) << name; // the very name asked for, not a mangled one
        const ImportResult back = ImportFile(dir / PathFromUtf8(stem + ".glb"));
        ASSERT_TRUE(back) << name << ": " << back.error;
        EXPECT_EQ(AllVertices(*back.scene), AllVertices(*referenceGlb.scene)) << name;
    }
}

TEST(Paths, CommandLineConvertsNonAsciiNamesInAFolderWithSpaces) {
    const fs::path dir = UnicodeDir("paths_cli");
    std::vector<std::string> args = {"convert"};
    for (const char *name : kNames) {
        fs::copy_file(TestDataDir() / "cube.obj", dir / PathFromUtf8(name), fs::copy_options::overwrite_existing);
        args.push_back(PathToUtf8(dir / PathFromUtf8(name)));
    }
    const fs::path out = dir / PathFromUtf8("out \xC3\xA9t\xC3\xA9"); // "out été"
    args.insert(args.end(), {"-o", PathToUtf8(out)});
    const CliResult run = Cli(args);
    ASSERT_EQ(run.code, 0) << run.err;
    for (const char *name : kNames) {
        const std::string glb = PathToUtf8(PathFromUtf8(name).stem()) + ".glb";
        EXPECT_TRUE(DirectoryHolds(out, glb)) << glb;
        const CliResult info = Cli({"info", PathToUtf8(out / PathFromUtf8(glb))});
        EXPECT_EQ(info.code, 0) << info.err;
    }
    // Messages name a file exactly as it was given.
    const std::string missing = PathToUtf8(dir / PathFromUtf8("n\xC3\xA3o existe.mesh")); // "não existe.mesh"
    const CliResult bad = Cli({"info", missing});
    EXPECT_NE(bad.code, 0);
    EXPECT_NE(bad.err.find("'" + missing + "'"), std::string::npos) << bad.err;
}

TEST(Paths, XmlModelsReadTheSameWithCrlfLineEnds) {
    // An .rbxmx written by our exporter (LF), then the same bytes with every LF made CRLF, as Windows editors and
    // Git's autocrlf leave them: XML normalises line ends (XML 1.0 §2.11), so both give the same scene.
    const fs::path dir = ScratchDir("paths_crlf");
    const CliResult exported =
        Cli({"export", PathToUtf8(TestDataDir() / "demo-place.rbxl"), PathToUtf8(dir / "lf.rbxmx"), "-q"});
    ASSERT_EQ(exported.code, 0) << exported.err;
    const std::vector<std::uint8_t> lf = ReadBytes(dir / "lf.rbxmx");
    ASSERT_EQ(std::count(lf.begin(), lf.end(), std::uint8_t{'\r'}), 0);
    std::vector<std::uint8_t> crlf;
    for (const std::uint8_t c : lf) {
        if (c == '\n') crlf.push_back('\r');
        crlf.push_back(c);
    }
    ASSERT_GT(crlf.size(), lf.size() + 100); // many lines
    WriteBytes(dir / "crlf.rbxmx", crlf);
    const ImportResult a = ImportFile(dir / "lf.rbxmx");
    const ImportResult b = ImportFile(dir / "crlf.rbxmx");
    ASSERT_TRUE(a) << a.error;
    ASSERT_TRUE(b) << b.error;
    EXPECT_GT(a.scene->mNumMeshes, 0u);
    EXPECT_EQ(b.scene->mNumMeshes, a.scene->mNumMeshes);
    EXPECT_EQ(b.scene->mNumMaterials, a.scene->mNumMaterials);
    EXPECT_EQ(NodeNames(*b.scene->mRootNode), NodeNames(*a.scene->mRootNode));
    EXPECT_EQ(AllVertices(*b.scene), AllVertices(*a.scene));
}

TEST(Paths, AssetFolderListsUseSemicolonsEvenWithDriveLetters) {
    // GAMEFMT_RBX_ASSET_DIR / --asset-dir lists folders with ';' on every platform, so "C:\\a;D:\\b" works on
    // Windows (a ':' separator would split drive letters). An empty folder first, the real one second, both with
    // spaces and non-ASCII letters: the place's mesh assets come from the second.
    const fs::path dir = UnicodeDir("paths_assets");
    const fs::path empty = dir / "empty one", assets = dir / PathFromUtf8("\xC3\xA0ssets");
    fs::create_directories(empty);
    fs::copy(TestDataDir() / "rbx-assets", assets, fs::copy_options::recursive);
    std::string list = PathToUtf8(empty) + ";" + PathToUtf8(assets);
#ifdef _WIN32
    std::replace(list.begin(), list.end(), '/', '\\');
#endif
    const std::string place = PathToUtf8(TestDataDir() / "asset-place.rbxl");
    // The place names 6 mesh assets; testdata/rbx-assets holds 3 of them as files of their own (the other MeshParts
    // stay placeholders by design: one missing, the rest resolved in other ways).
    const CliResult with = Cli({"info", place, "--asset-dir", list, "-v"});
    ASSERT_EQ(with.code, 0) << with.err;
    EXPECT_NE(with.err.find("3 mesh asset(s) loaded from the asset folders"), std::string::npos) << with.err;
    EXPECT_NE(with.err.find(" 1 MeshPart(s), FileMesh(es) or union(s) drawn as placeholder"), std::string::npos)
        << with.err;
    const CliResult without = Cli({"info", place, "--asset-dir", PathToUtf8(empty), "-v"});
    ASSERT_EQ(without.code, 0) << without.err;
    EXPECT_EQ(without.err.find("loaded from the asset folders"), std::string::npos) << without.err;
    EXPECT_NE(without.err.find(" 6 MeshPart(s), FileMesh(es) or union(s) drawn as placeholder"), std::string::npos)
        << without.err;
}

#ifdef _WIN32
TEST(Paths, WindowsDriveLettersAndBackslashes) {
    // Under Wine the test folders are Z:/... (tests/CMakeLists.txt); spelled with backslashes only, as Windows
    // users type them. gamefmt keeps a path as given: messages show the backslashes, outputs land beside inputs.
    std::string cube = PathToUtf8(TestDataDir() / "cube.obj");
    std::replace(cube.begin(), cube.end(), '/', '\\');
    ASSERT_EQ(cube.substr(1, 2), ":\\") << cube;
    std::string out = PathToUtf8(ScratchDir("paths_backslash") / "cube.glb");
    std::replace(out.begin(), out.end(), '/', '\\');
    const CliResult run = Cli({"export", cube, out, "-q"});
    ASSERT_EQ(run.code, 0) << run.err;
    EXPECT_TRUE(fs::is_regular_file(PathFromUtf8(out)));
    const std::string missing = cube.substr(0, cube.size() - 8) + "missing.obj";
    const CliResult bad = Cli({"info", missing});
    EXPECT_NE(bad.code, 0);
    EXPECT_NE(bad.err.find("'" + missing + "'"), std::string::npos) << bad.err;
}
#endif

} // namespace
} // namespace gamefmt::test
