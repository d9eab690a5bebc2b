// Structural comparison of two Roblox documents (rbx_compare.hpp): used by the round-trip and cross-format
// tests, so every difference is reported with a readable instance path and both values.
#include "support/rbx_compare.hpp"

#include "common/text_number.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <string>
#include <string_view>
#include <vector>

namespace gamefmt::rbx {
namespace {

// Bit-exact so -0 and +0 differ (a writer must not normalise them), but any NaN equals any NaN because
// the text formats cannot carry NaN payloads.
bool SameFloat(float a, float b) {
    if (std::isnan(a) && std::isnan(b)) return true;
    std::uint32_t ua = 0, ub = 0;
    std::memcpy(&ua, &a, 4);
    std::memcpy(&ub, &b, 4);
    return ua == ub;
}

bool SameDouble(double a, double b) {
    if (std::isnan(a) && std::isnan(b)) return true;
    std::uint64_t ua = 0, ub = 0;
    std::memcpy(&ua, &a, 8);
    std::memcpy(&ub, &b, 8);
    return ua == ub;
}

bool SameV2(const Vector2 &a, const Vector2 &b) {
    return SameFloat(a.x, b.x) && SameFloat(a.y, b.y);
}
bool SameV3(const Vector3 &a, const Vector3 &b) {
    return SameFloat(a.x, b.x) && SameFloat(a.y, b.y) && SameFloat(a.z, b.z);
}
bool SameC3(const Color3 &a, const Color3 &b) {
    return SameFloat(a.r, b.r) && SameFloat(a.g, b.g) && SameFloat(a.b, b.b);
}
bool SameUDim(const UDim &a, const UDim &b) {
    return SameFloat(a.scale, b.scale) && a.offset == b.offset;
}
bool SameCFrame(const CFrame &a, const CFrame &b) {
    if (!SameV3(a.position, b.position)) return false;
    for (std::size_t i = 0; i < 9; ++i)
        if (!SameFloat(a.rotation[i], b.rotation[i])) return false;
    return true;
}

void AppendQuoted(std::string &out, std::string_view s) {
    constexpr std::size_t kMax = 120; // long blobs would drown the message
    static const char *hex = "0123456789ABCDEF";
    out += '"';
    for (std::size_t i = 0; i < s.size() && i < kMax; ++i) {
        const auto c = static_cast<unsigned char>(s[i]);
        if (c == '"' || c == '\\') {
            out += '\\';
            out += static_cast<char>(c);
        } else if (c >= 0x20 && c < 0x7F) {
            out += static_cast<char>(c);
        } else {
            out += "\\x";
            out += hex[c >> 4];
            out += hex[c & 15];
        }
    }
    if (s.size() > kMax) out += "...";
    out += '"';
    if (s.size() > kMax) {
        out += " (";
        AppendUInt(out, s.size());
        out += " bytes)";
    }
}

void AppendFloats(std::string &out, std::initializer_list<float> values) {
    out += '(';
    bool first = true;
    for (float v : values) {
        if (!first) out += ", ";
        first = false;
        AppendFloat(out, v);
    }
    out += ')';
}

void AppendCFrame(std::string &out, const CFrame &c) {
    out += "pos ";
    AppendFloats(out, {c.position.x, c.position.y, c.position.z});
    out += " rot (";
    for (std::size_t i = 0; i < 9; ++i) {
        if (i) out += i % 3 == 0 ? " | " : " ";
        AppendFloat(out, c.rotation[i]);
    }
    out += ')';
}

class Comparer {
public:
    Comparer(const Document &a, const Document &b, const CompareOptions &options) : mA(a), mB(b), mOptions(options) {
        mAToB.assign(a.instances.size(), kNoInstance);
    }

    std::string run() {
        // Pass 1: the tree shape, which also pairs instances so Refs compare by tree position.
        if (mA.roots.size() != mB.roots.size())
            return "root instance count: " + std::to_string(mA.roots.size()) + " vs " +
                   std::to_string(mB.roots.size()) + " (" + ListChildren(mA, mA.roots) + " vs " +
                   ListChildren(mB, mB.roots) + ")";
        for (std::size_t i = 0; i < mA.roots.size(); ++i) {
            std::string d = pair(mA.roots[i], mB.roots[i], "");
            if (!d.empty()) return d;
        }
        // Pass 2: properties, in the same pre-order.
        for (const auto &p : mOrder) {
            std::string d = compareProperties(p.first, p.second);
            if (!d.empty()) return d;
        }
        if (mOptions.compareMeta && mA.meta != mB.meta)
            return "META entries differ: " + ListMeta(mA) + " vs " + ListMeta(mB);
        // Raw chunks, raw PROP bodies and unknown top-level XML belong to one encoding and cannot survive
        // a conversion, so they are compared only between documents read from the same encoding.
        if (!mOptions.ignoreUnknown && mA.sourceEncoding == mB.sourceEncoding) {
            std::string d = compareRaw();
            if (!d.empty()) return d;
        }
        return {};
    }

private:
    const Document &mA;
    const Document &mB;
    const CompareOptions &mOptions;
    std::vector<std::uint32_t> mAToB;
    std::vector<std::pair<std::uint32_t, std::uint32_t>> mOrder;

    static std::string Label(const Document &d, std::uint32_t i) {
        if (i >= d.instances.size()) return "<instance #" + std::to_string(i) + " out of range>";
        std::string s = d.className(d.instances[i]);
        s += ' ';
        AppendQuoted(s, d.instances[i].name);
        return s;
    }

    static std::string PathOf(const Document &d, std::uint32_t i) {
        std::vector<std::uint32_t> chain;
        // Bounded by the instance count so a corrupt parent cycle cannot hang the report.
        for (std::uint32_t cur = i;
             cur != kNoInstance && cur < d.instances.size() && chain.size() <= d.instances.size();
             cur = d.instances[cur].parent)
            chain.push_back(cur);
        std::string s;
        for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
            if (!s.empty()) s += " > ";
            s += Label(d, *it);
        }
        return s.empty() ? Label(d, i) : s;
    }

    static std::string ListChildren(const Document &d, const std::vector<std::uint32_t> &list) {
        std::string s = "[";
        for (std::size_t i = 0; i < list.size() && i < 12; ++i) {
            if (i) s += ", ";
            s += Label(d, list[i]);
        }
        if (list.size() > 12) s += ", ...";
        return s + "]";
    }

    static std::string ListMeta(const Document &d) {
        std::string s = "{";
        for (const auto &kv : d.meta) {
            if (s.size() > 1) s += ", ";
            s += kv.first + "=" + kv.second;
        }
        return s + "}";
    }

    std::string pair(std::uint32_t ia, std::uint32_t ib, const std::string &parentPath) {
        if (ia >= mA.instances.size() || ib >= mB.instances.size()) return parentPath + ": instance index out of range";
        const Instance &a = mA.instances[ia];
        const Instance &b = mB.instances[ib];
        std::string path = parentPath.empty() ? Label(mA, ia) : parentPath + " > " + Label(mA, ia);
        if (mAToB[ia] != kNoInstance) return path + ": instance reached twice (cycle or shared child)";
        mAToB[ia] = ib;
        mOrder.emplace_back(ia, ib);
        if (mA.className(a) != mB.className(b)) return path + ": class " + mA.className(a) + " vs " + mB.className(b);
        if (a.name != b.name) {
            std::string s = path + ": name ";
            AppendQuoted(s, a.name);
            s += " vs ";
            AppendQuoted(s, b.name);
            return s;
        }
        if (!mOptions.ignoreReferentStrings && a.referent != b.referent)
            return path + ": referent \"" + a.referent + "\" vs \"" + b.referent + "\"";
        if (a.children.size() != b.children.size())
            return path + ": child count " + std::to_string(a.children.size()) + " vs " +
                   std::to_string(b.children.size()) + " (" + ListChildren(mA, a.children) + " vs " +
                   ListChildren(mB, b.children) + ")";
        for (std::size_t i = 0; i < a.children.size(); ++i) {
            std::string d = pair(a.children[i], b.children[i], path);
            if (!d.empty()) return d;
        }
        return {};
    }

    using NamedProps = std::vector<std::pair<std::string_view, const Property *>>;

    static NamedProps SortedProps(const Document &d, const Instance &inst) {
        NamedProps v;
        v.reserve(inst.properties.size());
        for (const Property &p : inst.properties) v.emplace_back(d.names.str(p.name), &p);
        std::sort(v.begin(), v.end(), [](const auto &x, const auto &y) { return x.first < y.first; });
        return v;
    }

    std::string compareProperties(std::uint32_t ia, std::uint32_t ib) {
        const NamedProps pa = SortedProps(mA, mA.instances[ia]);
        const NamedProps pb = SortedProps(mB, mB.instances[ib]);
        std::size_t i = 0, j = 0;
        while (i < pa.size() || j < pb.size()) {
            if (j == pb.size() || (i < pa.size() && pa[i].first < pb[j].first)) {
                if (!(mOptions.ignoreUnknown && pa[i].second->value.type == Type::Unknown))
                    return PathOf(mA, ia) + ": property " + std::string(pa[i].first) + ": " +
                           render(mA, pa[i].second->value) + " vs <missing>";
                ++i;
            } else if (i == pa.size() || pb[j].first < pa[i].first) {
                if (!(mOptions.ignoreUnknown && pb[j].second->value.type == Type::Unknown))
                    return PathOf(mA, ia) + ": property " + std::string(pb[j].first) + ": <missing> vs " +
                           render(mB, pb[j].second->value);
                ++j;
            } else {
                const Value &va = pa[i].second->value;
                const Value &vb = pb[j].second->value;
                if (!(mOptions.ignoreUnknown && (va.type == Type::Unknown || vb.type == Type::Unknown)) &&
                    !sameValue(va, vb))
                    return PathOf(mA, ia) + ": property " + std::string(pa[i].first) + ": " + render(mA, va) + " vs " +
                           render(mB, vb);
                ++i;
                ++j;
            }
        }
        return {};
    }

    // CFrameQuat is only a storage choice of CFrame (dom.hpp), so the two types compare equal.
    static Type EffectiveType(Type t) { return t == Type::CFrameQuat ? Type::CFrame : t; }

    const std::string *sharedContent(const Document &d, const SharedStringRef &s) const {
        return s.index < d.sharedStrings.size() ? &d.sharedStrings[s.index].content : nullptr;
    }

    // Refs are equal when they point at the same tree position: A's target paired with B's target.
    bool sameTarget(std::uint32_t ta, std::uint32_t tb) const {
        const bool nullA = ta == kNoInstance || ta >= mA.instances.size();
        const bool nullB = tb == kNoInstance || tb >= mB.instances.size();
        if (nullA || nullB) return nullA && nullB;
        return mAToB[ta] == tb;
    }

    bool sameValue(const Value &a, const Value &b) const {
        if (EffectiveType(a.type) != EffectiveType(b.type)) return false;
        if (!mOptions.ignoreXmlTags && a.xmlTag != b.xmlTag) return false;
        if (a.data.index() != b.data.index()) return false;
        switch (a.data.index()) {
        case 0:
            return a.as<std::string>() == b.as<std::string>();
        case 1:
            return a.as<bool>() == b.as<bool>();
        case 2:
            return a.as<std::int32_t>() == b.as<std::int32_t>();
        case 3:
            return SameFloat(a.as<float>(), b.as<float>());
        case 4:
            return SameDouble(a.as<double>(), b.as<double>());
        case 5:
            return SameUDim(a.as<UDim>(), b.as<UDim>());
        case 6:
            return SameUDim(a.as<UDim2>().x, b.as<UDim2>().x) && SameUDim(a.as<UDim2>().y, b.as<UDim2>().y);
        case 7:
            return SameV3(a.as<Ray>().origin, b.as<Ray>().origin) &&
                   SameV3(a.as<Ray>().direction, b.as<Ray>().direction);
        case 8:
            return a.as<Faces>().bits == b.as<Faces>().bits;
        case 9:
            return a.as<Axes>().bits == b.as<Axes>().bits;
        case 10:
            return a.as<BrickColor>().number == b.as<BrickColor>().number;
        case 11:
            return SameC3(a.as<Color3>(), b.as<Color3>());
        case 12:
            return SameV2(a.as<Vector2>(), b.as<Vector2>());
        case 13:
            return SameV3(a.as<Vector3>(), b.as<Vector3>());
        case 14:
            return a.as<Vector2int16>().x == b.as<Vector2int16>().x && a.as<Vector2int16>().y == b.as<Vector2int16>().y;
        case 15:
            return SameCFrame(a.as<CFrame>(), b.as<CFrame>());
        case 16:
            return a.as<EnumValue>().value == b.as<EnumValue>().value;
        case 17:
            return sameTarget(a.as<RefValue>().target, b.as<RefValue>().target);
        case 18: {
            const auto &x = a.as<Vector3int16>();
            const auto &y = b.as<Vector3int16>();
            return x.x == y.x && x.y == y.y && x.z == y.z;
        }
        case 19: {
            const auto &x = a.as<NumberSequence>().keypoints;
            const auto &y = b.as<NumberSequence>().keypoints;
            if (x.size() != y.size()) return false;
            for (std::size_t i = 0; i < x.size(); ++i)
                if (!SameFloat(x[i].time, y[i].time) || !SameFloat(x[i].value, y[i].value) ||
                    !SameFloat(x[i].envelope, y[i].envelope))
                    return false;
            return true;
        }
        case 20: {
            const auto &x = a.as<ColorSequence>().keypoints;
            const auto &y = b.as<ColorSequence>().keypoints;
            if (x.size() != y.size()) return false;
            for (std::size_t i = 0; i < x.size(); ++i)
                if (!SameFloat(x[i].time, y[i].time) || !SameC3(x[i].color, y[i].color) ||
                    !SameFloat(x[i].envelope, y[i].envelope))
                    return false;
            return true;
        }
        case 21:
            return SameFloat(a.as<NumberRange>().min, b.as<NumberRange>().min) &&
                   SameFloat(a.as<NumberRange>().max, b.as<NumberRange>().max);
        case 22:
            return SameV2(a.as<Rect>().min, b.as<Rect>().min) && SameV2(a.as<Rect>().max, b.as<Rect>().max);
        case 23: {
            const auto &x = a.as<PhysicalProperties>();
            const auto &y = b.as<PhysicalProperties>();
            // Only the custom flag is meaningful: 0 and 2 are both "default" (old and new Studio), and
            // without bit0 the floats are not stored at all.
            if (x.custom() != y.custom()) return false;
            if (!x.custom()) return true;
            if (x.hasAcoustic() != y.hasAcoustic()) return false;
            return SameFloat(x.density, y.density) && SameFloat(x.friction, y.friction) &&
                   SameFloat(x.elasticity, y.elasticity) && SameFloat(x.frictionWeight, y.frictionWeight) &&
                   SameFloat(x.elasticityWeight, y.elasticityWeight) &&
                   (!x.hasAcoustic() || SameFloat(x.acousticAbsorption, y.acousticAbsorption));
        }
        case 24: {
            const auto &x = a.as<Color3uint8>();
            const auto &y = b.as<Color3uint8>();
            return x.r == y.r && x.g == y.g && x.b == y.b;
        }
        case 25:
            return a.as<Int64Value>().value == b.as<Int64Value>().value;
        case 26: {
            const std::string *x = sharedContent(mA, a.as<SharedStringRef>());
            const std::string *y = sharedContent(mB, b.as<SharedStringRef>());
            if (!x || !y) return !x && !y;
            return *x == *y;
        }
        case 27:
            return a.as<Bytecode>().bytes == b.as<Bytecode>().bytes;
        case 28: {
            const auto &x = a.as<OptionalCFrame>();
            const auto &y = b.as<OptionalCFrame>();
            if (x.present != y.present) return false;
            return !x.present || SameCFrame(x.value, y.value);
        }
        case 29: {
            const auto &x = a.as<UniqueId>();
            const auto &y = b.as<UniqueId>();
            return x.index == y.index && x.time == y.time && x.random == y.random;
        }
        case 30: {
            const auto &x = a.as<Font>();
            const auto &y = b.as<Font>();
            return x.family == y.family && x.weight == y.weight && x.style == y.style &&
                   x.cachedFaceId == y.cachedFaceId;
        }
        case 31:
            return a.as<SecurityCapabilities>().bits == b.as<SecurityCapabilities>().bits;
        case 32: {
            const auto &x = a.as<Content>();
            const auto &y = b.as<Content>();
            if (x.source != y.source) return false;
            if (x.source == Content::Source::Uri) return x.uri == y.uri;
            if (x.source == Content::Source::Object) return sameTarget(x.object, y.object);
            return true;
        }
        case 33: {
            const auto &x = a.as<UnknownValue>();
            const auto &y = b.as<UnknownValue>();
            return x.binaryType == y.binaryType && x.xmlTag == y.xmlTag && x.raw == y.raw;
        }
        default:
            return false;
        }
    }

    std::string renderTarget(const Document &d, std::uint32_t t) const {
        if (t == kNoInstance) return "null";
        if (t >= d.instances.size()) return "<invalid #" + std::to_string(t) + ">";
        return "-> " + PathOf(d, t);
    }

    std::string render(const Document &d, const Value &v) const {
        std::string s = TypeName(v.type);
        s += ' ';
        switch (v.data.index()) {
        case 0:
            AppendQuoted(s, v.as<std::string>());
            break;
        case 1:
            s += v.as<bool>() ? "true" : "false";
            break;
        case 2:
            AppendInt(s, v.as<std::int32_t>());
            break;
        case 3:
            AppendFloat(s, v.as<float>());
            break;
        case 4:
            AppendDouble(s, v.as<double>());
            break;
        case 5:
            s += '{';
            AppendFloat(s, v.as<UDim>().scale);
            s += ", ";
            AppendInt(s, v.as<UDim>().offset);
            s += '}';
            break;
        case 6: {
            const auto &u = v.as<UDim2>();
            s += "{{";
            AppendFloat(s, u.x.scale);
            s += ", ";
            AppendInt(s, u.x.offset);
            s += "}, {";
            AppendFloat(s, u.y.scale);
            s += ", ";
            AppendInt(s, u.y.offset);
            s += "}}";
            break;
        }
        case 7: {
            const auto &r = v.as<Ray>();
            s += "origin ";
            AppendFloats(s, {r.origin.x, r.origin.y, r.origin.z});
            s += " direction ";
            AppendFloats(s, {r.direction.x, r.direction.y, r.direction.z});
            break;
        }
        case 8:
            AppendUInt(s, v.as<Faces>().bits);
            break;
        case 9:
            AppendUInt(s, v.as<Axes>().bits);
            break;
        case 10:
            AppendUInt(s, v.as<BrickColor>().number);
            break;
        case 11:
            AppendFloats(s, {v.as<Color3>().r, v.as<Color3>().g, v.as<Color3>().b});
            break;
        case 12:
            AppendFloats(s, {v.as<Vector2>().x, v.as<Vector2>().y});
            break;
        case 13:
            AppendFloats(s, {v.as<Vector3>().x, v.as<Vector3>().y, v.as<Vector3>().z});
            break;
        case 14:
            s += '(' + std::to_string(v.as<Vector2int16>().x) + ", " + std::to_string(v.as<Vector2int16>().y) + ')';
            break;
        case 15:
            AppendCFrame(s, v.as<CFrame>());
            break;
        case 16:
            AppendUInt(s, v.as<EnumValue>().value);
            break;
        case 17:
            s += renderTarget(d, v.as<RefValue>().target);
            break;
        case 18: {
            const auto &x = v.as<Vector3int16>();
            s += '(' + std::to_string(x.x) + ", " + std::to_string(x.y) + ", " + std::to_string(x.z) + ')';
            break;
        }
        case 19:
            s += '[';
            for (const auto &k : v.as<NumberSequence>().keypoints) AppendFloats(s, {k.time, k.value, k.envelope});
            s += ']';
            break;
        case 20:
            s += '[';
            for (const auto &k : v.as<ColorSequence>().keypoints)
                AppendFloats(s, {k.time, k.color.r, k.color.g, k.color.b, k.envelope});
            s += ']';
            break;
        case 21:
            AppendFloats(s, {v.as<NumberRange>().min, v.as<NumberRange>().max});
            break;
        case 22: {
            const auto &r = v.as<Rect>();
            AppendFloats(s, {r.min.x, r.min.y, r.max.x, r.max.y});
            break;
        }
        case 23: {
            const auto &p = v.as<PhysicalProperties>();
            s += "flags " + std::to_string(p.flags);
            if (p.custom()) {
                s += ' ';
                AppendFloats(s, {p.density, p.friction, p.elasticity, p.frictionWeight, p.elasticityWeight,
                                 p.acousticAbsorption});
            }
            break;
        }
        case 24: {
            const auto &c = v.as<Color3uint8>();
            s += '(' + std::to_string(c.r) + ", " + std::to_string(c.g) + ", " + std::to_string(c.b) + ')';
            break;
        }
        case 25:
            AppendInt(s, v.as<Int64Value>().value);
            break;
        case 26: {
            const std::uint32_t index = v.as<SharedStringRef>().index;
            s += "#" + std::to_string(index) + ' ';
            if (const std::string *c = sharedContent(d, v.as<SharedStringRef>()))
                AppendQuoted(s, *c);
            else
                s += "<out of range>";
            break;
        }
        case 27:
            AppendQuoted(s, v.as<Bytecode>().bytes);
            break;
        case 28:
            if (v.as<OptionalCFrame>().present)
                AppendCFrame(s, v.as<OptionalCFrame>().value);
            else
                s += "<none>";
            break;
        case 29: {
            const auto &u = v.as<UniqueId>();
            s += "index " + std::to_string(u.index) + " time " + std::to_string(u.time) + " random " +
                 std::to_string(u.random);
            break;
        }
        case 30: {
            const auto &f = v.as<Font>();
            s += "{family ";
            AppendQuoted(s, f.family);
            s += ", weight " + std::to_string(f.weight) + ", style " + std::to_string(f.style) + ", cachedFaceId ";
            AppendQuoted(s, f.cachedFaceId);
            s += '}';
            break;
        }
        case 31:
            AppendUInt(s, v.as<SecurityCapabilities>().bits);
            break;
        case 32: {
            const auto &c = v.as<Content>();
            if (c.source == Content::Source::Uri) {
                s += "Uri ";
                AppendQuoted(s, c.uri);
            } else if (c.source == Content::Source::Object) {
                s += "Object " + renderTarget(d, c.object);
            } else {
                s += "None";
            }
            break;
        }
        case 33: {
            const auto &u = v.as<UnknownValue>();
            s += "type " + std::to_string(u.binaryType) + " tag \"" + u.xmlTag + "\" ";
            AppendQuoted(s, u.raw);
            break;
        }
        default:
            s += "<?>";
            break;
        }
        if (!mOptions.ignoreXmlTags) s += " [xmlTag " + std::to_string(static_cast<int>(v.xmlTag)) + "]";
        return s;
    }

    std::string compareRaw() const {
        if (mA.unknownChunks.size() != mB.unknownChunks.size())
            return "unknown chunk count: " + std::to_string(mA.unknownChunks.size()) + " vs " +
                   std::to_string(mB.unknownChunks.size());
        for (std::size_t i = 0; i < mA.unknownChunks.size(); ++i) {
            const RawChunk &x = mA.unknownChunks[i];
            const RawChunk &y = mB.unknownChunks[i];
            if (x.name != y.name || x.data != y.data)
                return "unknown chunk " + std::to_string(i) + ": " + x.name + " (" + std::to_string(x.data.size()) +
                       " bytes) vs " + y.name + " (" + std::to_string(y.data.size()) + " bytes)";
        }
        if (mA.rawProperties.size() != mB.rawProperties.size())
            return "raw property chunk count: " + std::to_string(mA.rawProperties.size()) + " vs " +
                   std::to_string(mB.rawProperties.size());
        for (std::size_t i = 0; i < mA.rawProperties.size(); ++i) {
            const RawProperty &x = mA.rawProperties[i];
            const RawProperty &y = mB.rawProperties[i];
            if (x.className != y.className || x.propertyName != y.propertyName || x.type != y.type || x.body != y.body)
                return "raw property " + x.className + "." + x.propertyName + " (type " + std::to_string(x.type) +
                       ", " + std::to_string(x.body.size()) + " bytes) vs " + y.className + "." + y.propertyName +
                       " (type " + std::to_string(y.type) + ", " + std::to_string(y.body.size()) + " bytes)";
        }
        if (mA.xmlUnknownTopLevel != mB.xmlUnknownTopLevel)
            return "unknown top-level XML elements: " + std::to_string(mA.xmlUnknownTopLevel.size()) + " vs " +
                   std::to_string(mB.xmlUnknownTopLevel.size()) + " (or their text differs)";
        return {};
    }
};

} // namespace

std::string CompareDocuments(const Document &a, const Document &b, const CompareOptions &options) {
    return Comparer(a, b, options).run();
}

} // namespace gamefmt::rbx
