// Pose easing (docs/formats/roblox-animation.md §5.3): PoseEasingStyle and PoseEasingDirection, and the curve each
// pair gives between two keys.
#pragma once

#include <cstdint>

namespace gamefmt::rbx {

// PoseEasingStyle and PoseEasingDirection (§5.3).
enum class EasingStyle : std::uint32_t { Linear = 0, Constant = 1, Elastic = 2, Cubic = 3, Bounce = 4, CubicV2 = 5 };
enum class EasingDirection : std::uint32_t { In = 0, Out = 1, InOut = 2 };
// α = ease(style, direction, u) for u in [0, 1] (§5.3's table); an unknown style or direction counts as Linear/In.
double Ease(EasingStyle style, EasingDirection direction, double u);

} // namespace gamefmt::rbx
