// aiScene → the Roblox mesh builder's input (roblox_mesh_extract.hpp).
#include "assimp_glue/common/roblox_mesh_extract.hpp"

#include "assimp_glue/common/roblox_mesh_scene.hpp"
#include "assimp_glue/common/scene_util.hpp"
#include "common/error.hpp"
#include "common/math.hpp"
#include "importers/roblox_mesh/mesh.hpp"

#include <assimp/DefaultLogger.hpp>
#include <assimp/scene.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <limits>
#include <map>
#include <set>
#include <string>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace gamefmt::glue {
namespace {

using rbxmesh::kFormatName;

constexpr std::uint64_t kMaxCount = std::numeric_limits<std::uint32_t>::max();

[[noreturn]] void Fail(const std::string &problem) {
    throw FormatError(kFormatName, problem);
}

using Warnings = WarningSink;

bool IsIdentity(const aiMatrix4x4 &m) {
    return m.a1 == 1 && m.a2 == 0 && m.a3 == 0 && m.a4 == 0 && m.b1 == 0 && m.b2 == 1 && m.b3 == 0 && m.b4 == 0 &&
           m.c1 == 0 && m.c2 == 0 && m.c3 == 1 && m.c4 == 0 && m.d1 == 0 && m.d2 == 0 && m.d3 == 0 && m.d4 == 1;
}

// A node global transform prepared for baking: positions by the matrix, tangents and bitangents by its 3x3
// (they are surface directions), normals by the inverse-transpose 3x3. The cofactor matrix is the
// inverse-transpose times the determinant: it needs no division (a zero scale does not produce NaN), and
// multiplying by the determinant's sign keeps normals pointing out of mirrored geometry.
struct BakeTransform {
    bool identity = true;
    bool mirrored = false; // negative determinant: the winding must flip to keep faces front-facing
    Mat4 matrix;
    float normalMatrix[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};

    explicit BakeTransform(const aiMatrix4x4 &global) {
        identity = IsIdentity(global);
        if (identity) return;
        matrix = FromAi(global);
        const auto &m = matrix.m;
        double cof[3][3];
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) {
                const int r1 = (r + 1) % 3, r2 = (r + 2) % 3, c1 = (c + 1) % 3, c2 = (c + 2) % 3;
                cof[r][c] = double(m[r1][c1]) * m[r2][c2] - double(m[r1][c2]) * m[r2][c1];
            }
        const double det = double(m[0][0]) * cof[0][0] + double(m[0][1]) * cof[0][1] + double(m[0][2]) * cof[0][2];
        mirrored = det < 0;
        const double sign = mirrored ? -1.0 : 1.0;
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) normalMatrix[r][c] = static_cast<float>(sign * cof[r][c]);
    }

    Vec3 point(const aiVector3D &p) const {
        return identity ? Vec3(p.x, p.y, p.z) : matrix.transformPoint(Vec3(p.x, p.y, p.z));
    }
    Vec3 direction(const aiVector3D &d) const {
        return identity ? Vec3(d.x, d.y, d.z) : matrix.transformVector(Vec3(d.x, d.y, d.z)).normalized();
    }
    Vec3 normal(const aiVector3D &n) const {
        if (identity) return Vec3(n.x, n.y, n.z);
        return Vec3(normalMatrix[0][0] * n.x + normalMatrix[0][1] * n.y + normalMatrix[0][2] * n.z,
                    normalMatrix[1][0] * n.x + normalMatrix[1][1] * n.y + normalMatrix[1][2] * n.z,
                    normalMatrix[2][0] * n.x + normalMatrix[2][1] * n.y + normalMatrix[2][2] * n.z)
            .normalized();
    }
};

bool Finite(const Vec3 &v) {
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

std::uint8_t ByteFromUnit(float value, float scale, int maxByte) {
    if (!(value > 0)) return 0; // also NaN
    const long rounded = std::lround(static_cast<double>(value) * scale);
    return static_cast<std::uint8_t>(std::min<long>(rounded, maxByte));
}

// §14.1: round((t+1)·127) clamped to 0..254; the 4th byte 254 when dot(N×t, B) ≥ 0, else 0. A zero or
// missing tangent becomes 7F 7F 7F 00, what Roblox writes for UV-less meshes.
std::array<std::uint8_t, 4> TangentBytes(const Vec3 *normal, const Vec3 *tangent, const Vec3 *bitangent) {
    if (tangent == nullptr || !Finite(*tangent)) return {0x7F, 0x7F, 0x7F, 0x00};
    const float length = tangent->length();
    if (!(length > 1e-6f)) return {0x7F, 0x7F, 0x7F, 0x00};
    const Vec3 t = *tangent * (1.0f / length);
    std::array<std::uint8_t, 4> bytes{};
    bytes[0] = ByteFromUnit(t.x + 1.0f, 127.0f, 254);
    bytes[1] = ByteFromUnit(t.y + 1.0f, 127.0f, 254);
    bytes[2] = ByteFromUnit(t.z + 1.0f, 127.0f, 254);
    // Without a normal or bitangent (or with NaN in them) the handedness is unknown: +1 is the common case.
    bool negative = false;
    if (normal != nullptr && bitangent != nullptr) negative = normal->cross(t).dot(*bitangent) < 0;
    bytes[3] = negative ? 0 : 254;
    return bytes;
}

// A mesh instance: one node referencing one mesh, with the node's global transform and LOD level.
struct Instance {
    const aiNode *node = nullptr;
    const aiMesh *mesh = nullptr;
    aiMatrix4x4 global;
    std::int64_t level = 0;
};

// A node's LOD level (rbxmesh.lodLevel), capped so a hostile value cannot size anything.
bool NodeLodLevel(const aiNode *node, std::int64_t &level) {
    if (node == nullptr) return false;
    const std::optional<std::int64_t> value = GetMetadataInt(node->mMetaData, rbxkeys::kLodLevel);
    if (!value) return false;
    level = std::min<std::int64_t>(*value, 0xFFFF);
    return true;
}

// The scene graph, walked once without recursion (a hostile or generated scene may be very deep).
struct SceneGraph {
    std::vector<Instance> instances;                        // depth-first order
    std::unordered_map<const aiNode *, aiMatrix4x4> global; // every node's global transform
    std::unordered_map<std::string, const aiNode *> byName; // first node of each name
    bool hasLodNodes = false;
};

SceneGraph WalkScene(const aiScene &scene, Warnings &warnings) {
    SceneGraph graph;
    const std::int64_t top = 0;
    // Studs: a scene that states its unit (UnitScaleFactor, or glTF's metres) is scaled at the root.
    aiMatrix4x4 root;
    const double studs = StudsPerSceneUnit(scene);
    if (studs != 1.0) {
        root.a1 = root.b2 = root.c3 = static_cast<ai_real>(studs);
        LogInfo("Roblox mesh export: lengths scaled by " + std::to_string(studs) + " to studs (the scene's unit)");
    }
    WalkNodes(scene.mRootNode, root, top, [&](const aiNode &node, const aiMatrix4x4 &parent, std::int64_t level) {
        const aiMatrix4x4 global = parent * node.mTransformation;
        graph.global.emplace(&node, global);
        graph.byName.emplace(node.mName.C_Str(), &node);
        std::int64_t own = 0;
        if (NodeLodLevel(&node, own)) {
            if (own < 0) {
                warnings.add("node '" + std::string(node.mName.C_Str()) + "' has a negative " + rbxkeys::kLodLevel +
                             "; ignored");
            } else {
                level = own;
                graph.hasLodNodes = true;
            }
        }
        for (unsigned i = 0; i < node.mNumMeshes; ++i) {
            const unsigned index = node.mMeshes[i];
            if (index >= scene.mNumMeshes || scene.mMeshes[index] == nullptr) continue;
            graph.instances.push_back({&node, scene.mMeshes[index], global, level});
        }
        return std::make_pair(global, level);
    });
    return graph;
}

// Bones (§14.4.1): every aiBone name is one bone (the same name in several meshes is the same bone), in
// order of first appearance; world bind = G_mesh · inverse(mOffsetMatrix). Nodes without an aiBone that
// sit between two bones in the hierarchy join with their node global transform, so parents stay parents.
struct Skeleton {
    std::vector<rbxmesh::BoneInput> bones;
    std::unordered_map<std::string, std::uint32_t> index;
};

rbxmesh::BoneInput MakeBone(const std::string &name, const Mat4 &world) {
    rbxmesh::BoneInput bone;
    bone.name = name;
    Vec3 position;
    world.toRowMajor3x4(bone.rotation.data(), position);
    bone.position = {position.x, position.y, position.z};
    return bone;
}

Skeleton CollectSkeleton(const SceneGraph &graph, Warnings &warnings) {
    Skeleton skeleton;
    std::vector<Mat4> worlds;
    for (const Instance &instance : graph.instances) {
        const aiMesh *mesh = instance.mesh;
        if (mesh->mNumBones == 0 || mesh->mBones == nullptr) continue;
        const Mat4 meshGlobal = FromAi(instance.global);
        for (unsigned b = 0; b < mesh->mNumBones; ++b) {
            const aiBone *bone = mesh->mBones[b];
            if (bone == nullptr) continue;
            const std::string name = bone->mName.C_Str();
            const std::optional<Mat4> bind = FromAi(bone->mOffsetMatrix).inverse();
            if (!bind) Fail("bone '" + name + "' has a singular offset matrix (no bind pose)");
            const Mat4 world = meshGlobal * *bind;
            const auto found = skeleton.index.find(name);
            if (found != skeleton.index.end()) {
                if (!worlds[found->second].nearlyEquals(world, 3))
                    warnings.add("bone '" + name + "' has different bind poses in different meshes; the first is kept");
                continue;
            }
            skeleton.index.emplace(name, static_cast<std::uint32_t>(skeleton.bones.size()));
            skeleton.bones.push_back(MakeBone(name, world));
            worlds.push_back(world);
        }
    }
    if (skeleton.bones.empty()) return skeleton;

    // Which nodes are bones; the non-bone nodes on the path from a bone up to an ancestor bone join.
    std::unordered_map<const aiNode *, std::uint32_t> nodeBone;
    for (std::size_t i = 0; i < skeleton.bones.size(); ++i) {
        const auto node = graph.byName.find(skeleton.bones[i].name);
        if (node == graph.byName.end()) {
            warnings.add("bone '" + skeleton.bones[i].name + "' has no node; it becomes a root bone");
            continue;
        }
        nodeBone.emplace(node->second, static_cast<std::uint32_t>(i));
    }
    const std::size_t namedBones = skeleton.bones.size();
    for (std::size_t i = 0; i < namedBones; ++i) {
        const auto node = graph.byName.find(skeleton.bones[i].name);
        if (node == graph.byName.end()) continue;
        std::vector<const aiNode *> between;
        const aiNode *p = node->second->mParent;
        while (p != nullptr && nodeBone.count(p) == 0) {
            between.push_back(p);
            p = p->mParent;
        }
        if (p == nullptr) continue; // reached the root: nothing to bridge
        for (const aiNode *n : between) {
            const std::string name = n->mName.C_Str();
            if (skeleton.index.count(name) != 0) continue; // its name is taken by a bone elsewhere
            const auto global = graph.global.find(n);
            if (global == graph.global.end()) continue;
            const auto index = static_cast<std::uint32_t>(skeleton.bones.size());
            skeleton.index.emplace(name, index);
            skeleton.bones.push_back(MakeBone(name, FromAi(global->second)));
            nodeBone.emplace(n, index);
            warnings.add("node '" + name +
                         "' between bones has no aiBone; it joins the skeleton with its node "
                         "transform as bind pose");
        }
    }

    for (const auto &[node, index] : nodeBone) {
        // Parent: the nearest ancestor node that is a bone.
        const aiNode *p = node->mParent;
        while (p != nullptr && nodeBone.count(p) == 0) p = p->mParent;
        if (p != nullptr) skeleton.bones[index].parent = static_cast<std::int32_t>(nodeBone.at(p));
        // Our importer made repeated file bone names unique for the scene and kept the file's name: it goes
        // back into the file (FACS data matches face bones by that name).
        aiString original;
        if (node->mMetaData != nullptr && node->mMetaData->Get(rbxkeys::kOriginalName, original) && original.length > 0)
            skeleton.bones[index].name = original.C_Str();
    }
    if (skeleton.bones.size() > 0xFFFE) // 0xFFFF means "no bone" in the file
        Fail("the scene has " + std::to_string(skeleton.bones.size()) + " bones; a Roblox mesh holds at most 65534");
    return skeleton;
}

rbxmesh::Vertex MakeVertex(const aiMesh &mesh, unsigned i, const BakeTransform &bake) {
    rbxmesh::Vertex v;
    const Vec3 p = bake.point(mesh.mVertices[i]);
    v.px = p.x;
    v.py = p.y;
    v.pz = p.z;
    Vec3 n;
    const bool hasNormal = mesh.mNormals != nullptr;
    if (hasNormal) {
        n = bake.normal(mesh.mNormals[i]);
        if (!Finite(n)) n = Vec3(); // GenSmoothNormals leaves NaN on degenerate faces
        v.nx = n.x;
        v.ny = n.y;
        v.nz = n.z;
    }
    if (mesh.mTextureCoords[0] != nullptr) {
        v.u = mesh.mTextureCoords[0][i].x;
        v.v = 1.0f - mesh.mTextureCoords[0][i].y; // the file's V runs top-down
    } else {
        v.v = 1.0f;
    }
    if (mesh.mTangents != nullptr) {
        const aiVector3D &rawT = mesh.mTangents[i];
        // Tangents the importer left zero (absent in the file) stay absent: no normalising of zero.
        const Vec3 t = (rawT.x == 0 && rawT.y == 0 && rawT.z == 0) ? Vec3() : bake.direction(rawT);
        Vec3 b;
        const bool hasBitangent = mesh.mBitangents != nullptr;
        if (hasBitangent) b = bake.direction(mesh.mBitangents[i]);
        v.tangent = TangentBytes(hasNormal ? &n : nullptr, &t, hasBitangent ? &b : nullptr);
    } else {
        v.tangent = TangentBytes(nullptr, nullptr, nullptr);
    }
    if (mesh.mColors[0] != nullptr) {
        const aiColor4D &c = mesh.mColors[0][i];
        v.color = {ByteFromUnit(c.r, 255.0f, 255), ByteFromUnit(c.g, 255.0f, 255), ByteFromUnit(c.b, 255.0f, 255),
                   ByteFromUnit(c.a, 255.0f, 255)};
    }
    return v;
}

// Triangles after fanning polygons (a face of n >= 3 indices gives n - 2).
std::uint64_t TriangleCount(const aiMesh &mesh) {
    std::uint64_t count = 0;
    for (unsigned f = 0; f < mesh.mNumFaces; ++f)
        if (mesh.mFaces[f].mNumIndices >= 3) count += mesh.mFaces[f].mNumIndices - 2;
    return count;
}

// What the instances add, checked before any vertex is read.
void CheckLimits(const std::vector<const Instance *> &used) {
    std::uint64_t vertices = 0, indices = 0;
    for (const Instance *instance : used) {
        vertices += instance->mesh->mNumVertices;
        indices += TriangleCount(*instance->mesh) * 3;
    }
    if (vertices > kMaxCount)
        Fail("the merged mesh would have " + std::to_string(vertices) +
             " vertices; a Roblox mesh holds at most 2^32 - 1");
    if (indices > kMaxCount)
        Fail("the merged mesh would have " + std::to_string(indices) +
             " indices; a Roblox mesh holds at most 2^32 - 1");
}

// The instances with triangles, level by level (each level's vertices then form one contiguous range);
// points and lines are counted in `skipped`, the materials used in `materials`.
std::vector<const Instance *> InstancesWithTriangles(const SceneGraph &graph,
                                                     const std::map<std::int64_t, std::size_t> &levelOf,
                                                     std::size_t &skippedPrimitives, std::set<unsigned> &materials) {
    std::vector<const Instance *> used;
    for (std::size_t level = 0; level < levelOf.size(); ++level) {
        for (const Instance &instance : graph.instances) {
            if (levelOf.at(instance.level) != level) continue;
            const aiMesh &mesh = *instance.mesh;
            if (mesh.mNumVertices == 0 || mesh.mVertices == nullptr || mesh.mFaces == nullptr) continue;
            bool hasTriangle = false;
            for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
                if (mesh.mFaces[f].mNumIndices >= 3)
                    hasTriangle = true;
                else
                    ++skippedPrimitives;
            }
            if (!hasTriangle) continue;
            used.push_back(&instance);
            materials.insert(mesh.mMaterialIndex);
        }
    }
    return used;
}

// The mesh's faces as triangles on the merged vertex numbering (polygons, which Triangulate normally
// removes, are fanned; mirrored transforms flip the winding).
void AppendFaces(const aiMesh &mesh, std::uint32_t base, bool mirrored, std::vector<rbxmesh::Face> &faces) {
    faces.reserve(faces.size() + static_cast<std::size_t>(TriangleCount(mesh)));
    for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
        const aiFace &face = mesh.mFaces[f];
        if (face.mNumIndices < 3 || face.mIndices == nullptr) continue;
        bool valid = true;
        for (unsigned k = 0; k < face.mNumIndices; ++k) valid = valid && face.mIndices[k] < mesh.mNumVertices;
        if (!valid) Fail("a face of mesh '" + std::string(mesh.mName.C_Str()) + "' indexes a missing vertex");
        for (unsigned k = 1; k + 1 < face.mNumIndices; ++k) {
            rbxmesh::Face tri{base + face.mIndices[0], base + face.mIndices[k], base + face.mIndices[k + 1]};
            if (mirrored) std::swap(tri.b, tri.c);
            faces.push_back(tri);
        }
    }
}

// The mesh's bone weights as influences of the merged vertices.
void AppendInfluences(const aiMesh &mesh, std::uint32_t base, const Skeleton &skeleton,
                      std::vector<std::vector<rbxmesh::Influence>> &influences) {
    for (unsigned b = 0; b < mesh.mNumBones; ++b) {
        const aiBone *bone = mesh.mBones[b];
        if (bone == nullptr || bone->mWeights == nullptr) continue;
        const std::uint32_t boneIndex = skeleton.index.at(bone->mName.C_Str());
        for (unsigned w = 0; w < bone->mNumWeights; ++w) {
            const aiVertexWeight &weight = bone->mWeights[w];
            if (weight.mVertexId >= mesh.mNumVertices || !(weight.mWeight > 0)) continue;
            influences[base + weight.mVertexId].push_back({boneIndex, weight.mWeight});
        }
    }
}

} // namespace

RobloxMeshSceneInput ExtractRobloxMeshInput(const aiScene &scene) {
    RobloxMeshSceneInput out;
    Warnings warnings(out.warnings, "Roblox mesh export: ");
    if (scene.mRootNode == nullptr) Fail("the scene has no root node");
    const SceneGraph graph = WalkScene(scene, warnings);

    // Levels: the distinct lodLevel values, in increasing order, become levels 0, 1, ...
    std::set<std::int64_t> levelValues;
    for (const Instance &instance : graph.instances) levelValues.insert(instance.level);
    std::map<std::int64_t, std::size_t> levelOf;
    for (const std::int64_t value : levelValues) levelOf.emplace(value, levelOf.size());
    if (!levelValues.empty() && (*levelValues.rbegin() != static_cast<std::int64_t>(levelValues.size()) - 1))
        warnings.add("the scene's LOD levels are not numbered 0, 1, 2, ...; they are renumbered in order");

    // Instances with triangles, level by level (each level's vertices then form one contiguous range).
    std::size_t skippedPrimitives = 0;
    std::set<unsigned> materials;
    const std::vector<const Instance *> used = InstancesWithTriangles(graph, levelOf, skippedPrimitives, materials);
    if (skippedPrimitives > 0)
        warnings.add(std::to_string(skippedPrimitives) + " point and line primitives skipped (a Roblox mesh holds "
                                                         "triangles only)");
    if (used.empty()) Fail("the scene has no triangles to write");
    if (materials.size() > 1)
        warnings.add("the scene uses " + std::to_string(materials.size()) +
                     " materials; a Roblox mesh has none, so every mesh is merged into one");
    if (std::any_of(used.begin(), used.end(), [](const Instance *i) { return i->mesh->mNumAnimMeshes > 0; }))
        LogDebug("Roblox mesh export: morph targets (aiAnimMesh) are not written (baked FACS poses never go back)");
    CheckLimits(used);

    const Skeleton skeleton = CollectSkeleton(graph, warnings);
    rbxmesh::BuildInput &input = out.input;
    input.bones = skeleton.bones;
    const bool skinned = !input.bones.empty();

    // The level index of each used instance, and the face lists.
    std::size_t levelCount = 0;
    for (const Instance *instance : used) levelCount = std::max(levelCount, levelOf.at(instance->level) + 1);
    // Levels without triangles (every mesh of the level skipped) vanish rather than writing empty levels.
    std::vector<std::size_t> compact(levelCount, levelCount);
    {
        std::size_t next = 0;
        for (const Instance *instance : used) {
            std::size_t &slot = compact[levelOf.at(instance->level)];
            if (slot == levelCount) slot = next++;
        }
        levelCount = next;
    }
    input.lods.assign(levelCount, {});
    std::uint64_t totalVertices = 0;
    for (const Instance *instance : used) totalVertices += instance->mesh->mNumVertices;
    input.vertices.reserve(static_cast<std::size_t>(totalVertices));
    if (skinned) input.influences.assign(static_cast<std::size_t>(totalVertices), {});

    for (const Instance *instance : used) {
        const aiMesh &mesh = *instance->mesh;
        const BakeTransform bake(instance->global);
        const auto base = static_cast<std::uint32_t>(input.vertices.size());
        for (unsigned i = 0; i < mesh.mNumVertices; ++i) input.vertices.push_back(MakeVertex(mesh, i, bake));

        AppendFaces(mesh, base, bake.mirrored, input.lods[compact[levelOf.at(instance->level)]]);
        if (skinned) AppendInfluences(mesh, base, skeleton, input.influences);
    }
    out.sceneLevels = levelCount;

    // Passthrough blobs from a Roblox mesh import; the caller decides whether the version can hold them.
    rbxmesh::Facs facs;
    if (ReadRobloxFacsMetadata(scene.mMetaData, facs)) input.facs = std::move(facs);
    rbxmesh::Hsravis hsravis;
    if (ReadRobloxHsravisMetadata(scene.mMetaData, hsravis)) input.hsravis = std::move(hsravis);
    return out;
}

} // namespace gamefmt::glue
