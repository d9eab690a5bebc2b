// Float and double bit patterns for tests that check exact values (common/bit_cast.hpp underneath).
#pragma once

#include "common/bit_cast.hpp"

#include <cstdint>

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

} // namespace gamefmt::test
