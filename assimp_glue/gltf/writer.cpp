// gamefmt's glTF 2.0 writer (writer.hpp). Two passes: the layout (which nodes, meshes, skins, animations,
// materials and images are written, and where each buffer view lies) and the JSON text are built first, then
// the binary data is streamed view by view. Vertex data is read from the aiMeshes as it is streamed; only what
// has to be computed (joints and weights, morph deltas, inverse bind matrices, animation keys, encoded images)
// is held in memory.
#include "assimp_glue/gltf/writer.hpp"

#include "assimp_glue/gltf/layout.hpp"

#include <assimp/GltfMaterial.h>
#include <assimp/material.h>
#include <assimp/scene.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <map>
#include <set>
#include <stdexcept>
#include <unordered_map>
#include <unordered_set>

namespace gamefmt::glue::gltf {

// ---------------------------------------------------------------------------------------------------------
// Nodes, cameras and lights

void Writer::collectNodes() {
    // Breadth-first; a node listed twice (or a cycle, in a scene built by hand) is written once.
    std::unordered_set<const aiNode *> seen{mScene.mRootNode};
    OutNode root;
    root.src = mScene.mRootNode;
    mNodes.push_back(root);
    for (std::size_t i = 0; i < mNodes.size(); ++i) {
        const aiNode *node = mNodes[i].src;
        for (unsigned c = 0; c < node->mNumChildren; ++c) {
            const aiNode *child = node->mChildren[c];
            if (child == nullptr || !seen.insert(child).second) continue;
            mNodes[i].children.push_back(mNodes.size());
            OutNode out;
            out.src = child;
            out.parent = static_cast<long>(i);
            mNodes.push_back(out);
        }
    }
    mSourceNodes = mNodes.size();
    for (std::size_t i = mSourceNodes; i-- > 0;)
        mByName[std::string(mNodes[i].src->mName.data, mNodes[i].src->mName.length)] = i;
    for (OutNode &n : mNodes) {
        n.matrix = n.src->mTransformation;
        ai_real v[16];
        if (!ColumnMajor(n.matrix, v)) {
            ++mReport.lostMatrices;
            n.matrix = aiMatrix4x4();
        }
        n.matrix.a4 *= mScale;
        n.matrix.b4 *= mScale;
        n.matrix.c4 *= mScale;
    }
    mRoots.push_back(0);
}

const aiMatrix4x4 &Writer::globalOf(std::size_t node) {
    if (mGlobals.empty()) {
        mGlobals.resize(mSourceNodes);
        for (std::size_t i = 0; i < mSourceNodes; ++i) { // parents come first in breadth-first order
            const aiMatrix4x4 &local = mNodes[i].src->mTransformation;
            ai_real v[16];
            const aiMatrix4x4 safe = ColumnMajor(local, v) ? local : aiMatrix4x4();
            mGlobals[i] = mNodes[i].parent < 0 ? safe : mGlobals[static_cast<std::size_t>(mNodes[i].parent)] * safe;
        }
    }
    return mGlobals[node];
}

// Cameras and lights belong to the first node of their name; they look along -Z with +Y up in glTF.
void Writer::placeCamerasAndLights() {
    const auto frame = [this](const aiVector3D &position, aiVector3D forward, aiVector3D up) {
        forward.Normalize();
        aiVector3D right = forward ^ up;
        if (right.SquareLength() < 1e-12f)
            right = std::fabs(forward.y) < 0.9f ? forward ^ aiVector3D(0, 1, 0) : forward ^ aiVector3D(1, 0, 0);
        right.Normalize();
        up = right ^ forward;
        const aiVector3D p = position * static_cast<ai_real>(mScale);
        return aiMatrix4x4(right.x, up.x, -forward.x, p.x, right.y, up.y, -forward.y, p.y, right.z, up.z, -forward.z,
                           p.z, 0, 0, 0, 1);
    };
    const auto place = [&](const aiString &name, const aiMatrix4x4 &local, bool camera, int index) {
        const auto it = mByName.find(std::string(name.data, name.length));
        if (it == mByName.end()) {
            ++mReport.droppedItems;
            return false;
        }
        OutNode &owner = mNodes[it->second];
        int &slot = camera ? owner.camera : owner.light;
        if (IsIdentity(local) && slot < 0) {
            slot = index;
        } else {
            OutNode extra;
            extra.name = std::string(name.data, name.length) + (camera ? ".camera" : ".light");
            extra.matrix = local;
            (camera ? extra.camera : extra.light) = index;
            extra.parent = static_cast<long>(it->second);
            owner.children.push_back(mNodes.size());
            mNodes.push_back(extra);
        }
        return true;
    };
    for (unsigned i = 0; i < mScene.mNumCameras; ++i) {
        const aiCamera *c = mScene.mCameras[i];
        if (c == nullptr) continue;
        if (place(c->mName, frame(c->mPosition, c->mLookAt, c->mUp), true, static_cast<int>(mCameras.size())))
            mCameras.push_back(i);
    }
    for (unsigned i = 0; i < mScene.mNumLights; ++i) {
        const aiLight *l = mScene.mLights[i];
        if (l == nullptr) continue;
        if (l->mType != aiLightSource_POINT && l->mType != aiLightSource_SPOT &&
            l->mType != aiLightSource_DIRECTIONAL) {
            ++mReport.droppedItems;
            continue;
        }
        const aiVector3D direction = l->mType == aiLightSource_POINT ? aiVector3D(0, 0, -1) : l->mDirection;
        const aiVector3D up = l->mUp.SquareLength() > 0 ? l->mUp : aiVector3D(0, 1, 0);
        if (place(l->mName, frame(l->mPosition, direction, up), false, static_cast<int>(mLights.size())))
            mLights.push_back(i);
    }
}

// ---------------------------------------------------------------------------------------------------------
// Meshes and skins

void Writer::assignMeshes() {
    // Names that must stay where they are: joints and the targets of node animations.
    std::unordered_set<std::string> pinned;
    for (unsigned m = 0; m < mScene.mNumMeshes; ++m)
        if (const aiMesh *mesh = mScene.mMeshes[m]; mesh != nullptr && IsSkinned(*mesh))
            for (unsigned b = 0; b < mesh->mNumBones; ++b)
                if (mesh->mBones[b] != nullptr) pinned.insert(Str(mesh->mBones[b]->mName));
    for (unsigned a = 0; a < mScene.mNumAnimations; ++a)
        if (const aiAnimation *anim = mScene.mAnimations[a])
            for (unsigned c = 0; c < anim->mNumChannels; ++c)
                if (anim->mChannels[c] != nullptr) pinned.insert(Str(anim->mChannels[c]->mNodeName));

    std::vector<unsigned> plain, skinned, prims; // reused: a place has 100,000s of nodes
    for (std::size_t i = 0; i < mSourceNodes; ++i) {
        const aiNode &node = *mNodes[i].src;
        if (node.mNumMeshes == 0 || node.mMeshes == nullptr) continue;
        plain.clear();
        skinned.clear();
        for (unsigned k = 0; k < node.mNumMeshes; ++k) {
            const unsigned m = node.mMeshes[k];
            if (m >= mScene.mNumMeshes || mScene.mMeshes[m] == nullptr)
                throw std::runtime_error("node '" + Str(node.mName) + "' names mesh " + std::to_string(m) +
                                         ", which is not in the scene");
            (IsSkinned(*mScene.mMeshes[m]) ? skinned : plain).push_back(m);
        }
        if (!plain.empty()) {
            prims.clear();
            for (unsigned m : plain) prims.push_back(primitive(m, 0, -1));
            mNodes[i].mesh = static_cast<int>(meshOf(prims));
        }
        if (!skinned.empty())
            assignSkinned(i, skinned,
                          !plain.empty() || !mNodes[i].children.empty() || mNodes[i].camera >= 0 ||
                              mNodes[i].light >= 0 || pinned.count(Str(node.mName)) != 0 || i == 0);
    }
}

// Splits a node's skinned meshes into groups whose shared bones agree on their offset matrix: each group gets
// one skin and one glTF mesh on a root node (the node itself when `mustStay` is false and there is one group).
void Writer::assignSkinned(std::size_t node, const std::vector<unsigned> &meshes, bool mustStay) {
    struct Group {
        std::vector<std::string> joints;
        std::map<std::string, aiMatrix4x4> offsets;
        std::vector<unsigned> meshes;
    };
    std::vector<Group> groups;
    for (unsigned m : meshes) {
        const aiMesh &mesh = *mScene.mMeshes[m];
        Group *fit = nullptr;
        for (Group &g : groups) {
            bool agrees = true;
            for (unsigned b = 0; b < mesh.mNumBones && agrees; ++b) {
                const aiBone *bone = mesh.mBones[b];
                if (bone == nullptr) continue;
                const auto it = g.offsets.find(Str(bone->mName));
                agrees = it == g.offsets.end() || it->second.Equal(bone->mOffsetMatrix, 1e-6f);
            }
            if (agrees) {
                fit = &g;
                break;
            }
        }
        if (fit == nullptr) fit = &groups.emplace_back();
        fit->meshes.push_back(m);
        for (unsigned b = 0; b < mesh.mNumBones; ++b)
            if (const aiBone *bone = mesh.mBones[b];
                bone != nullptr && fit->offsets.emplace(Str(bone->mName), bone->mOffsetMatrix).second)
                fit->joints.push_back(Str(bone->mName));
    }
    const aiMatrix4x4 global = globalOf(node);
    const aiMatrix4x4 bake = scaledLeft(global); // vertices: S·G
    aiMatrix4x4 inverseGlobal = global;
    inverseGlobal.Inverse();
    const int xform = addXform(bake);
    for (std::size_t g = 0; g < groups.size(); ++g) {
        const int skin = addSkin(node, groups[g].joints, groups[g].offsets, inverseGlobal);
        std::vector<unsigned> prims;
        for (unsigned m : groups[g].meshes) prims.push_back(primitive(m, xform, skin));
        const int mesh = static_cast<int>(meshOf(prims));
        std::size_t target = node;
        if (mustStay || groups.size() > 1) {
            OutNode extra;
            const std::string base = Str(mNodes[node].src->mName);
            extra.name = groups.size() > 1 ? base + ".skin" + std::to_string(g) : base + ".skin";
            target = mNodes.size();
            mNodes.push_back(extra);
        } else {
            // The node itself moves to the root, without its transform (baked into the vertices).
            OutNode &parent = mNodes[static_cast<std::size_t>(mNodes[node].parent)];
            parent.children.erase(std::find(parent.children.begin(), parent.children.end(), node));
            mNodes[node].matrix = aiMatrix4x4();
            mNodes[node].moved = true;
        }
        mNodes[target].mesh = mesh;
        mNodes[target].skin = skin;
        mRoots.push_back(target);
        mSkinnedNodesOf[node].push_back(target);
    }
}

int Writer::addXform(const aiMatrix4x4 &m) {
    Xform x;
    x.m = m;
    x.identity = IsIdentity(m);
    aiMatrix3x3 linear(m);
    x.linear = linear;
    aiMatrix3x3 normal = linear;
    normal.Inverse();
    normal.Transpose();
    x.normal = normal;
    x.flip = linear.Determinant() < 0;
    mXforms.push_back(x);
    return static_cast<int>(mXforms.size() - 1);
}

// IBM_j = S · offset_j · G⁻¹ · S⁻¹: the vertices were baked with S·G (G: the mesh node's global transform).
int Writer::addSkin(std::size_t node, const std::vector<std::string> &joints,
                    const std::map<std::string, aiMatrix4x4> &offsets, const aiMatrix4x4 &inverseGlobal) {
    Skin skin;
    std::string ibm;
    ibm.reserve(joints.size() * 64);
    for (const std::string &name : joints) {
        const aiMatrix4x4 &offset = offsets.at(name);
        const auto it = mByName.find(name);
        std::size_t joint = 0;
        if (it != mByName.end() && !mNodes[it->second].moved) {
            joint = it->second;
        } else {
            // No node of the bone's name: a root joint at the bind pose, G · offset⁻¹.
            OutNode extra;
            extra.name = name;
            aiMatrix4x4 bind = offset;
            bind.Inverse();
            extra.matrix = conjugated(globalOf(node) * bind);
            joint = mNodes.size();
            mNodes.push_back(extra);
            mRoots.push_back(joint);
            mByName.emplace(name, joint);
            ++mReport.droppedItems;
        }
        skin.joints.push_back(joint);
        const aiMatrix4x4 m = conjugated(offset * inverseGlobal);
        ai_real v[16];
        if (!ColumnMajor(m, v)) std::fill(std::begin(v), std::end(v), ai_real(0));
        if (v[0] == 0 && v[5] == 0 && v[10] == 0) v[0] = v[5] = v[10] = 1; // never a singular IBM
        v[3] = v[7] = v[11] = 0;
        v[15] = 1;
        for (ai_real f : v) PutFloat(ibm, static_cast<float>(f));
    }
    const auto [it, added] = mSkinOfKey.emplace(std::make_pair(skin.joints, ibm), mSkins.size());
    if (!added) return static_cast<int>(it->second);
    skin.name = Str(mNodes[node].src->mName);
    skin.inverseBindMatrices =
        static_cast<int>(addAccessor(FloatAccessor(addBlobView(std::move(ibm), 0), joints.size(), "MAT4")));
    mSkins.push_back(std::move(skin));
    return static_cast<int>(mSkins.size() - 1);
}

unsigned Writer::meshOf(const std::vector<unsigned> &prims) {
    const auto [it, added] = mMeshOfPrims.emplace(prims, static_cast<unsigned>(mMeshes.size()));
    if (added) {
        OutMesh mesh;
        mesh.prims = prims;
        for (unsigned p : prims) mesh.targets = std::max(mesh.targets, mPrims[p].targets.size());
        mMeshes.push_back(std::move(mesh));
    }
    return it->second;
}

// Whether a face of `size` indices goes into a primitive of `mode` (0 points, 1 lines, 4 triangles), and how
// many indices it gives.
std::size_t IndicesOf(unsigned size, int mode) {
    if (mode == 4) return size >= 3 ? std::size_t(size - 2) * 3 : 0;
    return (mode == 1 && size == 2) || (mode == 0 && size == 1) ? size : 0;
}

int ModeOf(const aiMesh &mesh) {
    bool lines = false;
    for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
        const unsigned n = mesh.mFaces[f].mNumIndices;
        if (n >= 3) return 4;
        lines = lines || n == 2;
    }
    return lines ? 1 : 0;
}

unsigned Writer::primitive(unsigned m, int xform, int skin) {
    const auto key = std::make_tuple(m, xform, skin);
    const auto found = mPrimOfKey.find(key);
    if (found != mPrimOfKey.end()) return found->second;
    const aiMesh &mesh = *mScene.mMeshes[m];
    if (mesh.mMaterialIndex >= mScene.mNumMaterials || mScene.mMaterials[mesh.mMaterialIndex] == nullptr)
        throw std::runtime_error("mesh '" + Str(mesh.mName) + "' names material " +
                                 std::to_string(mesh.mMaterialIndex) + ", which is not in the scene");
    Prim p;
    p.mesh = m;
    p.xform = xform;
    p.skin = skin;
    p.mode = ModeOf(mesh);
    p.material = static_cast<int>(materialIndex(mesh.mMaterialIndex));
    if (!(mOptions.draco && p.mode == 4 && skin < 0 && mesh.mNumAnimMeshes == 0 && mesh.mNumFaces != 0 &&
          layoutDraco(p))) {
        layoutVertices(p);
        if (skin >= 0) layoutSkinWeights(p);
        layoutTargets(p);
        layoutIndices(p);
    }
    mPrims.push_back(std::move(p));
    mPrimOfKey.emplace(key, static_cast<unsigned>(mPrims.size() - 1));
    return static_cast<unsigned>(mPrims.size() - 1);
}

void Writer::layoutVertices(Prim &p) {
    const aiMesh &mesh = *mScene.mMeshes[p.mesh];
    if (mesh.mNumVertices == 0 || mesh.mVertices == nullptr)
        throw std::runtime_error("mesh '" + Str(mesh.mName) + "' has no vertices");
    const std::size_t n = vertexCount(p.mesh);
    p.vertices = n;
    const Xform &x = mXforms[static_cast<std::size_t>(p.xform)];
    aiVector3D lo(0, 0, 0), hi(0, 0, 0);
    for (unsigned v = 0; v < mesh.mNumVertices; ++v) {
        const aiVector3D q = Position(mesh.mVertices[v], x);
        if (v == 0) lo = hi = q;
        lo = aiVector3D(std::min(lo.x, q.x), std::min(lo.y, q.y), std::min(lo.z, q.z));
        hi = aiVector3D(std::max(hi.x, q.x), std::max(hi.y, q.y), std::max(hi.z, q.z));
        if (!Finite(mesh.mVertices[v])) ++mReport.fixedValues;
    }
    const auto attribute = [&](Kind kind, int aux, unsigned size, const char *type, const aiVector3D *lo = nullptr,
                               const aiVector3D *hi = nullptr) {
        const unsigned view = addView(kind, p.mesh, aux, n * size, kArrayBuffer);
        markCompressible(view, size, "ATTRIBUTES");
        return static_cast<int>(addAccessor(FloatAccessor(view, n, type, lo, hi)));
    };
    p.position = attribute(Kind::Positions, p.xform, 12, "VEC3", &lo, &hi);
    if (mesh.mNormals != nullptr) p.normal = attribute(Kind::Normals, p.xform, 12, "VEC3");
    if (mesh.mNormals != nullptr && mesh.mTangents != nullptr)
        p.tangent = attribute(Kind::Tangents, p.xform, 16, "VEC4");
    for (int set = 0; set < AI_MAX_NUMBER_OF_TEXTURECOORDS; ++set)
        if (mesh.mTextureCoords[set] != nullptr) p.uvs.push_back(attribute(Kind::Uvs, set, 8, "VEC2"));
    for (int set = 0; set < AI_MAX_NUMBER_OF_COLOR_SETS; ++set)
        if (mesh.mColors[set] != nullptr) p.colors.push_back(attribute(Kind::Colors, set, 16, "VEC4"));
}

void Writer::layoutIndices(Prim &p) {
    const aiMesh &mesh = *mScene.mMeshes[p.mesh];
    std::size_t count = 0;
    for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
        const aiFace &face = mesh.mFaces[f];
        const std::size_t k = IndicesOf(face.mNumIndices, p.mode);
        bool inRange = face.mIndices != nullptr;
        for (unsigned i = 0; inRange && i < face.mNumIndices; ++i) inRange = face.mIndices[i] < mesh.mNumVertices;
        if (k == 0 || !inRange) {
            ++mReport.droppedFaces;
            continue;
        }
        count += k;
    }
    if (count == 0) return;                         // glTF draws the vertices in order (points)
    const bool small = vertexCount(p.mesh) < 65535; // 65535 is the restart value: never an index
    p.indexCount = count;
    const unsigned view = addView(Kind::Indices, p.mesh, p.mode, count * (small ? 2 : 4), kElementArrayBuffer);
    markCompressible(view, small ? 2 : 4, p.mode == 4 ? "TRIANGLES" : "INDICES");
    p.indices = static_cast<int>(addAccessor("{\"bufferView\":" + std::to_string(view) +
                                             ",\"componentType\":" + (small ? "5123" : "5125") +
                                             ",\"count\":" + std::to_string(count) + ",\"type\":\"SCALAR\"}"));
}

} // namespace gamefmt::glue::gltf

namespace gamefmt::glue::gltf {
namespace {

// The bytes of every attribute of vertex `v` go through `fn(data, size)`.
template <typename Fn> void ForEachAttribute(const aiMesh &m, unsigned v, Fn &&fn) {
    fn(&m.mVertices[v], sizeof(aiVector3D));
    if (m.mNormals != nullptr) fn(&m.mNormals[v], sizeof(aiVector3D));
    if (m.mTangents != nullptr) fn(&m.mTangents[v], sizeof(aiVector3D));
    if (m.mBitangents != nullptr) fn(&m.mBitangents[v], sizeof(aiVector3D));
    for (int s = 0; s < AI_MAX_NUMBER_OF_TEXTURECOORDS; ++s)
        if (m.mTextureCoords[s] != nullptr) fn(&m.mTextureCoords[s][v], sizeof(aiVector3D));
    for (int s = 0; s < AI_MAX_NUMBER_OF_COLOR_SETS; ++s)
        if (m.mColors[s] != nullptr) fn(&m.mColors[s][v], sizeof(aiColor4D));
}

std::uint64_t VertexHash(const aiMesh &m, unsigned v) {
    // Every attribute is made of 4-byte floats: mixed a word at a time.
    std::uint64_t h = 0x9E3779B97F4A7C15ull;
    ForEachAttribute(m, v, [&h](const void *data, std::size_t size) {
        const auto *b = static_cast<const unsigned char *>(data);
        for (std::size_t i = 0; i + 4 <= size; i += 4) {
            std::uint32_t word = 0;
            std::memcpy(&word, b + i, 4);
            h = (h ^ word) * 0xFF51AFD7ED558CCDull;
        }
    });
    return h ^ (h >> 32);
}

bool SameVertex(const aiMesh &m, unsigned a, unsigned b) {
    // Each attribute array is visited in the same order for both: compare a's entry with b's, same offset.
    bool same = true;
    const auto stride = static_cast<std::ptrdiff_t>(b) - static_cast<std::ptrdiff_t>(a);
    ForEachAttribute(m, a, [&](const void *d, std::size_t s) {
        same = same &&
               std::memcmp(d, static_cast<const unsigned char *>(d) + stride * static_cast<std::ptrdiff_t>(s), s) == 0;
    });
    return same;
}

} // namespace

// Unindexed meshes (OBJ, STL, 3DS…: one vertex per face corner) are written indexed: vertices whose every
// attribute is bit-identical become one. Meshes with bones or morph targets are written as they are (their
// weights and targets are per original vertex).
const Weld &Writer::weldOf(unsigned m) {
    if (mWelds.empty()) mWelds.resize(mScene.mNumMeshes);
    Weld &w = mWelds[m];
    if (w.done) return w;
    w.done = true;
    const aiMesh &mesh = *mScene.mMeshes[m];
    const unsigned n = mesh.mNumVertices;
    if (n < 2 || mesh.mVertices == nullptr || IsSkinned(mesh) || mesh.mNumAnimMeshes != 0) return w;
    std::size_t size = 4;
    while (size < std::size_t(n) * 2) size *= 2;
    std::vector<std::uint32_t> slots(size, 0xFFFFFFFFu);
    std::vector<unsigned> remap(n);
    std::vector<unsigned> order;
    for (unsigned v = 0; v < n; ++v) {
        for (std::size_t i = VertexHash(mesh, v) & (size - 1);; i = (i + 1) & (size - 1)) {
            if (slots[i] == 0xFFFFFFFFu) {
                slots[i] = static_cast<std::uint32_t>(order.size());
                remap[v] = static_cast<unsigned>(order.size());
                order.push_back(v);
                break;
            }
            if (SameVertex(mesh, order[slots[i]], v)) {
                remap[v] = slots[i];
                break;
            }
        }
    }
    if (order.size() < n) {
        w.order = std::move(order);
        w.remap = std::move(remap);
    }
    return w;
}

std::size_t Writer::vertexCount(unsigned m) {
    const Weld &w = weldOf(m);
    return w.order.empty() ? mScene.mMeshes[m]->mNumVertices : w.order.size();
}

} // namespace gamefmt::glue::gltf
