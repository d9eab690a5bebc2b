// Importing one file the way every verb does it: read raw, then post-process unless the scene is
// INCOMPLETE (geometry-less scenes fail the realtime presets, docs/formats/assimp-integration.md §6). Also the one-line
// error format the verbs share.
#pragma once

#include <iosfwd>
#include <string>

struct aiScene;
namespace Assimp {
class Importer;
}

namespace gamefmt::cli {

struct LoadResult {
    const aiScene *scene = nullptr; // owned by the Importer; null on failure
    bool incomplete = false;        // AI_SCENE_FLAGS_INCOMPLETE: post-processing was skipped
    unsigned stepsApplied = 0;      // what ApplyPostProcessing ran
    std::string failedStage;        // "import" or "post-process" on failure
    std::string error;              // Importer::GetErrorString()
};

// Reads `path` with `readFlags` (0, or aiProcess_ValidateDataStructure), then applies `steps` unless the
// scene is incomplete.
LoadResult LoadScene(Assimp::Importer &importer, const std::string &path, unsigned readFlags, unsigned steps);

// Writes "gamefmt: cannot <action> '<path>': <message>" as one line (newlines in `message` become spaces).
void PrintFileError(std::ostream &err, const std::string &action, const std::string &path, const std::string &message);

// True when `a` and `b` name the same file (after resolving links, `..` and the like); a `b` that does not
// exist yet is compared by its resolved path.
bool IsSameFile(const std::string &a, const std::string &b);

// `text` with CR/LF and other control characters replaced by spaces, so it fits on one line.
std::string OneLine(const std::string &text);

} // namespace gamefmt::cli
