// TexturePack assets (texture_pack.hpp; docs/formats/roblox-model.md §5.5).
#include "importers/roblox_model/appearance/texture_pack.hpp"

#include "importers/roblox_model/document/detect.hpp"

#include <pugixml.hpp>

#include <algorithm>
#include <cstring>
#include <string_view>

namespace gamefmt::rbx {
namespace {

// A pack is a few hundred bytes; anything this large is not one (and is not parsed as one).
constexpr std::size_t kMaxPackBytes = std::size_t(64) << 10;

std::string *Slot(TexturePackMaps &maps, std::string_view name) {
    if (name == "color") return &maps.color;
    if (name == "normal") return &maps.normal;
    if (name == "metalness") return &maps.metalness;
    if (name == "roughness") return &maps.roughness;
    if (name == "emissive") return &maps.emissive;
    if (name == "height") return &maps.height;
    return nullptr;
}

// "123" → "rbxassetid://123"; "rbxassetid://123" as it is; "0", blanks and anything else → "".
std::string MapUri(std::string_view text) {
    while (!text.empty() &&
           (text.front() == ' ' || text.front() == '\n' || text.front() == '\r' || text.front() == '\t'))
        text.remove_prefix(1);
    while (!text.empty() && (text.back() == ' ' || text.back() == '\n' || text.back() == '\r' || text.back() == '\t'))
        text.remove_suffix(1);
    std::string_view digits = text;
    if (digits.rfind("rbxassetid://", 0) == 0) digits.remove_prefix(13);
    if (digits.empty() || digits.size() > 20) return {};
    bool zero = true;
    for (char c : digits) {
        if (c < '0' || c > '9') return {};
        zero = zero && c == '0';
    }
    return zero ? std::string() : "rbxassetid://" + std::string(digits);
}

bool Parse(const std::uint8_t *data, std::size_t size, TexturePackMaps *out) {
    if (size == 0 || size > kMaxPackBytes || data == nullptr) return false;
    // "<roblox" at the start, or after an XML prolog (which Detect, made for models, does not skip).
    const std::string_view head(reinterpret_cast<const char *>(data), std::min<std::size_t>(size, 256));
    if (Detect(data, size) != Encoding::Xml &&
        (head.find("<?xml") == std::string_view::npos || head.find("<roblox") == std::string_view::npos))
        return false;
    pugi::xml_document doc;
    if (!doc.load_buffer(data, size, pugi::parse_default, pugi::encoding_utf8)) return false;
    const pugi::xml_node root = doc.child("roblox");
    if (!root) return false;
    TexturePackMaps maps;
    bool any = false;
    for (const pugi::xml_node &child : root.children()) {
        if (child.type() != pugi::node_element) continue;
        std::string *slot = Slot(maps, child.name());
        if (slot == nullptr) return false; // <Item>, <Meta>, <External>: a model, not a pack
        *slot = MapUri(child.child_value());
        any = true;
    }
    if (!any) return false;
    if (out != nullptr) *out = std::move(maps);
    return true;
}

} // namespace

bool LooksLikeTexturePack(const std::uint8_t *data, std::size_t size) noexcept {
    try {
        return Parse(data, size, nullptr);
    } catch (...) { // pugixml reports errors by value; only an allocation failure could land here
        return false;
    }
}

std::optional<TexturePackMaps> ReadTexturePack(const std::uint8_t *data, std::size_t size) {
    TexturePackMaps maps;
    if (!Parse(data, size, &maps)) return std::nullopt;
    return maps;
}

} // namespace gamefmt::rbx
