// Importing one file for a verb, and the shared one-line error format.
#include "loading.hpp"

#include "gltf_extras.hpp"

#include "common/utf8_path.hpp"
#include "gamefmt/metadata.hpp"

#include <assimp/DefaultLogger.hpp>
#include <assimp/Importer.hpp>
#include <assimp/scene.h>

#include <filesystem>
#include <ostream>
#include <string>
#include <system_error>

namespace gamefmt::cli {

LoadResult LoadScene(Assimp::Importer &importer, const std::string &path, unsigned readFlags, unsigned steps) {
    LoadResult result;
    const aiScene *scene = importer.ReadFile(path, readFlags);
    if (scene == nullptr) {
        result.failedStage = "import";
        result.error = importer.GetErrorString();
        return result;
    }
    result.incomplete = (scene->mFlags & AI_SCENE_FLAGS_INCOMPLETE) != 0;
    if (steps != 0 && !result.incomplete) {
        scene = importer.ApplyPostProcessing(steps);
        if (scene == nullptr) {
            result.failedStage = "post-process";
            result.error = importer.GetErrorString();
            return result;
        }
        result.stepsApplied = steps;
    }
    // Assimp's glTF importer nests node extensions in metadata, on which Exporter::Export's scene copy aborts: the
    // scene is the importer's own (allocated non-const), flattened in place before any verb looks at it.
    FlattenNestedMetadata(*const_cast<aiScene *>(scene));
    // ... and it drops the animations' extras, where a glb gamefmt wrote keeps each animation's rbx.loop,
    // rbx.priority and the rest: read them from the file's JSON (gltf_extras.hpp).
    std::string warning;
    RestoreGltfAnimationExtrasFromFile(*const_cast<aiScene *>(scene), path, &warning);
    if (!warning.empty()) Assimp::DefaultLogger::get()->warn(warning.c_str());
    result.scene = scene;
    return result;
}

bool IsSameFile(const std::string &a, const std::string &b) {
    std::error_code ec;
    const std::filesystem::path pa = PathFromUtf8(a), pb = PathFromUtf8(b);
    if (std::filesystem::equivalent(pa, pb, ec) && !ec) return true;
    const std::filesystem::path ra = std::filesystem::weakly_canonical(pa, ec);
    if (ec) return false;
    const std::filesystem::path rb = std::filesystem::weakly_canonical(pb, ec);
    return !ec && ra == rb;
}

std::string OneLine(const std::string &text) {
    std::string line = text;
    for (char &c : line)
        if (static_cast<unsigned char>(c) < 0x20) c = ' ';
    while (!line.empty() && line.back() == ' ') line.pop_back();
    return line;
}

void PrintFileError(std::ostream &err, const std::string &action, const std::string &path, const std::string &message) {
    const std::string reason = OneLine(message);
    err << "gamefmt: cannot " << action << " '" << path
        << "': " << (reason.empty() ? "Assimp gave no reason (run with -v to see its log)" : reason) << '\n';
}

} // namespace gamefmt::cli
