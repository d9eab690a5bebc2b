// Reads a Second Life mesh asset (docs/formats/sl-mesh.md §3-§7, §10): the header map, the zlib blocks it points at
// (relative to the end of the header), and the LOD, skin and physics blocks inside them, into SLMeshAsset.
// Damage that §10 says to repair or skip becomes a warning; only what leaves nothing usable throws.
// A .slm model save (§7) is unwrapped to one of its `mesh` elements first.
#include "importers/sl_mesh/asset.hpp"

#include "common/compression.hpp"
#include "common/error.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>
#include <utility>

namespace gamefmt::slmesh {

namespace {

using std::to_string;

// Hostile files can repeat a problem millions of times; past this many warnings one note says so.
constexpr std::size_t kMaxWarnings = 100;

constexpr std::size_t kMaxFaces = 8;

void Warn(SLMeshAsset &asset, std::string message) {
    if (asset.warnings.size() < kMaxWarnings)
        asset.warnings.push_back(std::move(message));
    else if (asset.warnings.size() == kMaxWarnings)
        asset.warnings.push_back("further warnings suppressed");
}

inline std::uint16_t LoadU16(const std::uint8_t *p) {
    return static_cast<std::uint16_t>(p[0] | (p[1] << 8));
}

// The first `count` u16 LE values of a binary (the caller checked the length).
std::vector<std::uint16_t> U16s(const std::vector<std::uint8_t> &bytes, std::size_t count) {
    std::vector<std::uint16_t> out(count);
    for (std::size_t i = 0; i < count; ++i) out[i] = LoadU16(bytes.data() + 2 * i);
    return out;
}

// Exactly n numbers (integer or real, §1), else false.
template <std::size_t N> bool NumberArray(const LLSD *value, std::array<double, N> &out) {
    if (value == nullptr || !value->isArray() || value->array().size() != N) return false;
    for (std::size_t i = 0; i < N; ++i) {
        const LLSD &e = value->array()[i];
        if (!e.isNumber()) return false;
        out[i] = e.asReal();
    }
    return true;
}

template <typename DomainT> bool ParseDomain(const LLSD &value, DomainT &out) {
    if (!value.isMap()) return false;
    return NumberArray(value.find("Min"), out.min) && NumberArray(value.find("Max"), out.max);
}

bool ToInt64(const LLSD &value, std::int64_t &out) {
    if (value.type() == LLSDType::Integer) {
        out = value.integer();
        return true;
    }
    if (value.type() == LLSDType::Real) {
        const double r = value.real();
        if (!(r >= -9.0e18 && r <= 9.0e18)) return false;
        out = static_cast<std::int64_t>(r);
        return true;
    }
    return false;
}

const char *TypeName(const LLSD &value) {
    return LLSDTypeName(value.type());
}

std::string Plural(std::size_t n, const char *one, const char *many) {
    return to_string(n) + " " + (n == 1 ? one : many);
}

class AssetReader {
public:
    AssetReader(const std::uint8_t *data, std::size_t size, const ReadOptions &options, SLMeshAsset &asset)
        : mData(data), mSize(size), mOptions(options), mAsset(asset) {}

    void read(const LLSD &header, std::size_t headerEnd);

private:
    struct PendingBlock {
        std::string key;
        BlockEntry entry;
        std::uint32_t bit = 0; // 0 for opaque blocks
    };

    void readHeaderEntry(const std::string &key, const LLSD &value);
    bool parseEntry(const std::string &key, const LLSD &value, BlockEntry &entry);
    // Bounds-checks, inflates and parses a block; nullopt (with `reason` set and a warning) on failure.
    std::optional<LLSD> loadBlock(const PendingBlock &block, std::string &reason);
    std::optional<Lod> decodeLod(const LLSD &value, std::string &reason);
    void keepOpaqueBlock(const PendingBlock &block);
    void requireSomeLod(const std::array<std::string, 4> &lodReasons) const;
    Face decodeFace(const std::string &where, const LLSD &value);
    void decodeVertexAttribute(const std::string &where, const std::string &key, const LLSD &v, std::size_t n,
                               Face &face);
    void decodeTriangles(const std::string &where, const LLSD &v, std::size_t n, Face &face);
    void decodeWeights(const std::string &where, const LLSD &v, std::size_t n, Face &face);
    std::optional<Skin> decodeSkin(const LLSD &value, std::string &reason);
    std::optional<PhysicsConvex> decodeConvex(const LLSD &value, std::string &reason);
    void checkJoints();
    std::string blockPlace(const PendingBlock &block) const;

    const std::uint8_t *mData;
    std::size_t mSize;
    const ReadOptions &mOptions;
    SLMeshAsset &mAsset;
    std::size_t mHeaderEnd = 0;
    std::vector<PendingBlock> mBlocks;
    std::string mTag;                    // "high_lod (block at 55)": names the block being decoded in warnings
    std::array<std::string, 5> mLodTags; // the tags of the decoded LODs and physics_mesh, for checkJoints
    bool mHasPhysicsMeshKey = false;
};

std::uint32_t KnownBlockBit(const std::string &key) {
    if (key == "lowest_lod") return kBlockLowest;
    if (key == "low_lod") return kBlockLow;
    if (key == "medium_lod") return kBlockMedium;
    if (key == "high_lod") return kBlockHigh;
    if (key == "physics_mesh" || key == "physics_shape") return kBlockPhysicsMesh;
    if (key == "physics_convex") return kBlockPhysicsConvex;
    if (key == "skin") return kBlockSkin;
    return 0;
}

std::string AssetReader::blockPlace(const PendingBlock &block) const {
    return block.key + ": block at " +
           to_string(static_cast<std::uint64_t>(mHeaderEnd) + static_cast<std::uint64_t>(block.entry.offset)) + "+" +
           to_string(block.entry.size);
}

bool AssetReader::parseEntry(const std::string &key, const LLSD &value, BlockEntry &entry) {
    if (!value.isMap()) {
        Warn(mAsset, key + ": header entry is " + TypeName(value) + ", not a map; ignored");
        return false;
    }
    bool haveOffset = false;
    bool haveSize = false;
    for (const auto &kv : value.map()) {
        if (kv.first == "offset") {
            haveOffset = ToInt64(kv.second, entry.offset);
        } else if (kv.first == "size") {
            haveSize = ToInt64(kv.second, entry.size);
        } else {
            entry.extra.push_back(kv);
        }
    }
    if (!haveOffset || !haveSize) {
        Warn(mAsset, key + ": header entry lacks a numeric offset or size; no block");
        return false;
    }
    // Absent, size <= 0 or offset < 0 means "no block" (§3): not worth a warning.
    return entry.size > 0 && entry.offset >= 0;
}

void AssetReader::readHeaderEntry(const std::string &key, const LLSD &value) {
    const std::uint32_t bit = KnownBlockBit(key);
    if (bit != 0 && !(key == "physics_shape" && mHasPhysicsMeshKey)) {
        BlockEntry entry;
        if (!parseEntry(key, value, entry)) return;
        if ((mOptions.blocks & bit) == 0) return;
        mBlocks.push_back(PendingBlock{key, std::move(entry), bit});
        return;
    }
    if (key == "material_list") {
        if (!value.isArray()) {
            Warn(mAsset, std::string("material_list is ") + TypeName(value) + ", not an array; kept as is");
            mAsset.headerExtra.emplace_back(key, value);
            return;
        }
        std::vector<std::string> names;
        names.reserve(value.array().size());
        for (const LLSD &name : value.array()) {
            if (!name.isString()) {
                Warn(mAsset, std::string("material_list holds a ") + TypeName(name) + "; read as \"\"");
                names.emplace_back();
            } else {
                names.push_back(name.string());
            }
        }
        mAsset.materialList = std::move(names);
        return;
    }
    if (key == "submodel_id" || key == "version") {
        if (!value.isNumber()) {
            Warn(mAsset, key + " is " + TypeName(value) + ", not a number; kept as is");
            mAsset.headerExtra.emplace_back(key, value);
            return;
        }
        const std::int32_t number = value.asInteger();
        if (key == "version") {
            // The viewer refuses assets whose major version it does not know (§3.1).
            if (number > 999)
                throw FormatError(kFormatName, "asset version " + to_string(number) +
                                                   " is newer than any this reader knows (the viewer rejects > 999)");
            mAsset.version = number;
        } else {
            mAsset.submodelId = number;
        }
        return;
    }
    if (key == "creator" && value.type() == LLSDType::UUID) {
        mAsset.creator = value.uuid();
        return;
    }
    if (key == "date" && value.type() == LLSDType::Date) {
        mAsset.date = value.real();
        return;
    }
    if (key == "creator" || key == "date")
        Warn(mAsset, key + " is " + TypeName(value) + ", not a " + (key == "date" ? "date" : "uuid") + "; kept as is");
    if (key == "404") Warn(mAsset, "header has the viewer-internal \"404\" (unavailable) key; ignored");
    // Anything else naming a block (physics_havok, a second physics_shape ...) is kept as its bytes.
    if (value.isMap() && value.find("offset") != nullptr && value.find("size") != nullptr && key != "404") {
        BlockEntry entry;
        if (parseEntry(key, value, entry)) {
            mBlocks.push_back(PendingBlock{key, std::move(entry), 0});
            return;
        }
    }
    mAsset.headerExtra.emplace_back(key, value);
}

std::optional<LLSD> AssetReader::loadBlock(const PendingBlock &block, std::string &reason) {
    const std::uint64_t available = mSize - mHeaderEnd;
    const std::uint64_t offset = static_cast<std::uint64_t>(block.entry.offset);
    const std::uint64_t size = static_cast<std::uint64_t>(block.entry.size);
    if (offset > available || size > available - offset) {
        reason = blockPlace(block) + " is beyond the end of the " + to_string(mSize) + "-byte file";
        Warn(mAsset, reason + "; skipped");
        return std::nullopt;
    }
    const std::size_t start = mHeaderEnd + static_cast<std::size_t>(offset);
    std::vector<std::uint8_t> inflated;
    DecompressionLimits limits;
    limits.maxOutput = mOptions.maxInflatedBlock;
    limits.maxRatio = std::numeric_limits<std::uint64_t>::max(); // the absolute cap is the one that matters
    try {
        // The viewer stops at Z_STREAM_END and ignores the rest of the block: so do we, with a warning.
        std::size_t streamEnd = static_cast<std::size_t>(size);
        inflated = InflateZlibUnknownSize(mData + start, static_cast<std::size_t>(size), kFormatName, start, limits,
                                          &streamEnd);
        if (streamEnd < size)
            Warn(mAsset, blockPlace(block) + ": " +
                             Plural(static_cast<std::size_t>(size) - streamEnd, "byte", "bytes") +
                             " after the zlib stream ignored");
    } catch (const FormatError &e) {
        reason = blockPlace(block) + ": " + e.message();
        if (e.hasOffset()) reason += " at byte " + to_string(e.offset());
        Warn(mAsset, reason + "; skipped");
        return std::nullopt;
    }
    try {
        LLSDParseResult parsed = ParseBinaryLLSD(inflated.data(), inflated.size(), 0, mOptions.limits);
        if (parsed.end < inflated.size())
            Warn(mAsset, blockPlace(block) + ": " + Plural(inflated.size() - parsed.end, "byte", "bytes") +
                             " after the inflated LLSD value ignored");
        return std::move(parsed.value);
    } catch (const FormatError &e) {
        reason = blockPlace(block) + ": inflated LLSD: " + e.message();
        if (e.hasOffset()) reason += " at inflated byte " + to_string(e.offset());
        Warn(mAsset, reason + "; skipped");
        return std::nullopt;
    }
}

// Normal (3 u16 per vertex) or TexCoord0 (2 u16): dropped with a warning when not binary or too short.
void AssetReader::decodeVertexAttribute(const std::string &where, const std::string &key, const LLSD &v, std::size_t n,
                                        Face &face) {
    const std::size_t per = key == "Normal" ? 6 : 4;
    if (!v.isBinary()) {
        Warn(mAsset, where + ": " + key + " is " + TypeName(v) + ", not binary; dropped");
        return;
    }
    if (v.binary().size() < n * per) {
        Warn(mAsset, where + ": " + key + " holds " + to_string(v.binary().size() / per) + " of " + to_string(n) +
                         " vertices; dropped");
        return;
    }
    if (v.binary().size() > n * per)
        Warn(mAsset,
             where + ": " + key + " is longer than the " + Plural(n, "vertex", "vertices") + "; the rest ignored");
    if (per == 6) {
        face.normals = U16s(v.binary(), n * 3);
        face.hasNormals = true;
    } else {
        face.texCoords = U16s(v.binary(), n * 2);
        face.hasTexCoords = true;
    }
}

// TriangleList: u16 index triples; a partial triple is trimmed and triangles that index past the vertices
// are dropped, with warnings.
void AssetReader::decodeTriangles(const std::string &where, const LLSD &v, std::size_t n, Face &face) {
    if (!v.isBinary()) {
        Warn(mAsset, where + ": TriangleList is " + TypeName(v) + ", not binary; no triangles");
        return;
    }
    const std::vector<std::uint8_t> &bytes = v.binary();
    std::size_t count = bytes.size() / 2;
    if (bytes.size() % 2 != 0) Warn(mAsset, where + ": TriangleList has an odd byte length; trimmed");
    if (count % 3 != 0) {
        Warn(mAsset,
             where + ": TriangleList holds " + Plural(count, "index", "indices") + ", not whole triangles; trimmed");
        count -= count % 3;
    }
    face.indices.reserve(count);
    std::size_t dropped = 0;
    for (std::size_t t = 0; t < count; t += 3) {
        const std::uint16_t a = LoadU16(bytes.data() + 2 * t);
        const std::uint16_t b = LoadU16(bytes.data() + 2 * t + 2);
        const std::uint16_t c = LoadU16(bytes.data() + 2 * t + 4);
        if (a >= n || b >= n || c >= n) {
            ++dropped;
            continue;
        }
        face.indices.push_back(a);
        face.indices.push_back(b);
        face.indices.push_back(c);
    }
    if (dropped != 0)
        Warn(mAsset, where + ": " + Plural(dropped, "triangle", "triangles") + " with an index >= " + to_string(n) +
                         " dropped");
}

// Weights: the per-vertex influence records (§6), with warnings for missing records and trailing bytes.
void AssetReader::decodeWeights(const std::string &where, const LLSD &v, std::size_t n, Face &face) {
    if (!v.isBinary()) {
        Warn(mAsset, where + ": Weights is " + TypeName(v) + ", not binary; dropped");
        return;
    }
    WeightDecodeResult decoded = DecodeWeights(v.binary().data(), v.binary().size(), n);
    if (decoded.records.size() < n)
        Warn(mAsset, where + ": " + to_string(decoded.records.size()) + " weight records for " +
                         Plural(n, "vertex", "vertices") + "; the rest unweighted");
    if (decoded.consumed < v.binary().size())
        Warn(mAsset, where + ": " + Plural(v.binary().size() - decoded.consumed, "byte", "bytes") +
                         " after the weight records ignored");
    face.weights = std::move(decoded.records);
    face.hasWeights = true;
}

Face AssetReader::decodeFace(const std::string &where, const LLSD &value) {
    Face face;
    if (!value.isMap()) {
        Warn(mAsset, where + " is " + TypeName(value) + ", not a map; skipped");
        return face;
    }
    if (const LLSD *noGeometry = value.find("NoGeometry")) {
        // The viewer tests presence only: a placeholder whatever its value; other keys kept verbatim.
        face.noGeometry = true;
        face.noGeometryValue = *noGeometry;
        for (const auto &kv : value.map())
            if (kv.first != "NoGeometry") face.extra.push_back(kv);
        return face;
    }
    const LLSD *position = value.find("Position");
    if (position == nullptr || !position->isBinary()) {
        Warn(mAsset, where + (position == nullptr ? " has no Position" : " has a non-binary Position") + "; skipped");
        return face;
    }
    const std::vector<std::uint8_t> &posBytes = position->binary();
    const std::size_t n = posBytes.size() / 6;
    if (posBytes.size() % 6 != 0)
        Warn(mAsset, where + ": Position length " + to_string(posBytes.size()) + " is not a multiple of 6; " +
                         Plural(n, "vertex", "vertices") + " read");
    face.positions = U16s(posBytes, n * 3);

    bool sawTriangles = false;
    bool sawDomain = false;
    bool sawUvDomain = false;
    for (const auto &kv : value.map()) {
        const std::string &key = kv.first;
        const LLSD &v = kv.second;
        if (key == "Position") continue;
        if (key == "Normal" || key == "TexCoord0") {
            decodeVertexAttribute(where, key, v, n, face);
        } else if (key == "PositionDomain") {
            sawDomain = true;
            Domain3 domain;
            if (ParseDomain(v, domain))
                face.positionDomain = domain;
            else
                Warn(mAsset, where + ": malformed PositionDomain; using ±0.5");
        } else if (key == "TexCoord0Domain") {
            sawUvDomain = true;
            Domain2 domain;
            if (ParseDomain(v, domain))
                face.texCoordDomain = domain;
            else
                Warn(mAsset, where + ": malformed TexCoord0Domain; using [0, 1]");
        } else if (key == "TriangleList") {
            sawTriangles = true;
            decodeTriangles(where, v, n, face);
        } else if (key == "Weights") {
            decodeWeights(where, v, n, face);
        } else if (key == "NormalizedScale") {
            Real3 scale;
            if (NumberArray(&v, scale))
                face.normalizedScale = scale;
            else
                Warn(mAsset, where + ": malformed NormalizedScale; ignored");
        } else {
            face.extra.push_back(kv);
        }
    }
    if (!sawTriangles) Warn(mAsset, where + " has no TriangleList");
    if (!sawDomain && n != 0) Warn(mAsset, where + " has no PositionDomain; using ±0.5");
    if (!sawUvDomain && face.hasTexCoords) Warn(mAsset, where + " has TexCoord0 but no TexCoord0Domain; using [0, 1]");
    return face;
}

std::optional<Lod> AssetReader::decodeLod(const LLSD &value, std::string &reason) {
    if (!value.isArray()) {
        reason = mTag + ": block is " + TypeName(value) + ", not an array of faces";
        Warn(mAsset, reason + "; skipped");
        return std::nullopt;
    }
    if (value.array().empty()) {
        reason = mTag + ": block has no faces";
        Warn(mAsset, reason + "; skipped");
        return std::nullopt;
    }
    // Faces are texture-entry slots, of which a mesh has at most 8 (§4, the viewer's
    // LL_SCULPT_MESH_MAX_FACES). Reading more would let a tiny block of empty maps claim gigabytes.
    const std::size_t count = std::min<std::size_t>(value.array().size(), kMaxFaces);
    if (value.array().size() > kMaxFaces)
        Warn(mAsset, mTag + ": " + to_string(value.array().size()) + " faces; only the first " + to_string(kMaxFaces) +
                         " read (Second Life allows " + to_string(kMaxFaces) + ")");
    Lod lod;
    lod.faces.reserve(count);
    for (std::size_t i = 0; i < count; ++i)
        lod.faces.push_back(decodeFace(mTag + " face " + to_string(i), value.array()[i]));
    return lod;
}

std::optional<Skin> AssetReader::decodeSkin(const LLSD &value, std::string &reason) {
    const auto fail = [&](const std::string &what) {
        reason = mTag + ": " + what;
        Warn(mAsset, reason + "; mesh read unrigged");
        return std::optional<Skin>();
    };
    if (!value.isMap()) return fail(std::string("block is ") + TypeName(value) + ", not a map");
    Skin skin;
    const LLSD *names = value.find("joint_names");
    if (names == nullptr || !names->isArray()) return fail("no joint_names array");
    for (const LLSD &name : names->array()) {
        if (!name.isString()) return fail(std::string("a joint name is ") + TypeName(name));
        skin.jointNames.push_back(name.string());
    }
    const std::size_t joints = skin.jointNames.size();
    const auto readMatrices = [&](const LLSD &list, std::vector<Matrix16> &out) {
        if (!list.isArray() || list.array().size() != joints) return false;
        out.resize(joints);
        for (std::size_t j = 0; j < joints; ++j)
            if (!NumberArray(&list.array()[j], out[j])) return false;
        return true;
    };
    for (const auto &kv : value.map()) {
        const std::string &key = kv.first;
        const LLSD &v = kv.second;
        if (key == "joint_names") continue;
        if (key == "inverse_bind_matrix") {
            if (!readMatrices(v, skin.inverseBind))
                return fail("inverse_bind_matrix is not " + to_string(joints) +
                            " matrices of 16 numbers, one per joint");
        } else if (key == "bind_shape_matrix") {
            Matrix16 m;
            if (!NumberArray(&v, m)) return fail("bind_shape_matrix is not 16 numbers");
            skin.bindShape = m;
        } else if (key == "alt_inverse_bind_matrix") {
            std::vector<Matrix16> alt;
            if (readMatrices(v, alt)) {
                skin.altInverseBind = std::move(alt);
                skin.hasAltInverseBind = true;
            } else {
                Warn(mAsset, mTag + ": alt_inverse_bind_matrix is not " + to_string(joints) +
                                 " matrices of 16 numbers; joint position overrides ignored");
            }
        } else if (key == "pelvis_offset") {
            if (v.isNumber())
                skin.pelvisOffset = v.asReal();
            else
                Warn(mAsset, mTag + ": pelvis_offset is " + TypeName(v) + ", not a number; ignored");
        } else if (key == "lock_scale_if_joint_position") {
            if (v.type() == LLSDType::Boolean || v.isNumber())
                skin.lockScaleIfJointPosition = v.asBoolean();
            else
                Warn(mAsset, mTag + ": lock_scale_if_joint_position is " + TypeName(v) + "; ignored");
        } else {
            skin.extra.push_back(kv);
        }
    }
    if (value.find("inverse_bind_matrix") == nullptr && joints != 0) return fail("no inverse_bind_matrix");
    return skin;
}

std::optional<PhysicsConvex> AssetReader::decodeConvex(const LLSD &value, std::string &reason) {
    if (!value.isMap()) {
        reason = mTag + ": block is " + TypeName(value) + ", not a map";
        Warn(mAsset, reason + "; skipped");
        return std::nullopt;
    }
    PhysicsConvex convex;
    const auto points = [&](const char *key, const LLSD &v, std::vector<std::uint16_t> &out) {
        if (!v.isBinary()) {
            Warn(mAsset, mTag + ": " + key + " is " + TypeName(v) + ", not binary; dropped");
            return false;
        }
        const std::size_t count = v.binary().size() / 6;
        if (v.binary().size() % 6 != 0)
            Warn(mAsset, mTag + ": " + key + " length " + to_string(v.binary().size()) + " is not a multiple of 6; " +
                             Plural(count, "point", "points") + " read");
        out = U16s(v.binary(), count * 3);
        return true;
    };
    bool sawMin = false;
    bool sawMax = false;
    bool havePositions = false;
    for (const auto &kv : value.map()) {
        const std::string &key = kv.first;
        const LLSD &v = kv.second;
        if (key == "Min" || key == "Max") {
            (key == "Min" ? sawMin : sawMax) = true;
        } else if (key == "BoundingVerts") {
            convex.hasBoundingVerts = points("BoundingVerts", v, convex.boundingVerts);
        } else if (key == "Positions") {
            havePositions = points("Positions", v, convex.positions);
        } else if (key == "HullList") {
            if (v.isBinary()) {
                convex.hullList = v.binary();
                convex.hasHullList = true;
            } else {
                Warn(mAsset, mTag + ": HullList is " + TypeName(v) + ", not binary; dropped");
            }
        } else {
            convex.extra.push_back(kv);
        }
    }
    if (sawMin || sawMax) {
        Domain3 domain;
        if (NumberArray(value.find("Min"), domain.min) && NumberArray(value.find("Max"), domain.max))
            convex.domain = domain;
        else
            Warn(mAsset, mTag + ": malformed Min/Max; using ±0.5");
    }
    if (convex.hasHullList) {
        std::size_t total = 0;
        for (const std::uint8_t stored : convex.hullList) total += PhysicsConvex::HullPointCount(stored);
        const std::size_t available = convex.positions.size() / 3;
        if (!havePositions || total > available) {
            Warn(mAsset, mTag + ": HullList needs " + Plural(total, "point", "points") + ", Positions holds " +
                             to_string(available) + "; hulls dropped");
            convex.hasHullList = false;
            convex.hullList.clear();
            convex.positions.clear();
        } else if (total < available) {
            Warn(mAsset,
                 mTag + ": Positions holds " + to_string(available - total) + " points beyond the hulls; ignored");
        }
    }
    return convex;
}

void AssetReader::checkJoints() {
    if (!mAsset.skin) return;
    const std::size_t joints = mAsset.skin->jointNames.size();
    const auto check = [&](const std::string &key, Lod &lod) {
        std::size_t dropped = 0;
        for (Face &face : lod.faces) {
            for (WeightRecord &record : face.weights) {
                std::uint8_t kept = 0;
                for (std::uint8_t i = 0; i < record.count && i < 4; ++i) {
                    if (record.influences[i].joint >= joints) {
                        ++dropped;
                        continue;
                    }
                    record.influences[kept++] = record.influences[i];
                }
                for (std::uint8_t i = kept; i < 4; ++i) record.influences[i] = WeightInfluence{};
                record.count = kept;
            }
        }
        if (dropped != 0)
            Warn(mAsset, key + ": " + Plural(dropped, "influence", "influences") +
                             " on a joint >= " + to_string(joints) + " (the joint count) dropped");
    };
    for (int level = 0; level < 4; ++level)
        if (mAsset.lods[level]) check(mLodTags[static_cast<std::size_t>(level)], *mAsset.lods[level]);
    if (mAsset.physicsMesh) check(mLodTags[4], *mAsset.physicsMesh);
}

// A block the reader does not decode, kept verbatim (dropped with a warning when it lies beyond the file).
void AssetReader::keepOpaqueBlock(const PendingBlock &block) {
    const std::uint64_t available = mSize - mHeaderEnd;
    const std::uint64_t offset = static_cast<std::uint64_t>(block.entry.offset);
    const std::uint64_t size = static_cast<std::uint64_t>(block.entry.size);
    if (offset > available || size > available - offset) {
        Warn(mAsset, blockPlace(block) + " is beyond the end of the " + to_string(mSize) + "-byte file; dropped");
        return;
    }
    const std::uint8_t *begin = mData + mHeaderEnd + static_cast<std::size_t>(offset);
    OpaqueBlock opaque;
    opaque.key = block.key;
    opaque.entry = block.entry;
    opaque.bytes.assign(begin, begin + static_cast<std::size_t>(size));
    mAsset.opaqueBlocks.push_back(std::move(opaque));
}

// Fails with every reason when none of the requested levels of detail decoded.
void AssetReader::requireSomeLod(const std::array<std::string, 4> &lodReasons) const {
    const std::uint32_t requestedLods = mOptions.blocks & kBlockAllLods;
    if (requestedLods != 0) {
        bool any = false;
        for (int level = 0; level < 4; ++level) any = any || mAsset.lods[level].has_value();
        if (!any) {
            std::string reasons;
            for (int level = 3; level >= 0; --level) {
                if ((requestedLods & (1u << level)) == 0 || lodReasons[level].empty()) continue;
                if (!reasons.empty()) reasons += "; ";
                reasons += lodReasons[level];
            }
            if (reasons.empty()) {
                reasons = "the header names no ";
                bool first = true;
                for (int level = 3; level >= 0; --level) {
                    if ((requestedLods & (1u << level)) == 0) continue;
                    if (!first) reasons += ", ";
                    reasons += LodKey(level);
                    first = false;
                }
                reasons += " block";
            }
            // The blocks start where the header ends: that is where the missing data should have been.
            throw FormatError(kFormatName, "no decodable level of detail (" + reasons + ")", mHeaderEnd);
        }
    }
}

void AssetReader::read(const LLSD &header, std::size_t headerEnd) {
    mHeaderEnd = headerEnd;
    if (headerEnd > 4096)
        Warn(mAsset, "header ends at byte " + to_string(headerEnd) +
                         ": the viewer reads only the first 4096 bytes and would reject this asset");
    mHasPhysicsMeshKey = header.find("physics_mesh") != nullptr;
    for (const auto &kv : header.map()) readHeaderEntry(kv.first, kv.second);

    // Decode in file order so warnings read top to bottom.
    std::stable_sort(mBlocks.begin(), mBlocks.end(),
                     [](const PendingBlock &a, const PendingBlock &b) { return a.entry.offset < b.entry.offset; });

    std::array<std::string, 4> lodReasons;
    for (const PendingBlock &block : mBlocks) {
        if (block.bit == 0) {
            keepOpaqueBlock(block);
            continue;
        }
        int lodLevel = -1;
        for (int level = 0; level < 4; ++level)
            if (block.bit == (1u << level)) lodLevel = level;
        std::string reason;
        mTag = block.key + " (block at " +
               to_string(static_cast<std::uint64_t>(mHeaderEnd) + static_cast<std::uint64_t>(block.entry.offset)) + ")";
        if (lodLevel >= 0) mLodTags[static_cast<std::size_t>(lodLevel)] = mTag;
        if (block.bit == kBlockPhysicsMesh) mLodTags[4] = mTag;
        std::optional<LLSD> value = loadBlock(block, reason);
        bool decoded = false;
        if (value) {
            if (lodLevel >= 0) {
                mAsset.lods[lodLevel] = decodeLod(*value, reason);
                decoded = mAsset.lods[lodLevel].has_value();
            } else if (block.bit == kBlockPhysicsMesh) {
                mAsset.physicsMesh = decodeLod(*value, reason);
                mAsset.physicsMeshLegacyKey = block.key == "physics_shape";
                decoded = mAsset.physicsMesh.has_value();
            } else if (block.bit == kBlockSkin) {
                mAsset.skin = decodeSkin(*value, reason);
                decoded = mAsset.skin.has_value();
            } else {
                mAsset.physicsConvex = decodeConvex(*value, reason);
                decoded = mAsset.physicsConvex.has_value();
            }
        }
        if (decoded) {
            BlockEntry entry = block.entry;
            mAsset.blockEntries.emplace_back(block.key, std::move(entry));
        } else if (lodLevel >= 0) {
            lodReasons[static_cast<std::size_t>(lodLevel)] = reason;
        }
    }
    checkJoints();

    requireSomeLod(lodReasons);
}

SLMeshAsset ReadAssetImpl(const std::uint8_t *data, std::size_t size, const ReadOptions &options, bool allowContainer) {
    if (data == nullptr) size = 0;
    if (size == 0) throw FormatError(kFormatName, "empty file", 0);
    const std::size_t prefix = SkipLLSDPrefix(data, size, 0);
    if (prefix >= size || data[prefix] != '{')
        throw FormatError(kFormatName, "not a Second Life mesh asset: the header is not an LLSD map", prefix);
    LLSDParseResult top = ParseBinaryLLSD(data, size, 0, options.limits);
    if (!top.value.isMap())
        throw FormatError(kFormatName, "not a Second Life mesh asset: the header is not an LLSD map", prefix);

    if (IsSlmContainer(top.value)) {
        if (!allowContainer) throw FormatError(kFormatName, ".slm mesh element is itself a .slm container", prefix);
        const LLSD::Array &meshes = top.value.find("mesh")->array();
        if (options.slmMeshIndex >= meshes.size())
            throw FormatError(kFormatName, ".slm container has " + Plural(meshes.size(), "mesh", "meshes") + "; mesh " +
                                               to_string(options.slmMeshIndex) + " requested");
        const LLSD &element = meshes[options.slmMeshIndex];
        const std::uint8_t *bytes = nullptr;
        std::size_t length = 0;
        if (element.isString() || element.type() == LLSDType::URI) {
            bytes = reinterpret_cast<const std::uint8_t *>(element.string().data());
            length = element.string().size();
        } else if (element.isBinary()) {
            bytes = element.binary().data();
            length = element.binary().size();
        } else {
            throw FormatError(kFormatName, ".slm mesh " + to_string(options.slmMeshIndex) + " is " + TypeName(element) +
                                               ", not an asset string");
        }
        SLMeshAsset asset;
        try {
            asset = ReadAssetImpl(bytes, length, options, false);
        } catch (const FormatError &e) {
            std::string message = ".slm mesh " + to_string(options.slmMeshIndex) + ": " + e.message();
            if (e.hasOffset()) message += " (at byte " + to_string(e.offset()) + " of the element)";
            throw FormatError(kFormatName, message);
        }
        SlmContainer container;
        container.meshCount = meshes.size();
        container.meshIndex = options.slmMeshIndex;
        if (const LLSD *name = top.value.find("name"); name != nullptr && name->isString())
            container.name = name->string();
        if (const LLSD *version = top.value.find("version"); version != nullptr && version->isNumber())
            container.version = version->asInteger();
        if (const LLSD *instances = top.value.find("instance")) container.instances = *instances;
        asset.container = std::move(container);
        return asset;
    }

    SLMeshAsset asset;
    AssetReader reader(data, size, options, asset);
    reader.read(top.value, top.end);
    return asset;
}

} // namespace

bool IsSlmContainer(const LLSD &top) {
    if (!top.isMap()) return false;
    const LLSD *mesh = top.find("mesh");
    return mesh != nullptr && mesh->isArray();
}

SLMeshAsset ReadAsset(const std::uint8_t *data, std::size_t size, const ReadOptions &options) {
    return ReadAssetImpl(data, size, options, true);
}

} // namespace gamefmt::slmesh
