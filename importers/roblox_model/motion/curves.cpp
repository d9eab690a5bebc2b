// CurveAnimation (curves.hpp; docs/formats/roblox-animation.md §3.2): FloatCurve ValuesAndTimes version 1, and the
// curve folders of a CurveAnimation read into the tracks of a Sequence (keyframes.hpp).
#include "importers/roblox_model/motion/curves.hpp"

#include "common/byte_reader.hpp"
#include "common/error.hpp"

#include <algorithm>
#include <cmath>
#include <set>

namespace gamefmt::rbx {

std::optional<std::vector<FloatKey>> ReadFloatCurve(const std::uint8_t *data, std::size_t size) {
    constexpr const char *kWhat = "Roblox FloatCurve";
    ByteReader r(data, size, kWhat);
    const std::uint32_t version = r.u32le();
    if (version != 1) return std::nullopt;
    const std::uint32_t n = r.u32le();
    if (n > r.remaining() / 14) throw FormatError(kWhat, "key count " + std::to_string(n) + " exceeds the data", 4);
    std::vector<FloatKey> keys(n);
    for (FloatKey &k : keys) {
        k.interpolation = static_cast<KeyInterpolation>(r.u8());
        const std::uint8_t flags = r.u8();
        k.value = r.f32le();
        k.leftTangent = r.f32le();
        k.rightTangent = r.f32le();
        k.hasLeft = (flags & 1) != 0;
        k.hasRight = (flags & 2) != 0;
        if (!std::isfinite(k.value) || !std::isfinite(k.leftTangent) || !std::isfinite(k.rightTangent))
            throw FormatError(kWhat, "a key's value or tangent is not finite", r.offset() - 12);
    }
    const std::size_t timesAt = r.offset();
    (void)r.u32le(); // 1
    const std::uint32_t m = r.u32le();
    if (m != n)
        throw FormatError(kWhat, std::to_string(m) + " times for " + std::to_string(n) + " values", timesAt + 4);
    double last = -1;
    for (FloatKey &k : keys) {
        k.time = r.u32le() / kTicksPerSecond;
        if (k.time < last) throw FormatError(kWhat, "key times out of order", r.offset() - 4);
        last = k.time;
    }
    return keys;
}

double EvaluateFloatCurve(const std::vector<FloatKey> &keys, double t) {
    if (keys.empty()) return 0;
    if (!(t > keys.front().time)) return keys.front().value;
    if (t >= keys.back().time) return keys.back().value;
    const auto next =
        std::upper_bound(keys.begin(), keys.end(), t, [](double v, const FloatKey &k) { return v < k.time; });
    const FloatKey &a = *(next - 1), &b = *next;
    const double d = b.time - a.time;
    if (!(d > 0)) return b.value;
    const double u = (t - a.time) / d;
    switch (a.interpolation) {
    case KeyInterpolation::Constant:
        return a.value;
    case KeyInterpolation::Cubic: { // Hermite, tangents in value per second (a missing one is 0)
        const double m0 = (a.hasRight ? a.rightTangent : 0) * d, m1 = (b.hasLeft ? b.leftTangent : 0) * d;
        const double u2 = u * u, u3 = u2 * u;
        return (2 * u3 - 3 * u2 + 1) * a.value + (u3 - 2 * u2 + u) * m0 + (-2 * u3 + 3 * u2) * b.value + (u3 - u2) * m1;
    }
    default:
        return a.value + u * (b.value - a.value);
    }
}

namespace {

// A rotation from Euler angles applied in `order` (EulerRotationCurve.RotationOrder: XYZ 0, XZY 1, YZX 2, YXZ 3,
// ZXY 4, ZYX 5; "XYZ" = R = Rx · Ry · Rz, as CFrame.fromEulerAngles does [U]).
Rigid EulerRotation(double x, double y, double z, std::uint32_t order) {
    static const std::size_t kOrders[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 2, 0}, {1, 0, 2}, {2, 0, 1}, {2, 1, 0}};
    const std::size_t *o = kOrders[order < 6 ? order : 0];
    const double angle[3] = {x, y, z};
    return Rigid::Rotation(o[0], angle[o[0]]) * Rigid::Rotation(o[1], angle[o[1]]) * Rigid::Rotation(o[2], angle[o[2]]);
}

const Instance *ChildNamed(const Document &doc, const Instance &inst, std::string_view cls, std::string_view name) {
    for (std::uint32_t c : inst.children)
        if (c < doc.instances.size() && doc.className(doc.instances[c]) == cls && doc.instances[c].name == name)
            return &doc.instances[c];
    return nullptr;
}

// The times a curve is sampled at: its keys, Cubic segments every 1/fps s (at most kMaxBakedKeysPerSegment),
// Constant ones held to one tick before the next key.
void SampleTimes(const std::vector<FloatKey> &keys, unsigned fps, std::set<double> &times) {
    for (std::size_t k = 0; k < keys.size(); ++k) {
        times.insert(keys[k].time);
        if (k + 1 < keys.size() && keys[k].interpolation == KeyInterpolation::Cubic) { // cubic: baked at fps
            const double d = keys[k + 1].time - keys[k].time;
            const double step = std::max(1.0 / fps, d / kMaxBakedKeysPerSegment);
            for (double t = keys[k].time + step; t < keys[k + 1].time - step / 2; t += step) times.insert(t);
        }
        if (k + 1 < keys.size() && keys[k].interpolation == KeyInterpolation::Constant) // hold to one tick before
            times.insert(std::max(keys[k].time, keys[k + 1].time - 1.0 / kTicksPerSecond));
    }
}

struct CurveReader {
    const Document &doc;
    unsigned fps;
    std::vector<std::string> &warnings;
    Sequence &seq;

    // The X, Y, Z FloatCurves under `holder`; false (warned) when one is unreadable or of another version.
    // docs/formats/roblox-avatar.md §5: a FaceControls folder's FloatCurves, one per control, as face tracks.
    void faces(const Instance &folder) {
        for (std::uint32_t c : folder.children) {
            if (c >= doc.instances.size() || doc.className(doc.instances[c]) != "FloatCurve") continue;
            const Instance &curve = doc.instances[c];
            const Property *p = doc.findProperty(curve, "ValuesAndTimes");
            const auto *blob = p != nullptr ? std::get_if<std::string>(&p->value.data) : nullptr;
            if (blob == nullptr) continue;
            std::optional<std::vector<FloatKey>> keys;
            try {
                keys = ReadFloatCurve(reinterpret_cast<const std::uint8_t *>(blob->data()), blob->size());
            } catch (const FormatError &e) {
                warnings.push_back("CurveAnimation '" + seq.name + "': face curve '" + curve.name + "': " + e.what());
                continue;
            }
            if (!keys) {
                warnings.push_back("CurveAnimation '" + seq.name + "': face curve '" + curve.name +
                                   "' is not version 1; its curve data is kept, not read");
                continue;
            }
            std::set<double> times;
            SampleTimes(*keys, fps, times);
            FaceTrack track{curve.name, {}};
            for (double t : times) {
                const double v = EvaluateFloatCurve(*keys, t);
                track.keys.push_back({t, std::isfinite(v) ? static_cast<float>(std::clamp(v, 0.0, 1.0)) : 0.0f});
                seq.length = std::max(seq.length, t);
            }
            seq.faces.push_back(std::move(track));
        }
    }

    bool xyz(const Instance &holder, const std::string &joint, std::vector<FloatKey> (&out)[3]) {
        const char *names[3] = {"X", "Y", "Z"};
        for (int i = 0; i < 3; ++i) {
            const Instance *curve = ChildNamed(doc, holder, "FloatCurve", names[i]);
            if (curve == nullptr) continue;
            const Property *p = doc.findProperty(*curve, "ValuesAndTimes");
            const auto *blob = p != nullptr ? std::get_if<std::string>(&p->value.data) : nullptr;
            if (blob == nullptr) continue;
            const auto *bytes = reinterpret_cast<const std::uint8_t *>(blob->data());
            try {
                std::optional<std::vector<FloatKey>> keys = ReadFloatCurve(bytes, blob->size());
                if (!keys) {
                    warnings.push_back("CurveAnimation '" + seq.name + "': FloatCurve '" + holder.name + "." +
                                       names[i] + "' of joint '" + joint +
                                       "' is not version 1; its curve data is kept, not read");
                    return false;
                }
                out[i] = std::move(*keys);
            } catch (const FormatError &e) {
                warnings.push_back("CurveAnimation '" + seq.name + "': FloatCurve '" + holder.name + "." + names[i] +
                                   "' of joint '" + joint + "': " + e.what());
                return false;
            }
        }
        return true;
    }

    void joint(const Instance &folder, const std::string &parent) {
        std::vector<FloatKey> pos[3], rot[3];
        std::uint32_t order = 0;
        bool any = false;
        if (const Instance *p = ChildNamed(doc, folder, "Vector3Curve", "Position"))
            any = xyz(*p, folder.name, pos) || any;
        if (const Instance *r = ChildNamed(doc, folder, "EulerRotationCurve", "Rotation")) {
            any = xyz(*r, folder.name, rot) || any;
            if (const Property *o = doc.findProperty(*r, "RotationOrder"))
                if (const auto *e = std::get_if<EnumValue>(&o->value.data)) order = e->value;
        } else if (ChildNamed(doc, folder, "RotationCurve", "Rotation") != nullptr) {
            warnings.push_back("CurveAnimation '" + seq.name + "': RotationCurve of joint '" + folder.name +
                               "' (quaternion keys, layout unverified) is kept, not read");
        }
        if (!any) return;
        std::set<double> times;
        for (const auto *curves : {&pos, &rot})
            for (const std::vector<FloatKey> &keys : *curves) SampleTimes(keys, fps, times);
        if (times.empty()) return;
        Track track{parent, folder.name, {}};
        for (double t : times) {
            PoseKey key;
            key.time = t;
            for (int i = 0; i < 3; ++i) key.p[static_cast<std::size_t>(i)] = EvaluateFloatCurve(pos[i], t);
            key.q = QuatFromRigid(EulerRotation(EvaluateFloatCurve(rot[0], t), EvaluateFloatCurve(rot[1], t),
                                                EvaluateFloatCurve(rot[2], t), order));
            track.keys.push_back(key);
            seq.length = std::max(seq.length, t);
        }
        seq.tracks.push_back(std::move(track));
    }

    // The joint folders below the top one (named after the root part), with an explicit stack.
    void folders(std::uint32_t top) {
        struct Item {
            std::uint32_t folder;
            std::string parent;
        };
        std::vector<Item> stack;
        for (std::uint32_t c : doc.instances[top].children)
            if (c < doc.instances.size() && doc.className(doc.instances[c]) == "Folder")
                stack.push_back({c, doc.instances[top].name});
        while (!stack.empty()) {
            const Item item = stack.back();
            stack.pop_back();
            const Instance &f = doc.instances[item.folder];
            if (f.name == "FaceControls") { // FACS curves: not a joint
                faces(f);
                continue;
            }
            joint(f, item.parent);
            for (std::uint32_t c : f.children)
                if (c < doc.instances.size() && doc.className(doc.instances[c]) == "Folder")
                    stack.push_back({c, f.name});
        }
    }
};

} // namespace

std::vector<Sequence> ReadCurveAnimations(const Document &doc, unsigned fps, std::vector<std::string> &warnings) {
    std::vector<Sequence> out;
    fps = std::max(1u, fps);
    for (std::uint32_t i = 0; i < doc.instances.size(); ++i) {
        const Instance &inst = doc.instances[i];
        if (doc.className(inst) != "CurveAnimation") continue;
        Sequence seq;
        seq.instance = i;
        seq.name = inst.name;
        if (const Property *p = doc.findProperty(inst, "Loop"))
            if (const auto *b = std::get_if<bool>(&p->value.data)) seq.loop = *b;
        if (const Property *p = doc.findProperty(inst, "Priority"))
            if (const auto *e = std::get_if<EnumValue>(&p->value.data)) seq.priority = e->value;
        CurveReader reader{doc, fps, warnings, seq};
        for (std::uint32_t c : inst.children) {
            if (c >= doc.instances.size() || doc.className(doc.instances[c]) != "Folder") continue;
            if (doc.instances[c].name == "FaceControls")
                reader.faces(doc.instances[c]);
            else
                reader.folders(c);
        }
        FinishFaceTracks(seq.faces);
        out.push_back(std::move(seq));
    }
    return out;
}

} // namespace gamefmt::rbx
