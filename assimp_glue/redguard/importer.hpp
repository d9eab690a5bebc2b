// The Assimp importer for Redguard models (.3d, .3dc) and ROB archives (.rob): signature check, options, side
// files (TEXBSI.### banks, .COL palettes, the external .3DC models of ROB archives) found through the IOSystem
// by the search order of docs/formats/redguard-3d.md §12, and the hand-off to the scene builder
// (assimp_glue/redguard/scene.hpp).
#pragma once

#include "assimp_glue/common/import_guard.hpp"

#include <assimp/BaseImporter.h>
#include <assimp/importerdesc.h>

#include <string>

namespace gamefmt::glue {

class RedguardImporter : public Assimp::BaseImporter {
public:
    // The descriptor: name "gamefmt Redguard model", extensions "3d 3dc rob", binary.
    static const aiImporterDesc &Description();

    // By signature only ("v2.6", "v2.7", "v4.0", "v5.0" or "OARC"); never throws; checkSig is ignored.
    bool CanRead(const std::string &file, Assimp::IOSystem *io, bool checkSig) const override;
    const aiImporterDesc *GetInfo() const override { return &Description(); }
    // Reads every GAMEFMT_RG_* import option (include/gamefmt/config.hpp).
    void SetupProperties(const Assimp::Importer *importer) override;

protected:
    void InternReadFile(const std::string &file, aiScene *scene, Assimp::IOSystem *io) override;

private:
    ImportLimits mLimits;
    std::string mAssetDir;
    std::string mPalette;
    float mScale = 1.0f;
    float mFps = 12.0f;
    bool mIncludeFrame0 = false;
    int mBaseFrame = 0;
    int mFallbackTexSize = 256;
};

} // namespace gamefmt::glue
