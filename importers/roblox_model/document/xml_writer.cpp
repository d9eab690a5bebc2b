// Roblox XML model/place writer (docs/formats/roblox-model.md §3, §6): rbx::Document → Studio-layout XML text.
//
// Decisions:
//  * Floats are the shortest round-trip text (exactness over Studio's 9 digits), INF/-INF/NAN.
//  * Referents: an instance keeps its referent when it is non-empty, not "null" and not used before;
//    otherwise "RBX" + 32 uppercase hex derived from the instance index (deterministic, collision-checked).
//  * String tags: the tag recorded by the XML reader when the text can be written that way, else the
//    rules of "Types without reflection"; any string that is not XML-safe UTF-8 becomes <BinaryString>.
//  * SharedString keys: the xmlKey read from XML, else base64 of the binary SSTR hash when non-zero, else
//    base64 of a 128-bit FNV-1a digest of the content; keys are made unique. All entries are written, in
//    order, at the end, base64 wrapped at 72 columns.
//  * Values that XML cannot hold (Type::Unknown read from binary) are skipped; Bytecode is written as
//    <BinaryString> (reads back as String).
#include "importers/roblox_model/document/xml_writer.hpp"

#include "common/base64.hpp"
#include "common/error.hpp"
#include "common/text_number.hpp"

#include <algorithm>
#include <cstring>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace gamefmt::rbx {
namespace {

bool IsXmlSafeUtf8(std::string_view s) {
    const auto *p = reinterpret_cast<const unsigned char *>(s.data());
    const std::size_t n = s.size();
    std::size_t i = 0;
    while (i < n) {
        const unsigned char c = p[i];
        if (c < 0x80) {
            if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') return false;
            ++i;
            continue;
        }
        std::size_t len = 0;
        std::uint32_t cp = 0;
        if ((c & 0xE0) == 0xC0)
            len = 2, cp = c & 0x1F;
        else if ((c & 0xF0) == 0xE0)
            len = 3, cp = c & 0x0F;
        else if ((c & 0xF8) == 0xF0)
            len = 4, cp = c & 0x07;
        else
            return false;
        if (i + len > n) return false;
        for (std::size_t k = 1; k < len; ++k) {
            if ((p[i + k] & 0xC0) != 0x80) return false;
            cp = (cp << 6) | (p[i + k] & 0x3F);
        }
        if ((len == 2 && cp < 0x80) || (len == 3 && cp < 0x800) || (len == 4 && cp < 0x10000) || cp > 0x10FFFF ||
            (cp >= 0xD800 && cp <= 0xDFFF) || cp == 0xFFFE || cp == 0xFFFF)
            return false;
        i += len;
    }
    return true;
}

bool StartsWith(std::string_view s, std::string_view p) {
    return s.size() >= p.size() && s.substr(0, p.size()) == p;
}

bool IsBinaryStringName(std::string_view name) {
    static const char *const kNames[] = {
        "AttributesSerialize", "Tags",     "MaterialColors", "SmoothGrid", "PhysicsGrid",
        "PhysicsData",         "MeshData", "ChildData",      "LODData"};
    for (const char *n : kNames)
        if (name == n) return true;
    return false;
}

bool IsContentIdName(std::string_view name) {
    static const char *const kNames[] = {"MeshId",    "TextureID",    "TextureId",   "Texture",
                                         "Image",     "SoundId",      "AnimationId", "ColorMap",
                                         "NormalMap", "MetalnessMap", "RoughnessMap"};
    for (const char *n : kNames)
        if (name == n) return true;
    return StartsWith(name, "Sky");
}

std::uint64_t Rotr64(std::uint64_t v, unsigned n) {
    return (v >> n) | (v << (64 - n));
}

class XmlWriter {
public:
    // With a sink the text goes out in pieces of about kPieceBytes and write() returns nothing.
    explicit XmlWriter(const Document &doc, const XmlSink *sink = nullptr) : mDoc(doc), mSink(sink) {}

    std::string write() {
        mOut.reserve(mSink != nullptr ? kPieceBytes + std::size_t{64} * 1024 : 256 + mDoc.instances.size() * 256);
        assignReferents();
        assignSharedKeys();
        mOut += "<roblox xmlns:xmime=\"http://www.w3.org/2005/05/xmlmime\" "
                "xmlns:xsi=\"http://www.w3.org/2001/XMLSchema-instance\" "
                "xsi:noNamespaceSchemaLocation=\"http://www.roblox.com/roblox.xsd\" version=\"4\">\n";
        for (const auto &[key, value] : mDoc.meta) {
            mOut += "\t<Meta name=\"";
            escapeAttr(key);
            mOut += "\">";
            escapeText(value);
            mOut += "</Meta>\n";
        }
        for (const std::string &raw : mDoc.xmlUnknownTopLevel) {
            mOut += '\t';
            mOut += raw;
            mOut += '\n';
        }
        // Iterative pre-order walk: deep trees must not exhaust the stack.
        struct Frame {
            std::uint32_t index;
            std::size_t next; // next child to visit
        };
        std::vector<Frame> stack;
        for (std::uint32_t root : mDoc.roots) {
            openItem(root, 1);
            stack.push_back({root, 0});
            while (!stack.empty()) {
                Frame &f = stack.back();
                const Instance &inst = mDoc.instances[f.index];
                if (f.next < inst.children.size()) {
                    const std::uint32_t child = inst.children[f.next++];
                    if (child >= mDoc.instances.size()) continue;
                    openItem(child, stack.size() + 1);
                    stack.push_back({child, 0});
                } else {
                    indent(stack.size());
                    mOut += "</Item>\n";
                    stack.pop_back();
                }
                flushIfFull();
            }
        }
        if (!mDoc.sharedStrings.empty()) {
            mOut += "\t<SharedStrings>\n";
            for (std::size_t i = 0; i < mDoc.sharedStrings.size(); ++i) {
                mOut += "\t\t<SharedString md5=\"";
                escapeAttr(mSharedKeys[i]);
                mOut += "\">";
                const std::string &c = mDoc.sharedStrings[i].content;
                const std::string b64 = Base64Encode(reinterpret_cast<const std::uint8_t *>(c.data()), c.size());
                for (std::size_t k = 0; k < b64.size(); k += 72) {
                    if (k) mOut += '\n';
                    mOut.append(b64, k, 72);
                }
                mOut += "</SharedString>\n";
                flushIfFull();
            }
            mOut += "\t</SharedStrings>\n";
        }
        mOut += "</roblox>";
        if (mSink == nullptr) return std::move(mOut);
        flush();
        return {};
    }

private:
    static constexpr std::size_t kPieceBytes = std::size_t(1) << 20;
    void flush() {
        if (!mOut.empty()) (*mSink)(mOut.data(), mOut.size());
        mOut.clear();
    }
    void flushIfFull() {
        if (mSink != nullptr && mOut.size() >= kPieceBytes) flush();
    }

    // Indentation stops growing past kMaxIndent tabs, so the output stays linear in the input however deep
    // the tree (a 3,000-deep chain would otherwise write 4.5 M tabs). Studio's files stay far shallower.
    static constexpr std::size_t kMaxIndent = 32;
    void indent(std::size_t depth) { mOut.append(std::min(depth, kMaxIndent), '\t'); }

    void escapeText(std::string_view s) {
        for (char c : s) {
            switch (c) {
            case '&':
                mOut += "&amp;";
                break;
            case '<':
                mOut += "&lt;";
                break;
            case '>':
                mOut += "&gt;";
                break;
            case '\r':
                mOut += "&#13;";
                break;
            default:
                mOut += c;
            }
        }
    }
    void escapeAttr(std::string_view s) {
        for (char c : s) {
            switch (c) {
            case '&':
                mOut += "&amp;";
                break;
            case '<':
                mOut += "&lt;";
                break;
            case '>':
                mOut += "&gt;";
                break;
            case '"':
                mOut += "&quot;";
                break;
            case '\r':
                mOut += "&#13;";
                break;
            case '\n':
                mOut += "&#10;";
                break;
            case '\t':
                mOut += "&#9;";
                break;
            default:
                mOut += c;
            }
        }
    }

    void assignReferents() {
        mReferents.resize(mDoc.instances.size());
        std::unordered_set<std::string> used;
        used.reserve(mDoc.instances.size() * 2);
        std::vector<std::uint32_t> generate;
        for (std::uint32_t i = 0; i < mDoc.instances.size(); ++i) {
            const std::string &r = mDoc.instances[i].referent;
            if (!r.empty() && r != "null" && IsXmlSafeUtf8(r) && used.insert(r).second)
                mReferents[i] = r;
            else
                generate.push_back(i);
        }
        static const char kHex[] = "0123456789ABCDEF";
        for (std::uint32_t i : generate) {
            for (std::uint64_t salt = 0;; ++salt) {
                std::string r = "RBX";
                const std::uint64_t hi = salt, lo = i;
                for (int k = 15; k >= 0; --k) r += kHex[(hi >> (k * 4)) & 15];
                for (int k = 15; k >= 0; --k) r += kHex[(lo >> (k * 4)) & 15];
                if (used.insert(r).second) {
                    mReferents[i] = std::move(r);
                    break;
                }
            }
        }
    }

    static std::string HashKey(const std::string &content, std::uint64_t salt) {
        std::uint64_t a = 0xcbf29ce484222325ull ^ salt, b = 0x84222325cbf29ce4ull + salt * 0x9E3779B97F4A7C15ull;
        for (unsigned char c : content) {
            a = (a ^ c) * 0x100000001b3ull;
            b = (b ^ c) * 0x100000001b3ull;
            b ^= b >> 29;
        }
        std::uint8_t bytes[16];
        for (int k = 0; k < 8; ++k) {
            bytes[k] = std::uint8_t(a >> (56 - 8 * k));
            bytes[8 + k] = std::uint8_t(b >> (56 - 8 * k));
        }
        return Base64Encode(bytes, 16);
    }

    void assignSharedKeys() {
        std::unordered_set<std::string> used;
        mSharedKeys.resize(mDoc.sharedStrings.size());
        for (std::size_t i = 0; i < mDoc.sharedStrings.size(); ++i) {
            const SharedStringEntry &e = mDoc.sharedStrings[i];
            std::string key = e.xmlKey;
            if (key.empty() || used.count(key)) {
                bool zero = true;
                for (std::uint8_t b : e.hash) zero = zero && b == 0;
                key = zero ? HashKey(e.content, 0) : Base64Encode(e.hash.data(), e.hash.size());
                for (std::uint64_t salt = 1; used.count(key); ++salt) key = HashKey(e.content, salt);
            }
            used.insert(key);
            mSharedKeys[i] = std::move(key);
        }
    }

    void openItem(std::uint32_t index, std::size_t depth) {
        const Instance &inst = mDoc.instances[index];
        indent(depth);
        mOut += "<Item class=\"";
        escapeAttr(mDoc.names.str(inst.className));
        mOut += "\" referent=\"";
        escapeAttr(mReferents[index]);
        mOut += "\">\n";
        indent(depth + 1);
        mOut += "<Properties>\n";
        writeString(depth + 2, "Name", inst.name, XmlTag::String);
        for (const Property &p : inst.properties) writeProperty(depth + 2, mDoc.names.str(p.name), p.value);
        indent(depth + 1);
        mOut += "</Properties>\n";
    }

    void open(std::size_t depth, const char *tag, std::string_view name) {
        indent(depth);
        mOut += '<';
        mOut += tag;
        mOut += " name=\"";
        escapeAttr(name);
        mOut += "\">";
    }
    void close(const char *tag) {
        mOut += "</";
        mOut += tag;
        mOut += ">\n";
    }
    // <tag name="name">body</tag> on one line.
    template <typename Body> void element(std::size_t depth, const char *tag, std::string_view name, Body &&body) {
        open(depth, tag, name);
        body();
        close(tag);
    }
    void field(const char *tag, float v) {
        mOut += '<';
        mOut += tag;
        mOut += '>';
        AppendFloat(mOut, v);
        mOut += "</";
        mOut += tag;
        mOut += '>';
    }
    void fieldInt(const char *tag, std::int64_t v) {
        mOut += '<';
        mOut += tag;
        mOut += '>';
        AppendInt(mOut, v);
        mOut += "</";
        mOut += tag;
        mOut += '>';
    }
    void cframeFields(const CFrame &cf) {
        static const char *const kR[9] = {"R00", "R01", "R02", "R10", "R11", "R12", "R20", "R21", "R22"};
        field("X", cf.position.x);
        field("Y", cf.position.y);
        field("Z", cf.position.z);
        for (int i = 0; i < 9; ++i) field(kR[i], cf.rotation[std::size_t(i)]);
    }
    void vector3Fields(const Vector3 &v) {
        field("X", v.x);
        field("Y", v.y);
        field("Z", v.z);
    }
    void base64(std::string_view s) {
        mOut += Base64Encode(reinterpret_cast<const std::uint8_t *>(s.data()), s.size());
    }

    void writeString(std::size_t depth, std::string_view name, const std::string &s, XmlTag tag) {
        if (tag == XmlTag::Default) {
            if (IsBinaryStringName(name))
                tag = XmlTag::BinaryString;
            else if (name == "Source")
                tag = XmlTag::ProtectedString;
            else if (IsContentIdName(name))
                tag = s.empty() ? XmlTag::ContentNull : XmlTag::ContentUrl;
            else
                tag = XmlTag::String;
        }
        if (tag != XmlTag::BinaryString && tag != XmlTag::ContentBinary && !IsXmlSafeUtf8(s))
            tag = XmlTag::BinaryString;
        switch (tag) {
        case XmlTag::ProtectedString:
            open(depth, "ProtectedString", name);
            if (s.find('\r') != std::string::npos) {
                escapeText(s); // CDATA cannot keep a carriage return through end-of-line normalisation
            } else {
                mOut += "<![CDATA[";
                std::size_t start = 0;
                for (std::size_t pos; (pos = s.find("]]>", start)) != std::string::npos; start = pos + 2) {
                    mOut.append(s, start, pos + 2 - start);
                    mOut += "]]><![CDATA[";
                }
                mOut.append(s, start, std::string::npos);
                mOut += "]]>";
            }
            close("ProtectedString");
            return;
        case XmlTag::BinaryString:
            return element(depth, "BinaryString", name, [&] { base64(s); });
        case XmlTag::ContentUrl:
        case XmlTag::ContentNull:
            return element(depth, "Content", name, [&] {
                if (s.empty() && tag == XmlTag::ContentNull) {
                    mOut += "<null></null>";
                } else {
                    mOut += "<url>";
                    escapeText(s);
                    mOut += "</url>";
                }
            });
        case XmlTag::ContentId:
            return element(depth, "ContentId", name, [&] {
                if (s.empty()) {
                    mOut += "<null></null>";
                } else {
                    mOut += "<url>";
                    escapeText(s);
                    mOut += "</url>";
                }
            });
        case XmlTag::ContentBinary:
            return element(depth, "Content", name, [&] {
                mOut += "<binary>";
                base64(s);
                mOut += "</binary>";
            });
        case XmlTag::ContentHash:
            return element(depth, "Content", name, [&] {
                mOut += "<hash>";
                escapeText(s);
                mOut += "</hash>";
            });
        default:
            return element(depth, "string", name, [&] { escapeText(s); });
        }
    }

    void writeProperty(std::size_t depth, std::string_view name, const Value &v) {
        switch (FamilyOf(v.type)) {
        case TypeFamily::Scalar:
            return writeScalar(depth, name, v);
        case TypeFamily::Vector:
            return writeVector(depth, name, v);
        case TypeFamily::ColorOrFrame:
            return writeColorOrFrame(depth, name, v);
        case TypeFamily::Sequence:
            return writeSequence(depth, name, v);
        case TypeFamily::Reference:
            return writeReference(depth, name, v);
        case TypeFamily::Content:
            return writeContent(depth, name, v);
        case TypeFamily::Unknown:
            return writeUnknown(depth, name, v);
        }
    }

    // String, Bytecode, Bool, Int32, Float32, Float64, Int64, SecurityCapabilities, Enum, BrickColor, Faces, Axes.
    void writeScalar(std::size_t depth, std::string_view name, const Value &v) {
        switch (v.type) {
        case Type::String: {
            if (const auto *s = std::get_if<std::string>(&v.data)) writeString(depth, name, *s, v.xmlTag);
            return;
        }
        case Type::Bytecode: {
            return element(depth, "BinaryString", name, [&] { base64(v.as<Bytecode>().bytes); });
        }
        case Type::Bool:
            return element(depth, "bool", name, [&] { mOut += v.as<bool>() ? "true" : "false"; });
        case Type::Int32:
            return element(depth, "int", name, [&] { AppendInt(mOut, v.as<std::int32_t>()); });
        case Type::Float32:
            return element(depth, "float", name, [&] { AppendFloat(mOut, v.as<float>()); });
        case Type::Float64:
            return element(depth, "double", name, [&] { AppendDouble(mOut, v.as<double>()); });
        case Type::Int64:
            return element(depth, "int64", name, [&] { AppendInt(mOut, v.as<Int64Value>().value); });
        case Type::SecurityCapabilities:
            return element(depth, "SecurityCapabilities", name,
                           [&] { AppendUInt(mOut, v.as<SecurityCapabilities>().bits); });
        case Type::Enum:
            return element(depth, "token", name, [&] { AppendUInt(mOut, v.as<EnumValue>().value); });
        case Type::BrickColor:
            return element(depth, "int", name, [&] { AppendInt(mOut, std::int32_t(v.as<BrickColor>().number)); });
        case Type::Faces:
            return element(depth, "Faces", name, [&] { fieldInt("faces", v.as<Faces>().bits); });
        case Type::Axes:
            return element(depth, "Axes", name, [&] { fieldInt("axes", v.as<Axes>().bits); });
        default:
            return;
        }
    }

    // UDim, UDim2, Vector2, Vector3, Vector2int16, Vector3int16, Rect (Rect2D), Ray.
    void writeVector(std::size_t depth, std::string_view name, const Value &v) {
        switch (v.type) {
        case Type::UDim: {
            const UDim &u = v.as<UDim>();
            return element(depth, "UDim", name, [&] {
                field("S", u.scale);
                fieldInt("O", u.offset);
            });
        }
        case Type::UDim2: {
            const UDim2 &u = v.as<UDim2>();
            return element(depth, "UDim2", name, [&] {
                field("XS", u.x.scale);
                fieldInt("XO", u.x.offset);
                field("YS", u.y.scale);
                fieldInt("YO", u.y.offset);
            });
        }
        case Type::Vector2: {
            const Vector2 &p = v.as<Vector2>();
            return element(depth, "Vector2", name, [&] {
                field("X", p.x);
                field("Y", p.y);
            });
        }
        case Type::Vector3:
            return element(depth, "Vector3", name, [&] { vector3Fields(v.as<Vector3>()); });
        case Type::Vector2int16: {
            const Vector2int16 &p = v.as<Vector2int16>();
            return element(depth, "Vector2int16", name, [&] {
                fieldInt("X", p.x);
                fieldInt("Y", p.y);
            });
        }
        case Type::Vector3int16: {
            const Vector3int16 &p = v.as<Vector3int16>();
            return element(depth, "Vector3int16", name, [&] {
                fieldInt("X", p.x);
                fieldInt("Y", p.y);
                fieldInt("Z", p.z);
            });
        }
        case Type::Rect: {
            const Rect &r = v.as<Rect>();
            return element(depth, "Rect2D", name, [&] {
                mOut += "<min>";
                field("X", r.min.x);
                field("Y", r.min.y);
                mOut += "</min><max>";
                field("X", r.max.x);
                field("Y", r.max.y);
                mOut += "</max>";
            });
        }
        case Type::Ray: {
            const Ray &r = v.as<Ray>();
            return element(depth, "Ray", name, [&] {
                mOut += "<origin>";
                vector3Fields(r.origin);
                mOut += "</origin><direction>";
                vector3Fields(r.direction);
                mOut += "</direction>";
            });
        }
        default:
            return;
        }
    }

    // Color3 (packed when its tag was), Color3uint8, CFrame, CFrameQuat, OptionalCFrame.
    void writeColorOrFrame(std::size_t depth, std::string_view name, const Value &v) {
        switch (v.type) {
        case Type::Color3: {
            const Color3 &c = v.as<Color3>();
            open(depth, "Color3", name);
            const auto toByte = [](float f) {
                const float x = f * 255.0f + 0.5f;
                return x <= 0 ? 0u : x >= 255 ? 255u : unsigned(x);
            };
            const auto exact = [&](float f) { return float(toByte(f)) / 255.0f == f; };
            if (v.xmlTag == XmlTag::Color3Packed && exact(c.r) && exact(c.g) && exact(c.b)) {
                AppendUInt(mOut, 0xFF000000u | (toByte(c.r) << 16) | (toByte(c.g) << 8) | toByte(c.b));
            } else {
                field("R", c.r);
                field("G", c.g);
                field("B", c.b);
            }
            close("Color3");
            return;
        }
        case Type::Color3uint8: {
            const Color3uint8 &c = v.as<Color3uint8>();
            return element(depth, "Color3uint8", name, [&] {
                AppendUInt(mOut, 0xFF000000u | (std::uint32_t(c.r) << 16) | (std::uint32_t(c.g) << 8) | c.b);
            });
        }
        case Type::CFrame:
        case Type::CFrameQuat:
            return element(depth, "CoordinateFrame", name, [&] { cframeFields(v.as<CFrame>()); });
        case Type::OptionalCFrame: {
            const OptionalCFrame &o = v.as<OptionalCFrame>();
            return element(depth, "OptionalCoordinateFrame", name, [&] {
                if (o.present) {
                    mOut += "<CFrame>";
                    cframeFields(o.value);
                    mOut += "</CFrame>";
                }
            });
        }
        default:
            return;
        }
    }

    // NumberSequence, ColorSequence, NumberRange, PhysicalProperties.
    void writeSequence(std::size_t depth, std::string_view name, const Value &v) {
        switch (v.type) {
        case Type::NumberSequence:
            return element(depth, "NumberSequence", name, [&] {
                for (const NumberKeypoint &k : v.as<NumberSequence>().keypoints) {
                    for (float f : {k.time, k.value, k.envelope}) {
                        AppendFloat(mOut, f);
                        mOut += ' ';
                    }
                }
            });
        case Type::ColorSequence:
            return element(depth, "ColorSequence", name, [&] {
                for (const ColorKeypoint &k : v.as<ColorSequence>().keypoints) {
                    for (float f : {k.time, k.color.r, k.color.g, k.color.b, k.envelope}) {
                        AppendFloat(mOut, f);
                        mOut += ' ';
                    }
                }
            });
        case Type::NumberRange: {
            const NumberRange &r = v.as<NumberRange>();
            return element(depth, "NumberRange", name, [&] {
                AppendFloat(mOut, r.min);
                mOut += ' ';
                AppendFloat(mOut, r.max);
                mOut += ' ';
            });
        }
        case Type::PhysicalProperties: {
            const PhysicalProperties &p = v.as<PhysicalProperties>();
            return element(depth, "PhysicalProperties", name, [&] {
                if (p.custom()) {
                    mOut += "<CustomPhysics>true</CustomPhysics>";
                    field("Density", p.density);
                    field("Friction", p.friction);
                    field("Elasticity", p.elasticity);
                    field("FrictionWeight", p.frictionWeight);
                    field("ElasticityWeight", p.elasticityWeight);
                    if (p.hasAcoustic()) field("AcousticAbsorption", p.acousticAbsorption);
                } else {
                    mOut += "<CustomPhysics>false</CustomPhysics>";
                }
            });
        }
        default:
            return;
        }
    }

    // Ref, SharedString / NetAssetRef, UniqueId, Font.
    void writeReference(std::size_t depth, std::string_view name, const Value &v) {
        switch (v.type) {
        case Type::Ref: {
            const std::uint32_t t = v.as<RefValue>().target;
            return element(depth, "Ref", name, [&] {
                if (t < mReferents.size())
                    escapeText(mReferents[t]);
                else
                    mOut += "null";
            });
        }
        case Type::SharedString: {
            const std::uint32_t i = v.as<SharedStringRef>().index;
            if (i >= mSharedKeys.size()) return; // dangling index: nothing valid to write
            const char *tag = v.xmlTag == XmlTag::NetAssetRef ? "NetAssetRef" : "SharedString";
            open(depth, tag, name);
            escapeText(mSharedKeys[i]);
            close(tag);
            return;
        }
        case Type::UniqueId: {
            const UniqueId &u = v.as<UniqueId>();
            static const char kHex[] = "0123456789abcdef";
            return element(depth, "UniqueId", name, [&] {
                const std::uint64_t random = Rotr64(u.random, 1);
                for (int k = 15; k >= 0; --k) mOut += kHex[(random >> (k * 4)) & 15];
                for (int k = 7; k >= 0; --k) mOut += kHex[(u.time >> (k * 4)) & 15];
                for (int k = 7; k >= 0; --k) mOut += kHex[(u.index >> (k * 4)) & 15];
            });
        }
        case Type::Font: {
            const Font &f = v.as<Font>();
            return element(depth, "Font", name, [&] {
                mOut += "<Family><url>";
                escapeText(f.family);
                mOut += "</url></Family>";
                fieldInt("Weight", f.weight);
                mOut += f.style == 1 ? "<Style>Italic</Style>" : "<Style>Normal</Style>";
                if (!f.cachedFaceId.empty()) {
                    mOut += "<CachedFaceId><url>";
                    escapeText(f.cachedFaceId);
                    mOut += "</url></CachedFaceId>";
                }
            });
        }
        default:
            return;
        }
    }

    // Content: <uri>/<url>, <Ref> or <null>.
    void writeContent(std::size_t depth, std::string_view name, const Value &v) {
        switch (v.type) {
        case Type::Content: {
            const Content &c = v.as<Content>();
            return element(depth, "Content", name, [&] {
                if (c.source == Content::Source::Uri) {
                    const char *t = v.xmlTag == XmlTag::ContentUrl ? "url" : "uri";
                    mOut += '<';
                    mOut += t;
                    mOut += '>';
                    escapeText(c.uri);
                    mOut += "</";
                    mOut += t;
                    mOut += '>';
                } else if (c.source == Content::Source::Object && c.object < mReferents.size()) {
                    mOut += "<Ref>";
                    escapeText(mReferents[c.object]);
                    mOut += "</Ref>";
                } else if (name.size() >= 7 && name.substr(name.size() - 7) == "Content") {
                    mOut += "<null></null>";
                } else {
                    // <null> under another name reads back as an empty ContentId string; <Ref>null</Ref>
                    // stays a Content value without a source.
                    mOut += "<Ref>null</Ref>";
                }
            });
        }
        default:
            return;
        }
    }

    // A value of unknown type: its raw XML element again (binary-only raw bytes have no XML form).
    void writeUnknown(std::size_t depth, std::string_view name, const Value &v) {
        const auto *u = std::get_if<UnknownValue>(&v.data);
        if (!u || u->xmlTag.empty()) return; // binary-only raw bytes cannot be expressed in XML
        indent(depth);
        mOut += '<';
        mOut += u->xmlTag;
        mOut += " name=\"";
        escapeAttr(name);
        mOut += "\">";
        mOut += u->raw;
        mOut += "</";
        mOut += u->xmlTag;
        mOut += ">\n";
    }

    const Document &mDoc;
    const XmlSink *mSink = nullptr;
    std::string mOut;
    std::vector<std::string> mReferents;
    std::vector<std::string> mSharedKeys;
};

} // namespace

std::string WriteXml(const Document &document, const XmlWriteOptions &) {
    return XmlWriter(document).write();
}

void WriteXml(const Document &document, const XmlSink &sink, const XmlWriteOptions &) {
    XmlWriter(document, &sink).write();
}

} // namespace gamefmt::rbx
