// Locale-independent number parsing and shortest round-trip printing for text formats (XML, LLSD).
//
// Parsing rules, shared by every Parse* function:
//  - The whole string must be the number: no leading or trailing whitespace (trim with TrimAscii
//    first when the format allows it), nothing after the last digit. An empty string is an error.
//  - One leading '+' or '-' is accepted ('-' only for signed and floating types; "-0" is not an
//    unsigned number).
//  - Integers are decimal; leading zeros are accepted; out-of-range values are errors, never wrapped.
//  - Floating point: decimal with optional fraction and exponent ("1", "-.5", "5.", "1.5e-3",
//    "-2E+10"); "inf", "infinity" and "nan" in any letter case, optionally signed (Roblox writes
//    "INF", "+INF", "-INF", "NAN"), and C's "nan(chars)"; no hexadecimal. The result is correctly
//    rounded.
//    A finite number too large for the type ("1e39" as a float, "1e309" as a double) is an error,
//    not infinity: in a file it means corruption or a value of the wrong type, and silently turning
//    it into infinity would poison the geometry. A non-zero number too small for the type becomes
//    zero of the same sign, which is its correctly rounded value.
// Parse* return false on error and then leave `out` unchanged.
//
// Printing: Format* produce the shortest text that parses back to the identical value
// (std::to_chars), e.g. 0.1f -> "0.1", 1e20f -> "1e+20", -0.0f -> "-0". Non-finite values print as
// "INF", "-INF" and "NAN" (the sign and payload of a NaN are not kept).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace gamefmt {

// `s` without leading and trailing ASCII whitespace (space, \t, \n, \v, \f, \r).
std::string_view TrimAscii(std::string_view s) noexcept;

bool ParseFloat(std::string_view s, float &out) noexcept;
bool ParseDouble(std::string_view s, double &out) noexcept;
bool ParseInt32(std::string_view s, std::int32_t &out) noexcept;
bool ParseUInt32(std::string_view s, std::uint32_t &out) noexcept;
bool ParseInt64(std::string_view s, std::int64_t &out) noexcept;
bool ParseUInt64(std::string_view s, std::uint64_t &out) noexcept;

std::string FormatFloat(float v);
std::string FormatDouble(double v);
std::string FormatInt(std::int64_t v);
std::string FormatUInt(std::uint64_t v);

// The same text appended to `out`, for writers that build one large buffer without temporaries.
void AppendFloat(std::string &out, float v);
void AppendDouble(std::string &out, double v);
void AppendInt(std::string &out, std::int64_t v);
void AppendUInt(std::string &out, std::uint64_t v);

} // namespace gamefmt
