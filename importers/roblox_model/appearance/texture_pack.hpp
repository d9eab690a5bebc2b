// A Roblox TexturePack asset (asset type 63; docs/formats/roblox-model.md §5.5): a small XML document naming the
// image asset of each map of a PBR material, `<roblox><color>ID</color><normal>ID</normal><metalness>ID</metalness>
// <roughness>ID</roughness></roblox>` (emissive and height maps may follow; an id of 0 means none). SurfaceAppearance,
// MaterialVariant and Decal name one by their hidden TexturePack property.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>

namespace gamefmt::rbx {

// Each map as a content URI ("rbxassetid://N"), empty when the pack has none (absent, 0, not an id).
struct TexturePackMaps {
    std::string color, normal, metalness, roughness, emissive, height;
};

// True when the bytes are a TexturePack: an XML document whose root is <roblox> and whose element children are
// map names (color, normal, metalness, roughness, emissive, height), none of them an <Item> (a model).
bool LooksLikeTexturePack(const std::uint8_t *data, std::size_t size) noexcept;

// The maps of a TexturePack; nullopt when the bytes are not one (LooksLikeTexturePack false, or XML that does not
// parse).
std::optional<TexturePackMaps> ReadTexturePack(const std::uint8_t *data, std::size_t size);

} // namespace gamefmt::rbx
