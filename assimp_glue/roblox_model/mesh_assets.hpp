// Mesh assets of MeshParts and FileMeshes (docs/formats/roblox-model.md §5.3): a .mesh file from an asset folder,
// read once per URI with the Roblox mesh codec (every version, LOD 0, skinning kept), then placed per instance
// with the affine map its part asks for.
#pragma once

#include <assimp/vector3.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

struct aiMesh;
struct aiNode;
struct aiScene;

namespace gamefmt::glue {

// Node metadata of a placed skeleton's nodes: the bone's name in the mesh file (the node name may carry a ".N").
inline constexpr const char *kRbxMeshBone = "rbx.meshBone";

class UniqueNames;

// LOD 0 of one mesh file as the Roblox mesh importer builds it: scene->mMeshes[0] and, when skinned, the
// "Skeleton" node among the root's children; plus LOD 0's bounding box.
struct RbxMeshTemplate {
    std::unique_ptr<aiScene> scene;
    aiVector3D min, max;
    bool skinned() const;
    const aiMesh *mesh() const;
    const aiNode *skeleton() const; // null when not skinned
};

// Reads `bytes` (a .mesh file) into a template; FormatError when the codec refuses it or LOD 0 is empty. With
// `bakeFacs` a dynamic head's FACS poses become morph targets (docs/formats/roblox-mesh.md §13.4); otherwise a part
// shows the neutral face.
std::unique_ptr<RbxMeshTemplate> LoadRbxMeshTemplate(const std::uint8_t *data, std::size_t size, bool bakeFacs = false);

// docs/formats/roblox-model.md §5.3: the map a MeshPart of `size` puts its mesh through (v∘scale + shift): centred
// when its bounds are off the origin, scaled by size / InitialSize (`initialSize` not positive or not finite: the
// mesh's own extent).
void MeshPartPlacement(const RbxMeshTemplate &t, const aiVector3D &size, const aiVector3D &initialSize,
                       aiVector3D &scale, aiVector3D &shift);

// A copy of the template's mesh with every vertex v mapped to v∘scale + shift (morph targets too; normals and
// tangents by the inverse transpose, renormalised; bone offset matrices by offset·T⁻¹ so the bind pose is unchanged
// when the skeleton is placed by T), material `material`, name `name`.
std::unique_ptr<aiMesh> PlaceRbxMesh(const RbxMeshTemplate &t, const aiVector3D &scale, const aiVector3D &shift,
                                     unsigned material, const std::string &name);

// A copy of the template's skeleton whose top node carries T (scale, then shift), every node renamed to a
// scene-unique name from `names`; `mesh`'s bones (a PlaceRbxMesh copy) are renamed to match. Null when the
// template is not skinned.
aiNode *PlaceRbxSkeleton(const RbxMeshTemplate &t, const aiVector3D &scale, const aiVector3D &shift, UniqueNames &names,
                         aiMesh &mesh);

} // namespace gamefmt::glue
