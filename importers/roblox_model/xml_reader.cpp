// Placeholder until the implementation lands.
#include "importers/roblox_model/reader.hpp"

#include "common/error.hpp"

namespace gamefmt::rbx {
Document ReadXml(const std::uint8_t *, std::size_t, const ReadOptions &) {
    throw FormatError(kFormatName, "ReadXml is not implemented yet");
}
} // namespace gamefmt::rbx
