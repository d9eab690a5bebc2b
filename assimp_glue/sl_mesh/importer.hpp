// The Assimp importer for Second Life mesh assets (.llmesh, and .slm model saves): signature check,
// options, and the hand-off from the codec (ReadAsset) to the scene builder (BuildSlMeshScene).
#pragma once

#include "assimp_glue/sl_mesh/scene.hpp"

#include "assimp_glue/common/import_guard.hpp"

#include <assimp/BaseImporter.h>
#include <assimp/importerdesc.h>

#include <cstddef>
#include <string>

namespace gamefmt::glue {

class SlMeshImporter : public Assimp::BaseImporter {
public:
    // Name "gamefmt Second Life mesh", extensions "llmesh slm".
    static const aiImporterDesc &Description();

    // By content only (docs/formats/sl-mesh.md §12 CanRead); never throws.
    bool CanRead(const std::string &file, Assimp::IOSystem *io, bool checkSig) const override;
    const aiImporterDesc *GetInfo() const override { return &Description(); }
    void SetupProperties(const Assimp::Importer *importer) override;

protected:
    void InternReadFile(const std::string &file, aiScene *scene, Assimp::IOSystem *io) override;

private:
    ImportLimits mLimits;
    SlMeshSceneOptions mOptions;
    std::size_t mMaxInflated = std::size_t(64) << 20;
    std::size_t mSlmMesh = 0;
    std::string mOptionError; // a bad option value, reported by InternReadFile (SetupProperties cannot fail)
};

} // namespace gamefmt::glue
