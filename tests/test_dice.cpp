// The dice: the generator's known answers, fairness of the d6 (chi-square at a fixed seed),
// independence of successive rolls, streams by (seed, chunk), and the scripted dice.
#include <boost/math/distributions/chi_squared.hpp>
#include <catch2/catch.hpp>

#include <vector>

#include "engine/dice.hpp"

using namespace odds;

namespace {
// The chi-square statistic's critical value for `df` degrees of freedom at false-alarm rate 1e-4
// (about 4 sigma).
double critical(int df) { return boost::math::quantile(boost::math::chi_squared(df), 1 - 1e-4); }
}  // namespace

TEST_CASE("xoshiro256++ gives the reference outputs", "[dice]") {
    // From the reference algorithm (Blackman and Vigna) started in state {1, 2, 3, 4}.
    auto g = Xoshiro256pp::from_state({1, 2, 3, 4});
    CHECK(g() == 41943041ull);
    CHECK(g() == 58720359ull);
    CHECK(g() == 3588806011781223ull);
}

TEST_CASE("d6 is fair: chi-square over the six faces", "[dice][statistics]") {
    Dice dice(20261122);
    constexpr int kRolls = 6'000'000;
    double count[7] = {};
    for (int i = 0; i < kRolls; ++i) {
        const int f = dice.d6();
        REQUIRE((f >= 1 && f <= 6));
        ++count[f];
    }
    double chi2 = 0;
    const double expected = kRolls / 6.0;
    for (int f = 1; f <= 6; ++f) chi2 += (count[f] - expected) * (count[f] - expected) / expected;
    INFO("chi2 = " << chi2);
    CHECK(chi2 < critical(5));
}

TEST_CASE("d6 successive rolls are independent: chi-square over the 36 pairs",
          "[dice][statistics]") {
    Dice dice(7);
    constexpr int kPairs = 3'600'000;
    double count[6][6] = {};
    for (int i = 0; i < kPairs; ++i) {
        const int a = dice.d6();
        ++count[a - 1][dice.d6() - 1];
    }
    double chi2 = 0;
    const double expected = kPairs / 36.0;
    for (auto& row : count)
        for (double c : row) chi2 += (c - expected) * (c - expected) / expected;
    INFO("chi2 = " << chi2);
    CHECK(chi2 < critical(35));
}

TEST_CASE("streams depend only on (seed, chunk)", "[dice]") {
    auto first = [](std::uint64_t seed, std::uint64_t chunk) {
        Dice d(stream_seed(seed, chunk));
        std::vector<int> v;
        for (int i = 0; i < 32; ++i) v.push_back(d.d6());
        return v;
    };
    CHECK(first(1, 0) == first(1, 0));
    CHECK(first(1, 0) != first(1, 1));
    CHECK(first(1, 0) != first(2, 0));
    CHECK(stream_seed(1, 2) != stream_seed(2, 1));
}

TEST_CASE("scripted dice replay their faces and fail when they run out", "[dice]") {
    ScriptedDice d{3, 1, 6};
    CHECK(d.d6() == 3);
    CHECK(d.sum_d6(2) == 7);
    CHECK(d.remaining() == 0);
    CHECK_THROWS_AS(d.d6(), std::logic_error);
    CHECK_THROWS_AS(ScriptedDice({0}), std::logic_error);
    CHECK_THROWS_AS(ScriptedDice({101}), std::logic_error);  // no die has 101 faces
    ScriptedDice eight{7};
    CHECK_THROWS_AS(ScriptedDice({7}).d6(), std::logic_error);  // a 7 is no face of a d6
    CHECK(eight.roll(8) == 7);                                  // but one of a d8
}

TEST_CASE("peek and skip read the faces d6 rolls, in the same order", "[dice]") {
    // Two dice from one seed: one rolled die by die, the other read through every access mix
    // (peek of 1..kMaxPeek faces, skips of part of them, d6, sum_d6), across many refills.
    Dice plain(42), ahead(42);
    Xoshiro256pp choose(7);
    std::uint64_t compared = 0;
    for (int step = 0; step < 20000; ++step) {
        switch (choose() % 3) {
            case 0: {
                const int n = 1 + static_cast<int>(choose() % kMaxPeek);
                const int k = static_cast<int>(choose() % static_cast<std::uint64_t>(n + 1));
                const std::uint8_t* f = ahead.peek(n);
                std::vector<int> seen(f, f + n);
                ahead.skip(k);
                for (int i = 0; i < k; ++i) REQUIRE(seen[i] == plain.d6());
                // The faces looked at and not rolled are the next ones.
                for (int i = k; i < n; ++i) REQUIRE(ahead.peek(n - k)[i - k] == seen[i]);
                compared += static_cast<std::uint64_t>(n);
                break;
            }
            case 1:
                REQUIRE(ahead.d6() == plain.d6());
                break;
            default: {
                const int n = static_cast<int>(choose() % 30);
                int sum = 0;
                for (int i = 0; i < n; ++i) sum += plain.d6();
                REQUIRE(ahead.sum_d6(n) == sum);
            }
        }
    }
    CHECK(compared > 100000);  // many refills of 384 faces or fewer
}

TEST_CASE("scripted dice look ahead without rolling, and fail when a skip runs out", "[dice]") {
    ScriptedDice d{3, 5, 2};
    const std::uint8_t* f = d.peek(5);
    CHECK(f[0] == 3);
    CHECK(f[1] == 5);
    CHECK(f[2] == 2);
    CHECK(d.used() == 0);
    d.skip(2);
    CHECK(d.used() == 2);
    CHECK(d.d6() == 2);
    d.peek(4);  // looking past the end is allowed
    CHECK_THROWS_AS(d.skip(1), std::logic_error);
}
