// The Assimp importer for Roblox .mesh files (1.00-7.00): signature check, options, and the hand-off
// from the codec (ReadRobloxMesh) to the scene builder (BuildRobloxMeshScene).
#pragma once

#include "assimp_glue/common/import_guard.hpp"

#include <assimp/BaseImporter.h>
#include <assimp/importerdesc.h>

#include <string>

namespace gamefmt::glue {

class RobloxMeshImporter : public Assimp::BaseImporter {
public:
    // The descriptor: name "gamefmt Roblox mesh", extension "mesh", text and binary, versions 1.0-7.0.
    static const aiImporterDesc &Description();

    // By signature only ("version X.YY" with a known version); never throws; checkSig is ignored.
    bool CanRead(const std::string &file, Assimp::IOSystem *io, bool checkSig) const override;
    const aiImporterDesc *GetInfo() const override { return &Description(); }
    void SetupProperties(const Assimp::Importer *importer) override;

protected:
    void InternReadFile(const std::string &file, aiScene *scene, Assimp::IOSystem *io) override;

private:
    ImportLimits mLimits;
    bool mAllLods = false;
    bool mBakeFacs = true;
};

} // namespace gamefmt::glue
