// Signature test for Roblox .mesh files.
#include "importers/roblox_mesh/detect.hpp"

#include "common/error.hpp"

#include <cstring>
#include <string_view>

namespace gamefmt::rbxmesh {

std::string Detect(const std::uint8_t *data, std::size_t size) noexcept {
    static const char *const kKnown[] = {"1.00", "1.01", "2.00", "3.00", "3.01",
                                         "4.00", "4.01", "5.00", "6.00", "7.00"};
    static const char kPrefix[] = "version ";
    constexpr std::size_t kPrefixLen = sizeof(kPrefix) - 1;
    if (data == nullptr || size < kPrefixLen + 4 || std::memcmp(data, kPrefix, kPrefixLen) != 0) return {};
    const char *v = reinterpret_cast<const char *>(data) + kPrefixLen;
    for (const char *known : kKnown) {
        if (std::memcmp(v, known, 4) != 0) continue;
        // The version must end the token: a line break (binary: "\n"; text: "\n" or "\r\n") or EOF.
        if (size > kPrefixLen + 4) {
            const char next = v[4];
            if (next != '\n' && next != '\r') return {};
        }
        return std::string(v, 4);
    }
    return {};
}

std::string DescribeMismatch(const std::uint8_t *data, std::size_t size) {
    if (!Detect(data, size).empty()) return {};
    if (data == nullptr || size == 0) return "the file is empty";
    const std::string_view text(reinterpret_cast<const char *>(data), size);
    if (text.rfind("version ", 0) != 0)
        return "no \"version \" header at byte offset 0 (the file starts \"" + QuoteText(text.substr(0, 16)) + "\")";
    return "version \"" + QuoteText(text.substr(8, 6)) + "\" at byte offset 8 is not one of 1.00, 1.01, 2.00 ... 7.00";
}

} // namespace gamefmt::rbxmesh
