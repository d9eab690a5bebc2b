// The JSON writer behind `info --json`.
#include "json_writer.hpp"

#include <charconv>
#include <cmath>
#include <ostream>

namespace gamefmt::cli {

void JsonWriter::raw(std::string_view text) {
    mOut.write(text.data(), static_cast<std::streamsize>(text.size()));
}

void JsonWriter::beforeValue() {
    if (mAfterKey) {
        mAfterKey = false;
        return;
    }
    if (mStack.empty()) return;
    Level &level = mStack.back();
    if (level.count++ > 0) raw(",");
    if (level.inlineItems) {
        if (level.count > 1) raw(" ");
    } else {
        raw("\n");
        for (std::size_t i = 0; i < mStack.size(); ++i) raw("  ");
    }
}

void JsonWriter::begin(char open, bool object, bool inlineItems) {
    beforeValue();
    mOut << open;
    // A container inside an inline one stays inline.
    const bool parentInline = !mStack.empty() && mStack.back().inlineItems;
    mStack.push_back({object, inlineItems || parentInline, 0});
}

void JsonWriter::end(char close) {
    const Level level = mStack.back();
    mStack.pop_back();
    if (level.count > 0 && !level.inlineItems) {
        raw("\n");
        for (std::size_t i = 0; i < mStack.size(); ++i) raw("  ");
    }
    mOut << close;
    if (mStack.empty()) raw("\n");
}

void JsonWriter::beginObject(bool inlineItems) {
    begin('{', true, inlineItems);
}
void JsonWriter::endObject() {
    end('}');
}
void JsonWriter::beginArray(bool inlineItems) {
    begin('[', false, inlineItems);
}
void JsonWriter::endArray() {
    end(']');
}

void JsonWriter::key(std::string_view key) {
    beforeValue();
    raw(JsonQuote(key));
    raw(": ");
    mAfterKey = true;
}

void JsonWriter::string(std::string_view value) {
    beforeValue();
    raw(JsonQuote(value));
}

void JsonWriter::boolean(bool value) {
    beforeValue();
    raw(value ? "true" : "false");
}

void JsonWriter::null() {
    beforeValue();
    raw("null");
}

void JsonWriter::integer(std::int64_t value) {
    beforeValue();
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    raw(std::string_view(buffer, static_cast<std::size_t>(result.ptr - buffer)));
}

void JsonWriter::unsignedInteger(std::uint64_t value) {
    beforeValue();
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    raw(std::string_view(buffer, static_cast<std::size_t>(result.ptr - buffer)));
}

void JsonWriter::number(double value) {
    if (!std::isfinite(value)) return null();
    beforeValue();
    char buffer[40];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    raw(std::string_view(buffer, static_cast<std::size_t>(result.ptr - buffer)));
}

void JsonWriter::number(float value) {
    if (!std::isfinite(value)) return null();
    beforeValue();
    char buffer[40];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    raw(std::string_view(buffer, static_cast<std::size_t>(result.ptr - buffer)));
}

void JsonWriter::stringField(std::string_view name, std::string_view value) {
    key(name);
    string(value);
}
void JsonWriter::booleanField(std::string_view name, bool value) {
    key(name);
    boolean(value);
}
void JsonWriter::unsignedField(std::string_view name, std::uint64_t value) {
    key(name);
    unsignedInteger(value);
}
void JsonWriter::numberField(std::string_view name, double value) {
    key(name);
    number(value);
}

} // namespace gamefmt::cli
