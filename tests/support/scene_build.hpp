// Small helpers for tests that look into an aiScene or build one by hand (exporter tests; the scene takes
// ownership of everything passed in, as Assimp's destructors expect).
#pragma once

#include <assimp/material.h>
#include <assimp/scene.h>

#include <algorithm>
#include <string>
#include <vector>

namespace gamefmt::test {

// The direct child of `node` named `name` (the first), or null.
inline const aiNode *Child(const aiNode *node, const std::string &name) {
    for (unsigned i = 0; i < node->mNumChildren; ++i)
        if (name == node->mChildren[i]->mName.C_Str()) return node->mChildren[i];
    return nullptr;
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

} // namespace gamefmt::test
