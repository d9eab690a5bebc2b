// The Assimp importer for Roblox .mesh files (1.00-7.00): signature check, options, and the hand-off
// from the codec (ReadRobloxMesh) to the scene builder (BuildRobloxMeshScene).
#pragma once

#include "assimp_glue/common/format_importer.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace gamefmt::glue {

class RobloxMeshImporter : public FormatImporter {
public:
    RobloxMeshImporter();
    // The descriptor: name "gamefmt Roblox mesh", extension "mesh", text and binary, versions 1.0-7.0.
    static const aiImporterDesc &Description();

protected:
    void InternReadFile(const std::string &file, aiScene *scene, Assimp::IOSystem *io) override;
    // By signature: "version X.YY" with a known version.
    bool detect(const std::uint8_t *data, std::size_t size) const override;
    // GAMEFMT_RBXMESH_IMPORT_ALL_LODS and GAMEFMT_RBXMESH_BAKE_FACS.
    void readOptions(const Assimp::Importer *importer) override;

private:
    bool mAllLods = false;
    bool mBakeFacs = true;
};

} // namespace gamefmt::glue
