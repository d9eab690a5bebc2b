// Small vector / quaternion / matrix math for codecs, without Assimp.
//
// Conventions are Assimp's, so the glue converts by copying fields:
//  - Mat4 is row-major, m[row][col], and transforms column vectors: p' = M * p. The translation is in
//    m[0][3], m[1][3], m[2][3] (aiMatrix4x4 a4, b4, c4).
//  - A * B applies B first, then A (for matrices and for quaternions).
//  - Quat is (w, x, y, z) like aiQuaternion; rotations are right-handed (counter-clockwise when the
//    axis points at the viewer), angles in radians.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <optional>

namespace gamefmt {

struct Vec3 {
    float x = 0, y = 0, z = 0;

    constexpr Vec3() = default;
    constexpr Vec3(float x_, float y_, float z_) : x(x_), y(y_), z(z_) {}

    constexpr Vec3 operator+(const Vec3 &o) const { return {x + o.x, y + o.y, z + o.z}; }
    constexpr Vec3 operator-(const Vec3 &o) const { return {x - o.x, y - o.y, z - o.z}; }
    constexpr Vec3 operator-() const { return {-x, -y, -z}; }
    constexpr Vec3 operator*(float s) const { return {x * s, y * s, z * s}; }
    Vec3 &operator+=(const Vec3 &o) { return *this = *this + o; }
    Vec3 &operator-=(const Vec3 &o) { return *this = *this - o; }
    Vec3 &operator*=(float s) { return *this = *this * s; }
    constexpr bool operator==(const Vec3 &o) const { return x == o.x && y == o.y && z == o.z; }
    constexpr bool operator!=(const Vec3 &o) const { return !(*this == o); }

    constexpr float dot(const Vec3 &o) const { return x * o.x + y * o.y + z * o.z; }
    constexpr Vec3 cross(const Vec3 &o) const { return {y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x}; }
    constexpr float lengthSquared() const { return dot(*this); }
    float length() const { return std::sqrt(lengthSquared()); }
    // The zero vector stays zero rather than becoming NaN.
    Vec3 normalized() const {
        const float len = length();
        return len > 0 ? *this * (1.0f / len) : Vec3();
    }
};

constexpr Vec3 operator*(float s, const Vec3 &v) {
    return v * s;
}

struct Mat4;

struct Quat {
    float w = 1, x = 0, y = 0, z = 0;

    constexpr Quat() = default;
    constexpr Quat(float w_, float x_, float y_, float z_) : w(w_), x(x_), y(y_), z(z_) {}

    // A rotation of `radians` about `axis` (normalized here; a zero axis gives the identity).
    static Quat FromAxisAngle(const Vec3 &axis, float radians);
    // The rotation in the upper-left 3x3 of `m`, which must be orthonormal (no scale or shear).
    static Quat FromMatrix(const Mat4 &m);

    // The Hamilton product: (a * b).Rotate(v) == a.Rotate(b.Rotate(v)).
    constexpr Quat operator*(const Quat &o) const {
        return {w * o.w - x * o.x - y * o.y - z * o.z, w * o.x + x * o.w + y * o.z - z * o.y,
                w * o.y - x * o.z + y * o.w + z * o.x, w * o.z + x * o.y - y * o.x + z * o.w};
    }
    constexpr bool operator==(const Quat &o) const { return w == o.w && x == o.x && y == o.y && z == o.z; }
    constexpr bool operator!=(const Quat &o) const { return !(*this == o); }

    constexpr Quat conjugate() const { return {w, -x, -y, -z}; }
    constexpr float dot(const Quat &o) const { return w * o.w + x * o.x + y * o.y + z * o.z; }
    float length() const { return std::sqrt(dot(*this)); }
    // A zero quaternion becomes the identity rather than NaN.
    Quat normalized() const {
        const float len = length();
        if (!(len > 0)) return Quat();
        const float inv = 1.0f / len;
        return {w * inv, x * inv, y * inv, z * inv};
    }
    // Rotates `v` by this unit quaternion (q v q*, without forming the products).
    constexpr Vec3 rotate(const Vec3 &v) const {
        const Vec3 u(x, y, z);
        const Vec3 t = u.cross(v) * 2.0f;
        return v + t * w + u.cross(t);
    }
    Mat4 toMatrix() const;
};

struct Mat4 {
    float m[4][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};

    constexpr Mat4() = default; // the identity

    static constexpr Mat4 Identity() { return Mat4(); }
    static Mat4 FromTranslation(const Vec3 &t);
    static Mat4 FromScale(const Vec3 &s);
    static Mat4 FromRotation(const Quat &q) { return q.toMatrix(); }
    // Rotations of `radians` about one axis (right-handed), from the angle's cosine and sine.
    static Mat4 RotationX(float radians);
    static Mat4 RotationY(float radians);
    static Mat4 RotationZ(float radians);
    // The Roblox CFrame layout: `rotation` holds the 9 floats R00 R01 R02 R10 R11 R12 R20 R21 R22 and
    // the matrix is rows (R00 R01 R02 X) (R10 R11 R12 Y) (R20 R21 R22 Z) (0 0 0 1).
    static Mat4 FromRowMajor3x4(const float *rotation, const Vec3 &translation);
    // The inverse of FromRowMajor3x4 for an affine matrix: writes 9 floats to `rotation`.
    void toRowMajor3x4(float *rotation, Vec3 &position) const;

    Mat4 operator*(const Mat4 &o) const;
    bool operator==(const Mat4 &o) const;
    // Equal within a relative 1e-4 in the first `rows` rows (3: an affine matrix's meaningful part).
    bool nearlyEquals(const Mat4 &o, int rows = 4) const;
    bool operator!=(const Mat4 &o) const { return !(*this == o); }

    // Affine use, as aiMatrix4x4 * aiVector3D: the bottom row is ignored (no perspective divide).
    Vec3 transformPoint(const Vec3 &p) const {
        return {m[0][0] * p.x + m[0][1] * p.y + m[0][2] * p.z + m[0][3],
                m[1][0] * p.x + m[1][1] * p.y + m[1][2] * p.z + m[1][3],
                m[2][0] * p.x + m[2][1] * p.y + m[2][2] * p.z + m[2][3]};
    }
    // The upper-left 3x3 only: directions and offsets, which translation must not move.
    Vec3 transformVector(const Vec3 &v) const {
        return {m[0][0] * v.x + m[0][1] * v.y + m[0][2] * v.z, m[1][0] * v.x + m[1][1] * v.y + m[1][2] * v.z,
                m[2][0] * v.x + m[2][1] * v.y + m[2][2] * v.z};
    }
    Vec3 translation() const { return {m[0][3], m[1][3], m[2][3]}; }

    Mat4 transpose() const;
    float determinant() const;
    // The general 4x4 inverse (computed in double), or nullopt when the matrix is singular or its
    // inverse is not representable in float.
    std::optional<Mat4> inverse() const;
};

// The same conventions in double, for chains of products (skeleton world matrices, bind matrices stored as
// doubles) whose rounding must not accumulate between steps.
struct Mat4d {
    double m[4][4] = {{1, 0, 0, 0}, {0, 1, 0, 0}, {0, 0, 1, 0}, {0, 0, 0, 1}};

    Mat4d operator*(const Mat4d &o) const;
    // nullopt when singular or not finite.
    std::optional<Mat4d> inverse() const;
    Mat4 toFloat() const;
    static Mat4d FromFloat(const Mat4 &f);
};

// ---------------------------------------------------------------- double precision: rigid transforms
// Rig and animation chains (Roblox CFrames, joints, poses), polygon normals: double so that rounding does not
// accumulate between steps. Same conventions as above.

struct Vec3d {
    double x = 0, y = 0, z = 0;

    constexpr double operator[](std::size_t i) const { return i == 0 ? x : i == 1 ? y : z; }
    double &operator[](std::size_t i) { return i == 0 ? x : i == 1 ? y : z; }
    constexpr Vec3d operator+(const Vec3d &o) const { return {x + o.x, y + o.y, z + o.z}; }
    constexpr Vec3d operator-(const Vec3d &o) const { return {x - o.x, y - o.y, z - o.z}; }
    constexpr Vec3d operator*(double s) const { return {x * s, y * s, z * s}; }
    constexpr bool operator==(const Vec3d &o) const { return x == o.x && y == o.y && z == o.z; }
    constexpr bool operator!=(const Vec3d &o) const { return !(*this == o); }

    constexpr double dot(const Vec3d &o) const { return x * o.x + y * o.y + z * o.z; }
    constexpr Vec3d cross(const Vec3d &o) const { return {y * o.z - z * o.y, z * o.x - x * o.z, x * o.y - y * o.x}; }
    double length() const { return std::sqrt(dot(*this)); }
    // Each component divided by the length; a zero, infinite or NaN length gives the zero vector.
    Vec3d normalized() const {
        const double l = length();
        return l > 0 && std::isfinite(l) ? Vec3d{x / l, y / l, z / l} : Vec3d{};
    }
};

struct Quatd {
    double w = 1, x = 0, y = 0, z = 0;
};

// A rigid transform: position and row-major rotation (columns are the frame's axes), applied as (p, R)·x = p + R x;
// `a * b` applies b first. A Roblox CFrame is exactly this layout (docs/formats/roblox-model.md §2.4).
struct Rigid {
    Vec3d p;
    std::array<double, 9> r{1, 0, 0, 0, 1, 0, 0, 0, 1};

    Rigid operator*(const Rigid &o) const;
    Rigid inverse() const; // (−Rᵀp, Rᵀ)
    // A rotation of `radians` about axis 0 (X), 1 (Y) or 2 (Z), right-handed; any other axis gives the identity.
    static Rigid Rotation(std::size_t axis, double radians);
    Vec3d column(std::size_t c) const { return {r[c], r[3 + c], r[6 + c]}; }
};

Quatd QuatFromRigid(const Rigid &t); // unit quaternion of the (orthonormal) rotation
Rigid RigidFromQuat(const Quatd &q, const Vec3d &p);
// Spherical interpolation along the shorter arc; `t` may leave [0, 1] (an elastic ease overshoots).
Quatd Slerp(Quatd a, Quatd b, double t);

} // namespace gamefmt
