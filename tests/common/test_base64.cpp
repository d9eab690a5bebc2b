// Base64 against RFC 4648's test vectors, and strict decoding.
#include "common/base64.hpp"

#include <gtest/gtest.h>

namespace {

std::vector<std::uint8_t> B(const std::string &s) {
    return std::vector<std::uint8_t>(s.begin(), s.end());
}

TEST(Base64, Rfc4648Vectors) {
    const std::pair<const char *, const char *> vectors[] = {{"", ""},
                                                             {"f", "Zg=="},
                                                             {"fo", "Zm8="},
                                                             {"foo", "Zm9v"},
                                                             {"foob", "Zm9vYg=="},
                                                             {"fooba", "Zm9vYmE="},
                                                             {"foobar", "Zm9vYmFy"}};
    for (const auto &[plain, encoded] : vectors) {
        EXPECT_EQ(gamefmt::Base64Encode(B(plain)), encoded);
        const auto decoded = gamefmt::Base64Decode(encoded);
        ASSERT_TRUE(decoded.has_value()) << encoded;
        EXPECT_EQ(*decoded, B(plain));
    }
}

TEST(Base64, EveryByteValueRoundTrips) {
    std::vector<std::uint8_t> all(256);
    for (int i = 0; i < 256; ++i) all[i] = static_cast<std::uint8_t>(i);
    const std::string text = gamefmt::Base64Encode(all);
    EXPECT_EQ(text.substr(0, 8), "AAECAwQF");
    EXPECT_EQ(text.substr(text.size() - 8), "/P3+/w=="); // fc fd fe, then ff
    EXPECT_EQ(gamefmt::Base64Decode(text), all);
}

TEST(Base64, RejectsMalformedText) {
    EXPECT_FALSE(gamefmt::Base64Decode("Zg="));      // length not a multiple of 4
    EXPECT_FALSE(gamefmt::Base64Decode("Zm9v!A==")); // outside the alphabet
    EXPECT_FALSE(gamefmt::Base64Decode("Z=g="));     // data after padding
    EXPECT_FALSE(gamefmt::Base64Decode("Zg==Zg==")); // padding before the end
    EXPECT_FALSE(gamefmt::Base64Decode("Zh=="));     // stray bits under the padding
    EXPECT_FALSE(gamefmt::Base64Decode("===="));
}

} // namespace
