// Signature test for Second Life mesh assets.
#include "importers/sl_mesh/detect.hpp"

#include <algorithm>
#include <cstring>

namespace gamefmt::slmesh {
namespace {

std::uint32_t ReadU32BE(const std::uint8_t *p) {
    return (std::uint32_t(p[0]) << 24) | (std::uint32_t(p[1]) << 16) | (std::uint32_t(p[2]) << 8) | p[3];
}

bool Contains(const std::uint8_t *data, std::size_t size, const char *needle) {
    const std::size_t n = std::strlen(needle);
    return std::search(data, data + size, needle, needle + n) != data + size;
}

} // namespace

bool Detect(const std::uint8_t *data, std::size_t size) noexcept {
    if (data == nullptr) return false;
    std::size_t i = 0;
    // Legacy text prefix "<? LLSD/Binary ?>\n": skip through "?>" and one "\n".
    if (size >= 2 && data[0] == '<' && data[1] == '?') {
        std::size_t j = 2;
        while (j + 1 < size && j < 64 && !(data[j] == '?' && data[j + 1] == '>')) ++j;
        if (j + 1 >= size || j >= 64) return false;
        i = j + 2;
        if (i < size && data[i] == '\n') ++i;
    }
    // '{' + u32 BE entry count, then 'k' + u32 BE key length + key bytes.
    if (size - i < 10 || data[i] != 0x7B) return false;
    const std::uint32_t count = ReadU32BE(data + i + 1);
    if (count < 1 || count > 64 || data[i + 5] != 0x6B) return false;
    const std::uint32_t keyLen = ReadU32BE(data + i + 6);
    if (keyLen < 1 || keyLen > 64 || size - i - 10 < keyLen) return false;
    for (std::uint32_t k = 0; k < keyLen; ++k) {
        const std::uint8_t c = data[i + 10 + k];
        if (c < 0x20 || c > 0x7E) return false;
    }
    const std::size_t window = std::min<std::size_t>(size, kSignatureBytes);
    return Contains(data, window, "_lod") || Contains(data, window, "mesh");
}

} // namespace gamefmt::slmesh
