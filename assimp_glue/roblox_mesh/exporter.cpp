// The Roblox mesh exporter (docs/formats/roblox-mesh.md §14): converts an aiScene into the builder's input, lets the
// codec build and write the file, and writes the bytes through the IOSystem Assimp hands us.
#include "assimp_glue/roblox_mesh/exporter.hpp"

#include "assimp_glue/common/export_util.hpp"
#include "assimp_glue/common/io_util.hpp"
#include "assimp_glue/common/roblox_mesh_scene.hpp"
#include "assimp_glue/common/scene_util.hpp"
#include "common/ascii.hpp"
#include "common/error.hpp"
#include "common/math.hpp"
#include "common/text_number.hpp"
#include "gamefmt/config.hpp"
#include "importers/roblox_mesh/mesh_writer.hpp"

#include <assimp/DefaultLogger.hpp>
#include <assimp/Exceptional.h>
#include <assimp/IOStream.hpp>
#include <assimp/IOSystem.hpp>
#include <assimp/commonMetaData.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>

#include <algorithm>
#include <cctype>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <map>
#include <set>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace gamefmt::glue {
namespace {

using rbxmesh::kFormatName;
using Warnings = WarningSink;

[[noreturn]] void Fail(const std::string &problem) {
    throw FormatError(kFormatName, problem);
}

} // namespace

namespace {

std::string SceneString(const aiScene &scene, const char *key) {
    if (scene.mMetaData == nullptr) return {};
    aiString value;
    if (!scene.mMetaData->Get(key, value)) return {};
    return value.C_Str();
}

bool SceneInt(const aiScene &scene, const char *key, std::int32_t &value) {
    return scene.mMetaData != nullptr && scene.mMetaData->Get(key, value);
}

bool IsRobloxMeshSource(const aiScene &scene) {
    return SceneString(scene, AI_METADATA_SOURCE_FORMAT) == rbxkeys::kSourceFormatValue;
}

// The version a round trip keeps: the source's, when gamefmt writes it (not the text versions 1.xx).
std::string SourceVersion(const aiScene &scene) {
    if (!IsRobloxMeshSource(scene)) return {};
    const std::string version = SceneString(scene, AI_METADATA_SOURCE_FORMAT_VERSION);
    if (version == "3.01") return version; // not offered as an option, but written back as it came
    for (const char *writable : rbxmesh::kWritableVersions)
        if (version == writable) return version;
    return {};
}

} // namespace

RobloxMeshExportSettings ResolveRobloxMeshExportSettings(const aiScene &scene, const std::string &idVersion,
                                                         const Assimp::ExportProperties *properties) {
    RobloxMeshExportSettings settings;
    const Assimp::ExportProperties empty;
    const Assimp::ExportProperties &props = properties != nullptr ? *properties : empty;

    std::string text;
    if (!idVersion.empty()) {
        settings.version = idVersion;
    } else if (ReadExportText(props, GAMEFMT_RBXMESH_VERSION, text, "%.2f")) {
        const std::optional<std::string> version = rbxmesh::NormaliseRobloxMeshVersion(text);
        if (!version)
            Fail(std::string("option ") + GAMEFMT_RBXMESH_VERSION +
                 " must be auto, 2.00, 3.00, 4.00, 4.01, 5.00, "
                 "6.00 or 7.00, not '" +
                 text + "'");
        settings.version = *version;
    } else if (const std::string source = SourceVersion(scene); !source.empty()) {
        settings.version = source;
        settings.versionFromSource = true;
    }

    if (const std::optional<bool> draco = ReadExportBool(props, GAMEFMT_RBXMESH_DRACO, kFormatName)) {
        settings.draco = *draco;
    } else if (settings.versionFromSource) {
        // A round trip keeps a raw COREMESH (a real 7.00 file has one).
        std::int32_t coremesh = 0;
        if (SceneInt(scene, rbxkeys::kCoremeshVersion, coremesh) && coremesh == 1) settings.draco = false;
    }

    if (const std::optional<bool> generate = ReadExportBool(props, GAMEFMT_RBXMESH_GENERATE_LODS, kFormatName)) {
        settings.generateLods = *generate;
    } else if (IsRobloxMeshSource(scene)) {
        // A Roblox mesh whose file had one level keeps one level; its LOD structure is the file's.
        std::int32_t levels = 0;
        if (SceneInt(scene, rbxkeys::kLodLevels, levels) && levels <= 1) settings.generateLods = false;
    }

    if (ReadExportText(props, GAMEFMT_RBXMESH_LOD_RATIOS, text)) {
        const std::optional<std::vector<float>> ratios = ParseLodRatios(text);
        if (!ratios)
            Fail(std::string("option ") + GAMEFMT_RBXMESH_LOD_RATIOS +
                 " must be comma-separated fractions between 0 and 1 (\"0.5,0.25\"), not '" + text + "'");
        settings.lodRatios = *ratios;
    }
    return settings;
}

namespace {

// On a round trip to the source's own version, the header fields the scene kept come back (§14.4.5: keep
// the original bytes), as long as the LOD structure is still the file's.
void RestoreSourceFields(rbxmesh::RobloxMesh &mesh, const aiScene &scene, std::size_t sceneLevels) {
    if (!IsRobloxMeshSource(scene) || SourceVersion(scene) != mesh.version) return;
    std::int32_t value = 0;
    const std::size_t writtenLevels = mesh.lodOffsets.size() >= 2 ? mesh.lodOffsets.size() - 1 : 1;
    std::int32_t fileLevels = 0;
    const bool sameLevels = SceneInt(scene, rbxkeys::kLodLevels, fileLevels) && fileLevels >= 1 &&
                            std::size_t(fileLevels) == writtenLevels && sceneLevels == writtenLevels;
    if (sameLevels) {
        if (SceneInt(scene, rbxkeys::kLodType, value) && value >= 0 && value <= 0xFFFF)
            mesh.lodType = static_cast<std::uint16_t>(value);
        if (SceneInt(scene, rbxkeys::kNumHighQualityLods, value) && value >= 0 && value <= 0xFF)
            mesh.numHighQualityLODs = static_cast<std::uint8_t>(value);
    }
    if (SceneInt(scene, rbxkeys::kV4Unused, value) && value >= 0 && value <= 0xFF)
        mesh.v4Unused = static_cast<std::uint8_t>(value);
    // 36-byte vertices (no colour) only when every vertex is still white: nothing is lost.
    if ((mesh.version == "2.00" || mesh.version == "3.00" || mesh.version == "3.01") &&
        SceneInt(scene, rbxkeys::kVertexSize, value) && value == 36) {
        const bool white = std::all_of(mesh.vertices.begin(), mesh.vertices.end(), [](const rbxmesh::Vertex &v) {
            return v.color == std::array<std::uint8_t, 4>{255, 255, 255, 255};
        });
        if (white) mesh.vertexSize = 36;
    }
}

} // namespace

std::vector<std::uint8_t> ExportRobloxMeshToBytes(const aiScene &scene, const std::string &idVersion,
                                                  const Assimp::ExportProperties *properties) {
    const RobloxMeshExportSettings settings = ResolveRobloxMeshExportSettings(scene, idVersion, properties);
    RobloxMeshSceneInput extracted = ExtractRobloxMeshInput(scene);
    Warnings warnings(extracted.warnings, "Roblox mesh export: ");
    // The builder drops what the version cannot hold (skinning before 4.00, levels in 2.00, FACS whose face
    // bones are not all exported bones, HSRAVIS before 6.00) and says so in mesh.warnings.
    rbxmesh::BuildOptions options;
    options.version = settings.version;
    options.generateLods = settings.generateLods;
    options.lodRatios = settings.lodRatios;
    rbxmesh::RobloxMesh mesh = rbxmesh::BuildRobloxMesh(extracted.input, options);
    for (const std::string &warning : mesh.warnings) warnings.add(warning);
    RestoreSourceFields(mesh, scene, extracted.sceneLevels);

    rbxmesh::WriteOptions write;
    write.draco = settings.draco;
    return rbxmesh::WriteRobloxMesh(mesh, write);
}

namespace {

void ExportWithVersion(const char *path, Assimp::IOSystem *io, const aiScene *scene,
                       const Assimp::ExportProperties *properties, const char *idVersion) {
    RunExport("Roblox mesh", kFormatName, scene, io, [&] {
        return ExportedFiles{{path != nullptr ? path : "", ExportRobloxMeshToBytes(*scene, idVersion, properties)}};
    });
}

// One function per exporter id: Assimp's entry holds a plain function pointer.
template <int Major>
void ExportVersion(const char *p, Assimp::IOSystem *io, const aiScene *s, const Assimp::ExportProperties *props) {
    static const std::string version = std::to_string(Major) + ".00";
    ExportWithVersion(p, io, s, props, Major == 0 ? "" : version.c_str());
}

constexpr unsigned kEnforcedSteps = aiProcess_Triangulate | aiProcess_GenSmoothNormals | aiProcess_CalcTangentSpace;

} // namespace

const std::vector<Assimp::Exporter::ExportFormatEntry> &RobloxMeshExportEntries() {
    using Entry = Assimp::Exporter::ExportFormatEntry;
    static const std::vector<Entry> entries = {
        Entry("rbxmesh",
              "Roblox mesh (.mesh; version auto: 2.00 static, 3.00 with LODs, 4.00 skinned, 5.00 with FACS, or "
              "GAMEFMT_RBXMESH_VERSION / the source version)",
              "mesh", &ExportVersion<0>, kEnforcedSteps),
        Entry("rbxmesh2", "Roblox mesh version 2.00 (.mesh; static, one level)", "mesh", &ExportVersion<2>,
              kEnforcedSteps),
        Entry("rbxmesh3", "Roblox mesh version 3.00 (.mesh; LODs)", "mesh", &ExportVersion<3>, kEnforcedSteps),
        Entry("rbxmesh4", "Roblox mesh version 4.00 (.mesh; LODs, skinning)", "mesh", &ExportVersion<4>,
              kEnforcedSteps),
        Entry("rbxmesh5", "Roblox mesh version 5.00 (.mesh; LODs, skinning, FACS)", "mesh", &ExportVersion<5>,
              kEnforcedSteps),
        Entry("rbxmesh6", "Roblox mesh version 6.00 (.mesh; chunked, raw geometry)", "mesh", &ExportVersion<6>,
              kEnforcedSteps),
        Entry("rbxmesh7",
              "Roblox mesh version 7.00 (.mesh; chunked, Draco geometry unless GAMEFMT_RBXMESH_DRACO "
              "is false)",
              "mesh", &ExportVersion<7>, kEnforcedSteps),
    };
    return entries;
}

} // namespace gamefmt::glue
