// Small helpers for the Roblox document tests: adding a property by hand, and a value's fields as one line
// so a test checks all of them in one expectation.
#pragma once

#include "common/text_number.hpp"
#include "importers/roblox_model/document/dom.hpp"

#include <cstdint>
#include <string>
#include <utility>

namespace gamefmt::rbx {

// Appends property `name` of `type` with `data` to instance `inst`.
inline void AddProperty(Document &d, std::uint32_t inst, const char *name, Type type, ValueData data) {
    Property p;
    p.name = d.names.intern(name);
    p.value.type = type;
    p.value.data = std::move(data);
    d.instances[inst].properties.push_back(std::move(p));
}

// "flags=F density=D friction=F elasticity=E frictionWeight=W elasticityWeight=W acoustic=A", each float
// printed exactly (shortest round trip).
inline std::string Describe(const PhysicalProperties &p) {
    return "flags=" + std::to_string(p.flags) + " density=" + FormatFloat(p.density) +
           " friction=" + FormatFloat(p.friction) + " elasticity=" + FormatFloat(p.elasticity) +
           " frictionWeight=" + FormatFloat(p.frictionWeight) + " elasticityWeight=" + FormatFloat(p.elasticityWeight) +
           " acoustic=" + FormatFloat(p.acousticAbsorption);
}

} // namespace gamefmt::rbx
