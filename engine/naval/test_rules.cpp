// Naval Duel rules with scripted dice and a scripted policy (N1-N9): each test pins one ruling to
// the exact dice sequence the rule book prescribes.
#include <catch2/catch.hpp>
#include <memory>
#include <utility>
#include <vector>

#include "engine/dice.hpp"
#include "engine/naval/naval.hpp"
#include "engine/naval/policies.hpp"

using namespace odds;
using namespace odds::naval;
using hex::Hex;

namespace {

// Does what it is told: moves each ship to a given end (else stays), fires a given shot, boards
// and takes when told, plays every card it may (or none), discards its first card.
struct Puppet {
    int flag = -1;  // -1: the side's first ship
    bool first = true;
    std::array<Hex, kMaxShips> to{};
    std::array<int, kMaxShips> to_facing{};
    std::array<bool, kMaxShips> go{};
    std::array<Shot, kMaxShips> shot{};
    std::array<Shot, kMaxShips> second{};
    bool boards = false, takes = true, plays = true;
    bool last_first = false;  // pick_mover: the last unmoved ship in line, not the first
    bool lenient = false;     // move: stay when the scripted end is not reachable
    int discard_slot = 0;
    mutable int reach_seen = -1;

    template <class D>
    int flagship(const State& s, int side, D&) const {
        if (flag >= 0) return flag;
        for (int i = 0; i < s.n_ships; ++i)
            if (s.ship[i].side == side) return i;
        return -1;
    }
    template <class D>
    bool move_first(const State&, int, D&) const {
        return first;
    }
    template <class D>
    int pick_mover(const State& s, int side, D& d) const {
        if (last_first)
            for (int i = s.n_ships - 1; i >= 0; --i)
                if (s.ship[i].afloat && s.ship[i].side == side && !s.moved[i]) return i;
        return Gunner{}.pick_mover(s, side, d);
    }
    template <class D>
    int move(const State&, int i, const Reach& r, D&) const {
        reach_seen = r.n;
        if (!go[i]) return 0;
        for (int k = 0; k < r.n; ++k)
            if (r.end[k].pos() == to[i] && r.end[k].facing == to_facing[i]) return k;
        if (lenient) return 0;
        FAIL("the scripted end is not reachable");
        return 0;
    }
    template <class D>
    Shot broadside(const State&, int i, int nth, D&) const {
        return nth == 0 ? shot[i] : second[i];
    }
    template <class D>
    bool board(const State&, int, int, D&) const {
        return boards;
    }
    template <class D>
    bool take(const State&, int, int, D&) const {
        return takes;
    }
    template <class D>
    unsigned cards(const State& s, int side, const Roll& roll, D&) const {
        return plays ? tactics::all_applicable(s, side, roll) : 0u;
    }
    template <class D>
    int discard(const State&, int, D&) const {
        return discard_slot;
    }
};

// An empty 24 x 16 sea with `n` ships a side added by hand (no dice), all base ratings.
State sea(int per_side = 1) {
    Options o;
    o.ships = per_side;
    State s = empty_sea(o);
    s.n_ships = 2 * per_side;
    for (int i = 0; i < s.n_ships; ++i) {
        s.ship[i] = Ship{};
        s.ship[i].side = s.ship[i].origin = static_cast<std::int8_t>(i / per_side);
    }
    return s;
}

void give(State& s, int side, std::initializer_list<int> cards) {
    for (int c : cards)
        s.hand[side][static_cast<std::size_t>(s.hand_n[side]++)] = static_cast<std::uint8_t>(c);
}

int cards_total(const State& s) { return s.deck_n + s.discards_n + s.hand_n[0] + s.hand_n[1]; }

// Words that make every Fisher-Yates swap a no-op: below(n) of an all-ones word is n - 1.
std::vector<std::uint64_t> identity_shuffle(int n) {
    return std::vector<std::uint64_t>(static_cast<std::size_t>(n), 0xFFFFFFFFull);
}

}  // namespace

TEST_CASE(
    "N2 the fleet roll: National and Fleet once a side, three rolls a ship, the flagship's three "
    "more",
    "[naval][N2]") {
    Options o;
    o.ships = 2;
    // Side A: National 3 (Cannon), Fleet 5 (Crew); ship 0: 1 2 6; ship 1: 3 4 5; flagship 1: 6 6 1.
    // Side B: National 1, Fleet 2 (Movement twice); ship 2: 1 1 1; ship 3: 6 6 6; flagship 2: 3
    // 3 3.
    ScriptedDice dice{3, 5, 1, 2, 6, 3, 4, 5, 6, 6, 1, 1, 2, 1, 1, 1, 6, 6, 6, 3, 3, 3};
    dice.script_words(identity_shuffle(kDeckSize - 1));
    Puppet a, b;
    a.flag = 1;
    b.flag = 2;
    const State s = setup(o, a, b, dice);
    CHECK(dice.remaining() == 0);
    const auto ratings = [&](int i) {
        const Ship& sh = s.ship[i];
        return std::array<int, 3>{sh.movement, sh.cannon, sh.crew};
    };
    CHECK(ratings(0) == std::array<int, 3>{1 + 2, 1 + 1, 2 + 1 + 1});
    CHECK(ratings(1) == std::array<int, 3>{1 + 1, 1 + 1 + 2, 2 + 1 + 1 + 2});
    CHECK(ratings(2) == std::array<int, 3>{1 + 2 + 3, 1 + 3, 2});
    CHECK(ratings(3) == std::array<int, 3>{1 + 2, 1, 2 + 3});
    CHECK(s.ship[1].flagship);
    CHECK_FALSE(s.ship[0].flagship);
    // Every roll adds a point: each ship 4 + 5, the flagship 3 more.
    for (int i = 0; i < 4; ++i) CHECK(s.ship[i].total() == (i == 1 || i == 2 ? 12 : 9));
    CHECK(s.start_rating[0] == std::array<int, 3>{5, 6, 10});
    CHECK(s.start_rating[1] == std::array<int, 3>{9, 5, 7});
}

TEST_CASE(
    "N3 fleets in line on the short edges, bows to each other, B's placing A's turned half a "
    "circle",
    "[naval][N3][N3a]") {
    ScriptedDice dice(std::vector<int>(2 * (2 + 7 * 3 + 3), 1));
    dice.script_words(identity_shuffle(kDeckSize - 1));
    Puppet a, b;
    const State s = setup(Options{}, a, b, dice);
    REQUIRE(s.n_ships == 14);
    for (int k = 0; k < 7; ++k) {
        const Ship& sa = s.ship[k];
        const Ship& sb = s.ship[7 + k];
        CHECK(hex::offset_row(sa.pos) == 0);
        CHECK(hex::offset_col(sa.pos) == 4 + k);
        CHECK(sa.facing == hex::kS);
        CHECK(hex::offset_row(sb.pos) == 23);
        CHECK(hex::offset_col(sb.pos) == 15 - (4 + k));
        CHECK(sb.facing == hex::kN);
        CHECK(s.ship_at(sa.pos) == k);
        CHECK(s.ship_at(sb.pos) == 7 + k);
    }
    // N4: the deck holds two of each card.
    std::array<int, kCardKinds> count{};
    for (int c = 0; c < s.deck_n; ++c) ++count[s.deck[c]];
    CHECK(s.deck_n == kDeckSize);
    for (int c : count) CHECK(c == 2);
}

namespace {
// The raw word that makes below(n) give k: the middle of k's share of the words, far from the
// rejection zone.
std::uint64_t word_for(std::uint32_t k, std::uint32_t n) {
    return ((2 * std::uint64_t{k} + 1) << 31) / n;
}
}  // namespace

TEST_CASE(
    "N1a islands fall uniformly, one at a time, on the sea off the two edge rows; at most a "
    "quarter of it",
    "[naval][N1][N1a]") {
    Options o;
    o.length = 6;   // rows 0 (A's edge) to 5 (B's edge)
    o.breadth = 4;  // 4 columns
    o.ships = 1;
    o.islands = 3;
    // The sea off the edge rows is rows 1-4: 16 hexes, numbered row by row from (0, 1). Each
    // island is one draw uniform over all 16; a hex already land is drawn again. Draws: 5, 5
    // (taken: again), 0, 15.
    std::vector<std::uint64_t> words{word_for(5, 16), word_for(5, 16), word_for(0, 16),
                                     word_for(15, 16)};
    const auto deck = identity_shuffle(kDeckSize - 1);
    words.insert(words.end(), deck.begin(), deck.end());
    ScriptedDice dice(std::vector<int>(2 * (2 + 3 + 3), 1));  // the fleet rolls come after
    dice.script_words(words);
    Puppet a, b;
    const State s = setup(o, a, b, dice);
    CHECK(dice.remaining() == 0);
    std::vector<std::pair<int, int>> land;  // (column, row)
    for (int row = 0; row < s.rows; ++row)
        for (int col = 0; col < s.cols; ++col)
            if (s.is_land(hex::from_offset(col, row))) land.emplace_back(col, row);
    CHECK(land == std::vector<std::pair<int, int>>{{0, 1}, {1, 2}, {3, 4}});
    for (int c = 0; c < kDeckSize; ++c) CHECK(s.deck[c] == c / 2);  // no island word left over
    // At most a quarter of that sea: 4 of these 16; 88 of the default 16 x 22.
    CHECK(parse_options({{"width", "6"}, {"height", "4"}, {"ships", "1"}, {"islands", "4"}})
              .islands == 4);
    CHECK_THROWS_AS(
        parse_options({{"width", "6"}, {"height", "4"}, {"ships", "1"}, {"islands", "5"}}),
        UsageError);
    CHECK(parse_options({{"islands", "88"}}).islands == 88);
    CHECK_THROWS_AS(parse_options({{"islands", "89"}}), UsageError);
}

TEST_CASE(
    "N2a the fleet roll's dice in order; the default flagship: favourite attribute, then first in "
    "line",
    "[naval][N2][N2a]") {
    Options o;
    o.ships = 3;
    // Faces: 1-2 Movement, 3-4 Cannon, 5-6 Crew. Side A (gunner): National 1, Fleet 3; ships 0,
    // 1, 2: (1 1 5), (3 5 6), (4 2 6); every total 9, Cannon 2, 3, 3: ship 1 (the first of the
    // two) is flagship and rolls 2 4 5. Side B (boarder): National 5, Fleet 6; ships 3, 4, 5:
    // (3 3 1), (5 2 4), (1 2 3); Crew 4, 5, 4: ship 4 is flagship and rolls 6 6 3.
    ScriptedDice dice{1, 3, 1, 1, 5, 3, 5, 6, 4, 2, 6, 2, 4, 5,
                      5, 6, 3, 3, 1, 5, 2, 4, 1, 2, 3, 6, 6, 3};
    dice.script_words(identity_shuffle(kDeckSize - 1));
    Gunner a;
    Boarder b;
    const State s = setup(o, a, b, dice);
    CHECK(dice.remaining() == 0);
    const auto ratings = [&](int i) {
        const Ship& sh = s.ship[i];
        return std::array<int, 3>{sh.movement, sh.cannon, sh.crew};
    };
    CHECK(ratings(0) == std::array<int, 3>{4, 2, 3});
    CHECK(ratings(1) == std::array<int, 3>{3, 4, 5});  // its own 3 5 6, then the flagship's 2 4 5
    CHECK(ratings(2) == std::array<int, 3>{3, 3, 3});
    CHECK(ratings(3) == std::array<int, 3>{2, 3, 4});
    CHECK(ratings(4) == std::array<int, 3>{2, 3, 7});  // its own 5 2 4, then the flagship's 6 6 3
    CHECK(ratings(5) == std::array<int, 3>{3, 2, 4});
    for (int i = 0; i < 6; ++i) CHECK(s.ship[i].flagship == (i == 1 || i == 4));
}

TEST_CASE("N5 movement: a point a hex ahead or a hex-face turned; no land, no ship, no edge passed",
          "[naval][N5]") {
    State s = sea();
    const Hex start = hex::from_offset(8, 12);
    place(s, 0, start, hex::kN);
    place(s, 1, hex::from_offset(0, 0), hex::kS);
    Reach r;
    const auto reachable = [&](const Hex& h, int f) {
        for (int k = 0; k < r.n; ++k)
            if (r.end[k].pos() == h && r.end[k].facing == f) return true;
        return false;
    };
    reach(s, 0, 0, r);
    CHECK(r.n == 1);
    reach(s, 0, 1, r);
    CHECK(r.n == 4);  // stay, turn either way, one ahead
    reach(s, 0, 2, r);
    const Hex ahead1 = hex::neighbour(start, hex::kN), ahead2 = hex::neighbour(ahead1, hex::kN);
    CHECK(reachable(ahead2, hex::kN));
    CHECK(reachable(hex::neighbour(start, hex::kNE), hex::kNE));        // turn, then ahead
    CHECK_FALSE(reachable(hex::neighbour(start, hex::kSE), hex::kSE));  // two turns, no points left
    CHECK(reachable(start, hex::kS) == false);                          // three turns needed
    reach(s, 0, 3, r);
    CHECK(reachable(start, hex::kS));
    CHECK_FALSE(reachable(hex::neighbour(ahead2, hex::kN), hex::kNW));
    // A ship ahead blocks the way: no passing through it.
    place(s, 1, ahead1, hex::kS);
    reach(s, 0, 5, r);
    CHECK_FALSE(reachable(ahead1, hex::kN));
    CHECK_FALSE(reachable(ahead2, hex::kN));
    // Land blocks likewise; so does the map's edge.
    s.at[static_cast<std::size_t>(s.cell(ahead1))] = 0;
    s.land[static_cast<std::size_t>(s.cell(ahead1))] = 1;
    reach(s, 0, 5, r);
    CHECK_FALSE(reachable(ahead1, hex::kN));
    State e = sea();
    place(e, 0, hex::from_offset(8, 0), hex::kN);
    place(e, 1, hex::from_offset(0, 23), hex::kN);
    reach(e, 0, 3, r);
    for (int k = 0; k < r.n; ++k) CHECK(e.in_bounds(r.end[k].pos()));
}

TEST_CASE("N5 the fastest side chooses; ties roll off; the allowance is 2d6 - 4 + Movement + cards",
          "[naval][N5][N9]") {
    State s = sea();
    place(s, 0, hex::from_offset(8, 12), hex::kN);
    place(s, 1, hex::from_offset(2, 2), hex::kS);
    s.ship[1].movement = 2;  // B is faster: B chooses, no roll-off
    Puppet a, b;
    a.first = b.first = false;  // both would move second: B's choice is the one that counts
    give(s, 0, {kGustOfWind, kCatchTheWind});
    give(s, 1, {kCalmWaters});
    // A moves first: its cards +4, B's Calm Waters -2: 2d6 = 3 + 2 -> 5 - 4 + 1 + 4 - 2 = 4 points.
    // Then B: 2d6 = 1 + 1 -> 2 - 4 + 2 = 0 points.
    ScriptedDice dice{3, 2, 1, 1};
    move_phase(s, a, b, dice);
    CHECK(s.first_mover == 0);
    CHECK(dice.remaining() == 0);
    CHECK(s.hand_n[0] == 0);
    CHECK(s.hand_n[1] == 0);
    CHECK(s.discards_n == 3);
    CHECK(s.moved[0]);
    CHECK(s.moved[1]);
    // A was offered the ends of 4 points, B only its own hex.
    State t = sea();
    place(t, 0, hex::from_offset(8, 12), hex::kN);
    place(t, 1, hex::from_offset(2, 2), hex::kS);
    Reach r4;
    reach(t, 0, 4, r4);
    CHECK(a.reach_seen == r4.n);
    CHECK(b.reach_seen == 1);

    // Equal Movement: a roll-off, A 2 against B 2 (again), then A 5 against B 3: A chooses.
    State u = sea();
    place(u, 0, hex::from_offset(8, 12), hex::kN);
    place(u, 1, hex::from_offset(2, 2), hex::kS);
    Puppet c, d;
    c.first = d.first = false;  // the roll-off's winner, A, moves second
    ScriptedDice roll{2, 2, 5, 3, /* B moves */ 1, 1, /* A moves */ 1, 1};
    move_phase(u, c, d, roll);
    CHECK(u.first_mover == 1);
    CHECK(roll.remaining() == 0);
    // The roll-off's winner chooses: B rolls higher, and moving second, leaves A first.
    State v = u;
    v.moved.fill(false);
    ScriptedDice again{1, 4, /* A moves */ 1, 1, /* B moves */ 1, 1};
    move_phase(v, c, d, again);
    CHECK(v.first_mover == 0);
}

namespace {
// Records the order in which ships move.
struct Recorder : Puppet {
    std::vector<int>* order = nullptr;
    template <class D>
    int move(const State& s, int i, const Reach& r, D& d) const {
        order->push_back(i);
        return Puppet::move(s, i, r, d);
    }
};
}  // namespace

TEST_CASE("N5 the sides alternate, one ship at a time; the side with ships left moves the rest",
          "[naval][N5]") {
    State s = sea(3);
    for (int i = 0; i < 6; ++i) place(s, i, hex::from_offset(2 * i + 1, 10), hex::kN);
    sink(s, 4);  // B has two ships left, A three
    std::vector<int> order;
    Recorder a, b;
    a.order = b.order = &order;
    a.first = b.first = true;  // A (equal Movement: the roll-off) moves first
    ScriptedDice dice{6, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2};
    move_phase(s, a, b, dice);
    CHECK(order == std::vector<int>{0, 3, 1, 5, 2});
    CHECK(dice.remaining() == 0);
}

TEST_CASE("N6 arcs and ranges by ammunition", "[naval][N6]") {
    State s = sea();
    const Hex at = hex::from_offset(8, 12);
    place(s, 0, at, hex::kN);
    const auto target_at = [&](const Hex& h) {
        s.at[static_cast<std::size_t>(s.cell(s.ship[1].pos))] = 0;
        place(s, 1, h, hex::kN);
    };
    // Along the line to the south-east: from a ship heading north, bearing 120, in the arc.
    Hex h = at;
    for (int range = 1; range <= 6; ++range) {
        h = hex::neighbour(h, hex::kSE);
        target_at(h);
        INFO("range " << range);
        CHECK(can_fire(s, 0, 1, kGrapeshot) == (range <= 2));
        CHECK(can_fire(s, 0, 1, kChainshot) == (range <= 4));
        CHECK(can_fire(s, 0, 1, kRoundshot) == (range <= 5));
    }
    target_at(hex::neighbour(hex::neighbour(at, hex::kN), hex::kN));  // dead ahead: no broadside
    CHECK_FALSE(can_fire(s, 0, 1, kRoundshot));
    target_at(hex::neighbour(at, hex::kNE));  // bearing 60: the arc's edge, inclusive
    CHECK(can_fire(s, 0, 1, kRoundshot));
    s.ship[1].side = 0;  // a friend is never a target
    CHECK_FALSE(can_fire(s, 0, 1, kRoundshot));
}

namespace {
// Ship 0 (A) at (8,12) heading N; ship 1 (B) `range` hexes to its south-east, heading N too (so
// ship 0 is abeam of ship 1 as well).
State duel_at(int range) {
    State s = sea();
    Hex h = hex::from_offset(8, 12);
    place(s, 0, h, hex::kN);
    for (int k = 0; k < range; ++k) h = hex::neighbour(h, hex::kSE);
    place(s, 1, h, hex::kN);
    return s;
}
}  // namespace

TEST_CASE(
    "N6 the broadside table: d6 + Cannon - (range - 2) + 1 roundshot; points by the attribute "
    "table",
    "[naval][N6]") {
    Puppet a, b;
    a.shot[0] = {1, kRoundshot};
    a.plays = b.plays = false;
    {
        // Range 4: -2; Cannon 1; roundshot +1: a 6 makes 6, one point; attribute 3: Cannon.
        State s = duel_at(4);
        ScriptedDice dice{6, 3};
        broadside_phase(s, a, b, dice);
        CHECK(dice.remaining() == 0);
        CHECK(s.ship[1].cannon == 0);
        CHECK(s.ship[1].movement == 1);
        CHECK(s.ship[1].crew == 2);
        CHECK(s.broadsides[0][kRoundshot] == 1);
    }
    {
        // Range 4 with a 4: 4 + 1 - 2 + 1 = 4: nothing (no attribute roll).
        State s = duel_at(4);
        ScriptedDice dice{4};
        broadside_phase(s, a, b, dice);
        CHECK(dice.remaining() == 0);
        CHECK(s.ship[1].total() == 4);
    }
    {
        // Range 2, Cannon 3: 6 + 3 + 1 = 10: three points, attributes 1, 4, 6: Movement, Cannon,
        // Crew.
        State s = duel_at(2);
        s.ship[0].cannon = 3;
        ScriptedDice dice{6, 1, 4, 6};
        broadside_phase(s, a, b, dice);
        CHECK(dice.remaining() == 0);
        CHECK(s.ship[1].movement == 0);
        CHECK(s.ship[1].cannon == 0);
        CHECK(s.ship[1].crew == 1);
    }
    {
        // 7-8: two points. Range 1 (no penalty), roundshot: 5 + 1 + 1 = 7; attributes 2, 2.
        State s = duel_at(1);
        ScriptedDice dice{5, 2, 2};
        broadside_phase(s, a, b, dice);
        CHECK(dice.remaining() == 0);
        CHECK(s.ship[1].movement == -1);  // ratings may go negative
    }
    {
        // Range 1 is no bonus either: 4 + 1 + 1 = 6, one point (not 7, two).
        State s = duel_at(1);
        ScriptedDice dice{4, 6};
        broadside_phase(s, a, b, dice);
        CHECK(dice.remaining() == 0);
        CHECK(s.ship[1].total() == 3);
    }
    {
        // Exactly 9 is three points: range 2, Cannon 2: 6 + 2 + 1 = 9; attributes 3, 3, 3 take
        // Cannon from 1 to -2: sunk.
        State s = duel_at(2);
        s.ship[0].cannon = 2;
        ScriptedDice dice{6, 3, 3, 3};
        broadside_phase(s, a, b, dice);
        CHECK(dice.remaining() == 0);
        CHECK_FALSE(s.ship[1].afloat);
    }
    {
        // Exactly 8 is two: 6 + 1 + 1 at range 2; Cannon 1 - 2 = -1: still afloat.
        State s = duel_at(2);
        ScriptedDice dice{6, 4, 4};
        broadside_phase(s, a, b, dice);
        CHECK(dice.remaining() == 0);
        CHECK(s.ship[1].cannon == -1);
        CHECK(s.ship[1].afloat);
    }
}

TEST_CASE("N6 grapeshot adds 1 to the attribute roll; chainshot hits Movement only",
          "[naval][N6]") {
    Puppet a, b;
    a.plays = b.plays = false;
    {
        // Grapeshot at 2: 6 + 1 = 7: two points; attribute rolls 4 (+1: Crew) and 2 (+1: Cannon).
        State s = duel_at(2);
        a.shot[0] = {1, kGrapeshot};
        ScriptedDice dice{6, 4, 2};
        broadside_phase(s, a, b, dice);
        CHECK(dice.remaining() == 0);
        CHECK(s.ship[1].crew == 1);
        CHECK(s.ship[1].cannon == 0);
        CHECK(s.ship[1].movement == 1);
        CHECK(s.broadsides[0][kGrapeshot] == 1);
    }
    {
        // Chainshot at 3: 6 + 1 - 1 = 6: one point, to Movement, with no attribute roll.
        State s = duel_at(3);
        a.shot[0] = {1, kChainshot};
        ScriptedDice dice{6};
        broadside_phase(s, a, b, dice);
        CHECK(dice.remaining() == 0);
        CHECK(s.ship[1].movement == 0);
        CHECK(s.broadsides[0][kChainshot] == 1);
    }
}

TEST_CASE("N6 broadsides are simultaneous; Cannon -2 sinks", "[naval][N6][N6a]") {
    // Both ships at range 1, each abeam of the other; both at Cannon -1 and firing.
    State s = duel_at(1);
    s.ship[0].cannon = s.ship[1].cannon = -1;
    Puppet a, b;
    a.plays = b.plays = false;
    a.shot[0] = {1, kRoundshot};
    b.shot[1] = {0, kRoundshot};
    // A: 6 - 1 + 1 = 6, one point: 3 (Cannon): B to -2. B, though sinking, still fires: 6 -> 6,
    // one point: 4 (Cannon): A to -2. Both sink at once.
    ScriptedDice dice{6, 3, 6, 4};
    broadside_phase(s, a, b, dice);
    CHECK(dice.remaining() == 0);
    CHECK_FALSE(s.ship[0].afloat);
    CHECK_FALSE(s.ship[1].afloat);
    CHECK(s.ship_at(s.ship[0].pos) == -1);
    CHECK(s.sunk == std::array<int, 2>{1, 1});
    end_check(s);
    CHECK(s.winner == -1);  // N8: both fleets gone at once: a draw
}

TEST_CASE("N7 boarding: adjacent, each in the other's arc; d6 + Crew, ties again; capture or sink",
          "[naval][N7]") {
    Puppet a, b;
    a.plays = b.plays = false;
    a.boards = true;
    {
        State s = duel_at(1);
        s.ship[0].crew = 3;
        // 2 + 3 = 5 against 3 + 2 = 5: a tie, again; 4 + 3 = 7 against 6 + 2 = 8: B wins and takes.
        ScriptedDice dice{2, 3, 4, 6};
        boarding_phase(s, a, b, dice);
        CHECK(dice.remaining() == 0);
        CHECK(s.boardings == 1);
        CHECK(s.ship[0].side == 1);  // A's ship now sails for B
        CHECK(s.ship[0].crew == 1);
        CHECK(s.ship[1].crew == 1);  // one crew point moved across
        CHECK(s.captures == std::array<int, 2>{0, 1});
        CHECK(s.afloat(0) == 0);
        end_check(s);
        CHECK(s.winner == 1);  // N8: A controls no ship
    }
    {
        State s = duel_at(1);
        Puppet c = a;
        c.takes = false;
        ScriptedDice dice{6, 1};  // A wins and sinks the prize
        boarding_phase(s, c, b, dice);
        CHECK_FALSE(s.ship[1].afloat);
        CHECK(s.sunk == std::array<int, 2>{0, 1});
    }
    {
        // Nobody wants to board: no action, no dice.
        State s = duel_at(1);
        Puppet c = a;
        c.boards = false;
        ScriptedDice none{};
        boarding_phase(s, c, b, none);
        CHECK(s.boardings == 0);
    }
    {
        // Only the second side wants to board: that is enough. 1 + 2 against 6 + 2: B wins.
        State s = duel_at(1);
        Puppet c = a, d = b;
        c.boards = false;
        d.boards = true;
        ScriptedDice dice{1, 6};
        boarding_phase(s, c, d, dice);
        CHECK(s.boardings == 1);
        CHECK(s.ship[0].side == 1);
    }
    {
        // One action a ship a turn: A's ship 0 lies between B's ships 2 and 3, abeam of both;
        // it boards ship 2 (the lower pair) and is not boarded again by ship 3.
        State s = sea(2);
        const Hex mid = hex::from_offset(8, 12);
        place(s, 0, mid, hex::kN);
        place(s, 1, hex::from_offset(0, 0), hex::kN);
        place(s, 2, hex::neighbour(mid, hex::kSE), hex::kN);
        place(s, 3, hex::neighbour(mid, hex::kSW), hex::kN);
        REQUIRE(can_board(s, 0, 2));
        REQUIRE(can_board(s, 0, 3));
        Puppet c = a, d = b;
        d.boards = true;
        ScriptedDice dice{6, 1};  // A wins the one action and takes ship 2
        boarding_phase(s, c, d, dice);
        CHECK(dice.remaining() == 0);
        CHECK(s.boardings == 1);
        CHECK(s.ship[2].side == 0);
        CHECK(s.ship[3].side == 1);
    }
    {
        // Abeam at two hexes: not side by side, no boarding.
        State s = duel_at(2);
        CHECK_FALSE(can_board(s, 0, 1));
    }
    {
        // Adjacent, but B's bow points at A: A is not in B's broadside arc: no boarding.
        State s = duel_at(1);
        s.ship[1].facing = hex::kNW;
        CHECK_FALSE(can_board(s, 0, 1));
        ScriptedDice none{};
        boarding_phase(s, a, b, none);
        CHECK(s.boardings == 0);
    }
}

namespace {
// A puppet that notes every boarding question: (the side asked, its ship, the enemy).
struct Asked : Puppet {
    int side = 0;
    std::vector<std::array<int, 3>>* log = nullptr;
    template <class D>
    bool board(const State&, int i, int j, D&) const {
        log->push_back({side, i, j});
        return boards;
    }
};

// Four ships heading north in a zigzag chain, each abeam of the next: hexes P0..P3 hold ships
// 2 (B), 0 (A), 3 (B), 1 (A). Boarding pairs: (0, 2), (0, 3), (1, 3); ships 1 and 2 are far apart.
State chain() {
    State s = sea(2);
    Hex h = hex::from_offset(4, 10);
    const int order[4] = {2, 0, 3, 1};
    for (int k = 0; k < 4; ++k) {
        place(s, order[k], h, hex::kN);
        h = hex::neighbour(h, k % 2 == 0 ? hex::kSE : hex::kNE);
    }
    return s;
}
}  // namespace

TEST_CASE(
    "N7a boarding pairs in order of the lower ship, then the higher; busy ships passed over; the "
    "lower ship's side asked first",
    "[naval][N7][N7a]") {
    {
        const State s = chain();
        REQUIRE(can_board(s, 0, 2));
        REQUIRE(can_board(s, 0, 3));
        REQUIRE(can_board(s, 1, 3));
        REQUIRE_FALSE(can_board(s, 1, 2));
    }
    std::vector<std::array<int, 3>> log;
    Asked a, b;
    a.side = 0;
    b.side = 1;
    a.log = b.log = &log;
    a.plays = b.plays = false;
    SECTION("A wants every action: (0, 2), then (1, 3); ship 0's pair with 3 is passed over") {
        State s = chain();
        a.boards = true;
        // (0, 2): 6 + 2 against 1 + 2, A takes ship 2. (1, 3): 1 + 2 against 6 + 2, B takes ship 1.
        ScriptedDice dice{6, 1, 1, 6};
        boarding_phase(s, a, b, dice);
        CHECK(dice.remaining() == 0);
        CHECK(log == std::vector<std::array<int, 3>>{{0, 0, 2}, {0, 1, 3}});
        CHECK(s.boardings == 2);
        CHECK(s.ship[2].side == 0);
        CHECK(s.ship[1].side == 1);
        CHECK(s.ship[3].side == 1);
    }
    SECTION("only B wants them: A, the lower ship's side, is asked first each time") {
        State s = chain();
        b.boards = true;
        // (0, 2): 1 + 2 against 6 + 2, B takes ship 0. (1, 3): 6 + 2 against 1 + 2, A takes ship 3.
        ScriptedDice dice{1, 6, 6, 1};
        boarding_phase(s, a, b, dice);
        CHECK(dice.remaining() == 0);
        CHECK(log == std::vector<std::array<int, 3>>{{0, 0, 2}, {1, 2, 0}, {0, 1, 3}, {1, 3, 1}});
        CHECK(s.ship[0].side == 1);
        CHECK(s.ship[3].side == 0);
    }
    SECTION("the lower ship a prize of B's: B is asked first") {
        State s = chain();
        s.ship[0].side = 1;   // taken by B earlier
        s.ship[2].side = 0;   // taken by A earlier
        ScriptedDice none{};  // nobody wants to board: no action, no dice
        boarding_phase(s, a, b, none);
        CHECK(log == std::vector<std::array<int, 3>>{{1, 0, 2}, {0, 2, 0}, {0, 1, 3}, {1, 3, 1}});
        CHECK(s.boardings == 0);
    }
}

TEST_CASE("N4 draws, the hand limit and the reshuffle", "[naval][N4]") {
    State s = sea();
    place(s, 0, hex::from_offset(8, 12), hex::kN);
    place(s, 1, hex::from_offset(2, 2), hex::kS);
    s.deck_n = 2;
    s.deck[0] = kManeuver;
    s.deck[1] = kQuickReload;  // the top card
    give(s, 0, {kGustOfWind, kCalmWaters, kRakeTheBow, kCrowsNest, kRallyTheMen});
    s.discards_n = 26 - 5;
    for (int k = 0; k < s.discards_n; ++k) s.discards[k] = kSweepTheDecks;
    REQUIRE(cards_total(s) == kDeckSize);
    Puppet a, b;
    ScriptedDice dice{};
    draw_phase(s, a, b, dice);
    // A drew Quick Reload (six cards) and discarded its first, Gust of Wind; B drew Maneuver.
    CHECK(s.hand_n[0] == kHandLimit);
    CHECK(s.hand[0][0] == kCalmWaters);
    CHECK(s.hand[0][4] == kQuickReload);
    CHECK(s.hand[1][0] == kManeuver);
    CHECK(s.discards[s.discards_n - 1] == kGustOfWind);
    CHECK(s.deck_n == 0);
    CHECK(cards_total(s) == kDeckSize);
    // The deck is empty: the next draw shuffles the discards into a new deck first.
    dice.script_words(identity_shuffle(s.discards_n - 1));
    draw_phase(s, a, b, dice);
    CHECK(s.discards_n == 1);  // all but A's new discard went into the new deck
    CHECK(cards_total(s) == kDeckSize);
    CHECK(s.hand_n[1] == 2);
}

TEST_CASE("N9 each card's effect", "[naval][N9][N9a][N9b]") {
    Puppet a, b;
    a.shot[0] = {1, kRoundshot};
    SECTION("gunnery cards apply to their own ammunition only") {
        // Range 4, roundshot: 2 + 1 - 2 + 1 = 2; Splintering Wood +2 = 4: still nothing; Sweep the
        // Decks (grapeshot) and Damaged Rigging (chainshot) stay in the hand.
        State s = duel_at(4);
        give(s, 0, {kSplinteringWood, kSweepTheDecks, kDamagedRigging});
        ScriptedDice dice{2};
        broadside_phase(s, a, b, dice);
        CHECK(dice.remaining() == 0);
        CHECK(s.hand_n[0] == 2);
        CHECK(s.hand[0][0] == kSweepTheDecks);
        CHECK(s.hand[0][1] == kDamagedRigging);
        // With a 3 the card makes 5: one point.
        State t = duel_at(4);
        give(t, 0, {kSplinteringWood});
        ScriptedDice three{3, 6};
        broadside_phase(t, a, b, three);
        CHECK(t.ship[1].crew == 1);
    }
    SECTION("Sweep the Decks +2 to grapeshot; Damaged Rigging +2 to chainshot") {
        Puppet g = a;
        g.shot[0] = {1, kGrapeshot};
        State s = duel_at(2);
        give(s, 0, {kSweepTheDecks});
        ScriptedDice dice{3, 1};  // 3 + 1 + 2 = 6: one point; attribute 1 + 1 = 2: Movement
        broadside_phase(s, g, b, dice);
        CHECK(dice.remaining() == 0);
        CHECK(s.ship[1].movement == 0);
        Puppet c = a;
        c.shot[0] = {1, kChainshot};
        State t = duel_at(2);
        give(t, 0, {kDamagedRigging});
        ScriptedDice roll{3};  // 3 + 1 + 2 = 6: one point to Movement
        broadside_phase(t, c, b, roll);
        CHECK(roll.remaining() == 0);
        CHECK(t.ship[1].movement == 0);
    }
    SECTION("Maneuver: -2 to one enemy broadside") {
        State s = duel_at(2);
        give(s, 1, {kManeuver, kManeuver});
        ScriptedDice dice{6};  // both Maneuvers on one roll (N9b): 6 + 1 + 1 - 4 = 4: nothing
        broadside_phase(s, a, b, dice);
        CHECK(dice.remaining() == 0);
        CHECK(s.ship[1].total() == 4);
        CHECK(s.hand_n[1] == 0);
    }
    SECTION("Rake the Bow: +1 only from the target's bow or stern wedge") {
        // A heads N at (8,12) with B abeam, two hexes to its SE; B heads SE, away from A, so A
        // stands in B's stern wedge.
        State s = duel_at(2);
        s.ship[1].facing = hex::kSE;
        REQUIRE(hex::in_bow_or_stern(s.ship[1].pos, s.ship[1].facing, s.ship[0].pos));
        give(s, 0, {kRakeTheBow});
        ScriptedDice dice{2, 6};  // 2 + 1 + 1 + 1 = 5: one point (without the card, 4: none)
        broadside_phase(s, a, b, dice);
        CHECK(dice.remaining() == 0);
        CHECK(s.ship[1].crew == 1);
        // Abeam of the target, not in its wedge: the card stays in the hand.
        State t = duel_at(2);
        give(t, 0, {kRakeTheBow});
        ScriptedDice roll{2};
        broadside_phase(t, a, b, roll);
        CHECK(t.hand_n[0] == 1);
    }
    SECTION("Quick Reload: a second broadside this turn, one a ship") {
        State s = duel_at(2);
        Puppet q = a;
        q.second[0] = {1, kGrapeshot};
        give(s, 0, {kQuickReload, kQuickReload});
        ScriptedDice dice{1, 1};  // two broadside rolls, both misses
        broadside_phase(s, q, b, dice);
        CHECK(dice.remaining() == 0);
        CHECK(s.broadsides[0][kRoundshot] == 1);
        CHECK(s.broadsides[0][kGrapeshot] == 1);
        CHECK(s.hand_n[0] == 1);  // the second Quick Reload is kept
        CHECK(s.reloaded[0]);
    }
    SECTION("boarding cards: +2 each to the own roll") {
        State s = duel_at(1);
        Puppet c = a;
        c.boards = true;
        give(s, 1, {kFierceHandToHand, kSwordsAndPistols});
        ScriptedDice dice{6, 3};  // A 6 + 2 = 8; B 3 + 2 + 4 = 9: B wins
        boarding_phase(s, c, b, dice);
        CHECK(s.ship[0].side == 1);
    }
    SECTION("movement cards and Calm Waters (see N5); Crows Nest never modifies a roll") {
        for (int kind = Roll::kMove; kind <= Roll::kBoard; ++kind)
            for (const bool own : {true, false}) {
                Roll r;
                r.kind = static_cast<Roll::Kind>(kind);
                r.own = own;
                r.rake = true;
                CHECK_FALSE(applicable(kCrowsNest, r));
            }
    }
}

TEST_CASE("N8 the turn cap: more ships wins, equal is a draw", "[naval][N8]") {
    State s = sea(2);
    s.turn = s.max_turns = 5;
    for (int i = 0; i < 4; ++i) place(s, i, hex::from_offset(i, 5), hex::kN);
    end_check(s);
    CHECK(s.winner == -1);
    CHECK(s.timeout);
    State t = s;
    t.winner = -2;
    sink(t, 3);
    end_check(t);
    CHECK(t.winner == 0);
    State u = s;
    u.winner = -2;
    u.turn = 4;  // before the cap: play on
    u.timeout = false;
    end_check(u);
    CHECK(u.winner == -2);
}

TEST_CASE("N9 the deck list: which roll each card changes, and by how much", "[naval][N9]") {
    const auto roll = [](Roll::Kind kind, bool own, int ammo = kRoundshot, bool rake = false) {
        Roll r;
        r.kind = kind;
        r.own = own;
        r.ammo = static_cast<std::uint8_t>(ammo);
        r.rake = rake;
        return r;
    };
    for (int c : {kGustOfWind, kUnfurlTheSails, kCatchTheWind}) {
        CHECK(card_modifier(c, roll(Roll::kMove, true)) == 2);
        CHECK_FALSE(applicable(c, roll(Roll::kMove, false)));
        CHECK_FALSE(applicable(c, roll(Roll::kBroadside, true)));
    }
    for (int c : {kFierceHandToHand, kSwordsAndPistols, kRallyTheMen}) {
        CHECK(card_modifier(c, roll(Roll::kBoard, true)) == 2);
        CHECK_FALSE(applicable(c, roll(Roll::kBoard, false)));
        CHECK_FALSE(applicable(c, roll(Roll::kMove, true)));
    }
    const int ammo_card[kAmmoKinds] = {kSplinteringWood, kDamagedRigging, kSweepTheDecks};
    for (int a = 0; a < kAmmoKinds; ++a)
        for (int b = 0; b < kAmmoKinds; ++b)
            CHECK(card_modifier(ammo_card[a], roll(Roll::kBroadside, true, b)) == (a == b ? 2 : 0));
    CHECK(card_modifier(kRakeTheBow, roll(Roll::kBroadside, true, kGrapeshot, true)) == 1);
    CHECK_FALSE(applicable(kRakeTheBow, roll(Roll::kBroadside, true, kGrapeshot, false)));
    CHECK(card_modifier(kManeuver, roll(Roll::kBroadside, false)) == -2);
    CHECK_FALSE(applicable(kManeuver, roll(Roll::kBroadside, true)));
    CHECK(card_modifier(kCalmWaters, roll(Roll::kMove, false)) == -2);
    CHECK_FALSE(applicable(kCalmWaters, roll(Roll::kMove, true)));
    CHECK(applicable(kQuickReload, roll(Roll::kReload, true)));
    CHECK_FALSE(applicable(kQuickReload, roll(Roll::kBroadside, true)));
    for (int c = 0; c < kCardKinds; ++c) CHECK(std::string(card_name(c)) != "?");
}

TEST_CASE("N9c hands are open, so Crows Nest Lookout tells nothing: the policies discard it first",
          "[naval][N9][N9c]") {
    const auto check = [](auto policy, const char* name) {
        INFO(name);
        State s = sea();
        place(s, 0, hex::from_offset(8, 12), hex::kN);
        place(s, 1, hex::from_offset(2, 2), hex::kS);
        s.deck_n = 2;
        s.deck[0] = kManeuver;     // B's draw
        s.deck[1] = kRallyTheMen;  // A's draw, the top card
        give(s, 0, {kGustOfWind, kSplinteringWood, kCrowsNest, kQuickReload, kCalmWaters});
        ScriptedDice dice{};
        draw_phase(s, policy, policy, dice);
        CHECK(s.hand_n[0] == kHandLimit);
        for (int k = 0; k < s.hand_n[0]; ++k) CHECK(s.hand[0][k] != kCrowsNest);
        REQUIRE(s.discards_n == 1);
        CHECK(s.discards[0] == kCrowsNest);
    };
    check(Gunner{}, "gunner");
    check(Boarder{}, "boarder");
    check(Rollout{}, "rollout");
}

namespace {
// Gunner, keeping a copy of the state as it stood when ship `at` was about to declare.
struct Snapshot : Gunner {
    int at = -1;
    State* copy = nullptr;
    template <class D>
    Shot broadside(const State& s, int i, int nth, D& d) const {
        if (i == at && nth == 0) *copy = s;
        return Gunner::broadside(s, i, nth, d);
    }
};
}  // namespace

TEST_CASE(
    "N6a a broadside phase resumed from a copy taken mid-declaration plays as the phase itself",
    "[naval][N6]") {
    // Side A's ships 0-2 and B's 3-5 in two close lines, abeam of each other, cards in hand.
    State s = sea(3);
    for (int k = 0; k < 3; ++k) {
        place(s, k, hex::from_offset(4 + 2 * k, 10), hex::kN);
        place(s, 3 + k, hex::from_offset(4 + 2 * k, 12), hex::kN);
    }
    give(s, 0, {kQuickReload, kSplinteringWood});
    give(s, 1, {kManeuver, kQuickReload});
    auto copy = std::make_unique<State>();
    Snapshot a;
    a.at = 2;
    a.copy = copy.get();
    Gunner b;
    Dice d1(5);
    broadside_phase(s, a, b, d1);
    REQUIRE(copy->declaring == 2);
    Gunner plain;
    Dice d2(5);
    resume_broadsides(*copy, plain, b, d2);
    for (int i = 0; i < 6; ++i) {
        INFO("ship " << i);
        CHECK(copy->ship[i].cannon == s.ship[i].cannon);
        CHECK(copy->ship[i].crew == s.ship[i].crew);
        CHECK(copy->ship[i].movement == s.ship[i].movement);
        CHECK(copy->ship[i].afloat == s.ship[i].afloat);
    }
    CHECK(copy->n_declared == s.n_declared);
    CHECK(copy->hand_n == s.hand_n);
    CHECK(s.n_declared >= 4);
}

TEST_CASE("N6 N9 the gunners' arc table agrees with the exact bearing tests, every heading",
          "[naval][N6][N9]") {
    for (int dq = -tactics::kArcReach; dq <= tactics::kArcReach; ++dq)
        for (int dr = -tactics::kArcReach; dr <= tactics::kArcReach; ++dr) {
            const int arcs = tactics::kArcs[static_cast<std::size_t>(
                (dq + tactics::kArcReach) * tactics::kArcSide + dr + tactics::kArcReach)];
            const Hex v{dq, dr};
            CHECK((arcs >> 8) == hex::distance({}, v));
            for (int f = 0; f < 6; ++f) {
                const int half = tactics::kHalf[static_cast<std::size_t>(f)];
                CHECK(static_cast<bool>(arcs >> half & 1) == hex::in_broadside({}, f, v));
                CHECK(static_cast<bool>(arcs >> half & 1) == hex::in_broadside(v, f, {}));
                CHECK(static_cast<bool>(arcs >> (3 + half) & 1) == hex::in_bow_or_stern({}, f, v));
                CHECK(static_cast<bool>(arcs >> (3 + half) & 1) == hex::in_bow_or_stern(v, f, {}));
            }
        }
}

// Issue 14: every decision the rules leave to a side is its policy's. For each, the same
// position and dice with two different choices give two different positions.
TEST_CASE("N4 N5 N9 each decision is the policy's: two choices, two positions",
          "[naval][N4][N5][N9][position]") {
    const auto text = [](const State& s) { return write_position(Start{s, 0}, Options{}); };
    // Both sides want hex (8, 12): A from the north, B from the south, two points each.
    const auto contested = [] {
        State s = sea();
        s.turn = 1;
        place(s, 0, hex::from_offset(8, 10), hex::kS);
        place(s, 1, hex::from_offset(8, 14), hex::kN);
        s.ship[0].movement = 2;  // A is faster: A chooses whether to move first
        return s;
    };
    Puppet a, b;
    a.go[0] = b.go[1] = true;
    a.to[0] = b.to[1] = hex::from_offset(8, 12);
    a.to_facing[0] = hex::kS;
    b.to_facing[1] = hex::kN;
    a.lenient = b.lenient = true;
    SECTION("N5 moving first or second") {
        std::vector<std::string> after;
        for (const bool first : {true, false}) {
            State s = contested();
            a.first = first;
            ScriptedDice dice{3, 3, 3, 3};  // 2d6 = 6 each: 6 - 4 + Movement >= 2 points
            move_phase(s, a, b, dice);
            CHECK(s.ship_at(hex::from_offset(8, 12)) == (first ? 0 : 1));
            after.push_back(text(s));
        }
        CHECK(after[0] != after[1]);
    }
    SECTION("N5 which ship moves next") {
        std::vector<std::string> after;
        for (const bool last : {false, true}) {
            State s = sea(2);  // ships 0, 1 of A; 2, 3 of B
            s.turn = 1;
            place(s, 0, hex::from_offset(7, 10), hex::kSE);
            place(s, 1, hex::from_offset(9, 10), hex::kSW);
            place(s, 2, hex::from_offset(0, 23), hex::kN);
            place(s, 3, hex::from_offset(15, 23), hex::kN);
            Puppet c, d;
            c.lenient = true;
            c.go[0] = c.go[1] = true;
            c.to[0] = c.to[1] = hex::neighbour(hex::from_offset(7, 10), hex::kSE);
            c.to_facing[0] = hex::kSE;
            c.to_facing[1] = hex::kSE;
            c.last_first = last;
            s.ship[0].movement = 3;  // A chooses, and moves first
            ScriptedDice dice{3, 3, 3, 3, 3, 3, 3, 3};
            move_phase(s, c, d, dice);
            CHECK(s.ship_at(c.to[0]) == (last ? 1 : 0));
            after.push_back(text(s));
        }
        CHECK(after[0] != after[1]);
    }
    SECTION("N9 a card played or held") {
        std::vector<std::string> after;
        for (const bool plays : {true, false}) {
            State s = contested();
            give(s, 0, {kCatchTheWind});
            a.first = true;
            a.plays = plays;
            a.to[0] = hex::from_offset(8, 13);  // three hexes: only with the card's +2
            ScriptedDice dice{1, 2, 3, 3};      // A: 3 - 4 + 2 (+2) = 1 (3) points
            move_phase(s, a, b, dice);
            CHECK(s.ship_at(hex::from_offset(8, 13)) == (plays ? 0 : 1 - 2));
            after.push_back(text(s));
        }
        CHECK(after[0] != after[1]);
    }
    SECTION("N4 the discard at the hand limit") {
        std::vector<std::string> after;
        for (const int slot : {0, 3}) {
            State s = contested();
            give(s, 0, {kGustOfWind, kCalmWaters, kRakeTheBow, kCrowsNest, kRallyTheMen});
            s.deck_n = 2;
            s.deck[0] = kManeuver;
            s.deck[1] = kQuickReload;
            a.discard_slot = slot;
            ScriptedDice dice{};
            draw_phase(s, a, b, dice);
            CHECK(s.discards[static_cast<std::size_t>(s.discards_n - 1)] ==
                  (slot == 0 ? kGustOfWind : kCrowsNest));
            after.push_back(text(s));
        }
        CHECK(after[0] != after[1]);
    }
}

TEST_CASE("N4 deck.*: the deck's composition is an option, each card's copies",
          "[naval][N4][rules]") {
    const auto deck_after_setup = [](const Options& o) {
        int total = 0;
        for (int c = 0; c < kCardKinds; ++c) total += o.deck_count(c);
        ScriptedDice dice(std::vector<int>(2 * (2 + 7 * 3 + 3), 1));
        if (total > 1) dice.script_words(identity_shuffle(total - 1));
        Puppet a, b;
        const State s = setup(o, a, b, dice);
        CHECK(dice.remaining() == 0);
        std::array<int, kCardKinds> count{};
        for (int k = 0; k < s.deck_n; ++k) ++count[s.deck[k]];
        CHECK(s.deck_n == total);
        CHECK(s.deck_total == total);
        return count;
    };
    // The book: two of each card.
    for (int c : deck_after_setup(Options{})) CHECK(c == 2);
    const auto book = parse_options({});
    CHECK(book.deck[kQuickReload] == 2);
    CHECK(scenario(book) == scenario(Options{}));
    // Without Quick Reload: 26 cards, none of them Quick Reload.
    const auto none = parse_options({{"deck.quick_reload", "0"}});
    const auto without = deck_after_setup(none);
    for (int c = 0; c < kCardKinds; ++c) CHECK(without[c] == (c == kQuickReload ? 0 : 2));
    CHECK(scenario(none).find("deck.quick_reload=0") != std::string::npos);
    // Five Quick Reloads and one Maneuver: 31 cards.
    const auto more = parse_options({{"deck.quick_reload", "5"}, {"deck.maneuver", "1"}});
    const auto with = deck_after_setup(more);
    CHECK(with[kQuickReload] == 5);
    CHECK(with[kManeuver] == 1);
    CHECK(with[kGustOfWind] == 2);
    // The deck is a fixed array: past 42 cards in all is refused with one line.
    CHECK_NOTHROW(parse_options({{"deck.quick_reload", "16"}}));  // 42
    try {
        parse_options({{"deck.quick_reload", "17"}});
        FAIL("a 43-card deck accepted");
    } catch (const UsageError& e) {
        CHECK(std::string(e.what()) ==
              "naval: a deck of 43 cards (options deck.*) is past the largest, 42");
    }
    CHECK_THROWS_AS(parse_options({{"deck.quick_reload", "-1"}}), UsageError);
}

TEST_CASE("N4 deck.*: a later turn's deck is the composition less the hands and discards",
          "[naval][N4][rules]") {
    Options o = parse_options({{"deck.quick_reload", "0"}, {"deck.maneuver", "3"}});
    Start start;
    start.state = empty_sea(o);
    State& s = start.state;
    s.turn = 3;
    s.n_ships = 2;
    for (int i = 0; i < 2; ++i) {
        s.ship[i] = Ship{};
        s.ship[i].side = s.ship[i].origin = static_cast<std::int8_t>(i);
    }
    place(s, 0, hex::from_offset(3, 3), hex::kS);
    place(s, 1, hex::from_offset(3, 10), hex::kN);
    give(s, 0, {kManeuver, kManeuver});
    ScriptedDice dice{std::vector<int>{}};
    dice.script_words(identity_shuffle(2 * 13 + 3 - 2 - 2 - 1));
    const State e = enter(start, dice);
    std::array<int, kCardKinds> count{};
    for (int k = 0; k < e.deck_n; ++k) ++count[e.deck[k]];
    CHECK(e.deck_n == 2 * 12 + 3 - 2);
    CHECK(count[kQuickReload] == 0);
    CHECK(count[kManeuver] == 1);
    CHECK(count[kGustOfWind] == 2);
}

TEST_CASE("N6 broadside.range.*: each ammunition's longest range is an option",
          "[naval][N6][rules]") {
    const auto fires_at = [](const Options& o, int range, int ammo) {
        State s = empty_sea(o);
        s.n_ships = 2;
        for (int i = 0; i < 2; ++i) {
            s.ship[i] = Ship{};
            s.ship[i].side = s.ship[i].origin = static_cast<std::int8_t>(i);
        }
        Hex h = hex::from_offset(8, 12);
        place(s, 0, h, hex::kN);
        for (int k = 0; k < range; ++k) h = hex::neighbour(h, hex::kSE);
        place(s, 1, h, hex::kN);
        return can_fire(s, 0, 1, ammo);
    };
    const Options book = parse_options({});
    CHECK(fires_at(book, 2, kGrapeshot));
    CHECK_FALSE(fires_at(book, 3, kGrapeshot));
    CHECK(fires_at(book, 5, kRoundshot));
    CHECK_FALSE(fires_at(book, 6, kRoundshot));
    CHECK(fires_at(book, 4, kChainshot));
    CHECK_FALSE(fires_at(book, 5, kChainshot));
    const Options o = parse_options({{"broadside.range.grape", "3"},
                                     {"broadside.range.round", "4"},
                                     {"broadside.range.chain", "1"}});
    CHECK(fires_at(o, 3, kGrapeshot));
    CHECK_FALSE(fires_at(o, 4, kGrapeshot));
    CHECK(fires_at(o, 4, kRoundshot));
    CHECK_FALSE(fires_at(o, 5, kRoundshot));
    CHECK(fires_at(o, 1, kChainshot));
    CHECK_FALSE(fires_at(o, 2, kChainshot));
    CHECK(scenario(o).find("broadside.range.grape=3") != std::string::npos);
}

namespace {
// duel_at(range) under the rule options `settings` (the numbers play reads: State::rules).
State duel_under(const Settings& settings, int range) {
    State s = duel_at(range);
    s.rules = parse_options(settings).rules;
    return s;
}

// One broadside of ship 0 at ship 1, `range` hexes off, with `ammo`, under `settings`; no cards.
// Returns ship 1 after the phase; the dice must all be used.
Ship broadside_under(const Settings& settings, int range, int ammo, ScriptedDice dice,
                     int cannon = 1) {
    State s = duel_under(settings, range);
    s.ship[0].cannon = cannon;
    Puppet a, b;
    a.plays = b.plays = false;
    a.shot[0] = {1, static_cast<std::uint8_t>(ammo)};
    broadside_phase(s, a, b, dice);
    CHECK(dice.remaining() == 0);
    return s.ship[1];
}

std::array<int, 3> ratings_of(const Ship& sh) { return {sh.movement, sh.cannon, sh.crew}; }
}  // namespace

TEST_CASE("N2 ship.* and fleet.*: the base ratings and the character tables are options",
          "[naval][N2][rules]") {
    // One ship a side; every character roll a 1: 2 + 3 rolls a ship and the flagship's 3 more.
    const auto fleet_after = [](const Options& o) {
        ScriptedDice dice(std::vector<int>(2 * (2 + 3 + 3), 1));
        dice.script_words(identity_shuffle(kDeckSize - 1));
        Puppet a, b;
        const State s = setup(o, a, b, dice);
        CHECK(dice.remaining() == 0);
        return ratings_of(s.ship[0]);
    };
    Options book = parse_options({{"ships", "1"}});
    CHECK(ratings_of(opening(book).state.ship[0]) == std::array<int, 3>{1, 1, 2});
    CHECK(fleet_after(book) == std::array<int, 3>{1 + 8, 1, 2});  // 1: Movement, eight times
    // Base 3/2/4; a 1 gives no Movement, +2 Cannon and +2 Crew (faces may serve two ratings).
    const Options o = parse_options({{"ships", "1"},
                                     {"ship.movement", "3"},
                                     {"ship.cannon", "2"},
                                     {"ship.crew", "4"},
                                     {"fleet.movement", "none"},
                                     {"fleet.cannon", "1-3"},
                                     {"fleet.crew", "1,6"},
                                     {"fleet.bonus", "2"}});
    CHECK(ratings_of(opening(o).state.ship[0]) == std::array<int, 3>{3, 2, 4});
    CHECK(fleet_after(o) == std::array<int, 3>{3, 2 + 16, 4 + 16});
    CHECK(scenario(o).find("fleet.bonus=2") != std::string::npos);
    CHECK(scenario(book).find("fleet") == std::string::npos);
    // The edges' range follows the bonus: 8 rolls a side, 2 points each.
    for (const auto& m : metric_specs(o))
        if (m.name == "cannon_edge") CHECK(m.hi == 16);
    for (const auto& m : metric_specs(book))
        if (m.name == "cannon_edge") CHECK(m.hi == 8);
    // The base Cannon must lie above sinking.cannon.
    CHECK_THROWS_AS(parse_options({{"ship.cannon", "0"}, {"sinking.cannon", "0"}}), UsageError);
    CHECK(parse_options({{"ship.cannon", "0"}}).base_cannon == 0);
}

TEST_CASE("N5 move.roll: the movement roll is an option", "[naval][N5][rules]") {
    // B is faster and moves second: A moves first, then B (as "N5 the fastest side chooses").
    const auto seen = [](const Settings& settings, ScriptedDice dice) {
        State s = duel_under(settings, 3);
        s.ship[1].movement = 2;
        Puppet a, b;
        a.first = b.first = false;
        a.plays = b.plays = false;
        move_phase(s, a, b, dice);
        CHECK(dice.remaining() == 0);
        return std::array<int, 2>{a.reach_seen, b.reach_seen};
    };
    const auto ends = [](int ship, int points) {
        const State t = duel_at(3);
        Reach r;
        reach(t, ship, points, r);
        return r.n;
    };
    // The book, 2d6 - 4: A 3 + 2 - 4 + 1 = 2 points; B 1 + 1 - 4 + 2 = 0.
    CHECK(seen({}, {3, 2, 1, 1}) == std::array<int, 2>{ends(0, 2), ends(1, 0)});
    // 1d8 + 1: A 7 + 1 + 1 = 9 points; B 1 + 1 + 2 = 4.
    CHECK(seen({{"move.roll", "1d8+1"}}, {7, 1}) == std::array<int, 2>{ends(0, 9), ends(1, 4)});
    CHECK(ends(0, 9) != ends(0, 2));
    CHECK_THROWS_AS(parse_options({{"move.roll", "2d6-99"}}), UsageError);
}

TEST_CASE("N6 broadside.roll, broadside.table, broadside.range_penalty.*, broadside.*.modifier",
          "[naval][N6][rules]") {
    using A = std::array<int, 3>;
    // The book at range 4, roundshot: 6 + 1 - 2 + 1 = 6, one point; attribute 3: Cannon.
    CHECK(ratings_of(broadside_under({}, 4, kRoundshot, {6, 3})) == A{1, 0, 2});
    // broadside.table: 6 is two points at 5:2,9:4.
    CHECK(ratings_of(broadside_under({{"broadside.table", "5:2,9:4"}}, 4, kRoundshot, {6, 3, 1})) ==
          A{0, 0, 2});
    // broadside.range_penalty.beyond=4: no penalty at 4: 8, two points.
    CHECK(ratings_of(broadside_under({{"broadside.range_penalty.beyond", "4"}}, 4, kRoundshot,
                                     {6, 3, 3})) == A{1, -1, 2});
    // broadside.range_penalty.per_hex=2: 6 + 1 - 4 + 1 = 4: nothing.
    CHECK(ratings_of(broadside_under({{"broadside.range_penalty.per_hex", "2"}}, 4, kRoundshot,
                                     {6})) == A{1, 1, 2});
    // broadside.round.modifier: the book's +1 makes 5 of a 5 (one point); 0 leaves 4 (none).
    CHECK(ratings_of(broadside_under({}, 4, kRoundshot, {5, 6})) == A{1, 1, 1});
    CHECK(ratings_of(broadside_under({{"broadside.round.modifier", "0"}}, 4, kRoundshot, {5})) ==
          A{1, 1, 2});
    // broadside.chain.modifier: 5 + 1 - 2 = 4, nothing; +2: 6, one point to Movement.
    CHECK(ratings_of(broadside_under({}, 4, kChainshot, {5})) == A{1, 1, 2});
    CHECK(ratings_of(broadside_under({{"broadside.chain.modifier", "2"}}, 4, kChainshot, {5})) ==
          A{0, 1, 2});
    // broadside.grape.modifier: 4 + 1 = 5 at range 2, one point (attribute 4 + 1: Crew); -1: 4.
    CHECK(ratings_of(broadside_under({}, 2, kGrapeshot, {4, 4})) == A{1, 1, 1});
    CHECK(ratings_of(broadside_under({{"broadside.grape.modifier", "-1"}}, 2, kGrapeshot, {4})) ==
          A{1, 1, 2});
    // broadside.roll=1d10: a 9 + 1 - 2 + 1 = 9, three points (the book's d6 has no 9).
    CHECK(ratings_of(broadside_under({{"broadside.roll", "1d10"}}, 4, kRoundshot, {9, 1, 1, 1})) ==
          A{-2, 1, 2});
    // broadside.roll=2d6: two dice, 1 + 1 + 1 - 2 + 1 = 2: nothing.
    CHECK(ratings_of(broadside_under({{"broadside.roll", "2d6"}}, 4, kRoundshot, {1, 1})) ==
          A{1, 1, 2});
    CHECK_THROWS_AS(parse_options({{"broadside.table", "5:1,7:30"}}), UsageError);
    CHECK_THROWS_AS(parse_options({{"broadside.table", "7:1,5:2"}}), UsageError);
}

TEST_CASE("N6 attribute.*: the random attribute table, its modifiers and what each shot takes",
          "[naval][N6][rules]") {
    using A = std::array<int, 3>;
    // Roundshot at range 1: 5 + 1 + 1 = 7, two points. The book: 3 Cannon, 5 Crew.
    CHECK(ratings_of(broadside_under({}, 1, kRoundshot, {5, 3, 5})) == A{1, 0, 1});
    // Up to 3 Movement, up to 5 Cannon: 3 Movement, 5 Cannon.
    CHECK(ratings_of(
              broadside_under({{"attribute.movement_up_to", "3"}, {"attribute.cannon_up_to", "5"}},
                              1, kRoundshot, {5, 3, 5})) == A{0, 0, 2});
    CHECK_THROWS_AS(
        parse_options({{"attribute.movement_up_to", "5"}, {"attribute.cannon_up_to", "4"}}),
        UsageError);
    // attribute.roll=1d10: 9 is Crew (the book's d6 has no 9).
    CHECK(ratings_of(broadside_under({{"attribute.roll", "1d10"}}, 1, kRoundshot, {5, 9, 1})) ==
          A{0, 1, 1});
    // attribute.grape.modifier: the book's +1 makes 4 and 2 Crew and Cannon; 0: Cannon, Movement.
    CHECK(ratings_of(broadside_under({}, 2, kGrapeshot, {6, 4, 2})) == A{1, 0, 1});
    CHECK(ratings_of(broadside_under({{"attribute.grape.modifier", "0"}}, 2, kGrapeshot,
                                     {6, 4, 2})) == A{0, 0, 2});
    // attribute.round.modifier=2: 3 + 2 = 5, Crew (the book: Cannon).
    CHECK(ratings_of(broadside_under({{"attribute.round.modifier", "2"}}, 4, kRoundshot, {6, 3})) ==
          A{1, 1, 1});
    // Chainshot: the book takes Movement with no roll; takes=table rolls, with its modifier.
    CHECK(ratings_of(broadside_under({}, 3, kChainshot, {6})) == A{0, 1, 2});
    CHECK(ratings_of(broadside_under({{"attribute.chain.takes", "table"}}, 3, kChainshot,
                                     {6, 6})) == A{1, 1, 1});
    CHECK(ratings_of(broadside_under(
              {{"attribute.chain.takes", "table"}, {"attribute.chain.modifier", "3"}}, 3,
              kChainshot, {6, 1})) == A{1, 0, 2});
    CHECK(ratings_of(broadside_under({{"attribute.chain.takes", "crew"}}, 3, kChainshot, {6})) ==
          A{1, 1, 1});
    // Roundshot and grapeshot roll on the table in the book; takes=cannon or movement: no roll.
    CHECK(ratings_of(broadside_under({{"attribute.round.takes", "cannon"}}, 4, kRoundshot, {6})) ==
          A{1, 0, 2});
    CHECK(ratings_of(broadside_under({{"attribute.grape.takes", "movement"}}, 2, kGrapeshot,
                                     {6, /* a second point */})) == A{-1, 1, 2});
}

TEST_CASE("N6 sinking.cannon: the Cannon at which a ship sinks is an option",
          "[naval][N6][rules]") {
    // As "N6 broadsides are simultaneous; Cannon -2 sinks": both ships fall to Cannon -2.
    const auto both = [](const Settings& settings) {
        State s = duel_under(settings, 1);
        s.ship[0].cannon = s.ship[1].cannon = -1;
        Puppet a, b;
        a.plays = b.plays = false;
        a.shot[0] = {1, kRoundshot};
        b.shot[1] = {0, kRoundshot};
        ScriptedDice dice{6, 3, 6, 4};
        broadside_phase(s, a, b, dice);
        CHECK(dice.remaining() == 0);
        CHECK(s.ship[0].cannon == -2);
        return s.afloat(0) + s.afloat(1);
    };
    CHECK(both({}) == 0);
    CHECK(both({{"sinking.cannon", "-3"}}) == 2);
    // sinking.cannon=0: one point off Cannon 1 sinks.
    CHECK(broadside_under({}, 4, kRoundshot, {6, 3}).afloat);
    CHECK_FALSE(broadside_under({{"sinking.cannon", "0"}}, 4, kRoundshot, {6, 3}).afloat);
    // A position's ship at Cannon -2 is afloat only where it would not have sunk.
    const std::string text = "turn 3\nship a 0 0 S 1 -2 2\nship b 5 5 N 1 1 2\n";
    CHECK_THROWS_AS(read_position(text, "p.txt", parse_options({})), UsageError);
    CHECK(read_position(text, "p.txt", parse_options({{"sinking.cannon", "-3"}})).state.n_ships ==
          2);
}

TEST_CASE("N7 boarding.*: the boarding roll, ties and the prize crew are options",
          "[naval][N7][rules]") {
    // As "N7 boarding": ship 0 (A, Crew 3) and ship 1 (B, Crew 2) side by side; A boards.
    const auto board = [](const Settings& settings, ScriptedDice dice) {
        State s = duel_under(settings, 1);
        s.ship[0].crew = 3;
        Puppet a, b;
        a.plays = b.plays = false;
        a.boards = true;
        boarding_phase(s, a, b, dice);
        CHECK(dice.remaining() == 0);
        CHECK(s.boardings == 1);
        return s;
    };
    // The book: 2 + 3 against 3 + 2, a tie, again; 4 + 3 against 6 + 2: B takes ship 0.
    {
        const State s = board({}, {2, 3, 4, 6});
        CHECK(s.ship[0].side == 1);
        CHECK(s.ship[0].crew == 1);
        CHECK(s.ship[1].crew == 1);
    }
    // boarding.ties=nobody: the tie ends the action, no prize.
    {
        const State s = board({{"boarding.ties", "nobody"}}, {2, 3});
        CHECK(s.ship[0].side == 0);
        CHECK(s.captures == std::array<int, 2>{0, 0});
        CHECK(s.ship[0].crew == 3);
    }
    // boarding.prize_crew=2: A wins (6 + 3 against 1 + 2), moves two crew points across.
    {
        const State book = board({}, {6, 1});
        CHECK(book.ship[0].crew == 2);
        CHECK(book.ship[1].crew == 1);
        const State s = board({{"boarding.prize_crew", "2"}}, {6, 1});
        CHECK(s.ship[1].side == 0);
        CHECK(s.ship[0].crew == 1);
        CHECK(s.ship[1].crew == 2);
    }
    // boarding.roll=2d6: 1 + 1 + 3 against 6 + 6 + 2: B wins (one die each would be A's 4 to 3).
    {
        const State s = board({{"boarding.roll", "2d6"}}, {1, 1, 6, 6});
        CHECK(s.ship[0].side == 1);
    }
    // boarding.roll=1d10: 8 + 3 against 10 + 2: B wins.
    {
        const State s = board({{"boarding.roll", "1d10"}}, {8, 10});
        CHECK(s.ship[0].side == 1);
    }
    // A fixed roll never breaks a tie: refused while ties are rolled again.
    try {
        parse_options({{"boarding.roll", "3"}});
        FAIL("a fixed boarding roll accepted with ties rolled again");
    } catch (const UsageError& e) {
        CHECK(std::string(e.what()).find("boarding.roll='3'") != std::string::npos);
    }
    CHECK_NOTHROW(parse_options({{"boarding.roll", "3"}, {"boarding.ties", "nobody"}}));
}

TEST_CASE("N4 hand.max and hand.draw: the hand limit and the cards drawn a turn are options",
          "[naval][N4][rules]") {
    // The deck's top is its last card: A draws Quick Reload first, then Maneuver, Calm Waters...
    const auto drawn = [](const Settings& settings, int held) {
        State s = duel_under(settings, 3);
        s.deck_n = 6;
        const std::uint8_t deck[6] = {kGustOfWind, kCrowsNest, kRakeTheBow,
                                      kCalmWaters, kManeuver,  kQuickReload};
        std::copy_n(deck, 6, s.deck.begin());
        for (int k = 0; k < held; ++k) give(s, 0, {kRallyTheMen});
        Puppet a, b;
        ScriptedDice dice{};
        draw_phase(s, a, b, dice);
        return s;
    };
    {
        // The book: one card each; at 5 + 1 A discards its first card.
        const State s = drawn({}, 5);
        CHECK(s.hand_n[0] == kHandLimit);
        CHECK(s.hand[0][4] == kQuickReload);
        CHECK(s.hand_n[1] == 1);
        CHECK(s.hand[1][0] == kManeuver);
        CHECK(s.discards_n == 1);
    }
    {
        // hand.max=6: six cards kept.
        const State s = drawn({{"hand.max", "6"}}, 5);
        CHECK(s.hand_n[0] == 6);
        CHECK(s.discards_n == 0);
        // hand.max=3: at 4, one discarded.
        const State t = drawn({{"hand.max", "3"}}, 3);
        CHECK(t.hand_n[0] == 3);
        CHECK(t.discards_n == 1);
    }
    {
        // hand.draw=2: A draws Quick Reload and Maneuver, B Calm Waters and Rake the Bow.
        const State s = drawn({{"hand.draw", "2"}}, 0);
        CHECK(s.hand_n == std::array<int, 2>{2, 2});
        CHECK(s.hand[0][1] == kManeuver);
        CHECK(s.hand[1][1] == kRakeTheBow);
        CHECK(s.deck_n == 2);
        // With hand.max=1, each card drawn past the limit is discarded at once (the first slot).
        const State t = drawn({{"hand.draw", "2"}, {"hand.max", "1"}}, 0);
        CHECK(t.hand_n == std::array<int, 2>{1, 1});
        CHECK(t.hand[0][0] == kManeuver);
        CHECK(t.hand[1][0] == kRakeTheBow);
        CHECK(t.discards_n == 2);
        // hand.draw=0: no card drawn.
        CHECK(drawn({{"hand.draw", "0"}}, 0).deck_n == 6);
    }
    // A position's hand of six: past the book's limit, within hand.max=6.
    const std::string text =
        "turn 3\nship a 0 0 S 1 1 2\nship b 5 5 N 1 1 2\n"
        "hand a gust-of-wind gust-of-wind maneuver maneuver calm-waters calm-waters\n";
    CHECK_THROWS_AS(read_position(text, "p.txt", parse_options({})), UsageError);
    CHECK(read_position(text, "p.txt", parse_options({{"hand.max", "6"}})).state.hand_n[0] == 6);
    CHECK_THROWS_AS(parse_options({{"hand.max", "8"}}), UsageError);
}

TEST_CASE("N9 card.*: each card's modifier is an option", "[naval][N9][rules]") {
    const auto roll = [](Roll::Kind kind, bool own, int ammo = kRoundshot, bool rake = false) {
        Roll r;
        r.kind = kind;
        r.own = own;
        r.ammo = static_cast<std::uint8_t>(ammo);
        r.rake = rake;
        return r;
    };
    // The roll each card changes (N9), and its option.
    const std::array<std::pair<int, const char*>, 12> cards{{
        {kGustOfWind, "card.gust_of_wind"},
        {kUnfurlTheSails, "card.unfurl_the_sails"},
        {kCatchTheWind, "card.catch_the_wind"},
        {kFierceHandToHand, "card.fierce_hand_to_hand"},
        {kSwordsAndPistols, "card.swords_and_pistols"},
        {kRallyTheMen, "card.rally_the_men"},
        {kSweepTheDecks, "card.sweep_the_decks"},
        {kSplinteringWood, "card.splintering_wood"},
        {kDamagedRigging, "card.damaged_rigging"},
        {kManeuver, "card.maneuver"},
        {kCalmWaters, "card.calm_waters"},
        {kRakeTheBow, "card.rake_the_bow"},
    }};
    const auto its_roll = [&](int card) {
        switch (card) {
            case kGustOfWind:
            case kUnfurlTheSails:
            case kCatchTheWind:
                return roll(Roll::kMove, true);
            case kCalmWaters:
                return roll(Roll::kMove, false);
            case kManeuver:
                return roll(Roll::kBroadside, false);
            case kSweepTheDecks:
                return roll(Roll::kBroadside, true, kGrapeshot);
            case kSplinteringWood:
                return roll(Roll::kBroadside, true, kRoundshot);
            case kDamagedRigging:
                return roll(Roll::kBroadside, true, kChainshot);
            case kRakeTheBow:
                return roll(Roll::kBroadside, true, kGrapeshot, true);
            default:
                return roll(Roll::kBoard, true);
        }
    };
    const Rules book = parse_options({}).rules;
    for (const auto& [card, name] : cards) {
        INFO(name);
        const Roll r = its_roll(card);
        CHECK(card_modifier(book, card, r) == card_modifier(card, r));
        const Rules changed = parse_options({{name, "7"}}).rules;
        CHECK(card_modifier(changed, card, r) == 7);
        for (const auto& [other, other_name] : cards)
            if (other != card)
                CHECK(card_modifier(changed, other, its_roll(other)) ==
                      card_modifier(other, its_roll(other)));
        CHECK(card_modifier(changed, card, roll(Roll::kReload, true)) == 0);  // not its roll
    }
    // In play: Splintering Wood at range 4, a 4: 4 + 1 - 2 + 1 + 2 = 6, one point (Cannon); at
    // card.splintering_wood=0 it makes 4: nothing (the card is played all the same).
    const auto fire = [](const Settings& settings, ScriptedDice dice) {
        State s = duel_under(settings, 4);
        give(s, 0, {kSplinteringWood});
        Puppet a, b;
        a.shot[0] = {1, kRoundshot};
        broadside_phase(s, a, b, dice);
        CHECK(dice.remaining() == 0);
        CHECK(s.hand_n[0] == 0);
        return ratings_of(s.ship[1]);
    };
    CHECK(fire({}, {4, 3}) == std::array<int, 3>{1, 0, 2});
    CHECK(fire({{"card.splintering_wood", "0"}}, {4}) == std::array<int, 3>{1, 1, 2});
}

TEST_CASE("N6b, N7b restrict.a, restrict.b: read, named in the scenario, refused when bad",
          "[naval][N6b][N7b]") {
    CHECK(parse_options({}).rules.barred == std::array<std::uint8_t, 2>{0, 0});
    CHECK(scenario(parse_options({})).find("restrict") == std::string::npos);
    const Options o = parse_options({{"restrict.a", "board,roundshot"}, {"restrict.b", "take"}});
    CHECK(o.rules.barred[0] == (1u << kRoundshot | Rules::kBarBoard));
    CHECK(o.rules.barred[1] == Rules::kBarTake);
    CHECK(scenario(o).find("restrict.a=roundshot,board restrict.b=take") != std::string::npos);
    for (const char* bad : {"boarding", "", "none,board"})
        CHECK_THROWS_WITH(parse_options({{"restrict.b", bad}}),
                          Catch::Contains("restrict.b") && Catch::Contains("grapeshot"));
}

TEST_CASE("N6b a barred ammunition: the next one in range, else holding fire; the rest unchanged",
          "[naval][N6b]") {
    // Roundshot at range 4 (as "N6 the broadside table"): 6 + 1 - 2 + 1 = 6, one point; the
    // attribute die 3 takes Cannon.
    CHECK(ratings_of(broadside_under({{"restrict.a", "grapeshot"}}, 4, kRoundshot, {6, 3})) ==
          std::array<int, 3>{1, 0, 2});
    CHECK(ratings_of(broadside_under({}, 4, kRoundshot, {6, 3})) == std::array<int, 3>{1, 0, 2});
    // Roundshot barred: chainshot, in range at 4: 6 + 1 - 2 = 5, one point, off Movement, no
    // attribute die.
    CHECK(ratings_of(broadside_under({{"restrict.a", "roundshot"}}, 4, kRoundshot, {6})) ==
          std::array<int, 3>{0, 1, 2});
    // Roundshot and chainshot barred: grapeshot reaches 2 hexes: A holds fire, nothing rolled.
    CHECK(ratings_of(broadside_under({{"restrict.a", "roundshot,chainshot"}}, 4, kRoundshot, {})) ==
          std::array<int, 3>{1, 1, 2});
    // Side B's restriction is not A's.
    CHECK(ratings_of(broadside_under({{"restrict.b", "roundshot"}}, 4, kRoundshot, {6, 3})) ==
          std::array<int, 3>{1, 0, 2});
}

TEST_CASE("N7b a side barred from boarding is never asked; barred from taking, it sinks",
          "[naval][N7b]") {
    Puppet a, b;
    a.plays = b.plays = false;
    a.boards = true;
    {  // A would board, but may not; B declines: no action, no dice
        State s = duel_under({{"restrict.a", "board"}}, 1);
        ScriptedDice none{};
        boarding_phase(s, a, b, none);
        CHECK(s.boardings == 0);
    }
    {  // B may still board A: 1 + 2 against 6 + 2, B wins and takes
        State s = duel_under({{"restrict.a", "board"}}, 1);
        Puppet d = b;
        d.boards = true;
        ScriptedDice dice{1, 6};
        boarding_phase(s, a, d, dice);
        CHECK(dice.remaining() == 0);
        CHECK(s.boardings == 1);
        CHECK(s.ship[0].side == 1);
    }
    {  // A wins (6 + 2 against 1 + 2) and would take the prize: barred, it sinks it
        State s = duel_under({{"restrict.a", "take"}}, 1);
        ScriptedDice dice{6, 1};
        boarding_phase(s, a, b, dice);
        CHECK(dice.remaining() == 0);
        CHECK_FALSE(s.ship[1].afloat);
        CHECK(s.captures == std::array<int, 2>{0, 0});
    }
}

TEST_CASE("N6b, N7b every policy of a restricted side honours it over whole games",
          "[naval][N6b][N7b]") {
    const Options o = parse_options({{"restrict.a", "board,take,roundshot"},
                                     {"ships", "3"},
                                     {"width", "8"},
                                     {"max_turns", "12"}});
    for (const char* name : {"gunner", "boarder", "random", "rollout:2", "mcts:20"}) {
        const PolicyChoice pc = parse_policy("naval", kPolicyInfos, name);
        Policy pa = kPolicies[pc.index].make(o, pc.args), pb = pa;
        int shots = 0;
        for (std::uint64_t g = 0; g < 4; ++g) {
            odds::Dice dice(g + 7);
            const Game::Options go{};
            State s = Game::start(opening(o), dice);
            while (!Game::over(s, go)) {
                Policy& p = s.actor == 0 ? pa : pb;
                const auto c = std::visit([&](auto& q) { return Game::decide(s, go, q, dice); }, p);
                if (s.actor == 0 && (s.step == Step::kBoard || s.step == Step::kTake))
                    CHECK(c.a == 0);
                if (s.actor == 0 && s.step == Step::kDeclare && c.a >= 0) {
                    CHECK(c.b != kRoundshot);
                    ++shots;
                }
                Game::apply(s, go, c, dice);
            }
        }
        if (std::string(name) != "random") CHECK(shots > 0);
    }
}
