// The argument cursor shared by the verbs.
#include "args.hpp"

#include <charconv>
#include <cstring>

namespace gamefmt::cli {

bool ArgCursor::atFlag() {
    if (!mNoMoreFlags && !done() && current() == "--") {
        mNoMoreFlags = true;
        advance();
    }
    if (mNoMoreFlags || done()) return false;
    const std::string &arg = current();
    return arg.size() > 1 && arg[0] == '-';
}

bool ArgCursor::flag(const char *shortName, const char *longName) {
    if (done()) return false;
    const std::string &arg = current();
    if ((shortName != nullptr && arg == shortName) || (longName != nullptr && arg == longName)) {
        advance();
        return true;
    }
    return false;
}

ArgCursor::Match ArgCursor::value(const char *shortName, const char *longName, bool attached, std::string &value) {
    if (done()) return Match::No;
    const std::string &arg = current();
    const bool separate = (shortName != nullptr && arg == shortName) || (longName != nullptr && arg == longName);
    if (separate) {
        advance();
        if (done()) return Match::MissingValue;
        value = current();
        advance();
        return Match::Yes;
    }
    if (longName != nullptr) {
        const std::size_t n = std::strlen(longName);
        if (arg.size() > n && arg.compare(0, n, longName) == 0 && arg[n] == '=') {
            value = arg.substr(n + 1);
            advance();
            return value.empty() ? Match::MissingValue : Match::Yes;
        }
    }
    if (attached && shortName != nullptr) {
        const std::size_t n = std::strlen(shortName);
        if (arg.size() > n && arg.compare(0, n, shortName) == 0) {
            value = arg.substr(n);
            advance();
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
