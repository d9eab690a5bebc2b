// RunCli: the verb table, dispatch, help and version. The verbs live one file each (see verbs.hpp).
#include "cli.hpp"

#include "options.hpp"
#include "verbs.hpp"

#include "common/utf8_path.hpp"
#include "gamefmt/gamefmt.hpp"

#include <assimp/version.h>

#include <cctype>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <ostream>
#include <sstream>

#ifndef GAMEFMT_PRELOAD_INSTALLED
#define GAMEFMT_PRELOAD_INSTALLED ""
#endif
#ifndef GAMEFMT_PRELOAD_BUILT
#define GAMEFMT_PRELOAD_BUILT ""
#endif

namespace gamefmt::cli {
namespace {

int RunHelp(const Args &args, std::ostream &out, std::ostream &err);
int RunVersion(const Args &args, std::ostream &out, std::ostream &err);
int RunPreloadPath(const Args &args, std::ostream &out, std::ostream &err);

struct Verb {
    const char *name;
    const char *synopsis;
    const char *summary;
    const char *details; // extra lines for `help VERB`, or ""
    unsigned flagGroups; // shared flags the verb accepts (help lists them)
    int (*run)(const Args &, std::ostream &, std::ostream &);
};

const Verb kVerbs[] = {
    {"info", "info FILE [-r] [-v] [-s] [--json]", "import FILE and describe the scene",
     "  -r, --raw      no post-processing (default: the MaxQuality preset, or the steps given)\n"
     "  -v, --verbose  also node transforms and metadata (and Assimp's verbose log)\n"
     "  -s, --silent   statistics only\n"
     "  --json         the same as one JSON object\n"
     "Scenes without geometry (AI_SCENE_FLAGS_INCOMPLETE) are never post-processed.\n",
     kPostProcessFlags | kPropertyFlags | kLogFlags, RunInfo},
    {"export", "export IN [OUT] [-f ID]", "convert one file",
     "  -f ID, -fID, --format ID  export format id (see listexport); without it the format comes from\n"
     "                            OUT's extension, gamefmt's own formats first. Without OUT, IN's name\n"
     "                            with the format's extension.\n"
     "IN is imported raw unless post-processing steps are given.\n",
     kPostProcessFlags | kPropertyFlags | kLogFlags, RunExport},
    {"convert", "convert IN|DIR... [--from-list FILE] [-o DIR] [-f ID] [-j N] [-k] [--manifest FILE] [--resume]",
     "convert many files (default gamefmt-glb)",
     "  -o DIR, --output DIR      write DIR/<stem>.<ext> (default: beside each input); files found in a\n"
     "                            directory keep their path below it\n"
     "  -f ID, --format ID        export format id (default gamefmt-glb;\n"
     "                            Assimp's own glTF writer: glb2)\n"
     "  -j N, --jobs N            worker threads (default: CPU count, at most one per input)\n"
     "  -k, --keep-going          convert the rest after a failure\n"
     "  --from-list FILE          also convert the paths in FILE, one per line ('-': standard input)\n"
     "  --include GLOB            from directories and lists, only matching files (repeatable; default:\n"
     "                            every extension an importer claims); --exclude GLOB leaves files out.\n"
     "                            '*' '?' '[a-z]' within a name, '**' across folders; without '/' the\n"
     "                            glob matches the file name; ASCII case-insensitive\n"
     "  --force                   overwrite outputs that exist (default: skip those inputs)\n"
     "  --manifest FILE           append one JSON line per input as it finishes (path, size, sha256,\n"
     "                            status, error, warnings, outputs, ms)\n"
     "  --resume                  skip inputs the manifest says were converted (same size and SHA-256,\n"
     "                            outputs still there)\n"
     "  --shard K/N               only the inputs whose path hash falls in shard K of N (0 <= K < N)\n"
     "Inputs are streamed (a list of millions of paths is fine). Every output is written as\n"
     "NAME.gamefmt-partial and renamed when complete. Prints one line per file and\n"
     "'<N> passed, <N> failed'. docs/batch.md: clusters (GNU parallel, Slurm, Kubernetes).\n",
     kPostProcessFlags | kPropertyFlags | kLogFlags, RunConvert},
    {"validate", "validate FILE... [--strict]", "import with validation and report warnings",
     "  --strict       fail (exit 1) on validation warnings and on importer warnings that data was lost\n"
     "                 or guessed (truncated or skipped blocks, lost LODs, unresolved references); Roblox\n"
     "                 scenes also check that every generated part shows a mesh of its own size and a\n"
     "                 material of its own look (without post-processing steps)\n"
     "Steps given are applied after the import and re-validated after each one.\n",
     kPostProcessFlags | kPropertyFlags | kLogFlags, RunValidate},
    {"extract", "extract FILE [OUT] [-t N] [-s]", "write the embedded textures",
     "  -t N, --texture N   only texture N\n"
     "  -s, --no-suffix     write OUT.<ext> instead of OUT_img<N>.<ext> when one texture is written\n"
     "Compressed textures are written as they are, with their format hint as the extension; uncompressed\n"
     "ones as PNG. OUT defaults to FILE without its extension.\n",
     kPostProcessFlags | kPropertyFlags | kLogFlags, RunExtract},
    {"dump", "dump FILE", "print the instance tree of a Roblox model or place with every property",
     "One line per instance (ClassName \"Name\" [referent], indented by depth), then one line per\n"
     "property: .name = <Type>:<text> (the rbx.props form: e.g. Vector3:1 2 3, CFrame:X Y Z R00..R22).\n",
     kPropertyFlags | kLogFlags, RunDump},
    {"assets", "assets FILE... [--missing | --json] | --where | fetch ...",
     "list the assets a Roblox model or place references; fetch them",
     "One line per asset URI: the URI, its kind (mesh, texture, surface map, texture pack, decal, union, sound,\n"
     "animation, image, sky, clothing, other), whether the asset folders (--asset-dir DIR, repeatable; 'auto':\n"
     "the Roblox installs --where lists) resolve it the way an import would (found PATH, missing, not looked up\n"
     "without folders, not resolvable for schemes such as rbxthumb://) and the instances that use it.\n"
     "  --missing   print only the ids of unresolved assets, one per line (each once)\n"
     "  --json      one JSON object per file (an array of them for several files)\n"
     "  --where     print the Roblox Studio / Player install folders found on this machine\n"
     "\n"
     "assets fetch FILE... --into DIR [--id N] [--from-list F]: downloads every asset id the files reference\n"
     "(and the ids given) into DIR as the importer reads it (N.mesh, N.png, N.rbxm ...), with your own Open\n"
     "Cloud API key (scope legacy-asset:manage) from ROBLOX_API_KEY or --api-key-file, never from the command\n"
     "line. Ids already in DIR are not fetched again. What fetched models and TexturePacks name (a Decal's\n"
     "image, a Shirt's template, a pack's maps) is fetched too. One JSON line per id goes to\n"
     "DIR/.gamefmt-fetch.jsonl. Exit status 0 when every id was fetched or present, 1 otherwise.\n"
     "  --into DIR          the asset folder (made when missing)\n"
     "  --id N              also fetch asset N (repeatable)\n"
     "  --from-list F       also the ids or content URIs in F, one per line ('-': standard input)\n"
     "  --api-key-file F    read the key from F's first line (default: the ROBLOX_API_KEY variable)\n"
     "  --check-key         only check the key (scope, enabled, expiry) and exit\n"
     "  --refresh           fetch ids DIR already has, again\n"
     "  -j N, --jobs N      downloads in flight (1-16, default 4)\n"
     "  --rate N            API requests per minute, at most (1-1000, default 900)\n"
     "  --max-depth N       hops followed from what the files name (0-8, default 3)\n"
     "  --api-base URL      the API's address (default https://apis.roblox.com; mirrors and tests;\n"
     "                      plain http:// only to 127.0.0.1 or localhost)\n"
     "  --ca-file F         verify TLS against the CA certificates in F instead of the system's\n",
     kPropertyFlags | kLogFlags, RunAssets},
    {"formats", "formats", "list the formats gamefmt reads and writes, with extensions and export ids",
     "One line per format family: what it reads (extensions) and writes (export ids for -f).\n", 0, RunFormats},
    {"preload-path", "preload-path",
     "print the path of libgamefmt_preload.so (LD_PRELOAD for unmodified Assimp programs)",
     "Prints the installed library, else the build tree's; exit 1 when neither exists. Use:\n"
     "  LD_PRELOAD=$(gamefmt preload-path) my-assimp-tool ...   (or: gamefmt-assimp ARGS..., the stock assimp)\n",
     0, RunPreloadPath},
    {"listext", "listext", "list the file extensions the importers claim", "", 0, RunListExt},
    {"knowext", "knowext EXT", "tell whether EXT is known, and which loaders claim it",
     "EXT may be given as mesh, .mesh or *.mesh. Exit status 0 when known, 1 when not.\n", 0, RunKnowExt},
    {"listexport", "listexport", "list the export format ids", "", 0, RunListExport},
    {"exportinfo", "exportinfo ID", "print an export format's id, extension and description", "", 0, RunExportInfo},
    {"version", "version", "print the gamefmt and linked Assimp versions", "", 0, RunVersion},
    {"help", "help [VERB | --man | --bash-completion]", "print this help, or one verb's",
     "  --man              the manual page gamefmt(1), in roff (installed as share/man/man1/gamefmt.1)\n"
     "  --bash-completion  the bash completion script (installed as\n"
     "                     share/bash-completion/completions/gamefmt)\n",
     0, RunHelp},
};

const Verb *FindVerb(const std::string &name) {
    for (const Verb &verb : kVerbs)
        if (name == verb.name) return &verb;
    return nullptr;
}

void PrintUsage(std::ostream &out) {
    out << "gamefmt " << gamefmt::Version() << ": game asset formats for Assimp\n\n"
        << "Usage: gamefmt VERB [ARGS...]\n\nVerbs:\n";
    char line[200];
    for (const Verb &verb : kVerbs) {
        std::snprintf(line, sizeof line, "  %-44s %s\n", verb.synopsis, verb.summary);
        out << line;
    }
    out << "\ninfo, export, convert, validate and extract also take post-processing steps, --option NAME=VALUE\n"
           "and logging flags; 'gamefmt help VERB' lists them.\n"
           "Exit status: 0 success, 1 an input failed to import, validate or export, 2 bad command line.\n";
}

void PrintVerbHelp(const Verb &verb, std::ostream &out) {
    std::string summary = verb.summary;
    summary[0] = static_cast<char>(std::toupper(static_cast<unsigned char>(summary[0])));
    out << "Usage: gamefmt " << verb.synopsis << "\n\n" << summary << ".\n";
    if (verb.details[0] != '\0') out << '\n' << verb.details;
    PrintFlagGroupsHelp(out, verb.flagGroups);
}

// roff text: backslashes and hyphens escaped, a leading dot or quote protected.
std::string Roff(const std::string &text) {
    std::string out;
    bool lineStart = true;
    for (char c : text) {
        if (lineStart && (c == '.' || c == '\'')) out += "\\&";
        if (c == '\\')
            out += "\\e";
        else if (c == '-')
            out += "\\-";
        else
            out += c;
        lineStart = c == '\n';
    }
    return out;
}

// gamefmt(1) from the verb table and the flag help: the manual can never miss a verb or a flag.
void PrintManPage(std::ostream &out) {
    out << ".TH GAMEFMT 1 \"\" \"gamefmt " << gamefmt::Version() << "\" \"User Commands\"\n"
        << ".SH NAME\ngamefmt \\- convert game and virtual\\-world 3D formats with Assimp\n"
        << ".SH SYNOPSIS\n.B gamefmt\n.I VERB\n[\\fIARGS\\fR...]\n"
        << ".SH DESCRIPTION\n"
        << Roff("gamefmt reads and writes Roblox meshes (.mesh), Roblox models and places (.rbxm .rbxl .rbxmx "
                ".rbxlx), Second Life mesh assets (.llmesh .slm) and Redguard models and levels (.3d .3dc .rob .rgm "
                ".wld) through "
                "Assimp, and converts them to and from every format Assimp knows (glTF, FBX, OBJ, ...).\n")
        << ".SH VERBS\n";
    for (const Verb &verb : kVerbs) {
        out << ".TP\n.B " << Roff(verb.synopsis) << "\n" << Roff(verb.summary) << ".\n";
        if (verb.details[0] != '\0') out << ".nf\n" << Roff(verb.details) << ".fi\n";
    }
    std::ostringstream flags;
    PrintFlagGroupsHelp(flags, kPostProcessFlags | kPropertyFlags | kLogFlags);
    out << ".SH OPTIONS\n.nf\n"
        << Roff(flags.str()) << ".fi\n"
        << ".SH EXIT STATUS\n0 success; 1 an input failed to import, validate or export; 2 a bad command line.\n"
        << ".SH ENVIRONMENT\n"
        << Roff("ROBLOX_API_KEY: the Open Cloud API key `gamefmt assets fetch` uses (scope legacy-asset:manage), "
                "unless --api-key-file is given. https_proxy, HTTPS_PROXY, ALL_PROXY, NO_PROXY: proxies for "
                "`gamefmt assets fetch`, as for curl. LOCALAPPDATA, HOME, XDG_DATA_HOME: where `--asset-dir auto` "
                "and `gamefmt assets --where` look for Roblox installs.\n")
        << ".SH EXAMPLES\n.nf\n"
        << Roff("gamefmt export place.rbxl place.glb --asset-dir ~/rbx-assets\n"
                "gamefmt convert assets/*.mesh -o out/ -j 2 --keep-going\n"
                "gamefmt convert --from-list paths.txt -o out/ -k --manifest m.jsonl --resume --shard 0/4\n"
                "gamefmt assets place.rbxl --asset-dir ~/rbx-assets --missing\n"
                "ROBLOX_API_KEY=... gamefmt assets fetch place.rbxl --into ~/rbx-assets\n"
                "gamefmt export scene.glb scene.rbxl\n")
        << ".fi\n.SH SEE ALSO\n"
        << Roff("assimp(1); the documentation in /usr/share/doc/gamefmt and https://github.com (docs/).\n");
}

// A bash completion script: verbs first, then every flag the verbs share, and file names.
void PrintBashCompletion(std::ostream &out) {
    std::string verbs;
    for (const Verb &verb : kVerbs) verbs += std::string(verbs.empty() ? "" : " ") + verb.name;
    std::string flags = "--option --quiet --show-log --verbose --log-out= --json --raw --silent --format --output "
                        "--jobs --keep-going --strict --texture --no-suffix --missing --from-list --include --exclude "
                        "--force --manifest --resume --shard --where --into --id --api-key-file --api-base --ca-file "
                        "--check-key --refresh --rate --max-depth";
    for (const std::string &flag : NamedFlags()) flags += " " + flag;
    out << "# bash completion for gamefmt (generated by 'gamefmt help --bash-completion')\n"
        << "_gamefmt() {\n"
        << "    local cur=${COMP_WORDS[COMP_CWORD]}\n"
        << "    if [ \"$COMP_CWORD\" -eq 1 ]; then\n"
        << "        COMPREPLY=($(compgen -W \"" << verbs << "\" -- \"$cur\"))\n"
        << "        return\n"
        << "    fi\n"
        << "    case $cur in\n"
        << "    -*) COMPREPLY=($(compgen -W \"" << flags << "\" -- \"$cur\")) ;;\n"
        << "    *) COMPREPLY=($(compgen -f -- \"$cur\")) ;;\n"
        << "    esac\n"
        << "}\n"
        << "complete -o filenames -F _gamefmt gamefmt\n";
}

int RunHelp(const Args &args, std::ostream &out, std::ostream &err) {
    if (args.empty()) {
        PrintUsage(out);
        return kExitOk;
    }
    if (args.size() == 1 && args[0] == "--man") {
        PrintManPage(out);
        return kExitOk;
    }
    if (args.size() == 1 && args[0] == "--bash-completion") {
        PrintBashCompletion(out);
        return kExitOk;
    }
    const Verb *verb = args.size() == 1 ? FindVerb(args[0]) : nullptr;
    if (verb == nullptr) {
        err << "gamefmt help: " << (args.size() == 1 ? "unknown verb '" + args[0] + "'" : "expected one VERB")
            << " (see 'gamefmt help')\n";
        return kExitUsage;
    }
    PrintVerbHelp(*verb, out);
    return kExitOk;
}

int RunPreloadPath(const Args &args, std::ostream &out, std::ostream &err) {
    if (!args.empty()) {
        err << "gamefmt preload-path: takes no arguments\n";
        return kExitUsage;
    }
    for (const char *path : {GAMEFMT_PRELOAD_INSTALLED, GAMEFMT_PRELOAD_BUILT}) {
        std::error_code ec;
        if (path[0] != '\0' && std::filesystem::is_regular_file(PathFromUtf8(path), ec)) {
            out << path << '\n';
            return kExitOk;
        }
    }
    err << "gamefmt preload-path: libgamefmt_preload.so is neither installed (" << GAMEFMT_PRELOAD_INSTALLED
        << ") nor built (" << GAMEFMT_PRELOAD_BUILT << ")\n";
    return kExitBadInput;
}

int RunVersion(const Args &args, std::ostream &out, std::ostream &err) {
    if (!args.empty()) {
        err << "gamefmt version: takes no arguments\n";
        return kExitUsage;
    }
    // The Assimp we run against, which may differ from the headers we were built with.
    const unsigned flags = aiGetCompileFlags();
    out << "gamefmt " << gamefmt::Version() << '\n'
        << "Assimp " << aiGetVersionMajor() << '.' << aiGetVersionMinor() << '.' << aiGetVersionPatch();
    const char *branch = aiGetBranchName();
    if (branch != nullptr && branch[0] != '\0') out << " (" << branch << ')';
    char revision[32];
    std::snprintf(revision, sizeof revision, " revision %x", aiGetVersionRevision());
    out << revision;
    // Upstream's order and spellings.
    const struct {
        unsigned bit;
        const char *name;
    } kFlags[] = {{ASSIMP_CFLAGS_DEBUG, "-debug"},     {ASSIMP_CFLAGS_NOBOOST, "-noboost"},
                  {ASSIMP_CFLAGS_SHARED, "-shared"},   {ASSIMP_CFLAGS_SINGLETHREADED, "-st"},
                  {ASSIMP_CFLAGS_STLPORT, "-stlport"}, {ASSIMP_CFLAGS_DOUBLE_SUPPORT, "-double"}};
    for (const auto &flag : kFlags)
        if ((flags & flag.bit) != 0) out << ' ' << flag.name;
    out << '\n';
    for (const gamefmt::FormatInfo &format : gamefmt::Formats())
        out << "  " << format.name << " (" << format.extensions << ")" << (format.readable ? "" : ", reading pending")
            << '\n';
    return kExitOk;
}

bool WantsHelp(const Args &args) {
    for (const std::string &arg : args) {
        if (arg == "--") return false;
        if (arg == "-h" || arg == "--help" || arg == "-?") return true;
    }
    return false;
}

} // namespace

int RunCli(const std::vector<std::string> &args, std::ostream &out, std::ostream &err) {
    if (args.empty()) {
        PrintUsage(err);
        return kExitUsage;
    }
    std::string name = args[0];
    if (name == "--help" || name == "-h") name = "help";
    if (name == "--version") name = "version";
    const Verb *verb = FindVerb(name);
    if (verb == nullptr) {
        err << "gamefmt: unknown verb '" << args[0] << "' (see 'gamefmt help')\n";
        return kExitUsage;
    }
    const Args rest(args.begin() + 1, args.end());
    if (verb->run != RunHelp && WantsHelp(rest)) {
        PrintVerbHelp(*verb, out);
        return kExitOk;
    }
    try {
        return verb->run(rest, out, err);
    } catch (const std::exception &e) {
        // Assimp reports through return values; this is for allocation failures and filesystem errors.
        err << "gamefmt " << verb->name << ": " << e.what() << '\n';
        return kExitBadInput;
    }
}

} // namespace gamefmt::cli
