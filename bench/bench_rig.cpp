// Roblox animations (issue #27 point 7): a KeyframeSequence of N keyframes each keying all 15 joints of the
// generated R15-like rig (testdata/demo-rig.rbxm's rig), Linear. Our importer reading the .rbxm (rigs and
// aiAnimations built: time and heap per key), our glTF writer writing it, and Assimp's own glTF importer reading
// that glb back: the same keys side by side. Results in docs/performance.md.
#include "assimp_glue/roblox_model/anim_export.hpp"
#include "fixtures/rbx_place_fixtures.hpp"
#include "gamefmt/gamefmt.hpp"
#include "importers/roblox_model/document/binary_writer.hpp"
#include "importers/roblox_model/motion/rigs.hpp"

#include <assimp/Exporter.hpp>
#include <assimp/Importer.hpp>
#include <assimp/scene.h>
#include <benchmark/benchmark.h>
#include <malloc.h>

#include <cmath>
#include <map>
#include <memory>
#include <string>
#include <vector>

namespace {

using gamefmt::rbx::Document;

void Prop(Document &doc, std::uint32_t i, const char *name, gamefmt::rbx::Type type, gamefmt::rbx::ValueData data) {
    gamefmt::rbx::Property p;
    p.name = doc.names.intern(name);
    p.value.type = type;
    p.value.data = std::move(data);
    doc.instances[i].properties.push_back(std::move(p));
}

// The rig with a KeyframeSequence "Long" of `keyframes` keyframes at 30 per second, every joint keyed in each.
std::vector<std::uint8_t> LongSequenceRig(int keyframes) {
    using gamefmt::rbx::Type;
    Document doc = gamefmt::fixtures::DemoRigDocument();
    const gamefmt::rbx::RigSet rigs = gamefmt::rbx::FindRigs(doc);
    const gamefmt::rbx::Rig &rig = rigs.rigs.at(0);
    const std::uint32_t seq = doc.addInstance("KeyframeSequence", "Long", rig.model);
    for (int k = 0; k < keyframes; ++k) {
        const std::uint32_t key = doc.addInstance("Keyframe", "Keyframe", seq);
        Prop(doc, key, "Time", Type::Float32, static_cast<float>(k) / 30.0f);
        std::map<std::uint32_t, std::uint32_t> poseOfPart; // part → its Pose in this keyframe
        poseOfPart[rig.root] = doc.addInstance("Pose", doc.instances[rig.root].name, key);
        // Every Pose carries the same properties: the binary writer drops a property only some instances have.
        Prop(doc, poseOfPart[rig.root], "CFrame", Type::CFrame, gamefmt::rbx::CFrame{});
        Prop(doc, poseOfPart[rig.root], "Weight", Type::Float32, 0.0f);
        for (std::uint32_t j : rig.joints) {
            const auto &joint = rigs.joints[j];
            const std::uint32_t pose =
                doc.addInstance("Pose", doc.instances[joint.part1].name, poseOfPart.at(joint.part0));
            poseOfPart[joint.part1] = pose;
            const float a = 0.5f * std::sin(0.1f * static_cast<float>(k) + static_cast<float>(j));
            gamefmt::rbx::CFrame cf;
            cf.rotation = {1, 0, 0, 0, std::cos(a), -std::sin(a), 0, std::sin(a), std::cos(a)};
            Prop(doc, pose, "CFrame", Type::CFrame, cf);
            Prop(doc, pose, "Weight", Type::Float32, 1.0f);
        }
    }
    return gamefmt::rbx::WriteBinary(doc);
}

const std::vector<std::uint8_t> &Input(int keyframes) {
    static std::map<int, std::vector<std::uint8_t>> cache;
    auto it = cache.find(keyframes);
    if (it == cache.end()) it = cache.emplace(keyframes, LongSequenceRig(keyframes)).first;
    return it->second;
}

std::uint64_t Keys(const aiScene &scene) {
    std::uint64_t keys = 0;
    for (unsigned a = 0; a < scene.mNumAnimations; ++a)
        for (unsigned c = 0; c < scene.mAnimations[a]->mNumChannels; ++c)
            keys += scene.mAnimations[a]->mChannels[c]->mNumRotationKeys;
    return keys;
}

void Report(benchmark::State &state, std::uint64_t keys, double heap, std::size_t fileBytes) {
    state.counters["keys"] = static_cast<double>(keys);
    state.counters["keys_per_s"] =
        benchmark::Counter(static_cast<double>(keys), benchmark::Counter::kIsIterationInvariantRate);
    state.counters["heap_bytes_per_key"] = keys != 0 ? heap / static_cast<double>(keys) : 0;
    state.counters["file_MB"] = static_cast<double>(fileBytes) / 1e6;
}

// Our importer: the .rbxm → nodes along the joints, one aiAnimation of 15 channels.
void BM_RbxAnimationImport(benchmark::State &state) {
    const std::vector<std::uint8_t> &bytes = Input(static_cast<int>(state.range(0)));
    std::uint64_t keys = 0;
    double heap = 0;
    for (auto _ : state) {
        const std::size_t before = mallinfo2().uordblks;
        Assimp::Importer importer;
        gamefmt::RegisterImporters(importer);
        const aiScene *scene = importer.ReadFileFromMemory(bytes.data(), bytes.size(), 0, "rbxm");
        if (scene == nullptr) {
            state.SkipWithError(importer.GetErrorString());
            return;
        }
        heap = static_cast<double>(mallinfo2().uordblks - before);
        keys = Keys(*scene);
    }
    Report(state, keys, heap, bytes.size());
}
BENCHMARK(BM_RbxAnimationImport)->Arg(1000)->Arg(3000)->Arg(10000)->Arg(30000)->Unit(benchmark::kMillisecond);

// The glb our writer makes of that scene (made once per size).
const std::vector<std::uint8_t> &Glb(int keyframes) {
    static std::map<int, std::vector<std::uint8_t>> cache;
    auto it = cache.find(keyframes);
    if (it != cache.end()) return it->second;
    const std::vector<std::uint8_t> &bytes = Input(keyframes);
    Assimp::Importer importer;
    gamefmt::RegisterImporters(importer);
    const aiScene *scene = importer.ReadFileFromMemory(bytes.data(), bytes.size(), 0, "rbxm");
    Assimp::Exporter exporter;
    gamefmt::RegisterExporters(exporter);
    const aiExportDataBlob *blob = scene != nullptr ? exporter.ExportToBlob(scene, "gamefmt-glb") : nullptr;
    std::vector<std::uint8_t> glb;
    if (blob != nullptr)
        glb.assign(static_cast<const std::uint8_t *>(blob->data),
                   static_cast<const std::uint8_t *>(blob->data) + blob->size);
    return cache.emplace(keyframes, std::move(glb)).first->second;
}

void BM_RbxAnimationGlbWrite(benchmark::State &state) {
    const std::vector<std::uint8_t> &bytes = Input(static_cast<int>(state.range(0)));
    Assimp::Importer importer;
    gamefmt::RegisterImporters(importer);
    const aiScene *scene = importer.ReadFileFromMemory(bytes.data(), bytes.size(), 0, "rbxm");
    if (scene == nullptr) {
        state.SkipWithError(importer.GetErrorString());
        return;
    }
    Assimp::Exporter exporter;
    gamefmt::RegisterExporters(exporter);
    std::size_t size = 0;
    for (auto _ : state) {
        const aiExportDataBlob *blob = exporter.ExportToBlob(scene, "gamefmt-glb");
        if (blob == nullptr) {
            state.SkipWithError(exporter.GetErrorString());
            return;
        }
        size = blob->size;
        exporter.FreeBlob();
    }
    Report(state, Keys(*scene), 0, size);
}
BENCHMARK(BM_RbxAnimationGlbWrite)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);

// Assimp's own glTF 2 importer reading the same animation from the glb.
void BM_AssimpGltfAnimationImport(benchmark::State &state) {
    const std::vector<std::uint8_t> &glb = Glb(static_cast<int>(state.range(0)));
    if (glb.empty()) {
        state.SkipWithError("no glb");
        return;
    }
    std::uint64_t keys = 0;
    double heap = 0;
    for (auto _ : state) {
        const std::size_t before = mallinfo2().uordblks;
        Assimp::Importer importer;
        const aiScene *scene = importer.ReadFileFromMemory(glb.data(), glb.size(), 0, "glb");
        if (scene == nullptr) {
            state.SkipWithError(importer.GetErrorString());
            return;
        }
        heap = static_cast<double>(mallinfo2().uordblks - before);
        keys = Keys(*scene);
    }
    Report(state, keys, heap, glb.size());
}
BENCHMARK(BM_AssimpGltfAnimationImport)->Arg(1000)->Arg(10000)->Unit(benchmark::kMillisecond);

// Animations back to Roblox with one channel of N keys (issue #39): the scene of a short sequence whose first joint
// channel is replaced by N keys at 30 per second. Sampling keeps a cursor per channel, so the time is linear in N
// (it scanned the keys from the start for every sample before: quadratic, about an hour at 100,000 keys).
void BM_RbxAnimationExportLongChannel(benchmark::State &state) {
    const auto n = static_cast<unsigned>(state.range(0));
    const std::vector<std::uint8_t> &bytes = Input(10);
    Assimp::Importer importer;
    gamefmt::RegisterImporters(importer);
    if (importer.ReadFileFromMemory(bytes.data(), bytes.size(), 0, "rbxm") == nullptr) {
        state.SkipWithError(importer.GetErrorString());
        return;
    }
    std::unique_ptr<aiScene> scene(importer.GetOrphanedScene());
    aiNodeAnim &ch = *scene->mAnimations[0]->mChannels[0];
    const double tps = scene->mAnimations[0]->mTicksPerSecond;
    delete[] ch.mPositionKeys;
    delete[] ch.mRotationKeys;
    ch.mNumPositionKeys = ch.mNumRotationKeys = n;
    ch.mPositionKeys = new aiVectorKey[n];
    ch.mRotationKeys = new aiQuatKey[n];
    for (unsigned k = 0; k < n; ++k) {
        const double t = k * tps / 30.0;
        const float a = 0.25f * std::sin(0.01f * static_cast<float>(k));
        ch.mPositionKeys[k] = aiVectorKey(t, aiVector3D(0, 0, 0));
        ch.mRotationKeys[k] = aiQuatKey(t, aiQuaternion(std::cos(a), std::sin(a), 0, 0));
    }
    scene->mAnimations[0]->mDuration = (n - 1) * tps / 30.0;
    const gamefmt::rbx::Document rig = gamefmt::fixtures::DemoRigDocument();
    std::size_t instances = 0;
    for (auto _ : state) {
        const gamefmt::rbx::Document out = gamefmt::glue::AnimationsToRoblox(*scene, rig);
        instances = out.instances.size();
    }
    state.counters["keys"] = n;
    state.counters["instances"] = static_cast<double>(instances);
    state.counters["s_per_key"] = benchmark::Counter(
        static_cast<double>(n), benchmark::Counter::kIsIterationInvariantRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_RbxAnimationExportLongChannel)->Arg(10000)->Arg(100000)->Unit(benchmark::kMillisecond);

} // namespace
