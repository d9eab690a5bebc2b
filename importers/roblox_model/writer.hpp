// Writing the document model as a Studio-compatible binary (.rbxm/.rbxl) or XML (.rbxmx/.rbxlx) file.
#pragma once

#include "importers/roblox_model/dom.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
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

struct XmlWriteOptions {};

std::vector<std::uint8_t> WriteBinary(const Document &document, const BinaryWriteOptions &options = {});
std::string WriteXml(const Document &document, const XmlWriteOptions &options = {});

// Receives the XML text in pieces of about 1 MiB, in order.
using XmlSink = std::function<void(const char *data, std::size_t size)>;
// The same text as WriteXml, streamed: memory stays at the document plus one piece however big the file.
void WriteXml(const Document &document, const XmlSink &sink, const XmlWriteOptions &options = {});

} // namespace gamefmt::rbx
