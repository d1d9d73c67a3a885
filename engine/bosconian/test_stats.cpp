// Bosconian-D statistics against exact values this test computes itself: the damage of one
// encounter (B5, B7), of one base fight (B8), and whole missions with a fixed layout played through
// the registry and the parallel runner. Fixed seeds; every frequency within 4 standard errors.
#include <catch2/catch.hpp>

#include "engine/bosconian/bosconian.hpp"
#include "engine/dice.hpp"
#include "sim/registry.hpp"
#include "tests/exact.hpp"
#include "tests/helpers.hpp"

using namespace odds;
using namespace odds::test;
namespace bos = odds::bosconian;

namespace {

// A single threat: hit with probability p_hit for `dice` d6 of damage.
Dist threat(double p_hit, int dice) { return mix(1 - p_hit, point(0), p_hit, sum_d6(dice)); }

// B7: a formation of one type (hit probability p, `dice` d6 a hit): f(k) is the damage with the
// leader and k others left; only the leader's destruction ends it early.
Dist formation(double p, int dice) {
    const Dist single = threat(p, dice);
    Dist others_only = point(0);  // g(k): the leader gone, k others left
    Dist f = single;              // f(0): only the leader left, targeted without a roll
    for (int k = 1; k <= 4; ++k) {
        others_only = convolve(others_only, single);
        // 1/6 the leader is targeted: destroyed ends it; a hit leaves the k others to fight.
        const Dist leader_branch = mix(1 - p, point(0), p, convolve(sum_d6(dice), others_only));
        // 5/6 another missile: destroyed or spent either way.
        f = mix(1.0 / 6, leader_branch, 5.0 / 6, convolve(single, f));
    }
    return f;
}

// B5: one roll on the encounter table.
Dist one_encounter() {
    const Dist formation_attack = mix(0.5, formation(2.0 / 6, 2), 0.5, formation(2.0 / 6, 3));
    Dist d;
    for (const Dist& x : {threat(2.0 / 6, 2), threat(2.0 / 6, 4), threat(2.0 / 6, 3),
                          threat(3.0 / 6, 1), formation_attack, point(0)})
        d = mix(1, d, 1.0 / 6, x);
    return d;
}

// B8: the damage of a whole base fight against `cannons` cannons, truncated at `max_damage`.
// Per round: 1/2 a cannon falls; 1/4 an E-type missile (hits 2/3 for 4d6); 1/4 cannon fire
// max(0, S - S') with S, S' sums of c d6. D_c = 1/2 D_{c-1} + A_c * D_c, solved value by value.
Dist base_fight(int cannons, std::size_t max_damage) {
    Dist d = point(0);
    for (int c = 1; c <= cannons; ++c) {
        const Dist s = sum_d6(c);
        Dist fire(s.size(), 0.0);
        for (std::size_t a = 0; a < s.size(); ++a)
            for (std::size_t b = 0; b < s.size(); ++b) fire[a > b ? a - b : 0] += s[a] * s[b];
        const Dist round = mix(0.25, threat(2.0 / 3, 4), 0.25, fire);  // mass 1/2
        Dist next(max_damage + 1, 0.0);
        for (std::size_t v = 0; v <= max_damage; ++v) {
            double x = v < d.size() ? 0.5 * d[v] : 0.0;
            for (std::size_t j = 1; j <= v && j < round.size(); ++j) x += round[j] * next[v - j];
            next[v] = x / (1 - round[0]);
        }
        d = next;
    }
    return d;
}

Tally run(Settings settings, std::uint64_t playouts, std::uint64_t seed) {
    return test::monte_carlo("bosconian", settings, {}, playouts, seed);
}
using test::counts;

}  // namespace

TEST_CASE("the exact laws used below are probability distributions", "[bosconian][exact]") {
    CHECK(total(one_encounter()) == Approx(1).margin(1e-12));
    CHECK(total(formation(1.0 / 3, 2)) == Approx(1).margin(1e-12));
    CHECK(total(base_fight(6, 2000)) == Approx(1).margin(1e-9));
    // A one-cannon base: every round either ends the fight (1/2) or deals damage.
    CHECK(base_fight(1, 50)[0] > 0.5);
}

TEST_CASE("one encounter's damage matches the exact law", "[bosconian][statistics][B5][B7]") {
    Dice dice(101);
    std::vector<std::uint64_t> hist(200, 0);
    for (int i = 0; i < 1'000'000; ++i) {
        bos::State s;
        s.hull = 1'000'000;
        bos::encounter(s, dice);
        ++hist.at(static_cast<std::size_t>(s.damage));
    }
    require_matches(hist, one_encounter());
}

TEST_CASE("one base fight's damage matches the exact law", "[bosconian][statistics][B8]") {
    for (int cannons : {1, 6}) {
        INFO(cannons << " cannons");
        Dice dice(202 + static_cast<std::uint64_t>(cannons));
        std::vector<std::uint64_t> hist(2001, 0);
        for (int i = 0; i < 500'000; ++i) {
            bos::State s;
            s.hull = 1'000'000;
            REQUIRE(bos::base_combat(s, cannons, dice));
            ++hist[static_cast<std::size_t>(std::min(s.damage, 2000))];
        }
        require_matches(hist, base_fight(cannons, 2000));
    }
}

TEST_CASE("a one-base mission: the exact damage law capped at the hull",
          "[bosconian][statistics]") {
    const Dist fight = base_fight(6, 400);
    Dist capped(101, 0.0);
    for (std::size_t v = 0; v < fight.size(); ++v)
        capped[std::min<std::size_t>(v, 100)] += fight[v];
    const Tally t = run({{"layout", "2"}}, 400'000, 303);
    require_matches(counts(t, bos::kDamage), capped);
    require_matches(counts(t, bos::kWin), Dist{capped[100], 1 - capped[100]});
}

TEST_CASE("an encounter, then a base: the exact win probability", "[bosconian][statistics]") {
    // Sector 2: one encounter (no alert can matter: the base sector holds combat only);
    // sector 3: the base. Won when encounter damage + base damage stays under the hull.
    for (int hull : {60, 100}) {
        INFO("hull " << hull);
        const Dist enc = one_encounter();
        const Dist fight = base_fight(6, 400);
        double p_win = 0;
        for (std::size_t e = 0; e < enc.size() && e < static_cast<std::size_t>(hull); ++e)
            for (std::size_t b = 0; e + b < static_cast<std::size_t>(hull); ++b)
                p_win += enc[e] * fight[b];
        const Tally t = run({{"layout", "3"}, {"hull", std::to_string(hull)}}, 400'000,
                            404 + static_cast<std::uint64_t>(hull));
        require_matches(counts(t, bos::kWin), Dist{1 - p_win, p_win});
    }
}
