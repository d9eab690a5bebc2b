// Scene-building helpers shared by every importer and exporter.
#include "assimp_glue/common/scene_util.hpp"

#include <assimp/DefaultLogger.hpp>
#include <assimp/commonMetaData.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>

namespace gamefmt::glue {
namespace {

// 1023 bytes of text plus the terminator (Assimp 5.2.5 names the capacity MAXLEN, 5.3+ AI_MAXLEN).
constexpr std::size_t kMaxAiString = sizeof(aiString::data) - 1;
const char kReplacement[] = "\xEF\xBF\xBD"; // U+FFFD

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

void UniqueNames::grow(std::size_t slots) {
    std::size_t size = 64;
    while (size < slots) size *= 2;
    if (size <= mSlots.size()) return;
    std::vector<Slot> old = std::move(mSlots);
    mSlots.assign(size, Slot{});
    for (const Slot &s : old) {
        if (s.data == nullptr) continue;
        std::size_t i = s.hash & (size - 1);
        while (mSlots[i].data != nullptr) i = (i + 1) & (size - 1);
        mSlots[i] = s;
    }
}

void UniqueNames::reserve(std::size_t count) {
    grow(count * 2);
}

std::size_t UniqueNames::find(std::string_view name, std::size_t hash) const {
    const std::size_t mask = mSlots.size() - 1;
    for (std::size_t i = hash & mask;; i = (i + 1) & mask) {
        const Slot &s = mSlots[i];
        if (s.data == nullptr ||
            (s.hash == hash && s.size == name.size() && std::memcmp(s.data, name.data(), name.size()) == 0))
            return i;
    }
}

std::size_t UniqueNames::insert(std::string_view name, std::size_t hash) {
    if ((mCount + 1) * 2 > mSlots.size()) grow((mCount + 1) * 2);
    const std::size_t i = find(name, hash);
    if (name.size() > mLeft) {
        const std::size_t block = std::max<std::size_t>(name.size(), std::size_t{64} * 1024);
        mBlocks.push_back(std::make_unique<char[]>(block));
        mCursor = mBlocks.back().get();
        mLeft = block;
    }
    if (!name.empty()) std::memcpy(mCursor, name.data(), name.size());
    mSlots[i] = Slot{name.empty() ? "" : mCursor, static_cast<std::uint32_t>(name.size()), 1, hash};
    mCursor += name.size();
    mLeft -= name.size();
    ++mCount;
    return i;
}

bool UniqueNames::taken(std::string_view name) const {
    return !mSlots.empty() && mSlots[find(name, std::hash<std::string_view>()(name))].data != nullptr;
}

std::string UniqueNames::make(std::string_view wanted) {
    if ((mCount + 2) * 2 > mSlots.size()) grow((mCount + 2) * 2);
    const std::size_t hash = std::hash<std::string_view>()(wanted);
    const std::size_t at = find(wanted, hash);
    if (mSlots[at].data == nullptr) {
        insert(wanted, hash);
        return std::string(wanted);
    }
    std::string candidate;
    for (std::uint32_t next = mSlots[at].next;; ++next) {
        candidate.assign(wanted);
        candidate += '.';
        candidate += std::to_string(next);
        const std::size_t h = std::hash<std::string_view>()(candidate);
        if (mSlots[find(candidate, h)].data != nullptr) continue;
        // Room was made above, so inserting does not move the slots: `at` still names `wanted`.
        insert(candidate, h);
        mSlots[at].next = next + 1;
        return candidate;
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

double StudsPerSceneUnit(const aiScene &scene) {
    constexpr double kCentimetresPerStud = 28.0;
    const aiMetadata *md = scene.mMetaData;
    if (md == nullptr) return 1.0;
    double cm = 0;
    float f = 0;
    std::int32_t i = 0;
    if (md->Get("UnitScaleFactor", cm) || (md->Get("UnitScaleFactor", f) && (cm = f, true)) ||
        (md->Get("UnitScaleFactor", i) && (cm = i, true)))
        return std::isfinite(cm) && cm > 0 ? cm / kCentimetresPerStud : 1.0;
    return IsGltfSource(scene) ? 100.0 / kCentimetresPerStud : 1.0;
}

bool IsGltfSource(const aiScene &scene) {
    aiString format;
    return scene.mMetaData != nullptr && scene.mMetaData->Get(AI_METADATA_SOURCE_FORMAT, format) &&
           std::strncmp(format.C_Str(), "glTF", 4) == 0;
}

std::uint8_t UnitToByte(float v) {
    if (!(v > 0)) return 0;
    return v >= 1 ? 255 : static_cast<std::uint8_t>(std::lround(v * 255.0f));
}

Rigid RigidFromAi(const aiMatrix4x4 &m) {
    Rigid t;
    const double cols[3][3] = {{m.a1, m.b1, m.c1}, {m.a2, m.b2, m.c2}, {m.a3, m.b3, m.c3}};
    for (std::size_t c = 0; c < 3; ++c) {
        const double len = std::sqrt(cols[c][0] * cols[c][0] + cols[c][1] * cols[c][1] + cols[c][2] * cols[c][2]);
        for (std::size_t r = 0; r < 3; ++r) t.r[r * 3 + c] = len > 0 ? cols[c][r] / len : (r == c ? 1 : 0);
    }
    t.p = {m.a4, m.b4, m.c4};
    return t;
}

} // namespace gamefmt::glue
