// Tests of the Second Life avatar skeleton table and its transforms (docs/formats/sl-mesh.md §9, §15 "TSV") and of the
// qhull convex hulls (§6, §12, §15 "HullList ... hull triangles face outward").
#include "importers/sl_mesh/hull.hpp"
#include "importers/sl_mesh/skeleton.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace {

using namespace gamefmt;
using namespace gamefmt::slmesh;

int Index(const char *name) {
    const int i = FindAvatarJoint(name);
    EXPECT_GE(i, 0) << name;
    return i;
}

// ---------------------------------------------------------------- skeleton table

TEST(SlSkeleton, TableHas159JointsOf133BonesAnd26Volumes) {
    std::size_t bones = 0, volumes = 0, base = 0, extended = 0;
    for (std::size_t i = 0; i < kAvatarJointCount; ++i) {
        const AvatarJoint &j = kAvatarJoints[i];
        (j.kind == JointKind::Bone ? bones : volumes) += 1;
        if (j.kind == JointKind::Bone) (j.extended ? extended : base) += 1;
        // Parents first: every parent precedes its child; only mPelvis is a root.
        if (i == 0) {
            EXPECT_STREQ(j.name, "mPelvis");
            EXPECT_EQ(j.parent, -1);
        } else {
            EXPECT_GE(j.parent, 0) << j.name;
            EXPECT_LT(j.parent, static_cast<int>(i)) << j.name;
        }
    }
    EXPECT_EQ(kAvatarJointCount, 159u);
    EXPECT_EQ(bones, 133u);
    EXPECT_EQ(volumes, 26u);
    EXPECT_EQ(base, 26u);
    EXPECT_EQ(extended, 107u);
}

TEST(SlSkeleton, FindJointIsExactAndCaseSensitive) {
    EXPECT_EQ(FindAvatarJoint("mPelvis"), 0);
    EXPECT_GT(FindAvatarJoint("L_HAND"), 0);
    EXPECT_EQ(FindAvatarJoint("mpelvis"), -1);
    EXPECT_EQ(FindAvatarJoint(""), -1);
    EXPECT_EQ(FindAvatarJoint("mPelvis "), -1);
    for (std::size_t i = 0; i < kAvatarJointCount; ++i)
        EXPECT_EQ(FindAvatarJoint(kAvatarJoints[i].name), static_cast<int>(i)); // names are unique
}

TEST(SlSkeleton, WorldPositionsOfTheLegacyJoints) {
    const Vec3 pelvis = AvatarJointWorldMatrix(Index("mPelvis")).translation();
    EXPECT_FLOAT_EQ(pelvis.x, 0.0f);
    EXPECT_FLOAT_EQ(pelvis.y, 0.0f);
    EXPECT_FLOAT_EQ(pelvis.z, 1.067f);
    // The Bento spine cancels out: the legacy torso and chest heights are kept (§9).
    EXPECT_NEAR(AvatarJointWorldMatrix(Index("mTorso")).translation().z, 1.151f, 1e-6f);
    EXPECT_NEAR(AvatarJointWorldMatrix(Index("mChest")).translation().z, 1.356f, 1e-6f);
    EXPECT_NEAR(AvatarJointWorldMatrix(Index("mChest")).translation().x, -0.015f, 1e-6f);
    EXPECT_NEAR(AvatarJointWorldMatrix(Index("mHead")).translation().z, 1.683f, 1e-5f);
    const Vec3 toe = AvatarJointWorldMatrix(Index("mToeLeft")).translation();
    EXPECT_NEAR(toe.z, 0.006f, 0.01f);
}

TEST(SlSkeleton, BoneLocalIsAPureTranslation) {
    const Mat4 m = AvatarJointLocalMatrix(Index("mTorso"));
    Mat4 expected = Mat4::FromTranslation(Vec3(0, 0, 0.084f));
    EXPECT_EQ(m, expected);
}

// An independent Rz·Ry·Rx: rotate a point about X first, then Y, then Z (column vectors).
Vec3 RotateXyz(Vec3 p, double rxDeg, double ryDeg, double rzDeg) {
    const double k = 3.14159265358979323846 / 180.0;
    const double ax = rxDeg * k, ay = ryDeg * k, az = rzDeg * k;
    double x = p.x, y = p.y, z = p.z;
    double y1 = y * std::cos(ax) - z * std::sin(ax), z1 = y * std::sin(ax) + z * std::cos(ax);
    y = y1;
    z = z1;
    double x2 = x * std::cos(ay) + z * std::sin(ay), z2 = -x * std::sin(ay) + z * std::cos(ay);
    x = x2;
    z = z2;
    double x3 = x * std::cos(az) - y * std::sin(az), y3 = x * std::sin(az) + y * std::cos(az);
    return Vec3(static_cast<float>(x3), static_cast<float>(y3), static_cast<float>(z));
}

TEST(SlSkeleton, VolumeWithRotationUsesRzRyRxThenScale) {
    const int hand = Index("L_HAND");
    const AvatarJoint &j = kAvatarJoints[hand];
    ASSERT_EQ(j.kind, JointKind::Collision);
    EXPECT_FLOAT_EQ(j.rot[0], -3.0f);
    EXPECT_FLOAT_EQ(j.rot[2], -10.0f);
    const Mat4 local = AvatarJointLocalMatrix(hand);
    // Columns of the local matrix = images of the unit axes: R(S e_i) + T.
    const Vec3 scale(j.scale[0], j.scale[1], j.scale[2]);
    const Vec3 axes[3] = {Vec3(scale.x, 0, 0), Vec3(0, scale.y, 0), Vec3(0, 0, scale.z)};
    for (int c = 0; c < 3; ++c) {
        const Vec3 expected = RotateXyz(axes[c], j.rot[0], j.rot[1], j.rot[2]);
        EXPECT_NEAR(local.m[0][c], expected.x, 1e-7f) << c;
        EXPECT_NEAR(local.m[1][c], expected.y, 1e-7f) << c;
        EXPECT_NEAR(local.m[2][c], expected.z, 1e-7f) << c;
    }
    EXPECT_FLOAT_EQ(local.m[0][3], 0.01f);
    EXPECT_FLOAT_EQ(local.m[1][3], 0.05f);
    EXPECT_FLOAT_EQ(local.m[2][3], 0.0f);
    // The other order (Z first, then X) gives a visibly different matrix for this joint.
    // (Rx·Rz·S)[0][2] is 0; (Rz·Rx·S)[0][2] = sin(z)·sin(x)·scale.z.
    const Vec3 zThenX = RotateXyz(RotateXyz(axes[2], 0, 0, j.rot[2]), j.rot[0], 0, 0);
    EXPECT_GT(std::fabs(zThenX.x - local.m[0][2]), 2e-4f);
    // World = parent world · local.
    const Mat4 world = AvatarJointWorldMatrix(hand);
    const Mat4 viaParent = AvatarJointWorldMatrix(static_cast<std::size_t>(j.parent)) * local;
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c) EXPECT_NEAR(world.m[r][c], viaParent.m[r][c], 1e-6f);
}

TEST(SlSkeleton, AliasesOfTheUploader) {
    EXPECT_EQ(CanonicalJointName("hip"), std::optional<std::string>("mPelvis"));
    EXPECT_EQ(CanonicalJointName("abdomen"), std::optional<std::string>("mTorso"));
    EXPECT_EQ(CanonicalJointName("lShldr"), std::optional<std::string>("mShoulderLeft"));
    EXPECT_EQ(CanonicalJointName("rShldr"), std::optional<std::string>("mShoulderRight"));
    EXPECT_EQ(CanonicalJointName("figureHair"), std::optional<std::string>("mSkull"));
    EXPECT_EQ(CanonicalJointName("lFoot"), std::optional<std::string>("mAnkleLeft"));
    EXPECT_EQ(CanonicalJointName("rShin"), std::optional<std::string>("mKneeRight"));
    EXPECT_EQ(CanonicalJointName("avatar_mHead"), std::optional<std::string>("mHead"));
    EXPECT_EQ(CanonicalJointName("avatar_mPelvis"), std::optional<std::string>("mPelvis"));
    // Joint names map to themselves, including extended bones and volumes.
    EXPECT_EQ(CanonicalJointName("mSpine1"), std::optional<std::string>("mSpine1"));
    EXPECT_EQ(CanonicalJointName("L_HAND"), std::optional<std::string>("L_HAND"));
    // avatar_ only for base bones.
    EXPECT_EQ(CanonicalJointName("avatar_mSpine1"), std::nullopt);
    EXPECT_EQ(CanonicalJointName("avatar_L_HAND"), std::nullopt);
    EXPECT_EQ(CanonicalJointName("avatar_"), std::nullopt);
    EXPECT_EQ(CanonicalJointName("avatar_hip"), std::nullopt);
    EXPECT_EQ(CanonicalJointName("Hip"), std::nullopt);
    EXPECT_EQ(CanonicalJointName("nonsense"), std::nullopt);
    EXPECT_EQ(CanonicalJointName(""), std::nullopt);
}

TEST(SlSkeleton, OutOfRangeIndexGivesIdentity) {
    EXPECT_EQ(AvatarJointLocalMatrix(kAvatarJointCount), Mat4());
    EXPECT_EQ(AvatarJointWorldMatrix(kAvatarJointCount + 5), Mat4());
}

// ---------------------------------------------------------------- hulls

Vec3 Point(const std::vector<float> &xyz, std::uint32_t i) {
    return Vec3(xyz[i * 3], xyz[i * 3 + 1], xyz[i * 3 + 2]);
}

// Every triangle's normal points away from the centroid of the hull's vertices.
void ExpectOutward(const ConvexHull &hull, const std::vector<float> &xyz) {
    Vec3 centroid;
    for (const std::uint32_t v : hull.vertices) centroid += Point(xyz, v);
    centroid *= 1.0f / static_cast<float>(hull.vertices.size());
    for (std::size_t t = 0; t < hull.triangles.size(); t += 3) {
        const Vec3 a = Point(xyz, hull.triangles[t]), b = Point(xyz, hull.triangles[t + 1]),
                   c = Point(xyz, hull.triangles[t + 2]);
        const Vec3 n = (b - a).cross(c - a);
        EXPECT_GT(n.length(), 0.0f) << "triangle " << t / 3;
        EXPECT_GT(n.dot(a - centroid), 0.0f) << "triangle " << t / 3 << " faces inward";
    }
}

TEST(SlHull, TetrahedronOf11_6GivesFourOutwardTriangles) {
    const std::vector<float> xyz = {-.5f, -.5f, -.5f, .5f, -.5f, -.5f, -.5f, .5f, -.5f, -.5f, -.5f, .5f};
    const ConvexHull hull = ComputeConvexHull(xyz.data(), 4);
    ASSERT_TRUE(hull.ok) << hull.error;
    EXPECT_EQ(hull.triangles.size(), 12u);
    EXPECT_EQ(hull.vertices, (std::vector<std::uint32_t>{0, 1, 2, 3}));
    ExpectOutward(hull, xyz);
}

TEST(SlHull, CubeGivesTwelveTrianglesOverEightVertices) {
    std::vector<float> xyz;
    for (int i = 0; i < 8; ++i) {
        xyz.push_back(i & 1 ? 0.5f : -0.5f);
        xyz.push_back(i & 2 ? 0.5f : -0.5f);
        xyz.push_back(i & 4 ? 0.5f : -0.5f);
    }
    // Interior points and a duplicate are not hull vertices.
    for (float v : {0.0f, 0.0f, 0.0f, 0.1f, -0.2f, 0.3f, 0.5f, 0.5f, 0.5f}) xyz.push_back(v);
    const ConvexHull hull = ComputeConvexHull(xyz.data(), xyz.size() / 3);
    ASSERT_TRUE(hull.ok) << hull.error;
    EXPECT_EQ(hull.triangles.size(), 36u);
    ASSERT_EQ(hull.vertices.size(), 8u);
    std::set<std::uint32_t> used(hull.triangles.begin(), hull.triangles.end());
    EXPECT_EQ(used.size(), 8u);
    for (const std::uint32_t v : hull.vertices) {
        const Vec3 p = Point(xyz, v);
        EXPECT_EQ(std::fabs(p.x), 0.5f);
        EXPECT_EQ(std::fabs(p.y), 0.5f);
        EXPECT_EQ(std::fabs(p.z), 0.5f);
    }
    ExpectOutward(hull, xyz);
}

TEST(SlHull, CoplanarPointsAreNotAHull) {
    const std::vector<float> xyz = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0, 0.5f, 0.5f, 0};
    const ConvexHull hull = ComputeConvexHull(xyz.data(), 5);
    EXPECT_FALSE(hull.ok);
    EXPECT_FALSE(hull.error.empty());
    EXPECT_TRUE(hull.triangles.empty());
    EXPECT_TRUE(hull.vertices.empty());
}

TEST(SlHull, CollinearAndDuplicatePointsAreNotAHull) {
    const std::vector<float> line = {0, 0, 0, 1, 1, 1, 2, 2, 2, 3, 3, 3};
    EXPECT_FALSE(ComputeConvexHull(line.data(), 4).ok);
    const std::vector<float> same(4 * 3, 0.25f);
    EXPECT_FALSE(ComputeConvexHull(same.data(), 4).ok);
}

TEST(SlHull, FewerThanFourPointsAreNotAHull) {
    const std::vector<float> xyz = {0, 0, 0, 1, 0, 0, 0, 1, 0};
    for (std::size_t n = 0; n < 4; ++n) {
        const ConvexHull hull = ComputeConvexHull(xyz.data(), n);
        EXPECT_FALSE(hull.ok) << n;
        EXPECT_NE(hull.error.find("4 points"), std::string::npos) << hull.error;
    }
    EXPECT_FALSE(ComputeConvexHull(nullptr, 8).ok);
}

TEST(SlHull, NonFinitePointsAreRejected) {
    std::vector<float> xyz = {-.5f, -.5f, -.5f, .5f, -.5f, -.5f, -.5f, .5f, -.5f, -.5f, -.5f, .5f};
    xyz[4] = std::nanf("");
    EXPECT_FALSE(ComputeConvexHull(xyz.data(), 4).ok);
}

TEST(SlHull, ConcurrentCallsAgree) {
    std::vector<float> xyz;
    // A coarse sphere: 10 x 10 latitude-longitude points.
    for (int i = 0; i < 10; ++i)
        for (int k = 0; k < 10; ++k) {
            const double th = 0.1 + 2.9 * i / 9.0, ph = 2 * 3.14159265358979 * k / 10.0;
            xyz.push_back(static_cast<float>(std::sin(th) * std::cos(ph)));
            xyz.push_back(static_cast<float>(std::sin(th) * std::sin(ph)));
            xyz.push_back(static_cast<float>(std::cos(th)));
        }
    const ConvexHull reference = ComputeConvexHull(xyz.data(), xyz.size() / 3);
    ASSERT_TRUE(reference.ok) << reference.error;
    ExpectOutward(reference, xyz);
    std::vector<ConvexHull> results(4);
    std::vector<std::thread> threads;
    for (std::size_t t = 0; t < results.size(); ++t)
        threads.emplace_back([&results, &xyz, t] { results[t] = ComputeConvexHull(xyz.data(), xyz.size() / 3); });
    for (std::thread &t : threads) t.join();
    for (const ConvexHull &h : results) {
        EXPECT_TRUE(h.ok);
        EXPECT_EQ(h.vertices, reference.vertices);
        EXPECT_EQ(h.triangles.size(), reference.triangles.size());
    }
}

} // namespace
