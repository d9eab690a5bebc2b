// The Second Life mesh writer's geometry pipeline (docs/formats/sl-mesh.md §13 steps 2-10), free of Assimp: takes
// float triangles already in the Second Life frame (metres, Z-up), splits large faces, normalises to the
// unit cube, generates LODs with meshoptimizer, quantizes, builds weights, the skin block and
// physics_convex, and returns an SLMeshAsset (or several, one per submodel) ready for WriteAsset.
#pragma once

#include "common/math.hpp"
#include "importers/sl_mesh/asset.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gamefmt::slmesh {

// One material slot's triangles in the Second Life frame.
struct BuildFace {
    unsigned materialIndex = 0;         // source material index; faces are ordered by it
    std::vector<float> positions;       // 3 per vertex, SL frame, metres
    std::vector<float> normals;         // 3 per vertex or empty (unit length not required)
    std::vector<float> texCoords;       // 2 per vertex or empty
    std::vector<std::uint32_t> indices; // 3 per triangle
    // Skin weights, CSR: the influences of vertex v are influences[weightStart[v] .. weightStart[v + 1]).
    // Empty weightStart = unweighted face. Joint = index into BuildInput::jointNames.
    std::vector<std::uint32_t> weightStart;
    std::vector<std::pair<std::uint32_t, float>> influences;
};

struct BuildInput {
    // Faces per LOD level (LodLevel order). Only lods[kHighLod] is required; when the other three are
    // empty and options.generateLods, they are generated; when some are given they are used as they are
    // (missing ones copied from the next higher given level).
    std::array<std::vector<BuildFace>, 4> lods;
    std::vector<BuildFace> physicsMesh;     // optional physics_mesh block
    std::vector<std::string> materialNames; // by source material index (for material_list)

    // Rig: canonical SL joint names and, per joint, the matrix that maps an SL-frame bind-pose vertex into
    // the joint's space (O_j * G^-1 * C^-1 of §13.8, column-vector convention, row-major storage).
    std::vector<std::string> jointNames;
    std::vector<Mat4> jointInverseBind;
};

struct BuildOptions {
    bool generateLods = true;                            // §13.5; false: lower LODs repeat the high LOD
    std::array<float, 3> lodRatios{0.5f, 0.25f, 0.125f}; // triangle fractions of high for medium, low, lowest
    bool submodels = false;                              // > 8 faces: split into submodels instead of an error (§13.2)
    bool materialList = false;                           // write material_list in the header
    std::size_t maxFaceVertices = 65532;                 // §13.3
};

struct BuildResult {
    std::vector<SLMeshAsset> assets; // [0] the model; [k] submodel k (submodel_id = k) when split
    std::vector<std::string> warnings;
};

// Throws FormatError(kFormatName, ...) with a message that says what to do: no triangles, more than 8
// faces without submodels, more than 110 joints, a weight on a joint index out of range.
BuildResult BuildAsset(const BuildInput &input, const BuildOptions &options = {});

} // namespace gamefmt::slmesh
