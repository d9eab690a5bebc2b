// File names as UTF-8 strings, on every platform. gamefmt passes paths around as std::string in UTF-8, as
// Assimp does (its DefaultIOSystem widens them with _wfopen on Windows). std::filesystem::path's narrow
// constructor and string() use the system's narrow encoding instead: on Windows (MinGW's libstdc++, MSVC)
// that mangles every non-ASCII name. Convert at the boundary with these two and never with path(std::string)
// or path.string().
#pragma once

#include <filesystem>
#include <string>
#include <string_view>

namespace gamefmt {

inline std::filesystem::path PathFromUtf8(std::string_view utf8) {
    return std::filesystem::u8path(utf8.begin(), utf8.end()); // C++17; the identity on POSIX
}

inline std::string PathToUtf8(const std::filesystem::path &path) {
    return path.u8string(); // std::string in C++17
}

} // namespace gamefmt
