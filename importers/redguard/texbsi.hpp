// Redguard TEXBSI.### texture banks and .COL palettes (docs/formats/redguard-3d.md §10, §11): image records with
// BSIF/IFHD, BHDR, CMAP, DATA subrecords (static and animated, row tables), 776-byte palettes, and the
// conversion of palette indices to RGBA (index 0 transparent). No Assimp here.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace gamefmt::redguard {

struct TexImage {
    std::string name; // e.g. "D76019" (record name, up to 9 bytes, NUL removed)
    std::int16_t xOffset = 0, yOffset = 0;
    std::int16_t width = 0, height = 0;
    std::uint8_t hasCmap = 0, exportFlags = 0;
    std::int16_t frameCount = 1, delayMs = 0;
    std::uint16_t texScale = 0;       // 8.8; not part of UV normalisation
    std::int16_t encoding = 0;        // 0 raw, 4 row table
    bool animated = false;            // IFHD present or frameCount > 1
    std::vector<std::uint8_t> pixels; // frame 0: width*height palette indices, row-major, row 0 first
    // Animated images: frames 1 … frameCount − 1, each like `pixels` (docs/formats/redguard-world.md §3). Empty
    // when the frames would exceed kMaxFramePixels in all (then only frame 0 is kept, with a warning).
    std::vector<std::vector<std::uint8_t>> laterFrames;
    std::optional<std::array<std::uint8_t, 768>> cmap; // animated images' own palette
};

struct TexBank {
    std::vector<TexImage> images;
    std::vector<std::string> warnings;
};

// The most palette indices an animated image's frames may expand to (row tables may share rows, so a small file
// can describe far more): 16 Mi, four 2048 × 2048 frames.
inline constexpr std::size_t kMaxFramePixels = std::size_t(1) << 24;

// Reads every image record until a record whose name starts with a 0 byte, or EOF. Throws FormatError for a
// record or subrecord past the end, a non-positive or oversized (> 4096) width/height, a DATA block too
// short for its image, or row offsets out of range.
TexBank ReadTexBsi(const std::uint8_t *data, std::size_t size);

// The image for `imageIndex`: the record whose name ends in the 3 digits of the index; else (byOrdinal set
// true) the imageIndex-th record; nullptr when neither exists.
const TexImage *FindTexImage(const TexBank &bank, unsigned imageIndex, bool *byOrdinal = nullptr);

struct Palette {
    std::array<std::uint8_t, 768> rgb{}; // 256 x RGB888
};

// A 776-byte .COL (u32 size, u32 magic 0xB123, 768 RGB), or a 768-byte headerless palette. A different header
// is a warning (bytes 8-775 still used); fewer than 768 bytes is a FormatError.
Palette ReadPalette(const std::uint8_t *data, std::size_t size, std::vector<std::string> *warnings = nullptr);
// The grey ramp (i, i, i) used when no palette is found.
Palette GreyRampPalette();

// width*height*4 RGBA bytes of `frame` (0 = `pixels`, k = laterFrames[k − 1]; a frame that was not kept gives
// frame 0): index 0 -> (0,0,0,0), otherwise palette[i] with alpha 255.
std::vector<std::uint8_t> ImageToRgba(const TexImage &image, const Palette &palette, std::size_t frame = 0);

} // namespace gamefmt::redguard
