// Metadata → glTF extras (extras.hpp).
#include "assimp_glue/gltf/extras.hpp"

#include "common/json_text.hpp"
#include "gamefmt/metadata.hpp"

#include <assimp/metadata.h>

#include <charconv>
#include <cmath>
#include <cstdio>
#include <set>
#include <string_view>
#include <system_error>

namespace gamefmt::glue {
namespace {

constexpr int kMaxDepth = 16;

std::string Number(double v) {
    if (!std::isfinite(v)) return "null";
    char buf[40];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    // The shortest text that reads back to the same double.
    for (int digits = 6; digits < 17; ++digits) {
        char shorter[40];
        std::snprintf(shorter, sizeof shorter, "%.*g", digits, v);
        double back = 0;
        const auto [end, ec] = std::from_chars(shorter, shorter + std::strlen(shorter), back);
        if (ec == std::errc() && back == v) return shorter;
    }
    return buf;
}

std::string FloatNumber(float v) {
    if (!std::isfinite(v)) return "null";
    for (int digits = 6; digits <= 9; ++digits) {
        char text[32];
        std::snprintf(text, sizeof text, "%.*g", digits, static_cast<double>(v));
        if (std::strtof(text, nullptr) == v) return text;
    }
    return Number(v);
}

// A whole finite number from `token`; false for anything else (INF, NAN, words).
bool ParseNumber(std::string_view token, double &out) {
    if (token.empty()) return false;
    const auto [end, ec] = std::from_chars(token.data(), token.data() + token.size(), out);
    return ec == std::errc() && end == token.data() + token.size() && std::isfinite(out);
}

std::string EntryJson(const MetadataValue &v, int depth);

// "anim.<digits>.": per-animation entries of the scene (AnimationExtrasJson), not the scene's own.
bool IsAnimationKey(std::string_view key) {
    if (key.rfind("anim.", 0) != 0) return false;
    std::size_t i = 5;
    while (i < key.size() && key[i] >= '0' && key[i] <= '9') ++i;
    return i > 5 && i < key.size() && key[i] == '.';
}

// Entries whose value is JSON text already (a list made by the importer).
bool IsJsonTextKey(std::string_view key) {
    return key == "rbx.markers" || key == "rbx.unboundTracks";
}

// `prefix` empty: every entry but the per-animation ones; else only the entries under `prefix`, without it.
std::string ObjectJson(const aiMetadata &md, int depth, std::string_view prefix = {}) {
    std::string out;
    std::set<std::string> seen;
    ForEachMetadata(md, [&](const MetadataValue &v) {
        std::string key(v.key);
        if (prefix.empty() ? (depth == 0 && IsAnimationKey(key)) : key.rfind(prefix, 0) != 0) return;
        key.erase(0, prefix.size());
        if (IsBlobMetadataKey(key) || !seen.insert(key).second) return;
        std::string value =
            !prefix.empty() && v.isText && IsJsonTextKey(key) ? std::string(v.text) : EntryJson(v, depth);
        if (value.empty()) return;
        out += out.empty() ? "{" : ",";
        out += JsonQuote(key) + ":" + value;
    });
    return out.empty() ? std::string() : out + "}";
}

std::string EntryJson(const MetadataValue &v, int depth) {
    if (v.isText) {
        const std::string text(v.text);
        return v.key.rfind("rbx.props.", 0) == 0 ? RobloxPropertyJson(text) : JsonQuote(text);
    }
    const aiMetadataEntry &e = *v.entry;
    if (e.mData == nullptr) return {};
    switch (e.mType) {
    case AI_BOOL:
        return *static_cast<const bool *>(e.mData) ? "true" : "false";
    case AI_INT32:
        return std::to_string(*static_cast<const std::int32_t *>(e.mData));
    case AI_UINT64:
        return std::to_string(*static_cast<const std::uint64_t *>(e.mData));
    case AI_FLOAT:
        return FloatNumber(*static_cast<const float *>(e.mData));
    case AI_DOUBLE:
        return Number(*static_cast<const double *>(e.mData));
    case AI_AIVECTOR3D: {
        const auto &p = *static_cast<const aiVector3D *>(e.mData);
        return "[" + FloatNumber(p.x) + "," + FloatNumber(p.y) + "," + FloatNumber(p.z) + "]";
    }
    case AI_AIMETADATA: {
        if (depth >= kMaxDepth) return {};
        const std::string nested = ObjectJson(*static_cast<const aiMetadata *>(e.mData), depth + 1);
        return nested.empty() ? std::string("{}") : nested;
    }
    default:
        return {};
    }
}

} // namespace

bool IsBlobMetadataKey(const std::string &key) {
    static const std::set<std::string, std::less<>> kBlobs = {
        "rbx.source", "rbxmesh.facs", "rbxmesh.hsravis",  "rbxmesh.trailingBytes",
        "rg.header",  "rg.v2_block",  "rg.segment_header"};
    if (kBlobs.count(key) != 0) return true;
    const std::string chunk = "rbxmesh.unknownChunk.";
    return key.rfind(chunk, 0) == 0 && key.size() > 5 && key.compare(key.size() - 5, 5, ".data") == 0;
}

std::string RobloxPropertyJson(const std::string &stored) {
    const std::size_t colon = stored.find(':');
    if (colon == std::string::npos) return JsonQuote(stored);
    const std::string_view type(stored.data(), colon);
    const std::string_view text(stored.data() + colon + 1, stored.size() - colon - 1);
    if (type == "Bool") {
        if (text == "true" || text == "false") return std::string(text);
        return JsonQuote(text);
    }
    static const std::set<std::string, std::less<>> kScalar = {"Int32",   "Int64", "Float32",
                                                               "Float64", "Enum",  "BrickColor"};
    static const std::set<std::string, std::less<>> kVector = {
        "Vector2", "Vector3", "Vector2int16", "Vector3int16", "Color3",     "Color3uint8", "CFrame", "UDim",
        "UDim2",   "Rect",    "NumberRange",  "Ray",          "CFrameQuat", "Faces",       "Axes",   "OptionalCFrame"};
    if (kScalar.count(type) != 0) {
        double v = 0;
        return ParseNumber(text, v) ? Number(v) : JsonQuote(text);
    }
    if (kVector.count(type) != 0) {
        std::string out = "[";
        std::size_t at = 0;
        bool any = false;
        while (at < text.size()) {
            const std::size_t space = text.find(' ', at);
            const std::string_view token = text.substr(at, space == std::string_view::npos ? text.npos : space - at);
            at = space == std::string_view::npos ? text.size() : space + 1;
            if (token.empty()) continue;
            double v = 0;
            if (!ParseNumber(token, v)) return JsonQuote(text);
            out += (any ? "," : "") + Number(v);
            any = true;
        }
        return any ? out + "]" : JsonQuote(text);
    }
    return JsonQuote(text);
}

std::string MetadataExtrasJson(const aiMetadata &md) {
    return ObjectJson(md, 0);
}

std::string AnimationExtrasJson(const aiMetadata &sceneMetadata, unsigned animation) {
    return ObjectJson(sceneMetadata, 0, "anim." + std::to_string(animation) + ".");
}

} // namespace gamefmt::glue
