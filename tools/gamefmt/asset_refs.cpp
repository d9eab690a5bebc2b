// Asset references of a Roblox document (asset_refs.hpp).
#include "asset_refs.hpp"

#include <map>

namespace gamefmt::cli {
namespace {

bool LooksLikeUri(std::string_view text) {
    const std::size_t colon = text.find("://");
    if (colon == std::string_view::npos || colon == 0 || colon > 10) return false;
    for (std::size_t i = 0; i < colon; ++i) {
        const char c = text[i];
        if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z'))) return false;
    }
    return text.size() < 2048;
}

} // namespace

std::string KindOf(std::string_view cls, std::string_view prop) {
    const auto is = [&](std::initializer_list<std::string_view> names) {
        for (std::string_view n : names)
            if (prop == n) return true;
        return false;
    };
    if (is({"MeshId", "MeshID", "MeshContent"})) return "mesh";
    // Layered clothing's cages (WrapLayer, WrapTarget) are Roblox meshes; HSR data is kept, not read.
    if (is({"CageMeshId", "CageMeshContent", "ReferenceMeshId", "ReferenceMeshContent"})) return "cage";
    if (cls == "UnionOperation" || cls == "IntersectOperation" || cls == "NegateOperation" || cls == "PartOperation")
        return "union";
    if (is({"ColorMap", "NormalMap", "MetalnessMap", "RoughnessMap", "ColorMapContent", "NormalMapContent",
            "MetalnessMapContent", "RoughnessMapContent"}))
        return "surface map";
    if (prop == "TexturePack") return "texture pack";
    if (cls == "Decal" || cls == "Texture") return "decal";
    if (is({"TextureID", "TextureId", "TextureContent"})) return "texture";
    if (is({"SoundId"})) return "sound";
    if (is({"AnimationId"})) return "animation";
    if (is({"Image", "ImageContent", "HoverImage", "PressedImage"})) return "image";
    if (prop.substr(0, 6) == "Skybox" || is({"SunTextureId", "MoonTextureId"})) return "sky";
    if (is({"Graphic", "ShirtTemplate", "PantsTemplate"})) return "clothing";
    return "other";
}

std::string UriOf(const rbx::Value &value) {
    if (const auto *c = std::get_if<rbx::Content>(&value.data))
        return c->source == rbx::Content::Source::Uri ? c->uri : std::string();
    if (value.xmlTag == rbx::XmlTag::ContentBinary || value.xmlTag == rbx::XmlTag::ContentHash) return {};
    if (const auto *s = std::get_if<std::string>(&value.data)) return LooksLikeUri(*s) ? *s : std::string();
    return {};
}

std::string FullName(const rbx::Document &doc, std::uint32_t index) {
    std::string name;
    for (std::size_t steps = 0; index < doc.instances.size() && steps < 512; ++steps) {
        const rbx::Instance &inst = doc.instances[index];
        name = name.empty() ? inst.name : inst.name + "." + name;
        index = inst.parent;
    }
    return name;
}

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

} // namespace gamefmt::cli
