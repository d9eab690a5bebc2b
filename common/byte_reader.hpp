// A bounds-checked cursor over a byte span. Every read checks the bytes that remain and throws
// FormatError (format name, problem, absolute byte offset) instead of reading past the end.
#pragma once

#include "common/bit_cast.hpp"

#include "common/error.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <type_traits>

namespace gamefmt {

class ByteReader {
public:
    // `format` names the file format in errors and must outlive the reader (a string literal).
    // `baseOffset` is the absolute file offset of data[0], so errors in sub-readers point into the file.
    ByteReader(const std::uint8_t *data, std::size_t size, const char *format, std::size_t baseOffset = 0) noexcept
        : mData(data), mSize(data != nullptr ? size : 0), mPos(0), mBase(baseOffset), mFormat(format) {}

    std::size_t size() const noexcept { return mSize; }
    std::size_t tell() const noexcept { return mPos; }
    std::size_t remaining() const noexcept { return mSize - mPos; }
    bool atEnd() const noexcept { return mPos == mSize; }
    std::size_t offset() const noexcept { return mBase + mPos; } // absolute file offset of the cursor
    std::size_t baseOffset() const noexcept { return mBase; }
    const std::uint8_t *data() const noexcept { return mData; }
    const std::uint8_t *current() const noexcept { return mData + mPos; }
    const char *format() const noexcept { return mFormat; }

    void seek(std::size_t pos) {
        if (pos > mSize)
            failAt(mSize, "seek to " + std::to_string(pos) + " past the end (" + std::to_string(mSize) + " bytes)");
        mPos = pos;
    }
    void skip(std::size_t n) {
        need(n, "a skip");
        mPos += n;
    }

    std::uint8_t u8() { return readLE<std::uint8_t>(); }
    std::int8_t i8() { return static_cast<std::int8_t>(readLE<std::uint8_t>()); }
    std::uint16_t u16le() { return readLE<std::uint16_t>(); }
    std::uint16_t u16be() { return readBE<std::uint16_t>(); }
    std::int16_t i16le() { return static_cast<std::int16_t>(readLE<std::uint16_t>()); }
    std::int16_t i16be() { return static_cast<std::int16_t>(readBE<std::uint16_t>()); }
    std::uint32_t u32le() { return readLE<std::uint32_t>(); }
    std::uint32_t u32be() { return readBE<std::uint32_t>(); }
    std::int32_t i32le() { return static_cast<std::int32_t>(readLE<std::uint32_t>()); }
    std::int32_t i32be() { return static_cast<std::int32_t>(readBE<std::uint32_t>()); }
    std::uint64_t u64le() { return readLE<std::uint64_t>(); }
    std::uint64_t u64be() { return readBE<std::uint64_t>(); }
    std::int64_t i64le() { return static_cast<std::int64_t>(readLE<std::uint64_t>()); }
    std::int64_t i64be() { return static_cast<std::int64_t>(readBE<std::uint64_t>()); }
    float f32le() { return BitCast<float>(readLE<std::uint32_t>()); }
    float f32be() { return BitCast<float>(readBE<std::uint32_t>()); }
    double f64le() { return BitCast<double>(readLE<std::uint64_t>()); }
    double f64be() { return BitCast<double>(readBE<std::uint64_t>()); }

    // Reads that report failure instead of throwing, for decoders whose input may legitimately not parse (a Roblox
    // attribute blob of a type added later must leave the file readable): false, the cursor unmoved, when the
    // value does not fit. `T` is any number type, little-endian.
    template <typename T> bool tryLE(T &out) noexcept {
        static_assert(std::is_arithmetic<T>::value && !std::is_same<T, bool>::value, "number types only");
        using U =
            std::conditional_t<sizeof(T) == 1, std::uint8_t,
                               std::conditional_t<sizeof(T) == 2, std::uint16_t,
                                                  std::conditional_t<sizeof(T) == 4, std::uint32_t, std::uint64_t>>>;
        static_assert(sizeof(U) == sizeof(T), "1, 2, 4 or 8 bytes");
        if (remaining() < sizeof(T)) return false;
        out = BitCast<T>(readLE<U>());
        return true;
    }
    // A u32 LE length and that many bytes; false (cursor unmoved) when they do not fit.
    bool tryStringU32le(std::string &out) {
        std::uint32_t len = 0;
        const std::size_t at = mPos;
        if (!tryLE(len) || remaining() < len) {
            mPos = at;
            return false;
        }
        out.assign(reinterpret_cast<const char *>(mData + mPos), len);
        mPos += len;
        return true;
    }

    // A pointer to the next `n` bytes, which the cursor then passes.
    const std::uint8_t *take(std::size_t n) {
        need(n, "a read");
        const std::uint8_t *p = mData + mPos;
        mPos += n;
        return p;
    }
    void copyTo(void *dst, std::size_t n) {
        const std::uint8_t *p = take(n);
        if (n != 0) std::memcpy(dst, p, n);
    }

    // Exactly `n` bytes as a string (embedded NULs kept).
    std::string string(std::size_t n) {
        const std::uint8_t *p = take(n);
        return std::string(reinterpret_cast<const char *>(p), n);
    }
    // A fixed-size field of `n` bytes holding a NUL-padded string: the text up to the first NUL.
    std::string fixedString(std::size_t n) {
        const std::uint8_t *p = take(n);
        const void *nul = n != 0 ? std::memchr(p, 0, n) : nullptr;
        const std::size_t len =
            nul != nullptr ? static_cast<std::size_t>(static_cast<const std::uint8_t *>(nul) - p) : n;
        return std::string(reinterpret_cast<const char *>(p), len);
    }
    // A length-prefixed string: u32 LE / u16 LE / u8 length, then that many bytes.
    std::string stringU32le() {
        const std::size_t at = mPos;
        return prefixed(u32le(), at);
    }
    std::string stringU16le() {
        const std::size_t at = mPos;
        return prefixed(u16le(), at);
    }
    std::string stringU8() {
        const std::size_t at = mPos;
        return prefixed(u8(), at);
    }

    // A reader over the next `n` bytes (the cursor passes them); its errors report absolute offsets.
    ByteReader sub(std::size_t n) {
        const std::size_t start = mPos;
        const std::uint8_t *p = take(n);
        return ByteReader(p, n, mFormat, mBase + start);
    }

    // Checks that `count` elements of `elementSize` bytes fit in what remains, without overflow. Call it
    // before allocating for `count` elements read from the file. `what` names them in the error.
    void requireArray(std::uint64_t count, std::size_t elementSize, const char *what) const {
        if (elementSize != 0 && count > remaining() / elementSize)
            fail(std::string(what) + ": " + std::to_string(count) + " x " + std::to_string(elementSize) +
                 " bytes declared, but only " + std::to_string(remaining()) + " bytes remain");
    }
    bool fits(std::uint64_t count, std::size_t elementSize) const noexcept {
        return elementSize == 0 || count <= remaining() / elementSize;
    }

    // Throws FormatError at the cursor / at relative position `pos`.
    [[noreturn]] void fail(const std::string &message) const { throw FormatError(mFormat, message, mBase + mPos); }
    [[noreturn]] void failAt(std::size_t pos, const std::string &message) const {
        throw FormatError(mFormat, message, mBase + pos);
    }

private:
    // `what` is a literal so the success path builds no string: these checks run on every read.
    void need(std::size_t n, const char *what) const {
        if (n > remaining()) failNeed(n, what);
    }
    [[noreturn]] void failNeed(std::size_t n, const char *what) const {
        const std::string subject = what != nullptr ? std::string(what) : "a " + std::to_string(n * 8) + "-bit value";
        fail("unexpected end of data: " + subject + " needs " + std::to_string(n) + " bytes, " +
             std::to_string(remaining()) + " remain");
    }
    // A bad length is reported at its own offset (`lengthPos`), where the file is wrong.
    std::string prefixed(std::uint64_t length, std::size_t lengthPos) {
        if (length > remaining())
            failAt(lengthPos, "string length " + std::to_string(length) + " exceeds the " +
                                  std::to_string(remaining()) + " bytes that remain");
        return string(static_cast<std::size_t>(length));
    }
    template <typename T> T readLE() {
        static_assert(std::is_unsigned<T>::value, "unsigned only");
        need(sizeof(T), nullptr);
        const std::uint8_t *p = mData + mPos;
        mPos += sizeof(T);
        T v = 0;
        for (std::size_t i = 0; i < sizeof(T); ++i) v = static_cast<T>(v | (static_cast<T>(p[i]) << (8 * i)));
        return v;
    }
    template <typename T> T readBE() {
        static_assert(std::is_unsigned<T>::value, "unsigned only");
        need(sizeof(T), nullptr);
        const std::uint8_t *p = mData + mPos;
        mPos += sizeof(T);
        T v = 0;
        for (std::size_t i = 0; i < sizeof(T); ++i) v = static_cast<T>((v << 8) | p[i]);
        return v;
    }

    const std::uint8_t *mData;
    std::size_t mSize;
    std::size_t mPos;
    std::size_t mBase;
    const char *mFormat;
};

} // namespace gamefmt
