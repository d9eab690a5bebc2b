// The Studio-like generated place (studio_place.hpp). Property names and types are those Studio writes
// (docs/formats/roblox-model.md §4 and the corpus's all-instances-415); values vary like a built world's:
// a palette of colours and materials, sizes on a 0.2-stud grid, rotations on right angles and a few odd ones.
#include "studio_place.hpp"

#include <array>
#include <cmath>
#include <string>
#include <utility>

namespace gamefmt::bench {
namespace {

using rbx::Type;

class Lcg {
public:
    explicit Lcg(std::uint32_t seed) : mState(seed * 2654435761u + 1) {}
    std::uint32_t next() {
        mState = mState * 1664525u + 1013904223u;
        return mState >> 8;
    }
    std::uint32_t below(std::uint32_t n) { return next() % n; }
    float grid(float step, std::uint32_t steps) { return step * static_cast<float>(1 + below(steps)); }
    float real(float range) { return range * static_cast<float>(next() & 0xFFFFFF) / 16777216.0f; }
    // Bytes that compress like Studio's CSG and physics blobs (half noise, half repeats).
    std::string blob(std::size_t size) {
        std::string out(size, '\0');
        for (std::size_t i = 0; i < size; ++i) out[i] = static_cast<char>(i % 4 < 2 ? next() & 0xFF : i & 0x3F);
        return out;
    }

private:
    std::uint32_t mState;
};

constexpr std::array<std::array<std::uint8_t, 3>, 12> kColours = {{{163, 162, 165},
                                                                   {99, 95, 98},
                                                                   {27, 42, 53},
                                                                   {196, 40, 28},
                                                                   {13, 105, 172},
                                                                   {75, 151, 75},
                                                                   {245, 205, 48},
                                                                   {124, 92, 70},
                                                                   {242, 243, 243},
                                                                   {160, 95, 53},
                                                                   {91, 93, 105},
                                                                   {218, 133, 65}}};
constexpr std::array<std::uint32_t, 8> kMaterials = {256, 272, 512, 528, 816, 848, 1088, 800};

class Builder {
public:
    Builder(rbx::Document &doc, std::uint32_t seed) : mDoc(doc), mRandom(seed) {}

    std::uint32_t add(const char *cls, const std::string &name, std::uint32_t parent) {
        return mDoc.addInstance(cls, name, parent);
    }
    void prop(std::uint32_t i, const char *name, Type type, rbx::ValueData data) {
        rbx::Property p;
        p.name = mDoc.names.intern(name);
        p.value.type = type;
        p.value.data = std::move(data);
        mDoc.instances[i].properties.push_back(std::move(p));
    }
    void f32(std::uint32_t i, const char *name, float v) { prop(i, name, Type::Float32, v); }
    void flag(std::uint32_t i, const char *name, bool v) { prop(i, name, Type::Bool, v); }
    void enumeration(std::uint32_t i, const char *name, std::uint32_t v) {
        prop(i, name, Type::Enum, rbx::EnumValue{v});
    }
    void text(std::uint32_t i, const char *name, std::string v) { prop(i, name, Type::String, std::move(v)); }
    void vec(std::uint32_t i, const char *name, rbx::Vector3 v) { prop(i, name, Type::Vector3, v); }
    void ref(std::uint32_t i, const char *name, std::uint32_t target) {
        prop(i, name, Type::Ref, rbx::RefValue{target});
    }

    // Every property Studio writes for a BasePart (all-instances-415), in Studio's order.
    std::uint32_t basePart(const char *cls, const std::string &name, std::uint32_t parent, const rbx::Vector3 &at) {
        const std::uint32_t i = add(cls, name, parent);
        static constexpr const char *kFaces[] = {"Back", "Bottom", "Front", "Left", "Right", "Top"};
        flag(i, "Anchored", mRandom.below(4) != 0);
        text(i, "AttributesSerialize", "");
        rbx::CFrame cf;
        cf.position = at;
        if (mRandom.below(5) == 0) cf.rotation = {0, 0, 1, 0, 1, 0, -1, 0, 0};
        if (mRandom.below(40) == 0) cf.rotation = {0.8f, 0, 0.6f, 0, 1, 0, -0.6f, 0, 0.8f};
        prop(i, "CFrame", Type::CFrame, cf);
        flag(i, "CanCollide", true);
        flag(i, "CanQuery", true);
        flag(i, "CanTouch", true);
        flag(i, "CastShadow", true);
        text(i, "CollisionGroup", "Default");
        const auto &c = kColours[mRandom.below(kColours.size())];
        prop(i, "Color3uint8", Type::Color3uint8, rbx::Color3uint8{c[0], c[1], c[2]});
        prop(i, "CustomPhysicalProperties", Type::PhysicalProperties, rbx::PhysicalProperties{});
        for (const char *face : kFaces) {
            enumeration(i, (std::string(face) + "Surface").c_str(), face == std::string("Top") ? 3u : 0u);
            f32(i, (std::string(face) + "ParamA").c_str(), -0.5f);
            f32(i, (std::string(face) + "ParamB").c_str(), 0.5f);
            enumeration(i, (std::string(face) + "SurfaceInput").c_str(), 0);
        }
        flag(i, "Locked", mRandom.below(2) == 0);
        flag(i, "Massless", false);
        enumeration(i, "Material", kMaterials[mRandom.below(kMaterials.size())]);
        text(i, "MaterialVariantSerialized", "");
        f32(i, "Reflectance", 0);
        prop(i, "RootPriority", Type::Int32, std::int32_t{0});
        vec(i, "RotVelocity", {});
        prop(i, "SourceAssetId", Type::Int64, rbx::Int64Value{-1});
        text(i, "Tags", "");
        f32(i, "Transparency", mRandom.below(30) == 0 ? 0.5f : 0.0f);
        vec(i, "Velocity", {});
        vec(i, "size", {mRandom.grid(0.2f, 40), mRandom.grid(0.2f, 20), mRandom.grid(0.2f, 40)});
        return i;
    }

    std::uint32_t part(const std::string &name, std::uint32_t parent, const rbx::Vector3 &at) {
        const std::uint32_t i = basePart("Part", name, parent, at);
        enumeration(i, "formFactorRaw", 1);
        enumeration(i, "shape", mRandom.below(12) == 0 ? 2u : 1u);
        return i;
    }

    void building(std::uint32_t parent, std::uint32_t index) {
        const float x = static_cast<float>(index % 20) * 60, z = static_cast<float>(index / 20) * 60;
        const std::uint32_t model = add("Model", "Building" + std::to_string(index), parent);
        enumeration(model, "LevelOfDetail", 0);
        enumeration(model, "ModelStreamingMode", 0);
        prop(model, "WorldPivotData", Type::OptionalCFrame, rbx::OptionalCFrame{});
        std::uint32_t parts[20];
        for (int k = 0; k < 20; ++k)
            parts[k] = part(k < 4   ? "Wall"
                            : k < 8 ? "Floor"
                                    : "Part",
                            model, {x + mRandom.real(40), mRandom.real(30), z + mRandom.real(40)});
        for (int k = 0; k < 3; ++k) basePart("WedgePart", "Roof", model, {x, 30 + static_cast<float>(k), z});
        for (int k = 0; k < 2; ++k) {
            const std::uint32_t m = basePart("MeshPart", "Prop", model, {x + 5, 1, z + static_cast<float>(k)});
            text(m, "MeshId", "rbxassetid://" + std::to_string(1000000 + mRandom.below(50)));
            text(m, "TextureID", "rbxassetid://" + std::to_string(2000000 + mRandom.below(50)));
            vec(m, "InitialSize", {2, 2, 2});
            text(m, "PhysicsData", mRandom.blob(400));
            enumeration(m, "RenderFidelity", 1);
            enumeration(m, "CollisionFidelity", 0);
        }
        const std::uint32_t u = basePart("UnionOperation", "Arch", model, {x + 10, 5, z});
        text(u, "AssetId", "rbxassetid://" + std::to_string(3000000 + index));
        flag(u, "UsePartColor", false);
        vec(u, "InitialSize", {8, 10, 2});
        text(u, "MeshData", mRandom.blob(2400)); // CSG render mesh (opaque here)
        text(u, "PhysicalConfigData", mRandom.blob(1200));
        for (int k = 0; k < 4; ++k) {
            const std::uint32_t w = add("WeldConstraint", "WeldConstraint", parts[k]);
            flag(w, "Enabled", true);
            ref(w, "Part0", parts[k]);
            ref(w, "Part1", parts[k + 4]);
        }
        for (int k = 0; k < 2; ++k) {
            const std::uint32_t d = add("Decal", "Decal", parts[k]);
            prop(d, "Color3", Type::Color3, rbx::Color3{1, 1, 1});
            enumeration(d, "Face", 5);
            text(d, "Texture", "rbxassetid://" + std::to_string(4000000 + mRandom.below(20)));
            f32(d, "Transparency", 0);
            prop(d, "ZIndex", Type::Int32, std::int32_t{1});
        }
        for (int k = 0; k < 2; ++k) {
            const std::uint32_t m = add("SpecialMesh", "Mesh", parts[10 + k]);
            enumeration(m, "LODX", 2);
            enumeration(m, "LODY", 2);
            text(m, "MeshId", "");
            enumeration(m, "MeshType", k == 0 ? 3u : 6u);
            vec(m, "Offset", {});
            vec(m, "Scale", {1, 1, 1});
            text(m, "TextureId", "");
            vec(m, "VertexColor", {1, 1, 1});
        }
        const std::uint32_t light = add("PointLight", "PointLight", parts[12]);
        f32(light, "Brightness", 1);
        prop(light, "Color", Type::Color3, rbx::Color3{1, 0.9f, 0.7f});
        flag(light, "Enabled", true);
        f32(light, "Range", 12);
        flag(light, "Shadows", false);
        const std::uint32_t script = add("Script", "Script", model);
        flag(script, "Disabled", false);
        text(script, "LinkedSource", "");
        enumeration(script, "RunContext", 0);
        std::string source = "-- building " + std::to_string(index) + "\nlocal model = script.Parent\n";
        while (source.size() < 1500)
            source += "local part" + std::to_string(mRandom.below(100)) + " = model:FindFirstChild(\"Part\")\n";
        text(script, "Source", source);
        const std::uint32_t folder = add("Folder", "Details", model);
        add("Attachment", "Attachment", parts[13]);
        (void)folder;
    }

private:
    rbx::Document &mDoc;
    Lcg mRandom;
};

} // namespace

rbx::Document StudioLikePlace(std::size_t instances, std::uint32_t seed) {
    rbx::Document doc;
    Builder b(doc, seed);
    const auto service = [&](const char *cls) {
        const std::uint32_t i = b.add(cls, cls, rbx::kNoInstance);
        doc.instances[i].isService = true;
        return i;
    };
    const std::uint32_t workspace = service("Workspace");
    const std::uint32_t camera = b.add("Camera", "Camera", workspace);
    rbx::CFrame view;
    view.position = {0, 40, 80};
    b.prop(camera, "CFrame", Type::CFrame, view);
    b.f32(camera, "FieldOfView", 70);
    b.ref(workspace, "CurrentCamera", camera);
    b.part("Baseplate", workspace, {0, -4, 0});
    service("Lighting");
    const std::uint32_t storage = service("ReplicatedStorage");
    service("ServerScriptService");
    const std::uint32_t gui = b.add("ScreenGui", "Hud", service("StarterGui"));
    for (int k = 0; k < 20; ++k) b.add("TextLabel", "Label", gui);
    // Buildings of 40 instances: one in eight kept in ReplicatedStorage (outside the Workspace's scope).
    const std::size_t buildings = instances > 40 ? (instances - 40) / 40 : 1;
    for (std::size_t k = 0; k < buildings; ++k)
        b.building(k % 8 == 7 ? storage : workspace, static_cast<std::uint32_t>(k));
    for (std::uint32_t i = 0; i < doc.instances.size(); ++i) doc.instances[i].referent = std::to_string(i);
    return doc;
}

} // namespace gamefmt::bench
