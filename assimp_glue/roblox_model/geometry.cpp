// Roblox parts → shared meshes, materials per look, decal quads, lights and the camera
// (docs/formats/roblox-model.md §5.2–§5.5). Meshes are keyed by their exact local geometry and material, so
// a place of thousands of identical bricks holds one brick mesh.
#include "assimp_glue/roblox_model/geometry.hpp"

#include "assimp_glue/common/scene_util.hpp"
#include "assimp_glue/roblox_model/assets.hpp"
#include "assimp_glue/roblox_model/avatar_looks.hpp"
#include "assimp_glue/roblox_model/mesh_assets.hpp"
#include "assimp_glue/roblox_model/union_geometry.hpp"
#include "common/bit_cast.hpp"
#include "common/error.hpp"
#include "common/find_or_make.hpp"
#include "common/png.hpp"
#include "common/text_number.hpp"
#include "gamefmt/roblox_model.hpp"
#include "importers/roblox_model/appearance/appearance.hpp"
#include "importers/roblox_model/appearance/texture_pack.hpp"
#include "importers/roblox_model/document/dom.hpp"
#include "importers/roblox_model/geometry/shapes.hpp"
#include "importers/roblox_model/geometry/terrain.hpp"
#include "meshing/terrain_mesher.hpp"

#include <assimp/GltfMaterial.h>
#include <assimp/scene.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>

namespace gamefmt::glue {
namespace {

using rbx::Appearance;
using rbx::GeometrySource;
using rbx::kNoInstance;

constexpr float kPi = 3.14159265358979323846f;
// Decals sit this far out of their face per ZIndex step (1..20), so stacked ones do not fight.
constexpr float kDecalLift = 1e-3f;
// Cameras: Roblox stores the vertical field of view only; the aspect is the viewer's. 16:9 is assumed.
constexpr float kCameraAspect = 16.0f / 9.0f;

std::uint32_t Bits(float f) {
    return BitCast<std::uint32_t>(f + 0.0f); // -0 and +0 are one key
}

// The 64-bit finaliser of MurmurHash3: every input bit reaches the low bits FlatFindOrMake picks slots with.
std::size_t Mix(std::uint64_t h) {
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    h *= 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 33;
    return static_cast<std::size_t>(h);
}

struct MeshKey {
    std::array<std::uint32_t, 12> w{};
    bool operator==(const MeshKey &o) const { return w == o.w; }
};
struct MeshKeyHash {
    std::size_t operator()(const MeshKey &k) const {
        std::uint64_t h = 1469598103934665603ull;
        for (std::uint32_t v : k.w) h = (h ^ v) * 1099511628211ull;
        return Mix(h);
    }
};

struct LookKey {
    std::uint32_t rgb, transparency, reflectance, material;
    bool operator==(const LookKey &o) const {
        return rgb == o.rgb && transparency == o.transparency && reflectance == o.reflectance && material == o.material;
    }
};
struct LookKeyHash {
    std::size_t operator()(const LookKey &k) const {
        return Mix((std::uint64_t(k.rgb) << 32 | k.material) * 0x9E3779B97F4A7C15ull ^
                   (std::uint64_t(k.transparency) << 32 | k.reflectance));
    }
};

std::string Hex6(const rbx::Color3uint8 &c) {
    char buf[8];
    std::snprintf(buf, sizeof buf, "%02X%02X%02X", c.r, c.g, c.b);
    return buf;
}

std::string SizeText(const rbx::Vector3 &s) {
    return FormatFloat(s.x) + "x" + FormatFloat(s.y) + "x" + FormatFloat(s.z);
}

// Metallic and roughness per Material (§5.4: project guesses, not Roblox data).
void PbrOf(std::uint32_t material, float &metallic, float &roughness) {
    metallic = 0;
    roughness = 0.8f;
    switch (material) {
    case 1088: // Metal
    case 1056: // DiamondPlate
        metallic = 1;
        roughness = 0.4f;
        break;
    case 1072: // Foil
        metallic = 1;
        roughness = 0.3f;
        break;
    case 1040: // CorrodedMetal
        metallic = 0.8f;
        roughness = 0.8f;
        break;
    case 272: // SmoothPlastic
        roughness = 0.3f;
        break;
    case 256: // Plastic
        roughness = 0.6f;
        break;
    case 1568: // Glass
        roughness = 0.05f;
        break;
    default:
        break;
    }
}

constexpr std::uint32_t kNeon = 288, kForceField = 1584;

// sRGB → linear (IEC 61966-2-1).
float Linear(float c) {
    return c <= 0.04045f ? c / 12.92f : std::pow((c + 0.055f) / 1.055f, 2.4f);
}

// A material of `name` whose diffuse colour is Roblox's sRGB colour as stored and whose base colour (a PBR
// factor, linear, as Assimp's glTF importer fills it and glTF writers read it) is the same colour linearised.
std::unique_ptr<aiMaterial> ColourMaterial(const std::string &name, float r, float g, float b) {
    std::unique_ptr<aiMaterial> m(MakeMaterial(name, aiColor4D(r, g, b, 1.0f)));
    const aiColor4D base(Linear(r), Linear(g), Linear(b), 1.0f);
    m->RemoveProperty(AI_MATKEY_BASE_COLOR);
    m->AddProperty(&base, 1, AI_MATKEY_BASE_COLOR);
    return m;
}

std::string MaterialWord(std::uint32_t material) {
    const char *name = rbx::MaterialName(material);
    return name != nullptr ? name : "Material" + std::to_string(material);
}

// An embedded texture holding the bytes of a PNG or JPEG file (`hint`: "png", "jpg") as they are.
std::unique_ptr<aiTexture> CompressedTexture(const std::vector<std::uint8_t> &bytes, const std::string &hint,
                                             const std::string &name) {
    auto texture = std::make_unique<aiTexture>();
    texture->mWidth = static_cast<unsigned>(bytes.size());
    texture->mHeight = 0; // compressed: mWidth bytes
    texture->pcData = new aiTexel[(bytes.size() + sizeof(aiTexel) - 1) / sizeof(aiTexel)]();
    std::memcpy(texture->pcData, bytes.data(), bytes.size());
    std::snprintf(texture->achFormatHint, sizeof texture->achFormatHint, "%s", hint.c_str());
    texture->mFilename = ToAiString(name);
    return texture;
}

// glTF's metallic-roughness image as PNG bytes from Roblox's grey maps (either may be null: 0 metal, 1 rough),
// sampled at the larger map's size. Throws FormatError when a map is not a PNG or does not decode.
std::vector<std::uint8_t> MetalRoughnessPng(const aiTexture *metal, const aiTexture *rough) {
    RgbaImage maps[2];
    const aiTexture *sources[2] = {metal, rough};
    std::uint32_t width = 1, height = 1;
    for (int k = 0; k < 2; ++k) {
        if (sources[k] == nullptr) continue;
        const aiTexture &t = *sources[k];
        if (std::string_view(t.achFormatHint) != "png")
            throw FormatError("Roblox SurfaceAppearance", "metalness/roughness map is not a PNG");
        maps[k] = DecodePngRgba(reinterpret_cast<const std::uint8_t *>(t.pcData), t.mWidth, std::uint64_t(1) << 24,
                                "Roblox SurfaceAppearance map");
        width = std::max(width, maps[k].width);
        height = std::max(height, maps[k].height);
    }
    std::vector<std::uint8_t> rgba(std::size_t(width) * height * 4);
    const auto sample = [&](const RgbaImage &m, std::uint32_t x, std::uint32_t y, std::uint8_t fallback) {
        if (m.rgba.empty()) return fallback;
        const std::uint64_t sx = std::uint64_t(x) * m.width / width, sy = std::uint64_t(y) * m.height / height;
        return m.rgba[static_cast<std::size_t>((sy * m.width + sx) * 4)]; // grey: the red channel
    };
    for (std::uint32_t y = 0; y < height; ++y) {
        for (std::uint32_t x = 0; x < width; ++x) {
            std::uint8_t *px = &rgba[(std::size_t(y) * width + x) * 4];
            px[0] = 0;
            px[1] = sample(maps[1], x, y, 255);
            px[2] = sample(maps[0], x, y, 0);
            px[3] = 255;
        }
    }
    return EncodePngRgba(rgba.data(), width, height, "Roblox SurfaceAppearance");
}

// Triangles `indices` (three per face) as the mesh's faces, each index through `map` when given.
void SetTriangles(aiMesh &mesh, const std::vector<std::uint32_t> &indices, const std::vector<std::uint32_t> *map) {
    mesh.mNumFaces = static_cast<unsigned>(indices.size() / 3);
    mesh.mFaces = new aiFace[mesh.mNumFaces];
    for (std::size_t f = 0; f < mesh.mNumFaces; ++f) {
        aiFace &face = mesh.mFaces[f];
        face.mNumIndices = 3;
        face.mIndices = new unsigned[3];
        for (std::size_t k = 0; k < 3; ++k) {
            const std::uint32_t i = indices[3 * f + k];
            face.mIndices[k] = map != nullptr ? (*map)[i] : i;
        }
    }
}

// The look of terrain material `id` (§5, §8.3, §8.4): MaterialColors (or WaterColor and WaterTransparency for
// water), the Enum.Material value (Plastic for ids without one); `colour` receives the colour as 0..1.
rbx::Look TerrainLook(std::uint8_t id, const std::array<rbx::Color3uint8, rbx::kTerrainMaterialCount> &colours,
                      const rbx::TerrainData &data, aiColor4D &colour) {
    rbx::Look look;
    look.material = id == rbx::kTerrainWater ? 2048u : rbx::TerrainEnumMaterial(id);
    if (look.material == 0) look.material = rbx::kMaterialPlastic;
    look.color = {163, 162, 165};
    if (id == rbx::kTerrainWater) {
        look.transparency = data.waterTransparency;
        look.color = {UnitToByte(data.waterColor.r), UnitToByte(data.waterColor.g), UnitToByte(data.waterColor.b)};
        colour = aiColor4D(data.waterColor.r, data.waterColor.g, data.waterColor.b, 1.0f);
        return look;
    }
    if (id < colours.size()) look.color = colours[id];
    colour = aiColor4D(look.color.r / 255.0f, look.color.g / 255.0f, look.color.b / 255.0f, 1.0f);
    return look;
}

// One terrain material's mesh: its triangles over the surface's vertices, which it copies (with their shared
// normals: no seams at material borders, roblox-terrain.md §8.2 step 5). `remap` is all 0xFFFFFFFF on entry and on
// return.
std::unique_ptr<aiMesh> TerrainMesh(const rbx::TerrainSurface &surface, const std::vector<std::uint32_t> &tris,
                                    std::vector<std::uint32_t> &remap, const std::string &name, unsigned material) {
    std::vector<std::uint32_t> used;
    for (std::uint32_t v : tris)
        if (remap[v] == 0xFFFFFFFFu) {
            remap[v] = static_cast<std::uint32_t>(used.size());
            used.push_back(v);
        }
    auto mesh = std::make_unique<aiMesh>();
    mesh->mName = ToAiString(name);
    mesh->mMaterialIndex = material;
    mesh->mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
    mesh->mNumVertices = static_cast<unsigned>(used.size());
    mesh->mVertices = new aiVector3D[used.size()];
    mesh->mNormals = new aiVector3D[used.size()];
    for (std::size_t i = 0; i < used.size(); ++i) {
        const rbx::Vector3 &p = surface.positions[used[i]], &n = surface.normals[used[i]];
        mesh->mVertices[i] = aiVector3D(p.x, p.y, p.z);
        mesh->mNormals[i] = aiVector3D(n.x, n.y, n.z);
    }
    SetTriangles(*mesh, tris, &remap);
    for (std::uint32_t v : used) remap[v] = 0xFFFFFFFFu;
    return mesh;
}

class GeometryBuilder {
public:
    GeometryBuilder(const rbx::Document &doc, const std::vector<aiNode *> &nodes, const RbxGeometryOptions &options,
                    UniqueNames *names)
        : mDoc(doc), mNodes(nodes), mOptions(options), mNames(names), mLooks(doc), mAvatars(doc, options) {}

    void run(const std::vector<std::uint32_t> &order, bool isPlace);
    void finish(aiScene *scene);

private:
    void addPart(std::uint32_t index, const rbx::PartGeometry &g, const rbx::Look &look);
    void addDecal(std::uint32_t index, std::uint32_t part);
    void addLight(std::uint32_t index, std::uint32_t parent);
    void addCamera(std::uint32_t index);
    unsigned partMaterial(const rbx::Look &look);
    std::unique_ptr<aiMaterial> lookMaterial(const std::string &name, const rbx::Look &look, const aiColor4D &colour);
    const RbxMeshTemplate *meshAsset(const std::string &uri, bool bakeFacs = false);
    void addMeshInstance(std::uint32_t index, const rbx::PartGeometry &g, const rbx::Look &look,
                         const RbxMeshTemplate &t);
    unsigned meshMaterial(std::uint32_t index, const rbx::Look &look, const rbx::PartGeometry &g);
    int compositeImage(const AvatarLooks::Composite &composite);
    bool addR6Body(std::uint32_t index, const rbx::PartGeometry &g, const rbx::Look &look);
    std::unique_ptr<aiMaterial> mapsMaterial(const std::string &name, const rbx::Look &look, const rbx::Color3 &tint,
                                             const std::array<int, 4> &maps);
    int metalRoughnessImage(int metal, int rough);
    void appendChild(std::uint32_t index, aiNode *child);
    void addUnion(std::uint32_t index, const UnionShape &shape, const rbx::Look &look, const rbx::Vector3 &size);
    void addTerrain(std::uint32_t index);
    unsigned decalMaterial(const rbx::DecalInfo &decal, unsigned image);
    std::unique_ptr<aiMaterial> decalLook(const rbx::DecalInfo &decal, const rbx::Color3uint8 &tint,
                                          unsigned image) const;
    int embeddedImage(const std::string &uri);
    void texturePackMaps(const std::string &uri, rbx::SurfaceMaps &maps);
    const std::string *legacyContent(const std::string &uri);
    std::unique_ptr<aiMesh> scratchMesh(const std::string &name, unsigned material) const;
    // The only ways meshes, materials and textures join the scene: each returns the new element's index, which
    // is what the de-duplication tables store (common/find_or_make.hpp).
    unsigned addMesh(std::unique_ptr<aiMesh> mesh);
    unsigned addMaterial(std::unique_ptr<aiMaterial> material);
    int addTexture(std::unique_ptr<aiTexture> texture);
    void attach(std::uint32_t index, unsigned mesh);
    void annotate(std::uint32_t index, MetadataBuilder &md);
    void warnings() const;

    const rbx::Document &mDoc;
    const std::vector<aiNode *> &mNodes;
    const RbxGeometryOptions &mOptions;
    UniqueNames *mNames;
    Appearance mLooks;
    AvatarLooks mAvatars;
    rbx::ShapeMesh mScratch;

    std::vector<std::unique_ptr<aiMesh>> mMeshes;
    std::vector<std::unique_ptr<aiMaterial>> mMaterials;
    std::vector<std::unique_ptr<aiTexture>> mTextures;
    std::vector<std::unique_ptr<aiLight>> mLights;
    std::vector<std::unique_ptr<aiCamera>> mCameras;
    FlatFindOrMake<MeshKey, MeshKeyHash> mMeshIndex;           // shape or decal quad, size, look → mesh
    FlatFindOrMake<LookKey, LookKeyHash> mLookIndex;           // part look → material
    std::map<std::string, unsigned> mDecalLookIndex;           // image, tint, transparency → material
    std::map<std::string, int> mImageIndex;                    // URI → embedded texture, -1 when unresolved
    std::map<std::string, const std::string *> mLegacyContent; // legacy <binary> URI → its bytes (legacyContent)
    bool mLegacyIndexed = false;
    std::map<std::string, std::unique_ptr<RbxMeshTemplate>> mMeshAssets; // URI → LOD 0, null when not loadable
    std::map<std::string, unsigned> mMeshInstanceIndex;  // URI, placement and material → mesh (unskinned)
    std::map<std::string, unsigned> mMeshLookIndex;      // look and maps → material
    std::map<std::pair<int, int>, int> mMetalRoughIndex; // metalness, roughness image → combined image
    UnionCache mUnions;
    std::map<std::string, std::vector<unsigned>> mUnionMeshes; // shape key, size, look → meshes
    std::map<std::string, std::size_t> mUnionKinds;            // rbx.geometry → unions drawn so
    std::map<std::string, int> mCompositeIndex;                // composite name → embedded texture
    std::map<std::string, unsigned> mR6BodyIndex;              // limb, size, atlas → mesh

    std::vector<bool> mIsPart; // instances with geometry of their own (drawn or not), in scope
    std::size_t mPlaceholders = 0, mApproximated = 0, mUnresolvedImages = 0, mUnknownBrickColors = 0;
    std::size_t mSkippedInvisible = 0, mNonFinite = 0;
    std::size_t mMeshesLoaded = 0, mBadMeshes = 0, mUncombinedMaps = 0;
};

void GeometryBuilder::run(const std::vector<std::uint32_t> &order, bool isPlace) {
    const std::size_t n = mDoc.instances.size();
    const bool all = mOptions.scope == RbxGeometryScope::All || (mOptions.scope == RbxGeometryScope::Auto && !isPlace);
    std::vector<bool> inScope(n, false);
    mIsPart.assign(n, false);
    const std::uint32_t camera = mLooks.currentCamera();
    for (std::uint32_t index : order) {
        const rbx::Instance &inst = mDoc.instances[index];
        const std::uint32_t parent = inst.parent < n && mNodes[inst.parent] != nullptr ? inst.parent : kNoInstance;
        inScope[index] = all || (parent != kNoInstance ? inScope[parent] : mDoc.className(inst) == "Workspace");
        if (index == camera) addCamera(index);
        if (!inScope[index]) continue;
        if (mOptions.terrain && mDoc.className(inst) == "Terrain") {
            addTerrain(index);
            continue;
        }
        rbx::Look look;
        const rbx::PartGeometry g = mLooks.geometry(index, &look);
        if (g.source != GeometrySource::None) {
            mIsPart[index] = true;
            addPart(index, g, look);
            continue;
        }
        if (parent != kNoInstance && mIsPart[parent]) addDecal(index, parent);
        addLight(index, parent);
    }
}

bool Finite(const rbx::Vector3 &v) {
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

void GeometryBuilder::addPart(std::uint32_t index, const rbx::PartGeometry &g, const rbx::Look &partLook) {
    rbx::Look look = partLook;
    if (const std::optional<rbx::Color3uint8> body = mAvatars.bodyColor(index)) look.color = *body; // §2
    if (!Finite(g.size) || !Finite(g.offset)) {
        ++mNonFinite; // NaN or infinite size or mesh offset: nothing sensible to draw
        return;
    }
    if (look.unknownBrickColor != 0) ++mUnknownBrickColors;
    if (g.approximated) ++mApproximated;
    // A dynamic head (a MeshPart with FaceControls) gets its FACS poses as morph targets (roblox-avatar.md §5).
    const std::uint32_t faceControls = mAvatars.faceControls(index);
    const RbxMeshTemplate *asset =
        g.asset != rbx::MeshAsset::None && !g.uri.empty() ? meshAsset(g.uri, faceControls != kNoInstance) : nullptr;
    if (asset != nullptr) {
        MetadataBuilder md;
        md.add(kRbxGeometry, "mesh");
        annotate(index, md);
        if (mOptions.skipInvisible && look.transparency >= 1) {
            ++mSkippedInvisible;
            return;
        }
        addMeshInstance(index, g, look, *asset);
        return;
    }
    if (g.source == GeometrySource::Placeholder && g.asset == rbx::MeshAsset::None) {
        if (std::optional<UnionShape> shape = BuildUnionShape(mDoc, index, mLooks, look, g.size, mOptions.segments,
                                                              g.uri, mOptions.assets, mUnions)) {
            MetadataBuilder md;
            md.add(kRbxGeometry, shape->geometry);
            md.add(kRbxUnionSource, shape->source);
            if (shape->negated) md.add(kRbxNegated, true);
            annotate(index, md);
            ++mUnionKinds[shape->geometry];
            if (mOptions.skipInvisible && look.transparency >= 1) {
                ++mSkippedInvisible;
                return;
            }
            addUnion(index, *shape, look, g.size);
            return;
        }
    }
    if (g.source == GeometrySource::Placeholder) {
        ++mPlaceholders;
        MetadataBuilder md;
        md.add(kRbxGeometry, "placeholder");
        if (!g.uri.empty()) md.add(kRbxUnresolved, SanitizeForAiString(g.uri));
        annotate(index, md);
    }
    if (mOptions.skipInvisible && look.transparency >= 1) {
        ++mSkippedInvisible;
        return;
    }
    if (addR6Body(index, g, look)) return;
    const unsigned material = partMaterial(look);
    const bool round = g.shape == rbx::ShapeKind::CylinderX || g.shape == rbx::ShapeKind::CylinderY ||
                       g.shape == rbx::ShapeKind::Sphere || g.shape == rbx::ShapeKind::Ellipsoid;
    MeshKey key;
    key.w = {1u,
             static_cast<std::uint32_t>(g.shape),
             Bits(g.size.x),
             Bits(g.size.y),
             Bits(g.size.z),
             Bits(g.offset.x),
             Bits(g.offset.y),
             Bits(g.offset.z),
             round ? mOptions.segments : 0u,
             material,
             g.source == GeometrySource::Placeholder ? 1u : 0u,
             0u};
    attach(index, mMeshIndex.findOrMake(key, [&] {
        mScratch.clear();
        rbx::BuildShape(g.shape, g.size, g.offset, mOptions.segments, mScratch);
        const std::string name =
            std::string(g.source == GeometrySource::Placeholder ? "placeholder" : rbx::ShapeName(g.shape)) + " " +
            SizeText(g.size);
        return addMesh(scratchMesh(name, material));
    }));
}

void GeometryBuilder::addDecal(std::uint32_t index, std::uint32_t part) {
    const std::optional<rbx::DecalInfo> decal = mLooks.decal(index);
    if (!decal || decal->uri.empty()) return; // nothing to show
    if (mOptions.skipInvisible && decal->transparency >= 1) {
        ++mSkippedInvisible;
        return;
    }
    // Without its image a decal would be a plain quad hiding the face: it keeps its node, with the URI.
    const int image = embeddedImage(decal->uri);
    if (image < 0) {
        MetadataBuilder md;
        md.add(kRbxUnresolved, SanitizeForAiString(decal->uri));
        annotate(index, md);
        return;
    }
    const unsigned material = decalMaterial(*decal, static_cast<unsigned>(image));
    const rbx::Vector3 size = mLooks.size(part);
    const float lift = kDecalLift * static_cast<float>(std::clamp(decal->zIndex, 1, 20));
    MeshKey key;
    key.w = {2u,
             static_cast<std::uint32_t>(decal->face),
             Bits(size.x),
             Bits(size.y),
             Bits(size.z),
             Bits(lift),
             decal->tiled ? 1u : 0u,
             Bits(decal->tiled ? decal->mapping.tileU : 0),
             Bits(decal->tiled ? decal->mapping.tileV : 0),
             material,
             Bits(decal->tiled ? decal->mapping.offsetU : 0),
             Bits(decal->tiled ? decal->mapping.offsetV : 0)};
    attach(index, mMeshIndex.findOrMake(key, [&] {
        mScratch.clear();
        rbx::BuildFaceQuad(decal->face, size, {}, lift, decal->mapping, mScratch);
        return addMesh(scratchMesh(std::string(decal->tiled ? "texture " : "decal ") + SizeText(size), material));
    }));
}

void GeometryBuilder::addLight(std::uint32_t index, std::uint32_t parent) {
    const std::optional<rbx::LightInfo> info = mLooks.light(index);
    if (!info || !info->enabled || mNodes[index] == nullptr) return;
    auto light = std::make_unique<aiLight>();
    light->mName = mNodes[index]->mName;
    const float b = std::isfinite(info->brightness) ? std::max(info->brightness, 0.0f) : 1.0f;
    const aiColor3D colour(info->color.r * b, info->color.g * b, info->color.b * b);
    light->mColorDiffuse = colour;
    light->mColorSpecular = colour;
    light->mColorAmbient = aiColor3D(0, 0, 0);
    light->mAttenuationConstant = 1;
    light->mAttenuationLinear = 0;
    light->mAttenuationQuadratic = 0;
    const rbx::Vector3 n = rbx::FaceNormal(info->face);
    light->mDirection = aiVector3D(n.x, n.y, n.z);
    light->mUp = std::fabs(n.y) > 0.5f ? aiVector3D(0, 0, -1) : aiVector3D(0, 1, 0);
    const float angle = std::isfinite(info->angle) ? std::clamp(info->angle, 0.0f, 180.0f) : 90.0f;
    light->mAngleOuterCone = angle / 2 * kPi / 180;
    light->mAngleInnerCone = light->mAngleOuterCone;
    if (info->kind == rbx::LightInfo::Kind::Point) {
        light->mType = aiLightSource_POINT;
    } else {
        light->mType = aiLightSource_SPOT;
        // A SurfaceLight shines from its face: a spot at the face's centre (the parent part's, when it is one).
        if (info->kind == rbx::LightInfo::Kind::Surface && parent != kNoInstance && mIsPart[parent]) {
            const rbx::Vector3 s = mLooks.size(parent);
            light->mPosition = aiVector3D(n.x * s.x / 2, n.y * s.y / 2, n.z * s.z / 2);
        }
    }
    MetadataBuilder md;
    md.add(kRbxLightRange, std::isfinite(info->range) ? std::max(info->range, 0.0f) : 0.0f);
    if (info->shadows) md.add(kRbxLightShadows, true);
    annotate(index, md);
    mLights.push_back(std::move(light));
}

void GeometryBuilder::addCamera(std::uint32_t index) {
    if (mNodes[index] == nullptr) return;
    auto camera = std::make_unique<aiCamera>();
    camera->mName = mNodes[index]->mName;
    camera->mPosition = aiVector3D(0, 0, 0);
    camera->mUp = aiVector3D(0, 1, 0);
    camera->mLookAt = aiVector3D(0, 0, -1); // Roblox looks along -Z (LookVector = -column 2)
    const float vertical = mLooks.fieldOfView(index) * kPi / 180;
    camera->mAspect = kCameraAspect;
    camera->mHorizontalFOV = std::atan(std::tan(vertical / 2) * kCameraAspect); // Assimp: half the horizontal angle
    camera->mClipPlaneNear = 0.1f;
    camera->mClipPlaneFar = 10000.0f;
    mCameras.push_back(std::move(camera));
}

unsigned GeometryBuilder::partMaterial(const rbx::Look &look) {
    const LookKey key{std::uint32_t(look.color.r) << 16 | std::uint32_t(look.color.g) << 8 | look.color.b,
                      Bits(look.transparency), Bits(look.reflectance), look.material};
    return mLookIndex.findOrMake(key, [&] {
        std::string name = "rbx_" + MaterialWord(look.material) + "_" + Hex6(look.color);
        if (look.transparency > 0) name += "_t" + FormatFloat(look.transparency);
        if (look.reflectance > 0) name += "_r" + FormatFloat(look.reflectance);
        const aiColor4D colour(look.color.r / 255.0f, look.color.g / 255.0f, look.color.b / 255.0f, 1.0f);
        return addMaterial(lookMaterial(name, look, colour));
    });
}

// The material of a look whose colour is `colour` (sRGB): opacity, reflectivity, PBR factors per Material,
// emissive for Neon and ForceField, $rbx.material and $rbx.materialName.
std::unique_ptr<aiMaterial> GeometryBuilder::lookMaterial(const std::string &name, const rbx::Look &look,
                                                          const aiColor4D &colour) {
    std::unique_ptr<aiMaterial> m = ColourMaterial(name, colour.r, colour.g, colour.b);
    // Opacity 1 and reflectivity 0 are Assimp's defaults: only other values are stored.
    float opacity = 1 - look.transparency;
    if (look.material == kForceField) opacity *= 0.5f;
    if (opacity != 1) m->AddProperty(&opacity, 1, AI_MATKEY_OPACITY);
    const float reflectance = look.reflectance;
    if (reflectance != 0) m->AddProperty(&reflectance, 1, AI_MATKEY_REFLECTIVITY);
    float metallic = 0, roughness = 0;
    PbrOf(look.material, metallic, roughness);
    m->AddProperty(&metallic, 1, AI_MATKEY_METALLIC_FACTOR);
    m->AddProperty(&roughness, 1, AI_MATKEY_ROUGHNESS_FACTOR);
    if (look.material == kNeon || look.material == kForceField) {
        const aiColor3D emissive(Linear(colour.r), Linear(colour.g), Linear(colour.b)); // glTF: linear
        m->AddProperty(&emissive, 1, AI_MATKEY_COLOR_EMISSIVE);
    }
    const int materialValue = static_cast<int>(look.material);
    m->AddProperty(&materialValue, 1, "$rbx.material", 0, 0); // before "$rbx.materialName": Assimp 6's prefix lookup
    const aiString materialName(MaterialWord(look.material));
    m->AddProperty(&materialName, "$rbx.materialName", 0, 0);
    return m;
}

// The bytes a legacy <Content><binary> holds, found by the URI appearance.cpp names them by (first use: one pass
// over the document); null when no value hashes to it.
const std::string *GeometryBuilder::legacyContent(const std::string &uri) {
    if (!mLegacyIndexed) {
        mLegacyIndexed = true;
        for (const rbx::Instance &inst : mDoc.instances)
            for (const rbx::Property &p : inst.properties)
                if (p.value.xmlTag == rbx::XmlTag::ContentBinary)
                    if (const auto *bytes = std::get_if<std::string>(&p.value.data); bytes != nullptr)
                        mLegacyContent.emplace(rbx::LegacyContentUri(*bytes), bytes);
    }
    const auto it = mLegacyContent.find(uri);
    return it == mLegacyContent.end() ? nullptr : it->second;
}

int GeometryBuilder::embeddedImage(const std::string &uri) {
    return FindOrMake(mImageIndex, uri, [&] {
        // A 2008 place's image inside the file (legacy <binary>): embedded as the file's bytes, as Roblox showed it.
        if (uri.rfind(rbx::kLegacyContentUriPrefix, 0) == 0) {
            if (const std::string *bytes = legacyContent(uri)) {
                const auto *data = reinterpret_cast<const std::uint8_t *>(bytes->data());
                const std::string format = SniffImage(data, bytes->size());
                if (!format.empty())
                    return addTexture(
                        CompressedTexture(std::vector<std::uint8_t>(data, data + bytes->size()), format, uri));
            }
            ++mUnresolvedImages;
            return -1;
        }
        if (mOptions.assets)
            if (std::optional<RbxAsset> image = mOptions.assets(uri, RbxAssetKind::Image))
                return addTexture(CompressedTexture(image->bytes, image->format, uri));
        ++mUnresolvedImages;
        return -1;
    });
}

// A SurfaceAppearance that names its maps only through a TexturePack asset (§5.5): the pack's maps, when the asset
// folders hold it.
void GeometryBuilder::texturePackMaps(const std::string &uri, rbx::SurfaceMaps &maps) {
    if (!mOptions.assets) return;
    const std::optional<RbxAsset> pack = mOptions.assets(uri, RbxAssetKind::TexturePack);
    if (!pack) return;
    if (const auto read = rbx::ReadTexturePack(pack->bytes.data(), pack->bytes.size())) {
        maps.color = read->color;
        maps.normal = read->normal;
        maps.metalness = read->metalness;
        maps.roughness = read->roughness;
    }
}

// LOD 0 of the mesh `uri` names, read once; null when it does not resolve or does not read (one warning per URI).
const RbxMeshTemplate *GeometryBuilder::meshAsset(const std::string &uri, bool bakeFacs) {
    const std::string key = bakeFacs ? uri + "\n#facs" : uri;
    const auto found = mMeshAssets.find(key);
    if (found != mMeshAssets.end()) return found->second.get();
    std::unique_ptr<RbxMeshTemplate> t;
    if (mOptions.assets) {
        if (std::optional<RbxAsset> file = mOptions.assets(uri, RbxAssetKind::Mesh)) {
            try {
                t = LoadRbxMeshTemplate(file->bytes.data(), file->bytes.size(), bakeFacs);
                ++mMeshesLoaded;
            } catch (const FormatError &e) {
                ++mBadMeshes;
                LogWarn(std::string(rbx::kFormatName) + ": mesh asset " + SanitizeForAiString(file->path, 300) +
                        " (for " + SanitizeForAiString(uri, 200) +
                        ") cannot be read, drawn as a placeholder box: " + e.what());
            }
        }
    }
    return mMeshAssets.emplace(key, std::move(t)).first->second.get();
}

// §5.3: a MeshPart's mesh is centred (when its bounds are off the origin) and scaled by size / InitialSize
// (InitialSize absent or not positive: the mesh's own extent); a FileMesh's is v∘Scale + Offset.
void GeometryBuilder::addMeshInstance(std::uint32_t index, const rbx::PartGeometry &g, const rbx::Look &look,
                                      const RbxMeshTemplate &t) {
    aiVector3D scale(1, 1, 1), shift;
    if (g.asset == rbx::MeshAsset::MeshPart) {
        MeshPartPlacement(t, aiVector3D(g.size.x, g.size.y, g.size.z),
                          aiVector3D(g.initialSize.x, g.initialSize.y, g.initialSize.z), scale, shift);
    } else {
        scale = aiVector3D(g.meshScale.x, g.meshScale.y, g.meshScale.z);
        shift = aiVector3D(g.offset.x, g.offset.y, g.offset.z);
    }
    if (!std::isfinite(scale.x) || !std::isfinite(scale.y) || !std::isfinite(scale.z) || !std::isfinite(shift.x) ||
        !std::isfinite(shift.y) || !std::isfinite(shift.z)) {
        ++mNonFinite;
        return;
    }
    const unsigned material = meshMaterial(index, look, g);
    std::string name = g.uri;
    const std::size_t slash = name.find_last_of("/=");
    if (slash != std::string::npos && slash + 1 < name.size()) name = name.substr(slash + 1);
    name = "mesh " + SanitizeForAiString(name, 100);
    if (t.skinned()) {
        // Each skinned instance has its own skeleton under its node, and so its own copy of the mesh.
        std::unique_ptr<aiMesh> mesh = PlaceRbxMesh(t, scale, shift, material, name);
        // The face the file sets: FaceControls values as the morph targets' weights (correctives: products).
        if (mesh->mNumAnimMeshes != 0)
            if (const std::uint32_t fc = mAvatars.faceControls(index); fc != kNoInstance) {
                const std::vector<std::pair<std::string, float>> values = rbx::FaceControlValues(mDoc, fc);
                for (unsigned a = 0; a < mesh->mNumAnimMeshes; ++a)
                    mesh->mAnimMeshes[a]->mWeight = static_cast<float>(
                        rbx::FacsTargetWeight(mesh->mAnimMeshes[a]->mName.C_Str(), [&](std::string_view control) {
                            for (const auto &[name, value] : values)
                                if (name == control) return static_cast<double>(value);
                            return 0.0;
                        }));
            }
        UniqueNames local;
        aiNode *skeleton = PlaceRbxSkeleton(t, scale, shift, mNames != nullptr ? *mNames : local, *mesh);
        attach(index, addMesh(std::move(mesh)));
        appendChild(index, skeleton);
        return;
    }
    std::string key = g.uri;
    for (float v : {scale.x, scale.y, scale.z, shift.x, shift.y, shift.z}) key += ' ' + std::to_string(Bits(v));
    key += ' ' + std::to_string(material);
    attach(index, FindOrMake(mMeshInstanceIndex, std::move(key),
                             [&] { return addMesh(PlaceRbxMesh(t, scale, shift, material, name)); }));
}

// A mesh's material: the part's look when it has no image; otherwise the look with its images (§5.5): the
// SurfaceAppearance's ColorMap, else the part's texture, as base colour (the colour white, or the FileMesh's
// VertexColor / the SurfaceAppearance's Color as a tint), NormalMap, and MetalnessMap + RoughnessMap combined
// into glTF's metallic-roughness image (PNG; each also as Assimp's METALNESS / DIFFUSE_ROUGHNESS texture).
unsigned GeometryBuilder::meshMaterial(std::uint32_t index, const rbx::Look &look, const rbx::PartGeometry &g) {
    int colourMap = -1, normalMap = -1, metal = -1, rough = -1;
    rbx::Color3 tint{1, 1, 1};
    // An R15 body part wears the character's classic clothing over its body colour, its own texture on top
    // (docs/formats/roblox-avatar.md §1.4); not under a SurfaceAppearance.
    if (g.surfaceAppearance == kNoInstance && g.asset == rbx::MeshAsset::MeshPart)
        if (const AvatarLooks::Composite *composite = mAvatars.r15Composite(index, g.textureUri))
            colourMap = compositeImage(*composite);
    if (g.surfaceAppearance != kNoInstance) {
        if (std::optional<rbx::SurfaceMaps> sa = mLooks.surfaceMaps(g.surfaceAppearance)) {
            if (sa->color.empty() && sa->normal.empty() && sa->metalness.empty() && sa->roughness.empty() &&
                !sa->texturePack.empty())
                texturePackMaps(sa->texturePack, *sa);
            if (!sa->color.empty()) colourMap = embeddedImage(sa->color);
            if (!sa->normal.empty()) normalMap = embeddedImage(sa->normal);
            if (!sa->metalness.empty()) metal = embeddedImage(sa->metalness);
            if (!sa->roughness.empty()) rough = embeddedImage(sa->roughness);
            tint = sa->tint;
        }
    }
    if (colourMap < 0 && !g.textureUri.empty()) {
        colourMap = embeddedImage(g.textureUri);
        if (g.asset == rbx::MeshAsset::FileMesh) tint = {g.vertexColor.x, g.vertexColor.y, g.vertexColor.z};
    }
    if (colourMap < 0 && normalMap < 0 && metal < 0 && rough < 0) return partMaterial(look);

    const rbx::Color3uint8 tintBytes{UnitToByte(tint.r), UnitToByte(tint.g), UnitToByte(tint.b)};
    std::string key = std::to_string(look.material) + ' ' + std::to_string(Bits(look.transparency)) + ' ' +
                      std::to_string(Bits(look.reflectance)) + ' ' + Hex6(look.color) + ' ' + Hex6(tintBytes);
    for (int image : {colourMap, normalMap, metal, rough}) key += ' ' + std::to_string(image);
    return FindOrMake(mMeshLookIndex, std::move(key), [&] {
        const std::string name = "rbx_" + MaterialWord(look.material) + "_" +
                                 (colourMap >= 0 ? Hex6(tintBytes) : Hex6(look.color)) + "_tex" +
                                 std::to_string(mMeshLookIndex.size());
        return addMaterial(mapsMaterial(name, look, tint, {colourMap, normalMap, metal, rough}));
    });
}

// A composited avatar texture, embedded once.
int GeometryBuilder::compositeImage(const AvatarLooks::Composite &composite) {
    return FindOrMake(mCompositeIndex, composite.name,
                      [&] { return addTexture(CompressedTexture(composite.png, "png", composite.name)); });
}

// An R6 body part (a plain block) of a character in classic clothing: a box whose faces sample the character's atlas
// (docs/formats/roblox-avatar.md §1.3), in a material of the part's look with the atlas as its colour map. False when
// the part is not one (it is then drawn as any part).
bool GeometryBuilder::addR6Body(std::uint32_t index, const rbx::PartGeometry &g, const rbx::Look &look) {
    if (g.source != GeometrySource::Shape || g.shape != rbx::ShapeKind::Box || g.meshChild != kNoInstance) return false;
    const AvatarLooks::Body *body = mAvatars.body(index);
    if (body == nullptr) return false;
    const AvatarLooks::Composite *atlas = mAvatars.r6Atlas(index);
    if (atlas == nullptr) return false;
    const int image = compositeImage(*atlas);
    const std::string lookKey = std::to_string(look.material) + ' ' + std::to_string(Bits(look.transparency)) + ' ' +
                                std::to_string(Bits(look.reflectance)) + " atlas " + std::to_string(image);
    const unsigned material = FindOrMake(mMeshLookIndex, lookKey, [&] {
        return addMaterial(mapsMaterial("rbx_" + MaterialWord(look.material) + "_avatar" + std::to_string(image), look,
                                        {1, 1, 1}, {image, -1, -1, -1}));
    });
    std::string key = std::string(rbx::LimbName(body->limb)) + ' ' + SizeText(g.size) + ' ' + std::to_string(material);
    attach(index, FindOrMake(mR6BodyIndex, std::move(key), [&] {
               mScratch.clear();
               rbx::BuildR6BodyBox(body->limb, g.size, mScratch);
               return addMesh(
                   scratchMesh(std::string("R6 ") + rbx::LimbName(body->limb) + " " + SizeText(g.size), material));
           }));
    return true;
}

// The material of a look with images (embedded texture indices, -1 for none): base colour (tinted by `tint`),
// normal, metalness and roughness maps.
std::unique_ptr<aiMaterial> GeometryBuilder::mapsMaterial(const std::string &name, const rbx::Look &look,
                                                          const rbx::Color3 &tint, const std::array<int, 4> &maps) {
    const auto [colourMap, normalMap, metal, rough] = maps;
    const aiColor4D colour = colourMap >= 0
                                 ? aiColor4D(tint.r, tint.g, tint.b, 1.0f)
                                 : aiColor4D(look.color.r / 255.0f, look.color.g / 255.0f, look.color.b / 255.0f, 1.0f);
    std::unique_ptr<aiMaterial> m = lookMaterial(name, look, colour);
    const auto image = [](int i) { return aiString("*" + std::to_string(i)); };
    if (colourMap >= 0) {
        const aiString path = image(colourMap);
        m->AddProperty(&path, AI_MATKEY_TEXTURE(aiTextureType_DIFFUSE, 0));
        m->AddProperty(&path, AI_MATKEY_TEXTURE(aiTextureType_BASE_COLOR, 0));
    }
    if (normalMap >= 0) {
        const aiString path = image(normalMap);
        m->AddProperty(&path, AI_MATKEY_TEXTURE(aiTextureType_NORMALS, 0));
    }
    if (metal >= 0) {
        const aiString path = image(metal);
        m->AddProperty(&path, AI_MATKEY_TEXTURE(aiTextureType_METALNESS, 0));
    }
    if (rough >= 0) {
        const aiString path = image(rough);
        m->AddProperty(&path, AI_MATKEY_TEXTURE(aiTextureType_DIFFUSE_ROUGHNESS, 0));
    }
    if (metal >= 0 || rough >= 0) {
        const int combined = metalRoughnessImage(metal, rough);
        if (combined >= 0) {
            // The maps hold the values: the factors multiply them (glTF 2.0 §3.9.2).
            const float one = 1.0f, metallic = metal >= 0 ? 1.0f : 0.0f;
            m->RemoveProperty(AI_MATKEY_METALLIC_FACTOR);
            m->RemoveProperty(AI_MATKEY_ROUGHNESS_FACTOR);
            m->AddProperty(&metallic, 1, AI_MATKEY_METALLIC_FACTOR);
            m->AddProperty(&one, 1, AI_MATKEY_ROUGHNESS_FACTOR);
            const aiString path = image(combined);
            m->AddProperty(&path, AI_MATKEY_TEXTURE(aiTextureType_UNKNOWN, 0)); // glTF metallicRoughnessTexture
        }
    }
    return m;
}

// glTF's metallic-roughness image (G roughness, B metalness) from Roblox's two grey maps, as a new embedded
// PNG; -1 (counted in a warning) when a map is not a PNG or does not decode. A missing map is 0 metal / 1 rough.
int GeometryBuilder::metalRoughnessImage(int metal, int rough) {
    return FindOrMake(mMetalRoughIndex, std::make_pair(metal, rough), [&] {
        const auto texture = [&](int i) { return i >= 0 ? mTextures[static_cast<std::size_t>(i)].get() : nullptr; };
        try {
            return addTexture(
                CompressedTexture(MetalRoughnessPng(texture(metal), texture(rough)), "png",
                                  "metallicRoughness " + std::to_string(metal) + " " + std::to_string(rough)));
        } catch (const FormatError &) {
            ++mUncombinedMaps;
            return -1;
        }
    });
}

// A union's pieces as meshes on its node, one per look; the same shape at the same size and look is shared.
void GeometryBuilder::addUnion(std::uint32_t index, const UnionShape &shape, const rbx::Look &look,
                               const rbx::Vector3 &size) {
    std::string key = shape.key + ' ' + std::to_string(Bits(size.x)) + ' ' + std::to_string(Bits(size.y)) + ' ' +
                      std::to_string(Bits(size.z)) + ' ' + std::to_string(partMaterial(look));
    const std::vector<unsigned> meshes = FindOrMake(mUnionMeshes, std::move(key), [&] {
        std::vector<unsigned> made;
        for (const UnionPiece &piece : shape.pieces) {
            if (piece.indices.empty()) continue;
            auto mesh = std::make_unique<aiMesh>();
            mesh->mName = ToAiString("union " + shape.source + " " + SizeText(size));
            mesh->mMaterialIndex = partMaterial(piece.ownColour ? piece.look : look);
            mesh->mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
            const auto count = static_cast<unsigned>(piece.positions.size());
            mesh->mNumVertices = count;
            mesh->mVertices = new aiVector3D[count];
            mesh->mNormals = new aiVector3D[count];
            std::copy(piece.positions.begin(), piece.positions.end(), mesh->mVertices);
            std::copy(piece.normals.begin(), piece.normals.end(), mesh->mNormals);
            if (piece.uvs.size() == count) {
                mesh->mTextureCoords[0] = new aiVector3D[count];
                mesh->mNumUVComponents[0] = 2;
                std::copy(piece.uvs.begin(), piece.uvs.end(), mesh->mTextureCoords[0]);
            }
            SetTriangles(*mesh, piece.indices, nullptr);
            made.push_back(addMesh(std::move(mesh)));
        }
        return made;
    });
    aiNode *node = mNodes[index];
    if (node == nullptr || meshes.empty()) return;
    node->mNumMeshes = static_cast<unsigned>(meshes.size());
    node->mMeshes = CopyToNewArray(meshes);
}

// "0.5", not std::to_string's "0.500000".
std::string StudsText(float studs) {
    char text[32];
    std::snprintf(text, sizeof text, "%g", static_cast<double>(studs));
    return text;
}

// docs/formats/roblox-terrain.md §8.4: one mesh per material (and Water) on the Terrain's node, world studs.
void GeometryBuilder::addTerrain(std::uint32_t index) {
    const std::optional<rbx::TerrainData> data = mLooks.terrainData(index);
    if (!data || data->smoothGrid.empty() || mNodes[index] == nullptr) return;
    const std::string prefix = std::string(rbx::kFormatName) + ": Terrain: ";
    rbx::TerrainGrid grid;
    try {
        grid = rbx::DecodeSmoothGrid(reinterpret_cast<const std::uint8_t *>(data->smoothGrid.data()),
                                     data->smoothGrid.size(), mOptions.terrainBudget);
    } catch (const FormatError &e) {
        LogWarn(prefix + "not meshed (" + e.what() + "); its SmoothGrid stays in the file");
        return;
    }
    for (const std::string &w : grid.warnings) LogWarn(prefix + w);
    MetadataBuilder md;
    md.add(kRbxGeometry, "terrain");
    md.add(kRbxTerrainVoxels, static_cast<std::uint64_t>(grid.nonAirVoxels));
    md.add(kRbxTerrainChunks, static_cast<std::uint64_t>(grid.chunks.size()));
    annotate(index, md);
    if (grid.chunks.empty()) return;
    const std::uint64_t voxels = grid.nonAirVoxels;
    const std::size_t chunks = grid.chunks.size(), compact = grid.compactChunks;
    rbx::TerrainMeshOptions options;
    options.stride = mOptions.terrainStride;
    options.water = mOptions.terrainWater;
    options.error = mOptions.terrainError;
    options.threads = mOptions.terrainThreads;
    const rbx::TerrainSurface surface = rbx::MeshTerrain(grid, options);
    grid = rbx::TerrainGrid(); // the voxels are no longer needed
    const auto colours = rbx::TerrainMaterialColors(reinterpret_cast<const std::uint8_t *>(data->materialColors.data()),
                                                    data->materialColors.size());
    std::vector<std::uint32_t> remap(surface.positions.size(), 0xFFFFFFFFu);
    std::vector<unsigned> meshes;
    std::size_t unknown = 0;
    for (std::size_t id = 0; id < surface.trianglesByMaterial.size(); ++id) {
        const std::vector<std::uint32_t> &tris = surface.trianglesByMaterial[id];
        if (tris.empty()) continue;
        const auto m8 = static_cast<std::uint8_t>(id);
        aiColor4D colour;
        const rbx::Look look = TerrainLook(m8, colours, *data, colour);
        if (look.material == rbx::kMaterialPlastic) ++unknown;
        std::string name = "rbx_terrain_" + rbx::TerrainMaterialName(m8) + "_";
        name += Hex6(look.color);
        std::unique_ptr<aiMaterial> m = lookMaterial(name, look, colour);
        if (look.transparency > 0) {
            const float opacity = 1 - look.transparency;
            m->RemoveProperty(AI_MATKEY_OPACITY);
            m->AddProperty(&opacity, 1, AI_MATKEY_OPACITY);
        }
        const unsigned material = addMaterial(std::move(m));
        meshes.push_back(
            addMesh(TerrainMesh(surface, tris, remap, "Terrain_" + rbx::TerrainMaterialName(m8), material)));
    }
    if (unknown != 0) LogWarn(prefix + std::to_string(unknown) + " unknown material id(s) drawn as Plastic grey");
    aiNode *node = mNodes[index];
    node->mNumMeshes = static_cast<unsigned>(meshes.size());
    node->mMeshes = CopyToNewArray(meshes);
    std::size_t triangles = 0;
    for (const auto &tris : surface.trianglesByMaterial) triangles += tris.size() / 3;
    LogInfo(prefix + std::to_string(voxels) + " voxels in " + std::to_string(chunks) + " chunks (" +
            std::to_string(compact) + " stored as layers) → " + std::to_string(meshes.size()) + " mesh(es), " +
            std::to_string(triangles) + " triangles (" + std::to_string(surface.fullTriangles) +
            " before simplification), " + std::to_string(surface.positions.size()) + " vertices (stride " +
            std::to_string(options.stride) + ", error " + StudsText(options.error) + " studs; " +
            std::to_string(surface.meshedChunks) + " chunk(s) with a surface, " +
            std::to_string(surface.unsimplifiedPatches) + " patch(es) left unsimplified)");
}

void GeometryBuilder::appendChild(std::uint32_t index, aiNode *child) {
    aiNode *node = mNodes[index];
    if (child == nullptr) return;
    if (node == nullptr) {
        delete child;
        return;
    }
    auto **children = new aiNode *[node->mNumChildren + 1];
    for (unsigned i = 0; i < node->mNumChildren; ++i) children[i] = node->mChildren[i];
    children[node->mNumChildren] = child;
    delete[] node->mChildren;
    node->mChildren = children;
    ++node->mNumChildren;
    child->mParent = node;
}

unsigned GeometryBuilder::decalMaterial(const rbx::DecalInfo &decal, unsigned image) {
    const rbx::Color3uint8 tint{UnitToByte(decal.color.r), UnitToByte(decal.color.g), UnitToByte(decal.color.b)};
    std::string key = decal.uri + '\n' + Hex6(tint) + '\n' + FormatFloat(decal.transparency);
    return FindOrMake(mDecalLookIndex, std::move(key), [&] { return addMaterial(decalLook(decal, tint, image)); });
}

// A decal's material: its image (embedded texture `image`) tinted by its Color3, blended, with its opacity.
std::unique_ptr<aiMaterial> GeometryBuilder::decalLook(const rbx::DecalInfo &decal, const rbx::Color3uint8 &tint,
                                                       unsigned image) const {
    std::string name = std::string("rbx_") + (decal.tiled ? "Texture_" : "Decal_") + Hex6(tint);
    if (decal.transparency > 0) name += "_t" + FormatFloat(decal.transparency);
    name += "_" + std::to_string(mDecalLookIndex.size());
    std::unique_ptr<aiMaterial> m = ColourMaterial(name, decal.color.r, decal.color.g, decal.color.b);
    const float opacity = 1 - decal.transparency;
    m->AddProperty(&opacity, 1, AI_MATKEY_OPACITY);
    const float metallic = 0, roughness = 0.8f;
    m->AddProperty(&metallic, 1, AI_MATKEY_METALLIC_FACTOR);
    m->AddProperty(&roughness, 1, AI_MATKEY_ROUGHNESS_FACTOR);
    const aiString blend("BLEND"); // decal images have alpha
    m->AddProperty(&blend, AI_MATKEY_GLTF_ALPHAMODE);
    const aiString path("*" + std::to_string(image));
    m->AddProperty(&path, AI_MATKEY_TEXTURE(aiTextureType_DIFFUSE, 0));
    m->AddProperty(&path, AI_MATKEY_TEXTURE(aiTextureType_BASE_COLOR, 0));
    const aiString uri(SanitizeForAiString(decal.uri));
    m->AddProperty(&uri, "$rbx.textureUri", 0, 0);
    return m;
}

// The shape in mScratch as a mesh.
std::unique_ptr<aiMesh> GeometryBuilder::scratchMesh(const std::string &name, unsigned material) const {
    const rbx::ShapeMesh &s = mScratch;
    auto mesh = std::make_unique<aiMesh>();
    mesh->mName = ToAiString(name);
    mesh->mMaterialIndex = material;
    mesh->mPrimitiveTypes = aiPrimitiveType_TRIANGLE;
    const auto count = static_cast<unsigned>(s.positions.size());
    mesh->mNumVertices = count;
    mesh->mVertices = new aiVector3D[count];
    mesh->mNormals = new aiVector3D[count];
    mesh->mTextureCoords[0] = new aiVector3D[count];
    mesh->mNumUVComponents[0] = 2;
    for (unsigned i = 0; i < count; ++i) {
        mesh->mVertices[i] = aiVector3D(s.positions[i].x, s.positions[i].y, s.positions[i].z);
        mesh->mNormals[i] = aiVector3D(s.normals[i].x, s.normals[i].y, s.normals[i].z);
        mesh->mTextureCoords[0][i] = aiVector3D(s.uvs[i].x, s.uvs[i].y, 0);
    }
    const auto faces = static_cast<unsigned>(s.indices.size() / 3);
    mesh->mNumFaces = faces;
    mesh->mFaces = new aiFace[faces];
    for (unsigned f = 0; f < faces; ++f) {
        aiFace &face = mesh->mFaces[f];
        face.mNumIndices = 3;
        const std::size_t at = std::size_t{3} * f;
        face.mIndices = new unsigned[3]{s.indices[at], s.indices[at + 1], s.indices[at + 2]};
    }
    return mesh;
}

unsigned GeometryBuilder::addMesh(std::unique_ptr<aiMesh> mesh) {
    mMeshes.push_back(std::move(mesh));
    return static_cast<unsigned>(mMeshes.size() - 1);
}

unsigned GeometryBuilder::addMaterial(std::unique_ptr<aiMaterial> material) {
    mMaterials.push_back(std::move(material));
    return static_cast<unsigned>(mMaterials.size() - 1);
}

int GeometryBuilder::addTexture(std::unique_ptr<aiTexture> texture) {
    mTextures.push_back(std::move(texture));
    return static_cast<int>(mTextures.size() - 1);
}

void GeometryBuilder::attach(std::uint32_t index, unsigned mesh) {
    aiNode *node = mNodes[index];
    if (node == nullptr) return;
    node->mNumMeshes = 1;
    node->mMeshes = new unsigned[1]{mesh};
}

void GeometryBuilder::annotate(std::uint32_t index, MetadataBuilder &md) {
    if (mNodes[index] != nullptr) md.mergeInto(mNodes[index]->mMetaData);
}

void GeometryBuilder::warnings() const {
    const std::string prefix = std::string(rbx::kFormatName) + ": ";
    mAvatars.warnings();
    if (mPlaceholders != 0)
        LogWarn(prefix + std::to_string(mPlaceholders) +
                " MeshPart(s), FileMesh(es) or union(s) drawn as placeholder boxes of their size (their meshes are "
                "not in the file and not in the asset folders, GAMEFMT_RBX_ASSET_DIR / --asset-dir; the asset URI "
                "is in node metadata rbx.unresolved; `gamefmt assets --missing` lists them)");
    if (mApproximated != 0)
        LogWarn(prefix + std::to_string(mApproximated) +
                " SpecialMesh(es) of type Head, Torso, Prism, Pyramid, ramp or CornerWedge drawn as the nearest "
                "simple shape");
    for (const auto &[kind, count] : mUnionKinds)
        LogInfo(prefix + std::to_string(count) + " union(s) drawn from " +
                (kind == "union-mesh"    ? "their own render mesh"
                 : kind == "union-parts" ? "their source parts"
                                         : "their physics hulls"));
    if (mMeshesLoaded != 0)
        LogInfo(prefix + std::to_string(mMeshesLoaded) + " mesh asset(s) loaded from the asset folders");
    if (mBadMeshes != 0)
        LogWarn(prefix + std::to_string(mBadMeshes) +
                " mesh asset file(s) found but not readable as Roblox meshes; their parts are placeholder boxes");
    if (mUncombinedMaps != 0)
        LogWarn(prefix + std::to_string(mUncombinedMaps) +
                " SurfaceAppearance metalness/roughness map pair(s) not combined into a glTF metallic-roughness "
                "image (a map is not a readable PNG); they stay as METALNESS / DIFFUSE_ROUGHNESS textures");
    if (mUnresolvedImages != 0)
        LogWarn(prefix + std::to_string(mUnresolvedImages) +
                " image(s) not found (give the folder of downloaded assets with GAMEFMT_RBX_ASSET_DIR / --asset-dir): "
                "decals without their image are left out, their URI in node metadata rbx.unresolved; meshes are "
                "drawn in their part's colour");
    if (mNonFinite != 0)
        LogWarn(prefix + std::to_string(mNonFinite) +
                " part(s) whose size or mesh offset is not a finite number have no geometry (their nodes stay)");
    if (mUnknownBrickColors != 0)
        LogWarn(prefix + std::to_string(mUnknownBrickColors) +
                " part(s) with a BrickColor number not in the palette, drawn in Medium stone grey (194)");
}

template <typename T> T **Release(std::vector<std::unique_ptr<T>> &items, unsigned &count) {
    count = static_cast<unsigned>(items.size());
    if (items.empty()) return nullptr;
    T **out = new T *[items.size()];
    for (std::size_t i = 0; i < items.size(); ++i) out[i] = items[i].release();
    items.clear();
    return out;
}

void GeometryBuilder::finish(aiScene *scene) {
    warnings();
    scene->mMeshes = Release(mMeshes, scene->mNumMeshes);
    scene->mMaterials = Release(mMaterials, scene->mNumMaterials);
    scene->mTextures = Release(mTextures, scene->mNumTextures);
    scene->mLights = Release(mLights, scene->mNumLights);
    scene->mCameras = Release(mCameras, scene->mNumCameras);
}

} // namespace

void AddRobloxGeometry(const rbx::Document &doc, const std::vector<aiNode *> &nodes,
                       const std::vector<std::uint32_t> &order, bool isPlace, const RbxGeometryOptions &options,
                       aiScene *scene, UniqueNames *names) {
    if (!options.enabled) return;
    GeometryBuilder builder(doc, nodes, options, names);
    builder.run(order, isPlace);
    builder.finish(scene);
}

std::unique_ptr<aiLight> RobloxSunLight(const rbx::Document &doc, const std::string &nodeName) {
    const std::optional<rbx::SunInfo> sun = Appearance(doc).sun();
    if (!sun || !(sun->towardSun.y > 0)) return nullptr;
    auto light = std::make_unique<aiLight>();
    light->mName = ToAiString(nodeName);
    light->mType = aiLightSource_DIRECTIONAL;
    light->mDirection = aiVector3D(-sun->towardSun.x, -sun->towardSun.y, -sun->towardSun.z);
    light->mUp = aiVector3D(0, 0, -1);
    const aiColor3D colour(sun->brightness, sun->brightness, sun->brightness);
    light->mColorDiffuse = colour;
    light->mColorSpecular = colour;
    light->mAttenuationConstant = 1;
    return light;
}

} // namespace gamefmt::glue
