// Tests of the Roblox mesh writer: exact bytes of small hand-laid files per version, every corpus file
// read -> write byte-identical (Draco ones read-back-equal), model -> bytes -> model for every writable
// version, the Draco stream's structure, and clear errors for models a version cannot hold.
#include "importers/roblox_mesh/draco_encode.hpp"
#include "importers/roblox_mesh/mesh_reader.hpp"
#include "importers/roblox_mesh/mesh_writer.hpp"

#include "fixtures/bytes.hpp"
#include "support/expect_error.hpp"
#include "support/import_helpers.hpp"

#include <draco/compression/decode.h>
#include <draco/core/decoder_buffer.h>
#include <draco/mesh/mesh.h>

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

using namespace gamefmt::rbxmesh;
using gamefmt::FormatError;
using namespace gamefmt::test;

namespace {

using gamefmt::fixtures::Text;

using gamefmt::fixtures::Cat;

using Bytes = std::vector<std::uint8_t>;

// ---------------------------------------------------------------- model equality

// Compares everything a file stores. Floats are compared exactly (bit-identical values written and read
// back), except normals after a Draco round trip, which are quantised to 11 bits (`normalTolerance`).
// File-form fields (header sizes, strides, chunk order) are compared by the byte tests instead.
void ExpectSameContent(const RobloxMesh &a, const RobloxMesh &b, float normalTolerance = 0) {
    EXPECT_EQ(a.version, b.version);
    ASSERT_EQ(a.vertices.size(), b.vertices.size());
    std::size_t vertexMismatches = 0;
    for (std::size_t i = 0; i < a.vertices.size(); ++i) {
        const Vertex &x = a.vertices[i];
        const Vertex &y = b.vertices[i];
        const bool normalsOk = normalTolerance == 0 ? (x.nx == y.nx && x.ny == y.ny && x.nz == y.nz)
                                                    : (std::fabs(x.nx - y.nx) <= normalTolerance &&
                                                       std::fabs(x.ny - y.ny) <= normalTolerance &&
                                                       std::fabs(x.nz - y.nz) <= normalTolerance);
        const bool same = x.px == y.px && x.py == y.py && x.pz == y.pz && normalsOk && x.u == y.u && x.v == y.v &&
                          x.tangent == y.tangent && x.color == y.color;
        if (!same && vertexMismatches++ < 5)
            ADD_FAILURE() << "vertex " << i << " differs: (" << x.px << "," << x.py << "," << x.pz << ") n(" << x.nx
                          << "," << x.ny << "," << x.nz << ") uv(" << x.u << "," << x.v << ") vs (" << y.px << ","
                          << y.py << "," << y.pz << ") n(" << y.nx << "," << y.ny << "," << y.nz << ") uv(" << y.u
                          << "," << y.v << ")";
    }
    EXPECT_EQ(vertexMismatches, 0u);
    ASSERT_EQ(a.faces.size(), b.faces.size());
    std::size_t faceMismatches = 0;
    for (std::size_t j = 0; j < a.faces.size(); ++j)
        if (a.faces[j].a != b.faces[j].a || a.faces[j].b != b.faces[j].b || a.faces[j].c != b.faces[j].c)
            ++faceMismatches;
    EXPECT_EQ(faceMismatches, 0u);

    EXPECT_EQ(a.lodOffsets, b.lodOffsets);
    EXPECT_EQ(a.lodType, b.lodType);
    EXPECT_EQ(a.numHighQualityLODs, b.numHighQualityLODs);
    EXPECT_EQ(a.v4Unused, b.v4Unused);

    ASSERT_EQ(a.envelopes.size(), b.envelopes.size());
    for (std::size_t i = 0; i < a.envelopes.size(); ++i) {
        EXPECT_EQ(a.envelopes[i].bones, b.envelopes[i].bones) << "envelope " << i;
        EXPECT_EQ(a.envelopes[i].weights, b.envelopes[i].weights) << "envelope " << i;
    }
    ASSERT_EQ(a.bones.size(), b.bones.size());
    for (std::size_t i = 0; i < a.bones.size(); ++i) {
        const Bone &x = a.bones[i];
        const Bone &y = b.bones[i];
        EXPECT_EQ(x.name, y.name) << "bone " << i;
        EXPECT_EQ(x.nameOffset, y.nameOffset) << "bone " << i;
        EXPECT_EQ(x.parent, y.parent) << "bone " << i;
        EXPECT_EQ(x.lodParent, y.lodParent) << "bone " << i;
        EXPECT_EQ(x.culling, y.culling) << "bone " << i;
        EXPECT_EQ(x.rotation, y.rotation) << "bone " << i;
        EXPECT_EQ(x.position, y.position) << "bone " << i;
    }
    EXPECT_EQ(a.boneNames, b.boneNames);
    ASSERT_EQ(a.subsets.size(), b.subsets.size());
    for (std::size_t i = 0; i < a.subsets.size(); ++i) {
        const Subset &x = a.subsets[i];
        const Subset &y = b.subsets[i];
        EXPECT_EQ(x.facesBegin, y.facesBegin);
        EXPECT_EQ(x.facesLength, y.facesLength);
        EXPECT_EQ(x.vertsBegin, y.vertsBegin);
        EXPECT_EQ(x.vertsLength, y.vertsLength);
        EXPECT_EQ(x.numBoneIndices, y.numBoneIndices);
        EXPECT_EQ(x.boneIndices, y.boneIndices);
    }
    ASSERT_EQ(a.facs.has_value(), b.facs.has_value());
    if (a.facs) {
        EXPECT_EQ(a.facs->format, b.facs->format);
        EXPECT_EQ(a.facs->blob, b.facs->blob);
    }
    ASSERT_EQ(a.hsravis.has_value(), b.hsravis.has_value());
    if (a.hsravis) {
        EXPECT_EQ(a.hsravis->bitCount, b.hsravis->bitCount);
        EXPECT_EQ(a.hsravis->bits, b.hsravis->bits);
    }
    ASSERT_EQ(a.unknownChunks.size(), b.unknownChunks.size());
    for (std::size_t i = 0; i < a.unknownChunks.size(); ++i) {
        EXPECT_EQ(a.unknownChunks[i].tag, b.unknownChunks[i].tag);
        EXPECT_EQ(a.unknownChunks[i].version, b.unknownChunks[i].version);
        EXPECT_EQ(a.unknownChunks[i].payload, b.unknownChunks[i].payload);
    }
    EXPECT_EQ(a.trailingBytes, b.trailingBytes);
}

RobloxMesh Read(const Bytes &bytes) {
    return ReadRobloxMesh(bytes.data(), bytes.size());
}

// ---------------------------------------------------------------- hand-laid bytes

// IEEE-754 little-endian bytes of the few floats the tiny meshes use.
#define F0 0x00, 0x00, 0x00, 0x00
#define F1 0x00, 0x00, 0x80, 0x3F
#define FH 0x00, 0x00, 0x00, 0x3F  /* 0.5 */
#define FM1 0x00, 0x00, 0x80, 0xBF /* -1 */

// One triangle: (0,0,0) (1,0,0) (0,1,0), normal +Z, tangent bytes FE 7F 7F FE, red/green/blue.
RobloxMesh Triangle(const std::string &version) {
    RobloxMesh m;
    m.version = version;
    Vertex v;
    v.nz = 1;
    v.tangent = {254, 127, 127, 254};
    v.color = {255, 0, 0, 255};
    m.vertices.push_back(v);
    v.px = 1;
    v.u = 1;
    v.color = {0, 255, 0, 255};
    m.vertices.push_back(v);
    v.px = 0;
    v.py = 1;
    v.u = 0.5f;
    v.v = 1;
    v.color = {0, 0, 255, 128};
    m.vertices.push_back(v);
    m.faces.push_back({0, 1, 2});
    return m;
}

const Bytes kTriangleVertices = {
    F0, F0, F0, F0, F0, F1, F0, F0, 0xFE, 0x7F, 0x7F, 0xFE, 0xFF, 0x00, 0x00, 0xFF, // v0
    F1, F0, F0, F0, F0, F1, F1, F0, 0xFE, 0x7F, 0x7F, 0xFE, 0x00, 0xFF, 0x00, 0xFF, // v1
    F0, F1, F0, F0, F0, F1, FH, F1, 0xFE, 0x7F, 0x7F, 0xFE, 0x00, 0x00, 0xFF, 0x80, // v2
};
const Bytes kTriangleFace = {0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0};

TEST(RobloxMeshWriter, Version200ExactBytes) {
    const Bytes expected = Cat({Text("version 2.00\n"),
                                {0x0C, 0x00, 0x28, 0x0C, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00},
                                kTriangleVertices,
                                kTriangleFace});
    ASSERT_EQ(expected.size(), 13u + 12 + 3 * 40 + 12);
    EXPECT_EQ(WriteRobloxMesh(Triangle("2.00")), expected);
    // The version comes from the options when given.
    EXPECT_EQ(WriteRobloxMesh(Triangle("7.00"), WriteOptions{"2.00", true}), expected);
}

TEST(RobloxMeshWriter, Version200With36ByteVertices) {
    RobloxMesh m = Triangle("2.00");
    for (Vertex &v : m.vertices) v.color = {255, 255, 255, 255};
    m.vertexSize = 36;
    const Bytes expected = Cat({Text("version 2.00\n"),
                                {0x0C, 0x00, 0x24, 0x0C, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00},
                                {F0, F0, F0, F0, F0, F1, F0, F0, 0xFE, 0x7F, 0x7F, 0xFE},
                                {F1, F0, F0, F0, F0, F1, F1, F0, 0xFE, 0x7F, 0x7F, 0xFE},
                                {F0, F1, F0, F0, F0, F1, FH, F1, 0xFE, 0x7F, 0x7F, 0xFE},
                                kTriangleFace});
    EXPECT_EQ(WriteRobloxMesh(m), expected);

    // 36 bytes would lose a colour: the writer falls back to 40 rather than drop it.
    m.vertices[1].color = {1, 2, 3, 4};
    const Bytes bytes = WriteRobloxMesh(m);
    EXPECT_EQ(bytes[15], 40);
    EXPECT_EQ(Read(bytes).vertices[1].color, (std::array<std::uint8_t, 4>{1, 2, 3, 4}));
}

TEST(RobloxMeshWriter, Version300ExactBytes) {
    const Bytes expected = Cat({Text("version 3.00\n"),
                                {0x10, 0x00, 0x28, 0x0C, 0x04, 0x00, 0x02, 0x00, // sizes, 2 LOD entries
                                 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00},
                                kTriangleVertices,
                                kTriangleFace,
                                {0, 0, 0, 0, 1, 0, 0, 0}}); // [0, N] for a single level
    EXPECT_EQ(WriteRobloxMesh(Triangle("3.00")), expected);
    Bytes v301 = expected;
    v301[11] = '1';
    EXPECT_EQ(WriteRobloxMesh(Triangle("3.01")), v301);
}

TEST(RobloxMeshWriter, Version400StaticExactBytes) {
    RobloxMesh m = Triangle("4.00");
    m.lodType = 0;
    m.numHighQualityLODs = 1;
    m.v4Unused = 63;
    const Bytes expected = Cat({Text("version 4.00\n"),
                                {0x18, 0x00, 0x00, 0x00,                         // header 24, lodType 0
                                 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, // 3 verts, 1 face
                                 0x02, 0x00, 0x00, 0x00,                         // 2 LOD entries, 0 bones
                                 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,             // names 0, subsets 0
                                 0x01, 0x3F},                                    // HQ 1, unused 63 kept
                                kTriangleVertices,                               // no envelope array without bones
                                kTriangleFace,
                                {0, 0, 0, 0, 1, 0, 0, 0}});
    EXPECT_EQ(WriteRobloxMesh(m), expected);
}

// One bone "Root" at (0,0,-1) holding every vertex; one subset.
RobloxMesh SkinnedTriangle(const std::string &version) {
    RobloxMesh m = Triangle(version);
    m.lodType = 3;
    m.numHighQualityLODs = 1;
    m.envelopes.assign(3, Envelope{{0, 0, 0, 0}, {255, 0, 0, 0}});
    Bone b;
    b.name = "Root";
    b.culling = 0.5f;
    b.position = {0, 0, -1};
    m.bones.push_back(b);
    m.boneNames = {'R', 'o', 'o', 't', 0};
    Subset s;
    s.facesLength = 1;
    s.vertsLength = 3;
    s.numBoneIndices = 1;
    s.boneIndices.fill(kNoBone);
    s.boneIndices[0] = 0;
    m.subsets.push_back(s);
    return m;
}

Bytes SkinBody() {
    Bytes b = {// bone: nameOffset 0, parent none, lodParent none, culling 0.5, identity, position (0,0,-1)
               0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF, FH, F1, F0, F0, F0, F1, F0, F0, F0, F1, F0, F0, FM1,
               // names
               'R', 'o', 'o', 't', 0,
               // subset: faces 0+1, verts 0+3, 1 bone index: [0, FFFF x 25]
               0, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 1, 0, 0, 0, 0, 0};
    for (int i = 0; i < 25; ++i) b.insert(b.end(), {0xFF, 0xFF});
    return b;
}

const Bytes kEnvelopes = {0, 0, 0, 0, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0, 0, 0};

TEST(RobloxMeshWriter, Version400SkinnedExactBytes) {
    const Bytes expected = Cat({Text("version 4.00\n"),
                                {0x18, 0x00, 0x03, 0x00,                         // header 24, lodType 3
                                 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, // 3 verts, 1 face
                                 0x02, 0x00, 0x01, 0x00,                         // 2 LOD entries, 1 bone
                                 0x05, 0x00, 0x00, 0x00, 0x01, 0x00,             // names 5, subsets 1
                                 0x01, 0x00},
                                kTriangleVertices,
                                kEnvelopes,
                                kTriangleFace,
                                {0, 0, 0, 0, 1, 0, 0, 0},
                                SkinBody()});
    ASSERT_EQ(expected.size(), 13u + 24 + 120 + 24 + 12 + 8 + 60 + 5 + 72);
    EXPECT_EQ(WriteRobloxMesh(SkinnedTriangle("4.00")), expected);
}

TEST(RobloxMeshWriter, Version500ExactBytes) {
    RobloxMesh m = SkinnedTriangle("5.00");
    m.facs = Facs{1, {1, 2, 3, 4, 5}, std::nullopt};
    const Bytes head = {0x20, 0x00, 0x03, 0x00, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00,
                        0x02, 0x00, 0x01, 0x00, 0x05, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00};
    const Bytes body = Cat({kTriangleVertices, kEnvelopes, kTriangleFace, {0, 0, 0, 0, 1, 0, 0, 0}, SkinBody()});
    EXPECT_EQ(WriteRobloxMesh(m), Cat({Text("version 5.00\n"), head, {1, 0, 0, 0, 5, 0, 0, 0}, body, {1, 2, 3, 4, 5}}));

    // Without FACS: format 0, size 0, nothing after the subsets (the documented choice).
    m.facs.reset();
    EXPECT_EQ(WriteRobloxMesh(m), Cat({Text("version 5.00\n"), head, {0, 0, 0, 0, 0, 0, 0, 0}, body}));
}

Bytes ChunkHeader(const char (&tag)[9], std::uint32_t version, std::uint32_t size) {
    Bytes b(tag, tag + 8);
    for (std::uint32_t v : {version, size})
        for (int i = 0; i < 4; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
    return b;
}

TEST(RobloxMeshWriter, Version600ExactBytes) {
    RobloxMesh m = SkinnedTriangle("6.00");
    m.facs = Facs{1, {9, 8, 7}, std::nullopt};
    m.hsravis = Hsravis{10, {0xFF, 0x03}};
    m.unknownChunks.push_back(RawChunk{"EXTRA", 3, {0xAB}});
    const Bytes skin = SkinBody();
    const Bytes expected = Cat({Text("version 6.00\n"),
                                ChunkHeader("COREMESH", 1, 4 + 120 + 4 + 12),
                                {3, 0, 0, 0},
                                kTriangleVertices,
                                {1, 0, 0, 0},
                                kTriangleFace,
                                ChunkHeader("LODS\0\0\0\0", 1, 15),
                                {3, 0, 1, 2, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0},
                                ChunkHeader("SKINNING", 1, 4 + 24 + 4 + 60 + 4 + 5 + 4 + 72),
                                {3, 0, 0, 0},
                                kEnvelopes,
                                {1, 0, 0, 0},
                                Bytes(skin.begin(), skin.begin() + 60),
                                {5, 0, 0, 0, 'R', 'o', 'o', 't', 0},
                                {1, 0, 0, 0},
                                Bytes(skin.begin() + 65, skin.end()),
                                ChunkHeader("FACS\0\0\0\0", 1, 7),
                                {3, 0, 0, 0, 9, 8, 7},
                                ChunkHeader("HSRAVIS\0", 1, 6),
                                {10, 0, 0, 0, 0xFF, 0x03},
                                ChunkHeader("EXTRA\0\0\0", 3, 1),
                                {0xAB}});
    EXPECT_EQ(WriteRobloxMesh(m), expected);
    // 6.00 never uses Draco, whatever the option says.
    EXPECT_EQ(WriteRobloxMesh(m, WriteOptions{"", true}), expected);
    // The same chunks as 7.00 without Draco: only the version line differs.
    Bytes v7 = expected;
    v7[8] = '7';
    EXPECT_EQ(WriteRobloxMesh(m, WriteOptions{"7.00", false}), v7);
}

TEST(RobloxMeshWriter, TextVersionsExactBytes) {
    auto str = [](const Bytes &b) { return std::string(b.begin(), b.end()); };
    // Opt-in by version only. 1.00 doubles positions; V is stored bottom-up (1 - v); w is 0.
    EXPECT_EQ(str(WriteRobloxMesh(Triangle("1.00"))),
              "version 1.00\n1\n[0,0,0][0,0,1][0,1,0][2,0,0][0,0,1][1,1,0][0,2,0][0,0,1][0.5,0,0]");
    RobloxMesh m = Triangle("1.01");
    m.textCrlf = true;
    m.textFinalNewline = true;
    m.vertices[0].px = 1.5e-6f; // %g with a three-digit exponent, as the real files have
    m.vertices[0].ny = -0.1f;
    m.vertices[0].v = 0.75f;
    EXPECT_EQ(str(WriteRobloxMesh(m)), "version 1.01\r\n1\r\n[1.5e-006,0,0][0,-0.1,1][0,0.25,0][1,0,0][0,0,1][1,1,0]"
                                       "[0,1,0][0,0,1][0.5,0,0]\r\n");
    const RobloxMesh back = Read(WriteRobloxMesh(m));
    EXPECT_EQ(back.vertices[0].px, 1.5e-6f);
    EXPECT_EQ(back.vertices[0].ny, -0.1f);
    EXPECT_EQ(back.vertices[0].v, 0.75f);

    // More digits only where 6 would not read back to the same float; V aims at what the reader
    // computes (1 - v_text in float), so it comes back exactly when such a text exists.
    m.vertices[0].px = 0.1234567f;
    m.vertices[0].v = 0.6f;
    const std::string more = str(WriteRobloxMesh(m));
    EXPECT_TRUE(Contains(more, "[0.1234567,")) << more;
    const RobloxMesh back2 = Read(WriteRobloxMesh(m));
    EXPECT_EQ(back2.vertices[0].px, 0.1234567f);
    EXPECT_EQ(back2.vertices[0].v, 0.6f);
}

TEST(RobloxMeshWriter, ChunkOrderIsKept) {
    RobloxMesh m = Triangle("7.00");
    m.coremeshVersion = 1;
    m.lodOffsets = {0, 1};
    m.unknownChunks.push_back(RawChunk{"AAA", 1, {1}});
    m.unknownChunks.push_back(RawChunk{"BBB", 1, {2}});
    m.unknownChunks.push_back(RawChunk{"CCC", 2, {3}});
    m.chunkOrder = {"AAA", "LODS", "BBB", "COREMESH", "CCC"};
    const RobloxMesh back = Read(WriteRobloxMesh(m));
    EXPECT_EQ(back.chunkOrder, m.chunkOrder);
    ExpectSameContent(m, back);
    EXPECT_EQ(back.coremeshVersion, 1u); // a 7.00 model that says v1 stays raw (a real file does this)

    // Without an order: COREMESH, LODS, then unknown chunks in model order.
    m.chunkOrder.clear();
    EXPECT_EQ(Read(WriteRobloxMesh(m)).chunkOrder, (std::vector<std::string>{"COREMESH", "LODS", "AAA", "BBB", "CCC"}));
}

TEST(RobloxMeshWriter, LargerHeaderAndStridesFromAFile) {
    // A 2.00 file with sizeof_header 14 (two extra zero bytes), 44-byte vertices and 16-byte faces.
    Bytes file = Cat({Text("version 2.00\n"), {0x0E, 0x00, 0x2C, 0x10, 3, 0, 0, 0, 1, 0, 0, 0, 0, 0}});
    for (std::size_t i = 0; i < 3; ++i) {
        file.insert(file.end(), kTriangleVertices.begin() + 40 * i, kTriangleVertices.begin() + 40 * (i + 1));
        file.insert(file.end(), {0xEE, 0xEE, 0xEE, 0xEE});
    }
    file.insert(file.end(), kTriangleFace.begin(), kTriangleFace.end());
    file.insert(file.end(), {0xDD, 0xDD, 0xDD, 0xDD});
    const RobloxMesh m = Read(file);
    ASSERT_EQ(m.headerSize, 14);

    // The header size is kept (extra bytes as zeros); strides are written at the standard 40 / 12 because
    // the extra stride bytes are not part of the model.
    const Bytes expected = Cat({Text("version 2.00\n"),
                                {0x0E, 0x00, 0x28, 0x0C, 3, 0, 0, 0, 1, 0, 0, 0, 0, 0},
                                kTriangleVertices,
                                kTriangleFace});
    EXPECT_EQ(WriteRobloxMesh(m), expected);
    ExpectSameContent(m, Read(expected));
    // In another layout the header is the standard one.
    EXPECT_EQ(WriteRobloxMesh(m, WriteOptions{"3.00", true})[13], 0x10);
}

TEST(RobloxMeshWriter, TrailingBytesOnlyForTheSourceVersion) {
    Bytes file = WriteRobloxMesh(Triangle("2.00"));
    file.insert(file.end(), {1, 2, 3});
    const RobloxMesh m = Read(file);
    ASSERT_EQ(m.trailingBytes, (Bytes{1, 2, 3}));
    EXPECT_EQ(WriteRobloxMesh(m), file);
    EXPECT_TRUE(Read(WriteRobloxMesh(m, WriteOptions{"3.00", true})).trailingBytes.empty());
}

TEST(RobloxMeshWriter, RenamedBonesRebuildTheNameTable) {
    RobloxMesh m = SkinnedTriangle("4.00");
    m.bones[0].name = "Head";
    const RobloxMesh back = Read(WriteRobloxMesh(m));
    EXPECT_EQ(back.bones[0].name, "Head");
    EXPECT_EQ(back.boneNames, (Bytes{'H', 'e', 'a', 'd', 0}));
    // A hand-built model without a table gets one.
    m.boneNames.clear();
    m.bones[0].nameOffset = 77;
    EXPECT_EQ(Read(WriteRobloxMesh(m)).bones[0].name, "Head");
}

// ---------------------------------------------------------------- synthetic round trips

// A model that uses every field `version` can hold, with values that catch swapped or truncated fields.
RobloxMesh Synthetic(const std::string &version) {
    RobloxMesh m;
    m.version = version;
    const int major = version[0] - '0';
    // A 6 x 6 grid, two levels: all faces, then every other face.
    constexpr std::uint32_t kSide = 6;
    for (std::uint32_t y = 0; y < kSide; ++y)
        for (std::uint32_t x = 0; x < kSide; ++x) {
            Vertex v;
            v.px = static_cast<float>(x) * 0.37f - 1.1f;
            v.py = static_cast<float>(y) * -2.5e-3f;
            v.pz = std::sin(static_cast<float>(x + y)) * 123.456f;
            const float len = std::sqrt(1.0f + v.pz * v.pz * 1e-4f);
            v.nx = 0.01f * v.pz / len;
            v.ny = 1.0f / len;
            v.nz = 0;
            v.u = static_cast<float>(x) / 5.0f * 3.0f - 1.0f; // outside 0..1 on purpose
            v.v = 1.0f - static_cast<float>(y) / 5.0f;
            v.tangent = {static_cast<std::uint8_t>(x * 40), 127, static_cast<std::uint8_t>(255 - y), 254};
            v.color = {static_cast<std::uint8_t>(x * 50), static_cast<std::uint8_t>(y * 50), 7, 200};
            m.vertices.push_back(v);
        }
    auto idx = [&](std::uint32_t x, std::uint32_t y) { return y * kSide + x; };
    for (std::uint32_t y = 0; y + 1 < kSide; ++y)
        for (std::uint32_t x = 0; x + 1 < kSide; ++x) {
            m.faces.push_back({idx(x, y), idx(x + 1, y), idx(x + 1, y + 1)});
            m.faces.push_back({idx(x, y), idx(x + 1, y + 1), idx(x, y + 1)});
        }
    const auto lod0 = static_cast<std::uint32_t>(m.faces.size());
    for (std::uint32_t j = 0; j < lod0; j += 2) m.faces.push_back(m.faces[j]);
    if (major >= 3) m.lodOffsets = {0, lod0, static_cast<std::uint32_t>(m.faces.size())};
    if (major >= 4) {
        m.lodType = 4;
        m.numHighQualityLODs = 1;
        m.v4Unused = major < 6 ? 63 : 0;
        // Three bones; the subset holds them as local 0..2 in the order 2, 0, 1.
        const char *names[] = {"Root", "Arm", "Hand"};
        for (int b = 0; b < 3; ++b) {
            Bone bone;
            bone.name = names[b];
            bone.nameOffset = static_cast<std::uint32_t>(m.boneNames.size());
            m.boneNames.insert(m.boneNames.end(), bone.name.begin(), bone.name.end());
            m.boneNames.push_back(0);
            bone.parent = b == 0 ? kNoBone : static_cast<std::uint16_t>(b - 1);
            bone.lodParent = bone.parent;
            bone.culling = 1.25f * static_cast<float>(b + 1);
            bone.rotation = {0.f, -1.f, 0.f, 1.f, 0.f, 0.f, 0.f, 0.f, 1.f};
            bone.position = {static_cast<float>(b), 0.5f, -0.25f};
            m.bones.push_back(bone);
        }
        for (std::size_t i = 0; i < m.vertices.size(); ++i) {
            const std::uint8_t w = static_cast<std::uint8_t>(128 + i % 100);
            m.envelopes.push_back(
                Envelope{{static_cast<std::uint8_t>(i % 3), static_cast<std::uint8_t>((i + 1) % 3), 0, 0},
                         {w, static_cast<std::uint8_t>(255 - w), 0, 0}});
        }
        Subset s;
        s.facesLength = static_cast<std::uint32_t>(m.faces.size());
        s.vertsLength = static_cast<std::uint32_t>(m.vertices.size());
        s.numBoneIndices = 3;
        s.boneIndices.fill(kNoBone);
        s.boneIndices[0] = 2;
        s.boneIndices[1] = 0;
        s.boneIndices[2] = 1;
        m.subsets.push_back(s);
    }
    if (major >= 5) m.facs = Facs{1, {0xDE, 0xAD, 0xBE, 0xEF, 0, 1}, std::nullopt}; // kept raw, not parsed
    if (major >= 6) {
        m.hsravis = Hsravis{13, {0x55, 0x1A}};
        m.unknownChunks.push_back(RawChunk{"FUTURE", 9, {1, 2, 3, 4}});
    }
    return m;
}

TEST(RobloxMeshWriter, SyntheticModelsRoundTripInEveryVersion) {
    for (const char *version : {"2.00", "3.00", "3.01", "4.00", "4.01", "5.00", "6.00", "7.00"}) {
        SCOPED_TRACE(version);
        const RobloxMesh m = Synthetic(version);
        for (bool draco : {false, true}) {
            if (!draco && std::string(version) != "7.00") continue;
            const Bytes bytes = WriteRobloxMesh(m, WriteOptions{"", draco});
            const RobloxMesh back = Read(bytes);
            const bool usedDraco = std::string(version) == "7.00" && draco;
            ExpectSameContent(m, back, usedDraco ? 1e-3f : 0.0f);
            if (back.isChunked()) {
                EXPECT_EQ(back.coremeshVersion, usedDraco ? 2u : 1u);
            }
            // Writing what was read reproduces the bytes (the read model says which COREMESH it had).
            EXPECT_EQ(WriteRobloxMesh(back), bytes);
        }
    }
}

TEST(RobloxMeshWriter, ConvertsBetweenVersions) {
    // A static 3.00 model written as 2.00 only when it has one level; any version can go to 7.00.
    RobloxMesh m = Synthetic("3.00");
    m.lodOffsets = {0, static_cast<std::uint32_t>(m.faces.size())};
    const RobloxMesh v2 = Read(WriteRobloxMesh(m, WriteOptions{"2.00", true}));
    EXPECT_EQ(v2.vertices.size(), m.vertices.size());
    EXPECT_EQ(v2.faces.size(), m.faces.size());

    const RobloxMesh skinned = Synthetic("5.00");
    const RobloxMesh v7 = Read(WriteRobloxMesh(skinned, WriteOptions{"7.00", true}));
    RobloxMesh expected = skinned;
    expected.version = "7.00";
    expected.v4Unused = 0; // chunked files have no such byte
    ExpectSameContent(expected, v7, 1e-3f);
}

// ---------------------------------------------------------------- Draco

TEST(RobloxMeshWriter, DracoStreamHasRobloxsStructureAndOrder) {
    const RobloxMesh m = Synthetic("7.00");
    const Bytes stream = EncodeCoremeshDraco(m.vertices, m.faces);
    // "DRACO", version 2.2, encoder type 1 (triangular mesh), method 0 (sequential), flags 0.
    ASSERT_GE(stream.size(), 11u);
    EXPECT_EQ(Bytes(stream.begin(), stream.begin() + 11), (Bytes{'D', 'R', 'A', 'C', 'O', 2, 2, 1, 0, 0, 0}));

    draco::DecoderBuffer buffer;
    buffer.Init(reinterpret_cast<const char *>(stream.data()), stream.size());
    draco::Decoder decoder;
    auto result = decoder.DecodeMeshFromBuffer(&buffer);
    ASSERT_TRUE(result.ok()) << result.status().error_msg_string();
    const std::unique_ptr<draco::Mesh> mesh = std::move(result).value();
    ASSERT_EQ(mesh->num_points(), m.vertices.size());
    ASSERT_EQ(mesh->num_faces(), m.faces.size());
    ASSERT_EQ(mesh->num_attributes(), 5);
    const draco::GeometryAttribute::Type types[5] = {
        draco::GeometryAttribute::POSITION, draco::GeometryAttribute::GENERIC, draco::GeometryAttribute::TEX_COORD,
        draco::GeometryAttribute::GENERIC, draco::GeometryAttribute::COLOR};
    const draco::DataType dataTypes[5] = {draco::DT_FLOAT32, draco::DT_FLOAT32, draco::DT_FLOAT32, draco::DT_UINT8,
                                          draco::DT_UINT8};
    const int components[5] = {3, 3, 2, 4, 4};
    for (std::uint32_t id = 0; id < 5; ++id) {
        const draco::PointAttribute *a = mesh->GetAttributeByUniqueId(id);
        ASSERT_NE(a, nullptr) << id;
        EXPECT_EQ(mesh->attribute(static_cast<int>(id)), a) << "attribute order = unique id";
        EXPECT_EQ(a->attribute_type(), types[id]) << id;
        EXPECT_EQ(a->data_type(), dataTypes[id]) << id;
        EXPECT_EQ(a->num_components(), components[id]) << id;
    }
    // Point i = vertex i, face j = face j: exact positions, UVs, bytes; normals within the 11-bit step.
    for (std::uint32_t i = 0; i < m.vertices.size(); ++i) {
        const Vertex &v = m.vertices[i];
        float p[3], n[3], uv[2];
        std::uint8_t t[4], c[4];
        mesh->GetAttributeByUniqueId(0)->GetMappedValue(draco::PointIndex(i), p);
        mesh->GetAttributeByUniqueId(1)->GetMappedValue(draco::PointIndex(i), n);
        mesh->GetAttributeByUniqueId(2)->GetMappedValue(draco::PointIndex(i), uv);
        mesh->GetAttributeByUniqueId(3)->GetMappedValue(draco::PointIndex(i), t);
        mesh->GetAttributeByUniqueId(4)->GetMappedValue(draco::PointIndex(i), c);
        EXPECT_EQ(p[0], v.px);
        EXPECT_EQ(p[1], v.py);
        EXPECT_EQ(p[2], v.pz);
        EXPECT_NEAR(n[0], v.nx, 1e-3);
        EXPECT_NEAR(n[1], v.ny, 1e-3);
        EXPECT_NEAR(n[2], v.nz, 1e-3);
        EXPECT_EQ(uv[0], v.u);
        EXPECT_EQ(uv[1], v.v);
        EXPECT_EQ(std::memcmp(t, v.tangent.data(), 4), 0);
        EXPECT_EQ(std::memcmp(c, v.color.data(), 4), 0);
    }
    for (std::uint32_t j = 0; j < m.faces.size(); ++j) {
        const auto &f = mesh->face(draco::FaceIndex(j));
        EXPECT_EQ(f[0].value(), m.faces[j].a);
        EXPECT_EQ(f[1].value(), m.faces[j].b);
        EXPECT_EQ(f[2].value(), m.faces[j].c);
    }
}

TEST(RobloxMeshWriter, DracoKeepsDuplicatePointsAndDegenerateFaces) {
    // Identical vertices and a repeated face must survive: LODS and SKINNING index points and faces.
    RobloxMesh m = Triangle("7.00");
    m.vertices.push_back(m.vertices[0]);
    m.vertices.push_back(m.vertices[0]);
    m.faces.push_back({3, 1, 2});
    m.faces.push_back({3, 1, 2});
    m.faces.push_back({0, 0, 4});
    m.lodOffsets = {0, 4};
    const RobloxMesh back = Read(WriteRobloxMesh(m));
    EXPECT_EQ(back.coremeshVersion, 2u);
    ExpectSameContent(m, back, 1e-3f);
}

// The normal is Draco's one quantised attribute: values it cannot quantise are refused with the vertex, not handed
// to Draco (which crashed on them: a fuzz finding); positions and UVs are kept bit for bit, NaN included.
TEST(RobloxMeshWriter, DracoRefusesNormalsItCannotQuantise) {
    const float nan = std::numeric_limits<float>::quiet_NaN(), inf = std::numeric_limits<float>::infinity();
    for (const float bad : {nan, inf, -inf}) {
        RobloxMesh m = Triangle("7.00");
        m.vertices[1].ny = bad;
        try {
            WriteRobloxMesh(m);
            ADD_FAILURE() << "accepted a normal of " << bad;
        } catch (const gamefmt::FormatError &e) {
            EXPECT_NE(std::string(e.what()).find("vertex 1 has a normal that is not a finite number"),
                      std::string::npos)
                << e.what();
        }
        m.version = "6.00"; // stored as floats: written as they are
        EXPECT_NO_THROW(WriteRobloxMesh(m));
    }
    RobloxMesh wide = Triangle("7.00");
    wide.vertices[0].nx = 3e38f;
    wide.vertices[2].nx = -3e38f;
    EXPECT_THROW(WriteRobloxMesh(wide), gamefmt::FormatError);
    wide.vertices[2].nx = 0; // 3e38 alone is a finite range: quantised, not refused
    EXPECT_NO_THROW(WriteRobloxMesh(wide));

    RobloxMesh odd = Triangle("7.00");
    odd.vertices[0].py = nan;
    odd.vertices[2].u = -inf;
    const RobloxMesh back = Read(WriteRobloxMesh(odd));
    ASSERT_EQ(back.vertices.size(), 3u);
    EXPECT_TRUE(std::isnan(back.vertices[0].py));
    EXPECT_EQ(back.vertices[2].u, -inf);
    EXPECT_EQ(back.vertices[1].px, odd.vertices[1].px);
}

// ---------------------------------------------------------------- corpus

TEST(RobloxMeshWriter, CorpusFilesRewriteByteIdentical) {
    GAMEFMT_REQUIRE_CORPUS(dir, "mesh");
    int files = 0, draco = 0;
    for (const auto &entry : std::filesystem::directory_iterator(dir)) {
        if (!entry.is_regular_file()) continue;
        SCOPED_TRACE(entry.path().filename().string());
        const Bytes file = gamefmt::test::ReadBytes(entry.path());
        const RobloxMesh m = Read(file);
        const Bytes written = WriteRobloxMesh(m);
        // No corpus file uses strides larger than standard, so every byte comes back; the Draco files
        // too, because the encoder settings match Roblox's (draco_encode.cpp).
        EXPECT_EQ(written.size(), file.size());
        EXPECT_TRUE(written == file) << "first difference at byte "
                                     << (std::mismatch(written.begin(), written.end(), file.begin(), file.end()).first -
                                         written.begin());
        ++files;
        if (m.coremeshVersion == 2) {
            // What the reference guarantees for Draco: decoded content identical, normals within 1e-3.
            const RobloxMesh back = Read(written);
            ExpectSameContent(m, back, 1e-3f);
            EXPECT_EQ(back.chunkOrder, m.chunkOrder);
            EXPECT_EQ(back.coremeshVersion, 2u);
            ++draco;
        }
    }
    EXPECT_EQ(files, 8); // the 1.00 sword included
    EXPECT_EQ(draco, 2);
}

// Re-encoding the decoded geometry of both Draco corpus files gives Roblox's streams back exactly
// (header, connectivity, attribute coders, quantisation, entropy-coder settings).
TEST(RobloxMeshWriter, CorpusDracoStreamsReencodeIdentically) {
    GAMEFMT_REQUIRE_CORPUS(dir, "mesh");
    for (const char *name : {"krakow10_rbx_mesh__meshes_mesh7_127279296594138.bin.mesh",
                             "krakow10_rbx_mesh__meshes_mesh7_100025761449828.bin.mesh"}) {
        SCOPED_TRACE(name);
        const Bytes file = gamefmt::test::ReadBytes(dir / name);
        // COREMESH comes first: version line (13), chunk header (16), dracoSize (4), stream.
        ASSERT_GT(file.size(), 33u);
        const std::uint32_t size =
            file[29] | file[30] << 8 | file[31] << 16 | static_cast<std::uint32_t>(file[32]) << 24;
        ASSERT_LE(33u + size, file.size());
        const RobloxMesh m = Read(file);
        const Bytes ours = EncodeCoremeshDraco(m.vertices, m.faces);
        EXPECT_TRUE(ours == Bytes(file.begin() + 33, file.begin() + 33 + size));
        EXPECT_EQ(Bytes(ours.begin(), ours.begin() + 11), (Bytes{'D', 'R', 'A', 'C', 'O', 2, 2, 1, 0, 0, 0}));
    }
}

TEST(RobloxMeshWriter, CorpusFilesConvertToEveryVersionThatHoldsThem) {
    GAMEFMT_REQUIRE_CORPUS(dir, "mesh");
    for (const auto &entry : std::filesystem::directory_iterator(dir)) {
        if (!entry.is_regular_file()) continue;
        SCOPED_TRACE(entry.path().filename().string());
        const Bytes file = gamefmt::test::ReadBytes(entry.path());
        const RobloxMesh m = Read(file);
        const bool draco = m.coremeshVersion == 2;
        for (const char *version : {"1.00", "1.01", "2.00", "3.00", "4.00", "5.00", "6.00", "7.00"}) {
            const int major = version[0] - '0';
            if ((m.hasSkinning() && major < 4) || (LodLevels(m).size() > 1 && major < 3) ||
                (m.facs && !m.facs->blob.empty() && major < 5))
                continue;
            SCOPED_TRACE(version);
            const RobloxMesh back = Read(WriteRobloxMesh(m, WriteOptions{version, true}));
            EXPECT_EQ(back.faces.size(), m.faces.size());
            if (back.isText()) {
                // Unindexed: one vertex per corner, positions exact (x2 and x0.5 are exact in float).
                ASSERT_EQ(back.vertices.size(), 3 * m.faces.size());
                for (std::size_t j = 0; j < m.faces.size(); ++j) {
                    EXPECT_EQ(back.vertices[3 * j].px, m.vertices[m.faces[j].a].px);
                    EXPECT_EQ(back.vertices[3 * j + 1].py, m.vertices[m.faces[j].b].py);
                    EXPECT_EQ(back.vertices[3 * j + 2].pz, m.vertices[m.faces[j].c].pz);
                    EXPECT_EQ(back.vertices[3 * j + 2].u, m.vertices[m.faces[j].c].u);
                    EXPECT_NEAR(back.vertices[3 * j + 2].v, m.vertices[m.faces[j].c].v, 1e-6f);
                }
                continue;
            }
            ASSERT_EQ(back.vertices.size(), m.vertices.size());
            const bool lossy = draco || std::string(version) == "7.00";
            for (std::size_t i = 0; i < m.vertices.size(); ++i) {
                EXPECT_EQ(back.vertices[i].px, m.vertices[i].px);
                if (!lossy) {
                    EXPECT_EQ(back.vertices[i].nx, m.vertices[i].nx);
                }
            }
            if (major >= 4) {
                EXPECT_EQ(back.bones.size(), m.bones.size());
            }
        }
    }
}

// ---------------------------------------------------------------- impossible models

TEST(RobloxMeshWriter, ImpossibleModelsAreClearErrors) {
    auto message = [](const RobloxMesh &m, const std::string &version = "") {
        return Thrown([&] { WriteRobloxMesh(m, WriteOptions{version, true}); }).message();
    };
    EXPECT_TRUE(Contains(message(Triangle("8.00")), "cannot write version '8.00'"));
    EXPECT_TRUE(Contains(message(Triangle("2.00"), "1.01.0"), "cannot write version"));
    EXPECT_TRUE(Contains(message(Triangle("2.00"), "2.0"), "cannot write version"));

    RobloxMesh badFace = Triangle("2.00");
    badFace.faces.push_back({0, 1, 3});
    EXPECT_TRUE(Contains(message(badFace), "face 1 (0, 1, 3) references a vertex past the 3 vertices"));
    EXPECT_TRUE(Contains(message(badFace, "7.00"), "face 1"));

    EXPECT_TRUE(Contains(message(SkinnedTriangle("4.00"), "3.00"), "3.00 cannot hold skinning (1 bones)"));
    EXPECT_TRUE(Contains(message(SkinnedTriangle("4.00"), "2.00"), "2.00 cannot hold skinning"));
    EXPECT_TRUE(Contains(message(SkinnedTriangle("4.00"), "1.00"), "1.00 cannot hold skinning"));

    RobloxMesh lods = Synthetic("3.00");
    EXPECT_TRUE(Contains(message(lods, "2.00"), "2.00 has no LOD table but the mesh has 2 LOD levels"));
    EXPECT_TRUE(Contains(message(lods, "1.01"), "1.01 has no LOD table"));
    RobloxMesh infinite = Triangle("1.00");
    infinite.vertices[1].px = 3e38f; // x2 overflows
    EXPECT_TRUE(Contains(message(infinite), "non-finite value cannot be written in a text mesh"));

    RobloxMesh facs = Synthetic("5.00");
    EXPECT_TRUE(Contains(message(facs, "4.00"), "4.00 cannot hold FACS data (6 bytes)"));
    RobloxMesh hsravis = Synthetic("6.00");
    hsravis.facs.reset();
    EXPECT_TRUE(Contains(message(hsravis, "5.00"), "5.00 cannot hold HSRAVIS"));
    hsravis.hsravis->bits.push_back(0);
    EXPECT_TRUE(Contains(message(hsravis), "HSRAVIS has 13 bits but 3 bytes"));

    RobloxMesh envelopes = SkinnedTriangle("4.00");
    envelopes.envelopes.pop_back();
    EXPECT_TRUE(Contains(message(envelopes), "one envelope per vertex: 2 envelopes for 3 vertices"));
    EXPECT_TRUE(Contains(message(envelopes, "7.00"), "one envelope per vertex"));

    RobloxMesh parent = SkinnedTriangle("4.00");
    parent.bones[0].parent = 5;
    EXPECT_TRUE(Contains(message(parent), "bone 0 ('Root') has parent 5 past the 1 bones"));

    RobloxMesh subset = SkinnedTriangle("4.00");
    subset.subsets[0].numBoneIndices = 27;
    EXPECT_TRUE(Contains(message(subset), "subset 0 uses 27 bones; a subset holds at most 26"));
    subset = SkinnedTriangle("4.00");
    subset.subsets[0].boneIndices[3] = 1;
    EXPECT_TRUE(Contains(message(subset), "subset 0 references bone 1 past the 1 bones"));

    RobloxMesh manyBones = SkinnedTriangle("4.00");
    manyBones.bones.resize(65536, manyBones.bones[0]);
    EXPECT_TRUE(Contains(message(manyBones), "at most 65535 bones"));

    RobloxMesh manyLods = Triangle("4.00");
    manyLods.lodOffsets.assign(65536, 0);
    EXPECT_TRUE(Contains(message(manyLods), "4.00 holds at most 65535 LOD entries; the mesh has 65536"));
    EXPECT_TRUE(Contains(message(manyLods, "3.00"), "3.00 holds at most 65535 LOD entries"));
    EXPECT_NO_THROW(WriteRobloxMesh(manyLods, WriteOptions{"7.00", false})); // u32 count in LODS

    RobloxMesh tag = Triangle("7.00");
    tag.unknownChunks.push_back(RawChunk{"TOOLONGTAG", 1, {}});
    EXPECT_TRUE(Contains(message(tag), "'TOOLONGTAG' is 10 bytes; the field holds 8"));

    RobloxMesh nul = SkinnedTriangle("4.00");
    nul.boneNames.clear();
    nul.bones[0].name = std::string("a\0b", 3);
    EXPECT_TRUE(Contains(message(nul), "contains a NUL byte"));

    // Every error names the format.
    EXPECT_EQ(Thrown([&] { WriteRobloxMesh(badFace); }).format(), "Roblox mesh");
}

} // namespace
