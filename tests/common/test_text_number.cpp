// Tests for common/text_number: parsing rules, range errors, INF/NAN spelling, shortest printing and
// bit-exact round trips over sampled float and double bit patterns.
#include "common/text_number.hpp"
#include "support/bits.hpp"

#include <gtest/gtest.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>

using namespace gamefmt;

namespace {

using namespace gamefmt::test;

// The float `s` parses to, as bits; fails the test when it does not parse.
std::uint32_t FloatParsedBits(const char *s) {
    float f = 12345.0f;
    EXPECT_TRUE(ParseFloat(s, f)) << s;
    return FloatBits(f);
}
std::uint64_t DoubleParsedBits(const char *s) {
    double d = 12345.0;
    EXPECT_TRUE(ParseDouble(s, d)) << s;
    return DoubleBits(d);
}

// Checks that `s` is rejected and the output left alone.
void ExpectFloatRejected(const char *s) {
    float f = 12345.0f;
    EXPECT_FALSE(ParseFloat(s, f)) << '"' << s << '"';
    EXPECT_EQ(f, 12345.0f) << s;
}
void ExpectDoubleRejected(const char *s) {
    double d = 12345.0;
    EXPECT_FALSE(ParseDouble(s, d)) << '"' << s << '"';
    EXPECT_EQ(d, 12345.0) << s;
}

void ExpectFloatRoundTrip(std::uint32_t bits) {
    const float v = FloatFromBits(bits);
    const std::string text = FormatFloat(v);
    float back = 0;
    ASSERT_TRUE(ParseFloat(text, back)) << text;
    if (std::isnan(v)) {
        EXPECT_TRUE(std::isnan(back)) << text;
        EXPECT_EQ(text, "NAN");
    } else {
        EXPECT_EQ(FloatBits(back), bits) << text;
    }
}

void ExpectDoubleRoundTrip(std::uint64_t bits) {
    const double v = DoubleFromBits(bits);
    const std::string text = FormatDouble(v);
    double back = 0;
    ASSERT_TRUE(ParseDouble(text, back)) << text;
    if (std::isnan(v)) {
        EXPECT_TRUE(std::isnan(back)) << text;
        EXPECT_EQ(text, "NAN");
    } else {
        EXPECT_EQ(DoubleBits(back), bits) << text;
    }
}

} // namespace

// ---------------------------------------------------------------- TrimAscii

TEST(TextNumber, TrimAscii) {
    EXPECT_EQ(TrimAscii("  \t1.5\r\n"), "1.5");
    EXPECT_EQ(TrimAscii("\v\f 7 \f\v"), "7");
    EXPECT_EQ(TrimAscii("a b"), "a b");
    EXPECT_EQ(TrimAscii(""), "");
    EXPECT_EQ(TrimAscii(" \t\r\n"), "");
    EXPECT_EQ(TrimAscii("\xA0"
                        "1"),
              "\xA0"
              "1")
        << "only ASCII whitespace";
    EXPECT_EQ(TrimAscii(std::string_view("\0"
                                         "1",
                                         2)),
              std::string_view("\0"
                               "1",
                               2))
        << "NUL is not whitespace";
}

// ---------------------------------------------------------------- ParseFloat

TEST(TextNumber, ParseFloatBasics) {
    EXPECT_EQ(FloatParsedBits("0.1"), FloatBits(0.1f));
    EXPECT_EQ(FloatParsedBits("1"), FloatBits(1.0f));
    EXPECT_EQ(FloatParsedBits("+1"), FloatBits(1.0f));
    EXPECT_EQ(FloatParsedBits("-2.5"), FloatBits(-2.5f));
    EXPECT_EQ(FloatParsedBits(".5"), FloatBits(0.5f));
    EXPECT_EQ(FloatParsedBits("-.5"), FloatBits(-0.5f));
    EXPECT_EQ(FloatParsedBits("5."), FloatBits(5.0f));
    EXPECT_EQ(FloatParsedBits("007.25"), FloatBits(7.25f));
    EXPECT_EQ(FloatParsedBits("0"), 0x00000000u);
    EXPECT_EQ(FloatParsedBits("-0"), 0x80000000u);
    EXPECT_EQ(FloatParsedBits("-0.0e5"), 0x80000000u);
}

TEST(TextNumber, ParseFloatExponents) {
    EXPECT_EQ(FloatParsedBits("1.5e-3"), FloatBits(1.5e-3f));
    EXPECT_EQ(FloatParsedBits("-2E+10"), FloatBits(-2e10f));
    EXPECT_EQ(FloatParsedBits("1e+20"), FloatBits(1e20f));
    EXPECT_EQ(FloatParsedBits("1e-07"), FloatBits(1e-7f));
    EXPECT_EQ(FloatParsedBits("25E0"), FloatBits(25.0f));
    EXPECT_EQ(FloatParsedBits("+3e2"), FloatBits(300.0f));
}

TEST(TextNumber, ParseFloatLimits) {
    EXPECT_EQ(FloatParsedBits("3.4028235e38"), FloatBits(FLT_MAX));
    EXPECT_EQ(FloatParsedBits("3.4028235e+38"), FloatBits(FLT_MAX));
    EXPECT_EQ(FloatParsedBits("-3.4028235e38"), FloatBits(-FLT_MAX));
    EXPECT_EQ(FloatParsedBits("3.40282356e38"), FloatBits(FLT_MAX)) << "just below the rounding midpoint";
    EXPECT_EQ(FloatParsedBits("1.17549435e-38"), FloatBits(FLT_MIN));
    EXPECT_EQ(FloatParsedBits("1e-45"), 0x00000001u) << "the smallest denormal";
    EXPECT_EQ(FloatParsedBits("1.4e-45"), 0x00000001u);
    EXPECT_EQ(FloatParsedBits("-1e-45"), 0x80000001u);
    EXPECT_EQ(FloatParsedBits("1e-39"), FloatBits(1e-39f));
}

// Decision: a finite number too large for the type is an error, not infinity.
TEST(TextNumber, ParseFloatOverflowIsAnError) {
    ExpectFloatRejected("1e39");
    ExpectFloatRejected("-1e39");
    ExpectFloatRejected("3.4028236e38"); // rounds past FLT_MAX
    ExpectFloatRejected("340282360000000000000000000000000000000");
    ExpectFloatRejected("1e99999999999999999999999");
    ExpectFloatRejected("0.0000000000000000000000000000000000000000001e82");
}

// A non-zero number below the smallest denormal rounds to zero of its sign.
TEST(TextNumber, ParseFloatUnderflowIsSignedZero) {
    EXPECT_EQ(FloatParsedBits("1e-50"), 0x00000000u);
    EXPECT_EQ(FloatParsedBits("-1e-50"), 0x80000000u);
    EXPECT_EQ(FloatParsedBits("7e-46"), 0x00000000u) << "below half the smallest denormal";
    EXPECT_EQ(FloatParsedBits("8e-46"), 0x00000001u) << "above half the smallest denormal";
    EXPECT_EQ(FloatParsedBits("1e-99999999999999999999999"), 0x00000000u);
    EXPECT_EQ(FloatParsedBits("0.00000000000000000000000000000000000000000000000001"), 0x00000000u);
    EXPECT_EQ(FloatParsedBits("100000000000000000000e-70"), 0x00000000u);
}

TEST(TextNumber, ParseFloatInfinity) {
    const std::uint32_t inf = 0x7F800000u, ninf = 0xFF800000u;
    EXPECT_EQ(FloatParsedBits("INF"), inf);
    EXPECT_EQ(FloatParsedBits("inf"), inf);
    EXPECT_EQ(FloatParsedBits("Inf"), inf);
    EXPECT_EQ(FloatParsedBits("+INF"), inf);
    EXPECT_EQ(FloatParsedBits("infinity"), inf);
    EXPECT_EQ(FloatParsedBits("INFINITY"), inf);
    EXPECT_EQ(FloatParsedBits("InFiNiTy"), inf);
    EXPECT_EQ(FloatParsedBits("-INF"), ninf);
    EXPECT_EQ(FloatParsedBits("-inf"), ninf);
    EXPECT_EQ(FloatParsedBits("-Infinity"), ninf);
}

TEST(TextNumber, ParseFloatNan) {
    for (const char *s : {"NAN", "nan", "NaN", "+nan", "-NAN", "nan(123)", "NAN()"}) {
        float f = 0;
        EXPECT_TRUE(ParseFloat(s, f)) << s;
        EXPECT_TRUE(std::isnan(f)) << s;
    }
}

TEST(TextNumber, ParseFloatRejects) {
    for (const char *s :
         {"",      "+",       "-",   "++1", "+-1",  "-+1", "--1",   " 1",    "1 ",    "\t1",         "1\n",
          "1e",    "1e+",     "1e-", "e5",  ".",    "-.",  "0x10",  "0X1p3", "1,5",   "1.5f",        "1.2.3",
          "infin", "infinit", "in",  "na",  "nan(", "+ 1", "1e5.0", "abc",   "1_000", "\xE2\x88\x9E"})
        ExpectFloatRejected(s);
}

TEST(TextNumber, ParseFloatStringViewNotNulTerminated) {
    const char buf[] = {'1', '.', '5', '7'};
    float f = 0;
    ASSERT_TRUE(ParseFloat(std::string_view(buf, 3), f));
    EXPECT_EQ(f, 1.5f);
    const char embedded[] = {'1', '\0', '2'};
    EXPECT_FALSE(ParseFloat(std::string_view(embedded, 3), f));
}

// ---------------------------------------------------------------- ParseDouble

TEST(TextNumber, ParseDouble) {
    EXPECT_EQ(DoubleParsedBits("0.1"), DoubleBits(0.1));
    EXPECT_EQ(DoubleParsedBits("+0.1"), DoubleBits(0.1));
    EXPECT_EQ(DoubleParsedBits("-1.067"), DoubleBits(-1.067));
    EXPECT_EQ(DoubleParsedBits("1.7976931348623157e308"), DoubleBits(DBL_MAX));
    EXPECT_EQ(DoubleParsedBits("2.2250738585072014e-308"), DoubleBits(DBL_MIN));
    EXPECT_EQ(DoubleParsedBits("5e-324"), 0x0000000000000001ull);
    EXPECT_EQ(DoubleParsedBits("4.9e-324"), 0x0000000000000001ull);
    EXPECT_EQ(DoubleParsedBits("1e39"), DoubleBits(1e39)) << "fine as a double";
    EXPECT_EQ(DoubleParsedBits("-0"), 0x8000000000000000ull);
    EXPECT_EQ(DoubleParsedBits("1e-400"), 0x0000000000000000ull);
    EXPECT_EQ(DoubleParsedBits("-1e-400"), 0x8000000000000000ull);
    EXPECT_EQ(DoubleParsedBits("INF"), 0x7FF0000000000000ull);
    EXPECT_EQ(DoubleParsedBits("-INF"), 0xFFF0000000000000ull);
    double d = 0;
    EXPECT_TRUE(ParseDouble("NAN", d));
    EXPECT_TRUE(std::isnan(d));
}

TEST(TextNumber, ParseDoubleRejects) {
    for (const char *s : {"", "1e309", "-1e309", "1.8e308", " 0", "0 ", "1e", "+-0", "0x1", "inff"})
        ExpectDoubleRejected(s);
}

// ---------------------------------------------------------------- integers

TEST(TextNumber, ParseInt32) {
    std::int32_t v = 99;
    EXPECT_TRUE(ParseInt32("2147483647", v));
    EXPECT_EQ(v, 2147483647);
    EXPECT_TRUE(ParseInt32("-2147483648", v));
    EXPECT_EQ(v, std::numeric_limits<std::int32_t>::min());
    EXPECT_TRUE(ParseInt32("+5", v));
    EXPECT_EQ(v, 5);
    EXPECT_TRUE(ParseInt32("-0", v));
    EXPECT_EQ(v, 0);
    EXPECT_TRUE(ParseInt32("007", v));
    EXPECT_EQ(v, 7);
    v = 99;
    for (const char *s : {"2147483648", "-2147483649", "", "+", "-", "1.0", "1e3", " 1", "1 ", "0x1", "++1", "+-1",
                          "12a", "99999999999999999999"}) {
        EXPECT_FALSE(ParseInt32(s, v)) << s;
        EXPECT_EQ(v, 99) << s;
    }
}

TEST(TextNumber, ParseUInt32) {
    std::uint32_t v = 99;
    EXPECT_TRUE(ParseUInt32("4294967295", v));
    EXPECT_EQ(v, 4294967295u);
    EXPECT_TRUE(ParseUInt32("+0", v));
    EXPECT_EQ(v, 0u);
    v = 99;
    for (const char *s : {"4294967296", "-1", "-0", "", "+-1", "1.5", " 3"}) {
        EXPECT_FALSE(ParseUInt32(s, v)) << s;
        EXPECT_EQ(v, 99u) << s;
    }
}

TEST(TextNumber, ParseInt64) {
    std::int64_t v = 99;
    EXPECT_TRUE(ParseInt64("9223372036854775807", v));
    EXPECT_EQ(v, std::numeric_limits<std::int64_t>::max());
    EXPECT_TRUE(ParseInt64("-9223372036854775808", v));
    EXPECT_EQ(v, std::numeric_limits<std::int64_t>::min());
    EXPECT_TRUE(ParseInt64("+42", v));
    EXPECT_EQ(v, 42);
    v = 99;
    for (const char *s : {"9223372036854775808", "-9223372036854775809", "", "1e5", "--1", "1\t"}) {
        EXPECT_FALSE(ParseInt64(s, v)) << s;
        EXPECT_EQ(v, 99) << s;
    }
}

TEST(TextNumber, ParseUInt64) {
    std::uint64_t v = 99;
    EXPECT_TRUE(ParseUInt64("18446744073709551615", v));
    EXPECT_EQ(v, std::numeric_limits<std::uint64_t>::max());
    EXPECT_TRUE(ParseUInt64("+1", v));
    EXPECT_EQ(v, 1u);
    v = 99;
    for (const char *s : {"18446744073709551616", "-1", "-0", "", "+", "0.0"}) {
        EXPECT_FALSE(ParseUInt64(s, v)) << s;
        EXPECT_EQ(v, 99u) << s;
    }
}

// ---------------------------------------------------------------- printing

TEST(TextNumber, FormatFloat) {
    EXPECT_EQ(FormatFloat(0.1f), "0.1");
    EXPECT_EQ(FormatFloat(0.0f), "0");
    EXPECT_EQ(FormatFloat(-0.0f), "-0");
    EXPECT_EQ(FormatFloat(1.0f), "1");
    EXPECT_EQ(FormatFloat(-2.5f), "-2.5");
    EXPECT_EQ(FormatFloat(100.0f), "100");
    EXPECT_EQ(FormatFloat(1e20f), "1e+20");
    EXPECT_EQ(FormatFloat(1e-7f), "1e-07");
    // "123456790" is as short; among equally short texts the standard picks the closest, the exact value.
    EXPECT_EQ(FormatFloat(123456789.0f), "123456792");
    EXPECT_EQ(FormatFloat(FLT_MAX), "3.4028235e+38");
    EXPECT_EQ(FormatFloat(-FLT_MAX), "-3.4028235e+38");
    EXPECT_EQ(FormatFloat(FLT_MIN), "1.1754944e-38");
    EXPECT_EQ(FormatFloat(FloatFromBits(1)), "1e-45");
    EXPECT_EQ(FormatFloat(1.0f / 3.0f), "0.33333334");
}

TEST(TextNumber, FormatFloatNonFinite) {
    EXPECT_EQ(FormatFloat(std::numeric_limits<float>::infinity()), "INF");
    EXPECT_EQ(FormatFloat(-std::numeric_limits<float>::infinity()), "-INF");
    EXPECT_EQ(FormatFloat(std::numeric_limits<float>::quiet_NaN()), "NAN");
    EXPECT_EQ(FormatFloat(FloatFromBits(0xFFC00000u)), "NAN") << "the sign of a NaN is not printed";
    EXPECT_EQ(FormatFloat(FloatFromBits(0x7F800001u)), "NAN");
}

TEST(TextNumber, FormatDouble) {
    EXPECT_EQ(FormatDouble(0.1), "0.1");
    EXPECT_EQ(FormatDouble(-0.0), "-0");
    EXPECT_EQ(FormatDouble(1.0 / 3.0), "0.3333333333333333");
    EXPECT_EQ(FormatDouble(static_cast<double>(0.1f)), "0.10000000149011612");
    EXPECT_EQ(FormatDouble(DBL_MAX), "1.7976931348623157e+308");
    EXPECT_EQ(FormatDouble(-2.2250738585072014e-308), "-2.2250738585072014e-308");
    EXPECT_EQ(FormatDouble(DoubleFromBits(1)), "5e-324");
    EXPECT_EQ(FormatDouble(1e21), "1e+21");
    EXPECT_EQ(FormatDouble(std::numeric_limits<double>::infinity()), "INF");
    EXPECT_EQ(FormatDouble(-std::numeric_limits<double>::infinity()), "-INF");
    EXPECT_EQ(FormatDouble(-std::numeric_limits<double>::quiet_NaN()), "NAN");
}

TEST(TextNumber, FormatIntegers) {
    EXPECT_EQ(FormatInt(0), "0");
    EXPECT_EQ(FormatInt(-1), "-1");
    EXPECT_EQ(FormatInt(1234567890123), "1234567890123");
    EXPECT_EQ(FormatInt(std::numeric_limits<std::int64_t>::min()), "-9223372036854775808");
    EXPECT_EQ(FormatInt(std::numeric_limits<std::int64_t>::max()), "9223372036854775807");
    EXPECT_EQ(FormatUInt(0), "0");
    EXPECT_EQ(FormatUInt(std::numeric_limits<std::uint64_t>::max()), "18446744073709551615");
}

TEST(TextNumber, AppendVariantsAppend) {
    std::string s = "v=";
    AppendFloat(s, 0.5f);
    s += ' ';
    AppendDouble(s, -0.25);
    s += ' ';
    AppendInt(s, -7);
    s += ' ';
    AppendUInt(s, 8);
    s += ' ';
    AppendFloat(s, -std::numeric_limits<float>::infinity());
    s += ' ';
    AppendDouble(s, std::numeric_limits<double>::quiet_NaN());
    EXPECT_EQ(s, "v=0.5 -0.25 -7 8 -INF NAN");
}

TEST(TextNumber, IntegerRoundTrip) {
    for (std::int64_t v : {std::numeric_limits<std::int64_t>::min(), std::int64_t(-1), std::int64_t(0),
                           std::int64_t(1) << 53, std::numeric_limits<std::int64_t>::max()}) {
        std::int64_t back = 0;
        ASSERT_TRUE(ParseInt64(FormatInt(v), back));
        EXPECT_EQ(back, v);
    }
    std::uint64_t u = 0;
    ASSERT_TRUE(ParseUInt64(FormatUInt(std::numeric_limits<std::uint64_t>::max()), u));
    EXPECT_EQ(u, std::numeric_limits<std::uint64_t>::max());
}

// ---------------------------------------------------------------- round-trip sweeps

TEST(TextNumber, FloatSpecialValuesRoundTrip) {
    for (std::uint32_t bits :
         {0x00000000u, 0x80000000u, 0x00000001u, 0x80000001u, 0x007FFFFFu, 0x00800000u, 0x3F800000u, 0x3F800001u,
          0x3F7FFFFFu, 0x7F7FFFFFu, 0xFF7FFFFFu, 0x7F800000u, 0xFF800000u, 0x7FC00000u, 0x3DCCCCCDu, 0x4CB2D05Eu})
        ExpectFloatRoundTrip(bits);
}

TEST(TextNumber, FloatSampledSweepRoundTrips) {
    // A prime stride visits every exponent and a spread of mantissas: ~66,000 patterns.
    for (std::uint64_t bits = 0; bits <= 0xFFFFFFFFull; bits += 65521)
        ExpectFloatRoundTrip(static_cast<std::uint32_t>(bits));
    // Dense runs where shortest printing is hardest: denormals, around 1, around FLT_MAX, powers of two.
    for (std::uint32_t i = 0; i < 4096; ++i) {
        ExpectFloatRoundTrip(i);
        ExpectFloatRoundTrip(0x00800000u - i);
        ExpectFloatRoundTrip(0x3F800000u - 2048 + i);
        ExpectFloatRoundTrip(0x7F7FFFFFu - i);
    }
    for (std::uint32_t e = 0; e < 255; ++e)
        for (std::uint32_t d : {0u, 1u, 0x7FFFFFu}) ExpectFloatRoundTrip((e << 23) | d);
}

TEST(TextNumber, DoubleSampledSweepRoundTrips) {
    std::uint64_t x = 0x9E3779B97F4A7C15ull;
    for (int i = 0; i < 50000; ++i) {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        ExpectDoubleRoundTrip(x);
    }
    for (std::uint64_t e = 0; e < 2047; ++e)
        for (std::uint64_t d : {0ull, 1ull, 0xFFFFFFFFFFFFFull}) ExpectDoubleRoundTrip((e << 52) | d);
}

TEST(TextNumber, FloatTextIsShortest) {
    // Shortest means no fewer digits can reach the same float: drop the last significant digit and it
    // must read back as something else (spot-checked on values with long representations).
    for (float v : {0.1f, 1.0f / 3.0f, 3.14159265f, 1e-7f, 6.02214076e23f}) {
        const std::string text = FormatFloat(v);
        const std::size_t e = text.find('e');
        std::string mantissa = text.substr(0, e);
        const std::string exponent = e == std::string::npos ? "" : text.substr(e);
        if (mantissa.find('.') == std::string::npos || mantissa.size() < 3) continue;
        mantissa.pop_back();
        float shorter = 0;
        ASSERT_TRUE(ParseFloat(mantissa + exponent, shorter));
        EXPECT_NE(FloatBits(shorter), FloatBits(v)) << text;
    }
}
