// Reads a Redguard .3D/.3DC model (docs/formats/redguard-3d.md §2-§8, §16) into RG3DModel: v2.6/v2.7/v4.0/v5.0, every
// offset model-relative and checked in 64-bit before use; fatal problems throw FormatError, the rest degrade
// with a warning in RG3DModel::warnings.
#include "importers/redguard/model.hpp"

#include "common/byte_reader.hpp"
#include "common/error.hpp"

#include <algorithm>
#include <cstring>
#include <string>

namespace gamefmt::redguard {

namespace {

constexpr std::size_t kHeaderSize = 64;
constexpr std::size_t kMaxSkipWarnings = 8;

std::string Hex(std::uint64_t v) {
    static const char *const digits = "0123456789ABCDEF";
    std::string s;
    do {
        s.insert(s.begin(), digits[v & 0xF]);
        v >>= 4;
    } while (v != 0);
    return "0x" + s;
}

class ModelReader {
public:
    ModelReader(const std::uint8_t *data, std::size_t size, std::size_t base)
        : mData(data), mSize(data != nullptr ? size : 0), mBase(base), mIn(data, mSize, kFormatName, base) {}

    RG3DModel read() {
        readHeader();
        if (IsV2(mModel.version))
            readV2();
        else
            readV4V5();
        return std::move(mModel);
    }

private:
    // ------------------------------------------------------------ helpers

    [[noreturn]] void failAt(std::size_t pos, const std::string &message) const {
        throw FormatError(kFormatName, message, mBase + pos);
    }
    void warn(const std::string &message) { mModel.warnings.push_back(message); }
    std::uint32_t h(std::size_t fieldOffset) const { return mModel.header[fieldOffset / 4]; }
    // True when [offset, offset + count·elem) lies inside the model (64-bit arithmetic, no overflow).
    bool fits(std::uint64_t offset, std::uint64_t count, std::uint64_t elem) const {
        if (offset > mSize) return false;
        const std::uint64_t room = mSize - offset;
        return elem == 0 || count <= room / elem;
    }
    std::uint32_t u32At(std::size_t pos) const {
        return static_cast<std::uint32_t>(mData[pos]) | static_cast<std::uint32_t>(mData[pos + 1]) << 8 |
               static_cast<std::uint32_t>(mData[pos + 2]) << 16 | static_cast<std::uint32_t>(mData[pos + 3]) << 24;
    }
    std::int32_t i32At(std::size_t pos) const { return static_cast<std::int32_t>(u32At(pos)); }
    std::int16_t i16At(std::size_t pos) const {
        return static_cast<std::int16_t>(static_cast<std::uint16_t>(mData[pos] | mData[pos + 1] << 8));
    }
    float f32At(std::size_t pos) const {
        const std::uint32_t bits = u32At(pos);
        float f;
        std::memcpy(&f, &bits, sizeof f);
        return f;
    }

    // ------------------------------------------------------------ header

    void readHeader() {
        if (mSize < kHeaderSize)
            failAt(0, "file of " + std::to_string(mSize) + " bytes is shorter than the 64-byte header");
        // Exactly four bytes: "v4.02" in some documentation is v4.0 followed by num_vertices' low byte.
        static const struct {
            const char *text;
            Version version;
        } kVersions[] = {
            {"v2.6", Version::V26}, {"v2.7", Version::V27}, {"v4.0", Version::V40}, {"v5.0", Version::V50}};
        bool known = false;
        for (const auto &v : kVersions)
            if (std::memcmp(mData, v.text, 4) == 0) {
                mModel.version = v.version;
                known = true;
            }
        if (!known) {
            std::string shown;
            for (int i = 0; i < 4; ++i) {
                const char c = static_cast<char>(mData[i]);
                shown += (c >= 0x20 && c < 0x7F) ? std::string(1, c) : "\\x" + Hex(mData[i]).substr(2);
            }
            failAt(0, "unknown version '" + shown + "' (expected v2.6, v2.7, v4.0 or v5.0)");
        }
        mModel.header[0] = u32At(0);
        for (std::size_t i = 1; i < 16; ++i) mModel.header[i] = u32At(4 * i);
        mModel.radius = h(0x0C);
        mNumVertices = h(0x04);
        mNumFaces = h(0x08);
        if (mNumFaces > (mSize - kHeaderSize) / 32)
            failAt(0x08,
                   "num_faces " + std::to_string(mNumFaces) + " cannot fit in " + std::to_string(mSize) + " bytes");
        if (mNumVertices > mSize / 12)
            failAt(0x04, "num_vertices " + std::to_string(mNumVertices) + " cannot fit in " + std::to_string(mSize) +
                             " bytes");
    }

    // ------------------------------------------------------------ faces (§4)

    // Parses nf face records from `offset` (header field `field` names it in errors) and returns the end.
    std::size_t readFaces(std::uint32_t offset, std::size_t field) {
        if (mNumFaces == 0) return offset;
        if (offset >= mSize || offset < kHeaderSize)
            failAt(field,
                   "face data offset " + Hex(offset) + " lies outside the model (" + std::to_string(mSize) + " bytes)");
        const bool v2 = IsV2(mModel.version);
        const std::size_t headerBytes = v2 ? 8 : 10;
        mIn.seek(offset);
        mModel.faces.reserve(mNumFaces);
        mKept.reserve(mNumFaces);
        mCornerStart.reserve(mNumFaces);
        std::size_t cornerTotal = 0;
        std::size_t skipped = 0;
        for (std::uint32_t f = 0; f < mNumFaces; ++f) {
            const std::size_t at = mIn.tell();
            if (mIn.remaining() < headerBytes)
                failAt(at, "face " + std::to_string(f) + " of " + std::to_string(mNumFaces) +
                               " runs past the end of the model");
            Face face;
            const std::uint8_t n = mIn.u8();
            face.texHi = mIn.u8();
            if (v2) {
                face.texture = mIn.u16le();
                face.unused = mIn.u32le();
            } else {
                face.texture = mIn.u32le();
                face.unused = mIn.u32le();
            }
            if (!mIn.fits(n, 8))
                failAt(at, "face " + std::to_string(f) + " (" + std::to_string(n) +
                               " corners) runs past the end of the model");
            mCornerStart.push_back(cornerTotal);
            cornerTotal += n;
            if (n < 3) {
                mIn.skip(std::size_t{8} * n);
                if (++skipped > kMaxSkipWarnings) continue; // one summary below instead of a flood
                warn("face " + std::to_string(f) + " at " + Hex(at) + " has " + std::to_string(n) +
                     " corners; skipped");
                continue;
            }
            face.corners.resize(n);
            for (FaceVertex &c : face.corners) {
                const std::size_t cornerAt = mIn.tell();
                const std::uint32_t raw = mIn.u32le();
                std::uint32_t index = raw;
                if (v2) {
                    if (raw % 12 != 0)
                        failAt(cornerAt, "face " + std::to_string(f) + ": v2 vertex offset " + std::to_string(raw) +
                                             " is not a multiple of 12");
                    index = raw / 12;
                }
                if (index >= mNumVertices)
                    failAt(cornerAt, "face " + std::to_string(f) + ": vertex index " + std::to_string(index) +
                                         " >= num_vertices " + std::to_string(mNumVertices));
                c.vertex = index;
                c.du = mIn.i16le();
                c.dv = mIn.i16le();
            }
            mModel.faces.push_back(std::move(face));
            mKept.push_back(f);
        }
        if (skipped > kMaxSkipWarnings)
            warn(std::to_string(skipped - kMaxSkipWarnings) + " more faces with fewer than 3 corners skipped");
        mCornerTotal = cornerTotal;
        return mIn.tell();
    }

    // ------------------------------------------------------------ vertices and face normals (§5)

    void readVertices(std::uint64_t offset, std::size_t field, std::vector<std::int32_t> &out) {
        if (!fits(offset, mNumVertices, 12))
            failAt(field, "vertex section at " + Hex(offset) + " (" + std::to_string(mNumVertices) +
                              " vertices) runs past the end of the model");
        out.resize(static_cast<std::size_t>(mNumVertices) * 3);
        for (std::size_t i = 0; i < out.size(); ++i) out[i] = i32At(static_cast<std::size_t>(offset) + 4 * i);
    }

    void readFaceNormals(std::uint32_t offset, std::size_t field) {
        if (!fits(offset, mNumFaces, 12))
            failAt(field, "face-normal section at " + Hex(offset) + " (" + std::to_string(mNumFaces) +
                              " faces) runs past the end of the model");
        mModel.faceNormals.reserve(mKept.size() * 3);
        for (std::uint32_t f : mKept)
            for (std::size_t k = 0; k < 3; ++k)
                mModel.faceNormals.push_back(
                    i32At(static_cast<std::size_t>(offset) + 12 * static_cast<std::size_t>(f) + 4 * k));
    }

    // ------------------------------------------------------------ Section4 (§8)

    void readSection4(bool v2Form) {
        const std::uint32_t offset = h(0x1C);
        const std::uint32_t count = h(0x20);
        if (offset == 0) return;
        const std::size_t fixed = v2Form ? 18 : 30;
        std::vector<Section4Group> groups;
        std::uint64_t pos = offset;
        bool ok = fits(offset, count, fixed);
        if (ok) groups.reserve(count);
        for (std::uint32_t g = 0; ok && g < count; ++g) {
            if (!fits(pos, 1, fixed)) {
                ok = false;
                break;
            }
            const std::size_t p = static_cast<std::size_t>(pos);
            Section4Group group;
            for (std::size_t k = 0; k < 3; ++k) group.centre[k] = i32At(p + 4 * k);
            group.radius = u32At(p + 12);
            const std::uint16_t refs = static_cast<std::uint16_t>(mData[p + 16] | mData[p + 17] << 8);
            if (!v2Form)
                for (std::size_t k = 0; k < 3; ++k) group.opaque[k] = f32At(p + 18 + 4 * k);
            pos += fixed;
            if (!fits(pos, refs, 6)) {
                ok = false;
                break;
            }
            group.refs.resize(refs);
            for (Section4Ref &r : group.refs) {
                const std::size_t q = static_cast<std::size_t>(pos);
                r.faceOffset = u32At(q);
                r.faceIndexTimes4 = static_cast<std::uint16_t>(mData[q + 4] | mData[q + 5] << 8);
                pos += 6;
            }
            groups.push_back(std::move(group));
        }
        if (!ok) {
            warn("Section4 at " + Hex(offset) + " (" + std::to_string(count) +
                 " entries) runs past the end of the model; dropped");
            return;
        }
        mModel.hasSection4 = true;
        mModel.section4 = std::move(groups);
    }

    // ------------------------------------------------------------ v4.0 / v5.0

    void readV4V5() {
        readFaces(h(0x3C), 0x3C);
        readVertices(h(0x30), 0x30, mModel.vertices);
        readFaceNormals(h(0x34), 0x34);
        readFrames();
        readSection4(false);
        readVertexNormals();
    }

    // Frames (§7): record k at [0x14] + 16k. Bad offsets or unknown types degrade to the base pose.
    void readFrames() {
        const std::uint32_t count = h(0x10);
        const std::uint32_t records = h(0x14);
        if (count == 0) return;
        if (!fits(records, count, 16)) {
            warn("frame records at " + Hex(records) + " (" + std::to_string(count) +
                 " frames) run past the end of the model; base pose only");
            return;
        }
        mModel.frameType = u32At(static_cast<std::size_t>(records) + 12);
        if (count == 1) return;
        const std::uint32_t type = mModel.frameType;
        if (type != 0 && type != 2 && type != 4) {
            warn("frame_type " + std::to_string(type) + " with " + std::to_string(count) +
                 " frames is not supported; base pose only");
            return;
        }
        const std::uint64_t vertexBytes = type == 2 ? 6 : 12;
        const std::uint64_t normalBytes = type == 0 ? 12 : 4;
        // Frame blocks are distinct bytes in real files. Records that all point at one block would otherwise
        // decode into far more memory than the file holds, so the blocks must fit in the model together.
        const std::uint64_t perFrame = vertexBytes * mNumVertices + normalBytes * mNumFaces;
        if (perFrame != 0 && count - 1 > mSize / perFrame) {
            warn(std::to_string(count - 1) + " frames of " + std::to_string(perFrame) +
                 " bytes cannot all fit in the model; base pose only");
            return;
        }
        // Validate every frame before allocating any.
        for (std::uint32_t k = 1; k < count; ++k) {
            const std::size_t rec = static_cast<std::size_t>(records) + 16 * static_cast<std::size_t>(k);
            const std::uint32_t vo = u32At(rec), no = u32At(rec + 4);
            if (!fits(vo, mNumVertices, vertexBytes) || !fits(no, mNumFaces, normalBytes)) {
                warn("frame " + std::to_string(k) + " blocks (" + Hex(vo) + ", " + Hex(no) +
                     ") run past the end of the model; base pose only");
                return;
            }
        }
        const std::size_t nv = mNumVertices;
        mModel.frames.resize(count - 1);
        for (std::uint32_t k = 1; k < count; ++k) {
            const std::size_t rec = static_cast<std::size_t>(records) + 16 * static_cast<std::size_t>(k);
            const std::size_t vo = u32At(rec), no = u32At(rec + 4);
            Frame &frame = mModel.frames[k - 1];
            frame.positions.resize(nv * 3);
            for (std::size_t i = 0; i < nv * 3; ++i) {
                if (type == 2) {
                    // d = base - frame, so frame = base - d (wrapping like the engine's 32-bit arithmetic).
                    const std::uint32_t base = static_cast<std::uint32_t>(mModel.vertices[i]);
                    const std::uint32_t d = static_cast<std::uint32_t>(static_cast<std::int32_t>(i16At(vo + 2 * i)));
                    frame.positions[i] = static_cast<std::int32_t>(base - d);
                } else {
                    frame.positions[i] = i32At(vo + 4 * i);
                }
            }
            frame.faceNormals.reserve(mKept.size() * 3);
            for (std::uint32_t f : mKept) {
                if (type == 0) {
                    for (std::size_t c = 0; c < 3; ++c)
                        frame.faceNormals.push_back(i32At(no + 12 * static_cast<std::size_t>(f) + 4 * c));
                } else {
                    const Int3 n = UnpackNormal(u32At(no + 4 * static_cast<std::size_t>(f)));
                    frame.faceNormals.insert(frame.faceNormals.end(), n.begin(), n.end());
                }
            }
        }
    }

    // Vertex normals and the indirection table (§6).
    void readVertexNormals() {
        const std::uint32_t normals = h(0x2C);
        const std::uint32_t table = h(0x28);
        std::size_t entries = 0;
        if (normals != 0) {
            if (normals > mSize || normals < kHeaderSize) {
                warn("vertex-normal offset " + Hex(normals) + " lies outside the model; flat shading");
            } else {
                entries = (mSize - normals) / 12; // K: the section runs to the model end
                if (table == 0 && entries > mNumVertices) entries = mNumVertices;
                if (table == 0 && entries < mNumVertices)
                    warn("only " + std::to_string(entries) + " of " + std::to_string(mNumVertices) +
                         " direct vertex normals fit; the rest are flat");
                mModel.vertexNormals.resize(entries * 3);
                for (std::size_t i = 0; i < entries * 3; ++i) mModel.vertexNormals[i] = f32At(normals + 4 * i);
            }
        }
        if (table == 0) return;
        std::size_t kept = 0;
        for (const Face &f : mModel.faces) kept += f.corners.size();
        if (!fits(table, mCornerTotal, 4)) {
            warn("normal table at " + Hex(table) + " (" + std::to_string(mCornerTotal) +
                 " entries) runs past the end of the model; flat shading");
            mModel.normalTable.assign(kept, RG3DModel::kNoNormal);
            return;
        }
        mModel.normalTable.reserve(kept);
        std::size_t bad = 0;
        for (std::size_t i = 0; i < mKept.size(); ++i) {
            const std::size_t start = mCornerStart[mKept[i]];
            const std::size_t n = mModel.faces[i].corners.size();
            for (std::size_t c = 0; c < n; ++c) {
                const std::uint64_t o = u32At(table + 4 * (start + c));
                std::uint32_t entry = RG3DModel::kNoNormal;
                if (entries != 0 && o >= normals && (o - normals) % 12 == 0 && o + 12 <= mSize &&
                    (o - normals) / 12 < entries)
                    entry = static_cast<std::uint32_t>((o - normals) / 12);
                else
                    ++bad;
                mModel.normalTable.push_back(entry);
            }
        }
        if (bad != 0)
            warn(std::to_string(bad) +
                 " normal-table entries point outside the vertex normals; those corners are flat");
    }

    // ------------------------------------------------------------ v2.6 / v2.7

    void readV2() {
        // Static files have num_frames 0 (and a stale 0x14); a .3DC has frame records (§3.5).
        const bool animated = h(0x10) != 0;
        const std::size_t faceEnd = readFaces(h(0x3C), 0x3C);
        if (!animated) {
            readVertices(h(0x30), 0x30, mModel.vertices);
        } else {
            readV2AnimatedVertices(faceEnd);
        }
        readFaceNormals(h(0x34), 0x34);
        const std::uint32_t opaque = h(0x18);
        if (opaque != 0) {
            const std::uint64_t bytes = 24ull * mNumFaces;
            if (fits(opaque, bytes, 1))
                mModel.v2Opaque.assign(mData + opaque, mData + opaque + bytes);
            else
                warn("v2 opaque block at " + Hex(opaque) + " runs past the end of the model; not kept");
        }
        readSection4(true);
    }

    // v2.x .3DC (§3.5, source only): vertices at the parsed face end + the gap of frame record 0, or at the
    // face end itself when floats (|raw| > 8.0f's bits) sit at the primary place. Base pose only.
    void readV2AnimatedVertices(std::size_t faceEnd) {
        const std::uint32_t records = h(0x14);
        std::uint64_t gap = 0;
        if (fits(records, 1, 16)) {
            mModel.frameType = u32At(static_cast<std::size_t>(records) + 12);
            const std::uint64_t declaredEnd =
                static_cast<std::uint64_t>(h(0x3C)) + u32At(static_cast<std::size_t>(records) + 4);
            gap = u32At(static_cast<std::size_t>(records) + 8);
            if (declaredEnd != faceEnd)
                warn("v2 .3DC: frame record 0 declares the faces end at " + Hex(declaredEnd) + ", parsed " +
                     Hex(faceEnd) + "; using the parsed end");
        } else {
            warn("v2 .3DC: frame record 0 at " + Hex(records) + " lies outside the model; assuming no gap");
        }
        std::uint64_t at = faceEnd + gap;
        bool primary = fits(at, mNumVertices, 12);
        if (primary) {
            const std::size_t check = static_cast<std::size_t>(std::min<std::uint64_t>(mNumVertices, 8)) * 3;
            for (std::size_t i = 0; i < check; ++i) {
                const std::int64_t v = i32At(static_cast<std::size_t>(at) + 4 * i);
                if ((v < 0 ? -v : v) > 0x41000000) {
                    primary = false;
                    break;
                }
            }
        }
        if (!primary && gap != 0) {
            warn("v2 .3DC: no integer vertices at face end + gap (" + Hex(at) + "); reading them at the face end " +
                 Hex(faceEnd));
            at = faceEnd;
        }
        readVertices(at, 0x14, mModel.vertices);
        warn("v2 .3DC: frames after the base pose are undocumented; imported the base pose only");
    }

    const std::uint8_t *mData;
    std::size_t mSize;
    std::size_t mBase;
    ByteReader mIn;
    RG3DModel mModel;
    std::uint32_t mNumVertices = 0;
    std::uint32_t mNumFaces = 0;
    std::vector<std::uint32_t> mKept;      // original index of every face kept (n >= 3)
    std::vector<std::size_t> mCornerStart; // first table slot of every original face
    std::size_t mCornerTotal = 0;          // Σn over all stored faces, skipped ones included
};

} // namespace

RG3DModel ReadModel(const std::uint8_t *data, std::size_t size, std::size_t baseOffset) {
    return ModelReader(data, size, baseOffset).read();
}

} // namespace gamefmt::redguard
