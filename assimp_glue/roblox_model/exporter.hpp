// The Roblox model/place exporters: `rbxm` (binary; name the output .rbxl for a place) and `rbxmx` (XML;
// .rbxlx for a place). Scenes from the Roblox model importer are rebuilt from their metadata
// (DocumentFromScene) and written; other scenes are refused until generic export lands.
#pragma once

#include <assimp/Exporter.hpp>

#include <cstdint>
#include <string>
#include <vector>

struct aiScene;

namespace gamefmt::glue {

// The exporter entries (rbxm, rbxmx). Every string has static storage, as Assimp keeps them by pointer.
const std::vector<Assimp::Exporter::ExportFormatEntry> &RobloxModelExportEntries();

// The whole export without the IOSystem: the file's bytes. `xml` picks the encoding. Throws FormatError
// ("Roblox model") for scenes without Roblox metadata, malformed metadata or a bad option value.
std::vector<std::uint8_t> ExportRobloxModelToBytes(const aiScene &scene, bool xml,
                                                   const Assimp::ExportProperties *properties);

} // namespace gamefmt::glue
