// The glTF writer's optional compression (layout.hpp): KHR_draco_mesh_compression for triangle primitives and
// EXT_meshopt_compression for vertex, index and animation buffer views.
#pragma once

namespace gamefmt::glue::gltf {

class Writer;

// Runs after the layout, before the JSON: re-lays the binary buffer with meshopt-encoded views.
void Compress(Writer &writer);

} // namespace gamefmt::glue::gltf
