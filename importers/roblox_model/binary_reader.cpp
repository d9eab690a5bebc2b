// Placeholder until the implementation lands.
#include "importers/roblox_model/reader.hpp"

#include "common/error.hpp"

namespace gamefmt::rbx {
Document ReadBinary(const std::uint8_t *, std::size_t, const ReadOptions &) {
    throw FormatError(kFormatName, "ReadBinary is not implemented yet");
}
} // namespace gamefmt::rbx
