// Tests for common/math: vector algebra, quaternion <-> matrix for quarter and half turns about each
// axis, composition order, the general inverse, and the Roblox CFrame layout.
#include "common/math.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>

using gamefmt::Mat4;
using gamefmt::Quat;
using gamefmt::Vec3;

namespace {

constexpr float kHalfPi = 1.57079632679489661923f;
constexpr float kPi = 3.14159265358979323846f;
constexpr float kSqrtHalf = 0.70710678118654752440f;
// Float trigonometry leaves ~1 ulp of noise on entries that are exactly 0 or 1 in real arithmetic.
constexpr float kTol = 1e-6f;

void ExpectVec(const Vec3 &v, float x, float y, float z, float tol = kTol) {
    EXPECT_NEAR(v.x, x, tol);
    EXPECT_NEAR(v.y, y, tol);
    EXPECT_NEAR(v.z, z, tol);
}

void ExpectQuat(const Quat &q, float w, float x, float y, float z, float tol = kTol) {
    EXPECT_NEAR(q.w, w, tol);
    EXPECT_NEAR(q.x, x, tol);
    EXPECT_NEAR(q.y, y, tol);
    EXPECT_NEAR(q.z, z, tol);
}

void ExpectMat(const Mat4 &m, const float (&e)[4][4], float tol = kTol) {
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) EXPECT_NEAR(m.m[i][j], e[i][j], tol) << "entry [" << i << "][" << j << "]";
}

Mat4 FromRows(const float (&e)[4][4]) {
    Mat4 m;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) m.m[i][j] = e[i][j];
    return m;
}

} // namespace

// ---------------------------------------------------------------- Vec3

TEST(Math, Vec3Arithmetic) {
    const Vec3 a(1, 2, 3), b(4, 5, 6);
    EXPECT_EQ(a + b, Vec3(5, 7, 9));
    EXPECT_EQ(b - a, Vec3(3, 3, 3));
    EXPECT_EQ(-a, Vec3(-1, -2, -3));
    EXPECT_EQ(a * 2.0f, Vec3(2, 4, 6));
    EXPECT_EQ(2.0f * a, Vec3(2, 4, 6));
    Vec3 c = a;
    c += b;
    EXPECT_EQ(c, Vec3(5, 7, 9));
    c -= a;
    EXPECT_EQ(c, b);
    c *= 0.5f;
    EXPECT_EQ(c, Vec3(2, 2.5f, 3));
    EXPECT_NE(a, b);
    EXPECT_EQ(Vec3(), Vec3(0, 0, 0));
}

TEST(Math, Vec3DotCross) {
    const Vec3 a(1, 2, 3), b(4, 5, 6);
    EXPECT_EQ(a.dot(b), 32.0f);
    EXPECT_EQ(a.cross(b), Vec3(-3, 6, -3));
    EXPECT_EQ(Vec3(1, 0, 0).cross(Vec3(0, 1, 0)), Vec3(0, 0, 1)) << "right-handed";
    EXPECT_EQ(Vec3(0, 1, 0).cross(Vec3(0, 0, 1)), Vec3(1, 0, 0));
    EXPECT_EQ(Vec3(0, 0, 1).cross(Vec3(1, 0, 0)), Vec3(0, 1, 0));
    EXPECT_EQ(a.cross(a), Vec3(0, 0, 0));
}

TEST(Math, Vec3LengthNormalized) {
    EXPECT_EQ(Vec3(3, 4, 0).length(), 5.0f);
    EXPECT_EQ(Vec3(1, 2, 2).lengthSquared(), 9.0f);
    const Vec3 n = Vec3(0, 3, 4).normalized();
    EXPECT_FLOAT_EQ(n.x, 0.0f);
    EXPECT_FLOAT_EQ(n.y, 0.6f);
    EXPECT_FLOAT_EQ(n.z, 0.8f);
    EXPECT_EQ(Vec3(0, 0, -8).normalized(), Vec3(0, 0, -1));
    EXPECT_EQ(Vec3().normalized(), Vec3()) << "zero stays zero, not NaN";
}

// ---------------------------------------------------------------- Quat

TEST(Math, QuatIdentity) {
    const Quat q;
    EXPECT_EQ(q, Quat(1, 0, 0, 0));
    EXPECT_EQ(q.rotate(Vec3(1, 2, 3)), Vec3(1, 2, 3));
    EXPECT_EQ(q.toMatrix(), Mat4::Identity());
    const Quat r(0.5f, 0.5f, 0.5f, 0.5f);
    EXPECT_EQ(q * r, r);
    EXPECT_EQ(r * q, r);
}

TEST(Math, QuatFromAxisAngleQuarterTurns) {
    ExpectQuat(Quat::FromAxisAngle(Vec3(1, 0, 0), kHalfPi), kSqrtHalf, kSqrtHalf, 0, 0);
    ExpectQuat(Quat::FromAxisAngle(Vec3(0, 1, 0), kHalfPi), kSqrtHalf, 0, kSqrtHalf, 0);
    ExpectQuat(Quat::FromAxisAngle(Vec3(0, 0, 1), kHalfPi), kSqrtHalf, 0, 0, kSqrtHalf);
    // The axis is normalized.
    ExpectQuat(Quat::FromAxisAngle(Vec3(0, 0, 5), kHalfPi), kSqrtHalf, 0, 0, kSqrtHalf);
    ExpectQuat(Quat::FromAxisAngle(Vec3(0, 0, 1), -kHalfPi), kSqrtHalf, 0, 0, -kSqrtHalf);
    EXPECT_EQ(Quat::FromAxisAngle(Vec3(), 1.0f), Quat()) << "zero axis gives the identity";
}

TEST(Math, QuatToMatrixQuarterTurnX) {
    const float e[4][4] = {{1, 0, 0, 0}, {0, 0, -1, 0}, {0, 1, 0, 0}, {0, 0, 0, 1}};
    ExpectMat(Quat::FromAxisAngle(Vec3(1, 0, 0), kHalfPi).toMatrix(), e);
    ExpectQuat(Quat::FromMatrix(FromRows(e)), kSqrtHalf, kSqrtHalf, 0, 0);
}

TEST(Math, QuatToMatrixQuarterTurnY) {
    const float e[4][4] = {{0, 0, 1, 0}, {0, 1, 0, 0}, {-1, 0, 0, 0}, {0, 0, 0, 1}};
    ExpectMat(Quat::FromAxisAngle(Vec3(0, 1, 0), kHalfPi).toMatrix(), e);
    ExpectQuat(Quat::FromMatrix(FromRows(e)), kSqrtHalf, 0, kSqrtHalf, 0);
}

TEST(Math, QuatToMatrixQuarterTurnZ) {
    const float e[4][4] = {{0, -1, 0, 0}, {1, 0, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
    ExpectMat(Quat::FromAxisAngle(Vec3(0, 0, 1), kHalfPi).toMatrix(), e);
    ExpectQuat(Quat::FromMatrix(FromRows(e)), kSqrtHalf, 0, 0, kSqrtHalf);
    EXPECT_EQ(Mat4::FromRotation(Quat::FromAxisAngle(Vec3(0, 0, 1), kHalfPi)),
              Quat::FromAxisAngle(Vec3(0, 0, 1), kHalfPi).toMatrix());
}

// Half turns have trace -1, so FromMatrix takes each of its three non-trace branches.
TEST(Math, QuatFromMatrixHalfTurns) {
    const float x[4][4] = {{1, 0, 0, 0}, {0, -1, 0, 0}, {0, 0, -1, 0}, {0, 0, 0, 1}};
    const float y[4][4] = {{-1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, -1, 0}, {0, 0, 0, 1}};
    const float z[4][4] = {{-1, 0, 0, 0}, {0, -1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};
    EXPECT_EQ(Quat::FromMatrix(FromRows(x)), Quat(0, 1, 0, 0));
    EXPECT_EQ(Quat::FromMatrix(FromRows(y)), Quat(0, 0, 1, 0));
    EXPECT_EQ(Quat::FromMatrix(FromRows(z)), Quat(0, 0, 0, 1));
    EXPECT_EQ(Quat(0, 1, 0, 0).toMatrix(), FromRows(x));
    EXPECT_EQ(Quat(0, 0, 1, 0).toMatrix(), FromRows(y));
    EXPECT_EQ(Quat(0, 0, 0, 1).toMatrix(), FromRows(z));
    ExpectMat(Quat::FromAxisAngle(Vec3(1, 0, 0), kPi).toMatrix(), x);
}

TEST(Math, QuatFromMatrixIdentity) {
    EXPECT_EQ(Quat::FromMatrix(Mat4()), Quat());
}

TEST(Math, QuatRotateQuarterTurns) {
    ExpectVec(Quat::FromAxisAngle(Vec3(1, 0, 0), kHalfPi).rotate(Vec3(0, 1, 0)), 0, 0, 1);
    ExpectVec(Quat::FromAxisAngle(Vec3(0, 1, 0), kHalfPi).rotate(Vec3(0, 0, 1)), 1, 0, 0);
    ExpectVec(Quat::FromAxisAngle(Vec3(0, 0, 1), kHalfPi).rotate(Vec3(1, 0, 0)), 0, 1, 0);
    ExpectVec(Quat::FromAxisAngle(Vec3(0, 0, 1), kHalfPi).rotate(Vec3(2, 0, 7)), 0, 2, 7);
    EXPECT_EQ(Quat(0, 0, 0, 1).rotate(Vec3(1, 2, 3)), Vec3(-1, -2, 3));
}

TEST(Math, QuatCompositionOrder) {
    const Quat a = Quat::FromAxisAngle(Vec3(1, 0, 0), kHalfPi);
    const Quat b = Quat::FromAxisAngle(Vec3(0, 0, 1), kHalfPi);
    // b first: (1,0,0) -> (0,1,0); then a: (0,1,0) -> (0,0,1).
    ExpectVec((a * b).rotate(Vec3(1, 0, 0)), 0, 0, 1);
    ExpectVec(a.rotate(b.rotate(Vec3(1, 0, 0))), 0, 0, 1);
    // The other order: a leaves (1,0,0) alone, b sends it to (0,1,0).
    ExpectVec((b * a).rotate(Vec3(1, 0, 0)), 0, 1, 0);
    // Columns are the images of x, y, z: z, -x, -y.
    ExpectMat((a * b).toMatrix(), {{0, -1, 0, 0}, {0, 0, -1, 0}, {1, 0, 0, 0}, {0, 0, 0, 1}});
    ExpectQuat(b * b, 0, 0, 0, 1);
}

TEST(Math, QuatMatchesMatrixForArbitraryRotation) {
    const Quat q = Quat::FromAxisAngle(Vec3(1, 2, 3), 0.7f);
    const Mat4 m = q.toMatrix();
    const Vec3 v(0.3f, -1.5f, 2.0f);
    const Vec3 a = q.rotate(v), b = m.transformVector(v);
    ExpectVec(a, b.x, b.y, b.z, 1e-5f);
    const Quat back = Quat::FromMatrix(m);
    const float sign = back.dot(q) < 0 ? -1.0f : 1.0f; // q and -q are the same rotation
    ExpectQuat(back, sign * q.w, sign * q.x, sign * q.y, sign * q.z);
    EXPECT_NEAR(q.length(), 1.0f, kTol);
    EXPECT_NEAR(v.length(), a.length(), 1e-5f) << "rotations keep lengths";
}

TEST(Math, QuatConjugateUndoes) {
    const Quat q = Quat::FromAxisAngle(Vec3(0, 1, 1), 1.2f);
    EXPECT_EQ(q.conjugate(), Quat(q.w, -q.x, -q.y, -q.z));
    ExpectVec(q.conjugate().rotate(q.rotate(Vec3(4, 5, 6))), 4, 5, 6, 1e-5f);
    ExpectQuat(q * q.conjugate(), 1, 0, 0, 0);
}

TEST(Math, QuatNormalized) {
    EXPECT_EQ(Quat(2, 0, 0, 0).normalized(), Quat(1, 0, 0, 0));
    EXPECT_EQ(Quat(0, 0, -3, 0).normalized(), Quat(0, 0, -1, 0));
    EXPECT_EQ(Quat(1, 1, 1, 1).normalized(), Quat(0.5f, 0.5f, 0.5f, 0.5f));
    EXPECT_EQ(Quat(0, 0, 0, 0).normalized(), Quat()) << "zero becomes identity, not NaN";
    EXPECT_EQ(Quat(1, 1, 1, 1).length(), 2.0f);
}

// ---------------------------------------------------------------- Mat4

TEST(Math, Mat4DefaultIsIdentity) {
    const Mat4 m;
    ExpectMat(m, {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}}, 0);
    EXPECT_EQ(m, Mat4::Identity());
    EXPECT_EQ(m.transformPoint(Vec3(1, 2, 3)), Vec3(1, 2, 3));
}

TEST(Math, Mat4TranslationLayout) {
    const Mat4 t = Mat4::FromTranslation(Vec3(10, 20, 30));
    // Assimp's layout: a4, b4, c4.
    EXPECT_EQ(t.m[0][3], 10.0f);
    EXPECT_EQ(t.m[1][3], 20.0f);
    EXPECT_EQ(t.m[2][3], 30.0f);
    EXPECT_EQ(t.m[3][0], 0.0f);
    EXPECT_EQ(t.transformPoint(Vec3(1, 2, 3)), Vec3(11, 22, 33));
    EXPECT_EQ(t.transformVector(Vec3(1, 2, 3)), Vec3(1, 2, 3)) << "vectors ignore translation";
    EXPECT_EQ(t.translation(), Vec3(10, 20, 30));
}

TEST(Math, Mat4Scale) {
    const Mat4 s = Mat4::FromScale(Vec3(2, 3, 4));
    EXPECT_EQ(s.transformPoint(Vec3(1, 1, 1)), Vec3(2, 3, 4));
    EXPECT_EQ(s.transformVector(Vec3(1, -1, 0.5f)), Vec3(2, -3, 2));
}

TEST(Math, Mat4MultiplyOrder) {
    const Mat4 t = Mat4::FromTranslation(Vec3(10, 0, 0));
    const Mat4 s = Mat4::FromScale(Vec3(2, 2, 2));
    EXPECT_EQ((t * s).transformPoint(Vec3(1, 1, 1)), Vec3(12, 2, 2)) << "scale first, then translate";
    EXPECT_EQ((s * t).transformPoint(Vec3(1, 1, 1)), Vec3(22, 2, 2)) << "translate first, then scale";
    ExpectMat(t * s, {{2, 0, 0, 10}, {0, 2, 0, 0}, {0, 0, 2, 0}, {0, 0, 0, 1}}, 0);
}

TEST(Math, Mat4MultiplyGeneral) {
    const Mat4 a = FromRows({{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}, {13, 14, 15, 16}});
    const Mat4 b = FromRows({{17, 18, 19, 20}, {21, 22, 23, 24}, {25, 26, 27, 28}, {29, 30, 31, 32}});
    ExpectMat(a * b, {{250, 260, 270, 280}, {618, 644, 670, 696}, {986, 1028, 1070, 1112}, {1354, 1412, 1470, 1528}},
              0);
    EXPECT_EQ(a * Mat4(), a);
    EXPECT_EQ(Mat4() * a, a);
}

TEST(Math, Mat4Transpose) {
    const Mat4 a = FromRows({{1, 2, 3, 4}, {5, 6, 7, 8}, {9, 10, 11, 12}, {13, 14, 15, 16}});
    ExpectMat(a.transpose(), {{1, 5, 9, 13}, {2, 6, 10, 14}, {3, 7, 11, 15}, {4, 8, 12, 16}}, 0);
    EXPECT_EQ(a.transpose().transpose(), a);
}

TEST(Math, Mat4InverseKnownGeneralMatrix) {
    // det 4, so the inverse has exact binary fractions; the bottom row is not (0 0 0 1).
    const Mat4 m = FromRows({{-1, -2, 3, 3}, {0, -2, 3, 3}, {-3, -2, 1, 1}, {0, -2, -2, -3}});
    EXPECT_EQ(m.determinant(), 4.0f);
    const auto inv = m.inverse();
    ASSERT_TRUE(inv.has_value());
    ExpectMat(*inv, {{-1, 1, 0, 0}, {2.25f, -2, -0.75f, 0}, {9, -7, -3, 1}, {-7.5f, 6, 2.5f, -1}}, 0);
    EXPECT_EQ(m * *inv, Mat4());
    EXPECT_EQ(*inv * m, Mat4());
}

TEST(Math, Mat4InverseAffine) {
    const Mat4 m = FromRows({{2, 0, 0, 4}, {0, 4, 0, 8}, {0, 0, 8, -16}, {0, 0, 0, 1}});
    const auto inv = m.inverse();
    ASSERT_TRUE(inv.has_value());
    ExpectMat(*inv, {{0.5f, 0, 0, -2}, {0, 0.25f, 0, -2}, {0, 0, 0.125f, 2}, {0, 0, 0, 1}}, 0);
    EXPECT_EQ(inv->transformPoint(m.transformPoint(Vec3(1, 2, 3))), Vec3(1, 2, 3));
}

TEST(Math, Mat4InverseOfRotationIsTranspose) {
    const Mat4 r = Quat::FromAxisAngle(Vec3(1, -2, 0.5f), 2.0f).toMatrix();
    const auto inv = r.inverse();
    ASSERT_TRUE(inv.has_value());
    const Mat4 t = r.transpose();
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) EXPECT_NEAR(inv->m[i][j], t.m[i][j], 1e-6f);
    EXPECT_NEAR(r.determinant(), 1.0f, 1e-6f);
}

TEST(Math, Mat4InverseSingular) {
    const Mat4 rankDeficient = FromRows({{1, 2, 3, 4}, {2, 4, 6, 8}, {0, 0, 1, 0}, {0, 0, 0, 1}});
    EXPECT_FALSE(rankDeficient.inverse().has_value());
    EXPECT_EQ(rankDeficient.determinant(), 0.0f);
    Mat4 zero;
    for (auto &row : zero.m)
        for (float &v : row) v = 0;
    EXPECT_FALSE(zero.inverse().has_value());
    EXPECT_FALSE(Mat4::FromScale(Vec3(1, 0, 1)).inverse().has_value());
    Mat4 nan = Mat4();
    nan.m[1][2] = std::numeric_limits<float>::quiet_NaN();
    EXPECT_FALSE(nan.inverse().has_value());
}

TEST(Math, Mat4InverseTinyScale) {
    // Representable: 1e-30 inverts to 1e30 < FLT_MAX. Not representable: a denormal scale inverts past it.
    const auto ok = Mat4::FromScale(Vec3(1e-30f, 1, 1)).inverse();
    ASSERT_TRUE(ok.has_value());
    EXPECT_FLOAT_EQ(ok->m[0][0], 1e30f);
    EXPECT_FALSE(Mat4::FromScale(Vec3(1e-39f, 1, 1)).inverse().has_value());
}

TEST(Math, Mat4FromRowMajor3x4CFrameLayout) {
    const float r[9] = {1, 2, 3, 4, 5, 6, 7, 8, 9};
    const Mat4 m = Mat4::FromRowMajor3x4(r, Vec3(10, 11, 12));
    ExpectMat(m, {{1, 2, 3, 10}, {4, 5, 6, 11}, {7, 8, 9, 12}, {0, 0, 0, 1}}, 0);
    float back[9] = {};
    Vec3 t;
    m.toRowMajor3x4(back, t);
    for (int i = 0; i < 9; ++i) EXPECT_EQ(back[i], r[i]) << i;
    EXPECT_EQ(t, Vec3(10, 11, 12));
}

TEST(Math, Mat4CFrameQuarterTurn) {
    // CFrame.Angles(0, math.pi/2, 0) at (1, 2, 3): R00..R22 = 0 0 1, 0 1 0, -1 0 0.
    const float r[9] = {0, 0, 1, 0, 1, 0, -1, 0, 0};
    const Mat4 m = Mat4::FromRowMajor3x4(r, Vec3(1, 2, 3));
    EXPECT_EQ(m.transformPoint(Vec3(0, 0, 1)), Vec3(2, 2, 3));
    ExpectQuat(Quat::FromMatrix(m), kSqrtHalf, 0, kSqrtHalf, 0);
}

TEST(Math, Mat4RotationMatchesQuat) {
    const Quat q = Quat::FromAxisAngle(Vec3(0, 0, 1), kHalfPi);
    const Mat4 m = Mat4::FromTranslation(Vec3(5, 0, 0)) * Mat4::FromRotation(q);
    ExpectVec(m.transformPoint(Vec3(1, 0, 0)), 5, 1, 0);
    ExpectVec(m.transformVector(Vec3(1, 0, 0)), 0, 1, 0);
}

TEST(Math, Mat4dProductInverseAndConversion) {
    gamefmt::Mat4d t, s;
    t.m[0][3] = 0.1;
    t.m[1][3] = 0.2;
    t.m[2][3] = 1.0;
    for (int i = 0; i < 3; ++i) s.m[i][i] = 0.5;
    const gamefmt::Mat4d ts = t * s; // scale first, then translate (column vectors)
    EXPECT_EQ(ts.m[0][0], 0.5);
    EXPECT_EQ(ts.m[0][3], 0.1);
    EXPECT_EQ(ts.m[2][3], 1.0);
    const std::optional<gamefmt::Mat4d> inv = ts.inverse();
    ASSERT_TRUE(inv);
    EXPECT_EQ(inv->m[0][0], 2.0);
    EXPECT_NEAR(inv->m[0][3], -0.2, 1e-15);
    EXPECT_NEAR(inv->m[2][3], -2.0, 1e-15);
    const gamefmt::Mat4d id = ts * *inv;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) EXPECT_NEAR(id.m[i][j], i == j ? 1.0 : 0.0, 1e-15);
    gamefmt::Mat4d singular;
    singular.m[1][1] = 0;
    EXPECT_FALSE(singular.inverse());
    singular.m[1][1] = std::nan("");
    EXPECT_FALSE(singular.inverse());
    const gamefmt::Mat4 f = ts.toFloat();
    EXPECT_EQ(f.m[0][3], 0.1f);
    EXPECT_EQ(gamefmt::Mat4d::FromFloat(f).m[0][3], static_cast<double>(0.1f));
}

TEST(Math, Mat4NearlyEqualsWithinARelativeTenThousandth) {
    Mat4 a = Mat4::FromTranslation({100, 0, 0});
    Mat4 b = a;
    b.m[0][3] = 100.009f; // |d| = 0.009 <= 1e-4 · (1 + 100)
    EXPECT_TRUE(a.nearlyEquals(b));
    b.m[0][3] = 100.02f;
    EXPECT_FALSE(a.nearlyEquals(b));
    b = a;
    b.m[3][0] = 0.5f; // the bottom row: compared with 4 rows, not with 3
    EXPECT_FALSE(a.nearlyEquals(b));
    EXPECT_TRUE(a.nearlyEquals(b, 3));
}

// ---------------------------------------------------------------- double precision: the one math of rigs and CFrames

using gamefmt::Quatd;
using gamefmt::Rigid;
using gamefmt::Vec3d;

namespace {

void ExpectRigid(const Rigid &t, const std::array<double, 9> &r, const Vec3d &p, double tol = 1e-12) {
    for (std::size_t i = 0; i < 9; ++i) EXPECT_NEAR(t.r[i], r[i], tol) << "rotation entry " << i;
    for (std::size_t i = 0; i < 3; ++i) EXPECT_NEAR(t.p[i], p[i], tol) << "position " << i;
}

} // namespace

TEST(Math, Vec3dIndexNormaliseAndDegenerate) {
    Vec3d v{3, 4, 12};
    EXPECT_EQ(v[0], 3);
    EXPECT_EQ(v[2], 12);
    v[1] = -4;
    EXPECT_EQ(v.y, -4);
    EXPECT_EQ(v.length(), 13);
    const Vec3d n = v.normalized();
    EXPECT_DOUBLE_EQ(n.x, 3.0 / 13); // divided, not multiplied by a reciprocal
    EXPECT_DOUBLE_EQ(n.z, 12.0 / 13);
    EXPECT_EQ(Vec3d{}.normalized(), Vec3d{});
    EXPECT_EQ((Vec3d{std::numeric_limits<double>::infinity(), 0, 0}.normalized()), Vec3d{});
    EXPECT_EQ((Vec3d{1, 0, 0}.cross(Vec3d{0, 1, 0})), (Vec3d{0, 0, 1}));
}

// The reference's CFrame algebra (docs/formats/roblox-animation.md §5.1): (p, R)·(q, S) = (p + Rq, RS), inverse
// (−Rᵀp, Rᵀ); Rx90 has rows 1 0 0 | 0 0 −1 | 0 1 0.
TEST(Math, RigidProductInverseAndAxisRotations) {
    const Rigid rx = Rigid::Rotation(0, 3.14159265358979323846 / 2);
    ExpectRigid(rx, {1, 0, 0, 0, 0, -1, 0, 1, 0}, {0, 0, 0});
    ExpectRigid(Rigid::Rotation(1, 3.14159265358979323846 / 2), {0, 0, 1, 0, 1, 0, -1, 0, 0}, {0, 0, 0});
    ExpectRigid(Rigid::Rotation(2, 3.14159265358979323846 / 2), {0, -1, 0, 1, 0, 0, 0, 0, 1}, {0, 0, 0});
    ExpectRigid(Rigid::Rotation(7, 1.0), {1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, 0});
    Rigid a = rx;
    a.p = {1, 2, 3};
    Rigid b;
    b.p = {0, 0, -1};
    // a · b: b's position (0, 0, −1) rotated by Rx90 is (0, 1, 0), then moved by (1, 2, 3).
    ExpectRigid(a * b, rx.r, {1, 3, 3});
    ExpectRigid(a * a.inverse(), {1, 0, 0, 0, 1, 0, 0, 0, 1}, {0, 0, 0});
    ExpectRigid(a.inverse(), {1, 0, 0, 0, 0, 1, 0, -1, 0}, {-1, -3, 2});
    const Vec3d z = a.column(2); // Rx90's Z axis is −Y (cos 90° in double is 6e−17, not 0)
    EXPECT_NEAR(z.x, 0, 1e-15);
    EXPECT_EQ(z.y, -1);
    EXPECT_NEAR(z.z, 0, 1e-15);
}

TEST(Math, QuaternionsOfRigidsAndSlerp) {
    const double h = 0.70710678118654752440;
    const Quatd q = gamefmt::QuatFromRigid(Rigid::Rotation(0, 3.14159265358979323846 / 2));
    EXPECT_NEAR(q.w, h, 1e-15);
    EXPECT_NEAR(q.x, h, 1e-15);
    EXPECT_NEAR(q.y, 0, 1e-15);
    // Half way from the identity: Rx45, whose rotation keeps (1, 0, 0) and turns (0, 1, 0) to (0, h, h).
    const Rigid half = gamefmt::RigidFromQuat(gamefmt::Slerp({}, q, 0.5), {5, 6, 7});
    ExpectRigid(half, {1, 0, 0, 0, h, -h, 0, h, h}, {5, 6, 7}, 1e-15);
    // The shorter arc: −q is the same rotation.
    const Quatd back = gamefmt::Slerp({}, {-q.w, -q.x, -q.y, -q.z}, 1);
    EXPECT_NEAR(back.w, h, 1e-15);
    EXPECT_NEAR(back.x, h, 1e-15);
    // Every branch of the conversion: half turns about each axis.
    for (std::size_t axis = 0; axis < 3; ++axis) {
        const Quatd turn = gamefmt::QuatFromRigid(Rigid::Rotation(axis, 3.14159265358979323846));
        EXPECT_NEAR(std::fabs(axis == 0 ? turn.x : axis == 1 ? turn.y : turn.z), 1, 1e-15) << axis;
        EXPECT_NEAR(turn.w, 0, 1e-15) << axis;
    }
}

TEST(Math, Mat4AxisRotationsAreRightHanded) {
    const Vec3 y = Mat4::RotationX(kHalfPi).transformVector({0, 1, 0});
    ExpectVec(y, 0, 0, 1);
    ExpectVec(Mat4::RotationY(kHalfPi).transformVector({0, 0, 1}), 1, 0, 0);
    ExpectVec(Mat4::RotationZ(kHalfPi).transformVector({1, 0, 0}), 0, 1, 0);
}
