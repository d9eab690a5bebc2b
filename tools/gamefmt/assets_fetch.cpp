// `gamefmt assets fetch FILE... --into DIR` (docs/roblox-assets.md "Getting the assets"): the ids a Roblox model or
// place references (as `gamefmt assets` lists them), plus --id and --from-list, fetched with the user's own Open
// Cloud API key (ROBLOX_API_KEY or --api-key-file; never a command-line argument) into an asset folder.
#include "asset_fetch.hpp"
#include "asset_refs.hpp"
#include "loading.hpp"
#include "log.hpp"
#include "options.hpp"
#include "verbs.hpp"

#include "assimp_glue/roblox_model/assets.hpp"
#include "common/ascii.hpp"
#include "common/text_number.hpp"
#include "common/utf8_path.hpp"

#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iostream>
#include <map>
#include <mutex>
#include <ostream>
#include <set>

#ifdef _WIN32
#include <io.h>
#else
#include <unistd.h>
#endif

namespace gamefmt::cli {
namespace {

bool StderrIsTerminal() {
#ifdef _WIN32
    return _isatty(_fileno(stderr)) != 0;
#else
    return isatty(2) != 0;
#endif
}

struct FetchArgs {
    std::vector<std::string> files, ids, lists;
    std::string keyFile, keyOnCommandLine, jobs, rate, depth;
    bool checkOnly = false;
    FetchOptions options;
};

FlagResult FetchFlag(ArgCursor &cursor, std::string &error, FetchArgs &a) {
    if (cursor.flag(nullptr, "--refresh")) return a.options.refresh = true, FlagResult::Consumed;
    if (cursor.flag(nullptr, "--check-key")) return a.checkOnly = true, FlagResult::Consumed;
    return ConsumeValuedFlag(cursor,
                             {{nullptr, "--into", false, &a.options.into, nullptr},
                              {nullptr, "--id", false, nullptr, &a.ids},
                              {nullptr, "--from-list", false, nullptr, &a.lists},
                              {nullptr, "--api-key-file", false, &a.keyFile, nullptr},
                              {nullptr, "--api-key", false, &a.keyOnCommandLine, nullptr},
                              {nullptr, "--api-base", false, &a.options.apiBase, nullptr},
                              {nullptr, "--ca-file", false, &a.options.caFile, nullptr},
                              {"-j", "--jobs", false, &a.jobs, nullptr},
                              {nullptr, "--rate", false, &a.rate, nullptr},
                              {nullptr, "--max-depth", false, &a.depth, nullptr}},
                             error);
}

// The numbers and ids the flags gave, checked; false after printing what is wrong.
bool CheckFetchArgs(FetchArgs &a, std::ostream &err) {
    if (!a.keyOnCommandLine.empty()) {
        err << "gamefmt assets fetch: --api-key is not accepted: a key on the command line shows in process lists and "
               "shell history. Put it in ROBLOX_API_KEY or in a file named by --api-key-file\n";
        return false;
    }
    const struct {
        const char *flag;
        const std::string &text;
        long long low, high;
        unsigned &out;
    } numbers[] = {{"--jobs", a.jobs, 1, 16, a.options.jobs},
                   {"--rate", a.rate, 1, 1000, a.options.ratePerMinute},
                   {"--max-depth", a.depth, 0, 8, a.options.maxDepth}};
    for (const auto &n : numbers) {
        if (n.text.empty()) continue;
        long long v = 0;
        if (!ParseCount(n.text, n.low, n.high, v)) {
            err << "gamefmt assets fetch: " << n.flag << " wants a number from " << n.low << " to " << n.high << '\n';
            return false;
        }
        n.out = static_cast<unsigned>(v);
    }
    for (const std::string &id : a.ids) {
        if (glue::ParseContentUri("rbxassetid://" + id).kind != glue::RbxContentKey::Kind::Id) {
            err << "gamefmt assets fetch: --id wants an asset id (digits), not '" << OneLine(id) << "'\n";
            return false;
        }
    }
    while (!a.options.apiBase.empty() && a.options.apiBase.back() == '/') a.options.apiBase.pop_back();
    if (a.options.apiBase.rfind("https://", 0) != 0 && a.options.apiBase.rfind("http://", 0) != 0) {
        err << "gamefmt assets fetch: --api-base wants an http(s):// URL\n";
        return false;
    }
    if (a.options.apiBase.rfind("http://", 0) == 0 && !AllowedDownloadUrl(a.options.apiBase, a.options.apiBase)) {
        err << "gamefmt assets fetch: --api-base: plain http:// only to a loopback address (127.0.0.1, localhost); use "
               "https://\n";
        return false;
    }
    return true;
}

// The key: --api-key-file's first line, else ROBLOX_API_KEY; surrounding blanks dropped.
bool ReadKey(const FetchArgs &a, std::string &key, std::ostream &err) {
    if (!a.keyFile.empty()) {
        std::ifstream in(PathFromUtf8(a.keyFile), std::ios::binary);
        if (!in) {
            err << "gamefmt assets fetch: cannot read the key file '" << a.keyFile << "'\n";
            return false;
        }
        std::getline(in, key);
    } else if (const char *env = std::getenv("ROBLOX_API_KEY"); env != nullptr) {
        key = env;
    }
    key = std::string(TrimAscii(key));
    if (key.empty()) {
        err << "gamefmt assets fetch: no API key. Create one in Creator Dashboard → Open Cloud → API Keys with the API "
               "system 'legacy-assets' (operation 'manage'), then put it in ROBLOX_API_KEY or in a file named by "
               "--api-key-file (docs/roblox-assets.md \"Getting the assets\")\n";
        return false;
    }
    return true;
}

// Ids from a list: one per line, an id or a content URI; blanks and '#' comments skipped.
bool ReadList(const std::string &path, std::vector<FetchItem> &items, std::ostream &err) {
    std::ifstream file;
    std::istream *in = &std::cin;
    if (path != "-") {
        file.open(PathFromUtf8(path), std::ios::binary);
        if (!file) {
            err << "gamefmt assets fetch: cannot read the list '" << path << "'\n";
            return false;
        }
        in = &file;
    }
    std::string line;
    while (std::getline(*in, line)) {
        const std::string text(TrimAscii(line));
        if (text.empty() || text[0] == '#') continue;
        glue::RbxContentKey key = glue::ParseContentUri(text);
        if (key.kind != glue::RbxContentKey::Kind::Id) key = glue::ParseContentUri("rbxassetid://" + text);
        if (key.kind == glue::RbxContentKey::Kind::Id)
            items.push_back({key.value, "any"});
        else
            err << "gamefmt assets fetch: " << path << ": not an asset id: " << OneLine(text) << '\n';
    }
    return true;
}

// The ids every file references, each once (its first kind).
bool CollectItems(const FetchArgs &a, const CommonOptions &common, std::vector<FetchItem> &items, std::ostream &err) {
    bool ok = true;
    for (const std::string &file : a.files) {
        rbx::Document doc;
        std::string stage, problem;
        if (!LoadRobloxDocument(file, common.properties, doc, stage, problem)) {
            PrintFileError(err, stage, file, problem);
            ok = false;
            continue;
        }
        for (const Asset &asset : Collect(doc)) {
            const glue::RbxContentKey key = glue::ParseContentUri(asset.uri);
            if (key.kind == glue::RbxContentKey::Kind::Id) items.push_back({key.value, asset.kind});
        }
    }
    for (const std::string &id : a.ids) items.push_back({id, "any"});
    for (const std::string &list : a.lists) ok = ReadList(list, items, err) && ok;
    std::set<std::string> seen;
    std::vector<FetchItem> unique;
    for (FetchItem &item : items)
        if (seen.insert(item.id).second) unique.push_back(std::move(item));
    items = std::move(unique);
    return ok;
}

void PrintSummary(const FetchReport &report, const FetchOptions &options, std::ostream &out, std::ostream &err) {
    for (const FetchRecord &r : report.records) {
        if (r.status == "ok" || r.status == "present") continue;
        err << "gamefmt assets fetch: " << r.id << " (" << r.kind;
        if (!r.from.empty()) err << ", named by " << r.from;
        err << "): " << r.status;
        if (!r.error.empty()) err << ": " << OneLine(r.error);
        err << '\n';
    }
    std::size_t failed = 0;
    std::string details;
    for (const auto &[status, n] : report.counts) {
        if (status == "ok" || status == "present" || status == "skipped") continue;
        failed += n;
        details += (details.empty() ? "" : ", ") + status + " " + std::to_string(n);
    }
    const auto count = [&](const char *s) {
        const auto it = report.counts.find(s);
        return it == report.counts.end() ? std::size_t(0) : it->second;
    };
    out << "fetched " << count("ok") << ", already present " << count("present") << ", failed " << failed;
    if (!details.empty()) out << " (" << details << ")";
    if (count("skipped") != 0) out << ", not followed " << count("skipped") << " (--max-depth)";
    out << "; " << report.apiRequests << " API and " << report.cdnRequests << " download request(s); manifest "
        << options.into << "/.gamefmt-fetch.jsonl\n";
    if (report.badKey)
        err << "gamefmt assets fetch: the API refused the key, so the run stopped. Check the key with --check-key\n";
}

} // namespace

int RunAssetsFetch(const Args &args, std::ostream &out, std::ostream &err) {
    CommonOptions common;
    FetchArgs a;
    const auto verbFlags = [&](ArgCursor &cursor, std::string &error) { return FetchFlag(cursor, error, a); };
    if (!ParseVerbArgs("assets fetch", args, kPropertyFlags | kLogFlags, verbFlags, common, a.files, err) ||
        !CheckFetchArgs(a, err))
        return kExitUsage;
    if (a.options.into.empty() && !a.checkOnly) {
        err << "gamefmt assets fetch: --into DIR is required (see 'gamefmt help assets')\n";
        return kExitUsage;
    }
    if (a.files.empty() && a.ids.empty() && a.lists.empty() && !a.checkOnly) {
        err << "gamefmt assets fetch: expected FILE..., --id N or --from-list FILE\n";
        return kExitUsage;
    }
    if (!ReadKey(a, a.options.apiKey, err)) return kExitUsage;
    std::string warning;
    const std::string refused = CheckApiKey(a.options, warning);
    if (!warning.empty()) err << "gamefmt assets fetch: warning: " << warning << '\n';
    if (!refused.empty()) {
        err << "gamefmt assets fetch: " << refused << '\n';
        return kExitBadInput;
    }
    if (a.checkOnly) {
        out << (warning.empty() ? "the API key may fetch assets\n" : "the API key could not be checked\n");
        return warning.empty() ? kExitOk : kExitBadInput;
    }
    LogSession log(common, err);
    if (log.failed("assets fetch", err)) return kExitUsage;
    std::vector<FetchItem> items;
    const bool listed = CollectItems(a, common, items, err);
    std::mutex printing;
    if (&err == &std::cerr && StderrIsTerminal())
        a.options.progress = [&](std::size_t done, std::size_t known, const std::map<std::string, std::size_t> &) {
            std::lock_guard<std::mutex> lock(printing);
            err << "\rfetching: " << done << " of " << known << " id(s) done" << std::flush;
        };
    const FetchReport report = FetchAssets(items, a.options);
    if (a.options.progress) err << '\n';
    if (!report.manifestError.empty()) err << "gamefmt assets fetch: warning: " << report.manifestError << '\n';
    PrintSummary(report, a.options, out, err);
    return listed && report.complete() ? kExitOk : kExitBadInput;
}

} // namespace gamefmt::cli
