// Placeholder until the implementation lands.
#include "importers/roblox_model/reader.hpp"

#include "common/error.hpp"

namespace gamefmt::rbx {
Document ReadDocument(const std::uint8_t *, std::size_t, const ReadOptions &) {
    throw FormatError(kFormatName, "ReadDocument is not implemented yet");
}
} // namespace gamefmt::rbx
