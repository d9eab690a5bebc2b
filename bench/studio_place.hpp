// A generated place shaped like the ones Roblox Studio saves (for the memory and speed goals of issue #13,
// which were set on real places of 1.6 MB / 14k instances and 2.5 MB / 26k instances): buildings of parts,
// wedges, MeshParts and unions with every property Studio writes for their class, welds, decals, lights,
// scripts with source text, GUI, and services beside the Workspace. Deterministic for a seed.
#pragma once

#include "importers/roblox_model/document/dom.hpp"

#include <cstddef>
#include <cstdint>

namespace gamefmt::bench {

// About `instances` instances (a whole number of buildings of 40 instances plus the services).
rbx::Document StudioLikePlace(std::size_t instances, std::uint32_t seed = 1);

} // namespace gamefmt::bench
