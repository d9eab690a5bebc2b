// Animations back to Roblox (anim_export.hpp; docs/formats/roblox-model.md §5.6 and §6).
#include "assimp_glue/roblox_model/anim_export.hpp"

#include "assimp_glue/common/scene_util.hpp"
#include "assimp_glue/roblox_model/rigs.hpp"
#include "common/error.hpp"
#include "gamefmt/metadata.hpp"
#include "importers/roblox_model/document/dom.hpp"
#include "importers/roblox_model/document/value_text.hpp"
#include "importers/roblox_model/motion/easing.hpp"
#include "importers/roblox_model/motion/keyframes.hpp"
#include "importers/roblox_model/motion/rigs.hpp"

#include <assimp/scene.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <set>
#include <string>
#include <string_view>
#include <unordered_map>
#include <unordered_set>

namespace gamefmt::glue {
namespace {

rbx::CFrame CFrameOf(const Rigid &t) {
    rbx::CFrame cf;
    cf.position = {static_cast<float>(t.p[0]), static_cast<float>(t.p[1]), static_cast<float>(t.p[2])};
    for (std::size_t i = 0; i < 9; ++i) cf.rotation[i] = static_cast<float>(t.r[i]);
    return cf;
}

// One animation of the scene, evaluated: node transforms at a time (glTF LINEAR: lerp, slerp; held outside).
class SceneAt {
public:
    SceneAt(const aiScene &scene, const aiAnimation &anim, double unitToStuds) : mUnit(unitToStuds) {
        mTps = anim.mTicksPerSecond > 0 ? anim.mTicksPerSecond : 25.0;
        std::vector<const aiNode *> stack{scene.mRootNode};
        while (!stack.empty()) {
            const aiNode *n = stack.back();
            stack.pop_back();
            mByName.emplace(n->mName.C_Str(), n);
            // The nodes gamefmt made for a joint name its referent (rbx.joint; kept in a glb's node extras, which
            // Assimp's glTF importer reads back as node metadata).
            std::string joint;
            if (n->mMetaData != nullptr && GetMetadataText(n->mMetaData, kRbxJoint, joint))
                mByJoint[joint].push_back(n);
            for (unsigned i = n->mNumChildren; i-- > 0;) stack.push_back(n->mChildren[i]);
        }
        for (unsigned c = 0; c < anim.mNumChannels; ++c)
            if (const aiNodeAnim *ch = anim.mChannels[c]; ch != nullptr)
                if (const aiNode *n = find(ch->mNodeName.C_Str())) mChannel.emplace(n, Channel{ch, {}, {}});
    }
    const aiNode *find(const std::string &name) const {
        const auto it = mByName.find(name);
        return it == mByName.end() ? nullptr : it->second;
    }
    // The nodes that name the joint with this referent (its `:C0` and `:T` nodes, its part), in scene order.
    const std::vector<const aiNode *> &jointNodes(const std::string &referent) const {
        static const std::vector<const aiNode *> kNone;
        const auto it = mByJoint.find(referent);
        return it == mByJoint.end() ? kNone : it->second;
    }
    bool animated(const aiNode *n) const { return mChannel.count(n) != 0; }
    // Key times (seconds) of a node's channel.
    void keyTimes(const aiNode *n, std::set<double> &out) const {
        const auto it = mChannel.find(n);
        if (it == mChannel.end()) return;
        const aiNodeAnim &ch = *it->second.anim;
        for (unsigned k = 0; k < ch.mNumPositionKeys; ++k) out.insert(Snap(ch.mPositionKeys[k].mTime / mTps));
        for (unsigned k = 0; k < ch.mNumRotationKeys; ++k) out.insert(Snap(ch.mRotationKeys[k].mTime / mTps));
    }
    // The node's local transform at `t`, translation in studs.
    Rigid local(const aiNode *n, double t) const {
        Rigid out = RigidFromAi(n->mTransformation);
        const auto it = mChannel.find(n);
        if (it != mChannel.end()) {
            const aiNodeAnim &ch = *it->second.anim;
            const double tick = t * mTps;
            if (ch.mNumPositionKeys != 0) {
                const aiVector3D p = Lerp(ch.mPositionKeys, ch.mNumPositionKeys, tick, it->second.position);
                out.p = {p.x, p.y, p.z};
            }
            if (ch.mNumRotationKeys != 0) {
                const aiQuaternion q = SlerpKeys(ch.mRotationKeys, ch.mNumRotationKeys, tick, it->second.rotation);
                out = RigidFromQuat({q.w, q.x, q.y, q.z}, out.p);
            }
        }
        out.p = out.p * mUnit;
        return out;
    }
    Rigid world(const aiNode *n, double t) const {
        Rigid w;
        for (; n != nullptr; n = n->mParent) w = local(n, t) * w;
        return w;
    }

    static double Snap(double seconds) { return std::round(seconds * rbx::kTicksPerSecond) / rbx::kTicksPerSecond; }

private:
    // The segment a sample falls in: the first i with tick < key[i + 1].mTime (the last key when none). That index
    // never decreases as tick grows, whatever the key order, so a cursor kept per channel finds it by moving forward:
    // sampling a channel at increasing times costs O(keys + samples), not O(keys × samples). A smaller tick starts
    // over (once per joint: each joint's samples are in time order).
    struct KeyCursor {
        unsigned i = 0;
        double last = 0;
        template <typename Key> unsigned seek(const Key *k, unsigned n, double tick) {
            if (!(tick >= last)) i = 0;
            last = tick;
            while (i + 1 < n && !(tick < k[i + 1].mTime)) ++i;
            return i;
        }
    };
    struct Channel {
        const aiNodeAnim *anim;
        mutable KeyCursor position, rotation;
    };

    static aiVector3D Lerp(const aiVectorKey *k, unsigned n, double tick, KeyCursor &cursor) {
        if (tick <= k[0].mTime) return k[0].mValue;
        const unsigned i = cursor.seek(k, n, tick);
        if (i + 1 == n) return k[n - 1].mValue;
        const auto u = static_cast<ai_real>((tick - k[i].mTime) / (k[i + 1].mTime - k[i].mTime));
        return k[i].mValue + (k[i + 1].mValue - k[i].mValue) * u;
    }
    static aiQuaternion SlerpKeys(const aiQuatKey *k, unsigned n, double tick, KeyCursor &cursor) {
        if (tick <= k[0].mTime) return k[0].mValue;
        const unsigned i = cursor.seek(k, n, tick);
        if (i + 1 == n) return k[n - 1].mValue;
        const double u = (tick - k[i].mTime) / (k[i + 1].mTime - k[i].mTime);
        const aiQuaternion &a = k[i].mValue, &b = k[i + 1].mValue;
        const Quatd q = Slerp({a.w, a.x, a.y, a.z}, {b.w, b.x, b.y, b.z}, u);
        return aiQuaternion(static_cast<ai_real>(q.w), static_cast<ai_real>(q.x), static_cast<ai_real>(q.y),
                            static_cast<ai_real>(q.z));
    }

    double mUnit, mTps = 25;
    std::unordered_map<std::string, const aiNode *> mByName;
    std::unordered_map<std::string, std::vector<const aiNode *>> mByJoint;
    std::unordered_map<const aiNode *, Channel> mChannel;
};

// How one joint's Transform is read from the scene.
struct JointSource {
    const aiNode *tNode = nullptr;             // gamefmt's layout: the joint's own animated node
    const aiNode *p0 = nullptr, *p1 = nullptr; // otherwise: the nodes of its two parts
    std::set<double> times;                    // key times that move it
    Rigid transformAt(const SceneAt &s, const rbx::RigJoint &j, double t) const {
        if (tNode != nullptr) return s.local(tNode, t);
        return j.c0.inverse() * s.world(p0, t).inverse() * s.world(p1, t) * j.c1;
    }
};

std::vector<const aiNode *> PathTo(const aiNode *n) {
    std::vector<const aiNode *> path;
    for (; n != nullptr; n = n->mParent) path.push_back(n);
    return path;
}

// `name` is `base`, or `base` made unique by UniqueNames (`base.1`, `base.2`, ...).
bool IsNameOrUniquified(std::string_view name, std::string_view base) {
    if (name.substr(0, base.size()) != base) return false;
    if (name.size() == base.size()) return true;
    if (name.size() < base.size() + 2 || name[base.size()] != '.') return false;
    return std::all_of(name.begin() + static_cast<std::ptrdiff_t>(base.size()) + 1, name.end(),
                       [](char c) { return c >= '0' && c <= '9'; });
}

// Where joint j's Transform comes from in this animation, or nothing (not animated).
JointSource FindJointSource(const rbx::Document &rig, const rbx::RigJoint &j, const SceneAt &s) {
    JointSource src;
    const std::string name = j.bone ? rig.instances[j.part1].name : rig.instances[j.instance].name;
    // The node that names this very joint first: with two alike rigs (two R15 characters) the second rig's
    // `RightShoulder:T` has a uniquified name (`RightShoulder:T.1`), and the plain name is the first rig's. A
    // referent alone is not trusted (two files gamefmt wrote can share referents): the node's name must be the
    // joint's, uniquified or not.
    const std::string tName = name + ":T";
    for (const aiNode *n : s.jointNodes(rbx::ReferentText(rig, j.instance)))
        if (IsNameOrUniquified(n->mName.C_Str(), tName)) {
            src.tNode = n;
            break;
        }
    if (src.tNode == nullptr) src.tNode = s.find(tName);
    if (src.tNode != nullptr) {
        s.keyTimes(src.tNode, src.times);
        return src;
    }
    if (j.bone) return src;
    src.p0 = s.find(rig.instances[j.part0].name);
    src.p1 = s.find(rig.instances[j.part1].name);
    if (src.p0 == nullptr || src.p1 == nullptr) return src;
    // Channels on one part's path and not the other's move the joint (a common ancestor moves both).
    const std::vector<const aiNode *> a = PathTo(src.p0), b = PathTo(src.p1);
    const std::unordered_set<const aiNode *> inA(a.begin(), a.end()), inB(b.begin(), b.end());
    for (const aiNode *n : a)
        if (inB.count(n) == 0) s.keyTimes(n, src.times);
    for (const aiNode *n : b)
        if (inA.count(n) == 0) s.keyTimes(n, src.times);
    return src;
}

struct SequenceWriter {
    rbx::Document &out;
    const rbx::Document &rig;
    const rbx::RigSet &set;
    const rbx::Rig &chosen;
    std::unordered_map<std::uint32_t, std::uint32_t> parentJoint; // joint → the joint its part0 hangs from

    void prop(std::uint32_t i, const char *name, rbx::Type type, rbx::ValueData data) {
        rbx::Property p;
        p.name = out.names.intern(name);
        p.value.type = type;
        p.value.data = std::move(data);
        out.instances[i].properties.push_back(std::move(p));
    }
    std::uint32_t pose(const char *name, std::uint32_t parent, float weight, const Rigid &t) {
        const std::uint32_t p = out.addInstance("Pose", name, parent);
        prop(p, "CFrame", rbx::Type::CFrame, CFrameOf(t));
        prop(p, "EasingDirection", rbx::Type::Enum, rbx::EnumValue{0});
        prop(p, "EasingStyle", rbx::Type::Enum, rbx::EnumValue{0});
        prop(p, "Weight", rbx::Type::Float32, weight);
        return p;
    }
    // The Pose of joint j in this keyframe, made (with its path, Weight 0) when missing.
    std::uint32_t poseOf(std::uint32_t j, std::uint32_t rootPose,
                         std::unordered_map<std::uint32_t, std::uint32_t> &made) {
        std::vector<std::uint32_t> chain;
        for (std::uint32_t k = j; made.count(k) == 0;) {
            chain.push_back(k);
            const auto up = parentJoint.find(k);
            if (up == parentJoint.end() || chain.size() > set.joints.size()) break;
            k = up->second;
        }
        for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
            const auto up = parentJoint.find(*it);
            const std::uint32_t parent =
                up != parentJoint.end() && made.count(up->second) != 0 ? made[up->second] : rootPose;
            made[*it] = pose(rig.instances[set.joints[*it].part1].name.c_str(), parent, 0, Rigid());
        }
        return made[j];
    }
};

double HipHeight(const rbx::Document &rig, const rbx::Rig &chosen) {
    if (chosen.model == rbx::kNoInstance) return 2;
    for (std::uint32_t c : rig.instances[chosen.model].children) {
        if (c >= rig.instances.size() || rig.className(rig.instances[c]) != "Humanoid") continue;
        const rbx::Property *p = rig.findProperty(rig.instances[c], "HipHeight");
        if (p != nullptr)
            if (const auto *f = std::get_if<float>(&p->value.data); f != nullptr && std::isfinite(*f)) return *f;
    }
    return 2;
}

void WriteSequence(SequenceWriter &w, const aiScene &scene, unsigned a, const SceneAt &s,
                   const std::vector<JointSource> &src) {
    const aiAnimation &anim = *scene.mAnimations[a];
    const std::uint32_t seq = w.out.addInstance("KeyframeSequence", anim.mName.C_Str(), rbx::kNoInstance);
    const std::string meta = kAnimationMetadataPrefix + std::to_string(a) + ".rbx.";
    bool loop = true;
    std::int32_t priority = 2;
    if (scene.mMetaData != nullptr) {
        scene.mMetaData->Get(meta + "loop", loop);
        scene.mMetaData->Get(meta + "priority", priority);
    }
    w.prop(seq, "AuthoredHipHeight", rbx::Type::Float32, static_cast<float>(HipHeight(w.rig, w.chosen)));
    w.prop(seq, "Loop", rbx::Type::Bool, loop);
    w.prop(seq, "Priority", rbx::Type::Enum, rbx::EnumValue{static_cast<std::uint32_t>(priority)});
    std::set<double> times{0.0};
    for (std::uint32_t j : w.chosen.joints) times.insert(src[j].times.begin(), src[j].times.end());
    const std::string rootName = w.rig.instances[w.chosen.root].name;
    for (double t : times) {
        if (t < 0) continue;
        const std::uint32_t key = w.out.addInstance("Keyframe", "Keyframe", seq);
        w.prop(key, "Time", rbx::Type::Float32, static_cast<float>(t));
        const std::uint32_t root = w.pose(rootName.c_str(), key, 0, Rigid());
        std::unordered_map<std::uint32_t, std::uint32_t> made;
        for (std::uint32_t j : w.chosen.joints) { // parents first
            if (src[j].times.count(t) == 0) continue;
            const auto up = w.parentJoint.find(j);
            const std::uint32_t parent = up == w.parentJoint.end() ? root : w.poseOf(up->second, root, made);
            const rbx::RigJoint &joint = w.set.joints[j];
            made[j] = w.pose(w.rig.instances[joint.part1].name.c_str(), parent, 1, src[j].transformAt(s, joint, t));
        }
    }
}

} // namespace

rbx::Document AnimationsToRoblox(const aiScene &scene, const rbx::Document &rig,
                                 const AnimationExportOptions &options) {
    const rbx::RigSet set = rbx::FindRigs(rig);
    if (set.rigs.empty())
        throw FormatError(rbx::kFormatName, "the target rig has no Motor6D joints or Bones to animate");
    double unit = 1 / options.metresPerStud;
    double usf = 0;
    if (scene.mMetaData != nullptr && scene.mMetaData->Get("UnitScaleFactor", usf) && usf == 28.0) unit = 1;
    std::unordered_map<std::uint32_t, std::uint32_t> jointOfPart1;
    for (std::uint32_t j = 0; j < set.joints.size(); ++j) jointOfPart1.emplace(set.joints[j].part1, j);
    rbx::Document out;
    std::size_t written = 0;
    for (unsigned a = 0; a < scene.mNumAnimations; ++a) {
        if (scene.mAnimations[a] == nullptr) continue;
        const SceneAt s(scene, *scene.mAnimations[a], unit);
        std::size_t best = set.rigs.size(), bestCount = 0;
        std::vector<JointSource> bestSources;
        for (std::size_t r = 0; r < set.rigs.size(); ++r) {
            std::vector<JointSource> src(set.joints.size());
            std::size_t count = 0;
            for (std::uint32_t j : set.rigs[r].joints) {
                src[j] = FindJointSource(rig, set.joints[j], s);
                count += src[j].times.empty() ? 0 : 1;
            }
            if (count > bestCount) {
                best = r;
                bestCount = count;
                bestSources = std::move(src);
            }
        }
        if (best == set.rigs.size()) {
            LogWarn("Roblox animation export: animation '" + std::string(scene.mAnimations[a]->mName.C_Str()) +
                    "' moves no joint of the rig; skipped");
            continue;
        }
        SequenceWriter w{out, rig, set, set.rigs[best], {}};
        for (std::uint32_t j : set.rigs[best].joints) {
            const auto up = jointOfPart1.find(set.joints[j].part0);
            if (up != jointOfPart1.end()) w.parentJoint.emplace(j, up->second);
        }
        WriteSequence(w, scene, a, s, bestSources);
        ++written;
    }
    if (written == 0)
        throw FormatError(rbx::kFormatName,
                          "no animation of the scene moves a joint of the rig (a joint is read from its \"<joint>:T\" "
                          "node, or from animated nodes named after its Part0 and Part1)");
    return out;
}

} // namespace gamefmt::glue
