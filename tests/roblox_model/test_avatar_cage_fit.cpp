// Layered clothing fitting (docs/formats/roblox-avatar.md §3, §7.3–§7.5): UV matching, the patch RBF's exactness at
// its samples, translations kept exactly, the displacement bound, identical cages, and stacking. The cages are made
// here: points on an ellipsoid (the inner cage) and the same points moved by a known smooth map (the target).
#include "meshing/cage_fit.hpp"

#include "fixtures/rbx_avatar_fixtures.hpp"
#include "importers/roblox_mesh/mesh_reader.hpp"
#include "importers/roblox_model/document/properties.hpp"
#include "support/import_helpers.hpp"

#include <algorithm>
#include <limits>
#include <map>
#include <string>

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

// The grid search gives what a scan in index order gives (the lowest index among equally near points), for points
// spread in 3D, on a plane, repeated, and for queries far outside.
TEST(RbxCageFit, NearestPointAgreesWithAScan) {
    std::uint64_t state = 12345;
    const auto next = [&] {
        state = state * 6364136223846793005ULL + 1442695040888963407ULL;
        return static_cast<double>(state >> 11) / static_cast<double>(1ULL << 53);
    };
    for (int shape = 0; shape < 3; ++shape) {
        std::vector<Vec3d> points;
        for (int i = 0; i < 1500; ++i) {
            const Vec3d p{next() * 4 - 2, next() * 3, shape == 1 ? 0.0 : next() - 0.5};
            points.push_back(shape == 2 ? Vec3d{std::round(p.x), std::round(p.y), std::round(p.z)} : p);
        }
        const gamefmt::meshing::NearestPoint grid(points);
        for (int q = 0; q < 400; ++q) {
            const Vec3d query{next() * 12 - 6, next() * 9 - 3, next() * 6 - 3};
            std::size_t want = 0;
            for (std::size_t i = 1; i < points.size(); ++i)
                if (Distance(points[i], query) < Distance(points[want], query)) want = i;
            ASSERT_EQ(grid.find(query), want) << "shape " << shape << " query " << q;
        }
    }
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

// The generated avatar's own files (testdata/rbx-assets, rbx_avatar_fixtures.hpp), placed the way the reference's §3.3
// says — a body cage at its part's position, a garment's mesh and cages at its handle's position, centred on the mesh's
// bounds (docs/formats/roblox-model.md §5.3; size = InitialSize) — without gamefmt's scene code.
struct AvatarFiles {
    const gamefmt::rbx::Document doc = gamefmt::fixtures::AvatarR15Document();

    static gamefmt::rbxmesh::RobloxMesh Mesh(const std::string &uri) {
        const std::string id = uri.substr(uri.find("//") + 2);
        const std::vector<std::uint8_t> bytes =
            gamefmt::test::ReadBytes(gamefmt::test::TestDataDir() / "rbx-assets" / (id + ".mesh"));
        return gamefmt::rbxmesh::ReadRobloxMesh(bytes.data(), bytes.size());
    }
    std::string text(std::uint32_t i, const char *name) const {
        const auto *p = gamefmt::rbx::PropertyOf(doc, i, name);
        const auto *s = p != nullptr ? std::get_if<std::string>(&p->value.data) : nullptr;
        return s != nullptr ? *s : std::string();
    }
    Vec3d position(std::uint32_t part) const {
        const gamefmt::rbx::Vector3 p = gamefmt::rbx::CFrameOf(doc, part, "CFrame")->position;
        return {p.x, p.y, p.z};
    }
    static void Append(const gamefmt::rbxmesh::RobloxMesh &m, const Vec3d &at, Cage &out) {
        for (const auto &v : m.vertices) {
            out.positions.push_back(at + Vec3d{v.px, v.py, v.pz});
            out.uvs.push_back({v.u, v.v});
        }
    }
    // The body cage: every WrapTarget's cage at its part.
    Cage body() const {
        Cage body;
        for (std::uint32_t i = 0; i < doc.instances.size(); ++i)
            if (doc.className(doc.instances[i]) == "WrapTarget")
                Append(Mesh(text(i, "CageMeshId")), position(doc.instances[i].parent), body);
        return body;
    }
    // A garment (the Accessory `name`): its mesh, inner and outer cage, at its handle, centred on the mesh's bounds.
    void garment(const std::string &name, std::vector<Vec3d> &mesh, Cage &inner, Cage &outer) const {
        for (std::uint32_t i = 0; i < doc.instances.size(); ++i) {
            if (doc.className(doc.instances[i]) != "WrapLayer") continue;
            const std::uint32_t handle = doc.instances[i].parent;
            if (doc.instances[doc.instances[handle].parent].name != name) continue;
            const gamefmt::rbxmesh::RobloxMesh m = Mesh(text(handle, "MeshId"));
            Vec3d lo{1e9, 1e9, 1e9}, hi{-1e9, -1e9, -1e9};
            for (const auto &v : m.vertices) {
                lo = {std::min<double>(lo.x, v.px), std::min<double>(lo.y, v.py), std::min<double>(lo.z, v.pz)};
                hi = {std::max<double>(hi.x, v.px), std::max<double>(hi.y, v.py), std::max<double>(hi.z, v.pz)};
            }
            const Vec3d centre = (lo + hi) * 0.5, at = position(handle) - centre;
            for (const auto &v : m.vertices) mesh.push_back(at + Vec3d{v.px, v.py, v.pz});
            Append(Mesh(text(i, "ReferenceMeshId")), at, inner);
            Append(Mesh(text(i, "CageMeshId")), at, outer);
        }
    }
};

// Issue #40's check on its own generated jacket: every inner-cage vertex lands on its body-cage partner (1e-4); no
// jacket vertex moves farther than the farthest-moving cage vertex (the bound); the vest stacks onto the jacket's
// surface and leaves what it does not cover (the sleeves' cage) exactly as the jacket left it, and what neither covers
// (the legs, the head) exactly the body's.
TEST(RbxCageFit, TheGeneratedJacketAndVestFitTheGeneratedBody) {
    const AvatarFiles files;
    const Cage body = files.body();
    ASSERT_EQ(body.positions.size(), 15u * 8u);
    std::vector<Vec3d> jacket, vest;
    Cage jacketInner, jacketOuter, vestInner, vestOuter;
    files.garment("Jacket", jacket, jacketInner, jacketOuter);
    files.garment("Vest", vest, vestInner, vestOuter);
    ASSERT_EQ(jacketInner.positions.size(), 6u * 8u);
    ASSERT_EQ(vestInner.positions.size(), 2u * 8u);

    // The fit of the inner cage's own points: each on its partner.
    const gamefmt::meshing::LayerFit onto = FitLayer(body, jacketInner, jacketOuter, jacketInner.positions);
    EXPECT_EQ(onto.unmatched, 0u);
    double largest = 0;
    for (std::size_t i = 0; i < jacketInner.positions.size(); ++i) {
        ASSERT_GE(onto.pairs[i], 0);
        const Vec3d &target = body.positions[static_cast<std::size_t>(onto.pairs[i])];
        EXPECT_LT(Distance(onto.mesh[i], target), 1e-4) << i;
        largest = std::max(largest, Distance(jacketInner.positions[i], target));
    }
    // The jacket itself: within the bound, and its surface carries the jacket's outer cage where it covers the body.
    const gamefmt::meshing::LayerFit first = FitLayer(body, jacketInner, jacketOuter, jacket);
    for (std::size_t v = 0; v < jacket.size(); ++v) EXPECT_LE(Distance(first.mesh[v], jacket[v]), largest + 1e-12) << v;
    const std::vector<std::int64_t> covered = gamefmt::meshing::MatchByUv(body, jacketInner);
    const std::vector<std::int64_t> vestCovered = gamefmt::meshing::MatchByUv(body, vestInner);
    std::size_t changed = 0;
    for (std::size_t b = 0; b < body.positions.size(); ++b) {
        if (covered[b] < 0) {
            EXPECT_EQ(first.surface.positions[b], body.positions[b]) << b; // legs, hands, head: exactly the body's
        } else {
            ++changed;
            EXPECT_GT(Distance(first.surface.positions[b], body.positions[b]), 0.05) << b;
        }
    }
    EXPECT_EQ(changed, 48u);
    // The vest on the jacket's surface: its inner cage lands there; it leaves the sleeves exactly as they were.
    const gamefmt::meshing::LayerFit second = FitLayer(first.surface, vestInner, vestOuter, vestInner.positions);
    for (std::size_t i = 0; i < vestInner.positions.size(); ++i)
        EXPECT_LT(Distance(second.mesh[i], first.surface.positions[static_cast<std::size_t>(second.pairs[i])]), 1e-4)
            << i;
    for (std::size_t b = 0; b < body.positions.size(); ++b) {
        if (vestCovered[b] < 0) {
            EXPECT_EQ(second.surface.positions[b], first.surface.positions[b]) << b;
        }
    }
}

} // namespace
