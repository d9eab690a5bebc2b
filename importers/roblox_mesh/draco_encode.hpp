// Encodes Roblox mesh geometry as the Draco stream of a COREMESH v2 chunk (docs/formats/roblox-mesh.md §9.3, §14.6).
#pragma once

#include "importers/roblox_mesh/mesh.hpp"

#include <cstdint>
#include <vector>

namespace gamefmt::rbxmesh {

// The Draco bytes (without the chunk's u32 size) for `vertices` and `faces`: sequential encoding, five
// attributes with unique ids 0-4 (position, normal, uv, tangent bytes, colour), only the normal quantised
// (11 bits). Point i is vertex i and face j is face j in the decoded mesh, because LODS and SKINNING
// index them. Throws FormatError when Draco refuses the mesh.
std::vector<std::uint8_t> EncodeCoremeshDraco(const std::vector<Vertex> &vertices, const std::vector<Face> &faces);

} // namespace gamefmt::rbxmesh
