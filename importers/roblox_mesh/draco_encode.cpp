// COREMESH v2 encoding with libdraco, in the structure Roblox's own files have (docs/formats/roblox-mesh.md §14.6).
#include "importers/roblox_mesh/draco_encode.hpp"

#include "common/error.hpp"

#include <draco/compression/config/compression_shared.h>
#include <draco/compression/encode.h>
#include <draco/compression/expert_encode.h>
#include <draco/mesh/mesh.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <memory>
#include <string>

namespace gamefmt::rbxmesh {
namespace {

// Adds one attribute with an identity point mapping (value i = point i, so Draco never reorders or
// merges points) and the unique id Roblox's decoder looks it up by.
template <typename T, std::size_t N, typename Get>
void AddAttribute(draco::Mesh &mesh, draco::GeometryAttribute::Type type, draco::DataType dataType,
                  std::uint32_t uniqueId, const std::vector<Vertex> &vertices, Get get) {
    draco::GeometryAttribute ga;
    ga.Init(type, nullptr, static_cast<std::uint8_t>(N), dataType, false, static_cast<std::int64_t>(sizeof(T) * N), 0);
    const int id = mesh.AddAttribute(ga, true, static_cast<std::uint32_t>(vertices.size()));
    if (id < 0) throw FormatError(kFormatName, "Draco refused attribute " + std::to_string(uniqueId));
    draco::PointAttribute *att = mesh.attribute(id);
    att->set_unique_id(uniqueId);
    std::array<T, N> value{};
    for (std::size_t i = 0; i < vertices.size(); ++i) {
        get(vertices[i], value);
        att->SetAttributeValue(draco::AttributeValueIndex(static_cast<std::uint32_t>(i)), value.data());
    }
}

} // namespace

std::vector<std::uint8_t> EncodeCoremeshDraco(const std::vector<Vertex> &vertices, const std::vector<Face> &faces) {
    if (vertices.size() > 0x7FFFFFFFu || faces.size() > 0x7FFFFFFFu)
        throw FormatError(kFormatName, "mesh too large for a COREMESH v2 (Draco) chunk");

    // The normal is the one quantised attribute: Draco takes its range from the values and crashes on a NaN, an
    // infinity or a range that overflows (max - min = inf). Positions and UVs are stored bit for bit.
    float low[3] = {0, 0, 0}, high[3] = {0, 0, 0};
    for (std::size_t i = 0; i < vertices.size(); ++i) {
        const float n[3] = {vertices[i].nx, vertices[i].ny, vertices[i].nz};
        for (int k = 0; k < 3; ++k) {
            if (!std::isfinite(n[k]))
                throw FormatError(kFormatName,
                                  "vertex " + std::to_string(i) +
                                      " has a normal that is not a finite number; a 7.00 (Draco) "
                                      "mesh cannot hold it (write it without Draco: --no-draco; or fix the normals)");
            low[k] = i == 0 ? n[k] : std::min(low[k], n[k]);
            high[k] = i == 0 ? n[k] : std::max(high[k], n[k]);
        }
    }
    for (int k = 0; k < 3; ++k)
        if (!std::isfinite(high[k] - low[k]))
            throw FormatError(kFormatName, "the normals span a range too large to quantise for a 7.00 (Draco) mesh "
                                           "(write it without Draco: --no-draco; or fix the normals)");

    draco::Mesh mesh;
    mesh.set_num_points(static_cast<std::uint32_t>(vertices.size()));
    // Attribute order = attribute id = unique id 0-4 (§9.3); the two GENERIC ones differ only by id.
    AddAttribute<float, 3>(mesh, draco::GeometryAttribute::POSITION, draco::DT_FLOAT32, 0, vertices,
                           [](const Vertex &v, std::array<float, 3> &o) {
                               o = {v.px, v.py, v.pz};
                           });
    AddAttribute<float, 3>(mesh, draco::GeometryAttribute::GENERIC, draco::DT_FLOAT32, 1, vertices,
                           [](const Vertex &v, std::array<float, 3> &o) {
                               o = {v.nx, v.ny, v.nz};
                           });
    AddAttribute<float, 2>(mesh, draco::GeometryAttribute::TEX_COORD, draco::DT_FLOAT32, 2, vertices,
                           [](const Vertex &v, std::array<float, 2> &o) {
                               o = {v.u, v.v};
                           });
    AddAttribute<std::uint8_t, 4>(mesh, draco::GeometryAttribute::GENERIC, draco::DT_UINT8, 3, vertices,
                                  [](const Vertex &v, std::array<std::uint8_t, 4> &o) { o = v.tangent; });
    AddAttribute<std::uint8_t, 4>(mesh, draco::GeometryAttribute::COLOR, draco::DT_UINT8, 4, vertices,
                                  [](const Vertex &v, std::array<std::uint8_t, 4> &o) { o = v.color; });

    mesh.SetNumFaces(faces.size());
    for (std::size_t j = 0; j < faces.size(); ++j) {
        const Face &f = faces[j];
        if (f.a >= vertices.size() || f.b >= vertices.size() || f.c >= vertices.size())
            throw FormatError(kFormatName, "face " + std::to_string(j) + " references a vertex past the " +
                                               std::to_string(vertices.size()) + " vertices");
        mesh.SetFace(draco::FaceIndex(static_cast<std::uint32_t>(j)),
                     {draco::PointIndex(f.a), draco::PointIndex(f.b), draco::PointIndex(f.c)});
    }

    // Sequential coding keeps the point and face order (edgebreaker would reorder both); only the
    // normal is quantised, everything else stays lossless like Roblox's files. Speed 3 is compression
    // level 7 (draco_encoder's default), which sizes the entropy coder's symbols as Roblox's streams do:
    // with it, re-encoding the decoded corpus files reproduces them byte for byte (the default speed 5
    // differs in one byte per integer attribute).
    draco::ExpertEncoder encoder(mesh);
    encoder.SetEncodingMethod(draco::MESH_SEQUENTIAL_ENCODING);
    encoder.SetAttributeQuantization(1, 11);
    encoder.SetSpeedOptions(3, 3);
    draco::EncoderBuffer buffer;
    const draco::Status status = encoder.EncodeToBuffer(&buffer);
    if (!status.ok())
        throw FormatError(kFormatName,
                          std::string("COREMESH chunk v2 (Draco) encoding failed: ") + status.error_msg_string());
    const auto *data = reinterpret_cast<const std::uint8_t *>(buffer.data());
    return std::vector<std::uint8_t>(data, data + buffer.size());
}

} // namespace gamefmt::rbxmesh
