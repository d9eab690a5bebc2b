// Decodes the Draco stream of a COREMESH v2 chunk (docs/formats/roblox-mesh.md §9.3) into the format model's
// vertices and faces, with Debian's libdraco.
#pragma once

#include "importers/roblox_mesh/mesh.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gamefmt::rbxmesh {

// Upper bounds on what a Draco stream may declare before libdraco allocates for it: an absolute
// ceiling and one relative to the stream size (real files spend ~25 bytes per point).
inline constexpr std::uint64_t kMaxDracoPoints = 1u << 24;
inline constexpr std::uint64_t kMaxDracoPointsPerByte = 8;

// Decodes `size` bytes of Draco mesh data that start at absolute file offset `fileOffset`. Point i
// becomes vertex i and face j face j (Roblox keeps the raw order, so LODS and SKINNING index the decoded
// arrays). Attributes are taken by unique id: 0 position, 1 normal, 2 UV (file V), 3 tangent bytes,
// 4 colour bytes. Missing id 0 is an error; other missing ids give zero normals/UVs, the zero tangent
// 7F 7F 7F 00 and white; extra attributes are ignored with a warning appended to `warnings`.
// Throws FormatError naming "COREMESH chunk v2 (Draco)" at `fileOffset` when the stream cannot be
// decoded. Replaces the contents of `vertices` and `faces`.
void DecodeDracoCoremesh(const std::uint8_t *data, std::size_t size, std::size_t fileOffset,
                         std::vector<Vertex> &vertices, std::vector<Face> &faces, std::vector<std::string> &warnings);

} // namespace gamefmt::rbxmesh
