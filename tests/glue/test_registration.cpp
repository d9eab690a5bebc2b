// Registration: our importers are added once, sit ahead of Ogre (.mesh) and Unreal (.3d), and leave
// those built-ins working for their own files (docs/formats/assimp-integration.md §2, §13 "Registration").
#include "fixtures/fixtures.hpp"
#include "gamefmt/gamefmt.hpp"
#include "support/import_helpers.hpp"

#include <assimp/BaseImporter.h>
#include <assimp/DefaultIOSystem.h>
#include <assimp/Exceptional.h>
#include <assimp/Exporter.hpp>
#include <assimp/Importer.hpp>
#include <assimp/cimport.h>
#include <assimp/postprocess.h>
#include <assimp/scene.h>
#include <gtest/gtest.h>

#include <cstring>
#include <string>

namespace {

using gamefmt::fixtures::Bytes;
using namespace gamefmt::test;

std::size_t IndexOfLoaderNamed(const Assimp::Importer &importer, const std::string &needle) {
    for (std::size_t i = 0; i < importer.GetImporterCount(); ++i) {
        const aiImporterDesc *info = importer.GetImporterInfo(i);
        if (info != nullptr && std::string(info->mName).find(needle) != std::string::npos) return i;
    }
    return static_cast<std::size_t>(-1);
}

std::size_t IndexOf(const Assimp::Importer &importer, const Assimp::BaseImporter *loader) {
    for (std::size_t i = 0; i < importer.GetImporterCount(); ++i)
        if (importer.GetImporter(i) == loader) return i;
    return static_cast<std::size_t>(-1);
}

TEST(Registration, AddsEachFamilyOnceAndIsIdempotent) {
    Assimp::Importer importer;
    const std::size_t builtins = importer.GetImporterCount();
    const std::size_t added = gamefmt::RegisterImporters(importer);
    EXPECT_EQ(added, gamefmt::Formats().size());
    EXPECT_EQ(added, 5u); // Roblox mesh, Roblox model/place, Second Life mesh, Redguard model, Redguard level
    EXPECT_EQ(importer.GetImporterCount(), builtins + added);
    EXPECT_EQ(gamefmt::RegisterImporters(importer), 0u);
    EXPECT_EQ(importer.GetImporterCount(), builtins + added);
    // The built-ins we moved are still there exactly once.
    std::size_t ogre = 0, unreal = 0;
    for (std::size_t i = 0; i < importer.GetImporterCount(); ++i) {
        const std::string name = importer.GetImporterInfo(i)->mName;
        ogre += name.find("Ogre") != std::string::npos;
        unreal += name.find("Unreal") != std::string::npos;
    }
    EXPECT_EQ(ogre, 1u);
    EXPECT_EQ(unreal, 1u);
}

TEST(Registration, EveryExtensionOfOursIsKnown) {
    auto importer = gamefmt::MakeImporter();
    for (const char *ext :
         {".mesh", ".rbxm", ".rbxl", ".rbxmx", ".rbxlx", ".llmesh", ".slm", ".3d", ".3dc", ".rob", ".rgm", ".wld"})
        EXPECT_TRUE(importer->IsExtensionSupported(ext)) << ext;
    // Every family reads: the Roblox families, Second Life and Redguard.
    for (const auto &format : gamefmt::Formats()) EXPECT_TRUE(format.readable) << format.name;
}

TEST(Registration, OursComeBeforeOgreAndUnreal) {
    auto importer = gamefmt::MakeImporter();
    Assimp::BaseImporter *mesh = importer->GetImporter("mesh");
    Assimp::BaseImporter *threeD = importer->GetImporter("3d");
    ASSERT_NE(mesh, nullptr);
    ASSERT_NE(threeD, nullptr);
    EXPECT_TRUE(gamefmt::IsGamefmtImporter(mesh));
    EXPECT_TRUE(gamefmt::IsGamefmtImporter(threeD));
    EXPECT_STREQ(mesh->GetInfo()->mName, "gamefmt Roblox mesh");
    EXPECT_STREQ(threeD->GetInfo()->mName, "gamefmt Redguard model");
    EXPECT_LT(IndexOf(*importer, mesh), IndexOfLoaderNamed(*importer, "Ogre"));
    EXPECT_LT(IndexOf(*importer, threeD), IndexOfLoaderNamed(*importer, "Unreal"));
    // Case and spelling variants Assimp accepts.
    EXPECT_EQ(importer->GetImporter(".MESH"), mesh);
    EXPECT_EQ(importer->GetImporter("*.3D"), threeD);
    EXPECT_FALSE(gamefmt::IsGamefmtImporter(importer->GetImporter("obj")));
    EXPECT_FALSE(gamefmt::IsGamefmtImporter(nullptr));
}

TEST(Registration, OgreBinaryMeshStillReachesOgre) {
    const auto dir = ScratchDir("reg_ogre");
    WriteBytes(dir / "x.mesh", gamefmt::fixtures::OgreBinaryTriangle());
    const ImportResult r = ImportFile(dir / "x.mesh");
    ASSERT_TRUE(r) << r.error;
    EXPECT_NE(SourceFormat(r.scene).find("Ogre"), std::string::npos) << SourceFormat(r.scene);
    ASSERT_EQ(r.scene->mNumMeshes, 1u);
    EXPECT_EQ(r.scene->mMeshes[0]->mNumVertices, 3u);
    EXPECT_EQ(r.scene->mMeshes[0]->mNumFaces, 1u);
    EXPECT_FLOAT_EQ(r.scene->mMeshes[0]->mVertices[1].x, 1.0f);
    EXPECT_FLOAT_EQ(r.scene->mMeshes[0]->mVertices[2].y, 1.0f);
    EXPECT_TRUE(r.validationWarnings.empty());
}

TEST(Registration, ForeignMeshSaysWhatItIsNotForEachCandidate) {
    const auto dir = ScratchDir("reg_garbage_mesh");
    WriteText(dir / "x.mesh", "this is neither Roblox nor Ogre");
    const ImportResult r = ImportFile(dir / "x.mesh");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error,
              "not a Roblox mesh: no \"version \" header at byte offset 0 (the file starts \"this is neither \"); "
              "not an Ogre mesh: Invalid Ogre Mesh file header.");

    // Random bytes: escaped, at most 16 of them quoted.
    std::vector<std::uint8_t> noise(300);
    for (std::size_t i = 0; i < noise.size(); ++i) noise[i] = static_cast<std::uint8_t>(i * 151 + 7);
    WriteBytes(dir / "noise.mesh", noise);
    const ImportResult n = ImportFile(dir / "noise.mesh");
    ASSERT_FALSE(n);
    EXPECT_NE(n.error.find("not a Roblox mesh: no \"version \" header at byte offset 0 (the file starts \"\\x07"),
              std::string::npos)
        << n.error;
    EXPECT_NE(n.error.find("; not an Ogre mesh: "), std::string::npos) << n.error;

    // A text file named .3d: neither Redguard nor Unreal.
    WriteText(dir / "x.3d", "hello");
    const ImportResult t = ImportFile(dir / "x.3d");
    ASSERT_FALSE(t);
    EXPECT_NE(t.error.find("not a Redguard model: the first bytes \"hell\" at byte offset 0 are not v2.6, v2.7, v4.0, "
                           "v5.0 (model) or OARC (archive); not an Unreal mesh: "),
              std::string::npos)
        << t.error;
}

TEST(Registration, RobloxMeshReachesOurs) {
    const auto dir = ScratchDir("reg_roblox_mesh");
    WriteBytes(dir / "x.mesh", gamefmt::fixtures::RobloxMeshHeaderOnly());
    const ImportResult r = ImportFile(dir / "x.mesh");
    ASSERT_FALSE(r); // the fixture is a truncated header: our reader, not Ogre's, reports it
    EXPECT_EQ(r.error.rfind("Roblox mesh: ", 0), 0u) << r.error;
    EXPECT_EQ(r.error.find("Ogre"), std::string::npos) << r.error;
    EXPECT_EQ(r.error.find("not implemented"), std::string::npos) << r.error;

    const ImportResult m = ImportMemory(gamefmt::fixtures::RobloxMeshHeaderOnly(), "mesh");
    ASSERT_FALSE(m);
    EXPECT_NE(m.error.find("Roblox mesh"), std::string::npos) << m.error;
}

TEST(Registration, ExtensionlessRobloxMeshIsFoundBySignature) {
    const auto dir = ScratchDir("reg_roblox_noext");
    WriteBytes(dir / "1234567", gamefmt::fixtures::RobloxMeshHeaderOnly());
    const ImportResult r = ImportFile(dir / "1234567");
    ASSERT_FALSE(r);
    EXPECT_NE(r.error.find("Roblox mesh"), std::string::npos) << r.error;
}

TEST(Registration, UnrealPairStillReachesUnreal) {
    const auto dir = ScratchDir("reg_unreal");
    WriteBytes(dir / "x_d.3d", gamefmt::fixtures::UnrealDataTriangle());
    WriteBytes(dir / "x_a.3d", gamefmt::fixtures::UnrealAnimTriangle());
    const ImportResult r = ImportFile(dir / "x_d.3d");
    ASSERT_TRUE(r) << r.error;
    EXPECT_NE(SourceFormat(r.scene).find("Unreal"), std::string::npos) << SourceFormat(r.scene);
    ASSERT_GE(r.scene->mNumMeshes, 1u);
    EXPECT_EQ(r.scene->mMeshes[0]->mNumFaces, 1u);
}

TEST(Registration, RedguardModelReachesOursWhateverTheCase) {
    const auto dir = ScratchDir("reg_redguard");
    for (const char *name : {"x.3d", "Y.3D"}) {
        WriteBytes(dir / name, gamefmt::fixtures::RedguardHeaderOnly());
        const ImportResult r = ImportFile(dir / name);
        ASSERT_FALSE(r) << name; // the fixture is a truncated header: our reader, not Unreal's, reports it
        EXPECT_EQ(r.error.rfind("Redguard 3D: ", 0), 0u) << name << ": " << r.error;
        EXPECT_NE(r.error.find("64-byte header"), std::string::npos) << name << ": " << r.error;
        EXPECT_EQ(r.error.find("Unreal"), std::string::npos) << name << ": " << r.error;
        EXPECT_EQ(r.error.find("not implemented"), std::string::npos) << name << ": " << r.error;
    }
    const ImportResult m = ImportMemory(gamefmt::fixtures::RedguardHeaderOnly(), "3d");
    ASSERT_FALSE(m);
    EXPECT_NE(m.error.find("Redguard"), std::string::npos) << m.error;
}

TEST(Registration, UniqueExtensionStillChecksTheSignature) {
    // Only our loader claims .rbxm, so Assimp skips CanRead: InternReadFile must reject the bytes itself,
    // naming the format and the offset.
    const auto dir = ScratchDir("reg_bad_rbxm");
    WriteText(dir / "bad.rbxm", "PK\x03\x04 not a Roblox file");
    const ImportResult r = ImportFile(dir / "bad.rbxm");
    ASSERT_FALSE(r);
    EXPECT_NE(r.error.find("Roblox model: not a Roblox model file"), std::string::npos) << r.error;
    EXPECT_NE(r.error.find("(at byte offset 0)"), std::string::npos) << r.error;
}

TEST(Registration, CanReadNeverThrowsOnHostileInput) {
    auto importer = gamefmt::MakeImporter();
    const auto dir = ScratchDir("reg_canread");
    WriteText(dir / "empty.bin", "");
    WriteText(dir / "one.bin", "v");
    WriteText(dir / "short.bin", "version 2.0");
    WriteText(dir / "foreign.bin", "solid cube\nfacet normal 0 0 1\n");
    Assimp::DefaultIOSystem io;
    for (std::size_t i = 0; i < importer->GetImporterCount(); ++i) {
        const Assimp::BaseImporter *loader = importer->GetImporter(i);
        if (!gamefmt::IsGamefmtImporter(loader)) continue;
        for (const char *name : {"empty.bin", "one.bin", "short.bin", "foreign.bin", "missing.bin"}) {
            bool accepted = true;
            EXPECT_NO_THROW(accepted = loader->CanRead((dir / name).string(), &io, true)) << name;
            EXPECT_FALSE(accepted) << loader->GetInfo()->mName << " accepted " << name;
        }
        bool accepted = true;
        EXPECT_NO_THROW(accepted = loader->CanRead((dir / "empty.bin").string(), nullptr, false));
        EXPECT_FALSE(accepted);
    }
}

TEST(Registration, CApiDoesNotSeeOurFormats) {
    // Pinned behaviour: aiImportFile builds its own plain Importer, so our formats are invisible there
    // (the README says so). A Roblox .mesh goes to Ogre and fails.
    const auto dir = ScratchDir("reg_capi");
    WriteBytes(dir / "x.mesh", gamefmt::fixtures::RobloxMeshHeaderOnly());
    const aiScene *scene = aiImportFile((dir / "x.mesh").string().c_str(), 0);
    EXPECT_EQ(scene, nullptr);
    EXPECT_EQ(std::string(aiGetErrorString()).find("Roblox"), std::string::npos) << aiGetErrorString();
    if (scene != nullptr) aiReleaseImport(scene);
    EXPECT_EQ(aiIsExtensionSupported(".rbxm"), AI_FALSE);
}

TEST(Registration, ExportersAreIdempotent) {
    Assimp::Exporter exporter;
    const std::size_t builtins = exporter.GetExportFormatCount();
    const std::size_t added = gamefmt::RegisterExporters(exporter);
    EXPECT_EQ(exporter.GetExportFormatCount(), builtins + added);
    EXPECT_EQ(gamefmt::RegisterExporters(exporter), 0u);
    EXPECT_EQ(exporter.GetExportFormatCount(), builtins + added);
}

// An exporter that fails the way ours will: with a DeadlyExportError whose text must reach the caller.
void FailingExport(const char *, Assimp::IOSystem *, const aiScene *, const Assimp::ExportProperties *) {
    throw DeadlyExportError("gamefmt test: this exporter always fails");
}

TEST(Registration, DeadlyExportErrorTextReachesTheCaller) {
    // On Debian this works only through our link shim (DeadlyErrorBase's constructor is not exported).
    Assimp::Exporter exporter;
    static const Assimp::Exporter::ExportFormatEntry entry("gamefmt-test-fail", "always fails", "fail", &FailingExport);
    ASSERT_EQ(exporter.RegisterExporter(entry), AI_SUCCESS);
    EXPECT_EQ(exporter.RegisterExporter(entry), AI_FAILURE); // duplicate id
    const ImportResult r = ImportFile(TestDataDir() / "cube.obj");
    ASSERT_TRUE(r) << r.error;
    const auto dir = ScratchDir("reg_export_error");
    EXPECT_EQ(exporter.Export(r.scene, "gamefmt-test-fail", (dir / "x.fail").string()), AI_FAILURE);
    EXPECT_STREQ(exporter.GetErrorString(), "gamefmt test: this exporter always fails");
}

TEST(Registration, OurFormatErrorReachesImporterErrorString) {
    const ImportResult r = ImportMemory(Bytes{'<', 'r', 'o', 'b', 'l', 'o', 'x', '!'}, "rbxm");
    ASSERT_FALSE(r);
    EXPECT_EQ(r.error.rfind("Roblox model: ", 0), 0u) << r.error;
}

} // namespace

TEST(Registration, OnlyTheZeroWeightBoneWarningIsExpected) {
    // Assimp 5.4.3's exact line (Debian 13); 5.2.5 never prints it. Anything else the validator says is a problem.
    EXPECT_TRUE(gamefmt::IsExpectedValidationWarning("Warn,  T0: Validation warning: aiBone::mNumWeights is zero"));
    EXPECT_FALSE(gamefmt::IsExpectedValidationWarning("Warn,  T0: Validation warning: aiMesh::mBones is non-null"));
    EXPECT_FALSE(gamefmt::IsExpectedValidationWarning("Warn,  T0: Validation warning: mesh has no faces"));
    EXPECT_FALSE(gamefmt::IsExpectedValidationWarning("Roblox mesh: aiBone::mNumWeights is zero")); // not Assimp's
    EXPECT_FALSE(gamefmt::IsExpectedValidationWarning(""));
}
