// Redguard model / ROB archive -> aiScene (docs/formats/redguard-3d.md §9, §13): one node per model, one mesh per
// material key with the stored polygons (concave ones ear-clipped here), palette-coloured and embedded-PNG materials,
// frame animation as absolute morph targets with a one-hot weight track. The layout is the contract in
// assimp_glue/redguard/scene.hpp.
#include "assimp_glue/redguard/scene.hpp"

#include "assimp_glue/common/scene_util.hpp"
#include "common/error.hpp"
#include "common/png.hpp"
#include "common/text_number.hpp"
#include "importers/redguard/detect.hpp"

#include <assimp/anim.h>
#include <assimp/material.h>
#include <assimp/mesh.h>
#include <assimp/scene.h>
#include <assimp/texture.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <tuple>
#include <unordered_map>

namespace gamefmt::glue {
namespace {

using redguard::CornerNormal;
using redguard::Face;
using redguard::RG3DModel;
using redguard::TextureRef;

constexpr const char *kWarnPrefix = "Redguard 3D: ";

void Warn(const std::string &message) {
    LogWarn(kWarnPrefix + message);
}

// ---------------------------------------------------------------- ownership helpers

struct NodeDeleter {
    void operator()(aiNode *n) const { delete n; }
};
using NodePtr = std::unique_ptr<aiNode, NodeDeleter>;

void AttachChildren(aiNode *parent, std::vector<NodePtr> &children) {
    if (children.empty()) return;
    parent->mNumChildren = static_cast<unsigned>(children.size());
    parent->mChildren = new aiNode *[children.size()];
    for (std::size_t i = 0; i < children.size(); ++i) {
        parent->mChildren[i] = children[i].release();
        parent->mChildren[i]->mParent = parent;
    }
    children.clear();
}

template <typename T> T **ReleaseAll(std::vector<std::unique_ptr<T>> &items) {
    if (items.empty()) return nullptr;
    T **out = new T *[items.size()];
    for (std::size_t i = 0; i < items.size(); ++i) out[i] = items[i].release();
    items.clear();
    return out;
}

// ---------------------------------------------------------------- small geometry

struct V3 {
    double x = 0, y = 0, z = 0;
};
V3 Cross(const V3 &a, const V3 &b) {
    return {a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x};
}
double Length(const V3 &a) {
    return std::sqrt(a.x * a.x + a.y * a.y + a.z * a.z);
}
V3 Normalised(const V3 &a) {
    const double l = Length(a);
    return l > 0 && std::isfinite(l) ? V3{a.x / l, a.y / l, a.z / l} : V3{};
}

// Native raw position -> Assimp (−x, −y, z) / 256 · scale.
aiVector3D ToAiPosition(const std::int32_t *p, double scale) {
    const double k = scale / 256.0;
    return aiVector3D(static_cast<ai_real>(-double(p[0]) * k), static_cast<ai_real>(-double(p[1]) * k),
                      static_cast<ai_real>(double(p[2]) * k));
}
aiVector3D ToAiNormal(const V3 &n) {
    return aiVector3D(static_cast<ai_real>(-n.x), static_cast<ai_real>(-n.y), static_cast<ai_real>(n.z));
}

V3 RawPoint(const std::vector<std::int32_t> &positions, std::uint32_t vertex) {
    const std::size_t i = std::size_t(vertex) * 3;
    if (i + 2 >= positions.size()) return {};
    return {double(positions[i]), double(positions[i + 1]), double(positions[i + 2])};
}

// The right-hand (Newell) normal of a closed outline, twice its vector area.
V3 NewellNormal(const std::vector<V3> &pts) {
    V3 n;
    for (std::size_t i = 0; i < pts.size(); ++i) {
        const V3 &a = pts[i], &b = pts[(i + 1) % pts.size()];
        n.x += (a.y - b.y) * (a.z + b.z);
        n.y += (a.z - b.z) * (a.x + b.x);
        n.z += (a.x - b.x) * (a.y + b.y);
    }
    return n;
}

// The corner polygon projected onto the plane of its Newell normal (2D, orientation kept: CCW positive) into
// `out` (reused storage); left empty when the polygon has no area.
void Project(const std::vector<V3> &pts, std::vector<std::array<double, 2>> &out) {
    out.clear();
    V3 n = NewellNormal(pts);
    const double len = Length(n);
    if (!(len > 0)) return;
    n = {n.x / len, n.y / len, n.z / len};
    // An orthonormal basis (u, v) of the plane with u × v = n, so projected areas keep their sign.
    const V3 helper = std::fabs(n.x) < 0.9 ? V3{1, 0, 0} : V3{0, 1, 0};
    const V3 u = Normalised(Cross(helper, n));
    const V3 v = Cross(n, u);
    out.resize(pts.size());
    for (std::size_t i = 0; i < pts.size(); ++i)
        out[i] = {pts[i].x * u.x + pts[i].y * u.y + pts[i].z * u.z, pts[i].x * v.x + pts[i].y * v.y + pts[i].z * v.z};
}

double Cross2(const std::array<double, 2> &o, const std::array<double, 2> &a, const std::array<double, 2> &b) {
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0]);
}

// For an outline without area (collinear corners, or lobes that cancel): drop the axis it spreads least along.
std::vector<std::array<double, 2>> SpreadProjection(const std::vector<V3> &pts) {
    V3 lo = pts.front(), hi = pts.front();
    for (const V3 &q : pts) {
        lo = {std::min(lo.x, q.x), std::min(lo.y, q.y), std::min(lo.z, q.z)};
        hi = {std::max(hi.x, q.x), std::max(hi.y, q.y), std::max(hi.z, q.z)};
    }
    const double ex = hi.x - lo.x, ey = hi.y - lo.y, ez = hi.z - lo.z;
    std::vector<std::array<double, 2>> out(pts.size());
    for (std::size_t i = 0; i < pts.size(); ++i) {
        const V3 &q = pts[i];
        out[i] = ez <= ex && ez <= ey ? std::array<double, 2>{q.x, q.y}
                 : ey <= ex           ? std::array<double, 2>{q.z, q.x}
                                      : std::array<double, 2>{q.y, q.z};
    }
    return out;
}

// True when some corner turns the wrong way (a reflex corner).
bool IsConcave(const std::vector<std::array<double, 2>> &p) {
    const std::size_t n = p.size();
    if (n < 4) return false;
    double scale = 0;
    for (const auto &q : p) scale = std::max({scale, std::fabs(q[0]), std::fabs(q[1])});
    const double eps = 1e-9 * std::max(1.0, scale * scale);
    for (std::size_t i = 0; i < n; ++i)
        if (Cross2(p[(i + n - 1) % n], p[i], p[(i + 1) % n]) < -eps) return true;
    return false;
}

// The polygon as Assimp 5.2.5's aiProcess_Triangulate sees it: in Assimp's axes (−x, −y, z), projected by
// dropping the axis of the largest Newell component, orientation kept (its TriangulateProcess.cpp).
std::vector<std::array<double, 2>> AssimpProjection(const std::vector<V3> &native) {
    std::vector<V3> pts(native.size());
    for (std::size_t i = 0; i < native.size(); ++i) pts[i] = {-native[i].x, -native[i].y, native[i].z};
    const V3 n = NewellNormal(pts);
    const double ax = std::fabs(n.x), ay = std::fabs(n.y), az = std::fabs(n.z);
    int ac = 0, bc = 1; // drop z
    double inv = n.z;
    if (ax > ay) {
        if (ax > az) ac = 1, bc = 2, inv = n.x; // drop x
    } else if (ay > az) {
        ac = 2, bc = 0, inv = n.y; // drop y
    }
    if (inv < 0) std::swap(ac, bc);
    std::vector<std::array<double, 2>> out(pts.size());
    for (std::size_t i = 0; i < pts.size(); ++i) {
        const double c[3] = {pts[i].x, pts[i].y, pts[i].z};
        out[i] = {c[ac], c[bc]};
    }
    return out;
}

// True when the outline is convex and simple: no corner turns right, the outline never doubles back on itself,
// and it turns once around (a star or a self-crossing outline turns twice or more). Zero-length edges (repeated
// corners) are skipped.
bool IsConvexSimple(const std::vector<std::array<double, 2>> &p) {
    constexpr double kTwoPi = 6.283185307179586;
    const std::size_t n = p.size();
    double scale = 0;
    for (const auto &q : p) scale = std::max({scale, std::fabs(q[0]), std::fabs(q[1])});
    const double eps = 1e-9 * std::max(1.0, scale * scale);
    std::vector<std::array<double, 2>> edges;
    edges.reserve(n);
    for (std::size_t i = 0; i < n; ++i) {
        const std::array<double, 2> e{p[(i + 1) % n][0] - p[i][0], p[(i + 1) % n][1] - p[i][1]};
        if (e[0] != 0 || e[1] != 0) edges.push_back(e);
    }
    if (edges.size() < 3) return false;
    double turning = 0;
    for (std::size_t i = 0; i < edges.size(); ++i) {
        const auto &a = edges[i], &b = edges[(i + 1) % edges.size()];
        const double cross = a[0] * b[1] - a[1] * b[0], dot = a[0] * b[0] + a[1] * b[1];
        if (cross < -eps) return false;            // a reflex corner
        if (cross <= eps && dot < 0) return false; // a spike
        turning += std::atan2(cross, dot);
    }
    return std::fabs(turning - kTwoPi) < 1e-3;
}

// True when Assimp 5.2.5's aiProcess_Triangulate splits this polygon into exactly n − 2 triangles. Its ear
// search drops a face it finds no ear in (and whole meshes go empty that way) and cuts concave faces wrongly,
// so only a polygon that is convex and simple both in the Newell plane (`flat`) and in Assimp's own
// projection is left to it; the importer ear-clips every other one.
bool AssimpTriangulates(const std::vector<V3> &pts, const std::vector<std::array<double, 2>> &flat) {
    // Quads are fanned from their reflex corner and never dropped; a concave one is still cut wrongly.
    if (pts.size() == 4) return flat.empty() || !IsConcave(flat);
    return !flat.empty() && IsConvexSimple(flat) && IsConvexSimple(AssimpProjection(pts));
}

bool InTriangle(const std::array<double, 2> &q, const std::array<double, 2> &a, const std::array<double, 2> &b,
                const std::array<double, 2> &c) {
    return Cross2(a, b, q) >= 0 && Cross2(b, c, q) >= 0 && Cross2(c, a, q) >= 0;
}

// Ear clipping of a CCW polygon: exactly n − 2 triangles of local corner indices (degenerate input still
// yields n − 2, some of them without area). The triangle holding corner 0 comes first, starting with it.
// Cost is bounded for hostile files (a face has up to 255 corners and a file can hold thousands of faces):
// only corners that are not strictly convex can lie inside an ear of a simple polygon, so only those are
// tested; the search resumes beside the last ear instead of at corner 0; and after kEarTestBudget containment
// tests a face is finished by cutting its flattest corners (still n − 2 triangles, maybe slivers).
std::vector<std::array<std::uint32_t, 3>> EarClip(const std::vector<std::array<double, 2>> &p) {
    constexpr std::size_t kEarTestBudget = 1u << 16;
    std::vector<std::uint32_t> ring(p.size());
    for (std::size_t i = 0; i < p.size(); ++i) ring[i] = static_cast<std::uint32_t>(i);
    std::vector<std::array<std::uint32_t, 3>> tris;
    tris.reserve(p.size() - 2);
    std::vector<std::uint32_t> blockers; // ring entries that are reflex or flat, rebuilt per clip
    std::size_t tests = 0, start = 0;
    while (ring.size() > 3) {
        const std::size_t n = ring.size();
        std::size_t chosen = n;
        if (tests < kEarTestBudget) {
            blockers.clear();
            for (std::size_t i = 0; i < n; ++i)
                if (Cross2(p[ring[(i + n - 1) % n]], p[ring[i]], p[ring[(i + 1) % n]]) <= 0)
                    blockers.push_back(ring[i]);
            for (std::size_t k = 0; k < n && chosen == n; ++k) {
                const std::size_t i = (start + k) % n;
                const std::uint32_t a = ring[(i + n - 1) % n], b = ring[i], c = ring[(i + 1) % n];
                if (Cross2(p[a], p[b], p[c]) <= 0) continue; // reflex or flat: not an ear
                bool blocked = false;
                for (std::size_t j = 0; j < blockers.size() && !blocked; ++j) {
                    const std::uint32_t q = blockers[j];
                    if (q == a || q == b || q == c) continue;
                    if (p[q] == p[a] || p[q] == p[b] || p[q] == p[c]) continue; // a repeated corner
                    ++tests;
                    blocked = InTriangle(p[q], p[a], p[b], p[c]);
                }
                if (!blocked) chosen = i;
            }
        }
        if (chosen == n) {
            // No proper ear (self-touching or degenerate outline, or the budget is spent): cut the flattest
            // convex-or-flat corner.
            double best = -1e300;
            for (std::size_t i = 0; i < n; ++i) {
                const double c = Cross2(p[ring[(i + n - 1) % n]], p[ring[i]], p[ring[(i + 1) % n]]);
                if (c > best) {
                    best = c;
                    chosen = i;
                }
            }
        }
        start = chosen == 0 ? 0 : chosen - 1; // the corners beside the cut are the ones that changed
        tris.push_back({ring[(chosen + n - 1) % n], ring[chosen], ring[(chosen + 1) % n]});
        ring.erase(ring.begin() + static_cast<std::ptrdiff_t>(chosen));
    }
    tris.push_back({ring[0], ring[1], ring[2]});
    for (std::size_t t = 0; t < tris.size(); ++t) {
        auto &tri = tris[t];
        const auto at = std::find(tri.begin(), tri.end(), 0u);
        if (at == tri.end()) continue;
        std::rotate(tri.begin(), at, tri.end());
        std::rotate(tris.begin(), tris.begin() + static_cast<std::ptrdiff_t>(t),
                    tris.begin() + static_cast<std::ptrdiff_t>(t) + 1);
        break;
    }
    return tris;
}

// ---------------------------------------------------------------- text

std::string Hex(std::uint32_t v) {
    char buf[16];
    std::snprintf(buf, sizeof(buf), "%08x", v);
    return buf;
}

// The header words as the file stores them (little-endian).
std::vector<std::uint8_t> HeaderBytes(const std::array<std::uint32_t, 16> &header) {
    std::vector<std::uint8_t> bytes(64);
    for (std::size_t i = 0; i < 16; ++i)
        for (std::size_t b = 0; b < 4; ++b) bytes[4 * i + b] = static_cast<std::uint8_t>(header[i] >> (8 * b));
    return bytes;
}

std::string FloatText(float f) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.9g", double(f));
    return buf;
}

std::string Section4Text(const RG3DModel &model) {
    std::string out;
    std::size_t refs = 0;
    for (const redguard::Section4Group &group : model.section4) refs += group.refs.size();
    out.reserve(64 * model.section4.size() + 12 * refs);
    for (std::size_t g = 0; g < model.section4.size(); ++g) {
        const redguard::Section4Group &group = model.section4[g];
        if (g != 0) out += ';';
        for (int i = 0; i < 3; ++i) {
            AppendInt(out, group.centre[static_cast<std::size_t>(i)]);
            out += ',';
        }
        AppendUInt(out, group.radius);
        for (float f : group.opaque) {
            out += ',';
            out += FloatText(f);
        }
        out += ':';
        for (std::size_t r = 0; r < group.refs.size(); ++r) {
            if (r != 0) out += ',';
            AppendUInt(out, group.refs[r].faceOffset);
            out += '/';
            AppendUInt(out, group.refs[r].faceIndexTimes4);
        }
    }
    return out;
}

// One emitted face of a mesh for rg.face_order: the file face index and how many triangles it became
// (0 = kept as one polygon).
struct EmittedFace {
    std::uint32_t fileFace = 0;
    std::uint32_t pieces = 0;
};

std::string FaceOrderText(const std::vector<std::vector<EmittedFace>> &meshes) {
    std::string out;
    for (std::size_t m = 0; m < meshes.size(); ++m) {
        if (m != 0) out += ';';
        out += 'm' + std::to_string(m) + ':';
        const auto &faces = meshes[m];
        bool first = true;
        for (std::size_t i = 0; i < faces.size();) {
            if (!first) out += ',';
            first = false;
            if (faces[i].pieces != 0) {
                out += std::to_string(faces[i].fileFace) + 'x' + std::to_string(faces[i].pieces);
                ++i;
                continue;
            }
            std::size_t j = i;
            while (j + 1 < faces.size() && faces[j + 1].pieces == 0 && faces[j + 1].fileFace == faces[j].fileFace + 1)
                ++j;
            out += std::to_string(faces[i].fileFace);
            if (j > i) out += '-' + std::to_string(faces[j].fileFace);
            i = j + 1;
        }
    }
    return out;
}

// The file vertex indices in order of first use along the faces (file order, corners in order), runs as "a-b";
// empty when that order is 0, 1, 2, … (what an exporter numbering by first use reproduces anyway).
std::string VertexOrderText(const RG3DModel &model) {
    std::vector<bool> seen(model.vertexCount(), false);
    std::vector<std::uint32_t> order;
    for (const Face &face : model.faces) {
        if (face.corners.size() < 3) continue;
        for (const redguard::FaceVertex &corner : face.corners)
            if (corner.vertex < seen.size() && !seen[corner.vertex]) {
                seen[corner.vertex] = true;
                order.push_back(corner.vertex);
            }
    }
    bool identity = true;
    for (std::size_t i = 0; i < order.size() && identity; ++i) identity = order[i] == i;
    if (identity) return {};
    std::string out;
    for (std::size_t i = 0; i < order.size();) {
        std::size_t j = i;
        while (j + 1 < order.size() && order[j + 1] == order[j] + 1) ++j;
        if (!out.empty()) out += ',';
        out += std::to_string(order[i]);
        if (j > i) out += '-' + std::to_string(order[j]);
        i = j + 1;
    }
    return out;
}

// ---------------------------------------------------------------- materials and textures (shared scene-wide)

class MaterialTable {
public:
    MaterialTable(const RedguardSceneOptions &options, const RedguardSideFiles &side) : mOptions(options), mSide(side) {
        if (side.palette == nullptr) mGrey = redguard::GreyRampPalette();
    }

    struct Info {
        unsigned index = 0;
        int width = 256, height = 256; // texel size for the UVs
    };

    Info get(const Face &face, redguard::Version version) {
        const bool v2 = redguard::IsV2(version);
        const auto key = std::make_tuple(v2, face.texHi, face.texture);
        const auto found = mByKey.find(key);
        if (found != mByKey.end()) return found->second;
        const Info info = make(face, version);
        mByKey.emplace(key, info);
        return info;
    }

    void moveInto(aiScene *scene) {
        scene->mNumMaterials = static_cast<unsigned>(mMaterials.size());
        scene->mMaterials = ReleaseAll(mMaterials);
        scene->mNumTextures = static_cast<unsigned>(mTextures.size());
        scene->mTextures = ReleaseAll(mTextures);
    }

private:
    const redguard::Palette &colours() const { return mSide.palette != nullptr ? *mSide.palette : mGrey; }

    Info make(const Face &face, redguard::Version version) {
        const TextureRef ref = redguard::DecodeTexture(face.texture, version);
        Info info;
        info.width = info.height = std::max(1, mOptions.fallbackTexSize);
        std::string name;
        aiColor4D colour(0.8f, 0.8f, 0.8f, 1.0f);
        int textureIndex = -1;
        switch (ref.kind) {
        case TextureRef::Kind::Solid: {
            name = "color" + std::to_string(ref.colour);
            const auto &rgb = colours().rgb;
            const std::size_t at = std::size_t{ref.colour} * 3;
            colour = aiColor4D(rgb[at] / 255.0f, rgb[at + 1] / 255.0f, rgb[at + 2] / 255.0f, 1.0f);
            break;
        }
        case TextureRef::Kind::Texture: {
            name = "tex" + std::to_string(ref.bank) + "_" + std::to_string(ref.image);
            const redguard::TexImage *image = findImage(ref.bank, ref.image);
            if (image != nullptr) {
                info.width = image->width;
                info.height = image->height;
                textureIndex = texture(*image, ref.bank, ref.image);
                if (textureIndex >= 0) colour = aiColor4D(1, 1, 1, 1);
            }
            break;
        }
        case TextureRef::Kind::Invalid:
            name = "tex_invalid_" + Hex(face.texture);
            Warn("texture value 0x" + Hex(face.texture) +
                 " is neither a solid colour nor a base-40 texture name; "
                 "material \"" +
                 name + "\" is a placeholder");
            break;
        }

        std::unique_ptr<aiMaterial> material(MakeMaterial(name, colour));
        const int raw = static_cast<int>(face.texture);
        const int texHi = face.texHi;
        material->AddProperty(&raw, 1, rgkeys::kMatTexRaw, 0, 0);
        material->AddProperty(&texHi, 1, rgkeys::kMatTexHi, 0, 0);
        material->AddProperty(&info.width, 1, rgkeys::kMatTexW, 0, 0);
        material->AddProperty(&info.height, 1, rgkeys::kMatTexH, 0, 0);
        if (textureIndex >= 0) {
            const aiString path = ToAiString("*" + std::to_string(textureIndex));
            const int wrap = aiTextureMapMode_Wrap;
            for (const aiTextureType type : {aiTextureType_DIFFUSE, aiTextureType_BASE_COLOR}) {
                material->AddProperty(&path, AI_MATKEY_TEXTURE(type, 0));
                material->AddProperty(&wrap, 1, AI_MATKEY_MAPPINGMODE_U(type, 0));
                material->AddProperty(&wrap, 1, AI_MATKEY_MAPPINGMODE_V(type, 0));
            }
        }
        info.index = static_cast<unsigned>(mMaterials.size());
        mMaterials.push_back(std::move(material));
        return info;
    }

    const redguard::TexImage *findImage(unsigned bankNumber, unsigned imageIndex) {
        const redguard::TexBank *bank = mSide.bank ? mSide.bank(bankNumber) : nullptr;
        if (bank == nullptr) return nullptr;
        bool byOrdinal = false;
        const redguard::TexImage *image = redguard::FindTexImage(*bank, imageIndex, &byOrdinal);
        if (image == nullptr) {
            Warn("TEXBSI." + std::to_string(bankNumber) + " has no image " + std::to_string(imageIndex) +
                 "; the material stays untextured");
            return nullptr;
        }
        if (byOrdinal)
            Warn("TEXBSI." + std::to_string(bankNumber) + ": no record is named after image " +
                 std::to_string(imageIndex) + "; using the record at that position (\"" + image->name + "\")");
        if (image->width <= 0 || image->height <= 0) return nullptr;
        return image;
    }

    // The embedded PNG of a bank image (one per bank/image); -1 when there are no colours for it.
    int texture(const redguard::TexImage &image, unsigned bankNumber, unsigned imageIndex) {
        const auto key = std::make_pair(bankNumber, imageIndex);
        const auto found = mTextureByImage.find(key);
        if (found != mTextureByImage.end()) return found->second;
        // §11: a configured palette wins; otherwise an animated image's CMAP; otherwise the scene's palette.
        redguard::Palette cmap;
        const redguard::Palette *colours = mSide.palette;
        if (image.cmap && (!mSide.paletteConfigured || colours == nullptr)) {
            cmap.rgb = *image.cmap;
            colours = &cmap;
        }
        int index = -1;
        if (colours == nullptr) {
            if (!mWarnedNoPalette) Warn("no palette: textured materials carry no texture (set GAMEFMT_RG_PALETTE)");
            mWarnedNoPalette = true;
        } else {
            const std::vector<std::uint8_t> rgba = redguard::ImageToRgba(image, *colours);
            const std::vector<std::uint8_t> png =
                EncodePngRgba(rgba.data(), static_cast<std::uint32_t>(image.width),
                              static_cast<std::uint32_t>(image.height), redguard::kFormatName);
            auto texture = std::make_unique<aiTexture>();
            texture->mWidth = static_cast<unsigned>(png.size());
            texture->mHeight = 0;
            texture->pcData = new aiTexel[(png.size() + sizeof(aiTexel) - 1) / sizeof(aiTexel)];
            std::memcpy(texture->pcData, png.data(), png.size());
            std::strncpy(texture->achFormatHint, "png", HINTMAXTEXTURELEN - 1);
            texture->mFilename = ToAiString("TEXBSI." + std::to_string(bankNumber) + "/" + image.name + ".png");
            index = static_cast<int>(mTextures.size());
            mTextures.push_back(std::move(texture));
        }
        mTextureByImage.emplace(key, index);
        return index;
    }

    const RedguardSceneOptions &mOptions;
    const RedguardSideFiles &mSide;
    redguard::Palette mGrey;
    bool mWarnedNoPalette = false;
    std::map<std::tuple<bool, std::uint8_t, std::uint32_t>, Info> mByKey;
    std::map<std::pair<unsigned, unsigned>, int> mTextureByImage;
    std::vector<std::unique_ptr<aiMaterial>> mMaterials;
    std::vector<std::unique_ptr<aiTexture>> mTextures;
};

// ---------------------------------------------------------------- one model

// Where each mesh vertex comes from.
struct MeshVertex {
    std::uint32_t fileVertex = 0;
    std::size_t corner = 0; // the first corner (global index) that produced it
};

// An output vertex: the file vertex, its UV (bits of the doubles) and where its normal comes from.
struct VertexKey {
    std::uint32_t vertex;
    std::uint32_t source; // the smooth slot, or the face for flat corners
    std::uint64_t u, v;
    bool smooth;
    bool operator==(const VertexKey &o) const {
        return vertex == o.vertex && source == o.source && u == o.u && v == o.v && smooth == o.smooth;
    }
};
struct VertexKeyHash {
    std::size_t operator()(const VertexKey &k) const {
        std::uint64_t h = (std::uint64_t(k.vertex) << 32 | k.source) * 0x9E3779B97F4A7C15ull;
        h ^= (k.u + 0x632BE59BD9B4E019ull + (h << 6) + (h >> 2));
        h ^= (k.v * 0xC2B2AE3D27D4EB4Full + (h << 6) + (h >> 2));
        return static_cast<std::size_t>(h ^ (k.smooth ? 0x5555u : 0u));
    }
};

// VertexKey -> mesh vertex index: open addressing with linear probing in one array (no allocation per
// vertex, as std::unordered_map makes), grown at half load to keep probes short; keys are never erased.
class VertexIndex {
public:
    // The index stored for `key`; when absent, stores `next` and sets `inserted`.
    unsigned findOrInsert(const VertexKey &key, unsigned next, bool &inserted) {
        if ((mCount + 1) * 2 > mSlots.size()) grow();
        const std::size_t mask = mSlots.size() - 1;
        for (std::size_t i = Mix(VertexKeyHash{}(key)) & mask;; i = (i + 1) & mask) {
            Slot &slot = mSlots[i];
            if (!slot.used) {
                slot = {key, next, true};
                ++mCount;
                inserted = true;
                return next;
            }
            if (slot.key == key) {
                inserted = false;
                return slot.value;
            }
        }
    }

private:
    struct Slot {
        VertexKey key{};
        unsigned value = 0;
        bool used = false;
    };
    // splitmix64's finaliser: the probe start comes from the low bits, which the key hash alone mixes poorly.
    static std::uint64_t Mix(std::uint64_t h) {
        h = (h ^ (h >> 30)) * 0xBF58476D1CE4E5B9ull;
        h = (h ^ (h >> 27)) * 0x94D049BB133111EBull;
        return h ^ (h >> 31);
    }
    void grow() {
        std::vector<Slot> old(mSlots.empty() ? 64 : mSlots.size() * 2);
        old.swap(mSlots);
        mCount = 0;
        bool inserted = false;
        for (const Slot &slot : old)
            if (slot.used) findOrInsert(slot.key, slot.value, inserted);
    }
    std::vector<Slot> mSlots;
    std::size_t mCount = 0;
};

struct MeshBuild {
    unsigned material = 0;
    int texW = 256, texH = 256;
    std::vector<MeshVertex> vertices;
    std::vector<aiVector3D> uvs;
    VertexIndex lookup;
    std::vector<unsigned> faceIndices; // every face's indices, concatenated
    std::vector<unsigned> faceStart;   // where each face starts in faceIndices (plus the end)
    void addFace(const unsigned *indices, std::size_t n) {
        if (faceStart.empty()) faceStart.push_back(0);
        faceIndices.insert(faceIndices.end(), indices, indices + n);
        faceStart.push_back(static_cast<unsigned>(faceIndices.size()));
    }
    std::size_t faceCount() const { return faceStart.empty() ? 0 : faceStart.size() - 1; }
    std::vector<EmittedFace> order;
    bool hasTriangles = false, hasPolygons = false;
};

std::uint64_t Bits(double d) {
    std::uint64_t u = 0;
    if (d == 0) d = 0; // -0.0 and +0.0 are one UV
    std::memcpy(&u, &d, sizeof(u));
    return u;
}

class ModelBuilder {
public:
    ModelBuilder(const RG3DModel &model, const RedguardSceneOptions &options, MaterialTable &materials)
        : mModel(model), mOptions(options), mMaterials(materials) {}

    // Appends this model's meshes to `meshes`, their indices to `node`, its metadata to `md`, and its morph
    // channels to `channels`.
    void build(const std::string &modelName, aiNode *node, std::vector<std::unique_ptr<aiMesh>> &meshes,
               std::vector<std::unique_ptr<aiMeshMorphAnim>> &channels, MetadataBuilder &md) {
        for (const std::string &w : mModel.warnings) Warn(w);
        const std::size_t frames = frameCount();
        if (frames != mModel.frameCount())
            Warn("frames from " + std::to_string(frames) + " on do not match the base pose; dropped");
        const int baseFrame = std::clamp(mOptions.baseFrame, 0, static_cast<int>(frames) - 1);
        if (mOptions.baseFrame != baseFrame && frames > 1)
            Warn("GAMEFMT_RG_BASE_FRAME " + std::to_string(mOptions.baseFrame) + " is outside frames 0-" +
                 std::to_string(frames - 1) + "; showing frame " + std::to_string(baseFrame));

        const std::vector<std::array<double, 2>> uvs = redguard::CornerUVs(mModel);
        mNormals = redguard::CornerNormals(mModel);
        std::vector<MeshBuild> builds = groupFaces(uvs);
        // Smooth slots -> the faces sharing them (for per-frame normals).
        if (frames > 1 || baseFrame != 0) collectSlotFaces();
        std::vector<std::vector<EmittedFace>> order;
        makeMeshes(modelName, builds, frames, baseFrame, node, meshes, channels, order);
        addModelMetadata(frames, baseFrame, order, md);
    }

    // The faces grouped by material into mesh builds: welded corners (vertex, normal source, UV) and the
    // emitted faces.
    std::vector<MeshBuild> groupFaces(const std::vector<std::array<double, 2>> &uvs) {
        std::vector<MeshBuild> builds;
        std::map<unsigned, std::size_t> buildByMaterial; // material index -> build (material keys are unique)

        std::size_t cornerBase = 0;
        std::vector<unsigned> indices; // one face's output indices (reused)
        for (std::size_t f = 0; f < mModel.faces.size(); ++f) {
            const Face &face = mModel.faces[f];
            const std::size_t n = face.corners.size();
            const std::size_t first = cornerBase;
            cornerBase += n;
            if (n < 3) continue; // the reader already warned
            const MaterialTable::Info info = mMaterials.get(face, mModel.version);
            auto slot = buildByMaterial.find(info.index);
            if (slot == buildByMaterial.end()) {
                slot = buildByMaterial.emplace(info.index, builds.size()).first;
                builds.emplace_back();
                builds.back().material = info.index;
                builds.back().texW = info.width;
                builds.back().texH = info.height;
            }
            MeshBuild &mb = builds[slot->second];
            indices.assign(n, 0u);
            for (std::size_t c = 0; c < n; ++c) {
                const std::size_t corner = first + c;
                const std::uint32_t vertex = face.corners[c].vertex;
                const double u = corner < uvs.size() ? uvs[corner][0] : 0.0;
                const double v = corner < uvs.size() ? uvs[corner][1] : 0.0;
                const CornerNormal cn = corner < mNormals.size() ? mNormals[corner] : CornerNormal{};
                const std::uint32_t source = cn.smooth ? cn.slot : static_cast<std::uint32_t>(f);
                const VertexKey key{vertex, source, Bits(u), Bits(v), cn.smooth};
                bool inserted = false;
                const auto index = mb.lookup.findOrInsert(key, static_cast<unsigned>(mb.vertices.size()), inserted);
                indices[c] = index;
                if (!inserted) continue;
                mb.vertices.push_back({vertex, corner});
                mb.uvs.emplace_back(static_cast<ai_real>(u / (16.0 * mb.texW)),
                                    static_cast<ai_real>(1.0 - v / (16.0 * mb.texH)), 0.0f);
            }
            emitFace(mb, face, static_cast<std::uint32_t>(f), indices);
        }
        return builds;
    }

    // One aiMesh per build (base pose, UVs, faces, frames as anim meshes), listed on `node`.
    void makeMeshes(const std::string &modelName, std::vector<MeshBuild> &builds, std::size_t frameCount, int baseFrame,
                    aiNode *node, std::vector<std::unique_ptr<aiMesh>> &meshes,
                    std::vector<std::unique_ptr<aiMeshMorphAnim>> &channels,
                    std::vector<std::vector<EmittedFace>> &order) {
        std::vector<unsigned> nodeMeshes;
        for (std::size_t m = 0; m < builds.size(); ++m) {
            MeshBuild &mb = builds[m];
            auto mesh = std::make_unique<aiMesh>();
            mesh->mName = ToAiString(modelName + "_" + std::to_string(m));
            mesh->mMaterialIndex = mb.material;
            mesh->mPrimitiveTypes = (mb.hasTriangles ? unsigned(aiPrimitiveType_TRIANGLE) : 0u) |
                                    (mb.hasPolygons ? unsigned(aiPrimitiveType_POLYGON) : 0u);
            const auto count = static_cast<unsigned>(mb.vertices.size());
            mesh->mNumVertices = count;
            mesh->mVertices = new aiVector3D[count];
            mesh->mNormals = new aiVector3D[count];
            fillFrame(mb, static_cast<std::size_t>(baseFrame), mesh->mVertices, mesh->mNormals);
            mesh->mTextureCoords[0] = CopyToNewArray(mb.uvs);
            mesh->mNumUVComponents[0] = 2;
            mesh->mNumFaces = static_cast<unsigned>(mb.faceCount());
            mesh->mFaces = new aiFace[mb.faceCount()];
            for (std::size_t i = 0; i < mb.faceCount(); ++i) {
                const unsigned begin = mb.faceStart[i], end = mb.faceStart[i + 1];
                mesh->mFaces[i].mNumIndices = end - begin;
                mesh->mFaces[i].mIndices = new unsigned[end - begin];
                std::copy(mb.faceIndices.begin() + begin, mb.faceIndices.begin() + end, mesh->mFaces[i].mIndices);
            }
            if (frameCount > 1) addFrames(mb, mesh.get(), channels);
            order.push_back(std::move(mb.order));
            nodeMeshes.push_back(static_cast<unsigned>(meshes.size()));
            meshes.push_back(std::move(mesh));
        }
        if (!nodeMeshes.empty()) {
            node->mNumMeshes = static_cast<unsigned>(nodeMeshes.size());
            node->mMeshes = CopyToNewArray(nodeMeshes);
        }
    }

    // The model node's metadata (assimp_glue/redguard/scene.hpp lists it).
    void addModelMetadata(std::size_t frameCount, int baseFrame, const std::vector<std::vector<EmittedFace>> &order,
                          MetadataBuilder &md) const {
        md.add(rgkeys::kVersion, redguard::VersionString(mModel.version));
        md.add(rgkeys::kFrameType, static_cast<std::int32_t>(mModel.frameType));
        md.add(rgkeys::kNumFrames, static_cast<std::int32_t>(frameCount));
        md.add(rgkeys::kBaseFrame, static_cast<std::int32_t>(baseFrame));
        md.add(rgkeys::kHeader24, static_cast<std::int32_t>(mModel.header[9]));
        md.add(rgkeys::kRadius, static_cast<std::int32_t>(mModel.radius));
        md.add(rgkeys::kVertexNormals, mModel.vertexNormals.empty() ? "none"
                                       : mModel.normalTable.empty() ? "direct"
                                                                    : "table");
        md.add(rgkeys::kFaceOrder, FaceOrderText(order));
        const std::string vertexOrder = VertexOrderText(mModel);
        if (!vertexOrder.empty()) md.add(rgkeys::kVertexOrder, vertexOrder);
        if (mModel.hasSection4) md.add(rgkeys::kSection4, Section4Text(mModel));
        md.addBlob(rgkeys::kHeader, HeaderBytes(mModel.header));
        if (!mModel.v2Opaque.empty()) md.addBlob(rgkeys::kV2Block, mModel.v2Opaque.data(), mModel.v2Opaque.size());
        std::string unused;
        for (std::size_t f = 0; f < mModel.faces.size(); ++f) {
            if (mModel.faces[f].unused == 0) continue;
            if (!unused.empty()) unused += ',';
            AppendUInt(unused, f);
            unused += '=';
            unused += Hex(mModel.faces[f].unused);
        }
        if (!unused.empty()) md.add(rgkeys::kFaceUnused, unused);
    }

private:
    std::size_t frameCount() const {
        // Frames whose sizes disagree with the base cannot be shown: keep only the consistent prefix.
        std::size_t n = 1;
        for (const redguard::Frame &frame : mModel.frames) {
            if (frame.positions.size() != mModel.vertices.size() ||
                frame.faceNormals.size() != mModel.faceNormals.size())
                break;
            ++n;
        }
        return n;
    }

    const std::vector<std::int32_t> &framePositions(std::size_t k) const {
        return k == 0 ? mModel.vertices : mModel.frames[k - 1].positions;
    }
    const std::vector<std::int32_t> &frameFaceNormals(std::size_t k) const {
        return k == 0 ? mModel.faceNormals : mModel.frames[k - 1].faceNormals;
    }

    void emitFace(MeshBuild &mb, const Face &face, std::uint32_t fileFace, const std::vector<unsigned> &indices) {
        const std::size_t n = indices.size();
        if (n == 3) {
            mb.addFace(indices.data(), n);
            mb.order.push_back({fileFace, 0});
            mb.hasTriangles = true;
            return;
        }
        std::vector<V3> &pts = mScratchPoints; // reused: no allocation per polygon
        pts.resize(n);
        for (std::size_t c = 0; c < n; ++c) pts[c] = RawPoint(mModel.vertices, face.corners[c].vertex);
        std::vector<std::array<double, 2>> &flat = mScratchFlat;
        Project(pts, flat);
        if (AssimpTriangulates(pts, flat)) {
            mb.addFace(indices.data(), n);
            mb.order.push_back({fileFace, 0});
            mb.hasPolygons = true;
            return;
        }
        const auto tris = EarClip(flat.empty() ? SpreadProjection(pts) : flat);
        for (const auto &t : tris) {
            const unsigned tri[3] = {indices[t[0]], indices[t[1]], indices[t[2]]};
            mb.addFace(tri, 3);
        }
        mb.order.push_back({fileFace, static_cast<std::uint32_t>(tris.size())});
        mb.hasTriangles = true;
    }

    void collectSlotFaces() {
        std::size_t corner = 0;
        for (std::size_t f = 0; f < mModel.faces.size(); ++f) {
            for (std::size_t c = 0; c < mModel.faces[f].corners.size(); ++c, ++corner) {
                if (corner >= mNormals.size() || !mNormals[corner].smooth) continue;
                std::vector<std::uint32_t> &faces = mSlotFaces[mNormals[corner].slot];
                if (faces.empty() || faces.back() != f) faces.push_back(static_cast<std::uint32_t>(f));
            }
        }
        for (auto &entry : mSlotFaces) {
            std::sort(entry.second.begin(), entry.second.end());
            entry.second.erase(std::unique(entry.second.begin(), entry.second.end()), entry.second.end());
        }
    }

    V3 faceNormal(std::size_t frame, std::uint32_t face) const {
        const std::vector<std::int32_t> &fn = frameFaceNormals(frame);
        const std::size_t i = std::size_t(face) * 3;
        if (i + 2 >= fn.size()) return {};
        return Normalised({double(fn[i]), double(fn[i + 1]), double(fn[i + 2])});
    }

    // Positions and normals of frame `k` in the mesh's vertex order.
    void fillFrame(const MeshBuild &mb, std::size_t k, aiVector3D *positions, aiVector3D *normals) const {
        const std::vector<std::int32_t> &raw = framePositions(k);
        for (std::size_t i = 0; i < mb.vertices.size(); ++i) {
            const MeshVertex &mv = mb.vertices[i];
            const std::size_t at = std::size_t(mv.fileVertex) * 3;
            static const std::int32_t kZero[3] = {0, 0, 0};
            positions[i] = ToAiPosition(at + 2 < raw.size() ? &raw[at] : kZero, mOptions.scale);
            const CornerNormal cn = mv.corner < mNormals.size() ? mNormals[mv.corner] : CornerNormal{};
            V3 n{cn.normal[0], cn.normal[1], cn.normal[2]};
            if (k != 0) {
                V3 computed;
                if (cn.smooth) {
                    const auto found = mSlotFaces.find(cn.slot);
                    if (found != mSlotFaces.end()) {
                        V3 sum;
                        for (const std::uint32_t f : found->second) {
                            const V3 fn = faceNormal(k, f);
                            sum = {sum.x + fn.x, sum.y + fn.y, sum.z + fn.z};
                        }
                        computed = Normalised(sum);
                    }
                } else {
                    computed = faceNormal(k, cn.slot);
                }
                if (Length(computed) > 0) n = computed;
            }
            normals[i] = ToAiNormal(Length(n) > 0 ? Normalised(n) : V3{0, 0, 1});
        }
    }

    void addFrames(const MeshBuild &mb, aiMesh *mesh, std::vector<std::unique_ptr<aiMeshMorphAnim>> &channels) const {
        const std::size_t frames = frameCount();
        mesh->mMethod = aiMorphingMethod_MORPH_NORMALIZED;
        mesh->mNumAnimMeshes = static_cast<unsigned>(frames);
        mesh->mAnimMeshes = new aiAnimMesh *[frames]();
        for (std::size_t k = 0; k < frames; ++k) {
            auto *target = new aiAnimMesh();
            mesh->mAnimMeshes[k] = target;
            target->mName = ToAiString("frame" + std::to_string(k));
            target->mNumVertices = mesh->mNumVertices;
            target->mVertices = new aiVector3D[mesh->mNumVertices];
            target->mNormals = new aiVector3D[mesh->mNumVertices];
            target->mWeight = 0.0f;
            fillFrame(mb, k, target->mVertices, target->mNormals);
        }
        auto channel = std::make_unique<aiMeshMorphAnim>();
        channel->mName = mesh->mName;
        const std::size_t firstFrame = mOptions.includeFrame0 ? 0 : 1;
        const std::size_t keys = frames - firstFrame;
        channel->mNumKeys = static_cast<unsigned>(keys);
        channel->mKeys = new aiMeshMorphKey[keys];
        for (std::size_t i = 0; i < keys; ++i) {
            const std::size_t frame = firstFrame + i;
            aiMeshMorphKey &key = channel->mKeys[i];
            key.mTime = static_cast<double>(mOptions.includeFrame0 ? frame : frame - 1);
            key.mNumValuesAndWeights = static_cast<unsigned>(frames);
            key.mValues = new unsigned[frames];
            key.mWeights = new double[frames];
            for (std::size_t j = 0; j < frames; ++j) {
                key.mValues[j] = static_cast<unsigned>(j);
                key.mWeights[j] = j == frame ? 1.0 : 0.0;
            }
        }
        channels.push_back(std::move(channel));
    }

    const RG3DModel &mModel;
    const RedguardSceneOptions &mOptions;
    MaterialTable &mMaterials;
    std::vector<CornerNormal> mNormals;
    std::unordered_map<std::uint32_t, std::vector<std::uint32_t>> mSlotFaces;
    std::vector<V3> mScratchPoints;                  // EmitFace's corner positions
    std::vector<std::array<double, 2>> mScratchFlat; // and their projection
};

// ---------------------------------------------------------------- the scene

class SceneBuilder {
public:
    SceneBuilder(const RedguardSceneOptions &options, const RedguardSideFiles &side)
        : mOptions(options), mMaterials(options, side) {}

    aiNode *newRoot(const std::string &fileName) {
        mRoot.reset(new aiNode());
        mRoot->mName = ToAiString(mNames.make(fileName.empty() ? "Redguard" : fileName));
        return mRoot.get();
    }

    // A node for `model` named (uniquely) after `name`; `extra` metadata first (segment keys).
    NodePtr modelNode(const RG3DModel &model, const std::string &name, MetadataBuilder md) {
        NodePtr node(new aiNode());
        const std::string unique = mNames.make(name.empty() ? "model" : name);
        node->mName = ToAiString(unique);
        ModelBuilder builder(model, mOptions, mMaterials);
        builder.build(unique, node.get(), mMeshes, mChannels, md);
        node->mMetaData = md.build();
        return node;
    }

    NodePtr emptyNode(const std::string &name, const MetadataBuilder &md) {
        NodePtr node(new aiNode());
        node->mName = ToAiString(mNames.make(name.empty() ? "segment" : name));
        node->mMetaData = md.build();
        return node;
    }

    void finish(std::vector<NodePtr> &children, aiScene *scene, const char *format, const std::string &version) {
        AttachChildren(mRoot.get(), children);
        scene->mRootNode = mRoot.release();
        scene->mNumMeshes = static_cast<unsigned>(mMeshes.size());
        scene->mMeshes = ReleaseAll(mMeshes);
        if (scene->mNumMeshes == 0) scene->mFlags |= AI_SCENE_FLAGS_INCOMPLETE;
        mMaterials.moveInto(scene);
        if (!mChannels.empty()) {
            auto animation = std::make_unique<aiAnimation>();
            animation->mName = ToAiString(rgkeys::kAnimationName);
            animation->mTicksPerSecond = mOptions.fps > 0 && std::isfinite(mOptions.fps) ? mOptions.fps : 12.0;
            double duration = 0;
            for (const auto &channel : mChannels)
                if (channel->mNumKeys != 0) duration = std::max(duration, channel->mKeys[channel->mNumKeys - 1].mTime);
            animation->mDuration = duration;
            animation->mNumMorphMeshChannels = static_cast<unsigned>(mChannels.size());
            animation->mMorphMeshChannels = ReleaseAll(mChannels);
            scene->mNumAnimations = 1;
            scene->mAnimations = new aiAnimation *[1] { animation.release() };
        }
        SetSourceAsset(scene, format, version);
    }

private:
    const RedguardSceneOptions &mOptions;
    MaterialTable mMaterials;
    UniqueNames mNames;
    NodePtr mRoot;
    std::vector<std::unique_ptr<aiMesh>> mMeshes;
    std::vector<std::unique_ptr<aiMeshMorphAnim>> mChannels;
};

} // namespace

void BuildRedguardModelScene(const RG3DModel &model, const std::string &fileName, const std::string &modelName,
                             const RedguardSceneOptions &options, const RedguardSideFiles &side, aiScene *scene) {
    SceneBuilder builder(options, side);
    builder.newRoot(fileName);
    std::vector<NodePtr> children;
    children.push_back(builder.modelNode(model, modelName, MetadataBuilder()));
    builder.finish(children, scene, rgkeys::kSourceFormatModel, redguard::VersionString(model.version));
}

void BuildRedguardRobScene(const redguard::RobArchive &rob, const std::uint8_t *data, std::size_t size,
                           const std::string &fileName, const RedguardSceneOptions &options,
                           const RedguardSideFiles &side, aiScene *scene) {
    for (const std::string &w : rob.warnings) Warn(w);
    SceneBuilder builder(options, side);
    builder.newRoot(fileName);
    std::vector<NodePtr> children;
    for (redguard::RobEntry &entry : redguard::AssembleRob(rob, data, size, side.externalModel)) {
        const redguard::RobSegment &segment = *entry.segment;
        MetadataBuilder md;
        md.add(rgkeys::kSegmentName, std::string_view(segment.name));
        md.add(rgkeys::kSegmentType, static_cast<std::int32_t>(segment.type));
        md.add(rgkeys::kSegmentFlags, static_cast<std::int32_t>(segment.flags));
        md.add(rgkeys::kSegmentAttr, static_cast<std::int32_t>(segment.header[0x10]));
        md.addBlob(rgkeys::kSegmentHeader, segment.header.data(), segment.header.size());
        if (!entry.warning.empty()) Warn(entry.warning);
        using Source = redguard::RobEntry::Source;
        if (entry.source == Source::UnknownType) continue;
        if (entry.source == Source::MissingExternal)
            md.add(rgkeys::kExternal, "");
        else if (entry.source != Source::Embedded)
            md.add(rgkeys::kExternal, std::string_view(entry.externalPath));
        if (entry.model)
            children.push_back(builder.modelNode(*entry.model, segment.name, std::move(md)));
        else
            children.push_back(builder.emptyNode(segment.name, md));
    }
    builder.finish(children, scene, rgkeys::kSourceFormatRob, "OARC");
}

} // namespace gamefmt::glue
