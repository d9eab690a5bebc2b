// Finding rigs (rigs.hpp; docs/formats/roblox-animation.md §4.1, §6).
#include "importers/roblox_model/motion/rigs.hpp"

#include "importers/roblox_model/document/properties.hpp"
#include "importers/roblox_model/document/tree_walk.hpp"

#include <algorithm>
#include <cmath>
#include <deque>
#include <map>
#include <unordered_map>
#include <unordered_set>
#include <utility>

namespace gamefmt::rbx {
namespace {

bool IsBasePart(const Document &doc, std::uint32_t i) {
    static const std::unordered_set<std::string_view> kClasses = {
        "Part",           "MeshPart",        "WedgePart",          "CornerWedgePart", "TrussPart",
        "UnionOperation", "NegateOperation", "IntersectOperation", "PartOperation",   "Seat",
        "VehicleSeat",    "SpawnLocation",   "SkateboardPlatform", "FlagStand",       "Platform"};
    return kClasses.count(doc.className(doc.instances[i])) != 0 && CFrameOf(doc, i, "CFrame") != nullptr;
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
    ForEachInTreeOrder(doc, [&](const TreeStep &step) {
        const std::uint32_t i = step.index;
        const Instance &inst = doc.instances[i];
        if (!IsClass(doc, i, "Bone") || inst.parent == kNoInstance) return;
        std::uint32_t part = inst.parent;
        std::size_t guard = doc.instances.size();
        while (part != kNoInstance && IsClass(doc, part, "Bone") && guard-- > 0) part = doc.instances[part].parent;
        if (part == kNoInstance || !IsBasePart(doc, part)) return;
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
    });
}

bool IsWeldClass(std::string_view cls) {
    return cls == "Weld" || cls == "ManualWeld" || cls == "Snap" || cls == "Glue" || cls == "Motor" ||
           cls == "WeldConstraint";
}

// Parts welded to rig parts (and to those, breadth-first) ride along.
void AddRiders(const Document &doc, RigSet &set, const std::unordered_set<std::uint32_t> &rigParts,
               const std::vector<ImpliedWeld> &implied) {
    struct Weld {
        std::uint32_t instance, part0, part1;
        const Rigid *implied; // an implied weld's local transform (part0 = on, part1 = the rider)
    };
    std::unordered_map<std::uint32_t, std::vector<Weld>> byPart;
    for (std::uint32_t i = 0; i < doc.instances.size(); ++i) {
        if (!IsWeldClass(doc.className(doc.instances[i]))) continue;
        if (!BoolOf(doc, i, "Enabled", true)) continue;
        const std::uint32_t p0 = RefOf(doc, i, "Part0"), p1 = RefOf(doc, i, "Part1");
        if (p0 == kNoInstance || p1 == kNoInstance || p0 == p1 || !IsBasePart(doc, p0) || !IsBasePart(doc, p1))
            continue;
        byPart[p0].push_back({i, p0, p1, nullptr});
        byPart[p1].push_back({i, p0, p1, nullptr});
    }
    for (const ImpliedWeld &w : implied) // only for parts no weld of the file holds: those win
        if (w.on < doc.instances.size() && w.rider < doc.instances.size() && w.on != w.rider &&
            byPart.count(w.rider) == 0)
            byPart[w.on].push_back({kNoInstance, w.on, w.rider, &w.local});
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
            if (w.implied != nullptr) {
                local = *w.implied;
            } else if (IsClass(doc, w.instance, "WeldConstraint")) {
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

RigSet FindRigs(const Document &doc, const std::vector<ImpliedWeld> &implied) {
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
    AddRiders(doc, set, rigParts, implied);
    return set;
}

} // namespace gamefmt::rbx
