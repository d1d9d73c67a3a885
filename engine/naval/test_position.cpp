// Naval Duel positions (RULES.md "Positions"): the opening written and read back plays exactly
// as a fresh game, a position in mid-game survives the round trip, and every illegal position
// is refused with one line "FILE:LINE: WHAT (RULE)".
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "engine/dice.hpp"
#include "engine/naval/naval.hpp"
#include "engine/naval/policies.hpp"
#include "engine/rule_options.hpp"
#include "sim/registry.hpp"

using namespace odds;
using namespace odds::naval;

namespace {

std::vector<std::int32_t> metrics_of(const State& s) {
    std::vector<std::int32_t> m(kMetricCount);
    to_metrics(s, m.data());
    return m;
}

// The message a position fails with ("" if it is read).
std::string refusal(const std::string& text, const Options& o = Options{}) {
    try {
        (void)read_position(text, "pos.txt", o);
    } catch (const UsageError& e) {
        return e.what();
    }
    return "";
}

}  // namespace

TEST_CASE("naval the opening position, written and read, plays exactly as a fresh game",
          "[naval][position]") {
    Options with_islands;
    with_islands.islands = 30;
    with_islands.ships = 5;
    for (const Options& o : {Options{}, with_islands}) {
        const std::string text = write_position(opening(o), o);
        const Start read = read_position(text, "opening.txt", o);
        CHECK(write_position(read, o) == text);
        Random ra, rb;
        Gunner ga;
        Boarder bb;
        for (std::uint64_t g = 0; g < 40; ++g) {
            Dice fresh(stream_seed(5, g)), from(stream_seed(5, g));
            if (g % 2) {
                CHECK(metrics_of(play(o, ra, rb, fresh)) == metrics_of(play(read, ra, rb, from)));
            } else {
                CHECK(metrics_of(play(o, ga, bb, fresh)) == metrics_of(play(read, ga, bb, from)));
            }
            CHECK(fresh.word() == from.word());  // the same dice used, no more, no less
        }
    }
}

TEST_CASE("naval a position in mid-game survives the round trip, hands and discards included",
          "[naval][position]") {
    Options o;
    o.islands = 12;
    Dice dice(17);
    Random a, b;
    int checked = 0;
    for (int g = 0; g < 20; ++g) {
        State s = setup(o, a, b, dice);
        for (int t = 0; t < 6 && s.winner == -2; ++t) play_turn(s, a, b, dice);
        if (s.winner != -2) continue;
        // Sunk ships leave the position; the rest keep their order.
        const std::string text = write_position(Start{s, 0}, o);
        const Start read = read_position(text, "mid.txt", o);
        CHECK(write_position(read, o) == text);
        CHECK(read.state.turn == s.turn);
        CHECK(read.state.hand_n == s.hand_n);
        CHECK(read.state.discards_n == s.discards_n);
        CHECK(read.state.land == s.land);
        // Playing on from it: the deck is the 28 cards less the hands and the discards.
        Dice more(3);
        const State after = begin(read, a, b, more);
        CHECK(after.deck_n + after.discards_n + after.hand_n[0] + after.hand_n[1] == kDeckSize);
        State end = after;
        play_turns(end, a, b, more);
        CHECK(end.winner != -2);
        ++checked;
    }
    CHECK(checked > 5);
}

TEST_CASE("naval illegal positions are refused: FILE:LINE: WHAT (RULE)", "[naval][position]") {
    const std::string head = "turn 3\n";
    const std::string a = "ship a 5 5 S 2 2 3\n", b = "ship b 6 9 N 2 2 3\n";
    const struct {
        std::string text, message;
    } cases[] = {
        {head + a + "ship b 5 5 N 1 1 1\n",
         "pos.txt:3: two ships in one hex: line 2 holds this one (N1)"},
        {head + "land 6 9\n" + a + b, "pos.txt:4: a ship on land (N1)"},
        {head + a + "ship b 16 9 N 1 1 1\n",
         "pos.txt:3: column '16' is not a whole number in 0..15"},
        {head + a + "ship b 6 24 N 1 1 1\n", "pos.txt:3: row '24' is not a whole number in 0..23"},
        {head + a + "ship b 6 9 E 1 1 1\n",
         "pos.txt:3: heading 'E' is not one of N, NE, SE, S, SW, NW (N5)"},
        {head + a + "ship b 6 9 N 1 -2 1\n",
         "pos.txt:3: Cannon '-2' is not a whole number in -1..99 (N6"},
        {head + a + "ship c 6 9 N 1 1 1\n", "pos.txt:3: side 'c' is not a or b"},
        {head + a, "pos.txt:1: side b has no ship: the game is over (N8)"},
        {"turn 60\n" + a + b, "pos.txt:1: turn '60' is not a whole number in 0..59 (N8"},
        {a + b, "pos.txt: no 'turn N' line"},
        {head + a + b + "hand a gust-of-wind gust-of-wind gust-of-wind\n",
         "pos.txt:4: a third gust-of-wind: the deck holds two of each card (N4)"},
        {head + a + b +
             "hand a maneuver calm-waters rake-the-bow quick-reload sweep-the-decks "
             "catch-the-wind\n",
         "pos.txt:4: more than 5 cards (N4: the hand limit)"},
        {head + a + b + "hand a grog\n", "pos.txt:4: card 'grog' is not one of gust-of-wind"},
        {head + a + b + "hand a\nhand a\n", "pos.txt:5: a second hand for side a"},
        {head + a + b + "wind NE\n", "pos.txt:4: 'wind' is not a record"},
        {head + "islands 3\n" + a + b, "pos.txt:2: islands fall before turn 1 only (N1a)"},
        {"turn 0\n" + a + b,
         "pos.txt:1: turn 0: side a has 1 ships; the fleet roll is for ships=7 a side (N2)"},
        {head + "ship a 5 5 S 50 2 3\n" + b,
         "pos.txt:1: the fleets' Movement totals differ by 48: at most 38, as much as the fleet "
         "roll can make them (N2)"},
    };
    for (const auto& c : cases) {
        INFO(c.text);
        const std::string got = refusal(c.text);
        CHECK(got.rfind(c.message, 0) == 0);
        CHECK(got.find('\n') == std::string::npos);
    }
    CHECK(refusal(head + a + b + "hand a gust-of-wind\nhand b\ndiscards rake-the-bow\n") == "");
    Options one;
    one.ships = 1;
    CHECK(refusal("turn 0\n" + a + b, one) == "");
    CHECK(refusal("turn 0\n" + a + "ship b 6 9 N 2 3 3\n", one)
              .rfind("pos.txt:1: the fleets' Cannon totals differ by 1: before the fleet roll they "
                     "must be equal (N2)",
                     0) == 0);
    CHECK(refusal("turn 0\n" + b + a, one)
              .rfind("pos.txt:2: turn 0: side a's ships are listed first", 0) == 0);
    CHECK(refusal("turn 0\n" + a + "ship b 6 9 N 2 2 3 flagship\n", one)
              .rfind("pos.txt:3: turn 0: the flagship is named after the fleet roll (N2)", 0) == 0);
}

TEST_CASE(
    "naval the registry's position hooks: the opening's text plays as a fresh run, game for game",
    "[naval][position]") {
    const GameEntry& game = find_game("naval");
    REQUIRE(game.opening_position != nullptr);
    REQUIRE(game.prepare_from != nullptr);
    const Settings settings{{"islands", "10"}, {"ships", "4"}};
    const std::vector<std::string> policies{"a=boarder", "b=random"};
    const std::string text = game.opening_position(settings);
    CHECK(text.find("islands 10\n") != std::string::npos);
    const auto fresh = game.prepare(settings, policies);
    const auto from = game.prepare_from(settings, policies, text, "opening.txt");
    CHECK(from->metrics.size() == fresh->metrics.size());
    CHECK(from->chunk_size == fresh->chunk_size);
    const std::uint64_t n = 200;
    std::vector<std::int32_t> a(n * fresh->metrics.size()), b(a.size());
    fresh->play_each(9, 0, n, a.data());
    from->play_each(9, 0, n, b.data());
    CHECK(a == b);
    // A position of its own plays from where it stands: here side b has one ship left, and a
    // malformed one is refused naming the file and line.
    const auto end = game.prepare_from(
        settings, policies, "turn 5\nship a 4 4 S 2 2 3\nship a 6 4 S 2 2 3\nship b 5 9 N 1 1 2\n",
        "late.txt");
    end->play_each(9, 0, n, b.data());
    CHECK_THROWS_WITH(game.prepare_from(settings, policies, "turn 5\nship a 4 4 S\n", "bad.txt"),
                      Catch::StartsWith("bad.txt:2: expected 8 words"));
}
