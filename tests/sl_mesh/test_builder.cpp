// Tests of the Second Life mesh writer's geometry pipeline, BuildAsset (docs/formats/sl-mesh.md §13, §15 "Writer"):
// the §11.2 triangle byte for byte, faces per material and submodels, the vertex split, quantization,
// weights, generated LODs, physics_convex and physics_mesh, the skin and the written header.
#include "importers/sl_mesh/asset_builder.hpp"

#include "common/compression.hpp"
#include "common/error.hpp"
#include "importers/sl_mesh/asset.hpp"
#include "importers/sl_mesh/llsd.hpp"
#include "support/expect_error.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <set>
#include <string>
#include <vector>

namespace {

using namespace gamefmt;
using namespace gamefmt::slmesh;
using namespace gamefmt::test;

using Bytes = std::vector<std::uint8_t>;

// ---------------------------------------------------------------- helpers

void Append(Bytes &out, std::initializer_list<int> bytes) {
    for (int b : bytes) out.push_back(static_cast<std::uint8_t>(b));
}
// 'k' + u32 BE length + key
void Key(Bytes &out, const char *key) {
    const std::size_t n = std::strlen(key);
    Append(out, {0x6B, 0, 0, 0, static_cast<int>(n)});
    out.insert(out.end(), key, key + n);
}
void Real(Bytes &out, std::initializer_list<int> be8) {
    out.push_back(0x72);
    Append(out, be8);
}

// A "<name>Domain" map: {Max: [n × max], Min: [n × min]}, each value an 8-byte big-endian real.
void Domain(Bytes &out, const char *name, int n, std::initializer_list<int> max, std::initializer_list<int> min) {
    Key(out, name);
    Append(out, {0x7B, 0, 0, 0, 2});
    Key(out, "Max");
    Append(out, {0x5B, 0, 0, 0, n});
    for (int i = 0; i < n; ++i) Real(out, max);
    Append(out, {0x5D});
    Key(out, "Min");
    Append(out, {0x5B, 0, 0, 0, n});
    for (int i = 0; i < n; ++i) Real(out, min);
    Append(out, {0x5D, 0x7D});
}

// §11.2, typed in from the reference: 338 bytes.
Bytes ReferenceTriangleLod() {
    Bytes b;
    Append(b, {0x5B, 0, 0, 0, 1});
    Append(b, {0x7B, 0, 0, 0, 6});
    Key(b, "Normal");
    Append(b, {0x62, 0, 0, 0, 0x12});
    for (int i = 0; i < 3; ++i) Append(b, {0x19, 0x36, 0x19, 0x36, 0xE5, 0xC9});
    Key(b, "Position");
    Append(b, {0x62, 0, 0, 0, 0x12});
    Append(b, {0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0, 0, 0xFF, 0xFF, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF});
    Domain(b, "PositionDomain", 3, {0x3F, 0xE0, 0, 0, 0, 0, 0, 0}, {0xBF, 0xE0, 0, 0, 0, 0, 0, 0}); // ±0.5
    Key(b, "TexCoord0");
    Append(b, {0x62, 0, 0, 0, 0x0C, 0, 0, 0, 0, 0xFF, 0xFF, 0, 0, 0, 0, 0xFF, 0xFF});
    Domain(b, "TexCoord0Domain", 2, {0x3F, 0xF0, 0, 0, 0, 0, 0, 0}, {0, 0, 0, 0, 0, 0, 0, 0}); // 0-1
    Key(b, "TriangleList");
    Append(b, {0x62, 0, 0, 0, 6, 0, 0, 1, 0, 2, 0});
    Append(b, {0x7D, 0x5D});
    return b;
}

// The §11.2 triangle: A(−.5,−.5,−.5) B(.5,−.5,.5) C(−.5,.5,.5), normal (−1,−1,1)/√3, UVs (0,0) (1,0) (0,1).
BuildFace ReferenceTriangle(unsigned material = 0) {
    BuildFace f;
    f.materialIndex = material;
    f.positions = {-0.5f, -0.5f, -0.5f, 0.5f, -0.5f, 0.5f, -0.5f, 0.5f, 0.5f};
    const float s = 1.0f / std::sqrt(3.0f);
    for (int i = 0; i < 3; ++i) f.normals.insert(f.normals.end(), {-s, -s, s});
    f.texCoords = {0, 0, 1, 0, 0, 1};
    f.indices = {0, 1, 2};
    return f;
}

// An n x n grid over [x0, x0 + size] x [y0, y0 + size], z = bump * sin * cos, normals +Z, UVs 0..1.
BuildFace Grid(unsigned n, float size, float bump, unsigned material = 0, float x0 = 0, float y0 = 0) {
    BuildFace f;
    f.materialIndex = material;
    for (unsigned j = 0; j < n; ++j)
        for (unsigned i = 0; i < n; ++i) {
            const float u = static_cast<float>(i) / static_cast<float>(n - 1);
            const float v = static_cast<float>(j) / static_cast<float>(n - 1);
            f.positions.insert(f.positions.end(),
                               {x0 + u * size, y0 + v * size, bump * std::sin(6.0f * u) * std::cos(5.0f * v)});
            f.normals.insert(f.normals.end(), {0, 0, 1});
            f.texCoords.insert(f.texCoords.end(), {u, v});
        }
    for (unsigned j = 0; j + 1 < n; ++j)
        for (unsigned i = 0; i + 1 < n; ++i) {
            const unsigned a = j * n + i, b = a + 1, c = a + n, d = c + 1;
            f.indices.insert(f.indices.end(), {a, b, d, a, d, c});
        }
    return f;
}

// A UV sphere (every vertex on the convex hull).
BuildFace Sphere(unsigned rings, unsigned segments, float radius) {
    BuildFace f;
    for (unsigned r = 0; r <= rings; ++r)
        for (unsigned s = 0; s < segments; ++s) {
            const float theta = 3.14159265f * static_cast<float>(r) / static_cast<float>(rings);
            const float phi = 6.2831853f * static_cast<float>(s) / static_cast<float>(segments);
            const float x = std::sin(theta) * std::cos(phi), y = std::sin(theta) * std::sin(phi), z = std::cos(theta);
            f.positions.insert(f.positions.end(), {radius * x, radius * y, radius * z});
            f.normals.insert(f.normals.end(), {x, y, z});
        }
    for (unsigned r = 0; r < rings; ++r)
        for (unsigned s = 0; s < segments; ++s) {
            const unsigned a = r * segments + s, b = r * segments + (s + 1) % segments;
            const unsigned c = a + segments, d = b + segments;
            if (r != 0) f.indices.insert(f.indices.end(), {a, c, b});
            if (r + 1 != rings) f.indices.insert(f.indices.end(), {b, c, d});
        }
    return f;
}

std::size_t Triangles(const Lod &lod) {
    std::size_t n = 0;
    for (const Face &f : lod.faces) n += f.noGeometry ? 0 : f.triangleCount();
    return n;
}

BuildOptions NoLods() {
    BuildOptions o;
    o.generateLods = false;
    return o;
}

Mat4 Translation(float x, float y, float z) {
    return Mat4::FromTranslation(Vec3(x, y, z));
}

// ---------------------------------------------------------------- §11.2

TEST(SlBuilder, ReferenceTriangleGivesThe338ReferenceBytes) {
    BuildInput input;
    input.lods[kHighLod].push_back(ReferenceTriangle());
    const BuildResult result = BuildAsset(input, NoLods());
    ASSERT_EQ(result.assets.size(), 1u);
    const SLMeshAsset &asset = result.assets[0];
    ASSERT_TRUE(asset.lods[kHighLod]);
    const Face &face = asset.lods[kHighLod]->faces.at(0);
    EXPECT_FALSE(face.normalizedScale); // already the unit cube
    EXPECT_FALSE(face.hasWeights);
    EXPECT_FALSE(asset.skin);
    const Bytes expected = ReferenceTriangleLod();
    ASSERT_EQ(expected.size(), 338u);
    const Bytes llsd = WriteBinaryLLSD(LodToLLSD(*asset.lods[kHighLod]));
    EXPECT_EQ(llsd, expected);
    // §11.1/§15: with stock zlib level 9 the block is 170 bytes starting 78 DA 8B 66 60 60, and the written
    // file carries exactly that block as high_lod.
    const Bytes block = DeflateZlib(llsd.data(), llsd.size(), 9);
    EXPECT_EQ(block.size(), 170u);
    EXPECT_EQ(Bytes(block.begin(), block.begin() + 6), (Bytes{0x78, 0xDA, 0x8B, 0x66, 0x60, 0x60}));
    const Bytes file = WriteAsset(asset);
    const LLSDParseResult header = ParseBinaryLLSD(file.data(), file.size());
    const LLSD *high = header.value.find("high_lod");
    ASSERT_NE(high, nullptr);
    EXPECT_EQ(high->find("size")->asInteger(), 170);
    const std::size_t at = header.end + static_cast<std::size_t>(high->find("offset")->asInteger());
    EXPECT_EQ(
        Bytes(file.begin() + static_cast<std::ptrdiff_t>(at), file.begin() + static_cast<std::ptrdiff_t>(at + 170)),
        block);
    // Without generation every lower level repeats the high one.
    for (int l = kLowestLod; l < kHighLod; ++l) {
        ASSERT_TRUE(asset.lods[l]) << l;
        EXPECT_EQ(*asset.lods[l], *asset.lods[kHighLod]) << l;
    }
}

// ---------------------------------------------------------------- faces and submodels

TEST(SlBuilder, FacesFollowMaterialIndicesAscending) {
    BuildInput input;
    input.lods[kHighLod].push_back(ReferenceTriangle(5));
    input.lods[kHighLod].push_back(ReferenceTriangle(2));
    input.lods[kHighLod].push_back(ReferenceTriangle(5)); // merged into material 5's face
    input.materialNames = {"a", "b", "two", "c", "d", "five"};
    BuildOptions options = NoLods();
    options.materialList = true;
    const BuildResult result = BuildAsset(input, options);
    const Lod &high = *result.assets.at(0).lods[kHighLod];
    ASSERT_EQ(high.faces.size(), 2u);
    EXPECT_EQ(high.faces[0].triangleCount(), 1u);
    EXPECT_EQ(high.faces[1].triangleCount(), 2u);
    EXPECT_EQ(high.faces[1].vertexCount(), 6u);
    ASSERT_TRUE(result.assets[0].materialList);
    EXPECT_EQ(*result.assets[0].materialList, (std::vector<std::string>{"two", "five"}));
}

TEST(SlBuilder, NineMaterialsFailWithAdvice) {
    BuildInput input;
    for (unsigned m = 0; m < 9; ++m) input.lods[kHighLod].push_back(ReferenceTriangle(m));
    const FormatError e = Thrown([&] { BuildAsset(input, NoLods()); });
    EXPECT_TRUE(Contains(e.message(), "more than 8 materials (9)")) << e.message();
    EXPECT_TRUE(Contains(e.message(), "GAMEFMT_SLMESH_SUBMODELS=1 (--sl-submodels)")) << e.message();
}

TEST(SlBuilder, NineMaterialsWithSubmodelsGiveTwoAssets) {
    BuildInput input;
    for (unsigned m = 0; m < 9; ++m) input.lods[kHighLod].push_back(ReferenceTriangle(m));
    for (unsigned m = 0; m < 9; ++m) input.materialNames.push_back("m" + std::to_string(m));
    BuildOptions options;
    options.submodels = true;
    options.materialList = true;
    const BuildResult result = BuildAsset(input, options);
    ASSERT_EQ(result.assets.size(), 2u);
    EXPECT_FALSE(result.assets[0].submodelId);
    ASSERT_TRUE(result.assets[1].submodelId);
    EXPECT_EQ(*result.assets[1].submodelId, 1);
    for (int l = kLowestLod; l <= kHighLod; ++l) {
        EXPECT_EQ(result.assets[0].lods[l]->faces.size(), 8u);
        EXPECT_EQ(result.assets[1].lods[l]->faces.size(), 1u);
    }
    EXPECT_EQ(*result.assets[1].materialList, std::vector<std::string>{"m8"});
    for (const SLMeshAsset &asset : result.assets) {
        EXPECT_TRUE(asset.physicsConvex && asset.physicsConvex->hasBoundingVerts);
        EXPECT_NO_THROW(WriteAsset(asset));
    }
}

// ---------------------------------------------------------------- vertex split (§13.3)

TEST(SlBuilder, SeventyThousandVertexFaceIsSplit) {
    // A strip of 35,000 quads: 70,002 vertices, 70,000 triangles.
    BuildFace f;
    const unsigned columns = 35001;
    for (unsigned i = 0; i < columns; ++i)
        for (unsigned row = 0; row < 2; ++row)
            f.positions.insert(f.positions.end(), {static_cast<float>(i) * 0.001f, static_cast<float>(row), 0.0f});
    for (unsigned i = 0; i + 1 < columns; ++i) {
        const unsigned a = 2 * i, b = a + 1, c = a + 2, d = a + 3;
        f.indices.insert(f.indices.end(), {a, c, d, a, d, b});
    }
    const std::size_t triangles = f.indices.size() / 3;
    ASSERT_GT(f.positions.size() / 3, 70000u);
    BuildInput input;
    input.lods[kHighLod].push_back(f);
    const BuildResult result = BuildAsset(input, NoLods());
    const Lod &high = *result.assets.at(0).lods[kHighLod];
    ASSERT_EQ(high.faces.size(), 2u);
    std::size_t total = 0;
    for (const Face &face : high.faces) {
        EXPECT_LE(face.vertexCount(), 65532u);
        total += face.triangleCount();
        for (std::uint16_t i : face.indices) ASSERT_LT(i, face.vertexCount());
    }
    EXPECT_EQ(total, triangles);
    EXPECT_EQ(high.faces[0].vertexCount(), 65532u); // runs are filled up to the limit
    // Both parts share the LOD's one PositionDomain.
    EXPECT_EQ(high.faces[0].positionDomain, high.faces[1].positionDomain);
}

TEST(SlBuilder, SplitPartsCountTowardTheEightFaces) {
    BuildInput input;
    for (unsigned m = 0; m < 7; ++m) input.lods[kHighLod].push_back(ReferenceTriangle(m));
    input.lods[kHighLod].push_back(Grid(8, 1.0f, 0.0f, 7)); // 64 vertices
    BuildOptions options = NoLods();
    options.maxFaceVertices = 40; // forces two parts for material 7: 9 faces
    const FormatError e = Thrown([&] { BuildAsset(input, options); });
    EXPECT_TRUE(Contains(e.message(), "more than 8 materials (9 faces")) << e.message();
    options.maxFaceVertices = 64;
    EXPECT_EQ(BuildAsset(input, options).assets.at(0).lods[kHighLod]->faces.size(), 8u);
}

// ---------------------------------------------------------------- quantization (§4.1, §13.6)

TEST(SlBuilder, QuarterInHalfDomainIs49151AndNormalizedScale) {
    BuildFace f = ReferenceTriangle();
    f.normals.clear();
    f.texCoords.clear();
    f.positions.insert(f.positions.end(), {0.25f, 0.25f, 0.0f});
    f.indices.insert(f.indices.end(), {0, 1, 3});
    BuildInput input;
    input.lods[kHighLod].push_back(f);
    Face face = BuildAsset(input, NoLods()).assets.at(0).lods[kHighLod]->faces.at(0);
    ASSERT_EQ(face.vertexCount(), 4u);
    EXPECT_EQ(face.positions[9], 49151); // 0.25 in ±0.5
    EXPECT_EQ(face.positions[10], 49151);
    EXPECT_EQ(face.positions[11], 32767); // 0.0 -> 32767 (truncation)
    EXPECT_FALSE(face.hasNormals);
    EXPECT_FALSE(face.hasTexCoords);
    EXPECT_FALSE(face.normalizedScale);

    // The same shape at 4 x 2 x 1 metres, off-centre: normalised back to ±0.5, scale kept.
    for (std::size_t i = 0; i < f.positions.size(); i += 3) {
        f.positions[i] = f.positions[i] * 4.0f + 10.0f;
        f.positions[i + 1] = f.positions[i + 1] * 2.0f - 3.0f;
        f.positions[i + 2] += 1.0f;
    }
    BuildInput scaled;
    scaled.lods[kHighLod].push_back(f);
    const BuildResult result = BuildAsset(scaled, NoLods());
    face = result.assets.at(0).lods[kHighLod]->faces.at(0);
    EXPECT_EQ(face.positions[9], 49151);
    ASSERT_TRUE(face.normalizedScale);
    EXPECT_EQ(*face.normalizedScale, (Real3{4.0, 2.0, 1.0}));
    EXPECT_EQ(face.positionDomain->min, (Real3{-0.5, -0.5, -0.5}));
    EXPECT_EQ(face.positionDomain->max, (Real3{0.5, 0.5, 0.5}));
    for (int l = kLowestLod; l <= kHighLod; ++l)
        for (const Face &lf : result.assets[0].lods[l]->faces) EXPECT_EQ(lf.normalizedScale, face.normalizedScale);
}

TEST(SlBuilder, ZeroRangeAxisAndFlatModel) {
    BuildFace f = Grid(4, 2.0f, 0.0f); // flat: z = 0 everywhere; UV v constant below
    for (std::size_t i = 1; i < f.texCoords.size(); i += 2) f.texCoords[i] = 0.75f;
    BuildInput input;
    input.lods[kHighLod].push_back(f);
    const BuildResult result = BuildAsset(input, NoLods());
    const SLMeshAsset &asset = result.assets.at(0);
    const Face &face = asset.lods[kHighLod]->faces.at(0);
    for (std::size_t i = 2; i < face.positions.size(); i += 3) EXPECT_EQ(face.positions[i], 0);
    EXPECT_EQ(face.positionDomain->min[2], face.positionDomain->max[2]);
    for (std::size_t i = 1; i < face.texCoords.size(); i += 2) EXPECT_EQ(face.texCoords[i], 0);
    EXPECT_EQ(face.texCoordDomain->min[1], 0.75);
    EXPECT_EQ(face.texCoordDomain->max[1], 0.75);
    ASSERT_TRUE(face.normalizedScale);
    EXPECT_EQ(*face.normalizedScale, (Real3{2.0, 2.0, 1.0})); // a zero extent stays 1

    // physics_convex of a flat model: the 8 corners of the bounding box, and a warning.
    ASSERT_TRUE(asset.physicsConvex);
    EXPECT_TRUE(asset.physicsConvex->hasBoundingVerts);
    EXPECT_EQ(asset.physicsConvex->boundingVerts.size(), 8u * 3u);
    EXPECT_FALSE(asset.physicsConvex->hasHullList);
    EXPECT_TRUE(std::any_of(result.warnings.begin(), result.warnings.end(),
                            [](const std::string &w) { return Contains(w, "8 corners"); }));
}

// ---------------------------------------------------------------- weights (§4.3, §13.7)

TEST(SlBuilder, WeightsTopFourRenormalisedDescendingWithTerminatorRule) {
    BuildFace f = ReferenceTriangle();
    f.positions.insert(f.positions.end(), {0.5f, 0.5f, -0.5f});
    f.normals.insert(f.normals.end(), {0, 0, 1});
    f.texCoords.insert(f.texCoords.end(), {1, 1});
    f.indices.insert(f.indices.end(), {0, 2, 3});
    // Vertex 0: joints 3 (0.25), 2 (0.75). Vertex 1: six influences, two dropped (<= 0), a tie at 0.1
    // (joint 5 beats joint 7), the top four renormalised. Vertex 2: joint 0 alone. Vertex 3: none.
    f.influences = {{3, 0.25f}, {2, 0.75f}, {7, 0.1f}, {0, 0.0f}, {2, 0.3f},
                    {5, 0.1f},  {4, -0.5f}, {1, 0.4f}, {3, 0.2f}, {0, 1.0f}};
    f.weightStart = {0, 2, 9, 10, 10};
    BuildInput input;
    input.lods[kHighLod].push_back(f);
    for (int j = 0; j < 8; ++j) {
        input.jointNames.push_back("j" + std::to_string(j));
        input.jointInverseBind.push_back(Translation(0, 0, -static_cast<float>(j)));
    }
    const BuildResult result = BuildAsset(input, NoLods());
    const Face &face = result.assets.at(0).lods[kHighLod]->faces.at(0);
    ASSERT_TRUE(face.hasWeights);
    ASSERT_EQ(face.weights.size(), 4u);
    EXPECT_EQ(face.weights[1].count, 4);
    for (int k = 0; k + 1 < 4; ++k)
        EXPECT_GE(face.weights[1].influences[k].weight, face.weights[1].influences[k + 1].weight);
    Bytes encoded;
    EncodeWeights(face.weights, encoded);
    // §11.3: the four records, 24 bytes.
    const Bytes expected = {0x02, 0xFF, 0xBF, 0x03, 0xFF, 0x3F, 0xFF,                               // 2 influences + FF
                            0x01, 0x66, 0x66, 0x02, 0xCC, 0x4C, 0x03, 0x33, 0x33, 0x05, 0x99, 0x19, // 4, no FF
                            0x00, 0xFF, 0xFF, 0xFF,                                                 // joint 0 at 1.0
                            0xFF};                                                                  // none
    EXPECT_EQ(encoded, expected);
    EXPECT_EQ(WriteBinaryLLSD(*LodToLLSD(*result.assets[0].lods[kHighLod]).array()[0].find("Weights")).size(),
              5u + 24u);
}

TEST(SlBuilder, SkinMatricesAndBindShape) {
    BuildFace f = ReferenceTriangle();
    for (std::size_t i = 0; i < f.positions.size(); i += 3) {
        f.positions[i] = f.positions[i] * 0.5f + 0.1f; // extent 0.5, centre (0.1, 0.2, 1.0) as §11.5
        f.positions[i + 1] = f.positions[i + 1] * 0.5f + 0.2f;
        f.positions[i + 2] = f.positions[i + 2] * 0.5f + 1.0f;
    }
    f.influences = {{0, 1.0f}, {0, 1.0f}, {1, 1.0f}};
    f.weightStart = {0, 1, 2, 3};
    BuildInput input;
    input.lods[kHighLod].push_back(f);
    input.jointNames = {"mPelvis", "mTorso"};
    Mat4 ib = Translation(0, 0, -1.067f);
    input.jointInverseBind = {ib, Translation(0.5f, 0.25f, -1.151f)};
    const BuildResult result = BuildAsset(input, NoLods());
    const SLMeshAsset &asset = result.assets.at(0);
    ASSERT_TRUE(asset.skin);
    EXPECT_EQ(asset.skin->jointNames, input.jointNames);
    ASSERT_EQ(asset.skin->inverseBind.size(), 2u);
    Matrix16 expectedIb{1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, FloatWidened(-1.067), 1};
    EXPECT_EQ(asset.skin->inverseBind[0], expectedIb);
    EXPECT_EQ(asset.skin->inverseBind[1][12], 0.5);
    EXPECT_EQ(asset.skin->inverseBind[1][13], 0.25);
    ASSERT_TRUE(asset.skin->bindShape);
    const Matrix16 expectedBs{0.5, 0, 0, 0, 0, 0.5, 0, 0, 0, 0, 0.5, 0, FloatWidened(0.1), FloatWidened(0.2), 1, 1};
    const Matrix16 &bs = *asset.skin->bindShape;
    for (int i = 0; i < 16; ++i) EXPECT_NEAR(bs[i], expectedBs[i], 1e-7) << i;
    for (int i = 0; i < 16; ++i) EXPECT_EQ(bs[i], FloatWidened(bs[i])) << i; // float-widened reals
    // Rigged: the de-normalisation is in the bind shape, not in NormalizedScale; every LOD face has weights.
    for (int l = kLowestLod; l <= kHighLod; ++l)
        for (const Face &face : asset.lods[l]->faces) {
            EXPECT_FALSE(face.normalizedScale);
            EXPECT_TRUE(face.hasWeights);
            EXPECT_EQ(face.weights.size(), face.vertexCount());
        }
}

TEST(SlBuilder, RigErrors) {
    BuildInput input;
    input.lods[kHighLod].push_back(ReferenceTriangle());
    for (int j = 0; j < 111; ++j) {
        input.jointNames.push_back("j" + std::to_string(j));
        input.jointInverseBind.emplace_back();
    }
    EXPECT_TRUE(Contains(Thrown([&] { BuildAsset(input); }).message(), "110"));

    input.jointNames.resize(2);
    input.jointInverseBind.resize(2);
    input.lods[kHighLod][0].influences = {{0, 1.0f}, {2, 1.0f}, {1, 1.0f}};
    input.lods[kHighLod][0].weightStart = {0, 1, 2, 3};
    EXPECT_TRUE(Contains(Thrown([&] { BuildAsset(input); }).message(), "joint 2"));

    BuildInput empty;
    EXPECT_TRUE(Contains(Thrown([&] { BuildAsset(empty); }).message(), "no triangles"));
}

// ---------------------------------------------------------------- LODs (§13.5)

TEST(SlBuilder, GeneratedLodsHaveEqualFacesAndFewerTriangles) {
    BuildInput input;
    input.lods[kHighLod].push_back(Grid(48, 2.0f, 0.2f, 0));
    input.lods[kHighLod].push_back(Grid(40, 1.0f, 0.1f, 3, 3.0f, 0.0f));
    // Weights on every vertex of material 3, to check they follow the vertices through compaction.
    BuildFace &rigged = input.lods[kHighLod][1];
    const std::size_t n = rigged.positions.size() / 3;
    for (std::size_t v = 0; v < n; ++v) {
        rigged.weightStart.push_back(static_cast<std::uint32_t>(rigged.influences.size()));
        rigged.influences.push_back({rigged.positions[3 * v] < 3.5f ? 0u : 1u, 1.0f});
    }
    rigged.weightStart.push_back(static_cast<std::uint32_t>(rigged.influences.size()));
    input.jointNames = {"mPelvis", "mTorso"};
    input.jointInverseBind = {Mat4(), Mat4()};

    const BuildResult result = BuildAsset(input);
    ASSERT_EQ(result.assets.size(), 1u);
    const SLMeshAsset &asset = result.assets[0];
    std::size_t triangles[4];
    for (int l = kLowestLod; l <= kHighLod; ++l) {
        ASSERT_TRUE(asset.lods[l]) << l;
        EXPECT_EQ(asset.lods[l]->faces.size(), 2u) << l;
        triangles[l] = Triangles(*asset.lods[l]);
        const Domain3 domain = *asset.lods[l]->faces[0].positionDomain;
        for (const Face &face : asset.lods[l]->faces) {
            ASSERT_FALSE(face.noGeometry);
            EXPECT_EQ(face.positionDomain, domain) << "one PositionDomain per LOD";
            EXPECT_EQ(face.normals.size(), face.positions.size());
            EXPECT_EQ(face.texCoords.size() / 2, face.vertexCount());
            ASSERT_EQ(face.weights.size(), face.vertexCount());
            for (std::uint16_t i : face.indices) ASSERT_LT(i, face.vertexCount());
        }
        // Weights followed their vertices: joint 0 only left of x = 3.5 (normalised: below the centre line).
        const Face &face = asset.lods[l]->faces[1];
        const double lo = face.positionDomain->min[0], hi = face.positionDomain->max[0];
        for (std::size_t v = 0; v < face.vertexCount(); ++v) {
            ASSERT_EQ(face.weights[v].count, 1);
            const float x = DequantizeComponent(face.positions[3 * v], lo, hi);
            // Scene x in [0, 4] normalised to [-0.5, 0.5]: 3.5 -> 0.375.
            EXPECT_EQ(face.weights[v].influences[0].joint, x < 0.375f ? 0 : 1) << "LOD " << l << " vertex " << v;
        }
    }
    EXPECT_LT(triangles[kMediumLod], triangles[kHighLod]);
    EXPECT_LT(triangles[kLowLod], triangles[kMediumLod]);
    EXPECT_LT(triangles[kLowestLod], triangles[kLowLod]);
    // About 1/2, 1/4 and 1/8 of the triangles.
    EXPECT_LE(triangles[kMediumLod] * 8, triangles[kHighLod] * 5);
    EXPECT_GE(triangles[kMediumLod] * 8, triangles[kHighLod] * 3);
    EXPECT_LE(triangles[kLowLod] * 16, triangles[kHighLod] * 5);
    EXPECT_LE(triangles[kLowestLod] * 32, triangles[kHighLod] * 5);
    EXPECT_GT(triangles[kLowestLod], 0u);
}

TEST(SlBuilder, GivenLodsAreUsedAsTheyAre) {
    BuildInput input;
    input.lods[kHighLod].push_back(Grid(10, 1.0f, 0.1f));
    input.lods[kMediumLod].push_back(Grid(10, 1.0f, 0.1f)); // not fewer: kept anyway
    input.lods[kLowestLod].push_back(Grid(3, 1.0f, 0.1f));
    const BuildResult result = BuildAsset(input);
    const SLMeshAsset &asset = result.assets.at(0);
    EXPECT_EQ(Triangles(*asset.lods[kHighLod]), 162u);
    EXPECT_EQ(Triangles(*asset.lods[kMediumLod]), 162u);
    EXPECT_EQ(Triangles(*asset.lods[kLowLod]), 162u); // missing: copied from the next higher given level
    EXPECT_EQ(Triangles(*asset.lods[kLowestLod]), 8u);
}

TEST(SlBuilder, TinyFacesRepeatInsteadOfVanishing) {
    BuildInput input;
    input.lods[kHighLod].push_back(ReferenceTriangle(0));
    input.lods[kHighLod].push_back(Grid(20, 1.0f, 0.1f, 1, 2.0f, 0.0f));
    const BuildResult result = BuildAsset(input);
    for (int l = kLowestLod; l <= kHighLod; ++l) {
        const Lod &lod = *result.assets.at(0).lods[l];
        ASSERT_EQ(lod.faces.size(), 2u);
        EXPECT_EQ(lod.faces[0].triangleCount(), 1u) << l;
        EXPECT_FALSE(lod.faces[1].noGeometry);
    }
}

// ---------------------------------------------------------------- physics (§6, §13.9)

void ExpectMinMaxOverPoints(const PhysicsConvex &convex) {
    ASSERT_TRUE(convex.domain);
    const std::vector<std::uint16_t> &q = convex.boundingVerts;
    for (int k = 0; k < 3; ++k) {
        std::uint16_t lo = 65535, hi = 0;
        for (std::size_t i = static_cast<std::size_t>(k); i < q.size(); i += 3) {
            lo = std::min(lo, q[i]);
            hi = std::max(hi, q[i]);
        }
        EXPECT_EQ(lo, 0) << "axis " << k;
        EXPECT_EQ(hi, 65535) << "axis " << k;
    }
}

void ExpectUniqueAtMost256(const PhysicsConvex &convex) {
    const std::vector<std::uint16_t> &q = convex.boundingVerts;
    std::set<std::array<std::uint16_t, 3>> unique;
    for (std::size_t i = 0; i + 2 < q.size(); i += 3) unique.insert({q[i], q[i + 1], q[i + 2]});
    EXPECT_EQ(unique.size() * 3, q.size());
    EXPECT_LE(unique.size(), 256u);
    EXPECT_GE(unique.size(), 4u);
}

TEST(SlBuilder, BoundingVertsAlwaysPresentAndAtMost256) {
    for (bool lods : {true, false}) {
        SCOPED_TRACE(lods ? "hull of the lowest LOD" : "simplifyPoints");
        BuildInput input;
        input.lods[kHighLod].push_back(Sphere(30, 40, 2.0f)); // 1,240 hull points
        BuildOptions options;
        options.generateLods = lods;
        const BuildResult result = BuildAsset(input, options);
        const SLMeshAsset &asset = result.assets.at(0);
        ASSERT_TRUE(asset.physicsConvex);
        EXPECT_TRUE(asset.physicsConvex->hasBoundingVerts);
        ExpectUniqueAtMost256(*asset.physicsConvex);
        ExpectMinMaxOverPoints(*asset.physicsConvex);
        // Domain inside the unit cube.
        for (int k = 0; k < 3; ++k) {
            EXPECT_GE(asset.physicsConvex->domain->min[k], -0.5);
            EXPECT_LE(asset.physicsConvex->domain->max[k], 0.5);
        }
    }
    // A small convex shape keeps its exact hull: the tetrahedron of §11.6.
    BuildFace tet;
    tet.positions = {-.5f, -.5f, -.5f, .5f, -.5f, -.5f, -.5f, .5f, -.5f, -.5f, -.5f, .5f};
    tet.indices = {0, 2, 1, 0, 1, 3, 0, 3, 2, 1, 2, 3};
    BuildInput input;
    input.lods[kHighLod].push_back(tet);
    const PhysicsConvex convex = *BuildAsset(input, NoLods()).assets.at(0).physicsConvex;
    EXPECT_EQ(convex.boundingVerts.size(), 12u);
    EXPECT_EQ(convex.domain->min, (Real3{-0.5, -0.5, -0.5}));
    EXPECT_EQ(convex.domain->max, (Real3{0.5, 0.5, 0.5}));
    EXPECT_EQ(WriteBinaryLLSD(*PhysicsConvexToLLSD(convex).find("BoundingVerts")).size(), 5u + 24u);
}

TEST(SlBuilder, PhysicsMeshNormalisedWithTheHighLodAndWithoutDegenerates) {
    BuildInput input;
    BuildFace high = ReferenceTriangle();
    for (float &p : high.positions) p *= 4.0f; // extent 4
    input.lods[kHighLod].push_back(high);
    BuildFace physics;
    physics.positions = {-2, -2, -2, 2, -2, 2, -2, 2, 2, 0, 0, 0, 1e-4f, 0, 0, 2e-4f, 0, 0};
    physics.indices = {0, 1, 2, 3, 4, 5}; // the second triangle is a sliver (collinear)
    input.physicsMesh.push_back(physics);
    const BuildResult result = BuildAsset(input, NoLods());
    const SLMeshAsset &asset = result.assets.at(0);
    ASSERT_TRUE(asset.physicsMesh);
    ASSERT_EQ(asset.physicsMesh->faces.size(), 1u);
    const Face &face = asset.physicsMesh->faces[0];
    EXPECT_EQ(face.triangleCount(), 1u);
    EXPECT_EQ(face.vertexCount(), 3u);
    EXPECT_EQ(face.positionDomain->min, (Real3{-0.5, -0.5, -0.5}));
    EXPECT_EQ(face.positionDomain->max, (Real3{0.5, 0.5, 0.5}));
    EXPECT_TRUE(std::any_of(result.warnings.begin(), result.warnings.end(),
                            [](const std::string &w) { return Contains(w, "degenerate"); }));
    // Without input physics there is no physics_mesh block.
    input.physicsMesh.clear();
    EXPECT_FALSE(BuildAsset(input, NoLods()).assets.at(0).physicsMesh);
}

// ---------------------------------------------------------------- the written file (§3, §13.10-11)

TEST(SlBuilder, WrittenHeaderOrderOffsetsAndSize) {
    BuildInput input;
    input.lods[kHighLod].push_back(Grid(12, 1.0f, 0.2f));
    input.physicsMesh.push_back(Grid(4, 1.0f, 0.2f));
    input.lods[kHighLod][0].influences.assign(144, {0, 1.0f});
    for (std::uint32_t v = 0; v <= 144; ++v) input.lods[kHighLod][0].weightStart.push_back(v);
    input.jointNames = {"mPelvis"};
    input.jointInverseBind = {Mat4()};
    const SLMeshAsset asset = BuildAsset(input).assets.at(0);
    const Bytes file = WriteAsset(asset);
    ASSERT_GT(file.size(), 2u);
    EXPECT_EQ(file[0], 0x7B); // no text prefix
    const LLSDParseResult header = ParseBinaryLLSD(file.data(), file.size());
    EXPECT_LT(header.end, 4096u);
    const char *const order[] = {"skin",       "physics_convex", "lowest_lod",  "low_lod",
                                 "medium_lod", "high_lod",       "physics_mesh"};
    std::int64_t expectedOffset = 0;
    for (const char *key : order) {
        const LLSD *entry = header.value.find(key);
        ASSERT_NE(entry, nullptr) << key;
        ASSERT_NE(entry->find("offset"), nullptr);
        EXPECT_EQ(entry->find("offset")->type(), LLSDType::Integer);
        EXPECT_EQ(entry->find("offset")->asInteger(), expectedOffset) << key;
        const std::int32_t size = entry->find("size")->asInteger();
        EXPECT_GT(size, 0);
        EXPECT_EQ(file[header.end + static_cast<std::size_t>(expectedOffset)], 0x78) << key; // zlib
        expectedOffset += size;
    }
    EXPECT_EQ(file.size(), header.end + static_cast<std::size_t>(expectedOffset)); // nothing after the blocks
    EXPECT_EQ(header.value.find("submodel_id"), nullptr);
    EXPECT_EQ(header.value.find("material_list"), nullptr);
    EXPECT_EQ(header.value.find("version"), nullptr);

    // And it reads back.
    const SLMeshAsset back = ReadAsset(file.data(), file.size());
    for (int l = kLowestLod; l <= kHighLod; ++l) EXPECT_EQ(*back.lods[l], *asset.lods[l]);
    EXPECT_EQ(*back.skin, *asset.skin);
    EXPECT_EQ(*back.physicsConvex, *asset.physicsConvex);
}

} // namespace
