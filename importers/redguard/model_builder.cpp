// Float scene data -> RG3DModel (docs/formats/redguard-3d.md §15). See model_builder.hpp.
#include "importers/redguard/model_builder.hpp"

#include "common/ascii.hpp"
#include "common/error.hpp"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstring>
#include <limits>
#include <map>
#include <numeric>
#include <string>
#include <utility>

namespace gamefmt::redguard {
namespace {

[[noreturn]] void Fail(const std::string &problem) {
    throw FormatError(kFormatName, problem);
}

bool ParseUnsigned(const std::string &text, unsigned long long limit, unsigned &out) {
    if (text.empty() || text.size() > 10) return false;
    unsigned long long v = 0;
    for (char c : text) {
        if (c < '0' || c > '9') return false;
        v = v * 10 + unsigned(c - '0');
    }
    if (v > limit) return false;
    out = static_cast<unsigned>(v);
    return true;
}

// raw = round(v·256/s) with the axis sign of §15; fails outside i32.
std::int32_t ToRaw(float value, double sign, double factor, const char *what) {
    const double raw = std::nearbyint(sign * double(value) * factor);
    if (!(raw >= double(std::numeric_limits<std::int32_t>::min()) &&
          raw <= double(std::numeric_limits<std::int32_t>::max())))
        Fail(std::string("a ") + what + " position (" + std::to_string(value) +
             ") is outside the i32 range of raw units; lower GAMEFMT_RG_SCALE");
    return static_cast<std::int32_t>(raw);
}

float PositiveZero(float v) {
    return v == 0.0f ? 0.0f : v;
}

// An Assimp normal in native axes (−x, −y, z), normalised, −0 written as +0; nullopt when unusable.
std::optional<Float3> NativeNormal(const Float3 &n) {
    const double x = -double(n[0]), y = -double(n[1]), z = double(n[2]);
    const double len = std::sqrt(x * x + y * y + z * z);
    if (!std::isfinite(len) || len < 1e-12) return std::nullopt;
    return Float3{PositiveZero(float(x / len)), PositiveZero(float(y / len)), PositiveZero(float(z / len))};
}

Float3 NormaliseOrZero(const std::array<double, 3> &v) {
    const double len = std::sqrt(v[0] * v[0] + v[1] * v[1] + v[2] * v[2]);
    if (!(len > 1e-12)) return Float3{0.0f, 0.0f, 0.0f};
    return Float3{PositiveZero(float(v[0] / len)), PositiveZero(float(v[1] / len)), PositiveZero(float(v[2] / len))};
}

bool SameNormal(const Float3 &a, const Float3 &b) {
    for (int i = 0; i < 3; ++i)
        if (!(std::fabs(a[i] - b[i]) <= 1e-4f)) return false;
    return true;
}

std::uint32_t NearestPaletteEntry(const std::array<std::uint8_t, 768> &palette, const Float3 &colour) {
    double target[3];
    for (int i = 0; i < 3; ++i) target[i] = std::clamp(double(colour[i]), 0.0, 1.0) * 255.0;
    std::uint32_t best = 0;
    double bestDistance = std::numeric_limits<double>::max();
    for (std::uint32_t e = 0; e < 256; ++e) {
        double d = 0;
        for (int i = 0; i < 3; ++i) {
            const double diff = double(palette[3 * e + i]) - target[i];
            d += diff * diff;
        }
        if (d < bestDistance) {
            bestDistance = d;
            best = e;
        }
    }
    return best;
}

// UVs of one face in 1/16 texel: corner 0 absolute, then deltas (§4, §15).
void EncodeUVs(const std::vector<std::int64_t> &target, std::int64_t period, std::vector<std::int16_t> &out,
               bool &clamped) {
    constexpr std::int64_t lo = std::numeric_limits<std::int16_t>::min();
    constexpr std::int64_t hi = std::numeric_limits<std::int16_t>::max();
    std::vector<std::int64_t> values = target;
    bool fits = true;
    for (std::size_t k = 0; k < values.size(); ++k) {
        const std::int64_t d = k == 0 ? values[0] : values[k] - values[k - 1];
        if (d < lo || d > hi) fits = false;
    }
    // The texture repeats: moving the whole face by whole textures is invisible and may bring corner 0 in range.
    if (!fits && period > 0) {
        std::int64_t shift = values[0] % period;
        if (shift < 0) shift += period;
        shift -= values[0];
        for (std::int64_t &v : values) v += shift;
    }
    out.resize(values.size());
    std::int64_t actual = 0;
    for (std::size_t k = 0; k < values.size(); ++k) {
        std::int64_t d = values[k] - actual;
        if (d < lo || d > hi) {
            d = std::clamp(d, lo, hi);
            clamped = true;
        }
        out[k] = static_cast<std::int16_t>(d);
        actual += d;
    }
}

} // namespace

std::optional<std::uint32_t> ParseDefaultTexture(const std::string &text) {
    const std::string t = AsciiLower(text);
    unsigned a = 0, b = 0;
    if (t.rfind("color:", 0) == 0) {
        if (!ParseUnsigned(t.substr(6), 255, a)) return std::nullopt;
        return EncodeSolid(static_cast<std::uint8_t>(a));
    }
    if (t.rfind("tex:", 0) == 0) {
        const std::size_t slash = t.find('/', 4);
        if (slash == std::string::npos) return std::nullopt;
        if (!ParseUnsigned(t.substr(4, slash - 4), 599, a) || !ParseUnsigned(t.substr(slash + 1), 999, b))
            return std::nullopt;
        return EncodeBase40(a, b);
    }
    return std::nullopt;
}

std::optional<std::uint32_t> TextureFromName(const std::string &name) {
    const std::string t = AsciiLower(name);
    unsigned a = 0, b = 0;
    if (t.rfind("tex", 0) == 0) {
        const std::size_t underscore = t.find('_', 3);
        if (underscore != std::string::npos && ParseUnsigned(t.substr(3, underscore - 3), 599, a) &&
            ParseUnsigned(t.substr(underscore + 1), 999, b))
            return EncodeBase40(a, b);
    }
    if (t.rfind("color", 0) == 0 && ParseUnsigned(t.substr(5), 255, a))
        return EncodeSolid(static_cast<std::uint8_t>(a));
    return std::nullopt;
}

std::optional<std::uint32_t> TextureFromPath(const std::string &path) {
    const std::string t = AsciiLower(path);
    // "TEXBSI.376" followed by an image number ("TEXBSI.376/19", "texbsi.376#019", "TEXBSI.376/D76019").
    const std::size_t at = t.rfind("texbsi.");
    if (at != std::string::npos) {
        std::size_t p = at + 7;
        std::size_t q = p;
        while (q < t.size() && std::isdigit(static_cast<unsigned char>(t[q]))) ++q;
        unsigned bank = 0;
        if (q > p && ParseUnsigned(t.substr(p, q - p), 599, bank)) {
            // The image: the last run of digits after the bank (a "d76019" name ends in the 3 image digits).
            std::size_t end = t.size();
            while (end > q && !std::isdigit(static_cast<unsigned char>(t[end - 1]))) --end;
            std::size_t begin = end;
            while (begin > q && std::isdigit(static_cast<unsigned char>(t[begin - 1]))) --begin;
            unsigned image = 0;
            if (begin < end) {
                std::string digits = t.substr(begin, end - begin);
                if (digits.size() > 3) digits = digits.substr(digits.size() - 3);
                if (!ParseUnsigned(digits, 999, image)) return std::nullopt;
            }
            return EncodeBase40(bank, image);
        }
    }
    // A TEXBSI image name "Lddiii" (letter a-f = hundreds of the bank) as the file stem.
    std::size_t slash = t.find_last_of("/\\");
    std::string stem = slash == std::string::npos ? t : t.substr(slash + 1);
    const std::size_t dot = stem.find('.');
    if (dot != std::string::npos) stem = stem.substr(0, dot);
    if (stem.size() == 6 && stem[0] >= 'a' && stem[0] <= 'f' &&
        std::all_of(stem.begin() + 1, stem.end(), [](char c) { return c >= '0' && c <= '9'; })) {
        const unsigned bank = unsigned(stem[0] - 'a') * 100 + unsigned(stem[1] - '0') * 10 + unsigned(stem[2] - '0');
        const unsigned image = unsigned(stem[3] - '0') * 100 + unsigned(stem[4] - '0') * 10 + unsigned(stem[5] - '0');
        return EncodeBase40(bank, image);
    }
    return std::nullopt;
}

namespace {

// BuildModel's phases over shared state, in the order the file is laid out: polygons in file order, vertices
// (raw fixed-point positions, welded), faces, face normals and frames, vertex normals, Section4.
class ModelAssembler {
public:
    ModelAssembler(const BuildInput &input, const BuildOptions &options) : mIn(input), mOptions(options) {}

    BuildResult run() {
        checkInput();
        orderPolygons();
        rawPositions();
        weldVertices();
        restoreVertexOrder();
        buildFaces();
        faceNormalsFramesAndRadius();
        vertexNormals();
        if (!mAnimated && mModel.version == Version::V50) section4();
        return std::move(mResult);
    }

private:
    void warn(std::string message) { mResult.warnings.push_back(std::move(message)); }

    // Counts that must agree, options that must make sense, and the version and frame type.
    void checkInput() {
        const BuildInput &input = mIn;
        const BuildOptions &options = mOptions;
        mCount = input.positions.size();
        const std::size_t count = mCount;
        if (!input.normals.empty() && input.normals.size() != count) Fail("normals and positions differ in count");
        if (!input.uvs.empty() && input.uvs.size() != count) Fail("UVs and positions differ in count");
        for (const auto &frame : input.frames)
            if (frame.size() != count) Fail("an animation frame does not have one position per vertex");
        if (!(options.scale > 0) || !std::isfinite(options.scale)) Fail("the scale must be a positive number");
        if (options.fallbackTexSize <= 0) Fail("the fallback texture size must be positive");

        mAnimated = options.kind == BuildOptions::Kind::Animated3DC;
        const bool animated = mAnimated;
        mModel.version = animated ? Version::V40 : options.version;
        if (IsV2(mModel.version)) Fail("v2.x models are never written; write v4.0 or v5.0");
        mModel.frameType = animated ? (input.frames.empty() ? 8u : 2u) : 0u;
        mTable = !animated && (options.normals == BuildOptions::Normals::Table ||
                               (options.normals == BuildOptions::Normals::Auto && mModel.version == Version::V50));
        if (!animated && !input.frames.empty())
            warn("the scene is animated; a .3D holds one pose: only the base pose is written");
        mFrames = animated ? &input.frames : &mNoFrames;
    }

    // The polygons in file order (rg.face_order when it is a set of distinct indices, one per polygon),
    // without points and lines.
    void orderPolygons() {
        const BuildInput &input = mIn;
        std::vector<std::size_t> &order = mOrder;
        for (std::size_t p = 0; p < input.polygons.size(); ++p) {
            const BuildPolygon &polygon = input.polygons[p];
            if (polygon.corners.size() > 255)
                Fail("a polygon has " + std::to_string(polygon.corners.size()) +
                     " corners; Redguard faces hold at most 255: triangulate the scene first (aiProcess_Triangulate)");
            if (polygon.material >= input.materials.size()) Fail("a polygon uses a material that does not exist");
            for (std::uint32_t c : polygon.corners)
                if (c >= mCount) Fail("a polygon corner indexes past the vertices");
            order.push_back(p);
        }
        // rg.face_order: only a set of distinct indices, one per polygon, restores anything.
        bool ordered = false;
        if (!input.faceOrder.empty()) {
            std::vector<std::uint32_t> sorted = input.faceOrder;
            std::sort(sorted.begin(), sorted.end());
            if (input.faceOrder.size() == input.polygons.size() &&
                std::adjacent_find(sorted.begin(), sorted.end()) == sorted.end()) {
                std::stable_sort(order.begin(), order.end(), [&input](std::size_t a, std::size_t b) {
                    return input.faceOrder[a] < input.faceOrder[b];
                });
                ordered = true;
            } else {
                warn("rg.face_order does not match the polygons (" + std::to_string(input.faceOrder.size()) +
                     " entries for " + std::to_string(input.polygons.size()) +
                     " polygons, or repeated indices): the scene's face order is kept");
            }
        }
        {
            std::vector<std::size_t> kept;
            std::size_t skipped = 0;
            for (std::size_t p : order) {
                if (input.polygons[p].corners.size() < 3) {
                    ++skipped;
                    continue;
                }
                kept.push_back(p);
            }
            if (skipped > 0)
                warn(std::to_string(skipped) + " point or line primitive(s) skipped: Redguard faces have "
                                               "3 to 255 corners");
            order.swap(kept);
        }
        if (order.empty()) Fail("the scene has no polygons to write");
        for (std::size_t p : order) mFileIndexOfOutput.push_back(ordered ? input.faceOrder[p] : std::uint32_t(p));
    }

    // The fixed-point position of every used input vertex in every frame ([vertex][frame][axis]) and its
    // normal in the file's convention.
    void rawPositions() {
        const BuildInput &input = mIn;
        const std::size_t count = mCount;
        const std::vector<std::vector<Float3>> &frames = *mFrames;
        const double factor = 256.0 / double(mOptions.scale);
        auto toRaw = [factor](const Float3 &p, std::int32_t out[3]) {
            out[0] = ToRaw(p[0], -1.0, factor, "vertex");
            out[1] = ToRaw(p[1], -1.0, factor, "vertex");
            out[2] = ToRaw(p[2], 1.0, factor, "vertex");
        };
        mFrameCount = 1 + frames.size();
        const std::size_t frameCount = mFrameCount;
        std::vector<bool> &used = mUsed;
        used.assign(count, false);
        for (std::size_t p : mOrder)
            for (std::uint32_t c : input.polygons[p].corners) used[c] = true;
        std::vector<std::int32_t> &raw = mRaw;
        raw.assign(3 * frameCount * count, 0);
        for (std::size_t v = 0; v < count; ++v) {
            if (!used[v]) continue;
            toRaw(input.positions[v], &raw[3 * frameCount * v]);
            for (std::size_t k = 0; k < frames.size(); ++k) toRaw(frames[k][v], &raw[3 * (frameCount * v + k + 1)]);
        }
        mHaveNormals = !input.normals.empty();
        mNative.assign(count, std::nullopt);
        if (mHaveNormals)
            for (std::size_t v = 0; v < count; ++v)
                if (used[v]) mNative[v] = NativeNormal(input.normals[v]);
    }

    // Weld: equal raw positions in every frame (+ equal normal when normals are stored per vertex). File
    // vertices are numbered in first use along the faces in file order: a file that lists its vertices that
    // way comes back with the same numbering whatever the meshes did with them.
    void weldVertices() {
        const std::size_t frameCount = mFrameCount;
        const bool keyNormals = !mTable && mHaveNormals;
        std::map<std::vector<std::uint32_t>, std::uint32_t> welded;
        mFileVertex.assign(mCount, 0);
        mAssigned.assign(mCount, false);
        for (std::size_t p : mOrder)
            for (std::uint32_t v : mIn.polygons[p].corners) {
                if (mAssigned[v]) continue;
                mAssigned[v] = true;
                std::vector<std::uint32_t> key(mRaw.begin() + std::ptrdiff_t(3 * frameCount * v),
                                               mRaw.begin() + std::ptrdiff_t(3 * frameCount * (v + 1)));
                if (keyNormals) {
                    key.push_back(mNative[v] ? 1u : 0u);
                    if (mNative[v])
                        for (float f : *mNative[v]) {
                            std::uint32_t bits;
                            std::memcpy(&bits, &f, sizeof bits);
                            key.push_back(bits);
                        }
                }
                const auto inserted = welded.emplace(std::move(key), mNv);
                if (inserted.second) {
                    if (mNv == std::numeric_limits<std::uint32_t>::max() / 12) Fail("too many vertices");
                    mRepresentative.push_back(v);
                    ++mNv;
                }
                mFileVertex[v] = inserted.first->second;
            }
    }

    // rg.vertex_order: welded vertex k becomes file vertex vertexOrder[k] when it is a permutation; then the
    // model's base positions.
    void restoreVertexOrder() {
        const BuildInput &input = mIn;
        const std::uint32_t nv = mNv;
        std::vector<std::size_t> &representative = mRepresentative;
        if (!input.vertexOrder.empty()) {
            bool permutation = input.vertexOrder.size() == nv;
            std::vector<bool> seen(nv, false);
            for (std::size_t k = 0; permutation && k < input.vertexOrder.size(); ++k) {
                const std::uint32_t target = input.vertexOrder[k];
                permutation = target < nv && !seen[target];
                if (permutation) seen[target] = true;
            }
            if (permutation) {
                std::vector<std::size_t> reordered(nv);
                for (std::uint32_t k = 0; k < nv; ++k) reordered[input.vertexOrder[k]] = representative[k];
                representative = std::move(reordered);
                for (std::size_t v = 0; v < mCount; ++v)
                    if (mAssigned[v]) mFileVertex[v] = input.vertexOrder[mFileVertex[v]];
            } else {
                warn("rg.vertex_order does not match the welded vertices (edited scene): vertices "
                     "are numbered in first use");
            }
        }
        mModel.vertices.resize(3 * std::size_t(nv));
        for (std::uint32_t f = 0; f < nv; ++f)
            for (int i = 0; i < 3; ++i) mModel.vertices[3 * f + i] = mRaw[3 * mFrameCount * representative[f] + i];
    }

    // The face's texture value: the material's raw value, its name ("tex<bank>_<image>"/"color<index>"), its
    // texture file, the nearest palette colour to its diffuse colour, or the default.
    std::uint32_t textureOf(const BuildMaterial &material) const {
        if (material.texRaw) return *material.texRaw;
        if (auto fromName = TextureFromName(material.name)) return *fromName;
        if (auto fromPath = TextureFromPath(material.texturePath)) return *fromPath;
        const bool solidDefault = (mOptions.defaultTexture >> 20) == 0xFFFu;
        if (solidDefault && mOptions.palette && material.diffuse)
            return EncodeSolid(static_cast<std::uint8_t>(NearestPaletteEntry(*mOptions.palette, *material.diffuse)));
        return mOptions.defaultTexture;
    }

    // One face per polygon: texture, corners as file vertices, UVs in the file's delta encoding.
    void buildFaces() {
        bool clamped = false;
        for (std::size_t p : mOrder) {
            const BuildPolygon &polygon = mIn.polygons[p];
            const BuildMaterial &material = mIn.materials[polygon.material];
            Face face;
            face.texHi = material.texHi.value_or(0);
            face.texture = textureOf(material);
            const std::int64_t w = material.texW && *material.texW > 0 ? *material.texW : mOptions.fallbackTexSize;
            const std::int64_t h = material.texH && *material.texH > 0 ? *material.texH : mOptions.fallbackTexSize;
            std::vector<std::int64_t> us, vs;
            for (std::uint32_t c : polygon.corners) {
                double s = 0, t = 0;
                if (!mIn.uvs.empty()) {
                    s = mIn.uvs[c][0];
                    t = mIn.uvs[c][1];
                }
                const double u = std::nearbyint(s * 16.0 * double(w));
                const double vv = std::nearbyint((1.0 - t) * 16.0 * double(h));
                const double limit = 1e15;
                us.push_back(std::isfinite(u) ? std::int64_t(std::clamp(u, -limit, limit)) : 0);
                vs.push_back(std::isfinite(vv) ? std::int64_t(std::clamp(vv, -limit, limit)) : 0);
            }
            std::vector<std::int16_t> du, dv;
            EncodeUVs(us, 16 * w, du, clamped);
            EncodeUVs(vs, 16 * h, dv, clamped);
            for (std::size_t k = 0; k < polygon.corners.size(); ++k)
                face.corners.push_back({mFileVertex[polygon.corners[k]], du[k], dv[k]});
            mModel.faces.push_back(std::move(face));
        }
        if (clamped) warn("some UV coordinates span more than 2048 texels within a face: clamped to the i16 range");
    }

    // Face normals of the base pose and of every frame; the radius over all of them.
    void faceNormalsFramesAndRadius() {
        for (const Face &face : mModel.faces) {
            const Int3 n = ComputeFaceNormal(mModel.vertices, face);
            mModel.faceNormals.insert(mModel.faceNormals.end(), n.begin(), n.end());
        }
        std::uint32_t radius = ComputeRadius(mModel.vertices);
        for (std::size_t k = 0; k < mFrames->size(); ++k) {
            Frame frame;
            frame.positions.resize(mModel.vertices.size());
            for (std::uint32_t f = 0; f < mNv; ++f)
                for (int i = 0; i < 3; ++i)
                    frame.positions[3 * f + i] = mRaw[3 * (mFrameCount * mRepresentative[f] + k + 1) + i];
            for (const Face &face : mModel.faces) {
                const Int3 n = ComputeFaceNormal(frame.positions, face);
                frame.faceNormals.insert(frame.faceNormals.end(), n.begin(), n.end());
            }
            radius = std::max(radius, ComputeRadius(frame.positions));
            mModel.frames.push_back(std::move(frame));
        }
        // A stored radius a little above the computed one is the file's own (5 real models round instead of
        // flooring); far from it, the geometry was edited or rescaled and the stored value is stale.
        if (mIn.radius && *mIn.radius >= radius &&
            std::uint64_t(*mIn.radius) <= std::uint64_t(radius) + 1 + radius / 16)
            radius = *mIn.radius;
        mModel.radius = radius;
        mModel.header[9] = mIn.header24;
    }

    // Vertex normals: the scene's, else the unweighted sum of unit face normals (§6); through the normal
    // table (one slot per distinct normal of a vertex) or one per vertex.
    void vertexNormals() {
        std::vector<std::array<double, 3>> faceSums(mNv, std::array<double, 3>{0, 0, 0});
        for (std::size_t f = 0; f < mModel.faces.size(); ++f) {
            std::array<double, 3> unit{double(mModel.faceNormals[3 * f]), double(mModel.faceNormals[3 * f + 1]),
                                       double(mModel.faceNormals[3 * f + 2])};
            const double len = std::sqrt(unit[0] * unit[0] + unit[1] * unit[1] + unit[2] * unit[2]);
            if (!(len > 0)) continue;
            std::vector<std::uint32_t> seen;
            for (const FaceVertex &corner : mModel.faces[f].corners) {
                if (std::find(seen.begin(), seen.end(), corner.vertex) != seen.end()) continue;
                seen.push_back(corner.vertex);
                for (int i = 0; i < 3; ++i) faceSums[corner.vertex][i] += unit[i] / len;
            }
        }
        auto cornerNormal = [&](std::size_t inputVertex) -> Float3 {
            if (mHaveNormals && mNative[inputVertex]) return *mNative[inputVertex];
            return NormaliseOrZero(faceSums[mFileVertex[inputVertex]]);
        };
        if (mTable) {
            std::vector<std::vector<std::pair<Float3, std::uint32_t>>> slots(mNv);
            std::uint32_t next = 0;
            for (std::size_t p : mOrder)
                for (std::uint32_t c : mIn.polygons[p].corners) {
                    const Float3 n = cornerNormal(c);
                    auto &list = slots[mFileVertex[c]];
                    std::uint32_t slot = RG3DModel::kNoNormal;
                    for (const auto &entry : list)
                        if (SameNormal(entry.first, n)) {
                            slot = entry.second;
                            break;
                        }
                    if (slot == RG3DModel::kNoNormal) {
                        slot = next++;
                        list.emplace_back(n, slot);
                        mModel.vertexNormals.insert(mModel.vertexNormals.end(), n.begin(), n.end());
                    }
                    mModel.normalTable.push_back(slot);
                }
        } else {
            mModel.vertexNormals.resize(3 * std::size_t(mNv));
            for (std::uint32_t f = 0; f < mNv; ++f) {
                const Float3 n = cornerNormal(mRepresentative[f]);
                for (int i = 0; i < 3; ++i) mModel.vertexNormals[3 * f + i] = n[i];
            }
        }
    }

    // Section4 (v5.0 .3D only): the stored groups mapped to output faces, or one group of every face.
    void section4() {
        std::vector<BuildSection4Group> groups;
        if (mIn.section4) {
            // Stored groups name file face indices: map them to output faces.
            std::map<std::uint32_t, std::uint32_t> outputOf;
            for (std::size_t i = 0; i < mFileIndexOfOutput.size(); ++i)
                outputOf.emplace(mFileIndexOfOutput[i], static_cast<std::uint32_t>(i));
            bool dropped = false;
            for (const BuildSection4Group &group : *mIn.section4) {
                BuildSection4Group mapped;
                mapped.opaque = group.opaque;
                for (std::uint32_t face : group.faces) {
                    const auto it = outputOf.find(face);
                    if (it == outputOf.end()) {
                        dropped = true;
                        continue;
                    }
                    mapped.faces.push_back(it->second);
                }
                groups.push_back(std::move(mapped));
            }
            if (dropped) warn("rg.section4 names faces the scene does not have: those references are dropped");
        } else {
            BuildSection4Group all;
            all.faces.resize(mModel.faces.size());
            std::iota(all.faces.begin(), all.faces.end(), 0u);
            groups.push_back(std::move(all));
        }
        if (mModel.faces.size() > 0xFFFFu / 4) {
            warn("more than 16383 faces: Section4 cannot reference them (u16 face index·4) and is omitted");
            groups.clear();
        }
        // A stored Section4 of zero groups stays present (offset set, count 0), as the file had it.
        mModel.hasSection4 = !groups.empty() || (mIn.section4 && mIn.section4->empty());
        std::uint64_t offset = 64;
        std::vector<std::uint32_t> faceOffsets;
        for (const Face &face : mModel.faces) {
            faceOffsets.push_back(static_cast<std::uint32_t>(offset));
            offset += 10 + 8 * face.corners.size();
        }
        for (const BuildSection4Group &group : groups) mModel.section4.push_back(section4Group(group, faceOffsets));
    }

    // One Section4 group: centre and radius of its faces' vertices, the opaque triple, and its face refs.
    Section4Group section4Group(const BuildSection4Group &group, const std::vector<std::uint32_t> &faceOffsets) const {
        Section4Group out;
        std::array<std::int64_t, 3> lo{}, hi{};
        bool any = false;
        for (std::uint32_t f : group.faces)
            for (const FaceVertex &corner : mModel.faces[f].corners)
                for (int i = 0; i < 3; ++i) {
                    const std::int64_t v = mModel.vertices[3 * corner.vertex + i];
                    if (!any) lo[i] = hi[i] = v;
                    lo[i] = std::min(lo[i], v);
                    hi[i] = std::max(hi[i], v);
                    if (i == 2) any = true;
                }
        for (int i = 0; i < 3; ++i) out.centre[i] = static_cast<std::int32_t>((lo[i] + hi[i]) / 2);
        double maxDistance = 0;
        for (std::uint32_t f : group.faces)
            for (const FaceVertex &corner : mModel.faces[f].corners) {
                double d2 = 0;
                for (int i = 0; i < 3; ++i) {
                    const double d = double(mModel.vertices[3 * corner.vertex + i]) - double(out.centre[i]);
                    d2 += d * d;
                }
                maxDistance = std::max(maxDistance, std::sqrt(d2));
            }
        out.radius = static_cast<std::uint32_t>(std::min(std::floor(maxDistance), 4294967295.0));
        if (group.opaque) {
            out.opaque = *group.opaque;
        } else {
            for (int i = 0; i < 3; ++i)
                out.opaque[i] =
                    out.radius > 0
                        ? static_cast<float>(std::sqrt(3.0) * (double(hi[i] - lo[i]) / 2.0) / double(out.radius))
                        : 1.0f;
        }
        for (std::uint32_t f : group.faces) out.refs.push_back({faceOffsets[f], static_cast<std::uint16_t>(4 * f)});
        return out;
    }

    const BuildInput &mIn;
    const BuildOptions &mOptions;
    BuildResult mResult;
    RG3DModel &mModel = mResult.model;
    std::size_t mCount = 0; // input vertices
    bool mAnimated = false;
    bool mTable = false; // normals through the normal table
    const std::vector<std::vector<Float3>> mNoFrames;
    const std::vector<std::vector<Float3>> *mFrames = &mNoFrames; // the animation frames written (none for .3D)
    std::vector<std::size_t> mOrder;                              // input polygons in output order
    std::vector<std::uint32_t> mFileIndexOfOutput;                // the rg.face_order value of each output face
    std::size_t mFrameCount = 1;                                  // base pose + frames
    std::vector<bool> mUsed;                                      // input vertices some polygon uses
    std::vector<std::int32_t> mRaw;                               // [vertex][frame][axis] fixed-point positions
    bool mHaveNormals = false;
    std::vector<std::optional<Float3>> mNative; // input normals in the file's convention
    std::vector<std::uint32_t> mFileVertex;     // input vertex -> file vertex
    std::vector<bool> mAssigned;
    std::vector<std::size_t> mRepresentative; // the first input vertex of each file vertex
    std::uint32_t mNv = 0;                    // file vertices
};

} // namespace

BuildResult BuildModel(const BuildInput &input, const BuildOptions &options) {
    return ModelAssembler(input, options).run();
}

} // namespace gamefmt::redguard
