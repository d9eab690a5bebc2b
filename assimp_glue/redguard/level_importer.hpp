// The Assimp importer for Redguard levels: RGM scenes (.rgm, recognised by content) and WLD worlds (.wld), with
// the models, texture banks, palettes and terrain they need found through the IOSystem
// (docs/formats/redguard-world.md §1.8, §2.5, §4) and the scene built by assimp_glue/redguard/level.hpp.
#pragma once

#include "assimp_glue/common/format_importer.hpp"

#include <cstddef>
#include <cstdint>
#include <string>

namespace gamefmt::glue {

class RedguardLevelImporter : public FormatImporter {
public:
    RedguardLevelImporter();
    // The descriptor: name "gamefmt Redguard level", extensions "rgm wld", binary.
    static const aiImporterDesc &Description();

protected:
    void InternReadFile(const std::string &file, aiScene *scene, Assimp::IOSystem *io) override;
    // An RGM's first section (a known tag whose length fits) or a WLD header (0x18 = 22, 0x90 = 1184).
    bool detect(const std::uint8_t *data, std::size_t size) const override;
    void readOptions(const Assimp::Importer *importer) override;

private:
    std::string mAssetDir, mPalette, mWorld;
    int mWorldIndex = -1;
    bool mMarkers = false;
    float mScale = 1.0f;
    int mBaseFrame = 0;
    int mFallbackTexSize = 256;
};

} // namespace gamefmt::glue
