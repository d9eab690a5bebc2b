// Union render meshes and physics hulls (docs/formats/roblox-union-mesh.md §3–§8, §10). Every count is checked
// against the bytes that remain before anything is allocated, so a blob can never ask for more memory than a
// small multiple of its own size.
#include "importers/roblox_model/geometry/union_mesh.hpp"

#include "common/byte_reader.hpp"
#include "common/error.hpp"

#include <cmath>
#include <cstring>
#include <map>

namespace gamefmt::rbx {
namespace {

constexpr std::uint8_t kKey[31] = {0x56, 0x2E, 0x6E, 0x58, 0x31, 0x20, 0x30, 0x04, 0x34, 0x69, 0x0C,
                                   0x77, 0x0C, 0x01, 0x5E, 0x00, 0x1A, 0x60, 0x37, 0x69, 0x1D, 0x52,
                                   0x2B, 0x07, 0x4F, 0x24, 0x59, 0x65, 0x53, 0x04, 0x7A};
constexpr std::size_t kCsgMdlStride = 84;

Vector3 ReadVector(ByteReader &r) {
    const float x = r.f32le(), y = r.f32le(), z = r.f32le();
    return {x, y, z};
}

bool Finite(const Vector3 &v) {
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

void CheckPositions(const ByteReader &r, const std::vector<Vector3> &positions) {
    for (const Vector3 &p : positions)
        if (!Finite(p)) r.failAt(0, "a vertex position is not a finite number");
}

// §4/§5 LOD table: offsets[0] = 0, non-decreasing, multiples of 3, the last = m; LOD 0 = [offsets[0], offsets[1]).
// Anything else: a warning and every index is LOD 0.
void KeepLod0(std::vector<std::uint32_t> &indices, const std::vector<std::uint32_t> &offsets, UnionMesh &mesh) {
    bool ok = offsets.size() >= 2 && offsets[0] == 0 && offsets.back() == indices.size();
    for (std::size_t i = 0; ok && i < offsets.size(); ++i)
        ok = offsets[i] % 3 == 0 && (i == 0 || offsets[i] >= offsets[i - 1]);
    if (!ok) {
        mesh.warnings.push_back("LOD table of " + std::to_string(offsets.size()) +
                                " offsets is not usable; every index read as LOD 0");
        return;
    }
    indices.resize(offsets[1]);
}

// `k` u32 LOD offsets, then LOD 0 kept (KeepLod0).
void ReadLodTable(ByteReader &r, std::uint32_t k, std::vector<std::uint32_t> &indices, UnionMesh &mesh) {
    r.requireArray(k, 4, "LOD offsets");
    std::vector<std::uint32_t> offsets(k);
    for (std::uint32_t &o : offsets) o = r.u32le();
    KeepLod0(indices, offsets, mesh);
}

// The end of a render mesh: leftover bytes (a warning), finite positions, the indices.
void Finish(const ByteReader &r, std::vector<std::uint32_t> indices, UnionMesh &mesh) {
    if (!r.atEnd()) mesh.warnings.push_back(std::to_string(r.remaining()) + " bytes after the mesh ignored");
    CheckPositions(r, mesh.positions);
    mesh.indices = std::move(indices);
}

void CheckIndices(const ByteReader &r, const std::vector<std::uint32_t> &indices, std::size_t count, const char *what) {
    if (indices.size() % 3 != 0)
        r.fail(std::string(what) + ": " + std::to_string(indices.size()) + " indices is not a multiple of 3");
    for (std::uint32_t i : indices)
        if (i >= count)
            r.fail(std::string(what) + ": index " + std::to_string(i) + " is not below the " + std::to_string(count) +
                   " entries it indexes");
}

// §5 delta coding: `count` codes from `r`, starting at 0, 23-bit wrap-around.
std::vector<std::uint32_t> DeltaIndices(ByteReader &r, std::uint64_t count, const char *what) {
    r.requireArray(count, 1, what); // every code is at least one byte
    std::vector<std::uint32_t> out(static_cast<std::size_t>(count));
    std::uint32_t idx = 0;
    for (std::uint32_t &value : out) {
        const std::uint8_t b = r.u8();
        std::int32_t delta = 0;
        if (b < 0x40) {
            delta = b;
        } else if (b < 0x80) {
            delta = static_cast<std::int32_t>(b) - 128;
        } else {
            const std::uint8_t c = r.u8(), d = r.u8();
            const std::int32_t v =
                static_cast<std::int32_t>((std::uint32_t(b - 0x80) << 16) | (std::uint32_t(c) << 8) | d);
            delta = v >= 0x400000 ? v - 0x800000 : v;
        }
        idx = static_cast<std::uint32_t>(static_cast<std::int64_t>(idx) + delta) & 0x7FFFFFu;
        value = idx;
    }
    return out;
}

Vector3 Dequantise(std::uint16_t x, std::uint16_t y, std::uint16_t z) {
    const auto q = [](std::uint16_t v) {
        const float f = (static_cast<float>(v) - 32767.0f) / 32767.0f;
        return f < -1 ? -1.0f : (f > 1 ? 1.0f : f);
    };
    Vector3 n{q(x), q(y), q(z)};
    const float length = std::sqrt(n.x * n.x + n.y * n.y + n.z * n.z);
    if (length > 0) n = {n.x / length, n.y / length, n.z / length};
    return n;
}

UnionMesh DecodeCsgMdl24(std::vector<std::uint8_t> &p, std::uint32_t version) {
    CsgMdlXor(p.data(), 0, p.size());
    ByteReader r(p.data(), p.size(), kUnionFormatName);
    UnionMesh mesh;
    mesh.source = "CSGMDL" + std::to_string(version);
    r.seek(10);
    r.skip(32); // digest and opaque bytes
    const std::uint32_t n = r.u32le();
    const std::uint32_t stride = r.u32le();
    if (stride != kCsgMdlStride) r.failAt(46, "vertex stride " + std::to_string(stride) + " (only 84 is known)");
    r.requireArray(n, kCsgMdlStride, "CSGMDL vertices");
    mesh.positions.reserve(n);
    mesh.normals.reserve(n);
    mesh.uvs.reserve(n);
    mesh.colors.reserve(n);
    for (std::uint32_t i = 0; i < n; ++i) {
        mesh.positions.push_back(ReadVector(r));
        mesh.normals.push_back(ReadVector(r));
        std::array<std::uint8_t, 4> rgba{};
        for (std::uint8_t &c : rgba) c = r.u8();
        mesh.colors.push_back(rgba);
        r.skip(4); // NormalId: redundant
        const float u = r.f32le(), v = r.f32le();
        mesh.uvs.push_back({u, v});
        r.skip(16 + 12 + 16); // zeros, tangent, zeros
    }
    const std::size_t mAt = r.tell();
    const std::uint32_t m = r.u32le();
    r.requireArray(m, 4, "CSGMDL indices");
    std::vector<std::uint32_t> indices(m);
    for (std::uint32_t &i : indices) i = r.u32le();
    if (m % 3 != 0) r.failAt(mAt, std::to_string(m) + " indices is not a multiple of 3");
    CheckIndices(r, indices, n, "CSGMDL");
    if (version == 4) ReadLodTable(r, r.u32le(), indices, mesh);
    Finish(r, std::move(indices), mesh);
    return mesh;
}

UnionMesh DecodeCsgMdl5(const std::uint8_t *data, std::size_t size) {
    ByteReader r(data, size, kUnionFormatName);
    UnionMesh mesh;
    mesh.source = "CSGMDL5";
    r.seek(10);
    const std::uint16_t n = r.u16le();
    r.requireArray(n, 12, "CSGMDL5 positions");
    mesh.positions.reserve(n);
    for (std::uint16_t i = 0; i < n; ++i) mesh.positions.push_back(ReadVector(r));
    const auto count = [&](const char *what) {
        const std::size_t at = r.tell();
        const std::uint16_t c = r.u16le();
        if (c != n)
            r.failAt(at, std::string(what) + " count " + std::to_string(c) + " differs from the " + std::to_string(n) +
                             " positions");
        return c;
    };
    const auto quantised = [&](const char *what, std::vector<Vector3> *out) {
        count(what);
        const std::size_t at = r.tell();
        const std::uint32_t bytes = r.u32le();
        if (bytes != 6u * n)
            r.failAt(at, std::string(what) + " byte length " + std::to_string(bytes) + " is not 6 × count");
        r.requireArray(n, 6, what);
        for (std::uint16_t i = 0; i < n; ++i) {
            const std::uint16_t x = r.u16le(), y = r.u16le(), z = r.u16le();
            if (out != nullptr) out->push_back(Dequantise(x, y, z));
        }
    };
    mesh.normals.reserve(n);
    quantised("CSGMDL5 normals", &mesh.normals);
    count("CSGMDL5 colours");
    r.requireArray(n, 4, "CSGMDL5 colours");
    mesh.colors.reserve(n);
    for (std::uint16_t i = 0; i < n; ++i) mesh.colors.push_back({r.u8(), r.u8(), r.u8(), r.u8()});
    count("CSGMDL5 NormalIds");
    r.requireArray(n, 1, "CSGMDL5 NormalIds");
    r.skip(n);
    count("CSGMDL5 UVs");
    r.requireArray(n, 8, "CSGMDL5 UVs");
    mesh.uvs.reserve(n);
    for (std::uint16_t i = 0; i < n; ++i) {
        const float u = r.f32le(), v = r.f32le();
        mesh.uvs.push_back({u, v});
    }
    quantised("CSGMDL5 tangents", nullptr);
    const std::size_t mAt = r.tell();
    const std::uint32_t m = r.u32le();
    const std::uint32_t length = r.u32le();
    if (length > r.remaining() || m > length)
        r.failAt(mAt, "index stream of " + std::to_string(m) + " indices in " + std::to_string(length) +
                          " bytes does not fit the " + std::to_string(r.remaining()) + " bytes that remain");
    ByteReader stream = r.sub(length);
    std::vector<std::uint32_t> indices = DeltaIndices(stream, m, "CSGMDL5 indices");
    if (!stream.atEnd()) stream.fail(std::to_string(stream.remaining()) + " bytes left in the index stream");
    CheckIndices(r, indices, n, "CSGMDL5");
    ReadLodTable(r, r.u8(), indices, mesh);
    Finish(r, std::move(indices), mesh);
    return mesh;
}

std::optional<UnionMesh> DecodeSolidMesh(const std::uint8_t *data, std::size_t size) {
    ByteReader r(data, size, kUnionFormatName);
    if (size < 27 || data[0] != 3 || data[1] != 1) return std::nullopt;
    r.seek(2);
    const std::uint64_t p1 = r.u64le();
    const std::uint32_t p2 = r.u32le();
    if (p1 != size - 14 || p2 != size - 14 || std::memcmp(data + 14, "SolidMesh\0\0\0\0", 13) != 0) return std::nullopt;
    r.seek(27);
    const auto pool = [&](std::size_t element, const char *what) {
        const std::uint64_t c = r.u64le();
        r.requireArray(c, element, what);
        return c;
    };
    std::vector<Vector3> positions, normals, colours;
    std::vector<std::array<float, 2>> uvs;
    const std::uint64_t nP = pool(12, "SolidMesh positions");
    positions.reserve(static_cast<std::size_t>(nP));
    for (std::uint64_t i = 0; i < nP; ++i) positions.push_back(ReadVector(r));
    const std::uint64_t nN = pool(12, "SolidMesh normals");
    normals.reserve(static_cast<std::size_t>(nN));
    for (std::uint64_t i = 0; i < nN; ++i) normals.push_back(ReadVector(r));
    const std::uint64_t nT = pool(8, "SolidMesh UVs");
    uvs.reserve(static_cast<std::size_t>(nT));
    for (std::uint64_t i = 0; i < nT; ++i) {
        const float u = r.f32le(), v = r.f32le();
        uvs.push_back({u, v});
    }
    const std::uint64_t nC = pool(12, "SolidMesh colours");
    colours.reserve(static_cast<std::size_t>(nC));
    for (std::uint64_t i = 0; i < nC; ++i) colours.push_back(ReadVector(r));

    const std::size_t mAt = r.tell();
    const std::uint64_t m = r.u64le();
    if (m % 3 != 0) r.failAt(mAt, std::to_string(m) + " position indices is not a multiple of 3");
    const std::vector<std::uint32_t> sP = DeltaIndices(r, m, "SolidMesh position indices");
    const auto stream = [&](const char *what) {
        const std::size_t at = r.tell();
        const std::uint64_t c = r.u64le();
        if (c != 0 && c != m)
            r.failAt(at,
                     std::string(what) + ": " + std::to_string(c) + " indices for " + std::to_string(m) + " corners");
        return DeltaIndices(r, c, what);
    };
    const std::vector<std::uint32_t> sN = stream("SolidMesh normal indices");
    const std::vector<std::uint32_t> sT = stream("SolidMesh UV indices");
    const std::vector<std::uint32_t> sC = stream("SolidMesh colour indices");
    CheckIndices(r, sP, static_cast<std::size_t>(nP), "SolidMesh positions");
    if (!sN.empty()) CheckIndices(r, sN, static_cast<std::size_t>(nN), "SolidMesh normals");
    if (!sT.empty()) CheckIndices(r, sT, static_cast<std::size_t>(nT), "SolidMesh UVs");
    if (!sC.empty()) CheckIndices(r, sC, static_cast<std::size_t>(nC), "SolidMesh colours");

    UnionMesh mesh;
    mesh.source = "SolidMesh";
    if (!r.atEnd()) mesh.warnings.push_back(std::to_string(r.remaining()) + " bytes after the mesh ignored");
    CheckPositions(r, positions);
    // OBJ-style corners: one vertex per distinct (position, normal, UV, colour) index tuple.
    std::map<std::array<std::uint32_t, 4>, std::uint32_t> corners;
    const std::uint32_t none = 0xFFFFFFFFu;
    mesh.indices.reserve(sP.size());
    for (std::size_t c = 0; c < sP.size(); ++c) {
        const std::array<std::uint32_t, 4> key{sP[c], sN.empty() ? none : sN[c], sT.empty() ? none : sT[c],
                                               sC.empty() ? none : sC[c]};
        const auto [at, added] = corners.emplace(key, static_cast<std::uint32_t>(mesh.positions.size()));
        if (added) {
            mesh.positions.push_back(positions[key[0]]);
            if (!sN.empty()) mesh.normals.push_back(normals[key[1]]);
            if (!sT.empty()) mesh.uvs.push_back(uvs[key[2]]);
            if (!sC.empty()) {
                const Vector3 &col = colours[key[3]];
                const auto byte = [](float v) {
                    return static_cast<std::uint8_t>(v > 0 ? (v < 1 ? std::lround(v * 255.0f) : 255) : 0);
                };
                mesh.colors.push_back({byte(col.x), byte(col.y), byte(col.z), 255});
            }
        }
        mesh.indices.push_back(at->second);
    }
    return mesh;
}

} // namespace

void CsgMdlXor(std::uint8_t *data, std::size_t from, std::size_t to) {
    for (std::size_t i = from; i < to; ++i) data[i] ^= kKey[i % 31];
}

UnionBlob SniffUnionBlob(const std::uint8_t *data, std::size_t size, std::uint32_t *version) {
    if (size == 0) return UnionBlob::Empty;
    if (size >= 10) {
        std::uint8_t head[10];
        std::memcpy(head, data, 10);
        CsgMdlXor(head, 0, 10);
        if (std::memcmp(head, "CSGMDL", 6) == 0) {
            if (version != nullptr)
                *version = std::uint32_t(head[6]) | std::uint32_t(head[7]) << 8 | std::uint32_t(head[8]) << 16 |
                           std::uint32_t(head[9]) << 24;
            return UnionBlob::CsgMdl;
        }
        if (std::memcmp(data, "CSGPHS", 6) == 0) {
            if (version != nullptr)
                *version = std::uint32_t(data[6]) | std::uint32_t(data[7]) << 8 | std::uint32_t(data[8]) << 16 |
                           std::uint32_t(data[9]) << 24;
            return UnionBlob::Csgphs;
        }
    }
    if (size >= 4 && std::memcmp(data, "CSGK", 4) == 0) return UnionBlob::Csgk;
    if (size >= 8 && std::memcmp(data, "<roblox!", 8) == 0) return UnionBlob::Model;
    if (size >= 23 && data[0] == 3 && data[1] == 1 && std::memcmp(data + 14, "SolidMesh", 9) == 0)
        return UnionBlob::SolidMesh;
    return UnionBlob::Unknown;
}

std::optional<UnionMesh> DecodeUnionRenderMesh(const std::uint8_t *data, std::size_t size) {
    std::uint32_t version = 0;
    switch (SniffUnionBlob(data, size, &version)) {
    case UnionBlob::CsgMdl:
        if (version == 2 || version == 4) {
            if (size < 54) throw FormatError(kUnionFormatName, "CSGMDL blob of " + std::to_string(size) + " bytes", 0);
            std::vector<std::uint8_t> copy(data, data + size);
            return DecodeCsgMdl24(copy, version);
        }
        if (version == 5) return DecodeCsgMdl5(data, size);
        return std::nullopt;
    case UnionBlob::SolidMesh:
        return DecodeSolidMesh(data, size);
    default:
        return std::nullopt;
    }
}

std::optional<UnionMesh> DecodeUnionHulls(const std::uint8_t *data, std::size_t size) {
    std::uint32_t version = 0;
    if (SniffUnionBlob(data, size, &version) != UnionBlob::Csgphs) return std::nullopt;
    if (version != 3 && version != 5 && version != 6 && version != 7) return std::nullopt;
    ByteReader r(data, size, kUnionFormatName);
    r.seek(10);
    if (version == 7) r.skip(1);  // geometry type
    if (version >= 6) r.skip(40); // PhysicsInfo: volume, centre of mass, inertia
    static const std::uint8_t kHullHeader[40] = {0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,    0,
                                                 0x10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x80, 0x3F};
    UnionMesh mesh;
    mesh.source = "CSGPHS" + std::to_string(version);
    while (!r.atEnd()) {
        const std::size_t at = r.tell();
        ByteReader header = r.sub(40);
        if (std::memcmp(header.data(), kHullHeader, 40) != 0) r.failAt(at, "hull header differs from the known one");
        const std::size_t floatsAt = r.tell();
        const std::uint32_t floats = r.u32le();
        const std::uint32_t floatSize = r.u32le();
        if (floats % 3 != 0 || floatSize != 4)
            r.failAt(floatsAt,
                     "hull of " + std::to_string(floats) + " floats of " + std::to_string(floatSize) + " bytes");
        r.requireArray(floats, 4, "hull positions");
        const auto base = static_cast<std::uint32_t>(mesh.positions.size());
        for (std::uint32_t i = 0; i < floats / 3; ++i) mesh.positions.push_back(ReadVector(r));
        const std::uint32_t m = r.u32le();
        r.requireArray(m, 4, "hull indices");
        std::vector<std::uint32_t> local(m);
        for (std::uint32_t &i : local) i = r.u32le();
        CheckIndices(r, local, floats / 3, "hull");
        for (std::uint32_t i : local) mesh.indices.push_back(base + i);
    }
    CheckPositions(r, mesh.positions);
    if (mesh.indices.empty()) return std::nullopt;
    return mesh;
}

} // namespace gamefmt::rbx
