// glTF export: gamefmt's writer (gamefmt-glb) against Assimp's glb2 exporter on the same scenes, both through
// Exporter::ExportToBlob (so both pay Assimp's scene copy), and the writer's compression options.
//   BM_GltfExport/<scene>/<writer>  scene 0: a 100 x 100 height field (19,602 triangles) skinned to 4 bones with 8
//                                  morph targets and a 100-key animation of both (small because Assimp's glb2
//                                  path is quadratic in it: MakeVerboseFormat scans every bone weight per corner);
//                                  scene 1: the 100,000-part generated Roblox place (bench_roblox_model.cpp); writer 0
//                                  ours, 1 Assimp's glb2, 2 ours --draco, 3 ours --meshopt
// Counters: glb_bytes (the file size).
#include "gamefmt/config.hpp"
#include "gamefmt/gamefmt.hpp"
#include "heightfield.hpp"

#include <assimp/Exporter.hpp>
#include <assimp/Importer.hpp>
#include <assimp/scene.h>
#include <benchmark/benchmark.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

namespace gamefmt::bench {
// bench_roblox_model.cpp: the 100,000-part place as file bytes.
const std::vector<std::uint8_t> &GeneratedPlaceBytes();
} // namespace gamefmt::bench

namespace {

using gamefmt::bench::HeightField;

constexpr unsigned kBones = 4, kTargets = 8, kKeys = 100;

// The height field as one skinned, morphing mesh: each vertex weighted between two of 4 bones along X, 8 morph
// targets lifting bands of it, an animation turning the bones and blending the targets.
aiScene *RiggedHeightField() {
    const HeightField h = gamefmt::bench::MakeHeightField(100);
    auto *scene = new aiScene;
    scene->mRootNode = new aiNode("root");
    auto *body = new aiNode("Body");
    auto *armature = new aiNode("Armature");
    scene->mRootNode->addChildren(2, std::vector<aiNode *>{body, armature}.data());
    aiNode *parent = armature;
    for (unsigned b = 0; b < kBones; ++b) {
        auto *bone = new aiNode("Bone" + std::to_string(b));
        bone->mTransformation.a4 = b == 0 ? 0.0f : 33.0f;
        parent->addChildren(1, &bone);
        parent = bone;
    }
    auto *mesh = new aiMesh;
    mesh->mName = "Field";
    mesh->mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
    const auto n = static_cast<unsigned>(h.vertexCount());
    mesh->mNumVertices = n;
    mesh->mVertices = new aiVector3D[n];
    mesh->mNormals = new aiVector3D[n];
    mesh->mTextureCoords[0] = new aiVector3D[n];
    mesh->mNumUVComponents[0] = 2;
    float maxX = 1;
    for (unsigned v = 0; v < n; ++v) {
        mesh->mVertices[v] = aiVector3D(h.positions[3 * v], h.positions[3 * v + 1], h.positions[3 * v + 2]);
        mesh->mNormals[v] = aiVector3D(0, 1, 0);
        mesh->mTextureCoords[0][v] = aiVector3D(h.positions[3 * v] / 100, h.positions[3 * v + 2] / 100, 0);
        maxX = std::max(maxX, h.positions[3 * v]);
    }
    mesh->mNumFaces = static_cast<unsigned>(h.triangleCount());
    mesh->mFaces = new aiFace[mesh->mNumFaces];
    for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
        mesh->mFaces[f].mNumIndices = 3;
        mesh->mFaces[f].mIndices = new unsigned[3]{h.indices[3 * f], h.indices[3 * f + 1], h.indices[3 * f + 2]};
    }
    // Bones: vertex v between bone k and k+1 by its X.
    std::vector<std::vector<aiVertexWeight>> weights(kBones);
    for (unsigned v = 0; v < n; ++v) {
        const float t = mesh->mVertices[v].x / maxX * (kBones - 1);
        const unsigned k = std::min(static_cast<unsigned>(t), kBones - 2);
        weights[k].emplace_back(v, 1 - (t - k));
        weights[k + 1].emplace_back(v, t - k);
    }
    mesh->mNumBones = kBones;
    mesh->mBones = new aiBone *[kBones];
    for (unsigned b = 0; b < kBones; ++b) {
        auto *bone = new aiBone;
        bone->mName = "Bone" + std::to_string(b);
        bone->mOffsetMatrix.a4 = -33.0f * static_cast<float>(b);
        bone->mNumWeights = static_cast<unsigned>(weights[b].size());
        bone->mWeights = new aiVertexWeight[bone->mNumWeights];
        std::copy(weights[b].begin(), weights[b].end(), bone->mWeights);
        mesh->mBones[b] = bone;
    }
    mesh->mNumAnimMeshes = kTargets;
    mesh->mAnimMeshes = new aiAnimMesh *[kTargets];
    for (unsigned k = 0; k < kTargets; ++k) {
        auto *target = new aiAnimMesh;
        target->mName = "Band" + std::to_string(k);
        target->mNumVertices = n;
        target->mVertices = new aiVector3D[n];
        for (unsigned v = 0; v < n; ++v) {
            target->mVertices[v] = mesh->mVertices[v];
            if (static_cast<unsigned>(mesh->mVertices[v].z / 100 * kTargets) == k) target->mVertices[v].y += 10;
        }
        mesh->mAnimMeshes[k] = target;
    }
    scene->mNumMeshes = 1;
    scene->mMeshes = new aiMesh *[1] { mesh };
    body->mNumMeshes = 1;
    body->mMeshes = new unsigned[1]{0};
    scene->mNumMaterials = 1;
    scene->mMaterials = new aiMaterial *[1] { new aiMaterial };

    auto *anim = new aiAnimation;
    anim->mName = "wave";
    anim->mTicksPerSecond = 25;
    anim->mDuration = kKeys - 1;
    anim->mNumChannels = kBones;
    anim->mChannels = new aiNodeAnim *[kBones];
    for (unsigned b = 0; b < kBones; ++b) {
        auto *c = new aiNodeAnim;
        c->mNodeName = "Bone" + std::to_string(b);
        c->mNumRotationKeys = kKeys;
        c->mRotationKeys = new aiQuatKey[kKeys];
        for (unsigned k = 0; k < kKeys; ++k)
            c->mRotationKeys[k] = aiQuatKey(k, aiQuaternion(aiVector3D(0, 0, 1), 0.01f * static_cast<float>(k)));
        anim->mChannels[b] = c;
    }
    anim->mNumMorphMeshChannels = 1;
    anim->mMorphMeshChannels = new aiMeshMorphAnim *[1];
    auto *morph = new aiMeshMorphAnim;
    morph->mName = "Field";
    morph->mNumKeys = kKeys;
    morph->mKeys = new aiMeshMorphKey[kKeys];
    for (unsigned k = 0; k < kKeys; ++k) {
        aiMeshMorphKey &key = morph->mKeys[k];
        key.mTime = k;
        key.mNumValuesAndWeights = kTargets;
        key.mValues = new unsigned[kTargets];
        key.mWeights = new double[kTargets];
        for (unsigned t = 0; t < kTargets; ++t) {
            key.mValues[t] = t;
            key.mWeights[t] = t == k % kTargets ? 1.0 : 0.0;
        }
    }
    anim->mMorphMeshChannels[0] = morph;
    scene->mNumAnimations = 1;
    scene->mAnimations = new aiAnimation *[1] { anim };
    return scene;
}

const aiScene &RiggedScene() {
    static const std::unique_ptr<aiScene> scene(RiggedHeightField());
    return *scene;
}

void BM_GltfExport(benchmark::State &state) {
    const aiScene *scene = nullptr;
    Assimp::Importer importer;
    if (state.range(0) == 0) {
        scene = &RiggedScene();
    } else {
        gamefmt::RegisterImporters(importer);
        const std::vector<std::uint8_t> &bytes = gamefmt::bench::GeneratedPlaceBytes();
        scene = importer.ReadFileFromMemory(bytes.data(), bytes.size(), 0, "rbxl");
        if (scene == nullptr) {
            state.SkipWithError(importer.GetErrorString());
            return;
        }
    }
    const std::int64_t writer = state.range(1);
    const char *id = writer == 1 ? "glb2" : "gamefmt-glb";
    Assimp::ExportProperties properties;
    if (writer == 2) properties.SetPropertyBool(GAMEFMT_GLTF_DRACO, true);
    if (writer == 3) properties.SetPropertyBool(GAMEFMT_GLTF_MESHOPT, true);
    std::size_t bytes = 0;
    for (auto _ : state) {
        Assimp::Exporter exporter;
        gamefmt::RegisterExporters(exporter);
        const aiExportDataBlob *blob = exporter.ExportToBlob(scene, id, 0, &properties);
        if (blob == nullptr) {
            state.SkipWithError(exporter.GetErrorString());
            return;
        }
        bytes = blob->size;
    }
    state.counters["glb_bytes"] = static_cast<double>(bytes);
    static const char *kWriters[] = {"gamefmt", "assimp-glb2", "gamefmt-draco", "gamefmt-meshopt"};
    state.SetLabel(std::string(state.range(0) == 0 ? "rigged-heightfield" : "place-100k") + " " + kWriters[writer]);
}

BENCHMARK(BM_GltfExport)
    ->ArgsProduct({{0, 1}, {0, 1, 2, 3}})
    ->Unit(benchmark::kMillisecond)
    ->Repetitions(3)
    ->ReportAggregatesOnly(true);

} // namespace
