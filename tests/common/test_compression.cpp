// Tests for common/compression: known vectors, round trips, the ceiling rule, and every failure mode
// (truncated, corrupt, wrong declared size, trailing bytes, over the ceiling, decompression bombs).
#include "common/compression.hpp"
#include "common/error.hpp"

#include "support/expect_error.hpp"

#include <gtest/gtest.h>
#include <zlib.h>

#include <cstdint>
#include <limits>
#include <string>
#include <vector>

using gamefmt::CompressLz4Block;
using gamefmt::CompressZstdFrame;
using gamefmt::DecompressionCeiling;
using gamefmt::DecompressionLimits;
using gamefmt::DecompressLz4Block;
using gamefmt::DecompressZstdFrame;
using gamefmt::DeflateZlib;
using gamefmt::FormatError;
using gamefmt::InflateZlib;
using gamefmt::InflateZlibUnknownSize;

namespace {

using namespace gamefmt::test;

using Bytes = std::vector<std::uint8_t>;

constexpr std::uint64_t KiB = 1024;
constexpr std::uint64_t MiB = 1024 * 1024;
constexpr std::uint64_t GiB = 1024 * MiB;

Bytes Str(const std::string &s) {
    return Bytes(s.begin(), s.end());
}

// Incompressible but reproducible bytes.
Bytes Noise(std::size_t n, std::uint32_t seed) {
    Bytes b(n);
    std::uint32_t x = seed;
    for (auto &v : b) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        v = static_cast<std::uint8_t>(x >> 24);
    }
    return b;
}

// Compressible text-like bytes.
Bytes Pattern(std::size_t n) {
    Bytes b(n);
    for (std::size_t i = 0; i < n; ++i) b[i] = static_cast<std::uint8_t>("vertex normal uv "[i % 17] + (i / 4096) % 3);
    return b;
}

// Text-like bytes with a realistic ratio (a few to one): words picked pseudo-randomly.
Bytes Text(std::size_t n) {
    static const char *const kWords[] = {"Part ",   "Mesh ",   "vertex ", "0.5 ",    "-1.25 ", "normal ",
                                         "<Item> ", "CFrame ", "1 ",      "Color3 ", "\n",     "Transparency "};
    Bytes b;
    b.reserve(n + 16);
    std::uint32_t x = 12345;
    while (b.size() < n) {
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        for (const char *w = kWords[x % 12]; *w != 0; ++w) b.push_back(static_cast<std::uint8_t>(*w));
    }
    b.resize(n);
    return b;
}

// The reference: what stock zlib's compress2 writes.
Bytes Compress2(const Bytes &in, int level) {
    uLongf n = compressBound(static_cast<uLong>(in.size()));
    Bytes out(n);
    EXPECT_EQ(compress2(out.data(), &n, in.data(), static_cast<uLong>(in.size()), level), Z_OK);
    out.resize(n);
    return out;
}

// A hand-built zstd frame holding one raw block of `payload` (RFC 8878): magic, a frame header
// descriptor, then a 3-byte block header (last block, type, size) and the bytes.
Bytes ZstdRawFrame(const std::string &payload, bool withContentSize, unsigned blockType = 0) {
    Bytes f = {0x28, 0xB5, 0x2F, 0xFD};
    if (withContentSize) {
        f.push_back(0x20); // single segment, 1-byte frame content size
        f.push_back(static_cast<std::uint8_t>(payload.size()));
    } else {
        f.push_back(0x00); // no content size, window descriptor follows
        f.push_back(0x00); // 1 KiB window
    }
    const std::uint32_t header = 1u | (blockType << 1) | (static_cast<std::uint32_t>(payload.size()) << 3);
    f.push_back(static_cast<std::uint8_t>(header));
    f.push_back(static_cast<std::uint8_t>(header >> 8));
    f.push_back(static_cast<std::uint8_t>(header >> 16));
    f.insert(f.end(), payload.begin(), payload.end());
    return f;
}

// "hello" in one stored deflate block: 78 01, BFINAL+stored, LEN, NLEN, data, Adler-32.
const Bytes kStoredHello = {0x78, 0x01, 0x01, 0x05, 0x00, 0xFA, 0xFF, 'h', 'e', 'l', 'l', 'o', 0x06, 0x2C, 0x02, 0x15};

} // namespace

// ---------------------------------------------------------------- ceiling rule

TEST(Compression, CeilingDefaults) {
    const DecompressionLimits d;
    EXPECT_EQ(d.maxOutput, GiB);
    EXPECT_EQ(d.maxRatio, 1024u);
    EXPECT_EQ(DecompressionLimits::kMinAllowance, 64 * KiB);
    EXPECT_EQ(DecompressionCeiling(0), 64 * KiB);
    EXPECT_EQ(DecompressionCeiling(1), 64 * KiB);
    EXPECT_EQ(DecompressionCeiling(64), 64 * KiB);
    EXPECT_EQ(DecompressionCeiling(65), 65 * KiB);
    EXPECT_EQ(DecompressionCeiling(1000), 1024000u);
    EXPECT_EQ(DecompressionCeiling(MiB), GiB);
    EXPECT_EQ(DecompressionCeiling(MiB + 1), GiB);
    EXPECT_EQ(DecompressionCeiling(std::numeric_limits<std::uint64_t>::max()), GiB) << "saturates, no overflow";
}

TEST(Compression, CeilingCustomLimits) {
    DecompressionLimits l;
    l.maxOutput = 1000;
    EXPECT_EQ(DecompressionCeiling(0, l), 1000u) << "maxOutput bounds the 64 KiB allowance too";
    l.maxOutput = 10 * MiB;
    l.maxRatio = 10;
    EXPECT_EQ(DecompressionCeiling(100 * KiB, l), 1000 * KiB);
    EXPECT_EQ(DecompressionCeiling(1, l), 64 * KiB);
    l.maxRatio = std::uint64_t(1) << 63;
    EXPECT_EQ(DecompressionCeiling(4, l), 10 * MiB);
    l.maxRatio = 0;
    EXPECT_EQ(DecompressionCeiling(MiB, l), 64 * KiB);
}

// ---------------------------------------------------------------- signatures

TEST(Compression, LooksLikeZstdFrame) {
    const Bytes magic = {0x28, 0xB5, 0x2F, 0xFD};
    EXPECT_TRUE(gamefmt::LooksLikeZstdFrame(magic.data(), 4));
    EXPECT_FALSE(gamefmt::LooksLikeZstdFrame(magic.data(), 3));
    EXPECT_FALSE(gamefmt::LooksLikeZstdFrame(nullptr, 4));
    const Bytes other = {0x28, 0xB5, 0x2F, 0xFE};
    EXPECT_FALSE(gamefmt::LooksLikeZstdFrame(other.data(), 4));
}

TEST(Compression, LooksLikeZlibStream) {
    for (std::uint8_t flg : {0x01, 0x5E, 0x9C, 0xDA}) {
        const Bytes h = {0x78, flg};
        EXPECT_TRUE(gamefmt::LooksLikeZlibStream(h.data(), 2)) << int(flg);
    }
    const Bytes h58 = {0x58, 0x85}; // window 16 KiB; 0x5885 % 31 == 0
    EXPECT_TRUE(gamefmt::LooksLikeZlibStream(h58.data(), 2));
    const Bytes badCheck = {0x78, 0x9D};
    EXPECT_FALSE(gamefmt::LooksLikeZlibStream(badCheck.data(), 2));
    const Bytes badMethod = {0x79, 0x18}; // 0x7918 % 31 == 0 but method 9
    EXPECT_FALSE(gamefmt::LooksLikeZlibStream(badMethod.data(), 2));
    const Bytes bigWindow = {0x88, 0x1C}; // CINFO 8 is not allowed; 0x881C % 31 == 0
    EXPECT_FALSE(gamefmt::LooksLikeZlibStream(bigWindow.data(), 2));
    EXPECT_FALSE(gamefmt::LooksLikeZlibStream(h58.data(), 1));
    EXPECT_FALSE(gamefmt::LooksLikeZlibStream(nullptr, 2));
}

// ---------------------------------------------------------------- LZ4

TEST(Compression, Lz4KnownLiteralsOnlyBlock) {
    const Bytes block = {0x50, 'h', 'e', 'l', 'l', 'o'};
    EXPECT_EQ(DecompressLz4Block(block.data(), block.size(), 5, "T"), Str("hello"));
}

TEST(Compression, Lz4KnownBlockWithMatch) {
    // 1 literal 'a', then a match of 4+4 at offset 1, then 5 literals: "a" + "aaaaaaaa" + "bcdef".
    const Bytes block = {0x14, 'a', 0x01, 0x00, 0x50, 'b', 'c', 'd', 'e', 'f'};
    EXPECT_EQ(DecompressLz4Block(block.data(), block.size(), 14, "T"), Str("aaaaaaaaabcdef"));
}

TEST(Compression, Lz4Empty) {
    const Bytes c = CompressLz4Block(nullptr, 0);
    EXPECT_EQ(c, (Bytes{0x00}));
    EXPECT_EQ(DecompressLz4Block(c.data(), c.size(), 0, "T"), Bytes{});
}

TEST(Compression, Lz4RoundTrip) {
    for (const Bytes &in : {Pattern(100000), Text(100000), Noise(50000, 7), Str("x"), Pattern(13)}) {
        const Bytes c = CompressLz4Block(in.data(), in.size());
        EXPECT_EQ(DecompressLz4Block(c.data(), c.size(), in.size(), "T"), in);
    }
    const Bytes p = Pattern(100000);
    EXPECT_LT(CompressLz4Block(p.data(), p.size()).size(), p.size() / 4);
}

TEST(Compression, Lz4Truncated) {
    const Bytes in = Pattern(5000);
    Bytes c = CompressLz4Block(in.data(), in.size());
    c.pop_back();
    const FormatError e = Thrown([&] { DecompressLz4Block(c.data(), c.size(), in.size(), "Roblox model", 700); });
    EXPECT_EQ(e.format(), "Roblox model");
    EXPECT_EQ(e.offset(), 700u);
    EXPECT_EQ(e.message(), "LZ4 block is corrupt, truncated, or decompresses to more than the 5000 bytes declared");
}

TEST(Compression, Lz4DeclaredTooLarge) {
    const Bytes block = {0x50, 'h', 'e', 'l', 'l', 'o'};
    const FormatError e = Thrown([&] { DecompressLz4Block(block.data(), block.size(), 6, "T", 16); });
    EXPECT_EQ(e.offset(), 16u);
    EXPECT_EQ(e.message(), "LZ4 block decompressed to 5 bytes, but 6 were declared");
}

TEST(Compression, Lz4DeclaredTooSmall) {
    const Bytes block = {0x50, 'h', 'e', 'l', 'l', 'o'};
    const FormatError e = Thrown([&] { DecompressLz4Block(block.data(), block.size(), 4, "T", 16); });
    EXPECT_EQ(e.offset(), 16u);
    EXPECT_TRUE(Contains(e.message(), "more than the 4 bytes declared"));
}

TEST(Compression, Lz4CorruptMatchOffset) {
    // A match reaching 5 bytes back when only 1 byte has been produced.
    const Bytes block = {0x14, 'a', 0x05, 0x00, 0x50, 'b', 'c', 'd', 'e', 'f'};
    const FormatError e = Thrown([&] { DecompressLz4Block(block.data(), block.size(), 14, "T", 3); });
    EXPECT_EQ(e.offset(), 3u);
    EXPECT_TRUE(Contains(e.message(), "corrupt"));
}

TEST(Compression, Lz4TrailingBytes) {
    const Bytes block = {0x50, 'h', 'e', 'l', 'l', 'o', 0x00};
    EXPECT_THROW(DecompressLz4Block(block.data(), block.size(), 5, "T"), FormatError);
}

TEST(Compression, Lz4EmptyInput) {
    EXPECT_THROW(DecompressLz4Block(nullptr, 0, 0, "T"), FormatError);
    const Bytes none;
    EXPECT_THROW(DecompressLz4Block(none.data(), 0, 5, "T"), FormatError);
}

TEST(Compression, Lz4BeyondFormatRatio) {
    // 10 bytes of LZ4 can hold at most 255 * 10 + 16 = 2566 bytes.
    const Bytes block(10, 0x00);
    EXPECT_THROW(DecompressLz4Block(block.data(), block.size(), 2566, "T"), FormatError); // corrupt, not refused
    const FormatError e = Thrown([&] { DecompressLz4Block(block.data(), block.size(), 2567, "T", 44); });
    EXPECT_EQ(e.offset(), 44u);
    EXPECT_EQ(e.message(), "LZ4 block of 10 bytes cannot decompress to the 2567 bytes declared");
}

TEST(Compression, Lz4OverCeilingRefusedBeforeAllocating) {
    const Bytes block = {0x50, 'h', 'e', 'l', 'l', 'o'};
    // 2^62 bytes could never be allocated: reaching the allocator would throw bad_alloc or abort.
    const FormatError e =
        Thrown([&] { DecompressLz4Block(block.data(), block.size(), std::uint64_t(1) << 62, "Fmt", 99); });
    EXPECT_EQ(e.offset(), 99u);
    EXPECT_EQ(e.message(), "LZ4 block of 6 bytes declares 4611686018427387904 decompressed bytes, over the limit of " +
                               std::to_string(64 * KiB));
    DecompressionLimits l;
    l.maxOutput = 4;
    EXPECT_THROW(DecompressLz4Block(block.data(), block.size(), 5, "T", 0, l), FormatError);
    l.maxOutput = 5;
    EXPECT_EQ(DecompressLz4Block(block.data(), block.size(), 5, "T", 0, l), Str("hello"));
}

TEST(Compression, Lz4OverRatioCeiling) {
    const Bytes in(200000, 0);
    const Bytes c = CompressLz4Block(in.data(), in.size());
    ASSERT_LT(c.size(), 1000u);
    DecompressionLimits l;
    l.maxRatio = 100;
    l.maxOutput = GiB;
    const std::uint64_t ceiling = DecompressionCeiling(c.size(), l); // 100 x ~800 bytes
    ASSERT_LT(ceiling, in.size());
    const FormatError e = Thrown([&] { DecompressLz4Block(c.data(), c.size(), in.size(), "T", 0, l); });
    EXPECT_EQ(e.message(), "LZ4 block of " + std::to_string(c.size()) +
                               " bytes declares 200000 decompressed bytes, over the limit of " +
                               std::to_string(ceiling));
    EXPECT_EQ(DecompressLz4Block(c.data(), c.size(), in.size(), "T"), in);
}

// ---------------------------------------------------------------- zstd

TEST(Compression, ZstdFrameMagic) {
    const Bytes in = Pattern(1000);
    const Bytes c = CompressZstdFrame(in.data(), in.size());
    ASSERT_GE(c.size(), 4u);
    EXPECT_EQ(c[0], 0x28);
    EXPECT_EQ(c[1], 0xB5);
    EXPECT_EQ(c[2], 0x2F);
    EXPECT_EQ(c[3], 0xFD);
    EXPECT_TRUE(gamefmt::LooksLikeZstdFrame(c.data(), c.size()));
}

TEST(Compression, ZstdKnownRawBlockFrame) {
    const Bytes f = ZstdRawFrame("hello", true);
    EXPECT_EQ(f, (Bytes{0x28, 0xB5, 0x2F, 0xFD, 0x20, 0x05, 0x29, 0x00, 0x00, 'h', 'e', 'l', 'l', 'o'}));
    EXPECT_EQ(DecompressZstdFrame(f.data(), f.size(), 5, "T"), Str("hello"));
    const Bytes g = ZstdRawFrame("hello", false);
    EXPECT_EQ(DecompressZstdFrame(g.data(), g.size(), 5, "T"), Str("hello"));
}

TEST(Compression, ZstdRoundTrip) {
    for (const Bytes &in : {Text(300000), Noise(40000, 3), Str("z"), Bytes{}}) {
        const Bytes c = CompressZstdFrame(in.data(), in.size());
        EXPECT_EQ(DecompressZstdFrame(c.data(), c.size(), in.size(), "T"), in);
    }
    const Bytes p = Text(300000);
    for (int level : {-5, 1, 19}) {
        const Bytes c = CompressZstdFrame(p.data(), p.size(), level);
        EXPECT_EQ(DecompressZstdFrame(c.data(), c.size(), p.size(), "T"), p) << level;
    }
    EXPECT_EQ(CompressZstdFrame(p.data(), p.size(), 0), CompressZstdFrame(p.data(), p.size(), 3))
        << "level 0 is zstd's default, 3";
}

TEST(Compression, ZstdHeaderSizeDisagrees) {
    const Bytes f = ZstdRawFrame("hello", true);
    const FormatError e = Thrown([&] { DecompressZstdFrame(f.data(), f.size(), 6, "Roblox model", 120); });
    EXPECT_EQ(e.offset(), 120u);
    EXPECT_EQ(e.message(), "zstd frame header says 5 decompressed bytes, but 6 were declared");
    EXPECT_THROW(DecompressZstdFrame(f.data(), f.size(), 4, "T"), FormatError);
}

TEST(Compression, ZstdNoHeaderSizeDeclaredTooLarge) {
    const Bytes f = ZstdRawFrame("hello", false);
    const FormatError e = Thrown([&] { DecompressZstdFrame(f.data(), f.size(), 6, "T", 8); });
    EXPECT_EQ(e.offset(), 8u);
    EXPECT_EQ(e.message(), "zstd frame decompressed to 5 bytes, but 6 were declared");
}

TEST(Compression, ZstdNoHeaderSizeDeclaredTooSmall) {
    const Bytes f = ZstdRawFrame("hello", false);
    const FormatError e = Thrown([&] { DecompressZstdFrame(f.data(), f.size(), 4, "T", 8); });
    EXPECT_EQ(e.offset(), 8u);
    EXPECT_EQ(e.message(), "zstd frame decompresses to more than the 4 bytes declared");
}

TEST(Compression, ZstdTruncated) {
    const Bytes in = Pattern(5000);
    Bytes c = CompressZstdFrame(in.data(), in.size());
    c.pop_back();
    const FormatError e = Thrown([&] { DecompressZstdFrame(c.data(), c.size(), in.size(), "T", 30); });
    EXPECT_EQ(e.offset(), 30u);
    EXPECT_TRUE(Contains(e.message(), "truncated or corrupt zstd frame")) << e.message();
    const Bytes header = {0x28, 0xB5, 0x2F, 0xFD, 0x20};
    EXPECT_EQ(Thrown([&] { DecompressZstdFrame(header.data(), header.size(), 5, "T", 30); }).message(),
              "truncated or invalid zstd frame header");
}

TEST(Compression, ZstdTrailingBytes) {
    Bytes f = ZstdRawFrame("hello", true);
    f.push_back(0);
    f.push_back(0);
    const FormatError e = Thrown([&] { DecompressZstdFrame(f.data(), f.size(), 5, "T", 1000); });
    EXPECT_EQ(e.offset(), 1014u) << "reported where the frame ends";
    EXPECT_EQ(e.message(), "2 bytes follow the zstd frame");
}

TEST(Compression, ZstdTwoFramesRejected) {
    Bytes f = ZstdRawFrame("abc", true);
    const Bytes g = ZstdRawFrame("de", true);
    f.insert(f.end(), g.begin(), g.end());
    EXPECT_THROW(DecompressZstdFrame(f.data(), f.size(), 5, "T"), FormatError);
}

TEST(Compression, ZstdCorruptBlockType) {
    const Bytes f = ZstdRawFrame("hello", true, 3); // block type 3 is reserved
    const FormatError e = Thrown([&] { DecompressZstdFrame(f.data(), f.size(), 5, "T", 2); });
    EXPECT_EQ(e.offset(), 2u);
    EXPECT_TRUE(Contains(e.message(), "zstd")) << e.message();
}

TEST(Compression, ZstdBadMagic) {
    Bytes f = ZstdRawFrame("hello", true);
    f[0] = 0x29;
    const FormatError e = Thrown([&] { DecompressZstdFrame(f.data(), f.size(), 5, "T", 77); });
    EXPECT_EQ(e.offset(), 77u);
    EXPECT_EQ(e.message(), "not a zstd frame (expected the magic 28 B5 2F FD)");
    EXPECT_THROW(DecompressZstdFrame(nullptr, 0, 0, "T"), FormatError);
}

TEST(Compression, ZstdOverCeilingRefusedBeforeAllocating) {
    const Bytes f = ZstdRawFrame("hello", false);
    const FormatError e = Thrown([&] { DecompressZstdFrame(f.data(), f.size(), std::uint64_t(1) << 62, "T", 5); });
    EXPECT_EQ(e.offset(), 5u);
    EXPECT_TRUE(Contains(e.message(), "over the limit of 65536"));
    // A real 2 MiB frame of 64 bytes: within the format, over a 1 MiB ceiling.
    const Bytes in(2 * MiB, 0);
    const Bytes c = CompressZstdFrame(in.data(), in.size());
    DecompressionLimits l;
    l.maxOutput = MiB;
    EXPECT_THROW(DecompressZstdFrame(c.data(), c.size(), in.size(), "T", 0, l), FormatError);
}

TEST(Compression, ZstdLevelOutOfRange) {
    const Bytes in = Str("abc");
    const FormatError e = Thrown([&] { CompressZstdFrame(in.data(), in.size(), 1000, "Fmt"); });
    EXPECT_EQ(e.format(), "Fmt");
    EXPECT_FALSE(e.hasOffset());
}

// ---------------------------------------------------------------- zlib

TEST(Compression, ZlibKnownStoredBlock) {
    EXPECT_EQ(InflateZlib(kStoredHello.data(), kStoredHello.size(), 5, "T"), Str("hello"));
    EXPECT_EQ(InflateZlibUnknownSize(kStoredHello.data(), kStoredHello.size(), "T"), Str("hello"));
}

TEST(Compression, ZlibKnownEmptyStreams) {
    EXPECT_EQ(DeflateZlib(nullptr, 0, 9), (Bytes{0x78, 0xDA, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01}));
    EXPECT_EQ(DeflateZlib(nullptr, 0), (Bytes{0x78, 0x9C, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01}));
    EXPECT_EQ(DeflateZlib(nullptr, 0, 0), (Bytes{0x78, 0x01, 0x01, 0x00, 0x00, 0xFF, 0xFF, 0x00, 0x00, 0x00, 0x01}));
    const Bytes e = DeflateZlib(nullptr, 0, 9);
    EXPECT_EQ(InflateZlib(e.data(), e.size(), 0, "T"), Bytes{});
    EXPECT_EQ(InflateZlibUnknownSize(e.data(), e.size(), "T"), Bytes{});
}

TEST(Compression, ZlibMatchesCompress2) {
    for (const Bytes &in : {Pattern(200000), Text(100000), Noise(30000, 11), Str("hello")})
        for (int level : {-1, 0, 1, 6, 9}) EXPECT_EQ(DeflateZlib(in.data(), in.size(), level), Compress2(in, level));
}

TEST(Compression, ZlibRoundTrip) {
    for (const Bytes &in : {Pattern(200000), Text(100000), Noise(30000, 5), Str("q")}) {
        const Bytes c = DeflateZlib(in.data(), in.size(), 9);
        EXPECT_EQ(c[0], 0x78);
        EXPECT_EQ(c[1], 0xDA);
        EXPECT_EQ(InflateZlib(c.data(), c.size(), in.size(), "T"), in);
        EXPECT_EQ(InflateZlibUnknownSize(c.data(), c.size(), "T"), in);
    }
}

TEST(Compression, ZlibTrailingBytesAreAnErrorUnlessTheCallerAsksWhereTheStreamEnds) {
    Bytes padded = kStoredHello;
    padded.insert(padded.end(), {0xAA, 0xBB, 0xCC});
    try {
        InflateZlibUnknownSize(padded.data(), padded.size(), "T", 100);
        ADD_FAILURE() << "trailing bytes accepted";
    } catch (const FormatError &e) {
        EXPECT_EQ(e.offset(), 100 + kStoredHello.size());
        EXPECT_NE(e.message().find("3 bytes follow the end of the zlib stream"), std::string::npos) << e.message();
    }
    std::size_t streamEnd = 0;
    EXPECT_EQ(InflateZlibUnknownSize(padded.data(), padded.size(), "T", 100, {}, &streamEnd), Str("hello"));
    EXPECT_EQ(streamEnd, kStoredHello.size());
    streamEnd = 0;
    EXPECT_EQ(InflateZlibUnknownSize(kStoredHello.data(), kStoredHello.size(), "T", 0, {}, &streamEnd), Str("hello"));
    EXPECT_EQ(streamEnd, kStoredHello.size());
    // A cut stream is still an error with the out-parameter.
    EXPECT_THROW(InflateZlibUnknownSize(kStoredHello.data(), kStoredHello.size() - 1, "T", 0, {}, &streamEnd),
                 FormatError);
}

TEST(Compression, ZlibUnknownSizeGrowsManyTimes) {
    const Bytes in = Pattern(3 * MiB); // compresses ~1000:1, so the 4 KiB first guess doubles ~10 times
    const Bytes c = DeflateZlib(in.data(), in.size(), 9);
    ASSERT_LT(c.size() * 64, in.size());
    EXPECT_EQ(InflateZlibUnknownSize(c.data(), c.size(), "T"), in);
}

TEST(Compression, ZlibUnknownSizeEndsExactlyAtBufferEnd) {
    // 4096 bytes: exactly the first buffer, so the end of the stream is found with the buffer full.
    const Bytes in = Pattern(4096);
    const Bytes c = DeflateZlib(in.data(), in.size(), 9);
    ASSERT_LE(c.size() * 4, 4096u);
    EXPECT_EQ(InflateZlibUnknownSize(c.data(), c.size(), "T"), in);
}

TEST(Compression, ZlibUnknownSizeExactlyAtCeiling) {
    const Bytes in(100000, 7);
    const Bytes c = DeflateZlib(in.data(), in.size(), 9);
    DecompressionLimits l;
    l.maxOutput = 100000;
    EXPECT_EQ(InflateZlibUnknownSize(c.data(), c.size(), "T", 0, l), in);
    l.maxOutput = 99999;
    const FormatError e = Thrown([&] { InflateZlibUnknownSize(c.data(), c.size(), "T", 64, l); });
    EXPECT_EQ(e.offset(), 64u);
    EXPECT_EQ(e.message(), "zlib data inflates to more than the limit of 99999 bytes for " + std::to_string(c.size()) +
                               " compressed bytes");
}

TEST(Compression, ZlibBomb) {
    const Bytes zeros(10 * 1000 * 1000, 0);
    const Bytes bomb = DeflateZlib(zeros.data(), zeros.size(), 9);
    ASSERT_LT(bomb.size(), 20000u);
    DecompressionLimits l;
    l.maxOutput = MiB;
    const FormatError e = Thrown([&] { InflateZlibUnknownSize(bomb.data(), bomb.size(), "Second Life mesh", 500, l); });
    EXPECT_EQ(e.format(), "Second Life mesh");
    EXPECT_EQ(e.offset(), 500u);
    EXPECT_TRUE(Contains(e.message(), "more than the limit of 1048576 bytes")) << e.message();
    // The declared-size variant refuses the same bomb before inflating anything.
    EXPECT_THROW(InflateZlib(bomb.data(), bomb.size(), zeros.size(), "T", 0, l), FormatError);
}

TEST(Compression, ZlibBombByRatio) {
    const Bytes zeros(MiB, 0);
    const Bytes bomb = DeflateZlib(zeros.data(), zeros.size(), 9);
    DecompressionLimits l;
    l.maxRatio = 100; // ceiling max(100 * ~1 KiB, 64 KiB), far below 1 MiB
    const FormatError e = Thrown([&] { InflateZlibUnknownSize(bomb.data(), bomb.size(), "T", 0, l); });
    EXPECT_TRUE(
        Contains(e.message(), "more than the limit of " + std::to_string(DecompressionCeiling(bomb.size(), l))));
    EXPECT_EQ(InflateZlibUnknownSize(bomb.data(), bomb.size(), "T"), zeros) << "fine with the default ratio";
}

TEST(Compression, ZlibDeclaredTooLarge) {
    const FormatError e = Thrown([&] { InflateZlib(kStoredHello.data(), kStoredHello.size(), 6, "T", 10); });
    EXPECT_EQ(e.offset(), 10u);
    EXPECT_EQ(e.message(), "zlib stream decompressed to 5 bytes, but 6 were declared");
}

TEST(Compression, ZlibDeclaredTooSmall) {
    const FormatError e = Thrown([&] { InflateZlib(kStoredHello.data(), kStoredHello.size(), 4, "T", 10); });
    EXPECT_EQ(e.offset(), 10u);
    EXPECT_EQ(e.message(), "zlib data decompresses to more than the 4 bytes declared");
    EXPECT_THROW(InflateZlib(kStoredHello.data(), kStoredHello.size(), 0, "T"), FormatError);
}

TEST(Compression, ZlibTruncated) {
    const Bytes in = Pattern(20000);
    const Bytes c = DeflateZlib(in.data(), in.size(), 9);
    for (std::size_t cut : {std::size_t(1), std::size_t(4), c.size() / 2, c.size() - 1}) {
        SCOPED_TRACE(cut);
        const Bytes t(c.begin(), c.begin() + static_cast<std::ptrdiff_t>(cut));
        const FormatError e = Thrown([&] { InflateZlib(t.data(), t.size(), in.size(), "T", 100); });
        EXPECT_EQ(e.offset(), 100 + cut) << "reported at the end of the data";
        EXPECT_EQ(e.message(), "zlib stream is truncated (it ends before its final block and checksum)");
        EXPECT_THROW(InflateZlibUnknownSize(t.data(), t.size(), "T"), FormatError);
    }
    EXPECT_THROW(InflateZlib(nullptr, 0, 0, "T"), FormatError);
    EXPECT_THROW(InflateZlibUnknownSize(nullptr, 0, "T"), FormatError);
}

TEST(Compression, ZlibBadChecksum) {
    Bytes c = kStoredHello;
    c.back() ^= 1;
    const FormatError e = Thrown([&] { InflateZlib(c.data(), c.size(), 5, "T", 200); });
    EXPECT_EQ(e.message(), "corrupt zlib data (zlib: incorrect data check)");
    EXPECT_EQ(e.offset(), 200 + c.size()) << "the checksum is checked once all of it is read";
    EXPECT_THROW(InflateZlibUnknownSize(c.data(), c.size(), "T"), FormatError);
}

TEST(Compression, ZlibBadHeader) {
    Bytes c = kStoredHello;
    c[1] = 0x02; // FCHECK wrong
    const FormatError e = Thrown([&] { InflateZlib(c.data(), c.size(), 5, "T", 200); });
    EXPECT_EQ(e.message(), "corrupt zlib data (zlib: incorrect header check)");
    EXPECT_EQ(e.offset(), 202u);
    const Bytes gzip = {0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03};
    EXPECT_THROW(InflateZlibUnknownSize(gzip.data(), gzip.size(), "T"), FormatError) << "gzip is not zlib";
}

TEST(Compression, ZlibCorruptStoredLength) {
    Bytes c = kStoredHello;
    c[5] = 0x00; // NLEN no longer the complement of LEN
    const FormatError e = Thrown([&] { InflateZlib(c.data(), c.size(), 5, "T"); });
    EXPECT_EQ(e.message(), "corrupt zlib data (zlib: invalid stored block lengths)");
    EXPECT_EQ(e.offset(), 7u);
}

TEST(Compression, ZlibPresetDictionaryRefused) {
    const Bytes c = {0x78, 0xBB, 0x00, 0x00, 0x00, 0x01, 0x03, 0x00};
    const FormatError e = Thrown([&] { InflateZlib(c.data(), c.size(), 0, "T"); });
    EXPECT_EQ(e.message(), "zlib stream needs a preset dictionary");
}

TEST(Compression, ZlibTrailingBytes) {
    Bytes c = kStoredHello;
    c.push_back(0xAA);
    const FormatError e = Thrown([&] { InflateZlib(c.data(), c.size(), 5, "T", 1000); });
    EXPECT_EQ(e.offset(), 1016u);
    EXPECT_EQ(e.message(), "1 bytes follow the end of the zlib stream");
    EXPECT_THROW(InflateZlibUnknownSize(c.data(), c.size(), "T"), FormatError);
}

TEST(Compression, ZlibOverCeilingRefusedBeforeAllocating) {
    const FormatError e =
        Thrown([&] { InflateZlib(kStoredHello.data(), kStoredHello.size(), std::uint64_t(1) << 62, "T", 9); });
    EXPECT_EQ(e.offset(), 9u);
    EXPECT_EQ(e.message(),
              "zlib stream of 16 bytes declares 4611686018427387904 decompressed bytes, over the limit of 65536");
    EXPECT_THROW(InflateZlib(kStoredHello.data(), kStoredHello.size(), 65537, "T"), FormatError);
}

TEST(Compression, ZlibLevelOutOfRange) {
    const Bytes in = Str("abc");
    EXPECT_THROW(DeflateZlib(in.data(), in.size(), 10), FormatError);
    EXPECT_THROW(DeflateZlib(in.data(), in.size(), -2), FormatError);
    const FormatError e = Thrown([&] { DeflateZlib(in.data(), in.size(), 10, "Fmt"); });
    EXPECT_EQ(e.format(), "Fmt");
    EXPECT_EQ(e.message(), "zlib level 10 is outside -1 to 9");
}
