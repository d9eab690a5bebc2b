// Writes a Second Life mesh asset (docs/formats/sl-mesh.md §13 steps 10-11): each block as sorted-key binary LLSD,
// zlib-compressed like the viewer's compress2(), in the viewer's block order with cumulative offsets,
// after a header map that must stay under the viewer's 4096-byte first fetch.
#include "importers/sl_mesh/asset.hpp"

#include "common/compression.hpp"
#include "common/error.hpp"

#include <limits>
#include <stdexcept>
#include <string>
#include <utility>

namespace gamefmt::slmesh {

namespace {

constexpr std::size_t kMaxHeaderSize = 4096;

LLSD U16Binary(const std::vector<std::uint16_t> &values) {
    std::vector<std::uint8_t> bytes(values.size() * 2);
    for (std::size_t i = 0; i < values.size(); ++i) {
        bytes[2 * i] = static_cast<std::uint8_t>(values[i] & 0xFF);
        bytes[2 * i + 1] = static_cast<std::uint8_t>(values[i] >> 8);
    }
    return LLSD::Binary(std::move(bytes));
}

template <std::size_t N> LLSD Reals(const std::array<double, N> &values) {
    LLSD::Array array;
    array.reserve(N);
    for (const double v : values) array.push_back(LLSD::Real(v));
    return LLSD::MakeArray(std::move(array));
}

template <typename DomainT> LLSD DomainToLLSD(const DomainT &domain) {
    return LLSD::MakeMap({{"Max", Reals(domain.max)}, {"Min", Reals(domain.min)}});
}

LLSD MatricesToLLSD(const std::vector<Matrix16> &matrices) {
    LLSD::Array array;
    array.reserve(matrices.size());
    for (const Matrix16 &m : matrices) array.push_back(Reals(m));
    return LLSD::MakeArray(std::move(array));
}

// Model fields win over extra keys of the same name: extras go in first, then set() replaces.
LLSD MapWithExtra(const LLSD::Map &extra) {
    return LLSD::MakeMap(extra);
}

// A face the file format cannot express (or a reader would repair) is the caller's bug: say which and why.
void CheckFace(const Face &face, const std::string &where) {
    const auto fail = [&](const std::string &what) { throw FormatError(kFormatName, where + ": " + what); };
    if (face.positions.size() % 3 != 0) fail("positions are not whole vertices (3 values each)");
    const std::size_t n = face.vertexCount();
    if (n > 65536) fail(std::to_string(n) + " vertices; u16 indices address at most 65536");
    if (face.hasNormals && face.normals.size() != n * 3) fail("normals do not match the vertex count");
    if (face.hasTexCoords && face.texCoords.size() != n * 2) fail("texture coordinates do not match the vertex count");
    if (face.indices.size() % 3 != 0) fail("indices are not whole triangles");
    for (const std::uint16_t index : face.indices)
        if (index >= n) fail("index " + std::to_string(index) + " >= vertex count " + std::to_string(n));
    if (face.hasWeights && face.weights.size() > n) fail("more weight records than vertices");
}

LLSD FaceToLLSD(const Face &face, const std::string &where) {
    LLSD map = MapWithExtra(face.extra);
    if (face.noGeometry) {
        map.set("NoGeometry", face.noGeometryValue.isUndefined() ? LLSD::Boolean(true) : face.noGeometryValue);
        return map;
    }
    CheckFace(face, where);
    if (face.hasNormals) map.set("Normal", U16Binary(face.normals));
    map.set("Position", U16Binary(face.positions));
    if (face.positionDomain) map.set("PositionDomain", DomainToLLSD(*face.positionDomain));
    if (face.hasTexCoords) map.set("TexCoord0", U16Binary(face.texCoords));
    if (face.texCoordDomain) map.set("TexCoord0Domain", DomainToLLSD(*face.texCoordDomain));
    map.set("TriangleList", U16Binary(face.indices));
    if (face.hasWeights) {
        std::vector<std::uint8_t> bytes;
        try {
            EncodeWeights(face.weights, bytes);
        } catch (const std::invalid_argument &e) {
            throw FormatError(kFormatName, where + ": " + e.what());
        }
        map.set("Weights", LLSD::Binary(std::move(bytes)));
    }
    if (face.normalizedScale) map.set("NormalizedScale", Reals(*face.normalizedScale));
    return map;
}

std::vector<std::uint8_t> Compress(const LLSD &value, const WriteOptions &options) {
    const std::vector<std::uint8_t> llsd = WriteBinaryLLSD(value, true);
    return DeflateZlib(llsd.data(), llsd.size(), options.zlibLevel, kFormatName);
}

LLSD LodToLLSDNamed(const Lod &lod, const std::string &key) {
    LLSD::Array faces;
    faces.reserve(lod.faces.size());
    for (std::size_t i = 0; i < lod.faces.size(); ++i)
        faces.push_back(FaceToLLSD(lod.faces[i], key + " face " + std::to_string(i)));
    return LLSD::MakeArray(std::move(faces));
}

const BlockEntry *FindEntry(const SLMeshAsset &asset, const std::string &key) {
    for (const auto &entry : asset.blockEntries)
        if (entry.first == key) return &entry.second;
    return nullptr;
}

} // namespace

LLSD LodToLLSD(const Lod &lod) {
    return LodToLLSDNamed(lod, "LOD");
}

LLSD SkinToLLSD(const Skin &skin) {
    LLSD map = MapWithExtra(skin.extra);
    LLSD::Array names;
    names.reserve(skin.jointNames.size());
    for (const std::string &name : skin.jointNames) names.push_back(LLSD::String(name));
    map.set("joint_names", LLSD::MakeArray(std::move(names)));
    map.set("inverse_bind_matrix", MatricesToLLSD(skin.inverseBind));
    if (skin.bindShape) map.set("bind_shape_matrix", Reals(*skin.bindShape));
    if (skin.hasAltInverseBind || !skin.altInverseBind.empty())
        map.set("alt_inverse_bind_matrix", MatricesToLLSD(skin.altInverseBind));
    if (skin.pelvisOffset) map.set("pelvis_offset", LLSD::Real(*skin.pelvisOffset));
    if (skin.lockScaleIfJointPosition)
        map.set("lock_scale_if_joint_position", LLSD::Boolean(*skin.lockScaleIfJointPosition));
    return map;
}

LLSD PhysicsConvexToLLSD(const PhysicsConvex &convex) {
    LLSD map = MapWithExtra(convex.extra);
    if (convex.hasBoundingVerts) map.set("BoundingVerts", U16Binary(convex.boundingVerts));
    if (convex.hasHullList) map.set("HullList", LLSD::Binary(convex.hullList));
    if (convex.hasHullList || !convex.positions.empty()) map.set("Positions", U16Binary(convex.positions));
    if (convex.domain) {
        map.set("Max", Reals(convex.domain->max));
        map.set("Min", Reals(convex.domain->min));
    }
    return map;
}

std::vector<std::uint8_t> WriteAsset(const SLMeshAsset &asset, const WriteOptions &options) {
    if (!asset.lods[kHighLod])
        throw FormatError(kFormatName, "cannot write an asset without a high_lod block (the viewer requires it)");

    struct Block {
        std::string key;
        std::vector<std::uint8_t> bytes;
        const LLSD::Map *extra = nullptr;
    };
    std::vector<Block> blocks;
    const auto add = [&](const std::string &key, std::vector<std::uint8_t> bytes, const LLSD::Map *extra) {
        if (extra == nullptr) {
            if (const BlockEntry *entry = FindEntry(asset, key)) extra = &entry->extra;
        }
        blocks.push_back(Block{key, std::move(bytes), extra});
    };

    // The viewer's order (§3.1).
    if (asset.skin) add("skin", Compress(SkinToLLSD(*asset.skin), options), nullptr);
    if (asset.physicsConvex)
        add("physics_convex", Compress(PhysicsConvexToLLSD(*asset.physicsConvex), options), nullptr);
    for (int level = kLowestLod; level <= kHighLod; ++level)
        if (asset.lods[level])
            add(LodKey(level), Compress(LodToLLSDNamed(*asset.lods[level], LodKey(level)), options), nullptr);
    if (asset.physicsMesh) {
        const std::string key = asset.physicsMeshLegacyKey ? "physics_shape" : "physics_mesh";
        const BlockEntry *entry = FindEntry(asset, key);
        if (entry == nullptr) entry = FindEntry(asset, asset.physicsMeshLegacyKey ? "physics_mesh" : "physics_shape");
        add(key, Compress(LodToLLSDNamed(*asset.physicsMesh, key), options),
            entry != nullptr ? &entry->extra : nullptr);
    }
    for (const OpaqueBlock &opaque : asset.opaqueBlocks) add(opaque.key, opaque.bytes, &opaque.entry.extra);

    LLSD header = LLSD::MakeMap(asset.headerExtra);
    if (asset.materialList) {
        LLSD::Array names;
        names.reserve(asset.materialList->size());
        for (const std::string &name : *asset.materialList) names.push_back(LLSD::String(name));
        header.set("material_list", LLSD::MakeArray(std::move(names)));
    }
    if (asset.submodelId) header.set("submodel_id", LLSD::Integer(*asset.submodelId));
    if (asset.version) header.set("version", LLSD::Integer(*asset.version));
    if (asset.creator) header.set("creator", LLSD::Uuid(*asset.creator));
    if (asset.date) header.set("date", LLSD::Date(*asset.date));

    std::size_t offset = 0;
    for (const Block &block : blocks) {
        if (block.bytes.empty()) continue; // size 0 would read back as "no block"
        if (block.bytes.size() > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()) ||
            offset > static_cast<std::size_t>(std::numeric_limits<std::int32_t>::max()) - block.bytes.size())
            throw FormatError(kFormatName, "blocks exceed the 2 GiB an LLSD integer offset can address");
        LLSD entry = LLSD::MakeMap(block.extra != nullptr ? *block.extra : LLSD::Map{});
        entry.set("offset", LLSD::Integer(static_cast<std::int32_t>(offset)));
        entry.set("size", LLSD::Integer(static_cast<std::int32_t>(block.bytes.size())));
        header.set(block.key, std::move(entry));
        offset += block.bytes.size();
    }

    std::vector<std::uint8_t> out = WriteBinaryLLSD(header, true);
    if (out.size() >= kMaxHeaderSize)
        throw FormatError(kFormatName, "header of " + std::to_string(out.size()) +
                                           " bytes does not fit the viewer's 4096-byte header fetch");
    out.reserve(out.size() + offset);
    for (const Block &block : blocks) out.insert(out.end(), block.bytes.begin(), block.bytes.end());
    return out;
}

} // namespace gamefmt::slmesh
