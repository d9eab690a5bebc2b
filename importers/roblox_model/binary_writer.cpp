// Placeholder until the implementation lands.
#include "importers/roblox_model/writer.hpp"

#include "common/error.hpp"

namespace gamefmt::rbx {
std::vector<std::uint8_t> WriteBinary(const Document &, const BinaryWriteOptions &) {
    throw FormatError(kFormatName, "WriteBinary is not implemented yet");
}
} // namespace gamefmt::rbx
