// PNG encoding with libpng: the embedded textures gamefmt makes (Redguard palettised images) and the CLI's
// extraction of uncompressed textures.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

namespace gamefmt {

// The largest width or height EncodePngRgba accepts: libpng's default reader limit, so every PNG we write can
// be read back by a default-configured libpng.
inline constexpr std::uint32_t kPngMaxDimension = 1000000;

// Encodes width*height RGBA8 pixels (row 0 = the top row of the image) as a PNG (colour type RGBA, 8 bits).
// Throws FormatError(format, ...) for a zero or oversized size or a libpng failure.
std::vector<std::uint8_t> EncodePngRgba(const std::uint8_t *rgba, std::uint32_t width, std::uint32_t height,
                                        const char *format = "PNG");

} // namespace gamefmt
