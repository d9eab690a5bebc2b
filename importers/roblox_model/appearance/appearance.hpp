// What an instance of a Roblox document shows in Studio (docs/formats/roblox-model.md §5.1–§5.5): which
// parts own geometry and of which shape, their look (colour, transparency, reflectance, Material), decals and
// textures on faces, lights and the camera. Reads property values defensively (missing or oddly typed values
// fall back to Roblox's defaults). No Assimp here: the glue turns these into meshes, materials and lights.
#pragma once

#include "importers/roblox_model/appearance/brickcolor.hpp"
#include "importers/roblox_model/document/dom.hpp"
#include "importers/roblox_model/geometry/shapes.hpp"

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace gamefmt::rbx {

// Enum.Material value → name ("Plastic", "Neon", …); nullptr for a value not in §5.1's list.
const char *MaterialName(std::uint32_t material);

inline constexpr std::uint32_t kMaterialPlastic = 256;

// A legacy XML `<Content><binary>` (2008 places: an image's file bytes inside the file, §3) stands where a URI
// would as "gamefmt-legacy:sha256/<hex of the bytes>"; the glue embeds the bytes themselves as the texture.
inline constexpr const char *kLegacyContentUriPrefix = "gamefmt-legacy:sha256/";
std::string LegacyContentUri(std::string_view bytes);
// The URI a content-like property (Content, String, legacy <Content><binary>) names; "" when none.
std::string ContentUriOf(const Property *p);

// Where a part's geometry comes from.
enum class GeometrySource : std::uint8_t {
    None,        // draws nothing: Terrain (voxels, later), NegateOperation, not a part
    Shape,       // generated: `shape` with `size` and `offset`
    Placeholder, // MeshPart, FileMesh, union: a box of `size` until the real mesh can be loaded
};

// Which mesh asset a Placeholder stands for (§5.3).
enum class MeshAsset : std::uint8_t {
    None,     // a union, or not a placeholder
    MeshPart, // `uri` scaled by size / InitialSize, centred
    FileMesh, // a SpecialMesh FileMesh / FileMesh child: `uri` ∘ meshScale + offset, part size not applied
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
    // Mesh assets (Placeholder with asset != None):
    MeshAsset asset = MeshAsset::None;
    Vector3 initialSize;          // MeshPart InitialSize (0 when absent: the mesh's own extent is used)
    Vector3 meshScale{1, 1, 1};   // FileMesh Scale
    Vector3 vertexColor{1, 1, 1}; // FileMesh VertexColor (multiplies the texture)
    std::string textureUri;       // MeshPart TextureContent / TextureID, FileMesh TextureId
    std::uint32_t surfaceAppearance = kNoInstance; // MeshPart's SurfaceAppearance child
};

// A union's geometry blobs (docs/formats/roblox-union-mesh.md §2): views of its String / SharedString property
// bytes (empty when absent), valid while the document lives.
struct UnionData {
    std::string_view solidMesh, meshData2, meshData, childData2, childData, physicalConfig, physics;
    bool usePartColor = false;
    Vector3 initialSize;    // 0 when absent
    bool intersect = false; // IntersectOperation
};

// A Terrain's voxels and looks (docs/formats/roblox-terrain.md §3).
struct TerrainData {
    std::string_view smoothGrid, materialColors;
    Color3 waterColor{12 / 255.0f, 84 / 255.0f, 92 / 255.0f};
    float waterTransparency = 0.3f;
};

// A SurfaceAppearance's maps (ColorMap… or ColorMapContent…); empty when absent.
struct SurfaceMaps {
    std::string color, normal, metalness, roughness;
    std::string texturePack; // TexturePack (hidden): a TexturePack asset naming the maps (§5.5)
    Color3 tint{1, 1, 1};    // Color
};

// A part's look (§5.4). Colour is sRGB as stored.
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

// The sun of a place's Lighting (§5.5): where it is at TimeOfDay (ClockTime) and GeographicLatitude.
struct SunInfo {
    Vector3 towardSun;    // unit vector from the scene to the sun (+Y up; +X is where it rises)
    float brightness = 1; // Lighting.Brightness
    float clockTime = 14; // hours
    float latitude = 41.7333f;
};

class Appearance {
public:
    explicit Appearance(const Document &doc);
    // True for the serialized property names this class reads (ReadOptions::keepProperty for a reader that
    // only builds the scene).
    static bool Reads(std::string_view name);

    // The geometry of instance `index` (None for instances that are not parts); for a part, `look` (when given)
    // gets its look too, read in the same pass over its properties.
    PartGeometry geometry(std::uint32_t index, Look *look = nullptr) const;
    // The part's `size` (Roblox's default 4 × 1.2 × 2 when absent).
    Vector3 size(std::uint32_t index) const;
    std::optional<DecalInfo> decal(std::uint32_t index) const;
    // The voxels of a Terrain instance (nullopt for another class).
    std::optional<TerrainData> terrainData(std::uint32_t index) const;
    // The blobs of a union part (nullopt for another class).
    std::optional<UnionData> unionData(std::uint32_t index) const;
    // The maps of a SurfaceAppearance (nullopt for another class).
    std::optional<SurfaceMaps> surfaceMaps(std::uint32_t index) const;
    std::optional<LightInfo> light(std::uint32_t index) const;
    // Workspace.CurrentCamera's target (a Camera), or kNoInstance.
    std::uint32_t currentCamera() const;
    // A Camera's FieldOfView (vertical, degrees; 70 when absent or out of 1..179).
    float fieldOfView(std::uint32_t index) const;
    // The sun of the top-level Lighting service (nullopt when there is none): with θ = 2π·(ClockTime mod 24)/24
    // and α = 23.5°·cos(π·(ClockTime mod 24)/24 / 182.6282) − GeographicLatitude, the direction to the sun is
    // (sin θ·cos α, −cos θ·cos α, −sin α) — Roblox's sky model as reconstructed by Quenty's SunPositionUtils
    // (a day circle tilted by the latitude and the season of the first day of the year).
    std::optional<SunInfo> sun() const;

    // The properties this class reads, by slot; an instance's are found in one pass over its properties.
    enum Slot : std::uint8_t {
        kSize,
        kSizeCanonical,
        kShape,
        kShapeCanonical,
        kColor3uint8,
        kBrickColor,
        kBrickColorLower,
        kTransparency,
        kReflectance,
        kMaterial,
        kMeshType,
        kScale,
        kOffset,
        kMeshId,
        kMeshIdUpper,
        kMeshContent,
        kAssetId,
        kFace,
        kColor3,
        kColor,
        kTexture,
        kTextureContent,
        kStudsU,
        kStudsV,
        kOffsetU,
        kOffsetV,
        kZIndex,
        kBrightness,
        kRange,
        kAngle,
        kEnabled,
        kShadows,
        kCurrentCamera,
        kFieldOfView,
        kCFrame,
        kTimeOfDay,
        kClockTime,
        kLatitude,
        kInitialSize,
        kTextureID,
        kTextureId,
        kVertexColor,
        kColorMap,
        kColorMapContent,
        kNormalMap,
        kNormalMapContent,
        kMetalnessMap,
        kMetalnessMapContent,
        kRoughnessMap,
        kRoughnessMapContent,
        kMeshData,
        kMeshData2,
        kSolidMeshHolder,
        kChildData,
        kChildData2,
        kPhysicalConfigData,
        kPhysicsData,
        kUsePartColor,
        kSmoothGrid,
        kMaterialColors,
        kWaterColor,
        kWaterTransparency,
        kTexturePack,
        kSlotCount
    };
    struct Props {
        const Property *at[kSlotCount] = {};
    };

    // What a class is to this reader, decided once per interned class name.
    enum class ClassKind : std::uint8_t {
        Other,
        NoGeometry,
        Part,
        WedgePart,
        CornerWedgePart,
        MeshPart,
        Union,
        SpecialMesh,
        BlockMesh,
        CylinderMesh,
        FileMesh,
        Decal,
        Texture,
        PointLight,
        SpotLight,
        SurfaceLight,
        SurfaceAppearance,
    };

private:
    Props gather(std::uint32_t index) const;
    Look lookOf(const Props &p) const;
    ClassKind kindOf(std::uint32_t index) const;
    bool isPart(const Props &p, ClassKind kind) const;
    void applyMeshChild(std::uint32_t part, PartGeometry &g) const;
    std::string_view bytesOf(const Property *p) const; // String or SharedString bytes

    const Document &mDoc;
    std::vector<std::uint8_t> mSlotOfName; // interned name id → Slot, kSlotCount when unused
    std::vector<ClassKind> mKindOfName;    // interned name id → ClassKind
};

} // namespace gamefmt::rbx
