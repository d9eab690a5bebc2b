// FACS pose baking (docs/formats/roblox-mesh.md §8, §13.4): turns each pose column of a dynamic head's FACS data into
// per-bone skinning matrices, and those into absolute aiAnimMesh morph targets on skinned meshes.
#pragma once

#include "common/math.hpp"
#include "importers/roblox_mesh/mesh.hpp"

#include <array>
#include <cstdint>
#include <string>
#include <vector>

struct aiMesh;

namespace gamefmt::glue {

// The bind skeleton the bake poses: one entry per file bone.
struct FacsSkeleton {
    std::vector<std::string> names;   // file names (FACS face bones match them exactly, case-sensitive)
    std::vector<std::int32_t> parent; // -1 = root
    std::vector<Mat4> bindWorld;      // W
    std::vector<Mat4> inverseBindWorld;
    std::vector<Mat4> restLocal;      // inverse(W_parent) · W
    std::vector<std::uint32_t> order; // parents before children
};

// One pose column: S_k = P_k · inverse(W_k) for every bone the pose moves (`moved[k]` != 0); the other
// bones stay at their bind pose (S = identity) and are skipped when skinning.
struct FacsPose {
    std::string name; // "c_JD"; correctives "c_A+c_B", "c_A+c_B+c_C"
    std::vector<Mat4> skin;
    std::vector<std::uint8_t> moved;
};

// Up to 4 influences of one mesh vertex on global (file) bones; weights already normalised.
struct VertexSkin {
    std::array<std::uint32_t, 4> bone{0, 0, 0, 0};
    std::array<float, 4> weight{0, 0, 0, 0};
    std::uint8_t count = 0;
};

// The pose delta of §8 for one bone: D = T(px, py, pz) · Rx(rx) · Ry(ry) · Rz(rz), angles in degrees.
Mat4 FacsPoseDelta(float px, float py, float pz, float rxDeg, float ryDeg, float rzDeg);

// Every pose column of `facs` (controls, then two-pose, then three-pose correctives), posed on `skeleton`:
// posedLocal = restLocal · D for each face bone, world matrices composed down the hierarchy. A matrix entry
// holding the quantisation code nearest to 0 counts as exactly 0 (neutral bones do not move at all). Problems (face
// bones missing from the skeleton, matrix shapes that disagree) are appended to `warnings`; when the data
// cannot be baked at all the result is empty.
std::vector<FacsPose> ComputeFacsPoses(const FacsSkeleton &skeleton, const rbxmesh::FacsData &facs,
                                       std::vector<std::string> &warnings);

// Adds one absolute aiAnimMesh (positions and normals) per pose to `mesh`, skinned with linear blend
// skinning v' = Σ w_k · S_k · v, normals by the rotation part and renormalised; `skin` has one entry per mesh
// vertex. Sets mesh->mMethod = aiMorphingMethod_MORPH_RELATIVE. Replaces any anim meshes already there.
void AddFacsMorphTargets(aiMesh *mesh, const std::vector<VertexSkin> &skin, const std::vector<FacsPose> &poses);

} // namespace gamefmt::glue
