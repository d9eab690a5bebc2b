// A glTF 2.0 file of a scene's node tree alone, streamed. For scenes with nodes and nothing else to draw
// (Roblox models and places today): Assimp 5.2.5's glTF 2 exporter needs about 2 KB per node there (1.1 GB
// for 300,000 parts as .gltf) and writes an empty buffer the Khronos validator rejects (EMPTY_ENTITY).
#pragma once

#include "assimp_glue/common/export_util.hpp"

#include <cstddef>

struct aiScene;

namespace gamefmt::glue {

// True when the scene has nodes but no meshes, animations, cameras, lights or textures (materials are
// ignored: nothing could use them).
bool IsNodeOnlyScene(const aiScene &scene);

// Writes `scene` (IsNodeOnlyScene) as glTF 2.0 through `sink` in pieces of about 1 MiB: the asset, one scene
// and every node with its name (JsonQuote: invalid UTF-8 becomes U+FFFD), children and matrix (column-major;
// omitted when identity or not finite), in breadth-first order with the root first. `binary` writes a glb
// with one JSON chunk and no BIN chunk (the text is produced twice: once to measure it). Returns how many
// nodes lost a non-finite matrix.
std::size_t WriteNodeOnlyGltf(const aiScene &scene, bool binary, const ByteSink &sink);

} // namespace gamefmt::glue
