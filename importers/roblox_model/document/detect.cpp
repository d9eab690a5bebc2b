// Signature test for Roblox model and place files.
#include "importers/roblox_model/document/detect.hpp"

#include <cstring>

namespace gamefmt::rbx {

Encoding Detect(const std::uint8_t *data, std::size_t size) noexcept {
    if (data == nullptr) return Encoding::None;
    std::size_t i = 0;
    if (size >= 3 && data[0] == 0xEF && data[1] == 0xBB && data[2] == 0xBF) i = 3;
    while (i < size && (data[i] == ' ' || data[i] == '\t' || data[i] == '\r' || data[i] == '\n')) ++i;
    static const char kTag[] = "<roblox";
    constexpr std::size_t kTagLen = sizeof(kTag) - 1;
    // Need the byte after the tag to tell binary from XML.
    if (size - i < kTagLen + 1 || std::memcmp(data + i, kTag, kTagLen) != 0) return Encoding::None;
    const std::uint8_t next = data[i + kTagLen];
    if (next == '!') return i == 0 ? Encoding::Binary : Encoding::None; // binary files start at byte 0
    if (next == ' ' || next == '>' || next == '\t' || next == '\r' || next == '\n') return Encoding::Xml;
    return Encoding::None;
}

} // namespace gamefmt::rbx
