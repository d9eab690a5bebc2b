// Layered clothing fitting (docs/formats/roblox-avatar.md §3): a clothing mesh authored around its inner (reference)
// cage is moved onto a body's cage. Cage vertices are paired by UV; the displacement of the pairs is interpolated
// with patch radial basis functions (φ(r) = r plus a constant, one small dense system per patch), so that every
// paired vertex lands exactly on its partner and everything else follows smoothly; layers stack, each fitted onto the
// surface the ones below made. Plain geometry, no Assimp.
#pragma once

#include "common/math.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <vector>

namespace gamefmt::meshing {

// A cage: vertex positions and their UVs (the UVs say which vertex is which).
struct Cage {
    std::vector<Vec3d> positions;
    std::vector<std::array<double, 2>> uvs;
};

// §3.2: for each vertex of `from`, the index of the vertex of `to` whose UV, rounded to 1/1000, is the same (of
// several such vertices in `to`, the last), or -1.
std::vector<std::int64_t> MatchByUv(const Cage &from, const Cage &to);

struct FitOptions {
    std::size_t patches = 300;  // patch centres (every ⌊n/patches⌋-th sample)
    std::size_t nearest = 32;   // the samples nearest a centre in its patch
    std::size_t important = 32; // samples spread over the whole cage, in every patch
    double epsilon = 1e-6;      // added to the system's diagonal
};

// The nearest of a fixed set of points to a query, through a uniform grid (about two points per cell): ties go to the
// lowest index, as a scan in index order would give them.
class NearestPoint {
public:
    explicit NearestPoint(const std::vector<Vec3d> &points);
    // The index of the nearest point; 0 for an empty set.
    std::size_t find(const Vec3d &q) const;

private:
    std::vector<Vec3d> mPoints;
    Vec3d mLo;
    double mCell = 1;
    std::array<std::int64_t, 3> mDims{1, 1, 1};
    std::vector<std::uint32_t> mStart, mItems; // cell c holds mItems[mStart[c] .. mStart[c + 1])
};

// The displacement field of sample pairs p_i → q_i (§3.3 with two changes, docs/formats/roblox-avatar.md §3.7): each
// patch also holds every sample whose nearest centre it is, and its interpolant has an affine term (a constant only
// when the patch's samples lie in a plane), so
//   * every sample moves exactly onto its partner (up to the ε regularisation: < 1e-6 studs for unit-scale cages);
//   * an affine map of all the samples (a translation, a body wider or taller than the clothing's) moves everything by
//     that map, exactly — unless the bound below clamps it;
//   * no point moves farther than the farthest-moving sample of its patch (the displacement is clamped to that: the
//     documented bound).
// Duplicate samples (the same position to 1e-9) keep the first. Solved in double precision. Costs are capped for
// hostile cages: at most 65,536 samples, a centre at least every 32nd, at most 128 of a centre's own samples in its
// patch (beyond that the exactness above holds for the 128 nearest).
class CageDeformer {
public:
    CageDeformer(const std::vector<Vec3d> &from, const std::vector<Vec3d> &to, const FitOptions &options = {});
    // v moved by the field.
    Vec3d apply(const Vec3d &v) const;
    std::size_t samples() const { return mSamples.size(); }
    std::size_t patches() const { return mPatches.size(); }

private:
    struct Patch {
        std::vector<std::uint32_t> samples;
        std::vector<Vec3d> weights; // one per sample
        Vec3d constant;
        bool affine = false; // the linear term is used (the samples span 3D)
        Vec3d linear[3];     // d(v) gains linear[0]·(v − origin).x + …
        Vec3d origin;        // the patch centre
        double bound = 0;    // the largest |q − p| among its samples
    };
    std::size_t nearestCentre(const Vec3d &v) const;

    std::vector<Vec3d> mSamples, mOffsets;
    std::vector<std::uint32_t> mCentres; // sample indices
    std::vector<Patch> mPatches;         // one per centre
    std::unique_ptr<NearestPoint> mCentreIndex;
};

// One layer fitted onto the surface below (§3.3, §3.4).
struct LayerFit {
    std::vector<Vec3d> mesh;         // the clothing's vertices, moved
    Cage surface;                    // the cage the next layer fits onto (the target with this layer's outer cage in)
    std::vector<std::int64_t> pairs; // per inner-cage vertex: its partner in the target, or -1 (unmatched)
    std::size_t unmatched = 0;       // inner-cage vertices with no partner
    bool identical = false;          // inner cage already on the target (every pair within 0.001): nothing moved
    // Per clothing vertex: the target vertex that skins it (its nearest matched inner-cage vertex's partner), or -1
    // when nothing matched (§3.5).
    std::vector<std::int64_t> skinFrom;
};

// Fits `mesh` (authored around `inner`, with `outer` its outer cage: same UV layout) onto `target`: the deformer of
// the matched inner → target pairs moves the mesh (options `meshOptions`, the reference's 300/32/32) and the outer
// cage (`cageOptions`, 128/16/8); the outer cage's vertices replace their UV partners in the target, except where the
// layer's inner and outer cage coincide (≤ 0.001: the layer does not cover that region).
LayerFit FitLayer(const Cage &target, const Cage &inner, const Cage &outer, const std::vector<Vec3d> &mesh,
                  const FitOptions &meshOptions = {}, const FitOptions &cageOptions = {128, 16, 8, 1e-6});

} // namespace gamefmt::meshing
