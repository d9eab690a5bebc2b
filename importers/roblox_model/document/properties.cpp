// Typed property reading (properties.hpp).
#include "importers/roblox_model/document/properties.hpp"

#include <algorithm>
#include <cmath>
#include <variant>

namespace gamefmt::rbx {

const Property *PropertyOf(const Document &doc, std::uint32_t i, std::string_view name) {
    return doc.findProperty(doc.instances[i], name);
}

std::uint32_t RefOf(const Document &doc, std::uint32_t i, std::string_view name) {
    const Property *p = PropertyOf(doc, i, name);
    if (p == nullptr) return kNoInstance;
    const auto *ref = std::get_if<RefValue>(&p->value.data);
    return ref != nullptr && ref->target < doc.instances.size() ? ref->target : kNoInstance;
}

const CFrame *CFrameOf(const Document &doc, std::uint32_t i, std::string_view name) {
    const Property *p = PropertyOf(doc, i, name);
    return p == nullptr ? nullptr : std::get_if<CFrame>(&p->value.data);
}

Rigid RigidOf(const Document &doc, std::uint32_t i, std::string_view name, bool *repaired) {
    const CFrame *cf = CFrameOf(doc, i, name);
    if (repaired != nullptr) *repaired = false;
    return cf != nullptr ? RigidFromCFrame(*cf, repaired) : Rigid();
}

double NumberValue(const Property *p, double fallback) {
    if (p == nullptr) return fallback;
    if (const auto *f = std::get_if<float>(&p->value.data)) return *f;
    if (const auto *d = std::get_if<double>(&p->value.data)) return *d;
    if (const auto *e = std::get_if<EnumValue>(&p->value.data)) return e->value;
    if (const auto *n = std::get_if<std::int32_t>(&p->value.data)) return *n;
    return fallback;
}

double NumberOf(const Document &doc, std::uint32_t i, std::string_view name, double fallback) {
    return NumberValue(PropertyOf(doc, i, name), fallback);
}

bool BoolOf(const Document &doc, std::uint32_t i, std::string_view name, bool fallback) {
    const Property *p = PropertyOf(doc, i, name);
    if (p == nullptr) return fallback;
    const auto *b = std::get_if<bool>(&p->value.data);
    return b != nullptr ? *b : fallback;
}

bool IsClass(const Document &doc, std::uint32_t i, std::string_view cls) {
    return doc.className(doc.instances[i]) == cls;
}

Rigid RigidFromCFrame(const CFrame &cf, bool *repaired) {
    Rigid t;
    bool fixed = false;
    const float pos[3] = {cf.position.x, cf.position.y, cf.position.z};
    for (std::size_t i = 0; i < 3; ++i) {
        if (std::isfinite(pos[i])) {
            t.p[i] = pos[i];
        } else {
            fixed = true;
        }
    }
    bool finite = true;
    for (float v : cf.rotation) finite = finite && std::isfinite(v);
    Vec3d x{cf.rotation[0], cf.rotation[3], cf.rotation[6]}, y{cf.rotation[1], cf.rotation[4], cf.rotation[7]},
        z{cf.rotation[2], cf.rotation[5], cf.rotation[8]};
    double drift = finite ? 0.0 : 1.0;
    if (finite) {
        const double d[6] = {x.dot(x) - 1, y.dot(y) - 1, z.dot(z) - 1, x.dot(y), x.dot(z), y.dot(z)};
        for (double v : d) drift = std::max(drift, std::fabs(v));
        if (x.dot(y.cross(z)) < 0) drift = 2;
    }
    if (drift > 1e-6) {
        // Stored rotations are float32 and only nearly orthonormal (roblox-animation.md §5.1): re-orthonormalise in
        // double. Small drift is rounding, not damage; only a rotation that was not one at all counts as repaired.
        if (drift > 1e-3) fixed = true;
        const double lx = finite ? std::sqrt(x.dot(x)) : 0;
        if (!(lx > 1e-9)) {
            x = {1, 0, 0}, y = {0, 1, 0};
        } else {
            x = x * (1 / lx);
        }
        y = y - x * x.dot(y);
        double ly = std::sqrt(y.dot(y));
        if (!(ly > 1e-6)) {
            y = (std::fabs(x[0]) < 0.9 ? Vec3d{1, 0, 0} : Vec3d{0, 1, 0}).cross(x);
            ly = std::sqrt(y.dot(y));
        }
        y = y * (1 / ly);
        z = x.cross(y);
    }
    for (std::size_t i = 0; i < 3; ++i) {
        t.r[i * 3] = x[i];
        t.r[i * 3 + 1] = y[i];
        t.r[i * 3 + 2] = z[i];
    }
    if (repaired != nullptr) *repaired = fixed;
    return t;
}

} // namespace gamefmt::rbx
