// Redguard levels -> aiScene (docs/formats/redguard-world.md §1.7, §2.4, §2.5): an RGM scene's placed objects and a
// WLD world's terrain in one scene, aligned without any offset between them.
//
//   <file name>                  root, identity
//   ├─ Terrain                   the WLD grid: one mesh per terrain image "Terrain_<image>", material
//   │                            "tex302_<image>" (mirrored repeat), 4 vertices per cell, smooth normals
//   ├─ S###_<model>              MPSO records in file order: [R | T], the model's meshes (shared by every node
//   │                            showing the model); an unresolved model: no meshes
//   ├─ B_###_<script>            MPOB records; a light of type 4/6 as an aiLight of the same name
//   ├─ F###_<bank>/<image>       MPSF flats: a 20 × 20-unit quad (mesh "Flat_<bank>_<image>", shared)
//   ├─ R###_###_<model>          MPRP ropes: link j 16·(j + 1) units below the base, the end model one step further
//   ├─ L###                      MPSL lights (aiLight of the same name)
//   └─ MARKER_###                MPMK markers, only with GAMEFMT_RG_MARKERS
// T = (−X, −Y, Z − 16777215/256) · scale; MPSO R = S·M·S (S = diag(−1, −1, 1)); MPOB R = Ry(θy)·Rx(θx)·Rz(−θz).
// Node metadata: rg.record ("MPSO", …), rg.id, rg.model (the name looked up), rg.model_source (where it was
// found: "ROB <file>", the file, or "" when not found); MPOB also rg.object_type, rg.is_active, rg.is_static,
// rg.script, rg.texture, rg.light_values ("intensity,radius,model_id,world_id,r,g,b"), rg.texture_override
// (when the actor has one); MPSF rg.texture; MPRP rg.rope_fields; MPSL rg.light_record (the 42 bytes, a blob);
// MPMK rg.marker_flag. Scene metadata: SourceAsset_Format "Redguard RGM scene" / "Redguard WLD world",
// rg.skipped_sections (the sections a static import ignores), rg.world (the world index used, when known),
// rg.palette (the palette used), rg.terrain (the WLD file added to a scene).
#pragma once

#include "assimp_glue/redguard/scene.hpp"
#include "importers/redguard/rgm.hpp"
#include "importers/redguard/wld.hpp"

#include <functional>
#include <optional>
#include <string>

struct aiScene;

namespace gamefmt::glue {

namespace rglevel {
inline constexpr const char *kSourceFormatRgm = "Redguard RGM scene";
inline constexpr const char *kSourceFormatWld = "Redguard WLD world";
inline constexpr const char *kTerrainNode = "Terrain";
inline constexpr const char *kRecord = "rg.record";
inline constexpr const char *kId = "rg.id";
inline constexpr const char *kModel = "rg.model";
inline constexpr const char *kModelSource = "rg.model_source";
inline constexpr const char *kObjectType = "rg.object_type";
inline constexpr const char *kIsActive = "rg.is_active";
inline constexpr const char *kIsStatic = "rg.is_static";
inline constexpr const char *kScript = "rg.script";
inline constexpr const char *kTexture = "rg.texture";
inline constexpr const char *kLightValues = "rg.light_values";
inline constexpr const char *kTextureOverride = "rg.texture_override";
inline constexpr const char *kRopeFields = "rg.rope_fields";
inline constexpr const char *kLightRecord = "rg.light_record";
inline constexpr const char *kMarkerFlag = "rg.marker_flag";
inline constexpr const char *kSkippedSections = "rg.skipped_sections";
inline constexpr const char *kWorld = "rg.world";
inline constexpr const char *kPalette = "rg.palette";
inline constexpr const char *kTerrain = "rg.terrain";
// Units of the game's placement (§1.7): the Z shift, the flat size and the rope step, in model units.
inline constexpr double kZShift = 16777215.0 / 256.0;
inline constexpr double kFlatSize = 20.0;
inline constexpr double kRopeStep = 16.0;
// Hostile-input caps: rope links per rope and in all.
inline constexpr int kMaxLinksPerRope = 1024;
inline constexpr std::size_t kMaxLinks = 65536;
} // namespace rglevel

// A model found for a name: the model and where it came from ("ROB ISLAND.ROB", a file path).
struct RedguardFoundModel {
    redguard::RG3DModel model;
    std::string source;
};
using RedguardModelLookup = std::function<std::optional<RedguardFoundModel>(const std::string &name)>;

struct RedguardLevelInput {
    const redguard::RgmScene *scene = nullptr; // null: terrain only
    const redguard::WldWorld *world = nullptr; // null: scene only
    std::string fileName;                      // the root node's name
    RedguardModelLookup models;                // null: every model unresolved
    bool markers = false;                      // GAMEFMT_RG_MARKERS
    int worldIndex = -1;                       // rg.world (-1: unknown)
    std::string palette;                       // rg.palette ("" none)
    std::string terrainFile;                   // rg.terrain ("" none)
};

// Builds the level into `scene`. Warns once for unresolved models (naming them), skipped sections and each kind
// of guess the reference leaves open (MPSL colours, texture overrides).
void BuildRedguardLevelScene(const RedguardLevelInput &input, const RedguardSceneOptions &options,
                             const RedguardSideFiles &side, aiScene *scene);

} // namespace gamefmt::glue
