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

std::string SanitizeForAiString(std::string_view text) {
    std::string out;
    out.reserve(text.size() < kMaxAiString ? text.size() : kMaxAiString);
    for (std::size_t i = 0; i < text.size();) {
        std::size_t n = text[i] == '\0' ? 0 : Utf8SequenceLength(text, i);
        const char *piece = n != 0 ? text.data() + i : kReplacement;
        const std::size_t pieceLen = n != 0 ? n : 3;
        if (out.size() + pieceLen > kMaxAiString) break;
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

std::string UniqueNames::Make(std::string_view wanted) {
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
    md.Add(AI_METADATA_SOURCE_FORMAT, format);
    if (!version.empty()) md.Add(AI_METADATA_SOURCE_FORMAT_VERSION, version);
    md.MergeInto(scene->mMetaData);
}

MetadataBuilder::Entry MetadataBuilder::MakeEntry(std::string_view key, aiMetadataType type) {
    Entry e;
    e.key = std::string(key);
    e.type = type;
    return e;
}

void MetadataBuilder::Add(std::string_view key, bool v) {
    Entry e = MakeEntry(key, AI_BOOL);
    e.b = v;
    mEntries.push_back(std::move(e));
}
void MetadataBuilder::Add(std::string_view key, std::int32_t v) {
    Entry e = MakeEntry(key, AI_INT32);
    e.i = v;
    mEntries.push_back(std::move(e));
}
void MetadataBuilder::Add(std::string_view key, std::uint64_t v) {
    Entry e = MakeEntry(key, AI_UINT64);
    e.u = v;
    mEntries.push_back(std::move(e));
}
void MetadataBuilder::Add(std::string_view key, float v) {
    Entry e = MakeEntry(key, AI_FLOAT);
    e.f = v;
    mEntries.push_back(std::move(e));
}
void MetadataBuilder::Add(std::string_view key, double v) {
    Entry e = MakeEntry(key, AI_DOUBLE);
    e.d = v;
    mEntries.push_back(std::move(e));
}
void MetadataBuilder::Add(std::string_view key, std::string_view v) {
    Entry e = MakeEntry(key, AI_AISTRING);
    e.s = std::string(v);
    mEntries.push_back(std::move(e));
}
void MetadataBuilder::Add(std::string_view key, const aiVector3D &v) {
    Entry e = MakeEntry(key, AI_AIVECTOR3D);
    e.v = v;
    mEntries.push_back(std::move(e));
}
void MetadataBuilder::Add(std::string_view key, MetadataBuilder &&nested) {
    Entry e = MakeEntry(key, AI_AIMETADATA);
    e.nested = std::move(nested.mEntries);
    mEntries.push_back(std::move(e));
}

void MetadataBuilder::AddLongText(std::string_view key, std::string_view text) {
    MetadataBuilder parts;
    parts.Add("size", static_cast<std::uint64_t>(text.size()));
    const std::size_t count = (text.size() + kMaxChunk - 1) / kMaxChunk;
    parts.Add("parts", static_cast<std::int32_t>(count));
    for (std::size_t i = 0; i < count; ++i) {
        char name[24];
        std::snprintf(name, sizeof(name), "p%04zu", i);
        parts.Add(name, text.substr(i * kMaxChunk, kMaxChunk));
    }
    Add(key, std::move(parts));
}

void MetadataBuilder::Fill(aiMetadata *md, unsigned index, const Entry &e) {
    const aiString key = ToAiString(e.key);
    switch (e.type) {
    case AI_BOOL:
        md->Set(index, key.C_Str(), e.b);
        break;
    case AI_INT32:
        md->Set(index, key.C_Str(), e.i);
        break;
    case AI_UINT64:
        md->Set(index, key.C_Str(), e.u);
        break;
    case AI_FLOAT:
        md->Set(index, key.C_Str(), e.f);
        break;
    case AI_DOUBLE:
        md->Set(index, key.C_Str(), e.d);
        break;
    case AI_AISTRING:
        md->Set(index, key.C_Str(), ToAiString(e.s));
        break;
    case AI_AIVECTOR3D:
        md->Set(index, key.C_Str(), e.v);
        break;
    case AI_AIMETADATA: {
        // aiMetadata::Alloc(0) returns null: an empty nested block is an empty aiMetadata.
        aiMetadata nested;
        if (!e.nested.empty()) {
            aiMetadata *filled = aiMetadata::Alloc(static_cast<unsigned>(e.nested.size()));
            for (unsigned k = 0; k < e.nested.size(); ++k) Fill(filled, k, e.nested[k]);
            md->Set(index, key.C_Str(), *filled); // Set copies the nested metadata
            delete filled;
        } else {
            md->Set(index, key.C_Str(), nested);
        }
        break;
    }
    default:
        break;
    }
}

aiMetadata *MetadataBuilder::Build() const {
    if (mEntries.empty()) return nullptr;
    aiMetadata *md = aiMetadata::Alloc(static_cast<unsigned>(mEntries.size()));
    for (unsigned i = 0; i < mEntries.size(); ++i) Fill(md, i, mEntries[i]);
    return md;
}

void MetadataBuilder::MergeInto(aiMetadata *&target) const {
    if (mEntries.empty()) return;
    if (target == nullptr) {
        target = Build();
        return;
    }
    // aiMetadata has no append in 5.2.5: rebuild with room for both (the old entries keep their order).
    aiMetadata *merged = aiMetadata::Alloc(target->mNumProperties + static_cast<unsigned>(mEntries.size()));
    for (unsigned i = 0; i < target->mNumProperties; ++i) {
        const aiString &key = target->mKeys[i];
        const aiMetadataEntry &v = target->mValues[i];
        switch (v.mType) {
        case AI_BOOL:
            merged->Set(i, key.C_Str(), *static_cast<bool *>(v.mData));
            break;
        case AI_INT32:
            merged->Set(i, key.C_Str(), *static_cast<std::int32_t *>(v.mData));
            break;
        case AI_UINT64:
            merged->Set(i, key.C_Str(), *static_cast<std::uint64_t *>(v.mData));
            break;
        case AI_FLOAT:
            merged->Set(i, key.C_Str(), *static_cast<float *>(v.mData));
            break;
        case AI_DOUBLE:
            merged->Set(i, key.C_Str(), *static_cast<double *>(v.mData));
            break;
        case AI_AISTRING:
            merged->Set(i, key.C_Str(), *static_cast<aiString *>(v.mData));
            break;
        case AI_AIVECTOR3D:
            merged->Set(i, key.C_Str(), *static_cast<aiVector3D *>(v.mData));
            break;
        case AI_AIMETADATA:
            merged->Set(i, key.C_Str(), *static_cast<aiMetadata *>(v.mData));
            break;
        default:
            break;
        }
    }
    for (unsigned k = 0; k < mEntries.size(); ++k) Fill(merged, target->mNumProperties + k, mEntries[k]);
    delete target;
    target = merged;
}

std::optional<std::int64_t> GetMetadataInt(const aiMetadata *md, std::string_view key) {
    if (md == nullptr) return std::nullopt;
    for (unsigned i = 0; i < md->mNumProperties; ++i) {
        if (std::string_view(md->mKeys[i].data, md->mKeys[i].length) != key || md->mValues[i].mData == nullptr)
            continue;
        switch (md->mValues[i].mType) {
        case AI_INT32:
            return *static_cast<const std::int32_t *>(md->mValues[i].mData);
        case AI_UINT64:
            return static_cast<std::int64_t>(
                std::min<std::uint64_t>(*static_cast<const std::uint64_t *>(md->mValues[i].mData),
                                        static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())));
        default:
            return std::nullopt;
        }
    }
    return std::nullopt;
}

bool GetLongText(const aiMetadata *md, const std::string &key, std::string &out) {
    if (md == nullptr) return false;
    aiString plain;
    if (md->Get(key, plain)) {
        out = plain.C_Str();
        return true;
    }
    aiMetadata nested;
    if (!md->Get(key, nested)) return false;
    std::int32_t parts = 0;
    std::uint64_t size = 0;
    if (!nested.Get("parts", parts) || !nested.Get("size", size) || parts < 0) return false;
    std::string text;
    text.reserve(static_cast<std::size_t>(size));
    for (std::int32_t i = 0; i < parts; ++i) {
        char name[24];
        std::snprintf(name, sizeof(name), "p%04d", static_cast<int>(i));
        aiString piece;
        if (!nested.Get(name, piece)) return false;
        text.append(piece.C_Str(), piece.length);
    }
    if (text.size() != size) return false;
    out = std::move(text);
    return true;
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
