// SmoothGrid decoding (docs/formats/roblox-terrain.md §4, §7) and surface nets (§8.2, §8.3).
#include "importers/roblox_model/terrain.hpp"

#include "common/byte_reader.hpp"
#include "common/error.hpp"

#include <algorithm>
#include <cmath>
#include <unordered_map>
#include <unordered_set>

namespace gamefmt::rbx {
namespace {

constexpr std::int64_t kMaxChunkCoordinate = 1024; // §7: a full-terrain copy spans about ±1000 chunks
constexpr std::uint64_t kChunkBytes = std::uint64_t{2} * kTerrainChunkVoxels;

struct MaterialInfo {
    std::uint32_t value;
    const char *name;
    std::uint32_t classic;
};

// §5, by id.
constexpr MaterialInfo kMaterials[kTerrainMaterialCount] = {
    {1792, "Air", 0},
    {2048, "Water", 0},
    {1280, "Grass", 0x6A7F3F},
    {800, "Slate", 0x3F7F6B},
    {816, "Concrete", 0x7F663F},
    {848, "Brick", 0x8A563E},
    {1296, "Sand", 0x8F7E5F},
    {528, "WoodPlanks", 0x8B6D4F},
    {896, "Rock", 0x666C6F},
    {1552, "Glacier", 0x65B0EA},
    {1328, "Snow", 0xC3C7DA},
    {912, "Sandstone", 0x895A47},
    {1344, "Mud", 0x3A2E24},
    {788, "Basalt", 0x1E1E25},
    {1360, "Ground", 0x665C3B},
    {804, "CrackedLava", 0xE89C4A},
    {1376, "Asphalt", 0x737B6B},
    {880, "Cobblestone", 0x847B5A},
    {1536, "Ice", 0x81C2E0},
    {1284, "LeafyGrass", 0x73844A},
    {1392, "Salt", 0xC6BDB5},
    {820, "Limestone", 0xCEAD94},
    {836, "Pavement", 0x94948C},
};

std::uint64_t ChunkKey(std::int64_t x, std::int64_t y, std::int64_t z) {
    const auto part = [](std::int64_t v) { return static_cast<std::uint64_t>(v + (1 << 20)) & 0x1FFFFF; };
    return part(x) << 42 | part(y) << 21 | part(z);
}

std::int64_t FloorDiv(std::int64_t a, std::int64_t b) {
    return a >= 0 ? a / b : -((-a + b - 1) / b);
}

// The runs of one chunk (§4.3, §4.5) into `chunk`'s dense arrays; oddities counted in `counts`.
struct OddCounts {
    std::size_t airBytes = 0, unknown = 0, oddLiquid = 0;
};

void DecodeRuns(ByteReader &r, TerrainChunk &chunk, OddCounts &counts, std::uint64_t &used, std::uint64_t &nonAir,
                std::uint64_t &runs) {
    chunk.material.assign(kTerrainChunkVoxels, kTerrainAir);
    chunk.occupancy.assign(kTerrainChunkVoxels, 255);
    int v = 0;
    while (v < kTerrainChunkVoxels) {
        const std::size_t runAt = r.tell();
        const std::uint8_t lead = r.u8();
        std::uint8_t material = lead & 63;
        std::uint8_t occupancy = 255;
        if ((lead & 0x40) != 0) occupancy = r.u8();
        int count = 1;
        int liquid = -1;
        if ((lead & 0x80) != 0) {
            const std::uint8_t c = r.u8();
            if (c == 0)
                liquid = r.u8();
            else
                count = c + 1;
        }
        if (v + count > kTerrainChunkVoxels)
            r.failAt(runAt, "a run of " + std::to_string(count) + " voxels crosses the chunk end (" +
                                std::to_string(kTerrainChunkVoxels - v) + " voxels left)");
        if (material == kTerrainAir && (lead & 0x40) != 0) ++counts.airBytes;
        if (liquid >= 0 && material == kTerrainAir) { // an escape on Air: a liquid-only voxel
            material = kTerrainWater;
            occupancy = static_cast<std::uint8_t>(liquid);
            liquid = -1;
            ++counts.oddLiquid;
        } else if (liquid >= 0 && material == kTerrainWater) { // on Water: the larger amount
            occupancy = static_cast<std::uint8_t>(std::max<int>(occupancy, liquid));
            liquid = -1;
            ++counts.oddLiquid;
        }
        if (material >= kTerrainMaterialCount) ++counts.unknown;
        std::fill(chunk.material.begin() + v, chunk.material.begin() + v + count, material);
        std::fill(chunk.occupancy.begin() + v, chunk.occupancy.begin() + v + count, occupancy);
        if (liquid >= 0) {
            if (chunk.liquid.empty()) {
                used += kTerrainChunkVoxels;
                chunk.liquid.assign(kTerrainChunkVoxels, 0);
            }
            chunk.liquid[static_cast<std::size_t>(v)] = static_cast<std::uint8_t>(std::min(liquid + 1, 255));
        }
        if (material != kTerrainAir) nonAir += static_cast<std::uint64_t>(count);
        ++runs;
        v += count;
    }
}

} // namespace

std::uint32_t TerrainEnumMaterial(std::uint8_t id) {
    return id < kTerrainMaterialCount ? kMaterials[id].value : 0;
}

std::string TerrainMaterialName(std::uint8_t id) {
    return id < kTerrainMaterialCount ? kMaterials[id].name : "Unknown" + std::to_string(id);
}

std::array<Color3uint8, kTerrainMaterialCount> TerrainMaterialColors(const std::uint8_t *data, std::size_t size) {
    std::array<Color3uint8, kTerrainMaterialCount> out{};
    for (std::size_t id = 0; id < kTerrainMaterialCount; ++id) {
        const std::uint32_t c = kMaterials[id].classic;
        out[id] = {std::uint8_t(c >> 16), std::uint8_t(c >> 8), std::uint8_t(c)};
        if (id >= 2 && data != nullptr && size >= 3 * id + 3)
            out[id] = {data[3 * id], data[3 * id + 1], data[3 * id + 2]};
    }
    return out;
}

TerrainGrid DecodeSmoothGrid(const std::uint8_t *data, std::size_t size, std::uint64_t maxBytes) {
    if (size < 2)
        throw FormatError(kTerrainFormatName, "SmoothGrid of " + std::to_string(size) + " bytes has no header", 0);
    if (data[0] != 1 || data[1] != 5)
        throw FormatError(kTerrainFormatName,
                          "unsupported SmoothGrid header " + std::to_string(data[0]) + " " + std::to_string(data[1]) +
                              " (only version 1 with 32-voxel chunks, 01 05, is known)",
                          0);
    ByteReader r(data, size, kTerrainFormatName);
    r.seek(2);
    TerrainGrid grid;
    std::int64_t pos[3] = {0, 0, 0};
    std::unordered_set<std::uint64_t> seen;
    std::size_t outside = 0, repeated = 0;
    OddCounts counts;
    std::uint64_t used = 0;
    while (!r.atEnd()) {
        const std::size_t chunkAt = r.tell();
        if (r.remaining() < 12)
            r.fail("truncated chunk: " + std::to_string(r.remaining()) +
                   " bytes where a 12-byte position delta starts");
        std::uint8_t b[12];
        for (std::uint8_t &v : b) v = r.u8();
        for (int a = 0; a < 3; ++a) {
            const std::uint32_t d = std::uint32_t(b[a]) << 24 | std::uint32_t(b[3 + a]) << 16 |
                                    std::uint32_t(b[6 + a]) << 8 | std::uint32_t(b[9 + a]);
            pos[a] += static_cast<std::int32_t>(d);
        }
        used += kChunkBytes;
        if (used > maxBytes)
            r.failAt(chunkAt, "the terrain needs more than the " + std::to_string(maxBytes >> 20) +
                                  " MiB allowed (GAMEFMT_RBX_MAX_DECOMPRESSED)");
        TerrainChunk chunk;
        std::uint64_t nonAir = 0, runs = 0;
        DecodeRuns(r, chunk, counts, used, nonAir, runs);
        grid.runs += runs;
        const bool inRange = std::abs(pos[0]) <= kMaxChunkCoordinate && std::abs(pos[1]) <= kMaxChunkCoordinate &&
                             std::abs(pos[2]) <= kMaxChunkCoordinate;
        if (!inRange) {
            ++outside;
            continue;
        }
        if (!seen.insert(ChunkKey(pos[0], pos[1], pos[2])).second) {
            ++repeated;
            continue;
        }
        chunk.position = {static_cast<std::int32_t>(pos[0]), static_cast<std::int32_t>(pos[1]),
                          static_cast<std::int32_t>(pos[2])};
        grid.nonAirVoxels += nonAir;
        grid.chunks.push_back(std::move(chunk));
    }
    if (outside != 0)
        grid.warnings.push_back(std::to_string(outside) + " chunk(s) beyond ±1024 chunks from the origin skipped");
    if (repeated != 0) grid.warnings.push_back(std::to_string(repeated) + " chunk(s) at a repeated position skipped");
    if (counts.airBytes != 0)
        grid.warnings.push_back(std::to_string(counts.airBytes) + " Air run(s) with an occupancy byte");
    if (counts.unknown != 0)
        grid.warnings.push_back(std::to_string(counts.unknown) +
                                " run(s) of an unknown material id (23–63), drawn as solid");
    if (counts.oddLiquid != 0)
        grid.warnings.push_back(std::to_string(counts.oddLiquid) + " liquid escape(s) on Air or Water read as water");
    return grid;
}

// ------------------------------------------------------------------ mesher

namespace {

struct Sample {
    std::uint8_t material = kTerrainAir;
    std::uint16_t solid = 0;  // solid amount × 256 (0 unless material ≥ 2)
    std::uint16_t liquid = 0; // liquid amount × 256
};

// Voxels (or, with a stride, coarse voxels) by global index; missing chunks are Air.
class Sampler {
public:
    Sampler(const TerrainGrid &grid, int stride) : mGrid(grid), mStride(stride), mEdge(kTerrainChunkEdge / stride) {
        mIndex.reserve(grid.chunks.size() * 2);
        for (std::size_t i = 0; i < grid.chunks.size(); ++i) {
            const auto &p = grid.chunks[i].position;
            mIndex.emplace(ChunkKey(p[0], p[1], p[2]), static_cast<std::uint32_t>(i));
        }
        if (stride > 1) buildCoarse();
    }
    int edge() const { return mEdge; }

    Sample at(std::int64_t x, std::int64_t y, std::int64_t z) const {
        const std::int64_t cx = FloorDiv(x, mEdge), cy = FloorDiv(y, mEdge), cz = FloorDiv(z, mEdge);
        const auto found = mIndex.find(ChunkKey(cx, cy, cz));
        if (found == mIndex.end()) return {};
        const auto local =
            static_cast<std::size_t>(((y - cy * mEdge) * mEdge + (z - cz * mEdge)) * mEdge + (x - cx * mEdge));
        if (mStride > 1) return mCoarse[found->second][local];
        return Fine(mGrid.chunks[found->second], local);
    }

private:
    static Sample Fine(const TerrainChunk &c, std::size_t i) {
        Sample s;
        s.material = c.material[i];
        const auto amount = static_cast<std::uint16_t>(c.occupancy[i] + 1);
        if (s.material >= 2) s.solid = amount;
        if (s.material == kTerrainWater) s.liquid = amount;
        if (!c.liquid.empty() && c.liquid[i] != 0) s.liquid = c.liquid[i];
        return s;
    }

    // §8.4: a coarse voxel takes the most frequent solid material of its block and the mean amounts (Air 0).
    void buildCoarse() {
        const int s = mStride, n = mEdge;
        const int block = s * s * s;
        mCoarse.resize(mGrid.chunks.size());
        for (std::size_t ci = 0; ci < mGrid.chunks.size(); ++ci) {
            const TerrainChunk &c = mGrid.chunks[ci];
            std::vector<Sample> &out = mCoarse[ci];
            out.resize(static_cast<std::size_t>(n) * n * n);
            for (int y = 0; y < n; ++y)
                for (int z = 0; z < n; ++z)
                    for (int x = 0; x < n; ++x) {
                        std::uint32_t counts[64] = {};
                        std::uint32_t solid = 0, liquid = 0;
                        for (int dy = 0; dy < s; ++dy)
                            for (int dz = 0; dz < s; ++dz)
                                for (int dx = 0; dx < s; ++dx) {
                                    const std::size_t i = (static_cast<std::size_t>(y * s + dy) * kTerrainChunkEdge +
                                                           static_cast<std::size_t>(z * s + dz)) *
                                                              kTerrainChunkEdge +
                                                          static_cast<std::size_t>(x * s + dx);
                                    const Sample f = Fine(c, i);
                                    ++counts[f.material];
                                    solid += f.solid;
                                    liquid += f.liquid;
                                }
                        Sample &o = out[(static_cast<std::size_t>(y) * n + static_cast<std::size_t>(z)) * n +
                                        static_cast<std::size_t>(x)];
                        std::uint8_t best = 0;
                        for (std::uint8_t m = 2; m < 64; ++m)
                            if (counts[m] > (best == 0 ? 0u : counts[best])) best = m;
                        o.material = best != 0 ? best : (liquid != 0 ? kTerrainWater : kTerrainAir);
                        o.solid = best != 0 ? static_cast<std::uint16_t>(std::max<std::uint32_t>(solid / block, 1)) : 0;
                        o.liquid = static_cast<std::uint16_t>(liquid / block);
                    }
        }
    }

    const TerrainGrid &mGrid;
    int mStride, mEdge;
    std::unordered_map<std::uint64_t, std::uint32_t> mIndex;
    std::vector<std::vector<Sample>> mCoarse;
};

struct Pass {
    bool water;
    bool inside(const Sample &s) const { return water ? s.liquid != 0 : s.material >= 2; }
    float amount(const Sample &s) const { return static_cast<float>(water ? s.liquid : s.solid) / 256.0f; }
    // Faces are emitted against this neighbour: anything not inside (solid pass), Air without liquid (water).
    bool exposed(const Sample &s) const { return water ? s.material == kTerrainAir && s.liquid == 0 : !inside(s); }
};

class Mesher {
public:
    Mesher(const Sampler &sampler, int stride, TerrainSurface &out)
        : mSampler(sampler), mCell(kVoxelStuds * static_cast<float>(stride)), mOut(out) {}

    void run(const TerrainGrid &grid, const Pass &pass) {
        mVertex.clear();
        const int n = mSampler.edge();
        for (const TerrainChunk &chunk : grid.chunks) {
            const std::int64_t bx = std::int64_t(chunk.position[0]) * n, by = std::int64_t(chunk.position[1]) * n,
                               bz = std::int64_t(chunk.position[2]) * n;
            for (int y = 0; y < n; ++y)
                for (int z = 0; z < n; ++z)
                    for (int x = 0; x < n; ++x) {
                        const std::int64_t p[3] = {bx + x, by + y, bz + z};
                        const Sample s = mSampler.at(p[0], p[1], p[2]);
                        if (!pass.inside(s)) continue;
                        for (int a = 0; a < 3; ++a)
                            for (int dir = -1; dir <= 1; dir += 2) {
                                std::int64_t e[3] = {p[0], p[1], p[2]};
                                e[a] += dir;
                                if (!pass.exposed(mSampler.at(e[0], e[1], e[2]))) continue;
                                quad(pass, p, a, dir, pass.water ? kTerrainWater : s.material);
                            }
                    }
        }
    }

    void finish() {
        for (Vector3 &n : mOut.normals) {
            const float length = std::sqrt(n.x * n.x + n.y * n.y + n.z * n.z);
            n = length > 0 ? Vector3{n.x / length, n.y / length, n.z / length} : Vector3{0, 1, 0};
        }
    }

private:
    float centre(std::int64_t i) const { return mCell * (static_cast<float>(i) + 0.5f); }

    // The dual vertex of cell (i, j, k): the mean of the crossings on its edges (§8.2 step 2).
    std::uint32_t vertex(const Pass &pass, std::int64_t i, std::int64_t j, std::int64_t k) {
        const std::uint64_t key = ChunkKey(i, j, k);
        const auto found = mVertex.find(key);
        if (found != mVertex.end()) return found->second;
        Sample corner[8];
        for (int c = 0; c < 8; ++c) corner[c] = mSampler.at(i + (c & 1), j + (c >> 1 & 1), k + (c >> 2 & 1));
        float sum[3] = {0, 0, 0};
        int crossings = 0;
        for (int c = 0; c < 8; ++c)
            for (int a = 0; a < 3; ++a) {
                if ((c >> a & 1) != 0) continue;
                const int d = c | 1 << a;
                const bool ic = pass.inside(corner[c]), id = pass.inside(corner[d]);
                if (ic == id) continue;
                const int in = ic ? c : d, out = ic ? d : c;
                const std::int64_t pin[3] = {i + (in & 1), j + (in >> 1 & 1), k + (in >> 2 & 1)};
                const std::int64_t pout[3] = {i + (out & 1), j + (out >> 1 & 1), k + (out >> 2 & 1)};
                const float t = pass.amount(corner[in]);
                for (int q = 0; q < 3; ++q) sum[q] += centre(pin[q]) + (centre(pout[q]) - centre(pin[q])) * t;
                ++crossings;
            }
        const float inv = crossings != 0 ? 1.0f / static_cast<float>(crossings) : 0.0f;
        const auto index = static_cast<std::uint32_t>(mOut.positions.size());
        mOut.positions.push_back({sum[0] * inv, sum[1] * inv, sum[2] * inv});
        mOut.normals.push_back({0, 0, 0});
        mVertex.emplace(key, index);
        return index;
    }

    // §8.2 step 3: the quad through the four cells around the edge from voxel p along axis a (dir ±1).
    void quad(const Pass &pass, const std::int64_t p[3], int a, int dir, std::uint8_t material) {
        const int b = (a + 1) % 3, c = (a + 2) % 3;
        std::int64_t lower[3] = {p[0], p[1], p[2]};
        if (dir < 0) lower[a] -= 1;
        const int offsets[4][2] = {{-1, -1}, {0, -1}, {0, 0}, {-1, 0}};
        std::uint32_t v[4];
        for (int q = 0; q < 4; ++q) {
            std::int64_t cell[3] = {lower[0], lower[1], lower[2]};
            cell[b] += offsets[q][0];
            cell[c] += offsets[q][1];
            v[q] = vertex(pass, cell[0], cell[1], cell[2]);
        }
        if (dir < 0) std::swap(v[1], v[3]); // C0 C3 C2 C1
        std::vector<std::uint32_t> &tris = mOut.trianglesByMaterial[material];
        tris.insert(tris.end(), {v[0], v[1], v[2], v[0], v[2], v[3]});
        // Area-weighted normal: half the cross product of the diagonals.
        const Vector3 &p0 = mOut.positions[v[0]], &p1 = mOut.positions[v[1]], &p2 = mOut.positions[v[2]],
                      &p3 = mOut.positions[v[3]];
        const Vector3 d1{p2.x - p0.x, p2.y - p0.y, p2.z - p0.z}, d2{p3.x - p1.x, p3.y - p1.y, p3.z - p1.z};
        const Vector3 n{d1.y * d2.z - d1.z * d2.y, d1.z * d2.x - d1.x * d2.z, d1.x * d2.y - d1.y * d2.x};
        for (std::uint32_t i : v) {
            mOut.normals[i].x += n.x;
            mOut.normals[i].y += n.y;
            mOut.normals[i].z += n.z;
        }
    }

    const Sampler &mSampler;
    float mCell;
    TerrainSurface &mOut;
    std::unordered_map<std::uint64_t, std::uint32_t> mVertex;
};

} // namespace

TerrainSurface MeshTerrain(const TerrainGrid &grid, const TerrainMeshOptions &options) {
    const int stride = options.stride == 2 || options.stride == 4 ? options.stride : 1;
    TerrainSurface out;
    out.trianglesByMaterial.resize(64);
    const Sampler sampler(grid, stride);
    Mesher mesher(sampler, stride, out);
    mesher.run(grid, Pass{false});
    if (options.water) mesher.run(grid, Pass{true});
    mesher.finish();
    return out;
}

} // namespace gamefmt::rbx
