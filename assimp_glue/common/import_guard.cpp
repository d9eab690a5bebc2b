// The scene limits every importer enforces before Assimp sees the scene (import_guard.hpp).
#include "assimp_glue/common/import_guard.hpp"

#include "assimp_glue/common/scene_util.hpp"
#include "common/error.hpp"
#include "gamefmt/config.hpp"

#include <assimp/Importer.hpp>

#include <string>
#include <utility>
#include <vector>

namespace gamefmt::glue {

ImportLimits ReadImportLimits(const Assimp::Importer *importer) {
    ImportLimits limits;
    const int depth = importer->GetPropertyInteger(GAMEFMT_MAX_NODE_DEPTH, int(kDefaultMaxNodeDepth));
    if (depth > 0) limits.maxNodeDepth = static_cast<unsigned>(depth);
    return limits;
}

std::size_t NodeDepth(const aiNode *root, std::size_t limit, const aiNode **tooDeep) {
    if (tooDeep != nullptr) *tooDeep = nullptr;
    if (root == nullptr) return 0;
    std::size_t deepest = 0;
    std::vector<std::pair<const aiNode *, std::size_t>> stack{{root, 0}};
    while (!stack.empty()) {
        const auto [node, depth] = stack.back();
        stack.pop_back();
        if (depth > deepest) deepest = depth;
        if (depth > limit) {
            if (tooDeep != nullptr) *tooDeep = node;
            return depth;
        }
        for (unsigned i = 0; i < node->mNumChildren; ++i)
            if (node->mChildren[i] != nullptr) stack.emplace_back(node->mChildren[i], depth + 1);
    }
    return deepest;
}

namespace {

void DropEmptyMeshes(aiScene *scene, std::string_view format) {
    if (scene->mNumMeshes == 0 || scene->mMeshes == nullptr) return;
    std::vector<unsigned> remap(scene->mNumMeshes, ~0u);
    std::vector<aiMesh *> kept;
    kept.reserve(scene->mNumMeshes);
    for (unsigned i = 0; i < scene->mNumMeshes; ++i) {
        aiMesh *mesh = scene->mMeshes[i];
        if (mesh != nullptr && mesh->mNumFaces != 0 && mesh->mNumVertices != 0 && mesh->mVertices != nullptr &&
            mesh->mFaces != nullptr) {
            remap[i] = static_cast<unsigned>(kept.size());
            kept.push_back(mesh);
            continue;
        }
        if (mesh != nullptr) {
            LogWarn(std::string(format) + ": mesh '" + mesh->mName.C_Str() + "' has " +
                    std::to_string(mesh->mNumFaces) + " faces and " + std::to_string(mesh->mNumVertices) +
                    " vertices; dropped");
            delete mesh;
        }
    }
    if (kept.size() == scene->mNumMeshes) return;

    delete[] scene->mMeshes;
    scene->mNumMeshes = static_cast<unsigned>(kept.size());
    scene->mMeshes = CopyToNewArray(kept);
    if (kept.empty()) scene->mFlags |= AI_SCENE_FLAGS_INCOMPLETE;

    std::vector<aiNode *> stack;
    if (scene->mRootNode != nullptr) stack.push_back(scene->mRootNode);
    while (!stack.empty()) {
        aiNode *node = stack.back();
        stack.pop_back();
        for (unsigned i = 0; i < node->mNumChildren; ++i)
            if (node->mChildren[i] != nullptr) stack.push_back(node->mChildren[i]);
        if (node->mNumMeshes == 0) continue;
        unsigned n = 0;
        for (unsigned i = 0; i < node->mNumMeshes; ++i) {
            const unsigned index = node->mMeshes[i];
            if (index < remap.size() && remap[index] != ~0u) node->mMeshes[n++] = remap[index];
        }
        node->mNumMeshes = n;
        if (n == 0) {
            delete[] node->mMeshes;
            node->mMeshes = nullptr;
        }
    }
}

} // namespace

void FinishImportedScene(aiScene *scene, std::string_view format, const ImportLimits &limits) {
    const aiNode *tooDeep = nullptr;
    const std::size_t depth = NodeDepth(scene->mRootNode, limits.maxNodeDepth, &tooDeep);
    if (tooDeep != nullptr)
        throw FormatError(std::string(format),
                          "node '" + QuoteText(std::string_view(tooDeep->mName.C_Str(), tooDeep->mName.length)) +
                              "' is " + std::to_string(depth) + " levels below the root, deeper than the limit of " +
                              std::to_string(limits.maxNodeDepth) +
                              " (raise GAMEFMT_MAX_NODE_DEPTH / --max-node-depth to import it)");
    DropEmptyMeshes(scene, format);
}

} // namespace gamefmt::glue
