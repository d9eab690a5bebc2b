// Type encoding of binary PROP chunks (docs/formats/roblox-model.md §2.2, §2.4, §2.5): the inverse of
// binary_column_decoder.hpp, one column of n values of one type in that type's stored layout.
#pragma once

#include "importers/roblox_model/document/dom.hpp"

#include <cstdint>
#include <string>
#include <vector>

namespace gamefmt::rbx::binary {

// Encodes PROP columns (the inverse of ColumnDecoder); its scratch buffers are reused by every chunk.
class ColumnEncoder {
public:
    using Bytes = std::vector<std::uint8_t>;
    using Column = std::vector<const Value *>; // one value per instance of the class, none null

    // `referents`: the int32 referent written for each document index (-1 = none).
    ColumnEncoder(const Document &doc, const std::vector<std::int32_t> &referents) : mDoc(doc), mReferents(referents) {}

    // Appends the values of `col`, all of `type`, in the type's binary layout. Throws FormatError naming
    // `where` ("Class.Property") when a value does not fit the type.
    void encode(Bytes &out, Type type, const Column &col, const std::string &where);

private:
    void encodeScalars(Bytes &out, Type type, const Column &col, const std::string &where);
    void encodeVectors(Bytes &out, Type type, const Column &col, const std::string &where);
    void encodeColorsAndFrames(Bytes &out, Type type, const Column &col, const std::string &where);
    void encodeSequences(Bytes &out, Type type, const Column &col, const std::string &where);
    void encodeReferences(Bytes &out, Type type, const Column &col, const std::string &where);
    void encodeContent(Bytes &out, const Column &col, const std::string &where);

    template <typename Getter> void floats(Bytes &out, const Column &col, Getter getter);
    template <typename Getter> void int32s(Bytes &out, const Column &col, Getter getter);
    template <typename Getter> void u32s(Bytes &out, const Column &col, Getter getter);
    template <typename Getter> void i64s(Bytes &out, const Column &col, Getter getter);
    template <typename Getter> void cframes(Bytes &out, const Column &col, Getter getter);
    std::int32_t referentOf(std::uint32_t index) const { return index < mReferents.size() ? mReferents[index] : -1; }

    const Document &mDoc;
    const std::vector<std::int32_t> &mReferents;
    std::vector<std::uint32_t> mTmp;
    std::vector<float> mFloats;
    std::vector<std::int32_t> mInts;
};

} // namespace gamefmt::rbx::binary
