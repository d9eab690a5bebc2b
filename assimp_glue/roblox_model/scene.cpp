// Roblox document ⇄ aiScene: the node tree with metadata and CFrame transforms (docs/formats/roblox-model.md §5.1), and
// the document rebuilt from that metadata for export (§6, "DOM round trip").
#include "assimp_glue/roblox_model/scene.hpp"

#include "assimp_glue/common/scene_util.hpp"
#include "assimp_glue/roblox_model/layered_clothing.hpp"
#include "common/base64.hpp"
#include "common/compression.hpp"
#include "common/error.hpp"
#include "common/text_number.hpp"
#include "importers/roblox_model/appearance/appearance.hpp"
#include "importers/roblox_model/avatar/characters.hpp"
#include "importers/roblox_model/document/dom.hpp"
#include "importers/roblox_model/document/reader.hpp"
#include "importers/roblox_model/document/tree_walk.hpp"
#include "importers/roblox_model/document/value_text.hpp"
#include "importers/roblox_model/document/xml_writer.hpp"

#include <assimp/scene.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <memory>
#include <optional>
#include <unordered_map>
#include <utility>
#include <vector>

namespace gamefmt::glue {
namespace {

using rbx::Document;
using rbx::Instance;
using rbx::kNoInstance;

// The largest rbx.source the exporters inflate: GAMEFMT_RBX_MAX_DECOMPRESSED's default (1 GiB).
constexpr std::uint64_t kMaxSourceBytes = std::uint64_t(1024) << 20;

[[noreturn]] void Fail(const std::string &message) {
    throw FormatError(rbx::kFormatName, message);
}

bool IsWorldFramed(const std::string &className) {
    return className != "Attachment" && className != "Bone";
}

// The instance's own CFrame (property "CFrame" of type CFrame), if any.
const rbx::CFrame *OwnCFrame(const Document &doc, const Instance &inst, std::uint32_t cframeName) {
    if (cframeName == kNoInstance) return nullptr;
    const rbx::Property *p = inst.find(cframeName);
    if (p == nullptr || (p->value.type != rbx::Type::CFrame && p->value.type != rbx::Type::CFrameQuat)) return nullptr;
    (void)doc;
    return std::get_if<rbx::CFrame>(&p->value.data);
}

// A rigid matrix from a CFrame: rotation re-orthonormalised when it drifts by more than 1e-4 (and the
// identity when it is not finite or degenerate); the raw values stay in rbx.props.
aiMatrix4x4 RigidMatrix(const rbx::CFrame &cf) {
    const auto &r = cf.rotation;
    aiVector3D c0(r[0], r[3], r[6]), c1(r[1], r[4], r[7]), c2(r[2], r[5], r[8]);
    bool finite = true;
    for (float v : r) finite = finite && std::isfinite(v);
    float drift = 0;
    if (finite) {
        const float d[6] = {c0 * c0 - 1, c1 * c1 - 1, c2 * c2 - 1, c0 * c1, c0 * c2, c1 * c2};
        for (float v : d) drift = std::max(drift, std::fabs(v));
        const float det = c0 * (c1 ^ c2);
        if (det < 0) drift = std::max(drift, 2.0f);
    }
    if (!finite) {
        c0 = {1, 0, 0};
        c1 = {0, 1, 0};
        c2 = {0, 0, 1};
    } else if (drift > 1e-4f) {
        // Gram-Schmidt from the right and up vectors; a degenerate frame becomes the identity.
        if (c0.Length() < 1e-12f) c0 = {1, 0, 0};
        c0.Normalize();
        c1 = c1 - c0 * (c0 * c1);
        if (c1.Length() < 1e-6f) c1 = std::fabs(c0.x) < 0.9f ? aiVector3D(1, 0, 0) ^ c0 : aiVector3D(0, 1, 0) ^ c0;
        c1.Normalize();
        c2 = c0 ^ c1;
    }
    const float px = std::isfinite(cf.position.x) ? cf.position.x : 0.0f;
    const float py = std::isfinite(cf.position.y) ? cf.position.y : 0.0f;
    const float pz = std::isfinite(cf.position.z) ? cf.position.z : 0.0f;
    return aiMatrix4x4(c0.x, c1.x, c2.x, px, c0.y, c1.y, c2.y, py, c0.z, c1.z, c2.z, pz, 0, 0, 0, 1);
}

// The inverse of a rigid matrix (rotation transposed).
aiMatrix4x4 RigidInverse(const aiMatrix4x4 &m) {
    aiMatrix4x4 inv(m.a1, m.b1, m.c1, 0, m.a2, m.b2, m.c2, 0, m.a3, m.b3, m.c3, 0, 0, 0, 0, 1);
    inv.a4 = -(inv.a1 * m.a4 + inv.a2 * m.b4 + inv.a3 * m.c4);
    inv.b4 = -(inv.b1 * m.a4 + inv.b2 * m.b4 + inv.b3 * m.c4);
    inv.c4 = -(inv.c1 * m.a4 + inv.c2 * m.b4 + inv.c3 * m.c4);
    return inv;
}

// Places hold a Workspace at the top; models may carry services too (a saved Lighting), so isService alone
// does not decide.
bool IsPlace(const Document &doc) {
    for (std::uint32_t r : doc.roots)
        if (r < doc.instances.size() && doc.className(doc.instances[r]) == "Workspace") return true;
    return false;
}

const aiString *GetString(const aiMetadata &md, const char *key) {
    for (unsigned i = 0; i < md.mNumProperties; ++i)
        if (md.mValues[i].mType == AI_AISTRING && std::strcmp(md.mKeys[i].C_Str(), key) == 0)
            return static_cast<const aiString *>(md.mValues[i].mData);
    return nullptr;
}

// Animation clips (KeyframeSequence, CurveAnimation) are nodes, their Keyframes, Poses and curves are not: they
// become aiAnimations (rigs.cpp), and a 10,000-keyframe sequence would otherwise be 160,000 nodes of ~1.1 KB. The
// clip's node carries rbx.collapsed (how many instances below it have no node); DocumentFromScene keeps them.
bool IsCollapsedClip(const Document &doc, const Instance &inst) {
    const std::string &cls = doc.className(inst);
    return cls == "KeyframeSequence" || cls == "CurveAnimation";
}

// Visits the document's tree (rbx::ForEachInTreeOrder) without the descendants of animation clips when `collapse`
// (they have no nodes): fn(index, parentIndex or kNoInstance, depth with top-level = 1).
template <typename Fn> void ForEachNodeInstance(const Document &doc, Fn &&fn, bool collapse) {
    rbx::ForEachInTreeOrder(doc, [&](const rbx::TreeStep &step) {
        fn(step.index, step.parent, step.depth);
        return !(collapse && IsCollapsedClip(doc, doc.instances[step.index]));
    });
}

// The name an instance's node starts from: its Name (or class), valid UTF-8, cut to 1000 bytes so that the
// ".N" UniqueNames adds still fits an aiString (1023 bytes): DocumentFromScene must find the same name.
std::string WantedNodeName(const Document &doc, const Instance &inst) {
    std::string name = SanitizeForAiString(inst.name.empty() ? doc.className(inst) : inst.name);
    constexpr std::size_t kMaxBase = 1000;
    if (name.size() > kMaxBase) {
        std::size_t cut = kMaxBase;
        while (cut > 0 && (static_cast<unsigned char>(name[cut]) & 0xC0) == 0x80) --cut;
        name.resize(cut);
    }
    return name;
}

// The node name of every instance (empty for those not in the tree), as BuildRobloxModelScene gives them:
// unique in the scene, "DataModel" taken by the root. DocumentFromScene finds instances by these names.
std::vector<std::string> InstanceNodeNames(const Document &doc, UniqueNames &names) {
    std::vector<std::string> out(doc.instances.size());
    ForEachNodeInstance(
        doc,
        [&](std::uint32_t index, std::uint32_t, std::size_t) {
            const Instance &inst = doc.instances[index];
            out[index] = names.make(WantedNodeName(doc, inst));
        },
        true);
    return out;
}

// The per-node property bag (GAMEFMT_RBX_NODE_PROPERTIES): rbx.ClassName, rbx.Name, rbx.Referent,
// rbx.service and one rbx.props.<name> entry per property.
aiMetadata *NodeProperties(const Document &doc, std::uint32_t index) {
    const Instance &inst = doc.instances[index];
    MetadataBuilder md;
    md.add(kRbxClassName, doc.className(inst));
    md.add(kRbxName, SanitizeForAiString(inst.name));
    md.add(kRbxReferent, SanitizeForAiString(rbx::ReferentText(doc, index)));
    if (inst.isService) md.add(kRbxService, true);
    for (const rbx::Property &p : inst.properties) {
        md.add(kRbxPropPrefix + doc.names.str(p.name), rbx::FormatValue(doc, p.value));
    }
    return md.build();
}

} // namespace

namespace {

// The instances below `index` (reachable, each once; `seen` is shared by every call, so that a place of many clips
// costs one pass over its instances, not one per clip).
std::uint64_t CountDescendants(const Document &doc, std::uint32_t index, std::vector<bool> &seen) {
    std::uint64_t count = 0;
    rbx::WalkTree(doc, doc.instances[index].children, index, seen, [&](const rbx::TreeStep &) { ++count; });
    return count;
}

// rbx.collapsed on the node of every animation clip with instances below it; returns how many instances that is.
std::size_t MarkCollapsedClips(const Document &doc, const std::vector<aiNode *> &nodes,
                               const std::vector<std::uint32_t> &order) {
    std::size_t total = 0;
    std::vector<bool> seen;
    for (std::uint32_t i : order) {
        if (!IsCollapsedClip(doc, doc.instances[i]) || doc.instances[i].children.empty()) continue;
        if (seen.empty()) seen.assign(doc.instances.size(), false);
        const std::uint64_t below = CountDescendants(doc, i, seen);
        MetadataBuilder md;
        md.add(kRbxCollapsed, below);
        md.mergeInto(nodes[i]->mMetaData);
        total += static_cast<std::size_t>(below);
    }
    return total;
}

// GAMEFMT_RBX_SUN: the sun's light, on a node of its own appended to the root's children (null: no sun).
std::unique_ptr<aiLight> SunOnItsNode(const Document &doc, const RobloxSceneOptions &options, UniqueNames &names,
                                      aiNode *root, std::vector<aiNode *> &rootChildren) {
    if (!options.geometry.enabled || !options.geometry.sun) return nullptr;
    std::unique_ptr<aiLight> sun = RobloxSunLight(doc, "Sun");
    if (sun) {
        auto *node = new aiNode(names.make("Sun"));
        node->mParent = root;
        sun->mName = node->mName;
        rootChildren.push_back(node);
    }
    return sun;
}

void AppendLight(aiScene *scene, std::unique_ptr<aiLight> light) {
    auto **lights = new aiLight *[scene->mNumLights + 1];
    for (unsigned i = 0; i < scene->mNumLights; ++i) lights[i] = scene->mLights[i];
    lights[scene->mNumLights] = light.release();
    delete[] scene->mLights;
    scene->mLights = lights;
    ++scene->mNumLights;
}

// Scene metadata: the encoding, the file as rbx.source, units, META entries, SourceAsset_*.
void AddSceneMetadata(const Document &doc, const RobloxSceneOptions &options, bool place, aiScene *scene) {
    MetadataBuilder sm;
    sm.add(kRbxFormat, doc.sourceEncoding == rbx::Encoding::Xml ? "xml" : "binary");
    // The instances themselves travel as the file they came from (or, for a document built in memory, its
    // XML form, which keeps a property that only some instances of a class carry): ~2.8 bytes of metadata
    // per file byte instead of ~2 KB per property.
    // zstd at its default level shrinks a binary file (LZ4 chunks) about 5× and XML about 10×.
    if (options.source != nullptr) {
        sm.addBlob(kRbxSource, CompressZstdFrame(options.source, options.sourceSize, 0, rbx::kFormatName));
        sm.add(kRbxSourceSize, static_cast<std::uint64_t>(options.sourceSize));
    } else {
        const std::string xml = rbx::WriteXml(doc);
        sm.addBlob(kRbxSource, CompressZstdFrame(reinterpret_cast<const std::uint8_t *>(xml.data()), xml.size(), 0,
                                                 rbx::kFormatName));
        sm.add(kRbxSourceSize, static_cast<std::uint64_t>(xml.size()));
    }
    sm.add("UnitScaleFactor", 28.0); // cm per stud (FBX meaning), §5.1
    for (const auto &[key, value] : doc.meta) sm.add("rbx.meta." + key, value);
    // Undecoded PROPs, unknown chunks and unknown XML elements are in rbx.source; DocumentFromScene still
    // reads rbx.raw.<n> / rbx.xmlraw.<n> entries from scenes made without it.
    sm.mergeInto(scene->mMetaData);
    SetSourceAsset(scene, place ? kRbxPlaceFormat : kRbxModelFormat,
                   doc.sourceEncoding == rbx::Encoding::Xml ? "4" : "0");
}

} // namespace

void BuildRobloxModelScene(const Document &doc, aiScene *scene, const RobloxSceneOptions &options) {
    for (const std::string &w : doc.warnings) LogWarn(std::string(rbx::kFormatName) + ": " + w);

    const std::size_t n = doc.instances.size();
    UniqueNames names;
    names.reserve(n + 1);
    scene->mRootNode = new aiNode();
    scene->mRootNode->mName = aiString(std::string(names.make("DataModel")));

    const std::optional<std::uint32_t> cframeId = doc.names.find("CFrame");
    const std::uint32_t cframeName = cframeId ? *cframeId : kNoInstance;

    std::vector<aiNode *> nodes(n, nullptr);
    std::vector<aiMatrix4x4> world(n); // frame of each instance (inherited when it has none)
    std::vector<std::vector<aiNode *>> childLists(n);
    std::vector<aiNode *> rootChildren;
    std::vector<std::uint32_t> order; // tree pre-order
    order.reserve(n);
    ForEachNodeInstance(
        doc,
        [&](std::uint32_t index, std::uint32_t parent, std::size_t depth) {
            const Instance &inst = doc.instances[index];
            const std::string &className = doc.className(inst);
            if (depth > options.maxDepth) {
                // Nothing is linked under the root yet: free what was built, then refuse.
                for (aiNode *built : nodes) delete built;
                Fail("instance " + QuoteText(rbx::ReferentText(doc, index)) + " (" + QuoteText(className) + " '" +
                     QuoteText(inst.name) + "') is " + std::to_string(depth) +
                     " levels below the root, deeper than the limit of " + std::to_string(options.maxDepth) +
                     " (raise GAMEFMT_MAX_NODE_DEPTH / --max-node-depth to import it)");
            }
            order.push_back(index);
            auto *node = new aiNode();
            nodes[index] = node;
            node->mName = ToAiString(names.make(WantedNodeName(doc, inst)));
            node->mParent = parent == kNoInstance ? scene->mRootNode : nodes[parent];
            (parent == kNoInstance ? rootChildren : childLists[parent]).push_back(node);

            // Frames: BasePart-like CFrames are world space; Attachment/Bone are relative to the parent frame.
            const aiMatrix4x4 parentWorld = parent == kNoInstance ? aiMatrix4x4() : world[parent];
            world[index] = parentWorld;
            if (const rbx::CFrame *cf = OwnCFrame(doc, inst, cframeName)) {
                const aiMatrix4x4 own = RigidMatrix(*cf);
                world[index] = IsWorldFramed(className) ? own : parentWorld * own;
                node->mTransformation = RigidInverse(parentWorld) * world[index];
            }
            if (options.nodeProperties) node->mMetaData = NodeProperties(doc, index);
        },
        true);
    const std::size_t collapsed = MarkCollapsedClips(doc, nodes, order);
    for (std::size_t i = 0; i < n; ++i) {
        if (nodes[i] == nullptr || childLists[i].empty()) continue;
        nodes[i]->mNumChildren = static_cast<unsigned>(childLists[i].size());
        nodes[i]->mChildren = CopyToNewArray(childLists[i]);
    }
    if (order.size() + collapsed < n)
        LogWarn(std::string(rbx::kFormatName) + ": " + std::to_string(n - order.size() - collapsed) +
                " instance(s) not reachable from the top level were left out of the node tree");
    std::unique_ptr<aiLight> sun = SunOnItsNode(doc, options, names, scene->mRootNode, rootChildren);
    scene->mRootNode->mNumChildren = static_cast<unsigned>(rootChildren.size());
    scene->mRootNode->mChildren = CopyToNewArray(rootChildren);

    const bool place = IsPlace(doc);
    AddRobloxGeometry(doc, nodes, order, place, options.geometry, scene, &names);
    AddRobloxRigs(doc, nodes, options.rig, scene, names);
    FitLayeredClothing(doc, nodes, options.geometry, scene);
    if (sun) AppendLight(scene, std::move(sun));
    // Assimp accepts a scene without meshes only when it says so.
    if (scene->mNumMeshes == 0) scene->mFlags |= AI_SCENE_FLAGS_INCOMPLETE;

    AddSceneMetadata(doc, options, place, scene);
}

void ImportRobloxModel(const std::uint8_t *data, std::size_t size, const rbx::ReadOptions &readOptions,
                       const RobloxSceneOptions &sceneOptions, aiScene *scene) {
    // The file itself travels in rbx.source: unless the nodes get their property bags, only the properties
    // the scene is built from are decoded (a Studio part has ~50; a 26,000-instance place's document shrinks
    // from ~140 MB to a tenth of that).
    rbx::ReadOptions read = readOptions;
    if (!sceneOptions.nodeProperties)
        read.keepProperty = [](std::string_view name) {
            return rbx::Appearance::Reads(name) || RigsRead(name) || rbx::AvatarReads(name);
        };
    const Document doc = rbx::ReadDocument(data, size, read);
    RobloxSceneOptions options = sceneOptions;
    options.source = data;
    options.sourceSize = size;
    BuildRobloxModelScene(doc, scene, options);
}

bool IsRobloxModelScene(const aiScene &scene) {
    if (scene.mRootNode == nullptr) return false;
    if (scene.mMetaData != nullptr)
        for (unsigned i = 0; i < scene.mMetaData->mNumProperties; ++i)
            if (std::strcmp(scene.mMetaData->mKeys[i].C_Str(), kRbxSource) == 0) return true;
    std::vector<const aiNode *> stack{scene.mRootNode};
    while (!stack.empty()) {
        const aiNode *node = stack.back();
        stack.pop_back();
        if (node->mMetaData != nullptr && GetString(*node->mMetaData, kRbxClassName) != nullptr) return true;
        for (unsigned i = 0; i < node->mNumChildren; ++i) stack.push_back(node->mChildren[i]);
    }
    return false;
}

namespace {

// The document of the kept instances (`order`, source indices) with the children lists `kids` (index
// source.instances.size() = the top level); Refs to dropped instances become null.
void RebuildKept(Document &source, const std::vector<std::uint32_t> &order,
                 const std::vector<std::vector<std::uint32_t>> &kids, Document &out) {
    const std::size_t n = source.instances.size();
    std::vector<std::uint32_t> newIndex(n, kNoInstance);
    for (std::uint32_t k = 0; k < order.size(); ++k) newIndex[order[k]] = k;
    out = std::move(source);
    std::vector<Instance> keptInstances;
    keptInstances.reserve(order.size());
    for (std::uint32_t s : order) keptInstances.push_back(std::move(out.instances[s]));
    out.instances = std::move(keptInstances);
    const auto remap = [&](const std::vector<std::uint32_t> &list) {
        std::vector<std::uint32_t> mapped;
        mapped.reserve(list.size());
        for (std::uint32_t s : list) mapped.push_back(newIndex[s]);
        return mapped;
    };
    out.roots = remap(kids[n]);
    for (std::uint32_t r : out.roots) out.instances[r].parent = kNoInstance;
    for (std::uint32_t k = 0; k < order.size(); ++k) {
        Instance &inst = out.instances[k];
        inst.children = remap(kids[order[k]]);
        for (rbx::Property &p : inst.properties)
            if (auto *ref = std::get_if<rbx::RefValue>(&p.value.data); ref != nullptr && ref->target != kNoInstance)
                ref->target = ref->target < n ? newIndex[ref->target] : kNoInstance;
    }
    for (std::uint32_t k = 0; k < order.size(); ++k)
        for (std::uint32_t c : out.instances[k].children) out.instances[c].parent = k;
}

// Where a node's instance belongs: under the nearest kept ancestor's instance, or, for a part node that rigs moved
// under a joint or a weld (rigs.hpp), under the instance its rbx.rigParent names, at its rbx.rigIndex.
struct KeptInstance {
    std::uint32_t parent = kNoInstance; // source index
    std::int64_t rigIndex = -1;         // >= 0: placed among its siblings by this index, not by node order
};

KeptInstance WhereItBelongs(const aiNode &node, std::uint32_t nearest, const aiNode &root,
                            const std::unordered_map<std::string_view, std::uint32_t> &byName) {
    KeptInstance k{nearest, -1};
    std::string rigParent;
    const std::optional<std::int64_t> index =
        node.mMetaData != nullptr ? GetMetadataInt(node.mMetaData, kRbxRigIndex) : std::nullopt;
    if (!index || !GetMetadataText(node.mMetaData, kRbxRigParent, rigParent)) return k;
    if (rigParent == root.mName.C_Str()) {
        k.parent = kNoInstance;
    } else if (const auto found = byName.find(rigParent); found != byName.end()) {
        k.parent = found->second;
    } else {
        return k;
    }
    k.rigIndex = *index;
    return k;
}

// The children lists (source indices) of the kept instances: in node order, then the rig-moved ones put back at
// their recorded places. Index n holds the top level.
std::vector<std::vector<std::uint32_t>> KeptChildren(const std::vector<std::uint32_t> &order,
                                                     const std::vector<KeptInstance> &where, std::size_t n) {
    std::vector<std::vector<std::uint32_t>> kids(n + 1);
    const auto slot = [&](std::uint32_t parent) { return parent == kNoInstance ? n : parent; };
    std::vector<std::uint32_t> moved;
    for (std::uint32_t s : order) {
        if (where[s].rigIndex >= 0) {
            moved.push_back(s);
        } else {
            kids[slot(where[s].parent)].push_back(s);
        }
    }
    std::stable_sort(moved.begin(), moved.end(),
                     [&](std::uint32_t a, std::uint32_t b) { return where[a].rigIndex < where[b].rigIndex; });
    for (std::uint32_t s : moved) {
        std::vector<std::uint32_t> &list = kids[slot(where[s].parent)];
        const auto at = static_cast<std::size_t>(std::min<std::int64_t>(where[s].rigIndex, std::int64_t(list.size())));
        list.insert(list.begin() + static_cast<std::ptrdiff_t>(at), s);
    }
    return kids;
}

// The instances below each kept animation clip (rbx.collapsed: they have no nodes) are kept as the source has them,
// in pre-order so that their children lists keep the source's order.
void KeepCollapsed(const Document &source, const std::vector<std::uint32_t> &clips, std::vector<bool> &kept,
                   std::vector<std::uint32_t> &order, std::vector<KeptInstance> &where) {
    for (std::uint32_t clip : clips) {
        rbx::WalkTree(source, source.instances[clip].children, clip, kept, [&](const rbx::TreeStep &step) {
            order.push_back(step.index);
            where[step.index] = {source.instances[step.index].parent, -1};
        });
    }
}

// The source document brought in line with the node tree: an instance is kept when a node still carries
// its node name (BuildRobloxModelScene's), under the nearest kept ancestor (or where rbx.rigParent puts it),
// children in node order; nodes that name no instance (added, renamed, or joint nodes) are passed through, their
// children attached above. Instances whose nodes are gone are dropped and Refs to them become null. An untouched
// tree gives the source as read.
void ReconcileWithNodes(const aiScene &scene, Document &source, Document &out) {
    UniqueNames names;
    (void)names.make("DataModel");
    const std::vector<std::string> nodeNames = InstanceNodeNames(source, names);
    std::unordered_map<std::string_view, std::uint32_t> byName;
    byName.reserve(nodeNames.size());
    for (std::uint32_t i = 0; i < nodeNames.size(); ++i)
        if (!nodeNames[i].empty()) byName.emplace(nodeNames[i], i);

    const std::size_t n = source.instances.size();
    std::vector<std::uint32_t> order; // kept source indices in node pre-order
    std::vector<KeptInstance> where(n);
    std::vector<bool> kept(n, false);
    struct Item {
        const aiNode *node;
        std::uint32_t parent; // source index of the nearest kept ancestor
    };
    std::vector<Item> stack;
    std::vector<std::uint32_t> clips; // kept animation clips whose Keyframes and Poses have no nodes
    for (unsigned i = scene.mRootNode->mNumChildren; i-- > 0;)
        stack.push_back({scene.mRootNode->mChildren[i], kNoInstance});
    while (!stack.empty()) {
        const Item item = stack.back();
        stack.pop_back();
        std::uint32_t self = item.parent;
        const auto found = byName.find(std::string_view(item.node->mName.C_Str(), item.node->mName.length));
        if (found != byName.end() && !kept[found->second]) {
            self = found->second;
            kept[self] = true;
            order.push_back(self);
            where[self] = WhereItBelongs(*item.node, item.parent, *scene.mRootNode, byName);
            if (item.node->mMetaData != nullptr && GetMetadataInt(item.node->mMetaData, kRbxCollapsed))
                clips.push_back(self);
        }
        for (unsigned i = item.node->mNumChildren; i-- > 0;) stack.push_back({item.node->mChildren[i], self});
    }
    if (order.empty()) Fail("no node of the scene names an instance of its rbx.source document");
    KeepCollapsed(source, clips, kept, order, where);
    for (std::uint32_t s : order) // a rig parent whose node is gone: the top level
        if (where[s].parent != kNoInstance && !kept[where[s].parent]) where[s] = {kNoInstance, -1};
    const std::vector<std::vector<std::uint32_t>> kids = KeptChildren(order, where, n);

    // Unchanged: every instance of the source's tree kept, under the same parent, children in the same order.
    bool unchanged = kids[n] == source.roots;
    rbx::ForEachInTreeOrder(source, [&](const rbx::TreeStep &step) {
        unchanged = unchanged && kept[step.index] && kids[step.index] == source.instances[step.index].children;
    });
    if (unchanged) {
        out = std::move(source);
        return;
    }
    RebuildKept(source, order, kids, out);
}

// The file kept in rbx.source (zstd-compressed; rbx.sourceSize bytes once inflated). False when the scene has
// none; a FormatError when it is malformed.
bool ReadSourceFile(const aiScene &scene, std::vector<std::uint8_t> &out) {
    std::vector<std::uint8_t> packed;
    if (scene.mMetaData == nullptr || !GetMetadataBlob(scene.mMetaData, kRbxSource, packed)) {
        std::string text;
        if (scene.mMetaData != nullptr && GetMetadataText(scene.mMetaData, kRbxSource, text))
            Fail("malformed " + std::string(kRbxSource) + " (not base64)");
        return false;
    }
    const std::optional<std::int64_t> size = GetMetadataInt(scene.mMetaData, kRbxSourceSize);
    if (!size || *size < 0) Fail("scene metadata " + std::string(kRbxSource) + " without " + kRbxSourceSize);
    // The ceiling is the recorded size itself, not a ratio to the packed bytes: a file the importer read
    // compresses as well as it likes (a 100,000-deep Folder chain: 1.7 MB in 264 bytes). The recorded size is
    // bounded in turn by GAMEFMT_RBX_MAX_DECOMPRESSED's default (the importer never reads a bigger file), and the
    // frame must declare exactly that size before anything is allocated.
    const auto declared = static_cast<std::uint64_t>(*size);
    DecompressionLimits limits;
    limits.maxOutput = kMaxSourceBytes;
    limits.maxRatio = std::numeric_limits<std::uint64_t>::max(); // no ratio: bounded by maxOutput alone
    if (declared > kMaxSourceBytes)
        Fail("scene metadata " + std::string(kRbxSourceSize) + " " + std::to_string(declared) +
             " is over the limit of " + std::to_string(kMaxSourceBytes) + " bytes");
    out = DecompressZstdFrame(packed.data(), packed.size(), declared, rbx::kFormatName, 0, limits);
    return true;
}

// Pass 1 of a scene without rbx.source: one instance per node with rbx.ClassName (nodes without it, such as
// generated geometry, are skipped and their children attach to the nearest instance above). Collects each
// instance's metadata and the referent table for pass 2.
void InstancesFromNodes(const aiScene &scene, Document &doc,
                        std::vector<std::pair<std::uint32_t, const aiMetadata *>> &bags,
                        std::unordered_map<std::string, std::uint32_t> &referents) {
    struct Item {
        const aiNode *node;
        std::uint32_t parent;
    };
    std::vector<Item> stack{{scene.mRootNode, kNoInstance}};
    std::unordered_map<std::string, std::uint32_t> byNodeName;
    while (!stack.empty()) {
        const Item item = stack.back();
        stack.pop_back();
        std::uint32_t self = item.parent;
        const aiMetadata *md = item.node->mMetaData;
        const aiString *cls = md != nullptr ? GetString(*md, kRbxClassName) : nullptr;
        if (cls != nullptr) {
            const aiString *name = GetString(*md, kRbxName);
            self = doc.addInstance(cls->C_Str(), name != nullptr ? name->C_Str() : item.node->mName.C_Str());
            byNodeName.emplace(item.node->mName.C_Str(), self);
            // A part node rigs moved under a joint (rigs.hpp) goes back under its instance parent.
            std::uint32_t parent = item.parent;
            std::string rigParent;
            if (GetMetadataText(md, kRbxRigParent, rigParent)) {
                const auto found = byNodeName.find(rigParent);
                if (rigParent == scene.mRootNode->mName.C_Str())
                    parent = kNoInstance;
                else if (found != byNodeName.end())
                    parent = found->second;
            }
            doc.setParent(self, parent);
            Instance &inst = doc.instances[self];
            if (const aiString *ref = GetString(*md, kRbxReferent)) {
                referents.emplace(ref->C_Str(), self);
                // "@<index>" names an instance that had no referent in its file.
                if (ref->length > 0 && ref->C_Str()[0] != '@') inst.referent = ref->C_Str();
            }
            bool service = false;
            if (md->Get(kRbxService, service)) inst.isService = service;
            bags.emplace_back(self, md);
        }
        for (unsigned i = item.node->mNumChildren; i-- > 0;) stack.push_back({item.node->mChildren[i], self});
    }
    if (doc.instances.empty()) Fail("the scene has no node with rbx.ClassName metadata");
}

// Pass 2: the rbx.props.<name> entries of every instance, now that every Ref target exists.
void PropertiesFromNodes(Document &doc, const std::vector<std::pair<std::uint32_t, const aiMetadata *>> &bags,
                         const std::unordered_map<std::string, std::uint32_t> &referents) {
    rbx::ValueParser parser(doc, [&](std::string_view referent) {
        const auto it = referents.find(std::string(referent));
        return it == referents.end() ? kNoInstance : it->second;
    });
    for (const auto &bag : bags) {
        // Named copies: C++17 lambdas cannot capture structured bindings (clang rejects it).
        const auto index = bag.first;
        const auto *props = bag.second;
        if (props == nullptr) continue;
        ForEachMetadata(*props, [&](const MetadataValue &v) {
            const std::string_view prefix(kRbxPropPrefix);
            if (v.key.substr(0, prefix.size()) != prefix) return;
            const std::string_view key = v.key.substr(prefix.size());
            const std::string_view text = v.text;
            if (!v.isText)
                Fail("property '" + std::string(key) + "' of instance '" + doc.instances[index].name +
                     "' is not a string");
            rbx::Property p;
            p.name = doc.names.intern(key);
            try {
                p.value = parser.parse(text);
            } catch (const FormatError &err) {
                Fail("instance '" + doc.instances[index].name + "', property '" + std::string(key) +
                     "': " + err.message());
            }
            doc.instances[index].properties.push_back(std::move(p));
        });
    }
}

// Scene-level entries: META, raw PROPs and chunks, unknown XML top-level elements.
void SceneEntriesFromMetadata(const aiMetadata &md, Document &doc) {
    ForEachMetadata(md, [&](const MetadataValue &v) {
        if (!v.isText) return;
        const std::string_view key = v.key;
        const std::string_view text = v.text;
        if (key.substr(0, 9) == "rbx.meta.") {
            doc.meta.emplace_back(std::string(key.substr(9)), std::string(text));
        } else if (key.substr(0, 8) == "rbx.raw.") {
            std::vector<std::string_view> f;
            std::size_t pos = 0;
            while (true) {
                const std::size_t bar = text.find('|', pos);
                f.push_back(text.substr(pos, bar == std::string_view::npos ? bar : bar - pos));
                if (bar == std::string_view::npos) break;
                pos = bar + 1;
            }
            const std::optional<std::vector<std::uint8_t>> bytes = Base64Decode(f.back());
            if (!bytes || (f.size() != 3 && f.size() != 4)) Fail("malformed " + std::string(key));
            std::uint32_t number = 0;
            if (f.size() == 4) {
                rbx::RawProperty p;
                p.className = std::string(f[0]);
                p.propertyName = std::string(f[1]);
                if (!ParseUInt32(f[2], number) || number > 255) Fail("malformed type id in " + std::string(key));
                p.type = static_cast<std::uint8_t>(number);
                p.body = *bytes;
                doc.rawProperties.push_back(std::move(p));
            } else {
                rbx::RawChunk c;
                c.name = std::string(f[0]);
                if (!ParseUInt32(f[1], number)) Fail("malformed chunk position in " + std::string(key));
                c.position = number;
                c.data = *bytes;
                doc.unknownChunks.push_back(std::move(c));
            }
        } else if (key.substr(0, 11) == "rbx.xmlraw.") {
            const std::optional<std::vector<std::uint8_t>> bytes = Base64Decode(text);
            if (!bytes) Fail("malformed " + std::string(key));
            doc.xmlUnknownTopLevel.emplace_back(bytes->begin(), bytes->end());
        }
    });
}

} // namespace

void DocumentFromScene(const aiScene &scene, Document &doc) {
    if (scene.mRootNode == nullptr) Fail("the scene has no root node");
    std::vector<std::uint8_t> sourceBytes;
    if (ReadSourceFile(scene, sourceBytes)) {
        rbx::ReadOptions options;
        options.maxInstances = std::numeric_limits<std::uint32_t>::max(); // it was imported already
        Document source = rbx::ReadDocument(sourceBytes.data(), sourceBytes.size(), options);
        const rbx::Encoding read = source.sourceEncoding;
        ReconcileWithNodes(scene, source, doc);
        doc.sourceEncoding = read;
        if (const aiString *f = GetString(*scene.mMetaData, kRbxFormat))
            doc.sourceEncoding = std::string(f->C_Str()) == "xml" ? rbx::Encoding::Xml : rbx::Encoding::Binary;
        return;
    }
    if (scene.mMetaData != nullptr) {
        if (const aiString *f = GetString(*scene.mMetaData, kRbxFormat))
            doc.sourceEncoding = std::string(f->C_Str()) == "xml" ? rbx::Encoding::Xml : rbx::Encoding::Binary;
    }

    std::vector<std::pair<std::uint32_t, const aiMetadata *>> bags;
    std::unordered_map<std::string, std::uint32_t> referents;
    InstancesFromNodes(scene, doc, bags, referents);
    PropertiesFromNodes(doc, bags, referents);
    if (scene.mMetaData != nullptr) SceneEntriesFromMetadata(*scene.mMetaData, doc);
}

bool ReadRobloxSource(const aiScene &scene, std::vector<std::uint8_t> &out) {
    return ReadSourceFile(scene, out);
}

std::vector<std::string> RobloxNodeNames(const Document &doc) {
    UniqueNames names;
    (void)names.make("DataModel");
    return InstanceNodeNames(doc, names);
}

} // namespace gamefmt::glue

namespace gamefmt {

bool IsRobloxModelScene(const aiScene &scene) {
    return glue::IsRobloxModelScene(scene);
}

void RobloxDocumentFromScene(const aiScene &scene, rbx::Document &out) {
    glue::DocumentFromScene(scene, out);
}

} // namespace gamefmt
