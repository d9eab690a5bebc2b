// gamefmt's C interface (include/gamefmt/gamefmt.h).
#include "gamefmt/gamefmt.h"

#include "gamefmt/gamefmt.hpp"

#include <assimp/Importer.hpp>
#include <assimp/scene.h>

#include <exception>
#include <memory>
#include <string>

namespace {
thread_local std::string gError;
} // namespace

// NOLINTNEXTLINE(readability-identifier-naming): C names in Assimp's style (aiImportFile)
extern "C" const char *gamefmtVersion(void) {
    return gamefmt::Version();
}

// NOLINTNEXTLINE(readability-identifier-naming): C names in Assimp's style (aiImportFile)
extern "C" const struct aiScene *gamefmtImportFile(const char *path, unsigned int flags) {
    gError.clear();
    if (path == nullptr) {
        gError = "gamefmtImportFile: no path";
        return nullptr;
    }
    try {
        const std::unique_ptr<Assimp::Importer> importer = gamefmt::MakeImporter();
        if (importer->ReadFile(path, flags) == nullptr) {
            gError = importer->GetErrorString();
            return nullptr;
        }
        return importer->GetOrphanedScene(); // the caller owns it now
    } catch (const std::exception &e) {
        gError = e.what();
        return nullptr;
    }
}

// NOLINTNEXTLINE(readability-identifier-naming): C names in Assimp's style (aiImportFile)
extern "C" void gamefmtReleaseImport(const struct aiScene *scene) {
    delete scene;
}

// NOLINTNEXTLINE(readability-identifier-naming): C names in Assimp's style (aiImportFile)
extern "C" const char *gamefmtGetErrorString(void) {
    return gError.c_str();
}
