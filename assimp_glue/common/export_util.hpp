// What every gamefmt exporter entry point shares: Assimp's Exporter::Export reports only DeadlyExportError
// (any other exception loses its text), and files are written through the IOSystem it hands over.
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <utility>
#include <vector>

struct aiScene;
namespace Assimp {
class IOSystem;
class ExportProperties;
} // namespace Assimp

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

// Opens a file through the export's IOSystem (closing the one opened before) and returns what appends bytes to
// it; both throw on failure, which RunStreamingExport reports like any other export error.
using ByteSink = std::function<void(const char *data, std::size_t size)>;
using OpenOutput = std::function<ByteSink(const std::string &path)>;

// RunExport for a writer that streams its output instead of returning it: `produce` opens its files itself.
void RunStreamingExport(const std::string &label, const char *formatName, const aiScene *scene, Assimp::IOSystem *io,
                        const std::function<void(const OpenOutput &open)> &produce);

// An option as text, whichever map the caller put it in: strings as they are, floats with `floatFormat` (the
// command line types "7.00" or "0.5" as floats), integers in decimal. False when it is not set.
bool ReadExportText(const Assimp::ExportProperties &p, const char *name, std::string &out,
                    const char *floatFormat = "%.9g");

// A boolean option: SetPropertyBool puts it in the integer map; floats and the strings true/false/1/0/yes/no/
// on/off are accepted too. nullopt when not set; FormatError(formatName) for any other string.
std::optional<bool> ReadExportBool(const Assimp::ExportProperties &p, const char *name, const char *formatName);

// LOD ratios as an option states them: "0.5,0.25" (each in (0, 1)); nullopt when the text is empty or bad.
std::optional<std::vector<float>> ParseLodRatios(const std::string &text);

} // namespace gamefmt::glue
