// Second Life mesh asset model -> aiScene (docs/formats/sl-mesh.md §12). The layout below is the contract between the
// importer and the exporter (which recognises the LOD and physics nodes on re-export).
//
//   <file stem>                root; Rx(-90°) (SL Z-up -> Y-up), identity with GAMEFMT_SLMESH_YUP = false
//   ├─ high_lod                (or the chosen/fallback level) one mesh per face with >= 1 valid triangle,
//   │                          named "<lod>_face<i>", mMaterialIndex = i; scale NormalizedScale (static)
//   ├─ medium_lod …            only with GAMEFMT_SLMESH_LOD = all
//   ├─ physics                 only with GAMEFMT_SLMESH_PHYSICS
//   │  ├─ physics_mesh         faces of the physics_mesh block
//   │  └─ physics_convex       meshes "bounding_hull", "hull_<k>"
//   └─ mPelvis …               avatar joints of rigged assets (used joints + ancestors, or all 159)
// Materials: one per face index including NoGeometry faces ("face<i>" or material_list[i]), white; the
// physics meshes share one extra material "physics". Node metadata: INT32 `sl.lodLevel` on LOD nodes.
// Scene metadata: SourceAsset_Format "Second Life mesh asset", sl.* keys of §12.
#pragma once

#include "importers/sl_mesh/asset.hpp"

#include <string>

struct aiScene;

namespace gamefmt::glue {

struct SlMeshSceneOptions {
    int lod = slmesh::kHighLod; // preferred level (falls back lower, then higher)
    bool allLods = false;
    bool physics = false;
    bool yUp = true;
    bool fullSkeleton = false;
    bool normalizedScale = true;
    std::string rootName = "SecondLifeMesh"; // the file stem
};

// Builds the scene into `scene` (empty on entry). Throws FormatError when no LOD has geometry.
void BuildSlMeshScene(const slmesh::SLMeshAsset &asset, const SlMeshSceneOptions &options, aiScene *scene);

} // namespace gamefmt::glue
