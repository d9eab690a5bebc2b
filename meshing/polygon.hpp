// Planar polygons of 3D outlines: their Newell normal, their projection onto their own plane, convexity tests and
// ear clipping into n − 2 triangles with a bounded cost (a hostile face has up to 255 corners). Used by the
// Redguard glue, whose faces are arbitrary polygons (docs/formats/redguard-3d.md §7); no Assimp here.
#pragma once

#include "common/math.hpp"

#include <array>
#include <cstdint>
#include <vector>

namespace gamefmt::polygon {

using Point2 = std::array<double, 2>;

// The right-hand (Newell) normal of a closed outline, twice its vector area.
Vec3d NewellNormal(const std::vector<Vec3d> &pts);
// The outline projected onto the plane of its Newell normal (orientation kept: counter-clockwise positive) into
// `out` (reused storage); left empty when the outline has no area.
void Project(const std::vector<Vec3d> &pts, std::vector<Point2> &out);
// For an outline without area (collinear corners, or lobes that cancel): drop the axis it spreads least along.
std::vector<Point2> SpreadProjection(const std::vector<Vec3d> &pts);
// (a − o) × (b − o): positive when o → a → b turns left.
double Cross2(const Point2 &o, const Point2 &a, const Point2 &b);
// True when some corner turns the wrong way (a reflex corner).
bool IsConcave(const std::vector<Point2> &p);
// True when the outline is convex and simple (turns once around, never right, never back on itself).
bool IsConvexSimple(const std::vector<Point2> &p);
// A quad whose every corner turns along its Newell normal by far more than rounding explains (decided without
// projecting; never disagrees with IsConcave of the projection, only cheaper).
bool PlainlyConvexQuad(const std::vector<Vec3d> &pts);
// Ear clipping of a counter-clockwise polygon: exactly n − 2 triangles of corner indices, the one holding corner 0
// first and starting with it.
std::vector<std::array<std::uint32_t, 3>> EarClip(const std::vector<Point2> &p);

} // namespace gamefmt::polygon
