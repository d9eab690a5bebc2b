// The glTF writer's optional compression (compress.hpp): KHR_draco_mesh_compression per triangle primitive
// (layoutDraco) and EXT_meshopt_compression per buffer view (Compress).
#include "assimp_glue/gltf/compress.hpp"

#include "assimp_glue/gltf/layout.hpp"

#include <draco/compression/decode.h>
#include <draco/compression/encode.h>
#include <draco/mesh/mesh.h>
#include <meshoptimizer.h>

#include <algorithm>
#include <cstring>
#include <stdexcept>

namespace gamefmt::glue::gltf {
namespace {

// Quantisation bits per attribute (what glTF tools default to: gltf-pipeline, Blender's exporter).
constexpr int kPositionBits = 14, kNormalBits = 10, kUvBits = 12, kColorBits = 10;
const char *const kTexcoordNames[] = {"TEXCOORD_0", "TEXCOORD_1", "TEXCOORD_2", "TEXCOORD_3",
                                      "TEXCOORD_4", "TEXCOORD_5", "TEXCOORD_6", "TEXCOORD_7"};
const char *const kColorNames[] = {"COLOR_0", "COLOR_1", "COLOR_2", "COLOR_3",
                                   "COLOR_4", "COLOR_5", "COLOR_6", "COLOR_7"};

int AddFloats(draco::Mesh &mesh, draco::GeometryAttribute::Type type, int components, const std::string &bytes,
              std::size_t count) {
    draco::GeometryAttribute ga;
    ga.Init(type, nullptr, static_cast<std::uint8_t>(components), draco::DT_FLOAT32, false,
            static_cast<std::int64_t>(4) * components, 0);
    const int id = mesh.AddAttribute(ga, true, static_cast<std::uint32_t>(count));
    if (id < 0) throw std::runtime_error("Draco refused an attribute");
    draco::PointAttribute *att = mesh.attribute(id);
    for (std::size_t i = 0; i < count; ++i)
        att->SetAttributeValue(draco::AttributeValueIndex(static_cast<std::uint32_t>(i)),
                               bytes.data() + i * 4 * static_cast<std::size_t>(components));
    return id;
}

} // namespace

// The primitive's vertex data and triangles as a Draco mesh (identity point mapping), with the glTF attribute
// each Draco attribute stands for.
void Writer::fillDraco(const Prim &p, std::size_t n, DracoInput &in) const {
    const aiMesh &mesh = *mScene.mMeshes[p.mesh];
    const auto bytesOf = [&](Kind kind, int aux, std::size_t length) {
        View v{kind, p.mesh, aux};
        v.length = length;
        return viewBytes(v);
    };
    in.mesh.set_num_points(static_cast<std::uint32_t>(n));
    const auto add = [&](const char *name, draco::GeometryAttribute::Type type, int components, int bits,
                         const std::string &bytes) {
        in.attributes.push_back({name, AddFloats(in.mesh, type, components, bytes, n), components, bits, type});
        in.plainBytes += bytes.size();
    };
    in.positions = bytesOf(Kind::Positions, p.xform, n * 12);
    add("POSITION", draco::GeometryAttribute::POSITION, 3, kPositionBits, in.positions);
    if (mesh.mNormals != nullptr)
        add("NORMAL", draco::GeometryAttribute::NORMAL, 3, kNormalBits, bytesOf(Kind::Normals, p.xform, n * 12));
    if (mesh.mNormals != nullptr && mesh.mTangents != nullptr)
        add("TANGENT", draco::GeometryAttribute::GENERIC, 4, kNormalBits, bytesOf(Kind::Tangents, p.xform, n * 16));
    for (int set = 0, k = 0; set < AI_MAX_NUMBER_OF_TEXTURECOORDS; ++set)
        if (mesh.mTextureCoords[set] != nullptr)
            add(kTexcoordNames[k++], draco::GeometryAttribute::TEX_COORD, 2, kUvBits, bytesOf(Kind::Uvs, set, n * 8));
    for (int set = 0, k = 0; set < AI_MAX_NUMBER_OF_COLOR_SETS; ++set)
        if (mesh.mColors[set] != nullptr)
            add(kColorNames[k++], draco::GeometryAttribute::COLOR, 4, kColorBits, bytesOf(Kind::Colors, set, n * 16));
    // The triangles, as the index view would hold them.
    std::size_t indexCount = 0;
    for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
        const aiFace &face = mesh.mFaces[f];
        bool inRange = face.mIndices != nullptr;
        for (unsigned i = 0; inRange && i < face.mNumIndices; ++i) inRange = face.mIndices[i] < mesh.mNumVertices;
        if (inRange) indexCount += IndicesOf(face.mNumIndices, 4);
    }
    const bool small = n < 65535;
    const std::string indices = bytesOf(Kind::Indices, 4, indexCount * (small ? 2 : 4));
    in.plainBytes += indices.size();
    in.mesh.SetNumFaces(indexCount / 3);
    for (std::size_t t = 0; t < indexCount / 3; ++t) {
        draco::Mesh::Face face;
        for (std::size_t k = 0; k < 3; ++k) {
            std::uint32_t index = 0;
            if (small) {
                std::uint16_t i16 = 0;
                std::memcpy(&i16, indices.data() + (t * 3 + k) * 2, 2);
                index = i16;
            } else {
                std::memcpy(&index, indices.data() + (t * 3 + k) * 4, 4);
            }
            face[k] = draco::PointIndex(index);
        }
        in.mesh.SetFace(draco::FaceIndex(static_cast<std::uint32_t>(t)), face);
    }
}

// A triangle primitive as one Draco stream: its accessors keep count, type and bounds but no buffer view. False
// (nothing laid out) when the stream would not be smaller than the plain data.
bool Writer::layoutDraco(Prim &p) {
    DracoInput in;
    fillDraco(p, vertexCount(p.mesh), in); // welded like the plain views would be
    draco::Encoder encoder;
    for (const DracoAttribute &a : in.attributes) encoder.SetAttributeQuantization(a.type, a.bits);
    encoder.SetSpeedOptions(5, 5);
    draco::EncoderBuffer buffer;
    const draco::Status status = encoder.EncodeMeshToBuffer(in.mesh, &buffer);
    if (!status.ok()) throw std::runtime_error(std::string("Draco encoding failed: ") + status.error_msg_string());
    if (buffer.size() >= in.plainBytes) return false; // tiny meshes do not pay
    // The accessor counts are what a decoder gives back (the edgebreaker may split points): decode once to know.
    draco::DecoderBuffer encoded;
    encoded.Init(buffer.data(), buffer.size());
    draco::Decoder decoder;
    auto decoded = decoder.DecodeMeshFromBuffer(&encoded);
    if (!decoded.ok()) throw std::runtime_error("Draco cannot read back what it wrote");
    const std::size_t points = decoded.value()->num_points();
    p.vertices = points;
    p.indexCount = std::size_t(decoded.value()->num_faces()) * 3;

    aiVector3D lo(0, 0, 0), hi(0, 0, 0);
    for (std::size_t v = 0; v * 12 < in.positions.size(); ++v) {
        aiVector3D q;
        std::memcpy(&q, in.positions.data() + v * 12, 12);
        if (v == 0) lo = hi = q;
        lo = aiVector3D(std::min(lo.x, q.x), std::min(lo.y, q.y), std::min(lo.z, q.z));
        hi = aiVector3D(std::max(hi.x, q.x), std::max(hi.y, q.y), std::max(hi.z, q.z));
    }
    static const char *kTypes[] = {"", "SCALAR", "VEC2", "VEC3", "VEC4"};
    for (const DracoAttribute &a : in.attributes) {
        std::string accessor = "{\"componentType\":5126,\"count\":" + std::to_string(points) + ",\"type\":\"" +
                               kTypes[a.components] + "\"";
        if (a.name == std::string("POSITION"))
            accessor += ",\"min\":[" + Num(lo.x) + "," + Num(lo.y) + "," + Num(lo.z) + "],\"max\":[" + Num(hi.x) + "," +
                        Num(hi.y) + "," + Num(hi.z) + "]";
        const int index = static_cast<int>(addAccessor(accessor + "}"));
        const std::string name = a.name;
        if (name == "POSITION")
            p.position = index;
        else if (name == "NORMAL")
            p.normal = index;
        else if (name == "TANGENT")
            p.tangent = index;
        else if (name.rfind("TEXCOORD_", 0) == 0)
            p.uvs.push_back(index);
        else
            p.colors.push_back(index);
        p.dracoAttributes.emplace_back(name, in.mesh.attribute(a.id)->unique_id());
    }
    p.indices = static_cast<int>(addAccessor("{\"componentType\":" + std::string(points < 65535 ? "5123" : "5125") +
                                             ",\"count\":" + std::to_string(p.indexCount) + ",\"type\":\"SCALAR\"}"));
    p.dracoView =
        static_cast<int>(addBlobView(std::string(reinterpret_cast<const char *>(buffer.data()), buffer.size()), 0));
    mExtensionsUsed.insert("KHR_draco_mesh_compression");
    mExtensionsRequired.insert("KHR_draco_mesh_compression");
    return true;
}

void Compress(Writer &w) {
    w.compressViews();
}

// EXT_meshopt_compression: every vertex, index and animation view is encoded (meshoptimizer's vertex codec
// version 0 and index codec version 1, what the extension specifies) into buffer 0; the views themselves move
// to buffer 1, a fallback buffer without data, so the file requires the extension.
void Writer::compressViews() {
    if (!mOptions.meshopt) return;
    meshopt_encodeVertexVersion(0);
    meshopt_encodeIndexVersion(1);
    std::size_t bin = 0;
    bool any = false;
    for (View &v : mViews) {
        std::string encoded;
        if (v.mode != nullptr && v.stride != 0 && v.length % v.stride == 0 && v.length != 0) {
            const std::string raw = viewBytes(v);
            const std::size_t count = raw.size() / v.stride;
            if (std::strcmp(v.mode, "ATTRIBUTES") == 0) {
                encoded.resize(meshopt_encodeVertexBufferBound(count, v.stride));
                encoded.resize(meshopt_encodeVertexBuffer(reinterpret_cast<unsigned char *>(encoded.data()),
                                                          encoded.size(), raw.data(), count, v.stride));
            } else {
                std::vector<unsigned> indices(count);
                for (std::size_t i = 0; i < count; ++i) {
                    if (v.stride == 2) {
                        std::uint16_t s = 0;
                        std::memcpy(&s, raw.data() + i * 2, 2);
                        indices[i] = s;
                    } else {
                        std::memcpy(&indices[i], raw.data() + i * 4, 4);
                    }
                }
                const std::size_t vertices =
                    indices.empty() ? 0 : *std::max_element(indices.begin(), indices.end()) + 1;
                const bool triangles = std::strcmp(v.mode, "TRIANGLES") == 0;
                encoded.resize(triangles ? meshopt_encodeIndexBufferBound(count, vertices)
                                         : meshopt_encodeIndexSequenceBound(count, vertices));
                auto *out = reinterpret_cast<unsigned char *>(encoded.data());
                encoded.resize(triangles ? meshopt_encodeIndexBuffer(out, encoded.size(), indices.data(), count)
                                         : meshopt_encodeIndexSequence(out, encoded.size(), indices.data(), count));
            }
            if (encoded.empty()) throw std::runtime_error("meshoptimizer could not encode a buffer view");
        }
        // A view whose encoding is not smaller (tiny meshes: the codec's block headers) stays as it is.
        if (!encoded.empty() && encoded.size() < v.length) {
            v.rawLength = v.length;
            v.count = static_cast<unsigned>(v.length / v.stride);
            v.fallbackOffset = (mFallbackLength + 3) / 4 * 4;
            mFallbackLength = v.fallbackOffset + v.rawLength;
            encoded.shrink_to_fit(); // it was sized for the codec's worst case
            mBlobs.push_back(std::move(encoded));
            v.stored = static_cast<int>(mBlobs.size() - 1);
            v.length = mBlobs.back().size();
            any = true;
        }
        v.offset = (bin + 3) / 4 * 4;
        bin = v.offset + v.length;
    }
    mBinLength = bin;
    if (any) {
        mExtensionsUsed.insert("EXT_meshopt_compression");
        mExtensionsRequired.insert("EXT_meshopt_compression");
    }
}

} // namespace gamefmt::glue::gltf
