// Roblox mesh format model -> aiScene: LOD meshes over compacted vertices, the bone hierarchy, skin
// weights, baked FACS morph targets and the metadata the exporter needs to write the file back.
#include "assimp_glue/common/roblox_mesh_scene.hpp"

#include "assimp_glue/common/roblox_mesh_facs_bake.hpp"
#include "assimp_glue/common/scene_util.hpp"
#include "common/base64.hpp"
#include "common/error.hpp"
#include "importers/roblox_mesh/mesh_reader.hpp"

#include <assimp/commonMetaData.h>
#include <assimp/mesh.h>
#include <assimp/scene.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <numeric>
#include <optional>

namespace gamefmt::glue {
namespace {

using rbxmesh::RobloxMesh;

constexpr std::uint32_t kUnused = std::numeric_limits<std::uint32_t>::max();
// Room left in an aiString for the ".N" suffix UniqueNames may append to a bone name.
constexpr std::size_t kMaxBaseNameBytes = 1000;

// ---------------------------------------------------------------- geometry

struct Level {
    std::uint32_t index = 0;
    rbxmesh::LodLevel faces;
};

struct CompactLevel {
    std::vector<std::uint32_t> toFile; // mesh vertex -> file vertex, ascending (file order kept)
    std::vector<std::uint32_t> toMesh; // file vertex -> mesh vertex or kUnused
};

CompactLevel Compact(const RobloxMesh &mesh, const rbxmesh::LodLevel &level) {
    const std::size_t n = mesh.vertices.size();
    CompactLevel out;
    out.toMesh.assign(n, kUnused);
    std::vector<std::uint8_t> used(n, 0);
    for (std::uint32_t f = level.faceBegin; f < level.faceEnd; ++f) {
        const rbxmesh::Face &face = mesh.faces[f];
        for (const std::uint32_t i : {face.a, face.b, face.c}) {
            if (i >= n)
                throw FormatError(rbxmesh::kFormatName, "face " + std::to_string(f) + " uses vertex " +
                                                            std::to_string(i) + " of " + std::to_string(n));
            used[i] = 1;
        }
    }
    for (std::uint32_t v = 0; v < n; ++v) {
        if (!used[v]) continue;
        out.toMesh[v] = static_cast<std::uint32_t>(out.toFile.size());
        out.toFile.push_back(v);
    }
    return out;
}

bool FileHasColours(const RobloxMesh &mesh) {
    for (const rbxmesh::Vertex &v : mesh.vertices)
        if (v.color[0] != 255 || v.color[1] != 255 || v.color[2] != 255 || v.color[3] != 255) return true;
    return false;
}

// §3.3: t = b/127 - 1 clamped to [-1, 1]; |t| < 0.5 (~7F7F7F) or 00000000 means "no tangent".
bool DecodeTangent(const rbxmesh::Vertex &v, Vec3 &t, float &w) {
    auto component = [](std::uint8_t b) { return std::clamp(static_cast<float>(b) / 127.0f - 1.0f, -1.0f, 1.0f); };
    // 00 00 00 00 is the other "no tangent" spelling (the 2.00 torso); it would decode to (-1, -1, -1).
    if (v.tangent[0] == 0 && v.tangent[1] == 0 && v.tangent[2] == 0 && v.tangent[3] == 0) return false;
    t = Vec3(component(v.tangent[0]), component(v.tangent[1]), component(v.tangent[2]));
    w = v.tangent[3] >= 127 ? 1.0f : -1.0f;
    if (t.length() < 0.5f) return false;
    t = t.normalized();
    return true;
}

Vec3 UnitNormal(const rbxmesh::Vertex &v) {
    const Vec3 n(v.nx, v.ny, v.nz);
    // Simplifier-made LOD vertices have short normals; degenerate ones stay as stored.
    return n.length() > 1e-6f ? n.normalized() : n;
}

aiMesh *BuildMesh(const RobloxMesh &mesh, const Level &level, const CompactLevel &compact, bool colours) {
    auto out = std::make_unique<aiMesh>();
    out->mName = ToAiString("LOD" + std::to_string(level.index));
    out->mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
    out->mMaterialIndex = 0;
    const auto count = static_cast<unsigned>(compact.toFile.size());
    out->mNumVertices = count;
    out->mVertices = new aiVector3D[count];
    out->mNormals = new aiVector3D[count];
    out->mTextureCoords[0] = new aiVector3D[count];
    out->mNumUVComponents[0] = 2;
    if (colours) out->mColors[0] = new aiColor4D[count];

    std::vector<Vec3> tangents(count), bitangents(count);
    bool anyTangent = false;
    for (unsigned i = 0; i < count; ++i) {
        const rbxmesh::Vertex &v = mesh.vertices[compact.toFile[i]];
        out->mVertices[i] = aiVector3D(v.px, v.py, v.pz);
        const Vec3 n = UnitNormal(v);
        out->mNormals[i] = aiVector3D(n.x, n.y, n.z);
        out->mTextureCoords[0][i] = aiVector3D(v.u, 1.0f - v.v, 0.0f); // the model's V is top-down
        if (colours)
            out->mColors[0][i] =
                aiColor4D(v.color[0] / 255.0f, v.color[1] / 255.0f, v.color[2] / 255.0f, v.color[3] / 255.0f);
        Vec3 t;
        float w = 1;
        if (DecodeTangent(v, t, w)) {
            anyTangent = true;
            tangents[i] = t;
            bitangents[i] = n.cross(t) * w;
        }
    }
    if (anyTangent) {
        // Absent tangents stay zero vectors so the exporter can write them back as absent.
        out->mTangents = new aiVector3D[count];
        out->mBitangents = new aiVector3D[count];
        for (unsigned i = 0; i < count; ++i) {
            out->mTangents[i] = aiVector3D(tangents[i].x, tangents[i].y, tangents[i].z);
            out->mBitangents[i] = aiVector3D(bitangents[i].x, bitangents[i].y, bitangents[i].z);
        }
    }

    const std::uint32_t faceCount = level.faces.faceEnd - level.faces.faceBegin;
    out->mNumFaces = faceCount;
    out->mFaces = new aiFace[faceCount];
    // One allocation per face is what aiFace's destructor expects (delete[] mIndices).
    for (std::uint32_t f = 0; f < faceCount; ++f) {
        const rbxmesh::Face &src = mesh.faces[level.faces.faceBegin + f];
        aiFace &face = out->mFaces[f];
        face.mNumIndices = 3;
        face.mIndices = new unsigned[3]{compact.toMesh[src.a], compact.toMesh[src.b], compact.toMesh[src.c]};
    }
    return out.release();
}

// ---------------------------------------------------------------- skeleton

struct Skeleton {
    FacsSkeleton bones;                 // names, parents (cycles broken), W, inverse(W), rest locals, order
    std::vector<std::string> nodeNames; // unique scene-wide
};

Skeleton BuildSkeleton(const RobloxMesh &mesh, UniqueNames &names, std::vector<std::string> &warnings) {
    Skeleton s;
    const std::size_t n = mesh.bones.size();
    FacsSkeleton &k = s.bones;
    k.names.resize(n);
    k.parent.assign(n, -1);
    k.bindWorld.resize(n);
    k.inverseBindWorld.resize(n);
    k.restLocal.resize(n);
    std::size_t badMatrices = 0;
    for (std::size_t b = 0; b < n; ++b) {
        const rbxmesh::Bone &bone = mesh.bones[b];
        k.names[b] = bone.name;
        if (bone.parent != rbxmesh::kNoBone && bone.parent < n) k.parent[b] = bone.parent;
        const Vec3 t(bone.position[0], bone.position[1], bone.position[2]);
        Mat4 w = Mat4::FromRowMajor3x4(bone.rotation.data(), t);
        std::optional<Mat4> inverse = w.inverse();
        if (!inverse) {
            // A singular or non-finite bind rotation: keep the position so the skeleton stays usable.
            ++badMatrices;
            w = std::isfinite(t.x) && std::isfinite(t.y) && std::isfinite(t.z) ? Mat4::FromTranslation(t) : Mat4();
            inverse = w.inverse();
        }
        k.bindWorld[b] = w;
        k.inverseBindWorld[b] = inverse ? *inverse : Mat4();
    }
    if (badMatrices != 0)
        warnings.push_back(std::to_string(badMatrices) +
                           " bone bind matrices are not invertible; their rotation was replaced by the identity");

    // Parents first, breaking any parent cycle (the reader rejects them; this keeps the node tree a tree).
    std::vector<std::uint8_t> state(n, 0); // 0 new, 1 on the current chain, 2 placed
    std::vector<std::uint32_t> chain;
    std::size_t cycles = 0;
    for (std::uint32_t b = 0; b < n; ++b) {
        chain.clear();
        std::uint32_t cur = b;
        while (state[cur] == 0) {
            state[cur] = 1;
            chain.push_back(cur);
            if (k.parent[cur] < 0) break;
            const auto p = static_cast<std::uint32_t>(k.parent[cur]);
            if (state[p] == 1) { // back on this chain: cut it here
                k.parent[cur] = -1;
                ++cycles;
                break;
            }
            cur = p;
        }
        for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
            state[*it] = 2;
            k.order.push_back(*it);
        }
    }
    if (cycles != 0) warnings.push_back("bone parent cycle broken (" + std::to_string(cycles) + " bones made roots)");

    for (std::size_t b = 0; b < n; ++b) {
        const std::int32_t p = k.parent[b];
        k.restLocal[b] = p < 0 ? k.bindWorld[b] : k.inverseBindWorld[static_cast<std::size_t>(p)] * k.bindWorld[b];
    }

    s.nodeNames.resize(n);
    for (std::size_t b = 0; b < n; ++b) {
        std::string base = SanitizeForAiString(mesh.bones[b].name);
        if (base.size() > kMaxBaseNameBytes) {
            std::size_t cut = kMaxBaseNameBytes;
            while (cut > 0 && (static_cast<unsigned char>(base[cut]) & 0xC0) == 0x80) --cut; // UTF-8 boundary
            base.resize(cut);
        }
        if (base.empty()) base = "Bone" + std::to_string(b);
        s.nodeNames[b] = names.make(base);
    }
    return s;
}

// Recursion depth is the bone hierarchy's depth, which the file controls: build iteratively instead.
aiNode *MakeSkeletonNode(const RobloxMesh &mesh, const Skeleton &s) {
    const std::size_t n = s.nodeNames.size();
    std::vector<std::vector<std::uint32_t>> children(n);
    std::vector<std::uint32_t> roots;
    for (std::uint32_t b = 0; b < n; ++b) {
        const std::int32_t p = s.bones.parent[b];
        (p < 0 ? roots : children[static_cast<std::size_t>(p)]).push_back(b);
    }
    std::vector<aiNode *> nodes(n, nullptr);
    auto make = [&](std::uint32_t b) {
        auto *node = new aiNode(s.nodeNames[b]);
        node->mTransformation = ToAi(s.bones.restLocal[b]);
        MetadataBuilder md;
        md.add(rbxkeys::kBoneIndex, static_cast<std::int32_t>(b));
        md.add(rbxkeys::kCulling, mesh.bones[b].culling);
        md.add(rbxkeys::kLodParent, static_cast<std::int32_t>(mesh.bones[b].lodParent));
        if (s.nodeNames[b] != mesh.bones[b].name) md.add(rbxkeys::kOriginalName, mesh.bones[b].name);
        node->mMetaData = md.build();
        return node;
    };
    // s.bones.order has parents first, so each parent node exists before its children are attached.
    for (const std::uint32_t b : s.bones.order) nodes[b] = make(b);
    auto attach = [](aiNode *parent, const std::vector<aiNode *> &kids) {
        if (kids.empty()) return;
        parent->mNumChildren = static_cast<unsigned>(kids.size());
        parent->mChildren = new aiNode *[kids.size()];
        for (std::size_t i = 0; i < kids.size(); ++i) {
            parent->mChildren[i] = kids[i];
            kids[i]->mParent = parent;
        }
    };
    for (std::uint32_t b = 0; b < n; ++b) {
        std::vector<aiNode *> kids;
        for (const std::uint32_t c : children[b]) kids.push_back(nodes[c]);
        attach(nodes[b], kids);
    }
    auto *skeleton = new aiNode(rbxkeys::kSkeletonNode);
    MetadataBuilder md;
    md.add(rbxkeys::kSkeleton, true);
    skeleton->mMetaData = md.build();
    std::vector<aiNode *> top;
    for (const std::uint32_t r : roots) top.push_back(nodes[r]);
    attach(skeleton, top);
    return skeleton;
}

// ---------------------------------------------------------------- skin weights

// Global influences per file vertex (§7): the subset whose vertex range holds the vertex maps its
// envelope's subset-local indices to file bones.
std::vector<VertexSkin> GlobalSkin(const RobloxMesh &mesh, std::vector<std::string> &warnings) {
    const std::size_t n = mesh.vertices.size();
    std::vector<VertexSkin> skin(n);
    if (mesh.bones.empty()) return skin;

    // Which subset owns each vertex: the first subset whose range holds it. "next" skips vertices
    // already owned, so overlapping hostile ranges cost linear time.
    std::vector<std::uint32_t> owner(n, kUnused);
    std::vector<std::uint32_t> next(n + 1);
    std::iota(next.begin(), next.end(), 0u);
    auto find = [&](std::uint32_t v) {
        std::uint32_t root = v;
        while (next[root] != root) root = next[root];
        while (next[v] != root) {
            const std::uint32_t up = next[v];
            next[v] = root;
            v = up;
        }
        return root;
    };
    for (std::uint32_t s = 0; s < mesh.subsets.size(); ++s) {
        const rbxmesh::Subset &subset = mesh.subsets[s];
        const std::uint64_t begin = std::min<std::uint64_t>(subset.vertsBegin, n);
        const std::uint64_t end = std::min<std::uint64_t>(std::uint64_t(subset.vertsBegin) + subset.vertsLength, n);
        for (std::uint32_t v = find(static_cast<std::uint32_t>(begin)); v < end; v = find(v)) {
            owner[v] = s;
            next[v] = v + 1;
        }
    }

    std::size_t dropped = 0, unowned = 0, noEnvelope = 0;
    for (std::size_t v = 0; v < n; ++v) {
        if (v >= mesh.envelopes.size()) {
            ++noEnvelope;
            continue;
        }
        if (owner[v] == kUnused) {
            ++unowned;
            continue;
        }
        const rbxmesh::Subset &subset = mesh.subsets[owner[v]];
        const rbxmesh::Envelope &env = mesh.envelopes[v];
        VertexSkin &out = skin[v];
        unsigned total = 0;
        for (unsigned k = 0; k < 4; ++k) {
            const std::uint8_t w = env.weights[k];
            if (w == 0) continue;
            const std::uint8_t local = env.bones[k];
            const std::uint16_t global = local < subset.numBoneIndices && local < rbxmesh::kMaxBonesPerSubset
                                             ? subset.boneIndices[local]
                                             : rbxmesh::kNoBone;
            if (global == rbxmesh::kNoBone || global >= mesh.bones.size()) {
                ++dropped;
                continue;
            }
            total += w;
            unsigned slot = 0;
            while (slot < out.count && out.bone[slot] != global) ++slot;
            if (slot == out.count) {
                out.bone[slot] = global;
                out.weight[slot] = 0;
                ++out.count;
            }
            out.weight[slot] += static_cast<float>(w);
        }
        // Normally total is 255 and this is w/255; after a dropped influence the rest is renormalised.
        for (unsigned k = 0; k < out.count; ++k) out.weight[k] /= static_cast<float>(total);
    }
    if (dropped != 0)
        warnings.push_back(std::to_string(dropped) +
                           " skin influences dropped (local bone index outside the subset's bone list, or mapped "
                           "to no bone); the remaining weights were renormalised");
    if (unowned != 0)
        warnings.push_back(std::to_string(unowned) + " vertices lie in no skin subset and have no bone weights");
    if (noEnvelope != 0)
        warnings.push_back(std::to_string(noEnvelope) + " vertices have no skin envelope and no bone weights");
    return skin;
}

void AddBones(aiMesh *out, const Skeleton &s, const std::vector<VertexSkin> &meshSkin) {
    const std::size_t n = s.nodeNames.size();
    std::vector<std::vector<aiVertexWeight>> weights(n);
    for (unsigned v = 0; v < meshSkin.size(); ++v) {
        const VertexSkin &vs = meshSkin[v];
        for (unsigned k = 0; k < vs.count; ++k) weights[vs.bone[k]].emplace_back(v, vs.weight[k]);
    }
    // One aiBone per file bone, weighted or not, so the whole bind pose survives export (§13.3).
    out->mNumBones = static_cast<unsigned>(n);
    out->mBones = new aiBone *[n];
    for (std::size_t b = 0; b < n; ++b) {
        auto *bone = new aiBone();
        bone->mName = ToAiString(s.nodeNames[b]);
        bone->mOffsetMatrix = ToAi(s.bones.inverseBindWorld[b]);
        bone->mNumWeights = static_cast<unsigned>(weights[b].size());
        bone->mWeights = CopyToNewArray(weights[b]);
        out->mBones[b] = bone;
    }
}

// ---------------------------------------------------------------- metadata

std::string JoinOffsets(const std::vector<std::uint32_t> &offsets) {
    std::string text;
    for (std::size_t i = 0; i < offsets.size(); ++i) {
        if (i != 0) text += ',';
        text += std::to_string(offsets[i]);
    }
    return text;
}

std::string JoinTags(const std::vector<std::string> &tags) {
    std::string text;
    for (std::size_t i = 0; i < tags.size(); ++i) text += (i != 0 ? "," : "") + tags[i];
    return text;
}

void AddSceneMetadata(const RobloxMesh &mesh, std::size_t levelCount, bool allLods, bool baked, aiScene *scene) {
    MetadataBuilder md;
    md.add(AI_METADATA_SOURCE_FORMAT, rbxkeys::kSourceFormatValue);
    md.add(AI_METADATA_SOURCE_FORMAT_VERSION, mesh.version);
    md.add("UnitScaleFactor", 28.0); // cm per stud (FBX meaning; roblox-mesh.md §3.4, §13.5): geometry stays studs
    md.add(rbxkeys::kVertexSize, static_cast<std::int32_t>(mesh.vertexSize));
    md.add(rbxkeys::kFaceSize, static_cast<std::int32_t>(mesh.faceSize));
    md.add(rbxkeys::kHeaderSize, static_cast<std::int32_t>(mesh.headerSize));
    md.add(rbxkeys::kLodEntrySize, static_cast<std::int32_t>(mesh.lodEntrySize));
    md.add(rbxkeys::kLodType, static_cast<std::int32_t>(mesh.lodType));
    md.add(rbxkeys::kNumHighQualityLods, static_cast<std::int32_t>(mesh.numHighQualityLODs));
    md.add(rbxkeys::kV4Unused, static_cast<std::int32_t>(mesh.v4Unused));
    md.add(rbxkeys::kCoremeshVersion, static_cast<std::int32_t>(mesh.coremeshVersion));
    md.add(rbxkeys::kLodOffsets, JoinOffsets(mesh.lodOffsets));
    md.add(rbxkeys::kLodLevels, static_cast<std::int32_t>(levelCount));
    md.add(rbxkeys::kNumVertices, static_cast<std::uint64_t>(mesh.vertices.size()));
    md.add(rbxkeys::kNumFaces, static_cast<std::uint64_t>(mesh.faces.size()));
    md.add(rbxkeys::kAllLods, allLods);
    if (mesh.isText()) {
        md.add(rbxkeys::kTextCrlf, mesh.textCrlf);
        md.add(rbxkeys::kTextFinalNewline, mesh.textFinalNewline);
    }
    if (mesh.isChunked()) md.add(rbxkeys::kChunkOrder, JoinTags(mesh.chunkOrder));
    if (!mesh.unknownChunks.empty()) {
        md.add(rbxkeys::kUnknownChunks, static_cast<std::int32_t>(mesh.unknownChunks.size()));
        for (std::size_t i = 0; i < mesh.unknownChunks.size(); ++i) {
            const rbxmesh::RawChunk &chunk = mesh.unknownChunks[i];
            const std::string stem = UnknownChunkKey(i, "");
            md.add(stem + "tag", chunk.tag);
            md.add(stem + "version", static_cast<std::int32_t>(chunk.version));
            md.addBlob(stem + "data", chunk.payload);
        }
    }
    if (!mesh.trailingBytes.empty()) md.addBlob(rbxkeys::kTrailingBytes, mesh.trailingBytes);
    if (mesh.facs) {
        md.addBlob(rbxkeys::kFacs, mesh.facs->blob);
        md.add(rbxkeys::kFacsFormat, static_cast<std::int32_t>(mesh.facs->format));
    }
    if (mesh.hsravis) {
        md.addBlob(rbxkeys::kHsravis, mesh.hsravis->bits);
        md.add(rbxkeys::kHsravisBitCount, static_cast<std::uint64_t>(mesh.hsravis->bitCount));
    }
    md.add(rbxkeys::kFacsBaked, baked);
    md.mergeInto(scene->mMetaData);
}

// The levels imported: LOD0, or every level with GAMEFMT_RBXMESH_IMPORT_ALL_LODS; empty levels are skipped
// with a warning, levels outside the face list are an error.
std::vector<Level> ImportedLevels(const RobloxMesh &mesh, const std::vector<rbxmesh::LodLevel> &lodLevels, bool allLods,
                                  std::vector<std::string> &warnings) {
    std::vector<Level> levels;
    for (std::uint32_t i = 0; i < lodLevels.size() && (allLods || i == 0); ++i) {
        const rbxmesh::LodLevel &l = lodLevels[i];
        if (l.faceEnd > mesh.faces.size() || l.faceBegin > l.faceEnd)
            throw FormatError(rbxmesh::kFormatName, "LOD " + std::to_string(i) + " lies outside the face list");
        if (l.faceEnd == l.faceBegin) {
            warnings.push_back("LOD " + std::to_string(i) + " has no faces; skipped");
            continue;
        }
        levels.push_back({i, l});
    }
    return levels;
}

// The node of one LOD level: named "LOD<n>", holding mesh `meshIndex`, with rbxmesh.lodLevel.
aiNode *MakeLodNode(const Level &level, unsigned meshIndex, aiNode *root) {
    auto *node = new aiNode("LOD" + std::to_string(level.index));
    node->mParent = root;
    node->mNumMeshes = 1;
    node->mMeshes = new unsigned[1]{meshIndex};
    MetadataBuilder md;
    md.add(rbxkeys::kLodLevel, static_cast<std::int32_t>(level.index));
    node->mMetaData = md.build();
    return node;
}

} // namespace

void BuildRobloxMeshScene(const RobloxMesh &mesh, const RobloxMeshSceneOptions &options, aiScene *scene) {
    std::vector<std::string> warnings = mesh.warnings;
    std::vector<std::string> lodWarnings;
    const std::vector<rbxmesh::LodLevel> lodLevels = rbxmesh::LodLevels(mesh, &lodWarnings);
    for (const std::string &w : lodWarnings) // the reader may have reported the same table already
        if (std::find(warnings.begin(), warnings.end(), w) == warnings.end()) warnings.push_back(w);

    if (lodLevels.empty() || lodLevels[0].faceEnd <= lodLevels[0].faceBegin || mesh.faces.empty())
        throw FormatError(rbxmesh::kFormatName, "the mesh has no faces in LOD0 (" +
                                                    std::to_string(mesh.vertices.size()) + " vertices, " +
                                                    std::to_string(mesh.faces.size()) + " faces): nothing to import");

    const std::vector<Level> levels = ImportedLevels(mesh, lodLevels, options.allLods, warnings);

    const bool colours = FileHasColours(mesh);
    UniqueNames names;
    names.make(rbxkeys::kRootNode);
    for (const Level &level : levels) names.make("LOD" + std::to_string(level.index));
    const bool skinned = mesh.hasSkinning();
    if (skinned) names.make(rbxkeys::kSkeletonNode);

    Skeleton skeleton;
    std::vector<VertexSkin> globalSkin;
    if (skinned) {
        skeleton = BuildSkeleton(mesh, names, warnings);
        globalSkin = GlobalSkin(mesh, warnings);
    }

    std::vector<FacsPose> poses;
    if (skinned && options.bakeFacs && mesh.facs) {
        if (mesh.facs->parsed) {
            poses = ComputeFacsPoses(skeleton.bones, *mesh.facs->parsed, warnings);
        } else {
            warnings.push_back("FACS data kept raw but not interpreted; no poses baked");
        }
    }

    // Meshes and their nodes.
    scene->mNumMeshes = static_cast<unsigned>(levels.size());
    scene->mMeshes = new aiMesh *[levels.size()]();
    auto *root = new aiNode(rbxkeys::kRootNode);
    scene->mRootNode = root;
    const std::size_t childCount = levels.size() + (skinned ? 1 : 0);
    root->mNumChildren = static_cast<unsigned>(childCount);
    root->mChildren = new aiNode *[childCount]();
    for (std::size_t m = 0; m < levels.size(); ++m) {
        const CompactLevel compact = Compact(mesh, levels[m].faces);
        aiMesh *out = BuildMesh(mesh, levels[m], compact, colours);
        scene->mMeshes[m] = out;
        if (skinned) {
            std::vector<VertexSkin> meshSkin(compact.toFile.size());
            for (std::size_t v = 0; v < compact.toFile.size(); ++v) meshSkin[v] = globalSkin[compact.toFile[v]];
            AddBones(out, skeleton, meshSkin);
            if (!poses.empty()) AddFacsMorphTargets(out, meshSkin, poses);
        }
        root->mChildren[m] = MakeLodNode(levels[m], static_cast<unsigned>(m), root);
    }
    if (skinned) {
        aiNode *skeletonNode = MakeSkeletonNode(mesh, skeleton);
        skeletonNode->mParent = root;
        root->mChildren[levels.size()] = skeletonNode;
    }

    scene->mNumMaterials = 1;
    scene->mMaterials = new aiMaterial *[1] { MakeMaterial(rbxkeys::kMaterialName, aiColor4D(1, 1, 1, 1)) };

    AddSceneMetadata(mesh, lodLevels.size(), options.allLods, !poses.empty(), scene);
    for (const std::string &w : warnings) LogWarn(std::string(rbxmesh::kFormatName) + ": " + w);
}

std::string UnknownChunkKey(std::size_t index, std::string_view field) {
    std::string key = rbxkeys::kUnknownChunkPrefix;
    key += std::to_string(index);
    key += '.';
    key += field;
    return key;
}

bool ReadRobloxFacsMetadata(const aiMetadata *md, rbxmesh::Facs &out) {
    rbxmesh::Facs facs;
    const std::optional<std::int64_t> format = GetMetadataInt(md, rbxkeys::kFacsFormat);
    if (!format || !GetMetadataBlob(md, rbxkeys::kFacs, facs.blob)) return false;
    facs.format = static_cast<std::uint32_t>(*format); // the u32 stored as INT32, bit for bit
    if (facs.format == 1 && !facs.blob.empty()) facs.parsed = rbxmesh::ParseFacs(facs.blob);
    out = std::move(facs);
    return true;
}

bool ReadRobloxHsravisMetadata(const aiMetadata *md, rbxmesh::Hsravis &out) {
    rbxmesh::Hsravis hsravis;
    const std::optional<std::int64_t> bitCount = GetMetadataInt(md, rbxkeys::kHsravisBitCount);
    if (!bitCount || *bitCount < 0 || *bitCount > std::numeric_limits<std::uint32_t>::max() ||
        !GetMetadataBlob(md, rbxkeys::kHsravis, hsravis.bits))
        return false;
    hsravis.bitCount = static_cast<std::uint32_t>(*bitCount);
    out = std::move(hsravis);
    return true;
}

} // namespace gamefmt::glue
