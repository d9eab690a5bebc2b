// Animation extras of a glTF file into the scene's metadata (gltf_extras.hpp).
#include "gltf_extras.hpp"

#include "common/utf8_path.hpp"
#include "gamefmt/metadata.hpp"

#include <assimp/scene.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <array>
#include <cctype>
#include <exception>
#include <fstream>
#include <limits>
#include <set>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace gamefmt::cli {
namespace {

using nlohmann::json;

constexpr std::uint32_t kGlbMagic = 0x46546C67;          // "glTF"
constexpr std::uint32_t kJsonChunk = 0x4E4F534A;         // "JSON"
constexpr std::size_t kMaxJson = std::size_t{256} << 20; // no real glTF's JSON comes near this
constexpr int kMaxDepth = 64;

std::uint32_t U32(const std::uint8_t *p) {
    return static_cast<std::uint32_t>(p[0]) | static_cast<std::uint32_t>(p[1]) << 8 |
           static_cast<std::uint32_t>(p[2]) << 16 | static_cast<std::uint32_t>(p[3]) << 24;
}

// The JSON text of glTF bytes: a glb's first chunk (which the format requires to be JSON) or the bytes themselves.
bool JsonText(const std::uint8_t *bytes, std::size_t size, std::string_view &out, std::string &why) {
    if (size >= 4 && U32(bytes) == kGlbMagic) {
        if (size < 20) {
            why = "a glb shorter than its 20-byte header";
            return false;
        }
        const std::uint32_t length = U32(bytes + 12), type = U32(bytes + 16);
        if (type != kJsonChunk || length > size - 20) {
            why = "the glb's first chunk (byte offset 12) is not a JSON chunk within the file";
            return false;
        }
        out = std::string_view(reinterpret_cast<const char *>(bytes + 20), length);
        return true;
    }
    out = std::string_view(reinterpret_cast<const char *>(bytes), size);
    return true;
}

// The scene's metadata keys (to keep what the scene has).
std::set<std::string> KeysOf(const aiMetadata *md) {
    std::set<std::string> keys;
    if (md == nullptr) return keys;
    for (unsigned i = 0; i < md->mNumProperties; ++i) keys.emplace(md->mKeys[i].C_Str());
    return keys;
}

// Adds one extras value under `key`; false for a null (nothing to add).
bool AddValue(MetadataBuilder &md, const std::string &key, const json &v) {
    switch (v.type()) {
    case json::value_t::boolean:
        md.add(key, v.get<bool>());
        return true;
    case json::value_t::number_integer: {
        const auto i = v.get<std::int64_t>();
        if (i >= std::numeric_limits<std::int32_t>::min() && i <= std::numeric_limits<std::int32_t>::max())
            md.add(key, static_cast<std::int32_t>(i));
        else if (i >= 0)
            md.add(key, static_cast<std::uint64_t>(i));
        else
            md.add(key, static_cast<double>(i));
        return true;
    }
    case json::value_t::number_unsigned: {
        const auto u = v.get<std::uint64_t>();
        if (u <= static_cast<std::uint64_t>(std::numeric_limits<std::int32_t>::max()))
            md.add(key, static_cast<std::int32_t>(u));
        else
            md.add(key, u);
        return true;
    }
    case json::value_t::number_float:
        md.add(key, v.get<double>());
        return true;
    case json::value_t::string:
        md.add(key, std::string_view(v.get_ref<const std::string &>()));
        return true;
    case json::value_t::array:
    case json::value_t::object:
        md.add(key, std::string_view(v.dump(-1, ' ', false, json::error_handler_t::replace)));
        return true;
    default:
        return false;
    }
}

} // namespace

std::size_t RestoreGltfAnimationExtras(aiScene &scene, const std::uint8_t *bytes, std::size_t size,
                                       std::string *warning) {
    std::string why;
    const auto fail = [&](const std::string &text) {
        if (warning != nullptr) *warning = "glTF animation extras not read: " + text;
        return std::size_t{0};
    };
    if (bytes == nullptr || size == 0) return fail("no bytes");
    std::string_view text;
    if (!JsonText(bytes, size, text, why)) return fail(why);
    if (text.size() > kMaxJson) return fail("the JSON is larger than 256 MiB");
    json doc;
    try {
        // Depth-limited (the parser itself does not recurse, but writing a nested value back as text would).
        doc = json::parse(
            text.begin(), text.end(),
            [](int depth, json::parse_event_t, json &) {
                if (depth > kMaxDepth) throw std::runtime_error("nested deeper than 64 levels");
                return true;
            },
            true);
    } catch (const std::exception &e) {
        return fail(std::string("the JSON does not parse (") + e.what() + ")");
    }
    if (!doc.is_object()) return fail("the JSON is not an object");
    const auto animations = doc.find("animations");
    if (animations == doc.end() || !animations->is_array()) return 0;
    if (animations->size() != scene.mNumAnimations) {
        if (warning != nullptr)
            *warning = "glTF animation extras not read: the file has " + std::to_string(animations->size()) +
                       " animations, the scene " + std::to_string(scene.mNumAnimations);
        return 0;
    }
    const std::set<std::string> existing = KeysOf(scene.mMetaData);
    MetadataBuilder md;
    std::size_t added = 0;
    for (std::size_t i = 0; i < animations->size(); ++i) {
        const json &a = (*animations)[i];
        if (!a.is_object() || scene.mAnimations[i] == nullptr) continue;
        const auto name = a.find("name");
        if (name != a.end() && name->is_string() &&
            name->get_ref<const std::string &>() != scene.mAnimations[i]->mName.C_Str())
            continue; // not the animation the importer made at this index
        const auto extras = a.find("extras");
        if (extras == a.end() || !extras->is_object()) continue;
        const std::string prefix = "anim." + std::to_string(i) + ".";
        for (const auto &[key, value] : extras->items()) {
            const std::string full = prefix + key;
            if (key.empty() || existing.count(full) != 0) continue;
            added += AddValue(md, full, value) ? 1 : 0;
        }
    }
    if (added != 0) md.mergeInto(scene.mMetaData);
    return added;
}

std::size_t RestoreGltfAnimationExtrasFromFile(aiScene &scene, const std::string &path, std::string *warning) {
    std::string extension = PathToUtf8(PathFromUtf8(path).extension());
    std::transform(extension.begin(), extension.end(), extension.begin(),
                   [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
    if (extension != ".glb" && extension != ".gltf") return 0;
    std::ifstream in(PathFromUtf8(path), std::ios::binary);
    if (!in) return 0;
    std::array<std::uint8_t, 20> head{};
    in.read(reinterpret_cast<char *>(head.data()), head.size());
    const auto got = static_cast<std::size_t>(in.gcount());
    std::vector<std::uint8_t> bytes;
    if (got >= 4 && U32(head.data()) == kGlbMagic) {
        // A glb: the header and the JSON chunk only (the binary chunk can be large).
        if (got < head.size()) return RestoreGltfAnimationExtras(scene, head.data(), got, warning);
        const std::uint32_t length = U32(head.data() + 12);
        if (length > kMaxJson) return RestoreGltfAnimationExtras(scene, head.data(), got, warning);
        bytes.assign(head.begin(), head.end());
        bytes.resize(head.size() + length);
        in.read(reinterpret_cast<char *>(bytes.data() + head.size()), length);
        bytes.resize(head.size() + static_cast<std::size_t>(in.gcount()));
    } else {
        in.clear();
        in.seekg(0, std::ios::end);
        const std::streamoff end = in.tellg();
        if (end <= 0 || static_cast<std::uint64_t>(end) > kMaxJson) return 0;
        bytes.resize(static_cast<std::size_t>(end));
        in.seekg(0);
        in.read(reinterpret_cast<char *>(bytes.data()), end);
        bytes.resize(static_cast<std::size_t>(in.gcount()));
    }
    return RestoreGltfAnimationExtras(scene, bytes.data(), bytes.size(), warning);
}

} // namespace gamefmt::cli
