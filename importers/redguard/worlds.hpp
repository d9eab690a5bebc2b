// Which scene, terrain and palette make up each of the game's worlds (docs/formats/redguard-world.md §2.5, §4): the
// world table of the game's WORLD.INI and the palette of every level, as data. No Assimp here.
#pragma once

#include <string>
#include <vector>

namespace gamefmt::redguard {

struct WorldEntry {
    int world;           // the WORLD.INI index
    const char *rgm;     // the scene's stem
    const char *wld;     // the terrain's stem
    const char *palette; // the palette's stem (<palette>.COL)
};

// The worlds that have terrain, lowest index first.
const std::vector<WorldEntry> &TerrainWorlds();

// The worlds whose scene (or, with `byTerrain`, whose terrain) has this stem (case-insensitive), lowest first.
std::vector<WorldEntry> WorldsOf(const std::string &stem, bool byTerrain);

// The palette stem of a level (by its scene's stem, lowest world); "" when the level is not known.
std::string LevelPalette(const std::string &rgmStem);

} // namespace gamefmt::redguard
