// Layered clothing fitting (cage_fit.hpp; docs/formats/roblox-avatar.md §3).
#include "meshing/cage_fit.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <numeric>
#include <set>
#include <utility>

namespace gamefmt::meshing {
namespace {

constexpr double kUvQuantum = 1000; // §3.2: UVs rounded to 1/1000
constexpr double kCoincide = 1e-3;  // §3.3: cages closer than this count as the same
constexpr double kDuplicate = 1e-9; // samples this close are one
// Cost caps (hostile cages): at most this many samples, centres at least every kMaxStride-th sample, and at most
// kMaxCell of a centre's own samples in its patch (nearest first): a patch's system is then at most
// kMaxCell + nearest + important unknowns.
constexpr std::size_t kMaxSamples = 65536, kMaxStride = 32, kMaxCell = 128;

using UvKey = std::pair<std::int64_t, std::int64_t>;

UvKey KeyOf(const std::array<double, 2> &uv) {
    const auto q = [](double v) {
        const double r = std::round(v * kUvQuantum);
        return std::isfinite(r) ? static_cast<std::int64_t>(std::clamp(r, -1e15, 1e15)) : std::int64_t(0);
    };
    return {q(uv[0]), q(uv[1])};
}

double Distance(const Vec3d &a, const Vec3d &b) {
    const Vec3d d = a - b;
    return std::sqrt(d.dot(d));
}

// Solves M x = b for three right-hand sides (the columns of `rhs`) by LU with partial pivoting; M is n×n row-major.
// A pivot below `tiny` is replaced by it (the system is regularised already; this only keeps a degenerate patch
// finite).
void Solve(std::vector<double> &m, std::vector<Vec3d> &rhs, std::size_t n) {
    constexpr double kTiny = 1e-12;
    for (std::size_t k = 0; k < n; ++k) {
        std::size_t pivot = k;
        for (std::size_t r = k + 1; r < n; ++r)
            if (std::fabs(m[r * n + k]) > std::fabs(m[pivot * n + k])) pivot = r;
        if (pivot != k) {
            for (std::size_t c = 0; c < n; ++c) std::swap(m[k * n + c], m[pivot * n + c]);
            std::swap(rhs[k], rhs[pivot]);
        }
        double diag = m[k * n + k];
        if (std::fabs(diag) < kTiny) diag = m[k * n + k] = diag < 0 ? -kTiny : kTiny;
        for (std::size_t r = k + 1; r < n; ++r) {
            const double f = m[r * n + k] / diag;
            if (f == 0) continue;
            for (std::size_t c = k; c < n; ++c) m[r * n + c] -= f * m[k * n + c];
            rhs[r] = rhs[r] - rhs[k] * f;
        }
    }
    for (std::size_t k = n; k-- > 0;) {
        Vec3d acc = rhs[k];
        for (std::size_t c = k + 1; c < n; ++c) acc = acc - rhs[c] * m[k * n + c];
        rhs[k] = acc * (1.0 / m[k * n + k]);
    }
}

// Whether the samples span 3D (not all on a plane or a line): the determinant of their covariance, against its
// trace cubed.
bool SpansSpace(const std::vector<Vec3d> &points, const std::vector<std::uint32_t> &which, const Vec3d &centre) {
    if (which.size() < 4) return false;
    double c[3][3] = {{0, 0, 0}, {0, 0, 0}, {0, 0, 0}};
    Vec3d mean;
    for (std::uint32_t i : which) mean = mean + (points[i] - centre);
    mean = mean * (1.0 / static_cast<double>(which.size()));
    for (std::uint32_t i : which) {
        const Vec3d d = points[i] - centre - mean;
        for (int r = 0; r < 3; ++r)
            for (int k = 0; k < 3; ++k) c[r][k] += d[static_cast<std::size_t>(r)] * d[static_cast<std::size_t>(k)];
    }
    const double det = c[0][0] * (c[1][1] * c[2][2] - c[1][2] * c[2][1]) -
                       c[0][1] * (c[1][0] * c[2][2] - c[1][2] * c[2][0]) +
                       c[0][2] * (c[1][0] * c[2][1] - c[1][1] * c[2][0]);
    const double trace = c[0][0] + c[1][1] + c[2][2];
    return trace > 0 && det > 1e-6 * trace * trace * trace;
}

} // namespace

NearestPoint::NearestPoint(const std::vector<Vec3d> &points) : mPoints(points) {
    if (mPoints.empty()) return;
    Vec3d lo = mPoints[0], hi = mPoints[0];
    for (const Vec3d &p : mPoints)
        for (std::size_t a = 0; a < 3; ++a) {
            if (!std::isfinite(p[a])) continue;
            lo[a] = std::min(lo[a], p[a]);
            hi[a] = std::max(hi[a], p[a]);
        }
    mLo = lo;
    const Vec3d extent = hi - lo;
    const double volume = std::max(extent.x, 1e-9) * std::max(extent.y, 1e-9) * std::max(extent.z, 1e-9);
    const double largest = std::max({extent.x, extent.y, extent.z, 1e-9});
    // About two points per cell, at most 64 cells along an axis (a flat or thin set still has few cells).
    mCell = std::max(std::cbrt(2.0 * volume / static_cast<double>(mPoints.size())), largest / 64);
    if (!(mCell > 0) || !std::isfinite(mCell)) mCell = 1;
    for (std::size_t a = 0; a < 3; ++a)
        mDims[a] = std::clamp<std::int64_t>(static_cast<std::int64_t>(extent[a] / mCell) + 1, 1, 64);
    const auto cellOf = [&](const Vec3d &p) {
        std::int64_t c[3];
        for (std::size_t a = 0; a < 3; ++a) {
            const double f = std::isfinite(p[a]) ? std::floor((p[a] - mLo[a]) / mCell) : 0.0;
            c[a] = std::clamp<std::int64_t>(static_cast<std::int64_t>(std::clamp(f, -1.0, 1e6)), 0, mDims[a] - 1);
        }
        return static_cast<std::size_t>((c[2] * mDims[1] + c[1]) * mDims[0] + c[0]);
    };
    const auto cells = static_cast<std::size_t>(mDims[0] * mDims[1] * mDims[2]);
    mStart.assign(cells + 1, 0);
    for (const Vec3d &p : mPoints) ++mStart[cellOf(p) + 1];
    for (std::size_t c = 0; c < cells; ++c) mStart[c + 1] += mStart[c];
    mItems.resize(mPoints.size());
    std::vector<std::uint32_t> fill(mStart.begin(), mStart.end() - 1);
    for (std::size_t i = 0; i < mPoints.size(); ++i) mItems[fill[cellOf(mPoints[i])]++] = static_cast<std::uint32_t>(i);
}

std::size_t NearestPoint::find(const Vec3d &q) const {
    if (mPoints.empty()) return 0;
    std::int64_t c[3];
    for (std::size_t a = 0; a < 3; ++a) {
        const double f = std::isfinite(q[a]) ? std::floor((q[a] - mLo[a]) / mCell) : 0.0;
        c[a] = std::clamp<std::int64_t>(static_cast<std::int64_t>(std::clamp(f, -1e6, 1e6)), 0, mDims[a] - 1);
    }
    std::size_t best = 0;
    double bestDistance = std::numeric_limits<double>::infinity();
    const std::int64_t maxRing = std::max({mDims[0], mDims[1], mDims[2]});
    for (std::int64_t ring = 0; ring <= maxRing; ++ring) {
        // Every cell on the shell at Chebyshev distance `ring` from the query's cell.
        for (std::int64_t z = c[2] - ring; z <= c[2] + ring; ++z) {
            if (z < 0 || z >= mDims[2]) continue;
            for (std::int64_t y = c[1] - ring; y <= c[1] + ring; ++y) {
                if (y < 0 || y >= mDims[1]) continue;
                const bool inner = z != c[2] - ring && z != c[2] + ring && y != c[1] - ring && y != c[1] + ring;
                for (std::int64_t x = c[0] - ring; x <= c[0] + ring; x += (inner && ring > 0) ? 2 * ring : 1) {
                    if (x < 0 || x >= mDims[0]) continue;
                    const auto cell = static_cast<std::size_t>((z * mDims[1] + y) * mDims[0] + x);
                    for (std::uint32_t k = mStart[cell]; k < mStart[cell + 1]; ++k) {
                        const std::uint32_t i = mItems[k];
                        const double d = Distance(mPoints[i], q);
                        if (d < bestDistance || (d == bestDistance && i < best)) {
                            bestDistance = d;
                            best = i;
                        }
                    }
                }
            }
        }
        // Points beyond this shell are at least `ring` cells away (less the query's offset inside its cell).
        if (bestDistance < static_cast<double>(ring) * mCell) break;
    }
    if (!std::isfinite(bestDistance)) { // non-finite points only: the first
        for (std::size_t i = 0; i < mPoints.size(); ++i)
            if (Distance(mPoints[i], q) < bestDistance) bestDistance = Distance(mPoints[i], q), best = i;
    }
    return best;
}

std::vector<std::int64_t> MatchByUv(const Cage &from, const Cage &to) {
    std::map<UvKey, std::int64_t> index;
    for (std::size_t i = 0; i < to.uvs.size() && i < to.positions.size(); ++i)
        index[KeyOf(to.uvs[i])] = static_cast<std::int64_t>(i); // the last wins
    std::vector<std::int64_t> out(from.positions.size(), -1);
    for (std::size_t i = 0; i < out.size() && i < from.uvs.size(); ++i) {
        const auto it = index.find(KeyOf(from.uvs[i]));
        if (it != index.end()) out[i] = it->second;
    }
    return out;
}

CageDeformer::CageDeformer(const std::vector<Vec3d> &from, const std::vector<Vec3d> &to, const FitOptions &options) {
    // Samples, duplicates dropped (the first kept): a repeated point would make the system singular.
    std::map<std::array<std::int64_t, 3>, bool> seen;
    for (std::size_t i = 0; i < from.size() && i < to.size(); ++i) {
        const Vec3d &p = from[i];
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z) || !std::isfinite(to[i].x) ||
            !std::isfinite(to[i].y) || !std::isfinite(to[i].z))
            continue;
        const auto q = [](double v) {
            return static_cast<std::int64_t>(std::llround(std::clamp(v / kDuplicate, -9e17, 9e17)));
        };
        if (!seen.emplace(std::array<std::int64_t, 3>{q(p.x), q(p.y), q(p.z)}, true).second) continue;
        mSamples.push_back(p);
        mOffsets.push_back(to[i] - p);
    }
    if (mSamples.size() > kMaxSamples) {
        mSamples.resize(kMaxSamples);
        mOffsets.resize(kMaxSamples);
    }
    const std::size_t n = mSamples.size();
    if (n == 0) return;
    const std::size_t stride = std::clamp<std::size_t>(n / std::max<std::size_t>(1, options.patches), 1, kMaxStride);
    for (std::size_t i = 0; i < n; i += stride) mCentres.push_back(static_cast<std::uint32_t>(i));
    mPatches.resize(mCentres.size());
    std::vector<Vec3d> centres;
    for (std::uint32_t c : mCentres) centres.push_back(mSamples[c]);
    mCentreIndex = std::make_unique<NearestPoint>(centres);
    // Each sample in the patch of its nearest centre (the same rule apply() uses, so it is interpolated exactly).
    for (std::size_t i = 0; i < n; ++i)
        mPatches[nearestCentre(mSamples[i])].samples.push_back(static_cast<std::uint32_t>(i));
    std::vector<std::uint32_t> important;
    const std::size_t count = std::min(n, options.important);
    for (std::size_t i = 0; i < count; ++i) important.push_back(static_cast<std::uint32_t>(i * n / count));
    std::vector<std::uint32_t> order(n);
    for (std::size_t c = 0; c < mCentres.size(); ++c) {
        Patch &patch = mPatches[c];
        const Vec3d centre = mSamples[mCentres[c]];
        const auto closer = [&](std::uint32_t a, std::uint32_t b) {
            return Distance(mSamples[a], centre) < Distance(mSamples[b], centre);
        };
        if (patch.samples.size() > kMaxCell) {
            std::partial_sort(patch.samples.begin(), patch.samples.begin() + kMaxCell, patch.samples.end(), closer);
            patch.samples.resize(kMaxCell);
        }
        std::iota(order.begin(), order.end(), 0u);
        const std::size_t near = std::min(n, options.nearest);
        std::partial_sort(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(near), order.end(), closer);
        std::set<std::uint32_t> members(patch.samples.begin(), patch.samples.end());
        members.insert(order.begin(), order.begin() + static_cast<std::ptrdiff_t>(near));
        members.insert(important.begin(), important.end());
        patch.samples.assign(members.begin(), members.end());
        // [A + εI, P; Pᵀ, 0] [w; c] = [d; 0], A_jk = |p_j − p_k|, P_j = (1, p_j − centre) when the samples span 3D
        // (the field then keeps affine maps exactly), else P_j = (1).
        const std::size_t m = patch.samples.size();
        patch.origin = centre;
        patch.affine = SpansSpace(mSamples, patch.samples, centre);
        const std::size_t terms = patch.affine ? 4 : 1, size = m + terms;
        std::vector<double> a(size * size, 0.0);
        std::vector<Vec3d> rhs(size);
        for (std::size_t j = 0; j < m; ++j) {
            const Vec3d pj = mSamples[patch.samples[j]];
            for (std::size_t k = 0; k < m; ++k)
                a[j * size + k] = Distance(pj, mSamples[patch.samples[k]]) + (j == k ? options.epsilon : 0.0);
            const Vec3d rel = pj - centre;
            const double poly[4] = {1, rel.x, rel.y, rel.z};
            for (std::size_t t = 0; t < terms; ++t) a[j * size + m + t] = a[(m + t) * size + j] = poly[t];
            rhs[j] = mOffsets[patch.samples[j]];
            patch.bound = std::max(patch.bound, Distance(rhs[j], Vec3d{}));
        }
        Solve(a, rhs, size);
        patch.weights.assign(rhs.begin(), rhs.begin() + static_cast<std::ptrdiff_t>(m));
        patch.constant = rhs[m];
        if (patch.affine)
            for (std::size_t t = 0; t < 3; ++t) patch.linear[t] = rhs[m + 1 + t];
    }
}

std::size_t CageDeformer::nearestCentre(const Vec3d &v) const {
    return mCentreIndex != nullptr ? mCentreIndex->find(v) : 0;
}

Vec3d CageDeformer::apply(const Vec3d &v) const {
    if (mPatches.empty() || !std::isfinite(v.x) || !std::isfinite(v.y) || !std::isfinite(v.z)) return v;
    const Patch &patch = mPatches[nearestCentre(v)];
    Vec3d d = patch.constant;
    if (patch.affine) {
        const Vec3d rel = v - patch.origin;
        d = d + patch.linear[0] * rel.x + patch.linear[1] * rel.y + patch.linear[2] * rel.z;
    }
    for (std::size_t k = 0; k < patch.samples.size(); ++k)
        d = d + patch.weights[k] * Distance(v, mSamples[patch.samples[k]]);
    const double length = Distance(d, Vec3d{});
    if (!(length <= patch.bound)) d = std::isfinite(length) && length > 0 ? d * (patch.bound / length) : Vec3d{};
    return v + d;
}

LayerFit FitLayer(const Cage &target, const Cage &inner, const Cage &outer, const std::vector<Vec3d> &mesh,
                  const FitOptions &meshOptions, const FitOptions &cageOptions) {
    LayerFit fit;
    fit.surface = target;
    fit.pairs = MatchByUv(inner, target);
    std::vector<Vec3d> from, to;
    std::vector<std::size_t> matchedInner;
    for (std::size_t i = 0; i < fit.pairs.size(); ++i) {
        if (fit.pairs[i] < 0) {
            ++fit.unmatched;
            continue;
        }
        from.push_back(inner.positions[i]);
        to.push_back(target.positions[static_cast<std::size_t>(fit.pairs[i])]);
        matchedInner.push_back(i);
    }
    fit.identical = true;
    for (std::size_t k = 0; k < from.size(); ++k)
        fit.identical = fit.identical && Distance(from[k], to[k]) <= kCoincide;
    const CageDeformer meshField(from, to, meshOptions);
    fit.mesh.reserve(mesh.size());
    for (const Vec3d &v : mesh) fit.mesh.push_back(fit.identical ? v : meshField.apply(v));
    // §3.5: each clothing vertex skinned from its nearest matched inner-cage vertex's partner.
    fit.skinFrom.assign(mesh.size(), -1);
    if (!from.empty()) {
        const NearestPoint nearest(from);
        for (std::size_t v = 0; v < mesh.size(); ++v) fit.skinFrom[v] = fit.pairs[matchedInner[nearest.find(mesh[v])]];
    }
    // §3.4: the outer cage, moved the same way, replaces its partners in the surface where the layer covers it.
    const CageDeformer cageField(from, to, cageOptions);
    const std::vector<std::int64_t> outerPairs = MatchByUv(outer, target);
    const std::vector<std::int64_t> outerToInner = MatchByUv(outer, inner);
    for (std::size_t o = 0; o < outer.positions.size(); ++o) {
        if (outerPairs[o] < 0 || outerToInner[o] < 0) continue;
        const Vec3d &in = inner.positions[static_cast<std::size_t>(outerToInner[o])];
        if (Distance(outer.positions[o], in) <= kCoincide) continue; // not covered by this layer
        fit.surface.positions[static_cast<std::size_t>(outerPairs[o])] =
            fit.identical ? outer.positions[o] : cageField.apply(outer.positions[o]);
    }
    return fit;
}

} // namespace gamefmt::meshing
