// Redguard model -> aiScene (docs/formats/redguard-3d.md §13). The layout and keys below are the contract between the
// importer and the exporter (which reads them back for byte-exact round trips).
//
//   <file name>                 root, identity (the file name with its extension, e.g. "TRI.3D", so the model
//   │                           node below can carry the stem without a name clash)
//   └─ <model>                  one node per model (a .3D/.3DC: the stem; a ROB: one child per segment, named
//                               after it, duplicates made unique; an unresolved type-512 segment: empty node;
//                               a segment of unknown type: no node, a warning)
//        meshes                 one aiMesh per material key (tex_hi, texture value), named "<model>_<k>" (k = 0,
//                               1, … in order of first use), faces in file order: polygons as stored (3-255
//                               corners, CCW; aiPrimitiveType_TRIANGLE / POLYGON), indexed per (file vertex, U, V,
//                               normal source), normals always, UV channel 0 (2 components)
// Concave faces: Assimp 5.2.5's aiProcess_Triangulate mis-cuts concave polygons (an L-hexagon comes out with
// overlapping and flipped triangles), so the importer ear-clips every concave face itself into n − 2 triangles
// emitted consecutively. The first of them starts with the face's corner 0; the polygon is the boundary of the
// pieces (directed edges used by exactly one piece), walked from there. rg.face_order marks such runs (below).
// Convex faces (every quad of the real data) stay polygons.
// Positions (−x, −y, z) / 256 · GAMEFMT_RG_SCALE; normals (−nx, −ny, nz). UV = (U / 16w, 1 − V / 16h).
// Materials: "tex<bank>_<image>" or "color<index>" (invalid values: "tex_invalid_<hex>"), with material
// properties "$rg.tex_raw" (int: the u32 bit pattern), "$rg.tex_hi" (int), "$rg.tex_w" / "$rg.tex_h" (int, the
// size used for UVs); an embedded PNG texture "*N" in DIFFUSE and BASE_COLOR (wrap mode) when the bank image
// and a palette (or the image's own CMAP) are found, the diffuse colour then white; without them a light grey
// placeholder, same name and properties; solid colours in COLOR_DIFFUSE and BASE_COLOR (the grey ramp when
// no palette was found). Materials are shared scene-wide by (version family, tex_hi, texture value).
// Animation (N > 1 frames): every mesh has N aiAnimMeshes "frame<k>" (absolute positions and normals, base
// vertex order), the base mesh is frame 0 (frame GAMEFMT_RG_BASE_FRAME); one aiAnimation "frames" at
// GAMEFMT_RG_FPS ticks per second with one aiMeshMorphAnim per mesh (named after it): keys at k−1 for frames
// 1..N−1 (with GAMEFMT_RG_INCLUDE_FRAME0: frame k at time k for frames 0..N−1), one-hot weights over all N
// anim meshes, mDuration = last key time, aiMesh::mMethod = MORPH_NORMALIZED. Frame 0 normals are the file's
// (§6); frames k ≥ 1: the normalised sum of the frame's unit face normals over the faces sharing the corner's
// normal slot (smooth corners), or the frame's face normal (flat corners).
// Node metadata on model nodes (flat; no nested metadata: 5.2.5's scene copy aborts on it):
//   rg.version (string "v5.0"), rg.frame_type, rg.num_frames, rg.base_frame, rg.header24, rg.radius (int32),
//   rg.vertex_normals ("table", "direct" or "none"),
//   rg.face_order (string): per mesh of the node, "m<k>:" then the file face index of each emitted face,
//     comma-separated, runs of consecutive indices as "a-b", a concave face split into t triangles as "fxt";
//     meshes separated by ';' — e.g. "m0:0-3,7,9x4;m1:4-6,8",
//   rg.section4 (string, only when the model has Section4; "" when present with 0 groups): groups separated by
//     ';', each "cx,cy,cz,radius,o0,o1,o2:refs" (centre i32, radius u32, the f32 triple printed with %.9g
//     (0,0,0 in v2 models)); refs comma-separated: a reference that points at its face's record (every real
//     one) as the face index, consecutive ones as "a-b"; any other as "off/i4" (model-relative face-record
//     offset / face index·4) — e.g. "0,-256,0,362,0.5,1,1.25:0-11,14,96/3". The exporter reads both forms; a
//     group of more than 65535 references, or any other malformed text, gives one group of every face and a
//     warning.
//   rg.vertex_order (string, only when the file does not number its vertices in first use along the faces): the
//     file vertex index of each used vertex in order of first use (faces in file order, corners in order),
//     comma-separated, runs as "a-b" — e.g. "0-1,4,2-3"; an exporter that numbers welded vertices by first use
//     maps its k-th vertex to the k-th entry to restore the file's indices,
//   A string longer than 1000 bytes is stored in the long form of gamefmt/metadata.hpp (GetMetadataText).
//   Bytes kept for archival (never interpreted): rg.header (the 64 header bytes, a base64 blob), rg.v2_block
//     (v2.x: the opaque 24·nf block, a blob), rg.face_unused ("face=hex,…", only faces whose unused word is not 0).
// ROB children also rg.segment_name (string), rg.segment_type, rg.segment_flags, rg.segment_attr (int32),
// rg.segment_header (the 80 header bytes, a blob);
// type 512 segments rg.external (string: the file opened, "" when unresolved).
// Scene metadata: SourceAsset_Format "Redguard 3D" (or "Redguard ROB archive"), SourceAsset_FormatVersion
// (the model's "v5.0"…, "OARC" for archives). A scene without any face is AI_SCENE_FLAGS_INCOMPLETE with
// no materials.
#pragma once

#include "gamefmt/metadata.hpp"
#include "importers/redguard/model.hpp"
#include "importers/redguard/rob.hpp"
#include "importers/redguard/texbsi.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

struct aiScene;
struct aiNode;
struct aiMesh;
struct aiLight;

namespace gamefmt::glue {

namespace rgkeys {
inline constexpr const char *kSourceFormatModel = "Redguard 3D";
inline constexpr const char *kSourceFormatRob = "Redguard ROB archive";
inline constexpr const char *kVersion = "rg.version";
inline constexpr const char *kFrameType = "rg.frame_type";
inline constexpr const char *kNumFrames = "rg.num_frames";
inline constexpr const char *kBaseFrame = "rg.base_frame";
inline constexpr const char *kHeader24 = "rg.header24";
inline constexpr const char *kRadius = "rg.radius";
inline constexpr const char *kVertexNormals = "rg.vertex_normals";
inline constexpr const char *kFaceOrder = "rg.face_order";
inline constexpr const char *kSection4 = "rg.section4";
inline constexpr const char *kVertexOrder = "rg.vertex_order";
inline constexpr const char *kSegmentName = "rg.segment_name";
inline constexpr const char *kSegmentType = "rg.segment_type";
inline constexpr const char *kSegmentFlags = "rg.segment_flags";
inline constexpr const char *kSegmentAttr = "rg.segment_attr";
inline constexpr const char *kHeader = "rg.header";                // blob: the 64-byte header
inline constexpr const char *kV2Block = "rg.v2_block";             // blob, v2.x: the opaque 24·nf block
inline constexpr const char *kFaceUnused = "rg.face_unused";       // "face=hex,..." for non-zero unused words
inline constexpr const char *kSegmentHeader = "rg.segment_header"; // blob: the 80-byte ROB segment header
inline constexpr const char *kExternal = "rg.external";
// Material properties (aiMaterial keys, type 0, index 0).
inline constexpr const char *kMatTexRaw = "$rg.tex_raw";
inline constexpr const char *kMatTexHi = "$rg.tex_hi";
inline constexpr const char *kMatTexW = "$rg.tex_w";
inline constexpr const char *kMatTexH = "$rg.tex_h";
// Animated bank images (docs/formats/redguard-world.md §3): every frame an embedded texture.
inline constexpr const char *kMatAnimCount = gamefmt::kMatAnimCount;     // int: frames
inline constexpr const char *kMatAnimDelayMs = gamefmt::kMatAnimDelayMs; // int: the image's stored delay (ms)
inline constexpr const char *kMatAnimFrameMs = gamefmt::kMatAnimFrameMs; // float: the engine's time per frame (ms)
inline constexpr const char *kMatAnimFrames = gamefmt::kMatAnimFrames;   // string: "*a,*b,…", frame 0 first
inline constexpr const char *kAnimationName = "frames";
} // namespace rgkeys

struct RedguardSceneOptions {
    double scale = 1.0;         // GAMEFMT_RG_SCALE
    double fps = 12.0;          // GAMEFMT_RG_FPS
    bool includeFrame0 = false; // GAMEFMT_RG_INCLUDE_FRAME0
    int baseFrame = 0;          // GAMEFMT_RG_BASE_FRAME (clamped to the model's frames)
    int fallbackTexSize = 256;  // GAMEFMT_RG_FALLBACK_TEX_SIZE
    bool staticPose = false;    // levels: animated models show their base frame only (no morph targets)
};

// What the builder needs from outside the model; all file access stays with the importer (IOSystem).
struct RedguardSideFiles {
    // TEXBSI.<bank>, parsed; null when missing or unreadable (the importer warns once per bank).
    std::function<const redguard::TexBank *(unsigned bank)> bank;
    const redguard::Palette *palette = nullptr; // null: none found (solids use the grey ramp, no textures)
    bool paletteConfigured = false;             // GAMEFMT_RG_PALETTE given: preferred over an image's CMAP
    // The bytes of <name>.3DC for a type-512 ROB segment and the path opened; nullopt when not found.
    std::function<std::optional<std::pair<std::string, std::vector<std::uint8_t>>>(const std::string &name)>
        externalModel;
};

// Builds the scene of one .3D/.3DC model: root `fileName`, one model node `modelName`.
void BuildRedguardModelScene(const redguard::RG3DModel &model, const std::string &fileName,
                             const std::string &modelName, const RedguardSceneOptions &options,
                             const RedguardSideFiles &side, aiScene *scene);

// Builds the scene of a ROB archive read from data[0..size): root `fileName`, one child per segment.
void BuildRedguardRobScene(const redguard::RobArchive &rob, const std::uint8_t *data, std::size_t size,
                           const std::string &fileName, const RedguardSceneOptions &options,
                           const RedguardSideFiles &side, aiScene *scene);

// The parts of a level scene (assimp_glue/redguard/level.hpp builds its nodes): models converted to meshes that
// any number of nodes share, bank images as materials, extra meshes and lights, all in one scene-wide material
// and texture table.
class RedguardLevelAssembler {
public:
    RedguardLevelAssembler(const RedguardSceneOptions &options, const RedguardSideFiles &side);
    ~RedguardLevelAssembler();
    RedguardLevelAssembler(const RedguardLevelAssembler &) = delete;
    RedguardLevelAssembler &operator=(const RedguardLevelAssembler &) = delete;

    // Converts `model` (meshes "<name>_<k>") and returns its mesh indices. Call once per model and share them.
    std::vector<unsigned> modelMeshes(const redguard::RG3DModel &model, const std::string &name);
    struct ImageMaterial {
        unsigned index = 0;
        int width = 0, height = 0;
        bool found = false; // the image was found and embedded (else a grey placeholder)
    };
    // "tex<bank>_<image>", the whole image (mirrored repeat when `mirrored`); one per (bank, image, mirrored).
    ImageMaterial imageMaterial(unsigned bank, unsigned image, bool mirrored);
    unsigned addMesh(std::unique_ptr<aiMesh> mesh);
    void addLight(std::unique_ptr<aiLight> light);
    // Moves everything into `scene` under `root` (owned from here on).
    void finish(aiNode *root, aiScene *scene, const char *format, const std::string &version);

private:
    struct Impl;
    std::unique_ptr<Impl> mImpl;
};

} // namespace gamefmt::glue
