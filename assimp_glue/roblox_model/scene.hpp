// Roblox model/place document ⇄ aiScene (roblox-model.md §5.1, §6): one aiNode per instance under a
// "DataModel" root, the property bag in node metadata (rbx.props.<name> = "<Type>:<text>"), CFrames as node
// transforms, and the way back from that metadata to a document for the rbxm/rbxmx exporters.
//
// This header deliberately does not include the document model (dom.hpp), so the importer can include
// it beside detect.hpp.
#pragma once

#include "assimp_glue/common/import_guard.hpp"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>
#include <string_view>

struct aiScene;
struct aiMetadata;

namespace gamefmt::rbx {
struct Document;
struct ReadOptions;
} // namespace gamefmt::rbx

namespace gamefmt::glue {

// Metadata keys (DESIGN.md: instance nodes carry rbx.ClassName, rbx.Name, rbx.Referent, rbx.props).
//
// The property bag is flat: one entry "rbx.props.<serialized name>" per property on the node's own metadata,
// not a nested AI_AIMETADATA block as roblox-model.md §5.1 suggests, because Assimp 5.2.5's
// SceneCombiner::Copy does not know nested metadata (ai_assert(false) in CopyScene): every
// Exporter::Export of such a scene (glb2 included) would abort.
inline constexpr const char *kRbxClassName = "rbx.ClassName";
inline constexpr const char *kRbxName = "rbx.Name";
inline constexpr const char *kRbxReferent = "rbx.Referent";
inline constexpr const char *kRbxPropPrefix = "rbx.props.";
inline constexpr const char *kRbxService = "rbx.service"; // bool, only on services (binary INST format 1)
inline constexpr const char *kRbxFormat = "rbx.format";   // scene: "binary" | "xml"
// Scene: the file the instances came from, base64, split into "rbx.source#0" ... parts (GetSplitText joins
// them). The instances travel here, not in per-node metadata: an aiString is 1 KB however short its text, so
// a 300,000-instance place with a metadata entry per property would need gigabytes (docs/security.md).
inline constexpr const char *kRbxSource = "rbx.source";

// Values longer than this many bytes are split into "<name>#0" ... entries (aiString holds 1023).
inline constexpr std::size_t kRbxMaxMetadataText = 1000;

// SourceAsset_Format of a model and of a place (a document with a Workspace at its top).
inline constexpr const char *kRbxModelFormat = "Roblox model";
inline constexpr const char *kRbxPlaceFormat = "Roblox place";

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
};

// Fills `scene` (fresh, from BaseImporter) from `document`: one node per instance (names unique, CFrames as
// transforms), the instances in scene metadata rbx.source, no meshes and no materials,
// AI_SCENE_FLAGS_INCOMPLETE. Document warnings go to Assimp's logger.
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

// A metadata text that may have been split: `key`'s own value, or the concatenated "<key>#0..k-1" parts
// when the value is "<prefix>#<k>" (prefix: "<Type>:" for properties, "" for scene-level raw entries).
// False when the key is absent.
bool GetSplitText(const aiMetadata &md, const std::string &key, std::string &out);

// Calls fn(key, text) for every string entry of `md` in order, split values joined and their part entries
// skipped (non-string entries are passed with an empty text).
void ForEachSplitText(const aiMetadata &md, const std::function<void(std::string_view, std::string_view)> &fn);

} // namespace gamefmt::glue
