// Union parts → pieces of triangles (docs/formats/roblox-union-mesh.md §2.1 and §9, roblox-model.md §5.3).
#include "assimp_glue/roblox_model/union_geometry.hpp"

#include "assimp_glue/common/scene_util.hpp"
#include "common/error.hpp"
#include "gamefmt/roblox_model.hpp"
#include "importers/roblox_model/document/binary_reader.hpp"
#include "importers/roblox_model/document/reader.hpp"
#include "importers/roblox_model/geometry/shapes.hpp"
#include "importers/roblox_model/geometry/union_mesh.hpp"

#include <cmath>
#include <cstdint>
#include <tuple>

namespace gamefmt::glue {

struct UnionCache::Entry {
    std::optional<rbx::UnionMesh> mesh;
};

namespace {

// The bytes of a String or SharedString property of `doc`; empty otherwise.
std::string_view BlobOf(const rbx::Document &doc, const rbx::Instance &inst, const char *name) {
    const rbx::Property *p = doc.findProperty(inst, name);
    if (p == nullptr) return {};
    if (const auto *s = std::get_if<std::string>(&p->value.data)) return *s;
    if (const auto *ref = std::get_if<rbx::SharedStringRef>(&p->value.data))
        if (ref->index < doc.sharedStrings.size()) return doc.sharedStrings[ref->index].content;
    return {};
}

// §2.1 step 3: the first instance of the asset model with a render blob, decoded in the order of step 1–2.
std::optional<rbx::UnionMesh> AssetRenderMesh(const RbxAsset &asset, const std::string &unionName) {
    const std::string what = std::string(rbx::kFormatName) + ": union '" + SanitizeForAiString(unionName, 100) +
                             "': asset " + SanitizeForAiString(asset.path, 300);
    rbx::Document doc;
    try {
        rbx::ReadOptions options;
        options.maxDecompressed = std::uint64_t(64) << 20;
        options.maxInstances = 100000;
        doc = rbx::ReadDocument(asset.bytes.data(), asset.bytes.size(), options);
    } catch (const FormatError &e) {
        LogWarn(what + " not read (" + e.what() + "); the next source is used");
        return std::nullopt;
    }
    for (const rbx::Instance &inst : doc.instances) {
        bool had = false;
        for (const char *name : {"SolidMeshHolder", "MeshData2", "MeshData"}) {
            const std::string_view blob = BlobOf(doc, inst, name);
            if (blob.empty()) continue;
            had = true;
            try {
                std::optional<rbx::UnionMesh> m =
                    rbx::DecodeUnionRenderMesh(reinterpret_cast<const std::uint8_t *>(blob.data()), blob.size());
                if (m) {
                    for (const std::string &w : m->warnings) LogWarn(what + ": " + w);
                    return m;
                }
            } catch (const FormatError &e) {
                LogWarn(what + ": " + name + " not decoded (" + e.what() + ")");
            }
        }
        if (had) break; // the first instance with a render blob is the asset's; no other is tried
    }
    LogWarn(what + " holds no render mesh that decodes; the next source is used");
    return std::nullopt;
}

} // namespace

const rbx::UnionMesh *UnionCache::asset(const std::string &uri, const RbxAssetResolver &resolver,
                                        const std::string &unionName) {
    if (!resolver || uri.empty()) return nullptr;
    auto found = mAssets.find(uri);
    if (found == mAssets.end()) {
        auto entry = std::make_unique<Entry>();
        if (const std::optional<RbxAsset> file = resolver(uri, RbxAssetKind::Union))
            entry->mesh = AssetRenderMesh(*file, unionName);
        found = mAssets.emplace(uri, std::move(entry)).first;
    }
    return found->second->mesh ? &*found->second->mesh : nullptr;
}

UnionCache::UnionCache() = default;
UnionCache::~UnionCache() = default;

namespace {

const rbx::UnionMesh *Decode(std::map<std::string_view, std::unique_ptr<UnionCache::Entry>> &cache,
                             std::string_view blob, const std::string &unionName, bool hulls) {
    const std::string_view key = blob;
    auto found = cache.find(key);
    if (found == cache.end()) {
        auto entry = std::make_unique<UnionCache::Entry>();
        const auto *data = reinterpret_cast<const std::uint8_t *>(blob.data());
        try {
            entry->mesh =
                hulls ? rbx::DecodeUnionHulls(data, blob.size()) : rbx::DecodeUnionRenderMesh(data, blob.size());
            if (entry->mesh)
                for (const std::string &w : entry->mesh->warnings)
                    LogWarn(std::string(rbx::kFormatName) + ": union '" + SanitizeForAiString(unionName, 100) +
                            "': " + w);
        } catch (const FormatError &e) {
            LogWarn(std::string(rbx::kFormatName) + ": union '" + SanitizeForAiString(unionName, 100) +
                    "': " + (hulls ? "physics hulls" : "render mesh") + " not decoded (" + e.what() +
                    "); the next source is used");
        }
        found = cache.emplace(key, std::move(entry)).first;
    }
    return found->second->mesh ? &*found->second->mesh : nullptr;
}

bool Finite(const rbx::Vector3 &v) {
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}

aiVector3D Unit(const aiVector3D &v, const aiVector3D &fallback) {
    const float length = v.Length();
    return std::isfinite(length) && length > 0 ? v / length : fallback;
}

// Per-axis size / InitialSize; an InitialSize axis that is not a positive number uses the extent of `points`.
aiVector3D ScaleOf(const rbx::Vector3 &size, const rbx::Vector3 &initial, const std::vector<rbx::Vector3> &points) {
    float lo[3] = {INFINITY, INFINITY, INFINITY}, hi[3] = {-INFINITY, -INFINITY, -INFINITY};
    for (const rbx::Vector3 &p : points) {
        const float c[3] = {p.x, p.y, p.z};
        for (int a = 0; a < 3; ++a) {
            lo[a] = std::fmin(lo[a], c[a]);
            hi[a] = std::fmax(hi[a], c[a]);
        }
    }
    const float s[3] = {size.x, size.y, size.z}, i[3] = {initial.x, initial.y, initial.z};
    float out[3];
    for (int a = 0; a < 3; ++a) {
        const float base = i[a] > 0 && std::isfinite(i[a]) ? i[a] : hi[a] - lo[a];
        out[a] = base > 0 && std::isfinite(base) ? s[a] / base : 1.0f;
    }
    return {out[0], out[1], out[2]};
}

// A decoded mesh as pieces: one per vertex colour unless UsePartColor (§9), vertices scaled by `s`; hulls (no
// normals) get flat faces.
UnionShape FromMesh(const rbx::UnionMesh &m, const rbx::UnionData &u, const rbx::Look &look, const rbx::Vector3 &size,
                    const char *geometry) {
    UnionShape shape;
    shape.geometry = geometry;
    shape.source = m.source;
    shape.key = m.source + ":" + std::to_string(reinterpret_cast<std::uintptr_t>(&m));
    const aiVector3D s = ScaleOf(size, u.initialSize, m.positions);
    const aiVector3D inv(s.x != 0 ? 1 / s.x : 0, s.y != 0 ? 1 / s.y : 0, s.z != 0 ? 1 / s.z : 0);
    const bool byColour = !u.usePartColor && !m.colors.empty();
    std::map<std::uint32_t, std::size_t> pieceOf; // RGB → piece
    std::vector<std::map<std::uint32_t, unsigned>> remap;
    const auto scaled = [&](const rbx::Vector3 &p) { return aiVector3D(p.x * s.x, p.y * s.y, p.z * s.z); };
    for (std::size_t t = 0; t + 2 < m.indices.size(); t += 3) {
        std::uint32_t rgb = 0xFFFFFFFFu;
        if (byColour) {
            const auto &c = m.colors[m.indices[t]];
            rgb = std::uint32_t(c[0]) << 16 | std::uint32_t(c[1]) << 8 | c[2];
        }
        auto [at, added] = pieceOf.emplace(rgb, shape.pieces.size());
        if (added) {
            UnionPiece piece;
            piece.look = look;
            if (byColour) {
                piece.ownColour = true;
                piece.look.color = {std::uint8_t(rgb >> 16), std::uint8_t(rgb >> 8), std::uint8_t(rgb)};
            }
            shape.pieces.push_back(std::move(piece));
            remap.emplace_back();
        }
        UnionPiece &piece = shape.pieces[at->second];
        if (m.normals.empty()) { // hulls: three vertices per face, the face's normal
            const aiVector3D a = scaled(m.positions[m.indices[t]]), b = scaled(m.positions[m.indices[t + 1]]),
                             c = scaled(m.positions[m.indices[t + 2]]);
            const aiVector3D n = Unit((b - a) ^ (c - a), aiVector3D(0, 1, 0));
            for (const aiVector3D &p : {a, b, c}) {
                piece.indices.push_back(static_cast<unsigned>(piece.positions.size()));
                piece.positions.push_back(p);
                piece.normals.push_back(n);
            }
            continue;
        }
        for (int k = 0; k < 3; ++k) {
            const std::uint32_t v = m.indices[t + k];
            auto [slot, fresh] = remap[at->second].emplace(v, static_cast<unsigned>(piece.positions.size()));
            if (fresh) {
                piece.positions.push_back(scaled(m.positions[v]));
                const rbx::Vector3 &n = m.normals[v];
                piece.normals.push_back(Unit(aiVector3D(n.x * inv.x, n.y * inv.y, n.z * inv.z), aiVector3D(0, 1, 0)));
                if (!m.uvs.empty()) piece.uvs.emplace_back(m.uvs[v][0], 1.0f - m.uvs[v][1], 0.0f);
            }
            piece.indices.push_back(slot->second);
        }
    }
    return shape;
}

struct NestedPart {
    rbx::Look look;
    rbx::ShapeMesh mesh;
    aiMatrix3x3 r;
    aiVector3D p;
};

// The drawable parts of a nested model in the union's frame (their shapes, looks and CFrames); NegateOperations
// set `negated`; `corners` gets every transformed vertex (for an InitialSize that is not given).
void CollectParts(const rbx::Document &nested, unsigned segments, std::vector<NestedPart> &parts, bool &negated,
                  std::vector<rbx::Vector3> &corners) {
    const rbx::Appearance looks(nested);
    const std::optional<std::uint32_t> cframeName = nested.names.find("CFrame");
    for (std::uint32_t i = 0; i < nested.instances.size(); ++i) {
        const rbx::Instance &inst = nested.instances[i];
        if (nested.className(inst) == "NegateOperation") {
            negated = true;
            continue;
        }
        NestedPart part;
        const rbx::PartGeometry g = looks.geometry(i, &part.look);
        if (g.source != rbx::GeometrySource::Shape || !Finite(g.size) || !Finite(g.offset)) continue;
        const rbx::Property *cf = cframeName ? inst.find(*cframeName) : nullptr;
        rbx::CFrame frame;
        if (cf != nullptr)
            if (const auto *value = std::get_if<rbx::CFrame>(&cf->value.data)) frame = *value;
        if (!Finite(frame.position)) continue;
        const auto &m = frame.rotation;
        part.r = aiMatrix3x3(m[0], m[1], m[2], m[3], m[4], m[5], m[6], m[7], m[8]);
        part.p = aiVector3D(frame.position.x, frame.position.y, frame.position.z);
        rbx::BuildShape(g.shape, g.size, g.offset, segments, part.mesh);
        for (const rbx::Vector3 &v : part.mesh.positions) {
            const aiVector3D w = part.r * aiVector3D(v.x, v.y, v.z) + part.p;
            corners.push_back({w.x, w.y, w.z});
        }
        parts.push_back(std::move(part));
    }
}

// §5.3: the source parts of the nested model, in the union's frame, scaled by size / InitialSize; NegateOperations
// left out (flagged). nullopt when the blob holds no drawable part.
std::optional<UnionShape> FromParts(std::string_view blob, const rbx::UnionData &u, const rbx::Look &look,
                                    const rbx::Vector3 &size, unsigned segments, const std::string &unionName,
                                    const char *source) {
    rbx::Document nested;
    try {
        rbx::ReadOptions options;
        options.maxDecompressed = std::uint64_t(64) << 20;
        options.maxInstances = 100000;
        nested = rbx::ReadBinary(reinterpret_cast<const std::uint8_t *>(blob.data()), blob.size(), options);
    } catch (const FormatError &e) {
        LogWarn(std::string(rbx::kFormatName) + ": union '" + SanitizeForAiString(unionName, 100) + "': " + source +
                " not read (" + e.what() + ")");
        return std::nullopt;
    }
    std::vector<NestedPart> parts;
    bool negated = false;
    std::vector<rbx::Vector3> corners; // for an InitialSize that is not given
    CollectParts(nested, segments, parts, negated, corners);
    if (parts.empty()) return std::nullopt;
    UnionShape shape;
    shape.geometry = "union-parts";
    shape.source = source;
    shape.key = std::string(source) + ":" + std::to_string(reinterpret_cast<std::uintptr_t>(blob.data())) + ":" +
                std::to_string(blob.size());
    shape.negated = negated;
    const aiVector3D s = ScaleOf(size, u.initialSize, corners);
    const aiVector3D inv(s.x != 0 ? 1 / s.x : 0, s.y != 0 ? 1 / s.y : 0, s.z != 0 ? 1 / s.z : 0);
    std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t, std::uint32_t>, std::size_t> pieceOf;
    for (const NestedPart &part : parts) {
        const rbx::Look &l = u.usePartColor ? look : part.look;
        const auto key = std::make_tuple(std::uint32_t(l.color.r) << 16 | std::uint32_t(l.color.g) << 8 | l.color.b,
                                         l.material, static_cast<std::uint32_t>(l.transparency * 1e6f),
                                         static_cast<std::uint32_t>(l.reflectance * 1e6f));
        const auto [at, added] = pieceOf.emplace(key, shape.pieces.size());
        if (added) {
            UnionPiece piece;
            piece.look = l;
            piece.ownColour = !u.usePartColor;
            shape.pieces.push_back(std::move(piece));
        }
        UnionPiece &piece = shape.pieces[at->second];
        const auto base = static_cast<unsigned>(piece.positions.size());
        for (std::size_t v = 0; v < part.mesh.positions.size(); ++v) {
            const rbx::Vector3 &p = part.mesh.positions[v], &n = part.mesh.normals[v];
            const aiVector3D w = part.r * aiVector3D(p.x, p.y, p.z) + part.p;
            const aiVector3D wn = part.r * aiVector3D(n.x, n.y, n.z);
            piece.positions.emplace_back(w.x * s.x, w.y * s.y, w.z * s.z);
            piece.normals.push_back(Unit(aiVector3D(wn.x * inv.x, wn.y * inv.y, wn.z * inv.z), aiVector3D(0, 1, 0)));
            piece.uvs.emplace_back(part.mesh.uvs[v].x, part.mesh.uvs[v].y, 0.0f);
        }
        for (std::uint32_t index : part.mesh.indices) piece.indices.push_back(base + index);
    }
    return shape;
}

} // namespace

const rbx::UnionMesh *UnionCache::render(std::string_view blob, const std::string &unionName) {
    return Decode(mRender, blob, unionName, false);
}

const rbx::UnionMesh *UnionCache::hulls(std::string_view blob, const std::string &unionName) {
    return Decode(mHulls, blob, unionName, true);
}

std::optional<UnionShape> BuildUnionShape(const rbx::Document &doc, std::uint32_t index, const rbx::Appearance &looks,
                                          const rbx::Look &look, const rbx::Vector3 &size, unsigned segments,
                                          const std::string &assetUri, const RbxAssetResolver &assets,
                                          UnionCache &cache) {
    const std::optional<rbx::UnionData> u = looks.unionData(index);
    if (!u) return std::nullopt;
    const std::string &name = doc.instances[index].name;
    // 1. The union's own render mesh (§2.1: SolidMeshHolder, then MeshData2, then MeshData).
    for (std::string_view blob : {u->solidMesh, u->meshData2, u->meshData})
        if (!blob.empty())
            if (const rbx::UnionMesh *m = cache.render(blob, name)) return FromMesh(*m, *u, look, size, "union-mesh");
    // 1b. The render mesh of its cloud asset, from the asset folders (§2.1 step 3).
    if (const rbx::UnionMesh *m = cache.asset(assetUri, assets, name)) {
        UnionShape shape = FromMesh(*m, *u, look, size, "union-mesh");
        shape.source = "asset " + m->source; // e.g. "asset CSGMDL4"
        return shape;
    }
    // 2. The source parts, unless they would be wrong (negations, an intersection) and hulls exist.
    std::optional<UnionShape> parts;
    if (!u->childData2.empty()) parts = FromParts(u->childData2, *u, look, size, segments, name, "ChildData2");
    if (!parts && !u->childData.empty()) parts = FromParts(u->childData, *u, look, size, segments, name, "ChildData");
    const rbx::UnionMesh *hulls = nullptr;
    for (std::string_view blob : {u->physicalConfig, u->physics})
        if (hulls == nullptr && !blob.empty()) hulls = cache.hulls(blob, name);
    if (parts && (hulls == nullptr || (!parts->negated && !u->intersect))) return parts;
    // 3. The physics hulls (they follow negations and intersections).
    if (hulls != nullptr) return FromMesh(*hulls, *u, look, size, "union-hull");
    return std::nullopt;
}

} // namespace gamefmt::glue
