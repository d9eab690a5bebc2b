// The binary (.rbxm/.rbxl) writer: the exact inverse of the binary reader (roblox-model.md §2), laid out
// the way Studio saves files (classes by name, properties by name, pre-order referents, post-order PRNT).
//
// Decisions where the reference leaves a choice (also documented in the engineer report):
//  * Compression::Lz4 compresses every chunk but END, even when LZ4 grows it, exactly like Studio
//    (§2.1 "even when it grows them"), so written files look like Studio's to every consumer.
//    Compression::Zstd writes one zstd frame per chunk; Compression::None stores bodies raw (cl = 0).
//    Empty bodies (only possible for kept unknown chunks) are always stored raw.
//  * Referents: the document's referent strings are kept when every one is a unique decimal int32
//    (other than -1, the null referent); otherwise all instances get 0..N-1 in depth-first pre-order.
//  * A property that only some instances of a class carry (or whose values disagree on the type) is
//    omitted for the whole class with a warning: inventing a value for the others is not allowed
//    (§2.7), and omitting falls back to Roblox's default. CFrame and CFrameQuat values may share a
//    column (written as CFrame unless every value is a CFrameQuat).
//  * Values of unknown type are not written from the instances: binary ones come back verbatim from
//    Document::rawProperties, XML ones cannot be encoded (warning).
//  * Unknown chunks are re-inserted at their original chunk index when it is still before END,
//    else just before END.
#include "importers/roblox_model/writer.hpp"

#include "common/byte_writer.hpp"
#include "common/compression.hpp"
#include "common/error.hpp"
#include "importers/roblox_model/binary_primitives.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <limits>
#include <optional>
#include <string>
#include <vector>

namespace gamefmt::rbx {
namespace {

using Bytes = std::vector<std::uint8_t>;

constexpr std::uint32_t kMaxInstances = 0x7FFFFFFFu;

[[noreturn]] void Fail(const std::string &message) {
    throw FormatError(kFormatName, message);
}

// ---------------------------------------------------------------- column encoders

void PutU32LE(Bytes &out, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
void PutF32LE(Bytes &out, float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    PutU32LE(out, u);
}
void PutU16LE(Bytes &out, std::uint16_t v) {
    out.push_back(static_cast<std::uint8_t>(v));
    out.push_back(static_cast<std::uint8_t>(v >> 8));
}
void PutString(Bytes &out, const std::string &s) {
    if (s.size() > 0xFFFFFFFFull) Fail("string of " + std::to_string(s.size()) + " bytes exceeds 4 GiB");
    PutU32LE(out, static_cast<std::uint32_t>(s.size()));
    out.insert(out.end(), s.begin(), s.end());
}
void PutCount(Bytes &out, std::size_t n, const char *what) {
    if (n > 0xFFFFFFFFull) Fail(std::string("too many ") + what + " (" + std::to_string(n) + ")");
    PutU32LE(out, static_cast<std::uint32_t>(n));
}

void PutInt32Array(Bytes &out, std::vector<std::uint32_t> &zig, const std::vector<std::int32_t> &values) {
    zig.resize(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) zig[i] = bin::ZigzagEncode32(values[i]);
    bin::InterleaveBE<4>(zig.data(), zig.size(), out);
}
void PutFloatArray(Bytes &out, std::vector<std::uint32_t> &tmp, const std::vector<float> &values) {
    tmp.resize(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) tmp[i] = bin::RbxFloatEncode(values[i]);
    bin::InterleaveBE<4>(tmp.data(), tmp.size(), out);
}
// Referents (already resolved to int32, -1 = null): delta-encoded, zigzag, interleaved.
void PutReferentArray(Bytes &out, std::vector<std::int32_t> refs) {
    bin::DeltaEncodeReferents(refs.data(), refs.size());
    std::vector<std::uint32_t> zig;
    PutInt32Array(out, zig, refs);
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

class Writer {
public:
    Writer(const Document &doc, const BinaryWriteOptions &options) : mDoc(doc), mOptions(options) {}

    Bytes run();

private:
    struct ClassInfo {
        std::string name;
        std::uint32_t nameId = 0;
        std::vector<std::uint32_t> members; // instance indices in document order
        bool service = false;
    };

    void warn(const std::string &message) {
        if (mOptions.warnings) mOptions.warnings->push_back(message);
    }
    std::int32_t referentOf(std::uint32_t index) const { return index < mReferents.size() ? mReferents[index] : -1; }

    void assignReferents();
    void collectClasses();
    void emitChunk(const char *name, const Bytes &body, bool raw = false);
    void emitUnknownChunksUpTo(std::size_t index);
    void writeMeta();
    void writeSharedStrings();
    void writeInst(std::uint32_t classId, const ClassInfo &info);
    void writeProps(std::uint32_t classId, const ClassInfo &info);
    void writeParents();
    void encodeColumn(Bytes &out, Type type, const std::vector<const Value *> &column, const std::string &where);

    const Document &mDoc;
    const BinaryWriteOptions &mOptions;
    ByteWriter mOut{kFormatName};
    std::vector<std::int32_t> mReferents;
    std::vector<ClassInfo> mClasses;
    std::vector<std::uint32_t> mPreOrder;
    std::size_t mChunkIndex = 0;
    std::vector<const RawChunk *> mUnknown; // sorted by position
    std::size_t mNextUnknown = 0;
    Bytes mBody;
    std::vector<std::uint32_t> mTmp;
};

// Depth-first pre-order over roots then children; instances unreachable from the roots (a damaged
// tree) follow in document order so every instance is still written exactly once.
void Writer::assignReferents() {
    const std::size_t n = mDoc.instances.size();
    std::vector<bool> seen(n, false);
    mPreOrder.reserve(n);
    std::vector<std::uint32_t> stack;
    auto walk = [&](std::uint32_t root) {
        if (root >= n || seen[root]) return;
        stack.push_back(root);
        while (!stack.empty()) {
            const std::uint32_t i = stack.back();
            stack.pop_back();
            if (seen[i]) continue;
            seen[i] = true;
            mPreOrder.push_back(i);
            const auto &children = mDoc.instances[i].children;
            for (auto it = children.rbegin(); it != children.rend(); ++it)
                if (*it < n && !seen[*it]) stack.push_back(*it);
        }
    };
    for (std::uint32_t r : mDoc.roots) walk(r);
    for (std::uint32_t i = 0; i < n; ++i) walk(i);

    // Keep the document's referents when they are all unique decimal int32s.
    mReferents.assign(n, -1);
    bool keep = true;
    std::vector<std::int32_t> sorted;
    sorted.reserve(n);
    for (std::uint32_t i = 0; i < n && keep; ++i) {
        const std::string &s = mDoc.instances[i].referent;
        std::size_t pos = 0;
        bool negative = false;
        if (!s.empty() && s[0] == '-') {
            negative = true;
            pos = 1;
        }
        if (pos >= s.size() || s.size() - pos > 10) {
            keep = false;
            break;
        }
        std::int64_t v = 0;
        for (; pos < s.size(); ++pos) {
            if (s[pos] < '0' || s[pos] > '9') {
                keep = false;
                break;
            }
            v = v * 10 + (s[pos] - '0');
        }
        if (negative) v = -v;
        if (!keep || v < std::numeric_limits<std::int32_t>::min() || v > std::numeric_limits<std::int32_t>::max() ||
            v == -1) {
            keep = false;
            break;
        }
        mReferents[i] = static_cast<std::int32_t>(v);
        sorted.push_back(mReferents[i]);
    }
    if (keep) {
        std::sort(sorted.begin(), sorted.end());
        keep = std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end();
    }
    if (!keep)
        for (std::size_t k = 0; k < mPreOrder.size(); ++k) mReferents[mPreOrder[k]] = static_cast<std::int32_t>(k);
}

// Classes that have instances, sorted by name (Studio), ids 0..K-1.
void Writer::collectClasses() {
    std::vector<std::int64_t> slot(mDoc.names.size(), -1);
    for (std::uint32_t i = 0; i < mDoc.instances.size(); ++i) {
        const Instance &inst = mDoc.instances[i];
        if (inst.className >= slot.size()) Fail("instance " + std::to_string(i) + " has an invalid class name id");
        if (slot[inst.className] < 0) {
            slot[inst.className] = static_cast<std::int64_t>(mClasses.size());
            ClassInfo info;
            info.name = mDoc.names.str(inst.className);
            info.nameId = inst.className;
            mClasses.push_back(std::move(info));
        }
        ClassInfo &info = mClasses[static_cast<std::size_t>(slot[inst.className])];
        info.members.push_back(i);
        info.service = info.service || inst.isService;
    }
    std::sort(mClasses.begin(), mClasses.end(), [](const ClassInfo &a, const ClassInfo &b) { return a.name < b.name; });
}

void Writer::emitUnknownChunksUpTo(std::size_t index) {
    while (mNextUnknown < mUnknown.size() && mUnknown[mNextUnknown]->position <= index) {
        const RawChunk *chunk = mUnknown[mNextUnknown++];
        emitChunk(chunk->name.c_str(), chunk->data);
    }
}

void Writer::emitChunk(const char *name, const Bytes &body, bool raw) {
    emitUnknownChunksUpTo(mChunkIndex);
    if (body.size() > 0xFFFFFFFFull) Fail(std::string("chunk ") + name + " body exceeds 4 GiB");
    mOut.fixedString(name, 4);
    const bool store = raw || body.empty() || mOptions.compression == Compression::None;
    if (store) {
        mOut.u32le(0);
        mOut.u32le(static_cast<std::uint32_t>(body.size()));
        mOut.u32le(0);
        mOut.bytes(body);
    } else {
        const Bytes packed = mOptions.compression == Compression::Zstd
                                 ? CompressZstdFrame(body.data(), body.size(), 0, kFormatName)
                                 : CompressLz4Block(body.data(), body.size(), kFormatName);
        if (packed.size() > 0xFFFFFFFFull) Fail(std::string("chunk ") + name + " compresses beyond 4 GiB");
        mOut.u32le(static_cast<std::uint32_t>(packed.size()));
        mOut.u32le(static_cast<std::uint32_t>(body.size()));
        mOut.u32le(0);
        mOut.bytes(packed);
    }
    ++mChunkIndex;
}

void Writer::writeMeta() {
    if (mDoc.meta.empty()) return;
    mBody.clear();
    PutCount(mBody, mDoc.meta.size(), "META entries");
    for (const auto &kv : mDoc.meta) {
        PutString(mBody, kv.first);
        PutString(mBody, kv.second);
    }
    emitChunk("META", mBody);
}

void Writer::writeSharedStrings() {
    if (mDoc.sharedStrings.empty()) return;
    mBody.clear();
    PutU32LE(mBody, 0); // version
    PutCount(mBody, mDoc.sharedStrings.size(), "shared strings");
    for (const SharedStringEntry &e : mDoc.sharedStrings) {
        mBody.insert(mBody.end(), e.hash.begin(), e.hash.end());
        PutString(mBody, e.content);
    }
    emitChunk("SSTR", mBody);
}

void Writer::writeInst(std::uint32_t classId, const ClassInfo &info) {
    mBody.clear();
    PutU32LE(mBody, classId);
    PutString(mBody, info.name);
    mBody.push_back(info.service ? 1 : 0);
    PutCount(mBody, info.members.size(), "instances");
    std::vector<std::int32_t> refs;
    refs.reserve(info.members.size());
    for (std::uint32_t i : info.members) refs.push_back(mReferents[i]);
    PutReferentArray(mBody, std::move(refs));
    if (info.service)
        for (std::uint32_t i : info.members)
            mBody.push_back(mDoc.instances[i].isService ? mDoc.instances[i].serviceMarker : 0);
    emitChunk("INST", mBody);
}

template <typename T> const T &Get(const Value &v, const std::string &where) {
    const T *p = std::get_if<T>(&v.data);
    if (!p) Fail(where + ": the " + TypeName(v.type) + " value holds data of another type");
    return *p;
}

void Writer::encodeColumn(Bytes &out, Type type, const std::vector<const Value *> &col, const std::string &where) {
    const std::size_t n = col.size();
    std::vector<float> f;
    std::vector<std::int32_t> ints;
    auto floats = [&](auto getter) {
        f.resize(n);
        for (std::size_t i = 0; i < n; ++i) f[i] = getter(*col[i]);
        PutFloatArray(out, mTmp, f);
    };
    auto int32s = [&](auto getter) {
        ints.resize(n);
        for (std::size_t i = 0; i < n; ++i) ints[i] = getter(*col[i]);
        PutInt32Array(out, mTmp, ints);
    };
    auto u32s = [&](auto getter) {
        mTmp.resize(n);
        for (std::size_t i = 0; i < n; ++i) mTmp[i] = getter(*col[i]);
        bin::InterleaveBE<4>(mTmp.data(), n, out);
    };
    auto i64s = [&](auto getter) {
        std::vector<std::uint64_t> z(n);
        for (std::size_t i = 0; i < n; ++i) z[i] = bin::ZigzagEncode64(getter(*col[i]));
        bin::InterleaveBE<8>(z.data(), n, out);
    };
    auto refOf = [&](std::uint32_t target) -> std::int32_t { return referentOf(target); };
    auto cframes = [&](auto getter) {
        for (std::size_t i = 0; i < n; ++i) {
            const CFrame &c = getter(*col[i]);
            const std::uint8_t id = RbxRotationId(c.rotation);
            out.push_back(id);
            if (id == 0)
                for (float r : c.rotation) PutF32LE(out, r);
        }
        floats([&](const Value &v) { return getter(v).position.x; });
        floats([&](const Value &v) { return getter(v).position.y; });
        floats([&](const Value &v) { return getter(v).position.z; });
    };

    const auto id = static_cast<std::uint8_t>(type);
    if (id < 0x01 || id > 0x22) Fail(where + ": type id " + std::to_string(id) + " has no binary encoding");
    switch (type) {
    case Type::String:
        for (const Value *v : col) PutString(out, Get<std::string>(*v, where));
        break;
    case Type::Bytecode:
        for (const Value *v : col) {
            // Readers may keep bytecode as a plain string or as the Bytecode struct.
            if (const auto *s = std::get_if<std::string>(&v->data))
                PutString(out, *s);
            else
                PutString(out, Get<Bytecode>(*v, where).bytes);
        }
        break;
    case Type::Bool:
        for (const Value *v : col) out.push_back(Get<bool>(*v, where) ? 1 : 0);
        break;
    case Type::Int32:
        int32s([&](const Value &v) { return Get<std::int32_t>(v, where); });
        break;
    case Type::Float32:
        floats([&](const Value &v) { return Get<float>(v, where); });
        break;
    case Type::Float64:
        for (const Value *v : col) {
            const double d = Get<double>(*v, where);
            std::uint64_t u;
            std::memcpy(&u, &d, 8);
            for (int k = 0; k < 8; ++k) out.push_back(static_cast<std::uint8_t>(u >> (8 * k)));
        }
        break;
    case Type::UDim:
        floats([&](const Value &v) { return Get<UDim>(v, where).scale; });
        int32s([&](const Value &v) { return Get<UDim>(v, where).offset; });
        break;
    case Type::UDim2:
        floats([&](const Value &v) { return Get<UDim2>(v, where).x.scale; });
        floats([&](const Value &v) { return Get<UDim2>(v, where).y.scale; });
        int32s([&](const Value &v) { return Get<UDim2>(v, where).x.offset; });
        int32s([&](const Value &v) { return Get<UDim2>(v, where).y.offset; });
        break;
    case Type::Ray:
        for (const Value *v : col) {
            const Ray &r = Get<Ray>(*v, where);
            for (float x : {r.origin.x, r.origin.y, r.origin.z, r.direction.x, r.direction.y, r.direction.z})
                PutF32LE(out, x);
        }
        break;
    case Type::Faces:
        for (const Value *v : col) out.push_back(Get<Faces>(*v, where).bits);
        break;
    case Type::Axes:
        for (const Value *v : col) out.push_back(Get<Axes>(*v, where).bits);
        break;
    case Type::BrickColor:
        u32s([&](const Value &v) { return Get<BrickColor>(v, where).number; });
        break;
    case Type::Color3:
        floats([&](const Value &v) { return Get<Color3>(v, where).r; });
        floats([&](const Value &v) { return Get<Color3>(v, where).g; });
        floats([&](const Value &v) { return Get<Color3>(v, where).b; });
        break;
    case Type::Vector2:
        floats([&](const Value &v) { return Get<Vector2>(v, where).x; });
        floats([&](const Value &v) { return Get<Vector2>(v, where).y; });
        break;
    case Type::Vector3:
        floats([&](const Value &v) { return Get<Vector3>(v, where).x; });
        floats([&](const Value &v) { return Get<Vector3>(v, where).y; });
        floats([&](const Value &v) { return Get<Vector3>(v, where).z; });
        break;
    case Type::Vector2int16:
        for (const Value *v : col) {
            const Vector2int16 &p = Get<Vector2int16>(*v, where);
            PutU16LE(out, static_cast<std::uint16_t>(p.x));
            PutU16LE(out, static_cast<std::uint16_t>(p.y));
        }
        break;
    case Type::CFrame:
        cframes([&](const Value &v) -> const CFrame & { return Get<CFrame>(v, where); });
        break;
    case Type::CFrameQuat:
        for (const Value *v : col) {
            const CFrame &c = Get<CFrame>(*v, where);
            const std::uint8_t id = RbxRotationId(c.rotation);
            out.push_back(id);
            if (id == 0)
                for (float q : MatrixToQuat(c.rotation)) PutF32LE(out, q);
        }
        floats([&](const Value &v) { return Get<CFrame>(v, where).position.x; });
        floats([&](const Value &v) { return Get<CFrame>(v, where).position.y; });
        floats([&](const Value &v) { return Get<CFrame>(v, where).position.z; });
        break;
    case Type::Enum:
        u32s([&](const Value &v) { return Get<EnumValue>(v, where).value; });
        break;
    case Type::Ref: {
        std::vector<std::int32_t> refs(n);
        for (std::size_t i = 0; i < n; ++i) refs[i] = refOf(Get<RefValue>(*col[i], where).target);
        PutReferentArray(out, std::move(refs));
        break;
    }
    case Type::Vector3int16:
        for (const Value *v : col) {
            const Vector3int16 &p = Get<Vector3int16>(*v, where);
            PutU16LE(out, static_cast<std::uint16_t>(p.x));
            PutU16LE(out, static_cast<std::uint16_t>(p.y));
            PutU16LE(out, static_cast<std::uint16_t>(p.z));
        }
        break;
    case Type::NumberSequence:
        for (const Value *v : col) {
            const auto &k = Get<NumberSequence>(*v, where).keypoints;
            PutCount(out, k.size(), "keypoints");
            for (const NumberKeypoint &p : k) {
                PutF32LE(out, p.time);
                PutF32LE(out, p.value);
                PutF32LE(out, p.envelope);
            }
        }
        break;
    case Type::ColorSequence:
        for (const Value *v : col) {
            const auto &k = Get<ColorSequence>(*v, where).keypoints;
            PutCount(out, k.size(), "keypoints");
            for (const ColorKeypoint &p : k) {
                PutF32LE(out, p.time);
                PutF32LE(out, p.color.r);
                PutF32LE(out, p.color.g);
                PutF32LE(out, p.color.b);
                PutF32LE(out, p.envelope);
            }
        }
        break;
    case Type::NumberRange:
        for (const Value *v : col) {
            const NumberRange &r = Get<NumberRange>(*v, where);
            PutF32LE(out, r.min);
            PutF32LE(out, r.max);
        }
        break;
    case Type::Rect:
        floats([&](const Value &v) { return Get<Rect>(v, where).min.x; });
        floats([&](const Value &v) { return Get<Rect>(v, where).min.y; });
        floats([&](const Value &v) { return Get<Rect>(v, where).max.x; });
        floats([&](const Value &v) { return Get<Rect>(v, where).max.y; });
        break;
    case Type::PhysicalProperties:
        for (const Value *v : col) {
            const PhysicalProperties &p = Get<PhysicalProperties>(*v, where);
            if (p.flags > 3) Fail(where + ": PhysicalProperties flag " + std::to_string(p.flags) + " is not 0-3");
            out.push_back(p.flags);
            if (p.custom()) {
                for (float x : {p.density, p.friction, p.elasticity, p.frictionWeight, p.elasticityWeight})
                    PutF32LE(out, x);
                if (p.hasAcoustic()) PutF32LE(out, p.acousticAbsorption);
            }
        }
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
    case Type::Int64:
        i64s([&](const Value &v) {
            // A reader may widen Int32 data into an Int64-typed value; accept both.
            if (const auto *i32 = std::get_if<std::int32_t>(&v.data)) return static_cast<std::int64_t>(*i32);
            return Get<Int64Value>(v, where).value;
        });
        break;
    case Type::SharedString:
        u32s([&](const Value &v) {
            const std::uint32_t index = Get<SharedStringRef>(v, where).index;
            if (index >= mDoc.sharedStrings.size())
                Fail(where + ": shared string index " + std::to_string(index) + " is outside the table of " +
                     std::to_string(mDoc.sharedStrings.size()));
            return index;
        });
        break;
    case Type::OptionalCFrame: {
        static const CFrame kIdentity{};
        out.push_back(static_cast<std::uint8_t>(Type::CFrame));
        cframes([&](const Value &v) -> const CFrame & {
            const OptionalCFrame &o = Get<OptionalCFrame>(v, where);
            return o.present ? o.value : kIdentity; // a valueless slot is id 02 at the origin (§2.5)
        });
        out.push_back(static_cast<std::uint8_t>(Type::Bool));
        for (const Value *v : col) out.push_back(Get<OptionalCFrame>(*v, where).present ? 1 : 0);
        break;
    }
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
            PutString(out, font.family);
            PutU16LE(out, font.weight);
            out.push_back(font.style);
            PutString(out, font.cachedFaceId);
        }
        break;
    case Type::SecurityCapabilities:
        i64s([&](const Value &v) { return static_cast<std::int64_t>(Get<SecurityCapabilities>(v, where).bits); });
        break;
    case Type::Content: {
        std::vector<const Content *> values(n);
        for (std::size_t i = 0; i < n; ++i) values[i] = &Get<Content>(*col[i], where);
        int32s([&](const Value &v) { return static_cast<std::int32_t>(Get<Content>(v, where).source); });
        std::size_t uris = 0, objects = 0;
        for (const Content *c : values) {
            if (c->source == Content::Source::Uri)
                ++uris;
            else if (c->source == Content::Source::Object)
                ++objects;
            else if (c->source != Content::Source::None)
                Fail(where + ": Content source type " + std::to_string(static_cast<int>(c->source)) + " is not 0-2");
        }
        PutCount(out, uris, "Content URIs");
        for (const Content *c : values)
            if (c->source == Content::Source::Uri) PutString(out, c->uri);
        PutCount(out, objects, "Content objects");
        std::vector<std::int32_t> refs;
        refs.reserve(objects);
        for (const Content *c : values)
            if (c->source == Content::Source::Object) refs.push_back(refOf(c->object));
        PutReferentArray(out, std::move(refs));
        PutU32LE(out, 0); // no external entries
        break;
    }
    case Type::Unknown:
        Fail(where + ": unknown-typed values cannot be encoded"); // filtered by the caller
    }
}

void Writer::writeProps(std::uint32_t classId, const ClassInfo &info) {
    const std::size_t n = info.members.size();
    // One pass over the class's properties: property name id → column of values (null = missing).
    std::vector<std::int64_t> slotOf(mDoc.names.size(), -1);
    std::vector<std::uint32_t> slotName;
    std::vector<std::vector<const Value *>> columns;
    const std::optional<std::uint32_t> nameProp = mDoc.names.find("Name");
    for (std::size_t k = 0; k < n; ++k) {
        for (const Property &p : mDoc.instances[info.members[k]].properties) {
            if (p.name >= slotOf.size()) Fail("a property of a " + info.name + " has an invalid name id");
            if (nameProp && p.name == *nameProp) continue; // Name lives in Instance::name
            std::int64_t &slot = slotOf[p.name];
            if (slot < 0) {
                slot = static_cast<std::int64_t>(columns.size());
                slotName.push_back(p.name);
                columns.emplace_back(n, nullptr);
            }
            columns[static_cast<std::size_t>(slot)][k] = &p.value;
        }
    }

    // What gets written, sorted by serialized name: regular columns, Name, kept raw PROP bodies.
    struct Entry {
        const std::string *name;
        std::int64_t column; // -1 = Name, -2 = raw
        const RawProperty *raw;
        Type type;
    };
    std::vector<Entry> entries;
    static const std::string kName = "Name";
    entries.push_back({&kName, -1, nullptr, Type::String});
    for (std::size_t s = 0; s < columns.size(); ++s) {
        const std::string &pname = mDoc.names.str(slotName[s]);
        const auto &col = columns[s];
        const bool complete = std::all_of(col.begin(), col.end(), [](const Value *v) { return v != nullptr; });
        if (!complete) {
            warn("class " + info.name + ": property " + pname +
                 " is missing on some instances; omitted for the whole class");
            continue;
        }
        Type type = col[0]->type;
        bool mixed = false, unknown = false;
        for (const Value *v : col) {
            if (v->type == Type::Unknown) unknown = true;
            if (v->type == type) continue;
            const bool cframes = (v->type == Type::CFrame || v->type == Type::CFrameQuat) &&
                                 (type == Type::CFrame || type == Type::CFrameQuat);
            if (cframes)
                type = Type::CFrame;
            else
                mixed = true;
        }
        if (unknown) {
            // Binary unknown types come back from rawProperties; XML ones have no binary form.
            const bool hasRaw =
                std::any_of(mDoc.rawProperties.begin(), mDoc.rawProperties.end(),
                            [&](const RawProperty &r) { return r.className == info.name && r.propertyName == pname; });
            if (!hasRaw) warn("class " + info.name + ": property " + pname + " has an unknown type; omitted");
            continue;
        }
        if (mixed) {
            warn("class " + info.name + ": property " + pname + " has values of different types; omitted");
            continue;
        }
        entries.push_back({&pname, static_cast<std::int64_t>(s), nullptr, type});
    }
    for (const RawProperty &r : mDoc.rawProperties) {
        if (r.className != info.name) continue;
        const bool duplicate =
            std::any_of(entries.begin(), entries.end(), [&](const Entry &e) { return *e.name == r.propertyName; });
        if (duplicate) continue; // a decoded value of the same name wins (reader: last wins)
        entries.push_back({&r.propertyName, -2, &r, static_cast<Type>(r.type)});
    }
    std::stable_sort(entries.begin(), entries.end(), [](const Entry &a, const Entry &b) { return *a.name < *b.name; });

    std::vector<Value> names;
    std::vector<const Value *> nameColumn;
    for (const Entry &e : entries) {
        mBody.clear();
        if (e.column == -2) {
            // A kept body begins with the header (class id, name, type) when the reader stored the whole
            // PROP body; renumber its class id. Otherwise it is the values alone.
            const auto &b = e.raw->body;
            const std::string &pn = e.raw->propertyName;
            bool hasHeader = b.size() >= 9 + pn.size();
            if (hasHeader) {
                const std::uint32_t len = static_cast<std::uint32_t>(b[4]) | (static_cast<std::uint32_t>(b[5]) << 8) |
                                          (static_cast<std::uint32_t>(b[6]) << 16) |
                                          (static_cast<std::uint32_t>(b[7]) << 24);
                hasHeader = len == pn.size() && std::memcmp(b.data() + 8, pn.data(), pn.size()) == 0 &&
                            b[8 + pn.size()] == e.raw->type;
            }
            if (hasHeader) {
                mBody = b;
                for (int k = 0; k < 4; ++k)
                    mBody[static_cast<std::size_t>(k)] = static_cast<std::uint8_t>(classId >> (8 * k));
            } else {
                PutU32LE(mBody, classId);
                PutString(mBody, pn);
                mBody.push_back(e.raw->type);
                mBody.insert(mBody.end(), b.begin(), b.end());
            }
            emitChunk("PROP", mBody);
            continue;
        }
        PutU32LE(mBody, classId);
        PutString(mBody, *e.name);
        mBody.push_back(static_cast<std::uint8_t>(e.type));
        if (e.column == -1) {
            for (std::uint32_t i : info.members) PutString(mBody, mDoc.instances[i].name);
        } else {
            encodeColumn(mBody, e.type, columns[static_cast<std::size_t>(e.column)], info.name + "." + *e.name);
        }
        emitChunk("PROP", mBody);
    }
}

// PRNT: (child, parent) pairs in depth-first post-order (Studio), parent -1 for roots.
void Writer::writeParents() {
    const std::size_t n = mDoc.instances.size();
    std::vector<std::int32_t> childRefs, parentRefs;
    childRefs.reserve(n);
    parentRefs.reserve(n);
    std::vector<bool> seen(n, false);
    struct Frame {
        std::uint32_t index, parent;
        std::size_t next;
    };
    std::vector<Frame> stack;
    auto walk = [&](std::uint32_t root, std::uint32_t parent) {
        if (root >= n || seen[root]) return;
        seen[root] = true;
        stack.push_back({root, parent, 0});
        while (!stack.empty()) {
            Frame &f = stack.back();
            const auto &children = mDoc.instances[f.index].children;
            if (f.next < children.size()) {
                const std::uint32_t c = children[f.next++];
                if (c < n && !seen[c]) {
                    seen[c] = true;
                    stack.push_back({c, f.index, 0});
                }
                continue;
            }
            childRefs.push_back(mReferents[f.index]);
            parentRefs.push_back(f.parent == kNoInstance ? -1 : referentOf(f.parent));
            stack.pop_back();
        }
    };
    for (std::uint32_t r : mDoc.roots) walk(r, kNoInstance);
    for (std::uint32_t i = 0; i < n; ++i) {
        const std::uint32_t p = mDoc.instances[i].parent;
        walk(i, p < n ? p : kNoInstance);
    }
    mBody.clear();
    mBody.push_back(0); // version
    PutCount(mBody, childRefs.size(), "parent pairs");
    PutReferentArray(mBody, std::move(childRefs));
    PutReferentArray(mBody, std::move(parentRefs));
    emitChunk("PRNT", mBody);
}

Bytes Writer::run() {
    if (mDoc.instances.size() > kMaxInstances)
        Fail("a binary file holds at most 2^31-1 instances; the document has " + std::to_string(mDoc.instances.size()));
    assignReferents();
    collectClasses();
    for (const RawChunk &c : mDoc.unknownChunks) mUnknown.push_back(&c);
    std::stable_sort(mUnknown.begin(), mUnknown.end(),
                     [](const RawChunk *a, const RawChunk *b) { return a->position < b->position; });

    mOut.string("<roblox!");
    const std::uint8_t signature[6] = {0x89, 0xFF, 0x0D, 0x0A, 0x1A, 0x0A};
    mOut.bytes(signature, 6);
    mOut.u16le(0);
    mOut.i32le(static_cast<std::int32_t>(mClasses.size()));
    mOut.i32le(static_cast<std::int32_t>(mDoc.instances.size()));
    mOut.zeros(8);

    writeMeta();
    writeSharedStrings();
    for (std::size_t c = 0; c < mClasses.size(); ++c) writeInst(static_cast<std::uint32_t>(c), mClasses[c]);
    for (std::size_t c = 0; c < mClasses.size(); ++c) writeProps(static_cast<std::uint32_t>(c), mClasses[c]);
    for (const RawProperty &r : mDoc.rawProperties) {
        const bool placed =
            std::any_of(mClasses.begin(), mClasses.end(), [&](const ClassInfo &c) { return c.name == r.className; });
        if (!placed)
            warn("raw property " + r.propertyName + " of class '" + r.className +
                 "' has no instances in the document; dropped");
    }
    writeParents();
    emitUnknownChunksUpTo(std::numeric_limits<std::size_t>::max());
    static const std::string kEnd = "</roblox>";
    emitChunk("END", Bytes(kEnd.begin(), kEnd.end()), true);
    return mOut.take();
}

} // namespace

std::vector<std::uint8_t> WriteBinary(const Document &document, const BinaryWriteOptions &options) {
    return Writer(document, options).run();
}

} // namespace gamefmt::rbx
