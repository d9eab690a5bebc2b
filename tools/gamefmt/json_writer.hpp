// A small streaming JSON writer for `info --json`: strings are escaped (control characters as \uXXXX, invalid
// UTF-8 replaced by U+FFFD), non-finite numbers become null, and output is indented two spaces per level.
#pragma once

#include "common/json_text.hpp"

#include <cstdint>
#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace gamefmt::cli {

class JsonWriter {
public:
    explicit JsonWriter(std::ostream &out) : mOut(out) {}

    // `inlineItems` writes the container on one line (for short arrays such as points).
    void beginObject(bool inlineItems = false);
    void endObject();
    void beginArray(bool inlineItems = false);
    void endArray();

    void key(std::string_view key); // inside an object, before each value

    void string(std::string_view value);
    void boolean(bool value);
    void null();
    void integer(std::int64_t value);
    void unsignedInteger(std::uint64_t value);
    void number(double value); // shortest round-trip form; null if not finite
    void number(float value);

    // key(name) then the value: one member of an object.
    void stringField(std::string_view name, std::string_view value);
    void booleanField(std::string_view name, bool value);
    void unsignedField(std::string_view name, std::uint64_t value);
    void numberField(std::string_view name, double value);

private:
    struct Level {
        bool object;
        bool inlineItems;
        std::size_t count;
    };
    void beforeValue();
    void begin(char open, bool object, bool inlineItems);
    void end(char close);
    void raw(std::string_view text);

    std::ostream &mOut;
    std::vector<Level> mStack;
    bool mAfterKey = false;
};

using gamefmt::JsonQuote;
using gamefmt::SanitizeUtf8;

} // namespace gamefmt::cli
