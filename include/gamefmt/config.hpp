// Every gamefmt option, as Assimp property names (Importer::SetProperty*, ExportProperties::Set*).
//
// Prefixes per format family: GAMEFMT_RBXMESH_ (Roblox mesh), GAMEFMT_RBX_ (Roblox model/place),
// GAMEFMT_SLMESH_ (Second Life mesh), GAMEFMT_RG_ (Redguard). Each option is documented here and in
// the README, and the gamefmt command line accepts it as `--option NAME=VALUE` (plus a named flag
// where one exists).
#pragma once

// (Format options arrive with their formats.)

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

// Export (string, default "lz4"): chunk compression of binary files written by the rbxm exporter:
// "lz4" (what Studio writes), "zstd" or "none". The XML exporter ignores it. CLI: --rbx-compression C
#define GAMEFMT_RBX_EXPORT_COMPRESSION "GAMEFMT_RBX_EXPORT_COMPRESSION"
