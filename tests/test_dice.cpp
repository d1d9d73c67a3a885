// The dice: the generator's known answers, fairness of the d6 (chi-square at a fixed seed),
// independence of successive rolls, streams by (seed, chunk), and the scripted dice.
#include <boost/math/distributions/chi_squared.hpp>
#include <catch2/catch.hpp>

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
    CHECK_THROWS_AS(ScriptedDice({7}), std::logic_error);
}
