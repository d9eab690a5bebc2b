// The `extras` of glTF animations, which Assimp's glTF importer does not keep, put back into the scene.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

struct aiScene;

namespace gamefmt::cli {

// Assimp's glTF importer (5.2 to 6.0) keeps node extras as node metadata but drops every animation's `extras`,
// where gamefmt's glb keeps the animation's own metadata (rbx.loop, rbx.priority, rbx.sequence, ...: docs/metadata.md).
// Reads the JSON of the glTF bytes (a .glb's JSON chunk, or a .gltf's text) and adds each animation's extras to the
// scene's metadata as `anim.<index>.<key>`, as gamefmt's importers name them, so that exporters reading them
// (rbxanim's Loop and Priority) see what the glb says. Booleans stay booleans, integers become int32 (uint64 or
// double beyond), other numbers double, strings text, arrays and objects their JSON text. A key the scene has
// already is kept. An animation is matched by its index, and only when the file and the scene have as many
// animations and the names agree. Returns the number of entries added; 0 (and `warning` set) when the bytes are
// not glTF JSON or are damaged; 0 when there is nothing to add. Never throws.
std::size_t RestoreGltfAnimationExtras(aiScene &scene, const std::uint8_t *bytes, std::size_t size,
                                       std::string *warning = nullptr);

// The same for the file at `path` (UTF-8), reading only its JSON: 0 when its extension is not .glb or .gltf.
std::size_t RestoreGltfAnimationExtrasFromFile(aiScene &scene, const std::string &path, std::string *warning = nullptr);

} // namespace gamefmt::cli
