// Number text on top of <charconv>: exact, locale-free, allocation-free parsing and shortest printing.
#include "common/text_number.hpp"

#include <charconv>
#include <cmath>
#include <system_error>

namespace gamefmt {
namespace {

// std::from_chars rejects a leading '+'; strip one, but "+-1" and "++1" stay errors.
bool StripPlus(std::string_view &s) noexcept {
    if (s.empty() || s[0] != '+') return true;
    s.remove_prefix(1);
    return !s.empty() && s[0] != '+' && s[0] != '-';
}

bool IsDigit(char c) noexcept {
    return c >= '0' && c <= '9';
}

// For text that from_chars accepted but found out of range: true when the value is below the smallest
// denormal (underflow), false when it is above the largest finite value. Decided from the decimal
// exponent of the first significant digit, which is all the sign of the error depends on.
bool IsUnderflow(std::string_view s) noexcept {
    std::size_t i = 0;
    if (i < s.size() && s[i] == '-') ++i;
    long long magnitude = 0;
    bool significant = false;
    long long intDigits = 0; // integer digits from the first non-zero one
    for (; i < s.size() && IsDigit(s[i]); ++i) {
        if (s[i] != '0') significant = true;
        if (significant) ++intDigits;
    }
    if (significant) {
        magnitude = intDigits - 1;
        if (i < s.size() && s[i] == '.')
            for (++i; i < s.size() && IsDigit(s[i]); ++i) {
            }
    } else {
        long long zeros = 0;
        if (i < s.size() && s[i] == '.')
            for (++i; i < s.size() && IsDigit(s[i]); ++i) {
                if (significant) continue;
                if (s[i] == '0')
                    ++zeros;
                else
                    significant = true;
            }
        magnitude = -(zeros + 1);
    }
    long long exponent = 0;
    if (i < s.size() && (s[i] == 'e' || s[i] == 'E')) {
        ++i;
        bool negative = false;
        if (i < s.size() && (s[i] == '+' || s[i] == '-')) negative = s[i++] == '-';
        constexpr long long kSaturate = 1000000000000LL; // far beyond any exponent and any string length
        for (; i < s.size() && IsDigit(s[i]); ++i)
            if (exponent < kSaturate) exponent = exponent * 10 + (s[i] - '0');
        if (negative) exponent = -exponent;
    }
    return magnitude + exponent < 0;
}

template <typename T> bool ParseFloating(std::string_view s, T &out) noexcept {
    if (!StripPlus(s) || s.empty()) return false;
    const char *first = s.data();
    const char *last = s.data() + s.size();
    T value{};
    const std::from_chars_result r = std::from_chars(first, last, value, std::chars_format::general);
    if (r.ptr != last) return false;
    if (r.ec == std::errc::result_out_of_range) {
        if (!IsUnderflow(s)) return false;
        out = s[0] == '-' ? -T(0) : T(0);
        return true;
    }
    if (r.ec != std::errc()) return false;
    out = value;
    return true;
}

template <typename T> bool ParseInteger(std::string_view s, T &out) noexcept {
    if (!StripPlus(s) || s.empty()) return false;
    const char *last = s.data() + s.size();
    T value{};
    const std::from_chars_result r = std::from_chars(s.data(), last, value, 10);
    if (r.ec != std::errc() || r.ptr != last) return false;
    out = value;
    return true;
}

template <typename T> void AppendFloating(std::string &out, T v) {
    if (std::isnan(v)) {
        out += "NAN";
        return;
    }
    if (std::isinf(v)) {
        out += v < 0 ? "-INF" : "INF";
        return;
    }
    char buf[40]; // the longest shortest double, "-2.2250738585072014e-308", is 24
    const std::to_chars_result r = std::to_chars(buf, buf + sizeof(buf), v);
    out.append(buf, r.ptr);
}

template <typename T> void AppendInteger(std::string &out, T v) {
    char buf[24]; // "-9223372036854775808" is 20
    const std::to_chars_result r = std::to_chars(buf, buf + sizeof(buf), v);
    out.append(buf, r.ptr);
}

bool IsAsciiSpace(char c) noexcept {
    return c == ' ' || (c >= '\t' && c <= '\r');
}

} // namespace

std::string_view TrimAscii(std::string_view s) noexcept {
    while (!s.empty() && IsAsciiSpace(s.front())) s.remove_prefix(1);
    while (!s.empty() && IsAsciiSpace(s.back())) s.remove_suffix(1);
    return s;
}

bool ParseFloat(std::string_view s, float &out) noexcept {
    return ParseFloating(s, out);
}
bool ParseDouble(std::string_view s, double &out) noexcept {
    return ParseFloating(s, out);
}
bool ParseInt32(std::string_view s, std::int32_t &out) noexcept {
    return ParseInteger(s, out);
}
bool ParseUInt32(std::string_view s, std::uint32_t &out) noexcept {
    return ParseInteger(s, out);
}
bool ParseInt64(std::string_view s, std::int64_t &out) noexcept {
    return ParseInteger(s, out);
}
bool ParseUInt64(std::string_view s, std::uint64_t &out) noexcept {
    return ParseInteger(s, out);
}

void AppendFloat(std::string &out, float v) {
    AppendFloating(out, v);
}
void AppendDouble(std::string &out, double v) {
    AppendFloating(out, v);
}
void AppendInt(std::string &out, std::int64_t v) {
    AppendInteger(out, v);
}
void AppendUInt(std::string &out, std::uint64_t v) {
    AppendInteger(out, v);
}

std::string FormatFloat(float v) {
    std::string s;
    AppendFloat(s, v);
    return s;
}
std::string FormatDouble(double v) {
    std::string s;
    AppendDouble(s, v);
    return s;
}
std::string FormatInt(std::int64_t v) {
    std::string s;
    AppendInt(s, v);
    return s;
}
std::string FormatUInt(std::uint64_t v) {
    std::string s;
    AppendUInt(s, v);
    return s;
}

} // namespace gamefmt
