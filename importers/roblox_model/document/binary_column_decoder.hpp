// Type decoding of binary PROP chunks (docs/formats/roblox-model.md §2.2, §2.4, §2.5): one column of n
// values of one type, in that type's stored layout (byte-interleaved big-endian integers, sign-rotated floats, packed
// records). Chunk framing, instances and the tree are binary_reader.cpp's, the way rbx-dom's rbx_binary keeps its chunk
// reader apart from its type decoders. The encoder is binary_column_encoder.hpp.
#pragma once

#include "importers/roblox_model/document/dom.hpp"

#include "common/byte_reader.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <unordered_map>
#include <utility>
#include <vector>

namespace gamefmt::rbx::binary {

// Where one PROP chunk's values go: property `slot` of every instance of the class, or their names.
struct Column {
    Document &doc;
    const std::vector<std::uint32_t> &instances; // document indices, in the class's INST order
    std::uint32_t slot;
    Type type;
    bool isName;

    Instance &inst(std::size_t i) const { return doc.instances[instances[i]]; }
    template <typename T> void set(std::size_t i, T &&v) const {
        Value &value = inst(i).properties[slot].value;
        value.type = type;
        value.xmlTag = XmlTag::Default;
        value.data = std::forward<T>(v);
    }
};

// Referents of the file → document indices.
struct ReferentTable {
    std::unordered_map<std::int32_t, std::uint32_t> indices;
    bool warnedMissing = false;

    // kNoInstance for -1 and for referents the file does not declare.
    std::uint32_t lookup(std::int32_t ref) const {
        if (ref == -1) return kNoInstance;
        const auto it = indices.find(ref);
        return it == indices.end() ? kNoInstance : it->second;
    }
};

// Decodes PROP columns; its scratch buffers are reused by every chunk of a file.
class ColumnDecoder {
public:
    ColumnDecoder(Document &doc, ReferentTable &referents) : mDoc(doc), mReferents(referents) {}

    // Reads n values of c.type into `c`. Throws FormatError (through `r`) on malformed values.
    void decode(ByteReader &r, const Column &c, std::size_t n);

    // Reads a referent array of `count` values (§2.2: interleaved, zigzag, summed).
    void readReferents(ByteReader &r, std::size_t count, std::vector<std::int32_t> &out);

private:
    void decodeScalars(ByteReader &r, const Column &c, std::size_t n);
    void decodeVectors(ByteReader &r, const Column &c, std::size_t n);
    void decodeColorsAndFrames(ByteReader &r, const Column &c, std::size_t n);
    void decodeSequences(ByteReader &r, const Column &c, std::size_t n);
    void decodeReferences(ByteReader &r, const Column &c, std::size_t n);
    void decodeContent(ByteReader &r, const Column &c, std::size_t n);

    const std::uint32_t *u32Column(ByteReader &r, std::size_t n, std::vector<std::uint32_t> &buf);
    const std::uint64_t *u64Column(ByteReader &r, std::size_t n);
    std::vector<float> &floatColumn(ByteReader &r, std::size_t n, std::vector<float> &out);
    std::vector<std::int32_t> &int32Column(ByteReader &r, std::size_t n, std::vector<std::int32_t> &out);
    void readCFrames(ByteReader &r, std::size_t n, std::vector<CFrame> &out, bool quat);
    // A Ref's target; a referent the file does not declare reads as none, with one warning per file.
    std::uint32_t lookupRef(std::int32_t ref);
    void warn(std::string message) { mDoc.warnings.push_back(std::move(message)); }

    Document &mDoc;
    ReferentTable &mReferents;
    std::vector<std::uint32_t> mU32a, mU32b;
    std::vector<std::uint64_t> mU64;
    std::vector<float> mFa, mFb, mFc, mFd;
    std::vector<std::int32_t> mIa, mIb;
    std::vector<CFrame> mCFrames;
    std::vector<std::string> mStrings;
};

} // namespace gamefmt::rbx::binary
