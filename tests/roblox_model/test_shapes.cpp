// Generated part geometry against docs/formats/roblox-model.md §5.2: the box, wedge and corner-wedge corner and
// triangle tables typed in from the reference, radii of round shapes (min() rules), outward winding, flat and
// smooth normals, face quads for decals and textures.
#include "importers/roblox_model/geometry/shapes.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <vector>

namespace gamefmt::rbx {
namespace {

Vector3 Sub(const Vector3 &a, const Vector3 &b) {
    return {a.x - b.x, a.y - b.y, a.z - b.z};
}
Vector3 Cross(const Vector3 &a, const Vector3 &b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
float Dot(const Vector3 &a, const Vector3 &b) {
    return a.x * b.x + a.y * b.y + a.z * b.z;
}
Vector3 Unit(const Vector3 &v) {
    const float l = std::sqrt(Dot(v, v));
    return {v.x / l, v.y / l, v.z / l};
}

void ExpectVec(const Vector3 &got, const Vector3 &want, const std::string &what, float tol = 1e-6f) {
    EXPECT_NEAR(got.x, want.x, tol) << what;
    EXPECT_NEAR(got.y, want.y, tol) << what;
    EXPECT_NEAR(got.z, want.z, tol) << what;
}

ShapeMesh Build(ShapeKind kind, const Vector3 &size, const Vector3 &offset = {}, unsigned segments = 24) {
    ShapeMesh m;
    BuildShape(kind, size, offset, segments, m);
    return m;
}

// A corner table: the reference's vertex list with ±1 per axis, scaled by half the size.
struct Table {
    std::vector<std::array<float, 3>> corners;
    std::vector<std::array<int, 3>> triangles; // in the reference's order
    std::vector<Vector3> faceNormals;          // one per triangle, unnormalised
};

Vector3 Corner(const Table &t, int i, const Vector3 &size) {
    return {t.corners[i][0] * size.x / 2, t.corners[i][1] * size.y / 2, t.corners[i][2] * size.z / 2};
}

// Every triangle of `m`, in order, has exactly the table triangle's corner positions (in the same rotation)
// and flat normals along its face normal.
void ExpectTable(const ShapeMesh &m, const Table &t, const Vector3 &size) {
    ASSERT_EQ(m.indices.size(), t.triangles.size() * 3);
    for (std::size_t k = 0; k < t.triangles.size(); ++k) {
        const Vector3 normal = Unit(t.faceNormals[k]);
        for (int c = 0; c < 3; ++c) {
            const std::uint32_t v = m.indices[3 * k + c];
            const std::string what = "triangle " + std::to_string(k) + " corner " + std::to_string(c);
            ExpectVec(m.positions[v], Corner(t, t.triangles[k][c], size), what);
            ExpectVec(m.normals[v], normal, what + " normal");
        }
    }
}

TEST(RbxShapes, BoxIsTheReferenceTable) {
    // §5.2 Box, faces in NormalId order (+X, +Y, +Z, -X, -Y, -Z).
    const Table box{
        {{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {-1, 1, -1}, {-1, -1, 1}, {1, -1, 1}, {1, 1, 1}, {-1, 1, 1}},
        {{1, 2, 6},
         {1, 6, 5},
         {3, 7, 6},
         {3, 6, 2},
         {4, 5, 6},
         {4, 6, 7},
         {0, 4, 7},
         {0, 7, 3},
         {0, 1, 5},
         {0, 5, 4},
         {0, 3, 2},
         {0, 2, 1}},
        {{1, 0, 0},
         {1, 0, 0},
         {0, 1, 0},
         {0, 1, 0},
         {0, 0, 1},
         {0, 0, 1},
         {-1, 0, 0},
         {-1, 0, 0},
         {0, -1, 0},
         {0, -1, 0},
         {0, 0, -1},
         {0, 0, -1}}};
    const Vector3 size{4, 1.2f, 2};
    const ShapeMesh m = Build(ShapeKind::Box, size);
    EXPECT_EQ(m.positions.size(), 24u); // flat normals: four corners per face
    ExpectTable(m, box, size);
}

TEST(RbxShapes, WedgeIsTheReferenceTable) {
    const Vector3 size{4, 2, 6};
    // Slope normal ∝ (0, Z, -Y) = (0, 6, -2).
    const Table wedge{{{-1, -1, -1}, {1, -1, -1}, {1, -1, 1}, {-1, -1, 1}, {-1, 1, 1}, {1, 1, 1}},
                      {{0, 1, 2}, {0, 2, 3}, {3, 2, 5}, {3, 5, 4}, {1, 5, 2}, {0, 3, 4}, {0, 4, 5}, {0, 5, 1}},
                      {{0, -1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, 1}, {1, 0, 0}, {-1, 0, 0}, {0, 6, -2}, {0, 6, -2}}};
    const ShapeMesh m = Build(ShapeKind::Wedge, size);
    EXPECT_EQ(m.positions.size(), 18u);
    ExpectTable(m, wedge, size);
}

TEST(RbxShapes, CornerWedgeIsTheReferenceTable) {
    const Vector3 size{4, 2, 6};
    // Back slope ∝ (0, Z, Y) = (0, 6, 2); left slope ∝ (-Y, X, 0) = (-2, 4, 0).
    const Table corner{{{-1, -1, -1}, {1, -1, -1}, {1, -1, 1}, {-1, -1, 1}, {1, 1, -1}},
                       {{0, 1, 2}, {0, 2, 3}, {1, 4, 2}, {0, 4, 1}, {4, 3, 2}, {4, 0, 3}},
                       {{0, -1, 0}, {0, -1, 0}, {1, 0, 0}, {0, 0, -1}, {0, 6, 2}, {-2, 4, 0}}};
    const ShapeMesh m = Build(ShapeKind::CornerWedge, size);
    EXPECT_EQ(m.positions.size(), 16u);
    ExpectTable(m, corner, size);
}

// Every triangle faces away from the shape's centre, every vertex is used, normals have length 1 and agree
// with their triangles.
void ExpectClosedAndOutward(const ShapeMesh &m, const Vector3 &centre, const std::string &what) {
    std::set<std::uint32_t> used(m.indices.begin(), m.indices.end());
    EXPECT_EQ(used.size(), m.positions.size()) << what << ": unreferenced vertices";
    EXPECT_EQ(m.normals.size(), m.positions.size());
    EXPECT_EQ(m.uvs.size(), m.positions.size());
    for (std::size_t k = 0; k + 2 < m.indices.size(); k += 3) {
        const Vector3 &a = m.positions[m.indices[k]], &b = m.positions[m.indices[k + 1]],
                      &c = m.positions[m.indices[k + 2]];
        const Vector3 n = Cross(Sub(b, a), Sub(c, a));
        const Vector3 mid{(a.x + b.x + c.x) / 3, (a.y + b.y + c.y) / 3, (a.z + b.z + c.z) / 3};
        EXPECT_GT(Dot(n, Sub(mid, centre)), 0.0f) << what << ": triangle " << k / 3 << " faces inwards";
        for (int i = 0; i < 3; ++i) EXPECT_GT(Dot(n, m.normals[m.indices[k + i]]), 0.0f) << what << " " << k / 3;
    }
    for (const Vector3 &n : m.normals) EXPECT_NEAR(Dot(n, n), 1.0f, 1e-5f) << what;
}

TEST(RbxShapes, EveryShapeIsClosedOutwardAndOffset) {
    const Vector3 offset{1, -2, 0.5f};
    for (ShapeKind kind : {ShapeKind::Box, ShapeKind::Wedge, ShapeKind::CornerWedge, ShapeKind::CylinderX,
                           ShapeKind::CylinderY, ShapeKind::Sphere, ShapeKind::Ellipsoid}) {
        const ShapeMesh m = Build(kind, {4, 2, 3}, offset, 12);
        // The wedges' centroids are not their boxes' centres, but still inside them.
        Vector3 centre = offset;
        if (kind == ShapeKind::Wedge) centre = {offset.x, offset.y - 0.3f, offset.z + 0.3f};
        if (kind == ShapeKind::CornerWedge) centre = {offset.x + 0.5f, offset.y - 0.5f, offset.z - 0.3f};
        ExpectClosedAndOutward(m, centre, ShapeName(kind));
    }
}

TEST(RbxShapes, CylinderAlongXHasDiameterMinYZ) {
    // Part shape Cylinder: length X = 4, diameter min(2, 3) = 2.
    const ShapeMesh m = Build(ShapeKind::CylinderX, {4, 2, 3}, {}, 24);
    EXPECT_EQ(m.indices.size() / 3, 24u * 2 + 24u * 2); // side quads + two caps
    for (std::size_t i = 0; i < m.positions.size(); ++i) {
        const Vector3 &p = m.positions[i];
        EXPECT_NEAR(std::fabs(p.x), 2.0f, 1e-6f) << i;
        const float r2 = p.y * p.y + p.z * p.z;
        const bool centre = r2 < 1e-12f;
        if (!centre) {
            EXPECT_NEAR(r2, 1.0f, 1e-5f) << i;
        }
    }
}

TEST(RbxShapes, CylinderAlongYHasDiameterMinXZ) {
    // CylinderMesh: height Y = 4, diameter min(2, 3) = 2.
    const ShapeMesh m = Build(ShapeKind::CylinderY, {2, 4, 3}, {}, 16);
    for (const Vector3 &p : m.positions) {
        EXPECT_NEAR(std::fabs(p.y), 2.0f, 1e-6f);
        const float r2 = p.x * p.x + p.z * p.z;
        if (r2 > 1e-12f) {
            EXPECT_NEAR(r2, 1.0f, 1e-5f);
        }
    }
}

TEST(RbxShapes, BallHasDiameterMinXYZAndEllipsoidHasHalfSize) {
    const ShapeMesh ball = Build(ShapeKind::Sphere, {3, 4, 5}, {}, 24);
    for (const Vector3 &p : ball.positions) EXPECT_NEAR(std::sqrt(Dot(p, p)), 1.5f, 1e-5f);
    // 12 rings: 24 top-pole triangles, 10 bands of 48, 24 bottom-pole triangles.
    EXPECT_EQ(ball.indices.size() / 3, 24u + 10u * 48u + 24u);

    const Vector3 offset{0, 1, 0};
    const ShapeMesh e = Build(ShapeKind::Ellipsoid, {2, 4, 2}, offset, 16);
    float minY = 1e9f, maxY = -1e9f;
    for (const Vector3 &p : e.positions) {
        const float x = p.x / 1, y = (p.y - 1) / 2, z = p.z / 1;
        EXPECT_NEAR(x * x + y * y + z * z, 1.0f, 1e-5f);
        minY = std::min(minY, p.y);
        maxY = std::max(maxY, p.y);
    }
    EXPECT_FLOAT_EQ(minY, -1.0f);
    EXPECT_FLOAT_EQ(maxY, 3.0f);
}

TEST(RbxShapes, SegmentsAreClamped) {
    EXPECT_EQ(Build(ShapeKind::CylinderX, {1, 1, 1}, {}, 0).indices.size() / 3, 3u * 4); // 3 segments
    EXPECT_EQ(Build(ShapeKind::CylinderX, {1, 1, 1}, {}, 100000).indices.size() / 3, 256u * 4);
}

TEST(RbxShapes, FlatShapesStayFinite) {
    // A part of size 0 along an axis (Studio allows 0.001, files allow anything): finite normals.
    for (ShapeKind kind : {ShapeKind::Box, ShapeKind::Wedge, ShapeKind::CornerWedge}) {
        const ShapeMesh m = Build(kind, {4, 0, 2});
        for (const Vector3 &n : m.normals) {
            EXPECT_TRUE(std::isfinite(n.x) && std::isfinite(n.y) && std::isfinite(n.z)) << ShapeName(kind);
            EXPECT_NEAR(Dot(n, n), 1.0f, 1e-5f) << ShapeName(kind);
        }
    }
}

TEST(RbxShapes, FaceNormalsFollowNormalId) {
    ExpectVec(FaceNormal(NormalId::Right), {1, 0, 0}, "Right");
    ExpectVec(FaceNormal(NormalId::Top), {0, 1, 0}, "Top");
    ExpectVec(FaceNormal(NormalId::Back), {0, 0, 1}, "Back");
    ExpectVec(FaceNormal(NormalId::Left), {-1, 0, 0}, "Left");
    ExpectVec(FaceNormal(NormalId::Bottom), {0, -1, 0}, "Bottom");
    ExpectVec(FaceNormal(NormalId::Front), {0, 0, -1}, "Front");
}

// The UV of the quad vertex at `p` (within 1e-4).
Vector2 UvAt(const ShapeMesh &m, const Vector3 &p) {
    for (std::size_t i = 0; i < m.positions.size(); ++i)
        if (std::fabs(m.positions[i].x - p.x) < 1e-4f && std::fabs(m.positions[i].y - p.y) < 1e-4f &&
            std::fabs(m.positions[i].z - p.z) < 1e-4f)
            return m.uvs[i];
    ADD_FAILURE() << "no vertex at " << p.x << " " << p.y << " " << p.z;
    return {};
}

TEST(RbxShapes, DecalStretchesOverTheFrontFace) {
    // Front = -Z; seen from outside, image up is +Y and the viewer's right is -X: the top-left corner is
    // (+hx, +hy). Lifted 0.001 studs out.
    ShapeMesh m;
    BuildFaceQuad(NormalId::Front, {4, 1, 2}, {}, 0.001f, FaceMapping{}, m);
    ASSERT_EQ(m.positions.size(), 4u);
    ASSERT_EQ(m.indices.size(), 6u);
    for (const Vector3 &p : m.positions) EXPECT_FLOAT_EQ(p.z, -1.001f);
    for (const Vector3 &n : m.normals) ExpectVec(n, {0, 0, -1}, "normal");
    const Vector2 topLeft = UvAt(m, {2, 0.5f, -1.001f}), bottomRight = UvAt(m, {-2, -0.5f, -1.001f});
    EXPECT_FLOAT_EQ(topLeft.x, 0);
    EXPECT_FLOAT_EQ(topLeft.y, 1); // Assimp's v: 1 at the top of the image
    EXPECT_FLOAT_EQ(bottomRight.x, 1);
    EXPECT_FLOAT_EQ(bottomRight.y, 0);
    ExpectClosedAndOutward(m, {0, 0, 0}, "front quad");
}

TEST(RbxShapes, TextureTilesInStudsOnTheTopFace) {
    // Top: image up is -Z, right is +X, so the top-left corner is (-hx, -hz). 8-stud tiles, offset 2 × 4 studs.
    FaceMapping tiles;
    tiles.tiled = true;
    tiles.tileU = 8;
    tiles.tileV = 8;
    tiles.offsetU = 2;
    tiles.offsetV = 4;
    ShapeMesh m;
    BuildFaceQuad(NormalId::Top, {96, 2, 64}, {0, 0, 0}, 0.001f, tiles, m);
    const Vector2 topLeft = UvAt(m, {-48, 1.001f, -32}), bottomRight = UvAt(m, {48, 1.001f, 32});
    EXPECT_FLOAT_EQ(topLeft.x, 2.0f / 8);
    EXPECT_FLOAT_EQ(topLeft.y, 1 - 4.0f / 8);
    EXPECT_FLOAT_EQ(bottomRight.x, (96 + 2.0f) / 8);
    EXPECT_FLOAT_EQ(bottomRight.y, 1 - (64 + 4.0f) / 8);
}

} // namespace
} // namespace gamefmt::rbx
