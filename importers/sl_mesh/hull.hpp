// Convex hulls for Second Life physics data (docs/formats/sl-mesh.md §6, §12, §13.9), computed with qhull (reentrant
// libqhull_r, options "qhull Qt", never joggled).
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace gamefmt::slmesh {

struct ConvexHull {
    bool ok = false;                      // false: fewer than 4 points, flat/degenerate input or a qhull error
    std::string error;                    // why not ok
    std::vector<std::uint32_t> triangles; // 3 indices into the input points per triangle, counter-clockwise
                                          // seen from outside (normals point away from the hull)
    std::vector<std::uint32_t> vertices;  // the input points on the hull, ascending, unique
};

// xyz = 3 floats per point. Thread-safe (each call has its own qhull state); never throws for bad geometry.
ConvexHull ComputeConvexHull(const float *xyz, std::size_t pointCount);

} // namespace gamefmt::slmesh
