// What a union part looks like (docs/formats/roblox-union-mesh.md §2.1, §9; roblox-model.md §5.3): its own render
// mesh when the file carries one, else its source parts from the nested model, else its physics hulls — in the
// union's local frame, scaled by size / InitialSize, as pieces of one colour each.
#pragma once

#include "assimp_glue/roblox_model/geometry.hpp"
#include "importers/roblox_model/appearance/appearance.hpp"

#include <assimp/vector3.h>

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gamefmt::rbx {
struct UnionMesh;
}

namespace gamefmt::glue {

// Triangles of one colour: positions, normals, UVs (may be empty) and indices, union-local, scaled.
struct UnionPiece {
    bool ownColour = false; // `colour` is the piece's own (vertex colours, or a nested part's look)
    rbx::Look look;         // with ownColour: the look to draw it in
    std::vector<aiVector3D> positions, normals, uvs;
    std::vector<unsigned> indices;
};

struct UnionShape {
    std::string geometry; // rbx.geometry: "union-mesh", "union-parts" or "union-hull"
    std::string source;   // rbx.unionSource: "CSGMDL4", "SolidMesh", "ChildData2", "CSGPHS7", …
    bool negated = false; // nested NegateOperations were left out (the shape is too big)
    std::string key;      // the same key, size and look give the same pieces (for sharing meshes)
    std::vector<UnionPiece> pieces;
};

// Decoded blobs, shared by the unions of one document (identical SharedStrings are stored once).
class UnionCache {
public:
    UnionCache();
    ~UnionCache();
    UnionCache(const UnionCache &) = delete;
    UnionCache &operator=(const UnionCache &) = delete;
    // The render mesh or hulls of `blob`, null when it has none or does not decode (one warning per blob).
    const rbx::UnionMesh *render(std::string_view blob, const std::string &unionName);
    const rbx::UnionMesh *hulls(std::string_view blob, const std::string &unionName);

    // The render mesh of the union asset `uri` names (§2.1 step 3: a Roblox model in the asset folders whose first
    // instance with a MeshData/MeshData2/SolidMeshHolder, a PartOperationAsset, holds it); null when there is no
    // resolver, no such file, or nothing in it decodes (one warning per asset). Each URI is looked up once.
    const rbx::UnionMesh *asset(const std::string &uri, const RbxAssetResolver &resolver, const std::string &unionName);

    struct Entry; // a decoded blob (or none)

private:
    // Keyed by content (views into the document): equal String blobs of two unions are decoded once.
    std::map<std::string_view, std::unique_ptr<Entry>> mRender, mHulls;
    std::map<std::string, std::unique_ptr<Entry>> mAssets; // by URI
};

// The shape of union `index` of `doc` (its look and size as the part has them), or nullopt when nothing in the file
// describes it (the caller draws the placeholder box).
// `assetUri` is the union's AssetId (may be empty), looked up through `assets` (may be null) when the file holds no
// render mesh of its own.
std::optional<UnionShape> BuildUnionShape(const rbx::Document &doc, std::uint32_t index, const rbx::Appearance &looks,
                                          const rbx::Look &look, const rbx::Vector3 &size, unsigned segments,
                                          const std::string &assetUri, const RbxAssetResolver &assets,
                                          UnionCache &cache);

} // namespace gamefmt::glue
