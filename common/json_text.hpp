// JSON string text: valid UTF-8, escaped. Shared by `info --json` and the glTF node writer.
#pragma once

#include <string>
#include <string_view>

namespace gamefmt {

// `text` with every invalid UTF-8 sequence replaced by U+FFFD (the maximal ill-formed subpart at a time, as
// the Unicode standard recommends; RFC 3629 ranges: no overlong forms, no surrogates, nothing above U+10FFFF).
std::string SanitizeUtf8(std::string_view text);

// `text` as a quoted JSON string: sanitised, with quotes, backslashes and control characters escaped.
std::string JsonQuote(std::string_view text);

} // namespace gamefmt
