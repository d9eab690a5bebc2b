// The two renderings of `info`: upstream's labelled text and one JSON object with the same content.
#pragma once

#include <assimp/types.h>

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <string>
#include <utility>
#include <vector>

struct aiScene;

namespace gamefmt::cli {

struct InfoInput {
    std::string path;
    const aiScene *scene = nullptr;
    aiMemoryInfo memory;         // Importer::GetMemoryRequirements
    bool incomplete = false;     // post-processing was skipped because the scene has no geometry
    unsigned stepsRequested = 0; // what the command line asked for
    unsigned stepsApplied = 0;
    bool verbose = false; // node metadata and transforms
    bool silent = false;  // statistics only
};

// Instances per class of a Roblox model/place scene (DocumentFromScene), most frequent first
// (ties by name); empty for other scenes.
std::vector<std::pair<std::string, std::uint64_t>> RobloxClassCounts(const aiScene &scene);

void WriteInfoText(const InfoInput &input, std::ostream &out);
void WriteInfoJson(const InfoInput &input, std::ostream &out);

// Longest string value printed in text mode unless verbose (metadata can hold whole scripts).
constexpr std::size_t kTextValueLimit = 200;
// Deepest nesting of AI_AIMETADATA values printed; deeper levels are summarised.
constexpr unsigned kMetadataDepthLimit = 16;

} // namespace gamefmt::cli
