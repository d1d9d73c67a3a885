// Dimension Duel's resumable form and positions: each of a turn's six decision points (D2a)
// with scripted choices and dice (two choices, two positions), the position text read back
// exactly and every mistake refused in one line, play resumed from a written position exactly
// as the duel it was written from, and the exact solver from a position against Monte Carlo.
#include <catch2/catch.hpp>
#include <cmath>
#include <functional>

#include "engine/dice.hpp"
#include "engine/dimension_duel/dimension_duel.hpp"
#include "engine/dimension_duel/policies.hpp"
#include "sim/registry.hpp"
#include "tests/exact.hpp"
#include "tests/helpers.hpp"

using namespace odds;
using namespace odds::dimension_duel;

namespace {

static_assert(ResumableGame<Game, ScriptedDice>);
static_assert(ResumableGame<Game, odds::Dice>);

// Plays one turn from `s` with `choices` (one per step) on `faces`; every face must be used.
State turn_with(State s, const Options& o, const std::array<Game::Choice, 6>& choices,
                std::vector<int> faces) {
    ScriptedDice dice(std::move(faces));
    for (const auto c : choices) Game::apply(s, o, c, dice);
    CHECK(dice.remaining() == 0);
    CHECK(s.step == 0);
    return s;
}

using test::usage_error;

}  // namespace

TEST_CASE("D2a each of the six decisions: two choices lead to two positions", "[duel][D2a]") {
    const Options o;
    const State s = opening(o);
    // Tau attacks turn 1: even steps are Tau's, odd ones Kaon's.
    for (std::uint8_t step = 0; step < 6; ++step) {
        State at = s;
        at.step = step;
        CHECK(Game::to_move(at, o) == (step % 2 == 0 ? kTau : kKaon));
    }
    State kaon_turn = s;
    kaon_turn.turn = 1;
    CHECK(Game::to_move(kaon_turn, o) == kKaon);

    // Everything blocked and Bluff for both: no dice. Changing one step's choice alone:
    //   steps 0-3: the ray or shield mismatched, or the regions apart: one die for Tau;
    //   step 4: Tau's Delayed Attack, one die for Tau; step 5: Kaon's, one die for Kaon.
    const std::array<Game::Choice, 6> quiet = {0, 0, 0, 0, kBluff, kBluff};
    const State none = turn_with(s, o, quiet, {});
    CHECK(none.hp[kTau] == 75);
    CHECK(none.hp[kKaon] == 75);
    CHECK(none.turn == 1);
    for (int step = 0; step < 6; ++step) {
        INFO("step " << step);
        auto changed = quiet;
        changed[static_cast<std::size_t>(step)] =
            step < 4 ? Game::Choice{1} : static_cast<Game::Choice>(kDelayed);
        const State other = turn_with(s, o, changed, {4});
        CHECK(other.hp[kKaon] == (step == 5 ? 75 : 71));
        CHECK(other.hp[kTau] == (step == 5 ? 71 : 75));
    }
    // The two positions after step 0 differ before any die is rolled.
    State a = s, b = s;
    ScriptedDice no_dice{};
    Game::apply(a, o, 0, no_dice);
    Game::apply(b, o, 1, no_dice);
    CHECK(a.c.ray != b.c.ray);
    CHECK(a.step == 1);
}

TEST_CASE("D7 the legal functions: every one, or under single_use the unused ones", "[duel][D7]") {
    Options o;
    State s = opening(o);
    s.step = 4;
    Game::Choice out[Game::kMaxChoices];
    CHECK(Game::legal(s, o, out) == kFunctionCount);
    o.single_use = true;
    s.used[kTau] = static_cast<std::uint8_t>(o.bit(kDisruptor) | o.bit(kChangerSelf));
    const int n = Game::legal(s, o, out);
    CHECK(n == kFunctionCount - 3);  // D7a: shared changers, both modes used up
    for (int i = 0; i < n; ++i) {
        CHECK(out[i] != kDisruptor);
        CHECK(out[i] != kChangerOpponent);
    }
    s.step = 5;  // Kaon's function: nothing used
    CHECK(Game::legal(s, o, out) == kFunctionCount);
    s.step = 2;
    CHECK(Game::legal(s, o, out) == 3);
}

TEST_CASE("duel positions: written and read back exactly; the opening under single_use",
          "[duel][position]") {
    Options o;
    o.single_use = true;
    o.separate_changers = true;
    State s = opening(o);
    s.hp[kTau] = 12;
    s.hp[kKaon] = 75;
    s.turn = 41;  // turn 42: Kaon attacks
    s.used[kKaon] = static_cast<std::uint8_t>(o.bit(kDelayed) | o.bit(kChangerOpponent));
    const std::string text = write_position(s, o);
    CHECK(text.find("turn 42") != std::string::npos);
    CHECK(text.find("attacker kaon") != std::string::npos);
    CHECK(text.find("used kaon delayed,changer_opponent") != std::string::npos);
    const State back = read_position(text, "p", o);
    CHECK(back.hp[kTau] == 12);
    CHECK(back.hp[kKaon] == 75);
    CHECK(back.turn == 41);
    CHECK(back.used[kTau] == 0);
    CHECK(back.used[kKaon] == s.used[kKaon]);
    CHECK(write_position(back, o) == text);
    // Without a turn line the attacker's first turn: 2 for Kaon.
    const State short_form = read_position("hp tau 3\nhp kaon 4\nattacker kaon\n", "p", Options{});
    CHECK(short_form.turn == 1);
    CHECK(attacker(short_form) == kKaon);
}

TEST_CASE("duel positions: every mistake is one line naming the file, the line and the rule",
          "[duel][position]") {
    const Options o;  // hp=75
    const auto read = [&](const std::string& text, Options opt = Options{}) {
        return usage_error([&] { (void)read_position(text, "duel.txt", opt); });
    };
    CHECK(read("hp tau 80\nhp kaon 75\nattacker tau\n") ==
          "duel.txt:1: hit points '80' is not a whole number in 1..75 (D1: they start at hp=75 "
          "and never rise; D6: at 0 the duel is over)");
    CHECK(read("hp tau 0\nhp kaon 75\nattacker tau\n").find("duel.txt:1: hit points '0'") == 0);
    CHECK(read("hp tau 5\nhp kaon 5\nturn 3\nattacker kaon\n") ==
          "duel.txt:4: attacker kaon on turn 3: Tau attacks on odd turns, Kaon on even ones (D1)");
    CHECK(read("hp tau 5\nhp kaon 5\nattacker tau\nused tau delayed\n") ==
          "duel.txt:4: functions are used up only under single_use=true (D7)");
    Options single;
    single.single_use = true;
    CHECK(read("hp tau 5\nhp kaon 5\nattacker tau\nused tau bluff\n", single)
              .find("duel.txt:4: 'bluff' is not a function that is used up") == 0);
    CHECK(read("hp tau 5\nhp tau 6\n") ==
          "duel.txt:2: a second 'hp tau' line (the first is line 1)");
    CHECK(read("hp ruby 5\n") == "duel.txt:1: 'ruby' is not a seat (tau or kaon)");
    CHECK(read("hp tau 5\nattacker tau\n") == "duel.txt: no 'hp kaon' line (hp SEAT N)");
    CHECK(read("hp tau 5\nhp kaon 5\n") ==
          "duel.txt: no 'attacker' line (attacker tau or attacker kaon)");
    Options capped;
    capped.max_turns = 9;
    CHECK(read("hp tau 5\nhp kaon 5\nturn 10\nattacker kaon\n", capped) ==
          "duel.txt:3: turn '10' is not a whole number in 1..9 (D6: max_turns ends the duel)");
}

TEST_CASE("a position written mid-duel plays on exactly as the duel it was written from",
          "[duel][position]") {
    const Options o;
    for (std::uint64_t seed = 1; seed <= 30; ++seed) {
        INFO("seed " << seed);
        DicePolicy tau, kaon;
        odds::Dice whole(seed);
        State s = opening(o);
        for (int t = 0; t < 6 && !s.over; ++t) play_turn(s, o, tau, kaon, whole);
        if (s.over) continue;
        odds::Dice resumed = whole;  // the same dice from here on
        State from = read_position(write_position(s, o), "p", o);
        play_from(s, o, tau, kaon, whole);
        play_from(from, o, tau, kaon, resumed);
        CHECK(from.out.winner == s.out.winner);
        CHECK(from.out.turns == s.out.turns);
        CHECK(from.hp[kTau] == s.hp[kTau]);
        CHECK(from.hp[kKaon] == s.hp[kKaon]);
    }
}

TEST_CASE(
    "exact odds from a position equal Monte Carlo from it; from the opening, the same as "
    "a fresh duel",
    "[duel][position][exact][statistics]") {
    const GameEntry& g = find_game("dimension-duel");
    REQUIRE(g.exact_from);
    const Settings settings{{"hp", "30"}};
    const std::vector<std::string> policies = {"tau=survivor", "kaon=dice"};
    const std::string opening_text = g.opening_position(settings);
    const ExactReport fresh = g.exact(settings, policies);
    const ExactReport same = g.exact_from(settings, policies, opening_text, "o");
    for (std::size_t m = 0; m < fresh.laws.size(); ++m)
        CHECK(same.laws[m].mass == fresh.laws[m].mass);

    // Tau, 9 hit points to Kaon's 25, defends turn 8.
    const std::string text = "hp tau 9\nhp kaon 25\nturn 8\nattacker kaon\n";
    const ExactReport exact = g.exact_from(settings, policies, text, "p");
    const auto run = g.prepare_from(settings, policies, text, "p");
    RunConfig cfg;
    cfg.playouts = 100'000;
    cfg.seed = 808;
    cfg.threads = 2;
    cfg.chunk_size = run->chunk_size;
    const Tally mc = run->run(cfg, {}).tally;
    test::require_matches(test::counts(mc, kTauWin), exact.laws[0].mass);
    test::require_matches(test::counts(mc, kKaonWin), exact.laws[1].mass);
    test::require_matches(test::counts(mc, kTurns), exact.laws[4].mass);
    test::require_matches(test::counts(mc, kWinnerHp), exact.laws[5].mass);
    // No duel from turn 8 lasts fewer than 8 turns.
    for (std::size_t t = 0; t + 1 < 8; ++t) CHECK(exact.laws[4].mass[t] == 0);
}
