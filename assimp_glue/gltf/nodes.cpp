// gamefmt's glTF 2.0 writer for static scenes (nodes.hpp). Two passes: the layout (which meshes, images,
// materials, cameras and lights are used, and where each buffer view lies) and the JSON text are built first,
// then the binary data is streamed view by view, so no copy of the vertex data is ever held.
#include "assimp_glue/gltf/nodes.hpp"

#include "common/json_text.hpp"
#include "gamefmt/gamefmt.hpp"
#include "gamefmt/roblox_model.hpp"

#include <assimp/GltfMaterial.h>
#include <assimp/material.h>
#include <assimp/scene.h>

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstdio>
#include <cstring>
#include <map>
#include <stdexcept>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>
#include <vector>

namespace gamefmt::glue {
namespace {

constexpr std::size_t kPieceBytes = std::size_t(1) << 20;
constexpr int kArrayBuffer = 34962, kElementArrayBuffer = 34963;
constexpr float kPi = 3.14159265358979323846f;

std::string Num(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.9g", v);
    return buf;
}

bool IsIdentity(const aiMatrix4x4 &m) {
    return m.a1 == 1 && m.a2 == 0 && m.a3 == 0 && m.a4 == 0 && m.b1 == 0 && m.b2 == 1 && m.b3 == 0 && m.b4 == 0 &&
           m.c1 == 0 && m.c2 == 0 && m.c3 == 1 && m.c4 == 0 && m.d1 == 0 && m.d2 == 0 && m.d3 == 0 && m.d4 == 1;
}

// The 16 values in glTF's column-major order; false when one is not finite (JSON cannot hold it).
bool ColumnMajor(const aiMatrix4x4 &m, ai_real (&out)[16]) {
    const ai_real values[16] = {m.a1, m.b1, m.c1, m.d1, m.a2, m.b2, m.c2, m.d2,
                                m.a3, m.b3, m.c3, m.d3, m.a4, m.b4, m.c4, m.d4};
    for (int i = 0; i < 16; ++i) {
        if (!std::isfinite(values[i])) return false;
        out[i] = values[i];
    }
    return true;
}

std::string MatrixJson(const aiMatrix4x4 &m) {
    ai_real v[16];
    if (!ColumnMajor(m, v)) return {};
    std::string out = "[";
    for (int k = 0; k < 16; ++k) out += (k == 0 ? "" : ",") + Num(v[k]);
    return out + "]";
}

// The material's embedded image for base colour ("*N" on BASE_COLOR, else DIFFUSE), -1 for none, -2 when it
// names something this writer cannot embed.
int EmbeddedImageOf(const aiMaterial &m, const aiScene &scene) {
    aiString path;
    if (m.GetTexture(aiTextureType_BASE_COLOR, 0, &path) != AI_SUCCESS &&
        m.GetTexture(aiTextureType_DIFFUSE, 0, &path) != AI_SUCCESS)
        return -1;
    if (path.length < 2 || path.data[0] != '*') return -2;
    char *end = nullptr;
    const long index = std::strtol(path.data + 1, &end, 10);
    if (end == nullptr || *end != '\0' || index < 0 || static_cast<unsigned long>(index) >= scene.mNumTextures)
        return -2;
    const aiTexture *t = scene.mTextures[index];
    const std::string hint = t->achFormatHint;
    if (t->mHeight != 0 || t->pcData == nullptr || (hint != "png" && hint != "jpg" && hint != "jpeg")) return -2;
    return static_cast<int>(index);
}

bool MeshIsStatic(const aiMesh &m) {
    // What this writer would drop (a second UV set, tangents, colours, skins, morphs) stays Assimp's to write.
    if (m.mPrimitiveTypes != aiPrimitiveType_TRIANGLE || m.mNumVertices == 0 || m.mVertices == nullptr ||
        m.mNumFaces == 0 || m.mNumBones != 0 || m.mNumAnimMeshes != 0 || m.mColors[0] != nullptr ||
        m.mTextureCoords[1] != nullptr || m.mTangents != nullptr)
        return false;
    for (unsigned i = 0; i < m.mNumVertices; ++i) {
        const aiVector3D &p = m.mVertices[i];
        if (!std::isfinite(p.x) || !std::isfinite(p.y) || !std::isfinite(p.z)) return false;
    }
    for (unsigned f = 0; f < m.mNumFaces; ++f) {
        const aiFace &face = m.mFaces[f];
        if (face.mNumIndices != 3) return false;
        for (unsigned k = 0; k < 3; ++k)
            if (face.mIndices[k] >= m.mNumVertices) return false;
    }
    return true;
}

// One buffer view of the BIN data: what it holds and where.
struct View {
    enum class Kind : std::uint8_t { Positions, Normals, Uvs, Indices, Image };
    Kind kind;
    unsigned item; // mesh or texture index
    std::size_t offset = 0, length = 0;
    int target = 0;
};

class Writer {
public:
    explicit Writer(const aiScene &scene) : mScene(scene) {}

    GltfWriteReport build(const std::string &binUri);
    const std::string &json() const { return mJson; }
    std::size_t binLength() const { return mBinLength; }
    void streamBin(const ByteSink &sink) const;

private:
    void collectNodes();
    void layoutMeshes();
    std::string nodesJson();
    std::string meshesJson();
    std::string materialsJson();
    std::string camerasJson();
    std::string lightsJson();
    unsigned addView(View::Kind kind, unsigned item, std::size_t length, int target);
    unsigned addAccessor(const std::string &json);
    unsigned materialIndex(unsigned aiMaterialIndex);
    int textureIndex(int image);

    const aiScene &mScene;
    GltfWriteReport mReport;
    std::string mJson;
    std::size_t mBinLength = 0;
    std::vector<View> mViews;
    std::vector<std::string> mAccessors;

    // Nodes in breadth-first order, their children, and the extra nodes that carry a camera or a light whose
    // frame differs from its node's.
    std::vector<const aiNode *> mOrder;
    std::vector<std::vector<std::size_t>> mChildren;
    struct Extra {
        std::string name;
        aiMatrix4x4 matrix;
        int camera = -1, light = -1;
    };
    std::vector<Extra> mExtras;
    std::vector<int> mNodeCamera, mNodeLight, mNodeMesh;

    // glTF meshes: one per distinct list of aiMeshes on a node, in first-use order.
    std::map<std::vector<unsigned>, unsigned> mMeshOfList;
    std::vector<std::vector<unsigned>> mMeshLists;
    struct MeshAccessors {
        int position = -1, normal = -1, uv = -1, indices = -1;
    };
    std::vector<MeshAccessors> mMeshAccessors; // per aiMesh, for the used ones

    std::vector<int> mMaterialOf; // aiMaterial → glTF material, -1 unused
    std::vector<unsigned> mMaterials;
    std::vector<int> mTextureOf; // aiTexture → glTF texture (and image), -1 unused
    std::vector<unsigned> mImages;
    std::vector<unsigned> mCameras, mLights;
    std::vector<float> mLightRanges;
};

unsigned Writer::addView(View::Kind kind, unsigned item, std::size_t length, int target) {
    View v{kind, item};
    v.offset = (mBinLength + 3) / 4 * 4;
    v.length = length;
    v.target = target;
    mBinLength = v.offset + length;
    mViews.push_back(v);
    return static_cast<unsigned>(mViews.size() - 1);
}

unsigned Writer::addAccessor(const std::string &json) {
    mAccessors.push_back(json);
    return static_cast<unsigned>(mAccessors.size() - 1);
}

void Writer::collectNodes() {
    // Breadth-first; a node listed twice (or a cycle, in a scene built by hand) is written once.
    std::unordered_set<const aiNode *> seen{mScene.mRootNode};
    mOrder.push_back(mScene.mRootNode);
    for (std::size_t i = 0; i < mOrder.size(); ++i) {
        mChildren.emplace_back();
        for (unsigned c = 0; c < mOrder[i]->mNumChildren; ++c)
            if (const aiNode *child = mOrder[i]->mChildren[c]; child != nullptr && seen.insert(child).second) {
                mChildren[i].push_back(mOrder.size());
                mOrder.push_back(child);
            }
    }
    // Cameras and lights belong to the first node of their name; they look along -Z with +Y up in glTF.
    std::unordered_map<std::string, std::size_t> byName;
    for (std::size_t i = mOrder.size(); i-- > 0;)
        byName[std::string(mOrder[i]->mName.data, mOrder[i]->mName.length)] = i;
    mNodeCamera.assign(mOrder.size(), -1);
    mNodeLight.assign(mOrder.size(), -1);
    const auto frame = [](const aiVector3D &position, aiVector3D forward, aiVector3D up) {
        forward.Normalize();
        aiVector3D right = forward ^ up;
        if (right.SquareLength() < 1e-12f)
            right = std::fabs(forward.y) < 0.9f ? forward ^ aiVector3D(0, 1, 0) : forward ^ aiVector3D(1, 0, 0);
        right.Normalize();
        up = right ^ forward;
        return aiMatrix4x4(right.x, up.x, -forward.x, position.x, right.y, up.y, -forward.y, position.y, right.z, up.z,
                           -forward.z, position.z, 0, 0, 0, 1);
    };
    const auto place = [&](const aiString &name, const aiMatrix4x4 &local, std::vector<int> &slot, int index,
                           bool camera) {
        const auto it = byName.find(std::string(name.data, name.length));
        if (it == byName.end()) {
            ++mReport.droppedItems;
            return false;
        }
        if (IsIdentity(local) && slot[it->second] < 0) {
            slot[it->second] = index;
        } else {
            Extra e;
            e.name = std::string(name.data, name.length) + (camera ? ".camera" : ".light");
            e.matrix = local;
            (camera ? e.camera : e.light) = index;
            mChildren[it->second].push_back(mOrder.size() + mExtras.size());
            mExtras.push_back(e);
        }
        return true;
    };
    for (unsigned i = 0; i < mScene.mNumCameras; ++i) {
        const aiCamera &c = *mScene.mCameras[i];
        const auto index = static_cast<int>(mCameras.size());
        if (place(c.mName, frame(c.mPosition, c.mLookAt, c.mUp), mNodeCamera, index, true)) mCameras.push_back(i);
    }
    for (unsigned i = 0; i < mScene.mNumLights; ++i) {
        const aiLight &l = *mScene.mLights[i];
        if (l.mType == aiLightSource_AREA || l.mType == aiLightSource_UNDEFINED || l.mType == aiLightSource_AMBIENT) {
            ++mReport.droppedItems;
            continue;
        }
        const aiVector3D direction = l.mType == aiLightSource_POINT ? aiVector3D(0, 0, -1) : l.mDirection;
        const aiVector3D up = l.mUp.SquareLength() > 0 ? l.mUp : aiVector3D(0, 1, 0);
        const auto index = static_cast<int>(mLights.size());
        if (place(l.mName, frame(l.mPosition, direction, up), mNodeLight, index, false)) mLights.push_back(i);
    }
}

void Writer::layoutMeshes() {
    mNodeMesh.assign(mOrder.size(), -1);
    mMeshAccessors.assign(mScene.mNumMeshes, MeshAccessors{});
    mMaterialOf.assign(mScene.mNumMaterials, -1);
    mTextureOf.assign(mScene.mNumTextures, -1);
    for (std::size_t i = 0; i < mOrder.size(); ++i) {
        const aiNode &node = *mOrder[i];
        if (node.mNumMeshes == 0) continue;
        std::vector<unsigned> list(node.mMeshes, node.mMeshes + node.mNumMeshes);
        const auto [it, added] = mMeshOfList.emplace(list, static_cast<unsigned>(mMeshLists.size()));
        if (added) mMeshLists.push_back(list);
        mNodeMesh[i] = static_cast<int>(it->second);
    }
    // Accessors and views of every used aiMesh, in first-use order.
    for (const std::vector<unsigned> &list : mMeshLists) {
        for (unsigned m : list) {
            MeshAccessors &a = mMeshAccessors[m];
            if (a.position >= 0) continue;
            const aiMesh &mesh = *mScene.mMeshes[m];
            const unsigned n = mesh.mNumVertices;
            aiVector3D lo = mesh.mVertices[0], hi = mesh.mVertices[0];
            for (unsigned v = 1; v < n; ++v) {
                const aiVector3D &p = mesh.mVertices[v];
                lo = aiVector3D(std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z));
                hi = aiVector3D(std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z));
            }
            const std::string count = std::to_string(n);
            a.position = static_cast<int>(addAccessor(
                "{\"bufferView\":" +
                std::to_string(addView(View::Kind::Positions, m, std::size_t{n} * 12, kArrayBuffer)) +
                ",\"componentType\":5126,\"count\":" + count + ",\"type\":\"VEC3\",\"min\":[" + Num(lo.x) + "," +
                Num(lo.y) + "," + Num(lo.z) + "],\"max\":[" + Num(hi.x) + "," + Num(hi.y) + "," + Num(hi.z) + "]}"));
            if (mesh.mNormals != nullptr)
                a.normal = static_cast<int>(
                    addAccessor("{\"bufferView\":" +
                                std::to_string(addView(View::Kind::Normals, m, std::size_t{n} * 12, kArrayBuffer)) +
                                ",\"componentType\":5126,\"count\":" + count + ",\"type\":\"VEC3\"}"));
            if (mesh.mTextureCoords[0] != nullptr)
                a.uv = static_cast<int>(addAccessor(
                    "{\"bufferView\":" + std::to_string(addView(View::Kind::Uvs, m, std::size_t{n} * 8, kArrayBuffer)) +
                    ",\"componentType\":5126,\"count\":" + count + ",\"type\":\"VEC2\"}"));
            const bool small = n < 65535; // 65535 is the restart value: never an index
            const std::size_t indices = std::size_t(mesh.mNumFaces) * 3;
            a.indices = static_cast<int>(addAccessor(
                "{\"bufferView\":" +
                std::to_string(addView(View::Kind::Indices, m, indices * (small ? 2 : 4), kElementArrayBuffer)) +
                ",\"componentType\":" + (small ? "5123" : "5125") + ",\"count\":" + std::to_string(indices) +
                ",\"type\":\"SCALAR\"}"));
            materialIndex(mesh.mMaterialIndex);
        }
    }
    for (unsigned image : mImages) addView(View::Kind::Image, image, mScene.mTextures[image]->mWidth, 0);
}

unsigned Writer::materialIndex(unsigned aiMaterialIndex) {
    if (aiMaterialIndex >= mScene.mNumMaterials) throw std::runtime_error("a mesh names a material that is not there");
    if (mMaterialOf[aiMaterialIndex] < 0) {
        mMaterialOf[aiMaterialIndex] = static_cast<int>(mMaterials.size());
        mMaterials.push_back(aiMaterialIndex);
        const int image = EmbeddedImageOf(*mScene.mMaterials[aiMaterialIndex], mScene);
        if (image >= 0) textureIndex(image);
    }
    return static_cast<unsigned>(mMaterialOf[aiMaterialIndex]);
}

int Writer::textureIndex(int image) {
    if (mTextureOf[image] < 0) {
        mTextureOf[image] = static_cast<int>(mImages.size());
        mImages.push_back(static_cast<unsigned>(image));
    }
    return mTextureOf[image];
}

std::string Writer::nodesJson() {
    std::string out;
    out.reserve(mOrder.size() * 96);
    bool first = true; // within the current node: no comma before its first field
    const auto field = [&](const char *key) {
        out += first ? "\"" : ",\"";
        out += key;
        out += "\":";
        first = false;
    };
    const auto number = [&](const char *key, std::size_t value) {
        field(key);
        out += std::to_string(value);
    };
    for (std::size_t i = 0; i < mOrder.size(); ++i) {
        const aiNode &node = *mOrder[i];
        out += i == 0 ? "{" : ",{";
        first = true;
        if (node.mName.length != 0) {
            field("name");
            out += JsonQuote(std::string_view(node.mName.data, node.mName.length));
        }
        if (!mChildren[i].empty()) {
            field("children");
            for (std::size_t c = 0; c < mChildren[i].size(); ++c)
                out += (c == 0 ? "[" : ",") + std::to_string(mChildren[i][c]);
            out += ']';
        }
        if (!IsIdentity(node.mTransformation)) {
            const std::string matrix = MatrixJson(node.mTransformation);
            if (matrix.empty()) {
                ++mReport.lostMatrices;
            } else {
                field("matrix");
                out += matrix;
            }
        }
        if (mNodeMesh[i] >= 0) number("mesh", static_cast<std::size_t>(mNodeMesh[i]));
        if (mNodeCamera[i] >= 0) number("camera", static_cast<std::size_t>(mNodeCamera[i]));
        if (mNodeLight[i] >= 0) {
            field("extensions");
            out += "{\"KHR_lights_punctual\":{\"light\":" + std::to_string(mNodeLight[i]) + "}}";
        }
        out += '}';
    }
    for (const Extra &e : mExtras) {
        out += ",{\"name\":" + JsonQuote(e.name);
        const std::string matrix = MatrixJson(e.matrix);
        if (!IsIdentity(e.matrix) && !matrix.empty()) out += ",\"matrix\":" + matrix;
        if (e.camera >= 0) out += ",\"camera\":" + std::to_string(e.camera);
        if (e.light >= 0)
            out += ",\"extensions\":{\"KHR_lights_punctual\":{\"light\":" + std::to_string(e.light) + "}}";
        out += '}';
    }
    return out;
}

std::string Writer::meshesJson() {
    std::string out;
    for (std::size_t k = 0; k < mMeshLists.size(); ++k) {
        out += k == 0 ? "{" : ",{";
        const aiMesh &first = *mScene.mMeshes[mMeshLists[k][0]];
        if (first.mName.length != 0)
            out += "\"name\":" + JsonQuote(std::string_view(first.mName.data, first.mName.length)) + ",";
        out += "\"primitives\":[";
        for (std::size_t p = 0; p < mMeshLists[k].size(); ++p) {
            const unsigned m = mMeshLists[k][p];
            const MeshAccessors &a = mMeshAccessors[m];
            out += p == 0 ? "{" : ",{";
            out += "\"attributes\":{\"POSITION\":" + std::to_string(a.position);
            if (a.normal >= 0) out += ",\"NORMAL\":" + std::to_string(a.normal);
            if (a.uv >= 0) out += ",\"TEXCOORD_0\":" + std::to_string(a.uv);
            out += "},\"indices\":" + std::to_string(a.indices) +
                   ",\"material\":" + std::to_string(mMaterialOf[mScene.mMeshes[m]->mMaterialIndex]) + ",\"mode\":4}";
        }
        out += "]}";
    }
    return out;
}

float Clamp01(float v) {
    return v > 0 ? (v < 1 ? v : 1) : 0;
}

std::string Writer::materialsJson() {
    std::string out;
    for (std::size_t k = 0; k < mMaterials.size(); ++k) {
        const aiMaterial &m = *mScene.mMaterials[mMaterials[k]];
        out += k == 0 ? "{" : ",{";
        aiString name;
        if (m.Get(AI_MATKEY_NAME, name) == AI_SUCCESS && name.length != 0)
            out += "\"name\":" + JsonQuote(std::string_view(name.data, name.length)) + ",";
        aiColor4D base(1, 1, 1, 1);
        if (m.Get(AI_MATKEY_BASE_COLOR, base) != AI_SUCCESS) m.Get(AI_MATKEY_COLOR_DIFFUSE, base);
        float opacity = 1;
        m.Get(AI_MATKEY_OPACITY, opacity);
        const float alpha = Clamp01(base.a * opacity);
        out += "\"pbrMetallicRoughness\":{\"baseColorFactor\":[" + Num(Clamp01(base.r)) + "," + Num(Clamp01(base.g)) +
               "," + Num(Clamp01(base.b)) + "," + Num(alpha) + "]";
        const int image = EmbeddedImageOf(m, mScene);
        if (image >= 0) out += ",\"baseColorTexture\":{\"index\":" + std::to_string(mTextureOf[image]) + "}";
        float metallic = 0, roughness = 1;
        m.Get(AI_MATKEY_METALLIC_FACTOR, metallic);
        m.Get(AI_MATKEY_ROUGHNESS_FACTOR, roughness);
        out +=
            ",\"metallicFactor\":" + Num(Clamp01(metallic)) + ",\"roughnessFactor\":" + Num(Clamp01(roughness)) + "}";
        aiColor3D emissive(0, 0, 0);
        if (m.Get(AI_MATKEY_COLOR_EMISSIVE, emissive) == AI_SUCCESS) {
            const float peak = std::max({emissive.r, emissive.g, emissive.b});
            if (peak > 0 && std::isfinite(peak)) {
                const float scale = peak > 1 ? peak : 1;
                out += ",\"emissiveFactor\":[" + Num(emissive.r / scale) + "," + Num(emissive.g / scale) + "," +
                       Num(emissive.b / scale) + "]";
                if (peak > 1)
                    out += ",\"extensions\":{\"KHR_materials_emissive_strength\":{\"emissiveStrength\":" + Num(peak) +
                           "}}";
            }
        }
        aiString mode;
        std::string alphaMode = alpha < 1 ? "BLEND" : "OPAQUE";
        if (m.Get(AI_MATKEY_GLTF_ALPHAMODE, mode) == AI_SUCCESS &&
            (std::strcmp(mode.C_Str(), "BLEND") == 0 || std::strcmp(mode.C_Str(), "MASK") == 0 ||
             std::strcmp(mode.C_Str(), "OPAQUE") == 0))
            alphaMode = mode.C_Str();
        if (alphaMode != "OPAQUE") out += ",\"alphaMode\":\"" + alphaMode + "\"";
        int twoSided = 0;
        if (m.Get(AI_MATKEY_TWOSIDED, twoSided) == AI_SUCCESS && twoSided != 0) out += ",\"doubleSided\":true";
        out += '}';
    }
    return out;
}

std::string Writer::camerasJson() {
    std::string out;
    for (std::size_t k = 0; k < mCameras.size(); ++k) {
        const aiCamera &c = *mScene.mCameras[mCameras[k]];
        const float aspect = c.mAspect > 0 && std::isfinite(c.mAspect) ? c.mAspect : 16.0f / 9.0f;
        float halfH = c.mHorizontalFOV;
        if (!(halfH > 0 && halfH < kPi / 2)) halfH = kPi / 4;
        const float yfov = 2 * std::atan(std::tan(halfH) / aspect);
        const float znear = c.mClipPlaneNear > 0 ? c.mClipPlaneNear : 0.1f;
        const float zfar = c.mClipPlaneFar > znear ? c.mClipPlaneFar : znear * 1000;
        out += (k == 0 ? "{" : ",{");
        if (c.mName.length != 0) out += "\"name\":" + JsonQuote(std::string_view(c.mName.data, c.mName.length)) + ",";
        out += "\"type\":\"perspective\",\"perspective\":{\"aspectRatio\":" + Num(aspect) + ",\"yfov\":" + Num(yfov) +
               ",\"znear\":" + Num(znear) + ",\"zfar\":" + Num(zfar) + "}}";
    }
    return out;
}

// The light's range in scene units, when its node says (Roblox lights: rbx.light.range); 0 for none.
float RangeOf(const aiScene &scene, const aiString &name) {
    const aiNode *node = scene.mRootNode->FindNode(name);
    float range = 0;
    if (node != nullptr && node->mMetaData != nullptr) node->mMetaData->Get(kRbxLightRange, range);
    return std::isfinite(range) && range > 0 ? range : 0.0f;
}

std::string Writer::lightsJson() {
    std::string out;
    for (std::size_t k = 0; k < mLights.size(); ++k) {
        const aiLight &l = *mScene.mLights[mLights[k]];
        const aiColor3D &c = l.mColorDiffuse;
        float peak = std::max({c.r, c.g, c.b});
        if (!(peak > 0) || !std::isfinite(peak)) peak = 0;
        const float scale = peak > 0 ? peak : 1;
        out += (k == 0 ? "{" : ",{");
        if (l.mName.length != 0) out += "\"name\":" + JsonQuote(std::string_view(l.mName.data, l.mName.length)) + ",";
        const char *type = l.mType == aiLightSource_POINT  ? "point"
                           : l.mType == aiLightSource_SPOT ? "spot"
                                                           : "directional";
        out += std::string("\"type\":\"") + type + "\",\"color\":[" + Num(Clamp01(c.r / scale)) + "," +
               Num(Clamp01(c.g / scale)) + "," + Num(Clamp01(c.b / scale)) + "],\"intensity\":" + Num(peak);
        const float range = l.mType == aiLightSource_DIRECTIONAL ? 0.0f : RangeOf(mScene, l.mName);
        if (range > 0) out += ",\"range\":" + Num(range);
        if (l.mType == aiLightSource_SPOT) {
            float outer = l.mAngleOuterCone;
            if (!(outer > 0)) outer = kPi / 4;
            outer = std::min(outer, kPi / 2);
            float inner = l.mAngleInnerCone;
            if (!(inner >= 0) || inner >= outer) inner = outer * 0.9f; // glTF wants inner < outer
            out += ",\"spot\":{\"innerConeAngle\":" + Num(inner) + ",\"outerConeAngle\":" + Num(outer) + "}";
        }
        out += '}';
    }
    return out;
}

GltfWriteReport Writer::build(const std::string &binUri) {
    collectNodes();
    layoutMeshes();
    const std::string nodes = nodesJson();
    const std::string materials = materialsJson();
    const bool emissiveStrength = materials.find("KHR_materials_emissive_strength") != std::string::npos;

    std::string &j = mJson;
    j = "{\"asset\":{\"version\":\"2.0\",\"generator\":\"gamefmt ";
    j += Version();
    j += "\"}";
    std::vector<std::string> used;
    if (!mLights.empty()) used.emplace_back("KHR_lights_punctual");
    if (emissiveStrength) used.emplace_back("KHR_materials_emissive_strength");
    if (!used.empty()) {
        j += ",\"extensionsUsed\":[";
        for (std::size_t i = 0; i < used.size(); ++i) j += (i == 0 ? "\"" : ",\"") + used[i] + "\"";
        j += "]";
    }
    j += ",\"scene\":0,\"scenes\":[{\"nodes\":[0]}],\"nodes\":[" + nodes + "]";
    if (!mMeshLists.empty()) j += ",\"meshes\":[" + meshesJson() + "]";
    if (!mMaterials.empty()) j += ",\"materials\":[" + materials + "]";
    if (!mImages.empty()) {
        j += ",\"textures\":[";
        for (std::size_t i = 0; i < mImages.size(); ++i)
            j += (i == 0 ? "{" : ",{") + std::string("\"source\":") + std::to_string(i) + "}";
        j += "],\"images\":[";
        std::size_t view = mViews.size() - mImages.size();
        for (std::size_t i = 0; i < mImages.size(); ++i, ++view) {
            const std::string hint = mScene.mTextures[mImages[i]]->achFormatHint;
            j += (i == 0 ? "{" : ",{") + std::string("\"bufferView\":") + std::to_string(view) + ",\"mimeType\":\"" +
                 (hint == "png" ? "image/png" : "image/jpeg") + "\"}";
        }
        j += "]";
    }
    if (!mCameras.empty()) j += ",\"cameras\":[" + camerasJson() + "]";
    if (!mLights.empty()) j += ",\"extensions\":{\"KHR_lights_punctual\":{\"lights\":[" + lightsJson() + "]}}";
    if (mBinLength != 0) {
        j += ",\"buffers\":[{";
        if (!binUri.empty()) j += "\"uri\":" + JsonQuote(binUri) + ",";
        j += "\"byteLength\":" + std::to_string((mBinLength + 3) / 4 * 4) + "}],\"bufferViews\":[";
        for (std::size_t i = 0; i < mViews.size(); ++i) {
            const View &v = mViews[i];
            j += (i == 0 ? "{" : ",{") + std::string("\"buffer\":0,\"byteOffset\":") + std::to_string(v.offset) +
                 ",\"byteLength\":" + std::to_string(v.length);
            if (v.target != 0) j += ",\"target\":" + std::to_string(v.target);
            j += "}";
        }
        j += "],\"accessors\":[";
        for (std::size_t i = 0; i < mAccessors.size(); ++i) j += (i == 0 ? "" : ",") + mAccessors[i];
        j += "]";
    }
    j += "}";
    return mReport;
}

// Streams the BIN data: every view in order, zero padding between them and at the end (to 4 bytes).
void Writer::streamBin(const ByteSink &sink) const {
    std::string piece;
    piece.reserve(kPieceBytes + 64);
    std::size_t written = 0;
    const auto flush = [&](bool always) {
        if (!piece.empty() && (always || piece.size() >= kPieceBytes)) {
            sink(piece.data(), piece.size());
            written += piece.size();
            piece.clear();
        }
    };
    const auto put = [&](const void *data, std::size_t size) {
        piece.append(static_cast<const char *>(data), size);
        flush(false);
    };
    for (const View &v : mViews) {
        piece.append(v.offset - (written + piece.size()), '\0');
        const aiMesh *mesh = v.kind == View::Kind::Image ? nullptr : mScene.mMeshes[v.item];
        switch (v.kind) {
        case View::Kind::Positions:
            for (unsigned i = 0; i < mesh->mNumVertices; ++i) put(&mesh->mVertices[i], 12);
            break;
        case View::Kind::Normals:
            // glTF wants unit normals (ACCESSOR_VECTOR3_NON_UNIT): other importers' normals are scaled back.
            for (unsigned i = 0; i < mesh->mNumVertices; ++i) {
                aiVector3D n = mesh->mNormals[i];
                const float length = n.Length();
                if (length > 0 && std::isfinite(length) && std::fabs(length - 1) > 1e-6f) n /= length;
                put(&n, 12);
            }
            break;
        case View::Kind::Uvs:
            for (unsigned i = 0; i < mesh->mNumVertices; ++i) {
                const float uv[2] = {mesh->mTextureCoords[0][i].x, 1.0f - mesh->mTextureCoords[0][i].y};
                put(uv, 8);
            }
            break;
        case View::Kind::Indices: {
            const bool small = mesh->mNumVertices < 65535;
            for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
                for (unsigned k = 0; k < 3; ++k) {
                    const unsigned index = mesh->mFaces[f].mIndices[k];
                    if (small) {
                        const auto i16 = static_cast<std::uint16_t>(index);
                        put(&i16, 2);
                    } else {
                        put(&index, 4);
                    }
                }
            }
            break;
        }
        case View::Kind::Image:
            put(mScene.mTextures[v.item]->pcData, v.length);
            break;
        }
    }
    piece.append((mBinLength + 3) / 4 * 4 - mBinLength, '\0');
    flush(true);
}

void PutU32(std::string &out, std::uint32_t v) {
    for (int k = 0; k < 4; ++k) out += static_cast<char>((v >> (8 * k)) & 0xFF);
}

// Hands `text` to `sink` in pieces of about 1 MiB.
void Stream(const std::string &text, const ByteSink &sink) {
    for (std::size_t at = 0; at < text.size(); at += kPieceBytes)
        sink(text.data() + at, std::min(kPieceBytes, text.size() - at));
}

GltfWriteReport WriteGlb(const aiScene &scene, const ByteSink &sink) {
    Writer w(scene);
    const GltfWriteReport report = w.build("");
    const std::size_t json = w.json().size();
    const std::size_t paddedJson = (json + 3) / 4 * 4;
    const std::size_t bin = (w.binLength() + 3) / 4 * 4;
    const std::size_t total = 12 + 8 + paddedJson + (bin != 0 ? 8 + bin : 0);
    if (total > 0xFFFFFFFFu) throw std::runtime_error("the scene needs more than the 4 GiB a glb can hold");
    std::string header = "glTF";
    PutU32(header, 2);
    PutU32(header, static_cast<std::uint32_t>(total));
    PutU32(header, static_cast<std::uint32_t>(paddedJson));
    header += "JSON";
    sink(header.data(), header.size());
    Stream(w.json(), sink);
    const std::string pad(paddedJson - json, ' ');
    if (!pad.empty()) sink(pad.data(), pad.size());
    if (bin != 0) {
        std::string chunk;
        PutU32(chunk, static_cast<std::uint32_t>(bin));
        chunk += "BIN";
        chunk += '\0';
        sink(chunk.data(), chunk.size());
        w.streamBin(sink);
    }
    return report;
}

std::string FileName(const std::string &path) {
    const std::size_t slash = path.find_last_of("/\\");
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

} // namespace

bool IsNodeOnlyScene(const aiScene &scene) {
    return scene.mRootNode != nullptr && scene.mNumMeshes == 0 && scene.mNumAnimations == 0 && scene.mNumCameras == 0 &&
           scene.mNumLights == 0 && scene.mNumTextures == 0;
}

bool IsStaticScene(const aiScene &scene) {
    if (scene.mRootNode == nullptr || scene.mNumAnimations != 0) return false;
    for (unsigned i = 0; i < scene.mNumMeshes; ++i)
        if (scene.mMeshes[i] == nullptr || !MeshIsStatic(*scene.mMeshes[i]) ||
            scene.mMeshes[i]->mMaterialIndex >= scene.mNumMaterials)
            return false;
    for (unsigned i = 0; i < scene.mNumMaterials; ++i)
        if (scene.mMaterials[i] == nullptr || EmbeddedImageOf(*scene.mMaterials[i], scene) == -2) return false;
    return true;
}

GltfWriteReport WriteStaticGltf(const aiScene &scene, bool binary, const std::string &path, const std::string &binPath,
                                const OpenOutput &open) {
    if (binary) return WriteGlb(scene, open(path));
    Writer w(scene);
    const GltfWriteReport report = w.build(FileName(binPath));
    Stream(w.json(), open(path));
    if (w.binLength() != 0) w.streamBin(open(binPath));
    return report;
}

std::size_t WriteNodeOnlyGltf(const aiScene &scene, bool binary, const ByteSink &sink) {
    if (binary) return WriteGlb(scene, sink).lostMatrices;
    Writer w(scene);
    const GltfWriteReport report = w.build("");
    Stream(w.json(), sink);
    return report.lostMatrices;
}

} // namespace gamefmt::glue
