// Generic scenes → Roblox models and places with sidecar meshes and images (docs/formats/roblox-model.md §6).
//
// Each MeshPart's sidecar holds its mesh in the part's frame: the node's world matrix (in studs) is split into a
// rotation R (orthonormalised; a mirroring or skewing rest stays in the vertices) and a translation t, the
// vertices become Rᵀ(world·v − t) through the Roblox mesh exporter (which bakes node transforms, bones and
// normals), and are centred on their bounds c. The part's CFrame is (R, t + R·c), InitialSize and size the bounds'
// extent, so the Roblox importer's size / InitialSize placement gives the world vertices back.
#include "assimp_glue/roblox_model/generic_export.hpp"

#include "assimp_glue/common/roblox_mesh_extract.hpp"
#include "assimp_glue/common/scene_util.hpp"
#include "assimp_glue/roblox_model/assets.hpp"
#include "common/error.hpp"
#include "common/png.hpp"
#include "common/text_number.hpp"
#include "importers/roblox_mesh/mesh_builder.hpp"
#include "importers/roblox_mesh/mesh_writer.hpp"
#include "importers/roblox_model/appearance/appearance.hpp"

#include <assimp/material.h>
#include <assimp/scene.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <string_view>
#include <unordered_map>

namespace gamefmt::glue {
namespace {

constexpr const char *kFormat = "Roblox model";
constexpr float kMinPartSize = 0.001f, kMaxPartSize = 2048.0f; // Studio's MeshPart size limits (§6, unverified)
constexpr std::uint32_t kSmoothPlastic = 272;
constexpr std::size_t kMaxDepth = 4096;

struct Frame {
    aiMatrix3x3 r; // columns: the part's right, up and back vectors
    aiVector3D t;  // the node origin in studs
    bool mirrored = false;
    bool degenerate = false; // a zero or non-finite axis: the identity rotation is used
};

Frame FrameOf(const aiMatrix4x4 &m) {
    Frame f;
    f.t = aiVector3D(m.a4, m.b4, m.c4);
    const aiVector3D c0(m.a1, m.b1, m.c1), c1(m.a2, m.b2, m.c2), c2(m.a3, m.b3, m.c3);
    const float l0 = c0.Length();
    if (!(l0 > 1e-12f) || !std::isfinite(l0)) {
        f.degenerate = true;
        return f;
    }
    const aiVector3D x = c0 / l0;
    aiVector3D y = c1 - x * (x * c1);
    const float l1 = y.Length();
    if (!(l1 > 1e-12f) || !std::isfinite(l1)) {
        f.degenerate = true;
        return f;
    }
    y /= l1;
    const aiVector3D z = x ^ y;
    f.mirrored = z * c2 < 0;
    f.r = aiMatrix3x3(x.x, y.x, z.x, x.y, y.y, z.y, x.z, y.z, z.z);
    return f;
}

// [Rᵀ | −Rᵀt]: world studs → the part's frame.
aiMatrix4x4 ToPartFrame(const Frame &f) {
    aiMatrix3x3 rt = f.r;
    rt.Transpose();
    const aiVector3D back = rt * f.t;
    aiMatrix4x4 m(rt);
    m.a4 = -back.x;
    m.b4 = -back.y;
    m.c4 = -back.z;
    return m;
}

// A copy of the node tree without meshes or metadata; *target receives the copy of `wanted`.
aiNode *CopyBare(const aiNode *node, const aiNode *wanted, aiNode **target, std::size_t depth) {
    if (depth > kMaxDepth) throw FormatError(kFormat, "the node tree is deeper than " + std::to_string(kMaxDepth));
    auto copy = std::make_unique<aiNode>(node->mName.C_Str());
    copy->mTransformation = node->mTransformation;
    if (node == wanted) *target = copy.get();
    if (node->mNumChildren != 0) {
        copy->mChildren = new aiNode *[node->mNumChildren]();
        for (unsigned i = 0; i < node->mNumChildren; ++i) {
            copy->mChildren[i] = CopyBare(node->mChildren[i], wanted, target, depth + 1);
            copy->mChildren[i]->mParent = copy.get();
            copy->mNumChildren = i + 1; // what a throw below must free
        }
    }
    return copy.release();
}

struct Sidecar {
    std::vector<std::uint8_t> bytes;
    aiVector3D centre, extent;
};

// The sidecar .mesh of `meshIndex` as node `node` (world matrix `world`, in studs) shows it, in frame `f`.
Sidecar MakeSidecarMesh(const aiScene &scene, const aiNode &node, const aiMatrix4x4 &studsRoot,
                        const aiMatrix4x4 &world, unsigned meshIndex, const Frame &f, const std::string &version) {
    aiScene temp;
    temp.mRootNode = new aiNode("part");
    temp.mRootNode->mTransformation = ToPartFrame(f);
    temp.mNumMeshes = 1;
    temp.mMeshes = new aiMesh *[1] { scene.mMeshes[meshIndex] };
    struct Lend { // the mesh is the caller's: never deleted with the temporary scene
        aiScene &s;
        ~Lend() { s.mMeshes[0] = nullptr; }
    } lend{temp};
    aiNode *top = nullptr;    // hangs under the temporary root
    aiNode *holder = nullptr; // gets the mesh
    if (scene.mMeshes[meshIndex]->mNumBones == 0) {
        top = holder = new aiNode("mesh");
        holder->mTransformation = world;
    } else {
        // The bones are nodes of the scene: the whole tree comes along (without meshes) so their globals match.
        top = CopyBare(scene.mRootNode, &node, &holder, 0);
        top->mTransformation = studsRoot * scene.mRootNode->mTransformation;
    }
    temp.mRootNode->mChildren = new aiNode *[1] { top };
    temp.mRootNode->mNumChildren = 1;
    top->mParent = temp.mRootNode;
    holder->mNumMeshes = 1;
    holder->mMeshes = new unsigned[1]{0};

    RobloxMeshSceneInput extracted = ExtractRobloxMeshInput(temp);
    rbxmesh::BuildInput &in = extracted.input;
    constexpr float kBig = std::numeric_limits<float>::max();
    aiVector3D lo(kBig, kBig, kBig), hi(-kBig, -kBig, -kBig);
    for (const rbxmesh::Vertex &v : in.vertices) {
        lo = aiVector3D(std::fmin(lo.x, v.px), std::fmin(lo.y, v.py), std::fmin(lo.z, v.pz));
        hi = aiVector3D(std::fmax(hi.x, v.px), std::fmax(hi.y, v.py), std::fmax(hi.z, v.pz));
    }
    Sidecar out;
    out.centre = (lo + hi) * 0.5f;
    out.extent = hi - lo;
    if (!std::isfinite(out.centre.x + out.centre.y + out.centre.z + out.extent.x + out.extent.y + out.extent.z))
        throw FormatError(kFormat, "mesh '" + std::string(scene.mMeshes[meshIndex]->mName.C_Str()) +
                                       "' has vertices that are not finite numbers");
    for (rbxmesh::Vertex &v : in.vertices) {
        v.px -= out.centre.x;
        v.py -= out.centre.y;
        v.pz -= out.centre.z;
    }
    for (rbxmesh::BoneInput &b : in.bones) {
        b.position[0] -= out.centre.x;
        b.position[1] -= out.centre.y;
        b.position[2] -= out.centre.z;
    }
    rbxmesh::BuildOptions build;
    build.version = version;
    build.generateLods = false; // Roblox makes its own levels when the mesh is uploaded
    rbxmesh::RobloxMesh mesh = rbxmesh::BuildRobloxMesh(in, build);
    for (const std::string &w : mesh.warnings) LogWarn("Roblox model export: sidecar mesh: " + w);
    out.bytes = rbxmesh::WriteRobloxMesh(mesh);
    return out;
}

float ToSrgb(float linear) {
    if (!(linear > 0)) return 0;
    if (linear >= 1) return 1;
    return linear <= 0.0031308f ? linear * 12.92f : 1.055f * std::pow(linear, 1 / 2.4f) - 0.055f;
}

float Clamp01(float v) {
    if (!(v > 0)) return 0;
    return v < 1 ? v : 1;
}

struct PartLook {
    rbx::Color3uint8 color{163, 162, 165};
    float transparency = 0, reflectance = 0;
    std::uint32_t material = kSmoothPlastic;
    std::string texturePath; // the material's base colour / diffuse texture, if any
};

PartLook LookOf(const aiScene &scene, const aiMaterial *m) {
    PartLook look;
    if (m == nullptr) return look;
    aiColor4D c(1, 1, 1, 1);
    if (IsGltfSource(scene) && m->Get(AI_MATKEY_BASE_COLOR, c) == aiReturn_SUCCESS) {
        c = aiColor4D(ToSrgb(c.r), ToSrgb(c.g), ToSrgb(c.b), c.a); // glTF factors are linear, Roblox's sRGB
    } else if (m->Get(AI_MATKEY_COLOR_DIFFUSE, c) != aiReturn_SUCCESS) {
        m->Get(AI_MATKEY_BASE_COLOR, c);
    }
    look.color = {UnitToByte(c.r), UnitToByte(c.g), UnitToByte(c.b)};
    float opacity = 1;
    if (m->Get(AI_MATKEY_OPACITY, opacity) == aiReturn_SUCCESS)
        look.transparency = 1 - Clamp01(opacity);
    else
        look.transparency = 1 - Clamp01(c.a);
    float reflectivity = 0;
    if (m->Get(AI_MATKEY_REFLECTIVITY, reflectivity) == aiReturn_SUCCESS) look.reflectance = Clamp01(reflectivity);
    int material = 0;
    if (m->Get("$rbx.material", 0, 0, material) == aiReturn_SUCCESS && material > 0 &&
        rbx::MaterialName(static_cast<std::uint32_t>(material)) != nullptr)
        look.material = static_cast<std::uint32_t>(material);
    aiString path;
    if (m->GetTexture(aiTextureType_BASE_COLOR, 0, &path) == aiReturn_SUCCESS ||
        m->GetTexture(aiTextureType_DIFFUSE, 0, &path) == aiReturn_SUCCESS)
        look.texturePath = path.C_Str();
    return look;
}

class Builder {
public:
    Builder(const aiScene &scene, const GenericRbxOptions &options, GenericRbxResult &out)
        : mScene(scene), mOptions(options), mOut(out) {}
    void run();

private:
    void addMeshPart(const aiNode &node, const aiMatrix4x4 &world, unsigned meshIndex, std::uint32_t parent);
    std::string textureFile(const std::string &path);
    void warn(const std::string &text) { mOut.warnings.push_back(text); }

    const aiScene &mScene;
    const GenericRbxOptions &mOptions;
    GenericRbxResult &mOut;
    aiMatrix4x4 mStudsRoot;
    // Sidecar meshes by a hash of their bytes → their index in mOut.sidecars (the bytes are held once, there).
    std::unordered_multimap<std::size_t, std::size_t> mMeshByHash;
    std::size_t mMeshFileCount = 0;
    std::map<std::string, std::string> mTextureFiles; // material texture path → file name ("" = none)
    std::size_t mMirrored = 0, mDegenerate = 0, mClamped = 0, mFailed = 0;
};

void Builder::run() {
    rbx::Document &doc = mOut.doc;
    const double studs = StudsPerSceneUnit(mScene);
    mStudsRoot.a1 = mStudsRoot.b2 = mStudsRoot.c3 = static_cast<ai_real>(studs);
    std::uint32_t top = rbx::kNoInstance;
    if (mOptions.place) {
        top = doc.addInstance("Workspace", "Workspace", rbx::kNoInstance);
        doc.instances[top].isService = true;
    } else {
        doc.meta.emplace_back("ExplicitAutoJoints", "true");
    }
    struct Item {
        const aiNode *node;
        std::uint32_t parent;
        aiMatrix4x4 parentWorld;
        std::size_t depth;
    };
    std::vector<Item> stack{{mScene.mRootNode, top, mStudsRoot, 0}};
    while (!stack.empty()) {
        const Item item = stack.back();
        stack.pop_back();
        const aiNode &node = *item.node;
        if (item.depth > kMaxDepth)
            throw FormatError(kFormat, "the node tree is deeper than " + std::to_string(kMaxDepth));
        const aiMatrix4x4 world = item.parentWorld * node.mTransformation;
        const bool model = node.mNumMeshes != 0 || node.mNumChildren != 0;
        std::string name = node.mName.C_Str();
        if (name.empty()) name = model ? "Model" : "Folder";
        const std::uint32_t self = doc.addInstance(model ? "Model" : "Folder", name, item.parent);
        for (unsigned i = 0; i < node.mNumMeshes; ++i)
            if (node.mMeshes[i] < mScene.mNumMeshes && mScene.mMeshes[node.mMeshes[i]] != nullptr)
                addMeshPart(node, world, node.mMeshes[i], self);
        for (unsigned i = node.mNumChildren; i-- > 0;)
            if (node.mChildren[i] != nullptr) stack.push_back({node.mChildren[i], self, world, item.depth + 1});
    }
    if (mMirrored != 0)
        warn(std::to_string(mMirrored) + " mesh instance(s) under a mirroring transform: the mirror is baked into "
                                         "the sidecar mesh (a Roblox CFrame is a rotation)");
    if (mDegenerate != 0)
        warn(std::to_string(mDegenerate) + " mesh instance(s) under a transform without a usable rotation (a zero "
                                           "scale): written unrotated");
    if (mClamped != 0)
        warn(std::to_string(mClamped) + " MeshPart(s) larger than " + FormatFloat(kMaxPartSize) +
             " studs on an axis: size clamped, so Roblox shows them smaller than the source");
    if (mFailed != 0)
        warn(std::to_string(mFailed) + " mesh(es) could not be written as Roblox meshes and were left out");
}

void Builder::addMeshPart(const aiNode &node, const aiMatrix4x4 &world, unsigned meshIndex, std::uint32_t parent) {
    const aiMesh &mesh = *mScene.mMeshes[meshIndex];
    const Frame f = FrameOf(world);
    Sidecar sidecar;
    try {
        sidecar = MakeSidecarMesh(mScene, node, mStudsRoot, world, meshIndex, f, mOptions.meshVersion);
    } catch (const FormatError &e) {
        ++mFailed;
        LogWarn(std::string("Roblox model export: mesh '") + SanitizeForAiString(mesh.mName.C_Str(), 100) +
                "' left out: " + e.what());
        return;
    }
    if (f.mirrored) ++mMirrored;
    if (f.degenerate) ++mDegenerate;
    // Identical sidecars (one mesh under nodes of the same scale) are written once.
    const std::size_t hash = std::hash<std::string_view>()(
        std::string_view(reinterpret_cast<const char *>(sidecar.bytes.data()), sidecar.bytes.size()));
    std::string file;
    const auto [first, last] = mMeshByHash.equal_range(hash);
    for (auto it = first; it != last && file.empty(); ++it)
        if (mOut.sidecars[it->second].second == sidecar.bytes) file = mOut.sidecars[it->second].first;
    if (file.empty()) {
        file = mOptions.stem + "_" + std::to_string(mMeshFileCount++) + ".mesh";
        mMeshByHash.emplace(hash, mOut.sidecars.size());
        mOut.sidecars.emplace_back(file, std::move(sidecar.bytes));
    }

    rbx::Document &doc = mOut.doc;
    std::string name = mesh.mName.C_Str();
    if (name.empty()) name = node.mName.C_Str();
    if (name.empty()) name = "MeshPart";
    const std::uint32_t part = doc.addInstance("MeshPart", name, parent);
    const auto add = [&](const char *prop, rbx::Type type, rbx::ValueData data,
                         rbx::XmlTag tag = rbx::XmlTag::Default) {
        rbx::Property p;
        p.name = doc.names.intern(prop);
        p.value.type = type;
        p.value.data = std::move(data);
        p.value.xmlTag = tag;
        doc.instances[part].properties.push_back(std::move(p));
    };
    const auto content = [&](const char *prop, const std::string &fileName) {
        if (fileName.empty())
            add(prop, rbx::Type::String, std::string(), rbx::XmlTag::ContentNull);
        else
            add(prop, rbx::Type::String, mOptions.uriPrefix + fileName, rbx::XmlTag::ContentUrl);
    };
    const PartLook look =
        LookOf(mScene, mesh.mMaterialIndex < mScene.mNumMaterials ? mScene.mMaterials[mesh.mMaterialIndex] : nullptr);
    rbx::CFrame frame;
    const aiVector3D at = f.t + f.r * sidecar.centre;
    frame.position = {at.x, at.y, at.z};
    frame.rotation = {f.r.a1, f.r.a2, f.r.a3, f.r.b1, f.r.b2, f.r.b3, f.r.c1, f.r.c2, f.r.c3};
    const aiVector3D e = sidecar.extent;
    if (e.x > kMaxPartSize || e.y > kMaxPartSize || e.z > kMaxPartSize) ++mClamped;
    const auto clamp = [](float v) { return std::clamp(v, kMinPartSize, kMaxPartSize); };
    const rbx::Vector3 size{clamp(e.x), clamp(e.y), clamp(e.z)};
    add("Anchored", rbx::Type::Bool, true);
    add("CFrame", rbx::Type::CFrame, frame);
    add("Color3uint8", rbx::Type::Color3uint8, look.color);
    add("InitialSize", rbx::Type::Vector3, rbx::Vector3{e.x, e.y, e.z});
    add("Material", rbx::Type::Enum, rbx::EnumValue{look.material});
    content("MeshId", file);
    add("Reflectance", rbx::Type::Float32, look.reflectance);
    content("TextureID", look.texturePath.empty() ? std::string() : textureFile(look.texturePath));
    add("Transparency", rbx::Type::Float32, look.transparency);
    add("size", rbx::Type::Vector3, size);
}

// The sidecar image of a material texture: embedded PNG/JPEG bytes as they are, uncompressed texels encoded as
// PNG, an external file read through options.readFile. "" (and a warning) when it cannot be had.
std::string Builder::textureFile(const std::string &path) {
    const auto found = mTextureFiles.find(path);
    if (found != mTextureFiles.end()) return found->second;
    std::vector<std::uint8_t> bytes;
    std::string ext;
    if (const aiTexture *t = mScene.GetEmbeddedTexture(path.c_str()); t != nullptr && t->pcData != nullptr) {
        if (t->mHeight == 0) {
            const auto *data = reinterpret_cast<const std::uint8_t *>(t->pcData);
            bytes.assign(data, data + t->mWidth);
        } else {
            std::vector<std::uint8_t> rgba(std::size_t(t->mWidth) * t->mHeight * 4);
            for (std::size_t i = 0; i < std::size_t(t->mWidth) * t->mHeight; ++i) {
                rgba[i * 4] = t->pcData[i].r;
                rgba[i * 4 + 1] = t->pcData[i].g;
                rgba[i * 4 + 2] = t->pcData[i].b;
                rgba[i * 4 + 3] = t->pcData[i].a;
            }
            try {
                bytes = EncodePngRgba(rgba.data(), t->mWidth, t->mHeight, kFormat);
            } catch (const FormatError &) {
                bytes.clear();
            }
        }
    } else if (!path.empty() && path[0] != '*' && mOptions.readFile) {
        if (!mOptions.readFile(path, bytes)) bytes.clear();
    }
    ext = SniffImage(bytes.data(), bytes.size());
    std::string file;
    if (bytes.empty() || ext.empty()) {
        warn("texture '" + SanitizeForAiString(path, 200) +
             (bytes.empty() ? "' not found or not readable" : "' is neither PNG nor JPEG (what Roblox reads)") +
             "; its MeshParts have no TextureID");
    } else {
        file = mOptions.stem + "_tex" + std::to_string(mTextureFiles.size()) + "." + ext;
        mOut.sidecars.emplace_back(file, std::move(bytes));
    }
    mTextureFiles.emplace(path, file);
    return file;
}

} // namespace

GenericRbxResult GenericSceneToRoblox(const aiScene &scene, const GenericRbxOptions &options) {
    if (scene.mRootNode == nullptr) throw FormatError(kFormat, "the scene has no root node");
    GenericRbxResult out;
    Builder(scene, options, out).run();
    return out;
}

} // namespace gamefmt::glue
