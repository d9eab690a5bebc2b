// LZ4 / zstd / zlib wrappers: size ceilings, exact-size checks and library errors as FormatError.
#include "common/compression.hpp"

#include "common/error.hpp"

#include <algorithm>
#include <climits>
#include <limits>
#include <memory>
#include <new>
#include <string>

#include <lz4.h>
#include <zstd.h>
#include <zstd_errors.h>
#define ZLIB_CONST
#include <zlib.h>

namespace gamefmt {
namespace {

using std::to_string;

constexpr std::uint64_t kU64Max = std::numeric_limits<std::uint64_t>::max();

// Rejects a declared size over the ceiling before the caller allocates for it.
void CheckDeclaredSize(std::size_t inputSize, std::uint64_t expectedSize, const DecompressionLimits &limits,
                       const char *what, const char *format, std::size_t baseOffset) {
    const std::uint64_t ceiling = DecompressionCeiling(inputSize, limits);
    if (expectedSize > ceiling)
        throw FormatError(format,
                          std::string(what) + " of " + to_string(inputSize) + " bytes declares " +
                              to_string(expectedSize) + " decompressed bytes, over the limit of " + to_string(ceiling),
                          baseOffset);
    if (expectedSize > std::numeric_limits<std::size_t>::max())
        throw FormatError(format, std::string(what) + " declares more bytes than memory can address", baseOffset);
}

[[noreturn]] void ThrowSizeMismatch(const char *what, std::uint64_t produced, std::uint64_t expectedSize,
                                    const char *format, std::size_t baseOffset) {
    throw FormatError(format,
                      std::string(what) + " decompressed to " + to_string(produced) + " bytes, but " +
                          to_string(expectedSize) + " were declared",
                      baseOffset);
}

[[noreturn]] void ThrowTooLarge(const char *what, std::uint64_t expectedSize, const char *format,
                                std::size_t baseOffset) {
    throw FormatError(
        format, std::string(what) + " decompresses to more than the " + to_string(expectedSize) + " bytes declared",
        baseOffset);
}

struct ZstdDCtxDeleter {
    void operator()(ZSTD_DCtx *ctx) const noexcept { ZSTD_freeDCtx(ctx); }
};

// Chunks are decompressed by the thousand; a per-thread context saves a ~100 KB allocation each time.
ZSTD_DCtx *ThreadZstdContext() {
    thread_local std::unique_ptr<ZSTD_DCtx, ZstdDCtxDeleter> ctx;
    if (!ctx) {
        ctx.reset(ZSTD_createDCtx());
        if (!ctx) throw std::bad_alloc();
    }
    return ctx.get();
}

class Inflater {
public:
    // `gzip`: an RFC 1952 member (header, deflate data, CRC-32 and length, both verified) instead of zlib.
    explicit Inflater(const char *format, std::size_t baseOffset, bool gzip = false)
        : mFormat(format), mBase(baseOffset) {
        mStream.zalloc = Z_NULL;
        mStream.zfree = Z_NULL;
        mStream.opaque = Z_NULL;
        mStream.next_in = Z_NULL;
        mStream.avail_in = 0;
        const int rc = gzip ? inflateInit2(&mStream, 16 + MAX_WBITS) : inflateInit(&mStream);
        if (rc == Z_MEM_ERROR) throw std::bad_alloc();
        if (rc != Z_OK) throw FormatError(mFormat, "zlib inflateInit failed (" + to_string(rc) + ")", mBase);
    }
    ~Inflater() { inflateEnd(&mStream); }
    Inflater(const Inflater &) = delete;
    Inflater &operator=(const Inflater &) = delete;

    // Inflates all of `data` into `out`. With `growable`, `out` doubles up to `ceiling`; otherwise it
    // must already have the declared size. Returns the number of bytes produced.
    // With `streamEnd`, bytes after the end of the stream are allowed and *streamEnd receives the stream's
    // length; otherwise they are an error.
    std::size_t run(const std::uint8_t *data, std::size_t size, std::vector<std::uint8_t> &out, bool growable,
                    std::uint64_t ceiling, std::size_t *streamEnd = nullptr) {
        std::size_t inFed = 0; // input bytes handed to zlib so far
        std::size_t produced = 0;
        std::uint8_t probe = 0; // a 1-byte window that tells "stream ends here" from "more output follows"
        bool probing = false;
        for (;;) {
            if (mStream.avail_in == 0 && inFed < size) {
                const std::size_t chunk = std::min<std::size_t>(size - inFed, UINT_MAX);
                mStream.next_in = data + inFed;
                mStream.avail_in = static_cast<uInt>(chunk);
                inFed += chunk;
            }
            if (mStream.avail_out == 0 && !probing) {
                if (produced == out.size() && growable && out.size() < ceiling) {
                    const std::uint64_t doubled = std::max<std::uint64_t>(std::uint64_t(out.size()) * 2, 4096);
                    out.resize(static_cast<std::size_t>(std::min(doubled, ceiling)));
                }
                if (produced < out.size()) {
                    const std::size_t chunk = std::min<std::size_t>(out.size() - produced, UINT_MAX);
                    mStream.next_out = out.data() + produced;
                    mStream.avail_out = static_cast<uInt>(chunk);
                } else {
                    probing = true;
                    mStream.next_out = &probe;
                    mStream.avail_out = 1;
                }
            }

            const uInt availBefore = mStream.avail_out;
            const int rc = inflate(&mStream, Z_NO_FLUSH);
            const std::size_t made = availBefore - mStream.avail_out;
            if (probing && made != 0) {
                if (growable)
                    throw FormatError(mFormat,
                                      "zlib data inflates to more than the limit of " + to_string(ceiling) +
                                          " bytes for " + to_string(size) + " compressed bytes",
                                      mBase);
                ThrowTooLarge("zlib data", out.size(), mFormat, mBase);
            }
            produced += made;

            switch (rc) {
            case Z_OK:
                continue;
            case Z_STREAM_END: {
                const std::size_t consumed = inFed - mStream.avail_in;
                if (streamEnd != nullptr) *streamEnd = consumed;
                if (consumed != size && streamEnd == nullptr)
                    throw FormatError(mFormat, to_string(size - consumed) + " bytes follow the end of the zlib stream",
                                      mBase + consumed);
                return produced;
            }
            case Z_NEED_DICT:
                throw FormatError(mFormat, "zlib stream needs a preset dictionary", mBase + consumedOffset(inFed));
            case Z_DATA_ERROR:
                throw FormatError(mFormat,
                                  std::string("corrupt zlib data (zlib: ") +
                                      (mStream.msg != nullptr ? mStream.msg : "data error") + ")",
                                  mBase + consumedOffset(inFed));
            case Z_BUF_ERROR:
                // Output space is always offered, so no progress means the input ran out mid-stream.
                throw FormatError(mFormat, "zlib stream is truncated (it ends before its final block and checksum)",
                                  mBase + size);
            case Z_MEM_ERROR:
                throw std::bad_alloc();
            default:
                throw FormatError(mFormat, "zlib inflate failed (" + to_string(rc) + ")",
                                  mBase + consumedOffset(inFed));
            }
        }
    }

private:
    std::size_t consumedOffset(std::size_t inFed) const { return inFed - mStream.avail_in; }

    z_stream mStream{};
    const char *mFormat;
    std::size_t mBase;
};

} // namespace

std::uint64_t DecompressionCeiling(std::uint64_t inputSize, const DecompressionLimits &limits) noexcept {
    std::uint64_t byRatio = kU64Max;
    if (limits.maxRatio == 0 || inputSize <= kU64Max / limits.maxRatio) byRatio = inputSize * limits.maxRatio;
    return std::min(limits.maxOutput, std::max(byRatio, DecompressionLimits::kMinAllowance));
}

bool LooksLikeZstdFrame(const std::uint8_t *data, std::size_t size) noexcept {
    return data != nullptr && size >= 4 && data[0] == 0x28 && data[1] == 0xB5 && data[2] == 0x2F && data[3] == 0xFD;
}

bool LooksLikeZlibStream(const std::uint8_t *data, std::size_t size) noexcept {
    return data != nullptr && size >= 2 && (data[0] & 0x0F) == 8 && (data[0] >> 4) <= 7 &&
           (data[0] * 256u + data[1]) % 31u == 0;
}

std::vector<std::uint8_t> DecompressLz4Block(const std::uint8_t *data, std::size_t size, std::uint64_t expectedSize,
                                             const char *format, std::size_t baseOffset,
                                             const DecompressionLimits &limits) {
    CheckDeclaredSize(size, expectedSize, limits, "LZ4 block", format, baseOffset);
    if (size > static_cast<std::size_t>(LZ4_MAX_INPUT_SIZE))
        throw FormatError(format, "LZ4 block of " + to_string(size) + " bytes is larger than LZ4 supports", baseOffset);
    // Each match-length byte adds at most 255 output bytes, so anything beyond this is a lie.
    const std::uint64_t lz4Max = std::uint64_t(size) * 255 + 16;
    if (expectedSize > lz4Max || expectedSize > static_cast<std::uint64_t>(INT_MAX))
        throw FormatError(format,
                          "LZ4 block of " + to_string(size) + " bytes cannot decompress to the " +
                              to_string(expectedSize) + " bytes declared",
                          baseOffset);

    std::vector<std::uint8_t> out(static_cast<std::size_t>(expectedSize));
    char dummy = 0;
    const char *src = data != nullptr ? reinterpret_cast<const char *>(data) : &dummy;
    char *dst = out.empty() ? &dummy : reinterpret_cast<char *>(out.data());
    const int rc = LZ4_decompress_safe(src, dst, static_cast<int>(size), static_cast<int>(expectedSize));
    if (rc < 0)
        throw FormatError(format,
                          "LZ4 block is corrupt, truncated, or decompresses to more than the " +
                              to_string(expectedSize) + " bytes declared",
                          baseOffset);
    if (static_cast<std::uint64_t>(rc) != expectedSize)
        ThrowSizeMismatch("LZ4 block", static_cast<std::uint64_t>(rc), expectedSize, format, baseOffset);
    return out;
}

std::optional<std::uint64_t> ZstdFrameContentSize(const std::uint8_t *data, std::size_t size) noexcept {
    if (!LooksLikeZstdFrame(data, size)) return std::nullopt;
    const unsigned long long contentSize = ZSTD_getFrameContentSize(data, size);
    if (contentSize == ZSTD_CONTENTSIZE_ERROR || contentSize == ZSTD_CONTENTSIZE_UNKNOWN) return std::nullopt;
    return std::uint64_t(contentSize);
}

std::vector<std::uint8_t> DecompressZstdFrame(const std::uint8_t *data, std::size_t size, std::uint64_t expectedSize,
                                              const char *format, std::size_t baseOffset,
                                              const DecompressionLimits &limits) {
    CheckDeclaredSize(size, expectedSize, limits, "zstd frame", format, baseOffset);
    const std::uint8_t dummy = 0;
    const void *src = data != nullptr ? static_cast<const void *>(data) : &dummy;
    if (!LooksLikeZstdFrame(data, size))
        throw FormatError(format, "not a zstd frame (expected the magic 28 B5 2F FD)", baseOffset);

    const unsigned long long contentSize = ZSTD_getFrameContentSize(src, size);
    if (contentSize == ZSTD_CONTENTSIZE_ERROR)
        throw FormatError(format, "truncated or invalid zstd frame header", baseOffset);
    if (contentSize != ZSTD_CONTENTSIZE_UNKNOWN && contentSize != expectedSize)
        throw FormatError(format,
                          "zstd frame header says " + to_string(contentSize) + " decompressed bytes, but " +
                              to_string(expectedSize) + " were declared",
                          baseOffset);
    const std::size_t frameSize = ZSTD_findFrameCompressedSize(src, size);
    if (ZSTD_isError(frameSize))
        throw FormatError(format,
                          std::string("truncated or corrupt zstd frame (zstd: ") + ZSTD_getErrorName(frameSize) + ")",
                          baseOffset);
    if (frameSize != size)
        throw FormatError(format, to_string(size - frameSize) + " bytes follow the zstd frame", baseOffset + frameSize);

    std::vector<std::uint8_t> out(static_cast<std::size_t>(expectedSize));
    std::uint8_t outDummy = 0;
    void *dst = out.empty() ? &outDummy : out.data();
    const std::size_t rc = ZSTD_decompressDCtx(ThreadZstdContext(), dst, out.size(), src, size);
    if (ZSTD_isError(rc)) {
        if (ZSTD_getErrorCode(rc) == ZSTD_error_dstSize_tooSmall)
            ThrowTooLarge("zstd frame", expectedSize, format, baseOffset);
        if (ZSTD_getErrorCode(rc) == ZSTD_error_memory_allocation) throw std::bad_alloc();
        throw FormatError(format, std::string("corrupt zstd data (zstd: ") + ZSTD_getErrorName(rc) + ")", baseOffset);
    }
    if (rc != expectedSize) ThrowSizeMismatch("zstd frame", rc, expectedSize, format, baseOffset);
    return out;
}

std::vector<std::uint8_t> InflateZlib(const std::uint8_t *data, std::size_t size, std::uint64_t expectedSize,
                                      const char *format, std::size_t baseOffset, const DecompressionLimits &limits) {
    CheckDeclaredSize(size, expectedSize, limits, "zlib stream", format, baseOffset);
    std::vector<std::uint8_t> out(static_cast<std::size_t>(expectedSize));
    Inflater inflater(format, baseOffset);
    const std::size_t produced = inflater.run(data, size, out, false, expectedSize);
    if (produced != expectedSize) ThrowSizeMismatch("zlib stream", produced, expectedSize, format, baseOffset);
    return out;
}

std::vector<std::uint8_t> InflateZlibUnknownSize(const std::uint8_t *data, std::size_t size, const char *format,
                                                 std::size_t baseOffset, const DecompressionLimits &limits) {
    return InflateZlibUnknownSize(data, size, format, baseOffset, limits, nullptr);
}

std::vector<std::uint8_t> InflateZlibUnknownSize(const std::uint8_t *data, std::size_t size, const char *format,
                                                 std::size_t baseOffset, const DecompressionLimits &limits,
                                                 std::size_t *streamEnd) {
    const std::uint64_t ceiling =
        std::min<std::uint64_t>(DecompressionCeiling(size, limits), std::numeric_limits<std::size_t>::max());
    // Start near a typical deflate ratio so most streams need no regrowth, but let big outputs prove
    // themselves by doubling rather than reserving the whole ceiling up front.
    const std::uint64_t guess =
        std::max<std::uint64_t>(std::min<std::uint64_t>(std::uint64_t(size) * 4, 64 << 20), 4096);
    std::vector<std::uint8_t> out(static_cast<std::size_t>(std::min(guess, ceiling)));
    Inflater inflater(format, baseOffset);
    out.resize(inflater.run(data, size, out, true, ceiling, streamEnd));
    return out;
}

bool LooksLikeGzip(const std::uint8_t *data, std::size_t size) noexcept {
    return size >= 10 && data[0] == 0x1F && data[1] == 0x8B && data[2] == 8;
}

std::vector<std::uint8_t> InflateGzip(const std::uint8_t *data, std::size_t size, const char *format,
                                      std::size_t baseOffset, const DecompressionLimits &limits) {
    const std::uint64_t ceiling =
        std::min<std::uint64_t>(DecompressionCeiling(size, limits), std::numeric_limits<std::size_t>::max());
    const std::uint64_t guess =
        std::max<std::uint64_t>(std::min<std::uint64_t>(std::uint64_t(size) * 4, 64 << 20), 4096);
    std::vector<std::uint8_t> out(static_cast<std::size_t>(std::min(guess, ceiling)));
    Inflater inflater(format, baseOffset, true);
    out.resize(inflater.run(data, size, out, true, ceiling));
    return out;
}

std::vector<std::uint8_t> CompressLz4Block(const std::uint8_t *data, std::size_t size, const char *format) {
    if (size > static_cast<std::size_t>(LZ4_MAX_INPUT_SIZE))
        throw FormatError(format, "cannot LZ4-compress " + to_string(size) + " bytes: the block format holds at most " +
                                      to_string(LZ4_MAX_INPUT_SIZE));
    const int bound = LZ4_compressBound(static_cast<int>(size));
    std::vector<std::uint8_t> out(static_cast<std::size_t>(bound));
    const char dummy = 0;
    const char *src = data != nullptr ? reinterpret_cast<const char *>(data) : &dummy;
    const int n = LZ4_compress_default(src, reinterpret_cast<char *>(out.data()), static_cast<int>(size), bound);
    if (n <= 0) throw FormatError(format, "LZ4 compression failed");
    out.resize(static_cast<std::size_t>(n));
    return out;
}

std::vector<std::uint8_t> CompressZstdFrame(const std::uint8_t *data, std::size_t size, int level, const char *format) {
    if (level < ZSTD_minCLevel() || level > ZSTD_maxCLevel())
        throw FormatError(format, "zstd level " + to_string(level) + " is outside " + to_string(ZSTD_minCLevel()) +
                                      " to " + to_string(ZSTD_maxCLevel()));
    const std::size_t bound = ZSTD_compressBound(size);
    if (ZSTD_isError(bound) || bound == 0)
        throw FormatError(format, "cannot zstd-compress " + to_string(size) + " bytes");
    std::vector<std::uint8_t> out(bound);
    const std::uint8_t dummy = 0;
    const void *src = data != nullptr ? static_cast<const void *>(data) : &dummy;
    const std::size_t n = ZSTD_compress(out.data(), out.size(), src, size, level);
    if (ZSTD_isError(n)) {
        if (ZSTD_getErrorCode(n) == ZSTD_error_memory_allocation) throw std::bad_alloc();
        throw FormatError(format, std::string("zstd compression failed: ") + ZSTD_getErrorName(n));
    }
    out.resize(n);
    return out;
}

namespace {
std::vector<std::uint8_t> Deflate(const std::uint8_t *data, std::size_t size, int level, const char *format,
                                  bool gzip) {
    if (level < -1 || level > 9) throw FormatError(format, "zlib level " + to_string(level) + " is outside -1 to 9");
    z_stream s{};
    s.zalloc = Z_NULL;
    s.zfree = Z_NULL;
    s.opaque = Z_NULL;
    const int init =
        gzip ? deflateInit2(&s, level, Z_DEFLATED, 16 + MAX_WBITS, 8, Z_DEFAULT_STRATEGY) : deflateInit(&s, level);
    if (init == Z_MEM_ERROR) throw std::bad_alloc();
    if (init != Z_OK) throw FormatError(format, "zlib deflateInit failed (" + to_string(init) + ")");
    struct End {
        z_stream *s;
        ~End() { deflateEnd(s); }
    } end{&s};
    // The gzip header's OS byte is zlib's build platform unless set (3 = Unix, 10 = Windows): say Unix everywhere,
    // so the same input gives the same bytes on every platform (RFC 1952 §2.3.1).
    gz_header header{};
    header.os = 3;
    if (gzip && deflateSetHeader(&s, &header) != Z_OK) throw FormatError(format, "zlib deflateSetHeader failed");

    std::vector<std::uint8_t> out(static_cast<std::size_t>(deflateBound(&s, static_cast<uLong>(size))));
    std::size_t inFed = 0;
    std::size_t produced = 0;
    for (;;) {
        if (s.avail_in == 0 && inFed < size) {
            const std::size_t chunk = std::min<std::size_t>(size - inFed, UINT_MAX);
            s.next_in = data + inFed;
            s.avail_in = static_cast<uInt>(chunk);
            inFed += chunk;
        }
        if (s.avail_out == 0) {
            if (produced == out.size()) out.resize(out.size() * 2 + 64); // deflateBound makes this unreachable
            const std::size_t chunk = std::min<std::size_t>(out.size() - produced, UINT_MAX);
            s.next_out = out.data() + produced;
            s.avail_out = static_cast<uInt>(chunk);
        }
        const uInt availBefore = s.avail_out;
        const int rc = deflate(&s, inFed == size ? Z_FINISH : Z_NO_FLUSH);
        produced += availBefore - s.avail_out;
        if (rc == Z_STREAM_END) break;
        if (rc != Z_OK && rc != Z_BUF_ERROR) throw FormatError(format, "zlib deflate failed (" + to_string(rc) + ")");
    }
    out.resize(produced);
    return out;
}
} // namespace

std::vector<std::uint8_t> DeflateZlib(const std::uint8_t *data, std::size_t size, int level, const char *format) {
    return Deflate(data, size, level, format, false);
}

std::vector<std::uint8_t> DeflateGzip(const std::uint8_t *data, std::size_t size, int level, const char *format) {
    return Deflate(data, size, level, format, true);
}

} // namespace gamefmt
