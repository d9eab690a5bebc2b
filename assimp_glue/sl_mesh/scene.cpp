// Second Life mesh asset model -> aiScene (docs/formats/sl-mesh.md §12): the chosen level(s) of detail as one mesh per
// face, white per-face materials, the avatar joints a rigged asset binds to, optional physics meshes and
// hulls, and the header facts as scene metadata. The node layout is the contract in assimp_glue/sl_mesh/scene.hpp.
#include "assimp_glue/sl_mesh/scene.hpp"

#include "assimp_glue/common/scene_util.hpp"
#include "common/error.hpp"
#include "importers/sl_mesh/hull.hpp"
#include "importers/sl_mesh/skeleton.hpp"

#include <assimp/commonMetaData.h>
#include <assimp/mesh.h>
#include <assimp/scene.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <memory>
#include <optional>

namespace gamefmt::glue {
namespace {

using slmesh::Face;
using slmesh::kFormatName;
using slmesh::Lod;
using slmesh::SLMeshAsset;

constexpr const char *kSourceFormat = "Second Life mesh asset";
constexpr const char *kLodLevelKey = "sl.lodLevel";
constexpr const char *kPhysicsNode = "physics";
constexpr const char *kPhysicsMeshNode = "physics_mesh";
constexpr const char *kPhysicsConvexNode = "physics_convex";
constexpr const char *kPhysicsMaterial = "physics";
constexpr std::uint32_t kUnused = std::numeric_limits<std::uint32_t>::max();

// The option spelling of each level ("lowest" ... "high"), as sl.lod reports it.
const char *LodOptionName(int level) {
    static const char *const names[4] = {"lowest", "low", "medium", "high"};
    return level >= 0 && level < 4 ? names[level] : "high";
}

// ---------------------------------------------------------------- double-precision matrices (§5)

using M4 = Mat4d;

// The 16 stored reals are column-major of the column-vector matrix: A[r][c] = e[c * 4 + r] (§5).
M4 FromStored(const slmesh::Matrix16 &e) {
    M4 r;
    for (int row = 0; row < 4; ++row)
        for (int col = 0; col < 4; ++col)
            r.m[row][col] = e[static_cast<std::size_t>(col) * 4 + static_cast<std::size_t>(row)];
    return r;
}

aiMatrix4x4 ToAiMatrix(const M4 &m) {
    const auto f = [&m](int r, int c) { return static_cast<ai_real>(m.m[r][c]); };
    return aiMatrix4x4(f(0, 0), f(0, 1), f(0, 2), f(0, 3), f(1, 0), f(1, 1), f(1, 2), f(1, 3), f(2, 0), f(2, 1),
                       f(2, 2), f(2, 3), f(3, 0), f(3, 1), f(3, 2), f(3, 3));
}

// ---------------------------------------------------------------- names and nodes

void AttachChildren(aiNode *parent, const std::vector<aiNode *> &children) {
    if (children.empty()) return;
    parent->mNumChildren = static_cast<unsigned>(children.size());
    parent->mChildren = new aiNode *[children.size()];
    for (std::size_t i = 0; i < children.size(); ++i) {
        parent->mChildren[i] = children[i];
        children[i]->mParent = parent;
    }
}

void SetNodeMeshes(aiNode *node, const std::vector<unsigned> &meshes) {
    if (meshes.empty()) return;
    node->mNumMeshes = static_cast<unsigned>(meshes.size());
    node->mMeshes = CopyToNewArray(meshes);
}

// Owns the scene's meshes until they are handed to the aiScene (so an exception leaks nothing).
class MeshList {
public:
    unsigned add(aiMesh *mesh) {
        mMeshes.emplace_back(mesh);
        return static_cast<unsigned>(mMeshes.size() - 1);
    }
    std::size_t size() const { return mMeshes.size(); }
    void moveInto(aiScene *scene) {
        if (mMeshes.empty()) return;
        scene->mNumMeshes = static_cast<unsigned>(mMeshes.size());
        scene->mMeshes = new aiMesh *[mMeshes.size()];
        for (std::size_t i = 0; i < mMeshes.size(); ++i) scene->mMeshes[i] = mMeshes[i].release();
        mMeshes.clear();
    }

private:
    std::vector<std::unique_ptr<aiMesh>> mMeshes;
};

// Owns nodes not yet attached to the tree.
struct NodeDeleter {
    void operator()(aiNode *n) const { delete n; }
};
using NodePtr = std::unique_ptr<aiNode, NodeDeleter>;

// ---------------------------------------------------------------- rig

// How each joint of the skin is bound: the bone name (= the node it follows) and its offset matrix.
struct SkinBinding {
    std::vector<std::string> boneNames;
    std::vector<aiMatrix4x4> offsets;
};

struct Rig {
    SkinBinding binding;
    std::vector<int> tableJoint;          // per skin joint: index into kAvatarJoints or -1
    std::vector<std::size_t> looseJoints; // skin joints with a node of their own under the root
    std::vector<std::string> looseNames;
};

bool HasUsableSkin(const SLMeshAsset &asset) {
    return asset.skin && !asset.skin->jointNames.empty() &&
           asset.skin->inverseBind.size() == asset.skin->jointNames.size();
}

// ---------------------------------------------------------------- geometry

bool FaceHasTriangles(const Face &face) {
    if (face.noGeometry) return false;
    const std::size_t n = face.vertexCount();
    for (std::size_t t = 0; t + 2 < face.indices.size(); t += 3)
        if (face.indices[t] < n && face.indices[t + 1] < n && face.indices[t + 2] < n) return true;
    return false;
}

bool LodHasGeometry(const std::optional<Lod> &lod) {
    if (!lod) return false;
    for (const Face &face : lod->faces)
        if (FaceHasTriangles(face)) return true;
    return false;
}

// One mesh of one face: exact float32 dequantization (§4.1), the file's vertex order (compacted only when
// some vertex is unused), triangles with an index >= N dropped. Null when no triangle is left.
// Positions, normals and UVs of the kept vertices (`toFile`: mesh vertex -> file vertex), dequantised.
void FillVertices(const Face &face, const std::vector<std::uint32_t> &toFile, aiMesh &mesh) {
    const std::size_t n = face.vertexCount();
    const auto count = static_cast<unsigned>(toFile.size());
    const slmesh::Domain3 domain = face.positionDomain.value_or(slmesh::Domain3{});
    for (unsigned i = 0; i < count; ++i) {
        const std::uint16_t *q = &face.positions[std::size_t(toFile[i]) * 3];
        mesh.mVertices[i] = aiVector3D(slmesh::DequantizeComponent(q[0], domain.min[0], domain.max[0]),
                                       slmesh::DequantizeComponent(q[1], domain.min[1], domain.max[1]),
                                       slmesh::DequantizeComponent(q[2], domain.min[2], domain.max[2]));
    }
    if (face.hasNormals && face.normals.size() >= n * 3) {
        mesh.mNormals = new aiVector3D[count];
        for (unsigned i = 0; i < count; ++i) {
            const std::uint16_t *q = &face.normals[std::size_t(toFile[i]) * 3];
            mesh.mNormals[i] = aiVector3D(slmesh::DequantizeNormal(q[0]), slmesh::DequantizeNormal(q[1]),
                                          slmesh::DequantizeNormal(q[2]));
        }
    }
    if (face.hasTexCoords && face.texCoords.size() >= n * 2) {
        const slmesh::Domain2 uv = face.texCoordDomain.value_or(slmesh::Domain2{});
        mesh.mTextureCoords[0] = new aiVector3D[count];
        mesh.mNumUVComponents[0] = 2;
        for (unsigned i = 0; i < count; ++i) {
            const std::uint16_t *q = &face.texCoords[std::size_t(toFile[i]) * 2];
            mesh.mTextureCoords[0][i] = aiVector3D(slmesh::DequantizeComponent(q[0], uv.min[0], uv.max[0]),
                                                   slmesh::DequantizeComponent(q[1], uv.min[1], uv.max[1]), 0.0f);
        }
    }
}

// One aiBone per joint, in joint order, weighted or not (so the joint list and matrices round-trip); each
// vertex's influences normalised to sum 1.
void AddBones(const Face &face, const SkinBinding &skin, const std::vector<std::uint32_t> &toFile, aiMesh &mesh) {
    const unsigned count = mesh.mNumVertices;
    const std::size_t joints = skin.boneNames.size();
    std::vector<std::vector<aiVertexWeight>> weights(joints);
    if (face.hasWeights) {
        for (unsigned i = 0; i < count; ++i) {
            const std::size_t fv = toFile[i];
            if (fv >= face.weights.size()) continue; // short Weights: the rest unweighted (§10)
            const slmesh::WeightRecord &record = face.weights[fv];
            double sum = 0;
            const unsigned k = std::min<unsigned>(record.count, 4);
            for (unsigned j = 0; j < k; ++j)
                if (record.influences[j].joint < joints) sum += record.influences[j].weight / 65535.0;
            if (!(sum > 0)) continue;
            for (unsigned j = 0; j < k; ++j) {
                const slmesh::WeightInfluence &inf = record.influences[j];
                if (inf.joint >= joints || inf.weight == 0) continue;
                weights[inf.joint].emplace_back(i, static_cast<ai_real>((inf.weight / 65535.0) / sum));
            }
        }
    }
    mesh.mNumBones = static_cast<unsigned>(joints);
    mesh.mBones = new aiBone *[joints]();
    for (std::size_t j = 0; j < joints; ++j) {
        auto *bone = new aiBone();
        mesh.mBones[j] = bone;
        bone->mName = ToAiString(skin.boneNames[j]);
        bone->mOffsetMatrix = skin.offsets[j];
        bone->mNumWeights = static_cast<unsigned>(weights[j].size());
        bone->mWeights = CopyToNewArray(weights[j]);
    }
}

aiMesh *BuildFaceMesh(const Face &face, const std::string &name, unsigned materialIndex, const SkinBinding *skin) {
    if (face.noGeometry) return nullptr;
    const std::size_t n = face.vertexCount();
    std::vector<std::uint32_t> triangles;
    triangles.reserve(face.indices.size());
    for (std::size_t t = 0; t + 2 < face.indices.size(); t += 3) {
        const std::uint32_t a = face.indices[t], b = face.indices[t + 1], c = face.indices[t + 2];
        if (a >= n || b >= n || c >= n) continue;
        triangles.insert(triangles.end(), {a, b, c});
    }
    if (triangles.empty()) return nullptr;

    // Unreferenced vertices make the validator warn: keep the file's order but drop them.
    std::vector<std::uint32_t> toMesh(n, kUnused);
    for (const std::uint32_t i : triangles) toMesh[i] = 0;
    std::vector<std::uint32_t> toFile;
    toFile.reserve(n);
    for (std::uint32_t v = 0; v < n; ++v) {
        if (toMesh[v] == kUnused) continue;
        toMesh[v] = static_cast<std::uint32_t>(toFile.size());
        toFile.push_back(v);
    }
    const auto count = static_cast<unsigned>(toFile.size());

    auto mesh = std::make_unique<aiMesh>();
    mesh->mName = ToAiString(name);
    mesh->mMaterialIndex = materialIndex;
    mesh->mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
    mesh->mNumVertices = count;
    mesh->mVertices = new aiVector3D[count];
    FillVertices(face, toFile, *mesh);

    const std::size_t faceCount = triangles.size() / 3;
    mesh->mNumFaces = static_cast<unsigned>(faceCount);
    mesh->mFaces = new aiFace[faceCount];
    for (std::size_t f = 0; f < faceCount; ++f) {
        aiFace &out = mesh->mFaces[f];
        out.mNumIndices = 3;
        out.mIndices =
            new unsigned[3]{toMesh[triangles[f * 3]], toMesh[triangles[f * 3 + 1]], toMesh[triangles[f * 3 + 2]]};
    }

    if (skin != nullptr) AddBones(face, *skin, toFile, *mesh);
    return mesh.release();
}

// A mesh over points (hull input qhull could not close): one point primitive per point.
aiMesh *BuildPointMesh(const std::vector<float> &xyz, const std::string &name, unsigned materialIndex) {
    const std::size_t n = xyz.size() / 3;
    auto mesh = std::make_unique<aiMesh>();
    mesh->mName = ToAiString(name);
    mesh->mMaterialIndex = materialIndex;
    mesh->mPrimitiveTypes = aiPrimitiveType_POINT;
    mesh->mNumVertices = static_cast<unsigned>(n);
    mesh->mVertices = new aiVector3D[n];
    mesh->mNumFaces = static_cast<unsigned>(n);
    mesh->mFaces = new aiFace[n];
    for (std::size_t i = 0; i < n; ++i) {
        mesh->mVertices[i] = aiVector3D(xyz[i * 3], xyz[i * 3 + 1], xyz[i * 3 + 2]);
        mesh->mFaces[i].mNumIndices = 1;
        mesh->mFaces[i].mIndices = new unsigned[1]{static_cast<unsigned>(i)};
    }
    return mesh.release();
}

// A closed hull over the points qhull kept (vertices compacted, triangles facing outward).
aiMesh *BuildHullMesh(const std::vector<float> &xyz, const slmesh::ConvexHull &hull, const std::string &name,
                      unsigned materialIndex) {
    std::vector<std::uint32_t> toMesh(xyz.size() / 3, kUnused);
    for (std::size_t i = 0; i < hull.vertices.size(); ++i) toMesh[hull.vertices[i]] = static_cast<std::uint32_t>(i);
    auto mesh = std::make_unique<aiMesh>();
    mesh->mName = ToAiString(name);
    mesh->mMaterialIndex = materialIndex;
    mesh->mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
    const std::size_t n = hull.vertices.size();
    mesh->mNumVertices = static_cast<unsigned>(n);
    mesh->mVertices = new aiVector3D[n];
    for (std::size_t i = 0; i < n; ++i) {
        const std::size_t p = hull.vertices[i];
        mesh->mVertices[i] = aiVector3D(xyz[p * 3], xyz[p * 3 + 1], xyz[p * 3 + 2]);
    }
    const std::size_t faces = hull.triangles.size() / 3;
    mesh->mNumFaces = static_cast<unsigned>(faces);
    mesh->mFaces = new aiFace[faces];
    for (std::size_t f = 0; f < faces; ++f) {
        mesh->mFaces[f].mNumIndices = 3;
        mesh->mFaces[f].mIndices = new unsigned[3]{toMesh[hull.triangles[f * 3]], toMesh[hull.triangles[f * 3 + 1]],
                                                   toMesh[hull.triangles[f * 3 + 2]]};
    }
    return mesh.release();
}

// Dequantized hull points (§6: same float32 arithmetic as positions).
std::vector<float> DecodePoints(const std::uint16_t *q, std::size_t count, const slmesh::Domain3 &domain) {
    std::vector<float> out(count * 3);
    for (std::size_t i = 0; i < count * 3; ++i)
        out[i] = slmesh::DequantizeComponent(q[i], domain.min[i % 3], domain.max[i % 3]);
    return out;
}

// ---------------------------------------------------------------- metadata formatting

std::string FormatUuid(const slmesh::UUIDBytes &u) {
    static const char hex[] = "0123456789abcdef";
    std::string s;
    s.reserve(36);
    for (std::size_t i = 0; i < u.size(); ++i) {
        if (i == 4 || i == 6 || i == 8 || i == 10) s += '-';
        s += hex[u[i] >> 4];
        s += hex[u[i] & 0xF];
    }
    return s;
}

void AddSceneMetadata(const SLMeshAsset &asset, const std::string &lodName, const std::optional<slmesh::Real3> &scale,
                      bool yUp, aiScene *scene) {
    MetadataBuilder md;
    md.add(AI_METADATA_SOURCE_FORMAT, kSourceFormat);
    if (asset.version) {
        md.add(AI_METADATA_SOURCE_FORMAT_VERSION, std::to_string(*asset.version));
        md.add("sl.version", static_cast<std::int32_t>(*asset.version));
    }
    if (asset.creator) md.add("sl.creator", FormatUuid(*asset.creator));
    if (asset.date) {
        const std::string iso = slmesh::FormatIsoDate(*asset.date);
        if (!iso.empty()) md.add("sl.date", iso);
        md.add("sl.dateSeconds", *asset.date);
    }
    if (asset.submodelId) md.add("sl.submodelId", static_cast<std::int32_t>(*asset.submodelId));
    md.add("sl.lod", lodName);
    if (scale)
        md.add("sl.normalizedScale", aiVector3D(static_cast<ai_real>((*scale)[0]), static_cast<ai_real>((*scale)[1]),
                                                static_cast<ai_real>((*scale)[2])));
    if (!yUp) {
        md.add("UpAxis", static_cast<std::int32_t>(2));
        md.add("UpAxisSign", static_cast<std::int32_t>(1));
    }
    md.mergeInto(scene->mMetaData);
}

std::optional<slmesh::Real3> LodNormalizedScale(const Lod &lod) {
    for (const Face &face : lod.faces)
        if (face.normalizedScale) return face.normalizedScale;
    return std::nullopt;
}

aiMatrix4x4 ScaleMatrix(const slmesh::Real3 &s) {
    aiMatrix4x4 m;
    m.a1 = static_cast<ai_real>(s[0]);
    m.b2 = static_cast<ai_real>(s[1]);
    m.c3 = static_cast<ai_real>(s[2]);
    return m;
}

// ---------------------------------------------------------------- the builder

class Builder {
public:
    Builder(const SLMeshAsset &asset, const SlMeshSceneOptions &options) : mAsset(asset), mOptions(options) {}

    void build(aiScene *scene);

private:
    std::vector<int> chooseLevels();
    void prepareRig();
    NodePtr buildLodNode(int level, unsigned &materialCount);
    NodePtr buildPhysicsNode(unsigned physicsMaterial, bool &usedPhysicsMaterial);
    NodePtr buildConvexNode(unsigned physicsMaterial, bool &used);
    std::vector<NodePtr> buildSkeletonNodes();

    const SLMeshAsset &mAsset;
    const SlMeshSceneOptions &mOptions;
    std::vector<std::string> mWarnings;
    UniqueNames mNames;
    MeshList mMeshes;
    bool mRigged = false;
    Rig mRig;
};

std::vector<int> Builder::chooseLevels() {
    std::vector<int> levels;
    if (mOptions.allLods) {
        for (int level = slmesh::kHighLod; level >= slmesh::kLowestLod; --level)
            if (LodHasGeometry(mAsset.lods[level])) levels.push_back(level);
    } else {
        const int preferred = std::clamp(mOptions.lod, 0, 3);
        // §10 step 3 (viewer getActualMeshLOD): the preferred level, then lower ones, then higher ones.
        for (int level = preferred; level >= 0 && levels.empty(); --level)
            if (LodHasGeometry(mAsset.lods[level])) levels.push_back(level);
        for (int level = preferred + 1; level < 4 && levels.empty(); ++level)
            if (LodHasGeometry(mAsset.lods[level])) levels.push_back(level);
        if (!levels.empty() && levels[0] != preferred)
            mWarnings.push_back(std::string(slmesh::LodKey(preferred)) + " is absent or has no triangles; " +
                                slmesh::LodKey(levels[0]) + " imported instead");
    }
    if (levels.empty())
        throw FormatError(kFormatName, "no level of detail has any triangle (every face is NoGeometry or empty)");
    return levels;
}

void Builder::prepareRig() {
    mRigged = HasUsableSkin(mAsset);
    if (!mRigged) {
        if (mAsset.skin)
            mWarnings.push_back("skin: " + std::to_string(mAsset.skin->inverseBind.size()) +
                                " inverse bind matrices for " + std::to_string(mAsset.skin->jointNames.size()) +
                                " joints; mesh imported unrigged");
        return;
    }
    const slmesh::Skin &skin = *mAsset.skin;
    const std::size_t joints = skin.jointNames.size();
    const M4 bindShape = skin.bindShape ? FromStored(*skin.bindShape) : M4();
    mRig.tableJoint.assign(joints, -1);
    mRig.binding.boneNames.resize(joints);
    mRig.binding.offsets.resize(joints);
    std::vector<bool> claimed(slmesh::kAvatarJointCount, false);
    for (std::size_t j = 0; j < joints; ++j) {
        const std::string &name = skin.jointNames[j];
        int t = slmesh::FindAvatarJoint(name);
        if (t < 0) {
            if (const std::optional<std::string> canonical = slmesh::CanonicalJointName(name)) {
                t = slmesh::FindAvatarJoint(*canonical);
                if (t >= 0)
                    mWarnings.push_back("skin joint " + std::to_string(j) + " \"" + name + "\" is an alias of " +
                                        *canonical + "; bound to that joint");
            }
        }
        if (t >= 0 && claimed[static_cast<std::size_t>(t)]) {
            mWarnings.push_back("skin joint " + std::to_string(j) + " \"" + name + "\" repeats avatar joint " +
                                slmesh::kAvatarJoints[t].name + "; given its own node at its inverse bind pose");
            t = -1;
        } else if (t < 0) {
            mWarnings.push_back("skin joint " + std::to_string(j) + " \"" + name +
                                "\" is not an avatar joint; given its own node at its inverse bind pose");
        }
        mRig.tableJoint[j] = t;
        if (t >= 0) claimed[static_cast<std::size_t>(t)] = true;
        mRig.binding.offsets[j] = ToAiMatrix(FromStored(skin.inverseBind[j]) * bindShape);
    }
    // Names: the avatar joints keep theirs exactly (bones refer to them); loose joints get unique ones.
    for (std::size_t t = 0; t < slmesh::kAvatarJointCount; ++t) mNames.make(slmesh::kAvatarJoints[t].name);
    for (std::size_t j = 0; j < joints; ++j) {
        const int t = mRig.tableJoint[j];
        if (t >= 0) {
            mRig.binding.boneNames[j] = slmesh::kAvatarJoints[t].name;
            continue;
        }
        std::string base = SanitizeForAiString(skin.jointNames[j]);
        if (base.size() > 1000) base.resize(1000); // room for a ".N" suffix (a cut UTF-8 tail is re-sanitised)
        base = SanitizeForAiString(base);
        if (base.empty()) base = "joint" + std::to_string(j);
        const std::string unique = mNames.make(base);
        mRig.binding.boneNames[j] = unique;
        mRig.looseJoints.push_back(j);
        mRig.looseNames.push_back(unique);
    }
}

std::vector<NodePtr> Builder::buildSkeletonNodes() {
    std::vector<NodePtr> top;
    if (!mRigged) return top;
    const slmesh::Skin &skin = *mAsset.skin;
    const std::size_t joints = skin.jointNames.size();

    std::vector<bool> wanted(slmesh::kAvatarJointCount, mOptions.fullSkeleton);
    for (std::size_t j = 0; j < joints; ++j)
        for (int t = mRig.tableJoint[j]; t >= 0 && !wanted[static_cast<std::size_t>(t)];
             t = slmesh::kAvatarJoints[t].parent)
            wanted[static_cast<std::size_t>(t)] = true;

    // Joint position overrides (§5): e[12..14] of each alt matrix is the joint's local position, as is.
    std::vector<std::optional<aiVector3D>> overrides(slmesh::kAvatarJointCount);
    if (skin.hasAltInverseBind) {
        if (skin.altInverseBind.size() == joints) {
            for (std::size_t j = 0; j < joints; ++j) {
                const int t = mRig.tableJoint[j];
                if (t < 0) continue;
                const slmesh::Matrix16 &e = skin.altInverseBind[j];
                if (!std::isfinite(e[12]) || !std::isfinite(e[13]) || !std::isfinite(e[14])) continue;
                overrides[static_cast<std::size_t>(t)] =
                    aiVector3D(static_cast<ai_real>(e[12]), static_cast<ai_real>(e[13]), static_cast<ai_real>(e[14]));
            }
        } else {
            mWarnings.push_back("skin: " + std::to_string(skin.altInverseBind.size()) +
                                " alt_inverse_bind_matrix entries for " + std::to_string(joints) +
                                " joints; joint position overrides ignored");
        }
    }

    // The table lists parents first, so every parent node exists before its children. Nodes stay owned here
    // until the whole tree is linked; then only the top joint (mPelvis) is handed on, owning the rest.
    std::vector<NodePtr> nodes(slmesh::kAvatarJointCount);
    std::vector<std::vector<aiNode *>> children(slmesh::kAvatarJointCount);
    std::vector<std::size_t> roots;
    for (std::size_t t = 0; t < slmesh::kAvatarJointCount; ++t) {
        if (!wanted[t]) continue;
        nodes[t].reset(new aiNode(slmesh::kAvatarJoints[t].name));
        aiMatrix4x4 &local = nodes[t]->mTransformation;
        local = ToAi(slmesh::AvatarJointLocalMatrix(t));
        if (overrides[t]) {
            local.a4 = overrides[t]->x;
            local.b4 = overrides[t]->y;
            local.c4 = overrides[t]->z;
        }
        const int parent = slmesh::kAvatarJoints[t].parent;
        if (parent >= 0 && nodes[static_cast<std::size_t>(parent)])
            children[static_cast<std::size_t>(parent)].push_back(nodes[t].get());
        else
            roots.push_back(t);
    }
    top.reserve(roots.size() + mRig.looseJoints.size());
    for (std::size_t t = 0; t < slmesh::kAvatarJointCount; ++t)
        if (nodes[t]) AttachChildren(nodes[t].get(), children[t]);
    for (std::size_t t = 0; t < slmesh::kAvatarJointCount; ++t)
        if (nodes[t] && nodes[t]->mParent != nullptr) (void)nodes[t].release(); // its parent owns it now
    for (const std::size_t t : roots) top.push_back(std::move(nodes[t]));

    for (std::size_t k = 0; k < mRig.looseJoints.size(); ++k) {
        const std::size_t j = mRig.looseJoints[k];
        NodePtr node(new aiNode(mRig.looseNames[k]));
        const std::optional<M4> inverse = FromStored(skin.inverseBind[j]).inverse();
        if (inverse) {
            node->mTransformation = ToAiMatrix(*inverse);
        } else {
            mWarnings.push_back("skin joint " + std::to_string(j) +
                                ": inverse bind matrix is not invertible; its node is placed at the origin");
        }
        MetadataBuilder md;
        md.add("sl.jointName", skin.jointNames[j]);
        md.add("sl.jointIndex", static_cast<std::int32_t>(j));
        node->mMetaData = md.build();
        top.push_back(std::move(node));
    }
    return top;
}

NodePtr Builder::buildLodNode(int level, unsigned &materialCount) {
    const Lod &lod = *mAsset.lods[level];
    const std::string key = slmesh::LodKey(level);
    NodePtr node(new aiNode(key));
    std::vector<unsigned> meshes;
    for (std::size_t i = 0; i < lod.faces.size(); ++i) {
        aiMesh *mesh = BuildFaceMesh(lod.faces[i], key + "_face" + std::to_string(i), static_cast<unsigned>(i),
                                     mRigged ? &mRig.binding : nullptr);
        if (mesh != nullptr) meshes.push_back(mMeshes.add(mesh));
    }
    materialCount = std::max(materialCount, static_cast<unsigned>(lod.faces.size()));
    SetNodeMeshes(node.get(), meshes);
    if (!mRigged && mOptions.normalizedScale)
        if (const std::optional<slmesh::Real3> scale = LodNormalizedScale(lod))
            node->mTransformation = ScaleMatrix(*scale);
    MetadataBuilder md;
    md.add(kLodLevelKey, static_cast<std::int32_t>(level));
    node->mMetaData = md.build();
    return node;
}

NodePtr Builder::buildConvexNode(unsigned physicsMaterial, bool &used) {
    const slmesh::PhysicsConvex &convex = *mAsset.physicsConvex;
    const slmesh::Domain3 domain = convex.domain.value_or(slmesh::Domain3{});
    NodePtr node(new aiNode(kPhysicsConvexNode));
    std::vector<unsigned> meshes;
    const auto addHull = [&](const std::uint16_t *q, std::size_t count, const std::string &name) {
        if (count == 0) {
            mWarnings.push_back("physics_convex: " + name + " has no points; skipped");
            return;
        }
        const std::vector<float> points = DecodePoints(q, count, domain);
        const slmesh::ConvexHull hull = slmesh::ComputeConvexHull(points.data(), count);
        aiMesh *mesh = nullptr;
        if (hull.ok) {
            mesh = BuildHullMesh(points, hull, name, physicsMaterial);
        } else {
            mWarnings.push_back("physics_convex: " + name + " (" + std::to_string(count) +
                                " points) has no closed hull (" + hull.error + "); imported as points");
            mesh = BuildPointMesh(points, name, physicsMaterial);
        }
        meshes.push_back(mMeshes.add(mesh));
        used = true;
    };
    if (convex.hasBoundingVerts) addHull(convex.boundingVerts.data(), convex.boundingVerts.size() / 3, "bounding_hull");
    if (convex.hasHullList) {
        std::size_t start = 0;
        const std::size_t available = convex.positions.size() / 3;
        for (std::size_t k = 0; k < convex.hullList.size(); ++k) {
            const std::size_t count = slmesh::PhysicsConvex::HullPointCount(convex.hullList[k]);
            if (count > available - start) {
                mWarnings.push_back("physics_convex: HullList needs more points than Positions holds; hulls from " +
                                    std::to_string(k) + " on dropped");
                break;
            }
            addHull(convex.positions.data() + start * 3, count, "hull_" + std::to_string(k));
            start += count;
        }
    }
    if (meshes.empty()) return nullptr;
    SetNodeMeshes(node.get(), meshes);
    return node;
}

NodePtr Builder::buildPhysicsNode(unsigned physicsMaterial, bool &used) {
    std::vector<NodePtr> children;
    if (mAsset.physicsMesh) {
        NodePtr node(new aiNode(kPhysicsMeshNode));
        std::vector<unsigned> meshes;
        for (std::size_t i = 0; i < mAsset.physicsMesh->faces.size(); ++i) {
            aiMesh *mesh =
                BuildFaceMesh(mAsset.physicsMesh->faces[i], std::string(kPhysicsMeshNode) + "_face" + std::to_string(i),
                              physicsMaterial, nullptr);
            if (mesh != nullptr) meshes.push_back(mMeshes.add(mesh));
        }
        if (!meshes.empty()) {
            SetNodeMeshes(node.get(), meshes);
            children.push_back(std::move(node));
            used = true;
        }
    }
    if (mAsset.physicsConvex)
        if (NodePtr convex = buildConvexNode(physicsMaterial, used)) children.push_back(std::move(convex));
    if (children.empty()) return nullptr;
    NodePtr physics(new aiNode(kPhysicsNode));
    std::vector<aiNode *> raw;
    for (NodePtr &c : children) raw.push_back(c.release());
    AttachChildren(physics.get(), raw);
    return physics;
}

void Builder::build(aiScene *scene) {
    mWarnings = mAsset.warnings;
    const std::vector<int> levels = chooseLevels();

    // Structural names first so the exporter finds them verbatim; the root takes what is left.
    for (const int level : levels) mNames.make(slmesh::LodKey(level));
    if (mOptions.physics) {
        mNames.make(kPhysicsNode);
        mNames.make(kPhysicsMeshNode);
        mNames.make(kPhysicsConvexNode);
    }
    prepareRig();
    const std::string rootName = mNames.make(mOptions.rootName.empty() ? "SecondLifeMesh" : mOptions.rootName);

    std::vector<NodePtr> children;
    // One material per face index of every level present, NoGeometry slots included.
    unsigned materialCount = 0;
    for (int level = 0; level < 4; ++level)
        if (mAsset.lods[level])
            materialCount = std::max(materialCount, static_cast<unsigned>(mAsset.lods[level]->faces.size()));
    for (const int level : levels) children.push_back(buildLodNode(level, materialCount));

    std::optional<slmesh::Real3> scale;
    for (const int level : levels)
        if (!scale) scale = LodNormalizedScale(*mAsset.lods[level]);

    bool usedPhysicsMaterial = false;
    if (mOptions.physics) {
        if (NodePtr physics = buildPhysicsNode(materialCount, usedPhysicsMaterial)) {
            // Physics shapes live in the high level's normalized frame: give them the same size.
            if (!mRigged && mOptions.normalizedScale && scale) physics->mTransformation = ScaleMatrix(*scale);
            children.push_back(std::move(physics));
        }
    }
    for (NodePtr &joint : buildSkeletonNodes()) children.push_back(std::move(joint));

    auto *root = new aiNode(rootName);
    scene->mRootNode = root;
    if (mOptions.yUp) {
        // SL (x, y, z) -> Assimp (x, z, -y): Rx(-90°), exact.
        root->mTransformation = aiMatrix4x4(1, 0, 0, 0, 0, 0, 1, 0, 0, -1, 0, 0, 0, 0, 0, 1);
    }
    std::vector<aiNode *> raw;
    for (NodePtr &c : children) raw.push_back(c.release());
    AttachChildren(root, raw);
    mMeshes.moveInto(scene);

    const unsigned total = materialCount + (usedPhysicsMaterial ? 1u : 0u);
    scene->mNumMaterials = total;
    scene->mMaterials = new aiMaterial *[total]();
    for (unsigned i = 0; i < materialCount; ++i) {
        std::string name;
        if (mAsset.materialList && i < mAsset.materialList->size()) name = (*mAsset.materialList)[i];
        if (name.empty()) name = "face" + std::to_string(i);
        scene->mMaterials[i] = MakeMaterial(name, aiColor4D(1, 1, 1, 1));
    }
    if (usedPhysicsMaterial) scene->mMaterials[materialCount] = MakeMaterial(kPhysicsMaterial, aiColor4D(1, 1, 1, 1));

    AddSceneMetadata(mAsset, mOptions.allLods ? std::string("all") : std::string(LodOptionName(levels[0])), scale,
                     mOptions.yUp, scene);
    for (const std::string &w : mWarnings) LogWarn(std::string(kFormatName) + ": " + w);
}

} // namespace

void BuildSlMeshScene(const slmesh::SLMeshAsset &asset, const SlMeshSceneOptions &options, aiScene *scene) {
    Builder(asset, options).build(scene);
}

} // namespace gamefmt::glue
