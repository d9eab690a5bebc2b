// The Assimp importer for Redguard models (.3d, .3dc) and ROB archives (.rob): signature check, options, side
// files (TEXBSI.### banks, .COL palettes, the external .3DC models of ROB archives) found through the IOSystem
// by the search order of docs/formats/redguard-3d.md §12, and the hand-off to the scene builder
// (assimp_glue/redguard/scene.hpp).
#pragma once

#include "assimp_glue/common/format_importer.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace gamefmt::glue {

class RedguardImporter : public FormatImporter {
public:
    RedguardImporter();
    // The descriptor: name "gamefmt Redguard model", extensions "3d 3dc rob", binary.
    static const aiImporterDesc &Description();

protected:
    void InternReadFile(const std::string &file, aiScene *scene, Assimp::IOSystem *io) override;
    // By signature: "v2.6", "v2.7", "v4.0", "v5.0" or "OARC".
    bool detect(const std::uint8_t *data, std::size_t size) const override;
    // Every GAMEFMT_RG_* import option.
    void readOptions(const Assimp::Importer *importer) override;

private:
    std::string mAssetDir;
    std::string mPalette;
    float mScale = 1.0f;
    float mFps = 12.0f;
    bool mIncludeFrame0 = false;
    int mBaseFrame = 0;
    int mFallbackTexSize = 256;
};

} // namespace gamefmt::glue
