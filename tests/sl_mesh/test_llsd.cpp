// Binary LLSD codec tests (docs/formats/sl-mesh.md §1, vectors from §11): exact bytes for every marker, sorted keys,
// float-widened reals, little-endian dates, prefixes, and hostile input (truncation, huge counts, depth).
#include "importers/sl_mesh/llsd.hpp"

#include "common/error.hpp"
#include "fixtures/bytes.hpp"
#include "support/expect_error.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

namespace {

using gamefmt::fixtures::Text;

using gamefmt::fixtures::Cat;

using gamefmt::fixtures::Hex;

using gamefmt::FormatError;
using gamefmt::slmesh::LLSD;
using gamefmt::slmesh::LLSDLimits;
using gamefmt::slmesh::LLSDParseResult;
using gamefmt::slmesh::LLSDType;
using gamefmt::slmesh::ParseBinaryLLSD;
using gamefmt::slmesh::WriteBinaryLLSD;
using namespace gamefmt::test;
using Bytes = std::vector<std::uint8_t>;

LLSDParseResult Parse(const Bytes &b, std::size_t baseOffset = 0, const LLSDLimits &limits = {}) {
    return ParseBinaryLLSD(b.data(), b.size(), baseOffset, limits);
}

FormatError ParseError(const Bytes &b, std::size_t baseOffset = 0, const LLSDLimits &limits = {}) {
    return Thrown([&] { Parse(b, baseOffset, limits); });
}

std::uint64_t Bits(double d) {
    std::uint64_t u;
    std::memcpy(&u, &d, sizeof u);
    return u;
}

// §11.1 with N = 349 (the stored-zlib block of §11.2).
const Bytes kHeader = Hex("7B 00000001"
                          "6B 00000008 68 69 67 68 5F 6C 6F 64" // k "high_lod"
                          "7B 00000002"
                          "6B 00000006 6F 66 66 73 65 74" // k "offset"
                          "69 00000000"
                          "6B 00000004 73 69 7A 65" // k "size"
                          "69 0000015D"
                          "7D 7D");

// clang-format off
// §11.2, typed from the reference's listing; the comments are the listing's offsets.
const Bytes kLodBlock = Hex(
    /* 0000 */ "5B 00000001"
    /* 0005 */ "7B 00000006"
    /* 000A */ "6B 00000006 4E 6F 72 6D 61 6C" // "Normal"
    /* 0015 */ "62 00000012"
    /* 001A */ "19 36 19 36 E5 C9  19 36 19 36 E5 C9  19 36 19 36 E5 C9"
    /* 002C */ "6B 00000008 50 6F 73 69 74 69 6F 6E" // "Position"
    /* 0039 */ "62 00000012"
    /* 003E */ "00 00 00 00 00 00  FF FF 00 00 FF FF  00 00 FF FF FF FF"
    /* 0050 */ "6B 0000000E 50 6F 73 69 74 69 6F 6E 44 6F 6D 61 69 6E" // "PositionDomain"
    /* 0063 */ "7B 00000002"
    /* 0068 */ "6B 00000003 4D 61 78  5B 00000003" // "Max"
    "72 3FE0000000000000  72 3FE0000000000000  72 3FE0000000000000  5D"
    /* 0091 */ "6B 00000003 4D 69 6E  5B 00000003" // "Min"
    "72 BFE0000000000000  72 BFE0000000000000  72 BFE0000000000000  5D"
    /* 00BA */ "7D"
    /* 00BB */ "6B 00000009 54 65 78 43 6F 6F 72 64 30" // "TexCoord0"
    /* 00C9 */ "62 0000000C  00 00 00 00  FF FF 00 00  00 00 FF FF"
    /* 00DA */ "6B 0000000F 54 65 78 43 6F 6F 72 64 30 44 6F 6D 61 69 6E" // "TexCoord0Domain"
    /* 00EE */ "7B 00000002  6B 00000003 4D 61 78  5B 00000002"
    "72 3FF0000000000000  72 3FF0000000000000  5D"
    /* 0113 */ "6B 00000003 4D 69 6E  5B 00000002"
    "72 0000000000000000  72 0000000000000000  5D  7D"
    /* 0134 */ "6B 0000000C 54 72 69 61 6E 67 6C 65 4C 69 73 74" // "TriangleList"
    /* 0145 */ "62 00000006  00 00 01 00 02 00"
    /* 0150 */ "7D 5D");
// clang-format on

// One of every marker, nested, keys sorted: reads and writes back byte for byte.
const Bytes kEveryMarker = Hex("7B 00000003"
                               "6B 00000001 61" // "a": an array of every scalar
                               "5B 0000000A"
                               "21 31 30"
                               "69 FFFFFFFE"
                               "72 BFF1126EA0000000"
                               "75 00112233445566778899AABBCCDDEEFF"
                               "73 00000003 61 62 63"
                               "6C 00000004 68 74 74 70"
                               "62 00000002 00 FF"
                               "64 0000000065CDCD41"
                               "5D"
                               "6B 00000001 62 5B 00000000 5D" // "b": []
                               "6B 00000001 63 7B 00000000 7D" // "c": {}
                               "7D");

LLSD RealArray(std::initializer_list<double> values) {
    LLSD::Array a;
    for (double v : values) a.push_back(LLSD::Real(v));
    return LLSD::MakeArray(std::move(a));
}

LLSD Domain(std::initializer_list<double> max, std::initializer_list<double> min) {
    return LLSD::MakeMap({{"Max", RealArray(max)}, {"Min", RealArray(min)}});
}

// ---------------------------------------------------------------------------------------------------------

TEST(SlLlsdHeader, ParsesTheElevenOneHeader) {
    ASSERT_EQ(kHeader.size(), 55u);
    const LLSDParseResult r = Parse(kHeader);
    EXPECT_EQ(r.end, 55u); // H = 55 = the first block's file offset
    ASSERT_TRUE(r.value.isMap());
    ASSERT_EQ(r.value.map().size(), 1u);
    const LLSD *lod = r.value.find("high_lod");
    ASSERT_NE(lod, nullptr);
    ASSERT_TRUE(lod->isMap());
    ASSERT_EQ(lod->map().size(), 2u);
    ASSERT_NE(lod->find("offset"), nullptr);
    ASSERT_NE(lod->find("size"), nullptr);
    EXPECT_EQ(lod->find("offset")->type(), LLSDType::Integer);
    EXPECT_EQ(lod->find("offset")->integer(), 0);
    EXPECT_EQ(lod->find("size")->type(), LLSDType::Integer);
    EXPECT_EQ(lod->find("size")->integer(), 349);
}

TEST(SlLlsdHeader, WritesTheElevenOneHeaderWithSortedKeys) {
    // Built in the wrong key order: the writer sorts "offset" before "size".
    LLSD lod = LLSD::MakeMap({{"size", LLSD::Integer(349)}, {"offset", LLSD::Integer(0)}});
    const LLSD header = LLSD::MakeMap({{"high_lod", lod}});
    EXPECT_EQ(WriteBinaryLLSD(header), kHeader);
    // Unsorted output keeps entry order, so it differs exactly there.
    const Bytes unsorted = WriteBinaryLLSD(header, false);
    ASSERT_EQ(unsorted.size(), 55u);
    EXPECT_NE(unsorted, kHeader);
    EXPECT_EQ(unsorted[28], 's');
}

TEST(SlLlsdParse, EveryMarker) {
    const LLSDParseResult r = Parse(kEveryMarker);
    EXPECT_EQ(r.end, kEveryMarker.size());
    const LLSD &v = r.value;
    ASSERT_TRUE(v.isMap());
    ASSERT_EQ(v.map().size(), 3u);
    const LLSD *a = v.find("a");
    ASSERT_NE(a, nullptr);
    ASSERT_TRUE(a->isArray());
    ASSERT_EQ(a->array().size(), 10u);
    const LLSD::Array &e = a->array();
    EXPECT_TRUE(e[0].isUndefined());
    EXPECT_EQ(e[1].type(), LLSDType::Boolean);
    EXPECT_TRUE(e[1].boolean());
    EXPECT_EQ(e[2].type(), LLSDType::Boolean);
    EXPECT_FALSE(e[2].boolean());
    EXPECT_EQ(e[3].type(), LLSDType::Integer);
    EXPECT_EQ(e[3].integer(), -2);
    EXPECT_EQ(e[4].type(), LLSDType::Real);
    EXPECT_EQ(Bits(e[4].real()), 0xBFF1126EA0000000ull);
    EXPECT_EQ(e[4].real(), static_cast<double>(-1.067f));
    EXPECT_EQ(e[5].type(), LLSDType::UUID);
    EXPECT_EQ(e[5].uuid()[0], 0x00);
    EXPECT_EQ(e[5].uuid()[1], 0x11);
    EXPECT_EQ(e[5].uuid()[15], 0xFF);
    EXPECT_EQ(e[6].type(), LLSDType::String);
    EXPECT_EQ(e[6].string(), "abc");
    EXPECT_EQ(e[7].type(), LLSDType::URI);
    EXPECT_EQ(e[7].string(), "http");
    EXPECT_EQ(e[8].type(), LLSDType::Binary);
    EXPECT_EQ(e[8].binary(), (Bytes{0x00, 0xFF}));
    EXPECT_EQ(e[9].type(), LLSDType::Date);
    EXPECT_EQ(e[9].real(), 1.0e9);
    ASSERT_NE(v.find("b"), nullptr);
    EXPECT_TRUE(v.find("b")->isArray());
    EXPECT_TRUE(v.find("b")->array().empty());
    ASSERT_NE(v.find("c"), nullptr);
    EXPECT_TRUE(v.find("c")->isMap());
    EXPECT_TRUE(v.find("c")->map().empty());
}

TEST(SlLlsdWrite, EveryMarkerRoundTripsByteForByte) {
    const LLSD v = Parse(kEveryMarker).value;
    EXPECT_EQ(WriteBinaryLLSD(v), kEveryMarker);
    EXPECT_EQ(WriteBinaryLLSD(v, false), kEveryMarker);
}

TEST(SlLlsdWrite, EachScalarMarker) {
    EXPECT_EQ(WriteBinaryLLSD(LLSD()), Hex("21"));
    EXPECT_EQ(WriteBinaryLLSD(LLSD::Boolean(true)), Hex("31"));
    EXPECT_EQ(WriteBinaryLLSD(LLSD::Boolean(false)), Hex("30"));
    EXPECT_EQ(WriteBinaryLLSD(LLSD::Integer(349)), Hex("69 0000015D"));
    EXPECT_EQ(WriteBinaryLLSD(LLSD::Integer(-1)), Hex("69 FFFFFFFF"));
    EXPECT_EQ(WriteBinaryLLSD(LLSD::Real(1.0)), Hex("72 3FF0000000000000"));
    gamefmt::slmesh::UUIDBytes id{};
    for (std::size_t i = 0; i < id.size(); ++i) id[i] = static_cast<std::uint8_t>(0xA0 + i);
    EXPECT_EQ(WriteBinaryLLSD(LLSD::Uuid(id)), Hex("75 A0A1A2A3A4A5A6A7A8A9AAABACADAEAF"));
    EXPECT_EQ(WriteBinaryLLSD(LLSD::String("hi")), Hex("73 00000002 68 69"));
    EXPECT_EQ(WriteBinaryLLSD(LLSD::String("")), Hex("73 00000000"));
    EXPECT_EQ(WriteBinaryLLSD(LLSD::Uri("x:")), Hex("6C 00000002 78 3A"));
    EXPECT_EQ(WriteBinaryLLSD(LLSD::Binary({1, 2, 3})), Hex("62 00000003 01 02 03"));
    EXPECT_EQ(WriteBinaryLLSD(LLSD::MakeArray({LLSD::Integer(1), LLSD()})), Hex("5B 00000002 69 00000001 21 5D"));
    EXPECT_EQ(WriteBinaryLLSD(LLSD::MakeMap()), Hex("7B 00000000 7D"));
}

TEST(SlLlsdWrite, RealsAreWrittenAsStoredFloatWidened) {
    EXPECT_EQ(WriteBinaryLLSD(LLSD::Real(static_cast<double>(-1.067f))), Hex("72 BF F1 12 6E A0 00 00 00"));
    EXPECT_EQ(WriteBinaryLLSD(LLSD::Real(static_cast<double>(0.1f))), Hex("72 3F B9 99 99 A0 00 00 00"));
    // Not widened: the double's own bits are written, no rounding to float behind the caller's back.
    EXPECT_EQ(WriteBinaryLLSD(LLSD::Real(0.1)), Hex("72 3F B9 99 99 99 99 99 9A"));
    EXPECT_EQ(Bits(Parse(Hex("72 3F B9 99 99 A0 00 00 00")).value.real()), Bits(static_cast<double>(0.1f)));
}

TEST(SlLlsdDate, LittleEndianKnownValue) {
    const Bytes bytes = Hex("64 00 00 00 00 65 CD CD 41");
    EXPECT_EQ(WriteBinaryLLSD(LLSD::Date(1.0e9)), bytes);
    const LLSD v = Parse(bytes).value;
    EXPECT_EQ(v.type(), LLSDType::Date);
    EXPECT_EQ(v.real(), 1.0e9);
    EXPECT_EQ(gamefmt::slmesh::DescribeLLSD(v), "2001-09-09T01:46:40Z");
    // Read big-endian the same bytes would be a denormal-sized nonsense value; check it is not that.
    EXPECT_NE(Parse(Hex("64 41 CD CD 65 00 00 00 00")).value.real(), 1.0e9);
}

TEST(SlLlsdWrite, KeysSortedByteWise) {
    LLSD m = LLSD::MakeMap({{"Min", LLSD::Integer(1)}, {"Max", LLSD::Integer(2)}});
    EXPECT_EQ(WriteBinaryLLSD(m),
              Hex("7B 00000002  6B 00000003 4D 61 78  69 00000002  6B 00000003 4D 69 6E  69 00000001  7D"));
    EXPECT_EQ(WriteBinaryLLSD(m, false),
              Hex("7B 00000002  6B 00000003 4D 69 6E  69 00000001  6B 00000003 4D 61 78  69 00000002  7D"));

    LLSD n = LLSD::MakeMap({{"Position", LLSD()}, {"NormalizedScale", LLSD()}, {"Normal", LLSD()}});
    EXPECT_EQ(WriteBinaryLLSD(n), Hex("7B 00000003"
                                      "6B 00000006 4E 6F 72 6D 61 6C 21"
                                      "6B 0000000F 4E 6F 72 6D 61 6C 69 7A 65 64 53 63 61 6C 65 21"
                                      "6B 00000008 50 6F 73 69 74 69 6F 6E 21"
                                      "7D"));
}

TEST(SlLlsdWrite, KeyOrderIsUnsignedBytes) {
    // 0xC3 (UTF-8 lead byte) sorts after 'z' (0x7A) as an unsigned byte; a signed char compare puts it first.
    LLSD m = LLSD::MakeMap({{"\xC3\xA9", LLSD()}, {"z", LLSD()}, {"Z", LLSD()}});
    EXPECT_EQ(WriteBinaryLLSD(m), Hex("7B 00000003  6B 00000001 5A 21  6B 00000001 7A 21  6B 00000002 C3 A9 21  7D"));
}

TEST(SlLlsdPrefix, BothSpellingsSkipped) {
    const Bytes viewer = Cat({Text("<? LLSD/Binary ?>\n"), Hex("69 00000007")});
    const Bytes python = Cat({Text("<?llsd/binary?>\n"), Hex("69 00000007")});
    EXPECT_EQ(gamefmt::slmesh::SkipLLSDPrefix(viewer.data(), viewer.size()), 18u);
    EXPECT_EQ(gamefmt::slmesh::SkipLLSDPrefix(python.data(), python.size()), 16u);
    EXPECT_EQ(Parse(viewer).value.integer(), 7);
    EXPECT_EQ(Parse(viewer).end, 23u);
    EXPECT_EQ(Parse(python).value.integer(), 7);
    EXPECT_EQ(Parse(python).end, 21u);
    // Without the newline, and the legacy prefix before the §11.1 header.
    const Bytes bare = Cat({Text("<? LLSD/Binary ?>"), kHeader});
    EXPECT_EQ(Parse(bare).end, 17u + 55u);
    EXPECT_EQ(Parse(bare).value, Parse(kHeader).value);
    // No prefix: nothing skipped.
    EXPECT_EQ(gamefmt::slmesh::SkipLLSDPrefix(kHeader.data(), kHeader.size()), 0u);
    EXPECT_EQ(gamefmt::slmesh::SkipLLSDPrefix(nullptr, 0), 0u);
}

TEST(SlLlsdPrefix, UnterminatedPrefixIsAnError) {
    Bytes noEnd = Text("<? LLSD/Binary");
    FormatError e = ParseError(noEnd, 40);
    EXPECT_EQ(e.offset(), 40u);
    EXPECT_TRUE(Contains(e.message(), "?>")) << e.message();
    // "?>" beyond the 64-byte limit.
    Bytes longPrefix = Cat({Text("<?"), Bytes(70, 'x'), Text("?>\n"), Hex("21")});
    EXPECT_THROW(Parse(longPrefix), FormatError);
    // "?>" ending exactly at byte 64 is still accepted.
    Bytes edge = Cat({Text("<?"), Bytes(60, 'x'), Text("?>"), Hex("21")});
    EXPECT_EQ(Parse(edge).end, 65u);
}

TEST(SlLlsdValue, NumberConversions) {
    const LLSD i = Parse(Hex("69 00000007")).value;
    const LLSD r = Parse(Hex("72 4002000000000000")).value; // 2.25
    EXPECT_TRUE(i.isNumber());
    EXPECT_TRUE(r.isNumber());
    EXPECT_EQ(i.asReal(), 7.0);
    EXPECT_EQ(i.asInteger(), 7);
    EXPECT_EQ(r.asInteger(), 2);
    EXPECT_EQ(r.asReal(), 2.25);
    EXPECT_EQ(LLSD::Real(-2.9).asInteger(), -2);
    EXPECT_EQ(LLSD::Real(1e20).asInteger(), std::numeric_limits<std::int32_t>::max());
    EXPECT_EQ(LLSD::Real(-1e20).asInteger(), std::numeric_limits<std::int32_t>::min());
    EXPECT_EQ(LLSD::Real(std::nan("")).asInteger(7), 0);
    EXPECT_EQ(LLSD::Boolean(true).asInteger(), 1);
    EXPECT_EQ(LLSD::Boolean(true).asReal(), 1.0);
    EXPECT_TRUE(LLSD::Integer(3).asBoolean());
    EXPECT_FALSE(LLSD::Real(0.0).asBoolean(true));
    EXPECT_EQ(LLSD::String("5").asInteger(9), 9);
    EXPECT_EQ(LLSD().asReal(1.5), 1.5);
    EXPECT_FALSE(LLSD::String("x").isNumber());
}

TEST(SlLlsdValue, EqualityIgnoresMapOrderAndComparesRealBits) {
    const LLSD a = LLSD::MakeMap({{"x", LLSD::Integer(1)}, {"y", LLSD::Real(2.0)}});
    const LLSD b = LLSD::MakeMap({{"y", LLSD::Real(2.0)}, {"x", LLSD::Integer(1)}});
    EXPECT_EQ(a, b);
    EXPECT_NE(a, LLSD::MakeMap({{"y", LLSD::Real(2.0)}, {"x", LLSD::Integer(2)}}));
    EXPECT_NE(a, LLSD::MakeMap({{"x", LLSD::Integer(1)}}));
    EXPECT_NE(LLSD::Integer(1), LLSD::Real(1.0)); // types differ
    EXPECT_EQ(LLSD::Real(std::nan("")), LLSD::Real(std::nan("")));
    EXPECT_NE(LLSD::Real(0.0), LLSD::Real(-0.0));
    EXPECT_NE(LLSD::Real(1.0), LLSD::Date(1.0));
    EXPECT_NE(LLSD::String("a"), LLSD::Uri("a"));
    EXPECT_NE(LLSD::MakeArray({LLSD::Integer(1), LLSD::Integer(2)}),
              LLSD::MakeArray({LLSD::Integer(2), LLSD::Integer(1)}));
    EXPECT_EQ(LLSD(), LLSD());
}

TEST(SlLlsdValue, FindSetErase) {
    LLSD m;
    m.set("b", LLSD::Integer(1));
    EXPECT_TRUE(m.isMap());
    m.set("a", LLSD::Integer(2));
    m.set("b", LLSD::Integer(3));
    ASSERT_EQ(m.map().size(), 2u);
    EXPECT_EQ(m.map()[0].first, "b");
    EXPECT_EQ(m.find("b")->integer(), 3);
    EXPECT_EQ(m.find("zz"), nullptr);
    EXPECT_TRUE(m.erase("b"));
    EXPECT_FALSE(m.erase("b"));
    EXPECT_EQ(m.map().size(), 1u);
    EXPECT_EQ(LLSD::Integer(1).find("a"), nullptr);
    LLSD notMap = LLSD::Integer(1);
    EXPECT_THROW(notMap.set("a", LLSD()), FormatError);
}

TEST(SlLlsdParse, DuplicateKeysLaterValueWins) {
    const Bytes b = Hex("7B 00000003"
                        "6B 00000001 61 69 00000001"
                        "6B 00000001 62 69 00000002"
                        "6B 00000001 61 69 00000003"
                        "7D");
    const LLSD v = Parse(b).value;
    ASSERT_EQ(v.map().size(), 2u);
    EXPECT_EQ(v.map()[0].first, "a");
    EXPECT_EQ(v.map()[0].second.integer(), 3);
    EXPECT_EQ(v.map()[1].first, "b");

    // A large map (the indexed path): 40 pairs over 20 distinct keys, each written twice.
    Bytes big = Hex("7B 00000028");
    for (int round = 0; round < 2; ++round)
        for (int k = 0; k < 20; ++k) {
            const Bytes pair = Hex("6B 00000002");
            big.insert(big.end(), pair.begin(), pair.end());
            big.push_back(static_cast<std::uint8_t>('A' + k / 10));
            big.push_back(static_cast<std::uint8_t>('0' + k % 10));
            big.push_back('i');
            const Bytes n = {0, 0, static_cast<std::uint8_t>(round), static_cast<std::uint8_t>(k)};
            big.insert(big.end(), n.begin(), n.end());
        }
    big.push_back('}');
    const LLSDParseResult r = Parse(big);
    EXPECT_EQ(r.end, big.size());
    ASSERT_EQ(r.value.map().size(), 20u);
    for (int k = 0; k < 20; ++k) {
        EXPECT_EQ(r.value.map()[static_cast<std::size_t>(k)].second.integer(), 256 + k);
    }
}

TEST(SlLlsdLodBlock, ParsesTheElevenTwoBlock) {
    ASSERT_EQ(kLodBlock.size(), 338u);
    // Spot checks of the transcription against the listing's offsets.
    for (std::size_t at : {0x0Au, 0x2Cu, 0x50u, 0x68u, 0x91u, 0xBBu, 0xDAu, 0x134u})
        EXPECT_EQ(kLodBlock[at], 'k') << at;
    EXPECT_EQ(kLodBlock[0x15], 'b');
    EXPECT_EQ(kLodBlock[0x63], '{');
    EXPECT_EQ(kLodBlock[0xBA], '}');
    EXPECT_EQ(kLodBlock[0x145], 'b');
    EXPECT_EQ(kLodBlock[0x150], '}');
    const LLSDParseResult r = Parse(kLodBlock);
    EXPECT_EQ(r.end, 338u);
    ASSERT_TRUE(r.value.isArray());
    ASSERT_EQ(r.value.array().size(), 1u);
    const LLSD &face = r.value.array()[0];
    ASSERT_TRUE(face.isMap());
    ASSERT_EQ(face.map().size(), 6u);
    const char *keys[] = {"Normal", "Position", "PositionDomain", "TexCoord0", "TexCoord0Domain", "TriangleList"};
    for (std::size_t i = 0; i < 6; ++i) EXPECT_EQ(face.map()[i].first, keys[i]);

    ASSERT_TRUE(face.find("Normal")->isBinary());
    EXPECT_EQ(face.find("Normal")->binary(), Hex("193619 36E5C9 193619 36E5C9 193619 36E5C9"));
    EXPECT_EQ(face.find("Position")->binary(), Hex("000000000000 FFFF0000FFFF 0000FFFFFFFF"));
    EXPECT_EQ(face.find("TexCoord0")->binary(), Hex("00000000 FFFF0000 0000FFFF"));
    EXPECT_EQ(face.find("TriangleList")->binary(), Hex("0000 0100 0200"));

    const LLSD *pd = face.find("PositionDomain");
    ASSERT_NE(pd, nullptr);
    ASSERT_EQ(pd->find("Max")->array().size(), 3u);
    ASSERT_EQ(pd->find("Min")->array().size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_EQ(pd->find("Max")->array()[i].asReal(), 0.5);
        EXPECT_EQ(pd->find("Min")->array()[i].asReal(), -0.5);
    }
    const LLSD *td = face.find("TexCoord0Domain");
    ASSERT_NE(td, nullptr);
    ASSERT_EQ(td->find("Max")->array().size(), 2u);
    EXPECT_EQ(td->find("Max")->array()[1].asReal(), 1.0);
    EXPECT_EQ(td->find("Min")->array()[0].type(), LLSDType::Real);
    EXPECT_EQ(Bits(td->find("Min")->array()[0].real()), 0u);

    EXPECT_EQ(WriteBinaryLLSD(r.value), kLodBlock);
}

TEST(SlLlsdLodBlock, HandBuiltBlockWritesTheSame338Bytes) {
    // Keys deliberately out of order: only sorting gives the viewer's bytes.
    LLSD face;
    face.set("TriangleList", LLSD::Binary(Hex("0000 0100 0200")));
    face.set("TexCoord0Domain", Domain({1.0, 1.0}, {0.0, 0.0}));
    face.set("TexCoord0", LLSD::Binary(Hex("00000000 FFFF0000 0000FFFF")));
    face.set("PositionDomain",
             LLSD::MakeMap({{"Min", RealArray({-0.5, -0.5, -0.5})}, {"Max", RealArray({0.5, 0.5, 0.5})}}));
    face.set("Position", LLSD::Binary(Hex("000000000000 FFFF0000FFFF 0000FFFFFFFF")));
    face.set("Normal", LLSD::Binary(Hex("193619 36E5C9 193619 36E5C9 193619 36E5C9")));
    const LLSD block = LLSD::MakeArray({face});
    EXPECT_EQ(WriteBinaryLLSD(block), kLodBlock);
    EXPECT_EQ(Parse(kLodBlock).value, block);
    std::vector<std::uint8_t> appended = {0xEE};
    gamefmt::slmesh::AppendBinaryLLSD(block, appended);
    ASSERT_EQ(appended.size(), 339u);
    EXPECT_EQ(appended[0], 0xEE);
    EXPECT_TRUE(std::equal(kLodBlock.begin(), kLodBlock.end(), appended.begin() + 1));
}

TEST(SlLlsdHostile, TruncationAtEveryByteThrows) {
    for (const Bytes *doc : {&kHeader, &kLodBlock, &kEveryMarker}) {
        for (std::size_t n = 0; n < doc->size(); ++n) {
            const Bytes cut(doc->begin(), doc->begin() + static_cast<std::ptrdiff_t>(n));
            try {
                Parse(cut, 1000);
                ADD_FAILURE() << "prefix of " << n << " bytes parsed";
            } catch (const FormatError &e) {
                EXPECT_EQ(e.format(), "Second Life mesh");
                EXPECT_GE(e.offset(), 1000u) << n;
                EXPECT_LE(e.offset(), 1000u + n) << n;
            }
        }
    }
}

TEST(SlLlsdHostile, EmptyInput) {
    const FormatError e = ParseError(Bytes{}, 7);
    EXPECT_EQ(e.offset(), 7u);
    EXPECT_THROW(ParseBinaryLLSD(nullptr, 0), FormatError);
}

TEST(SlLlsdHostile, CountsAtOrAboveTwoToThe31Rejected) {
    FormatError e = ParseError(Cat({Hex("5B 80000000"), Bytes(64, '!')}), 10);
    EXPECT_EQ(e.offset(), 11u); // the count field
    EXPECT_TRUE(Contains(e.message(), "2147483648")) << e.message();
    e = ParseError(Cat({Hex("7B FFFFFFFF"), Bytes(64, '!')}));
    EXPECT_EQ(e.offset(), 1u);
    EXPECT_TRUE(Contains(e.message(), "4294967295")) << e.message();
    e = ParseError(Cat({Hex("62 80000000"), Bytes(64, 0)}));
    EXPECT_EQ(e.offset(), 1u);
    EXPECT_TRUE(Contains(e.message(), "binary length 2147483648")) << e.message();
    e = ParseError(Cat({Hex("73 80000001"), Bytes(64, 0)}));
    EXPECT_TRUE(Contains(e.message(), "string length")) << e.message();
    e = ParseError(Hex("7B 00000001 6B 80000000 00"));
    EXPECT_EQ(e.offset(), 6u);
    EXPECT_TRUE(Contains(e.message(), "map key length")) << e.message();
}

TEST(SlLlsdHostile, HugeCountsRejectedBeforeAllocating) {
    // A count just under 2^31: reserving it would need hundreds of GB (ASan would abort the test).
    FormatError e = ParseError(Cat({Hex("5B 7FFFFFFF"), Bytes(12, '!')}));
    EXPECT_EQ(e.offset(), 1u);
    EXPECT_EQ(e.message(), "array count 2147483647 exceeds the 12 bytes left");
    // A map pair needs 6 bytes: 2 pairs do not fit in 11 bytes, though 11 > 2.
    e = ParseError(Cat({Hex("7B 00000002"), Bytes(11, 'k')}));
    EXPECT_EQ(e.offset(), 1u);
    EXPECT_TRUE(Contains(e.message(), "map count 2 exceeds the 11 bytes left")) << e.message();
    // Exactly enough bytes for the elements is not rejected by the count check (the missing ']' is).
    e = ParseError(Cat({Hex("5B 00000003"), Bytes(3, '!')}));
    EXPECT_TRUE(Contains(e.message(), "missing ']'")) << e.message();
    // Lengths.
    e = ParseError(Hex("62 00000005 01 02 03 04"));
    EXPECT_EQ(e.offset(), 1u);
    EXPECT_EQ(e.message(), "binary length 5 exceeds the 4 bytes left");
    // Nested counts cannot each claim the whole input: the outer array still needs 4 bytes.
    e = ParseError(Hex("5B 00000005  5B 00000005 21 21 21 21 21 5D"));
    EXPECT_EQ(e.offset(), 6u);
    EXPECT_TRUE(Contains(e.message(), "array count 5")) << e.message();
    EXPECT_TRUE(Contains(e.message(), "4 of them")) << e.message();
    // ...while the same shape with consistent counts parses.
    EXPECT_EQ(Parse(Hex("5B 00000002  5B 00000002 21 21 5D 21 5D")).value.array().size(), 2u);
}

TEST(SlLlsdHostile, ValueCountLimit) {
    // 1 array + 4 undefined values = 5 values: fits a limit of 5, not of 4.
    const Bytes doc = Hex("5B 00000004 21 21 21 21 5D");
    LLSDLimits limits;
    limits.maxValues = 5;
    EXPECT_EQ(ParseBinaryLLSD(doc.data(), doc.size(), 0, limits).value.array().size(), 4u);
    limits.maxValues = 4;
    try {
        ParseBinaryLLSD(doc.data(), doc.size(), 0, limits);
        ADD_FAILURE() << "limit not enforced";
    } catch (const FormatError &e) {
        EXPECT_EQ(e.offset(), 0u); // the array's count alone exceeds it: refused before reserving
        EXPECT_TRUE(Contains(e.message(), "limit of 4 values")) << e.message();
    }
    // Values spread over nested arrays count together: [[!!][!!]] is 7 values.
    const Bytes nested = Hex("5B 00000002 5B 00000002 21 21 5D 5B 00000002 21 21 5D 5D");
    limits.maxValues = 6;
    EXPECT_THROW(ParseBinaryLLSD(nested.data(), nested.size(), 0, limits), FormatError);
    limits.maxValues = 7;
    EXPECT_EQ(ParseBinaryLLSD(nested.data(), nested.size(), 0, limits).value.array().size(), 2u);
    // The default allows a million values.
    EXPECT_EQ(LLSDLimits().maxValues, std::size_t(1) << 20);
}

TEST(SlLlsdHostile, DeepNestingRejectedWithoutStackOverflow) {
    const Bytes brackets(100000, '[');
    EXPECT_THROW(Parse(brackets), FormatError);

    Bytes nested;
    const Bytes level = Hex("5B 00000001");
    for (int i = 0; i < 100000; ++i) nested.insert(nested.end(), level.begin(), level.end());
    nested.push_back('!');
    nested.insert(nested.end(), 100000, ']');
    FormatError e = ParseError(nested);
    EXPECT_EQ(e.offset(), 128u * 5u); // the 129th '['
    EXPECT_TRUE(Contains(e.message(), "nesting deeper than the limit of 128")) << e.message();

    // A raised limit is honoured (LLSD values are copied and destroyed recursively, so limits stay modest).
    LLSDLimits raised;
    raised.maxDepth = 2000;
    e = ParseError(nested, 0, raised);
    EXPECT_EQ(e.offset(), 2000u * 5u);
}

TEST(SlLlsdHostile, DepthLimitIsInclusive) {
    auto nestedArrays = [](int depth) {
        Bytes b;
        for (int i = 0; i < depth; ++i) {
            const Bytes level = Hex("5B 00000001");
            b.insert(b.end(), level.begin(), level.end());
        }
        b.push_back('!');
        b.insert(b.end(), static_cast<std::size_t>(depth), ']');
        return b;
    };
    EXPECT_EQ(Parse(nestedArrays(128)).end, 128u * 6u + 1u);
    EXPECT_THROW(Parse(nestedArrays(129)), FormatError);
    LLSDLimits three;
    three.maxDepth = 3;
    EXPECT_NO_THROW(Parse(nestedArrays(3), 0, three));
    EXPECT_EQ(ParseError(nestedArrays(4), 0, three).offset(), 15u);
    // Maps count too.
    EXPECT_THROW(Parse(Hex("5B 00000001 5B 00000001 5B 00000001 7B 00000000 7D 5D 5D 5D"), 0, three), FormatError);
}

TEST(SlLlsdHostile, MissingOrWrongTerminators) {
    FormatError e = ParseError(Hex("5B 00000001 21"));
    EXPECT_EQ(e.offset(), 6u);
    EXPECT_TRUE(Contains(e.message(), "missing ']'")) << e.message();
    e = ParseError(Hex("7B 00000000"));
    EXPECT_EQ(e.offset(), 5u);
    EXPECT_TRUE(Contains(e.message(), "missing '}'")) << e.message();
    e = ParseError(Hex("5B 00000001 21 7D"));
    EXPECT_EQ(e.offset(), 6u);
    EXPECT_TRUE(Contains(e.message(), "expected ']'")) << e.message();
    e = ParseError(Hex("7B 00000001 6B 00000001 61 21 5D"));
    EXPECT_EQ(e.offset(), 12u);
    EXPECT_TRUE(Contains(e.message(), "expected '}'")) << e.message();
    // Count larger than the elements present: the early ']' is reported.
    e = ParseError(Hex("5B 00000002 21 5D 21"));
    EXPECT_EQ(e.offset(), 6u);
    EXPECT_TRUE(Contains(e.message(), "before its declared count")) << e.message();
    e = ParseError(Cat({Hex("7B 00000002 6B 00000001 61 21 7D"), Bytes(8, 0)}));
    EXPECT_EQ(e.offset(), 12u);
    // Count smaller than the elements present: the extra element sits where ']' must be.
    e = ParseError(Hex("5B 00000001 21 21 5D"));
    EXPECT_EQ(e.offset(), 6u);
}

TEST(SlLlsdHostile, MapKeyMustStartWithK) {
    FormatError e = ParseError(Hex("7B 00000001 73 00000001 61 21 7D"));
    EXPECT_EQ(e.offset(), 5u);
    EXPECT_TRUE(Contains(e.message(), "not 'k'")) << e.message();
    e = ParseError(Hex("7B 00000001 27 61 27 21 00 00 7D")); // a quoted key
    EXPECT_EQ(e.offset(), 5u);
}

TEST(SlLlsdHostile, QuotedStringsAndUnknownMarkersRejected) {
    FormatError e = ParseError(Text("'abc'"));
    EXPECT_EQ(e.offset(), 0u);
    EXPECT_TRUE(Contains(e.message(), "quoted")) << e.message();
    e = ParseError(Text("\"abc\""), 3);
    EXPECT_EQ(e.offset(), 3u);
    e = ParseError(Hex("5B 00000002 21 78 5D"), 100);
    EXPECT_EQ(e.offset(), 106u);
    EXPECT_TRUE(Contains(e.message(), "0x78 'x'")) << e.message();
    e = ParseError(Hex("5D"));
    EXPECT_TRUE(Contains(e.message(), "unknown LLSD marker")) << e.message();
    e = ParseError(Hex("6B 00000000")); // a key outside a map
    EXPECT_EQ(e.offset(), 0u);
}

TEST(SlLlsdParse, TrailingBytesAreNotRead) {
    const Bytes b = Cat({kHeader, Hex("FF FF FF")});
    const LLSDParseResult r = Parse(b);
    EXPECT_EQ(r.end, 55u);
    EXPECT_EQ(Parse(Hex("21 21")).end, 1u);
}

TEST(SlLlsdDescribe, ShortRendering) {
    using gamefmt::slmesh::DescribeLLSD;
    LLSD header = Parse(kHeader).value;
    header.find("high_lod")->set("size", LLSD::Integer(170));
    EXPECT_EQ(DescribeLLSD(header), "{high_lod: {offset: 0, size: 170}}");
    EXPECT_EQ(DescribeLLSD(LLSD::Binary(Bytes(3, 0))), "<binary 3 bytes>");
    EXPECT_EQ(DescribeLLSD(Parse(kEveryMarker).value),
              "{a: [undef, true, false, -2, -1.0670000314712524, 00112233-4455-6677-8899-aabbccddeeff, \"abc\", "
              "uri(\"http\"), <binary 2 bytes>, 2001-09-09T01:46:40Z], b: [], c: {}}");
    EXPECT_EQ(DescribeLLSD(LLSD::String("a\"b\n")), "\"a\\\"b\\x0A\"");
    EXPECT_EQ(DescribeLLSD(LLSD::Date(-1.5)), "1969-12-31T23:59:58.5Z");
    EXPECT_EQ(gamefmt::slmesh::FormatIsoDate(1e9 - 1e-7), "2001-09-09T01:46:40Z"); // rounds to whole microseconds
    EXPECT_EQ(gamefmt::slmesh::FormatIsoDate(0.000250), "1970-01-01T00:00:00.00025Z");
    EXPECT_EQ(gamefmt::slmesh::FormatIsoDate(253402300800.0), "");
    const std::string cut = DescribeLLSD(Parse(kLodBlock).value, 20);
    EXPECT_EQ(cut.size(), 20u);
    EXPECT_EQ(cut, "[{Normal: <binary...");
}

TEST(SlLlsdTypeName, EveryType) {
    using gamefmt::slmesh::LLSDTypeName;
    EXPECT_STREQ(LLSDTypeName(LLSDType::Undefined), "undefined");
    EXPECT_STREQ(LLSDTypeName(LLSDType::Boolean), "boolean");
    EXPECT_STREQ(LLSDTypeName(LLSDType::Integer), "integer");
    EXPECT_STREQ(LLSDTypeName(LLSDType::Real), "real");
    EXPECT_STREQ(LLSDTypeName(LLSDType::UUID), "uuid");
    EXPECT_STREQ(LLSDTypeName(LLSDType::String), "string");
    EXPECT_STREQ(LLSDTypeName(LLSDType::URI), "uri");
    EXPECT_STREQ(LLSDTypeName(LLSDType::Binary), "binary");
    EXPECT_STREQ(LLSDTypeName(LLSDType::Date), "date");
    EXPECT_STREQ(LLSDTypeName(LLSDType::Array), "array");
    EXPECT_STREQ(LLSDTypeName(LLSDType::Map), "map");
}

} // namespace
