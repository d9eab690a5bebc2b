// Roblox model/place document ⇄ aiScene (docs/formats/roblox-model.md §5.1, §6): one aiNode per instance under a
// "DataModel" root, the property bag in node metadata (rbx.props.<name> = "<Type>:<text>"), CFrames as node
// transforms, and the way back from that metadata to a document for the rbxm/rbxmx exporters.
//
// This header deliberately does not include the document model (dom.hpp), so the importer can include
// it beside detect.hpp.
#pragma once

#include "assimp_glue/common/import_guard.hpp"
#include "assimp_glue/roblox_model/geometry.hpp"
#include "assimp_glue/roblox_model/rigs.hpp"
#include "gamefmt/roblox_model.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

struct aiScene;
struct aiMetadata;

namespace gamefmt::rbx {
struct Document;
struct ReadOptions;
} // namespace gamefmt::rbx

namespace gamefmt::glue {

// Metadata keys: include/gamefmt/roblox_model.hpp. The property bag is flat (one "rbx.props.<name>" entry per
// property, docs/formats/roblox-model.md §5.1), never a nested AI_AIMETADATA block: Assimp 5.2.5's
// SceneCombiner::Copy does not copy nested metadata, and every Exporter::Export copies the scene.
using gamefmt::kRbxClassName;
using gamefmt::kRbxFormat;
using gamefmt::kRbxModelFormat;
using gamefmt::kRbxName;
using gamefmt::kRbxPlaceFormat;
using gamefmt::kRbxPropPrefix;
using gamefmt::kRbxReferent;
using gamefmt::kRbxService;
using gamefmt::kRbxSource;
using gamefmt::kRbxSourceSize;

struct RobloxSceneOptions {
    // An instance more than this many levels below the root (top-level instances are level 1) is a
    // FormatError naming its referent and depth (GAMEFMT_MAX_NODE_DEPTH, docs/security.md).
    unsigned maxDepth = kDefaultMaxNodeDepth;
    // GAMEFMT_RBX_NODE_PROPERTIES: also give every node its property bag (rbx.ClassName, rbx.Name,
    // rbx.Referent, rbx.service, rbx.props.<name>), e.g. for glTF extras. About 2 KB per property.
    bool nodeProperties = false;
    // The file the document was read from, kept as rbx.source; null: the document's uncompressed binary form.
    const std::uint8_t *source = nullptr;
    std::size_t sourceSize = 0;
    // Parts, decals, lights and the camera (geometry.hpp); `geometry.enabled = false` gives nodes alone.
    RbxGeometryOptions geometry;
    // Motor6D/Bone rigs rebuilt as joint nodes, KeyframeSequences as animations (rigs.hpp).
    RbxRigOptions rig;
};

// Fills `scene` (fresh, from BaseImporter) from `document`: one node per instance (names unique, CFrames as
// transforms), the instances in scene metadata rbx.source, and what the parts show (AddRobloxGeometry);
// AI_SCENE_FLAGS_INCOMPLETE when that is no mesh at all. Document warnings go to Assimp's logger.
void BuildRobloxModelScene(const rbx::Document &document, aiScene *scene, const RobloxSceneOptions &options = {});

// ReadDocument (binary or XML) with `readOptions` (decompression ceiling, instance cap), then
// BuildRobloxModelScene with the file as rbx.source. Throws FormatError.
void ImportRobloxModel(const std::uint8_t *data, std::size_t size, const rbx::ReadOptions &readOptions,
                       const RobloxSceneOptions &sceneOptions, aiScene *scene);

// True when the scene carries rbx.source or some node carries rbx.ClassName (a scene this importer made).
bool IsRobloxModelScene(const aiScene &scene);

// The document for the rbxm/rbxmx exporters. With rbx.source: that file re-read, then brought in line with
// the node tree (instances found by their node names; nodes removed drop their instances, reparented nodes
// move them; renamed nodes count as removed). Without it (a scene built by hand): from per-node metadata
// (tree, rbx.props, rbx.meta.*, rbx.raw.*). Node transforms and meshes are ignored. Throws FormatError
// ("Roblox model") on malformed metadata.
void DocumentFromScene(const aiScene &scene, rbx::Document &out);

// The file a scene keeps in rbx.source, inflated; false when it has none (FormatError when malformed).
bool ReadRobloxSource(const aiScene &scene, std::vector<std::uint8_t> &out);
// The node name BuildRobloxModelScene gives each instance of `doc` ("" for those not in the tree).
std::vector<std::string> RobloxNodeNames(const rbx::Document &doc);

// `gamefmt validate --strict` (issue #25): each generated part of a scene this importer made (shapes and
// placeholder boxes; not mesh assets, unions or decals), checked against its own instance re-read from
// rbx.source: its node shows one mesh whose bounds are its shape's at its size, in a material of its look
// (Material, colour, opacity). One line per part that does not, naming it; empty for other scenes. Meant for the
// raw import: post-processing that moves vertices (pretransform, scaling) makes every part differ.
std::vector<std::string> CheckRobloxParts(const aiScene &scene);

} // namespace gamefmt::glue
