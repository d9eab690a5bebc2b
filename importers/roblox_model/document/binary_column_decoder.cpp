// PROP column decoding (binary_columns.hpp): one function per family of types, each reading the type's
// stored layout (docs/formats/roblox-model.md §2.2 primitives, §2.4 types, §2.5 CFrames).
#include "importers/roblox_model/document/binary_column_decoder.hpp"

#include "importers/roblox_model/document/binary_primitives.hpp"

#include <string>

namespace gamefmt::rbx::binary {
namespace {

std::string Hex(std::uint8_t v) {
    static const char kDigits[] = "0123456789ABCDEF";
    return std::string{kDigits[v >> 4], kDigits[v & 15]};
}

} // namespace

void ColumnDecoder::decode(ByteReader &r, const Column &c, std::size_t n) {
    switch (FamilyOf(c.type)) {
    case TypeFamily::Scalar:
        decodeScalars(r, c, n);
        break;
    case TypeFamily::Vector:
        decodeVectors(r, c, n);
        break;
    case TypeFamily::ColorOrFrame:
        decodeColorsAndFrames(r, c, n);
        break;
    case TypeFamily::Sequence:
        decodeSequences(r, c, n);
        break;
    case TypeFamily::Reference:
        decodeReferences(r, c, n);
        break;
    case TypeFamily::Content:
        decodeContent(r, c, n);
        break;
    case TypeFamily::Unknown:
        break;
    }
}

void ColumnDecoder::readReferents(ByteReader &r, std::size_t count, std::vector<std::int32_t> &out) {
    r.requireArray(count, 4, "referents");
    out.resize(count);
    mU32b.resize(count);
    bin::DeinterleaveBE<4>(r.take(count * 4), count, mU32b.data());
    for (std::size_t i = 0; i < count; ++i) out[i] = bin::ZigzagDecode32(mU32b[i]);
    bin::PrefixSumReferents(out.data(), count);
}

std::uint32_t ColumnDecoder::lookupRef(std::int32_t ref) {
    const std::uint32_t idx = mReferents.lookup(ref);
    if (idx == kNoInstance && ref != -1 && !mReferents.warnedMissing) {
        mReferents.warnedMissing = true;
        warn("Ref to referent " + std::to_string(ref) + " which is not in the file; read as none");
    }
    return idx;
}

// Interleaved big-endian u32 column.
const std::uint32_t *ColumnDecoder::u32Column(ByteReader &r, std::size_t n, std::vector<std::uint32_t> &buf) {
    r.requireArray(n, 4, "values");
    buf.resize(n);
    bin::DeinterleaveBE<4>(r.take(n * 4), n, buf.data());
    return buf.data();
}
const std::uint64_t *ColumnDecoder::u64Column(ByteReader &r, std::size_t n) {
    r.requireArray(n, 8, "values");
    mU64.resize(n);
    bin::DeinterleaveBE<8>(r.take(n * 8), n, mU64.data());
    return mU64.data();
}
std::vector<float> &ColumnDecoder::floatColumn(ByteReader &r, std::size_t n, std::vector<float> &out) {
    r.requireArray(n, 4, "values");
    out.resize(n);
    const std::uint8_t *p = r.take(n * 4);
    for (std::size_t i = 0; i < n; ++i) {
        const std::uint32_t v = static_cast<std::uint32_t>(p[i]) << 24 | static_cast<std::uint32_t>(p[n + i]) << 16 |
                                static_cast<std::uint32_t>(p[2 * n + i]) << 8 | p[3 * n + i];
        out[i] = bin::RbxFloatDecode(v);
    }
    return out;
}
std::vector<std::int32_t> &ColumnDecoder::int32Column(ByteReader &r, std::size_t n, std::vector<std::int32_t> &out) {
    u32Column(r, n, mU32a);
    out.resize(n);
    for (std::size_t i = 0; i < n; ++i) out[i] = bin::ZigzagDecode32(mU32a[i]);
    return out;
}

// Reads N CFrames (§2.5): rotations, then X[N] Y[N] Z[N]. `quat` selects the 0x11 layout.
void ColumnDecoder::readCFrames(ByteReader &r, std::size_t n, std::vector<CFrame> &out, bool quat) {
    r.requireArray(n, 13, "CFrames");
    out.assign(n, CFrame{});
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t at = r.tell();
        const std::uint8_t id = r.u8();
        if (id == 0) {
            if (quat) {
                const float x = r.f32le(), y = r.f32le(), z = r.f32le(), w = r.f32le();
                auto &m = out[i].rotation;
                m = {1 - 2 * (y * y + z * z), 2 * (x * y - z * w),     2 * (x * z + y * w),
                     2 * (x * y + z * w),     1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
                     2 * (x * z - y * w),     2 * (y * z + x * w),     1 - 2 * (x * x + y * y)};
            } else {
                for (float &f : out[i].rotation) f = r.f32le();
            }
        } else if (!bin::RotationFromId(id, out[i].rotation)) {
            r.failAt(at, "invalid CFrame rotation id 0x" + Hex(id));
        }
    }
    floatColumn(r, n, mFa);
    floatColumn(r, n, mFb);
    floatColumn(r, n, mFc);
    for (std::size_t i = 0; i < n; ++i) out[i].position = Vector3{mFa[i], mFb[i], mFc[i]};
}

// String, Bytecode, Bool, Int32, Float32, Float64, Int64, SecurityCapabilities, Enum, BrickColor, Faces,
// Axes: one number or string per value.
void ColumnDecoder::decodeScalars(ByteReader &r, const Column &c, std::size_t n) {
    switch (c.type) {
    case Type::String:
    case Type::Bytecode: {
        r.requireArray(n, 4, "strings");
        for (std::size_t i = 0; i < n; ++i) {
            std::string s = r.stringU32le();
            if (c.isName)
                c.inst(i).name = std::move(s);
            else if (c.type == Type::Bytecode)
                c.set(i, Bytecode{std::move(s)});
            else
                c.set(i, std::move(s));
        }
        break;
    }
    case Type::Bool: {
        const std::uint8_t *p = r.take(n);
        for (std::size_t i = 0; i < n; ++i) c.set(i, p[i] != 0);
        break;
    }
    case Type::Int32: {
        int32Column(r, n, mIa);
        for (std::size_t i = 0; i < n; ++i) c.set(i, mIa[i]);
        break;
    }
    case Type::Float32: {
        floatColumn(r, n, mFa);
        for (std::size_t i = 0; i < n; ++i) c.set(i, mFa[i]);
        break;
    }
    case Type::Float64: {
        r.requireArray(n, 8, "values");
        for (std::size_t i = 0; i < n; ++i) c.set(i, r.f64le());
        break;
    }
    case Type::Int64: {
        const std::uint64_t *v = u64Column(r, n);
        for (std::size_t i = 0; i < n; ++i) c.set(i, Int64Value{bin::ZigzagDecode64(v[i])});
        break;
    }
    case Type::SecurityCapabilities: {
        const std::uint64_t *v = u64Column(r, n);
        for (std::size_t i = 0; i < n; ++i)
            c.set(i, SecurityCapabilities{static_cast<std::uint64_t>(bin::ZigzagDecode64(v[i]))});
        break;
    }
    case Type::Enum: {
        u32Column(r, n, mU32a);
        for (std::size_t i = 0; i < n; ++i) c.set(i, EnumValue{mU32a[i]});
        break;
    }
    case Type::BrickColor: {
        u32Column(r, n, mU32a);
        for (std::size_t i = 0; i < n; ++i) c.set(i, BrickColor{mU32a[i]});
        break;
    }
    case Type::Faces:
    case Type::Axes: {
        const std::size_t at = r.tell();
        const std::uint8_t *p = r.take(n);
        const std::uint8_t maxBits = c.type == Type::Faces ? 63 : 7;
        for (std::size_t i = 0; i < n; ++i) {
            if (p[i] > maxBits)
                r.failAt(at + i, std::string(c.type == Type::Faces ? "Faces" : "Axes") + " value " +
                                     std::to_string(p[i]) + " is out of range");
            if (c.type == Type::Faces)
                c.set(i, Faces{p[i]});
            else
                c.set(i, Axes{p[i]});
        }
        break;
    }
    default:
        break;
    }
}

// UDim, UDim2, Vector2, Vector3, Vector2int16, Vector3int16, Rect, Ray: float columns (§2.2) or packed
// little-endian components.
void ColumnDecoder::decodeVectors(ByteReader &r, const Column &c, std::size_t n) {
    switch (c.type) {
    case Type::UDim: {
        floatColumn(r, n, mFa);
        int32Column(r, n, mIa);
        for (std::size_t i = 0; i < n; ++i) c.set(i, UDim{mFa[i], mIa[i]});
        break;
    }
    case Type::UDim2: {
        floatColumn(r, n, mFa);
        floatColumn(r, n, mFb);
        int32Column(r, n, mIa);
        int32Column(r, n, mIb);
        for (std::size_t i = 0; i < n; ++i) c.set(i, UDim2{UDim{mFa[i], mIa[i]}, UDim{mFb[i], mIb[i]}});
        break;
    }
    case Type::Vector2: {
        floatColumn(r, n, mFa);
        floatColumn(r, n, mFb);
        for (std::size_t i = 0; i < n; ++i) c.set(i, Vector2{mFa[i], mFb[i]});
        break;
    }
    case Type::Vector3: {
        floatColumn(r, n, mFa);
        floatColumn(r, n, mFb);
        floatColumn(r, n, mFc);
        for (std::size_t i = 0; i < n; ++i) c.set(i, Vector3{mFa[i], mFb[i], mFc[i]});
        break;
    }
    case Type::Vector2int16: {
        r.requireArray(n, 4, "Vector2int16s");
        for (std::size_t i = 0; i < n; ++i) {
            Vector2int16 v;
            v.x = r.i16le();
            v.y = r.i16le();
            c.set(i, v);
        }
        break;
    }
    case Type::Vector3int16: {
        r.requireArray(n, 6, "Vector3int16s");
        for (std::size_t i = 0; i < n; ++i) {
            Vector3int16 v;
            v.x = r.i16le();
            v.y = r.i16le();
            v.z = r.i16le();
            c.set(i, v);
        }
        break;
    }
    case Type::Rect: {
        floatColumn(r, n, mFa);
        floatColumn(r, n, mFb);
        floatColumn(r, n, mFc);
        floatColumn(r, n, mFd);
        for (std::size_t i = 0; i < n; ++i) c.set(i, Rect{Vector2{mFa[i], mFb[i]}, Vector2{mFc[i], mFd[i]}});
        break;
    }
    case Type::Ray: {
        r.requireArray(n, 24, "Rays");
        for (std::size_t i = 0; i < n; ++i) {
            Ray ray;
            ray.origin = Vector3{r.f32le(), r.f32le(), r.f32le()};
            ray.direction = Vector3{r.f32le(), r.f32le(), r.f32le()};
            c.set(i, ray);
        }
        break;
    }
    default:
        break;
    }
}

// Color3, Color3uint8, CFrame, CFrameQuat, OptionalCFrame.
void ColumnDecoder::decodeColorsAndFrames(ByteReader &r, const Column &c, std::size_t n) {
    switch (c.type) {
    case Type::Color3: {
        floatColumn(r, n, mFa);
        floatColumn(r, n, mFb);
        floatColumn(r, n, mFc);
        for (std::size_t i = 0; i < n; ++i) c.set(i, Color3{mFa[i], mFb[i], mFc[i]});
        break;
    }
    case Type::Color3uint8: {
        r.requireArray(n, 3, "Color3uint8s");
        const std::uint8_t *p = r.take(n * 3);
        for (std::size_t i = 0; i < n; ++i) c.set(i, Color3uint8{p[i], p[n + i], p[2 * n + i]});
        break;
    }
    case Type::CFrame:
    case Type::CFrameQuat: {
        readCFrames(r, n, mCFrames, c.type == Type::CFrameQuat);
        for (std::size_t i = 0; i < n; ++i) c.set(i, mCFrames[i]);
        break;
    }
    case Type::OptionalCFrame: {
        const std::size_t at = r.tell();
        if (r.u8() != static_cast<std::uint8_t>(Type::CFrame))
            r.failAt(at, "OptionalCFrame: inner type is not CFrame (0x10)");
        readCFrames(r, n, mCFrames, false);
        const std::size_t boolAt = r.tell();
        if (r.u8() != static_cast<std::uint8_t>(Type::Bool))
            r.failAt(boolAt, "OptionalCFrame: inner type is not Bool (0x02)");
        const std::uint8_t *p = r.take(n);
        for (std::size_t i = 0; i < n; ++i) c.set(i, OptionalCFrame{p[i] != 0, mCFrames[i]});
        break;
    }
    default:
        break;
    }
}

// NumberSequence, ColorSequence, NumberRange, PhysicalProperties: little-endian records per value.
void ColumnDecoder::decodeSequences(ByteReader &r, const Column &c, std::size_t n) {
    switch (c.type) {
    case Type::NumberSequence: {
        r.requireArray(n, 4, "NumberSequences");
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint32_t k = r.u32le();
            r.requireArray(k, 12, "NumberSequence keypoints");
            NumberSequence s;
            s.keypoints.resize(k);
            for (NumberKeypoint &kp : s.keypoints) {
                kp.time = r.f32le();
                kp.value = r.f32le();
                kp.envelope = r.f32le();
            }
            c.set(i, std::move(s));
        }
        break;
    }
    case Type::ColorSequence: {
        r.requireArray(n, 4, "ColorSequences");
        for (std::size_t i = 0; i < n; ++i) {
            const std::uint32_t k = r.u32le();
            r.requireArray(k, 20, "ColorSequence keypoints");
            ColorSequence s;
            s.keypoints.resize(k);
            for (ColorKeypoint &kp : s.keypoints) {
                kp.time = r.f32le();
                kp.color.r = r.f32le();
                kp.color.g = r.f32le();
                kp.color.b = r.f32le();
                kp.envelope = r.f32le();
            }
            c.set(i, std::move(s));
        }
        break;
    }
    case Type::NumberRange: {
        r.requireArray(n, 8, "NumberRanges");
        for (std::size_t i = 0; i < n; ++i) {
            NumberRange v;
            v.min = r.f32le();
            v.max = r.f32le();
            c.set(i, v);
        }
        break;
    }
    case Type::PhysicalProperties: {
        r.requireArray(n, 1, "PhysicalProperties");
        for (std::size_t i = 0; i < n; ++i) {
            const std::size_t at = r.tell();
            PhysicalProperties v;
            v.flags = r.u8();
            if (v.flags > 3) r.failAt(at, "PhysicalProperties flag " + std::to_string(v.flags) + " is not 0-3");
            if (v.flags & 1) {
                v.density = r.f32le();
                v.friction = r.f32le();
                v.elasticity = r.f32le();
                v.frictionWeight = r.f32le();
                v.elasticityWeight = r.f32le();
                if (v.flags & 2) v.acousticAbsorption = r.f32le();
            }
            c.set(i, v);
        }
        break;
    }
    default:
        break;
    }
}

// Ref, SharedString, UniqueId, Font: values that point elsewhere or identify something.
void ColumnDecoder::decodeReferences(ByteReader &r, const Column &c, std::size_t n) {
    switch (c.type) {
    case Type::Ref: {
        readReferents(r, n, mIa);
        for (std::size_t i = 0; i < n; ++i) c.set(i, RefValue{lookupRef(mIa[i])});
        break;
    }
    case Type::SharedString: {
        const std::size_t at = r.tell();
        u32Column(r, n, mU32a);
        for (std::size_t i = 0; i < n; ++i) {
            if (mU32a[i] >= mDoc.sharedStrings.size())
                r.failAt(at, "SharedString index " + std::to_string(mU32a[i]) + " out of range (" +
                                 std::to_string(mDoc.sharedStrings.size()) + " entries)");
            if (c.isName)
                c.inst(i).name = mDoc.sharedStrings[mU32a[i]].content;
            else
                c.set(i, SharedStringRef{mU32a[i]});
        }
        break;
    }
    case Type::UniqueId: {
        r.requireArray(n, 16, "UniqueIds");
        const std::uint8_t *p = r.take(n * 16);
        for (std::size_t i = 0; i < n; ++i) {
            std::uint8_t b[16];
            for (std::size_t j = 0; j < 16; ++j) b[j] = p[j * n + i];
            UniqueId v;
            for (int j = 0; j < 4; ++j) v.index = v.index << 8 | b[j];
            for (int j = 4; j < 8; ++j) v.time = v.time << 8 | b[j];
            for (int j = 8; j < 16; ++j) v.random = v.random << 8 | b[j];
            c.set(i, v);
        }
        break;
    }
    case Type::Font: {
        r.requireArray(n, 11, "Fonts");
        for (std::size_t i = 0; i < n; ++i) {
            Font f;
            f.family = r.stringU32le();
            f.weight = r.u16le();
            f.style = r.u8();
            f.cachedFaceId = r.stringU32le();
            c.set(i, std::move(f));
        }
        break;
    }
    default:
        break;
    }
}

// Content (§2.4, Studio 645+): source types, then the URI table, the object referents and external data.
void ColumnDecoder::decodeContent(ByteReader &r, const Column &c, std::size_t n) {
    const std::size_t at = r.tell();
    int32Column(r, n, mIb);
    std::size_t uris = 0, objects = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (mIb[i] == 1)
            ++uris;
        else if (mIb[i] == 2)
            ++objects;
        else if (mIb[i] != 0)
            r.failAt(at, "Content source type " + std::to_string(mIb[i]) + " is not 0, 1 or 2");
    }
    const std::size_t uriAt = r.tell();
    const std::uint32_t uriCount = r.u32le();
    r.requireArray(uriCount, 4, "Content URIs");
    if (uriCount < uris)
        r.failAt(uriAt, "Content: " + std::to_string(uriCount) + " URIs for " + std::to_string(uris) + " Uri values");
    mStrings.clear();
    mStrings.reserve(uriCount);
    for (std::uint32_t k = 0; k < uriCount; ++k) mStrings.push_back(r.stringU32le());
    const std::size_t objAt = r.tell();
    const std::uint32_t objCount = r.u32le();
    if (objCount < objects)
        r.failAt(objAt,
                 "Content: " + std::to_string(objCount) + " objects for " + std::to_string(objects) + " Object values");
    readReferents(r, objCount, mIa);
    const std::uint32_t extCount = r.u32le();
    r.requireArray(extCount, 4, "Content external data");
    r.skip(std::size_t(extCount) * 4);
    std::size_t ku = 0, ko = 0;
    for (std::size_t i = 0; i < n; ++i) {
        Content v;
        v.source = static_cast<Content::Source>(mIb[i]);
        if (mIb[i] == 1)
            v.uri = std::move(mStrings[ku++]);
        else if (mIb[i] == 2)
            v.object = lookupRef(mIa[ko++]);
        c.set(i, std::move(v));
    }
    if (uriCount > uris || objCount > objects) warn("Content column has unused URIs or objects");
}

} // namespace gamefmt::rbx::binary
