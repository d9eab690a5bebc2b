// Every material property gamefmt's importers make is found again by its own key. Assimp 6 looks material keys
// up by prefix (aiGetMaterialProperty compares only strlen(key) characters), so a key that is the beginning of an
// earlier property's key ("$rg.tex_h" and "$rg.tex_hi") would return the other property's value there; Assimp 5
// compares whole keys. The importers add such keys shortest first (docs/formats/assimp-integration.md), which
// this checks on every fixture, seed and test file, on whichever Assimp the suite is built against.
#include "fixtures/fuzz_seed_fixtures.hpp"
#include "gamefmt/gamefmt.hpp"
#include "support/import_helpers.hpp"

#include <assimp/Importer.hpp>
#include <assimp/material.h>
#include <assimp/scene.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace gamefmt {
namespace {

namespace fs = std::filesystem;

// Each property of each material, looked up by its key, semantic and index, must be that property; returns how
// many properties were checked.
std::size_t ExpectEveryPropertyFindsItself(const aiScene &scene, const std::string &what) {
    std::size_t checked = 0;
    for (unsigned m = 0; m < scene.mNumMaterials; ++m) {
        const aiMaterial *material = scene.mMaterials[m];
        for (unsigned p = 0; p < material->mNumProperties; ++p) {
            const aiMaterialProperty *prop = material->mProperties[p];
            const aiMaterialProperty *found = nullptr;
            aiGetMaterialProperty(material, prop->mKey.C_Str(), prop->mSemantic, prop->mIndex, &found);
            EXPECT_EQ(found, prop) << what << ": material " << m << ", key " << prop->mKey.C_Str() << " finds "
                                   << (found != nullptr ? found->mKey.C_Str() : "nothing");
            ++checked;
        }
    }
    return checked;
}

TEST(MaterialKeys, EveryPropertyIsFoundByItsOwnKey) {
    std::size_t properties = 0;
    std::set<std::string> keys;
    const auto check = [&](const aiScene *scene, const std::string &what) {
        if (scene == nullptr) return;
        properties += ExpectEveryPropertyFindsItself(*scene, what);
        for (unsigned m = 0; m < scene->mNumMaterials; ++m)
            for (unsigned p = 0; p < scene->mMaterials[m]->mNumProperties; ++p)
                keys.insert(scene->mMaterials[m]->mProperties[p]->mKey.C_Str());
    };
    for (const auto &entry : fs::directory_iterator(test::TestDataDir())) {
        if (!entry.is_regular_file()) continue;
        const test::ImportResult r = test::ImportFile(entry.path());
        check(r.scene, entry.path().filename().string());
    }
    for (const auto &[target, files] : fixtures::FuzzSeedSets()) {
        for (const fixtures::Fixture &f : files) {
            const std::unique_ptr<Assimp::Importer> importer = MakeImporter();
            for (const char *hint : {"mesh", "rbxm", "llmesh", "3d"}) {
                const aiScene *scene = importer->ReadFileFromMemory(f.bytes.data(), f.bytes.size(), 0, hint);
                if (scene == nullptr) continue;
                check(scene, target + "/" + f.name);
                break;
            }
        }
    }
    // The Redguard keys that caught Assimp 6's prefix lookup were among those seen.
    EXPECT_EQ(keys.count("$rg.tex_h"), 1u);
    EXPECT_EQ(keys.count("$rg.tex_hi"), 1u);
    EXPECT_GT(properties, 500u);
}

} // namespace
} // namespace gamefmt
