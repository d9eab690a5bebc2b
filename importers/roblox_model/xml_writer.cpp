// Placeholder until the implementation lands.
#include "importers/roblox_model/writer.hpp"

#include "common/error.hpp"

namespace gamefmt::rbx {
std::string WriteXml(const Document &, const XmlWriteOptions &) {
    throw FormatError(kFormatName, "WriteXml is not implemented yet");
}
} // namespace gamefmt::rbx
