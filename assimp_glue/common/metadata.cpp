// The metadata codec of include/gamefmt/metadata.hpp.
#include "gamefmt/metadata.hpp"

#include "assimp_glue/common/scene_util.hpp"
#include "common/base64.hpp"

#include <assimp/scene.h>

#include <algorithm>
#include <charconv>
#include <cstring>
#include <limits>

namespace gamefmt {
namespace {

std::string_view View(const aiString &s) {
    return std::string_view(s.data, s.length);
}

// Cuts `text` into pieces of at most kMetadataPartBytes bytes, never inside a UTF-8 sequence.
std::vector<std::string_view> SplitUtf8(std::string_view text) {
    std::vector<std::string_view> parts;
    parts.reserve(text.size() / kMetadataPartBytes + 1);
    std::size_t pos = 0;
    while (pos < text.size()) {
        std::size_t end = std::min(text.size(), pos + kMetadataPartBytes);
        if (end < text.size()) {
            std::size_t cut = end;
            while (cut > pos && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
            if (cut > pos) end = cut;
        }
        parts.push_back(text.substr(pos, end - pos));
        pos = end;
    }
    return parts;
}

// "key#<n>" without allocating: true when `candidate` is exactly that.
bool IsPartKey(std::string_view candidate, std::string_view key, std::size_t n) {
    if (candidate.size() <= key.size() + 1 || candidate.substr(0, key.size()) != key || candidate[key.size()] != '#')
        return false;
    char digits[24];
    const auto [end, ec] = std::to_chars(digits, digits + sizeof digits, n);
    (void)ec;
    return candidate.substr(key.size() + 1) == std::string_view(digits, static_cast<std::size_t>(end - digits));
}

// When entry `i` starts a well-formed long text, joins it into `out` and returns the number of parts;
// 0 otherwise (`out` is then unspecified).
unsigned JoinLongText(const aiMetadata &md, unsigned i, std::string &out) {
    const aiMetadataEntry &head = md.mValues[i];
    if (head.mType != AI_UINT64 || head.mData == nullptr) return 0;
    const std::uint64_t length = *static_cast<const std::uint64_t *>(head.mData);
    const std::string_view key = View(md.mKeys[i]);
    // Every part but possibly the last holds at least kMetadataPartBytes - 3 bytes, so a length no part count
    // can reach is rejected before anything is reserved.
    const std::uint64_t available = static_cast<std::uint64_t>(md.mNumProperties - i - 1) * kMetadataPartBytes;
    if (length <= kMetadataPartBytes || length > available || !IsPartKey(View(md.mKeys[i + 1]), key, 0)) return 0;
    out.clear();
    out.reserve(static_cast<std::size_t>(length));
    unsigned parts = 0;
    for (unsigned j = i + 1; j < md.mNumProperties && out.size() < length; ++j, ++parts) {
        const aiMetadataEntry &e = md.mValues[j];
        if (e.mType != AI_AISTRING || e.mData == nullptr || !IsPartKey(View(md.mKeys[j]), key, parts)) return 0;
        out += View(*static_cast<const aiString *>(e.mData));
    }
    return out.size() == length ? parts : 0;
}

int FindKey(const aiMetadata &md, std::string_view key) {
    for (unsigned i = 0; i < md.mNumProperties; ++i)
        if (View(md.mKeys[i]) == key) return static_cast<int>(i);
    return -1;
}

} // namespace

// ---------------------------------------------------------------- writing

void MetadataBuilder::addEntry(std::string_view key, aiMetadataType type, std::uint64_t bits) {
    Entry e;
    e.key = std::string(key);
    e.type = type;
    e.bits = bits;
    mEntries.push_back(std::move(e));
}

void MetadataBuilder::add(std::string_view key, bool value) {
    addEntry(key, AI_BOOL, value ? 1 : 0);
}
void MetadataBuilder::add(std::string_view key, std::int32_t value) {
    addEntry(key, AI_INT32, static_cast<std::uint32_t>(value));
}
void MetadataBuilder::add(std::string_view key, std::uint64_t value) {
    addEntry(key, AI_UINT64, value);
}
void MetadataBuilder::add(std::string_view key, float value) {
    std::uint32_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    addEntry(key, AI_FLOAT, bits);
}
void MetadataBuilder::add(std::string_view key, double value) {
    std::uint64_t bits = 0;
    std::memcpy(&bits, &value, sizeof bits);
    addEntry(key, AI_DOUBLE, bits);
}
void MetadataBuilder::add(std::string_view key, const aiVector3D &value) {
    addEntry(key, AI_AIVECTOR3D, 0);
    mEntries.back().vector = value;
}

void MetadataBuilder::add(std::string_view key, std::string_view text) {
    // Sanitised whole first, so the parts are cut at the boundaries of the text that is stored.
    std::string clean = glue::SanitizeForAiString(text, std::numeric_limits<std::size_t>::max());
    if (clean.size() <= kMetadataPartBytes) {
        addEntry(key, AI_AISTRING, 0);
        mEntries.back().text = std::move(clean);
        return;
    }
    const std::vector<std::string_view> parts = SplitUtf8(clean);
    addEntry(key, AI_UINT64, clean.size());
    std::string partKey(key);
    partKey += '#';
    const std::size_t stem = partKey.size();
    for (std::size_t i = 0; i < parts.size(); ++i) {
        partKey.resize(stem);
        partKey += std::to_string(i);
        addEntry(partKey, AI_AISTRING, 0);
        mEntries.back().text = std::string(parts[i]);
    }
}

void MetadataBuilder::addBlob(std::string_view key, const std::uint8_t *data, std::size_t size) {
    add(key, std::string_view(Base64Encode(data, size)));
}

void MetadataBuilder::Fill(aiMetadata &md, unsigned index, const Entry &e) {
    const aiString key = glue::ToAiString(e.key);
    switch (e.type) {
    case AI_BOOL:
        md.Set(index, key.C_Str(), e.bits != 0);
        break;
    case AI_INT32:
        md.Set(index, key.C_Str(), static_cast<std::int32_t>(static_cast<std::uint32_t>(e.bits)));
        break;
    case AI_UINT64:
        md.Set(index, key.C_Str(), e.bits);
        break;
    case AI_FLOAT: {
        float f = 0;
        const auto bits = static_cast<std::uint32_t>(e.bits);
        std::memcpy(&f, &bits, sizeof f);
        md.Set(index, key.C_Str(), f);
        break;
    }
    case AI_DOUBLE: {
        double d = 0;
        std::memcpy(&d, &e.bits, sizeof d);
        md.Set(index, key.C_Str(), d);
        break;
    }
    case AI_AISTRING:
        md.Set(index, key.C_Str(), glue::ToAiString(e.text));
        break;
    case AI_AIVECTOR3D:
        md.Set(index, key.C_Str(), e.vector);
        break;
    default:
        break;
    }
}

aiMetadata *MetadataBuilder::build() const {
    if (mEntries.empty()) return nullptr;
    aiMetadata *md = aiMetadata::Alloc(static_cast<unsigned>(mEntries.size()));
    for (unsigned i = 0; i < mEntries.size(); ++i) Fill(*md, i, mEntries[i]);
    return md;
}

void MetadataBuilder::mergeInto(aiMetadata *&target) const {
    if (mEntries.empty()) return;
    if (target == nullptr) {
        target = build();
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
        case AI_AIMETADATA: // another importer's nested block: kept as it is
            merged->Set(i, key.C_Str(), *static_cast<aiMetadata *>(v.mData));
            break;
        default:
            break;
        }
    }
    for (unsigned k = 0; k < mEntries.size(); ++k) Fill(*merged, target->mNumProperties + k, mEntries[k]);
    delete target;
    target = merged;
}

// ---------------------------------------------------------------- reading

bool GetMetadataText(const aiMetadata *md, std::string_view key, std::string &out) {
    if (md == nullptr) return false;
    const int i = FindKey(*md, key);
    if (i < 0 || md->mValues[i].mData == nullptr) return false;
    if (md->mValues[i].mType == AI_AISTRING) {
        out = std::string(View(*static_cast<const aiString *>(md->mValues[i].mData)));
        return true;
    }
    std::string joined;
    if (JoinLongText(*md, static_cast<unsigned>(i), joined) == 0) return false;
    out = std::move(joined);
    return true;
}

bool GetMetadataBlob(const aiMetadata *md, std::string_view key, std::vector<std::uint8_t> &out) {
    std::string text;
    if (!GetMetadataText(md, key, text)) return false;
    std::optional<std::vector<std::uint8_t>> bytes = Base64Decode(text);
    if (!bytes) return false;
    out = std::move(*bytes);
    return true;
}

std::optional<std::int64_t> GetMetadataInt(const aiMetadata *md, std::string_view key) {
    if (md == nullptr) return std::nullopt;
    const int i = FindKey(*md, key);
    if (i < 0 || md->mValues[i].mData == nullptr) return std::nullopt;
    switch (md->mValues[i].mType) {
    case AI_INT32:
        return *static_cast<const std::int32_t *>(md->mValues[i].mData);
    case AI_UINT64: {
        std::string joined;
        if (JoinLongText(*md, static_cast<unsigned>(i), joined) != 0) return std::nullopt;
        return static_cast<std::int64_t>(
            std::min<std::uint64_t>(*static_cast<const std::uint64_t *>(md->mValues[i].mData),
                                    static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max())));
    }
    default:
        return std::nullopt;
    }
}

void ForEachMetadata(const aiMetadata &md, const std::function<void(const MetadataValue &)> &fn) {
    std::string joined;
    for (unsigned i = 0; i < md.mNumProperties; ++i) {
        MetadataValue value;
        value.key = View(md.mKeys[i]);
        value.entry = &md.mValues[i];
        if (const unsigned parts = JoinLongText(md, i, joined); parts != 0) {
            value.isText = true;
            value.text = joined;
            value.parts = parts;
            fn(value);
            i += parts;
            continue;
        }
        if (md.mValues[i].mType == AI_AISTRING && md.mValues[i].mData != nullptr) {
            value.isText = true;
            value.text = View(*static_cast<const aiString *>(md.mValues[i].mData));
        }
        fn(value);
    }
}

namespace {

constexpr unsigned kMaxNesting = 32;

// Every leaf of `md` (nested blocks opened) as (dotted key, entry); counts the blocks opened.
void Leaves(const aiMetadata &md, const std::string &prefix, unsigned depth,
            std::vector<std::pair<std::string, const aiMetadataEntry *>> &out, std::size_t &blocks) {
    for (unsigned i = 0; i < md.mNumProperties; ++i) {
        const aiMetadataEntry &e = md.mValues[i];
        std::string key = prefix + std::string(View(md.mKeys[i]));
        if (e.mType == AI_AIMETADATA) {
            ++blocks;
            if (e.mData != nullptr && depth < kMaxNesting)
                Leaves(*static_cast<const aiMetadata *>(e.mData), key + ".", depth + 1, out, blocks);
            continue;
        }
        if (key.size() <= kMetadataPartBytes && e.mData != nullptr) out.emplace_back(std::move(key), &e);
    }
}

bool HasNested(const aiMetadata *md) {
    if (md == nullptr) return false;
    for (unsigned i = 0; i < md->mNumProperties; ++i)
        if (md->mValues[i].mType == AI_AIMETADATA) return true;
    return false;
}

std::size_t Flatten(aiMetadata *&md) {
    if (!HasNested(md)) return 0;
    std::vector<std::pair<std::string, const aiMetadataEntry *>> leaves;
    std::size_t blocks = 0;
    Leaves(*md, "", 0, leaves, blocks);
    aiMetadata *flat = aiMetadata::Alloc(static_cast<unsigned>(leaves.size()));
    unsigned k = 0;
    for (const auto &[key, e] : leaves) {
        switch (e->mType) {
        case AI_BOOL:
            flat->Set(k++, key, *static_cast<const bool *>(e->mData));
            break;
        case AI_INT32:
            flat->Set(k++, key, *static_cast<const std::int32_t *>(e->mData));
            break;
        case AI_UINT64:
            flat->Set(k++, key, *static_cast<const std::uint64_t *>(e->mData));
            break;
        case AI_FLOAT:
            flat->Set(k++, key, *static_cast<const float *>(e->mData));
            break;
        case AI_DOUBLE:
            flat->Set(k++, key, *static_cast<const double *>(e->mData));
            break;
        case AI_AISTRING:
            flat->Set(k++, key, *static_cast<const aiString *>(e->mData));
            break;
        case AI_AIVECTOR3D:
            flat->Set(k++, key, *static_cast<const aiVector3D *>(e->mData));
            break;
        default: // a type this Assimp does not know: left out
            break;
        }
    }
    flat->mNumProperties = k; // the unused tail (unknown types) is never read
    delete md;
    md = flat;
    return blocks;
}

} // namespace

std::size_t FlattenNestedMetadata(aiScene &scene) {
    std::size_t blocks = Flatten(scene.mMetaData);
    std::vector<aiNode *> stack;
    if (scene.mRootNode != nullptr) stack.push_back(scene.mRootNode);
    while (!stack.empty()) {
        aiNode *node = stack.back();
        stack.pop_back();
        blocks += Flatten(node->mMetaData);
        for (unsigned i = 0; i < node->mNumChildren; ++i)
            if (node->mChildren[i] != nullptr) stack.push_back(node->mChildren[i]);
    }
    return blocks;
}

} // namespace gamefmt
