// `info` as text, with upstream `assimp info`'s labels first so its users find the same lines.
#include "info_report.hpp"
#include "options.hpp"
#include "scene_stats.hpp"

#include "gamefmt/metadata.hpp"
#include "gamefmt/roblox_model.hpp"
#include "importers/roblox_model/document/dom.hpp"
#include "importers/roblox_model/document/tree_walk.hpp"

#include <assimp/commonMetaData.h>
#include <assimp/material.h>
#include <assimp/scene.h>

#include <algorithm>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <map>
#include <ostream>
#include <vector>

namespace gamefmt::cli {
namespace {

// Deeper nodes are not indented further: the indentation of a long chain would grow quadratically.
constexpr std::uint64_t kIndentLimit = 32;

std::string Shortest(double value) {
    char buffer[40];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, static_cast<std::size_t>(result.ptr - buffer));
}

std::string Shortest(float value) {
    char buffer[40];
    const auto result = std::to_chars(buffer, buffer + sizeof buffer, value);
    return std::string(buffer, static_cast<std::size_t>(result.ptr - buffer));
}

// A string for one line of text: control characters escaped, long values cut unless verbose.
std::string Printable(const char *data, std::size_t size, bool verbose) {
    std::string text;
    const std::size_t shown = (!verbose && size > kTextValueLimit) ? kTextValueLimit : size;
    for (std::size_t i = 0; i < shown; ++i) {
        const auto c = static_cast<unsigned char>(data[i]);
        if (c < 0x20 || c == 0x7F) {
            char escaped[8];
            std::snprintf(escaped, sizeof escaped, "\\x%02x", c);
            text += escaped;
        } else {
            text += static_cast<char>(c);
        }
    }
    if (shown < size) text += "... (" + std::to_string(size) + " bytes)";
    return text;
}

std::string Printable(const aiString &s, bool verbose) {
    return Printable(s.data, s.length, verbose);
}

std::string Printable(std::string_view s, bool verbose) {
    return Printable(s.data(), s.size(), verbose);
}

std::string Point(const aiVector3D &p) {
    char buffer[128];
    std::snprintf(buffer, sizeof buffer, "(%f %f %f)", static_cast<double>(p.x), static_cast<double>(p.y),
                  static_cast<double>(p.z));
    return buffer;
}

void WriteMetadata(std::ostream &out, const aiMetadata &metadata, const std::string &indent, unsigned depth,
                   bool verbose) {
    // Long texts (gamefmt/metadata.hpp) are one entry, their parts joined.
    ForEachMetadata(metadata, [&](const MetadataValue &v) {
        const aiMetadataEntry &entry = *v.entry;
        out << indent << Printable(v.key, verbose) << ": ";
        if (v.parts != 0) {
            out << '"' << Printable(v.text, verbose) << "\" (string)\n";
            return;
        }
        if (entry.mData == nullptr) {
            out << "(no data)\n";
            return;
        }
        switch (entry.mType) {
        case AI_BOOL:
            out << (*static_cast<const bool *>(entry.mData) ? "true" : "false") << " (bool)\n";
            break;
        case AI_INT32:
            out << *static_cast<const std::int32_t *>(entry.mData) << " (int32)\n";
            break;
        case AI_UINT64:
            out << *static_cast<const std::uint64_t *>(entry.mData) << " (uint64)\n";
            break;
        case AI_FLOAT:
            out << Shortest(*static_cast<const float *>(entry.mData)) << " (float)\n";
            break;
        case AI_DOUBLE:
            out << Shortest(*static_cast<const double *>(entry.mData)) << " (double)\n";
            break;
        case AI_AISTRING:
            out << '"' << Printable(*static_cast<const aiString *>(entry.mData), verbose) << "\" (string)\n";
            break;
        case AI_AIVECTOR3D: {
            const aiVector3D &v = *static_cast<const aiVector3D *>(entry.mData);
            out << '(' << Shortest(v.x) << ' ' << Shortest(v.y) << ' ' << Shortest(v.z) << ") (vector3)\n";
            break;
        }
        case AI_AIMETADATA: {
            const aiMetadata &nested = *static_cast<const aiMetadata *>(entry.mData);
            if (depth + 1 >= kMetadataDepthLimit) {
                out << "(metadata nested too deeply, " << nested.mNumProperties << " entries not shown)\n";
            } else {
                out << "(metadata, " << nested.mNumProperties << " entries)\n";
                WriteMetadata(out, nested, indent + "    ", depth + 1, verbose);
            }
            break;
        }
#ifdef GAMEFMT_HAVE_AI_INT64
        case AI_INT64:
            out << *static_cast<const std::int64_t *>(entry.mData) << " (int64)\n";
            break;
#endif
#ifdef GAMEFMT_HAVE_AI_UINT32
        case AI_UINT32:
            out << *static_cast<const std::uint32_t *>(entry.mData) << " (uint32)\n";
            break;
#endif
        default:
            out << "(value of metadata type " << static_cast<int>(entry.mType) << ")\n";
            break;
        }
    });
}

std::string MaterialName(const aiScene &scene, unsigned index) {
    if (index >= scene.mNumMaterials || scene.mMaterials[index] == nullptr) return "(missing)";
    aiString name;
    if (scene.mMaterials[index]->Get(AI_MATKEY_NAME, name) != AI_SUCCESS) return "''";
    return "'" + Printable(name, false) + "'";
}

void WriteCounts(const InfoInput &input, const SceneStats &stats, std::ostream &out) {
    const aiScene &scene = *input.scene;
    char line[256];
    std::snprintf(line, sizeof line, "Memory consumption: %u B\n", input.memory.total);
    out << line;
    out << "Nodes:              " << stats.nodes << '\n'
        << "Maximum depth       " << stats.maxDepth << '\n'
        << "Meshes:             " << scene.mNumMeshes << '\n'
        << "Animations:         " << scene.mNumAnimations << '\n'
        << "Textures (embed.):  " << scene.mNumTextures << '\n'
        << "Materials:          " << scene.mNumMaterials << '\n'
        << "Cameras:            " << scene.mNumCameras << '\n'
        << "Lights:             " << scene.mNumLights << '\n'
        << "Vertices:           " << stats.vertices << '\n'
        << "Faces:              " << stats.faces << '\n'
        << "Bones:              " << stats.bones << '\n'
        << "Animation Channels: " << stats.animationChannels << '\n'
        << "Primitive Types:    " << PrimitiveTypeNames(stats.primitiveTypes) << '\n'
        << "Average faces/mesh  " << (scene.mNumMeshes ? stats.faces / scene.mNumMeshes : 0) << '\n'
        << "Average verts/mesh  " << (scene.mNumMeshes ? stats.vertices / scene.mNumMeshes : 0) << '\n';
    if (stats.hasBounds) {
        const char *approx = stats.boundsApproximate ? " (approximate)" : "";
        out << "Minimum point      " << Point(stats.min) << approx << '\n'
            << "Maximum point      " << Point(stats.max) << approx << '\n'
            << "Center point       " << Point((stats.min + stats.max) * 0.5f) << approx << '\n';
    } else {
        out << "Minimum point      (none)\n"
            << "Maximum point      (none)\n"
            << "Center point       (none)\n";
    }
    const std::string format = MetadataString(scene.mMetaData, AI_METADATA_SOURCE_FORMAT);
    const std::string version = MetadataString(scene.mMetaData, AI_METADATA_SOURCE_FORMAT_VERSION);
    out << "Importer:           " << (format.empty() ? "(unknown)" : Printable(format.data(), format.size(), false))
        << '\n';
    if (!version.empty()) out << "Format version:     " << Printable(version.data(), version.size(), false) << '\n';
    out << "Post-processing:    ";
    if (input.incomplete && input.stepsRequested != 0)
        out << "skipped, the scene is incomplete (no geometry)\n";
    else
        out << (input.stepsApplied ? DescribeSteps(input.stepsApplied) : "none (raw)") << '\n';
}

// "Embedded textures": compressed (format hint, bytes) or raw (texels), with file names.
void WriteTextures(const aiScene &scene, std::ostream &out) {
    if (scene.mNumTextures > 0) {
        out << "\nEmbedded textures:\n";
        for (unsigned i = 0; i < scene.mNumTextures; ++i) {
            const aiTexture *texture = scene.mTextures[i];
            if (texture == nullptr) continue;
            const std::string hint =
                Printable(texture->achFormatHint, strnlen(texture->achFormatHint, HINTMAXTEXTURELEN), false);
            out << "    *" << i << ' ';
            if (texture->mHeight == 0)
                out << (hint.empty() ? "(no format hint)" : hint) << ", " << texture->mWidth << " bytes";
            else
                out << "uncompressed " << (hint.empty() ? "argb8888" : hint) << ", " << texture->mWidth << 'x'
                    << texture->mHeight << " texels";
            if (texture->mFilename.length > 0) out << ", '" << Printable(texture->mFilename, false) << "'";
            out << '\n';
        }
    }
}

// "Meshes", "Animations", "Cameras", "Lights": one line each.
void WriteSceneLists(const aiScene &scene, std::ostream &out) {
    if (scene.mNumMeshes > 0) {
        out << "\nMeshes:\n";
        for (unsigned i = 0; i < scene.mNumMeshes; ++i) {
            const aiMesh *mesh = scene.mMeshes[i];
            if (mesh == nullptr) continue;
            out << "    " << i << " '" << Printable(mesh->mName, false) << "': " << mesh->mNumVertices << " vertices, "
                << mesh->mNumFaces << " faces, material " << mesh->mMaterialIndex << ' '
                << MaterialName(scene, mesh->mMaterialIndex) << ", " << mesh->mNumBones << " bones, "
                << mesh->mNumAnimMeshes << " morph targets, " << PrimitiveTypeNames(mesh->mPrimitiveTypes) << '\n';
        }
    }
    if (scene.mNumAnimations > 0) {
        out << "\nAnimations:\n";
        for (unsigned i = 0; i < scene.mNumAnimations; ++i) {
            const aiAnimation *anim = scene.mAnimations[i];
            if (anim == nullptr) continue;
            out << "    " << i << " '" << Printable(anim->mName, false) << "': " << Shortest(AnimationSeconds(*anim))
                << " s (" << Shortest(anim->mDuration) << " ticks at " << Shortest(anim->mTicksPerSecond)
                << " ticks/s), " << anim->mNumChannels << " node channels, " << anim->mNumMeshChannels
                << " mesh channels, " << anim->mNumMorphMeshChannels << " morph channels, " << AnimationKeys(*anim)
                << " keys\n";
        }
    }
    if (scene.mNumCameras > 0) {
        out << "\nCameras:\n";
        for (unsigned i = 0; i < scene.mNumCameras; ++i)
            if (scene.mCameras[i] != nullptr)
                out << "    " << i << " '" << Printable(scene.mCameras[i]->mName, false) << "'\n";
    }
    if (scene.mNumLights > 0) {
        out << "\nLights:\n";
        for (unsigned i = 0; i < scene.mNumLights; ++i)
            if (scene.mLights[i] != nullptr)
                out << "    " << i << " '" << Printable(scene.mLights[i]->mName, false) << "'\n";
    }
}

// "Node hierarchy": the tree, indented; with --verbose also transforms and node metadata.
void WriteNodeTree(const InfoInput &input, std::ostream &out) {
    const aiScene &scene = *input.scene;
    out << "\nNode hierarchy:\n";
    ForEachNode(scene, [&](const aiNode &node, std::uint64_t, std::int64_t, std::uint64_t depth, const aiMatrix4x4 &) {
        const std::string indent(2 * static_cast<std::size_t>(std::min(depth, kIndentLimit)), ' ');
        out << indent;
        if (depth > kIndentLimit) out << "[depth " << depth << "] ";
        out << Printable(node.mName, false);
        if (node.mNumMeshes > 0) {
            out << (node.mNumMeshes == 1 ? " (mesh " : " (meshes ");
            for (unsigned i = 0; i < node.mNumMeshes; ++i) out << (i ? ", " : "") << node.mMeshes[i];
            out << ')';
        }
        out << '\n';
        if (!input.verbose) return;
        if (!node.mTransformation.IsIdentity()) {
            const aiMatrix4x4 &m = node.mTransformation;
            out << indent << "  transform: [" << Shortest(m.a1) << ' ' << Shortest(m.a2) << ' ' << Shortest(m.a3) << ' '
                << Shortest(m.a4) << "; " << Shortest(m.b1) << ' ' << Shortest(m.b2) << ' ' << Shortest(m.b3) << ' '
                << Shortest(m.b4) << "; " << Shortest(m.c1) << ' ' << Shortest(m.c2) << ' ' << Shortest(m.c3) << ' '
                << Shortest(m.c4) << "; " << Shortest(m.d1) << ' ' << Shortest(m.d2) << ' ' << Shortest(m.d3) << ' '
                << Shortest(m.d4) << "]\n";
        }
        if (node.mMetaData != nullptr) WriteMetadata(out, *node.mMetaData, indent + "  - ", 0, true);
    });
}

void WriteDetails(const InfoInput &input, std::ostream &out) {
    const aiScene &scene = *input.scene;
    if (scene.mMetaData != nullptr && scene.mMetaData->mNumProperties > 0) {
        out << "\nMetadata:\n";
        WriteMetadata(out, *scene.mMetaData, "    ", 0, input.verbose);
    }
    const auto classes = RobloxClassCounts(scene);
    if (!classes.empty()) {
        out << "\nRoblox classes:\n";
        for (const auto &[name, count] : classes)
            out << "    " << count << ' ' << Printable(name.data(), name.size(), false) << '\n';
    }
    if (scene.mNumMaterials > 0) {
        out << "\nNamed Materials:\n";
        for (unsigned i = 0; i < scene.mNumMaterials; ++i) out << "    " << i << ' ' << MaterialName(scene, i) << '\n';
    }
    WriteTextures(scene, out);
    WriteSceneLists(scene, out);
    WriteNodeTree(input, out);
}

} // namespace

void WriteInfoText(const InfoInput &input, std::ostream &out) {
    const SceneStats stats = ComputeStats(*input.scene);
    WriteCounts(input, stats, out);
    if (!input.silent) WriteDetails(input, out);
}

std::vector<std::pair<std::string, std::uint64_t>> RobloxClassCounts(const aiScene &scene) {
    std::map<std::string, std::uint64_t> counts;
    if (!IsRobloxModelScene(scene)) return {};
    rbx::Document doc;
    try {
        RobloxDocumentFromScene(scene, doc); // the instances the scene holds (rbx.source, node edits applied)
    } catch (const std::exception &) {
        return {};
    }
    // The instances in the tree (what the scene shows), not orphans the file may also hold.
    rbx::ForEachInTreeOrder(doc,
                            [&](const rbx::TreeStep &step) { ++counts[doc.className(doc.instances[step.index])]; });
    std::vector<std::pair<std::string, std::uint64_t>> sorted(counts.begin(), counts.end());
    std::stable_sort(sorted.begin(), sorted.end(), [](const auto &a, const auto &b) { return a.second > b.second; });
    return sorted;
}

} // namespace gamefmt::cli
