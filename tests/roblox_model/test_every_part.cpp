// Issue #25: every part drawn with its own geometry and look. The oracle (support/rbx_part_oracle.hpp) derives each
// BasePart's mesh bounds, volume, material and transform from the document alone; these tests run it over the
// generated places (the demo, asset, terrain and mixed places, the last in four orders that interleave plain
// parts, unions, mesh assets, decals and terrain), every corpus file, and prove that it fails when a node shows
// another part's mesh or material.
#include "assimp_glue/roblox_model/scene.hpp"
#include "common/compression.hpp"
#include "common/utf8_path.hpp"
#include "fixtures/rbx_place_fixtures.hpp"
#include "gamefmt/config.hpp"
#include "importers/roblox_mesh/mesh.hpp"
#include "importers/roblox_mesh/mesh_reader.hpp"
#include "importers/roblox_model/appearance/appearance.hpp"
#include "importers/roblox_model/document/reader.hpp"
#include "support/import_helpers.hpp"
#include "support/rbx_part_oracle.hpp"

#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>

namespace gamefmt {
namespace {

using test::CheckPartsAgainstSource;
using test::ImportResult;
using test::PartOracleOptions;
using test::PartOracleReport;

// The bounds of LOD 0 of a mesh asset in testdata/rbx-assets, found the way docs/formats/roblox-model.md §5.4 says
// (an id: <id>, <id>.mesh; rbxasset://: the content/ layout), gzip inflated — read with the mesh codec.
std::optional<std::pair<aiVector3D, aiVector3D>> AssetMeshBounds(const std::string &uri) {
    const std::filesystem::path dir = test::TestDataDir() / "rbx-assets";
    std::vector<std::filesystem::path> candidates;
    const std::string id = "rbxassetid://", local = "rbxasset://";
    if (uri.rfind(id, 0) == 0) {
        candidates = {dir / uri.substr(id.size()), dir / (uri.substr(id.size()) + ".mesh")};
    } else if (uri.rfind(local, 0) == 0) {
        candidates = {dir / "content" / uri.substr(local.size())};
    }
    for (const auto &path : candidates) {
        if (!std::filesystem::is_regular_file(path)) continue;
        std::vector<std::uint8_t> bytes = test::ReadBytes(path);
        if (bytes.size() > 2 && bytes[0] == 0x1f && bytes[1] == 0x8b)
            bytes = InflateGzip(bytes.data(), bytes.size(), "test", std::uint64_t(64) << 20);
        const rbxmesh::RobloxMesh mesh = rbxmesh::ReadRobloxMesh(bytes.data(), bytes.size());
        const std::size_t end = mesh.lodOffsets.size() >= 2 ? mesh.lodOffsets[1] : mesh.faces.size();
        const std::size_t begin = mesh.lodOffsets.size() >= 2 ? mesh.lodOffsets[0] : 0;
        aiVector3D lo(INFINITY, INFINITY, INFINITY), hi(-INFINITY, -INFINITY, -INFINITY);
        for (std::size_t f = begin; f < end; ++f) {
            for (std::uint32_t v : {mesh.faces[f].a, mesh.faces[f].b, mesh.faces[f].c}) {
                const rbxmesh::Vertex &p = mesh.vertices[v];
                lo = aiVector3D(std::min(lo.x, p.px), std::min(lo.y, p.py), std::min(lo.z, p.pz));
                hi = aiVector3D(std::max(hi.x, p.px), std::max(hi.y, p.py), std::max(hi.z, p.pz));
            }
        }
        return std::make_pair(lo, hi);
    }
    return std::nullopt;
}

std::string Describe(const PartOracleReport &report) {
    std::ostringstream s;
    s << report.wrong << " of " << report.parts << " parts wrong; drawn as:";
    for (const auto &[kind, count] : report.drawnAs) s << " " << kind << " " << count;
    for (const std::string &p : report.problems) s << "\n  " << p;
    return s.str();
}

struct Checked {
    ImportResult import;
    PartOracleReport report;
};

// Scope::All also draws the parts outside the Workspace (GAMEFMT_RBX_GEOMETRY_SCOPE=all), without terrain.
enum class Scope { Default, All };

Checked ImportAndCheck(const std::vector<std::uint8_t> &bytes, const std::string &hint, bool assets = true,
                       Scope scope = Scope::Default) {
    Checked c;
    c.import = test::ImportMemory(bytes, hint, 0, [&](Assimp::Importer &importer) {
        if (assets) importer.SetPropertyString(GAMEFMT_RBX_ASSET_DIR, (test::TestDataDir() / "rbx-assets").string());
        // The oracle pairs an instance's children with its node's children by position; rigs move part nodes under
        // joint nodes (test_rigs.cpp checks those parts at rest against their CFrames).
        importer.SetPropertyBool(GAMEFMT_RBX_RIGS, false);
        if (scope == Scope::All) {
            importer.SetPropertyString(GAMEFMT_RBX_GEOMETRY_SCOPE, "all");
            importer.SetPropertyBool(GAMEFMT_RBX_TERRAIN, false);
        }
    });
    if (!c.import) {
        ADD_FAILURE() << c.import.error;
        return c;
    }
    const rbx::Document doc = rbx::ReadDocument(bytes.data(), bytes.size());
    PartOracleOptions options;
    options.meshBounds = AssetMeshBounds;
    options.scopeAll = scope == Scope::All;
    c.report = CheckPartsAgainstSource(doc, *c.import.scene, options);
    return c;
}

TEST(RbxEveryPart, DemoPlace) {
    const Checked c = ImportAndCheck(fixtures::DemoPlace(), "rbxl");
    ASSERT_TRUE(c.import);
    EXPECT_EQ(c.report.wrong, 0u) << Describe(c.report);
    EXPECT_EQ(c.report.parts, 36u); // the Workspace's parts (rbx_place_fixtures.hpp)
    EXPECT_EQ(c.report.decals, 3u); // Face, Tiles and Logo
    EXPECT_EQ(c.report.sharedMeshes, c.report.sharedKeys);
}

TEST(RbxEveryPart, AssetPlace) {
    const Checked c = ImportAndCheck(fixtures::AssetPlace(), "rbxl");
    ASSERT_TRUE(c.import);
    EXPECT_EQ(c.report.wrong, 0u) << Describe(c.report);
    EXPECT_EQ(c.report.parts, 6u);
    EXPECT_EQ(c.report.drawnAs.at("mesh"), 5u); // Statue, Statue2, Rig, Shiny, Hatted
    EXPECT_EQ(c.report.drawnAs.at("placeholder"), 1u);
}

TEST(RbxEveryPart, TerrainPlace) {
    // No parts: the oracle's other rule is what is checked here — only the Terrain node shows meshes, all of them
    // terrain surfaces.
    const Checked c = ImportAndCheck(fixtures::TerrainPlace(), "rbxl");
    ASSERT_TRUE(c.import);
    EXPECT_EQ(c.report.wrong, 0u) << Describe(c.report);
    EXPECT_EQ(c.report.parts, 0u);
    const aiNode *terrain = c.import.scene->mRootNode->FindNode("Terrain");
    ASSERT_NE(terrain, nullptr);
    ASSERT_GT(terrain->mNumMeshes, 0u);
    EXPECT_EQ(terrain->mNumMeshes, c.import.scene->mNumMeshes);
    for (unsigned k = 0; k < terrain->mNumMeshes; ++k)
        EXPECT_EQ(std::string(c.import.scene->mMeshes[terrain->mMeshes[k]]->mName.C_Str()).rfind("Terrain_", 0), 0u);
}

// The mixed place in every order: each part its own shape, size and look; identical plain parts share one mesh;
// the place's meshes and materials are the same set whatever the order.
TEST(RbxEveryPart, MixedPlaceInEveryOrder) {
    const fixtures::MixedOrder orders[] = {fixtures::MixedOrder::TerrainAndUnionsFirst,
                                           fixtures::MixedOrder::TerrainAndUnionsLast, fixtures::MixedOrder::RoundRobin,
                                           fixtures::MixedOrder::ReverseRoundRobin};
    std::set<unsigned> meshCounts, materialCounts;
    for (const fixtures::MixedOrder order : orders) {
        SCOPED_TRACE(static_cast<int>(order));
        const Checked c = ImportAndCheck(fixtures::MixedPlace(order), "rbxl");
        ASSERT_TRUE(c.import);
        EXPECT_EQ(c.report.wrong, 0u) << Describe(c.report);
        EXPECT_EQ(c.report.parts, 14u + 5 + 6 + 2) << Describe(c.report);
        EXPECT_EQ(c.report.decals, 2u);
        // 16 plain parts (with Sign and Floor): Brick × 3 and Cube × 2 repeat, so 13 distinct shape-size-looks, and
        // 13 meshes.
        EXPECT_EQ(c.report.sharedKeys, 13u);
        EXPECT_EQ(c.report.sharedMeshes, 13u);
        EXPECT_EQ(c.report.drawnAs.at("union-mesh"), 3u);
        EXPECT_EQ(c.report.drawnAs.at("union-hull"), 1u);
        EXPECT_EQ(c.report.drawnAs.at("union-parts"), 1u);
        EXPECT_EQ(c.report.drawnAs.at("mesh"), 5u); // Statue × 2, Rig, Plain, Hatted
        EXPECT_EQ(c.report.drawnAs.at("placeholder"), 1u);
        // The two Statues share their mesh; so do the two MeshUnions.
        const aiNode *root = c.import.scene->mRootNode;
        const aiNode *statue = root->FindNode("Statue"), *statue1 = root->FindNode("Statue.1");
        ASSERT_TRUE(statue && statue1);
        EXPECT_EQ(statue->mMeshes[0], statue1->mMeshes[0]);
        const aiNode *u0 = root->FindNode("MeshUnion"), *u1 = root->FindNode("MeshUnion.1");
        ASSERT_TRUE(u0 && u1 && u0->mNumMeshes == u1->mNumMeshes);
        EXPECT_EQ(u0->mMeshes[0], u1->mMeshes[0]);
        meshCounts.insert(c.import.scene->mNumMeshes);
        materialCounts.insert(c.import.scene->mNumMaterials);
    }
    EXPECT_EQ(meshCounts.size(), 1u);
    EXPECT_EQ(materialCounts.size(), 1u);
}

// The oracle is not blind: a node given another part's mesh, or a mesh another look's material, fails it.
TEST(RbxEveryPart, OracleSeesAnotherPartsMeshOrMaterial) {
    const std::vector<std::uint8_t> bytes = fixtures::MixedPlace(fixtures::MixedOrder::RoundRobin);
    const Checked c = ImportAndCheck(bytes, "rbxl");
    ASSERT_TRUE(c.import);
    ASSERT_EQ(c.report.wrong, 0u) << Describe(c.report);
    const rbx::Document doc = rbx::ReadDocument(bytes.data(), bytes.size());
    auto *scene = const_cast<aiScene *>(c.import.scene); // ours to spoil: the importer owns it
    aiNode *cube = scene->mRootNode->FindNode("Cube");
    aiNode *bigCube = scene->mRootNode->FindNode("BigCube");
    ASSERT_TRUE(cube && bigCube);
    EXPECT_TRUE(glue::CheckRobloxParts(*scene).empty());
    std::swap(cube->mMeshes[0], bigCube->mMeshes[0]); // same look, other size
    PartOracleOptions options;
    options.meshBounds = AssetMeshBounds;
    const PartOracleReport swapped = CheckPartsAgainstSource(doc, *scene, options);
    EXPECT_EQ(swapped.wrong, 2u) << Describe(swapped);
    // validate --strict's scene invariant sees it too, naming both parts.
    const std::vector<std::string> found = glue::CheckRobloxParts(*scene);
    ASSERT_EQ(found.size(), 2u);
    EXPECT_EQ(found[0].rfind("'Cube' (Part) shows a 3x3x3 mesh", 0), 0u) << found[0];
    EXPECT_NE(found[1].find("'BigCube' (Part) shows a 1x1x1 mesh"), std::string::npos) << found[1];
    std::swap(cube->mMeshes[0], bigCube->mMeshes[0]);

    aiNode *brick = scene->mRootNode->FindNode("Brick");
    aiNode *red = scene->mRootNode->FindNode("RedBrick");
    ASSERT_TRUE(brick && red);
    aiMesh *mesh = scene->mMeshes[brick->mMeshes[0]];
    const unsigned own = mesh->mMaterialIndex;
    mesh->mMaterialIndex = scene->mMeshes[red->mMeshes[0]]->mMaterialIndex; // same size, other colour
    const PartOracleReport recoloured = CheckPartsAgainstSource(doc, *scene, options);
    EXPECT_EQ(recoloured.wrong, 3u) << Describe(recoloured); // the three Bricks
    EXPECT_EQ(glue::CheckRobloxParts(*scene).size(), 3u);
    mesh->mMaterialIndex = own;

    // A union drawn from its source parts: each piece in the look of one of them (red and blue), not a brick's.
    aiNode *parts = scene->mRootNode->FindNode("PartsUnion");
    ASSERT_TRUE(parts && parts->mNumMeshes == 2);
    aiMesh *piece = scene->mMeshes[parts->mMeshes[1]];
    const unsigned pieceOwn = piece->mMaterialIndex;
    piece->mMaterialIndex = scene->mMeshes[brick->mMeshes[0]]->mMaterialIndex;
    const PartOracleReport borrowed = CheckPartsAgainstSource(doc, *scene, options);
    EXPECT_EQ(borrowed.wrong, 1u) << Describe(borrowed);
    piece->mMaterialIndex = pieceOwn;
    EXPECT_EQ(CheckPartsAgainstSource(doc, *scene, options).wrong, 0u);
}

// The BrickColor palette the oracle relies on for parts without Color3uint8 is the reference's
// (docs/formats/roblox-brickcolor-palette.tsv, typed apart from the code's table), number by number.
TEST(RbxEveryPart, BrickColorPaletteIsTheReferences) {
    const std::filesystem::path tsv =
        PathFromUtf8(GAMEFMT_SOURCE_DIR) / "docs" / "formats" / "roblox-brickcolor-palette.tsv";
    std::ifstream in(tsv);
    ASSERT_TRUE(in) << PathToUtf8(tsv);
    std::string line;
    std::size_t rows = 0;
    while (std::getline(in, line)) {
        std::istringstream cells(line);
        std::string number, name, r, g, b;
        if (!std::getline(cells, number, '\t') || !std::getline(cells, name, '\t') || !std::getline(cells, r, '\t') ||
            !std::getline(cells, g, '\t') || !std::getline(cells, b, '\t'))
            continue;
        if (number.empty() || !std::isdigit(static_cast<unsigned char>(number[0]))) continue; // the header
        const auto rgb = rbx::BrickColorRgb(static_cast<std::uint32_t>(std::stoul(number)));
        ASSERT_TRUE(rgb) << number;
        EXPECT_EQ(rgb->r, std::stoi(r)) << number;
        EXPECT_EQ(rgb->g, std::stoi(g)) << number;
        EXPECT_EQ(rgb->b, std::stoi(b)) << number;
        ++rows;
    }
    EXPECT_EQ(rows, 208u);
}

// Every Roblox file of the corpus (rbx-test-files and the real modern places): no part drawn with another's geometry
// or look. The lobby alone has 19,750 parts: before issue #25's fix 18,720 of them showed another part's mesh.
TEST(RbxEveryPart, EveryCorpusFile) {
    GAMEFMT_REQUIRE_CORPUS(dir, "rbx");
    std::size_t files = 0, parts = 0;
    for (const auto &entry : std::filesystem::recursive_directory_iterator(dir)) {
        const std::string ext = entry.path().extension().string();
        if (ext != ".rbxl" && ext != ".rbxm" && ext != ".rbxlx" && ext != ".rbxmx") continue;
        SCOPED_TRACE(entry.path().string());
        const std::vector<std::uint8_t> bytes = test::ReadBytes(entry.path());
        ++files;
        for (const Scope scope : {Scope::Default, Scope::All}) {
            const Checked c = ImportAndCheck(bytes, ext.substr(1), false, scope);
            if (!c.import) break;
            parts += c.report.parts;
            EXPECT_EQ(c.report.wrong, 0u) << Describe(c.report);
            EXPECT_EQ(c.report.sharedMeshes, c.report.sharedKeys) << Describe(c.report);
            const std::vector<std::string> invariant = glue::CheckRobloxParts(*c.import.scene);
            EXPECT_TRUE(invariant.empty()) << invariant.size() << " parts, the first: " << invariant[0];
            if (entry.path().parent_path().filename() == "public-places")
                std::printf("%s (scope %s): %s; %u meshes, %u materials\n", entry.path().filename().string().c_str(),
                            scope == Scope::All ? "all" : "default", Describe(c.report).c_str(),
                            c.import.scene->mNumMeshes, c.import.scene->mNumMaterials);
        }
    }
    EXPECT_GE(files, 100u);
    EXPECT_GE(parts, 40000u);
}

} // namespace
} // namespace gamefmt
