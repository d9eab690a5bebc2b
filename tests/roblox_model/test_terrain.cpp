// Roblox terrain (docs/formats/roblox-terrain.md): decode vector A of §9.2 exactly with its negative variants, the
// §4.2 delta examples, the mesher vectors of §9.3 (counts, planes, winding, closedness, no seam across a chunk
// border), MaterialColors defaults, and hostile blobs.
#include "common/error.hpp"
#include "fixtures/rbx_place_fixtures.hpp"
#include "fixtures/terrain_distance.hpp"
#include "importers/roblox_model/geometry/terrain.hpp"
#include "meshing/terrain_mesher.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <vector>

namespace gamefmt {
namespace {

using Bytes = std::vector<std::uint8_t>;

void Append(Bytes &b, std::initializer_list<std::uint8_t> bytes, int times = 1) {
    for (int i = 0; i < times; ++i) b.insert(b.end(), bytes);
}

// Vector A of §9.2.
Bytes VectorA() {
    Bytes b = {0x01, 0x05};
    Append(b, {0xFF, 0x00, 0x00, 0xFF, 0x00, 0x00, 0xFF, 0x00, 0x00, 0xFF, 0x00, 0x02});
    Append(b, {0x02, 0xC8, 0x7F, 0x02, 0x46, 0x3F, 0x01, 0xC6, 0x80, 0x00, 0x40});
    Append(b, {0x80, 0xFF}, 127);
    Append(b, {0x80, 0xF8});
    Append(b, {0x00, 0x00, 0xFF, 0x00, 0x00, 0xFF, 0x00, 0x00, 0xFF, 0x01, 0x01, 0xFB});
    Append(b, {0x8D, 0xFF}, 127);
    Append(b, {0x8D, 0xFE, 0x0C});
    return b;
}

rbx::TerrainGrid Decode(const Bytes &b) {
    return rbx::DecodeSmoothGrid(b.data(), b.size());
}

TEST(RbxTerrain, VectorADecodesExactly) {
    const Bytes a = VectorA();
    ASSERT_EQ(a.size(), 550u);
    const rbx::TerrainGrid g = Decode(a);
    ASSERT_EQ(g.chunks.size(), 2u);
    EXPECT_EQ(g.runs, 262u);
    EXPECT_EQ(g.nonAirVoxels, 32775u);
    EXPECT_EQ(g.chunks[0].position, (std::array<std::int32_t, 3>{-1, 0, 2}));
    EXPECT_EQ(g.chunks[1].position, (std::array<std::int32_t, 3>{0, 1, -3}));
    std::map<int, int> counts;
    for (const auto &c : g.chunks)
        for (std::uint8_t m : c.material) ++counts[m];
    EXPECT_EQ(counts, (std::map<int, int>{{0, 32761}, {1, 1}, {2, 1}, {6, 2}, {8, 3}, {12, 1}, {13, 32767}}));
    const rbx::TerrainChunk &c0 = g.chunks[0];
    EXPECT_EQ(c0.occupancy[0], 255);  // Grass, no byte: full
    EXPECT_EQ(c0.occupancy[1], 0x7F); // Rock 0.5
    EXPECT_EQ(c0.occupancy[4], 0x3F); // Sand 0.25
    // The shoreline voxel 6 (global (−26, 0, 64)): Sand 129/256 with liquid 65/256.
    ASSERT_FALSE(c0.liquid.empty());
    EXPECT_EQ(c0.material[6], 6);
    EXPECT_EQ(c0.occupancy[6], 0x80);
    EXPECT_EQ(c0.liquid[6], 0x41);
    EXPECT_EQ(32 * c0.position[0] + (6 & 31), -26);
    EXPECT_EQ(32 * c0.position[2] + ((6 >> 5) & 31), 64);
    // Mud: the last voxel of chunk (0, 1, −3) = global (31, 63, −65).
    EXPECT_EQ(g.chunks[1].material[32767], 12);
    EXPECT_TRUE(g.warnings.empty());
}

TEST(RbxTerrain, VectorANegativeVariants) {
    const Bytes a = VectorA();
    for (std::size_t cut = 0; cut < a.size(); ++cut) {
        const Bytes prefix(a.begin(), a.begin() + static_cast<std::ptrdiff_t>(cut));
        if (cut == 2 || cut == 281) {
            EXPECT_NO_THROW(Decode(prefix)) << cut;
            EXPECT_EQ(Decode(prefix).chunks.size(), cut == 2 ? 0u : 1u);
        } else {
            EXPECT_THROW(Decode(prefix), FormatError) << cut;
        }
    }
    for (std::size_t extra = 1; extra <= 11; ++extra) {
        Bytes b = a;
        b.insert(b.end(), extra, 0);
        EXPECT_THROW(Decode(b), FormatError);
    }
    Bytes cross = a;
    ASSERT_EQ(cross[279], 0x80);
    ASSERT_EQ(cross[280], 0xF8);
    cross[280] = 0xF9;
    EXPECT_THROW(Decode(cross), FormatError);
    for (const Bytes &header : {Bytes{0x01, 0x04}, Bytes{0x02, 0x05}}) {
        Bytes b = a;
        b[0] = header[0];
        b[1] = header[1];
        EXPECT_THROW(Decode(b), FormatError);
    }
    EXPECT_EQ(Decode(Bytes{0x01, 0x05}).chunks.size(), 0u); // Studio's empty terrain
}

// One chunk at (0, 0, 0) holding `runs`.
Bytes OneChunk(const Bytes &runs) {
    Bytes b = {0x01, 0x05};
    b.insert(b.end(), 12, 0);
    b.insert(b.end(), runs.begin(), runs.end());
    return b;
}

struct Stats {
    std::size_t triangles = 0, vertices = 0;
    double volume = 0;
    std::size_t edges = 0;
};

Stats Measure(const rbx::TerrainSurface &s) {
    Stats st;
    std::set<std::pair<std::uint32_t, std::uint32_t>> edges;
    std::set<std::uint32_t> used;
    for (const auto &tris : s.trianglesByMaterial) {
        for (std::size_t t = 0; t + 2 < tris.size(); t += 3) {
            ++st.triangles;
            const rbx::Vector3 &a = s.positions[tris[t]], &b = s.positions[tris[t + 1]], &c = s.positions[tris[t + 2]];
            st.volume += (double(a.x) * (double(b.y) * c.z - double(b.z) * c.y) -
                          double(a.y) * (double(b.x) * c.z - double(b.z) * c.x) +
                          double(a.z) * (double(b.x) * c.y - double(b.y) * c.x)) /
                         6;
            for (int k = 0; k < 3; ++k) {
                const std::uint32_t u = tris[t + k], v = tris[t + (k + 1) % 3];
                edges.insert({std::min(u, v), std::max(u, v)});
                used.insert(u);
            }
        }
    }
    st.edges = edges.size();
    st.vertices = used.size();
    return st;
}

TEST(RbxTerrain, MesherVectors) {
    // slab: Grass full at local y = 0.
    Bytes slab;
    Append(slab, {0x82, 0xFF}, 4);
    Append(slab, {0x80, 0xFF}, 124);
    const Bytes slabBlob = OneChunk(slab);
    ASSERT_EQ(slabBlob.size(), 270u);
    const rbx::TerrainSurface s = rbx::MeshTerrain(Decode(slabBlob), {});
    const Stats st = Measure(s);
    EXPECT_EQ(st.triangles, 4352u);
    EXPECT_EQ(st.vertices, 2178u);
    EXPECT_EQ(static_cast<long>(st.vertices) - static_cast<long>(st.edges) + static_cast<long>(st.triangles),
              2); // closed
    EXPECT_NEAR(st.volume, 126973.6, 0.1);
    std::size_t top = 0, bottom = 0;
    for (const rbx::Vector3 &p : s.positions) {
        top += std::fabs(p.y - 6) < 1e-4f ? 1 : 0;
        bottom += std::fabs(p.y + 2) < 1e-4f ? 1 : 0;
        EXPECT_GE(p.x, 0);
        EXPECT_LE(p.x, 128);
        EXPECT_GE(p.z, 0);
        EXPECT_LE(p.z, 128);
    }
    EXPECT_EQ(top, 961u);
    EXPECT_EQ(bottom, 961u);
    EXPECT_EQ(s.trianglesByMaterial[2].size(), 3 * 4352u); // all Grass

    // voxel and half voxel: 6 quads, 8 vertices at 2 ± 4/3 (± 2/3).
    for (const auto &[lead, half] :
         {std::make_pair(Bytes{0x02}, 4.0f / 3), std::make_pair(Bytes{0x42, 0x7F}, 2.0f / 3)}) {
        Bytes runs = lead;
        Append(runs, {0x80, 0xFF}, 127);
        Append(runs, {0x80, 0xFE});
        const rbx::TerrainSurface v = rbx::MeshTerrain(Decode(OneChunk(runs)), {});
        const Stats vs = Measure(v);
        EXPECT_EQ(vs.triangles, 12u);
        EXPECT_EQ(vs.vertices, 8u);
        for (const rbx::Vector3 &p : v.positions)
            for (float c : {p.x, p.y, p.z}) EXPECT_NEAR(std::fabs(c - 2), half, 1e-5);
        EXPECT_NEAR(vs.volume, std::pow(2 * half, 3), 1e-3);
    }
}

// The slab repeated in chunk (1, 0, 0): one closed surface, the border vertices shared (no seam).
TEST(RbxTerrain, NoSeamAcrossAChunkBorder) {
    Bytes b = {0x01, 0x05};
    for (int chunk = 0; chunk < 2; ++chunk) {
        Append(b, {0, 0, 0, 0, 0, 0, 0, 0, 0, static_cast<std::uint8_t>(chunk), 0, 0});
        Append(b, {0x82, 0xFF}, 4);
        Append(b, {0x80, 0xFF}, 124);
    }
    const Stats st = Measure(rbx::MeshTerrain(Decode(b), {}));
    EXPECT_EQ(static_cast<long>(st.vertices) - static_cast<long>(st.edges) + static_cast<long>(st.triangles), 2);
    // Top 64 × 32 + bottom 64 × 32 + sides 2 × 64 + 2 × 32 quads.
    EXPECT_EQ(st.triangles, 2u * (2 * 64 * 32 + 2 * 64 + 2 * 32));
}

// Water: one liquid voxel on top of a solid one meshes its own closed surface, minus the face against the solid.
TEST(RbxTerrain, WaterPassAndStride) {
    Bytes runs = {0x02};           // Grass at (0,0,0)
    Append(runs, {0x80, 0xFF}, 3); // 768 Air: to voxel 769
    Append(runs, {0x80, 0xFE});    // 255 more: voxel 1024 = (0, 1, 0)
    Append(runs, {0x01});          // Water at (0, 1, 0)
    Append(runs, {0x80, 0xFF}, 123);
    Append(runs, {0x80, 0xFE});
    const rbx::TerrainGrid g = Decode(OneChunk(runs));
    ASSERT_EQ(g.chunks[0].material[1024], 1);
    rbx::TerrainMeshOptions dry;
    dry.water = false;
    EXPECT_TRUE(rbx::MeshTerrain(g, dry).trianglesByMaterial[1].empty());
    const rbx::TerrainSurface wet = rbx::MeshTerrain(g, {});
    EXPECT_EQ(wet.trianglesByMaterial[1].size(), 3u * 10); // 5 faces: not the one against the Grass
    EXPECT_EQ(wet.trianglesByMaterial[2].size(), 3u * 12);
    // Stride 2: the 2³ block of (0,0,0) holds one Grass voxel (mean occupancy 1/8): still a solid cell.
    rbx::TerrainMeshOptions coarse;
    coarse.stride = 2;
    const rbx::TerrainSurface c = rbx::MeshTerrain(g, coarse);
    EXPECT_EQ(c.trianglesByMaterial[2].size(), 3u * 12);
    for (const rbx::Vector3 &p : c.positions) EXPECT_LE(std::fabs(p.x - 4), 4.0f); // cells of 8 studs, centre 4
}

// ------------------------------------------------------------------ the chunked mesher and its simplification

// A grid of chunks from a voxel function (fixtures::EncodeSmoothGrid), decoded.
rbx::TerrainGrid GridOf(fixtures::TerrainVoxelFn voxel, const std::vector<std::array<std::int32_t, 3>> &chunks) {
    const Bytes blob = fixtures::EncodeSmoothGrid(voxel, chunks);
    return Decode(blob);
}

// Rolling hills over x, z (two octaves, no flat spot), Rock under Grass, a pond of water in one corner.
fixtures::TerrainVoxel Hills(std::int32_t x, std::int32_t y, std::int32_t z) {
    const float h = 20.0f + 6.0f * std::sin(static_cast<float>(x) / 9.0f) * std::cos(static_cast<float>(z) / 11.0f) +
                    2.0f * std::sin(static_cast<float>(x + 2 * z) / 5.0f);
    const float fy = static_cast<float>(y);
    if (fy < h - 1) return {8, 255, -1};
    if (fy < h) return {2, static_cast<std::uint8_t>(std::clamp((h - fy) * 256 - 1, 0.0f, 254.0f)), -1};
    if (x > 40 && z > 40 && y < 22) return {1, 255, -1};
    return {};
}

// A flat plain of Grass whose top voxel layer is half full: perfectly flat everywhere.
fixtures::TerrainVoxel Plain(std::int32_t, std::int32_t y, std::int32_t) {
    if (y < 3) return {8, 255, -1};
    if (y == 3) return {2, 127, -1};
    return {};
}

const std::vector<std::array<std::int32_t, 3>> kTwoByTwo = {{0, 0, 0}, {0, 0, 1}, {1, 0, 0}, {1, 0, 1}};

// Every edge of a closed surface is used by exactly two triangles, in opposite directions.
// Water surfaces are open (no faces against solids, §8.3): only the solid materials are checked.
void ExpectClosed(const rbx::TerrainSurface &s, const char *what) {
    std::map<std::pair<std::uint32_t, std::uint32_t>, int> directed;
    for (std::size_t m = 2; m < s.trianglesByMaterial.size(); ++m)
        for (std::size_t t = 0, n = s.trianglesByMaterial[m].size(); t + 2 < n; t += 3) {
            const auto &tris = s.trianglesByMaterial[m];
            for (int k = 0; k < 3; ++k) ++directed[{tris[t + k], tris[t + (k + 1) % 3]}];
        }
    std::size_t bad = 0;
    for (const auto &[edge, count] : directed) {
        const auto reverse = directed.find({edge.second, edge.first});
        if (count != 1 || reverse == directed.end() || reverse->second != 1) {
            if (bad < 12)
                ADD_FAILURE() << what << ": edge " << s.positions[edge.first].x << "," << s.positions[edge.first].y
                              << "," << s.positions[edge.first].z << " -> " << s.positions[edge.second].x << ","
                              << s.positions[edge.second].y << "," << s.positions[edge.second].z << " x" << count;
            ++bad;
        }
    }
    EXPECT_EQ(bad, 0u) << what << ": edges not shared by exactly two opposite triangles (a crack or a T-junction)";
}

std::size_t TriangleCount(const rbx::TerrainSurface &s) {
    std::size_t n = 0;
    for (const auto &t : s.trianglesByMaterial) n += t.size() / 3;
    return n;
}

// Every vertex is a surface vertex: at most one copy of a position (chunk borders stitched, no duplicates).
void ExpectNoDuplicateVertices(const rbx::TerrainSurface &s) {
    std::set<std::array<float, 3>> seen;
    for (const rbx::Vector3 &p : s.positions)
        EXPECT_TRUE(seen.insert({p.x, p.y, p.z}).second) << p.x << " " << p.y << " " << p.z;
}

// Normals from the output alone (the oracle): at full resolution the triangles come in quads (v0 v1 v2, v0 v2 v3,
// §8.2 step 3); each vertex's normal is the normalised sum of the area-weighted normals (the sum of the two
// triangles' (b − a) × (c − a)) of the quads around it (§8.2 step 5).
std::vector<rbx::Vector3> OracleNormals(const rbx::TerrainSurface &s) {
    std::vector<double> sum(3 * s.positions.size(), 0.0);
    const auto cross = [&](std::uint32_t i, std::uint32_t j, std::uint32_t k, double *n) {
        const rbx::Vector3 &a = s.positions[i], &b = s.positions[j], &c = s.positions[k];
        const double u[3] = {b.x - a.x, b.y - a.y, b.z - a.z}, v[3] = {c.x - a.x, c.y - a.y, c.z - a.z};
        n[0] += u[1] * v[2] - u[2] * v[1];
        n[1] += u[2] * v[0] - u[0] * v[2];
        n[2] += u[0] * v[1] - u[1] * v[0];
    };
    for (const auto &tris : s.trianglesByMaterial)
        for (std::size_t q = 0; q + 5 < tris.size(); q += 6) {
            const std::uint32_t *t = &tris[q];
            EXPECT_TRUE(t[3] == t[0] && t[4] == t[2]) << "not a quad at " << q;
            double n[3] = {0, 0, 0};
            cross(t[0], t[1], t[2], n);
            cross(t[3], t[4], t[5], n);
            for (const std::uint32_t v : {t[0], t[1], t[2], t[5]})
                for (int k = 0; k < 3; ++k) sum[3 * std::size_t{v} + static_cast<std::size_t>(k)] += n[k];
        }
    std::vector<rbx::Vector3> out(s.positions.size());
    for (std::size_t i = 0; i < out.size(); ++i) {
        const double *n = &sum[3 * i];
        const double l = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        if (l > 0) out[i] = {float(n[0] / l), float(n[1] / l), float(n[2] / l)};
    }
    return out;
}

// Full resolution over four chunks: closed, no duplicate vertices, and every normal — those on the chunk borders
// x = 128 and z = 128 included, whose quads come from both chunks — equals the oracle's.
TEST(RbxTerrainMesher, SeamsHaveOneVertexAndNormalsFromBothSides) {
    const rbx::TerrainGrid g = GridOf(Hills, kTwoByTwo);
    const rbx::TerrainSurface s = rbx::MeshTerrain(g, {});
    ExpectClosed(s, "full resolution");
    ExpectNoDuplicateVertices(s);
    const std::vector<rbx::Vector3> oracle = OracleNormals(s);
    std::size_t seam = 0, seamBothSides = 0;
    std::vector<std::uint8_t> sides(s.positions.size(), 0);
    for (const auto &tris : s.trianglesByMaterial)
        for (std::size_t t = 0; t + 2 < tris.size(); t += 3) {
            const float cx = (s.positions[tris[t]].x + s.positions[tris[t + 1]].x + s.positions[tris[t + 2]].x) / 3;
            for (int k = 0; k < 3; ++k) sides[tris[t + k]] |= cx < 128 ? 1 : 2;
        }
    for (std::size_t i = 0; i < s.positions.size(); ++i) {
        EXPECT_NEAR(s.normals[i].x, oracle[i].x, 1e-4) << i;
        EXPECT_NEAR(s.normals[i].y, oracle[i].y, 1e-4) << i;
        EXPECT_NEAR(s.normals[i].z, oracle[i].z, 1e-4) << i;
        if (std::fabs(s.positions[i].x - 128) < 2.1f) {
            ++seam;
            seamBothSides += sides[i] == 3 ? 1 : 0;
        }
    }
    EXPECT_GT(seam, 100u);
    EXPECT_GT(seamBothSides, 100u); // one vertex, used by both chunks' triangles
}

// Simplified: still closed across the chunk borders (every border vertex locked on both sides), no duplicate
// vertices, far fewer triangles, and within the error of the full surface (sampled both ways by the oracle).
TEST(RbxTerrainMesher, SimplifiedSurfaceIsClosedAndWithinTheBound) {
    const rbx::TerrainGrid g = GridOf(Hills, kTwoByTwo);
    const rbx::TerrainSurface full = rbx::MeshTerrain(g, {});
    rbx::TerrainMeshOptions options;
    options.error = 0.5f;
    const rbx::TerrainSurface s = rbx::MeshTerrain(g, options);
    ExpectClosed(s, "simplified");
    ExpectNoDuplicateVertices(s);
    EXPECT_EQ(s.fullTriangles, TriangleCount(full));
    EXPECT_LT(TriangleCount(s), TriangleCount(full) / 2);
    EXPECT_FALSE(s.trianglesByMaterial[1].empty()); // the pond
    for (const bool water : {false, true}) {
        const fixtures::TriangleGrid toFull(full, water), toSimplified(s, water);
        const fixtures::Distances there = fixtures::SampledDistances(s, toFull, water, 20000);
        const fixtures::Distances back = fixtures::SampledDistances(full, toSimplified, water, 20000);
        EXPECT_GT(there.samples, 100u);
        // meshoptimizer's bound is a quadric estimate, not a hard distance: allow twice the bound at the worst
        // sample; the mean stays well under it (docs/performance.md has the measured figures).
        EXPECT_LE(there.max, 1.0) << water;
        EXPECT_LE(back.max, 1.0) << water;
        EXPECT_LE(there.mean(), 0.25) << water;
        EXPECT_LE(back.mean(), 0.25) << water;
    }
}

// Flat ground simplifies exactly: the plain's top stays the plane y = 4·3 + 2 + 4·0.5 = 16, its inner vertices go,
// and every remaining vertex is a full-resolution vertex or a rectangle's centre on that plane.
TEST(RbxTerrainMesher, FlatGroundSimplifiesExactly) {
    const rbx::TerrainGrid g = GridOf(Plain, kTwoByTwo);
    const rbx::TerrainSurface full = rbx::MeshTerrain(g, {});
    rbx::TerrainMeshOptions options;
    options.error = 0.5f;
    options.threads = 2;
    const rbx::TerrainSurface s = rbx::MeshTerrain(g, options);
    ExpectClosed(s, "plain");
    // Each chunk's top and bottom keep their locked borders (4 × 32 vertices each: a fan of ~128 triangles) and
    // the rounded rim goes to meshoptimizer: 18,432 triangles become about 3,000.
    EXPECT_LT(TriangleCount(s) * 5, TriangleCount(full));
    std::set<std::array<float, 3>> fullVertices;
    for (const rbx::Vector3 &p : full.positions) fullVertices.insert({p.x, p.y, p.z});
    std::size_t top = 0;
    for (const rbx::Vector3 &p : s.positions) {
        if (p.y == 16.0f) ++top;
        EXPECT_TRUE(fullVertices.count({p.x, p.y, p.z}) != 0 || p.y == 16.0f || p.y == -2.0f)
            << p.x << " " << p.y << " " << p.z;
    }
    EXPECT_GT(top, 4u);
    const Stats a = Measure(full), b = Measure(s);
    EXPECT_NEAR(b.volume, a.volume, a.volume * 1e-3);
}

// A 3 × 1 × 3 plain: the middle chunk's neighbourhood is layered, so it takes the shortcut (whole flat layers
// without the general path); the output is exactly what the general path makes.
TEST(RbxTerrainMesher, LayeredShortcutMakesWhatTheGeneralPathMakes) {
    std::vector<std::array<std::int32_t, 3>> chunks;
    for (std::int32_t x = 0; x < 3; ++x)
        for (std::int32_t z = 0; z < 3; ++z) chunks.push_back({x, 0, z});
    const rbx::TerrainGrid g = GridOf(Plain, chunks);
    for (const rbx::TerrainChunk &c : g.chunks) {
        EXPECT_TRUE(c.layered);
        EXPECT_EQ(c.layers[3], 2 << 8 | 127); // Grass, half full
        EXPECT_EQ(c.layers[0], 8 << 8 | 255); // Rock
        EXPECT_EQ(c.layers[4], 0 << 8 | 255); // Air
    }
    for (const int stride : {1, 2, 4}) {
        rbx::TerrainMeshOptions options;
        options.error = 0.5f;
        options.stride = stride;
        const rbx::TerrainSurface quick = rbx::MeshTerrain(g, options);
        options.layeredShortcut = false;
        const rbx::TerrainSurface general = rbx::MeshTerrain(g, options);
        ASSERT_EQ(quick.positions.size(), general.positions.size()) << stride;
        EXPECT_EQ(0, std::memcmp(quick.positions.data(), general.positions.data(),
                                 quick.positions.size() * sizeof(rbx::Vector3)));
        EXPECT_EQ(
            0, std::memcmp(quick.normals.data(), general.normals.data(), quick.normals.size() * sizeof(rbx::Vector3)));
        EXPECT_EQ(quick.trianglesByMaterial, general.trianglesByMaterial) << stride;
        EXPECT_EQ(quick.fullTriangles, general.fullTriangles) << stride;
        ExpectClosed(quick, "layered plain");
    }
}

// The output is the same whatever the thread count (chunks meshed in any order, stitched in chunk order).
TEST(RbxTerrainMesher, SameOutputForAnyThreadCount) {
    const rbx::TerrainGrid g = GridOf(Hills, kTwoByTwo);
    for (const float error : {0.0f, 0.5f}) {
        rbx::TerrainMeshOptions one;
        one.error = error;
        const rbx::TerrainSurface a = rbx::MeshTerrain(g, one);
        for (const int threads : {2, 3, 8}) {
            rbx::TerrainMeshOptions many = one;
            many.threads = threads;
            const rbx::TerrainSurface b = rbx::MeshTerrain(g, many);
            ASSERT_EQ(a.positions.size(), b.positions.size()) << threads;
            EXPECT_EQ(0,
                      std::memcmp(a.positions.data(), b.positions.data(), a.positions.size() * sizeof(rbx::Vector3)));
            EXPECT_EQ(0, std::memcmp(a.normals.data(), b.normals.data(), a.normals.size() * sizeof(rbx::Vector3)));
            EXPECT_EQ(a.trianglesByMaterial, b.trianglesByMaterial) << threads;
        }
    }
}

// A 3×3×3 block of solid Rock chunks: every chunk decodes uniform (no arrays), the hidden centre chunk is skipped
// whole, and the cube's surface is the six faces (96 × 96 quads each, full resolution).
fixtures::TerrainVoxel Rock(std::int32_t, std::int32_t, std::int32_t) {
    return {8, 255, -1};
}

TEST(RbxTerrainMesher, UniformChunksCostNothingInside) {
    std::vector<std::array<std::int32_t, 3>> chunks;
    for (std::int32_t x = 0; x < 3; ++x)
        for (std::int32_t y = 0; y < 3; ++y)
            for (std::int32_t z = 0; z < 3; ++z) chunks.push_back({x, y, z});
    const rbx::TerrainGrid g = GridOf(Rock, chunks);
    EXPECT_EQ(g.uniformChunks, 27u);
    for (const rbx::TerrainChunk &c : g.chunks) EXPECT_TRUE(c.material.empty() && c.occupancy.empty());
    EXPECT_EQ(g.nonAirVoxels, 27u * 32768);
    const rbx::TerrainSurface s = rbx::MeshTerrain(g, {});
    EXPECT_EQ(s.meshedChunks, 26u);
    EXPECT_EQ(TriangleCount(s), 6u * 96 * 96 * 2);
    ExpectClosed(s, "cube");
    rbx::TerrainMeshOptions options;
    options.error = 0.5f;
    const rbx::TerrainSurface simple = rbx::MeshTerrain(g, options);
    ExpectClosed(simple, "simplified cube");
    EXPECT_LT(TriangleCount(simple) * 10, TriangleCount(s));
    EXPECT_NEAR(Measure(simple).volume, Measure(s).volume, 1.0);
}

TEST(RbxTerrain, MaterialColorsAndNames) {
    const auto classic = rbx::TerrainMaterialColors(nullptr, 0);
    EXPECT_EQ(classic[2].r, 0x6A);
    EXPECT_EQ(classic[2].g, 0x7F);
    EXPECT_EQ(classic[2].b, 0x3F);
    Bytes blob(69, 0);
    blob[6] = 0x6F; // Grass of the 566 set
    blob[7] = 0x7E;
    blob[8] = 0x3E;
    const auto custom = rbx::TerrainMaterialColors(blob.data(), 9); // short: the rest classic
    EXPECT_EQ(custom[2].r, 0x6F);
    EXPECT_EQ(custom[22].r, 0x94);
    EXPECT_EQ(rbx::TerrainEnumMaterial(8), 896u);
    EXPECT_EQ(rbx::TerrainMaterialName(13), "Basalt");
    EXPECT_EQ(rbx::TerrainMaterialName(40), "Unknown40");
}

} // namespace
} // namespace gamefmt

// ------------------------------------------------------------------ the generated terrain place through the importer
#include "fixtures/rbx_place_fixtures.hpp"
#include "gamefmt/config.hpp"
#include "gamefmt/roblox_model.hpp"
#include "support/import_helpers.hpp"

#include <assimp/scene.h>

#include <tuple>

namespace gamefmt {
namespace {

test::ImportResult ImportTerrain(const std::function<void(Assimp::Importer &)> &setup = {}) {
    return test::ImportFile(test::TestDataDir() / "terrain-place.rbxl", 0, setup);
}

std::vector<std::string> MeshNames(const aiScene *s, const aiNode *n) {
    std::vector<std::string> out;
    for (unsigned i = 0; i < n->mNumMeshes; ++i) out.emplace_back(s->mMeshes[n->mMeshes[i]]->mName.C_Str());
    return out;
}

std::size_t Faces(const aiScene *s, const aiNode *n) {
    std::size_t f = 0;
    for (unsigned i = 0; i < n->mNumMeshes; ++i) f += s->mMeshes[n->mMeshes[i]]->mNumFaces;
    return f;
}

TEST(RbxTerrainScene, TerrainPlaceMeshesPerMaterialWithWater) {
    const test::ImportResult r = ImportTerrain();
    ASSERT_TRUE(r) << r.error;
    EXPECT_TRUE(r.validationWarnings.empty());
    const aiNode *terrain = r.scene->mRootNode->FindNode("Terrain");
    ASSERT_NE(terrain, nullptr);
    aiString geometry;
    ASSERT_TRUE(terrain->mMetaData != nullptr && terrain->mMetaData->Get(kRbxGeometry, geometry));
    EXPECT_STREQ(geometry.C_Str(), "terrain");
    std::uint64_t voxels = 0, chunks = 0;
    ASSERT_TRUE(terrain->mMetaData->Get(kRbxTerrainVoxels, voxels));
    ASSERT_TRUE(terrain->mMetaData->Get(kRbxTerrainChunks, chunks));
    EXPECT_EQ(voxels, fixtures::TerrainPlaceVoxels());
    EXPECT_EQ(chunks, 4u);
    // Materials in id order: Water 1, Grass 2, Sand 6, Rock 8.
    EXPECT_EQ(MeshNames(r.scene, terrain),
              (std::vector<std::string>{"Terrain_Water", "Terrain_Grass", "Terrain_Sand", "Terrain_Rock"}));
    const auto material = [&](unsigned k) {
        return r.scene->mMaterials[r.scene->mMeshes[terrain->mMeshes[k]]->mMaterialIndex];
    };
    aiColor4D grass;
    ASSERT_EQ(material(1)->Get(AI_MATKEY_COLOR_DIFFUSE, grass), aiReturn_SUCCESS);
    EXPECT_FLOAT_EQ(grass.r, 0x40 / 255.0f); // the file's MaterialColors, not the default
    EXPECT_FLOAT_EQ(grass.g, 0xA0 / 255.0f);
    float opacity = 1;
    ASSERT_EQ(material(0)->Get(AI_MATKEY_OPACITY, opacity), aiReturn_SUCCESS);
    EXPECT_FLOAT_EQ(opacity, 0.7f);
    int rbxMaterial = 0;
    ASSERT_EQ(material(3)->Get("$rbx.material", 0, 0, rbxMaterial), aiReturn_SUCCESS);
    EXPECT_EQ(rbxMaterial, 896); // Rock
    // World studs: the hill top (10 voxels high at the origin) stays under y = 4·10 + 2 + 4 = 46; the terrain
    // spans the four chunks (−128…128 studs in x and z at most).
    for (unsigned k = 0; k < terrain->mNumMeshes; ++k) {
        const aiMesh *m = r.scene->mMeshes[terrain->mMeshes[k]];
        for (unsigned v = 0; v < m->mNumVertices; ++v) {
            EXPECT_LE(m->mVertices[v].y, 46.0f);
            EXPECT_GE(m->mVertices[v].x, -130.0f);
            EXPECT_LE(m->mVertices[v].x, 130.0f);
        }
    }
}

TEST(RbxTerrainScene, OptionsSwitchTerrainWaterStrideErrorAndThreads) {
    const auto with = [](const char *name, int value) {
        return ImportTerrain([name, value](Assimp::Importer &i) { i.SetPropertyInteger(name, value); });
    };
    const test::ImportResult simplified = ImportTerrain(); // stride 1, error 0.5 by default
    const test::ImportResult full = with(GAMEFMT_RBX_TERRAIN_ERROR, 0);
    const test::ImportResult finer =
        ImportTerrain([](Assimp::Importer &i) { i.SetPropertyFloat(GAMEFMT_RBX_TERRAIN_ERROR, 0.05f); });
    const test::ImportResult coarse = with(GAMEFMT_RBX_TERRAIN_STRIDE, 2);
    const test::ImportResult single = with(GAMEFMT_RBX_TERRAIN_THREADS, 1);
    const test::ImportResult dry =
        ImportTerrain([](Assimp::Importer &i) { i.SetPropertyBool(GAMEFMT_RBX_TERRAIN_WATER, false); });
    const test::ImportResult off =
        ImportTerrain([](Assimp::Importer &i) { i.SetPropertyBool(GAMEFMT_RBX_TERRAIN, false); });
    for (const test::ImportResult *r : {&simplified, &full, &finer, &coarse, &single, &dry, &off})
        ASSERT_TRUE(*r) << r->error;
    const auto node = [](const test::ImportResult &r) { return r.scene->mRootNode->FindNode("Terrain"); };
    const std::size_t fullFaces = Faces(full.scene, node(full));
    EXPECT_LT(Faces(simplified.scene, node(simplified)) * 2, fullFaces);
    EXPECT_LT(Faces(simplified.scene, node(simplified)), Faces(finer.scene, node(finer)));
    EXPECT_LT(Faces(finer.scene, node(finer)), fullFaces);
    EXPECT_LT(Faces(coarse.scene, node(coarse)) * 3, fullFaces);
    EXPECT_EQ(Faces(single.scene, node(single)), Faces(simplified.scene, node(simplified)));
    EXPECT_EQ(MeshNames(dry.scene, node(dry)),
              (std::vector<std::string>{"Terrain_Grass", "Terrain_Sand", "Terrain_Rock"}));
    EXPECT_EQ(node(off)->mNumMeshes, 0u);
    for (const auto &[name, value, message] :
         {std::make_tuple(GAMEFMT_RBX_TERRAIN_STRIDE, 3, "GAMEFMT_RBX_TERRAIN_STRIDE is 3; valid values: 1, 2, 4"),
          std::make_tuple(GAMEFMT_RBX_TERRAIN_ERROR, -1, "GAMEFMT_RBX_TERRAIN_ERROR is -1"),
          std::make_tuple(GAMEFMT_RBX_TERRAIN_ERROR, 65, "valid values: 0 to 64 studs"),
          std::make_tuple(GAMEFMT_RBX_TERRAIN_THREADS, -2,
                          "GAMEFMT_RBX_TERRAIN_THREADS is -2; valid values: 0 to 256")}) {
        const test::ImportResult bad = with(name, value);
        EXPECT_FALSE(bad) << name;
        EXPECT_NE(bad.error.find(message), std::string::npos) << bad.error;
    }
}

// Every Studio terrain of the corpus is empty (01 05): no meshes, 0 voxels, 0 chunks (roblox-terrain.md §9.1).
TEST(RbxTerrainScene, CorpusTerrainsAreEmpty) {
    GAMEFMT_REQUIRE_CORPUS(dir, "rbx/rbx-test-files/places");
    for (const char *place : {"baseplate-566", "all-instances-415"}) {
        for (const char *file : {"binary.rbxl", "xml.rbxlx"}) {
            const test::ImportResult r = test::ImportFile(dir / place / file);
            ASSERT_TRUE(r) << r.error;
            const aiNode *terrain = r.scene->mRootNode->FindNode("Terrain");
            ASSERT_NE(terrain, nullptr) << place;
            EXPECT_EQ(terrain->mNumMeshes, 0u);
            std::uint64_t voxels = 1, chunks = 1;
            ASSERT_TRUE(terrain->mMetaData != nullptr && terrain->mMetaData->Get(kRbxTerrainVoxels, voxels));
            ASSERT_TRUE(terrain->mMetaData->Get(kRbxTerrainChunks, chunks));
            EXPECT_EQ(voxels, 0u);
            EXPECT_EQ(chunks, 0u);
        }
    }
}

} // namespace
} // namespace gamefmt
