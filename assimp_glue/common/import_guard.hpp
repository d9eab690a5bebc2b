// Limits every gamefmt importer enforces on the scene it hands to Assimp (docs/security.md): a bounded node
// depth, and no mesh without faces or vertices.
#pragma once

#include <assimp/scene.h>

#include <cstddef>
#include <string_view>

namespace Assimp {
class Importer;
}

namespace gamefmt::glue {

// Levels of nodes below the root (the root is level 0). Assimp's own steps and exporters recurse per level
// (the glTF exporter overflows the stack near 100,000), so deeper scenes are refused.
constexpr unsigned kDefaultMaxNodeDepth = 512;

struct ImportLimits {
    unsigned maxNodeDepth = kDefaultMaxNodeDepth; // GAMEFMT_MAX_NODE_DEPTH
};

// Reads GAMEFMT_MAX_NODE_DEPTH (values < 1 mean the default).
ImportLimits ReadImportLimits(const Assimp::Importer *importer);

// The deepest level below the root, walking iteratively; stops early and reports the first node deeper than
// `limit` through `tooDeep` (null when none).
std::size_t NodeDepth(const aiNode *root, std::size_t limit, const aiNode **tooDeep);

// The last step of every importer: drops meshes with no faces or no vertices (one warning each, node mesh
// indices remapped; a scene left without meshes is flagged INCOMPLETE) and throws FormatError(format, ...)
// when the node tree is deeper than limits.maxNodeDepth.
void FinishImportedScene(aiScene *scene, std::string_view format, const ImportLimits &limits);

} // namespace gamefmt::glue
