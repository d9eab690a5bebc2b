// The XML model format (.rbxmx/.rbxlx; docs/formats/roblox-model.md §3) read into the document model: <Item> trees,
// typed property elements, SharedStrings; values through the families of value_text.
#pragma once

#include "importers/roblox_model/document/reader.hpp"

namespace gamefmt::rbx {

Document ReadXml(const std::uint8_t *data, std::size_t size, const ReadOptions &options = {});

} // namespace gamefmt::rbx
