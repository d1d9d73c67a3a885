// Coin Duel (engine/coin_duel/RULES.md): each ruling with scripted dice.
#include <catch2/catch.hpp>

#include "engine/coin_duel/policies.hpp"
#include "engine/dice.hpp"

using namespace odds;
using namespace odds::coin_duel;

TEST_CASE("C2 safe wins on a 6 only; bold on a 5 or 6, and loses on a 1", "[coin-duel][C2]") {
    const Options o;
    Safe safe;
    Bold bold;
    ScriptedDice d{5, 6};
    const State s = play(o, safe, safe, d);
    CHECK(s.winner == 1);
    CHECK(s.turn == 2);
    ScriptedDice one{1};
    CHECK(play(o, bold, safe, one).winner == 1);
    ScriptedDice five{5};
    CHECK(play(o, bold, safe, five).winner == 0);
}

TEST_CASE("C1 C3 no winner after max_turns turns: a draw", "[coin-duel][C1][C3][C4]") {
    Options o;
    o.max_turns = 3;
    Safe safe;
    ScriptedDice d{2, 3, 4};
    const State s = play(o, safe, safe, d);
    CHECK(s.winner == -1);
    CHECK(s.turn == 3);
    CHECK(d.remaining() == 0);
    std::int32_t m[versus::kOutcomeCount];
    to_metrics(s, m);
    CHECK(m[versus::kDraw] == 1);
    CHECK(m[versus::kTimeouts] == 1);
}
