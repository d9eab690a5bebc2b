// An appending little/big-endian byte writer, the mirror of ByteReader, used by every codec's writer.
#pragma once

#include "common/bit_cast.hpp"

#include "common/error.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace gamefmt {

class ByteWriter {
public:
    explicit ByteWriter(const char *format = "gamefmt") : mFormat(format) {}

    std::size_t size() const noexcept { return mData.size(); }
    const std::vector<std::uint8_t> &bytes() const noexcept { return mData; }
    std::vector<std::uint8_t> take() noexcept { return std::move(mData); }
    void reserve(std::size_t n) { mData.reserve(n); }

    void u8(std::uint8_t v) { mData.push_back(v); }
    void i8(std::int8_t v) { mData.push_back(static_cast<std::uint8_t>(v)); }
    void u16le(std::uint16_t v) { putLE(v); }
    void u16be(std::uint16_t v) { putBE(v); }
    void i16le(std::int16_t v) { putLE(static_cast<std::uint16_t>(v)); }
    void i16be(std::int16_t v) { putBE(static_cast<std::uint16_t>(v)); }
    void u32le(std::uint32_t v) { putLE(v); }
    void u32be(std::uint32_t v) { putBE(v); }
    void i32le(std::int32_t v) { putLE(static_cast<std::uint32_t>(v)); }
    void i32be(std::int32_t v) { putBE(static_cast<std::uint32_t>(v)); }
    void u64le(std::uint64_t v) { putLE(v); }
    void u64be(std::uint64_t v) { putBE(v); }
    void i64le(std::int64_t v) { putLE(static_cast<std::uint64_t>(v)); }
    void i64be(std::int64_t v) { putBE(static_cast<std::uint64_t>(v)); }
    void f32le(float v) { putLE(BitCast<std::uint32_t>(v)); }
    void f32be(float v) { putBE(BitCast<std::uint32_t>(v)); }
    void f64le(double v) { putLE(BitCast<std::uint64_t>(v)); }
    void f64be(double v) { putBE(BitCast<std::uint64_t>(v)); }

    void bytes(const void *data, std::size_t n) {
        if (n == 0) return;
        append(static_cast<const std::uint8_t *>(data), n);
    }
    void bytes(const std::vector<std::uint8_t> &v) { bytes(v.data(), v.size()); }
    void zeros(std::size_t n) { mData.insert(mData.end(), n, 0); }
    void string(const std::string &s) { bytes(s.data(), s.size()); }
    // A NUL-padded field of exactly `n` bytes; a longer string is an error, never silently cut.
    void fixedString(const std::string &s, std::size_t n) {
        if (s.size() > n)
            throw FormatError(mFormat, "'" + s + "' is " + std::to_string(s.size()) + " bytes; the field holds " +
                                           std::to_string(n));
        string(s);
        zeros(n - s.size());
    }
    void stringU32le(const std::string &s) {
        if (s.size() > 0xFFFFFFFFull) throw FormatError(mFormat, "string longer than 4 GiB");
        u32le(static_cast<std::uint32_t>(s.size()));
        string(s);
    }
    void stringU16le(const std::string &s) {
        if (s.size() > 0xFFFF)
            throw FormatError(mFormat, "string of " + std::to_string(s.size()) + " bytes exceeds 65535");
        u16le(static_cast<std::uint16_t>(s.size()));
        string(s);
    }
    void stringU8(const std::string &s) {
        if (s.size() > 0xFF) throw FormatError(mFormat, "string of " + std::to_string(s.size()) + " bytes exceeds 255");
        u8(static_cast<std::uint8_t>(s.size()));
        string(s);
    }

    // Overwrites 4 bytes at `pos` (a size or offset field written before its value was known).
    void patchU32le(std::size_t pos, std::uint32_t v) {
        if (pos > mData.size() || mData.size() - pos < 4)
            throw FormatError(mFormat, "patch at " + std::to_string(pos) + " outside the " +
                                           std::to_string(mData.size()) + " bytes written");
        for (std::size_t i = 0; i < 4; ++i) mData[pos + i] = static_cast<std::uint8_t>(v >> (8 * i));
    }

private:
    // One resize and copy per value (a single capacity check) rather than one push_back per byte. Not
    // vector::insert of a range: GCC 16 at -O3 reports a false -Wstringop-overflow inside it when inlined here.
    void append(const std::uint8_t *p, std::size_t n) {
        const std::size_t at = mData.size();
        mData.resize(at + n);
        std::memcpy(mData.data() + at, p, n);
    }
    template <typename T> void putLE(T v) {
        static_assert(std::is_unsigned<T>::value, "unsigned only");
        std::uint8_t b[sizeof(T)];
        for (std::size_t i = 0; i < sizeof(T); ++i) b[i] = static_cast<std::uint8_t>(v >> (8 * i));
        append(b, sizeof(T));
    }
    template <typename T> void putBE(T v) {
        static_assert(std::is_unsigned<T>::value, "unsigned only");
        std::uint8_t b[sizeof(T)];
        for (std::size_t i = 0; i < sizeof(T); ++i) b[i] = static_cast<std::uint8_t>(v >> (8 * (sizeof(T) - 1 - i)));
        append(b, sizeof(T));
    }

    std::vector<std::uint8_t> mData;
    const char *mFormat;
};

} // namespace gamefmt
