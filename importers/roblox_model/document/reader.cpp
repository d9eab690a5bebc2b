// ReadDocument: sniffs binary vs XML (docs/formats/roblox-model.md §1) and dispatches to the matching reader.
#include "importers/roblox_model/document/reader.hpp"
#include "importers/roblox_model/document/binary_reader.hpp"
#include "importers/roblox_model/document/xml_reader.hpp"

#include "common/error.hpp"
#include "importers/roblox_model/document/detect.hpp"

namespace gamefmt::rbx {

Document ReadDocument(const std::uint8_t *data, std::size_t size, const ReadOptions &options) {
    switch (Detect(data, size)) {
    case Encoding::Binary:
        return ReadBinary(data, size, options);
    case Encoding::Xml:
        return ReadXml(data, size, options);
    case Encoding::None:
        break;
    }
    throw FormatError(kFormatName, "not a Roblox model or place file (neither '<roblox!' nor '<roblox' XML)", 0);
}

} // namespace gamefmt::rbx
