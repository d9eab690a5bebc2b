// The Redguard .3D/.3DC model codec (docs/formats/redguard-3d.md §2-§8, §14, §16, §18): reader and value codecs against
// the synthetic corpus of fixtures/redguard_fixtures.hpp, with the exact values of the reference.
#include "common/error.hpp"
#include "fixtures/redguard_fixtures.hpp"
#include "importers/redguard/model.hpp"
#include "support/bits.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

namespace {

using gamefmt::test::ExpectU32s;
using gamefmt::test::U32At;

namespace rg = gamefmt::redguard;
namespace fx = gamefmt::fixtures::rg;
using gamefmt::FormatError;
using Bytes = std::vector<std::uint8_t>;

rg::RG3DModel Read(const Bytes &b) {
    return rg::ReadModel(b.data(), b.size());
}

void PutU32(Bytes &b, std::size_t at, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) b.at(at + i) = static_cast<std::uint8_t>(v >> (8 * i));
}

// Expects ReadModel to throw FormatError; returns it for offset checks.
FormatError ExpectFormatError(const Bytes &b) {
    try {
        Read(b);
    } catch (const FormatError &e) {
        EXPECT_EQ(e.format(), rg::kFormatName);
        return e;
    }
    ADD_FAILURE() << "no FormatError";
    return FormatError("none", "none");
}

bool HasWarning(const rg::RG3DModel &m, const std::string &needle) {
    for (const std::string &w : m.warnings)
        if (w.find(needle) != std::string::npos) return true;
    return false;
}

rg::Int3 Pos(const rg::RG3DModel &m, std::size_t v) {
    return {m.vertices.at(3 * v), m.vertices.at(3 * v + 1), m.vertices.at(3 * v + 2)};
}
rg::Int3 FrameBlockPos(const rg::Frame &f, std::size_t v) {
    return {f.positions.at(3 * v), f.positions.at(3 * v + 1), f.positions.at(3 * v + 2)};
}

fx::GenModel Quad(const std::string &version) {
    fx::GenModel m;
    m.version = version;
    m.vertices = {{0, 0, 0}, {256, 0, 0}, {256, 256, 0}, {0, 256, 0}};
    fx::GenFace f;
    f.vertices = {0, 1, 2, 3};
    m.faces = {f};
    return m;
}

// ================================================================ §14 anchors

TEST(RgModelAnchor, Triangle198IsTheListingAndWhatGenerateLaysOut) {
    const Bytes listing = fx::Triangle198V40();
    ASSERT_EQ(listing.size(), 198u);
    EXPECT_EQ(fx::Generate(fx::Triangle14Model("v4.0")), listing);
    EXPECT_EQ(fx::Triangle246V50().size(), 246u);
    EXPECT_EQ(fx::TriangleRob().size(), 302u);
}

TEST(RgModelAnchor, Triangle198Reads) {
    const rg::RG3DModel m = Read(fx::Triangle198V40());
    EXPECT_EQ(m.version, rg::Version::V40);
    EXPECT_TRUE(m.warnings.empty());
    ASSERT_EQ(m.vertexCount(), 3u);
    EXPECT_EQ(Pos(m, 0), (rg::Int3{-256, 0, 0}));
    EXPECT_EQ(Pos(m, 1), (rg::Int3{0, -512, 0}));
    EXPECT_EQ(Pos(m, 2), (rg::Int3{256, 0, 0}));
    EXPECT_EQ(m.radius, 512u);
    EXPECT_EQ(m.frameType, 0u);
    EXPECT_EQ(m.frameCount(), 1u);
    ASSERT_EQ(m.faces.size(), 1u);
    const rg::Face &f = m.faces[0];
    EXPECT_EQ(f.texHi, 0);
    EXPECT_EQ(f.texture, 0x506FCC31u);
    EXPECT_EQ(f.unused, 0u);
    ASSERT_EQ(f.corners.size(), 3u);
    EXPECT_EQ(f.corners[1].vertex, 1u);
    EXPECT_EQ(f.corners[1].du, 512);
    EXPECT_EQ(f.corners[1].dv, -1024);
    EXPECT_EQ(m.faceNormals, (std::vector<std::int32_t>{0, 0, 256}));
    const rg::TextureRef t = rg::DecodeTexture(f.texture, m.version);
    EXPECT_EQ(t.kind, rg::TextureRef::Kind::Texture);
    EXPECT_EQ(t.bank, 376);
    EXPECT_EQ(t.image, 19);
    const auto uvs = rg::CornerUVs(m);
    ASSERT_EQ(uvs.size(), 3u);
    EXPECT_EQ(uvs[0], (std::array<double, 2>{0, 1024}));
    EXPECT_EQ(uvs[1], (std::array<double, 2>{512, 0}));
    EXPECT_EQ(uvs[2], (std::array<double, 2>{1024, 1024}));
    // Direct vertex normals (0, 0, 1), no table, no Section4.
    EXPECT_TRUE(m.normalTable.empty());
    EXPECT_FALSE(m.hasSection4);
    EXPECT_EQ(m.vertexNormals, (std::vector<float>{0, 0, 1, 0, 0, 1, 0, 0, 1}));
    for (const rg::CornerNormal &cn : rg::CornerNormals(m)) {
        EXPECT_TRUE(cn.smooth);
        EXPECT_EQ(cn.normal, (std::array<float, 3>{0, 0, 1}));
    }
    EXPECT_EQ(m.header[0x3C / 4], 0x40u);
    EXPECT_EQ(m.header[0x2C / 4], 0xA2u);
}

TEST(RgModelAnchor, Triangle246V50Reads) {
    const Bytes b = fx::Triangle246V50();
    ASSERT_EQ(b.size(), 246u);
    // The §14 deltas: version, 0x1C = 0xA2, 0x20 = 1, 0x28 = 0xC6, 0x2C = 0xD2, the table bytes.
    EXPECT_EQ(std::string(b.begin(), b.begin() + 4), "v5.0");
    ExpectU32s(b, {{0x1C, 0xA2}, {0x20, 1}, {0x28, 0xC6}, {0x2C, 0xD2}, {0xC6, 0xD2}, {0xCA, 0xDE}, {0xCE, 0xEA}});
    const Bytes v40 = fx::Triangle198V40();
    EXPECT_TRUE(std::equal(v40.begin() + 0x40, v40.begin() + 0xA2, b.begin() + 0x40)); // same body up to 0xA2
    const rg::RG3DModel m = Read(b);
    EXPECT_EQ(m.version, rg::Version::V50);
    EXPECT_TRUE(m.warnings.empty());
    ASSERT_TRUE(m.hasSection4);
    ASSERT_EQ(m.section4.size(), 1u);
    EXPECT_EQ(m.section4[0].centre, (rg::Int3{0, -256, 0}));
    EXPECT_EQ(m.section4[0].radius, 362u);
    ASSERT_EQ(m.section4[0].refs.size(), 1u);
    EXPECT_EQ(m.section4[0].refs[0].faceOffset, 0x40u);
    EXPECT_EQ(m.section4[0].refs[0].faceIndexTimes4, 0u);
    EXPECT_EQ(m.normalTable, (std::vector<std::uint32_t>{0, 1, 2}));
    EXPECT_EQ(m.vertexNormals.size(), 9u);
    const auto normals = rg::CornerNormals(m);
    ASSERT_EQ(normals.size(), 3u);
    for (std::size_t i = 0; i < 3; ++i) {
        EXPECT_TRUE(normals[i].smooth);
        EXPECT_EQ(normals[i].slot, i);
        EXPECT_EQ(normals[i].normal, (std::array<float, 3>{0, 0, 1}));
    }
}

TEST(RgModelAnchor, TriangleV27MatchesTheListedFaceRecord) {
    const Bytes b = fx::TriangleV27();
    const Bytes face = {0x03, 0x00, 0x13, 0xbc, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04,
                        0x0c, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0xfc, 0x18, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x04};
    const std::uint32_t faces = U32At(b, 0x3C);
    EXPECT_EQ(faces, 64u + 12u * 3u); // v2 static: vertices at 64, faces at 64 + 12·nv
    EXPECT_EQ(U32At(b, 0x30), 64u);
    ASSERT_GE(b.size(), faces + face.size());
    EXPECT_TRUE(std::equal(face.begin(), face.end(), b.begin() + faces));
}

TEST(RgModelAnchor, RobPayloadReadsWithPayloadRelativeOffsets) {
    const Bytes rob = fx::TriangleRob();
    ASSERT_EQ(rob.size(), 302u);
    const rg::RG3DModel inRob = rg::ReadModel(rob.data() + 100, 198, 100);
    EXPECT_EQ(inRob, Read(fx::Triangle198V40()));
    const Bytes header = {0x4f, 0x41, 0x52, 0x43, 0x00, 0x00, 0x00, 0x04, 0x01, 0x00,
                          0x00, 0x00, 0x4f, 0x41, 0x52, 0x44, 0x00, 0x00, 0x01, 0x16};
    EXPECT_TRUE(std::equal(header.begin(), header.end(), rob.begin()));
    EXPECT_EQ(U32At(rob, 20), 278u); // segment total = 80 + payload
    EXPECT_EQ(std::string(rob.begin() + 24, rob.begin() + 32), std::string("TRI\0\0\0\0\0", 8));
    EXPECT_EQ(rob[20 + 0x13], 1);         // num_faces mod 256
    EXPECT_EQ(U32At(rob, 20 + 0x1C), 2u); // extent (2, 2, 0)
    EXPECT_EQ(U32At(rob, 20 + 0x20), 2u);
    EXPECT_EQ(U32At(rob, 20 + 0x40), 1u); // neg (1, 2, 0)
    EXPECT_EQ(U32At(rob, 20 + 0x44), 2u);
    EXPECT_EQ(U32At(rob, 20 + 0x4C), 198u);
    const Bytes tri = fx::Triangle198V40();
    EXPECT_TRUE(std::equal(tri.begin(), tri.end(), rob.begin() + 100));
    EXPECT_EQ(std::string(rob.end() - 4, rob.end()), "END ");
    // Errors inside the payload report archive offsets.
    Bytes bad = rob;
    PutU32(bad, 100 + 0x52, 7); // corner 1's vertex index
    try {
        rg::ReadModel(bad.data() + 100, 198, 100);
        ADD_FAILURE() << "no FormatError";
    } catch (const FormatError &e) {
        EXPECT_EQ(e.offset(), 100u + 0x52u);
    }
}

// ================================================================ versions

TEST(RgModelVersion, AllFourVersionsImport) {
    const struct {
        const char *text;
        rg::Version version;
    } cases[] = {
        {"v2.6", rg::Version::V26}, {"v2.7", rg::Version::V27}, {"v4.0", rg::Version::V40}, {"v5.0", rg::Version::V50}};
    for (const auto &c : cases) {
        const rg::RG3DModel m = Read(fx::Generate(Quad(c.text)));
        EXPECT_EQ(m.version, c.version) << c.text;
        EXPECT_STREQ(rg::VersionString(m.version), c.text);
        ASSERT_EQ(m.faces.size(), 1u) << c.text;
        EXPECT_EQ(m.faces[0].corners.size(), 4u);
        EXPECT_EQ(m.faces[0].corners[3].vertex, 3u);
        EXPECT_EQ(Pos(m, 2), (rg::Int3{256, 256, 0}));
        EXPECT_EQ(m.faceNormals, (std::vector<std::int32_t>{0, 0, 256}));
        EXPECT_TRUE(m.warnings.empty()) << c.text << ": " << (m.warnings.empty() ? "" : m.warnings[0]);
    }
}

TEST(RgModelVersion, OtherVersionsAreRejectedAtOffsetZero) {
    for (const char *v : {"v4.1", "v3.0", "V5.0", "v5.1", "OARC"}) {
        const FormatError e = ExpectFormatError(fx::Generate(Quad(v)));
        EXPECT_EQ(e.offset(), 0u) << v;
    }
}

TEST(RgModelVersion, V40WithFiftyVerticesIsNotV402) {
    fx::GenModel m = Quad("v4.0");
    for (int i = 4; i < 50; ++i) m.vertices.push_back({i, -i, 2 * i});
    const Bytes b = fx::Generate(m);
    EXPECT_EQ(std::string(b.begin(), b.begin() + 5), "v4.02");
    const rg::RG3DModel r = Read(b);
    EXPECT_EQ(r.version, rg::Version::V40);
    EXPECT_EQ(r.vertexCount(), 50u);
    EXPECT_EQ(Pos(r, 49), (rg::Int3{49, -49, 98}));
}

// ================================================================ malformed input (§16)

TEST(RgModelMalformed, ShortHeader) {
    Bytes b = fx::Triangle198V40();
    for (std::size_t n : {0u, 4u, 63u}) {
        const Bytes cut(b.begin(), b.begin() + static_cast<std::ptrdiff_t>(n));
        EXPECT_EQ(ExpectFormatError(cut).offset(), 0u) << n;
    }
    EXPECT_THROW(rg::ReadModel(nullptr, 0), FormatError);
}

TEST(RgModelMalformed, SectionOffsetsPastTheEnd) {
    const Bytes good = fx::Triangle198V40();
    for (std::size_t field : {0x30u, 0x34u, 0x3Cu}) {
        for (std::uint32_t value : {198u, 190u, 0xFFFFFFF0u}) {
            Bytes b = good;
            PutU32(b, field, value);
            // A face section starting inside the model fails at the face that runs out.
            const std::size_t want = field == 0x3C && value == 190 ? 190 : field;
            EXPECT_EQ(ExpectFormatError(b).offset(), want) << field << " = " << value;
        }
    }
    // A face section whose last face runs past the end of the model.
    fx::GenModel m = Quad("v4.0");
    m.normals = fx::GenModel::Normals::None;
    Bytes b = fx::Generate(m);
    PutU32(b, 0x3C, static_cast<std::uint32_t>(b.size() - 20));
    b[b.size() - 20] = 4; // n = 4: 10 + 32 bytes, 20 remain
    EXPECT_EQ(ExpectFormatError(b).offset(), b.size() - 20);
}

TEST(RgModelMalformed, HugeCounts) {
    Bytes b = fx::Triangle198V40();
    PutU32(b, 0x08, 0xFFFFFFFFu);
    EXPECT_EQ(ExpectFormatError(b).offset(), 0x08u);
    b = fx::Triangle198V40();
    PutU32(b, 0x08, (198 - 64) / 32 + 1); // just above the (size − 64)/32 limit
    EXPECT_EQ(ExpectFormatError(b).offset(), 0x08u);
    b = fx::Triangle198V40();
    PutU32(b, 0x04, 0x7FFFFFFFu);
    EXPECT_EQ(ExpectFormatError(b).offset(), 0x04u);
    b = fx::Triangle198V40();
    PutU32(b, 0x04, 198 / 12 + 1);
    EXPECT_EQ(ExpectFormatError(b).offset(), 0x04u);
}

TEST(RgModelMalformed, VertexIndexOutOfRange) {
    Bytes b = fx::Triangle198V40();
    PutU32(b, 0x52, 3); // corner 1: index 3 with nv = 3
    const FormatError e = ExpectFormatError(b);
    EXPECT_EQ(e.offset(), 0x52u);
    EXPECT_NE(std::string(e.what()).find("vertex index 3"), std::string::npos) << e.what();
}

TEST(RgModelMalformed, V2OffsetsNotDivisibleByTwelveOrOutOfRange) {
    const Bytes good = fx::TriangleV27();
    const std::size_t corner1 = U32At(good, 0x3C) + 8 + 8;
    Bytes b = good;
    PutU32(b, corner1, 13);
    EXPECT_EQ(ExpectFormatError(b).offset(), corner1);
    b = good;
    PutU32(b, corner1, 36); // index 3 with nv = 3
    EXPECT_EQ(ExpectFormatError(b).offset(), corner1);
}

// ================================================================ v4/v5 layout

TEST(RgModelLayout, OffsetsAreHonouredIncludingOddOnes) {
    // Move the vertex section to an odd offset past the normals: the reader must follow 0x30, not the order.
    Bytes b = fx::Triangle198V40();
    b.push_back(0xEE); // padding: the new section starts at 199
    const std::size_t at = b.size();
    for (std::int32_t v : {1, 2, 3, -4, -5, -6, 7, 8, 9})
        for (int i = 0; i < 4; ++i) b.push_back(static_cast<std::uint8_t>(static_cast<std::uint32_t>(v) >> (8 * i)));
    PutU32(b, 0x30, static_cast<std::uint32_t>(at));
    const rg::RG3DModel m = Read(b);
    EXPECT_EQ(Pos(m, 0), (rg::Int3{1, 2, 3}));
    EXPECT_EQ(Pos(m, 1), (rg::Int3{-4, -5, -6}));
    EXPECT_EQ(Pos(m, 2), (rg::Int3{7, 8, 9}));
}

TEST(RgModelLayout, TableReachesMoreNormalsThanVertices) {
    fx::GenModel g = Quad("v5.0");
    g.normalEntries = {{0, 0, 1}, {0, 1, 0}, {0, -1, 0}, {-1, 0, 0}, {0, 0, -1}, {1, 0, 0}};
    g.tableSlots = {5, 4, 1, 0};
    const rg::RG3DModel m = Read(fx::Generate(g));
    EXPECT_EQ(m.vertexNormals.size(), 18u); // K = 6 > nv = 4: read to the model end
    EXPECT_EQ(m.normalTable, (std::vector<std::uint32_t>{5, 4, 1, 0}));
    const auto n = rg::CornerNormals(m);
    ASSERT_EQ(n.size(), 4u);
    EXPECT_TRUE(n[0].smooth);
    EXPECT_EQ(n[0].slot, 5u);
    EXPECT_EQ(n[0].normal, (std::array<float, 3>{1, 0, 0}));
    EXPECT_EQ(n[1].normal, (std::array<float, 3>{0, 0, -1}));
    EXPECT_EQ(n[3].normal, (std::array<float, 3>{0, 0, 1}));
}

// ================================================================ v2 static

TEST(RgModelV2, StaticTriangle) {
    const Bytes b = fx::TriangleV27();
    const rg::RG3DModel m = Read(b);
    EXPECT_EQ(m.version, rg::Version::V27);
    EXPECT_TRUE(m.warnings.empty());
    EXPECT_EQ(Pos(m, 1), (rg::Int3{0, -512, 0}));
    ASSERT_EQ(m.faces.size(), 1u);
    EXPECT_EQ(m.faces[0].texture, 0xBC13u);
    EXPECT_EQ(m.faces[0].corners[2].vertex, 2u);
    EXPECT_EQ(m.faces[0].corners[2].dv, 1024);
    const rg::TextureRef t = rg::DecodeTexture(m.faces[0].texture, m.version);
    EXPECT_EQ(t.kind, rg::TextureRef::Kind::Texture);
    EXPECT_EQ(t.bank, 376);
    EXPECT_EQ(t.image, 19);
    EXPECT_EQ(m.faceNormals, (std::vector<std::int32_t>{0, 0, 256}));
    // num_frames 0 with a stale frame offset past the end: ignored, no frames, no warning.
    EXPECT_EQ(U32At(b, 0x10), 0u);
    EXPECT_GT(U32At(b, 0x14), b.size());
    EXPECT_EQ(U32At(b, 0x38), 0u);
    EXPECT_EQ(m.frameCount(), 1u);
    // The 24·nf block is kept verbatim and never used as normals: shading is flat.
    EXPECT_EQ(m.v2Opaque, Bytes(24, 0));
    EXPECT_TRUE(m.vertexNormals.empty());
    for (const rg::CornerNormal &cn : rg::CornerNormals(m)) {
        EXPECT_FALSE(cn.smooth);
        EXPECT_EQ(cn.normal, (std::array<float, 3>{0, 0, 1}));
    }
    // Section4, v2 form (18 + 6c, no f32 triple), ending exactly at the model end.
    ASSERT_TRUE(m.hasSection4);
    ASSERT_EQ(m.section4.size(), 1u);
    EXPECT_EQ(U32At(b, 0x1C) + 18u + 6u, b.size());
    EXPECT_EQ(m.section4[0].centre, (rg::Int3{0, -256, 0}));
    EXPECT_EQ(m.section4[0].radius, 362u);
    EXPECT_EQ(m.section4[0].opaque, (std::array<float, 3>{0, 0, 0}));
    ASSERT_EQ(m.section4[0].refs.size(), 1u);
    EXPECT_EQ(m.section4[0].refs[0].faceOffset, 100u);
    const auto uvs = rg::CornerUVs(m);
    EXPECT_EQ(uvs[1], (std::array<double, 2>{512, 0}));
}

TEST(RgModelV2, V26JunkBlockAndHeader24ArePreserved) {
    fx::GenModel g = Quad("v2.6");
    g.header24 = 2924;
    const Bytes b = fx::Generate(g);
    const rg::RG3DModel m = Read(b);
    EXPECT_EQ(m.header[0x24 / 4], 2924u);
    const std::uint32_t at = U32At(b, 0x18);
    ASSERT_EQ(m.v2Opaque.size(), 24u);
    EXPECT_TRUE(std::equal(m.v2Opaque.begin(), m.v2Opaque.end(), b.begin() + at));
    EXPECT_NE(m.v2Opaque, Bytes(24, 0));
    for (const rg::CornerNormal &cn : rg::CornerNormals(m)) EXPECT_FALSE(cn.smooth);
}

TEST(RgModelV2, QuadJunkCornerIsRebuiltFromTheAffineMap) {
    // Corners 0-2: (0,0,0) (256,0,128) (256,256,128) in the plane z = x/2 with UVs (16,32) (528,32) (528,1056).
    // Corner 3 at (0,256,0) = P0 − e1 + e2 (e1 = P1 − P0, e2 = P2 − P0), so its UV is
    // UV0 − (UV1 − UV0) + (UV2 − UV0) = (16,32) − (512,0) + (512,1024) = (16,1056); the stored junk delta
    // (−9999, 777) would give (−9471, 1833).
    fx::GenModel g = Quad("v2.7");
    g.vertices = {{0, 0, 0}, {256, 0, 128}, {256, 256, 128}, {0, 256, 0}};
    g.faces[0].duv = {{16, 32}, {512, 0}, {0, 1024}, {-9999, 777}};
    const rg::RG3DModel v2 = Read(fx::Generate(g));
    const auto uv = rg::CornerUVs(v2);
    ASSERT_EQ(uv.size(), 4u);
    EXPECT_EQ(uv[0], (std::array<double, 2>{16, 32}));
    EXPECT_EQ(uv[2], (std::array<double, 2>{528, 1056}));
    EXPECT_DOUBLE_EQ(uv[3][0], 16.0);
    EXPECT_DOUBLE_EQ(uv[3][1], 1056.0);
    // v4/v5 keep the stored running sums.
    g.version = "v5.0";
    const auto uv5 = rg::CornerUVs(Read(fx::Generate(g)));
    EXPECT_EQ(uv5[3], (std::array<double, 2>{-9471, 1833}));
    // Collinear corners 0-2 in v2: the stored values stay.
    g.version = "v2.7";
    g.vertices = {{0, 0, 0}, {256, 0, 0}, {512, 0, 0}, {0, 256, 0}};
    const auto uvc = rg::CornerUVs(Read(fx::Generate(g)));
    EXPECT_EQ(uvc[3], (std::array<double, 2>{-9471, 1833}));
}

TEST(RgModelV2, PentagonOffPlaneCornerIsProjected) {
    // Corner 4 lies 100 above the plane z = 0 of corners 0-2; its projection (128, 384) is P0 + 0.5·e1 + 1.5·e2
    // with e1 = (256,0,0), e2 = (0,256,0): UV = (0,0) + 0.5·(1024,0) + 1.5·(0,2048) = (512, 3072).
    fx::GenModel g;
    g.version = "v2.6";
    g.vertices = {{0, 0, 0}, {256, 0, 0}, {0, 256, 0}, {-256, 256, 0}, {128, 384, 100}};
    fx::GenFace f;
    f.vertices = {0, 1, 2, 3, 4};
    f.duv = {{0, 0}, {1024, 0}, {-1024, 2048}, {5, 5}, {6, 6}};
    g.faces = {f};
    const auto uv = rg::CornerUVs(Read(fx::Generate(g)));
    EXPECT_NEAR(uv[3][0], -1024.0, 1e-9); // (−256,256) = −e1 + e2 → (0,0) − (1024,0) + (0,2048)
    EXPECT_NEAR(uv[3][1], 2048.0, 1e-9);
    EXPECT_NEAR(uv[4][0], 512.0, 1e-9);
    EXPECT_NEAR(uv[4][1], 3072.0, 1e-9);
}

// ================================================================ v2 .3DC (§3.5, spec-derived)

fx::GenModel V2Animated() {
    fx::GenModel g = Quad("v2.7");
    g.vertices = {{-100, 5, 7}, {300, 5, 7}, {300, 405, 7}, {-100, 405, 7}};
    g.frames = {g.vertices}; // num_frames = 2; frames 1+ are not written
    return g;
}

void ExpectV2AnimatedBase(const rg::RG3DModel &m) {
    EXPECT_EQ(Pos(m, 0), (rg::Int3{-100, 5, 7}));
    EXPECT_EQ(Pos(m, 2), (rg::Int3{300, 405, 7}));
    EXPECT_TRUE(m.frames.empty());
    EXPECT_EQ(m.faceNormals, (std::vector<std::int32_t>{0, 0, 256}));
    EXPECT_TRUE(HasWarning(m, "base pose")) << (m.warnings.empty() ? "" : m.warnings[0]);
}

TEST(RgModelV2Animated, PrimaryVertexOffsetIsFaceEndPlusGap) {
    const rg::RG3DModel m = Read(fx::GenerateV2Animated(V2Animated(), 20));
    ExpectV2AnimatedBase(m);
    EXPECT_EQ(m.frameType, 0x2011u);
    EXPECT_FALSE(HasWarning(m, "face end"));
}

TEST(RgModelV2Animated, GapAbsent) {
    const rg::RG3DModel m = Read(fx::GenerateV2Animated(V2Animated(), 0));
    ExpectV2AnimatedBase(m);
}

TEST(RgModelV2Animated, FloatsAtThePrimaryPlaceFallBackToTheFaceEnd) {
    const Bytes b = fx::GenerateV2Animated(V2Animated(), 48, false);
    // Sanity: 8.5f (0x41080000 > 0x41000000) sits at face end + gap.
    const std::uint32_t faceEnd = 0x50 + U32At(b, 0x44);
    EXPECT_EQ(U32At(b, faceEnd + 48), 0x41080000u);
    const rg::RG3DModel m = Read(b);
    ExpectV2AnimatedBase(m);
    EXPECT_TRUE(HasWarning(m, "face end"));
}

TEST(RgModelV2Animated, DeclaredFaceSizeMismatchWarnsAndUsesTheParsedEnd) {
    Bytes b = fx::GenerateV2Animated(V2Animated(), 12);
    PutU32(b, 0x44, U32At(b, 0x44) + 4);
    const rg::RG3DModel m = Read(b);
    ExpectV2AnimatedBase(m);
    EXPECT_TRUE(HasWarning(m, "parsed"));
}

// ================================================================ faces

TEST(RgModelFaces, PolygonZooKeepsEveryPolygon) {
    const fx::GenModel zoo = fx::PolygonZoo();
    const rg::RG3DModel m = Read(fx::Generate(zoo));
    EXPECT_TRUE(m.warnings.empty());
    const std::vector<std::size_t> sizes = {3, 4, 5, 10, 11, 19, 255, 6, 4, 4};
    ASSERT_EQ(m.faces.size(), sizes.size());
    std::size_t triangles = 0;
    for (std::size_t f = 0; f < sizes.size(); ++f) {
        EXPECT_EQ(m.faces[f].corners.size(), sizes[f]) << f;
        triangles += m.faces[f].corners.size() - 2;
        for (std::size_t c = 0; c < sizes[f]; ++c) EXPECT_EQ(m.faces[f].corners[c].vertex, zoo.faces[f].vertices[c]);
    }
    EXPECT_EQ(triangles, 301u);
    // The repeated index is kept.
    EXPECT_EQ(m.faces[9].corners[2].vertex, m.faces[9].corners[3].vertex);
    // Planar polygons CCW about +Z: stored normal (0, 0, 256).
    for (std::size_t f : {0u, 1u, 2u, 3u, 4u, 5u, 6u, 7u, 9u})
        EXPECT_EQ((rg::Int3{m.faceNormals[3 * f], m.faceNormals[3 * f + 1], m.faceNormals[3 * f + 2]}),
                  (rg::Int3{0, 0, 256}))
            << f;
    // tex_hi preserved.
    EXPECT_EQ(m.faces[1].texHi, 6);
    EXPECT_EQ(m.faces[2].texHi, 63);
    // The first triangle's UVs: non-zero first corner and negative deltas, accumulated.
    const auto uv = rg::CornerUVs(m);
    EXPECT_EQ(uv[0], (std::array<double, 2>{100, 200}));
    EXPECT_EQ(uv[1], (std::array<double, 2>{50, 230}));
    EXPECT_EQ(uv[2], (std::array<double, 2>{57, -170}));
}

// Winding (§4): the right-hand Newell normal of the stored order points along the stored face normal.
void ExpectWindingAgrees(const std::vector<std::int32_t> &positions, const std::vector<rg::Face> &faces,
                         const std::vector<std::int32_t> &normals) {
    for (std::size_t f = 0; f < faces.size(); ++f) {
        double n[3] = {0, 0, 0};
        const auto &c = faces[f].corners;
        for (std::size_t i = 0; i < c.size(); ++i) {
            const std::size_t a = 3 * c[i].vertex, b = 3 * c[(i + 1) % c.size()].vertex;
            const double ax = positions[a], ay = positions[a + 1], az = positions[a + 2];
            const double bx = positions[b], by = positions[b + 1], bz = positions[b + 2];
            n[0] += (ay - by) * (az + bz);
            n[1] += (az - bz) * (ax + bx);
            n[2] += (ax - bx) * (ay + by);
        }
        const double dot = n[0] * normals[3 * f] + n[1] * normals[3 * f + 1] + n[2] * normals[3 * f + 2];
        EXPECT_GT(dot, 0.0) << "face " << f;
    }
}

TEST(RgModelFaces, WindingOfTheStoredOrderAgreesWithTheStoredNormal) {
    const rg::RG3DModel zoo = Read(fx::Generate(fx::PolygonZoo()));
    ExpectWindingAgrees(zoo.vertices, zoo.faces, zoo.faceNormals);
    const rg::RG3DModel anim = Read(fx::Generate(fx::AnimatedType2()));
    ExpectWindingAgrees(anim.vertices, anim.faces, anim.faceNormals);
    for (const rg::Frame &f : anim.frames) ExpectWindingAgrees(f.positions, anim.faces, f.faceNormals);
    const rg::RG3DModel tri = Read(fx::Triangle198V40());
    ExpectWindingAgrees(tri.vertices, tri.faces, tri.faceNormals);
}

TEST(RgModelFaces, FewerThanThreeCornersAreConsumedSkippedAndWarned) {
    fx::GenModel g = Quad("v5.0");
    fx::GenFace two;
    two.vertices = {0, 1};
    fx::GenFace none;
    g.faces.insert(g.faces.begin(), two);
    g.faces.push_back(none);
    const rg::RG3DModel m = Read(fx::Generate(g));
    ASSERT_EQ(m.faces.size(), 1u);
    EXPECT_EQ(m.faces[0].corners.size(), 4u);
    EXPECT_EQ(m.faceNormals, (std::vector<std::int32_t>{0, 0, 256}));   // the quad's, aligned with the kept face
    EXPECT_EQ(m.normalTable, (std::vector<std::uint32_t>{0, 1, 2, 3})); // the 2-gon's table slots skipped too
    EXPECT_EQ(m.warnings.size(), 2u);
    for (const rg::CornerNormal &cn : rg::CornerNormals(m)) EXPECT_TRUE(cn.smooth);
}

TEST(RgModelFaces, SkippedFaceWarningsAreSummarised) {
    fx::GenModel g = Quad("v5.0");
    g.faces.resize(30); // 29 faces without corners after the quad
    const rg::RG3DModel m = Read(fx::Generate(g));
    ASSERT_EQ(m.faces.size(), 1u);
    ASSERT_EQ(m.warnings.size(), 9u);
    EXPECT_TRUE(HasWarning(m, "21 more faces"));
}

TEST(RgModelFaces, FaceNormalComputation) {
    rg::Face f;
    f.corners = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}};
    // trunc toward zero: (0, −65536, 65536)/|·|·256 = (0, −181.02, 181.02) → (0, −181, 181).
    EXPECT_EQ(rg::ComputeFaceNormal({0, 0, 0, 256, 0, 0, 0, 256, 256}, f), (rg::Int3{0, -181, 181}));
    // §14: (0, 0, 256).
    EXPECT_EQ(rg::ComputeFaceNormal({-256, 0, 0, 0, -512, 0, 256, 0, 0}, f), (rg::Int3{0, 0, 256}));
    // Collinear first three corners: the Newell normal of the whole polygon.
    rg::Face p;
    p.corners = {{0, 0, 0}, {1, 0, 0}, {2, 0, 0}, {3, 0, 0}, {4, 0, 0}};
    EXPECT_EQ(rg::ComputeFaceNormal({0, 0, 0, 128, 0, 0, 256, 0, 0, 256, 256, 0, 0, 256, 0}, p), (rg::Int3{0, 0, 256}));
    // Degenerate: (0, 0, 0).
    EXPECT_EQ(rg::ComputeFaceNormal({0, 0, 0, 1, 1, 1, 2, 2, 2}, f), (rg::Int3{0, 0, 0}));
}

// ================================================================ textures

TEST(RgModelTexture, Base40) {
    const auto a = rg::DecodeTexture(0x3D090000u, rg::Version::V50); // "a00000"
    EXPECT_EQ(a.kind, rg::TextureRef::Kind::Texture);
    EXPECT_EQ(a.bank, 0);
    EXPECT_EQ(a.image, 0);
    const auto d = rg::DecodeTexture(0x506FCC31u, rg::Version::V40); // "d76019"
    EXPECT_EQ(d.kind, rg::TextureRef::Kind::Texture);
    EXPECT_EQ(d.bank, 376);
    EXPECT_EQ(d.image, 19);
    const auto f = rg::DecodeTexture(0x5CF613B1u, rg::Version::V50); // "f99999": image ≥ 70 too
    EXPECT_EQ(f.kind, rg::TextureRef::Kind::Texture);
    EXPECT_EQ(f.bank, 599);
    EXPECT_EQ(f.image, 999);
    const auto i70 = rg::DecodeTexture(*rg::EncodeBase40(3, 70), rg::Version::V50);
    EXPECT_EQ(i70.image, 70);
    EXPECT_EQ(rg::EncodeBase40(0, 0), 0x3D090000u);
    EXPECT_EQ(rg::EncodeBase40(376, 19), 0x506FCC31u);
    EXPECT_EQ(rg::EncodeBase40(599, 999), 0x5CF613B1u);
    EXPECT_FALSE(rg::EncodeBase40(600, 0).has_value());
    EXPECT_FALSE(rg::EncodeBase40(0, 1000).has_value());
    // Invalid: d5 = 9 (just below a00000), d0 = 'a', d4 = '%', ≥ 40^6 without the solid prefix.
    for (std::uint32_t bad :
         {0x3D08FFFFu, 0x3D090000u + 10u, 0x3D090000u + 39u * 40u * 40u * 40u * 40u, 0xF4240000u, 0xFFEFFFFFu, 0u})
        EXPECT_EQ(rg::DecodeTexture(bad, rg::Version::V50).kind, rg::TextureRef::Kind::Invalid) << std::hex << bad;
}

TEST(RgModelTexture, Solids) {
    const auto s = rg::DecodeTexture(0xFFF05500u, rg::Version::V50);
    EXPECT_EQ(s.kind, rg::TextureRef::Kind::Solid);
    EXPECT_EQ(s.colour, 0x55);
    EXPECT_EQ(s.lowByte, 0);
    const auto l = rg::DecodeTexture(0xFFF0558Cu, rg::Version::V40);
    EXPECT_EQ(l.kind, rg::TextureRef::Kind::Solid);
    EXPECT_EQ(l.colour, 0x55);
    EXPECT_EQ(l.lowByte, 0x8C);
    EXPECT_EQ(rg::EncodeSolid(0x55, 0x8C), 0xFFF0558Cu);
    EXPECT_EQ(rg::EncodeSolid(0x55), 0xFFF05500u);
    EXPECT_EQ(rg::DecodeTexture(0xFFFFFFFFu, rg::Version::V50).colour, 0xFF);
}

TEST(RgModelTexture, TexHiNeverChangesDetection) {
    fx::GenModel g = Quad("v5.0");
    g.faces.clear();
    const std::uint32_t values[] = {0xFFF05500u, 0x506FCC31u};
    for (std::uint8_t hi : {0, 6, 63})
        for (std::uint32_t v : values) {
            fx::GenFace f;
            f.texHi = hi;
            f.texture = v;
            f.vertices = {0, 1, 2, 3};
            g.faces.push_back(f);
        }
    const rg::RG3DModel m = Read(fx::Generate(g));
    ASSERT_EQ(m.faces.size(), 6u);
    for (std::size_t i = 0; i < 6; ++i) {
        EXPECT_EQ(m.faces[i].texHi, (i / 2 == 0 ? 0 : i / 2 == 1 ? 6 : 63));
        const auto t = rg::DecodeTexture(m.faces[i].texture, m.version);
        EXPECT_EQ(t.kind, i % 2 == 0 ? rg::TextureRef::Kind::Solid : rg::TextureRef::Kind::Texture) << i;
    }
}

TEST(RgModelTexture, V2Values) {
    const auto t = rg::DecodeTexture(0xBC13u, rg::Version::V27);
    EXPECT_EQ(t.kind, rg::TextureRef::Kind::Texture);
    EXPECT_EQ(t.bank, 376);
    EXPECT_EQ(t.image, 19);
    for (std::uint32_t v : {0x0000u, 0x0055u, 0x00FFu}) {
        const auto s = rg::DecodeTexture(v, rg::Version::V26);
        EXPECT_EQ(s.kind, rg::TextureRef::Kind::Solid) << v;
        EXPECT_EQ(s.colour, v);
    }
    const auto b2 = rg::DecodeTexture(0x0100u, rg::Version::V27); // v >> 7 = 2: the first textured value
    EXPECT_EQ(b2.kind, rg::TextureRef::Kind::Texture);
    EXPECT_EQ(b2.bank, 2);
    EXPECT_EQ(b2.image, 0);
}

// ================================================================ UVs

TEST(RgModelUV, RunningSumsInI32) {
    fx::GenModel g = Quad("v5.0");
    g.faces[0].duv = {{30000, -5}, {2767, -10}, {100, 3}, {32767, -32768}};
    const auto uv = rg::CornerUVs(Read(fx::Generate(g)));
    ASSERT_EQ(uv.size(), 4u);
    EXPECT_EQ(uv[0], (std::array<double, 2>{30000, -5})); // non-zero first corner
    EXPECT_EQ(uv[1], (std::array<double, 2>{32767, -15}));
    EXPECT_EQ(uv[2], (std::array<double, 2>{32867, -12})); // crosses +32767 without wrapping
    EXPECT_EQ(uv[3], (std::array<double, 2>{65634, -32780}));
}

// ================================================================ vertices

TEST(RgModelVertices, LargeAndFractionalRawValues) {
    fx::GenModel g = Quad("v5.0");
    g.vertices = {{8388607, -8388608, 1}, {-8388607, 8388607, 255}, {8388608, 8388608, -8388608}, {-1, 129, -257}};
    const rg::RG3DModel m = Read(fx::Generate(g));
    EXPECT_EQ(Pos(m, 0), (rg::Int3{8388607, -8388608, 1}));
    EXPECT_EQ(Pos(m, 1), (rg::Int3{-8388607, 8388607, 255}));
    EXPECT_EQ(Pos(m, 2), (rg::Int3{8388608, 8388608, -8388608}));
    EXPECT_EQ(Pos(m, 3), (rg::Int3{-1, 129, -257}));
    // ⌊√(3·2^46)⌋ = 14529495 (the third vertex is the farthest).
    EXPECT_EQ(m.radius, 14529495u);
    EXPECT_EQ(rg::ComputeRadius(m.vertices), 14529495u);
}

TEST(RgModelVertices, Radius) {
    EXPECT_EQ(rg::ComputeRadius({3, 4, 0}), 5u);
    EXPECT_EQ(rg::ComputeRadius({1, 1, 1}), 1u);
    EXPECT_EQ(rg::ComputeRadius({-256, 0, 0, 0, -512, 0, 256, 0, 0}), 512u);
    EXPECT_EQ(rg::ComputeRadius({}), 0u);
    const std::int32_t lo = std::numeric_limits<std::int32_t>::min();
    EXPECT_EQ(rg::ComputeRadius({lo, lo, lo}), 3719550786u); // ⌊2^31·√3⌋ without overflow
}

// ================================================================ normals (§6)

TEST(RgModelNormals, FaceNormalLengths254To256AreNormalised) {
    fx::GenModel g = Quad("v5.0");
    g.normals = fx::GenModel::Normals::None;
    g.faces.push_back(g.faces[0]);
    g.faces.push_back(g.faces[0]);
    g.faceNormals = {{0, 0, 254}, {0, 255, 0}, {-256, 0, 0}};
    const rg::RG3DModel m = Read(fx::Generate(g));
    EXPECT_EQ(m.header[0x2C / 4], 0u);
    EXPECT_TRUE(m.vertexNormals.empty());
    const auto n = rg::CornerNormals(m);
    ASSERT_EQ(n.size(), 12u);
    EXPECT_EQ(n[0].normal, (std::array<float, 3>{0, 0, 1}));
    EXPECT_EQ(n[4].normal, (std::array<float, 3>{0, 1, 0}));
    EXPECT_EQ(n[8].normal, (std::array<float, 3>{-1, 0, 0}));
    for (const auto &c : n) EXPECT_FALSE(c.smooth);
    EXPECT_EQ(n[8].slot, 2u);
}

TEST(RgModelNormals, NanMarkerEntriesAreFlat) {
    fx::GenModel g = Quad("v5.0");
    const float nan = [] {
        const std::uint32_t bits = 0xFFC00000u;
        float f;
        std::memcpy(&f, &bits, 4);
        return f;
    }();
    g.normalEntries = {{0, 0, 1}, {0, 0, 1}, {nan, nan, nan}, {0, 0.6f, 0.8f}};
    const Bytes b = fx::Generate(g);
    const std::uint32_t at = U32At(b, 0x2C) + 24;
    EXPECT_EQ((Bytes(b.begin() + at, b.begin() + at + 4)), (Bytes{0x00, 0x00, 0xC0, 0xFF}));
    const rg::RG3DModel m = Read(b);
    const auto n = rg::CornerNormals(m);
    EXPECT_TRUE(n[0].smooth);
    EXPECT_FALSE(n[2].smooth);
    EXPECT_EQ(n[2].normal, (std::array<float, 3>{0, 0, 1}));
    EXPECT_TRUE(n[3].smooth);
    EXPECT_NEAR(n[3].normal[1], 0.6f, 1e-6f);
    EXPECT_EQ(m, m); // the NaN marker compares equal to itself (bitwise)
}

TEST(RgModelNormals, ValidityThreshold) {
    fx::GenModel g = Quad("v5.0");
    const float inf = std::numeric_limits<float>::infinity();
    g.normalEntries = {{0, 0, 1.009f}, {0, 0, 1.011f}, {0, 0, 0.985f}, {inf, 0, 0}};
    const auto n = rg::CornerNormals(Read(fx::Generate(g)));
    EXPECT_TRUE(n[0].smooth);
    EXPECT_FALSE(n[1].smooth);
    EXPECT_FALSE(n[2].smooth);
    EXPECT_FALSE(n[3].smooth);
    EXPECT_EQ(n[0].normal, (std::array<float, 3>{0, 0, 1})); // normalised
}

TEST(RgModelNormals, OutOfRangeOrMisalignedTableEntriesAreFlat) {
    fx::GenModel g = Quad("v5.0");
    g.tableSlots = {0, 1, 2, 3};
    const std::uint32_t vn = U32At(fx::Generate(g), 0x2C);
    g.tableSlots.clear();
    g.tableOffsets = {vn, vn + 6, 0xFFFFFFF0u, vn - 12};
    const rg::RG3DModel m = Read(fx::Generate(g));
    const std::uint32_t no = rg::RG3DModel::kNoNormal;
    EXPECT_EQ(m.normalTable, (std::vector<std::uint32_t>{0, no, no, no}));
    EXPECT_TRUE(HasWarning(m, "normal-table"));
    const auto n = rg::CornerNormals(m);
    EXPECT_TRUE(n[0].smooth);
    for (std::size_t i = 1; i < 4; ++i) {
        EXPECT_FALSE(n[i].smooth);
        EXPECT_EQ(n[i].normal, (std::array<float, 3>{0, 0, 1}));
    }
}

TEST(RgModelNormals, V40DirectNormalsByVertexIndex) {
    fx::GenModel g = Quad("v4.0");
    g.normals = fx::GenModel::Normals::Direct;
    g.normalEntries = {{0, 0, 1}, {0, 1, 0}, {1, 0, 0}, {0, 0, -1}};
    g.faces[0].vertices = {3, 0, 1, 2};
    const rg::RG3DModel m = Read(fx::Generate(g));
    EXPECT_TRUE(m.normalTable.empty());
    const auto n = rg::CornerNormals(m);
    EXPECT_EQ(n[0].slot, 3u);
    EXPECT_EQ(n[0].normal, (std::array<float, 3>{0, 0, -1}));
    EXPECT_EQ(n[2].normal, (std::array<float, 3>{0, 1, 0}));
    for (const auto &c : n) EXPECT_TRUE(c.smooth);
}

TEST(RgModelNormals, MultiFrameType0DenormalBlockIsRejected) {
    const Bytes b = fx::Generate(fx::MultiFrameType0());
    const rg::RG3DModel m = Read(b);
    // The block at 0x2C holds table offsets: f32 denormals, finite but far from unit length.
    ASSERT_EQ(m.vertexNormals.size(), 15u);
    EXPECT_GT(m.vertexNormals[0], 0.0f);
    EXPECT_LT(m.vertexNormals[0], 1e-38f);
    ASSERT_EQ(m.normalTable.size(), 16u);
    for (const auto &c : rg::CornerNormals(m)) EXPECT_FALSE(c.smooth);
}

// ================================================================ Section4 (§8)

// Appends a Section4 block of two groups (both containing face 0) and points 0x1C/0x20 at it.
void AppendTwoGroups(Bytes &b, bool v2, std::uint32_t faceOffset) {
    const std::uint32_t at = static_cast<std::uint32_t>(b.size());
    auto u32 = [&b](std::uint32_t v) {
        for (int i = 0; i < 4; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
    };
    auto u16 = [&b](std::uint16_t v) {
        b.push_back(static_cast<std::uint8_t>(v));
        b.push_back(static_cast<std::uint8_t>(v >> 8));
    };
    for (int g = 0; g < 2; ++g) {
        u32(static_cast<std::uint32_t>(10 * g));
        u32(static_cast<std::uint32_t>(-20));
        u32(30);
        u32(400 + static_cast<std::uint32_t>(g));
        u16(static_cast<std::uint16_t>(g == 0 ? 1 : 2));
        if (!v2) {
            float f = 0.5f + static_cast<float>(g);
            std::uint32_t bits;
            std::memcpy(&bits, &f, 4);
            for (int k = 0; k < 3; ++k) u32(bits);
        }
        u32(faceOffset);
        u16(0);
        if (g == 1) {
            u32(faceOffset + 42);
            u16(4);
        }
    }
    PutU32(b, 0x1C, at);
    PutU32(b, 0x20, 2);
}

TEST(RgModelSection4, V5FormWithAFaceInTwoGroups) {
    fx::GenModel g = Quad("v5.0");
    g.normals = fx::GenModel::Normals::None;
    g.faces.push_back(g.faces[0]);
    Bytes b = fx::Generate(g);
    AppendTwoGroups(b, false, 0x40);
    const rg::RG3DModel m = Read(b);
    ASSERT_TRUE(m.hasSection4);
    ASSERT_EQ(m.section4.size(), 2u);
    EXPECT_EQ(m.section4[0].centre, (rg::Int3{0, -20, 30}));
    EXPECT_EQ(m.section4[1].centre, (rg::Int3{10, -20, 30}));
    EXPECT_EQ(m.section4[1].radius, 401u);
    EXPECT_EQ(m.section4[1].opaque, (std::array<float, 3>{1.5f, 1.5f, 1.5f}));
    ASSERT_EQ(m.section4[1].refs.size(), 2u);
    EXPECT_EQ(m.section4[0].refs[0], (rg::Section4Ref{0x40, 0}));
    EXPECT_EQ(m.section4[1].refs[0], (rg::Section4Ref{0x40, 0}));
    EXPECT_EQ(m.section4[1].refs[1], (rg::Section4Ref{0x40 + 42, 4}));
    // Where those references point: a v4/v5 record is 10 + 8·4 = 42 bytes for a quad.
    EXPECT_EQ(rg::FaceRecordOffsets(m, m.header[15]), (std::vector<std::uint64_t>{0x40, 0x40 + 42}));
}

TEST(RgModelSection4, V2FormWithAFaceInTwoGroups) {
    fx::GenModel g = fx::Triangle14Model("v2.7");
    g.faces.push_back(g.faces[0]);
    g.section4 = false;
    Bytes b = fx::Generate(g);
    const std::uint32_t faces = U32At(b, 0x3C);
    AppendTwoGroups(b, true, faces);
    const rg::RG3DModel m = Read(b);
    ASSERT_EQ(m.section4.size(), 2u);
    EXPECT_EQ(m.section4[1].opaque, (std::array<float, 3>{0, 0, 0}));
    EXPECT_EQ(m.section4[1].refs[1], (rg::Section4Ref{faces + 42, 4}));
    EXPECT_TRUE(m.warnings.empty());
    // A v2.x record is 8 + 8·3 = 32 bytes for a triangle (these references do not point at face 1's record).
    EXPECT_EQ(rg::FaceRecordOffsets(m, m.header[15]), (std::vector<std::uint64_t>{faces, faces + 32u}));
}

TEST(RgModelSection4, OverrunIsDroppedWithAWarning) {
    Bytes b = fx::Triangle246V50();
    PutU32(b, 0x20, 2); // the second entry would run into the table and past the end
    PutU32(b, 0x1C, 0xE0);
    rg::RG3DModel m = Read(b);
    EXPECT_FALSE(m.hasSection4);
    EXPECT_TRUE(m.section4.empty());
    EXPECT_TRUE(HasWarning(m, "Section4"));
    EXPECT_EQ(m.normalTable, (std::vector<std::uint32_t>{0, 1, 2})); // the rest is read
    b = fx::TriangleV27();
    PutU32(b, 0x20, 2);
    m = Read(b);
    EXPECT_FALSE(m.hasSection4);
    EXPECT_TRUE(HasWarning(m, "Section4"));
    b = fx::Triangle246V50();
    PutU32(b, 0x20, 0xFFFFFFFFu);
    EXPECT_FALSE(Read(b).hasSection4);
}

// ================================================================ frames (§7)

TEST(RgModelFrames, PackedNormal) {
    EXPECT_EQ(rg::UnpackNormal(0x3C03C3C0u), (rg::Int3{-64, 240, -64}));
    EXPECT_EQ(rg::UnpackNormal(0xFC03C3C0u), (rg::Int3{-64, 240, -64})); // junk bits 30-31 ignored
    EXPECT_EQ(rg::PackNormal({-64, 240, -64}), 0x3C03C3C0u);
    EXPECT_EQ(rg::UnpackNormal(rg::PackNormal({-512, 511, 0})), (rg::Int3{-512, 511, 0}));
    EXPECT_EQ(rg::PackNormal({-600, 600, 0}), rg::PackNormal({-512, 511, 0})); // clamped
}

TEST(RgModelFrames, Type2IsBaseMinusDeltaNotCumulative) {
    const fx::GenModel g = fx::AnimatedType2();
    const Bytes b = fx::Generate(g);
    // Frame 1's vertex block starts with v0's d = (−6, −10, 0): FA FF F6 FF 00 00.
    const std::uint32_t records = U32At(b, 0x14);
    EXPECT_EQ(U32At(b, records + 12), 2u);
    const std::uint32_t block1 = U32At(b, records + 16);
    EXPECT_EQ((Bytes(b.begin() + block1, b.begin() + block1 + 6)), (Bytes{0xFA, 0xFF, 0xF6, 0xFF, 0x00, 0x00}));
    // Packed normals carry junk bits 3.
    const std::uint32_t normals1 = U32At(b, records + 20);
    EXPECT_EQ(U32At(b, normals1) >> 30, 3u);

    const rg::RG3DModel m = Read(b);
    EXPECT_TRUE(m.warnings.empty());
    EXPECT_EQ(m.version, rg::Version::V40);
    EXPECT_EQ(m.frameType, 2u);
    ASSERT_EQ(m.frameCount(), 4u);
    ASSERT_EQ(m.vertexCount(), 5u); // odd nv
    EXPECT_EQ(FrameBlockPos(m.frames[0], 0), (rg::Int3{-250, 10, 0}));
    EXPECT_EQ(FrameBlockPos(m.frames[0], 1), (rg::Int3{0, 0, -256}));
    EXPECT_EQ(FrameBlockPos(m.frames[1], 4), (rg::Int3{0, -3512, 0}));
    EXPECT_EQ(FrameBlockPos(m.frames[1], 2), (rg::Int3{20256, 0, 0}));
    EXPECT_EQ(FrameBlockPos(m.frames[1], 0), (rg::Int3{-256, 0, 0})); // frame 2 is not frame 1 + d
    EXPECT_EQ(FrameBlockPos(m.frames[2], 0), (rg::Int3{-255, 2, 3}));
    EXPECT_EQ(FrameBlockPos(m.frames[2], 4), (rg::Int3{1, -510, 3}));
    for (std::size_t k = 0; k < 3; ++k) {
        ASSERT_EQ(m.frames[k].faceNormals.size(), 15u);
        for (std::size_t f = 0; f < 5; ++f) {
            const rg::Int3 want = rg::ComputeFaceNormal(m.frames[k].positions, m.faces[f]);
            EXPECT_EQ((rg::Int3{m.frames[k].faceNormals[3 * f], m.frames[k].faceNormals[3 * f + 1],
                                m.frames[k].faceNormals[3 * f + 2]}),
                      want)
                << k << "/" << f;
        }
    }
    // Direct base-pose normals.
    EXPECT_TRUE(m.normalTable.empty());
    EXPECT_EQ(m.vertexNormals.size(), 15u);
    for (const auto &c : rg::CornerNormals(m)) EXPECT_TRUE(c.smooth);
    // Radius: the maximum over all frames (v2 of frame 2 at x = 20256).
    EXPECT_EQ(m.radius, 20256u);
}

TEST(RgModelFrames, Type0MultiFrameIsAbsolute) {
    const rg::RG3DModel m = Read(fx::Generate(fx::MultiFrameType0()));
    EXPECT_EQ(m.frameType, 0u);
    ASSERT_EQ(m.frameCount(), 3u);
    EXPECT_EQ(FrameBlockPos(m.frames[0], 4), (rg::Int3{0, -100512, 0}));
    EXPECT_EQ(FrameBlockPos(m.frames[0], 0), (rg::Int3{-256, 0, 0}));
    EXPECT_EQ(FrameBlockPos(m.frames[1], 0), (rg::Int3{744, 0, -1000}));
    EXPECT_EQ(FrameBlockPos(m.frames[1], 4), (rg::Int3{1000, -512, -1000}));
    for (std::size_t f = 0; f < 5; ++f) {
        const rg::Int3 want = rg::ComputeFaceNormal(m.frames[0].positions, m.faces[f]);
        EXPECT_EQ((rg::Int3{m.frames[0].faceNormals[3 * f], m.frames[0].faceNormals[3 * f + 1],
                            m.frames[0].faceNormals[3 * f + 2]}),
                  want);
    }
}

TEST(RgModelFrames, Type8AndSingleFrame) {
    fx::GenModel g = fx::AnimatedType2();
    g.frames.clear();
    g.frameType = 8;
    const rg::RG3DModel m = Read(fx::Generate(g));
    EXPECT_EQ(m.frameType, 8u);
    EXPECT_EQ(m.frameCount(), 1u);
    EXPECT_TRUE(m.warnings.empty());
    EXPECT_TRUE(m.normalTable.empty());
    EXPECT_EQ(m.vertexNormals.size(), 15u);
}

TEST(RgModelFrames, Type4IsAbsoluteWithPackedNormals) {
    fx::GenModel g = fx::AnimatedType2();
    g.frameType = 4;
    const rg::RG3DModel m = Read(fx::Generate(g));
    EXPECT_EQ(m.frameType, 4u);
    ASSERT_EQ(m.frameCount(), 4u);
    EXPECT_EQ(FrameBlockPos(m.frames[0], 0), (rg::Int3{-250, 10, 0}));
    EXPECT_EQ(FrameBlockPos(m.frames[1], 2), (rg::Int3{20256, 0, 0}));
    const rg::Int3 want = rg::ComputeFaceNormal(m.frames[1].positions, m.faces[1]);
    EXPECT_EQ((rg::Int3{m.frames[1].faceNormals[3], m.frames[1].faceNormals[4], m.frames[1].faceNormals[5]}), want);
}

TEST(RgModelFrames, UnknownTypeOrBadOffsetsGiveTheBasePose) {
    fx::GenModel g = fx::AnimatedType2();
    g.frameType = 7;
    rg::RG3DModel m = Read(fx::Generate(g));
    EXPECT_TRUE(m.frames.empty());
    EXPECT_TRUE(HasWarning(m, "frame_type 7"));
    EXPECT_EQ(Pos(m, 0), (rg::Int3{-256, 0, 0}));

    Bytes b = fx::Generate(fx::AnimatedType2());
    const std::uint32_t records = U32At(b, 0x14);
    PutU32(b, records + 32 + 4, static_cast<std::uint32_t>(b.size() - 3)); // frame 2's normal block
    m = Read(b);
    EXPECT_TRUE(m.frames.empty());
    EXPECT_TRUE(HasWarning(m, "base pose"));
    EXPECT_EQ(m.vertexNormals.size(), 15u);

    b = fx::Generate(fx::AnimatedType2());
    PutU32(b, 0x10, 0x10000000u); // records past the end
    m = Read(b);
    EXPECT_TRUE(m.frames.empty());
    EXPECT_TRUE(HasWarning(m, "base pose"));
}

TEST(RgModelFrames, RecordsSharingOneBlockCannotAmplify) {
    // 40 frame records all pointing at frame 1's blocks: more frame data than the file holds → base pose.
    fx::GenModel g = fx::AnimatedType2();
    Bytes b = fx::Generate(g);
    const std::uint32_t records = U32At(b, 0x14);
    const std::uint32_t vo = U32At(b, records + 16), no = U32At(b, records + 20);
    const std::size_t extra = b.size();
    for (int k = 0; k < 41; ++k) {
        const std::uint32_t record[4] = {k == 0 ? U32At(b, 0x30) : vo, k == 0 ? U32At(b, 0x34) : no, 0u,
                                         k == 0 ? 2u : 0u};
        for (std::uint32_t v : record)
            for (int i = 0; i < 4; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
    }
    PutU32(b, 0x14, static_cast<std::uint32_t>(extra));
    PutU32(b, 0x10, 41);
    const rg::RG3DModel m = Read(b);
    EXPECT_EQ(m.frameType, 2u);
    EXPECT_TRUE(m.frames.empty());
    EXPECT_TRUE(HasWarning(m, "cannot all fit"));
    // The same with 3 shared records still fits and reads.
    PutU32(b, 0x10, 4);
    const rg::RG3DModel few = Read(b);
    ASSERT_EQ(few.frameCount(), 4u);
    EXPECT_EQ(FrameBlockPos(few.frames[2], 0), (rg::Int3{-250, 10, 0}));
}

// ================================================================ hostile input

void ReadOrFormatError(const Bytes &b, const std::string &what) {
    try {
        const rg::RG3DModel m = Read(b);
        (void)rg::CornerUVs(m);
        (void)rg::CornerNormals(m);
    } catch (const FormatError &) {
    } catch (const std::exception &e) {
        ADD_FAILURE() << what << ": " << e.what();
    }
}

TEST(RgModelHostile, EveryTruncation) {
    for (const Bytes &full : {fx::Triangle246V50(), fx::Generate(fx::AnimatedType2()), fx::TriangleV27(),
                              fx::Generate(fx::MultiFrameType0())})
        for (std::size_t n = 0; n <= full.size(); ++n) {
            // A heap copy of exactly n bytes, so ASan sees any read past the end.
            const Bytes cut(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(n));
            ReadOrFormatError(cut, "truncated to " + std::to_string(n));
        }
}

TEST(RgModelHostile, SeededByteFlips) {
    std::mt19937 rng(20261122);
    for (const Bytes &full : {fx::Triangle246V50(), fx::Generate(fx::AnimatedType2()), fx::TriangleV27(),
                              fx::Generate(fx::MultiFrameType0()), fx::GenerateV2Animated(V2Animated(), 16)}) {
        for (int iter = 0; iter < 300; ++iter) {
            Bytes b = full;
            const int flips = 1 + static_cast<int>(rng() % 4);
            for (int i = 0; i < flips; ++i) {
                const std::size_t at = rng() % b.size();
                b[at] = static_cast<std::uint8_t>(rng() % 3 == 0 ? 0xFF : rng());
            }
            ReadOrFormatError(b, "flip iteration " + std::to_string(iter));
        }
    }
}

} // namespace
