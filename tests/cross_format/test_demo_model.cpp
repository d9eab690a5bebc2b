// The demo model in testdata/ (scripts/demo converts it): what a user sees when importing it.
#include "support/import_helpers.hpp"

#include <assimp/scene.h>
#include <gtest/gtest.h>

#include <cmath>
#include <string>

namespace {

using namespace gamefmt::test;

TEST(DemoModel, SkinnedBarImportsWithItsSkeleton) {
    const ImportResult r = ImportFile(TestDataDir() / "skinned-bar.mesh");
    ASSERT_TRUE(r) << r.error;
    EXPECT_TRUE(r.validationWarnings.empty());
    EXPECT_EQ(SourceFormat(r.scene), "Roblox FileMesh");
    ASSERT_EQ(r.scene->mNumMeshes, 1u);
    const aiMesh *mesh = r.scene->mMeshes[0];
    EXPECT_EQ(mesh->mNumVertices, 20u); // 5 rings x 4 corners, one subset: no duplicated vertices
    EXPECT_EQ(mesh->mNumFaces, 36u);    // 16 side quads + 2 caps, as triangles
    ASSERT_EQ(mesh->mNumBones, 2u);
    EXPECT_STREQ(mesh->mBones[0]->mName.C_Str(), "Root");
    EXPECT_STREQ(mesh->mBones[1]->mName.C_Str(), "Tip");
    // The tip's bind position (0, 2, 0): its inverse bind matrix translates by -2 in Y.
    EXPECT_FLOAT_EQ(mesh->mBones[1]->mOffsetMatrix.b4, -2.0f);
    // Per vertex: the tip weight is 0 up to y = 1, 1 from y = 3, and the weights sum to 1.
    std::vector<float> root(mesh->mNumVertices, 0), tip(mesh->mNumVertices, 0);
    for (unsigned b = 0; b < 2; ++b)
        for (unsigned w = 0; w < mesh->mBones[b]->mNumWeights; ++w)
            (b == 0 ? root : tip)[mesh->mBones[b]->mWeights[w].mVertexId] += mesh->mBones[b]->mWeights[w].mWeight;
    for (unsigned v = 0; v < mesh->mNumVertices; ++v) {
        const float y = mesh->mVertices[v].y;
        EXPECT_NEAR(root[v] + tip[v], 1.0f, 1e-6f) << v;
        if (y <= 1.0f) {
            EXPECT_EQ(tip[v], 0.0f) << v;
        }
        if (y >= 3.0f) {
            EXPECT_EQ(tip[v], 1.0f) << v;
        }
        if (y == 2.0f) {
            EXPECT_NEAR(tip[v], 0.5f, 1.0f / 255) << v; // quantised to 127 or 128 of 255
        }
    }
    // Every face is counter-clockwise seen from outside: its normal points away from the bar's axis.
    for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
        const aiFace &face = mesh->mFaces[f];
        const aiVector3D a = mesh->mVertices[face.mIndices[0]], b = mesh->mVertices[face.mIndices[1]],
                         c = mesh->mVertices[face.mIndices[2]];
        const aiVector3D n = (b - a) ^ (c - a);
        const aiVector3D centre = (a + b + c) / 3.0f;
        aiVector3D out(centre.x, 0, centre.z);
        if (std::fabs(n.y) > std::fabs(n.x) + std::fabs(n.z)) out = aiVector3D(0, centre.y < 2 ? -1.0f : 1.0f, 0);
        EXPECT_GT(n * out, 0.0f) << "face " << f;
    }
}

} // namespace
