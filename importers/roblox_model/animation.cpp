// Roblox rigs and animations (animation.hpp; docs/formats/roblox-model.md §5.6).
#include "importers/roblox_model/animation.hpp"

#include "common/ascii.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <numeric>
#include <unordered_map>
#include <utility>

namespace gamefmt::rbx {

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

namespace {

using V3 = std::array<double, 3>;

double Dot(const V3 &a, const V3 &b) {
    return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
}
V3 Cross(const V3 &a, const V3 &b) {
    return {a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]};
}
V3 Scaled(const V3 &a, double s) {
    return {a[0] * s, a[1] * s, a[2] * s};
}
V3 Minus(const V3 &a, const V3 &b) {
    return {a[0] - b[0], a[1] - b[1], a[2] - b[2]};
}

} // namespace

Rigid RigidFromCFrame(const CFrame &cf, bool *repaired) {
    Rigid t;
    bool fixed = false;
    const float pos[3] = {cf.position.x, cf.position.y, cf.position.z};
    for (std::size_t i = 0; i < 3; ++i) {
        if (std::isfinite(pos[i])) {
            t.p[i] = pos[i];
        } else {
            fixed = true;
        }
    }
    bool finite = true;
    for (float v : cf.rotation) finite = finite && std::isfinite(v);
    V3 x{cf.rotation[0], cf.rotation[3], cf.rotation[6]}, y{cf.rotation[1], cf.rotation[4], cf.rotation[7]},
        z{cf.rotation[2], cf.rotation[5], cf.rotation[8]};
    double drift = finite ? 0.0 : 1.0;
    if (finite) {
        const double d[6] = {Dot(x, x) - 1, Dot(y, y) - 1, Dot(z, z) - 1, Dot(x, y), Dot(x, z), Dot(y, z)};
        for (double v : d) drift = std::max(drift, std::fabs(v));
        if (Dot(x, Cross(y, z)) < 0) drift = 2;
    }
    if (drift > 1e-6) {
        // Stored rotations are float32 and only nearly orthonormal (§5.1): re-orthonormalise in double. Small drift
        // is rounding, not damage; only a rotation that was not one at all counts as repaired.
        if (drift > 1e-3) fixed = true;
        const double lx = finite ? std::sqrt(Dot(x, x)) : 0;
        if (!(lx > 1e-9)) {
            x = {1, 0, 0}, y = {0, 1, 0};
        } else {
            x = Scaled(x, 1 / lx);
        }
        y = Minus(y, Scaled(x, Dot(x, y)));
        double ly = std::sqrt(Dot(y, y));
        if (!(ly > 1e-6)) {
            y = Cross(std::fabs(x[0]) < 0.9 ? V3{1, 0, 0} : V3{0, 1, 0}, x);
            ly = std::sqrt(Dot(y, y));
        }
        y = Scaled(y, 1 / ly);
        z = Cross(x, y);
    }
    for (std::size_t i = 0; i < 3; ++i) {
        t.r[i * 3] = x[i];
        t.r[i * 3 + 1] = y[i];
        t.r[i * 3 + 2] = z[i];
    }
    if (repaired != nullptr) *repaired = fixed;
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

Rigid RigidFromQuat(const Quatd &q, const V3 &p) {
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

namespace {

constexpr double kPi = 3.14159265358979323846;

double BounceOut(double x) { // §5.3 B(x)
    if (x < 4.0 / 11) return 7.5625 * x * x;
    if (x < 8.0 / 11) return 7.5625 * (x - 6.0 / 11) * (x - 6.0 / 11) + 0.75;
    if (x < 10.0 / 11) return 7.5625 * (x - 9.0 / 11) * (x - 9.0 / 11) + 0.9375;
    return 7.5625 * (x - 21.0 / 22) * (x - 21.0 / 22) + 0.984375;
}

double Elastic(std::uint32_t direction, double u) {
    if (direction == 1) {
        const double p = 0.3, s = p / 4;
        return 1 + std::pow(2.0, -10 * u) * std::sin((u - s) * 2 * kPi / p);
    }
    if (direction == 2) {
        const double p = 0.45, s = p / 4, w = 2 * u - 1;
        if (w < 0) return -0.5 * std::pow(2.0, 10 * w) * std::sin((w - s) * 2 * kPi / p);
        return 1 + 0.5 * std::pow(2.0, -10 * w) * std::sin((w - s) * 2 * kPi / p);
    }
    const double p = 0.3, s = p / 4;
    return -std::pow(2.0, 10 * (u - 1)) * std::sin((u - 1 - s) * 2 * kPi / p);
}

double CubicIn(double u) { // slow start (CubicV2 In, legacy Cubic Out)
    return u * u * u;
}
double CubicOut(double u) {
    return 1 - (1 - u) * (1 - u) * (1 - u);
}
double CubicInOut(double u) {
    return u < 0.5 ? 4 * u * u * u : 1 - 4 * (1 - u) * (1 - u) * (1 - u);
}

} // namespace

double Ease(std::uint32_t style, std::uint32_t direction, double u) {
    u = std::clamp(u, 0.0, 1.0);
    if (direction > 2) direction = 0;
    switch (style) {
    case 1: // Constant
        if (direction == 0) return u > 0 ? 1 : 0;
        if (direction == 1) return u >= 1 ? 1 : 0;
        return u >= 0.5 ? 1 : 0;
    case 2:
        return Elastic(direction, u);
    case 3: // legacy Cubic: In/Out the other way round
        return direction == 0 ? CubicOut(u) : direction == 1 ? CubicIn(u) : CubicInOut(u);
    case 4:
        if (direction == 0) return 1 - BounceOut(1 - u);
        if (direction == 1) return BounceOut(u);
        return u < 0.5 ? 0.5 - 0.5 * BounceOut(1 - 2 * u) : 1 - 0.5 * BounceOut(2 - 2 * u);
    case 5:
        return direction == 0 ? CubicIn(u) : direction == 1 ? CubicOut(u) : CubicInOut(u);
    default:
        return u;
    }
}

Rigid EvaluateTrack(const Track &track, double t) {
    const auto &k = track.keys;
    if (k.empty()) return {};
    if (!(t > k.front().time)) return RigidFromQuat(k.front().q, k.front().p);
    if (t >= k.back().time) return RigidFromQuat(k.back().q, k.back().p);
    const auto next =
        std::upper_bound(k.begin(), k.end(), t, [](double v, const PoseKey &key) { return v < key.time; });
    const PoseKey &b = *next;
    const PoseKey &a = *(next - 1);
    const double u = (t - a.time) / (b.time - a.time);
    const double alpha = Ease(a.style, a.direction, u);
    V3 p;
    for (std::size_t i = 0; i < 3; ++i) p[i] = a.p[i] + alpha * (b.p[i] - a.p[i]);
    return RigidFromQuat(Slerp(a.q, b.q, alpha), p);
}

} // namespace gamefmt::rbx
