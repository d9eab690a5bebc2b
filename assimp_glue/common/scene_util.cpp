// Scene-building helpers shared by every importer and exporter.
#include "assimp_glue/common/scene_util.hpp"

#include <assimp/DefaultLogger.hpp>
#include <assimp/commonMetaData.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>

namespace gamefmt::glue {
namespace {

constexpr std::size_t kMaxAiString = MAXLEN - 1; // 1023 bytes of text plus the terminator
const char kReplacement[] = "\xEF\xBF\xBD";      // U+FFFD

// Length of the valid UTF-8 sequence at s[i], or 0 when it is invalid.
std::size_t Utf8SequenceLength(std::string_view s, std::size_t i) {
    const auto c = static_cast<unsigned char>(s[i]);
    std::size_t n = 0;
    std::uint32_t cp = 0;
    if (c < 0x80) return 1;
    if (c >= 0xC2 && c <= 0xDF)
        n = 2, cp = c & 0x1F;
    else if (c >= 0xE0 && c <= 0xEF)
        n = 3, cp = c & 0x0F;
    else if (c >= 0xF0 && c <= 0xF4)
        n = 4, cp = c & 0x07;
    else
        return 0;
    if (i + n > s.size()) return 0;
    for (std::size_t k = 1; k < n; ++k) {
        const auto cc = static_cast<unsigned char>(s[i + k]);
        if ((cc & 0xC0) != 0x80) return 0;
        cp = (cp << 6) | (cc & 0x3F);
    }
    if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
        return 0; // overlong, out of range or a surrogate
    return n;
}

} // namespace

std::string SanitizeForAiString(std::string_view text, std::size_t maxBytes) {
    // Plain ASCII that fits (numbers, hex, base64, most names) has nothing to replace or cut.
    if (text.size() <= maxBytes &&
        std::all_of(text.begin(), text.end(), [](char c) { return c != '\0' && (c & 0x80) == 0; }))
        return std::string(text);
    std::string out;
    out.reserve(text.size() < maxBytes ? text.size() : maxBytes);
    for (std::size_t i = 0; i < text.size();) {
        std::size_t n = text[i] == '\0' ? 0 : Utf8SequenceLength(text, i);
        const char *piece = n != 0 ? text.data() + i : kReplacement;
        const std::size_t pieceLen = n != 0 ? n : 3;
        if (out.size() + pieceLen > maxBytes) break;
        out.append(piece, pieceLen);
        i += n != 0 ? n : 1;
    }
    return out;
}

aiString ToAiString(std::string_view text) {
    aiString s;
    // Plain ASCII that fits (names, numbers, hex, metadata parts) needs no copy: nothing to replace or cut.
    const bool plain = text.size() <= kMaxAiString &&
                       std::all_of(text.begin(), text.end(), [](char c) { return c != '\0' && (c & 0x80) == 0; });
    if (plain) {
        s.length = static_cast<ai_uint32>(text.size());
        std::memcpy(s.data, text.data(), text.size());
        s.data[text.size()] = '\0';
        return s;
    }
    s.Set(SanitizeForAiString(text));
    return s;
}

std::string UniqueNames::make(std::string_view wanted) {
    std::string base(wanted);
    auto [it, inserted] = mUsed.emplace(base, 1u);
    if (inserted) return base;
    for (unsigned &next = it->second;; ++next) {
        std::string candidate = base + "." + std::to_string(next);
        if (mUsed.emplace(candidate, 1u).second) {
            ++next;
            return candidate;
        }
    }
}

aiMaterial *MakeMaterial(std::string_view name, const aiColor4D &color) {
    auto *material = new aiMaterial();
    const aiString aiName = ToAiString(name);
    material->AddProperty(&aiName, AI_MATKEY_NAME);
    material->AddProperty(&color, 1, AI_MATKEY_BASE_COLOR);
    material->AddProperty(&color, 1, AI_MATKEY_COLOR_DIFFUSE);
    return material;
}

void SetSourceAsset(aiScene *scene, std::string_view format, std::string_view version) {
    MetadataBuilder md;
    md.add(AI_METADATA_SOURCE_FORMAT, format);
    if (!version.empty()) md.add(AI_METADATA_SOURCE_FORMAT_VERSION, version);
    md.mergeInto(scene->mMetaData);
}

void LogWarn(const std::string &message) {
    Assimp::DefaultLogger::get()->warn(message.c_str());
}
void LogInfo(const std::string &message) {
    Assimp::DefaultLogger::get()->info(message.c_str());
}
void LogDebug(const std::string &message) {
    Assimp::DefaultLogger::get()->debug(message.c_str());
}

} // namespace gamefmt::glue
