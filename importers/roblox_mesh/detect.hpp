// Signature test for Roblox .mesh files (docs/formats/roblox-mesh.md §13.1): "version " followed by a known X.YY.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace gamefmt::rbxmesh {

// How many leading bytes Detect needs at most.
constexpr std::size_t kSignatureBytes = 12;

// The version string ("1.00" … "7.00") when `data` starts like a Roblox mesh of a known version,
// otherwise an empty string. Never throws.
std::string Detect(const std::uint8_t *data, std::size_t size) noexcept;

// Why Detect rejects `data` (its first bytes, quoted and escaped), for "not a Roblox mesh: ..." when no
// importer accepts a .mesh file. Empty when Detect accepts it.
std::string DescribeMismatch(const std::uint8_t *data, std::size_t size);

} // namespace gamefmt::rbxmesh
