// Signature test for Roblox model and place files (docs/formats/roblox-model.md §1): binary "<roblox!" or XML
// "<roblox".
#pragma once

#include "importers/roblox_model/document/dom.hpp"

#include <cstddef>
#include <cstdint>

namespace gamefmt::rbx {

// How many leading bytes Detect looks at, at most (BOM and leading whitespace included).
constexpr std::size_t kSignatureBytes = 256;

// Skips a UTF-8 BOM and leading whitespace, then: "<roblox!" → Binary, "<roblox" + another byte → Xml.
Encoding Detect(const std::uint8_t *data, std::size_t size) noexcept;

} // namespace gamefmt::rbx
