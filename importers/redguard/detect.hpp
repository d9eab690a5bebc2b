// Signature test for Redguard models (docs/formats/redguard-3d.md §1, §9): exactly "v2.6", "v2.7", "v4.0", "v5.0"
// for .3D/.3DC, "OARC" for .ROB archives. Never reads a fifth byte for the version.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

namespace gamefmt::redguard {

enum class FileKind { None, Model, Archive };

constexpr std::size_t kSignatureBytes = 4;

FileKind Detect(const std::uint8_t *data, std::size_t size) noexcept;

// Why Detect rejects `data`, for "not a Redguard model: ..." when no importer accepts a .3d file. Empty when
// Detect accepts it.
std::string DescribeMismatch(const std::uint8_t *data, std::size_t size);

} // namespace gamefmt::redguard
