// The binary model format (.rbxm/.rbxl; docs/formats/roblox-model.md §2): chunk framing (META, SSTR, INST, PROP,
// PRNT, END), LZ4/zstd chunk bodies, the instance tree; the PROP columns' values are binary_column_decoder's.
#pragma once

#include "importers/roblox_model/document/reader.hpp"

namespace gamefmt::rbx {

Document ReadBinary(const std::uint8_t *data, std::size_t size, const ReadOptions &options = {});

} // namespace gamefmt::rbx
