// The BrickColor palette (docs/formats/roblox-model.md §5.1): the 208 numbered colours of BrickColor properties.
#pragma once

#include "importers/roblox_model/document/dom.hpp"

#include <cstdint>
#include <optional>

namespace gamefmt::rbx {

// BrickColor number → sRGB; nullopt for a number not in the palette.
std::optional<Color3uint8> BrickColorRgb(std::uint32_t number);

} // namespace gamefmt::rbx
