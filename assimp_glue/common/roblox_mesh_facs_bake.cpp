// FACS pose baking: pose columns -> skinning matrices -> absolute morph targets.
#include "assimp_glue/common/roblox_mesh_facs_bake.hpp"

#include "assimp_glue/common/scene_util.hpp"

#include <assimp/CreateAnimMesh.h>
#include <assimp/mesh.h>

#include <algorithm>
#include <cmath>
#include <unordered_map>

namespace gamefmt::glue {
namespace {

constexpr float kDegToRad = 3.14159265358979323846f / 180.0f;

std::string NameOf(const std::vector<std::string> &controls, std::uint16_t index) {
    return index < controls.size() ? controls[index] : "control" + std::to_string(index);
}

// Column names in matrix order: the controls, then the two-pose and three-pose correctives (§8).
std::vector<std::string> ColumnNames(const rbxmesh::FacsData &facs, std::size_t cols) {
    std::vector<std::string> names;
    names.reserve(cols);
    for (const std::string &control : facs.controlNames) names.push_back(control);
    for (const auto &pair : facs.twoPoseCorrectives)
        names.push_back(NameOf(facs.controlNames, pair[0]) + "+" + NameOf(facs.controlNames, pair[1]));
    for (const auto &triple : facs.threePoseCorrectives)
        names.push_back(NameOf(facs.controlNames, triple[0]) + "+" + NameOf(facs.controlNames, triple[1]) + "+" +
                        NameOf(facs.controlNames, triple[2]));
    for (std::size_t c = names.size(); c < cols; ++c) names.push_back("pose" + std::to_string(c));
    names.resize(cols);
    return names;
}

// The u16 code a version-2 matrix uses for 0 (the code nearest to it), or -1 when 0 is outside its range.
std::int32_t ZeroCode(const rbxmesh::QuantizedMatrix &m) {
    if (m.version != 2 || m.q.size() != m.values.size() || !(m.max > m.min) || m.min > 0 || m.max < 0 ||
        !std::isfinite(m.min) || !std::isfinite(m.max))
        return -1;
    const double code = std::round(-static_cast<double>(m.min) * 65535.0 / (static_cast<double>(m.max) - m.min));
    if (!std::isfinite(code)) return -1; // a range too wide for double (found by fuzzing)
    return static_cast<std::int32_t>(std::clamp(code, 0.0, 65535.0));
}

// Each face bone row's skeleton bone (-1 when the skeleton lacks it: warned, it does not move).
std::vector<std::int64_t> FaceBonesInSkeleton(const FacsSkeleton &skeleton, const rbxmesh::FacsData &facs,
                                              std::vector<std::string> &warnings) {
    const std::size_t rows = facs.faceBoneNames.size();
    const std::size_t boneCount = skeleton.names.size();
    std::unordered_map<std::string, std::uint32_t> byName;
    for (std::uint32_t b = 0; b < boneCount; ++b) byName.emplace(skeleton.names[b], b); // first of a name wins
    std::vector<std::int64_t> faceBone(rows, -1);
    std::string missing;
    std::size_t missingCount = 0;
    for (std::size_t r = 0; r < rows; ++r) {
        const auto it = byName.find(facs.faceBoneNames[r]);
        if (it != byName.end()) {
            faceBone[r] = it->second;
        } else if (missingCount++ < 8) {
            missing += (missing.empty() ? "" : ", ") + facs.faceBoneNames[r];
        }
    }
    if (missingCount != 0)
        warnings.push_back("FACS: " + std::to_string(missingCount) + " face bone(s) not in the skeleton (" + missing +
                           (missingCount > 8 ? ", ..." : "") + "); they do not move");
    return faceBone;
}

} // namespace

Mat4 FacsPoseDelta(float px, float py, float pz, float rxDeg, float ryDeg, float rzDeg) {
    // T(p) · R: the bone moves by p in its parent-relative rest frame, then rotates about its own origin
    // (RoAvatar's order, the one the renderer of dynamic heads uses; §8 recommends it).
    const Mat4 r =
        Mat4::RotationX(rxDeg * kDegToRad) * Mat4::RotationY(ryDeg * kDegToRad) * Mat4::RotationZ(rzDeg * kDegToRad);
    return Mat4::FromTranslation(Vec3(px, py, pz)) * r;
}

std::vector<FacsPose> ComputeFacsPoses(const FacsSkeleton &skeleton, const rbxmesh::FacsData &facs,
                                       std::vector<std::string> &warnings) {
    const std::size_t rows = facs.faceBoneNames.size();
    const std::size_t cols = facs.px.cols;
    const rbxmesh::QuantizedMatrix *matrices[6] = {&facs.px, &facs.py, &facs.pz, &facs.rx, &facs.ry, &facs.rz};
    for (const rbxmesh::QuantizedMatrix *m : matrices) {
        if (m->rows != rows || m->cols != cols || m->values.size() != rows * cols) {
            warnings.push_back("FACS matrices disagree with the face bone list (" + std::to_string(rows) +
                               " bones); poses not baked");
            return {};
        }
    }
    const std::size_t expected =
        facs.controlNames.size() + facs.twoPoseCorrectives.size() + facs.threePoseCorrectives.size();
    if (cols != expected)
        warnings.push_back("FACS matrices have " + std::to_string(cols) + " pose columns, the names describe " +
                           std::to_string(expected));

    const std::size_t boneCount = skeleton.names.size();
    const std::vector<std::int64_t> faceBone = FaceBonesInSkeleton(skeleton, facs, warnings);

    std::int32_t zeroCodes[6];
    for (int k = 0; k < 6; ++k) zeroCodes[k] = ZeroCode(*matrices[k]);

    const std::vector<std::string> names = ColumnNames(facs, cols);
    std::vector<FacsPose> poses(cols);
    std::vector<Mat4> delta(boneCount);
    std::vector<std::uint8_t> hasDelta(boneCount);
    std::vector<Mat4> posedWorld(boneCount);
    for (std::size_t c = 0; c < cols; ++c) {
        FacsPose &pose = poses[c];
        pose.name = names[c];
        pose.skin.assign(boneCount, Mat4());
        pose.moved.assign(boneCount, 0);
        std::fill(hasDelta.begin(), hasDelta.end(), std::uint8_t(0));
        for (std::size_t r = 0; r < rows; ++r) {
            if (faceBone[r] < 0) continue;
            const std::size_t i = r * cols + c;
            // Quantisation cannot store 0 exactly (a neutral entry reads back as about ±1e-6): the code nearest
            // to 0 means 0, so neutral bones stay exactly at rest and unreached vertices keep their bind
            // position bit for bit.
            float v[6];
            bool neutral = true;
            for (int k = 0; k < 6; ++k) {
                const bool zero = matrices[k]->values[i] == 0 ||
                                  (zeroCodes[k] >= 0 && matrices[k]->q[i] == static_cast<std::uint16_t>(zeroCodes[k]));
                v[k] = zero ? 0.0f : matrices[k]->values[i];
                neutral = neutral && zero;
            }
            if (neutral) continue;
            const auto b = static_cast<std::size_t>(faceBone[r]);
            if (hasDelta[b]) continue; // a bone named twice in the face list: the first row rules
            delta[b] = FacsPoseDelta(v[0], v[1], v[2], v[3], v[4], v[5]);
            hasDelta[b] = 1;
        }
        for (const std::uint32_t b : skeleton.order) {
            const std::int32_t p = skeleton.parent[b];
            const bool parentMoved = p >= 0 && pose.moved[static_cast<std::size_t>(p)] != 0;
            if (!hasDelta[b] && !parentMoved) continue; // still at bind pose: S = identity
            const Mat4 local = hasDelta[b] ? skeleton.restLocal[b] * delta[b] : skeleton.restLocal[b];
            if (p < 0) {
                posedWorld[b] = local;
            } else {
                const auto pi = static_cast<std::size_t>(p);
                posedWorld[b] = (parentMoved ? posedWorld[pi] : skeleton.bindWorld[pi]) * local;
            }
            pose.skin[b] = posedWorld[b] * skeleton.inverseBindWorld[b];
            pose.moved[b] = 1;
        }
    }
    return poses;
}

void AddFacsMorphTargets(aiMesh *mesh, const std::vector<VertexSkin> &skin, const std::vector<FacsPose> &poses) {
    if (mesh->mAnimMeshes != nullptr) {
        for (unsigned i = 0; i < mesh->mNumAnimMeshes; ++i) delete mesh->mAnimMeshes[i];
        delete[] mesh->mAnimMeshes;
        mesh->mAnimMeshes = nullptr;
        mesh->mNumAnimMeshes = 0;
    }
    if (poses.empty() || skin.size() != mesh->mNumVertices) return;

    mesh->mAnimMeshes = new aiAnimMesh *[poses.size()];
    const bool normals = mesh->mNormals != nullptr;
    for (const FacsPose &pose : poses) {
        // Copies the base positions and normals, so vertices the pose does not reach need no work.
        aiAnimMesh *target = Assimp::aiCreateAnimMesh(mesh, true, normals, false, false, false);
        mesh->mAnimMeshes[mesh->mNumAnimMeshes++] = target;
        target->mName = ToAiString(pose.name);
        target->mWeight = 0.0f;
        for (unsigned v = 0; v < mesh->mNumVertices; ++v) {
            const VertexSkin &s = skin[v];
            bool reached = false;
            for (unsigned k = 0; k < s.count; ++k) reached = reached || pose.moved[s.bone[k]] != 0;
            if (!reached) continue;
            const aiVector3D &bp = mesh->mVertices[v];
            const Vec3 p(bp.x, bp.y, bp.z);
            Vec3 pos, nrm;
            const Vec3 n = normals ? Vec3(mesh->mNormals[v].x, mesh->mNormals[v].y, mesh->mNormals[v].z) : Vec3();
            for (unsigned k = 0; k < s.count; ++k) {
                const float w = s.weight[k];
                if (pose.moved[s.bone[k]] != 0) {
                    const Mat4 &m = pose.skin[s.bone[k]];
                    pos += m.transformPoint(p) * w;
                    nrm += m.transformVector(n) * w;
                } else {
                    pos += p * w;
                    nrm += n * w;
                }
            }
            target->mVertices[v] = aiVector3D(pos.x, pos.y, pos.z);
            if (normals) {
                const Vec3 unit = nrm.lengthSquared() > 1e-24f ? nrm.normalized() : n;
                target->mNormals[v] = aiVector3D(unit.x, unit.y, unit.z);
            }
        }
    }
    mesh->mMethod = aiMorphingMethod_MORPH_RELATIVE;
}

} // namespace gamefmt::glue
