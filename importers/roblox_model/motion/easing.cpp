// Pose easing (easing.hpp; docs/formats/roblox-animation.md §5.3).
#include "importers/roblox_model/motion/easing.hpp"

#include <algorithm>
#include <cmath>

namespace gamefmt::rbx {
namespace {

constexpr double kPi = 3.14159265358979323846;

double BounceOut(double x) { // §5.3 B(x)
    if (x < 4.0 / 11) return 7.5625 * x * x;
    if (x < 8.0 / 11) return 7.5625 * (x - 6.0 / 11) * (x - 6.0 / 11) + 0.75;
    if (x < 10.0 / 11) return 7.5625 * (x - 9.0 / 11) * (x - 9.0 / 11) + 0.9375;
    return 7.5625 * (x - 21.0 / 22) * (x - 21.0 / 22) + 0.984375;
}

double Elastic(EasingDirection direction, double u) {
    if (direction == EasingDirection::Out) {
        const double p = 0.3, s = p / 4;
        return 1 + std::pow(2.0, -10 * u) * std::sin((u - s) * 2 * kPi / p);
    }
    if (direction == EasingDirection::InOut) {
        const double p = 0.45, s = p / 4, w = 2 * u - 1;
        if (w < 0) return -0.5 * std::pow(2.0, 10 * w) * std::sin((w - s) * 2 * kPi / p);
        return 1 + 0.5 * std::pow(2.0, -10 * w) * std::sin((w - s) * 2 * kPi / p);
    }
    const double p = 0.3, s = p / 4;
    return -std::pow(2.0, 10 * (u - 1)) * std::sin((u - 1 - s) * 2 * kPi / p);
}

double CubicIn(double u) { // slow start (CubicV2 In, legacy Cubic Out)
    return u * u * u;
}
double CubicOut(double u) {
    return 1 - (1 - u) * (1 - u) * (1 - u);
}
double CubicInOut(double u) {
    return u < 0.5 ? 4 * u * u * u : 1 - 4 * (1 - u) * (1 - u) * (1 - u);
}

} // namespace

double Ease(EasingStyle style, EasingDirection direction, double u) {
    using D = EasingDirection;
    u = std::clamp(u, 0.0, 1.0);
    if (static_cast<std::uint32_t>(direction) > 2) direction = D::In;
    switch (style) {
    case EasingStyle::Constant:
        if (direction == D::In) return u > 0 ? 1 : 0;
        if (direction == D::Out) return u >= 1 ? 1 : 0;
        return u >= 0.5 ? 1 : 0;
    case EasingStyle::Elastic:
        return Elastic(direction, u);
    case EasingStyle::Cubic: // legacy Cubic: In/Out the other way round
        return direction == D::In ? CubicOut(u) : direction == D::Out ? CubicIn(u) : CubicInOut(u);
    case EasingStyle::Bounce:
        if (direction == D::In) return 1 - BounceOut(1 - u);
        if (direction == D::Out) return BounceOut(u);
        return u < 0.5 ? 0.5 - 0.5 * BounceOut(1 - 2 * u) : 1 - 0.5 * BounceOut(2 - 2 * u);
    case EasingStyle::CubicV2:
        return direction == D::In ? CubicIn(u) : direction == D::Out ? CubicOut(u) : CubicInOut(u);
    default: // Linear, and styles this reader does not know
        return u;
    }
}

} // namespace gamefmt::rbx
