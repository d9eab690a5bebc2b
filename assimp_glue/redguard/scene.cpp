// Redguard model / ROB archive -> aiScene (docs/formats/redguard-3d.md §9, §13): one node per model, one mesh per
// material key with the stored polygons (concave ones ear-clipped here), palette-coloured and embedded-PNG materials,
// frame animation as absolute morph targets with a one-hot weight track. The layout is the contract in
// assimp_glue/redguard/scene.hpp.
#include "assimp_glue/redguard/scene.hpp"

#include "assimp_glue/common/scene_util.hpp"
#include "common/error.hpp"
#include "common/png.hpp"
#include "common/text_number.hpp"
#include "importers/redguard/detect.hpp"
#include "meshing/polygon.hpp"

#include <assimp/GltfMaterial.h>
#include <assimp/anim.h>
#include <assimp/light.h>
#include <assimp/material.h>
#include <assimp/mesh.h>
#include <assimp/scene.h>
#include <assimp/texture.h>

#include <algorithm>
#include <array>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <set>
#include <unordered_map>

namespace gamefmt::glue {
namespace {

using polygon::EarClip;
using polygon::IsConcave;
using polygon::IsConvexSimple;
using polygon::NewellNormal;
using polygon::PlainlyConvexQuad;
using polygon::Project;
using polygon::SpreadProjection;
using redguard::Face;
using redguard::RG3DModel;
using redguard::TextureRef;

constexpr const char *kWarnPrefix = "Redguard 3D: ";

void Warn(const std::string &message) {
    LogWarn(kWarnPrefix + message);
}

// ---------------------------------------------------------------- ownership helpers

struct NodeDeleter {
    void operator()(aiNode *n) const { delete n; }
};
using NodePtr = std::unique_ptr<aiNode, NodeDeleter>;

void AttachChildren(aiNode *parent, std::vector<NodePtr> &children) {
    if (children.empty()) return;
    parent->mNumChildren = static_cast<unsigned>(children.size());
    parent->mChildren = new aiNode *[children.size()];
    for (std::size_t i = 0; i < children.size(); ++i) {
        parent->mChildren[i] = children[i].release();
        parent->mChildren[i]->mParent = parent;
    }
    children.clear();
}

template <typename T> T **ReleaseAll(std::vector<std::unique_ptr<T>> &items) {
    if (items.empty()) return nullptr;
    T **out = new T *[items.size()];
    for (std::size_t i = 0; i < items.size(); ++i) out[i] = items[i].release();
    items.clear();
    return out;
}

// ---------------------------------------------------------------- small geometry

// Native raw position -> Assimp (−x, −y, z) / 256 · scale.
aiVector3D ToAiPosition(const std::int32_t *p, double scale) {
    const double k = scale / 256.0;
    return aiVector3D(static_cast<ai_real>(-double(p[0]) * k), static_cast<ai_real>(-double(p[1]) * k),
                      static_cast<ai_real>(double(p[2]) * k));
}
aiVector3D ToAiNormal(const Vec3d &n) {
    return aiVector3D(static_cast<ai_real>(-n.x), static_cast<ai_real>(-n.y), static_cast<ai_real>(n.z));
}

Vec3d RawPoint(const std::vector<std::int32_t> &positions, std::uint32_t vertex) {
    const std::size_t i = std::size_t(vertex) * 3;
    if (i + 2 >= positions.size()) return {};
    return {double(positions[i]), double(positions[i + 1]), double(positions[i + 2])};
}

// The polygon as Assimp 5.2.5's aiProcess_Triangulate sees it: in Assimp's axes (−x, −y, z), projected by
// dropping the axis of the largest Newell component, orientation kept (its TriangulateProcess.cpp).
std::vector<std::array<double, 2>> AssimpProjection(const std::vector<Vec3d> &native) {
    std::vector<Vec3d> pts(native.size());
    for (std::size_t i = 0; i < native.size(); ++i) pts[i] = {-native[i].x, -native[i].y, native[i].z};
    const Vec3d n = NewellNormal(pts);
    const double ax = std::fabs(n.x), ay = std::fabs(n.y), az = std::fabs(n.z);
    int ac = 0, bc = 1; // drop z
    double inv = n.z;
    if (ax > ay) {
        if (ax > az) ac = 1, bc = 2, inv = n.x; // drop x
    } else if (ay > az) {
        ac = 2, bc = 0, inv = n.y; // drop y
    }
    if (inv < 0) std::swap(ac, bc);
    std::vector<std::array<double, 2>> out(pts.size());
    for (std::size_t i = 0; i < pts.size(); ++i) {
        const double c[3] = {pts[i].x, pts[i].y, pts[i].z};
        out[i] = {c[ac], c[bc]};
    }
    return out;
}

// True when Assimp 5.2.5's aiProcess_Triangulate splits this polygon into exactly n − 2 triangles. Its ear
// search drops a face it finds no ear in (and whole meshes go empty that way) and cuts concave faces wrongly,
// so only a polygon that is convex and simple both in the Newell plane (`flat`) and in Assimp's own
// projection is left to it; the importer ear-clips every other one.
bool AssimpTriangulates(const std::vector<Vec3d> &pts, const std::vector<std::array<double, 2>> &flat) {
    // Quads are fanned from their reflex corner and never dropped; a concave one is still cut wrongly.
    if (pts.size() == 4) return flat.empty() || !IsConcave(flat);
    return !flat.empty() && IsConvexSimple(flat) && IsConvexSimple(AssimpProjection(pts));
}

// ---------------------------------------------------------------- text

std::string Hex(std::uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof(buf), "%08x", v);
    return buf;
}

// The header words as the file stores them (little-endian).
std::vector<std::uint8_t> HeaderBytes(const std::array<std::uint32_t, 16> &header) {
    std::vector<std::uint8_t> bytes(64);
    for (std::size_t i = 0; i < 16; ++i)
        for (std::size_t b = 0; b < 4; ++b) bytes[4 * i + b] = static_cast<std::uint8_t>(header[i] >> (8 * b));
    return bytes;
}

// printf's "%.9g" (to_chars with a precision is specified as exactly that), without printf's cost.
std::string FloatText(float f) {
    char buf[32];
    const std::to_chars_result r = std::to_chars(buf, buf + sizeof(buf), double(f), std::chars_format::general, 9);
    return std::string(buf, r.ptr);
}

// rg.section4 (assimp_glue/redguard/scene.hpp): a reference that points at its face's record, as every real one does
// (docs/formats/redguard-3d.md §8), is written as the face index, runs of them as "a-b"; any other as "off/i4".
std::string Section4Text(const RG3DModel &model) {
    const std::vector<std::uint64_t> records = redguard::FaceRecordOffsets(model, model.header[15]); // [0x3C]
    const auto canonical = [&records](const redguard::Section4Ref &ref) {
        const std::size_t face = ref.faceIndexTimes4 / 4u;
        return ref.faceIndexTimes4 % 4 == 0 && face < records.size() && records[face] == ref.faceOffset;
    };
    std::string out;
    for (std::size_t g = 0; g < model.section4.size(); ++g) {
        const redguard::Section4Group &group = model.section4[g];
        if (g != 0) out += ';';
        for (int i = 0; i < 3; ++i) {
            AppendInt(out, group.centre[static_cast<std::size_t>(i)]);
            out += ',';
        }
        AppendUInt(out, group.radius);
        for (float f : group.opaque) {
            out += ',';
            out += FloatText(f);
        }
        out += ':';
        const std::vector<redguard::Section4Ref> &refs = group.refs;
        for (std::size_t r = 0; r < refs.size();) {
            if (r != 0) out += ',';
            if (!canonical(refs[r])) {
                AppendUInt(out, refs[r].faceOffset);
                out += '/';
                AppendUInt(out, refs[r].faceIndexTimes4);
                ++r;
                continue;
            }
            std::size_t last = r;
            while (last + 1 < refs.size() && canonical(refs[last + 1]) &&
                   refs[last + 1].faceIndexTimes4 == refs[last].faceIndexTimes4 + 4)
                ++last;
            AppendUInt(out, refs[r].faceIndexTimes4 / 4u);
            if (last > r) {
                out += '-';
                AppendUInt(out, refs[last].faceIndexTimes4 / 4u);
            }
            r = last + 1;
        }
    }
    return out;
}

// What a mesh emitted, for rg.face_order, as runs: the file faces first..last each kept as one polygon
// (pieces 0), or the one file face first (= last) cut into `pieces` triangles.
struct EmittedFace {
    std::uint32_t first = 0, last = 0;
    std::uint32_t pieces = 0;
};

// The file vertex indices in order of first use along the faces (file order, corners in order), runs as "a-b";
// `order` is empty when that order is 0, 1, 2, … (what an exporter numbering by first use reproduces anyway),
// and then so is the text.
std::string VertexOrderText(const std::vector<std::uint32_t> &order) {
    std::string out;
    for (std::size_t i = 0; i < order.size();) {
        std::size_t j = i;
        while (j + 1 < order.size() && order[j + 1] == order[j] + 1) ++j;
        if (!out.empty()) out += ',';
        AppendUInt(out, order[i]);
        if (j > i) {
            out += '-';
            AppendUInt(out, order[j]);
        }
        i = j + 1;
    }
    return out;
}

// Which file vertices the faces use first, in order (faces in file order, corners in order). Every corner writes
// its vertex at the end of the order and keeps it only when the vertex is new (no branch on that: it is as
// likely as not); order() is empty when the order is 0, 1, 2, ….
class FirstUse {
public:
    void reset(std::size_t vertexCount) {
        mSeen.assign(vertexCount, 0);
        if (mOrder.size() < vertexCount + 1) mOrder.resize(vertexCount + 1); // + 1: a not-new corner's slot
        mCount = 0;
        mIdentity = true;
    }
    void see(std::uint32_t vertex) {
        if (vertex >= mSeen.size()) return; // the reader rejects such corners; the order ignores them
        const bool fresh = mSeen[vertex] == 0;
        mSeen[vertex] = 1;
        mOrder[mCount] = vertex;
        mIdentity = mIdentity && (!fresh || vertex == mCount);
        mCount += fresh ? 1 : 0;
    }
    std::vector<std::uint32_t> order() const {
        if (mIdentity) return {};
        return {mOrder.begin(), mOrder.begin() + static_cast<std::ptrdiff_t>(mCount)};
    }

private:
    std::vector<std::uint8_t> mSeen;
    std::vector<std::uint32_t> mOrder;
    std::size_t mCount = 0;
    bool mIdentity = true;
};

// ---------------------------------------------------------------- materials and textures (shared scene-wide)

class MaterialTable {
public:
    MaterialTable(const RedguardSceneOptions &options, const RedguardSideFiles &side) : mOptions(options), mSide(side) {
        if (side.palette == nullptr) mGrey = redguard::GreyRampPalette();
    }

    struct Info {
        unsigned index = 0;
        int width = 256, height = 256; // texel size for the UVs
    };

    Info get(const Face &face, redguard::Version version) {
        // (v2, texHi, texture) packed: a material per distinct key.
        const std::uint64_t key =
            std::uint64_t(redguard::IsV2(version) ? 1 : 0) << 40 | std::uint64_t(face.texHi) << 32 | face.texture;
        if (mHasLast && key == mLastKey) return mLastInfo; // neighbouring faces mostly share their material
        const auto found = mByKey.find(key);
        const Info info =
            found != mByKey.end() ? found->second : mByKey.emplace(key, make(face, version)).first->second;
        mHasLast = true;
        mLastKey = key;
        mLastInfo = info;
        return info;
    }

    void moveInto(aiScene *scene) {
        scene->mNumMaterials = static_cast<unsigned>(mMaterials.size());
        scene->mMaterials = ReleaseAll(mMaterials);
        scene->mNumTextures = static_cast<unsigned>(mTextures.size());
        scene->mTextures = ReleaseAll(mTextures);
    }

private:
    const redguard::Palette &colours() const { return mSide.palette != nullptr ? *mSide.palette : mGrey; }

    Info make(const Face &face, redguard::Version version) {
        const TextureRef ref = redguard::DecodeTexture(face.texture, version);
        Info info;
        info.width = info.height = std::max(1, mOptions.fallbackTexSize);
        std::string name;
        aiColor4D colour(0.8f, 0.8f, 0.8f, 1.0f);
        int textureIndex = -1;
        switch (ref.kind) {
        case TextureRef::Kind::Solid: {
            name = "color" + std::to_string(ref.colour);
            const auto &rgb = colours().rgb;
            const std::size_t at = std::size_t{ref.colour} * 3;
            colour = aiColor4D(rgb[at] / 255.0f, rgb[at + 1] / 255.0f, rgb[at + 2] / 255.0f, 1.0f);
            break;
        }
        case TextureRef::Kind::Texture: {
            name = "tex" + std::to_string(ref.bank) + "_" + std::to_string(ref.image);
            const redguard::TexImage *image = findImage(ref.bank, ref.image);
            if (image != nullptr) {
                info.width = image->width;
                info.height = image->height;
                textureIndex = texture(*image, ref.bank, ref.image);
                if (textureIndex >= 0) colour = aiColor4D(1, 1, 1, 1);
            }
            break;
        }
        case TextureRef::Kind::Invalid:
            name = "tex_invalid_" + Hex(face.texture);
            Warn("texture value 0x" + Hex(face.texture) +
                 " is neither a solid colour nor a base-40 texture name; "
                 "material \"" +
                 name + "\" is a placeholder");
            break;
        }

        std::unique_ptr<aiMaterial> material(MakeMaterial(name, colour));
        const int raw = static_cast<int>(face.texture);
        const int texHi = face.texHi;
        material->AddProperty(&raw, 1, rgkeys::kMatTexRaw, 0, 0);
        material->AddProperty(&info.width, 1, rgkeys::kMatTexW, 0, 0);
        // "$rg.tex_h" before "$rg.tex_hi": Assimp 6 finds a key by prefix, so the shorter one must come first
        // (docs/formats/assimp-integration.md; tests/cross_format/test_material_keys.cpp).
        material->AddProperty(&info.height, 1, rgkeys::kMatTexH, 0, 0);
        material->AddProperty(&texHi, 1, rgkeys::kMatTexHi, 0, 0);
        if (textureIndex >= 0) addTexture(*material, textureIndex, aiTextureMapMode_Wrap, ref.bank, ref.image);
        info.index = static_cast<unsigned>(mMaterials.size());
        mMaterials.push_back(std::move(material));
        return info;
    }

public:
    // A material showing bank image `image` of `bankNumber` whole ("tex<bank>_<image>"; flats and terrain,
    // docs/formats/redguard-world.md §1.5, §2.3), with mirrored repeat when `mirrored`; one per (bank, image,
    // mirrored). Without the image: a light grey placeholder, `found` false.
    Info getImage(unsigned bankNumber, unsigned imageIndex, bool mirrored, bool &found) {
        const std::uint64_t key = std::uint64_t(1) << 62 | std::uint64_t(mirrored ? 1 : 0) << 61 |
                                  std::uint64_t(bankNumber) << 16 | imageIndex;
        const auto cached = mByKey.find(key);
        if (cached != mByKey.end()) {
            found = mFoundImage.count(key) != 0;
            return cached->second;
        }
        Info info;
        info.width = info.height = std::max(1, mOptions.fallbackTexSize);
        const std::string name = "tex" + std::to_string(bankNumber) + "_" + std::to_string(imageIndex);
        const redguard::TexImage *image = findImage(bankNumber, imageIndex);
        int textureIndex = -1;
        if (image != nullptr) {
            info.width = image->width;
            info.height = image->height;
            textureIndex = texture(*image, bankNumber, imageIndex);
        }
        found = textureIndex >= 0;
        if (found) mFoundImage.insert(key);
        std::unique_ptr<aiMaterial> material(
            MakeMaterial(name, found ? aiColor4D(1, 1, 1, 1) : aiColor4D(0.8f, 0.8f, 0.8f, 1.0f)));
        material->AddProperty(&info.width, 1, rgkeys::kMatTexW, 0, 0);
        material->AddProperty(&info.height, 1, rgkeys::kMatTexH, 0, 0);
        if (found)
            addTexture(*material, textureIndex, mirrored ? aiTextureMapMode_Mirror : aiTextureMapMode_Wrap, bankNumber,
                       imageIndex);
        info.index = static_cast<unsigned>(mMaterials.size());
        mMaterials.push_back(std::move(material));
        mByKey.emplace(key, info);
        return info;
    }

private:
    // The embedded texture "*index" in the diffuse and base-colour slots, nearest filtering; an animated image's
    // frames in $rg.anim.* (docs/formats/redguard-world.md §3).
    void addTexture(aiMaterial &material, int textureIndex, aiTextureMapMode mode, unsigned bankNumber,
                    unsigned imageIndex) {
        const aiString path = ToAiString("*" + std::to_string(textureIndex));
        const int wrap = mode;
        const int nearest = 9728; // GL_NEAREST: palette pixel art stays crisp (glTF samplers, Blender "Closest")
        for (const aiTextureType type : {aiTextureType_DIFFUSE, aiTextureType_BASE_COLOR}) {
            material.AddProperty(&path, AI_MATKEY_TEXTURE(type, 0));
            material.AddProperty(&wrap, 1, AI_MATKEY_MAPPINGMODE_U(type, 0));
            material.AddProperty(&wrap, 1, AI_MATKEY_MAPPINGMODE_V(type, 0));
            material.AddProperty(&nearest, 1, AI_MATKEY_GLTF_MAPPINGFILTER_MAG(type, 0));
            material.AddProperty(&nearest, 1, AI_MATKEY_GLTF_MAPPINGFILTER_MIN(type, 0));
        }
        const auto frames = mFrameTextures.find(std::make_pair(bankNumber, imageIndex));
        if (frames == mFrameTextures.end()) return;
        const AnimatedTexture &anim = frames->second;
        std::string list;
        for (const int t : anim.textures) list += (list.empty() ? "*" : ",*") + std::to_string(t);
        const aiString listText = ToAiString(list);
        const int count = static_cast<int>(anim.textures.size());
        material.AddProperty(&count, 1, rgkeys::kMatAnimCount, 0, 0);
        material.AddProperty(&anim.delayMs, 1, rgkeys::kMatAnimDelayMs, 0, 0);
        material.AddProperty(&anim.frameMs, 1, rgkeys::kMatAnimFrameMs, 0, 0);
        material.AddProperty(&listText, rgkeys::kMatAnimFrames, 0, 0);
    }

    const redguard::TexImage *findImage(unsigned bankNumber, unsigned imageIndex) {
        const redguard::TexBank *bank = mSide.bank ? mSide.bank(bankNumber) : nullptr;
        if (bank == nullptr) return nullptr;
        bool byOrdinal = false;
        const redguard::TexImage *image = redguard::FindTexImage(*bank, imageIndex, &byOrdinal);
        if (image == nullptr) {
            Warn("TEXBSI." + std::to_string(bankNumber) + " has no image " + std::to_string(imageIndex) +
                 "; the material stays untextured");
            return nullptr;
        }
        if (byOrdinal)
            Warn("TEXBSI." + std::to_string(bankNumber) + ": no record is named after image " +
                 std::to_string(imageIndex) + "; using the record at that position (\"" + image->name + "\")");
        if (image->width <= 0 || image->height <= 0) return nullptr;
        return image;
    }

    // The embedded PNG of a bank image (one per bank/image); -1 when there are no colours for it.
    int texture(const redguard::TexImage &image, unsigned bankNumber, unsigned imageIndex) {
        const auto key = std::make_pair(bankNumber, imageIndex);
        const auto found = mTextureByImage.find(key);
        if (found != mTextureByImage.end()) return found->second;
        // §11: a configured palette wins; otherwise an animated image's CMAP; otherwise the scene's palette.
        redguard::Palette cmap;
        const redguard::Palette *colours = mSide.palette;
        if (image.cmap && (!mSide.paletteConfigured || colours == nullptr)) {
            cmap.rgb = *image.cmap;
            colours = &cmap;
        }
        int index = -1;
        if (colours == nullptr) {
            if (!mWarnedNoPalette) Warn("no palette: textured materials carry no texture (set GAMEFMT_RG_PALETTE)");
            mWarnedNoPalette = true;
        } else {
            const std::string base = "TEXBSI." + std::to_string(bankNumber) + "/" + image.name;
            index = embed(image, *colours, 0, base + ".png");
            if (!image.laterFrames.empty()) {
                // §3: every frame kept; the engine shows each for max(1, round(ms · 18.2 / 1000)) ticks of 18.2 Hz.
                AnimatedTexture anim;
                anim.textures.push_back(index);
                for (std::size_t f = 1; f <= image.laterFrames.size(); ++f)
                    anim.textures.push_back(embed(image, *colours, f, base + "_f" + std::to_string(f) + ".png"));
                anim.delayMs = image.delayMs;
                const double ticks = std::max(1.0, std::round(double(image.delayMs) * 18.2 / 1000.0));
                anim.frameMs = static_cast<float>(ticks * 1000.0 / 18.2);
                mFrameTextures.emplace(key, std::move(anim));
            }
        }
        mTextureByImage.emplace(key, index);
        return index;
    }

    // Frame `frame` of `image` as an embedded PNG; its texture index.
    int embed(const redguard::TexImage &image, const redguard::Palette &colours, std::size_t frame,
              const std::string &fileName) {
        const std::vector<std::uint8_t> rgba = redguard::ImageToRgba(image, colours, frame);
        const std::vector<std::uint8_t> png =
            EncodePngRgba(rgba.data(), static_cast<std::uint32_t>(image.width),
                          static_cast<std::uint32_t>(image.height), redguard::kFormatName);
        auto texture = std::make_unique<aiTexture>();
        texture->mWidth = static_cast<unsigned>(png.size());
        texture->mHeight = 0;
        texture->pcData = new aiTexel[(png.size() + sizeof(aiTexel) - 1) / sizeof(aiTexel)];
        std::memcpy(texture->pcData, png.data(), png.size());
        std::strncpy(texture->achFormatHint, "png", HINTMAXTEXTURELEN - 1);
        texture->mFilename = ToAiString(fileName);
        mTextures.push_back(std::move(texture));
        return static_cast<int>(mTextures.size() - 1);
    }

    struct AnimatedTexture {
        std::vector<int> textures; // frame 0 first
        int delayMs = 0;
        float frameMs = 0;
    };

    const RedguardSceneOptions &mOptions;
    const RedguardSideFiles &mSide;
    redguard::Palette mGrey;
    bool mWarnedNoPalette = false;
    std::unordered_map<std::uint64_t, Info> mByKey;
    bool mHasLast = false;
    std::uint64_t mLastKey = 0;
    Info mLastInfo;
    std::map<std::pair<unsigned, unsigned>, int> mTextureByImage;
    std::map<std::pair<unsigned, unsigned>, AnimatedTexture> mFrameTextures;
    std::set<std::uint64_t> mFoundImage; // getImage keys whose image was embedded
    std::vector<std::unique_ptr<aiMaterial>> mMaterials;
    std::vector<std::unique_ptr<aiTexture>> mTextures;
};

// ---------------------------------------------------------------- one model

// Where each mesh vertex comes from.
struct MeshVertex {
    std::uint32_t fileVertex = 0;
    std::size_t corner = 0; // the first corner (model-wide index) that produced it
};

// One output vertex of a model: its mesh build and index there, and what makes it distinct — the file vertex,
// where its normal comes from (the smooth slot, or the face for flat corners) and its UV (bits of the doubles).
struct Weld {
    std::uint64_t u = 0, v = 0;
    std::uint32_t vertex = 0, source = 0, build = 0;
    bool smooth = false;
    std::uint32_t index = 0;
    // Every field compared, folded without short-circuit branches (the answer is hard to predict).
    bool sameVertex(const Weld &o) const {
        const std::uint64_t diff = (u ^ o.u) | (v ^ o.v) | (std::uint64_t(vertex ^ o.vertex) << 32) |
                                   (source ^ o.source) | (std::uint64_t(build ^ o.build) << 1) |
                                   std::uint64_t(smooth != o.smooth);
        return diff == 0;
    }
};

// Welds one model's corners into mesh vertices: open addressing with linear probing over weld ids, in one
// table sized for the model's corners up front (at most half full, so probes stay short; no growth and no
// allocation per vertex), the welds themselves in creation order.
class CornerWelder {
public:
    void reset(std::size_t corners) {
        std::size_t size = 64;
        while (size < 2 * corners) size *= 2;
        mTable.assign(size, kEmpty);
        mWelds.clear();
        mWelds.reserve(corners);
    }

    // The mesh vertex of `key` in its build; when there is none yet, `key.index` becomes it and `inserted` is set.
    std::uint32_t weld(const Weld &key, bool &inserted) {
        const std::size_t mask = mTable.size() - 1;
        for (std::size_t i = Hash(key) & mask;; i = (i + 1) & mask) {
            std::uint32_t &slot = mTable[i];
            if (slot == kEmpty) {
                slot = static_cast<std::uint32_t>(mWelds.size());
                mWelds.push_back(key);
                inserted = true;
                return key.index;
            }
            const Weld &found = mWelds[slot];
            if (found.sameVertex(key)) {
                inserted = false;
                return found.index;
            }
        }
    }

private:
    static constexpr std::uint32_t kEmpty = 0xFFFFFFFFu;
    // Each field multiplied by its own odd constant (independent, so they overlap), summed, then folded twice:
    // the probe start comes from the low bits, and a UV's double has its entropy in the high ones.
    static std::uint64_t Hash(const Weld &k) {
        std::uint64_t h = (std::uint64_t(k.vertex) << 32 | k.source) * 0x9E3779B97F4A7C15ull +
                          k.u * 0xC2B2AE3D27D4EB4Full + k.v * 0x165667B19E3779F9ull +
                          (std::uint64_t(k.build) << 1 | (k.smooth ? 1u : 0u)) * 0x94D049BB133111EBull;
        h = (h ^ (h >> 32)) * 0xBF58476D1CE4E5B9ull;
        return h ^ (h >> 29);
    }
    std::vector<std::uint32_t> mTable;
    std::vector<Weld> mWelds;
};

struct MeshBuild {
    unsigned material = 0;
    int texW = 256, texH = 256;
    std::size_t cornerCount = 0, fileFaceCount = 0; // what the model's faces bring (for reserving)
    std::size_t vertexCount = 0;
    std::vector<MeshVertex> vertices; // [0, vertexCount) are the mesh's
    std::vector<aiVector3D> uvs;
    std::vector<unsigned> faceIndices; // every face's indices, concatenated
    std::vector<unsigned> faceStart;   // where each face starts in faceIndices (plus the end)
    void addFace(const unsigned *indices, std::size_t n) {
        if (faceStart.empty()) faceStart.push_back(0);
        faceIndices.insert(faceIndices.end(), indices, indices + n);
        faceStart.push_back(static_cast<unsigned>(faceIndices.size()));
    }
    std::size_t faceCount() const { return faceStart.empty() ? 0 : faceStart.size() - 1; }
    // Empty again for the next model, capacity kept.
    void clear() {
        vertexCount = 0; // vertices and uvs keep their size: [0, vertexCount) is what counts
        faceIndices.clear();
        faceStart.clear();
        order.clear();
        cornerCount = fileFaceCount = 0;
        hasTriangles = hasPolygons = false;
    }
    // Room for a vertex per corner: a corner's vertex is written at vertexCount whether or not it is new, and
    // kept by advancing vertexCount (no branch on the weld's answer).
    // The buffers only grow (no shrink then re-initialise when the next model is bigger again).
    void reserve() {
        if (vertices.size() < cornerCount) vertices.resize(cornerCount);
        if (uvs.size() < cornerCount) uvs.resize(cornerCount);
        faceIndices.reserve(cornerCount);
        faceStart.reserve(fileFaceCount + 1);
    }
    std::vector<EmittedFace> order;
    // File face `fileFace` became one polygon (pieces 0) or `pieces` triangles.
    void emitted(std::uint32_t fileFace, std::uint32_t pieces) {
        if (pieces == 0 && !order.empty() && order.back().pieces == 0 && order.back().last + 1 == fileFace)
            order.back().last = fileFace;
        else
            order.push_back({fileFace, fileFace, pieces});
    }
    bool hasTriangles = false, hasPolygons = false;
};

// rg.face_order of the meshes built from builds[0..count).
std::string FaceOrderText(const MeshBuild *builds, std::size_t count) {
    std::string out;
    for (std::size_t m = 0; m < count; ++m) {
        if (m != 0) out += ';';
        out += 'm';
        AppendUInt(out, m);
        out += ':';
        const std::vector<EmittedFace> &runs = builds[m].order;
        for (std::size_t i = 0; i < runs.size(); ++i) {
            if (i != 0) out += ',';
            AppendUInt(out, runs[i].first);
            if (runs[i].pieces != 0) {
                out += 'x';
                AppendUInt(out, runs[i].pieces);
            } else if (runs[i].last != runs[i].first) {
                out += '-';
                AppendUInt(out, runs[i].last);
            }
        }
    }
    return out;
}

// Storage one model's conversion needs, kept by the scene builder and reused model after model (cleared,
// capacity kept): an archive of hundreds of models then allocates its working memory about once.
struct ModelScratch {
    std::vector<std::array<double, 2>> uvs;
    redguard::CornerShading shading;
    std::vector<std::uint32_t> faceBuild; // the mesh build of every face
    std::vector<MeshBuild> builds;        // the first buildCount are the current model's
    std::size_t buildCount = 0;
    std::vector<unsigned> indices; // one face's output indices
    CornerWelder welder;
    FirstUse firstUse;
};

std::uint64_t Bits(double d) {
    std::uint64_t u = 0;
    d += 0.0; // -0.0 and +0.0 are one UV (−0 + 0 = +0; every other value is unchanged), without a branch
    std::memcpy(&u, &d, sizeof(u));
    return u;
}

class ModelBuilder {
public:
    ModelBuilder(const RG3DModel &model, const RedguardSceneOptions &options, MaterialTable &materials,
                 ModelScratch &scratch)
        : mModel(model), mOptions(options), mMaterials(materials), mScratch(scratch) {}

    // Appends this model's meshes to `meshes`, their indices to `node`, its metadata to `md`, and its morph
    // channels to `channels`.
    void build(const std::string &modelName, aiNode *node, std::vector<std::unique_ptr<aiMesh>> &meshes,
               std::vector<std::unique_ptr<aiMeshMorphAnim>> &channels, MetadataBuilder &md) {
        for (const std::string &w : mModel.warnings) Warn(w);
        const std::size_t frames = frameCount();
        if (frames != mModel.frameCount())
            Warn("frames from " + std::to_string(frames) + " on do not match the base pose; dropped");
        const int baseFrame = std::clamp(mOptions.baseFrame, 0, static_cast<int>(frames) - 1);
        if (mOptions.baseFrame != baseFrame && frames > 1)
            Warn("GAMEFMT_RG_BASE_FRAME " + std::to_string(mOptions.baseFrame) + " is outside frames 0-" +
                 std::to_string(frames - 1) + "; showing frame " + std::to_string(baseFrame));

        redguard::CornerUVs(mModel, mScratch.uvs);
        redguard::ResolveCornerShading(mModel, mScratch.shading);
        groupFaces();
        // Smooth slots -> the faces sharing them (for per-frame normals).
        if (frames > 1 || baseFrame != 0) collectSlotFaces();
        makeMeshes(modelName, frames, baseFrame, node, meshes, channels);
        addModelMetadata(frames, baseFrame, md);
    }

    // The faces grouped by material into mesh builds: welded corners (vertex, normal source, UV) and the
    // emitted faces.
    void groupFaces() {
        assignBuilds();
        const std::vector<std::array<double, 2>> &uvs = mScratch.uvs;
        const std::vector<std::uint32_t> &faceBuild = mScratch.faceBuild;
        const std::vector<redguard::CornerShading::Source> &sources = mScratch.shading.corners;
        std::vector<unsigned> &indices = mScratch.indices;
        mScratch.welder.reset(sources.size());
        mScratch.firstUse.reset(mModel.vertexCount());
        std::size_t cornerBase = 0;
        for (std::size_t f = 0; f < mModel.faces.size(); ++f) {
            const Face &face = mModel.faces[f];
            const std::size_t n = face.corners.size();
            const std::size_t first = cornerBase;
            cornerBase += n;
            if (n < 3) continue; // the reader already warned
            MeshBuild &mb = mScratch.builds[faceBuild[f]];
            indices.resize(n);
            Weld key;
            key.build = faceBuild[f];
            for (std::size_t c = 0; c < n; ++c) {
                const std::size_t corner = first + c;
                const double u = corner < uvs.size() ? uvs[corner][0] : 0.0;
                const double v = corner < uvs.size() ? uvs[corner][1] : 0.0;
                const redguard::CornerShading::Source cn =
                    corner < sources.size() ? sources[corner] : redguard::CornerShading::Source{};
                key.vertex = face.corners[c].vertex;
                key.source = cn.smooth ? cn.slot : static_cast<std::uint32_t>(f);
                key.smooth = cn.smooth;
                key.u = Bits(u);
                key.v = Bits(v);
                key.index = static_cast<std::uint32_t>(mb.vertexCount);
                bool inserted = false;
                indices[c] = mScratch.welder.weld(key, inserted);
                mb.vertices[mb.vertexCount] = {key.vertex, corner};
                mb.uvs[mb.vertexCount] = aiVector3D(static_cast<ai_real>(u / (16.0 * mb.texW)),
                                                    static_cast<ai_real>(1.0 - v / (16.0 * mb.texH)), 0.0f);
                mb.vertexCount += inserted ? 1 : 0;
                mScratch.firstUse.see(key.vertex);
            }
            emitFace(mb, face, static_cast<std::uint32_t>(f), indices);
        }
    }

    // One mesh build per material, in order of first use, with the build of every face (faces of fewer than
    // three corners get none) and what each build will hold, reserved up front.
    void assignBuilds() {
        std::vector<MeshBuild> &builds = mScratch.builds;
        std::size_t &count = mScratch.buildCount;
        count = 0;
        std::map<unsigned, std::uint32_t> buildByMaterial; // material index -> build (material keys are unique)
        std::vector<std::uint32_t> &faceBuild = mScratch.faceBuild;
        faceBuild.resize(mModel.faces.size()); // set below for every face that is emitted
        unsigned lastMaterial = 0;
        std::uint32_t lastBuild = 0;
        for (std::size_t f = 0; f < mModel.faces.size(); ++f) {
            const Face &face = mModel.faces[f];
            if (face.corners.size() < 3) continue;
            const MaterialTable::Info info = mMaterials.get(face, mModel.version);
            if (count == 0 || info.index != lastMaterial) {
                auto slot = buildByMaterial.find(info.index);
                if (slot == buildByMaterial.end()) {
                    slot = buildByMaterial.emplace(info.index, static_cast<std::uint32_t>(count)).first;
                    if (count == builds.size()) builds.emplace_back();
                    MeshBuild &mb = builds[count++];
                    mb.clear();
                    mb.material = info.index;
                    mb.texW = info.width;
                    mb.texH = info.height;
                }
                lastMaterial = info.index;
                lastBuild = slot->second;
            }
            faceBuild[f] = lastBuild;
            builds[lastBuild].cornerCount += face.corners.size();
            ++builds[lastBuild].fileFaceCount;
        }
        for (std::size_t b = 0; b < count; ++b) builds[b].reserve();
    }

    // One aiMesh per build (base pose, UVs, faces, frames as anim meshes), listed on `node`.
    void makeMeshes(const std::string &modelName, std::size_t frameCount, int baseFrame, aiNode *node,
                    std::vector<std::unique_ptr<aiMesh>> &meshes,
                    std::vector<std::unique_ptr<aiMeshMorphAnim>> &channels) {
        std::vector<unsigned> nodeMeshes;
        for (std::size_t m = 0; m < mScratch.buildCount; ++m) {
            const MeshBuild &mb = mScratch.builds[m];
            auto mesh = std::make_unique<aiMesh>();
            mesh->mName = ToAiString(modelName + "_" + std::to_string(m));
            mesh->mMaterialIndex = mb.material;
            mesh->mPrimitiveTypes = (mb.hasTriangles ? unsigned(aiPrimitiveType_TRIANGLE) : 0u) |
                                    (mb.hasPolygons ? unsigned(aiPrimitiveType_POLYGON) : 0u);
            const auto count = static_cast<unsigned>(mb.vertexCount);
            mesh->mNumVertices = count;
            mesh->mVertices = new aiVector3D[count];
            mesh->mNormals = new aiVector3D[count];
            fillFrame(mb, static_cast<std::size_t>(baseFrame), mesh->mVertices, mesh->mNormals);
            mesh->mTextureCoords[0] = new aiVector3D[count];
            std::copy(mb.uvs.begin(), mb.uvs.begin() + static_cast<std::ptrdiff_t>(count), mesh->mTextureCoords[0]);
            mesh->mNumUVComponents[0] = 2;
            mesh->mNumFaces = static_cast<unsigned>(mb.faceCount());
            mesh->mFaces = new aiFace[mb.faceCount()];
            for (std::size_t i = 0; i < mb.faceCount(); ++i) {
                const unsigned begin = mb.faceStart[i], end = mb.faceStart[i + 1];
                mesh->mFaces[i].mNumIndices = end - begin;
                mesh->mFaces[i].mIndices = new unsigned[end - begin];
                std::memcpy(mesh->mFaces[i].mIndices, mb.faceIndices.data() + begin, (end - begin) * sizeof(unsigned));
            }
            if (frameCount > 1 && !mOptions.staticPose) addFrames(mb, mesh.get(), channels);
            nodeMeshes.push_back(static_cast<unsigned>(meshes.size()));
            meshes.push_back(std::move(mesh));
        }
        if (!nodeMeshes.empty()) {
            node->mNumMeshes = static_cast<unsigned>(nodeMeshes.size());
            node->mMeshes = CopyToNewArray(nodeMeshes);
        }
    }

    // The model node's metadata (assimp_glue/redguard/scene.hpp lists it).
    void addModelMetadata(std::size_t frameCount, int baseFrame, MetadataBuilder &md) const {
        md.add(rgkeys::kVersion, redguard::VersionString(mModel.version));
        md.add(rgkeys::kFrameType, static_cast<std::int32_t>(mModel.frameType));
        md.add(rgkeys::kNumFrames, static_cast<std::int32_t>(frameCount));
        md.add(rgkeys::kBaseFrame, static_cast<std::int32_t>(baseFrame));
        md.add(rgkeys::kHeader24, static_cast<std::int32_t>(mModel.header[9]));
        md.add(rgkeys::kRadius, static_cast<std::int32_t>(mModel.radius));
        md.add(rgkeys::kVertexNormals, mModel.vertexNormals.empty() ? "none"
                                       : mModel.normalTable.empty() ? "direct"
                                                                    : "table");
        md.add(rgkeys::kFaceOrder, FaceOrderText(mScratch.builds.data(), mScratch.buildCount));
        const std::string vertexOrder = VertexOrderText(mScratch.firstUse.order());
        if (!vertexOrder.empty()) md.add(rgkeys::kVertexOrder, vertexOrder);
        if (mModel.hasSection4) md.add(rgkeys::kSection4, Section4Text(mModel));
        md.addBlob(rgkeys::kHeader, HeaderBytes(mModel.header));
        if (!mModel.v2Opaque.empty()) md.addBlob(rgkeys::kV2Block, mModel.v2Opaque.data(), mModel.v2Opaque.size());
        std::string unused;
        for (std::size_t f = 0; f < mModel.faces.size(); ++f) {
            if (mModel.faces[f].unused == 0) continue;
            if (!unused.empty()) unused += ',';
            AppendUInt(unused, f);
            unused += '=';
            unused += Hex(mModel.faces[f].unused);
        }
        if (!unused.empty()) md.add(rgkeys::kFaceUnused, unused);
    }

private:
    std::size_t frameCount() const {
        // Frames whose sizes disagree with the base cannot be shown: keep only the consistent prefix.
        std::size_t n = 1;
        for (const redguard::Frame &frame : mModel.frames) {
            if (frame.positions.size() != mModel.vertices.size() ||
                frame.faceNormals.size() != mModel.faceNormals.size())
                break;
            ++n;
        }
        return n;
    }

    const std::vector<std::int32_t> &framePositions(std::size_t k) const {
        return k == 0 ? mModel.vertices : mModel.frames[k - 1].positions;
    }
    const std::vector<std::int32_t> &frameFaceNormals(std::size_t k) const {
        return k == 0 ? mModel.faceNormals : mModel.frames[k - 1].faceNormals;
    }

    void emitFace(MeshBuild &mb, const Face &face, std::uint32_t fileFace, const std::vector<unsigned> &indices) {
        const std::size_t n = indices.size();
        if (n == 3) {
            mb.addFace(indices.data(), n);
            mb.emitted(fileFace, 0);
            mb.hasTriangles = true;
            return;
        }
        std::vector<Vec3d> &pts = mScratchPoints; // reused: no allocation per polygon
        pts.resize(n);
        for (std::size_t c = 0; c < n; ++c) pts[c] = RawPoint(mModel.vertices, face.corners[c].vertex);
        std::vector<std::array<double, 2>> &flat = mScratchFlat;
        const bool plainQuad = n == 4 && PlainlyConvexQuad(pts); // what AssimpTriangulates answers, cheaper
        if (!plainQuad) Project(pts, flat);
        if (plainQuad || AssimpTriangulates(pts, flat)) {
            mb.addFace(indices.data(), n);
            mb.emitted(fileFace, 0);
            mb.hasPolygons = true;
            return;
        }
        const auto tris = EarClip(flat.empty() ? SpreadProjection(pts) : flat);
        for (const auto &t : tris) {
            const unsigned tri[3] = {indices[t[0]], indices[t[1]], indices[t[2]]};
            mb.addFace(tri, 3);
        }
        mb.emitted(fileFace, static_cast<std::uint32_t>(tris.size()));
        mb.hasTriangles = true;
    }

    void collectSlotFaces() {
        std::size_t corner = 0;
        for (std::size_t f = 0; f < mModel.faces.size(); ++f) {
            for (std::size_t c = 0; c < mModel.faces[f].corners.size(); ++c, ++corner) {
                if (corner >= mScratch.shading.corners.size() || !mScratch.shading.corners[corner].smooth) continue;
                std::vector<std::uint32_t> &faces = mSlotFaces[mScratch.shading.corners[corner].slot];
                if (faces.empty() || faces.back() != f) faces.push_back(static_cast<std::uint32_t>(f));
            }
        }
        for (auto &entry : mSlotFaces) {
            std::sort(entry.second.begin(), entry.second.end());
            entry.second.erase(std::unique(entry.second.begin(), entry.second.end()), entry.second.end());
        }
    }

    Vec3d faceNormal(std::size_t frame, std::uint32_t face) const {
        const std::vector<std::int32_t> &fn = frameFaceNormals(frame);
        const std::size_t i = std::size_t(face) * 3;
        if (i + 2 >= fn.size()) return {};
        return Vec3d{double(fn[i]), double(fn[i + 1]), double(fn[i + 2])}.normalized();
    }

    // Positions and normals of frame `k` in the mesh's vertex order.
    void fillFrame(const MeshBuild &mb, std::size_t k, aiVector3D *positions, aiVector3D *normals) const {
        const std::vector<std::int32_t> &raw = framePositions(k);
        for (std::size_t i = 0; i < mb.vertexCount; ++i) {
            const MeshVertex &mv = mb.vertices[i];
            const std::size_t at = std::size_t(mv.fileVertex) * 3;
            static const std::int32_t kZero[3] = {0, 0, 0};
            positions[i] = ToAiPosition(at + 2 < raw.size() ? &raw[at] : kZero, mOptions.scale);
            const bool known = mv.corner < mScratch.shading.corners.size();
            const redguard::CornerShading::Source cn =
                known ? mScratch.shading.corners[mv.corner] : redguard::CornerShading::Source{};
            static const std::array<float, 3> kNone{};
            const std::array<float, 3> &stored = known ? mScratch.shading.normal(mv.corner) : kNone;
            Vec3d n{stored[0], stored[1], stored[2]};
            if (k != 0) {
                Vec3d computed;
                if (cn.smooth) {
                    const auto found = mSlotFaces.find(cn.slot);
                    if (found != mSlotFaces.end()) {
                        Vec3d sum;
                        for (const std::uint32_t f : found->second) {
                            const Vec3d fn = faceNormal(k, f);
                            sum = {sum.x + fn.x, sum.y + fn.y, sum.z + fn.z};
                        }
                        computed = sum.normalized();
                    }
                } else {
                    computed = faceNormal(k, cn.slot);
                }
                if (computed.length() > 0) n = computed;
            }
            normals[i] = ToAiNormal(n.length() > 0 ? n.normalized() : Vec3d{0, 0, 1});
        }
    }

    void addFrames(const MeshBuild &mb, aiMesh *mesh, std::vector<std::unique_ptr<aiMeshMorphAnim>> &channels) const {
        const std::size_t frames = frameCount();
        mesh->mMethod = aiMorphingMethod_MORPH_NORMALIZED;
        mesh->mNumAnimMeshes = static_cast<unsigned>(frames);
        mesh->mAnimMeshes = new aiAnimMesh *[frames]();
        for (std::size_t k = 0; k < frames; ++k) {
            auto *target = new aiAnimMesh();
            mesh->mAnimMeshes[k] = target;
            target->mName = ToAiString("frame" + std::to_string(k));
            target->mNumVertices = mesh->mNumVertices;
            target->mVertices = new aiVector3D[mesh->mNumVertices];
            target->mNormals = new aiVector3D[mesh->mNumVertices];
            target->mWeight = 0.0f;
            fillFrame(mb, k, target->mVertices, target->mNormals);
        }
        auto channel = std::make_unique<aiMeshMorphAnim>();
        channel->mName = mesh->mName;
        const std::size_t firstFrame = mOptions.includeFrame0 ? 0 : 1;
        const std::size_t keys = frames - firstFrame;
        channel->mNumKeys = static_cast<unsigned>(keys);
        channel->mKeys = new aiMeshMorphKey[keys];
        for (std::size_t i = 0; i < keys; ++i) {
            const std::size_t frame = firstFrame + i;
            aiMeshMorphKey &key = channel->mKeys[i];
            key.mTime = static_cast<double>(mOptions.includeFrame0 ? frame : frame - 1);
            key.mNumValuesAndWeights = static_cast<unsigned>(frames);
            key.mValues = new unsigned[frames];
            key.mWeights = new double[frames];
            for (std::size_t j = 0; j < frames; ++j) {
                key.mValues[j] = static_cast<unsigned>(j);
                key.mWeights[j] = j == frame ? 1.0 : 0.0;
            }
        }
        channels.push_back(std::move(channel));
    }

    const RG3DModel &mModel;
    const RedguardSceneOptions &mOptions;
    MaterialTable &mMaterials;
    ModelScratch &mScratch;
    std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> mSlotFaces;
    std::vector<Vec3d> mScratchPoints;               // EmitFace's corner positions
    std::vector<std::array<double, 2>> mScratchFlat; // and their projection
};

// ---------------------------------------------------------------- the scene

class SceneBuilder {
public:
    SceneBuilder(const RedguardSceneOptions &options, const RedguardSideFiles &side)
        : mOptions(options), mMaterials(options, side) {}

    aiNode *newRoot(const std::string &fileName) {
        mRoot.reset(new aiNode());
        mRoot->mName = ToAiString(mNames.make(fileName.empty() ? "Redguard" : fileName));
        return mRoot.get();
    }

    // A node for `model` named (uniquely) after `name`; `extra` metadata first (segment keys).
    NodePtr modelNode(const RG3DModel &model, const std::string &name, MetadataBuilder md) {
        NodePtr node(new aiNode());
        const std::string unique = mNames.make(name.empty() ? "model" : name);
        node->mName = ToAiString(unique);
        ModelBuilder builder(model, mOptions, mMaterials, mScratch);
        builder.build(unique, node.get(), mMeshes, mChannels, md);
        node->mMetaData = md.build();
        return node;
    }

    NodePtr emptyNode(const std::string &name, const MetadataBuilder &md) {
        NodePtr node(new aiNode());
        node->mName = ToAiString(mNames.make(name.empty() ? "segment" : name));
        node->mMetaData = md.build();
        return node;
    }

    // The meshes of `model` (named "<name>_<k>"), appended to the scene's; their indices. No node, no metadata.
    std::vector<unsigned> modelMeshes(const RG3DModel &model, const std::string &name) {
        aiNode scratch;
        MetadataBuilder md;
        ModelBuilder builder(model, mOptions, mMaterials, mScratch);
        builder.build(name, &scratch, mMeshes, mChannels, md);
        std::vector<unsigned> out(scratch.mMeshes, scratch.mMeshes + scratch.mNumMeshes);
        return out;
    }
    MaterialTable &materials() { return mMaterials; }
    unsigned addMesh(std::unique_ptr<aiMesh> mesh) {
        mMeshes.push_back(std::move(mesh));
        return static_cast<unsigned>(mMeshes.size() - 1);
    }
    void addLight(std::unique_ptr<aiLight> light) { mLights.push_back(std::move(light)); }
    // Takes `root` as the scene's root (levels build their own node tree).
    void adoptRoot(aiNode *root) { mRoot.reset(root); }

    void finish(std::vector<NodePtr> &children, aiScene *scene, const char *format, const std::string &version) {
        AttachChildren(mRoot.get(), children);
        scene->mRootNode = mRoot.release();
        if (!mLights.empty()) {
            scene->mNumLights = static_cast<unsigned>(mLights.size());
            scene->mLights = ReleaseAll(mLights);
        }
        scene->mNumMeshes = static_cast<unsigned>(mMeshes.size());
        scene->mMeshes = ReleaseAll(mMeshes);
        if (scene->mNumMeshes == 0) scene->mFlags |= AI_SCENE_FLAGS_INCOMPLETE;
        mMaterials.moveInto(scene);
        if (!mChannels.empty()) {
            auto animation = std::make_unique<aiAnimation>();
            animation->mName = ToAiString(rgkeys::kAnimationName);
            animation->mTicksPerSecond = mOptions.fps > 0 && std::isfinite(mOptions.fps) ? mOptions.fps : 12.0;
            double duration = 0;
            for (const auto &channel : mChannels)
                if (channel->mNumKeys != 0) duration = std::max(duration, channel->mKeys[channel->mNumKeys - 1].mTime);
            animation->mDuration = duration;
            animation->mNumMorphMeshChannels = static_cast<unsigned>(mChannels.size());
            animation->mMorphMeshChannels = ReleaseAll(mChannels);
            scene->mNumAnimations = 1;
            scene->mAnimations = new aiAnimation *[1] { animation.release() };
        }
        SetSourceAsset(scene, format, version);
    }

private:
    const RedguardSceneOptions &mOptions;
    MaterialTable mMaterials;
    ModelScratch mScratch; // reused model after model
    UniqueNames mNames;
    NodePtr mRoot;
    std::vector<std::unique_ptr<aiMesh>> mMeshes;
    std::vector<std::unique_ptr<aiMeshMorphAnim>> mChannels;
    std::vector<std::unique_ptr<aiLight>> mLights;
};

} // namespace

struct RedguardLevelAssembler::Impl {
    Impl(const RedguardSceneOptions &options, const RedguardSideFiles &side) : builder(options, side) {}
    SceneBuilder builder;
};

RedguardLevelAssembler::RedguardLevelAssembler(const RedguardSceneOptions &options, const RedguardSideFiles &side)
    : mImpl(std::make_unique<Impl>(options, side)) {}
RedguardLevelAssembler::~RedguardLevelAssembler() = default;

std::vector<unsigned> RedguardLevelAssembler::modelMeshes(const RG3DModel &model, const std::string &name) {
    return mImpl->builder.modelMeshes(model, name);
}

RedguardLevelAssembler::ImageMaterial RedguardLevelAssembler::imageMaterial(unsigned bank, unsigned image,
                                                                            bool mirrored) {
    bool found = false;
    const MaterialTable::Info info = mImpl->builder.materials().getImage(bank, image, mirrored, found);
    return {info.index, info.width, info.height, found};
}

unsigned RedguardLevelAssembler::addMesh(std::unique_ptr<aiMesh> mesh) {
    return mImpl->builder.addMesh(std::move(mesh));
}

void RedguardLevelAssembler::addLight(std::unique_ptr<aiLight> light) {
    mImpl->builder.addLight(std::move(light));
}

void RedguardLevelAssembler::finish(aiNode *root, aiScene *scene, const char *format, const std::string &version) {
    mImpl->builder.adoptRoot(root);
    std::vector<NodePtr> none;
    mImpl->builder.finish(none, scene, format, version);
}

void BuildRedguardModelScene(const RG3DModel &model, const std::string &fileName, const std::string &modelName,
                             const RedguardSceneOptions &options, const RedguardSideFiles &side, aiScene *scene) {
    SceneBuilder builder(options, side);
    builder.newRoot(fileName);
    std::vector<NodePtr> children;
    children.push_back(builder.modelNode(model, modelName, MetadataBuilder()));
    builder.finish(children, scene, rgkeys::kSourceFormatModel, redguard::VersionString(model.version));
}

void BuildRedguardRobScene(const redguard::RobArchive &rob, const std::uint8_t *data, std::size_t size,
                           const std::string &fileName, const RedguardSceneOptions &options,
                           const RedguardSideFiles &side, aiScene *scene) {
    for (const std::string &w : rob.warnings) Warn(w);
    SceneBuilder builder(options, side);
    builder.newRoot(fileName);
    std::vector<NodePtr> children;
    redguard::ForEachRobEntry(rob, data, size, side.externalModel, [&](redguard::RobEntry &entry) {
        const redguard::RobSegment &segment = *entry.segment;
        MetadataBuilder md;
        md.add(rgkeys::kSegmentName, std::string_view(segment.name));
        md.add(rgkeys::kSegmentType, static_cast<std::int32_t>(segment.type));
        md.add(rgkeys::kSegmentFlags, static_cast<std::int32_t>(segment.flags));
        md.add(rgkeys::kSegmentAttr, static_cast<std::int32_t>(segment.header[0x10]));
        md.addBlob(rgkeys::kSegmentHeader, segment.header.data(), segment.header.size());
        if (!entry.warning.empty()) Warn(entry.warning);
        using Source = redguard::RobEntry::Source;
        if (entry.source == Source::UnknownType) return;
        if (entry.source == Source::MissingExternal)
            md.add(rgkeys::kExternal, "");
        else if (entry.source != Source::Embedded)
            md.add(rgkeys::kExternal, std::string_view(entry.externalPath));
        if (entry.model)
            children.push_back(builder.modelNode(*entry.model, segment.name, std::move(md)));
        else
            children.push_back(builder.emptyNode(segment.name, md));
    });
    builder.finish(children, scene, rgkeys::kSourceFormatRob, "OARC");
}

} // namespace gamefmt::glue
