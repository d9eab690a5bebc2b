// COREMESH v2: Draco 2.2 sequential mesh streams decoded with libdraco (docs/formats/roblox-mesh.md §9.3).
#include "importers/roblox_mesh/draco_decode.hpp"

#include "common/error.hpp"

#include <draco/compression/decode.h>
#include <draco/mesh/mesh.h>

#include <cstring>
#include <new>

namespace gamefmt::rbxmesh {

namespace {

constexpr const char *kWhat = "COREMESH chunk v2 (Draco): ";

[[noreturn]] void Fail(std::size_t offset, const std::string &message) {
    throw FormatError(kFormatName, kWhat + message, offset);
}

// LEB128 as Draco writes it; false when the value runs past the end or beyond 32 bits.
bool Varint(const std::uint8_t *data, std::size_t size, std::size_t &pos, std::uint64_t &out) {
    out = 0;
    for (int shift = 0; shift < 35; shift += 7) {
        if (pos >= size) return false;
        const std::uint8_t b = data[pos++];
        out |= static_cast<std::uint64_t>(b & 0x7F) << shift;
        if ((b & 0x80) == 0) return out <= 0xFFFFFFFFu;
    }
    return false;
}

// libdraco allocates for the declared point count before it reads attribute data, so check the count
// against the stream first. Only the sequential layout (the one Roblox writes) carries the counts at a
// fixed place; other methods go to libdraco unchecked, which bounds their counts itself.
void PrecheckCounts(const std::uint8_t *data, std::size_t size, std::size_t fileOffset) {
    constexpr std::size_t kHeader = 11; // "DRACO", major, minor, encoder type, method, u16 flags
    if (size < kHeader || std::memcmp(data, "DRACO", 5) != 0) Fail(fileOffset, "the stream does not start with DRACO");
    const std::uint8_t major = data[5], minor = data[6], encoderType = data[7], method = data[8];
    const unsigned flags = data[9] | (data[10] << 8);
    if (encoderType != 1) Fail(fileOffset + 7, "encoder type " + std::to_string(encoderType) + " is not a mesh");
    const bool varints = major > 2 || (major == 2 && minor >= 2);
    if (method != 0 || !varints || (flags & 0x8000) != 0) return;
    std::size_t pos = kHeader;
    std::uint64_t numFaces = 0, numPoints = 0;
    if (!Varint(data, size, pos, numFaces) || !Varint(data, size, pos, numPoints))
        Fail(fileOffset + kHeader, "truncated face and point counts");
    const std::uint64_t ceiling = std::min<std::uint64_t>(kMaxDracoPoints, kMaxDracoPointsPerByte * size);
    if (numPoints > ceiling)
        Fail(fileOffset + kHeader, std::to_string(numPoints) + " points declared in a " + std::to_string(size) +
                                       "-byte stream (at most " + std::to_string(ceiling) + " accepted)");
    // Uncompressed sequential indices take at least one byte each.
    if (numFaces > size / 3)
        Fail(fileOffset + kHeader,
             std::to_string(numFaces) + " faces declared in a " + std::to_string(size) + "-byte stream");
}

// Reads `n` components of point `p` from `attribute` as T; false when libdraco cannot convert them.
template <typename T> bool Fetch(const draco::PointAttribute *attribute, draco::PointIndex p, std::int8_t n, T *out) {
    const draco::AttributeValueIndex avi = attribute->mapped_index(p);
    if (avi.value() >= attribute->size()) return false;
    return attribute->ConvertValue<T>(avi, n, out);
}

void Decode(const std::uint8_t *data, std::size_t size, std::size_t fileOffset, std::vector<Vertex> &vertices,
            std::vector<Face> &faces, std::vector<std::string> &warnings) {
    PrecheckCounts(data, size, fileOffset);

    draco::DecoderBuffer buffer;
    buffer.Init(reinterpret_cast<const char *>(data), size);
    draco::Decoder decoder;
    auto decoded = decoder.DecodeMeshFromBuffer(&buffer);
    if (!decoded.ok()) Fail(fileOffset, "libdraco cannot decode the stream: " + decoded.status().error_msg_string());
    const std::unique_ptr<draco::Mesh> mesh = std::move(decoded).value();
    if (!mesh) Fail(fileOffset, "libdraco returned no mesh");

    const std::uint32_t numPoints = mesh->num_points();
    const draco::PointAttribute *attributes[5] = {};
    for (std::uint32_t uid = 0; uid < 5; ++uid) {
        const draco::PointAttribute *a = mesh->GetAttributeByUniqueId(uid);
        // A non-identity map shorter than the point count would be read out of bounds.
        if (a != nullptr && !a->is_mapping_identity() && a->indices_map_size() < numPoints)
            Fail(fileOffset, "attribute " + std::to_string(uid) + " maps fewer values than there are points");
        // libdraco converts a DT_BOOL attribute by loading each stored byte as a C++ bool, which is undefined
        // for bytes other than 0 and 1 (a fuzzer found it); no Roblox attribute is boolean, so refuse it.
        if (a != nullptr && (a->data_type() == draco::DT_BOOL || a->data_type() == draco::DT_INVALID ||
                             a->data_type() >= draco::DT_TYPES_COUNT))
            Fail(fileOffset, "attribute " + std::to_string(uid) + " has data type " +
                                 std::to_string(static_cast<int>(a->data_type())) +
                                 ", not a number type (Roblox meshes store floats and small integers)");
        attributes[uid] = a;
    }
    if (attributes[0] == nullptr) Fail(fileOffset, "no position attribute (unique id 0)");
    for (std::int32_t i = 0; i < mesh->num_attributes(); ++i) {
        const draco::PointAttribute *a = mesh->attribute(i);
        if (a != nullptr && a->unique_id() > 4)
            warnings.push_back(std::string(kWhat) + "attribute with unique id " + std::to_string(a->unique_id()) +
                               " ignored");
    }
    static const char *const kMissing[5] = {"position", "normal", "UV", "tangent", "colour"};
    for (int uid = 1; uid < 5; ++uid)
        if (attributes[uid] == nullptr)
            warnings.push_back(std::string(kWhat) + "no " + kMissing[uid] + " attribute (unique id " +
                               std::to_string(uid) + ")");

    vertices.assign(numPoints, Vertex{});
    for (std::uint32_t i = 0; i < numPoints; ++i) {
        const draco::PointIndex p(i);
        Vertex &v = vertices[i];
        float pos[3], normal[3] = {0, 0, 0}, uv[2] = {0, 0};
        std::uint8_t tangent[4] = {127, 127, 127, 0}, color[4] = {255, 255, 255, 255};
        bool ok = Fetch(attributes[0], p, 3, pos);
        if (attributes[1] != nullptr) ok = ok && Fetch(attributes[1], p, 3, normal);
        if (attributes[2] != nullptr) ok = ok && Fetch(attributes[2], p, 2, uv);
        if (attributes[3] != nullptr) ok = ok && Fetch(attributes[3], p, 4, tangent);
        if (attributes[4] != nullptr) {
            // A 3-component colour has no alpha: keep it opaque rather than libdraco's 0 fill.
            ok = ok && Fetch(attributes[4], p, 4, color);
            if (attributes[4]->num_components() < 4) color[3] = 255;
        }
        if (!ok) Fail(fileOffset, "attribute values of point " + std::to_string(i) + " cannot be converted");
        v.px = pos[0], v.py = pos[1], v.pz = pos[2];
        v.nx = normal[0], v.ny = normal[1], v.nz = normal[2];
        v.u = uv[0], v.v = uv[1];
        std::memcpy(v.tangent.data(), tangent, 4);
        std::memcpy(v.color.data(), color, 4);
    }

    const std::uint32_t numFaces = mesh->num_faces();
    faces.assign(numFaces, Face{});
    for (std::uint32_t j = 0; j < numFaces; ++j) {
        const draco::Mesh::Face &f = mesh->face(draco::FaceIndex(j));
        faces[j] = Face{f[0].value(), f[1].value(), f[2].value()};
        if (faces[j].a >= numPoints || faces[j].b >= numPoints || faces[j].c >= numPoints)
            Fail(fileOffset,
                 "face " + std::to_string(j) + " indexes past the " + std::to_string(numPoints) + " decoded points");
    }
}

} // namespace

void DecodeDracoCoremesh(const std::uint8_t *data, std::size_t size, std::size_t fileOffset,
                         std::vector<Vertex> &vertices, std::vector<Face> &faces, std::vector<std::string> &warnings) {
    try {
        Decode(data, size, fileOffset, vertices, faces, warnings);
    } catch (const std::bad_alloc &) {
        Fail(fileOffset, "out of memory while decoding");
    }
}

} // namespace gamefmt::rbxmesh
