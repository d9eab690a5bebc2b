// Content URI resolution against local asset folders (docs/formats/roblox-model.md §5.5).
#include "assimp_glue/roblox_model/assets.hpp"

#include "assimp_glue/common/io_util.hpp"
#include "assimp_glue/common/scene_util.hpp"
#include "common/ascii.hpp"
#include "common/compression.hpp"
#include "common/error.hpp"
#include "common/text_number.hpp"
#include "importers/roblox_model/appearance/texture_pack.hpp"
#include "importers/roblox_model/document/detect.hpp"
#include "importers/roblox_model/document/dom.hpp"
#include "importers/roblox_model/document/reader.hpp"

#include <assimp/IOSystem.hpp>

#include <cstring>
#include <exception>
#include <iterator>
#include <set>

namespace gamefmt::glue {
namespace {

constexpr std::uint64_t kMaxAssetBytes = std::uint64_t(64) << 20;
constexpr std::uint64_t kMaxInflatedBytes = std::uint64_t(256) << 20;

bool StartsWithNoCase(std::string_view s, std::string_view prefix) {
    if (s.size() < prefix.size()) return false;
    for (std::size_t i = 0; i < prefix.size(); ++i)
        if (AsciiLower(s[i]) != AsciiLower(prefix[i])) return false;
    return true;
}

bool AllDigits(std::string_view s) {
    if (s.empty() || s.size() > 20) return false;
    for (char c : s)
        if (c < '0' || c > '9') return false;
    return true;
}

// "https://www.roblox.com/asset/?id=123" and its spellings (§5.5): a host ending in roblox.com, the path
// /asset or /v1/asset (slashes doubled or trailing allowed), an id= parameter of digits (any case).
RbxContentKey ParseWebAsset(std::string_view rest) {
    const std::size_t slash = rest.find('/');
    const std::string host = AsciiLower(std::string(rest.substr(0, slash)));
    if (slash == std::string_view::npos) return {};
    if (!(host == "roblox.com" || (host.size() > 11 && host.compare(host.size() - 11, 11, ".roblox.com") == 0)))
        return {};
    std::string_view path = rest.substr(slash);
    const std::size_t question = path.find('?');
    if (question == std::string_view::npos) return {};
    std::string_view query = path.substr(question + 1);
    path = path.substr(0, question);
    while (!path.empty() && path.front() == '/') path.remove_prefix(1);
    while (!path.empty() && path.back() == '/') path.remove_suffix(1);
    const std::string lowerPath = AsciiLower(std::string(path));
    if (lowerPath != "asset" && lowerPath != "v1/asset") return {};
    while (!query.empty()) {
        const std::size_t amp = query.find('&');
        const std::string_view param = query.substr(0, amp);
        if (StartsWithNoCase(param, "id=") && AllDigits(param.substr(3)))
            return {RbxContentKey::Kind::Id, std::string(param.substr(3))};
        if (amp == std::string_view::npos) break;
        query.remove_prefix(amp + 1);
    }
    return {};
}

// "rbxasset://textures/face.png" → "textures/face.png": '\' read as '/', empty and "." parts dropped, ".."
// refused.
RbxContentKey ParseContentPath(std::string_view rest) {
    std::string path;
    std::string part;
    const auto flush = [&]() -> bool {
        if (part == "..") return false;
        if (!part.empty() && part != ".") path += (path.empty() ? "" : "/") + part;
        part.clear();
        return true;
    };
    for (char c : rest) {
        if (c == '/' || c == '\\') {
            if (!flush()) return {};
        } else if (c == '\0') {
            return {};
        } else {
            part += c;
        }
    }
    if (!flush() || path.empty()) return {};
    return {RbxContentKey::Kind::Path, path};
}

std::string Join(const std::string &folder, const std::string &name) {
    if (folder.empty()) return name;
    return folder.back() == '/' || folder.back() == '\\' ? folder + name : folder + "/" + name;
}

} // namespace

RbxContentKey ParseContentUri(std::string_view uri) {
    uri = TrimAscii(uri);
    if (StartsWithNoCase(uri, "rbxassetid://")) {
        const std::string_view id = uri.substr(13);
        return AllDigits(id) ? RbxContentKey{RbxContentKey::Kind::Id, std::string(id)} : RbxContentKey{};
    }
    if (StartsWithNoCase(uri, "rbxasset://")) return ParseContentPath(uri.substr(11));
    if (StartsWithNoCase(uri, "https://")) return ParseWebAsset(uri.substr(8));
    if (StartsWithNoCase(uri, "http://")) return ParseWebAsset(uri.substr(7));
    return {};
}

std::vector<std::string> CandidatePaths(const std::vector<std::string> &folders, const RbxContentKey &key,
                                        RbxAssetKind kind) {
    std::vector<std::string> out;
    for (const std::string &dir : folders) {
        if (key.kind == RbxContentKey::Kind::Id) {
            // The kind's own extensions first; then the others, since an id may hold an indirection (a Decal's
            // model, a TexturePack) that `gamefmt assets fetch` saved under the extension its content has.
            out.push_back(Join(dir, key.value));
            static const char *const kMeshExt[] = {".mesh"};
            static const char *const kModelExt[] = {".rbxm", ".rbxmx"};
            static const char *const kImageExt[] = {".png", ".jpg", ".jpeg"};
            static const char *const kPackExt[] = {".xml"};
            std::vector<const char *> order;
            const auto add = [&](const auto &list) { order.insert(order.end(), std::begin(list), std::end(list)); };
            if (kind == RbxAssetKind::Mesh) add(kMeshExt);
            if (kind == RbxAssetKind::Animation || kind == RbxAssetKind::Union) add(kModelExt);
            if (kind == RbxAssetKind::Image) add(kImageExt);
            if (kind == RbxAssetKind::TexturePack) add(kPackExt);
            if (kind == RbxAssetKind::Image || kind == RbxAssetKind::Mesh || kind == RbxAssetKind::Animation) {
                add(kModelExt);
                if (kind == RbxAssetKind::Image) add(kPackExt);
            }
            for (const char *ext : order) out.push_back(Join(dir, key.value + ext));
        } else if (key.kind == RbxContentKey::Kind::Path) {
            for (const char *sub : {"", "content/", "PlatformContent/pc/", "ExtraContent/"})
                out.push_back(Join(dir, sub + key.value));
        }
    }
    return out;
}

std::string SniffImage(const std::uint8_t *data, std::size_t size) {
    static const std::uint8_t kPng[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};
    if (size >= 8 && std::memcmp(data, kPng, 8) == 0) return "png";
    if (size >= 3 && data[0] == 0xFF && data[1] == 0xD8 && data[2] == 0xFF) return "jpg";
    return {};
}

std::string SniffAsset(const std::uint8_t *data, std::size_t size) {
    std::string image = SniffImage(data, size);
    if (!image.empty()) return image;
    if (size >= 9 && std::memcmp(data, "version ", 8) == 0 && data[8] >= '0' && data[8] <= '9') return "mesh";
    switch (rbx::Detect(data, size)) {
    case rbx::Encoding::Binary:
        return "rbxm";
    case rbx::Encoding::Xml:
        return rbx::LooksLikeTexturePack(data, size) ? "texturepack" : "rbxmx";
    case rbx::Encoding::None:
        break;
    }
    return rbx::LooksLikeTexturePack(data, size) ? "texturepack" : std::string(); // with an XML prolog
}

std::vector<std::string> SplitAssetFolders(std::string_view value) {
    std::vector<std::string> out;
    while (true) {
        const std::size_t cut = value.find_first_of(";\n");
        const std::string_view item = TrimAscii(value.substr(0, cut));
        if (!item.empty()) out.emplace_back(item);
        if (cut == std::string_view::npos) break;
        value.remove_prefix(cut + 1);
    }
    return out;
}

namespace {

const char *KindWord(RbxAssetKind kind) {
    switch (kind) {
    case RbxAssetKind::Mesh:
        return "a mesh";
    case RbxAssetKind::Animation:
        return "an animation";
    case RbxAssetKind::Union:
        return "a union";
    case RbxAssetKind::TexturePack:
        return "a texture pack";
    case RbxAssetKind::Image:
        break;
    }
    return "an image";
}

// Reads the candidate files of one URI for one kind, following indirections (§5.5) up to kMaxHops deep.
class AssetLookup {
public:
    AssetLookup(Assimp::IOSystem *io, const std::vector<std::string> &folders) : mIo(io), mFolders(folders) {}

    std::optional<RbxAsset> resolve(const std::string &uri, RbxAssetKind kind, unsigned depth) {
        if (depth > kMaxHops || !mVisited.insert(uri).second) return std::nullopt; // too deep, or a cycle
        const RbxContentKey key = ParseContentUri(uri);
        for (const std::string &path : CandidatePaths(mFolders, key, kind)) {
            std::optional<RbxAsset> file = read(path);
            if (!file) continue;
            // An animation package is a model too, but one that names the real animation: followed, not used.
            const bool fits = Fits(file->format, kind);
            const std::string inner = !fits || kind == RbxAssetKind::Animation ? InnerUri(*file, kind) : std::string();
            if (fits && inner.empty()) return file;
            if (!inner.empty()) {
                if (std::optional<RbxAsset> found = resolve(inner, kind, depth + 1)) return found;
                continue;
            }
            LogWarn(std::string(rbx::kFormatName) + ": asset " + SanitizeForAiString(path, 300) + " is " +
                    (file->format.empty() ? std::string("neither a Roblox mesh or model nor a PNG or JPEG image")
                                          : "a " + file->format + " file") +
                    "; not used as " + KindWord(kind));
        }
        return std::nullopt;
    }

private:
    static constexpr unsigned kMaxHops = 3;

    static bool Fits(const std::string &format, RbxAssetKind kind) {
        switch (kind) {
        case RbxAssetKind::Mesh:
            return format == "mesh";
        case RbxAssetKind::Animation:
        case RbxAssetKind::Union:
            return format == "rbxm" || format == "rbxmx";
        case RbxAssetKind::TexturePack:
            return format == "texturepack";
        case RbxAssetKind::Image:
            break;
        }
        return format == "png" || format == "jpg";
    }

    std::optional<RbxAsset> read(const std::string &path) {
        if (!FileExists(mIo, path)) return std::nullopt;
        try {
            std::vector<std::uint8_t> bytes;
            std::uint64_t size = 0;
            // A folder that Assimp's FileSystemFilter answers for a missing file reads nothing: not there.
            if (!TryReadFile(mIo, path, kMaxAssetBytes, bytes, &size)) {
                if (size > kMaxAssetBytes)
                    LogWarn(std::string(rbx::kFormatName) + ": asset " + SanitizeForAiString(path, 300) + " is " +
                            std::to_string(size) + " bytes, more than the 64 MiB limit; not used");
                return std::nullopt;
            }
            if (LooksLikeGzip(bytes.data(), bytes.size())) {
                DecompressionLimits limits;
                limits.maxOutput = kMaxInflatedBytes;
                bytes = InflateGzip(bytes.data(), bytes.size(), "Roblox asset (gzip)", 0, limits);
            }
            std::string format = SniffAsset(bytes.data(), bytes.size());
            return RbxAsset{std::move(bytes), std::move(format), path};
        } catch (const FormatError &e) {
            LogWarn(std::string(rbx::kFormatName) + ": asset " + SanitizeForAiString(path, 300) +
                    " cannot be read: " + e.what());
        }
        return std::nullopt;
    }

    // The URI an indirection names for `kind` (a Decal or clothing model's image, a MeshPart asset's mesh, an
    // animation package's Animation, a TexturePack's colour map), or "" when the file names none.
    static std::string InnerUri(const RbxAsset &file, RbxAssetKind kind) {
        if (file.format == "texturepack") {
            if (kind != RbxAssetKind::Image) return {};
            const auto maps = rbx::ReadTexturePack(file.bytes.data(), file.bytes.size());
            return maps ? maps->color : std::string();
        }
        if (file.format != "rbxm" && file.format != "rbxmx") return {};
        if (kind != RbxAssetKind::Image && kind != RbxAssetKind::Mesh && kind != RbxAssetKind::Animation) return {};
        try {
            const rbx::Document doc = rbx::ReadDocument(file.bytes.data(), file.bytes.size());
            return IndirectUri(doc, kind);
        } catch (const FormatError &e) {
            LogWarn(std::string(rbx::kFormatName) + ": asset " + SanitizeForAiString(file.path, 300) +
                    " cannot be read: " + e.what());
        }
        return {};
    }

    Assimp::IOSystem *mIo;
    const std::vector<std::string> &mFolders;
    std::set<std::string> mVisited;
};

} // namespace

std::string IndirectUri(const rbx::Document &doc, RbxAssetKind kind) {
    // (class, property) pairs that name the asset, in the order they are preferred within an instance.
    static const std::pair<const char *, const char *> kImage[] = {
        {"Decal", "TextureContent"}, {"Decal", "Texture"},        {"Texture", "TextureContent"},
        {"Texture", "Texture"},      {"ShirtGraphic", "Graphic"}, {"Shirt", "ShirtTemplate"},
        {"Pants", "PantsTemplate"},  {"ImageLabel", "Image"},     {"ImageButton", "Image"}};
    static const std::pair<const char *, const char *> kMesh[] = {
        {"MeshPart", "MeshContent"}, {"MeshPart", "MeshId"}, {"SpecialMesh", "MeshId"}, {"FileMesh", "MeshId"}};
    static const std::pair<const char *, const char *> kAnimation[] = {{"Animation", "AnimationId"}};
    const auto *begin = kImage, *end = kImage + std::size(kImage);
    if (kind == RbxAssetKind::Mesh) begin = kMesh, end = kMesh + std::size(kMesh);
    if (kind == RbxAssetKind::Animation) {
        // A model with sequences of its own is the animation itself, not a pointer to one.
        for (const rbx::Instance &inst : doc.instances)
            if (doc.className(inst) == "KeyframeSequence" || doc.className(inst) == "CurveAnimation") return {};
        begin = kAnimation, end = kAnimation + std::size(kAnimation);
    }
    for (const rbx::Instance &inst : doc.instances) {
        const std::string_view cls = doc.className(inst);
        for (const auto *pair = begin; pair != end; ++pair) {
            if (cls != pair->first) continue;
            for (const rbx::Property &p : inst.properties) {
                if (doc.names.str(p.name) != pair->second) continue;
                const auto *c = std::get_if<rbx::Content>(&p.value.data);
                if (c != nullptr && c->source == rbx::Content::Source::Uri &&
                    ParseContentUri(c->uri).kind != RbxContentKey::Kind::None)
                    return c->uri;
                const auto *s = std::get_if<std::string>(&p.value.data);
                if (s != nullptr && ParseContentUri(*s).kind != RbxContentKey::Kind::None) return *s;
            }
        }
    }
    return {};
}

RbxAssetResolver MakeAssetResolver(Assimp::IOSystem *io, std::vector<std::string> folders) {
    if (io == nullptr || folders.empty()) return nullptr;
    return [io, folders = std::move(folders)](const std::string &uri, RbxAssetKind kind) -> std::optional<RbxAsset> {
        AssetLookup lookup(io, folders);
        return lookup.resolve(uri, kind, 0);
    };
}

} // namespace gamefmt::glue
