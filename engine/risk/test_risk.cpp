// Risk: one battle (engine/risk/risk.lua), a game that exists only as a script: its odds held to
// a Markov chain written here from the battle's rules, not from the script.
#include <catch2/catch.hpp>

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <vector>

#include "tests/helpers.hpp"

using namespace odds;

namespace {

constexpr const char* kScript = ODDS_SOURCE_DIR "/engine/risk/risk.lua";

// One round of n attacking dice against m defending ones: P(the attacker loses k armies), k =
// 0..min(n, m), from all 6^(n+m) throws (the highest against the highest, ties to the defender).
std::vector<double> round_law(int n, int m) {
    const int pairs = std::min(n, m);
    std::vector<double> law(static_cast<std::size_t>(pairs) + 1, 0.0);
    int total = 1;
    for (int i = 0; i < n + m; ++i) total *= 6;
    for (int code = 0; code < total; ++code) {
        std::vector<int> a, d;
        for (int i = 0, c = code; i < n + m; ++i, c /= 6) (i < n ? a : d).push_back(c % 6 + 1);
        std::sort(a.rbegin(), a.rend());
        std::sort(d.rbegin(), d.rend());
        int lost = 0;
        for (int i = 0; i < pairs; ++i)
            lost += a[static_cast<std::size_t>(i)] <= d[static_cast<std::size_t>(i)];
        law[static_cast<std::size_t>(lost)] += 1.0 / total;
    }
    return law;
}

// Under `press` (attack while an army may leave): P(conquest) and E[armies left to the attacker]
// from `a` attacking and `d` defending armies, by the chain's recursion on (a, d).
struct Chain {
    int attack_dice = 3, defend_dice = 2;
    std::map<std::pair<int, int>, std::array<double, 2>> memo;
    std::array<double, 2> at(int a, int d) {
        if (d == 0) return {1.0, static_cast<double>(a)};
        if (a == 1) return {0.0, 1.0};
        if (const auto it = memo.find({a, d}); it != memo.end()) return it->second;
        const int n = std::min(attack_dice, a - 1), m = std::min(defend_dice, d);
        const auto law = round_law(n, m);
        std::array<double, 2> v{0, 0};
        for (std::size_t k = 0; k < law.size(); ++k) {
            const int pairs = static_cast<int>(law.size()) - 1;
            const auto next = at(a - static_cast<int>(k), d - (pairs - static_cast<int>(k)));
            v[0] += law[k] * next[0];
            v[1] += law[k] * next[1];
        }
        return memo[{a, d}] = v;
    }
};

double mean_of(const Tally& t, int metric, std::int32_t lo) {
    const auto c = test::counts(t, metric);
    double sum = 0, n = 0;
    for (std::size_t i = 0; i < c.size(); ++i) {
        sum += static_cast<double>(c[i]) * (lo + static_cast<double>(i));
        n += static_cast<double>(c[i]);
    }
    return sum / n;
}

}  // namespace

TEST_CASE("risk: one round's law, counted by hand", "[risk]") {
    // One die against one: the defender wins ties, 21 of 36 throws.
    const auto one = round_law(1, 1);
    CHECK(one[1] == Approx(21.0 / 36));
    // Three against two: the classic 2890/7776, 2611/7776, 2275/7776 (the defender loses two,
    // each loses one, the attacker loses two).
    const auto three = round_law(3, 2);
    CHECK(three[0] == Approx(2890.0 / 7776));
    CHECK(three[1] == Approx(2611.0 / 7776));
    CHECK(three[2] == Approx(2275.0 / 7776));
}

TEST_CASE("risk: the script's battles agree with the Markov chain within 4 SE", "[risk][script]") {
    const std::uint64_t n = 60'000;
    for (const auto& [a, d] : {std::pair{5, 3}, {10, 10}, {4, 6}}) {
        INFO(a << " attackers against " << d);
        const Tally t = test::monte_carlo(
            kScript, {{"attackers", std::to_string(a)}, {"defenders", std::to_string(d)}},
            {"press"}, n, 7);
        Chain chain;
        const auto exact = chain.at(a, d);
        const double p = mean_of(t, 0, 0);
        CHECK(std::abs(p - exact[0]) < 4 * std::sqrt(exact[0] * (1 - exact[0]) / n));
        // attackers_left: its spread is at most (a - 1) / 2, a bound on the standard deviation.
        CHECK(std::abs(mean_of(t, 1, 1) - exact[1]) < 4 * (a - 1) / 2.0 / std::sqrt(n));
    }
}

TEST_CASE("risk: odds exact on the script is the Markov chain's answer", "[risk][script][exact]") {
    const GameEntry& game = find_game(kScript);
    REQUIRE(game.exact);
    for (const auto& [a, d] : {std::pair{5, 3}, {10, 10}, {4, 6}, {12, 7}}) {
        INFO(a << " attackers against " << d);
        const ExactReport r = game.exact(
            {{"attackers", std::to_string(a)}, {"defenders", std::to_string(d)}}, {"press"});
        Chain chain;
        const auto exact = chain.at(a, d);
        REQUIRE(r.laws.size() == 4);
        const Distribution& conquered = r.laws[0];
        const Distribution& left = r.laws[1];
        CHECK(conquered.unresolved == 0);
        CHECK(conquered.total() == Approx(1).epsilon(1e-12));
        CHECK(conquered.mass[1] == Approx(exact[0]).epsilon(1e-12));
        double mean = 0;
        for (std::size_t i = 0; i < left.mass.size(); ++i)
            mean += left.mass[i] * (left.spec.lo + static_cast<double>(i));
        CHECK(mean == Approx(exact[1]).epsilon(1e-12));
    }
}

TEST_CASE("risk: the cautious attacker stops when outnumbered", "[risk][script]") {
    // 3 armies (2 may leave) against 2: cautious never attacks; press does.
    const Tally t =
        test::monte_carlo(kScript, {{"attackers", "3"}, {"defenders", "2"}}, {"cautious"}, 512, 1);
    CHECK(test::counts(t, 3)[0] == 512);  // rounds: none
    const Tally p =
        test::monte_carlo(kScript, {{"attackers", "3"}, {"defenders", "2"}}, {"press"}, 512, 1);
    CHECK(test::counts(p, 3)[0] == 0);
}
