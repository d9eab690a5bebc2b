// Tests for ByteWriter: exact bytes for every value type, string fields, patching, and writer -> reader
// round trips for every type.
#include "common/byte_reader.hpp"
#include "common/byte_writer.hpp"

#include "support/bits.hpp"
#include "support/expect_error.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

using gamefmt::ByteReader;
using gamefmt::ByteWriter;
using gamefmt::FormatError;

namespace {

using namespace gamefmt::test;

using Bytes = std::vector<std::uint8_t>;

// Bytes written by one call on a fresh writer.
template <typename F> Bytes Written(F &&f) {
    ByteWriter w;
    f(w);
    return w.bytes();
}

} // namespace

// ---------------------------------------------------------------- exact bytes

TEST(ByteWriter, EightBit) {
    EXPECT_EQ(Written([](ByteWriter &w) { w.u8(0xAB); }), (Bytes{0xAB}));
    EXPECT_EQ(Written([](ByteWriter &w) { w.i8(-2); }), (Bytes{0xFE}));
    EXPECT_EQ(Written([](ByteWriter &w) { w.i8(-128); }), (Bytes{0x80}));
}

TEST(ByteWriter, SixteenBit) {
    EXPECT_EQ(Written([](ByteWriter &w) { w.u16le(0x0102); }), (Bytes{0x02, 0x01}));
    EXPECT_EQ(Written([](ByteWriter &w) { w.u16be(0x0102); }), (Bytes{0x01, 0x02}));
    EXPECT_EQ(Written([](ByteWriter &w) { w.i16le(-2); }), (Bytes{0xFE, 0xFF}));
    EXPECT_EQ(Written([](ByteWriter &w) { w.i16be(-2); }), (Bytes{0xFF, 0xFE}));
}

TEST(ByteWriter, ThirtyTwoBit) {
    EXPECT_EQ(Written([](ByteWriter &w) { w.u32le(0x01020304); }), (Bytes{0x04, 0x03, 0x02, 0x01}));
    EXPECT_EQ(Written([](ByteWriter &w) { w.u32be(0x01020304); }), (Bytes{0x01, 0x02, 0x03, 0x04}));
    EXPECT_EQ(Written([](ByteWriter &w) { w.i32le(-2); }), (Bytes{0xFE, 0xFF, 0xFF, 0xFF}));
    EXPECT_EQ(Written([](ByteWriter &w) { w.i32be(-2); }), (Bytes{0xFF, 0xFF, 0xFF, 0xFE}));
}

TEST(ByteWriter, SixtyFourBit) {
    EXPECT_EQ(Written([](ByteWriter &w) { w.u64le(0x0102030405060708ull); }),
              (Bytes{0x08, 0x07, 0x06, 0x05, 0x04, 0x03, 0x02, 0x01}));
    EXPECT_EQ(Written([](ByteWriter &w) { w.u64be(0x0102030405060708ull); }),
              (Bytes{0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08}));
    EXPECT_EQ(Written([](ByteWriter &w) { w.i64le(-2); }), (Bytes{0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}));
    EXPECT_EQ(Written([](ByteWriter &w) { w.i64be(std::numeric_limits<std::int64_t>::min()); }),
              (Bytes{0x80, 0, 0, 0, 0, 0, 0, 0}));
}

TEST(ByteWriter, Floats) {
    EXPECT_EQ(Written([](ByteWriter &w) { w.f32le(1.0f); }), (Bytes{0x00, 0x00, 0x80, 0x3F}));
    EXPECT_EQ(Written([](ByteWriter &w) { w.f32be(1.0f); }), (Bytes{0x3F, 0x80, 0x00, 0x00}));
    EXPECT_EQ(Written([](ByteWriter &w) { w.f32le(-0.0f); }), (Bytes{0x00, 0x00, 0x00, 0x80}));
    EXPECT_EQ(Written([](ByteWriter &w) { w.f64le(1.0); }), (Bytes{0, 0, 0, 0, 0, 0, 0xF0, 0x3F}));
    EXPECT_EQ(Written([](ByteWriter &w) { w.f64be(-0.1); }), (Bytes{0xBF, 0xB9, 0x99, 0x99, 0x99, 0x99, 0x99, 0x9A}));
}

TEST(ByteWriter, FloatBitPatternsKept) {
    EXPECT_EQ(Written([](ByteWriter &w) { w.f32be(FloatFromBits(0x7FC00001u)); }), (Bytes{0x7F, 0xC0, 0x00, 0x01}));
    EXPECT_EQ(Written([](ByteWriter &w) { w.f64le(DoubleFromBits(0x7FF8000000000001ull)); }),
              (Bytes{0x01, 0, 0, 0, 0, 0, 0xF8, 0x7F}));
}

TEST(ByteWriter, BytesZerosString) {
    ByteWriter w;
    const std::uint8_t raw[] = {1, 2, 3};
    w.bytes(raw, 3);
    w.bytes(nullptr, 0);
    w.bytes(Bytes{4, 5});
    w.bytes(Bytes{});
    w.zeros(2);
    w.zeros(0);
    w.string("ab");
    w.string(std::string("\0c", 2));
    EXPECT_EQ(w.bytes(), (Bytes{1, 2, 3, 4, 5, 0, 0, 'a', 'b', 0, 'c'}));
    EXPECT_EQ(w.size(), 11u);
}

TEST(ByteWriter, AppendsInOrder) {
    ByteWriter w;
    w.u8(1);
    w.u16be(0x0203);
    w.u32le(0x07060504);
    EXPECT_EQ(w.bytes(), (Bytes{1, 2, 3, 4, 5, 6, 7}));
}

TEST(ByteWriter, FixedStringPads) {
    EXPECT_EQ(Written([](ByteWriter &w) { w.fixedString("ab", 4); }), (Bytes{'a', 'b', 0, 0}));
    EXPECT_EQ(Written([](ByteWriter &w) { w.fixedString("", 2); }), (Bytes{0, 0}));
    EXPECT_EQ(Written([](ByteWriter &w) { w.fixedString("", 0); }), (Bytes{}));
}

TEST(ByteWriter, FixedStringExactLengthHasNoNul) {
    EXPECT_EQ(Written([](ByteWriter &w) { w.fixedString("abcd", 4); }), (Bytes{'a', 'b', 'c', 'd'}));
}

TEST(ByteWriter, FixedStringTooLong) {
    ByteWriter w("Redguard 3D");
    w.u8(9);
    const FormatError e = Thrown([&] { w.fixedString("abcde", 4); });
    EXPECT_EQ(e.format(), "Redguard 3D");
    EXPECT_EQ(e.message(), "'abcde' is 5 bytes; the field holds 4");
    EXPECT_FALSE(e.hasOffset());
    EXPECT_EQ(w.bytes(), (Bytes{9})) << "nothing written on failure";
}

TEST(ByteWriter, DefaultFormatName) {
    ByteWriter w;
    EXPECT_EQ(Thrown([&] { w.fixedString("ab", 1); }).format(), "gamefmt");
}

TEST(ByteWriter, LengthPrefixedStrings) {
    EXPECT_EQ(Written([](ByteWriter &w) { w.stringU32le("hi"); }), (Bytes{2, 0, 0, 0, 'h', 'i'}));
    EXPECT_EQ(Written([](ByteWriter &w) { w.stringU16le("hi"); }), (Bytes{2, 0, 'h', 'i'}));
    EXPECT_EQ(Written([](ByteWriter &w) { w.stringU8("hi"); }), (Bytes{2, 'h', 'i'}));
    EXPECT_EQ(Written([](ByteWriter &w) { w.stringU32le(""); }), (Bytes{0, 0, 0, 0}));
    EXPECT_EQ(Written([](ByteWriter &w) { w.stringU16le(""); }), (Bytes{0, 0}));
    EXPECT_EQ(Written([](ByteWriter &w) { w.stringU8(""); }), (Bytes{0}));
}

TEST(ByteWriter, StringU16leLimit) {
    const std::string max(65535, 'x');
    const Bytes b = Written([&](ByteWriter &w) { w.stringU16le(max); });
    ASSERT_EQ(b.size(), 65537u);
    EXPECT_EQ(b[0], 0xFF);
    EXPECT_EQ(b[1], 0xFF);
    ByteWriter w("Fmt");
    const FormatError e = Thrown([&] { w.stringU16le(std::string(65536, 'x')); });
    EXPECT_EQ(e.format(), "Fmt");
    EXPECT_EQ(e.message(), "string of 65536 bytes exceeds 65535");
    EXPECT_EQ(w.size(), 0u);
}

TEST(ByteWriter, StringU8Limit) {
    const Bytes b = Written([](ByteWriter &w) { w.stringU8(std::string(255, 'y')); });
    ASSERT_EQ(b.size(), 256u);
    EXPECT_EQ(b[0], 255);
    ByteWriter w("Fmt");
    const FormatError e = Thrown([&] { w.stringU8(std::string(256, 'y')); });
    EXPECT_EQ(e.message(), "string of 256 bytes exceeds 255");
    EXPECT_EQ(w.size(), 0u);
}

TEST(ByteWriter, PatchU32le) {
    ByteWriter w;
    w.u32le(0);
    w.u8(0xEE);
    w.u32le(0);
    w.patchU32le(0, 0x01020304);
    w.patchU32le(5, 0xA0B0C0D0);
    EXPECT_EQ(w.bytes(), (Bytes{0x04, 0x03, 0x02, 0x01, 0xEE, 0xD0, 0xC0, 0xB0, 0xA0}));
}

TEST(ByteWriter, PatchU32leOutOfRange) {
    ByteWriter w("Fmt");
    w.zeros(6);
    w.patchU32le(2, 0xFFFFFFFF); // the last 4 bytes: fits exactly
    const FormatError e = Thrown([&] { w.patchU32le(3, 1); });
    EXPECT_EQ(e.format(), "Fmt");
    EXPECT_EQ(e.message(), "patch at 3 outside the 6 bytes written");
    EXPECT_THROW(w.patchU32le(7, 1), FormatError);
    EXPECT_THROW(w.patchU32le(std::numeric_limits<std::size_t>::max(), 1), FormatError);
    EXPECT_THROW(w.patchU32le(std::numeric_limits<std::size_t>::max() - 2, 1), FormatError);
    EXPECT_EQ(w.bytes(), (Bytes{0, 0, 0xFF, 0xFF, 0xFF, 0xFF}));
    ByteWriter empty;
    EXPECT_THROW(empty.patchU32le(0, 1), FormatError);
}

TEST(ByteWriter, TakeMovesTheBuffer) {
    ByteWriter w;
    w.reserve(100);
    w.u16le(0x0201);
    const Bytes b = w.take();
    EXPECT_EQ(b, (Bytes{1, 2}));
}

// ---------------------------------------------------------------- round trips through ByteReader

TEST(ByteWriter, RoundTripIntegers) {
    ByteWriter w;
    w.u8(0);
    w.u8(255);
    w.i8(-128);
    w.i8(127);
    w.u16le(0xFFFF);
    w.u16be(0x1234);
    w.i16le(-32768);
    w.i16be(32767);
    w.u32le(0xFFFFFFFFu);
    w.u32be(0xDEADBEEFu);
    w.i32le(std::numeric_limits<std::int32_t>::min());
    w.i32be(-123456789);
    w.u64le(std::numeric_limits<std::uint64_t>::max());
    w.u64be(0x0123456789ABCDEFull);
    w.i64le(std::numeric_limits<std::int64_t>::min());
    w.i64be(std::numeric_limits<std::int64_t>::max());

    ByteReader r(w.bytes().data(), w.size(), "T");
    EXPECT_EQ(r.u8(), 0u);
    EXPECT_EQ(r.u8(), 255u);
    EXPECT_EQ(r.i8(), -128);
    EXPECT_EQ(r.i8(), 127);
    EXPECT_EQ(r.u16le(), 0xFFFFu);
    EXPECT_EQ(r.u16be(), 0x1234u);
    EXPECT_EQ(r.i16le(), -32768);
    EXPECT_EQ(r.i16be(), 32767);
    EXPECT_EQ(r.u32le(), 0xFFFFFFFFu);
    EXPECT_EQ(r.u32be(), 0xDEADBEEFu);
    EXPECT_EQ(r.i32le(), std::numeric_limits<std::int32_t>::min());
    EXPECT_EQ(r.i32be(), -123456789);
    EXPECT_EQ(r.u64le(), std::numeric_limits<std::uint64_t>::max());
    EXPECT_EQ(r.u64be(), 0x0123456789ABCDEFull);
    EXPECT_EQ(r.i64le(), std::numeric_limits<std::int64_t>::min());
    EXPECT_EQ(r.i64be(), std::numeric_limits<std::int64_t>::max());
    EXPECT_TRUE(r.atEnd());
}

TEST(ByteWriter, RoundTripFloatsBitExact) {
    const std::uint32_t floats[] = {0x00000000u, 0x80000000u, 0x00000001u, 0x007FFFFFu, 0x3F800000u,
                                    0x7F7FFFFFu, 0x7F800000u, 0xFF800000u, 0x7FC00000u, 0xFFC12345u};
    const std::uint64_t doubles[] = {0x0000000000000000ull, 0x8000000000000000ull, 0x0000000000000001ull,
                                     0x3FB999999999999Aull, 0x7FEFFFFFFFFFFFFFull, 0x7FF0000000000000ull,
                                     0xFFF8000000000000ull, 0x7FF0000000000001ull};
    ByteWriter w;
    for (std::uint32_t f : floats) {
        w.f32le(FloatFromBits(f));
        w.f32be(FloatFromBits(f));
    }
    for (std::uint64_t d : doubles) {
        w.f64le(DoubleFromBits(d));
        w.f64be(DoubleFromBits(d));
    }
    ByteReader r(w.bytes().data(), w.size(), "T");
    for (std::uint32_t f : floats) {
        EXPECT_EQ(FloatBits(r.f32le()), f);
        EXPECT_EQ(FloatBits(r.f32be()), f);
    }
    for (std::uint64_t d : doubles) {
        EXPECT_EQ(DoubleBits(r.f64le()), d);
        EXPECT_EQ(DoubleBits(r.f64be()), d);
    }
    EXPECT_TRUE(r.atEnd());
}

TEST(ByteWriter, RoundTripStrings) {
    const std::string withNul("a\0b", 3);
    ByteWriter w;
    w.stringU32le(withNul);
    w.stringU16le("sixteen");
    w.stringU8("eight");
    w.fixedString("pad", 8);
    w.fixedString("full", 4);
    w.string("raw");
    ByteReader r(w.bytes().data(), w.size(), "T");
    EXPECT_EQ(r.stringU32le(), withNul);
    EXPECT_EQ(r.stringU16le(), "sixteen");
    EXPECT_EQ(r.stringU8(), "eight");
    EXPECT_EQ(r.fixedString(8), "pad");
    EXPECT_EQ(r.fixedString(4), "full");
    EXPECT_EQ(r.string(3), "raw");
    EXPECT_TRUE(r.atEnd());
}

TEST(ByteWriter, RoundTripBytesAndZeros) {
    ByteWriter w;
    w.bytes(Bytes{9, 8, 7});
    w.zeros(3);
    ByteReader r(w.bytes().data(), w.size(), "T");
    const std::uint8_t *p = r.take(3);
    EXPECT_EQ(p[0], 9);
    EXPECT_EQ(p[2], 7);
    r.requireArray(3, 1, "zeros");
    EXPECT_EQ(r.u16le(), 0u);
    EXPECT_EQ(r.u8(), 0u);
    EXPECT_TRUE(r.atEnd());
}
