// Float and double bit patterns for tests that check exact values (common/bit_cast.hpp underneath), and
// tables of expected u32 words in a file.
#pragma once

#include "common/bit_cast.hpp"

#include <gtest/gtest.h>

#include <cstddef>
#include <cstdint>
#include <utility>
#include <vector>

namespace gamefmt::test {

inline std::uint32_t FloatBits(float f) {
    return BitCast<std::uint32_t>(f);
}
inline std::uint64_t DoubleBits(double d) {
    return BitCast<std::uint64_t>(d);
}
inline float FloatFromBits(std::uint32_t u) {
    return BitCast<float>(u);
}
inline double DoubleFromBits(std::uint64_t u) {
    return BitCast<double>(u);
}

// The little-endian u32 at `at`; throws std::out_of_range past the end (a test's wrong offset).
inline std::uint32_t U32At(const std::vector<std::uint8_t> &b, std::size_t at) {
    return static_cast<std::uint32_t>(b.at(at)) | static_cast<std::uint32_t>(b.at(at + 1)) << 8 |
           static_cast<std::uint32_t>(b.at(at + 2)) << 16 | static_cast<std::uint32_t>(b.at(at + 3)) << 24;
}

// Every {offset, value} pair against the little-endian u32 of `bytes` at that offset.
inline void ExpectU32s(const std::vector<std::uint8_t> &bytes,
                       const std::vector<std::pair<std::size_t, std::uint32_t>> &expected) {
    for (const auto &[at, value] : expected) EXPECT_EQ(U32At(bytes, at), value) << "at 0x" << std::hex << at;
}

} // namespace gamefmt::test
