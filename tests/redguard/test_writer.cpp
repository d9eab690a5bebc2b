// Tests of the Redguard model writer and builder (docs/formats/redguard-3d.md §14, §15): byte-exact rewrites of read
// models (the §14 anchors, laid out here from the reference's hex listing, and the synthetic corpus), the
// .3DC layouts (type 2, type 0 on overflow, single-frame type 8), and the builder's computed fields (welding,
// normal slots, texture values, UVs, face normals, radius, Section4, frames).
#include "importers/redguard/model.hpp"
#include "importers/redguard/model_builder.hpp"

#include "common/error.hpp"
#include "fixtures/redguard_fixtures.hpp"
#include "support/bits.hpp"
#include "support/expect_error.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

namespace {

namespace rg = gamefmt::redguard;
namespace fx = gamefmt::fixtures::rg;
using Bytes = std::vector<std::uint8_t>;
using namespace gamefmt::test;

void PutU32(Bytes &b, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) b.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
void PutF32(Bytes &b, float f) {
    std::uint32_t v;
    std::memcpy(&v, &f, 4);
    PutU32(b, v);
}
// The §14 body from 0x40 to 0xA2: face, vertices, face normal, frame record (identical in both forms).
Bytes TriangleBody() {
    return {0x03, 0x00, 0x31, 0xcc, 0x6f, 0x50, 0x00, 0x00, 0x00, 0x00,                          // face header
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x04,                                      // v0
            0x01, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0xfc,                                      // v1
            0x02, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x04,                                      // v2
            0x00, 0xff, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,              // (-256,0,0)
            0x00, 0x00, 0x00, 0x00, 0x00, 0xfe, 0xff, 0xff, 0x00, 0x00, 0x00, 0x00,              // (0,-512,0)
            0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,              // (256,0,0)
            0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00,              // normal
            0x62, 0x00, 0x00, 0x00, 0x86, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0, 0, 0, 0}; // frame 0
}

// The 198-byte v4.0 file of §14, byte by byte from its listing.
Bytes Triangle198() {
    Bytes b = {0x76, 0x34, 0x2e, 0x30, 0x03, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x00, 0x02, 0x00, 0x00,
               0x01, 0x00, 0x00, 0x00, 0x92, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
               0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0xa2, 0x00, 0x00, 0x00,
               0x62, 0x00, 0x00, 0x00, 0x86, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x40, 0x00, 0x00, 0x00};
    const Bytes body = TriangleBody();
    b.insert(b.end(), body.begin(), body.end());
    for (int i = 0; i < 3; ++i) {
        PutF32(b, 0.0f);
        PutF32(b, 0.0f);
        PutF32(b, 1.0f);
    }
    return b;
}

// The opaque triple a writer computes for §14's Section4 entry: √3·halfExtent/radius per axis.
std::array<float, 3> TriangleOpaque() {
    return {static_cast<float>(std::sqrt(3.0) * 256.0 / 362.0), static_cast<float>(std::sqrt(3.0) * 256.0 / 362.0),
            0.0f};
}

// Its 246-byte v5.0 form: Section4 at 0xA2, table at 0xC6, normals at 0xD2.
Bytes Triangle246() {
    Bytes b = Triangle198();
    b.resize(0xA2);
    b[3] = 0x30;
    b[2] = 0x2e;
    b[1] = 0x35;
    const auto patch = [&b](std::size_t at, std::uint32_t v) {
        for (int i = 0; i < 4; ++i) b[at + i] = static_cast<std::uint8_t>(v >> (8 * i));
    };
    patch(0x1C, 0xA2);
    patch(0x20, 1);
    patch(0x28, 0xC6);
    patch(0x2C, 0xD2);
    PutU32(b, 0);
    PutU32(b, static_cast<std::uint32_t>(-256));
    PutU32(b, 0);
    PutU32(b, 362);
    b.push_back(1);
    b.push_back(0);
    for (float f : TriangleOpaque()) PutF32(b, f);
    PutU32(b, 0x40);
    b.push_back(0);
    b.push_back(0);
    EXPECT_EQ(b.size(), 0xC6u);
    PutU32(b, 0xD2);
    PutU32(b, 0xDE);
    PutU32(b, 0xEA);
    for (int i = 0; i < 3; ++i) {
        PutF32(b, 0.0f);
        PutF32(b, 0.0f);
        PutF32(b, 1.0f);
    }
    EXPECT_EQ(b.size(), 246u);
    return b;
}

rg::RG3DModel Read(const Bytes &b) {
    return rg::ReadModel(b.data(), b.size());
}

// The §14 triangle as the model the reader makes of it (direct normals).
rg::RG3DModel TriangleModel() {
    rg::RG3DModel m;
    m.version = rg::Version::V40;
    m.radius = 512;
    m.vertices = {-256, 0, 0, 0, -512, 0, 256, 0, 0};
    rg::Face face;
    face.texture = 0x506FCC31;
    face.corners = {{0, 0, 1024}, {1, 512, -1024}, {2, 512, 1024}};
    m.faces = {face};
    m.faceNormals = {0, 0, 256};
    m.vertexNormals = {0, 0, 1, 0, 0, 1, 0, 0, 1};
    return m;
}

// ---------------------------------------------------------------- writer: byte-exact rewrites

TEST(RgWriter, Triangle198V40ReadThenWrittenIsIdentical) {
    const Bytes file = Triangle198();
    ASSERT_EQ(file.size(), 198u);
    EXPECT_EQ(rg::WriteModel(Read(file)), file);
}

TEST(RgWriter, Triangle246V50ReadThenWrittenIsIdentical) {
    const Bytes file = Triangle246();
    EXPECT_EQ(rg::WriteModel(Read(file)), file);
}

TEST(RgWriter, TriangleModelWritesThe198Bytes) {
    std::vector<std::string> warnings;
    EXPECT_EQ(rg::WriteModel(TriangleModel(), &warnings), Triangle198());
    EXPECT_TRUE(warnings.empty());
}

TEST(RgWriter, HeaderFieldsFollowSection15) {
    rg::RG3DModel m = TriangleModel();
    m.header[9] = 2924; // 0x24 is preserved
    const Bytes b = rg::WriteModel(m);
    ExpectU32s(b, {{0x18, 3}, {0x38, 3}, {0x3C, 0x40}, {0x24, 2924}, {0x10, 1}});
}

TEST(RgWriter, TableEntriesAreNormalOffsets) {
    rg::RG3DModel m = TriangleModel();
    m.version = rg::Version::V50;
    m.vertexNormals = {0, 0, 1, 1, 0, 0};
    m.normalTable = {1, 0, rg::RG3DModel::kNoNormal};
    const Bytes b = rg::WriteModel(m);
    const std::uint32_t table = U32At(b, 0x28), normals = U32At(b, 0x2C);
    ASSERT_NE(table, 0u);
    EXPECT_EQ(normals, table + 12);
    ExpectU32s(b, {{table, normals + 12}, {table + 4, normals}, {table + 8, 0xFFFFFFFF}});
    EXPECT_EQ(b.size(), normals + 24);
    EXPECT_EQ(U32At(b, 0x1C), 0u); // no Section4 in this model
    const rg::RG3DModel back = Read(b);
    EXPECT_EQ(back.normalTable, (std::vector<std::uint32_t>{1, 0, rg::RG3DModel::kNoNormal}));
}

TEST(RgWriter, V40DropsSection4WithAWarning) {
    rg::RG3DModel m = Read(Triangle246());
    m.version = rg::Version::V40;
    std::vector<std::string> warnings;
    const Bytes b = rg::WriteModel(m, &warnings);
    EXPECT_EQ(U32At(b, 0x1C), 0u);
    EXPECT_EQ(U32At(b, 0x20), 0u);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_TRUE(Contains(warnings[0], "Section4"));
}

TEST(RgWriter, Section4ReferencesFollowTheFaceLayout) {
    rg::RG3DModel m = Read(Triangle246());
    m.section4[0].refs[0].faceOffset = 0x1234; // stale: recomputed from the face index
    EXPECT_EQ(rg::WriteModel(m), Triangle246());
}

TEST(RgWriter, RejectsWhatCannotBeWritten) {
    rg::RG3DModel m = TriangleModel();
    m.version = rg::Version::V27;
    EXPECT_TRUE(Contains(Thrown([&] { rg::WriteModel(m); }).message(), "v2.x"));
    m = TriangleModel();
    m.faces[0].corners.pop_back();
    EXPECT_TRUE(Contains(Thrown([&] { rg::WriteModel(m); }).message(), "3 to 255"));
    m = TriangleModel();
    m.faces[0].corners[2].vertex = 3;
    EXPECT_TRUE(Contains(Thrown([&] { rg::WriteModel(m); }).message(), "vertex 3"));
    m = TriangleModel();
    m.faceNormals.clear();
    Thrown([&] { rg::WriteModel(m); });
    m = TriangleModel();
    m.frames.push_back({{1, 2, 3}, {0, 0, 256}});
    EXPECT_TRUE(Contains(Thrown([&] { rg::WriteModel(m); }).message(), "frame 1"));
}

// ---------------------------------------------------------------- writer: the synthetic corpus

TEST(RgWriter, FixtureAnchorsReadThenWrittenAreIdentical) {
    const Bytes v40 = fx::Triangle198V40();
    EXPECT_EQ(v40, Triangle198()); // the generator's anchor and this file's agree
    EXPECT_EQ(rg::WriteModel(Read(v40)), v40);
    const Bytes v50 = fx::Triangle246V50();
    ASSERT_EQ(v50.size(), 246u);
    EXPECT_EQ(rg::WriteModel(Read(v50)), v50);
}

TEST(RgWriter, GeneratedV50WithTableAndSection4IsIdentical) {
    const Bytes zoo = fx::Generate(fx::PolygonZoo()); // faces of 3-255 corners, solids, tex_hi, UVs
    const rg::RG3DModel m = Read(zoo);
    ASSERT_TRUE(m.hasSection4);
    ASSERT_FALSE(m.normalTable.empty());
    EXPECT_EQ(rg::WriteModel(m), zoo);
    fx::GenModel direct = fx::PolygonZoo();
    direct.version = "v4.0";
    direct.normals = fx::GenModel::Normals::Direct;
    const Bytes v40 = fx::Generate(direct);
    EXPECT_EQ(rg::WriteModel(Read(v40)), v40);
    fx::GenModel header24 = fx::PolygonZoo();
    header24.header24 = 4490;
    const Bytes h24 = fx::Generate(header24);
    EXPECT_EQ(rg::WriteModel(Read(h24)), h24);
}

TEST(RgWriter, AnimatedType2IsIdentical) {
    fx::GenModel clean = fx::AnimatedType2();
    clean.packedNormalJunkBits = 0; // the writer writes bits 30-31 as 0
    const Bytes file = fx::Generate(clean);
    const rg::RG3DModel m = Read(file);
    ASSERT_EQ(m.frames.size(), 3u);
    std::vector<std::string> warnings;
    EXPECT_EQ(rg::WriteModel(m, &warnings), file);
    EXPECT_TRUE(warnings.empty());
    // With junk bits 3 the rewrite differs only there: the frames decode the same.
    const Bytes junk = fx::Generate(fx::AnimatedType2());
    ASSERT_EQ(junk.size(), file.size());
    EXPECT_EQ(rg::WriteModel(Read(junk)), file);
}

TEST(RgWriter, MultiFrameType0IsRewrittenAbsoluteWhenDeltasOverflow) {
    const rg::RG3DModel m = Read(fx::Generate(fx::MultiFrameType0())); // frame 1 moves 100000 raw
    std::vector<std::string> warnings;
    const Bytes b = rg::WriteModel(m, &warnings);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_EQ(U32At(b, U32At(b, 0x14) + 12), 0u);
    const rg::RG3DModel back = Read(b);
    EXPECT_EQ(back.frames, m.frames);
    EXPECT_EQ(back.vertices, m.vertices);
    EXPECT_EQ(back.faces, m.faces);
    // Without the far move the deltas fit: rewritten as type 2.
    fx::GenModel near = fx::MultiFrameType0();
    near.frames[0][4] = {0, -600, 0};
    const rg::RG3DModel n = Read(fx::Generate(near));
    warnings.clear();
    const Bytes b2 = rg::WriteModel(n, &warnings);
    EXPECT_TRUE(warnings.empty());
    EXPECT_EQ(U32At(b2, U32At(b2, 0x14) + 12), 2u);
    EXPECT_EQ(Read(b2).frames, n.frames);
}

// ---------------------------------------------------------------- writer: .3DC layouts

rg::RG3DModel AnimatedTriangle(std::int32_t dx) {
    rg::RG3DModel m = TriangleModel();
    rg::Frame f1;
    f1.positions = {-250, 10, 0, 0, -512, 0, 256, 0, 0};
    f1.faceNormals = {-64, 240, -64};
    rg::Frame f2;
    f2.positions = {-256 + dx, 0, 0, 0, -500, 0, 256, 0, 4};
    f2.faceNormals = {0, 0, 256};
    m.frames = {f1, f2};
    m.frameType = 2;
    return m;
}

TEST(RgWriter, Type2LayoutDeltasAndPackedNormals) {
    std::vector<std::string> warnings;
    const Bytes b = rg::WriteModel(AnimatedTriangle(0), &warnings);
    EXPECT_TRUE(warnings.empty());
    ExpectU32s(b, {{0x10, 3}, {0x14, 0x92}, {0x28, 0}, {0x1C, 0}, {0x20, 0}, {0x18, 3}, {0x38, 3}});
    // Records: (0x62, 0x86, 0, 2), then (v1, n1, 0, 0), (v2, n2, 0, 0) right after the three records.
    ExpectU32s(b, {{0x92, 0x62}, {0x96, 0x86}, {0x9E, 2}});
    const std::uint32_t v1 = U32At(b, 0xA2), n1 = U32At(b, 0xA6);
    EXPECT_EQ(v1, 0x92u + 48);
    EXPECT_EQ(n1, v1 + 18);
    EXPECT_EQ(U32At(b, 0xAE), 0u);
    EXPECT_EQ(U32At(b, 0xB2), n1 + 4);
    // §7 examples: d = (−6, −10, 0) and (−64, 240, −64) → 0x3C03C3C0 with bits 30-31 clear.
    EXPECT_EQ(Bytes(b.begin() + v1, b.begin() + v1 + 6), (Bytes{0xFA, 0xFF, 0xF6, 0xFF, 0x00, 0x00}));
    EXPECT_EQ(U32At(b, n1), 0x3C03C3C0u);
    // Direct normals of the base pose to EOF.
    EXPECT_EQ(U32At(b, 0x2C), b.size() - 36);
    const rg::RG3DModel back = Read(b);
    EXPECT_EQ(back.frameType, 2u);
    ASSERT_EQ(back.frames.size(), 2u);
    EXPECT_EQ(back.frames[0].positions, AnimatedTriangle(0).frames[0].positions);
    EXPECT_EQ(back.frames[1].positions, AnimatedTriangle(0).frames[1].positions);
    EXPECT_EQ(back.frames[0].faceNormals, (std::vector<std::int32_t>{-64, 240, -64}));
    EXPECT_EQ(rg::WriteModel(back), b);
}

TEST(RgWriter, I16OverflowWritesType0WithAWarning) {
    std::vector<std::string> warnings;
    const rg::RG3DModel m = AnimatedTriangle(40000);
    const Bytes b = rg::WriteModel(m, &warnings);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_TRUE(Contains(warnings[0], "type 0"));
    EXPECT_EQ(U32At(b, 0x9E), 0u);
    const std::uint32_t v1 = U32At(b, 0xA2), n1 = U32At(b, 0xA6);
    EXPECT_EQ(n1, v1 + 36);
    EXPECT_EQ(U32At(b, v1), static_cast<std::uint32_t>(-250)); // absolute i32
    EXPECT_EQ(U32At(b, 0xB2), n1 + 12);
    EXPECT_EQ(U32At(b, 0x28), 0u); // no table copies
    const rg::RG3DModel back = Read(b);
    ASSERT_EQ(back.frames.size(), 2u);
    EXPECT_EQ(back.frames[1].positions, m.frames[1].positions);
}

TEST(RgWriter, SingleFrame3DCIsType8WithDirectNormals) {
    rg::RG3DModel m = Read(Triangle246()); // a table model: the .3DC gets one direct normal per vertex
    m.version = rg::Version::V40;
    m.frameType = 8;
    std::vector<std::string> warnings;
    const Bytes b = rg::WriteModel(m, &warnings);
    ExpectU32s(b, {{0x10, 1}, {0x14, 0x92}, {0x9E, 8}, {0x28, 0}, {0x2C, 0xA2}});
    EXPECT_EQ(b.size(), 0xA2u + 36);
    Bytes expected = Triangle198();
    expected[0x9E] = 8;
    EXPECT_EQ(b, expected);
}

// ---------------------------------------------------------------- builder

rg::BuildInput TriangleInput() {
    rg::BuildInput in;
    in.positions = {{1, 0, 0}, {0, 2, 0}, {-1, 0, 0}};
    in.normals = {{0, 0, 1}, {0, 0, 1}, {0, 0, 1}};
    in.uvs = {{0, 0}, {0.5f, 1}, {1, 0}};
    rg::BuildMaterial mat;
    mat.name = "tex376_19";
    mat.texW = 64;
    mat.texH = 64;
    in.materials = {mat};
    in.polygons = {{0, {0, 1, 2}}};
    return in;
}

rg::BuildOptions V40() {
    rg::BuildOptions o;
    o.version = rg::Version::V40;
    return o;
}

TEST(RgWriterBuilder, Section14TriangleAsV40WithDirectNormalsIsByteExact) {
    const rg::BuildResult built = rg::BuildModel(TriangleInput(), V40());
    EXPECT_TRUE(built.warnings.empty());
    EXPECT_EQ(rg::WriteModel(built.model), Triangle198());
}

TEST(RgWriterBuilder, Section14TriangleAsV50HasTableAndSection4) {
    const rg::BuildResult built = rg::BuildModel(TriangleInput(), rg::BuildOptions{});
    const Bytes b = rg::WriteModel(built.model);
    EXPECT_EQ(b, Triangle246());
    ASSERT_EQ(built.model.section4.size(), 1u);
    EXPECT_EQ(built.model.section4[0].centre, (rg::Int3{0, -256, 0}));
    EXPECT_EQ(built.model.section4[0].radius, 362u);
}

TEST(RgWriterBuilder, WeldsByRawPositionAndSharesSlotsOfEqualNormals) {
    // A quad as two triangles over six unshared vertices, one flat normal: four file vertices, four slots.
    rg::BuildInput in;
    in.positions = {{0, 0, 0}, {1, 0, 0}, {1, 1, 0}, {0, 0, 0}, {1, 1, 0}, {0, 1, 0}};
    in.normals.assign(6, {0, 0, 1});
    in.materials = {rg::BuildMaterial{}};
    in.polygons = {{0, {0, 1, 2}}, {0, {3, 4, 5}}};
    const rg::BuildResult built = rg::BuildModel(in, rg::BuildOptions{});
    EXPECT_EQ(built.model.vertexCount(), 4u);
    EXPECT_EQ(built.model.normalTable, (std::vector<std::uint32_t>{0, 1, 2, 0, 2, 3}));
    EXPECT_EQ(built.model.vertexNormals.size(), 12u);
    for (float f : built.model.vertexNormals) EXPECT_FALSE(std::signbit(f)) << "−0.0 must be written as +0.0";
    // Hard edge: the same vertex with two normals gets two slots (table), or two vertices (direct).
    in.normals[3] = {1, 0, 0};
    in.normals[4] = {1, 0, 0};
    const rg::BuildResult hard = rg::BuildModel(in, rg::BuildOptions{});
    EXPECT_EQ(hard.model.vertexCount(), 4u);
    EXPECT_EQ(hard.model.vertexNormals.size(), 18u);
    const rg::BuildResult direct = rg::BuildModel(in, V40());
    EXPECT_EQ(direct.model.vertexCount(), 6u);
    EXPECT_TRUE(direct.model.normalTable.empty());
}

TEST(RgWriterBuilder, NormalsWithinTolerance1e4ShareASlot) {
    rg::BuildInput in = TriangleInput();
    in.positions.push_back(in.positions[0]);
    in.normals.push_back({0.00005f, 0, 1});
    in.uvs.push_back({0, 0});
    in.polygons.push_back({0, {3, 2, 1}});
    const rg::BuildResult built = rg::BuildModel(in, rg::BuildOptions{});
    EXPECT_EQ(built.model.normalTable, (std::vector<std::uint32_t>{0, 1, 2, 0, 2, 1}));
}

TEST(RgWriterBuilder, WithoutNormalsSlotsHoldTheSumOfUnitFaceNormals) {
    // Two faces of a roof meeting at a ridge: the ridge vertices average both face normals.
    rg::BuildInput in;
    in.positions = {{0, 0, 0}, {1, 0, 0}, {1, 1, 1}, {0, 1, 1}, {1, 0, 2}, {0, 0, 2}};
    in.materials = {rg::BuildMaterial{}};
    in.polygons = {{0, {0, 1, 2, 3}}, {0, {3, 2, 4, 5}}};
    const rg::BuildResult built = rg::BuildModel(in, rg::BuildOptions{});
    ASSERT_EQ(built.model.vertexNormals.size(), 18u); // one slot per vertex
    const rg::RG3DModel &m = built.model;
    const std::size_t ridge = m.normalTable[2]; // corner 2 of face 0 = vertex (1,1,1)
    const float *n = &m.vertexNormals[3 * ridge];
    EXPECT_NEAR(std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]), 1.0f, 1e-6f);
    // Both faces' normals have y and z components of opposite z: the sum's z cancels.
    EXPECT_NEAR(n[2], 0.0f, 1e-3f);
}

TEST(RgWriterBuilder, FaceNormalsAreTruncatedUnitCrossProducts) {
    rg::BuildInput in;
    in.positions = {{0, 0, 0}, {-1, 0, 0}, {0, 0, 1}}; // native (0,0,0) (256,0,0) (0,0,256)
    in.materials = {rg::BuildMaterial{}};
    in.polygons = {{0, {0, 1, 2}}};
    rg::BuildResult built = rg::BuildModel(in, rg::BuildOptions{});
    EXPECT_EQ(built.model.faceNormals, (std::vector<std::int32_t>{0, -256, 0}));
    in.positions = {{0, 0, 0}, {-1, 0, 0}, {0, -1, 1}}; // (256,0,0)×(0,256,256): (0,−181.02,181.02)
    built = rg::BuildModel(in, rg::BuildOptions{});
    EXPECT_EQ(built.model.faceNormals, (std::vector<std::int32_t>{0, -181, 181}));
}

TEST(RgWriterBuilder, InverseTransformRoundsAndScales) {
    rg::BuildInput in = TriangleInput();
    in.positions[0] = {1.00195f, -0.5f, 0.25f};
    rg::BuildOptions o = V40();
    o.scale = 0.5f;
    const rg::BuildResult built = rg::BuildModel(in, o);
    EXPECT_EQ(built.model.vertices[1], 256); // −(−0.5)·512
    EXPECT_EQ(built.model.vertices[2], 128); // 0.25·512
    EXPECT_EQ(built.model.vertices[3], 0);
    EXPECT_EQ(built.model.vertices[4], -1024);
}

TEST(RgWriterBuilder, StoredRadiusIsKeptOnlyNearTheComputedOne) {
    rg::BuildInput in = TriangleInput();
    in.radius = 513; // a file that rounded instead of flooring
    EXPECT_EQ(rg::BuildModel(in, V40()).model.radius, 513u);
    in.radius = 511; // below the geometry: never
    EXPECT_EQ(rg::BuildModel(in, V40()).model.radius, 512u);
    in.radius = 10240; // stale (the scene was rescaled)
    EXPECT_EQ(rg::BuildModel(in, V40()).model.radius, 512u);
}

TEST(RgWriterBuilder, FaceOrderIsRestored) {
    rg::BuildInput in = TriangleInput();
    in.polygons = {{0, {0, 1, 2}}, {0, {2, 1, 0}}, {0, {1, 2, 0}}};
    in.faceOrder = {2, 0, 1};
    const rg::BuildResult built = rg::BuildModel(in, V40());
    ASSERT_EQ(built.model.faces.size(), 3u);
    // File face 0 is polygon 1 (2,1,0), face 1 polygon 2 (1,2,0), face 2 polygon 0 (0,1,2); vertices are
    // numbered in first use along the restored faces.
    const auto corner0 = [](const rg::RG3DModel &m, std::size_t f) {
        const std::uint32_t v = m.faces[f].corners[0].vertex;
        return rg::Int3{m.vertices[3 * v], m.vertices[3 * v + 1], m.vertices[3 * v + 2]};
    };
    EXPECT_EQ(corner0(built.model, 0), (rg::Int3{256, 0, 0}));
    EXPECT_EQ(corner0(built.model, 1), (rg::Int3{0, -512, 0}));
    EXPECT_EQ(corner0(built.model, 2), (rg::Int3{-256, 0, 0}));
    EXPECT_EQ(built.model.faces[0].corners[0].vertex, 0u);
    EXPECT_EQ(built.model.faces[0].corners[1].vertex, 1u);
    in.faceOrder = {0, 0, 1};
    const rg::BuildResult bad = rg::BuildModel(in, V40());
    ASSERT_EQ(bad.warnings.size(), 1u);
    EXPECT_TRUE(Contains(bad.warnings[0], "face_order"));
    EXPECT_EQ(corner0(bad.model, 0), (rg::Int3{-256, 0, 0}));
}

TEST(RgWriterBuilder, TextureValues) {
    EXPECT_EQ(rg::TextureFromName("tex376_19"), 0x506FCC31u);
    EXPECT_EQ(rg::TextureFromName("color85"), 0xFFF05500u);
    EXPECT_FALSE(rg::TextureFromName("tex600_1"));
    EXPECT_FALSE(rg::TextureFromName("Material.001"));
    EXPECT_EQ(rg::TextureFromPath("C:/game/fxart/TEXBSI.376/19"), 0x506FCC31u);
    EXPECT_EQ(rg::TextureFromPath("textures/d76019.png"), 0x506FCC31u);
    EXPECT_EQ(rg::ParseDefaultTexture("color:255"), 0xFFF0FF00u);
    EXPECT_EQ(rg::ParseDefaultTexture("tex:376/19"), 0x506FCC31u);
    EXPECT_FALSE(rg::ParseDefaultTexture("color:256"));
    EXPECT_FALSE(rg::ParseDefaultTexture("tex:376"));
    EXPECT_FALSE(rg::ParseDefaultTexture("blue"));

    rg::BuildInput in = TriangleInput();
    in.polygons = {{0, {0, 1, 2}}, {1, {0, 1, 2}}, {2, {0, 1, 2}}, {3, {0, 1, 2}}};
    rg::BuildMaterial raw;
    raw.name = "tex1_1";
    raw.texRaw = 0xFFF0558Cu; // $rg.tex_raw wins, solid low byte kept
    raw.texHi = 63;
    rg::BuildMaterial path;
    path.texturePath = "TEXBSI.376#019";
    rg::BuildMaterial plain;
    plain.diffuse = rg::Float3{1.0f, 0.0f, 0.0f};
    in.materials = {in.materials[0], raw, path, plain};
    rg::BuildResult built = rg::BuildModel(in, V40());
    EXPECT_EQ(built.model.faces[0].texture, 0x506FCC31u);
    EXPECT_EQ(built.model.faces[1].texture, 0xFFF0558Cu);
    EXPECT_EQ(built.model.faces[1].texHi, 63);
    EXPECT_EQ(built.model.faces[2].texture, 0x506FCC31u);
    EXPECT_EQ(built.model.faces[3].texture, 0xFFF0FF00u); // the default, color:255
    // With a palette: the nearest entry to red. Entry i = (i, 255 − i, 7i): red is nearest to entry 255 − ...
    std::array<std::uint8_t, 768> palette{};
    palette[3 * 17] = 250; // entry 17 is almost red
    rg::BuildOptions o = V40();
    o.palette = palette;
    built = rg::BuildModel(in, o);
    EXPECT_EQ(built.model.faces[3].texture, 0xFFF01100u);
    o.defaultTexture = *rg::ParseDefaultTexture("tex:1/2"); // a texture default ignores the palette
    built = rg::BuildModel(in, o);
    EXPECT_EQ(built.model.faces[3].texture, *rg::EncodeBase40(1, 2));
}

TEST(RgWriterBuilder, UVsShiftByWholeTexturesThenClamp) {
    rg::BuildInput in = TriangleInput();
    in.materials[0].texW = 64;
    in.materials[0].texH = 64;
    in.uvs = {{40.0f, 1.0f}, {40.5f, 0.0f}, {41.0f, 1.0f}}; // U = 40960 + …: corner 0 outside i16
    rg::BuildResult built = rg::BuildModel(in, V40());
    EXPECT_TRUE(built.warnings.empty());
    const rg::Face &face = built.model.faces[0];
    EXPECT_EQ(face.corners[0].du, 0); // shifted by 40 textures
    EXPECT_EQ(face.corners[1].du, 512);
    EXPECT_EQ(face.corners[2].du, 512);
    in.uvs = {{0.0f, 1.0f}, {40.0f, 0.0f}, {0.0f, 1.0f}}; // a delta of 40960: clamped
    built = rg::BuildModel(in, V40());
    ASSERT_EQ(built.warnings.size(), 1u);
    EXPECT_TRUE(Contains(built.warnings[0], "clamped"));
    EXPECT_EQ(built.model.faces[0].corners[1].du, 32767);
    EXPECT_EQ(built.model.faces[0].corners[2].du, -32767);
}

TEST(RgWriterBuilder, LargePolygonsAskForTriangulation) {
    rg::BuildInput in = TriangleInput();
    rg::BuildPolygon big;
    for (int i = 0; i < 256; ++i) big.corners.push_back(static_cast<std::uint32_t>(i % 3));
    in.polygons = {big};
    EXPECT_TRUE(Contains(Thrown([&] { rg::BuildModel(in, V40()); }).message(), "triangulate"));
    in.polygons = {{0, {0, 1}}};
    EXPECT_TRUE(Contains(Thrown([&] { rg::BuildModel(in, V40()); }).message(), "no polygons"));
}

TEST(RgWriterBuilder, FramesRadiusAndType2) {
    rg::BuildInput in = TriangleInput();
    in.frames = {{{1, 0, 0}, {0, 3, 0}, {-1, 0, 0}}, {{1.1f, 0, 0}, {0, 2, 0}, {-1, 0, 0}}};
    rg::BuildOptions o;
    o.kind = rg::BuildOptions::Kind::Animated3DC;
    const rg::BuildResult built = rg::BuildModel(in, o);
    EXPECT_EQ(built.model.version, rg::Version::V40);
    EXPECT_EQ(built.model.frameType, 2u);
    ASSERT_EQ(built.model.frames.size(), 2u);
    EXPECT_EQ(built.model.radius, 768u); // the widest frame
    EXPECT_EQ(built.model.frames[1].positions[0], -282);
    EXPECT_TRUE(built.model.normalTable.empty());
    EXPECT_FALSE(built.model.hasSection4);
    const Bytes b = rg::WriteModel(built.model);
    EXPECT_EQ(U32At(b, 0x9E), 2u);
    EXPECT_EQ(Read(b).frames, built.model.frames);
    // A vertex that moves between frames is not welded to one that only starts at the same place.
    in.positions.push_back(in.positions[1]);
    in.normals.push_back(in.normals[1]);
    in.uvs.push_back(in.uvs[1]);
    for (auto &frame : in.frames) frame.push_back(frame[1]);
    in.frames[0][3] = {5, 5, 5};
    in.polygons.push_back({0, {0, 3, 2}});
    EXPECT_EQ(rg::BuildModel(in, o).model.vertexCount(), 4u);
    // A .3D of the same input: base pose only, with a warning.
    const rg::BuildResult still = rg::BuildModel(in, rg::BuildOptions{});
    EXPECT_TRUE(still.model.frames.empty());
    ASSERT_FALSE(still.warnings.empty());
    EXPECT_TRUE(Contains(still.warnings[0], "base pose"));
}

TEST(RgWriterBuilder, OverflowingFramesBecomeType0) {
    rg::BuildInput in = TriangleInput();
    in.frames = {{{200, 0, 0}, {0, 2, 0}, {-1, 0, 0}}}; // 199 units = 50944 raw
    rg::BuildOptions o;
    o.kind = rg::BuildOptions::Kind::Animated3DC;
    std::vector<std::string> warnings;
    const Bytes b = rg::WriteModel(rg::BuildModel(in, o).model, &warnings);
    ASSERT_EQ(warnings.size(), 1u);
    EXPECT_TRUE(Contains(warnings[0], "type 0"));
    EXPECT_EQ(U32At(b, 0x9E), 0u);
    EXPECT_EQ(Read(b).frames[0].positions[0], -51200);
}

TEST(RgWriterBuilder, StaticSceneAs3DCIsSingleFrameType8) {
    rg::BuildOptions o;
    o.kind = rg::BuildOptions::Kind::Animated3DC;
    const rg::BuildResult built = rg::BuildModel(TriangleInput(), o);
    Bytes expected = Triangle198();
    expected[0x9E] = 8;
    EXPECT_EQ(rg::WriteModel(built.model), expected);
}

TEST(RgWriterBuilder, Section4FromStoredGroups) {
    rg::BuildInput in = TriangleInput();
    in.polygons = {{0, {0, 1, 2}}, {0, {2, 1, 0}}};
    in.faceOrder = {1, 0};
    rg::BuildSection4Group g0, g1;
    g0.faces = {0};
    g0.opaque = std::array<float, 3>{0.5f, 0.25f, 0.125f};
    g1.faces = {1, 0};
    in.section4 = std::vector<rg::BuildSection4Group>{g0, g1};
    const rg::BuildResult built = rg::BuildModel(in, rg::BuildOptions{});
    ASSERT_EQ(built.model.section4.size(), 2u);
    EXPECT_EQ(built.model.section4[0].opaque, (std::array<float, 3>{0.5f, 0.25f, 0.125f}));
    ASSERT_EQ(built.model.section4[1].refs.size(), 2u);
    EXPECT_EQ(built.model.section4[1].refs[0].faceIndexTimes4, 4u);
    EXPECT_EQ(built.model.section4[1].refs[0].faceOffset, 0x40u + 34);
    EXPECT_EQ(built.model.section4[1].refs[1].faceOffset, 0x40u);
    const rg::RG3DModel back = Read(rg::WriteModel(built.model));
    EXPECT_EQ(back.section4, built.model.section4);
    // A Section4 of zero groups stays present, empty.
    in.section4 = std::vector<rg::BuildSection4Group>{};
    const rg::BuildResult empty = rg::BuildModel(in, rg::BuildOptions{});
    EXPECT_TRUE(empty.model.hasSection4);
    EXPECT_TRUE(empty.model.section4.empty());
    const Bytes b = rg::WriteModel(empty.model);
    EXPECT_NE(U32At(b, 0x1C), 0u);
    EXPECT_EQ(U32At(b, 0x20), 0u);
    // No stored groups: one group of every face.
    in.section4.reset();
    const rg::BuildResult one = rg::BuildModel(in, rg::BuildOptions{});
    ASSERT_EQ(one.model.section4.size(), 1u);
    EXPECT_EQ(one.model.section4[0].refs.size(), 2u);
}

} // namespace
