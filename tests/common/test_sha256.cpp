// SHA-256 against the examples of FIPS 180-4 (NIST's "SHA256.pdf" example values): one and two blocks, the empty
// message and a million 'a's; any split of the input into update() calls gives the same digest.
#include "common/sha256.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

namespace gamefmt {
namespace {

std::string HexOf(const std::string &text) {
    Sha256 h;
    h.update(reinterpret_cast<const std::uint8_t *>(text.data()), text.size());
    return h.hexDigest();
}

TEST(Sha256, FipsExamples) {
    EXPECT_EQ(HexOf("abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    EXPECT_EQ(HexOf(""), "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
    EXPECT_EQ(HexOf("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"),
              "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
    EXPECT_EQ(HexOf(std::string(1000000, 'a')), "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

TEST(Sha256, SplitsDoNotMatter) {
    std::vector<std::uint8_t> bytes(1000);
    for (std::size_t i = 0; i < bytes.size(); ++i) bytes[i] = static_cast<std::uint8_t>(i * 131 + 7);
    Sha256 whole;
    whole.update(bytes.data(), bytes.size());
    const std::string expected = whole.hexDigest();
    for (std::size_t step : {1u, 3u, 55u, 56u, 63u, 64u, 65u, 127u, 999u}) {
        Sha256 h;
        for (std::size_t at = 0; at < bytes.size(); at += step)
            h.update(bytes.data() + at, std::min(step, bytes.size() - at));
        EXPECT_EQ(h.hexDigest(), expected) << step;
    }
}

} // namespace
} // namespace gamefmt
