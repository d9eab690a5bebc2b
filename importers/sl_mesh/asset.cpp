// The Second Life mesh asset's exact number codecs (docs/formats/sl-mesh.md §4.1 quantization, §4.3 weights) and the
// model's comparisons. The float arithmetic reproduces the viewer's float32 steps bit for bit: every
// product that could be fused with a following addition goes through a volatile, so no compiler setting
// (-ffp-contract=fast, -march with FMA) turns it into one rounding instead of two.
#include "importers/sl_mesh/asset.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace gamefmt::slmesh {

// ---------------------------------------------------------------- quantization

float DequantizeComponent(std::uint16_t q, double min, double max) {
    const float fmin = static_cast<float>(min);
    const float fmax = static_cast<float>(max);
    const float range = fmax - fmin;
    const float t = static_cast<float>(q) / 65535.0f;
    volatile float scaled = t * range; // rounded to float before the addition (no FMA)
    const float p = scaled + fmin;
    return p;
}

std::uint16_t QuantizeComponent(float value, float min, float max) {
    const float range = max - min;
    if (!(range != 0.0f) || !std::isfinite(range)) return 0;
    const float offset = value - min;
    const float t = offset / range;
    const float scaled = t * 65535.0f;
    if (!(scaled > 0.0f)) return 0; // also NaN
    if (scaled >= 65535.0f) return 65535;
    return static_cast<std::uint16_t>(scaled); // truncating, as the viewer
}

float DequantizeNormal(std::uint16_t q) {
    const float t = static_cast<float>(q) / 65535.0f;
    volatile float doubled = t * 2.0f;
    const float n = doubled - 1.0f;
    return n;
}

std::uint16_t QuantizeNormal(float n) {
    const float shifted = n + 1.0f;
    const float half = shifted * 0.5f;
    const float scaled = half * 65535.0f;
    if (!(scaled > 0.0f)) return 0;
    if (scaled >= 65535.0f) return 65535;
    return static_cast<std::uint16_t>(scaled);
}

double FloatWidened(double x) {
    return static_cast<double>(static_cast<float>(x));
}

// ---------------------------------------------------------------- weights

bool WeightRecord::operator==(const WeightRecord &o) const {
    if (count != o.count) return false;
    for (std::size_t i = 0; i < count && i < influences.size(); ++i)
        if (influences[i].joint != o.influences[i].joint || influences[i].weight != o.influences[i].weight)
            return false;
    return true;
}

WeightDecodeResult DecodeWeights(const std::uint8_t *data, std::size_t size, std::size_t vertexCount) {
    WeightDecodeResult result;
    if (data == nullptr) size = 0;
    // Each record takes at least one byte, so this never reserves more than the data can hold.
    result.records.reserve(std::min(vertexCount, size));
    std::size_t pos = 0;
    while (result.records.size() < vertexCount && pos < size) {
        WeightRecord record;
        std::size_t p = pos;
        bool complete = false;
        while (p < size) {
            const std::uint8_t joint = data[p];
            if (joint == 0xFF) {
                ++p;
                complete = true;
                break;
            }
            if (size - p < 3) break; // influence cut by the end of the data
            record.influences[record.count].joint = joint;
            record.influences[record.count].weight = static_cast<std::uint16_t>(data[p + 1] | (data[p + 2] << 8));
            ++record.count;
            p += 3;
            if (record.count == 4) { // four influences: no terminator
                complete = true;
                break;
            }
        }
        if (!complete) break;
        result.records.push_back(record);
        pos = p;
    }
    result.consumed = pos;
    return result;
}

void EncodeWeights(const std::vector<WeightRecord> &records, std::vector<std::uint8_t> &out) {
    for (const WeightRecord &record : records) {
        if (record.count > 4)
            throw std::invalid_argument("Second Life mesh weights: a vertex has " + std::to_string(record.count) +
                                        " influences (at most 4)");
        for (std::size_t i = 0; i < record.count; ++i) {
            const WeightInfluence &inf = record.influences[i];
            if (inf.joint == 0xFF) throw std::invalid_argument("Second Life mesh weights: joint index 255 is reserved");
            out.push_back(inf.joint);
            out.push_back(static_cast<std::uint8_t>(inf.weight & 0xFF));
            out.push_back(static_cast<std::uint8_t>(inf.weight >> 8));
        }
        if (record.count < 4) out.push_back(0xFF);
    }
}

// ---------------------------------------------------------------- the model

namespace {

bool SameMap(const LLSD::Map &a, const LLSD::Map &b) {
    if (a.empty() && b.empty()) return true;
    return LLSD::MakeMap(a) == LLSD::MakeMap(b);
}

// Offsets and sizes are the writer's business, and an entry without extra keys carries nothing the writer
// would not recreate: entries compare by key and extra content, those without extras ignored.
bool SameEntries(const std::vector<std::pair<std::string, BlockEntry>> &a,
                 const std::vector<std::pair<std::string, BlockEntry>> &b) {
    const auto covered = [](const std::vector<std::pair<std::string, BlockEntry>> &x,
                            const std::vector<std::pair<std::string, BlockEntry>> &y) {
        for (const auto &entry : x) {
            if (entry.second.extra.empty()) continue;
            bool found = false;
            for (const auto &other : y) {
                if (other.first == entry.first && SameMap(other.second.extra, entry.second.extra)) {
                    found = true;
                    break;
                }
            }
            if (!found) return false;
        }
        return true;
    };
    return covered(a, b) && covered(b, a);
}

bool SameOpaque(const std::vector<OpaqueBlock> &a, const std::vector<OpaqueBlock> &b) {
    if (a.size() != b.size()) return false;
    for (const OpaqueBlock &block : a) {
        bool found = false;
        for (const OpaqueBlock &other : b) {
            if (other.key == block.key && other.bytes == block.bytes && SameMap(other.entry.extra, block.entry.extra)) {
                found = true;
                break;
            }
        }
        if (!found) return false;
    }
    return true;
}

// A model built in code leaves the NoGeometry value undefined; the writer stores it as true.
LLSD EffectiveNoGeometry(const Face &face) {
    if (!face.noGeometry) return LLSD();
    return face.noGeometryValue.isUndefined() ? LLSD::Boolean(true) : face.noGeometryValue;
}

} // namespace

bool Face::operator==(const Face &o) const {
    return noGeometry == o.noGeometry && EffectiveNoGeometry(*this) == EffectiveNoGeometry(o) &&
           positions == o.positions && positionDomain == o.positionDomain && normals == o.normals &&
           hasNormals == o.hasNormals && texCoords == o.texCoords && hasTexCoords == o.hasTexCoords &&
           texCoordDomain == o.texCoordDomain && indices == o.indices && hasWeights == o.hasWeights &&
           weights == o.weights && normalizedScale == o.normalizedScale && SameMap(extra, o.extra);
}

bool Skin::operator==(const Skin &o) const {
    return jointNames == o.jointNames && inverseBind == o.inverseBind && bindShape == o.bindShape &&
           altInverseBind == o.altInverseBind && hasAltInverseBind == o.hasAltInverseBind &&
           pelvisOffset == o.pelvisOffset && lockScaleIfJointPosition == o.lockScaleIfJointPosition &&
           SameMap(extra, o.extra);
}

bool PhysicsConvex::operator==(const PhysicsConvex &o) const {
    return domain == o.domain && hasHullList == o.hasHullList && hullList == o.hullList && positions == o.positions &&
           hasBoundingVerts == o.hasBoundingVerts && boundingVerts == o.boundingVerts && SameMap(extra, o.extra);
}

bool SLMeshAsset::operator==(const SLMeshAsset &o) const {
    return lods == o.lods && physicsMesh == o.physicsMesh && physicsMeshLegacyKey == o.physicsMeshLegacyKey &&
           skin == o.skin && physicsConvex == o.physicsConvex && materialList == o.materialList &&
           submodelId == o.submodelId && version == o.version && creator == o.creator && date == o.date &&
           SameEntries(blockEntries, o.blockEntries) && SameOpaque(opaqueBlocks, o.opaqueBlocks) &&
           SameMap(headerExtra, o.headerExtra);
}

const char *LodKey(int level) {
    switch (level) {
    case kLowestLod:
        return "lowest_lod";
    case kLowLod:
        return "low_lod";
    case kMediumLod:
        return "medium_lod";
    case kHighLod:
        return "high_lod";
    default:
        return "";
    }
}

} // namespace gamefmt::slmesh
