// Writers of the benchmark height field in Assimp's reference formats and in ours.
#include "heightfield.hpp"

#include "common/byte_writer.hpp"
#include "importers/roblox_mesh/mesh_builder.hpp"
#include "importers/roblox_mesh/mesh_writer.hpp"

#include <cmath>
#include <string>

namespace gamefmt::bench {

HeightField MakeHeightField(std::uint32_t n) {
    HeightField h;
    h.positions.reserve(std::size_t(n) * n * 3);
    for (std::uint32_t z = 0; z < n; ++z)
        for (std::uint32_t x = 0; x < n; ++x) {
            h.positions.push_back(static_cast<float>(x));
            h.positions.push_back(std::sin(x * 0.1f) * std::cos(z * 0.1f) * 4.0f);
            h.positions.push_back(static_cast<float>(z));
        }
    h.indices.reserve(std::size_t(n - 1) * (n - 1) * 6);
    for (std::uint32_t z = 0; z + 1 < n; ++z)
        for (std::uint32_t x = 0; x + 1 < n; ++x) {
            const std::uint32_t i = z * n + x;
            h.indices.insert(h.indices.end(), {i, i + n, i + 1, i + 1, i + n, i + n + 1});
        }
    return h;
}

std::vector<std::uint8_t> ToBinaryStl(const HeightField &h) {
    ByteWriter w;
    w.reserve(84 + h.triangleCount() * 50);
    w.zeros(80);
    w.u32le(static_cast<std::uint32_t>(h.triangleCount()));
    for (std::size_t t = 0; t < h.triangleCount(); ++t) {
        for (int k = 0; k < 3; ++k) w.f32le(0.0f); // normal: Assimp recomputes nothing, it only reads
        for (int k = 0; k < 3; ++k) {
            const float *p = &h.positions[std::size_t(h.indices[t * 3 + k]) * 3];
            w.f32le(p[0]);
            w.f32le(p[1]);
            w.f32le(p[2]);
        }
        w.u16le(0);
    }
    return w.take();
}

std::vector<std::uint8_t> ToBinaryPly(const HeightField &h) {
    ByteWriter w;
    const std::string header =
        "ply\nformat binary_little_endian 1.0\nelement vertex " + std::to_string(h.vertexCount()) +
        "\nproperty float x\nproperty float y\nproperty float z\nelement face " + std::to_string(h.triangleCount()) +
        "\nproperty list uchar int vertex_indices\nend_header\n";
    w.reserve(header.size() + h.positions.size() * 4 + h.triangleCount() * 13);
    w.string(header);
    for (float f : h.positions) w.f32le(f);
    for (std::size_t t = 0; t < h.triangleCount(); ++t) {
        w.u8(3);
        for (int k = 0; k < 3; ++k) w.u32le(h.indices[t * 3 + k]);
    }
    return w.take();
}

std::vector<std::uint8_t> ToObj(const HeightField &h) {
    std::string s;
    s.reserve(h.positions.size() * 10 + h.indices.size() * 8);
    for (std::size_t v = 0; v < h.vertexCount(); ++v)
        s += "v " + std::to_string(h.positions[v * 3]) + ' ' + std::to_string(h.positions[v * 3 + 1]) + ' ' +
             std::to_string(h.positions[v * 3 + 2]) + '\n';
    for (std::size_t t = 0; t < h.triangleCount(); ++t)
        s += "f " + std::to_string(h.indices[t * 3] + 1) + ' ' + std::to_string(h.indices[t * 3 + 1] + 1) + ' ' +
             std::to_string(h.indices[t * 3 + 2] + 1) + '\n';
    return std::vector<std::uint8_t>(s.begin(), s.end());
}

std::vector<std::uint8_t> ToRobloxMesh200(const HeightField &h) {
    // Positions only, like the STL/PLY/OBJ files beside it: normals, UVs and tangents stay zero.
    rbxmesh::BuildInput input;
    input.vertices.resize(h.vertexCount());
    for (std::size_t v = 0; v < h.vertexCount(); ++v) {
        input.vertices[v].px = h.positions[v * 3];
        input.vertices[v].py = h.positions[v * 3 + 1];
        input.vertices[v].pz = h.positions[v * 3 + 2];
    }
    input.lods.resize(1);
    input.lods[0].resize(h.triangleCount());
    for (std::size_t t = 0; t < h.triangleCount(); ++t)
        input.lods[0][t] = {h.indices[t * 3], h.indices[t * 3 + 1], h.indices[t * 3 + 2]};
    rbxmesh::BuildOptions options;
    options.version = "2.00";
    options.generateLods = false;
    return rbxmesh::WriteRobloxMesh(rbxmesh::BuildRobloxMesh(input, options));
}

} // namespace gamefmt::bench
