// The argument cursor shared by the verbs.
#include "args.hpp"

#include <charconv>
#include <cstring>

namespace gamefmt::cli {

bool ArgCursor::AtFlag() {
    if (!mNoMoreFlags && !Done() && Current() == "--") {
        mNoMoreFlags = true;
        Advance();
    }
    if (mNoMoreFlags || Done()) return false;
    const std::string &arg = Current();
    return arg.size() > 1 && arg[0] == '-';
}

bool ArgCursor::Flag(const char *shortName, const char *longName) {
    if (Done()) return false;
    const std::string &arg = Current();
    if ((shortName != nullptr && arg == shortName) || (longName != nullptr && arg == longName)) {
        Advance();
        return true;
    }
    return false;
}

ArgCursor::Match ArgCursor::Value(const char *shortName, const char *longName, bool attached, std::string &value) {
    if (Done()) return Match::No;
    const std::string &arg = Current();
    const bool separate = (shortName != nullptr && arg == shortName) || (longName != nullptr && arg == longName);
    if (separate) {
        Advance();
        if (Done()) return Match::MissingValue;
        value = Current();
        Advance();
        return Match::Yes;
    }
    if (longName != nullptr) {
        const std::size_t n = std::strlen(longName);
        if (arg.size() > n && arg.compare(0, n, longName) == 0 && arg[n] == '=') {
            value = arg.substr(n + 1);
            Advance();
            return value.empty() ? Match::MissingValue : Match::Yes;
        }
    }
    if (attached && shortName != nullptr) {
        const std::size_t n = std::strlen(shortName);
        if (arg.size() > n && arg.compare(0, n, shortName) == 0) {
            value = arg.substr(n);
            Advance();
            return Match::Yes;
        }
    }
    return Match::No;
}

bool ParseCount(const std::string &text, long long min, long long max, long long &value) {
    long long parsed = 0;
    const char *end = text.data() + text.size();
    const auto result = std::from_chars(text.data(), end, parsed);
    if (text.empty() || result.ec != std::errc() || result.ptr != end || parsed < min || parsed > max) return false;
    value = parsed;
    return true;
}

} // namespace gamefmt::cli
