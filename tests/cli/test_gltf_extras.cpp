// Issue #37 (3): the animation settings a glb keeps in each animation's `extras` (rbx.loop, rbx.priority), which
// Assimp's glTF importer drops, read back by the command line (tools/gamefmt/gltf_extras.hpp), so that
// rbxm -> glb -> KeyframeSequences keeps every sequence's Loop and Priority.
#include "gltf_extras.hpp"

#include "cli/run_cli.hpp"
#include "common/utf8_path.hpp"
#include "gamefmt/metadata.hpp"
#include "importers/roblox_model/document/binary_writer.hpp"
#include "importers/roblox_model/document/dom.hpp"
#include "importers/roblox_model/document/reader.hpp"
#include "support/import_helpers.hpp"
#include "support/rbx_values.hpp"

#include <assimp/scene.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <tuple>
#include <variant>
#include <vector>

namespace gamefmt::test {
namespace {

namespace fs = std::filesystem;

rbx::CFrame At(float x, float y, float z) {
    rbx::CFrame cf;
    cf.position = {x, y, z};
    cf.rotation = {1, 0, 0, 0, 1, 0, 0, 0, 1};
    return cf;
}

// Model "Arm": Base and Upper joined by Motor6D Shoulder; two sequences with settings unlike the export's defaults
// (Loop true, Priority 2): Wave (Loop false, Priority 1 Movement) and Idle (Loop true, Priority 0 Idle).
rbx::Document ArmWithTwoSequences() {
    rbx::Document doc;
    const std::uint32_t model = doc.addInstance("Model", "Arm", rbx::kNoInstance);
    const auto part = [&](const char *name, rbx::CFrame cf) {
        const std::uint32_t p = doc.addInstance("Part", name, model);
        rbx::AddProperty(doc, p, "CFrame", rbx::Type::CFrame, cf);
        rbx::AddProperty(doc, p, "size", rbx::Type::Vector3, rbx::Vector3{1, 1, 2});
        return p;
    };
    const std::uint32_t base = part("Base", At(0, 5, 0)), upper = part("Upper", At(0, 5, -2));
    const std::uint32_t motor = doc.addInstance("Motor6D", "Shoulder", upper);
    rbx::AddProperty(doc, motor, "C0", rbx::Type::CFrame, At(0, 0, -1));
    rbx::AddProperty(doc, motor, "C1", rbx::Type::CFrame, At(0, 0, 1));
    rbx::AddProperty(doc, motor, "Part0", rbx::Type::Ref, rbx::RefValue{base});
    rbx::AddProperty(doc, motor, "Part1", rbx::Type::Ref, rbx::RefValue{upper});
    const std::uint32_t saves = doc.addInstance("Model", "AnimSaves", model);
    for (const auto &[name, loop, priority] : {std::tuple{"Wave", false, 1u}, std::tuple{"Idle", true, 0u}}) {
        const std::uint32_t seq = doc.addInstance("KeyframeSequence", name, saves);
        rbx::AddProperty(doc, seq, "Loop", rbx::Type::Bool, loop);
        rbx::AddProperty(doc, seq, "Priority", rbx::Type::Enum, rbx::EnumValue{priority});
        rbx::AddProperty(doc, seq, "AuthoredHipHeight", rbx::Type::Float32, 2.0f);
        for (const float time : {0.0f, 1.0f}) {
            const std::uint32_t key = doc.addInstance("Keyframe", "Keyframe", seq);
            rbx::AddProperty(doc, key, "Time", rbx::Type::Float32, time);
            const std::uint32_t root = doc.addInstance("Pose", "Base", key);
            rbx::AddProperty(doc, root, "CFrame", rbx::Type::CFrame, At(0, 0, 0));
            rbx::AddProperty(doc, root, "Weight", rbx::Type::Float32, 0.0f);
            const std::uint32_t pose = doc.addInstance("Pose", "Upper", root);
            rbx::AddProperty(doc, pose, "CFrame", rbx::Type::CFrame, At(0, time, 0));
            rbx::AddProperty(doc, pose, "Weight", rbx::Type::Float32, 1.0f);
        }
    }
    return doc;
}

TEST(GltfAnimationExtras, LoopAndPriorityTravelThroughAGlbAndAssimpsGltfImporter) {
    const fs::path dir = ScratchDir("gltf-anim-extras");
    WriteBytes(dir / "arm.rbxm", rbx::WriteBinary(ArmWithTwoSequences()));
    const std::string rbxm = PathToUtf8(dir / "arm.rbxm"), glb = PathToUtf8(dir / "arm.glb");
    const std::string out = PathToUtf8(dir / "anims.rbxm");
    const CliResult toGlb = Cli({"export", rbxm, glb, "-q"});
    ASSERT_EQ(toGlb.code, 0) << toGlb.err;
    const CliResult back = Cli({"export", glb, out, "--rbx-animation-only", "--rbx-animation-rig", rbxm, "-q"});
    ASSERT_EQ(back.code, 0) << back.err;
    const std::vector<std::uint8_t> bytes = ReadBytes(dir / "anims.rbxm");
    const rbx::Document doc = rbx::ReadDocument(bytes.data(), bytes.size());
    std::size_t seen = 0;
    for (std::uint32_t root : doc.roots) {
        const rbx::Instance &seq = doc.instances[root];
        ASSERT_EQ(doc.className(seq), "KeyframeSequence");
        const rbx::Property *loop = doc.findProperty(seq, "Loop"), *priority = doc.findProperty(seq, "Priority");
        ASSERT_NE(loop, nullptr);
        ASSERT_NE(priority, nullptr);
        const bool wave = seq.name == "Wave";
        ASSERT_TRUE(wave || seq.name == "Idle") << seq.name;
        EXPECT_EQ(std::get<bool>(loop->value.data), !wave) << seq.name;
        EXPECT_EQ(std::get<rbx::EnumValue>(priority->value.data).value, wave ? 1u : 0u) << seq.name;
        ++seen;
    }
    EXPECT_EQ(seen, 2u);
}

// A scene as Assimp's glTF importer leaves it: animations, no animation metadata.
std::unique_ptr<aiScene> SceneWithAnimations(const std::vector<std::string> &names) {
    auto scene = std::make_unique<aiScene>();
    scene->mRootNode = new aiNode("root");
    scene->mNumAnimations = static_cast<unsigned>(names.size());
    scene->mAnimations = new aiAnimation *[names.size()];
    for (std::size_t i = 0; i < names.size(); ++i) {
        scene->mAnimations[i] = new aiAnimation();
        scene->mAnimations[i]->mName = aiString(names[i]);
    }
    return scene;
}

std::vector<std::uint8_t> Bytes(const std::string &text) {
    return {text.begin(), text.end()};
}

// A glb of `json` (padded with spaces to 4 bytes, as the format wants) and no binary chunk.
std::vector<std::uint8_t> Glb(std::string json) {
    while (json.size() % 4 != 0) json += ' ';
    std::vector<std::uint8_t> out;
    const auto u32 = [&](std::uint32_t v) {
        for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
    };
    u32(0x46546C67);
    u32(2);
    u32(static_cast<std::uint32_t>(20 + json.size()));
    u32(static_cast<std::uint32_t>(json.size()));
    u32(0x4E4F534A);
    out.insert(out.end(), json.begin(), json.end());
    return out;
}

const std::string kExtras = R"({"animations":[{"name":"Walk","extras":{"rbx.loop":true,"rbx.priority":0,)"
                            R"("big":5000000000,"neg":-5000000000,"f":1.5,"s":"x\u00e9","arr":[1,{"a":2}],)"
                            R"("nul":null}}]})";

TEST(GltfAnimationExtras, EveryValueTypeComesBackAndExistingKeysStay) {
    for (const bool binary : {false, true}) {
        const std::unique_ptr<aiScene> scene = SceneWithAnimations({"Walk"});
        MetadataBuilder existing;
        existing.add("anim.0.rbx.loop", false); // the scene's own value wins
        existing.mergeInto(scene->mMetaData);
        const std::vector<std::uint8_t> bytes = binary ? Glb(kExtras) : Bytes(kExtras);
        std::string warning;
        EXPECT_EQ(cli::RestoreGltfAnimationExtras(*scene, bytes.data(), bytes.size(), &warning), 6u);
        EXPECT_EQ(warning, "");
        const aiMetadata &md = *scene->mMetaData;
        bool loop = true;
        ASSERT_TRUE(md.Get("anim.0.rbx.loop", loop));
        EXPECT_FALSE(loop);
        std::int32_t priority = -1;
        ASSERT_TRUE(md.Get("anim.0.rbx.priority", priority)); // int32, what the rbxanim exporter reads
        EXPECT_EQ(priority, 0);
        std::uint64_t big = 0;
        ASSERT_TRUE(md.Get("anim.0.big", big));
        EXPECT_EQ(big, 5000000000u);
        double neg = 0, f = 0;
        ASSERT_TRUE(md.Get("anim.0.neg", neg));
        EXPECT_EQ(neg, -5000000000.0);
        ASSERT_TRUE(md.Get("anim.0.f", f));
        EXPECT_EQ(f, 1.5);
        std::string text;
        ASSERT_TRUE(GetMetadataText(&md, "anim.0.s", text));
        EXPECT_EQ(text, "x\xC3\xA9");
        ASSERT_TRUE(GetMetadataText(&md, "anim.0.arr", text));
        EXPECT_EQ(text, R"([1,{"a":2}])");
        EXPECT_FALSE(GetMetadataText(&md, "anim.0.nul", text));
    }
}

TEST(GltfAnimationExtras, AnimationsThatDoNotLineUpAreLeftAlone) {
    // Another name at the index: not this animation's extras.
    std::unique_ptr<aiScene> scene = SceneWithAnimations({"Run"});
    std::vector<std::uint8_t> bytes = Bytes(kExtras);
    EXPECT_EQ(cli::RestoreGltfAnimationExtras(*scene, bytes.data(), bytes.size()), 0u);
    EXPECT_EQ(scene->mMetaData, nullptr);
    // Another count: nothing, and a warning saying so.
    scene = SceneWithAnimations({"Walk", "Run"});
    std::string warning;
    EXPECT_EQ(cli::RestoreGltfAnimationExtras(*scene, bytes.data(), bytes.size(), &warning), 0u);
    EXPECT_EQ(warning, "glTF animation extras not read: the file has 1 animations, the scene 2");
    // No animations, no extras: nothing, silently.
    bytes = Bytes(R"({"animations":[{"name":"Walk"}]})");
    scene = SceneWithAnimations({"Walk"});
    warning.clear();
    EXPECT_EQ(cli::RestoreGltfAnimationExtras(*scene, bytes.data(), bytes.size(), &warning), 0u);
    EXPECT_EQ(warning, "");
}

TEST(GltfAnimationExtras, DamagedJsonIsAWarningNeverACrash) {
    const std::unique_ptr<aiScene> scene = SceneWithAnimations({"Walk"});
    std::string warning;
    // A JSON chunk longer than the file.
    std::vector<std::uint8_t> glb = Glb(kExtras);
    glb[12] = 0xFF;
    EXPECT_EQ(cli::RestoreGltfAnimationExtras(*scene, glb.data(), glb.size(), &warning), 0u);
    EXPECT_NE(warning.find("byte offset 12"), std::string::npos) << warning;
    // Nested past 64 levels.
    std::vector<std::uint8_t> deep = Bytes(std::string(100000, '[') + std::string(100000, ']'));
    warning.clear();
    EXPECT_EQ(cli::RestoreGltfAnimationExtras(*scene, deep.data(), deep.size(), &warning), 0u);
    EXPECT_NE(warning.find("does not parse"), std::string::npos) << warning;
    // Every truncation of a good glb and of its text: a result or a warning, and the scene stays valid.
    const std::vector<std::uint8_t> good = Glb(kExtras), text = Bytes(kExtras);
    for (const auto *whole : {&good, &text})
        for (std::size_t n = 0; n < whole->size(); ++n) {
            const std::unique_ptr<aiScene> s = SceneWithAnimations({"Walk"});
            warning.clear();
            const std::size_t added = cli::RestoreGltfAnimationExtras(*s, whole->data(), n, &warning);
            EXPECT_TRUE(added == 0 && !warning.empty()) << n << " bytes: " << added << " added, " << warning;
        }
    EXPECT_EQ(scene->mMetaData, nullptr);
}

} // namespace
} // namespace gamefmt::test
