// Small helpers for tests that build an aiScene by hand (exporter tests): the scene takes ownership of
// everything passed in, as Assimp's destructors expect.
#pragma once

#include <assimp/material.h>
#include <assimp/scene.h>

#include <algorithm>
#include <string>
#include <vector>

namespace gamefmt::test {

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

} // namespace gamefmt::test
