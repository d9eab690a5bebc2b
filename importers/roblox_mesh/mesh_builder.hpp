// Builds a writable RobloxMesh from authoring data (what an exporter has: a vertex pool, faces per LOD
// level, per-vertex influences on global bones, world bind poses), doing the format's bookkeeping:
// LOD generation with meshoptimizer, skin subsets of at most 26 bones that never cross a LOD boundary
// (vertices duplicated where shared), weights quantised to sum exactly 255, bone culling distances,
// the bone name table (docs/formats/roblox-mesh.md §14).
#pragma once

#include "importers/roblox_mesh/mesh.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gamefmt::rbxmesh {

struct Influence {
    std::uint32_t bone = 0; // index into BuildInput::bones
    float weight = 0;
};

struct BoneInput {
    std::string name;
    std::int32_t parent = -1;                                 // index into BuildInput::bones; -1 = root
    std::array<float, 9> rotation{1, 0, 0, 0, 1, 0, 0, 0, 1}; // world bind rotation, R00 R01 ... R22
    std::array<float, 3> position{0, 0, 0};                   // world bind position
};

struct BuildInput {
    std::vector<Vertex> vertices;                   // shared pool (file conventions: V top-down, tangent bytes)
    std::vector<std::vector<Face>> lods;            // faces per level, level 0 first; at least one level
    std::vector<std::vector<Influence>> influences; // per vertex (empty = unskinned mesh)
    std::vector<BoneInput> bones;                   // any order; the builder sorts parents first
    std::optional<Facs> facs;                       // passthrough blob (5.00+)
    std::optional<Hsravis> hsravis;                 // passthrough (6.00+)
};

struct BuildOptions {
    std::string version = "auto"; // "auto" = lowest version that holds the content (§14.7), else "2.00".."7.00"
    bool generateLods = true;     // when the input has one level and the version holds LODs
    std::vector<float> lodRatios{0.5f, 0.25f}; // target face fractions of LOD0, each from LOD0
    bool sloppyLods = false; // meshopt_simplifySloppy (lodType 4) instead of meshopt_simplify (lodType 3)
};

// The version auto mode picks for `input` (§14.7): FACS + bones → 5.00, bones → 4.00, several LOD
// levels → 3.00, else 2.00.
std::string AutoVersion(const BuildInput &input);

RobloxMesh BuildRobloxMesh(const BuildInput &input, const BuildOptions &options = {});

// Quantises up to 4 influences to u8 weights summing to exactly 255 (largest remainder), sorted
// descending; unused slots get weight 0 and index 0. Exposed for tests.
std::array<std::pair<std::uint32_t, std::uint8_t>, 4> QuantizeWeights(const std::vector<Influence> &influences);

} // namespace gamefmt::rbxmesh
