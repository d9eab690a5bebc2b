// Tests for FormatError: the composed message, the accessors and the no-offset case.
#include "common/error.hpp"

#include <gtest/gtest.h>

#include <cstdint>
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
