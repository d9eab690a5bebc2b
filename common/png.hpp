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

// How hard the encoder works: Small (zlib level 6, adaptive filters) or Fast (level 1, the Sub filter: for images
// made during an import, such as composited clothing, where the time matters more than the bytes).
enum class PngEffort : std::uint8_t { Small, Fast };

// Encodes width*height RGBA8 pixels (row 0 = the top row of the image) as a PNG (colour type RGBA, 8 bits).
// Throws FormatError(format, ...) for a zero or oversized size or a libpng failure. The same pixels and effort always
// give the same bytes.
std::vector<std::uint8_t> EncodePngRgba(const std::uint8_t *rgba, std::uint32_t width, std::uint32_t height,
                                        const char *format = "PNG", PngEffort effort = PngEffort::Small);

// A decoded image: width*height RGBA8 pixels, row 0 at the top.
struct RgbaImage {
    std::uint32_t width = 0, height = 0;
    std::vector<std::uint8_t> rgba;
};

// Decodes a PNG (any colour type, converted to RGBA8) with libpng's simplified API. Throws FormatError(format,
// ...) for a file libpng refuses or whose pixels would exceed `maxPixels`.
RgbaImage DecodePngRgba(const std::uint8_t *data, std::size_t size, std::uint64_t maxPixels = std::uint64_t(1) << 26,
                        const char *format = "PNG");

} // namespace gamefmt
