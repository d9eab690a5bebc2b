// Command-line scanning shared by every verb: one cursor over the arguments that understands the spellings
// upstream's assimp tool accepts for flags with values ("-f ID", "-fID", "--format ID", "--format=ID").
#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace gamefmt::cli {

class ArgCursor {
public:
    ArgCursor(const std::vector<std::string> &args, std::size_t first) : mArgs(args), mPos(first) {}

    bool done() const { return mPos >= mArgs.size(); }
    const std::string &current() const { return mArgs[mPos]; }
    void advance() { ++mPos; }

    // True when the current argument looks like a flag. A first "--" is skipped and nothing after it is a
    // flag, so file names that begin with '-' can still be passed (check Done() again when this is false).
    bool atFlag();

    // Consumes the current argument when it is exactly `shortName` or `longName` (either may be null).
    bool flag(const char *shortName, const char *longName);

    enum class Match { No, Yes, MissingValue };
    // Consumes a flag with a value: "-x V", "--long V", "--long=V", and "-xV" when `attached` is true.
    // MissingValue when the flag is last. Callers must test exact flags that share the short prefix
    // (the post-processing flag "-fd" against "-f") first.
    Match value(const char *shortName, const char *longName, bool attached, std::string &value);

private:
    const std::vector<std::string> &mArgs;
    std::size_t mPos;
    bool mNoMoreFlags = false;
};

// Parses a whole decimal number in [min, max]; false for anything else.
bool ParseCount(const std::string &text, long long min, long long max, long long &value);

} // namespace gamefmt::cli
