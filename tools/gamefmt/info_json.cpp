// `info --json`: the content of the text report as one JSON object: totals under "counts", then (unless -s)
// the lists. Nodes are a flat pre-order list with parent indices, so deep hierarchies do not become deeply
// nested JSON.
#include "info_report.hpp"
#include "json_writer.hpp"
#include "options.hpp"

#include "gamefmt/metadata.hpp"
#include "scene_stats.hpp"

#include <assimp/commonMetaData.h>
#include <assimp/material.h>
#include <assimp/scene.h>

#include <cstring>
#include <ostream>

namespace gamefmt::cli {
namespace {

std::string_view View(const aiString &s) {
    return std::string_view(s.data, s.length);
}

void WritePoint(JsonWriter &json, const aiVector3D &p) {
    json.BeginArray(true);
    json.Number(p.x);
    json.Number(p.y);
    json.Number(p.z);
    json.EndArray();
}

void WritePrimitiveTypes(JsonWriter &json, unsigned types) {
    json.BeginArray(true);
    if (types & aiPrimitiveType_POINT) json.String("points");
    if (types & aiPrimitiveType_LINE) json.String("lines");
    if (types & aiPrimitiveType_TRIANGLE) json.String("triangles");
    if (types & aiPrimitiveType_POLYGON) json.String("polygons");
    json.EndArray();
}

// Each entry becomes {"type": ..., "value": ...} so consumers keep Assimp's type information. Long texts
// (gamefmt/metadata.hpp) are one string entry, their parts joined.
void WriteMetadata(JsonWriter &json, const aiMetadata &metadata, unsigned depth) {
    json.BeginObject();
    ForEachMetadata(metadata, [&](const MetadataValue &v) {
        const aiMetadataEntry &entry = *v.entry;
        json.Key(v.key);
        json.BeginObject(entry.mType != AI_AIMETADATA);
        const auto type = [&](const char *name) {
            json.Key("type");
            json.String(name);
            json.Key("value");
        };
        if (v.parts != 0) {
            type("string");
            json.String(v.text);
            json.EndObject();
            return;
        }
        if (entry.mData == nullptr) {
            type("none");
            json.Null();
            json.EndObject();
            return;
        }
        switch (entry.mType) {
        case AI_BOOL:
            type("bool");
            json.boolean(*static_cast<const bool *>(entry.mData));
            break;
        case AI_INT32:
            type("int32");
            json.integer(*static_cast<const std::int32_t *>(entry.mData));
            break;
        case AI_UINT64:
            type("uint64");
            json.unsignedInteger(*static_cast<const std::uint64_t *>(entry.mData));
            break;
        case AI_FLOAT:
            type("float");
            json.Number(*static_cast<const float *>(entry.mData));
            break;
        case AI_DOUBLE:
            type("double");
            json.Number(*static_cast<const double *>(entry.mData));
            break;
        case AI_AISTRING:
            type("string");
            json.String(View(*static_cast<const aiString *>(entry.mData)));
            break;
        case AI_AIVECTOR3D:
            type("vector3");
            WritePoint(json, *static_cast<const aiVector3D *>(entry.mData));
            break;
        case AI_AIMETADATA:
            type("metadata");
            if (depth + 1 >= kMetadataDepthLimit)
                json.Null(); // nested too deeply
            else
                WriteMetadata(json, *static_cast<const aiMetadata *>(entry.mData), depth + 1);
            break;
#ifdef GAMEFMT_HAVE_AI_INT64
        case AI_INT64:
            type("int64");
            json.integer(*static_cast<const std::int64_t *>(entry.mData));
            break;
#endif
#ifdef GAMEFMT_HAVE_AI_UINT32
        case AI_UINT32:
            type("uint32");
            json.unsignedInteger(*static_cast<const std::uint32_t *>(entry.mData));
            break;
#endif
        default:
            type("unknown");
            json.Null();
            break;
        }
        json.EndObject();
    });
    json.EndObject();
}

void WriteOptionalString(JsonWriter &json, const char *key, const std::string &value) {
    json.Key(key);
    if (value.empty())
        json.Null();
    else
        json.String(value);
}

void WriteMaterialName(JsonWriter &json, const aiScene &scene, unsigned index) {
    aiString name;
    if (index < scene.mNumMaterials && scene.mMaterials[index] != nullptr &&
        scene.mMaterials[index]->Get(AI_MATKEY_NAME, name) == AI_SUCCESS)
        json.String(View(name));
    else
        json.Null();
}

// "materials": index and name of each.
void WriteMaterialList(JsonWriter &json, const aiScene &scene) {
    json.Key("materials");
    json.BeginArray();
    for (unsigned i = 0; i < scene.mNumMaterials; ++i) {
        json.BeginObject(true);
        json.Key("index");
        json.unsignedInteger(i);
        json.Key("name");
        WriteMaterialName(json, scene, i);
        json.EndObject();
    }
    json.EndArray();
}

// "textures": embedded textures, compressed (bytes) or raw (width × height).
void WriteTextureList(JsonWriter &json, const aiScene &scene) {
    json.Key("textures");
    json.BeginArray();
    for (unsigned i = 0; i < scene.mNumTextures; ++i) {
        const aiTexture *texture = scene.mTextures[i];
        if (texture == nullptr) continue;
        json.BeginObject(true);
        json.Key("index");
        json.unsignedInteger(i);
        json.Key("formatHint");
        json.String(std::string_view(texture->achFormatHint, strnlen(texture->achFormatHint, HINTMAXTEXTURELEN)));
        json.Key("compressed");
        json.boolean(texture->mHeight == 0);
        if (texture->mHeight == 0) {
            json.Key("bytes");
            json.unsignedInteger(texture->mWidth);
        } else {
            json.Key("width");
            json.unsignedInteger(texture->mWidth);
            json.Key("height");
            json.unsignedInteger(texture->mHeight);
        }
        WriteOptionalString(json, "filename", std::string(View(texture->mFilename)));
        json.EndObject();
    }
    json.EndArray();
}

// "meshes": counts, material and primitive types of each.
void WriteMeshList(JsonWriter &json, const aiScene &scene) {
    json.Key("meshes");
    json.BeginArray();
    for (unsigned i = 0; i < scene.mNumMeshes; ++i) {
        const aiMesh *mesh = scene.mMeshes[i];
        if (mesh == nullptr) continue;
        json.BeginObject(true);
        json.Key("index");
        json.unsignedInteger(i);
        json.Key("name");
        json.String(View(mesh->mName));
        json.Key("vertices");
        json.unsignedInteger(mesh->mNumVertices);
        json.Key("faces");
        json.unsignedInteger(mesh->mNumFaces);
        json.Key("material");
        json.unsignedInteger(mesh->mMaterialIndex);
        json.Key("materialName");
        WriteMaterialName(json, scene, mesh->mMaterialIndex);
        json.Key("bones");
        json.unsignedInteger(mesh->mNumBones);
        json.Key("morphTargets");
        json.unsignedInteger(mesh->mNumAnimMeshes);
        json.Key("primitiveTypes");
        WritePrimitiveTypes(json, mesh->mPrimitiveTypes);
        json.EndObject();
    }
    json.EndArray();
}

// "animations": duration, rate and channel counts of each.
void WriteAnimationList(JsonWriter &json, const aiScene &scene) {
    json.Key("animations");
    json.BeginArray();
    for (unsigned i = 0; i < scene.mNumAnimations; ++i) {
        const aiAnimation *anim = scene.mAnimations[i];
        if (anim == nullptr) continue;
        json.BeginObject(true);
        json.Key("index");
        json.unsignedInteger(i);
        json.Key("name");
        json.String(View(anim->mName));
        json.Key("durationTicks");
        json.Number(anim->mDuration);
        json.Key("ticksPerSecond");
        json.Number(anim->mTicksPerSecond);
        json.Key("nodeChannels");
        json.unsignedInteger(anim->mNumChannels);
        json.Key("meshChannels");
        json.unsignedInteger(anim->mNumMeshChannels);
        json.Key("morphChannels");
        json.unsignedInteger(anim->mNumMorphMeshChannels);
        json.EndObject();
    }
    json.EndArray();
}

// "nodes": the tree in pre-order; with --verbose also transforms and node metadata.
void WriteNodeList(JsonWriter &json, const InfoInput &input) {
    const aiScene &scene = *input.scene;
    json.Key("nodes");
    json.BeginArray();
    ForEachNode(scene, [&](const aiNode &node, std::uint64_t index, std::int64_t parent, std::uint64_t depth,
                           const aiMatrix4x4 &) {
        const bool withMetadata = input.verbose && node.mMetaData != nullptr;
        json.BeginObject(!withMetadata && !input.verbose);
        json.Key("index");
        json.unsignedInteger(index);
        json.Key("name");
        json.String(View(node.mName));
        json.Key("parent");
        if (parent < 0)
            json.Null();
        else
            json.integer(parent);
        json.Key("depth");
        json.unsignedInteger(depth);
        json.Key("meshes");
        json.BeginArray(true);
        for (unsigned i = 0; i < node.mNumMeshes; ++i) json.unsignedInteger(node.mMeshes[i]);
        json.EndArray();
        if (input.verbose) {
            const aiMatrix4x4 &m = node.mTransformation;
            json.Key("transform"); // row-major, as aiMatrix4x4 stores it
            json.BeginArray(true);
            for (unsigned r = 0; r < 4; ++r)
                for (unsigned c = 0; c < 4; ++c) json.Number(m[r][c]);
            json.EndArray();
            json.Key("metadata");
            if (withMetadata)
                WriteMetadata(json, *node.mMetaData, 0);
            else
                json.Null();
        }
        json.EndObject();
    });
    json.EndArray();
}

void WriteLists(JsonWriter &json, const InfoInput &input) {
    const aiScene &scene = *input.scene;
    json.Key("metadata");
    if (scene.mMetaData != nullptr)
        WriteMetadata(json, *scene.mMetaData, 0);
    else
        json.Null();

    const auto classes = RobloxClassCounts(scene);
    if (!classes.empty()) {
        json.Key("robloxClasses");
        json.BeginObject();
        for (const auto &[name, count] : classes) {
            json.Key(name);
            json.unsignedInteger(count);
        }
        json.EndObject();
    }

    WriteMaterialList(json, scene);
    WriteTextureList(json, scene);
    WriteMeshList(json, scene);
    WriteAnimationList(json, scene);
    WriteNodeList(json, input);
}

} // namespace

void WriteInfoJson(const InfoInput &input, std::ostream &out) {
    const aiScene &scene = *input.scene;
    const SceneStats stats = ComputeStats(scene);
    JsonWriter json(out);
    json.BeginObject();
    json.Key("file");
    json.String(input.path);
    WriteOptionalString(json, "format", MetadataString(scene.mMetaData, AI_METADATA_SOURCE_FORMAT));
    WriteOptionalString(json, "formatVersion", MetadataString(scene.mMetaData, AI_METADATA_SOURCE_FORMAT_VERSION));
    json.Key("incomplete");
    json.boolean((scene.mFlags & AI_SCENE_FLAGS_INCOMPLETE) != 0);
    json.Key("postProcessing");
    json.String(input.stepsApplied ? DescribeSteps(input.stepsApplied) : "none");
    json.Key("memoryBytes");
    json.unsignedInteger(input.memory.total);

    json.Key("counts");
    json.BeginObject();
    json.Key("nodes");
    json.unsignedInteger(stats.nodes);
    json.Key("maxDepth");
    json.unsignedInteger(stats.maxDepth);
    json.Key("meshes");
    json.unsignedInteger(scene.mNumMeshes);
    json.Key("animations");
    json.unsignedInteger(scene.mNumAnimations);
    json.Key("textures");
    json.unsignedInteger(scene.mNumTextures);
    json.Key("materials");
    json.unsignedInteger(scene.mNumMaterials);
    json.Key("cameras");
    json.unsignedInteger(scene.mNumCameras);
    json.Key("lights");
    json.unsignedInteger(scene.mNumLights);
    json.Key("vertices");
    json.unsignedInteger(stats.vertices);
    json.Key("faces");
    json.unsignedInteger(stats.faces);
    json.Key("bones");
    json.unsignedInteger(stats.bones);
    json.Key("animationChannels");
    json.unsignedInteger(stats.animationChannels);
    json.EndObject();
    json.Key("averageFacesPerMesh");
    json.unsignedInteger(scene.mNumMeshes ? stats.faces / scene.mNumMeshes : 0);
    json.Key("averageVertsPerMesh");
    json.unsignedInteger(scene.mNumMeshes ? stats.vertices / scene.mNumMeshes : 0);
    json.Key("primitiveTypes");
    WritePrimitiveTypes(json, stats.primitiveTypes);
    json.Key("bounds");
    if (stats.hasBounds) {
        json.BeginObject();
        json.Key("min");
        WritePoint(json, stats.min);
        json.Key("max");
        WritePoint(json, stats.max);
        json.Key("center");
        WritePoint(json, (stats.min + stats.max) * 0.5f);
        json.Key("approximate");
        json.boolean(stats.boundsApproximate);
        json.EndObject();
    } else {
        json.Null();
    }

    if (!input.silent) WriteLists(json, input);
    json.EndObject();
}

} // namespace gamefmt::cli
