// The "<Type>:<text>" form of property values (value_text.hpp documents every type's spelling).
#include "importers/roblox_model/document/value_text.hpp"

#include "common/base64.hpp"
#include "common/error.hpp"
#include "common/text_number.hpp"

#include <limits>
#include <optional>
#include <type_traits>
#include <variant>
#include <vector>

namespace gamefmt::rbx {
namespace {

constexpr const char *kHex = "0123456789ABCDEF";

[[noreturn]] void Fail(const std::string &message) {
    throw FormatError(kFormatName, "property text: " + message);
}

std::string Base64(std::string_view bytes) {
    return Base64Encode(reinterpret_cast<const std::uint8_t *>(bytes.data()), bytes.size());
}

std::string UnBase64(std::string_view text, const char *what) {
    const std::optional<std::vector<std::uint8_t>> bytes = Base64Decode(text);
    if (!bytes) Fail(std::string("bad base64 in ") + what);
    return std::string(bytes->begin(), bytes->end());
}

// Appends numbers separated by single spaces.
class Out {
public:
    explicit Out(std::string &s) : mS(s) {}
    void sep() {
        if (mAny) mS += ' ';
        mAny = true;
    }
    Out &f(float v) {
        sep();
        AppendFloat(mS, v);
        return *this;
    }
    Out &d(double v) {
        sep();
        AppendDouble(mS, v);
        return *this;
    }
    Out &i(std::int64_t v) {
        sep();
        AppendInt(mS, v);
        return *this;
    }
    Out &u(std::uint64_t v) {
        sep();
        AppendUInt(mS, v);
        return *this;
    }
    Out &s(std::string_view v) {
        sep();
        mS += v;
        return *this;
    }

private:
    std::string &mS;
    bool mAny = false;
};

void AppendCFrame(Out &o, const CFrame &c) {
    o.f(c.position.x).f(c.position.y).f(c.position.z);
    for (float r : c.rotation) o.f(r);
}

std::string PercentEncode(std::string_view s) {
    if (s.empty()) return "-";
    if (s == "-") return "%2D";
    std::string out;
    out.reserve(s.size());
    for (char ch : s) {
        const auto b = static_cast<unsigned char>(ch);
        if (b <= 0x20 || b == '%' || b == 0x7F) {
            out += '%';
            out += kHex[b >> 4];
            out += kHex[b & 15];
        } else {
            out += ch;
        }
    }
    return out;
}

int HexDigit(char c) {
    if (c >= '0' && c <= '9') return c - '0';
    if (c >= 'A' && c <= 'F') return c - 'A' + 10;
    if (c >= 'a' && c <= 'f') return c - 'a' + 10;
    return -1;
}

std::string PercentDecode(std::string_view s) {
    if (s == "-") return {};
    std::string out;
    out.reserve(s.size());
    for (std::size_t i = 0; i < s.size(); ++i) {
        if (s[i] != '%') {
            out += s[i];
            continue;
        }
        if (i + 2 >= s.size()) Fail("truncated %-escape in Font text");
        const int hi = HexDigit(s[i + 1]), lo = HexDigit(s[i + 2]);
        if (hi < 0 || lo < 0) Fail("bad %-escape in Font text");
        out += static_cast<char>(hi * 16 + lo);
        i += 2;
    }
    return out;
}

// Space-separated tokens of a numeric text (no empty tokens: single spaces only, as Format writes; any
// run of spaces is accepted).
std::vector<std::string_view> Tokens(std::string_view text) {
    std::vector<std::string_view> out;
    std::size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && text[i] == ' ') ++i;
        if (i >= text.size()) break;
        std::size_t j = i;
        while (j < text.size() && text[j] != ' ') ++j;
        out.push_back(text.substr(i, j - i));
        i = j;
    }
    return out;
}

class In {
public:
    In(std::string_view text, const char *type) : mTokens(Tokens(text)), mType(type) {}
    std::size_t size() const { return mTokens.size(); }
    void expect(std::size_t n) const {
        if (mTokens.size() != n)
            Fail(std::string(mType) + " needs " + std::to_string(n) + " values, got " + std::to_string(mTokens.size()));
    }
    std::string_view next() {
        if (mPos >= mTokens.size()) Fail(std::string(mType) + ": too few values");
        return mTokens[mPos++];
    }
    float f() {
        float v = 0;
        const std::string_view t = next();
        if (!ParseFloat(t, v)) Fail(std::string(mType) + ": bad number '" + QuoteText(t) + "'");
        return v;
    }
    double d() {
        double v = 0;
        const std::string_view t = next();
        if (!ParseDouble(t, v)) Fail(std::string(mType) + ": bad number '" + QuoteText(t) + "'");
        return v;
    }
    std::int64_t i(std::int64_t lo, std::int64_t hi) {
        std::int64_t v = 0;
        const std::string_view t = next();
        if (!ParseInt64(t, v) || v < lo || v > hi) Fail(std::string(mType) + ": bad integer '" + QuoteText(t) + "'");
        return v;
    }
    std::uint64_t u(std::uint64_t hi) {
        std::uint64_t v = 0;
        const std::string_view t = next();
        if (!ParseUInt64(t, v) || v > hi) Fail(std::string(mType) + ": bad integer '" + QuoteText(t) + "'");
        return v;
    }
    CFrame cframe() {
        CFrame c;
        c.position.x = f();
        c.position.y = f();
        c.position.z = f();
        for (float &r : c.rotation) r = f();
        return c;
    }

private:
    std::vector<std::string_view> mTokens;
    std::size_t mPos = 0;
    const char *mType;
};

constexpr std::int64_t kI32Min = std::numeric_limits<std::int32_t>::min();
constexpr std::int64_t kI32Max = std::numeric_limits<std::int32_t>::max();
constexpr std::int64_t kI16Min = std::numeric_limits<std::int16_t>::min();
constexpr std::int64_t kI16Max = std::numeric_limits<std::int16_t>::max();
constexpr std::uint64_t kU32Max = std::numeric_limits<std::uint32_t>::max();

std::uint64_t Rotr64(std::uint64_t v, unsigned n) {
    return (v >> n) | (v << (64 - n));
}
std::uint64_t Rotl64(std::uint64_t v, unsigned n) {
    return (v << n) | (v >> (64 - n));
}

void AppendHex(std::string &out, std::uint64_t v, int digits) {
    for (int k = digits - 1; k >= 0; --k) out += kHex[(v >> (4 * k)) & 15];
}

bool ParseHex(std::string_view s, std::uint64_t &out) {
    out = 0;
    for (char c : s) {
        const int h = HexDigit(c);
        if (h < 0) return false;
        out = out * 16 + static_cast<unsigned>(h);
    }
    return true;
}

std::optional<Type> TypeFromName(std::string_view name) {
    static const std::unordered_map<std::string, Type> table = [] {
        std::unordered_map<std::string, Type> t;
        for (int id = 0x01; id <= 0x22; ++id) t.emplace(TypeName(static_cast<Type>(id)), static_cast<Type>(id));
        t.emplace(TypeName(Type::Unknown), Type::Unknown);
        return t;
    }();
    const auto it = table.find(std::string(name));
    if (it == table.end()) return std::nullopt;
    return it->second;
}

} // namespace

bool IsPlainUtf8(std::string_view bytes) noexcept {
    const auto *p = reinterpret_cast<const unsigned char *>(bytes.data());
    const std::size_t n = bytes.size();
    std::size_t i = 0;
    while (i < n) {
        const unsigned char c = p[i];
        if (c == 0) return false;
        if (c < 0x80) {
            ++i;
            continue;
        }
        std::size_t len;
        std::uint32_t cp;
        if (c >= 0xC2 && c <= 0xDF)
            len = 2, cp = c & 0x1F;
        else if (c >= 0xE0 && c <= 0xEF)
            len = 3, cp = c & 0x0F;
        else if (c >= 0xF0 && c <= 0xF4)
            len = 4, cp = c & 0x07;
        else
            return false;
        if (n - i < len) return false;
        for (std::size_t k = 1; k < len; ++k) {
            if ((p[i + k] & 0xC0) != 0x80) return false;
            cp = (cp << 6) | (p[i + k] & 0x3F);
        }
        // Overlong forms, surrogates and values past U+10FFFF are not UTF-8.
        if ((len == 3 && cp < 0x800) || (len == 4 && (cp < 0x10000 || cp > 0x10FFFF)) || (cp >= 0xD800 && cp <= 0xDFFF))
            return false;
        i += len;
    }
    return true;
}

std::string ReferentText(const Document &document, std::uint32_t index) {
    if (index >= document.instances.size()) return "null";
    const std::string &referent = document.instances[index].referent;
    if (!referent.empty() && referent != "null") return referent;
    return "@" + std::to_string(index);
}

// The text of each kind of value after "<Type>:" (one overload per alternative of ValueData).
struct ValueFormatter {
    const Document &document;
    std::string &s;
    Out o{s};

    void operator()(const std::string &v) {
        // String-typed values are handled above; other types never hold a plain string, but keep
        // them lossless anyway.
        s += Base64(v);
    }
    void operator()(const bool &v) { s += v ? "true" : "false"; }
    void operator()(const std::int32_t &v) { o.i(v); }
    void operator()(const float &v) { o.f(v); }
    void operator()(const double &v) { o.d(v); }
    void operator()(const UDim &v) { o.f(v.scale).i(v.offset); }
    void operator()(const UDim2 &v) { o.f(v.x.scale).i(v.x.offset).f(v.y.scale).i(v.y.offset); }
    void operator()(const Ray &v) {
        o.f(v.origin.x).f(v.origin.y).f(v.origin.z).f(v.direction.x).f(v.direction.y).f(v.direction.z);
    }
    void operator()(const Faces &v) { o.u(v.bits); }
    void operator()(const Axes &v) { o.u(v.bits); }
    void operator()(const BrickColor &v) { o.u(v.number); }
    void operator()(const Color3 &v) { o.f(v.r).f(v.g).f(v.b); }
    void operator()(const Vector2 &v) { o.f(v.x).f(v.y); }
    void operator()(const Vector3 &v) { o.f(v.x).f(v.y).f(v.z); }
    void operator()(const Vector2int16 &v) { o.i(v.x).i(v.y); }
    void operator()(const Vector3int16 &v) { o.i(v.x).i(v.y).i(v.z); }
    void operator()(const CFrame &v) { AppendCFrame(o, v); }
    void operator()(const EnumValue &v) { o.u(v.value); }
    void operator()(const RefValue &v) {
        s += v.target == kNoInstance ? std::string("null") : ReferentText(document, v.target);
    }
    void operator()(const NumberSequence &v) {
        for (const NumberKeypoint &k : v.keypoints) o.f(k.time).f(k.value).f(k.envelope);
    }
    void operator()(const ColorSequence &v) {
        for (const ColorKeypoint &k : v.keypoints) o.f(k.time).f(k.color.r).f(k.color.g).f(k.color.b).f(k.envelope);
    }
    void operator()(const NumberRange &v) { o.f(v.min).f(v.max); }
    void operator()(const Rect &v) { o.f(v.min.x).f(v.min.y).f(v.max.x).f(v.max.y); }
    void operator()(const PhysicalProperties &v) {
        if (!v.custom()) {
            s += (v.flags & 2) != 0 ? "default acoustic" : "default";
        } else {
            o.f(v.density).f(v.friction).f(v.elasticity).f(v.frictionWeight).f(v.elasticityWeight);
            if (v.hasAcoustic()) o.f(v.acousticAbsorption);
        }
    }
    void operator()(const Color3uint8 &v) { o.u(v.r).u(v.g).u(v.b); }
    void operator()(const Int64Value &v) { o.i(v.value); }
    void operator()(const SharedStringRef &v) {
        if (v.index < document.sharedStrings.size()) s += Base64(document.sharedStrings[v.index].content);
    }
    void operator()(const Bytecode &v) { s += Base64(v.bytes); }
    void operator()(const OptionalCFrame &v) {
        if (v.present) AppendCFrame(o, v.value);
    }
    void operator()(const UniqueId &v) {
        AppendHex(s, Rotr64(v.random, 1), 16);
        AppendHex(s, v.time, 8);
        AppendHex(s, v.index, 8);
    }
    void operator()(const Font &v) {
        o.u(v.weight);
        if (v.style == 0)
            o.s("Normal");
        else if (v.style == 1)
            o.s("Italic");
        else
            o.u(v.style);
        o.s(PercentEncode(v.family));
        if (!v.cachedFaceId.empty()) o.s(PercentEncode(v.cachedFaceId));
    }
    void operator()(const SecurityCapabilities &v) { o.u(v.bits); }
    void operator()(const Content &v) {
        switch (v.source) {
        case Content::Source::None:
            s += "none";
            break;
        case Content::Source::Uri:
            s += "uri " + v.uri;
            break;
        case Content::Source::Object:
            s += "object ";
            s += v.object == kNoInstance ? std::string("null") : ReferentText(document, v.object);
            break;
        }
    }
    void operator()(const UnknownValue &v) {
        o.u(v.binaryType);
        s += ' ';
        s += v.xmlTag;
        s += ' ';
        s += Base64(v.raw);
    }
};

std::string FormatValue(const Document &document, const Value &value) {
    const Type type = value.type;
    const ValueData &data = value.data;
    if (type == Type::String) {
        // A String is normally std::string; a reader may have stored other text-like alternatives.
        const std::string *text = std::get_if<std::string>(&data);
        if (text != nullptr) {
            if (IsPlainUtf8(*text)) return "String:" + *text;
            return "BinaryString:" + Base64(*text);
        }
    }
    std::string s = TypeName(type);
    s += ':';
    std::visit(ValueFormatter{document, s}, data);
    return s;
}

namespace {

// String, Bool, Int32, Float32, Float64, Int64, SecurityCapabilities, Enum, BrickColor, Faces, Axes, Bytecode.
void ParseScalar(Type type, std::string_view body, In &in, Value &value) {
    switch (type) {
    case Type::String:
        value.data = std::string(body);
        break;
    case Type::Bool:
        if (body == "true")
            value.data = true;
        else if (body == "false")
            value.data = false;
        else
            Fail("Bool must be true or false");
        break;
    case Type::Int32:
        in.expect(1);
        value.data = static_cast<std::int32_t>(in.i(kI32Min, kI32Max));
        break;
    case Type::Float32:
        in.expect(1);
        value.data = in.f();
        break;
    case Type::Float64:
        in.expect(1);
        value.data = in.d();
        break;
    case Type::Int64:
        in.expect(1);
        value.data =
            Int64Value{in.i(std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::int64_t>::max())};
        break;
    case Type::SecurityCapabilities:
        in.expect(1);
        value.data = SecurityCapabilities{in.u(std::numeric_limits<std::uint64_t>::max())};
        break;
    case Type::Enum:
        in.expect(1);
        value.data = EnumValue{static_cast<std::uint32_t>(in.u(kU32Max))};
        break;
    case Type::BrickColor:
        in.expect(1);
        value.data = BrickColor{static_cast<std::uint32_t>(in.u(kU32Max))};
        break;
    case Type::Faces:
        in.expect(1);
        value.data = Faces{static_cast<std::uint8_t>(in.u(255))};
        break;
    case Type::Axes:
        in.expect(1);
        value.data = Axes{static_cast<std::uint8_t>(in.u(255))};
        break;
    case Type::Bytecode:
        value.data = Bytecode{UnBase64(body, "Bytecode")};
        break;
    default:
        break;
    }
}

// UDim, UDim2, Ray, Vector2, Vector3, Vector2int16, Vector3int16, Rect.
void ParseVector(Type type, In &in, Value &value) {
    switch (type) {
    case Type::UDim: {
        in.expect(2);
        UDim u;
        u.scale = in.f();
        u.offset = static_cast<std::int32_t>(in.i(kI32Min, kI32Max));
        value.data = u;
        break;
    }
    case Type::UDim2: {
        in.expect(4);
        UDim2 u;
        u.x.scale = in.f();
        u.x.offset = static_cast<std::int32_t>(in.i(kI32Min, kI32Max));
        u.y.scale = in.f();
        u.y.offset = static_cast<std::int32_t>(in.i(kI32Min, kI32Max));
        value.data = u;
        break;
    }
    case Type::Ray: {
        in.expect(6);
        Ray r;
        r.origin = {in.f(), in.f(), in.f()};
        r.direction = {in.f(), in.f(), in.f()};
        value.data = r;
        break;
    }
    case Type::Vector2: {
        in.expect(2);
        Vector2 v;
        v.x = in.f();
        v.y = in.f();
        value.data = v;
        break;
    }
    case Type::Vector3: {
        in.expect(3);
        Vector3 v;
        v.x = in.f();
        v.y = in.f();
        v.z = in.f();
        value.data = v;
        break;
    }
    case Type::Vector2int16: {
        in.expect(2);
        Vector2int16 v;
        v.x = static_cast<std::int16_t>(in.i(kI16Min, kI16Max));
        v.y = static_cast<std::int16_t>(in.i(kI16Min, kI16Max));
        value.data = v;
        break;
    }
    case Type::Vector3int16: {
        in.expect(3);
        Vector3int16 v;
        v.x = static_cast<std::int16_t>(in.i(kI16Min, kI16Max));
        v.y = static_cast<std::int16_t>(in.i(kI16Min, kI16Max));
        v.z = static_cast<std::int16_t>(in.i(kI16Min, kI16Max));
        value.data = v;
        break;
    }
    case Type::Rect: {
        in.expect(4);
        Rect r;
        r.min.x = in.f();
        r.min.y = in.f();
        r.max.x = in.f();
        r.max.y = in.f();
        value.data = r;
        break;
    }
    default:
        break;
    }
}

// Color3, Color3uint8, CFrame, CFrameQuat, OptionalCFrame.
void ParseColorOrFrame(Type type, In &in, Value &value) {
    switch (type) {
    case Type::Color3: {
        in.expect(3);
        Color3 c;
        c.r = in.f();
        c.g = in.f();
        c.b = in.f();
        value.data = c;
        break;
    }
    case Type::Color3uint8: {
        in.expect(3);
        Color3uint8 c;
        c.r = static_cast<std::uint8_t>(in.u(255));
        c.g = static_cast<std::uint8_t>(in.u(255));
        c.b = static_cast<std::uint8_t>(in.u(255));
        value.data = c;
        break;
    }
    case Type::CFrame:
    case Type::CFrameQuat:
        in.expect(12);
        value.data = in.cframe();
        break;
    case Type::OptionalCFrame: {
        OptionalCFrame o;
        if (in.size() != 0) {
            in.expect(12);
            o.present = true;
            o.value = in.cframe();
        }
        value.data = o;
        break;
    }
    default:
        break;
    }
}

// NumberSequence, ColorSequence, NumberRange, PhysicalProperties.
void ParseSequence(Type type, std::string_view body, In &in, Value &value) {
    switch (type) {
    case Type::NumberSequence: {
        if (in.size() % 3 != 0) Fail("NumberSequence needs 3 values per keypoint");
        NumberSequence seq;
        seq.keypoints.resize(in.size() / 3);
        for (NumberKeypoint &k : seq.keypoints) {
            k.time = in.f();
            k.value = in.f();
            k.envelope = in.f();
        }
        value.data = std::move(seq);
        break;
    }
    case Type::ColorSequence: {
        if (in.size() % 5 != 0) Fail("ColorSequence needs 5 values per keypoint");
        ColorSequence seq;
        seq.keypoints.resize(in.size() / 5);
        for (ColorKeypoint &k : seq.keypoints) {
            k.time = in.f();
            k.color.r = in.f();
            k.color.g = in.f();
            k.color.b = in.f();
            k.envelope = in.f();
        }
        value.data = std::move(seq);
        break;
    }
    case Type::NumberRange: {
        in.expect(2);
        NumberRange r;
        r.min = in.f();
        r.max = in.f();
        value.data = r;
        break;
    }
    case Type::PhysicalProperties: {
        PhysicalProperties p;
        if (body == "default") {
            p.flags = 0;
        } else if (body == "default acoustic") {
            p.flags = 2;
        } else {
            if (in.size() != 5 && in.size() != 6) Fail("PhysicalProperties needs default or 5-6 values");
            p.flags = in.size() == 6 ? 3 : 1;
            p.density = in.f();
            p.friction = in.f();
            p.elasticity = in.f();
            p.frictionWeight = in.f();
            p.elasticityWeight = in.f();
            if (in.size() == 6) p.acousticAbsorption = in.f();
        }
        value.data = p;
        break;
    }
    default:
        break;
    }
}

// UniqueId and Font.
void ParseIdentity(Type type, std::string_view body, In &in, Value &value) {
    switch (type) {
    case Type::UniqueId: {
        std::uint64_t random = 0, time = 0, index = 0;
        if (body.size() != 32 || !ParseHex(body.substr(0, 16), random) || !ParseHex(body.substr(16, 8), time) ||
            !ParseHex(body.substr(24, 8), index))
            Fail("UniqueId needs 32 hex digits");
        UniqueId u;
        u.random = Rotl64(random, 1);
        u.time = static_cast<std::uint32_t>(time);
        u.index = static_cast<std::uint32_t>(index);
        value.data = u;
        break;
    }
    case Type::Font: {
        if (in.size() != 3 && in.size() != 4) Fail("Font needs weight style family [cachedFaceId]");
        Font f;
        f.weight = static_cast<std::uint16_t>(in.u(0xFFFF));
        const std::string_view style = in.next();
        if (style == "Normal")
            f.style = 0;
        else if (style == "Italic")
            f.style = 1;
        else {
            std::uint32_t n = 0;
            if (!ParseUInt32(style, n) || n > 255) Fail("Font style must be Normal, Italic or a number");
            f.style = static_cast<std::uint8_t>(n);
        }
        f.family = PercentDecode(in.next());
        if (in.size() == 4) f.cachedFaceId = PercentDecode(in.next());
        value.data = std::move(f);
        break;
    }
    default:
        break;
    }
}

// Unknown: "<type id> <xml tag> <base64>".
void ParseUnknown(std::string_view body, Value &value) {
    const std::size_t a = body.find(' ');
    const std::size_t b = a == std::string_view::npos ? a : body.find(' ', a + 1);
    if (b == std::string_view::npos) Fail("Unknown needs <type id> <xml tag> <base64>");
    UnknownValue u;
    std::uint32_t id = 0;
    if (!ParseUInt32(body.substr(0, a), id) || id > 255) Fail("Unknown: bad type id");
    u.binaryType = static_cast<std::uint8_t>(id);
    u.xmlTag = std::string(body.substr(a + 1, b - a - 1));
    u.raw = UnBase64(body.substr(b + 1), "Unknown");
    value.data = std::move(u);
}

} // namespace

ValueParser::ValueParser(Document &document, ReferentResolver resolver)
    : mDocument(document), mResolver(std::move(resolver)) {
    for (std::uint32_t i = 0; i < mDocument.sharedStrings.size(); ++i)
        mShared.emplace(mDocument.sharedStrings[i].content, i);
}

std::uint32_t ValueParser::resolve(std::string_view referent) {
    if (referent == "null") return kNoInstance;
    if (mResolver) return mResolver(referent);
    if (!mReferentsBuilt) {
        for (std::uint32_t i = 0; i < mDocument.instances.size(); ++i)
            mReferents.emplace(ReferentText(mDocument, i), i);
        mReferentsBuilt = true;
    }
    const auto it = mReferents.find(std::string(referent));
    return it == mReferents.end() ? kNoInstance : it->second;
}

std::uint32_t ValueParser::addSharedString(std::string content) {
    const auto it = mShared.find(content);
    if (it != mShared.end()) return it->second;
    const auto index = static_cast<std::uint32_t>(mDocument.sharedStrings.size());
    SharedStringEntry entry;
    entry.content = std::move(content);
    mShared.emplace(entry.content, index);
    mDocument.sharedStrings.push_back(std::move(entry));
    return index;
}

// Ref, SharedString, Content (what needs the parser's referent and shared-string tables), and the
// stateless UniqueId and Font.
void ValueParser::parseReference(Type type, std::string_view body, Value &value) {
    In in(body, TypeName(type));
    switch (type) {
    case Type::Ref:
        value.data = RefValue{resolve(body)};
        break;
    case Type::SharedString:
        value.data = SharedStringRef{addSharedString(UnBase64(body, "SharedString"))};
        break;
    case Type::Content: {
        Content c;
        if (body == "none") {
            c.source = Content::Source::None;
        } else if (body.substr(0, 4) == "uri ") {
            c.source = Content::Source::Uri;
            c.uri = std::string(body.substr(4));
        } else if (body.substr(0, 7) == "object ") {
            c.source = Content::Source::Object;
            c.object = resolve(body.substr(7));
        } else {
            Fail("Content must be none, uri <u> or object <referent>");
        }
        value.data = std::move(c);
        break;
    }
    default:
        ParseIdentity(type, body, in, value);
        break;
    }
}

Value ValueParser::parse(std::string_view text) {
    const std::size_t colon = text.find(':');
    if (colon == std::string_view::npos) Fail("no ':' after the type name");
    const std::string_view typeName = text.substr(0, colon);
    const std::string_view body = text.substr(colon + 1);
    Value value;
    if (typeName == "BinaryString") {
        value.type = Type::String;
        value.data = UnBase64(body, "BinaryString");
        return value;
    }
    const std::optional<Type> type = TypeFromName(typeName);
    if (!type) Fail("unknown type '" + QuoteText(typeName) + "'");
    value.type = *type;
    // Each family tokenises the body itself (references, content and unknown values need no tokens).
    switch (FamilyOf(*type)) {
    case TypeFamily::Scalar: {
        In in(body, TypeName(*type));
        ParseScalar(*type, body, in, value);
        break;
    }
    case TypeFamily::Vector: {
        In in(body, TypeName(*type));
        ParseVector(*type, in, value);
        break;
    }
    case TypeFamily::ColorOrFrame: {
        In in(body, TypeName(*type));
        ParseColorOrFrame(*type, in, value);
        break;
    }
    case TypeFamily::Sequence: {
        In in(body, TypeName(*type));
        ParseSequence(*type, body, in, value);
        break;
    }
    case TypeFamily::Reference:
    case TypeFamily::Content:
        parseReference(*type, body, value);
        break;
    case TypeFamily::Unknown:
        ParseUnknown(body, value);
        break;
    }
    return value;
}

Value ParseValue(std::string_view text, Document &document, ReferentResolver resolver) {
    ValueParser parser(document, std::move(resolver));
    return parser.parse(text);
}

} // namespace gamefmt::rbx
