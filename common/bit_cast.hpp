// std::bit_cast for C++17 (the object representation of `from` as a `To` of the same size), and bit equality.
#pragma once

#include <cstddef>
#include <cstring>
#include <type_traits>
#include <vector>

namespace gamefmt {

template <typename To, typename From> To BitCast(const From &from) {
    static_assert(sizeof(To) == sizeof(From), "size mismatch");
    static_assert(std::is_trivially_copyable<To>::value && std::is_trivially_copyable<From>::value,
                  "trivially copyable types only");
    To to;
    std::memcpy(&to, &from, sizeof(To));
    return to;
}

// Whether `n` values at `a` and `b` hold the same bytes: what a round trip must keep exactly (-0 is not 0, a NaN
// equals itself by its payload).
template <typename T> bool SameBits(const T *a, const T *b, std::size_t n) {
    static_assert(std::is_trivially_copyable<T>::value, "trivially copyable types only");
    // NOLINTNEXTLINE(bugprone-suspicious-memory-comparison): bit equality is the point (-0, NaN payloads)
    return n == 0 || std::memcmp(a, b, n * sizeof(T)) == 0;
}
template <typename T> bool SameBits(const T &a, const T &b) {
    return SameBits(&a, &b, 1);
}
template <typename T> bool SameBits(const std::vector<T> &a, const std::vector<T> &b) {
    return a.size() == b.size() && SameBits(a.data(), b.data(), a.size());
}

} // namespace gamefmt
