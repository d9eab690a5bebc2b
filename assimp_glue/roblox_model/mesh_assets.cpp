// MeshPart and FileMesh mesh assets (docs/formats/roblox-model.md §5.3): read once, placed per instance.
#include "assimp_glue/roblox_model/mesh_assets.hpp"

#include "assimp_glue/common/roblox_mesh_scene.hpp"
#include "assimp_glue/common/scene_util.hpp"
#include "gamefmt/metadata.hpp"
#include "importers/roblox_mesh/mesh_reader.hpp"

#include <assimp/SceneCombiner.h>
#include <assimp/scene.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

namespace gamefmt::glue {
namespace {

// 1/s per axis; 0 where s is 0 or not finite (the pseudo-inverse: a flattened axis stays flat).
aiVector3D Reciprocal(const aiVector3D &s) {
    const auto r = [](float v) { return std::isfinite(v) && v != 0 ? 1.0f / v : 0.0f; };
    return {r(s.x), r(s.y), r(s.z)};
}

void Direction(aiVector3D &d, const aiVector3D &inverseScale) {
    const aiVector3D m(d.x * inverseScale.x, d.y * inverseScale.y, d.z * inverseScale.z);
    const float length = m.Length();
    if (std::isfinite(length) && length > 0) d = m / length; // otherwise the direction stays as it was
}

aiMatrix4x4 Affine(const aiVector3D &scale, const aiVector3D &shift) {
    aiMatrix4x4 t;
    t.a1 = scale.x;
    t.b2 = scale.y;
    t.c3 = scale.z;
    t.a4 = shift.x;
    t.b4 = shift.y;
    t.c4 = shift.z;
    return t;
}

void Rename(aiNode *node, UniqueNames &names, std::map<std::string, std::string> &renamed) {
    const std::string old(node->mName.C_Str());
    const std::string now = names.make(old);
    renamed.emplace(old, now);
    node->mName = ToAiString(now);
    // The mesh's own bone name, which Bone instances of the same name take over (rigs.cpp).
    MetadataBuilder md;
    md.add(kRbxMeshBone, old);
    md.mergeInto(node->mMetaData);
    for (unsigned i = 0; i < node->mNumChildren; ++i) Rename(node->mChildren[i], names, renamed);
}

} // namespace

bool RbxMeshTemplate::skinned() const {
    return skeleton() != nullptr;
}

const aiMesh *RbxMeshTemplate::mesh() const {
    return scene->mMeshes[0];
}

const aiNode *RbxMeshTemplate::skeleton() const {
    if (mesh()->mNumBones == 0) return nullptr;
    const aiNode *root = scene->mRootNode;
    for (unsigned i = 0; i < root->mNumChildren; ++i)
        if (std::string_view(root->mChildren[i]->mName.C_Str()) == rbxkeys::kSkeletonNode) return root->mChildren[i];
    return nullptr;
}

std::unique_ptr<RbxMeshTemplate> LoadRbxMeshTemplate(const std::uint8_t *data, std::size_t size, bool bakeFacs) {
    const rbxmesh::RobloxMesh file = rbxmesh::ReadRobloxMesh(data, size);
    auto t = std::make_unique<RbxMeshTemplate>();
    t->scene = std::make_unique<aiScene>();
    RobloxMeshSceneOptions options;
    options.bakeFacs = bakeFacs;
    BuildRobloxMeshScene(file, options, t->scene.get());
    const aiMesh *m = t->mesh();
    constexpr float kBig = std::numeric_limits<float>::max();
    t->min = aiVector3D(kBig, kBig, kBig);
    t->max = aiVector3D(-kBig, -kBig, -kBig);
    for (unsigned i = 0; i < m->mNumVertices; ++i) {
        const aiVector3D &v = m->mVertices[i];
        t->min = aiVector3D(std::fmin(t->min.x, v.x), std::fmin(t->min.y, v.y), std::fmin(t->min.z, v.z));
        t->max = aiVector3D(std::fmax(t->max.x, v.x), std::fmax(t->max.y, v.y), std::fmax(t->max.z, v.z));
    }
    if (m->mNumVertices == 0) t->min = t->max = aiVector3D();
    return t;
}

void MeshPartPlacement(const RbxMeshTemplate &t, const aiVector3D &size, const aiVector3D &initialSize,
                       aiVector3D &scale, aiVector3D &shift) {
    const aiVector3D extent = t.max - t.min;
    const aiVector3D centre = (t.max + t.min) * 0.5f;
    const bool initialKnown = initialSize.x > 0 && initialSize.y > 0 && initialSize.z > 0 &&
                              std::isfinite(initialSize.x) && std::isfinite(initialSize.y) &&
                              std::isfinite(initialSize.z);
    const aiVector3D initial = initialKnown ? initialSize : extent;
    const auto ratio = [](float s, float base) { return base > 0 ? s / base : 1.0f; };
    scale = aiVector3D(ratio(size.x, initial.x), ratio(size.y, initial.y), ratio(size.z, initial.z));
    const aiVector3D c = centre.Length() > 1e-3f ? centre : aiVector3D();
    shift = aiVector3D(-c.x * scale.x, -c.y * scale.y, -c.z * scale.z);
}

std::unique_ptr<aiMesh> PlaceRbxMesh(const RbxMeshTemplate &t, const aiVector3D &scale, const aiVector3D &shift,
                                     unsigned material, const std::string &name) {
    aiMesh *raw = nullptr;
    Assimp::SceneCombiner::Copy(&raw, t.mesh());
    std::unique_ptr<aiMesh> mesh(raw);
    mesh->mName = ToAiString(name);
    mesh->mMaterialIndex = material;
    const aiVector3D inverse = Reciprocal(scale);
    const auto place = [&](aiVector3D *vertices, aiVector3D *normals, aiVector3D *tangents, aiVector3D *bitangents,
                           unsigned count) {
        for (unsigned i = 0; i < count; ++i) {
            aiVector3D &v = vertices[i];
            v = aiVector3D(v.x * scale.x + shift.x, v.y * scale.y + shift.y, v.z * scale.z + shift.z);
            if (normals != nullptr) Direction(normals[i], inverse);
            // Tangents and bitangents lie in the surface: they map with the scale itself, not its inverse.
            if (tangents != nullptr) Direction(tangents[i], scale);
            if (bitangents != nullptr) Direction(bitangents[i], scale);
        }
    };
    place(mesh->mVertices, mesh->mNormals, mesh->mTangents, mesh->mBitangents, mesh->mNumVertices);
    for (unsigned a = 0; a < mesh->mNumAnimMeshes; ++a) {
        aiAnimMesh *target = mesh->mAnimMeshes[a];
        if (target != nullptr && target->mVertices != nullptr)
            place(target->mVertices, target->mNormals, target->mTangents, target->mBitangents,
                  std::min(target->mNumVertices, mesh->mNumVertices));
    }
    if (mesh->mNumBones != 0) {
        aiMatrix4x4 inverseT =
            Affine(inverse, aiVector3D(-shift.x * inverse.x, -shift.y * inverse.y, -shift.z * inverse.z));
        for (unsigned b = 0; b < mesh->mNumBones; ++b) mesh->mBones[b]->mOffsetMatrix *= inverseT;
    }
    return mesh;
}

aiNode *PlaceRbxSkeleton(const RbxMeshTemplate &t, const aiVector3D &scale, const aiVector3D &shift, UniqueNames &names,
                         aiMesh &mesh) {
    const aiNode *source = t.skeleton();
    if (source == nullptr) return nullptr;
    aiNode *copy = nullptr;
    Assimp::SceneCombiner::Copy(&copy, source);
    copy->mTransformation = Affine(scale, shift);
    std::map<std::string, std::string> renamed;
    Rename(copy, names, renamed);
    for (unsigned b = 0; b < mesh.mNumBones; ++b) {
        const auto found = renamed.find(mesh.mBones[b]->mName.C_Str());
        if (found != renamed.end()) mesh.mBones[b]->mName = ToAiString(found->second);
    }
    return copy;
}

} // namespace gamefmt::glue
