// Scene totals, bounds and the shared node walk for `info`.
#include "scene_stats.hpp"

#include <assimp/scene.h>

#include <algorithm>
#include <limits>
#include <unordered_set>
#include <vector>

namespace gamefmt::cli {
namespace {

// Transforming every vertex of every mesh instance is exact but costs instances x vertices; beyond this
// many vertex transforms the remaining instances contribute their transformed mesh box instead.
constexpr std::uint64_t kExactBoundsBudget = std::uint64_t(1) << 27;

struct Box {
    bool valid = false;
    aiVector3D min, max;
    void add(const aiVector3D &p) {
        if (!valid) {
            min = max = p;
            valid = true;
            return;
        }
        min.x = std::min(min.x, p.x), min.y = std::min(min.y, p.y), min.z = std::min(min.z, p.z);
        max.x = std::max(max.x, p.x), max.y = std::max(max.y, p.y), max.z = std::max(max.z, p.z);
    }
};

Box LocalBox(const aiMesh &mesh) {
    Box box;
    for (unsigned v = 0; v < mesh.mNumVertices; ++v) box.add(mesh.mVertices[v]);
    return box;
}

} // namespace

void ForEachNode(const aiScene &scene, const NodeVisitor &visit) {
    if (scene.mRootNode == nullptr) return;
    struct Entry {
        const aiNode *node;
        std::int64_t parent;
        std::uint64_t depth;
        aiMatrix4x4 parentWorld;
    };
    std::vector<Entry> stack{{scene.mRootNode, -1, 0, aiMatrix4x4()}};
    std::unordered_set<const aiNode *> seen;
    std::uint64_t index = 0;
    while (!stack.empty()) {
        const Entry entry = stack.back();
        stack.pop_back();
        if (!seen.insert(entry.node).second) continue;
        const aiMatrix4x4 world = entry.parentWorld * entry.node->mTransformation;
        const std::uint64_t self = index++;
        visit(*entry.node, self, entry.parent, entry.depth, world);
        // Push in reverse so children come out in their order.
        for (unsigned i = entry.node->mNumChildren; i-- > 0;) {
            const aiNode *child = entry.node->mChildren[i];
            if (child != nullptr) stack.push_back({child, static_cast<std::int64_t>(self), entry.depth + 1, world});
        }
    }
}

SceneStats ComputeStats(const aiScene &scene) {
    SceneStats stats;
    for (unsigned m = 0; m < scene.mNumMeshes; ++m) {
        const aiMesh *mesh = scene.mMeshes[m];
        if (mesh == nullptr) continue;
        stats.vertices += mesh->mNumVertices;
        stats.faces += mesh->mNumFaces;
        stats.bones += mesh->mNumBones;
        stats.primitiveTypes |= mesh->mPrimitiveTypes;
    }
    for (unsigned a = 0; a < scene.mNumAnimations; ++a)
        if (scene.mAnimations[a] != nullptr) stats.animationChannels += scene.mAnimations[a]->mNumChannels;

    Box world;
    std::vector<Box> localBoxes(scene.mNumMeshes);
    std::vector<bool> haveLocal(scene.mNumMeshes, false);
    std::uint64_t budget = kExactBoundsBudget;
    ForEachNode(
        scene, [&](const aiNode &node, std::uint64_t, std::int64_t, std::uint64_t depth, const aiMatrix4x4 &transform) {
            ++stats.nodes;
            stats.maxDepth = std::max(stats.maxDepth, depth + 1);
            for (unsigned i = 0; i < node.mNumMeshes; ++i) {
                const unsigned m = node.mMeshes[i];
                if (m >= scene.mNumMeshes || scene.mMeshes[m] == nullptr) continue;
                const aiMesh &mesh = *scene.mMeshes[m];
                if (mesh.mVertices == nullptr || mesh.mNumVertices == 0) continue;
                if (mesh.mNumVertices <= budget) {
                    budget -= mesh.mNumVertices;
                    for (unsigned v = 0; v < mesh.mNumVertices; ++v) world.add(transform * mesh.mVertices[v]);
                    continue;
                }
                budget = 0;
                if (!haveLocal[m]) {
                    localBoxes[m] = LocalBox(mesh);
                    haveLocal[m] = true;
                }
                const Box &box = localBoxes[m];
                for (int corner = 0; corner < 8; ++corner) {
                    const aiVector3D p((corner & 1) ? box.max.x : box.min.x, (corner & 2) ? box.max.y : box.min.y,
                                       (corner & 4) ? box.max.z : box.min.z);
                    world.add(transform * p);
                }
                stats.boundsApproximate = true;
            }
        });
    stats.hasBounds = world.valid;
    stats.min = world.min;
    stats.max = world.max;
    return stats;
}

std::string PrimitiveTypeNames(unsigned primitiveTypes) {
    std::string names;
    const auto add = [&](unsigned bit, const char *name) {
        if ((primitiveTypes & bit) == 0) return;
        if (!names.empty()) names += ' ';
        names += name;
    };
    add(aiPrimitiveType_POINT, "points");
    add(aiPrimitiveType_LINE, "lines");
    add(aiPrimitiveType_TRIANGLE, "triangles");
    add(aiPrimitiveType_POLYGON, "polygons");
    return names.empty() ? "none" : names;
}

std::string MetadataString(const aiMetadata *metadata, const char *key) {
    if (metadata == nullptr) return {};
    aiString value;
    if (!metadata->Get(key, value)) return {};
    return std::string(value.C_Str(), value.length);
}

double AnimationSeconds(const aiAnimation &anim) {
    const double tps = anim.mTicksPerSecond > 0 ? anim.mTicksPerSecond : 25.0;
    return anim.mDuration / tps;
}

std::uint64_t AnimationKeys(const aiAnimation &anim) {
    std::uint64_t keys = 0;
    for (unsigned c = 0; c < anim.mNumChannels; ++c)
        if (const aiNodeAnim *ch = anim.mChannels[c])
            keys += std::uint64_t(ch->mNumPositionKeys) + ch->mNumRotationKeys + ch->mNumScalingKeys;
    for (unsigned c = 0; c < anim.mNumMeshChannels; ++c)
        if (const aiMeshAnim *ch = anim.mMeshChannels[c]) keys += ch->mNumKeys;
    for (unsigned c = 0; c < anim.mNumMorphMeshChannels; ++c)
        if (const aiMeshMorphAnim *ch = anim.mMorphMeshChannels[c]) keys += ch->mNumKeys;
    return keys;
}

} // namespace gamefmt::cli
