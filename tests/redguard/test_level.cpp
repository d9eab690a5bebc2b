// Redguard levels (docs/formats/redguard-world.md): RGM scenes and WLD worlds through a registered, validating
// Importer, on synthetic files made from the reference's tables (tests/fixtures/redguard_level_fixtures.cpp). The
// expected values come from the reference — its 160-byte scene and worked transforms, its height table, its UV
// rotation table and its §5.2 world — typed in here, never read back from the code under test.
#include "cli/mini_json.hpp"
#include "common/png.hpp"
#include "fixtures/bytes.hpp"
#include "fixtures/redguard_fixtures.hpp"
#include "gamefmt/config.hpp"
#include "gamefmt/gamefmt.hpp"
#include "gamefmt/metadata.hpp"
#include "support/import_helpers.hpp"

#include <assimp/Importer.hpp>
#include <assimp/material.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstring>
#include <functional>
#include <map>
#include <set>
#include <string>
#include <vector>

namespace {

using namespace gamefmt::test;
namespace rg = gamefmt::fixtures::rg;
namespace fx = gamefmt::fixtures;
using Bytes = std::vector<std::uint8_t>;

const aiNode *Child(const aiScene *scene, const std::string &name) {
    for (unsigned i = 0; i < scene->mRootNode->mNumChildren; ++i)
        if (name == scene->mRootNode->mChildren[i]->mName.C_Str()) return scene->mRootNode->mChildren[i];
    return nullptr;
}

std::string MetaString(const aiNode *node, const char *key) {
    aiString s;
    if (node == nullptr || node->mMetaData == nullptr || !node->mMetaData->Get(key, s)) return "<absent>";
    return s.C_Str();
}

bool LogHas(const ImportResult &r, const std::string &text) {
    for (const std::string &line : r.log)
        if (line.find(text) != std::string::npos) return true;
    return false;
}

std::string MaterialName(const aiScene *scene, unsigned index) {
    aiString name;
    scene->mMaterials[index]->Get(AI_MATKEY_NAME, name);
    return name.C_Str();
}

const aiMesh *MeshNamed(const aiScene *scene, const std::string &name) {
    for (unsigned i = 0; i < scene->mNumMeshes; ++i)
        if (name == scene->mMeshes[i]->mName.C_Str()) return scene->mMeshes[i];
    return nullptr;
}

// Expects `m` to be [R | t] with R given row by row.
void ExpectTransform(const aiMatrix4x4 &m, const std::array<std::array<double, 3>, 3> &r, double tx, double ty,
                     double tz, const char *what) {
    for (unsigned i = 0; i < 3; ++i)
        for (unsigned j = 0; j < 3; ++j) EXPECT_NEAR(m[i][j], r[i][j], 1e-6) << what << " R" << i << j;
    EXPECT_NEAR(m.a4, tx, 1e-3) << what;
    EXPECT_NEAR(m.b4, ty, 1e-3) << what;
    EXPECT_NEAR(m.c4, tz, 1e-3) << what;
    EXPECT_EQ(m.d1, 0.0f);
    EXPECT_EQ(m.d4, 1.0f);
}

// A level folder laid out like the game's: maps/ for scenes and worlds, fxart/ for models, banks and palettes.
std::filesystem::path LevelDir(const std::string &name) {
    const auto dir = ScratchDir(name);
    std::filesystem::create_directories(dir / "maps");
    std::filesystem::create_directories(dir / "fxart");
    return dir;
}

// ---------------------------------------------------------------- RGM: the reference's scene

TEST(RedguardLevel, Scene160IsTheReferencesBytes) {
    // §5.1's listing, typed in.
    const Bytes expected = fx::Hex("4d 50 4f 42 00 00 00 46 01 00 00 00 08 00 00 00"
                                   "01 01 54 53 54 41 43 54 4f 52 00 54 45 53 54 4f"
                                   "42 4a 00 00 00 00 00 00 20 00 00 00 ff ff ff 00"
                                   "80 00 00 00 00 00 00 02 00 00 00 00 00 00 00 00"
                                   "00 00 00 00 00 00 00 00 00 00 00 00 00 00 4d 50"
                                   "53 4f 00 00 00 46 01 00 00 00 07 00 00 00 54 45"
                                   "53 54 4f 42 4a 00 00 00 00 00 00 20 00 00 00 ff"
                                   "ff ff 00 80 00 00 00 00 00 00 00 00 00 00 00 00"
                                   "00 10 00 00 00 00 00 00 00 10 00 00 00 00 00 00"
                                   "00 f0 00 00 00 00 00 00 00 00 00 00 45 4e 44 20");
    EXPECT_EQ(expected.size(), 160u);
    EXPECT_EQ(rg::Scene160(), expected);
}

TEST(RedguardLevel, Scene160PlacesBothRecordsAsTheReferenceWorksThemOut) {
    const ImportResult r = ImportMemory(rg::Scene160(), "rgm");
    ASSERT_TRUE(r) << r.error;
    EXPECT_EQ(SourceFormat(r.scene), "Redguard RGM scene");
    ASSERT_EQ(r.scene->mRootNode->mNumChildren, 2u);
    const aiNode *mpso = Child(r.scene, "S000_TESTOBJ");
    const aiNode *mpob = Child(r.scene, "B_000_TSTACTOR");
    ASSERT_NE(mpso, nullptr);
    ASSERT_NE(mpob, nullptr);
    // §1.7: T = (−8192, 256, −32767.996); MPSO R = [[0,0,−1],[0,1,0],[1,0,0]]; MPOB R = [[0,0,1],[0,1,0],[−1,0,0]].
    ExpectTransform(mpso->mTransformation, {{{0, 0, -1}, {0, 1, 0}, {1, 0, 0}}}, -8192, 256, -32767.996, "MPSO");
    ExpectTransform(mpob->mTransformation, {{{0, 0, 1}, {0, 1, 0}, {-1, 0, 0}}}, -8192, 256, -32767.996, "MPOB");
    // No model anywhere: both nodes stay, empty, and one warning names the model.
    EXPECT_EQ(mpso->mNumMeshes, 0u);
    EXPECT_EQ(mpob->mNumMeshes, 0u);
    EXPECT_TRUE(LogHas(r, "1 models not found (TESTOBJ)"));
    EXPECT_EQ(MetaString(mpso, "rg.model"), "TESTOBJ");
    EXPECT_EQ(MetaString(mpso, "rg.model_source"), "");
    EXPECT_EQ(MetaString(mpob, "rg.script"), "TSTACTOR");
    EXPECT_NE(r.scene->mFlags & AI_SCENE_FLAGS_INCOMPLETE, 0u); // nothing to show
}

TEST(RedguardLevel, InstancesOfOneModelShareItsMeshes) {
    const auto dir = LevelDir("rg_level_shared");
    WriteBytes(dir / "maps" / "SCENE.RGM", rg::Scene160());
    WriteBytes(dir / "fxart" / "TESTOBJ.3D", rg::Triangle198V40());
    const ImportResult r = ImportFile(dir / "maps" / "SCENE.RGM");
    ASSERT_TRUE(r) << r.error;
    EXPECT_EQ(r.scene->mFlags & AI_SCENE_FLAGS_INCOMPLETE, 0u);
    ASSERT_EQ(r.scene->mNumMeshes, 1u);
    const aiNode *mpso = Child(r.scene, "S000_TESTOBJ");
    const aiNode *mpob = Child(r.scene, "B_000_TSTACTOR");
    ASSERT_EQ(mpso->mNumMeshes, 1u);
    ASSERT_EQ(mpob->mNumMeshes, 1u);
    EXPECT_EQ(mpso->mMeshes[0], 0u);
    EXPECT_EQ(mpob->mMeshes[0], 0u);
    // The §14 triangle in the model's own frame: (−256,0,0) (0,−512,0) (256,0,0) raw → (1,0,0) (0,2,0) (−1,0,0).
    const aiMesh *mesh = r.scene->mMeshes[0];
    ASSERT_EQ(mesh->mNumVertices, 3u);
    std::set<std::array<float, 3>> got;
    for (unsigned i = 0; i < 3; ++i) got.insert({mesh->mVertices[i].x, mesh->mVertices[i].y, mesh->mVertices[i].z});
    EXPECT_EQ(got, (std::set<std::array<float, 3>>{{1, 0, 0}, {0, 2, 0}, {-1, 0, 0}}));
    EXPECT_TRUE(std::filesystem::equivalent(MetaString(mpso, "rg.model_source"), dir / "fxart" / "TESTOBJ.3D"));
    EXPECT_FALSE(LogHas(r, "models not found"));
}

TEST(RedguardLevel, ModelsComeFromTheLevelsRobBeforeFiles) {
    const auto dir = LevelDir("rg_level_rob");
    WriteBytes(dir / "maps" / "SCENE.RGM", rg::Scene160());
    WriteBytes(dir / "fxart" / "SCENE.ROB", rg::GenerateRob({{"TESTOBJ", 0, rg::BoxModel(256, 256, 256, 7)}}));
    WriteBytes(dir / "fxart" / "TESTOBJ.3D", rg::Triangle198V40()); // loses to the ROB segment
    const ImportResult r = ImportFile(dir / "maps" / "SCENE.RGM");
    ASSERT_TRUE(r) << r.error;
    ASSERT_EQ(r.scene->mNumMeshes, 1u);
    EXPECT_EQ(r.scene->mMeshes[0]->mNumFaces, 6u); // the box's quads, not the triangle
    EXPECT_EQ(MetaString(Child(r.scene, "S000_TESTOBJ"), "rg.model_source"), "ROB SCENE.ROB");
}

// ---------------------------------------------------------------- RGM: variants of §5.1

Bytes WithoutEnd(Bytes b) {
    b.resize(b.size() - 4);
    return b;
}

TEST(RedguardLevel, EndWithALengthOrNoEndAtAll) {
    Bytes withLength = rg::Scene160();
    withLength.insert(withLength.end(), 4, 0);
    const ImportResult a = ImportMemory(withLength, "rgm");
    ASSERT_TRUE(a) << a.error;
    EXPECT_EQ(a.scene->mRootNode->mNumChildren, 2u);
    EXPECT_FALSE(LogHas(a, "no END"));
    const ImportResult b = ImportMemory(WithoutEnd(rg::Scene160()), "rgm");
    ASSERT_TRUE(b) << b.error;
    EXPECT_EQ(b.scene->mRootNode->mNumChildren, 2u);
    EXPECT_TRUE(LogHas(b, "no END section"));
}

TEST(RedguardLevel, UnknownSectionsAreSkippedByTheirLength) {
    const Bytes bytes = fx::Cat({rg::RgmSection("ZZZZ", Bytes(10, 0xAB)), rg::Scene160()});
    const ImportResult r = ImportFile([&] {
        const auto dir = ScratchDir("rg_level_unknown");
        WriteBytes(dir / "odd.rgm", bytes); // a first tag no detector knows: the extension decides
        return dir / "odd.rgm";
    }());
    ASSERT_TRUE(r) << r.error;
    EXPECT_EQ(r.scene->mRootNode->mNumChildren, 2u);
    EXPECT_TRUE(LogHas(r, "unknown section \"ZZZZ\" (10 bytes) at byte offset 0 skipped"));
}

TEST(RedguardLevel, ACountLargerThanItsPayloadKeepsTheWholeRecords) {
    const Bytes mpso = rg::MpsoRecord(1, "A", {0, 0, 0}, {0x10000000, 0, 0, 0, 0x10000000, 0, 0, 0, 0x10000000});
    Bytes half(mpso.begin(), mpso.begin() + 30);
    const Bytes bytes = fx::Cat({rg::RgmSection("MPSO", rg::RgmRecords({mpso, mpso, half}, 5)), fx::Text("END ")});
    const ImportResult r = ImportMemory(bytes, "rgm");
    ASSERT_TRUE(r) << r.error;
    EXPECT_EQ(r.scene->mRootNode->mNumChildren, 2u);
    EXPECT_NE(Child(r.scene, "S001_A"), nullptr);
    EXPECT_TRUE(LogHas(r, "section MPSO at byte offset 8 counts 5 records of 66 bytes but holds 2"));
}

TEST(RedguardLevel, ModelNamesLoseTheirExtension) {
    const Bytes mpso =
        rg::MpsoRecord(1, "TESTOBJ.3D", {0, 0, 0}, {0x10000000, 0, 0, 0, 0x10000000, 0, 0, 0, 0x10000000});
    const ImportResult r =
        ImportMemory(fx::Cat({rg::RgmSection("MPSO", rg::RgmRecords({mpso})), fx::Text("END ")}), "rgm");
    ASSERT_TRUE(r) << r.error;
    EXPECT_NE(Child(r.scene, "S000_TESTOBJ"), nullptr);
}

TEST(RedguardLevel, AnEmptyModelNameResolvesThroughTheActorsFirstAnimation) {
    const auto dir = LevelDir("rg_level_raan");
    rg::GenScripted o;
    o.script = "TSTACTOR"; // no model name
    o.p = {0, 0, 0};
    const Bytes raan = rg::RaanEntry(1, 'c', "fxart\\TESTOBJ.3DC");
    // §5.1's RAAN entry bytes: 00 00 00 00 01 63 then the path and its NUL.
    EXPECT_EQ(Bytes(raan.begin(), raan.begin() + 6), (Bytes{0, 0, 0, 0, 1, 0x63}));
    const Bytes scene =
        fx::Cat({rg::RgmSection("RAHD", rg::RahdPayload({{"TSTACTOR", 1, 0, 0}})), rg::RgmSection("RAAN", raan),
                 rg::RgmSection("MPOB", rg::RgmRecords({rg::MpobRecord(o)})), fx::Text("END ")});
    WriteBytes(dir / "maps" / "SCENE.RGM", scene);
    WriteBytes(dir / "fxart" / "TESTOBJ.3DC", rg::Generate(rg::AnimatedType2()));
    const ImportResult r = ImportFile(dir / "maps" / "SCENE.RGM");
    ASSERT_TRUE(r) << r.error;
    const aiNode *node = Child(r.scene, "B_000_TSTACTOR");
    ASSERT_NE(node, nullptr);
    EXPECT_EQ(MetaString(node, "rg.model"), "TESTOBJ");
    EXPECT_GT(node->mNumMeshes, 0u);
    // A level shows models still: no morph targets, no animation (scripts drive them).
    EXPECT_EQ(r.scene->mNumAnimations, 0u);
    for (unsigned m = 0; m < r.scene->mNumMeshes; ++m) EXPECT_EQ(r.scene->mMeshes[m]->mNumAnimMeshes, 0u);
}

TEST(RedguardLevel, FlatsAreTwentyUnitQuadsWithTheirBankImage) {
    const auto dir = LevelDir("rg_level_flat");
    const Bytes bytes =
        fx::Cat({rg::RgmSection("MPSF", rg::RgmRecords({rg::MpsfRecord(3, {100, -50, 65536}, 303 << 7 | 1),
                                                        rg::MpsfRecord(4, {0, 0, 65536}, 303 << 7 | 1)})),
                 fx::Text("END ")});
    WriteBytes(dir / "maps" / "SCENE.RGM", bytes);
    rg::GenImage image;
    image.name = "D03001";
    WriteBytes(dir / "fxart" / "TEXBSI.303", rg::GenerateTexBsi({image}));
    WriteBytes(dir / "fxart" / "SCENE.COL", rg::GeneratePalette());
    const ImportResult r = ImportFile(dir / "maps" / "SCENE.RGM", 0, [&](Assimp::Importer &imp) {
        imp.SetPropertyString(GAMEFMT_RG_PALETTE, (dir / "fxart" / "SCENE.COL").string());
    });
    ASSERT_TRUE(r) << r.error;
    const aiNode *flat = Child(r.scene, "F000_303/1");
    ASSERT_NE(flat, nullptr);
    ASSERT_EQ(flat->mNumMeshes, 1u);
    EXPECT_EQ(Child(r.scene, "F001_303/1")->mMeshes[0], flat->mMeshes[0]); // shared
    // Translation (−X, −Y, Z − 16777215/256).
    EXPECT_NEAR(flat->mTransformation.a4, -100, 1e-4);
    EXPECT_NEAR(flat->mTransformation.b4, 50, 1e-4);
    EXPECT_NEAR(flat->mTransformation.c4, 65536 - 16777215.0 / 256.0, 1e-4);
    const aiMesh *mesh = r.scene->mMeshes[flat->mMeshes[0]];
    EXPECT_EQ(MaterialName(r.scene, mesh->mMaterialIndex), "tex303_1");
    ASSERT_EQ(mesh->mNumVertices, 4u);
    // §1.5: from the position up and toward −X, normal (0, 0, −1), UV 0…1; the triangles face the normal.
    float minX = 0, maxY = 0;
    for (unsigned i = 0; i < 4; ++i) {
        minX = std::min(minX, mesh->mVertices[i].x);
        maxY = std::max(maxY, mesh->mVertices[i].y);
        EXPECT_EQ(mesh->mVertices[i].z, 0.0f);
        EXPECT_EQ(mesh->mNormals[i], aiVector3D(0, 0, -1));
        const aiVector3D &uv = mesh->mTextureCoords[0][i];
        EXPECT_NEAR(uv.x, -mesh->mVertices[i].x / 20.0f, 1e-6);
        EXPECT_NEAR(uv.y, mesh->mVertices[i].y / 20.0f, 1e-6);
    }
    EXPECT_EQ(minX, -20.0f);
    EXPECT_EQ(maxY, 20.0f);
    for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
        const aiFace &face = mesh->mFaces[f];
        const aiVector3D n = (mesh->mVertices[face.mIndices[1]] - mesh->mVertices[face.mIndices[0]]) ^
                             (mesh->mVertices[face.mIndices[2]] - mesh->mVertices[face.mIndices[0]]);
        EXPECT_LT(n.z, 0.0f);
    }
}

TEST(RedguardLevel, RopeLinksStepSixteenUnitsDown) {
    const Bytes bytes =
        fx::Cat({rg::RgmSection("MPRP", rg::RgmRecords({rg::MprpRecord(9, {0, 0, 65536}, 3, "BELL", "CHAIN")})),
                 fx::Text("END ")});
    const ImportResult r = ImportMemory(bytes, "rgm");
    ASSERT_TRUE(r) << r.error;
    ASSERT_EQ(r.scene->mRootNode->mNumChildren, 4u);
    const char *names[4] = {"R000_000_CHAIN", "R000_001_CHAIN", "R000_002_CHAIN", "R000_003_BELL"};
    for (int j = 0; j < 4; ++j) {
        const aiNode *node = Child(r.scene, names[j]);
        ASSERT_NE(node, nullptr) << names[j];
        EXPECT_NEAR(node->mTransformation.b4, -16.0f * float(j + 1), 1e-5) << names[j];
        EXPECT_TRUE(node->mTransformation.IsIdentity() == false);
        EXPECT_EQ(node->mTransformation.a1, 1.0f); // unrotated
    }
}

TEST(RedguardLevel, AnglesWrapAtAFullTurnAndNegativePositionsSignExtend) {
    rg::GenScripted a, b;
    a.script = "A";
    a.angles = {0, 512, 0};
    b.script = "B";
    b.angles = {2048, 2560, 4096};
    b.p = {-5, -1, 1};
    const Bytes bytes =
        fx::Cat({rg::RgmSection("MPOB", rg::RgmRecords({rg::MpobRecord(a), rg::MpobRecord(b)})), fx::Text("END ")});
    const ImportResult r = ImportMemory(bytes, "rgm");
    ASSERT_TRUE(r) << r.error;
    const aiMatrix4x4 &ma = Child(r.scene, "B_000_A")->mTransformation;
    const aiMatrix4x4 &mb = Child(r.scene, "B_001_B")->mTransformation;
    for (unsigned i = 0; i < 3; ++i)
        for (unsigned j = 0; j < 3; ++j) EXPECT_NEAR(ma[i][j], mb[i][j], 1e-6);
    EXPECT_NEAR(mb.a4, 5, 1e-4);
    EXPECT_NEAR(mb.b4, 1, 1e-4);
    EXPECT_NEAR(mb.c4, 1 - 16777215.0 / 256.0, 1e-4);
}

TEST(RedguardLevel, MpobRotationFollowsYThenXThenMinusZ) {
    // θx = 90°, θy = 90°, θz = 90° (512 each): Ry(90)·Rx(90)·Rz(−90), multiplied out by hand.
    //   Ry(90) = [[0,0,1],[0,1,0],[−1,0,0]], Rx(90) = [[1,0,0],[0,0,−1],[0,1,0]], Rz(−90) = [[0,1,0],[−1,0,0],[0,0,1]]
    //   Ry·Rx = [[0,1,0],[0,0,−1],[−1,0,0]];  ·Rz(−90) = [[−1,0,0],[0,0,−1],[0,−1,0]]
    rg::GenScripted o;
    o.script = "R";
    o.angles = {512, 512, 512};
    const ImportResult r =
        ImportMemory(fx::Cat({rg::RgmSection("MPOB", rg::RgmRecords({rg::MpobRecord(o)})), fx::Text("END ")}), "rgm");
    ASSERT_TRUE(r) << r.error;
    ExpectTransform(Child(r.scene, "B_000_R")->mTransformation, {{{-1, 0, 0}, {0, 0, -1}, {0, -1, 0}}}, 0, 0,
                    -16777215.0 / 256.0, "MPOB xyz");
}

TEST(RedguardLevel, LightsAndMarkers) {
    rg::GenScripted lamp;
    lamp.type = 6;
    lamp.script = "GLOW";
    lamp.values = {1, 300, 0, 0, 255, 51, 0};
    const Bytes bytes =
        fx::Cat({rg::RgmSection("MPOB", rg::RgmRecords({rg::MpobRecord(lamp)})),
                 rg::RgmSection("MPSL", rg::RgmRecords({rg::MpslRecord({10, 20, 30}, 0x11)})),
                 rg::RgmSection("MPMK", rg::MpmkPayload({{{1, 2, 3}, 7}, {{4, 5, 6}, 8}})), fx::Text("END ")});
    const ImportResult plain = ImportMemory(bytes, "rgm");
    ASSERT_TRUE(plain) << plain.error;
    ASSERT_EQ(plain.scene->mNumLights, 2u);
    EXPECT_STREQ(plain.scene->mLights[0]->mName.C_Str(), "B_000_GLOW");
    EXPECT_NEAR(plain.scene->mLights[0]->mColorDiffuse.g, 0.2f, 1e-6);
    EXPECT_NEAR(plain.scene->mLights[0]->mColorDiffuse.r, 1.0f, 1e-6);
    EXPECT_STREQ(plain.scene->mLights[1]->mName.C_Str(), "L000");
    const aiNode *l = Child(plain.scene, "L000");
    ASSERT_NE(l, nullptr);
    EXPECT_NEAR(l->mTransformation.a4, -10, 1e-4);
    EXPECT_NEAR(l->mTransformation.b4, -20, 1e-4);
    EXPECT_EQ(MetaString(Child(plain.scene, "B_000_GLOW"), "rg.light_values"), "1,300,0,0,255,51,0");
    EXPECT_EQ(Child(plain.scene, "MARKER_000"), nullptr); // markers only on request
    EXPECT_TRUE(LogHas(plain, "MPSL lights placed as white point lights"));

    const ImportResult marked =
        ImportMemory(bytes, "rgm", 0, [](Assimp::Importer &imp) { imp.SetPropertyBool(GAMEFMT_RG_MARKERS, true); });
    ASSERT_TRUE(marked) << marked.error;
    const aiNode *m1 = Child(marked.scene, "MARKER_001");
    ASSERT_NE(m1, nullptr);
    EXPECT_NEAR(m1->mTransformation.a4, -4, 1e-4);
    EXPECT_NEAR(m1->mTransformation.b4, -5, 1e-4);
    std::int32_t flag = 0;
    ASSERT_TRUE(m1->mMetaData->Get("rg.marker_flag", flag));
    EXPECT_EQ(flag, 8);
}

TEST(RedguardLevel, TheTwentyTwoSectionSkeletonIsAnEmptyIncompleteScene) {
    const ImportResult r = ImportMemory(rg::SceneSkeleton(), "rgm");
    ASSERT_TRUE(r) << r.error;
    EXPECT_EQ(r.scene->mRootNode->mNumChildren, 0u);
    EXPECT_NE(r.scene->mFlags & AI_SCENE_FLAGS_INCOMPLETE, 0u);
    EXPECT_TRUE(LogHas(r, "scripts and AI data are not run"));
}

TEST(RedguardLevel, HostileScenesFailWithTheSectionAndOffset) {
    Bytes longSection = rg::Scene160();
    longSection[7] = 0x47; // MPOB's length 71 > what remains? no: 70 + 1 still fits; make it far larger
    longSection[5] = 0x01;
    const ImportResult a = ImportMemory(longSection, "rgm");
    EXPECT_FALSE(a);
    EXPECT_NE(a.error.find("Redguard RGM"), std::string::npos) << a.error;
    EXPECT_NE(a.error.find("section \"MPOB\" of 65607 bytes runs past the end of the file"), std::string::npos)
        << a.error;
    EXPECT_NE(a.error.find("byte offset 0"), std::string::npos) << a.error;

    const Bytes stray = fx::Cat({rg::RgmSection("MPSO", rg::RgmRecords({})), Bytes{'M', 'P'}});
    const ImportResult b = ImportMemory(stray, "rgm");
    EXPECT_FALSE(b);
    EXPECT_NE(b.error.find("2 stray bytes where a section tag should be"), std::string::npos) << b.error;
}

// ---------------------------------------------------------------- WLD

// The terrain's vertex heights by grid position (gx = −x/256, gy = −z/256), checking every corner agrees.
std::map<std::pair<int, int>, float> GridHeights(const aiScene *scene) {
    std::map<std::pair<int, int>, float> out;
    for (unsigned m = 0; m < scene->mNumMeshes; ++m) {
        const aiMesh *mesh = scene->mMeshes[m];
        if (std::string(mesh->mName.C_Str()).rfind("Terrain_", 0) != 0) continue;
        for (unsigned i = 0; i < mesh->mNumVertices; ++i) {
            const aiVector3D &p = mesh->mVertices[i];
            const int gx = static_cast<int>(std::lround(-p.x / 256)), gy = static_cast<int>(std::lround(-p.z / 256));
            EXPECT_EQ(p.x, -256.0f * gx);
            EXPECT_EQ(p.z, -256.0f * gy);
            const auto [it, added] = out.emplace(std::make_pair(gx, gy), p.y);
            if (!added) {
                EXPECT_EQ(it->second, p.y) << gx << "," << gy;
            }
        }
    }
    return out;
}

TEST(RedguardLevel, World52IsTheReferencesTerrain) {
    const ImportResult r = ImportMemory(rg::GenerateWld(rg::World52()), "wld");
    ASSERT_TRUE(r) << r.error;
    EXPECT_EQ(SourceFormat(r.scene), "Redguard WLD world");
    std::size_t triangles = 0;
    std::set<std::string> materials;
    for (unsigned m = 0; m < r.scene->mNumMeshes; ++m) {
        const aiMesh *mesh = r.scene->mMeshes[m];
        triangles += mesh->mNumFaces;
        materials.insert(MaterialName(r.scene, mesh->mMaterialIndex));
        for (unsigned i = 0; i < mesh->mNumVertices; ++i) {
            EXPECT_GT(mesh->mNormals[i].y, 0.0f);
            EXPECT_GE(mesh->mVertices[i].x, -65280.0f);
            EXPECT_LE(mesh->mVertices[i].x, 0.0f);
            EXPECT_GE(mesh->mVertices[i].z, -65280.0f);
            EXPECT_LE(mesh->mVertices[i].z, 0.0f);
        }
    }
    EXPECT_EQ(triangles, 130050u);
    EXPECT_EQ(materials, (std::set<std::string>{"tex302_0", "tex302_5"}));
    // Section 1 Map1 (0,0) = 0x85: vertex (128, 0) at (−32768, 80, 0) (the flag bit ignored, table[5] = 80).
    const auto heights = GridHeights(r.scene);
    EXPECT_EQ(heights.size(), 256u * 256u);
    EXPECT_EQ(heights.at({128, 0}), 80.0f);
    EXPECT_EQ(heights.at({127, 0}), 0.0f);
    // Section 2 Map3 (0,0) = 0x45: cell (0, 128) in tex302_5, turned once: TL (1,0), TR (1,1), BR (0,1), BL (0,0)
    // in (s, t), so Assimp (s, 1 − t) TL (1,1), TR (1,0), BR (0,0), BL (0,1).
    const aiMesh *five = MeshNamed(r.scene, "Terrain_5");
    ASSERT_NE(five, nullptr);
    ASSERT_EQ(five->mNumFaces, 2u);
    std::map<std::pair<float, float>, std::pair<float, float>> uvAt; // (x, z) → uv
    for (unsigned i = 0; i < five->mNumVertices; ++i)
        uvAt[{five->mVertices[i].x, five->mVertices[i].z}] = {five->mTextureCoords[0][i].x,
                                                              five->mTextureCoords[0][i].y};
    EXPECT_EQ(uvAt.at({0.0f, -32768.0f}), std::make_pair(1.0f, 1.0f));    // TL
    EXPECT_EQ(uvAt.at({-256.0f, -32768.0f}), std::make_pair(1.0f, 0.0f)); // TR
    EXPECT_EQ(uvAt.at({-256.0f, -33024.0f}), std::make_pair(0.0f, 0.0f)); // BR
    EXPECT_EQ(uvAt.at({0.0f, -33024.0f}), std::make_pair(0.0f, 1.0f));    // BL
}

TEST(RedguardLevel, HeightsComeFromTheTableAndTexturesTurnAsTheReferenceSays) {
    rg::GenWorld world;
    for (int gy = 0; gy < 256; ++gy)
        for (int gx = 0; gx < 256; ++gx) {
            const std::size_t at = static_cast<std::size_t>(gy * 256 + gx);
            world.heights[at] = static_cast<std::uint8_t>((gx % 128) | (gy % 2 == 0 ? 0x80 : 0)); // a ramp
            world.textures[at] = static_cast<std::uint8_t>((gx + 2 * gy) % 64 | ((gx + gy) % 4) << 6);
        }
    const ImportResult r = ImportMemory(rg::GenerateWld(world), "wld");
    ASSERT_TRUE(r) << r.error;
    const auto heights = GridHeights(r.scene);
    ASSERT_EQ(heights.size(), 65536u);
    for (const auto &[g, y] : heights)
        ASSERT_EQ(y, float(rg::ReferenceHeightTable()[static_cast<std::size_t>(g.first % 128)]))
            << g.first << "," << g.second;
    // Image corners (s, t): 0 (0,0), 1 (1,0), 2 (1,1), 3 (0,1); corner c of a cell turned k times shows (c + k) % 4.
    const float kS[4] = {0, 1, 1, 0}, kT[4] = {0, 0, 1, 1};
    std::size_t cells = 0;
    for (unsigned m = 0; m < r.scene->mNumMeshes; ++m) {
        const aiMesh *mesh = r.scene->mMeshes[m];
        const std::string material = MaterialName(r.scene, mesh->mMaterialIndex);
        for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
            for (unsigned c = 0; c < 3; ++c) {
                const unsigned i = mesh->mFaces[f].mIndices[c];
                const aiVector3D &p = mesh->mVertices[i];
                // Which cell: the face's minimum grid x and y.
                int gx = 1 << 20, gy = 1 << 20;
                for (unsigned k = 0; k < 3; ++k) {
                    gx = std::min(gx, int(std::lround(-mesh->mVertices[mesh->mFaces[f].mIndices[k]].x / 256)));
                    gy = std::min(gy, int(std::lround(-mesh->mVertices[mesh->mFaces[f].mIndices[k]].z / 256)));
                }
                const int image = (gx + 2 * gy) % 64, turn = (gx + gy) % 4;
                ASSERT_EQ(material, "tex302_" + std::to_string(image));
                const int cx = int(std::lround(-p.x / 256)) - gx, cy = int(std::lround(-p.z / 256)) - gy;
                const int corner = cy == 0 ? (cx == 0 ? 0 : 1) : (cx == 1 ? 2 : 3); // TL, TR, BR, BL
                const int k = (corner + turn) % 4;
                ASSERT_EQ(mesh->mTextureCoords[0][i].x, kS[k]);
                ASSERT_EQ(mesh->mTextureCoords[0][i].y, 1.0f - kT[k]);
            }
            cells += f % 2;
        }
    }
    EXPECT_EQ(cells, 255u * 255u);
}

TEST(RedguardLevel, TerrainTrianglesSplitTopLeftToBottomRightAndFaceUp) {
    const ImportResult r = ImportMemory(rg::GenerateWld(rg::World52()), "wld");
    ASSERT_TRUE(r) << r.error;
    const aiMesh *mesh = MeshNamed(r.scene, "Terrain_0");
    ASSERT_NE(mesh, nullptr);
    for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
        const aiFace &face = mesh->mFaces[f];
        const aiVector3D &a = mesh->mVertices[face.mIndices[0]], &b = mesh->mVertices[face.mIndices[1]],
                         &c = mesh->mVertices[face.mIndices[2]];
        ASSERT_GT(((b - a) ^ (c - a)).y, 0.0f) << f; // counter-clockwise seen from +Y
        // The diagonal: the first two corners of each triangle are TL and BR (or BR and TL).
        ASSERT_EQ(std::fabs(a.x - b.x), 256.0f);
        ASSERT_EQ(std::fabs(a.z - b.z), 256.0f);
    }
}

// The reference's normal (§2.4), written out: the unnormalised cross products of the six triangles around a vertex —
// both of the cell up-left and the cell down-right, the second of the cell above, the first of the cell to the left
// — summed, then normalised. Triangles (TL, BR, TR) and (BR, TL, BL); vertex (gx, gy) at (−256·gx, h, −256·gy).
aiVector3D ReferenceNormal(int gx, int gy, const std::function<float(int, int)> &height) {
    const auto p = [&](int x, int y) { return aiVector3D(-256.0f * x, height(x, y), -256.0f * y); };
    const auto cross = [](const aiVector3D &a, const aiVector3D &b, const aiVector3D &c) { return (b - a) ^ (c - a); };
    const auto tri1 = [&](int x, int y) { return cross(p(x, y), p(x + 1, y + 1), p(x + 1, y)); };
    const auto tri2 = [&](int x, int y) { return cross(p(x + 1, y + 1), p(x, y), p(x, y + 1)); };
    aiVector3D sum =
        tri1(gx - 1, gy - 1) + tri2(gx - 1, gy - 1) + tri1(gx, gy) + tri2(gx, gy) + tri2(gx, gy - 1) + tri1(gx - 1, gy);
    return sum.Normalize();
}

TEST(RedguardLevel, SmoothNormalsSumTheSixTrianglesAroundAVertex) {
    // One raised vertex (100, 100) on a flat world: the normals around it against the reference's sum.
    rg::GenWorld world;
    world.heights[100 * 256 + 100] = 40; // table[40] = 600 units
    const ImportResult r = ImportMemory(rg::GenerateWld(world), "wld");
    ASSERT_TRUE(r) << r.error;
    std::map<std::pair<int, int>, aiVector3D> normals;
    const aiMesh *mesh = MeshNamed(r.scene, "Terrain_0");
    ASSERT_NE(mesh, nullptr);
    for (unsigned i = 0; i < mesh->mNumVertices; ++i)
        normals[{int(std::lround(-mesh->mVertices[i].x / 256)), int(std::lround(-mesh->mVertices[i].z / 256))}] =
            mesh->mNormals[i];
    const auto height = [](int x, int y) { return x == 100 && y == 100 ? 600.0f : 0.0f; };
    for (int gy = 98; gy <= 102; ++gy)
        for (int gx = 98; gx <= 102; ++gx) {
            const aiVector3D expected = ReferenceNormal(gx, gy, height);
            const aiVector3D got = normals.at({gx, gy});
            EXPECT_NEAR(got.x, expected.x, 1e-5) << gx << "," << gy;
            EXPECT_NEAR(got.y, expected.y, 1e-5) << gx << "," << gy;
            EXPECT_NEAR(got.z, expected.z, 1e-5) << gx << "," << gy;
        }
    // And plainly: the neighbour at gx + 1 (x − 256) leans toward −x, away from the peak; two cells away is flat.
    EXPECT_LT(normals.at({101, 100}).x, -0.1f);
    EXPECT_GT(normals.at({99, 100}).x, 0.1f);
    EXPECT_EQ(normals.at({102, 102}), aiVector3D(0, 1, 0));
}

TEST(RedguardLevel, BadWorldHeadersAreRejectedAndOddOnesWarn) {
    const auto expectError = [](const Bytes &bytes, const std::string &text) {
        const ImportResult r = ImportMemory(bytes, "wld");
        EXPECT_FALSE(r);
        EXPECT_NE(r.error.find(text), std::string::npos) << r.error;
    };
    expectError(Bytes(1199, 0), "Redguard WLD: a world file has at least 1200 bytes, this one 1199");
    rg::GenWorld w18;
    w18.word18 = 23;
    expectError(rg::GenerateWld(w18),
                "header word 0x18 (the section header size) is 23, 22 expected (at byte offset 24)");
    rg::GenWorld w90;
    w90.firstOffset = 1188;
    expectError(rg::GenerateWld(w90), "the first section offset (0x90) is 1188, 1184 expected");
    Bytes overlapping = rg::GenerateWld(rg::World52());
    overlapping[0x94] = 0xA0; // section 1 at 1184 + 0x..: 1184 = 0x4A0
    overlapping[0x95] = 0x04;
    overlapping[0x96] = 0;
    overlapping[0x97] = 0;
    expectError(overlapping, "section 1 at offset 1184 overlaps section 0 at 1184");
    Bytes truncated = rg::GenerateWld(rg::World52());
    truncated.resize(200000);
    expectError(truncated, "section 3 at offset 197858 (65558 bytes) lies outside the 200000-byte file");

    rg::GenWorld odd = rg::World52();
    odd.word14 = 0;
    odd.bank = 301;
    const ImportResult r = ImportMemory(rg::GenerateWld(odd), "wld");
    ASSERT_TRUE(r) << r.error;
    EXPECT_TRUE(LogHas(r, "header word 0x14 is 0 where the game's files have 1"));
    EXPECT_TRUE(LogHas(r, "section 0 names texture bank 301; the engine always uses TEXBSI.302"));
}

TEST(RedguardLevel, WorldsAreRecognisedByContent) {
    const auto dir = ScratchDir("rg_level_content");
    WriteBytes(dir / "terrain.level", rg::GenerateWld(rg::World52()));
    const ImportResult r = ImportFile(dir / "terrain.level");
    ASSERT_TRUE(r) << r.error;
    EXPECT_EQ(SourceFormat(r.scene), "Redguard WLD world");
    WriteBytes(dir / "scene.level", rg::Scene160());
    const ImportResult s = ImportFile(dir / "scene.level");
    ASSERT_TRUE(s) << s.error;
    EXPECT_EQ(SourceFormat(s.scene), "Redguard RGM scene");
}

// ---------------------------------------------------------------- scene + terrain

TEST(RedguardLevel, TheWorldTablePairsSceneTerrainAndPalette) {
    const auto dir = LevelDir("rg_level_pairs");
    // START.RGM belongs to world 0: terrain HIDEOUT.WLD, palette SUNSET.COL (§2.5).
    WriteBytes(dir / "maps" / "START.RGM", rg::Scene160());
    WriteBytes(dir / "maps" / "HIDEOUT.WLD", rg::GenerateWld(rg::World52()));
    WriteBytes(dir / "maps" / "START.WLD", rg::GenerateWld(rg::GenWorld())); // not the world's
    WriteBytes(dir / "fxart" / "SUNSET.COL", rg::GeneratePalette());
    const ImportResult r = ImportFile(dir / "maps" / "START.RGM");
    ASSERT_TRUE(r) << r.error;
    ASSERT_NE(Child(r.scene, "Terrain"), nullptr);
    aiString text;
    ASSERT_TRUE(r.scene->mMetaData->Get("rg.terrain", text));
    EXPECT_STREQ(text.C_Str(), "HIDEOUT.WLD");
    ASSERT_TRUE(r.scene->mMetaData->Get("rg.palette", text));
    EXPECT_STREQ(text.C_Str(), "SUNSET");
    std::int32_t world = -1;
    ASSERT_TRUE(r.scene->mMetaData->Get("rg.world", world));
    EXPECT_EQ(world, 0);
    EXPECT_NE(MeshNamed(r.scene, "Terrain_5"), nullptr); // World52's image 5 cell: HIDEOUT.WLD it is

    // --rg-world none: no terrain; --rg-world FILE: that one.
    const ImportResult none = ImportFile(
        dir / "maps" / "START.RGM", 0, [](Assimp::Importer &imp) { imp.SetPropertyString(GAMEFMT_RG_WORLD, "none"); });
    ASSERT_TRUE(none) << none.error;
    EXPECT_EQ(Child(none.scene, "Terrain"), nullptr);
    const ImportResult chosen = ImportFile(dir / "maps" / "START.RGM", 0, [&](Assimp::Importer &imp) {
        imp.SetPropertyString(GAMEFMT_RG_WORLD, (dir / "maps" / "START.WLD").string());
    });
    ASSERT_TRUE(chosen) << chosen.error;
    EXPECT_EQ(MeshNamed(chosen.scene, "Terrain_5"), nullptr);
    const ImportResult missing = ImportFile(dir / "maps" / "START.RGM", 0, [&](Assimp::Importer &imp) {
        imp.SetPropertyString(GAMEFMT_RG_WORLD, (dir / "NOPE.WLD").string());
    });
    EXPECT_FALSE(missing);
    EXPECT_NE(missing.error.find("(GAMEFMT_RG_WORLD, --rg-world) not found"), std::string::npos) << missing.error;
}

TEST(RedguardLevel, ALevelOfSeveralWorldsSaysWhichItShows) {
    const auto dir = LevelDir("rg_level_worlds");
    WriteBytes(dir / "maps" / "ISLAND.RGM", rg::Scene160());
    WriteBytes(dir / "fxart" / "ISLAND.COL", rg::GeneratePalette());
    WriteBytes(dir / "fxart" / "NIGHTSKY.COL", rg::GeneratePalette(true));
    const ImportResult r = ImportFile(dir / "maps" / "ISLAND.RGM");
    ASSERT_TRUE(r) << r.error;
    EXPECT_TRUE(LogHas(r, "ISLAND.RGM belongs to worlds 1 (ISLAND), 27 (NIGHTSKY), 28 (SUNSET); showing world 1"));
    EXPECT_TRUE(LogHas(r, "the world's terrain ISLAND.WLD was not found"));
    const ImportResult night = ImportFile(dir / "maps" / "ISLAND.RGM", 0, [](Assimp::Importer &imp) {
        imp.SetPropertyInteger(GAMEFMT_RG_WORLD_INDEX, 27);
    });
    ASSERT_TRUE(night) << night.error;
    aiString palette;
    ASSERT_TRUE(night.scene->mMetaData->Get("rg.palette", palette));
    EXPECT_STREQ(palette.C_Str(), "NIGHTSKY");
    EXPECT_FALSE(LogHas(night, "belongs to worlds"));
}

// The demo level (testdata/rg-level): every object stands on the terrain where it was placed.
TEST(RedguardLevel, TheDemoLevelStandsOnItsTerrain) {
    const ImportResult r = ImportFile(TestDataDir() / "rg-level" / "DEMO.RGM");
    ASSERT_TRUE(r) << r.error;
    // 1 terrain + 3 MPSO + 5 MPOB + 4 flats + 6 rope links and its end + 1 light.
    EXPECT_EQ(r.scene->mRootNode->mNumChildren, 1u + 3 + 5 + 4 + 7 + 1);
    EXPECT_EQ(r.scene->mNumLights, 2u);
    const auto heights = GridHeights(r.scene);
    // Towers stand on (128,120), (122,116), (134,124) with their centre 300 units up; the watcher (a tower found
    // through its actor's animation) on (131,128).
    const std::pair<const char *, std::pair<int, int>> towers[] = {{"S000_TOWER", {128, 120}},
                                                                   {"S001_TOWER", {122, 116}},
                                                                   {"S002_TOWER", {134, 124}},
                                                                   {"B_003_WATCHER", {131, 128}}};
    const aiNode *first = Child(r.scene, "S000_TOWER");
    ASSERT_NE(first, nullptr);
    ASSERT_EQ(first->mNumMeshes, 1u);
    for (const auto &[name, cell] : towers) {
        const aiNode *node = Child(r.scene, name);
        ASSERT_NE(node, nullptr) << name;
        EXPECT_NEAR(node->mTransformation.a4, -256.0f * cell.first, 1e-3) << name;
        EXPECT_NEAR(node->mTransformation.c4, -256.0f * cell.second, 0.01) << name;
        EXPECT_NEAR(node->mTransformation.b4 - 300.0f, heights.at(cell), 1e-3) << name;
        ASSERT_EQ(node->mNumMeshes, 1u) << name;
        EXPECT_EQ(node->mMeshes[0], first->mMeshes[0]) << name; // one TOWER mesh
        EXPECT_EQ(MetaString(node, "rg.model"), "TOWER");
        EXPECT_EQ(MetaString(node, "rg.model_source"), "ROB DEMO.ROB");
    }
    EXPECT_NE(std::string(MetaString(Child(r.scene, "B_004_LAMP"), "rg.model_source")).find("LAMP.3D"),
              std::string::npos);
    // The tower box in its own frame: ±60 × ±300 × ±60 units.
    const aiMesh *tower = r.scene->mMeshes[first->mMeshes[0]];
    aiVector3D lo(1e9f, 1e9f, 1e9f), hi(-1e9f, -1e9f, -1e9f);
    for (unsigned i = 0; i < tower->mNumVertices; ++i) {
        const aiVector3D &v = tower->mVertices[i];
        lo = aiVector3D(std::min(lo.x, v.x), std::min(lo.y, v.y), std::min(lo.z, v.z));
        hi = aiVector3D(std::max(hi.x, v.x), std::max(hi.y, v.y), std::max(hi.z, v.z));
    }
    EXPECT_EQ(lo, aiVector3D(-60, -300, -60));
    EXPECT_EQ(hi, aiVector3D(60, 300, 60));
    // The rope hangs from (126, 118) 200 units up: link j 16·(j + 1) lower, the LAMP one step below the sixth.
    for (int j = 0; j <= 6; ++j) {
        const std::string name = "R000_00" + std::to_string(j) + (j == 6 ? "_LAMP" : "_LINK");
        const aiNode *node = Child(r.scene, name);
        ASSERT_NE(node, nullptr) << name;
        EXPECT_NEAR(node->mTransformation.b4, heights.at({126, 118}) + 200.0f - 16.0f * float(j + 1), 1e-3) << name;
    }
}

// ---------------------------------------------------------------- animated textures (§3)

TEST(RedguardLevel, AnimatedBankImagesKeepEveryFrame) {
    const auto dir = LevelDir("rg_level_anim");
    WriteBytes(dir / "maps" / "ANIM.WLD", rg::GenerateWld(rg::GenWorld())); // every cell image 0
    rg::GenImage water;
    water.name = "D02000";
    water.width = 4;
    water.height = 2;
    water.frames = 3; // pixels (x + y·w + f) & 0xFF, CMAP entry i = (255 − i, i, 5i)
    WriteBytes(dir / "fxart" / "TEXBSI.302", rg::GenerateTexBsi({water}));
    WriteBytes(dir / "fxart" / "ANIM.COL", rg::GeneratePalette());
    const ImportResult r = ImportFile(dir / "maps" / "ANIM.WLD");
    ASSERT_TRUE(r) << r.error;
    ASSERT_EQ(r.scene->mNumMaterials, 1u);
    const aiMaterial *m = r.scene->mMaterials[0];
    int count = 0;
    ASSERT_EQ(m->Get(gamefmt::kMatAnimCount, 0, 0, count), AI_SUCCESS);
    EXPECT_EQ(count, 3);
    aiString frames;
    ASSERT_EQ(m->Get(gamefmt::kMatAnimFrames, 0, 0, frames), AI_SUCCESS);
    EXPECT_STREQ(frames.C_Str(), "*0,*1,*2");
    aiString base;
    ASSERT_EQ(m->Get(AI_MATKEY_TEXTURE_DIFFUSE(0), base), AI_SUCCESS);
    EXPECT_STREQ(base.C_Str(), "*0");
    int mode = -1;
    ASSERT_EQ(m->Get(AI_MATKEY_MAPPINGMODE_U_DIFFUSE(0), mode), AI_SUCCESS);
    EXPECT_EQ(mode, aiTextureMapMode_Mirror); // §2.3: mirrored repeat
    int delay = 0;
    float frameMs = 0;
    ASSERT_EQ(m->Get(gamefmt::kMatAnimDelayMs, 0, 0, delay), AI_SUCCESS);
    ASSERT_EQ(m->Get(gamefmt::kMatAnimFrameMs, 0, 0, frameMs), AI_SUCCESS);
    // The generator's BHDR delay; the engine's ticks: max(1, round(ms · 18.2 / 1000)) at 18.2 Hz.
    const double ticks = std::max(1.0, std::round(delay * 18.2 / 1000.0));
    EXPECT_NEAR(frameMs, ticks * 1000.0 / 18.2, 1e-3);
    ASSERT_EQ(r.scene->mNumTextures, 3u);
    // Each frame's pixels through the image's own CMAP (no palette configured): frame f, pixel i = (i + f) & 0xFF.
    for (unsigned f = 0; f < 3; ++f) {
        const aiTexture *t = r.scene->mTextures[f];
        ASSERT_EQ(t->mHeight, 0u);
        const gamefmt::RgbaImage image =
            gamefmt::DecodePngRgba(reinterpret_cast<const std::uint8_t *>(t->pcData), t->mWidth);
        ASSERT_EQ(image.width, 4u);
        ASSERT_EQ(image.height, 2u);
        for (unsigned y = 0; y < 2; ++y)
            for (unsigned x = 0; x < 4; ++x) {
                const unsigned index = (x + y * 4 + f) & 0xFF;
                const std::uint8_t *px = &image.rgba[(y * 4 + x) * 4];
                if (index == 0) {
                    EXPECT_EQ(px[3], 0);
                    continue;
                }
                EXPECT_EQ(px[0], 255 - index) << f << ":" << x << "," << y;
                EXPECT_EQ(px[1], index);
                EXPECT_EQ(px[2], (index * 5) & 0xFF);
                EXPECT_EQ(px[3], 255);
            }
    }

    // Through the glb: the material's extras list the three frames as glTF textures, frame 0 its base colour's.
    const Exported glb = ExportScene(r.scene, "gamefmt-glb");
    ASSERT_TRUE(glb.ok) << glb.error;
    const std::string bytes(glb.bytes.begin(), glb.bytes.end());
    const std::uint32_t jsonLength = std::uint32_t(glb.bytes[12]) | std::uint32_t(glb.bytes[13]) << 8 |
                                     std::uint32_t(glb.bytes[14]) << 16 | std::uint32_t(glb.bytes[15]) << 24;
    gamefmt::test::json::Parser parser(bytes.substr(20, jsonLength));
    const std::optional<gamefmt::test::json::Value> doc = parser.parse();
    ASSERT_TRUE(doc) << parser.error();
    const auto &material = doc->get("materials")->items.at(0);
    const auto *extras = material.get("extras");
    ASSERT_NE(extras, nullptr);
    const auto &list = extras->get("rg.anim.frames")->items;
    ASSERT_EQ(list.size(), 3u);
    EXPECT_EQ(list[0].number, material.get("pbrMetallicRoughness")->get("baseColorTexture")->get("index")->number);
    std::set<double> images;
    for (const auto &t : list)
        images.insert(doc->get("textures")->items.at(std::size_t(t.number)).get("source")->number);
    EXPECT_EQ(images.size(), 3u);
    EXPECT_EQ(extras->get("rg.anim.count")->number, 3.0);
}

TEST(RedguardLevel, ModelsKeepAnimatedTextureFramesToo) {
    const auto dir = ScratchDir("rg_level_anim_model");
    WriteBytes(dir / "TRI.3D", rg::Triangle198V40()); // bank 376, image 19
    rg::GenImage image;
    image.name = "D76019";
    image.frames = 4;
    WriteBytes(dir / "TEXBSI.376", rg::GenerateTexBsi({image}));
    WriteBytes(dir / "TRI.COL", rg::GeneratePalette());
    const ImportResult r = ImportFile(dir / "TRI.3D");
    ASSERT_TRUE(r) << r.error;
    EXPECT_EQ(r.scene->mNumTextures, 4u);
    aiString frames;
    ASSERT_EQ(r.scene->mMaterials[0]->Get(gamefmt::kMatAnimFrames, 0, 0, frames), AI_SUCCESS);
    EXPECT_STREQ(frames.C_Str(), "*0,*1,*2,*3");
}

} // namespace
