// Turns authoring data into a writable RobloxMesh: version choice, LOD generation with meshoptimizer,
// parents-first bones and the name table, quantised envelopes, skin subsets of at most 26 bones per LOD
// level, culling distances, FACS/HSRAVIS passthrough (docs/formats/roblox-mesh.md §14).
//
// Choices where the reference leaves one:
//  * Levels the caller supplies (more than one) are written with lodType 3; generated ones with 3
//    (meshopt_simplify) or 4 (meshopt_simplifySloppy); one level with 0.
//  * Sloppy levels use target_error 1.0, the setting that reproduces Roblox's lodType-4 files (§10.3).
//  * Content the chosen version cannot hold is dropped with a warning in RobloxMesh::warnings (skinning
//    before 4.00, FACS before 5.00 or without a skeleton, HSRAVIS before 6.00, extra levels in 2.00);
//    hard limits (bone counts, u32 sizes) and broken input are FormatErrors.
//  * Vertices no kept face references are dropped (order otherwise kept), so the file holds only geometry.
#include "importers/roblox_mesh/mesh_builder.hpp"

#include "common/error.hpp"
#include "importers/roblox_mesh/mesh_reader.hpp"

#include <meshoptimizer.h>

#include <algorithm>
#include <cmath>
#include <functional>
#include <limits>
#include <queue>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

namespace gamefmt::rbxmesh {
namespace {

constexpr std::uint32_t kNone = std::numeric_limits<std::uint32_t>::max();

[[noreturn]] void Fail(const std::string &message) {
    throw FormatError(kFormatName, message);
}

bool IsWritable(const std::string &v) {
    static const char *const kWritable[] = {"2.00", "3.00", "3.01", "4.00", "4.01", "5.00", "6.00", "7.00"};
    return std::any_of(std::begin(kWritable), std::end(kWritable), [&](const char *w) { return v == w; });
}

bool IsSkinned(const BuildInput &input) {
    return !input.bones.empty() && !input.influences.empty();
}

void ValidateInput(const BuildInput &input) {
    const std::size_t n = input.vertices.size();
    if (input.lods.empty() || input.lods[0].empty()) Fail("the mesh has no triangles");
    if (n > std::numeric_limits<std::uint32_t>::max())
        Fail(std::to_string(n) + " vertices do not fit a Roblox mesh (u32 counts)");
    for (std::size_t i = 0; i < n; ++i) {
        const Vertex &v = input.vertices[i];
        if (!std::isfinite(v.px) || !std::isfinite(v.py) || !std::isfinite(v.pz))
            Fail("vertex " + std::to_string(i) + " has a non-finite position");
    }
    for (std::size_t l = 0; l < input.lods.size(); ++l) {
        const auto &faces = input.lods[l];
        for (std::size_t j = 0; j < faces.size(); ++j) {
            const Face &f = faces[j];
            if (f.a >= n || f.b >= n || f.c >= n)
                Fail("LOD " + std::to_string(l) + " face " + std::to_string(j) + " references a vertex past the " +
                     std::to_string(n) + " vertices");
        }
    }

    const std::size_t nb = input.bones.size();
    // Parents and subset entries are u16 with 0xFFFF meaning "none".
    if (nb > 0xFFFF) Fail(std::to_string(nb) + " bones; a Roblox mesh holds at most 65535");
    for (std::size_t b = 0; b < nb; ++b) {
        const std::int32_t p = input.bones[b].parent;
        if (p < -1 || (p >= 0 && static_cast<std::size_t>(p) >= nb) || static_cast<std::size_t>(p) == b)
            Fail("bone " + std::to_string(b) + " ('" + input.bones[b].name + "') has invalid parent " +
                 std::to_string(p));
        if (input.bones[b].name.find('\0') != std::string::npos)
            Fail("bone " + std::to_string(b) + " has a NUL byte in its name");
    }
    if (!input.influences.empty()) {
        if (input.influences.size() != n)
            Fail(std::to_string(input.influences.size()) + " influence lists for " + std::to_string(n) + " vertices");
        for (std::size_t i = 0; i < n; ++i)
            for (const Influence &inf : input.influences[i]) {
                if (inf.bone >= nb)
                    Fail("vertex " + std::to_string(i) + " is influenced by bone " + std::to_string(inf.bone) +
                         " past the " + std::to_string(nb) + " bones");
                if (!std::isfinite(inf.weight) || inf.weight < 0)
                    Fail("vertex " + std::to_string(i) + " has weight " + std::to_string(inf.weight) + " on bone " +
                         std::to_string(inf.bone));
            }
    }
}

// Parents before children, otherwise input order (the smallest ready index first), so an already sorted
// skeleton keeps its order. Returns new → old; throws on a cycle.
std::vector<std::uint32_t> SortBonesParentsFirst(const std::vector<BoneInput> &bones) {
    const std::size_t nb = bones.size();
    std::vector<std::vector<std::uint32_t>> children(nb);
    std::priority_queue<std::uint32_t, std::vector<std::uint32_t>, std::greater<std::uint32_t>> ready;
    for (std::uint32_t b = 0; b < nb; ++b) {
        if (bones[b].parent < 0)
            ready.push(b);
        else
            children[static_cast<std::size_t>(bones[b].parent)].push_back(b);
    }
    std::vector<std::uint32_t> order;
    order.reserve(nb);
    while (!ready.empty()) {
        const std::uint32_t b = ready.top();
        ready.pop();
        order.push_back(b);
        for (std::uint32_t c : children[b]) ready.push(c);
    }
    if (order.size() != nb) Fail("the bone hierarchy has a cycle (" + std::to_string(nb - order.size()) + " bones)");
    return order;
}

// LOD levels from LOD0 at each ratio; a level is kept only when it has at most 75 % of the faces of the
// last kept level (plain simplify often stalls on UV seams, §14.3).
std::vector<std::vector<Face>> GenerateLods(const std::vector<Vertex> &vertices, const std::vector<Face> &lod0,
                                            const BuildOptions &options, std::vector<std::string> &warnings) {
    std::vector<float> positions;
    positions.reserve(vertices.size() * 3);
    for (const Vertex &v : vertices) positions.insert(positions.end(), {v.px, v.py, v.pz});
    std::vector<unsigned int> indices;
    indices.reserve(lod0.size() * 3);
    for (const Face &f : lod0) indices.insert(indices.end(), {f.a, f.b, f.c});

    std::vector<std::vector<Face>> levels;
    std::vector<unsigned int> dst(indices.size());
    std::size_t previousFaces = lod0.size();
    for (float r : options.lodRatios) {
        if (!(r > 0.0f && r < 1.0f)) Fail("LOD ratio " + std::to_string(r) + " is not between 0 and 1");
        std::size_t target = static_cast<std::size_t>(std::floor(3.0 * static_cast<double>(lod0.size()) * r));
        target -= target % 3;
        const std::size_t count =
            options.sloppyLods ? meshopt_simplifySloppy(dst.data(), indices.data(), indices.size(), positions.data(),
                                                        vertices.size(), sizeof(float) * 3, target, 1.0f, nullptr)
                               : meshopt_simplify(dst.data(), indices.data(), indices.size(), positions.data(),
                                                  vertices.size(), sizeof(float) * 3, target, 0.02f, 0, nullptr);
        const std::size_t faces = count / 3;
        if (faces == 0 || faces * 4 > previousFaces * 3) {
            warnings.push_back("LOD at ratio " + std::to_string(r) + " dropped: the simplifier reached " +
                               std::to_string(faces) + " faces (target " + std::to_string(target / 3) + ", previous " +
                               std::to_string(previousFaces) + "; a level needs at most 75 %)");
            continue;
        }
        std::vector<Face> level(faces);
        for (std::size_t j = 0; j < faces; ++j) level[j] = {dst[3 * j], dst[3 * j + 1], dst[3 * j + 2]};
        levels.push_back(std::move(level));
        previousFaces = faces;
    }
    return levels;
}

std::vector<std::uint32_t> LevelOffsets(const std::vector<const std::vector<Face> *> &levels) {
    std::vector<std::uint32_t> offsets{0};
    std::size_t total = 0;
    for (const auto *level : levels) {
        total += level->size();
        if (total > std::numeric_limits<std::uint32_t>::max()) Fail("more than 2^32 faces");
        offsets.push_back(static_cast<std::uint32_t>(total));
    }
    return offsets;
}

// Static meshes: one vertex pool shared by every level, without the vertices no face uses.
void BuildStatic(RobloxMesh &mesh, const BuildInput &input, const std::vector<const std::vector<Face> *> &levels) {
    const std::size_t n = input.vertices.size();
    std::vector<std::uint32_t> remap(n, kNone);
    for (const auto *level : levels)
        for (const Face &f : *level) remap[f.a] = remap[f.b] = remap[f.c] = 0;
    std::uint32_t next = 0;
    for (std::uint32_t &r : remap)
        if (r != kNone) r = next++;
    mesh.vertices.reserve(next);
    for (std::size_t i = 0; i < n; ++i)
        if (remap[i] != kNone) mesh.vertices.push_back(input.vertices[i]);

    std::size_t total = 0;
    for (const auto *level : levels) total += level->size();
    mesh.faces.reserve(total);
    for (const auto *level : levels)
        for (const Face &f : *level) mesh.faces.push_back({remap[f.a], remap[f.b], remap[f.c]});
}

// Skinned meshes: per level, runs of faces whose bones fit one subset (≤ 26), each with its own copy of
// the vertices it references, so a subset's local bone indices are unambiguous (§7, §14.4).
using QuantizedInfluences = std::vector<std::array<std::pair<std::uint32_t, std::uint8_t>, 4>>;

// Bones, parents first (with their names in one NUL-separated block); returns input bone -> sorted index.
std::vector<std::uint32_t> SortedBones(RobloxMesh &mesh, const BuildInput &input) {
    const std::size_t nb = input.bones.size();
    const std::vector<std::uint32_t> order = SortBonesParentsFirst(input.bones);
    std::vector<std::uint32_t> rank(nb);
    for (std::uint32_t i = 0; i < nb; ++i) rank[order[i]] = i;
    mesh.bones.resize(nb);
    for (std::uint32_t i = 0; i < nb; ++i) {
        const BoneInput &in = input.bones[order[i]];
        Bone &b = mesh.bones[i];
        b.name = in.name;
        b.parent = in.parent < 0 ? kNoBone : static_cast<std::uint16_t>(rank[static_cast<std::size_t>(in.parent)]);
        b.lodParent = b.parent;
        b.rotation = in.rotation;
        b.position = in.position;
        if (mesh.boneNames.size() + in.name.size() + 1 > std::numeric_limits<std::uint32_t>::max())
            Fail("bone names exceed 4 GiB");
        b.nameOffset = static_cast<std::uint32_t>(mesh.boneNames.size());
        mesh.boneNames.insert(mesh.boneNames.end(), in.name.begin(), in.name.end());
        mesh.boneNames.push_back(0);
    }
    return rank;
}

// Quantised influences of every vertex the faces use, on the sorted bone indices; unweighted vertices are
// bound to the root.
QuantizedInfluences QuantizeInfluences(RobloxMesh &mesh, const BuildInput &input, const std::vector<std::uint8_t> &used,
                                       const std::vector<std::uint32_t> &rank) {
    const std::size_t n = input.vertices.size();
    QuantizedInfluences quant(n);
    std::vector<Influence> scratch;
    std::size_t unweighted = 0;
    for (std::size_t i = 0; i < n; ++i) {
        if (!used[i]) continue;
        scratch.clear();
        for (const Influence &inf : input.influences[i]) scratch.push_back({rank[inf.bone], inf.weight});
        quant[i] = QuantizeWeights(scratch);
        if (quant[i][0].second == 0) {
            quant[i][0] = {0, 255}; // sorted bone 0 is a root
            ++unweighted;
        }
    }
    if (unweighted > 0)
        mesh.warnings.push_back(std::to_string(unweighted) +
                                " vertices have no bone weights; bound fully to root bone '" + mesh.bones[0].name +
                                "'");
    return quant;
}

// Culling: the farthest influenced vertex from each bone's bind position.
void BoneCulling(RobloxMesh &mesh, const BuildInput &input, const std::vector<std::uint8_t> &used,
                 const QuantizedInfluences &quant) {
    const std::size_t n = input.vertices.size();
    for (std::size_t i = 0; i < n; ++i) {
        if (!used[i]) continue;
        const Vertex &v = input.vertices[i];
        for (const auto &[bone, weight] : quant[i]) {
            if (weight == 0) break;
            Bone &b = mesh.bones[bone];
            const float dx = v.px - b.position[0], dy = v.py - b.position[1], dz = v.pz - b.position[2];
            b.culling = std::max(b.culling, std::sqrt(dx * dx + dy * dy + dz * dz));
        }
    }
}

// Subsets of at most kMaxBonesPerSubset bones each, level by level; vertices are repeated per subset with
// their influences on the subset's local bone indices.
void BuildSubsets(RobloxMesh &mesh, const BuildInput &input, const std::vector<const std::vector<Face> *> &levels,
                  const QuantizedInfluences &quant) {
    const std::size_t n = input.vertices.size();
    const std::size_t nb = input.bones.size();
    // Subsets. Stamps (the subset number) mark membership so nothing is cleared between subsets.
    std::vector<std::uint32_t> boneStamp(nb, kNone);
    std::vector<std::uint8_t> boneLocal(nb, 0);
    std::vector<std::uint32_t> vertStamp(n, kNone);
    std::vector<std::uint32_t> vertNew(n, 0);
    std::size_t totalFaces = 0;
    for (const auto *level : levels) totalFaces += level->size();
    mesh.faces.reserve(totalFaces);
    mesh.vertices.reserve(n);
    mesh.envelopes.reserve(n);

    std::uint32_t stamp = 0;
    for (const auto *level : levels) {
        std::size_t i = 0;
        while (i < level->size()) {
            Subset sub;
            sub.boneIndices.fill(kNoBone);
            sub.facesBegin = static_cast<std::uint32_t>(mesh.faces.size());
            sub.vertsBegin = static_cast<std::uint32_t>(mesh.vertices.size());
            std::size_t numBones = 0;
            for (; i < level->size(); ++i) {
                const Face &f = (*level)[i];
                // The bones this face would add (at most 3 vertices x 4 influences).
                std::array<std::uint32_t, 12> added{};
                std::size_t numAdded = 0;
                for (std::uint32_t v : {f.a, f.b, f.c})
                    for (const auto &[bone, weight] : quant[v]) {
                        if (weight == 0) break;
                        if (boneStamp[bone] == stamp) continue;
                        if (std::find(added.begin(), added.begin() + numAdded, bone) == added.begin() + numAdded)
                            added[numAdded++] = bone;
                    }
                if (numBones + numAdded > kMaxBonesPerSubset) break; // never empty: a face adds at most 12
                for (std::size_t k = 0; k < numAdded; ++k) {
                    boneStamp[added[k]] = stamp;
                    boneLocal[added[k]] = static_cast<std::uint8_t>(numBones);
                    sub.boneIndices[numBones++] = static_cast<std::uint16_t>(added[k]);
                }
                std::uint32_t idx[3];
                int corner = 0;
                for (std::uint32_t v : {f.a, f.b, f.c}) {
                    if (vertStamp[v] != stamp) {
                        if (mesh.vertices.size() >= std::numeric_limits<std::uint32_t>::max())
                            Fail("skin subsets need more than 2^32 vertices");
                        vertStamp[v] = stamp;
                        vertNew[v] = static_cast<std::uint32_t>(mesh.vertices.size());
                        mesh.vertices.push_back(input.vertices[v]);
                        Envelope e;
                        for (std::size_t k = 0; k < 4; ++k) {
                            const auto &[bone, weight] = quant[v][k];
                            if (weight == 0) break;
                            e.bones[k] = boneLocal[bone];
                            e.weights[k] = weight;
                        }
                        mesh.envelopes.push_back(e);
                    }
                    idx[corner++] = vertNew[v];
                }
                mesh.faces.push_back({idx[0], idx[1], idx[2]});
            }
            sub.facesLength = static_cast<std::uint32_t>(mesh.faces.size() - sub.facesBegin);
            sub.vertsLength = static_cast<std::uint32_t>(mesh.vertices.size() - sub.vertsBegin);
            sub.numBoneIndices = static_cast<std::uint32_t>(numBones);
            mesh.subsets.push_back(sub);
            if (stamp == kNone - 1) Fail("too many skin subsets");
            ++stamp;
        }
    }
}

void BuildSkinned(RobloxMesh &mesh, const BuildInput &input, const std::vector<const std::vector<Face> *> &levels) {
    const std::vector<std::uint32_t> rank = SortedBones(mesh, input);
    std::vector<std::uint8_t> used(input.vertices.size(), 0);
    for (const auto *level : levels)
        for (const Face &f : *level) used[f.a] = used[f.b] = used[f.c] = 1;
    const QuantizedInfluences quant = QuantizeInfluences(mesh, input, used, rank);
    BoneCulling(mesh, input, used, quant);
    BuildSubsets(mesh, input, levels, quant);
}

// Whether the FACS blob parses and names only bones of the skeleton (§14.5); `why` says what failed.
bool FacsUsable(const Facs &facs, const std::vector<BoneInput> &bones, std::string &why) {
    // Parsed once: the scene's metadata reader already did it (Facs::parsed); parse here only without that.
    std::string error;
    std::optional<FacsData> reparsed;
    if (!facs.parsed) reparsed = ParseFacs(facs.blob, &error);
    const std::optional<FacsData> &parsed = facs.parsed ? facs.parsed : reparsed;
    if (!parsed) {
        why = "its data does not parse (" + error + ")";
        return false;
    }
    std::unordered_set<std::string> names;
    names.reserve(bones.size());
    for (const BoneInput &b : bones) names.insert(b.name);
    for (const std::string &name : parsed->faceBoneNames)
        if (names.count(name) == 0) {
            why = "face bone '" + name + "' is not in the skeleton";
            return false;
        }
    return true;
}

} // namespace

std::string AutoVersion(const BuildInput &input) {
    const bool skinned = IsSkinned(input);
    if (skinned && input.facs && !input.facs->blob.empty()) return "5.00";
    if (skinned) return "4.00";
    if (input.lods.size() > 1) return "3.00";
    return "2.00";
}

std::array<std::pair<std::uint32_t, std::uint8_t>, 4> QuantizeWeights(const std::vector<Influence> &influences) {
    std::array<std::pair<std::uint32_t, std::uint8_t>, 4> out{};
    // Merge repeated bones (a file never repeats one) and drop weightless entries.
    std::vector<std::pair<std::uint32_t, double>> merged;
    merged.reserve(influences.size());
    for (const Influence &inf : influences) {
        if (!(inf.weight > 0) || !std::isfinite(inf.weight)) continue;
        auto it = std::find_if(merged.begin(), merged.end(), [&](const auto &m) { return m.first == inf.bone; });
        if (it != merged.end())
            it->second += inf.weight;
        else
            merged.emplace_back(inf.bone, inf.weight);
    }
    if (merged.empty()) return out;
    std::stable_sort(merged.begin(), merged.end(), [](const auto &x, const auto &y) {
        return x.second != y.second ? x.second > y.second : x.first < y.first;
    });
    if (merged.size() > 4) merged.resize(4);

    double sum = 0;
    for (const auto &m : merged) sum += m.second;
    struct Slot {
        std::uint32_t bone;
        int q;
        double remainder;
    };
    std::array<Slot, 4> slots{};
    int total = 0;
    for (std::size_t k = 0; k < merged.size(); ++k) {
        const double exact = merged[k].second / sum * 255.0;
        const double floor = std::floor(exact);
        slots[k] = {merged[k].first, static_cast<int>(floor), exact - floor};
        total += slots[k].q;
    }
    // Largest remainder. Float inputs such as 0.3f are not exact, so remainders within 1e-4 count as a
    // tie, which the larger weight (earlier slot) wins rather than rounding noise.
    std::array<std::size_t, 4> byRemainder{0, 1, 2, 3};
    std::stable_sort(byRemainder.begin(), byRemainder.begin() + static_cast<std::ptrdiff_t>(merged.size()),
                     [&](std::size_t x, std::size_t y) {
                         const double d = slots[x].remainder - slots[y].remainder;
                         return std::fabs(d) > 1e-4 ? d > 0 : x < y;
                     });
    for (std::size_t k = 0; total < 255 && k < merged.size(); ++k, ++total) ++slots[byRemainder[k]].q;

    std::stable_sort(slots.begin(), slots.begin() + static_cast<std::ptrdiff_t>(merged.size()),
                     [](const Slot &x, const Slot &y) { return x.q > y.q; });
    for (std::size_t k = 0; k < merged.size(); ++k)
        if (slots[k].q > 0) out[k] = {slots[k].bone, static_cast<std::uint8_t>(slots[k].q)};
    return out;
}

// The levels written: the caller's minus empty ones (LOD0 alone when the version has no LOD table), or LOD0
// plus generated ones (kept in `generated`). Returns the LOD type to store.
std::uint16_t SelectLevels(RobloxMesh &mesh, const BuildInput &input, const BuildOptions &options, bool holdsLods,
                           std::vector<const std::vector<Face> *> &levels, std::vector<std::vector<Face>> &generated) {
    const std::string &version = mesh.version;
    levels.assign(1, &input.lods[0]);
    for (std::size_t l = 1; l < input.lods.size(); ++l) {
        if (input.lods[l].empty())
            mesh.warnings.push_back("LOD " + std::to_string(l) + " has no faces; dropped");
        else
            levels.push_back(&input.lods[l]);
    }
    if (!holdsLods && levels.size() > 1) {
        mesh.warnings.push_back(version + " has no LOD table; " + std::to_string(levels.size() - 1) +
                                " LOD levels dropped");
        levels.resize(1);
    }
    std::uint16_t lodType = levels.size() > 1 ? 3 : 0;
    if (holdsLods && levels.size() == 1 && options.generateLods && !options.lodRatios.empty()) {
        generated = GenerateLods(input.vertices, input.lods[0], options, mesh.warnings);
        for (const auto &g : generated) levels.push_back(&g);
        if (!generated.empty()) lodType = options.sloppyLods ? 4 : 3;
    }
    return lodType;
}

RobloxMesh BuildRobloxMesh(const BuildInput &input, const BuildOptions &options) {
    ValidateInput(input);
    RobloxMesh mesh;
    const bool autoVersion = options.version == "auto";
    if (!autoVersion && !IsWritable(options.version))
        Fail("cannot build version '" + options.version +
             "'; use auto, 2.00, 3.00, 3.01, 4.00, 4.01, 5.00, 6.00 or 7.00");

    // FACS is kept only when it parses and its face bones exist (§14.5); auto mode then falls back to 4.00.
    const bool hasFacs = input.facs && !input.facs->blob.empty();
    bool facsUsable = false;
    std::string facsProblem;
    if (hasFacs) {
        if (!IsSkinned(input))
            facsProblem = "the mesh has no skeleton";
        else
            facsUsable = FacsUsable(*input.facs, input.bones, facsProblem);
    }
    std::string version = options.version;
    if (autoVersion) {
        version = AutoVersion(input);
        if (version == "5.00" && !facsUsable) version = "4.00";
    }
    mesh.version = version;
    const int major = version[0] - '0';
    const bool holdsLods = major >= 3, holdsSkin = major >= 4, holdsFacs = major >= 5, holdsHsravis = major >= 6;

    std::vector<const std::vector<Face> *> levels;
    std::vector<std::vector<Face>> generated;
    const std::uint16_t lodType = SelectLevels(mesh, input, options, holdsLods, levels, generated);

    bool skinned = IsSkinned(input);
    if (!input.bones.empty() && input.influences.empty())
        mesh.warnings.push_back("the skeleton has no vertex weights; written without skinning");
    if (skinned && !holdsSkin) {
        mesh.warnings.push_back(version + " cannot hold skinning; " + std::to_string(input.bones.size()) +
                                " bones dropped");
        skinned = false;
    }
    if (skinned)
        BuildSkinned(mesh, input, levels);
    else
        BuildStatic(mesh, input, levels);

    if (holdsLods) mesh.lodOffsets = LevelOffsets(levels);
    mesh.lodType = holdsLods ? lodType : 0;
    mesh.numHighQualityLODs = major >= 4 ? 1 : 0;
    mesh.vertexSize = 40;

    if (hasFacs) {
        if (!facsUsable)
            mesh.warnings.push_back("FACS data dropped: " + facsProblem);
        else if (!holdsFacs || !skinned)
            mesh.warnings.push_back(version + " cannot hold FACS data; dropped");
        else
            mesh.facs = input.facs;
    }
    if (input.hsravis) {
        if (holdsHsravis)
            mesh.hsravis = input.hsravis;
        else
            mesh.warnings.push_back(version + " cannot hold HSRAVIS data; dropped");
    }
    return mesh;
}

} // namespace gamefmt::rbxmesh
