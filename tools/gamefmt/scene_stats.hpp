// What `info` reports about a scene, gathered in linear time without recursion (node depth is
// file-controlled): totals, bounds, and a pre-order walk of the node tree shared by the text and JSON output.
#pragma once

#include <assimp/matrix4x4.h>
#include <assimp/vector3.h>

#include <cstdint>
#include <functional>
#include <string>

struct aiScene;
struct aiNode;
struct aiMetadata;
struct aiAnimation;

namespace gamefmt::cli {

struct SceneStats {
    std::uint64_t nodes = 0;
    std::uint64_t maxDepth = 0; // the root alone is depth 1, as upstream counts
    std::uint64_t vertices = 0;
    std::uint64_t faces = 0;
    std::uint64_t bones = 0;
    std::uint64_t animationChannels = 0;
    unsigned primitiveTypes = 0; // aiPrimitiveType bits of all meshes
    bool hasBounds = false;      // false when no node references a mesh with vertices
    bool boundsApproximate = false;
    aiVector3D min, max; // world space, through the node transforms
};

SceneStats ComputeStats(const aiScene &scene);

// An animation's length in seconds (ticks / ticks per second; Assimp's 25 when that is 0) and its keys (position,
// rotation, scaling, mesh and morph keys of every channel).
double AnimationSeconds(const aiAnimation &anim);
std::uint64_t AnimationKeys(const aiAnimation &anim);

// Visits every node once in pre-order: `depth` 0 is the root, `parent` is the pre-order index of the parent
// (-1 for the root). A node reachable twice (a malformed scene) is visited only the first time.
using NodeVisitor = std::function<void(const aiNode &node, std::uint64_t index, std::int64_t parent,
                                       std::uint64_t depth, const aiMatrix4x4 &world)>;
void ForEachNode(const aiScene &scene, const NodeVisitor &visit);

// "points lines triangles polygons" for the bits set, or "none".
std::string PrimitiveTypeNames(unsigned primitiveTypes);

// The string stored under `key` (e.g. SourceAsset_Format), or "" when it is absent or not a string.
std::string MetadataString(const aiMetadata *metadata, const char *key);

} // namespace gamefmt::cli
