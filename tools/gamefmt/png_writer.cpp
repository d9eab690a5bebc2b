// PNG encoding of Assimp's uncompressed embedded textures: aiTexel rows are B,G,R,A, so each texel is
// reordered to RGBA for the project's one PNG encoder (common/png).
#include "png_writer.hpp"

#include "common/error.hpp"
#include "common/png.hpp"

#include <assimp/texture.h>

#include <cstddef>
#include <new>

namespace gamefmt::cli {

bool EncodePng(const aiTexture &texture, std::vector<std::uint8_t> &png, std::string &error) {
    static_assert(sizeof(aiTexel) == 4, "aiTexel is four bytes, B G R A");
    if (texture.mHeight == 0 || texture.mWidth == 0 || texture.pcData == nullptr) {
        error = "not an uncompressed texture with texels";
        return false;
    }
    if (texture.mWidth > kPngMaxDimension || texture.mHeight > kPngMaxDimension) {
        error = "texture too large for PNG";
        return false;
    }
    try {
        const std::size_t count = static_cast<std::size_t>(texture.mWidth) * texture.mHeight;
        std::vector<std::uint8_t> rgba(count * 4);
        for (std::size_t i = 0; i < count; ++i) {
            const aiTexel &t = texture.pcData[i];
            rgba[4 * i + 0] = t.r;
            rgba[4 * i + 1] = t.g;
            rgba[4 * i + 2] = t.b;
            rgba[4 * i + 3] = t.a;
        }
        png = EncodePngRgba(rgba.data(), texture.mWidth, texture.mHeight);
    } catch (const FormatError &e) {
        error = e.message();
        return false;
    } catch (const std::bad_alloc &) {
        error = "out of memory while encoding PNG";
        return false;
    }
    return true;
}

} // namespace gamefmt::cli
