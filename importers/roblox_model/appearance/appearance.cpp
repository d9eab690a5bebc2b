// What each instance shows (docs/formats/roblox-model.md §5.2–§5.5): part shapes and mesh children, looks,
// decals, lights, the current camera. Property names are looked up once (interned ids) and values are read
// whatever numeric type a file used for them.
#include "importers/roblox_model/appearance/appearance.hpp"

#include "common/sha256.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <iterator>

namespace gamefmt::rbx {

std::string LegacyContentUri(std::string_view bytes) {
    Sha256 hash;
    hash.update(reinterpret_cast<const std::uint8_t *>(bytes.data()), bytes.size());
    return kLegacyContentUriPrefix + hash.hexDigest();
}

namespace {

struct MaterialEntry {
    std::uint32_t value;
    const char *name;
};

// Enum.Material (§5.1), sorted by value.
constexpr MaterialEntry kMaterials[] = {
    {256, "Plastic"},        {272, "SmoothPlastic"}, {288, "Neon"},           {512, "Wood"},
    {528, "WoodPlanks"},     {784, "Marble"},        {788, "Basalt"},         {800, "Slate"},
    {804, "CrackedLava"},    {816, "Concrete"},      {820, "Limestone"},      {832, "Granite"},
    {836, "Pavement"},       {848, "Brick"},         {864, "Pebble"},         {880, "Cobblestone"},
    {896, "Rock"},           {912, "Sandstone"},     {1040, "CorrodedMetal"}, {1056, "DiamondPlate"},
    {1072, "Foil"},          {1088, "Metal"},        {1280, "Grass"},         {1284, "LeafyGrass"},
    {1296, "Sand"},          {1312, "Fabric"},       {1328, "Snow"},          {1344, "Mud"},
    {1360, "Ground"},        {1376, "Asphalt"},      {1392, "Salt"},          {1536, "Ice"},
    {1552, "Glacier"},       {1568, "Glass"},        {1584, "ForceField"},    {1792, "Air"},
    {2048, "Water"},         {2304, "Cardboard"},    {2305, "Carpet"},        {2306, "CeramicTiles"},
    {2307, "ClayRoofTiles"}, {2308, "RoofShingles"}, {2309, "Leather"},       {2310, "Plaster"},
    {2311, "Rubber"},
};

float Clamp01(float v) {
    if (!(v > 0)) return 0; // NaN too
    return v < 1 ? v : 1;
}

NormalId FaceOf(std::uint32_t value) {
    return value <= 5 ? static_cast<NormalId>(value) : NormalId::Front;
}

} // namespace

const char *MaterialName(std::uint32_t material) {
    const auto it = std::lower_bound(std::begin(kMaterials), std::end(kMaterials), material,
                                     [](const MaterialEntry &e, std::uint32_t v) { return e.value < v; });
    return it != std::end(kMaterials) && it->value == material ? it->name : nullptr;
}

namespace {
constexpr const char *kSlotNames[] = {"size",
                                      "Size",
                                      "shape",
                                      "Shape",
                                      "Color3uint8",
                                      "BrickColor",
                                      "brickColor",
                                      "Transparency",
                                      "Reflectance",
                                      "Material",
                                      "MeshType",
                                      "Scale",
                                      "Offset",
                                      "MeshId",
                                      "MeshID",
                                      "MeshContent",
                                      "AssetId",
                                      "Face",
                                      "Color3",
                                      "Color",
                                      "Texture",
                                      "TextureContent",
                                      "StudsPerTileU",
                                      "StudsPerTileV",
                                      "OffsetStudsU",
                                      "OffsetStudsV",
                                      "ZIndex",
                                      "Brightness",
                                      "Range",
                                      "Angle",
                                      "Enabled",
                                      "Shadows",
                                      "CurrentCamera",
                                      "FieldOfView",
                                      "CFrame",
                                      "TimeOfDay",
                                      "ClockTime",
                                      "GeographicLatitude",
                                      "InitialSize",
                                      "TextureID",
                                      "TextureId",
                                      "VertexColor",
                                      "ColorMap",
                                      "ColorMapContent",
                                      "NormalMap",
                                      "NormalMapContent",
                                      "MetalnessMap",
                                      "MetalnessMapContent",
                                      "RoughnessMap",
                                      "RoughnessMapContent",
                                      "MeshData",
                                      "MeshData2",
                                      "SolidMeshHolder",
                                      "ChildData",
                                      "ChildData2",
                                      "PhysicalConfigData",
                                      "PhysicsData",
                                      "UsePartColor",
                                      "SmoothGrid",
                                      "MaterialColors",
                                      "WaterColor",
                                      "WaterTransparency",
                                      "TexturePack"};
static_assert(std::size(kSlotNames) == Appearance::kSlotCount, "one name per slot");
} // namespace

bool Appearance::Reads(std::string_view name) {
    for (const char *n : kSlotNames)
        if (name == n) return true;
    return false;
}

Appearance::Appearance(const Document &doc)
    : mDoc(doc), mSlotOfName(doc.names.size(), kSlotCount), mKindOfName(doc.names.size(), ClassKind::Other) {
    // BasePart classes that always own geometry; other classes do when they carry a CFrame and a Vector3 size.
    static const std::pair<const char *, ClassKind> kClasses[] = {
        {"Part", ClassKind::Part},
        {"SpawnLocation", ClassKind::Part},
        {"Seat", ClassKind::Part},
        {"VehicleSeat", ClassKind::Part},
        {"SkateboardPlatform", ClassKind::Part},
        {"FlagStand", ClassKind::Part},
        {"Platform", ClassKind::Part},
        {"TrussPart", ClassKind::Part},
        {"WedgePart", ClassKind::WedgePart},
        {"CornerWedgePart", ClassKind::CornerWedgePart},
        {"MeshPart", ClassKind::MeshPart},
        {"UnionOperation", ClassKind::Union},
        {"IntersectOperation", ClassKind::Union},
        {"PartOperation", ClassKind::Union},
        {"Terrain", ClassKind::NoGeometry},
        {"NegateOperation", ClassKind::NoGeometry},
        {"SpecialMesh", ClassKind::SpecialMesh},
        {"BlockMesh", ClassKind::BlockMesh},
        {"CylinderMesh", ClassKind::CylinderMesh},
        {"FileMesh", ClassKind::FileMesh},
        {"Decal", ClassKind::Decal},
        {"Texture", ClassKind::Texture},
        {"PointLight", ClassKind::PointLight},
        {"SpotLight", ClassKind::SpotLight},
        {"SurfaceLight", ClassKind::SurfaceLight},
        {"SurfaceAppearance", ClassKind::SurfaceAppearance},
    };
    for (const auto &[name, kind] : kClasses)
        if (const auto id = doc.names.find(name); id && *id < mKindOfName.size()) mKindOfName[*id] = kind;
    for (std::uint8_t slot = 0; slot < kSlotCount; ++slot)
        if (const auto id = doc.names.find(kSlotNames[slot]); id && *id < mSlotOfName.size()) mSlotOfName[*id] = slot;
}

Appearance::ClassKind Appearance::kindOf(std::uint32_t index) const {
    if (index >= mDoc.instances.size()) return ClassKind::Other;
    const std::uint32_t cls = mDoc.instances[index].className;
    return cls < mKindOfName.size() ? mKindOfName[cls] : ClassKind::Other;
}

Appearance::Props Appearance::gather(std::uint32_t index) const {
    Props out;
    if (index >= mDoc.instances.size()) return out;
    for (const Property &p : mDoc.instances[index].properties) {
        if (p.name >= mSlotOfName.size()) continue;
        const std::uint8_t slot = mSlotOfName[p.name];
        if (slot < kSlotCount && out.at[slot] == nullptr) out.at[slot] = &p;
    }
    return out;
}

namespace {

float FloatOr(const Property *p, float fallback) {
    if (p == nullptr) return fallback;
    if (const auto *f = std::get_if<float>(&p->value.data)) return *f;
    if (const auto *d = std::get_if<double>(&p->value.data)) return static_cast<float>(*d);
    if (const auto *i = std::get_if<std::int32_t>(&p->value.data)) return static_cast<float>(*i);
    return fallback;
}

std::uint32_t EnumOr(const Property *p, std::uint32_t fallback) {
    if (p == nullptr) return fallback;
    if (const auto *e = std::get_if<EnumValue>(&p->value.data)) return e->value;
    if (const auto *i = std::get_if<std::int32_t>(&p->value.data)) return static_cast<std::uint32_t>(*i);
    return fallback;
}

std::optional<Vector3> Vector3Of(const Property *p) {
    if (p == nullptr) return std::nullopt;
    if (const auto *v = std::get_if<Vector3>(&p->value.data)) return *v;
    return std::nullopt;
}

template <typename T> const T *ValueOf(const Property *p) {
    return p != nullptr ? std::get_if<T>(&p->value.data) : nullptr;
}

std::string TextOf(const Property *p) {
    if (p == nullptr) return {};
    if (const auto *c = std::get_if<Content>(&p->value.data))
        return c->source == Content::Source::Uri ? c->uri : std::string();
    // A legacy <Content><binary> holds image bytes, not a URI: named by their hash, the glue embeds them. A <hash>
    // names content on Roblox's old servers: nothing to resolve.
    if (p->value.xmlTag == XmlTag::ContentBinary)
        if (const auto *bytes = std::get_if<std::string>(&p->value.data); bytes != nullptr && !bytes->empty())
            return LegacyContentUri(*bytes);
    if (p->value.xmlTag == XmlTag::ContentBinary || p->value.xmlTag == XmlTag::ContentHash) return {};
    if (const auto *s = std::get_if<std::string>(&p->value.data)) return *s;
    return {};
}

} // namespace

std::string ContentUriOf(const Property *p) {
    return TextOf(p);
}

namespace {

// The first of the content-like properties that holds a non-empty text.
std::string FirstUri(std::initializer_list<const Property *> props) {
    for (const Property *p : props) {
        std::string uri = TextOf(p);
        if (!uri.empty()) return uri;
    }
    return {};
}

// Roblox sizes are never negative; a file that says so is read as the magnitude (a negative axis would turn the
// generated faces inside out).
Vector3 SizeOf(const Appearance::Props &p) {
    std::optional<Vector3> v = Vector3Of(p.at[Appearance::kSize]);
    if (!v) v = Vector3Of(p.at[Appearance::kSizeCanonical]);
    if (!v) return {4, 1.2f, 2};
    return {std::fabs(v->x), std::fabs(v->y), std::fabs(v->z)};
}

} // namespace

Vector3 Appearance::size(std::uint32_t index) const {
    return SizeOf(gather(index));
}

bool Appearance::isPart(const Props &p, ClassKind kind) const {
    switch (kind) {
    case ClassKind::Part:
    case ClassKind::WedgePart:
    case ClassKind::CornerWedgePart:
    case ClassKind::MeshPart:
    case ClassKind::Union:
        return true;
    case ClassKind::Other:
        return ValueOf<CFrame>(p.at[kCFrame]) != nullptr && (Vector3Of(p.at[kSize]) || Vector3Of(p.at[kSizeCanonical]));
    default:
        return false;
    }
}

PartGeometry Appearance::geometry(std::uint32_t index, Look *look) const {
    PartGeometry g;
    if (index >= mDoc.instances.size()) return g;
    const ClassKind kind = kindOf(index);
    if (kind != ClassKind::Other && kind > ClassKind::Union) return g; // meshes, decals, lights: not parts
    const Props p = gather(index);
    if (!isPart(p, kind)) return g;
    if (look != nullptr) *look = lookOf(p);
    g.size = SizeOf(p);
    if (kind == ClassKind::MeshPart) {
        g.source = GeometrySource::Placeholder;
        g.stands = "mesh";
        g.asset = MeshAsset::MeshPart;
        g.uri = FirstUri({p.at[kMeshContent], p.at[kMeshId], p.at[kMeshIdUpper]});
        g.textureUri = FirstUri({p.at[kTextureContent], p.at[kTextureID], p.at[kTextureId]});
        if (const std::optional<Vector3> initial = Vector3Of(p.at[kInitialSize])) g.initialSize = *initial;
        for (std::uint32_t child : mDoc.instances[index].children) {
            if (kindOf(child) == ClassKind::SurfaceAppearance) {
                g.surfaceAppearance = child;
                break;
            }
        }
        return g;
    }
    if (kind == ClassKind::Union) {
        g.source = GeometrySource::Placeholder;
        g.stands = "union";
        g.uri = TextOf(p.at[kAssetId]);
        return g;
    }
    g.source = GeometrySource::Shape;
    if (kind == ClassKind::WedgePart) {
        g.shape = ShapeKind::Wedge;
    } else if (kind == ClassKind::CornerWedgePart) {
        g.shape = ShapeKind::CornerWedge;
    } else {
        // PartType: Ball 0, Block 1, Cylinder 2, Wedge 3, CornerWedge 4 (§5.1); anything else is a block.
        const std::uint32_t shape = EnumOr(p.at[kShape] != nullptr ? p.at[kShape] : p.at[kShapeCanonical], 1);
        constexpr ShapeKind kByPartType[] = {ShapeKind::Sphere, ShapeKind::Box, ShapeKind::CylinderX, ShapeKind::Wedge,
                                             ShapeKind::CornerWedge};
        g.shape = shape < 5 ? kByPartType[shape] : ShapeKind::Box;
    }
    applyMeshChild(index, g);
    return g;
}

// §5.2 mesh children: the first DataModelMesh child replaces the part's shape; size = part size ∘ Scale, plus
// Offset as a part-local translation. MeshType: Head 0, Torso 1, Wedge 2, Sphere 3, Cylinder 4, FileMesh 5,
// Brick 6, Prism 7, Pyramid 8, ParallelRamp 9, RightAngleRamp 10, CornerWedge 11.
void Appearance::applyMeshChild(std::uint32_t part, PartGeometry &g) const {
    for (std::uint32_t child : mDoc.instances[part].children) {
        if (child >= mDoc.instances.size()) continue;
        const ClassKind cls = kindOf(child);
        if (cls != ClassKind::SpecialMesh && cls != ClassKind::BlockMesh && cls != ClassKind::CylinderMesh &&
            cls != ClassKind::FileMesh)
            continue;
        g.meshChild = child;
        const Props p = gather(child);
        const Vector3 scale = Vector3Of(p.at[kScale]).value_or(Vector3{1, 1, 1});
        g.offset = Vector3Of(p.at[kOffset]).value_or(Vector3{});
        const std::uint32_t type = cls == ClassKind::SpecialMesh ? EnumOr(p.at[kMeshType], 0) : 0;
        if (cls == ClassKind::FileMesh || (cls == ClassKind::SpecialMesh && type == 5)) {
            g.source = GeometrySource::Placeholder;
            g.stands = "mesh";
            g.asset = MeshAsset::FileMesh;
            g.shape = ShapeKind::Box;
            g.uri = FirstUri({p.at[kMeshContent], p.at[kMeshId]});
            g.textureUri = FirstUri({p.at[kTextureContent], p.at[kTextureId], p.at[kTextureID]});
            g.meshScale = scale;
            g.vertexColor = Vector3Of(p.at[kVertexColor]).value_or(Vector3{1, 1, 1});
            return;
        }
        g.size = {g.size.x * std::fabs(scale.x), g.size.y * std::fabs(scale.y), g.size.z * std::fabs(scale.z)};
        if (cls == ClassKind::BlockMesh) {
            g.shape = ShapeKind::Box;
        } else if (cls == ClassKind::CylinderMesh) {
            g.shape = ShapeKind::CylinderY;
        } else {
            switch (type) {
            case 0: // Head: a rounded Y cylinder in Studio
                g.shape = ShapeKind::CylinderY;
                g.approximated = true;
                break;
            case 2:
                g.shape = ShapeKind::Wedge;
                break;
            case 3:
                g.shape = ShapeKind::Ellipsoid;
                break;
            case 4:
                g.shape = ShapeKind::CylinderX;
                break;
            case 6:
                g.shape = ShapeKind::Box;
                break;
            case 11:
                g.shape = ShapeKind::CornerWedge;
                g.approximated = true;
                break;
            default: // Torso, Prism, Pyramid, ParallelRamp, RightAngleRamp and unknown types
                g.shape = ShapeKind::Box;
                g.approximated = true;
                break;
            }
        }
        return;
    }
}

Look Appearance::lookOf(const Props &p) const {
    Look look;
    if (const auto *c = ValueOf<Color3uint8>(p.at[kColor3uint8])) {
        look.color = *c;
    } else {
        const Property *b = p.at[kBrickColor] != nullptr ? p.at[kBrickColor] : p.at[kBrickColorLower];
        std::optional<std::uint32_t> number;
        if (const auto *bc = ValueOf<BrickColor>(b)) number = bc->number;
        if (const auto *i = ValueOf<std::int32_t>(b)) number = static_cast<std::uint32_t>(*i);
        if (number) {
            if (const auto rgb = BrickColorRgb(*number))
                look.color = *rgb;
            else
                look.unknownBrickColor = *number;
        }
    }
    look.transparency = Clamp01(FloatOr(p.at[kTransparency], 0));
    look.reflectance = Clamp01(FloatOr(p.at[kReflectance], 0));
    look.material = EnumOr(p.at[kMaterial], kMaterialPlastic);
    return look;
}

std::optional<DecalInfo> Appearance::decal(std::uint32_t index) const {
    const ClassKind kind = kindOf(index);
    if (kind != ClassKind::Decal && kind != ClassKind::Texture) return std::nullopt;
    const Props p = gather(index);
    DecalInfo d;
    d.tiled = kind == ClassKind::Texture;
    d.face = FaceOf(EnumOr(p.at[kFace], 5));
    if (const auto *c = ValueOf<Color3>(p.at[kColor3])) d.color = *c;
    d.transparency = Clamp01(FloatOr(p.at[kTransparency], 0));
    d.uri = FirstUri({p.at[kTextureContent], p.at[kTexture]});
    d.mapping.tiled = d.tiled;
    d.mapping.tileU = FloatOr(p.at[kStudsU], 2);
    d.mapping.tileV = FloatOr(p.at[kStudsV], 2);
    d.mapping.offsetU = FloatOr(p.at[kOffsetU], 0);
    d.mapping.offsetV = FloatOr(p.at[kOffsetV], 0);
    if (const auto *z = ValueOf<std::int32_t>(p.at[kZIndex])) d.zIndex = *z;
    return d;
}

std::string_view Appearance::bytesOf(const Property *prop) const {
    if (prop == nullptr) return {};
    if (const auto *s = std::get_if<std::string>(&prop->value.data)) return *s;
    if (const auto *ref = std::get_if<SharedStringRef>(&prop->value.data))
        return ref->index < mDoc.sharedStrings.size() ? std::string_view(mDoc.sharedStrings[ref->index].content)
                                                      : std::string_view();
    return {};
}

std::optional<TerrainData> Appearance::terrainData(std::uint32_t index) const {
    if (index >= mDoc.instances.size() || mDoc.className(mDoc.instances[index]) != "Terrain") return std::nullopt;
    const Props p = gather(index);
    TerrainData t;
    t.smoothGrid = bytesOf(p.at[kSmoothGrid]);
    t.materialColors = bytesOf(p.at[kMaterialColors]);
    if (const auto *c = ValueOf<Color3>(p.at[kWaterColor])) t.waterColor = *c;
    t.waterTransparency = Clamp01(FloatOr(p.at[kWaterTransparency], 0.3f));
    return t;
}

std::optional<UnionData> Appearance::unionData(std::uint32_t index) const {
    if (kindOf(index) != ClassKind::Union) return std::nullopt;
    const Props p = gather(index);
    const auto bytes = [&](Slot slot) { return bytesOf(p.at[slot]); };
    UnionData u;
    u.solidMesh = bytes(kSolidMeshHolder);
    u.meshData2 = bytes(kMeshData2);
    u.meshData = bytes(kMeshData);
    u.childData2 = bytes(kChildData2);
    u.childData = bytes(kChildData);
    u.physicalConfig = bytes(kPhysicalConfigData);
    u.physics = bytes(kPhysicsData);
    if (const auto *b = ValueOf<bool>(p.at[kUsePartColor])) u.usePartColor = *b;
    u.initialSize = Vector3Of(p.at[kInitialSize]).value_or(Vector3{});
    u.intersect = mDoc.className(mDoc.instances[index]) == "IntersectOperation";
    return u;
}

std::optional<SurfaceMaps> Appearance::surfaceMaps(std::uint32_t index) const {
    if (kindOf(index) != ClassKind::SurfaceAppearance) return std::nullopt;
    const Props p = gather(index);
    SurfaceMaps m;
    m.color = FirstUri({p.at[kColorMapContent], p.at[kColorMap]});
    m.normal = FirstUri({p.at[kNormalMapContent], p.at[kNormalMap]});
    m.metalness = FirstUri({p.at[kMetalnessMapContent], p.at[kMetalnessMap]});
    m.roughness = FirstUri({p.at[kRoughnessMapContent], p.at[kRoughnessMap]});
    m.texturePack = FirstUri({p.at[kTexturePack]});
    if (const auto *c = ValueOf<Color3>(p.at[kColor])) m.tint = *c;
    return m;
}

std::optional<LightInfo> Appearance::light(std::uint32_t index) const {
    const ClassKind kind = kindOf(index);
    LightInfo l;
    if (kind == ClassKind::PointLight) {
        l.kind = LightInfo::Kind::Point;
    } else if (kind == ClassKind::SpotLight) {
        l.kind = LightInfo::Kind::Spot;
        l.range = 16;
    } else if (kind == ClassKind::SurfaceLight) {
        l.kind = LightInfo::Kind::Surface;
        l.range = 16;
    } else {
        return std::nullopt;
    }
    const Props p = gather(index);
    if (const auto *c = ValueOf<Color3>(p.at[kColor])) l.color = *c;
    l.brightness = FloatOr(p.at[kBrightness], 1);
    l.range = FloatOr(p.at[kRange], l.range);
    l.angle = FloatOr(p.at[kAngle], 90);
    l.face = FaceOf(EnumOr(p.at[kFace], 5));
    if (const auto *b = ValueOf<bool>(p.at[kEnabled])) l.enabled = *b;
    if (const auto *b = ValueOf<bool>(p.at[kShadows])) l.shadows = *b;
    return l;
}

std::uint32_t Appearance::currentCamera() const {
    for (std::uint32_t root : mDoc.roots) {
        if (root >= mDoc.instances.size() || mDoc.className(mDoc.instances[root]) != "Workspace") continue;
        if (const auto *r = ValueOf<RefValue>(gather(root).at[kCurrentCamera]))
            if (r->target < mDoc.instances.size() && mDoc.className(mDoc.instances[r->target]) == "Camera")
                return r->target;
    }
    return kNoInstance;
}

namespace {

// "14:00:00", "-1:30:00", "25:00" → hours; nullopt when it is not h:m[:s] numbers.
std::optional<float> ParseTimeOfDay(const std::string &text) {
    double parts[3] = {0, 0, 0};
    std::size_t count = 0, at = 0;
    const bool negative = !text.empty() && text[0] == '-';
    if (negative) at = 1;
    while (count < 3) {
        const std::size_t colon = text.find(':', at);
        const std::string piece = text.substr(at, colon == std::string::npos ? std::string::npos : colon - at);
        if (piece.empty() || piece.find_first_not_of("0123456789.") != std::string::npos) return std::nullopt;
        parts[count++] = std::atof(piece.c_str());
        if (colon == std::string::npos) break;
        at = colon + 1;
    }
    if (count < 2) return std::nullopt;
    const double hours = parts[0] + parts[1] / 60 + parts[2] / 3600;
    return static_cast<float>(negative ? -hours : hours);
}

} // namespace

std::optional<SunInfo> Appearance::sun() const {
    for (std::uint32_t root : mDoc.roots) {
        if (root >= mDoc.instances.size() || mDoc.className(mDoc.instances[root]) != "Lighting") continue;
        const Props p = gather(root);
        SunInfo sun;
        if (p.at[kClockTime] != nullptr) {
            sun.clockTime = FloatOr(p.at[kClockTime], 14);
        } else if (const auto *t = ValueOf<std::string>(p.at[kTimeOfDay])) {
            sun.clockTime = ParseTimeOfDay(*t).value_or(14.0f);
        }
        sun.latitude = FloatOr(p.at[kLatitude], 41.7333f);
        sun.brightness = FloatOr(p.at[kBrightness], 1);
        if (!std::isfinite(sun.clockTime)) sun.clockTime = 14;
        if (!std::isfinite(sun.latitude)) sun.latitude = 41.7333f;
        if (!std::isfinite(sun.brightness) || sun.brightness < 0) sun.brightness = 1;
        constexpr double kPi = 3.14159265358979323846, kHalfYear = 182.6282, kTilt = 23.5 * kPi / 180;
        const double day = std::fmod(std::fmod(static_cast<double>(sun.clockTime), 24.0) + 24.0, 24.0) / 24.0;
        const double theta = 2 * kPi * day;
        const double alpha = kTilt * std::cos(kPi * day / kHalfYear) - sun.latitude * kPi / 180;
        sun.towardSun = {static_cast<float>(std::sin(theta) * std::cos(alpha)),
                         static_cast<float>(-std::cos(theta) * std::cos(alpha)), static_cast<float>(-std::sin(alpha))};
        return sun;
    }
    return std::nullopt;
}

float Appearance::fieldOfView(std::uint32_t index) const {
    const float fov = FloatOr(gather(index).at[kFieldOfView], 70);
    return fov >= 1 && fov <= 179 ? fov : 70.0f;
}

} // namespace gamefmt::rbx
