// The Second Life mesh asset model (docs/formats/sl-mesh.md §3-§7): plain structs that mirror the file, the reader
// (bytes -> SLMeshAsset) and the writer (SLMeshAsset -> bytes), plus the exact quantization and weight
// codecs. Geometry stays quantized (u16) in the model so that read -> write reproduces the LLSD; the
// Dequantize*/Quantize* functions are the viewer's float32 arithmetic (§4.1). No Assimp here.
#pragma once

#include "importers/sl_mesh/llsd.hpp"

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gamefmt::slmesh {

// ---------------------------------------------------------------- quantization (§4.1, float32, no FMA)

// p = ((float)q / 65535.0f) * ((float)max - (float)min) + (float)min
float DequantizeComponent(std::uint16_t q, double min, double max);
// q = (u16)(((p - min) / range) * 65535.0f), truncating; range == 0 -> 0; clamped to [0, 65535] (NaN -> 0).
std::uint16_t QuantizeComponent(float value, float min, float max);
// ((float)q / 65535.0f) * 2.0f - 1.0f, not renormalised.
float DequantizeNormal(std::uint16_t q);
// (u16)((n + 1.0f) * 0.5f * 65535.0f), clamped.
std::uint16_t QuantizeNormal(float n);
// (double)(float)x: the viewer writes float32 values widened to double (§1).
double FloatWidened(double x);

// ---------------------------------------------------------------- weights (§4.3)

struct WeightInfluence {
    std::uint8_t joint = 0;   // index into skin joint_names (0-254)
    std::uint16_t weight = 0; // (u16)(w * 65535)
};

struct WeightRecord {
    std::uint8_t count = 0; // 0-4 influences
    std::array<WeightInfluence, 4> influences{};
    bool operator==(const WeightRecord &o) const;
};

struct WeightDecodeResult {
    std::vector<WeightRecord> records; // at most vertexCount
    std::size_t consumed = 0;          // bytes read
};

// Decodes up to vertexCount records from data[0..size): <4 influences end with 0xFF, exactly 4 have no
// terminator. Stops early at the end of the data (a cut record is dropped); never throws.
WeightDecodeResult DecodeWeights(const std::uint8_t *data, std::size_t size, std::size_t vertexCount);
// Appends records in the same encoding (count 4 -> no terminator). Records with count > 4 are an error
// (std::invalid_argument); joints must be < 255.
void EncodeWeights(const std::vector<WeightRecord> &records, std::vector<std::uint8_t> &out);

// ---------------------------------------------------------------- the model

using Real3 = std::array<double, 3>;
using Real2 = std::array<double, 2>;
// 16 reals as stored: column-major of the column-vector matrix, translation at [12..14] (§5).
using Matrix16 = std::array<double, 16>;

struct Domain3 {
    Real3 min{-0.5, -0.5, -0.5};
    Real3 max{0.5, 0.5, 0.5};
    bool operator==(const Domain3 &o) const { return min == o.min && max == o.max; }
};

struct Domain2 {
    Real2 min{0.0, 0.0};
    Real2 max{1.0, 1.0};
    bool operator==(const Domain2 &o) const { return min == o.min && max == o.max; }
};

// One face (SL texture-entry slot) of a LOD block (§4).
struct Face {
    bool noGeometry = false; // `NoGeometry` key present (the viewer tests presence only)
    LLSD noGeometryValue;    // its value as stored (normally true), for lossless writing

    std::vector<std::uint16_t> positions;  // 3 per vertex
    std::optional<Domain3> positionDomain; // absent in the file -> nullopt (readers use ±0.5)
    std::vector<std::uint16_t> normals;    // 3 per vertex, or empty
    bool hasNormals = false;
    std::vector<std::uint16_t> texCoords; // 2 per vertex, or empty
    bool hasTexCoords = false;
    std::optional<Domain2> texCoordDomain; // absent -> nullopt (readers use [0, 1])
    std::vector<std::uint16_t> indices;    // whole triangles, all < vertexCount() after reading
    bool hasWeights = false;
    std::vector<WeightRecord> weights; // one per vertex when hasWeights (fewer only in damaged files)
    std::optional<Real3> normalizedScale;

    LLSD::Map extra; // keys this model does not interpret, kept verbatim

    std::size_t vertexCount() const { return positions.size() / 3; }
    std::size_t triangleCount() const { return indices.size() / 3; }
    bool operator==(const Face &o) const;
};

// A LOD block or physics_mesh: an array of at most 8 faces.
struct Lod {
    std::vector<Face> faces;
    bool operator==(const Lod &o) const { return faces == o.faces; }
};

// The skin block (§5).
struct Skin {
    std::vector<std::string> jointNames;
    std::vector<Matrix16> inverseBind;    // one per joint
    std::optional<Matrix16> bindShape;    // absent -> identity
    std::vector<Matrix16> altInverseBind; // empty = absent
    bool hasAltInverseBind = false;
    std::optional<double> pelvisOffset;
    std::optional<bool> lockScaleIfJointPosition; // as stored (written only when present)
    LLSD::Map extra;
    bool operator==(const Skin &o) const;
};

// The physics_convex block (§6).
struct PhysicsConvex {
    std::optional<Domain3> domain; // Min/Max; absent -> ±0.5
    bool hasHullList = false;
    std::vector<std::uint8_t> hullList;   // point count per hull, 0 = 256
    std::vector<std::uint16_t> positions; // 3 per point, hulls concatenated
    bool hasBoundingVerts = false;
    std::vector<std::uint16_t> boundingVerts; // 3 per point
    LLSD::Map extra;
    static std::size_t HullPointCount(std::uint8_t stored) { return stored == 0 ? 256 : stored; }
    bool operator==(const PhysicsConvex &o) const;
};

// A header entry naming a block: {offset, size} plus whatever else it carries (hash, version,
// mesh_triangles ...), kept verbatim in `extra`.
struct BlockEntry {
    std::int64_t offset = -1;
    std::int64_t size = 0;
    LLSD::Map extra;
};

// A block we do not decode (physics_havok, unknown keys with offset/size): its bytes as stored (compressed).
struct OpaqueBlock {
    std::string key;
    BlockEntry entry;
    std::vector<std::uint8_t> bytes;
};

enum LodLevel : int { kLowestLod = 0, kLowLod = 1, kMediumLod = 2, kHighLod = 3 };
// "lowest_lod", "low_lod", "medium_lod", "high_lod".
const char *LodKey(int level);

// The .slm container (§7) the asset came from, when it came from one.
struct SlmContainer {
    std::size_t meshCount = 0; // elements of `mesh`
    std::size_t meshIndex = 0; // the one this asset is
    std::string name;          // `name`
    std::optional<std::int32_t> version;
    LLSD instances; // `instance` verbatim
};

struct SLMeshAsset {
    std::array<std::optional<Lod>, 4> lods; // indexed by LodLevel; nullopt = absent, undecodable or not requested
    std::optional<Lod> physicsMesh;
    bool physicsMeshLegacyKey = false; // read from `physics_shape`
    std::optional<Skin> skin;
    std::optional<PhysicsConvex> physicsConvex;

    std::optional<std::vector<std::string>> materialList;
    std::optional<std::int32_t> submodelId;
    std::optional<std::int32_t> version;
    std::optional<UUIDBytes> creator;
    std::optional<double> date; // seconds since 1970 UTC

    // Header entries of the decoded blocks, by key ("high_lod", "skin", ...): their extra keys (hash ...)
    // survive a round trip; offset/size are recomputed by the writer.
    std::vector<std::pair<std::string, BlockEntry>> blockEntries;
    std::vector<OpaqueBlock> opaqueBlocks;
    LLSD::Map headerExtra; // header keys that are neither blocks nor known fields (physics_cost_data, 404 ...)

    std::optional<SlmContainer> container;
    std::vector<std::string> warnings; // what the reader repaired or skipped (§10), in file order

    bool operator==(const SLMeshAsset &o) const; // compares content, not warnings/container
};

// ---------------------------------------------------------------- reading

enum BlockMask : std::uint32_t {
    kBlockLowest = 1u << 0,
    kBlockLow = 1u << 1,
    kBlockMedium = 1u << 2,
    kBlockHigh = 1u << 3,
    kBlockPhysicsMesh = 1u << 4,
    kBlockPhysicsConvex = 1u << 5,
    kBlockSkin = 1u << 6,
    kBlockAllLods = kBlockLowest | kBlockLow | kBlockMedium | kBlockHigh,
    kBlockAll = 0x7Fu,
};

struct ReadOptions {
    std::uint32_t blocks = kBlockAll;                     // which blocks to inflate and decode
    std::size_t maxInflatedBlock = std::size_t(64) << 20; // per block (§2)
    std::size_t slmMeshIndex = 0;                         // which `mesh` element of a .slm container
    // Real blocks hold at most a few thousand values (a 110-joint skin about 4,000): 65,536 keeps a hostile
    // block of 64 MiB of one-byte values from costing gigabytes of LLSD values.
    LLSDLimits limits{128, std::size_t(1) << 16};
};

// Reads an asset (or a .slm container's element slmMeshIndex). Throws FormatError for what makes the file
// unusable (not an LLSD map, version > 999, no decodable LOD at all among the requested ones ...); repairs
// and skips what §10 says to, recording a warning. Requested LOD blocks that fail to decode are nullopt.
SLMeshAsset ReadAsset(const std::uint8_t *data, std::size_t size, const ReadOptions &options = {});

// Whether a parsed top-level map is a .slm container (a top-level `mesh` array, §7).
bool IsSlmContainer(const LLSD &top);

// ---------------------------------------------------------------- writing

struct WriteOptions {
    int zlibLevel = 9;
};

// The LLSD of each block as the writer serialises it (sorted keys, reals as stored in the model).
LLSD LodToLLSD(const Lod &lod);
LLSD SkinToLLSD(const Skin &skin);
LLSD PhysicsConvexToLLSD(const PhysicsConvex &convex);

// Writes header + blocks (viewer order: skin, physics_convex, lowest_lod, low_lod, medium_lod, high_lod,
// physics_mesh, then opaque blocks; offsets cumulative from 0; no prefix; nothing after the last block).
// Header: sorted keys; material_list, submodel_id, version, creator, date and headerExtra only when present.
// Throws FormatError when the header reaches 4096 bytes or high_lod is missing.
std::vector<std::uint8_t> WriteAsset(const SLMeshAsset &asset, const WriteOptions &options = {});

} // namespace gamefmt::slmesh
