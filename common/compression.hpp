// LZ4 block, zstd frame and zlib stream (de)compression for codecs, with decompression-bomb ceilings.
//
// Every decompressor treats its input as untrusted: the size the file declares is checked against a
// ceiling before anything is allocated, the produced size must equal the declared size exactly, and
// corrupt, truncated or trailing data is a FormatError whose offset points into the file
// (`baseOffset` is the file offset of data[0]).
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace gamefmt {

// The ceiling on decompressed bytes for an input of `inputSize` bytes is
//
//     min(maxOutput, max(inputSize * maxRatio, kMinAllowance))
//
// (the product saturates instead of overflowing). The 64 KiB allowance lets tiny inputs expand
// normally; maxOutput bounds everything, including that allowance. A declared size above the ceiling
// is rejected before any allocation, and InflateZlibUnknownSize never grows its buffer past it.
struct DecompressionLimits {
    static constexpr std::uint64_t kMinAllowance = std::uint64_t(64) << 10;

    std::uint64_t maxOutput = std::uint64_t(1) << 30; // 1 GiB
    std::uint64_t maxRatio = 1024;                    // output bytes per input byte
};

// The ceiling described above.
std::uint64_t DecompressionCeiling(std::uint64_t inputSize, const DecompressionLimits &limits = {}) noexcept;

// Signature checks for data whose compression is not declared (Roblox chunks). Never throw.
// Zstd: the frame magic 28 B5 2F FD. Zlib: a CMF/FLG pair with method 8 and a valid FCHECK.
bool LooksLikeZstdFrame(const std::uint8_t *data, std::size_t size) noexcept;
bool LooksLikeZlibStream(const std::uint8_t *data, std::size_t size) noexcept;
// Gzip (RFC 1952): 1F 8B and method 8, at least a header's 10 bytes.
bool LooksLikeGzip(const std::uint8_t *data, std::size_t size) noexcept;

// ---------------------------------------------------------------- decompression
// `expectedSize` is the decompressed size the file declares; `format` names the file format in errors
// (a string literal). All throw FormatError; only std::bad_alloc escapes otherwise.

// One raw LZ4 block (no frame header), as LZ4_decompress_safe reads it. The block format itself
// cannot expand one byte into more than 255, so `expectedSize` must also be <= 255 * size + 16.
std::vector<std::uint8_t> DecompressLz4Block(const std::uint8_t *data, std::size_t size, std::uint64_t expectedSize,
                                             const char *format, std::size_t baseOffset = 0,
                                             const DecompressionLimits &limits = {});

// Exactly one zstd frame: bytes after the frame are an error, and so is a content size in the frame
// header that disagrees with `expectedSize` (checked before allocating).
std::vector<std::uint8_t> DecompressZstdFrame(const std::uint8_t *data, std::size_t size, std::uint64_t expectedSize,
                                              const char *format, std::size_t baseOffset = 0,
                                              const DecompressionLimits &limits = {});

// The content size a zstd frame's header declares; nullopt when the header is cut or declares none (a streamed
// frame). Never throws.
std::optional<std::uint64_t> ZstdFrameContentSize(const std::uint8_t *data, std::size_t size) noexcept;

// One zlib stream (RFC 1950: header, deflate data, Adler-32, which is verified). The stream must end
// (Z_STREAM_END) and must be followed by nothing. Errors inside the stream report the offset of the
// input zlib had consumed when it failed.
std::vector<std::uint8_t> InflateZlib(const std::uint8_t *data, std::size_t size, std::uint64_t expectedSize,
                                      const char *format, std::size_t baseOffset = 0,
                                      const DecompressionLimits &limits = {});

// The same for a stream whose inflated size the file does not declare: the buffer grows by doubling
// and inflating stops with an error once the output would exceed the ceiling.
std::vector<std::uint8_t> InflateZlibUnknownSize(const std::uint8_t *data, std::size_t size, const char *format,
                                                 std::size_t baseOffset = 0, const DecompressionLimits &limits = {});
// The same, but bytes after the end of the stream are allowed (as the Second Life viewer allows them in mesh
// blocks): *streamEnd receives the length of the stream itself (== size when nothing follows).
std::vector<std::uint8_t> InflateZlibUnknownSize(const std::uint8_t *data, std::size_t size, const char *format,
                                                 std::size_t baseOffset, const DecompressionLimits &limits,
                                                 std::size_t *streamEnd);

// One gzip member (RFC 1952; CRC-32 and length verified), of undeclared size: grows like
// InflateZlibUnknownSize up to the ceiling; bytes after the member are an error. Roblox's CDN serves assets
// gzip-wrapped, and downloaded asset folders often keep them so.
std::vector<std::uint8_t> InflateGzip(const std::uint8_t *data, std::size_t size, const char *format,
                                      std::size_t baseOffset = 0, const DecompressionLimits &limits = {});

// ---------------------------------------------------------------- compression
// Errors (input too large for the library, invalid level) are FormatErrors without an offset.

// One raw LZ4 block (LZ4_compress_default). Input is limited to LZ4_MAX_INPUT_SIZE (~2 GiB).
std::vector<std::uint8_t> CompressLz4Block(const std::uint8_t *data, std::size_t size, const char *format = "gamefmt");

// One zstd frame with the content size in its header. `level`: ZSTD_minCLevel() to ZSTD_maxCLevel();
// 0 means zstd's default (3).
std::vector<std::uint8_t> CompressZstdFrame(const std::uint8_t *data, std::size_t size, int level = 0,
                                            const char *format = "gamefmt");

// One zlib stream as compress2() writes it (window 15, memLevel 8, default strategy), so the bytes
// match stock zlib at the same level. `level`: 0 to 9, or -1 for zlib's default (6).
std::vector<std::uint8_t> DeflateZlib(const std::uint8_t *data, std::size_t size, int level = -1,
                                      const char *format = "gamefmt");
// The same data as one gzip member (no name, no time stamp: the bytes depend on the input only).
std::vector<std::uint8_t> DeflateGzip(const std::uint8_t *data, std::size_t size, int level = -1,
                                      const char *format = "gamefmt");

} // namespace gamefmt
