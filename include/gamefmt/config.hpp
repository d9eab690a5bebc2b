// Every gamefmt option, as Assimp property names (Importer::SetProperty*, ExportProperties::Set*).
//
// Prefixes per format family: GAMEFMT_RBXMESH_ (Roblox mesh), GAMEFMT_RBX_ (Roblox model/place),
// GAMEFMT_SLMESH_ (Second Life mesh), GAMEFMT_RG_ (Redguard). Each option is documented here and in
// the README, and the gamefmt command line accepts it as `--option NAME=VALUE` (plus a named flag
// where one exists).
#pragma once

// ---------------------------------------------------------------- every importer (docs/security.md)

// Import (int, default 512): the deepest node tree any gamefmt importer hands to Assimp, counted in levels
// below the root node (a Roblox top-level instance is level 1). A deeper file is an error naming the node
// (and, for Roblox, the instance's referent) and its depth. Assimp's own post-processing steps and exporters
// recurse once per level, so raising this far risks a stack overflow in them. Values < 1 mean the default.
// CLI: --max-node-depth N
#define GAMEFMT_MAX_NODE_DEPTH "GAMEFMT_MAX_NODE_DEPTH"

// ---------------------------------------------------------------- Roblox mesh (.mesh)

// Import (bool, default false): import every LOD level as its own mesh and node ("LOD0", "LOD1", ...),
// each over its own compacted vertices, with INT32 node metadata `rbxmesh.lodLevel`. Default: LOD0 only.
// CLI: --all-lods
#define GAMEFMT_RBXMESH_IMPORT_ALL_LODS "GAMEFMT_RBXMESH_IMPORT_ALL_LODS"

// Import (bool, default true): bake every FACS pose and corrective of a dynamic head into an absolute
// aiAnimMesh morph target named after its control ("c_JD", correctives "c_A+c_B"). The raw FACS data is
// kept in metadata either way, for lossless export. CLI: --no-facs-bake
#define GAMEFMT_RBXMESH_BAKE_FACS "GAMEFMT_RBXMESH_BAKE_FACS"

// Export (string, default "auto"): the .mesh version to write: "2.00", "3.00", "4.00", "4.01", "5.00",
// "6.00", "7.00", or "auto" (the lowest version that holds the scene: 2.00 static, 3.00 with LODs,
// 4.00 with bones, 5.00 with FACS). The exporter ids rbxmesh2 ... rbxmesh7 pick a version too.
// CLI: --mesh-version V
#define GAMEFMT_RBXMESH_VERSION "GAMEFMT_RBXMESH_VERSION"

// Export (bool, default true): 7.00 stores geometry as Draco (COREMESH v2); false writes COREMESH v1.
// CLI: --no-draco
#define GAMEFMT_RBXMESH_DRACO "GAMEFMT_RBXMESH_DRACO"

// Export (bool, default true): when the scene has one LOD level and the version holds LODs (3.00+),
// generate levels with meshoptimizer at GAMEFMT_RBXMESH_LOD_RATIOS. CLI: --no-lods
#define GAMEFMT_RBXMESH_GENERATE_LODS "GAMEFMT_RBXMESH_GENERATE_LODS"

// Export (string, default "0.5,0.25"): comma-separated face fractions of LOD0 for generated levels.
// CLI: --lod-ratios R[,R...]
#define GAMEFMT_RBXMESH_LOD_RATIOS "GAMEFMT_RBXMESH_LOD_RATIOS"

// ---------------------------------------------------------------- Roblox model / place (.rbxm .rbxl .rbxmx .rbxlx)

// Import (int, MiB, default 1024): ceiling on the total decompressed bytes of one file, chunks of nested
// models (unions) included; a file that needs more is rejected. Values <= 0 mean the default.
// CLI: --option GAMEFMT_RBX_MAX_DECOMPRESSED=N
#define GAMEFMT_RBX_MAX_DECOMPRESSED "GAMEFMT_RBX_MAX_DECOMPRESSED"

// Import (int, default 1000000): ceiling on the number of instances in one file. A binary file whose INST
// chunks declare more, or an XML file with more <Item> elements, is rejected before the instances are
// allocated (the file header's count is only a hint). Values < 1 mean the default. CLI: --rbx-max-instances N
#define GAMEFMT_RBX_MAX_INSTANCES "GAMEFMT_RBX_MAX_INSTANCES"

// Import (bool, default false): also give every instance node its property bag as node metadata —
// rbx.ClassName, rbx.Name, rbx.Referent, rbx.service and rbx.props.<name> = "<Type>:<text>" — so tools that
// show node metadata (glTF extras in Blender) see the properties. Without it the instances travel only in
// the scene's rbx.source entry (the file, zstd-compressed; docs/metadata.md): every Assimp metadata entry
// costs ~2 KB, so the bags take gigabytes for a 300,000-part place. CLI: --rbx-node-properties
#define GAMEFMT_RBX_NODE_PROPERTIES "GAMEFMT_RBX_NODE_PROPERTIES"

// Import (bool, default true): build what the parts show (meshes, materials, decals, lights, the camera).
// false: the instance tree alone, nodes with their CFrames (the cheapest import of a huge place).
// CLI: --rbx-no-geometry
#define GAMEFMT_RBX_GEOMETRY "GAMEFMT_RBX_GEOMETRY"

// Import (string, default "auto"): which parts get geometry. "workspace": the descendants of the top-level
// Workspace (what the game world shows; other services keep their nodes without meshes); "all": every part
// in the file; "auto": workspace for places, all for models. CLI: --rbx-scope SCOPE
#define GAMEFMT_RBX_GEOMETRY_SCOPE "GAMEFMT_RBX_GEOMETRY_SCOPE"

// Import (bool, default false): no mesh for parts, decals and textures with Transparency >= 1 (their nodes
// stay). By default they keep their geometry with opacity 0. CLI: --rbx-skip-invisible
#define GAMEFMT_RBX_SKIP_INVISIBLE "GAMEFMT_RBX_SKIP_INVISIBLE"

// Import (int, default 24, 3..256): segments around cylinders and spheres (spheres get half as many rings).
// CLI: --rbx-segments N
#define GAMEFMT_RBX_SEGMENTS "GAMEFMT_RBX_SEGMENTS"

// Import (bool, default true): characters (a Model with a Humanoid) wear their classic clothing: BodyColors, Pants,
// Shirt and ShirtGraphic composited into the textures their body parts' UVs point into (R15: torso and limb
// textures over the MeshParts; R6: an atlas on boxes), the images read from the asset folders (PNG). False: no
// compositing (body parts show their BodyColors colour and their own textures). docs/roblox-model.md "Avatars". CLI:
// --rbx-no-clothing
#define GAMEFMT_RBX_CLOTHING "GAMEFMT_RBX_CLOTHING"

// Import (int, default 1, 1..8): composited clothing textures at N times Roblox's layout size (388×272 torso,
// 264×284 limbs, 1024×512 R6 atlas), for templates drawn larger than 585×559. CLI: --rbx-clothing-scale N
#define GAMEFMT_RBX_CLOTHING_SCALE "GAMEFMT_RBX_CLOTHING_SCALE"

// Import (bool, default false): add a directional light "Sun" where the place's Lighting puts the sun
// (TimeOfDay/ClockTime and GeographicLatitude; docs/formats/roblox-model.md §5.5), white × Lighting.Brightness,
// on a node of its own under the root; none at night. CLI: --rbx-sun
#define GAMEFMT_RBX_SUN "GAMEFMT_RBX_SUN"

// Import (bool, default true): rebuild Roblox rigs along their joints (docs/roblox-model.md "Rigs and
// animations"): each Motor6D becomes a static node "<joint>:C0" and an animated node "<joint>:T" above its Part1's
// node, each Bone gets a "<bone>:T" node, parts welded to rig parts ride along; the nodes carry rbx.joint and the
// moved parts rbx.rigParent/rbx.rigIndex, so the .rbxm/.rbxl exporters still write the instance tree unchanged.
// false: the instance tree as it is, and no animations. CLI: --rbx-no-rigs
#define GAMEFMT_RBX_RIGS "GAMEFMT_RBX_RIGS"

// Import (bool, default true): one aiAnimation per KeyframeSequence and rig it drives (its tracks bind to the
// rig's joints by Pose names); needs GAMEFMT_RBX_RIGS. CLI: --rbx-no-animations
#define GAMEFMT_RBX_ANIMATIONS "GAMEFMT_RBX_ANIMATIONS"

// Import (int, default 60, 1 to 1000): keys per second at which Cubic, CubicV2, Bounce and Elastic easing are
// baked into linear keys (Linear keys are exact; Constant gets a key one tick before its switch). The baking
// error bound is in docs/roblox-model.md. CLI: --rbx-animation-fps N
#define GAMEFMT_RBX_ANIMATION_FPS "GAMEFMT_RBX_ANIMATION_FPS"

// Export (bool, default false): the rbxm/rbxmx exporters write the scene's animations as KeyframeSequences (one
// per animation, for Studio's Animation Editor) instead of the scene: docs/formats/roblox-model.md §5.6,
// docs/roblox-model.md "Animations back to Roblox". The export ids rbxanim / rbxanimx do the same.
// CLI: --rbx-animation-only
#define GAMEFMT_RBX_ANIMATION_ONLY "GAMEFMT_RBX_ANIMATION_ONLY"

// Export (string, default ""): the .rbxm/.rbxl/.rbxmx/.rbxlx holding the rig those KeyframeSequences are for (its
// Motor6Ds' C0/C1, part names and Humanoid.HipHeight); empty: the scene's own rig (a scene read from a Roblox
// file). CLI: --rbx-animation-rig FILE
#define GAMEFMT_RBX_ANIMATION_RIG "GAMEFMT_RBX_ANIMATION_RIG"

// Import (string, default ""): folders of downloaded assets or Roblox Studio installs, separated by ';',
// searched in order for the meshes of MeshParts and FileMeshes and the images of textures, SurfaceAppearances
// and decals (docs/roblox-model.md: "rbxassetid://123" → "<dir>/123", then "123.mesh" for meshes or
// "123.png", "123.jpg", "123.jpeg" for images; "rbxasset://p" → "<dir>/p", "<dir>/content/p",
// "<dir>/PlatformContent/pc/p", "<dir>/ExtraContent/p"). Read through the IOSystem (at most 64 MiB each),
// gzip-wrapped files inflated, content sniffed (Roblox mesh, PNG, JPEG), never trusted by name. Meshes are
// read with the Roblox mesh codec; images are embedded. Never the network, never "..". A named folder that
// does not exist is an error. CLI: --asset-dir DIR (repeatable; --rbx-asset-dir is the same)
#define GAMEFMT_RBX_ASSET_DIR "GAMEFMT_RBX_ASSET_DIR"

// Export (string, default "4.00"): the version of the sidecar .mesh files the rbxm/rbxmx exporters write for a
// scene that is not a Roblox model (one per distinct MeshPart mesh: "<stem>_<n>.mesh" beside the output):
// "2.00" … "7.00", or "auto" (the lowest that holds the mesh). 4.00 keeps bones and is what Studio imports
// most widely. CLI: --rbx-mesh-version V
#define GAMEFMT_RBX_MESH_VERSION "GAMEFMT_RBX_MESH_VERSION"

// Export (string, default "rbxasset://"): what the MeshId and TextureID of those MeshParts say before the
// sidecar's file name. The default resolves on import with the output folder as asset folder
// (GAMEFMT_RBX_ASSET_DIR) and, once the files are copied into Studio's content folder, in Studio.
// CLI: --rbx-uri-prefix P
#define GAMEFMT_RBX_MESH_URI_PREFIX "GAMEFMT_RBX_MESH_URI_PREFIX"

// Import (bool, default true): mesh the place's Terrain voxels (Terrain.SmoothGrid) with the surface-nets mesher
// of docs/formats/roblox-terrain.md §8: one mesh per terrain material, coloured by MaterialColors. false: the
// Terrain node stays empty (its voxels stay in the file). CLI: --rbx-no-terrain
#define GAMEFMT_RBX_TERRAIN "GAMEFMT_RBX_TERRAIN"

// Import (bool, default true): also mesh the terrain's water (one mesh, WaterColor, 1 - WaterTransparency).
// CLI: --rbx-no-water
#define GAMEFMT_RBX_TERRAIN_WATER "GAMEFMT_RBX_TERRAIN_WATER"

// Import (int, default 1): mesh the terrain every N voxels per axis (1, 2 or 4): cells of 4·N studs, a coarse cell
// taking the most common solid material and the mean occupancy of its N³ voxels. 1 is full resolution; 2 and 4
// are for quick previews (they smear anything under 4·N studs). CLI: --rbx-terrain-stride N
#define GAMEFMT_RBX_TERRAIN_STRIDE "GAMEFMT_RBX_TERRAIN_STRIDE"

// Import (float, default 0.5): simplify the terrain surface to this error in studs (0.5 = 1/8 voxel): flat regions
// exactly, the rest with meshoptimizer's meshopt_simplify, each chunk's surface of each material on its own with
// its borders locked (no cracks). 0 = the full surface-nets surface, unsimplified. 0 to 64.
// CLI: --rbx-terrain-error STUDS
#define GAMEFMT_RBX_TERRAIN_ERROR "GAMEFMT_RBX_TERRAIN_ERROR"

// Import (int, default 0 = the hardware's concurrency): threads that mesh terrain chunks; 1 = on the importing
// thread only. The result does not depend on it. 0 to 256. CLI: --rbx-terrain-threads N
#define GAMEFMT_RBX_TERRAIN_THREADS "GAMEFMT_RBX_TERRAIN_THREADS"

// Export (string, default "lz4"): chunk compression of binary files written by the rbxm exporter:
// "lz4" (what Studio writes), "zstd" or "none". The XML exporter ignores it. CLI: --rbx-compression C
#define GAMEFMT_RBX_EXPORT_COMPRESSION "GAMEFMT_RBX_EXPORT_COMPRESSION"

// ---------------------------------------------------------------- Second Life mesh (.llmesh .slm)

// Import (string, default "high"): which level of detail becomes the scene: "high", "medium", "low",
// "lowest" or "all" (every level present, each under its own node "high_lod", "medium_lod", ...). An
// integer property 0 (lowest) ... 3 (high) is accepted too. A level missing from the file falls back to the
// next lower one, then to higher ones (as the viewer does). CLI: --sl-lod LEVEL
#define GAMEFMT_SLMESH_LOD "GAMEFMT_SLMESH_LOD"

// Import (bool, default false): same as GAMEFMT_SLMESH_LOD = "all". CLI: --sl-lod all
#define GAMEFMT_SLMESH_ALL_LODS "GAMEFMT_SLMESH_ALL_LODS"

// Import (bool, default false): add the physics data under a node "physics": the physics_mesh block as
// meshes, and physics_convex's bounding hull and each decomposition hull as meshes (faces computed with
// qhull; fewer than 4 or coplanar points become a point mesh). CLI: --sl-physics
#define GAMEFMT_SLMESH_PHYSICS "GAMEFMT_SLMESH_PHYSICS"

// Import and export (bool, default true): convert between Second Life's Z-up frame and Assimp's Y-up
// frame with a root rotation (SL +Z -> +Y, SL +Y -> -Z); vertex data stays in the SL frame. false keeps
// Z-up (root identity, scene metadata UpAxis = 2) on import. The exporter undoes the rotation when the
// scene says UpAxis = 2, whatever this option. CLI: --sl-zup (sets false)
#define GAMEFMT_SLMESH_YUP "GAMEFMT_SLMESH_YUP"

// Import (bool, default false): rigged assets get every joint of the avatar skeleton (159 nodes) instead
// of only the joints the skin names plus their ancestors. CLI: --sl-full-skeleton
#define GAMEFMT_SLMESH_SKELETON "GAMEFMT_SLMESH_SKELETON"

// Import (bool, default true): apply a static mesh's NormalizedScale as the scale of its LOD node, giving
// it its uploaded size. CLI: --option GAMEFMT_SLMESH_NORMALIZED_SCALE=0
#define GAMEFMT_SLMESH_NORMALIZED_SCALE "GAMEFMT_SLMESH_NORMALIZED_SCALE"

// Import (int, MiB, default 64): ceiling on the inflated size of one block; a block that needs more is
// skipped with a warning (and the file fails if no level of detail is left). Values <= 0 mean the default.
// CLI: --option GAMEFMT_SLMESH_MAX_INFLATED=N
#define GAMEFMT_SLMESH_MAX_INFLATED "GAMEFMT_SLMESH_MAX_INFLATED"

// Import (int, default 0): which mesh of a .slm model save to import. CLI: --option GAMEFMT_SLMESH_SLM_MESH=N
#define GAMEFMT_SLMESH_SLM_MESH "GAMEFMT_SLMESH_SLM_MESH"

// Export (bool, default false): a scene with more than 8 materials is written as several files, the
// model and <stem>_<k>.llmesh submodels (header submodel_id = k), instead of failing. CLI: --sl-submodels
#define GAMEFMT_SLMESH_SUBMODELS "GAMEFMT_SLMESH_SUBMODELS"

// Export (bool, default false): write the material names as the header's material_list (what the viewer
// puts in .slm saves; uploads do not carry it). CLI: --sl-material-list
#define GAMEFMT_SLMESH_MATERIAL_LIST "GAMEFMT_SLMESH_MATERIAL_LIST"

// Export (bool, default true): when the scene has only one level of detail, generate medium, low and
// lowest with meshoptimizer at GAMEFMT_SLMESH_LOD_RATIOS; false repeats the high level. CLI: --sl-no-lods
#define GAMEFMT_SLMESH_GENERATE_LODS "GAMEFMT_SLMESH_GENERATE_LODS"

// Export (string, default "0.5,0.25,0.125"): the triangle fractions of the high level that medium, low and
// lowest aim at (the viewer's own auto-LOD uses "0.333,0.111,0.037"). Each lower level ends up with fewer
// triangles than the one above, or repeats it when the simplifier cannot go lower. CLI: --sl-lod-ratios R,R,R
#define GAMEFMT_SLMESH_LOD_RATIOS "GAMEFMT_SLMESH_LOD_RATIOS"

// ---------------------------------------------------------------- Redguard (.3d .3dc .rob .rgm .wld)

// Import (string, default ""): a Redguard game folder (e.g. .../Redguard/fxart) to search first for
// TEXBSI.### texture banks, .COL palettes and the external .3DC models ROB archives name; then the model's
// own folder and its sibling fxart/ folder (any case). CLI: --rg-assets DIR
#define GAMEFMT_RG_ASSET_DIR "GAMEFMT_RG_ASSET_DIR"

// Import and export (string, default ""): the palette (.COL path, or a stem such as "ISLAND" looked up in
// the asset folders). Default: <model or ROB stem>.COL beside the file, else a grey ramp with a warning.
// CLI: --rg-palette P
#define GAMEFMT_RG_PALETTE "GAMEFMT_RG_PALETTE"

// Import and export (float, default 1): scale of 1/256 raw units to Assimp units (existing tools divide by a
// further 20: 0.05). CLI: --rg-scale S
#define GAMEFMT_RG_SCALE "GAMEFMT_RG_SCALE"

// Import (float, default 12): ticks per second of the frame animation of .3DC models. CLI: --rg-fps F
#define GAMEFMT_RG_FPS "GAMEFMT_RG_FPS"

// Import (bool, default false): key frame 0 (the reference pose, often a T-pose) at the start of the
// animation too. CLI: --rg-include-frame0
#define GAMEFMT_RG_INCLUDE_FRAME0 "GAMEFMT_RG_INCLUDE_FRAME0"

// Import (int, default 0): the frame the base mesh shows (1 hides the T-pose of characters).
// CLI: --option GAMEFMT_RG_BASE_FRAME=N
#define GAMEFMT_RG_BASE_FRAME "GAMEFMT_RG_BASE_FRAME"

// Import and export (int, default 256): texture size in texels assumed for UVs when the bank image is not
// found (and for solid faces). CLI: --option GAMEFMT_RG_FALLBACK_TEX_SIZE=N
#define GAMEFMT_RG_FALLBACK_TEX_SIZE "GAMEFMT_RG_FALLBACK_TEX_SIZE"

// Import of RGM scenes (string, default ""): the WLD terrain to add to the scene: a .wld path, or "none" for no
// terrain. Default: the terrain the game's world table pairs with the scene (ISLAND.RGM -> ISLAND.WLD,
// START.RGM -> HIDEOUT.WLD, …), else <stem>.WLD, looked up beside the scene and in the asset folders; none
// when neither exists. CLI: --rg-world FILE.wld (docs/redguard.md "Levels")
#define GAMEFMT_RG_WORLD "GAMEFMT_RG_WORLD"

// Import of RGM scenes and WLD worlds (int, default -1): the game's world index (WORLD.INI: 0 START, 1 ISLAND,
// 6 NECRISLE, 17 HIDEINT, 27 ISLAND at night, 28 ISLAND at sunset, 30 EXTPALAC), which chooses the palette and
// the terrain when a level belongs to several worlds. Default: the lowest world the level belongs to, with a
// warning when there are several. CLI: --rg-world-index N
#define GAMEFMT_RG_WORLD_INDEX "GAMEFMT_RG_WORLD_INDEX"

// Import of RGM scenes (bool, default false): add the MPMK markers (AI and script positions) as empty nodes
// MARKER_###. CLI: --rg-markers
#define GAMEFMT_RG_MARKERS "GAMEFMT_RG_MARKERS"

// Export (string, default "v5.0"): the .3D version to write, "v5.0" or "v4.0". CLI: --rg-version V
#define GAMEFMT_RG_EXPORT_VERSION "GAMEFMT_RG_EXPORT_VERSION"

// Export (string, default "color:255"): what a material without Redguard texture data becomes:
// "tex:BANK/IMAGE" (e.g. "tex:376/19") or "color:INDEX" (a palette index; with a palette the nearest entry
// to the material's diffuse colour is used instead). CLI: --rg-default-texture T
#define GAMEFMT_RG_DEFAULT_TEXTURE "GAMEFMT_RG_DEFAULT_TEXTURE"

// ---------------------------------------------------------------------------------------------------------
// glTF 2.0 (exporters gamefmt-glb and gamefmt-gltf; docs/gltf.md)

// Export (bool, default false): write lengths in the scene's own units. By default every length is scaled to
// metres by the scene metadata UnitScaleFactor (centimetres per unit, Assimp's FBX meaning; Roblox scenes say
// 28: 1 stud = 0.28 m); scenes without it are written as they are. CLI: --keep-units
#define GAMEFMT_GLTF_KEEP_UNITS "GAMEFMT_GLTF_KEEP_UNITS"

// Export (bool, default false): compress triangle primitives with KHR_draco_mesh_compression (positions 14 bits,
// normals 10, UVs 12, colours 10; skinned and morphing primitives stay uncompressed). CLI: --draco
#define GAMEFMT_GLTF_DRACO "GAMEFMT_GLTF_DRACO"

// Export (bool, default false): compress vertex, index and animation data with EXT_meshopt_compression
// (lossless; the file then requires the extension). CLI: --meshopt
#define GAMEFMT_GLTF_MESHOPT "GAMEFMT_GLTF_MESHOPT"

// Export (int, default 8): bone influences kept per vertex, heaviest first and renormalised: 4 (one
// JOINTS_0/WEIGHTS_0 set, what Godot 3 reads) or 8 (a second set where a vertex needs it). CLI: --max-influences N
#define GAMEFMT_GLTF_MAX_INFLUENCES "GAMEFMT_GLTF_MAX_INFLUENCES"

// Export (string, default ""): the folder relative texture paths of the scene are read from (the command line
// sets it to the input file's folder). Textures that are not found are left out with a warning.
// CLI: --option GAMEFMT_GLTF_TEXTURE_BASE=DIR
#define GAMEFMT_GLTF_TEXTURE_BASE "GAMEFMT_GLTF_TEXTURE_BASE"
