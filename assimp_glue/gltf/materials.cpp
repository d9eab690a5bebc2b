// The glTF writer's materials, textures, samplers and images (layout.hpp).
#include "assimp_glue/gltf/layout.hpp"

#include "common/json_text.hpp"
#include "common/png.hpp"
#include "gamefmt/metadata.hpp"

#include <assimp/GltfMaterial.h>
#include <assimp/material.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <exception>
#include <string_view>

namespace gamefmt::glue::gltf {
namespace {

float Clamp01(float v) {
    return v > 0 ? (v < 1 ? v : 1) : 0;
}

// "image/png" or "image/jpeg" from the bytes themselves; "" for anything else.
const char *MimeOf(const std::uint8_t *data, std::size_t size) {
    static const std::uint8_t kPng[8] = {0x89, 'P', 'N', 'G', '\r', '\n', 0x1A, '\n'};
    if (data == nullptr) return "";
    if (size >= 8 && std::memcmp(data, kPng, 8) == 0) return "image/png";
    if (size >= 3 && data[0] == 0xFF && data[1] == 0xD8 && data[2] == 0xFF) return "image/jpeg";
    return "";
}

int WrapOf(int mode) {
    switch (mode) {
    case aiTextureMapMode_Clamp:
    case aiTextureMapMode_Decal:
        return 33071;
    case aiTextureMapMode_Mirror:
        return 33648;
    default:
        return 10497;
    }
}

} // namespace

unsigned Writer::materialIndex(unsigned aiMaterialIndex) {
    if (mMaterialOf[aiMaterialIndex] < 0) {
        mMaterialOf[aiMaterialIndex] = static_cast<int>(mMaterials.size());
        mMaterials.push_back(aiMaterialIndex);
    }
    return static_cast<unsigned>(mMaterialOf[aiMaterialIndex]);
}

int Writer::imageOf(const std::string &path) {
    const auto found = mImageOfPath.find(path);
    if (found != mImageOfPath.end()) return found->second;
    OutImage image;
    if (const aiTexture *t = mScene.GetEmbeddedTexture(path.c_str()); t != nullptr && t->pcData != nullptr) {
        if (t->mHeight == 0) {
            image.mime = MimeOf(reinterpret_cast<const std::uint8_t *>(t->pcData), t->mWidth);
            for (unsigned i = 0; i < mScene.mNumTextures; ++i)
                if (mScene.mTextures[i] == t) image.texture = static_cast<int>(i);
        } else if (std::uint64_t(t->mWidth) * t->mHeight <= (std::uint64_t(1) << 28)) {
            std::vector<std::uint8_t> rgba(std::size_t(t->mWidth) * t->mHeight * 4);
            for (std::size_t i = 0; i < std::size_t(t->mWidth) * t->mHeight; ++i) {
                const aiTexel &x = t->pcData[i];
                rgba[i * 4] = x.r, rgba[i * 4 + 1] = x.g, rgba[i * 4 + 2] = x.b, rgba[i * 4 + 3] = x.a;
            }
            try {
                const std::vector<std::uint8_t> png = EncodePngRgba(rgba.data(), t->mWidth, t->mHeight);
                mBlobs.emplace_back(png.begin(), png.end());
                image.blob = static_cast<int>(mBlobs.size() - 1);
                image.mime = "image/png";
            } catch (const std::exception &) {
                image.mime.clear();
            }
        }
    } else if (mOptions.readFile) {
        std::vector<std::uint8_t> bytes;
        if (mOptions.readFile(path, bytes)) {
            image.mime = MimeOf(bytes.data(), bytes.size());
            mBlobs.emplace_back(bytes.begin(), bytes.end());
            image.blob = static_cast<int>(mBlobs.size() - 1);
        }
    }
    int index = -1;
    if (!image.mime.empty() && (image.texture >= 0 || image.blob >= 0)) {
        index = static_cast<int>(mImages.size());
        mImages.push_back(image);
    } else {
        ++mReport.droppedTextures;
    }
    mImageOfPath.emplace(path, index);
    return index;
}

int Writer::samplerOf(const aiMaterial &m, aiTextureType type) {
    std::string json;
    int mag = 0, min = 0, u = -1, v = -1;
    if (m.Get(AI_MATKEY_GLTF_MAPPINGFILTER_MAG(type, 0), mag) == AI_SUCCESS && (mag == 9728 || mag == 9729))
        json += ",\"magFilter\":" + std::to_string(mag);
    if (m.Get(AI_MATKEY_GLTF_MAPPINGFILTER_MIN(type, 0), min) == AI_SUCCESS && min >= 9728 && min <= 9987 &&
        (min <= 9729 || min >= 9984))
        json += ",\"minFilter\":" + std::to_string(min);
    if (m.Get(AI_MATKEY_MAPPINGMODE_U(type, 0), u) == AI_SUCCESS && WrapOf(u) != 10497)
        json += ",\"wrapS\":" + std::to_string(WrapOf(u));
    if (m.Get(AI_MATKEY_MAPPINGMODE_V(type, 0), v) == AI_SUCCESS && WrapOf(v) != 10497)
        json += ",\"wrapT\":" + std::to_string(WrapOf(v));
    if (json.empty()) return -1;
    json = "{" + json.substr(1) + "}";
    const auto it = std::find(mSamplers.begin(), mSamplers.end(), json);
    if (it != mSamplers.end()) return static_cast<int>(it - mSamplers.begin());
    mSamplers.push_back(json);
    return static_cast<int>(mSamplers.size() - 1);
}

// The textureInfo JSON body of the material's texture of `type` ("" when none, or when its UV set is not on
// every primitive using the material: `uvSets`), and its texture index.
int Writer::textureOf(const aiMaterial &m, aiTextureType type, std::string &info) {
    info.clear();
    aiString path;
    if (m.Get(AI_MATKEY_TEXTURE(type, 0), path) != AI_SUCCESS || path.length == 0) return -1;
    int uv = 0;
    m.Get(AI_MATKEY_UVWSRC(type, 0), uv);
    if (uv < 0 || uv >= mMaterialUvSets) {
        ++mReport.droppedTextures;
        return -1;
    }
    const int image = imageOf(Str(path));
    if (image < 0) return -1;
    const int sampler = samplerOf(m, type);
    const auto [it, added] = mTextureOfKey.emplace(std::make_pair(image, sampler), static_cast<int>(mTextures.size()));
    if (added) mTextures.emplace_back(image, sampler);
    info = "\"index\":" + std::to_string(it->second);
    if (uv != 0) info += ",\"texCoord\":" + std::to_string(uv);
    aiUVTransform t;
    if (m.Get(AI_MATKEY_UVTRANSFORM(type, 0), t) == AI_SUCCESS &&
        (t.mScaling.x != 1 || t.mScaling.y != 1 || t.mRotation != 0 || t.mTranslation.x != 0 ||
         t.mTranslation.y != 0) &&
        std::isfinite(t.mScaling.x) && std::isfinite(t.mScaling.y) && std::isfinite(t.mRotation) &&
        std::isfinite(t.mTranslation.x) && std::isfinite(t.mTranslation.y)) {
        // The inverse of Assimp 5.2.5's glTF importer (glTF2Importer.cpp, KHR_texture_transform → aiUVTransform):
        // glTF rotates about the top-left origin, Assimp about the centre with V flipped.
        const double rotation = -t.mRotation, c = std::cos(rotation), s = std::sin(rotation);
        const double ox = t.mTranslation.x - 0.5 * t.mScaling.x * (-c + s + 1);
        const double oy = -(t.mTranslation.y - 0.5 * t.mScaling.y * (s + c - 1) - 1 + t.mScaling.y);
        info += ",\"extensions\":{\"KHR_texture_transform\":{\"offset\":[" + Num(ox) + "," + Num(oy) +
                "],\"rotation\":" + Num(rotation) + ",\"scale\":[" + Num(t.mScaling.x) + "," + Num(t.mScaling.y) +
                "]}}";
        mExtensionsUsed.insert("KHR_texture_transform");
    }
    return it->second;
}

std::string Writer::materialJson(const aiMaterial &m) {
    std::string out = "{";
    aiString name;
    if (m.Get(AI_MATKEY_NAME, name) == AI_SUCCESS && name.length != 0)
        out += "\"name\":" + JsonQuote(std::string_view(name.data, name.length)) + ",";
    aiColor4D base(1, 1, 1, 1);
    if (m.Get(AI_MATKEY_BASE_COLOR, base) != AI_SUCCESS) m.Get(AI_MATKEY_COLOR_DIFFUSE, base);
    float opacity = 1;
    m.Get(AI_MATKEY_OPACITY, opacity);
    const float alpha = Clamp01(std::isfinite(base.a * opacity) ? base.a * opacity : 1);
    out += "\"pbrMetallicRoughness\":{\"baseColorFactor\":[" + Num(Clamp01(base.r)) + "," + Num(Clamp01(base.g)) + "," +
           Num(Clamp01(base.b)) + "," + Num(alpha) + "]";
    std::string info;
    if (textureOf(m, aiTextureType_BASE_COLOR, info) >= 0 || textureOf(m, aiTextureType_DIFFUSE, info) >= 0)
        out += ",\"baseColorTexture\":{" + info + "}";
    float metallic = 0, roughness = 1;
    m.Get(AI_MATKEY_METALLIC_FACTOR, metallic);
    m.Get(AI_MATKEY_ROUGHNESS_FACTOR, roughness);
    out += ",\"metallicFactor\":" + Num(Clamp01(metallic)) + ",\"roughnessFactor\":" + Num(Clamp01(roughness));
    if (textureOf(m, aiTextureType_UNKNOWN, info) >= 0) out += ",\"metallicRoughnessTexture\":{" + info + "}";
    out += "}";
    if (textureOf(m, aiTextureType_NORMALS, info) >= 0) out += ",\"normalTexture\":{" + info + "}";
    if (textureOf(m, aiTextureType_LIGHTMAP, info) >= 0) out += ",\"occlusionTexture\":{" + info + "}";
    std::string extensions;
    aiColor3D emissive(0, 0, 0);
    const bool emissiveTexture = textureOf(m, aiTextureType_EMISSIVE, info) >= 0;
    if (emissiveTexture) out += ",\"emissiveTexture\":{" + info + "}";
    if (m.Get(AI_MATKEY_COLOR_EMISSIVE, emissive) != AI_SUCCESS && emissiveTexture) emissive = aiColor3D(1, 1, 1);
    const float peak = std::max({emissive.r, emissive.g, emissive.b});
    if (peak > 0 && std::isfinite(peak)) {
        const float scale = peak > 1 ? peak : 1;
        out += ",\"emissiveFactor\":[" + Num(Clamp01(emissive.r / scale)) + "," + Num(Clamp01(emissive.g / scale)) +
               "," + Num(Clamp01(emissive.b / scale)) + "]";
        if (peak > 1) {
            extensions += "\"KHR_materials_emissive_strength\":{\"emissiveStrength\":" + Num(peak) + "}";
            mExtensionsUsed.insert("KHR_materials_emissive_strength");
        }
    }
    int shading = 0;
    if (m.Get(AI_MATKEY_SHADING_MODEL, shading) == AI_SUCCESS && shading == aiShadingMode_Unlit) {
        extensions += std::string(extensions.empty() ? "" : ",") + "\"KHR_materials_unlit\":{}";
        mExtensionsUsed.insert("KHR_materials_unlit");
    }
    if (!extensions.empty()) out += ",\"extensions\":{" + extensions + "}";
    aiString mode;
    std::string alphaMode = alpha < 1 ? "BLEND" : "OPAQUE";
    if (m.Get(AI_MATKEY_GLTF_ALPHAMODE, mode) == AI_SUCCESS &&
        (std::strcmp(mode.C_Str(), "BLEND") == 0 || std::strcmp(mode.C_Str(), "MASK") == 0 ||
         std::strcmp(mode.C_Str(), "OPAQUE") == 0))
        alphaMode = mode.C_Str();
    if (alphaMode != "OPAQUE") out += ",\"alphaMode\":\"" + alphaMode + "\"";
    float cutoff = 0.5f;
    if (alphaMode == "MASK" && m.Get(AI_MATKEY_GLTF_ALPHACUTOFF, cutoff) == AI_SUCCESS && std::isfinite(cutoff) &&
        cutoff >= 0 && cutoff != 0.5f)
        out += ",\"alphaCutoff\":" + Num(cutoff);
    int twoSided = 0;
    if (m.Get(AI_MATKEY_TWOSIDED, twoSided) == AI_SUCCESS && twoSided != 0) out += ",\"doubleSided\":true";
    const std::string extras = animationExtras(m);
    if (!extras.empty()) out += ",\"extras\":{" + extras + "}";
    return out + "}";
}

// An animated texture's frames (gamefmt/metadata.hpp kMatAnim*) as material extras: "rg.anim.frames" lists glTF
// texture indices (each frame an image with the base colour's sampler), then the count and timings.
std::string Writer::animationExtras(const aiMaterial &m) {
    aiString list;
    if (m.Get(kMatAnimFrames, 0, 0, list) != AI_SUCCESS || list.length == 0) return {};
    std::string frames;
    const std::string_view text(list.data, list.length);
    const int sampler = samplerOf(m, aiTextureType_BASE_COLOR);
    for (std::size_t at = 0; at < text.size();) {
        std::size_t end = text.find(',', at);
        if (end == std::string_view::npos) end = text.size();
        const int image = imageOf(std::string(text.substr(at, end - at)));
        at = end + 1;
        if (image < 0) continue;
        const auto [it, added] =
            mTextureOfKey.emplace(std::make_pair(image, sampler), static_cast<int>(mTextures.size()));
        if (added) mTextures.emplace_back(image, sampler);
        frames += (frames.empty() ? "" : ",") + std::to_string(it->second);
    }
    if (frames.empty()) return {};
    std::string out = "\"rg.anim.frames\":[" + frames + "]";
    int count = 0, delay = 0;
    float frameMs = 0;
    if (m.Get(kMatAnimCount, 0, 0, count) == AI_SUCCESS) out += ",\"rg.anim.count\":" + std::to_string(count);
    if (m.Get(kMatAnimDelayMs, 0, 0, delay) == AI_SUCCESS) out += ",\"rg.anim.delay_ms\":" + std::to_string(delay);
    if (m.Get(kMatAnimFrameMs, 0, 0, frameMs) == AI_SUCCESS && std::isfinite(frameMs))
        out += ",\"rg.anim.frame_ms\":" + Num(frameMs);
    return out;
}

std::string Writer::materialsJson() {
    // Which UV sets every primitive of a material has (a texture on a set some primitive lacks is invalid).
    std::vector<int> sets(mMaterials.size(), AI_MAX_NUMBER_OF_TEXTURECOORDS);
    for (const Prim &p : mPrims)
        sets[static_cast<std::size_t>(p.material)] =
            std::min(sets[static_cast<std::size_t>(p.material)], static_cast<int>(p.uvs.size()));
    std::string out;
    for (std::size_t k = 0; k < mMaterials.size(); ++k) {
        mMaterialUvSets = sets[k];
        out += (k == 0 ? "" : ",") + materialJson(*mScene.mMaterials[mMaterials[k]]);
    }
    return out;
}

std::string Writer::texturesJson() {
    std::string out;
    if (!mSamplers.empty()) {
        out += ",\"samplers\":[";
        for (std::size_t i = 0; i < mSamplers.size(); ++i) out += (i == 0 ? "" : ",") + mSamplers[i];
        out += "]";
    }
    if (mTextures.empty()) return out;
    out += ",\"textures\":[";
    for (std::size_t i = 0; i < mTextures.size(); ++i) {
        out += (i == 0 ? "{" : ",{") + std::string("\"source\":") + std::to_string(mTextures[i].first);
        if (mTextures[i].second >= 0) out += ",\"sampler\":" + std::to_string(mTextures[i].second);
        out += "}";
    }
    out += "],\"images\":[";
    for (std::size_t i = 0; i < mImages.size(); ++i) {
        const OutImage &image = mImages[i];
        const unsigned view = image.texture >= 0 ? addView(Kind::Texture, static_cast<unsigned>(image.texture), 0,
                                                           mScene.mTextures[image.texture]->mWidth, 0)
                                                 : addView(Kind::Blob, static_cast<unsigned>(image.blob), 0,
                                                           mBlobs[static_cast<std::size_t>(image.blob)].size(), 0);
        out += (i == 0 ? "{" : ",{") + std::string("\"bufferView\":") + std::to_string(view) + ",\"mimeType\":\"" +
               image.mime + "\"}";
    }
    return out + "]";
}

} // namespace gamefmt::glue::gltf
