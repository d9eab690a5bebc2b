// Roblox rigs and animations (docs/formats/roblox-model.md §5.6): Motor6D and
// Bone joint trees, parts welded to them, KeyframeSequences read into per-joint tracks, which track binds to which
// joint, the easing curves and the evaluation of a joint's Transform at a time. Plain math on the document model,
// no Assimp: the glue (assimp_glue/roblox_model/rigs.cpp) turns it into nodes and aiAnimations.
#pragma once

#include "importers/roblox_model/dom.hpp"

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gamefmt::rbx {

// A rigid transform in double: position and row-major rotation (columns are the frame's axes), applied as
// (p, R)·x = p + R x; `a * b` applies b first.
struct Rigid {
    std::array<double, 3> p{0, 0, 0};
    std::array<double, 9> r{1, 0, 0, 0, 1, 0, 0, 0, 1};

    Rigid operator*(const Rigid &o) const;
    Rigid inverse() const; // (−Rᵀp, Rᵀ)
};

struct Quatd {
    double w = 1, x = 0, y = 0, z = 0;
};

// A stored CFrame as a rigid transform: a non-finite position component becomes 0; a rotation that is not
// finite or degenerate becomes the identity; one that drifts from orthonormal is re-orthonormalised
// (Gram-Schmidt from its X and Y columns). `repaired` is set when any of that happened.
Rigid RigidFromCFrame(const CFrame &cf, bool *repaired = nullptr);
Quatd QuatFromRigid(const Rigid &t); // unit quaternion of the (orthonormal) rotation
Rigid RigidFromQuat(const Quatd &q, const std::array<double, 3> &p);
// Spherical interpolation along the shorter arc; `t` may leave [0, 1] (Elastic overshoots).
Quatd Slerp(Quatd a, Quatd b, double t);

// PoseEasingStyle and PoseEasingDirection (§5.3).
enum class EasingStyle : std::uint32_t { Linear = 0, Constant = 1, Elastic = 2, Cubic = 3, Bounce = 4, CubicV2 = 5 };
enum class EasingDirection : std::uint32_t { In = 0, Out = 1, InOut = 2 };
// α = ease(style, direction, u) for u in [0, 1] (§5.3's table); an unknown style or direction counts as Linear/In.
double Ease(std::uint32_t style, std::uint32_t direction, double u);

// One joint: a Motor6D (world(part1) = world(part0) · c0 · T · c1⁻¹) or a Bone (world(bone) = world(parent) ·
// Bone.CFrame · T: c0 = Bone.CFrame, c1 = identity, part0 = the parent part or Bone, part1 = the Bone).
struct RigJoint {
    std::uint32_t instance = kNoInstance; // the Motor6D or the Bone
    std::uint32_t part0 = kNoInstance;
    std::uint32_t part1 = kNoInstance;
    Rigid c0, c1;
    bool bone = false;
};

// A part that rides rigidly on a rig part through a weld: world(part) = world(on) · local.
struct RiderWeld {
    std::uint32_t part = kNoInstance;
    std::uint32_t on = kNoInstance;
    std::uint32_t weld = kNoInstance;
    Rigid local;
};

struct Rig {
    std::string name;                  // the nearest ancestor Model's name, else the root part's
    std::uint32_t model = kNoInstance; // that Model
    std::uint32_t root = kNoInstance;  // the root part (Part1 of no joint)
    std::vector<std::uint32_t> joints; // indices into RigSet::joints, every joint after its parent side's joint
};

struct RigSet {
    std::vector<RigJoint> joints;
    std::vector<Rig> rigs;
    std::vector<RiderWeld> riders; // each after the rider its `on` part rides on, if any
    std::vector<std::string> warnings;
};

// §4.1: Motor6Ds whose Part0 and Part1 are distinct BaseParts (Enabled ≠ false), grouped into connected rigs
// walked breadth-first from the root (HumanoidRootPart preferred); a part that is Part1 of two motors keeps the
// first; motors in a cycle are left out with a warning. Bones under rig parts join that rig; a Bone tree under
// another part is a rig of its own. Weld, ManualWeld, Snap, Glue, Motor and WeldConstraint attach other parts.
RigSet FindRigs(const Document &doc);

// One key of a joint: a Pose with Weight ≠ 0.
struct PoseKey {
    double time = 0;
    std::array<double, 3> p{0, 0, 0};
    Quatd q;
    std::uint32_t style = 0;
    std::uint32_t direction = 0;
};

// The Poses of one (parent Pose name, Pose name) pair with Weight ≠ 0, sorted by time (two keys at one time:
// the later in file order wins).
struct Track {
    std::string parent, name;
    std::vector<PoseKey> keys;
};

struct Marker {
    double time = 0;
    std::string name, value;
};

struct Sequence {
    std::uint32_t instance = kNoInstance;
    std::string name;
    bool loop = true;
    std::int64_t priority = 2;
    double authoredHipHeight = 2;
    double length = 0; // the largest usable Keyframe.Time
    std::size_t keyframes = 0;
    std::vector<Track> tracks;   // tracks with at least one key, in the order first met
    std::vector<Marker> markers; // KeyframeMarkers, by time
    bool rootMotion = false;     // a top-level Pose with Weight ≠ 0 (kept in metadata, not applied)
};

// Limits of a sequence read from a file (hostile input).
constexpr double kMaxKeyframeTime = 86400.0; // seconds: later (or negative, or non-finite) keyframes are skipped
constexpr double kTicksPerSecond = 2400.0;   // Studio's animation tick: key times within 0.01 tick of one snap to it
// Most keys one eased segment is baked into (a Cubic segment of a day at 1000 fps would be 86 million): longer
// segments are sampled more coarsely.
constexpr double kMaxBakedKeysPerSegment = 4096;

// Every KeyframeSequence of the document, in document order. Keyframes with an unusable Time and Poses with a
// repaired CFrame are reported in `warnings`.
std::vector<Sequence> ReadSequences(const Document &doc, std::vector<std::string> &warnings);

// One key of a FloatCurve (§3.2): KeyInterpolationMode Constant 0, Linear 1, Cubic 2 (Hermite; tangents in value
// per second, a missing one 0).
struct FloatKey {
    double time = 0; // seconds (ticks / 2400)
    float value = 0;
    std::uint8_t interpolation = 1;
    bool hasLeft = false, hasRight = false;
    float leftTangent = 0, rightTangent = 0;
};

// A FloatCurve's ValuesAndTimes, version 1 (§3.2: u32 version, u32 N, N records of u8 interpolation, u8 flags,
// f32 value, left and right tangents; u32 1, u32 N, N u32 times in ticks). nullopt for another version (kept
// opaque); FormatError ("Roblox FloatCurve", offset) when malformed, out of order or not finite.
std::optional<std::vector<FloatKey>> ReadFloatCurve(const std::uint8_t *data, std::size_t size);
// The curve's value at `t` (held before the first key and after the last).
double EvaluateFloatCurve(const std::vector<FloatKey> &keys, double t);

// Every CurveAnimation of the document as a Sequence: per joint Folder (nested from the root part's Folder, as
// Poses nest), its Vector3Curve "Position" and EulerRotationCurve "Rotation" (FloatCurves X, Y, Z; RotationOrder)
// sampled at their key times (Cubic segments every 1/fps s, Constant ones held to one tick before the next key).
// RotationCurves, FACS curves and other versions are kept in the file, not read (warned).
std::vector<Sequence> ReadCurveAnimations(const Document &doc, unsigned fps, std::vector<std::string> &warnings);

// §4.3: per track of `seq`, the index into rigs.joints (one of rig.joints) it drives, or -1.
std::vector<std::int64_t> BindTracks(const Document &doc, const RigSet &rigs, const Rig &rig, const Sequence &seq);

// §5.2: the joint's Transform at time t from its keys (held before the first and after the last).
Rigid EvaluateTrack(const Track &track, double t);

} // namespace gamefmt::rbx
