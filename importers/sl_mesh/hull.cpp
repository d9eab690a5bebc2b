// Convex hulls with reentrant qhull (docs/formats/sl-mesh.md §6, §12): "qhull Qt" (triangulated output, never
// joggled), each triangle oriented outward against its facet normal. One qhT per call, so calls may run
// on several threads at once; qhull's messages go to the null device, never to stderr.
#include "importers/sl_mesh/hull.hpp"

extern "C" {
#include <libqhull_r/qhull_ra.h>
}

#include <algorithm>
#include <climits>
#include <cmath>
#include <cstdio>
#include <memory>

namespace gamefmt::slmesh {
namespace {

struct FileCloser {
    void operator()(std::FILE *f) const {
        if (f != nullptr) std::fclose(f);
    }
};

// A sink for qhull's error and trace output; qhull needs a real FILE (a null one makes it print to stderr).
std::unique_ptr<std::FILE, FileCloser> OpenSink() {
#ifdef _WIN32
    std::FILE *f = std::fopen("NUL", "w");
#else
    std::FILE *f = std::fopen("/dev/null", "w");
#endif
    if (f == nullptr) f = std::tmpfile();
    return std::unique_ptr<std::FILE, FileCloser>(f);
}

// Frees everything qhull allocated for one run, whatever happened.
struct QhullRun {
    qhT state;
    bool started = false;
    ~QhullRun() {
        if (!started) return;
        qhT *qh = &state;
        qh_freeqhull(qh, !qh_ALL);
        int curlong = 0, totlong = 0;
        qh_memfreeshort(qh, &curlong, &totlong);
    }
};

} // namespace

ConvexHull ComputeConvexHull(const float *xyz, std::size_t pointCount) {
    ConvexHull hull;
    if (pointCount < 4 || xyz == nullptr) {
        hull.error = "a convex hull needs at least 4 points, got " + std::to_string(pointCount);
        return hull;
    }
    if (pointCount > static_cast<std::size_t>(INT_MAX / 3)) {
        hull.error = "too many points for qhull (" + std::to_string(pointCount) + ")";
        return hull;
    }
    std::vector<coordT> points(pointCount * 3);
    for (std::size_t i = 0; i < pointCount * 3; ++i) {
        if (!std::isfinite(xyz[i])) {
            hull.error = "point " + std::to_string(i / 3) + " is not finite";
            return hull;
        }
        points[i] = static_cast<coordT>(xyz[i]);
    }

    const auto sink = OpenSink();
    if (!sink) {
        hull.error = "cannot open a sink for qhull's messages";
        return hull;
    }
    auto run = std::make_unique<QhullRun>();
    qhT *qh = &run->state;
    qh_zero(qh, sink.get());
    run->started = true;
    char command[] = "qhull Qt";
    const int exitCode =
        qh_new_qhull(qh, 3, static_cast<int>(pointCount), points.data(), False, command, nullptr, sink.get());
    if (exitCode != 0) {
        hull.error = "qhull failed (code " + std::to_string(exitCode) +
                     "): the points are coplanar, collinear or otherwise degenerate";
        return hull;
    }

    std::vector<std::uint32_t> triangles;
    for (facetT *facet = qh->facet_list; facet != nullptr && facet->next != nullptr; facet = facet->next) {
        if (facet->vertices == nullptr || qh_setsize(qh, facet->vertices) != 3) continue;
        int ids[3];
        const pointT *p[3];
        for (int k = 0; k < 3; ++k) {
            auto *vertex = static_cast<vertexT *>(facet->vertices->e[k].p);
            p[k] = vertex->point;
            ids[k] = qh_pointid(qh, vertex->point);
        }
        if (ids[0] < 0 || ids[1] < 0 || ids[2] < 0) continue;
        // Orient against the facet's outward normal (qhull's vertex order follows toporient, not winding).
        const double e1[3] = {p[1][0] - p[0][0], p[1][1] - p[0][1], p[1][2] - p[0][2]};
        const double e2[3] = {p[2][0] - p[0][0], p[2][1] - p[0][1], p[2][2] - p[0][2]};
        const double c[3] = {e1[1] * e2[2] - e1[2] * e2[1], e1[2] * e2[0] - e1[0] * e2[2],
                             e1[0] * e2[1] - e1[1] * e2[0]};
        double dot = 0;
        if (facet->normal != nullptr)
            dot = c[0] * facet->normal[0] + c[1] * facet->normal[1] + c[2] * facet->normal[2];
        else
            dot = facet->toporient ? 1.0 : -1.0;
        if (dot < 0) std::swap(ids[1], ids[2]);
        for (const int id : ids) triangles.push_back(static_cast<std::uint32_t>(id));
    }
    if (triangles.size() < 12) { // a closed 3-D hull has at least 4 triangles
        hull.error = "qhull returned " + std::to_string(triangles.size() / 3) + " facets: degenerate input";
        return hull;
    }
    hull.vertices = triangles;
    std::sort(hull.vertices.begin(), hull.vertices.end());
    hull.vertices.erase(std::unique(hull.vertices.begin(), hull.vertices.end()), hull.vertices.end());
    hull.triangles = std::move(triangles);
    hull.ok = true;
    return hull;
}

} // namespace gamefmt::slmesh
