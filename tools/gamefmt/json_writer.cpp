// The JSON writer behind `info --json`.
#include "json_writer.hpp"

#include <charconv>
#include <cmath>
#include <ostream>

namespace gamefmt::cli {

void JsonWriter::Raw(std::string_view text) {
    mOut.write(text.data(), static_cast<std::streamsize>(text.size()));
}

void JsonWriter::BeforeValue() {
    if (mAfterKey) {
        mAfterKey = false;
        return;
    }
    if (mStack.empty()) return;
    Level &level = mStack.back();
    if (level.count++ > 0) Raw(",");
    if (level.inlineItems) {
        if (level.count > 1) Raw(" ");
    } else {
        Raw("\n");
        for (std::size_t i = 0; i < mStack.size(); ++i) Raw("  ");
    }
}

void JsonWriter::Begin(char open, bool object, bool inlineItems) {
    BeforeValue();
    mOut << open;
    // A container inside an inline one stays inline.
    const bool parentInline = !mStack.empty() && mStack.back().inlineItems;
    mStack.push_back({object, inlineItems || parentInline, 0});
}

void JsonWriter::End(char close) {
    const Level level = mStack.back();
    mStack.pop_back();
    if (level.count > 0 && !level.inlineItems) {
        Raw("\n");
        for (std::size_t i = 0; i < mStack.size(); ++i) Raw("  ");
    }
    mOut << close;
    if (mStack.empty()) Raw("\n");
}

void JsonWriter::BeginObject(bool inlineItems) {
    Begin('{', true, inlineItems);
}
void JsonWriter::EndObject() {
    End('}');
}
void JsonWriter::BeginArray(bool inlineItems) {
    Begin('[', false, inlineItems);
}
void JsonWriter::EndArray() {
    End(']');
}

void JsonWriter::Key(std::string_view key) {
    BeforeValue();
    Raw(JsonQuote(key));
    Raw(": ");
    mAfterKey = true;
}

void JsonWriter::String(std::string_view value) {
    BeforeValue();
    Raw(JsonQuote(value));
}

void JsonWriter::boolean(bool value) {
    BeforeValue();
    Raw(value ? "true" : "false");
}

void JsonWriter::Null() {
    BeforeValue();
    Raw("null");
}

void JsonWriter::integer(std::int64_t value) {
    BeforeValue();
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    Raw(std::string_view(buffer, static_cast<std::size_t>(result.ptr - buffer)));
}

void JsonWriter::unsignedInteger(std::uint64_t value) {
    BeforeValue();
    char buffer[32];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    Raw(std::string_view(buffer, static_cast<std::size_t>(result.ptr - buffer)));
}

void JsonWriter::Number(double value) {
    if (!std::isfinite(value)) return Null();
    BeforeValue();
    char buffer[40];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    Raw(std::string_view(buffer, static_cast<std::size_t>(result.ptr - buffer)));
}

void JsonWriter::Number(float value) {
    if (!std::isfinite(value)) return Null();
    BeforeValue();
    char buffer[40];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    Raw(std::string_view(buffer, static_cast<std::size_t>(result.ptr - buffer)));
}

} // namespace gamefmt::cli
