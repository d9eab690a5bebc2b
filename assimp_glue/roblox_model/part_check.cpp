// CheckRobloxParts (scene.hpp): the scene-wide invariant behind `gamefmt validate --strict` for Roblox scenes —
// every generated part shows a mesh of its own size and a material of its own look (issue #25: a bookkeeping slip
// once drew 18,720 parts of a real place with other parts' meshes, and every validator called the scene valid).
#include "assimp_glue/common/scene_util.hpp"
#include "assimp_glue/roblox_model/scene.hpp"
#include "common/text_number.hpp"
#include "importers/roblox_model/appearance/appearance.hpp"
#include "importers/roblox_model/avatar/characters.hpp"
#include "importers/roblox_model/document/dom.hpp"
#include "importers/roblox_model/document/reader.hpp"

#include <assimp/material.h>
#include <assimp/scene.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <unordered_map>

namespace gamefmt::glue {
namespace {

struct Bounds {
    aiVector3D lo, hi;
};

// docs/formats/roblox-model.md §5.2: the box a shape of `size` at `offset` fills. Round shapes reach it only where
// a ring vertex lies on an axis, so their bounds may fall short by the polygon's sagitta: `round` says so.
Bounds ShapeBounds(rbx::ShapeKind shape, const rbx::Vector3 &size, const rbx::Vector3 &offset, bool &round) {
    aiVector3D e(std::fabs(size.x), std::fabs(size.y), std::fabs(size.z));
    round = true;
    switch (shape) {
    case rbx::ShapeKind::CylinderX:
        e.y = e.z = std::min(e.y, e.z);
        break;
    case rbx::ShapeKind::CylinderY:
        e.x = e.z = std::min(e.x, e.z);
        break;
    case rbx::ShapeKind::Sphere:
        e.x = e.y = e.z = std::min({e.x, e.y, e.z});
        break;
    case rbx::ShapeKind::Ellipsoid:
        break;
    default:
        round = false;
        break;
    }
    const aiVector3D at(offset.x, offset.y, offset.z);
    return {at - e * 0.5f, at + e * 0.5f};
}

Bounds MeshBounds(const aiMesh &mesh) {
    const float inf = std::numeric_limits<float>::infinity();
    Bounds b{{inf, inf, inf}, {-inf, -inf, -inf}};
    for (unsigned v = 0; v < mesh.mNumVertices; ++v) {
        const aiVector3D &p = mesh.mVertices[v];
        b.lo = aiVector3D(std::min(b.lo.x, p.x), std::min(b.lo.y, p.y), std::min(b.lo.z, p.z));
        b.hi = aiVector3D(std::max(b.hi.x, p.x), std::max(b.hi.y, p.y), std::max(b.hi.z, p.z));
    }
    return b;
}

// Exact for flat shapes; round ones within their box and at least half of it (a 3-segment ring's worst case).
bool Fits(const Bounds &got, const Bounds &want, bool round) {
    for (int a = 0; a < 3; ++a) {
        const float slack = 1e-4f * (1 + std::fabs(want.lo[a]) + std::fabs(want.hi[a]));
        if (!round) {
            if (std::fabs(got.lo[a] - want.lo[a]) > slack || std::fabs(got.hi[a] - want.hi[a]) > slack) return false;
            continue;
        }
        if (got.lo[a] < want.lo[a] - slack || got.hi[a] > want.hi[a] + slack) return false;
        if (got.hi[a] - got.lo[a] < (want.hi[a] - want.lo[a]) * 0.5f - slack) return false;
    }
    return true;
}

std::string BoundsText(const Bounds &b) {
    return FormatFloat(b.hi.x - b.lo.x) + "x" + FormatFloat(b.hi.y - b.lo.y) + "x" + FormatFloat(b.hi.z - b.lo.z);
}

// The look's Material, colour and opacity in `m` (§5.5); empty when they agree, else what differs.
std::string LookDifference(const aiMaterial &m, const rbx::Look &look) {
    int material = -1;
    m.Get("$rbx.material", 0, 0, material);
    if (material != static_cast<int>(look.material))
        return "Material " + std::to_string(material) + " instead of " + std::to_string(look.material);
    aiColor4D c;
    if (m.Get(AI_MATKEY_COLOR_DIFFUSE, c) == AI_SUCCESS &&
        (std::fabs(c.r * 255 - look.color.r) > 0.01f || std::fabs(c.g * 255 - look.color.g) > 0.01f ||
         std::fabs(c.b * 255 - look.color.b) > 0.01f))
        return "another colour";
    float opacity = 1;
    m.Get(AI_MATKEY_OPACITY, opacity);
    const float want = (1 - look.transparency) * (look.material == 1584 ? 0.5f : 1.0f); // ForceField: half
    if (std::fabs(opacity - want) > 1e-5f)
        return "opacity " + FormatFloat(opacity) + " instead of " + FormatFloat(want);
    return {};
}

} // namespace

std::vector<std::string> CheckRobloxParts(const aiScene &scene) {
    std::vector<std::string> problems;
    std::vector<std::uint8_t> source;
    if (scene.mRootNode == nullptr || !ReadRobloxSource(scene, source)) return problems;
    rbx::ReadOptions read;
    read.maxInstances = std::numeric_limits<std::uint32_t>::max(); // it was imported already
    read.keepProperty = [](std::string_view name) { return rbx::Appearance::Reads(name) || rbx::AvatarReads(name); };
    const rbx::Document doc = rbx::ReadDocument(source.data(), source.size(), read);
    const std::vector<std::string> names = RobloxNodeNames(doc);
    std::unordered_map<std::string, const aiNode *> nodes;
    std::vector<const aiNode *> stack{scene.mRootNode};
    while (!stack.empty()) { // every node, skeleton copies included: names are unique, a name seen twice stops there
        const aiNode *node = stack.back();
        stack.pop_back();
        if (node == nullptr || !nodes.emplace(node->mName.C_Str(), node).second) continue;
        for (unsigned c = 0; c < node->mNumChildren; ++c) stack.push_back(node->mChildren[c]);
    }
    const rbx::Appearance looks(doc);
    // Characters' body parts take their colour from BodyColors, and wear composited clothing textures
    // (docs/formats/roblox-avatar.md §1–§2).
    std::unordered_map<std::uint32_t, rbx::Color3uint8> bodyColours;
    std::unordered_map<std::uint32_t, bool> bodyParts;
    for (const rbx::Character &ch : rbx::FindCharacters(doc))
        for (const rbx::BodyPart &bp : ch.parts) {
            bodyParts.emplace(bp.part, true);
            if (ch.bodyColors) bodyColours.emplace(bp.part, (*ch.bodyColors)[static_cast<std::size_t>(bp.limb)]);
        }
    std::unordered_map<unsigned, Bounds> meshBounds; // shared meshes measured once
    for (std::uint32_t i = 0; i < doc.instances.size(); ++i) {
        const auto found = nodes.find(names[i]);
        if (names[i].empty() || found == nodes.end() || found->second->mNumMeshes == 0) continue;
        const aiNode &node = *found->second;
        rbx::Look look;
        const rbx::PartGeometry g = looks.geometry(i, &look);
        if (const auto body = bodyColours.find(i); body != bodyColours.end()) look.color = body->second;
        std::string drawn;
        GetMetadataText(node.mMetaData, kRbxGeometry, drawn);
        const bool generated = g.source == rbx::GeometrySource::Shape ||
                               (g.source == rbx::GeometrySource::Placeholder && drawn == "placeholder");
        if (!generated) continue;
        const std::string who = "'" + names[i] + "' (" + doc.className(doc.instances[i]) + ")";
        if (node.mNumMeshes != 1 || node.mMeshes[0] >= scene.mNumMeshes) {
            problems.push_back(who + " shows " + std::to_string(node.mNumMeshes) + " meshes instead of one");
            continue;
        }
        const unsigned index = node.mMeshes[0];
        const aiMesh &mesh = *scene.mMeshes[index];
        const Bounds got = meshBounds.emplace(index, MeshBounds(mesh)).first->second;
        bool round = false;
        const Bounds want = ShapeBounds(g.source == rbx::GeometrySource::Shape ? g.shape : rbx::ShapeKind::Box, g.size,
                                        g.offset, round);
        if (!Fits(got, want, round)) {
            problems.push_back(who + " shows a " + BoundsText(got) + " mesh ('" + mesh.mName.C_Str() +
                               "'); its size makes " + BoundsText(want));
            continue;
        }
        if (mesh.mMaterialIndex < scene.mNumMaterials) {
            const aiMaterial &material = *scene.mMaterials[mesh.mMaterialIndex];
            // A body part in its composited clothing: the texture carries the colour, the material's is white.
            if (bodyParts.count(i) != 0 && material.GetTextureCount(aiTextureType_DIFFUSE) != 0)
                look.color = {255, 255, 255};
            const std::string diff = LookDifference(material, look);
            if (!diff.empty()) problems.push_back(who + "'s material has " + diff);
        }
    }
    return problems;
}

} // namespace gamefmt::glue
