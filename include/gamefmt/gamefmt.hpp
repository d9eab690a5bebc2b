// gamefmt's public API: teach an Assimp::Importer / Assimp::Exporter the game formats.
//
//   #include <gamefmt/gamefmt.hpp>
//   Assimp::Importer importer;
//   gamefmt::RegisterImporters(importer);          // once per Importer
//   const aiScene *scene = importer.ReadFile("head.mesh", aiProcess_ValidateDataStructure);
//
// Assimp has no global plug-in registry: registration is per Importer/Exporter instance. Programs that
// make their own plain Importer (the stock `assimp` tool, pyassimp, the C API) do not see these formats.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

namespace Assimp {
class Importer;
class Exporter;
class BaseImporter;
} // namespace Assimp

namespace gamefmt {

// The library version, "MAJOR.MINOR.PATCH".
const char *Version();

// Adds gamefmt's importers to `importer` and returns how many were added (0 when it already has them:
// the call is idempotent). Importers whose extensions clash with built-ins (`.mesh`: Ogre, `.3d`:
// Unreal) are put ahead of the built-in, which is then re-registered at the end of the list: files of
// the built-in format still reach it, because ours accept only their own signatures. Side effects:
// importer indices shift (never cache them), and GetImporter("mesh") / GetImporter("3d") return ours.
std::size_t RegisterImporters(Assimp::Importer &importer);

// Adds gamefmt's exporters to `exporter` and returns how many were added (idempotent).
std::size_t RegisterExporters(Assimp::Exporter &exporter);

// A new Importer / Exporter with gamefmt's formats registered.
std::unique_ptr<Assimp::Importer> MakeImporter();
std::unique_ptr<Assimp::Exporter> MakeExporter();

// True when `loader` is one of gamefmt's importers.
bool IsGamefmtImporter(const Assimp::BaseImporter *loader);

// What gamefmt adds, for tools and documentation.
struct FormatInfo {
    std::string name;       // the importer's aiImporterDesc::mName
    std::string extensions; // space-separated, lower case, no dots
    bool readable;          // false while the format is recognised but reading is not implemented yet
};
std::vector<FormatInfo> Formats();

// True for an Assimp log line that is a validation warning gamefmt's scenes raise on purpose, losing nothing.
// One today: Assimp 5.3 and later warn "aiBone::mNumWeights is zero" for a bone that skins no vertex. gamefmt
// keeps such bones (a Second Life skeleton's joints above the weighted ones, a Roblox rig's root bones) so that
// the skin keeps its whole joint tree and bind pose; glTF allows joints without weights. Assimp 5.2 says nothing.
bool IsExpectedValidationWarning(const std::string &logLine);

} // namespace gamefmt
