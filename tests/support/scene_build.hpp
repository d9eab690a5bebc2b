// Small helpers for tests that look into an aiScene or build one by hand (exporter tests; the scene takes
// ownership of everything passed in, as Assimp's destructors expect).
#pragma once

#include <assimp/material.h>
#include <assimp/scene.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <string>
#include <vector>

namespace gamefmt::test {

// The direct child of `node` named `name` (the first), or null.
inline const aiNode *Child(const aiNode *node, const std::string &name) {
    for (unsigned i = 0; i < node->mNumChildren; ++i)
        if (name == node->mChildren[i]->mName.C_Str()) return node->mChildren[i];
    return nullptr;
}

// A node's aiString metadata `key`, or "<none>" when the node, its metadata or the key is absent.
inline std::string MetaText(const aiNode *node, const char *key) {
    aiString value;
    if (node == nullptr || node->mMetaData == nullptr || !node->mMetaData->Get(key, value)) return "<none>";
    return value.C_Str();
}

// The node's transform in the scene (its ancestors' applied).
inline aiMatrix4x4 GlobalTransform(const aiNode *node) {
    aiMatrix4x4 m;
    for (; node != nullptr; node = node->mParent) m = node->mTransformation * m;
    return m;
}

// The names of `node`'s direct children, in order.
inline std::vector<std::string> ChildNames(const aiNode *node) {
    std::vector<std::string> names;
    for (unsigned i = 0; i < node->mNumChildren; ++i) names.emplace_back(node->mChildren[i]->mName.C_Str());
    return names;
}

inline void AddChildren(aiNode *parent, std::vector<aiNode *> children) {
    parent->mNumChildren = static_cast<unsigned>(children.size());
    parent->mChildren = new aiNode *[children.size()];
    for (std::size_t i = 0; i < children.size(); ++i) {
        parent->mChildren[i] = children[i];
        children[i]->mParent = parent;
    }
}

inline void SetMeshes(aiNode *node, std::vector<unsigned> meshes) {
    node->mNumMeshes = static_cast<unsigned>(meshes.size());
    node->mMeshes = new unsigned[meshes.size()];
    std::copy(meshes.begin(), meshes.end(), node->mMeshes);
}

inline void SetMeshList(aiScene *scene, std::vector<aiMesh *> meshes) {
    scene->mNumMeshes = static_cast<unsigned>(meshes.size());
    scene->mMeshes = new aiMesh *[meshes.size()];
    std::copy(meshes.begin(), meshes.end(), scene->mMeshes);
}

// `count` materials named "mat0", "mat1", ...
inline void AddMaterials(aiScene *scene, unsigned count) {
    scene->mNumMaterials = count;
    scene->mMaterials = new aiMaterial *[count];
    for (unsigned i = 0; i < count; ++i) {
        scene->mMaterials[i] = new aiMaterial();
        const aiString name("mat" + std::to_string(i));
        scene->mMaterials[i]->AddProperty(&name, AI_MATKEY_NAME);
    }
}

// An n x n height field in the XZ plane (shared vertices, normals up, continuous UVs), CCW seen from +Y.
inline aiMesh *GridMesh(unsigned n, float step, const char *name = "Grid") {
    auto *mesh = new aiMesh();
    mesh->mName = aiString(name);
    mesh->mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
    mesh->mNumVertices = n * n;
    mesh->mVertices = new aiVector3D[n * n];
    mesh->mNormals = new aiVector3D[n * n];
    mesh->mTextureCoords[0] = new aiVector3D[n * n];
    mesh->mNumUVComponents[0] = 2;
    for (unsigned z = 0; z < n; ++z)
        for (unsigned x = 0; x < n; ++x) {
            const unsigned i = z * n + x;
            const float fx = static_cast<float>(x) * step, fz = static_cast<float>(z) * step;
            mesh->mVertices[i] = aiVector3D(fx, 0.02f * std::sin(0.7f * fx) * std::cos(0.5f * fz), fz);
            mesh->mNormals[i] = aiVector3D(0, 1, 0);
            mesh->mTextureCoords[0][i] =
                aiVector3D(static_cast<float>(x) / static_cast<float>(n - 1), static_cast<float>(z) / (n - 1), 0);
        }
    mesh->mNumFaces = 2 * (n - 1) * (n - 1);
    mesh->mFaces = new aiFace[mesh->mNumFaces];
    unsigned f = 0;
    for (unsigned z = 0; z + 1 < n; ++z)
        for (unsigned x = 0; x + 1 < n; ++x) {
            const unsigned i = z * n + x;
            for (const std::array<unsigned, 3> tri :
                 {std::array<unsigned, 3>{i, i + n, i + 1}, std::array<unsigned, 3>{i + 1, i + n, i + n + 1}}) {
                mesh->mFaces[f].mNumIndices = 3;
                mesh->mFaces[f].mIndices = new unsigned[3]{tri[0], tri[1], tri[2]};
                ++f;
            }
        }
    return mesh;
}

} // namespace gamefmt::test
