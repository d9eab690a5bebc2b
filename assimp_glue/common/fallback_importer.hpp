// A built-in Assimp importer that shares an extension with one of ours (Ogre .mesh, Unreal .3d), wrapped so
// that a file neither accepts fails with one message saying what it is not, per candidate:
//   not a Roblox mesh: no "version " header (the file starts "..."); not an Ogre mesh: <Ogre's reason>
// Everything else (CanRead, description, properties, the scene) is the built-in's own.
#pragma once

#include <assimp/BaseImporter.h>

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>

namespace gamefmt::glue {

class FallbackImporter : public Assimp::BaseImporter {
public:
    // Why our importer refused the file's first bytes (the detect module's DescribeMismatch).
    using Mismatch = std::string (*)(const std::uint8_t *head, std::size_t size);

    // Takes ownership of `builtin`. `ours` names our format ("a Roblox mesh"), `theirs` the built-in's
    // ("an Ogre mesh").
    FallbackImporter(Assimp::BaseImporter *builtin, const char *ours, Mismatch mismatch, const char *theirs);

    bool CanRead(const std::string &file, Assimp::IOSystem *io, bool checkSig) const override;
    const aiImporterDesc *GetInfo() const override;
    void SetupProperties(const Assimp::Importer *importer) override;

protected:
    void InternReadFile(const std::string &file, aiScene *scene, Assimp::IOSystem *io) override;

private:
    std::unique_ptr<Assimp::BaseImporter> mBuiltin;
    const char *mOurs;
    Mismatch mMismatch;
    const char *mTheirs;
    const Assimp::Importer *mImporter = nullptr;
};

} // namespace gamefmt::glue
