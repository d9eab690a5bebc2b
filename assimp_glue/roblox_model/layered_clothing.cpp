// Layered clothing (layered_clothing.hpp; docs/formats/roblox-avatar.md §3).
#include "assimp_glue/roblox_model/layered_clothing.hpp"

#include "assimp_glue/common/scene_util.hpp"
#include "assimp_glue/roblox_model/mesh_assets.hpp"
#include "common/error.hpp"
#include "gamefmt/metadata.hpp"
#include "importers/roblox_model/appearance/appearance.hpp"
#include "importers/roblox_model/avatar/characters.hpp"
#include "importers/roblox_model/document/properties.hpp"
#include "meshing/cage_fit.hpp"

#include <assimp/SceneCombiner.h>
#include <assimp/scene.h>

#include <algorithm>
#include <map>
#include <memory>
#include <set>
#include <string>

namespace gamefmt::glue {
namespace {

aiMatrix4x4 Global(const aiNode *node) {
    aiMatrix4x4 m;
    for (; node != nullptr; node = node->mParent) m = node->mTransformation * m;
    return m;
}

aiVector3D ToAi(const Vec3d &v) {
    return {static_cast<float>(v.x), static_cast<float>(v.y), static_cast<float>(v.z)};
}

Vec3d FromAi(const aiVector3D &v) {
    return {v.x, v.y, v.z};
}

class LayeredFitter {
public:
    LayeredFitter(const rbx::Document &doc, const std::vector<aiNode *> &nodes, const RbxGeometryOptions &options,
                  aiScene *scene)
        : mDoc(doc), mNodes(nodes), mOptions(options), mScene(scene), mLooks(doc), mUses(scene->mNumMeshes, 0) {
        std::vector<const aiNode *> stack{scene->mRootNode};
        while (!stack.empty()) {
            const aiNode *n = stack.back();
            stack.pop_back();
            if (n == nullptr) continue;
            for (unsigned k = 0; k < n->mNumMeshes; ++k)
                if (n->mMeshes[k] < mUses.size()) ++mUses[n->mMeshes[k]];
            for (unsigned c = 0; c < n->mNumChildren; ++c) stack.push_back(n->mChildren[c]);
        }
    }

    void character(const rbx::Character &ch);
    void finish(); // the fitted meshes join the scene
    void warnings() const;

private:
    const RbxMeshTemplate *mesh(const std::string &uri);
    // The cage `uri` in world space: v ↦ world · ((origin · v)∘scale + shift), the MeshPart `part`'s placement.
    bool cage(const std::string &uri, const Rigid &origin, std::uint32_t part, const aiMatrix4x4 &world,
              meshing::Cage &out);
    bool placement(std::uint32_t part, aiVector3D &scale, aiVector3D &shift);
    void layer(const rbx::WrapInfo &w, meshing::Cage &surface, const std::vector<std::uint32_t> &owner);
    void mark(std::uint32_t part, const char *what);
    std::string accessoryName(const rbx::WrapInfo &w) const;

    const rbx::Document &mDoc;
    const std::vector<aiNode *> &mNodes;
    const RbxGeometryOptions &mOptions;
    aiScene *mScene;
    rbx::Appearance mLooks;
    std::map<std::string, std::unique_ptr<RbxMeshTemplate>> mTemplates;
    std::vector<std::unique_ptr<aiMesh>> mAdded;
    std::vector<unsigned> mUses; // nodes showing each of the scene's meshes
    std::set<std::string> mNoBody, mNoCage, mNoMesh;
    std::size_t mFitted = 0, mUnmatched = 0;
};

const RbxMeshTemplate *LayeredFitter::mesh(const std::string &uri) {
    const auto found = mTemplates.find(uri);
    if (found != mTemplates.end()) return found->second.get();
    std::unique_ptr<RbxMeshTemplate> t;
    if (mOptions.assets && !uri.empty())
        if (std::optional<RbxAsset> file = mOptions.assets(uri, RbxAssetKind::Mesh)) {
            try {
                t = LoadRbxMeshTemplate(file->bytes.data(), file->bytes.size());
            } catch (const FormatError &) {
                t.reset(); // counted as missing by the caller
            }
        }
    return mTemplates.emplace(uri, std::move(t)).first->second.get();
}

bool LayeredFitter::placement(std::uint32_t part, aiVector3D &scale, aiVector3D &shift) {
    const rbx::PartGeometry g = mLooks.geometry(part);
    const RbxMeshTemplate *t = g.asset == rbx::MeshAsset::MeshPart ? mesh(g.uri) : nullptr;
    if (t == nullptr) return false;
    MeshPartPlacement(*t, aiVector3D(g.size.x, g.size.y, g.size.z),
                      aiVector3D(g.initialSize.x, g.initialSize.y, g.initialSize.z), scale, shift);
    return true;
}

bool LayeredFitter::cage(const std::string &uri, const Rigid &origin, std::uint32_t part, const aiMatrix4x4 &world,
                         meshing::Cage &out) {
    const RbxMeshTemplate *t = mesh(uri);
    aiVector3D scale(1, 1, 1), shift;
    if (t == nullptr || !placement(part, scale, shift)) return false;
    const aiMesh *m = t->mesh();
    for (unsigned v = 0; v < m->mNumVertices; ++v) {
        const aiVector3D &p = m->mVertices[v];
        const Vec3d o = origin.p + Vec3d{origin.r[0] * p.x + origin.r[1] * p.y + origin.r[2] * p.z,
                                         origin.r[3] * p.x + origin.r[4] * p.y + origin.r[5] * p.z,
                                         origin.r[6] * p.x + origin.r[7] * p.y + origin.r[8] * p.z};
        const aiVector3D local(static_cast<float>(o.x) * scale.x + shift.x, static_cast<float>(o.y) * scale.y + shift.y,
                               static_cast<float>(o.z) * scale.z + shift.z);
        out.positions.push_back(FromAi(world * local));
        const aiVector3D uv = m->mTextureCoords[0] != nullptr ? m->mTextureCoords[0][v] : aiVector3D();
        out.uvs.push_back({uv.x, uv.y});
    }
    return true;
}

void LayeredFitter::mark(std::uint32_t part, const char *what) {
    if (part >= mNodes.size() || mNodes[part] == nullptr) return;
    MetadataBuilder md;
    md.add(kRbxLayered, what);
    md.mergeInto(mNodes[part]->mMetaData);
}

std::string LayeredFitter::accessoryName(const rbx::WrapInfo &w) const {
    const std::uint32_t named = w.accessory != rbx::kNoInstance ? w.accessory : w.part;
    return "'" + SanitizeForAiString(mDoc.instances[named].name, 100) + "'";
}

void LayeredFitter::character(const rbx::Character &ch) {
    if (ch.layers.empty()) return;
    // §3.3 step 1: the body's cage in rig space at rest, part by part; each vertex remembers its part (the bone that
    // skins what fits onto it).
    meshing::Cage surface;
    std::vector<std::uint32_t> owner;
    for (const rbx::WrapInfo &t : ch.targets) {
        if (mNodes[t.part] == nullptr) continue;
        if (!cage(t.cage, t.cageOrigin, t.part, Global(mNodes[t.part]), surface)) continue;
        owner.resize(surface.positions.size(), t.part);
    }
    std::vector<rbx::WrapInfo> layers = ch.layers;
    std::stable_sort(layers.begin(), layers.end(),
                     [](const rbx::WrapInfo &a, const rbx::WrapInfo &b) { return a.order < b.order; });
    for (const rbx::WrapInfo &w : layers) {
        if (surface.positions.empty()) {
            mNoBody.insert(accessoryName(w));
            mark(w.part, "no body cages");
            continue;
        }
        layer(w, surface, owner);
    }
}

void LayeredFitter::layer(const rbx::WrapInfo &w, meshing::Cage &surface, const std::vector<std::uint32_t> &owner) {
    aiNode *node = mNodes[w.part];
    if (node == nullptr || node->mNumMeshes != 1 || node->mMeshes[0] >= mScene->mNumMeshes) {
        mNoMesh.insert(accessoryName(w));
        mark(w.part, "mesh missing");
        return;
    }
    const aiMatrix4x4 world = Global(node);
    meshing::Cage inner, outer;
    if (!cage(w.reference, w.referenceOrigin, w.part, world, inner) ||
        !cage(w.cage, w.cageOrigin, w.part, world, outer)) {
        mNoCage.insert(accessoryName(w));
        mark(w.part, "cage missing");
        return;
    }
    const aiMesh *authored = mScene->mMeshes[node->mMeshes[0]];
    std::vector<Vec3d> vertices;
    vertices.reserve(authored->mNumVertices);
    for (unsigned v = 0; v < authored->mNumVertices; ++v) vertices.push_back(FromAi(world * authored->mVertices[v]));
    const meshing::LayerFit fit = meshing::FitLayer(surface, inner, outer, vertices);
    mUnmatched += fit.unmatched;
    surface = fit.surface;

    aiMesh *raw = nullptr;
    Assimp::SceneCombiner::Copy(&raw, authored);
    std::unique_ptr<aiMesh> fitted(raw);
    aiMatrix4x4 toLocal = world;
    toLocal.Inverse();
    for (unsigned v = 0; v < fitted->mNumVertices; ++v) fitted->mVertices[v] = toLocal * ToAi(fit.mesh[v]);
    // §3.5 auto-skin: each vertex rides on the body part its nearest inner-cage vertex's partner belongs to.
    if (w.autoSkin != 0 || fitted->mNumBones == 0) {
        for (unsigned b = 0; b < fitted->mNumBones; ++b) delete fitted->mBones[b];
        delete[] fitted->mBones;
        fitted->mBones = nullptr;
        fitted->mNumBones = 0;
        std::map<std::uint32_t, std::vector<aiVertexWeight>> byPart;
        for (unsigned v = 0; v < fitted->mNumVertices; ++v) {
            const std::int64_t from = fit.skinFrom[v];
            const std::uint32_t part = from >= 0 && static_cast<std::size_t>(from) < owner.size()
                                           ? owner[static_cast<std::size_t>(from)]
                                           : owner.front();
            byPart[part].push_back(aiVertexWeight(v, 1.0f));
        }
        std::vector<aiBone *> bones;
        for (auto &[part, weights] : byPart) {
            if (mNodes[part] == nullptr) continue;
            auto *bone = new aiBone();
            bone->mName = mNodes[part]->mName;
            aiMatrix4x4 offset = Global(mNodes[part]);
            offset.Inverse();
            bone->mOffsetMatrix = offset * world;
            bone->mNumWeights = static_cast<unsigned>(weights.size());
            bone->mWeights = new aiVertexWeight[weights.size()];
            std::copy(weights.begin(), weights.end(), bone->mWeights);
            bones.push_back(bone);
        }
        fitted->mNumBones = static_cast<unsigned>(bones.size());
        fitted->mBones = CopyToNewArray(bones);
    }
    // The authored mesh is replaced where it is when no other node shows it (an unused mesh would be exported, and
    // Assimp's PreTransformVertices leaks unused meshes' faces), else the fitted one is added.
    if (mUses[node->mMeshes[0]] == 1) {
        delete mScene->mMeshes[node->mMeshes[0]];
        mScene->mMeshes[node->mMeshes[0]] = fitted.release();
    } else {
        --mUses[node->mMeshes[0]];
        node->mMeshes[0] = mScene->mNumMeshes + static_cast<unsigned>(mAdded.size());
        mAdded.push_back(std::move(fitted));
    }
    mark(w.part, "fitted");
    ++mFitted;
}

void LayeredFitter::finish() {
    if (mAdded.empty()) return;
    std::vector<aiMesh *> all(mScene->mMeshes, mScene->mMeshes + mScene->mNumMeshes);
    for (auto &m : mAdded) all.push_back(m.release());
    delete[] mScene->mMeshes;
    mScene->mNumMeshes = static_cast<unsigned>(all.size());
    mScene->mMeshes = CopyToNewArray(all);
    mAdded.clear();
}

void LayeredFitter::warnings() const {
    const std::string prefix = std::string(rbx::kFormatName) + ": ";
    const auto list = [](const std::set<std::string> &names) {
        std::string out;
        for (const std::string &n : names) out += (out.empty() ? "" : ", ") + n;
        return SanitizeForAiString(out, 600);
    };
    if (mFitted != 0) LogInfo(prefix + std::to_string(mFitted) + " layered clothing item(s) fitted onto their bodies");
    if (!mNoBody.empty())
        LogWarn(prefix +
                "layered clothing kept as authored, its character has no WrapTarget cage in the asset folders: " +
                list(mNoBody));
    if (!mNoCage.empty())
        LogWarn(prefix +
                "layered clothing kept as authored, its reference or outer cage is not in the asset folders "
                "(--asset-dir; `gamefmt assets --missing`): " +
                list(mNoCage));
    if (!mNoMesh.empty()) LogWarn(prefix + "layered clothing not fitted, its own mesh is not loaded: " + list(mNoMesh));
    if (mUnmatched != 0)
        LogWarn(prefix + std::to_string(mUnmatched) +
                " inner-cage vertex(es) of layered clothing have no body cage vertex with the same UV; they do not "
                "steer the fit");
}

} // namespace

void FitLayeredClothing(const rbx::Document &doc, const std::vector<aiNode *> &nodes, const RbxGeometryOptions &options,
                        aiScene *scene) {
    if (!options.enabled || !options.clothing) return;
    LayeredFitter fitter(doc, nodes, options, scene);
    for (const rbx::Character &ch : rbx::FindCharacters(doc)) fitter.character(ch);
    fitter.finish();
    fitter.warnings();
}

} // namespace gamefmt::glue
