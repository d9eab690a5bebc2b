// Layered clothing fitting (docs/formats/roblox-avatar.md §3, §7.3–§7.5): UV matching, the patch RBF's exactness at
// its samples, translations kept exactly, the displacement bound, identical cages, and stacking. The cages are made
// here: points on an ellipsoid (the inner cage) and the same points moved by a known smooth map (the target).
#include "meshing/cage_fit.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

namespace {

using gamefmt::Vec3d;
using gamefmt::meshing::Cage;
using gamefmt::meshing::CageDeformer;
using gamefmt::meshing::FitLayer;
using gamefmt::meshing::MatchByUv;

// rings × segments points on an ellipsoid of radii (a, b, c) around `at`, each with its own UV (u = segment, v = ring,
// spaced 1/64 apart).
Cage Ellipsoid(int rings, int segments, Vec3d radii, Vec3d at = {}, double uOffset = 0) {
    Cage cage;
    for (int r = 1; r <= rings; ++r)
        for (int s = 0; s < segments; ++s) {
            const double th = 3.14159265358979 * r / (rings + 1), ph = 2 * 3.14159265358979 * s / segments;
            cage.positions.push_back({at.x + radii.x * std::sin(th) * std::cos(ph), at.y + radii.y * std::cos(th),
                                      at.z + radii.z * std::sin(th) * std::sin(ph)});
            cage.uvs.push_back({uOffset + s / 64.0, r / 64.0});
        }
    return cage;
}

double Distance(const Vec3d &a, const Vec3d &b) {
    const Vec3d d = a - b;
    return std::sqrt(d.dot(d));
}

// A smooth non-affine map: the "body" the clothing is fitted to.
Vec3d Bend(const Vec3d &p) {
    return {p.x * 1.2 + 0.1 * std::sin(2 * p.y), p.y * 0.9 + 0.05 * p.x * p.x, p.z * 1.1 + 0.2};
}

TEST(RbxCageFit, MatchByUvPairsRoundedUvsAndReportsTheUnmatched) {
    Cage a, b;
    a.positions = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}};
    a.uvs = {{0.1, 0.2}, {0.5004, 0.5}, {0.9, 0.9}};
    b.positions = {{5, 0, 0}, {6, 0, 0}, {7, 0, 0}};
    b.uvs = {{0.5, 0.5}, {0.1, 0.2}, {0.1001, 0.2003}}; // the last of two equal keys wins
    const std::vector<std::int64_t> m = MatchByUv(a, b);
    EXPECT_EQ(m, (std::vector<std::int64_t>{2, 0, -1}));
}

// §7.4: every sample lands on its partner (1e-4; the ε regularisation leaves far less), with 300 patches over 1,200
// samples, and with a single patch.
TEST(RbxCageFit, EverySampleLandsOnItsPartner) {
    const Cage inner = Ellipsoid(30, 40, {1, 2, 0.6});
    std::vector<Vec3d> target;
    for (const Vec3d &p : inner.positions) target.push_back(Bend(p));
    for (std::size_t patches : {std::size_t(300), std::size_t(1)}) {
        gamefmt::meshing::FitOptions options;
        options.patches = patches;
        const CageDeformer field(inner.positions, target, options);
        EXPECT_EQ(field.samples(), inner.positions.size());
        double worst = 0;
        for (std::size_t i = 0; i < target.size(); ++i)
            worst = std::fmax(worst, Distance(field.apply(inner.positions[i]), target[i]));
        EXPECT_LT(worst, 1e-4) << patches << " patches";
    }
}

// A translation of the whole cage moves everything by exactly that much; identical cages move nothing; no point moves
// farther than the farthest-moving sample (the documented bound).
TEST(RbxCageFit, TranslationsAreKeptAndTheDisplacementIsBounded) {
    const Cage inner = Ellipsoid(12, 16, {1, 1.5, 0.8});
    std::vector<Vec3d> moved, same = inner.positions, bent;
    const Vec3d t{0.3, -0.2, 0.45};
    double largest = 0;
    for (const Vec3d &p : inner.positions) {
        moved.push_back(p + t);
        bent.push_back(Bend(p));
        largest = std::fmax(largest, Distance(Bend(p), p));
    }
    const CageDeformer translate(inner.positions, moved), identity(inner.positions, same), bend(inner.positions, bent);
    for (double x = -2; x <= 2; x += 0.37)
        for (double y = -2; y <= 2; y += 0.41)
            for (double z = -1; z <= 1; z += 0.53) {
                const Vec3d v{x, y, z};
                EXPECT_LT(Distance(translate.apply(v), v + t), 1e-6);
                EXPECT_LT(Distance(identity.apply(v), v), 1e-9);
                EXPECT_LE(Distance(bend.apply(v), v), largest + 1e-12);
            }
}

// §3.4, §7.5: a jacket covering the whole inner ellipsoid is fitted onto the target; a second, smaller layer (a vest
// over the upper half only: its outer cage coincides with its inner cage on the lower half) is fitted onto the
// jacket's surface. The jacket's inner cage vertices land on the target; the vest leaves the lower half of the
// jacket's surface exactly as it was.
TEST(RbxCageFit, LayersStackOntoTheSurfaceBelow) {
    const Cage reference = Ellipsoid(10, 12, {1, 2, 0.6});
    Cage body = reference;
    for (Vec3d &p : body.positions) p = Bend(p);
    Cage jacketOuter = reference;
    for (Vec3d &p : jacketOuter.positions) p = p * 1.1;
    // The jacket mesh: its inner cage's own points (they must land on the body) and points between the cages.
    std::vector<Vec3d> jacket = reference.positions;
    for (const Vec3d &p : reference.positions) jacket.push_back(p * 1.05);
    const gamefmt::meshing::LayerFit first = FitLayer(body, reference, jacketOuter, jacket);
    EXPECT_EQ(first.unmatched, 0u);
    EXPECT_FALSE(first.identical);
    for (std::size_t i = 0; i < reference.positions.size(); ++i)
        EXPECT_LT(Distance(first.mesh[i], body.positions[i]), 1e-4) << i;
    // The jacket's surface: the body with the jacket's outer cage, fitted, in.
    for (std::size_t i = 0; i < body.positions.size(); ++i)
        EXPECT_GT(Distance(first.surface.positions[i], body.positions[i]), 1e-3);
    // Every jacket vertex is skinned from a body cage vertex.
    for (std::int64_t s : first.skinFrom) EXPECT_GE(s, 0);

    Cage vestInner = jacketOuter, vestOuter = jacketOuter;
    for (std::size_t i = 0; i < vestOuter.positions.size(); ++i)
        if (vestOuter.positions[i].y > 0) vestOuter.positions[i] = vestOuter.positions[i] * 1.1;
    const gamefmt::meshing::LayerFit second = FitLayer(first.surface, vestInner, vestOuter, {{0, 2.5, 0}});
    std::size_t kept = 0, replaced = 0;
    for (std::size_t i = 0; i < jacketOuter.positions.size(); ++i) {
        if (jacketOuter.positions[i].y > 0) {
            EXPECT_GT(Distance(second.surface.positions[i], first.surface.positions[i]), 1e-3) << i;
            ++replaced;
        } else {
            EXPECT_EQ(second.surface.positions[i], first.surface.positions[i]) << i; // exactly
            ++kept;
        }
    }
    EXPECT_GT(kept, 0u);
    EXPECT_GT(replaced, 0u);
    // A layer already on its target is left exactly where it is.
    const gamefmt::meshing::LayerFit again = FitLayer(body, body, jacketOuter, body.positions);
    EXPECT_TRUE(again.identical);
    for (std::size_t i = 0; i < body.positions.size(); ++i) EXPECT_EQ(again.mesh[i], body.positions[i]);
}

TEST(RbxCageFit, HostileCagesStayFiniteAndCheap) {
    // Duplicates, NaN, a single sample, no samples.
    const std::vector<Vec3d> from = {{0, 0, 0}, {0, 0, 0}, {std::nan(""), 0, 0}, {1, 0, 0}};
    const std::vector<Vec3d> to = {{1, 0, 0}, {5, 0, 0}, {0, 0, 0}, {2, 0, 0}};
    const CageDeformer field(from, to);
    EXPECT_EQ(field.samples(), 2u);
    const Vec3d v = field.apply({0.5, 0, 0});
    EXPECT_TRUE(std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z));
    EXPECT_LT(Distance(field.apply({0, 0, 0}), {1, 0, 0}), 1e-4);
    const CageDeformer none({}, {});
    EXPECT_EQ(none.apply({1, 2, 3}), (Vec3d{1, 2, 3}));
    // All samples on one point but one: the cell caps keep every patch small.
    std::vector<Vec3d> many, shifted;
    for (int i = 0; i < 4000; ++i) {
        many.push_back({i * 1e-6, 0, 0});
        shifted.push_back({i * 1e-6, 1, 0});
    }
    const CageDeformer crowded(many, shifted);
    EXPECT_LT(Distance(crowded.apply({0, 0, 0}), {0, 1, 0}), 1e-6);
}

} // namespace
