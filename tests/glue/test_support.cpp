// The test helpers themselves, and the real-file corpus reaching our importers by signature.
#include "fixtures/fixtures.hpp"
#include "support/import_helpers.hpp"

#include <assimp/postprocess.h>
#include <gtest/gtest.h>

namespace {

using namespace gamefmt::test;

TEST(Support, ImportFileValidatesAndReturnsTheScene) {
    const ImportResult raw = ImportFile(TestDataDir() / "cube.obj");
    ASSERT_TRUE(raw) << raw.error;
    ASSERT_EQ(raw.scene->mNumMeshes, 1u);
    // Six quads; Assimp's OBJ importer emits one vertex per face corner: 6 x 4 = 24.
    EXPECT_EQ(raw.scene->mMeshes[0]->mNumFaces, 6u);
    EXPECT_EQ(raw.scene->mMeshes[0]->mFaces[0].mNumIndices, 4u);
    EXPECT_EQ(raw.scene->mMeshes[0]->mNumVertices, 24u);
    EXPECT_TRUE(raw.validationWarnings.empty());

    const ImportResult tri = ImportFile(TestDataDir() / "cube.obj", aiProcess_Triangulate);
    ASSERT_TRUE(tri) << tri.error;
    EXPECT_EQ(tri.scene->mMeshes[0]->mNumFaces, 12u);
}

TEST(Support, ImportReportsTheErrorString) {
    const ImportResult r = ImportFile(TestDataDir() / "does-not-exist.obj");
    EXPECT_FALSE(r);
    EXPECT_NE(r.error.find("does-not-exist.obj"), std::string::npos) << r.error;
}

TEST(Support, ImportMemoryUsesTheHint) {
    const ImportResult r = ImportMemory(gamefmt::fixtures::CubeObj(), "obj");
    ASSERT_TRUE(r) << r.error;
    EXPECT_EQ(r.scene->mMeshes[0]->mNumFaces, 6u);
}

TEST(Support, TestdataHoldsExactlyTheGeneratedFixtures) {
    for (const auto &fixture : gamefmt::fixtures::TestdataFixtures())
        EXPECT_EQ(ReadBytes(TestDataDir() / fixture.name), fixture.bytes) << fixture.name;
}

TEST(Corpus, EveryRealRobloxMeshReachesOurImporter) {
    GAMEFMT_REQUIRE_CORPUS(dir, "mesh");
    std::size_t files = 0;
    for (const auto &entry : std::filesystem::directory_iterator(dir)) {
        if (entry.path().extension() != ".mesh") continue;
        ++files;
        const ImportResult r = ImportFile(entry.path());
        // Our loader claims the file (not Ogre) and reads it.
        ASSERT_TRUE(r) << entry.path() << ": " << r.error;
        EXPECT_EQ(SourceFormat(r.scene), "Roblox FileMesh") << entry.path();
        EXPECT_TRUE(r.validationWarnings.empty()) << entry.path();
    }
    EXPECT_EQ(files, 8u); // the corpus README lists eight meshes
}

TEST(Corpus, EveryRealRobloxModelReachesOurImporter) {
    GAMEFMT_REQUIRE_CORPUS(dir, "rbx/rbx-test-files");
    std::size_t files = 0;
    for (const auto &entry : std::filesystem::recursive_directory_iterator(dir)) {
        const std::string ext = entry.path().extension().string();
        if (ext != ".rbxm" && ext != ".rbxmx" && ext != ".rbxl" && ext != ".rbxlx") continue;
        ++files;
        const ImportResult r = ImportFile(entry.path());
        ASSERT_TRUE(r) << entry.path() << ": " << r.error;
        EXPECT_NE(SourceFormat(r.scene).find("Roblox"), std::string::npos) << entry.path();
        EXPECT_TRUE(r.validationWarnings.empty()) << entry.path();
    }
    EXPECT_EQ(files, 110u); // 50 models x 2 + 4 places x 2 + 2 XML edge cases
}

} // namespace
