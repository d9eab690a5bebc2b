// Tests for FormatError: the composed message, the accessors and the no-offset case.
#include "common/error.hpp"

#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <limits>
#include <stdexcept>
#include <string>

using gamefmt::FormatError;

TEST(FormatError, WhatHasFormatMessageAndOffset) {
    const FormatError e("Roblox mesh", "bad vertex count", 42);
    EXPECT_STREQ(e.what(), "Roblox mesh: bad vertex count (at byte offset 42)");
    EXPECT_EQ(e.format(), "Roblox mesh");
    EXPECT_EQ(e.message(), "bad vertex count");
    EXPECT_EQ(e.offset(), 42u);
    EXPECT_TRUE(e.hasOffset());
}

TEST(FormatError, OffsetZeroIsAnOffset) {
    const FormatError e("LLSD", "empty", 0);
    EXPECT_STREQ(e.what(), "LLSD: empty (at byte offset 0)");
    EXPECT_TRUE(e.hasOffset());
    EXPECT_EQ(e.offset(), 0u);
}

TEST(FormatError, LargestRealOffsetIsPrinted) {
    const std::size_t offset = FormatError::kNoOffset - 1;
    const FormatError e("X", "m", offset);
    EXPECT_EQ(std::string(e.what()), "X: m (at byte offset " + std::to_string(offset) + ")");
    EXPECT_TRUE(e.hasOffset());
}

TEST(FormatError, WithoutOffset) {
    const FormatError e("Redguard 3D", "name too long");
    EXPECT_STREQ(e.what(), "Redguard 3D: name too long");
    EXPECT_FALSE(e.hasOffset());
    EXPECT_EQ(e.offset(), FormatError::kNoOffset);
    EXPECT_EQ(FormatError::kNoOffset, std::numeric_limits<std::size_t>::max());
}

TEST(FormatError, ExplicitNoOffsetEqualsDefault) {
    const FormatError e("F", "m", FormatError::kNoOffset);
    EXPECT_STREQ(e.what(), "F: m");
    EXPECT_FALSE(e.hasOffset());
}

TEST(FormatError, CatchableAsRuntimeError) {
    try {
        throw FormatError("Second Life mesh", "truncated", 7);
    } catch (const std::runtime_error &e) {
        EXPECT_STREQ(e.what(), "Second Life mesh: truncated (at byte offset 7)");
        return;
    }
    FAIL() << "FormatError is not a std::runtime_error";
}

TEST(FormatError, CopyKeepsEverything) {
    const FormatError a("A", "b", 3);
    const FormatError b = a; // NOLINT(performance-unnecessary-copy-initialization)
    EXPECT_STREQ(b.what(), "A: b (at byte offset 3)");
    EXPECT_EQ(b.format(), "A");
    EXPECT_EQ(b.message(), "b");
    EXPECT_EQ(b.offset(), 3u);
}

TEST(FormatError, ControlBytesInTheMessageAreEscapedSoNothingCutsAtANul) {
    const FormatError e("F", std::string("bad '1\0 2'\n", 11), 5);
    EXPECT_STREQ(e.what(), "F: bad '1\\x00 2'\\x0A (at byte offset 5)");
    EXPECT_EQ(std::strlen(e.what()), std::string(e.what()).size());
}

TEST(QuoteText, EscapesControlBytesBackslashesAndBrokenUtf8) {
    EXPECT_EQ(gamefmt::QuoteText("plain"), "plain");
    EXPECT_EQ(gamefmt::QuoteText(std::string("a\0b\tc\x7f", 6)), "a\\x00b\\x09c\\x7F");
    EXPECT_EQ(gamefmt::QuoteText("back\\slash"), "back\\\\slash");
    EXPECT_EQ(gamefmt::QuoteText("caf\xC3\xA9 \xE6\x97\xA5"), "caf\xC3\xA9 \xE6\x97\xA5"); // whole UTF-8 kept
    EXPECT_EQ(gamefmt::QuoteText("\xC3(\xFF\x80"), "\\xC3(\\xFF\\x80");                    // broken UTF-8 escaped
}

TEST(QuoteText, CutsAtTheLimitAndSaysHowLong) {
    const std::string big(100000, 'x');
    EXPECT_EQ(gamefmt::QuoteText(big), std::string(64, 'x') + "... (100000 bytes)");
    EXPECT_EQ(gamefmt::QuoteText(big, 4), "xxxx... (100000 bytes)");
    EXPECT_EQ(gamefmt::QuoteText(std::string(64, 'y')), std::string(64, 'y')); // exactly the limit: no marker
    // A cut inside a UTF-8 sequence escapes its lead byte rather than emitting half a character.
    EXPECT_EQ(gamefmt::QuoteText("ab\xC3\xA9", 3), "ab\\xC3... (4 bytes)");
}
