// Typed reading of one instance's properties: the number, flag, reference or CFrame a property holds, with the
// fallback the caller names when it is absent or of another type; a stored CFrame as a rigid transform.
#pragma once

#include "common/math.hpp"
#include "importers/roblox_model/document/dom.hpp"

#include <cstdint>
#include <string_view>

namespace gamefmt::rbx {

// The property `name` of instance `i`, or nullptr.
const Property *PropertyOf(const Document &doc, std::uint32_t i, std::string_view name);
// A Ref property's target when it names an instance of the document, else kNoInstance.
std::uint32_t RefOf(const Document &doc, std::uint32_t i, std::string_view name);
const CFrame *CFrameOf(const Document &doc, std::uint32_t i, std::string_view name);
// A number-like property's value (Float32, Float64, Enum, Int32), else `fallback` (also for a null property).
double NumberValue(const Property *p, double fallback);
double NumberOf(const Document &doc, std::uint32_t i, std::string_view name, double fallback);
bool BoolOf(const Document &doc, std::uint32_t i, std::string_view name, bool fallback);
bool IsClass(const Document &doc, std::uint32_t i, std::string_view cls);

// A stored CFrame as a rigid transform: a non-finite position component becomes 0; a rotation that is not
// finite or degenerate becomes the identity; one that drifts from orthonormal is re-orthonormalised
// (Gram-Schmidt from its X and Y columns). `repaired` is set when any of that happened.
Rigid RigidFromCFrame(const CFrame &cf, bool *repaired = nullptr);
// The CFrame property `name` as a rigid transform (identity when absent; `repaired` as above).
Rigid RigidOf(const Document &doc, std::uint32_t i, std::string_view name, bool *repaired = nullptr);

} // namespace gamefmt::rbx
