// The glTF writer's binary stream and file framing (layout.hpp), and the entry points of writer.hpp.
#include "assimp_glue/gltf/layout.hpp"

#include <assimp/scene.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace gamefmt::glue::gltf {
namespace {

constexpr std::size_t kPieceBytes = std::size_t(1) << 20;

aiVector3D UnitOr(aiVector3D v, const aiVector3D &fallback) {
    const float length = v.Length();
    if (!(length > 0) || !std::isfinite(length)) return fallback;
    return std::fabs(length - 1) > 1e-6f ? v / length : v;
}

// The glTF tangent of vertex `i`: the tangent transformed, made orthogonal to the normal and unit (any unit
// vector across the normal when it is zero), w = -1 where the bitangent says the UVs are mirrored.
void TangentOf(const aiMesh &mesh, unsigned i, const Xform &x, float (&out)[4]) {
    const aiVector3D &n0 = mesh.mNormals[i], &t0 = mesh.mTangents[i];
    const aiVector3D n = UnitOr(x.normal * n0, aiVector3D(0, 0, 1));
    aiVector3D t = x.linear * t0;
    t = t - n * (t * n);
    t = UnitOr(t, std::fabs(n.x) < 0.9f ? UnitOr(n ^ aiVector3D(1, 0, 0), aiVector3D(0, 1, 0))
                                        : UnitOr(n ^ aiVector3D(0, 1, 0), aiVector3D(0, 0, 1)));
    float w = 1;
    if (mesh.mBitangents != nullptr && ((n0 ^ t0) * mesh.mBitangents[i]) < 0) w = -1;
    if (x.flip) w = -w;
    out[0] = t.x, out[1] = t.y, out[2] = t.z, out[3] = w;
}

} // namespace

std::string Writer::viewJson(const View &v) const {
    if (v.stored < 0) {
        std::string j =
            "{\"buffer\":0,\"byteOffset\":" + std::to_string(v.offset) + ",\"byteLength\":" + std::to_string(v.length);
        if (v.target != 0) j += ",\"target\":" + std::to_string(v.target);
        return j + "}";
    }
    std::string j = "{\"buffer\":1,\"byteOffset\":" + std::to_string(v.fallbackOffset) +
                    ",\"byteLength\":" + std::to_string(v.rawLength);
    if (v.target != 0) j += ",\"target\":" + std::to_string(v.target);
    return j + ",\"extensions\":{\"EXT_meshopt_compression\":{\"buffer\":0,\"byteOffset\":" + std::to_string(v.offset) +
           ",\"byteLength\":" + std::to_string(v.length) + ",\"byteStride\":" + std::to_string(v.stride) +
           ",\"count\":" + std::to_string(v.count) + ",\"mode\":\"" + v.mode + "\"}}}";
}

// EXT_meshopt_compression's fallback buffer: no data (a reader must decode), only its length.
std::string Writer::meshoptFallbackJson() const {
    if (mFallbackLength == 0) return {};
    return ",{\"byteLength\":" + std::to_string((mFallbackLength + 3) / 4 * 4) +
           ",\"extensions\":{\"EXT_meshopt_compression\":{\"fallback\":true}}}";
}

// The index view of `mesh` (mode 0, 1 or 4: faces of other sizes and faces with an index out of range left out,
// as the layout counted them; polygons as fans), through the weld when there is one.
template <typename Put>
void Writer::writeIndices(const aiMesh &meshRef, const Weld *weld, unsigned count, int mode, Put &&put) const {
    const aiMesh *mesh = &meshRef;
    const bool small = count < 65535;
    const auto index = [&](unsigned original) {
        const unsigned i = weld != nullptr ? weld->remap[original] : original;
        if (small) {
            const auto i16 = static_cast<std::uint16_t>(i);
            put(&i16, 2);
        } else {
            put(&i, 4);
        }
    };
    for (unsigned f = 0; f < mesh->mNumFaces; ++f) {
        const aiFace &face = mesh->mFaces[f];
        if (IndicesOf(face.mNumIndices, mode) == 0 || face.mIndices == nullptr) continue;
        bool inRange = true;
        for (unsigned k = 0; inRange && k < face.mNumIndices; ++k) inRange = face.mIndices[k] < mesh->mNumVertices;
        if (!inRange) continue;
        if (mode != 4) {
            for (unsigned k = 0; k < face.mNumIndices; ++k) index(face.mIndices[k]);
            continue;
        }
        for (unsigned k = 2; k < face.mNumIndices; ++k) { // a fan for polygons
            index(face.mIndices[0]);
            index(face.mIndices[k - 1]);
            index(face.mIndices[k]);
        }
    }
}

template <typename Put> void Writer::writeView(const View &v, Put &&put) const {
    const aiMesh *mesh = v.kind == Kind::Blob || v.kind == Kind::Texture ? nullptr : mScene.mMeshes[v.item];
    const Weld *weld =
        mesh != nullptr && v.item < mWelds.size() && !mWelds[v.item].order.empty() ? &mWelds[v.item] : nullptr;
    const unsigned count = weld != nullptr   ? static_cast<unsigned>(weld->order.size())
                           : mesh != nullptr ? mesh->mNumVertices
                                             : 0;
    const auto vertex = [weld](unsigned i) { return weld != nullptr ? weld->order[i] : i; };
    switch (v.kind) {
    case Kind::Positions: {
        const Xform &x = mXforms[static_cast<std::size_t>(v.aux)];
        for (unsigned i = 0; i < count; ++i) {
            const aiVector3D p = Position(mesh->mVertices[vertex(i)], x);
            put(&p, 12);
        }
        break;
    }
    case Kind::Normals: {
        // glTF wants unit normals (ACCESSOR_VECTOR3_NON_UNIT): other importers' normals are scaled back.
        const Xform &x = mXforms[static_cast<std::size_t>(v.aux)];
        const bool rotate = v.aux != 0;
        for (unsigned i = 0; i < count; ++i) {
            const aiVector3D &n0 = mesh->mNormals[vertex(i)];
            const aiVector3D n = UnitOr(rotate ? x.normal * n0 : n0, aiVector3D(0, 0, 1));
            put(&n, 12);
        }
        break;
    }
    case Kind::Tangents: {
        const Xform &x = mXforms[static_cast<std::size_t>(v.aux)];
        for (unsigned k = 0; k < count; ++k) {
            float out[4];
            TangentOf(*mesh, vertex(k), x, out);
            put(out, 16);
        }
        break;
    }
    case Kind::Uvs:
        for (unsigned i = 0; i < count; ++i) {
            const aiVector3D &c = mesh->mTextureCoords[v.aux][vertex(i)];
            const float uv[2] = {std::isfinite(c.x) ? c.x : 0.0f, std::isfinite(c.y) ? 1.0f - c.y : 0.0f};
            put(uv, 8);
        }
        break;
    case Kind::Colors:
        for (unsigned i = 0; i < count; ++i) {
            const aiColor4D &c = mesh->mColors[v.aux][vertex(i)];
            const auto clamp = [](float f) { return f > 0 ? (f < 1 ? f : 1.0f) : 0.0f; };
            const float rgba[4] = {clamp(c.r), clamp(c.g), clamp(c.b), clamp(c.a)};
            put(rgba, 16);
        }
        break;
    case Kind::Indices:
        writeIndices(*mesh, weld, count, v.aux, put);
        break;
    case Kind::Blob:
        put(mBlobs[v.item].data(), mBlobs[v.item].size());
        break;
    case Kind::Texture:
        put(mScene.mTextures[v.item]->pcData, v.length);
        break;
    }
}

std::string Writer::viewBytes(const View &v) const {
    std::string out;
    out.reserve(v.length);
    writeView(v, [&out](const void *data, std::size_t size) { out.append(static_cast<const char *>(data), size); });
    return out;
}

// Streams the BIN data: every view in order, zero padding between them and at the end (to 4 bytes).
void Writer::streamBin(const ByteSink &sink) const {
    std::string piece;
    piece.reserve(kPieceBytes + 64);
    std::size_t written = 0;
    const auto flush = [&](bool always) {
        if (!piece.empty() && (always || piece.size() >= kPieceBytes)) {
            sink(piece.data(), piece.size());
            written += piece.size();
            piece.clear();
        }
    };
    const auto put = [&](const void *data, std::size_t size) {
        piece.append(static_cast<const char *>(data), size);
        flush(false);
    };
    for (const View &v : mViews) {
        piece.append(v.offset - (written + piece.size()), '\0');
        if (v.stored >= 0)
            put(mBlobs[static_cast<std::size_t>(v.stored)].data(), mBlobs[static_cast<std::size_t>(v.stored)].size());
        else
            writeView(v, put);
    }
    piece.append((mBinLength + 3) / 4 * 4 - mBinLength, '\0');
    flush(true);
}

namespace {

void PutU32(std::string &out, std::uint32_t v) {
    for (int k = 0; k < 4; ++k) out += static_cast<char>((v >> (8 * k)) & 0xFF);
}

// Hands `text` to `sink` in pieces of about 1 MiB.
void Stream(const std::string &text, const ByteSink &sink) {
    for (std::size_t at = 0; at < text.size(); at += kPieceBytes)
        sink(text.data() + at, std::min(kPieceBytes, text.size() - at));
}

GltfWriteReport WriteGlb(const aiScene &scene, const GltfOptions &options, const ByteSink &sink) {
    Writer w(scene, options);
    const GltfWriteReport report = w.build("");
    const std::size_t json = w.json().size();
    const std::size_t paddedJson = (json + 3) / 4 * 4;
    const std::size_t bin = (w.binLength() + 3) / 4 * 4;
    const std::size_t total = 12 + 8 + paddedJson + (bin != 0 ? 8 + bin : 0);
    if (total > 0xFFFFFFFFu) throw std::runtime_error("the scene needs more than the 4 GiB a glb can hold");
    std::string header = "glTF";
    PutU32(header, 2);
    PutU32(header, static_cast<std::uint32_t>(total));
    PutU32(header, static_cast<std::uint32_t>(paddedJson));
    header += "JSON";
    sink(header.data(), header.size());
    Stream(w.json(), sink);
    const std::string pad(paddedJson - json, ' ');
    if (!pad.empty()) sink(pad.data(), pad.size());
    if (bin != 0) {
        std::string chunk;
        PutU32(chunk, static_cast<std::uint32_t>(bin));
        chunk += "BIN";
        chunk += '\0';
        sink(chunk.data(), chunk.size());
        w.streamBin(sink);
    }
    return report;
}

std::string FileName(const std::string &path) {
    const std::size_t slash = path.find_last_of("/\\");
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

} // namespace
} // namespace gamefmt::glue::gltf

namespace gamefmt::glue {

GltfWriteReport WriteGltf(const aiScene &scene, const GltfOptions &options, const std::string &path,
                          const std::string &binPath, const OpenOutput &open) {
    if (options.binary) return gltf::WriteGlb(scene, options, open(path));
    gltf::Writer w(scene, options);
    const GltfWriteReport report = w.build(gltf::FileName(binPath));
    gltf::Stream(w.json(), open(path));
    if (w.binLength() != 0) w.streamBin(open(binPath));
    return report;
}

bool IsNodeOnlyScene(const aiScene &scene) {
    return scene.mRootNode != nullptr && scene.mNumMeshes == 0 && scene.mNumAnimations == 0 && scene.mNumCameras == 0 &&
           scene.mNumLights == 0 && scene.mNumTextures == 0;
}

std::size_t WriteNodeOnlyGltf(const aiScene &scene, bool binary, const ByteSink &sink) {
    GltfOptions options;
    options.binary = binary;
    options.keepUnits = true;
    if (binary) return gltf::WriteGlb(scene, options, sink).lostMatrices;
    gltf::Writer w(scene, options);
    const GltfWriteReport report = w.build("");
    gltf::Stream(w.json(), sink);
    return report.lostMatrices;
}

bool HasCleanPrimitives(const aiScene &scene) {
    for (unsigned m = 0; m < scene.mNumMeshes; ++m) {
        const aiMesh *mesh = scene.mMeshes[m];
        if (mesh == nullptr) return false;
        unsigned size = 0;
        switch (mesh->mPrimitiveTypes) {
        case aiPrimitiveType_POINT:
            size = 1;
            break;
        case aiPrimitiveType_LINE:
            size = 2;
            break;
        case aiPrimitiveType_TRIANGLE:
            size = 3;
            break;
        default:
            return false;
        }
        for (unsigned f = 0; f < mesh->mNumFaces; ++f)
            if (mesh->mFaces[f].mNumIndices != size) return false;
    }
    return true;
}

} // namespace gamefmt::glue
