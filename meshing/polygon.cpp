// Planar polygons of 3D outlines (polygon.hpp).
#include "meshing/polygon.hpp"

#include <algorithm>
#include <cmath>

namespace gamefmt::polygon {
namespace {

bool InTriangle(const std::array<double, 2> &q, const std::array<double, 2> &a, const std::array<double, 2> &b,
                const std::array<double, 2> &c) {
    return Cross2(a, b, q) >= 0 && Cross2(b, c, q) >= 0 && Cross2(c, a, q) >= 0;
}

} // namespace

// The right-hand (Newell) normal of a closed outline, twice its vector area.
Vec3d NewellNormal(const std::vector<Vec3d> &pts) {
    Vec3d n;
    for (std::size_t i = 0; i < pts.size(); ++i) {
        const Vec3d &a = pts[i], &b = pts[i + 1 == pts.size() ? 0 : i + 1];
        n.x += (a.y - b.y) * (a.z + b.z);
        n.y += (a.z - b.z) * (a.x + b.x);
        n.z += (a.x - b.x) * (a.y + b.y);
    }
    return n;
}

// The corner polygon projected onto the plane of its Newell normal (2D, orientation kept: CCW positive) into
// `out` (reused storage); left empty when the polygon has no area.
void Project(const std::vector<Vec3d> &pts, std::vector<std::array<double, 2>> &out) {
    out.clear();
    Vec3d n = NewellNormal(pts);
    const double len = n.length();
    if (!(len > 0)) return;
    n = {n.x / len, n.y / len, n.z / len};
    // An orthonormal basis (u, v) of the plane with u × v = n, so projected areas keep their sign.
    const Vec3d helper = std::fabs(n.x) < 0.9 ? Vec3d{1, 0, 0} : Vec3d{0, 1, 0};
    const Vec3d u = helper.cross(n).normalized();
    const Vec3d v = n.cross(u);
    out.resize(pts.size());
    for (std::size_t i = 0; i < pts.size(); ++i)
        out[i] = {pts[i].x * u.x + pts[i].y * u.y + pts[i].z * u.z, pts[i].x * v.x + pts[i].y * v.y + pts[i].z * v.z};
}

double Cross2(const std::array<double, 2> &o, const std::array<double, 2> &a, const std::array<double, 2> &b) {
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

// For an outline without area (collinear corners, or lobes that cancel): drop the axis it spreads least along.
std::vector<std::array<double, 2>> SpreadProjection(const std::vector<Vec3d> &pts) {
    Vec3d lo = pts.front(), hi = pts.front();
    for (const Vec3d &q : pts) {
        lo = {std::min(lo.x, q.x), std::min(lo.y, q.y), std::min(lo.z, q.z)};
        hi = {std::max(hi.x, q.x), std::max(hi.y, q.y), std::max(hi.z, q.z)};
    }
    const double ex = hi.x - lo.x, ey = hi.y - lo.y, ez = hi.z - lo.z;
    std::vector<std::array<double, 2>> out(pts.size());
    for (std::size_t i = 0; i < pts.size(); ++i) {
        const Vec3d &q = pts[i];
        out[i] = ez <= ex && ez <= ey ? std::array<double, 2>{q.x, q.y}
                 : ey <= ex           ? std::array<double, 2>{q.z, q.x}
                                      : std::array<double, 2>{q.y, q.z};
    }
    return out;
}

// True when some corner turns the wrong way (a reflex corner).
bool IsConcave(const std::vector<std::array<double, 2>> &p) {
    const std::size_t n = p.size();
    if (n < 4) return false;
    double scale = 0;
    for (const auto &q : p) scale = std::max({scale, std::fabs(q[0]), std::fabs(q[1])});
    const double eps = 1e-9 * std::max(1.0, scale * scale);
    for (std::size_t i = 0; i < n; ++i)
        if (Cross2(p[i == 0 ? n - 1 : i - 1], p[i], p[i + 1 == n ? 0 : i + 1]) < -eps) return true;
    return false;
}

// True when the outline is convex and simple: no corner turns right, the outline never doubles back on itself,
// and it turns once around (a star or a self-crossing outline turns twice or more). Zero-length edges (repeated
// corners) are skipped.
bool IsConvexSimple(const std::vector<std::array<double, 2>> &p) {
    constexpr double kTwoPi = 6.283185307179586;
    const std::size_t n = p.size();
    double scale = 0;
    for (const auto &q : p) scale = std::max({scale, std::fabs(q[0]), std::fabs(q[1])});
    const double eps = 1e-9 * std::max(1.0, scale * scale);
    std::vector<std::array<double, 2>> edges;
    edges.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        const std::array<double, 2> e{p[(i + 1) % n][0] - p[i][0], p[(i + 1) % n][1] - p[i][1]};
        if (e[0] != 0 || e[1] != 0) edges.push_back(e);
    }
    if (edges.size() < 3) return false;
    double turning = 0;
    for (std::size_t i = 0; i < edges.size(); ++i) {
        const auto &a = edges[i], &b = edges[(i + 1) % edges.size()];
        const double cross = a[0] * b[1] - a[1] * b[0], dot = a[0] * b[0] + a[1] * b[1];
        if (cross < -eps) return false;            // a reflex corner
        if (cross <= eps && dot < 0) return false; // a spike
        turning += std::atan2(cross, dot);
    }
    return std::fabs(turning - kTwoPi) < 1e-3;
}

// A quad that is plainly convex, decided without projecting it: at every corner the turn (a × b, a and b the
// edges in and out) points along the Newell normal N by far more than rounding could explain. Projected onto
// N's plane (Project), a turn is (a × b)·N / |N|, so such a quad has no corner IsConcave could call reflex
// (its threshold is −1e-9·scale², rounding there ~1e-16·scale²). Anything closer to flat or reflex answers
// false and takes the exact path; the answer never differs from IsConcave's, only the cost.
bool PlainlyConvexQuad(const std::vector<Vec3d> &pts) {
    const Vec3d n = NewellNormal(pts);
    const double nSize = std::fabs(n.x) + std::fabs(n.y) + std::fabs(n.z);
    for (std::size_t i = 0; i < 4; ++i) {
        const Vec3d &prev = pts[(i + 3) & 3], &cur = pts[i], &next = pts[(i + 1) & 3];
        const Vec3d a{cur.x - prev.x, cur.y - prev.y, cur.z - prev.z},
            b{next.x - cur.x, next.y - cur.y, next.z - cur.z};
        const Vec3d turn = a.cross(b);
        const double along = turn.x * n.x + turn.y * n.y + turn.z * n.z;
        const double size = (std::fabs(a.x) + std::fabs(a.y) + std::fabs(a.z)) *
                            (std::fabs(b.x) + std::fabs(b.y) + std::fabs(b.z)) * nSize;
        if (!(along > 1e-6 * size)) return false;
    }
    return true;
}

// Ear clipping of a CCW polygon: exactly n − 2 triangles of local corner indices (degenerate input still
// yields n − 2, some of them without area). The triangle holding corner 0 comes first, starting with it.
// Cost is bounded for hostile files (a face has up to 255 corners and a file can hold thousands of faces):
// only corners that are not strictly convex can lie inside an ear of a simple polygon, so only those are
// tested; the search resumes beside the last ear instead of at corner 0; and after kEarTestBudget containment
// tests a face is finished by cutting its flattest corners (still n − 2 triangles, maybe slivers).
std::vector<std::array<std::uint32_t, 3>> EarClip(const std::vector<std::array<double, 2>> &p) {
    constexpr std::size_t kEarTestBudget = 1u << 16;
    std::vector<std::uint32_t> ring(p.size());
    for (std::size_t i = 0; i < p.size(); ++i) ring[i] = static_cast<std::uint32_t>(i);
    std::vector<std::array<std::uint32_t, 3>> tris;
    tris.reserve(p.size() - 2);
    std::vector<std::uint32_t> blockers; // ring entries that are reflex or flat, rebuilt per clip
    std::size_t tests = 0, start = 0;
    while (ring.size() > 3) {
        const std::size_t n = ring.size();
        std::size_t chosen = n;
        if (tests < kEarTestBudget) {
            blockers.clear();
            for (std::size_t i = 0; i < n; ++i)
                if (Cross2(p[ring[(i + n - 1) % n]], p[ring[i]], p[ring[(i + 1) % n]]) <= 0)
                    blockers.push_back(ring[i]);
            for (std::size_t k = 0; k < n && chosen == n; ++k) {
                const std::size_t i = (start + k) % n;
                const std::uint32_t a = ring[(i + n - 1) % n], b = ring[i], c = ring[(i + 1) % n];
                if (Cross2(p[a], p[b], p[c]) <= 0) continue; // reflex or flat: not an ear
                bool blocked = false;
                for (std::size_t j = 0; j < blockers.size() && !blocked; ++j) {
                    const std::uint32_t q = blockers[j];
                    if (q == a || q == b || q == c) continue;
                    if (p[q] == p[a] || p[q] == p[b] || p[q] == p[c]) continue; // a repeated corner
                    ++tests;
                    blocked = InTriangle(p[q], p[a], p[b], p[c]);
                }
                if (!blocked) chosen = i;
            }
        }
        if (chosen == n) {
            // No proper ear (self-touching or degenerate outline, or the budget is spent): cut the flattest
            // convex-or-flat corner.
            double best = -1e300;
            for (std::size_t i = 0; i < n; ++i) {
                const double c = Cross2(p[ring[(i + n - 1) % n]], p[ring[i]], p[ring[(i + 1) % n]]);
                if (c > best) {
                    best = c;
                    chosen = i;
                }
            }
        }
        start = chosen == 0 ? 0 : chosen - 1; // the corners beside the cut are the ones that changed
        tris.push_back({ring[(chosen + n - 1) % n], ring[chosen], ring[(chosen + 1) % n]});
        ring.erase(ring.begin() + static_cast<std::ptrdiff_t>(chosen));
    }
    tris.push_back({ring[0], ring[1], ring[2]});
    for (std::size_t t = 0; t < tris.size(); ++t) {
        auto &tri = tris[t];
        const auto at = std::find(tri.begin(), tri.end(), 0u);
        if (at == tri.end()) continue;
        std::rotate(tri.begin(), at, tri.end());
        std::rotate(tris.begin(), tris.begin() + static_cast<std::ptrdiff_t>(t),
                    tris.begin() + static_cast<std::ptrdiff_t>(t) + 1);
        break;
    }
    return tris;
}

} // namespace gamefmt::polygon
