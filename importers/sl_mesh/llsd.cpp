// Binary LLSD (docs/formats/sl-mesh.md §1): the value type, an iterative reader that never recurses on file-controlled
// depth, the writer, and a short text rendering.
#include "importers/sl_mesh/llsd.hpp"

#include "common/bit_cast.hpp"
#include "common/byte_reader.hpp"
#include "common/error.hpp"
#include "common/text_number.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <unordered_map>

namespace gamefmt::slmesh {

namespace {

// Unsigned byte-wise order (memcmp), the order the viewer's sorted maps use (§1).
bool KeyLess(const std::string &a, const std::string &b) {
    const std::size_t n = std::min(a.size(), b.size());
    const int c = n != 0 ? std::memcmp(a.data(), b.data(), n) : 0;
    return c != 0 ? c < 0 : a.size() < b.size();
}

} // namespace

// ---------------------------------------------------------------------------------------------------------
// Value

const char *LLSDTypeName(LLSDType type) {
    switch (type) {
    case LLSDType::Undefined:
        return "undefined";
    case LLSDType::Boolean:
        return "boolean";
    case LLSDType::Integer:
        return "integer";
    case LLSDType::Real:
        return "real";
    case LLSDType::UUID:
        return "uuid";
    case LLSDType::String:
        return "string";
    case LLSDType::URI:
        return "uri";
    case LLSDType::Binary:
        return "binary";
    case LLSDType::Date:
        return "date";
    case LLSDType::Array:
        return "array";
    case LLSDType::Map:
        return "map";
    }
    return "unknown";
}

LLSD LLSD::Boolean(bool value) {
    LLSD v;
    v.mType = LLSDType::Boolean;
    v.mBool = value;
    return v;
}
LLSD LLSD::Integer(std::int32_t value) {
    LLSD v;
    v.mType = LLSDType::Integer;
    v.mInt = value;
    return v;
}
LLSD LLSD::Real(double value) {
    LLSD v;
    v.mType = LLSDType::Real;
    v.mReal = value;
    return v;
}
LLSD LLSD::Uuid(const UUIDBytes &value) {
    LLSD v;
    v.mType = LLSDType::UUID;
    v.mUuid = value;
    return v;
}
LLSD LLSD::String(std::string value) {
    LLSD v;
    v.mType = LLSDType::String;
    v.mString = std::move(value);
    return v;
}
LLSD LLSD::Uri(std::string value) {
    LLSD v;
    v.mType = LLSDType::URI;
    v.mString = std::move(value);
    return v;
}
LLSD LLSD::Binary(std::vector<std::uint8_t> value) {
    LLSD v;
    v.mType = LLSDType::Binary;
    v.mBinary = std::move(value);
    return v;
}
LLSD LLSD::Date(double secondsSinceEpoch) {
    LLSD v;
    v.mType = LLSDType::Date;
    v.mReal = secondsSinceEpoch;
    return v;
}
LLSD LLSD::MakeArray(Array values) {
    LLSD v;
    v.mType = LLSDType::Array;
    v.mArray = std::move(values);
    return v;
}
LLSD LLSD::MakeMap(Map entries) {
    LLSD v;
    v.mType = LLSDType::Map;
    v.mMap = std::move(entries);
    return v;
}

bool LLSD::asBoolean(bool fallback) const {
    switch (mType) {
    case LLSDType::Boolean:
        return mBool;
    case LLSDType::Integer:
        return mInt != 0;
    case LLSDType::Real:
        return !std::isnan(mReal) && mReal != 0.0; // the viewer: NaN is false
    default:
        return fallback;
    }
}

std::int32_t LLSD::asInteger(std::int32_t fallback) const {
    switch (mType) {
    case LLSDType::Boolean:
        return mBool ? 1 : 0;
    case LLSDType::Integer:
        return mInt;
    case LLSDType::Real:
        if (std::isnan(mReal)) return 0;
        if (mReal >= 2147483647.0) return std::numeric_limits<std::int32_t>::max();
        if (mReal <= -2147483648.0) return std::numeric_limits<std::int32_t>::min();
        return static_cast<std::int32_t>(mReal); // truncates toward zero, as the viewer does
    default:
        return fallback;
    }
}

double LLSD::asReal(double fallback) const {
    switch (mType) {
    case LLSDType::Boolean:
        return mBool ? 1.0 : 0.0;
    case LLSDType::Integer:
        return static_cast<double>(mInt);
    case LLSDType::Real:
        return mReal;
    default:
        return fallback;
    }
}

// Maps built by the reader hold each key once; for maps built by hand with repeated keys the last entry wins,
// which matches what the reader keeps.
const LLSD *LLSD::find(std::string_view key) const {
    if (mType != LLSDType::Map) return nullptr;
    for (auto it = mMap.rbegin(); it != mMap.rend(); ++it)
        if (it->first == key) return &it->second;
    return nullptr;
}

LLSD *LLSD::find(std::string_view key) {
    return const_cast<LLSD *>(static_cast<const LLSD &>(*this).find(key));
}

LLSD &LLSD::set(std::string_view key, LLSD value) {
    if (mType == LLSDType::Undefined) mType = LLSDType::Map;
    if (mType != LLSDType::Map)
        throw FormatError(kFormatName, std::string("LLSD set(\"") + std::string(key) + "\") on a " +
                                           LLSDTypeName(mType) + ", not a map");
    if (LLSD *existing = find(key)) {
        *existing = std::move(value);
        return *existing;
    }
    mMap.emplace_back(std::string(key), std::move(value));
    return mMap.back().second;
}

bool LLSD::erase(std::string_view key) {
    if (mType != LLSDType::Map) return false;
    const auto newEnd = std::remove_if(mMap.begin(), mMap.end(), [key](const MapEntry &e) { return e.first == key; });
    const bool found = newEnd != mMap.end();
    mMap.erase(newEnd, mMap.end());
    return found;
}

// Reals and dates compare by their bits, so a NaN read from a file equals itself after a round trip
// (and +0.0 differs from -0.0): equality here means "the same bytes would be written".
// Maps compare as key-sorted sequences; with repeated keys (hand-built maps) the entry order of the
// repeats matters.
bool LLSD::operator==(const LLSD &other) const {
    if (mType != other.mType) return false;
    switch (mType) {
    case LLSDType::Undefined:
        return true;
    case LLSDType::Boolean:
        return mBool == other.mBool;
    case LLSDType::Integer:
        return mInt == other.mInt;
    case LLSDType::Real:
    case LLSDType::Date:
        return SameBits(mReal, other.mReal);
    case LLSDType::UUID:
        return mUuid == other.mUuid;
    case LLSDType::String:
    case LLSDType::URI:
        return mString == other.mString;
    case LLSDType::Binary:
        return mBinary == other.mBinary;
    case LLSDType::Array:
        return mArray == other.mArray;
    case LLSDType::Map: {
        if (mMap.size() != other.mMap.size()) return false;
        bool sameOrder = true;
        for (std::size_t i = 0; i < mMap.size() && sameOrder; ++i) sameOrder = mMap[i].first == other.mMap[i].first;
        if (sameOrder) {
            for (std::size_t i = 0; i < mMap.size(); ++i)
                if (mMap[i].second != other.mMap[i].second) return false;
            return true;
        }
        std::vector<const MapEntry *> a, b;
        a.reserve(mMap.size());
        b.reserve(mMap.size());
        for (const MapEntry &e : mMap) a.push_back(&e);
        for (const MapEntry &e : other.mMap) b.push_back(&e);
        const auto less = [](const MapEntry *x, const MapEntry *y) { return KeyLess(x->first, y->first); };
        std::stable_sort(a.begin(), a.end(), less);
        std::stable_sort(b.begin(), b.end(), less);
        for (std::size_t i = 0; i < a.size(); ++i)
            if (a[i]->first != b[i]->first || a[i]->second != b[i]->second) return false;
        return true;
    }
    }
    return false;
}

// ---------------------------------------------------------------------------------------------------------
// Reader

namespace {

constexpr std::size_t kPrefixLimit = 64;
constexpr std::uint64_t kMaxCount = 0x7FFFFFFFu; // counts and lengths are s32 on the wire
constexpr std::uint64_t kMinArrayElement = 1;    // a marker
constexpr std::uint64_t kMinMapPair = 6;         // 'k' + u32 key length + a value marker

std::string Hex2(std::uint8_t b) {
    static const char *digits = "0123456789ABCDEF";
    std::string s = "0x";
    s += digits[b >> 4];
    s += digits[b & 15];
    return s;
}

std::string DescribeMarker(std::uint8_t b) {
    std::string s = Hex2(b);
    if (b >= 0x20 && b < 0x7F) {
        s += " '";
        s += static_cast<char>(b);
        s += "'";
    }
    return s;
}

// One open array or map.
struct Frame {
    LLSD value;
    bool isMap = false;
    std::uint64_t left = 0; // elements / pairs not yet read
    std::size_t start = 0;  // offset of the '[' / '{'
    std::string_view key;   // the key of the pair being read (maps); points into the input
    // For maps with many pairs, key -> entry index, so repeated keys cost O(1) instead of a scan.
    std::unordered_map<std::string_view, std::size_t> index;
};

constexpr std::size_t kIndexThreshold = 16;

class Parser {
public:
    Parser(const std::uint8_t *data, std::size_t size, std::size_t baseOffset, const LLSDLimits &limits)
        : mIn(data, size, kFormatName, baseOffset), mLimits(limits) {}

    LLSDParseResult run() {
        mIn.seek(SkipLLSDPrefix(mIn.data(), mIn.size(), mIn.baseOffset()));
        LLSDParseResult result;
        for (;;) {
            if (!mStack.empty()) {
                Frame &top = mStack.back();
                if (top.left == 0) {
                    closeTop();
                    if (mStack.empty()) break;
                    continue;
                }
                --top.left;
                mClaimed -= top.isMap ? kMinMapPair : kMinArrayElement;
                if (top.isMap) top.key = readKey();
            }
            if (readValue()) break; // a scalar at the top level
        }
        result.value = std::move(mResult);
        result.end = mIn.tell();
        return result;
    }

private:
    std::string_view readKey() {
        const std::size_t at = mIn.tell();
        const std::uint8_t marker = mIn.u8();
        if (marker != 'k') {
            if (marker == '}') mIn.failAt(at, "map closed by '}' before its declared number of pairs");
            mIn.failAt(at, "map key marker " + DescribeMarker(marker) + " is not 'k'");
        }
        const std::size_t length = readLength("map key");
        return std::string_view(reinterpret_cast<const char *>(mIn.take(length)), length);
    }

    // A u32 BE length of a string, URI, binary or key that must fit in the bytes left.
    std::size_t readLength(const char *what) {
        const std::size_t at = mIn.tell();
        const std::uint64_t length = mIn.u32be();
        if (length > kMaxCount)
            mIn.failAt(at, std::string(what) + " length " + std::to_string(length) + " is >= 2^31 (negative as s32)");
        if (length > mIn.remaining())
            mIn.failAt(at, std::string(what) + " length " + std::to_string(length) + " exceeds the " +
                               std::to_string(mIn.remaining()) + " bytes left");
        return static_cast<std::size_t>(length);
    }

    // A u32 BE element count whose minimum encoded size must fit in the bytes not already needed by the
    // enclosing containers' remaining elements (so nested counts cannot each claim the whole input).
    std::uint64_t readCount(const char *what, std::uint64_t minSize) {
        const std::size_t at = mIn.tell();
        const std::uint64_t count = mIn.u32be();
        if (count > kMaxCount)
            mIn.failAt(at, std::string(what) + " count " + std::to_string(count) + " is >= 2^31 (negative as s32)");
        const std::uint64_t left = mIn.remaining();
        const std::uint64_t free = left > mClaimed ? left - mClaimed : 0;
        if (count * minSize > free) {
            std::string msg = std::string(what) + " count " + std::to_string(count) + " exceeds the " +
                              std::to_string(left) + " bytes left";
            if (minSize > 1) msg += " (" + std::to_string(minSize) + " bytes per pair at least)";
            if (mClaimed != 0) msg += " (" + std::to_string(mClaimed) + " of them needed by the enclosing containers)";
            mIn.failAt(at, msg);
        }
        return count;
    }

    void checkDepth(std::size_t at) {
        if (mStack.size() >= mLimits.maxDepth)
            mIn.failAt(at, "nesting deeper than the limit of " + std::to_string(mLimits.maxDepth));
    }

    void countValues(std::size_t at, std::uint64_t count) {
        if (count > mLimits.maxValues || mValues > mLimits.maxValues - count)
            mIn.failAt(at, "more than the limit of " + std::to_string(mLimits.maxValues) + " values");
        mValues += count;
    }

    // Reads one value; scalars go to their parent, containers open a frame. True when the document is done.
    bool readValue() {
        const std::size_t at = mIn.tell();
        countValues(at, 1);
        const std::uint8_t marker = mIn.u8();
        switch (marker) {
        case '!':
            return deliver(LLSD());
        case '1':
            return deliver(LLSD::Boolean(true));
        case '0':
            return deliver(LLSD::Boolean(false));
        case 'i':
            return deliver(LLSD::Integer(mIn.i32be()));
        case 'r':
            return deliver(LLSD::Real(mIn.f64be()));
        case 'd':
            return deliver(LLSD::Date(mIn.f64le())); // little-endian (§1)
        case 'u': {
            UUIDBytes id;
            mIn.copyTo(id.data(), id.size());
            return deliver(LLSD::Uuid(id));
        }
        case 's':
        case 'l': {
            const std::size_t length = readLength(marker == 's' ? "string" : "uri");
            std::string text = mIn.string(length);
            return deliver(marker == 's' ? LLSD::String(std::move(text)) : LLSD::Uri(std::move(text)));
        }
        case 'b': {
            const std::size_t length = readLength("binary");
            const std::uint8_t *p = mIn.take(length);
            return deliver(LLSD::Binary(std::vector<std::uint8_t>(p, p + length)));
        }
        case '[':
        case '{': {
            checkDepth(at);
            const bool isMap = marker == '{';
            const std::uint64_t minSize = isMap ? kMinMapPair : kMinArrayElement;
            const std::uint64_t count = readCount(isMap ? "map" : "array", minSize);
            // Its elements will count too: refuse now rather than reserve room for them.
            if (count > mLimits.maxValues - mValues)
                mIn.failAt(at, std::string(isMap ? "map" : "array") + " of " + std::to_string(count) +
                                   " entries exceeds the limit of " + std::to_string(mLimits.maxValues) + " values");
            mStack.emplace_back();
            Frame &f = mStack.back();
            f.isMap = isMap;
            f.left = count;
            f.start = at;
            if (isMap) {
                f.value = LLSD::MakeMap();
                f.value.map().reserve(static_cast<std::size_t>(count));
            } else {
                f.value = LLSD::MakeArray();
                f.value.array().reserve(static_cast<std::size_t>(count));
            }
            mClaimed += count * minSize;
            return false;
        }
        case ']':
        case '}':
            if (!mStack.empty())
                mIn.failAt(at, std::string(mStack.back().isMap ? "map" : "array") + " closed by '" +
                                   static_cast<char>(marker) + "' before its declared count was reached");
            mIn.failAt(at, "unknown LLSD marker " + DescribeMarker(marker));
        case '\'':
        case '"':
            mIn.failAt(at, "quoted strings are not supported in binary LLSD");
        default:
            mIn.failAt(at, "unknown LLSD marker " + DescribeMarker(marker));
        }
    }

    void closeTop() {
        Frame &top = mStack.back();
        const char expected = top.isMap ? '}' : ']';
        const std::size_t at = mIn.tell();
        if (mIn.atEnd())
            mIn.failAt(at, std::string("unexpected end of data: missing '") + expected + "' of the " +
                               (top.isMap ? "map" : "array") + " at offset " +
                               std::to_string(mIn.baseOffset() + top.start));
        const std::uint8_t marker = mIn.u8();
        if (marker != static_cast<std::uint8_t>(expected))
            mIn.failAt(at, std::string("expected '") + expected + "' to close the " + (top.isMap ? "map" : "array") +
                               " at offset " + std::to_string(mIn.baseOffset() + top.start) + ", found " +
                               DescribeMarker(marker));
        LLSD done = std::move(top.value);
        mStack.pop_back();
        deliver(std::move(done));
    }

    // Hands a finished value to the open container (or makes it the result). True when it is the result.
    bool deliver(LLSD value) {
        if (mStack.empty()) {
            mResult = std::move(value);
            return true;
        }
        Frame &top = mStack.back();
        if (!top.isMap) {
            top.value.array().push_back(std::move(value));
            return false;
        }
        LLSD::Map &entries = top.value.map();
        // A repeated key: the later value replaces the earlier one, in the earlier one's place.
        if (entries.capacity() > kIndexThreshold) {
            const auto inserted = top.index.emplace(top.key, entries.size());
            if (!inserted.second) {
                entries[inserted.first->second].second = std::move(value);
                return false;
            }
        } else {
            for (LLSD::MapEntry &e : entries)
                if (e.first == top.key) {
                    e.second = std::move(value);
                    return false;
                }
        }
        entries.emplace_back(std::string(top.key), std::move(value));
        return false;
    }

    ByteReader mIn;
    const LLSDLimits &mLimits;
    std::vector<Frame> mStack;
    std::uint64_t mClaimed = 0; // minimum bytes the open containers' unread elements still need
    std::size_t mValues = 0;    // values read so far (LLSDLimits::maxValues)
    LLSD mResult;
};

} // namespace

std::size_t SkipLLSDPrefix(const std::uint8_t *data, std::size_t size, std::size_t baseOffset) {
    if (data == nullptr || size < 2 || data[0] != '<' || data[1] != '?') return 0;
    const std::size_t limit = std::min(size, kPrefixLimit);
    for (std::size_t i = 2; i + 1 < limit; ++i) {
        if (data[i] == '?' && data[i + 1] == '>') {
            std::size_t end = i + 2;
            if (end < size && data[end] == '\n') ++end;
            return end;
        }
    }
    throw FormatError(kFormatName,
                      "text prefix \"<?\" without \"?>\" in the first " + std::to_string(kPrefixLimit) + " bytes",
                      baseOffset);
}

LLSDParseResult ParseBinaryLLSD(const std::uint8_t *data, std::size_t size, std::size_t baseOffset,
                                const LLSDLimits &limits) {
    Parser parser(data, size, baseOffset, limits);
    return parser.run();
}

// ---------------------------------------------------------------------------------------------------------
// Writer

namespace {

void PutU32be(std::vector<std::uint8_t> &out, std::uint32_t v) {
    const std::uint8_t b[4] = {static_cast<std::uint8_t>(v >> 24), static_cast<std::uint8_t>(v >> 16),
                               static_cast<std::uint8_t>(v >> 8), static_cast<std::uint8_t>(v)};
    out.insert(out.end(), b, b + 4);
}

void PutF64(std::vector<std::uint8_t> &out, double v, bool bigEndian) {
    std::uint64_t bits;
    std::memcpy(&bits, &v, sizeof bits);
    std::uint8_t b[8];
    for (int i = 0; i < 8; ++i) {
        const int shift = bigEndian ? 56 - 8 * i : 8 * i;
        b[i] = static_cast<std::uint8_t>(bits >> shift);
    }
    out.insert(out.end(), b, b + 8);
}

std::uint32_t CheckedSize(std::size_t n, const char *what) {
    if (n > kMaxCount)
        throw FormatError(kFormatName,
                          std::string(what) + " of " + std::to_string(n) + " exceeds binary LLSD's limit of 2^31 - 1");
    return static_cast<std::uint32_t>(n);
}

void PutBytes(std::vector<std::uint8_t> &out, const void *p, std::size_t n) {
    if (n == 0) return;
    const auto *b = static_cast<const std::uint8_t *>(p);
    out.insert(out.end(), b, b + n);
}

// Recursion follows the value's own depth: values from the reader are bounded by LLSDLimits::maxDepth.
void Append(const LLSD &v, std::vector<std::uint8_t> &out, bool sortKeys) {
    switch (v.type()) {
    case LLSDType::Undefined:
        out.push_back('!');
        return;
    case LLSDType::Boolean:
        out.push_back(v.boolean() ? '1' : '0');
        return;
    case LLSDType::Integer:
        out.push_back('i');
        PutU32be(out, static_cast<std::uint32_t>(v.integer()));
        return;
    case LLSDType::Real:
        out.push_back('r');
        PutF64(out, v.real(), true);
        return;
    case LLSDType::Date:
        out.push_back('d');
        PutF64(out, v.real(), false);
        return;
    case LLSDType::UUID:
        out.push_back('u');
        PutBytes(out, v.uuid().data(), v.uuid().size());
        return;
    case LLSDType::String:
    case LLSDType::URI:
        out.push_back(v.type() == LLSDType::String ? 's' : 'l');
        PutU32be(out, CheckedSize(v.string().size(), "string length"));
        PutBytes(out, v.string().data(), v.string().size());
        return;
    case LLSDType::Binary:
        out.push_back('b');
        PutU32be(out, CheckedSize(v.binary().size(), "binary length"));
        PutBytes(out, v.binary().data(), v.binary().size());
        return;
    case LLSDType::Array:
        out.push_back('[');
        PutU32be(out, CheckedSize(v.array().size(), "array count"));
        for (const LLSD &e : v.array()) Append(e, out, sortKeys);
        out.push_back(']');
        return;
    case LLSDType::Map: {
        const LLSD::Map &m = v.map();
        out.push_back('{');
        PutU32be(out, CheckedSize(m.size(), "map count"));
        const auto putEntry = [&out, sortKeys](const LLSD::MapEntry &e) {
            out.push_back('k');
            PutU32be(out, CheckedSize(e.first.size(), "map key length"));
            PutBytes(out, e.first.data(), e.first.size());
            Append(e.second, out, sortKeys);
        };
        const auto entryLess = [](const LLSD::MapEntry &a, const LLSD::MapEntry &b) {
            return KeyLess(a.first, b.first);
        };
        if (!sortKeys || std::is_sorted(m.begin(), m.end(), entryLess)) {
            for (const LLSD::MapEntry &e : m) putEntry(e);
        } else {
            std::vector<const LLSD::MapEntry *> order;
            order.reserve(m.size());
            for (const LLSD::MapEntry &e : m) order.push_back(&e);
            std::stable_sort(order.begin(), order.end(), [](const LLSD::MapEntry *a, const LLSD::MapEntry *b) {
                return KeyLess(a->first, b->first);
            });
            for (const LLSD::MapEntry *e : order) putEntry(*e);
        }
        out.push_back('}');
        return;
    }
    }
}

} // namespace

void AppendBinaryLLSD(const LLSD &value, std::vector<std::uint8_t> &out, bool sortKeys) {
    Append(value, out, sortKeys);
}

std::vector<std::uint8_t> WriteBinaryLLSD(const LLSD &value, bool sortKeys) {
    std::vector<std::uint8_t> out;
    Append(value, out, sortKeys);
    return out;
}

// ---------------------------------------------------------------------------------------------------------
// Text rendering

namespace {

void AppendQuoted(std::string &out, const std::string &s) {
    out += '"';
    for (const char c : s) {
        const auto b = static_cast<unsigned char>(c);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (b < 0x20 || b == 0x7F) {
            out += "\\x";
            out += Hex2(b).substr(2);
        } else {
            out += c;
        }
    }
    out += '"';
}

void AppendTwo(std::string &out, long long v) {
    out += static_cast<char>('0' + v / 10);
    out += static_cast<char>('0' + v % 10);
}

// See llsd.hpp. Whole microseconds, so 1e-7 below the next second rounds up to it.
void AppendDate(std::string &out, double seconds) {
    const std::string iso = FormatIsoDate(seconds);
    if (!iso.empty()) {
        out += iso;
        return;
    }
    out += "date(";
    AppendDouble(out, seconds);
    out += ")";
}

void AppendUuid(std::string &out, const UUIDBytes &id) {
    static const char *digits = "0123456789abcdef";
    for (std::size_t i = 0; i < id.size(); ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10) out += '-';
        out += digits[id[i] >> 4];
        out += digits[id[i] & 15];
    }
}

// Stops descending once the text is longer than `limit`; the caller cuts it.
void Describe(const LLSD &v, std::string &out, std::size_t limit) {
    if (out.size() > limit) return;
    switch (v.type()) {
    case LLSDType::Undefined:
        out += "undef";
        return;
    case LLSDType::Boolean:
        out += v.boolean() ? "true" : "false";
        return;
    case LLSDType::Integer:
        AppendInt(out, v.integer());
        return;
    case LLSDType::Real:
        AppendDouble(out, v.real());
        return;
    case LLSDType::Date:
        AppendDate(out, v.real());
        return;
    case LLSDType::UUID:
        AppendUuid(out, v.uuid());
        return;
    case LLSDType::String:
        AppendQuoted(out, v.string());
        return;
    case LLSDType::URI:
        out += "uri(";
        AppendQuoted(out, v.string());
        out += ')';
        return;
    case LLSDType::Binary:
        out += "<binary ";
        AppendUInt(out, v.binary().size());
        out += " bytes>";
        return;
    case LLSDType::Array:
        out += '[';
        for (std::size_t i = 0; i < v.array().size() && out.size() <= limit; ++i) {
            if (i != 0) out += ", ";
            Describe(v.array()[i], out, limit);
        }
        out += ']';
        return;
    case LLSDType::Map:
        out += '{';
        for (std::size_t i = 0; i < v.map().size() && out.size() <= limit; ++i) {
            if (i != 0) out += ", ";
            out += v.map()[i].first;
            out += ": ";
            Describe(v.map()[i].second, out, limit);
        }
        out += '}';
        return;
    }
}

} // namespace

std::string FormatIsoDate(double seconds) {
    if (!std::isfinite(seconds) || seconds < -62167219200.0 || seconds >= 253402300800.0) return {};
    const long long micros = std::llround(seconds * 1e6);
    long long secs = micros >= 0 ? micros / 1000000 : -((-micros + 999999) / 1000000);
    const long long fraction = micros - secs * 1000000;
    if (secs > 253402300799LL) return {}; // rounded up past 9999-12-31T23:59:59
    long long days = secs >= 0 ? secs / 86400 : -((-secs + 86399) / 86400);
    const long long rem = secs - days * 86400;
    // Days to civil date (H. Hinnant's algorithm).
    days += 719468;
    const long long era = (days >= 0 ? days : days - 146096) / 146097;
    const long long doe = days - era * 146097;
    const long long yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    long long year = yoe + era * 400;
    const long long doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    const long long mp = (5 * doy + 2) / 153;
    const long long day = doy - (153 * mp + 2) / 5 + 1;
    const long long month = mp < 10 ? mp + 3 : mp - 9;
    if (month <= 2) ++year;
    std::string out;
    AppendTwo(out, year / 100);
    AppendTwo(out, year % 100);
    out += '-';
    AppendTwo(out, month);
    out += '-';
    AppendTwo(out, day);
    out += 'T';
    AppendTwo(out, rem / 3600);
    out += ':';
    AppendTwo(out, rem / 60 % 60);
    out += ':';
    AppendTwo(out, rem % 60);
    if (fraction != 0) {
        std::string digits(6, '0');
        long long f = fraction;
        for (int i = 5; i >= 0; --i, f /= 10) digits[static_cast<std::size_t>(i)] = static_cast<char>('0' + f % 10);
        while (digits.back() == '0') digits.pop_back();
        out += '.';
        out += digits;
    }
    out += 'Z';
    return out;
}

std::string DescribeLLSD(const LLSD &value, std::size_t maxLength) {
    std::string out;
    Describe(value, out, maxLength);
    if (out.size() > maxLength) {
        if (maxLength >= 3) {
            out.resize(maxLength - 3);
            out += "...";
        } else {
            out.resize(maxLength);
        }
    }
    return out;
}

} // namespace gamefmt::slmesh
