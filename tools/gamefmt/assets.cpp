// The `assets` verb: every asset a Roblox model or place references (content URIs in its properties), what kind
// it is, the instances that use it, and whether the asset folders (--asset-dir) resolve it the way the importer
// would (docs/roblox-assets.md). `--missing` prints just the unresolved asset ids, one per line; `--json` a
// machine-readable report.
#include "asset_refs.hpp"
#include "json_writer.hpp"
#include "loading.hpp"
#include "log.hpp"
#include "options.hpp"
#include "verbs.hpp"

#include "assimp_glue/common/io_util.hpp"
#include "assimp_glue/roblox_model/assets.hpp"
#include "assimp_glue/roblox_model/installs.hpp"
#include "gamefmt/config.hpp"
#include "gamefmt/roblox_model.hpp"
#include "importers/roblox_model/document/dom.hpp"

#include <assimp/DefaultIOSystem.h>
#include <assimp/Importer.hpp>
#include <assimp/scene.h>

#include <map>
#include <ostream>
#include <set>
#include <string_view>

namespace gamefmt::cli {
namespace {

// Resolves like the importer: meshes as meshes, images as images, animations and unions as Roblox models (sniffed);
// other kinds by the files an id or a path may be.
void Resolve(std::vector<Asset> &assets, const std::vector<std::string> &folders) {
    Assimp::DefaultIOSystem io;
    const glue::RbxAssetResolver resolver = glue::MakeAssetResolver(&io, folders);
    for (Asset &a : assets) {
        const glue::RbxContentKey key = glue::ParseContentUri(a.uri);
        if (key.kind == glue::RbxContentKey::Kind::Id) a.id = key.value;
        if (key.kind == glue::RbxContentKey::Kind::None) {
            a.status = "not resolvable";
            continue;
        }
        if (folders.empty()) {
            a.status = "not looked up";
            continue;
        }
        const bool image = a.kind == "texture" || a.kind == "surface map" || a.kind == "decal" || a.kind == "image" ||
                           a.kind == "sky" || a.kind == "clothing";
        if (a.kind == "mesh" || a.kind == "cage" || a.kind == "animation" || a.kind == "union" ||
            a.kind == "texture pack" || image) {
            const glue::RbxAssetKind kind = image                      ? glue::RbxAssetKind::Image
                                            : a.kind == "animation"    ? glue::RbxAssetKind::Animation
                                            : a.kind == "union"        ? glue::RbxAssetKind::Union
                                            : a.kind == "texture pack" ? glue::RbxAssetKind::TexturePack
                                                                       : glue::RbxAssetKind::Mesh;
            if (const auto found = resolver(a.uri, kind)) {
                a.status = "found";
                a.path = found->path;
            } else {
                a.status = "missing";
            }
            continue;
        }
        a.status = "missing";
        for (const std::string &path : glue::CandidatePaths(folders, key, glue::RbxAssetKind::Image)) {
            if (glue::FileExists(&io, path)) {
                a.status = "found";
                a.path = path;
                break;
            }
        }
    }
}

void PrintText(const std::string &file, const std::vector<Asset> &assets, std::ostream &out) {
    out << "# " << file << ": " << assets.size() << " asset reference(s)\n";
    for (const Asset &a : assets) {
        out << OneLine(a.uri) << "  " << a.kind << "  " << a.status;
        if (!a.path.empty()) out << " " << OneLine(a.path);
        out << "  " << a.users.size() << " use(s): ";
        for (std::size_t i = 0; i < a.users.size() && i < 5; ++i) out << (i ? ", " : "") << OneLine(a.users[i]);
        if (a.users.size() > 5) out << ", …";
        out << '\n';
    }
}

void PrintJson(JsonWriter &json, const std::string &file, const std::vector<Asset> &assets) {
    json.beginObject();
    json.stringField("file", file);
    json.key("assets");
    json.beginArray();
    for (const Asset &a : assets) {
        json.beginObject();
        json.stringField("uri", a.uri);
        json.stringField("kind", a.kind);
        if (!a.id.empty()) json.stringField("id", a.id);
        json.stringField("status", a.status);
        if (!a.path.empty()) json.stringField("path", a.path);
        json.key("instances");
        json.beginArray();
        for (const std::string &u : a.users) json.string(u);
        json.endArray();
        json.endObject();
    }
    json.endArray();
    json.endObject();
}

} // namespace

bool LoadRobloxDocument(const std::string &file, const std::vector<Property> &properties, rbx::Document &doc,
                        std::string &stage, std::string &problem) {
    const std::unique_ptr<Assimp::Importer> importer = MakeConfiguredImporter(properties);
    importer->SetPropertyBool(GAMEFMT_RBX_GEOMETRY, false); // the instances are enough
    const LoadResult loaded = LoadScene(*importer, file, 0, 0);
    problem = loaded.scene == nullptr ? loaded.error : std::string();
    stage = loaded.scene == nullptr ? loaded.failedStage : "list the assets of";
    if (loaded.scene != nullptr && !IsRobloxModelScene(*loaded.scene))
        problem = "not a Roblox model or place (no rbx.source metadata)";
    if (problem.empty()) {
        try {
            RobloxDocumentFromScene(*loaded.scene, doc);
        } catch (const std::exception &e) {
            problem = e.what();
        }
    }
    return problem.empty();
}

namespace {

// `gamefmt assets --where`: the Roblox installs `--asset-dir auto` uses, one per line; exit 1 when there are none.
int RunWhere(std::ostream &out, std::ostream &err) {
    const std::vector<std::string> installs = glue::FindRobloxInstalls(glue::CurrentInstallPlaces());
    for (const std::string &dir : installs) out << dir << '\n';
    if (installs.empty())
        err << "gamefmt assets --where: no Roblox Studio or Player install found (docs/roblox-assets.md lists where "
               "gamefmt looks)\n";
    return installs.empty() ? kExitBadInput : kExitOk;
}

} // namespace

int RunAssets(const Args &args, std::ostream &out, std::ostream &err) {
    if (!args.empty() && args[0] == "fetch") return RunAssetsFetch(Args(args.begin() + 1, args.end()), out, err);
    CommonOptions common;
    std::vector<std::string> files;
    bool missing = false, asJson = false, where = false;
    const auto verbFlags = [&](ArgCursor &cursor, std::string &) {
        if (cursor.flag(nullptr, "--missing")) return missing = true, FlagResult::Consumed;
        if (cursor.flag(nullptr, "--json")) return asJson = true, FlagResult::Consumed;
        if (cursor.flag(nullptr, "--where")) return where = true, FlagResult::Consumed;
        return FlagResult::NotMine;
    };
    if (!ParseVerbArgs("assets", args, kPropertyFlags | kLogFlags, verbFlags, common, files, err)) return kExitUsage;
    if (where && files.empty()) return RunWhere(out, err);
    if (files.empty()) {
        err << "gamefmt assets: expected FILE... (see 'gamefmt help assets')\n";
        return kExitUsage;
    }
    if (missing && asJson) {
        err << "gamefmt assets: --missing and --json do not go together\n";
        return kExitUsage;
    }
    std::vector<std::string> folders;
    for (const Property &p : common.properties)
        if (p.name == GAMEFMT_RBX_ASSET_DIR) folders = glue::ExpandAssetFolders(glue::SplitAssetFolders(p.text));
    LogSession log(common, err);
    if (log.failed("assets", err)) return kExitUsage;

    int status = kExitOk;
    std::set<std::string> printed; // --missing: each id once, across files
    JsonWriter json(out);
    if (asJson && files.size() > 1) json.beginArray();
    for (const std::string &file : files) {
        rbx::Document doc;
        std::string stage, problem;
        if (!LoadRobloxDocument(file, common.properties, doc, stage, problem)) {
            PrintFileError(err, stage, file, problem);
            status = kExitBadInput;
            continue;
        }
        log.reportWarnings(file);
        std::vector<Asset> assets = Collect(doc);
        Resolve(assets, folders);
        if (missing) {
            for (const Asset &a : assets)
                if (a.status != "found" && !a.id.empty() && printed.insert(a.id).second) out << a.id << '\n';
        } else if (asJson) {
            PrintJson(json, file, assets);
        } else {
            PrintText(file, assets, out);
        }
    }
    if (asJson && files.size() > 1) json.endArray();
    if (asJson) out << '\n';
    return status;
}

} // namespace gamefmt::cli
