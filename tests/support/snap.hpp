// A minimal reader of insta `.snap` files (rbx-dom's golden dumps): the `---` header, then the YAML
// subset those files use (block maps and `- ` lists indented two spaces per level, flow `[…]`/`{…}`,
// plain, `~` and double-quoted scalars). No YAML library: this is only for the conformance tests.
#pragma once

#include <filesystem>
#include <map>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gamefmt::test {

struct SnapNode {
    enum class Kind { Null, Scalar, List, Map };
    Kind kind = Kind::Null;
    std::string scalar;          // Scalar: the text, unescaped when quoted
    bool quoted = false;         // Scalar: written in double quotes (so "true" is a string, not a bool)
    std::vector<SnapNode> items; // List
    std::vector<std::pair<std::string, SnapNode>> entries; // Map, in file order
    int line = 0;                                          // 1-based line in the file, for messages

    bool isNull() const { return kind == Kind::Null; }
    bool isScalar() const { return kind == Kind::Scalar; }
    bool isList() const { return kind == Kind::List; }
    bool isMap() const { return kind == Kind::Map; }
    // Map lookup; null when absent or not a map.
    const SnapNode *find(std::string_view key) const;
    // Map lookup that throws std::runtime_error naming the key and line when absent.
    const SnapNode &at(std::string_view key) const;
    // List element that throws when out of range.
    const SnapNode &at(std::size_t index) const;
    // The scalar text; throws when the node is not a scalar.
    const std::string &str() const;
    // A one-line rendering (for messages).
    std::string dump() const;
};

struct Snap {
    std::map<std::string, std::string> header; // source, expression, assertion_line
    SnapNode root;
};

// Throws std::runtime_error("<line>: problem") on text outside the supported subset.
Snap ParseSnap(std::string_view text);
Snap LoadSnap(const std::filesystem::path &path);

// Decodes a "00 1f ab " hex dump (rbx-dom's form for non-UTF-8 strings); false when not one.
bool ParseHexDump(std::string_view text, std::string &out);

} // namespace gamefmt::test
