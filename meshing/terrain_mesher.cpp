// Dense, chunk-parallel surface nets (docs/formats/roblox-terrain.md §8.2, §8.3) with error-bounded simplification.
//
// Each chunk is meshed on its own from flat arrays: the inside/exposed state of its voxels and a two-voxel apron
// read from its 26 neighbours is packed into one 64-bit mask per row of x, so faces and uniform regions are found a
// row at a time (no hashing, no per-voxel branches over air or rock), and the dual vertices live in a table indexed
// by position within the chunk. A chunk emits the quads of its own inside voxels; the apron lets it compute every
// vertex those quads use, with the normal summed over all quads around it (those of the neighbours included), so
// the chunks need nothing from each other. Then, when an error bound is set, each material's surface of the chunk
// is simplified on its own with its borders locked: flat rectangles exactly (their inner vertices dropped), the rest
// with meshopt_simplify. The chunks' vertices are finally stitched in chunk order: a vertex on a chunk border is
// keyed by its global dual cell, so both sides share one vertex. The output is the same whatever the thread count.
#include "meshing/terrain_mesher.hpp"
#include "importers/roblox_model/geometry/terrain.hpp"

#include <meshoptimizer.h>

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define GAMEFMT_TERRAIN_SSE2 1
#else
#define GAMEFMT_TERRAIN_SSE2 0
#endif

#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstring>
#include <exception>
#include <system_error>
#include <thread>
#include <unordered_map>
#include <unordered_set>

namespace gamefmt::rbx {
namespace {

constexpr int kApron = 2;
constexpr std::uint32_t kNone = 0xFFFFFFFFu;
constexpr std::uint64_t kNoKey = ~std::uint64_t{0};
constexpr std::uint64_t kWaterKey = std::uint64_t{1} << 63; // keys of the water pass's vertices
// meshoptimizer's error is a quadric estimate (about a mean distance), not a bound on the largest one: measured
// against the full surface (bench_terrain.cpp, docs/performance.md), the largest distance came out about twice
// what it was asked for, so it is asked for half the bound.
constexpr float kMeshoptShare = 0.5f;

// The index of the lowest set bit of a non-zero mask.
int LowestBit(std::uint64_t bits) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_ctzll(bits);
#else
    int i = 0;
    for (; (bits & 1) == 0; bits >>= 1) ++i;
    return i;
#endif
}

// Open addressing with linear probing, from keys (never kNoKey) to vertex indices: the stitching's table (a node
// per entry, as std::unordered_map allocates, was a fifth of the import on a big map).
class KeyTable {
public:
    explicit KeyTable(std::size_t expected) {
        std::size_t capacity = 16;
        while (capacity < expected * 2) capacity <<= 1;
        mKeys.assign(capacity, kNoKey);
        mValues.resize(capacity);
        mMask = capacity - 1;
    }
    // The value stored for `key`, storing `value` first if there is none.
    std::uint32_t findOrInsert(std::uint64_t key, std::uint32_t value) {
        std::uint64_t h = key ^ (key >> 33);
        h *= 0xFF51AFD7ED558CCDull;
        h ^= h >> 33;
        for (std::size_t i = static_cast<std::size_t>(h) & mMask;; i = (i + 1) & mMask) {
            if (mKeys[i] == key) return mValues[i];
            if (mKeys[i] == kNoKey) {
                mKeys[i] = key;
                mValues[i] = value;
                return value;
            }
        }
    }

private:
    std::vector<std::uint64_t> mKeys;
    std::vector<std::uint32_t> mValues;
    std::size_t mMask = 0;
};

// ------------------------------------------------------------------ coarse chunks (stride 2 and 4, §8.4)

// A coarse voxel takes the most frequent solid material of its s³ block and the mean amounts (Air counting 0),
// stored like a fine voxel: occupancy byte = amount × 256 − 1, liquid byte = liquid amount × 256 (capped at 255).
TerrainChunk CoarseChunk(const TerrainChunk &c, int s) {
    TerrainChunk out;
    out.position = c.position;
    out.hasSolid = c.hasSolid;
    out.hasLiquid = c.hasLiquid;
    if (c.uniform()) {
        out.isUniform = true;
        out.uniformMaterial = c.uniformMaterial;
        out.uniformOccupancy = c.uniformOccupancy;
        out.layered = true;
        out.layers = c.layers;
        return out;
    }
    const int n = kTerrainChunkEdge / s, block = s * s * s;
    const auto cells = static_cast<std::size_t>(n) * n * n;
    out.material.resize(cells);
    out.occupancy.resize(cells);
    bool anyLiquid = false;
    std::vector<std::uint8_t> liquid(cells, 0);
    // A layered chunk's coarse layers are layered too: one coarse voxel per layer, copied across it.
    const int across = c.layered ? 1 : n;
    for (int y = 0; y < n; ++y)
        for (int z = 0; z < across; ++z)
            for (int x = 0; x < across; ++x) {
                std::uint32_t counts[64] = {};
                std::uint32_t solid = 0, wet = 0;
                for (int dy = 0; dy < s; ++dy)
                    for (int dz = 0; dz < s; ++dz)
                        for (int dx = 0; dx < s; ++dx) {
                            const std::size_t i = (static_cast<std::size_t>(y * s + dy) * kTerrainChunkEdge +
                                                   static_cast<std::size_t>(z * s + dz)) *
                                                      kTerrainChunkEdge +
                                                  static_cast<std::size_t>(x * s + dx);
                            const std::uint8_t m = c.materialAt(i);
                            const std::uint32_t amount = c.occupancyAt(i) + 1u;
                            ++counts[m & 63];
                            if (m >= 2) solid += amount;
                            if (m == kTerrainWater) wet += amount;
                            if (c.liquidAt(i) != 0) wet += c.liquidAt(i);
                        }
                std::uint8_t best = 0;
                for (std::uint8_t m = 2; m < 64; ++m)
                    if (counts[m] > (best == 0 ? 0u : counts[best])) best = m;
                const std::size_t o =
                    (static_cast<std::size_t>(y) * n + static_cast<std::size_t>(z)) * n + static_cast<std::size_t>(x);
                const std::uint32_t meanWet = wet / static_cast<std::uint32_t>(block);
                if (best != 0) {
                    out.material[o] = best;
                    const std::uint32_t mean = std::max<std::uint32_t>(solid / static_cast<std::uint32_t>(block), 1);
                    out.occupancy[o] = static_cast<std::uint8_t>(std::min<std::uint32_t>(mean, 256) - 1);
                    liquid[o] = static_cast<std::uint8_t>(std::min<std::uint32_t>(meanWet, 255));
                    anyLiquid = anyLiquid || liquid[o] != 0;
                } else if (meanWet != 0) {
                    out.material[o] = kTerrainWater;
                    out.occupancy[o] = static_cast<std::uint8_t>(std::min<std::uint32_t>(meanWet, 256) - 1);
                } else {
                    out.material[o] = kTerrainAir;
                    out.occupancy[o] = 255;
                }
            }
    if (c.layered) {
        const auto layer = static_cast<std::size_t>(n) * static_cast<std::size_t>(n);
        for (std::size_t y = 0; y < static_cast<std::size_t>(n); ++y) {
            const std::size_t o = y * layer;
            std::fill(out.material.begin() + static_cast<std::ptrdiff_t>(o),
                      out.material.begin() + static_cast<std::ptrdiff_t>(o + layer), out.material[o]);
            std::fill(out.occupancy.begin() + static_cast<std::ptrdiff_t>(o),
                      out.occupancy.begin() + static_cast<std::ptrdiff_t>(o + layer), out.occupancy[o]);
            out.layers[y] = static_cast<std::uint16_t>(out.material[o] << 8 | out.occupancy[o]);
        }
        out.layered = !anyLiquid;
    }
    if (anyLiquid) out.liquid = std::move(liquid);
    return out;
}

// ------------------------------------------------------------------ one chunk

struct Rules {
    bool water;
    bool inside(std::uint8_t m, std::uint8_t liquid) const {
        return water ? m == kTerrainWater || liquid != 0 : m >= 2;
    }
    // Faces are emitted against this neighbour: anything not inside (solid pass), Air (water: no faces against
    // solids, §8.3; Air never holds liquid).
    bool exposed(std::uint8_t m) const { return water ? m == kTerrainAir : m < 2; }
    // Amount × 256 (1…256).
    std::uint32_t amount(std::uint8_t m, std::uint8_t occupancy, std::uint8_t liquid) const {
        if (water && m != kTerrainWater) return liquid;
        return occupancy + 1u;
    }
};

struct ChunkOutput {
    std::vector<Vector3> positions, normals;
    std::vector<std::uint64_t> keys; // global dual cell key of a vertex another chunk may share, else kNoKey
    std::vector<std::pair<std::uint8_t, std::vector<std::uint32_t>>> triangles; // by material
    std::uint64_t fullTriangles = 0;
    float error = 0;
};

int PopCount(std::uint64_t bits) {
#if defined(__GNUC__) || defined(__clang__)
    return __builtin_popcountll(bits);
#else
    int n = 0;
    for (; bits != 0; bits &= bits - 1) ++n;
    return n;
#endif
}

// Bit x of the result is bit x + d of `mask` (d = −1, 0, 1).
std::uint64_t Shifted(std::uint64_t mask, int d) {
    return d > 0 ? mask >> 1 : (d < 0 ? mask << 1 : mask);
}

class ChunkMesher {
public:
    ChunkMesher(int edge, float cell, float error, bool shortcut)
        : mN(edge), mW(edge + 2 * kApron), mCell(cell), mError(error), mShortcut(shortcut) {
        const auto rows = static_cast<std::size_t>(mW) * mW;
        mInside.resize(rows);
        mExposed.resize(rows);
        mKeys.resize(rows * static_cast<std::size_t>(mW));
        mKeyStamp.assign(rows, 0);
        mKeyUniform.assign(rows, 0);
        const auto cells = static_cast<std::size_t>(mW - 1) * (mW - 1) * (mW - 1);
        mStamp.assign(cells, 0);
        mVertex.resize(cells);
        for (auto &s : mSkipped) s.assign(static_cast<std::size_t>(mN + 2) * (mN + 2), 0);
        mTris.resize(64);
        mFlatTris.resize(64);
    }

    // Meshes chunk `self` (neighbours[13]) of the 3×3×3 block `neighbours` (index (dx+1)·9 + (dy+1)·3 + dz+1,
    // nullptr = missing = Air).
    void run(const TerrainChunk *const neighbours[27], bool water, ChunkOutput &out) {
        mNb = neighbours;
        mRules = Rules{water};
        if (skippable()) return;
        ++mGeneration;
        for (int a = 0; a < 3; ++a) mOrigin[a] = std::int64_t(self().position[a]) * mN;
        if (mError > 0 && mShortcut && layeredAround()) {
            meshLayered(water, out);
            return;
        }
        buildMasks();
        mPositions.clear();
        mNormals.clear();
        mInfo.clear();
        mGroups.clear();
        mGroupIndex.clear();
        mLastGroup = ~std::size_t{0};
        mUsed = 0;
        mAnySkipped = false;
        const std::uint64_t quads = emitQuads();
        if (quads == 0) return;
        mergeGroups();
        addSkippedNormals();
        for (Vector3 &n : mNormals) {
            const float length = std::sqrt(n.x * n.x + n.y * n.y + n.z * n.z);
            n = length > 0 ? Vector3{n.x / length, n.y / length, n.z / length} : Vector3{0, 1, 0};
        }
        out.fullTriangles += 2 * quads;
        finish(water, out);
    }

private:
    struct VertexInfo {
        std::int16_t cell[3];
        std::int16_t cleanAxis; // the axis whose four edges alone change sign, or −1 (also for a fan's centre)
        std::int16_t cleanDir;  // +1: the low side is inside, −1: the high side
        bool centre;            // a fan's centre: no cell
    };

    // Flat quads of one plane whose voxels share one key: bit b of rows[c] is the quad of the inside voxel at
    // (b, c) in the plane's cyclic axes.
    struct Group {
        int axis, dir, layer;
        std::uint8_t material;
        std::uint64_t rows[64];
    };

    const TerrainChunk &self() const { return *mNb[13]; }

    // The voxel at chunk-local (x, y, z), x, y, z ∈ [−2, n + 1].
    void sample(int x, int y, int z, std::uint8_t &m, std::uint8_t &occupancy, std::uint8_t &liquid) const {
        const int dx = x < 0 ? -1 : (x >= mN ? 1 : 0), dy = y < 0 ? -1 : (y >= mN ? 1 : 0),
                  dz = z < 0 ? -1 : (z >= mN ? 1 : 0);
        const TerrainChunk *c = mNb[(dx + 1) * 9 + (dy + 1) * 3 + dz + 1];
        if (c == nullptr) {
            m = kTerrainAir;
            occupancy = 255;
            liquid = 0;
            return;
        }
        const int index = ((y - dy * mN) * mN + (z - dz * mN)) * mN + (x - dx * mN);
        const auto i = static_cast<std::size_t>(index);
        m = c->materialAt(i);
        occupancy = c->occupancyAt(i);
        liquid = c->liquidAt(i);
    }

    // What decides a flat quad's plane and material: the inside voxel's material and amount.
    std::uint32_t voxelKey(std::uint8_t m, std::uint8_t occupancy, std::uint8_t liquid) const {
        const std::uint32_t amount = mRules.amount(m, occupancy, liquid);
        return mRules.water ? amount : (std::uint32_t{m} << 9 | amount);
    }

    // The keys of row (y, z), x ∈ [−2, n + 1], computed once per pass.
    const std::uint32_t *keyRow(int y, int z) {
        const std::size_t row = static_cast<std::size_t>(y + kApron) * mW + static_cast<std::size_t>(z + kApron);
        std::uint32_t *keys = &mKeys[row * static_cast<std::size_t>(mW)];
        if (mKeyStamp[row] == mGeneration) return keys;
        mKeyStamp[row] = mGeneration;
        bool same = true;
        for (int x = -kApron; x < mN + kApron; ++x) {
            std::uint8_t m, occupancy, liquid;
            sample(x, y, z, m, occupancy, liquid);
            keys[x + kApron] = voxelKey(m, occupancy, liquid);
            same = same && keys[x + kApron] == keys[0];
        }
        mKeyUniform[row] = same ? 1 : 0;
        return keys;
    }
    bool keyRowUniform(int y, int z) const {
        return mKeyUniform[static_cast<std::size_t>(y + kApron) * mW + static_cast<std::size_t>(z + kApron)] != 0;
    }

    // Whether the chunk and its 26 neighbours are layered with the same layers across each slab of nine (the two
    // layers the apron reads of the slabs above and below): then the apron box is one value per y level and the
    // surface is whole horizontal layers of flat quads (a sea floor, a sea, a plain).
    bool layeredAround() {
        static const TerrainChunk kAir = [] { // a missing chunk
            TerrainChunk c;
            c.layered = true;
            c.layers.fill(std::uint16_t{kTerrainAir} << 8 | 255);
            return c;
        }();
        const auto at = [&](int k) -> const TerrainChunk & { return mNb[k] != nullptr ? *mNb[k] : kAir; };
        for (int k = 0; k < 27; ++k)
            if (!at(k).layered) return false;
        for (int dy = 0; dy < 3; ++dy) {
            const TerrainChunk &first = at(dy * 3);
            const int from = dy == 0 ? mN - kApron : 0, to = dy == 2 ? kApron : mN;
            for (int dx = 0; dx < 3; ++dx)
                for (int dz = 0; dz < 3; ++dz) {
                    const TerrainChunk &c = at(dx * 9 + dy * 3 + dz);
                    for (int y = from; y < to; ++y)
                        if (c.layers[static_cast<std::size_t>(y)] != first.layers[static_cast<std::size_t>(y)])
                            return false;
                }
        }
        for (int y = -kApron; y < mN + kApron; ++y) {
            const int dy = y < 0 ? 0 : (y >= mN ? 2 : 1);
            const std::uint16_t v = at(dy * 3 + 1 + 9).layers[static_cast<std::size_t>(y - (dy - 1) * mN)];
            const auto m = static_cast<std::uint8_t>(v >> 8), occupancy = static_cast<std::uint8_t>(v & 255);
            mLevelInside[y + kApron] = mRules.inside(m, 0);
            mLevelExposed[y + kApron] = mRules.exposed(m);
            mLevelAmount[y + kApron] = mRules.amount(m, occupancy, 0);
            mLevelMaterial[y + kApron] = mRules.water ? kTerrainWater : m;
        }
        return true;
    }

    // The layered chunk's surface: for each level y of the chunk inside with an exposed level above (+y) or below
    // (−y), one n × n rectangle of flat quads as a fan over its 4n border vertices (all on the chunk's border, so
    // locked for the stitching), normals straight up or down: what the general path makes of it, without it.
    void meshLayered(bool water, ChunkOutput &out) {
        mPositions.clear();
        mNormals.clear();
        mInfo.clear();
        mUsed = 0;
        std::uint64_t quads = 0;
        for (int y = 0; y < mN; ++y) {
            if (!mLevelInside[y + kApron]) continue;
            for (const int dir : {1, -1}) {
                if (!mLevelExposed[y + dir + kApron]) continue;
                quads += static_cast<std::uint64_t>(mN) * static_cast<std::uint64_t>(mN);
                const int layer = dir > 0 ? y : y - 1; // the cells' y
                bool in[8];
                std::uint32_t amount[8];
                for (int c = 0; c < 8; ++c) {
                    const int level = layer + (c >> 1 & 1) + kApron;
                    in[c] = mLevelInside[level];
                    amount[c] = in[c] ? mLevelAmount[level] : 0;
                }
                // The ring as fan() walks it for axis y (b = z, c = x), rectangle (0, 0, n, n).
                mRing.clear();
                const auto ringVertex = [&](int bz, int cx) {
                    mRing.push_back(static_cast<std::uint32_t>(mPositions.size()));
                    mPositions.push_back(dualVertex(cx, layer, bz, in, amount));
                    mNormals.push_back({0, static_cast<float>(dir), 0});
                    mInfo.push_back({{static_cast<std::int16_t>(cx), static_cast<std::int16_t>(layer),
                                      static_cast<std::int16_t>(bz)},
                                     1,
                                     static_cast<std::int16_t>(dir),
                                     false});
                };
                for (int b = -1; b <= mN - 1; ++b) ringVertex(b, -1);
                for (int c = 0; c <= mN - 1; ++c) ringVertex(mN - 1, c);
                for (int b = mN - 2; b >= -1; --b) ringVertex(b, mN - 1);
                for (int c = mN - 2; c >= 0; --c) ringVertex(-1, c);
                if (dir < 0) std::reverse(mRing.begin(), mRing.end());
                const Vector3 lo = mPositions[mRing[dir > 0 ? 0 : mRing.size() - 1]];
                const Vector3 hi = mPositions[mRing[dir > 0 ? 2 * static_cast<std::size_t>(mN)
                                                            : 2 * static_cast<std::size_t>(mN) - 1]];
                const auto centre = static_cast<std::uint32_t>(mPositions.size());
                mPositions.push_back({(lo.x + hi.x) / 2, (lo.y + hi.y) / 2, (lo.z + hi.z) / 2});
                mNormals.push_back({0, static_cast<float>(dir), 0});
                mInfo.push_back({{0, 0, 0}, -1, 0, true});
                trianglesOf(mLevelMaterial[y + kApron]);
                std::vector<std::uint32_t> &tris = mFlatTris[mLevelMaterial[y + kApron] & 63];
                for (std::size_t i = 0; i < mRing.size(); ++i)
                    tris.insert(tris.end(), {centre, mRing[i], mRing[(i + 1) % mRing.size()]});
            }
        }
        if (quads == 0) return;
        out.fullTriangles += 2 * quads;
        finish(water, out);
    }

    // A chunk without an inside voxel has no quads; nor has a uniform inside chunk whose six face neighbours are
    // uniform and unexposed (solid rock in rock, deep water). Both are most of a real map.
    bool skippable() const {
        const TerrainChunk &c = self();
        if (!(mRules.water ? c.hasLiquid : c.hasSolid)) return true; // no inside voxel
        if (!c.uniform()) return false;
        if (!mRules.inside(c.uniformMaterial, 0)) return true;
        for (const int k : {4, 22, 10, 16, 12, 14}) {
            const TerrainChunk *nb = mNb[k];
            if (nb == nullptr || !nb->uniform() || mRules.exposed(nb->uniformMaterial)) return false;
        }
        return true;
    }

    std::size_t rowIndex(int y, int z) const {
        return static_cast<std::size_t>(y + kApron) * mW + static_cast<std::size_t>(z + kApron);
    }
    std::uint64_t insideRow(int y, int z) const { return mInside[rowIndex(y, z)]; }
    std::uint64_t exposedRow(int y, int z) const { return mExposed[rowIndex(y, z)]; }
    bool insideAt(int x, int y, int z) const { return (insideRow(y, z) >> (x + kApron) & 1) != 0; }

    // The inside and exposed bits of row (y, z) ∈ [0, n)² of chunk `c` (nullptr = Air), bit x for voxel x.
    void rowMask(const TerrainChunk *c, int y, int z, std::uint64_t &in, std::uint64_t &ex) const {
        const std::uint64_t all = (std::uint64_t{1} << mN) - 1;
        if (c == nullptr) {
            in = 0;
            ex = all;
            return;
        }
        if (c->compact()) { // one value per layer
            const auto m = static_cast<std::uint8_t>(c->layers[static_cast<std::size_t>(y)] >> 8);
            in = mRules.inside(m, 0) ? all : 0;
            ex = mRules.exposed(m) ? all : 0;
            return;
        }
        const std::size_t base = (static_cast<std::size_t>(y) * mN + static_cast<std::size_t>(z)) * mN;
        const std::uint8_t *m = c->material.data() + base;
        const std::uint8_t *l = c->liquid.empty() ? nullptr : c->liquid.data() + base;
        in = 0;
        ex = 0;
        int x = 0;
#if GAMEFMT_TERRAIN_SSE2
        for (; x + 16 <= mN; x += 16) {
            const __m128i v = _mm_loadu_si128(reinterpret_cast<const __m128i *>(m + x));
            std::uint32_t i, e;
            if (mRules.water) {
                __m128i wet = _mm_cmpeq_epi8(v, _mm_set1_epi8(static_cast<char>(kTerrainWater)));
                if (l != nullptr) {
                    const __m128i liquid = _mm_loadu_si128(reinterpret_cast<const __m128i *>(l + x));
                    wet = _mm_or_si128(wet,
                                       _mm_xor_si128(_mm_cmpeq_epi8(liquid, _mm_setzero_si128()), _mm_set1_epi8(-1)));
                }
                i = static_cast<std::uint32_t>(_mm_movemask_epi8(wet));
                e = static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpeq_epi8(v, _mm_setzero_si128())));
            } else { // material ids are below 64: a signed compare is right
                i = static_cast<std::uint32_t>(_mm_movemask_epi8(_mm_cmpgt_epi8(v, _mm_set1_epi8(1))));
                e = ~i & 0xFFFFu;
            }
            in |= std::uint64_t{i} << x;
            ex |= std::uint64_t{e} << x;
        }
#endif
        for (; x < mN; ++x) {
            const std::uint8_t liquid = l != nullptr ? l[x] : 0;
            in |= std::uint64_t{mRules.inside(m[x], liquid)} << x;
            ex |= std::uint64_t{mRules.exposed(m[x])} << x;
        }
    }

    // One bit per voxel of every row of the apron box (bit x + 2 for x ∈ [−2, n + 1]): inside, and exposed (the
    // pass's face rule); the two voxels at each end come from the neighbours' rows.
    void buildMasks() {
        const std::uint64_t two = 3;
        for (int y = -kApron; y < mN + kApron; ++y)
            for (int z = -kApron; z < mN + kApron; ++z) {
                const int dy = y < 0 ? -1 : (y >= mN ? 1 : 0), dz = z < 0 ? -1 : (z >= mN ? 1 : 0);
                const int ly = y - dy * mN, lz = z - dz * mN, column = (dy + 1) * 3 + dz + 1;
                std::uint64_t in, ex, inL, exL, inR, exR;
                rowMask(mNb[9 + column], ly, lz, in, ex);
                rowMask(mNb[column], ly, lz, inL, exL);
                rowMask(mNb[18 + column], ly, lz, inR, exR);
                mInside[rowIndex(y, z)] = in << kApron | (inL >> (mN - kApron) & two) | (inR & two) << (mN + kApron);
                mExposed[rowIndex(y, z)] = ex << kApron | (exL >> (mN - kApron) & two) | (exR & two) << (mN + kApron);
            }
    }

    float centre(std::int64_t g) const {
        return mCell * (static_cast<float>(g) + 0.5f);
    }

    std::size_t cellIndex(int x, int y, int z) const {
        const auto w = static_cast<std::size_t>(mW - 1);
        return (static_cast<std::size_t>(y + kApron) * w + static_cast<std::size_t>(z + kApron)) * w +
               static_cast<std::size_t>(x + kApron);
    }

    // The position of the dual vertex of the cell at local (x, y, z) whose corners c (x + (c & 1), y + (c >> 1 & 1),
    // z + (c >> 2 & 1)) are inside or not with these amounts × 256: the mean of the crossings on its edges (§8.2
    // step 2), from global coordinates so that a neighbour computing the same cell gets the same bits.
    Vector3 dualVertex(int x, int y, int z, const bool in[8], const std::uint32_t amount[8]) const {
        const std::int64_t g[3] = {mOrigin[0] + x, mOrigin[1] + y, mOrigin[2] + z};
        float sum[3] = {0, 0, 0};
        int crossings = 0;
        for (int c = 0; c < 8; ++c)
            for (int a = 0; a < 3; ++a) {
                if ((c >> a & 1) != 0) continue;
                const int d = c | 1 << a;
                if (in[c] == in[d]) continue;
                const int inner = in[c] ? c : d, outer = in[c] ? d : c;
                const std::int64_t pin[3] = {g[0] + (inner & 1), g[1] + (inner >> 1 & 1), g[2] + (inner >> 2 & 1)};
                const std::int64_t pout[3] = {g[0] + (outer & 1), g[1] + (outer >> 1 & 1), g[2] + (outer >> 2 & 1)};
                const float t = static_cast<float>(amount[inner]) / 256.0f;
                for (int q = 0; q < 3; ++q) sum[q] += centre(pin[q]) + (centre(pout[q]) - centre(pin[q])) * t;
                ++crossings;
            }
        const float inv = crossings != 0 ? 1.0f / static_cast<float>(crossings) : 0.0f;
        return {sum[0] * inv, sum[1] * inv, sum[2] * inv};
    }

    // The dual vertex of the cell whose minimum voxel is local (x, y, z), made once per pass.
    std::uint32_t vertex(int x, int y, int z) {
        const std::size_t ci = cellIndex(x, y, z);
        if (mStamp[ci] == mGeneration) return mVertex[ci];
        bool in[8];
        const std::uint64_t rows[4] = {insideRow(y, z), insideRow(y + 1, z), insideRow(y, z + 1),
                                       insideRow(y + 1, z + 1)};
        for (int c = 0; c < 8; ++c) in[c] = (rows[c >> 1] >> (x + kApron + (c & 1)) & 1) != 0;
        std::uint32_t amount[8] = {};
        for (int c = 0; c < 8; ++c)
            if (in[c]) amount[c] = keyRow(y + (c >> 1 & 1), z + (c >> 2 & 1))[x + kApron + (c & 1)] & 511u;
        const Vector3 position = dualVertex(x, y, z, in, amount);
        VertexInfo info{
            {static_cast<std::int16_t>(x), static_cast<std::int16_t>(y), static_cast<std::int16_t>(z)}, -1, 0, false};
        for (int a = 0; a < 3 && info.cleanAxis < 0; ++a) { // sign changes only along a, all the same way
            bool ok = true;
            for (int c = 0; c < 8 && ok; ++c) ok = in[c] == ((c >> a & 1) == 0 ? in[0] : !in[0]);
            if (ok) {
                info.cleanAxis = static_cast<std::int16_t>(a);
                info.cleanDir = static_cast<std::int16_t>(in[0] ? 1 : -1);
            }
        }
        const auto index = static_cast<std::uint32_t>(mPositions.size());
        mPositions.push_back(position);
        mNormals.push_back({0, 0, 0});
        mInfo.push_back(info);
        mStamp[ci] = mGeneration;
        mVertex[ci] = index;
        return index;
    }

    // §8.2 step 3 for every inside voxel S of [−1, n]³ with an exposed neighbour: the quad through the four cells
    // around the edge. All of them add to their vertices' normals; those of S inside the chunk are its output —
    // except, with an error bound, the flat ones (flatQuads), which become rectangles. Returns the chunk's quads.
    std::uint64_t emitQuads() {
        const std::uint64_t span = ((std::uint64_t{1} << (mN + 2)) - 1) << (kApron - 1); // x ∈ [−1, n]
        const std::uint64_t own = ((std::uint64_t{1} << mN) - 1) << kApron;              // x ∈ [0, n)
        std::uint64_t count = 0;
        for (int y = -1; y <= mN; ++y)
            for (int z = -1; z <= mN; ++z) {
                const std::uint64_t in = insideRow(y, z) & span;
                if (in == 0) continue;
                std::uint64_t faces[6] = {in & (exposedRow(y, z) >> 1), in & (exposedRow(y, z) << 1),
                                          in & exposedRow(y + 1, z),    in & exposedRow(y - 1, z),
                                          in & exposedRow(y, z + 1),    in & exposedRow(y, z - 1)};
                const bool inner = y >= 0 && y < mN && z >= 0 && z < mN;
                for (int f = 0; f < 6; ++f) {
                    if (faces[f] == 0) continue;
                    if (inner) count += static_cast<std::uint64_t>(PopCount(faces[f] & own));
                    if (mError > 0) faces[f] &= ~flatQuads(f, y, z, faces[f], inner ? own : 0);
                    for (std::uint64_t bits = faces[f]; bits != 0; bits &= bits - 1)
                        quad(LowestBit(bits) - kApron, y, z, f >> 1, (f & 1) != 0 ? -1 : 1);
                }
            }
        return count;
    }

    // Of the quads `candidates` of face f (axis f / 2, +a for even f) in row (y, z): those whose inside voxel's
    // 3×3 neighbourhood in the face's plane is inside, not inside one step along the face, and of the same key.
    // Their four cells change sign only along the axis and their vertices lie in one plane, so the quads inside a
    // rectangle of them can go without changing the surface. Those in `mine` (the chunk's own) are filed into their
    // plane's Group; all are marked skipped (their normals are added by addSkippedNormals: the apron's flat quads
    // only add normals, so they need no vertices either); returns them.
    std::uint64_t flatQuads(int f, int y, int z, std::uint64_t candidates, std::uint64_t mine) {
        if (candidates == 0) return 0;
        const int a = f >> 1, dir = (f & 1) != 0 ? -1 : 1;
        const std::uint32_t *own = keyRow(y, z);
        std::uint64_t flat = candidates;
        for (int d1 = -1; d1 <= 1 && flat != 0; ++d1)
            for (int d2 = -1; d2 <= 1 && flat != 0; ++d2) {
                int d[3] = {0, 0, 0};
                d[(a + 1) % 3] = d1;
                d[(a + 2) % 3] = d2;
                const int ny = y + d[1], nz = z + d[2];
                const std::uint64_t in = insideRow(ny, nz);
                std::uint64_t beyond; // inside one step along the face's direction
                if (a == 0)
                    beyond = dir > 0 ? in >> 1 : in << 1;
                else if (a == 1)
                    beyond = insideRow(ny + dir, nz);
                else
                    beyond = insideRow(ny, nz + dir);
                flat &= Shifted(in & ~beyond, d[0]);
                if (flat == 0) break;
                const std::uint32_t *other = keyRow(ny, nz);
                if (keyRowUniform(y, z) && keyRowUniform(ny, nz)) {
                    if (own[0] != other[0]) flat = 0;
                    continue;
                }
                std::uint64_t same = 0;
                for (std::uint64_t bits = flat; bits != 0; bits &= bits - 1) {
                    const int p = LowestBit(bits);
                    if (own[p] == other[p + d[0]]) same |= std::uint64_t{1} << p;
                }
                flat &= same;
            }
        if (flat == 0) return 0;
        mSkipped[f][static_cast<std::size_t>(y + 1) * (mN + 2) + static_cast<std::size_t>(z + 1)] |=
            flat >> (kApron - 1);
        mAnySkipped = true;
        const int s[3] = {0, y, z};
        for (std::uint64_t bits = flat & mine; bits != 0; bits &= bits - 1) {
            const int x = LowestBit(bits) - kApron;
            const int at[3] = {x, s[1], s[2]};
            const int layer = dir > 0 ? at[a] : at[a] - 1;
            Group &g = group(a, dir, layer, own[x + kApron], y, z, x);
            g.rows[at[(a + 2) % 3]] |= std::uint64_t{1} << at[(a + 1) % 3];
        }
        return flat;
    }

    Group &group(int a, int dir, int layer, std::uint32_t key, int y, int z, int x) {
        const std::uint64_t id = std::uint64_t{key} << 16 | static_cast<std::uint64_t>(layer + 1) << 4 |
                                 static_cast<std::uint64_t>(a) << 1 | (dir > 0 ? 1u : 0u);
        if (mLastGroup < mGroups.size() && mLastGroupId == id) return mGroups[mLastGroup];
        const auto [it, inserted] = mGroupIndex.emplace(id, static_cast<std::uint32_t>(mGroups.size()));
        if (inserted) {
            Group g{};
            g.axis = a;
            g.dir = dir;
            g.layer = layer;
            std::uint8_t m = kTerrainWater, occupancy, liquid;
            if (!mRules.water) sample(x, y, z, m, occupancy, liquid);
            g.material = m;
            mGroups.push_back(g);
        }
        mLastGroup = it->second;
        mLastGroupId = id;
        return mGroups[mLastGroup];
    }

    std::vector<std::uint32_t> &trianglesOf(std::uint8_t material) {
        mUsed |= std::uint64_t{1} << (material & 63);
        return mTris[material & 63];
    }

    void quad(int x, int y, int z, int a, int dir) {
        int lower[3] = {x, y, z};
        if (dir < 0) lower[a] -= 1;
        std::uint32_t v[4];
        cellsOf(a, dir, lower[a], x, y, z, v);
        // Area-weighted normal: half the cross product of the diagonals.
        const Vector3 p0 = mPositions[v[0]], p1 = mPositions[v[1]], p2 = mPositions[v[2]], p3 = mPositions[v[3]];
        const Vector3 d1{p2.x - p0.x, p2.y - p0.y, p2.z - p0.z}, d2{p3.x - p1.x, p3.y - p1.y, p3.z - p1.z};
        const Vector3 n{d1.y * d2.z - d1.z * d2.y, d1.z * d2.x - d1.x * d2.z, d1.x * d2.y - d1.y * d2.x};
        for (std::uint32_t i : v) {
            mNormals[i].x += n.x;
            mNormals[i].y += n.y;
            mNormals[i].z += n.z;
        }
        if (x < 0 || y < 0 || z < 0 || x >= mN || y >= mN || z >= mN) return;
        std::uint8_t m = kTerrainWater, occupancy, liquid;
        if (!mRules.water) sample(x, y, z, m, occupancy, liquid);
        std::vector<std::uint32_t> &tris = trianglesOf(m);
        tris.insert(tris.end(), {v[0], v[1], v[2], v[0], v[2], v[3]});
    }

    // The vertices C0 C1 C2 C3 (C0 C3 C2 C1 for −a) of the quad of inside voxel (x, y, z) along a (§8.2 step 3).
    void cellsOf(int a, int dir, int layer, int x, int y, int z, std::uint32_t v[4]) {
        static constexpr int kOffsets[4][2] = {{-1, -1}, {0, -1}, {0, 0}, {-1, 0}};
        const int b = (a + 1) % 3, c = (a + 2) % 3;
        for (int q = 0; q < 4; ++q) {
            int cell[3] = {x, y, z};
            cell[a] = layer;
            cell[b] += kOffsets[q][0];
            cell[c] += kOffsets[q][1];
            v[q] = vertex(cell[0], cell[1], cell[2]);
        }
        if (dir < 0) std::swap(v[1], v[3]);
    }

    std::uint32_t cellVertex(int a, int layer, int b, int c) {
        int cell[3];
        cell[a] = layer;
        cell[(a + 1) % 3] = b;
        cell[(a + 2) % 3] = c;
        return vertex(cell[0], cell[1], cell[2]);
    }

    // Greedy rectangles over each group; a rectangle of w × h quads with w + h < w·h becomes a fan from its centre
    // over its 2(w + h) border vertices (every border vertex stays: no T-junctions), the rest are quads.
    void mergeGroups() {
        for (Group &g : mGroups) {
            trianglesOf(g.material);
            std::vector<std::uint32_t> &tris = mFlatTris[g.material & 63];
            for (int c0 = 0; c0 < mN; ++c0)
                while (g.rows[c0] != 0) {
                    const int b0 = LowestBit(g.rows[c0]);
                    const std::uint64_t run = ~(g.rows[c0] >> b0);
                    const int w = run == 0 ? 64 - b0 : LowestBit(run);
                    const std::uint64_t mask = (w >= 64 ? ~std::uint64_t{0} : (std::uint64_t{1} << w) - 1) << b0;
                    int h = 1;
                    while (c0 + h < mN && (g.rows[c0 + h] & mask) == mask) ++h;
                    if (w + h >= w * h) { // a strip: its quads are no more triangles than a fan
                        g.rows[c0] &= ~mask;
                        for (int b = b0; b < b0 + w; ++b) {
                            int at[3];
                            at[g.axis] = g.dir > 0 ? g.layer : g.layer + 1;
                            at[(g.axis + 1) % 3] = b;
                            at[(g.axis + 2) % 3] = c0;
                            std::uint32_t v[4];
                            cellsOf(g.axis, g.dir, g.layer, at[0], at[1], at[2], v);
                            tris.insert(tris.end(), {v[0], v[1], v[2], v[0], v[2], v[3]});
                        }
                        continue;
                    }
                    for (int r = 0; r < h; ++r) g.rows[c0 + r] &= ~mask;
                    fan(g, b0, c0, w, h, tris);
                }
        }
    }

    void fan(const Group &g, int b0, int c0, int w, int h, std::vector<std::uint32_t> &tris) {
        const int a = g.axis, layer = g.layer;
        mRing.clear();
        for (int b = b0 - 1; b <= b0 + w - 1; ++b) mRing.push_back(cellVertex(a, layer, b, c0 - 1));
        for (int c = c0; c <= c0 + h - 1; ++c) mRing.push_back(cellVertex(a, layer, b0 + w - 1, c));
        for (int b = b0 + w - 2; b >= b0 - 1; --b) mRing.push_back(cellVertex(a, layer, b, c0 + h - 1));
        for (int c = c0 + h - 2; c >= c0; --c) mRing.push_back(cellVertex(a, layer, b0 - 1, c));
        if (g.dir < 0) std::reverse(mRing.begin(), mRing.end());
        const Vector3 lo = mPositions[cellVertex(a, layer, b0 - 1, c0 - 1)];
        const Vector3 hi = mPositions[cellVertex(a, layer, b0 + w - 1, c0 + h - 1)];
        const auto centre = static_cast<std::uint32_t>(mPositions.size());
        mPositions.push_back({(lo.x + hi.x) / 2, (lo.y + hi.y) / 2, (lo.z + hi.z) / 2});
        Vector3 normal{0, 0, 0};
        (a == 0 ? normal.x : (a == 1 ? normal.y : normal.z)) = static_cast<float>(g.dir);
        mNormals.push_back(normal);
        mInfo.push_back({{0, 0, 0}, -1, 0, true});
        for (std::size_t i = 0; i < mRing.size(); ++i)
            tris.insert(tris.end(), {centre, mRing[i], mRing[(i + 1) % mRing.size()]});
    }

    // The normals of the skipped flat quads (exactly 2·cell² along their axis, as quad() would have computed):
    // only clean cells carry them, at most four each.
    void addSkippedNormals() {
        if (!mAnySkipped) return;
        const float weight = 2 * mCell * mCell;
        for (std::size_t v = 0; v < mInfo.size(); ++v) {
            const VertexInfo &info = mInfo[v];
            if (info.cleanAxis < 0) continue;
            const int a = static_cast<int>(info.cleanAxis), b = (a + 1) % 3, c = (a + 2) % 3;
            const int f = 2 * a + (info.cleanDir > 0 ? 0 : 1);
            int count = 0;
            for (int db = 0; db <= 1; ++db)
                for (int dc = 0; dc <= 1; ++dc) {
                    int s[3];
                    s[a] = info.cell[a] + (info.cleanDir > 0 ? 0 : 1);
                    s[b] = info.cell[b] + db;
                    s[c] = info.cell[c] + dc;
                    if (s[0] < -1 || s[1] < -1 || s[2] < -1 || s[0] > mN || s[1] > mN || s[2] > mN) continue;
                    const std::uint64_t row =
                        mSkipped[f][static_cast<std::size_t>(s[1] + 1) * (mN + 2) + static_cast<std::size_t>(s[2] + 1)];
                    count += static_cast<int>(row >> (s[0] + 1) & 1);
                }
            const float add = weight * static_cast<float>(count * info.cleanDir);
            (a == 0 ? mNormals[v].x : (a == 1 ? mNormals[v].y : mNormals[v].z)) += add;
        }
        for (auto &rows : mSkipped) std::fill(rows.begin(), rows.end(), 0);
    }

    // The chunk's output: per material (in id order), its flat triangles as they are and its other triangles
    // simplified (meshopt_simplify does not see the flat rectangles: it would collapse their centres onto their
    // straight, locked borders and leave zero-area triangles there).
    void finish(bool water, ChunkOutput &out) {
        mOutIndex.assign(mPositions.size(), kNone);
        mPatchSlot.assign(mPositions.size(), kNone);
        const std::size_t base = out.positions.size();
        for (std::uint64_t used = mUsed; used != 0; used &= used - 1) {
            const auto material = static_cast<std::uint8_t>(LowestBit(used));
            std::vector<std::uint32_t> &tris = mTris[material];
            if (mError > 0 && !tris.empty()) simplify(tris, out.error);
            std::vector<std::uint32_t> &flat = mFlatTris[material];
            tris.insert(tris.end(), flat.begin(), flat.end());
            flat.clear();
            std::vector<std::uint32_t> kept;
            kept.reserve(tris.size());
            for (std::uint32_t v : tris) {
                if (mOutIndex[v] == kNone) {
                    mOutIndex[v] = static_cast<std::uint32_t>(out.positions.size() - base);
                    out.positions.push_back(mPositions[v]);
                    out.normals.push_back(mNormals[v]);
                    out.keys.push_back(key(v, water));
                }
                kept.push_back(static_cast<std::uint32_t>(base) + mOutIndex[v]);
            }
            tris.clear();
            if (!kept.empty()) out.triangles.emplace_back(material, std::move(kept));
        }
        mUsed = 0;
    }

    // Vertices on the chunk's border layers (−1 and n − 1, where the neighbours' quads reach) are keyed by their
    // global cell for the stitching; the others belong to this chunk alone.
    std::uint64_t key(std::uint32_t v, bool water) const {
        const VertexInfo &info = mInfo[v];
        if (info.centre) return kNoKey;
        bool border = false;
        for (const std::int16_t k : info.cell) border = border || k == -1 || k == mN - 1;
        if (!border) return kNoKey;
        return TerrainPositionKey(mOrigin[0] + info.cell[0], mOrigin[1] + info.cell[1], mOrigin[2] + info.cell[2]) |
               (water ? kWaterKey : 0);
    }

    // meshopt_simplify over one material's triangles of the chunk, its border locked, to the error bound.
    // meshoptimizer 0.18 may collapse a vertex onto a straight locked border and leave zero-area triangles along it
    // (its flip test passes them; in effect a T-junction). Then the ring of triangles touching the border is kept
    // as it is and only the rest is simplified; if that fails too, the patch stays unsimplified.
    void simplify(std::vector<std::uint32_t> &tris, float &worst) {
        if (runMeshopt(tris, mSimplifiedTris, worst)) {
            tris.swap(mSimplifiedTris);
            return;
        }
        mEdges.clear();
        for (std::size_t t = 0; t + 2 < tris.size(); t += 3)
            for (int k = 0; k < 3; ++k)
                mEdges.insert(std::uint64_t{tris[t + static_cast<std::size_t>(k)]} << 32 |
                              tris[t + static_cast<std::size_t>((k + 1) % 3)]);
        mBorder.assign(mPositions.size(), 0);
        for (std::size_t t = 0; t + 2 < tris.size(); t += 3)
            for (int k = 0; k < 3; ++k) {
                const std::uint32_t u = tris[t + static_cast<std::size_t>(k)],
                                    v = tris[t + static_cast<std::size_t>((k + 1) % 3)];
                if (mEdges.count(std::uint64_t{v} << 32 | u) == 0) mBorder[u] = mBorder[v] = 1;
            }
        mRingTris.clear();
        mCoreTris.clear();
        for (std::size_t t = 0; t + 2 < tris.size(); t += 3) {
            const bool ring = mBorder[tris[t]] != 0 || mBorder[tris[t + 1]] != 0 || mBorder[tris[t + 2]] != 0;
            std::vector<std::uint32_t> &to = ring ? mRingTris : mCoreTris;
            to.insert(to.end(), {tris[t], tris[t + 1], tris[t + 2]});
        }
        if (!mCoreTris.empty() && runMeshopt(mCoreTris, mSimplifiedTris, worst)) {
            tris = mRingTris;
            tris.insert(tris.end(), mSimplifiedTris.begin(), mSimplifiedTris.end());
            return;
        }
        ++mDegenerateFallbacks;
    }

    bool degenerate(const std::uint32_t *t) const {
        const float *a = &mPatchPositions[3 * std::size_t{t[0]}];
        const float *b = &mPatchPositions[3 * std::size_t{t[1]}];
        const float *c = &mPatchPositions[3 * std::size_t{t[2]}];
        const float u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
        const float w[3] = {c[0] - b[0], c[1] - b[1], c[2] - b[2]};
        const float n[3] = {u[1] * v[2] - u[2] * v[1], u[2] * v[0] - u[0] * v[2], u[0] * v[1] - u[1] * v[0]};
        const float longest =
            std::max({u[0] * u[0] + u[1] * u[1] + u[2] * u[2], v[0] * v[0] + v[1] * v[1] + v[2] * v[2],
                      w[0] * w[0] + w[1] * w[1] + w[2] * w[2]});
        return n[0] * n[0] + n[1] * n[1] + n[2] * n[2] <= 1e-10f * longest * longest;
    }

    float lengthSquared(std::uint32_t i, std::uint32_t j) const {
        const float *a = &mPatchPositions[3 * std::size_t{i}], *b = &mPatchPositions[3 * std::size_t{j}];
        return (a[0] - b[0]) * (a[0] - b[0]) + (a[1] - b[1]) * (a[1] - b[1]) + (a[2] - b[2]) * (a[2] - b[2]);
    }

    // Zero-area triangles (u, w, m with m on the segment uw, as meshoptimizer leaves along a straight locked
    // border) are undone by flipping their longest edge with the triangle across it (w, u, y): (m, u, y) and
    // (m, y, w) cover the same area with the same border. False if one remains.
    bool repairDegenerate(std::vector<std::uint32_t> &tris, std::size_t count) {
        bool any = false;
        for (std::size_t t = 0; t + 2 < count && !any; t += 3) any = degenerate(&tris[t]);
        if (!any) return true;
        const auto key = [](std::uint32_t a, std::uint32_t b) { return std::uint64_t{a} << 32 | b; };
        mEdgeOwner.clear();
        for (std::size_t t = 0; t + 2 < count; t += 3)
            for (std::size_t k = 0; k < 3; ++k)
                mEdgeOwner[key(tris[t + k], tris[t + (k + 1) % 3])] = static_cast<std::uint32_t>(t);
        for (int pass = 0; pass < 8; ++pass) {
            bool left = false;
            for (std::size_t t = 0; t + 2 < count; t += 3) {
                if (!degenerate(&tris[t])) continue;
                std::size_t k = 0; // the longest edge: tris[t + k] → tris[t + k + 1]
                float best = -1;
                for (std::size_t e = 0; e < 3; ++e) {
                    const float l = lengthSquared(tris[t + e], tris[t + (e + 1) % 3]);
                    if (l > best) {
                        best = l;
                        k = e;
                    }
                }
                const std::uint32_t u = tris[t + k], w = tris[t + (k + 1) % 3], m = tris[t + (k + 2) % 3];
                const auto across = mEdgeOwner.find(key(w, u));
                if (across == mEdgeOwner.end()) {
                    left = true;
                    continue;
                }
                const std::size_t n = across->second;
                std::uint32_t y = kNone;
                for (std::size_t e = 0; e < 3; ++e)
                    if (tris[n + e] != w && tris[n + e] != u) y = tris[n + e];
                const std::uint32_t first[3] = {m, u, y}, second[3] = {m, y, w};
                if (y == kNone || degenerate(first) || degenerate(second)) {
                    left = true;
                    continue;
                }
                for (const std::size_t r : {t, n})
                    for (std::size_t e = 0; e < 3; ++e) mEdgeOwner.erase(key(tris[r + e], tris[r + (e + 1) % 3]));
                std::copy(first, first + 3, &tris[t]);
                std::copy(second, second + 3, &tris[n]);
                for (const std::size_t r : {t, n})
                    for (std::size_t e = 0; e < 3; ++e)
                        mEdgeOwner[key(tris[r + e], tris[r + (e + 1) % 3])] = static_cast<std::uint32_t>(r);
            }
            if (!left) return true;
        }
        return false;
    }

    // One meshopt_simplify run over `in` into `out` (vertex ids of this chunk); false if it left a zero-area
    // triangle that flips could not undo.
    bool runMeshopt(const std::vector<std::uint32_t> &in, std::vector<std::uint32_t> &out, float &worst) {
        mPatch.clear();
        mPatchIndex.resize(in.size());
        for (std::size_t i = 0; i < in.size(); ++i) {
            const std::uint32_t v = in[i];
            if (mPatchSlot[v] == kNone) {
                mPatchSlot[v] = static_cast<std::uint32_t>(mPatch.size());
                mPatch.push_back(v);
            }
            mPatchIndex[i] = mPatchSlot[v];
        }
        for (std::uint32_t v : mPatch) mPatchSlot[v] = kNone;
        mPatchPositions.resize(mPatch.size() * 3);
        for (std::size_t i = 0; i < mPatch.size(); ++i) {
            const Vector3 &p = mPositions[mPatch[i]];
            mPatchPositions[3 * i] = p.x;
            mPatchPositions[3 * i + 1] = p.y;
            mPatchPositions[3 * i + 2] = p.z;
        }
        out = in;
        const float scale = meshopt_simplifyScale(mPatchPositions.data(), mPatch.size(), sizeof(float) * 3);
        if (!(scale > 0)) return true;
        float relative = 0;
        mSimplified.resize(mPatchIndex.size());
        const std::size_t count = meshopt_simplify(
            mSimplified.data(), mPatchIndex.data(), mPatchIndex.size(), mPatchPositions.data(), mPatch.size(),
            sizeof(float) * 3, 0, kMeshoptShare * mError / scale, meshopt_SimplifyLockBorder, &relative);
        if (!repairDegenerate(mSimplified, count)) return false;
        worst = std::max(worst, relative * scale);
        out.resize(count);
        for (std::size_t i = 0; i < count; ++i) out[i] = mPatch[mSimplified[i]];
        return true;
    }

public:
    std::uint64_t degenerateFallbacks() const {
        return mDegenerateFallbacks;
    }

private:
    std::uint64_t mDegenerateFallbacks = 0;

    int mN, mW;
    float mCell, mError;
    bool mShortcut;
    Rules mRules{false};
    const TerrainChunk *const *mNb = nullptr;
    std::int64_t mOrigin[3] = {0, 0, 0};
    std::vector<std::uint64_t> mInside, mExposed;
    std::vector<std::uint32_t> mKeys, mKeyStamp;
    std::vector<std::uint8_t> mKeyUniform; // whether a key row holds one key
    std::vector<std::uint32_t> mStamp, mVertex;
    std::uint32_t mGeneration = 0;
    std::vector<Vector3> mPositions, mNormals;
    std::vector<VertexInfo> mInfo;
    bool mLevelInside[64] = {}, mLevelExposed[64] = {}; // meshLayered: per level y + 2 of the apron box
    std::uint32_t mLevelAmount[64] = {};
    std::uint8_t mLevelMaterial[64] = {};
    std::vector<std::uint64_t> mSkipped[6]; // per face direction, per (y, z) of the chunk: skipped flat quads' x bits
    bool mAnySkipped = false;
    std::vector<Group> mGroups;
    std::unordered_map<std::uint64_t, std::uint32_t> mGroupIndex;
    std::size_t mLastGroup = ~std::size_t{0};
    std::uint64_t mLastGroupId = 0;
    std::vector<std::vector<std::uint32_t>> mTris, mFlatTris; // by material: quads; flat rectangles and strips
    std::uint64_t mUsed = 0;                                  // materials with triangles
    std::vector<std::uint32_t> mOutIndex, mPatchSlot, mRing, mPatch, mPatchIndex, mSimplified;
    std::vector<std::uint32_t> mSimplifiedTris, mRingTris, mCoreTris;
    std::vector<std::uint8_t> mBorder;
    std::unordered_set<std::uint64_t> mEdges;
    std::unordered_map<std::uint64_t, std::uint32_t> mEdgeOwner;
    std::vector<float> mPatchPositions;
};

// Meshes every chunk, in parallel when asked; chunk i's output is outputs[i] whatever thread made it. Returns the
// patches left unsimplified.
std::uint64_t MeshChunks(const std::vector<TerrainChunk> &chunks, int n, float cell, const TerrainMeshOptions &options,
                         std::vector<ChunkOutput> &outputs) {
    std::unordered_map<std::uint64_t, std::uint32_t> index;
    index.reserve(chunks.size() * 2);
    for (std::size_t i = 0; i < chunks.size(); ++i) {
        const auto &p = chunks[i].position;
        index.emplace(TerrainPositionKey(p[0], p[1], p[2]), static_cast<std::uint32_t>(i));
    }
    outputs.assign(chunks.size(), ChunkOutput());
    std::atomic<std::size_t> next{0};
    std::exception_ptr failure;
    std::atomic<bool> failed{false};
    std::atomic<std::uint64_t> fallbacks{0};
    const float error = options.error > 0 && std::isfinite(options.error) ? options.error : 0.0f;
    const auto work = [&] {
        try {
            ChunkMesher mesher(n, cell, error, options.layeredShortcut);
            const TerrainChunk *neighbours[27];
            for (std::size_t i = next++; i < chunks.size() && !failed; i = next++) {
                const auto &p = chunks[i].position;
                for (int dx = -1; dx <= 1; ++dx)
                    for (int dy = -1; dy <= 1; ++dy)
                        for (int dz = -1; dz <= 1; ++dz) {
                            const auto found = index.find(TerrainPositionKey(
                                std::int64_t{p[0]} + dx, std::int64_t{p[1]} + dy, std::int64_t{p[2]} + dz));
                            neighbours[(dx + 1) * 9 + (dy + 1) * 3 + dz + 1] =
                                found == index.end() ? nullptr : &chunks[found->second];
                        }
                mesher.run(neighbours, false, outputs[i]);
                if (options.water) mesher.run(neighbours, true, outputs[i]);
            }
            fallbacks += mesher.degenerateFallbacks();
        } catch (...) {
            if (!failed.exchange(true)) failure = std::current_exception();
        }
    };
    const std::size_t threads =
        std::min<std::size_t>(static_cast<std::size_t>(std::max(options.threads, 1)), chunks.size());
    if (threads <= 1) {
        work();
    } else {
        std::vector<std::thread> pool;
        pool.reserve(threads - 1);
        try {
            for (std::size_t t = 1; t < threads; ++t) pool.emplace_back(work);
        } catch (const std::system_error &) { // no more threads to be had: the ones running share the work
        }
        work();
        for (std::thread &t : pool) t.join();
    }
    if (failure) std::rethrow_exception(failure);
    return fallbacks;
}

// Stitches the chunks' outputs in chunk order into `out`: a keyed vertex is one vertex, the first chunk's copy (the
// positions agree to the bit; each copy's normal already sums the quads of both sides).
void Stitch(std::vector<ChunkOutput> &outputs, TerrainSurface &out) {
    std::size_t total = 0, keyed = 0;
    std::size_t indices[64] = {};
    for (const ChunkOutput &o : outputs) {
        total += o.positions.size();
        for (std::uint64_t k : o.keys) keyed += k != kNoKey ? 1 : 0;
        for (const auto &[material, tris] : o.triangles) indices[material & 63] += tris.size();
    }
    for (std::size_t m = 0; m < 64; ++m) out.trianglesByMaterial[m].reserve(indices[m]);
    out.positions.reserve(total);
    out.normals.reserve(total);
    KeyTable shared(keyed);
    std::vector<std::uint32_t> remap;
    for (ChunkOutput &o : outputs) {
        out.fullTriangles += o.fullTriangles;
        out.simplifierError = std::max(out.simplifierError, o.error);
        if (o.triangles.empty()) continue;
        ++out.meshedChunks;
        remap.resize(o.positions.size());
        for (std::size_t v = 0; v < o.positions.size(); ++v) {
            const auto fresh = static_cast<std::uint32_t>(out.positions.size());
            if (o.keys[v] != kNoKey) {
                const std::uint32_t stored = shared.findOrInsert(o.keys[v], fresh);
                if (stored != fresh) {
                    remap[v] = stored;
                    continue;
                }
            }
            remap[v] = fresh;
            out.positions.push_back(o.positions[v]);
            out.normals.push_back(o.normals[v]);
        }
        for (auto &[material, tris] : o.triangles) {
            std::vector<std::uint32_t> &dst = out.trianglesByMaterial[material & 63];
            for (std::uint32_t v : tris) dst.push_back(remap[v]);
        }
        o = ChunkOutput();
    }
}

} // namespace

TerrainSurface MeshTerrain(const TerrainGrid &grid, const TerrainMeshOptions &options) {
    const int stride = options.stride == 2 || options.stride == 4 ? options.stride : 1;
    TerrainSurface out;
    out.trianglesByMaterial.resize(64);
    std::vector<TerrainChunk> coarse;
    if (stride > 1) {
        coarse.reserve(grid.chunks.size());
        for (const TerrainChunk &c : grid.chunks) coarse.push_back(CoarseChunk(c, stride));
    }
    std::vector<ChunkOutput> outputs;
    out.unsimplifiedPatches = MeshChunks(stride > 1 ? coarse : grid.chunks, kTerrainChunkEdge / stride,
                                         kVoxelStuds * static_cast<float>(stride), options, outputs);
    coarse = {};
    Stitch(outputs, out);
    return out;
}

} // namespace gamefmt::rbx
