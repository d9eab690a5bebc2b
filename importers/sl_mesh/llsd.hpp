// Binary LLSD (docs/formats/sl-mesh.md §1): the value type and its reader and writer. Usable on its own, without the
// mesh asset code: every marker, big-endian framing, little-endian dates, the optional "<? LLSD/Binary ?>\n"
// text prefix, and depth and size limits against hostile input.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace gamefmt::slmesh {

// The format name FormatError carries for everything in importers/sl_mesh.
inline constexpr const char *kFormatName = "Second Life mesh";

enum class LLSDType : std::uint8_t { Undefined, Boolean, Integer, Real, UUID, String, URI, Binary, Date, Array, Map };

// "undefined", "boolean", "integer", "real", "uuid", "string", "uri", "binary", "date", "array", "map".
const char *LLSDTypeName(LLSDType type);

using UUIDBytes = std::array<std::uint8_t, 16>;

// One LLSD value. Maps keep their entries in file order (a vector of pairs: mesh maps are small, lookups
// are linear); the writer sorts keys byte-wise unless told otherwise. Two values compare equal when their
// types and contents are equal; maps compare equal regardless of entry order.
class LLSD {
public:
    using Array = std::vector<LLSD>;
    using MapEntry = std::pair<std::string, LLSD>;
    using Map = std::vector<MapEntry>;

    LLSD() = default; // undefined

    static LLSD Boolean(bool value);
    static LLSD Integer(std::int32_t value);
    static LLSD Real(double value);
    static LLSD Uuid(const UUIDBytes &value);
    static LLSD String(std::string value);
    static LLSD Uri(std::string value);
    static LLSD Binary(std::vector<std::uint8_t> value);
    static LLSD Date(double secondsSinceEpoch);
    static LLSD MakeArray(Array values = {});
    static LLSD MakeMap(Map entries = {});

    LLSDType type() const { return mType; }
    bool isUndefined() const { return mType == LLSDType::Undefined; }
    bool isMap() const { return mType == LLSDType::Map; }
    bool isArray() const { return mType == LLSDType::Array; }
    bool isBinary() const { return mType == LLSDType::Binary; }
    bool isString() const { return mType == LLSDType::String; }
    // Integer or Real: the viewer reads numbers with asReal()/asInteger(), so both are accepted (§1).
    bool isNumber() const { return mType == LLSDType::Integer || mType == LLSDType::Real; }

    // Conversions in the viewer's spirit: numbers convert between integer and real (reals to integers
    // saturate, NaN -> 0), Boolean -> 0/1; anything else gives the fallback.
    bool asBoolean(bool fallback = false) const;
    std::int32_t asInteger(std::int32_t fallback = 0) const;
    double asReal(double fallback = 0.0) const;

    // Raw payload access; the value must have the matching type (else an empty/zero payload is returned).
    bool boolean() const { return mBool; }
    std::int32_t integer() const { return mInt; }
    double real() const { return mReal; } // Real and Date
    const UUIDBytes &uuid() const { return mUuid; }
    const std::string &string() const { return mString; } // String and URI
    const std::vector<std::uint8_t> &binary() const { return mBinary; }
    std::vector<std::uint8_t> &binary() { return mBinary; }
    const Array &array() const { return mArray; }
    Array &array() { return mArray; }
    const Map &map() const { return mMap; }
    Map &map() { return mMap; }

    // Map lookup (nullptr when absent or not a map). With duplicate keys in a file the reader keeps the last.
    const LLSD *find(std::string_view key) const;
    LLSD *find(std::string_view key);
    // Sets (replaces or appends) a map entry; turns an undefined value into a map first. On any other
    // type it throws FormatError.
    LLSD &set(std::string_view key, LLSD value);
    // Removes a map entry; returns whether it existed.
    bool erase(std::string_view key);

    // Reals and dates compare by their bits (memcmp of the double): NaN equals the same NaN, 0.0 != -0.0,
    // i.e. equal means "writes the same bytes". Integer 1 != Real 1.0 (types differ). Maps ignore entry order.
    bool operator==(const LLSD &other) const;
    bool operator!=(const LLSD &other) const { return !(*this == other); }

private:
    LLSDType mType = LLSDType::Undefined;
    bool mBool = false;
    std::int32_t mInt = 0;
    double mReal = 0.0;
    UUIDBytes mUuid{};
    std::string mString;
    std::vector<std::uint8_t> mBinary;
    Array mArray;
    Map mMap;
};

struct LLSDLimits {
    // Nesting of arrays/maps (the viewer uses 96 for mesh blocks); deeper = error. The reader itself is
    // iterative, but LLSD values are copied, compared, written and destroyed recursively: keep this modest.
    std::size_t maxDepth = 128;
    // Values of any type in one document (containers included). Each parsed value costs ~140 bytes of
    // memory, so this bounds what a small, highly compressible input can make the reader allocate.
    std::size_t maxValues = std::size_t(1) << 20;
};

struct LLSDParseResult {
    LLSD value;
    std::size_t end = 0; // offset (relative to data) of the first byte after the value
};

// Length of an optional text prefix at data[0..size): "<?" ... "?>" plus one optional "\n" (both the viewer's
// "<? LLSD/Binary ?>\n" and python-llsd's "<?llsd/binary?>\n"); 0 when data does not start with "<?".
// A "<?" without "?>" in the first 64 bytes is an error (FormatError at baseOffset).
std::size_t SkipLLSDPrefix(const std::uint8_t *data, std::size_t size, std::size_t baseOffset = 0);

// Parses one binary LLSD value at data[0..size) after an optional prefix. Bytes after the value are not
// looked at (the caller decides whether trailing bytes matter). Errors throw FormatError(kFormatName, what,
// baseOffset + offset of the offending byte): unknown marker, truncation, count/length >= 2^31 or larger
// than the bytes left, missing ']' or '}', a map key without 'k', nesting deeper than limits.maxDepth.
// Quoted strings (' or ") are rejected as unused in meshes.
LLSDParseResult ParseBinaryLLSD(const std::uint8_t *data, std::size_t size, std::size_t baseOffset = 0,
                                const LLSDLimits &limits = {});

// Appends the binary form of value (no prefix). Map keys are written sorted byte-wise ascending when
// sortKeys (the viewer's output, §1), else in entry order. Reals are written as stored: callers that want
// the viewer's float-widened reals store (double)(float)x. Dates are written little-endian.
void AppendBinaryLLSD(const LLSD &value, std::vector<std::uint8_t> &out, bool sortKeys = true);
std::vector<std::uint8_t> WriteBinaryLLSD(const LLSD &value, bool sortKeys = true);

// ISO 8601 UTC, "2001-09-09T01:46:40Z", with the fraction of a second to whole microseconds and no trailing
// zeros ("...58.5Z"); "" outside the years 0000-9999 or for a non-finite value.
std::string FormatIsoDate(double secondsSinceEpoch);

// A short human-readable rendering for errors, metadata and `gamefmt dump`-style output
// (e.g. {high_lod: {offset: 0, size: 170}}; binary as "<binary N bytes>").
std::string DescribeLLSD(const LLSD &value, std::size_t maxLength = 4096);

} // namespace gamefmt::slmesh
