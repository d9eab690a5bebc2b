// The Second Life mesh importer: bytes through the IOSystem -> asset model (only the blocks the options
// need) -> aiScene.
#include "assimp_glue/sl_mesh/importer.hpp"

#include "assimp_glue/common/io_util.hpp"
#include "common/ascii.hpp"
#include "common/error.hpp"
#include "common/utf8_path.hpp"
#include "gamefmt/config.hpp"
#include "importers/sl_mesh/asset.hpp"
#include "importers/sl_mesh/detect.hpp"

#include <assimp/Importer.hpp>

#include <algorithm>
#include <cctype>
#include <climits>
#include <filesystem>

namespace gamefmt::glue {
namespace {

constexpr const char *kLodValues =
    "\"high\", \"medium\", \"low\", \"lowest\", \"all\" or an integer 0 (lowest) to 3 (high)";
// Sentinels for "property not set" (Assimp has no HasProperty on the Importer).
constexpr int kUnsetInt = INT_MIN;
const char kUnsetString[] = "\x01gamefmt-unset";

// "high" / "high_lod" / "3" ... -> level; "all" -> 4; anything else -> -1.
int ParseLodText(const std::string &text) {
    const std::string t = AsciiLower(text);
    if (t == "all") return 4;
    for (int level = 0; level < 4; ++level) {
        const std::string key = slmesh::LodKey(level); // "lowest_lod" ...
        if (t == key || t == key.substr(0, key.size() - 4) || t == std::to_string(level)) return level;
    }
    return -1;
}

std::uint32_t LodBit(int level) {
    return 1u << static_cast<unsigned>(level);
}

// The file name's stem; memory reads are named "$$$___magic___$$$.<hint>", which is no name at all.
std::string RootName(const std::string &file) {
    std::string stem;
    try {
        stem = PathToUtf8(PathFromUtf8(file).stem());
    } catch (...) {
        stem.clear();
    }
    if (stem.empty() || stem.rfind("$$$___magic___$$$", 0) == 0) return SlMeshSceneOptions().rootName;
    return stem;
}

} // namespace

const aiImporterDesc &SlMeshImporter::Description() {
    static const aiImporterDesc desc =
        DescribeFormat("gamefmt Second Life mesh",
                       "Second Life mesh assets (.llmesh) and viewer model saves (.slm): LODs, rig, physics",
                       aiImporterFlags_SupportBinaryFlavour | aiImporterFlags_SupportCompressedFlavour, "llmesh slm");
    return desc;
}

SlMeshImporter::SlMeshImporter() : FormatImporter(Description(), slmesh::kSignatureBytes) {}

bool SlMeshImporter::detect(const std::uint8_t *data, std::size_t size) const {
    return slmesh::Detect(data, size);
}

void SlMeshImporter::readOptions(const Assimp::Importer *importer) {
    mOptions = SlMeshSceneOptions();
    mOptionError.clear();

    const std::string lodText = importer->GetPropertyString(GAMEFMT_SLMESH_LOD, kUnsetString);
    const int lodInt = importer->GetPropertyInteger(GAMEFMT_SLMESH_LOD, kUnsetInt);
    if (lodText != kUnsetString) {
        const int level = ParseLodText(lodText);
        if (level < 0)
            mOptionError =
                std::string("option " GAMEFMT_SLMESH_LOD " is \"") + lodText + "\"; valid values: " + kLodValues;
        else if (level == 4)
            mOptions.allLods = true;
        else
            mOptions.lod = level;
    } else if (lodInt != kUnsetInt) {
        if (lodInt < 0 || lodInt > 3)
            mOptionError =
                "option " GAMEFMT_SLMESH_LOD " is " + std::to_string(lodInt) + "; valid values: " + kLodValues;
        else
            mOptions.lod = lodInt;
    }
    if (importer->GetPropertyBool(GAMEFMT_SLMESH_ALL_LODS, false)) mOptions.allLods = true;
    mOptions.physics = importer->GetPropertyBool(GAMEFMT_SLMESH_PHYSICS, false);
    mOptions.yUp = importer->GetPropertyBool(GAMEFMT_SLMESH_YUP, true);
    mOptions.fullSkeleton = importer->GetPropertyBool(GAMEFMT_SLMESH_SKELETON, false);
    mOptions.normalizedScale = importer->GetPropertyBool(GAMEFMT_SLMESH_NORMALIZED_SCALE, true);

    const int mib = importer->GetPropertyInteger(GAMEFMT_SLMESH_MAX_INFLATED, 64);
    constexpr int kMaxMib = 1 << 20; // 1 TiB: far beyond any real block, still no overflow
    mMaxInflated = static_cast<std::size_t>(mib <= 0 ? 64 : std::min(mib, kMaxMib)) * 1024u * 1024u;

    const int slm = importer->GetPropertyInteger(GAMEFMT_SLMESH_SLM_MESH, 0);
    if (slm < 0 && mOptionError.empty())
        mOptionError = "option " GAMEFMT_SLMESH_SLM_MESH " is " + std::to_string(slm) +
                       "; valid values: 0 (the first mesh of a .slm save) or more";
    mSlmMesh = slm < 0 ? 0 : static_cast<std::size_t>(slm);
}

void SlMeshImporter::InternReadFile(const std::string &file, aiScene *scene, Assimp::IOSystem *io) {
    // Assimp skips CanRead when ours is the only loader claiming the extension, so check again.
    const std::vector<std::uint8_t> bytes = ReadAll(io, file, slmesh::kFormatName);
    if (!slmesh::Detect(bytes.data(), bytes.size()))
        throw FormatError(slmesh::kFormatName,
                          "not a Second Life mesh asset: expected a binary LLSD header map with a *_lod or mesh key "
                          "in its first 4096 bytes",
                          0);
    if (!mOptionError.empty()) throw FormatError(slmesh::kFormatName, mOptionError);

    slmesh::ReadOptions read;
    read.maxInflatedBlock = mMaxInflated;
    read.slmMeshIndex = mSlmMesh;
    std::uint32_t others = slmesh::kBlockSkin;
    if (mOptions.physics) others |= slmesh::kBlockPhysicsMesh | slmesh::kBlockPhysicsConvex;

    // Inflating and decoding every level costs; most imports need one. Fall back (§10 step 3) by reading all
    // levels only when the preferred one is missing, undecodable or empty.
    slmesh::SLMeshAsset asset;
    bool haveAsset = false;
    if (!mOptions.allLods) {
        read.blocks = others | LodBit(mOptions.lod);
        try {
            asset = slmesh::ReadAsset(bytes.data(), bytes.size(), read);
            const std::optional<slmesh::Lod> &lod = asset.lods[static_cast<std::size_t>(mOptions.lod)];
            bool triangles = false;
            if (lod)
                for (const slmesh::Face &face : lod->faces)
                    triangles = triangles || (!face.noGeometry && face.triangleCount() != 0);
            haveAsset = triangles;
        } catch (const FormatError &) {
            haveAsset = false; // re-read below with every level; its error (if any) is the one reported
        }
    }
    if (!haveAsset) {
        read.blocks = others | slmesh::kBlockAllLods;
        asset = slmesh::ReadAsset(bytes.data(), bytes.size(), read);
    }

    SlMeshSceneOptions options = mOptions;
    options.rootName = RootName(file);
    BuildSlMeshScene(asset, options, scene);
    FinishImportedScene(scene, slmesh::kFormatName, limits());
}

} // namespace gamefmt::glue
