// The glTF writer's JSON text and binary stream (layout.hpp), and the entry points of writer.hpp.
#include "assimp_glue/gltf/compress.hpp"
#include "assimp_glue/gltf/extras.hpp"
#include "assimp_glue/gltf/layout.hpp"
#include "common/json_text.hpp"
#include "gamefmt/gamefmt.hpp"
#include "gamefmt/metadata.hpp"
#include "gamefmt/roblox_model.hpp"

#include <assimp/scene.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string_view>

namespace gamefmt::glue::gltf {

// glTF readers take numbers as float32: the shortest text that reads back to the same float (std::to_chars;
// "0.28", not "0.280000001"). Non-finite values cannot be JSON: 0.
void AppendNum(std::string &out, double v) {
    const auto f = static_cast<float>(v);
    if (!std::isfinite(f)) {
        out += '0';
        return;
    }
    char buf[32];
    const std::to_chars_result r = std::to_chars(buf, buf + sizeof buf, f);
    out.append(buf, r.ptr);
}

std::string Num(double v) {
    std::string out;
    AppendNum(out, v);
    return out;
}

bool IsIdentity(const aiMatrix4x4 &m) {
    return m.a1 == 1 && m.a2 == 0 && m.a3 == 0 && m.a4 == 0 && m.b1 == 0 && m.b2 == 1 && m.b3 == 0 && m.b4 == 0 &&
           m.c1 == 0 && m.c2 == 0 && m.c3 == 1 && m.c4 == 0 && m.d1 == 0 && m.d2 == 0 && m.d3 == 0 && m.d4 == 1;
}

bool ColumnMajor(const aiMatrix4x4 &m, ai_real (&out)[16]) {
    const ai_real values[16] = {m.a1, m.b1, m.c1, m.d1, m.a2, m.b2, m.c2, m.d2,
                                m.a3, m.b3, m.c3, m.d3, m.a4, m.b4, m.c4, m.d4};
    for (int i = 0; i < 16; ++i) {
        if (!std::isfinite(values[i])) return false;
        out[i] = values[i];
    }
    return true;
}

bool AppendMatrix(std::string &out, const aiMatrix4x4 &m) {
    ai_real v[16];
    if (!ColumnMajor(m, v)) return false;
    out += '[';
    for (int k = 0; k < 16; ++k) {
        if (k != 0) out += ',';
        AppendNum(out, v[k]);
    }
    out += ']';
    return true;
}

aiVector3D Position(const aiVector3D &p, const Xform &x) {
    if (!Finite(p)) return aiVector3D(0, 0, 0);
    return x.identity ? p : x.m * p;
}

Writer::Writer(const aiScene &scene, const GltfOptions &options) : mScene(scene), mOptions(options) {
    double cm = 0;
    if (!options.keepUnits && scene.mMetaData != nullptr) {
        float f = 0;
        std::int32_t i = 0;
        if (scene.mMetaData->Get("UnitScaleFactor", cm) ||
            (scene.mMetaData->Get("UnitScaleFactor", f) && (cm = f, true)) ||
            (scene.mMetaData->Get("UnitScaleFactor", i) && (cm = i, true))) {
        }
    }
    if (std::isfinite(cm) && cm > 0) mScale = cm / 100.0;
    mReport.unitScale = mScale;
    aiMatrix4x4 s;
    s.a1 = s.b2 = s.c3 = static_cast<ai_real>(mScale);
    addXform(s); // xform 0: what every unskinned mesh gets
    mMaterialOf.assign(scene.mNumMaterials, -1);
}

aiMatrix4x4 Writer::scaledLeft(aiMatrix4x4 m) const {
    const auto s = static_cast<ai_real>(mScale);
    m.a1 *= s, m.a2 *= s, m.a3 *= s, m.a4 *= s;
    m.b1 *= s, m.b2 *= s, m.b3 *= s, m.b4 *= s;
    m.c1 *= s, m.c2 *= s, m.c3 *= s, m.c4 *= s;
    return m;
}

aiMatrix4x4 Writer::conjugated(aiMatrix4x4 m) const {
    const auto s = static_cast<ai_real>(mScale);
    m.a4 *= s, m.b4 *= s, m.c4 *= s;
    return m;
}

unsigned Writer::addView(Kind kind, unsigned item, int aux, std::size_t length, int target) {
    View v{kind, item, aux};
    v.offset = (mBinLength + 3) / 4 * 4;
    v.length = length;
    v.target = target;
    mBinLength = v.offset + length;
    mViews.push_back(v);
    return static_cast<unsigned>(mViews.size() - 1);
}

unsigned Writer::addBlobView(std::string bytes, int target) {
    mBlobs.push_back(std::move(bytes));
    return addView(Kind::Blob, static_cast<unsigned>(mBlobs.size() - 1), 0, mBlobs.back().size(), target);
}

unsigned Writer::addAccessor(std::string json) {
    mAccessors.push_back(std::move(json));
    return static_cast<unsigned>(mAccessors.size() - 1);
}

std::string FloatAccessor(unsigned view, std::size_t count, const char *type, const aiVector3D *lo,
                          const aiVector3D *hi) {
    std::string out = "{\"bufferView\":" + std::to_string(view) +
                      ",\"componentType\":5126,\"count\":" + std::to_string(count) + ",\"type\":\"" + type + "\"";
    if (lo != nullptr && hi != nullptr)
        out += ",\"min\":[" + Num(lo->x) + "," + Num(lo->y) + "," + Num(lo->z) + "],\"max\":[" + Num(hi->x) + "," +
               Num(hi->y) + "," + Num(hi->z) + "]";
    return out + "}";
}

// ---------------------------------------------------------------------------------------------------------
// JSON

std::string Writer::nodesJson() {
    std::string out;
    out.reserve(mNodes.size() * 160);
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
    for (std::size_t i = 0; i < mNodes.size(); ++i) {
        const OutNode &n = mNodes[i];
        out += i == 0 ? "{" : ",{";
        first = true;
        const std::string_view name =
            n.src != nullptr ? std::string_view(n.src->mName.data, n.src->mName.length) : std::string_view(n.name);
        if (!name.empty()) {
            field("name");
            out += JsonQuote(name);
        }
        if (!n.children.empty()) {
            field("children");
            for (std::size_t c = 0; c < n.children.size(); ++c) {
                out += c == 0 ? '[' : ',';
                out += std::to_string(n.children[c]);
            }
            out += ']';
        }
        if (!n.moved && !IsIdentity(n.matrix)) {
            field("matrix");
            AppendMatrix(out, n.matrix);
        }
        if (n.mesh >= 0) number("mesh", static_cast<std::size_t>(n.mesh));
        if (n.skin >= 0) number("skin", static_cast<std::size_t>(n.skin));
        if (n.camera >= 0) number("camera", static_cast<std::size_t>(n.camera));
        if (n.light >= 0) {
            field("extensions");
            out += "{\"KHR_lights_punctual\":{\"light\":" + std::to_string(n.light) + "}}";
        }
        if (n.src != nullptr && n.src->mMetaData != nullptr) {
            const std::string extras = MetadataExtrasJson(*n.src->mMetaData);
            if (!extras.empty()) {
                field("extras");
                out += extras;
            }
        }
        out += '}';
    }
    return out;
}

std::string Writer::primitiveJson(const Prim &p, std::size_t targets) {
    const std::size_t n = p.vertices; // a zero target has as many elements as POSITION (Draco: as decoded)
    std::string out = "{\"attributes\":{\"POSITION\":" + std::to_string(p.position);
    if (p.normal >= 0) out += ",\"NORMAL\":" + std::to_string(p.normal);
    if (p.tangent >= 0) out += ",\"TANGENT\":" + std::to_string(p.tangent);
    for (std::size_t k = 0; k < p.uvs.size(); ++k)
        out += ",\"TEXCOORD_" + std::to_string(k) + "\":" + std::to_string(p.uvs[k]);
    for (std::size_t k = 0; k < p.colors.size(); ++k)
        out += ",\"COLOR_" + std::to_string(k) + "\":" + std::to_string(p.colors[k]);
    for (std::size_t k = 0; k < p.joints.size(); ++k)
        out += ",\"JOINTS_" + std::to_string(k) + "\":" + std::to_string(p.joints[k]) + ",\"WEIGHTS_" +
               std::to_string(k) + "\":" + std::to_string(p.weights[k]);
    out += "}";
    if (p.indices >= 0) out += ",\"indices\":" + std::to_string(p.indices);
    out += ",\"material\":" + std::to_string(p.material) + ",\"mode\":" + std::to_string(p.mode);
    if (targets != 0) {
        out += ",\"targets\":[";
        for (std::size_t k = 0; k < targets; ++k) {
            out += k == 0 ? "{" : ",{";
            if (k < p.targets.size()) {
                out += "\"POSITION\":" + std::to_string(p.targets[k].position);
                if (p.targets[k].normal >= 0) out += ",\"NORMAL\":" + std::to_string(p.targets[k].normal);
            } else { // all primitives of a mesh need as many targets: a zero one
                const aiVector3D zero(0, 0, 0);
                out += "\"POSITION\":" +
                       std::to_string(addAccessor(FloatAccessor(addBlobView(std::string(n * 12, '\0'), kArrayBuffer), n,
                                                                "VEC3", &zero, &zero)));
            }
            out += "}";
        }
        out += "]";
    }
    if (p.dracoView >= 0) {
        out += ",\"extensions\":{\"KHR_draco_mesh_compression\":{\"bufferView\":" + std::to_string(p.dracoView) +
               ",\"attributes\":{";
        for (std::size_t k = 0; k < p.dracoAttributes.size(); ++k)
            out += (k == 0 ? "\"" : ",\"") + p.dracoAttributes[k].first +
                   "\":" + std::to_string(p.dracoAttributes[k].second);
        out += "}}}";
    }
    return out + "}";
}

std::string Writer::meshesJson() {
    std::string out;
    for (std::size_t k = 0; k < mMeshes.size(); ++k) {
        const OutMesh &mesh = mMeshes[k];
        const aiMesh &first = *mScene.mMeshes[mPrims[mesh.prims[0]].mesh];
        out += k == 0 ? "{" : ",{";
        if (first.mName.length != 0)
            out += "\"name\":" + JsonQuote(std::string_view(first.mName.data, first.mName.length)) + ",";
        out += "\"primitives\":[";
        for (std::size_t p = 0; p < mesh.prims.size(); ++p)
            out += (p == 0 ? "" : ",") + primitiveJson(mPrims[mesh.prims[p]], mesh.targets);
        out += "]";
        if (mesh.targets != 0) {
            const Prim *named = nullptr;
            for (unsigned p : mesh.prims)
                if (named == nullptr || mPrims[p].targets.size() > named->targets.size()) named = &mPrims[p];
            std::string weights, names;
            for (std::size_t t = 0; t < mesh.targets; ++t) {
                weights +=
                    (t == 0 ? "" : ",") + Num(t < named->defaultWeights.size() ? named->defaultWeights[t] : 0.0f);
                names += (t == 0 ? "" : ",") + JsonQuote(t < named->targetNames.size() ? named->targetNames[t]
                                                                                       : "target_" + std::to_string(t));
            }
            out += ",\"weights\":[" + weights + "],\"extras\":{\"targetNames\":[" + names + "]}";
        }
        out += "}";
    }
    return out;
}

std::string Writer::skinsJson() {
    std::string out;
    for (std::size_t k = 0; k < mSkins.size(); ++k) {
        const Skin &s = mSkins[k];
        out += (k == 0 ? "{" : ",{") + std::string("\"inverseBindMatrices\":") + std::to_string(s.inverseBindMatrices) +
               ",\"joints\":[";
        for (std::size_t j = 0; j < s.joints.size(); ++j) out += (j == 0 ? "" : ",") + std::to_string(s.joints[j]);
        out += "]";
        if (!s.name.empty()) out += ",\"name\":" + JsonQuote(s.name);
        out += "}";
    }
    return out;
}

std::string Writer::animationsJson() {
    std::string out;
    for (std::size_t k = 0; k < mAnimations.size(); ++k) {
        const OutAnimation &a = mAnimations[k];
        out += k == 0 ? "{" : ",{";
        if (!a.name.empty()) out += "\"name\":" + JsonQuote(a.name) + ",";
        out += "\"channels\":[";
        for (std::size_t c = 0; c < a.channels.size(); ++c)
            out += (c == 0 ? "{" : ",{") + std::string("\"sampler\":") + std::to_string(a.channels[c].sampler) +
                   ",\"target\":{\"node\":" + std::to_string(a.channels[c].node) + ",\"path\":\"" + a.channels[c].path +
                   "\"}}";
        out += "],\"samplers\":[";
        for (std::size_t s = 0; s < a.samplers.size(); ++s)
            out += (s == 0 ? "{" : ",{") + std::string("\"input\":") + std::to_string(a.samplers[s].input) +
                   ",\"interpolation\":\"" + a.samplers[s].interpolation +
                   "\",\"output\":" + std::to_string(a.samplers[s].output) + "}";
        out += "]";
        if (!a.extras.empty()) out += ",\"extras\":" + a.extras;
        out += "}";
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
        const double near = c.mClipPlaneNear > 0 && std::isfinite(c.mClipPlaneNear) ? c.mClipPlaneNear : 0.1;
        const double far = c.mClipPlaneFar > near && std::isfinite(c.mClipPlaneFar) ? c.mClipPlaneFar : near * 1000;
        out += (k == 0 ? "{" : ",{");
        if (c.mName.length != 0) out += "\"name\":" + JsonQuote(std::string_view(c.mName.data, c.mName.length)) + ",";
        out += "\"type\":\"perspective\",\"perspective\":{\"aspectRatio\":" + Num(aspect) + ",\"yfov\":" + Num(yfov) +
               ",\"znear\":" + Num(near * mScale) + ",\"zfar\":" + Num(far * mScale) + "}}";
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
        out += std::string("\"type\":\"") + type + "\",\"color\":[" + Num(std::clamp(c.r / scale, 0.0f, 1.0f)) + "," +
               Num(std::clamp(c.g / scale, 0.0f, 1.0f)) + "," + Num(std::clamp(c.b / scale, 0.0f, 1.0f)) +
               "],\"intensity\":" + Num(peak);
        const float range = l.mType == aiLightSource_DIRECTIONAL ? 0.0f : RangeOf(mScene, l.mName);
        if (range > 0) out += ",\"range\":" + Num(range * mScale);
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

std::string Writer::assetJson() {
    std::string out = "{\"generator\":\"gamefmt ";
    out += Version();
    out += "\",\"version\":\"2.0\"";
    std::string copyright;
    if (mScene.mMetaData != nullptr && GetMetadataText(mScene.mMetaData, "SourceAsset_Copyright", copyright) &&
        !copyright.empty())
        out += ",\"copyright\":" + JsonQuote(copyright);
    if (mScene.mMetaData != nullptr) {
        const std::string extras = MetadataExtrasJson(*mScene.mMetaData);
        if (!extras.empty()) out += ",\"extras\":" + extras;
    }
    return out + "}";
}

GltfWriteReport Writer::build(const std::string &binUri) {
    if (mScene.mRootNode == nullptr) throw std::runtime_error("the scene has no root node");
    collectNodes();
    placeCamerasAndLights();
    assignMeshes();
    layoutAnimations();
    if (mOptions.draco || mOptions.meshopt) Compress(*this);
    const std::string nodes = nodesJson();
    const std::string meshes = meshesJson();
    const std::string materials = materialsJson();
    const std::string textures = texturesJson();
    std::string &j = mJson;
    j = "{\"asset\":" + assetJson();
    if (!mLights.empty()) mExtensionsUsed.insert("KHR_lights_punctual");
    const auto names = [&j](const char *key, const std::set<std::string> &set) {
        if (set.empty()) return;
        j += std::string(",\"") + key + "\":[";
        for (auto it = set.begin(); it != set.end(); ++it) j += (it == set.begin() ? "" : ",") + JsonQuote(*it);
        j += "]";
    };
    names("extensionsUsed", mExtensionsUsed);
    names("extensionsRequired", mExtensionsRequired);
    j += ",\"scene\":0,\"scenes\":[{\"nodes\":[";
    for (std::size_t r = 0; r < mRoots.size(); ++r) j += (r == 0 ? "" : ",") + std::to_string(mRoots[r]);
    j += "]}],\"nodes\":[" + nodes + "]";
    if (!mMeshes.empty()) j += ",\"meshes\":[" + meshes + "]";
    if (!mMaterials.empty()) j += ",\"materials\":[" + materials + "]";
    j += textures;
    if (!mSkins.empty()) j += ",\"skins\":[" + skinsJson() + "]";
    if (!mAnimations.empty()) j += ",\"animations\":[" + animationsJson() + "]";
    if (!mCameras.empty()) j += ",\"cameras\":[" + camerasJson() + "]";
    if (!mLights.empty()) j += ",\"extensions\":{\"KHR_lights_punctual\":{\"lights\":[" + lightsJson() + "]}}";
    if (mBinLength != 0) {
        j += ",\"buffers\":[{";
        if (!binUri.empty()) j += "\"uri\":" + JsonQuote(binUri) + ",";
        j += "\"byteLength\":" + std::to_string((mBinLength + 3) / 4 * 4) + "}";
        j += meshoptFallbackJson();
        j += "],\"bufferViews\":[";
        for (std::size_t i = 0; i < mViews.size(); ++i) j += (i == 0 ? "" : ",") + viewJson(mViews[i]);
        j += "],\"accessors\":[";
        for (std::size_t i = 0; i < mAccessors.size(); ++i) j += (i == 0 ? "" : ",") + mAccessors[i];
        j += "]";
    }
    j += "}";
    mReport.noGeometry = mMeshes.empty();
    return mReport;
}

} // namespace gamefmt::glue::gltf
