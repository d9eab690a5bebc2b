// What gamefmt's Roblox model/place importer (.rbxm .rbxl .rbxmx .rbxlx) puts into an aiScene, for programs
// that read it: the metadata keys and the instance tree as a document. docs/metadata.md has the full list.
//
//   const aiScene *scene = importer.ReadFile("place.rbxl", 0);
//   if (gamefmt::IsRobloxModelScene(*scene)) {
//       gamefmt::rbx::Document doc;                // importers/roblox_model/document/dom.hpp
//       gamefmt::RobloxDocumentFromScene(*scene, doc);
//   }
#pragma once

#include "gamefmt/metadata.hpp"

struct aiScene;

namespace gamefmt {
namespace rbx {
struct Document;
}

// Scene metadata.
inline constexpr const char *kRbxFormat = "rbx.format"; // AISTRING "binary" | "xml": the file's encoding
// Blob (gamefmt/metadata.hpp): the file the instances came from as one zstd frame; rbx.sourceSize (UINT64)
// is its size once inflated. Every instance and property travels here, once.
inline constexpr const char *kRbxSource = "rbx.source";
inline constexpr const char *kRbxSourceSize = "rbx.sourceSize";
// SourceAsset_Format of a model and of a place (a document with a Workspace at its top).
inline constexpr const char *kRbxModelFormat = "Roblox model";
inline constexpr const char *kRbxPlaceFormat = "Roblox place";

// Node metadata, only with GAMEFMT_RBX_NODE_PROPERTIES (each entry costs about 2 KB of Assimp memory):
// rbx.ClassName, rbx.Name, rbx.Referent (AISTRING), rbx.service (BOOL, services only) and one
// rbx.props.<name> = "<Type>:<text>" per property (value_text.hpp's text form; long values split as
// gamefmt/metadata.hpp says). Flat: never nested metadata.
inline constexpr const char *kRbxClassName = "rbx.ClassName";
inline constexpr const char *kRbxName = "rbx.Name";
inline constexpr const char *kRbxReferent = "rbx.Referent";
inline constexpr const char *kRbxService = "rbx.service";
inline constexpr const char *kRbxPropPrefix = "rbx.props.";

// Node metadata written whatever the options, on the few nodes that need it (docs/roblox-model.md):
// rbx.geometry = "mesh" on a MeshPart or FileMesh part drawn with its mesh from an asset folder
// (docs/roblox-assets.md), "placeholder" on one (or a union) drawn as a box of its size, with
// rbx.unresolved = the asset URI it stands for (absent when the file names none); rbx.unresolved also on a
// Decal/Texture whose image was not found. Lights carry rbx.light.range (FLOAT, studs: Roblox lights fade
// to nothing there) and rbx.light.shadows (BOOL, only when true).
inline constexpr const char *kRbxGeometry = "rbx.geometry";
inline constexpr const char *kRbxUnresolved = "rbx.unresolved";
// Unions (docs/roblox-model.md): rbx.geometry = "union-mesh" (the union's own render mesh), "union-parts" (its
// source parts from the nested model) or "union-hull" (its physics hulls); rbx.unionSource = the blob it came
// from ("CSGMDL4", "SolidMesh", "ChildData2", "CSGPHS7", …); rbx.negated = true when nested NegateOperations were
// left out of union-parts (the shape is missing its cuts).
inline constexpr const char *kRbxUnionSource = "rbx.unionSource";
// Terrain (docs/roblox-model.md, docs/formats/roblox-terrain.md): rbx.geometry = "terrain"; rbx.terrain.voxels
// (UINT64) = voxels whose material is not Air (water included); rbx.terrain.chunks (UINT64) = 32³ chunks read.
inline constexpr const char *kRbxTerrainVoxels = "rbx.terrain.voxels";
inline constexpr const char *kRbxTerrainChunks = "rbx.terrain.chunks";
inline constexpr const char *kRbxNegated = "rbx.negated";
inline constexpr const char *kRbxLightRange = "rbx.light.range";
inline constexpr const char *kRbxLightShadows = "rbx.light.shadows";

// True when the scene carries rbx.source or some node carries rbx.ClassName (a scene this importer made).
bool IsRobloxModelScene(const aiScene &scene);

// The instances the scene holds: rbx.source re-read, then brought in line with the node tree (nodes removed
// drop their instances, reparented nodes move them; found by node name), or, without rbx.source, built from
// the node metadata above. Throws gamefmt::FormatError ("Roblox model") on malformed metadata.
void RobloxDocumentFromScene(const aiScene &scene, rbx::Document &out);

} // namespace gamefmt
