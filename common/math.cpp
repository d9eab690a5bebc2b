// The out-of-line parts of common/math.hpp: conversions, products and the general inverse.
#include "common/math.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace gamefmt {

Quat Quat::FromAxisAngle(const Vec3 &axis, float radians) {
    const Vec3 a = axis.normalized();
    if (a == Vec3()) return Quat();
    const float half = radians * 0.5f;
    const float s = std::sin(half);
    return {std::cos(half), a.x * s, a.y * s, a.z * s};
}

// Shepperd's method: take the square root of the largest of the four candidates, so the division
// never goes through a small (imprecise) denominator.
Quat Quat::FromMatrix(const Mat4 &mat) {
    const auto &m = mat.m;
    const float trace = m[0][0] + m[1][1] + m[2][2];
    Quat q;
    if (trace > 0) {
        const float s = 0.5f / std::sqrt(trace + 1.0f);
        q = {0.25f / s, (m[2][1] - m[1][2]) * s, (m[0][2] - m[2][0]) * s, (m[1][0] - m[0][1]) * s};
    } else if (m[0][0] > m[1][1] && m[0][0] > m[2][2]) {
        const float s = 2.0f * std::sqrt(1.0f + m[0][0] - m[1][1] - m[2][2]);
        q = {(m[2][1] - m[1][2]) / s, 0.25f * s, (m[0][1] + m[1][0]) / s, (m[0][2] + m[2][0]) / s};
    } else if (m[1][1] > m[2][2]) {
        const float s = 2.0f * std::sqrt(1.0f + m[1][1] - m[0][0] - m[2][2]);
        q = {(m[0][2] - m[2][0]) / s, (m[0][1] + m[1][0]) / s, 0.25f * s, (m[1][2] + m[2][1]) / s};
    } else {
        const float s = 2.0f * std::sqrt(1.0f + m[2][2] - m[0][0] - m[1][1]);
        q = {(m[1][0] - m[0][1]) / s, (m[0][2] + m[2][0]) / s, (m[1][2] + m[2][1]) / s, 0.25f * s};
    }
    return q.normalized();
}

Mat4 Quat::toMatrix() const {
    Mat4 r;
    r.m[0][0] = 1.0f - 2.0f * (y * y + z * z);
    r.m[0][1] = 2.0f * (x * y - z * w);
    r.m[0][2] = 2.0f * (x * z + y * w);
    r.m[1][0] = 2.0f * (x * y + z * w);
    r.m[1][1] = 1.0f - 2.0f * (x * x + z * z);
    r.m[1][2] = 2.0f * (y * z - x * w);
    r.m[2][0] = 2.0f * (x * z - y * w);
    r.m[2][1] = 2.0f * (y * z + x * w);
    r.m[2][2] = 1.0f - 2.0f * (x * x + y * y);
    return r;
}

bool Mat4::nearlyEquals(const Mat4 &o, int rows) const {
    for (int r = 0; r < rows && r < 4; ++r)
        for (int c = 0; c < 4; ++c)
            if (!(std::fabs(m[r][c] - o.m[r][c]) <= 1e-4f * (1.0f + std::fabs(m[r][c])))) return false;
    return true;
}

Mat4 Mat4::FromTranslation(const Vec3 &t) {
    Mat4 r;
    r.m[0][3] = t.x;
    r.m[1][3] = t.y;
    r.m[2][3] = t.z;
    return r;
}

Mat4 Mat4::FromScale(const Vec3 &s) {
    Mat4 r;
    r.m[0][0] = s.x;
    r.m[1][1] = s.y;
    r.m[2][2] = s.z;
    return r;
}

namespace {

// A rotation in the plane of axes `a` and `b` (a → b positive): X is (1, 2), Y (2, 0), Z (0, 1).
Mat4 PlaneRotation(int a, int b, float radians) {
    Mat4 m;
    const float c = std::cos(radians), s = std::sin(radians);
    m.m[a][a] = c, m.m[a][b] = -s;
    m.m[b][a] = s, m.m[b][b] = c;
    return m;
}

} // namespace

Mat4 Mat4::RotationX(float radians) {
    return PlaneRotation(1, 2, radians);
}

Mat4 Mat4::RotationY(float radians) {
    return PlaneRotation(2, 0, radians);
}

Mat4 Mat4::RotationZ(float radians) {
    return PlaneRotation(0, 1, radians);
}

Mat4 Mat4::FromRowMajor3x4(const float *rotation, const Vec3 &translation) {
    Mat4 r;
    for (int row = 0; row < 3; ++row)
        for (int col = 0; col < 3; ++col) r.m[row][col] = rotation[row * 3 + col];
    r.m[0][3] = translation.x;
    r.m[1][3] = translation.y;
    r.m[2][3] = translation.z;
    return r;
}

void Mat4::toRowMajor3x4(float *rotation, Vec3 &position) const {
    for (int row = 0; row < 3; ++row)
        for (int col = 0; col < 3; ++col) rotation[row * 3 + col] = m[row][col];
    position = translation();
}

Mat4 Mat4::operator*(const Mat4 &o) const {
    Mat4 r;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
            r.m[i][j] = m[i][0] * o.m[0][j] + m[i][1] * o.m[1][j] + m[i][2] * o.m[2][j] + m[i][3] * o.m[3][j];
    return r;
}

bool Mat4::operator==(const Mat4 &o) const {
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j)
            if (m[i][j] != o.m[i][j]) return false;
    return true;
}

Mat4 Mat4::transpose() const {
    Mat4 r;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) r.m[i][j] = m[j][i];
    return r;
}

namespace {

// Cofactor expansion over 2x2 sub-determinants of the top and bottom row pairs, in double so that
// near-singular float matrices keep their precision. Writes the adjugate to `adj` and returns det.
template <typename T> double Adjugate(const T (&m)[4][4], double (&adj)[4][4]) {
    const double a00 = m[0][0], a01 = m[0][1], a02 = m[0][2], a03 = m[0][3];
    const double a10 = m[1][0], a11 = m[1][1], a12 = m[1][2], a13 = m[1][3];
    const double a20 = m[2][0], a21 = m[2][1], a22 = m[2][2], a23 = m[2][3];
    const double a30 = m[3][0], a31 = m[3][1], a32 = m[3][2], a33 = m[3][3];

    const double s0 = a00 * a11 - a10 * a01, s1 = a00 * a12 - a10 * a02, s2 = a00 * a13 - a10 * a03;
    const double s3 = a01 * a12 - a11 * a02, s4 = a01 * a13 - a11 * a03, s5 = a02 * a13 - a12 * a03;
    const double c5 = a22 * a33 - a32 * a23, c4 = a21 * a33 - a31 * a23, c3 = a21 * a32 - a31 * a22;
    const double c2 = a20 * a33 - a30 * a23, c1 = a20 * a32 - a30 * a22, c0 = a20 * a31 - a30 * a21;

    adj[0][0] = a11 * c5 - a12 * c4 + a13 * c3;
    adj[0][1] = -a01 * c5 + a02 * c4 - a03 * c3;
    adj[0][2] = a31 * s5 - a32 * s4 + a33 * s3;
    adj[0][3] = -a21 * s5 + a22 * s4 - a23 * s3;
    adj[1][0] = -a10 * c5 + a12 * c2 - a13 * c1;
    adj[1][1] = a00 * c5 - a02 * c2 + a03 * c1;
    adj[1][2] = -a30 * s5 + a32 * s2 - a33 * s1;
    adj[1][3] = a20 * s5 - a22 * s2 + a23 * s1;
    adj[2][0] = a10 * c4 - a11 * c2 + a13 * c0;
    adj[2][1] = -a00 * c4 + a01 * c2 - a03 * c0;
    adj[2][2] = a30 * s4 - a31 * s2 + a33 * s0;
    adj[2][3] = -a20 * s4 + a21 * s2 - a23 * s0;
    adj[3][0] = -a10 * c3 + a11 * c1 - a12 * c0;
    adj[3][1] = a00 * c3 - a01 * c1 + a02 * c0;
    adj[3][2] = -a30 * s3 + a31 * s1 - a32 * s0;
    adj[3][3] = a20 * s3 - a21 * s1 + a22 * s0;

    return s0 * c5 - s1 * c4 + s2 * c3 + s3 * c2 - s4 * c1 + s5 * c0;
}

} // namespace

float Mat4::determinant() const {
    double adj[4][4];
    return static_cast<float>(Adjugate(m, adj));
}

std::optional<Mat4> Mat4::inverse() const {
    double adj[4][4];
    const double det = Adjugate(m, adj);
    if (det == 0.0 || !std::isfinite(det)) return std::nullopt;
    const double inv = 1.0 / det;
    Mat4 r;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
            const double v = adj[i][j] * inv;
            if (!std::isfinite(v) || std::fabs(v) > static_cast<double>(std::numeric_limits<float>::max()))
                return std::nullopt;
            r.m[i][j] = static_cast<float>(v);
        }
    return r;
}

Mat4d Mat4d::operator*(const Mat4d &o) const {
    Mat4d r;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
            double sum = 0;
            for (int k = 0; k < 4; ++k) sum += m[i][k] * o.m[k][j];
            r.m[i][j] = sum;
        }
    return r;
}

std::optional<Mat4d> Mat4d::inverse() const {
    double adj[4][4];
    const double det = Adjugate(m, adj);
    if (det == 0.0 || !std::isfinite(det)) return std::nullopt;
    const double inv = 1.0 / det;
    Mat4d r;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) {
            r.m[i][j] = adj[i][j] * inv;
            if (!std::isfinite(r.m[i][j])) return std::nullopt;
        }
    return r;
}

Mat4 Mat4d::toFloat() const {
    Mat4 r;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) r.m[i][j] = static_cast<float>(m[i][j]);
    return r;
}

Mat4d Mat4d::FromFloat(const Mat4 &f) {
    Mat4d r;
    for (int i = 0; i < 4; ++i)
        for (int j = 0; j < 4; ++j) r.m[i][j] = static_cast<double>(f.m[i][j]);
    return r;
}

// ---------------------------------------------------------------- double precision

Rigid Rigid::operator*(const Rigid &o) const {
    Rigid out;
    for (std::size_t i = 0; i < 3; ++i) {
        for (std::size_t j = 0; j < 3; ++j)
            out.r[i * 3 + j] = r[i * 3] * o.r[j] + r[i * 3 + 1] * o.r[3 + j] + r[i * 3 + 2] * o.r[6 + j];
        out.p[i] = p[i] + r[i * 3] * o.p[0] + r[i * 3 + 1] * o.p[1] + r[i * 3 + 2] * o.p[2];
    }
    return out;
}

Rigid Rigid::inverse() const {
    Rigid out;
    for (std::size_t i = 0; i < 3; ++i)
        for (std::size_t j = 0; j < 3; ++j) out.r[i * 3 + j] = r[j * 3 + i];
    for (std::size_t i = 0; i < 3; ++i)
        out.p[i] = -(out.r[i * 3] * p[0] + out.r[i * 3 + 1] * p[1] + out.r[i * 3 + 2] * p[2]);
    return out;
}

Rigid Rigid::Rotation(std::size_t axis, double radians) {
    Rigid t;
    const double c = std::cos(radians), s = std::sin(radians);
    if (axis == 0) t.r = {1, 0, 0, 0, c, -s, 0, s, c};
    if (axis == 1) t.r = {c, 0, s, 0, 1, 0, -s, 0, c};
    if (axis == 2) t.r = {c, -s, 0, s, c, 0, 0, 0, 1};
    return t;
}

Quatd QuatFromRigid(const Rigid &t) {
    const auto &m = t.r;
    const double trace = m[0] + m[4] + m[8];
    Quatd q;
    if (trace > 0) {
        const double s = 0.5 / std::sqrt(trace + 1.0);
        q = {0.25 / s, (m[7] - m[5]) * s, (m[2] - m[6]) * s, (m[3] - m[1]) * s};
    } else if (m[0] > m[4] && m[0] > m[8]) {
        const double s = 2.0 * std::sqrt(1.0 + m[0] - m[4] - m[8]);
        q = {(m[7] - m[5]) / s, 0.25 * s, (m[1] + m[3]) / s, (m[2] + m[6]) / s};
    } else if (m[4] > m[8]) {
        const double s = 2.0 * std::sqrt(1.0 + m[4] - m[0] - m[8]);
        q = {(m[2] - m[6]) / s, (m[1] + m[3]) / s, 0.25 * s, (m[5] + m[7]) / s};
    } else {
        const double s = 2.0 * std::sqrt(1.0 + m[8] - m[0] - m[4]);
        q = {(m[3] - m[1]) / s, (m[2] + m[6]) / s, (m[5] + m[7]) / s, 0.25 * s};
    }
    const double len = std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
    if (!(len > 0)) return {};
    return {q.w / len, q.x / len, q.y / len, q.z / len};
}

Rigid RigidFromQuat(const Quatd &q, const Vec3d &p) {
    Rigid t;
    const double w = q.w, x = q.x, y = q.y, z = q.z;
    t.r = {1 - 2 * (y * y + z * z), 2 * (x * y - z * w),     2 * (x * z + y * w),
           2 * (x * y + z * w),     1 - 2 * (x * x + z * z), 2 * (y * z - x * w),
           2 * (x * z - y * w),     2 * (y * z + x * w),     1 - 2 * (x * x + y * y)};
    t.p = p;
    return t;
}

Quatd Slerp(Quatd a, Quatd b, double t) {
    double d = a.w * b.w + a.x * b.x + a.y * b.y + a.z * b.z;
    if (d < 0) {
        b = {-b.w, -b.x, -b.y, -b.z};
        d = -d;
    }
    double wa = 1 - t, wb = t;
    if (d < 0.9999999) {
        const double angle = std::acos(std::min(1.0, d));
        const double s = std::sin(angle);
        wa = std::sin((1 - t) * angle) / s;
        wb = std::sin(t * angle) / s;
    }
    Quatd q{wa * a.w + wb * b.w, wa * a.x + wb * b.x, wa * a.y + wb * b.y, wa * a.z + wb * b.z};
    const double len = std::sqrt(q.w * q.w + q.x * q.x + q.y * q.y + q.z * q.z);
    if (!(len > 0)) return a;
    return {q.w / len, q.x / len, q.y / len, q.z / len};
}

} // namespace gamefmt
