// SHA-256 (FIPS 180-4) for the batch manifest (`gamefmt convert --manifest`): a file's identity when a run is resumed.
// Streaming: update() any number of times, then digest(). Checked against the FIPS 180-4 examples (tests/common).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

namespace gamefmt {

class Sha256 {
public:
    Sha256();
    void update(const std::uint8_t *data, std::size_t size);
    // The 32-byte digest; the object must not be updated afterwards.
    std::array<std::uint8_t, 32> digest();
    // The digest as 64 lowercase hex digits.
    std::string hexDigest();

private:
    void block(const std::uint8_t *p);

    std::array<std::uint32_t, 8> mState;
    std::array<std::uint8_t, 64> mBuffer{};
    std::size_t mBuffered = 0;
    std::uint64_t mLength = 0; // bytes
};

} // namespace gamefmt
