// Scene tests of the Redguard importer (docs/formats/redguard-3d.md §9-§14, §18): the §14 triangle with a generated
// bank and palette, placeholders without them, solid colours, concave and large polygons through Triangulate, frame
// animation and its options, ROB segments of every type, v2.7, scale, glb2 export and metadata — all through a
// registered, validating Importer, on synthetic fixtures only.
#include "common/ascii.hpp"
#include "common/base64.hpp"
#include "common/compression.hpp"
#include "fixtures/redguard_fixtures.hpp"
#include "gamefmt/config.hpp"
#include "gamefmt/gamefmt.hpp"
#include "gamefmt/metadata.hpp"
#include "support/expect_error.hpp"
#include "support/import_helpers.hpp"
#include "support/scene_build.hpp"

#include <assimp/BaseImporter.h>
#include <assimp/Exporter.hpp>
#include <assimp/GltfMaterial.h>
#include <assimp/IOStream.hpp>
#include <assimp/IOSystem.hpp>
#include <assimp/Importer.hpp>
#include <assimp/commonMetaData.h>
#include <assimp/material.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <vector>

namespace {

using namespace gamefmt::test;
namespace rg = gamefmt::fixtures::rg;
using Bytes = std::vector<std::uint8_t>;

// ---------------------------------------------------------------- helpers

std::string MetaString(const aiMetadata *md, const char *key) {
    aiString s;
    if (md == nullptr || !md->Get(key, s)) return "<absent>";
    return s.C_Str();
}

int MetaInt(const aiMetadata *md, const char *key) {
    std::int32_t v = -12345;
    if (md == nullptr || !md->Get(key, v)) return -12345;
    return v;
}

std::string MaterialName(const aiScene *scene, const aiMesh *mesh) {
    aiString name;
    scene->mMaterials[mesh->mMaterialIndex]->Get(AI_MATKEY_NAME, name);
    return name.C_Str();
}

int MaterialInt(const aiMaterial *m, const char *key) {
    int v = -12345;
    m->Get(key, 0, 0, v);
    return v;
}

const aiMaterial *MaterialNamed(const aiScene *scene, const std::string &name) {
    for (unsigned i = 0; i < scene->mNumMaterials; ++i) {
        aiString n;
        scene->mMaterials[i]->Get(AI_MATKEY_NAME, n);
        if (name == n.C_Str()) return scene->mMaterials[i];
    }
    return nullptr;
}

bool LogHas(const ImportResult &r, const std::string &text) {
    for (const std::string &line : r.log)
        if (line.find(text) != std::string::npos) return true;
    return false;
}

void ExpectVec(const aiVector3D &v, float x, float y, float z, const char *what) {
    EXPECT_NEAR(v.x, x, 1e-6f) << what;
    EXPECT_NEAR(v.y, y, 1e-6f) << what;
    EXPECT_NEAR(v.z, z, 1e-6f) << what;
}

// The palette GeneratePalette writes: entry i = (i, 255 - i, (i * 7) & 0xFF), entry 0 black.
std::array<std::uint8_t, 3> PaletteEntry(unsigned i) {
    if (i == 0) return {0, 0, 0};
    return {static_cast<std::uint8_t>(i), static_cast<std::uint8_t>(255 - i),
            static_cast<std::uint8_t>((i * 7) & 0xFF)};
}

std::uint32_t Be32(const std::uint8_t *p) {
    return std::uint32_t(p[0]) << 24 | std::uint32_t(p[1]) << 16 | std::uint32_t(p[2]) << 8 | p[3];
}

// A minimal PNG decoder for what the importer writes (8-bit RGBA, non-interlaced): width, height, pixels.
bool DecodePng(const std::uint8_t *data, std::size_t size, unsigned &w, unsigned &h, Bytes &rgba) {
    static const std::uint8_t sig[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    if (size < 8 || std::memcmp(data, sig, 8) != 0) return false;
    Bytes idat;
    for (std::size_t at = 8; at + 12 <= size;) {
        const std::uint32_t len = Be32(data + at);
        const std::string type(reinterpret_cast<const char *>(data + at + 4), 4);
        if (at + 12 + len > size) return false;
        const std::uint8_t *payload = data + at + 8;
        if (type == "IHDR") {
            w = Be32(payload);
            h = Be32(payload + 4);
            if (payload[8] != 8 || payload[9] != 6 || payload[12] != 0) return false;
        } else if (type == "IDAT") {
            idat.insert(idat.end(), payload, payload + len);
        }
        at += 12 + len;
    }
    const Bytes raw = gamefmt::InflateZlibUnknownSize(idat.data(), idat.size(), "PNG");
    const std::size_t stride = std::size_t(w) * 4;
    if (raw.size() != (stride + 1) * h) return false;
    rgba.assign(stride * h, 0);
    for (unsigned y = 0; y < h; ++y) {
        const std::uint8_t filter = raw[y * (stride + 1)];
        const std::uint8_t *in = &raw[y * (stride + 1) + 1];
        std::uint8_t *out = &rgba[y * stride];
        const std::uint8_t *prev = y > 0 ? &rgba[(y - 1) * stride] : nullptr;
        for (std::size_t i = 0; i < stride; ++i) {
            const int a = i >= 4 ? out[i - 4] : 0, b = prev ? prev[i] : 0, c = (prev && i >= 4) ? prev[i - 4] : 0;
            int pred = 0;
            switch (filter) {
            case 0:
                pred = 0;
                break;
            case 1:
                pred = a;
                break;
            case 2:
                pred = b;
                break;
            case 3:
                pred = (a + b) / 2;
                break;
            case 4: {
                const int p = a + b - c, pa = std::abs(p - a), pb = std::abs(p - b), pc = std::abs(p - c);
                pred = (pa <= pb && pa <= pc) ? a : (pb <= pc ? b : c);
                break;
            }
            default:
                return false;
            }
            out[i] = static_cast<std::uint8_t>(in[i] + pred);
        }
    }
    return true;
}

// A folder with the §14 triangle as TRI.3D, and optionally bank 376 (image "D76019", 64×64) and TRI.COL.
std::filesystem::path TriangleFolder(const std::string &name, bool bank, bool palette,
                                     const Bytes &model = rg::Triangle198V40()) {
    const auto dir = ScratchDir(name);
    WriteBytes(dir / "TRI.3D", model);
    if (bank) {
        rg::GenImage image;
        image.name = "D76019";
        image.width = 64;
        image.height = 64;
        WriteBytes(dir / "TEXBSI.376", rg::GenerateTexBsi({image}));
    }
    if (palette) WriteBytes(dir / "TRI.COL", rg::GeneratePalette());
    return dir;
}

std::size_t TriangleCount(const aiScene *scene) {
    std::size_t n = 0;
    for (unsigned m = 0; m < scene->mNumMeshes; ++m)
        for (unsigned f = 0; f < scene->mMeshes[m]->mNumFaces; ++f) {
            EXPECT_EQ(scene->mMeshes[m]->mFaces[f].mNumIndices, 3u);
            ++n;
        }
    return n;
}

// The file vertex each mesh vertex came from, by its base position (the fixtures' base positions are distinct).
std::vector<std::size_t> FileVertexOf(const aiMesh *mesh, const std::vector<std::array<std::int32_t, 3>> &base) {
    std::vector<std::size_t> out;
    for (unsigned i = 0; i < mesh->mNumVertices; ++i) {
        std::size_t found = base.size();
        for (std::size_t v = 0; v < base.size(); ++v) {
            const aiVector3D p(-base[v][0] / 256.0f, -base[v][1] / 256.0f, base[v][2] / 256.0f);
            if ((p - mesh->mVertices[i]).Length() < 1e-6f) found = v;
        }
        out.push_back(found);
    }
    return out;
}

aiVector3D Converted(const std::array<std::int32_t, 3> &raw) {
    return aiVector3D(-raw[0] / 256.0f, -raw[1] / 256.0f, raw[2] / 256.0f);
}

// ---------------------------------------------------------------- §14 triangle

TEST(RgScene, Section14TriangleWithBankAndPalette) {
    const auto dir = TriangleFolder("rg_tri_textured", true, true);
    const ImportResult r = ImportFile(dir / "TRI.3D");
    ASSERT_TRUE(r) << r.error;
    EXPECT_TRUE(r.validationWarnings.empty());
    const aiScene *scene = r.scene;
    EXPECT_EQ(MetaString(scene->mMetaData, AI_METADATA_SOURCE_FORMAT), "Redguard 3D");
    EXPECT_EQ(MetaString(scene->mMetaData, AI_METADATA_SOURCE_FORMAT_VERSION), "v4.0");
    EXPECT_STREQ(scene->mRootNode->mName.C_Str(), "TRI.3D");
    ASSERT_EQ(ChildNames(scene->mRootNode), std::vector<std::string>{"TRI"});
    const aiNode *node = scene->mRootNode->mChildren[0];
    ASSERT_EQ(node->mNumMeshes, 1u);
    ASSERT_EQ(scene->mNumMeshes, 1u);
    const aiMesh *mesh = scene->mMeshes[0];
    EXPECT_STREQ(mesh->mName.C_Str(), "TRI_0");
    ASSERT_EQ(mesh->mNumVertices, 3u);
    ASSERT_EQ(mesh->mNumFaces, 1u);
    EXPECT_EQ(mesh->mPrimitiveTypes, unsigned(aiPrimitiveType_TRIANGLE));
    ASSERT_EQ(mesh->mFaces[0].mNumIndices, 3u);
    const unsigned *idx = mesh->mFaces[0].mIndices;
    ExpectVec(mesh->mVertices[idx[0]], 1, 0, 0, "v0");
    ExpectVec(mesh->mVertices[idx[1]], 0, 2, 0, "v1 (apex up)");
    ExpectVec(mesh->mVertices[idx[2]], -1, 0, 0, "v2");
    ASSERT_NE(mesh->mNormals, nullptr);
    for (unsigned i = 0; i < 3; ++i) ExpectVec(mesh->mNormals[i], 0, 0, 1, "normal");
    // CCW about +Z, as the normal says.
    const aiVector3D cross =
        (mesh->mVertices[idx[1]] - mesh->mVertices[idx[0]]) ^ (mesh->mVertices[idx[2]] - mesh->mVertices[idx[0]]);
    EXPECT_GT(cross.z, 0.0f);
    ASSERT_NE(mesh->mTextureCoords[0], nullptr);
    EXPECT_EQ(mesh->mNumUVComponents[0], 2u);
    ExpectVec(mesh->mTextureCoords[0][idx[0]], 0, 0, 0, "uv0");
    ExpectVec(mesh->mTextureCoords[0][idx[1]], 0.5f, 1, 0, "uv1");
    ExpectVec(mesh->mTextureCoords[0][idx[2]], 1, 0, 0, "uv2");

    EXPECT_EQ(MaterialName(scene, mesh), "tex376_19");
    const aiMaterial *mat = scene->mMaterials[mesh->mMaterialIndex];
    EXPECT_EQ(MaterialInt(mat, "$rg.tex_raw"), static_cast<int>(0x506FCC31u));
    EXPECT_EQ(MaterialInt(mat, "$rg.tex_hi"), 0);
    EXPECT_EQ(MaterialInt(mat, "$rg.tex_w"), 64);
    EXPECT_EQ(MaterialInt(mat, "$rg.tex_h"), 64);
    aiString diffuse, base;
    ASSERT_EQ(mat->GetTexture(aiTextureType_DIFFUSE, 0, &diffuse), AI_SUCCESS);
    ASSERT_EQ(mat->GetTexture(aiTextureType_BASE_COLOR, 0, &base), AI_SUCCESS);
    EXPECT_STREQ(diffuse.C_Str(), "*0");
    EXPECT_STREQ(base.C_Str(), "*0");
    int mapU = -1, mapV = -1;
    EXPECT_EQ(mat->Get(AI_MATKEY_MAPPINGMODE_U_DIFFUSE(0), mapU), AI_SUCCESS);
    EXPECT_EQ(mat->Get(AI_MATKEY_MAPPINGMODE_V_DIFFUSE(0), mapV), AI_SUCCESS);
    EXPECT_EQ(mapU, int(aiTextureMapMode_Wrap));
    EXPECT_EQ(mapV, int(aiTextureMapMode_Wrap));
    int mag = -1, min = -1; // nearest (GL_NEAREST): the glTF writer makes it a sampler
    EXPECT_EQ(mat->Get(AI_MATKEY_GLTF_MAPPINGFILTER_MAG(aiTextureType_DIFFUSE, 0), mag), AI_SUCCESS);
    EXPECT_EQ(mat->Get(AI_MATKEY_GLTF_MAPPINGFILTER_MIN(aiTextureType_DIFFUSE, 0), min), AI_SUCCESS);
    EXPECT_EQ(mag, 9728);
    EXPECT_EQ(min, 9728);

    ASSERT_EQ(scene->mNumTextures, 1u);
    const aiTexture *tex = scene->GetEmbeddedTexture("*0");
    ASSERT_NE(tex, nullptr);
    EXPECT_EQ(tex->mHeight, 0u);
    EXPECT_STREQ(tex->achFormatHint, "png");
    unsigned w = 0, h = 0;
    Bytes rgba;
    ASSERT_TRUE(DecodePng(reinterpret_cast<const std::uint8_t *>(tex->pcData), tex->mWidth, w, h, rgba));
    ASSERT_EQ(w, 64u);
    ASSERT_EQ(h, 64u);
    // The generator's pattern: index (x + y·w) & 0xFF; index 0 transparent, otherwise the palette opaque.
    std::size_t mismatches = 0, transparent = 0;
    for (unsigned y = 0; y < h; ++y)
        for (unsigned x = 0; x < w; ++x) {
            const unsigned i = (x + y * w) & 0xFF;
            const std::uint8_t *px = &rgba[(y * w + x) * 4];
            if (i == 0) {
                ++transparent;
                mismatches += px[3] != 0;
                continue;
            }
            const auto c = PaletteEntry(i);
            mismatches += px[0] != c[0] || px[1] != c[1] || px[2] != c[2] || px[3] != 255;
        }
    EXPECT_EQ(mismatches, 0u);
    EXPECT_EQ(transparent, 16u);
}

TEST(RgScene, WithoutTheBankAPlaceholderAndTheFallbackSize) {
    const auto dir = TriangleFolder("rg_tri_nobank", false, true);
    const ImportResult r = ImportFile(dir / "TRI.3D");
    ASSERT_TRUE(r) << r.error;
    EXPECT_TRUE(r.validationWarnings.empty());
    EXPECT_TRUE(LogHas(r, "TEXBSI.376 not found")) << "expected a warning about the bank";
    ASSERT_EQ(r.scene->mNumMeshes, 1u);
    EXPECT_EQ(r.scene->mNumTextures, 0u);
    const aiMesh *mesh = r.scene->mMeshes[0];
    EXPECT_EQ(MaterialName(r.scene, mesh), "tex376_19");
    const aiMaterial *mat = r.scene->mMaterials[mesh->mMaterialIndex];
    EXPECT_EQ(mat->GetTextureCount(aiTextureType_DIFFUSE), 0u);
    EXPECT_EQ(MaterialInt(mat, "$rg.tex_raw"), static_cast<int>(0x506FCC31u));
    EXPECT_EQ(MaterialInt(mat, "$rg.tex_w"), 256);
    EXPECT_EQ(MaterialInt(mat, "$rg.tex_h"), 256);
    const unsigned *idx = mesh->mFaces[0].mIndices;
    // U = 0, 512, 1024 and V = 1024, 0, 1024 in 1/16 texel over 256 texels.
    ExpectVec(mesh->mTextureCoords[0][idx[0]], 0, 0.75f, 0, "uv0");
    ExpectVec(mesh->mTextureCoords[0][idx[1]], 0.125f, 1, 0, "uv1");
    ExpectVec(mesh->mTextureCoords[0][idx[2]], 0.25f, 0.75f, 0, "uv2");

    // GAMEFMT_RG_FALLBACK_TEX_SIZE = 64 gives the §14 UVs without the bank.
    const ImportResult s = ImportFile(
        dir / "TRI.3D", 0, [](Assimp::Importer &imp) { imp.SetPropertyInteger(GAMEFMT_RG_FALLBACK_TEX_SIZE, 64); });
    ASSERT_TRUE(s) << s.error;
    const aiMesh *m64 = s.scene->mMeshes[0];
    ExpectVec(m64->mTextureCoords[0][m64->mFaces[0].mIndices[1]], 0.5f, 1, 0, "uv1 at 64");
    EXPECT_EQ(MaterialInt(s.scene->mMaterials[m64->mMaterialIndex], "$rg.tex_w"), 64);

    // From memory, with no side files anywhere: still imports.
    const ImportResult mem = ImportMemory(rg::Triangle198V40(), "3d");
    ASSERT_TRUE(mem) << mem.error;
    EXPECT_EQ(MaterialName(mem.scene, mem.scene->mMeshes[0]), "tex376_19");
}

TEST(RgScene, WithoutAPaletteTheBankGivesNoTextureAndAWarning) {
    const auto dir = TriangleFolder("rg_tri_nopalette", true, false);
    const ImportResult r = ImportFile(dir / "TRI.3D");
    ASSERT_TRUE(r) << r.error;
    EXPECT_TRUE(LogHas(r, "no palette found"));
    EXPECT_EQ(r.scene->mNumTextures, 0u);
    // The bank is found, so the UVs use its size.
    EXPECT_EQ(MaterialInt(r.scene->mMaterials[r.scene->mMeshes[0]->mMaterialIndex], "$rg.tex_w"), 64);

    // GAMEFMT_RG_PALETTE as a stem looked up in the asset folder.
    const auto assets = ScratchDir("rg_tri_palette_assets");
    WriteBytes(assets / "island.col", rg::GeneratePalette());
    const ImportResult p = ImportFile(dir / "TRI.3D", 0, [&assets](Assimp::Importer &imp) {
        imp.SetPropertyString(GAMEFMT_RG_ASSET_DIR, assets.string());
        imp.SetPropertyString(GAMEFMT_RG_PALETTE, "ISLAND");
    });
    ASSERT_TRUE(p) << p.error;
    EXPECT_FALSE(LogHas(p, "no palette found"));
    EXPECT_EQ(p.scene->mNumTextures, 1u);

    // ... and as a path to a file.
    const ImportResult q = ImportFile(dir / "TRI.3D", 0, [&assets](Assimp::Importer &imp) {
        imp.SetPropertyString(GAMEFMT_RG_PALETTE, (assets / "island.col").string());
    });
    ASSERT_TRUE(q) << q.error;
    EXPECT_EQ(q.scene->mNumTextures, 1u);

    // A palette option naming nothing is an error (issue #11: named option files must exist), as is an asset
    // folder that does not exist.
    const ImportResult g = ImportFile(
        dir / "TRI.3D", 0, [](Assimp::Importer &imp) { imp.SetPropertyString(GAMEFMT_RG_PALETTE, "NOSUCH"); });
    EXPECT_FALSE(g);
    EXPECT_TRUE(Contains(g.error, "Redguard 3D: palette \"NOSUCH\" (GAMEFMT_RG_PALETTE, --rg-palette) not found"))
        << g.error;
    const ImportResult h = ImportFile(dir / "TRI.3D", 0, [&dir](Assimp::Importer &imp) {
        imp.SetPropertyString(GAMEFMT_RG_ASSET_DIR, (dir / "no-such-folder").string());
    });
    EXPECT_FALSE(h);
    EXPECT_TRUE(Contains(h.error, "(GAMEFMT_RG_ASSET_DIR, --rg-assets) does not exist")) << h.error;
}

TEST(RgScene, BanksAreFoundInTheAssetFolderAndTheSiblingFxart) {
    // model in <root>/3dart/, bank and palette in <root>/fxart/ (lower-case file names).
    const auto root = ScratchDir("rg_fxart");
    std::filesystem::create_directories(root / "3dart");
    std::filesystem::create_directories(root / "fxart");
    WriteBytes(root / "3dart" / "TRI.3D", rg::Triangle198V40());
    rg::GenImage image;
    image.name = "D76019";
    image.width = 32;
    image.height = 16;
    WriteBytes(root / "fxart" / "texbsi.376", rg::GenerateTexBsi({image}));
    WriteBytes(root / "fxart" / "island.col", rg::GeneratePalette());
    const ImportResult r = ImportFile(root / "3dart" / "TRI.3D", 0, [](Assimp::Importer &imp) {
        imp.SetPropertyString(GAMEFMT_RG_PALETTE, "island");
    });
    ASSERT_TRUE(r) << r.error;
    EXPECT_EQ(r.scene->mNumTextures, 1u);
    const aiMaterial *mat = r.scene->mMaterials[r.scene->mMeshes[0]->mMaterialIndex];
    EXPECT_EQ(MaterialInt(mat, "$rg.tex_w"), 32);
    EXPECT_EQ(MaterialInt(mat, "$rg.tex_h"), 16);
}

// ---------------------------------------------------------------- solids and polygons

TEST(RgScene, SolidFacesAreColouredFromThePalette) {
    const auto dir = ScratchDir("rg_zoo_solid");
    WriteBytes(dir / "ZOO.3D", rg::Generate(rg::PolygonZoo()));
    WriteBytes(dir / "ZOO.COL", rg::GeneratePalette());
    const ImportResult r = ImportFile(dir / "ZOO.3D");
    ASSERT_TRUE(r) << r.error;
    EXPECT_TRUE(r.validationWarnings.empty());
    // Faces 1 (0xFFF05500, tex_hi 6) and 2 (0xFFF0558C, tex_hi 63): two material keys, both colour 85.
    std::size_t solids = 0;
    for (unsigned i = 0; i < r.scene->mNumMaterials; ++i) {
        const aiMaterial *m = r.scene->mMaterials[i];
        aiString name;
        m->Get(AI_MATKEY_NAME, name);
        if (std::string(name.C_Str()) != "color85") continue;
        ++solids;
        aiColor4D diffuse, base;
        ASSERT_EQ(m->Get(AI_MATKEY_COLOR_DIFFUSE, diffuse), AI_SUCCESS);
        ASSERT_EQ(m->Get(AI_MATKEY_BASE_COLOR, base), AI_SUCCESS);
        const auto c = PaletteEntry(85);
        EXPECT_FLOAT_EQ(diffuse.r, c[0] / 255.0f);
        EXPECT_FLOAT_EQ(diffuse.g, c[1] / 255.0f);
        EXPECT_FLOAT_EQ(diffuse.b, c[2] / 255.0f);
        EXPECT_FLOAT_EQ(base.r, diffuse.r);
        EXPECT_FLOAT_EQ(base.g, diffuse.g);
        EXPECT_FLOAT_EQ(base.b, diffuse.b);
        const int raw = MaterialInt(m, "$rg.tex_raw"), hi = MaterialInt(m, "$rg.tex_hi");
        EXPECT_TRUE((raw == static_cast<int>(0xFFF05500u) && hi == 6) ||
                    (raw == static_cast<int>(0xFFF0558Cu) && hi == 63))
            << std::hex << raw << " " << hi;
        EXPECT_EQ(MaterialInt(m, "$rg.tex_w"), 256);
    }
    EXPECT_EQ(solids, 2u);
    EXPECT_NE(MaterialNamed(r.scene, "tex0_0"), nullptr);     // a00000
    EXPECT_NE(MaterialNamed(r.scene, "tex599_999"), nullptr); // f99999
}

TEST(RgScene, PolygonZooTriangulatesToSumOfNMinus2) {
    const auto dir = ScratchDir("rg_zoo_tri");
    WriteBytes(dir / "ZOO.3D", rg::Generate(rg::PolygonZoo()));
    // Raw: polygons as stored (the concave L-hexagon already ear-clipped).
    const ImportResult raw = ImportFile(dir / "ZOO.3D");
    ASSERT_TRUE(raw) << raw.error;
    EXPECT_TRUE(raw.validationWarnings.empty());
    std::multiset<unsigned> sizes;
    for (unsigned m = 0; m < raw.scene->mNumMeshes; ++m)
        for (unsigned f = 0; f < raw.scene->mMeshes[m]->mNumFaces; ++f)
            sizes.insert(raw.scene->mMeshes[m]->mFaces[f].mNumIndices);
    for (const unsigned n : {4u, 5u, 10u, 11u, 19u, 255u}) EXPECT_GE(sizes.count(n), 1u) << n;
    EXPECT_EQ(sizes.count(6), 0u); // the L-hexagon is concave: emitted as its 4 triangles
    const aiNode *node = Child(raw.scene->mRootNode, "ZOO");
    ASSERT_NE(node, nullptr);
    const std::string order = MetaString(node->mMetaData, "rg.face_order");
    EXPECT_NE(order.find("7x4"), std::string::npos) << order;

    const ImportResult tri = ImportFile(dir / "ZOO.3D", aiProcess_Triangulate);
    ASSERT_TRUE(tri) << tri.error;
    EXPECT_TRUE(tri.validationWarnings.empty());
    EXPECT_EQ(TriangleCount(tri.scene), 301u);
}

// Quads (scene.cpp: the plainly-convex shortcut and the exact projected test must agree): a square and a quad
// whose third corner turns by only 1/10⁶ stay one polygon; a dart (a reflex corner) and the same near-straight
// corner turned the other way are cut in two; a quad with all corners on a line (no area) stays as stored.
TEST(RgScene, QuadsStayWholeExactlyWhenConvex) {
    using Quad = std::array<std::array<std::int32_t, 2>, 4>;
    const std::vector<std::pair<Quad, unsigned>> quads = {
        {{{{0, 0}, {256, 0}, {256, 256}, {0, 256}}}, 1},         // square
        {{{{0, 0}, {1000000, 0}, {2000000, 1}, {0, 1000}}}, 1},  // barely convex
        {{{{0, 0}, {1024, 0}, {256, 256}, {0, 1024}}}, 2},       // dart: reflex at (256, 256)
        {{{{0, 0}, {1000000, 0}, {2000000, -1}, {0, 1000}}}, 2}, // barely reflex
        {{{{0, 0}, {1000, 0}, {2000, 0}, {3000, 0}}}, 1},        // collinear: no area
    };
    rg::GenModel model;
    model.version = "v5.0";
    model.normals = rg::GenModel::Normals::None;
    for (const auto &[quad, pieces] : quads) {
        rg::GenFace face;
        for (const auto &p : quad) {
            face.vertices.push_back(static_cast<std::uint32_t>(model.vertices.size()));
            model.vertices.push_back({p[0], p[1], 0});
        }
        model.faces.push_back(face);
    }
    const auto dir = ScratchDir("rg_quads");
    WriteBytes(dir / "Q.3D", rg::Generate(model));
    const ImportResult r = ImportFile(dir / "Q.3D");
    ASSERT_TRUE(r) << r.error;
    const aiNode *node = Child(r.scene->mRootNode, "Q");
    ASSERT_NE(node, nullptr);
    EXPECT_EQ(MetaString(node->mMetaData, "rg.face_order"), "m0:0-1,2x2,3x2,4");
    ASSERT_EQ(r.scene->mNumMeshes, 1u);
    std::vector<unsigned> sizes;
    for (unsigned f = 0; f < r.scene->mMeshes[0]->mNumFaces; ++f)
        sizes.push_back(r.scene->mMeshes[0]->mFaces[f].mNumIndices);
    EXPECT_EQ(sizes, (std::vector<unsigned>{4, 4, 3, 3, 3, 3, 4}));
}

TEST(RgScene, ConcaveLHexagonTriangulatesWithoutOverlap) {
    rg::GenModel model;
    model.version = "v5.0";
    rg::GenFace face;
    for (const auto &p : std::vector<std::array<std::int32_t, 2>>{{0, 0}, {2, 0}, {2, 1}, {1, 1}, {1, 2}, {0, 2}}) {
        face.vertices.push_back(static_cast<std::uint32_t>(model.vertices.size()));
        model.vertices.push_back({256 * p[0], 256 * p[1], 0});
    }
    model.faces = {face};
    const auto dir = ScratchDir("rg_concave");
    WriteBytes(dir / "L.3D", rg::Generate(model));
    for (const unsigned flags :
         {0u, unsigned(aiProcess_Triangulate), unsigned(aiProcess_Triangulate | aiProcess_JoinIdenticalVertices)}) {
        const ImportResult r = ImportFile(dir / "L.3D", flags);
        ASSERT_TRUE(r) << r.error;
        EXPECT_TRUE(r.validationWarnings.empty());
        ASSERT_EQ(r.scene->mNumMeshes, 1u);
        const aiMesh *mesh = r.scene->mMeshes[0];
        ASSERT_EQ(mesh->mNumFaces, 4u) << flags;
        double total = 0;
        for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
            ASSERT_EQ(mesh->mFaces[f].mNumIndices, 3u);
            const aiVector3D a = mesh->mVertices[mesh->mFaces[f].mIndices[0]];
            const aiVector3D b = mesh->mVertices[mesh->mFaces[f].mIndices[1]];
            const aiVector3D c = mesh->mVertices[mesh->mFaces[f].mIndices[2]];
            const double area = 0.5 * ((b - a) ^ (c - a)).z; // Assimp frame: CCW about +Z as stored
            EXPECT_GT(area, 1e-6) << "triangle " << f << " is flipped or empty";
            total += area;
            // The centroid lies inside the L (native x = −X, y = −Y).
            const double x = -(a.x + b.x + c.x) / 3, y = -(a.y + b.y + c.y) / 3;
            EXPECT_TRUE(x > 0 && x < 2 && y > 0 && y < 2 && !(x > 1 && y > 1))
                << "triangle " << f << " at " << x << "," << y;
        }
        EXPECT_NEAR(total, 3.0, 1e-6) << flags;
    }
}

// Faces whose outline is not simple or has no area: Assimp 5.2.5's triangulation drops the self-crossing 7-gon
// outright (a mesh of only such faces went empty), so the importer ear-clips every face that is not convex and
// simple, and leaves only the convex pentagon to aiProcess_Triangulate.
TEST(RgScene, TangledOutlinesAreEarClippedSoNoTriangleIsLost) {
    const auto dir = ScratchDir("rg_tangled");
    WriteBytes(dir / "TANGLE.3D", rg::Generate(rg::TangledPolygons()));
    const ImportResult raw = ImportFile(dir / "TANGLE.3D");
    ASSERT_TRUE(raw) << raw.error;
    EXPECT_TRUE(raw.validationWarnings.empty());
    ASSERT_EQ(raw.scene->mNumMeshes, 1u);
    std::multiset<unsigned> sizes;
    for (unsigned f = 0; f < raw.scene->mMeshes[0]->mNumFaces; ++f)
        sizes.insert(raw.scene->mMeshes[0]->mFaces[f].mNumIndices);
    EXPECT_EQ(sizes, (std::multiset<unsigned>{3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 3, 5}));
    const aiNode *node = Child(raw.scene->mRootNode, "TANGLE");
    ASSERT_NE(node, nullptr);
    EXPECT_EQ(MetaString(node->mMetaData, "rg.face_order"), "m0:0x5,1x3,2x3,3");

    for (const unsigned flags :
         {unsigned(aiProcess_Triangulate), unsigned(aiProcessPreset_TargetRealtime_MaxQuality)}) {
        const ImportResult r = ImportFile(dir / "TANGLE.3D", flags);
        ASSERT_TRUE(r) << r.error;
        EXPECT_TRUE(r.validationWarnings.empty());
        EXPECT_EQ(TriangleCount(r.scene), 14u) << flags;
    }
}

// ---------------------------------------------------------------- animation

TEST(RgScene, AnimatedType2FramesAndMorphChannels) {
    const rg::GenModel model = rg::AnimatedType2();
    const auto dir = ScratchDir("rg_anim");
    WriteBytes(dir / "PYR.3DC", rg::Generate(model));
    const ImportResult r = ImportFile(dir / "PYR.3DC");
    ASSERT_TRUE(r) << r.error;
    EXPECT_TRUE(r.validationWarnings.empty());
    const aiScene *scene = r.scene;
    ASSERT_EQ(scene->mNumMeshes, 2u); // the four textured sides, the solid base
    std::vector<std::vector<std::array<std::int32_t, 3>>> frames = {model.vertices};
    for (const auto &f : model.frames) frames.push_back(f);
    for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
        const aiMesh *mesh = scene->mMeshes[m];
        ASSERT_EQ(mesh->mNumAnimMeshes, 4u);
        EXPECT_EQ(mesh->mMethod, unsigned(aiMorphingMethod_MORPH_NORMALIZED));
        const std::vector<std::size_t> fileVertex = FileVertexOf(mesh, model.vertices);
        for (unsigned k = 0; k < 4; ++k) {
            const aiAnimMesh *target = mesh->mAnimMeshes[k];
            EXPECT_EQ(std::string(target->mName.C_Str()), "frame" + std::to_string(k));
            ASSERT_EQ(target->mNumVertices, mesh->mNumVertices);
            ASSERT_NE(target->mNormals, nullptr);
            for (unsigned i = 0; i < mesh->mNumVertices; ++i) {
                ASSERT_LT(fileVertex[i], model.vertices.size());
                const aiVector3D want = Converted(frames[k][fileVertex[i]]);
                EXPECT_EQ(target->mVertices[i], want) << "mesh " << m << " frame " << k << " vertex " << i;
                EXPECT_NEAR(target->mNormals[i].Length(), 1.0f, 1e-5f);
            }
        }
    }
    ASSERT_EQ(scene->mNumAnimations, 1u);
    const aiAnimation *anim = scene->mAnimations[0];
    EXPECT_STREQ(anim->mName.C_Str(), "frames");
    EXPECT_EQ(anim->mTicksPerSecond, 12.0);
    EXPECT_EQ(anim->mDuration, 2.0);
    EXPECT_EQ(anim->mNumChannels, 0u);
    ASSERT_EQ(anim->mNumMorphMeshChannels, 2u);
    for (unsigned c = 0; c < 2; ++c) {
        const aiMeshMorphAnim *channel = anim->mMorphMeshChannels[c];
        EXPECT_STREQ(channel->mName.C_Str(), scene->mMeshes[c]->mName.C_Str());
        ASSERT_EQ(channel->mNumKeys, 3u); // frame 0 not keyed by default
        for (unsigned k = 0; k < 3; ++k) {
            const aiMeshMorphKey &key = channel->mKeys[k];
            EXPECT_EQ(key.mTime, double(k));
            ASSERT_EQ(key.mNumValuesAndWeights, 4u);
            for (unsigned j = 0; j < 4; ++j) {
                EXPECT_EQ(key.mValues[j], j);
                EXPECT_EQ(key.mWeights[j], j == k + 1 ? 1.0 : 0.0);
            }
        }
    }
    const aiNode *node = Child(scene->mRootNode, "PYR");
    ASSERT_NE(node, nullptr);
    EXPECT_EQ(MetaInt(node->mMetaData, "rg.frame_type"), 2);
    EXPECT_EQ(MetaInt(node->mMetaData, "rg.num_frames"), 4);
    EXPECT_EQ(MetaString(node->mMetaData, "rg.vertex_normals"), "direct");
    // Faces {0,1,4} {1,2,4} … use the vertices first in the order 0, 1, 4, 2, 3.
    EXPECT_EQ(MetaString(node->mMetaData, "rg.vertex_order"), "0-1,4,2-3");

    // The base mesh is frame 0.
    const std::vector<std::size_t> fileVertex = FileVertexOf(scene->mMeshes[0], model.vertices);
    for (const std::size_t v : fileVertex) EXPECT_LT(v, model.vertices.size());
}

TEST(RgScene, AnimationOptions) {
    const rg::GenModel model = rg::AnimatedType2();
    const auto dir = ScratchDir("rg_anim_options");
    WriteBytes(dir / "PYR.3DC", rg::Generate(model));
    const ImportResult r = ImportFile(dir / "PYR.3DC", 0, [](Assimp::Importer &imp) {
        imp.SetPropertyFloat(GAMEFMT_RG_FPS, 24.0f);
        imp.SetPropertyBool(GAMEFMT_RG_INCLUDE_FRAME0, true);
        imp.SetPropertyInteger(GAMEFMT_RG_BASE_FRAME, 2);
    });
    ASSERT_TRUE(r) << r.error;
    EXPECT_TRUE(r.validationWarnings.empty());
    const aiAnimation *anim = r.scene->mAnimations[0];
    EXPECT_EQ(anim->mTicksPerSecond, 24.0);
    EXPECT_EQ(anim->mDuration, 3.0);
    const aiMeshMorphAnim *channel = anim->mMorphMeshChannels[0];
    ASSERT_EQ(channel->mNumKeys, 4u);
    for (unsigned k = 0; k < 4; ++k) {
        EXPECT_EQ(channel->mKeys[k].mTime, double(k));
        for (unsigned j = 0; j < 4; ++j) EXPECT_EQ(channel->mKeys[k].mWeights[j], j == k ? 1.0 : 0.0);
    }
    // Base = frame 2: the mesh shows frame 2's positions, and the anim meshes still hold every frame.
    const aiMesh *mesh = r.scene->mMeshes[0];
    for (unsigned i = 0; i < mesh->mNumVertices; ++i) EXPECT_EQ(mesh->mVertices[i], mesh->mAnimMeshes[2]->mVertices[i]);
    bool differsFromFrame0 = false;
    for (unsigned i = 0; i < mesh->mNumVertices; ++i)
        differsFromFrame0 |= !(mesh->mVertices[i] == mesh->mAnimMeshes[0]->mVertices[i]);
    EXPECT_TRUE(differsFromFrame0);
    EXPECT_EQ(MetaInt(Child(r.scene->mRootNode, "PYR")->mMetaData, "rg.base_frame"), 2);
}

TEST(RgScene, AnimatedSceneExportsToGlb2) {
    const auto dir = ScratchDir("rg_anim_glb");
    WriteBytes(dir / "PYR.3DC", rg::Generate(rg::AnimatedType2()));
    const ImportResult r = ImportFile(dir / "PYR.3DC");
    ASSERT_TRUE(r) << r.error;
    Assimp::Exporter exporter;
    const aiExportDataBlob *blob = exporter.ExportToBlob(r.scene, "glb2");
    ASSERT_NE(blob, nullptr) << exporter.GetErrorString();
    // 5.2.5's glb2 writer keeps the targets but drops the weight track (docs/formats/redguard-3d.md §13), and its glTF
    // reader then makes an animation without channels, which validation rejects: read it back raw.
    Assimp::Importer back;
    const aiScene *again = back.ReadFileFromMemory(blob->data, blob->size, 0, "glb");
    ASSERT_NE(again, nullptr) << back.GetErrorString();
    ASSERT_GE(again->mNumMeshes, 1u);
    EXPECT_EQ(again->mMeshes[0]->mNumAnimMeshes, 4u);
    // The assbin writer deep-copies the morph channels too (aiMeshAnim channels would double-free here).
    EXPECT_NE(exporter.ExportToBlob(r.scene, "assbin"), nullptr) << exporter.GetErrorString();
}

// ---------------------------------------------------------------- ROB

TEST(RgScene, RobWithEverySegmentType) {
    const auto dir = ScratchDir("rg_rob");
    const Bytes rob = rg::GenerateRob({{"TRI", 0, rg::Triangle198V40()},
                                       {"MENU", 256, rg::Generate(rg::MultiFrameType0())},
                                       {"EXT", 512, {}},
                                       {"GONE", 512, {}},
                                       {"ODD", 7, rg::Triangle198V40()},
                                       {"TRI", 0, rg::Triangle246V50()},
                                       {"EIGHTCHR", 0, rg::Triangle198V40()}});
    WriteBytes(dir / "ARCH.ROB", rob);
    WriteBytes(dir / "ext.3dc", rg::Generate(rg::AnimatedType2())); // found whatever the case
    const ImportResult r = ImportFile(dir / "ARCH.ROB");
    ASSERT_TRUE(r) << r.error;
    EXPECT_TRUE(r.validationWarnings.empty());
    const aiScene *scene = r.scene;
    EXPECT_EQ(MetaString(scene->mMetaData, AI_METADATA_SOURCE_FORMAT), "Redguard ROB archive");
    EXPECT_EQ(ChildNames(scene->mRootNode),
              (std::vector<std::string>{"TRI", "MENU", "EXT", "GONE", "TRI.1", "EIGHTCHR"}));
    EXPECT_TRUE(LogHas(r, "GONE.3DC, which was not found"));
    EXPECT_TRUE(LogHas(r, "unknown type 7"));

    const aiNode *tri = Child(scene->mRootNode, "TRI");
    EXPECT_EQ(tri->mNumMeshes, 1u);
    EXPECT_EQ(MetaString(tri->mMetaData, "rg.segment_name"), "TRI");
    EXPECT_EQ(MetaInt(tri->mMetaData, "rg.segment_type"), 0);
    EXPECT_EQ(MetaString(tri->mMetaData, "rg.version"), "v4.0");
    const aiNode *tri1 = Child(scene->mRootNode, "TRI.1");
    EXPECT_EQ(MetaString(tri1->mMetaData, "rg.segment_name"), "TRI");
    EXPECT_EQ(MetaString(tri1->mMetaData, "rg.version"), "v5.0");

    const aiNode *menu = Child(scene->mRootNode, "MENU");
    ASSERT_GE(menu->mNumMeshes, 1u);
    EXPECT_EQ(MetaInt(menu->mMetaData, "rg.segment_type"), 256);
    EXPECT_EQ(scene->mMeshes[menu->mMeshes[0]]->mNumAnimMeshes, 3u);
    // Type 0 multi-frame: frame 1 moves the apex far outside i16 (absolute positions).
    const rg::GenModel menuModel = rg::MultiFrameType0();
    const aiMesh *menuMesh = scene->mMeshes[menu->mMeshes[0]];
    const std::vector<std::size_t> fv = FileVertexOf(menuMesh, menuModel.vertices);
    for (unsigned i = 0; i < menuMesh->mNumVertices; ++i)
        EXPECT_EQ(menuMesh->mAnimMeshes[1]->mVertices[i], Converted(menuModel.frames[0][fv[i]]));

    const aiNode *ext = Child(scene->mRootNode, "EXT");
    ASSERT_GE(ext->mNumMeshes, 1u);
    EXPECT_EQ(MetaInt(ext->mMetaData, "rg.segment_type"), 512);
    // The lookup tries EXT.3DC before ext.3dc: a case-insensitive file system (Windows) finds the first spelling.
    EXPECT_NE(gamefmt::AsciiLower(MetaString(ext->mMetaData, "rg.external")).find("ext.3dc"), std::string::npos);
    EXPECT_EQ(scene->mMeshes[ext->mMeshes[0]]->mNumAnimMeshes, 4u);

    const aiNode *gone = Child(scene->mRootNode, "GONE");
    EXPECT_EQ(gone->mNumMeshes, 0u);
    EXPECT_EQ(MetaString(gone->mMetaData, "rg.external"), "");
    EXPECT_EQ(MetaInt(gone->mMetaData, "rg.segment_type"), 512);

    // Materials are shared scene-wide, and every mesh name is unique (the morph channels name meshes).
    std::set<std::string> meshNames;
    for (unsigned m = 0; m < scene->mNumMeshes; ++m) meshNames.insert(scene->mMeshes[m]->mName.C_Str());
    EXPECT_EQ(meshNames.size(), scene->mNumMeshes);
    ASSERT_EQ(scene->mNumAnimations, 1u);
    EXPECT_EQ(scene->mAnimations[0]->mNumMorphMeshChannels, menu->mNumMeshes + ext->mNumMeshes);
}

TEST(RgScene, RobWithOnlyAMissingExternalModelIsIncomplete) {
    const auto dir = ScratchDir("rg_rob_empty");
    WriteBytes(dir / "E.ROB", rg::GenerateRob({{"NOWHERE", 512, {}}}, false));
    const ImportResult r = ImportFile(dir / "E.ROB");
    ASSERT_TRUE(r) << r.error;
    EXPECT_NE(r.scene->mFlags & AI_SCENE_FLAGS_INCOMPLETE, 0u);
    EXPECT_EQ(r.scene->mNumMeshes, 0u);
    EXPECT_EQ(r.scene->mNumMaterials, 0u);
    EXPECT_EQ(ChildNames(r.scene->mRootNode), std::vector<std::string>{"NOWHERE"});
    EXPECT_TRUE(LogHas(r, "END")) << "a missing END marker only warns";
}

TEST(RgScene, Section14RobFromMemory) {
    const ImportResult r = ImportMemory(rg::TriangleRob(), "rob");
    ASSERT_TRUE(r) << r.error;
    ASSERT_EQ(r.scene->mNumMeshes, 1u);
    const aiMesh *mesh = r.scene->mMeshes[0];
    ExpectVec(mesh->mVertices[mesh->mFaces[0].mIndices[1]], 0, 2, 0, "apex");
    EXPECT_EQ(ChildNames(r.scene->mRootNode), std::vector<std::string>{"TRI"});
}

// Lowercase hex of bytes [begin, end) — written independently of the importer's formatter.
std::string Base64Of(const std::vector<std::uint8_t> &bytes, std::size_t begin, std::size_t end) {
    return gamefmt::Base64Encode(bytes.data() + begin, end - begin);
}

TEST(RgScene, UninterpretedBytesAreKeptInMetadata) {
    // The model header (64 bytes) and the ROB segment header (80 bytes at 20) as stored.
    const std::vector<std::uint8_t> rob = rg::TriangleRob();
    const ImportResult r = ImportMemory(rob, "rob");
    ASSERT_TRUE(r) << r.error;
    const aiNode *node = Child(r.scene->mRootNode, "TRI");
    ASSERT_NE(node, nullptr);
    // Blobs (gamefmt/metadata.hpp): base64 of the bytes as the file stores them.
    EXPECT_EQ(MetaString(node->mMetaData, "rg.segment_header"), Base64Of(rob, 20, 100));
    EXPECT_EQ(MetaString(node->mMetaData, "rg.header"), Base64Of(rob, 100, 164));
    EXPECT_EQ(MetaString(node->mMetaData, "rg.header").substr(0, 4), "djQu"); // "v4."
    std::vector<std::uint8_t> header;
    ASSERT_TRUE(gamefmt::GetMetadataBlob(node->mMetaData, "rg.header", header));
    EXPECT_EQ(header, std::vector<std::uint8_t>(rob.begin() + 100, rob.begin() + 164));
    // v2.7: the opaque 24-byte-per-face block, found at the offset header field 0x18 names.
    const std::vector<std::uint8_t> v27 = rg::TriangleV27();
    const ImportResult m = ImportMemory(v27, "3d");
    ASSERT_TRUE(m) << m.error;
    const aiNode *model = m.scene->mRootNode->mNumChildren == 1 ? m.scene->mRootNode->mChildren[0] : nullptr;
    ASSERT_NE(model, nullptr);
    const std::size_t block = v27[0x18] | v27[0x19] << 8 | v27[0x1A] << 16 | std::size_t(v27[0x1B]) << 24;
    ASSERT_LE(block + 24, v27.size());
    EXPECT_EQ(MetaString(model->mMetaData, "rg.v2_block"), Base64Of(v27, block, block + 24));
    // No face has a non-zero unused word in these files.
    EXPECT_EQ(MetaString(model->mMetaData, "rg.face_unused"), "<absent>");
}

// ---------------------------------------------------------------- versions, scale, export, metadata

TEST(RgScene, V27ModelImports) {
    const auto dir = TriangleFolder("rg_v27", true, true, rg::TriangleV27());
    const ImportResult r = ImportFile(dir / "TRI.3D");
    ASSERT_TRUE(r) << r.error;
    EXPECT_TRUE(r.validationWarnings.empty());
    ASSERT_EQ(r.scene->mNumMeshes, 1u);
    const aiMesh *mesh = r.scene->mMeshes[0];
    const unsigned *idx = mesh->mFaces[0].mIndices;
    ExpectVec(mesh->mVertices[idx[0]], 1, 0, 0, "v0");
    ExpectVec(mesh->mVertices[idx[1]], 0, 2, 0, "v1");
    ExpectVec(mesh->mVertices[idx[2]], -1, 0, 0, "v2");
    for (unsigned i = 0; i < 3; ++i) ExpectVec(mesh->mNormals[i], 0, 0, 1, "flat normal");
    ExpectVec(mesh->mTextureCoords[0][idx[1]], 0.5f, 1, 0, "uv1");
    EXPECT_EQ(MaterialName(r.scene, mesh), "tex376_19");
    EXPECT_EQ(MaterialInt(r.scene->mMaterials[mesh->mMaterialIndex], "$rg.tex_raw"), 0xBC13);
    EXPECT_EQ(r.scene->mNumTextures, 1u);
    const aiNode *node = Child(r.scene->mRootNode, "TRI");
    EXPECT_EQ(MetaString(node->mMetaData, "rg.version"), "v2.7");
    EXPECT_EQ(MetaString(node->mMetaData, "rg.vertex_normals"), "none");
    EXPECT_EQ(MetaString(r.scene->mMetaData, AI_METADATA_SOURCE_FORMAT_VERSION), "v2.7");
}

TEST(RgScene, ScaleOption) {
    const auto dir = TriangleFolder("rg_scale", false, false);
    const ImportResult r =
        ImportFile(dir / "TRI.3D", 0, [](Assimp::Importer &imp) { imp.SetPropertyFloat(GAMEFMT_RG_SCALE, 0.05f); });
    ASSERT_TRUE(r) << r.error;
    const aiMesh *mesh = r.scene->mMeshes[0];
    const unsigned *idx = mesh->mFaces[0].mIndices;
    EXPECT_NEAR(mesh->mVertices[idx[0]].x, 0.05f, 1e-7f);
    EXPECT_NEAR(mesh->mVertices[idx[1]].y, 0.10f, 1e-7f);
    ExpectVec(mesh->mNormals[0], 0, 0, 1, "normal unscaled");
}

TEST(RgScene, TexturedModelExportsToGlb2AndBack) {
    const auto dir = TriangleFolder("rg_glb", true, true);
    const ImportResult r = ImportFile(dir / "TRI.3D");
    ASSERT_TRUE(r) << r.error;
    Assimp::Exporter exporter;
    const aiExportDataBlob *blob = exporter.ExportToBlob(r.scene, "glb2");
    ASSERT_NE(blob, nullptr) << exporter.GetErrorString();
    Assimp::Importer back;
    const aiScene *again = back.ReadFileFromMemory(blob->data, blob->size, aiProcess_ValidateDataStructure, "glb");
    ASSERT_NE(again, nullptr) << back.GetErrorString();
    ASSERT_EQ(again->mNumMeshes, 1u);
    ASSERT_EQ(again->mNumTextures, 1u);
    EXPECT_EQ(again->mTextures[0]->mHeight, 0u);
    EXPECT_STREQ(again->mTextures[0]->achFormatHint, "png");
    const aiMaterial *mat = again->mMaterials[again->mMeshes[0]->mMaterialIndex];
    aiString name, path;
    mat->Get(AI_MATKEY_NAME, name);
    EXPECT_STREQ(name.C_Str(), "tex376_19");
    ASSERT_EQ(mat->GetTexture(aiTextureType_BASE_COLOR, 0, &path), AI_SUCCESS);
    EXPECT_NE(again->GetEmbeddedTexture(path.C_Str()), nullptr) << path.C_Str();
    unsigned w = 0, h = 0;
    Bytes rgba;
    EXPECT_TRUE(DecodePng(reinterpret_cast<const std::uint8_t *>(again->mTextures[0]->pcData),
                          again->mTextures[0]->mWidth, w, h, rgba));
    EXPECT_EQ(w, 64u);
}

TEST(RgScene, MetadataValues) {
    const auto dir = TriangleFolder("rg_meta", false, false, rg::Triangle246V50());
    const ImportResult r = ImportFile(dir / "TRI.3D");
    ASSERT_TRUE(r) << r.error;
    EXPECT_EQ(MetaString(r.scene->mMetaData, AI_METADATA_SOURCE_FORMAT), "Redguard 3D");
    EXPECT_EQ(MetaString(r.scene->mMetaData, AI_METADATA_SOURCE_FORMAT_VERSION), "v5.0");
    const aiNode *node = Child(r.scene->mRootNode, "TRI");
    ASSERT_NE(node, nullptr);
    EXPECT_EQ(MetaString(node->mMetaData, "rg.version"), "v5.0");
    EXPECT_EQ(MetaInt(node->mMetaData, "rg.frame_type"), 0);
    EXPECT_EQ(MetaInt(node->mMetaData, "rg.num_frames"), 1);
    EXPECT_EQ(MetaInt(node->mMetaData, "rg.base_frame"), 0);
    EXPECT_EQ(MetaInt(node->mMetaData, "rg.header24"), 0);
    EXPECT_EQ(MetaInt(node->mMetaData, "rg.radius"), 512);
    EXPECT_EQ(MetaString(node->mMetaData, "rg.vertex_normals"), "table");
    EXPECT_EQ(MetaString(node->mMetaData, "rg.face_order"), "m0:0");
    EXPECT_EQ(MetaString(node->mMetaData, "rg.vertex_order"), "<absent>"); // already in first-use order
    // The one reference (record offset 0x40, face index·4 0) points at face 0's record: written as face "0".
    const std::string s4 = MetaString(node->mMetaData, "rg.section4");
    EXPECT_EQ(s4.rfind("0,-256,0,362,", 0), 0u) << s4;
    EXPECT_EQ(s4.substr(s4.find(':')), ":0") << s4;
    EXPECT_EQ(r.scene->mNumAnimations, 0u);
    // No nested metadata anywhere (5.2.5's scene copy aborts on it).
    for (unsigned i = 0; i < node->mMetaData->mNumProperties; ++i)
        EXPECT_NE(node->mMetaData->mValues[i].mType, AI_AIMETADATA) << node->mMetaData->mKeys[i].C_Str();
}

// docs/formats/redguard-3d.md §8: a Section4 reference that does not point at its face's record (no real file
// has one) is kept as "offset/index·4" instead of a face index.
TEST(RgScene, Section4ReferenceOffTheFaceRecordStaysVerbatim) {
    Bytes model = rg::Triangle246V50();
    const std::size_t s4 = model[0x1C] | model[0x1D] << 8;
    ASSERT_EQ(model[s4 + 30], 0x40); // the reference: u32 record offset 0x40, u16 face index·4 0
    for (const auto &[offset, times4, text] : {std::make_tuple(0x41, 0, ":65/0"), std::make_tuple(0x40, 2, ":64/2")}) {
        model[s4 + 30] = static_cast<std::uint8_t>(offset);
        model[s4 + 34] = static_cast<std::uint8_t>(times4);
        const auto dir = TriangleFolder("rg_s4_verbatim", false, false, model);
        const ImportResult r = ImportFile(dir / "TRI.3D");
        ASSERT_TRUE(r) << r.error;
        const aiNode *node = Child(r.scene->mRootNode, "TRI");
        ASSERT_NE(node, nullptr);
        const std::string s4text = MetaString(node->mMetaData, "rg.section4");
        EXPECT_EQ(s4text.substr(s4text.find(':')), text) << s4text;
    }
}

TEST(RgScene, FaceOrderCompactsRunsAcrossMeshes) {
    const auto dir = ScratchDir("rg_face_order");
    WriteBytes(dir / "ZOO.3D", rg::Generate(rg::PolygonZoo()));
    const ImportResult r = ImportFile(dir / "ZOO.3D");
    ASSERT_TRUE(r) << r.error;
    // Material keys in first-use order: 376/19 tex_hi 0 (faces 0, 5-9), colour 85 (1), colour 85/8C (2),
    // a00000 (3), f99999 (4). Face 7 is the concave L-hexagon, ear-clipped into 4 triangles.
    EXPECT_EQ(MetaString(Child(r.scene->mRootNode, "ZOO")->mMetaData, "rg.face_order"),
              "m0:0,5-6,7x4,8-9;m1:1;m2:2;m3:3;m4:4");
}

// ---------------------------------------------------------------- post-processing, CanRead, I/O

TEST(RgScene, EveryFixtureValidatesUnderTheCommonFlagSets) {
    const auto dir = ScratchDir("rg_flags");
    WriteBytes(dir / "ZOO.3D", rg::Generate(rg::PolygonZoo()));
    WriteBytes(dir / "PYR.3DC", rg::Generate(rg::AnimatedType2()));
    WriteBytes(dir / "MENU.3D", rg::Generate(rg::MultiFrameType0()));
    WriteBytes(dir / "TRI.3D", rg::Triangle246V50());
    WriteBytes(dir / "TRI27.3D", rg::TriangleV27());
    for (const char *name : {"ZOO.3D", "PYR.3DC", "MENU.3D", "TRI.3D", "TRI27.3D"})
        for (const unsigned flags :
             {0u, unsigned(aiProcess_Triangulate | aiProcess_JoinIdenticalVertices),
              unsigned(aiProcess_GenSmoothNormals), unsigned(aiProcessPreset_TargetRealtime_MaxQuality)}) {
            const ImportResult r = ImportFile(dir / name, flags);
            ASSERT_TRUE(r) << name << " flags " << flags << ": " << r.error;
            EXPECT_TRUE(r.validationWarnings.empty())
                << name << " flags " << flags << ": " << r.validationWarnings.front();
        }
}

TEST(RgScene, CanReadBySignatureOnlyAndNeverThrows) {
    const auto dir = ScratchDir("rg_canread");
    WriteBytes(dir / "empty.3d", {});
    WriteBytes(dir / "one.3d", {'v'});
    WriteBytes(dir / "v41.3d", {'v', '4', '.', '1', 0, 0, 0, 0});
    WriteBytes(dir / "ok.3d", {'v', '5', '.', '0'});
    WriteBytes(dir / "arch.bin", {'O', 'A', 'R', 'C'});
    auto importer = gamefmt::MakeImporter();
    Assimp::BaseImporter *ours = importer->GetImporter("3dc");
    ASSERT_NE(ours, nullptr);
    EXPECT_STREQ(ours->GetInfo()->mName, "gamefmt Redguard model");
    EXPECT_STREQ(ours->GetInfo()->mFileExtensions, "3d 3dc rob");
    EXPECT_EQ(importer->GetImporter("rob"), ours);
    Assimp::IOSystem *io = importer->GetIOHandler();
    EXPECT_FALSE(ours->CanRead((dir / "missing.3d").string(), io, true));
    EXPECT_FALSE(ours->CanRead((dir / "empty.3d").string(), io, true));
    EXPECT_FALSE(ours->CanRead((dir / "one.3d").string(), io, true));
    EXPECT_FALSE(ours->CanRead((dir / "v41.3d").string(), io, true));
    EXPECT_TRUE(ours->CanRead((dir / "ok.3d").string(), io, false));
    EXPECT_TRUE(ours->CanRead((dir / "arch.bin").string(), io, false));
    EXPECT_FALSE(ours->CanRead((dir / "ok.3d").string(), nullptr, false));

    // .3dc is ours alone, so Assimp skips CanRead: the importer checks the signature itself.
    WriteBytes(dir / "bad.3dc", {'v', '3', '.', '0', 1, 2, 3, 4});
    const ImportResult r = ImportFile(dir / "bad.3dc");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error.rfind("Redguard 3D: not a Redguard model or ROB archive", 0), 0u) << r.error;
}

TEST(RgScene, CorruptSegmentFailsTheImportWithTheArchiveOffset) {
    Bytes model = rg::Triangle198V40();
    model.resize(100); // sections past the end of the payload
    const ImportResult r = ImportMemory(rg::GenerateRob({{"CUT", 0, model}}), "rob");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error.rfind("Redguard 3D: ", 0), 0u) << r.error;
    EXPECT_NE(r.error.find("(at byte offset "), std::string::npos) << r.error;
}

// An IOSystem over a map of in-memory files that records every name it is asked about.
class MapStream : public Assimp::IOStream {
public:
    explicit MapStream(const Bytes &bytes) : mBytes(bytes) {}
    size_t Read(void *buffer, size_t size, size_t count) override {
        if (size == 0) return 0;
        const size_t n = std::min(count, (mBytes.size() - mPos) / size);
        std::memcpy(buffer, mBytes.data() + mPos, n * size);
        mPos += n * size;
        return n;
    }
    size_t Write(const void *, size_t, size_t) override { return 0; }
    aiReturn Seek(size_t offset, aiOrigin origin) override {
        const size_t base = origin == aiOrigin_SET ? 0 : origin == aiOrigin_CUR ? mPos : mBytes.size();
        if (base + offset > mBytes.size()) return aiReturn_FAILURE;
        mPos = base + offset;
        return aiReturn_SUCCESS;
    }
    size_t Tell() const override { return mPos; }
    size_t FileSize() const override { return mBytes.size(); }
    void Flush() override {}

private:
    const Bytes &mBytes;
    size_t mPos = 0;
};

class MapIOSystem : public Assimp::IOSystem {
public:
    std::map<std::string, Bytes> files;
    std::vector<std::string> *asked = nullptr;
    bool existsLies =
        false; // Exists says yes to everything, as Assimp 5.3-5.4's DefaultIOSystem may for a missing file
    bool Exists(const char *file) const override {
        if (asked) asked->push_back(file);
        return existsLies || files.count(file) != 0;
    }
    char getOsSeparator() const override { return '/'; }
    Assimp::IOStream *Open(const char *file, const char * = "rb") override {
        if (asked) asked->push_back(file);
        const auto found = files.find(file);
        return found == files.end() ? nullptr : new MapStream(found->second);
    }
    void Close(Assimp::IOStream *stream) override { delete stream; }
};

// A TEXBSI bank holding the one image (D76019) the triangle model uses.
Bytes OneImageBank(int width, int height) {
    rg::GenImage image;
    image.name = "D76019";
    image.width = width;
    image.height = height;
    return rg::GenerateTexBsi({image});
}

TEST(RgScene, SideFilesComeThroughTheIOSystem) {
    std::vector<std::string> asked;
    auto *io = new MapIOSystem();
    io->asked = &asked;
    io->files["/virtual/models/tri.3d"] = rg::Triangle198V40();
    io->files["/virtual/fxart/TEXBSI.376"] = OneImageBank(64, 64);
    io->files["/virtual/models/tri.col"] = rg::GeneratePalette(); // <stem>.COL, lower case
    auto importer = gamefmt::MakeImporter();
    importer->SetIOHandler(io);
    const aiScene *scene = importer->ReadFile("/virtual/models/tri.3d", aiProcess_ValidateDataStructure);
    ASSERT_NE(scene, nullptr) << importer->GetErrorString();
    EXPECT_EQ(scene->mNumTextures, 1u);
    EXPECT_EQ(MaterialInt(scene->mMaterials[0], "$rg.tex_w"), 64);
    EXPECT_NE(std::find(asked.begin(), asked.end(), "/virtual/fxart/TEXBSI.376"), asked.end());
    EXPECT_NE(std::find(asked.begin(), asked.end(), "/virtual/models/tri.col"), asked.end());
}

TEST(RgScene, SideFilesAreFoundWhenTheIOSystemsExistsLies) {
    // Assimp 5.4.3's DefaultIOSystem::Exists reads stat()'s buffer after a failed stat(): missing files "exist" at
    // random. The upper-case TEXBSI.376 is tried first and does not open: the lower-case one must still be used,
    // and a named palette that is not there must still be "not found".
    auto *io = new MapIOSystem();
    io->existsLies = true;
    io->files["/virtual/models/tri.3d"] = rg::Triangle198V40();
    io->files["/virtual/fxart/texbsi.376"] = OneImageBank(32, 16);
    io->files["/virtual/fxart/island.col"] = rg::GeneratePalette();
    auto importer = gamefmt::MakeImporter();
    importer->SetIOHandler(io);
    importer->SetPropertyString(GAMEFMT_RG_PALETTE, "island");
    const aiScene *scene = importer->ReadFile("/virtual/models/tri.3d", aiProcess_ValidateDataStructure);
    ASSERT_NE(scene, nullptr) << importer->GetErrorString();
    EXPECT_EQ(scene->mNumTextures, 1u);
    EXPECT_EQ(MaterialInt(scene->mMaterials[0], "$rg.tex_w"), 32);
    EXPECT_EQ(MaterialInt(scene->mMaterials[0], "$rg.tex_h"), 16);

    importer->SetPropertyString(GAMEFMT_RG_PALETTE, "/virtual/fxart/missing.col");
    EXPECT_EQ(importer->ReadFile("/virtual/models/tri.3d", 0), nullptr);
    EXPECT_NE(std::string(importer->GetErrorString()).find("not found"), std::string::npos)
        << importer->GetErrorString();
}

TEST(RgScene, AnimatedImagesUseTheirOwnColourMapUnlessAPaletteIsConfigured) {
    const auto dir = ScratchDir("rg_cmap");
    WriteBytes(dir / "TRI.3D", rg::Triangle198V40());
    rg::GenImage image;
    image.name = "D76019";
    image.width = 8;
    image.height = 8;
    image.frames = 3;
    WriteBytes(dir / "TEXBSI.376", rg::GenerateTexBsi({image}));
    WriteBytes(dir / "SCENE.COL", rg::GeneratePalette());
    // Pixel (1, 0) has index 1 in frame 0: the CMAP gives (254, 1, 5), the palette (1, 254, 7).
    for (const bool configured : {false, true}) {
        const ImportResult r = ImportFile(dir / "TRI.3D", 0, [configured](Assimp::Importer &imp) {
            if (configured) imp.SetPropertyString(GAMEFMT_RG_PALETTE, "SCENE");
        });
        ASSERT_TRUE(r) << r.error;
        ASSERT_EQ(r.scene->mNumTextures, 3u) << configured; // frame 0 and the two further frames (redguard-world.md §3)
        unsigned w = 0, h = 0;
        Bytes rgba;
        ASSERT_TRUE(DecodePng(reinterpret_cast<const std::uint8_t *>(r.scene->mTextures[0]->pcData),
                              r.scene->mTextures[0]->mWidth, w, h, rgba));
        ASSERT_EQ(w, 8u);
        const std::uint8_t *px = &rgba[4];
        const std::array<std::uint8_t, 3> want = configured ? PaletteEntry(1) : std::array<std::uint8_t, 3>{254, 1, 5};
        EXPECT_EQ(px[0], want[0]) << configured;
        EXPECT_EQ(px[1], want[1]) << configured;
        EXPECT_EQ(px[2], want[2]) << configured;
        EXPECT_EQ(px[3], 255);
        EXPECT_EQ(rgba[3], 0); // index 0 stays transparent
    }
}

TEST(RgScene, LongFaceOrderIsSplitIntoNumberedParts) {
    // 600 triangles alternating two materials: no runs, so the text is far longer than one aiString part.
    rg::GenModel model;
    model.version = "v5.0";
    for (std::uint32_t f = 0; f < 600; ++f) {
        const auto base = static_cast<std::uint32_t>(model.vertices.size());
        const std::int32_t z = static_cast<std::int32_t>(f) * 4;
        model.vertices.push_back({0, 0, z});
        model.vertices.push_back({256, 0, z});
        model.vertices.push_back({0, 256, z});
        rg::GenFace face;
        face.vertices = {base, base + 1, base + 2};
        face.texture = f % 2 == 0 ? 0x506FCC31u : 0xFFF05500u;
        model.faces.push_back(face);
    }
    model.section4 = false;
    const ImportResult r = ImportMemory(rg::Generate(model), "3d");
    ASSERT_TRUE(r) << r.error;
    const aiMetadata *md = Child(r.scene->mRootNode, "model")->mMetaData;
    // The long form of gamefmt/metadata.hpp: rg.face_order is the length, rg.face_order#0… the text.
    std::uint64_t length = 0;
    ASSERT_TRUE(md->Get("rg.face_order", length));
    std::string text;
    for (int part = 0;; ++part) {
        const std::string more = MetaString(md, ("rg.face_order#" + std::to_string(part)).c_str());
        if (more == "<absent>") break;
        EXPECT_LE(more.size(), 1000u);
        text += more;
    }
    EXPECT_EQ(text.size(), length);
    std::string want = "m0:";
    for (int f = 0; f < 600; f += 2) want += (f ? "," : "") + std::to_string(f);
    want += ";m1:";
    for (int f = 1; f < 600; f += 2) want += (f > 1 ? "," : "") + std::to_string(f);
    EXPECT_EQ(text, want);
}

} // namespace
