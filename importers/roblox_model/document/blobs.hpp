// Decoders and encoders of the binary blobs stored in String properties (docs/formats/roblox-model.md §2.6):
// AttributesSerialize, Tags and Terrain MaterialColors. A blob that does not parse stays raw (nullopt).
#pragma once

#include "importers/roblox_model/document/dom.hpp"

#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gamefmt::rbx {

struct AttributeEnumItem {
    std::string enumName;
    std::uint32_t value = 0;
};

// One attribute: its own type id (§2.6: 02 String, 03 Bool, 04 Int32 (f64 in practice? see reference),
// 05 f32, 06 f64, 09 UDim, 0A UDim2, 0E BrickColor, 0F Color3, 10 Vector2, 11 Vector3, 14 CFrame,
// 15 EnumItem, 17 NumberSequence, 19 ColorSequence, 1B NumberRange, 1C Rect, 21 Font) and its value.
struct Attribute {
    std::string name;
    std::uint8_t type = 0;
    Value value;                       // for every type but EnumItem
    AttributeEnumItem enumItem;        // type 0x15
    std::uint8_t cframeRotationId = 0; // type 0x14: the stored rotation id (0 = nine floats), so encoding is exact
};

std::optional<std::vector<Attribute>> DecodeAttributes(std::string_view blob);
std::string EncodeAttributes(const std::vector<Attribute> &attributes);

std::vector<std::string> DecodeTags(std::string_view blob); // names joined by NUL, no trailing NUL
std::string EncodeTags(const std::vector<std::string> &tags);

struct MaterialColor {
    std::string material;
    Color3uint8 color;
};
std::optional<std::vector<MaterialColor>> DecodeMaterialColors(std::string_view blob);
std::string EncodeMaterialColors(const std::vector<MaterialColor> &colors);

} // namespace gamefmt::rbx
