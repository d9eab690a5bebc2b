// Signature test for Second Life mesh assets (docs/formats/sl-mesh.md §12, CanRead): an LLSD binary map header whose
// first key is plausible, with "_lod" or "mesh" in the first 4096 bytes.
#pragma once

#include <cstddef>
#include <cstdint>

namespace gamefmt::slmesh {

constexpr std::size_t kSignatureBytes = 4096;

bool Detect(const std::uint8_t *data, std::size_t size) noexcept;

} // namespace gamefmt::slmesh
