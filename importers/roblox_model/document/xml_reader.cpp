// Roblox XML model/place reader (docs/formats/roblox-model.md §3): pugixml DOM → rbx::Document, lenient and lossless.
//
// Decisions:
//  * Parse flags: parse_default | parse_ws_pcdata_single, so a whitespace-only <string> keeps its text
//    while formatting whitespace between elements is dropped; CDATA and text are concatenated verbatim.
//  * Without reflection the type comes from the tag (plus the name rules of §3 for int/BrickColor and
//    Content); every String-typed value records the tag it was read from (Value::xmlTag) so that
//    XML → DOM → XML writes the same elements.
//  * PhysicalProperties: CustomPhysics false → flags 0, true → 1, true + AcousticAbsorption → 3.
//    XML cannot tell binary 00 from 02 (both "default"); comparisons treat (flags & 1) == 0 as default.
//  * Refs, Content objects and SharedStrings are resolved after the whole file is read (forward
//    references); an unknown referent becomes null, an unknown key an empty shared string, with a warning.
//  * Unknown tags keep pugixml's raw serialisation of their inner nodes (format_raw), not the original
//    bytes: equal XML, possibly different insignificant whitespace.
//  * <int> is a BrickColor when named BrickColor, brickColor, BrickColorValue.Value or anything ending in
//    "Color" (Constraint.Color, TeamColor, SkinColor, BodyColors.*Color: Studio writes all as <int>).
//  * Item nesting is limited to kMaxDepth; the traversal is iterative.
#include "importers/roblox_model/document/xml_reader.hpp"
#include "importers/roblox_model/document/reader.hpp"

#include "common/base64.hpp"
#include "common/error.hpp"
#include "common/text_number.hpp"

#include <pugixml.hpp>

#include <cstring>
#include <set>
#include <sstream>
#include <string>
#include <string_view>
#include <unordered_map>
#include <variant>
#include <vector>

namespace gamefmt::rbx {
namespace {

constexpr std::size_t kMaxDepth = 4096;

bool IEquals(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (std::size_t i = 0; i < a.size(); ++i) {
        char x = a[i], y = b[i];
        if (x >= 'A' && x <= 'Z') x = char(x - 'A' + 'a');
        if (y >= 'A' && y <= 'Z') y = char(y - 'A' + 'a');
        if (x != y) return false;
    }
    return true;
}

bool EndsWith(std::string_view s, std::string_view suffix) {
    return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

std::size_t Offset(const pugi::xml_node &node) {
    const std::ptrdiff_t o = node.offset_debug();
    if (o <= 0) return FormatError::kNoOffset;
    // offset_debug points at the element name; report the '<' before it.
    return node.type() == pugi::node_element ? std::size_t(o - 1) : std::size_t(o);
}

[[noreturn]] void Fail(const pugi::xml_node &node, const std::string &message) {
    throw FormatError(kFormatName, message, Offset(node));
}

// All text and CDATA children of `node`, concatenated.
std::string Text(const pugi::xml_node &node) {
    std::string out;
    for (pugi::xml_node c = node.first_child(); c; c = c.next_sibling())
        if (c.type() == pugi::node_pcdata || c.type() == pugi::node_cdata) out += c.value();
    return out;
}

// The text of a number element without a heap allocation in the usual case (one text child).
std::string_view NumberText(const pugi::xml_node &node, std::string &scratch) {
    const pugi::xml_node c = node.first_child();
    if (c && !c.next_sibling() && (c.type() == pugi::node_pcdata || c.type() == pugi::node_cdata))
        return TrimAscii(c.value());
    if (!c) return {};
    scratch = Text(node);
    return TrimAscii(scratch);
}

// The first element child named `name` (case-insensitive), or an empty node.
pugi::xml_node Child(const pugi::xml_node &node, std::string_view name) {
    for (pugi::xml_node c = node.first_child(); c; c = c.next_sibling())
        if (c.type() == pugi::node_element && IEquals(c.name(), name)) return c;
    return {};
}

bool HasElementChild(const pugi::xml_node &node) {
    for (pugi::xml_node c = node.first_child(); c; c = c.next_sibling())
        if (c.type() == pugi::node_element) return true;
    return false;
}

float ParseF32(const pugi::xml_node &node) {
    std::string scratch;
    const std::string_view text = NumberText(node, scratch);
    float v = 0;
    if (!ParseFloat(text, v)) Fail(node, "invalid float '" + QuoteText(text) + "'");
    return v;
}
double ParseF64(const pugi::xml_node &node) {
    std::string scratch;
    const std::string_view text = NumberText(node, scratch);
    double v = 0;
    if (!ParseDouble(text, v)) Fail(node, "invalid double '" + QuoteText(text) + "'");
    return v;
}
std::int64_t ParseI64(const pugi::xml_node &node) {
    std::string scratch;
    const std::string_view text = NumberText(node, scratch);
    std::int64_t v = 0;
    if (!ParseInt64(text, v)) Fail(node, "invalid integer '" + QuoteText(text) + "'");
    return v;
}
std::int32_t ParseI32(const pugi::xml_node &node) {
    const std::string text = Text(node);
    std::int32_t v = 0;
    if (!ParseInt32(TrimAscii(text), v)) {
        // Some writers store unsigned 32-bit values (e.g. colours) in <int>: keep the bits.
        std::uint32_t u = 0;
        if (!ParseUInt32(TrimAscii(text), u)) Fail(node, "invalid int '" + QuoteText(text) + "'");
        v = std::int32_t(u);
    }
    return v;
}
std::uint64_t ParseU64(const pugi::xml_node &node) {
    const std::string text = Text(node);
    std::uint64_t v = 0;
    if (!ParseUInt64(TrimAscii(text), v)) {
        std::int64_t s = 0;
        if (!ParseInt64(TrimAscii(text), s)) Fail(node, "invalid integer '" + QuoteText(text) + "'");
        v = std::uint64_t(s);
    }
    return v;
}
std::uint32_t ParseU32(const pugi::xml_node &node) {
    const std::string text = Text(node);
    std::uint32_t v = 0;
    if (!ParseUInt32(TrimAscii(text), v)) {
        std::int32_t s = 0;
        if (!ParseInt32(TrimAscii(text), s)) Fail(node, "invalid integer '" + QuoteText(text) + "'");
        v = std::uint32_t(s);
    }
    return v;
}
bool ParseBoolText(const pugi::xml_node &node) {
    const std::string text = Text(node);
    const std::string_view t = TrimAscii(text);
    if (IEquals(t, "true")) return true;
    if (IEquals(t, "false")) return false;
    Fail(node, "invalid bool '" + QuoteText(text) + "'");
}

// Children read by name, any order; a missing child is 0.
float F32Child(const pugi::xml_node &node, std::string_view name) {
    const pugi::xml_node c = Child(node, name);
    return c ? ParseF32(c) : 0.0f;
}
std::int64_t I64Child(const pugi::xml_node &node, std::string_view name) {
    const pugi::xml_node c = Child(node, name);
    return c ? ParseI64(c) : 0;
}
std::int32_t I32Child(const pugi::xml_node &node, std::string_view name) {
    const pugi::xml_node c = Child(node, name);
    return c ? ParseI32(c) : 0;
}
std::int16_t I16Child(const pugi::xml_node &node, std::string_view name) {
    const std::int64_t v = I64Child(node, name);
    if (v < -32768 || v > 32767) Fail(Child(node, name), "int16 out of range");
    return std::int16_t(v);
}

Vector2 ReadVector2(const pugi::xml_node &node) {
    return {F32Child(node, "X"), F32Child(node, "Y")};
}
Vector3 ReadVector3(const pugi::xml_node &node) {
    return {F32Child(node, "X"), F32Child(node, "Y"), F32Child(node, "Z")};
}

CFrame ReadCFrame(const pugi::xml_node &node) {
    static const char *const kNames[12] = {"X",   "Y",   "Z",   "R00", "R01", "R02",
                                           "R10", "R11", "R12", "R20", "R21", "R22"};
    CFrame cf;
    bool seen[12] = {};
    float v[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1}; // missing rotation → identity
    for (pugi::xml_node c = node.first_child(); c; c = c.next_sibling()) {
        if (c.type() != pugi::node_element) continue;
        for (int i = 0; i < 12; ++i) {
            if (!seen[i] && IEquals(c.name(), kNames[i])) {
                v[i] = ParseF32(c);
                seen[i] = true;
                break;
            }
        }
    }
    cf.position = {v[0], v[1], v[2]};
    for (int i = 0; i < 9; ++i) cf.rotation[std::size_t(i)] = v[3 + i];
    return cf;
}

std::vector<float> ParseFloatList(const pugi::xml_node &node) {
    const std::string text = Text(node);
    std::vector<float> out;
    std::size_t i = 0;
    const auto isSpace = [](char ch) {
        return ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f';
    };
    while (i < text.size()) {
        while (i < text.size() && isSpace(text[i])) ++i;
        std::size_t j = i;
        while (j < text.size() && !isSpace(text[j])) ++j;
        if (j > i) {
            float v = 0;
            if (!ParseFloat(std::string_view(text).substr(i, j - i), v)) Fail(node, "invalid number in list");
            out.push_back(v);
        }
        i = j;
    }
    return out;
}

std::string DecodeBase64(const pugi::xml_node &node, const std::string &text) {
    std::string clean;
    clean.reserve(text.size());
    for (char ch : text)
        if (!(ch == ' ' || ch == '\t' || ch == '\n' || ch == '\r' || ch == '\v' || ch == '\f')) clean += ch;
    if (clean.size() % 4 == 2)
        clean += "==";
    else if (clean.size() % 4 == 3)
        clean += "=";
    if (clean.empty()) return {};
    auto bytes = Base64Decode(clean);
    if (!bytes) Fail(node, "invalid base64");
    return std::string(bytes->begin(), bytes->end());
}

int HexDigit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    return -1;
}

std::uint64_t Rotl64(std::uint64_t v, unsigned n) {
    return (v << n) | (v >> (64 - n));
}

enum class Pending : std::uint8_t { Ref, ContentObject, SharedString };
struct Fixup {
    Pending kind;
    std::uint32_t instance;
    std::size_t property;
    std::string key;
    std::size_t offset;
};

class XmlReader {
public:
    XmlReader(Document &doc, const ReadOptions &options) : mDoc(doc), mOptions(options) {}

    void read(const std::uint8_t *data, std::size_t size) {
        pugi::xml_document xml;
        const pugi::xml_parse_result result =
            xml.load_buffer(data, size, pugi::parse_default | pugi::parse_ws_pcdata_single, pugi::encoding_utf8);
        if (!result)
            throw FormatError(kFormatName, std::string("XML parse error: ") + result.description(),
                              std::size_t(result.offset));
        pugi::xml_node root;
        for (pugi::xml_node c = xml.first_child(); c; c = c.next_sibling())
            if (c.type() == pugi::node_element) {
                root = c;
                break;
            }
        if (!root || !IEquals(root.name(), "roblox")) throw FormatError(kFormatName, "root element is not <roblox>", 0);
        const pugi::xml_attribute version = root.attribute("version");
        if (!version) Fail(root, "<roblox> has no version attribute");
        std::uint32_t v = 0;
        if (!ParseUInt32(TrimAscii(version.value()), v) || v != 4)
            Fail(root, "unsupported XML version '" + QuoteText(version.value()) + "' (expected 4)");

        for (pugi::xml_node c = root.first_child(); c; c = c.next_sibling()) {
            if (c.type() != pugi::node_element) continue;
            const std::string_view name = c.name();
            if (IEquals(name, "Item"))
                readItems(c);
            else if (IEquals(name, "Meta"))
                mDoc.meta.emplace_back(c.attribute("name").value(), Text(c));
            else if (IEquals(name, "SharedStrings"))
                readSharedStrings(c);
            else {
                std::ostringstream raw;
                c.print(raw, "", pugi::format_raw);
                mDoc.xmlUnknownTopLevel.push_back(raw.str());
            }
        }
        resolve();
    }

private:
    void warnOnce(const std::string &key, const std::string &message) {
        if (mWarned.insert(key).second) mDoc.warnings.push_back(message);
    }

    void readSharedStrings(const pugi::xml_node &node) {
        for (pugi::xml_node c = node.first_child(); c; c = c.next_sibling()) {
            if (c.type() != pugi::node_element) continue;
            if (!IEquals(c.name(), "SharedString")) {
                warnOnce("sstag:" + std::string(c.name()),
                         std::string("ignored <") + c.name() + "> in <SharedStrings>");
                continue;
            }
            SharedStringEntry entry;
            entry.xmlKey = c.attribute("md5").value();
            entry.content = DecodeBase64(c, Text(c));
            if (mSharedKeys.count(entry.xmlKey)) {
                mDoc.warnings.push_back("duplicate SharedString key '" + QuoteText(entry.xmlKey) + "' (first kept)");
                continue;
            }
            mSharedKeys.emplace(entry.xmlKey, std::uint32_t(mDoc.sharedStrings.size()));
            mDoc.sharedStrings.push_back(std::move(entry));
        }
    }

    // Iterative pre-order walk so that hostile nesting cannot exhaust the stack.
    void readItems(const pugi::xml_node &top) {
        struct Frame {
            pugi::xml_node node;
            std::uint32_t parent;
            std::size_t depth;
        };
        std::vector<Frame> stack{{top, kNoInstance, 1}};
        std::vector<pugi::xml_node> kids;
        while (!stack.empty()) {
            const Frame f = stack.back();
            stack.pop_back();
            if (f.depth > kMaxDepth) Fail(f.node, "Item nesting deeper than " + std::to_string(kMaxDepth));
            if (mDoc.instances.size() >= mOptions.maxInstances)
                Fail(f.node, "more than " + std::to_string(mOptions.maxInstances) +
                                 " instances (GAMEFMT_RBX_MAX_INSTANCES, --rbx-max-instances)");
            const std::uint32_t index = mDoc.addInstance(f.node.attribute("class").value(), "");
            Instance &inst = mDoc.instances[index];
            if (const pugi::xml_attribute ref = f.node.attribute("referent")) {
                inst.referent = ref.value();
                if (!inst.referent.empty() && inst.referent != "null") {
                    if (!mReferents.emplace(inst.referent, index).second)
                        mDoc.warnings.push_back("duplicate referent '" + QuoteText(inst.referent) + "' (first kept)");
                }
            }
            mDoc.setParent(index, f.parent);
            kids.clear();
            for (pugi::xml_node c = f.node.first_child(); c; c = c.next_sibling()) {
                if (c.type() != pugi::node_element) continue;
                if (IEquals(c.name(), "Properties"))
                    readProperties(c, index);
                else if (IEquals(c.name(), "Item"))
                    kids.push_back(c);
                else
                    warnOnce("itemchild:" + std::string(c.name()),
                             std::string("ignored <") + c.name() + "> inside <Item>");
            }
            for (auto it = kids.rbegin(); it != kids.rend(); ++it) stack.push_back({*it, index, f.depth + 1});
        }
    }

    void readProperties(const pugi::xml_node &props, std::uint32_t index) {
        for (pugi::xml_node p = props.first_child(); p; p = p.next_sibling()) {
            if (p.type() != pugi::node_element) continue;
            const std::string name = p.attribute("name").value();
            if (mOptions.keepProperty && name != "Name" && !mOptions.keepProperty(name)) continue;
            Value value;
            Pending pending = Pending::Ref;
            std::string key;
            bool hasPending = false;
            readValue(p, name, value, pending, key, hasPending);
            Instance &inst = mDoc.instances[index];
            if (name == "Name" && value.type == Type::String) {
                inst.name = std::move(value.as<std::string>());
                continue;
            }
            const std::uint32_t nameId = mDoc.names.intern(name);
            std::size_t slot = inst.properties.size();
            for (std::size_t i = 0; i < inst.properties.size(); ++i)
                if (inst.properties[i].name == nameId) {
                    slot = i;
                    mDoc.warnings.push_back("property '" + QuoteText(name) + "' repeated on an instance (last wins)");
                    break;
                }
            if (slot == inst.properties.size())
                inst.properties.push_back({nameId, std::move(value)});
            else
                inst.properties[slot].value = std::move(value);
            if (hasPending) mFixups.push_back({pending, index, slot, std::move(key), Offset(p)});
        }
    }

    static void SetString(Value &v, std::string s, XmlTag tag) {
        v.type = Type::String;
        v.data = std::move(s);
        v.xmlTag = tag;
    }

    void readContent(const pugi::xml_node &p, const std::string &name, Value &v, Pending &pending, std::string &key,
                     bool &hasPending, bool contentIdTag) {
        const bool contentName = !contentIdTag && EndsWith(name, "Content");
        pugi::xml_node child;
        for (pugi::xml_node c = p.first_child(); c; c = c.next_sibling())
            if (c.type() == pugi::node_element) {
                child = c;
                break;
            }
        if (!child) {
            // No child element: old writers put the URL as text.
            std::string text = Text(p);
            if (contentName) {
                Content content;
                if (!text.empty()) {
                    content.source = Content::Source::Uri;
                    content.uri = std::move(text);
                }
                v.type = Type::Content;
                v.data = std::move(content);
                v.xmlTag = XmlTag::ContentUrl;
            } else {
                SetString(v, std::move(text), contentIdTag ? XmlTag::ContentId : XmlTag::ContentUrl);
            }
            return;
        }
        const std::string_view cn = child.name();
        if (IEquals(cn, "url")) {
            if (contentName) {
                Content content;
                content.source = Content::Source::Uri;
                content.uri = Text(child);
                v.type = Type::Content;
                v.data = std::move(content);
                v.xmlTag = XmlTag::ContentUrl;
            } else {
                SetString(v, Text(child), contentIdTag ? XmlTag::ContentId : XmlTag::ContentUrl);
            }
        } else if (IEquals(cn, "uri")) {
            Content content;
            content.source = Content::Source::Uri;
            content.uri = Text(child);
            v.type = Type::Content;
            v.data = std::move(content);
        } else if (IEquals(cn, "Ref")) {
            Content content;
            const std::string target = std::string(TrimAscii(Text(child)));
            if (!target.empty() && target != "null") {
                content.source = Content::Source::Object;
                pending = Pending::ContentObject;
                key = target;
                hasPending = true;
            }
            v.type = Type::Content;
            v.data = std::move(content);
        } else if (IEquals(cn, "null")) {
            if (contentName) {
                v.type = Type::Content;
                v.data = Content{};
            } else {
                SetString(v, std::string(), contentIdTag ? XmlTag::ContentId : XmlTag::ContentNull);
            }
        } else if (IEquals(cn, "binary")) {
            SetString(v, DecodeBase64(child, Text(child)), XmlTag::ContentBinary);
        } else if (IEquals(cn, "hash")) {
            SetString(v, Text(child), XmlTag::ContentHash);
        } else {
            Fail(child, std::string("unknown <") + child.name() + "> in <Content>");
        }
    }

    // string, ProtectedString, BinaryString, bool, int (or a BrickColor named so), BrickColor, int64, float,
    // double, token.
    bool readScalarTag(const pugi::xml_node &p, std::string_view tag, const std::string &name, Value &v) {
        if (IEquals(tag, "string")) {
            SetString(v, Text(p), XmlTag::String);
        } else if (IEquals(tag, "ProtectedString")) {
            SetString(v, Text(p), XmlTag::ProtectedString);
        } else if (IEquals(tag, "BinaryString")) {
            SetString(v, DecodeBase64(p, Text(p)), XmlTag::BinaryString);
        } else if (IEquals(tag, "bool")) {
            v.type = Type::Bool;
            v.data = ParseBoolText(p);
        } else if (IEquals(tag, "int")) {
            // §3 names BrickColor, brickColor, TeamColor and BrickColorValue.Value; Studio also writes
            // Constraint.Color, BodyColors.HeadColor, SkinColor… as <int>, so any int named "…Color" is one.
            const bool brick =
                EndsWith(name, "Color") || name == "brickColor" || (name == "Value" && IsBrickColorValueItem(p));
            if (brick) {
                v.type = Type::BrickColor;
                v.data = BrickColor{std::uint32_t(ParseI32(p))};
            } else {
                v.type = Type::Int32;
                v.data = ParseI32(p);
            }
        } else if (IEquals(tag, "BrickColor")) {
            v.type = Type::BrickColor;
            v.data = BrickColor{ParseU32(p)};
        } else if (IEquals(tag, "int64")) {
            v.type = Type::Int64;
            v.data = Int64Value{ParseI64(p)};
        } else if (IEquals(tag, "float")) {
            v.type = Type::Float32;
            v.data = ParseF32(p);
        } else if (IEquals(tag, "double")) {
            v.type = Type::Float64;
            v.data = ParseF64(p);
        } else if (IEquals(tag, "token")) {
            v.type = Type::Enum;
            v.data = EnumValue{ParseU32(p)};
        } else {
            return false;
        }
        return true;
    }

    // UDim, UDim2, Ray, Faces, Axes, Vector2, Vector3, Vector2int16, Vector3int16.
    bool readVectorTag(const pugi::xml_node &p, std::string_view tag, Value &v) {
        if (IEquals(tag, "UDim")) {
            v.type = Type::UDim;
            v.data = UDim{F32Child(p, "S"), I32Child(p, "O")};
        } else if (IEquals(tag, "UDim2")) {
            v.type = Type::UDim2;
            v.data = UDim2{{F32Child(p, "XS"), I32Child(p, "XO")}, {F32Child(p, "YS"), I32Child(p, "YO")}};
        } else if (IEquals(tag, "Ray")) {
            Ray r;
            if (const pugi::xml_node o = Child(p, "origin")) r.origin = ReadVector3(o);
            if (const pugi::xml_node d = Child(p, "direction")) r.direction = ReadVector3(d);
            v.type = Type::Ray;
            v.data = r;
        } else if (IEquals(tag, "Faces")) {
            const pugi::xml_node c = Child(p, "faces");
            const std::int64_t bits = c ? ParseI64(c) : 0;
            if (bits < 0 || bits > 63) Fail(p, "Faces value out of range");
            v.type = Type::Faces;
            v.data = Faces{std::uint8_t(bits)};
        } else if (IEquals(tag, "Axes")) {
            const pugi::xml_node c = Child(p, "axes");
            const std::int64_t bits = c ? ParseI64(c) : 0;
            if (bits < 0 || bits > 7) Fail(p, "Axes value out of range");
            v.type = Type::Axes;
            v.data = Axes{std::uint8_t(bits)};
        } else if (IEquals(tag, "Vector2")) {
            v.type = Type::Vector2;
            v.data = ReadVector2(p);
        } else if (IEquals(tag, "Vector3")) {
            v.type = Type::Vector3;
            v.data = ReadVector3(p);
        } else if (IEquals(tag, "Vector2int16")) {
            v.type = Type::Vector2int16;
            v.data = Vector2int16{I16Child(p, "X"), I16Child(p, "Y")};
        } else if (IEquals(tag, "Vector3int16")) {
            v.type = Type::Vector3int16;
            v.data = Vector3int16{I16Child(p, "X"), I16Child(p, "Y"), I16Child(p, "Z")};
        } else {
            return false;
        }
        return true;
    }

    // Color3 (components or packed), Color3uint8, CoordinateFrame / CFrame, OptionalCoordinateFrame.
    bool readColorOrFrameTag(const pugi::xml_node &p, std::string_view tag, Value &v) {
        if (IEquals(tag, "Color3")) {
            v.type = Type::Color3;
            if (!HasElementChild(p) && !TrimAscii(Text(p)).empty()) {
                // Legacy packed 0xAARRGGBB.
                const std::uint32_t packed = ParseU32(p);
                v.data = Color3{float((packed >> 16) & 0xFF) / 255.0f, float((packed >> 8) & 0xFF) / 255.0f,
                                float(packed & 0xFF) / 255.0f};
                v.xmlTag = XmlTag::Color3Packed;
            } else {
                v.data = Color3{F32Child(p, "R"), F32Child(p, "G"), F32Child(p, "B")};
            }
        } else if (IEquals(tag, "Color3uint8")) {
            const std::uint32_t packed = ParseU32(p) & 0xFFFFFFu;
            v.type = Type::Color3uint8;
            v.data = Color3uint8{std::uint8_t(packed >> 16), std::uint8_t(packed >> 8), std::uint8_t(packed)};
        } else if (IEquals(tag, "CoordinateFrame") || IEquals(tag, "CFrame")) {
            v.type = Type::CFrame;
            v.data = ReadCFrame(p);
        } else if (IEquals(tag, "OptionalCoordinateFrame")) {
            OptionalCFrame o;
            if (const pugi::xml_node c = Child(p, "CFrame")) {
                o.present = true;
                o.value = ReadCFrame(c);
            }
            v.type = Type::OptionalCFrame;
            v.data = o;
        } else {
            return false;
        }
        return true;
    }

    // NumberSequence, ColorSequence, NumberRange, Rect2D, PhysicalProperties.
    bool readSequenceTag(const pugi::xml_node &p, std::string_view tag, Value &v) {
        if (IEquals(tag, "NumberSequence")) {
            const std::vector<float> f = ParseFloatList(p);
            if (f.size() % 3 != 0) Fail(p, "NumberSequence needs time/value/envelope triples");
            NumberSequence s;
            s.keypoints.reserve(f.size() / 3);
            for (std::size_t i = 0; i < f.size(); i += 3) s.keypoints.push_back({f[i], f[i + 1], f[i + 2]});
            v.type = Type::NumberSequence;
            v.data = std::move(s);
        } else if (IEquals(tag, "ColorSequence")) {
            const std::vector<float> f = ParseFloatList(p);
            if (f.size() % 5 != 0) Fail(p, "ColorSequence needs time/r/g/b/envelope quintuples");
            ColorSequence s;
            s.keypoints.reserve(f.size() / 5);
            for (std::size_t i = 0; i < f.size(); i += 5)
                s.keypoints.push_back({f[i], Color3{f[i + 1], f[i + 2], f[i + 3]}, f[i + 4]});
            v.type = Type::ColorSequence;
            v.data = std::move(s);
        } else if (IEquals(tag, "NumberRange")) {
            const std::vector<float> f = ParseFloatList(p);
            if (f.size() != 2) Fail(p, "NumberRange needs two numbers");
            v.type = Type::NumberRange;
            v.data = NumberRange{f[0], f[1]};
        } else if (IEquals(tag, "Rect2D")) {
            Rect r;
            if (const pugi::xml_node c = Child(p, "min")) r.min = ReadVector2(c);
            if (const pugi::xml_node c = Child(p, "max")) r.max = ReadVector2(c);
            v.type = Type::Rect;
            v.data = r;
        } else if (IEquals(tag, "PhysicalProperties")) {
            PhysicalProperties pp;
            const pugi::xml_node custom = Child(p, "CustomPhysics");
            if (custom && ParseBoolText(custom)) {
                pp.flags = 1;
                pp.density = F32Child(p, "Density");
                pp.friction = F32Child(p, "Friction");
                pp.elasticity = F32Child(p, "Elasticity");
                pp.frictionWeight = F32Child(p, "FrictionWeight");
                pp.elasticityWeight = F32Child(p, "ElasticityWeight");
                if (const pugi::xml_node a = Child(p, "AcousticAbsorption")) {
                    pp.flags = 3;
                    pp.acousticAbsorption = ParseF32(a);
                }
            }
            v.type = Type::PhysicalProperties;
            v.data = pp;
        } else {
            return false;
        }
        return true;
    }

    // Ref, SharedString / NetAssetRef (resolved once the file is read), UniqueId, Font, SecurityCapabilities,
    // Content, ContentId.
    bool readReferenceTag(const pugi::xml_node &p, std::string_view tag, const std::string &name, Value &v,
                          Pending &pending, std::string &key, bool &hasPending) {
        if (IEquals(tag, "Ref")) {
            v.type = Type::Ref;
            v.data = RefValue{};
            const std::string target = std::string(TrimAscii(Text(p)));
            if (!target.empty() && target != "null") {
                pending = Pending::Ref;
                key = target;
                hasPending = true;
            }
        } else if (IEquals(tag, "SharedString") || IEquals(tag, "NetAssetRef")) {
            v.type = Type::SharedString;
            v.data = SharedStringRef{};
            if (IEquals(tag, "NetAssetRef")) v.xmlTag = XmlTag::NetAssetRef;
            pending = Pending::SharedString;
            key = std::string(TrimAscii(Text(p)));
            hasPending = true;
        } else if (IEquals(tag, "UniqueId")) {
            const std::string text = std::string(TrimAscii(Text(p)));
            if (text.size() != 32) Fail(p, "UniqueId must be 32 hex digits");
            std::uint64_t parts[3] = {0, 0, 0};
            const std::size_t lengths[3] = {16, 8, 8};
            std::size_t pos = 0;
            for (int k = 0; k < 3; ++k)
                for (std::size_t i = 0; i < lengths[k]; ++i, ++pos) {
                    const int d = HexDigit(text[pos]);
                    if (d < 0) Fail(p, "UniqueId must be 32 hex digits");
                    parts[k] = (parts[k] << 4) | std::uint64_t(d);
                }
            v.type = Type::UniqueId;
            v.data = UniqueId{std::uint32_t(parts[2]), std::uint32_t(parts[1]), Rotl64(parts[0], 1)};
        } else if (IEquals(tag, "Font")) {
            Font font;
            if (const pugi::xml_node fam = Child(p, "Family")) {
                const pugi::xml_node url = Child(fam, "url");
                font.family = url ? Text(url) : Text(fam);
            }
            if (const pugi::xml_node w = Child(p, "Weight")) {
                const std::int64_t weight = ParseI64(w);
                if (weight < 0 || weight > 65535) Fail(w, "Font weight out of range");
                font.weight = std::uint16_t(weight);
            }
            if (const pugi::xml_node s = Child(p, "Style")) {
                const std::string text = std::string(TrimAscii(Text(s)));
                if (IEquals(text, "Normal") || text == "0")
                    font.style = 0;
                else if (IEquals(text, "Italic") || text == "1")
                    font.style = 1;
                else
                    Fail(s, "unknown Font style '" + QuoteText(text) + "'");
            }
            if (const pugi::xml_node c = Child(p, "CachedFaceId")) {
                const pugi::xml_node url = Child(c, "url");
                font.cachedFaceId = url ? Text(url) : Text(c);
            }
            v.type = Type::Font;
            v.data = std::move(font);
        } else if (IEquals(tag, "SecurityCapabilities")) {
            v.type = Type::SecurityCapabilities;
            v.data = SecurityCapabilities{ParseU64(p)};
        } else if (IEquals(tag, "Content")) {
            readContent(p, name, v, pending, key, hasPending, false);
        } else if (IEquals(tag, "ContentId")) {
            readContent(p, name, v, pending, key, hasPending, true);
        } else {
            return false;
        }
        return true;
    }

    void readValue(const pugi::xml_node &p, const std::string &name, Value &v, Pending &pending, std::string &key,
                   bool &hasPending) {
        const std::string_view tag = p.name();
        if (readScalarTag(p, tag, name, v) || readVectorTag(p, tag, v) || readColorOrFrameTag(p, tag, v) ||
            readSequenceTag(p, tag, v) || readReferenceTag(p, tag, name, v, pending, key, hasPending))
            return;
        warnOnce("tag:" + std::string(tag), "unknown XML property type <" + std::string(tag) + "> kept raw");
        UnknownValue u;
        u.xmlTag = std::string(tag);
        std::ostringstream raw;
        for (pugi::xml_node c = p.first_child(); c; c = c.next_sibling()) c.print(raw, "", pugi::format_raw);
        u.raw = raw.str();
        v.type = Type::Unknown;
        v.data = std::move(u);
    }

    // BrickColorValue.Value is a BrickColor in an <int>.
    static bool IsBrickColorValueItem(const pugi::xml_node &p) {
        const pugi::xml_node item = p.parent().parent();
        return std::strcmp(item.attribute("class").value(), "BrickColorValue") == 0;
    }

    void resolve() {
        for (const Fixup &f : mFixups) {
            Value &value = mDoc.instances[f.instance].properties[f.property].value;
            // A repeated property of another type may have replaced the value since (last wins).
            const bool stale = f.kind == Pending::SharedString ? !std::holds_alternative<SharedStringRef>(value.data)
                               : f.kind == Pending::Ref        ? !std::holds_alternative<RefValue>(value.data)
                                                               : !std::holds_alternative<Content>(value.data);
            if (stale) continue;
            if (f.kind == Pending::SharedString) {
                auto it = mSharedKeys.find(f.key);
                if (it == mSharedKeys.end()) {
                    warnOnce("sskey:" + f.key, "unknown SharedString key '" + QuoteText(f.key) + "' at byte offset " +
                                                   std::to_string(f.offset) + " (empty string used)");
                    if (mEmptyShared == kNoInstance) {
                        mEmptyShared = std::uint32_t(mDoc.sharedStrings.size());
                        mDoc.sharedStrings.push_back({});
                    }
                    value.as<SharedStringRef>().index = mEmptyShared;
                } else {
                    value.as<SharedStringRef>().index = it->second;
                }
                continue;
            }
            auto it = mReferents.find(f.key);
            const std::uint32_t target = it == mReferents.end() ? kNoInstance : it->second;
            if (target == kNoInstance)
                mDoc.warnings.push_back("unknown referent '" + QuoteText(f.key) + "' at byte offset " +
                                        std::to_string(f.offset) + " (null used)");
            if (f.kind == Pending::Ref) {
                value.as<RefValue>().target = target;
            } else {
                Content &c = value.as<Content>();
                c.object = target;
                if (target == kNoInstance) c.source = Content::Source::None;
            }
        }
    }

    Document &mDoc;
    std::unordered_map<std::string, std::uint32_t> mReferents;
    std::unordered_map<std::string, std::uint32_t> mSharedKeys;
    std::vector<Fixup> mFixups;
    const ReadOptions &mOptions;
    std::set<std::string> mWarned;
    std::uint32_t mEmptyShared = kNoInstance;
};

} // namespace

Document ReadXml(const std::uint8_t *data, std::size_t size, const ReadOptions &options) {
    Document doc;
    doc.sourceEncoding = Encoding::Xml;
    XmlReader reader(doc, options);
    reader.read(data, size);
    return doc;
}

} // namespace gamefmt::rbx
