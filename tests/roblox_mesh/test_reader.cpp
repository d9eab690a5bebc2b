// Tests of the Roblox mesh reader (codec layer): every corpus file against docs/formats/roblox-mesh.md §11 and
// hand-checked values, synthetic fixtures for every layout and edge case, and hostile input.
#include "fixtures/roblox_mesh_fixtures.hpp"
#include "support/import_helpers.hpp"

#include "common/error.hpp"
#include "fixtures/bytes.hpp"
#include "importers/roblox_mesh/mesh_reader.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <set>
#include <string>
#include <vector>

namespace {

using gamefmt::fixtures::Text;

namespace fx = gamefmt::fixtures::rbxmesh;
using gamefmt::FormatError;
using gamefmt::rbxmesh::Face;
using gamefmt::rbxmesh::kNoBone;
using gamefmt::rbxmesh::LodLevels;
using gamefmt::rbxmesh::ParseFacs;
using gamefmt::rbxmesh::ReadRobloxMesh;
using gamefmt::rbxmesh::RobloxMesh;
using gamefmt::rbxmesh::Vertex;
using gamefmt::test::ReadBytes;
using Bytes = std::vector<std::uint8_t>;

RobloxMesh Read(const Bytes &b) {
    return ReadRobloxMesh(b.data(), b.size());
}

// Reads `b`, expecting a FormatError at `offset` whose message contains `needle`.
void ExpectError(const Bytes &b, std::size_t offset, const std::string &needle) {
    try {
        Read(b);
        ADD_FAILURE() << "no error; expected '" << needle << "' at byte offset " << offset;
    } catch (const FormatError &e) {
        EXPECT_EQ(e.format(), "Roblox mesh");
        EXPECT_EQ(e.offset(), offset) << e.what();
        EXPECT_NE(e.message().find(needle), std::string::npos) << e.what();
    }
}

bool HasWarning(const RobloxMesh &m, const std::string &needle) {
    return std::any_of(m.warnings.begin(), m.warnings.end(),
                       [&](const std::string &w) { return w.find(needle) != std::string::npos; });
}

void PatchU16(Bytes &b, std::size_t at, std::uint16_t v) {
    b[at] = static_cast<std::uint8_t>(v & 0xFF);
    b[at + 1] = static_cast<std::uint8_t>(v >> 8);
}
void PatchU32(Bytes &b, std::size_t at, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) b[at + i] = static_cast<std::uint8_t>(v >> (8 * i));
}

void ExpectVertexEq(const Vertex &a, const Vertex &b) {
    EXPECT_EQ(a.px, b.px);
    EXPECT_EQ(a.py, b.py);
    EXPECT_EQ(a.pz, b.pz);
    EXPECT_EQ(a.nx, b.nx);
    EXPECT_EQ(a.ny, b.ny);
    EXPECT_EQ(a.nz, b.nz);
    EXPECT_EQ(a.u, b.u);
    EXPECT_EQ(a.v, b.v);
    EXPECT_EQ(a.tangent, b.tangent);
    EXPECT_EQ(a.color, b.color);
}

// The IEEE bits of a float, to compare with a hex dump of the file.
std::uint32_t Bits(float f) {
    std::uint32_t b;
    std::memcpy(&b, &f, sizeof b);
    return b;
}

std::vector<std::uint32_t> Offsets(std::initializer_list<std::uint32_t> v) {
    return v;
}

// |t| of the tangent bytes (t = b/127 - 1, §3.3).
float TangentLength(const Vertex &v) {
    float s = 0;
    for (int k = 0; k < 3; ++k) {
        const float t = v.tangent[k] / 127.0f - 1.0f;
        s += t * t;
    }
    return std::sqrt(s);
}

std::size_t DistinctVertices(const RobloxMesh &m, std::uint32_t faceBegin, std::uint32_t faceEnd) {
    std::set<std::uint32_t> used;
    for (std::uint32_t f = faceBegin; f < faceEnd; ++f) used.insert({m.faces[f].a, m.faces[f].b, m.faces[f].c});
    return used.size();
}

// ------------------------------------------------------------------ corpus (§11)

const char *const kSword = "ThePlayerRolo_old-roblox-mesh-type__project_Models_sword.mesh";
const char *const kTorso = "krakow10_rbx_mesh__meshes_torso.mesh";
const char *const kV300 = "krakow10_rbx_mesh__meshes_5115672913.mesh";
const char *const kV401 = "krakow10_rbx_mesh__meshes_7665777615.mesh";
const char *const kV500 = "krakow10_rbx_mesh__meshes_13674780763.mesh";
const char *const kDraco408 = "krakow10_rbx_mesh__meshes_mesh7_127279296594138.bin.mesh";
const char *const kCore1 = "krakow10_rbx_mesh__meshes_mesh7_112807239761722.bin.mesh";
const char *const kSkinned7 = "krakow10_rbx_mesh__meshes_mesh7_100025761449828.bin.mesh";

// Skinning facts of §7 shared by the 5.00 and the skinned 7.00 file.
void ExpectSkinningFacts(const RobloxMesh &m) {
    ASSERT_EQ(m.envelopes.size(), m.vertices.size());
    // Parents precede children, one root, lodParent == parent.
    std::size_t roots = 0;
    for (std::size_t i = 0; i < m.bones.size(); ++i) {
        const auto &b = m.bones[i];
        EXPECT_EQ(b.lodParent, b.parent);
        if (b.parent == kNoBone)
            ++roots;
        else
            EXPECT_LT(b.parent, i) << b.name;
    }
    EXPECT_EQ(roots, 1u);
    // Weights sum to 255, sorted descending; unused slots weight 0 and index 0; every influence maps
    // through the vertex's subset to a real bone.
    for (std::size_t v = 0; v < m.vertices.size(); ++v) {
        const auto &e = m.envelopes[v];
        EXPECT_EQ(e.weights[0] + e.weights[1] + e.weights[2] + e.weights[3], 255) << "vertex " << v;
        EXPECT_TRUE(std::is_sorted(e.weights.rbegin(), e.weights.rend())) << "vertex " << v;
        const auto subset = std::find_if(m.subsets.begin(), m.subsets.end(), [&](const auto &s) {
            return v >= s.vertsBegin && v < std::size_t{s.vertsBegin} + s.vertsLength;
        });
        ASSERT_NE(subset, m.subsets.end()) << "vertex " << v;
        for (int k = 0; k < 4; ++k) {
            if (e.weights[k] == 0) {
                EXPECT_EQ(e.bones[k], 0) << "vertex " << v;
                continue;
            }
            ASSERT_LT(e.bones[k], subset->numBoneIndices) << "vertex " << v;
            const std::uint16_t global = subset->boneIndices[e.bones[k]];
            EXPECT_LT(global, m.bones.size()) << "vertex " << v;
        }
    }
    // Subsets tile faces and vertices contiguously, and their faces use only their own vertices.
    std::uint32_t faceEnd = 0, vertEnd = 0;
    for (const auto &s : m.subsets) {
        EXPECT_EQ(s.facesBegin, faceEnd);
        EXPECT_EQ(s.vertsBegin, vertEnd);
        faceEnd = s.facesBegin + s.facesLength;
        vertEnd = s.vertsBegin + s.vertsLength;
        for (std::uint32_t f = s.facesBegin; f < faceEnd; ++f)
            for (std::uint32_t idx : {m.faces[f].a, m.faces[f].b, m.faces[f].c}) {
                EXPECT_GE(idx, s.vertsBegin);
                EXPECT_LT(idx, vertEnd);
            }
        for (std::size_t k = s.numBoneIndices; k < gamefmt::rbxmesh::kMaxBonesPerSubset; ++k)
            EXPECT_EQ(s.boneIndices[k], kNoBone);
    }
    EXPECT_EQ(faceEnd, m.faces.size());
    EXPECT_EQ(vertEnd, m.vertices.size());
}

// What every corpus file's header says, one row per file (sizes and counts from the files, checked against the
// reference's layout by the tests below); the per-file tests check the rest.
struct CorpusFacts {
    const char *name;
    std::size_t size;
    const char *version;
    std::size_t vertices, faces;
    std::vector<std::uint32_t> lodOffsets; // empty: not checked (versions 1.00 and 2.00 have none)
    std::size_t bones, subsets;            // 0 for the unskinned
    std::vector<std::string> chunks;       // 7.00: the chunk order
};
const CorpusFacts kCorpusFacts[] = {
    {kSword, 46147, "1.00", 594, 198, {}, 0, 0, {}},
    {kTorso, 2065, "2.00", 42, 44, {}, 0, 0, {}},
    {kV300, 27965, "3.00", 581, 390, {0, 272, 348, 390}, 0, 0, {}},
    {kV401, 174181, "4.01", 3165, 3960, {0, 2146, 3188, 3654, 3858, 3960}, 0, 0, {}},
    {kV500, 194790, "5.00", 2291, 2854, {0, 1731, 2595, 2854}, 38, 6, {}},
    {kDraco408, 10241, "7.00", 408, 268, {0, 0}, 0, 0, {"COREMESH", "LODS"}},
    {kCore1, 252, "7.00", 4, 2, {0, 2}, 0, 0, {"COREMESH", "LODS"}},
    {kSkinned7, 127309, "7.00", 1569, 2538, {0, 0}, 52, 2, {"COREMESH", "LODS", "SKINNING", "FACS"}},
};

TEST(RobloxMeshReader, CorpusHeaderFacts) {
    GAMEFMT_REQUIRE_CORPUS(dir, "mesh");
    for (const CorpusFacts &f : kCorpusFacts) {
        SCOPED_TRACE(f.name);
        const Bytes bytes = ReadBytes(dir / f.name);
        EXPECT_EQ(bytes.size(), f.size);
        const RobloxMesh m = Read(bytes);
        EXPECT_EQ(m.version, f.version);
        EXPECT_EQ(m.vertices.size(), f.vertices);
        EXPECT_EQ(m.faces.size(), f.faces);
        if (!f.lodOffsets.empty()) {
            EXPECT_EQ(m.lodOffsets, f.lodOffsets);
        }
        EXPECT_EQ(m.bones.size(), f.bones);
        EXPECT_EQ(m.subsets.size(), f.subsets);
        EXPECT_EQ(m.chunkOrder, f.chunks);
        EXPECT_TRUE(m.warnings.empty());
        EXPECT_TRUE(m.trailingBytes.empty());
    }
}

// A corpus file read; CorpusHeaderFacts checks its header values.
RobloxMesh ReadCorpusMesh(const std::filesystem::path &dir, const char *name) {
    return Read(ReadBytes(dir / name));
}

TEST(RobloxMeshReader, CorpusSword100) {
    GAMEFMT_REQUIRE_CORPUS(dir, "mesh");
    const Bytes bytes = ReadBytes(dir / kSword);
    const RobloxMesh m = Read(bytes);
    EXPECT_TRUE(m.isText());
    EXPECT_FALSE(m.textCrlf);
    EXPECT_FALSE(m.textFinalNewline);
    ASSERT_EQ(m.faces.size(), 198u);
    ASSERT_EQ(m.vertices.size(), 594u);
    for (std::uint32_t i = 0; i < 198; ++i) {
        EXPECT_EQ(m.faces[i].a, 3 * i); // unindexed, CCW order kept
        EXPECT_EQ(m.faces[i].b, 3 * i + 1);
        EXPECT_EQ(m.faces[i].c, 3 * i + 2);
    }

    // The expectation, computed independently from the text with strtof: the file starts
    // "[0.00302071,-0.235497,-3.95942][0,0,-1][0.51759,0.228315,0]", so vertex 0 is
    // (0.00302071/2, -0.235497/2, -3.95942/2), normal (0,0,-1), u 0.51759, v 1 - 0.228315.
    const std::string text(bytes.begin(), bytes.end());
    ASSERT_EQ(text.rfind("version 1.00\n198\n[0.00302071,-0.235497,-3.95942][0,0,-1][0.51759,0.228315,0]", 0), 0u);
    EXPECT_NE(text.find("e-006"), std::string::npos);
    EXPECT_EQ(m.vertices[0].px, 0.00302071f * 0.5f);
    EXPECT_EQ(m.vertices[0].py, -0.235497f * 0.5f);
    EXPECT_EQ(m.vertices[0].pz, -3.95942f * 0.5f);
    EXPECT_EQ(m.vertices[0].nz, -1.0f);
    EXPECT_EQ(m.vertices[0].u, 0.51759f);
    EXPECT_EQ(m.vertices[0].v, 1.0f - 0.228315f);

    // Every vertex against a straightforward strtof reading of all 1782 triples (covers the e-006 values).
    std::vector<float> numbers;
    const char *p = text.c_str() + text.find('[');
    while ((p = std::strchr(p, '[')) != nullptr) {
        ++p;
        for (int k = 0; k < 3; ++k) {
            char *end = nullptr;
            numbers.push_back(std::strtof(p, &end));
            p = end + 1;
        }
    }
    ASSERT_EQ(numbers.size(), 594u * 9);
    float minZ = 1e9f, maxZ = -1e9f;
    for (std::size_t i = 0; i < 594; ++i) {
        const float *n = &numbers[9 * i];
        const Vertex &v = m.vertices[i];
        EXPECT_EQ(v.px, n[0] * 0.5f);
        EXPECT_EQ(v.py, n[1] * 0.5f);
        EXPECT_EQ(v.pz, n[2] * 0.5f);
        EXPECT_EQ(v.nx, n[3]);
        EXPECT_EQ(v.ny, n[4]);
        EXPECT_EQ(v.nz, n[5]);
        EXPECT_EQ(v.u, n[6]);
        EXPECT_EQ(v.v, 1.0f - n[7]);
        EXPECT_EQ(n[8], 0.0f); // w is 0 in the file and not kept
        minZ = std::min(minZ, v.pz), maxZ = std::max(maxZ, v.pz);
    }
    // The file spans z -3.959 .. 4.782, about 4.4 studs after halving.
    EXPECT_NEAR(minZ, -3.959f / 2, 1e-3);
    EXPECT_NEAR(maxZ, 4.782f / 2, 1e-3);
}

TEST(RobloxMeshReader, CorpusTorso200) {
    GAMEFMT_REQUIRE_CORPUS(dir, "mesh");
    const RobloxMesh m = ReadCorpusMesh(dir, kTorso);
    EXPECT_EQ(m.headerSize, 12);
    EXPECT_EQ(m.vertexSize, 36);
    EXPECT_EQ(m.faceSize, 12);
    ASSERT_FALSE(m.vertices.empty());
    float lo[3] = {1e9f, 1e9f, 1e9f}, hi[3] = {-1e9f, -1e9f, -1e9f};
    for (const Vertex &v : m.vertices) {
        EXPECT_EQ(v.tangent, (std::array<std::uint8_t, 4>{0, 0, 0, 0}));
        EXPECT_EQ(v.color, (std::array<std::uint8_t, 4>{255, 255, 255, 255}));
        const float p[3] = {v.px, v.py, v.pz};
        for (int k = 0; k < 3; ++k) lo[k] = std::min(lo[k], p[k]), hi[k] = std::max(hi[k], p[k]);
    }
    // A 2x2x1 part, exactly.
    EXPECT_EQ(lo[0], -1.0f);
    EXPECT_EQ(hi[0], 1.0f);
    EXPECT_EQ(lo[1], -1.0f);
    EXPECT_EQ(hi[1], 1.0f);
    EXPECT_EQ(lo[2], -0.5f);
    EXPECT_EQ(hi[2], 0.5f);
    // Hand-checked in a hex dump: the first vertex record (bytes 25..60) starts 29 5C 6F BF 28 5C 6F 3F
    // 00 00 00 3F, i.e. position (-0.935, 0.935 - 1 ulp, 0.5); normal (0, 0, 1).
    EXPECT_EQ(Bits(m.vertices[0].px), 0xBF6F5C29u);
    EXPECT_EQ(Bits(m.vertices[0].py), 0x3F6F5C28u);
    EXPECT_EQ(Bits(m.vertices[0].pz), 0x3F000000u);
    EXPECT_EQ(m.vertices[0].nz, 1.0f);
}

TEST(RobloxMeshReader, Corpus300Lods) {
    GAMEFMT_REQUIRE_CORPUS(dir, "mesh");
    const RobloxMesh m = ReadCorpusMesh(dir, kV300);
    EXPECT_EQ(m.headerSize, 16);
    EXPECT_EQ(m.vertexSize, 40);
    EXPECT_EQ(m.lodEntrySize, 4);
    ASSERT_EQ(m.faces.size(), 390u);
    const auto levels = LodLevels(m);
    ASSERT_EQ(levels.size(), 3u);
    EXPECT_EQ(levels[0].faceBegin, 0u);
    EXPECT_EQ(levels[0].faceEnd, 272u);
    EXPECT_EQ(levels[2].faceEnd, 390u);
    // LOD0: 272 faces over 522 vertices (0..521), none with a tangent.
    EXPECT_EQ(DistinctVertices(m, 0, 272), 522u);
    for (std::uint32_t f = 0; f < 272; ++f)
        for (std::uint32_t idx : {m.faces[f].a, m.faces[f].b, m.faces[f].c}) {
            EXPECT_LT(idx, 522u);
            EXPECT_LT(TangentLength(m.vertices[idx]), 0.5f);
        }
    // Simplifier-made LOD vertices have non-unit normals (shortest 0.054).
    float minLen = 10;
    for (const Vertex &v : m.vertices) minLen = std::min(minLen, std::sqrt(v.nx * v.nx + v.ny * v.ny + v.nz * v.nz));
    EXPECT_NEAR(minLen, 0.054f, 0.001f);
}

TEST(RobloxMeshReader, Corpus401) {
    GAMEFMT_REQUIRE_CORPUS(dir, "mesh");
    const RobloxMesh m = ReadCorpusMesh(dir, kV401);
    EXPECT_EQ(m.headerSize, 24);
    EXPECT_EQ(m.lodType, 4);
    EXPECT_TRUE(m.envelopes.empty()); // no envelope array without bones
    EXPECT_TRUE(m.boneNames.empty());
    EXPECT_EQ(m.numHighQualityLODs, 1);
    EXPECT_EQ(m.v4Unused, 63);
    EXPECT_FALSE(m.facs.has_value());
    const auto levels = LodLevels(m);
    ASSERT_EQ(levels.size(), 5u);
    // Levels share LOD0's vertex pool (§10.2).
    const std::size_t expected[5] = {0, 526, 238, 111, 61};
    for (std::size_t l = 1; l < 5; ++l)
        EXPECT_EQ(DistinctVertices(m, levels[l].faceBegin, levels[l].faceEnd), expected[l]) << "level " << l;
    std::size_t absent = 0;
    for (const Vertex &v : m.vertices) absent += TangentLength(v) < 0.5f ? 1 : 0;
    EXPECT_EQ(absent, 361u);
}

TEST(RobloxMeshReader, Corpus500SkinnedWithFacs) {
    GAMEFMT_REQUIRE_CORPUS(dir, "mesh");
    const RobloxMesh m = ReadCorpusMesh(dir, kV500);
    EXPECT_EQ(m.headerSize, 32);
    EXPECT_EQ(m.lodType, 3);
    EXPECT_EQ(m.numHighQualityLODs, 1);
    EXPECT_EQ(m.boneNames.size(), 334u);
    ASSERT_EQ(m.subsets.size(), 6u);

    ExpectSkinningFacts(m);
    // Two subsets per LOD level: 6+20, 6+20, 6+17 bones; levels own vertex ranges 0-1288, 1289-1984, 1985-2290.
    const std::uint32_t bonesPerSubset[6] = {6, 20, 6, 20, 6, 17};
    for (int i = 0; i < 6; ++i) EXPECT_EQ(m.subsets[i].numBoneIndices, bonesPerSubset[i]) << "subset " << i;
    EXPECT_EQ(m.subsets[0].vertsBegin, 0u);
    EXPECT_EQ(m.subsets[2].vertsBegin, 1289u);
    EXPECT_EQ(m.subsets[4].vertsBegin, 1985u);
    EXPECT_EQ(m.subsets[1].facesBegin + m.subsets[1].facesLength, 1731u);
    EXPECT_EQ(m.subsets[3].facesBegin + m.subsets[3].facesLength, 2595u);

    // culling = max distance from the bone's bind position to any vertex it influences (exact here).
    std::vector<float> reach(m.bones.size(), 0.0f);
    for (std::size_t v = 0; v < m.vertices.size(); ++v) {
        const auto &s = *std::find_if(m.subsets.begin(), m.subsets.end(), [&](const auto &x) {
            return v >= x.vertsBegin && v < std::size_t{x.vertsBegin} + x.vertsLength;
        });
        for (int k = 0; k < 4; ++k) {
            if (m.envelopes[v].weights[k] == 0) continue;
            const auto &b = m.bones[s.boneIndices[m.envelopes[v].bones[k]]];
            const float dx = m.vertices[v].px - b.position[0], dy = m.vertices[v].py - b.position[1],
                        dz = m.vertices[v].pz - b.position[2];
            auto &r = reach[s.boneIndices[m.envelopes[v].bones[k]]];
            r = std::max(r, std::sqrt(dx * dx + dy * dy + dz * dz));
        }
    }
    for (std::size_t i = 0; i < m.bones.size(); ++i) EXPECT_NEAR(m.bones[i].culling, reach[i], 1e-4) << m.bones[i].name;

    ASSERT_TRUE(m.facs.has_value());
    EXPECT_EQ(m.facs->format, 1u);
    EXPECT_EQ(m.facs->blob.size(), 47467u);
    ASSERT_TRUE(m.facs->parsed.has_value());
    const auto &f = *m.facs->parsed;
    EXPECT_EQ(f.faceBoneNames.size(), 32u);
    ASSERT_EQ(f.controlNames.size(), 50u);
    EXPECT_EQ(f.twoPoseCorrectives.size(), 54u);
    EXPECT_EQ(f.threePoseCorrectives.size(), 17u);
    const char *const firstControls[] = {
        "c_COR", "c_CR", "c_CRUL", "c_ELD",  "c_ELL", "c_ELR", "c_ELU", "c_FN",  "c_FP", "c_JD",  "c_JL",  "c_JR",
        "c_LLS", "c_LP", "c_LPT",  "c_ML",   "c_MR",  "c_PK",  "c_TD",  "c_TO",  "c_TU", "c_ULS", "l_BL",  "l_CHP",
        "l_CHR", "l_DM", "l_EC",   "l_EULR", "l_IBR", "l_LCD", "l_LCP", "l_LLD", "l_LS", "l_NW",  "l_OBR", "l_ULR"};
    for (std::size_t i = 0; i < 36; ++i) EXPECT_EQ(f.controlNames[i], firstControls[i]);
    for (std::size_t i = 0; i < 14; ++i) EXPECT_EQ(f.controlNames[36 + i], "r_" + f.controlNames[22 + i].substr(2));
    for (const auto *q : {&f.px, &f.py, &f.pz, &f.rx, &f.ry, &f.rz}) {
        EXPECT_EQ(q->version, 2);
        EXPECT_EQ(q->rows, 32u);
        EXPECT_EQ(q->cols, 121u); // 50 + 54 + 17
        ASSERT_EQ(q->q.size(), 32u * 121);
        ASSERT_EQ(q->values.size(), 32u * 121);
        for (std::size_t i = 0; i < q->q.size(); i += 97)
            EXPECT_NEAR(q->values[i], q->min + q->q[i] * (q->max - q->min) / 65535.0f, 1e-5f);
    }
    for (const auto &pair : f.twoPoseCorrectives)
        for (auto idx : pair) EXPECT_LT(idx, 50);
    for (const auto &triple : f.threePoseCorrectives)
        for (auto idx : triple) EXPECT_LT(idx, 50);
    for (const auto &name : f.faceBoneNames)
        EXPECT_TRUE(std::any_of(m.bones.begin(), m.bones.end(), [&](const auto &b) { return b.name == name; })) << name;
}

TEST(RobloxMeshReader, Corpus700DracoStatic) {
    GAMEFMT_REQUIRE_CORPUS(dir, "mesh");
    const RobloxMesh m = ReadCorpusMesh(dir, kDraco408);
    EXPECT_TRUE(m.isChunked());
    EXPECT_EQ(m.coremeshVersion, 2u);
    EXPECT_EQ(m.lodType, 0);
    EXPECT_EQ(m.numHighQualityLODs, 1);
    const auto levels = LodLevels(m);
    ASSERT_EQ(levels.size(), 1u);
    EXPECT_EQ(levels[0].faceEnd, 268u);
    for (const Vertex &v : m.vertices) {
        EXPECT_EQ(v.u, 0.0f);
        EXPECT_EQ(v.v, 1.0f);
        EXPECT_LT(TangentLength(v), 0.5f); // 7F 7F 7F xx everywhere
        const float len = std::sqrt(v.nx * v.nx + v.ny * v.ny + v.nz * v.nz);
        EXPECT_NEAR(len, 1.0f, 1e-3f); // 11-bit quantised normals
    }
}

// Decoded faces must equal the raw index stream of the sequential connectivity, in order (§9.3).
void ExpectRawDracoOrder(const Bytes &file, const RobloxMesh &m) {
    // "version 7.00\n" + COREMESH header (16) + u32 dracoSize: the stream starts at 33.
    const std::uint8_t *d = file.data() + 33;
    ASSERT_EQ(std::memcmp(d, "DRACO", 5), 0);
    EXPECT_EQ(d[5], 2);
    EXPECT_EQ(d[6], 2);
    EXPECT_EQ(d[7], 1); // triangular mesh
    EXPECT_EQ(d[8], 0); // sequential
    std::size_t pos = 11;
    auto varint = [&] {
        std::uint32_t v = 0;
        for (int shift = 0;; shift += 7) {
            const std::uint8_t b = d[pos++];
            v |= static_cast<std::uint32_t>(b & 0x7F) << shift;
            if ((b & 0x80) == 0) return v;
        }
    };
    const std::uint32_t numFaces = varint(), numPoints = varint();
    EXPECT_EQ(numFaces, m.faces.size());
    EXPECT_EQ(numPoints, m.vertices.size());
    ASSERT_EQ(d[pos++], 1); // uncompressed indices
    ASSERT_GE(numPoints, 256u);
    ASSERT_LT(numPoints, 65536u); // u16 indices
    std::size_t mismatches = 0;
    for (std::uint32_t f = 0; f < numFaces; ++f) {
        std::uint32_t idx[3];
        for (auto &i : idx) {
            i = static_cast<std::uint32_t>(d[pos] | (d[pos + 1] << 8));
            pos += 2;
        }
        mismatches += (m.faces[f].a != idx[0] || m.faces[f].b != idx[1] || m.faces[f].c != idx[2]) ? 1 : 0;
    }
    EXPECT_EQ(mismatches, 0u);
}

TEST(RobloxMeshReader, CorpusDracoKeepsRawOrder) {
    GAMEFMT_REQUIRE_CORPUS(dir, "mesh");
    for (const char *name : {kDraco408, kSkinned7}) {
        SCOPED_TRACE(name);
        const Bytes bytes = ReadBytes(dir / name);
        ExpectRawDracoOrder(bytes, Read(bytes));
    }
}

TEST(RobloxMeshReader, Corpus700Coremesh1) {
    GAMEFMT_REQUIRE_CORPUS(dir, "mesh");
    const RobloxMesh m = ReadCorpusMesh(dir, kCore1);
    EXPECT_EQ(m.coremeshVersion, 1u); // a real 7.00 file with a raw COREMESH
    ASSERT_EQ(m.vertices.size(), 4u);
    // Hand-checked in a hex dump: vertex 0 (bytes 33..72) starts AB AA 7A 43 00 00 30 C2 F8 7F 26 C2, i.e.
    // position (250.66667, -44, -41.62497), and its tangent bytes are 7F 81 FF FF.
    EXPECT_EQ(Bits(m.vertices[0].px), 0x437AAAABu);
    EXPECT_EQ(Bits(m.vertices[0].py), 0xC2300000u);
    EXPECT_EQ(Bits(m.vertices[0].pz), 0xC2267FF8u);
    EXPECT_EQ(m.vertices[0].tangent, (std::array<std::uint8_t, 4>{0x7F, 0x81, 0xFF, 0xFF}));
    bool tangent255 = false;
    float maxAbs = 0, minUV = 1e9f, maxUV = -1e9f;
    for (const Vertex &v : m.vertices) {
        for (auto b : v.tangent) tangent255 = tangent255 || b == 255;
        maxAbs = std::max({maxAbs, std::fabs(v.px), std::fabs(v.py), std::fabs(v.pz)});
        minUV = std::min({minUV, v.u, v.v}), maxUV = std::max({maxUV, v.u, v.v});
    }
    EXPECT_TRUE(tangent255); // kept raw, not clamped by the reader
    EXPECT_NEAR(maxAbs, 250.7f, 0.05f);
    EXPECT_NEAR(minUV, 6.65f, 0.01f); // UVs outside 0..1 are real
    EXPECT_NEAR(maxUV, 12.35f, 0.01f);
}

TEST(RobloxMeshReader, Corpus700SkinnedDracoFacs) {
    GAMEFMT_REQUIRE_CORPUS(dir, "mesh");
    const RobloxMesh m = ReadCorpusMesh(dir, kSkinned7);
    EXPECT_EQ(m.coremeshVersion, 2u);
    EXPECT_EQ(m.envelopes.size(), m.vertices.size());
    EXPECT_EQ(m.boneNames.size(), 637u);
    ASSERT_EQ(m.subsets.size(), 2u);
    EXPECT_EQ(m.subsets[0].numBoneIndices, 26u);
    EXPECT_EQ(m.subsets[1].numBoneIndices, 14u);
    ExpectSkinningFacts(m);
    // Names are case-sensitive: both spellings are distinct bones.
    std::set<std::string> names;
    for (const auto &b : m.bones) names.insert(b.name);
    EXPECT_EQ(names.size(), 52u);
    EXPECT_EQ(names.count("R_innercheek"), 1u);
    EXPECT_EQ(names.count("R_innerCheek"), 1u);
    std::size_t absent = 0;
    for (const Vertex &v : m.vertices) absent += TangentLength(v) < 0.5f ? 1 : 0;
    EXPECT_EQ(absent, 1469u);

    ASSERT_TRUE(m.facs.has_value());
    EXPECT_EQ(m.facs->blob.size(), 59182u); // FACS chunk payload 59186 = u32 size + blob
    ASSERT_TRUE(m.facs->parsed.has_value());
    const auto &f = *m.facs->parsed;
    EXPECT_EQ(f.faceBoneNames.size(), 46u);
    EXPECT_EQ(f.controlNames.size(), 50u);
    EXPECT_EQ(f.twoPoseCorrectives.size(), 48u);
    EXPECT_EQ(f.threePoseCorrectives.size(), 7u);
    EXPECT_EQ(f.px.rows, 46u);
    EXPECT_EQ(f.px.cols, 105u);
    EXPECT_EQ(f.rz.rows, 46u);
    EXPECT_EQ(f.rz.cols, 105u);
}

// Every corpus file cut short anywhere fails cleanly (never crashes, never reads past the end).
TEST(RobloxMeshReader, CorpusTruncatedFailsCleanly) {
    GAMEFMT_REQUIRE_CORPUS(dir, "mesh");
    for (const char *name : {kSword, kTorso, kV300, kV401, kV500, kDraco408, kCore1, kSkinned7}) {
        const Bytes bytes = ReadBytes(dir / name);
        const std::size_t step = std::max<std::size_t>(1, bytes.size() / 61);
        for (std::size_t n = 0; n < bytes.size(); n += step) {
            const Bytes cut(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(n));
            EXPECT_THROW(Read(cut), FormatError) << name << " cut to " << n;
        }
    }
}

// ------------------------------------------------------------------ text 1.00 / 1.01 (§4)

TEST(RobloxMeshReader, Text100CrlfSpacesFinalNewline) {
    const RobloxMesh m = Read(fx::Text100Crlf());
    EXPECT_EQ(m.version, "1.00");
    EXPECT_TRUE(m.textCrlf);
    EXPECT_TRUE(m.textFinalNewline);
    ASSERT_EQ(m.vertices.size(), 6u);
    ASSERT_EQ(m.faces.size(), 2u);
    EXPECT_EQ(m.faces[1].a, 3u);
    EXPECT_EQ(m.faces[1].c, 5u);
    EXPECT_TRUE(m.warnings.empty());
    const Vertex &v0 = m.vertices[0];
    EXPECT_EQ(v0.px, 1.0f); // [ 2, 4 , -6 ] halved
    EXPECT_EQ(v0.py, 2.0f);
    EXPECT_EQ(v0.pz, -3.0f);
    EXPECT_EQ(v0.nz, 1.0f);
    EXPECT_EQ(v0.u, 0.25f);
    EXPECT_EQ(v0.v, 0.25f); // 1 - 0.75
    EXPECT_EQ(v0.tangent, (std::array<std::uint8_t, 4>{127, 127, 127, 0}));
    EXPECT_EQ(v0.color, (std::array<std::uint8_t, 4>{255, 255, 255, 255}));
    EXPECT_EQ(m.vertices[1].px, 0.75f); // 1.5e+000
    EXPECT_EQ(m.vertices[1].v, 1.0f);
    EXPECT_EQ(m.vertices[2].u, 0.5f);
    EXPECT_EQ(m.vertices[2].v, 1.5f); // negative text V is not clamped
    EXPECT_EQ(m.vertices[3].px, 1.66306e-006f * 0.5f);
    EXPECT_EQ(m.vertices[3].nz, -1.0f);
    EXPECT_EQ(m.vertices[4].pz, 4.0f);
    EXPECT_EQ(m.vertices[4].u, 2.0f);
    EXPECT_EQ(m.vertices[4].v, -2.0f);
}

TEST(RobloxMeshReader, Text101IsUnscaled) {
    const RobloxMesh m = Read(fx::Text101());
    EXPECT_EQ(m.version, "1.01");
    EXPECT_FALSE(m.textCrlf);
    EXPECT_FALSE(m.textFinalNewline);
    ASSERT_EQ(m.vertices.size(), 3u);
    EXPECT_EQ(m.vertices[0].px, 1.0f);
    EXPECT_EQ(m.vertices[0].py, 2.0f);
    EXPECT_EQ(m.vertices[0].pz, 3.0f);
    EXPECT_EQ(m.vertices[0].v, 0.875f);
    EXPECT_EQ(m.vertices[2].pz, 9.0f);
    EXPECT_EQ(m.vertices[2].v, 1.0f);
}

TEST(RobloxMeshReader, TextFaceCountMismatch) {
    ExpectError(fx::TextFaceCountMismatch(), 13, "face count 2");
    // Too many triples for the count is the same mismatch.
    ExpectError(Text("version 1.00\n0\n[1,2,3][0,1,0][0,0,0]"), 13, "face count 0");
    // Triples that do not make whole faces.
    ExpectError(Text("version 1.01\n1\n[1,2,3][0,1,0][0,0,0][1,2,3][0,1,0][0,0,0]"), 13, "holds 6");
}

TEST(RobloxMeshReader, TextWhitespaceAndNumbers) {
    // Whitespace anywhere inside brackets (even inside a number), tabs and newlines between triples.
    const RobloxMesh m = Read(Text("version 1.01\r\n 1 \r\n[ - 1 . 5 ,\t2 , 3 ]\n[0,1,0] [1E-3,2,0]"
                                   "[4,5,6][0,1,0][1,1,0][7,8,9][0,1,0][0,0,0]\r\n\r\n"));
    EXPECT_EQ(m.vertices[0].px, -1.5f);
    EXPECT_EQ(m.vertices[0].u, 1e-3f);
    EXPECT_EQ(m.vertices[0].v, -1.0f);
    EXPECT_TRUE(m.textCrlf);
    EXPECT_TRUE(m.textFinalNewline);
    // An empty mesh is a valid file.
    const RobloxMesh empty = Read(Text("version 1.00\n0\n"));
    EXPECT_TRUE(empty.vertices.empty());
    EXPECT_TRUE(empty.faces.empty());
    EXPECT_TRUE(Read(Text("version 1.00\n0")).faces.empty());
}

TEST(RobloxMeshReader, TextErrorsNameTheSpot) {
    const std::string head = "version 1.01\n1\n"; // 15 bytes
    ExpectError(Text(head + "[1,x,3][0,1,0][0,0,0][4,5,6][0,1,0][1,1,0][7,8,9][0,1,0][0,0,0]"), 18, "'x'");
    ExpectError(Text(head + "[1,2][0,1,0][0,0,0][4,5,6][0,1,0][1,1,0][7,8,9][0,1,0][0,0,0]"), 19, "fewer than 3");
    ExpectError(Text(head + "[1,2,3,4][0,1,0][0,0,0][4,5,6][0,1,0][1,1,0][7,8,9][0,1,0][0,0,0]"), 21, "more than 3");
    ExpectError(Text(head + "[1,2,3][0,1,0][0,0,0][4,5,6][0,1,0][1,1,0][7,8,9][0,1,0][0,0,0]x"), 78, "expected '['");
    ExpectError(Text(head + "[1,2,3][0,1,0][0,0,0][4,5,6][0,1,0][1,1,0][7,8,9][0,1,0][0,0,0"), 71, "never closed");
    ExpectError(Text(head + "[1,,3][0,1,0][0,0,0]"), 18, "not a number");
    ExpectError(Text("version 1.00\nabc\n"), 13, "face count");
    ExpectError(Text("version 1.00\n-3\n"), 13, "non-negative");
    ExpectError(Text("version 1.00\n1 [1,2,3]"), 15, "line must end");
    // A count the bytes cannot hold fails before anything is reserved.
    ExpectError(Text("version 1.00\n4000000000\n[1,2,3]"), 13, "face count");
    ExpectError(Text("version 1.00\n99999999999999999999\n"), 13, "face count");
}

// ------------------------------------------------------------------ version line (§3.1)

TEST(RobloxMeshReader, VersionLine) {
    ExpectError(Text("version 8.00\n"), 8, "unknown version '8.00'");
    ExpectError(Text("version 2.01\n"), 8, "unknown version");
    ExpectError(Text("hello world, not a mesh"), 0, "version");
    ExpectError(Text(""), 0, "version");
    ExpectError(Text("version 2."), 8, "cut short");
    ExpectError(Text("version 2.00"), 12, "line break");
    ExpectError(Text("version 2.00 \n"), 12, "line break");
    EXPECT_THROW(ReadRobloxMesh(nullptr, 0), FormatError);
    // CRLF after a binary version line moves the header by one byte.
    Bytes crlf = fx::V200Vertex36();
    crlf.insert(crlf.begin() + 12, '\r');
    const RobloxMesh m = Read(crlf);
    EXPECT_EQ(m.vertices.size(), 3u);
    EXPECT_TRUE(m.warnings.empty());
}

// ------------------------------------------------------------------ 2.00 (§5)

TEST(RobloxMeshReader, V200StridesHonoured) {
    const RobloxMesh m = Read(fx::V200Strides());
    EXPECT_EQ(m.version, "2.00");
    EXPECT_EQ(m.headerSize, 14);
    EXPECT_EQ(m.vertexSize, 44);
    EXPECT_EQ(m.faceSize, 16);
    ASSERT_EQ(m.vertices.size(), 4u);
    for (std::uint32_t i = 0; i < 4; ++i) ExpectVertexEq(m.vertices[i], fx::SampleVertex(i));
    ASSERT_EQ(m.faces.size(), 2u);
    EXPECT_EQ(m.faces[1].a, 0u);
    EXPECT_EQ(m.faces[1].b, 2u);
    EXPECT_EQ(m.faces[1].c, 3u);
    EXPECT_TRUE(m.warnings.empty());
    EXPECT_TRUE(m.lodOffsets.empty());
    EXPECT_EQ(LodLevels(m).size(), 1u);
}

TEST(RobloxMeshReader, V200Vertex36IsWhite) {
    const RobloxMesh m = Read(fx::V200Vertex36());
    EXPECT_EQ(m.vertexSize, 36);
    ASSERT_EQ(m.vertices.size(), 3u);
    for (std::uint32_t i = 0; i < 3; ++i) {
        Vertex expected = fx::SampleVertex(i);
        expected.color = {255, 255, 255, 255};
        ExpectVertexEq(m.vertices[i], expected);
    }
}

TEST(RobloxMeshReader, V200HeaderLimits) {
    Bytes b = fx::V200Vertex36();
    b[15] = 35;
    ExpectError(b, 15, "sizeof_vertex 35");
    b = fx::V200Vertex36();
    b[16] = 11;
    ExpectError(b, 16, "sizeof_face 11");
    b = fx::V200Vertex36();
    PatchU16(b, 13, 11);
    ExpectError(b, 13, "sizeof_header 11");
    b = fx::V200Vertex36();
    PatchU16(b, 13, 200);
    ExpectError(b, 13, "sizeof_header 200 runs past");
    ExpectError(Bytes(b.begin(), b.begin() + 20), 13, "the 2.00 header needs 12 bytes, 7 remain");
    b = fx::V400Skinned("4.01");
    ExpectError(Bytes(b.begin(), b.begin() + 36), 13, "the 4.01 header needs 24 bytes, 23 remain");
    b = fx::V500Facs();
    ExpectError(Bytes(b.begin(), b.begin() + 40), 13, "the 5.00 header needs 32 bytes");
    b = fx::V300({0, 6});
    ExpectError(Bytes(b.begin(), b.begin() + 13), 13, "the 3.00 header needs 16 bytes, 0 remain");
}

TEST(RobloxMeshReader, TrailingBytesKept) {
    Bytes b = fx::V200Vertex36();
    b.insert(b.end(), {1, 2, 3});
    const RobloxMesh m = Read(b);
    EXPECT_EQ(m.trailingBytes, (Bytes{1, 2, 3}));
    EXPECT_TRUE(HasWarning(m, "3 trailing bytes"));
    EXPECT_TRUE(HasWarning(m, "145"));
}

// ------------------------------------------------------------------ 3.00 and LOD tables (§6, §10.1)

TEST(RobloxMeshReader, V300LodTableEdgeCases) {
    struct Case {
        std::vector<std::uint32_t> offsets;
        std::size_t levels;
        bool warns;
    };
    const Case cases[] = {
        {{0, 0}, 1, false},       // real 7.00 single-level encoding
        {{0, 6}, 1, false},       // [0, N]
        {{0}, 1, false},          // one entry
        {{}, 1, false},           // none
        {{0, 0, 6}, 1, false},    // off[1] == 0
        {{0, 2, 4, 6}, 3, false}, // three levels
        {{0, 4, 2, 6}, 1, true},  // non-monotonic
        {{0, 3, 3, 6}, 1, true},  // an empty level
        {{0, 3, 7}, 1, true},     // last > numFaces
        {{1, 3, 6}, 1, true},     // does not start at 0
        {{0, 2, 4}, 2, true},     // ends before the last face: levels kept, warned
    };
    for (const Case &c : cases) {
        SCOPED_TRACE(::testing::PrintToString(c.offsets));
        const RobloxMesh m = Read(fx::V300(c.offsets));
        EXPECT_EQ(m.version, "3.00");
        EXPECT_EQ(m.lodOffsets, c.offsets);
        EXPECT_EQ(m.faces.size(), 6u);
        const auto levels = LodLevels(m);
        ASSERT_EQ(levels.size(), c.levels);
        if (c.levels == 1 && !c.warns) {
            EXPECT_EQ(levels[0].faceBegin, 0u);
            EXPECT_EQ(levels[0].faceEnd, 6u);
        }
        EXPECT_EQ(!m.warnings.empty(), c.warns);
        std::vector<std::string> warnings;
        LodLevels(m, &warnings);
        EXPECT_EQ(!warnings.empty(), c.warns);
    }
    const auto three = LodLevels(Read(fx::V300({0, 2, 4, 6})));
    EXPECT_EQ(three[1].faceBegin, 2u);
    EXPECT_EQ(three[1].faceEnd, 4u);
    EXPECT_EQ(three[2].faceEnd, 6u);
}

TEST(RobloxMeshReader, V300LodStrideAndLimits) {
    // sizeof_LOD 8: entries [0, 999] and [6, 999] read as offsets 0 and 6.
    Bytes b = fx::V300({0, 999, 6, 999});
    PatchU16(b, 17, 8);
    PatchU16(b, 19, 2);
    const RobloxMesh m = Read(b);
    EXPECT_EQ(m.lodEntrySize, 8);
    EXPECT_EQ(m.lodOffsets, Offsets({0, 6}));
    EXPECT_TRUE(m.warnings.empty());
    b = fx::V300({0, 6});
    PatchU16(b, 17, 3);
    ExpectError(b, 17, "sizeof_LOD 3");
    b = fx::V300({0, 6});
    PatchU16(b, 19, 0xFFFF);
    ExpectError(b, 19, "65535 LOD offsets");
    b = fx::V300({0, 6});
    PatchU16(b, 13, 15);
    ExpectError(b, 13, "sizeof_header 15");
}

TEST(RobloxMeshReader, LodLevelsOnModel) {
    RobloxMesh m;
    m.faces.resize(10);
    EXPECT_EQ(LodLevels(m).size(), 1u);
    m.lodOffsets = {0, 10};
    EXPECT_EQ(LodLevels(m).size(), 1u);
    m.lodOffsets = {0, 5, 8, 10};
    auto levels = LodLevels(m);
    ASSERT_EQ(levels.size(), 3u);
    EXPECT_EQ(levels[1].faceBegin, 5u);
    EXPECT_EQ(levels[1].faceEnd, 8u);
    m.lodOffsets = {0, 5, 11};
    std::vector<std::string> warnings;
    levels = LodLevels(m, &warnings);
    ASSERT_EQ(levels.size(), 1u);
    EXPECT_EQ(levels[0].faceEnd, 10u);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_NE(warnings[0].find("[0,5,11]"), std::string::npos);
    EXPECT_EQ(LodLevels(m, nullptr).size(), 1u); // no warnings sink: no crash
    m.lodOffsets.assign(1000, 0);
    m.lodOffsets[1] = 1;
    warnings.clear();
    LodLevels(m, &warnings);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_LT(warnings[0].size(), 200u); // hostile tables do not make huge messages
}

// ------------------------------------------------------------------ 4.00 / 4.01 (§7)

TEST(RobloxMeshReader, V400Skinned) {
    const RobloxMesh m = Read(fx::V400Skinned());
    const fx::SkinnedSample s = fx::Skinned();
    EXPECT_EQ(m.version, "4.00");
    EXPECT_EQ(m.headerSize, 24);
    EXPECT_EQ(m.lodType, 3);
    EXPECT_EQ(m.numHighQualityLODs, 1);
    EXPECT_EQ(m.v4Unused, 0);
    EXPECT_EQ(m.lodOffsets, Offsets({0, 2}));
    EXPECT_TRUE(m.warnings.empty());
    EXPECT_FALSE(m.facs.has_value());
    ASSERT_EQ(m.vertices.size(), 6u);
    for (std::uint32_t i = 0; i < 6; ++i) ExpectVertexEq(m.vertices[i], fx::SampleVertex(i));
    ASSERT_EQ(m.envelopes.size(), 6u);
    for (std::size_t i = 0; i < 6; ++i) {
        EXPECT_EQ(m.envelopes[i].bones, s.envelopes[i].bones);
        EXPECT_EQ(m.envelopes[i].weights, s.envelopes[i].weights);
    }
    EXPECT_EQ(m.boneNames, s.boneNames);
    ASSERT_EQ(m.bones.size(), 3u);
    // Names resolve through nameOffset, not table order ("Jaw\0Root\0Head\0").
    EXPECT_EQ(m.bones[0].name, "Root");
    EXPECT_EQ(m.bones[1].name, "Head");
    EXPECT_EQ(m.bones[2].name, "Jaw");
    EXPECT_EQ(m.bones[0].parent, kNoBone);
    EXPECT_EQ(m.bones[1].parent, 0);
    EXPECT_EQ(m.bones[2].parent, 1);
    EXPECT_EQ(m.bones[2].lodParent, 1);
    EXPECT_EQ(m.bones[0].nameOffset, 4u);
    EXPECT_EQ(m.bones[1].culling, 0.5f);
    EXPECT_EQ(m.bones[2].position, (std::array<float, 3>{0, 1.5f, 0.5f}));
    EXPECT_EQ(m.bones[2].rotation, (std::array<float, 9>{1, 0, 0, 0, 1, 0, 0, 0, 1}));
    ASSERT_EQ(m.subsets.size(), 2u);
    EXPECT_EQ(m.subsets[1].facesBegin, 1u);
    EXPECT_EQ(m.subsets[1].vertsBegin, 3u);
    EXPECT_EQ(m.subsets[1].vertsLength, 3u);
    EXPECT_EQ(m.subsets[1].numBoneIndices, 2u);
    EXPECT_EQ(m.subsets[1].boneIndices[0], 1);
    EXPECT_EQ(m.subsets[1].boneIndices[1], 2);
    EXPECT_EQ(m.subsets[1].boneIndices[2], kNoBone);
}

TEST(RobloxMeshReader, V401UnusedByteKept) {
    const RobloxMesh m = Read(fx::V400Skinned("4.01", 63));
    EXPECT_EQ(m.version, "4.01");
    EXPECT_EQ(m.v4Unused, 63);
    EXPECT_EQ(m.bones.size(), 3u);
    EXPECT_TRUE(m.warnings.empty());
}

TEST(RobloxMeshReader, V400WithoutBonesHasNoEnvelopes) {
    // Header 24 (numBones 0), 3 vertices, 1 face, LOD [0,1]; no envelope array between vertices and faces.
    Bytes b = Text("version 4.00\n");
    const std::uint8_t header[24] = {24, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    b.insert(b.end(), header, header + 24);
    for (std::uint32_t i = 0; i < 3; ++i) fx::PutVertex(b, fx::SampleVertex(i));
    fx::PutFace(b, Face{0, 1, 2});
    b.insert(b.end(), {0, 0, 0, 0, 1, 0, 0, 0});
    const RobloxMesh m = Read(b);
    EXPECT_TRUE(m.envelopes.empty());
    EXPECT_TRUE(m.bones.empty());
    EXPECT_EQ(m.faces.size(), 1u);
    EXPECT_EQ(m.faces[0].c, 2u);
    EXPECT_EQ(m.lodOffsets, Offsets({0, 1}));
    EXPECT_TRUE(m.warnings.empty());
}

TEST(RobloxMeshReader, V400NameWithoutNulRunsToTableEnd) {
    Bytes b = fx::V400Skinned();
    b[fx::v400::kNames + 13] = 'X'; // the NUL after "Head"
    const RobloxMesh m = Read(b);
    EXPECT_EQ(m.bones[1].name, "HeadX");
    EXPECT_EQ(m.boneNames.back(), 'X');
}

TEST(RobloxMeshReader, V400ValidationOffsets) {
    namespace o = fx::v400;
    ExpectError(fx::BoneParentCycle(), 421, "cycle");
    ExpectError(fx::NameOffsetPastTable(), 417, "name offset 14");
    Bytes b = fx::V400Skinned();
    PatchU16(b, o::kBones + 4, 0); // bone 0 is its own parent
    ExpectError(b, o::kBones + 4, "cycle");
    b = fx::V400Skinned();
    PatchU16(b, o::kBones + 60 + 4, 3); // parent >= numBones
    ExpectError(b, o::kBones + 64, "parent 3 of 3");
    b = fx::V400Skinned();
    PatchU16(b, o::kSubsets + 20 + 2, 3); // subset 0, slot 1 -> bone 3 of 3
    ExpectError(b, o::kSubsets + 22, "names bone 3");
    b = fx::V400Skinned();
    PatchU32(b, o::kSubsets + 16, 27);
    ExpectError(b, o::kSubsets + 16, "27 bones");
    b = fx::V400Skinned();
    PatchU32(b, o::kFaces + 12 + 8, 6); // face 1, c = 6 of 6 vertices
    ExpectError(b, o::kFaces + 20, "uses vertex 6 of 6");
}

TEST(RobloxMeshReader, V400HugeCountsFailAtTheirField) {
    namespace o = fx::v400;
    const struct {
        std::size_t at;
        bool u16;
        const char *needle;
    } cases[] = {
        {o::kNumVerts, false, "vertices"}, {o::kNumFaces, false, "faces"},       {o::kNumLods, true, "LOD offsets"},
        {o::kNumBones, true, "bones"},     {o::kNamesSize, false, "name bytes"}, {o::kNumSubsets, true, "subsets"},
    };
    for (const auto &c : cases) {
        SCOPED_TRACE(c.needle);
        Bytes b = fx::V400Skinned();
        if (c.u16)
            PatchU16(b, c.at, 0xFFFF);
        else
            PatchU32(b, c.at, 0xFFFFFFFFu);
        ExpectError(b, c.at, c.needle);
    }
}

TEST(RobloxMeshReader, V400SubsetRangeBeyondMeshWarns) {
    Bytes b = fx::V400Skinned();
    PatchU32(b, fx::v400::kSubsets + 72 + 12, 5); // subset 1 vertsLength 5: 3 + 5 > 6
    const RobloxMesh m = Read(b);
    EXPECT_TRUE(HasWarning(m, "subset 1"));
}

// ------------------------------------------------------------------ 5.00 and FACS (§8)

TEST(RobloxMeshReader, V500Facs) {
    const RobloxMesh m = Read(fx::V500Facs());
    EXPECT_EQ(m.version, "5.00");
    EXPECT_EQ(m.headerSize, 32);
    EXPECT_EQ(m.bones.size(), 3u);
    EXPECT_EQ(m.bones[2].name, "Jaw");
    EXPECT_TRUE(m.warnings.empty());
    ASSERT_TRUE(m.facs.has_value());
    EXPECT_EQ(m.facs->format, 1u);
    EXPECT_EQ(m.facs->blob, fx::FacsBlob());
    EXPECT_EQ(m.facs->blob.size(), 286u);
    ASSERT_TRUE(m.facs->parsed.has_value());
    const auto &f = *m.facs->parsed;
    EXPECT_EQ(f.faceBoneNames, (std::vector<std::string>{"Head", "Jaw"}));
    EXPECT_EQ(f.controlNames, (std::vector<std::string>{"c_JD", "l_EC", "r_EC"}));
    ASSERT_EQ(f.twoPoseCorrectives.size(), 1u);
    EXPECT_EQ(f.twoPoseCorrectives[0], (std::array<std::uint16_t, 2>{0, 1}));
    ASSERT_EQ(f.threePoseCorrectives.size(), 1u);
    EXPECT_EQ(f.threePoseCorrectives[0], (std::array<std::uint16_t, 3>{0, 1, 2}));
    const gamefmt::rbxmesh::QuantizedMatrix *all[6] = {&f.px, &f.py, &f.pz, &f.rx, &f.ry, &f.rz};
    for (int k = 0; k < 6; ++k) {
        const auto &q = *all[k];
        EXPECT_EQ(q.version, 2);
        EXPECT_EQ(q.rows, 2u);
        EXPECT_EQ(q.cols, 5u);
        EXPECT_EQ(q.min, -1.0f - k);
        EXPECT_EQ(q.max, 1.0f + k);
        ASSERT_EQ(q.values.size(), 10u);
        EXPECT_EQ(q.q[9], 65535);
        EXPECT_EQ(q.values[0], q.min); // q 0 -> min, q 65535 -> max, exactly
        EXPECT_EQ(q.values[9], q.max);
        for (std::size_t i = 0; i < 10; ++i)
            EXPECT_NEAR(q.values[i], q.min + q.q[i] * (q.max - q.min) / 65535.0f, 1e-6f);
    }
    // Element (bone 1, pose 2) is [1 * cols + 2] = index 7: q = 7 * 65535 / 9 = 50971.
    EXPECT_EQ(f.py.q[1 * 5 + 2], 50971);
}

TEST(RobloxMeshReader, V500FacsVersion1Matrix) {
    const RobloxMesh m = Read(fx::V500Facs(1, fx::FacsBlob(1)));
    ASSERT_TRUE(m.facs->parsed.has_value());
    const auto &px = m.facs->parsed->px;
    EXPECT_EQ(px.version, 1);
    ASSERT_EQ(px.values.size(), 10u);
    EXPECT_TRUE(px.q.empty());
    for (std::size_t i = 0; i < 10; ++i) EXPECT_EQ(px.values[i], 0.5f * i);
    EXPECT_EQ(m.facs->parsed->py.version, 2);
}

TEST(RobloxMeshReader, V500FacsKeptRawWhenNotInterpretable) {
    // Format other than 1: kept, not interpreted.
    RobloxMesh m = Read(fx::V500Facs(0));
    ASSERT_TRUE(m.facs.has_value());
    EXPECT_EQ(m.facs->format, 0u);
    EXPECT_EQ(m.facs->blob, fx::FacsBlob());
    EXPECT_FALSE(m.facs->parsed.has_value());
    EXPECT_TRUE(HasWarning(m, "format 0"));
    // Internal sizes that disagree with the blob: kept raw, warned, the rest of the file fine.
    Bytes blob = fx::FacsBlob();
    PatchU32(blob, 0, 10);
    m = Read(fx::V500Facs(1, blob));
    EXPECT_EQ(m.facs->blob, blob);
    EXPECT_FALSE(m.facs->parsed.has_value());
    EXPECT_TRUE(HasWarning(m, "not interpreted"));
    EXPECT_TRUE(HasWarning(m, "byte offset 703"));
    EXPECT_EQ(m.bones.size(), 3u);
    // Size 0: nothing to interpret, no warning.
    m = Read(fx::V500Facs(1, {}));
    ASSERT_TRUE(m.facs.has_value());
    EXPECT_TRUE(m.facs->blob.empty());
    EXPECT_FALSE(m.facs->parsed.has_value());
    EXPECT_TRUE(m.warnings.empty());
    // A face bone missing from the skeleton is reported, the blob still interpreted.
    blob = fx::FacsBlob();
    blob[24 + 1] = 'X'; // "Head" -> "HXad"
    m = Read(fx::V500Facs(1, blob));
    EXPECT_TRUE(m.facs->parsed.has_value());
    EXPECT_TRUE(HasWarning(m, "not in the skeleton: 'HXad'"));
}

TEST(RobloxMeshReader, V500FacsSizePastEnd) {
    Bytes b = fx::V500Facs();
    PatchU32(b, 13 + 28, 287); // facsDataSize one byte past the end
    ExpectError(b, 41, "FACS bytes");
    b = fx::V500Facs();
    PatchU16(b, 13, 24); // 5.00 needs the 32-byte header
    ExpectError(b, 13, "smaller than 32");
}

TEST(RobloxMeshReader, ParseFacsChecksEveryInternalSize) {
    const Bytes good = fx::FacsBlob();
    ASSERT_TRUE(ParseFacs(good).has_value());
    auto expectFail = [](const Bytes &blob, const std::string &needle) {
        std::string error;
        EXPECT_FALSE(ParseFacs(blob, &error).has_value()) << needle;
        EXPECT_NE(error.find(needle), std::string::npos) << error;
        EXPECT_FALSE(ParseFacs(blob).has_value()); // without an error sink
    };
    expectFail({}, "end of data");
    expectFail(Bytes(good.begin(), good.end() - 1), "add up to 286");
    Bytes b = good;
    PatchU32(b, 12, 1); // the u64 transforms size's high half
    expectFail(b, "add up to");
    b = good;
    PatchU16(b, 24 + 9 + 15, 3); // px version 3
    expectFail(b, "unknown QuantizedMatrix version 3");
    b = good;
    PatchU32(b, 24 + 9 + 15 + 2, 1000); // px rows 1000: more values than the transforms section holds
    expectFail(b, "matrix px: 5000 x 2 bytes");
    b = good;
    b.insert(b.begin() + 24 + 9 + 15 + 228, {0, 0}); // two stray bytes inside the transforms section
    PatchU32(b, 8, 230);
    expectFail(b, "2 bytes follow the six matrices");
    b = good;
    PatchU16(b, 286 - 10, 3); // pair index 3 of 3 controls
    expectFail(b, "two-pose corrective 0 names control 3");
    b = good;
    PatchU16(b, 286 - 2, 7); // triple index
    expectFail(b, "three-pose corrective 0 names control 7");
    // Pairs size not a multiple of 4 (total kept consistent by moving bytes to the triples).
    b = good;
    PatchU32(b, 16, 2);
    PatchU32(b, 20, 8);
    expectFail(b, "multiple of 4");
}

TEST(RobloxMeshReader, ParseFacsDimensionsMustMatchNames) {
    // One control name more than the matrices have columns.
    Bytes b = fx::FacsBlob();
    // "c_JD\0l_EC\0r_EC\0" -> "c_JD\0l_EC\0r\0EC\0": 4 controls, matrices still 5 columns.
    b[24 + 9 + 11] = 0;
    std::string error;
    EXPECT_FALSE(ParseFacs(b, &error).has_value());
    EXPECT_NE(error.find("expected 2 face bones x 6 poses"), std::string::npos) << error;
}

// ------------------------------------------------------------------ 6.00 / 7.00 chunks (§9)

TEST(RobloxMeshReader, ChunkedCoremesh1) {
    for (const char *version : {"6.00", "7.00"}) {
        SCOPED_TRACE(version);
        fx::ChunkedOptions o;
        o.version = version;
        const RobloxMesh m = Read(fx::Chunked(o));
        EXPECT_EQ(m.version, version);
        EXPECT_EQ(m.coremeshVersion, 1u);
        ASSERT_EQ(m.vertices.size(), 4u);
        for (std::uint32_t i = 0; i < 4; ++i) ExpectVertexEq(m.vertices[i], fx::SampleVertex(i));
        ASSERT_EQ(m.faces.size(), 2u);
        EXPECT_EQ(m.faces[1].c, 3u);
        EXPECT_EQ(m.lodOffsets, Offsets({0, 2}));
        EXPECT_EQ(m.lodType, 0);
        EXPECT_EQ(m.numHighQualityLODs, 1);
        EXPECT_EQ(m.chunkOrder, (std::vector<std::string>{"COREMESH", "LODS"}));
        EXPECT_TRUE(m.unknownChunks.empty());
        EXPECT_TRUE(m.trailingBytes.empty());
        EXPECT_TRUE(m.warnings.empty());
    }
}

TEST(RobloxMeshReader, ChunkedUnknownChunkKeptInOrder) {
    fx::ChunkedOptions o;
    o.unknownChunk = true;
    o.hsravis = true;
    const RobloxMesh m = Read(fx::Chunked(o));
    EXPECT_EQ(m.chunkOrder, (std::vector<std::string>{"COREMESH", "LODS", "EXTRA", "HSRAVIS"}));
    ASSERT_EQ(m.unknownChunks.size(), 1u);
    EXPECT_EQ(m.unknownChunks[0].tag, "EXTRA");
    EXPECT_EQ(m.unknownChunks[0].version, 3u);
    EXPECT_EQ(m.unknownChunks[0].payload, (Bytes{1, 2, 3, 4, 5}));
    EXPECT_TRUE(HasWarning(m, "EXTRA"));
    ASSERT_TRUE(m.hsravis.has_value());
    EXPECT_EQ(m.hsravis->bitCount, 10u);
    EXPECT_EQ(m.hsravis->bits, (Bytes{0x05, 0x02}));
    EXPECT_EQ(m.vertices.size(), 4u);
}

TEST(RobloxMeshReader, ChunkedKnownTagWithUnknownVersionKeptRaw) {
    Bytes b = fx::Chunked();
    fx::PutChunk(b, "SKINNING", 9, Bytes{7, 7});
    const RobloxMesh m = Read(b);
    EXPECT_TRUE(m.bones.empty());
    ASSERT_EQ(m.unknownChunks.size(), 1u);
    EXPECT_EQ(m.unknownChunks[0].tag, "SKINNING");
    EXPECT_EQ(m.unknownChunks[0].version, 9u);
    EXPECT_EQ(m.chunkOrder.back(), "SKINNING");
}

TEST(RobloxMeshReader, ChunkedDuplicateLastWins) {
    fx::ChunkedOptions o;
    o.duplicateLods = true;
    const RobloxMesh m = Read(fx::Chunked(o));
    EXPECT_EQ(m.lodOffsets, Offsets({0, 2}));
    EXPECT_EQ(m.lodType, 0);
    EXPECT_EQ(m.numHighQualityLODs, 1);
    EXPECT_EQ(m.chunkOrder, (std::vector<std::string>{"COREMESH", "LODS"}));
    EXPECT_TRUE(HasWarning(m, "duplicate LODS"));
    // A second COREMESH replaces the geometry too.
    Bytes b = fx::Chunked();
    fx::ChunkedOptions skinned;
    skinned.skinning = true;
    const Bytes second = fx::Chunked(skinned);
    // Append the skinned sample's COREMESH (6 vertices) after the LODS chunk.
    const std::size_t coreSize = 16 + 4 + 6 * 40 + 4 + 2 * 12;
    b.insert(b.end(), second.begin() + 13, second.begin() + 13 + static_cast<std::ptrdiff_t>(coreSize));
    const RobloxMesh m2 = Read(b);
    EXPECT_EQ(m2.vertices.size(), 6u);
    EXPECT_EQ(m2.chunkOrder, (std::vector<std::string>{"LODS", "COREMESH"}));
    EXPECT_TRUE(HasWarning(m2, "duplicate COREMESH"));
}

TEST(RobloxMeshReader, ChunkedTrailingJunk) {
    fx::ChunkedOptions o;
    o.trailing = {0xFF, 0xFE, 0x00};
    const Bytes b = fx::Chunked(o);
    const RobloxMesh m = Read(b);
    EXPECT_EQ(m.trailingBytes, (Bytes{0xFF, 0xFE, 0x00}));
    EXPECT_TRUE(HasWarning(m, "3 trailing bytes"));
    EXPECT_TRUE(HasWarning(m, std::to_string(b.size() - 3)));
    // Zero padding is junk too, not a chunk.
    o.trailing = Bytes(20, 0);
    EXPECT_EQ(Read(fx::Chunked(o)).trailingBytes.size(), 20u);
    // What looks like the start of a chunk but is cut short is an error.
    o.trailing = Text("LODS");
    const Bytes cut = fx::Chunked(o);
    ExpectError(cut, cut.size() - 4, "truncated chunk header");
}

TEST(RobloxMeshReader, ChunkedSkinningAndFacs) {
    fx::ChunkedOptions o;
    o.skinning = true;
    o.facs = true;
    const RobloxMesh m = Read(fx::Chunked(o));
    EXPECT_TRUE(m.warnings.empty());
    EXPECT_EQ(m.chunkOrder, (std::vector<std::string>{"COREMESH", "LODS", "SKINNING", "FACS"}));
    ASSERT_EQ(m.vertices.size(), 6u);
    ASSERT_EQ(m.envelopes.size(), 6u);
    EXPECT_EQ(m.envelopes[5].weights, (std::array<std::uint8_t, 4>{55, 200, 0, 0}));
    ASSERT_EQ(m.bones.size(), 3u);
    EXPECT_EQ(m.bones[0].name, "Root");
    EXPECT_EQ(m.bones[2].name, "Jaw");
    EXPECT_EQ(m.subsets.size(), 2u);
    ASSERT_TRUE(m.facs.has_value());
    EXPECT_EQ(m.facs->format, 1u);
    EXPECT_EQ(m.facs->blob, fx::FacsBlob());
    EXPECT_TRUE(m.facs->parsed.has_value());
}

TEST(RobloxMeshReader, ChunkedFacsBeforeSkinning) {
    // Chunk order is free: face bones are matched against the skeleton after the whole walk.
    fx::ChunkedOptions o;
    o.skinning = true;
    Bytes b = fx::Chunked(o);
    Bytes facs;
    const Bytes blob = fx::FacsBlob();
    facs.insert(facs.end(), {static_cast<std::uint8_t>(blob.size()), 1, 0, 0});
    facs.insert(facs.end(), blob.begin(), blob.end());
    Bytes withFacsFirst = Text("version 7.00\n");
    fx::PutChunk(withFacsFirst, "FACS", 1, facs);
    withFacsFirst.insert(withFacsFirst.end(), b.begin() + 13, b.end());
    const RobloxMesh m = Read(withFacsFirst);
    EXPECT_TRUE(m.warnings.empty());
    EXPECT_EQ(m.chunkOrder, (std::vector<std::string>{"FACS", "COREMESH", "LODS", "SKINNING"}));
    ASSERT_TRUE(m.facs && m.facs->parsed);
}

TEST(RobloxMeshReader, ManyChunksStayLinearAndWarningsAreCapped) {
    // 100k tiny unknown chunks (half of them repeating a tag) after a valid file.
    Bytes b = fx::Chunked();
    for (std::uint32_t i = 0; i < 100000; ++i) {
        const std::string tag = "T" + std::to_string(i % 50000);
        fx::PutChunk(b, tag, 1, {});
    }
    const auto start = std::chrono::steady_clock::now();
    const RobloxMesh m = Read(b);
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(5));
    EXPECT_EQ(m.chunkOrder.size(), 2u + 50000u);
    EXPECT_EQ(m.unknownChunks.size(), 50000u);
    EXPECT_EQ(m.unknownChunks.front().tag, "T0");
    EXPECT_EQ(m.chunkOrder[2], "T0"); // the surviving (last) T0 comes after every first occurrence
    EXPECT_EQ(m.chunkOrder.back(), "T49999");
    EXPECT_EQ(m.warnings.size(), 101u);
    EXPECT_EQ(m.warnings.back(), "further warnings suppressed");
}

TEST(RobloxMeshReader, LongBoneNamesAreCut) {
    // One unterminated 2000-byte name table shared by every bone: names are capped at 1023 bytes.
    fx::SkinnedSample s = fx::Skinned();
    s.boneNames.assign(2000, 'n');
    for (auto &bone : s.bones) bone.nameOffset = 0;
    fx::ChunkedOptions o;
    o.skinning = true;
    Bytes b = fx::Chunked(o);
    const std::size_t skinningAt = 13 + 16 + 4 + 6 * 40 + 4 + 2 * 12 + 16 + 15;
    b.resize(skinningAt);
    fx::PutChunk(b, "SKINNING", 1, fx::SkinningPayload(s));
    const RobloxMesh m = Read(b);
    ASSERT_EQ(m.bones.size(), 3u);
    EXPECT_EQ(m.bones[0].name, std::string(1023, 'n'));
    EXPECT_EQ(m.boneNames.size(), 2000u);
    EXPECT_TRUE(HasWarning(m, "cut to 1023"));
}

TEST(RobloxMeshReader, ChunkedSkinningEnvelopeCountMustMatch) {
    Bytes b = fx::Chunked(); // 4 vertices
    const std::size_t envCountAt = b.size() + 16;
    fx::PutChunk(b, "SKINNING", 1, fx::SkinningPayload(fx::Skinned())); // 6 envelopes
    ExpectError(b, envCountAt, "6 envelopes for 4 vertices");
}

TEST(RobloxMeshReader, ChunkedErrors) {
    ExpectError(fx::TruncatedChunk(), 25, "COREMESH declares");
    // No COREMESH at all.
    Bytes b = Text("version 7.00\n");
    fx::PutChunk(b, "LODS", 1, Bytes{0, 0, 1, 0, 0, 0, 0});
    ExpectError(b, b.size(), "no COREMESH");
    ExpectError(Text("version 7.00\n"), 13, "no COREMESH");
    // Unsupported COREMESH version.
    b = fx::Chunked();
    PatchU32(b, 21, 3);
    ExpectError(b, 21, "COREMESH chunk version 3");
    // Face index past the vertices: COREMESH payload at 29, faces at 29 + 4 + 160 + 4 = 197.
    b = fx::Chunked();
    PatchU32(b, 197 + 12 + 8, 4);
    ExpectError(b, 217, "uses vertex 4 of 4");
    // A count larger than the chunk, even though the file goes on.
    b = fx::Chunked();
    PatchU32(b, 29, 5);
    ExpectError(b, 29, "5 vertices");
    // LODS count past its payload.
    b = fx::Chunked();
    PatchU32(b, 13 + 16 + 192 + 16 + 3, 1000);
    ExpectError(b, 13 + 16 + 192 + 16 + 3, "1000 LOD offsets");
    // HSRAVIS bit count needing more bytes than the chunk holds.
    b = fx::Chunked();
    fx::PutChunk(b, "HSRAVIS", 1, Bytes{0xFF, 0xFF, 0xFF, 0xFF, 0});
    ExpectError(b, b.size() - 5, "HSRAVIS bytes");
    // FACS size past its payload.
    b = fx::Chunked();
    fx::PutChunk(b, "FACS", 1, Bytes{9, 0, 0, 0, 1, 2});
    ExpectError(b, b.size() - 6, "FACS bytes");
}

TEST(RobloxMeshReader, ChunkPayloadLeftoverWarns) {
    Bytes b = fx::Chunked();
    fx::PutChunk(b, "HSRAVIS", 1, Bytes{8, 0, 0, 0, 0xAA, 0xBB});
    const RobloxMesh m = Read(b);
    ASSERT_TRUE(m.hsravis.has_value());
    EXPECT_EQ(m.hsravis->bits, (Bytes{0xAA}));
    EXPECT_TRUE(HasWarning(m, "1 unused bytes at the end of the HSRAVIS chunk"));
}

// ------------------------------------------------------------------ Draco (§9.3)

TEST(RobloxMeshReader, DracoSynthetic) {
    const auto vertices = fx::SampleVertices(5);
    const std::vector<Face> faces = {{0, 1, 2}, {0, 2, 3}, {3, 2, 4}};
    const RobloxMesh m = Read(fx::DracoFile(vertices, faces));
    EXPECT_EQ(m.coremeshVersion, 2u);
    EXPECT_TRUE(m.warnings.empty());
    ASSERT_EQ(m.vertices.size(), 5u);
    ASSERT_EQ(m.faces.size(), 3u);
    for (std::size_t i = 0; i < 5; ++i) {
        const Vertex &v = m.vertices[i], &e = vertices[i];
        EXPECT_EQ(v.px, e.px); // raw positions: exact
        EXPECT_EQ(v.py, e.py);
        EXPECT_EQ(v.pz, e.pz);
        EXPECT_EQ(v.u, e.u);
        EXPECT_EQ(v.v, e.v);
        EXPECT_NEAR(v.nx, e.nx, 1e-3);
        EXPECT_NEAR(v.nz, e.nz, 1e-3);
        EXPECT_EQ(v.tangent, e.tangent);
        EXPECT_EQ(v.color, e.color);
    }
    for (std::size_t j = 0; j < 3; ++j) {
        EXPECT_EQ(m.faces[j].a, faces[j].a);
        EXPECT_EQ(m.faces[j].b, faces[j].b);
        EXPECT_EQ(m.faces[j].c, faces[j].c);
    }
}

TEST(RobloxMeshReader, DracoMissingAndExtraAttributes) {
    const auto vertices = fx::SampleVertices(3);
    const std::vector<Face> faces = {{0, 1, 2}};
    RobloxMesh m = Read(fx::DracoFile(vertices, faces, true));
    ASSERT_EQ(m.vertices.size(), 3u);
    EXPECT_EQ(m.vertices[2].px, vertices[2].px);
    EXPECT_EQ(m.vertices[2].nz, 0.0f);
    EXPECT_EQ(m.vertices[2].v, 0.0f);
    EXPECT_EQ(m.vertices[2].tangent, (std::array<std::uint8_t, 4>{127, 127, 127, 0}));
    EXPECT_EQ(m.vertices[2].color, (std::array<std::uint8_t, 4>{255, 255, 255, 255}));
    EXPECT_TRUE(HasWarning(m, "no normal attribute"));
    EXPECT_TRUE(HasWarning(m, "no colour attribute"));
    m = Read(fx::DracoFile(vertices, faces, false, true));
    EXPECT_TRUE(HasWarning(m, "unique id 5"));
    EXPECT_EQ(m.vertices[1].color, vertices[1].color);
}

TEST(RobloxMeshReader, DracoBadStreams) {
    const auto vertices = fx::SampleVertices(3);
    const std::vector<Face> faces = {{0, 1, 2}};
    const Bytes good = fx::DracoFile(vertices, faces);
    // Layout: COREMESH header 13..29, dracoSize at 29, stream at 33.
    Bytes b = good;
    b[33] = 'X';
    ExpectError(b, 33, "COREMESH chunk v2 (Draco)");
    // A dracoSize larger than the chunk.
    b = good;
    PatchU32(b, 29, 100000);
    ExpectError(b, 29, "Draco bytes");
    // A stream that claims more points than any stream of its size can hold: fails before libdraco
    // allocates.
    b = good;
    ASSERT_EQ(b[33 + 11], 1);                    // varint numFaces
    ASSERT_EQ(b[33 + 12], 3);                    // varint numPoints
    const Bytes huge = {0xFF, 0xFF, 0xFF, 0x0F}; // 2^28 - 1
    b.erase(b.begin() + 33 + 12);
    b.insert(b.begin() + 33 + 12, huge.begin(), huge.end());
    PatchU32(b, 25, static_cast<std::uint32_t>(good.size() - 13 - 16 - 31 + 3)); // COREMESH payload grew by 3
    PatchU32(b, 29, static_cast<std::uint32_t>(good[29] | (good[30] << 8)) + 3);
    ExpectError(b, 33 + 11, "points declared");
    // Every truncation of the stream is a clean error.
    const std::uint32_t dracoSize = good[29] | (good[30] << 8);
    for (std::uint32_t n = 0; n < dracoSize; ++n) {
        Bytes t(good.begin(), good.begin() + 33 + n);
        PatchU32(t, 25, 4 + n);
        PatchU32(t, 29, n);
        EXPECT_THROW(Read(t), FormatError) << n;
    }
}

// ------------------------------------------------------------------ hostile input (§12, checklist 20)

TEST(RobloxMeshReader, HugeVertexCountFailsFast) {
    const Bytes b = fx::HugeVertexCount();
    ASSERT_EQ(b.size(), 100u);
    const auto start = std::chrono::steady_clock::now();
    ExpectError(b, 17, "4294967295 vertices");
    EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::milliseconds(100));
}

TEST(RobloxMeshReader, FaceIndexOutOfRange) {
    ExpectError(fx::FaceIndexOutOfRange(), 153, "uses vertex 3 of 3");
}

// Every fixture, cut at every length and with every byte set to 0x00 and 0xFF, either reads or throws
// FormatError: no crash, no other exception, no huge allocation (the sanitizer build aborts on those).
TEST(RobloxMeshReader, MutatedFixturesNeverCrash) {
    fx::ChunkedOptions all;
    all.skinning = all.facs = all.unknownChunk = all.hsravis = true;
    all.trailing = {0xFF};
    const std::vector<Bytes> fixtures = {
        fx::Text100Crlf(),      fx::Text101(),
        fx::V200Strides(),      fx::V200Vertex36(),
        fx::V300({0, 2, 4, 6}), fx::V400Skinned(),
        fx::V500Facs(),         fx::Chunked(all),
        fx::BoneParentCycle(),  fx::DracoFile(fx::SampleVertices(4), {{0, 1, 2}, {0, 2, 3}}),
    };
    std::size_t reads = 0, errors = 0;
    auto attempt = [&](const Bytes &b) {
        try {
            Read(b);
            ++reads;
        } catch (const FormatError &) {
            ++errors;
        }
    };
    for (const Bytes &f : fixtures) {
        for (std::size_t n = 0; n <= f.size(); ++n)
            attempt(Bytes(f.begin(), f.begin() + static_cast<std::ptrdiff_t>(n)));
        for (std::size_t i = 0; i < f.size(); ++i)
            for (std::uint8_t value : {std::uint8_t{0x00}, std::uint8_t{0xFF}}) {
                Bytes m = f;
                m[i] = value;
                attempt(m);
            }
    }
    EXPECT_GT(reads, 0u);
    EXPECT_GT(errors, 0u);
}

} // namespace
