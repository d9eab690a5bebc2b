// The `dump` verb: the instance tree of a Roblox model or place with every property in the "<Type>:<text>"
// form of value_text.hpp, read back from the importer's node metadata (so import options apply).
#include "loading.hpp"
#include "log.hpp"
#include "options.hpp"
#include "verbs.hpp"

#include "assimp_glue/roblox_model_scene.hpp"
#include "gamefmt/gamefmt.hpp"

#include <assimp/Importer.hpp>
#include <assimp/scene.h>

#include <cstring>
#include <ostream>
#include <vector>

namespace gamefmt::cli {
namespace {

std::string MetaText(const aiMetadata *md, const char *key) {
    if (md == nullptr) return {};
    for (unsigned i = 0; i < md->mNumProperties; ++i)
        if (md->mValues[i].mType == AI_AISTRING && std::strcmp(md->mKeys[i].C_Str(), key) == 0)
            return static_cast<const aiString *>(md->mValues[i].mData)->C_Str();
    return {};
}

// Iterative: the file decides the depth.
void DumpTree(const aiNode *root, std::ostream &out) {
    struct Item {
        const aiNode *node;
        std::size_t depth;
    };
    std::vector<Item> stack;
    for (unsigned i = root->mNumChildren; i-- > 0;) stack.push_back({root->mChildren[i], 0});
    while (!stack.empty()) {
        const Item item = stack.back();
        stack.pop_back();
        const aiMetadata *md = item.node->mMetaData;
        const std::string className = MetaText(md, glue::kRbxClassName);
        std::size_t childDepth = item.depth;
        if (!className.empty()) {
            const std::string indent(item.depth * 2, ' ');
            out << indent << className << " \"" << MetaText(md, glue::kRbxName) << "\" ["
                << MetaText(md, glue::kRbxReferent) << "]\n";
            const std::string_view prefix(glue::kRbxPropPrefix);
            glue::ForEachSplitText(*md, [&](std::string_view key, std::string_view text) {
                if (key.substr(0, prefix.size()) == prefix)
                    out << indent << "  ." << key.substr(prefix.size()) << " = " << OneLine(std::string(text)) << '\n';
            });
            childDepth = item.depth + 1;
        }
        for (unsigned i = item.node->mNumChildren; i-- > 0;) stack.push_back({item.node->mChildren[i], childDepth});
    }
}

} // namespace

int RunDump(const Args &args, std::ostream &out, std::ostream &err) {
    CommonOptions common;
    std::vector<std::string> files;
    const auto noVerbFlags = [](ArgCursor &, std::string &) { return FlagResult::NotMine; };
    if (!ParseVerbArgs("dump", args, kPropertyFlags | kLogFlags, noVerbFlags, common, files, err)) return kExitUsage;
    if (files.size() != 1) {
        err << "gamefmt dump: expected one FILE, got " << files.size() << " (see 'gamefmt help dump')\n";
        return kExitUsage;
    }
    LogSession log(common, err);
    if (!log.Ok()) {
        err << "gamefmt dump: " << log.Error() << '\n';
        return kExitUsage;
    }
    const std::unique_ptr<Assimp::Importer> importer = gamefmt::MakeImporter();
    ApplyProperties(common.properties, *importer);
    const LoadResult loaded = LoadScene(*importer, files[0], 0, 0);
    if (loaded.scene == nullptr) {
        PrintFileError(err, loaded.failedStage, files[0], loaded.error);
        return kExitBadInput;
    }
    log.ReportWarnings(files[0]); // a failed import shows only its error
    if (!glue::IsRobloxModelScene(*loaded.scene)) {
        PrintFileError(err, "dump", files[0], "not a Roblox model or place (no rbx.ClassName metadata)");
        return kExitBadInput;
    }
    const aiMetadata *sm = loaded.scene->mMetaData;
    out << "# " << MetaText(sm, "SourceAsset_Format") << " (" << MetaText(sm, glue::kRbxFormat) << ")\n";
    if (sm != nullptr)
        glue::ForEachSplitText(*sm, [&](std::string_view key, std::string_view text) {
            if (key.substr(0, 9) == "rbx.meta.")
                out << "# meta " << key.substr(9) << " = " << OneLine(std::string(text)) << '\n';
        });
    DumpTree(loaded.scene->mRootNode, out);
    return kExitOk;
}

} // namespace gamefmt::cli
