// Generated part geometry (docs/formats/roblox-model.md §5.2). The box, wedge and corner wedge corners and
// faces are the reference's tables, each face a fan from its first corner, so the triangles are exactly the
// tables' triangles.
#include "importers/roblox_model/geometry/shapes.hpp"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace gamefmt::rbx {
namespace {

constexpr float kPi = 3.14159265358979323846f;

Vector3 Add(const Vector3 &a, const Vector3 &b) {
    return {a.x + b.x, a.y + b.y, a.z + b.z};
}
Vector3 Sub(const Vector3 &a, const Vector3 &b) {
    return {a.x - b.x, a.y - b.y, a.z - b.z};
}
Vector3 Scale(const Vector3 &a, float s) {
    return {a.x * s, a.y * s, a.z * s};
}
float Dot(const Vector3 &a, const Vector3 &b) {
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
Vector3 Cross(const Vector3 &a, const Vector3 &b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
// `v` scaled to length 1, or `fallback` when `v` is (nearly) zero or not finite.
Vector3 Normalized(const Vector3 &v, const Vector3 &fallback) {
    const float len = std::sqrt(Dot(v, v));
    if (!(len > 1e-20f) || !std::isfinite(len)) return fallback;
    return Scale(v, 1.0f / len);
}

// A planar face of a corner table: the corner indices in order (counter-clockwise from outside) and the
// direction its normal has when the shape is not flattened.
struct TableFace {
    std::uint8_t count;
    std::uint8_t corners[4];
    Vector3 nominal;
};

constexpr float kHalfRoot2 = 0.70710678f;

// §5.2 Box: v0(-,-,-) v1(+,-,-) v2(+,+,-) v3(-,+,-) v4(-,-,+) v5(+,-,+) v6(+,+,+) v7(-,+,+).
constexpr float kBoxCorners[8][3] = {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1},
                                     {-1, -1, 1},  {1, -1, 1},  {1, 1, 1},  {-1, 1, 1}};
// Indexed by NormalId: Right +X, Top +Y, Back +Z, Left -X, Bottom -Y, Front -Z.
constexpr TableFace kBoxFaces[6] = {
    {4, {1, 2, 6, 5}, {1, 0, 0}},  {4, {3, 7, 6, 2}, {0, 1, 0}},  {4, {4, 5, 6, 7}, {0, 0, 1}},
    {4, {0, 4, 7, 3}, {-1, 0, 0}}, {4, {0, 1, 5, 4}, {0, -1, 0}}, {4, {0, 3, 2, 1}, {0, 0, -1}},
};

// §5.2 Wedge: v0(-,-,-) v1(+,-,-) v2(+,-,+) v3(-,-,+) v4(-,+,+) v5(+,+,+).
constexpr float kWedgeCorners[6][3] = {{-1, -1, -1}, {1, -1, -1}, {1, -1, 1}, {-1, -1, 1}, {-1, 1, 1}, {1, 1, 1}};
constexpr TableFace kWedgeFaces[5] = {
    {4, {0, 1, 2, 3}, {0, -1, 0}},                   // bottom
    {4, {3, 2, 5, 4}, {0, 0, 1}},                    // back
    {3, {1, 5, 2, 0}, {1, 0, 0}},                    // right
    {3, {0, 3, 4, 0}, {-1, 0, 0}},                   // left
    {4, {0, 4, 5, 1}, {0, kHalfRoot2, -kHalfRoot2}}, // slope ∝ (0, Z, -Y)
};

// §5.2 CornerWedge: v0(-,-,-) v1(+,-,-) v2(+,-,+) v3(-,-,+), apex v4(+,+,-).
constexpr float kCornerCorners[5][3] = {{-1, -1, -1}, {1, -1, -1}, {1, -1, 1}, {-1, -1, 1}, {1, 1, -1}};
constexpr TableFace kCornerFaces[5] = {
    {4, {0, 1, 2, 3}, {0, -1, 0}},                   // bottom
    {3, {1, 4, 2, 0}, {1, 0, 0}},                    // right
    {3, {0, 4, 1, 0}, {0, 0, -1}},                   // front
    {3, {4, 3, 2, 0}, {0, kHalfRoot2, kHalfRoot2}},  // back slope ∝ (0, Z, Y)
    {3, {4, 0, 3, 0}, {-kHalfRoot2, kHalfRoot2, 0}}, // left slope ∝ (-Y, X, 0)
};

// The face's UV frame: up = +Y on side faces, -Z on top and bottom; right = up × normal.
void FaceFrame(const Vector3 &normal, Vector3 &right, Vector3 &up) {
    if (std::fabs(normal.y) > 0.999f) {
        up = {0, 0, -1};
    } else {
        up = Normalized(Sub(Vector3{0, 1, 0}, Scale(normal, normal.y)), Vector3{0, 1, 0});
    }
    right = Normalized(Cross(up, normal), Vector3{1, 0, 0});
}

float Ratio(float value, float lo, float hi) {
    return hi - lo > 0 ? (value - lo) / (hi - lo) : 0.0f;
}

// Appends a planar polygon (a fan from its first corner) with a flat normal and 0..1 UVs over its extent.
void AddPlanarFace(const Vector3 *corners, std::size_t count, const Vector3 &nominal, ShapeMesh &out) {
    Vector3 area{0, 0, 0}; // Newell's normal: the polygon's area vector
    for (std::size_t i = 0; i < count; ++i) area = Add(area, Cross(corners[i], corners[(i + 1) % count]));
    const Vector3 normal = Normalized(area, nominal);
    Vector3 right, up;
    FaceFrame(normal, right, up);
    float minR = INFINITY, maxR = -INFINITY, minU = INFINITY, maxU = -INFINITY;
    for (std::size_t i = 0; i < count; ++i) {
        const float r = Dot(corners[i], right), u = Dot(corners[i], up);
        minR = std::min(minR, r);
        maxR = std::max(maxR, r);
        minU = std::min(minU, u);
        maxU = std::max(maxU, u);
    }
    const auto base = static_cast<std::uint32_t>(out.positions.size());
    for (std::size_t i = 0; i < count; ++i) {
        out.positions.push_back(corners[i]);
        out.normals.push_back(normal);
        out.uvs.push_back({Ratio(Dot(corners[i], right), minR, maxR), Ratio(Dot(corners[i], up), minU, maxU)});
    }
    for (std::uint32_t i = 1; i + 1 < count; ++i) out.indices.insert(out.indices.end(), {base, base + i, base + i + 1});
}

template <std::size_t Corners, std::size_t Faces>
void BuildTable(const float (&corners)[Corners][3], const TableFace (&faces)[Faces], const Vector3 &half,
                const Vector3 &offset, ShapeMesh &out) {
    Vector3 v[Corners];
    for (std::size_t i = 0; i < Corners; ++i)
        v[i] = {corners[i][0] * half.x + offset.x, corners[i][1] * half.y + offset.y,
                corners[i][2] * half.z + offset.z};
    for (const TableFace &f : faces) {
        Vector3 polygon[4];
        for (std::size_t i = 0; i < f.count; ++i) polygon[i] = v[f.corners[i]];
        AddPlanarFace(polygon, f.count, f.nominal, out);
    }
}

// A cylinder of `radius` around the axis `axis` (0 = X, 1 = Y), `length` long, centred on `offset`: a smooth
// side (u around, v along the axis) and two flat caps.
void BuildCylinder(int axis, float radius, float length, const Vector3 &offset, unsigned segments, ShapeMesh &out) {
    // The ring point at angle θ: X cylinder (x, r cos θ, r sin θ); Y cylinder (r cos θ, y, r sin θ).
    const auto point = [&](float along, float c, float s) {
        return axis == 0 ? Vector3{along + offset.x, radius * c + offset.y, radius * s + offset.z}
                         : Vector3{radius * c + offset.x, along + offset.y, radius * s + offset.z};
    };
    const auto radial = [&](float c, float s) { return axis == 0 ? Vector3{0, c, s} : Vector3{c, 0, s}; };
    const float half = length / 2;
    const auto base = static_cast<std::uint32_t>(out.positions.size());
    for (unsigned k = 0; k <= segments; ++k) {
        const float theta = 2 * kPi * static_cast<float>(k % segments) / static_cast<float>(segments);
        const float c = std::cos(theta), s = std::sin(theta);
        for (int end = 0; end < 2; ++end) {
            out.positions.push_back(point(end == 0 ? -half : half, c, s));
            out.normals.push_back(radial(c, s));
            out.uvs.push_back({static_cast<float>(k) / static_cast<float>(segments), static_cast<float>(end)});
        }
    }
    // Quad k: a = (k, -), b = (k+1, -), c = (k+1, +), d = (k, +). Outward is ∂θ × ∂axis for X and ∂axis × ∂θ
    // for Y (the ring turns the other way round its axis).
    for (unsigned k = 0; k < segments; ++k) {
        const std::uint32_t a = base + 2 * k, b = a + 2, c = a + 3, d = a + 1;
        if (axis == 0)
            out.indices.insert(out.indices.end(), {a, b, d, b, c, d});
        else
            out.indices.insert(out.indices.end(), {a, d, b, b, d, c});
    }
    for (int end = 0; end < 2; ++end) {
        const float sign = end == 0 ? -1.0f : 1.0f;
        const Vector3 normal = axis == 0 ? Vector3{sign, 0, 0} : Vector3{0, sign, 0};
        const auto centre = static_cast<std::uint32_t>(out.positions.size());
        out.positions.push_back(point(sign * half, 0, 0));
        out.normals.push_back(normal);
        out.uvs.push_back({0.5f, 0.5f});
        for (unsigned k = 0; k < segments; ++k) {
            const float theta = 2 * kPi * static_cast<float>(k) / static_cast<float>(segments);
            const float c = std::cos(theta), s = std::sin(theta);
            out.positions.push_back(point(sign * half, c, s));
            out.normals.push_back(normal);
            out.uvs.push_back({0.5f + 0.5f * c, 0.5f + 0.5f * s});
        }
        // (centre, k, k+1) faces +X at the X cylinder's far cap and -Y at the Y cylinder's near one.
        const bool forward = (axis == 0) == (end == 1);
        for (unsigned k = 0; k < segments; ++k) {
            const std::uint32_t p = centre + 1 + k, q = centre + 1 + (k + 1) % segments;
            if (forward)
                out.indices.insert(out.indices.end(), {centre, p, q});
            else
                out.indices.insert(out.indices.end(), {centre, q, p});
        }
    }
}

// An ellipsoid with semi-axes `radii`: `rings` bands from the top pole (+Y) down, `segments` around; normals
// are the surface's (x/a², y/b², z/c²), UVs u around, v from 1 at the top to 0 at the bottom. The inner rings
// have segments + 1 vertices (the seam twice, for the UVs); each pole has one vertex per segment, at the
// segment's middle u, so every vertex is used.
void BuildEllipsoid(const Vector3 &radii, const Vector3 &offset, unsigned segments, unsigned rings, ShapeMesh &out) {
    const auto base = static_cast<std::uint32_t>(out.positions.size());
    const auto inv = [](float r) { return r != 0 ? 1.0f / (r * r) : 0.0f; };
    const auto vertex = [&](float phi, float theta, float u, float v, bool pole) {
        const float sp = pole ? 0.0f : std::sin(phi), cp = pole ? (phi < 1 ? 1.0f : -1.0f) : std::cos(phi);
        const Vector3 unit{sp * std::cos(theta), cp, sp * std::sin(theta)};
        const Vector3 p{unit.x * radii.x, unit.y * radii.y, unit.z * radii.z};
        out.positions.push_back(Add(p, offset));
        out.normals.push_back(Normalized({p.x * inv(radii.x), p.y * inv(radii.y), p.z * inv(radii.z)}, unit));
        out.uvs.push_back({u, v});
    };
    const float n = static_cast<float>(segments), r = static_cast<float>(rings);
    for (unsigned j = 0; j <= rings; ++j) {
        const float phi = kPi * static_cast<float>(j) / r, v = 1.0f - static_cast<float>(j) / r;
        const bool pole = j == 0 || j == rings;
        for (unsigned k = 0; k < (pole ? segments : segments + 1); ++k) {
            const float u = (static_cast<float>(k) + (pole ? 0.5f : 0.0f)) / n;
            vertex(phi, 2 * kPi * static_cast<float>(k % segments) / n, u, v, pole);
        }
    }
    // Row j starts after the top pole's `segments` vertices and j - 1 rings of segments + 1.
    const auto rowStart = [&](unsigned j) { return j == 0 ? base : base + segments + (j - 1) * (segments + 1); };
    // Quad (j, k): a = (j, k), b = (j, k+1), c = (j+1, k+1), d = (j+1, k); outward is ∂θ × ∂φ, so (a, b, d)
    // and (b, c, d). At the top pole a and b are one vertex: (a, c, d); at the bottom c and d are: (a, b, d).
    for (unsigned j = 0; j < rings; ++j) {
        for (unsigned k = 0; k < segments; ++k) {
            const std::uint32_t a = rowStart(j) + k, d = rowStart(j + 1) + k;
            if (j == 0) {
                out.indices.insert(out.indices.end(), {a, d + 1, d});
            } else if (j + 1 == rings) {
                out.indices.insert(out.indices.end(), {a, a + 1, d});
            } else {
                out.indices.insert(out.indices.end(), {a, a + 1, d, a + 1, d + 1, d});
            }
        }
    }
}

} // namespace

const char *ShapeName(ShapeKind kind) {
    switch (kind) {
    case ShapeKind::Box:
        return "box";
    case ShapeKind::Wedge:
        return "wedge";
    case ShapeKind::CornerWedge:
        return "cornerwedge";
    case ShapeKind::CylinderX:
        return "cylinderX";
    case ShapeKind::CylinderY:
        return "cylinderY";
    case ShapeKind::Sphere:
        return "sphere";
    case ShapeKind::Ellipsoid:
        return "ellipsoid";
    }
    return "box";
}

Vector3 FaceNormal(NormalId face) {
    const TableFace &f = kBoxFaces[static_cast<std::size_t>(face) % 6];
    return f.nominal;
}

void BuildShape(ShapeKind kind, const Vector3 &size, const Vector3 &offset, unsigned segments, ShapeMesh &out) {
    segments = std::clamp(segments, 3u, 256u);
    const Vector3 half{size.x / 2, size.y / 2, size.z / 2};
    switch (kind) {
    case ShapeKind::Box:
        BuildTable(kBoxCorners, kBoxFaces, half, offset, out);
        return;
    case ShapeKind::Wedge:
        BuildTable(kWedgeCorners, kWedgeFaces, half, offset, out);
        return;
    case ShapeKind::CornerWedge:
        BuildTable(kCornerCorners, kCornerFaces, half, offset, out);
        return;
    case ShapeKind::CylinderX:
        BuildCylinder(0, std::min(size.y, size.z) / 2, size.x, offset, segments, out);
        return;
    case ShapeKind::CylinderY:
        BuildCylinder(1, std::min(size.x, size.z) / 2, size.y, offset, segments, out);
        return;
    case ShapeKind::Sphere: {
        const float r = std::min({size.x, size.y, size.z}) / 2;
        BuildEllipsoid({r, r, r}, offset, segments, std::max(2u, segments / 2), out);
        return;
    }
    case ShapeKind::Ellipsoid:
        BuildEllipsoid(half, offset, segments, std::max(2u, segments / 2), out);
        return;
    }
}

void BuildFaceQuad(NormalId face, const Vector3 &size, const Vector3 &offset, float lift, const FaceMapping &mapping,
                   ShapeMesh &out) {
    const TableFace &f = kBoxFaces[static_cast<std::size_t>(face) % 6];
    const Vector3 half{size.x / 2, size.y / 2, size.z / 2};
    const Vector3 normal = f.nominal;
    Vector3 right, up;
    FaceFrame(normal, right, up);
    Vector3 corners[4];
    float minR = INFINITY, maxR = -INFINITY, minU = INFINITY, maxU = -INFINITY;
    for (std::size_t i = 0; i < 4; ++i) {
        const float *c = kBoxCorners[f.corners[i]];
        corners[i] = Add(Vector3{c[0] * half.x + offset.x, c[1] * half.y + offset.y, c[2] * half.z + offset.z},
                         Scale(normal, lift));
        minR = std::min(minR, Dot(corners[i], right));
        maxR = std::max(maxR, Dot(corners[i], right));
        minU = std::min(minU, Dot(corners[i], up));
        maxU = std::max(maxU, Dot(corners[i], up));
    }
    const float width = maxR - minR, height = maxU - minU;
    const bool tiled = mapping.tiled && mapping.tileU > 0 && mapping.tileV > 0 && std::isfinite(mapping.tileU) &&
                       std::isfinite(mapping.tileV);
    const auto base = static_cast<std::uint32_t>(out.positions.size());
    for (const Vector3 &p : corners) {
        const float s = Dot(p, right) - minR, t = maxU - Dot(p, up); // studs from the top-left corner
        float u, vImage;
        if (tiled) {
            u = (s + mapping.offsetU) / mapping.tileU;
            vImage = (t + mapping.offsetV) / mapping.tileV;
        } else {
            u = width > 0 ? s / width : 0.0f;
            vImage = height > 0 ? t / height : 0.0f;
        }
        out.positions.push_back(p);
        out.normals.push_back(normal);
        out.uvs.push_back({u, 1.0f - vImage});
    }
    out.indices.insert(out.indices.end(), {base, base + 1, base + 2, base, base + 2, base + 3});
}

} // namespace gamefmt::rbx
