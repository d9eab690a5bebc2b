// Redguard levels through Assimp: bytes -> RGM scene / WLD world (codecs) -> side files (models from the level's
// ROB and the .3DC/.3D files, banks, the palette of the level's world, the terrain the world table pairs with the
// scene) -> aiScene (assimp_glue/redguard/level.hpp).
#include "assimp_glue/redguard/level_importer.hpp"

#include "assimp_glue/common/io_util.hpp"
#include "assimp_glue/common/scene_util.hpp"
#include "assimp_glue/redguard/level.hpp"
#include "assimp_glue/redguard/side_files.hpp"
#include "common/error.hpp"
#include "gamefmt/config.hpp"
#include "importers/redguard/detect.hpp"
#include "importers/redguard/rob.hpp"
#include "importers/redguard/worlds.hpp"

#include <assimp/Importer.hpp>

#include <cmath>
#include <map>
#include <memory>
#include <optional>

namespace gamefmt::glue {
namespace {

using rgside::FileNameOf;
using rgside::IsMagic;
using rgside::SideFileResolver;
using rgside::StemOf;
using rgside::Upper;

constexpr std::size_t kHeadBytes = redguard::kWldMinSize; // enough for a WLD header and an RGM's first tag

void Warn(const char *format, const std::string &message) {
    LogWarn(std::string(format) + ": " + message);
}

std::string Quote(const std::string &text) {
    return SanitizeForAiString(std::string_view(text).substr(0, 200));
}

// The level's models (§1.8): a segment of the level's own ROB, else <name>.3DC, else <name>.3D.
class ModelFinder {
public:
    ModelFinder(SideFileResolver &resolver, const std::string &levelStem) : mResolver(resolver) {
        if (levelStem.empty()) return;
        const std::optional<std::string> path = resolver.find(levelStem + ".ROB");
        if (!path) return;
        try {
            mRobBytes = resolver.read(*path);
            mRob = redguard::ReadRob(mRobBytes.data(), mRobBytes.size());
            mRobName = FileNameOf(*path);
            for (std::size_t i = 0; i < mRob->segments.size(); ++i)
                mSegments.emplace(Upper(mRob->segments[i].name), i); // the first of a name wins
        } catch (const std::exception &e) {
            Warn(redguard::kRgmFormatName, *path + " cannot be read: " + e.what() + "; models are looked up as files");
            mRob.reset();
        }
    }

    std::optional<RedguardFoundModel> find(const std::string &name) {
        if (mRob) {
            const auto at = mSegments.find(name);
            if (at != mSegments.end()) {
                const redguard::RobSegment &segment = mRob->segments[at->second];
                if (segment.embedded()) {
                    try {
                        return RedguardFoundModel{redguard::ReadModel(mRobBytes.data() + segment.payloadOffset,
                                                                      segment.payloadSize, segment.payloadOffset),
                                                  "ROB " + mRobName};
                    } catch (const std::exception &e) {
                        Warn(redguard::kRgmFormatName,
                             mRobName + " segment \"" + Quote(segment.name) + "\" cannot be read: " + e.what());
                    }
                }
            }
        }
        for (const char *extension : {".3DC", ".3D"}) {
            const std::optional<std::string> path = mResolver.find(name + extension);
            if (!path) continue;
            try {
                const std::vector<std::uint8_t> bytes = mResolver.read(*path);
                if (redguard::Detect(bytes.data(), bytes.size()) != redguard::FileKind::Model)
                    throw FormatError(redguard::kFormatName, "not a Redguard model", 0);
                return RedguardFoundModel{redguard::ReadModel(bytes.data(), bytes.size()), *path};
            } catch (const std::exception &e) {
                Warn(redguard::kRgmFormatName, *path + " cannot be read: " + e.what());
            }
        }
        return std::nullopt;
    }

private:
    SideFileResolver &mResolver;
    std::vector<std::uint8_t> mRobBytes;
    std::optional<redguard::RobArchive> mRob;
    std::string mRobName;
    std::map<std::string, std::size_t> mSegments;
};

} // namespace

const aiImporterDesc &RedguardLevelImporter::Description() {
    static const aiImporterDesc desc = DescribeFormat(
        "gamefmt Redguard level",
        "The Elder Scrolls Adventures: Redguard levels: .rgm scenes (placed models, flats, ropes, lights) and .wld "
        "terrain, with their models, TEXBSI textures and palettes",
        aiImporterFlags_SupportBinaryFlavour, "rgm wld");
    return desc;
}

RedguardLevelImporter::RedguardLevelImporter() : FormatImporter(Description(), kHeadBytes) {}

bool RedguardLevelImporter::detect(const std::uint8_t *data, std::size_t size) const {
    return redguard::LooksLikeWld(data, size) || redguard::LooksLikeRgm(data, size, size < kHeadBytes);
}

void RedguardLevelImporter::readOptions(const Assimp::Importer *importer) {
    mAssetDir = importer->GetPropertyString(GAMEFMT_RG_ASSET_DIR, "");
    mPalette = importer->GetPropertyString(GAMEFMT_RG_PALETTE, "");
    mWorld = importer->GetPropertyString(GAMEFMT_RG_WORLD, "");
    mWorldIndex = importer->GetPropertyInteger(GAMEFMT_RG_WORLD_INDEX, -1);
    mMarkers = importer->GetPropertyBool(GAMEFMT_RG_MARKERS, false);
    mScale = NumberProperty(importer, GAMEFMT_RG_SCALE, 1.0f);
    mBaseFrame = importer->GetPropertyInteger(GAMEFMT_RG_BASE_FRAME, 0);
    mFallbackTexSize = importer->GetPropertyInteger(GAMEFMT_RG_FALLBACK_TEX_SIZE, 256);
}

namespace {

// Content decides between a world and a scene; a .wld that is neither is read as a world (for the world reader's
// precise error), and a scene whose first section is of an unknown kind is still read (sections are skipped by
// their length), so only bytes that frame no section at all are refused.
bool IsWorldFile(const std::vector<std::uint8_t> &bytes, const std::string &file) {
    const bool sceneTag = redguard::LooksLikeRgm(bytes.data(), bytes.size(), false);
    const std::string lowerName = AsciiLower(FileNameOf(file));
    const bool wldName = lowerName.size() > 4 && lowerName.compare(lowerName.size() - 4, 4, ".wld") == 0;
    const bool isWld = redguard::LooksLikeWld(bytes.data(), bytes.size()) || (!sceneTag && wldName);
    if (!isWld && !sceneTag &&
        (bytes.size() < 8 || (std::uint64_t{bytes[4]} << 24 | std::uint64_t{bytes[5]} << 16 |
                              std::uint64_t{bytes[6]} << 8 | bytes[7]) > bytes.size() - 8))
        throw FormatError(redguard::kRgmFormatName,
                          "not a Redguard RGM scene (a section tag such as RAHD, MPOB or MPSO whose length fits) or "
                          "WLD world (header words 0x18 = 22 and 0x90 = 1184)",
                          0);
    return isWld;
}

// §2.5, §4: the world (the option's, else the lowest the level belongs to) that chooses palette and terrain.
std::optional<redguard::WorldEntry> ChooseWorld(const std::string &stem, bool isWld, int worldIndex,
                                                const std::string &fileName, const char *format) {
    std::optional<redguard::WorldEntry> world;
    if (worldIndex >= 0) {
        for (const redguard::WorldEntry &w : redguard::TerrainWorlds())
            if (w.world == worldIndex) world = w;
        if (!world)
            Warn(format, "GAMEFMT_RG_WORLD_INDEX " + std::to_string(worldIndex) +
                             " is not one of the worlds with terrain (0, 1, 6, 17, 27, 28, 30); ignored");
        else if (!stem.empty() && stem != (isWld ? world->wld : world->rgm))
            Warn(format, "world " + std::to_string(world->world) + " is " + world->rgm + ".RGM with " + world->wld +
                             ".WLD, not " + fileName + "; its palette and terrain are used anyway");
        if (world) return world;
    }
    const std::vector<redguard::WorldEntry> worlds = redguard::WorldsOf(stem, isWld);
    if (worlds.empty()) return std::nullopt;
    if (worlds.size() > 1) {
        std::string list;
        for (const redguard::WorldEntry &w : worlds)
            list += (list.empty() ? "" : ", ") + std::to_string(w.world) + " (" + w.palette + ")";
        Warn(format, fileName + " belongs to worlds " + list + "; showing world " + std::to_string(worlds[0].world) +
                         " (choose with GAMEFMT_RG_WORLD_INDEX, --rg-world-index)");
    }
    return worlds.front();
}

// The palette: GAMEFMT_RG_PALETTE (required when given), else the world's or the level's (§4), else <stem>.COL
// beside the file; `name` says which.
std::optional<redguard::Palette> ChoosePalette(SideFileResolver &resolver, const std::string &option,
                                               const std::optional<redguard::WorldEntry> &world, bool isWld,
                                               const std::string &stem, const char *format, std::string &name) {
    if (!option.empty()) {
        name = option;
        return resolver.palette(option, stem); // throws when missing
    }
    const std::string wanted = world ? std::string(world->palette) : isWld ? "" : redguard::LevelPalette(stem);
    if (!wanted.empty()) {
        if (const std::optional<std::string> path = resolver.find(wanted + ".COL")) {
            if (std::optional<redguard::Palette> palette = resolver.load(*path)) {
                name = wanted;
                return palette;
            }
        } else {
            Warn(format, "the level's palette " + wanted + ".COL was not found (searched " + resolver.searchedText() +
                             "); set GAMEFMT_RG_ASSET_DIR to the game's fxart folder");
        }
    }
    std::optional<redguard::Palette> palette = resolver.palette("", stem);
    if (palette) name = stem;
    return palette;
}

// The terrain of a scene: GAMEFMT_RG_WORLD's file (required), "none", else the world's, else <stem>.WLD.
std::optional<std::string> TerrainPath(SideFileResolver &resolver, const std::string &option,
                                       const std::optional<redguard::WorldEntry> &world, const std::string &stem,
                                       const std::string &fileName) {
    if (option == "none" || option == "NONE") return std::nullopt;
    if (!option.empty()) {
        std::optional<std::string> path = resolver.exists(option) ? option : resolver.find(FileNameOf(option));
        if (!path)
            throw FormatError(redguard::kRgmFormatName, "terrain \"" + Quote(option) +
                                                            "\" (GAMEFMT_RG_WORLD, --rg-world) not found; fix the "
                                                            "path or pass none");
        return path;
    }
    if (stem.empty()) return std::nullopt;
    const std::string wanted = world ? world->wld : stem;
    std::optional<std::string> path = resolver.find(wanted + ".WLD");
    if (!path && world)
        Warn(redguard::kRgmFormatName, "the world's terrain " + wanted + ".WLD was not found beside " + fileName +
                                           " (searched " + resolver.searchedText() + "); the scene has no ground");
    return path;
}

} // namespace

void RedguardLevelImporter::InternReadFile(const std::string &file, aiScene *scene, Assimp::IOSystem *io) {
    const std::vector<std::uint8_t> bytes = ReadAll(io, file, redguard::kRgmFormatName);
    const bool isWld = IsWorldFile(bytes, file);
    const char *format = isWld ? redguard::kWldFormatName : redguard::kRgmFormatName;

    RedguardSceneOptions options;
    options.scale = std::isfinite(mScale) && mScale != 0.0f ? mScale : 1.0;
    if (options.scale != mScale) Warn(format, "GAMEFMT_RG_SCALE must be a finite non-zero number; using 1");
    options.baseFrame = mBaseFrame;
    options.fallbackTexSize = mFallbackTexSize > 0 && mFallbackTexSize <= 65536 ? mFallbackTexSize : 256;
    options.staticPose = true;

    const bool magic = IsMagic(file);
    const std::string fileName = magic ? std::string() : FileNameOf(file);
    const std::string stem = magic ? std::string() : Upper(StemOf(file));
    SideFileResolver resolver(io, file, mAssetDir);
    resolver.requireAssetDir(mAssetDir);
    const std::optional<redguard::WorldEntry> world = ChooseWorld(stem, isWld, mWorldIndex, fileName, format);

    RedguardLevelInput input;
    input.fileName = fileName.empty() ? (isWld ? "Redguard world" : "Redguard scene") : fileName;
    input.markers = mMarkers;
    input.worldIndex = world ? world->world : -1;
    const std::optional<redguard::Palette> palette =
        ChoosePalette(resolver, mPalette, world, isWld, stem, format, input.palette);
    RedguardSideFiles side;
    side.palette = palette ? &*palette : nullptr;
    side.paletteConfigured = !mPalette.empty();
    side.bank = [&resolver](unsigned number) { return resolver.bank(number); };

    std::optional<redguard::RgmScene> rgm;
    std::optional<redguard::WldWorld> wld;
    if (isWld) {
        wld = redguard::ReadWld(bytes.data(), bytes.size());
        for (const std::string &w : wld->warnings) Warn(format, w);
    } else {
        rgm = redguard::ReadRgm(bytes.data(), bytes.size());
        for (const std::string &w : rgm->warnings) Warn(format, w);
        if (const std::optional<std::string> terrainPath = TerrainPath(resolver, mWorld, world, stem, fileName)) {
            try {
                const std::vector<std::uint8_t> terrain = resolver.read(*terrainPath);
                wld = redguard::ReadWld(terrain.data(), terrain.size());
                for (const std::string &w : wld->warnings) Warn(redguard::kWldFormatName, w);
                input.terrainFile = FileNameOf(*terrainPath);
            } catch (const FormatError &e) {
                if (!mWorld.empty()) throw;
                Warn(format, *terrainPath + " cannot be read: " + e.what() + "; the scene has no ground");
                wld.reset();
            }
        }
    }
    input.scene = rgm ? &*rgm : nullptr;
    input.world = wld ? &*wld : nullptr;
    ModelFinder finder(resolver, isWld ? std::string() : stem);
    input.models = [&finder](const std::string &name) { return finder.find(name); };
    BuildRedguardLevelScene(input, options, side, scene);
    FinishImportedScene(scene, format, limits());
}

} // namespace gamefmt::glue
