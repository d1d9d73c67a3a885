// Doubles as text (reports/chars.hpp): the printf-made text the web build uses, where the
// standard library has no floating-point std::to_chars, is std::to_chars's own, character for
// character.
#include <catch2/catch.hpp>

#include <bit>
#include <charconv>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <limits>
#include <random>
#include <string>

#include "reports/chars.hpp"

using namespace odds;

namespace {

std::string to_chars_text(double v, DoubleForm form) {
    char buf[400];
    const auto r = form == DoubleForm::fixed
                       ? std::to_chars(buf, buf + sizeof buf, v, std::chars_format::fixed)
                       : std::to_chars(buf, buf + sizeof buf, v);
    return std::string(buf, r.ptr);
}

// The number of doubles, of the values given, whose printf-made text differs from to_chars's
// (the first few named in the test's output).
template <class Next>
int mismatches(int n, Next next) {
    int bad = 0;
    for (int i = 0; i < n; ++i) {
        const double v = next();
        if (!std::isfinite(v)) continue;
        for (const DoubleForm form : {DoubleForm::shortest, DoubleForm::fixed}) {
            const std::string want = to_chars_text(v, form),
                              got = detail::printf_double_text(v, form);
            if (want != got && ++bad <= 5) WARN(want << " != " << got);
            // and read back to v, by from_chars (native) and by strtod (the web build's way)
            const auto back = text_double(got), web = detail::strtod_text_double(got);
            if ((!back || *back != v || !web || *web != v) && ++bad <= 5)
                WARN(got << " does not read back");
        }
    }
    return bad;
}

}  // namespace

TEST_CASE("doubles as text: the printf-made text is std::to_chars's", "[chars]") {
    const double special[] = {0.0,
                              -0.0,
                              1.0,
                              -1.0,
                              0.1,
                              1e-4,
                              0.00011,
                              1e-7,
                              3e6,
                              1e21,
                              1e22,
                              123456789012345678.0,
                              0.30000000000000004,
                              std::numeric_limits<double>::max(),
                              -std::numeric_limits<double>::max(),
                              std::numeric_limits<double>::min(),
                              std::numeric_limits<double>::denorm_min(),
                              std::numeric_limits<double>::epsilon()};
    std::size_t at = 0;
    CHECK(mismatches(std::size(special), [&] { return special[at++]; }) == 0);
    std::mt19937_64 rng(42);
    // Any bit pattern: every exponent, subnormals included.
    CHECK(mismatches(300'000, [&] { return std::bit_cast<double>(rng()); }) == 0);
    // What the reports write: probabilities, means, whole numbers and simple fractions.
    std::uniform_real_distribution<double> unit(0, 1);
    CHECK(mismatches(300'000, [&] { return unit(rng); }) == 0);
    CHECK(mismatches(100'000, [&] {
              return std::ldexp(unit(rng), static_cast<int>(rng() % 80) - 40);
          }) == 0);
    CHECK(mismatches(100'000, [&] {
              return static_cast<double>(rng() % 100'000) / static_cast<double>(1 + rng() % 1000);
          }) == 0);
}

TEST_CASE("doubles as text: general with a precision is printf's %.Ng", "[chars]") {
    std::mt19937_64 rng(7);
    std::uniform_real_distribution<double> unit(-1, 1);
    int bad = 0;
    for (int i = 0; i < 100'000; ++i) {
        const double v = std::ldexp(unit(rng), static_cast<int>(rng() % 60) - 30);
        char want[64], got[64];
        const auto r = std::to_chars(want, want + sizeof want, v, std::chars_format::general, 4);
        *r.ptr = '\0';
        std::snprintf(got, sizeof got, "%.4g", v);
        if (std::string(want) != got && ++bad <= 5) WARN(want << " != " << got);
        if (double_text_general(v, 4) != want) ++bad;
    }
    CHECK(bad == 0);
}

TEST_CASE("doubles as text: what is not one number is refused, by either reader", "[chars]") {
    for (const char* bad : {"", " 1", "1 ", "+1", "1.5x", "0x10", "abc", "1e", "--1", "1..2"}) {
        INFO(bad);
        CHECK_FALSE(text_double(bad));
        CHECK_FALSE(detail::strtod_text_double(bad));
    }
    for (const char* good : {"0", "-0", "0.25", "1e-07", "123456789012345680", "-2.5e+300"}) {
        INFO(good);
        REQUIRE(text_double(good));
        REQUIRE(detail::strtod_text_double(good));
        CHECK(*text_double(good) == *detail::strtod_text_double(good));
    }
}
