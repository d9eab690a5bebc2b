// The Roblox model/place importer: signature, options, then the codec and the scene builder. The document
// model is only touched through assimp_glue/roblox_model/scene.hpp's import helper.
#include "assimp_glue/roblox_model/importer.hpp"

#include "assimp_glue/common/io_util.hpp"
#include "assimp_glue/common/scene_util.hpp"
#include "assimp_glue/roblox_model/assets.hpp"
#include "assimp_glue/roblox_model/installs.hpp"
#include "assimp_glue/roblox_model/scene.hpp"
#include "common/ascii.hpp"
#include "common/error.hpp"
#include "gamefmt/config.hpp"
#include "importers/roblox_model/document/detect.hpp"
#include "importers/roblox_model/document/reader.hpp"

#include <assimp/Importer.hpp>

#include <algorithm>
#include <cstdio>
#include <thread>

namespace gamefmt::glue {

const aiImporterDesc &RobloxModelImporter::Description() {
    static const aiImporterDesc desc = DescribeFormat(
        "gamefmt Roblox model/place",
        "Roblox binary and XML models and places: the instance tree, parts as shared meshes with materials per "
        "look, decals, lights and the camera",
        aiImporterFlags_SupportTextFlavour | aiImporterFlags_SupportBinaryFlavour |
            aiImporterFlags_SupportCompressedFlavour,
        "rbxm rbxl rbxmx rbxlx");
    return desc;
}

RobloxModelImporter::RobloxModelImporter() : FormatImporter(Description(), rbx::kSignatureBytes) {}

bool RobloxModelImporter::detect(const std::uint8_t *data, std::size_t size) const {
    return rbx::Detect(data, size) != rbx::Encoding::None;
}

void RobloxModelImporter::readOptions(const Assimp::Importer *importer) {
    const int mib = importer->GetPropertyInteger(GAMEFMT_RBX_MAX_DECOMPRESSED, 1024);
    mMaxDecompressed = mib > 0 ? std::uint64_t(mib) << 20 : std::uint64_t(1024) << 20;
    const int instances = importer->GetPropertyInteger(GAMEFMT_RBX_MAX_INSTANCES, 0);
    mMaxInstances = instances > 0 ? std::size_t(instances) : rbx::ReadOptions::kDefaultMaxInstances;
    mNodeProperties = importer->GetPropertyBool(GAMEFMT_RBX_NODE_PROPERTIES, false);

    mOptionError.clear();
    mGeometry = RbxGeometryOptions();
    const std::string scope = AsciiLower(importer->GetPropertyString(GAMEFMT_RBX_GEOMETRY_SCOPE, "auto"));
    if (scope == "workspace")
        mGeometry.scope = RbxGeometryScope::Workspace;
    else if (scope == "all")
        mGeometry.scope = RbxGeometryScope::All;
    else if (scope != "auto" && !scope.empty())
        mOptionError = "option " GAMEFMT_RBX_GEOMETRY_SCOPE " is \"" + SanitizeForAiString(scope, 100) +
                       "\"; valid values: workspace, all, auto";
    mGeometry.enabled = importer->GetPropertyBool(GAMEFMT_RBX_GEOMETRY, true);
    mGeometry.skipInvisible = importer->GetPropertyBool(GAMEFMT_RBX_SKIP_INVISIBLE, false);
    mGeometry.sun = importer->GetPropertyBool(GAMEFMT_RBX_SUN, false);
    mGeometry.clothing = importer->GetPropertyBool(GAMEFMT_RBX_CLOTHING, true);
    const int clothingScale = importer->GetPropertyInteger(GAMEFMT_RBX_CLOTHING_SCALE, 1);
    if (clothingScale < 1 || clothingScale > 8)
        mOptionError =
            "option " GAMEFMT_RBX_CLOTHING_SCALE " is " + std::to_string(clothingScale) + "; valid values: 1 to 8";
    else
        mGeometry.clothingScale = clothingScale;
    const int segments = importer->GetPropertyInteger(GAMEFMT_RBX_SEGMENTS, 24);
    if (segments < 3 || segments > 256)
        mOptionError = "option " GAMEFMT_RBX_SEGMENTS " is " + std::to_string(segments) + "; valid values: 3 to 256";
    else
        mGeometry.segments = static_cast<unsigned>(segments);
    mAutoFoundNone = false;
    mAssetFolders =
        ExpandAssetFolders(SplitAssetFolders(importer->GetPropertyString(GAMEFMT_RBX_ASSET_DIR, "")), &mAutoFoundNone);
    mGeometry.terrain = importer->GetPropertyBool(GAMEFMT_RBX_TERRAIN, true);
    mGeometry.terrainWater = importer->GetPropertyBool(GAMEFMT_RBX_TERRAIN_WATER, true);
    const int stride = importer->GetPropertyInteger(GAMEFMT_RBX_TERRAIN_STRIDE, 1);
    if (stride != 1 && stride != 2 && stride != 4)
        mOptionError = "option " GAMEFMT_RBX_TERRAIN_STRIDE " is " + std::to_string(stride) + "; valid values: 1, 2, 4";
    else
        mGeometry.terrainStride = stride;
    const float error = NumberProperty(importer, GAMEFMT_RBX_TERRAIN_ERROR, 0.5f);
    if (!(error >= 0 && error <= 64)) {
        char text[32];
        std::snprintf(text, sizeof text, "%g", static_cast<double>(error));
        mOptionError = std::string("option " GAMEFMT_RBX_TERRAIN_ERROR " is ") + text + "; valid values: 0 to 64 studs";
    } else
        mGeometry.terrainError = error;
    const int threads = importer->GetPropertyInteger(GAMEFMT_RBX_TERRAIN_THREADS, 0);
    if (threads < 0 || threads > 256)
        mOptionError =
            "option " GAMEFMT_RBX_TERRAIN_THREADS " is " + std::to_string(threads) + "; valid values: 0 to 256";
    else
        mGeometry.terrainThreads =
            threads != 0 ? threads : static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
    mGeometry.terrainBudget = mMaxDecompressed;
    mRig.rigs = importer->GetPropertyBool(GAMEFMT_RBX_RIGS, true);
    mRig.animations = importer->GetPropertyBool(GAMEFMT_RBX_ANIMATIONS, true);
    const int fps = importer->GetPropertyInteger(GAMEFMT_RBX_ANIMATION_FPS, 60);
    if (fps < 1 || fps > 1000)
        mOptionError = "option " GAMEFMT_RBX_ANIMATION_FPS " is " + std::to_string(fps) + "; valid values: 1 to 1000";
    else
        mRig.fps = static_cast<unsigned>(fps);
}

void RobloxModelImporter::InternReadFile(const std::string &file, aiScene *scene, Assimp::IOSystem *io) {
    // Assimp skips CanRead when ours is the only loader claiming the extension, so check again.
    const std::vector<std::uint8_t> bytes = ReadAll(io, file, "Roblox model");
    if (rbx::Detect(bytes.data(), bytes.size()) == rbx::Encoding::None)
        throw FormatError("Roblox model",
                          "not a Roblox model file: expected \"<roblox!\" (binary) or \"<roblox \" (XML)", 0);
    if (!mOptionError.empty()) throw FormatError("Roblox model", mOptionError);
    rbx::ReadOptions read;
    read.maxDecompressed = mMaxDecompressed;
    read.maxInstances = mMaxInstances;
    RobloxSceneOptions options;
    options.maxDepth = limits().maxNodeDepth;
    options.nodeProperties = mNodeProperties;
    options.geometry = mGeometry;
    options.rig = mRig;
    if (mAutoFoundNone)
        LogWarn("Roblox model: asset folder \"auto\" (GAMEFMT_RBX_ASSET_DIR, --asset-dir) found no Roblox Studio or "
                "Player install on this machine (docs/roblox-assets.md lists where it looks)");
    // Named asset folders must exist (as --rg-assets must): a typo is an error, not silently missing images.
    for (const std::string &folder : mAssetFolders)
        if (!FolderExists(io, folder))
            throw FormatError("Roblox model", "asset folder \"" + SanitizeForAiString(folder, 200) +
                                                  "\" (GAMEFMT_RBX_ASSET_DIR, --asset-dir) does not exist");
    options.geometry.assets = MakeAssetResolver(io, mAssetFolders);
    options.rig.assets = options.geometry.assets;
    ImportRobloxModel(bytes.data(), bytes.size(), read, options, scene);
    FinishImportedScene(scene, rbx::kFormatName, limits());
}

} // namespace gamefmt::glue
