// Placeholder until the implementation lands.
#include "importers/roblox_model/blobs.hpp"

namespace gamefmt::rbx {
std::optional<std::vector<Attribute>> DecodeAttributes(std::string_view) { return std::nullopt; }
std::string EncodeAttributes(const std::vector<Attribute> &) { return {}; }
std::vector<std::string> DecodeTags(std::string_view) { return {}; }
std::string EncodeTags(const std::vector<std::string> &) { return {}; }
std::optional<std::vector<MaterialColor>> DecodeMaterialColors(std::string_view) { return std::nullopt; }
std::string EncodeMaterialColors(const std::vector<MaterialColor> &) { return {}; }
} // namespace gamefmt::rbx
