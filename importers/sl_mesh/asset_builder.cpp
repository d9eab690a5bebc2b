// The Second Life mesh writer's geometry pipeline (docs/formats/sl-mesh.md §13 steps 2-10): faces per material, vertex
// split, normalisation to the unit cube, LOD generation with meshoptimizer, quantization, weights, the skin
// block and the physics blocks. The result is an SLMeshAsset per (sub)model, ready for WriteAsset.
#include "importers/sl_mesh/asset_builder.hpp"

#include "common/error.hpp"
#include "importers/sl_mesh/hull.hpp"

#include <meshoptimizer.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>
#include <utility>

namespace gamefmt::slmesh {
namespace {

constexpr std::size_t kMaxFaces = 8;            // faces per LOD (§8)
constexpr std::size_t kMaxRenderedJoints = 110; // LL_MAX_JOINTS_PER_MESH_OBJECT (§4.3)
constexpr std::size_t kMaxHullPoints = 256;     // what we allow in BoundingVerts (§13.9)
constexpr std::size_t kHardVertexLimit = 65535; // u16 indices (§4)
constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

[[noreturn]] void Fail(const std::string &problem) {
    throw FormatError(kFormatName, problem);
}

// One face's geometry in float, between the input and quantization. Empty indices = NoGeometry.
struct WorkFace {
    unsigned material = 0;
    std::vector<float> positions; // 3 per vertex
    std::vector<float> normals;   // 3 per vertex when hasNormals
    std::vector<float> texCoords; // 2 per vertex when hasTexCoords
    std::vector<std::uint32_t> indices;
    std::vector<WeightRecord> weights; // one per vertex when hasWeights
    bool hasNormals = false;
    bool hasTexCoords = false;
    bool hasWeights = false;

    std::size_t vertexCount() const { return positions.size() / 3; }
    bool hasGeometry() const { return indices.size() >= 3 && vertexCount() >= 3; }
};

// §13.7: drop w <= 0, merge repeats of a joint, sort descending (ties: lower joint), keep the top 4,
// renormalise to 1, (u16)(w * 65535.0f).
WeightRecord MakeWeightRecord(const std::pair<std::uint32_t, float> *begin, const std::pair<std::uint32_t, float> *end,
                              std::size_t jointCount) {
    std::vector<std::pair<std::uint32_t, double>> list;
    for (const auto *it = begin; it != end; ++it) {
        if (it->first >= jointCount)
            Fail("a vertex weight names joint " + std::to_string(it->first) + " but the rig has " +
                 std::to_string(jointCount) + " joints");
        if (!(it->second > 0.0f) || !std::isfinite(it->second)) continue;
        bool merged = false;
        for (auto &entry : list)
            if (entry.first == it->first) {
                entry.second += it->second;
                merged = true;
            }
        if (!merged) list.emplace_back(it->first, it->second);
    }
    std::sort(list.begin(), list.end(), [](const auto &a, const auto &b) {
        return a.second != b.second ? a.second > b.second : a.first < b.first;
    });
    if (list.size() > 4) list.resize(4);
    double sum = 0;
    for (const auto &entry : list) sum += entry.second;
    WeightRecord record;
    if (!(sum > 0)) return record;
    for (const auto &entry : list) {
        const float w = static_cast<float>(entry.second / sum);
        const float scaled = w * 65535.0f;
        WeightInfluence influence;
        influence.joint = static_cast<std::uint8_t>(entry.first);
        influence.weight = scaled >= 65535.0f ? std::uint16_t(65535) : static_cast<std::uint16_t>(scaled);
        record.influences[record.count++] = influence;
    }
    return record;
}

// Input face -> WorkFace: checked, index-degenerate triangles dropped, unreferenced vertices removed
// (vertex order kept), weights turned into records.
WorkFace PrepareFace(const BuildFace &in, const std::string &what, std::size_t jointCount, bool rigged,
                     std::size_t &degenerateTriangles) {
    if (in.positions.size() % 3 != 0) Fail(what + ": the position array is not 3 floats per vertex");
    const std::size_t n = in.positions.size() / 3;
    const bool hasNormals = !in.normals.empty();
    const bool hasTexCoords = !in.texCoords.empty();
    if (hasNormals && in.normals.size() != 3 * n)
        Fail(what + ": " + std::to_string(in.normals.size() / 3) + " normals for " + std::to_string(n) + " vertices");
    if (hasTexCoords && in.texCoords.size() != 2 * n)
        Fail(what + ": " + std::to_string(in.texCoords.size() / 2) + " UVs for " + std::to_string(n) + " vertices");
    if (in.indices.size() % 3 != 0) Fail(what + ": the index count is not a multiple of 3");
    const bool weighted = !in.weightStart.empty();
    if (weighted) {
        if (in.weightStart.size() != n + 1) Fail(what + ": weightStart must have one entry per vertex plus one");
        for (std::size_t v = 0; v < n; ++v)
            if (in.weightStart[v] > in.weightStart[v + 1]) Fail(what + ": weightStart is not ascending");
        if (in.weightStart[n] > in.influences.size()) Fail(what + ": weightStart runs past the influences");
    }

    WorkFace out;
    out.material = in.materialIndex;
    out.hasNormals = hasNormals;
    out.hasTexCoords = hasTexCoords;
    out.hasWeights = rigged;

    std::vector<std::uint32_t> remap(n, kNone);
    std::vector<std::uint32_t> kept;
    kept.reserve(in.indices.size());
    for (std::size_t t = 0; t + 2 < in.indices.size(); t += 3) {
        const std::uint32_t a = in.indices[t], b = in.indices[t + 1], c = in.indices[t + 2];
        if (a >= n || b >= n || c >= n)
            Fail(what + ": triangle " + std::to_string(t / 3) + " uses a vertex index past the " + std::to_string(n) +
                 " vertices");
        if (a == b || b == c || a == c) {
            ++degenerateTriangles;
            continue;
        }
        kept.insert(kept.end(), {a, b, c});
        remap[a] = remap[b] = remap[c] = 0;
    }
    std::uint32_t next = 0;
    for (std::size_t v = 0; v < n; ++v) {
        if (remap[v] == kNone) continue;
        remap[v] = next++;
        const float *p = &in.positions[3 * v];
        if (!std::isfinite(p[0]) || !std::isfinite(p[1]) || !std::isfinite(p[2]))
            Fail(what + ": vertex " + std::to_string(v) + " has a position that is not a finite number");
        out.positions.insert(out.positions.end(), p, p + 3);
        if (hasNormals) {
            const float *q = &in.normals[3 * v];
            for (int k = 0; k < 3; ++k) out.normals.push_back(std::isfinite(q[k]) ? q[k] : 0.0f);
        }
        if (hasTexCoords) {
            const float *q = &in.texCoords[2 * v];
            for (int k = 0; k < 2; ++k) out.texCoords.push_back(std::isfinite(q[k]) ? q[k] : 0.0f);
        }
        if (rigged) {
            if (weighted)
                out.weights.push_back(MakeWeightRecord(in.influences.data() + in.weightStart[v],
                                                       in.influences.data() + in.weightStart[v + 1], jointCount));
            else
                out.weights.push_back(WeightRecord{});
        } else if (weighted && in.weightStart[v] != in.weightStart[v + 1]) {
            Fail(what + ": vertex weights without a rig (BuildInput::jointNames is empty)");
        }
    }
    out.indices.reserve(kept.size());
    for (std::uint32_t i : kept) out.indices.push_back(remap[i]);
    return out;
}

// Appends `src` to `dst` (same material); a stream only one side has is filled with zeros on the other.
void AppendFace(WorkFace &dst, const WorkFace &src) {
    const std::size_t base = dst.vertexCount();
    if (base == 0 && dst.indices.empty()) {
        const unsigned material = dst.material;
        dst = src;
        dst.material = material;
        return;
    }
    if (src.hasNormals && !dst.hasNormals) {
        dst.normals.assign(3 * base, 0.0f);
        dst.hasNormals = true;
    }
    if (src.hasTexCoords && !dst.hasTexCoords) {
        dst.texCoords.assign(2 * base, 0.0f);
        dst.hasTexCoords = true;
    }
    const std::size_t n = src.vertexCount();
    dst.positions.insert(dst.positions.end(), src.positions.begin(), src.positions.end());
    if (dst.hasNormals) {
        if (src.hasNormals)
            dst.normals.insert(dst.normals.end(), src.normals.begin(), src.normals.end());
        else
            dst.normals.resize(dst.normals.size() + 3 * n, 0.0f);
    }
    if (dst.hasTexCoords) {
        if (src.hasTexCoords)
            dst.texCoords.insert(dst.texCoords.end(), src.texCoords.begin(), src.texCoords.end());
        else
            dst.texCoords.resize(dst.texCoords.size() + 2 * n, 0.0f);
    }
    if (dst.hasWeights) dst.weights.insert(dst.weights.end(), src.weights.begin(), src.weights.end());
    for (std::uint32_t i : src.indices) dst.indices.push_back(static_cast<std::uint32_t>(base + i));
}

// Copies vertex v of `src` to the end of `dst`.
void CopyVertex(WorkFace &dst, const WorkFace &src, std::size_t v) {
    dst.positions.insert(dst.positions.end(), &src.positions[3 * v], &src.positions[3 * v] + 3);
    if (src.hasNormals) dst.normals.insert(dst.normals.end(), &src.normals[3 * v], &src.normals[3 * v] + 3);
    if (src.hasTexCoords) dst.texCoords.insert(dst.texCoords.end(), &src.texCoords[2 * v], &src.texCoords[2 * v] + 2);
    if (src.hasWeights) dst.weights.push_back(src.weights[v]);
}

WorkFace EmptyLike(const WorkFace &face) {
    WorkFace out;
    out.material = face.material;
    out.hasNormals = face.hasNormals;
    out.hasTexCoords = face.hasTexCoords;
    out.hasWeights = face.hasWeights;
    return out;
}

// §13.3: a face over maxVertices becomes several faces, each a run of consecutive triangles with its own
// compacted vertices.
std::vector<WorkFace> SplitFace(const WorkFace &face, std::size_t maxVertices) {
    if (face.vertexCount() <= maxVertices) return {face};
    std::vector<WorkFace> parts;
    std::vector<std::uint32_t> owner(face.vertexCount(), kNone); // part that holds a copy of the vertex
    std::vector<std::uint32_t> local(face.vertexCount(), 0);
    WorkFace current = EmptyLike(face);
    std::uint32_t part = 0;
    for (std::size_t t = 0; t + 2 < face.indices.size(); t += 3) {
        const std::uint32_t *tri = &face.indices[t];
        std::size_t fresh = 0;
        for (int k = 0; k < 3; ++k)
            if (owner[tri[k]] != part) ++fresh; // corners are distinct (PrepareFace dropped the others)
        if (current.vertexCount() + fresh > maxVertices) {
            parts.push_back(std::move(current));
            current = EmptyLike(face);
            ++part;
        }
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t v = tri[k];
            if (owner[v] != part) {
                owner[v] = part;
                local[v] = static_cast<std::uint32_t>(current.vertexCount());
                CopyVertex(current, face, v);
            }
            current.indices.push_back(local[v]);
        }
    }
    if (!current.indices.empty()) parts.push_back(std::move(current));
    return parts;
}

// A level's faces, one merged face per material, ascending, each split to the vertex limit.
std::map<unsigned, std::vector<WorkFace>> GroupLevel(const std::vector<BuildFace> &faces, const char *levelName,
                                                     std::size_t jointCount, bool rigged, std::size_t maxVertices,
                                                     std::size_t &degenerate) {
    std::map<unsigned, WorkFace> merged;
    for (std::size_t i = 0; i < faces.size(); ++i) {
        const std::string what = std::string(levelName) + " face " + std::to_string(i) + " (material " +
                                 std::to_string(faces[i].materialIndex) + ")";
        WorkFace face = PrepareFace(faces[i], what, jointCount, rigged, degenerate);
        if (face.indices.empty()) continue;
        auto found = merged.find(face.material);
        if (found == merged.end())
            merged.emplace(face.material, std::move(face));
        else
            AppendFace(found->second, face);
    }
    std::map<unsigned, std::vector<WorkFace>> grouped;
    for (auto &entry : merged) grouped[entry.first] = SplitFace(entry.second, maxVertices);
    return grouped;
}

// The normalisation of §13.4: v_n = (v - centre) / extent.
struct Normalization {
    std::array<float, 3> centre{0, 0, 0};
    std::array<float, 3> extent{1, 1, 1};
    bool unitScale() const { return extent[0] == 1.0f && extent[1] == 1.0f && extent[2] == 1.0f; }
};

Normalization ComputeNormalization(const std::vector<const WorkFace *> &faces) {
    Normalization norm;
    float lo[3] = {std::numeric_limits<float>::max(), std::numeric_limits<float>::max(),
                   std::numeric_limits<float>::max()};
    float hi[3] = {-lo[0], -lo[1], -lo[2]};
    bool any = false;
    for (const WorkFace *face : faces)
        for (std::size_t i = 0; i < face->positions.size(); i += 3) {
            any = true;
            for (int k = 0; k < 3; ++k) {
                lo[k] = std::min(lo[k], face->positions[i + k]);
                hi[k] = std::max(hi[k], face->positions[i + k]);
            }
        }
    if (!any) return norm;
    for (int k = 0; k < 3; ++k) {
        norm.centre[k] = (lo[k] + hi[k]) * 0.5f;
        const float extent = hi[k] - lo[k];
        norm.extent[k] = extent < 1e-6f ? 1.0f : extent;
    }
    return norm;
}

void Normalize(WorkFace &face, const Normalization &norm) {
    for (std::size_t i = 0; i < face.positions.size(); i += 3)
        for (int k = 0; k < 3; ++k) face.positions[i + k] = (face.positions[i + k] - norm.centre[k]) / norm.extent[k];
    if (!face.hasNormals) return;
    for (std::size_t i = 0; i < face.normals.size(); i += 3) {
        float n[3];
        for (int k = 0; k < 3; ++k) n[k] = face.normals[i + k] * norm.extent[k];
        const float length = std::sqrt(n[0] * n[0] + n[1] * n[1] + n[2] * n[2]);
        for (int k = 0; k < 3; ++k) face.normals[i + k] = length > 0 ? n[k] / length : 0.0f;
    }
}

// The vertices `indices` reference, in first-use order, with every stream remapped (§13.5).
WorkFace Compact(const WorkFace &src, const std::vector<std::uint32_t> &indices) {
    WorkFace out = EmptyLike(src);
    if (indices.empty()) return out;
    const std::size_t n = src.vertexCount();
    std::vector<unsigned int> remap(n);
    const std::size_t unique = meshopt_optimizeVertexFetchRemap(remap.data(), indices.data(), indices.size(), n);
    out.positions.resize(unique * 3);
    meshopt_remapVertexBuffer(out.positions.data(), src.positions.data(), n, sizeof(float) * 3, remap.data());
    if (src.hasNormals) {
        out.normals.resize(unique * 3);
        meshopt_remapVertexBuffer(out.normals.data(), src.normals.data(), n, sizeof(float) * 3, remap.data());
    }
    if (src.hasTexCoords) {
        out.texCoords.resize(unique * 2);
        meshopt_remapVertexBuffer(out.texCoords.data(), src.texCoords.data(), n, sizeof(float) * 2, remap.data());
    }
    if (src.hasWeights) {
        out.weights.resize(unique);
        meshopt_remapVertexBuffer(out.weights.data(), src.weights.data(), n, sizeof(WeightRecord), remap.data());
    }
    out.indices.resize(indices.size());
    meshopt_remapIndexBuffer(out.indices.data(), indices.data(), indices.size(), remap.data());
    return out;
}

// One generated level of one face (§13.5): simplify `high` towards `target` indices; the result must have
// fewer indices than `above` (the face one level up), else that face is reused.
WorkFace SimplifyFace(const WorkFace &high, const WorkFace &above, std::size_t target) {
    const std::size_t aboveCount = above.hasGeometry() ? above.indices.size() : 0;
    if (!high.hasGeometry() || aboveCount <= 3) return above;
    const std::size_t count = high.indices.size();
    const std::size_t n = high.vertexCount();
    std::vector<unsigned int> dst(count);
    std::vector<unsigned int> best;
    std::size_t bestDistance = std::numeric_limits<std::size_t>::max();
    const auto consider = [&](std::size_t produced) {
        if (produced < 3 || produced >= aboveCount) return false;
        const std::size_t distance = produced > target ? produced - target : target - produced;
        if (distance < bestDistance) {
            bestDistance = distance;
            best.assign(dst.begin(), dst.begin() + static_cast<std::ptrdiff_t>(produced));
        }
        return 4 * produced <= 5 * target; // within 1.25 x target: good enough
    };
    float error = 0;
    if (consider(meshopt_simplify(dst.data(), high.indices.data(), count, high.positions.data(), n, sizeof(float) * 3,
                                  target, 0.02f, meshopt_SimplifyLockBorder, &error)))
        return Compact(high, best);
    if (consider(meshopt_simplify(dst.data(), high.indices.data(), count, high.positions.data(), n, sizeof(float) * 3,
                                  target, 1.0f, meshopt_SimplifyLockBorder, &error)))
        return Compact(high, best);
    consider(meshopt_simplifySloppy(dst.data(), high.indices.data(), count, high.positions.data(), n, sizeof(float) * 3,
                                    target, 1.0f, &error));
    if (best.empty()) return above;
    WorkFace out = Compact(high, best);
    if (out.vertexCount() < 3) return EmptyLike(high); // §13.5: NoGeometry
    return out;
}

// Quantizes one level (§13.6): one PositionDomain over all faces, a UV domain per face.
Lod QuantizeLevel(const std::vector<WorkFace> &faces, const std::optional<Real3> &normalizedScale) {
    float lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
    bool any = false;
    for (const WorkFace &face : faces) {
        if (!face.hasGeometry()) continue;
        for (std::size_t i = 0; i < face.positions.size(); ++i) {
            const int k = static_cast<int>(i % 3);
            lo[k] = any ? std::min(lo[k], face.positions[i]) : face.positions[i];
            hi[k] = any ? std::max(hi[k], face.positions[i]) : face.positions[i];
            if (k == 2) any = true;
        }
    }
    Domain3 domain;
    for (int k = 0; k < 3; ++k) {
        domain.min[k] = FloatWidened(lo[k]);
        domain.max[k] = FloatWidened(hi[k]);
    }

    Lod lod;
    for (const WorkFace &face : faces) {
        Face out;
        if (!face.hasGeometry()) {
            out.noGeometry = true;
            out.noGeometryValue = LLSD::Boolean(true);
            lod.faces.push_back(std::move(out));
            continue;
        }
        const std::size_t n = face.vertexCount();
        out.positions.resize(3 * n);
        for (std::size_t i = 0; i < 3 * n; ++i)
            out.positions[i] = QuantizeComponent(face.positions[i], lo[i % 3], hi[i % 3]);
        out.positionDomain = domain;
        if (face.hasNormals) {
            out.hasNormals = true;
            out.normals.resize(3 * n);
            for (std::size_t i = 0; i < 3 * n; ++i) out.normals[i] = QuantizeNormal(face.normals[i]);
        }
        if (face.hasTexCoords) {
            float ulo[2] = {face.texCoords[0], face.texCoords[1]};
            float uhi[2] = {ulo[0], ulo[1]};
            for (std::size_t i = 0; i < 2 * n; ++i) {
                ulo[i % 2] = std::min(ulo[i % 2], face.texCoords[i]);
                uhi[i % 2] = std::max(uhi[i % 2], face.texCoords[i]);
            }
            out.hasTexCoords = true;
            out.texCoords.resize(2 * n);
            for (std::size_t i = 0; i < 2 * n; ++i)
                out.texCoords[i] = QuantizeComponent(face.texCoords[i], ulo[i % 2], uhi[i % 2]);
            Domain2 uv;
            for (int k = 0; k < 2; ++k) {
                uv.min[k] = FloatWidened(ulo[k]);
                uv.max[k] = FloatWidened(uhi[k]);
            }
            out.texCoordDomain = uv;
        }
        out.indices.reserve(face.indices.size());
        for (std::uint32_t i : face.indices) out.indices.push_back(static_cast<std::uint16_t>(i));
        if (face.hasWeights) {
            out.hasWeights = true;
            out.weights = face.weights;
        }
        out.normalizedScale = normalizedScale;
        lod.faces.push_back(std::move(out));
    }
    return lod;
}

// ll_is_degenerate (viewer llmodel.cpp), applied at 0.5 scale as the uploader's physics check (§6).
bool IsDegenerateAtHalfScale(const float *pa, const float *pb, const float *pc) {
    float a[3], b[3], c[3];
    for (int k = 0; k < 3; ++k) {
        a[k] = pa[k] * 0.5f;
        b[k] = pb[k] * 0.5f;
        c[k] = pc[k] * 0.5f;
    }
    const auto sub = [](const float *x, const float *y, float *out) {
        for (int k = 0; k < 3; ++k) out[k] = x[k] - y[k];
    };
    const auto dot = [](const float *x, const float *y) { return x[0] * y[0] + x[1] * y[1] + x[2] * y[2]; };
    const auto cross = [](const float *x, const float *y, float *out) {
        out[0] = x[1] * y[2] - x[2] * y[1];
        out[1] = x[2] * y[0] - x[0] * y[2];
        out[2] = x[0] * y[1] - x[1] * y[0];
    };
    float e1[3], e2[3], e3[3];
    sub(a, b, e1);
    sub(a, c, e2);
    sub(c, b, e3);
    const float l1 = dot(e1, e1), l2 = dot(e2, e2), l3 = dot(e3, e3);
    float tolerance = 1e-6f;
    const bool abOk = l1 <= 100.0f * l2 && l1 <= 100.0f * l3;
    const bool acOk = l2 <= 100.0f * l1 && l1 <= 100.0f * l3;
    const bool cbOk = l3 <= 100.0f * l1 && l1 <= 100.0f * l2;
    if (abOk && acOk && cbOk) tolerance *= 1e-4f;
    float x1[3], x2[3], e1b[3], e2b[3];
    cross(e1, e2, x1);
    sub(b, a, e1b);
    sub(b, c, e2b);
    cross(e1b, e2b, x2);
    return dot(x1, x1) < tolerance || dot(x2, x2) < tolerance;
}

// Unique float points (exact duplicates removed), 3 floats each.
std::vector<float> UniquePoints(const std::vector<const WorkFace *> &faces) {
    std::vector<std::array<float, 3>> points;
    for (const WorkFace *face : faces) {
        if (!face->hasGeometry()) continue;
        for (std::size_t i = 0; i < face->positions.size(); i += 3)
            points.push_back({face->positions[i], face->positions[i + 1], face->positions[i + 2]});
    }
    std::sort(points.begin(), points.end());
    points.erase(std::unique(points.begin(), points.end()), points.end());
    std::vector<float> flat;
    flat.reserve(points.size() * 3);
    for (const auto &p : points) flat.insert(flat.end(), p.begin(), p.end());
    return flat;
}

std::vector<float> Select(const std::vector<float> &points, const std::vector<std::uint32_t> &which) {
    std::vector<float> out;
    out.reserve(which.size() * 3);
    for (std::uint32_t i : which) out.insert(out.end(), &points[std::size_t{3} * i], &points[std::size_t{3} * i] + 3);
    return out;
}

// §13.9: the hull points of the high LOD, of the lowest LOD when the first has more than 256, reduced with
// meshopt_simplifyPoints when both have; empty when degenerate.
std::vector<float> HullPoints(const std::vector<float> &high, const std::vector<float> &lowest) {
    const ConvexHull hull = ComputeConvexHull(high.data(), high.size() / 3);
    if (!hull.ok) return {};
    std::vector<float> chosen = Select(high, hull.vertices);
    if (hull.vertices.size() <= kMaxHullPoints) return chosen;
    const ConvexHull lowHull = ComputeConvexHull(lowest.data(), lowest.size() / 3);
    if (lowHull.ok) {
        if (lowHull.vertices.size() <= kMaxHullPoints) return Select(lowest, lowHull.vertices);
        if (lowHull.vertices.size() < hull.vertices.size()) chosen = Select(lowest, lowHull.vertices);
    }
    const std::size_t count = chosen.size() / 3;
    std::vector<unsigned int> kept(kMaxHullPoints);
#if MESHOPTIMIZER_VERSION >= 200 // 0.20 added optional per-point colours (Debian 13 has 0.22, Debian 12 0.18)
    const std::size_t keptCount =
        meshopt_simplifyPoints(kept.data(), chosen.data(), count, sizeof(float) * 3, nullptr, 0, 0.0f, kMaxHullPoints);
#else
    const std::size_t keptCount =
        meshopt_simplifyPoints(kept.data(), chosen.data(), count, sizeof(float) * 3, kMaxHullPoints);
#endif
    kept.resize(std::min(keptCount, kMaxHullPoints));
    const std::vector<float> reduced = Select(chosen, kept);
    const ConvexHull again = ComputeConvexHull(reduced.data(), reduced.size() / 3);
    if (again.ok) return Select(reduced, again.vertices);
    return reduced.size() / 3 >= 4 ? reduced : std::vector<float>{};
}

PhysicsConvex BuildPhysicsConvex(const std::vector<const WorkFace *> &high, const std::vector<const WorkFace *> &lowest,
                                 std::vector<std::string> &warnings) {
    const std::vector<float> highPoints = UniquePoints(high);
    std::vector<float> points = HullPoints(highPoints, UniquePoints(lowest));
    const bool box = points.empty();
    if (box) {
        warnings.push_back("the model is flat or has fewer than 4 distinct points: physics_convex BoundingVerts "
                           "are the 8 corners of its bounding box");
        float lo[3] = {0, 0, 0}, hi[3] = {0, 0, 0};
        for (std::size_t i = 0; i < highPoints.size(); ++i) {
            const int k = static_cast<int>(i % 3);
            lo[k] = i < 3 ? highPoints[i] : std::min(lo[k], highPoints[i]);
            hi[k] = i < 3 ? highPoints[i] : std::max(hi[k], highPoints[i]);
        }
        for (int corner = 0; corner < 8; ++corner)
            points.insert(points.end(),
                          {(corner & 1) ? hi[0] : lo[0], (corner & 2) ? hi[1] : lo[1], (corner & 4) ? hi[2] : lo[2]});
    }
    float lo[3] = {points[0], points[1], points[2]};
    float hi[3] = {points[0], points[1], points[2]};
    for (std::size_t i = 0; i < points.size(); ++i) {
        lo[i % 3] = std::min(lo[i % 3], points[i]);
        hi[i % 3] = std::max(hi[i % 3], points[i]);
    }
    PhysicsConvex convex;
    Domain3 domain;
    for (int k = 0; k < 3; ++k) {
        domain.min[k] = FloatWidened(lo[k]);
        domain.max[k] = FloatWidened(hi[k]);
    }
    convex.domain = domain;
    convex.hasBoundingVerts = true;
    std::set<std::array<std::uint16_t, 3>> seen;
    for (std::size_t i = 0; i < points.size(); i += 3) {
        const std::array<std::uint16_t, 3> q = {QuantizeComponent(points[i], lo[0], hi[0]),
                                                QuantizeComponent(points[i + 1], lo[1], hi[1]),
                                                QuantizeComponent(points[i + 2], lo[2], hi[2])};
        // Hull points that quantize to the same triple are one point; the box keeps its 8 corners.
        if (!box && !seen.insert(q).second) continue;
        convex.boundingVerts.insert(convex.boundingVerts.end(), q.begin(), q.end());
    }
    return convex;
}

Matrix16 ToMatrix16(const Mat4 &m) {
    Matrix16 e{};
    for (int r = 0; r < 4; ++r)
        for (int c = 0; c < 4; ++c) e[c * 4 + r] = FloatWidened(m.m[r][c]);
    return e;
}

// The physics_mesh faces (§6, §13.9): per material (all in one face beyond 8 materials), normalised with
// the model's transform, without triangles that are degenerate at 0.5 scale.
std::optional<Lod> BuildPhysicsMesh(const std::vector<BuildFace> &input, const Normalization &norm,
                                    const std::optional<Real3> &normalizedScale, std::size_t maxVertices,
                                    std::vector<std::string> &warnings) {
    if (input.empty()) return std::nullopt;
    std::size_t degenerate = 0;
    std::map<unsigned, std::vector<WorkFace>> grouped =
        GroupLevel(input, "physics_mesh", 0, false, std::numeric_limits<std::size_t>::max(), degenerate);
    if (grouped.size() > kMaxFaces) {
        WorkFace all;
        all.material = grouped.begin()->first;
        for (auto &entry : grouped)
            for (const WorkFace &face : entry.second) AppendFace(all, face);
        grouped.clear();
        grouped[all.material].push_back(std::move(all));
        warnings.push_back("physics_mesh has more than 8 materials: written as one face");
    }
    std::vector<WorkFace> faces;
    std::size_t dropped = 0;
    for (auto &entry : grouped)
        for (WorkFace &face : entry.second) {
            Normalize(face, norm);
            std::vector<std::uint32_t> kept;
            for (std::size_t t = 0; t + 2 < face.indices.size(); t += 3) {
                const std::uint32_t *tri = &face.indices[t];
                if (IsDegenerateAtHalfScale(&face.positions[std::size_t{3} * tri[0]],
                                            &face.positions[std::size_t{3} * tri[1]],
                                            &face.positions[std::size_t{3} * tri[2]])) {
                    ++dropped;
                    continue;
                }
                kept.insert(kept.end(), tri, tri + 3);
            }
            WorkFace compact = Compact(face, kept);
            if (!compact.hasGeometry()) continue;
            for (WorkFace &part : SplitFace(compact, maxVertices)) faces.push_back(std::move(part));
        }
    if (dropped + degenerate > 0)
        warnings.push_back("physics_mesh: " + std::to_string(dropped + degenerate) +
                           " degenerate triangles dropped (the uploader rejects them)");
    if (faces.size() > kMaxFaces) {
        warnings.push_back("physics_mesh needs " + std::to_string(faces.size()) +
                           " faces after splitting at the vertex limit; only the first 8 are written");
        faces.resize(kMaxFaces);
    }
    if (faces.empty()) {
        warnings.push_back("physics_mesh has no usable triangles: not written");
        return std::nullopt;
    }
    return QuantizeLevel(faces, normalizedScale);
}

} // namespace

namespace {

// One slot of the asset's faces: a material and which part of its split face.
struct Slot {
    unsigned material;
    std::size_t part;
};

// BuildAsset's steps: group each level's faces by material (split past the vertex limit), lay out the face
// slots, then build one asset (or one per submodel) from them.
class AssetAssembler {
public:
    AssetAssembler(const BuildInput &input, const BuildOptions &options) : mIn(input), mOptions(options) {}

    BuildResult run() {
        mRigged = !mIn.jointNames.empty();
        mJointCount = mIn.jointNames.size();
        if (mJointCount > kMaxRenderedJoints)
            Fail("the rig uses " + std::to_string(mJointCount) +
                 " joints; Second Life renders at most 110 per mesh: remove weights from unused bones or split the "
                 "mesh");
        if (mIn.jointInverseBind.size() != mJointCount)
            Fail("the rig has " + std::to_string(mJointCount) + " joints but " +
                 std::to_string(mIn.jointInverseBind.size()) + " inverse bind matrices");
        mMaxVertices = std::max<std::size_t>(3, std::min<std::size_t>(mOptions.maxFaceVertices, kHardVertexLimit));
        groupLevels();
        layOutSlots();
        const std::size_t assetCount = (mSlots.size() + kMaxFaces - 1) / kMaxFaces;
        for (std::size_t a = 0; a < assetCount; ++a) buildAsset(a);
        return std::move(mResult);
    }

private:
    // Which levels the caller gave; the others are generated or copied from the next higher given level.
    void groupLevels() {
        const BuildInput &input = mIn;
        const BuildOptions &options = mOptions;
        bool lowerGiven = false;
        for (int l = kLowestLod; l < kHighLod; ++l) lowerGiven = lowerGiven || !input.lods[l].empty();
        std::array<const std::vector<BuildFace> *, 4> source{};
        source[kHighLod] = &input.lods[kHighLod];
        for (int l = kHighLod - 1; l >= kLowestLod; --l)
            source[l] = !input.lods[l].empty() ? &input.lods[l] : source[l + 1];
        mGenerate = !lowerGiven && options.generateLods;
        const bool generate = mGenerate;

        auto &grouped = mGrouped;
        std::size_t degenerate = 0;
        for (int l = kHighLod; l >= kLowestLod; --l) {
            if (l < kHighLod && (generate || source[l] == source[l + 1])) {
                if (!generate) grouped[l] = grouped[l + 1];
                continue;
            }
            grouped[l] = GroupLevel(*source[l], LodKey(l), mJointCount, mRigged, mMaxVertices, degenerate);
        }
        if (grouped[kHighLod].empty()) Fail("nothing to export: the scene has no triangles");
        if (degenerate > 0)
            mResult.warnings.push_back(std::to_string(degenerate) +
                                       " triangles that repeat a vertex were dropped (the uploader rejects them)");
    }

    // Faces: per material ascending, as many as the level with the most parts needs (§13.2, §13.3).
    void layOutSlots() {
        std::map<unsigned, std::size_t> partsPerMaterial;
        for (int l = kLowestLod; l <= kHighLod; ++l)
            for (const auto &entry : mGrouped[l])
                partsPerMaterial[entry.first] = std::max(partsPerMaterial[entry.first], entry.second.size());
        for (const auto &entry : partsPerMaterial)
            for (std::size_t p = 0; p < entry.second; ++p) mSlots.push_back({entry.first, p});
        if (mSlots.size() > kMaxFaces && !mOptions.submodels) {
            const std::string count = partsPerMaterial.size() > kMaxFaces
                                          ? std::to_string(partsPerMaterial.size())
                                          : std::to_string(mSlots.size()) + " faces after splitting faces over " +
                                                std::to_string(mMaxVertices) + " vertices";
            Fail("more than 8 materials (" + count +
                 "): merge materials or export with GAMEFMT_SLMESH_SUBMODELS=1 (--sl-submodels)");
        }
    }

    // The face of `slot` in `level`, or an empty face like `like` when the level has none there.
    WorkFace faceAt(int level, const Slot &slot, const WorkFace &like) const {
        const auto found = mGrouped[level].find(slot.material);
        if (found != mGrouped[level].end() && slot.part < found->second.size()) return found->second[slot.part];
        WorkFace empty = EmptyLike(like);
        empty.material = slot.material;
        return empty;
    }

    // Lower levels simplified from the high level by the LOD ratios.
    void generateLevels(std::array<std::vector<WorkFace>, 4> &levels) const {
        for (int l = kHighLod - 1; l >= kLowestLod; --l) {
            const float ratio = mOptions.lodRatios[static_cast<std::size_t>(kHighLod - 1 - l)];
            if (!(ratio > 0.0f && ratio <= 1.0f))
                Fail("LOD ratio " + std::to_string(ratio) + " is not a fraction between 0 and 1");
            for (std::size_t s = 0; s < levels[kHighLod].size(); ++s) {
                const WorkFace &high = levels[kHighLod][s];
                std::size_t target = static_cast<std::size_t>(
                    std::floor(static_cast<double>(high.indices.size()) * static_cast<double>(ratio)));
                target = std::max<std::size_t>(3, target - target % 3);
                levels[l].push_back(SimplifyFace(high, levels[l + 1][s], target));
            }
        }
    }

    // The skin: joints, inverse binds and the bind shape matrix that undoes the normalisation.
    Skin makeSkin(const Normalization &norm) const {
        Skin skin;
        skin.jointNames = mIn.jointNames;
        for (const Mat4 &m : mIn.jointInverseBind) skin.inverseBind.push_back(ToMatrix16(m));
        Mat4 bindShape = Mat4::FromScale(Vec3(norm.extent[0], norm.extent[1], norm.extent[2]));
        for (int k = 0; k < 3; ++k) bindShape.m[k][3] = norm.centre[k];
        skin.bindShape = ToMatrix16(bindShape);
        return skin;
    }

    // Asset `a` (submodel a when there are more than 8 face slots).
    void buildAsset(std::size_t a) {
        const std::size_t first = a * kMaxFaces;
        const std::size_t last = std::min(mSlots.size(), first + kMaxFaces);
        WorkFace blank;
        blank.hasWeights = mRigged;

        // levels[l][s]: the face of slot first + s in level l.
        std::array<std::vector<WorkFace>, 4> levels;
        for (int l = kLowestLod; l <= kHighLod; ++l)
            if (!mGenerate || l == kHighLod)
                for (std::size_t s = first; s < last; ++s) levels[l].push_back(faceAt(l, mSlots[s], blank));

        std::vector<const WorkFace *> highFaces;
        for (const WorkFace &face : levels[kHighLod]) highFaces.push_back(&face);
        const Normalization norm = ComputeNormalization(highFaces);
        for (int l = kLowestLod; l <= kHighLod; ++l)
            for (WorkFace &face : levels[l]) Normalize(face, norm);

        if (mGenerate) generateLevels(levels);

        std::optional<Real3> normalizedScale;
        if (!mRigged && !norm.unitScale())
            normalizedScale =
                Real3{FloatWidened(norm.extent[0]), FloatWidened(norm.extent[1]), FloatWidened(norm.extent[2])};

        SLMeshAsset asset;
        for (int l = kLowestLod; l <= kHighLod; ++l) asset.lods[l] = QuantizeLevel(levels[l], normalizedScale);

        if (mRigged) asset.skin = makeSkin(norm);

        std::vector<const WorkFace *> lowestFaces;
        for (const WorkFace &face : levels[kLowestLod]) lowestFaces.push_back(&face);
        asset.physicsConvex = BuildPhysicsConvex(highFaces, lowestFaces, mResult.warnings);

        if (a == 0)
            asset.physicsMesh =
                BuildPhysicsMesh(mIn.physicsMesh, norm, normalizedScale, mMaxVertices, mResult.warnings);
        if (a > 0) asset.submodelId = static_cast<std::int32_t>(a);
        if (mOptions.materialList) {
            std::vector<std::string> names;
            for (std::size_t s = first; s < last; ++s) {
                const unsigned m = mSlots[s].material;
                names.push_back(m < mIn.materialNames.size() ? mIn.materialNames[m] : std::string());
            }
            asset.materialList = std::move(names);
        }
        mResult.assets.push_back(std::move(asset));
    }

    const BuildInput &mIn;
    const BuildOptions &mOptions;
    BuildResult mResult;
    bool mRigged = false;
    std::size_t mJointCount = 0;
    std::size_t mMaxVertices = 3;
    bool mGenerate = false;
    std::array<std::map<unsigned, std::vector<WorkFace>>, 4> mGrouped;
    std::vector<Slot> mSlots;
};

} // namespace

BuildResult BuildAsset(const BuildInput &input, const BuildOptions &options) {
    return AssetAssembler(input, options).run();
}

} // namespace gamefmt::slmesh
