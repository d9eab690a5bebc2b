// Tests of the Roblox mesh builder: version choice, weight quantisation, skin subsets (26-bone limit,
// LOD boundaries, vertex duplication), bone order and culling, LOD generation with meshoptimizer
// (including the reference's sloppy-simplifier finding on a real 4.01 file), FACS/HSRAVIS passthrough
// and clear errors for broken input.
#include "importers/roblox_mesh/mesh_builder.hpp"
#include "importers/roblox_mesh/mesh_reader.hpp"
#include "importers/roblox_mesh/mesh_writer.hpp"

#include "common/byte_writer.hpp"
#include "support/expect_error.hpp"
#include "support/import_helpers.hpp"

#include <meshoptimizer.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <random>
#include <set>
#include <string>
#include <vector>

using namespace gamefmt::rbxmesh;
using gamefmt::FormatError;
using namespace gamefmt::test;

namespace {

using Bytes = std::vector<std::uint8_t>;
using Quantized = std::array<std::pair<std::uint32_t, std::uint8_t>, 4>;

bool AnyWarning(const RobloxMesh &m, const std::string &needle) {
    return std::any_of(m.warnings.begin(), m.warnings.end(), [&](const std::string &w) { return Contains(w, needle); });
}

// ---------------------------------------------------------------- inputs

// Vertices carry their input index in u, so output vertices (copied per subset) can be traced back.
Vertex Tagged(std::size_t index, float x, float y, float z) {
    Vertex v;
    v.px = x;
    v.py = y;
    v.pz = z;
    v.nz = 1;
    v.u = static_cast<float>(index);
    v.tangent = {127, 127, 127, 0};
    return v;
}

// A w x h grid of quads in the XY plane with a bump, so simplification has something to keep.
BuildInput Grid(std::uint32_t w, std::uint32_t h) {
    BuildInput in;
    for (std::uint32_t y = 0; y <= h; ++y)
        for (std::uint32_t x = 0; x <= w; ++x) {
            const float fx = static_cast<float>(x) / static_cast<float>(w);
            const float fy = static_cast<float>(y) / static_cast<float>(h);
            in.vertices.push_back(Tagged(in.vertices.size(), fx, fy, 0.1f * std::sin(fx * 6.0f) * std::cos(fy * 4.0f)));
        }
    in.lods.emplace_back();
    auto idx = [&](std::uint32_t x, std::uint32_t y) { return y * (w + 1) + x; };
    for (std::uint32_t y = 0; y < h; ++y)
        for (std::uint32_t x = 0; x < w; ++x) {
            in.lods[0].push_back({idx(x, y), idx(x + 1, y), idx(x + 1, y + 1)});
            in.lods[0].push_back({idx(x, y), idx(x + 1, y + 1), idx(x, y + 1)});
        }
    return in;
}

// A strip of 40 faces (k, k+1, k+2) over 42 vertices; vertex i is fully weighted to bone i % 30, so face k
// uses bones k..k+2 (mod 30). Bone 0 is the root, the others its children.
BuildInput Strip() {
    BuildInput in;
    for (std::size_t i = 0; i < 42; ++i) in.vertices.push_back(Tagged(i, 0.5f * static_cast<float>(i), i % 2, 0));
    in.lods.emplace_back();
    for (std::uint32_t k = 0; k < 40; ++k) in.lods[0].push_back({k, k + 1, k + 2});
    for (int b = 0; b < 30; ++b) {
        BoneInput bone;
        bone.name = "b" + std::to_string(b);
        bone.parent = b == 0 ? -1 : 0;
        bone.position = {static_cast<float>(b), 0, 0};
        in.bones.push_back(bone);
    }
    for (std::size_t i = 0; i < 42; ++i) in.influences.push_back({{static_cast<std::uint32_t>(i % 30), 1.0f}});
    return in;
}

// A FACS blob the reader's parser accepts: one face bone, one control, six 1 x 1 v2 matrices.
std::vector<std::uint8_t> MinimalFacs(const std::string &faceBone) {
    gamefmt::ByteWriter w;
    const std::string names = faceBone + '\0';
    const std::string controls = std::string("c_JD") + '\0';
    w.u32le(static_cast<std::uint32_t>(names.size()));
    w.u32le(static_cast<std::uint32_t>(controls.size()));
    w.u64le(6 * 20);
    w.u32le(0);
    w.u32le(0);
    w.string(names);
    w.string(controls);
    for (int i = 0; i < 6; ++i) {
        w.u16le(2);
        w.u32le(1);
        w.u32le(1);
        w.f32le(0);
        w.f32le(1);
        w.u16le(65535);
    }
    return w.take();
}

// ---------------------------------------------------------------- invariants of a built skinned mesh

// Subsets tile faces and vertices, none crosses a LOD boundary, faces stay in their subset's vertex
// range, envelopes are well formed; and every output vertex carries the quantised weights of the input
// vertex it copies (traced through the tag in u), on the same bones by name.
// `traced` = false skips the trace (inputs whose u is a real texture coordinate).
void CheckSkin(const RobloxMesh &m, const BuildInput &in, bool traced = true) {
    ASSERT_FALSE(m.subsets.empty());
    ASSERT_EQ(m.envelopes.size(), m.vertices.size());
    const std::vector<LodLevel> levels = LodLevels(m);
    std::uint32_t faceCursor = 0, vertCursor = 0;
    for (std::size_t s = 0; s < m.subsets.size(); ++s) {
        SCOPED_TRACE("subset " + std::to_string(s));
        const Subset &sub = m.subsets[s];
        EXPECT_EQ(sub.facesBegin, faceCursor);
        EXPECT_EQ(sub.vertsBegin, vertCursor);
        faceCursor += sub.facesLength;
        vertCursor += sub.vertsLength;
        EXPECT_GT(sub.facesLength, 0u);
        EXPECT_TRUE(std::any_of(levels.begin(), levels.end(), [&](const LodLevel &l) {
            return l.faceBegin <= sub.facesBegin && sub.facesBegin + sub.facesLength <= l.faceEnd;
        })) << "crosses a LOD boundary";
        ASSERT_LE(sub.numBoneIndices, kMaxBonesPerSubset);
        for (std::size_t k = 0; k < kMaxBonesPerSubset; ++k) {
            if (k < sub.numBoneIndices) {
                EXPECT_LT(sub.boneIndices[k], m.bones.size());
            } else {
                EXPECT_EQ(sub.boneIndices[k], kNoBone);
            }
        }
        for (std::uint32_t j = sub.facesBegin; j < sub.facesBegin + sub.facesLength; ++j)
            for (std::uint32_t v : {m.faces[j].a, m.faces[j].b, m.faces[j].c}) {
                EXPECT_GE(v, sub.vertsBegin);
                EXPECT_LT(v, sub.vertsBegin + sub.vertsLength);
            }
        for (std::uint32_t v = sub.vertsBegin; v < sub.vertsBegin + sub.vertsLength; ++v) {
            const Envelope &e = m.envelopes[v];
            int sum = 0;
            for (std::size_t k = 0; k < 4; ++k) {
                sum += e.weights[k];
                if (k > 0) {
                    EXPECT_LE(e.weights[k], e.weights[k - 1]);
                }
                if (e.weights[k] == 0) {
                    EXPECT_EQ(e.bones[k], 0);
                } else {
                    EXPECT_LT(e.bones[k], sub.numBoneIndices);
                }
            }
            EXPECT_EQ(sum, 255);
            if (!traced) continue;
            // Same weights as the input vertex, on the same bones (by name).
            const auto src = static_cast<std::size_t>(m.vertices[v].u);
            std::vector<Influence> byName;
            if (src < in.influences.size()) byName = in.influences[src];
            const Quantized expected = QuantizeWeights(byName);
            for (std::size_t k = 0; k < 4 && e.weights[k] > 0; ++k) {
                if (expected[0].second == 0) break; // unweighted input: bound to the root, checked elsewhere
                EXPECT_EQ(e.weights[k], expected[k].second);
                EXPECT_EQ(m.bones[sub.boneIndices[e.bones[k]]].name, in.bones[expected[k].first].name);
            }
        }
    }
    EXPECT_EQ(faceCursor, m.faces.size());
    EXPECT_EQ(vertCursor, m.vertices.size());
}

// ---------------------------------------------------------------- version choice

TEST(RobloxMeshBuilder, AutoVersion) {
    BuildInput in = Grid(2, 2);
    EXPECT_EQ(AutoVersion(in), "2.00");
    in.lods.push_back({in.lods[0][0]});
    EXPECT_EQ(AutoVersion(in), "3.00");
    BuildInput skinned = Strip();
    EXPECT_EQ(AutoVersion(skinned), "4.00");
    skinned.facs = Facs{1, MinimalFacs("b0"), std::nullopt};
    EXPECT_EQ(AutoVersion(skinned), "5.00");
    // A skeleton without weights is not skinning.
    skinned.influences.clear();
    EXPECT_EQ(AutoVersion(skinned), "2.00");

    EXPECT_EQ(BuildRobloxMesh(Grid(2, 2)).version, "2.00");
    EXPECT_EQ(BuildRobloxMesh(Strip()).version, "4.00");
}

// ---------------------------------------------------------------- weights

Quantized Q(std::vector<Influence> in) {
    return QuantizeWeights(in);
}

void ExpectWellFormed(const Quantized &q) {
    int sum = 0;
    for (std::size_t k = 0; k < 4; ++k) {
        sum += q[k].second;
        if (k > 0) {
            EXPECT_LE(q[k].second, q[k - 1].second);
        }
        if (q[k].second == 0) {
            EXPECT_EQ(q[k].first, 0u);
        }
    }
    EXPECT_TRUE(sum == 255 || sum == 0) << sum;
}

TEST(RobloxMeshBuilder, QuantizeWeightsLargestRemainder) {
    // 0.5/0.3/0.2 of 255 = 127.5, 76.5, 51: floors sum to 254; the one spare unit goes to the largest
    // remainder, a tie (.5/.5) that the larger weight wins: 128 + 76 + 51 = 255.
    EXPECT_EQ(Q({{7, 0.5f}, {3, 0.3f}, {9, 0.2f}}), (Quantized{{{7, 128}, {3, 76}, {9, 51}, {0, 0}}}));
    // Order of the input does not matter.
    EXPECT_EQ(Q({{9, 0.2f}, {7, 0.5f}, {3, 0.3f}}), (Quantized{{{7, 128}, {3, 76}, {9, 51}, {0, 0}}}));
    // Unnormalised input is normalised first.
    EXPECT_EQ(Q({{1, 2.0f}, {2, 2.0f}}), (Quantized{{{1, 128}, {2, 127}, {0, 0}, {0, 0}}}));
    // Thirds divide exactly.
    EXPECT_EQ(Q({{4, 1.0f}, {5, 1.0f}, {6, 1.0f}}), (Quantized{{{4, 85}, {5, 85}, {6, 85}, {0, 0}}}));
    // A single influence.
    EXPECT_EQ(Q({{12, 0.1f}}), (Quantized{{{12, 255}, {0, 0}, {0, 0}, {0, 0}}}));
}

TEST(RobloxMeshBuilder, QuantizeWeightsTies) {
    // Four equal weights: 63.75 each, floors 252, three spare units to the first three (lower bone index
    // first among equal weights): 64, 64, 64, 63.
    EXPECT_EQ(Q({{4, 0.25f}, {3, 0.25f}, {2, 0.25f}, {1, 0.25f}}), (Quantized{{{1, 64}, {2, 64}, {3, 64}, {4, 63}}}));
}

TEST(RobloxMeshBuilder, QuantizeWeightsKeepsTheFourLargest) {
    // 0.05 is dropped; 0.4/0.3/0.15/0.1 over 0.95: 107.37, 80.53, 40.26, 26.84 → floors 253; the two
    // spare units go to .84 and .53: 107, 81, 40, 27.
    const Quantized q = Q({{0, 0.05f}, {1, 0.4f}, {2, 0.3f}, {3, 0.15f}, {4, 0.1f}});
    EXPECT_EQ(q, (Quantized{{{1, 107}, {2, 81}, {3, 40}, {4, 27}}}));
}

TEST(RobloxMeshBuilder, QuantizeWeightsEdgeCases) {
    const Quantized none{};
    EXPECT_EQ(Q({}), none);
    EXPECT_EQ(Q({{3, 0.0f}, {5, 0.0f}}), none);
    EXPECT_EQ(Q({{3, -1.0f}, {5, std::nanf("")}}), none);
    // A repeated bone is merged (a file never repeats one): bone 2 has 0.5, like bone 5.
    EXPECT_EQ(Q({{2, 0.25f}, {5, 0.5f}, {2, 0.25f}}), (Quantized{{{2, 128}, {5, 127}, {0, 0}, {0, 0}}}));
    // A weight too small to get a unit leaves a zero slot with index 0.
    EXPECT_EQ(Q({{6, 1.0f}, {8, 1e-6f}}), (Quantized{{{6, 255}, {0, 0}, {0, 0}, {0, 0}}}));

    std::mt19937 rng(1234);
    std::uniform_real_distribution<float> weight(0.0f, 1.0f);
    std::uniform_int_distribution<int> count(1, 7);
    for (int i = 0; i < 2000; ++i) {
        std::vector<Influence> in;
        const int n = count(rng);
        for (int k = 0; k < n; ++k) in.push_back({static_cast<std::uint32_t>(k * 3 + 1), weight(rng)});
        const Quantized q = QuantizeWeights(in);
        ExpectWellFormed(q);
        EXPECT_GT(q[0].second, 0);
    }
}

// ---------------------------------------------------------------- static meshes

TEST(RobloxMeshBuilder, StaticMeshKeepsUsedVerticesInOrder) {
    BuildInput in;
    for (std::size_t i = 0; i < 5; ++i) in.vertices.push_back(Tagged(i, static_cast<float>(i), 0, 0));
    in.lods = {{{0, 2, 3}, {3, 2, 4}}}; // vertex 1 unused
    const RobloxMesh m = BuildRobloxMesh(in);
    EXPECT_EQ(m.version, "2.00");
    ASSERT_EQ(m.vertices.size(), 4u);
    EXPECT_EQ(m.vertices[1].u, 2.0f);
    EXPECT_EQ(m.faces[0].a, 0u);
    EXPECT_EQ(m.faces[0].b, 1u);
    EXPECT_EQ(m.faces[1].c, 3u);
    EXPECT_TRUE(m.lodOffsets.empty());
    EXPECT_FALSE(m.hasSkinning());

    BuildOptions o;
    o.version = "3.00";
    o.generateLods = false;
    const RobloxMesh v3 = BuildRobloxMesh(in, o);
    EXPECT_EQ(v3.lodOffsets, (std::vector<std::uint32_t>{0, 2}));
    EXPECT_EQ(v3.lodType, 0);
    o.version = "4.00";
    EXPECT_EQ(BuildRobloxMesh(in, o).numHighQualityLODs, 1);
}

TEST(RobloxMeshBuilder, StaticLevelsShareOneVertexPool) {
    BuildInput in = Grid(4, 4);
    in.lods.push_back({in.lods[0][0], in.lods[0][5]});
    const RobloxMesh m = BuildRobloxMesh(in);
    EXPECT_EQ(m.version, "3.00");
    EXPECT_EQ(m.vertices.size(), in.vertices.size());
    EXPECT_EQ(m.lodOffsets, (std::vector<std::uint32_t>{0, 32, 34}));
    EXPECT_EQ(m.lodType, 3);
    EXPECT_EQ(m.faces[33].a, in.lods[0][5].a);
}

// ---------------------------------------------------------------- LOD generation

TEST(RobloxMeshBuilder, GeneratesLevelsWithSimplify) {
    BuildOptions o;
    o.version = "3.00";
    const BuildInput in = Grid(40, 40); // 3200 faces
    const RobloxMesh m = BuildRobloxMesh(in, o);
    const std::vector<LodLevel> levels = LodLevels(m);
    ASSERT_GE(levels.size(), 2u);
    EXPECT_EQ(m.lodType, 3);
    EXPECT_EQ(levels[0].faceEnd, 3200u);
    for (std::size_t l = 1; l < levels.size(); ++l) {
        const std::uint32_t prev = levels[l - 1].faceEnd - levels[l - 1].faceBegin;
        const std::uint32_t cur = levels[l].faceEnd - levels[l].faceBegin;
        EXPECT_LE(cur * 4, prev * 3) << "level " << l;
    }
    // Levels index LOD0's vertex pool.
    EXPECT_EQ(m.vertices.size(), in.vertices.size());

    o.sloppyLods = true;
    o.lodRatios = {0.5f, 0.25f, 0.1f};
    const RobloxMesh sloppy = BuildRobloxMesh(in, o);
    EXPECT_EQ(sloppy.lodType, 4);
    EXPECT_EQ(LodLevels(sloppy).size(), 4u);

    // No generation for versions without LODs, when switched off, or when there are levels already.
    EXPECT_EQ(BuildRobloxMesh(in).lodOffsets.size(), 0u);
    o.generateLods = false;
    EXPECT_EQ(BuildRobloxMesh(in, o).lodOffsets, (std::vector<std::uint32_t>{0, 3200}));
}

TEST(RobloxMeshBuilder, LevelsThatDoNotShrinkEnoughAreDropped) {
    // A closed cube: every collapse costs far more than the 2 % error budget, so simplify keeps all 12
    // faces and the levels are dropped.
    BuildInput in;
    for (int i = 0; i < 8; ++i)
        in.vertices.push_back(Tagged(i, i & 1 ? 1.f : -1.f, i & 2 ? 1.f : -1.f, i & 4 ? 1.f : -1.f));
    in.lods = {{{0, 2, 3},
                {0, 3, 1},
                {4, 5, 7},
                {4, 7, 6},
                {0, 1, 5},
                {0, 5, 4},
                {2, 6, 7},
                {2, 7, 3},
                {0, 4, 6},
                {0, 6, 2},
                {1, 3, 7},
                {1, 7, 5}}};
    BuildOptions o;
    o.version = "4.00";
    const RobloxMesh m = BuildRobloxMesh(in, o);
    EXPECT_EQ(m.lodOffsets, (std::vector<std::uint32_t>{0, 12}));
    EXPECT_EQ(m.lodType, 0);
    EXPECT_TRUE(AnyWarning(m, "dropped")) << (m.warnings.empty() ? "" : m.warnings[0]);

    o.lodRatios = {1.5f};
    EXPECT_TRUE(Contains(Thrown([&] { BuildRobloxMesh(in, o); }).message(), "LOD ratio 1.5"));
}

// The reference's finding (§10.3): the four lower levels of the 4.01 corpus file are what meshoptimizer
// 0.18's meshopt_simplifySloppy makes from LOD0 at 1/2, 1/4, 1/10, 1/20 with target_error 1.0.
TEST(RobloxMeshBuilder, SloppyReproducesTheCorpus401Levels) {
    GAMEFMT_REQUIRE_CORPUS(dir, "mesh");
    const Bytes file = gamefmt::test::ReadBytes(dir / "krakow10_rbx_mesh__meshes_7665777615.mesh");
    const RobloxMesh m = ReadRobloxMesh(file.data(), file.size());
    ASSERT_EQ(m.lodOffsets, (std::vector<std::uint32_t>{0, 2146, 3188, 3654, 3858, 3960}));
    ASSERT_EQ(m.lodType, 4);
    // The finding was made with meshoptimizer 0.18 (Debian 12); 0.22 (Debian 13) makes the same levels.
    EXPECT_GE(MESHOPTIMIZER_VERSION, 180);

    std::vector<float> positions;
    for (const Vertex &v : m.vertices) positions.insert(positions.end(), {v.px, v.py, v.pz});
    std::vector<unsigned int> lod0;
    for (std::uint32_t j = 0; j < 2146; ++j) lod0.insert(lod0.end(), {m.faces[j].a, m.faces[j].b, m.faces[j].c});
    const float ratios[] = {1.0f / 2, 1.0f / 4, 1.0f / 10, 1.0f / 20};
    for (std::size_t l = 0; l < 4; ++l) {
        SCOPED_TRACE("level " + std::to_string(l + 1));
        std::size_t target = static_cast<std::size_t>(std::floor(3.0 * 2146 * ratios[l]));
        target -= target % 3;
        std::vector<unsigned int> out(lod0.size());
        out.resize(meshopt_simplifySloppy(out.data(), lod0.data(), lod0.size(), positions.data(), m.vertices.size(), 12,
                                          target, 1.0f, nullptr));
        std::vector<unsigned int> expected;
        for (std::uint32_t j = m.lodOffsets[l + 1]; j < m.lodOffsets[l + 2]; ++j)
            expected.insert(expected.end(), {m.faces[j].a, m.faces[j].b, m.faces[j].c});
        EXPECT_EQ(out, expected);
    }

    // The builder in sloppy mode writes back the file's face list and table from its LOD0 alone.
    BuildInput in;
    in.vertices = m.vertices;
    in.lods = {std::vector<Face>(m.faces.begin(), m.faces.begin() + 2146)};
    BuildOptions o;
    o.version = "4.01";
    o.sloppyLods = true;
    o.lodRatios = {1.0f / 2, 1.0f / 4, 1.0f / 10, 1.0f / 20};
    const RobloxMesh built = BuildRobloxMesh(in, o);
    EXPECT_EQ(built.lodOffsets, m.lodOffsets);
    EXPECT_EQ(built.lodType, 4);
    ASSERT_EQ(built.vertices.size(), m.vertices.size()); // LOD0 uses every vertex of the file
    ASSERT_EQ(built.faces.size(), m.faces.size());
    EXPECT_TRUE(std::equal(built.faces.begin(), built.faces.end(), m.faces.begin(),
                           [](const Face &x, const Face &y) { return x.a == y.a && x.b == y.b && x.c == y.c; }));
    // Only the header byte 23 (63 in the file, 0 from the builder) then differs.
    RobloxMesh withUnused = built;
    withUnused.v4Unused = m.v4Unused;
    EXPECT_EQ(WriteRobloxMesh(withUnused), file);
}

// ---------------------------------------------------------------- skinning

TEST(RobloxMeshBuilder, ThirtyBonesSplitIntoTwoSubsets) {
    const BuildInput in = Strip();
    const RobloxMesh m = BuildRobloxMesh(in);
    EXPECT_EQ(m.version, "4.00");
    ASSERT_EQ(m.subsets.size(), 2u);
    // Faces 0-23 use bones 0-25; face 24 would add bone 26. The rest use bones 24-29 and 0-11.
    EXPECT_EQ(m.subsets[0].facesLength, 24u);
    EXPECT_EQ(m.subsets[0].numBoneIndices, 26u);
    EXPECT_EQ(m.subsets[0].vertsLength, 26u);
    EXPECT_EQ(m.subsets[1].facesLength, 16u);
    EXPECT_EQ(m.subsets[1].numBoneIndices, 18u);
    EXPECT_EQ(m.subsets[1].vertsLength, 18u);
    // Vertices 24 and 25 sit in both subsets: duplicated.
    ASSERT_EQ(m.vertices.size(), 44u);
    EXPECT_EQ(m.vertices[24].u, 24.0f);
    EXPECT_EQ(m.vertices[26].u, 24.0f);
    EXPECT_EQ(m.vertices[27].u, 25.0f);
    EXPECT_EQ(m.lodOffsets, (std::vector<std::uint32_t>{0, 40}));
    EXPECT_EQ(m.lodType, 0);
    EXPECT_EQ(m.numHighQualityLODs, 1);
    CheckSkin(m, in);
}

TEST(RobloxMeshBuilder, SubsetsNeverCrossALodBoundary) {
    BuildInput in = Strip();
    std::vector<Face> lod1;
    for (std::size_t k = 0; k < 40; k += 2) lod1.push_back(in.lods[0][k]);
    in.lods.push_back(lod1);
    const RobloxMesh m = BuildRobloxMesh(in);
    EXPECT_EQ(m.lodOffsets, (std::vector<std::uint32_t>{0, 40, 60}));
    EXPECT_EQ(m.lodType, 3);
    // LOD1: faces 0,2..22 use bones 0-24; face 24 would add 25 and 26.
    ASSERT_EQ(m.subsets.size(), 4u);
    EXPECT_EQ(m.subsets[2].facesBegin, 40u);
    EXPECT_EQ(m.subsets[2].facesLength, 12u);
    EXPECT_EQ(m.subsets[2].numBoneIndices, 25u);
    EXPECT_EQ(m.subsets[3].facesLength, 8u);
    // Every level has its own vertex copies (LOD1 reuses none of LOD0's).
    EXPECT_EQ(m.subsets[2].vertsBegin, 44u);
    CheckSkin(m, in);

    // Also when a level boundary falls inside what would otherwise be one subset.
    BuildInput small = Strip();
    small.lods = {{small.lods[0][0], small.lods[0][1]}, {small.lods[0][2]}};
    const RobloxMesh two = BuildRobloxMesh(small);
    ASSERT_EQ(two.subsets.size(), 2u);
    EXPECT_EQ(two.subsets[1].facesBegin, 2u);
    CheckSkin(two, small);
}

TEST(RobloxMeshBuilder, BonesAreSortedParentsFirst) {
    BuildInput in;
    for (std::size_t i = 0; i < 3; ++i) in.vertices.push_back(Tagged(i, static_cast<float>(i), 0, 0));
    in.lods = {{{0, 1, 2}}};
    // Hand (child of Arm), Arm (child of Root), Root; and a second root after them.
    in.bones = {{"Hand", 1, {}, {2, 0, 0}},
                {"Arm", 2, {}, {1, 0, 0}},
                {"Root", -1, {}, {0, 0, 0}},
                {"Other", -1, {}, {0, 9, 0}}};
    in.influences = {{{0, 1.0f}}, {{1, 0.75f}, {0, 0.25f}}, {{2, 1.0f}}};
    const RobloxMesh m = BuildRobloxMesh(in);
    ASSERT_EQ(m.bones.size(), 4u);
    // The smallest ready input index goes next, so a hierarchy stays together: Root (2) and Other (3)
    // are ready first; after Root, its child Arm (1) beats Other, then Hand (0).
    EXPECT_EQ(m.bones[0].name, "Root");
    EXPECT_EQ(m.bones[1].name, "Arm");
    EXPECT_EQ(m.bones[2].name, "Hand");
    EXPECT_EQ(m.bones[3].name, "Other");
    EXPECT_EQ(m.bones[0].parent, kNoBone);
    EXPECT_EQ(m.bones[1].parent, 0);
    EXPECT_EQ(m.bones[2].parent, 1);
    EXPECT_EQ(m.bones[3].parent, kNoBone);
    for (const Bone &b : m.bones) EXPECT_EQ(b.lodParent, b.parent);
    const std::string table(m.boneNames.begin(), m.boneNames.end());
    EXPECT_EQ(table, std::string("Root\0Arm\0Hand\0Other\0", 20));
    EXPECT_EQ(m.bones[2].nameOffset, 9u);
    EXPECT_EQ(m.bones[2].position, (std::array<float, 3>{2, 0, 0}));
    EXPECT_EQ(m.bones[3].position, (std::array<float, 3>{0, 9, 0}));
    CheckSkin(m, in);

    // An already sorted skeleton keeps its order.
    BuildInput sorted = Strip();
    const RobloxMesh s = BuildRobloxMesh(sorted);
    for (std::size_t b = 0; b < s.bones.size(); ++b) EXPECT_EQ(s.bones[b].name, "b" + std::to_string(b));
}

TEST(RobloxMeshBuilder, CullingIsTheFarthestInfluencedVertex) {
    BuildInput in;
    in.vertices = {Tagged(0, 3, 4, 0), Tagged(1, 10, 0, 2), Tagged(2, 0, 0, -1)};
    in.lods = {{{0, 1, 2}}};
    in.bones = {{"A", -1, {}, {0, 0, 0}}, {"B", 0, {}, {10, 0, 0}}, {"C", 0, {}, {0, 5, 0}}};
    in.influences = {{{0, 1.0f}}, {{0, 0.5f}, {1, 0.5f}}, {{0, 1.0f}}};
    const RobloxMesh m = BuildRobloxMesh(in);
    EXPECT_FLOAT_EQ(m.bones[0].culling, std::sqrt(104.0f)); // (10,0,2) from the origin
    EXPECT_FLOAT_EQ(m.bones[1].culling, 2.0f);
    EXPECT_EQ(m.bones[2].culling, 0.0f); // influences nothing
}

TEST(RobloxMeshBuilder, CullingMatchesTheCorpus500File) {
    GAMEFMT_REQUIRE_CORPUS(dir, "mesh");
    const Bytes file = gamefmt::test::ReadBytes(dir / "krakow10_rbx_mesh__meshes_13674780763.mesh");
    const RobloxMesh m = ReadRobloxMesh(file.data(), file.size());
    ASSERT_EQ(m.bones.size(), 38u);
    // Rebuild the authoring input from the file: global influences per vertex, levels, bones.
    BuildInput in;
    in.vertices = m.vertices;
    in.influences.resize(m.vertices.size());
    for (const Subset &s : m.subsets)
        for (std::uint32_t v = s.vertsBegin; v < s.vertsBegin + s.vertsLength; ++v)
            for (std::size_t k = 0; k < 4; ++k)
                if (m.envelopes[v].weights[k] > 0)
                    in.influences[v].push_back(
                        {s.boneIndices[m.envelopes[v].bones[k]], m.envelopes[v].weights[k] / 255.0f});
    for (const LodLevel &l : LodLevels(m))
        in.lods.emplace_back(m.faces.begin() + l.faceBegin, m.faces.begin() + l.faceEnd);
    for (const Bone &b : m.bones)
        in.bones.push_back({b.name, b.parent == kNoBone ? -1 : b.parent, b.rotation, b.position});
    in.facs = m.facs;
    const RobloxMesh built = BuildRobloxMesh(in);
    EXPECT_EQ(built.version, "5.00");
    ASSERT_EQ(built.bones.size(), 38u);
    for (std::size_t b = 0; b < 38; ++b) {
        EXPECT_EQ(built.bones[b].name, m.bones[b].name);
        EXPECT_FLOAT_EQ(built.bones[b].culling, m.bones[b].culling) << m.bones[b].name;
    }
    // Same level structure, weights re-quantised to the same bytes.
    EXPECT_EQ(built.lodOffsets, m.lodOffsets);
    EXPECT_EQ(built.lodType, 3);
    ASSERT_TRUE(built.facs.has_value());
    EXPECT_EQ(built.facs->blob, m.facs->blob);
    CheckSkin(built, in, false);
}

TEST(RobloxMeshBuilder, UnweightedVerticesGoToTheRoot) {
    BuildInput in;
    in.vertices = {Tagged(0, 0, 0, 0), Tagged(1, 1, 0, 0), Tagged(2, 0, 1, 0)};
    in.lods = {{{0, 1, 2}}};
    in.bones = {{"Child", 1, {}, {}}, {"Root", -1, {}, {}}};
    in.influences = {{{0, 1.0f}}, {}, {{0, 0.0f}}};
    const RobloxMesh m = BuildRobloxMesh(in);
    ASSERT_EQ(m.subsets.size(), 1u);
    const Subset &s = m.subsets[0];
    for (std::size_t v : {1, 2}) {
        EXPECT_EQ(m.envelopes[v].weights, (std::array<std::uint8_t, 4>{255, 0, 0, 0}));
        EXPECT_EQ(m.bones[s.boneIndices[m.envelopes[v].bones[0]]].name, "Root");
    }
    EXPECT_TRUE(AnyWarning(m, "2 vertices have no bone weights; bound fully to root bone 'Root'"));
}

TEST(RobloxMeshBuilder, SkinnedOutputWritesAndReadsBackInEveryVersion) {
    BuildInput in = Strip();
    in.facs = Facs{1, MinimalFacs("b3"), std::nullopt};
    in.hsravis = Hsravis{3, {0x05}};
    for (const char *version : {"4.00", "4.01", "5.00", "6.00", "7.00"}) {
        SCOPED_TRACE(version);
        BuildOptions o;
        o.version = version;
        o.sloppyLods = true; // the strip is too thin for plain simplify
        const RobloxMesh m = BuildRobloxMesh(in, o);
        const Bytes bytes = WriteRobloxMesh(m);
        const RobloxMesh back = ReadRobloxMesh(bytes.data(), bytes.size());
        EXPECT_EQ(back.version, version);
        EXPECT_EQ(back.faces.size(), m.faces.size());
        EXPECT_EQ(back.subsets.size(), m.subsets.size());
        EXPECT_EQ(back.lodOffsets, m.lodOffsets);
        EXPECT_EQ(back.facs.has_value() && !back.facs->blob.empty(), version[0] >= '5');
        EXPECT_EQ(back.hsravis.has_value(), version[0] >= '6');
        CheckSkin(back, in);
    }
}

// ---------------------------------------------------------------- passthrough and dropping

TEST(RobloxMeshBuilder, FacsIsKeptOnlyWhenUsable) {
    BuildInput in = Strip();
    in.facs = Facs{1, MinimalFacs("b7"), std::nullopt};
    RobloxMesh m = BuildRobloxMesh(in);
    EXPECT_EQ(m.version, "5.00");
    ASSERT_TRUE(m.facs.has_value());
    EXPECT_EQ(m.facs->blob, in.facs->blob);

    // A face bone the skeleton lacks: auto writes 4.00 without FACS (§14.5).
    in.facs = Facs{1, MinimalFacs("Jaw"), std::nullopt};
    m = BuildRobloxMesh(in);
    EXPECT_EQ(m.version, "4.00");
    EXPECT_FALSE(m.facs.has_value());
    EXPECT_TRUE(AnyWarning(m, "face bone 'Jaw' is not in the skeleton"));

    // An explicit 5.00 stays 5.00, without the unusable blob.
    in.facs = Facs{1, {1, 2, 3}, std::nullopt};
    BuildOptions o;
    o.version = "5.00";
    m = BuildRobloxMesh(in, o);
    EXPECT_EQ(m.version, "5.00");
    EXPECT_FALSE(m.facs.has_value());
    EXPECT_TRUE(AnyWarning(m, "does not parse"));

    // FACS needs a skeleton and 5.00+.
    BuildInput rigid = Grid(2, 2);
    rigid.facs = Facs{1, MinimalFacs("b0"), std::nullopt};
    m = BuildRobloxMesh(rigid);
    EXPECT_EQ(m.version, "2.00");
    EXPECT_TRUE(AnyWarning(m, "no skeleton"));
    in.facs = Facs{1, MinimalFacs("b0"), std::nullopt};
    o.version = "4.00";
    m = BuildRobloxMesh(in, o);
    EXPECT_FALSE(m.facs.has_value());
    EXPECT_TRUE(AnyWarning(m, "4.00 cannot hold FACS"));
}

TEST(RobloxMeshBuilder, DropsWhatTheVersionCannotHold) {
    BuildInput in = Strip();
    in.lods.push_back({in.lods[0][0]});
    in.hsravis = Hsravis{8, {0xAA}};
    BuildOptions o;
    o.version = "2.00";
    const RobloxMesh m = BuildRobloxMesh(in, o);
    EXPECT_FALSE(m.hasSkinning());
    EXPECT_TRUE(m.envelopes.empty());
    EXPECT_EQ(m.faces.size(), 40u);
    EXPECT_FALSE(m.hsravis.has_value());
    EXPECT_TRUE(AnyWarning(m, "2.00 cannot hold skinning; 30 bones dropped"));
    EXPECT_TRUE(AnyWarning(m, "1 LOD levels dropped"));
    EXPECT_TRUE(AnyWarning(m, "cannot hold HSRAVIS"));
    EXPECT_NO_THROW(WriteRobloxMesh(m));

    o.version = "7.00";
    EXPECT_TRUE(BuildRobloxMesh(in, o).hsravis.has_value());

    BuildInput noWeights = Strip();
    noWeights.influences.clear();
    const RobloxMesh rigid = BuildRobloxMesh(noWeights);
    EXPECT_FALSE(rigid.hasSkinning());
    EXPECT_TRUE(AnyWarning(rigid, "no vertex weights"));

    BuildInput emptyLevel = Grid(2, 2);
    emptyLevel.lods.emplace_back();
    EXPECT_TRUE(AnyWarning(BuildRobloxMesh(emptyLevel), "LOD 1 has no faces"));
}

// ---------------------------------------------------------------- broken input

TEST(RobloxMeshBuilder, BrokenInputIsAClearError) {
    auto message = [](const BuildInput &in, const BuildOptions &o = {}) {
        return Thrown([&] { BuildRobloxMesh(in, o); }).message();
    };
    BuildInput empty;
    EXPECT_TRUE(Contains(message(empty), "no triangles"));
    empty.lods.emplace_back();
    EXPECT_TRUE(Contains(message(empty), "no triangles"));

    BuildInput face = Grid(1, 1);
    face.lods[0].push_back({0, 1, 9});
    EXPECT_TRUE(Contains(message(face), "LOD 0 face 2 references a vertex past the 4 vertices"));

    BuildInput nan = Grid(1, 1);
    nan.vertices[2].py = std::nanf("");
    EXPECT_TRUE(Contains(message(nan), "vertex 2 has a non-finite position"));

    BuildOptions bad;
    bad.version = "9.00";
    EXPECT_TRUE(Contains(message(Grid(1, 1), bad), "cannot build version '9.00'"));
    bad.version = "1.00";
    EXPECT_TRUE(Contains(message(Grid(1, 1), bad), "cannot build version '1.00'"));

    BuildInput cycle = Strip();
    cycle.bones[0].parent = 5;
    EXPECT_TRUE(Contains(message(cycle), "cycle"));
    BuildInput self = Strip();
    self.bones[3].parent = 3;
    EXPECT_TRUE(Contains(message(self), "bone 3 ('b3') has invalid parent 3"));
    BuildInput parent = Strip();
    parent.bones[3].parent = 30;
    EXPECT_TRUE(Contains(message(parent), "invalid parent 30"));

    BuildInput influence = Strip();
    influence.influences[4].push_back({30, 0.5f});
    EXPECT_TRUE(Contains(message(influence), "vertex 4 is influenced by bone 30 past the 30 bones"));
    BuildInput negative = Strip();
    negative.influences[4][0].weight = -0.5f;
    EXPECT_TRUE(Contains(message(negative), "vertex 4 has weight"));
    BuildInput count = Strip();
    count.influences.pop_back();
    EXPECT_TRUE(Contains(message(count), "41 influence lists for 42 vertices"));

    BuildInput many = Strip();
    many.bones.resize(65536, many.bones[1]);
    EXPECT_TRUE(Contains(message(many), "65536 bones; a Roblox mesh holds at most 65535"));

    EXPECT_EQ(Thrown([&] { BuildRobloxMesh(BuildInput{}); }).format(), "Roblox mesh");
}

// Large inputs stay linear: a 200 x 200 grid (80 000 faces) with 64 bones in bands, generated LODs.
TEST(RobloxMeshBuilder, LargeSkinnedMeshBuilds) {
    BuildInput in = Grid(200, 200);
    for (int b = 0; b < 64; ++b) in.bones.push_back({"bone" + std::to_string(b), b == 0 ? -1 : 0, {}, {}});
    in.influences.resize(in.vertices.size());
    for (std::size_t i = 0; i < in.vertices.size(); ++i) {
        const auto band = static_cast<std::uint32_t>(in.vertices[i].px * 63.0f);
        in.influences[i] = {{band, 0.7f}, {(band + 1) % 64, 0.3f}};
    }
    BuildOptions o;
    o.version = "7.00";
    const RobloxMesh m = BuildRobloxMesh(in, o);
    EXPECT_GE(LodLevels(m).size(), 2u);
    CheckSkin(m, in);
}

} // namespace
