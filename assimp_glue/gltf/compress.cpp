// The glTF writer's optional compression (compress.hpp).
#include "assimp_glue/gltf/compress.hpp"

#include "assimp_glue/gltf/layout.hpp"

namespace gamefmt::glue::gltf {

void Compress(Writer &writer) {
    (void)writer;
}

} // namespace gamefmt::glue::gltf
