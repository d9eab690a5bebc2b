// Roblox mesh format model -> aiScene (docs/formats/roblox-mesh.md §13), and reading back the metadata the importer
// leaves for the exporter. Shared glue: the .mesh importer and the Roblox model's mesh assets build their scenes here.
// The key list below is the contract between the importer and the exporter.
//
// ---------------------------------------------------------------- scene layout
//   RobloxMesh                        root node, identity
//   ├─ LOD0                           mesh 0 ("LOD0"); with GAMEFMT_RBXMESH_IMPORT_ALL_LODS also
//   ├─ LOD1 … LODn                    meshes 1…n ("LOD1"…), each over its own compacted vertices
//   └─ Skeleton                       only when the file has bones; identity
//      └─ <bone> …                    one node per file bone, parented per Bone::parent, transform =
//                                     inverse(W_parent) · W_bone (local bind pose)
// One material "RobloxMesh" (white) that every mesh uses. Skinned meshes carry one aiBone per file bone, in
// file order (mOffsetMatrix = inverse(W_bone), weights w/255). Baked FACS poses are absolute aiAnimMeshes
// (MORPH_RELATIVE) named after their control ("c_JD", correctives "c_A+c_B"), in matrix column order.
//
// ---------------------------------------------------------------- scene metadata (aiScene::mMetaData)
//   SourceAsset_Format          AISTRING  "Roblox FileMesh"
//   SourceAsset_FormatVersion   AISTRING  the file's version line: "1.00" … "7.00"
//   rbxmesh.vertexSize          INT32     sizeof_vertex as read (36 or 40; 40 for 4.xx+, text and chunked)
//   rbxmesh.faceSize            INT32     sizeof_face as read (12 unless a 2.00/3.xx file says more)
//   rbxmesh.headerSize          INT32     sizeof_header as stored (0 = the version's standard size; text and
//                                         chunked files have none)
//   rbxmesh.lodEntrySize        INT32     3.xx sizeof_LOD (4)
//   rbxmesh.lodType             INT32     4.xx/5.00 header or LODS chunk lodType (0 for older versions)
//   rbxmesh.numHighQualityLODs  INT32     4.xx/5.00 header or LODS chunk byte
//   rbxmesh.v4Unused            INT32     4.xx/5.00 header byte 23 (63 in a real 4.01 file)
//   rbxmesh.coremeshVersion     INT32     6.00/7.00 COREMESH chunk version (1 raw, 2 Draco); 0 otherwise
//   rbxmesh.lodOffsets          AISTRING  the file's offset table verbatim, comma-separated
//                                         ("0,1731,2595,2854"); "" when the file has none
//   rbxmesh.lodLevels           INT32     how many levels that table describes (1 when single or malformed)
//   rbxmesh.numVertices         UINT64    vertex count of the whole file (every level; the scene may hold fewer)
//   rbxmesh.numFaces            UINT64    face count of the whole file (every level)
//   rbxmesh.allLods             BOOL      true when every level was imported (GAMEFMT_RBXMESH_IMPORT_ALL_LODS)
//   rbxmesh.textCrlf            BOOL      1.00/1.01 only: the file used CRLF line ends
//   rbxmesh.textFinalNewline    BOOL      1.00/1.01 only: the file ended with a line break
//   rbxmesh.chunkOrder          AISTRING  6.00/7.00 only: chunk tags in file order ("COREMESH,LODS,SKINNING,FACS")
//   rbxmesh.unknownChunks       INT32     6.00/7.00, only when there are any: how many; chunk i is
//     rbxmesh.unknownChunk.<i>.tag      AISTRING  its tag
//     rbxmesh.unknownChunk.<i>.version  INT32     its version (the u32's bit pattern)
//     rbxmesh.unknownChunk.<i>.data     blob      its payload
//   rbxmesh.trailingBytes       blob      only when the file had bytes after its last section
//   rbxmesh.facs                blob      5.00+ FACS bytes (the 5.00 header's facsDataSize / the FACS chunk's
//                                         size field is their length)
//   rbxmesh.facsFormat          INT32     with rbxmesh.facs: 5.00 facsDataFormat (the u32's bit pattern; 1 for
//                                         chunked files)
//   rbxmesh.hsravis             blob      6.00+ HSRAVIS chunk: the bit bytes
//   rbxmesh.hsravisBitCount     UINT64    with rbxmesh.hsravis: the chunk's bit count
//   rbxmesh.facsBaked           BOOL      true when the aiAnimMeshes are baked FACS poses (never write them back)
//
// A "blob" is binary data as base64 text, split when long (gamefmt/metadata.hpp: GetMetadataBlob reads it).
//
// ---------------------------------------------------------------- node metadata
//   LOD nodes      rbxmesh.lodLevel      INT32     0, 1, … (the level the node's mesh holds)
//   "Skeleton"     rbxmesh.skeleton      BOOL      true (marks the node that holds the bone hierarchy)
//   bone nodes     rbxmesh.boneIndex     INT32     the bone's index in the file (aiBones follow the same order)
//                  rbxmesh.culling       FLOAT     Bone::culling as stored
//                  rbxmesh.lodParent     INT32     Bone::lodParent as stored (65535 = none)
//                  rbxmesh.originalName  AISTRING  only when the node name differs from the file's bone name
//                                                  (made unique scene-wide, or sanitised)
#pragma once

#include "importers/roblox_mesh/mesh.hpp"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

struct aiScene;
struct aiMetadata;

namespace gamefmt::glue {

// Metadata keys (see the list above).
namespace rbxkeys {
inline constexpr const char *kSourceFormatValue = "Roblox FileMesh";
inline constexpr const char *kVertexSize = "rbxmesh.vertexSize";
inline constexpr const char *kFaceSize = "rbxmesh.faceSize";
inline constexpr const char *kHeaderSize = "rbxmesh.headerSize";
inline constexpr const char *kLodEntrySize = "rbxmesh.lodEntrySize";
inline constexpr const char *kLodType = "rbxmesh.lodType";
inline constexpr const char *kNumHighQualityLods = "rbxmesh.numHighQualityLODs";
inline constexpr const char *kV4Unused = "rbxmesh.v4Unused";
inline constexpr const char *kCoremeshVersion = "rbxmesh.coremeshVersion";
inline constexpr const char *kLodOffsets = "rbxmesh.lodOffsets";
inline constexpr const char *kLodLevels = "rbxmesh.lodLevels";
inline constexpr const char *kNumVertices = "rbxmesh.numVertices";
inline constexpr const char *kNumFaces = "rbxmesh.numFaces";
inline constexpr const char *kAllLods = "rbxmesh.allLods";
inline constexpr const char *kTextCrlf = "rbxmesh.textCrlf";
inline constexpr const char *kTextFinalNewline = "rbxmesh.textFinalNewline";
inline constexpr const char *kChunkOrder = "rbxmesh.chunkOrder";
inline constexpr const char *kUnknownChunks = "rbxmesh.unknownChunks";
inline constexpr const char *kUnknownChunkPrefix = "rbxmesh.unknownChunk.";
inline constexpr const char *kTrailingBytes = "rbxmesh.trailingBytes";
inline constexpr const char *kFacs = "rbxmesh.facs";
inline constexpr const char *kFacsFormat = "rbxmesh.facsFormat";
inline constexpr const char *kHsravis = "rbxmesh.hsravis";
inline constexpr const char *kHsravisBitCount = "rbxmesh.hsravisBitCount";
inline constexpr const char *kFacsBaked = "rbxmesh.facsBaked";
// Node metadata.
inline constexpr const char *kLodLevel = "rbxmesh.lodLevel";
inline constexpr const char *kSkeleton = "rbxmesh.skeleton";
inline constexpr const char *kBoneIndex = "rbxmesh.boneIndex";
inline constexpr const char *kCulling = "rbxmesh.culling";
inline constexpr const char *kLodParent = "rbxmesh.lodParent";
inline constexpr const char *kOriginalName = "rbxmesh.originalName";
// Node names.
inline constexpr const char *kRootNode = "RobloxMesh";
inline constexpr const char *kSkeletonNode = "Skeleton";
inline constexpr const char *kMaterialName = "RobloxMesh";
} // namespace rbxkeys

struct RobloxMeshSceneOptions {
    bool allLods = false; // GAMEFMT_RBXMESH_IMPORT_ALL_LODS
    bool bakeFacs = true; // GAMEFMT_RBXMESH_BAKE_FACS
};

// Fills the (empty, freshly constructed) `scene` from `mesh`. Forwards the model's warnings and its own
// (dropped influences, unmatched FACS bones) to Assimp's logger. Throws FormatError ("Roblox mesh") when
// LOD0 has no faces.
void BuildRobloxMeshScene(const rbxmesh::RobloxMesh &mesh, const RobloxMeshSceneOptions &options, aiScene *scene);

// Decodes `rbxmesh.facs` from scene metadata `md` into `out` (format and blob byte for byte; `parsed` set when
// the blob interprets cleanly). False, leaving `out` untouched, when the key is absent or malformed.
bool ReadRobloxFacsMetadata(const aiMetadata *md, rbxmesh::Facs &out);

// The same for `rbxmesh.hsravis` (bitCount and bit bytes).
bool ReadRobloxHsravisMetadata(const aiMetadata *md, rbxmesh::Hsravis &out);

// The key of field `field` of unknown chunk `index`: "rbxmesh.unknownChunk.<index>.<field>".
std::string UnknownChunkKey(std::size_t index, std::string_view field);

} // namespace gamefmt::glue
