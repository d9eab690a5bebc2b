// The Roblox document model (docs/formats/roblox-model.md): a forest of instances with typed property values, shared
// by the binary and XML codecs, their writers and the Assimp glue. No Assimp here.
//
// Design:
//  * Value is a tagged union; every fixed-size type lives inline (no heap allocation), only strings and
//    sequences own memory. Types are named by their binary type id (§2.4).
//  * Class and property names are interned in the Document (uint32 ids), so 100k instances of a few
//    dozen classes share their names.
//  * Instances refer to each other by index into Document::instances (Ref values too); referent
//    strings are kept only for writing back (binary: decimal, XML: "RBX…").
//  * Lossless: serialized property names as in the file, the XML tag a value was read from, unknown
//    property types and chunks as raw bytes, SharedString table with its hashes, META entries.
#pragma once

#include <array>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <variant>
#include <vector>

namespace gamefmt::rbx {

// The format name in every error the codecs throw.
inline constexpr const char *kFormatName = "Roblox model";

inline constexpr std::uint32_t kNoInstance = std::numeric_limits<std::uint32_t>::max();
// META key prefix under which the binary writer keeps legacy XML Content values (<binary>, <hash>), which have no
// binary form; the binary reader puts them back (docs/formats/roblox-model.md §2.8).
inline constexpr const char *kLegacyContentMetaPrefix = "gamefmt:LegacyContent:";

// Binary type ids (§2.4); also the kinds of Value.
enum class Type : std::uint8_t {
    String = 0x01,
    Bool = 0x02,
    Int32 = 0x03,
    Float32 = 0x04,
    Float64 = 0x05,
    UDim = 0x06,
    UDim2 = 0x07,
    Ray = 0x08,
    Faces = 0x09,
    Axes = 0x0A,
    BrickColor = 0x0B,
    Color3 = 0x0C,
    Vector2 = 0x0D,
    Vector3 = 0x0E,
    Vector2int16 = 0x0F,
    CFrame = 0x10,
    CFrameQuat = 0x11, // decoded to a CFrame value; kept as its own type only so a writer can repeat it
    Enum = 0x12,
    Ref = 0x13,
    Vector3int16 = 0x14,
    NumberSequence = 0x15,
    ColorSequence = 0x16,
    NumberRange = 0x17,
    Rect = 0x18,
    PhysicalProperties = 0x19,
    Color3uint8 = 0x1A,
    Int64 = 0x1B,
    SharedString = 0x1C,
    Bytecode = 0x1D,
    OptionalCFrame = 0x1E,
    UniqueId = 0x1F,
    Font = 0x20,
    SecurityCapabilities = 0x21,
    Content = 0x22,
    Unknown = 0xFF, // a type the codec does not know: raw bytes (binary) or raw XML (XML)
};

// The type's name as the reference and rbx-dom spell it ("String", "CFrame", "Color3uint8", ...).
const char *TypeName(Type type);

// Families of types with the same shape of value; the codecs (binary columns, XML, the text form) have one
// function per family.
enum class TypeFamily { Scalar, Vector, ColorOrFrame, Sequence, Reference, Content, Unknown };

inline TypeFamily FamilyOf(Type type) {
    switch (type) {
    case Type::String:
    case Type::Bytecode:
    case Type::Bool:
    case Type::Int32:
    case Type::Float32:
    case Type::Float64:
    case Type::Int64:
    case Type::SecurityCapabilities:
    case Type::Enum:
    case Type::BrickColor:
    case Type::Faces:
    case Type::Axes:
        return TypeFamily::Scalar;
    case Type::UDim:
    case Type::UDim2:
    case Type::Vector2:
    case Type::Vector3:
    case Type::Vector2int16:
    case Type::Vector3int16:
    case Type::Rect:
    case Type::Ray:
        return TypeFamily::Vector;
    case Type::Color3:
    case Type::Color3uint8:
    case Type::CFrame:
    case Type::CFrameQuat:
    case Type::OptionalCFrame:
        return TypeFamily::ColorOrFrame;
    case Type::NumberSequence:
    case Type::ColorSequence:
    case Type::NumberRange:
    case Type::PhysicalProperties:
        return TypeFamily::Sequence;
    case Type::Ref:
    case Type::SharedString:
    case Type::UniqueId:
    case Type::Font:
        return TypeFamily::Reference;
    case Type::Content:
        return TypeFamily::Content;
    case Type::Unknown:
        break;
    }
    return TypeFamily::Unknown;
}

struct Vector2 {
    float x = 0, y = 0;
};
struct Vector3 {
    float x = 0, y = 0, z = 0;
};
struct Vector2int16 {
    std::int16_t x = 0, y = 0;
};
struct Vector3int16 {
    std::int16_t x = 0, y = 0, z = 0;
};
struct UDim {
    float scale = 0;
    std::int32_t offset = 0;
};
struct UDim2 {
    UDim x, y;
};
struct Ray {
    Vector3 origin, direction;
};
struct Faces {
    std::uint8_t bits = 0; // bit n = NormalId n: Right 1, Top 2, Back 4, Left 8, Bottom 16, Front 32
};
struct Axes {
    std::uint8_t bits = 0; // X 1, Y 2, Z 4
};
struct BrickColor {
    std::uint32_t number = 194;
};
struct Color3 {
    float r = 0, g = 0, b = 0;
};
struct Color3uint8 {
    std::uint8_t r = 0, g = 0, b = 0;
};
// Position and the row-major rotation R00 R01 R02 R10 ... R22 (columns: right, up, -look), kept exactly
// as read (not re-orthonormalised; INF/NaN allowed).
struct CFrame {
    Vector3 position;
    std::array<float, 9> rotation{1, 0, 0, 0, 1, 0, 0, 0, 1};
};
struct OptionalCFrame {
    bool present = false;
    CFrame value; // identity when absent
};
struct EnumValue {
    std::uint32_t value = 0;
};
struct RefValue {
    std::uint32_t target = kNoInstance; // index into Document::instances, kNoInstance = null
};
struct NumberKeypoint {
    float time = 0, value = 0, envelope = 0;
};
struct NumberSequence {
    std::vector<NumberKeypoint> keypoints;
};
struct ColorKeypoint {
    float time = 0;
    Color3 color;
    float envelope = 0;
};
struct ColorSequence {
    std::vector<ColorKeypoint> keypoints;
};
struct NumberRange {
    float min = 0, max = 0;
};
struct Rect {
    Vector2 min, max;
};
struct PhysicalProperties {
    std::uint8_t flags = 0; // binary flag byte: bit0 custom, bit1 acoustic field present (0/2 = default)
    float density = 0, friction = 0, elasticity = 0, frictionWeight = 0, elasticityWeight = 0;
    float acousticAbsorption = 0;
    bool custom() const { return (flags & 1) != 0; }
    bool hasAcoustic() const { return (flags & 3) == 3; }
};
struct Int64Value {
    std::int64_t value = 0;
};
struct SharedStringRef {
    std::uint32_t index = 0; // into Document::sharedStrings
};
// UniqueId in its binary form (§2.4 0x1F); XML hex is random(16) time(8) index(8) with
// xml_random = rotr64(binary random, 1).
struct UniqueId {
    std::uint32_t index = 0;
    std::uint32_t time = 0;
    std::uint64_t random = 0;
};
struct Font {
    std::string family;
    std::uint16_t weight = 400;
    std::uint8_t style = 0; // 0 Normal, 1 Italic
    std::string cachedFaceId;
};
struct SecurityCapabilities {
    std::uint64_t bits = 0;
};
struct Content {
    enum class Source : std::uint8_t { None = 0, Uri = 1, Object = 2 };
    Source source = Source::None;
    std::string uri;                    // Source::Uri
    std::uint32_t object = kNoInstance; // Source::Object: index into Document::instances
};
// Bytecode (signed Luau) is opaque.
struct Bytecode {
    std::string bytes;
};
// A property value of a type the codec does not interpret, kept to be written back.
struct UnknownValue {
    std::uint8_t binaryType = 0xFF; // the binary type id (0xFF when read from XML)
    std::string xmlTag;             // the XML element name (empty when read from binary)
    std::string raw;                // binary: this instance's bytes are not separable — see Document::rawProps;
                                    // XML: the element's inner XML, verbatim
};

using ValueData =
    std::variant<std::string, bool, std::int32_t, float, double, UDim, UDim2, Ray, Faces, Axes, BrickColor, Color3,
                 Vector2, Vector3, Vector2int16, CFrame, EnumValue, RefValue, Vector3int16, NumberSequence,
                 ColorSequence, NumberRange, Rect, PhysicalProperties, Color3uint8, Int64Value, SharedStringRef,
                 Bytecode, OptionalCFrame, UniqueId, Font, SecurityCapabilities, Content, UnknownValue>;

// How a String-typed value was spelled in XML, so XML → DOM → XML writes the same element.
enum class XmlTag : std::uint8_t {
    Default = 0,     // whatever the writer's rules choose (§3 "Types without reflection")
    String,          // <string>
    ProtectedString, // <ProtectedString>
    BinaryString,    // <BinaryString> (base64)
    ContentUrl,      // <Content><url>…</url></Content> (a ContentId stored as String)
    ContentNull,     // <Content><null></null></Content>
    ContentId,       // <ContentId><url>…</url></ContentId> (rbx_xml)
    Int,             // <int> for a BrickColor (legacy)
    Color3Packed,    // legacy packed <Color3>4278190080</Color3>
    Double,          // <double> for a Float32-declared value or vice versa
    NetAssetRef,     // <NetAssetRef> for a SharedString value
    ContentBinary,   // legacy <Content><binary>BASE64</binary></Content>: the String holds the decoded bytes
    ContentHash,     // legacy <Content><hash>…</hash></Content>: the String holds the hash text
};

struct Value {
    Type type = Type::String;
    ValueData data = std::string();
    XmlTag xmlTag = XmlTag::Default;

    template <typename T> const T &as() const { return std::get<T>(data); }
    template <typename T> T &as() { return std::get<T>(data); }
};

struct Property {
    std::uint32_t name = 0; // interned serialized name (as in the file: "size", "Color3uint8", ...)
    Value value;
};

struct Instance {
    std::uint32_t className = 0;    // interned
    std::string name;               // the Name property (routed here, never in `properties`)
    std::string referent;           // binary: decimal referent; XML: the referent attribute ("" when absent)
    bool isService = false;         // binary INST format 1 / service marker
    std::uint8_t serviceMarker = 1; // the marker byte as stored (Studio writes 01; one real file has 00)
    std::uint32_t parent = kNoInstance;
    std::vector<std::uint32_t> children; // in file order
    std::vector<Property> properties;    // in file order (binary: PROP chunk order)

    const Property *find(std::uint32_t nameId) const {
        for (const Property &p : properties)
            if (p.name == nameId) return &p;
        return nullptr;
    }
};

// Interned strings: class and property names.
class NameTable {
public:
    std::uint32_t intern(std::string_view s);
    std::optional<std::uint32_t> find(std::string_view s) const;
    const std::string &str(std::uint32_t id) const { return mStrings[id]; }
    std::size_t size() const { return mStrings.size(); }

private:
    std::vector<std::string> mStrings;
    std::unordered_map<std::string, std::uint32_t> mIds;
};

struct SharedStringEntry {
    std::array<std::uint8_t, 16> hash{}; // binary SSTR hash as stored (never checked)
    std::string xmlKey;                  // XML md5 attribute as read ("" when read from binary)
    std::string content;
};

// A binary chunk the reader does not interpret (or a SIGN chunk), kept raw.
struct RawChunk {
    std::string name;               // 4 bytes, NUL padding stripped
    std::vector<std::uint8_t> data; // decompressed body
    std::size_t position = 0;       // index of the chunk in the file's chunk sequence
};

// A PROP chunk whose type id the reader does not know (or whose class is undeclared): its decompressed
// body, to be written back verbatim.
struct RawProperty {
    std::string className;
    std::string propertyName;
    std::uint8_t type = 0;
    std::vector<std::uint8_t> body; // the whole decompressed PROP body
};

// The encoding of a file (detect.hpp's Detect returns None for anything that is not a Roblox file).
enum class Encoding : std::uint8_t { None, Binary, Xml };

struct Document {
    Encoding sourceEncoding = Encoding::Binary;
    NameTable names;                                       // class and property names
    std::vector<Instance> instances;                       // binary: INST order; XML: document order
    std::vector<std::uint32_t> roots;                      // top-level instances, in order
    std::vector<std::pair<std::string, std::string>> meta; // META / <Meta> entries, in order
    std::vector<SharedStringEntry> sharedStrings;
    std::vector<RawChunk> unknownChunks;
    std::vector<RawProperty> rawProperties;
    std::vector<std::string> xmlUnknownTopLevel; // raw XML of unknown top-level elements (e.g. <External>)
    std::vector<std::string> warnings;           // non-fatal problems met while reading

    std::uint32_t addInstance(std::string_view className, std::string_view name);
    // addInstance, then setParent(new instance, parent) (kNoInstance: a root).
    std::uint32_t addInstance(std::string_view className, std::string_view name, std::uint32_t parent);
    void setParent(std::uint32_t child, std::uint32_t parent); // appends to the parent's children / roots
    const std::string &className(const Instance &i) const { return names.str(i.className); }
    const Property *findProperty(const Instance &i, std::string_view name) const;
};

} // namespace gamefmt::rbx
