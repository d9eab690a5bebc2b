// The insta `.snap` reader (snap.hpp): header, then an indentation-driven parser of the YAML subset
// rbx-dom's snapshots use.
#include "support/snap.hpp"

#include "support/utf8.hpp"

#include <fstream>
#include <sstream>
#include <stdexcept>

namespace gamefmt::test {
namespace {

struct Line {
    int indent = 0;
    std::string text; // without indentation and trailing spaces
    int number = 0;
};

[[noreturn]] void Fail(int line, const std::string &what) {
    throw std::runtime_error("snap line " + std::to_string(line) + ": " + what);
}

int HexDigit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

std::uint32_t ReadHex(std::string_view s, std::size_t &pos, int digits, int line) {
    if (pos + digits > s.size()) Fail(line, "short escape");
    std::uint32_t v = 0;
    for (int i = 0; i < digits; ++i) {
        const int d = HexDigit(s[pos++]);
        if (d < 0) Fail(line, "bad hex escape");
        v = v * 16 + static_cast<std::uint32_t>(d);
    }
    return v;
}

// Parses a double-quoted scalar starting at s[pos] == '"'; leaves pos after the closing quote.
std::string ParseQuoted(std::string_view s, std::size_t &pos, int line) {
    std::string out;
    ++pos;
    while (pos < s.size() && s[pos] != '"') {
        char c = s[pos++];
        if (c != '\\') {
            out += c;
            continue;
        }
        if (pos >= s.size()) Fail(line, "dangling backslash");
        c = s[pos++];
        switch (c) {
        case '0':
            out += '\0';
            break;
        case 'a':
            out += '\a';
            break;
        case 'b':
            out += '\b';
            break;
        case 't':
            out += '\t';
            break;
        case 'n':
            out += '\n';
            break;
        case 'v':
            out += '\v';
            break;
        case 'f':
            out += '\f';
            break;
        case 'r':
            out += '\r';
            break;
        case 'e':
            out += '\x1B';
            break;
        case ' ':
            out += ' ';
            break;
        case '"':
            out += '"';
            break;
        case '/':
            out += '/';
            break;
        case '\\':
            out += '\\';
            break;
        case 'x':
            AppendUtf8(out, ReadHex(s, pos, 2, line));
            break;
        case 'u': {
            std::uint32_t cp = ReadHex(s, pos, 4, line);
            if (cp >= 0xD800 && cp < 0xDC00 && pos + 6 <= s.size() && s[pos] == '\\' && s[pos + 1] == 'u') {
                pos += 2;
                const std::uint32_t low = ReadHex(s, pos, 4, line);
                cp = 0x10000 + ((cp - 0xD800) << 10) + (low - 0xDC00);
            }
            AppendUtf8(out, cp);
            break;
        }
        case 'U':
            AppendUtf8(out, ReadHex(s, pos, 8, line));
            break;
        default:
            Fail(line, std::string("unknown escape \\") + c);
        }
    }
    if (pos >= s.size()) Fail(line, "unterminated string");
    ++pos;
    return out;
}

SnapNode Scalar(std::string text, bool quoted, int line) {
    SnapNode n;
    n.kind = SnapNode::Kind::Scalar;
    n.scalar = std::move(text);
    n.quoted = quoted;
    n.line = line;
    return n;
}

std::string_view Trim(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

// Flow collections: `[a, b, [c]]`, `{k: v}`.
SnapNode ParseFlow(std::string_view s, std::size_t &pos, int line);

void SkipSpaces(std::string_view s, std::size_t &pos) {
    while (pos < s.size() && s[pos] == ' ') ++pos;
}

SnapNode ParseFlowScalar(std::string_view s, std::size_t &pos, int line, const char *stops) {
    SkipSpaces(s, pos);
    if (pos < s.size() && s[pos] == '"') return Scalar(ParseQuoted(s, pos, line), true, line);
    if (pos < s.size() && (s[pos] == '[' || s[pos] == '{')) return ParseFlow(s, pos, line);
    const std::size_t start = pos;
    while (pos < s.size() && !std::string_view(stops).empty() &&
           std::string_view(stops).find(s[pos]) == std::string_view::npos)
        ++pos;
    const std::string_view text = Trim(s.substr(start, pos - start));
    if (text == "~" || text == "null") {
        SnapNode n;
        n.line = line;
        return n;
    }
    return Scalar(std::string(text), false, line);
}

SnapNode ParseFlow(std::string_view s, std::size_t &pos, int line) {
    const char open = s[pos++];
    const char close = open == '[' ? ']' : '}';
    SnapNode n;
    n.kind = open == '[' ? SnapNode::Kind::List : SnapNode::Kind::Map;
    n.line = line;
    SkipSpaces(s, pos);
    if (pos < s.size() && s[pos] == close) {
        ++pos;
        return n;
    }
    for (;;) {
        if (open == '[') {
            n.items.push_back(ParseFlowScalar(s, pos, line, ",]"));
        } else {
            SnapNode key = ParseFlowScalar(s, pos, line, ":,}");
            if (pos >= s.size() || s[pos] != ':') Fail(line, "expected ':' in flow map");
            ++pos;
            n.entries.emplace_back(key.scalar, ParseFlowScalar(s, pos, line, ",}"));
        }
        SkipSpaces(s, pos);
        if (pos >= s.size()) Fail(line, "unterminated flow collection");
        if (s[pos] == close) {
            ++pos;
            return n;
        }
        if (s[pos] != ',') Fail(line, "expected ',' in flow collection");
        ++pos;
    }
}

SnapNode ParseInline(std::string_view text, int line) {
    text = Trim(text);
    std::size_t pos = 0;
    if (!text.empty() && (text[0] == '"' || text[0] == '[' || text[0] == '{')) {
        SnapNode n = text[0] == '"' ? Scalar(ParseQuoted(text, pos, line), true, line) : ParseFlow(text, pos, line);
        if (!Trim(text.substr(pos)).empty()) Fail(line, "text after value");
        return n;
    }
    if (text == "~" || text == "null") {
        SnapNode n;
        n.line = line;
        return n;
    }
    return Scalar(std::string(text), false, line);
}

bool IsListItem(const std::string &t) {
    return t == "-" || t.compare(0, 2, "- ") == 0;
}

// Finds the `key: value` separator; returns false for a line that is not a map entry.
bool SplitKey(const std::string &t, int line, std::string &key, std::string_view &rest) {
    std::size_t pos = 0;
    if (!t.empty() && t[0] == '"') {
        key = ParseQuoted(t, pos, line);
    } else {
        std::size_t colon = std::string::npos;
        for (std::size_t i = 0; i < t.size(); ++i) {
            if (t[i] == ':' && (i + 1 == t.size() || t[i + 1] == ' ')) {
                colon = i;
                break;
            }
        }
        if (colon == std::string::npos) return false;
        key = t.substr(0, colon);
        pos = colon;
    }
    if (pos >= t.size() || t[pos] != ':') return false;
    rest = std::string_view(t).substr(pos + 1);
    return true;
}

class Parser {
public:
    explicit Parser(std::vector<Line> lines) : mLines(std::move(lines)) {}

    SnapNode parseDocument() {
        if (mLines.empty()) return {};
        SnapNode n = parseBlock(mLines[0].indent);
        if (mPos != mLines.size()) Fail(mLines[mPos].number, "unexpected indentation");
        return n;
    }

private:
    std::vector<Line> mLines;
    std::size_t mPos = 0;

    SnapNode parseBlock(int indent) { return IsListItem(mLines[mPos].text) ? parseList(indent) : parseMap(indent); }

    SnapNode parseList(int indent) {
        SnapNode n;
        n.kind = SnapNode::Kind::List;
        n.line = mLines[mPos].number;
        while (mPos < mLines.size() && mLines[mPos].indent == indent && IsListItem(mLines[mPos].text)) {
            Line &l = mLines[mPos];
            const std::string rest = l.text.size() > 2 ? l.text.substr(2) : std::string();
            std::string key;
            std::string_view value;
            if (rest.empty()) {
                ++mPos;
                n.items.push_back(parseNested(indent, l.number));
            } else if (IsListItem(rest) || (rest[0] != '[' && rest[0] != '{' && SplitKey(rest, l.number, key, value))) {
                // "- - x" / "- key: v": the item is a block whose first line starts after the dash.
                l.indent = indent + 2;
                l.text = rest;
                n.items.push_back(parseBlock(indent + 2));
            } else {
                ++mPos;
                n.items.push_back(ParseInline(rest, l.number));
            }
        }
        return n;
    }

    // The value of "key:" or "-" with nothing after it: a deeper block, a list at the same indentation
    // (YAML allows "key:\n- a"), or null.
    SnapNode parseNested(int indent, int line) {
        if (mPos < mLines.size() && mLines[mPos].indent > indent) return parseBlock(mLines[mPos].indent);
        SnapNode n;
        n.line = line;
        return n;
    }

    SnapNode parseMap(int indent) {
        SnapNode n;
        n.kind = SnapNode::Kind::Map;
        n.line = mLines[mPos].number;
        while (mPos < mLines.size() && mLines[mPos].indent == indent && !IsListItem(mLines[mPos].text)) {
            const Line &l = mLines[mPos];
            std::string key;
            std::string_view rest;
            if (!SplitKey(l.text, l.number, key, rest)) Fail(l.number, "expected 'key: value'");
            const int number = l.number;
            const std::string value(Trim(rest));
            ++mPos;
            if (!value.empty()) {
                n.entries.emplace_back(std::move(key), ParseInline(value, number));
            } else if (mPos < mLines.size() && mLines[mPos].indent == indent && IsListItem(mLines[mPos].text)) {
                n.entries.emplace_back(std::move(key), parseList(indent));
            } else {
                n.entries.emplace_back(std::move(key), parseNested(indent, number));
            }
        }
        return n;
    }
};

} // namespace

const SnapNode *SnapNode::find(std::string_view key) const {
    if (kind != Kind::Map) return nullptr;
    for (const auto &e : entries)
        if (e.first == key) return &e.second;
    return nullptr;
}

const SnapNode &SnapNode::at(std::string_view key) const {
    if (const SnapNode *n = find(key)) return *n;
    throw std::runtime_error("snap line " + std::to_string(line) + ": no key '" + std::string(key) + "' in " + dump());
}

const SnapNode &SnapNode::at(std::size_t index) const {
    if (kind != Kind::List || index >= items.size())
        throw std::runtime_error("snap line " + std::to_string(line) + ": no item " + std::to_string(index) + " in " +
                                 dump());
    return items[index];
}

const std::string &SnapNode::str() const {
    if (kind != Kind::Scalar)
        throw std::runtime_error("snap line " + std::to_string(line) + ": not a scalar: " + dump());
    return scalar;
}

std::string SnapNode::dump() const {
    std::string s;
    switch (kind) {
    case Kind::Null:
        return "~";
    case Kind::Scalar:
        return quoted ? "\"" + scalar + "\"" : scalar;
    case Kind::List:
        s = "[";
        for (std::size_t i = 0; i < items.size(); ++i) s += (i ? ", " : "") + items[i].dump();
        return s + "]";
    case Kind::Map:
        s = "{";
        for (std::size_t i = 0; i < entries.size(); ++i)
            s += (i ? ", " : "") + entries[i].first + ": " + entries[i].second.dump();
        return s + "}";
    }
    return s;
}

Snap ParseSnap(std::string_view text) {
    Snap snap;
    std::vector<Line> lines;
    int number = 0;
    int separators = 0;
    std::size_t pos = 0;
    while (pos <= text.size()) {
        std::size_t end = text.find('\n', pos);
        if (end == std::string_view::npos) end = text.size();
        std::string_view raw = text.substr(pos, end - pos);
        pos = end + 1;
        ++number;
        if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
        if (separators < 2) {
            // The header: "---", "key: value" lines, "---".
            if (raw == "---") {
                ++separators;
            } else if (separators == 1) {
                const std::size_t colon = raw.find(':');
                if (colon != std::string_view::npos)
                    snap.header[std::string(Trim(raw.substr(0, colon)))] = std::string(Trim(raw.substr(colon + 1)));
            } else if (!Trim(raw).empty()) {
                Fail(number, "expected the '---' header");
            }
            continue;
        }
        const std::string_view body = Trim(raw);
        if (body.empty() || body[0] == '#') continue;
        Line l;
        while (static_cast<std::size_t>(l.indent) < raw.size() && raw[static_cast<std::size_t>(l.indent)] == ' ')
            ++l.indent;
        l.text = std::string(body);
        l.number = number;
        lines.push_back(std::move(l));
    }
    if (separators < 2) Fail(number, "missing '---' header");
    snap.root = Parser(std::move(lines)).parseDocument();
    return snap;
}

Snap LoadSnap(const std::filesystem::path &path) {
    std::ifstream in(path, std::ios::binary);
    if (!in) throw std::runtime_error("cannot open " + path.string());
    std::ostringstream ss;
    ss << in.rdbuf();
    try {
        return ParseSnap(ss.str());
    } catch (const std::runtime_error &e) {
        throw std::runtime_error(path.filename().string() + ": " + e.what());
    }
}

bool ParseHexDump(std::string_view text, std::string &out) {
    out.clear();
    text = Trim(text);
    if (text.empty()) return false;
    std::size_t i = 0;
    while (i < text.size()) {
        if (i + 2 > text.size()) return false;
        const int hi = HexDigit(text[i]);
        const int lo = HexDigit(text[i + 1]);
        // rbx-dom prints lowercase pairs; requiring that avoids reading words like "BE EF" as bytes.
        if (hi < 0 || lo < 0 || (text[i] >= 'A' && text[i] <= 'F') || (text[i + 1] >= 'A' && text[i + 1] <= 'F'))
            return false;
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
        if (i < text.size()) {
            if (text[i] != ' ') return false;
            ++i;
        }
    }
    return true;
}

} // namespace gamefmt::test
