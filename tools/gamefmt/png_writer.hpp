// PNG encoding of Assimp's uncompressed embedded textures (BGRA aiTexel rows) with libpng.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

struct aiTexture;

namespace gamefmt::cli {

// Encodes `texture` (mHeight > 0) as PNG into `png`. False with `error` set on failure.
bool EncodePng(const aiTexture &texture, std::vector<std::uint8_t> &png, std::string &error);

} // namespace gamefmt::cli
