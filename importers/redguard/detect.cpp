// Signature test for Redguard models and ROB archives.
#include "importers/redguard/detect.hpp"

#include <cstring>

namespace gamefmt::redguard {

FileKind Detect(const std::uint8_t *data, std::size_t size) noexcept {
    if (data == nullptr || size < 4) return FileKind::None;
    if (std::memcmp(data, "OARC", 4) == 0) return FileKind::Archive;
    static const char *const kVersions[] = {"v2.6", "v2.7", "v4.0", "v5.0"};
    for (const char *v : kVersions)
        if (std::memcmp(data, v, 4) == 0) return FileKind::Model;
    return FileKind::None;
}

} // namespace gamefmt::redguard
