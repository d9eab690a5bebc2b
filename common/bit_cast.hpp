// std::bit_cast for C++17: the object representation of `from` as a `To` of the same size.
#pragma once

#include <cstring>
#include <type_traits>

namespace gamefmt {

template <typename To, typename From> To BitCast(const From &from) {
    static_assert(sizeof(To) == sizeof(From), "size mismatch");
    static_assert(std::is_trivially_copyable<To>::value && std::is_trivially_copyable<From>::value,
                  "trivially copyable types only");
    To to;
    std::memcpy(&to, &from, sizeof(To));
    return to;
}

} // namespace gamefmt
