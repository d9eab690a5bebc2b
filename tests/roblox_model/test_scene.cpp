// Roblox model/place import and export through Assimp (docs/formats/roblox-model.md §5.1, §6): node tree, metadata,
// CFrame transforms, split long values, and file → aiScene → file round trips (API and CLI).
#include "assimp_glue/roblox_model/exporter.hpp"
#include "assimp_glue/roblox_model/scene.hpp"

#include "cli.hpp"
#include "common/compression.hpp"
#include "fixtures/rbx_fixtures.hpp"
#include "gamefmt/config.hpp"
#include "gamefmt/gamefmt.hpp"
#include "gamefmt/metadata.hpp"
#include "importers/roblox_model/document/binary_reader.hpp"
#include "importers/roblox_model/document/dom.hpp"
#include "importers/roblox_model/document/reader.hpp"
#include "importers/roblox_model/document/value_text.hpp"
#include "importers/roblox_model/document/xml_writer.hpp"
#include "support/expect_error.hpp"
#include "support/import_helpers.hpp"
#include "support/rbx_compare.hpp"

#include <assimp/Exporter.hpp>
#include <assimp/scene.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>
#include <optional>
#include <sstream>

namespace gamefmt {
namespace {

using test::ImportFile;
using test::ImportMemory;
using test::ImportResult;

// Nodes that stand for instances: joint nodes of rigs (rbx.joint) are not, and an animation clip's node stands for
// the instances below it too (rbx.collapsed: its Keyframes and Poses have no nodes).
std::size_t CountNodes(const aiNode *node) {
    std::string joint;
    std::size_t n = node->mMetaData != nullptr && GetMetadataText(node->mMetaData, "rbx.joint", joint) ? 0 : 1;
    if (node->mMetaData != nullptr)
        if (const std::optional<std::int64_t> below = GetMetadataInt(node->mMetaData, "rbx.collapsed"))
            n += static_cast<std::size_t>(*below);
    for (unsigned i = 0; i < node->mNumChildren; ++i) n += CountNodes(node->mChildren[i]);
    return n;
}

const aiNode *FindNode(const aiNode *node, const std::string &name) {
    if (node->mName.C_Str() == name) return node;
    for (unsigned i = 0; i < node->mNumChildren; ++i)
        if (const aiNode *found = FindNode(node->mChildren[i], name)) return found;
    return nullptr;
}

std::string MetaString(const aiMetadata *md, const char *key) {
    aiString s;
    if (md == nullptr || !md->Get(key, s)) return "<absent>";
    return s.C_Str();
}

// Scene options that also put the property bag on every node (GAMEFMT_RBX_NODE_PROPERTIES).
glue::RobloxSceneOptions WithNodeProperties() {
    glue::RobloxSceneOptions options;
    options.nodeProperties = true;
    return options;
}

void SetNodeProperties(Assimp::Importer &importer) {
    importer.SetPropertyBool(GAMEFMT_RBX_NODE_PROPERTIES, true);
}

// The node's metadata, where the property bag lives as "rbx.props.<name>" entries.
const aiMetadata *Props(const aiNode *node) {
    return node->mMetaData;
}

rbx::Document ReadFileDocument(const std::filesystem::path &path) {
    const std::vector<std::uint8_t> bytes = test::ReadBytes(path);
    return rbx::ReadDocument(bytes.data(), bytes.size());
}

rbx::Document SceneDocument(const aiScene &scene) {
    rbx::Document doc;
    glue::DocumentFromScene(scene, doc);
    return doc;
}

void SetCFrame(rbx::Document &doc, std::uint32_t index, const rbx::CFrame &cf) {
    rbx::Property p;
    p.name = doc.names.intern("CFrame");
    p.value.type = rbx::Type::CFrame;
    p.value.data = cf;
    doc.instances[index].properties.push_back(p);
}

void ExpectMatrix(const aiMatrix4x4 &m, const float (&expected)[12], const char *what) {
    const float got[12] = {m.a1, m.a2, m.a3, m.a4, m.b1, m.b2, m.b3, m.b4, m.c1, m.c2, m.c3, m.c4};
    for (int i = 0; i < 12; ++i) EXPECT_NEAR(got[i], expected[i], 1e-5f) << what << " element " << i;
    EXPECT_EQ(m.d1, 0.0f);
    EXPECT_EQ(m.d4, 1.0f);
}

// Model → Part P1 (rotated 90° about Y, at (10,0,0)) → Part P2 (identity at (10,5,0)) → Attachment (parent
// relative (0,1,0)); P2 → Folder → Part P3 at (0,0,3); a second "P1" and an instance named DataModel.
rbx::Document FramesDocument() {
    rbx::Document doc;
    const auto model = doc.addInstance("Model", "M");
    const auto p1 = doc.addInstance("Part", "P1");
    const auto p2 = doc.addInstance("Part", "P2");
    const auto att = doc.addInstance("Attachment", "A");
    const auto folder = doc.addInstance("Folder", "F");
    const auto p3 = doc.addInstance("Part", "P1");
    const auto dm = doc.addInstance("Folder", "DataModel");
    doc.setParent(model, rbx::kNoInstance);
    doc.setParent(p1, model);
    doc.setParent(p2, p1);
    doc.setParent(att, p2);
    doc.setParent(folder, p2);
    doc.setParent(p3, folder);
    doc.setParent(dm, rbx::kNoInstance);
    for (std::uint32_t i = 0; i < doc.instances.size(); ++i) doc.instances[i].referent = std::to_string(i);
    rbx::CFrame c1;
    c1.position = {10, 0, 0};
    c1.rotation = {0, 0, 1, 0, 1, 0, -1, 0, 0}; // +90° about Y: right = (0,0,-1)
    SetCFrame(doc, p1, c1);
    rbx::CFrame c2;
    c2.position = {10, 5, 0};
    SetCFrame(doc, p2, c2);
    rbx::CFrame ca;
    ca.position = {0, 1, 0};
    SetCFrame(doc, att, ca);
    rbx::CFrame c3;
    c3.position = {0, 0, 3};
    SetCFrame(doc, p3, c3);
    return doc;
}

TEST(RbxScene, NodesNamesAndTransforms) {
    const rbx::Document doc = FramesDocument();
    auto scene = std::make_unique<aiScene>();
    glue::RobloxSceneOptions options = WithNodeProperties();
    options.geometry.enabled = false;
    glue::BuildRobloxModelScene(doc, scene.get(), options);
    ASSERT_NE(scene->mRootNode, nullptr);
    EXPECT_STREQ(scene->mRootNode->mName.C_Str(), "DataModel");
    EXPECT_EQ(CountNodes(scene->mRootNode), doc.instances.size() + 1);
    // Nodes only (GAMEFMT_RBX_GEOMETRY off): flagged INCOMPLETE, as Assimp requires of a scene without meshes.
    EXPECT_NE(scene->mFlags & AI_SCENE_FLAGS_INCOMPLETE, 0u);
    EXPECT_EQ(scene->mNumMeshes, 0u);
    EXPECT_EQ(scene->mNumMaterials, 0u);

    // Unique names in document order; originals in metadata.
    const aiNode *p3 = FindNode(scene->mRootNode, "P1.1");
    ASSERT_NE(p3, nullptr);
    EXPECT_EQ(MetaString(p3->mMetaData, "rbx.Name"), "P1");
    EXPECT_EQ(MetaString(p3->mMetaData, "rbx.ClassName"), "Part");
    EXPECT_EQ(MetaString(p3->mMetaData, "rbx.Referent"), "5");
    ASSERT_NE(FindNode(scene->mRootNode, "DataModel.1"), nullptr);

    // P1's parent (Model) has no frame: its node transform is its world CFrame, rows (R0 X)(R1 Y)(R2 Z).
    const aiNode *p1 = FindNode(scene->mRootNode, "P1");
    ASSERT_NE(p1, nullptr);
    ExpectMatrix(p1->mTransformation, {0, 0, 1, 10, 0, 1, 0, 0, -1, 0, 0, 0}, "P1");
    // P2 world (10,5,0) identity, relative to P1: inverse(P1) × P2 = rotation -90° about Y, offset (0,5,0).
    const aiNode *p2 = FindNode(scene->mRootNode, "P2");
    ASSERT_NE(p2, nullptr);
    ExpectMatrix(p2->mTransformation, {0, 0, -1, 0, 0, 1, 0, 5, 1, 0, 0, 0}, "P2");
    // The Attachment's CFrame is already parent-relative.
    const aiNode *a = FindNode(scene->mRootNode, "A");
    ASSERT_NE(a, nullptr);
    ExpectMatrix(a->mTransformation, {1, 0, 0, 0, 0, 1, 0, 1, 0, 0, 1, 0}, "Attachment");
    // P3 under a Folder under P2: relative to P2's world (the Folder is identity).
    const aiNode *f = FindNode(scene->mRootNode, "F");
    ASSERT_NE(f, nullptr);
    EXPECT_TRUE(f->mTransformation.IsIdentity());
    ExpectMatrix(p3->mTransformation, {1, 0, 0, -10, 0, 1, 0, -5, 0, 0, 1, 3}, "P3");
    // The raw CFrame stays in the property bag.
    EXPECT_EQ(MetaString(Props(p1), "rbx.props.CFrame"), "CFrame:10 0 0 0 0 1 0 1 0 -1 0 0");

    // And back: the document rebuilt from metadata alone equals the original.
    EXPECT_EQ(rbx::CompareDocuments(doc, SceneDocument(*scene)), "");
}

// Model M { Part A (Ref "Target" -> B), Part B, Folder F { Part C } }.
rbx::Document EditableDocument() {
    rbx::Document doc;
    const auto m = doc.addInstance("Model", "M", rbx::kNoInstance);
    const auto a = doc.addInstance("Part", "A", m);
    const auto b = doc.addInstance("Part", "B", m);
    const auto f = doc.addInstance("Folder", "F", m);
    doc.addInstance("Part", "C", f);
    rbx::Property ref;
    ref.name = doc.names.intern("Target");
    ref.value.type = rbx::Type::Ref;
    ref.value.data = rbx::RefValue{b};
    doc.instances[a].properties.push_back(ref);
    return doc;
}

// Detaches `child` from `parent`'s child list (the caller owns it afterwards).
void Detach(aiNode *parent, const aiNode *child) {
    unsigned n = 0;
    for (unsigned i = 0; i < parent->mNumChildren; ++i)
        if (parent->mChildren[i] != child) parent->mChildren[n++] = parent->mChildren[i];
    parent->mNumChildren = n;
}

TEST(RbxScene, DefaultScenesCarryTheFileNotPerNodeBags) {
    const rbx::Document doc = EditableDocument();
    auto scene = std::make_unique<aiScene>();
    glue::BuildRobloxModelScene(doc, scene.get());
    EXPECT_TRUE(glue::IsRobloxModelScene(*scene));
    EXPECT_EQ(CountNodes(scene->mRootNode), 6u);
    // No metadata on instance nodes: an aiMetadata entry costs ~2 KB whatever it holds (issue #11).
    std::vector<const aiNode *> stack{scene->mRootNode};
    while (!stack.empty()) {
        const aiNode *node = stack.back();
        stack.pop_back();
        EXPECT_EQ(node->mMetaData, nullptr) << node->mName.C_Str();
        for (unsigned i = 0; i < node->mNumChildren; ++i) stack.push_back(node->mChildren[i]);
    }
    // rbx.source: the document's XML as one zstd frame (magic 28 B5 2F FD), rbx.sourceSize its inflated size.
    std::vector<std::uint8_t> source;
    ASSERT_TRUE(gamefmt::GetMetadataBlob(scene->mMetaData, glue::kRbxSource, source));
    ASSERT_GE(source.size(), 4u);
    EXPECT_EQ(source[0], 0x28);
    EXPECT_EQ(source[1], 0xB5);
    EXPECT_EQ(source[2], 0x2F);
    EXPECT_EQ(source[3], 0xFD);
    EXPECT_EQ(gamefmt::GetMetadataInt(scene->mMetaData, glue::kRbxSourceSize),
              static_cast<std::int64_t>(rbx::WriteXml(doc).size()));
    // Untouched, the document comes back exactly.
    EXPECT_EQ(rbx::CompareDocuments(doc, SceneDocument(*scene)), "");
}

TEST(RbxScene, LongDuplicateNamesStillFindTheirInstances) {
    // Two instances whose 1,100-byte names are equal: node names are cut and numbered within an aiString's
    // 1,023 bytes, and the way back finds both (a name cut differently would drop them on export).
    rbx::Document doc;
    const std::string longName(1100, 'n');
    for (int i = 0; i < 2; ++i) doc.setParent(doc.addInstance("Folder", longName), rbx::kNoInstance);
    auto scene = std::make_unique<aiScene>();
    glue::BuildRobloxModelScene(doc, scene.get());
    ASSERT_EQ(scene->mRootNode->mNumChildren, 2u);
    EXPECT_EQ(std::string(scene->mRootNode->mChildren[0]->mName.C_Str()), std::string(1000, 'n'));
    EXPECT_EQ(std::string(scene->mRootNode->mChildren[1]->mName.C_Str()), std::string(1000, 'n') + ".1");
    EXPECT_EQ(rbx::CompareDocuments(doc, SceneDocument(*scene)), "");
}

TEST(RbxScene, NodeTreeEditsReachTheDocument) {
    const rbx::Document doc = EditableDocument();
    auto scene = std::make_unique<aiScene>();
    glue::BuildRobloxModelScene(doc, scene.get());
    aiNode *m =
        FindNode(scene->mRootNode, "M") == nullptr ? nullptr : const_cast<aiNode *>(FindNode(scene->mRootNode, "M"));
    ASSERT_NE(m, nullptr);
    aiNode *b = const_cast<aiNode *>(FindNode(m, "B"));
    aiNode *f = const_cast<aiNode *>(FindNode(m, "F"));
    ASSERT_TRUE(b != nullptr && f != nullptr);
    // Delete B; move C from F to the end of M.
    Detach(m, b);
    delete b;
    aiNode *c = f->mChildren[0];
    Detach(f, c);
    aiNode **grown = new aiNode *[m->mNumChildren + 1];
    std::copy(m->mChildren, m->mChildren + m->mNumChildren, grown);
    grown[m->mNumChildren] = c;
    delete[] m->mChildren;
    m->mChildren = grown;
    ++m->mNumChildren;
    c->mParent = m;

    const rbx::Document edited = SceneDocument(*scene);
    ASSERT_EQ(edited.instances.size(), 4u);
    ASSERT_EQ(edited.roots.size(), 1u);
    const rbx::Instance &model = edited.instances[edited.roots[0]];
    EXPECT_EQ(model.name, "M");
    ASSERT_EQ(model.children.size(), 3u);
    EXPECT_EQ(edited.instances[model.children[0]].name, "A");
    EXPECT_EQ(edited.instances[model.children[1]].name, "F");
    EXPECT_EQ(edited.instances[model.children[2]].name, "C");
    EXPECT_TRUE(edited.instances[model.children[1]].children.empty());
    // A's Ref to the deleted B is null now.
    const rbx::Property *target = edited.findProperty(edited.instances[model.children[0]], "Target");
    ASSERT_NE(target, nullptr);
    EXPECT_EQ(target->value.as<rbx::RefValue>().target, rbx::kNoInstance);
    // A renamed node names no instance: it and its subtree's instances are gone, its children move up.
    aiNode *fNode = const_cast<aiNode *>(FindNode(m, "F"));
    fNode->mName = aiString("Renamed");
    EXPECT_EQ(SceneDocument(*scene).instances.size(), 3u);
}

TEST(RbxScene, DriftingRotationIsReorthonormalisedButKeptRaw) {
    rbx::Document doc;
    const auto p = doc.addInstance("Part", "P", rbx::kNoInstance);
    rbx::CFrame cf;
    cf.rotation = {2, 0, 0, 0, 1, 0, 0, 0, 1}; // scaled X: not rigid
    SetCFrame(doc, p, cf);
    auto scene = std::make_unique<aiScene>();
    glue::BuildRobloxModelScene(doc, scene.get(), WithNodeProperties());
    const aiNode *node = FindNode(scene->mRootNode, "P");
    ASSERT_NE(node, nullptr);
    ExpectMatrix(node->mTransformation, {1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0}, "P");
    EXPECT_EQ(MetaString(Props(node), "rbx.props.CFrame"), "CFrame:0 0 0 2 0 0 0 1 0 0 0 1");
}

TEST(RbxScene, EveryTypeSurvivesTheMetadata) {
    namespace fx = fixtures::rbx;
    for (const auto &bytes : {fx::AllTypes(), fx::UnknownChunk(), fx::UnknownTypeId()}) {
        const ImportResult r = ImportMemory(bytes, "rbxm");
        ASSERT_TRUE(r) << r.error;
        EXPECT_TRUE(r.validationWarnings.empty());
        const rbx::Document original = rbx::ReadBinary(bytes.data(), bytes.size());
        rbx::CompareOptions exact;
        exact.ignoreUnknown = false;
        EXPECT_EQ(rbx::CompareDocuments(original, SceneDocument(*r.scene), exact), "");
        EXPECT_EQ(CountNodes(r.scene->mRootNode), original.instances.size() + 1);
    }
}

// A scene that is not a Roblox model goes the generic way (§6; test_generic_export.cpp has the geometry): through
// Exporter::Export's copy too, the model and its sidecar mesh are written; the one-buffer entry refuses it.
TEST(RbxScene, GenericScenesGetSidecarsThroughTheExporter) {
    const ImportResult r = ImportFile(test::TestDataDir() / "cube.obj");
    ASSERT_TRUE(r) << r.error;
    Assimp::Exporter exporter;
    RegisterExporters(exporter);
    const auto dir = test::ScratchDir("rbx_generic_export");
    ASSERT_EQ(exporter.Export(r.scene, "rbxm", (dir / "x.rbxm").string()), AI_SUCCESS) << exporter.GetErrorString();
    const std::vector<std::uint8_t> mesh = test::ReadBytes(dir / "x_0.mesh");
    ASSERT_GE(mesh.size(), 12u);
    EXPECT_EQ(std::string(mesh.begin(), mesh.begin() + 12), "version 4.00");
    EXPECT_FALSE(std::filesystem::exists(dir / "x_1.mesh"));
    EXPECT_THROW(glue::ExportRobloxModelToBytes(*r.scene, false, nullptr), FormatError);
}

// ------------------------------------------------------------------ corpus

std::vector<std::filesystem::path> CorpusFiles(const std::filesystem::path &dir) {
    std::vector<std::filesystem::path> files;
    for (const auto &entry : std::filesystem::recursive_directory_iterator(dir)) {
        const std::string ext = entry.path().extension().string();
        if (ext == ".rbxm" || ext == ".rbxmx" || ext == ".rbxl" || ext == ".rbxlx") files.push_back(entry.path());
    }
    std::sort(files.begin(), files.end());
    return files;
}

TEST(RbxScene, EveryCorpusFileImports) {
    GAMEFMT_REQUIRE_CORPUS(dir, "rbx/rbx-test-files");
    std::size_t files = 0;
    for (const auto &path : CorpusFiles(dir)) {
        ++files;
        const ImportResult r = ImportFile(path);
        ASSERT_TRUE(r) << path << ": " << r.error;
        EXPECT_TRUE(r.validationWarnings.empty()) << path;
        // Geometry is test_geometry.cpp's; a scene without any is flagged INCOMPLETE, as Assimp requires.
        EXPECT_EQ((r.scene->mFlags & AI_SCENE_FLAGS_INCOMPLETE) != 0, r.scene->mNumMeshes == 0) << path;
        const rbx::Document doc = ReadFileDocument(path);
        EXPECT_EQ(CountNodes(r.scene->mRootNode), doc.instances.size() + 1) << path;
        const std::string ext = path.extension().string();
        EXPECT_EQ(MetaString(r.scene->mMetaData, "rbx.format"), ext.back() == 'x' ? "xml" : "binary") << path;
        const bool place = ext.rfind(".rbxl", 0) == 0;
        EXPECT_EQ(test::SourceFormat(r.scene), place ? "Roblox place" : "Roblox model") << path;
    }
    EXPECT_GT(files, 100u);
}

TEST(RbxScene, ThreeUniquePartsMetadataAndTransforms) {
    GAMEFMT_REQUIRE_CORPUS(dir, "rbx/rbx-test-files/models/three-unique-parts");
    // Values from xml.rbxmx: names, referents, CFrame positions (rotations are identity).
    struct Expected {
        const char *name;
        const char *xmlReferent;
        float x, y, z;
    };
    const Expected parts[] = {{"Brush your teeth", "RBXD1B98657BBF64E86BE278F632E9BC063", -5.5f, 4, -12.5f},
                              {"Eat your greens", "RBXEA60B6CEA74C448DBAC338302E996316", -11.5f, -0.499992996f, -17.5f},
                              {"Live wildly", "RBX3C7615EE664C45AFBB9C9CAE13EF4FDF", 5.5f, 8.5f, -25.5f}};
    for (const char *file : {"xml.rbxmx", "binary.rbxm"}) {
        const ImportResult r = ImportFile(dir / file, 0, SetNodeProperties);
        ASSERT_TRUE(r) << r.error;
        ASSERT_EQ(r.scene->mRootNode->mNumChildren, 3u);
        for (const Expected &e : parts) {
            const aiNode *node = FindNode(r.scene->mRootNode, e.name);
            ASSERT_NE(node, nullptr) << e.name;
            EXPECT_EQ(node->mParent, r.scene->mRootNode);
            EXPECT_EQ(MetaString(node->mMetaData, "rbx.ClassName"), "Part");
            EXPECT_EQ(MetaString(node->mMetaData, "rbx.Name"), e.name);
            if (std::string(file) == "xml.rbxmx") {
                EXPECT_EQ(MetaString(node->mMetaData, "rbx.Referent"), e.xmlReferent);
            }
            ExpectMatrix(node->mTransformation, {1, 0, 0, e.x, 0, 1, 0, e.y, 0, 0, 1, e.z}, e.name);
            const std::string cframe = MetaString(Props(node), "rbx.props.CFrame");
            EXPECT_EQ(cframe.rfind("CFrame:", 0), 0u) << cframe;
        }
        // Studio binary referents are 0..N-1 in pre-order.
        if (std::string(file) == "binary.rbxm") {
            EXPECT_EQ(MetaString(FindNode(r.scene->mRootNode, "Brush your teeth")->mMetaData, "rbx.Referent"), "0");
        }
    }
}

TEST(RbxScene, NestedFoldersKeepTheTree) {
    GAMEFMT_REQUIRE_CORPUS(dir, "rbx/rbx-test-files/models/three-nested-folders");
    const ImportResult r = ImportFile(dir / "binary.rbxm", 0, SetNodeProperties);
    ASSERT_TRUE(r) << r.error;
    const aiNode *g = FindNode(r.scene->mRootNode, "Grandparent");
    ASSERT_NE(g, nullptr);
    ASSERT_EQ(g->mNumChildren, 1u);
    EXPECT_STREQ(g->mChildren[0]->mName.C_Str(), "Parent");
    ASSERT_EQ(g->mChildren[0]->mNumChildren, 1u);
    EXPECT_STREQ(g->mChildren[0]->mChildren[0]->mName.C_Str(), "Child");
    EXPECT_EQ(MetaString(g->mMetaData, "rbx.ClassName"), "Folder");
}

TEST(RbxScene, LongValuesAreSplitAndRejoined) {
    GAMEFMT_REQUIRE_CORPUS(dir, "rbx/rbx-test-files/models/unions");
    const auto path = dir / "binary.rbxm";
    const ImportResult r = ImportFile(path, 0, SetNodeProperties);
    ASSERT_TRUE(r) << r.error;
    const rbx::Document doc = ReadFileDocument(path);
    std::size_t split = 0;
    for (std::uint32_t i = 0; i < doc.instances.size(); ++i) {
        const rbx::Property *p = doc.findProperty(doc.instances[i], "ChildData");
        if (p == nullptr) continue;
        const std::string text = rbx::FormatValue(doc, p->value);
        if (text.size() <= 1000) continue;
        const aiNode *node = FindNode(r.scene->mRootNode, doc.instances[i].name); // first such name
        ASSERT_NE(node, nullptr);
        const aiMetadata *props = Props(node);
        ASSERT_NE(props, nullptr);
        // The long form of gamefmt/metadata.hpp: the text's length, then parts of at most 1000 bytes.
        std::uint64_t length = 0;
        EXPECT_TRUE(props->Get("rbx.props.ChildData", length) && length == text.size());
        std::string joined;
        for (unsigned part = 0; joined.size() < text.size(); ++part) {
            const std::string piece = MetaString(props, ("rbx.props.ChildData#" + std::to_string(part)).c_str());
            ASSERT_FALSE(piece.empty());
            EXPECT_LE(piece.size(), 1000u);
            joined += piece;
        }
        EXPECT_EQ(joined, text);
        std::string viaHelper;
        ASSERT_TRUE(gamefmt::GetMetadataText(props, "rbx.props.ChildData", viaHelper));
        EXPECT_EQ(viaHelper, text);
        ++split;
        break;
    }
    EXPECT_EQ(split, 1u) << "models/unions has a ChildData over 1000 bytes of text";
}

// rbx.source comes from the scene, so it is untrusted too: a frame that is not zstd, a size that disagrees
// with the frame, a missing size and text that is not base64 are FormatErrors, never a crash.
TEST(RbxScene, MalformedSourceMetadataIsAFormatError) {
    const auto attempt = [](const std::vector<std::uint8_t> *blob, std::optional<std::uint64_t> size,
                            const char *text) {
        aiScene scene;
        scene.mRootNode = new aiNode("DataModel");
        gamefmt::MetadataBuilder md;
        if (blob != nullptr) md.addBlob(glue::kRbxSource, *blob);
        if (text != nullptr) md.add(glue::kRbxSource, text);
        if (size) md.add(glue::kRbxSourceSize, *size);
        scene.mMetaData = md.build();
        rbx::Document doc;
        return gamefmt::test::Thrown([&] { glue::DocumentFromScene(scene, doc); }).message();
    };
    const std::string xml = "<roblox version=\"4\"></roblox>";
    const std::vector<std::uint8_t> frame =
        gamefmt::CompressZstdFrame(reinterpret_cast<const std::uint8_t *>(xml.data()), xml.size());
    const std::vector<std::uint8_t> notZstd = {1, 2, 3, 4, 5, 6, 7, 8};
    EXPECT_NE(attempt(&notZstd, 8, nullptr), "");
    EXPECT_NE(attempt(&frame, xml.size() + 1, nullptr), ""); // the frame says another size
    EXPECT_NE(attempt(&frame, std::nullopt, nullptr).find("rbx.sourceSize"), std::string::npos);
    EXPECT_NE(attempt(nullptr, 3, "not base64!").find("not base64"), std::string::npos);
    // The well-formed frame decodes; the empty document then fails later, at the node tree (no node names
    // an instance), which shows the source itself was read.
    EXPECT_NE(attempt(&frame, xml.size(), nullptr).find("no node of the scene names an instance"), std::string::npos);
}

// file → aiScene → blob (both exporters) → document equals the original document.
TEST(RbxScene, ExportToBlobRoundTrips) {
    GAMEFMT_REQUIRE_CORPUS(dir, "rbx/rbx-test-files");
    Assimp::Exporter exporter;
    RegisterExporters(exporter);
    for (const char *rel : {"places/baseplate-566/binary.rbxl", "places/all-instances-415/xml.rbxlx",
                            "models/unions/binary.rbxm", "models/attributes/xml.rbxmx"}) {
        const auto path = dir / rel;
        const ImportResult r = ImportFile(path);
        ASSERT_TRUE(r) << rel << ": " << r.error;
        const rbx::Document original = ReadFileDocument(path);
        for (const char *id : {"rbxm", "rbxmx"}) {
            const aiExportDataBlob *blob = exporter.ExportToBlob(r.scene, id);
            ASSERT_NE(blob, nullptr) << rel << " " << id << ": " << exporter.GetErrorString();
            const rbx::Document back = rbx::ReadDocument(static_cast<const std::uint8_t *>(blob->data), blob->size);
            EXPECT_EQ(rbx::CompareDocuments(original, back), "") << rel << " via " << id;
        }
    }
}

TEST(RbxScene, ExportCompressionOption) {
    const auto bytes = fixtures::rbx::ThreeFolders();
    const ImportResult r = ImportMemory(bytes, "rbxm");
    ASSERT_TRUE(r) << r.error;
    Assimp::Exporter exporter;
    RegisterExporters(exporter);
    Assimp::ExportProperties props;
    props.SetPropertyString("GAMEFMT_RBX_EXPORT_COMPRESSION", "zstd");
    const aiExportDataBlob *blob = exporter.ExportToBlob(r.scene, "rbxm", 0, &props);
    ASSERT_NE(blob, nullptr) << exporter.GetErrorString();
    const std::string data(static_cast<const char *>(blob->data), blob->size);
    EXPECT_NE(data.find("\x28\xB5\x2F\xFD"), std::string::npos); // a zstd frame
    const rbx::Document back = rbx::ReadDocument(static_cast<const std::uint8_t *>(blob->data), blob->size);
    EXPECT_EQ(rbx::CompareDocuments(rbx::ReadBinary(bytes.data(), bytes.size()), back), "");
    props.SetPropertyString("GAMEFMT_RBX_EXPORT_COMPRESSION", "brotli");
    EXPECT_EQ(exporter.ExportToBlob(r.scene, "rbxm", 0, &props), nullptr);
    EXPECT_NE(std::string(exporter.GetErrorString()).find("lz4, zstd or none"), std::string::npos);
}

TEST(RbxScene, XmlExportStreamsTheSameBytes) {
    // The rbxmx exporter streams its text to the IOSystem: the same bytes as the whole-text path, and a path
    // that cannot be opened is a clear export error.
    const auto bytes = fixtures::rbx::ThreeFolders();
    const ImportResult r = ImportMemory(bytes, "rbxm");
    ASSERT_TRUE(r) << r.error;
    Assimp::Exporter exporter;
    RegisterExporters(exporter);
    const aiExportDataBlob *blob = exporter.ExportToBlob(r.scene, "rbxmx");
    ASSERT_NE(blob, nullptr) << exporter.GetErrorString();
    const auto *data = static_cast<const std::uint8_t *>(blob->data);
    EXPECT_EQ(std::vector<std::uint8_t>(data, data + blob->size),
              glue::ExportRobloxModelToBytes(*r.scene, true, nullptr));
    const auto missing = test::ScratchDir("rbx_xml_stream") / "no-such-dir" / "m.rbxmx";
    EXPECT_NE(exporter.Export(r.scene, "rbxmx", missing.string()), AI_SUCCESS);
    EXPECT_EQ(std::string(exporter.GetErrorString()),
              "Roblox model export: cannot open '" + missing.string() + "' for writing");
}

int Cli(const std::vector<std::string> &args, std::string *out = nullptr) {
    std::ostringstream o, e;
    const int code = cli::RunCli(args, o, e);
    if (out != nullptr) *out = o.str();
    EXPECT_EQ(code, 0) << e.str();
    return code;
}

TEST(RbxScene, CliExportPlaceToXmlAndBack) {
    GAMEFMT_REQUIRE_CORPUS(dir, "rbx/rbx-test-files/places/baseplate-566");
    const auto scratch = test::ScratchDir("rbx_cli_export");
    const auto source = dir / "binary.rbxl";
    const auto xml = scratch / "place.rbxlx";
    const auto bin = scratch / "place.rbxl";
    ASSERT_EQ(Cli({"export", source.string(), xml.string()}), 0);
    ASSERT_EQ(Cli({"export", xml.string(), bin.string(), "--rbx-compression", "none"}), 0);
    const rbx::Document original = ReadFileDocument(source);
    EXPECT_EQ(rbx::CompareDocuments(original, ReadFileDocument(xml)), "");
    EXPECT_EQ(rbx::CompareDocuments(original, ReadFileDocument(bin)), "");
    EXPECT_EQ(ReadFileDocument(xml).sourceEncoding, rbx::Encoding::Xml);
}

TEST(RbxScene, Glb2ExportOfAnIncompleteSceneWorks) {
    GAMEFMT_REQUIRE_CORPUS(dir, "rbx/rbx-test-files/models/three-unique-parts");
    const ImportResult r = ImportFile(dir / "binary.rbxm");
    ASSERT_TRUE(r) << r.error;
    Assimp::Exporter exporter;
    const aiExportDataBlob *blob = exporter.ExportToBlob(r.scene, "glb2");
    ASSERT_NE(blob, nullptr) << exporter.GetErrorString();
    EXPECT_GT(blob->size, 12u);
    EXPECT_EQ(std::memcmp(blob->data, "glTF", 4), 0);
}

} // namespace
} // namespace gamefmt
