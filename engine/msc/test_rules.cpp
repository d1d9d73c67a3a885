// Minimal Space Combat campaign rules with scripted dice and scripted strategies (M4-M8), and
// invariants after every phase of random campaigns.
#include <catch2/catch.hpp>
#include <string>
#include <vector>

#include "engine/dice.hpp"
#include "engine/msc/msc.hpp"
#include "engine/msc/policies.hpp"

using namespace odds;
using namespace odds::msc;

namespace {

// Goes where told; never retreats unless told; loses ships by its loss rule (M7).
// (Builds and merges as the strategies do: strategy::Losses.)
struct Scripted : strategy::Losses {
    hex::Hex target{};
    bool stay = true;
    bool run_away = false;
    Scripted() = default;
    Scripted(hex::Hex t, bool st, bool away) : target(t), stay(st), run_away(away) {}
    template <class D>
    Orders orders(const State& s, int side, int i, D&) {
        const auto& f = s.fleets[side][i];
        return {stay ? f.pos : target, 0, {}};
    }
    template <class D>
    bool retreat(const State&, int, const hex::Hex&, D&) {
        return run_away;
    }
};

// Keeps the fleet where it is and detaches four ships toward `there`.
struct Splitter : Scripted {
    hex::Hex there;
    explicit Splitter(hex::Hex t) : there(t) {}
    template <class D>
    Orders orders(const State& st, int side, int i, D&) {
        const auto& f = st.fleets[side][i];
        return {f.pos, {4, 0}, there};
    }
};

const Design kBalanced = *parse_design("E3S3T3W3");  // 15 BP: offence 9, defence 3

// Retreats when told (as Scripted), and counts how often it was asked.
struct Counting : Scripted {
    int asked = 0;
    template <class D>
    bool retreat(const State&, int, const hex::Hex&, D&) {
        ++asked;
        return run_away;
    }
};

// A 10 x 10 map built by hand (not the example map): A's home in the middle of the top row, B's
// in the middle of the bottom row, no other system and no ships; both sides build kBalanced.
State by_hand() {
    State s;
    s.bounds = {10, 10};
    s.home = {hex::from_offset(5, 0), hex::from_offset(5, 9)};
    s.plan = {Plan(kBalanced), Plan(kBalanced)};
    for (int side = 0; side < kSides; ++side) {
        System& y = s.sys[s.n_sys++];
        y.pos = s.home[side];
        y.owner = y.home_of = static_cast<std::int8_t>(side);
    }
    s.index();
    return s;
}

State start(int budget = 150) {
    Options o;
    o.budget = budget;
    ScriptedDice none{};
    return setup(o, {kBalanced, kBalanced}, none);
}

}  // namespace

TEST_CASE("M3 the budget buys ships at home, as one fleet; the rest is saved", "[msc][M3]") {
    Options o;
    o.budget = 160;
    ScriptedDice none{};
    const State s = setup(o, {kBalanced, kBalanced}, none);
    CHECK(s.ships(0) == 10);
    CHECK(s.bp[0] == 10);
    CHECK(s.fleets[0][0].pos == s.home[0]);
    CHECK(s.fleets[0][1].ships() == 0);
    CHECK(s.n_sys == 32);  // the seed map's 30 systems and the two homes
}

TEST_CASE("M4 initiative: both roll, high is Player 1, ties rolled again", "[msc][M4]") {
    ScriptedDice d{3, 3, 2, 5};
    CHECK(initiative(d) == 1);
    CHECK(d.remaining() == 0);
}

TEST_CASE("M4 production: 1 BP a system; a capture produces from two turns later",
          "[msc][M4][M6]") {
    State s = start(150);  // 10 ships each, nothing saved
    System& y = s.sys[0];
    y.owner = 0;
    y.captured = 7;
    s.turn = 8;
    production(s);
    CHECK(s.bp[0] == 1);  // the home only
    s.turn = 9;
    production(s);
    CHECK(s.bp[0] == 3);  // the home and the system captured on turn 7
    // Enough BPs build a ship at home.
    s.bp[0] = 14;
    s.turn = 10;
    production(s);
    CHECK(s.ships(0) == 11);
    CHECK(s.bp[0] == 1);
}

TEST_CASE("M6 capture: two turns in a row alone; lost when an enemy ends a turn there",
          "[msc][M6]") {
    State s = start();
    Options o;
    const hex::Hex at = s.sys[0].pos;
    s.fleets[0][1] = Fleet{at, {1, 0}, 0};
    s.turn = 7;
    end_of_turn(s, o);
    CHECK(s.sys[0].owner == -1);  // one turn: occupied, not captured
    s.turn = 8;
    end_of_turn(s, o);
    CHECK(s.sys[0].owner == 0);
    CHECK(s.sys[0].captured == 8);
    s.fleets[0][1].n = {};
    s.fleets[1][1] = Fleet{at, {1, 0}, 0};
    s.turn = 9;
    end_of_turn(s, o);
    CHECK(s.sys[0].owner == -1);  // an enemy ended a turn there: no longer A's
}

TEST_CASE("M5 a fleet moves up to its ENGINE; fleets in one hex merge first", "[msc][M5][M5a]") {
    State s = start();
    const hex::Hex far = s.home[1];
    s.fleets[0][1] = Fleet{s.home[0], {2, 0}, 0};  // a second fleet at home: merges with the first
    Scripted go{far, false, false};
    ScriptedDice none{};
    movement(s, 0, go, none);
    CHECK(s.fleets[0][1].ships() == 0);
    CHECK(s.fleets[0][0].ships() == 12);
    CHECK(hex::distance(s.home[0], s.fleets[0][0].pos) == 3);  // ENGINE 3
    CHECK(s.fleets[0][0].arrived > 0);
}

TEST_CASE("M5a a fleet may detach ships into a new fleet with its own destination",
          "[msc][M5][M5a]") {
    State s = start();
    Splitter split{s.home[1]};
    ScriptedDice none{};
    movement(s, 0, split, none);
    CHECK(s.fleets[0][0].ships() == 6);
    CHECK(s.fleets[0][0].pos == s.home[0]);
    CHECK(s.fleets[0][1].ships() == 4);
    CHECK(hex::distance(s.home[0], s.fleets[0][1].pos) == 3);
}

TEST_CASE(
    "M5a with every fleet slot busy, detachments are refused and new ships wait; both counted",
    "[msc][M5][M5a]") {
    State s = start();  // 10 ships at home in slot 0
    for (int i = 1; i < kMaxFleets; ++i) s.fleets[0][i] = Fleet{s.sys[i].pos, {1, 0}, 0};
    Splitter split{s.home[1]};
    ScriptedDice none{};
    movement(s, 0, split, none);  // slot 0 would detach 4 ships: no slot is free
    CHECK(s.fleets[0][0].ships() == 10);
    CHECK(s.cap_hits[0] == 1);  // (the one-ship fleets cannot detach 4: not a refusal)
    // Every slot away from home and BPs for a ship: it waits, and that counts too.
    State t = start();
    for (int i = 0; i < kMaxFleets; ++i) t.fleets[0][i] = Fleet{t.sys[i].pos, {1, 0}, 0};
    t.bp[0] = 100;
    t.turn = 5;
    production(t);
    CHECK(t.ships(0) == kMaxFleets);
    CHECK(t.cap_hits[0] == 1);
    std::int32_t m[kMaxMetrics];
    to_metrics(t, m);
    CHECK(m[kFleetCapHits] == 1);
}

TEST_CASE("M7 combat: the last to move in attacks; rounds until destroyed or retreat",
          "[msc][M7]") {
    State s = start();
    const hex::Hex at = s.sys[0].pos;
    s.fleets[0][0] = Fleet{at, {1, 0}, 1};  // A: 1 ship, there first
    s.fleets[1][0] = Fleet{at, {3, 0}, 2};  // B: 3 ships, moved in last: B attacks
    // B attacks: offence 27: 3 dice (5, 6, 1): 2 hits; A's defence 3: 1 die (5): 1 save.
    // A loses 1 ship: destroyed, combat over.
    Scripted a, b;
    ScriptedDice d{5, 6, 1, 5};
    combat_at(s, at, a, b, d);
    CHECK(d.remaining() == 0);
    CHECK(s.ships(0) == 0);
    CHECK(s.lost[0] == 1);
}

TEST_CASE("M7 a side may retreat one hex toward home after a round", "[msc][M7]") {
    State s = start();
    const hex::Hex at = s.sys[0].pos;
    s.fleets[0][0] = Fleet{at, {3, 0}, 2};  // A attacks
    s.fleets[1][0] = Fleet{at, {3, 0}, 1};
    Scripted a, b{{}, true, true};  // B retreats after the first round
    // A attacks: offence 27, 3 dice; B's defence 9, 3 dice. Then B: 3 dice against A's 3. All
    // miss; after the round B retreats.
    ScriptedDice d{1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1};
    combat_at(s, at, a, b, d);
    CHECK(d.remaining() == 0);
    CHECK(s.fleets[1][0].pos == step_toward(s, at, s.home[1]));
    CHECK(s.ships(1) == 3);
}

TEST_CASE("M7 if neither side can roll an attack die, the attacker retreats", "[msc][M7][M7b]") {
    State s = start();
    s.plan = {Plan(*parse_design("E5S5T0W0")),
              Plan(*parse_design("E5S5T0W0"))};  // 10 BP: no offence
    const hex::Hex at = s.sys[0].pos;
    s.fleets[0][0] = Fleet{at, {2, 0}, 5};  // A moved in last
    s.fleets[1][0] = Fleet{at, {2, 0}, 1};
    Scripted a, b;
    ScriptedDice none{};
    combat_at(s, at, a, b, none);
    CHECK(s.fleets[0][0].pos == step_toward(s, at, s.home[0]));
}

TEST_CASE("M7a a combat still going after 1,000 rounds ends by the attacker's retreat",
          "[msc][M7][M7a]") {
    State s = by_hand();
    const hex::Hex at = hex::from_offset(5, 5);
    s.fleets[0][0] = Fleet{at, {1, 0}, 2};  // A moved in last: it attacks
    s.fleets[1][0] = Fleet{at, {1, 0}, 1};
    // One ship each (offence 9: one attack die; defence 3: one save die): a round is A's die and
    // B's save, then B's die and A's save. All 1s: nobody is ever hit, and nobody asks to leave.
    Counting a, b;
    ScriptedDice d(std::vector<int>(4 * 1000, 1));
    combat_at(s, at, a, b, d);
    CHECK(kMaxRounds == 1000);
    CHECK(d.remaining() == 0);  // exactly 1,000 rounds: one die more would have thrown
    CHECK(a.asked == 1000);
    CHECK(b.asked == 1000);
    CHECK(s.fleets[0][0].pos == hex::from_offset(5, 4));  // A, one hex toward its home
    CHECK(s.fleets[1][0].pos == at);
    CHECK(s.lost == std::array<int, kSides>{0, 0});
}

TEST_CASE("M7c a side in its own home cannot retreat: it asks, stays, and the fight goes on",
          "[msc][M7][M7c]") {
    SECTION("the defender at home") {
        State s = by_hand();
        const hex::Hex home = s.home[1];
        s.fleets[0][0] = Fleet{home, {1, 0}, 2};  // A moved in on B's home: A attacks
        s.fleets[1][0] = Fleet{home, {1, 0}, 1};
        Counting a, b;
        b.run_away = true;
        // Round 1: A 1 against B's save 1, B 1 against A's save 1: nothing. A stays; B asks to
        // retreat and cannot. Round 2: A 6 against B's save 1: B's ship is destroyed.
        ScriptedDice d{1, 1, 1, 1, 6, 1};
        combat_at(s, home, a, b, d);
        CHECK(d.remaining() == 0);
        CHECK(a.asked == 1);
        CHECK(b.asked == 1);
        CHECK(s.ships(1) == 0);
        CHECK(s.lost[1] == 1);
        CHECK(s.fleets[0][0].pos == home);
    }
    SECTION("the attacker at home") {
        State s = by_hand();
        const hex::Hex home = s.home[0];
        s.fleets[0][0] = Fleet{home, {1, 0}, 2};  // A came home to B's raiders: A attacks
        s.fleets[1][0] = Fleet{home, {1, 0}, 1};
        Counting a, b;
        a.run_away = true;
        // Round 1: nothing; A asks to retreat and cannot; B stays. Round 2: A misses (1 against
        // a save of 1); B 6 against A's save 1: A's ship is destroyed.
        ScriptedDice d{1, 1, 1, 1, 1, 1, 6, 1};
        combat_at(s, home, a, b, d);
        CHECK(d.remaining() == 0);
        CHECK(a.asked == 1);
        CHECK(b.asked == 1);
        CHECK(s.ships(0) == 0);
        CHECK(s.fleets[1][0].pos == home);
    }
    SECTION("away from home the same request is granted after the first round") {
        State s = by_hand();
        const hex::Hex at = hex::from_offset(5, 5);
        s.fleets[0][0] = Fleet{at, {1, 0}, 2};
        s.fleets[1][0] = Fleet{at, {1, 0}, 1};
        Counting a, b;
        b.run_away = true;
        ScriptedDice d{1, 1, 1, 1};
        combat_at(s, at, a, b, d);
        CHECK(d.remaining() == 0);
        CHECK(s.fleets[1][0].pos == hex::from_offset(5, 6));
        CHECK(s.fleets[0][0].pos == at);
    }
}

// M2: a ship of ENGINE 0 cannot move. 15 BP: offence 11 (one attack die), defence 4 (one save).
const Design kAnchored = *parse_design("E0S4T3W4");

TEST_CASE("M7 a fleet whose lowest ENGINE is 0 cannot retreat: it asks, stays, and fights on",
          "[msc][M7][M7e]") {
    // Up to msc/5 such a fleet retreated like any other (issue 30): each section's script would
    // run out of use (the fight over after round 1), its side one hex nearer home.
    const hex::Hex at = hex::from_offset(5, 5);  // away from both homes
    SECTION("the defender") {
        State s = by_hand();
        s.plan[1] = Plan(kAnchored);
        s.fleets[0][0] = Fleet{at, {1, 0}, 2};  // A moved in last: A attacks
        s.fleets[1][0] = Fleet{at, {1, 0}, 1};
        Counting a, b;
        b.run_away = true;
        // Round 1: A 1 against B's save 1, B 1 against A's save 1: nothing. A stays; B asks to
        // retreat and cannot. Round 2: A 6 against B's save 1: B's ship is destroyed.
        ScriptedDice d{1, 1, 1, 1, 6, 1};
        combat_at(s, at, a, b, d);
        CHECK(d.remaining() == 0);
        CHECK(a.asked == 1);
        CHECK(b.asked == 1);
        CHECK(s.ships(1) == 0);
        CHECK(s.lost[1] == 1);
        CHECK(s.fleets[0][0].pos == at);
    }
    SECTION("the attacker") {
        State s = by_hand();
        s.plan[0] = Plan(kAnchored);
        s.fleets[0][0] = Fleet{at, {1, 0}, 2};
        s.fleets[1][0] = Fleet{at, {1, 0}, 1};
        Counting a, b;
        a.run_away = true;
        // Round 1: nothing; A asks to retreat and cannot; B stays. Round 2: A misses (1 against
        // a save of 1); B 6 against A's save 1: A's ship is destroyed.
        ScriptedDice d{1, 1, 1, 1, 1, 1, 6, 1};
        combat_at(s, at, a, b, d);
        CHECK(d.remaining() == 0);
        CHECK(a.asked == 1);
        CHECK(b.asked == 1);
        CHECK(s.ships(0) == 0);
        CHECK(s.fleets[1][0].pos == at);
    }
    SECTION("M7e: one ENGINE-0 ship holds every fleet of its side in the fight") {
        State s = by_hand();
        s.plan[1] = Plan(kBalanced, kAnchored, 50);
        s.fleets[0][0] = Fleet{at, {2, 0}, 2};  // A: 2 x E3S3T3W3 (2 attack dice, 2 saves)
        s.fleets[1][0] = Fleet{at, {1, 0}, 1};  // B: an E3S3T3W3 in one fleet ...
        s.fleets[1][1] = Fleet{at, {0, 1}, 1};  // ... and the E0S4T3W4 in another (2 and 2)
        s.recount();
        CHECK_FALSE(msc::detail::can_retreat(s, 1, at));
        CHECK(msc::detail::can_retreat(s, 0, at));
        Counting a, b;
        b.run_away = true;
        // Round 1: all miss; B asks to retreat and cannot, not even its ENGINE-3 fleet. Round 2:
        // A's 6, 6 against B's saves 1, 1: B loses both ships.
        ScriptedDice d{1, 1, 1, 1, 1, 1, 1, 1, 6, 6, 1, 1};
        combat_at(s, at, a, b, d);
        CHECK(d.remaining() == 0);
        CHECK(b.asked == 1);
        CHECK(s.ships(1) == 0);
    }
    SECTION("without the ENGINE-0 ship the same side retreats") {
        State s = by_hand();
        s.plan[1] = Plan(kBalanced, kAnchored, 50);
        s.fleets[0][0] = Fleet{at, {2, 0}, 2};
        s.fleets[1][0] = Fleet{at, {1, 0}, 1};
        s.fleets[1][1] = Fleet{hex::from_offset(1, 1), {0, 1}, 1};  // elsewhere
        s.recount();
        CHECK(msc::detail::can_retreat(s, 1, at));
        Counting a, b;
        b.run_away = true;
        // Round 1: A's 2 dice and B's save, B's die and A's 2 saves: nothing. B retreats.
        ScriptedDice d{1, 1, 1, 1, 1, 1};
        combat_at(s, at, a, b, d);
        CHECK(d.remaining() == 0);
        CHECK(s.fleets[1][0].pos == hex::from_offset(5, 6));
        CHECK(s.fleets[1][1].pos == hex::from_offset(1, 1));
        CHECK(s.fleets[0][0].pos == at);
    }
}

TEST_CASE(
    "M7 neither side can roll a die and the attacker cannot retreat: the combat ends for "
    "the turn, both fleets in the hex",
    "[msc][M7][M7b][M7e]") {
    const hex::Hex at = hex::from_offset(5, 5);
    SECTION("M7b: no attack die on either side") {
        State s = by_hand();
        s.plan = {Plan(*parse_design("E0S5T5W0")),   // 10 BP, offence 5: no attack die
                  Plan(*parse_design("E5S5T0W0"))};  // 10 BP, no offence
        s.fleets[0][0] = Fleet{at, {1, 0}, 5};       // A moved in last: A attacks
        s.fleets[1][0] = Fleet{at, {2, 0}, 1};
        Counting a, b;
        ScriptedDice none{};
        combat_at(s, at, a, b, none);
        CHECK(s.fleets[0][0].pos == at);  // up to msc/5: one hex toward A's home
        CHECK(s.fleets[1][0].pos == at);  // the defender does not retreat for it
        CHECK(a.asked == 0);
        CHECK(b.asked == 0);
        CHECK(s.stage == Stage::turn_over);
        // The turn ends with both sides in the hex: an enemy there, nothing captured (M6).
        Options o;
        end_of_turn(s, o);
        CHECK(s.winner == -2);
    }
    SECTION("M7a: after 1,000 rounds the attacker of ENGINE 0 stays too") {
        State s = by_hand();
        s.plan[0] = Plan(kAnchored);
        s.fleets[0][0] = Fleet{at, {1, 0}, 2};  // A moved in last: it attacks
        s.fleets[1][0] = Fleet{at, {1, 0}, 1};
        Counting a, b;
        ScriptedDice d(std::vector<int>(4 * 1000, 1));  // nobody is ever hit
        combat_at(s, at, a, b, d);
        CHECK(d.remaining() == 0);
        CHECK(a.asked == 1000);
        CHECK(b.asked == 1000);
        CHECK(s.fleets[0][0].pos == at);  // up to msc/5: one hex toward A's home
        CHECK(s.fleets[1][0].pos == at);
        CHECK(s.lost == std::array<int, kSides>{0, 0});
    }
}

TEST_CASE("M9 policies see the whole board: strike counts the enemy's ships wherever they are",
          "[msc][M9][policy]") {
    State s = by_hand();
    const hex::Hex spot = hex::from_offset(2, 2);
    s.sys[s.n_sys++].pos = spot;  // one system to expand to
    s.index();
    s.fleets[0][0] = Fleet{s.home[0], {6, 0}, 0};
    s.fleets[1][0] = Fleet{s.home[1], {1, 0}, 0};
    ScriptedDice none{};
    strategy::Strike k;
    // A has 6 ships to B's 1 (at least 1.5 times): all but the home guard of 2 go for B's home.
    s.recount();
    Orders o = k.orders(s, 0, 0, none);
    CHECK(o.detach == Counts{4, 0});
    CHECK(o.detach_target == s.home[1]);
    // Four more of B's ships in a far corner, no fleet of A's anywhere near: A sees them, is no
    // longer ahead, and expands to the free system instead.
    s.fleets[1][1] = Fleet{hex::from_offset(9, 9), {4, 0}, 0};
    s.recount();
    o = k.orders(s, 0, 0, none);
    CHECK(o.detach == Counts{4, 0});
    CHECK(o.detach_target == spot);
}

TEST_CASE("M8 the enemy home held alone, or the enemy without ships", "[msc][M8]") {
    Options o;
    {
        State s = start();
        s.fleets[0][0].pos = s.home[1];
        s.fleets[1][0].n = {};
        s.fleets[1][1] = Fleet{s.sys[0].pos, {1, 0}, 0};  // B still has a ship elsewhere
        end_of_turn(s, o);
        CHECK(s.winner == 0);
        CHECK(s.end == State::kHome);
    }
    {
        State s = start();
        s.fleets[1][0].n = {};
        end_of_turn(s, o);
        CHECK(s.winner == 0);
        CHECK(s.end == State::kAnnihilation);
    }
    {
        State s = start();
        o.max_turns = 5;
        s.turn = 5;
        end_of_turn(s, o);
        CHECK(s.winner == -1);
        CHECK(s.end == State::kTurnCap);
    }
}

TEST_CASE("M8 both homes taken in the same turn: a draw, ended by a home taken", "[msc][M8]") {
    Options o;
    State s = start();
    s.fleets[0][0].pos = s.home[1];
    s.fleets[1][0].pos = s.home[0];
    end_of_turn(s, o);
    CHECK(s.winner == -1);
    CHECK(s.end == State::kHome);
    std::int32_t m[kMaxMetrics];
    to_metrics(s, m);
    CHECK(m[kDrawishness] == 1);  // a draw before the cap
    CHECK(m[kEndHome] == 1);
    CHECK(m[kEndAnnihilation] == 0);
}

TEST_CASE("M6 an owner's system is lost when an enemy fleet ends a turn there, even beside its own",
          "[msc][M6]") {
    State s = start();
    Options o;
    const hex::Hex at = s.sys[0].pos;
    s.sys[0].owner = 0;
    s.fleets[0][1] = Fleet{at, {1, 0}, 0};
    s.fleets[1][1] = Fleet{at, {1, 0}, 0};  // e.g. retreated into the hex after its fight
    end_of_turn(s, o);
    CHECK(s.sys[0].owner == -1);
}

TEST_CASE("M4a initiative=a or b: that side is Player 1 every turn, no dice rolled for it",
          "[msc][M4][M4a]") {
    CHECK(parse_options({{"initiative", "b"}}).initiative == 1);
    CHECK(parse_options({{"initiative", "roll"}}).initiative == -1);
    CHECK_THROWS_AS(parse_options({{"initiative", "c"}}), UsageError);
    Options o;
    o.initiative = 1;
    State s = start();
    Scripted a, b;  // everyone stays home
    ScriptedDice none{};
    play_turn(s, o, a, b, none);
    CHECK(s.first == 1);
    o.initiative = -1;
    ScriptedDice roll{2, 5};
    play_turn(s, o, a, b, roll);
    CHECK(s.first == 1);
    CHECK(roll.remaining() == 0);
}

TEST_CASE("M7 in the second half of a round the original attacker picks its own losses",
          "[msc][M7][M7d][M2a]") {
    // A (1 main E2S5T0W4 and 2 escorts E5S1T2W1) moves in on B (3 x E3S3T3W3). A attacks:
    // offence 16, 2 dice (1, 1) against B's 3 (1, 1, 1): nothing. B attacks: offence 27, 3 dice
    // (6, 6, 1): 2 hits; A's defence 7, 2 dice (5, 1): 1 save. A loses one ship, its own choice;
    // then A retreats.
    const Plan pa(*parse_design("E2S5T0W4"), *parse_design("E5S1T2W1"), 50);
    for (const LossRule rule : {LossRule::cheap_first, LossRule::keep_speed}) {
        Options o;
        ScriptedDice none{};
        State s = setup(o, {pa, Plan(kBalanced)}, none);
        const hex::Hex at = s.sys[0].pos;
        s.fleets[0][0] = Fleet{at, {1, 2}, 2};  // A moved in last: it attacks
        s.fleets[1][0] = Fleet{at, {3, 0}, 1};
        Scripted a{{}, true, true}, b;
        a.loss = rule;
        ScriptedDice d{1, 1, 1, 1, 1, 6, 6, 1, 5, 1};
        combat_at(s, at, a, b, d);
        CHECK(d.remaining() == 0);
        CHECK(s.lost[0] == 1);
        CHECK(s.lost[1] == 0);
        CHECK(s.fleets[0][0].n == (rule == LossRule::cheap_first ? Counts{1, 1} : Counts{0, 2}));
    }
}

TEST_CASE("M5 a fleet moves at its slowest ship's ENGINE, escort or main design",
          "[msc][M5][M2a]") {
    Options o;
    ScriptedDice none{};
    State s = setup(
        o, {Plan(*parse_design("E5S2T2W3"), *parse_design("E1S0T5W2"), 0), Plan(kBalanced)}, none);
    s.fleets[0][0].n = {2, 1};  // E5 main ships and one E1 escort: 1 hex
    Scripted go{s.home[1], false, false};
    movement(s, 0, go, none);
    CHECK(hex::distance(s.home[0], s.fleets[0][0].pos) == 1);
}

TEST_CASE("expand and strike keep a third of all the side's ships at home", "[msc][policy]") {
    State s = start(600);  // 40 ships each, one fleet at home
    ScriptedDice none{};
    strategy::Expand e;
    s.recount();
    Orders o = e.orders(s, 0, 0, none);
    CHECK(o.detach[0] == 40 - 14);
    s.fleets[0][0].n = {30, 0};
    s.fleets[0][1] = Fleet{s.sys[0].pos, {10, 0}, 0};  // 40 in all: a guard of 14 stays
    s.recount();
    o = e.orders(s, 0, 0, none);
    CHECK(o.detach[0] == 16);
    s.fleets[0][0].n = {14, 0};
    s.fleets[0][1].n = {26, 0};
    s.recount();
    o = e.orders(s, 0, 0, none);
    CHECK(o.detach[0] == 0);    // the guard is all that is home: nobody leaves
    s.fleets[1][0].n = {1, 0};  // B far behind: strike goes for B's home with all but the guard
    strategy::Strike k;
    s.fleets[0][0].n = {30, 0};
    s.fleets[0][1].n = {10, 0};
    s.recount();
    o = k.orders(s, 0, 0, none);
    CHECK(o.detach[0] == 16);
    CHECK(o.detach_target == s.home[1]);
}

TEST_CASE("M2a a side builds its main design and escorts, in the plan's order", "[msc][M2a]") {
    const Plan p(kBalanced, *parse_design("E3S2T3W1"), 25);  // 15 BP, and 10-BP escorts
    Counts built{};
    std::string order;
    for (int i = 0; i < 8; ++i) {
        const int d = p.next(built);
        order += d ? 'e' : 'm';
        ++built[d];
    }
    CHECK(order == "mmmemmme");  // every fourth ship an escort
    CHECK(Plan(kBalanced).next({5, 0}) == 0);
    CHECK(Plan(kBalanced, kBalanced, 100).next({0, 5}) == 1);
    Options o;
    ScriptedDice none{};
    o.budget = 110;  // 6 x 15 + 2 x 10
    State s = setup(o, {p, p}, none);
    CHECK(s.fleets[0][0].n == Counts{6, 2});
    CHECK(s.bp[0] == 0);
    o.budget = 105;  // the 8th ship would be an escort (10 BP): 5 BP saved, not a cheaper skip
    s = setup(o, {p, p}, none);
    CHECK(s.fleets[0][0].n == Counts{6, 1});
    CHECK(s.bp[0] == 5);
    CHECK(s.built_by[0] == Counts{6, 1});
}

TEST_CASE("M5 a mixed fleet moves at its slowest ship's ENGINE", "[msc][M5][M2a]") {
    Options o;
    ScriptedDice none{};
    State s = setup(o, {Plan(kBalanced, *parse_design("E5S1T2W1"), 0), Plan(kBalanced)}, none);
    s.fleets[0][0].n = {2, 1};  // E3 and E5 ships: 3 hexes
    Scripted go{s.home[1], false, false};
    movement(s, 0, go, none);
    CHECK(hex::distance(s.home[0], s.fleets[0][0].pos) == 3);
    s.fleets[0][0] = Fleet{s.home[0], {0, 3}, 0};  // escorts alone: 5 hexes
    movement(s, 0, go, none);
    CHECK(hex::distance(s.home[0], s.fleets[0][0].pos) == 5);
}

TEST_CASE("M7 loss rules: the cheapest, the least offence, or the slowest ship first",
          "[msc][M7][M2a]") {
    // Main E2S5T0W4: 15 BP, offence 8, ENGINE 2. Escort E1S0T5W2: 10 BP, offence 9, ENGINE 1.
    const Plan p(*parse_design("E2S5T0W4"), *parse_design("E1S0T5W2"), 50);
    CHECK(pick_loss(LossRule::cheap_first, p, {3, 3}) == 1);
    CHECK(pick_loss(LossRule::keep_guns, p, {3, 3}) == 0);
    CHECK(pick_loss(LossRule::keep_speed, p, {3, 3}) == 1);
    CHECK(pick_loss(LossRule::keep_guns, p, {0, 3}) == 1);  // only what is there
}

TEST_CASE("M7 the defender's policy picks its losses: which ships remain after a round",
          "[msc][M7][M7d][M2a]") {
    // B holds 1 main ship (E2S5T0W4: offence 8, defence 5, ENGINE 2, 15 BP) and 2 escorts
    // (E5S1T2W1: offence 4, defence 1, ENGINE 5, 10 BP). A (3 x E3S3T3W3) moves in and attacks.
    const Plan pb(*parse_design("E2S5T0W4"), *parse_design("E5S1T2W1"), 50);
    for (const LossRule rule : {LossRule::cheap_first, LossRule::keep_speed}) {
        Options o;
        ScriptedDice none{};
        State s = setup(o, {Plan(kBalanced), pb}, none);
        const hex::Hex at = s.sys[0].pos;
        s.fleets[0][0] = Fleet{at, {3, 0}, 2};  // A attacks
        s.fleets[1][0] = Fleet{at, {1, 2}, 1};
        Scripted a{{}, true, true}, b;  // A retreats after the first round
        b.loss = rule;
        // A: offence 27, 3 dice (6, 6, 1): 2 hits; B's defence 7, 2 dice (5, 1): 1 save. B loses
        // one ship, of its own choosing. B: offence 12 or 8, 1 die (1) against A's 3 (1, 1, 1).
        ScriptedDice d{6, 6, 1, 5, 1, 1, 1, 1, 1};
        combat_at(s, at, a, b, d);
        CHECK(d.remaining() == 0);
        CHECK(s.lost[1] == 1);
        CHECK(s.fleets[0][0].pos == step_toward(s, at, s.home[0]));  // A retreated
        if (rule == LossRule::cheap_first) {
            CHECK(s.fleets[1][0].n == Counts{1, 1});  // the cheaper escort lost
            CHECK(s.range(1, s.fleets[1][0]) == 2);
        } else {
            CHECK(s.fleets[1][0].n == Counts{0, 2});  // the slow main ship lost: the fleet is fast
            CHECK(s.range(1, s.fleets[1][0]) == 5);
        }
    }
}

TEST_CASE("M1a swap_homes: side A starts at the map's second home", "[msc][M1][M1a]") {
    Options o;
    ScriptedDice none{};
    const State plain = setup(o, {kBalanced, kBalanced}, none);
    o.swap_homes = true;
    const State swapped = setup(o, {kBalanced, kBalanced}, none);
    CHECK(swapped.home[0] == plain.home[1]);
    CHECK(swapped.home[1] == plain.home[0]);
    CHECK(swapped.fleets[0][0].pos == plain.home[1]);
    CHECK(swapped.sys[swapped.n_sys - 2].home_of == 0);
    CHECK(swapped.sys[swapped.n_sys - 2].pos == plain.home[1]);
}

TEST_CASE("M2a the plan is rule options: main design, escort, escorts' share", "[msc][M2a]") {
    const Options o = parse_options({{"design_a", "E3S4T4W2"},
                                     {"escort_b", "E1S5T4W5"},
                                     {"escorts_a", "0"},
                                     {"escorts_b", "40"},
                                     {"swap_homes", "true"}});
    CHECK(o.design[0] == parse_design("E3S4T4W2"));
    CHECK_FALSE(o.design[1]);
    CHECK(o.escort[1] == parse_design("E1S5T4W5"));  // a 20-BP capital ship
    CHECK(o.escort_share == std::array<int, kSides>{0, 40});
    CHECK(o.swap_homes);
    CHECK(parse_options({}).escort_share == std::array<int, kSides>{25, 25});
    CHECK_THROWS_WITH(parse_options({{"escorts_a", "101"}}),
                      Catch::Contains("escorts_a='101'") && Catch::Contains("0 to 100"));
    CHECK_THROWS_WITH(parse_options({{"escort_b", "E3S2T3W2"}}),
                      Catch::Contains("escort_b='E3S2T3W2'") && Catch::Contains("doctrine"));
}

TEST_CASE("invariants after every phase of random campaigns", "[msc][invariants]") {
    Options o;
    o.max_turns = 120;
    Dice dice(99);
    for (int game = 0; game < 200; ++game) {
        // Mixed plans (M2a): doctrines' main designs at 15 BP, escorts of another doctrine at 10
        // or 20 BP, escort shares from 0 to 100%.
        const std::array<Plan, kSides> plans = {
            Plan(doctrine_design(static_cast<Doctrine>(game % 4), 15),
                 doctrine_design(static_cast<Doctrine>((game + 1) % 4), 10), 25 * (game % 5)),
            Plan(doctrine_design(static_cast<Doctrine>((game / 4) % 4), 10),
                 doctrine_design(static_cast<Doctrine>((game / 2) % 4), 20),
                 25 * ((game / 5) % 5))};
        State s = setup(o, plans, dice);
        strategy::Random pa;
        strategy::Expand pb;
        pa.loss = static_cast<LossRule>(game % kLossRules);
        pb.loss = static_cast<LossRule>((game / 3) % kLossRules);
        while (s.winner == -2) {
            ++s.turn;
            production(s);
            s.first = initiative(dice);
            for (int k = 0; k < kSides; ++k) {  // Player 1 first (M4)
                const int side = k == 0 ? s.first : 1 - s.first;
                const auto& fl = s.fleets[side];
                std::array<hex::Hex, kMaxFleets> before{};
                std::array<bool, kMaxFleets> was{};
                for (int i = 0; i < kMaxFleets; ++i) {
                    before[i] = fl[i].pos;
                    was[i] = fl[i].ships() > 0;
                }
                if (side == 0)
                    movement(s, 0, pa, dice);
                else
                    movement(s, 1, pb, dice);
                // M5: no fleet ends beyond its range, the lowest ENGINE among its designs (from
                // the plan, not the kernel's own count), of where a fleet of its side started
                // the phase (merged slots are reused by detachments, so not necessarily its own).
                for (int i = 0; i < kMaxFleets; ++i) {
                    const auto& f = fl[i];
                    if (f.ships() == 0) continue;
                    REQUIRE(s.bounds.contains(f.pos));
                    int range = kMaxRating;
                    for (int d = 0; d < kMaxDesigns; ++d)
                        if (f.n[d] > 0) range = std::min(range, plans[side].design[d].engine);
                    int from = 1000;
                    for (int j = 0; j < kMaxFleets; ++j)
                        if (was[j]) from = std::min(from, hex::distance(before[j], f.pos));
                    REQUIRE(from <= range);
                }
            }
            std::array<hex::Hex, kMaxFleets> fights{};
            int n = 0;
            for (const auto& f : s.fleets[0])
                if (f.ships() > 0 && s.occupied_by(f.pos, 1)) fights[n++] = f.pos;
            for (int i = 0; i < n; ++i) combat_at(s, fights[i], pa, pb, dice);
            end_of_turn(s, o);
            for (int side = 0; side < kSides; ++side) {
                const auto u = static_cast<std::size_t>(side);
                // BPs spent never exceed BPs produced plus the budget; every ship counted once.
                int spent = 0, alive = 0;
                for (int d = 0; d < kMaxDesigns; ++d)
                    spent += s.built_by[u][d] * s.design(side, d).cost();
                REQUIRE(spent + s.bp[u] == o.budget + s.produced[u]);
                REQUIRE(s.built_by[u][0] + s.built_by[u][1] == s.built[u]);
                for (const auto& f : s.fleets[u]) {
                    for (int k : f.n) REQUIRE(k >= 0);
                    alive += f.ships();
                }
                REQUIRE(alive == s.built[u] - s.lost[u]);
                // The escorts keep to their share (M2a).
                REQUIRE(100 * s.built_by[u][1] <= plans[u].escort_share * s.built[u]);
            }
        }
    }
}

TEST_CASE("step_toward without distances: the same step as the nearest neighbour, first facing",
          "[msc][M5]") {
    // The definition: the neighbour inside the map nearest the target, ties to the first facing
    // clockwise from north; every pair of hexes of two maps, targets outside the map included.
    auto reference = [](const State& s, const hex::Hex& from, const hex::Hex& to) {
        hex::Hex best = from;
        int bd = hex::distance(from, to);
        for (int f = 0; f < 6; ++f) {
            const hex::Hex n = hex::neighbour(from, f);
            if (s.bounds.contains(n) && hex::distance(n, to) < bd) {
                bd = hex::distance(n, to);
                best = n;
            }
        }
        return best;
    };
    for (const hex::Bounds b : {hex::Bounds{26, 22}, hex::Bounds{9, 8}}) {
        State s;
        s.bounds = b;
        long pairs = 0, differ = 0;
        for (int c = 0; c < b.width; ++c)
            for (int r = 0; r < b.height; ++r)
                for (int c2 = -3; c2 < b.width + 3; ++c2)
                    for (int r2 = -3; r2 < b.height + 3; ++r2) {
                        const hex::Hex from = hex::from_offset(c, r), to = hex::from_offset(c2, r2);
                        ++pairs;
                        differ += !(step_toward(s, from, to) == reference(s, from, to));
                    }
        CHECK(pairs > 1000);
        CHECK(differ == 0);
    }
}

TEST_CASE("M7 combat.* rule options reach play: dice per offensive BPs, hit faces, round limit",
          "[msc][M7][M7a][options]") {
    State s = start();
    const hex::Hex at = s.sys[0].pos;
    s.fleets[0][0] = Fleet{at, {1, 0}, 1};  // A: 1 ship (defence 3), there first
    s.fleets[1][0] = Fleet{at, {3, 0}, 2};  // B: 3 ships (offence 27), moved in last: B attacks
    Scripted a, b;
    SECTION("combat.offense_bp_per_die=6: 27 offence rolls 4 dice (the book's 7: 3)") {
        const Options o = parse_options({{"combat.offense_bp_per_die", "6"}});
        // B: 4 dice (1, 1, 1, 5): 1 hit; A: 1 save die (1). Under the book the 5 would be A's
        // save, and the fight would go on past the script.
        ScriptedDice d{1, 1, 1, 5, 1};
        combat_at(s, at, o, a, b, d);
        CHECK(d.remaining() == 0);
        CHECK(s.lost[0] == 1);
    }
    SECTION("combat.hits_on=4-6: a 4 destroys a ship (the book's 5-6: it misses)") {
        const Options o = parse_options({{"combat.hits_on", "4-6"}});
        ScriptedDice d{4, 1, 1, 1};
        combat_at(s, at, o, a, b, d);
        CHECK(d.remaining() == 0);
        CHECK(s.lost[0] == 1);
    }
    SECTION("combat.max_rounds=3: the attacker retreats after 3 rounds (the book's 1,000)") {
        State t = by_hand();
        const hex::Hex h = hex::from_offset(5, 5);
        t.fleets[0][0] = Fleet{h, {1, 0}, 2};  // A moved in last: it attacks
        t.fleets[1][0] = Fleet{h, {1, 0}, 1};
        const Options o = parse_options({{"combat.max_rounds", "3"}});
        Counting ca, cb;
        ScriptedDice d(std::vector<int>(4 * 3, 1));  // a round: 4 dice, all missing
        combat_at(t, h, o, ca, cb, d);
        CHECK(d.remaining() == 0);
        CHECK(ca.asked == 3);
        CHECK(t.fleets[0][0].pos == hex::from_offset(5, 4));  // A, one hex toward its home
    }
}

TEST_CASE("combat.* options are named in the scenario only when they differ from the book",
          "[msc][options]") {
    CHECK(scenario(parse_options({})).find("combat") == std::string::npos);
    CHECK(scenario(parse_options({{"combat.offense_bp_per_die", "7"}})).find("combat") ==
          std::string::npos);
    CHECK(scenario(parse_options({{"combat.offense_bp_per_die", "6"}}))
              .find("combat.offense_bp_per_die=6") != std::string::npos);
    CHECK_THROWS_AS(parse_options({{"combat.offense_bp_per_die", "0"}}), UsageError);
    CHECK_THROWS_AS(parse_options({{"combat.hits_on", "7"}}), UsageError);
}

TEST_CASE("M4, M6 production.* and capture.* rule options: BPs a system, capture, first yield",
          "[msc][M4][M6][options]") {
    SECTION("production.bp_per_system=3: the home and a producing system yield 3 BP each") {
        const Options o = parse_options({{"production.bp_per_system", "3"}});
        State s = start(150);
        s.sys[0].owner = 0;
        s.sys[0].captured = 7;
        s.turn = 8;
        production(s, o);
        CHECK(s.bp[0] == 3);  // the home only (the book: 1)
        s.turn = 9;
        production(s, o);
        CHECK(s.bp[0] == 9);  // the home and the system captured on turn 7 (the book: 3)
    }
    SECTION("capture.produces_after=4: captured on turn 7, produces from turn 11 (the book: 9)") {
        const Options o = parse_options({{"capture.produces_after", "4"}});
        State s = start(150);
        s.sys[0].owner = 0;
        s.sys[0].captured = 7;
        s.turn = 10;
        production(s, o);
        CHECK(s.bp[0] == 1);  // the home only
        s.turn = 11;
        production(s, o);
        CHECK(s.bp[0] == 3);
        State t = start(150);
        t.sys[0].owner = 0;
        t.sys[0].captured = 7;
        t.turn = 9;
        production(t, parse_options({}));
        CHECK(t.bp[0] == 2);  // the book: home and system on turn 9
    }
    SECTION("capture.turns_alone=3: three turns alone capture (the book: two)") {
        for (const int turns : {2, 3}) {
            const Options o = parse_options({{"capture.turns_alone", std::to_string(turns)}});
            State s = start();
            const hex::Hex at = s.sys[0].pos;
            s.fleets[0][1] = Fleet{at, {1, 0}, 0};
            for (int k = 1; k <= 3; ++k) {
                s.turn = 6 + k;
                end_of_turn(s, o);
                INFO("turns_alone " << turns << ", turn " << k);
                CHECK(s.sys[0].owner == (k >= turns ? 0 : -1));
            }
            CHECK(s.sys[0].captured == 6 + turns);
        }
    }
    // The BPs-produced metric's bound follows the option (the conformance test's ranges).
    const auto hi = [](const Options& o) {
        for (const MetricSpec& m : metric_specs(o))
            if (m.name == "bp_produced_a") return m.hi;
        return -1;
    };
    CHECK(hi(parse_options({{"production.bp_per_system", "3"}})) == 3 * hi(parse_options({})));
}

namespace {
// The opening under `settings` (ships bought by the plans, M3), with `budget` BP a side.
State start_under(const Settings& settings, const std::array<Plan, kSides>& plans,
                  int budget = 150) {
    Options o = parse_options(settings);
    o.budget = budget;
    ScriptedDice none{};
    return setup(o, plans, none);
}
}  // namespace

TEST_CASE("M2 ships.* costs: a point of ENGINE, SHIELDS, TO-HIT, a weapon (book and changed)",
          "[msc][M2][options]") {
    // E3S3T3W3 costs 15 under the book (3 + 3 + 3 + 3 x 2); one unit dearer, 18: the middle
    // size moved there keeps it legal. 40 BP buy two ships, 10 BP saved (book) or 4 (18 each).
    for (const char* cost :
         {"ships.engine_bp", "ships.shields_bp", "ships.to_hit_bp", "ships.weapon_bp"}) {
        const bool weapon = std::string_view(cost) == "ships.weapon_bp";
        for (const int extra : {0, 1}) {
            INFO(cost << " " << extra);
            const std::string v = std::to_string((weapon ? 2 : 1) + extra);
            const Settings set = {{cost, v}, {"ships.medium_bp", std::to_string(15 + 3 * extra)}};
            const Options o = parse_options(set);
            REQUIRE(kBalanced.legal(o.ships));
            CHECK(kBalanced.cost(o.ships) == 15 + 3 * extra);
            const State s = start_under(set, {Plan(kBalanced), Plan(kBalanced)}, 40);
            CHECK(s.ships(0) == 2);
            CHECK(s.bp[0] == (extra ? 4 : 10));
            // Under the changed cost the book's 15-BP design is not legal (M2).
            if (extra) CHECK_FALSE(kBalanced.legal(parse_options({{cost, v}}).ships));
        }
    }
    CHECK(scenario(parse_options({{"ships.weapon_bp", "2"}})).find("ships.") == std::string::npos);
    CHECK(scenario(parse_options({{"ships.weapon_bp", "3"}})).find("ships.weapon_bp=3") !=
          std::string::npos);
    // A design option is legal under the options' costs, whatever their order on the line.
    CHECK_THROWS_WITH(parse_options({{"design_a", "E3S3T3W3"}, {"ships.weapon_bp", "3"}}),
                      Catch::Contains("design_a='E3S3T3W3'"));
    CHECK(parse_options({{"design_a", "E3S3T3W2"}, {"ships.weapon_bp", "3"}}).design[0] ==
          Design{3, 3, 3, 2});  // 15 BP there (13 under the book: not legal)
    CHECK_FALSE(parse_design("E3S3T3W2"));
}

TEST_CASE("M2 offensive and defensive BPs are the BPs spent: combat dice follow the costs",
          "[msc][M2][M7][options]") {
    const hex::Hex at = hex::from_offset(5, 5);
    const auto fight = [&](const Settings& set, ScriptedDice& d) {
        State s = start_under(set, {Plan(kBalanced), Plan(kBalanced)});
        s.fleets[0][0] = Fleet{at, {1, 0}, 1};  // A: 1 ship, there first
        s.fleets[1][0] = Fleet{at, {2, 0}, 2};  // B: 2 ships, moved in last: B attacks
        Scripted a, b;
        combat_at(s, at, parse_options(set), a, b, d);
        return s;
    };
    SECTION("ships.weapon_bp: book 2, offence 9 a ship: 2 attack dice; at 3, offence 12: 3") {
        ScriptedDice book{1, 6, 1};  // B: 1, 6 (a hit); A's save die 1: A lost
        CHECK(fight({}, book).lost[0] == 1);
        CHECK(book.remaining() == 0);
        // B: 1, 1, 6: the third die hits; A's save die 1. (Ignored, B's two dice miss, A's save
        // die is the 6, and A fires back.)
        ScriptedDice dear{1, 1, 6, 1};
        CHECK(fight({{"ships.weapon_bp", "3"}, {"ships.medium_bp", "18"}}, dear).lost[0] == 1);
        CHECK(dear.remaining() == 0);
    }
    SECTION("ships.shields_bp: book 1, defence 3: 1 save die; at 2, defence 6: 2") {
        // B: 6, 1 (a hit); A's one save die 1: A lost.
        ScriptedDice book{6, 1, 1};
        CHECK(fight({}, book).lost[0] == 1);
        CHECK(book.remaining() == 0);
        // B: 6, 1 (a hit); A's two save dice 1, 6: saved. A fires 1 die (1) against B's 4 save
        // dice (defence 12). Round 2: B 6, 6; A saves 1, 1: A lost. (Ignored, A is lost in the
        // first round, 10 dice unrolled.)
        ScriptedDice dear{6, 1, 1, 6, 1, 1, 1, 1, 1, 6, 6, 1, 1};
        CHECK(fight({{"ships.shields_bp", "2"}, {"ships.medium_bp", "18"}}, dear).lost[0] == 1);
        CHECK(dear.remaining() == 0);
    }
}

TEST_CASE("M2 ships.max_*: the most ENGINE, SHIELDS, TO-HIT a ship may have (book 5)",
          "[msc][M2][options]") {
    for (const char* max : {"ships.max_engine", "ships.max_shields", "ships.max_to_hit"}) {
        INFO(max);
        const ShipRules book = parse_options({{max, "5"}}).ships,
                        four = parse_options({{max, "4"}}).ships;
        const std::string_view m(max);
        const Design five = m == "ships.max_engine"    ? *parse_design("E5S2T2W3")
                            : m == "ships.max_shields" ? *parse_design("E2S5T0W4")
                                                       : *parse_design("E2S0T5W4");
        CHECK(five.legal(book));
        CHECK_FALSE(five.legal(four));
        CHECK_FALSE(parse_design(to_string(five), four));
        // What a side may build (M2b): every legal design, none past the maximum.
        int designs = 0, past = 0;
        for_each_design(four, [&](const Design& d, int) {
            ++designs;
            past += (m == "ships.max_engine"    ? d.engine
                     : m == "ships.max_shields" ? d.shields
                                                : d.to_hit) > 4;
            return true;
        });
        CHECK(past == 0);
        CHECK(designs < kDesigns);
    }
    // The doctrines follow (M2a): fast's ENGINE 5 becomes 4, the BP moved to TO-HIT.
    const Options o = parse_options({{"ships.max_engine", "4"}});
    CHECK(doctrine_main(Doctrine::fast, parse_options({})) == parse_design("E5S2T2W3"));
    CHECK(doctrine_main(Doctrine::fast, o) == parse_design("E4S2T3W3"));
}

TEST_CASE("M2 ship sizes and M2a the doctrines' sizes (book 10, 15, 20; main 15, escort 10)",
          "[msc][M2][M2a][options]") {
    const Options book = parse_options({});
    for (const Doctrine d :
         {Doctrine::balanced, Doctrine::glass_cannon, Doctrine::turtle, Doctrine::fast}) {
        CHECK(doctrine_main(d, book) == doctrine_design(d, 15));
        CHECK(doctrine_escort(d, book) == doctrine_design(d, 10));
        CHECK(doctrine_main(d, book).cost() == 15);
    }
    SECTION("ships.small_bp=12: escorts of 12 BP, and nothing below 12 is built") {
        const Options o = parse_options({{"ships.small_bp", "12"}});
        const Design escort = doctrine_escort(Doctrine::balanced, o);
        CHECK(escort.cost(o.ships) == 12);
        CHECK(escort.legal(o.ships));
        CHECK_FALSE(doctrine_escort(Doctrine::balanced, book).legal(o.ships));  // 10 BP
        State s = start_under({{"ships.small_bp", "12"}}, {Plan(kBalanced), Plan(kBalanced)});
        s.bp[0] = 11;  // 11 BP: a 10-BP ship under the book, none here
        s.stage = Stage::build;
        s.to_move = 0;
        CHECK_FALSE(msc::detail::can_build(s, 0));
        State t = start(150);
        t.bp[0] = 11;
        CHECK(msc::detail::can_build(t, 0));
        // The bound of ships built follows the smallest size (the conformance test's ranges).
        const auto hi = [](const Options& x) {
            for (const MetricSpec& m : metric_specs(x))
                if (m.name == "ships_built_a") return m.hi;
            return -1;
        };
        CHECK(hi(parse_options({{"ships.small_bp", "5"}})) > hi(book));
    }
    SECTION("doctrine.main_size=large, doctrine.escort_size=medium: 20 and 15 BP") {
        const Options o =
            parse_options({{"doctrine.main_size", "large"}, {"doctrine.escort_size", "medium"}});
        CHECK(doctrine_main(Doctrine::turtle, o).cost() == 20);
        CHECK(doctrine_escort(Doctrine::turtle, o).cost() == 15);
        CHECK(doctrine_main(Doctrine::turtle, o) == doctrine_design(Doctrine::turtle, 20));
    }
    SECTION("a size no design can cost is refused, naming the option") {
        // Every unit 3 BP: no design costs 10 BP (nor 20: 20 is not a multiple of 3).
        const Options o = parse_options({{"ships.engine_bp", "3"},
                                         {"ships.shields_bp", "3"},
                                         {"ships.to_hit_bp", "3"},
                                         {"ships.weapon_bp", "3"}});
        CHECK(doctrine_main(Doctrine::balanced, o).cost(o.ships) == 15);
        CHECK_THROWS_WITH(doctrine_escort(Doctrine::balanced, o),
                          Catch::Contains("doctrine.escort_size='small'"));
    }
    CHECK_THROWS_WITH(parse_options({{"ships.small_bp", "16"}}),  // above the middle size
                      Catch::Contains("ships.small_bp='16'"));
    CHECK_THROWS_WITH(parse_options({{"ships.large_bp", "14"}}),
                      Catch::Contains("ships.large_bp='14'"));
    CHECK(parse_options({{"ships.small_bp", "15"}}).ships.sizes == std::array<int, 3>{15, 15, 20});
    CHECK(scenario(parse_options({{"doctrine.main_size", "medium"}})).find("main_size") ==
          std::string::npos);
    CHECK(scenario(parse_options({{"doctrine.main_size", "large"}}))
              .find("doctrine.main_size=large") != std::string::npos);
}

TEST_CASE("M5 movement.hexes_per_engine: a fleet moves its lowest ENGINE times this (book 1)",
          "[msc][M5][options]") {
    for (const int k : {1, 2}) {
        State s = start_under({{"movement.hexes_per_engine", std::to_string(k)}},
                              {Plan(kBalanced), Plan(kBalanced)});
        Scripted go{s.home[1], false, false};
        ScriptedDice none{};
        movement(s, 0, go, none);
        CHECK(hex::distance(s.home[0], s.fleets[0][0].pos) == 3 * k);  // ENGINE 3
        // The random strategy's choices: every hex in reach.
        State t = start_under({{"movement.hexes_per_engine", std::to_string(k)}},
                              {Plan(kBalanced), Plan(kBalanced)});
        t.stage = Stage::orders;
        t.to_move = 0;
        t.fleet = 0;
        std::vector<msc::Choice> legal(kMaxChoices);
        const int n = Game::legal(t, parse_options({}), legal.data());
        int farthest = 0;
        for (int i = 0; i < n; ++i)
            if (legal[i].kind == msc::Choice::go)
                farthest = std::max(farthest, hex::distance(t.home[0], legal[i].order.target));
        CHECK(farthest == 3 * k);
    }
}

TEST_CASE("M4 turn.initiative_die: both roll this die for Player 1 (book d6)",
          "[msc][M4][options]") {
    CHECK(parse_options({}).initiative_die == 6);
    Scripted a, b;  // everyone stays home
    {
        State s = start();
        ScriptedDice d6{2, 5};
        play_turn(s, parse_options({}), a, b, d6);
        CHECK(s.first == 1);
        CHECK(d6.remaining() == 0);
    }
    // A d8: 8 against 7 (faces a d6 cannot show: ScriptedDice refuses them on a d6).
    State s = start();
    ScriptedDice d8{8, 7};
    play_turn(s, parse_options({{"turn.initiative_die", "8"}}), a, b, d8);
    CHECK(s.first == 0);
    CHECK(d8.remaining() == 0);
    ScriptedDice ties{8, 8, 1, 3};
    CHECK(initiative(ties, 8) == 1);
    CHECK_THROWS_AS(parse_options({{"turn.initiative_die", "1"}}), UsageError);
}

TEST_CASE("M7 retreat.hexes: a retreat goes this many hexes toward home, never past it (book 1)",
          "[msc][M7][options]") {
    for (const int k : {1, 2}) {
        State s = start();
        const hex::Hex at = hex::from_offset(5, 5);  // on the seed's map, between the homes
        s.fleets[0][0] = Fleet{at, {3, 0}, 2};       // A attacks
        s.fleets[1][0] = Fleet{at, {3, 0}, 1};
        Scripted a, b{{}, true, true};  // B retreats after the first round
        ScriptedDice d(std::vector<int>(12, 1));
        combat_at(s, at, parse_options({{"retreat.hexes", std::to_string(k)}}), a, b, d);
        CHECK(d.remaining() == 0);
        hex::Hex want = step_toward(s, at, s.home[1]);
        if (k == 2) want = step_toward(s, want, s.home[1]);
        CHECK(s.fleets[1][0].pos == want);
        CHECK(hex::distance(at, s.fleets[1][0].pos) == k);
    }
    // Next to home, two hexes stop at home.
    State s = start();
    const hex::Hex next = step_toward(s, s.home[1], s.home[0]);
    s.fleets[0][0] = Fleet{next, {3, 0}, 2};
    s.fleets[1][0] = Fleet{next, {3, 0}, 1};
    Scripted a, b{{}, true, true};
    ScriptedDice d(std::vector<int>(12, 1));
    combat_at(s, next, parse_options({{"retreat.hexes", "2"}}), a, b, d);
    CHECK(s.fleets[1][0].pos == s.home[1]);
}

TEST_CASE("M4 production.home_bp: the home's BPs a turn (book: as any system)",
          "[msc][M4][options]") {
    for (const auto& [home, want] : {std::pair{"same", 4}, std::pair{"4", 6}}) {
        INFO(home);
        const Options o = parse_options({{"production.home_bp", home}});
        State s = start(150);
        s.sys[0].owner = 0;
        s.sys[0].captured = 7;
        s.turn = 9;
        production(
            s, parse_options({{"production.home_bp", home}, {"production.bp_per_system", "2"}}));
        CHECK(s.bp[0] == want);  // the system's 2, and the home's 2 (same) or 4
        State t = start(150);
        t.turn = 9;
        production(t, o);
        CHECK(t.bp[0] == (o.home_bp ? 4 : 1));
    }
    CHECK(parse_options({}).home_bp == 0);
    CHECK(scenario(parse_options({{"production.home_bp", "same"}})).find("home_bp") ==
          std::string::npos);
}

TEST_CASE("M7 combat.hits_on and saves_on of any faces: a set not ending at 6 counts its faces",
          "[msc][M7][options]") {
    CHECK(top_faces_from(FaceSet::range(5, 6)) == 5);
    CHECK(top_faces_from(FaceSet::range(1, 6)) == 1);
    CHECK(top_faces_from(FaceSet::range(4, 5)) == 0);
    CHECK(top_faces_from(FaceSet{}) == 0);
    CombatRules r;
    r.hits_on = *parse_faces("1,3", 6);
    r.saves_on = *parse_faces("2", 6);
    // 14 offence: 2 attack dice (1: a hit, 5: a miss); 3 defence: 1 save die (2: a save).
    ScriptedDice d{1, 5, 2};
    CHECK(resolve_attack(14, 3, d, r) == 0);
    ScriptedDice e{1, 3, 6};
    CHECK(resolve_attack(14, 3, e, r) == 2);
    ScriptedDice book{1, 3, 6};  // the book's 5-6: no hit, and the 6 saves nothing
    CHECK(resolve_attack(14, 3, book) == 0);
}

TEST_CASE("M1 the scenario names the map, then its width, height and systems, in that order",
          "[M1][options]") {
    // Scenario strings are what baselines and shards record: their order is part of the output
    // (a declaration that listed systems before height changed it, caught by the docs' figures).
    const std::string s = scenario(parse_options({{"map", "random"}}));
    CHECK(s.rfind("map=random width=", 0) == 0);
    const auto width = s.find("width="), height = s.find("height="), systems = s.find("systems=");
    REQUIRE(systems != std::string::npos);
    CHECK(width < height);
    CHECK(height < systems);
}
