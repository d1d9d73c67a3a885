// The shape of a duel (shape.hpp): Ludii's measures on hand-built sequences where each is known
// exactly; the exact value table against Monte Carlo continuations from a few states (4 standard
// errors, fixed seeds) and against solve(); sampled duels are the kernel's own (the same outcome
// as play() with the same dice) and deterministic for a seed.
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <variant>
#include <vector>

#include "engine/dice.hpp"
#include "engine/dimension_duel/dimension_duel.hpp"
#include "engine/dimension_duel/exact.hpp"
#include "engine/dimension_duel/policies.hpp"
#include "engine/dimension_duel/shape.hpp"
#include "engine/rule_options.hpp"

using namespace odds;
using namespace odds::dimension_duel;
namespace ex = odds::exact::dimension_duel;

namespace {
using dimension_duel::shape::GameShape;
using dimension_duel::shape::measure;

Approx near(double x) { return Approx(x).margin(1e-12); }

GameShape of(std::vector<double> p, int winner) { return measure(p, winner); }

void check(const GameShape& g, int changes, double drama, double drama_max, double threshold,
           double decisiveness, int behind, bool comeback) {
    CHECK(g.lead_changes == changes);
    CHECK(g.lead_change == near(static_cast<double>(1 + changes) / g.turns));
    CHECK(g.drama == near(drama));
    CHECK(g.drama_max == near(drama_max));
    CHECK(g.threshold == near(threshold));
    CHECK(g.decisiveness == near(decisiveness));
    CHECK(g.behind_at_half == behind);
    CHECK(g.comeback == comeback);
}
}  // namespace

TEST_CASE("shape: Ludii's measures on hand-built sequences, each known exactly", "[duel][shape]") {
    SECTION("a winner never behind: no lead change, drama 0, decided at once") {
        // T = 3; Kaon's highest evaluation 0.4; Tau's 0.6 at s_0 is above it.
        const auto g = of({0.6, 0.7, 0.8, 1.0}, kTau);
        CHECK(g.turns == 3);
        check(g, 0, 0.0, 0.0, 0.4, 0.0, kKaon, false);
        CHECK(g.lead_change == near(1.0 / 3));  // Ludii counts the opening as a change
    }
    SECTION("one lead change and a comeback from behind at half-time") {
        // Leaders K K K T; drama 0.2 0.4 0.1 0; Kaon's best 0.7, passed by Tau at t = 3 of 4;
        // half-time floor(4/2) = 2: p = 0.45, Tau behind, and Tau won.
        check(of({0.4, 0.3, 0.45, 0.9, 1.0}, kTau), 1, 0.7 / 4, 0.4, 0.7, 0.75, kTau, true);
    }
    SECTION("two lead changes, Kaon wins, never above Tau's best: decisiveness 1") {
        // Leaders T K T T; Kaon's drama 0.2 0 0.4 0.4; Tau's best 0.7, Kaon's values 0.4 0.6 0.3
        // 0.3 never above it; half-time p = 0.7, Kaon behind, Kaon won.
        check(of({0.6, 0.4, 0.7, 0.7, 0.0}, kKaon), 2, 1.0 / 4, 0.4, 0.7, 1.0, kKaon, true);
    }
    SECTION("three lead changes, the side behind at half-time loses") {
        // Leaders T K T K; T = 4, half-time p = 0.8: Kaon behind, Tau wins.
        check(of({0.6, 0.4, 0.8, 0.3, 1.0}, kTau), 3, (0.2 + 0.4) / 4, 0.4, 0.7, 0.5, kKaon, false);
    }
    SECTION("an even duel: both lead at 1/2, nobody is behind, no lead change") {
        check(of({0.5, 0.5, 1.0}, kTau), 0, 0.0, 0.0, 0.5, 1.0, -1, false);
    }
    SECTION("leaving a tie at 1/2 is a lead change: both lead, then Tau alone") {
        // Leaders {Tau, Kaon} then {Tau}: Ludii compares the sets; Tau first above Kaon's best
        // (0.5) at t = 1 of 2; half-time p = 0.6, Kaon behind.
        check(of({0.5, 0.6, 1.0}, kTau), 1, 0.0, 0.0, 0.5, 0.5, kKaon, false);
    }
    SECTION("a draw: both are winners, drama the mean of both gaps, decisiveness 0") {
        // Drama at 0.7: ((0.7 - 0.7) + (0.7 - 0.3)) / 2; no non-winner: threshold -1.
        check(of({0.7, 0.5}, -1), 0, 0.2, 0.2, -1.0, 0.0, kKaon, false);
    }
    SECTION("the end state is not read: a one-turn duel") {
        // Only s_0 counts (Ludii evaluates the state before each move): Tau at 0.3 won.
        check(of({0.3, 1.0}, kTau), 0, 0.4, 0.4, 0.7, 1.0, kTau, true);
    }
}

namespace {
Policy make(const char* name) {
    const std::string n = name;
    if (n == "dice") return DicePolicy{};
    if (n == "aggressor") return Aggressor{};
    if (n == "survivor") return Survivor{};
    return Calibrator{};
}

// Tau's mean score (a draw half) over n duels played on from `s` by the kernel, and its standard
// error.
std::pair<double, double> continuations(const Options& o, const Policy& tau, const Policy& kaon,
                                        const State& from, int n, std::uint64_t seed) {
    double sum = 0, sq = 0;
    std::visit(
        [&](auto t, auto k) {
            Dice dice(seed);
            for (int i = 0; i < n; ++i) {
                State s = from;
                play_from(s, o, t, k, dice);
                const double x = s.out.winner == kTau ? 1.0 : (s.out.winner < 0 ? 0.5 : 0.0);
                sum += x;
                sq += x * x;
            }
        },
        tau, kaon);
    const double mean = sum / n;
    return {mean, std::sqrt(std::max(0.0, sq / n - mean * mean) / n)};
}
}  // namespace

TEST_CASE("shape: the value table's p equals the mean of Monte Carlo continuations, 4 SE",
          "[duel][shape][statistics]") {
    Options o;
    o.hp = 14;
    struct From {
        int tau_hp, kaon_hp, turn;  // turn even: Tau attacks next (D1)
    };
    for (const auto& [a, b] : {std::pair{"dice", "dice"}, std::pair{"survivor", "aggressor"}}) {
        const Policy tau = make(a), kaon = make(b);
        const auto table = ex::values(o, tau, kaon);
        std::uint64_t seed = 41;
        for (const From f :
             {From{14, 14, 0}, From{5, 12, 1}, From{12, 4, 2}, From{3, 3, 5}, From{9, 2, 7}}) {
            State s = opening(o);
            s.hp[kTau] = f.tau_hp;
            s.hp[kKaon] = f.kaon_hp;
            s.turn = f.turn;
            const double p = table.tau_score(s);
            const auto [mean, se] = continuations(o, tau, kaon, s, 40'000, ++seed);
            INFO(a << " vs " << b << " from " << f.tau_hp << "/" << f.kaon_hp << " turn " << f.turn
                   << ": exact " << p << ", Monte Carlo " << mean << " +- " << se);
            CHECK(std::abs(mean - p) <= 4 * se + 1e-9);
            CHECK(se > 1e-4);  // the states are uncertain: the check has teeth
        }
    }
}

TEST_CASE("shape: the value table at the opening is solve()'s answer", "[duel][shape][exact]") {
    for (const int hp : {10, 75}) {
        Options o;
        o.hp = hp;
        for (const auto& [a, b] : {std::pair{"dice", "dice"}, std::pair{"survivor", "aggressor"},
                                   std::pair{"calibrator", "survivor"}}) {
            const Policy tau = make(a), kaon = make(b);
            const auto table = ex::values(o, tau, kaon);
            const auto r = ex::solve(o, tau, kaon);
            const auto i = table.index(hp, hp, kTau);
            INFO(hp << ": " << a << " vs " << b);
            CHECK(table.tau_win[i] == r.tau_win);  // the same backward pass
            CHECK(std::abs(table.draw[i] - r.draw) < 1e-12);
            CHECK(table.tau_score(opening(o)) == near(r.tau_win + r.draw / 2));
        }
    }
}

TEST_CASE("shape: the value table refuses what it cannot plan for, naming the value",
          "[duel][shape]") {
    Options o;
    o.max_turns = 50;
    REQUIRE_THROWS_WITH(ex::values(o, DicePolicy{}, DicePolicy{}), Catch::Contains("max_turns=50"));
    Options big;
    big.hp = 151;
    REQUIRE_THROWS_WITH(ex::values(big, DicePolicy{}, DicePolicy{}), Catch::Contains("hp=151"));
}

TEST_CASE("shape: sampled duels are the kernel's, with p at every turn from the table",
          "[duel][shape]") {
    Options o;
    o.hp = 30;
    const Policy tau = make("survivor"), kaon = make("aggressor");
    const auto table = ex::values(o, tau, kaon);
    for (std::uint64_t i = 0; i < 200; ++i) {
        const auto tr = dimension_duel::shape::trace(o, tau, kaon, table, 7, i);
        // The same duel as play() rolls with duel i's dice.
        Survivor t;
        Aggressor k;
        Dice dice(stream_seed(7, i));
        const Outcome out = play(o, t, k, dice);
        REQUIRE(tr.winner == out.winner);
        REQUIRE(tr.turns == out.turns);
        REQUIRE(tr.p.size() == static_cast<std::size_t>(out.turns) + 1);
        CHECK(tr.p.front() == table.tau_score(opening(o)));
        CHECK(tr.p.back() == (out.winner == kTau ? 1.0 : (out.winner < 0 ? 0.5 : 0.0)));
        for (const double p : tr.p) REQUIRE((p >= 0 && p <= 1));
    }
}

TEST_CASE("shape: the measures of sampled duels are deterministic for a seed", "[duel][shape]") {
    Options o;
    o.hp = 40;
    const Policy tau = make("dice"), kaon = make("dice");
    const auto table = ex::values(o, tau, kaon);
    const auto a = dimension_duel::shape::sample(o, tau, kaon, table, 11, 500);
    const auto b = dimension_duel::shape::sample(o, tau, kaon, table, 11, 500);
    const auto c = dimension_duel::shape::sample(o, tau, kaon, table, 12, 500);
    CHECK(std::memcmp(&a, &b, sizeof a) == 0);
    CHECK(a.drama != c.drama);
    CHECK(a.games == 500);
    // The means are means of the duels' measures (shape::measure on each trace).
    double drama = 0;
    std::uint64_t behind = 0, comebacks = 0;
    for (std::uint64_t i = 0; i < 500; ++i) {
        const auto tr = dimension_duel::shape::trace(o, tau, kaon, table, 11, i);
        const auto g = measure(tr.p, tr.winner);
        drama += g.drama;
        behind += g.behind_at_half >= 0;
        comebacks += g.comeback;
    }
    CHECK(a.drama == near(drama / 500));
    CHECK(a.behind_at_half == behind);
    CHECK(a.comebacks == comebacks);
    Options other = o;
    other.hp = 41;
    REQUIRE_THROWS_WITH(dimension_duel::shape::sample(other, tau, kaon, table, 11, 1),
                        Catch::Contains("hp=40"));
}
