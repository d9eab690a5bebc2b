// Crash-safe outputs (docs/batch.md): an IOSystem for exporters that writes every file it is asked for under a
// temporary name beside its target (`NAME.gamefmt-partial`) and renames them all into place only once the export
// has succeeded, so a run killed at any moment never leaves a half-written file under a final name. Reading goes
// to the files as they are.
#pragma once

#include <assimp/DefaultIOSystem.h>
#include <assimp/IOSystem.hpp>

#include <string>
#include <utility>
#include <vector>

namespace gamefmt::cli {

// What a staged file is called until it is complete.
inline constexpr const char *kPartialSuffix = ".gamefmt-partial";

// By composition: it delegates to a DefaultIOSystem it holds (Assimp 6 made DefaultIOSystem `final`).
class StagedIOSystem : public Assimp::IOSystem {
public:
    bool Exists(const char *file) const override { return mDisk.Exists(file); }
    char getOsSeparator() const override { return mDisk.getOsSeparator(); }
    Assimp::IOStream *Open(const char *file, const char *mode = "rb") override;
    void Close(Assimp::IOStream *stream) override { mDisk.Close(stream); }
    bool ComparePaths(const char *one, const char *second) const override { return mDisk.ComparePaths(one, second); }

    // Renames every staged file to its final name, in the order they were opened (replacing what is there).
    // "" on success, else what failed (the files not yet renamed are removed).
    std::string commit();
    // Removes every staged file (the export failed).
    void discard();
    // The final names of the staged files (for the manifest), in order.
    std::vector<std::string> outputs() const;

private:
    Assimp::DefaultIOSystem mDisk;
    std::vector<std::pair<std::string, std::string>> mStaged; // (temporary, final)
};

// Moves `from` onto `to`, replacing `to` (on Windows, where a rename does not replace, `to` is removed first).
// "" on success.
std::string ReplaceFile(const std::string &from, const std::string &to);

} // namespace gamefmt::cli
