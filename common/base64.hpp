// Base64 (RFC 4648, standard alphabet, padded) for keeping binary blobs in text metadata.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gamefmt {

std::string Base64Encode(const std::uint8_t *data, std::size_t size);
inline std::string Base64Encode(const std::vector<std::uint8_t> &bytes) {
    return Base64Encode(bytes.data(), bytes.size());
}

// nullopt on a character outside the alphabet, bad padding or a length that is not a multiple of 4.
std::optional<std::vector<std::uint8_t>> Base64Decode(std::string_view text);

} // namespace gamefmt
