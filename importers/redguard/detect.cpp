// Signature test for Redguard models and ROB archives.
#include "importers/redguard/detect.hpp"

#include "common/error.hpp"

#include <cstring>
#include <string_view>

namespace gamefmt::redguard {

FileKind Detect(const std::uint8_t *data, std::size_t size) noexcept {
    if (data == nullptr || size < 4) return FileKind::None;
    if (std::memcmp(data, "OARC", 4) == 0) return FileKind::Archive;
    static const char *const kVersions[] = {"v2.6", "v2.7", "v4.0", "v5.0"};
    for (const char *v : kVersions)
        if (std::memcmp(data, v, 4) == 0) return FileKind::Model;
    return FileKind::None;
}

std::string DescribeMismatch(const std::uint8_t *data, std::size_t size) {
    if (Detect(data, size) != FileKind::None) return {};
    if (data == nullptr || size == 0) return "the file is empty";
    const std::string_view head(reinterpret_cast<const char *>(data), size < 4 ? size : 4);
    return "the first bytes \"" + QuoteText(head) +
           "\" at byte offset 0 are not v2.6, v2.7, v4.0, v5.0 (model) or OARC (archive)";
}

} // namespace gamefmt::redguard
