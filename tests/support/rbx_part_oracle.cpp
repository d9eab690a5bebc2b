// The part-by-part oracle of rbx_part_oracle.hpp. It reads properties by name from the document and derives what
// each part must look like from docs/formats/roblox-model.md alone; only the BrickColor palette lookup
// (rbx::BrickColorRgb, checked against the reference's TSV in test_geometry) is shared with the importer.
#include "support/rbx_part_oracle.hpp"

#include "importers/roblox_model/appearance/appearance.hpp"
#include "importers/roblox_model/document/binary_reader.hpp"

#include <assimp/material.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <set>
#include <sstream>
#include <tuple>

namespace gamefmt::test {
namespace {

using rbx::Document;
using rbx::Instance;
using rbx::Property;

constexpr float kPi = 3.14159265358979323846f;
constexpr std::uint32_t kForceField = 1584;

const Property *Prop(const Document &doc, const Instance &inst, std::initializer_list<const char *> names) {
    for (const char *name : names)
        for (const Property &p : inst.properties)
            if (doc.names.str(p.name) == name) return &p;
    return nullptr;
}

std::optional<rbx::Vector3> Vec(const Property *p) {
    if (p == nullptr) return std::nullopt;
    if (const auto *v = std::get_if<rbx::Vector3>(&p->value.data)) return *v;
    return std::nullopt;
}

std::optional<float> Num(const Property *p) {
    if (p == nullptr) return std::nullopt;
    if (const auto *f = std::get_if<float>(&p->value.data)) return *f;
    if (const auto *d = std::get_if<double>(&p->value.data)) return static_cast<float>(*d);
    if (const auto *i = std::get_if<std::int32_t>(&p->value.data)) return static_cast<float>(*i);
    return std::nullopt;
}

std::optional<std::uint32_t> Enum(const Property *p) {
    if (p == nullptr) return std::nullopt;
    if (const auto *e = std::get_if<rbx::EnumValue>(&p->value.data)) return e->value;
    if (const auto *i = std::get_if<std::int32_t>(&p->value.data)) return static_cast<std::uint32_t>(*i);
    return std::nullopt;
}

std::string Uri(const Property *p) {
    if (p == nullptr) return {};
    if (const auto *s = std::get_if<std::string>(&p->value.data)) return *s;
    if (const auto *c = std::get_if<rbx::Content>(&p->value.data))
        return c->source == rbx::Content::Source::Uri ? c->uri : std::string();
    return {};
}

std::string FirstUri(const Document &doc, const Instance &inst, std::initializer_list<const char *> names) {
    for (const char *name : names) {
        std::string uri = Uri(Prop(doc, inst, {name}));
        if (!uri.empty()) return uri;
    }
    return {};
}

float Clamp01(float v) {
    return std::isfinite(v) ? std::clamp(v, 0.0f, 1.0f) : 0.0f;
}

struct Look {
    std::array<std::uint8_t, 3> rgb{163, 162, 165};
    float transparency = 0, reflectance = 0;
    std::uint32_t material = 256;
    bool operator<(const Look &o) const {
        return std::tie(rgb, transparency, reflectance, material) <
               std::tie(o.rgb, o.transparency, o.reflectance, o.material);
    }
};

// §4/§5.5: Color3uint8, else BrickColor by number, else (163,162,165); Transparency/Reflectance clamped; Material.
Look LookOf(const Document &doc, const Instance &inst) {
    Look look;
    const Property *c = Prop(doc, inst, {"Color3uint8"});
    const auto *rgb = c != nullptr ? std::get_if<rbx::Color3uint8>(&c->value.data) : nullptr;
    if (rgb != nullptr) {
        look.rgb = {rgb->r, rgb->g, rgb->b};
    } else if (const Property *b = Prop(doc, inst, {"BrickColor", "brickColor"})) {
        std::optional<std::uint32_t> number;
        if (const auto *bc = std::get_if<rbx::BrickColor>(&b->value.data)) number = bc->number;
        if (const auto *i = std::get_if<std::int32_t>(&b->value.data)) number = static_cast<std::uint32_t>(*i);
        // An unknown number is drawn in Medium stone grey (194), the default colour.
        if (const auto palette = number ? rbx::BrickColorRgb(*number) : std::nullopt)
            look.rgb = {palette->r, palette->g, palette->b};
    }
    look.transparency = Clamp01(Num(Prop(doc, inst, {"Transparency"})).value_or(0));
    look.reflectance = Clamp01(Num(Prop(doc, inst, {"Reflectance"})).value_or(0));
    look.material = Enum(Prop(doc, inst, {"Material"})).value_or(256);
    return look;
}

struct Box {
    aiVector3D lo{INFINITY, INFINITY, INFINITY}, hi{-INFINITY, -INFINITY, -INFINITY};
    void add(const aiVector3D &p) {
        lo = aiVector3D(std::min(lo.x, p.x), std::min(lo.y, p.y), std::min(lo.z, p.z));
        hi = aiVector3D(std::max(hi.x, p.x), std::max(hi.y, p.y), std::max(hi.z, p.z));
    }
    static Box Centred(const aiVector3D &extent, const aiVector3D &at = {}) {
        return {at - extent * 0.5f, at + extent * 0.5f};
    }
};

std::string Text(const aiVector3D &v) {
    std::ostringstream s;
    s << v.x << "," << v.y << "," << v.z;
    return s.str();
}

// The shapes of §5.2, with the volume the reference's vertices enclose (round ones: their inscribed polygons).
enum class Shape { Box, Wedge, CornerWedge, CylinderX, CylinderY, Sphere, Ellipsoid };
const char *ShapeWord(Shape s) {
    constexpr const char *kWords[] = {"box", "wedge", "cornerwedge", "cylinderX", "cylinderY", "sphere", "ellipsoid"};
    return kWords[static_cast<int>(s)];
}

struct Expected {
    Box bounds;
    float volume = -1;     // < 0: not checked
    float volumeSlack = 0; // relative
    std::string drawnAs;   // rbx.geometry the node must carry ("" for generated shapes: none)
};

Expected ShapeExpectation(Shape shape, aiVector3D s, const aiVector3D &offset, unsigned segments) {
    Expected e;
    const float n = static_cast<float>(std::clamp(segments, 3u, 256u));
    const float polygon = n / 2 * std::sin(2 * kPi / n); // area of the n-gon in the unit circle
    switch (shape) {
    case Shape::Box:
        e.volume = s.x * s.y * s.z;
        break;
    case Shape::Wedge:
        e.volume = s.x * s.y * s.z / 2;
        break;
    case Shape::CornerWedge:
        e.volume = s.x * s.y * s.z / 3;
        break;
    case Shape::CylinderX: {
        const float d = std::min(s.y, s.z);
        s = aiVector3D(s.x, d, d);
        e.volume = polygon * d * d / 4 * s.x;
        break;
    }
    case Shape::CylinderY: {
        const float d = std::min(s.x, s.z);
        s = aiVector3D(d, s.y, d);
        e.volume = polygon * d * d / 4 * s.y;
        break;
    }
    case Shape::Sphere: {
        const float d = std::min({s.x, s.y, s.z});
        s = aiVector3D(d, d, d);
        e.volume = 4.0f / 3 * kPi * d * d * d / 8;
        e.volumeSlack = 0.06f; // a UV sphere of `segments` × segments/2 lies inside the sphere
        break;
    }
    case Shape::Ellipsoid:
        e.volume = 4.0f / 3 * kPi * s.x * s.y * s.z / 8;
        e.volumeSlack = 0.06f;
        break;
    }
    e.bounds = Box::Centred(s, offset);
    return e;
}

bool IsMeshChild(const std::string &cls) {
    return cls == "SpecialMesh" || cls == "BlockMesh" || cls == "CylinderMesh" || cls == "FileMesh";
}

class Oracle {
public:
    Oracle(const Document &doc, const aiScene &scene, const PartOracleOptions &options)
        : mDoc(doc), mScene(scene), mOptions(options), mNodes(doc.instances.size(), nullptr) {}

    PartOracleReport run();

private:
    void mapNodes();
    void checkPart(std::uint32_t index);
    void checkDecal(std::uint32_t index, std::uint32_t part);
    std::optional<Expected> expect(std::uint32_t index, const aiNode &node, bool &plainShape, Shape &plain);
    std::optional<Expected> meshAssetExpectation(const std::string &uri, const aiVector3D &scale,
                                                 const aiVector3D &shift, bool centre, const aiVector3D &size,
                                                 const aiVector3D &initial);
    void checkTransform(std::uint32_t index, const aiNode &node);
    void checkLook(std::uint32_t index, const aiMaterial &m, const Look &look, bool colour);
    void checkSourcePartLook(std::uint32_t index, const aiMaterial &m);
    void fail(std::uint32_t index, const std::string &what);
    std::string className(std::uint32_t index) const { return mDoc.className(mDoc.instances[index]); }
    bool isPart(std::uint32_t index) const;

    const Document &mDoc;
    const aiScene &mScene;
    const PartOracleOptions &mOptions;
    std::vector<const aiNode *> mNodes;
    std::vector<bool> mWrong;
    PartOracleReport mReport;
    std::set<std::tuple<int, float, float, float, Look>> mPlainKeys;
    std::set<unsigned> mPlainMeshes;
};

void Oracle::fail(std::uint32_t index, const std::string &what) {
    if (!mWrong[index]) {
        mWrong[index] = true;
        ++mReport.wrong;
    }
    if (mReport.problems.size() < mOptions.keep) {
        const Instance &inst = mDoc.instances[index];
        mReport.problems.push_back(className(index) + " '" + inst.name + "' (#" + std::to_string(index) + "): " + what);
    }
}

// Node k of an instance's node is its k-th child (skeletons and the sun are appended after them); names are the
// instance's Name (or class) with an optional ".N".
void Oracle::mapNodes() {
    struct Item {
        std::uint32_t index;
        const aiNode *node;
    };
    std::vector<Item> stack;
    for (std::size_t k = 0; k < mDoc.roots.size() && k < mScene.mRootNode->mNumChildren; ++k)
        stack.push_back({mDoc.roots[k], mScene.mRootNode->mChildren[k]});
    while (!stack.empty()) {
        const Item item = stack.back();
        stack.pop_back();
        if (item.index >= mNodes.size() || mNodes[item.index] != nullptr) continue;
        mNodes[item.index] = item.node;
        const Instance &inst = mDoc.instances[item.index];
        const std::string base = inst.name.empty() ? className(item.index) : inst.name;
        const std::string got = item.node->mName.C_Str();
        const bool plain = std::all_of(base.begin(), base.end(), [](char c) { return c >= 0x20 && c < 0x7f; });
        if (plain && base.size() < 1000 && got != base &&
            !(got.size() > base.size() + 1 && got.compare(0, base.size(), base) == 0 && got[base.size()] == '.'))
            fail(item.index, "node named '" + got + "'");
        for (std::size_t k = 0; k < inst.children.size() && k < item.node->mNumChildren; ++k)
            stack.push_back({inst.children[k], item.node->mChildren[k]});
    }
}

bool Oracle::isPart(std::uint32_t index) const {
    static const std::set<std::string> kParts = {"Part",           "WedgePart",          "CornerWedgePart",
                                                 "TrussPart",      "SpawnLocation",      "Seat",
                                                 "VehicleSeat",    "SkateboardPlatform", "MeshPart",
                                                 "UnionOperation", "IntersectOperation", "PartOperation"};
    static const std::set<std::string> kNotParts = {"NegateOperation", "Terrain", "Camera", "Attachment", "Bone"};
    const std::string cls = className(index);
    if (kParts.count(cls) != 0) return true;
    if (kNotParts.count(cls) != 0) return false;
    const Instance &inst = mDoc.instances[index];
    const Property *cf = Prop(mDoc, inst, {"CFrame"});
    return cf != nullptr && std::holds_alternative<rbx::CFrame>(cf->value.data) &&
           Vec(Prop(mDoc, inst, {"size", "Size"}));
}

PartOracleReport Oracle::run() {
    mWrong.assign(mDoc.instances.size(), false);
    mapNodes();
    bool place = false;
    for (std::uint32_t r : mDoc.roots) place = place || className(r) == "Workspace";
    const bool all = mOptions.scopeAll || !place;
    std::vector<bool> inScope(mDoc.instances.size(), false);
    std::vector<bool> drawnPart(mDoc.instances.size(), false);
    // Pre-order: a parent's scope is known before its children's.
    std::vector<std::uint32_t> stack(mDoc.roots.rbegin(), mDoc.roots.rend());
    std::vector<bool> seen(mDoc.instances.size(), false);
    while (!stack.empty()) {
        const std::uint32_t i = stack.back();
        stack.pop_back();
        if (i >= seen.size() || seen[i]) continue;
        seen[i] = true;
        const Instance &inst = mDoc.instances[i];
        const std::uint32_t parent = inst.parent;
        inScope[i] = all || (parent < inScope.size() ? inScope[parent] : className(i) == "Workspace");
        if (inScope[i] && mNodes[i] != nullptr) {
            if (isPart(i)) {
                drawnPart[i] = true;
                checkPart(i);
            } else if ((className(i) == "Decal" || className(i) == "Texture") && parent < drawnPart.size() &&
                       drawnPart[parent]) {
                checkDecal(i, parent);
            } else if (className(i) != "Terrain" && mNodes[i]->mNumMeshes != 0) {
                fail(i, "not a part, but its node shows " + std::to_string(mNodes[i]->mNumMeshes) + " mesh(es)");
            }
        }
        for (auto c = inst.children.rbegin(); c != inst.children.rend(); ++c) stack.push_back(*c);
    }
    mReport.sharedKeys = mPlainKeys.size();
    mReport.sharedMeshes = mPlainMeshes.size();
    return mReport;
}

void Oracle::checkTransform(std::uint32_t index, const aiNode &node) {
    const Property *p = Prop(mDoc, mDoc.instances[index], {"CFrame"});
    const auto *cf = p != nullptr ? std::get_if<rbx::CFrame>(&p->value.data) : nullptr;
    aiMatrix4x4 world;
    for (const aiNode *n = &node; n != nullptr; n = n->mParent) world = n->mTransformation * world;
    rbx::CFrame want = cf != nullptr ? *cf : rbx::CFrame{};
    const float got[12] = {world.a1, world.a2, world.a3, world.a4, world.b1, world.b2,
                           world.b3, world.b4, world.c1, world.c2, world.c3, world.c4};
    const float expect[12] = {want.rotation[0], want.rotation[1], want.rotation[2], want.position.x,
                              want.rotation[3], want.rotation[4], want.rotation[5], want.position.y,
                              want.rotation[6], want.rotation[7], want.rotation[8], want.position.z};
    for (int k = 0; k < 12; ++k) {
        if (!std::isfinite(expect[k])) return; // the importer substitutes; nothing to compare
        const bool position = k % 4 == 3;
        const float slack = position ? 1e-4f * (1 + std::fabs(expect[k])) : 2e-3f;
        if (std::fabs(got[k] - expect[k]) > slack) {
            fail(index, "world transform entry " + std::to_string(k) + " is " + std::to_string(got[k]) +
                            ", its CFrame says " + std::to_string(expect[k]));
            return;
        }
    }
}

void Oracle::checkLook(std::uint32_t index, const aiMaterial &m, const Look &look, bool colour) {
    aiString name;
    m.Get(AI_MATKEY_NAME, name);
    const std::string where = std::string("material '") + name.C_Str() + "': ";
    if (colour) {
        aiColor4D c;
        if (m.Get(AI_MATKEY_COLOR_DIFFUSE, c) != AI_SUCCESS) {
            fail(index, where + "no diffuse colour");
        } else if (std::fabs(c.r - look.rgb[0] / 255.0f) > 1e-6f || std::fabs(c.g - look.rgb[1] / 255.0f) > 1e-6f ||
                   std::fabs(c.b - look.rgb[2] / 255.0f) > 1e-6f) {
            fail(index, where + "colour " + std::to_string(int(std::lround(c.r * 255))) + "," +
                            std::to_string(int(std::lround(c.g * 255))) + "," +
                            std::to_string(int(std::lround(c.b * 255))) + ", the part's is " +
                            std::to_string(look.rgb[0]) + "," + std::to_string(look.rgb[1]) + "," +
                            std::to_string(look.rgb[2]));
        }
    }
    int material = -1;
    m.Get("$rbx.material", 0, 0, material);
    if (material != static_cast<int>(look.material))
        fail(index,
             where + "Material " + std::to_string(material) + ", the part's is " + std::to_string(look.material));
    float opacity = 1, reflectivity = 0;
    m.Get(AI_MATKEY_OPACITY, opacity);
    m.Get(AI_MATKEY_REFLECTIVITY, reflectivity);
    const float wantOpacity = (1 - look.transparency) * (look.material == kForceField ? 0.5f : 1.0f);
    if (std::fabs(opacity - wantOpacity) > 1e-6f)
        fail(index, where + "opacity " + std::to_string(opacity) + ", the part's Transparency " +
                        std::to_string(look.transparency) + " makes " + std::to_string(wantOpacity));
    if (std::fabs(reflectivity - look.reflectance) > 1e-6f)
        fail(index, where + "reflectivity " + std::to_string(reflectivity) + ", the part's Reflectance is " +
                        std::to_string(look.reflectance));
}

// §5.3: a union drawn from its source parts (ChildData2, else ChildData: a binary model) shows each piece in the
// look of one of them — that union's, not another's.
void Oracle::checkSourcePartLook(std::uint32_t index, const aiMaterial &m) {
    const Instance &inst = mDoc.instances[index];
    std::string blob;
    if (const Property *p = Prop(mDoc, inst, {"ChildData2"}))
        if (const auto *ref = std::get_if<rbx::SharedStringRef>(&p->value.data))
            if (ref->index < mDoc.sharedStrings.size()) blob = mDoc.sharedStrings[ref->index].content;
    if (blob.empty())
        if (const Property *p = Prop(mDoc, inst, {"ChildData"}))
            if (const auto *s = std::get_if<std::string>(&p->value.data)) blob = *s;
    std::set<Look> looks;
    if (!blob.empty()) {
        const rbx::Document nested = rbx::ReadBinary(reinterpret_cast<const std::uint8_t *>(blob.data()), blob.size());
        for (const Instance &part : nested.instances)
            if (nested.className(part) != "NegateOperation") looks.insert(LookOf(nested, part));
    }
    int material = -1;
    aiColor4D c;
    float opacity = 1, reflectivity = 0;
    m.Get("$rbx.material", 0, 0, material);
    m.Get(AI_MATKEY_COLOR_DIFFUSE, c);
    m.Get(AI_MATKEY_OPACITY, opacity);
    m.Get(AI_MATKEY_REFLECTIVITY, reflectivity);
    for (const Look &look : looks) {
        const float wantOpacity = (1 - look.transparency) * (look.material == kForceField ? 0.5f : 1.0f);
        if (material == static_cast<int>(look.material) && std::fabs(c.r - look.rgb[0] / 255.0f) <= 1e-6f &&
            std::fabs(c.g - look.rgb[1] / 255.0f) <= 1e-6f && std::fabs(c.b - look.rgb[2] / 255.0f) <= 1e-6f &&
            std::fabs(opacity - wantOpacity) <= 1e-6f && std::fabs(reflectivity - look.reflectance) <= 1e-6f)
            return;
    }
    aiString name;
    m.Get(AI_MATKEY_NAME, name);
    fail(index, std::string("material '") + name.C_Str() + "' is the look of none of its " +
                    std::to_string(looks.size()) + " source parts");
}

// §5.3: a mesh asset's bounds, v∘scale + shift (after centring, for MeshParts).
std::optional<Expected> Oracle::meshAssetExpectation(const std::string &uri, const aiVector3D &scale,
                                                     const aiVector3D &shift, bool centre, const aiVector3D &size,
                                                     const aiVector3D &initial) {
    if (!mOptions.meshBounds) return std::nullopt;
    const auto bounds = mOptions.meshBounds(uri);
    if (!bounds) return std::nullopt;
    const aiVector3D lo = bounds->first, hi = bounds->second;
    aiVector3D s = scale, c;
    if (centre) {
        const aiVector3D extent = hi - lo;
        const bool known = initial.x > 0 && initial.y > 0 && initial.z > 0;
        const aiVector3D base = known ? initial : extent;
        s = aiVector3D(base.x > 0 ? size.x / base.x : 1, base.y > 0 ? size.y / base.y : 1,
                       base.z > 0 ? size.z / base.z : 1);
        const aiVector3D mid = (lo + hi) * 0.5f;
        if (mid.Length() > 1e-3f) c = mid;
    }
    Expected e;
    e.drawnAs = "mesh";
    for (const aiVector3D &corner : {lo, hi}) {
        const aiVector3D p = corner - c;
        e.bounds.add(aiVector3D(p.x * s.x, p.y * s.y, p.z * s.z) + shift);
    }
    return e;
}

// What the part must show, from its own properties (§5.2, §5.3); nullopt when it must show nothing.
std::optional<Expected> Oracle::expect(std::uint32_t index, const aiNode &node, bool &plainShape, Shape &plain) {
    const Instance &inst = mDoc.instances[index];
    const std::string cls = className(index);
    const rbx::Vector3 raw = Vec(Prop(mDoc, inst, {"size", "Size"})).value_or(rbx::Vector3{4, 1.2f, 2});
    const aiVector3D size(std::fabs(raw.x), std::fabs(raw.y), std::fabs(raw.z));
    if (!std::isfinite(size.x) || !std::isfinite(size.y) || !std::isfinite(size.z)) return std::nullopt;
    std::string drawn;
    if (node.mMetaData != nullptr) {
        aiString text;
        if (node.mMetaData->Get("rbx.geometry", text)) drawn = text.C_Str();
    }
    plainShape = false;
    if (cls == "MeshPart") {
        const aiVector3D initial = [&] {
            const auto v = Vec(Prop(mDoc, inst, {"InitialSize"}));
            return v ? aiVector3D(v->x, v->y, v->z) : aiVector3D();
        }();
        if (drawn == "mesh") {
            const std::string uri = FirstUri(mDoc, inst, {"MeshContent", "MeshId", "MeshID"});
            auto e = meshAssetExpectation(uri, {1, 1, 1}, {}, true, size, initial);
            if (!e) fail(index, "drawn as mesh, but the test has no bounds for " + uri);
            return e;
        }
        Expected e;
        e.bounds = Box::Centred(size);
        e.volume = size.x * size.y * size.z;
        e.drawnAs = "placeholder";
        return e;
    }
    if (cls == "UnionOperation" || cls == "IntersectOperation" || cls == "PartOperation") {
        Expected e;
        e.bounds = Box::Centred(size);
        e.drawnAs = drawn.rfind("union-", 0) == 0 ? drawn : "placeholder";
        if (e.drawnAs == "placeholder") e.volume = size.x * size.y * size.z;
        return e;
    }
    // A generated shape: the class, or Shape (PartType: Ball 0, Block 1, Cylinder 2, Wedge 3, CornerWedge 4).
    Shape shape = Shape::Box;
    if (cls == "WedgePart") {
        shape = Shape::Wedge;
    } else if (cls == "CornerWedgePart") {
        shape = Shape::CornerWedge;
    } else {
        constexpr Shape kByPartType[] = {Shape::Sphere, Shape::Box, Shape::CylinderX, Shape::Wedge, Shape::CornerWedge};
        const std::uint32_t type = Enum(Prop(mDoc, inst, {"shape", "Shape"})).value_or(1);
        shape = type < 5 ? kByPartType[type] : Shape::Box;
    }
    // §5.2: the first DataModelMesh child decides: size ∘ |Scale|, Offset part-local.
    for (std::uint32_t child : inst.children) {
        if (child >= mDoc.instances.size() || !IsMeshChild(className(child))) continue;
        const Instance &mesh = mDoc.instances[child];
        const std::string mc = className(child);
        const rbx::Vector3 sc = Vec(Prop(mDoc, mesh, {"Scale"})).value_or(rbx::Vector3{1, 1, 1});
        const rbx::Vector3 of = Vec(Prop(mDoc, mesh, {"Offset"})).value_or(rbx::Vector3{});
        const aiVector3D offset(of.x, of.y, of.z);
        const std::uint32_t type = mc == "SpecialMesh" ? Enum(Prop(mDoc, mesh, {"MeshType"})).value_or(0) : 0;
        if (mc == "FileMesh" || (mc == "SpecialMesh" && type == 5)) {
            if (drawn == "mesh") {
                const std::string uri = FirstUri(mDoc, mesh, {"MeshContent", "MeshId"});
                auto e = meshAssetExpectation(uri, aiVector3D(sc.x, sc.y, sc.z), offset, false, size, {});
                if (!e) fail(index, "drawn as mesh, but the test has no bounds for " + uri);
                return e;
            }
            Expected e = ShapeExpectation(Shape::Box, size, offset, mOptions.segments); // the part's size, at Offset
            e.drawnAs = "placeholder";
            return e;
        }
        const aiVector3D scaled(size.x * std::fabs(sc.x), size.y * std::fabs(sc.y), size.z * std::fabs(sc.z));
        Shape s = Shape::Box; // BlockMesh, Brick, and the types drawn as boxes (Torso, Prism, Pyramid, ramps)
        if (mc == "CylinderMesh" || (mc == "SpecialMesh" && type == 0)) s = Shape::CylinderY;
        if (mc == "SpecialMesh" && type == 2) s = Shape::Wedge;
        if (mc == "SpecialMesh" && type == 3) s = Shape::Ellipsoid;
        if (mc == "SpecialMesh" && type == 4) s = Shape::CylinderX;
        if (mc == "SpecialMesh" && type == 11) s = Shape::CornerWedge;
        return ShapeExpectation(s, scaled, offset, mOptions.segments);
    }
    plainShape = true;
    plain = shape;
    return ShapeExpectation(shape, size, {}, mOptions.segments);
}

float SignedVolume(const aiMesh &mesh) {
    double v = 0;
    for (unsigned f = 0; f < mesh.mNumFaces; ++f) {
        const aiFace &face = mesh.mFaces[f];
        for (unsigned k = 1; k + 1 < face.mNumIndices; ++k) {
            const aiVector3D &a = mesh.mVertices[face.mIndices[0]], &b = mesh.mVertices[face.mIndices[k]],
                             &c = mesh.mVertices[face.mIndices[k + 1]];
            v += double(a * (b ^ c)) / 6;
        }
    }
    return static_cast<float>(v);
}

void Oracle::checkPart(std::uint32_t index) {
    ++mReport.parts;
    const aiNode &node = *mNodes[index];
    const Instance &inst = mDoc.instances[index];
    checkTransform(index, node);
    bool plainShape = false;
    Shape plain = Shape::Box;
    const std::optional<Expected> e = expect(index, node, plainShape, plain);
    if (!e) {
        if (node.mNumMeshes != 0) fail(index, "must show nothing, shows " + std::to_string(node.mNumMeshes));
        return;
    }
    const std::string cls = className(index);
    const bool isUnion = cls == "UnionOperation" || cls == "IntersectOperation" || cls == "PartOperation";
    std::string drawn;
    if (node.mMetaData != nullptr) {
        aiString text;
        if (node.mMetaData->Get("rbx.geometry", text)) drawn = text.C_Str();
    }
    ++mReport.drawnAs[drawn.empty() ? ShapeWord(plainShape ? plain : Shape::Box) : drawn];
    if (!e->drawnAs.empty() && drawn != e->drawnAs) fail(index, "rbx.geometry '" + drawn + "', expected " + e->drawnAs);
    if (e->drawnAs.empty() && !drawn.empty()) fail(index, "rbx.geometry '" + drawn + "' on a generated shape");
    if (node.mNumMeshes == 0 || (!isUnion && node.mNumMeshes != 1)) {
        fail(index, "shows " + std::to_string(node.mNumMeshes) + " meshes");
        return;
    }
    Box got;
    float volume = 0;
    const Look look = LookOf(mDoc, inst);
    const bool partColour = [&] {
        const auto *b = Prop(mDoc, inst, {"UsePartColor"});
        return b != nullptr && std::holds_alternative<bool>(b->value.data) && std::get<bool>(b->value.data);
    }();
    for (unsigned k = 0; k < node.mNumMeshes; ++k) {
        const aiMesh &mesh = *mScene.mMeshes[node.mMeshes[k]];
        for (unsigned v = 0; v < mesh.mNumVertices; ++v) got.add(mesh.mVertices[v]);
        volume += SignedVolume(mesh);
        const aiMaterial &m = *mScene.mMaterials[mesh.mMaterialIndex];
        aiString texture;
        if (m.Get(AI_MATKEY_TEXTURE(aiTextureType_DIFFUSE, 0), texture) == AI_SUCCESS) {
            // A textured mesh: its image is one the part (or its SurfaceAppearance / FileMesh) names.
            std::set<std::string> named = {FirstUri(mDoc, inst, {"TextureContent", "TextureID", "TextureId"})};
            for (std::uint32_t child : inst.children) {
                const Instance &c = mDoc.instances[child];
                named.insert(FirstUri(mDoc, c, {"ColorMapContent", "ColorMap"}));
                named.insert(FirstUri(mDoc, c, {"TextureContent", "TextureId", "TextureID"}));
            }
            const aiTexture *t = texture.C_Str()[0] == '*' ? mScene.GetEmbeddedTexture(texture.C_Str()) : nullptr;
            if (t == nullptr || named.count(t->mFilename.C_Str()) == 0)
                fail(index, std::string("texture ") + texture.C_Str() + " (" + (t ? t->mFilename.C_Str() : "?") +
                                ") is not an image the part names");
            checkLook(index, m, look, false);
        } else if (isUnion && drawn == "union-parts" && !partColour) {
            checkSourcePartLook(index, m); // pieces in the looks of the union's own source parts
        } else {
            checkLook(index, m, look, !(isUnion && drawn == "union-mesh" && !partColour));
        }
        if (plainShape) mPlainMeshes.insert(node.mMeshes[k]);
    }
    if (plainShape) {
        const rbx::Vector3 s = Vec(Prop(mDoc, inst, {"size", "Size"})).value_or(rbx::Vector3{4, 1.2f, 2});
        mPlainKeys.insert({static_cast<int>(plain), std::fabs(s.x), std::fabs(s.y), std::fabs(s.z), look});
    }
    // Bounds: exact for what the reference gives by formula; unions' own meshes and hulls within 2 % (+0.01 stud)
    // of the box of their size (the CSG result fills its box; hulls are convex shells of it).
    const aiVector3D want[2] = {e->bounds.lo, e->bounds.hi}, have[2] = {got.lo, got.hi};
    for (int side = 0; side < 2; ++side) {
        for (int a = 0; a < 3; ++a) {
            const float w = want[side][a], h = have[side][a];
            const float extent = e->bounds.hi[a] - e->bounds.lo[a];
            const float slack = isUnion && !drawn.empty() && drawn != "placeholder" ? 0.02f * extent + 0.01f
                                                                                    : 1e-4f * (1 + std::fabs(w));
            if (!(std::fabs(w - h) <= slack)) {
                fail(index, "mesh bounds " + Text(got.lo) + " .. " + Text(got.hi) + ", its properties say " +
                                Text(e->bounds.lo) + " .. " + Text(e->bounds.hi));
                side = 2;
                break;
            }
        }
    }
    if (e->volume >= 0) {
        const float slack = e->volumeSlack > 0 ? e->volumeSlack : 1e-3f;
        const float ratio = e->volume > 0 ? volume / e->volume : (std::fabs(volume) < 1e-6f ? 1.0f : 0.0f);
        if (!(ratio <= 1 + 1e-3f && ratio >= 1 - slack))
            fail(index, "mesh volume " + std::to_string(volume) + ", a " + (plainShape ? ShapeWord(plain) : "shape") +
                            " of its size holds " + std::to_string(e->volume));
    }
}

// §5.5: a quad over face `Face` of the parent, 1e-3 studs × ZIndex (1..20) out, textured with the decal's image.
void Oracle::checkDecal(std::uint32_t index, std::uint32_t part) {
    const aiNode &node = *mNodes[index];
    if (node.mNumMeshes == 0) return; // image not found (rbx.unresolved) or invisible
    ++mReport.decals;
    const Instance &inst = mDoc.instances[index];
    if (node.mNumMeshes != 1) {
        fail(index, "shows " + std::to_string(node.mNumMeshes) + " meshes");
        return;
    }
    const aiMesh &mesh = *mScene.mMeshes[node.mMeshes[0]];
    const rbx::Vector3 raw = Vec(Prop(mDoc, mDoc.instances[part], {"size", "Size"})).value_or(rbx::Vector3{4, 1.2f, 2});
    const aiVector3D size(std::fabs(raw.x), std::fabs(raw.y), std::fabs(raw.z));
    const std::uint32_t face = Enum(Prop(mDoc, inst, {"Face"})).value_or(5);
    const int axis = static_cast<int>(face % 3);
    const float sign = face < 3 ? 1.0f : -1.0f;
    const float z = std::clamp(static_cast<int>(Num(Prop(mDoc, inst, {"ZIndex"})).value_or(1)), 1, 20) * 1e-3f;
    Box got;
    for (unsigned v = 0; v < mesh.mNumVertices; ++v) got.add(mesh.mVertices[v]);
    Box want = Box::Centred(size);
    want.lo[axis] = want.hi[axis] = sign * (size[axis] / 2 + z);
    for (int a = 0; a < 3; ++a)
        if (std::fabs(got.lo[a] - want.lo[a]) > 1e-4f * (1 + size[a]) ||
            std::fabs(got.hi[a] - want.hi[a]) > 1e-4f * (1 + size[a])) {
            fail(index, "decal quad " + Text(got.lo) + " .. " + Text(got.hi) + ", face " + std::to_string(face) +
                            " of its part says " + Text(want.lo) + " .. " + Text(want.hi));
            break;
        }
    const aiMaterial &m = *mScene.mMaterials[mesh.mMaterialIndex];
    aiString texture;
    const aiTexture *t = m.Get(AI_MATKEY_TEXTURE(aiTextureType_DIFFUSE, 0), texture) == AI_SUCCESS
                             ? mScene.GetEmbeddedTexture(texture.C_Str())
                             : nullptr;
    const std::string uri = FirstUri(mDoc, inst, {"TextureContent", "Texture"});
    if (t == nullptr || uri != t->mFilename.C_Str()) fail(index, "decal image is not " + uri);
    float opacity = 1;
    m.Get(AI_MATKEY_OPACITY, opacity);
    const float transparency = Clamp01(Num(Prop(mDoc, inst, {"Transparency"})).value_or(0));
    if (std::fabs(opacity - (1 - transparency)) > 1e-6f) fail(index, "decal opacity " + std::to_string(opacity));
}

} // namespace

PartOracleReport CheckPartsAgainstSource(const rbx::Document &doc, const aiScene &scene,
                                         const PartOracleOptions &options) {
    return Oracle(doc, scene, options).run();
}

} // namespace gamefmt::test
