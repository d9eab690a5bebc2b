// A strict, minimal JSON parser (RFC 8259) for checking `gamefmt info --json` in tests: it rejects anything
// a real parser would, and keeps just enough of the value tree to look up keys and numbers.
#pragma once

#include "support/utf8.hpp"

#include <cstdint>
#include <cstdlib>
#include <memory>
#include <optional>
#include <string>
#include <vector>

namespace gamefmt::test::json {

struct Value {
    enum class Type { Null, Bool, Number, String, Array, Object };
    Type type = Type::Null;
    bool boolean = false;
    double number = 0.0;
    std::string text;
    std::vector<Value> items;
    std::vector<std::string> keys; // object members, in order (two vectors: Value is incomplete here)
    std::vector<Value> values;

    const Value *get(const std::string &key) const {
        for (std::size_t i = 0; i < keys.size(); ++i)
            if (keys[i] == key) return &values[i];
        return nullptr;
    }
};

class Parser {
public:
    explicit Parser(const std::string &text) : mText(text) {}

    // The document's value, or nullopt (with Error()) when `text` is not exactly one JSON value.
    std::optional<Value> parse() {
        Value value;
        skipSpace();
        if (!parseValue(value, 0)) return std::nullopt;
        skipSpace();
        if (mPos != mText.size()) return fail("trailing characters");
        return value;
    }
    const std::string &error() const { return mError; }

private:
    std::nullopt_t fail(const std::string &why) {
        if (mError.empty()) mError = why + " at offset " + std::to_string(mPos);
        return std::nullopt;
    }
    bool failed(const std::string &why) {
        fail(why);
        return false;
    }
    void skipSpace() {
        while (mPos < mText.size() &&
               (mText[mPos] == ' ' || mText[mPos] == '\t' || mText[mPos] == '\n' || mText[mPos] == '\r'))
            ++mPos;
    }
    bool literal(const char *word) {
        const std::string w(word);
        if (mText.compare(mPos, w.size(), w) != 0) return false;
        mPos += w.size();
        return true;
    }
    bool parseValue(Value &value, int depth) {
        if (depth > 64) return failed("too deep");
        if (mPos >= mText.size()) return failed("unexpected end");
        const char c = mText[mPos];
        if (c == '{') return parseObject(value, depth);
        if (c == '[') return parseArray(value, depth);
        if (c == '"') {
            value.type = Value::Type::String;
            return parseString(value.text);
        }
        if (literal("true")) return value.type = Value::Type::Bool, value.boolean = true, true;
        if (literal("false")) return value.type = Value::Type::Bool, value.boolean = false, true;
        if (literal("null")) return value.type = Value::Type::Null, true;
        return parseNumber(value);
    }
    bool parseNumber(Value &value) {
        const std::size_t start = mPos;
        const auto digits = [&] {
            const std::size_t from = mPos;
            while (mPos < mText.size() && mText[mPos] >= '0' && mText[mPos] <= '9') ++mPos;
            return mPos > from;
        };
        if (mPos < mText.size() && mText[mPos] == '-') ++mPos;
        if (mPos < mText.size() && mText[mPos] == '0') {
            ++mPos;
        } else if (!digits()) {
            return failed("bad number");
        }
        if (mPos < mText.size() && mText[mPos] == '.') {
            ++mPos;
            if (!digits()) return failed("bad fraction");
        }
        if (mPos < mText.size() && (mText[mPos] == 'e' || mText[mPos] == 'E')) {
            ++mPos;
            if (mPos < mText.size() && (mText[mPos] == '+' || mText[mPos] == '-')) ++mPos;
            if (!digits()) return failed("bad exponent");
        }
        value.type = Value::Type::Number;
        value.number = std::strtod(mText.substr(start, mPos - start).c_str(), nullptr);
        return true;
    }
    bool hex4(std::uint32_t &cp) {
        if (mPos + 4 > mText.size()) return failed("short \\u escape");
        cp = 0;
        for (int i = 0; i < 4; ++i) {
            const char h = mText[mPos++];
            cp <<= 4;
            if (h >= '0' && h <= '9')
                cp |= static_cast<std::uint32_t>(h - '0');
            else if (h >= 'a' && h <= 'f')
                cp |= static_cast<std::uint32_t>(h - 'a' + 10);
            else if (h >= 'A' && h <= 'F')
                cp |= static_cast<std::uint32_t>(h - 'A' + 10);
            else
                return failed("bad hex digit");
        }
        return true;
    }
    bool parseString(std::string &out) {
        ++mPos; // opening quote
        while (mPos < mText.size()) {
            const auto c = static_cast<unsigned char>(mText[mPos++]);
            if (c == '"') return true;
            if (c < 0x20) return failed("raw control character in string");
            if (c != '\\') {
                out += static_cast<char>(c);
                continue;
            }
            if (mPos >= mText.size()) break;
            const char e = mText[mPos++];
            switch (e) {
            case '"':
                out += '"';
                break;
            case '\\':
                out += '\\';
                break;
            case '/':
                out += '/';
                break;
            case 'b':
                out += '\b';
                break;
            case 'f':
                out += '\f';
                break;
            case 'n':
                out += '\n';
                break;
            case 'r':
                out += '\r';
                break;
            case 't':
                out += '\t';
                break;
            case 'u': {
                std::uint32_t cp = 0;
                if (!hex4(cp)) return false;
                if (cp >= 0xD800 && cp <= 0xDBFF) {
                    std::uint32_t low = 0;
                    if (!literal("\\u") || !hex4(low) || low < 0xDC00 || low > 0xDFFF)
                        return failed("unpaired surrogate");
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
                } else if (cp >= 0xDC00 && cp <= 0xDFFF) {
                    return failed("unpaired surrogate");
                }
                gamefmt::test::AppendUtf8(out, cp);
                break;
            }
            default:
                return failed("bad escape");
            }
        }
        return failed("unterminated string");
    }
    bool parseArray(Value &value, int depth) {
        value.type = Value::Type::Array;
        ++mPos;
        skipSpace();
        if (mPos < mText.size() && mText[mPos] == ']') return ++mPos, true;
        for (;;) {
            Value item;
            skipSpace();
            if (!parseValue(item, depth + 1)) return false;
            value.items.push_back(std::move(item));
            skipSpace();
            if (mPos < mText.size() && mText[mPos] == ',') {
                ++mPos;
                continue;
            }
            if (mPos < mText.size() && mText[mPos] == ']') return ++mPos, true;
            return failed("expected , or ]");
        }
    }
    bool parseObject(Value &value, int depth) {
        value.type = Value::Type::Object;
        ++mPos;
        skipSpace();
        if (mPos < mText.size() && mText[mPos] == '}') return ++mPos, true;
        for (;;) {
            skipSpace();
            if (mPos >= mText.size() || mText[mPos] != '"') return failed("expected a key");
            std::string key;
            if (!parseString(key)) return false;
            skipSpace();
            if (mPos >= mText.size() || mText[mPos] != ':') return failed("expected :");
            ++mPos;
            skipSpace();
            Value member;
            if (!parseValue(member, depth + 1)) return false;
            if (value.get(key) != nullptr) return failed("duplicate key");
            value.keys.push_back(std::move(key));
            value.values.push_back(std::move(member));
            skipSpace();
            if (mPos < mText.size() && mText[mPos] == ',') {
                ++mPos;
                continue;
            }
            if (mPos < mText.size() && mText[mPos] == '}') return ++mPos, true;
            return failed("expected , or }");
        }
    }

    const std::string mText; // a copy: callers often pass temporaries
    std::size_t mPos = 0;
    std::string mError;
};

} // namespace gamefmt::test::json
