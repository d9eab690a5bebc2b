// libFuzzer target for the Redguard side codecs (docs/formats/redguard-3d.md §10, §11): TEXBSI bank parsing, palette
// parsing, and the palette-to-RGBA-to-PNG path the importer takes for the first image.
#include "common/error.hpp"
#include "common/png.hpp"
#include "importers/redguard/texbsi.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t *data, std::size_t size) {
    using namespace gamefmt::redguard;
    Palette palette = GreyRampPalette();
    if (size >= 776) {
        try {
            std::vector<std::string> warnings;
            palette = ReadPalette(data, 776, &warnings);
        } catch (const gamefmt::FormatError &) {
            __builtin_trap(); // 776 bytes always read (a bad header only warns)
        }
    }
    TexBank bank;
    try {
        bank = ReadTexBsi(data, size);
    } catch (const gamefmt::FormatError &) {
        return 0;
    }
    for (const TexImage &image : bank.images) {
        if (image.width < 1 || image.width > 4096 || image.height < 1 || image.height > 4096) __builtin_trap();
        if (image.pixels.size() != static_cast<std::size_t>(image.width) * static_cast<std::size_t>(image.height))
            __builtin_trap();
    }
    bool byOrdinal = false;
    (void)FindTexImage(bank, 0, &byOrdinal);
    if (bank.images.empty()) return 0;
    const TexImage &first = bank.images.front();
    const std::size_t pixels = static_cast<std::size_t>(first.width) * static_cast<std::size_t>(first.height);
    if (pixels > (std::size_t{1} << 20)) return 0;
    if (first.cmap) palette.rgb = *first.cmap; // the importer's rule when no palette is configured
    const std::vector<std::uint8_t> rgba = ImageToRgba(first, palette);
    if (rgba.size() != pixels * 4) __builtin_trap();
    try {
        const std::vector<std::uint8_t> png = gamefmt::EncodePngRgba(
            rgba.data(), static_cast<std::uint32_t>(first.width), static_cast<std::uint32_t>(first.height));
        if (png.size() < 8) __builtin_trap();
    } catch (const gamefmt::FormatError &) {
        __builtin_trap(); // valid sizes must encode
    }
    return 0;
}
