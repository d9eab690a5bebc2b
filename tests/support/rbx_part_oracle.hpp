// An oracle for Roblox scenes (issue #25): every BasePart's node checked against what its own properties say,
// read straight from the document (docs/formats/roblox-model.md §4, §5.2–§5.5), without the importer's
// Appearance, shape or sharing code. For each part in scope: the node's world transform is its CFrame; its
// mesh's local bounds (and, for generated shapes, its volume) are those of its Size, Shape and mesh child
// (MeshParts and unions scaled by Size / InitialSize); its material's colour, Material, transparency and
// reflectance are its own (for a textured mesh: its texture is the one it names; for a union drawn from its
// source parts in their own looks: the look of one of those parts). Decals lie on their
// parent's face with their own image. Identical shape parts must still share one mesh.
#pragma once

#include "importers/roblox_model/document/dom.hpp"

#include <assimp/scene.h>

#include <cstddef>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace gamefmt::test {

struct PartOracleOptions {
    // The bounds (min, max) of the mesh asset a URI names, for MeshParts and FileMeshes the import drew from an
    // asset folder (rbx.geometry = "mesh"); nullopt makes such a part a failure. Read by the test with the
    // mesh codec, independently of the importer.
    std::function<std::optional<std::pair<aiVector3D, aiVector3D>>(const std::string &uri)> meshBounds;
    unsigned segments = 24; // GAMEFMT_RBX_SEGMENTS of the import
    bool scopeAll = false;  // GAMEFMT_RBX_GEOMETRY_SCOPE = all
    std::size_t keep = 20;  // problems kept in the report
};

struct PartOracleReport {
    std::size_t parts = 0;                      // BaseParts in scope, each checked
    std::size_t wrong = 0;                      // parts with at least one mismatch
    std::size_t decals = 0;                     // decals and textures drawn, each checked
    std::size_t sharedKeys = 0;                 // distinct (shape, size, offset, look) among plain shape parts
    std::size_t sharedMeshes = 0;               // distinct meshes those parts show: must equal sharedKeys
    std::map<std::string, std::size_t> drawnAs; // parts by how they were drawn (box, wedge, union-hull, mesh, …)
    std::vector<std::string> problems;          // the first `keep`, each naming the part and what differs
};

// Checks `scene` (imported from `doc` with default geometry options but `options`) part by part.
PartOracleReport CheckPartsAgainstSource(const rbx::Document &doc, const aiScene &scene,
                                         const PartOracleOptions &options = {});

} // namespace gamefmt::test
