// CurveAnimations (docs/formats/roblox-animation.md §3): FloatCurve key blobs and the curve folders of a
// CurveAnimation read into the tracks of a Sequence (keyframes.hpp).
#pragma once

#include "importers/roblox_model/document/dom.hpp"
#include "importers/roblox_model/motion/keyframes.hpp"

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gamefmt::rbx {

// One key of a FloatCurve (§3.2): KeyInterpolationMode Constant 0, Linear 1, Cubic 2 (Hermite; tangents in value
// per second, a missing one 0).
enum class KeyInterpolation : std::uint8_t { Constant = 0, Linear = 1, Cubic = 2 };

struct FloatKey {
    double time = 0; // seconds (ticks / 2400)
    float value = 0;
    KeyInterpolation interpolation = KeyInterpolation::Linear; // another stored value counts as Linear
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
// A Folder "FaceControls" (at the top or among the joint folders) holds FACS FloatCurves, one per control: they become
// the sequence's face tracks (docs/formats/roblox-avatar.md §5). RotationCurves and other versions are kept in the
// file, not read (warned).
std::vector<Sequence> ReadCurveAnimations(const Document &doc, unsigned fps, std::vector<std::string> &warnings);

} // namespace gamefmt::rbx
