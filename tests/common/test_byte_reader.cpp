// Tests for ByteReader: every accessor's value, every end-of-data case, and absolute error offsets.
#include "common/byte_reader.hpp"

#include "support/bits.hpp"
#include "support/expect_error.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <functional>
#include <limits>
#include <string>
#include <vector>

using gamefmt::ByteReader;
using gamefmt::FormatError;

namespace {

using namespace gamefmt::test;

using Bytes = std::vector<std::uint8_t>;

struct Accessor {
    const char *name;
    std::size_t width;
    std::function<void(ByteReader &)> read;
};

// Every fixed-width accessor, so the end-of-data tests cannot skip one.
const std::vector<Accessor> &Accessors() {
    static const std::vector<Accessor> list = {
        {"u8", 1, [](ByteReader &r) { r.u8(); }},       {"i8", 1, [](ByteReader &r) { r.i8(); }},
        {"u16le", 2, [](ByteReader &r) { r.u16le(); }}, {"u16be", 2, [](ByteReader &r) { r.u16be(); }},
        {"i16le", 2, [](ByteReader &r) { r.i16le(); }}, {"i16be", 2, [](ByteReader &r) { r.i16be(); }},
        {"u32le", 4, [](ByteReader &r) { r.u32le(); }}, {"u32be", 4, [](ByteReader &r) { r.u32be(); }},
        {"i32le", 4, [](ByteReader &r) { r.i32le(); }}, {"i32be", 4, [](ByteReader &r) { r.i32be(); }},
        {"u64le", 8, [](ByteReader &r) { r.u64le(); }}, {"u64be", 8, [](ByteReader &r) { r.u64be(); }},
        {"i64le", 8, [](ByteReader &r) { r.i64le(); }}, {"i64be", 8, [](ByteReader &r) { r.i64be(); }},
        {"f32le", 4, [](ByteReader &r) { r.f32le(); }}, {"f32be", 4, [](ByteReader &r) { r.f32be(); }},
        {"f64le", 8, [](ByteReader &r) { r.f64le(); }}, {"f64be", 8, [](ByteReader &r) { r.f64be(); }},
    };
    return list;
}

} // namespace

// ---------------------------------------------------------------- values

TEST(ByteReader, Unsigned8And16) {
    const Bytes d = {0xAB, 0x01, 0x02, 0x01, 0x02};
    ByteReader r(d.data(), d.size(), "T");
    EXPECT_EQ(r.u8(), 0xABu);
    EXPECT_EQ(r.u16le(), 0x0201u);
    EXPECT_EQ(r.u16be(), 0x0102u);
    EXPECT_TRUE(r.atEnd());
}

TEST(ByteReader, Signed8And16) {
    const Bytes d = {0xFF, 0x80, 0xFE, 0xFF, 0xFF, 0xFE, 0x00, 0x80, 0x80, 0x00};
    ByteReader r(d.data(), d.size(), "T");
    EXPECT_EQ(r.i8(), -1);
    EXPECT_EQ(r.i8(), -128);
    EXPECT_EQ(r.i16le(), -2);
    EXPECT_EQ(r.i16be(), -2);
    EXPECT_EQ(r.i16le(), std::numeric_limits<std::int16_t>::min());
    EXPECT_EQ(r.i16be(), std::numeric_limits<std::int16_t>::min());
    EXPECT_TRUE(r.atEnd());
}

TEST(ByteReader, Unsigned32And64) {
    const Bytes d = {0x01, 0x02, 0x03, 0x04, 0x01, 0x02, 0x03, 0x04, 0x01, 0x02, 0x03, 0x04,
                     0x05, 0x06, 0x07, 0x08, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08};
    ByteReader r(d.data(), d.size(), "T");
    EXPECT_EQ(r.u32le(), 0x04030201u);
    EXPECT_EQ(r.u32be(), 0x01020304u);
    EXPECT_EQ(r.u64le(), 0x0807060504030201ull);
    EXPECT_EQ(r.u64be(), 0x0102030405060708ull);
    EXPECT_TRUE(r.atEnd());
}

TEST(ByteReader, HighBitValuesDoNotSignExtend) {
    const Bytes d = {0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF};
    ByteReader r(d.data(), d.size(), "T");
    EXPECT_EQ(r.u16be(), 0xFFFFu);
    EXPECT_EQ(r.u32le(), 0xFFFFFFFFu);
    EXPECT_EQ(r.u64be(), 0xFFFFFFFFFFFFFFFFull);
}

TEST(ByteReader, Signed32And64) {
    const Bytes d = {0xFE, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE, 0xFE, 0xFF, 0xFF, 0xFF,
                     0xFF, 0xFF, 0xFF, 0xFF, 0x80, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00};
    ByteReader r(d.data(), d.size(), "T");
    EXPECT_EQ(r.i32le(), -2);
    EXPECT_EQ(r.i32be(), -2);
    EXPECT_EQ(r.i64le(), -2);
    EXPECT_EQ(r.i64be(), std::numeric_limits<std::int64_t>::min());
    EXPECT_TRUE(r.atEnd());
}

TEST(ByteReader, Int32Extremes) {
    const Bytes d = {0x00, 0x00, 0x00, 0x80, 0x7F, 0xFF, 0xFF, 0xFF};
    ByteReader r(d.data(), d.size(), "T");
    EXPECT_EQ(r.i32le(), std::numeric_limits<std::int32_t>::min());
    EXPECT_EQ(r.i32be(), std::numeric_limits<std::int32_t>::max());
}

TEST(ByteReader, Floats) {
    const Bytes d = {0x00, 0x00, 0x80, 0x3F,                          // 1.0f LE
                     0xC0, 0x20, 0x00, 0x00,                          // -2.5f BE
                     0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xF0, 0x3F,  // 1.0 LE
                     0xBF, 0xB9, 0x99, 0x99, 0x99, 0x99, 0x99, 0x9A}; // -0.1 BE
    ByteReader r(d.data(), d.size(), "T");
    EXPECT_EQ(r.f32le(), 1.0f);
    EXPECT_EQ(r.f32be(), -2.5f);
    EXPECT_EQ(r.f64le(), 1.0);
    EXPECT_EQ(r.f64be(), -0.1);
    EXPECT_TRUE(r.atEnd());
}

TEST(ByteReader, FloatBitPatternsKept) {
    // NaN payloads and negative zero must come through bit for bit (lossless models).
    const Bytes d = {0x01, 0x00, 0xC0, 0x7F, 0x80, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
                     0x00, 0x00, 0xF8, 0x7F, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01};
    ByteReader r(d.data(), d.size(), "T");
    EXPECT_EQ(FloatBits(r.f32le()), 0x7FC00001u);
    EXPECT_EQ(FloatBits(r.f32be()), 0x80000000u);
    EXPECT_EQ(DoubleBits(r.f64le()), 0x7FF8000000000001ull);
    EXPECT_EQ(DoubleBits(r.f64be()), 0x0000000000000001ull);
}

TEST(ByteReader, Accessors) {
    const Bytes d = {1, 2, 3, 4, 5};
    ByteReader r(d.data(), d.size(), "Fmt", 100);
    EXPECT_EQ(r.size(), 5u);
    EXPECT_EQ(r.tell(), 0u);
    EXPECT_EQ(r.remaining(), 5u);
    EXPECT_FALSE(r.atEnd());
    EXPECT_EQ(r.offset(), 100u);
    EXPECT_EQ(r.baseOffset(), 100u);
    EXPECT_EQ(r.data(), d.data());
    EXPECT_EQ(r.current(), d.data());
    EXPECT_STREQ(r.format(), "Fmt");
    r.u16le();
    EXPECT_EQ(r.tell(), 2u);
    EXPECT_EQ(r.remaining(), 3u);
    EXPECT_EQ(r.offset(), 102u);
    EXPECT_EQ(r.current(), d.data() + 2);
    EXPECT_EQ(*r.current(), 3);
}

TEST(ByteReader, NullDataIsEmpty) {
    ByteReader r(nullptr, 10, "T", 5);
    EXPECT_EQ(r.size(), 0u);
    EXPECT_TRUE(r.atEnd());
    const FormatError e = Thrown([&] { r.u8(); });
    EXPECT_EQ(e.offset(), 5u);
}

TEST(ByteReader, EmptyReader) {
    const Bytes d;
    ByteReader r(d.data(), 0, "T");
    EXPECT_TRUE(r.atEnd());
    EXPECT_EQ(r.take(0), r.current());
    EXPECT_EQ(r.string(0), "");
    EXPECT_EQ(r.fixedString(0), "");
    r.skip(0);
    r.seek(0);
    EXPECT_THROW(r.u8(), FormatError);
}

// ---------------------------------------------------------------- end of data, every accessor

TEST(ByteReader, EveryAccessorExactFit) {
    for (const Accessor &a : Accessors()) {
        SCOPED_TRACE(a.name);
        const Bytes d(a.width, 0x11);
        ByteReader r(d.data(), d.size(), "T");
        a.read(r);
        EXPECT_TRUE(r.atEnd());
        EXPECT_EQ(r.tell(), a.width);
    }
}

TEST(ByteReader, EveryAccessorOneByteShort) {
    for (const Accessor &a : Accessors()) {
        SCOPED_TRACE(a.name);
        // Three leading bytes so the failing read starts mid-buffer; base offset 1000.
        const Bytes d(3 + a.width - 1, 0x11);
        ByteReader r(d.data(), d.size(), "Short", 1000);
        r.skip(3);
        const FormatError e = Thrown([&] { a.read(r); });
        EXPECT_EQ(e.offset(), 1003u);
        EXPECT_EQ(e.format(), "Short");
        EXPECT_EQ(e.message(), "unexpected end of data: a " + std::to_string(a.width * 8) + "-bit value needs " +
                                   std::to_string(a.width) + " bytes, " + std::to_string(a.width - 1) + " remain");
        EXPECT_TRUE(Contains(e.what(), "(at byte offset 1003)"));
        EXPECT_EQ(r.tell(), 3u) << "a failed read must not move the cursor";
    }
}

TEST(ByteReader, EveryAccessorAtEnd) {
    for (const Accessor &a : Accessors()) {
        SCOPED_TRACE(a.name);
        const Bytes d(a.width, 0x22);
        ByteReader r(d.data(), d.size(), "End", 7);
        a.read(r);
        const FormatError e = Thrown([&] { a.read(r); });
        EXPECT_EQ(e.offset(), 7 + a.width);
        EXPECT_TRUE(Contains(e.message(), "0 remain"));
        EXPECT_EQ(r.tell(), a.width);
    }
}

// ---------------------------------------------------------------- take, copyTo, skip, seek

TEST(ByteReader, TakeReturnsCurrentAndAdvances) {
    const Bytes d = {1, 2, 3, 4};
    ByteReader r(d.data(), d.size(), "T");
    r.u8();
    const std::uint8_t *p = r.take(2);
    EXPECT_EQ(p, d.data() + 1);
    EXPECT_EQ(r.tell(), 3u);
    EXPECT_EQ(r.take(1), d.data() + 3);
    EXPECT_EQ(r.take(0), d.data() + 4);
    EXPECT_TRUE(r.atEnd());
}

TEST(ByteReader, TakePastEnd) {
    const Bytes d = {1, 2, 3, 4};
    ByteReader r(d.data(), d.size(), "T", 50);
    r.u8();
    const FormatError e = Thrown([&] { r.take(4); });
    EXPECT_EQ(e.offset(), 51u);
    EXPECT_EQ(e.message(), "unexpected end of data: a read needs 4 bytes, 3 remain");
    EXPECT_EQ(r.tell(), 1u);
    // A size near SIZE_MAX must not wrap the bounds check.
    EXPECT_THROW(r.take(std::numeric_limits<std::size_t>::max()), FormatError);
    EXPECT_EQ(r.take(3), d.data() + 1);
}

TEST(ByteReader, CopyTo) {
    const Bytes d = {9, 8, 7};
    ByteReader r(d.data(), d.size(), "T", 10);
    std::uint8_t out[3] = {0, 0, 0};
    r.copyTo(out, 2);
    EXPECT_EQ(out[0], 9);
    EXPECT_EQ(out[1], 8);
    EXPECT_EQ(out[2], 0);
    r.copyTo(nullptr, 0);
    const FormatError e = Thrown([&] { r.copyTo(out, 2); });
    EXPECT_EQ(e.offset(), 12u);
    EXPECT_EQ(out[0], 9) << "a failed copy must not write";
}

TEST(ByteReader, Skip) {
    const Bytes d = {1, 2, 3, 4, 5};
    ByteReader r(d.data(), d.size(), "T", 20);
    r.skip(2);
    EXPECT_EQ(r.u8(), 3);
    const FormatError e = Thrown([&] { r.skip(3); });
    EXPECT_EQ(e.offset(), 23u);
    EXPECT_EQ(e.message(), "unexpected end of data: a skip needs 3 bytes, 2 remain");
    EXPECT_EQ(r.tell(), 3u);
    EXPECT_THROW(r.skip(std::numeric_limits<std::size_t>::max()), FormatError);
    r.skip(2);
    EXPECT_TRUE(r.atEnd());
}

TEST(ByteReader, Seek) {
    const Bytes d = {1, 2, 3, 4, 5};
    ByteReader r(d.data(), d.size(), "T", 30);
    r.seek(4);
    EXPECT_EQ(r.u8(), 5);
    r.seek(1);
    EXPECT_EQ(r.u8(), 2);
    r.seek(5); // the end itself is a valid position
    EXPECT_TRUE(r.atEnd());
    r.seek(0);
    EXPECT_EQ(r.offset(), 30u);
}

TEST(ByteReader, SeekPastEnd) {
    const Bytes d = {1, 2, 3, 4, 5};
    ByteReader r(d.data(), d.size(), "Seeker", 30);
    r.seek(2);
    const FormatError e = Thrown([&] { r.seek(6); });
    EXPECT_EQ(e.format(), "Seeker");
    EXPECT_EQ(e.offset(), 35u); // reported at the end of the data
    EXPECT_EQ(e.message(), "seek to 6 past the end (5 bytes)");
    EXPECT_EQ(r.tell(), 2u);
    EXPECT_THROW(r.seek(std::numeric_limits<std::size_t>::max()), FormatError);
}

// ---------------------------------------------------------------- strings

TEST(ByteReader, StringKeepsEmbeddedNul) {
    const Bytes d = {'a', 0, 'b', 'c'};
    ByteReader r(d.data(), d.size(), "T");
    const std::string s = r.string(3);
    EXPECT_EQ(s.size(), 3u);
    EXPECT_EQ(s, std::string("a\0b", 3));
    EXPECT_EQ(r.string(1), "c");
}

TEST(ByteReader, StringPastEnd) {
    const Bytes d = {'a', 'b'};
    ByteReader r(d.data(), d.size(), "T", 4);
    const FormatError e = Thrown([&] { r.string(3); });
    EXPECT_EQ(e.offset(), 4u);
    EXPECT_EQ(r.tell(), 0u);
}

TEST(ByteReader, FixedStringWithNul) {
    const Bytes d = {'a', 'b', 0, 0, 'x', 0, 'y', 'z'};
    ByteReader r(d.data(), d.size(), "T");
    EXPECT_EQ(r.fixedString(4), "ab");
    EXPECT_EQ(r.tell(), 4u) << "the whole field is consumed";
    EXPECT_EQ(r.fixedString(4), "x") << "text after the first NUL is padding";
}

TEST(ByteReader, FixedStringWithoutNul) {
    const Bytes d = {'a', 'b', 'c', 'd'};
    ByteReader r(d.data(), d.size(), "T");
    EXPECT_EQ(r.fixedString(4), "abcd");
    EXPECT_TRUE(r.atEnd());
}

TEST(ByteReader, FixedStringLeadingNul) {
    const Bytes d = {0, 'a', 'b'};
    ByteReader r(d.data(), d.size(), "T");
    EXPECT_EQ(r.fixedString(3), "");
    EXPECT_TRUE(r.atEnd());
}

TEST(ByteReader, FixedStringPastEnd) {
    const Bytes d = {'a', 'b', 'c'};
    ByteReader r(d.data(), d.size(), "T", 8);
    r.u8();
    const FormatError e = Thrown([&] { r.fixedString(3); });
    EXPECT_EQ(e.offset(), 9u);
    EXPECT_EQ(r.tell(), 1u);
}

TEST(ByteReader, StringU32le) {
    const Bytes d = {3, 0, 0, 0, 'a', 'b', 'c', 0, 0, 0, 0};
    ByteReader r(d.data(), d.size(), "T");
    EXPECT_EQ(r.stringU32le(), "abc");
    EXPECT_EQ(r.stringU32le(), "");
    EXPECT_TRUE(r.atEnd());
}

TEST(ByteReader, StringU16le) {
    const Bytes d = {2, 0, 'h', 'i', 0, 0};
    ByteReader r(d.data(), d.size(), "T");
    EXPECT_EQ(r.stringU16le(), "hi");
    EXPECT_EQ(r.stringU16le(), "");
    EXPECT_TRUE(r.atEnd());
}

TEST(ByteReader, StringU8) {
    const Bytes d = {1, 'z', 0};
    ByteReader r(d.data(), d.size(), "T");
    EXPECT_EQ(r.stringU8(), "z");
    EXPECT_EQ(r.stringU8(), "");
    EXPECT_TRUE(r.atEnd());
}

TEST(ByteReader, StringU32leLengthExceedsRemaining) {
    const Bytes d = {0xEE, 4, 0, 0, 0, 'a', 'b', 'c'};
    ByteReader r(d.data(), d.size(), "Prefixed", 200);
    r.u8();
    const FormatError e = Thrown([&] { r.stringU32le(); });
    EXPECT_EQ(e.offset(), 201u) << "reported at the length field";
    EXPECT_EQ(e.message(), "string length 4 exceeds the 3 bytes that remain");
}

TEST(ByteReader, StringU32leHugeLength) {
    const Bytes d = {0xFF, 0xFF, 0xFF, 0xFF, 'a'};
    ByteReader r(d.data(), d.size(), "T", 3);
    const FormatError e = Thrown([&] { r.stringU32le(); });
    EXPECT_EQ(e.offset(), 3u);
    EXPECT_EQ(e.message(), "string length 4294967295 exceeds the 1 bytes that remain");
}

TEST(ByteReader, StringU16leLengthExceedsRemaining) {
    const Bytes d = {'x', 'x', 3, 0, 'a', 'b'};
    ByteReader r(d.data(), d.size(), "T", 10);
    r.skip(2);
    const FormatError e = Thrown([&] { r.stringU16le(); });
    EXPECT_EQ(e.offset(), 12u);
    EXPECT_EQ(e.message(), "string length 3 exceeds the 2 bytes that remain");
}

TEST(ByteReader, StringU8LengthExceedsRemaining) {
    const Bytes d = {2, 'a'};
    ByteReader r(d.data(), d.size(), "T", 10);
    const FormatError e = Thrown([&] { r.stringU8(); });
    EXPECT_EQ(e.offset(), 10u);
    EXPECT_EQ(e.message(), "string length 2 exceeds the 1 bytes that remain");
}

TEST(ByteReader, StringPrefixTruncated) {
    const Bytes d = {1, 0, 0};
    ByteReader r32(d.data(), 3, "T", 40);
    EXPECT_EQ(Thrown([&] { r32.stringU32le(); }).offset(), 40u);
    ByteReader r16(d.data(), 1, "T", 41);
    EXPECT_EQ(Thrown([&] { r16.stringU16le(); }).offset(), 41u);
    ByteReader r8(d.data(), 0, "T", 42);
    EXPECT_EQ(Thrown([&] { r8.stringU8(); }).offset(), 42u);
}

// ---------------------------------------------------------------- sub-readers

TEST(ByteReader, SubReaderOffsets) {
    const Bytes d = {0, 1, 2, 3, 4, 5, 6, 7};
    ByteReader r(d.data(), d.size(), "Outer", 1000);
    r.skip(2);
    ByteReader s = r.sub(4);
    EXPECT_EQ(r.tell(), 6u) << "the parent passes the sub-range";
    EXPECT_EQ(s.size(), 4u);
    EXPECT_EQ(s.baseOffset(), 1002u);
    EXPECT_EQ(s.offset(), 1002u);
    EXPECT_STREQ(s.format(), "Outer");
    EXPECT_EQ(s.data(), d.data() + 2);
    EXPECT_EQ(s.u16le(), 0x0302u);
    EXPECT_EQ(s.offset(), 1004u);
    EXPECT_EQ(r.u8(), 6) << "reads from the sub-reader do not move the parent";
}

TEST(ByteReader, SubReaderErrorsAreAbsolute) {
    const Bytes d = {0, 1, 2, 3, 4, 5, 6, 7};
    ByteReader r(d.data(), d.size(), "Outer", 1000);
    r.skip(2);
    ByteReader s = r.sub(4);
    s.u16le();
    // Bytes 6 and 7 exist in the parent but not in the sub-reader.
    const FormatError e = Thrown([&] { s.u32le(); });
    EXPECT_EQ(e.offset(), 1004u);
    EXPECT_EQ(e.format(), "Outer");
    EXPECT_TRUE(Contains(e.what(), "(at byte offset 1004)"));
    EXPECT_EQ(Thrown([&] { s.fail("custom"); }).offset(), 1004u);
    EXPECT_EQ(Thrown([&] { s.failAt(1, "custom"); }).offset(), 1003u);
    EXPECT_EQ(Thrown([&] { s.seek(5); }).offset(), 1006u);
    EXPECT_EQ(Thrown([&] { s.requireArray(3, 1, "x"); }).offset(), 1004u);
}

TEST(ByteReader, NestedSubReaders) {
    const Bytes d(32, 0xAA);
    ByteReader r(d.data(), d.size(), "T", 500);
    r.skip(4);
    ByteReader a = r.sub(20); // 504 .. 524
    a.skip(6);
    ByteReader b = a.sub(8); // 510 .. 518
    EXPECT_EQ(b.baseOffset(), 510u);
    b.skip(8);
    EXPECT_EQ(Thrown([&] { b.u8(); }).offset(), 518u);
    EXPECT_EQ(a.tell(), 14u);
}

TEST(ByteReader, SubPastEnd) {
    const Bytes d = {0, 1, 2, 3};
    ByteReader r(d.data(), d.size(), "T", 60);
    r.u8();
    const FormatError e = Thrown([&] { r.sub(4); });
    EXPECT_EQ(e.offset(), 61u);
    EXPECT_EQ(r.tell(), 1u);
    EXPECT_THROW(r.sub(std::numeric_limits<std::size_t>::max()), FormatError);
    ByteReader s = r.sub(3);
    EXPECT_EQ(s.size(), 3u);
    ByteReader empty = r.sub(0);
    EXPECT_EQ(empty.size(), 0u);
    EXPECT_EQ(empty.baseOffset(), 64u);
}

// ---------------------------------------------------------------- requireArray / fits

TEST(ByteReader, RequireArrayFits) {
    const Bytes d(24, 0);
    ByteReader r(d.data(), d.size(), "T");
    r.skip(4);
    r.requireArray(5, 4, "floats"); // exactly the 20 bytes that remain
    r.requireArray(0, 4, "floats");
    r.requireArray(std::numeric_limits<std::uint64_t>::max(), 0, "empty things");
    EXPECT_TRUE(r.fits(5, 4));
    EXPECT_TRUE(r.fits(20, 1));
    EXPECT_TRUE(r.fits(std::numeric_limits<std::uint64_t>::max(), 0));
    EXPECT_EQ(r.tell(), 4u) << "requireArray does not move the cursor";
}

TEST(ByteReader, RequireArrayOneTooMany) {
    const Bytes d(24, 0);
    ByteReader r(d.data(), d.size(), "Mesh", 300);
    r.skip(4);
    const FormatError e = Thrown([&] { r.requireArray(6, 4, "vertices"); });
    EXPECT_EQ(e.offset(), 304u);
    EXPECT_EQ(e.message(), "vertices: 6 x 4 bytes declared, but only 20 bytes remain");
    EXPECT_FALSE(r.fits(6, 4));
    EXPECT_FALSE(r.fits(21, 1));
}

TEST(ByteReader, RequireArrayOverflowingProduct) {
    // 2^62 * 8 wraps to 0 in 64 bits; the check must not multiply.
    const Bytes d(16, 0);
    ByteReader r(d.data(), d.size(), "T");
    const std::uint64_t count = std::uint64_t(1) << 62;
    EXPECT_THROW(r.requireArray(count, 8, "faces"), FormatError);
    EXPECT_FALSE(r.fits(count, 8));
    EXPECT_THROW(r.requireArray(std::uint64_t(1) << 61, 8, "faces"), FormatError); // wraps to 2^64 = 0 too
    EXPECT_THROW(r.requireArray(std::numeric_limits<std::uint64_t>::max(), 1, "bytes"), FormatError);
    EXPECT_THROW(r.requireArray(2, std::numeric_limits<std::size_t>::max(), "huge"), FormatError);
}

TEST(ByteReader, RequireArrayAtEnd) {
    const Bytes d(4, 0);
    ByteReader r(d.data(), d.size(), "T", 9);
    r.skip(4);
    r.requireArray(0, 12, "none");
    const FormatError e = Thrown([&] { r.requireArray(1, 1, "one"); });
    EXPECT_EQ(e.offset(), 13u);
}

// ---------------------------------------------------------------- fail / failAt

TEST(ByteReader, FailReportsCursor) {
    const Bytes d(10, 0);
    ByteReader r(d.data(), d.size(), "Fmt", 100);
    r.skip(3);
    const FormatError e = Thrown([&] { r.fail("bad magic"); });
    EXPECT_EQ(e.offset(), 103u);
    EXPECT_EQ(e.format(), "Fmt");
    EXPECT_EQ(e.message(), "bad magic");
    EXPECT_STREQ(e.what(), "Fmt: bad magic (at byte offset 103)");
}

TEST(ByteReader, FailAtReportsGivenPosition) {
    const Bytes d(10, 0);
    ByteReader r(d.data(), d.size(), "Fmt", 100);
    r.skip(8);
    const FormatError e = Thrown([&] { r.failAt(2, "bad count"); });
    EXPECT_EQ(e.offset(), 102u);
    EXPECT_STREQ(e.what(), "Fmt: bad count (at byte offset 102)");
}

// The non-throwing reads (for decoders whose input may legitimately not parse): values little-endian whatever the
// type, false with the cursor unmoved when a value does not fit.
TEST(ByteReader, TryReadsReportInsteadOfThrowing) {
    const std::uint8_t bytes[] = {0x01, 0x00, 0x80, 0x3F, 0x02, 0x00, 0x00, 0x00, 'h', 'i', 0xFF};
    gamefmt::ByteReader r(bytes, sizeof bytes, "test");
    std::int16_t i = 0;
    ASSERT_TRUE(r.tryLE(i));
    EXPECT_EQ(i, 1);
    std::uint16_t top = 0;
    ASSERT_TRUE(r.tryLE(top));
    EXPECT_EQ(top, 0x3F80);
    r.seek(0);
    std::uint32_t word = 0;
    ASSERT_TRUE(r.tryLE(word));
    EXPECT_EQ(word, 0x3F800001u);
    r.seek(0);
    float f = 0;
    ASSERT_TRUE(r.tryLE(f));
    EXPECT_EQ(f, gamefmt::BitCast<float>(0x3F800001u));
    std::string s;
    ASSERT_TRUE(r.tryStringU32le(s));
    EXPECT_EQ(s, "hi");
    EXPECT_EQ(r.tell(), 10u);
    EXPECT_FALSE(r.tryLE(word)); // one byte left
    EXPECT_EQ(r.tell(), 10u);
    const std::uint8_t shortString[] = {0x05, 0, 0, 0, 'a'};
    gamefmt::ByteReader cut(shortString, sizeof shortString, "test");
    EXPECT_FALSE(cut.tryStringU32le(s));
    EXPECT_EQ(cut.tell(), 0u);
    double d = 0;
    EXPECT_FALSE(cut.tryLE(d));
    const std::uint8_t one[] = {0, 0, 0, 0, 0, 0, 0xF0, 0x3F};
    gamefmt::ByteReader dr(one, sizeof one, "test");
    ASSERT_TRUE(dr.tryLE(d));
    EXPECT_EQ(d, 1.0);
}

TEST(ByteReader, SameBitsTellsNegativeZeroAndKeepsNaN) {
    const float nan = std::numeric_limits<float>::quiet_NaN();
    EXPECT_TRUE(gamefmt::SameBits(nan, nan));
    EXPECT_FALSE(gamefmt::SameBits(0.0f, -0.0f));
    EXPECT_TRUE(gamefmt::SameBits(std::vector<double>{1, 2}, std::vector<double>{1, 2}));
    EXPECT_FALSE(gamefmt::SameBits(std::vector<double>{1, 2}, std::vector<double>{1}));
    EXPECT_TRUE(gamefmt::SameBits(std::vector<double>{}, std::vector<double>{}));
}
