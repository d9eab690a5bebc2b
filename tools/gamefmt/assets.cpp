// The `assets` verb: every asset a Roblox model or place references (content URIs in its properties), what kind
// it is, the instances that use it, and whether the asset folders (--asset-dir) resolve it the way the importer
// would (docs/roblox-assets.md). `--missing` prints just the unresolved asset ids, one per line; `--json` a
// machine-readable report.
#include "json_writer.hpp"
#include "loading.hpp"
#include "log.hpp"
#include "options.hpp"
#include "verbs.hpp"

#include "assimp_glue/common/io_util.hpp"
#include "assimp_glue/roblox_model/assets.hpp"
#include "gamefmt/config.hpp"
#include "gamefmt/roblox_model.hpp"
#include "importers/roblox_model/dom.hpp"

#include <assimp/DefaultIOSystem.h>
#include <assimp/Importer.hpp>
#include <assimp/scene.h>

#include <map>
#include <ostream>
#include <set>
#include <string_view>

namespace gamefmt::cli {
namespace {

// What a content property is for, by its name and class (docs/formats/roblox-model.md §5.3–§5.5).
std::string KindOf(std::string_view cls, std::string_view prop) {
    const auto is = [&](std::initializer_list<std::string_view> names) {
        for (std::string_view n : names)
            if (prop == n) return true;
        return false;
    };
    if (is({"MeshId", "MeshID", "MeshContent"})) return "mesh";
    if (cls == "UnionOperation" || cls == "IntersectOperation" || cls == "NegateOperation" || cls == "PartOperation")
        return "union";
    if (is({"ColorMap", "NormalMap", "MetalnessMap", "RoughnessMap", "ColorMapContent", "NormalMapContent",
            "MetalnessMapContent", "RoughnessMapContent"}))
        return "surface map";
    if (cls == "Decal" || cls == "Texture") return "decal";
    if (is({"TextureID", "TextureId", "TextureContent"})) return "texture";
    if (is({"SoundId"})) return "sound";
    if (is({"AnimationId"})) return "animation";
    if (is({"Image", "ImageContent", "HoverImage", "PressedImage"})) return "image";
    if (prop.substr(0, 6) == "Skybox" || is({"SunTextureId", "MoonTextureId"})) return "sky";
    if (is({"Graphic", "ShirtTemplate", "PantsTemplate"})) return "clothing";
    return "other";
}

bool LooksLikeUri(std::string_view text) {
    const std::size_t colon = text.find("://");
    if (colon == std::string_view::npos || colon == 0 || colon > 10) return false;
    for (std::size_t i = 0; i < colon; ++i) {
        const char c = text[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) return false;
    }
    return text.size() < 2048;
}

std::string UriOf(const rbx::Value &value) {
    if (const auto *c = std::get_if<rbx::Content>(&value.data))
        return c->source == rbx::Content::Source::Uri ? c->uri : std::string();
    if (value.xmlTag == rbx::XmlTag::ContentBinary || value.xmlTag == rbx::XmlTag::ContentHash) return {};
    if (const auto *s = std::get_if<std::string>(&value.data)) return LooksLikeUri(*s) ? *s : std::string();
    return {};
}

// "Workspace.Model.Part", as Roblox's GetFullName (bounded: a hostile parent chain cannot loop).
std::string FullName(const rbx::Document &doc, std::uint32_t index) {
    std::string name;
    for (std::size_t steps = 0; index < doc.instances.size() && steps < 512; ++steps) {
        const rbx::Instance &inst = doc.instances[index];
        name = name.empty() ? inst.name : inst.name + "." + name;
        index = inst.parent;
    }
    return name;
}

struct Asset {
    std::string uri;
    std::string kind;
    std::vector<std::string> users; // full names of the instances that reference it
    std::string status;             // "found", "missing", "not looked up" (no asset folder), "not resolvable"
    std::string path;               // the file, when found
    std::string id;                 // the asset id, when the URI names one
};

std::vector<Asset> Collect(const rbx::Document &doc) {
    std::vector<Asset> out;
    std::map<std::pair<std::string, std::string>, std::size_t> index; // (uri, kind) → out
    for (std::uint32_t i = 0; i < doc.instances.size(); ++i) {
        const rbx::Instance &inst = doc.instances[i];
        for (const rbx::Property &p : inst.properties) {
            std::string uri = UriOf(p.value);
            if (uri.empty()) continue;
            const std::string kind = KindOf(doc.className(inst), doc.names.str(p.name));
            const auto [at, added] = index.emplace(std::make_pair(uri, kind), out.size());
            if (added) out.push_back({uri, kind, {}, {}, {}, {}});
            out[at->second].users.push_back(FullName(doc, i));
        }
    }
    return out;
}

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
        if (a.kind == "mesh" || a.kind == "animation" || a.kind == "union" || image) {
            const glue::RbxAssetKind kind = image                   ? glue::RbxAssetKind::Image
                                            : a.kind == "animation" ? glue::RbxAssetKind::Animation
                                            : a.kind == "union"     ? glue::RbxAssetKind::Union
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

int RunAssets(const Args &args, std::ostream &out, std::ostream &err) {
    CommonOptions common;
    std::vector<std::string> files;
    bool missing = false, asJson = false;
    const auto verbFlags = [&](ArgCursor &cursor, std::string &) {
        if (cursor.flag(nullptr, "--missing")) return missing = true, FlagResult::Consumed;
        if (cursor.flag(nullptr, "--json")) return asJson = true, FlagResult::Consumed;
        return FlagResult::NotMine;
    };
    if (!ParseVerbArgs("assets", args, kPropertyFlags | kLogFlags, verbFlags, common, files, err)) return kExitUsage;
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
        if (p.name == GAMEFMT_RBX_ASSET_DIR) folders = glue::SplitAssetFolders(p.text);
    LogSession log(common, err);
    if (log.failed("assets", err)) return kExitUsage;

    int status = kExitOk;
    std::set<std::string> printed; // --missing: each id once, across files
    JsonWriter json(out);
    if (asJson && files.size() > 1) json.beginArray();
    for (const std::string &file : files) {
        const std::unique_ptr<Assimp::Importer> importer = MakeConfiguredImporter(common.properties);
        importer->SetPropertyBool(GAMEFMT_RBX_GEOMETRY, false); // the instances are enough
        const LoadResult loaded = LoadScene(*importer, file, 0, 0);
        rbx::Document doc;
        std::string problem = loaded.scene == nullptr ? loaded.error : std::string();
        if (loaded.scene != nullptr && !IsRobloxModelScene(*loaded.scene))
            problem = "not a Roblox model or place (no rbx.source metadata)";
        if (problem.empty()) {
            try {
                RobloxDocumentFromScene(*loaded.scene, doc);
            } catch (const std::exception &e) {
                problem = e.what();
            }
        }
        if (!problem.empty()) {
            PrintFileError(err, loaded.scene == nullptr ? loaded.failedStage : "list the assets of", file, problem);
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
