// Finding rigs and reading KeyframeSequences (animation.hpp; docs/formats/roblox-model.md §5.6).
#include "importers/roblox_model/animation.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace gamefmt::rbx {
namespace {

const Property *Find(const Document &doc, std::uint32_t i, std::string_view name) {
    return doc.findProperty(doc.instances[i], name);
}

std::uint32_t RefOf(const Document &doc, std::uint32_t i, std::string_view name) {
    const Property *p = Find(doc, i, name);
    if (p == nullptr) return kNoInstance;
    const auto *ref = std::get_if<RefValue>(&p->value.data);
    return ref != nullptr && ref->target < doc.instances.size() ? ref->target : kNoInstance;
}

const CFrame *CFrameOf(const Document &doc, std::uint32_t i, std::string_view name) {
    const Property *p = Find(doc, i, name);
    return p == nullptr ? nullptr : std::get_if<CFrame>(&p->value.data);
}

Rigid RigidOf(const Document &doc, std::uint32_t i, std::string_view name, bool *repaired = nullptr) {
    const CFrame *cf = CFrameOf(doc, i, name);
    if (repaired != nullptr) *repaired = false;
    return cf != nullptr ? RigidFromCFrame(*cf, repaired) : Rigid();
}

// A number-like property's value (Float32, Float64, Enum, Int32), else `fallback` (also for a null property).
double NumberValue(const Property *p, double fallback) {
    if (p == nullptr) return fallback;
    if (const auto *f = std::get_if<float>(&p->value.data)) return *f;
    if (const auto *d = std::get_if<double>(&p->value.data)) return *d;
    if (const auto *e = std::get_if<EnumValue>(&p->value.data)) return e->value;
    if (const auto *n = std::get_if<std::int32_t>(&p->value.data)) return *n;
    return fallback;
}

double NumberOf(const Document &doc, std::uint32_t i, std::string_view name, double fallback) {
    return NumberValue(Find(doc, i, name), fallback);
}

bool BoolOf(const Document &doc, std::uint32_t i, std::string_view name, bool fallback) {
    const Property *p = Find(doc, i, name);
    if (p == nullptr) return fallback;
    const auto *b = std::get_if<bool>(&p->value.data);
    return b != nullptr ? *b : fallback;
}

bool IsBasePart(const Document &doc, std::uint32_t i) {
    static const std::unordered_set<std::string_view> kClasses = {
        "Part",           "MeshPart",        "WedgePart",          "CornerWedgePart", "TrussPart",
        "UnionOperation", "NegateOperation", "IntersectOperation", "PartOperation",   "Seat",
        "VehicleSeat",    "SpawnLocation",   "SkateboardPlatform", "FlagStand",       "Platform"};
    return kClasses.count(doc.className(doc.instances[i])) != 0 && CFrameOf(doc, i, "CFrame") != nullptr;
}

bool IsClass(const Document &doc, std::uint32_t i, std::string_view cls) {
    return doc.className(doc.instances[i]) == cls;
}

std::uint32_t NearestModel(const Document &doc, std::uint32_t i) {
    std::size_t guard = doc.instances.size();
    for (std::uint32_t a = doc.instances[i].parent; a != kNoInstance && guard-- > 0; a = doc.instances[a].parent)
        if (IsClass(doc, a, "Model")) return a;
    return kNoInstance;
}

struct Motor {
    std::uint32_t instance, part0, part1;
};

// One connected component of motors: walked breadth-first from its root into `set`.
void WalkRig(const Document &doc, const std::vector<Motor> &motors, const std::vector<std::size_t> &component,
             RigSet &set) {
    std::unordered_map<std::uint32_t, std::vector<std::size_t>> byPart0;
    std::unordered_set<std::uint32_t> isPart1, parts;
    for (std::size_t m : component) {
        byPart0[motors[m].part0].push_back(m);
        isPart1.insert(motors[m].part1);
        parts.insert(motors[m].part0);
        parts.insert(motors[m].part1);
    }
    std::uint32_t root = kNoInstance;
    for (std::size_t m : component) { // component order = document order of the motors
        for (std::uint32_t p : {motors[m].part0, motors[m].part1}) {
            if (isPart1.count(p) != 0) continue;
            if (root == kNoInstance ||
                (doc.instances[p].name == "HumanoidRootPart" && doc.instances[root].name != "HumanoidRootPart"))
                root = p;
        }
    }
    if (root == kNoInstance) {
        set.warnings.push_back(std::to_string(component.size()) + " Motor6D(s) joining part '" +
                               doc.instances[motors[component.front()].part0].name +
                               "' form a cycle with no root part; that rig is left unjointed");
        return;
    }
    Rig rig;
    rig.root = root;
    rig.model = NearestModel(doc, root);
    rig.name = rig.model != kNoInstance ? doc.instances[rig.model].name : doc.instances[root].name;
    std::unordered_set<std::uint32_t> reached{root};
    std::deque<std::uint32_t> queue{root};
    std::size_t used = 0;
    while (!queue.empty()) {
        const std::uint32_t part = queue.front();
        queue.pop_front();
        const auto it = byPart0.find(part);
        if (it == byPart0.end()) continue;
        for (std::size_t m : it->second) {
            if (!reached.insert(motors[m].part1).second) continue; // a second parent, or a cycle back
            RigJoint j;
            j.instance = motors[m].instance;
            j.part0 = part;
            j.part1 = motors[m].part1;
            j.c0 = RigidOf(doc, j.instance, "C0");
            j.c1 = RigidOf(doc, j.instance, "C1");
            rig.joints.push_back(static_cast<std::uint32_t>(set.joints.size()));
            set.joints.push_back(j);
            queue.push_back(j.part1);
            ++used;
        }
    }
    if (used != component.size())
        set.warnings.push_back("rig '" + rig.name + "': " + std::to_string(component.size() - used) +
                               " Motor6D(s) left out (a part driven by two motors, or a cycle)");
    set.rigs.push_back(std::move(rig));
}

std::vector<Motor> CollectMotors(const Document &doc) {
    std::vector<Motor> motors;
    for (std::uint32_t i = 0; i < doc.instances.size(); ++i) {
        if (!IsClass(doc, i, "Motor6D") || !BoolOf(doc, i, "Enabled", true)) continue;
        const std::uint32_t p0 = RefOf(doc, i, "Part0"), p1 = RefOf(doc, i, "Part1");
        if (p0 == kNoInstance || p1 == kNoInstance || p0 == p1 || !IsBasePart(doc, p0) || !IsBasePart(doc, p1))
            continue;
        motors.push_back({i, p0, p1});
    }
    return motors;
}

// Connected components of the motor graph (union-find over parts), in document order of their first motor.
std::vector<std::vector<std::size_t>> Components(const std::vector<Motor> &motors) {
    std::unordered_map<std::uint32_t, std::uint32_t> up;
    const auto find = [&](std::uint32_t x) {
        up.emplace(x, x);
        while (up[x] != x) x = up[x] = up[up[x]];
        return x;
    };
    for (const Motor &m : motors) {
        const std::uint32_t a = find(m.part0), b = find(m.part1);
        if (a != b) up[a] = b;
    }
    std::vector<std::vector<std::size_t>> out;
    std::unordered_map<std::uint32_t, std::size_t> slot;
    for (std::size_t m = 0; m < motors.size(); ++m) {
        const auto [it, fresh] = slot.emplace(find(motors[m].part0), out.size());
        if (fresh) out.emplace_back();
        out[it->second].push_back(m);
    }
    return out;
}

// Bones: every Bone whose chain of Bone parents ends at a BasePart, parents first (document pre-order).
void AddBones(const Document &doc, RigSet &set, std::unordered_map<std::uint32_t, std::size_t> &rigOfPart) {
    std::vector<std::uint32_t> stack(doc.roots.rbegin(), doc.roots.rend());
    std::vector<bool> seen(doc.instances.size(), false);
    while (!stack.empty()) {
        const std::uint32_t i = stack.back();
        stack.pop_back();
        if (i >= doc.instances.size() || seen[i]) continue;
        seen[i] = true;
        const Instance &inst = doc.instances[i];
        for (auto c = inst.children.rbegin(); c != inst.children.rend(); ++c) stack.push_back(*c);
        if (!IsClass(doc, i, "Bone") || inst.parent == kNoInstance) continue;
        std::uint32_t part = inst.parent;
        std::size_t guard = doc.instances.size();
        while (part != kNoInstance && IsClass(doc, part, "Bone") && guard-- > 0) part = doc.instances[part].parent;
        if (part == kNoInstance || !IsBasePart(doc, part)) continue;
        auto found = rigOfPart.find(part);
        if (found == rigOfPart.end()) {
            Rig rig;
            rig.root = part;
            rig.model = NearestModel(doc, part);
            rig.name = rig.model != kNoInstance ? doc.instances[rig.model].name : doc.instances[part].name;
            found = rigOfPart.emplace(part, set.rigs.size()).first;
            set.rigs.push_back(std::move(rig));
        }
        RigJoint j;
        j.instance = i;
        j.part0 = inst.parent;
        j.part1 = i;
        j.c0 = RigidOf(doc, i, "CFrame");
        j.bone = true;
        set.rigs[found->second].joints.push_back(static_cast<std::uint32_t>(set.joints.size()));
        set.joints.push_back(j);
    }
}

bool IsWeldClass(std::string_view cls) {
    return cls == "Weld" || cls == "ManualWeld" || cls == "Snap" || cls == "Glue" || cls == "Motor" ||
           cls == "WeldConstraint";
}

// Parts welded to rig parts (and to those, breadth-first) ride along.
void AddRiders(const Document &doc, RigSet &set, const std::unordered_set<std::uint32_t> &rigParts) {
    struct Weld {
        std::uint32_t instance, part0, part1;
    };
    std::unordered_map<std::uint32_t, std::vector<Weld>> byPart;
    for (std::uint32_t i = 0; i < doc.instances.size(); ++i) {
        if (!IsWeldClass(doc.className(doc.instances[i]))) continue;
        if (!BoolOf(doc, i, "Enabled", true)) continue;
        const std::uint32_t p0 = RefOf(doc, i, "Part0"), p1 = RefOf(doc, i, "Part1");
        if (p0 == kNoInstance || p1 == kNoInstance || p0 == p1 || !IsBasePart(doc, p0) || !IsBasePart(doc, p1))
            continue;
        byPart[p0].push_back({i, p0, p1});
        byPart[p1].push_back({i, p0, p1});
    }
    std::unordered_set<std::uint32_t> attached(rigParts);
    std::deque<std::uint32_t> queue;
    for (const Rig &rig : set.rigs) {
        queue.push_back(rig.root);
        for (std::uint32_t j : rig.joints)
            if (!set.joints[j].bone) queue.push_back(set.joints[j].part1);
    }
    while (!queue.empty()) {
        const std::uint32_t on = queue.front();
        queue.pop_front();
        const auto it = byPart.find(on);
        if (it == byPart.end()) continue;
        for (const Weld &w : it->second) {
            const bool forward = w.part0 == on; // the rider is Part1
            const std::uint32_t rider = forward ? w.part1 : w.part0;
            if (!attached.insert(rider).second) continue;
            Rigid local;
            if (IsClass(doc, w.instance, "WeldConstraint")) {
                local = RigidOf(doc, on, "CFrame").inverse() * RigidOf(doc, rider, "CFrame");
            } else {
                const Rigid rel = RigidOf(doc, w.instance, "C0") * RigidOf(doc, w.instance, "C1").inverse();
                local = forward ? rel : rel.inverse();
            }
            set.riders.push_back({rider, on, w.instance, local});
            queue.push_back(rider);
        }
    }
}

} // namespace

RigSet FindRigs(const Document &doc) {
    RigSet set;
    const std::vector<Motor> motors = CollectMotors(doc);
    for (const std::vector<std::size_t> &component : Components(motors)) WalkRig(doc, motors, component, set);
    std::unordered_map<std::uint32_t, std::size_t> rigOfPart;
    std::unordered_set<std::uint32_t> rigParts;
    for (std::size_t r = 0; r < set.rigs.size(); ++r) {
        rigOfPart.emplace(set.rigs[r].root, r);
        rigParts.insert(set.rigs[r].root);
        for (std::uint32_t j : set.rigs[r].joints) {
            rigOfPart.emplace(set.joints[j].part1, r);
            rigParts.insert(set.joints[j].part1);
        }
    }
    AddBones(doc, set, rigOfPart);
    for (const Rig &rig : set.rigs) rigParts.insert(rig.root);
    AddRiders(doc, set, rigParts);
    return set;
}

namespace {

// The interned ids of the names sequences read, resolved once per document (a 10,000-keyframe sequence has
// 160,000 Poses: no name is hashed per Pose). kNoInstance: the document has no such name.
struct SequenceIds {
    std::uint32_t cframe, weight, style, direction, time, value, pose, keyframe, marker;
    explicit SequenceIds(const Document &doc) {
        const auto id = [&](std::string_view name) {
            const std::optional<std::uint32_t> found = doc.names.find(name);
            return found ? *found : kNoInstance;
        };
        cframe = id("CFrame"), weight = id("Weight"), style = id("EasingStyle"), direction = id("EasingDirection");
        time = id("Time"), value = id("Value"), pose = id("Pose"), keyframe = id("Keyframe");
        marker = id("KeyframeMarker");
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
        key.style = static_cast<std::uint32_t>(NumberById(inst, ids.style, 0));
        key.direction = static_cast<std::uint32_t>(NumberById(inst, ids.direction, 0));
        const std::string &name = inst.name;
        const auto [it, fresh] =
            trackOf.emplace(std::make_pair(std::string_view(parentName), std::string_view(name)), pending.size());
        if (fresh) {
            pending.emplace_back();
            seq.tracks.push_back(Track{parentName, name, {}});
        }
        pending[it->second].emplace_back(order++, key);
    }

    // The Poses below one top-level Pose, with an explicit stack (the file controls the depth).
    void poses(std::uint32_t top, double time) {
        std::vector<std::uint32_t> stack{top};
        while (!stack.empty()) {
            const std::uint32_t p = stack.back();
            stack.pop_back();
            const Instance &inst = doc.instances[p];
            for (auto c = inst.children.rbegin(); c != inst.children.rend(); ++c)
                if (*c < doc.instances.size() && doc.instances[*c].className == ids.pose) stack.push_back(*c);
            if (p == top) continue;
            const double weight = NumberById(inst, ids.weight, 1);
            if (weight != 0 && inst.parent != kNoInstance) pose(p, doc.instances[inst.parent].name, time);
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
        if (repaired != 0)
            warnings.push_back("KeyframeSequence '" + seq.name + "': " + std::to_string(repaired) +
                               " Pose CFrame(s) not a rotation (NaN, infinite or degenerate) were repaired");
    }
};

} // namespace

std::vector<Sequence> ReadSequences(const Document &doc, std::vector<std::string> &warnings) {
    std::vector<Sequence> out;
    const SequenceIds ids(doc);
    for (std::uint32_t i = 0; i < doc.instances.size(); ++i) {
        if (!IsClass(doc, i, "KeyframeSequence")) continue;
        SequenceReader r{doc, ids, warnings, {}, {}, {}, 0, 0};
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

} // namespace gamefmt::rbx
