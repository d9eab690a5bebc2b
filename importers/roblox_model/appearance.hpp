// What an instance of a Roblox document shows in Studio (docs/formats/roblox-model.md §4, §5.2–§5.5): which
// parts own geometry and of which shape, their look (colour, transparency, reflectance, Material), decals and
// textures on faces, lights and the camera. Reads property values defensively (missing or oddly typed values
// fall back to Roblox's defaults). No Assimp here: the glue turns these into meshes, materials and lights.
#pragma once

#include "importers/roblox_model/dom.hpp"
#include "importers/roblox_model/shapes.hpp"

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>

namespace gamefmt::rbx {

// BrickColor number → sRGB (the 208-entry palette of §4); nullopt for a number not in it.
std::optional<Color3uint8> BrickColorRgb(std::uint32_t number);

// Enum.Material value → name ("Plastic", "Neon", …); nullptr for a value not in §4's list.
const char *MaterialName(std::uint32_t material);

inline constexpr std::uint32_t kMaterialPlastic = 256;

// Where a part's geometry comes from.
enum class GeometrySource : std::uint8_t {
    None,        // draws nothing: Terrain (voxels, later), NegateOperation, not a part
    Shape,       // generated: `shape` with `size` and `offset`
    Placeholder, // MeshPart, FileMesh, union: a box of `size` until the real mesh can be loaded
};

struct PartGeometry {
    GeometrySource source = GeometrySource::None;
    ShapeKind shape = ShapeKind::Box;
    Vector3 size{4, 1.2f, 2};  // studs, mesh Scale applied
    Vector3 offset;            // part-local, from a mesh child's Offset
    std::string uri;           // Placeholder: the mesh asset (MeshContent / MeshId / AssetId), may be empty
    const char *stands = "";   // Placeholder: "mesh" or "union"
    bool approximated = false; // a SpecialMesh type drawn as the nearest shape (Torso, Prism, Pyramid, ramps…)
    std::uint32_t meshChild = kNoInstance; // the DataModelMesh child that decided the shape, if any
};

// A part's look (§5.5). Colour is sRGB as stored.
struct Look {
    Color3uint8 color{163, 162, 165};
    float transparency = 0; // clamped to 0..1
    float reflectance = 0;  // clamped to 0..1
    std::uint32_t material = kMaterialPlastic;
    std::uint32_t unknownBrickColor = 0; // a BrickColor number not in the palette (the colour is then 194's)
};

// A Decal or Texture on a face of its parent part.
struct DecalInfo {
    bool tiled = false; // Texture (tiles in studs) rather than Decal (stretched once)
    NormalId face = NormalId::Front;
    Color3 color{1, 1, 1}; // Color3 tint
    float transparency = 0;
    std::string uri; // TextureContent / Texture
    FaceMapping mapping;
    std::int32_t zIndex = 1;
};

struct LightInfo {
    enum class Kind : std::uint8_t { Point, Spot, Surface };
    Kind kind = Kind::Point;
    Color3 color{1, 1, 1};
    float brightness = 1;
    float range = 8;  // studs
    float angle = 90; // degrees, the whole cone (Spot, Surface)
    NormalId face = NormalId::Front;
    bool enabled = true;
    bool shadows = false;
};

class Appearance {
public:
    explicit Appearance(const Document &doc);

    // The geometry of instance `index` (None for instances that are not parts).
    PartGeometry geometry(std::uint32_t index) const;
    Look look(std::uint32_t index) const;
    // The part's `size` (Roblox's default 4 × 1.2 × 2 when absent).
    Vector3 size(std::uint32_t index) const;
    std::optional<DecalInfo> decal(std::uint32_t index) const;
    std::optional<LightInfo> light(std::uint32_t index) const;
    // Workspace.CurrentCamera's target (a Camera), or kNoInstance.
    std::uint32_t currentCamera() const;
    // A Camera's FieldOfView (vertical, degrees; 70 when absent or out of 1..179).
    float fieldOfView(std::uint32_t index) const;

private:
    struct Ids {
        std::optional<std::uint32_t> size, sizeCanonical, shape, shapeCanonical, color3uint8, brickColor,
            brickColorLower, transparency, reflectance, material, meshType, scale, offset, meshId, meshIdUpper,
            meshContent, assetId, face, color3, color, texture, textureContent, studsU, studsV, offsetU, offsetV,
            zIndex, brightness, range, angle, enabled, shadows, currentCamera, fieldOfView, cframe;
    };
    const Property *find(std::uint32_t index, const std::optional<std::uint32_t> &id) const;
    float floatOr(std::uint32_t index, const std::optional<std::uint32_t> &id, float fallback) const;
    std::uint32_t enumOr(std::uint32_t index, const std::optional<std::uint32_t> &id, std::uint32_t fallback) const;
    std::optional<Vector3> vector3(std::uint32_t index, const std::optional<std::uint32_t> &id) const;
    std::string text(std::uint32_t index, const std::optional<std::uint32_t> &id) const;
    // The first of the content-like properties that holds a non-empty text.
    std::string firstUri(std::uint32_t index, std::initializer_list<std::optional<std::uint32_t>> ids) const;
    bool isPart(std::uint32_t index, const std::string &className) const;
    void applyMeshChild(std::uint32_t part, PartGeometry &g) const;

    const Document &mDoc;
    Ids mIds;
};

} // namespace gamefmt::rbx
