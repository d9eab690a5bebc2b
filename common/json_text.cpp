// JSON string text.
#include "common/json_text.hpp"

namespace gamefmt {
namespace {

// Length of the valid UTF-8 sequence at s[i], or 0 when it is not one. Ranges from RFC 3629 §4: no
// overlong forms, no surrogates, nothing above U+10FFFF.
std::size_t ValidSequence(std::string_view s, std::size_t i, std::size_t &validPrefix) {
    const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(s[k]); };
    const unsigned char lead = byte(i);
    validPrefix = 0;
    if (lead < 0x80) return 1;
    std::size_t length = 0;
    unsigned char lo = 0x80, hi = 0xBF; // allowed range of the second byte
    if (lead >= 0xC2 && lead <= 0xDF) {
        length = 2;
    } else if (lead >= 0xE0 && lead <= 0xEF) {
        length = 3;
        if (lead == 0xE0) lo = 0xA0;
        if (lead == 0xED) hi = 0x9F;
    } else if (lead >= 0xF0 && lead <= 0xF4) {
        length = 4;
        if (lead == 0xF0) lo = 0x90;
        if (lead == 0xF4) hi = 0x8F;
    } else {
        return 0;
    }
    validPrefix = 1;
    for (std::size_t k = 1; k < length; ++k) {
        if (i + k >= s.size()) return 0;
        const unsigned char c = byte(i + k);
        const unsigned char min = k == 1 ? lo : 0x80, max = k == 1 ? hi : 0xBF;
        if (c < min || c > max) return 0;
        ++validPrefix;
    }
    return length;
}

constexpr std::string_view kReplacement = "\xEF\xBF\xBD";

} // namespace

std::string SanitizeUtf8(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    std::size_t i = 0;
    while (i < text.size()) {
        std::size_t prefix = 0;
        const std::size_t n = ValidSequence(text, i, prefix);
        if (n != 0) {
            out.append(text.substr(i, n));
            i += n;
        } else {
            // Replace the maximal ill-formed subpart, as the Unicode standard recommends.
            out.append(kReplacement);
            i += prefix == 0 ? 1 : prefix;
        }
    }
    return out;
}

std::string JsonQuote(std::string_view text) {
    static const char kHex[] = "0123456789abcdef";
    const std::string clean = SanitizeUtf8(text);
    std::string out;
    out.reserve(clean.size() + 2);
    out += '"';
    for (const char ch : clean) {
        const auto c = static_cast<unsigned char>(ch);
        switch (c) {
        case '"':
            out += "\\\"";
            break;
        case '\\':
            out += "\\\\";
            break;
        case '\n':
            out += "\\n";
            break;
        case '\r':
            out += "\\r";
            break;
        case '\t':
            out += "\\t";
            break;
        case '\b':
            out += "\\b";
            break;
        case '\f':
            out += "\\f";
            break;
        default:
            if (c < 0x20 || c == 0x7F) {
                out += "\\u00";
                out += kHex[c >> 4];
                out += kHex[c & 15];
            } else {
                out += ch;
            }
        }
    }
    out += '"';
    return out;
}

} // namespace gamefmt
