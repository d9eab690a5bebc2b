// gamefmt's glTF 2.0 writer (writer.hpp) as Assimp exporters: "gamefmt-glb" (.glb) and "gamefmt-gltf" (.gltf
// with a .bin beside it). The command line uses them for .glb/.gltf; Assimp's own stay reachable as glb2/gltf2.
#pragma once

#include <assimp/Exporter.hpp>

#include <vector>

namespace gamefmt::glue {

const std::vector<Assimp::Exporter::ExportFormatEntry> &GltfExportEntries();

} // namespace gamefmt::glue
