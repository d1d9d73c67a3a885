// Bosconian-D rule tests: each ruling (B1-B9) pinned to the exact sequence of faces the rule book
// prescribes, replayed by scripted dice. A test fails if the kernel asks for one die more or one
// die less than the ruling requires.
#include <algorithm>
#include <array>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstring>
#include <random>

#include "engine/bosconian/bench_naive.hpp"
#include "engine/bosconian/bosconian.hpp"
#include "engine/bosconian/die_by_die.hpp"
#include "engine/bosconian/policies.hpp"
#include "engine/dice.hpp"

using namespace odds;
using namespace odds::bosconian;

namespace {

Options options(Settings s) { return parse_options(s); }

// Plays one mission on scripted faces and requires every face to be used.
Outcome play_script(const Options& o, std::vector<int> faces) {
    ScriptedDice dice(std::move(faces));
    RulesAsWritten policy;
    const Outcome r = play(o, policy, dice);
    INFO("faces left unused: " << dice.remaining());
    REQUIRE(dice.remaining() == 0);
    return r;
}

State fresh(int hull = 1000) {
    State s;
    s.hull = hull;
    return s;
}

std::uint64_t mask(std::initializer_list<int> sectors) {
    std::uint64_t m = 0;
    for (int s : sectors) m |= std::uint64_t{1} << (s - 1);
    return m;
}

}  // namespace

TEST_CASE("B1 lap order: 2..N then sector 1, resolved last", "[bosconian][B1]") {
    // Bases only in sector 1: sectors 2, 3, 4 each hold one encounter (an asteroid, destroyed
    // on 2), then sector 1 holds the base (one cannon, destroyed on 1).
    const auto o =
        options({{"sectors", "4"}, {"layout", "1"}, {"base_cannons", "1"}, {"bases", "1"}});
    CHECK(o.effective_start() == 2);
    const auto r = play_script(o, {4, 2, 4, 2, 4, 2, 1});
    CHECK(r.won);
    CHECK(r.sectors_entered == 4);
    CHECK(r.encounters == 3);
}

TEST_CASE("B1 start_encounter=true: the start sector is entered first", "[bosconian][B1]") {
    const auto o = options(
        {{"sectors", "4"}, {"layout", "1"}, {"base_cannons", "1"}, {"start_encounter", "true"}});
    CHECK(o.effective_start() == 1);
    const auto r = play_script(o, {1});
    CHECK(r.won);
    CHECK(r.sectors_entered == 1);
    CHECK(r.encounters == 0);
}

TEST_CASE("B2 placement counts d6 on from the last base", "[bosconian][B2]") {
    ScriptedDice dice{3, 3, 3};
    CHECK(place_bases(36, 3, dice) == mask({4, 7, 10}));
    CHECK(dice.remaining() == 0);
}

TEST_CASE("B2 placement wraps past the last sector and rolls again on a base", "[bosconian][B2]") {
    // Six sectors: from sector 1 a 6 wraps round to sector 1 itself; the next 6 lands on that
    // base, so it is rolled again from the same base: 1 -> sector 2.
    ScriptedDice dice{6, 6, 1};
    CHECK(place_bases(6, 2, dice) == mask({1, 2}));
    CHECK(dice.remaining() == 0);
}

TEST_CASE("B2 in a quadrant of fewer than six sectors the count wraps more than once",
          "[bosconian][B2]") {
    // Three sectors: from sector 1, a 6 counts 2, 3, 1, 2, 3, 1: sector 1. Then from 1 a 5 lands
    // on 3 (2, 3, 1, 2, 3), and from 3 a 4 on 1 (a base: rolled again), a 5 on 2.
    ScriptedDice dice{6, 5, 4, 5};
    CHECK(place_bases(3, 3, dice) == mask({1, 2, 3}));
    CHECK(dice.remaining() == 0);
    // One sector: every count lands on it.
    ScriptedDice one{6};
    CHECK(place_bases(1, 1, one) == mask({1}));
    // Every base of a random layout lies inside the quadrant, whatever its size.
    for (int sectors = 1; sectors <= 12; ++sectors) {
        Dice d(static_cast<std::uint64_t>(sectors));
        for (int game = 0; game < 200; ++game) {
            const int count = 1 + static_cast<int>(below(d, static_cast<std::uint32_t>(sectors)));
            const std::uint64_t placed = place_bases(sectors, count, d);
            CHECK(std::popcount(placed) == count);
            CHECK((placed >> sectors) == 0);
        }
    }
}

TEST_CASE("B2 six occupied sectors ahead: the first free one after them, unrolled",
          "[bosconian][B2][B2a]") {
    // 1 -2-> 3, then 4, 5, 6, 7, 8; from 8 a 4 lands on 2 (9, 10, 1, 2). The six sectors ahead
    // of 2 (3..8) are all bases, so the eighth base goes to 9 without a roll.
    ScriptedDice dice{2, 1, 1, 1, 1, 1, 4};
    CHECK(place_bases(10, 8, dice) == mask({2, 3, 4, 5, 6, 7, 8, 9}));
    CHECK(dice.remaining() == 0);
}

TEST_CASE("B2 bases=2d6 rolls the count first, then places", "[bosconian][B2]") {
    // 2d6 = 1 + 1 = 2 bases; placed at 2 and 3; both destroyed by one-cannon fights.
    const auto o = options({{"base_cannons", "1"}});
    const auto r = play_script(o, {1, 1, 1, 1, 1, 1});
    CHECK(r.bases_placed == 2);
    CHECK(r.bases_destroyed == 2);
    CHECK(r.sectors_entered == 2);
    CHECK(r.won);
}

TEST_CASE("B2 bases takes dice: the count is rolled from them first", "[bosconian][B2]") {
    // bases=1d3: a 2 gives two bases; placed at 2 and 3 (d6 gaps of 1), both destroyed by
    // one-cannon fights (a 1 destroys the cannon). The book's 2d6 would read 2 + 1 = 3 bases
    // and run out of dice.
    const auto o = options({{"bases", "1d3"}, {"base_cannons", "1"}});
    const auto r = play_script(o, {2, 1, 1, 1, 1});
    CHECK(r.bases_placed == 2);
    CHECK(r.bases_destroyed == 2);
    CHECK(r.won);
    // A whole number is a fixed count: no die rolled for it.
    const auto fixed = play_script(options({{"bases", "1"}, {"base_cannons", "1"}}), {1, 1});
    CHECK(fixed.bases_placed == 1);
    CHECK(fixed.won);
}

TEST_CASE("B2 placement.gap counts the variant's gap on from the last base",
          "[bosconian][B2][B2c]") {
    // A d8 gap: 1 + 8 = 9, 9 + 7 = 16, 16 + 3 = 19. On the book's d6 an 8 cannot be rolled.
    ScriptedDice d8{8, 7, 3};
    CHECK(place_bases(36, 3, DiceExpr::of(1, 8), d8) == mask({9, 16, 19}));
    CHECK(d8.remaining() == 0);
    // 1d2+3 counts 4 or 5 on: 1 + 4 = 5, 5 + 5 = 10.
    ScriptedDice plus{1, 2};
    CHECK(place_bases(36, 2, DiceExpr::of(1, 2, 3), plus) == mask({5, 10}));
    CHECK(plus.remaining() == 0);
    // The whole mission takes it: bases=1, placement.gap=1d8, a gap of 8 puts the base in
    // sector 9, the ship crosses sectors 2..8 (one quiet encounter each: face 6 is a spy ship,
    // destroyed on 3) and fights at 9 (a 1 destroys the one cannon).
    const auto o = options({{"bases", "1"}, {"placement.gap", "1d8"}, {"base_cannons", "1"}});
    std::vector<int> faces{8};
    for (int sector = 2; sector <= 8; ++sector) faces.insert(faces.end(), {6, 3});
    faces.push_back(1);
    const auto r = play_script(o, faces);
    CHECK(r.won);
    CHECK(r.sectors_entered == 8);
    CHECK(r.encounters == 7);
}

TEST_CASE("B2c the sectors a variant's gap reaches all hold bases: the first free one after them",
          "[bosconian][B2][B2a][B2c]") {
    // A d2 gap in five sectors: 1 -1-> 2 -1-> 3 -2-> 5 -1-> 1 (wrapping). From 1 the sectors a
    // d2 reaches (2, 3) hold bases, so the fifth base goes to 4, the first free one after them,
    // without a roll.
    ScriptedDice dice{1, 1, 2, 1};
    CHECK(place_bases(5, 5, DiceExpr::of(1, 2), dice) == mask({1, 2, 3, 4, 5}));
    CHECK(dice.remaining() == 0);
}

TEST_CASE(
    "B2d after 16 misses in a row a gap that rarely lands is drawn from its law on the "
    "free sectors",
    "[bosconian][B2][B2c][B2d]") {
    // Sectors 1..11 of 12 hold bases, the last at 11: a gap of 10d2-9 (1..11) reaches sector 12
    // only with a 1 (2^-10 a roll). The scripted gaps below all land on bases; after the 16th
    // miss the gap is drawn from one raw word, and the only free sector it reaches is 12.
    const DiceExpr gap = *parse_dice("10d2-9");
    std::uint64_t placed = mask({1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
    const int last = 11;
    auto ahead = [&](int k) { return (last - 1 + k) % 12 + 1; };
    ScriptedDice none{};
    none.script_words({0x123456789abcdef0ull});
    CHECK(redraw_gap(gap, nullptr, placed, ahead, none) == 12);
    // A roll that lands one time in 64 or more: no draw, rolling goes on (returns 0), no word
    // used. Sector 6 free: reached by a gap of 7, C(10, 6) / 2^10 = 0.2 a roll.
    placed &= ~mask({6});
    ScriptedDice no_word{};
    CHECK(redraw_gap(gap, nullptr, placed, ahead, no_word) == 0);
    // In the placement loop: 16 rolls landing on bases, then the draw's target is the base's.
    int rolls = 0, redraws = 0;
    const std::uint64_t full = place_bases_by(
        2, 2, 1, reach_table(2, 1, 1).data(),
        [&] { return ++rolls <= 1 ? 1 : 2; },  // 1 -> sector 2, then 2 -> itself
        [&](std::uint64_t, const auto&) { return ++redraws == 1 ? 1 : 0; });
    CHECK(full == mask({1, 2}));
    CHECK(rolls == 1 + kRedrawAfter);
    CHECK(redraws == 1);
}

TEST_CASE("B2d placement ends at once when the last free sectors are all but out of reach",
          "[bosconian][B2][B2d]") {
    // Issue 40: 36 bases with a gap of 32d2 rolled for hours (the last free sector: 2^-32 a
    // roll). Every mission now places all 36 at once.
    const auto o = options({{"bases", "36"}, {"placement.gap", "32d2"}});
    Dice dice(40);
    RulesAsWritten policy;
    for (int i = 0; i < 200; ++i) CHECK(play(o, policy, dice).bases_placed == 36);
}

TEST_CASE("B2d the draw follows the gap's law on the free sectors: frequencies, 4 sigma",
          "[bosconian][B2][B2d]") {
    // Free sectors 12 (gap 1: C(10,0) = 1) and 1 (gap 2: C(10,1) = 10) from the last base at 11,
    // the others all bases: a roll lands 11 times in 1024, so the gap is drawn, P(12) = 1/11 and
    // P(1) = 10/11, the binomial's own weights.
    const DiceExpr gap = *parse_dice("10d2-9");
    const std::uint64_t placed = mask({2, 3, 4, 5, 6, 7, 8, 9, 10, 11});
    auto ahead = [](int k) { return (11 - 1 + k) % 12 + 1; };
    Dice dice(2);
    const int n = 44000;
    int twelve = 0;
    for (int i = 0; i < n; ++i) {
        const int t = redraw_gap(gap, nullptr, placed, ahead, dice);
        REQUIRE((t == 12 || t == 1));
        twelve += t == 12;
    }
    const double p = 1.0 / 11;
    CHECK(std::abs(twelve - n * p) <= 4 * std::sqrt(n * p * (1 - p)));
}

TEST_CASE("B3 the ship is destroyed the moment damage reaches the hull", "[bosconian][B3][B3b]") {
    // Sector 2 is alerted (two encounters), but the first one, a cosmo-mine that hits for
    // 4d6 = 12 >= hull 10, ends the mission at once: the second encounter is never rolled.
    const auto o =
        options({{"sectors", "4"}, {"layout", "4"}, {"hull", "10"}, {"start_alert", "1"}});
    const auto r = play_script(o, {2, 1, 3, 3, 3, 3});
    CHECK_FALSE(r.won);
    CHECK(r.damage == 10);  // capped at the hull
    CHECK(r.sectors_entered == 1);
    CHECK(r.encounters == 1);
}

TEST_CASE("B3 start_damage counts toward the hull", "[bosconian][B3][B3b]") {
    const auto base = Settings{{"sectors", "4"}, {"layout", "3"}, {"base_cannons", "1"}};
    auto with = [&](const char* dmg) {
        auto s = base;
        s.push_back({"start_damage", dmg});
        return options(s);
    };
    // An asteroid hits (face 1) for 1d6 = 5.
    const auto survive = play_script(with("94"), {4, 1, 5, 1});
    CHECK(survive.won);
    CHECK(survive.damage == 99);
    const auto lost = play_script(with("95"), {4, 1, 5});
    CHECK_FALSE(lost.won);
    CHECK(lost.damage == 100);
}

TEST_CASE("B3 start_sector: bases earlier in the lap count as destroyed", "[bosconian][B3]") {
    const auto o = options(
        {{"sectors", "6"}, {"layout", "3,5"}, {"base_cannons", "1"}, {"start_sector", "4"}});
    // Enter 4 (asteroid destroyed), then 5 (the base).
    const auto r = play_script(o, {4, 2, 1});
    CHECK(r.won);
    CHECK(r.bases_placed == 2);
    CHECK(r.bases_destroyed == 1);
    CHECK(r.sectors_entered == 2);
}

TEST_CASE("B3a a random layout is rolled in full; no base ahead means already won",
          "[bosconian][B3a]") {
    // One base, placed at sector 2 (roll 1); the ship starts at sector 36, past it.
    const auto o = options({{"bases", "1"}, {"start_sector", "36"}});
    const auto r = play_script(o, {1});
    CHECK(r.won);
    CHECK(r.sectors_entered == 0);
    CHECK(r.bases_placed == 1);
    CHECK(r.bases_destroyed == 0);
}

TEST_CASE("B4 a base sector holds base combat only, even when alerted", "[bosconian][B4][B6]") {
    // The alert is spent on base sector 2, so sector 3 has one encounter, not two.
    const auto o =
        options({{"sectors", "4"}, {"layout", "2,4"}, {"base_cannons", "1"}, {"start_alert", "1"}});
    const auto r = play_script(o, {1, 4, 2, 1});
    CHECK(r.won);
    CHECK(r.encounters == 1);
}

TEST_CASE("B5 every encounter's kill faces and damage dice", "[bosconian][B5]") {
    struct Row {
        int table;
        std::vector<int> kill;
        int dice;
    };
    const Row rows[] = {{1, {1, 3, 4, 6}, 2},  // I-type missile
                        {2, {2, 3, 4, 5}, 4},  // cosmo-mine
                        {3, {1, 2, 5, 6}, 3},  // P-type missile
                        {4, {2, 4, 6}, 1}};    // asteroid
    for (const auto& row : rows) {
        for (int face = 1; face <= 6; ++face) {
            const bool killed = std::find(row.kill.begin(), row.kill.end(), face) != row.kill.end();
            std::vector<int> script{row.table, face};
            int expected = 0;
            if (!killed)
                for (int i = 0; i < row.dice; ++i) {
                    script.push_back(i % 6 + 1);
                    expected += i % 6 + 1;
                }
            ScriptedDice dice(script);
            State s = fresh();
            encounter(s, dice);
            INFO("table " << row.table << ", face " << face);
            CHECK(s.damage == expected);
            CHECK(dice.remaining() == 0);
            CHECK(s.out.encounters == 1);
        }
    }
}

TEST_CASE("B5 spy ship: destroyed on 3-4, else it escapes and adds d6 to the alert",
          "[bosconian][B5][B6]") {
    for (int face = 1; face <= 6; ++face) {
        const bool killed = face == 3 || face == 4;
        ScriptedDice dice = killed ? ScriptedDice{6, face} : ScriptedDice{6, face, 5};
        State s = fresh();
        s.alert = 2;
        encounter(s, dice);
        INFO("face " << face);
        CHECK(dice.remaining() == 0);
        CHECK(s.alert == (killed ? 2 : 7));  // an escape extends a running alert
        CHECK(s.out.alerts == (killed ? 0 : 1));
        CHECK(s.damage == 0);
    }
}

TEST_CASE("B6 an alert raised in a sector doubles the encounters of later sectors",
          "[bosconian][B6]") {
    // Sector 2: a spy escapes, alert 2. Sector 3: alerted, two asteroids. Sector 4: the base,
    // alerted too (the counter drops to 0), base combat only.
    const auto o = options({{"sectors", "4"}, {"layout", "4"}, {"base_cannons", "1"}});
    const auto r = play_script(o, {6, 1, 2, 4, 2, 4, 2, 1});
    CHECK(r.won);
    CHECK(r.alerts == 1);
    CHECK(r.encounters == 3);
}

TEST_CASE("B6 a spy escaping in an alerted sector's first encounter: the second still comes",
          "[bosconian][B6]") {
    // start_alert=1: sector 2 is alerted. Encounter 1: a spy escapes (6, 1) adding 3; encounter
    // 2 is still resolved (an asteroid, destroyed on 2). Sector 3 (the base) is alerted by the
    // new alert, which drops to 2; base combat only.
    const auto o =
        options({{"sectors", "4"}, {"layout", "3"}, {"base_cannons", "1"}, {"start_alert", "1"}});
    const auto r = play_script(o, {6, 1, 3, 4, 2, 1});
    CHECK(r.won);
    CHECK(r.encounters == 2);
    CHECK(r.alerts == 1);
}

TEST_CASE("B7 destroying the leader ends the formation attack", "[bosconian][B7]") {
    // Formation, I-type (1), leader 3; targeting roll 3 hits on the leader, killed on 1.
    ScriptedDice dice{5, 1, 3, 3, 1};
    State s = fresh();
    encounter(s, dice);
    CHECK(dice.remaining() == 0);
    CHECK(s.damage == 0);
}

TEST_CASE("B7 a leader number of 6 is rolled again", "[bosconian][B7]") {
    // P-type (4); leader rolls 6, 6, 2; targeting 2 -> leader, killed on 5 (P-type).
    ScriptedDice dice{5, 4, 6, 6, 2, 2, 5};
    State s = fresh();
    encounter(s, dice);
    CHECK(dice.remaining() == 0);
    CHECK(s.damage == 0);
}

TEST_CASE("B7 a leader that hits is spent and the others fight on", "[bosconian][B7]") {
    // I-type, leader 2, targeted (2), hits on 2 for 2d6 = 1 + 1. Only the four others remain:
    // no more targeting rolls; each is destroyed on 1.
    ScriptedDice dice{5, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1};
    State s = fresh();
    encounter(s, dice);
    CHECK(dice.remaining() == 0);
    CHECK(s.damage == 2);
}

TEST_CASE("B7 with only the leader left it is targeted without a roll", "[bosconian][B7]") {
    // I-type, leader 1. Targeting rolls 2, 3, 4, 5 pick the others; each is destroyed (1, 3, 4,
    // 6) or hits (2: 2d6 = 6 + 6). Then the leader alone: destroyed on 3.
    ScriptedDice dice{5, 1, 1, 2, 1, 3, 2, 6, 6, 4, 4, 5, 6, 3};
    State s = fresh();
    encounter(s, dice);
    CHECK(dice.remaining() == 0);
    CHECK(s.damage == 12);
}

TEST_CASE("B7 a targeting roll of 6 never picks the leader", "[bosconian][B7]") {
    // Leader 5; targeting 6 -> another missile, destroyed (1); targeting 5 -> leader, killed.
    ScriptedDice dice{5, 1, 5, 6, 1, 5, 1};
    State s = fresh();
    encounter(s, dice);
    CHECK(dice.remaining() == 0);
}

TEST_CASE("B7 the ship destroyed mid-formation ends the mission at once", "[bosconian][B7][B3]") {
    // Hull 5: the first missile (P-type, hits on 3) does 3d6 = 2 + 2 + 2 = 6.
    const auto o = options({{"sectors", "4"}, {"layout", "4"}, {"hull", "5"}});
    const auto r = play_script(o, {5, 4, 1, 2, 3, 2, 2, 2});
    CHECK_FALSE(r.won);
    CHECK(r.damage == 5);
}

TEST_CASE("B8 base combat: cannons, E-type missiles and cannon fire", "[bosconian][B8]") {
    // Two cannons. Round 1: fire (2), cannon fire (2): shots 6+6, evaded 1+1: 10 damage.
    // Round 2: a cannon destroyed (1). Round 3: fire (4), E-type (1), destroyed on 3.
    // Round 4: fire (2), cannon fire (4): shots 1, evaded 6: no damage (never negative).
    // Round 5: the last cannon destroyed (5): the base is destroyed.
    ScriptedDice dice{2, 2, 6, 6, 1, 1, 1, 4, 1, 3, 2, 4, 1, 6, 5};
    State s = fresh();
    CHECK(base_combat(s, 2, dice));
    CHECK(dice.remaining() == 0);
    CHECK(s.damage == 10);
}

TEST_CASE("B8 an E-type missile that hits does 4d6", "[bosconian][B8]") {
    for (int face = 1; face <= 6; ++face) {
        const bool killed = face == 3 || face == 4;
        std::vector<int> script{2, 1, face};
        if (!killed) script.insert(script.end(), {1, 2, 3, 4});
        script.push_back(1);  // then the single cannon is destroyed
        ScriptedDice dice(script);
        State s = fresh();
        INFO("face " << face);
        CHECK(base_combat(s, 1, dice));
        CHECK(dice.remaining() == 0);
        CHECK(s.damage == (killed ? 0 : 10));
    }
}

TEST_CASE("B8 base combat stops when the ship is destroyed; the base stands",
          "[bosconian][B8][B9]") {
    const auto o =
        options({{"sectors", "4"}, {"layout", "2"}, {"hull", "10"}, {"base_cannons", "2"}});
    const auto r = play_script(o, {2, 2, 6, 6, 1, 1});
    CHECK_FALSE(r.won);
    CHECK(r.bases_destroyed == 0);
    CHECK(r.damage == 10);
}

TEST_CASE("B9 the mission is won the moment the last base falls", "[bosconian][B9]") {
    const auto o = options({{"sectors", "36"}, {"layout", "2"}, {"base_cannons", "1"}});
    const auto r = play_script(o, {3});
    CHECK(r.won);
    CHECK(r.sectors_entered == 1);
    CHECK(r.damage == 0);
}

TEST_CASE("Options are checked and spelt out", "[bosconian][options][B2b]") {
    const auto o = options({});
    CHECK(scenario(o) ==
          "sectors=36 bases=2d6 layout=random hull=100 base_cannons=6 start_damage=0 "
          "start_sector=2 start_alert=0 start_encounter=false");
    CHECK(scenario(options({{"layout", "9,4,15"}})).find("bases=3 layout=4,9,15") !=
          std::string::npos);
    const Settings bad[] = {
        {{"hull", "0"}},
        {{"hull", "abc"}},
        {{"sectors", "65"}},
        {{"layout", "40"}},
        {{"layout", "4,4"}},
        {{"layout", "4,,5"}},
        {{"layout", ""}},
        {{"bases", "7d6"}},    // B2b: may roll 42 bases in 36 sectors
        {{"bases", "1d6-1"}},  // may roll no base
        {{"bases", "0"}},
        {{"placement.gap", "0"}},
        {{"placement.gap", "1d6-1"}},  // a gap of 0 would stay on the last base
        {{"start_damage", "100"}},
        {{"start_sector", "37"}},
        {{"start_encounter", "maybe"}},
        {{"colour", "red"}},
        {{"hull", "5"}, {"hull", "6"}},
        {{"sectors", "10"}},                       // B2b: 2d6 bases may need 12 sectors
        {{"sectors", "12"}, {"bases", "13"}},      // B2b: more bases than sectors
        {{"layout", "4,9"}, {"bases", "3"}},       // the count contradicts the layout
        {{"layout", "4"}, {"start_sector", "5"}},  // no base left ahead
    };
    for (const auto& s : bad) {
        INFO(s.front().first << "=" << s.front().second);
        CHECK_THROWS_AS(parse_options(s), UsageError);
    }
    // B2b's limits themselves are allowed: 2d6 in 12 sectors, a base in every sector.
    CHECK(options({{"sectors", "12"}}).bases == DiceExpr::of(2, 6));
    CHECK(options({{"sectors", "10"}, {"bases", "10"}}).bases == DiceExpr::of(0, 0, 10));
    CHECK(options({{"sectors", "10"}, {"bases", "1d10"}}).bases == DiceExpr::of(1, 10));
}

TEST_CASE("the hand-written loop of benchmarks/ plays the kernel's missions, die for die",
          "[bosconian]") {
    // The speed comparison (BM_BosconianNaive*) is of the same game: on the same dice both play
    // the same 20,000 missions, every one rolling the same number of dice.
    const Options o = options({});
    RulesAsWritten policy;
    Dice kernel_dice(11), naive_dice(11);
    auto d6 = [&] { return naive_dice.d6(); };
    for (int i = 0; i < 20000; ++i) {
        const Outcome k = play(o, policy, kernel_dice);
        const naive::Mission n = naive::play_mission(d6);
        REQUIRE(k.won == n.won);
        REQUIRE(k.damage == n.damage);
        REQUIRE(k.sectors_entered == n.sectors_entered);
        REQUIRE(k.bases_placed == n.bases_placed);
        REQUIRE(k.bases_destroyed == n.bases_destroyed);
        REQUIRE(k.encounters == n.encounters);
        REQUIRE(k.alerts == n.alerts);
        REQUIRE(kernel_dice.d6() == naive_dice.d6());  // the same dice used, to the last
    }
}

TEST_CASE("B5 cosmo_mine.damage and cosmo_mine.destroyed_on: the book's and a variant's",
          "[bosconian][B5][variant]") {
    // A cosmo-mine (encounter 2) that escapes its d6 (a 1: not in 2-5) hits for 4d6 by the book.
    State book = fresh();
    {
        ScriptedDice dice({2, 1, 1, 2, 3, 4});
        encounter(options({}), book, dice);
        CHECK(dice.remaining() == 0);
    }
    CHECK(book.damage == 10);
    // cosmo_mine.damage=3d6: three dice, not four.
    State three = fresh();
    {
        ScriptedDice dice({2, 1, 1, 2, 3});
        encounter(options({{"cosmo_mine.damage", "3d6"}}), three, dice);
        CHECK(dice.remaining() == 0);
    }
    CHECK(three.damage == 6);
    CHECK(three.out.encounters == 1);
    // cosmo_mine.damage=1d8+2: a d8 and a constant.
    State d8 = fresh();
    {
        ScriptedDice dice({2, 1, 8});
        encounter(options({{"cosmo_mine.damage", "1d8+2"}}), d8, dice);
        CHECK(dice.remaining() == 0);
    }
    CHECK(d8.damage == 10);
    // cosmo_mine.destroyed_on: a 5 destroys it by the book, not under 2-4.
    const auto only24 = options({{"cosmo_mine.destroyed_on", "2-4"}});
    State killed = fresh();
    {
        ScriptedDice dice({2, 5});
        encounter(options({}), killed, dice);
        CHECK(dice.remaining() == 0);
    }
    CHECK(killed.damage == 0);
    State hit = fresh();
    {
        ScriptedDice dice({2, 5, 6, 6, 6, 6});
        encounter(only24, hit, dice);
        CHECK(dice.remaining() == 0);
    }
    CHECK(hit.damage == 24);
    // The other encounters keep the book's table under a variant (an I-type missile, 2d6).
    State other = fresh();
    {
        ScriptedDice dice({1, 2, 3, 4});
        encounter(only24, other, dice);
        CHECK(dice.remaining() == 0);
    }
    CHECK(other.damage == 7);
    // A whole mission under the variant (the tables compiled from it): sector 2 empty, a cosmo-mine
    // of 3d6 = 12 >= hull 10 ends it.
    const auto o =
        options({{"sectors", "4"}, {"layout", "4"}, {"hull", "10"}, {"cosmo_mine.damage", "3d6"}});
    const auto r = play_script(o, {2, 1, 4, 4, 4});
    CHECK_FALSE(r.won);
    CHECK(r.damage == 10);
    CHECK(r.encounters == 1);
    CHECK(scenario(o).find("cosmo_mine.damage=3d6") != std::string::npos);
    CHECK(scenario(options({})).find("cosmo_mine") == std::string::npos);
}

TEST_CASE("B5 B6 spy_ship.alert and spy_ship.destroyed_on: the book's and a variant's",
          "[bosconian][B5][B6][variant]") {
    // A spy ship (encounter 6) that escapes (a 1: not in 3-4) adds 1d6 of alert by the book.
    auto run = [](const Options& o, std::vector<int> faces) {
        ScriptedDice dice(std::move(faces));
        State s = fresh();
        encounter(o, s, dice);
        CHECK(dice.remaining() == 0);
        return s;
    };
    const State book = run(options({}), {6, 1, 5});
    CHECK(book.alert == 5);
    CHECK(book.out.alerts == 1);
    const State two = run(options({{"spy_ship.alert", "2d6"}}), {6, 1, 5, 4});
    CHECK(two.alert == 9);
    CHECK(two.out.alerts == 1);
    // destroyed_on=1: a 1 destroys it (no alert die), a 3 lets it escape.
    const auto one = options({{"spy_ship.destroyed_on", "1"}});
    const State destroyed = run(one, {6, 1});
    CHECK(destroyed.alert == 0);
    CHECK(destroyed.out.alerts == 0);
    const State escaped = run(one, {6, 3, 2});
    CHECK(escaped.alert == 2);
    CHECK(escaped.out.alerts == 1);
    CHECK(run(options({}), {6, 3}).alert == 0);  // the book: a 3 destroys it
}

TEST_CASE("B5 asteroid.damage and asteroid.destroyed_on: the book's and a variant's",
          "[bosconian][B5][variant]") {
    auto run = [](const Options& o, std::vector<int> faces) {
        ScriptedDice dice(std::move(faces));
        State s = fresh();
        encounter(o, s, dice);
        CHECK(dice.remaining() == 0);
        return s.damage;
    };
    CHECK(run(options({}), {4, 1, 5}) == 5);  // the book: a 1 hits for 1d6
    CHECK(run(options({}), {4, 2}) == 0);     // a 2 destroys it
    CHECK(run(options({{"asteroid.damage", "2d6+1"}}), {4, 1, 5, 3}) == 9);
    CHECK(run(options({{"asteroid.destroyed_on", "1"}}), {4, 1}) == 0);
    CHECK(run(options({{"asteroid.destroyed_on", "1"}}), {4, 2, 6}) == 6);
}

namespace {
// One encounter under `o` on scripted faces, every face used.
State encounter_on(const Options& o, std::vector<int> faces) {
    ScriptedDice dice(std::move(faces));
    State s = fresh();
    encounter(o, s, dice);
    INFO("faces left unused: " << dice.remaining());
    CHECK(dice.remaining() == 0);
    return s;
}
// One base fight of `cannons` under `o` on scripted faces, every face used: the damage, or -1
// when the base stands (the ship destroyed).
int fight_on(const Options& o, int cannons, std::vector<int> faces) {
    ScriptedDice dice(std::move(faces));
    State s = fresh();
    const bool destroyed = base_combat(o, s, cannons, dice);
    INFO("faces left unused: " << dice.remaining());
    CHECK(dice.remaining() == 0);
    return destroyed ? s.damage : -1;
}
}  // namespace

TEST_CASE("B5 encounter.*: which face of the encounter die gives which encounter",
          "[bosconian][B5][variant]") {
    // The book: a 1 is an I-type missile (a 2 hits it: 2d6), a 2 a cosmo-mine (a 1 hits: 4d6).
    CHECK(encounter_on(options({}), {1, 2, 3, 4}).damage == 7);
    CHECK(encounter_on(options({}), {2, 1, 1, 1, 1, 1}).damage == 4);
    // Swapped: a 1 is the cosmo-mine, a 2 the I-type missile.
    const auto swapped = options({{"encounter.i_missile", "2"}, {"encounter.cosmo_mine", "1"}});
    CHECK(encounter_on(swapped, {1, 1, 1, 1, 1, 1}).damage == 4);
    CHECK(encounter_on(swapped, {2, 2, 3, 4}).damage == 7);
    // No spy ships: the 6 is an asteroid too (a 1 hits it for 1d6).
    const auto rocks = options({{"encounter.spy_ship", "none"}, {"encounter.asteroid", "4,6"}});
    const State rock = encounter_on(rocks, {6, 1, 5});
    CHECK(rock.damage == 5);
    CHECK(rock.alert == 0);
    CHECK(encounter_on(options({}), {6, 1, 5}).alert == 5);  // the book's spy ship
    // A formation on 5 and 6 (type 1: I-type, leader 1, the leader targeted and destroyed).
    const auto two = options({{"encounter.formation", "5,6"}, {"encounter.spy_ship", "none"}});
    CHECK(encounter_on(two, {6, 1, 1, 1, 1}).damage == 0);
    CHECK(scenario(swapped).find("encounter.i_missile=2 encounter.cosmo_mine=1") !=
          std::string::npos);
    CHECK(scenario(options({})).find("encounter.") == std::string::npos);
}

TEST_CASE("B5a B7a B8a: encounter faces given, a leader number that stands, a cannon face",
          "[bosconian][B5][B5a][B7a][B8a][options]") {
    auto refused = [](Settings s) {
        try {
            options(std::move(s));
        } catch (const UsageError& e) {
            return std::string(e.what());
        }
        return std::string();
    };
    // Two options given may not share a face.
    CHECK(refused({{"encounter.cosmo_mine", "1-2"}, {"encounter.i_missile", "1"}}) ==
          "bosconian: encounter.cosmo_mine='1,2' is not valid; encounter.cosmo_mine takes faces "
          "no other encounter.* option given gives (face 1 is encounter.i_missile's, B5a)");
    // One given takes its faces from the book's encounters: the I-type missile loses its 1.
    const auto mines = options({{"encounter.cosmo_mine", "1-2"}});
    CHECK(mines.encounter_i_missile.empty());
    CHECK(encounter_on(mines, {1, 1, 1, 1, 1, 1}).damage == 4);  // a cosmo-mine's 4d6
    CHECK(scenario(mines).find("encounter.i_missile=none encounter.cosmo_mine=1,2") !=
          std::string::npos);
    // A face of no encounter is a quiet roll: no die after it.
    const State quiet = encounter_on(options({{"encounter.spy_ship", "none"}}), {6});
    CHECK(quiet.out.encounters == 1);
    CHECK(quiet.damage == 0);
    CHECK(quiet.alert == 0);
    CHECK(refused({{"formation.leader_rerolled_on", "1-6"}})
              .find("formation.leader_rerolled_on takes at most five of the six faces") !=
          std::string::npos);
    CHECK(refused({{"base_combat.cannon_destroyed_on", "none"}})
              .find("base_combat.cannon_destroyed_on takes at least one face") !=
          std::string::npos);
    CHECK(refused({{"formation.missiles", "0"}}).find("formation.missiles") != std::string::npos);
    CHECK(refused({{"alert.encounters", "7"}}).find("alert.encounters") != std::string::npos);
    CHECK(refused({{"encounter.asteroid", "4"}, {"encounter.spy_ship", "6"}}).empty());
}

TEST_CASE("B5 i_missile.* and p_missile.*: the book's and a variant's",
          "[bosconian][B5][variant]") {
    // I-type (encounter 1): destroyed on 1, 3, 4, 6, else 2d6.
    CHECK(encounter_on(options({}), {1, 1}).damage == 0);
    CHECK(encounter_on(options({}), {1, 2, 3, 4}).damage == 7);
    const auto i = options({{"i_missile.destroyed_on", "2"}, {"i_missile.damage", "1d8+1"}});
    CHECK(encounter_on(i, {1, 2}).damage == 0);
    CHECK(encounter_on(i, {1, 1, 8}).damage == 9);
    // P-type (encounter 3): destroyed on 1, 2, 5, 6, else 3d6.
    CHECK(encounter_on(options({}), {3, 5}).damage == 0);
    CHECK(encounter_on(options({}), {3, 3, 1, 2, 3}).damage == 6);
    const auto p = options({{"p_missile.destroyed_on", "3-4"}, {"p_missile.damage", "2d6"}});
    CHECK(encounter_on(p, {3, 3}).damage == 0);
    CHECK(encounter_on(p, {3, 5, 1, 2}).damage == 3);
    // A formation's missiles follow them (B7): type 1 I-type, leader 1, the leader targeted
    // (only it: formation.missiles=1), its die a 2 hits for the missile's damage.
    const auto one = options({{"formation.missiles", "1"}});
    CHECK(encounter_on(one, {5, 1, 1, 2, 6, 6}).damage == 12);
    const auto one_i = options({{"formation.missiles", "1"}, {"i_missile.damage", "1d8+1"}});
    CHECK(encounter_on(one_i, {5, 1, 1, 2, 8}).damage == 9);
}

TEST_CASE("B7 formation.*: missiles, type and the leader's number", "[bosconian][B7][variant]") {
    // Five missiles by the book: type 1 (I-type), leader 1; four others targeted (a 2) and
    // destroyed (a 1), then the leader alone, destroyed: 2 + 4 x 2 + 1 faces.
    CHECK(encounter_on(options({}), {5, 1, 1, 2, 1, 2, 1, 2, 1, 2, 1, 1}).damage == 0);
    // Three missiles: two others, then the leader.
    const auto three = options({{"formation.missiles", "3"}});
    CHECK(encounter_on(three, {5, 1, 1, 2, 1, 2, 1, 1}).damage == 0);
    // The type die: a 4 is P-type by the book (a 3 hits it for 3d6), I-type under 1-4 (a 3
    // destroys it).
    const auto one = options({{"formation.missiles", "1"}});
    CHECK(encounter_on(one, {5, 4, 1, 3, 1, 1, 1}).damage == 3);
    const auto one_i = options({{"formation.missiles", "1"}, {"formation.i_type", "1-4"}});
    CHECK(encounter_on(one_i, {5, 4, 1, 3}).damage == 0);
    // The leader's number: a 6 is rolled again by the book (leader 2, targeted by a 2 and
    // destroyed); with none rolled again the leader is 6, targeted by a 6.
    const auto two = options({{"formation.missiles", "2"}});
    CHECK(encounter_on(two, {5, 1, 6, 2, 2, 1}).damage == 0);
    const auto two_6 =
        options({{"formation.missiles", "2"}, {"formation.leader_rerolled_on", "none"}});
    CHECK(encounter_on(two_6, {5, 1, 6, 6, 1}).damage == 0);
    CHECK(scenario(three).find("formation.missiles=3") != std::string::npos);
}

TEST_CASE("B6 alert.encounters: the encounters of an alerted sector", "[bosconian][B6][variant]") {
    // Lap 2, 3, 1; sector 2 alerted: two asteroids (destroyed on 2) by the book, one in sector 3,
    // then the base in sector 1 (one cannon, destroyed on 1).
    const Settings set{
        {"sectors", "3"}, {"layout", "1"}, {"base_cannons", "1"}, {"start_alert", "1"}};
    const auto book = play_script(options(set), {4, 2, 4, 2, 4, 2, 1});
    CHECK(book.won);
    CHECK(book.encounters == 3);
    Settings three = set;
    three.push_back({"alert.encounters", "3"});
    const auto r = play_script(options(three), {4, 2, 4, 2, 4, 2, 4, 2, 1});
    CHECK(r.won);
    CHECK(r.encounters == 4);
    Settings one = set;
    one.push_back({"alert.encounters", "1"});
    CHECK(play_script(options(one), {4, 2, 4, 2, 1}).encounters == 2);
    // The metrics' ranges follow: at most alert.encounters a sector.
    CHECK(metric_specs(options(three))[kEncounters].hi == 9);
    CHECK(metric_specs(options(set))[kEncounters].hi == 6);
}

TEST_CASE("B8 base_combat.* and base_attack.*: the combat and attack dice",
          "[bosconian][B8][variant]") {
    // One cannon. By the book a 1 destroys it; under cannon_destroyed_on=2 a 1 means the base
    // attacks (a 1: an E-type missile, a 3 destroys it), then a 2 destroys the cannon.
    CHECK(fight_on(options({}), 1, {1}) == 0);
    const auto two = options({{"base_combat.cannon_destroyed_on", "2"}});
    CHECK(fight_on(two, 1, {1, 1, 3, 2}) == 0);
    // The attack die: a 1 fires an E-type missile by the book (destroyed on 3); under
    // e_missile_on=2,4,6 it fires the cannon: 5 shots, 3 evaded, 2 damage.
    CHECK(fight_on(options({}), 1, {2, 1, 3, 1}) == 0);
    const auto even = options({{"base_attack.e_missile_on", "2,4,6"}});
    CHECK(fight_on(even, 1, {2, 1, 5, 3, 1}) == 2);
    CHECK(fight_on(options({}), 1, {2, 2, 5, 3, 1}) == 2);  // the book: a 2 fires the cannon
}

TEST_CASE("B8 e_missile.* and cannon_fire.*: the base's weapons", "[bosconian][B8][variant]") {
    // The E-type missile: a 1 hits it for 4d6 by the book; destroyed on 1 and 2d8 otherwise.
    CHECK(fight_on(options({}), 1, {2, 1, 1, 1, 2, 3, 4, 1}) == 10);
    const auto e = options({{"e_missile.destroyed_on", "1"}, {"e_missile.damage", "2d8"}});
    CHECK(fight_on(e, 1, {2, 1, 1, 1}) == 0);
    CHECK(fight_on(e, 1, {2, 1, 3, 8, 7, 1}) == 15);
    // Cannon fire with two cannons: a d6 each for the shots and the evasions by the book
    // (12 - 2); under shots=2d6 and evaded=1d4, two dice a cannon and a d4 a cannon fired.
    CHECK(fight_on(options({}), 2, {2, 2, 6, 6, 1, 1, 1, 1}) == 10);
    const auto fire = options({{"cannon_fire.shots", "2d6"}, {"cannon_fire.evaded", "1d4"}});
    CHECK(fight_on(fire, 2, {2, 2, 6, 6, 6, 6, 1, 4, 1, 1}) == 19);
    // More cannons than a round read ahead takes (Tables::read_ahead): nine fire (sixes), the ship
    // evades ones, then a 1 destroys each cannon in turn.
    auto faces = [](int sixes, int ones) {
        std::vector<int> f{2, 2};
        f.insert(f.end(), static_cast<std::size_t>(sixes), 6);
        f.insert(f.end(), static_cast<std::size_t>(ones), 1);
        return f;
    };
    CHECK(fight_on(options({}), 9, faces(9, 9 + 9)) == 54 - 9);
    CHECK(fight_on(fire, 9, faces(18, 9 + 9)) == 108 - 9);
}

namespace {
// Dice whose raw words (a die of other than six faces) come from a stream of their own, so that
// two ways of reading the same faces (ahead, or one at a time) draw the same words too.
struct SplitDice {
    Dice faces;
    Dice words;
    int d6() { return faces.d6(); }
    int sum_d6(int n) { return faces.sum_d6(n); }
    const std::uint8_t* peek(int n) { return faces.peek(n); }
    void skip(int k) { faces.skip(k); }
    std::uint64_t word() { return words.word(); }
};
// A random legal value of every table option of B2-B8 (about half of them changed).
Settings random_tables(std::mt19937_64& rng) {
    auto pick = [&](std::initializer_list<const char*> xs) {
        return std::string(xs.begin()[rng() % xs.size()]);
    };
    // Kept, exploding, counted and rerolled dice too (rule_values.hpp): none is held as d6s.
    const char* dice[] = {"1d6",      "2d6",   "4d6",         "3d6+2",  "1d8",    "2d4+1d6",
                          "9d6",      "8d6-3", "5",           "0",      "4d6kh3", "3d6!",
                          "6d6>=4+1", "2d6r1", "1d6ro<2+1d4", "2d20kl1"};
    const char* sets[] = {"1", "2-5", "1,3,5", "2,4,6", "none", "1-6", "3-4", "6"};
    auto any_dice = [&] { return std::string(dice[rng() % std::size(dice)]); };
    auto any_set = [&] { return std::string(sets[rng() % 8]); };
    Settings s;
    auto maybe = [&](const char* name, const std::string& v) {
        if (rng() % 2) s.push_back({name, v});
    };
    for (const char* t : {"i_missile", "cosmo_mine", "p_missile", "asteroid", "e_missile"}) {
        maybe((std::string(t) + ".destroyed_on").c_str(), any_set());
        maybe((std::string(t) + ".damage").c_str(), any_dice());
    }
    maybe("spy_ship.destroyed_on", any_set());
    maybe("spy_ship.alert", pick({"1d6", "2d6", "1d8", "3"}));
    // B5a: encounter faces given to one encounter each.
    if (rng() % 2) {
        s.push_back({"encounter.i_missile", pick({"1,3", "1", "none"})});
        s.push_back({"encounter.asteroid", pick({"4,6", "4", "2"})});
    }
    maybe("formation.missiles", pick({"1", "3", "8", "20"}));
    maybe("formation.i_type", any_set());
    maybe("formation.leader_rerolled_on", pick({"none", "6", "5-6", "1-5"}));
    maybe("alert.encounters", pick({"1", "3", "6"}));
    maybe("base_combat.cannon_destroyed_on", pick({"1,3,5", "2,4,6", "1", "1-5", "6"}));
    maybe("base_attack.e_missile_on", any_set());
    maybe("cannon_fire.shots", pick({"1d6", "2d6", "1d6+1", "3d6", "1d8", "9d6"}));
    maybe("cannon_fire.evaded", pick({"1d6", "2d6", "0", "1d6-1", "1d4"}));
    maybe("base_cannons", pick({"1", "6", "9", "12"}));
    maybe("placement.gap", pick({"1d6", "2d6", "1d6+2", "1d8", "1d6!", "3d6kl1", "2d6r>4"}));
    maybe("hull", pick({"60", "100", "300"}));
    maybe("start_alert", pick({"0", "3"}));
    return s;
}
}  // namespace

TEST_CASE("the table-driven kernel plays every variant die for die like the rule-by-rule reference",
          "[bosconian][variant]") {
    // play() reads the tables compile_tables builds from the options, faces read ahead; the
    // reference (die_by_die.hpp) rolls every rule as the book reads, one die at a time, from
    // the options' values. Under the book and 300 random variants they must play the same
    // missions, to the last die, and leave the dice at the same face.
    std::mt19937_64 rng(45);
    std::vector<Settings> variants{Settings{}, Settings{{"base_cannons", "11"}, {"hull", "300"}},
                                   Settings{{"start_alert", "5"}, {"sectors", "20"}}};
    for (int i = 0; i < 300; ++i) variants.push_back(random_tables(rng));
    int played = 0;
    for (const Settings& set : variants) {
        std::string text;
        for (const auto& [k, v] : set) text += k + "=" + v + " ";
        INFO(text);
        Options o;
        try {
            o = options(set);
        } catch (const UsageError&) {
            continue;  // a refused combination (B7a, B8a, B5a ...)
        }
        ++played;
        RulesAsWritten policy;
        SplitDice fast{Dice(17), Dice(18)}, reference{Dice(17), Dice(18)};
        for (int m = 0; m < 400; ++m) {
            const Outcome k = play(o, policy, fast);
            const Outcome r = die_by_die::play(o, reference);
            REQUIRE(k.won == r.won);
            REQUIRE(k.damage == r.damage);
            REQUIRE(k.sectors_entered == r.sectors_entered);
            REQUIRE(k.bases_placed == r.bases_placed);
            REQUIRE(k.bases_destroyed == r.bases_destroyed);
            REQUIRE(k.encounters == r.encounters);
            REQUIRE(k.alerts == r.alerts);
            REQUIRE(fast.d6() == reference.d6());
        }
    }
    CHECK(played > 200);
}

TEST_CASE("FaceTest: eight faces tested at once against any set of a d6's faces, as face by face",
          "[bosconian][variant]") {
    // Every set of faces 1..6 (the empty one and all six included), against words of eight
    // faces: each byte's every face in turn, the others random.
    std::mt19937_64 rng(7);
    for (unsigned set = 0; set < 64; ++set) {
        const auto bits = static_cast<std::uint8_t>(set << 1);
        const FaceTest test = FaceTest::of(bits);
        for (int trial = 0; trial < 200; ++trial) {
            std::array<std::uint8_t, 8> faces{};
            for (int k = 0; k < 8; ++k)
                faces[static_cast<std::size_t>(k)] = static_cast<std::uint8_t>(
                    k < 6 && trial < 6 ? (k + trial) % 6 + 1 : rng() % 6 + 1);
            std::uint64_t word, expected = 0;
            std::memcpy(&word, faces.data(), 8);
            for (int k = 0; k < 8; ++k)
                expected |= std::uint64_t{(bits >> faces[static_cast<std::size_t>(k)]) & 1u}
                            << (8 * k);
            INFO("set " << int{bits} << " trial " << trial);
            REQUIRE(test(word) == expected);
        }
    }
}

TEST_CASE("compile_tables: the book's tables are the odd-faced ones the base combat reads at once",
          "[bosconian][variant]") {
    CHECK(Options{}.tables.odd);
    CHECK(options({}).tables.odd);
    CHECK(options({{"bases", "3d6"}, {"hull", "150"}}).tables.odd);
    CHECK(options({{"cosmo_mine.damage", "3d6"}}).tables.odd);  // an encounter's table: one path
    CHECK_FALSE(options({{"base_combat.cannon_destroyed_on", "1,3"}}).tables.odd);
    CHECK_FALSE(options({{"cannon_fire.shots", "2d6"}}).tables.odd);
    CHECK(options({{"cannon_fire.shots", "2d6"}}).tables.read_ahead == 4);
    CHECK(options({{"cannon_fire.shots", "1d8"}}).tables.read_ahead == 0);  // round by round
    CHECK_FALSE(options({}).tables.placement_redraws);  // 1d6: each total one time in six
    CHECK_FALSE(options({{"placement.gap", "1d8+2"}}).tables.placement_redraws);
    CHECK(options({{"placement.gap", "8d6"}}).tables.placement_redraws);
    // A field changed directly is read once settle() compiles the tables again.
    Options o;
    o.asteroid_damage = DiceExpr::of(2, 6);
    o.settle();
    CHECK(o.tables.encounter[4 * 8 + 1].mask == 0xFFFF);
}
