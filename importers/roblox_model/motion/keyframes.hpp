// KeyframeSequences (docs/formats/roblox-animation.md §2, §4.3, §5): Keyframes and Poses read into per-joint tracks
// of keys, which track binds to which joint of a rig, and a joint's Transform at a time.
#pragma once

#include "common/math.hpp"
#include "importers/roblox_model/document/dom.hpp"
#include "importers/roblox_model/motion/easing.hpp"
#include "importers/roblox_model/motion/rigs.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gamefmt::rbx {

// One key of a joint: a Pose with Weight ≠ 0.
struct PoseKey {
    double time = 0;
    Vec3d p;
    Quatd q;
    EasingStyle style = EasingStyle::Linear;
    EasingDirection direction = EasingDirection::In;
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

// A FACS control's animation (docs/formats/roblox-avatar.md §5): NumberPoses named after a FaceControls property in a
// Folder "FaceControls" (KeyframeSequence), or the FloatCurves of the CurveAnimation's FaceControls folder; values
// clamped to 0..1, sorted by time, linear between keys.
struct FaceKey {
    double time = 0;
    float value = 0;
};
struct FaceTrack {
    std::string control; // the FaceControls property name ("JawDrop")
    std::vector<FaceKey> keys;
};

struct Sequence {
    std::uint32_t instance = kNoInstance;
    std::string name;
    bool loop = true;
    std::int64_t priority = 2;
    double authoredHipHeight = 2;
    double length = 0; // the largest usable Keyframe.Time
    std::size_t keyframes = 0;
    std::vector<Track> tracks;    // tracks with at least one key, in the order first met
    std::vector<Marker> markers;  // KeyframeMarkers, by time
    bool rootMotion = false;      // a top-level Pose with Weight ≠ 0 (kept in metadata, not applied)
    std::vector<FaceTrack> faces; // FACS controls, in the order first met
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

// §4.3: per track of `seq`, the index into rigs.joints (one of rig.joints) it drives, or -1.
std::vector<std::int64_t> BindTracks(const Document &doc, const RigSet &rigs, const Rig &rig, const Sequence &seq);

// §5.2: the joint's Transform at time t from its keys (held before the first and after the last).
Rigid EvaluateTrack(const Track &track, double t);
// A face control's value at time t (linear between keys, held before the first and after the last; 0 without keys).
double EvaluateFaceTrack(const FaceTrack &track, double t);
// Sorts each face track's keys by time (stable: of two keys at one time the later wins) and drops empty tracks.
void FinishFaceTracks(std::vector<FaceTrack> &faces);

} // namespace gamefmt::rbx
