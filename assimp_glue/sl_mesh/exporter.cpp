// The Second Life mesh exporter (docs/formats/sl-mesh.md §13): converts an aiScene into the builder's input (SL frame,
// one face per material, LOD levels and physics from the importer's node layout, bones as avatar joints),
// lets the codec build and write the asset(s), and writes the bytes through the IOSystem Assimp hands us.
#include "assimp_glue/sl_mesh/exporter.hpp"

#include "assimp_glue/common/export_util.hpp"
#include "assimp_glue/common/io_util.hpp"
#include "assimp_glue/common/scene_util.hpp"
#include "common/error.hpp"
#include "common/math.hpp"
#include "gamefmt/config.hpp"
#include "importers/sl_mesh/asset.hpp"
#include "importers/sl_mesh/skeleton.hpp"

#include <assimp/DefaultLogger.hpp>
#include <assimp/Exceptional.h>
#include <assimp/IOStream.hpp>
#include <assimp/IOSystem.hpp>
#include <assimp/material.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <limits>
#include <map>
#include <optional>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace gamefmt::glue {
namespace {

using slmesh::kFormatName;

constexpr const char *kLodLevelKey = "sl.lodLevel";
constexpr const char *kPhysicsNode = "physics";
constexpr const char *kPhysicsMeshNode = "physics_mesh";

[[noreturn]] void Fail(const std::string &problem) {
    throw FormatError(kFormatName, problem);
}

using Warnings = WarningSink;

// Y-up -> Z-up (§13.1): rows (1,0,0) (0,0,-1) (0,1,0).
Mat4 YUpToZUp() {
    Mat4 c;
    c.m[1][1] = 0;
    c.m[1][2] = -1;
    c.m[2][1] = 1;
    c.m[2][2] = 0;
    return c;
}

bool SceneIsZUp(const aiScene &scene) {
    return GetMetadataInt(scene.mMetaData, "UpAxis") == std::optional<std::int64_t>(2);
}

enum class Role { Render, PhysicsMesh, NotRender };

// A mesh instance: the mesh, the node's global transform already in the SL frame (C·G), its LOD level and role.
struct Instance {
    const aiMesh *mesh = nullptr;
    Mat4 global;
    int level = slmesh::kHighLod;
    Role role = Role::Render;
};

std::vector<Instance> WalkScene(const aiScene &scene, const Mat4 &frame, Warnings &warnings) {
    std::vector<Instance> instances;
    const std::pair<int, Role> top{slmesh::kHighLod, Role::Render};
    WalkNodes(scene.mRootNode, frame, top, [&](const aiNode &node, const Mat4 &parent, std::pair<int, Role> state) {
        const Mat4 global = parent * FromAi(node.mTransformation);
        const std::string name = node.mName.C_Str();
        auto &[level, role] = state;
        if (name == kPhysicsMeshNode)
            role = Role::PhysicsMesh;
        else if (name == kPhysicsNode && role == Role::Render)
            role = Role::NotRender;
        if (const std::optional<std::int64_t> own = GetMetadataInt(node.mMetaData, kLodLevelKey)) {
            if (*own >= slmesh::kLowestLod && *own <= slmesh::kHighLod)
                level = static_cast<int>(*own);
            else
                warnings.add("node '" + name + "' has " + kLodLevelKey + " " + std::to_string(*own) +
                             ", not 0 (lowest) to 3 (high); ignored");
        }
        for (unsigned i = 0; i < node.mNumMeshes; ++i) {
            const unsigned index = node.mMeshes[i];
            if (index >= scene.mNumMeshes || scene.mMeshes[index] == nullptr) continue;
            instances.push_back({scene.mMeshes[index], global, level, role});
        }
        return std::make_pair(global, state);
    });
    return instances;
}

// Normals by the inverse transpose: the cofactor matrix (inverse transpose times the determinant) signed
// by the determinant, so a zero scale gives no NaN and mirrored geometry keeps outward normals.
struct NormalMatrix {
    float m[3][3] = {{1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
    bool mirrored = false;

    explicit NormalMatrix(const Mat4 &g) {
        double cof[3][3];
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) {
                const int r1 = (r + 1) % 3, r2 = (r + 2) % 3, c1 = (c + 1) % 3, c2 = (c + 2) % 3;
                cof[r][c] = double(g.m[r1][c1]) * g.m[r2][c2] - double(g.m[r1][c2]) * g.m[r2][c1];
            }
        const double det =
            double(g.m[0][0]) * cof[0][0] + double(g.m[0][1]) * cof[0][1] + double(g.m[0][2]) * cof[0][2];
        mirrored = det < 0;
        const double sign = mirrored ? -1.0 : 1.0;
        for (int r = 0; r < 3; ++r)
            for (int c = 0; c < 3; ++c) m[r][c] = static_cast<float>(sign * cof[r][c]);
    }
    Vec3 apply(const aiVector3D &n) const {
        const Vec3 v =
            Vec3(m[0][0] * n.x + m[0][1] * n.y + m[0][2] * n.z, m[1][0] * n.x + m[1][1] * n.y + m[1][2] * n.z,
                 m[2][0] * n.x + m[2][1] * n.y + m[2][2] * n.z)
                .normalized();
        return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z) ? v : Vec3();
    }
};

// One face being collected: every stream filled for every vertex (zeros where a mesh lacks it), trimmed at
// the end to what some mesh actually had.
struct FaceAccumulator {
    slmesh::BuildFace face;
    bool anyNormals = false;
    bool anyTexCoords = false;
    std::vector<std::vector<std::pair<std::uint32_t, float>>> influences; // per vertex

    slmesh::BuildFace finish() {
        slmesh::BuildFace out = std::move(face);
        if (!anyNormals) out.normals.clear();
        if (!anyTexCoords) out.texCoords.clear();
        bool weighted = false;
        for (const auto &list : influences) weighted = weighted || !list.empty();
        if (weighted) {
            out.weightStart.reserve(influences.size() + 1);
            for (const auto &list : influences) {
                out.weightStart.push_back(static_cast<std::uint32_t>(out.influences.size()));
                out.influences.insert(out.influences.end(), list.begin(), list.end());
            }
            out.weightStart.push_back(static_cast<std::uint32_t>(out.influences.size()));
        }
        return out;
    }
};

std::string JoinQuoted(const std::vector<std::string> &names) {
    std::string out;
    for (std::size_t i = 0; i < names.size(); ++i) out += (i == 0 ? "'" : ", '") + names[i] + "'";
    return out;
}

// Joints: canonical names in order of first appearance, with their inverse bind matrices; every unknown name
// is reported at once. Returns canonical name -> joint index.
std::unordered_map<std::string, std::uint32_t> CollectJoints(const std::vector<Instance> &instances,
                                                             slmesh::BuildInput &input, Warnings &warnings) {
    std::unordered_map<std::string, std::uint32_t> jointIndex;
    std::vector<bool> bindSet;
    std::vector<std::string> unknown;
    std::unordered_set<std::string> unknownSeen;
    for (const Instance &instance : instances) {
        if (instance.role != Role::Render) continue;
        for (unsigned b = 0; b < instance.mesh->mNumBones; ++b) {
            const aiBone *bone = instance.mesh->mBones[b];
            if (bone == nullptr) continue;
            const std::string name = bone->mName.C_Str();
            const std::optional<std::string> canonical = slmesh::CanonicalJointName(name);
            if (!canonical) {
                if (unknownSeen.insert(name).second) unknown.push_back(name);
                continue;
            }
            auto found = jointIndex.find(*canonical);
            if (found == jointIndex.end()) {
                found = jointIndex.emplace(*canonical, static_cast<std::uint32_t>(input.jointNames.size())).first;
                input.jointNames.push_back(*canonical);
                input.jointInverseBind.emplace_back();
                bindSet.push_back(false);
            }
            // §13.8: IB = O · G⁻¹ · C⁻¹ = O · (C·G)⁻¹; the first mesh that binds a joint wins.
            const std::optional<Mat4> inverseGlobal = instance.global.inverse();
            if (!inverseGlobal)
                Fail("mesh '" + std::string(instance.mesh->mName.C_Str()) + "' has a singular node transform");
            const Mat4 ib = FromAi(bone->mOffsetMatrix) * *inverseGlobal;
            const std::uint32_t joint = found->second;
            if (!bindSet[joint]) {
                input.jointInverseBind[joint] = ib;
                bindSet[joint] = true;
            } else if (!input.jointInverseBind[joint].nearlyEquals(ib)) {
                warnings.add("joint '" + input.jointNames[joint] + "' (bone '" + name +
                             "') has different bind poses in different meshes; the first is kept");
            }
        }
    }
    if (!unknown.empty()) {
        const bool one = unknown.size() == 1;
        Fail(std::string(one ? "bone " : "bones ") + JoinQuoted(unknown) + (one ? " is not a" : " are not") +
             " Second Life avatar joint" + (one ? "" : "s") + ": rename " + (one ? "it" : "them") +
             " to one of the joints in sl-avatar-skeleton (e.g. mPelvis) or to an uploader alias "
             "(hip, abdomen, chest, neck, head, lShldr, rShldr, lForeArm, lHand, lThigh, lShin, lFoot ...), or "
             "remove its weights");
    }
    return jointIndex;
}

// The mesh's triangles appended to `acc` (indices from `base`; a mirroring transform swaps two corners so the
// faces stay front-facing). False when it has none; points and lines are counted in `skipped`.
bool AppendTriangles(const aiMesh &mesh, bool mirrored, std::size_t base, FaceAccumulator &acc, std::size_t &skipped) {
    bool hasTriangles = false;
    for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
        const aiFace &face = mesh.mFaces[f];
        if (face.mNumIndices != 3) {
            ++skipped;
            continue;
        }
        const unsigned a = face.mIndices[0], b = face.mIndices[1], c = face.mIndices[2];
        if (a >= mesh.mNumVertices || b >= mesh.mNumVertices || c >= mesh.mNumVertices) continue;
        hasTriangles = true;
        // A mirroring transform flips the winding; swapping two corners keeps the faces front-facing.
        const unsigned second = mirrored ? c : b, third = mirrored ? b : c;
        acc.face.indices.insert(acc.face.indices.end(),
                                {static_cast<std::uint32_t>(base + a), static_cast<std::uint32_t>(base + second),
                                 static_cast<std::uint32_t>(base + third)});
    }
    return hasTriangles;
}

// The mesh's vertices in world space, with normals and UVs when the face carries them (physics faces do not).
void AppendVertices(const Instance &instance, const NormalMatrix &normalMatrix, bool isPhysics, std::size_t base,
                    FaceAccumulator &acc) {
    const aiMesh &mesh = *instance.mesh;
    const bool normals = !isPhysics && mesh.mNormals != nullptr;
    const bool uvs = !isPhysics && mesh.mTextureCoords[0] != nullptr;
    if (normals && !acc.anyNormals && base > 0) acc.face.normals.assign(3 * base, 0.0f);
    if (uvs && !acc.anyTexCoords && base > 0) acc.face.texCoords.assign(2 * base, 0.0f);
    acc.anyNormals = acc.anyNormals || normals;
    acc.anyTexCoords = acc.anyTexCoords || uvs;
    for (unsigned v = 0; v < mesh.mNumVertices; ++v) {
        const aiVector3D &p = mesh.mVertices[v];
        const Vec3 q = instance.global.transformPoint(Vec3(p.x, p.y, p.z));
        acc.face.positions.insert(acc.face.positions.end(), {q.x, q.y, q.z});
        if (acc.anyNormals) {
            const Vec3 n = normals ? normalMatrix.apply(mesh.mNormals[v]) : Vec3();
            acc.face.normals.insert(acc.face.normals.end(), {n.x, n.y, n.z});
        }
        if (acc.anyTexCoords) {
            const aiVector3D t = uvs ? mesh.mTextureCoords[0][v] : aiVector3D();
            acc.face.texCoords.insert(acc.face.texCoords.end(), {t.x, t.y});
        }
    }
}

// The mesh's bone weights as (joint, weight) influences of its vertices.
void AppendInfluences(const aiMesh &mesh, const std::unordered_map<std::string, std::uint32_t> &jointIndex,
                      std::size_t base, FaceAccumulator &acc) {
    acc.influences.resize(base + mesh.mNumVertices);
    for (unsigned b = 0; b < mesh.mNumBones; ++b) {
        const aiBone *bone = mesh.mBones[b];
        if (bone == nullptr) continue;
        const std::uint32_t joint = jointIndex.at(*slmesh::CanonicalJointName(bone->mName.C_Str()));
        for (unsigned w = 0; w < bone->mNumWeights; ++w) {
            const aiVertexWeight &weight = bone->mWeights[w];
            if (weight.mVertexId >= mesh.mNumVertices) continue;
            acc.influences[base + weight.mVertexId].emplace_back(joint, weight.mWeight);
        }
    }
}

// The accumulated faces into the input's levels and physics mesh; without a high level, the highest level
// present becomes it.
void AssignLevels(std::array<std::map<unsigned, FaceAccumulator>, 4> &levels,
                  std::map<unsigned, FaceAccumulator> &physics, slmesh::BuildInput &input, Warnings &warnings) {
    for (int l = slmesh::kLowestLod; l <= slmesh::kHighLod; ++l)
        for (auto &entry : levels[static_cast<std::size_t>(l)]) {
            if (!entry.second.face.indices.empty()) {
                entry.second.influences.resize(entry.second.face.positions.size() / 3);
                input.lods[static_cast<std::size_t>(l)].push_back(entry.second.finish());
            }
        }
    for (auto &entry : physics)
        if (!entry.second.face.indices.empty()) input.physicsMesh.push_back(entry.second.finish());
    if (input.lods[slmesh::kHighLod].empty()) {
        // LOD nodes without a high level: the highest level present is the high LOD.
        for (int l = slmesh::kHighLod - 1; l >= slmesh::kLowestLod; --l)
            if (!input.lods[static_cast<std::size_t>(l)].empty()) {
                input.lods[slmesh::kHighLod] = std::move(input.lods[static_cast<std::size_t>(l)]);
                input.lods[static_cast<std::size_t>(l)].clear();
                warnings.add(std::string("the scene has no high level of detail: ") + slmesh::LodKey(l) +
                             " is written as high_lod");
                break;
            }
    }
    if (input.lods[slmesh::kHighLod].empty()) Fail("nothing to export: the scene has no triangles");
}

} // namespace

SlMeshSceneInput ExtractSlMeshInput(const aiScene &scene) {
    SlMeshSceneInput out;
    Warnings warnings(out.warnings, "Second Life mesh export: ");
    if (scene.mRootNode == nullptr) Fail("the scene has no root node");
    const Mat4 frame = SceneIsZUp(scene) ? Mat4() : YUpToZUp();
    const std::vector<Instance> instances = WalkScene(scene, frame, warnings);

    slmesh::BuildInput &input = out.input;
    for (unsigned m = 0; m < scene.mNumMaterials; ++m) {
        aiString name;
        if (scene.mMaterials[m] != nullptr && scene.mMaterials[m]->Get(AI_MATKEY_NAME, name) == AI_SUCCESS)
            input.materialNames.push_back(name.C_Str());
        else
            input.materialNames.emplace_back();
    }
    const std::unordered_map<std::string, std::uint32_t> jointIndex = CollectJoints(instances, input, warnings);

    // Faces per (level, material) and the physics faces per material.
    std::array<std::map<unsigned, FaceAccumulator>, 4> levels;
    std::map<unsigned, FaceAccumulator> physics;
    std::size_t skippedPrimitives = 0;
    for (const Instance &instance : instances) {
        if (instance.role == Role::NotRender) continue;
        const aiMesh &mesh = *instance.mesh;
        if (mesh.mNumVertices == 0 || mesh.mVertices == nullptr) continue;
        const bool isPhysics = instance.role == Role::PhysicsMesh;
        FaceAccumulator &acc = isPhysics ? physics[mesh.mMaterialIndex]
                                         : levels[static_cast<std::size_t>(instance.level)][mesh.mMaterialIndex];
        acc.face.materialIndex = mesh.mMaterialIndex;
        const NormalMatrix normalMatrix(instance.global);
        const std::size_t base = acc.face.positions.size() / 3;
        if (base + mesh.mNumVertices > std::numeric_limits<std::uint32_t>::max())
            Fail("a material holds more than 2^32 vertices");
        if (!AppendTriangles(mesh, normalMatrix.mirrored, base, acc, skippedPrimitives)) continue;
        AppendVertices(instance, normalMatrix, isPhysics, base, acc);
        if (!isPhysics && mesh.mNumBones != 0) AppendInfluences(mesh, jointIndex, base, acc);
    }
    if (skippedPrimitives > 0)
        warnings.add(std::to_string(skippedPrimitives) +
                     " points and lines skipped: Second Life meshes hold triangles");
    AssignLevels(levels, physics, input, warnings);
    return out;
}

namespace {

slmesh::BuildOptions ReadOptions(const Assimp::ExportProperties *properties) {
    slmesh::BuildOptions options;
    if (properties == nullptr) return options;
    const Assimp::ExportProperties &p = *properties;
    if (const auto v = ReadExportBool(p, GAMEFMT_SLMESH_SUBMODELS, kFormatName)) options.submodels = *v;
    if (const auto v = ReadExportBool(p, GAMEFMT_SLMESH_MATERIAL_LIST, kFormatName)) options.materialList = *v;
    if (const auto v = ReadExportBool(p, GAMEFMT_SLMESH_GENERATE_LODS, kFormatName)) options.generateLods = *v;
    std::string text;
    if (ReadExportText(p, GAMEFMT_SLMESH_LOD_RATIOS, text) && !text.empty()) {
        const std::optional<std::vector<float>> ratios = ParseLodRatios(text);
        if (!ratios || ratios->size() > 3)
            Fail(std::string("option ") + GAMEFMT_SLMESH_LOD_RATIOS +
                 " must be one to three comma-separated fractions between 0 and 1 (\"0.5,0.25,0.125\"), not '" + text +
                 "'");
        // Fewer than three: the missing levels halve the last one given.
        for (std::size_t i = 0; i < 3; ++i)
            options.lodRatios[i] = i < ratios->size() ? (*ratios)[i] : options.lodRatios[i - 1] * 0.5f;
    }
    return options;
}

} // namespace

std::vector<std::vector<std::uint8_t>> ExportSlMeshToBytes(const aiScene &scene,
                                                           const Assimp::ExportProperties *properties) {
    const slmesh::BuildOptions options = ReadOptions(properties);
    SlMeshSceneInput extracted = ExtractSlMeshInput(scene);
    Warnings warnings(extracted.warnings, "Second Life mesh export: ");
    slmesh::BuildResult built = slmesh::BuildAsset(extracted.input, options);
    for (const std::string &warning : built.warnings) warnings.add(warning);
    std::vector<std::vector<std::uint8_t>> files;
    files.reserve(built.assets.size());
    for (const slmesh::SLMeshAsset &asset : built.assets) files.push_back(slmesh::WriteAsset(asset));
    return files;
}

namespace {

// Submodel k of "dir/model.llmesh" is "dir/model_k.llmesh" (§13.2: <stem>_<k>.llmesh).
std::string SubmodelPath(const std::string &path, std::size_t k) {
    const std::size_t slash = path.find_last_of("/\\");
    const std::size_t dot = path.find_last_of('.');
    const bool hasExtension = dot != std::string::npos && (slash == std::string::npos || dot > slash);
    const std::string stem = hasExtension ? path.substr(0, dot) : path;
    return stem + "_" + std::to_string(k) + ".llmesh";
}

void ExportSlMesh(const char *path, Assimp::IOSystem *io, const aiScene *scene,
                  const Assimp::ExportProperties *properties) {
    RunExport("Second Life mesh", kFormatName, scene, io, [&] {
        const std::string target = path != nullptr ? path : "";
        std::vector<std::vector<std::uint8_t>> files = ExportSlMeshToBytes(*scene, properties);
        ExportedFiles out;
        for (std::size_t k = 0; k < files.size(); ++k)
            out.emplace_back(k == 0 ? target : SubmodelPath(target, k), std::move(files[k]));
        return out;
    });
}

// Normals are not required (the format stores them when present); points and lines are skipped.
constexpr unsigned kEnforcedSteps = aiProcess_Triangulate;

} // namespace

const std::vector<Assimp::Exporter::ExportFormatEntry> &SlMeshExportEntries() {
    using Entry = Assimp::Exporter::ExportFormatEntry;
    static const std::vector<Entry> entries = {
        Entry("llmesh",
              "Second Life mesh asset (.llmesh; up to 8 materials, generated LODs, physics hull, avatar rig; "
              "GAMEFMT_SLMESH_SUBMODELS writes more materials as <name>_<k>.llmesh submodels)",
              "llmesh", &ExportSlMesh, kEnforcedSteps),
    };
    return entries;
}

} // namespace gamefmt::glue
