// Roblox rigs and animations in the aiScene (rigs.hpp; docs/formats/roblox-model.md §5.6).
#include "assimp_glue/roblox_model/rigs.hpp"

#include "assimp_glue/common/scene_util.hpp"
#include "assimp_glue/roblox_model/mesh_assets.hpp"
#include "common/error.hpp"
#include "common/json_text.hpp"
#include "gamefmt/metadata.hpp"
#include "importers/roblox_model/avatar/characters.hpp"
#include "importers/roblox_model/document/reader.hpp"
#include "importers/roblox_model/document/value_text.hpp"
#include "importers/roblox_model/motion/curves.hpp"
#include "importers/roblox_model/motion/easing.hpp"
#include "importers/roblox_model/motion/keyframes.hpp"
#include "importers/roblox_model/motion/rigs.hpp"

#include <assimp/anim.h>
#include <assimp/scene.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <memory>
#include <set>
#include <string_view>
#include <unordered_map>

namespace gamefmt::glue {

bool RigsRead(std::string_view name) {
    static const std::string_view kNames[] = {"Part0",
                                              "Part1",
                                              "C0",
                                              "C1",
                                              "Time",
                                              "Weight",
                                              "EasingStyle",
                                              "EasingDirection",
                                              "Loop",
                                              "Priority",
                                              "AuthoredHipHeight",
                                              "Value",
                                              "AnimationId",
                                              "AnimationContent",
                                              "ValuesAndTimes",
                                              "RotationOrder"};
    return std::find(std::begin(kNames), std::end(kNames), name) != std::end(kNames);
}

namespace {

using rbx::kTicksPerSecond;                             // Studio ticks: 30-fps keyframe times land on whole ticks
constexpr double kEpsilon = 1.0 / rbx::kTicksPerSecond; // Constant easing's switch takes one tick (§7.2)
const std::string kModule = "Roblox model: ";

// Child lists being rewritten: copied out of the nodes when first touched, written back by `commit`.
class NodeEditor {
public:
    std::vector<aiNode *> &kids(aiNode *node) {
        auto [it, fresh] = mKids.try_emplace(node);
        if (fresh) it->second.assign(node->mChildren, node->mChildren + node->mNumChildren);
        return it->second;
    }
    // True when `node` is `ancestor` or below it (through the edited lists' parents).
    static bool IsWithin(const aiNode *node, const aiNode *ancestor) {
        for (; node != nullptr; node = node->mParent)
            if (node == ancestor) return true;
        return false;
    }
    void detach(aiNode *node) {
        std::vector<aiNode *> &list = kids(node->mParent);
        list.erase(std::remove(list.begin(), list.end(), node), list.end());
        node->mParent = nullptr;
    }
    void attach(aiNode *node, aiNode *parent) {
        kids(parent).push_back(node);
        node->mParent = parent;
    }
    void commit() {
        for (auto &[node, list] : mKids) {
            delete[] node->mChildren;
            node->mChildren = nullptr;
            node->mNumChildren = static_cast<unsigned>(list.size());
            if (!list.empty()) node->mChildren = CopyToNewArray(list);
        }
        mKids.clear();
    }

private:
    std::unordered_map<aiNode *, std::vector<aiNode *>> mKids;
};

struct RigNodes {
    std::vector<aiNode *> animated;  // per RigSet joint: its `:T` node, null when not built
    std::vector<std::string> tNames; // and that node's name
};

void MarkMoved(const rbx::Document &doc, std::uint32_t instance, aiNode *node) {
    const rbx::Instance &inst = doc.instances[instance];
    const std::vector<std::uint32_t> &siblings =
        inst.parent == rbx::kNoInstance ? doc.roots : doc.instances[inst.parent].children;
    const auto at = std::find(siblings.begin(), siblings.end(), instance);
    MetadataBuilder md;
    md.add(kRbxRigParent, std::string_view(node->mParent->mName.C_Str(), node->mParent->mName.length));
    md.add(kRbxRigIndex, static_cast<std::uint64_t>(at - siblings.begin()));
    md.mergeInto(node->mMetaData);
}

aiNode *JointNode(const std::string &name, const aiMatrix4x4 &local, const std::string &referent) {
    auto *node = new aiNode(name);
    node->mTransformation = local;
    MetadataBuilder md;
    md.add(kRbxJoint, referent);
    node->mMetaData = md.build();
    return node;
}

// Moves part1's node under part0's node through `<name>:C0` → `<name>:T`; returns the `:T` node or null when the
// move would put a node under itself.
aiNode *BuildMotorJoint(const rbx::Document &doc, const rbx::RigJoint &j, const std::vector<aiNode *> &nodes,
                        NodeEditor &edit, UniqueNames &names) {
    aiNode *p0 = nodes[j.part0], *p1 = nodes[j.part1];
    if (p0 == nullptr || p1 == nullptr || p1->mParent == nullptr || NodeEditor::IsWithin(p0, p1)) return nullptr;
    const std::string base = SanitizeForAiString(doc.instances[j.instance].name, 990);
    const std::string referent = rbx::ReferentText(doc, j.instance);
    aiNode *c0 = JointNode(names.make(base + ":C0"), ToAi(j.c0), referent);
    aiNode *t = JointNode(names.make(base + ":T"), aiMatrix4x4(), referent);
    MarkMoved(doc, j.part1, p1);
    edit.detach(p1);
    edit.attach(c0, p0);
    edit.attach(t, c0);
    edit.attach(p1, t);
    p1->mTransformation = ToAi(j.c1.inverse());
    return t;
}

// A Bone node keeps its rest frame; `<bone>:T` goes between it and its children.
aiNode *BuildBoneJoint(const rbx::Document &doc, const rbx::RigJoint &j, const std::vector<aiNode *> &nodes,
                       NodeEditor &edit, UniqueNames &names) {
    aiNode *bone = nodes[j.part1];
    if (bone == nullptr) return nullptr;
    const std::string base(bone->mName.C_Str(), bone->mName.length);
    aiNode *t = JointNode(names.make(base.substr(0, 990) + ":T"), aiMatrix4x4(), rbx::ReferentText(doc, j.instance));
    std::vector<aiNode *> moved = edit.kids(bone);
    edit.kids(bone).clear();
    for (aiNode *child : moved) edit.attach(child, t);
    edit.attach(t, bone);
    return t;
}

void BuildRiders(const rbx::Document &doc, const rbx::RigSet &set, const std::vector<aiNode *> &nodes,
                 NodeEditor &edit) {
    std::size_t skipped = 0;
    for (const rbx::RiderWeld &w : set.riders) {
        aiNode *rider = nodes[w.part], *on = nodes[w.on];
        if (rider == nullptr || on == nullptr || rider->mParent == nullptr || NodeEditor::IsWithin(on, rider)) {
            ++skipped;
            continue;
        }
        MarkMoved(doc, w.part, rider);
        edit.detach(rider);
        edit.attach(rider, on);
        rider->mTransformation = ToAi(w.local);
    }
    if (skipped != 0)
        LogWarn(kModule + std::to_string(skipped) + " welded part(s) left in place: riding along would put a node " +
                "under itself");
}

RigNodes BuildRigNodes(const rbx::Document &doc, const rbx::RigSet &set, const std::vector<aiNode *> &nodes,
                       UniqueNames &names) {
    NodeEditor edit;
    RigNodes out;
    out.animated.assign(set.joints.size(), nullptr);
    out.tNames.resize(set.joints.size());
    std::size_t skipped = 0;
    for (const rbx::Rig &rig : set.rigs) {
        for (std::uint32_t j : rig.joints) {
            const rbx::RigJoint &joint = set.joints[j];
            aiNode *t = joint.bone ? BuildBoneJoint(doc, joint, nodes, edit, names)
                                   : BuildMotorJoint(doc, joint, nodes, edit, names);
            if (t == nullptr) {
                ++skipped;
                continue;
            }
            out.animated[j] = t;
            out.tNames[j].assign(t->mName.C_Str(), t->mName.length);
        }
    }
    BuildRiders(doc, set, nodes, edit);
    edit.commit();
    if (skipped != 0)
        LogWarn(kModule + std::to_string(skipped) + " joint(s) left unbuilt: their part is an ancestor of the other " +
                "side in the instance tree");
    return out;
}

// The world transform of a node at rest.
aiMatrix4x4 RestWorld(const aiNode *n) {
    aiMatrix4x4 w;
    for (; n != nullptr; n = n->mParent) w = n->mTransformation * w;
    return w;
}

void CollectByName(aiNode *node, std::unordered_map<std::string, aiNode *> &out) {
    std::vector<aiNode *> stack{node};
    while (!stack.empty()) {
        aiNode *n = stack.back();
        stack.pop_back();
        out.emplace(n->mName.C_Str(), n);
        for (unsigned i = 0; i < n->mNumChildren; ++i) stack.push_back(n->mChildren[i]);
    }
}

// Skinned meshes of a rig's parts follow its Bones (§6): a mesh bone whose name a Bone of the rig has is bound to
// that Bone's `:T` node, its offset re-expressed against the Bone's rest (the mesh's bind pose is the Bones' rest,
// as Studio makes them), so the Poses that drive the Bones deform the mesh. Returns the mesh bones bound.
std::size_t BindSkinsToBones(const rbx::Document &doc, const rbx::RigSet &set, const RigNodes &rigNodes,
                             const std::vector<aiNode *> &nodes, aiScene *scene) {
    std::size_t bound = 0;
    for (const rbx::Rig &rig : set.rigs) {
        std::unordered_map<std::string, const aiNode *> boneT; // Bone name → its :T node (first wins)
        std::vector<std::uint32_t> parts{rig.root};
        for (std::uint32_t j : rig.joints) {
            const rbx::RigJoint &joint = set.joints[j];
            if (joint.bone && rigNodes.animated[j] != nullptr)
                boneT.emplace(doc.instances[joint.part1].name, rigNodes.animated[j]);
            else if (!joint.bone)
                parts.push_back(joint.part1);
        }
        if (boneT.empty()) continue;
        for (std::uint32_t part : parts) {
            aiNode *node = nodes[part];
            if (node == nullptr || node->mNumMeshes == 0) continue;
            std::unordered_map<std::string, aiNode *> below;
            CollectByName(node, below);
            const aiMatrix4x4 partWorld = RestWorld(node);
            for (unsigned m = 0; m < node->mNumMeshes; ++m) {
                if (node->mMeshes[m] >= scene->mNumMeshes) continue;
                aiMesh *mesh = scene->mMeshes[node->mMeshes[m]];
                for (unsigned b = 0; b < mesh->mNumBones; ++b) {
                    aiBone *bone = mesh->mBones[b];
                    const auto skel = below.find(bone->mName.C_Str());
                    std::string meshBone;
                    if (skel == below.end() || skel->second->mMetaData == nullptr ||
                        !GetMetadataText(skel->second->mMetaData, kRbxMeshBone, meshBone))
                        continue;
                    const auto t = boneT.find(meshBone);
                    if (t == boneT.end()) continue;
                    bone->mName = t->second->mName;
                    bone->mOffsetMatrix = RestWorld(t->second).Inverse() * partWorld;
                    ++bound;
                }
            }
        }
    }
    return bound;
}

// The times at which a channel is sampled (§7.2): every key; Constant segments get a key one tick before their
// switch; Cubic, CubicV2, Bounce and Elastic segments are baked at `fps` (plus Bounce's contact points); a hold
// key at 0 and at the sequence's length when the track starts later or ends earlier.
std::vector<double> SampleTimes(const rbx::Track &track, double length, unsigned fps) {
    const auto &k = track.keys;
    std::vector<double> times;
    if (k.front().time > 0) times.push_back(0);
    const double h = 1.0 / fps;
    for (std::size_t i = 0; i < k.size(); ++i) {
        const double a = k[i].time;
        times.push_back(a);
        if (i + 1 == k.size()) break;
        const double b = k[i + 1].time, d = b - a;
        using S = rbx::EasingStyle;
        using D = rbx::EasingDirection;
        const S style = k[i].style;
        const D dir = static_cast<std::uint32_t>(k[i].direction) > 2 ? D::In : k[i].direction;
        if (style == S::Linear || static_cast<std::uint32_t>(style) > 5) continue;
        if (style == S::Constant) { // In switches at once, Out at the next key, InOut half way
            const double eps = std::min(kEpsilon, d / 4);
            const double at = dir == D::In ? a + eps : dir == D::Out ? b : a + d / 2;
            if (dir != D::In) times.push_back(at - eps);
            times.push_back(at);
            continue;
        }
        const double step = std::max(h, d / rbx::kMaxBakedKeysPerSegment);
        for (double t = a + step; t < b - step / 2; t += step) times.push_back(t);
        if (style == S::Bounce) { // the bounce's kinks
            for (double x : {4.0 / 11, 8.0 / 11, 10.0 / 11}) {
                if (dir == D::In) times.push_back(a + (1 - x) * d);
                if (dir == D::Out) times.push_back(a + x * d);
                if (dir == D::InOut) {
                    times.push_back(a + (1 - x) / 2 * d);
                    times.push_back(a + (1 - x / 2) * d);
                }
            }
        }
    }
    if (k.back().time < length) times.push_back(length);
    std::sort(times.begin(), times.end());
    times.erase(std::unique(times.begin(), times.end(), [](double x, double y) { return y - x < 1e-9; }), times.end());
    return times;
}

aiNodeAnim *Channel(const rbx::Track &track, const std::string &node, double length, unsigned fps) {
    const std::vector<double> times = SampleTimes(track, length, fps);
    auto *ch = new aiNodeAnim();
    ch->mNodeName = ToAiString(node);
    ch->mNumPositionKeys = ch->mNumRotationKeys = static_cast<unsigned>(times.size());
    ch->mPositionKeys = new aiVectorKey[times.size()];
    ch->mRotationKeys = new aiQuatKey[times.size()];
    ch->mNumScalingKeys = 1;
    ch->mScalingKeys = new aiVectorKey[1];
    ch->mScalingKeys[0] = aiVectorKey(0, aiVector3D(1, 1, 1));
    ch->mPreState = ch->mPostState = aiAnimBehaviour_CONSTANT;
    Quatd prev;
    for (std::size_t i = 0; i < times.size(); ++i) {
        const Rigid t = rbx::EvaluateTrack(track, times[i]);
        Quatd q = QuatFromRigid(t);
        if (i > 0 && q.w * prev.w + q.x * prev.x + q.y * prev.y + q.z * prev.z < 0) q = {-q.w, -q.x, -q.y, -q.z};
        prev = q;
        const double tick = times[i] * kTicksPerSecond;
        ch->mPositionKeys[i] = aiVectorKey(
            tick, aiVector3D(static_cast<ai_real>(t.p[0]), static_cast<ai_real>(t.p[1]), static_cast<ai_real>(t.p[2])));
        ch->mRotationKeys[i] = aiQuatKey(tick, aiQuaternion(static_cast<ai_real>(q.w), static_cast<ai_real>(q.x),
                                                            static_cast<ai_real>(q.y), static_cast<ai_real>(q.z)));
    }
    return ch;
}

// A joint no track drives: its rest Transform (identity), one key.
aiNodeAnim *RestChannel(const std::string &node) {
    auto *ch = new aiNodeAnim();
    ch->mNodeName = ToAiString(node);
    ch->mNumPositionKeys = ch->mNumRotationKeys = ch->mNumScalingKeys = 1;
    ch->mPositionKeys = new aiVectorKey[1];
    ch->mRotationKeys = new aiQuatKey[1];
    ch->mScalingKeys = new aiVectorKey[1];
    ch->mPositionKeys[0] = aiVectorKey(0, aiVector3D(0, 0, 0));
    ch->mRotationKeys[0] = aiQuatKey(0, aiQuaternion(1, 0, 0, 0));
    ch->mScalingKeys[0] = aiVectorKey(0, aiVector3D(1, 1, 1));
    ch->mPreState = ch->mPostState = aiAnimBehaviour_CONSTANT;
    return ch;
}

// "Workspace/Rig/AnimSaves/Walk": the instance path of a sequence.
std::string InstancePath(const rbx::Document &doc, std::uint32_t i) {
    std::vector<std::string_view> parts;
    std::size_t guard = doc.instances.size();
    for (; i != rbx::kNoInstance && guard-- > 0; i = doc.instances[i].parent) parts.push_back(doc.instances[i].name);
    std::string out;
    for (auto it = parts.rbegin(); it != parts.rend(); ++it) out += (out.empty() ? "" : "/") + std::string(*it);
    return out;
}

// The rigs a sequence drives (§4.3): every rig on which all its tracks bind; else the rigs binding the most (all of
// them when several bind as many: alike characters), if at least half.
std::vector<std::pair<std::size_t, std::vector<std::int64_t>>>
ChooseRigs(const rbx::Document &doc, const rbx::RigSet &set, const rbx::Sequence &seq) {
    std::vector<std::pair<std::size_t, std::vector<std::int64_t>>> all, best;
    std::size_t bestCount = 0;
    for (std::size_t r = 0; r < set.rigs.size(); ++r) {
        std::vector<std::int64_t> bind = rbx::BindTracks(doc, set, set.rigs[r], seq);
        const auto bound =
            static_cast<std::size_t>(std::count_if(bind.begin(), bind.end(), [](auto j) { return j >= 0; }));
        if (bound == seq.tracks.size()) all.emplace_back(r, bind);
        if (bound > bestCount) {
            bestCount = bound;
            best.assign(1, {r, bind});
        } else if (bound == bestCount && bound > 0) {
            best.emplace_back(r, bind); // rigs alike (two R15 characters): every one the sequence drives as well
        }
    }
    if (!all.empty()) return all;
    if (bestCount * 2 >= seq.tracks.size() && bestCount > 0) return best;
    return {};
}

struct AnimationOut {
    unsigned first = 0; // the scene's animations before these
    std::vector<aiAnimation *> animations;
    MetadataBuilder metadata;
    std::map<std::string, int> nameUses;
};

// One sequence to import: from the file, or from the animation asset an Animation instance names.
struct SequenceSource {
    const rbx::Sequence &seq;
    std::string name;        // the animation's name (before "@rig" and " #2")
    std::string path;        // the instance path of the KeyframeSequence or the Animation
    std::string animationId; // the asset's URI, for an asset
    std::size_t rig;         // the rig it belongs to, or RigSet::rigs.size(): by binding
};

void AddAnimationMetadata(const SequenceSource &src, const rbx::Rig &rig, const std::vector<std::int64_t> &bind,
                          AnimationOut &out) {
    const rbx::Sequence &seq = src.seq;
    const std::string p = kAnimationMetadataPrefix + std::to_string(out.first + out.animations.size()) + ".";
    MetadataBuilder &md = out.metadata;
    md.add(p + "rbx.sequence", seq.name);
    md.add(p + "rbx.rig", rig.name);
    md.add(p + "rbx.path", src.path);
    if (!src.animationId.empty()) md.add(p + "rbx.animationId", src.animationId);
    md.add(p + "rbx.loop", seq.loop);
    md.add(p + "rbx.priority", static_cast<std::int32_t>(std::clamp<std::int64_t>(seq.priority, INT32_MIN, INT32_MAX)));
    md.add(p + "rbx.authoredHipHeight", seq.authoredHipHeight);
    md.add(p + "rbx.keyframes", static_cast<std::uint64_t>(seq.keyframes));
    if (seq.rootMotion) md.add(p + "rbx.rootMotion", true);
    if (!seq.markers.empty()) {
        std::string json = "[";
        for (const rbx::Marker &m : seq.markers)
            json += (json.size() > 1 ? "," : "") + std::string("{\"time\":") + std::to_string(m.time) +
                    ",\"name\":" + JsonQuote(m.name) + ",\"value\":" + JsonQuote(m.value) + "}";
        md.add(p + "rbx.markers", json + "]");
    }
    std::string unbound;
    for (std::size_t t = 0; t < bind.size(); ++t)
        if (bind[t] < 0)
            unbound += (unbound.empty() ? "[" : ",") + JsonQuote(seq.tracks[t].parent + "/" + seq.tracks[t].name);
    if (!unbound.empty()) md.add(p + "rbx.unboundTracks", unbound + "]");
}

// A character's dynamic head (docs/formats/roblox-avatar.md §5): the node whose mesh carries the baked FACS morph
// targets, their names (FACS codes, correctives "c_A+c_B"), and the FaceControls values the file sets.
struct FaceTarget {
    std::string node;
    std::vector<std::string> targets;
    std::vector<std::pair<std::string, float>> rest;
};

// The dynamic heads of the document's characters, by character Model.
std::map<std::uint32_t, FaceTarget> FaceTargets(const rbx::Document &doc, const std::vector<aiNode *> &nodes,
                                                const aiScene *scene) {
    std::map<std::uint32_t, FaceTarget> out;
    for (const rbx::Character &ch : rbx::FindCharacters(doc)) {
        if (ch.head == rbx::kNoInstance || ch.faceControls == rbx::kNoInstance || nodes[ch.head] == nullptr) continue;
        const aiNode *node = nodes[ch.head];
        for (unsigned k = 0; k < node->mNumMeshes; ++k) {
            const aiMesh *mesh = node->mMeshes[k] < scene->mNumMeshes ? scene->mMeshes[node->mMeshes[k]] : nullptr;
            if (mesh == nullptr || mesh->mNumAnimMeshes == 0) continue;
            FaceTarget face;
            face.node = node->mName.C_Str();
            for (unsigned a = 0; a < mesh->mNumAnimMeshes; ++a)
                face.targets.emplace_back(mesh->mAnimMeshes[a]->mName.C_Str());
            face.rest = rbx::FaceControlValues(doc, ch.faceControls);
            out.emplace(ch.model, std::move(face));
            break;
        }
    }
    return out;
}

// §5: the sequence's face tracks as one morph weight channel on the head: a key at every face key time, each target
// weighted by its control's value there (a control the sequence does not animate keeps the file's FaceControls
// value), a corrective by the product of its components'. Null when the sequence animates no control.
aiMeshMorphAnim *MorphChannel(const rbx::Sequence &seq, const FaceTarget &face) {
    std::set<double> times;
    for (const rbx::FaceTrack &f : seq.faces)
        for (const rbx::FaceKey &k : f.keys) times.insert(k.time);
    if (times.empty()) return nullptr;
    auto *ch = new aiMeshMorphAnim();
    ch->mName = ToAiString(face.node);
    ch->mNumKeys = static_cast<unsigned>(times.size());
    ch->mKeys = new aiMeshMorphKey[times.size()];
    const auto count = static_cast<unsigned>(face.targets.size());
    unsigned k = 0;
    for (const double t : times) {
        aiMeshMorphKey &key = ch->mKeys[k++];
        key.mTime = t * kTicksPerSecond;
        key.mNumValuesAndWeights = count;
        key.mValues = new unsigned[count];
        key.mWeights = new double[count];
        const auto valueOf = [&](std::string_view control) {
            for (const rbx::FaceTrack &f : seq.faces)
                if (f.control == control) return rbx::EvaluateFaceTrack(f, t);
            for (const auto &[name, value] : face.rest)
                if (name == control) return static_cast<double>(value);
            return 0.0;
        };
        for (unsigned j = 0; j < count; ++j) {
            key.mValues[j] = j;
            key.mWeights[j] = rbx::FacsTargetWeight(face.targets[j], valueOf);
        }
    }
    return ch;
}

aiAnimation *MakeAnimation(const SequenceSource &src, const rbx::RigSet &set, const rbx::Rig &rig,
                           const std::vector<std::int64_t> &bind, const RigNodes &rigNodes, unsigned fps,
                           const FaceTarget *face) {
    const rbx::Sequence &seq = src.seq;
    std::vector<aiNodeAnim *> channels;
    for (std::size_t t = 0; t < seq.tracks.size(); ++t)
        if (bind[t] >= 0 && rigNodes.animated[static_cast<std::size_t>(bind[t])] != nullptr)
            channels.push_back(
                Channel(seq.tracks[t], rigNodes.tNames[static_cast<std::size_t>(bind[t])], seq.length, fps));
    aiMeshMorphAnim *morph = face != nullptr ? MorphChannel(seq, *face) : nullptr;
    if (channels.empty() && morph == nullptr) return nullptr;
    // Every other joint of the rig holds its rest pose (one key): players that keep a joint's last pose when
    // switching animations (Blender's action switching) then show each animation as Roblox plays it alone.
    std::vector<bool> keyed(set.joints.size(), false);
    for (std::int64_t j : bind)
        if (j >= 0) keyed[static_cast<std::size_t>(j)] = true;
    for (std::uint32_t j : rig.joints)
        if (!keyed[j] && rigNodes.animated[j] != nullptr) channels.push_back(RestChannel(rigNodes.tNames[j]));
    auto *anim = new aiAnimation();
    anim->mTicksPerSecond = kTicksPerSecond;
    anim->mDuration = seq.length * kTicksPerSecond;
    anim->mNumChannels = static_cast<unsigned>(channels.size());
    anim->mChannels = channels.empty() ? nullptr : CopyToNewArray(channels);
    if (morph != nullptr) {
        anim->mNumMorphMeshChannels = 1;
        anim->mMorphMeshChannels = new aiMeshMorphAnim *[1] { morph };
    }
    return anim;
}

void AddSequence(const rbx::Document &doc, const rbx::RigSet &set, const RigNodes &rigNodes, const SequenceSource &src,
                 unsigned fps, const std::map<std::uint32_t, FaceTarget> &faces, AnimationOut &out) {
    const rbx::Sequence &seq = src.seq;
    auto chosen = ChooseRigs(doc, set, seq);
    if (src.rig < set.rigs.size()) // an Animation under a rig's Animator: that rig
        chosen.assign(1, {src.rig, rbx::BindTracks(doc, set, set.rigs[src.rig], seq)});
    if (chosen.empty()) {
        LogWarn(kModule + "KeyframeSequence '" + seq.name + "' (" + std::to_string(seq.tracks.size()) +
                " tracks) binds to no rig's joints in this file; not imported");
        return;
    }
    for (const auto &[r, bind] : chosen) {
        const rbx::Rig &rig = set.rigs[r];
        const auto face = faces.find(rig.model);
        aiAnimation *anim =
            MakeAnimation(src, set, rig, bind, rigNodes, fps, face != faces.end() ? &face->second : nullptr);
        if (anim == nullptr) continue;
        std::string name = chosen.size() == 1 ? src.name : src.name + "@" + rig.name;
        const int use = ++out.nameUses[name];
        if (use > 1) name += " #" + std::to_string(use);
        anim->mName = ToAiString(SanitizeForAiString(name));
        AddAnimationMetadata(src, rig, bind, out);
        out.animations.push_back(anim);
        const std::size_t unbound = static_cast<std::size_t>(std::count(bind.begin(), bind.end(), -1));
        if (unbound != 0)
            LogWarn(kModule + "KeyframeSequence '" + seq.name + "': " + std::to_string(unbound) + " of " +
                    std::to_string(bind.size()) + " tracks bind to no joint of rig '" + rig.name +
                    "' (listed in the animation's rbx.unboundTracks)");
    }
}

// The URI an Animation names: AnimationId, else AnimationContent's.
std::string AnimationUri(const rbx::Document &doc, const rbx::Instance &inst) {
    if (const rbx::Property *p = doc.findProperty(inst, "AnimationId"))
        if (const auto *text = std::get_if<std::string>(&p->value.data); text != nullptr && !text->empty())
            return *text;
    if (const rbx::Property *p = doc.findProperty(inst, "AnimationContent"))
        if (const auto *c = std::get_if<rbx::Content>(&p->value.data);
            c != nullptr && c->source == rbx::Content::Source::Uri)
            return c->uri;
    return {};
}

// The KeyframeSequences of the animation asset `uri` names (empty when unresolved or unreadable: warned).
std::vector<rbx::Sequence> AssetSequences(const std::string &uri, const RbxAssetResolver &assets, unsigned fps) {
    const std::optional<RbxAsset> asset = assets(uri, RbxAssetKind::Animation);
    if (!asset) return {};
    std::vector<std::string> warnings;
    try {
        const rbx::Document doc = rbx::ReadDocument(asset->bytes.data(), asset->bytes.size());
        std::vector<rbx::Sequence> out = rbx::ReadSequences(doc, warnings);
        for (rbx::Sequence &curve : rbx::ReadCurveAnimations(doc, fps, warnings)) out.push_back(std::move(curve));
        for (const std::string &w : warnings) LogWarn(kModule + SanitizeForAiString(asset->path, 300) + ": " + w);
        if (out.empty())
            LogWarn(kModule + "animation asset " + SanitizeForAiString(asset->path, 300) +
                    " holds no KeyframeSequence or CurveAnimation");
        return out;
    } catch (const FormatError &e) {
        LogWarn(kModule + "animation asset " + SanitizeForAiString(asset->path, 300) + " cannot be read: " + e.what());
        return {};
    }
}

// Animation instances: their assets' sequences, for the rig whose Animator (or AnimationController) holds them.
void AddAnimationAssets(const rbx::Document &doc, const rbx::RigSet &set, const RigNodes &rigNodes,
                        const RbxRigOptions &options, const std::map<std::uint32_t, FaceTarget> &faces,
                        AnimationOut &out) {
    std::map<std::string, std::vector<rbx::Sequence>> cache;
    std::set<std::string> missing;
    for (std::uint32_t i = 0; i < doc.instances.size(); ++i) {
        const rbx::Instance &inst = doc.instances[i];
        if (doc.className(inst) != "Animation") continue;
        const std::string uri = AnimationUri(doc, inst);
        if (uri.empty()) continue;
        auto it = cache.find(uri);
        if (it == cache.end())
            it = cache
                     .emplace(uri, options.assets ? AssetSequences(uri, options.assets, options.fps)
                                                  : std::vector<rbx::Sequence>())
                     .first;
        if (it->second.empty()) {
            missing.insert(uri);
            continue;
        }
        std::size_t rig = set.rigs.size();
        std::size_t guard = doc.instances.size();
        for (std::uint32_t a = inst.parent; a != rbx::kNoInstance && guard-- > 0 && rig == set.rigs.size();
             a = doc.instances[a].parent)
            for (std::size_t r = 0; r < set.rigs.size(); ++r)
                if (set.rigs[r].model == a) rig = r;
        for (const rbx::Sequence &seq : it->second)
            if (!seq.tracks.empty() || !seq.faces.empty())
                AddSequence(doc, set, rigNodes, {seq, inst.name, InstancePath(doc, i), uri, rig}, options.fps, faces,
                            out);
    }
    if (!missing.empty())
        LogWarn(kModule + std::to_string(missing.size()) + " animation asset(s) named by Animation instances are not " +
                (options.assets ? "in the asset folders" : "looked up (no asset folder given: --asset-dir)") +
                ": put their downloaded .rbxm/.rbxmx there as <id> or <id>.rbxm (`gamefmt assets --missing` lists "
                "the ids)");
}

void AppendAnimations(aiScene *scene, AnimationOut &out) {
    if (out.animations.empty()) return;
    std::vector<aiAnimation *> all(scene->mAnimations, scene->mAnimations + scene->mNumAnimations);
    all.insert(all.end(), out.animations.begin(), out.animations.end());
    delete[] scene->mAnimations;
    scene->mNumAnimations = static_cast<unsigned>(all.size());
    scene->mAnimations = CopyToNewArray(all);
    out.metadata.mergeInto(scene->mMetaData);
}

} // namespace

void AddRobloxRigs(const rbx::Document &doc, const std::vector<aiNode *> &nodes, const RbxRigOptions &options,
                   aiScene *scene, UniqueNames &names) {
    if (!options.rigs) return;
    // Accessories a saved file holds without their AccessoryWeld are worn by their matching attachments
    // (docs/formats/roblox-avatar.md §6).
    std::vector<rbx::ImpliedWeld> worn;
    for (const rbx::Character &ch : rbx::FindCharacters(doc))
        for (const rbx::AccessoryInfo &a : ch.accessories)
            if (a.bodyPart != rbx::kNoInstance) worn.push_back({a.bodyPart, a.handle, a.placement});
    const rbx::RigSet set = rbx::FindRigs(doc, worn);
    for (const std::string &w : set.warnings) LogWarn(kModule + w);
    const RigNodes rigNodes = BuildRigNodes(doc, set, nodes, names);
    BindSkinsToBones(doc, set, rigNodes, nodes, scene);
    if (!options.animations) return;
    std::vector<std::string> warnings;
    std::vector<rbx::Sequence> sequences = rbx::ReadSequences(doc, warnings);
    for (rbx::Sequence &curve : rbx::ReadCurveAnimations(doc, options.fps, warnings))
        sequences.push_back(std::move(curve));
    for (const std::string &w : warnings) LogWarn(kModule + w);
    AnimationOut out;
    out.first = scene->mNumAnimations;
    const std::map<std::uint32_t, FaceTarget> faces = FaceTargets(doc, nodes, scene);
    std::size_t empty = 0;
    for (const rbx::Sequence &seq : sequences) {
        if (seq.tracks.empty() && seq.faces.empty()) {
            ++empty;
            continue;
        }
        AddSequence(doc, set, rigNodes, {seq, seq.name, InstancePath(doc, seq.instance), {}, set.rigs.size()},
                    std::max(1u, options.fps), faces, out);
    }
    if (empty != 0)
        LogWarn(kModule + std::to_string(empty) +
                " KeyframeSequence(s) or CurveAnimation(s) without a single key skipped");
    AddAnimationAssets(doc, set, rigNodes, options, faces, out);
    AppendAnimations(scene, out);
}

} // namespace gamefmt::glue
