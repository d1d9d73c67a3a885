// Race (engine/race/RULES.md): each ruling with scripted dice; the exact solver against Monte
// Carlo (4 standard errors, fixed seeds) and against the backward induction of `best`.
#include <catch2/catch.hpp>

#include <cmath>

#include "engine/dice.hpp"
#include "engine/race/exact.hpp"
#include "engine/race/policies.hpp"
#include "tests/helpers.hpp"

using namespace odds;
using namespace odds::race;

namespace {
struct Scripted {  // plays the given moves in order
    std::vector<Move> moves;
    std::size_t next = 0;
    template <class D>
    Move choose(const State&, const Options&, D&) {
        return moves.at(next++);
    }
};
}  // namespace

TEST_CASE("R2 a walk advances two squares; a roll its face, a 1 three squares back, never below 0",
          "[race][R2]") {
    const Options o;
    ScriptedDice d{5, 1, 1};
    Scripted p{{Move::walk, Move::roll, Move::roll, Move::roll}};
    State s;
    apply(s, o, p.choose(s, o, d), d);
    CHECK(s.square == 2);
    apply(s, o, p.choose(s, o, d), d);
    CHECK(s.square == 7);
    apply(s, o, p.choose(s, o, d), d);
    CHECK(s.square == 4);
    apply(s, o, p.choose(s, o, d), d);
    CHECK(s.square == 1);
    CHECK(s.rolls == 3);
    CHECK(d.remaining() == 0);
    State low;
    low.square = 2;
    ScriptedDice one{1};
    apply(low, o, Move::roll, one);
    CHECK(low.square == 0);
}

TEST_CASE("R3 the goal reached or passed wins at once; short of it after max_turns, lost",
          "[race][R3][R1]") {
    Options o;
    o.goal = 6;
    o.max_turns = 3;
    ScriptedDice d{6};
    Scripted p{{Move::walk, Move::roll}};
    const State won = play(o, p, d);
    CHECK(won.won);
    CHECK(won.turn == 2);
    CHECK(won.square == 6);  // passed by 2: reported as the goal (R4)
    ScriptedDice none{};
    Scripted walk{{Move::walk, Move::walk, Move::walk}};
    o.goal = 7;
    const State lost = play(o, walk, none);
    CHECK_FALSE(lost.won);
    CHECK(lost.turn == 3);
    CHECK(lost.square == 6);
}

TEST_CASE("R4 the exact laws of every policy against Monte Carlo, within 4 standard errors",
          "[race][R4][exact]") {
    const Options o;
    for (std::size_t i = 0; i < std::variant_size_v<Basic>; ++i) {  // mcts: test_mcts.cpp
        const std::string name(kPolicies[i].name);
        const auto exact = exact::race::solve(o, make_policy(i, o));
        const Tally t = test::monte_carlo("race", {}, {name}, 200'000, 17 + i);
        for (int m = 0; m < kMetricCount; ++m) {
            const auto c = test::counts(t, m);
            double sum = 0;
            for (double p : exact[m]) sum += p;
            CHECK(sum == Approx(1).margin(1e-12));
            for (std::size_t v = 0; v < c.size(); ++v) {
                const double p = exact[m][v];
                const double n = 200'000, se = std::sqrt(p * (1 - p) / n) + 1e-9;
                INFO(name << " metric " << m << " value " << v);
                CHECK(std::abs(static_cast<double>(c[v]) / n - p) <= 4 * se + 1e-12);
            }
        }
    }
}

TEST_CASE("best wins at least as often as every other policy, by its own backward induction",
          "[race][exact]") {
    for (const auto& [goal, turns] : {std::pair{20, 8}, std::pair{10, 4}, std::pair{30, 9}}) {
        Options o;
        o.goal = goal;
        o.max_turns = turns;
        const Plan plan = best_plan(o);
        const auto best = exact::race::solve(o, make_policy(0, o));
        CHECK(best[kWin][1] == Approx(plan.value[0][0]).margin(1e-12));
        for (std::size_t i = 1; i < std::variant_size_v<Basic>; ++i)
            CHECK(best[kWin][1] >= exact::race::solve(o, make_policy(i, o))[kWin][1] - 1e-12);
    }
    // Two squares from the goal with a turn left: walking wins surely, rolling 5/6.
    Options o;
    o.goal = 10;
    o.max_turns = 4;
    const Plan plan = best_plan(o);
    CHECK_FALSE(plan.roll[8][3]);
    CHECK(plan.value[8][3] == 1);
    CHECK(plan.roll[4][3]);  // six short with a turn left: only a roll of 6 can do it
}

TEST_CASE("R5 restrict: a barred move is never played; the other as the book plays it",
          "[race][R5]") {
    CHECK(parse_options({}).barred == 0);
    CHECK(parse_options({{"restrict", "roll"}}).barred == 2);
    CHECK(scenario(parse_options({{"restrict", "walk"}})).find("restrict=walk") !=
          std::string::npos);
    CHECK_THROWS_WITH(parse_options({{"restrict", "walk,roll"}}), Catch::Contains("never both"));
    CHECK_THROWS_WITH(parse_options({{"restrict", "run"}}), Catch::Contains("restrict"));
    const Options no_roll = parse_options({{"restrict", "roll"}});
    const Options no_walk = parse_options({{"restrict", "walk"}});
    {  // roll barred: Roll walks, no die rolled
        State s;
        Roll r;
        ScriptedDice none{};
        apply(s, no_roll, r.choose(s, no_roll, none), none);
        CHECK(s.square == 2);
        CHECK(s.rolls == 0);
    }
    {  // walk barred: Walk rolls, one die: a 5 takes it to square 5
        State s;
        Walk w;
        ScriptedDice d{5};
        apply(s, no_walk, w.choose(s, no_walk, d), d);
        CHECK(d.remaining() == 0);
        CHECK(s.square == 5);
        CHECK(s.rolls == 1);
    }
    {  // nothing barred: as the book
        State s;
        ScriptedDice d{5};
        apply(s, Options{}, Move::roll, d);
        CHECK(s.square == 5);
    }
    std::array<Move, 2> out{};
    CHECK(Game::legal(State{}, no_roll, out.data()) == 1);
    CHECK(out[0] == Move::walk);
    CHECK(Game::legal(State{}, no_walk, out.data()) == 1);
    CHECK(out[0] == Move::roll);
    // best solves over the move left: never rolls when rolling is barred
    const Plan p = best_plan(no_roll);
    for (int sq = 0; sq <= no_roll.goal; ++sq)
        for (int t = 0; t <= no_roll.max_turns; ++t) CHECK_FALSE(p.roll[sq][t]);
}
