// ASCII-only text helpers: the same in every locale (std::tolower is not).
#pragma once

#include <string>

namespace gamefmt {

constexpr char AsciiLower(char c) {
    return c >= 'A' && c <= 'Z' ? static_cast<char>(c - 'A' + 'a') : c;
}

inline std::string AsciiLower(std::string text) {
    for (char &c : text) c = AsciiLower(c);
    return text;
}

} // namespace gamefmt
