// PNG encoding with libpng's low-level write API into a memory buffer. Deterministic: no tIME or text chunks,
// fixed compression settings, so the same pixels always give the same bytes.
#include "common/png.hpp"

#include "common/error.hpp"

#include <png.h>

#include <csetjmp>
#include <cstring>
#include <exception>
#include <limits>
#include <new>
#include <string>

namespace gamefmt {

namespace {

// Passed to libpng's callbacks. Plain data only: libpng reports errors by longjmp, which must not skip the
// destructor of anything live in the frames it unwinds.
struct WriteState {
    std::vector<std::uint8_t> *out = nullptr;
    char message[256] = {};
};

void SetMessage(WriteState &state, const char *text) {
    std::strncpy(state.message, text != nullptr ? text : "unknown error", sizeof state.message - 1);
    state.message[sizeof state.message - 1] = '\0';
}

[[noreturn]] void OnError(png_structp png, png_const_charp message) {
    auto *state = static_cast<WriteState *>(png_get_error_ptr(png));
    if (state != nullptr) SetMessage(*state, message);
    png_longjmp(png, 1);
}

void OnWarning(png_structp, png_const_charp) {}

void OnWrite(png_structp png, png_bytep data, png_size_t length) {
    auto *state = static_cast<WriteState *>(png_get_io_ptr(png));
    bool failed = false;
    try {
        state->out->insert(state->out->end(), data, data + length);
    } catch (const std::exception &) {
        failed = true;
    }
    // Outside the handler: longjmp out of a catch block would leak the exception object.
    if (failed) png_error(png, "out of memory");
}

void OnFlush(png_structp) {}

// Returns false with state.message set when libpng fails. No C++ object with a destructor lives in this
// frame across setjmp.
bool WriteRows(const std::uint8_t *rgba, std::uint32_t width, std::uint32_t height, PngEffort effort,
               WriteState &state) {
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, &state, OnError, OnWarning);
    if (png == nullptr) {
        SetMessage(state, "png_create_write_struct failed");
        return false;
    }
    png_infop info = png_create_info_struct(png);
    if (info == nullptr) {
        png_destroy_write_struct(&png, nullptr);
        SetMessage(state, "png_create_info_struct failed");
        return false;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        return false;
    }
    png_set_write_fn(png, &state, OnWrite, OnFlush);
    png_set_IHDR(png, info, width, height, 8, PNG_COLOR_TYPE_RGBA, PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT,
                 PNG_FILTER_TYPE_DEFAULT);
    if (effort == PngEffort::Fast) {
        // One filter (Sub: flat colour runs become zeros) and zlib's fastest level: a fraction of the time of level
        // 6 with adaptive filtering, a little larger.
        png_set_filter(png, PNG_FILTER_TYPE_BASE, PNG_FILTER_SUB);
        png_set_compression_level(png, 1);
    } else {
        png_set_compression_level(png, 6);
    }
    png_write_info(png, info);
    const std::size_t stride = static_cast<std::size_t>(width) * 4;
    for (std::uint32_t y = 0; y < height; ++y) png_write_row(png, rgba + static_cast<std::size_t>(y) * stride);
    png_write_end(png, nullptr);
    png_destroy_write_struct(&png, &info);
    return true;
}

} // namespace

std::vector<std::uint8_t> EncodePngRgba(const std::uint8_t *rgba, std::uint32_t width, std::uint32_t height,
                                        const char *format, PngEffort effort) {
    if (format == nullptr) format = "PNG";
    if (width == 0 || height == 0)
        throw FormatError(format, "cannot encode an empty " + std::to_string(width) + "x" + std::to_string(height) +
                                      " image as PNG");
    if (width > kPngMaxDimension || height > kPngMaxDimension)
        throw FormatError(format, "image of " + std::to_string(width) + "x" + std::to_string(height) +
                                      " pixels exceeds the PNG limit of " + std::to_string(kPngMaxDimension) +
                                      " per side");
    if (rgba == nullptr) throw FormatError(format, "no pixels to encode as PNG");
    std::vector<std::uint8_t> out;
    WriteState state;
    state.out = &out;
    if (!WriteRows(rgba, width, height, effort, state))
        throw FormatError(format, std::string("PNG encoding failed: ") + state.message);
    return out;
}

RgbaImage DecodePngRgba(const std::uint8_t *data, std::size_t size, std::uint64_t maxPixels, const char *format) {
    png_image image;
    std::memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (png_image_begin_read_from_memory(&image, data, size) == 0) {
        const std::string why = image.message;
        png_image_free(&image);
        throw FormatError(format, "not a readable PNG (libpng: " + why + ")", 0);
    }
    const std::uint64_t pixels = std::uint64_t(image.width) * image.height;
    if (pixels == 0 || pixels > maxPixels) {
        png_image_free(&image);
        throw FormatError(format,
                          "a PNG of " + std::to_string(image.width) + "x" + std::to_string(image.height) +
                              " pixels is over the limit of " + std::to_string(maxPixels),
                          16);
    }
    image.format = PNG_FORMAT_RGBA;
    RgbaImage out;
    out.width = image.width;
    out.height = image.height;
    out.rgba.resize(static_cast<std::size_t>(pixels) * 4);
    if (png_image_finish_read(&image, nullptr, out.rgba.data(), 0, nullptr) == 0) {
        const std::string why = image.message;
        png_image_free(&image);
        throw FormatError(format, "corrupt PNG (libpng: " + why + ")", 0);
    }
    return out;
}

} // namespace gamefmt
