// LOD level boundaries from a Roblox mesh's face-offset table (docs/formats/roblox-mesh.md §10.1).
#include "importers/roblox_mesh/mesh.hpp"

#include <string>

namespace gamefmt::rbxmesh {

namespace {

std::string OffsetsText(const std::vector<std::uint32_t> &offsets) {
    // Hostile tables hold up to 65535 entries: keep the message short.
    constexpr std::size_t kShown = 8;
    std::string s = "[";
    for (std::size_t i = 0; i < offsets.size() && i < kShown; ++i) {
        if (i != 0) s += ',';
        s += std::to_string(offsets[i]);
    }
    if (offsets.size() > kShown) s += ",... (" + std::to_string(offsets.size()) + " entries)";
    return s + "]";
}

} // namespace

std::vector<LodLevel> LodLevels(const RobloxMesh &mesh, std::vector<std::string> *warnings) {
    const auto numFaces = static_cast<std::uint32_t>(mesh.faces.size());
    const std::vector<std::uint32_t> &off = mesh.lodOffsets;
    const std::vector<LodLevel> single{LodLevel{0, numFaces}};

    // [0,N], [0,0] and shorter tables are the normal single-level encodings real files use; no warning.
    if (off.size() < 3 || off[1] == 0) return single;

    auto reject = [&](const std::string &why) {
        if (warnings != nullptr)
            warnings->push_back("LOD offset table " + OffsetsText(off) + " " + why + "; using one level of all " +
                                std::to_string(numFaces) + " faces");
        return single;
    };
    if (off[0] != 0) return reject("does not start at 0");
    for (std::size_t i = 1; i < off.size(); ++i) {
        // Equal neighbours would make an empty level, which no consumer can turn into a mesh.
        if (off[i] <= off[i - 1]) return reject("is not increasing");
    }
    if (off.back() > numFaces) return reject("goes past the " + std::to_string(numFaces) + " faces");

    std::vector<LodLevel> levels;
    levels.reserve(off.size() - 1);
    for (std::size_t i = 0; i + 1 < off.size(); ++i) levels.push_back(LodLevel{off[i], off[i + 1]});
    if (off.back() < numFaces && warnings != nullptr)
        warnings->push_back("LOD offset table " + OffsetsText(off) + " ends before the last face; faces " +
                            std::to_string(off.back()) + ".." + std::to_string(numFaces - 1) + " belong to no level");
    return levels;
}

} // namespace gamefmt::rbxmesh
