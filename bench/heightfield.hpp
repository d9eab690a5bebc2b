// The benchmark geometry: an N x N height field (2·(N-1)² triangles) written in several formats, so every
// importer — ours and Assimp's — is timed on the same triangles (docs/formats/assimp-integration.md §12 uses N = 1000).
#pragma once

#include <cstdint>
#include <vector>

namespace gamefmt::bench {

struct HeightField {
    std::vector<float> positions;       // x, y, z per vertex
    std::vector<std::uint32_t> indices; // 3 per triangle, counter-clockwise seen from +Y
    std::size_t vertexCount() const { return positions.size() / 3; }
    std::size_t triangleCount() const { return indices.size() / 3; }
};

HeightField MakeHeightField(std::uint32_t n);

std::vector<std::uint8_t> ToBinaryStl(const HeightField &h); // unshared vertices, as STL stores them
std::vector<std::uint8_t> ToBinaryPly(const HeightField &h); // indexed
std::vector<std::uint8_t> ToObj(const HeightField &h);       // indexed, text
// Roblox mesh 2.00 (indexed, 40-byte vertices), written by gamefmt's own builder and writer.
std::vector<std::uint8_t> ToRobloxMesh200(const HeightField &h);

} // namespace gamefmt::bench
