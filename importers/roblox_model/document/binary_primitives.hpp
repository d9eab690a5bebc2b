// The binary format's encoding primitives (docs/formats/roblox-model.md §2.2): zigzag integers, sign-rotated
// big-endian floats, byte interleaving and summed referent arrays. Shared by the binary reader and writer.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>

#include "common/error.hpp"
#include "importers/roblox_model/document/dom.hpp"

namespace gamefmt::rbx::bin {

inline std::uint32_t ZigzagEncode32(std::int32_t x) {
    return (static_cast<std::uint32_t>(x) << 1) ^ static_cast<std::uint32_t>(x >> 31);
}
inline std::int32_t ZigzagDecode32(std::uint32_t u) {
    return static_cast<std::int32_t>((u >> 1) ^ (~(u & 1) + 1));
}
inline std::uint64_t ZigzagEncode64(std::int64_t x) {
    return (static_cast<std::uint64_t>(x) << 1) ^ static_cast<std::uint64_t>(x >> 63);
}
inline std::int64_t ZigzagDecode64(std::uint64_t u) {
    return static_cast<std::int64_t>((u >> 1) ^ (~(u & 1) + 1));
}

// The rotation of a CFrame rotation id (§2.5): columns c0, c1 from the id, c2 = c0 × c1, row-major. False for
// an invalid id.
inline bool RotationFromId(std::uint8_t id, std::array<float, 9> &rotation) {
    if (id < 1) return false;
    const int a0 = (id - 1) / 6;
    const int a1 = (id - 1) % 6;
    if (a0 > 5 || a0 % 3 == a1 % 3) return false;
    float c0[3] = {0, 0, 0}, c1[3] = {0, 0, 0};
    c0[a0 % 3] = a0 < 3 ? 1.0f : -1.0f;
    c1[a1 % 3] = a1 < 3 ? 1.0f : -1.0f;
    const float c2[3] = {c0[1] * c1[2] - c0[2] * c1[1], c0[2] * c1[0] - c0[0] * c1[2], c0[0] * c1[1] - c0[1] * c1[0]};
    for (int r = 0; r < 3; ++r) {
        // `+ 0.0f` turns the -0 of the cross product into +0, as the reference's table has it.
        rotation[r * 3 + 0] = c0[r] + 0.0f;
        rotation[r * 3 + 1] = c1[r] + 0.0f;
        rotation[r * 3 + 2] = c2[r] + 0.0f;
    }
    return true;
}

// Roblox floats: IEEE binary32 rotated left one bit (sign to bit 0).
inline std::uint32_t RbxFloatEncode(float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    return (u << 1) | (u >> 31);
}
inline float RbxFloatDecode(std::uint32_t r) {
    const std::uint32_t u = (r >> 1) | (r << 31);
    float f;
    std::memcpy(&f, &u, 4);
    return f;
}

// De-interleaves `count` big-endian values of `Width` bytes stored as stored[j*count + i] = byte j of
// value i. `src` must hold count*Width bytes (the caller checks).
template <std::size_t Width, typename U>
inline void DeinterleaveBE(const std::uint8_t *src, std::size_t count, U *out) {
    static_assert(sizeof(U) >= Width, "output too narrow");
    for (std::size_t i = 0; i < count; ++i) {
        U v = 0;
        for (std::size_t j = 0; j < Width; ++j) v = static_cast<U>((v << 8) | src[j * count + i]);
        out[i] = v;
    }
}

// The inverse: appends count*Width bytes to `dst`.
template <std::size_t Width, typename U>
inline void InterleaveBE(const U *values, std::size_t count, std::vector<std::uint8_t> &dst) {
    const std::size_t base = dst.size();
    dst.resize(base + count * Width);
    for (std::size_t i = 0; i < count; ++i)
        for (std::size_t j = 0; j < Width; ++j)
            dst[base + j * count + i] = static_cast<std::uint8_t>(values[i] >> (8 * (Width - 1 - j)));
}

// Referent arrays: zigzag i32 deltas, then a wrapping prefix sum (null = summed value -1).
inline void PrefixSumReferents(std::int32_t *values, std::size_t count) {
    std::uint32_t acc = 0;
    for (std::size_t i = 0; i < count; ++i) {
        acc += static_cast<std::uint32_t>(values[i]);
        values[i] = static_cast<std::int32_t>(acc);
    }
}
inline void DeltaEncodeReferents(std::int32_t *values, std::size_t count) {
    std::uint32_t previous = 0;
    for (std::size_t i = 0; i < count; ++i) {
        const auto current = static_cast<std::uint32_t>(values[i]);
        values[i] = static_cast<std::int32_t>(current - previous);
        previous = current;
    }
}

// ---------------------------------------------------------------- appending to a body (the writer's side)

inline void PutU32LE(std::vector<std::uint8_t> &out, std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}
inline void PutF32LE(std::vector<std::uint8_t> &out, float f) {
    std::uint32_t u;
    std::memcpy(&u, &f, 4);
    PutU32LE(out, u);
}
inline void PutU16LE(std::vector<std::uint8_t> &out, std::uint16_t v) {
    out.push_back(static_cast<std::uint8_t>(v));
    out.push_back(static_cast<std::uint8_t>(v >> 8));
}
// A u32 length then the bytes; FormatError beyond 4 GiB.
inline void PutString(std::vector<std::uint8_t> &out, const std::string &s) {
    if (s.size() > 0xFFFFFFFFull)
        throw FormatError(kFormatName, "string of " + std::to_string(s.size()) + " bytes exceeds 4 GiB");
    PutU32LE(out, static_cast<std::uint32_t>(s.size()));
    out.insert(out.end(), s.begin(), s.end());
}
inline void PutCount(std::vector<std::uint8_t> &out, std::size_t n, const char *what) {
    if (n > 0xFFFFFFFFull)
        throw FormatError(kFormatName, std::string("too many ") + what + " (" + std::to_string(n) + ")");
    PutU32LE(out, static_cast<std::uint32_t>(n));
}
inline void PutInt32Array(std::vector<std::uint8_t> &out, std::vector<std::uint32_t> &zig,
                          const std::vector<std::int32_t> &values) {
    zig.resize(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) zig[i] = ZigzagEncode32(values[i]);
    InterleaveBE<4>(zig.data(), zig.size(), out);
}
inline void PutFloatArray(std::vector<std::uint8_t> &out, std::vector<std::uint32_t> &tmp,
                          const std::vector<float> &values) {
    tmp.resize(values.size());
    for (std::size_t i = 0; i < values.size(); ++i) tmp[i] = RbxFloatEncode(values[i]);
    InterleaveBE<4>(tmp.data(), tmp.size(), out);
}
// Referents (already resolved to int32, -1 = null): delta-encoded, zigzag, interleaved.
inline void PutReferentArray(std::vector<std::uint8_t> &out, std::vector<std::int32_t> refs) {
    DeltaEncodeReferents(refs.data(), refs.size());
    std::vector<std::uint32_t> zig;
    PutInt32Array(out, zig, refs);
}

} // namespace gamefmt::rbx::bin
