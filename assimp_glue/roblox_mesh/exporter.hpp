// The Roblox mesh exporter (docs/formats/roblox-mesh.md §14): aiScene → BuildInput → BuildRobloxMesh → WriteRobloxMesh
// → bytes through the IOSystem, registered under the ids rbxmesh (auto version) and rbxmesh2 ... rbxmesh7.
#pragma once

#include "assimp_glue/common/roblox_mesh_extract.hpp"
#include "importers/roblox_mesh/mesh_builder.hpp"

#include <assimp/Exporter.hpp>

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

struct aiScene;

namespace gamefmt::glue {

// The exporter entries, `rbxmesh` first (so extension lookups pick the auto-version exporter). Every
// string has static storage, as Assimp keeps them by pointer.
const std::vector<Assimp::Exporter::ExportFormatEntry> &RobloxMeshExportEntries();

// The options the properties, the exporter id and the scene decide (the precedence of §14.7 and the issue:
// id version > GAMEFMT_RBXMESH_VERSION > the source version of a Roblox mesh round trip > auto).
struct RobloxMeshExportSettings {
    std::string version = "auto";   // "auto" or a writable version "2.00" ... "7.00"
    bool versionFromSource = false; // taken from SourceAsset_FormatVersion of a Roblox mesh round trip
    bool draco = true;
    bool generateLods = true;
    std::vector<float> lodRatios{0.5f, 0.25f};
};

// `idVersion` is the version the exporter id names ("" for rbxmesh). Throws FormatError naming the option
// whose value is bad.
RobloxMeshExportSettings ResolveRobloxMeshExportSettings(const aiScene &scene, const std::string &idVersion,
                                                         const Assimp::ExportProperties *properties);

// The whole export without the IOSystem: the file's bytes. Throws FormatError.
std::vector<std::uint8_t> ExportRobloxMeshToBytes(const aiScene &scene, const std::string &idVersion,
                                                  const Assimp::ExportProperties *properties);

} // namespace gamefmt::glue
