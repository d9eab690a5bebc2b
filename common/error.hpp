// The one exception type every gamefmt codec throws: which format, what was wrong, and where.
#pragma once

#include <cstddef>
#include <limits>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

namespace gamefmt {

// One byte as \xNN.
inline void AppendHexEscape(std::string &out, unsigned char c) {
    static const char kHex[] = "0123456789ABCDEF";
    out += '\\';
    out += 'x';
    out += kHex[c >> 4];
    out += kHex[c & 15];
}

// Bytes of a file as they may appear inside a message: at most `max` bytes; control bytes, 0x7F and bytes that
// are not well-formed UTF-8 escaped as \xNN, backslashes doubled; "..." plus the whole length when cut. Messages never
// carry a NUL (C strings, Assimp's error text, would end there) and never echo a 100 KB attribute.
inline std::string QuoteText(std::string_view text, std::size_t max = 64) {
    std::string out;
    const std::size_t shown = text.size() < max ? text.size() : max;
    out.reserve(shown + 16);
    const auto escape = [&out](unsigned char c) { AppendHexEscape(out, c); };
    for (std::size_t i = 0; i < shown;) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (c < 0x80) {
            if (c < 0x20 || c == 0x7F)
                escape(c);
            else if (c == '\\')
                out += "\\\\";
            else
                out += static_cast<char>(c);
            ++i;
            continue;
        }
        // A whole, well-formed UTF-8 sequence is kept (names in any script read as they are); any other
        // byte >= 0x80 is escaped.
        const std::size_t length = c >= 0xF0 && c < 0xF5 ? 4 : c >= 0xE0 ? 3 : c >= 0xC2 && c < 0xE0 ? 2 : 0;
        bool whole = length != 0 && i + length <= shown;
        for (std::size_t k = 1; whole && k < length; ++k)
            whole = (static_cast<unsigned char>(text[i + k]) & 0xC0) == 0x80;
        if (!whole) {
            escape(c);
            ++i;
            continue;
        }
        out.append(text.substr(i, length));
        i += length;
    }
    if (shown < text.size()) out += "... (" + std::to_string(text.size()) + " bytes)";
    return out;
}

class FormatError : public std::runtime_error {
public:
    static constexpr std::size_t kNoOffset = std::numeric_limits<std::size_t>::max();

    // format: a short human name such as "Roblox mesh"; offset: the byte offset in the file (or
    // kNoOffset when the problem is not tied to a position, e.g. while writing).
    FormatError(std::string format, std::string message, std::size_t offset = kNoOffset)
        : std::runtime_error(Compose(format, message, offset)), mFormat(std::move(format)),
          mMessage(std::move(message)), mOffset(offset) {}

    const std::string &format() const noexcept { return mFormat; }
    const std::string &message() const noexcept { return mMessage; }
    std::size_t offset() const noexcept { return mOffset; }
    bool hasOffset() const noexcept { return mOffset != kNoOffset; }

private:
    // Control bytes in a message (a NUL from the file above all) are escaped, so the text survives C strings.
    static std::string Compose(const std::string &format, const std::string &message, std::size_t offset) {
        std::string s = format + ": ";
        for (char c : message) {
            const auto u = static_cast<unsigned char>(c);
            if (u < 0x20 || u == 0x7F)
                AppendHexEscape(s, u); // what QuoteText makes of a control byte (GCC 14 misreads that call here)
            else
                s += c;
        }
        if (offset != kNoOffset) s += " (at byte offset " + std::to_string(offset) + ")";
        return s;
    }

    std::string mFormat;
    std::string mMessage;
    std::size_t mOffset;
};

} // namespace gamefmt
