// The Redguard importer: bytes through the IOSystem -> model or ROB archive (codecs) -> aiScene, with the side
// files (banks, palette, external .3DC) looked up through the same IOSystem (docs/formats/redguard-3d.md §12).
#include "assimp_glue/redguard/importer.hpp"

#include "assimp_glue/common/io_util.hpp"
#include "assimp_glue/common/scene_util.hpp"
#include "assimp_glue/redguard/scene.hpp"
#include "assimp_glue/redguard/side_files.hpp"
#include "common/ascii.hpp"
#include "common/error.hpp"
#include "gamefmt/config.hpp"
#include "importers/redguard/detect.hpp"
#include "importers/redguard/model.hpp"
#include "importers/redguard/rob.hpp"
#include "importers/redguard/texbsi.hpp"

#include <assimp/IOSystem.hpp>
#include <assimp/Importer.hpp>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <map>
#include <memory>
#include <optional>

namespace gamefmt::glue {
namespace {

using rgside::FileNameOf;
using rgside::IsMagic;
using rgside::SideFileResolver;
using rgside::StemOf;

constexpr const char *kExpected = "\"v2.6\", \"v2.7\", \"v4.0\", \"v5.0\" or \"OARC\"";

void Warn(const std::string &message) {
    rgside::RgWarn(message);
}

} // namespace

const aiImporterDesc &RedguardImporter::Description() {
    static const aiImporterDesc desc = DescribeFormat(
        "gamefmt Redguard model",
        "The Elder Scrolls Adventures: Redguard .3d/.3dc models (v2.6, v2.7, v4.0, v5.0) and .rob archives, with "
        "TEXBSI textures and .COL palettes",
        aiImporterFlags_SupportBinaryFlavour, "3d 3dc rob");
    return desc;
}

RedguardImporter::RedguardImporter() : FormatImporter(Description(), redguard::kSignatureBytes) {}

bool RedguardImporter::detect(const std::uint8_t *data, std::size_t size) const {
    return redguard::Detect(data, size) != redguard::FileKind::None;
}

void RedguardImporter::readOptions(const Assimp::Importer *importer) {
    mAssetDir = importer->GetPropertyString(GAMEFMT_RG_ASSET_DIR, "");
    mPalette = importer->GetPropertyString(GAMEFMT_RG_PALETTE, "");
    mScale = NumberProperty(importer, GAMEFMT_RG_SCALE, 1.0f); // "--rg-scale 2" arrives as an integer
    mFps = NumberProperty(importer, GAMEFMT_RG_FPS, 12.0f);
    mIncludeFrame0 = importer->GetPropertyBool(GAMEFMT_RG_INCLUDE_FRAME0, false);
    mBaseFrame = importer->GetPropertyInteger(GAMEFMT_RG_BASE_FRAME, 0);
    mFallbackTexSize = importer->GetPropertyInteger(GAMEFMT_RG_FALLBACK_TEX_SIZE, 256);
}

void RedguardImporter::InternReadFile(const std::string &file, aiScene *scene, Assimp::IOSystem *io) {
    // Assimp skips CanRead when ours is the only loader claiming the extension (.3dc, .rob), so check again.
    const std::vector<std::uint8_t> bytes = ReadAll(io, file, redguard::kFormatName);
    const redguard::FileKind kind = redguard::Detect(bytes.data(), bytes.size());
    if (kind == redguard::FileKind::None)
        throw FormatError(redguard::kFormatName,
                          std::string("not a Redguard model or ROB archive: expected ") + kExpected, 0);

    RedguardSceneOptions options;
    options.scale = mScale;
    if (!std::isfinite(mScale) || mScale == 0.0f) {
        Warn("GAMEFMT_RG_SCALE must be a finite non-zero number; using 1");
        options.scale = 1.0;
    }
    options.fps = mFps;
    if (!std::isfinite(mFps) || mFps <= 0.0f) {
        Warn("GAMEFMT_RG_FPS must be positive; using 12");
        options.fps = 12.0;
    }
    options.includeFrame0 = mIncludeFrame0;
    options.baseFrame = mBaseFrame;
    options.fallbackTexSize = mFallbackTexSize;
    if (mFallbackTexSize <= 0 || mFallbackTexSize > 65536) {
        Warn("GAMEFMT_RG_FALLBACK_TEX_SIZE must be 1-65536; using 256");
        options.fallbackTexSize = 256;
    }

    const bool magic = IsMagic(file);
    const std::string fileName = magic ? std::string() : FileNameOf(file);
    const std::string stem = magic ? std::string() : StemOf(file);

    SideFileResolver resolver(io, file, mAssetDir);
    resolver.requireAssetDir(mAssetDir);
    const std::optional<redguard::Palette> palette = resolver.palette(mPalette, stem);
    RedguardSideFiles side;
    side.palette = palette ? &*palette : nullptr;
    side.paletteConfigured = !mPalette.empty();
    side.bank = [&resolver](unsigned number) { return resolver.bank(number); };
    side.externalModel = [&resolver](const std::string &name) { return resolver.externalModel(name); };

    if (kind == redguard::FileKind::Model) {
        const redguard::RG3DModel model = redguard::ReadModel(bytes.data(), bytes.size());
        BuildRedguardModelScene(model, fileName.empty() ? "Redguard" : fileName, stem.empty() ? "model" : stem, options,
                                side, scene);
    } else {
        const redguard::RobArchive rob = redguard::ReadRob(bytes.data(), bytes.size());
        BuildRedguardRobScene(rob, bytes.data(), bytes.size(), fileName.empty() ? "Redguard" : fileName, options, side,
                              scene);
    }
    FinishImportedScene(scene, redguard::kFormatName, limits());
}

} // namespace gamefmt::glue
