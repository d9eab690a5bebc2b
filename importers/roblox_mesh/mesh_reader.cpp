// Reads Roblox .mesh files of every version (text 1.00/1.01, binary 2.00-5.00, chunked 6.00/7.00)
// into the format model, validating every count, offset and index against the file (docs/formats/roblox-mesh.md
// §3-§12). Bulk arrays are decoded straight from the bounds-checked span, one pass, no per-vertex
// allocation.
#include "importers/roblox_mesh/mesh_reader.hpp"

#include "common/byte_reader.hpp"
#include "common/text_number.hpp"
#include "importers/roblox_mesh/draco_decode.hpp"

#include <algorithm>
#include <cstring>
#include <new>
#include <optional>
#include <unordered_map>
#include <unordered_set>

namespace gamefmt::rbxmesh {

namespace {

constexpr std::size_t kVertex40 = 40;
constexpr std::size_t kEnvelopeSize = 8;
constexpr std::size_t kBoneSize = 60;
constexpr std::size_t kSubsetSize = 72;
constexpr std::size_t kMaxBoneNameLength = 1023;

[[noreturn]] void Fail(std::size_t offset, const std::string &message) {
    throw FormatError(kFormatName, message, offset);
}

std::string Str(std::uint64_t v) {
    return std::to_string(v);
}

inline std::uint16_t LoadU16(const std::uint8_t *p) {
    return static_cast<std::uint16_t>(p[0] | (p[1] << 8));
}
inline std::uint32_t LoadU32(const std::uint8_t *p) {
    return static_cast<std::uint32_t>(p[0]) | (static_cast<std::uint32_t>(p[1]) << 8) |
           (static_cast<std::uint32_t>(p[2]) << 16) | (static_cast<std::uint32_t>(p[3]) << 24);
}
inline float LoadF32(const std::uint8_t *p) {
    const std::uint32_t bits = LoadU32(p);
    float f;
    std::memcpy(&f, &bits, sizeof f);
    return f;
}

// Hostile files can repeat a problem millions of times; past this many warnings one note says so.
constexpr std::size_t kMaxWarnings = 100;

void Warn(RobloxMesh &mesh, std::string message) {
    if (mesh.warnings.size() < kMaxWarnings)
        mesh.warnings.push_back(std::move(message));
    else if (mesh.warnings.size() == kMaxWarnings)
        mesh.warnings.push_back("further warnings suppressed");
}

// `count` records of `stride` bytes must fit in what remains; the error points at the count field,
// which is where the file is wrong. Runs before anything is allocated for the records.
void RequireRecords(const ByteReader &r, std::uint64_t count, std::size_t stride, const char *what,
                    std::size_t countOffset) {
    if (!r.fits(count, stride))
        Fail(countOffset, Str(count) + " " + what + " of " + Str(stride) + " bytes declared, but only " +
                              Str(r.remaining()) + " bytes remain");
}

// ------------------------------------------------------------------------------------------------
// Records shared by the binary versions and the 6.00/7.00 chunks.

void ReadVertices(ByteReader &r, std::uint32_t count, std::size_t stride, std::size_t countOffset,
                  std::vector<Vertex> &out) {
    RequireRecords(r, count, stride, "vertices", countOffset);
    const std::uint8_t *p = r.take(std::size_t{count} * stride);
    const bool hasColor = stride >= kVertex40;
    // reserve + push_back writes each vertex once (resize would zero-fill first).
    out.clear();
    out.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i) {
        Vertex v;
        v.px = LoadF32(p + 0), v.py = LoadF32(p + 4), v.pz = LoadF32(p + 8);
        v.nx = LoadF32(p + 12), v.ny = LoadF32(p + 16), v.nz = LoadF32(p + 20);
        v.u = LoadF32(p + 24), v.v = LoadF32(p + 28);
        std::memcpy(v.tangent.data(), p + 32, 4);
        if (hasColor)
            std::memcpy(v.color.data(), p + 36, 4);
        else
            v.color = {255, 255, 255, 255};
        out.push_back(v);
        p += stride;
    }
}

void ReadFaces(ByteReader &r, std::uint32_t count, std::size_t stride, std::size_t countOffset, std::uint32_t numVerts,
               std::vector<Face> &out) {
    RequireRecords(r, count, stride, "faces", countOffset);
    const std::size_t base = r.offset();
    const std::uint8_t *p = r.take(std::size_t{count} * stride);
    out.clear();
    out.reserve(count);
    for (std::uint32_t i = 0; i < count; ++i, p += stride) {
        const std::uint32_t idx[3] = {LoadU32(p), LoadU32(p + 4), LoadU32(p + 8)};
        for (int k = 0; k < 3; ++k)
            if (idx[k] >= numVerts)
                Fail(base + std::size_t{i} * stride + std::size_t{4} * static_cast<std::size_t>(k),
                     "face " + Str(i) + " uses vertex " + Str(idx[k]) + " of " + Str(numVerts));
        out.push_back(Face{idx[0], idx[1], idx[2]});
    }
}

void ReadLodOffsets(ByteReader &r, std::uint32_t count, std::size_t stride, std::size_t countOffset,
                    std::vector<std::uint32_t> &out) {
    RequireRecords(r, count, stride, "LOD offsets", countOffset);
    const std::uint8_t *p = r.take(std::size_t{count} * stride);
    out.resize(count);
    for (std::uint32_t &o : out) {
        o = LoadU32(p);
        p += stride;
    }
}

void ReadEnvelopes(ByteReader &r, std::uint32_t count, std::size_t countOffset, std::vector<Envelope> &out) {
    RequireRecords(r, count, kEnvelopeSize, "envelopes", countOffset);
    const std::uint8_t *p = r.take(std::size_t{count} * kEnvelopeSize);
    out.resize(count);
    for (Envelope &e : out) {
        std::memcpy(e.bones.data(), p, 4);
        std::memcpy(e.weights.data(), p + 4, 4);
        p += kEnvelopeSize;
    }
}

// Returns the absolute offset of the first bone record (later checks point into it).
std::size_t ReadBones(ByteReader &r, std::uint32_t count, std::size_t countOffset, std::vector<Bone> &out) {
    RequireRecords(r, count, kBoneSize, "bones", countOffset);
    const std::size_t base = r.offset();
    const std::uint8_t *p = r.take(std::size_t{count} * kBoneSize);
    out.resize(count);
    for (std::uint32_t i = 0; i < count; ++i, p += kBoneSize) {
        Bone &b = out[i];
        b.nameOffset = LoadU32(p);
        b.parent = LoadU16(p + 4);
        b.lodParent = LoadU16(p + 6);
        b.culling = LoadF32(p + 8);
        for (std::size_t k = 0; k < 9; ++k) b.rotation[k] = LoadF32(p + 12 + 4 * k);
        for (std::size_t k = 0; k < 3; ++k) b.position[k] = LoadF32(p + 48 + 4 * k);
        if (b.parent != kNoBone && b.parent >= count)
            Fail(base + std::size_t{i} * kBoneSize + 4,
                 "bone " + Str(i) + " has parent " + Str(b.parent) + " of " + Str(count) + " bones");
    }
    return base;
}

void ReadNameTable(ByteReader &r, std::uint32_t size, std::size_t sizeOffset, std::vector<std::uint8_t> &out) {
    RequireRecords(r, size, 1, "bone name bytes", sizeOffset);
    const std::uint8_t *p = r.take(size);
    out.assign(p, p + size);
}

// Returns the absolute offset of the first subset record.
std::size_t ReadSubsets(ByteReader &r, std::uint32_t count, std::size_t countOffset, std::size_t numBones,
                        std::vector<Subset> &out) {
    RequireRecords(r, count, kSubsetSize, "subsets", countOffset);
    const std::size_t base = r.offset();
    const std::uint8_t *p = r.take(std::size_t{count} * kSubsetSize);
    out.resize(count);
    for (std::uint32_t i = 0; i < count; ++i, p += kSubsetSize) {
        Subset &s = out[i];
        const std::size_t at = base + std::size_t{i} * kSubsetSize;
        s.facesBegin = LoadU32(p);
        s.facesLength = LoadU32(p + 4);
        s.vertsBegin = LoadU32(p + 8);
        s.vertsLength = LoadU32(p + 12);
        s.numBoneIndices = LoadU32(p + 16);
        // The record has room for 26 bones; more cannot be meant and would send consumers out of bounds.
        if (s.numBoneIndices > kMaxBonesPerSubset)
            Fail(at + 16, "subset " + Str(i) + " declares " + Str(s.numBoneIndices) + " bones (at most " +
                              Str(kMaxBonesPerSubset) + ")");
        for (std::size_t k = 0; k < kMaxBonesPerSubset; ++k) {
            s.boneIndices[k] = LoadU16(p + 20 + 2 * k);
            if (s.boneIndices[k] != kNoBone && s.boneIndices[k] >= numBones)
                Fail(at + 20 + 2 * k, "subset " + Str(i) + " bone slot " + Str(k) + " names bone " +
                                          Str(s.boneIndices[k]) + " of " + Str(numBones));
        }
    }
    return base;
}

// Names resolve through nameOffset (the table need not follow bone order); a missing NUL runs the
// name to the end of the table.
void ResolveBoneNames(RobloxMesh &mesh, std::size_t bonesOffset) {
    const std::vector<std::uint8_t> &table = mesh.boneNames;
    for (std::size_t i = 0; i < mesh.bones.size(); ++i) {
        Bone &b = mesh.bones[i];
        if (b.nameOffset >= table.size())
            Fail(bonesOffset + i * kBoneSize, "bone " + Str(i) + " name offset " + Str(b.nameOffset) +
                                                  " is outside the " + Str(table.size()) + "-byte name table");
        const auto *begin = reinterpret_cast<const char *>(table.data()) + b.nameOffset;
        const std::size_t limit = table.size() - b.nameOffset;
        const void *nul = std::memchr(begin, 0, limit);
        std::size_t len = nul != nullptr ? static_cast<std::size_t>(static_cast<const char *>(nul) - begin) : limit;
        // Every bone may point at the same unterminated table: cap what each copies (aiString holds 1023
        // characters anyway), or a small file could demand bones x table bytes of names.
        if (len > kMaxBoneNameLength) {
            Warn(mesh, "bone " + Str(i) + " name of " + Str(len) + " bytes cut to " + Str(kMaxBoneNameLength));
            len = kMaxBoneNameLength;
        }
        b.name.assign(begin, len);
    }
}

// Parents must form a forest: follow each chain once (three-colour walk, O(bones), no recursion).
void CheckBoneHierarchy(const std::vector<Bone> &bones, std::size_t bonesOffset) {
    enum : std::uint8_t { kUnseen, kOnPath, kDone };
    std::vector<std::uint8_t> state(bones.size(), kUnseen);
    std::vector<std::size_t> path;
    for (std::size_t start = 0; start < bones.size(); ++start) {
        path.clear();
        std::size_t i = start;
        while (state[i] == kUnseen) {
            state[i] = kOnPath;
            path.push_back(i);
            if (bones[i].parent == kNoBone) break;
            const std::size_t parent = bones[i].parent;
            if (state[parent] == kOnPath)
                Fail(bonesOffset + i * kBoneSize + 4,
                     "bone " + Str(i) + " (" + bones[i].name + ") closes a parent cycle through bone " + Str(parent));
            i = parent;
        }
        for (std::size_t b : path) state[b] = kDone;
    }
}

// Subset ranges only steer the skin remap in consumers (which must bound them anyway): report, don't reject.
void CheckSubsetRanges(RobloxMesh &mesh) {
    for (std::size_t i = 0; i < mesh.subsets.size(); ++i) {
        const Subset &s = mesh.subsets[i];
        if (std::uint64_t{s.facesBegin} + s.facesLength > mesh.faces.size() ||
            std::uint64_t{s.vertsBegin} + s.vertsLength > mesh.vertices.size())
            Warn(mesh, "subset " + Str(i) + " covers faces " + Str(s.facesBegin) + "+" + Str(s.facesLength) +
                           " and vertices " + Str(s.vertsBegin) + "+" + Str(s.vertsLength) + ", beyond the mesh (" +
                           Str(mesh.faces.size()) + " faces, " + Str(mesh.vertices.size()) + " vertices)");
    }
}

// Keeps the blob raw and interprets it when it says it is format 1 and its internal sizes agree.
void TakeFacs(RobloxMesh &mesh, std::uint32_t format, const std::uint8_t *blob, std::size_t size,
              std::size_t blobOffset) {
    Facs facs;
    facs.format = format;
    facs.blob.assign(blob, blob + size);
    if (format == 1 && size > 0) {
        std::string error;
        facs.parsed = ParseFacs(facs.blob, &error);
        if (!facs.parsed) {
            Warn(mesh, "FACS blob at byte offset " + Str(blobOffset) + " kept raw but not interpreted: " + error);
        }
    } else if (size > 0) {
        Warn(mesh, "FACS data format " + Str(format) + " is not understood; blob of " + Str(size) + " bytes kept raw");
    }
    mesh.facs = std::move(facs);
}

// FACS face bones drive skeleton bones by name (case-sensitive); report the ones the skeleton lacks.
// Runs once the whole file is read: chunk order is free.
void CheckFacsBones(RobloxMesh &mesh) {
    if (!mesh.facs || !mesh.facs->parsed) return;
    std::unordered_set<std::string> skeleton;
    for (const Bone &b : mesh.bones) skeleton.insert(b.name);
    std::size_t missing = 0;
    std::string first;
    for (const std::string &name : mesh.facs->parsed->faceBoneNames) {
        if (skeleton.count(name) != 0) continue;
        if (missing++ < 8) first += (first.empty() ? "'" : ", '") + name.substr(0, 64) + "'";
    }
    if (missing > 0)
        Warn(mesh, Str(missing) + " FACS face bone(s) not in the skeleton: " + first + (missing > 8 ? ", ..." : ""));
}

void KeepTrailing(RobloxMesh &mesh, ByteReader &r, const char *after) {
    if (r.atEnd()) return;
    const std::size_t at = r.offset();
    const std::size_t n = r.remaining();
    const std::uint8_t *p = r.take(n);
    mesh.trailingBytes.assign(p, p + n);
    Warn(mesh, Str(n) + " trailing bytes after the " + std::string(after) + " at byte offset " + Str(at) + " (kept)");
}

// ------------------------------------------------------------------------------------------------
// 1.00 / 1.01 text (§4).

inline bool IsSpace(std::uint8_t c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

class TextReader {
public:
    TextReader(const std::uint8_t *data, std::size_t size, std::size_t pos) : mData(data), mSize(size), mPos(pos) {}

    void read(RobloxMesh &mesh) {
        const bool v100 = mesh.version == "1.00";
        const std::size_t countAt = mPos;
        const std::int64_t numFaces = readFaceCount();
        const std::size_t numVerts = static_cast<std::size_t>(numFaces) * 3;
        // Reserve no more than the bytes can hold (the shortest face is 3 x "[0,0,0][0,0,0][0,0,0]"); a
        // wrong count is reported after the pass, with what the file really holds.
        constexpr std::size_t kMinFaceBytes = 63;
        const std::size_t plausibleFaces = std::min(static_cast<std::size_t>(numFaces), (mSize - mPos) / kMinFaceBytes);
        mesh.vertices.reserve(plausibleFaces * 3);
        mesh.faces.reserve(plausibleFaces);

        const float scale = v100 ? 0.5f : 1.0f; // 1.00 stores positions at twice their size
        float triple[3][3];
        int tripleInVertex = 0;
        std::uint64_t triples = 0;
        for (;;) {
            while (mPos < mSize && IsSpace(mData[mPos])) ++mPos;
            if (mPos == mSize) break;
            if (mData[mPos] != '[') Fail(mPos, std::string("expected '[' but found ") + Describe(mData[mPos]));
            if (mesh.vertices.size() == numVerts)
                Fail(countAt, "face count " + Str(static_cast<std::uint64_t>(numFaces)) +
                                  " is smaller than the vertex data, which continues at byte offset " + Str(mPos));
            readTriple(triple[tripleInVertex]);
            ++triples;
            if (++tripleInVertex < 3) continue;
            tripleInVertex = 0;
            Vertex v;
            v.px = triple[0][0] * scale, v.py = triple[0][1] * scale, v.pz = triple[0][2] * scale;
            v.nx = triple[1][0], v.ny = triple[1][1], v.nz = triple[1][2];
            v.u = triple[2][0];
            v.v = 1.0f - triple[2][1];      // the model keeps binary files' top-down V; w is always 0 and unused
            v.tangent = {127, 127, 127, 0}; // the zero tangent: text files have none
            mesh.vertices.push_back(v);
        }
        if (mesh.vertices.size() != numVerts || tripleInVertex != 0)
            Fail(countAt, "face count " + Str(static_cast<std::uint64_t>(numFaces)) + " needs " + Str(numVerts * 3) +
                              " bracketed triples, the file holds " + Str(triples));
        for (std::uint32_t i = 0; i < static_cast<std::uint32_t>(numFaces); ++i)
            mesh.faces.push_back(Face{3 * i, 3 * i + 1, 3 * i + 2});
    }

private:
    std::int64_t readFaceCount() {
        const std::size_t start = mPos;
        while (mPos < mSize && mData[mPos] != '\n' && mData[mPos] != '[') ++mPos;
        const std::string_view line(reinterpret_cast<const char *>(mData) + start, mPos - start);
        std::int64_t count = 0;
        const std::string_view text = TrimAscii(line);
        if (!ParseInt64(text, count) || count < 0)
            Fail(start, "face count '" + QuoteText(text, 32) + "' is not a non-negative integer");
        // Three vertex indices per face must stay within u32; no real file comes anywhere near.
        if (count > 0x55555555) Fail(start, "face count " + Str(static_cast<std::uint64_t>(count)) + " is too large");
        if (mPos < mSize && mData[mPos] == '\n')
            ++mPos;
        else if (mPos < mSize)
            Fail(mPos, "the face count line must end before the vertex data");
        return count;
    }

    // "[a,b,c]", whitespace allowed anywhere inside (tool-written files put spaces after commas).
    void readTriple(float out[3]) {
        const std::size_t open = mPos++; // at '[' (checked by the caller)
        for (int k = 0; k < 3; ++k) {
            const char end = k < 2 ? ',' : ']';
            const std::size_t start = mPos;
            bool innerSpace = false;
            while (mPos < mSize && mData[mPos] != ',' && mData[mPos] != ']' && mData[mPos] != '[') {
                innerSpace = innerSpace || IsSpace(mData[mPos]);
                ++mPos;
            }
            if (mPos == mSize) Fail(open, "bracket opened here is never closed");
            if (static_cast<char>(mData[mPos]) != end)
                Fail(mPos, std::string("bracket opened at byte offset ") + Str(open) + " holds " +
                               (k < 2 ? "fewer" : "more") + " than 3 numbers (found " + Describe(mData[mPos]) + ")");
            out[k] = number(start, mPos, innerSpace);
            ++mPos;
        }
    }

    float number(std::size_t begin, std::size_t end, bool innerSpace) {
        std::string_view s(reinterpret_cast<const char *>(mData) + begin, end - begin);
        if (innerSpace) {
            s = TrimAscii(s);
            // Whitespace inside the number itself: strip it into a reused buffer (rare, so no cost otherwise).
            if (std::any_of(s.begin(), s.end(), [](char c) { return IsSpace(static_cast<std::uint8_t>(c)); })) {
                mScratch.clear();
                for (char c : s)
                    if (!IsSpace(static_cast<std::uint8_t>(c))) mScratch.push_back(c);
                s = mScratch;
            }
        }
        float v = 0;
        if (!ParseFloat(s, v)) {
            std::size_t at = begin;
            while (at < end && IsSpace(mData[at])) ++at;
            Fail(at, "'" + QuoteText(s, 32) + "' is not a number");
        }
        return v;
    }

    static std::string Describe(std::uint8_t c) {
        if (c >= 0x20 && c < 0x7F) return std::string("'") + static_cast<char>(c) + "'";
        return "byte " + Str(c);
    }

    const std::uint8_t *mData;
    std::size_t mSize;
    std::size_t mPos;
    std::string mScratch;
};

// ------------------------------------------------------------------------------------------------
// 2.00 - 5.00 binary (§5-§8).

// A clear message for files cut inside the fixed header, before its fields are read one by one.
void RequireHeader(const ByteReader &r, std::size_t minimum, const std::string &version) {
    if (r.remaining() < minimum)
        Fail(r.offset(),
             "the " + version + " header needs " + Str(minimum) + " bytes, " + Str(r.remaining()) + " remain");
}

// 2.00 and 3.xx: the sizes the header declares are strides (§5): check their minimums, then skip any
// header bytes beyond the known fields.
void ApplyStrides(ByteReader &r, RobloxMesh &mesh, std::size_t start, std::uint16_t headerSize, std::uint8_t vertexSize,
                  std::uint8_t faceSize) {
    if (vertexSize < 36) Fail(start + 2, "sizeof_vertex " + Str(vertexSize) + " is smaller than 36");
    if (faceSize < 12) Fail(start + 3, "sizeof_face " + Str(faceSize) + " is smaller than 12");
    if (headerSize > r.size() - start)
        Fail(start, "sizeof_header " + Str(headerSize) + " runs past the end of the file");
    r.seek(start + headerSize);
    mesh.headerSize = headerSize;
    mesh.vertexSize = vertexSize;
    mesh.faceSize = faceSize;
}

void ReadV2(ByteReader &r, RobloxMesh &mesh) {
    RequireHeader(r, 12, mesh.version);
    const std::size_t start = r.offset();
    const std::uint16_t headerSize = r.u16le();
    if (headerSize < 12) Fail(start, "sizeof_header " + Str(headerSize) + " is smaller than 12");
    const std::uint8_t vertexSize = r.u8();
    const std::uint8_t faceSize = r.u8();
    const std::size_t numVertsAt = r.offset();
    const std::uint32_t numVerts = r.u32le();
    const std::size_t numFacesAt = r.offset();
    const std::uint32_t numFaces = r.u32le();
    ApplyStrides(r, mesh, start, headerSize, vertexSize, faceSize);
    ReadVertices(r, numVerts, vertexSize, numVertsAt, mesh.vertices);
    ReadFaces(r, numFaces, faceSize, numFacesAt, numVerts, mesh.faces);
    KeepTrailing(mesh, r, "faces");
}

void ReadV3(ByteReader &r, RobloxMesh &mesh) {
    RequireHeader(r, 16, mesh.version);
    const std::size_t start = r.offset();
    const std::uint16_t headerSize = r.u16le();
    if (headerSize < 16) Fail(start, "sizeof_header " + Str(headerSize) + " is smaller than 16");
    const std::uint8_t vertexSize = r.u8();
    const std::uint8_t faceSize = r.u8();
    const std::uint16_t lodSize = r.u16le();
    const std::size_t numLodsAt = r.offset();
    const std::uint16_t numLods = r.u16le();
    const std::size_t numVertsAt = r.offset();
    const std::uint32_t numVerts = r.u32le();
    const std::size_t numFacesAt = r.offset();
    const std::uint32_t numFaces = r.u32le();
    if (lodSize < 4) Fail(start + 4, "sizeof_LOD " + Str(lodSize) + " is smaller than 4");
    ApplyStrides(r, mesh, start, headerSize, vertexSize, faceSize);
    mesh.lodEntrySize = lodSize;
    ReadVertices(r, numVerts, vertexSize, numVertsAt, mesh.vertices);
    ReadFaces(r, numFaces, faceSize, numFacesAt, numVerts, mesh.faces);
    ReadLodOffsets(r, numLods, lodSize, numLodsAt, mesh.lodOffsets);
    KeepTrailing(mesh, r, "LOD offsets");
}

void ReadV4V5(ByteReader &r, RobloxMesh &mesh, bool v5) {
    const std::uint16_t minHeader = v5 ? 32 : 24;
    RequireHeader(r, minHeader, mesh.version);
    const std::size_t start = r.offset();
    const std::uint16_t headerSize = r.u16le();
    if (headerSize < minHeader) Fail(start, "sizeof_header " + Str(headerSize) + " is smaller than " + Str(minHeader));
    mesh.lodType = r.u16le();
    const std::size_t numVertsAt = r.offset();
    const std::uint32_t numVerts = r.u32le();
    const std::size_t numFacesAt = r.offset();
    const std::uint32_t numFaces = r.u32le();
    const std::size_t numLodsAt = r.offset();
    const std::uint16_t numLods = r.u16le();
    const std::size_t numBonesAt = r.offset();
    const std::uint16_t numBones = r.u16le();
    const std::size_t namesSizeAt = r.offset();
    const std::uint32_t namesSize = r.u32le();
    const std::size_t numSubsetsAt = r.offset();
    const std::uint16_t numSubsets = r.u16le();
    mesh.numHighQualityLODs = r.u8();
    mesh.v4Unused = r.u8(); // 63 in a real 4.01 file: never assumed 0
    std::uint32_t facsFormat = 0, facsSize = 0;
    std::size_t facsSizeAt = 0;
    if (v5) {
        facsFormat = r.u32le();
        facsSizeAt = r.offset();
        facsSize = r.u32le();
    }
    if (headerSize > r.size() - start)
        Fail(start, "sizeof_header " + Str(headerSize) + " runs past the end of the file");
    r.seek(start + headerSize);

    mesh.headerSize = headerSize;
    mesh.vertexSize = kVertex40;
    mesh.faceSize = 12;
    ReadVertices(r, numVerts, kVertex40, numVertsAt, mesh.vertices);
    if (numBones > 0) ReadEnvelopes(r, numVerts, numVertsAt, mesh.envelopes);
    ReadFaces(r, numFaces, 12, numFacesAt, numVerts, mesh.faces);
    ReadLodOffsets(r, numLods, 4, numLodsAt, mesh.lodOffsets);
    const std::size_t bonesAt = ReadBones(r, numBones, numBonesAt, mesh.bones);
    ReadNameTable(r, namesSize, namesSizeAt, mesh.boneNames);
    ResolveBoneNames(mesh, bonesAt);
    CheckBoneHierarchy(mesh.bones, bonesAt);
    ReadSubsets(r, numSubsets, numSubsetsAt, numBones, mesh.subsets);
    CheckSubsetRanges(mesh);
    if (v5) {
        RequireRecords(r, facsSize, 1, "FACS bytes", facsSizeAt);
        const std::size_t blobAt = r.offset();
        TakeFacs(mesh, facsFormat, r.take(facsSize), facsSize, blobAt);
        CheckFacsBones(mesh);
    }
    KeepTrailing(mesh, r, v5 ? "FACS data" : "subsets");
}

// ------------------------------------------------------------------------------------------------
// 6.00 / 7.00 chunks (§9).

// A chunk tag is printable ASCII padded with NULs. Bytes that do not look like one end the chunk list:
// they are trailing data (kept, warned about), not a truncated chunk.
bool LooksLikeTag(const std::uint8_t *p, std::size_t n) {
    if (n == 0 || p[0] == 0) return false;
    std::size_t i = 0;
    while (i < n && p[i] != 0) {
        if (p[i] < 0x21 || p[i] > 0x7E) return false;
        ++i;
    }
    for (; i < n; ++i)
        if (p[i] != 0) return false;
    return true;
}

void WarnLeftover(RobloxMesh &mesh, const ByteReader &payload, const std::string &tag) {
    if (!payload.atEnd())
        Warn(mesh, Str(payload.remaining()) + " unused bytes at the end of the " + tag + " chunk at byte offset " +
                       Str(payload.offset()) + " (dropped)");
}

// "Last wins" for a repeated tag: forget what the earlier chunk put into the model. (Its place in the
// chunk order and any raw copy are dropped by the walker's bookkeeping.)
void ForgetChunk(RobloxMesh &mesh, const std::string &tag) {
    if (tag == "COREMESH") {
        mesh.vertices.clear();
        mesh.faces.clear();
        mesh.coremeshVersion = 0;
    } else if (tag == "LODS") {
        mesh.lodOffsets.clear();
        mesh.lodType = 0;
        mesh.numHighQualityLODs = 0;
    } else if (tag == "SKINNING") {
        mesh.envelopes.clear();
        mesh.bones.clear();
        mesh.boneNames.clear();
        mesh.subsets.clear();
    } else if (tag == "FACS") {
        mesh.facs.reset();
    } else if (tag == "HSRAVIS") {
        mesh.hsravis.reset();
    }
}

void ReadCoremesh(ByteReader &p, std::uint32_t version, std::size_t versionAt, RobloxMesh &mesh) {
    if (version == 1) {
        const std::size_t numVertsAt = p.offset();
        const std::uint32_t numVerts = p.u32le();
        ReadVertices(p, numVerts, kVertex40, numVertsAt, mesh.vertices);
        const std::size_t numFacesAt = p.offset();
        const std::uint32_t numFaces = p.u32le();
        ReadFaces(p, numFaces, 12, numFacesAt, numVerts, mesh.faces);
    } else if (version == 2) {
        const std::size_t sizeAt = p.offset();
        const std::uint32_t dracoSize = p.u32le();
        RequireRecords(p, dracoSize, 1, "Draco bytes", sizeAt);
        const std::size_t dracoAt = p.offset();
        DecodeDracoCoremesh(p.take(dracoSize), dracoSize, dracoAt, mesh.vertices, mesh.faces, mesh.warnings);
    } else {
        Fail(versionAt, "COREMESH chunk version " + Str(version) + " is not supported (1 raw, 2 Draco)");
    }
    mesh.coremeshVersion = version;
    mesh.vertexSize = kVertex40;
    mesh.faceSize = 12;
}

void ReadLodsChunk(ByteReader &p, RobloxMesh &mesh) {
    mesh.lodType = p.u16le();
    mesh.numHighQualityLODs = p.u8();
    const std::size_t countAt = p.offset();
    const std::uint32_t count = p.u32le();
    ReadLodOffsets(p, count, 4, countAt, mesh.lodOffsets);
}

// Returns the absolute offset of the envelope count (checked against the vertex count after the walk).
std::size_t ReadSkinningChunk(ByteReader &p, RobloxMesh &mesh) {
    const std::size_t numEnvAt = p.offset();
    ReadEnvelopes(p, p.u32le(), numEnvAt, mesh.envelopes);
    const std::size_t numBonesAt = p.offset();
    const std::size_t bonesAt = ReadBones(p, p.u32le(), numBonesAt, mesh.bones);
    const std::size_t namesSizeAt = p.offset();
    ReadNameTable(p, p.u32le(), namesSizeAt, mesh.boneNames);
    ResolveBoneNames(mesh, bonesAt);
    CheckBoneHierarchy(mesh.bones, bonesAt);
    const std::size_t numSubsetsAt = p.offset();
    ReadSubsets(p, p.u32le(), numSubsetsAt, mesh.bones.size(), mesh.subsets);
    return numEnvAt;
}

void ReadFacsChunk(ByteReader &p, RobloxMesh &mesh) {
    const std::size_t sizeAt = p.offset();
    const std::uint32_t size = p.u32le();
    RequireRecords(p, size, 1, "FACS bytes", sizeAt);
    const std::size_t blobAt = p.offset();
    TakeFacs(mesh, 1, p.take(size), size, blobAt);
}

void ReadHsravisChunk(ByteReader &p, RobloxMesh &mesh) {
    const std::size_t countAt = p.offset();
    Hsravis h;
    h.bitCount = p.u32le();
    const std::uint64_t bytes = (std::uint64_t{h.bitCount} + 7) / 8;
    RequireRecords(p, bytes, 1, "HSRAVIS bytes", countAt);
    const std::uint8_t *bits = p.take(static_cast<std::size_t>(bytes));
    h.bits.assign(bits, bits + bytes);
    mesh.hsravis = std::move(h);
}

void ReadChunked(ByteReader &r, RobloxMesh &mesh) {
    // Chunks in file order; a repeated tag marks its earlier chunk dead. Hash lookups keep hostile files
    // with millions of tiny chunks linear.
    struct Seen {
        std::string tag;
        bool alive = true;
        std::optional<RawChunk> raw;
    };
    std::vector<Seen> seen;
    std::unordered_map<std::string, std::size_t> lastOf;
    std::size_t skinningEnvAt = 0;
    bool haveSkinning = false;
    while (!r.atEnd()) {
        const std::size_t chunkAt = r.offset();
        if (!LooksLikeTag(r.current(), std::min<std::size_t>(8, r.remaining()))) break;
        if (r.remaining() < 16)
            Fail(chunkAt, "truncated chunk header: 16 bytes needed, " + Str(r.remaining()) + " remain");
        std::string tag = r.fixedString(8);
        const std::size_t versionAt = r.offset();
        const std::uint32_t version = r.u32le();
        const std::size_t sizeAt = r.offset();
        const std::uint32_t size = r.u32le();
        if (size > r.remaining())
            Fail(sizeAt,
                 "chunk " + tag + " declares " + Str(size) + " payload bytes, only " + Str(r.remaining()) + " remain");
        ByteReader payload = r.sub(size);

        const auto previous = lastOf.find(tag);
        if (previous != lastOf.end()) {
            Warn(mesh, "duplicate " + tag + " chunk at byte offset " + Str(chunkAt) + " replaces the earlier one");
            seen[previous->second].alive = false;
            seen[previous->second].raw.reset();
            ForgetChunk(mesh, tag);
            if (tag == "SKINNING") haveSkinning = false;
        }
        lastOf[tag] = seen.size();
        seen.push_back(Seen{tag, true, std::nullopt});

        const bool known = (tag == "LODS" || tag == "SKINNING" || tag == "FACS" || tag == "HSRAVIS") && version == 1;
        if (tag == "COREMESH") {
            ReadCoremesh(payload, version, versionAt, mesh);
        } else if (known && tag == "LODS") {
            ReadLodsChunk(payload, mesh);
        } else if (known && tag == "SKINNING") {
            skinningEnvAt = ReadSkinningChunk(payload, mesh);
            haveSkinning = true;
        } else if (known && tag == "FACS") {
            ReadFacsChunk(payload, mesh);
        } else if (known && tag == "HSRAVIS") {
            ReadHsravisChunk(payload, mesh);
        } else {
            RawChunk raw;
            raw.tag = tag;
            raw.version = version;
            const std::uint8_t *bytes = payload.take(size);
            raw.payload.assign(bytes, bytes + size);
            Warn(mesh, "chunk " + tag + " version " + Str(version) + " at byte offset " + Str(chunkAt) +
                           " not interpreted (kept)");
            seen.back().raw = std::move(raw);
        }
        WarnLeftover(mesh, payload, tag);
    }
    KeepTrailing(mesh, r, "last chunk");

    for (Seen &s : seen) {
        if (!s.alive) continue;
        mesh.chunkOrder.push_back(std::move(s.tag));
        if (s.raw) mesh.unknownChunks.push_back(std::move(*s.raw));
    }
    if (mesh.coremeshVersion == 0) Fail(r.offset(), "no COREMESH chunk");
    // Chunk order is free, so checks across chunks wait until every chunk is in.
    if (haveSkinning) {
        if (mesh.envelopes.size() != mesh.vertices.size())
            Fail(skinningEnvAt, "SKINNING has " + Str(mesh.envelopes.size()) + " envelopes for " +
                                    Str(mesh.vertices.size()) + " vertices");
        CheckSubsetRanges(mesh);
    }
    CheckFacsBones(mesh);
}

} // namespace

RobloxMesh ReadRobloxMesh(const std::uint8_t *data, std::size_t size) {
    static const char kPrefix[] = "version ";
    constexpr std::size_t kPrefixLen = sizeof(kPrefix) - 1;
    if (data == nullptr || size < kPrefixLen || std::memcmp(data, kPrefix, kPrefixLen) != 0)
        Fail(0, "the file does not start with \"version \"");
    if (size < kPrefixLen + 4) Fail(kPrefixLen, "the version number is cut short");

    RobloxMesh mesh;
    mesh.version.assign(reinterpret_cast<const char *>(data) + kPrefixLen, 4);
    static const char *const kKnown[] = {"1.00", "1.01", "2.00", "3.00", "3.01",
                                         "4.00", "4.01", "5.00", "6.00", "7.00"};
    if (std::none_of(std::begin(kKnown), std::end(kKnown), [&](const char *v) { return mesh.version == v; })) {
        Fail(kPrefixLen, "unknown version '" + QuoteText(mesh.version) + "'");
    }
    std::size_t pos = kPrefixLen + 4;
    bool crlf = false;
    if (pos < size && data[pos] == '\r' && pos + 1 < size && data[pos + 1] == '\n') {
        crlf = true;
        pos += 2;
    } else if (pos < size && data[pos] == '\n') {
        pos += 1;
    } else {
        Fail(pos, "the version line must end with a line break");
    }

    try {
        if (mesh.isText()) {
            mesh.textCrlf = crlf;
            mesh.textFinalNewline = data[size - 1] == '\n';
            TextReader(data, size, pos).read(mesh);
            return mesh;
        }
        ByteReader r(data, size, kFormatName);
        r.seek(pos);
        const char major = mesh.version[0];
        if (major == '2')
            ReadV2(r, mesh);
        else if (major == '3')
            ReadV3(r, mesh);
        else if (major == '4')
            ReadV4V5(r, mesh, false);
        else if (major == '5')
            ReadV4V5(r, mesh, true);
        else
            ReadChunked(r, mesh);
    } catch (const std::bad_alloc &) {
        // Every count is checked against the file first, so this means the file is simply too big.
        Fail(FormatError::kNoOffset, "out of memory while reading the file");
    }
    if (mesh.version[0] >= '3') LodLevels(mesh, &mesh.warnings);
    return mesh;
}

} // namespace gamefmt::rbxmesh
