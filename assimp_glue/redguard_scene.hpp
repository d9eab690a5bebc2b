// Redguard model -> aiScene (redguard-3d.md §13). The layout and keys below are the contract between the
// importer and the exporter (which reads them back for byte-exact round trips).
//
//   <file stem>                 root, identity
//   └─ <model>                  one node per model (a .3D/.3DC: the stem; a ROB: one child per segment, named
//                               after it, duplicates made unique; an unresolved type-512 segment: empty node)
//        meshes                 one aiMesh per material key (tex_hi, texture value), named "<model>_<k>",
//                               polygons as stored (3-255 corners, CCW; triangulate with aiProcess_Triangulate),
//                               indexed per (file vertex, U, V, normal source), normals always, UV channel 0
// Positions (−x, −y, z) / 256 · GAMEFMT_RG_SCALE; normals (−nx, −ny, nz). UV = (U / 16w, 1 − V / 16h).
// Materials: "tex<bank>_<image>" or "color<index>" (invalid values: "tex_invalid_<hex>"), with material
// properties "$rg.tex_raw" (int), "$rg.tex_hi" (int), "$rg.tex_w" / "$rg.tex_h" (int, the size used for UVs);
// an embedded PNG texture "*N" in DIFFUSE and BASE_COLOR (wrap mode) when the bank is found; solid colours in
// COLOR_DIFFUSE and BASE_COLOR.
// Animation (N > 1 frames): every mesh has N aiAnimMeshes "frame<k>" (absolute positions and normals, base
// vertex order), the base mesh is frame 0 (frame GAMEFMT_RG_BASE_FRAME); one aiAnimation "frames" at
// GAMEFMT_RG_FPS ticks per second with one aiMeshMorphAnim per mesh (named after it): keys at k−1 for frames
// 1..N−1 (plus frame 0 first with GAMEFMT_RG_INCLUDE_FRAME0), one-hot weights over all N anim meshes.
// Node metadata on model nodes: rg.version (string "v5.0"), rg.frame_type, rg.num_frames, rg.header24 (int32),
// rg.radius (int32), rg.face_order (string: the file face index of each emitted polygon, mesh by mesh,
// "m0:0,1,5;m1:2,3,4" style), rg.section4 (string), rg.vertex_normals ("table", "direct" or "none");
// ROB children also rg.segment_name, rg.segment_type, rg.segment_flags, rg.segment_attr (int32).
// Scene metadata: SourceAsset_Format "Redguard 3D" (or "Redguard ROB archive"), SourceAsset_FormatVersion.
#pragma once
