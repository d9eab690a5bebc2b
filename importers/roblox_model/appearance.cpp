// What each instance shows (docs/formats/roblox-model.md §5.2–§5.5): part shapes and mesh children, looks,
// decals, lights, the current camera. Property names are looked up once (interned ids) and values are read
// whatever numeric type a file used for them.
#include "importers/roblox_model/appearance.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <iterator>

namespace gamefmt::rbx {
namespace {

struct MaterialEntry {
    std::uint32_t value;
    const char *name;
};

// Enum.Material (§4), sorted by value.
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

// BasePart classes that always own geometry; other classes do when they carry a CFrame and a Vector3 size.
constexpr const char *kPartClasses[] = {
    "Part",     "WedgePart",      "CornerWedgePart",    "TrussPart",     "SpawnLocation",
    "Seat",     "VehicleSeat",    "SkateboardPlatform", "FlagStand",     "Platform",
    "MeshPart", "UnionOperation", "IntersectOperation", "PartOperation",
};

bool OneOf(const std::string &s, std::initializer_list<const char *> names) {
    for (const char *n : names)
        if (s == n) return true;
    return false;
}

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

Appearance::Appearance(const Document &doc) : mDoc(doc) {
    const NameTable &n = doc.names;
    mIds = {n.find("size"),          n.find("Size"),           n.find("shape"),         n.find("Shape"),
            n.find("Color3uint8"),   n.find("BrickColor"),     n.find("brickColor"),    n.find("Transparency"),
            n.find("Reflectance"),   n.find("Material"),       n.find("MeshType"),      n.find("Scale"),
            n.find("Offset"),        n.find("MeshId"),         n.find("MeshID"),        n.find("MeshContent"),
            n.find("AssetId"),       n.find("Face"),           n.find("Color3"),        n.find("Color"),
            n.find("Texture"),       n.find("TextureContent"), n.find("StudsPerTileU"), n.find("StudsPerTileV"),
            n.find("OffsetStudsU"),  n.find("OffsetStudsV"),   n.find("ZIndex"),        n.find("Brightness"),
            n.find("Range"),         n.find("Angle"),          n.find("Enabled"),       n.find("Shadows"),
            n.find("CurrentCamera"), n.find("FieldOfView"),    n.find("CFrame")};
}

const Property *Appearance::find(std::uint32_t index, const std::optional<std::uint32_t> &id) const {
    if (!id || index >= mDoc.instances.size()) return nullptr;
    return mDoc.instances[index].find(*id);
}

float Appearance::floatOr(std::uint32_t index, const std::optional<std::uint32_t> &id, float fallback) const {
    const Property *p = find(index, id);
    if (p == nullptr) return fallback;
    if (const auto *f = std::get_if<float>(&p->value.data)) return *f;
    if (const auto *d = std::get_if<double>(&p->value.data)) return static_cast<float>(*d);
    if (const auto *i = std::get_if<std::int32_t>(&p->value.data)) return static_cast<float>(*i);
    return fallback;
}

std::uint32_t Appearance::enumOr(std::uint32_t index, const std::optional<std::uint32_t> &id,
                                 std::uint32_t fallback) const {
    const Property *p = find(index, id);
    if (p == nullptr) return fallback;
    if (const auto *e = std::get_if<EnumValue>(&p->value.data)) return e->value;
    if (const auto *i = std::get_if<std::int32_t>(&p->value.data)) return static_cast<std::uint32_t>(*i);
    return fallback;
}

std::optional<Vector3> Appearance::vector3(std::uint32_t index, const std::optional<std::uint32_t> &id) const {
    const Property *p = find(index, id);
    if (p == nullptr) return std::nullopt;
    if (const auto *v = std::get_if<Vector3>(&p->value.data)) return *v;
    return std::nullopt;
}

std::string Appearance::text(std::uint32_t index, const std::optional<std::uint32_t> &id) const {
    const Property *p = find(index, id);
    if (p == nullptr) return {};
    if (const auto *c = std::get_if<Content>(&p->value.data))
        return c->source == Content::Source::Uri ? c->uri : std::string();
    // A legacy <Content><binary> holds image bytes, not a URI.
    if (p->value.xmlTag == XmlTag::ContentBinary || p->value.xmlTag == XmlTag::ContentHash) return {};
    if (const auto *s = std::get_if<std::string>(&p->value.data)) return *s;
    return {};
}

std::string Appearance::firstUri(std::uint32_t index, std::initializer_list<std::optional<std::uint32_t>> ids) const {
    for (const auto &id : ids) {
        std::string uri = text(index, id);
        if (!uri.empty()) return uri;
    }
    return {};
}

Vector3 Appearance::size(std::uint32_t index) const {
    if (auto v = vector3(index, mIds.size)) return *v;
    if (auto v = vector3(index, mIds.sizeCanonical)) return *v;
    return {4, 1.2f, 2};
}

bool Appearance::isPart(std::uint32_t index, const std::string &className) const {
    if (className == "Terrain" || className == "NegateOperation") return false;
    for (const char *c : kPartClasses)
        if (className == c) return true;
    const Property *cf = find(index, mIds.cframe);
    return cf != nullptr && std::holds_alternative<CFrame>(cf->value.data) &&
           (vector3(index, mIds.size) || vector3(index, mIds.sizeCanonical));
}

PartGeometry Appearance::geometry(std::uint32_t index) const {
    PartGeometry g;
    if (index >= mDoc.instances.size()) return g;
    const std::string &cls = mDoc.className(mDoc.instances[index]);
    if (!isPart(index, cls)) return g;
    g.size = size(index);
    if (cls == "MeshPart") {
        g.source = GeometrySource::Placeholder;
        g.stands = "mesh";
        g.uri = firstUri(index, {mIds.meshContent, mIds.meshId, mIds.meshIdUpper});
        return g;
    }
    if (OneOf(cls, {"UnionOperation", "IntersectOperation", "PartOperation"})) {
        g.source = GeometrySource::Placeholder;
        g.stands = "union";
        g.uri = text(index, mIds.assetId);
        return g;
    }
    g.source = GeometrySource::Shape;
    if (cls == "WedgePart") {
        g.shape = ShapeKind::Wedge;
    } else if (cls == "CornerWedgePart") {
        g.shape = ShapeKind::CornerWedge;
    } else {
        // PartType: Ball 0, Block 1, Cylinder 2, Wedge 3, CornerWedge 4 (§4); anything else is a block.
        const std::uint32_t shape =
            find(index, mIds.shape) != nullptr ? enumOr(index, mIds.shape, 1) : enumOr(index, mIds.shapeCanonical, 1);
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
        const std::string &cls = mDoc.className(mDoc.instances[child]);
        if (!OneOf(cls, {"SpecialMesh", "BlockMesh", "CylinderMesh", "FileMesh"})) continue;
        g.meshChild = child;
        const Vector3 scale = vector3(child, mIds.scale).value_or(Vector3{1, 1, 1});
        g.offset = vector3(child, mIds.offset).value_or(Vector3{});
        const std::uint32_t type = cls == "SpecialMesh" ? enumOr(child, mIds.meshType, 0) : 0;
        if (cls == "FileMesh" || (cls == "SpecialMesh" && type == 5)) {
            g.source = GeometrySource::Placeholder;
            g.stands = "mesh";
            g.shape = ShapeKind::Box;
            g.uri = firstUri(child, {mIds.meshContent, mIds.meshId});
            return;
        }
        g.size = {g.size.x * scale.x, g.size.y * scale.y, g.size.z * scale.z};
        if (cls == "BlockMesh") {
            g.shape = ShapeKind::Box;
        } else if (cls == "CylinderMesh") {
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

Look Appearance::look(std::uint32_t index) const {
    Look look;
    const Property *c = find(index, mIds.color3uint8);
    if (c != nullptr && std::holds_alternative<Color3uint8>(c->value.data)) {
        look.color = std::get<Color3uint8>(c->value.data);
    } else {
        const Property *b = find(index, mIds.brickColor);
        if (b == nullptr) b = find(index, mIds.brickColorLower);
        std::optional<std::uint32_t> number;
        if (b != nullptr) {
            if (const auto *bc = std::get_if<BrickColor>(&b->value.data)) number = bc->number;
            if (const auto *i = std::get_if<std::int32_t>(&b->value.data)) number = static_cast<std::uint32_t>(*i);
        }
        if (number) {
            if (const auto rgb = BrickColorRgb(*number))
                look.color = *rgb;
            else
                look.unknownBrickColor = *number;
        }
    }
    look.transparency = Clamp01(floatOr(index, mIds.transparency, 0));
    look.reflectance = Clamp01(floatOr(index, mIds.reflectance, 0));
    look.material = enumOr(index, mIds.material, kMaterialPlastic);
    return look;
}

std::optional<DecalInfo> Appearance::decal(std::uint32_t index) const {
    if (index >= mDoc.instances.size()) return std::nullopt;
    const std::string &cls = mDoc.className(mDoc.instances[index]);
    if (cls != "Decal" && cls != "Texture") return std::nullopt;
    DecalInfo d;
    d.tiled = cls == "Texture";
    d.face = FaceOf(enumOr(index, mIds.face, 5));
    if (const Property *p = find(index, mIds.color3))
        if (const auto *c = std::get_if<Color3>(&p->value.data)) d.color = *c;
    d.transparency = Clamp01(floatOr(index, mIds.transparency, 0));
    d.uri = firstUri(index, {mIds.textureContent, mIds.texture});
    d.mapping.tiled = d.tiled;
    d.mapping.tileU = floatOr(index, mIds.studsU, 2);
    d.mapping.tileV = floatOr(index, mIds.studsV, 2);
    d.mapping.offsetU = floatOr(index, mIds.offsetU, 0);
    d.mapping.offsetV = floatOr(index, mIds.offsetV, 0);
    if (const Property *p = find(index, mIds.zIndex))
        if (const auto *z = std::get_if<std::int32_t>(&p->value.data)) d.zIndex = *z;
    return d;
}

std::optional<LightInfo> Appearance::light(std::uint32_t index) const {
    if (index >= mDoc.instances.size()) return std::nullopt;
    const std::string &cls = mDoc.className(mDoc.instances[index]);
    LightInfo l;
    if (cls == "PointLight") {
        l.kind = LightInfo::Kind::Point;
    } else if (cls == "SpotLight") {
        l.kind = LightInfo::Kind::Spot;
        l.range = 16;
    } else if (cls == "SurfaceLight") {
        l.kind = LightInfo::Kind::Surface;
        l.range = 16;
    } else {
        return std::nullopt;
    }
    if (const Property *p = find(index, mIds.color))
        if (const auto *c = std::get_if<Color3>(&p->value.data)) l.color = *c;
    l.brightness = floatOr(index, mIds.brightness, 1);
    l.range = floatOr(index, mIds.range, l.range);
    l.angle = floatOr(index, mIds.angle, 90);
    l.face = FaceOf(enumOr(index, mIds.face, 5));
    if (const Property *p = find(index, mIds.enabled))
        if (const auto *b = std::get_if<bool>(&p->value.data)) l.enabled = *b;
    if (const Property *p = find(index, mIds.shadows))
        if (const auto *b = std::get_if<bool>(&p->value.data)) l.shadows = *b;
    return l;
}

std::uint32_t Appearance::currentCamera() const {
    for (std::uint32_t root : mDoc.roots) {
        if (root >= mDoc.instances.size() || mDoc.className(mDoc.instances[root]) != "Workspace") continue;
        const Property *p = find(root, mIds.currentCamera);
        if (p == nullptr) continue;
        if (const auto *r = std::get_if<RefValue>(&p->value.data))
            if (r->target < mDoc.instances.size() && mDoc.className(mDoc.instances[r->target]) == "Camera")
                return r->target;
    }
    return kNoInstance;
}

float Appearance::fieldOfView(std::uint32_t index) const {
    const float fov = floatOr(index, mIds.fieldOfView, 70);
    return fov >= 1 && fov <= 179 ? fov : 70.0f;
}

} // namespace gamefmt::rbx
