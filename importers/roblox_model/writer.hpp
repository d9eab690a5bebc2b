// Writing the document model as a Studio-compatible binary (.rbxm/.rbxl) or XML (.rbxmx/.rbxlx) file.
#pragma once

#include "importers/roblox_model/dom.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace gamefmt::rbx {

enum class Compression : std::uint8_t { Lz4, Zstd, None };

struct BinaryWriteOptions {
    Compression compression = Compression::Lz4; // GAMEFMT_RBX_EXPORT_COMPRESSION
    // When set, receives non-fatal problems (e.g. a property omitted because only some instances of
    // its class carry it).
    std::vector<std::string> *warnings = nullptr;
};

struct XmlWriteOptions {};

std::vector<std::uint8_t> WriteBinary(const Document &document, const BinaryWriteOptions &options = {});
std::string WriteXml(const Document &document, const XmlWriteOptions &options = {});

} // namespace gamefmt::rbx
