// Reading KeyframeSequences, binding their tracks and evaluating them (keyframes.hpp;
// docs/formats/roblox-animation.md §4.3, §5).
#include "importers/roblox_model/motion/keyframes.hpp"

#include "importers/roblox_model/document/properties.hpp"
#include "importers/roblox_model/document/tree_walk.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <utility>

namespace gamefmt::rbx {
namespace {

// The interned ids of the names sequences read, resolved once per document (a 10,000-keyframe sequence has
// 160,000 Poses: no name is hashed per Pose). kNoInstance: the document has no such name.
struct SequenceIds {
    std::uint32_t cframe, weight, style, direction, time, value, pose, keyframe, marker, folder, numberPose;
    explicit SequenceIds(const Document &doc) {
        const auto id = [&](std::string_view name) {
            const std::optional<std::uint32_t> found = doc.names.find(name);
            return found ? *found : kNoInstance;
        };
        cframe = id("CFrame"), weight = id("Weight"), style = id("EasingStyle"), direction = id("EasingDirection");
        time = id("Time"), value = id("Value"), pose = id("Pose"), keyframe = id("Keyframe");
        marker = id("KeyframeMarker"), folder = id("Folder"), numberPose = id("NumberPose");
    }
};

// A number-like property by interned id, else `fallback`.
double NumberById(const Instance &inst, std::uint32_t id, double fallback) {
    return NumberValue(id == kNoInstance ? nullptr : inst.find(id), fallback);
}

struct SequenceReader {
    const Document &doc;
    const SequenceIds &ids;
    std::vector<std::string> &warnings;
    Sequence seq;
    std::map<std::pair<std::string_view, std::string_view>, std::size_t> trackOf; // views into the document's names
    std::vector<std::vector<std::pair<std::size_t, PoseKey>>> pending;            // per track: (file order, key)
    std::map<std::string_view, std::size_t> faceOf;                               // control name → seq.faces
    std::vector<bool> &visited;
    std::size_t order = 0;
    std::size_t repaired = 0;

    void pose(std::uint32_t p, const std::string &parentName, double time) {
        const Instance &inst = doc.instances[p];
        bool fixed = false;
        const Property *cf = ids.cframe == kNoInstance ? nullptr : inst.find(ids.cframe);
        const CFrame *value = cf != nullptr ? std::get_if<CFrame>(&cf->value.data) : nullptr;
        const Rigid t = value != nullptr ? RigidFromCFrame(*value, &fixed) : Rigid();
        if (fixed) ++repaired;
        PoseKey key;
        key.time = time;
        key.p = t.p;
        key.q = QuatFromRigid(t);
        key.style = static_cast<EasingStyle>(static_cast<std::uint32_t>(NumberById(inst, ids.style, 0)));
        key.direction = static_cast<EasingDirection>(static_cast<std::uint32_t>(NumberById(inst, ids.direction, 0)));
        const std::string &name = inst.name;
        const auto [it, fresh] =
            trackOf.emplace(std::make_pair(std::string_view(parentName), std::string_view(name)), pending.size());
        if (fresh) {
            pending.emplace_back();
            seq.tracks.push_back(Track{parentName, name, {}});
        }
        pending[it->second].emplace_back(order++, key);
    }

    // The Poses below one top-level Pose (the document's walk; `visited` is shared by the whole document: a Pose
    // has one parent).
    void poses(std::uint32_t top, double time) {
        WalkTree(doc, doc.instances[top].children, top, visited, [&](const TreeStep &step) {
            const Instance &inst = doc.instances[step.index];
            if (inst.className == ids.folder && inst.name == "FaceControls") {
                faceControls(inst, time);
                return false;
            }
            if (inst.className != ids.pose) return false;
            const double weight = NumberById(inst, ids.weight, 1);
            if (weight != 0 && inst.parent != kNoInstance) pose(step.index, doc.instances[inst.parent].name, time);
            return true;
        });
    }

    // docs/formats/roblox-avatar.md §5: the NumberPoses of a Folder "FaceControls", one key per control.
    void faceControls(const Instance &folder, double time) {
        for (std::uint32_t c : folder.children) {
            if (c >= doc.instances.size() || doc.instances[c].className != ids.numberPose) continue;
            const Instance &np = doc.instances[c];
            if (NumberById(np, ids.weight, 1) == 0) continue;
            const double v = NumberById(np, ids.value, 0);
            const auto [it, fresh] = faceOf.emplace(std::string_view(np.name), seq.faces.size());
            if (fresh) seq.faces.push_back(FaceTrack{np.name, {}});
            seq.faces[it->second].keys.push_back(
                {time, std::isfinite(v) ? static_cast<float>(std::clamp(v, 0.0, 1.0)) : 0.0f});
        }
    }

    void keyframe(std::uint32_t k) {
        double time = NumberById(doc.instances[k], ids.time, 0);
        // Studio rounds key times to its 1/2400 s tick and stores them as float32: snap them back (0.6333333 s is
        // tick 1520), so that durations and key times come out whole ticks.
        if (std::isfinite(time) && std::fabs(time) <= kMaxKeyframeTime) {
            const double ticks = std::round(time * kTicksPerSecond);
            if (std::fabs(time * kTicksPerSecond - ticks) < 0.01) time = ticks / kTicksPerSecond;
        }
        if (!std::isfinite(time) || time < 0 || time > kMaxKeyframeTime) {
            warnings.push_back("KeyframeSequence '" + seq.name + "': keyframe at time " + std::to_string(time) +
                               " s skipped (times must lie in 0.." + std::to_string(int(kMaxKeyframeTime)) + " s)");
            return;
        }
        ++seq.keyframes;
        seq.length = std::max(seq.length, time);
        for (std::uint32_t c : doc.instances[k].children) {
            if (c >= doc.instances.size()) continue;
            const Instance &child = doc.instances[c];
            if (child.className == ids.pose) {
                if (NumberById(child, ids.weight, 1) != 0) seq.rootMotion = true;
                poses(c, time);
            } else if (child.className == ids.folder && child.name == "FaceControls") {
                faceControls(child, time);
            } else if (child.className == ids.marker) {
                const Property *v = ids.value == kNoInstance ? nullptr : child.find(ids.value);
                const auto *text = v != nullptr ? std::get_if<std::string>(&v->value.data) : nullptr;
                seq.markers.push_back({time, doc.instances[c].name, text != nullptr ? *text : std::string()});
            }
        }
    }

    void finish() {
        std::vector<Track> kept;
        for (std::size_t t = 0; t < seq.tracks.size(); ++t) {
            auto &keys = pending[t];
            std::stable_sort(keys.begin(), keys.end(),
                             [](const auto &a, const auto &b) { return a.second.time < b.second.time; });
            Track &track = seq.tracks[t];
            for (const auto &k : keys) {
                if (!track.keys.empty() && track.keys.back().time == k.second.time) {
                    track.keys.back() = k.second; // the later in file order wins
                } else {
                    track.keys.push_back(k.second);
                }
            }
            if (!track.keys.empty()) kept.push_back(std::move(track));
        }
        seq.tracks = std::move(kept);
        std::stable_sort(seq.markers.begin(), seq.markers.end(),
                         [](const Marker &a, const Marker &b) { return a.time < b.time; });
        FinishFaceTracks(seq.faces);
        if (repaired != 0)
            warnings.push_back("KeyframeSequence '" + seq.name + "': " + std::to_string(repaired) +
                               " Pose CFrame(s) not a rotation (NaN, infinite or degenerate) were repaired");
    }
};

} // namespace

std::vector<Sequence> ReadSequences(const Document &doc, std::vector<std::string> &warnings) {
    std::vector<Sequence> out;
    const SequenceIds ids(doc);
    std::vector<bool> visited(doc.instances.size(), false);
    for (std::uint32_t i = 0; i < doc.instances.size(); ++i) {
        if (!IsClass(doc, i, "KeyframeSequence")) continue;
        SequenceReader r{doc, ids, warnings, {}, {}, {}, {}, visited, 0, 0};
        r.seq.instance = i;
        r.seq.name = doc.instances[i].name;
        r.seq.loop = BoolOf(doc, i, "Loop", true);
        r.seq.priority = static_cast<std::int64_t>(NumberOf(doc, i, "Priority", 2));
        r.seq.authoredHipHeight = NumberOf(doc, i, "AuthoredHipHeight", 2);
        for (std::uint32_t c : doc.instances[i].children)
            if (c < doc.instances.size() && doc.instances[c].className == ids.keyframe) r.keyframe(c);
        r.finish();
        out.push_back(std::move(r.seq));
    }
    return out;
}

std::vector<std::int64_t> BindTracks(const Document &doc, const RigSet &rigs, const Rig &rig, const Sequence &seq) {
    std::vector<std::int64_t> out(seq.tracks.size(), -1);
    for (std::size_t t = 0; t < seq.tracks.size(); ++t) {
        const Track &track = seq.tracks[t];
        std::int64_t byBoth = -1, byName = -1;
        std::size_t named = 0;
        for (std::uint32_t j : rig.joints) {
            const RigJoint &joint = rigs.joints[j];
            if (doc.instances[joint.part1].name != track.name) continue;
            ++named;
            if (byName < 0) byName = j;
            if (byBoth < 0 && doc.instances[joint.part0].name == track.parent) byBoth = j;
        }
        out[t] = byBoth >= 0 ? byBoth : named == 1 ? byName : -1;
    }
    return out;
}

Rigid EvaluateTrack(const Track &track, double t) {
    const auto &k = track.keys;
    if (k.empty()) return {};
    if (!(t > k.front().time)) return RigidFromQuat(k.front().q, k.front().p);
    if (t >= k.back().time) return RigidFromQuat(k.back().q, k.back().p);
    const auto next =
        std::upper_bound(k.begin(), k.end(), t, [](double v, const PoseKey &key) { return v < key.time; });
    const PoseKey &b = *next;
    const PoseKey &a = *(next - 1);
    const double u = (t - a.time) / (b.time - a.time);
    const double alpha = Ease(a.style, a.direction, u);
    Vec3d p;
    for (std::size_t i = 0; i < 3; ++i) p[i] = a.p[i] + alpha * (b.p[i] - a.p[i]);
    return RigidFromQuat(Slerp(a.q, b.q, alpha), p);
}

double EvaluateFaceTrack(const FaceTrack &track, double t) {
    const std::vector<FaceKey> &k = track.keys;
    if (k.empty()) return 0;
    if (t <= k.front().time) return k.front().value;
    if (t >= k.back().time) return k.back().value;
    const auto next =
        std::upper_bound(k.begin(), k.end(), t, [](double v, const FaceKey &key) { return v < key.time; });
    const FaceKey &b = *next, &a = *(next - 1);
    const double d = b.time - a.time;
    return d > 0 ? a.value + (t - a.time) / d * (b.value - a.value) : b.value;
}

void FinishFaceTracks(std::vector<FaceTrack> &faces) {
    std::vector<FaceTrack> kept;
    for (FaceTrack &f : faces) {
        std::stable_sort(f.keys.begin(), f.keys.end(),
                         [](const FaceKey &a, const FaceKey &b) { return a.time < b.time; });
        std::vector<FaceKey> unique;
        for (const FaceKey &k : f.keys) {
            if (!unique.empty() && unique.back().time == k.time)
                unique.back() = k; // the later in file order wins
            else
                unique.push_back(k);
        }
        f.keys = std::move(unique);
        if (!f.keys.empty()) kept.push_back(std::move(f));
    }
    faces = std::move(kept);
}

} // namespace gamefmt::rbx
