// The Assimp importer for Second Life mesh assets (.llmesh, and .slm model saves): signature check,
// options, and the hand-off from the codec (ReadAsset) to the scene builder (BuildSlMeshScene).
#pragma once

#include "assimp_glue/sl_mesh/scene.hpp"

#include "assimp_glue/common/format_importer.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace gamefmt::glue {

class SlMeshImporter : public FormatImporter {
public:
    SlMeshImporter();
    // Name "gamefmt Second Life mesh", extensions "llmesh slm".
    static const aiImporterDesc &Description();

protected:
    void InternReadFile(const std::string &file, aiScene *scene, Assimp::IOSystem *io) override;
    // By content (docs/formats/sl-mesh.md §12 CanRead).
    bool detect(const std::uint8_t *data, std::size_t size) const override;
    // Every GAMEFMT_SLMESH_* import option; a bad value is reported by InternReadFile.
    void readOptions(const Assimp::Importer *importer) override;

private:
    SlMeshSceneOptions mOptions;
    std::size_t mMaxInflated = std::size_t(64) << 20;
    std::size_t mSlmMesh = 0;
    std::string mOptionError; // a bad option value, reported by InternReadFile (SetupProperties cannot fail)
};

} // namespace gamefmt::glue
