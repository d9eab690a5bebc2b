// Writing the document model as a Studio-compatible binary file (.rbxm/.rbxl; docs/formats/roblox-model.md §2).
#pragma once

#include "importers/roblox_model/document/dom.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gamefmt::rbx {

enum class Compression : std::uint8_t { Lz4, Zstd, None };

struct BinaryWriteOptions {
    Compression compression = Compression::Lz4; // GAMEFMT_RBX_EXPORT_COMPRESSION
    // When set, receives non-fatal problems (e.g. a property omitted because only some instances of
    // its class carry it and its class default is unknown).
    std::vector<std::string> *warnings = nullptr;
};

std::vector<std::uint8_t> WriteBinary(const Document &document, const BinaryWriteOptions &options = {});

} // namespace gamefmt::rbx
