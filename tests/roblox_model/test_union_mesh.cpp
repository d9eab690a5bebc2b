// Union blobs (docs/formats/roblox-union-mesh.md): sniffing, the XOR worked example, the v5 delta coding with its
// worked example and hand-made codes, every §11 test vector of the corpus (counts, LOD 0, AABB, colours, index
// sum, signed volume, hull counts), and hostile blobs (every truncation of every sample: an error or a mesh, never
// a crash).
#include "common/error.hpp"
#include "fixtures/rbx_place_fixtures.hpp"
#include "importers/roblox_model/geometry/union_mesh.hpp"
#include "support/import_helpers.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <set>
#include <string>
#include <vector>

namespace gamefmt {
namespace {

using Bytes = std::vector<std::uint8_t>;
using rbx::UnionBlob;
using rbx::UnionMesh;

struct Box {
    rbx::Vector3 lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
};
Box Bounds(const std::vector<rbx::Vector3> &points) {
    Box b;
    for (const rbx::Vector3 &p : points) {
        b.lo = {std::fmin(b.lo.x, p.x), std::fmin(b.lo.y, p.y), std::fmin(b.lo.z, p.z)};
        b.hi = {std::fmax(b.hi.x, p.x), std::fmax(b.hi.y, p.y), std::fmax(b.hi.z, p.z)};
    }
    return b;
}

double Volume(const UnionMesh &m) {
    double v = 0;
    for (std::size_t t = 0; t + 2 < m.indices.size(); t += 3) {
        const rbx::Vector3 &a = m.positions[m.indices[t]], &b = m.positions[m.indices[t + 1]],
                           &c = m.positions[m.indices[t + 2]];
        v += (double(a.x) * (double(b.y) * c.z - double(b.z) * c.y) -
              double(a.y) * (double(b.x) * c.z - double(b.z) * c.x) +
              double(a.z) * (double(b.x) * c.y - double(b.y) * c.x)) /
             6;
    }
    return v;
}

std::uint64_t IndexSum(const UnionMesh &m) {
    std::uint64_t s = 0;
    for (std::uint32_t i : m.indices) s += i;
    return s;
}

std::set<std::string> Colours(const UnionMesh &m) {
    std::set<std::string> out;
    char buf[12];
    for (const auto &c : m.colors) {
        std::snprintf(buf, sizeof buf, "%02x%02x%02x%02x", c[0], c[1], c[2], c[3]);
        out.insert(buf);
    }
    return out;
}

#define EXPECT_VEC3(v, X, Y, Z)                                                                                        \
    do {                                                                                                               \
        EXPECT_FLOAT_EQ((v).x, (X));                                                                                   \
        EXPECT_FLOAT_EQ((v).y, (Y));                                                                                   \
        EXPECT_FLOAT_EQ((v).z, (Z));                                                                                   \
    } while (0)

TEST(RbxUnionMesh, SniffsEveryKindOfTheReference) {
    const Bytes v2 = {0x15, 0x7D, 0x29, 0x15, 0x75, 0x6C, 0x32, 0x04, 0x34, 0x69};
    const Bytes v5 = {0x15, 0x7D, 0x29, 0x15, 0x75, 0x6C, 0x35, 0x04, 0x34, 0x69};
    std::uint32_t version = 0;
    EXPECT_EQ(rbx::SniffUnionBlob(v2.data(), v2.size(), &version), UnionBlob::CsgMdl);
    EXPECT_EQ(version, 2u);
    EXPECT_EQ(rbx::SniffUnionBlob(v5.data(), v5.size(), &version), UnionBlob::CsgMdl);
    EXPECT_EQ(version, 5u);
    const std::string csgk = "CSGK85161f7e9cff3259a6e56a64bcfcc32a", phs = std::string("CSGPHS\x07\0\0\0", 10);
    EXPECT_EQ(rbx::SniffUnionBlob(reinterpret_cast<const std::uint8_t *>(csgk.data()), csgk.size()), UnionBlob::Csgk);
    EXPECT_EQ(rbx::SniffUnionBlob(reinterpret_cast<const std::uint8_t *>(phs.data()), phs.size(), &version),
              UnionBlob::Csgphs);
    EXPECT_EQ(version, 7u);
    EXPECT_EQ(rbx::SniffUnionBlob(reinterpret_cast<const std::uint8_t *>("<roblox!x"), 9), UnionBlob::Model);
    EXPECT_EQ(rbx::SniffUnionBlob(nullptr, 0), UnionBlob::Empty);
    EXPECT_EQ(rbx::SniffUnionBlob(reinterpret_cast<const std::uint8_t *>("hello world"), 11), UnionBlob::Unknown);
    // CSGK, hulls and nested models have no render mesh.
    EXPECT_FALSE(rbx::DecodeUnionRenderMesh(reinterpret_cast<const std::uint8_t *>(csgk.data()), csgk.size()));
}

// §3 worked example: stored → plain bytes 0–15.
TEST(RbxUnionMesh, XorWorkedExample) {
    Bytes b = {0x15, 0x7D, 0x29, 0x15, 0x75, 0x6C, 0x32, 0x04, 0x34, 0x69, 0x3B, 0x4F, 0x38, 0x67, 0x6C, 0x31};
    rbx::CsgMdlXor(b.data(), 0, b.size());
    EXPECT_EQ(b, (Bytes{0x43, 0x53, 0x47, 0x4D, 0x44, 0x4C, 0x02, 0, 0, 0, 0x37, 0x38, 0x34, 0x66, 0x32, 0x31}));
}

// A v5 blob of three positions whose index stream is `stream` (m = `m`) and whose LOD table is [0, m].
Bytes V5(const Bytes &stream, std::uint32_t m) {
    Bytes b = {0x15, 0x7D, 0x29, 0x15, 0x75, 0x6C, 0x35, 0x04, 0x34, 0x69};
    const auto u16 = [&](std::uint16_t v) { b.insert(b.end(), {std::uint8_t(v), std::uint8_t(v >> 8)}); };
    const auto u32 = [&](std::uint32_t v) {
        for (int i = 0; i < 4; ++i) b.push_back(std::uint8_t(v >> (8 * i)));
    };
    const auto f32 = [&](float f) {
        std::uint32_t v;
        std::memcpy(&v, &f, 4);
        u32(v);
    };
    u16(3);
    for (int i = 0; i < 9; ++i) f32(static_cast<float>(i % 3 == i / 3 ? 1 : 0));
    u16(3);
    u32(18);
    for (int i = 0; i < 9; ++i) u16(i % 3 == 1 ? 65534 : 32767);
    u16(3);
    for (int i = 0; i < 12; ++i) b.push_back(0x80);
    u16(3);
    b.insert(b.end(), {2, 2, 2});
    u16(3);
    for (int i = 0; i < 6; ++i) f32(0.5f);
    u16(3);
    u32(18);
    for (int i = 0; i < 9; ++i) u16(32767);
    u32(m);
    u32(static_cast<std::uint32_t>(stream.size()));
    b.insert(b.end(), stream.begin(), stream.end());
    b.push_back(2);
    u32(0);
    u32(m);
    return b;
}

// §5: 1-byte codes 0x00–0x3F and 0x40–0x7F, 3-byte codes with 23-bit wrap, no reset; a code cut by L, bytes left
// inside L and indices out of range are errors.
TEST(RbxUnionMesh, V5DeltaCoding) {
    // 0, +2 → 2, −1 (0x7F) → 1, +0x000001 (3-byte) → 2, −2 (0xFF FF FE) → 0, +1 → 1.
    const auto mesh =
        rbx::DecodeUnionRenderMesh(V5({0x00, 0x02, 0x7F, 0x80, 0x00, 0x01, 0xFF, 0xFF, 0xFE, 0x01}, 6).data(),
                                   V5({0x00, 0x02, 0x7F, 0x80, 0x00, 0x01, 0xFF, 0xFF, 0xFE, 0x01}, 6).size());
    ASSERT_TRUE(mesh);
    EXPECT_EQ(mesh->indices, (std::vector<std::uint32_t>{0, 2, 1, 2, 0, 1}));
    EXPECT_VEC3(mesh->normals[0], 0, 1, 0); // (32767, 65534, 32767)
    EXPECT_EQ(mesh->source, "CSGMDL5");
    const auto decodeThrows = [](const Bytes &b) {
        EXPECT_THROW(rbx::DecodeUnionRenderMesh(b.data(), b.size()), FormatError);
    };
    decodeThrows(V5({0x00, 0x01, 0x80, 0x00}, 3)); // a 3-byte code cut by L
    decodeThrows(V5({0x00, 0x01, 0x01, 0x05}, 3)); // a byte left inside L
    decodeThrows(V5({0x00, 0x01, 0x3F}, 3));       // index 64 ≥ 3 positions
    decodeThrows(V5({0x00, 0x01, 0x40}, 3));       // 1 − 64 wraps to 2^23 − 63 ≥ 3
}

// The generated tetrahedra (rbx_place_fixtures.hpp): each encoding decodes to the same solid.
TEST(RbxUnionMesh, GeneratedBlobsDecodeToTheTetrahedron) {
    const struct {
        Bytes blob;
        const char *source;
        const char *colour;
        bool hull;
    } cases[] = {{fixtures::UnionCsgMdl4Tetra(), "CSGMDL4", "c4281cff", false},
                 {fixtures::UnionCsgMdl5Tetra(), "CSGMDL5", "7c5c46ff", false},
                 {fixtures::UnionSolidMeshTetra(), "SolidMesh", "a3a1a6ff", false},
                 {fixtures::UnionCsgphs7Tetra(), "CSGPHS7", "", true}};
    for (const auto &c : cases) {
        SCOPED_TRACE(c.source);
        const std::optional<UnionMesh> m = c.hull ? rbx::DecodeUnionHulls(c.blob.data(), c.blob.size())
                                                  : rbx::DecodeUnionRenderMesh(c.blob.data(), c.blob.size());
        ASSERT_TRUE(m);
        EXPECT_EQ(m->source, c.source);
        EXPECT_EQ(m->indices.size(), 12u);
        EXPECT_NEAR(Volume(*m), 4.0 / 3.0, 1e-6);
        const Box b = Bounds(m->positions);
        EXPECT_VEC3(b.lo, -1, -1, -1);
        EXPECT_VEC3(b.hi, 1, 1, 1);
        EXPECT_EQ(Colours(*m), c.hull ? std::set<std::string>{} : std::set<std::string>{c.colour});
        EXPECT_TRUE(m->warnings.empty());
    }
}

struct Vector {
    const char *file;
    std::size_t n, tris;
    rbx::Vector3 lo, hi;
    std::set<std::string> colours;
    std::uint64_t indexSum;
    double volume;
};

// §11 render-mesh vectors.
TEST(RbxUnionMesh, CsgMdlTestVectors) {
    GAMEFMT_REQUIRE_CORPUS(dir, "union-mesh");
    const Vector vectors[] = {
        {"krakow10_rbx_mesh__meshes_385416572.meshdata",
         64,
         48,
         {-5.5000005f, -1.5000013f, -5.500001f},
         {5.5000005f, 1.5000014f, 5.500001f},
         {"5b5d69ff"},
         4310,
         63.0},
        {"krakow10_rbx_mesh__meshes_5692112940_2.meshdata",
         58,
         36,
         {-6.3771944f, -7.700001f, -0.8000003f},
         {6.3771944f, 7.700001f, 0.79999983f},
         {"a3a2a5ff", "ffaf00ff"},
         2875,
         270.0513},
        {"krakow10_rbx_mesh__meshes_4500696697_4.meshdata",
         468,
         350,
         {-59.000046f, -14.015533f, -11.017334f},
         {59.000046f, 14.015564f, 11.01709f},
         {"a3a2a5ff"},
         203742,
         27174.37},
        {"krakow10_rbx_mesh__meshes_14846974687_5.meshdata",
         103,
         68,
         {-35.197266f, -46.875f, -6.916748f},
         {35.198242f, 46.875122f, 6.916748f},
         {"7c5c46ff"},
         10180,
         61050.66},
        {"krakow10_rbx_mesh__meshes_15124417947_5.meshdata",
         208,
         188,
         {-3.000122f, -3, -3},
         {3, 3, 3.0002441f},
         {"7c5c46ff"},
         58749,
         105.4625},
        {"rbx-test-files__unions__Red_Union_1__MeshData.bin",
         48,
         28,
         {-2.5f, -1, -1},
         {2.5f, 1, 1},
         {"c4281cff"},
         1897,
         12.0},
        {"rbx-test-files__unions__Blue_Union__MeshData.bin", 48, 28, {-2, -1, -1}, {2, 1, 1}, {"0d69acff"}, 1836, 12.0},
    };
    for (const Vector &v : vectors) {
        SCOPED_TRACE(v.file);
        const Bytes blob = test::ReadBytes(dir / v.file);
        const std::optional<UnionMesh> m = rbx::DecodeUnionRenderMesh(blob.data(), blob.size());
        ASSERT_TRUE(m);
        EXPECT_EQ(m->positions.size(), v.n);
        EXPECT_EQ(m->normals.size(), v.n);
        EXPECT_EQ(m->uvs.size(), v.n);
        EXPECT_EQ(m->indices.size(), 3 * v.tris);
        const Box b = Bounds(m->positions);
        EXPECT_VEC3(b.lo, v.lo.x, v.lo.y, v.lo.z);
        EXPECT_VEC3(b.hi, v.hi.x, v.hi.y, v.hi.z);
        EXPECT_EQ(Colours(*m), v.colours);
        EXPECT_EQ(IndexSum(*m), v.indexSum);
        EXPECT_NEAR(Volume(*m), v.volume, 1e-3 * v.volume);
        EXPECT_TRUE(m->warnings.empty());
    }
    // 385416572: the first vertex of §11.
    const Bytes blob = test::ReadBytes(dir / "krakow10_rbx_mesh__meshes_385416572.meshdata");
    const UnionMesh m = *rbx::DecodeUnionRenderMesh(blob.data(), blob.size());
    EXPECT_VEC3(m.positions[0], 5.5f, 1.5000008f, -5.5f);
    EXPECT_FLOAT_EQ(m.uvs[0][0], 5.4999995f);
    EXPECT_FLOAT_EQ(m.uvs[0][1], -1.4999999f);
}

TEST(RbxUnionMesh, SolidMeshTestVectors) {
    GAMEFMT_REQUIRE_CORPUS(dir, "union-mesh");
    const struct {
        const char *file;
        rbx::Vector3 half;
    } vectors[] = {{"rbx-test-files__netassetref__union_at_4_2_0__SolidMeshHolder.bin", {2.8f, 1, 1}},
                   {"rbx-test-files__netassetref__union_at_-4_-2_0__SolidMeshHolder.bin", {2, 1, 1.5f}}};
    for (const auto &v : vectors) {
        SCOPED_TRACE(v.file);
        const Bytes blob = test::ReadBytes(dir / v.file);
        const std::optional<UnionMesh> m = rbx::DecodeUnionRenderMesh(blob.data(), blob.size());
        ASSERT_TRUE(m);
        EXPECT_EQ(m->source, "SolidMesh");
        EXPECT_EQ(m->indices.size(), 84u); // 28 triangles
        EXPECT_TRUE(m->uvs.empty());       // the UV stream is empty
        EXPECT_EQ(m->normals.size(), m->positions.size());
        const Box b = Bounds(m->positions);
        EXPECT_VEC3(b.lo, -v.half.x, -v.half.y, -v.half.z);
        EXPECT_VEC3(b.hi, v.half.x, v.half.y, v.half.z);
        EXPECT_NEAR(Volume(*m), 16.0, 1e-3 * 16);
        EXPECT_EQ(Colours(*m), std::set<std::string>{"a3a2a5ff"}); // (163, 162, 165)
    }
    // A stream whose count is neither 0 nor m is an error: the normal stream's count (after the position stream of
    // 84 one-byte codes) made 83.
    Bytes blob = test::ReadBytes(dir / vectors[0].file);
    bool patched = false;
    for (std::size_t at = 27; at + 8 <= blob.size() && !patched; ++at) {
        std::uint64_t c = 0;
        std::memcpy(&c, blob.data() + at, 8);
        if (c == 84 && at + 8 + 84 + 8 <= blob.size()) {
            std::uint64_t next = 0;
            std::memcpy(&next, blob.data() + at + 8 + 84, 8);
            if (next == 84) {
                blob[at + 8 + 84] = 83;
                patched = true;
            }
        }
    }
    ASSERT_TRUE(patched);
    EXPECT_THROW(rbx::DecodeUnionRenderMesh(blob.data(), blob.size()), FormatError);
}

TEST(RbxUnionMesh, HullTestVectors) {
    GAMEFMT_REQUIRE_CORPUS(dir, "union-mesh");
    const struct {
        const char *file;
        std::size_t vertices, tris;
        rbx::Vector3 lo, hi;
    } vectors[] = {
        {"krakow10_rbx_mesh__meshes_CSGPHS_3.data",
         120,
         184,
         {-1.000004f, -32.000004f, -28},
         {1.0000002f, 32, 28.000006f}},
        {"krakow10_rbx_mesh__meshes_CSGPHS_5.data",
         126,
         200,
         {-10.926344f, -5.328203f, -0.6850016f},
         {10.926411f, 5.3282037f, 0.68500125f}},
        {"krakow10_rbx_mesh__meshes_CSGPHS_7.data",
         149,
         238,
         {-38.558006f, -91.75335f, -38.03239f},
         {38.558006f, 91.75335f, 38.03239f}},
        {"rbx-test-files__unions__Red_Union_1__PhysicalConfigData.bin", 48, 72, {-2.5f, -1, -1}, {2.5f, 1, 1}},
        {"rbx-test-files__sharedstring__union1__PhysicalConfigData.bin",
         228,
         364,
         {-0.5f, -9, -15.500004f},
         {0.50000036f, 8.999999f, 15.5f}},
        {"rbx-test-files__sharedstring__union3__PhysicalConfigData.bin",
         545,
         1066,
         {-2.4000006f, -0.99740386f, -0.99767303f},
         {2.399883f, 1.0025983f, 1.0023346f}},
    };
    for (const auto &v : vectors) {
        SCOPED_TRACE(v.file);
        const Bytes blob = test::ReadBytes(dir / v.file);
        const std::optional<UnionMesh> m = rbx::DecodeUnionHulls(blob.data(), blob.size());
        ASSERT_TRUE(m);
        EXPECT_EQ(m->positions.size(), v.vertices);
        EXPECT_EQ(m->indices.size(), 3 * v.tris);
        const Box b = Bounds(m->positions);
        EXPECT_VEC3(b.lo, v.lo.x, v.lo.y, v.lo.z);
        EXPECT_VEC3(b.hi, v.hi.x, v.hi.y, v.hi.z);
        EXPECT_GT(Volume(*m), 0);
    }
    const Bytes v8 = test::ReadBytes(dir / "krakow10_rbx_mesh__meshes_CSGPHS_8_05.data");
    EXPECT_FALSE(rbx::DecodeUnionHulls(v8.data(), v8.size())); // recognised, not decoded
    const Bytes csgk = test::ReadBytes(dir / "krakow10_rbx_mesh__meshes_CSGK.data");
    EXPECT_EQ(rbx::SniffUnionBlob(csgk.data(), csgk.size()), UnionBlob::Csgk);
    EXPECT_FALSE(rbx::DecodeUnionRenderMesh(csgk.data(), csgk.size()));
}

// §14.8: every prefix of every sample, and every sample with each of a stride of bytes flipped: an error or a mesh.
TEST(RbxUnionMesh, TruncatedAndFlippedSamplesNeverCrash) {
    GAMEFMT_REQUIRE_CORPUS(dir, "union-mesh");
    std::size_t decoded = 0, refused = 0;
    for (const auto &entry : std::filesystem::directory_iterator(dir)) {
        if (entry.path().extension() == ".md") continue;
        const Bytes blob = test::ReadBytes(entry.path());
        const auto attempt = [&](const Bytes &b) {
            try {
                const bool any = rbx::DecodeUnionRenderMesh(b.data(), b.size()).has_value() ||
                                 rbx::DecodeUnionHulls(b.data(), b.size()).has_value();
                decoded += any ? 1 : 0;
            } catch (const FormatError &) {
                ++refused;
            }
        };
        const std::size_t step = blob.size() > 2000 ? blob.size() / 500 : 1;
        for (std::size_t cut = 0; cut < blob.size(); cut += step) attempt(Bytes(blob.begin(), blob.begin() + cut));
        for (std::size_t at = 0; at < blob.size(); at += step * 7 + 1) {
            Bytes b = blob;
            b[at] ^= 0xFF;
            attempt(b);
        }
    }
    EXPECT_GT(refused, 100u);
    EXPECT_GT(decoded, 10u);
}

} // namespace
} // namespace gamefmt

// ------------------------------------------------------------------ scenes (roblox-union-mesh.md §11 "Scene-level")
#include "gamefmt/config.hpp"
#include "gamefmt/roblox_model.hpp"
#include "importers/roblox_model/document/binary_writer.hpp"
#include "support/rbx_values.hpp"
#include "support/scene_build.hpp"

#include <assimp/Importer.hpp>
#include <assimp/scene.h>

#include <filesystem>

namespace gamefmt {
namespace {

struct WorldBox {
    aiVector3D lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
};

WorldBox NodeBounds(const aiScene *scene, const aiNode *node) {
    const aiMatrix4x4 world = test::GlobalTransform(node);
    WorldBox b;
    for (unsigned i = 0; i < node->mNumMeshes; ++i) {
        const aiMesh *m = scene->mMeshes[node->mMeshes[i]];
        for (unsigned v = 0; v < m->mNumVertices; ++v) {
            const aiVector3D p = world * m->mVertices[v];
            b.lo = aiVector3D(std::fmin(b.lo.x, p.x), std::fmin(b.lo.y, p.y), std::fmin(b.lo.z, p.z));
            b.hi = aiVector3D(std::fmax(b.hi.x, p.x), std::fmax(b.hi.y, p.y), std::fmax(b.hi.z, p.z));
        }
    }
    return b;
}

void ExpectBox(const WorldBox &b, aiVector3D lo, aiVector3D hi) {
    EXPECT_NEAR(b.lo.x, lo.x, 1e-4);
    EXPECT_NEAR(b.lo.y, lo.y, 1e-4);
    EXPECT_NEAR(b.lo.z, lo.z, 1e-4);
    EXPECT_NEAR(b.hi.x, hi.x, 1e-4);
    EXPECT_NEAR(b.hi.y, hi.y, 1e-4);
    EXPECT_NEAR(b.hi.z, hi.z, 1e-4);
}

// §11: the world boxes of the corpus unions, in both encodings: CSGMDL4 (models/unions), SolidMesh
// (models/netassetref), and the CSGK / cloud unions of models/sharedstring drawn from their hulls.
TEST(RbxUnionScene, CorpusUnionsHaveTheirShapes) {
    GAMEFMT_REQUIRE_CORPUS(dir, "rbx/rbx-test-files/models");
    for (const char *file : {"binary.rbxm", "xml.rbxmx"}) {
        SCOPED_TRACE(file);
        const test::ImportResult unions = test::ImportFile(dir / "unions" / file);
        ASSERT_TRUE(unions) << unions.error;
        const aiNode *root = unions.scene->mRootNode;
        const aiNode *red1 = root->FindNode("Red Union 1"), *red2 = root->FindNode("Red Union 2");
        const aiNode *blue = root->FindNode("Blue Union");
        ASSERT_TRUE(red1 && red2 && blue);
        EXPECT_EQ(test::MetaText(red1, kRbxGeometry), "union-mesh");
        EXPECT_EQ(test::MetaText(red1, kRbxUnionSource), "CSGMDL4");
        ExpectBox(NodeBounds(unions.scene, red1), {-2.5f, -1, -1}, {2.5f, 1, 1});
        ExpectBox(NodeBounds(unions.scene, red2), {-9.5f, -1, -1}, {-4.5f, 1, 1});
        ExpectBox(NodeBounds(unions.scene, blue), {-6, -4.5f, -1}, {-2, -2.5f, 1});
        EXPECT_EQ(red1->mMeshes[0], red2->mMeshes[0]); // one shape, one size, one look: shared

        const test::ImportResult net = test::ImportFile(dir / "netassetref" / file);
        ASSERT_TRUE(net) << net.error;
        const aiNode *a = net.scene->mRootNode->FindNode("Position: 4,2,0");
        const aiNode *b = net.scene->mRootNode->FindNode("Position: -4, -2, 0");
        ASSERT_TRUE(a && b);
        EXPECT_EQ(test::MetaText(a, kRbxUnionSource), "SolidMesh");
        ExpectBox(NodeBounds(net.scene, a), {1.2f, 1, -1}, {6.8f, 3, 1});
        ExpectBox(NodeBounds(net.scene, b), {-6, -3, -1.5f}, {-2, -1, 1.5f});

        const test::ImportResult shared = test::ImportFile(dir / "sharedstring" / file);
        ASSERT_TRUE(shared) << shared.error;
        std::size_t hulls = 0;
        std::vector<const aiNode *> stack{shared.scene->mRootNode};
        while (!stack.empty()) {
            const aiNode *n = stack.back();
            stack.pop_back();
            if (test::MetaText(n, kRbxGeometry) == "union-hull") {
                ++hulls;
                EXPECT_EQ(test::MetaText(n, kRbxUnionSource), "CSGPHS6");
                EXPECT_GE(n->mNumMeshes, 1u);
            }
            for (unsigned i = 0; i < n->mNumChildren; ++i) stack.push_back(n->mChildren[i]);
        }
        EXPECT_EQ(hulls, 8u);
    }
}

// A union whose only geometry is its nested model (ChildData): two boxes in the union's frame, drawn at size =
// 2 × InitialSize in their own colours (UsePartColor false), then in the union's (true); a NegateOperation in the
// nested model is left out and flagged; a union with nothing is a placeholder.
TEST(RbxUnionScene, SourcePartsFromTheNestedModel) {
    rbx::Document nested;
    const auto box = [&](const char *name, rbx::Vector3 size, rbx::Vector3 at, rbx::Color3uint8 colour) {
        const auto i = nested.addInstance("Part", name, rbx::kNoInstance);
        rbx::CFrame cf;
        cf.position = at;
        rbx::AddProperty(nested, i, "CFrame", rbx::Type::CFrame, cf);
        rbx::AddProperty(nested, i, "size", rbx::Type::Vector3, size);
        rbx::AddProperty(nested, i, "Color3uint8", rbx::Type::Color3uint8, colour);
    };
    box("A", {2, 1, 2}, {-1.5f, -0.5f, 0}, {255, 0, 0});
    box("B", {4, 1, 2}, {0.5f, 0.5f, 0}, {0, 0, 255});
    const std::vector<std::uint8_t> plain = rbx::WriteBinary(nested);
    nested.addInstance("NegateOperation", "Cut", rbx::kNoInstance);
    const std::vector<std::uint8_t> withCut = rbx::WriteBinary(nested);

    rbx::Document doc;
    const auto add = [&](const char *name, const std::vector<std::uint8_t> &child, bool usePartColor, float x) {
        const auto u = doc.addInstance("UnionOperation", name, rbx::kNoInstance);
        rbx::CFrame cf;
        cf.position = {x, 0, 0};
        rbx::AddProperty(doc, u, "CFrame", rbx::Type::CFrame, cf);
        rbx::AddProperty(doc, u, "size", rbx::Type::Vector3, rbx::Vector3{10, 4, 4});
        rbx::AddProperty(doc, u, "InitialSize", rbx::Type::Vector3, rbx::Vector3{5, 2, 2});
        rbx::AddProperty(doc, u, "Color3uint8", rbx::Type::Color3uint8, rbx::Color3uint8{0, 255, 0});
        rbx::AddProperty(doc, u, "UsePartColor", rbx::Type::Bool, usePartColor);
        rbx::AddProperty(doc, u, "ChildData", rbx::Type::String, std::string(child.begin(), child.end()));
    };
    add("Own", plain, false, 0);
    add("Painted", plain, true, 20);
    add("Cut", withCut, false, 40);
    add("Empty", {}, false, 60);
    const test::ImportResult r = test::ImportMemory(rbx::WriteBinary(doc), "rbxm");
    ASSERT_TRUE(r) << r.error;
    const aiNode *own = r.scene->mRootNode->FindNode("Own");
    const aiNode *painted = r.scene->mRootNode->FindNode("Painted");
    const aiNode *cut = r.scene->mRootNode->FindNode("Cut");
    const aiNode *empty = r.scene->mRootNode->FindNode("Empty");
    ASSERT_TRUE(own && painted && cut && empty);
    EXPECT_EQ(test::MetaText(own, kRbxGeometry), "union-parts");
    EXPECT_EQ(test::MetaText(own, kRbxUnionSource), "ChildData");
    // The boxes span (−2.5, −1, −1)…(2.5, 1, 1); × 2.
    ExpectBox(NodeBounds(r.scene, own), {-5, -2, -2}, {5, 2, 2});
    ASSERT_EQ(own->mNumMeshes, 2u); // red and blue
    const auto diffuse = [&](const aiNode *n, unsigned k) {
        aiColor4D c;
        r.scene->mMaterials[r.scene->mMeshes[n->mMeshes[k]]->mMaterialIndex]->Get(AI_MATKEY_COLOR_DIFFUSE, c);
        return c;
    };
    EXPECT_FLOAT_EQ(diffuse(own, 0).r, 1.0f);
    EXPECT_FLOAT_EQ(diffuse(own, 1).b, 1.0f);
    ASSERT_EQ(painted->mNumMeshes, 1u); // UsePartColor: all in the union's green
    EXPECT_FLOAT_EQ(diffuse(painted, 0).g, 1.0f);
    EXPECT_EQ(test::MetaText(own, kRbxNegated), "<none>");
    bool negated = false;
    ASSERT_TRUE(cut->mMetaData != nullptr && cut->mMetaData->Get(kRbxNegated, negated));
    EXPECT_TRUE(negated);
    EXPECT_EQ(test::MetaText(empty, kRbxGeometry), "placeholder");
}

} // namespace
} // namespace gamefmt

namespace gamefmt {
namespace {

// Without the corpus too: a generated model with a union of each kind — its own CSGMDL4 mesh (MeshData), a
// SolidMesh in a SharedString (SolidMeshHolder), hulls only (PhysicalConfigData), a CSGK key with hulls — each
// drawn as the tetrahedron, scaled by size / InitialSize.
TEST(RbxUnionScene, GeneratedUnionsOfEveryKind) {
    rbx::Document doc;
    // The binary format stores a property for every instance of a class or for none: every union gets all three,
    // empty where unused.
    const auto shared = [&](const Bytes &blob) {
        rbx::SharedStringEntry entry;
        entry.content.assign(blob.begin(), blob.end());
        doc.sharedStrings.push_back(entry);
        return rbx::SharedStringRef{static_cast<std::uint32_t>(doc.sharedStrings.size() - 1)};
    };
    const auto add = [&](const char *name, const Bytes &meshData, const Bytes &solid, const Bytes &hulls, float x) {
        const auto u = doc.addInstance("UnionOperation", name, rbx::kNoInstance);
        rbx::CFrame cf;
        cf.position = {x, 0, 0};
        rbx::AddProperty(doc, u, "CFrame", rbx::Type::CFrame, cf);
        rbx::AddProperty(doc, u, "size", rbx::Type::Vector3, rbx::Vector3{4, 2, 2});
        rbx::AddProperty(doc, u, "InitialSize", rbx::Type::Vector3, rbx::Vector3{2, 2, 2});
        rbx::AddProperty(doc, u, "UsePartColor", rbx::Type::Bool, true);
        rbx::AddProperty(doc, u, "MeshData", rbx::Type::String, std::string(meshData.begin(), meshData.end()));
        rbx::AddProperty(doc, u, "SolidMeshHolder", rbx::Type::SharedString, shared(solid));
        rbx::AddProperty(doc, u, "PhysicalConfigData", rbx::Type::SharedString, shared(hulls));
    };
    add("Mesh", fixtures::UnionCsgMdl4Tetra(), {}, fixtures::UnionCsgphs7Tetra(), 0);
    add("Solid", {}, fixtures::UnionSolidMeshTetra(), {}, 10);
    add("Hulls", {}, {}, fixtures::UnionCsgphs7Tetra(), 20);
    const test::ImportResult r = test::ImportMemory(rbx::WriteBinary(doc), "rbxm");
    ASSERT_TRUE(r) << r.error;
    const struct {
        const char *name, *geometry, *source;
        float x;
    } expected[] = {{"Mesh", "union-mesh", "CSGMDL4", 0},
                    {"Solid", "union-mesh", "SolidMesh", 10},
                    {"Hulls", "union-hull", "CSGPHS7", 20}};
    for (const auto &e : expected) {
        SCOPED_TRACE(e.name);
        const aiNode *n = r.scene->mRootNode->FindNode(e.name);
        ASSERT_NE(n, nullptr);
        EXPECT_EQ(test::MetaText(n, kRbxGeometry), e.geometry);
        EXPECT_EQ(test::MetaText(n, kRbxUnionSource), e.source);
        // The tetrahedron spans ±1; × (2, 1, 1) and moved to x.
        ExpectBox(NodeBounds(r.scene, n), {e.x - 2, -1, -1}, {e.x + 2, 1, 1});
    }
}

// Issue #29 point 6 (§2.1 step 3): a union whose only render mesh is its cloud AssetId resolves it in the asset
// folders — a binary model (CSGMDL4 MeshData) and an XML one without extension (SolidMesh SharedString) — ahead of
// its hulls; an asset in no folder, no folder at all, or an asset that does not decode falls back to the hulls.
TEST(RbxUnionScene, UnionsFromTheirCloudAssets) {
    const auto dir = test::ScratchDir("rbx_union_assets");
    std::filesystem::create_directories(dir / "union-assets");
    for (const fixtures::Fixture &f : fixtures::UnionAssetFiles()) test::WriteBytes(dir / f.name, f.bytes);
    const std::string folder = (dir / "union-assets").string();
    const auto withFolder = [&](const std::string &value) {
        return [value](Assimp::Importer &i) { i.SetPropertyString(GAMEFMT_RBX_ASSET_DIR, value); };
    };
    const test::ImportResult r = test::ImportFile(dir / "union-asset-place.rbxl", 0, withFolder(folder));
    ASSERT_TRUE(r) << r.error;
    const aiNode *root = r.scene->mRootNode;
    const aiNode *cloud = root->FindNode("CloudUnion"), *cloud2 = root->FindNode("CloudUnion2");
    const aiNode *lost = root->FindNode("LostUnion");
    ASSERT_TRUE(cloud && cloud2 && lost);
    EXPECT_EQ(test::MetaText(cloud, kRbxGeometry), "union-mesh");
    EXPECT_EQ(test::MetaText(cloud, kRbxUnionSource), "asset CSGMDL4");
    EXPECT_EQ(test::MetaText(cloud2, kRbxUnionSource), "asset SolidMesh");
    EXPECT_EQ(test::MetaText(lost, kRbxGeometry), "union-hull");
    EXPECT_EQ(test::MetaText(lost, kRbxUnionSource), "CSGPHS7");
    // The tetrahedron (±1) × size / InitialSize = (2, 1, 1), at its CFrame.
    ExpectBox(NodeBounds(r.scene, cloud), {-2, -1, -1}, {2, 1, 1});
    ExpectBox(NodeBounds(r.scene, cloud2), {8, -1, -1}, {12, 1, 1});
    // The render meshes share their 4 corners (hulls would give 12: flat faces); CloudUnion keeps its vertex colour
    // C4281C (UsePartColor false), CloudUnion2 takes the union's (13, 105, 172).
    const auto sRgbToLinear = [](int c) {
        const double v = c / 255.0;
        return static_cast<float>(v <= 0.04045 ? v / 12.92 : std::pow((v + 0.055) / 1.055, 2.4));
    };
    // Diffuse: the colour as stored (sRGB); base colour: linearised (IEC 61966-2-1).
    const struct {
        const aiNode *node;
        int rgb[3];
    } looks[] = {{cloud, {196, 40, 28}}, {cloud2, {13, 105, 172}}};
    for (const auto &look : looks) {
        const aiNode *node = look.node;
        const int *rgb = look.rgb;
        ASSERT_EQ(node->mNumMeshes, 1u);
        const aiMesh *m = r.scene->mMeshes[node->mMeshes[0]];
        EXPECT_EQ(m->mNumVertices, 4u);
        EXPECT_EQ(m->mNumFaces, 4u);
        aiColor4D c, base;
        ASSERT_EQ(r.scene->mMaterials[m->mMaterialIndex]->Get(AI_MATKEY_COLOR_DIFFUSE, c), AI_SUCCESS);
        ASSERT_EQ(r.scene->mMaterials[m->mMaterialIndex]->Get(AI_MATKEY_BASE_COLOR, base), AI_SUCCESS);
        for (int k = 0; k < 3; ++k) {
            EXPECT_NEAR(c[k], rgb[k] / 255.0f, 1e-6);
            EXPECT_NEAR(base[k], sRgbToLinear(rgb[k]), 1e-4);
        }
    }

    // No folder: every union falls back to its hulls.
    const test::ImportResult bare = test::ImportFile(dir / "union-asset-place.rbxl");
    ASSERT_TRUE(bare) << bare.error;
    EXPECT_EQ(test::MetaText(bare.scene->mRootNode->FindNode("CloudUnion"), kRbxUnionSource), "CSGPHS7");

    // An asset whose blob does not decode (a CSGK key): one warning naming the union and the file, then the hulls.
    const auto broken = test::ScratchDir("rbx_union_assets_broken");
    rbx::Document keyOnly;
    const std::uint32_t a = keyOnly.addInstance("PartOperationAsset", "PartOperationAsset", rbx::kNoInstance);
    rbx::AddProperty(keyOnly, a, "MeshData", rbx::Type::String, std::string("CSGK85161f7e9cff3259a6e56a64bcfcc32a"));
    test::WriteBytes(broken / "3001.rbxm", rbx::WriteBinary(keyOnly));
    const test::ImportResult fallback =
        test::ImportFile(dir / "union-asset-place.rbxl", 0, withFolder(broken.string()));
    ASSERT_TRUE(fallback) << fallback.error;
    EXPECT_EQ(test::MetaText(fallback.scene->mRootNode->FindNode("CloudUnion"), kRbxUnionSource), "CSGPHS7");
    bool warned = false;
    for (const std::string &line : fallback.log)
        warned = warned || (line.find("union 'CloudUnion': asset") != std::string::npos &&
                            line.find("3001.rbxm") != std::string::npos);
    EXPECT_TRUE(warned) << ::testing::PrintToString(fallback.log);
}

} // namespace
} // namespace gamefmt
