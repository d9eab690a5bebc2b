// gamefmt's glTF 2.0 writer: any aiScene as .glb, or .gltf + .bin, streamed. What it writes (docs/gltf.md):
// the node tree with its transforms and metadata (node.extras), meshes with positions, normals, tangents, every
// UV set and colour set, shared meshes kept shared, PBR materials with embedded PNG/JPEG images (KHR_texture_
// transform, KHR_materials_emissive_strength, KHR_materials_unlit), skins (one per distinct joint set, skinned
// meshes at the root with parent transforms baked in, ≤ 4 normalised influences per JOINTS/WEIGHTS set), morph
// targets with their names (mesh.extras.targetNames), node and morph-weight animations, cameras, lights
// (KHR_lights_punctual) and the scene's metadata (asset.extras). Lengths are metres: the scene's
// UnitScaleFactor (centimetres per unit, Assimp's FBX meaning) scales every length unless keepUnits is set.
// Deterministic: the same scene and options give the same bytes.
#pragma once

#include "assimp_glue/common/export_util.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

struct aiScene;

namespace gamefmt::glue {

struct GltfOptions {
    bool binary = true;         // .glb (else .gltf JSON + a .bin file)
    bool keepUnits = false;     // write source units: no UnitScaleFactor scaling
    bool draco = false;         // KHR_draco_mesh_compression for triangle primitives
    bool meshopt = false;       // EXT_meshopt_compression for vertex, index and animation data
    unsigned maxInfluences = 8; // bone influences kept per vertex: 4 per JOINTS_n/WEIGHTS_n set, 4 or 8
    // Reads an external texture file a material names (relative paths as the scene has them); false when it
    // cannot. Unset: external textures are left out (counted in the report).
    std::function<bool(const std::string &path, std::vector<std::uint8_t> &bytes)> readFile;
};

struct GltfWriteReport {
    std::size_t lostMatrices = 0;       // node transforms that were not finite, written without them
    std::size_t droppedItems = 0;       // lights and cameras no node names, and area/ambient lights
    std::size_t droppedTextures = 0;    // textures that are not PNG/JPEG bytes and could not be read or encoded
    std::size_t trimmedVertices = 0;    // vertices that had more bone influences than kept
    std::size_t unweightedVertices = 0; // skinned vertices without any weight, bound to the skin's first joint
    std::size_t droppedKeys = 0;        // animation keys out of order, negative or not finite
    std::size_t droppedChannels = 0;    // animation channels naming no node, or a second channel on one target
    std::size_t droppedFaces = 0;       // points and lines in a triangle mesh, faces with out-of-range indices
    std::size_t fixedValues = 0;        // non-finite positions written as 0, zero normals replaced
    double unitScale = 1;               // metres per scene unit applied
    bool noGeometry = false;            // no mesh at all: nodes only (Godot 3 refuses such a file)
};

// Writes `scene`. Binary: one glb through open(path). Text: the JSON to open(path) and the binary data to
// open(binPath), named in the JSON by its file name. Throws std::runtime_error / FormatError for a scene it
// cannot write (a mesh naming a missing material, more than 4 GiB of data).
GltfWriteReport WriteGltf(const aiScene &scene, const GltfOptions &options, const std::string &path,
                          const std::string &binPath, const OpenOutput &open);

// True when the scene has nodes but no meshes, animations, cameras, lights or textures.
bool IsNodeOnlyScene(const aiScene &scene);

// WriteGltf of a scene through one sink (glb, or the JSON text of a scene without binary data), source units.
// Returns how many nodes lost a non-finite matrix.
std::size_t WriteNodeOnlyGltf(const aiScene &scene, bool binary, const ByteSink &sink);

// True when the writer takes every mesh as it is (no copy with Triangulate/SortByPType needed first): each
// mesh has faces of one size (1, 2 or 3 indices) matching its primitive type.
bool HasCleanPrimitives(const aiScene &scene);

} // namespace gamefmt::glue
