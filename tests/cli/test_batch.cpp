// `gamefmt convert` on whole archives (issue #29, docs/batch.md): directories walked with --include/--exclude,
// --from-list, outputs that are never overwritten without --force and never half-written (a run killed in the
// middle of a file), the manifest and --resume (each file converted exactly once), --shard K/N.
#include "batch_inputs.hpp"
#include "cli.hpp"
#include "manifest.hpp"
#include "staged_io.hpp"

#include "cli/mini_json.hpp"
#include "cli/run_cli.hpp"
#include "common/sha256.hpp"
#include "support/import_helpers.hpp"

#include <assimp/IOStream.hpp>
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#ifdef _WIN32
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>
#endif

namespace gamefmt::test {
namespace {

namespace fs = std::filesystem;

std::string LastLine(const std::string &text) {
    std::string t = text;
    while (!t.empty() && t.back() == '\n') t.pop_back();
    const std::size_t nl = t.rfind('\n');
    return nl == std::string::npos ? t : t.substr(nl + 1);
}

std::vector<std::string> Lines(const fs::path &file) {
    std::ifstream in(file, std::ios::binary);
    std::vector<std::string> out;
    for (std::string line; std::getline(in, line);) out.push_back(line);
    return out;
}

std::string Magic(const fs::path &file) {
    const std::vector<std::uint8_t> bytes = ReadBytes(file);
    return bytes.size() >= 4 ? std::string(bytes.begin(), bytes.begin() + 4) : std::string();
}

void Put(const fs::path &file, const std::string &text) {
    fs::create_directories(file.parent_path());
    WriteBytes(file, std::vector<std::uint8_t>(text.begin(), text.end()));
}

void CopyIn(const fs::path &from, const fs::path &to) {
    fs::create_directories(to.parent_path());
    fs::copy_file(from, to, fs::copy_options::overwrite_existing);
}

fs::path Cube() {
    return TestDataDir() / "cube.obj";
}

// Every file below `dir`, '/'-separated and relative, sorted.
std::vector<std::string> Tree(const fs::path &dir) {
    std::vector<std::string> out;
    for (const auto &e : fs::recursive_directory_iterator(dir))
        if (e.is_regular_file()) out.push_back(e.path().lexically_relative(dir).generic_string());
    std::sort(out.begin(), out.end());
    return out;
}

std::string HexSha(const fs::path &file) {
    const std::vector<std::uint8_t> bytes = ReadBytes(file);
    Sha256 h;
    h.update(bytes.data(), bytes.size());
    return h.hexDigest();
}

// The oracle for --shard: FNV-1a 64 (offset basis 14695981039346656037, prime 1099511628211) of the path.
// (docs/batch.md: '\\' counts as '/', so Windows and Linux workers agree).
std::uint64_t Fnv1a(const std::string &text) {
    std::uint64_t h = 0xcbf29ce484222325ull;
    for (unsigned char c : text) h = (h ^ (c == '\\' ? '/' : c)) * 0x100000001b3ull;
    return h;
}

TEST(Batch, GlobsMatchNamesAndPaths) {
    using cli::GlobMatch;
    EXPECT_TRUE(GlobMatch("*.mesh", "a/b/c.mesh"));      // no '/': the file name alone
    EXPECT_TRUE(GlobMatch("*.ROB", "fxart/barrel.rob")); // ASCII case-insensitive
    EXPECT_FALSE(GlobMatch("*.mesh", "a/b/c.mesh.bak"));
    EXPECT_TRUE(GlobMatch("a/*.mesh", "a/c.mesh"));
    EXPECT_FALSE(GlobMatch("a/*.mesh", "a/b/c.mesh"));     // '*' stops at '/'
    EXPECT_TRUE(GlobMatch("a/**/c.mesh", "a/c.mesh"));     // "**/": no folder …
    EXPECT_TRUE(GlobMatch("a/**/c.mesh", "a/b/d/c.mesh")); // … or any number
    EXPECT_TRUE(GlobMatch("**", "x/y/z"));
    EXPECT_TRUE(GlobMatch("v?.[0-9]*", "v1.5x"));
    EXPECT_FALSE(GlobMatch("v?.[!0-9]*", "v1.5x"));
    EXPECT_TRUE(GlobMatch("b/**", "b\\c\\d.obj")); // Windows separators read as '/'
    EXPECT_FALSE(GlobMatch("b/**", "ab/c.obj"));
}

TEST(Batch, ShardsAreFnv1aOfThePath) {
    std::uint32_t k = 0, n = 0;
    ASSERT_TRUE(cli::ParseShard("3/8", k, n));
    EXPECT_EQ(k, 3u);
    EXPECT_EQ(n, 8u);
    for (const char *bad : {"8/8", "1/0", "/2", "1/", "a/2", "1/2/3", "-1/2", "1/2000000"})
        EXPECT_FALSE(cli::ParseShard(bad, k, n)) << bad;
    for (const char *path : {"", "a", "assets/123.mesh", "x/y/\xc3\xa9.rbxl"})
        EXPECT_EQ(cli::ShardHash(path), Fnv1a(path)) << path;
    EXPECT_EQ(cli::ShardHash("a\\b"), cli::ShardHash("a/b"));
}

TEST(Batch, DirectoriesAreWalkedWithIncludeAndExclude) {
    const fs::path dir = ScratchDir("batch_walk");
    CopyIn(Cube(), dir / "in/a/x.obj");
    CopyIn(Cube(), dir / "in/b/x.obj");
    CopyIn(Cube(), dir / "in/b/c/y.OBJ");
    CopyIn(TestDataDir() / "skinned-bar.mesh", dir / "in/z.mesh");
    Put(dir / "in/notes.txt", "not a model");
    Put(dir / "in/noext", "not a model either");
    const std::string in = (dir / "in").string();

    // No --include: every file whose extension an importer claims, at its path below the directory.
    const CliResult all = Cli({"convert", in, "-o", (dir / "all").string(), "-q"});
    ASSERT_EQ(all.code, cli::kExitOk) << all.out << all.err;
    EXPECT_EQ(LastLine(all.out), "4 passed, 0 failed");
    EXPECT_EQ(Tree(dir / "all"), (std::vector<std::string>{"a/x.glb", "b/c/y.glb", "b/x.glb", "z.glb"}));
    EXPECT_NE(all.out.find("] ok   "), std::string::npos);
    EXPECT_EQ(all.out.find("/4]"), std::string::npos) << "the count of a walk is not known up front";

    const CliResult some =
        Cli({"convert", in, "-o", (dir / "some").string(), "--include", "*.obj", "--exclude", "b/c/**", "-q"});
    ASSERT_EQ(some.code, cli::kExitOk) << some.err;
    EXPECT_EQ(Tree(dir / "some"), (std::vector<std::string>{"a/x.glb", "b/x.glb"}));
    // An --include that matches a file no importer reads makes it an input: it fails, named.
    const CliResult odd = Cli({"convert", in, "-o", (dir / "odd").string(), "--include", "notes.*", "-q"});
    EXPECT_EQ(odd.code, cli::kExitBadInput);
    EXPECT_NE(odd.err.find("notes.txt"), std::string::npos) << odd.err;
}

TEST(Batch, ListsAreReadLineByLine) {
    const fs::path dir = ScratchDir("batch_list");
    CopyIn(Cube(), dir / "in/one.obj");
    CopyIn(Cube(), dir / "in/two.obj");
    CopyIn(Cube(), dir / "in/sub/three.obj");
    const fs::path list = dir / "list.txt";
    // CRLF, a blank line, a directory (walked) and a path that does not exist.
    Put(list, (dir / "in/one.obj").string() + "\r\n\r\n" + (dir / "in/two.obj").string() + "\n" +
                  (dir / "in/sub").string() + "\n" + (dir / "in/missing.obj").string() + "\n");
    const CliResult run = Cli({"convert", "--from-list", list.string(), "-o", (dir / "out").string(), "-k", "-q"});
    EXPECT_EQ(run.code, cli::kExitBadInput);
    EXPECT_EQ(LastLine(run.out), "3 passed, 1 failed") << run.out;
    EXPECT_NE(run.err.find("FAIL " + (dir / "in/missing.obj").string() + ": "), std::string::npos) << run.err;
    EXPECT_EQ(Tree(dir / "out"), (std::vector<std::string>{"one.glb", "three.glb", "two.glb"}));
    EXPECT_EQ(Cli({"convert", "--from-list", (dir / "nope.txt").string()}).code, cli::kExitBadInput);
}

// Lists made on Windows: UTF-8 with a byte order mark is read; UTF-16 (Windows PowerShell 5's `>`) is refused once,
// with what to do, instead of one "no such file" per garbled line.
TEST(Batch, ListsWithAByteOrderMark) {
    const fs::path dir = ScratchDir("batch_list_bom");
    CopyIn(Cube(), dir / "in/one.obj");
    Put(dir / "utf8.txt", "\xEF\xBB\xBF" + (dir / "in/one.obj").string() + "\r\n");
    const CliResult utf8 = Cli({"convert", "--from-list", (dir / "utf8.txt").string(), "-o", (dir / "out").string()});
    EXPECT_EQ(utf8.code, cli::kExitOk) << utf8.err;
    EXPECT_EQ(Tree(dir / "out"), (std::vector<std::string>{"one.glb"}));

    std::string utf16 = "\xFF\xFE";
    for (const char c : (dir / "in/one.obj").string() + "\r\n" + (dir / "in/one.obj").string() + "\r\n") {
        utf16 += c;
        utf16 += '\0';
    }
    Put(dir / "utf16.txt", utf16);
    const CliResult refused =
        Cli({"convert", "--from-list", (dir / "utf16.txt").string(), "-o", (dir / "out16").string(), "-k"});
    EXPECT_EQ(refused.code, cli::kExitBadInput);
    EXPECT_EQ(LastLine(refused.out), "0 passed, 1 failed") << refused.out;
    EXPECT_NE(
        refused.err.find("is UTF-16 text; write it as UTF-8, one path per line (PowerShell: Out-File -Encoding utf8)"),
        std::string::npos)
        << refused.err;
    EXPECT_FALSE(fs::exists(dir / "out16/one.glb"));
}

TEST(Batch, OutputsAreNotOverwrittenWithoutForce) {
    const fs::path dir = ScratchDir("batch_force");
    CopyIn(Cube(), dir / "in/cube.obj");
    Put(dir / "out/cube.glb", "old!");
    const std::vector<std::string> base = {"convert", (dir / "in/cube.obj").string(), "-o", (dir / "out").string()};
    const CliResult skip = Cli(base);
    EXPECT_EQ(skip.code, cli::kExitOk) << skip.err;
    EXPECT_EQ(LastLine(skip.out), "0 passed, 0 failed, 1 skipped (outputs exist)");
    EXPECT_NE(skip.out.find("exists (use --force to overwrite)"), std::string::npos) << skip.out;
    EXPECT_EQ(Magic(dir / "out/cube.glb"), "old!");

    std::vector<std::string> forced = base;
    forced.push_back("--force");
    const CliResult force = Cli(forced);
    EXPECT_EQ(force.code, cli::kExitOk) << force.err;
    EXPECT_EQ(Magic(dir / "out/cube.glb"), "glTF");
    EXPECT_FALSE(fs::exists(dir / "out/cube.glb.gamefmt-partial"));
}

TEST(Batch, AFailedExportLeavesNoFile) {
    const fs::path dir = ScratchDir("batch_failed_export");
    // rbxanim needs a rig (--rbx-animation-rig): the export fails, and no file is left, final or partial.
    const CliResult run = Cli({"convert", Cube().string(), "-o", dir.string(), "-f", "rbxanim", "-q"});
    EXPECT_EQ(run.code, cli::kExitBadInput);
    EXPECT_TRUE(Tree(dir).empty()) << ::testing::PrintToString(Tree(dir));
}

// The staging itself: files written through it exist only as NAME.gamefmt-partial until commit() renames them all
// (replacing what was there); discard() removes them.
TEST(Batch, StagedFilesAppearOnlyWhenCommitted) {
    const fs::path dir = ScratchDir("batch_staged");
    const std::string main = (dir / "scene.gltf").string(), side = (dir / "scene.bin").string();
    Put(main, "old");
    const auto write = [](cli::StagedIOSystem &io, const std::string &path, const std::string &text) {
        Assimp::IOStream *s = io.Open(path.c_str(), "wb");
        ASSERT_NE(s, nullptr);
        s->Write(text.data(), 1, text.size());
        io.Close(s);
    };
    cli::StagedIOSystem io;
    write(io, main, "new main");
    write(io, side, "new side");
    EXPECT_EQ(Tree(dir),
              (std::vector<std::string>{"scene.bin.gamefmt-partial", "scene.gltf", "scene.gltf.gamefmt-partial"}));
    const std::vector<std::uint8_t> before = ReadBytes(main);
    EXPECT_EQ(std::string(before.begin(), before.end()), "old"); // untouched until commit
    EXPECT_EQ(io.outputs(), (std::vector<std::string>{main, side}));
    EXPECT_EQ(io.commit(), "");
    EXPECT_EQ(Tree(dir), (std::vector<std::string>{"scene.bin", "scene.gltf"}));
    const std::vector<std::uint8_t> bytes = ReadBytes(main);
    EXPECT_EQ(std::string(bytes.begin(), bytes.end()), "new main");

    write(io, (dir / "gone.glb").string(), "x");
    io.discard();
    EXPECT_EQ(Tree(dir), (std::vector<std::string>{"scene.bin", "scene.gltf"}));
}

// Sidecar files are staged with their main file: a .gltf and its .bin appear together, and the manifest lists both.
TEST(Batch, SidecarsAreStagedAndListed) {
    const fs::path dir = ScratchDir("batch_sidecars");
    const fs::path manifest = dir / "m.jsonl";
    const CliResult run = Cli({"convert", Cube().string(), "-o", (dir / "out").string(), "-f", "gamefmt-gltf", "-q",
                               "--manifest", manifest.string()});
    ASSERT_EQ(run.code, cli::kExitOk) << run.err;
    EXPECT_EQ(Tree(dir / "out"), (std::vector<std::string>{"cube.bin", "cube.gltf"}));
    const std::vector<std::string> lines = Lines(manifest);
    ASSERT_EQ(lines.size(), 1u);
    cli::ManifestEntry e;
    ASSERT_TRUE(cli::ParseManifestLine(lines[0], e));
    std::vector<std::string> outputs = e.outputs;
    std::sort(outputs.begin(), outputs.end());
    EXPECT_EQ(outputs,
              (std::vector<std::string>{(dir / "out" / "cube.bin").string(), (dir / "out" / "cube.gltf").string()}));
}

struct Line {
    std::string input, sha256, status, error;
    double size = -1, warnings = -1, ms = -1;
    std::vector<std::string> outputs;
};

std::vector<Line> Manifest(const fs::path &file) {
    std::vector<Line> out;
    for (const std::string &text : Lines(file)) {
        json::Parser parser(text);
        const std::optional<json::Value> v = parser.parse();
        EXPECT_TRUE(v.has_value()) << text;
        if (!v) continue;
        Line l;
        l.input = v->get("input")->text;
        l.size = v->get("size")->number;
        l.sha256 = v->get("sha256")->text;
        l.status = v->get("status")->text;
        l.error = v->get("error")->text;
        l.warnings = v->get("warnings")->number;
        l.ms = v->get("ms")->number;
        for (const json::Value &o : v->get("outputs")->items) l.outputs.push_back(o.text);
        out.push_back(l);
    }
    return out;
}

TEST(Batch, ManifestSaysWhatHappenedToEachInput) {
    const fs::path dir = ScratchDir("batch_manifest");
    const fs::path cube = dir / "in/cube.obj", broken = dir / "in/broken.mesh";
    CopyIn(Cube(), cube);
    Put(broken, "version 9.99\nnot a mesh");
    const fs::path manifest = dir / "m.jsonl";
    const CliResult run = Cli({"convert", cube.string(), broken.string(), "-o", (dir / "out").string(), "-k", "-j", "1",
                               "-q", "--manifest", manifest.string()});
    EXPECT_EQ(run.code, cli::kExitBadInput);
    const std::vector<Line> lines = Manifest(manifest);
    ASSERT_EQ(lines.size(), 2u);
    EXPECT_EQ(lines[0].input, cube.string());
    EXPECT_EQ(lines[0].status, "ok");
    EXPECT_EQ(lines[0].size, static_cast<double>(fs::file_size(cube)));
    EXPECT_EQ(lines[0].sha256, HexSha(cube));
    EXPECT_EQ(lines[0].error, "");
    EXPECT_EQ(lines[0].warnings, 0);
    EXPECT_EQ(lines[0].outputs, std::vector<std::string>{(dir / "out" / "cube.glb").string()});
    EXPECT_GE(lines[0].ms, 0);
    EXPECT_EQ(lines[1].input, broken.string());
    EXPECT_EQ(lines[1].status, "error");
    EXPECT_NE(lines[1].error.find("cannot import"), std::string::npos) << lines[1].error;
    EXPECT_TRUE(lines[1].outputs.empty());
    EXPECT_EQ(lines[1].sha256, HexSha(broken));

    // Warnings are counted whether they are shown or not (-q): the Redguard model without its palette and texture
    // bank warns twice (no palette; TEXBSI.376 not found).
    const fs::path rg = dir / "in/rg.3dc";
    CopyIn(TestDataDir() / "rg-animated.3dc", rg);
    const fs::path second = dir / "m2.jsonl";
    ASSERT_EQ(Cli({"convert", rg.string(), "-o", (dir / "out").string(), "-q", "--manifest", second.string()}).code,
              cli::kExitOk);
    const std::vector<Line> warned = Manifest(second);
    ASSERT_EQ(warned.size(), 1u);
    EXPECT_EQ(warned[0].warnings, 2);

    // The same line through the codec: written, read back equal.
    cli::ManifestEntry e;
    e.input = "dir/é \"q\"\n.mesh";
    e.size = 12345678901ull;
    e.sha256 = std::string(64, 'a');
    e.status = cli::ManifestStatus::Skipped;
    e.outputs = {"o/1.glb", "o/2.bin"};
    e.warnings = 3;
    e.ms = 17;
    const std::string text = cli::ManifestLine(e);
    EXPECT_EQ(text.find('\n'), std::string::npos);
    cli::ManifestEntry back;
    ASSERT_TRUE(cli::ParseManifestLine(text, back));
    EXPECT_EQ(back.input, e.input);
    EXPECT_EQ(back.status, cli::ManifestStatus::Skipped);
    EXPECT_EQ(back.size, e.size);
    EXPECT_EQ(back.outputs, e.outputs);
    EXPECT_EQ(back.warnings, 3u);
    EXPECT_FALSE(cli::ParseManifestLine(text.substr(0, text.size() / 2), back)); // cut by a kill
    std::string foreign = text;
    foreign.replace(foreign.find("\"skipped\""), 9, "\"maybe\"");
    EXPECT_FALSE(cli::ParseManifestLine(foreign, back)); // a status this program never writes
}

TEST(Batch, ResumeConvertsWhatIsNotDone) {
    const fs::path dir = ScratchDir("batch_resume");
    const fs::path manifest = dir / "m.jsonl", out = dir / "out";
    std::vector<std::string> args = {"convert", "-o", out.string(), "-j", "1", "-q", "--manifest", manifest.string()};
    for (const char *name : {"a", "b", "c"}) {
        CopyIn(Cube(), dir / "in" / (std::string(name) + ".obj"));
        args.push_back((dir / "in" / (std::string(name) + ".obj")).string());
    }
    ASSERT_EQ(Cli(args).code, cli::kExitOk);
    ASSERT_EQ(Manifest(manifest).size(), 3u);
    // b's output is lost, c changes (a comment line: other bytes, same cube); a stays as it was.
    fs::remove(out / "b.glb");
    {
        std::ofstream c(dir / "in/c.obj", std::ios::app | std::ios::binary);
        c << "# changed\n";
    }
    args.push_back("--resume");
    const CliResult resumed = Cli(args);
    ASSERT_EQ(resumed.code, cli::kExitOk) << resumed.err;
    EXPECT_EQ(LastLine(resumed.out), "2 passed, 0 failed, 1 already done") << resumed.out;
    EXPECT_NE(resumed.out.find("skip " + (dir / "in" / "a.obj").string() + ": converted by an earlier run"),
              std::string::npos)
        << resumed.out;
    const std::vector<Line> lines = Manifest(manifest);
    ASSERT_EQ(lines.size(), 5u);
    EXPECT_EQ(lines[3].input, (dir / "in" / "b.obj").string()); // as the arguments named them
    EXPECT_EQ(lines[4].input, (dir / "in" / "c.obj").string());
    EXPECT_EQ(lines[4].sha256, HexSha(dir / "in" / "c.obj")); // c's output was ours: replaced without --force
    EXPECT_EQ(Magic(out / "b.glb"), "glTF");
    // Everything done: nothing more to do.
    EXPECT_EQ(LastLine(Cli(args).out), "0 passed, 0 failed, 3 already done");
    EXPECT_EQ(Cli({"convert", Cube().string(), "--resume"}).code, cli::kExitUsage); // --resume needs --manifest
}

// A manifest whose last line was cut (a run killed while writing it, a power cut): the next run starts on a new line,
// so the cut line is the only one lost and what the next run converts is remembered.
TEST(Batch, ResumeAfterACutManifestLine) {
    const fs::path dir = ScratchDir("batch_resume_cut");
    const fs::path manifest = dir / "m.jsonl", out = dir / "out";
    std::vector<std::string> args = {"convert", "-o", out.string(), "-j", "1", "-q", "--manifest", manifest.string()};
    for (const char *name : {"a", "b"}) {
        CopyIn(Cube(), dir / "in" / (std::string(name) + ".obj"));
        args.push_back((dir / "in" / (std::string(name) + ".obj")).string());
    }
    args.push_back("--resume");
    ASSERT_EQ(Cli(args).code, cli::kExitOk);
    const std::vector<std::string> written = Lines(manifest);
    ASSERT_EQ(written.size(), 2u);
    Put(manifest, written[0] + "\n" + written[1].substr(0, written[1].size() / 2)); // b's line cut, no newline
    fs::remove(out / "b.glb");

    const CliResult resumed = Cli(args);
    ASSERT_EQ(resumed.code, cli::kExitOk) << resumed.err;
    EXPECT_EQ(LastLine(resumed.out), "1 passed, 0 failed, 1 already done") << resumed.out;
    EXPECT_NE(resumed.err.find("1 line(s)"), std::string::npos) << resumed.err;
    const std::vector<std::string> after = Lines(manifest);
    ASSERT_EQ(after.size(), 3u);
    EXPECT_EQ(after[1], written[1].substr(0, written[1].size() / 2));
    cli::ManifestEntry b;
    ASSERT_TRUE(cli::ParseManifestLine(after[2], b));
    EXPECT_EQ(b.input, (dir / "in" / "b.obj").string());
    EXPECT_EQ(LastLine(Cli(args).out), "0 passed, 0 failed, 2 already done");
}

TEST(Batch, ShardsSplitTheInputsWithoutOverlap) {
    const fs::path dir = ScratchDir("batch_shard");
    std::vector<std::string> names;
    for (int i = 0; i < 12; ++i) {
        names.push_back("f" + std::to_string(i) + ".obj");
        CopyIn(Cube(), dir / "in" / names.back());
    }
    const std::string in = (dir / "in").string();
    std::set<std::string> seen;
    for (int k = 0; k < 3; ++k) {
        const fs::path out = dir / ("out" + std::to_string(k));
        const CliResult run = Cli({"convert", in, "-o", out.string(), "--shard", std::to_string(k) + "/3", "-q"});
        ASSERT_EQ(run.code, cli::kExitOk) << run.err;
        std::vector<std::string> expected;
        for (const std::string &n : names) // the walked path: the directory as given, '/', the path below it
            if (Fnv1a(in + "/" + n) % 3 == static_cast<std::uint64_t>(k))
                expected.push_back(n.substr(0, n.size() - 4) + ".glb");
        std::sort(expected.begin(), expected.end());
        const std::vector<std::string> got = fs::exists(out) ? Tree(out) : std::vector<std::string>{};
        EXPECT_EQ(got, expected) << k;
        for (const std::string &g : got) EXPECT_TRUE(seen.insert(g).second) << g << " in two shards";
    }
    EXPECT_EQ(seen.size(), names.size());
    EXPECT_EQ(Cli({"convert", in, "--shard", "3/3"}).code, cli::kExitUsage);
}

#if defined(GAMEFMT_HAVE_CLI)
// Runs the real gamefmt with GAMEFMT_TEST_HOLD_OUTPUT=3 (it parks in its third staged file after the first write)
// and kills it there without warning: SIGKILL from sh on Linux, TerminateProcess on Windows.
void RunAndKillInThirdFile(const std::vector<std::string> &args, const fs::path &partial, const fs::path &dir) {
#ifdef _WIN32
    std::wstring line = L"\"" + fs::u8path(GAMEFMT_CLI_EXE).wstring() + L"\"";
    for (const std::string &a : args) line += L" \"" + fs::u8path(a).wstring() + L"\"";
    ASSERT_TRUE(SetEnvironmentVariableW(L"GAMEFMT_TEST_HOLD_OUTPUT", L"3"));
    STARTUPINFOW startup{};
    startup.cb = sizeof startup;
    PROCESS_INFORMATION process{};
    const BOOL started = CreateProcessW(nullptr, line.data(), nullptr, nullptr, FALSE, CREATE_NO_WINDOW, nullptr,
                                        nullptr, &startup, &process);
    SetEnvironmentVariableW(L"GAMEFMT_TEST_HOLD_OUTPUT", nullptr);
    ASSERT_TRUE(started);
    for (int i = 0; i < 600 && !fs::exists(partial); ++i) Sleep(50);
    TerminateProcess(process.hProcess, 9);
    WaitForSingleObject(process.hProcess, INFINITE);
    CloseHandle(process.hThread);
    CloseHandle(process.hProcess);
    (void)dir;
#else
    std::ofstream script(dir / "kill.sh");
    script << "GAMEFMT_TEST_HOLD_OUTPUT=3 '" << GAMEFMT_CLI_EXE << "'";
    for (const std::string &a : args) script << " '" << a << "'";
    script << " >/dev/null 2>&1 &\npid=$!\ni=0\nwhile [ ! -e '" << partial.string()
           << "' ] && [ $i -lt 600 ]; do sleep 0.05; i=$((i+1)); done\n"
           << "{ kill -9 $pid; wait $pid; } 2>/dev/null\nexit 0\n";
    script.close();
    ASSERT_EQ(std::system(("sh '" + (dir / "kill.sh").string() + "'").c_str()), 0);
#endif
}

// A run killed (SIGKILL; on Windows TerminateProcess) while it writes its third file leaves that file only under its
// .gamefmt-partial name; --resume then converts exactly the three files not done, each once, and the outputs equal
// a fresh run's.
TEST(Batch, AKilledRunResumesAndConvertsEachFileOnce) {
    const fs::path dir = ScratchDir("batch_kill");
    const fs::path out = dir / "out", manifest = dir / "m.jsonl";
    std::vector<std::string> inputs;
    for (const char *name : {"a", "b", "c", "d", "e"}) {
        inputs.push_back((dir / "in" / (std::string(name) + ".obj")).string());
        CopyIn(Cube(), inputs.back());
    }
    const fs::path partial = out / ("c.glb" + std::string(".gamefmt-partial"));
    std::vector<std::string> killed = {"convert", "-j", "1", "-q", "-o", out.string(), "--manifest", manifest.string()};
    killed.insert(killed.end(), inputs.begin(), inputs.end());
    RunAndKillInThirdFile(killed, partial, dir);

    EXPECT_EQ(Tree(out), (std::vector<std::string>{"a.glb", "b.glb", "c.glb.gamefmt-partial"}));
    EXPECT_EQ(Manifest(manifest).size(), 2u);

    std::vector<std::string> args = {"convert",         "-j",      "1", "-q", "-o", out.string(), "--manifest",
                                     manifest.string(), "--resume"};
    args.insert(args.end(), inputs.begin(), inputs.end());
    const CliResult resumed = Cli(args);
    ASSERT_EQ(resumed.code, cli::kExitOk) << resumed.err;
    EXPECT_EQ(LastLine(resumed.out), "3 passed, 0 failed, 2 already done");
    EXPECT_EQ(Tree(out), (std::vector<std::string>{"a.glb", "b.glb", "c.glb", "d.glb", "e.glb"}));
    std::multiset<std::string> converted;
    for (const Line &l : Manifest(manifest)) {
        EXPECT_EQ(l.status, "ok") << l.input;
        converted.insert(l.input);
    }
    EXPECT_EQ(converted, std::multiset<std::string>(inputs.begin(), inputs.end())); // each exactly once
    const CliResult fresh = Cli({"convert", inputs[2], "-q", "-o", (dir / "fresh").string()});
    ASSERT_EQ(fresh.code, cli::kExitOk);
    EXPECT_EQ(ReadBytes(out / "c.glb"), ReadBytes(dir / "fresh/c.glb"));
}

// --from-list - reads standard input (the real program, its standard input redirected from a file; on Windows
// through cmd.exe, whose quoting wants the whole line in one more pair of quotes).
TEST(Batch, ListFromStandardInput) {
    const fs::path dir = ScratchDir("batch_stdin");
    CopyIn(Cube(), dir / "in/p.obj");
    Put(dir / "list.txt", (dir / "in/p.obj").string() + "\r\n");
#ifdef _WIN32
    const std::string command = "\"\"" + std::string(GAMEFMT_CLI_EXE) + "\" convert --from-list - -q -o \"" +
                                (dir / "out").string() + "\" < \"" + (dir / "list.txt").string() + "\" > NUL 2>&1\"";
#else
    const std::string command = std::string("'") + GAMEFMT_CLI_EXE + "' convert --from-list - -q -o '" +
                                (dir / "out").string() + "' < '" + (dir / "list.txt").string() + "' >/dev/null 2>&1";
#endif
    EXPECT_EQ(std::system(command.c_str()), 0);
    EXPECT_EQ(Magic(dir / "out/p.glb"), "glTF");
}
#endif

} // namespace
} // namespace gamefmt::test
