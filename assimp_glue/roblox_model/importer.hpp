// The Assimp importer for Roblox models and places (.rbxm .rbxl binary, .rbxmx .rbxlx XML, sniffed by
// content): bytes through the IOSystem → ReadDocument → BuildRobloxModelScene.
#pragma once

#include "assimp_glue/common/format_importer.hpp"
#include "assimp_glue/roblox_model/geometry.hpp"
#include "assimp_glue/roblox_model/rigs.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gamefmt::glue {

class RobloxModelImporter : public FormatImporter {
public:
    RobloxModelImporter();
    // The descriptor: name "gamefmt Roblox model/place", extensions "rbxm rbxl rbxmx rbxlx".
    static const aiImporterDesc &Description();

protected:
    void InternReadFile(const std::string &file, aiScene *scene, Assimp::IOSystem *io) override;
    // By signature: "<roblox!" (binary) or "<roblox" (XML).
    bool detect(const std::uint8_t *data, std::size_t size) const override;
    // GAMEFMT_RBX_MAX_DECOMPRESSED, _MAX_INSTANCES, _NODE_PROPERTIES, _GEOMETRY_SCOPE, _SKIP_INVISIBLE,
    // _SEGMENTS and _ASSET_DIR.
    void readOptions(const Assimp::Importer *importer) override;

private:
    std::size_t mMaxInstances = 0;                              // GAMEFMT_RBX_MAX_INSTANCES
    std::uint64_t mMaxDecompressed = std::uint64_t(1024) << 20; // GAMEFMT_RBX_MAX_DECOMPRESSED, bytes
    bool mNodeProperties = false;                               // GAMEFMT_RBX_NODE_PROPERTIES
    RbxRigOptions mRig;                                         // rigs, animations, baking rate
    RbxGeometryOptions mGeometry;                               // scope, invisible parts, segments
    std::vector<std::string> mAssetFolders;                     // GAMEFMT_RBX_ASSET_DIR
    bool mAutoFoundNone = false;                                // "auto" among them found no install
    std::string mOptionError;                                   // a bad option value, thrown on import
};

} // namespace gamefmt::glue
