// Writes the Roblox mesh format model as a .mesh file of version 2.00, 3.00, 4.00, 4.01, 5.00, 6.00 or
// 7.00. Throws FormatError ("Roblox mesh", problem) when the model cannot be written in that version.
#pragma once

#include "importers/roblox_mesh/mesh.hpp"

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gamefmt::rbxmesh {

struct WriteOptions {
    std::string version; // "" = mesh.version
    bool draco = true;   // 7.00: COREMESH v2 (Draco) rather than v1; 6.00 always writes v1
};

std::vector<std::uint8_t> WriteRobloxMesh(const RobloxMesh &mesh, const WriteOptions &options = {});

// The versions WriteRobloxMesh writes, oldest first: what GAMEFMT_RBXMESH_VERSION accepts. 4.01 is written only on
// request (4.00 has the same layout, docs/formats/roblox-mesh.md §14.4.5); 3.01 only when a round trip's source had it.
inline constexpr const char *kWritableVersions[] = {"2.00", "3.00", "4.00", "4.01", "5.00", "6.00", "7.00"};

// "2", "2.0", "2.00" → "2.00"; "auto" (any case) → "auto"; nullopt for anything else, including the
// versions gamefmt reads but does not write (1.00, 1.01, 3.01).
std::optional<std::string> NormaliseRobloxMeshVersion(const std::string &text);

} // namespace gamefmt::rbxmesh
