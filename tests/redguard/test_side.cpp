// Redguard side codecs (docs/formats/redguard-3d.md §9-§11, §14, §16, §18): TEXBSI banks, COL palettes, ROB framing and
// the PNG encoder. Hand-typed bytes check the readers independently of the fixture generators; the
// generators' own layout is checked byte by byte; hostile inputs must fail cleanly (run under ASan).
#include "importers/redguard/rob.hpp"
#include "importers/redguard/texbsi.hpp"

#include "common/error.hpp"
#include "common/png.hpp"
#include "fixtures/bytes.hpp"
#include "fixtures/redguard_fixtures.hpp"
#include "support/expect_error.hpp"

#include <gtest/gtest.h>
#include <png.h>

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <stdexcept>
#include <string>
#include <vector>

namespace {

using gamefmt::fixtures::Hex;

using gamefmt::FormatError;
using namespace gamefmt::test;
using Bytes = std::vector<std::uint8_t>;
namespace rg = gamefmt::fixtures::rg;
namespace red = gamefmt::redguard;

red::TexBank Bank(const Bytes &b) {
    return red::ReadTexBsi(b.data(), b.size());
}
red::RobArchive Rob(const Bytes &b) {
    return red::ReadRob(b.data(), b.size());
}

std::uint32_t U32le(const Bytes &b, std::size_t at) {
    return static_cast<std::uint32_t>(b[at]) | static_cast<std::uint32_t>(b[at + 1]) << 8 |
           static_cast<std::uint32_t>(b[at + 2]) << 16 | static_cast<std::uint32_t>(b[at + 3]) << 24;
}
// Checked: a test that patches past the end fails loudly (and GCC 16 no longer sees a possible write out of bounds,
// which it reported as -Wstringop-overflow).
void SetU32le(Bytes &b, std::size_t at, std::uint32_t v) {
    if (at > b.size() || b.size() - at < 4) throw std::out_of_range("SetU32le past the end of the test bytes");
    for (int i = 0; i < 4; ++i) b[at + static_cast<std::size_t>(i)] = static_cast<std::uint8_t>(v >> (8 * i));
}

bool AnyContains(const std::vector<std::string> &warnings, const std::string &needle) {
    for (const std::string &w : warnings)
        if (Contains(w, needle)) return true;
    return false;
}

// The pattern GenerateTexBsi uses when no pixels are given.
std::uint8_t Pattern(int x, int y, int w, int f) {
    return static_cast<std::uint8_t>((x + y * w + f) & 0xFF);
}

// A hand-typed 2x2 static record "D76019": BSIF, BHDR, DATA (indices 0 1 / 2 3), END.
const char *const kStatic2x2 = "\"D76019\" 00 00 00" // name[9]
                               "3e 00 00 00"         // record size 62 = 8 + 34 + 12 + 8
                               "\"BSIF\" 00 00 00 00"
                               "\"BHDR\" 00 00 00 1a" // 26, big-endian
                               "  fe ff 03 00 02 00 02 00 00 07 00 00 00 00 01 00 00 00 00 00 00 00 80 00 00 00"
                               "\"DATA\" 00 00 00 04  00 01 02 03"
                               "\"END \" 00 00 00 00";

// ================================================================ TEXBSI

TEST(RgTexBsi, HandTypedStaticRecord) {
    const Bytes b = Hex(std::string(kStatic2x2) + "00 00 00 00 00 00 00 00 00");
    const red::TexBank bank = Bank(b);
    ASSERT_EQ(bank.images.size(), 1u);
    const red::TexImage &im = bank.images[0];
    EXPECT_EQ(im.name, "D76019");
    EXPECT_EQ(im.xOffset, -2);
    EXPECT_EQ(im.yOffset, 3);
    EXPECT_EQ(im.width, 2);
    EXPECT_EQ(im.height, 2);
    EXPECT_EQ(im.hasCmap, 0);
    EXPECT_EQ(im.exportFlags, 7);
    EXPECT_EQ(im.frameCount, 1);
    EXPECT_EQ(im.delayMs, 0);
    EXPECT_EQ(im.texScale, 0x80);
    EXPECT_EQ(im.encoding, 0);
    EXPECT_FALSE(im.animated);
    EXPECT_FALSE(im.cmap.has_value());
    EXPECT_EQ(im.pixels, (Bytes{0, 1, 2, 3}));
    EXPECT_TRUE(bank.warnings.empty());
}

TEST(RgTexBsi, GeneratorStaticLayoutBytes) {
    const Bytes b = rg::GenerateTexBsi({rg::GenImage{"D76019", 4, 3, 1, {}, false, {}}});
    // name 9 + size 4 + BSIF 8 + BHDR 34 + DATA 8+12 + END 8 + terminator 9
    ASSERT_EQ(b.size(), 9u + 4 + 8 + 34 + 20 + 8 + 9);
    EXPECT_EQ(std::string(b.begin(), b.begin() + 6), "D76019");
    EXPECT_EQ(U32le(b, 9), 8u + 34 + 20 + 8);
    EXPECT_EQ(Bytes(b.begin() + 13, b.begin() + 21), Hex("\"BSIF\" 00 00 00 00"));
    EXPECT_EQ(Bytes(b.begin() + 21, b.begin() + 29), Hex("\"BHDR\" 00 00 00 1a"));
    EXPECT_EQ(Bytes(b.begin() + 55, b.begin() + 63), Hex("\"DATA\" 00 00 00 0c"));
    EXPECT_EQ(Bytes(b.begin() + 75, b.begin() + 83), Hex("\"END \" 00 00 00 00"));
    EXPECT_EQ(Bytes(b.end() - 9, b.end()), Bytes(9, 0));
}

TEST(RgTexBsi, StaticImage) {
    const red::TexBank bank = Bank(rg::GenerateTexBsi({rg::GenImage{"D76019", 4, 3, 1, {}, false, {}}}));
    ASSERT_EQ(bank.images.size(), 1u);
    const red::TexImage &im = bank.images[0];
    EXPECT_EQ(im.name, "D76019");
    EXPECT_EQ(im.width, 4);
    EXPECT_EQ(im.height, 3);
    EXPECT_EQ(im.frameCount, 1);
    EXPECT_EQ(im.texScale, 0x0100);
    EXPECT_FALSE(im.animated);
    EXPECT_FALSE(im.cmap.has_value());
    ASSERT_EQ(im.pixels.size(), 12u);
    for (int y = 0; y < 3; ++y)
        for (int x = 0; x < 4; ++x) EXPECT_EQ(im.pixels[static_cast<std::size_t>(y * 4 + x)], Pattern(x, y, 4, 0));
    EXPECT_TRUE(bank.warnings.empty());
}

TEST(RgTexBsi, AnimatedWithSharedRowsAndCmap) {
    const Bytes b = rg::GenerateTexBsi({rg::GenImage{"A01002", 5, 3, 4, {}, true, {}}});
    const red::TexBank bank = Bank(b);
    ASSERT_EQ(bank.images.size(), 1u);
    const red::TexImage &im = bank.images[0];
    EXPECT_TRUE(im.animated);
    EXPECT_EQ(im.frameCount, 4);
    EXPECT_EQ(im.encoding, 4);
    EXPECT_EQ(im.hasCmap, 1);
    EXPECT_EQ(im.delayMs, 83);
    ASSERT_TRUE(im.cmap.has_value());
    for (int i = 0; i < 256; ++i) {
        EXPECT_EQ((*im.cmap)[static_cast<std::size_t>(3 * i)], 255 - i);
        EXPECT_EQ((*im.cmap)[static_cast<std::size_t>(3 * i + 1)], i);
        EXPECT_EQ((*im.cmap)[static_cast<std::size_t>(3 * i + 2)], (i * 5) & 0xFF);
    }
    ASSERT_EQ(im.pixels.size(), 15u);
    for (int y = 0; y < 3; ++y)
        for (int x = 0; x < 5; ++x) EXPECT_EQ(im.pixels[static_cast<std::size_t>(y * 5 + x)], Pattern(x, y, 5, 0));
    // Shared: the DATA holds a 48-byte table and only 3 rows (stored last row first).
    const std::size_t data = 13 + 52 + 34 + 776;
    EXPECT_EQ(Bytes(b.begin() + static_cast<std::ptrdiff_t>(data), b.begin() + static_cast<std::ptrdiff_t>(data + 8)),
              Hex("\"DATA\" 00 00 00 3f")); // 4*3*4 + 3*5 = 63
    EXPECT_TRUE(bank.warnings.empty());
}

TEST(RgTexBsi, AnimatedUnsharedTakesFrameZero) {
    Bytes pixels;
    for (int f = 0; f < 3; ++f)
        for (int i = 0; i < 6; ++i) pixels.push_back(static_cast<std::uint8_t>(100 * f + i + 1));
    const red::TexBank bank = Bank(rg::GenerateTexBsi({rg::GenImage{"B02003", 3, 2, 3, pixels, false, {}}}));
    ASSERT_EQ(bank.images.size(), 1u);
    EXPECT_TRUE(bank.images[0].animated);
    EXPECT_EQ(bank.images[0].pixels, (Bytes{1, 2, 3, 4, 5, 6}));
}

TEST(RgTexBsi, HandTypedRowTableSharingRowsWithinAFrame) {
    // IFHD, BHDR 2x3 frame_count 1, DATA: table (12 bytes) rows 0 and 2 share the bytes at 12, row 1 at 14.
    std::string ifhd = "\"IFHD\" 00 00 00 2c 01";
    for (int i = 0; i < 43; ++i) ifhd += " 00";
    const Bytes body = Hex(ifhd + "\"BHDR\" 00 00 00 1a"
                                  " 00 00 00 00 02 00 03 00 00 00 00 00 00 00 01 00 00 00 00 00 00 00 00 01 04 00"
                                  "\"DATA\" 00 00 00 10  0c 00 00 00 0e 00 00 00 0c 00 00 00  07 08 09 0a"
                                  "\"END \" 00 00 00 00");
    Bytes b = Hex("\"X00001\" 00 00 00");
    const std::uint32_t size = static_cast<std::uint32_t>(body.size());
    b.insert(b.end(), {static_cast<std::uint8_t>(size), static_cast<std::uint8_t>(size >> 8), 0, 0});
    b.insert(b.end(), body.begin(), body.end());
    const red::TexBank bank = Bank(b); // EOF, no terminator
    ASSERT_EQ(bank.images.size(), 1u);
    EXPECT_TRUE(bank.images[0].animated); // IFHD even with frame_count 1
    EXPECT_FALSE(bank.images[0].cmap.has_value());
    EXPECT_EQ(bank.images[0].pixels, (Bytes{7, 8, 9, 10, 7, 8}));
}

TEST(RgTexBsi, TerminatorAndEofEndTheBank) {
    const std::vector<rg::GenImage> images = {rg::GenImage{"D76000", 2, 2, 1, {}, false, {}},
                                              rg::GenImage{"D76001", 3, 1, 1, {}, false, {}}};
    const Bytes withTerminator = rg::GenerateTexBsi(images, true);
    const Bytes withoutTerminator = rg::GenerateTexBsi(images, false);
    EXPECT_EQ(withTerminator.size(), withoutTerminator.size() + 9);
    Bytes junkAfter = withTerminator;
    junkAfter.insert(junkAfter.end(), {'J', 'U', 'N', 'K'}); // never read: the terminator ends the bank
    for (const Bytes *b : std::initializer_list<const Bytes *>{&withTerminator, &withoutTerminator, &junkAfter}) {
        const red::TexBank bank = Bank(*b);
        ASSERT_EQ(bank.images.size(), 2u);
        EXPECT_EQ(bank.images[0].name, "D76000");
        EXPECT_EQ(bank.images[1].name, "D76001");
        EXPECT_EQ(bank.images[1].width, 3);
        EXPECT_TRUE(bank.warnings.empty());
    }
    EXPECT_TRUE(Bank(Bytes{}).images.empty());
    EXPECT_TRUE(Bank(Bytes(9, 0)).images.empty());
}

TEST(RgTexBsi, NamesWithGapsLookupByNameThenOrdinal) {
    const red::TexBank bank = Bank(rg::GenerateTexBsi({rg::GenImage{"D76000", 1, 1, 1, {}, false, {}},
                                                       rg::GenImage{"D76005", 1, 1, 1, {}, false, {}},
                                                       rg::GenImage{"D76019", 2, 1, 1, {}, false, {}}}));
    ASSERT_EQ(bank.images.size(), 3u);
    bool byOrdinal = true;
    const red::TexImage *im = red::FindTexImage(bank, 19, &byOrdinal);
    ASSERT_NE(im, nullptr);
    EXPECT_EQ(im->name, "D76019");
    EXPECT_FALSE(byOrdinal);
    im = red::FindTexImage(bank, 5, &byOrdinal);
    ASSERT_NE(im, nullptr);
    EXPECT_EQ(im->name, "D76005");
    EXPECT_FALSE(byOrdinal);
    // No name ends in 001: the second record, flagged.
    im = red::FindTexImage(bank, 1, &byOrdinal);
    ASSERT_NE(im, nullptr);
    EXPECT_EQ(im->name, "D76005");
    EXPECT_TRUE(byOrdinal);
    EXPECT_EQ(red::FindTexImage(bank, 7, &byOrdinal), nullptr);
    EXPECT_EQ(red::FindTexImage(bank, 3), nullptr);
    EXPECT_EQ(red::FindTexImage(bank, 0)->name, "D76000");
}

TEST(RgTexBsi, UnknownSubrecordAndMissingEndWarn) {
    // An unknown "XTRA" subrecord before END: skipped with a warning.
    Bytes b = Hex(kStatic2x2);
    const Bytes extra = Hex("\"XTRA\" 00 00 00 02 aa bb");
    b.insert(b.end() - 8, extra.begin(), extra.end());
    SetU32le(b, 9, U32le(b, 9) + static_cast<std::uint32_t>(extra.size()));
    red::TexBank bank = Bank(b);
    ASSERT_EQ(bank.images.size(), 1u);
    EXPECT_EQ(bank.images[0].pixels, (Bytes{0, 1, 2, 3}));
    EXPECT_TRUE(AnyContains(bank.warnings, "XTRA"));

    // No END: the record ends after DATA.
    Bytes noEnd = Hex(kStatic2x2);
    noEnd.resize(noEnd.size() - 8);
    SetU32le(noEnd, 9, U32le(noEnd, 9) - 8);
    bank = Bank(noEnd);
    ASSERT_EQ(bank.images.size(), 1u);
    EXPECT_TRUE(AnyContains(bank.warnings, "END"));
}

TEST(RgTexBsi, EndOutsideTheRecordSizeIsSteppedOver) {
    Bytes b = Hex(kStatic2x2);
    SetU32le(b, 9, U32le(b, 9) - 8); // the size stops after DATA; END + 4 zeros follow
    const Bytes second = rg::GenerateTexBsi({rg::GenImage{"D76020", 1, 1, 1, {9}, false, {}}});
    b.insert(b.end(), second.begin(), second.end());
    const red::TexBank bank = Bank(b);
    ASSERT_EQ(bank.images.size(), 2u);
    EXPECT_EQ(bank.images[0].pixels, (Bytes{0, 1, 2, 3}));
    EXPECT_EQ(bank.images[1].name, "D76020");
    EXPECT_EQ(bank.images[1].pixels, Bytes{9});
    ASSERT_EQ(bank.warnings.size(), 1u);
    EXPECT_TRUE(Contains(bank.warnings[0], "outside"));
}

TEST(RgTexBsi, BadRecordsThrow) {
    const Bytes good = Hex(kStatic2x2);
    // Checked like SetU32le (GCC 16 at -O2 saw a possible write past an empty vector here).
    const auto patched = [&good](std::size_t at, std::initializer_list<std::uint8_t> bytes) {
        Bytes b = good;
        if (at > b.size() || b.size() - at < bytes.size()) throw std::out_of_range("patch past the end of the bytes");
        std::copy(bytes.begin(), bytes.end(), b.begin() + static_cast<std::ptrdiff_t>(at));
        return b;
    };
    const std::size_t bhdr = 13 + 8 + 8; // BHDR payload
    // width 0, width 4097, height -1, frame count 0 and 65
    for (const Bytes &b : {patched(bhdr + 4, {0, 0}), patched(bhdr + 4, {0x01, 0x10}), patched(bhdr + 6, {0xff, 0xff}),
                           patched(bhdr + 14, {0, 0}), patched(bhdr + 14, {65, 0})}) {
        const FormatError e = Thrown([&b] { Bank(b); });
        EXPECT_EQ(e.format(), "Redguard 3D");
        EXPECT_TRUE(e.hasOffset());
    }
    // 3x2 needs 6 bytes, DATA has 4.
    EXPECT_TRUE(Contains(Thrown([&] { Bank(patched(bhdr + 4, {3, 0})); }).message(), "DATA"));
    // Record size past EOF; subrecord size past the record.
    EXPECT_EQ(Thrown([&] { Bank(patched(9, {0x3f})); }).offset(), 0u);
    EXPECT_TRUE(Thrown([&] { Bank(patched(13 + 8 + 4, {0x00, 0x00, 0x01, 0x1a})); }).hasOffset());
    // The BHDR size written little-endian (1a 00 00 00) reads as 0x1a000000: past the record.
    EXPECT_THROW(Bank(patched(13 + 8 + 4, {0x1a, 0x00, 0x00, 0x00})), FormatError);
    // BHDR too short; no BHDR at all (renamed); no DATA (renamed).
    EXPECT_THROW(Bank(patched(13 + 8 + 7, {0x10})), FormatError);
    EXPECT_THROW(Bank(patched(13 + 8, {'Q'})), FormatError);
    EXPECT_THROW(Bank(patched(13 + 8 + 34, {'Q'})), FormatError);
    // Fewer than 13 bytes for a record header.
    EXPECT_THROW(Bank(Hex("\"D7\" 00 00")), FormatError);
}

TEST(RgTexBsi, RowOffsetOutOfRangeThrows) {
    Bytes b = rg::GenerateTexBsi({rg::GenImage{"A01002", 4, 2, 2, {}, false, {}}}, false);
    // The table follows "DATA" + size: entry 3 (frame 1, row 1) points past the block.
    const std::size_t table = 13 + 52 + 34 + 776 + 8;
    SetU32le(b, table + 12, 0x1000);
    const FormatError e = Thrown([&b] { Bank(b); });
    EXPECT_EQ(e.offset(), table + 12);
    SetU32le(b, table + 12, 0xFFFFFFFFu);
    EXPECT_THROW(Bank(b), FormatError);
}

// ================================================================ palettes and RGBA

TEST(RgPalette, WithMagic) {
    const Bytes b = rg::GeneratePalette();
    ASSERT_EQ(b.size(), 776u);
    EXPECT_EQ(Bytes(b.begin(), b.begin() + 8), Hex("08 03 00 00 23 b1 00 00"));
    std::vector<std::string> warnings;
    const red::Palette p = red::ReadPalette(b.data(), b.size(), &warnings);
    EXPECT_TRUE(warnings.empty());
    EXPECT_EQ(p.rgb[0], 0);
    EXPECT_EQ(p.rgb[1], 0);
    EXPECT_EQ(p.rgb[2], 0);
    for (int i = 1; i < 256; ++i) {
        EXPECT_EQ(p.rgb[static_cast<std::size_t>(3 * i)], i);
        EXPECT_EQ(p.rgb[static_cast<std::size_t>(3 * i + 1)], 255 - i);
        EXPECT_EQ(p.rgb[static_cast<std::size_t>(3 * i + 2)], (i * 7) & 0xFF);
    }
}

TEST(RgPalette, ZeroedHeaderWarnsAndHeaderless768Reads) {
    const red::Palette reference = red::ReadPalette(rg::GeneratePalette().data(), 776);
    std::vector<std::string> warnings;
    const Bytes zeroed = rg::GeneratePalette(false);
    ASSERT_EQ(zeroed.size(), 776u);
    EXPECT_EQ(red::ReadPalette(zeroed.data(), zeroed.size(), &warnings).rgb, reference.rgb);
    EXPECT_EQ(warnings.size(), 1u);
    EXPECT_NO_THROW(red::ReadPalette(zeroed.data(), zeroed.size())); // warnings optional

    warnings.clear();
    const Bytes headerless = rg::GeneratePalette(true, true);
    ASSERT_EQ(headerless.size(), 768u);
    EXPECT_EQ(red::ReadPalette(headerless.data(), headerless.size(), &warnings).rgb, reference.rgb);
    EXPECT_TRUE(warnings.empty());
}

TEST(RgPalette, ShortIsAnError) {
    const Bytes b = rg::GeneratePalette();
    for (const std::size_t n : {std::size_t{0}, std::size_t{8}, std::size_t{767}, std::size_t{770}, std::size_t{775}}) {
        const FormatError e = Thrown([&] { red::ReadPalette(b.data(), n); });
        EXPECT_EQ(e.format(), "Redguard 3D");
    }
    EXPECT_THROW(red::ReadPalette(nullptr, 776), FormatError);
}

TEST(RgPalette, GreyRamp) {
    const red::Palette p = red::GreyRampPalette();
    for (int i = 0; i < 256; ++i)
        for (int c = 0; c < 3; ++c) EXPECT_EQ(p.rgb[static_cast<std::size_t>(3 * i + c)], i);
}

TEST(RgPalette, ImageToRgbaIndexZeroIsTransparent) {
    const red::TexBank bank = Bank(rg::GenerateTexBsi({rg::GenImage{"D76019", 16, 16, 1, {}, false, {}}}));
    const red::Palette pal = red::ReadPalette(rg::GeneratePalette().data(), 776);
    const Bytes rgba = red::ImageToRgba(bank.images[0], pal);
    ASSERT_EQ(rgba.size(), 16u * 16 * 4);
    for (std::size_t i = 0; i < 256; ++i) {
        const std::uint8_t index = bank.images[0].pixels[i];
        ASSERT_EQ(index, i); // the pattern covers every index once
        if (index == 0) {
            EXPECT_EQ(Bytes(rgba.begin(), rgba.begin() + 4), (Bytes{0, 0, 0, 0}));
        } else {
            EXPECT_EQ(rgba[4 * i + 0], pal.rgb[3 * index]);
            EXPECT_EQ(rgba[4 * i + 1], pal.rgb[3 * index + 1]);
            EXPECT_EQ(rgba[4 * i + 2], pal.rgb[3 * index + 2]);
            EXPECT_EQ(rgba[4 * i + 3], 255);
        }
    }
    // A hand-built image whose pixel vector is short never reads past it.
    red::TexImage broken;
    broken.width = 2;
    broken.height = 2;
    broken.pixels = {5};
    const Bytes out = red::ImageToRgba(broken, pal);
    ASSERT_EQ(out.size(), 16u);
    EXPECT_EQ(out[3], 255);
    EXPECT_EQ(out[7], 0);
}

// ================================================================ ROB

// The 198-byte v4.0 triangle of §14, typed in from the reference.
Bytes Triangle198() {
    std::string normals;
    for (int i = 0; i < 3; ++i) normals += " 00 00 00 00 00 00 00 00 00 00 80 3f";
    return Hex("76 34 2e 30 03 00 00 00 01 00 00 00 00 02 00 00"
               "01 00 00 00 92 00 00 00 03 00 00 00 00 00 00 00"
               "00 00 00 00 00 00 00 00 00 00 00 00 a2 00 00 00"
               "62 00 00 00 86 00 00 00 03 00 00 00 40 00 00 00"
               "03 00 31 cc 6f 50 00 00 00 00"
               "00 00 00 00 00 00 00 04"
               "01 00 00 00 00 02 00 fc"
               "02 00 00 00 00 02 00 04"
               "00 ff ff ff 00 00 00 00 00 00 00 00"
               "00 00 00 00 00 fe ff ff 00 00 00 00"
               "00 01 00 00 00 00 00 00 00 00 00 00"
               "00 00 00 00 00 00 00 00 00 01 00 00"
               "62 00 00 00 86 00 00 00 00 00 00 00 00 00 00 00" +
               normals);
}

TEST(RgRob, ByteExactAnchorOf14) {
    const Bytes model = Triangle198();
    ASSERT_EQ(model.size(), 198u);
    const Bytes b = rg::GenerateRob({rg::GenSegment{"TRI", 0, model}});
    ASSERT_EQ(b.size(), 302u);
    EXPECT_EQ(Bytes(b.begin(), b.begin() + 20), Hex("4f 41 52 43 00 00 00 04 01 00 00 00 4f 41 52 44 00 00 01 16"));
    Bytes seg(80, 0);
    SetU32le(seg, 0, 278);
    seg[4] = 'T';
    seg[5] = 'R';
    seg[6] = 'I';
    seg[0x13] = 1;          // num_faces mod 256
    seg[0x17] = 1;          // BE 1
    SetU32le(seg, 0x1C, 2); // extent (2, 2, 0)
    SetU32le(seg, 0x20, 2);
    SetU32le(seg, 0x34, 1); // pos (1, 0, 0)
    SetU32le(seg, 0x40, 1); // neg (1, 2, 0)
    SetU32le(seg, 0x44, 2);
    SetU32le(seg, 0x4C, 198);
    EXPECT_EQ(Bytes(b.begin() + 20, b.begin() + 100), seg);
    EXPECT_EQ(Bytes(b.begin() + 100, b.begin() + 298), model);
    EXPECT_EQ(Bytes(b.begin() + 298, b.end()), Hex("\"END \""));

    const red::RobArchive rob = Rob(b);
    ASSERT_EQ(rob.segments.size(), 1u);
    EXPECT_EQ(rob.segments[0].name, "TRI");
    EXPECT_EQ(rob.segments[0].type, 0);
    EXPECT_EQ(rob.segments[0].flags, 0);
    EXPECT_TRUE(rob.segments[0].embedded());
    EXPECT_EQ(rob.segments[0].payloadOffset, 100u);
    EXPECT_EQ(rob.segments[0].payloadSize, 198u);
    EXPECT_EQ(Bytes(rob.segments[0].header.begin(), rob.segments[0].header.end()), seg);
    EXPECT_EQ(Bytes(rob.header.begin(), rob.header.end()), Bytes(b.begin(), b.begin() + 20));
    EXPECT_TRUE(rob.hasEndMarker);
    EXPECT_TRUE(rob.warnings.empty());
}

TEST(RgRob, ModelEngineersTriangleRobAgrees) {
    const Bytes rob = rg::TriangleRob();
    ASSERT_EQ(rob.size(), 302u);
    EXPECT_EQ(rg::Triangle198V40(), Triangle198());
    EXPECT_EQ(rg::GenerateRob({rg::GenSegment{"TRI", 0, rg::Triangle198V40()}}), rob);
    const red::RobArchive archive = Rob(rob);
    ASSERT_EQ(archive.segments.size(), 1u);
    EXPECT_EQ(archive.segments[0].name, "TRI");
    EXPECT_EQ(archive.segments[0].type, 0);
    EXPECT_EQ(archive.segments[0].payloadOffset, 100u);
    EXPECT_EQ(archive.segments[0].payloadSize, 198u);
    EXPECT_EQ(Bytes(rob.begin() + 100, rob.begin() + 298), rg::Triangle198V40());
    EXPECT_TRUE(archive.hasEndMarker);
    EXPECT_TRUE(archive.warnings.empty());
}

TEST(RgRob, SegmentTypesAndEightCharName) {
    const Bytes model = Triangle198();
    const Bytes b = rg::GenerateRob({rg::GenSegment{"TRI", 0, model}, rg::GenSegment{"MENUITEM", 256, model, 0x8C00},
                                     rg::GenSegment{"XCHAR", 512, {}}, rg::GenSegment{"ODD", 0x1234, {1, 2, 3}}});
    const red::RobArchive rob = Rob(b);
    ASSERT_EQ(rob.segments.size(), 4u);
    EXPECT_EQ(rob.segments[0].name, "TRI");
    EXPECT_EQ(rob.segments[1].name, "MENUITEM"); // all 8 bytes, no NUL
    EXPECT_EQ(rob.segments[1].type, 256);
    EXPECT_EQ(rob.segments[1].flags, 0x8C00);
    EXPECT_TRUE(rob.segments[1].embedded());
    EXPECT_EQ(rob.segments[1].payloadOffset, 20u + 278 + 80);
    EXPECT_EQ(rob.segments[2].name, "XCHAR");
    EXPECT_EQ(rob.segments[2].type, 512);
    EXPECT_FALSE(rob.segments[2].embedded());
    EXPECT_EQ(rob.segments[2].payloadSize, 0u);
    EXPECT_EQ(rob.segments[3].type, 0x1234);
    EXPECT_FALSE(rob.segments[3].embedded());
    EXPECT_EQ(rob.segments[3].payloadSize, 3u);
    EXPECT_EQ(b[rob.segments[3].payloadOffset], 1);
    EXPECT_TRUE(rob.hasEndMarker);
    EXPECT_EQ(rob.warnings.size(), 1u); // the unknown type
    EXPECT_TRUE(AnyContains(rob.warnings, "4660"));
}

TEST(RgRob, MissingEndAndCountMismatchWarn) {
    const Bytes b = rg::GenerateRob({rg::GenSegment{"A", 0, Triangle198()}}, false);
    red::RobArchive rob = Rob(b);
    ASSERT_EQ(rob.segments.size(), 1u);
    EXPECT_FALSE(rob.hasEndMarker);
    EXPECT_TRUE(AnyContains(rob.warnings, "END"));

    Bytes counted = rg::GenerateRob({rg::GenSegment{"A", 512, {}}, rg::GenSegment{"B", 512, {}}});
    counted[8] = 5;
    rob = Rob(counted);
    EXPECT_EQ(rob.segments.size(), 2u);
    EXPECT_EQ(rob.warnings.size(), 1u);
    EXPECT_TRUE(AnyContains(rob.warnings, "5"));
}

TEST(RgRob, SegmentPastEofIsAFormatError) {
    const Bytes full = rg::GenerateRob({rg::GenSegment{"A", 512, {}}, rg::GenSegment{"TRI", 0, Triangle198()}});
    // Cut inside the second segment's payload: the error points at its header (20 + 80).
    Bytes cut(full.begin(), full.begin() + 100 + 80 + 50);
    FormatError e = Thrown([&cut] { Rob(cut); });
    EXPECT_EQ(e.format(), "Redguard 3D");
    EXPECT_EQ(e.offset(), 100u);
    // Cut inside its header.
    cut.assign(full.begin(), full.begin() + 100 + 40);
    e = Thrown([&cut] { Rob(cut); });
    EXPECT_EQ(e.offset(), 100u);
    // Both declared sizes too large.
    Bytes big = full;
    SetU32le(big, 100, 0x7FFFFFF0u);
    SetU32le(big, 100 + 0x4C, 0x7FFFFFF0u - 80);
    EXPECT_EQ(Thrown([&big] { Rob(big); }).offset(), 100u);
}

TEST(RgRob, TotalAndPayloadDisagreeWarnsAndTrustsTheOneThatFits) {
    const Bytes full = rg::GenerateRob({rg::GenSegment{"A", 0, Triangle198()}, rg::GenSegment{"B", 512, {}}});
    Bytes badTotal = full;
    SetU32le(badTotal, 20, 9999);
    red::RobArchive rob = Rob(badTotal);
    ASSERT_EQ(rob.segments.size(), 2u);
    EXPECT_EQ(rob.segments[0].payloadSize, 198u);
    EXPECT_EQ(rob.segments[1].name, "B");
    EXPECT_EQ(rob.warnings.size(), 1u);

    Bytes badPayload = full;
    SetU32le(badPayload, 20 + 0x4C, 4);
    rob = Rob(badPayload);
    ASSERT_EQ(rob.segments.size(), 2u);
    EXPECT_EQ(rob.segments[0].payloadSize, 198u);
    EXPECT_EQ(rob.segments[1].name, "B");
    EXPECT_EQ(rob.warnings.size(), 1u);
}

TEST(RgRob, BadSignatureAndShortHeader) {
    const Bytes b = rg::GenerateRob({});
    EXPECT_EQ(b.size(), 24u);
    const red::RobArchive rob = Rob(b);
    EXPECT_TRUE(rob.segments.empty());
    EXPECT_TRUE(rob.hasEndMarker);
    Bytes bad = b;
    bad[0] = 'X';
    EXPECT_EQ(Thrown([&bad] { Rob(bad); }).offset(), 0u);
    EXPECT_THROW(Rob(Bytes(b.begin(), b.begin() + 19)), FormatError);
    EXPECT_THROW(Rob(Bytes{}), FormatError);
    EXPECT_THROW(red::ReadRob(nullptr, 0), FormatError);
}

// ================================================================ hostile input

template <typename Read> void Torture(const Bytes &good, Read read) {
    for (std::size_t n = 0; n < good.size(); ++n) {
        const Bytes cut(good.begin(), good.begin() + static_cast<std::ptrdiff_t>(n));
        try {
            read(cut);
        } catch (const FormatError &e) {
            EXPECT_EQ(e.format(), "Redguard 3D");
        }
    }
    for (std::size_t i = 0; i < good.size(); ++i)
        for (const std::uint8_t mask : {std::uint8_t{0x01}, std::uint8_t{0x80}, std::uint8_t{0xFF}}) {
            Bytes flipped = good;
            flipped[i] ^= mask;
            try {
                read(flipped);
            } catch (const FormatError &e) {
                EXPECT_EQ(e.format(), "Redguard 3D");
            }
        }
}

TEST(RgTexBsi, HostileTruncationsAndFlipsNeverCrash) {
    const Bytes bank = rg::GenerateTexBsi(
        {rg::GenImage{"D76000", 3, 2, 1, {}, false, {}}, rg::GenImage{"A01002", 4, 2, 3, {}, true, {}}});
    const red::Palette pal = red::GreyRampPalette();
    Torture(bank, [&pal](const Bytes &b) {
        const red::TexBank parsed = Bank(b);
        for (const red::TexImage &im : parsed.images) {
            ASSERT_EQ(im.pixels.size(), static_cast<std::size_t>(im.width) * static_cast<std::size_t>(im.height));
            (void)red::ImageToRgba(im, pal);
        }
    });
}

TEST(RgRob, HostileTruncationsAndFlipsNeverCrash) {
    const Bytes rob = rg::GenerateRob(
        {rg::GenSegment{"TRI", 0, Triangle198()}, rg::GenSegment{"EXT", 512, {}}, rg::GenSegment{"U", 7, {9, 9}}});
    Torture(rob, [](const Bytes &b) {
        const red::RobArchive parsed = Rob(b);
        for (const red::RobSegment &s : parsed.segments) ASSERT_LE(s.payloadOffset + s.payloadSize, b.size());
    });
}

TEST(RgPalette, HostileSizesNeverCrash) {
    const Bytes b = rg::GeneratePalette();
    Torture(b, [](const Bytes &cut) {
        std::vector<std::string> warnings;
        (void)red::ReadPalette(cut.data(), cut.size(), &warnings);
    });
}

// ================================================================ PNG

struct Decoded {
    std::uint32_t width = 0, height = 0;
    Bytes rgba;
};

Decoded DecodePng(const Bytes &png) {
    png_image image;
    std::memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    Decoded out;
    if (!png_image_begin_read_from_memory(&image, png.data(), png.size())) {
        ADD_FAILURE() << "libpng rejects our PNG: " << image.message;
        return out;
    }
    image.format = PNG_FORMAT_RGBA;
    out.width = image.width;
    out.height = image.height;
    out.rgba.resize(PNG_IMAGE_SIZE(image));
    if (!png_image_finish_read(&image, nullptr, out.rgba.data(), 0, nullptr)) {
        ADD_FAILURE() << "libpng fails to decode our PNG: " << image.message;
        png_image_free(&image);
    }
    return out;
}

// The chunk types in order.
std::vector<std::string> Chunks(const Bytes &png) {
    std::vector<std::string> chunks;
    std::size_t at = 8;
    while (at + 8 <= png.size()) {
        const std::uint32_t length = static_cast<std::uint32_t>(png[at]) << 24 |
                                     static_cast<std::uint32_t>(png[at + 1]) << 16 |
                                     static_cast<std::uint32_t>(png[at + 2]) << 8 | png[at + 3];
        chunks.emplace_back(png.begin() + static_cast<std::ptrdiff_t>(at + 4),
                            png.begin() + static_cast<std::ptrdiff_t>(at + 8));
        at += 12 + static_cast<std::size_t>(length);
    }
    return chunks;
}

TEST(RgPng, EncodesEveryPixelExactly) {
    const std::uint32_t w = 7, h = 5;
    Bytes rgba(w * h * 4);
    for (std::size_t i = 0; i < rgba.size(); ++i) rgba[i] = static_cast<std::uint8_t>(i * 37 + 11);
    rgba[3] = 0; // a transparent pixel keeps its colour bytes in straight alpha
    const Bytes png = gamefmt::EncodePngRgba(rgba.data(), w, h);
    ASSERT_GE(png.size(), 8u);
    EXPECT_EQ(Bytes(png.begin(), png.begin() + 8), Hex("89 50 4e 47 0d 0a 1a 0a"));
    EXPECT_EQ(png[24], 8); // bit depth
    EXPECT_EQ(png[25], 6); // colour type RGBA
    const Decoded d = DecodePng(png);
    EXPECT_EQ(d.width, w);
    EXPECT_EQ(d.height, h);
    EXPECT_EQ(d.rgba, rgba);
}

TEST(RgPng, PaletteImageRoundTripsAndIsDeterministic) {
    const red::TexBank bank = Bank(rg::GenerateTexBsi({rg::GenImage{"D76019", 16, 16, 1, {}, false, {}}}));
    const red::Palette pal = red::ReadPalette(rg::GeneratePalette().data(), 776);
    const Bytes rgba = red::ImageToRgba(bank.images[0], pal);
    const Bytes png = gamefmt::EncodePngRgba(rgba.data(), 16, 16, "Redguard 3D");
    EXPECT_EQ(gamefmt::EncodePngRgba(rgba.data(), 16, 16, "Redguard 3D"), png);
    const std::vector<std::string> chunks = Chunks(png);
    ASSERT_FALSE(chunks.empty());
    EXPECT_EQ(chunks.front(), "IHDR");
    EXPECT_EQ(chunks.back(), "IEND");
    for (const std::string &c : chunks) {
        EXPECT_NE(c, "tIME");
        EXPECT_NE(c, "tEXt");
    }
    const Decoded d = DecodePng(png);
    ASSERT_EQ(d.rgba.size(), rgba.size());
    EXPECT_EQ(d.rgba, rgba);
    EXPECT_EQ(Bytes(d.rgba.begin(), d.rgba.begin() + 4), (Bytes{0, 0, 0, 0}));
}

TEST(RgPng, OneByOneAndLargeRows) {
    const Bytes one = {1, 2, 3, 4};
    EXPECT_EQ(DecodePng(gamefmt::EncodePngRgba(one.data(), 1, 1)).rgba, one);
    Bytes wide(4096 * 2 * 4);
    for (std::size_t i = 0; i < wide.size(); ++i) wide[i] = static_cast<std::uint8_t>(i % 251);
    EXPECT_EQ(DecodePng(gamefmt::EncodePngRgba(wide.data(), 4096, 2)).rgba, wide);
}

TEST(RgPng, BadSizesThrow) {
    const Bytes px(16, 0);
    const FormatError e = Thrown([&px] { gamefmt::EncodePngRgba(px.data(), 0, 4, "Redguard 3D"); });
    EXPECT_EQ(e.format(), "Redguard 3D");
    EXPECT_THROW(gamefmt::EncodePngRgba(px.data(), 4, 0), FormatError);
    EXPECT_THROW(gamefmt::EncodePngRgba(px.data(), gamefmt::kPngMaxDimension + 1, 1), FormatError);
    EXPECT_THROW(gamefmt::EncodePngRgba(nullptr, 1, 1), FormatError);
    EXPECT_EQ(Thrown([&px] { gamefmt::EncodePngRgba(px.data(), 0, 0); }).format(), "PNG");
}

} // namespace
