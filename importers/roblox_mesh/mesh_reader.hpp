// Reads a Roblox .mesh file (every version 1.00-7.00) into the format model. Throws FormatError
// ("Roblox mesh", problem, byte offset) on bad input; non-fatal problems land in RobloxMesh::warnings.
#pragma once

#include "importers/roblox_mesh/mesh.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gamefmt::rbxmesh {

RobloxMesh ReadRobloxMesh(const std::uint8_t *data, std::size_t size);

// Interprets a FACS blob (§8). Returns nullopt and sets *error when its internal sizes disagree with
// the blob or a matrix version is unknown (the caller keeps the raw blob either way).
std::optional<FacsData> ParseFacs(const std::vector<std::uint8_t> &blob, std::string *error = nullptr);

} // namespace gamefmt::rbxmesh
