// What every gamefmt exporter entry point shares: Assimp's Exporter::Export reports only DeadlyExportError
// (any other exception loses its text), and files are written through the IOSystem it hands over.
#pragma once

#include <cstdint>
#include <functional>
#include <string>
#include <utility>
#include <vector>

struct aiScene;
namespace Assimp {
class IOSystem;
}

namespace gamefmt::glue {

// Logs `message` as an error and throws DeadlyExportError with it.
[[noreturn]] void ThrowExportError(const std::string &message);

// (path, bytes) of each file an export writes: the requested path first, then any extra files.
using ExportedFiles = std::vector<std::pair<std::string, std::vector<std::uint8_t>>>;

// Checks the scene and IOSystem, runs `produce`, turns its exceptions into DeadlyExportError "<label> export:
// <problem>" (a FormatError of `formatName` without repeating the format; out of memory; anything else with its
// text) and writes every file it returns through `io`.
void RunExport(const std::string &label, const char *formatName, const aiScene *scene, Assimp::IOSystem *io,
               const std::function<ExportedFiles()> &produce);

} // namespace gamefmt::glue
