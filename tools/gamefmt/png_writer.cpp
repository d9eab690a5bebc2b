// PNG encoding with libpng's simplified API, which reads aiTexel's B,G,R,A byte order directly.
#include "png_writer.hpp"

#include <assimp/texture.h>

#include <png.h>

#include <cstring>
#include <limits>

namespace gamefmt::cli {

bool EncodePng(const aiTexture &texture, std::vector<std::uint8_t> &png, std::string &error) {
    static_assert(sizeof(aiTexel) == 4, "aiTexel is four bytes, B G R A");
    if (texture.mHeight == 0 || texture.mWidth == 0 || texture.pcData == nullptr) {
        error = "not an uncompressed texture with texels";
        return false;
    }
    // libpng takes the row stride as a signed 32-bit count of components.
    if (texture.mWidth > static_cast<unsigned>(std::numeric_limits<png_int_32>::max() / 4)) {
        error = "texture too wide for PNG";
        return false;
    }
    png_image image;
    std::memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = texture.mWidth;
    image.height = texture.mHeight;
    image.format = PNG_FORMAT_BGRA;
    png_alloc_size_t size = 0;
    // First pass measures, second pass writes.
    if (!png_image_write_to_memory(&image, nullptr, &size, 0, texture.pcData, 0, nullptr)) {
        error = std::string("PNG encoding failed: ") + image.message;
        png_image_free(&image);
        return false;
    }
    png.resize(size);
    if (!png_image_write_to_memory(&image, png.data(), &size, 0, texture.pcData, 0, nullptr)) {
        error = std::string("PNG encoding failed: ") + image.message;
        png_image_free(&image);
        return false;
    }
    png.resize(size);
    return true;
}

} // namespace gamefmt::cli
