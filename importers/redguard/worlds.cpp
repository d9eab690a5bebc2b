// The world table (docs/formats/redguard-world.md §2.5, §4).
#include "importers/redguard/worlds.hpp"

namespace gamefmt::redguard {
namespace {

std::string Upper(std::string s) {
    for (char &c : s)
        if (c >= 'a' && c <= 'z') c = static_cast<char>(c - 'a' + 'A');
    return s;
}

struct LevelPaletteEntry {
    const char *rgm;
    const char *palette;
};

// §4: every level's palette (its lowest world's).
constexpr LevelPaletteEntry kLevelPalettes[] = {
    {"START", "SUNSET"},    {"EXTPALAC", "SUNSET"}, {"ISLAND", "ISLAND"},   {"CATACOMB", "CATACOMB"},
    {"PALACE", "PALACE00"}, {"CAVERNS", "REDCAVE"}, {"MGUILD", "REDCAVE"},  {"OBSERVE", "OBSERVAT"},
    {"DRINT", "OBSERVAT"},  {"NECRISLE", "NECRO"},  {"NECRTOWR", "NECRO"},  {"JAILINT", "NECRO"},
    {"HIDEINT", "HIDEOUT"}, {"TEMPLE", "ISLAND"},   {"VILE", "ISLAND"},     {"TAVERN", "ISLAND"},
    {"SILVER1", "ISLAND"},  {"SILVER2", "ISLAND"},  {"BELLTOWR", "ISLAND"}, {"HARBTOWR", "ISLAND"},
    {"GERRICKS", "ISLAND"}, {"CARTOGR", "ISLAND"},  {"SMDEN", "ISLAND"},    {"ROLLOS", "ISLAND"},
    {"JFFERS", "ISLAND"},   {"BRENNANS", "ISLAND"},
};

} // namespace

const std::vector<WorldEntry> &TerrainWorlds() {
    static const std::vector<WorldEntry> kWorlds = {
        {0, "START", "HIDEOUT", "SUNSET"},    {1, "ISLAND", "ISLAND", "ISLAND"},
        {6, "NECRISLE", "NECRISLE", "NECRO"}, {17, "HIDEINT", "HIDEOUT", "HIDEOUT"},
        {27, "ISLAND", "ISLAND", "NIGHTSKY"}, {28, "ISLAND", "ISLAND", "SUNSET"},
        {30, "EXTPALAC", "ISLAND", "SUNSET"},
    };
    return kWorlds;
}

std::vector<WorldEntry> WorldsOf(const std::string &stem, bool byTerrain) {
    const std::string key = Upper(stem);
    std::vector<WorldEntry> out;
    for (const WorldEntry &w : TerrainWorlds())
        if (key == (byTerrain ? w.wld : w.rgm)) out.push_back(w);
    return out;
}

std::string LevelPalette(const std::string &rgmStem) {
    const std::string key = Upper(rgmStem);
    for (const LevelPaletteEntry &e : kLevelPalettes)
        if (key == e.rgm) return e.palette;
    return {};
}

} // namespace gamefmt::redguard
