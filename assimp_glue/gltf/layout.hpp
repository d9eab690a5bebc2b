// The glTF writer's internals (writer.hpp): the layout built from an aiScene before anything is written.
// Private to assimp_glue/gltf/.
#pragma once

#include "assimp_glue/gltf/writer.hpp"

#include <assimp/scene.h>
#include <draco/mesh/mesh.h>

#include <cmath>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <map>
#include <set>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

namespace gamefmt::glue::gltf {

constexpr int kArrayBuffer = 34962, kElementArrayBuffer = 34963;
constexpr float kPi = 3.14159265358979323846f;

std::string Num(double v);
inline std::string Str(const aiString &s) {
    return std::string(s.data, s.length);
}
bool IsIdentity(const aiMatrix4x4 &m);
inline bool IsSkinned(const aiMesh &m) {
    return m.mNumBones != 0 && m.mBones != nullptr;
}
// The 16 values in glTF's column-major order; false when one is not finite (JSON cannot hold it).
bool ColumnMajor(const aiMatrix4x4 &m, ai_real (&out)[16]);
// Appends the matrix as a JSON array of 16 numbers (column-major); false (nothing appended) when not finite.
bool AppendMatrix(std::string &out, const aiMatrix4x4 &m);
void AppendNum(std::string &out, double v);
inline bool Finite(const aiVector3D &v) {
    return std::isfinite(v.x) && std::isfinite(v.y) && std::isfinite(v.z);
}
inline void PutFloat(std::string &out, float f) {
    char b[4];
    static_assert(sizeof f == 4);
    std::memcpy(b, &f, 4);
    out.append(b, 4);
}

// The JSON of a float accessor of `count` elements of `type` on `view`, with min and max when given.
std::string FloatAccessor(unsigned view, std::size_t count, const char *type, const aiVector3D *lo = nullptr,
                          const aiVector3D *hi = nullptr);

// A transform applied to a mesh's vertex data as it is written: the unit scale, and for skinned meshes the
// node's global transform baked in.
struct Xform {
    aiMatrix4x4 m;
    aiMatrix3x3 linear, normal;
    bool identity = true;
    bool flip = false; // negative determinant
};
aiVector3D Position(const aiVector3D &p, const Xform &x);
// How many indices a face of `size` gives in a primitive of `mode` (0 points, 1 lines, 4 triangles; 0: left out).
std::size_t IndicesOf(unsigned size, int mode);

// What a buffer view holds: streamed from an aiMesh, or bytes computed during the layout (a blob).
enum class Kind : std::uint8_t { Positions, Normals, Tangents, Uvs, Colors, Indices, Blob, Texture };

struct View {
    Kind kind;
    unsigned item;                      // mesh, blob or aiTexture index
    int aux;                            // xform (positions, normals, tangents), set (UVs, colours), mode (indices)
    std::size_t offset = 0, length = 0; // in buffer 0: the bytes stored
    int target = 0;
    // EXT_meshopt_compression: how the view could be encoded (element size and ATTRIBUTES, TRIANGLES or INDICES;
    // null: it is not encoded), and once it is, the blob stored in buffer 0 instead of its bytes and where the
    // decoded bytes lie in the fallback buffer 1.
    unsigned stride = 0, count = 0;
    const char *mode = nullptr;
    int stored = -1;
    std::size_t fallbackOffset = 0, rawLength = 0;
};

struct OutNode {
    const aiNode *src = nullptr; // null for nodes the writer adds (camera/light frames, skinned meshes, joints)
    std::string name;            // of an added node
    long parent = -1;
    aiMatrix4x4 matrix;
    std::vector<std::size_t> children;
    int mesh = -1, skin = -1, camera = -1, light = -1;
    bool moved = false; // a skinned-mesh node moved to the root
};

struct Prim {
    unsigned mesh = 0;
    int xform = 0, skin = -1, mode = 4, material = -1;
    int position = -1, normal = -1, tangent = -1, indices = -1;
    std::size_t vertices = 0, indexCount = 0; // as written: after welding, or as Draco decodes them
    std::vector<int> uvs, colors, joints, weights;
    struct Target {
        int position = -1, normal = -1;
    };
    std::vector<Target> targets;
    std::vector<std::string> targetNames;
    std::vector<float> defaultWeights;
    // KHR_draco_mesh_compression: the view of the encoded primitive and the attribute ids, -1 when not used.
    int dracoView = -1;
    std::vector<std::pair<std::string, int>> dracoAttributes;
};

// An unindexed mesh written indexed: the original vertices written (in order) and each one's new index.
struct Weld {
    bool done = false;
    std::vector<unsigned> order, remap; // empty: the mesh is written as it is
};

struct OutMesh {
    std::vector<unsigned> prims;
    std::size_t targets = 0;
};

struct Skin {
    std::string name;
    std::vector<std::size_t> joints;
    int inverseBindMatrices = -1;
};

struct Sampler {
    int input = -1, output = -1;
    const char *interpolation = "LINEAR";
};
struct Channel {
    unsigned sampler = 0;
    std::size_t node = 0;
    const char *path = "translation";
};
struct OutAnimation {
    std::string name;
    std::string extras; // JSON object or ""
    std::vector<Sampler> samplers;
    std::vector<Channel> channels;
};

// KHR_draco_mesh_compression: a primitive's data as a Draco mesh (compress.cpp).
struct DracoAttribute {
    const char *name; // the glTF attribute
    int id;           // Draco's attribute id
    int components, bits;
    draco::GeometryAttribute::Type type;
};
struct DracoInput {
    draco::Mesh mesh;
    std::vector<DracoAttribute> attributes;
    std::string positions;      // the POSITION bytes (for the bounds)
    std::size_t plainBytes = 0; // what the plain views would take
};

struct OutImage {
    int texture = -1; // aiTexture index whose bytes are written as they are, else `blob`
    int blob = -1;
    std::string mime;
};

class Writer {
public:
    Writer(const aiScene &scene, const GltfOptions &options);

    GltfWriteReport build(const std::string &binUri);
    const std::string &json() const { return mJson; }
    std::size_t binLength() const { return mBinLength; }
    void streamBin(const ByteSink &sink) const;

    // Used by the compression pass (compress.cpp).
    const aiScene &scene() const { return mScene; }
    const GltfOptions &options() const { return mOptions; }

private:
    friend void Compress(Writer &writer);
    void collectNodes();
    const aiMatrix4x4 &globalOf(std::size_t node);
    void placeCamerasAndLights();
    void assignMeshes();
    void assignSkinned(std::size_t node, const std::vector<unsigned> &meshes, bool mustStay);
    int addXform(const aiMatrix4x4 &m);
    aiMatrix4x4 scaledLeft(aiMatrix4x4 m) const; // S·m
    aiMatrix4x4 conjugated(aiMatrix4x4 m) const; // S·m·S⁻¹: the translation scaled
    int addSkin(std::size_t node, const std::vector<std::string> &joints,
                const std::map<std::string, aiMatrix4x4> &offsets, const aiMatrix4x4 &inverseGlobal);
    unsigned meshOf(const std::vector<unsigned> &prims);
    unsigned primitive(unsigned mesh, int xform, int skin);
    const Weld &weldOf(unsigned mesh);
    std::size_t vertexCount(unsigned mesh); // after welding
    void layoutVertices(Prim &p);
    bool layoutDraco(Prim &p);
    void fillDraco(const Prim &p, std::size_t vertices, DracoInput &in) const;
    void compressViews();
    void markCompressible(unsigned view, unsigned stride, const char *mode) {
        mViews[view].stride = stride;
        mViews[view].mode = mode;
    }
    void layoutIndices(Prim &p);
    void layoutSkinWeights(Prim &p);
    void layoutTargets(Prim &p);
    void layoutAnimations();
    void addNodeChannels(const aiAnimation &anim, double tps, OutAnimation &out,
                         std::map<std::pair<std::size_t, std::string>, bool> &used);
    void addMorphChannels(const aiAnimation &anim, double tps, OutAnimation &out,
                          std::map<std::pair<std::size_t, std::string>, bool> &used);
    int timeAccessor(std::string times, float lo, float hi, std::size_t count);
    unsigned materialIndex(unsigned aiMaterialIndex);
    int textureOf(const aiMaterial &m, aiTextureType type, std::string &infoJson);
    int imageOf(const std::string &path);
    int samplerOf(const aiMaterial &m, aiTextureType type);

    std::string nodesJson();
    std::string meshesJson();
    std::string primitiveJson(const Prim &p, std::size_t targets);
    std::string materialsJson();
    std::string materialJson(const aiMaterial &m);
    std::string skinsJson();
    std::string animationsJson();
    std::string camerasJson();
    std::string lightsJson();
    std::string texturesJson();
    std::string animationExtras(const aiMaterial &m);
    std::string assetJson();
    std::string viewJson(const View &v) const;
    std::string meshoptFallbackJson() const;
    template <typename Put> void writeView(const View &v, Put &&put) const;
    template <typename Put>
    void writeIndices(const aiMesh &mesh, const Weld *weld, unsigned count, int mode, Put &&put) const;
    std::string viewBytes(const View &v) const;

    unsigned addView(Kind kind, unsigned item, int aux, std::size_t length, int target);
    unsigned addBlobView(std::string bytes, int target);
    // A blob view of elements of `stride` bytes that EXT_meshopt_compression may encode (vertex and animation data).
    unsigned addDataView(std::string bytes, int target, unsigned stride) {
        const unsigned view = addBlobView(std::move(bytes), target);
        markCompressible(view, stride, "ATTRIBUTES");
        return view;
    }
    unsigned addAccessor(std::string json);

    const aiScene &mScene;
    GltfOptions mOptions;
    double mScale = 1;
    GltfWriteReport mReport;
    std::string mJson;
    std::size_t mBinLength = 0;
    std::vector<View> mViews;
    std::vector<std::string> mAccessors;
    std::vector<std::string> mBlobs;
    std::vector<Xform> mXforms;

    std::vector<OutNode> mNodes;
    std::size_t mSourceNodes = 0;
    std::vector<std::size_t> mRoots;
    std::unordered_map<std::string, std::size_t> mByName;
    std::vector<aiMatrix4x4> mGlobals;
    std::map<std::size_t, std::vector<std::size_t>> mSkinnedNodesOf; // aiNode's index → nodes with its skinned meshes

    std::vector<Weld> mWelds; // per aiMesh
    std::vector<Prim> mPrims;
    std::map<std::tuple<unsigned, int, int>, unsigned> mPrimOfKey;
    std::vector<OutMesh> mMeshes;
    std::map<std::vector<unsigned>, unsigned> mMeshOfPrims;
    std::vector<Skin> mSkins;
    std::map<std::pair<std::vector<std::size_t>, std::string>, std::size_t> mSkinOfKey;
    std::vector<OutAnimation> mAnimations;
    std::map<std::string, int> mTimeAccessors;

    std::vector<int> mMaterialOf; // aiMaterial → glTF material, -1 unused
    std::vector<unsigned> mMaterials;
    int mMaterialUvSets = 0; // UV sets every primitive of the material being written has
    std::map<std::string, int> mImageOfPath;
    std::vector<OutImage> mImages;
    std::vector<std::string> mSamplers;
    std::map<std::pair<int, int>, int> mTextureOfKey; // (image, sampler) → texture
    std::vector<std::pair<int, int>> mTextures;
    std::vector<unsigned> mCameras, mLights;
    std::set<std::string> mExtensionsUsed, mExtensionsRequired;
    std::size_t mFallbackLength = 0; // meshopt: buffer 1's length
};

} // namespace gamefmt::glue::gltf
