// The Redguard exporters (docs/formats/redguard-3d.md §15, assimp_glue/redguard/scene.hpp for the keys read back): the
// scene is flattened into the Assimp-free builder's input, the codec builds and writes the model, and the bytes go out
// through the IOSystem Assimp hands us.
#include "assimp_glue/redguard/exporter.hpp"

#include "assimp_glue/common/export_util.hpp"
#include "assimp_glue/common/io_util.hpp"
#include "assimp_glue/common/scene_util.hpp"
#include "assimp_glue/redguard/scene.hpp"
#include "common/ascii.hpp"
#include "common/error.hpp"
#include "common/text_number.hpp"
#include "gamefmt/config.hpp"
#include "importers/redguard/model.hpp"
#include "importers/redguard/texbsi.hpp"

#include <assimp/DefaultLogger.hpp>
#include <assimp/Exceptional.h>
#include <assimp/IOStream.hpp>
#include <assimp/IOSystem.hpp>
#include <assimp/material.h>
#include <assimp/scene.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <limits>
#include <map>
#include <optional>
#include <set>
#include <unordered_set>
#include <utility>

namespace gamefmt::glue {
namespace {

using redguard::BuildInput;
using redguard::BuildMaterial;
using redguard::BuildPolygon;
using redguard::Float3;

[[noreturn]] void Fail(const std::string &problem) {
    throw FormatError(redguard::kFormatName, problem);
}

// ---------------------------------------------------------------- metadata read back (assimp_glue/redguard/scene.hpp)

std::optional<std::int32_t> MetaInt(const aiMetadata *md, const char *key) {
    const std::optional<std::int64_t> value = GetMetadataInt(md, key);
    if (!value) return std::nullopt;
    return static_cast<std::int32_t>(*value);
}

// A string of any length (the long form of gamefmt/metadata.hpp joined).
std::optional<std::string> MetaText(const aiMetadata *md, const char *key) {
    std::string text;
    if (!GetMetadataText(md, key, text)) return std::nullopt;
    return text;
}

std::vector<std::string> Split(const std::string &text, char separator) {
    std::vector<std::string> parts;
    std::size_t start = 0;
    for (;;) {
        const std::size_t at = text.find(separator, start);
        parts.push_back(text.substr(start, at == std::string::npos ? std::string::npos : at - start));
        if (at == std::string::npos) return parts;
        start = at + 1;
    }
}

bool ParseU32(const std::string &text, std::uint32_t &out) {
    if (text.empty() || text.size() > 10) return false;
    std::uint64_t v = 0;
    for (char c : text) {
        if (c < '0' || c > '9') return false;
        v = v * 10 + std::uint64_t(c - '0');
    }
    if (v > 0xFFFFFFFFull) return false;
    out = static_cast<std::uint32_t>(v);
    return true;
}

// One emitted face of rg.face_order: the file face index and how many aiFaces it became (t > 1: a face the
// importer ear-clipped into t triangles — concave, self-crossing or without area).
struct OrderEntry {
    std::uint32_t fileFace = 0;
    std::uint32_t pieces = 1;
};

// "m0:0-3,7,9x4;m1:4-6,8" -> per node-local mesh index, the entries in emitted order.
std::optional<std::map<std::uint32_t, std::vector<OrderEntry>>> ParseFaceOrder(const std::string &text) {
    std::map<std::uint32_t, std::vector<OrderEntry>> result;
    if (text.empty()) return result;
    for (const std::string &mesh : Split(text, ';')) {
        const std::size_t colon = mesh.find(':');
        std::uint32_t k = 0;
        if (mesh.size() < 2 || mesh[0] != 'm' || colon == std::string::npos || !ParseU32(mesh.substr(1, colon - 1), k))
            return std::nullopt;
        std::vector<OrderEntry> &entries = result[k];
        const std::string list = mesh.substr(colon + 1);
        if (list.empty()) continue;
        for (const std::string &item : Split(list, ',')) {
            const std::size_t dash = item.find('-');
            const std::size_t x = item.find('x');
            std::uint32_t a = 0, b = 0;
            if (dash != std::string::npos) {
                if (!ParseU32(item.substr(0, dash), a) || !ParseU32(item.substr(dash + 1), b) || b < a ||
                    b - a > 100000000u)
                    return std::nullopt;
                for (std::uint32_t i = a; i <= b; ++i) entries.push_back({i, 1});
            } else if (x != std::string::npos) {
                if (!ParseU32(item.substr(0, x), a) || !ParseU32(item.substr(x + 1), b) || b == 0) return std::nullopt;
                entries.push_back({a, b});
            } else {
                if (!ParseU32(item, a)) return std::nullopt;
                entries.push_back({a, 1});
            }
        }
    }
    return result;
}

// "0-1,4,2-3" -> 0, 1, 4, 2, 3 (rg.vertex_order); nullopt when malformed or absurdly long.
std::optional<std::vector<std::uint32_t>> ParseIndexRuns(const std::string &text) {
    std::vector<std::uint32_t> out;
    if (text.empty()) return out;
    for (const std::string &item : Split(text, ',')) {
        const std::size_t dash = item.find('-');
        std::uint32_t a = 0, b = 0;
        if (dash == std::string::npos) {
            if (!ParseU32(item, a)) return std::nullopt;
            b = a;
        } else if (!ParseU32(item.substr(0, dash), a) || !ParseU32(item.substr(dash + 1), b) || b < a) {
            return std::nullopt;
        }
        if (b - a >= 100000000u || out.size() + (b - a) >= 100000000u) return std::nullopt;
        for (std::uint32_t i = a;; ++i) {
            out.push_back(i);
            if (i == b) break;
        }
    }
    return out;
}

// A finite number, locale-independent (common/text_number.hpp).
bool ParseFiniteFloat(const std::string &text, float &out) {
    float v = 0;
    if (!ParseFloat(text, v) || !std::isfinite(v)) return false;
    out = v;
    return true;
}

// "cx,cy,cz,radius,o0,o1,o2:refs" groups separated by ';' -> faces and the triple; refs are face indices ("a",
// runs "a-b") or "off/i4" (index·4 / 4; the offset is recomputed on writing).
std::optional<std::vector<redguard::BuildSection4Group>> ParseSection4(const std::string &text) {
    std::vector<redguard::BuildSection4Group> groups;
    if (text.empty()) return groups;
    for (const std::string &entry : Split(text, ';')) {
        const std::size_t colon = entry.find(':');
        if (colon == std::string::npos) return std::nullopt;
        const std::vector<std::string> head = Split(entry.substr(0, colon), ',');
        if (head.size() != 7) return std::nullopt;
        redguard::BuildSection4Group group;
        std::array<float, 3> opaque{};
        for (int i = 0; i < 3; ++i)
            if (!ParseFiniteFloat(head[4 + i], opaque[i])) return std::nullopt;
        if (opaque[0] != 0 || opaque[1] != 0 || opaque[2] != 0) group.opaque = opaque;
        const std::string refs = entry.substr(colon + 1);
        if (!refs.empty())
            for (const std::string &ref : Split(refs, ',')) {
                const std::size_t slash = ref.find('/');
                if (slash == std::string::npos) {
                    // Face indices ("a" or "a-b"): references that point at their face records. A group holds at
                    // most 65535 references (u16 count).
                    const std::size_t dash = ref.find('-');
                    std::uint32_t a = 0, b = 0;
                    if (dash == std::string::npos
                            ? !ParseU32(ref, a)
                            : !ParseU32(ref.substr(0, dash), a) || !ParseU32(ref.substr(dash + 1), b) || b < a)
                        return std::nullopt;
                    if (dash == std::string::npos) b = a;
                    if (group.faces.size() + (b - a) >= 0xFFFFu) return std::nullopt;
                    for (std::uint32_t face = a;; ++face) {
                        group.faces.push_back(face);
                        if (face == b) break;
                    }
                    continue;
                }
                std::uint32_t offset = 0, times4 = 0;
                if (!ParseU32(ref.substr(0, slash), offset) || !ParseU32(ref.substr(slash + 1), times4))
                    return std::nullopt;
                if (times4 % 4 != 0) continue; // not a face index: nothing to map it to
                group.faces.push_back(times4 / 4);
            }
        groups.push_back(std::move(group));
    }
    return groups;
}

// ---------------------------------------------------------------- scene walk

struct Instance {
    const aiNode *node = nullptr;
    unsigned localIndex = 0; // position in node->mMeshes (the k of rg.face_order's "m<k>")
    const aiMesh *mesh = nullptr;
    aiMatrix4x4 global;
};

bool IsModelNode(const aiNode *node) {
    return node != nullptr && node->mMetaData != nullptr && MetaText(node->mMetaData, rgkeys::kVersion).has_value();
}

std::vector<Instance> WalkScene(const aiScene &scene) {
    std::vector<Instance> instances;
    WalkNodes(scene.mRootNode, aiMatrix4x4(), 0, [&](const aiNode &node, const aiMatrix4x4 &parent, int) {
        const aiMatrix4x4 global = parent * node.mTransformation;
        for (unsigned i = 0; i < node.mNumMeshes; ++i) {
            const unsigned m = node.mMeshes[i];
            if (m >= scene.mNumMeshes || scene.mMeshes[m] == nullptr) continue;
            instances.push_back({&node, i, scene.mMeshes[m], global});
        }
        return std::make_pair(global, 0);
    });
    return instances;
}

struct Transform {
    aiMatrix4x4 matrix;
    aiMatrix3x3 normalMatrix; // cofactor matrix times the determinant's sign
    bool mirrored = false;

    explicit Transform(const aiMatrix4x4 &m) : matrix(m) {
        const double a[3][3] = {{m.a1, m.a2, m.a3}, {m.b1, m.b2, m.b3}, {m.c1, m.c2, m.c3}};
        double cof[3][3];
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) {
                const int r1 = (r + 1) % 3, r2 = (r + 2) % 3, c1 = (c + 1) % 3, c2 = (c + 2) % 3;
                cof[r][c] = a[r1][c1] * a[r2][c2] - a[r1][c2] * a[r2][c1];
            }
        const double det = a[0][0] * cof[0][0] + a[0][1] * cof[0][1] + a[0][2] * cof[0][2];
        mirrored = det < 0;
        const double sign = mirrored ? -1.0 : 1.0;
        normalMatrix = aiMatrix3x3(float(sign * cof[0][0]), float(sign * cof[0][1]), float(sign * cof[0][2]),
                                   float(sign * cof[1][0]), float(sign * cof[1][1]), float(sign * cof[1][2]),
                                   float(sign * cof[2][0]), float(sign * cof[2][1]), float(sign * cof[2][2]));
    }
    Float3 point(const aiVector3D &p) const {
        const aiVector3D q = matrix * p;
        return {q.x, q.y, q.z};
    }
    Float3 normal(const aiVector3D &n) const {
        const aiVector3D q = normalMatrix * n;
        return {q.x, q.y, q.z};
    }
};

// The polygon a concave face was ear-clipped into: the boundary of its triangles (directed edges used by
// exactly one piece), walked from the first triangle's first corner. Empty when the pieces do not close.
std::vector<std::uint32_t> JoinPieces(const aiMesh &mesh, unsigned first, unsigned count) {
    std::map<std::pair<std::uint32_t, std::uint32_t>, int> edges;
    for (unsigned f = first; f < first + count; ++f) {
        const aiFace &face = mesh.mFaces[f];
        if (face.mNumIndices != 3) return {};
        for (unsigned i = 0; i < 3; ++i) ++edges[{face.mIndices[i], face.mIndices[(i + 1) % 3]}];
    }
    std::map<std::uint32_t, std::uint32_t> next;
    for (const auto &edge : edges) {
        if (edge.second != 1 || edges.count({edge.first.second, edge.first.first}) != 0) continue;
        if (!next.emplace(edge.first.first, edge.first.second).second) return {}; // not a simple boundary
    }
    const std::uint32_t start = mesh.mFaces[first].mIndices[0];
    std::vector<std::uint32_t> polygon{start};
    std::uint32_t at = start;
    for (std::size_t step = 0; step < next.size(); ++step) {
        const auto it = next.find(at);
        if (it == next.end()) return {};
        at = it->second;
        if (at == start) break;
        polygon.push_back(at);
    }
    if (at != start || polygon.size() != count + 2 || polygon.size() != next.size()) return {};
    return polygon;
}

BuildMaterial ReadMaterial(const aiScene &scene, const aiMaterial *material) {
    BuildMaterial out;
    if (material == nullptr) return out;
    aiString name;
    if (material->Get(AI_MATKEY_NAME, name) == AI_SUCCESS) out.name = name.C_Str();
    int value = 0;
    if (material->Get(rgkeys::kMatTexRaw, 0, 0, value) == AI_SUCCESS) out.texRaw = static_cast<std::uint32_t>(value);
    if (material->Get(rgkeys::kMatTexHi, 0, 0, value) == AI_SUCCESS)
        out.texHi = static_cast<std::uint8_t>(std::clamp(value, 0, 255));
    if (material->Get(rgkeys::kMatTexW, 0, 0, value) == AI_SUCCESS && value > 0) out.texW = value;
    if (material->Get(rgkeys::kMatTexH, 0, 0, value) == AI_SUCCESS && value > 0) out.texH = value;
    aiString path;
    if (material->GetTexture(aiTextureType_DIFFUSE, 0, &path) == AI_SUCCESS ||
        material->GetTexture(aiTextureType_BASE_COLOR, 0, &path) == AI_SUCCESS) {
        out.texturePath = path.C_Str();
        // An embedded texture "*N": its file name, when it has one, says more than the reference.
        if (path.length > 1 && path.data[0] == '*') {
            const aiTexture *texture = scene.GetEmbeddedTexture(path.C_Str());
            if (texture != nullptr && texture->mFilename.length > 0) out.texturePath = texture->mFilename.C_Str();
        }
    }
    aiColor4D colour;
    if (material->Get(AI_MATKEY_COLOR_DIFFUSE, colour) == AI_SUCCESS ||
        material->Get(AI_MATKEY_BASE_COLOR, colour) == AI_SUCCESS)
        out.diffuse = Float3{colour.r, colour.g, colour.b};
    return out;
}

// The rg.version of the nearest model node at or above `node` ("" when none).
std::string ModelVersion(const aiNode *node) {
    for (; node != nullptr; node = node->mParent)
        if (const auto version = MetaText(node->mMetaData, rgkeys::kVersion)) return *version;
    return "";
}

// v2.x models store a u16 texture value (§4); a v4/v5 file needs the base-40 or solid u32 of the same thing.
std::optional<std::uint32_t> V2TextureToV5(std::uint32_t value) {
    const redguard::TextureRef ref = redguard::DecodeTexture(value, redguard::Version::V27);
    if (ref.kind == redguard::TextureRef::Kind::Solid) return redguard::EncodeSolid(ref.colour);
    if (ref.kind == redguard::TextureRef::Kind::Texture) return redguard::EncodeBase40(ref.bank, ref.image);
    return std::nullopt;
}

// The first animation with morph channels, when its keys are what selects the frames.
const aiAnimation *MorphAnimation(const aiScene &scene) {
    for (unsigned a = 0; a < scene.mNumAnimations; ++a) {
        const aiAnimation *animation = scene.mAnimations[a];
        if (animation != nullptr && animation->mNumMorphMeshChannels > 0) return animation;
    }
    return nullptr;
}

// The key times of an animation's morph channels, sorted and distinct: one frame each.
std::vector<double> MorphKeyTimes(const aiAnimation &animation) {
    std::vector<double> times;
    for (unsigned c = 0; c < animation.mNumMorphMeshChannels; ++c) {
        const aiMeshMorphAnim *channel = animation.mMorphMeshChannels[c];
        if (channel == nullptr) continue;
        for (unsigned k = 0; k < channel->mNumKeys; ++k) times.push_back(channel->mKeys[k].mTime);
    }
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end()), times.end());
    return times;
}

// The pose of `mesh` at `time` under its morph channel: base + Σ w·(target − base) of the last key at or
// before `time` (the first key before any), as Assimp's absolute anim meshes are blended.
std::vector<aiVector3D> MorphPose(const aiMesh &mesh, const aiMeshMorphAnim *channel, double time) {
    std::vector<aiVector3D> pose(mesh.mVertices, mesh.mVertices + mesh.mNumVertices);
    if (channel == nullptr || channel->mNumKeys == 0) return pose;
    const aiMeshMorphKey *key = &channel->mKeys[0];
    for (unsigned k = 0; k < channel->mNumKeys; ++k)
        if (channel->mKeys[k].mTime <= time) key = &channel->mKeys[k];
    for (unsigned i = 0; i < key->mNumValuesAndWeights; ++i) {
        const unsigned target = key->mValues[i];
        const double weight = key->mWeights[i];
        if (target >= mesh.mNumAnimMeshes || weight == 0) continue;
        const aiAnimMesh *anim = mesh.mAnimMeshes[target];
        if (anim == nullptr || anim->mVertices == nullptr || anim->mNumVertices != mesh.mNumVertices) continue;
        for (unsigned v = 0; v < mesh.mNumVertices; ++v)
            pose[v] += (anim->mVertices[v] - mesh.mVertices[v]) * static_cast<ai_real>(weight);
    }
    return pose;
}

} // namespace

namespace {

// ExtractRedguardInput's steps over shared state: the model node's round-trip metadata, the frame layout,
// then per mesh instance its vertices (base pose and frames) and its polygons, then the checks that need
// every mesh.
class InputExtractor {
public:
    explicit InputExtractor(const aiScene &scene) : mScene(scene) {}

    RedguardSceneInput run() {
        const aiScene &scene = mScene;
        BuildInput &input = mResult.input;
        if (scene.mRootNode == nullptr) Fail("the scene has no root node");
        for (unsigned m = 0; m < scene.mNumMaterials; ++m)
            input.materials.push_back(ReadMaterial(scene, scene.mMaterials[m]));
        if (input.materials.empty()) input.materials.push_back(BuildMaterial{});
        mInstances = WalkScene(scene);
        readModelMetadata();
        frameLayout();
        mV2Material.assign(input.materials.size(), false);
        mOrderUsable = mFaceOrder.has_value() && !mFaceOrder->empty();
        for (const Instance &instance : mInstances) {
            const aiMesh &mesh = *instance.mesh;
            if (mesh.mNumFaces == 0 || mesh.mNumVertices == 0 || mesh.mVertices == nullptr) continue;
            const Transform transform(instance.global);
            const auto base = static_cast<std::uint32_t>(input.positions.size());
            if (input.positions.size() + mesh.mNumVertices > std::numeric_limits<std::uint32_t>::max() / 2)
                Fail("the scene has too many vertices");
            addVertices(mesh, transform, base);
            addPolygons(instance, transform, base);
        }
        finish();
        return std::move(mResult);
    }

private:
    // The round-trip metadata applies when every mesh hangs off one model node.
    void readModelMetadata() {
        BuildInput &input = mResult.input;
        const std::vector<Instance> &instances = mInstances;
        const aiNode *modelNode = nullptr;
        bool single = true;
        for (const Instance &instance : instances) {
            if (instance.mesh->mNumFaces == 0) continue;
            if (modelNode == nullptr)
                modelNode = instance.node;
            else if (instance.node != modelNode)
                single = false;
        }
        if (!single || !IsModelNode(modelNode)) modelNode = nullptr;
        mMd = modelNode != nullptr ? modelNode->mMetaData : nullptr;
        const aiMetadata *md = mMd;

        if (const auto text = MetaText(md, rgkeys::kFaceOrder)) {
            mFaceOrder = ParseFaceOrder(*text);
            if (!mFaceOrder) mResult.warnings.push_back("rg.face_order is malformed: the scene's face order is kept");
        }
        mNumFrames = MetaInt(md, rgkeys::kNumFrames);
        if (const auto radius = MetaInt(md, rgkeys::kRadius)) input.radius = static_cast<std::uint32_t>(*radius);
        if (const auto header24 = MetaInt(md, rgkeys::kHeader24))
            input.header24 = static_cast<std::uint32_t>(*header24);
        if (const auto normals = MetaText(md, rgkeys::kVertexNormals)) mResult.vertexNormals = *normals;
        if (const auto text = MetaText(md, rgkeys::kSection4)) {
            input.section4 = ParseSection4(*text);
            if (!input.section4)
                mResult.warnings.push_back("rg.section4 is malformed: one group of every face is written");
        }
    }

    // Frames: every animated mesh must carry the same number of anim meshes; how many frames are written and
    // where they come from (anim meshes, or the key times of a morph animation).
    void frameLayout() {
        unsigned animCount = 0;
        for (const Instance &instance : mInstances) {
            if (instance.mesh->mNumFaces == 0 || instance.mesh->mNumAnimMeshes == 0) continue;
            if (animCount != 0 && instance.mesh->mNumAnimMeshes != animCount)
                Fail("the meshes have different numbers of animation frames (" + std::to_string(animCount) + " and " +
                     std::to_string(instance.mesh->mNumAnimMeshes) + " anim meshes)");
            animCount = instance.mesh->mNumAnimMeshes;
        }
        // §15: the importer's layout lists frame 0 among the anim meshes (rg.num_frames = their count). Without
        // the metadata (lost in a glTF round trip), anim meshes named "frame0" first say the same.
        mFrame0Listed = animCount > 0 && mNumFrames && *mNumFrames == static_cast<std::int32_t>(animCount);
        if (animCount > 0 && !mNumFrames) {
            bool named = true;
            for (const Instance &instance : mInstances) {
                if (instance.mesh->mNumFaces == 0 || instance.mesh->mNumAnimMeshes == 0) continue;
                const aiAnimMesh *first = instance.mesh->mAnimMeshes[0];
                named = named && first != nullptr && std::string(first->mName.C_Str()) == "frame0";
            }
            mFrame0Listed = named;
        }
        // Otherwise, an animation whose morph keys select (or blend) anim meshes gives one frame per key time.
        mMorph = animCount > 0 && !mFrame0Listed ? MorphAnimation(mScene) : nullptr;
        mKeyTimes = mMorph != nullptr ? MorphKeyTimes(*mMorph) : std::vector<double>();
        if (mKeyTimes.empty()) mMorph = nullptr;
        mFrameCount = mMorph != nullptr ? static_cast<unsigned>(1 + mKeyTimes.size())
                      : animCount == 0  ? 1
                                        : (mFrame0Listed ? animCount : animCount + 1);
        mResult.input.frames.resize(mFrameCount - 1);
    }

    // The mesh's base-pose positions, normals and UVs (world space), and its position in every frame.
    void addVertices(const aiMesh &mesh, const Transform &transform, std::uint32_t base) {
        BuildInput &input = mResult.input;
        auto animPositions = [&mesh](unsigned a) -> const aiVector3D * {
            const aiAnimMesh *anim = a < mesh.mNumAnimMeshes ? mesh.mAnimMeshes[a] : nullptr;
            if (anim == nullptr || anim->mVertices == nullptr || anim->mNumVertices != mesh.mNumVertices)
                return mesh.mVertices;
            return anim->mVertices;
        };
        const bool animated = mesh.mNumAnimMeshes > 0;
        const aiVector3D *basePositions = animated && mFrame0Listed ? animPositions(0) : mesh.mVertices;
        // Normals of the base pose: those of anim mesh 0 when it is frame 0 and has them.
        const aiVector3D *baseNormals = mesh.mNormals;
        if (animated && mFrame0Listed && mesh.mAnimMeshes[0] != nullptr && mesh.mAnimMeshes[0]->mNormals != nullptr &&
            mesh.mAnimMeshes[0]->mNumVertices == mesh.mNumVertices)
            baseNormals = mesh.mAnimMeshes[0]->mNormals;
        for (unsigned v = 0; v < mesh.mNumVertices; ++v) input.positions.push_back(transform.point(basePositions[v]));
        if (baseNormals != nullptr) {
            if (input.normals.size() < base) input.normals.resize(base, Float3{0, 0, 0});
            for (unsigned v = 0; v < mesh.mNumVertices; ++v) input.normals.push_back(transform.normal(baseNormals[v]));
        }
        const aiVector3D *uv = mesh.mTextureCoords[0];
        if (uv != nullptr) {
            if (input.uvs.size() < base) input.uvs.resize(base, std::array<float, 2>{0, 0});
            for (unsigned v = 0; v < mesh.mNumVertices; ++v) input.uvs.push_back({uv[v].x, uv[v].y});
        }
        const aiMeshMorphAnim *channel = nullptr;
        if (mMorph != nullptr)
            for (unsigned c = 0; c < mMorph->mNumMorphMeshChannels && channel == nullptr; ++c)
                if (mMorph->mMorphMeshChannels[c] != nullptr && mMorph->mMorphMeshChannels[c]->mName == mesh.mName)
                    channel = mMorph->mMorphMeshChannels[c];
        for (unsigned k = 1; k < mFrameCount; ++k) {
            if (mMorph != nullptr) {
                const std::vector<aiVector3D> pose = MorphPose(mesh, channel, mKeyTimes[k - 1]);
                for (const aiVector3D &p : pose) input.frames[k - 1].push_back(transform.point(p));
                continue;
            }
            const aiVector3D *positions = !animated ? basePositions : animPositions(mFrame0Listed ? k : k - 1);
            for (unsigned v = 0; v < mesh.mNumVertices; ++v)
                input.frames[k - 1].push_back(transform.point(positions[v]));
        }
    }

    // The mesh's polygons, re-joining the concave faces the importer split when rg.face_order says so.
    void addPolygons(const Instance &instance, const Transform &transform, std::uint32_t base) {
        BuildInput &input = mResult.input;
        const aiMesh &mesh = *instance.mesh;
        const std::vector<OrderEntry> *entries = nullptr;
        if (mOrderUsable) {
            const auto it = mFaceOrder->find(instance.localIndex);
            if (it == mFaceOrder->end()) {
                mOrderUsable = false;
            } else {
                entries = &it->second;
                std::uint64_t pieces = 0;
                for (const OrderEntry &e : *entries) pieces += e.pieces;
                if (pieces != mesh.mNumFaces) {
                    mOrderUsable = false;
                    entries = nullptr;
                }
            }
        }
        const std::string version = ModelVersion(instance.node);
        if ((version == "v2.6" || version == "v2.7") && mesh.mMaterialIndex < mV2Material.size())
            mV2Material[mesh.mMaterialIndex] = true;
        auto addPolygon = [&](std::vector<std::uint32_t> corners) {
            BuildPolygon polygon;
            polygon.material = mesh.mMaterialIndex < input.materials.size() ? mesh.mMaterialIndex : 0;
            for (std::uint32_t &c : corners) c += base;
            // A mirroring transform turns CCW into CW: reverse, keeping corner 0 first.
            if (transform.mirrored && corners.size() > 2) std::reverse(corners.begin() + 1, corners.end());
            polygon.corners = std::move(corners);
            input.polygons.push_back(std::move(polygon));
        };
        auto faceCorners = [&mesh](unsigned f) {
            const aiFace &face = mesh.mFaces[f];
            return std::vector<std::uint32_t>(face.mIndices, face.mIndices + face.mNumIndices);
        };
        if (entries != nullptr) {
            unsigned f = 0;
            for (const OrderEntry &e : *entries) {
                if (e.pieces == 1) {
                    addPolygon(faceCorners(f));
                    mOrder.push_back(e.fileFace);
                } else {
                    std::vector<std::uint32_t> joined = JoinPieces(mesh, f, e.pieces);
                    if (joined.empty()) {
                        mRejoinFailed = true;
                        for (unsigned p = 0; p < e.pieces; ++p) addPolygon(faceCorners(f + p));
                    } else {
                        addPolygon(std::move(joined));
                        mOrder.push_back(e.fileFace);
                    }
                }
                f += e.pieces;
            }
        } else {
            for (unsigned f = 0; f < mesh.mNumFaces; ++f) addPolygon(faceCorners(f));
        }
    }

    // V2 texture values, padding, and what the face order decides: vertex order and Section4.
    void finish() {
        BuildInput &input = mResult.input;
        for (std::size_t m = 0; m < input.materials.size(); ++m) {
            BuildMaterial &material = input.materials[m];
            if (!mV2Material[m] || !material.texRaw) continue;
            material.texRaw = V2TextureToV5(*material.texRaw); // nullopt: the name or the default decides
        }
        if (!input.normals.empty()) input.normals.resize(input.positions.size(), Float3{0, 0, 0});
        if (!input.uvs.empty()) input.uvs.resize(input.positions.size(), std::array<float, 2>{0, 0});
        if (mRejoinFailed) {
            mResult.warnings.push_back(
                "a face the importer split into triangles could not be re-joined: written as triangles");
            mOrderUsable = false;
        }
        if (mFaceOrder && !mFaceOrder->empty() && !mOrderUsable)
            mResult.warnings.push_back("rg.face_order does not match the meshes (edited or post-processed scene): the "
                                       "scene's face order is kept");
        if (mOrderUsable && mOrder.size() == input.polygons.size()) {
            input.faceOrder = std::move(mOrder);
            // The file's vertex numbering, when it was not first use along the faces (only meaningful in file
            // face order).
            if (const auto text = MetaText(mMd, rgkeys::kVertexOrder)) {
                if (auto vertexOrder = ParseIndexRuns(*text))
                    input.vertexOrder = std::move(*vertexOrder);
                else
                    mResult.warnings.push_back("rg.vertex_order is malformed: vertices are numbered in first use");
            }
        }
        if (input.faceOrder.empty() && input.section4 && !input.section4->empty()) {
            // Section4 groups name file faces; without the face order they cannot be mapped.
            input.section4.reset();
            mResult.warnings.push_back(
                "rg.section4 dropped: the face order is unknown; one group of every face is written");
        }
    }

    const aiScene &mScene;
    RedguardSceneInput mResult;
    std::vector<Instance> mInstances;
    const aiMetadata *mMd = nullptr; // the model node's metadata (null: none applies)
    std::optional<std::map<std::uint32_t, std::vector<OrderEntry>>> mFaceOrder;
    std::optional<std::int32_t> mNumFrames;
    bool mFrame0Listed = false; // anim mesh 0 is frame 0
    const aiAnimation *mMorph = nullptr;
    std::vector<double> mKeyTimes;
    unsigned mFrameCount = 1;
    std::vector<bool> mV2Material;
    bool mOrderUsable = false;
    std::vector<std::uint32_t> mOrder; // rg.face_order of each polygon
    bool mRejoinFailed = false;
};

} // namespace

RedguardSceneInput ExtractRedguardInput(const aiScene &scene) {
    return InputExtractor(scene).run();
}

namespace {

std::string Folder(const std::string &path) {
    const std::size_t slash = path.find_last_of("/\\");
    return slash == std::string::npos ? std::string() : path.substr(0, slash + 1);
}

std::array<std::uint8_t, 768> LoadPalette(const std::string &value, Assimp::IOSystem *io, const std::string &path,
                                          std::vector<std::string> &warnings) {
    if (io == nullptr) Fail(std::string("option ") + GAMEFMT_RG_PALETTE + ": no IOSystem to read '" + value + "' with");
    std::vector<std::string> candidates;
    const std::string folder = Folder(path);
    for (const std::string &stem : {value, value + ".COL", value + ".col"}) {
        candidates.push_back(stem);
        if (!folder.empty()) candidates.push_back(folder + stem);
    }
    for (const std::string &candidate : candidates) {
        if (!FileExists(io, candidate)) continue;
        const std::vector<std::uint8_t> bytes = ReadAll(io, candidate, redguard::kFormatName, 1 << 20);
        return redguard::ReadPalette(bytes.data(), bytes.size(), &warnings).rgb;
    }
    Fail(std::string("option ") + GAMEFMT_RG_PALETTE + ": palette '" + value + "' not found (tried '" + value + "', '" +
         value + ".COL' and '" + value + ".col')");
}

redguard::BuildOptions ReadOptions(const Assimp::ExportProperties *properties, RedguardExportKind kind,
                                   const std::string &vertexNormals, Assimp::IOSystem *io, const std::string &path,
                                   std::vector<std::string> &warnings) {
    redguard::BuildOptions options;
    options.kind = kind == RedguardExportKind::Model3DC ? redguard::BuildOptions::Kind::Animated3DC
                                                        : redguard::BuildOptions::Kind::Static3D;
    std::string text;
    if (properties != nullptr && ReadExportText(*properties, GAMEFMT_RG_EXPORT_VERSION, text)) {
        const std::string v = AsciiLower(text);
        if (v == "v5.0" || v == "5.0" || v == "5")
            options.version = redguard::Version::V50;
        else if (v == "v4.0" || v == "4.0" || v == "4")
            options.version = redguard::Version::V40;
        else
            Fail(std::string("option ") + GAMEFMT_RG_EXPORT_VERSION + " must be \"v5.0\" or \"v4.0\", not '" + text +
                 "' (v2.x is never written)");
    }
    // A v4.0 .3D keeps the table when the source had one; otherwise it stores one normal per vertex.
    if (options.version == redguard::Version::V40 && kind == RedguardExportKind::Model3D)
        options.normals =
            vertexNormals == "table" ? redguard::BuildOptions::Normals::Table : redguard::BuildOptions::Normals::Direct;
    if (properties != nullptr && ReadExportText(*properties, GAMEFMT_RG_DEFAULT_TEXTURE, text)) {
        const std::optional<std::uint32_t> value = redguard::ParseDefaultTexture(text);
        if (!value)
            Fail(std::string("option ") + GAMEFMT_RG_DEFAULT_TEXTURE +
                 " must be \"tex:BANK/IMAGE\" (bank 0-599, image 0-999) or \"color:INDEX\" (0-255), not '" + text +
                 "'");
        options.defaultTexture = *value;
    }
    if (properties != nullptr && ReadExportText(*properties, GAMEFMT_RG_SCALE, text)) {
        double scale = 0;
        if (!ParseDouble(text, scale) || !(scale > 0) || !std::isfinite(scale) || scale > 1e30)
            Fail(std::string("option ") + GAMEFMT_RG_SCALE + " must be a positive number, not '" + text + "'");
        options.scale = static_cast<float>(scale);
    }
    if (properties != nullptr && ReadExportText(*properties, GAMEFMT_RG_FALLBACK_TEX_SIZE, text)) {
        std::int64_t size = 0;
        if (!ParseInt64(text, size) || size <= 0 || size > 65536)
            Fail(std::string("option ") + GAMEFMT_RG_FALLBACK_TEX_SIZE +
                 " must be a texture size in texels (1-65536), not '" + text + "'");
        options.fallbackTexSize = static_cast<int>(size);
    }
    if (properties != nullptr && ReadExportText(*properties, GAMEFMT_RG_PALETTE, text) && !text.empty())
        options.palette = LoadPalette(text, io, path, warnings);
    return options;
}

} // namespace

RedguardExportResult ExportRedguardToBytes(const aiScene &scene, RedguardExportKind kind,
                                           const Assimp::ExportProperties *properties, Assimp::IOSystem *io,
                                           const std::string &path) {
    RedguardSceneInput extracted = ExtractRedguardInput(scene);
    RedguardExportResult result;
    result.warnings = std::move(extracted.warnings);
    const redguard::BuildOptions options =
        ReadOptions(properties, kind, extracted.vertexNormals, io, path, result.warnings);
    redguard::BuildResult built = redguard::BuildModel(extracted.input, options);
    for (std::string &w : built.warnings) result.warnings.push_back(std::move(w));
    result.bytes = redguard::WriteModel(built.model, &result.warnings);
    std::set<std::string> logged;
    for (const std::string &w : result.warnings)
        if (logged.insert(w).second) LogWarn("Redguard export: " + w);
    return result;
}

namespace {

void Export(const char *path, Assimp::IOSystem *io, const aiScene *scene, const Assimp::ExportProperties *properties,
            RedguardExportKind kind) {
    RunExport("Redguard", redguard::kFormatName, scene, io, [&] {
        const std::string target = path != nullptr ? path : "";
        return ExportedFiles{{target, ExportRedguardToBytes(*scene, kind, properties, io, target).bytes}};
    });
}

void Export3D(const char *path, Assimp::IOSystem *io, const aiScene *scene, const Assimp::ExportProperties *props) {
    Export(path, io, scene, props, RedguardExportKind::Model3D);
}

void Export3DC(const char *path, Assimp::IOSystem *io, const aiScene *scene, const Assimp::ExportProperties *props) {
    Export(path, io, scene, props, RedguardExportKind::Model3DC);
}

} // namespace

const std::vector<Assimp::Exporter::ExportFormatEntry> &RedguardExportEntries() {
    using Entry = Assimp::Exporter::ExportFormatEntry;
    // No enforced steps: faces are written as the polygons they are (3-255 corners), and anim meshes must
    // keep their vertex order (JoinIdenticalVertices would not remap them).
    static const std::vector<Entry> entries = {
        Entry("rg3d",
              "Redguard .3D model (v5.0, or v4.0 with GAMEFMT_RG_EXPORT_VERSION; one model of every mesh, "
              "polygons of up to 255 corners; an animated scene writes its base pose)",
              "3d", &Export3D, 0u),
        Entry("rg3dc",
              "Redguard .3DC animated model (v4.0, frame type 2 from anim meshes; a static scene writes a "
              "single-frame .3DC)",
              "3dc", &Export3DC, 0u),
    };
    return entries;
}

} // namespace gamefmt::glue
