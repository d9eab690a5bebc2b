// gamefmt's own glTF 2.0 writer for static scenes: nodes, triangle meshes (positions, normals, one UV set),
// PBR materials with embedded PNG/JPEG images, cameras and KHR_lights_punctual lights, streamed. For the
// scenes our Roblox importer makes (and any other scene of that kind): Assimp 5.2.5's glTF 2 exporter needs
// about 2 KB per node, takes 12 s for a place of 100,000 parts, writes an empty buffer the Khronos validator
// rejects when there is no mesh (EMPTY_ENTITY), and drops cameras and lights.
#pragma once

#include "assimp_glue/common/export_util.hpp"

#include <cstddef>
#include <string>

struct aiScene;

namespace gamefmt::glue {

// True when the scene has nodes but no meshes, animations, cameras, lights or textures (materials are
// ignored: nothing could use them).
bool IsNodeOnlyScene(const aiScene &scene);

// True when WriteStaticGltf writes the whole scene: a root node; no animations; every mesh made of triangles
// only, with finite positions, in-range indices, at most one UV set, and no tangents, bones, morph targets or
// vertex colours (what this writer does not write: those scenes keep Assimp's exporter); every
// texture a material uses embedded as PNG or JPEG bytes ("*N"). Everything else goes to Assimp's exporter.
bool IsStaticScene(const aiScene &scene);

struct GltfWriteReport {
    std::size_t lostMatrices = 0; // node transforms that were not finite, written without them
    std::size_t droppedItems = 0; // lights and cameras no node names, and area lights (glTF has none)
};

// Writes `scene` (IsStaticScene) as glTF 2.0: the asset, one scene and every node in breadth-first order with
// the root first, its name (JsonQuote: invalid UTF-8 becomes U+FFFD), children, matrix (column-major; omitted
// when identity), mesh, camera and light; meshes shared by several nodes stay shared. `binary` writes a glb
// (JSON chunk, then a BIN chunk when there is any data) through `open(path)`; otherwise `path` gets the JSON
// and the data goes to `binPath` (named in the JSON by its file name). Node-only scenes have no buffer at
// all. Deterministic: the same scene gives the same bytes.
GltfWriteReport WriteStaticGltf(const aiScene &scene, bool binary, const std::string &path, const std::string &binPath,
                                const OpenOutput &open);

// WriteStaticGltf for a node-only scene, through one sink (glb, or the JSON text): returns how many nodes lost a
// non-finite matrix.
std::size_t WriteNodeOnlyGltf(const aiScene &scene, bool binary, const ByteSink &sink);

} // namespace gamefmt::glue
