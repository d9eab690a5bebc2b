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
    json.beginArray(true);
    json.number(p.x);
    json.number(p.y);
    json.number(p.z);
    json.endArray();
}

void WritePrimitiveTypes(JsonWriter &json, unsigned types) {
    json.beginArray(true);
    if (types & aiPrimitiveType_POINT) json.string("points");
    if (types & aiPrimitiveType_LINE) json.string("lines");
    if (types & aiPrimitiveType_TRIANGLE) json.string("triangles");
    if (types & aiPrimitiveType_POLYGON) json.string("polygons");
    json.endArray();
}

// Each entry becomes {"type": ..., "value": ...} so consumers keep Assimp's type information. Long texts
// (gamefmt/metadata.hpp) are one string entry, their parts joined.
void WriteMetadata(JsonWriter &json, const aiMetadata &metadata, unsigned depth) {
    json.beginObject();
    ForEachMetadata(metadata, [&](const MetadataValue &v) {
        const aiMetadataEntry &entry = *v.entry;
        json.key(v.key);
        json.beginObject(entry.mType != AI_AIMETADATA);
        const auto type = [&](const char *name) {
            json.stringField("type", name);
            json.key("value");
        };
        if (v.parts != 0) {
            type("string");
            json.string(v.text);
            json.endObject();
            return;
        }
        if (entry.mData == nullptr) {
            type("none");
            json.null();
            json.endObject();
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
            json.number(*static_cast<const float *>(entry.mData));
            break;
        case AI_DOUBLE:
            type("double");
            json.number(*static_cast<const double *>(entry.mData));
            break;
        case AI_AISTRING:
            type("string");
            json.string(View(*static_cast<const aiString *>(entry.mData)));
            break;
        case AI_AIVECTOR3D:
            type("vector3");
            WritePoint(json, *static_cast<const aiVector3D *>(entry.mData));
            break;
        case AI_AIMETADATA:
            type("metadata");
            if (depth + 1 >= kMetadataDepthLimit)
                json.null(); // nested too deeply
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
            json.null();
            break;
        }
        json.endObject();
    });
    json.endObject();
}

void WriteOptionalString(JsonWriter &json, const char *key, const std::string &value) {
    json.key(key);
    if (value.empty())
        json.null();
    else
        json.string(value);
}

void WriteMaterialName(JsonWriter &json, const aiScene &scene, unsigned index) {
    aiString name;
    if (index < scene.mNumMaterials && scene.mMaterials[index] != nullptr &&
        scene.mMaterials[index]->Get(AI_MATKEY_NAME, name) == AI_SUCCESS)
        json.string(View(name));
    else
        json.null();
}

// "materials": index and name of each.
void WriteMaterialList(JsonWriter &json, const aiScene &scene) {
    json.key("materials");
    json.beginArray();
    for (unsigned i = 0; i < scene.mNumMaterials; ++i) {
        json.beginObject(true);
        json.unsignedField("index", i);
        json.key("name");
        WriteMaterialName(json, scene, i);
        json.endObject();
    }
    json.endArray();
}

// "textures": embedded textures, compressed (bytes) or raw (width × height).
void WriteTextureList(JsonWriter &json, const aiScene &scene) {
    json.key("textures");
    json.beginArray();
    for (unsigned i = 0; i < scene.mNumTextures; ++i) {
        const aiTexture *texture = scene.mTextures[i];
        if (texture == nullptr) continue;
        json.beginObject(true);
        json.unsignedField("index", i);
        json.stringField("formatHint",
                         std::string_view(texture->achFormatHint, strnlen(texture->achFormatHint, HINTMAXTEXTURELEN)));
        json.booleanField("compressed", texture->mHeight == 0);
        if (texture->mHeight == 0) {
            json.unsignedField("bytes", texture->mWidth);
        } else {
            json.unsignedField("width", texture->mWidth);
            json.unsignedField("height", texture->mHeight);
        }
        WriteOptionalString(json, "filename", std::string(View(texture->mFilename)));
        json.endObject();
    }
    json.endArray();
}

// "meshes": counts, material and primitive types of each.
void WriteMeshList(JsonWriter &json, const aiScene &scene) {
    json.key("meshes");
    json.beginArray();
    for (unsigned i = 0; i < scene.mNumMeshes; ++i) {
        const aiMesh *mesh = scene.mMeshes[i];
        if (mesh == nullptr) continue;
        json.beginObject(true);
        json.unsignedField("index", i);
        json.stringField("name", View(mesh->mName));
        json.unsignedField("vertices", mesh->mNumVertices);
        json.unsignedField("faces", mesh->mNumFaces);
        json.unsignedField("material", mesh->mMaterialIndex);
        json.key("materialName");
        WriteMaterialName(json, scene, mesh->mMaterialIndex);
        json.unsignedField("bones", mesh->mNumBones);
        json.unsignedField("morphTargets", mesh->mNumAnimMeshes);
        json.key("primitiveTypes");
        WritePrimitiveTypes(json, mesh->mPrimitiveTypes);
        json.endObject();
    }
    json.endArray();
}

// "animations": duration, rate and channel counts of each.
void WriteAnimationList(JsonWriter &json, const aiScene &scene) {
    json.key("animations");
    json.beginArray();
    for (unsigned i = 0; i < scene.mNumAnimations; ++i) {
        const aiAnimation *anim = scene.mAnimations[i];
        if (anim == nullptr) continue;
        json.beginObject(true);
        json.unsignedField("index", i);
        json.stringField("name", View(anim->mName));
        json.numberField("durationTicks", anim->mDuration);
        json.numberField("ticksPerSecond", anim->mTicksPerSecond);
        json.numberField("seconds", AnimationSeconds(*anim));
        json.unsignedField("keys", AnimationKeys(*anim));
        json.unsignedField("nodeChannels", anim->mNumChannels);
        json.unsignedField("meshChannels", anim->mNumMeshChannels);
        json.unsignedField("morphChannels", anim->mNumMorphMeshChannels);
        json.endObject();
    }
    json.endArray();
}

// "nodes": the tree in pre-order; with --verbose also transforms and node metadata.
void WriteNodeList(JsonWriter &json, const InfoInput &input) {
    const aiScene &scene = *input.scene;
    json.key("nodes");
    json.beginArray();
    ForEachNode(scene, [&](const aiNode &node, std::uint64_t index, std::int64_t parent, std::uint64_t depth,
                           const aiMatrix4x4 &) {
        const bool withMetadata = input.verbose && node.mMetaData != nullptr;
        json.beginObject(!withMetadata && !input.verbose);
        json.unsignedField("index", index);
        json.stringField("name", View(node.mName));
        json.key("parent");
        if (parent < 0)
            json.null();
        else
            json.integer(parent);
        json.unsignedField("depth", depth);
        json.key("meshes");
        json.beginArray(true);
        for (unsigned i = 0; i < node.mNumMeshes; ++i) json.unsignedInteger(node.mMeshes[i]);
        json.endArray();
        if (input.verbose) {
            const aiMatrix4x4 &m = node.mTransformation;
            json.key("transform"); // row-major, as aiMatrix4x4 stores it
            json.beginArray(true);
            for (unsigned r = 0; r < 4; ++r)
                for (unsigned c = 0; c < 4; ++c) json.number(m[r][c]);
            json.endArray();
            json.key("metadata");
            if (withMetadata)
                WriteMetadata(json, *node.mMetaData, 0);
            else
                json.null();
        }
        json.endObject();
    });
    json.endArray();
}

void WriteLists(JsonWriter &json, const InfoInput &input) {
    const aiScene &scene = *input.scene;
    json.key("metadata");
    if (scene.mMetaData != nullptr)
        WriteMetadata(json, *scene.mMetaData, 0);
    else
        json.null();

    const auto classes = RobloxClassCounts(scene);
    if (!classes.empty()) {
        json.key("robloxClasses");
        json.beginObject();
        for (const auto &[name, count] : classes) {
            json.key(name);
            json.unsignedInteger(count);
        }
        json.endObject();
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
    json.beginObject();
    json.stringField("file", input.path);
    WriteOptionalString(json, "format", MetadataString(scene.mMetaData, AI_METADATA_SOURCE_FORMAT));
    WriteOptionalString(json, "formatVersion", MetadataString(scene.mMetaData, AI_METADATA_SOURCE_FORMAT_VERSION));
    json.booleanField("incomplete", (scene.mFlags & AI_SCENE_FLAGS_INCOMPLETE) != 0);
    json.stringField("postProcessing", input.stepsApplied ? DescribeSteps(input.stepsApplied) : "none");
    json.unsignedField("memoryBytes", input.memory.total);

    json.key("counts");
    json.beginObject();
    json.unsignedField("nodes", stats.nodes);
    json.unsignedField("maxDepth", stats.maxDepth);
    json.unsignedField("meshes", scene.mNumMeshes);
    json.unsignedField("animations", scene.mNumAnimations);
    json.unsignedField("textures", scene.mNumTextures);
    json.unsignedField("materials", scene.mNumMaterials);
    json.unsignedField("cameras", scene.mNumCameras);
    json.unsignedField("lights", scene.mNumLights);
    json.unsignedField("vertices", stats.vertices);
    json.unsignedField("faces", stats.faces);
    json.unsignedField("bones", stats.bones);
    json.unsignedField("animationChannels", stats.animationChannels);
    json.endObject();
    json.unsignedField("averageFacesPerMesh", scene.mNumMeshes ? stats.faces / scene.mNumMeshes : 0);
    json.unsignedField("averageVertsPerMesh", scene.mNumMeshes ? stats.vertices / scene.mNumMeshes : 0);
    json.key("primitiveTypes");
    WritePrimitiveTypes(json, stats.primitiveTypes);
    json.key("bounds");
    if (stats.hasBounds) {
        json.beginObject();
        json.key("min");
        WritePoint(json, stats.min);
        json.key("max");
        WritePoint(json, stats.max);
        json.key("center");
        WritePoint(json, (stats.min + stats.max) * 0.5f);
        json.booleanField("approximate", stats.boundsApproximate);
        json.endObject();
    } else {
        json.null();
    }

    if (!input.silent) WriteLists(json, input);
    json.endObject();
}

} // namespace gamefmt::cli
