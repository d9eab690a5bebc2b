// Redguard model value codecs and derived per-corner data (docs/formats/redguard-3d.md §4-§7): base-40 texture names,
// solid colours, packed normals, face normals, radius, accumulated UVs and §6 corner shading.
#include "importers/redguard/model.hpp"

#include "common/bit_cast.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>

namespace gamefmt::redguard {

namespace {

// Position of vertex `index` as doubles; false when the index is out of range.
bool VertexAt(const std::vector<std::int32_t> &positions, std::uint32_t index, double out[3]) {
    const std::size_t i = static_cast<std::size_t>(index);
    if (i >= positions.size() / 3) return false;
    out[0] = positions[3 * i];
    out[1] = positions[3 * i + 1];
    out[2] = positions[3 * i + 2];
    return true;
}

void Cross(const double a[3], const double b[3], double out[3]) {
    out[0] = a[1] * b[2] - a[2] * b[1];
    out[1] = a[2] * b[0] - a[0] * b[2];
    out[2] = a[0] * b[1] - a[1] * b[0];
}

double Dot(const double a[3], const double b[3]) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}

std::array<float, 3> Normalised(double x, double y, double z) {
    const double len = std::sqrt(x * x + y * y + z * z);
    if (!(len > 0.0) || !std::isfinite(len)) return {0.0f, 0.0f, 0.0f};
    return {static_cast<float>(x / len), static_cast<float>(y / len), static_cast<float>(z / len)};
}

} // namespace

const char *VersionString(Version version) {
    switch (version) {
    case Version::V26:
        return "v2.6";
    case Version::V27:
        return "v2.7";
    case Version::V40:
        return "v4.0";
    case Version::V50:
        return "v5.0";
    }
    return "v?.?";
}

bool Face::operator==(const Face &o) const {
    return texHi == o.texHi && texture == o.texture && unused == o.unused && corners == o.corners;
}

bool Section4Group::operator==(const Section4Group &o) const {
    // The opaque floats compare bitwise: the model is lossless, and NaN must equal itself.
    return centre == o.centre && radius == o.radius && SameBits(opaque, o.opaque) && refs == o.refs;
}

bool RG3DModel::operator==(const RG3DModel &o) const {
    // Vertex normals compare bitwise so that the NaN "no normal" marker equals itself.
    return version == o.version && radius == o.radius && frameType == o.frameType && vertices == o.vertices &&
           faces == o.faces && faceNormals == o.faceNormals && SameBits(vertexNormals, o.vertexNormals) &&
           normalTable == o.normalTable && hasSection4 == o.hasSection4 && section4 == o.section4 &&
           frames == o.frames && v2Opaque == o.v2Opaque;
}

// ---------------------------------------------------------------- value codecs

TextureRef DecodeTexture(std::uint32_t value, Version version) {
    TextureRef ref;
    if (IsV2(version)) {
        if (value > 0xFFFFu) return ref; // a v2 value is a u16
        if ((value >> 7) < 2) {
            ref.kind = TextureRef::Kind::Solid;
            ref.colour = static_cast<std::uint8_t>(value & 0xFFu);
            return ref;
        }
        ref.kind = TextureRef::Kind::Texture;
        ref.bank = static_cast<std::uint16_t>(value >> 7);
        ref.image = static_cast<std::uint16_t>(value & 0x7Fu);
        return ref;
    }
    if ((value >> 20) == 0xFFFu) {
        ref.kind = TextureRef::Kind::Solid;
        ref.colour = static_cast<std::uint8_t>((value >> 8) & 0xFFu);
        ref.lowByte = static_cast<std::uint8_t>(value & 0xFFu);
        return ref;
    }
    constexpr std::uint32_t k40e6 = 40u * 40u * 40u * 40u * 40u * 40u; // 4 096 000 000
    if (value >= k40e6) return ref;
    unsigned d[6];
    std::uint32_t rest = value;
    for (unsigned &digit : d) {
        digit = rest % 40u;
        rest /= 40u;
    }
    // d[5] is the most significant digit: a letter a-f; the others decimal digits.
    if (d[5] < 10 || d[5] > 15) return ref;
    for (int i = 0; i < 5; ++i)
        if (d[i] > 9) return ref;
    ref.kind = TextureRef::Kind::Texture;
    ref.bank = static_cast<std::uint16_t>((d[5] - 10) * 100 + d[4] * 10 + d[3]);
    ref.image = static_cast<std::uint16_t>(d[2] * 100 + d[1] * 10 + d[0]);
    return ref;
}

std::optional<std::uint32_t> EncodeBase40(unsigned bank, unsigned image) {
    if (bank > 599 || image > 999) return std::nullopt;
    const unsigned digits[6] = {bank / 100 + 10, (bank / 10) % 10,  bank % 10,
                                image / 100,     (image / 10) % 10, image % 10};
    std::uint32_t raw = 0;
    for (unsigned digit : digits) raw = raw * 40u + digit;
    return raw;
}

std::uint32_t EncodeSolid(std::uint8_t colour, std::uint8_t lowByte) {
    return 0xFFF00000u | (static_cast<std::uint32_t>(colour) << 8) | lowByte;
}

Int3 UnpackNormal(std::uint32_t packed) {
    Int3 n{};
    for (int i = 0; i < 3; ++i) {
        const std::int32_t field = static_cast<std::int32_t>((packed >> (10 * i)) & 0x3FFu);
        n[static_cast<std::size_t>(i)] = field >= 512 ? field - 1024 : field;
    }
    return n;
}

std::uint32_t PackNormal(const Int3 &normal) {
    std::uint32_t packed = 0;
    for (int i = 0; i < 3; ++i) {
        const std::int32_t c = std::clamp<std::int32_t>(normal[static_cast<std::size_t>(i)], -512, 511);
        packed |= (static_cast<std::uint32_t>(c) & 0x3FFu) << (10 * i);
    }
    return packed;
}

Int3 ComputeFaceNormal(const std::vector<std::int32_t> &positions, const Face &face) {
    Int3 result{};
    const std::size_t n = face.corners.size();
    if (n < 3) return result;
    double c[3] = {0, 0, 0};
    double p0[3], p1[3], p2[3];
    if (!VertexAt(positions, face.corners[0].vertex, p0) || !VertexAt(positions, face.corners[1].vertex, p1) ||
        !VertexAt(positions, face.corners[2].vertex, p2))
        return result;
    const double e1[3] = {p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]};
    const double e2[3] = {p2[0] - p0[0], p2[1] - p0[1], p2[2] - p0[2]};
    Cross(e1, e2, c);
    if (c[0] == 0.0 && c[1] == 0.0 && c[2] == 0.0) {
        // Collinear first corners: the Newell normal of the whole polygon in the stored order.
        for (std::size_t i = 0; i < n; ++i) {
            double a[3], b[3];
            if (!VertexAt(positions, face.corners[i].vertex, a) ||
                !VertexAt(positions, face.corners[(i + 1) % n].vertex, b))
                return result;
            c[0] += (a[1] - b[1]) * (a[2] + b[2]);
            c[1] += (a[2] - b[2]) * (a[0] + b[0]);
            c[2] += (a[0] - b[0]) * (a[1] + b[1]);
        }
    }
    const double len = std::sqrt(Dot(c, c));
    if (!(len > 0.0) || !std::isfinite(len)) return result;
    for (int i = 0; i < 3; ++i)
        result[static_cast<std::size_t>(i)] = static_cast<std::int32_t>(std::trunc(256.0 * (c[i] / len)));
    return result;
}

std::uint32_t ComputeRadius(const std::vector<std::int32_t> &positions) {
    // Each square is at most 2^62, so the sum of three fits a u64 and its root fits a u32.
    std::uint64_t best = 0;
    for (std::size_t i = 0; i + 2 < positions.size(); i += 3) {
        std::uint64_t s = 0;
        for (std::size_t k = 0; k < 3; ++k) {
            const std::int64_t v = positions[i + k];
            s += static_cast<std::uint64_t>(v * v);
        }
        best = std::max(best, s);
    }
    std::uint64_t r = static_cast<std::uint64_t>(std::sqrt(static_cast<double>(best)));
    while (r > 0 && r * r > best) --r;
    while ((r + 1) * (r + 1) <= best) ++r;
    return static_cast<std::uint32_t>(r);
}

// ---------------------------------------------------------------- derived per-corner data

std::vector<std::array<double, 2>> CornerUVs(const RG3DModel &model) {
    std::vector<std::array<double, 2>> uvs;
    CornerUVs(model, uvs);
    return uvs;
}

void CornerUVs(const RG3DModel &model, std::vector<std::array<double, 2>> &uvs) {
    uvs.clear();
    std::size_t total = 0;
    for (const Face &f : model.faces) total += f.corners.size();
    uvs.reserve(total);
    const bool v2 = IsV2(model.version);
    for (const Face &face : model.faces) {
        const std::size_t first = uvs.size();
        std::int32_t u = 0, v = 0;
        for (const FaceVertex &c : face.corners) {
            u += c.du;
            v += c.dv;
            uvs.push_back({static_cast<double>(u), static_cast<double>(v)});
        }
        if (!v2 || face.corners.size() <= 3) continue;
        // v2.x: corners >= 3 hold unreliable UVs. Rebuild them from the affine map that takes corners 0-2
        // to their UVs, with each point projected into the plane of corners 0-2 (least squares in that plane).
        double p0[3], p1[3], p2[3];
        if (!VertexAt(model.vertices, face.corners[0].vertex, p0) ||
            !VertexAt(model.vertices, face.corners[1].vertex, p1) ||
            !VertexAt(model.vertices, face.corners[2].vertex, p2))
            continue;
        const double e1[3] = {p1[0] - p0[0], p1[1] - p0[1], p1[2] - p0[2]};
        const double e2[3] = {p2[0] - p0[0], p2[1] - p0[1], p2[2] - p0[2]};
        double cr[3];
        Cross(e1, e2, cr);
        if (cr[0] == 0.0 && cr[1] == 0.0 && cr[2] == 0.0) continue; // collinear: keep the stored values
        const double g11 = Dot(e1, e1), g12 = Dot(e1, e2), g22 = Dot(e2, e2);
        const double det = g11 * g22 - g12 * g12;
        if (!(det > 0.0) || !std::isfinite(det)) continue;
        const std::array<double, 2> uv0 = uvs[first], uv1 = uvs[first + 1], uv2 = uvs[first + 2];
        for (std::size_t k = 3; k < face.corners.size(); ++k) {
            double p[3];
            if (!VertexAt(model.vertices, face.corners[k].vertex, p)) continue;
            const double d[3] = {p[0] - p0[0], p[1] - p0[1], p[2] - p0[2]};
            const double r1 = Dot(d, e1), r2 = Dot(d, e2);
            const double a = (r1 * g22 - r2 * g12) / det;
            const double b = (r2 * g11 - r1 * g12) / det;
            uvs[first + k] = {uv0[0] + a * (uv1[0] - uv0[0]) + b * (uv2[0] - uv0[0]),
                              uv0[1] + a * (uv1[1] - uv0[1]) + b * (uv2[1] - uv0[1])};
        }
    }
}

std::vector<std::uint64_t> FaceRecordOffsets(const RG3DModel &model, std::uint64_t firstRecord) {
    std::vector<std::uint64_t> offsets(model.faces.size());
    const std::uint64_t headerBytes = IsV2(model.version) ? 8 : 10;
    std::uint64_t at = firstRecord;
    for (std::size_t f = 0; f < model.faces.size(); ++f) {
        offsets[f] = at;
        at += headerBytes + 8 * std::uint64_t(model.faces[f].corners.size());
    }
    return offsets;
}

namespace {

// The flat normal of a face: the stored face normal normalised, else one computed from the positions.
std::array<float, 3> FlatNormal(const RG3DModel &model, std::size_t fi) {
    std::array<float, 3> flat{0.0f, 0.0f, 0.0f};
    if (3 * fi + 2 < model.faceNormals.size())
        flat = Normalised(model.faceNormals[3 * fi], model.faceNormals[3 * fi + 1], model.faceNormals[3 * fi + 2]);
    if (flat[0] == 0.0f && flat[1] == 0.0f && flat[2] == 0.0f) {
        const Int3 c = ComputeFaceNormal(model.vertices, model.faces[fi]);
        flat = Normalised(c[0], c[1], c[2]);
    }
    return flat;
}

} // namespace

CornerShading ResolveCornerShading(const RG3DModel &model) {
    CornerShading out;
    ResolveCornerShading(model, out);
    return out;
}

void ResolveCornerShading(const RG3DModel &model, CornerShading &out) {
    const std::size_t entries = model.vertexNormals.size() / 3;
    out.entryNormals.assign(entries, std::array<float, 3>{});
    for (std::size_t e = 0; e < entries; ++e) {
        // §6 validity (every component finite, |‖n‖ − 1| ≤ 0.01), then the unit normal from the same length.
        const double x = model.vertexNormals[3 * e], y = model.vertexNormals[3 * e + 1],
                     z = model.vertexNormals[3 * e + 2];
        const double len = std::sqrt(x * x + y * y + z * z);
        if (!std::isfinite(x) || !std::isfinite(y) || !std::isfinite(z) || !(std::fabs(len - 1.0) <= 0.01)) continue;
        out.entryNormals[e] = {static_cast<float>(x / len), static_cast<float>(y / len), static_cast<float>(z / len)};
    }
    std::size_t total = 0;
    for (const Face &face : model.faces) total += face.corners.size();
    out.corners.resize(total);
    out.flatNormals.assign(model.faces.size(), std::array<float, 3>{}); // set only for faces with a flat corner
    const std::size_t nv = model.vertexCount();
    const bool hasTable = !model.normalTable.empty();
    const bool v2 = IsV2(model.version);
    std::size_t corner = 0;
    for (std::size_t fi = 0; fi < model.faces.size(); ++fi) {
        const std::vector<FaceVertex> &corners = model.faces[fi].corners;
        bool anyFlat = false;
        for (std::size_t c = 0; c < corners.size(); ++c, ++corner) {
            std::size_t entry = std::numeric_limits<std::size_t>::max();
            if (v2) {
                // v2.x carries no vertex normals (§6): every corner is flat.
            } else if (hasTable) {
                if (corner < model.normalTable.size() && model.normalTable[corner] != RG3DModel::kNoNormal)
                    entry = model.normalTable[corner];
            } else if (corners[c].vertex < nv) {
                entry = corners[c].vertex;
            }
            const bool smooth = entry < entries && out.entryNormals[entry] != std::array<float, 3>{};
            out.corners[corner] = {smooth ? static_cast<std::uint32_t>(entry) : static_cast<std::uint32_t>(fi), smooth};
            anyFlat = anyFlat || !smooth;
        }
        if (anyFlat) out.flatNormals[fi] = FlatNormal(model, fi);
    }
}

std::vector<CornerNormal> CornerNormals(const RG3DModel &model) {
    const CornerShading shading = ResolveCornerShading(model);
    std::vector<CornerNormal> out(shading.corners.size());
    for (std::size_t c = 0; c < out.size(); ++c)
        out[c] = {shading.normal(c), shading.corners[c].smooth, shading.corners[c].slot};
    return out;
}

} // namespace gamefmt::redguard
