// The Assimp importer for Roblox models and places (.rbxm .rbxl binary, .rbxmx .rbxlx XML, sniffed by
// content): bytes through the IOSystem → ReadDocument → BuildRobloxModelScene.
#pragma once

#include "assimp_glue/common/import_guard.hpp"

#include <assimp/BaseImporter.h>
#include <assimp/importerdesc.h>

#include <cstdint>
#include <string>

namespace gamefmt::glue {

class RobloxModelImporter : public Assimp::BaseImporter {
public:
    // The descriptor: name "gamefmt Roblox model/place", extensions "rbxm rbxl rbxmx rbxlx".
    static const aiImporterDesc &Description();

    // By signature only ("<roblox!" binary, "<roblox" XML); never throws; checkSig is ignored.
    bool CanRead(const std::string &file, Assimp::IOSystem *io, bool checkSig) const override;
    const aiImporterDesc *GetInfo() const override { return &Description(); }
    void SetupProperties(const Assimp::Importer *importer) override;

protected:
    void InternReadFile(const std::string &file, aiScene *scene, Assimp::IOSystem *io) override;

private:
    ImportLimits mLimits;
    std::size_t mMaxInstances = 0;                              // GAMEFMT_RBX_MAX_INSTANCES
    std::uint64_t mMaxDecompressed = std::uint64_t(1024) << 20; // GAMEFMT_RBX_MAX_DECOMPRESSED, bytes
    bool mNodeProperties = false;                               // GAMEFMT_RBX_NODE_PROPERTIES
};

} // namespace gamefmt::glue
