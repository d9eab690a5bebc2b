/* gamefmt's C interface: import a file with gamefmt's formats (and every format Assimp reads) from C.
 * C++ programs use <gamefmt/gamefmt.hpp> (gamefmt::RegisterImporters on their own Assimp::Importer).
 *
 *   const struct aiScene *scene = gamefmtImportFile("head.mesh", aiProcess_Triangulate);
 *   if (!scene) fprintf(stderr, "%s\n", gamefmtGetErrorString());
 *   ...
 *   gamefmtReleaseImport(scene);
 *
 * Link with `pkg-config --cflags --libs gamefmt`. */
#ifndef GAMEFMT_GAMEFMT_H
#define GAMEFMT_GAMEFMT_H

#ifdef __cplusplus
extern "C" {
#endif

struct aiScene;

/* "MAJOR.MINOR.PATCH". */
// NOLINTNEXTLINE(readability-identifier-naming): C names in Assimp's style (aiImportFile)
const char *gamefmtVersion(void);

/* Reads `path` with an Assimp importer that has gamefmt's formats, applying the aiProcess_* `flags`. NULL on
 * failure; gamefmtGetErrorString() then says why. Release the scene with gamefmtReleaseImport. */
// NOLINTNEXTLINE(readability-identifier-naming): C names in Assimp's style (aiImportFile)
const struct aiScene *gamefmtImportFile(const char *path, unsigned int flags);

/* Frees a scene gamefmtImportFile returned (NULL is ignored). */
// NOLINTNEXTLINE(readability-identifier-naming): C names in Assimp's style (aiImportFile)
void gamefmtReleaseImport(const struct aiScene *scene);

/* The error of this thread's last failed gamefmtImportFile ("" when none). */
// NOLINTNEXTLINE(readability-identifier-naming): C names in Assimp's style (aiImportFile)
const char *gamefmtGetErrorString(void);

#ifdef __cplusplus
}
#endif

#endif
