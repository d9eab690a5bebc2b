// PROP column encoding (binary_columns.hpp): the inverse of binary_columns.cpp, one function per family of
// types (docs/formats/roblox-model.md §2.2 primitives, §2.4 types, §2.5 CFrames).
#include "importers/roblox_model/document/binary_column_encoder.hpp"
#include "importers/roblox_model/document/binary_column_decoder.hpp"

#include "common/error.hpp"
#include "importers/roblox_model/document/binary_primitives.hpp"

#include <array>
#include <cmath>
#include <cstring>
#include <string>
#include <vector>

namespace gamefmt::rbx {
namespace {

using Bytes = std::vector<std::uint8_t>;

[[noreturn]] void Fail(const std::string &message) {
    throw FormatError(kFormatName, message);
}

bool IsExactly(float f, float want) {
    std::uint32_t a, b;
    std::memcpy(&a, &f, 4);
    std::memcpy(&b, &want, 4);
    return a == b;
}

// The axis index (+X 0, +Y 1, +Z 2, -X 3, -Y 4, -Z 5) of a column that is exactly a signed unit axis
// (bitwise +0, +1 or -1 entries), else -1.
int AxisOf(float x, float y, float z) {
    const float v[3] = {x, y, z};
    int axis = -1;
    for (int i = 0; i < 3; ++i) {
        if (IsExactly(v[i], 0.0f)) continue;
        if (axis != -1) return -1;
        if (IsExactly(v[i], 1.0f))
            axis = i;
        else if (IsExactly(v[i], -1.0f))
            axis = i + 3;
        else
            return -1;
    }
    return axis;
}

} // namespace

// The rotation id (§2.5) of a row-major matrix when it is exactly one of the 24 axis-aligned rotations
// (entries bitwise 0, +1 or -1), else 0. Not static: the tests reach it through a declaration.
std::uint8_t RbxRotationId(const std::array<float, 9> &r) {
    const int a0 = AxisOf(r[0], r[3], r[6]);
    const int a1 = AxisOf(r[1], r[4], r[7]);
    if (a0 < 0 || a1 < 0 || a0 % 3 == a1 % 3) return 0;
    // c2 must be c0 × c1 exactly; otherwise the id would decode to a different (mirrored) matrix.
    auto unit = [](int axis, int component) -> float {
        if (axis % 3 != component) return 0.0f;
        return axis < 3 ? 1.0f : -1.0f;
    };
    float c0[3], c1[3];
    for (int i = 0; i < 3; ++i) {
        c0[i] = unit(a0, i);
        c1[i] = unit(a1, i);
    }
    const float c2[3] = {c0[1] * c1[2] - c0[2] * c1[1], c0[2] * c1[0] - c0[0] * c1[2], c0[0] * c1[1] - c0[1] * c1[0]};
    for (int i = 0; i < 3; ++i) {
        const float want = c2[i] == 0.0f ? 0.0f : c2[i]; // normalise -0 from the products to +0
        if (!IsExactly(r[static_cast<std::size_t>(i) * 3 + 2], want)) return 0;
    }
    return static_cast<std::uint8_t>(6 * a0 + a1 + 1);
}

namespace {

// Matrix → quaternion (x, y, z, w) for CFrameQuat (0x11), Shepperd's method in double precision.
std::array<float, 4> MatrixToQuat(const std::array<float, 9> &m) {
    const double r00 = m[0], r01 = m[1], r02 = m[2], r10 = m[3], r11 = m[4], r12 = m[5], r20 = m[6], r21 = m[7],
                 r22 = m[8];
    const double trace = r00 + r11 + r22;
    double x, y, z, w;
    if (trace > 0) {
        const double s = std::sqrt(trace + 1.0) * 2;
        w = 0.25 * s;
        x = (r21 - r12) / s;
        y = (r02 - r20) / s;
        z = (r10 - r01) / s;
    } else if (r00 > r11 && r00 > r22) {
        const double s = std::sqrt(1.0 + r00 - r11 - r22) * 2;
        w = (r21 - r12) / s;
        x = 0.25 * s;
        y = (r01 + r10) / s;
        z = (r02 + r20) / s;
    } else if (r11 > r22) {
        const double s = std::sqrt(1.0 + r11 - r00 - r22) * 2;
        w = (r02 - r20) / s;
        x = (r01 + r10) / s;
        y = 0.25 * s;
        z = (r12 + r21) / s;
    } else {
        const double s = std::sqrt(1.0 + r22 - r00 - r11) * 2;
        w = (r10 - r01) / s;
        x = (r02 + r20) / s;
        y = (r12 + r21) / s;
        z = 0.25 * s;
    }
    return {static_cast<float>(x), static_cast<float>(y), static_cast<float>(z), static_cast<float>(w)};
}

template <typename T> const T &Get(const Value &v, const std::string &where) {
    const T *p = std::get_if<T>(&v.data);
    if (!p) Fail(where + ": the " + TypeName(v.type) + " value holds data of another type");
    return *p;
}

} // namespace

namespace binary {

void ColumnEncoder::encode(Bytes &out, Type type, const Column &col, const std::string &where) {
    const auto id = static_cast<std::uint8_t>(type);
    if (id < 0x01 || id > 0x22) Fail(where + ": type id " + std::to_string(id) + " has no binary encoding");
    switch (FamilyOf(type)) {
    case TypeFamily::Scalar:
        encodeScalars(out, type, col, where);
        break;
    case TypeFamily::Vector:
        encodeVectors(out, type, col, where);
        break;
    case TypeFamily::ColorOrFrame:
        encodeColorsAndFrames(out, type, col, where);
        break;
    case TypeFamily::Sequence:
        encodeSequences(out, type, col, where);
        break;
    case TypeFamily::Reference:
        encodeReferences(out, type, col, where);
        break;
    case TypeFamily::Content:
        encodeContent(out, col, where);
        break;
    case TypeFamily::Unknown:
        Fail(where + ": unknown-typed values cannot be encoded"); // filtered by the caller
    }
}

template <typename Getter> void ColumnEncoder::floats(Bytes &out, const Column &col, Getter getter) {
    mFloats.resize(col.size());
    for (std::size_t i = 0; i < col.size(); ++i) mFloats[i] = getter(*col[i]);
    bin::PutFloatArray(out, mTmp, mFloats);
}

template <typename Getter> void ColumnEncoder::int32s(Bytes &out, const Column &col, Getter getter) {
    mInts.resize(col.size());
    for (std::size_t i = 0; i < col.size(); ++i) mInts[i] = getter(*col[i]);
    bin::PutInt32Array(out, mTmp, mInts);
}

template <typename Getter> void ColumnEncoder::u32s(Bytes &out, const Column &col, Getter getter) {
    mTmp.resize(col.size());
    for (std::size_t i = 0; i < col.size(); ++i) mTmp[i] = getter(*col[i]);
    bin::InterleaveBE<4>(mTmp.data(), col.size(), out);
}

template <typename Getter> void ColumnEncoder::i64s(Bytes &out, const Column &col, Getter getter) {
    std::vector<std::uint64_t> z(col.size());
    for (std::size_t i = 0; i < col.size(); ++i) z[i] = bin::ZigzagEncode64(getter(*col[i]));
    bin::InterleaveBE<8>(z.data(), col.size(), out);
}

// CFrames (§2.5): rotation ids (with 9 floats when 0), then X[N] Y[N] Z[N].
template <typename Getter> void ColumnEncoder::cframes(Bytes &out, const Column &col, Getter getter) {
    for (const Value *v : col) {
        const CFrame &c = getter(*v);
        const std::uint8_t id = RbxRotationId(c.rotation);
        out.push_back(id);
        if (id == 0)
            for (float r : c.rotation) bin::PutF32LE(out, r);
    }
    floats(out, col, [&](const Value &v) { return getter(v).position.x; });
    floats(out, col, [&](const Value &v) { return getter(v).position.y; });
    floats(out, col, [&](const Value &v) { return getter(v).position.z; });
}

// String, Bytecode, Bool, Int32, Float32, Float64, Int64, SecurityCapabilities, Enum, BrickColor, Faces, Axes.
void ColumnEncoder::encodeScalars(Bytes &out, Type type, const Column &col, const std::string &where) {
    switch (type) {
    case Type::String:
        for (const Value *v : col) bin::PutString(out, Get<std::string>(*v, where));
        break;
    case Type::Bytecode:
        for (const Value *v : col) {
            // Readers may keep bytecode as a plain string or as the Bytecode struct.
            if (const auto *s = std::get_if<std::string>(&v->data))
                bin::PutString(out, *s);
            else
                bin::PutString(out, Get<Bytecode>(*v, where).bytes);
        }
        break;
    case Type::Bool:
        for (const Value *v : col) out.push_back(Get<bool>(*v, where) ? 1 : 0);
        break;
    case Type::Int32:
        int32s(out, col, [&](const Value &v) { return Get<std::int32_t>(v, where); });
        break;
    case Type::Float32:
        floats(out, col, [&](const Value &v) { return Get<float>(v, where); });
        break;
    case Type::Float64:
        for (const Value *v : col) {
            const double d = Get<double>(*v, where);
            std::uint64_t u;
            std::memcpy(&u, &d, 8);
            for (int k = 0; k < 8; ++k) out.push_back(static_cast<std::uint8_t>(u >> (8 * k)));
        }
        break;
    case Type::Int64:
        i64s(out, col, [&](const Value &v) {
            // A reader may widen Int32 data into an Int64-typed value; accept both.
            if (const auto *i32 = std::get_if<std::int32_t>(&v.data)) return static_cast<std::int64_t>(*i32);
            return Get<Int64Value>(v, where).value;
        });
        break;
    case Type::SecurityCapabilities:
        i64s(out, col,
             [&](const Value &v) { return static_cast<std::int64_t>(Get<SecurityCapabilities>(v, where).bits); });
        break;
    case Type::Enum:
        u32s(out, col, [&](const Value &v) { return Get<EnumValue>(v, where).value; });
        break;
    case Type::BrickColor:
        u32s(out, col, [&](const Value &v) { return Get<BrickColor>(v, where).number; });
        break;
    case Type::Faces:
        for (const Value *v : col) out.push_back(Get<Faces>(*v, where).bits);
        break;
    case Type::Axes:
        for (const Value *v : col) out.push_back(Get<Axes>(*v, where).bits);
        break;
    default:
        break;
    }
}

// UDim, UDim2, Vector2, Vector3, Vector2int16, Vector3int16, Rect, Ray.
void ColumnEncoder::encodeVectors(Bytes &out, Type type, const Column &col, const std::string &where) {
    switch (type) {
    case Type::UDim:
        floats(out, col, [&](const Value &v) { return Get<UDim>(v, where).scale; });
        int32s(out, col, [&](const Value &v) { return Get<UDim>(v, where).offset; });
        break;
    case Type::UDim2:
        floats(out, col, [&](const Value &v) { return Get<UDim2>(v, where).x.scale; });
        floats(out, col, [&](const Value &v) { return Get<UDim2>(v, where).y.scale; });
        int32s(out, col, [&](const Value &v) { return Get<UDim2>(v, where).x.offset; });
        int32s(out, col, [&](const Value &v) { return Get<UDim2>(v, where).y.offset; });
        break;
    case Type::Vector2:
        floats(out, col, [&](const Value &v) { return Get<Vector2>(v, where).x; });
        floats(out, col, [&](const Value &v) { return Get<Vector2>(v, where).y; });
        break;
    case Type::Vector3:
        floats(out, col, [&](const Value &v) { return Get<Vector3>(v, where).x; });
        floats(out, col, [&](const Value &v) { return Get<Vector3>(v, where).y; });
        floats(out, col, [&](const Value &v) { return Get<Vector3>(v, where).z; });
        break;
    case Type::Vector2int16:
        for (const Value *v : col) {
            const Vector2int16 &p = Get<Vector2int16>(*v, where);
            bin::PutU16LE(out, static_cast<std::uint16_t>(p.x));
            bin::PutU16LE(out, static_cast<std::uint16_t>(p.y));
        }
        break;
    case Type::Vector3int16:
        for (const Value *v : col) {
            const Vector3int16 &p = Get<Vector3int16>(*v, where);
            bin::PutU16LE(out, static_cast<std::uint16_t>(p.x));
            bin::PutU16LE(out, static_cast<std::uint16_t>(p.y));
            bin::PutU16LE(out, static_cast<std::uint16_t>(p.z));
        }
        break;
    case Type::Rect:
        floats(out, col, [&](const Value &v) { return Get<Rect>(v, where).min.x; });
        floats(out, col, [&](const Value &v) { return Get<Rect>(v, where).min.y; });
        floats(out, col, [&](const Value &v) { return Get<Rect>(v, where).max.x; });
        floats(out, col, [&](const Value &v) { return Get<Rect>(v, where).max.y; });
        break;
    case Type::Ray:
        for (const Value *v : col) {
            const Ray &r = Get<Ray>(*v, where);
            for (float x : {r.origin.x, r.origin.y, r.origin.z, r.direction.x, r.direction.y, r.direction.z})
                bin::PutF32LE(out, x);
        }
        break;
    default:
        break;
    }
}

// Color3, Color3uint8, CFrame, CFrameQuat, OptionalCFrame.
void ColumnEncoder::encodeColorsAndFrames(Bytes &out, Type type, const Column &col, const std::string &where) {
    const std::size_t n = col.size();
    switch (type) {
    case Type::Color3:
        floats(out, col, [&](const Value &v) { return Get<Color3>(v, where).r; });
        floats(out, col, [&](const Value &v) { return Get<Color3>(v, where).g; });
        floats(out, col, [&](const Value &v) { return Get<Color3>(v, where).b; });
        break;
    case Type::Color3uint8: {
        const std::size_t base = out.size();
        out.resize(base + 3 * n);
        for (std::size_t i = 0; i < n; ++i) {
            const Color3uint8 &c = Get<Color3uint8>(*col[i], where);
            out[base + i] = c.r;
            out[base + n + i] = c.g;
            out[base + 2 * n + i] = c.b;
        }
        break;
    }
    case Type::CFrame:
        cframes(out, col, [&](const Value &v) -> const CFrame & { return Get<CFrame>(v, where); });
        break;
    case Type::CFrameQuat:
        for (const Value *v : col) {
            const CFrame &c = Get<CFrame>(*v, where);
            const std::uint8_t id = RbxRotationId(c.rotation);
            out.push_back(id);
            if (id == 0)
                for (float q : MatrixToQuat(c.rotation)) bin::PutF32LE(out, q);
        }
        floats(out, col, [&](const Value &v) { return Get<CFrame>(v, where).position.x; });
        floats(out, col, [&](const Value &v) { return Get<CFrame>(v, where).position.y; });
        floats(out, col, [&](const Value &v) { return Get<CFrame>(v, where).position.z; });
        break;
    case Type::OptionalCFrame: {
        static const CFrame kIdentity{};
        out.push_back(static_cast<std::uint8_t>(Type::CFrame));
        cframes(out, col, [&](const Value &v) -> const CFrame & {
            const OptionalCFrame &o = Get<OptionalCFrame>(v, where);
            return o.present ? o.value : kIdentity; // a valueless slot is id 02 at the origin (§2.5)
        });
        out.push_back(static_cast<std::uint8_t>(Type::Bool));
        for (const Value *v : col) out.push_back(Get<OptionalCFrame>(*v, where).present ? 1 : 0);
        break;
    }
    default:
        break;
    }
}

// NumberSequence, ColorSequence, NumberRange, PhysicalProperties.
void ColumnEncoder::encodeSequences(Bytes &out, Type type, const Column &col, const std::string &where) {
    switch (type) {
    case Type::NumberSequence:
        for (const Value *v : col) {
            const auto &k = Get<NumberSequence>(*v, where).keypoints;
            bin::PutCount(out, k.size(), "keypoints");
            for (const NumberKeypoint &p : k) {
                bin::PutF32LE(out, p.time);
                bin::PutF32LE(out, p.value);
                bin::PutF32LE(out, p.envelope);
            }
        }
        break;
    case Type::ColorSequence:
        for (const Value *v : col) {
            const auto &k = Get<ColorSequence>(*v, where).keypoints;
            bin::PutCount(out, k.size(), "keypoints");
            for (const ColorKeypoint &p : k) {
                bin::PutF32LE(out, p.time);
                bin::PutF32LE(out, p.color.r);
                bin::PutF32LE(out, p.color.g);
                bin::PutF32LE(out, p.color.b);
                bin::PutF32LE(out, p.envelope);
            }
        }
        break;
    case Type::NumberRange:
        for (const Value *v : col) {
            const NumberRange &r = Get<NumberRange>(*v, where);
            bin::PutF32LE(out, r.min);
            bin::PutF32LE(out, r.max);
        }
        break;
    case Type::PhysicalProperties:
        for (const Value *v : col) {
            const PhysicalProperties &p = Get<PhysicalProperties>(*v, where);
            if (p.flags > 3) Fail(where + ": PhysicalProperties flag " + std::to_string(p.flags) + " is not 0-3");
            out.push_back(p.flags);
            if (p.custom()) {
                for (float x : {p.density, p.friction, p.elasticity, p.frictionWeight, p.elasticityWeight})
                    bin::PutF32LE(out, x);
                if (p.hasAcoustic()) bin::PutF32LE(out, p.acousticAbsorption);
            }
        }
        break;
    default:
        break;
    }
}

// Ref, SharedString, UniqueId, Font.
void ColumnEncoder::encodeReferences(Bytes &out, Type type, const Column &col, const std::string &where) {
    const std::size_t n = col.size();
    switch (type) {
    case Type::Ref: {
        std::vector<std::int32_t> refs(n);
        for (std::size_t i = 0; i < n; ++i) refs[i] = referentOf(Get<RefValue>(*col[i], where).target);
        bin::PutReferentArray(out, std::move(refs));
        break;
    }
    case Type::SharedString:
        u32s(out, col, [&](const Value &v) {
            const std::uint32_t index = Get<SharedStringRef>(v, where).index;
            if (index >= mDoc.sharedStrings.size())
                Fail(where + ": shared string index " + std::to_string(index) + " is outside the table of " +
                     std::to_string(mDoc.sharedStrings.size()));
            return index;
        });
        break;
    case Type::UniqueId: {
        // 16-byte big-endian structs interleaved over 16 columns.
        const std::size_t base = out.size();
        out.resize(base + 16 * n);
        for (std::size_t i = 0; i < n; ++i) {
            const UniqueId &u = Get<UniqueId>(*col[i], where);
            std::uint8_t s[16];
            for (int k = 0; k < 4; ++k) s[k] = static_cast<std::uint8_t>(u.index >> (24 - 8 * k));
            for (int k = 0; k < 4; ++k) s[4 + k] = static_cast<std::uint8_t>(u.time >> (24 - 8 * k));
            for (int k = 0; k < 8; ++k) s[8 + k] = static_cast<std::uint8_t>(u.random >> (56 - 8 * k));
            for (std::size_t j = 0; j < 16; ++j) out[base + j * n + i] = s[j];
        }
        break;
    }
    case Type::Font:
        for (const Value *v : col) {
            const Font &font = Get<Font>(*v, where);
            bin::PutString(out, font.family);
            bin::PutU16LE(out, font.weight);
            out.push_back(font.style);
            bin::PutString(out, font.cachedFaceId);
        }
        break;
    default:
        break;
    }
}

// Content (§2.4): source types, then the URIs, the object referents and an empty external table.
void ColumnEncoder::encodeContent(Bytes &out, const Column &col, const std::string &where) {
    const std::size_t n = col.size();
    std::vector<const Content *> values(n);
    for (std::size_t i = 0; i < n; ++i) values[i] = &Get<Content>(*col[i], where);
    int32s(out, col, [&](const Value &v) { return static_cast<std::int32_t>(Get<Content>(v, where).source); });
    std::size_t uris = 0, objects = 0;
    for (const Content *c : values) {
        if (c->source == Content::Source::Uri)
            ++uris;
        else if (c->source == Content::Source::Object)
            ++objects;
        else if (c->source != Content::Source::None)
            Fail(where + ": Content source type " + std::to_string(static_cast<int>(c->source)) + " is not 0-2");
    }
    bin::PutCount(out, uris, "Content URIs");
    for (const Content *c : values)
        if (c->source == Content::Source::Uri) bin::PutString(out, c->uri);
    bin::PutCount(out, objects, "Content objects");
    std::vector<std::int32_t> refs;
    refs.reserve(objects);
    for (const Content *c : values)
        if (c->source == Content::Source::Object) refs.push_back(referentOf(c->object));
    bin::PutReferentArray(out, std::move(refs));
    bin::PutU32LE(out, 0); // no external entries
}

} // namespace binary
} // namespace gamefmt::rbx
