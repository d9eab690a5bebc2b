// Writing the document model as a Studio-compatible XML file (.rbxmx/.rbxlx; docs/formats/roblox-model.md §3).
#pragma once

#include "importers/roblox_model/document/dom.hpp"

#include <cstddef>
#include <functional>
#include <string>

namespace gamefmt::rbx {

struct XmlWriteOptions {};

std::string WriteXml(const Document &document, const XmlWriteOptions &options = {});

// Receives the XML text in pieces of about 1 MiB, in order.
using XmlSink = std::function<void(const char *data, std::size_t size)>;
// The same text as WriteXml, streamed: memory stays at the document plus one piece however big the file.
void WriteXml(const Document &document, const XmlSink &sink, const XmlWriteOptions &options = {});

} // namespace gamefmt::rbx
