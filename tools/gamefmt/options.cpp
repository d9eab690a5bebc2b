// The shared flag tables (post-processing, presets, properties, logging) and the parser that applies them.
#include "options.hpp"

#include "gamefmt/config.hpp"
#include "gamefmt/gamefmt.hpp"

#include <assimp/Exporter.hpp>
#include <assimp/Importer.hpp>
#include <assimp/postprocess.h>

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdio>
#include <limits>
#include <ostream>
#include <thread>

namespace gamefmt::cli {
namespace {

struct PostProcessFlag {
    const char *shortName;
    const char *longName; // with the leading "--"
    unsigned steps;
    const char *help;
};

// Upstream's spellings (assimp tools/assimp_cmd/Main.cpp and the 5.2.5 binary's option strings).
const PostProcessFlag kStepFlags[] = {
    {"-ptv", "--pretransform-vertices", aiProcess_PreTransformVertices, "bake node transforms into the meshes"},
    {"-gsn", "--gen-smooth-normals", aiProcess_GenSmoothNormals, "generate smooth normals where missing"},
    {"-gn", "--gen-normals", aiProcess_GenNormals, "generate flat normals where missing"},
    {"-cts", "--calc-tangent-space", aiProcess_CalcTangentSpace, "compute tangents and bitangents"},
    {"-jiv", "--join-identical-vertices", aiProcess_JoinIdenticalVertices, "index the meshes, merging equal vertices"},
    {"-rrm", "--remove-redundant-materials", aiProcess_RemoveRedundantMaterials, "drop unused and duplicate materials"},
    {"-fd", "--find-degenerates", aiProcess_FindDegenerates, "turn degenerate faces into lines or points"},
    {"-slm", "--split-large-meshes", aiProcess_SplitLargeMeshes, "split meshes over the vertex/face limits"},
    {"-lbw", "--limit-bone-weights", aiProcess_LimitBoneWeights, "keep at most 4 bone weights per vertex"},
    {"-vds", "--validate-data-structure", aiProcess_ValidateDataStructure, "validate the scene"},
    {"-icl", "--improve-cache-locality", aiProcess_ImproveCacheLocality, "reorder triangles for the vertex cache"},
    {"-sbpt", "--sort-by-ptype", aiProcess_SortByPType, "split meshes by primitive type"},
    {"-lh", "--left-handed", aiProcess_ConvertToLeftHanded, "convert to a left-handed, UV-flipped, CW scene"},
    {"-fuv", "--flip-uv", aiProcess_FlipUVs, "flip texture coordinates vertically"},
    {"-fwo", "--flip-winding-order", aiProcess_FlipWindingOrder, "make faces clockwise"},
    {"-tuv", "--transform-uv-coords", aiProcess_TransformUVCoords, "apply UV transforms to the coordinates"},
    {"-guv", "--gen-uvcoords", aiProcess_GenUVCoords, "turn spherical/box mappings into UV channels"},
    {"-fid", "--find-invalid-data", aiProcess_FindInvalidData, "remove invalid normals, UVs and animation keys"},
    {"-fixn", "--fix-normals", aiProcess_FixInfacingNormals, "flip normals that point inwards"},
    {"-tri", "--triangulate", aiProcess_Triangulate, "split polygons into triangles"},
    {"-fi", "--find-instances", aiProcess_FindInstances, "share duplicate meshes"},
    {"-og", "--optimize-graph", aiProcess_OptimizeGraph, "collapse nodes that carry no information"},
    {"-om", "--optimize-meshes", aiProcess_OptimizeMeshes, "merge small meshes"},
    {"-db", "--debone", aiProcess_Debone, "remove bones that deform nothing"},
    {"-sbc", "--split-by-bone-count", aiProcess_SplitByBoneCount, "split meshes with too many bones"},
    {"-gs", "--global-scale", aiProcess_GlobalScale, "apply AI_CONFIG_GLOBAL_SCALE_FACTOR_KEY"},
    {"-dn", "--drop-normals", aiProcess_DropNormals, "remove normals"},
    {"-embtex", "--embed-textures", aiProcess_EmbedTextures, "embed referenced texture files"},
};

struct Preset {
    const char *name; // -c<name>, --config=<name>
    unsigned steps;
    const char *preset;
};

const Preset kPresets[] = {
    {"fast", aiProcessPreset_TargetRealtime_Fast, "TargetRealtime_Fast"},
    {"default", aiProcessPreset_TargetRealtime_Quality, "TargetRealtime_Quality"},
    {"full", aiProcessPreset_TargetRealtime_MaxQuality, "TargetRealtime_MaxQuality"},
};

// Named flags for format options: each is shorthand for one --option. Add one line per option, e.g.
//   {"--all-lods", GAMEFMT_RBXMESH_IMPORT_ALL_LODS, "1", "import every LOD (Roblox mesh)"},
// A null value makes the flag take one: "--lod=2" or "--lod 2".
struct NamedOption {
    const char *flag;
    const char *property;
    const char *value;
    const char *help;
};

const std::vector<NamedOption> &NamedOptions() {
    static const std::vector<NamedOption> table = {
        {"--max-node-depth", GAMEFMT_MAX_NODE_DEPTH, nullptr, "deepest node tree to import (default 512 levels)"},
        {"--all-lods", GAMEFMT_RBXMESH_IMPORT_ALL_LODS, "true", "import every LOD level (Roblox mesh)"},
        {"--no-facs-bake", GAMEFMT_RBXMESH_BAKE_FACS, "false", "keep FACS raw, bake no morph targets (Roblox mesh)"},
        {"--mesh-version", GAMEFMT_RBXMESH_VERSION, nullptr, "Roblox mesh version to write: auto, 2.00 ... 7.00"},
        {"--no-draco", GAMEFMT_RBXMESH_DRACO, "false", "write Roblox mesh 7.00 geometry raw, not Draco"},
        {"--no-lods", GAMEFMT_RBXMESH_GENERATE_LODS, "false", "generate no LOD levels (Roblox mesh export)"},
        {"--lod-ratios", GAMEFMT_RBXMESH_LOD_RATIOS, nullptr, "LOD face fractions, e.g. 0.5,0.25 (Roblox mesh)"},
        {"--rbx-compression", GAMEFMT_RBX_EXPORT_COMPRESSION, nullptr,
         "chunk compression of written .rbxm/.rbxl files: lz4, zstd or none"},
        {"--rbx-mesh-version", GAMEFMT_RBX_MESH_VERSION, nullptr,
         "version of the sidecar .mesh files written with a generic scene's .rbxm (default 4.00)"},
        {"--rbx-uri-prefix", GAMEFMT_RBX_MESH_URI_PREFIX, nullptr,
         "MeshId/TextureID prefix of those sidecars (default rbxasset://)"},
        {"--rbx-max-instances", GAMEFMT_RBX_MAX_INSTANCES, nullptr,
         "most instances a Roblox file may hold (default 1000000)"},
        {"--rbx-node-properties", GAMEFMT_RBX_NODE_PROPERTIES, "true",
         "give every Roblox instance node its properties as metadata (~2 KB each)"},
        {"--rbx-no-geometry", GAMEFMT_RBX_GEOMETRY, "false", "Roblox: the instance tree only, no meshes or lights"},
        {"--rbx-scope", GAMEFMT_RBX_GEOMETRY_SCOPE, nullptr,
         "Roblox parts that get geometry: workspace, all or auto (workspace for places)"},
        {"--rbx-skip-invisible", GAMEFMT_RBX_SKIP_INVISIBLE, "true", "no mesh for Roblox parts with Transparency 1"},
        {"--rbx-sun", GAMEFMT_RBX_SUN, "true", "a directional sun light from the Roblox place's Lighting"},
        {"--rbx-no-clothing", GAMEFMT_RBX_CLOTHING, "false",
         "Roblox characters: no composited classic clothing (body parts keep their own look)"},
        {"--rbx-clothing-scale", GAMEFMT_RBX_CLOTHING_SCALE, nullptr,
         "Roblox composited clothing textures at N x Roblox's size, 1 to 8 (default 1)"},
        {"--rbx-no-terrain", GAMEFMT_RBX_TERRAIN, "false", "Roblox: leave the Terrain voxels unmeshed"},
        {"--rbx-no-water", GAMEFMT_RBX_TERRAIN_WATER, "false", "Roblox: no terrain water mesh"},
        {"--rbx-terrain-stride", GAMEFMT_RBX_TERRAIN_STRIDE, nullptr,
         "Roblox terrain cells of N voxels per axis: 1 (default), 2 or 4 (previews)"},
        {"--rbx-terrain-error", GAMEFMT_RBX_TERRAIN_ERROR, nullptr,
         "simplify Roblox terrain to this error in studs (default 0.5; 0 = full surface)"},
        {"--rbx-terrain-threads", GAMEFMT_RBX_TERRAIN_THREADS, nullptr,
         "threads meshing Roblox terrain (default 0 = all cores; 1 = one)"},
        {"--rbx-segments", GAMEFMT_RBX_SEGMENTS, nullptr, "segments around Roblox cylinders and spheres (default 24)"},
        {"--rbx-no-rigs", GAMEFMT_RBX_RIGS, "false", "Roblox: keep the instance tree, no joint nodes or animations"},
        {"--rbx-no-animations", GAMEFMT_RBX_ANIMATIONS, "false", "Roblox: no animations from KeyframeSequences"},
        {"--rbx-animation-fps", GAMEFMT_RBX_ANIMATION_FPS, nullptr,
         "keys per second for baked Roblox easing (Cubic, Bounce, Elastic; default 60)"},
        {"--rbx-animation-only", GAMEFMT_RBX_ANIMATION_ONLY, "true",
         "write the animations as Roblox KeyframeSequences (.rbxm/.rbxmx), not the scene"},
        {"--rbx-animation-rig", GAMEFMT_RBX_ANIMATION_RIG, nullptr,
         "the Roblox file holding the rig those KeyframeSequences are for (default: the scene's own)"},
        {"--asset-dir", GAMEFMT_RBX_ASSET_DIR, nullptr,
         "folder of Roblox assets: downloaded meshes and images by id, or a Studio install; repeat for more"},
        {"--rbx-asset-dir", GAMEFMT_RBX_ASSET_DIR, nullptr, "the same as --asset-dir"},
        {"--sl-lod", GAMEFMT_SLMESH_LOD, nullptr, "Second Life level to import: high, medium, low, lowest or all"},
        {"--sl-physics", GAMEFMT_SLMESH_PHYSICS, "true", "import Second Life physics meshes and convex hulls"},
        {"--sl-zup", GAMEFMT_SLMESH_YUP, "false", "keep Second Life's Z-up frame (no root rotation)"},
        {"--sl-full-skeleton", GAMEFMT_SLMESH_SKELETON, "true", "import all 159 avatar joints for rigged assets"},
        {"--sl-submodels", GAMEFMT_SLMESH_SUBMODELS, "true", "write > 8 materials as submodel files (.llmesh)"},
        {"--sl-material-list", GAMEFMT_SLMESH_MATERIAL_LIST, "true", "write material names into the .llmesh header"},
        {"--sl-no-lods", GAMEFMT_SLMESH_GENERATE_LODS, "false", "repeat the high level instead of generating LODs"},
        {"--sl-lod-ratios", GAMEFMT_SLMESH_LOD_RATIOS, nullptr,
         "triangle fractions for medium,low,lowest, e.g. 0.5,0.25,0.125 (.llmesh)"},
        {"--rg-assets", GAMEFMT_RG_ASSET_DIR, nullptr, "Redguard folder with TEXBSI.### banks and .COL palettes"},
        {"--rg-palette", GAMEFMT_RG_PALETTE, nullptr, "Redguard palette: a .COL path or a stem such as ISLAND"},
        {"--rg-scale", GAMEFMT_RG_SCALE, nullptr, "Redguard units per 256 raw units (default 1; tools use 0.05)"},
        {"--rg-fps", GAMEFMT_RG_FPS, nullptr, "frames per second of Redguard .3dc animation (default 12)"},
        {"--rg-include-frame0", GAMEFMT_RG_INCLUDE_FRAME0, "true", "key the reference pose (frame 0) too (.3dc)"},
        {"--rg-world", GAMEFMT_RG_WORLD, nullptr, "Redguard terrain (.wld) for an .rgm scene, or none"},
        {"--rg-world-index", GAMEFMT_RG_WORLD_INDEX, nullptr,
         "Redguard world (WORLD.INI index) choosing a level's palette and terrain"},
        {"--rg-markers", GAMEFMT_RG_MARKERS, "true", "add the markers of Redguard .rgm scenes as empty nodes"},
        {"--rg-version", GAMEFMT_RG_EXPORT_VERSION, nullptr, "Redguard .3d version to write: v5.0 or v4.0"},
        {"--keep-units", GAMEFMT_GLTF_KEEP_UNITS, "true", "glTF: write the scene's own units, not metres"},
        {"--draco", GAMEFMT_GLTF_DRACO, "true", "glTF: compress meshes with KHR_draco_mesh_compression"},
        {"--meshopt", GAMEFMT_GLTF_MESHOPT, "true", "glTF: compress buffers with EXT_meshopt_compression"},
        {"--max-influences", GAMEFMT_GLTF_MAX_INFLUENCES, nullptr,
         "glTF: bone influences per vertex, 4 or 8 (default 8)"},
        {"--rg-default-texture", GAMEFMT_RG_DEFAULT_TEXTURE, nullptr,
         "Redguard texture for plain materials: tex:BANK/IMAGE or color:INDEX"},
    };
    return table;
}

bool ParsePropertyInto(CommonOptions &common, const std::string &assignment, std::string &error) {
    Property property;
    if (!ParseProperty(assignment, property, error)) return false;
    // Folders are text even when a name looks like a number; each further Roblox asset folder is appended
    // (GAMEFMT_RBX_ASSET_DIR lists them separated by ';').
    if (property.name == GAMEFMT_RBX_ASSET_DIR || property.name == GAMEFMT_RG_ASSET_DIR) {
        property.kind = Property::Kind::String;
        property.text = assignment.substr(assignment.find('=') + 1);
    }
    if (property.name == GAMEFMT_RBX_ASSET_DIR) {
        for (Property &earlier : common.properties) {
            if (earlier.name != property.name) continue;
            earlier.text += ";" + property.text;
            return true;
        }
    }
    common.properties.push_back(std::move(property));
    return true;
}

FlagResult ParsePostProcessFlag(ArgCursor &cursor, CommonOptions &common, std::string &error) {
    for (const PostProcessFlag &flag : kStepFlags) {
        if (cursor.flag(flag.shortName, flag.longName)) {
            common.ppSteps |= flag.steps;
            common.ppGiven = true;
            return FlagResult::Consumed;
        }
    }
    const std::string &arg = cursor.current();
    std::string name;
    if (arg.rfind("--config=", 0) == 0) {
        name = arg.substr(9);
    } else if (arg.size() > 2 && arg.rfind("-c", 0) == 0 && arg[2] != '-') {
        name = arg.substr(2);
    } else {
        return FlagResult::NotMine;
    }
    for (const Preset &preset : kPresets) {
        if (name == preset.name) {
            cursor.advance();
            common.ppSteps |= preset.steps;
            common.ppGiven = true;
            return FlagResult::Consumed;
        }
    }
    error = "unknown preset '" + name + "' (fast, default or full)";
    return FlagResult::Error;
}

FlagResult ParsePropertyFlag(ArgCursor &cursor, CommonOptions &common, std::string &error) {
    std::string value;
    switch (cursor.value(nullptr, "--option", false, value)) {
    case ArgCursor::Match::Yes:
        return ParsePropertyInto(common, value, error) ? FlagResult::Consumed : FlagResult::Error;
    case ArgCursor::Match::MissingValue:
        error = "--option needs NAME=VALUE";
        return FlagResult::Error;
    case ArgCursor::Match::No:
        break;
    }
    for (const NamedOption &option : NamedOptions()) {
        if (option.value != nullptr) {
            if (cursor.flag(nullptr, option.flag))
                return ParsePropertyInto(common, std::string(option.property) + "=" + option.value, error)
                           ? FlagResult::Consumed
                           : FlagResult::Error;
            continue;
        }
        switch (cursor.value(nullptr, option.flag, false, value)) {
        case ArgCursor::Match::Yes:
            return ParsePropertyInto(common, std::string(option.property) + "=" + value, error) ? FlagResult::Consumed
                                                                                                : FlagResult::Error;
        case ArgCursor::Match::MissingValue:
            error = std::string(option.flag) + " needs a value";
            return FlagResult::Error;
        case ArgCursor::Match::No:
            break;
        }
    }
    return FlagResult::NotMine;
}

FlagResult ParseLogFlag(ArgCursor &cursor, CommonOptions &common, std::string &error) {
    if (cursor.flag("-q", "--quiet")) {
        common.quiet = true;
        return FlagResult::Consumed;
    }
    if (cursor.flag("-l", "--show-log")) {
        common.showLog = true;
        return FlagResult::Consumed;
    }
    if (cursor.flag("-v", "--verbose")) {
        common.verbose = true;
        return FlagResult::Consumed;
    }
    std::string value;
    // Upstream spells it "-lo<file>" or "--log-out=<file>"; both take the name attached.
    const std::string &arg = cursor.current();
    if (arg.rfind("--log-out=", 0) == 0) {
        value = arg.substr(10);
    } else if (arg.rfind("-lo", 0) == 0) {
        value = arg.substr(3);
    } else {
        return FlagResult::NotMine;
    }
    if (value.empty()) {
        error = "--log-out needs a file name (--log-out=FILE)";
        return FlagResult::Error;
    }
    cursor.advance();
    common.logFile = value;
    return FlagResult::Consumed;
}

bool IsInteger(const std::string &text) {
    std::size_t i = (text[0] == '-') ? 1 : 0;
    if (i == text.size()) return false;
    for (; i < text.size(); ++i)
        if (text[i] < '0' || text[i] > '9') return false;
    return true;
}

} // namespace

bool ParseProperty(const std::string &assignment, Property &property, std::string &error) {
    const std::size_t eq = assignment.find('=');
    if (eq == std::string::npos || eq == 0) {
        error = "expected NAME=VALUE, got '" + assignment + "'";
        return false;
    }
    property = Property();
    property.name = assignment.substr(0, eq);
    const std::string value = assignment.substr(eq + 1);
    const char *begin = value.data();
    const char *end = begin + value.size();
    if (!value.empty() && IsInteger(value)) {
        long long parsed = 0;
        const auto result = std::from_chars(begin, end, parsed);
        if (result.ec != std::errc() || parsed < std::numeric_limits<int>::min() ||
            parsed > std::numeric_limits<int>::max()) {
            error = "integer value of " + property.name + " is out of range: " + value;
            return false;
        }
        property.kind = Property::Kind::Integer;
        property.integer = static_cast<int>(parsed);
        return true;
    }
    double number = 0.0;
    const auto result = std::from_chars(begin, end, number);
    if (!value.empty() && result.ec == std::errc() && result.ptr == end && std::isfinite(number)) {
        property.kind = Property::Kind::Float;
        property.number = number;
        return true;
    }
    if (value == "true" || value == "false") {
        property.kind = Property::Kind::Bool;
        property.boolean = value == "true";
        return true;
    }
    property.kind = Property::Kind::String;
    property.text = value;
    return true;
}

namespace {

// Importer and ExportProperties share the property setters.
template <typename Target> void SetProperties(const std::vector<Property> &properties, Target &target) {
    for (const Property &p : properties) {
        switch (p.kind) {
        case Property::Kind::Integer:
            target.SetPropertyInteger(p.name.c_str(), p.integer);
            break;
        case Property::Kind::Float:
            target.SetPropertyFloat(p.name.c_str(), static_cast<ai_real>(p.number));
            break;
        case Property::Kind::Bool:
            target.SetPropertyBool(p.name.c_str(), p.boolean);
            break;
        case Property::Kind::String:
            target.SetPropertyString(p.name.c_str(), p.text);
            break;
        }
    }
}

} // namespace

void ApplyProperties(const std::vector<Property> &properties, Assimp::Importer &importer) {
    SetProperties(properties, importer);
}

void ApplyProperties(const std::vector<Property> &properties, Assimp::ExportProperties &exportProperties) {
    SetProperties(properties, exportProperties);
}

void ApplyExportProperties(const std::vector<Property> &properties, const std::string &input,
                           Assimp::ExportProperties &exportProperties) {
    SetProperties(properties, exportProperties);
    // Relative texture paths of the scene are read beside the input file.
    if (!exportProperties.HasPropertyString(GAMEFMT_GLTF_TEXTURE_BASE)) {
        const std::size_t slash = input.find_last_of('/');
        exportProperties.SetPropertyString(GAMEFMT_GLTF_TEXTURE_BASE,
                                           slash == std::string::npos ? "." : input.substr(0, slash));
    }
}

std::unique_ptr<Assimp::Importer> MakeConfiguredImporter(const std::vector<Property> &properties) {
    std::unique_ptr<Assimp::Importer> importer = gamefmt::MakeImporter();
    ApplyProperties(properties, *importer);
    return importer;
}

FlagResult ConsumeValuedFlag(ArgCursor &cursor, const std::vector<ValuedFlag> &flags, std::string &error) {
    std::string value;
    for (const ValuedFlag &flag : flags) {
        switch (cursor.value(flag.shortName, flag.longName, flag.attached, value)) {
        case ArgCursor::Match::Yes:
            if (flag.list != nullptr)
                flag.list->push_back(value);
            else
                *flag.value = value;
            return FlagResult::Consumed;
        case ArgCursor::Match::MissingValue:
            error = std::string(flag.shortName != nullptr ? flag.shortName : flag.longName) + " needs a value";
            return FlagResult::Error;
        case ArgCursor::Match::No:
            break;
        }
    }
    return FlagResult::NotMine;
}

bool ParseVerbArgs(const std::string &verb, const std::vector<std::string> &args, unsigned groups,
                   const VerbFlagParser &verbFlags, CommonOptions &common, std::vector<std::string> &positional,
                   std::ostream &err) {
    ArgCursor cursor(args, 0);
    std::string error;
    while (!cursor.done()) {
        if (!cursor.atFlag()) {
            if (cursor.done()) break; // the argument was a trailing "--"
            positional.push_back(cursor.current());
            cursor.advance();
            continue;
        }
        FlagResult result = FlagResult::NotMine;
        if (verbFlags) result = verbFlags(cursor, error);
        if (result == FlagResult::NotMine && (groups & kPostProcessFlags) != 0)
            result = ParsePostProcessFlag(cursor, common, error);
        if (result == FlagResult::NotMine && (groups & kPropertyFlags) != 0)
            result = ParsePropertyFlag(cursor, common, error);
        if (result == FlagResult::NotMine && (groups & kLogFlags) != 0) result = ParseLogFlag(cursor, common, error);
        if (result == FlagResult::Error) {
            err << "gamefmt " << verb << ": " << error << " (see 'gamefmt help " << verb << "')\n";
            return false;
        }
        if (result == FlagResult::NotMine) {
            err << "gamefmt " << verb << ": unknown flag '" << cursor.current() << "' (see 'gamefmt help " << verb
                << "')\n";
            return false;
        }
    }
    return true;
}

bool IsPostProcessFlag(const std::string &arg) {
    for (const PostProcessFlag &flag : kStepFlags)
        if (arg == flag.shortName || arg == flag.longName) return true;
    for (const Preset &preset : kPresets)
        if (arg == std::string("-c") + preset.name || arg == std::string("--config=") + preset.name) return true;
    return false;
}

void PrintFlagGroupsHelp(std::ostream &out, unsigned groups) {
    char line[160];
    if ((groups & kPostProcessFlags) != 0) {
        out << "\nPost-processing steps (upstream assimp spellings):\n";
        for (const PostProcessFlag &flag : kStepFlags) {
            std::snprintf(line, sizeof line, "  %-8s %-30s %s\n", flag.shortName, flag.longName, flag.help);
            out << line;
        }
        out << "Presets (TargetRealtime_Fast / _Quality / _MaxQuality):\n"
               "  -cfast, -cdefault, -cfull, --config=fast|default|full\n";
    }
    if ((groups & kPropertyFlags) != 0) {
        out << "\nProperties:\n"
               "  --option NAME=VALUE   set an Assimp property on the importer (and the exporter); VALUE is an\n"
               "                        integer, a float, true/false, or else a string. Repeatable.\n";
        for (const NamedOption &option : NamedOptions()) {
            const std::string flag = std::string(option.flag) + (option.value == nullptr ? "=VALUE" : "");
            std::snprintf(line, sizeof line, "  %-21s %s (%s)\n", flag.c_str(), option.help, option.property);
            out << line;
        }
    }
    if ((groups & kLogFlags) != 0) {
        out << "\nLogging (importer warnings go to stderr by default: a count and the first ten):\n"
               "  -q, --quiet           print no warnings\n"
               "  -l, --show-log        print Assimp's log to stderr (every warning, not just ten)\n"
               "  -v, --verbose         print Assimp's verbose log to stderr\n"
               "  --log-out=FILE        write Assimp's log to FILE (also -loFILE)\n";
    }
}

std::string DescribeSteps(unsigned steps) {
    std::string text;
    for (const Preset &preset : kPresets) {
        if (steps == preset.steps) return std::string("preset ") + preset.preset;
    }
    for (const PostProcessFlag &flag : kStepFlags) {
        if ((steps & flag.steps) == flag.steps && flag.steps != 0) {
            if (!text.empty()) text += ' ';
            text += flag.longName + 2;
            steps &= ~flag.steps;
        }
    }
    if (steps != 0) {
        char hex[24];
        std::snprintf(hex, sizeof hex, "0x%x", steps);
        if (!text.empty()) text += ' ';
        text += hex;
    }
    return text.empty() ? "none" : text;
}

std::vector<std::string> NamedFlags() {
    std::vector<std::string> out;
    for (const NamedOption &option : NamedOptions()) out.emplace_back(option.flag);
    return out;
}

std::vector<Property> WithCoreShare(std::vector<Property> properties, std::size_t workers) {
    static const char *const kThreadOptions[] = {GAMEFMT_RBX_TERRAIN_THREADS};
    if (workers <= 1) return properties;
    for (const char *name : kThreadOptions) {
        const bool given =
            std::any_of(properties.begin(), properties.end(), [&](const Property &p) { return p.name == name; });
        if (given) continue;
        Property share;
        share.name = name;
        share.kind = Property::Kind::Integer;
        share.integer = static_cast<int>(std::max<std::size_t>(1, std::thread::hardware_concurrency() / workers));
        properties.push_back(share);
    }
    return properties;
}

} // namespace gamefmt::cli
