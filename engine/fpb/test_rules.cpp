// Full Plastic Bodybag rule tests: each H-ruling pinned to the exact faces it prescribes.
#include <algorithm>

#include <catch2/catch.hpp>

#include "engine/dice.hpp"
#include "engine/fpb/fpb.hpp"
#include "engine/fpb/policies.hpp"

using namespace odds;
using namespace odds::fpb;

namespace {

// Plays exactly the given decisions every turn.
struct Scripted {
    Order order;
    CarryPlan plan = no_carries();
    bool call = false;
    template <class D>
    Order leader(const State&, D&) {
        return order;
    }
    template <class D>
    CarryPlan carries(const State&, D&) {
        return plan;
    }
    template <class D>
    bool bug_out(const State&, D&) {
        return call;
    }
};

// Five quiet reaction rolls (1 + 2: a success, no double) for the men who roll after Tex.
std::vector<int> quiet(int men) {
    std::vector<int> v(2 * static_cast<std::size_t>(men), 1);
    for (std::size_t i = 1; i < v.size(); i += 2) v[i] = 2;
    return v;
}

std::vector<int> cat(std::vector<int> a, const std::vector<int>& b) {
    a.insert(a.end(), b.begin(), b.end());
    return a;
}

}  // namespace

TEST_CASE("H1 the squad starts in place", "[fpb][H1]") {
    const State s;
    CHECK(s.m[kIceCube].wounded());
    CHECK(s.m[kIceCube].area == 1);
    for (int i : {kLt, kTex, kBuster, kReflex, kSnowball, kLegs, kEdsel}) {
        CHECK(s.m[i].fit());
        CHECK(s.m[i].area == 3);
    }
    CHECK(kBookOptions.guts[kTex] == 9);
    CHECK(kBookOptions.guts[kEdsel] == 6);
}

TEST_CASE("H2 Guts: 2d6 at or under succeeds; a double is also a critical", "[fpb][H2]") {
    ScriptedDice d{3, 3, 4, 4, 1, 2, 6, 1};
    const Guts a = guts_roll(6, d), b = guts_roll(6, d), c = guts_roll(6, d), e = guts_roll(6, d);
    CHECK((a.success && a.critical));   // 3+3 = 6: success, critical
    CHECK((!b.success && b.critical));  // 4+4 = 8: failure, but a critical
    CHECK((c.success && !c.critical));
    CHECK((!e.success && !e.critical));
}

TEST_CASE("H5 Heroics out of a wounded man's area: one area toward him", "[fpb][H5]") {
    State s;
    Options o;
    Scripted p;
    // Tex rolls 5+5: a critical: Heroics, not in Ice-cube's area: he moves to area 2. The five
    // others stay frosty. The sniper shoots Tex in area 2: 4 misses (no cover: 5-6 wounds).
    ScriptedDice d(cat(cat({5, 5}, quiet(5)), {4}));
    play_turn(s, o, p, d);
    CHECK(d.remaining() == 0);
    CHECK(s.m[kTex].area == 2);
    CHECK(s.m[kTex].fit());
}

TEST_CASE("H5 Heroics in a wounded man's area: he carries him, no roll", "[fpb][H5]") {
    State s;
    Options o;
    s.m[kTex].area = 1;  // Tex lies beside Ice-cube when the turn begins
    Scripted p;
    // Tex: 2+2, Heroics: carries Ice-cube to area 2 with no further roll. Sniper: Tex 1.
    ScriptedDice d(cat(cat({2, 2}, quiet(5)), {1}));
    play_turn(s, o, p, d);
    CHECK(d.remaining() == 0);
    CHECK(s.m[kTex].area == 2);
    CHECK(s.m[kIceCube].area == 2);
}

TEST_CASE("H5 a man carried this turn is carried again by a hero in his new area", "[fpb][H5]") {
    State s;
    Options o;
    s.m[kTex].area = 1;     // Tex lies beside Ice-cube
    s.m[kBuster].area = 2;  // Buster waits one area back
    Scripted p;
    // Tex 1+1: Heroics: carries Ice-cube to area 2. Buster 2+2: Heroics: Ice-cube now lies in
    // his area, already carried this turn; the one-carrier limit is the voluntary carry's alone,
    // so Buster carries him on to area 3. Reflex, Snowball, Legs, Edsel quiet. Sniper: Tex 1.
    ScriptedDice d(cat(cat({1, 1, 2, 2}, quiet(4)), {1}));
    play_turn(s, o, p, d);
    CHECK(d.remaining() == 0);
    CHECK(s.m[kTex].area == 2);
    CHECK(s.m[kBuster].area == 3);
    CHECK(s.m[kIceCube].area == 3);
}

TEST_CASE("H5 a voluntary carry, then a hero carries the same man on", "[fpb][H5]") {
    State s;
    Options o;
    s.m[kTex].area = 1;
    s.m[kBuster].area = 2;
    Scripted p;
    p.plan[kTex] = kIceCube;
    // Tex carries: 3+4 <= 9: Ice-cube to area 2. Tex tried to carry: he does not react. Buster
    // 3+3: Heroics: carries Ice-cube on to area 3. Four quiet men. Sniper: Tex 1.
    ScriptedDice d(cat(cat({3, 4, 3, 3}, quiet(4)), {1}));
    play_turn(s, o, p, d);
    CHECK(d.remaining() == 0);
    CHECK(s.m[kIceCube].area == 3);
    CHECK(s.m[kBuster].area == 3);
}

TEST_CASE("H5a Heroics takes Ice-cube before a wounded Lt in the same area", "[fpb][H5a]") {
    State s;
    Options o;
    s.m[kLt].status = kWounded;  // the Lt lies wounded beside Ice-cube: no leader action
    s.m[kLt].area = 1;
    s.m[kTex].area = 1;
    Scripted p;
    // Tex 1+1: Heroics: Ice-cube first, then roster order. Five quiet men. Sniper: Tex 1.
    ScriptedDice d(cat(cat({1, 1}, quiet(5)), {1}));
    play_turn(s, o, p, d);
    CHECK(d.remaining() == 0);
    CHECK(s.m[kIceCube].area == 2);
    CHECK(s.m[kLt].area == 1);
}

TEST_CASE("H5a a bug-out takes Ice-cube before a wounded Lt", "[fpb][H5a][H7]") {
    State s;
    s.m[kLt].status = kWounded;  // the Lt is down in area 3, and so is Ice-cube
    s.m[kIceCube].area = 3;
    for (int i = kBuster; i < kSquad; ++i) s.m[i].area = 2;
    // Only Tex is fit in area 3: 1+2 goes, taking Ice-cube, not the Lt.
    ScriptedDice d{1, 2};
    CHECK(bug_out_phase(s, d) == 2);
    CHECK(d.remaining() == 0);
    CHECK(s.m[kIceCube].status == kOut);
    CHECK(s.m[kLt].status == kWounded);
}

TEST_CASE("H5 a failed reaction opens up covering fire; firers do not roll again", "[fpb][H5]") {
    State s;
    Options o;
    Scripted p;
    // Tex 6+5 = 11 > 9: he opens up. Next turn he is firing and does not roll.
    ScriptedDice d(cat(cat({6, 5}, quiet(5)), quiet(5)));
    play_turn(s, o, p, d);
    CHECK(s.m[kTex].firing);
    play_turn(s, o, p, d);
    CHECK(d.remaining() == 0);
}

TEST_CASE("H5 a carry: the carrier's Guts moves both; one carrier per wounded man", "[fpb][H5]") {
    State s;
    Options o;
    s.m[kTex].area = 1;
    s.m[kBuster].area = 1;
    Scripted p;
    p.plan[kTex] = kIceCube;
    p.plan[kBuster] = kIceCube;  // a second carrier for the same man is ignored
    // Tex carries: 3+4 = 7 <= 9: both to area 2. Buster, who tried nothing, reacts: 1+2.
    // The others react quietly. Sniper: Tex (area 2) 1, Buster (area 1) 1.
    ScriptedDice d(cat(cat({3, 4}, quiet(5)), {1, 1}));
    play_turn(s, o, p, d);
    CHECK(d.remaining() == 0);
    CHECK(s.m[kTex].area == 2);
    CHECK(s.m[kIceCube].area == 2);
    CHECK(s.m[kBuster].area == 1);
}

TEST_CASE("H4 the leader's orders: smoke, covering fire, halt, move", "[fpb][H4]") {
    SECTION("smoke: Lt's Guts, then d6 + 2 turns, the longer kept") {
        State s;
        s.smoke[2] = 6;
        ScriptedDice d{1, 2, 1};  // Lt 3 <= 8; d6 = 1: 3 turns, shorter than the 6 left
        leader_phase(s, Order::smoke(2), d);
        CHECK(s.smoke[2] == 6);
        ScriptedDice e{1, 2, 6};
        leader_phase(s, Order::smoke(3), e);
        CHECK(s.smoke[3] == 8);
        ScriptedDice f{6, 6};  // 12 > 8: no smoke; no duration rolled
        leader_phase(s, Order::smoke(2), f);
        CHECK(f.remaining() == 0);
        ScriptedDice g{};  // area 1 is out of the Lt's reach from area 3: nothing rolled
        leader_phase(s, Order::smoke(1), g);
        CHECK(s.smoke[1] == 0);
    }
    SECTION("covering fire and halt: one Lt roll for everyone named") {
        State s;
        ScriptedDice d{4, 4};
        leader_phase(s, Order::cover(static_cast<std::uint8_t>((1 << kTex) | (1 << kBuster))), d);
        CHECK(s.m[kTex].firing);
        CHECK(s.m[kBuster].firing);
        ScriptedDice e{5, 4};  // 9 > 8: the halt fails
        leader_phase(s, Order::halt(static_cast<std::uint8_t>(1 << kTex)), e);
        CHECK(s.m[kTex].firing);
    }
    SECTION("move: each figure rolls his own Guts; moving ends covering fire") {
        State s;
        s.m[kLegs].firing = true;
        ScriptedDice d{1, 1, 6, 6};  // Lt 2: moves; Legs 12 > 6: stays
        leader_phase(s, Order{}.move(kLt, -1).move(kLegs, -1), d);
        CHECK(s.m[kLt].area == 2);
        CHECK(s.m[kLt].moved);
        CHECK(s.m[kLegs].area == 3);
        CHECK(s.m[kLegs].firing);
    }
}

TEST_CASE("H6 the sniper: covering fire and smoke, smoke over covering fire", "[fpb][H6]") {
    auto setup = [] {
        State s;
        s.m[kTex].area = 1;
        s.m[kBuster].firing = true;  // covering fire from area 3
        return s;
    };
    {  // covering fire, no smoke: area 1 is wounded on 5-6
        State s = setup();
        ScriptedDice d{5};
        sniper_phase(s, d);
        CHECK(s.m[kTex].wounded());
    }
    {  // no covering fire, no smoke: 4-6
        State s = setup();
        s.m[kBuster].firing = false;
        ScriptedDice d{4};
        sniper_phase(s, d);
        CHECK(s.m[kTex].wounded());
    }
    {  // smoke in area 1 overrides covering fire: only a 6; then friendly fire (a firer in
        // area 3, a man in smoke): 1 misses
        State s = setup();
        s.smoke[1] = 3;
        ScriptedDice d{5, 1};
        sniper_phase(s, d);
        CHECK(d.remaining() == 0);
        CHECK(s.m[kTex].fit());
    }
    {  // friendly fire: 6 wounds the man in smoke
        State s = setup();
        s.smoke[1] = 3;
        ScriptedDice d{2, 6};
        sniper_phase(s, d);
        CHECK(s.m[kTex].wounded());
        CHECK(s.m[kTex].hit_turn == s.turn);
    }
    {  // smoke in area 2: the sniper cannot wound there at all
        State s = setup();
        s.m[kTex].area = 2;
        s.smoke[2] = 2;
        ScriptedDice d{6, 1};
        sniper_phase(s, d);
        CHECK(s.m[kTex].fit());
    }
}

TEST_CASE("H6 more than two wounded in an area: the most recently wounded are killed",
          "[fpb][H6]") {
    State s;
    s.m[kTex].area = 1;
    s.m[kBuster].area = 1;
    ScriptedDice d{4, 6};  // no cover: Tex then Buster wounded; three wounded in area 1
    sniper_phase(s, d);
    CHECK(s.m[kIceCube].wounded());
    CHECK(s.m[kTex].wounded());
    CHECK(s.m[kBuster].status == kDead);
    CHECK(outcome_of(s).killed == 1);
}

TEST_CASE("H7 bug-out with the Lt: one roll takes everyone in area 3", "[fpb][H7]") {
    State s;
    s.m[kIceCube].area = 3;
    s.m[kTex].area = 2;  // forward: stays
    ScriptedDice ok{3, 4};
    CHECK(bug_out_phase(s, ok) == 7);  // Lt + 5 men in area 3, and Ice-cube with them
    CHECK(s.m[kIceCube].status == kOut);
    CHECK(s.m[kIceCube].was_wounded);
    CHECK(s.m[kTex].fit());
    State t;
    ScriptedDice fail{5, 6};
    CHECK(bug_out_phase(t, fail) == 0);
}

TEST_CASE("H7 bug-out without the Lt: each man rolls, taking one wounded man", "[fpb][H7]") {
    State s;
    s.m[kLt].status = kWounded;  // the Lt is down, in area 3
    // Tex 6+6 fails; Buster 1+1 goes, taking the Lt (the first wounded in area 3); Reflex,
    // Snowball, Legs, Edsel 1+2 go.
    ScriptedDice d{6, 6, 1, 1, 1, 2, 1, 2, 1, 2, 1, 2};
    CHECK(bug_out_phase(s, d) == 6);
    CHECK(d.remaining() == 0);
    CHECK(s.m[kTex].fit());
    CHECK(s.m[kLt].status == kOut);
}

TEST_CASE("H3 the turn cap: everyone on the board is left behind", "[fpb][H3]") {
    Options o;
    o.max_turns = 1;
    Scripted p;
    ScriptedDice d(quiet(6));
    const State s = play(o, p, d);
    CHECK(d.remaining() == 0);
    const Outcome r = outcome_of(s);
    CHECK(r.turns == 1);
    CHECK(r.left_behind == 8);
    CHECK(r.outcome == Outcome::kLost);
}

TEST_CASE("H8 outcome classes", "[fpb][H8]") {
    State s;
    for (auto& x : s.m) x.status = kOut;
    CHECK(outcome_of(s).outcome == Outcome::kClean);
    s.m[kIceCube].status = kWounded;
    CHECK(outcome_of(s).outcome == Outcome::kCostly);
    for (auto& x : s.m) x.status = kDead;
    CHECK(outcome_of(s).outcome == Outcome::kLost);
}

TEST_CASE("H4 a move is one area: a larger step is ignored", "[fpb][H4]") {
    State s;
    Order o;
    o.kind = Order::kMove;
    o.who = static_cast<std::uint8_t>(1 << kTex);
    o.step[kTex] = -2;
    ScriptedDice d{};  // not a legal move: nobody rolls
    leader_phase(s, o, d);
    CHECK(s.m[kTex].area == 3);
}

TEST_CASE(
    "H4a the Lt orders covering fire and halts for his men, not himself; reach is judged before "
    "anyone moves",
    "[fpb][H4][H4a]") {
    SECTION(
        "covering fire and halt: the Lt named with his men is left out, named alone nothing is "
        "rolled") {
        State s;
        ScriptedDice d{1, 2};  // one Lt roll for the order: 3 <= 8
        leader_phase(s, Order::cover(static_cast<std::uint8_t>((1 << kLt) | (1 << kTex))), d);
        CHECK(d.remaining() == 0);
        CHECK(s.m[kTex].firing);
        CHECK_FALSE(s.m[kLt].firing);
        ScriptedDice none{};  // an order for himself alone: no roll at all
        leader_phase(s, Order::cover(static_cast<std::uint8_t>(1 << kLt)), none);
        leader_phase(s, Order::halt(static_cast<std::uint8_t>(1 << kLt)), none);
        CHECK_FALSE(s.m[kLt].firing);
        CHECK(s.m[kTex].firing);
        ScriptedDice halt{2, 1};  // the Lt and Tex named: one roll halts Tex
        leader_phase(s, Order::halt(static_cast<std::uint8_t>((1 << kLt) | (1 << kTex))), halt);
        CHECK(halt.remaining() == 0);
        CHECK_FALSE(s.m[kTex].firing);
    }
    SECTION("move: the Lt falls back first, Tex was in his reach when ordered and still moves") {
        State s;
        s.m[kLt].area = 2;
        s.m[kTex].area = 1;
        // The Lt (roster first) rolls 1+2 and moves to area 3, out of area 1's reach; Tex was
        // within reach when the order was given, so he rolls too: 1+2, to area 2.
        ScriptedDice d{1, 2, 1, 2};
        leader_phase(s, Order{}.move(kLt, +1).move(kTex, +1), d);
        CHECK(d.remaining() == 0);
        CHECK(s.m[kLt].area == 3);
        CHECK(s.m[kTex].area == 2);
    }
}

TEST_CASE("H5a Heroics: only wounded men in areas 1-2 count; Ice-cube first, then roster order",
          "[fpb][H5][H5a]") {
    SECTION("a wounded man in area 3 draws no hero: Tex heads for Ice-cube in area 1") {
        State s;
        s.m[kBuster].status = kWounded;  // in cover, in area 3 with Tex
        // Tex 3+3, a critical: Heroics. Buster needs no carrying; the nearest wounded man who
        // counts is Ice-cube, so Tex moves to area 2. Reflex, Snowball, Legs, Edsel: quiet.
        ScriptedDice d{3, 3, 1, 2, 1, 2, 1, 2, 1, 2};
        reaction_phase(s, no_carries(), d);
        CHECK(d.remaining() == 0);
        CHECK(s.m[kTex].area == 2);
        CHECK(s.m[kBuster].area == 3);
    }
    SECTION("two wounded men beside the hero: Ice-cube first; without him, roster order") {
        State s;
        s.m[kTex].area = 1;
        s.m[kBuster].area = 1;
        s.m[kBuster].status = kWounded;                // Ice-cube and Buster wounded in area 1
        ScriptedDice d{2, 2, 1, 2, 1, 2, 1, 2, 1, 2};  // Tex: Heroics; Reflex..Edsel quiet
        reaction_phase(s, no_carries(), d);
        CHECK(d.remaining() == 0);
        CHECK(s.m[kIceCube].area == 2);
        CHECK(s.m[kBuster].area == 1);
        State t;
        t.m[kIceCube].area = 3;  // Ice-cube already in cover
        t.m[kTex].area = 1;
        for (int w : {kSnowball, kBuster}) {
            t.m[w].area = 1;
            t.m[w].status = kWounded;
        }
        ScriptedDice e{4, 4, 1, 2, 1, 2, 1, 2};  // Tex: Heroics (8 <= 9); Reflex, Legs, Edsel quiet
        reaction_phase(t, no_carries(), e);
        CHECK(e.remaining() == 0);
        CHECK(t.m[kBuster].area == 2);  // Buster before Snowball
        CHECK(t.m[kSnowball].area == 1);
        CHECK(t.m[kTex].area == 2);
    }
    SECTION("a bug-out takes Ice-cube first") {
        State s;
        for (int i : {kTex, kBuster, kReflex, kSnowball, kLegs, kEdsel}) s.m[i].status = kOut;
        s.m[kIceCube].area = 3;
        s.m[kBuster].status = kWounded;  // Buster wounded in area 3 too; the Lt the one fit man
        ScriptedDice d{2, 3};            // the Lt's roll: he goes, with one wounded man
        CHECK(bug_out_phase(s, d) == 2);
        CHECK(s.m[kIceCube].status == kOut);
        CHECK(s.m[kBuster].wounded());
    }
}

TEST_CASE("H5 a carry succeeds on a critical even when the total fails", "[fpb][H5][H2]") {
    State s;
    s.m[kLegs].area = 1;  // Guts 6
    Options opts;
    Scripted p;
    p.plan[kLegs] = kIceCube;
    // Legs carries on 4+4 = 8 > 6, a double: both move. Five quiet reactions (Tex, Buster,
    // Reflex, Snowball, Edsel). Sniper: Legs in area 2: 1.
    ScriptedDice d(cat(cat({4, 4}, quiet(5)), {1}));
    play_turn(s, opts, p, d);
    CHECK(d.remaining() == 0);
    CHECK(s.m[kLegs].area == 2);
    CHECK(s.m[kIceCube].area == 2);
}

TEST_CASE("H6 the excess wounded: killed by order of wounding, not roster", "[fpb][H6]") {
    State s;
    s.m[kEdsel].area = 1;
    s.m[kTex].area = 1;
    s.turn = 1;
    wound(s, kEdsel);  // Edsel wounded first (turn 1)
    s.turn = 2;
    ScriptedDice d{4};  // Tex wounded now: three wounded in area 1; Tex is the most recent
    sniper_phase(s, d);
    CHECK(s.m[kTex].status == kDead);
    CHECK(s.m[kEdsel].wounded());
}

TEST_CASE("H6a a firer wounded by the sniper gives no cause for friendly fire", "[fpb][H6a]") {
    State s;
    s.m[kTex].area = 1;
    s.smoke[1] = 2;
    s.m[kBuster].area = 2;
    s.m[kBuster].firing = true;  // the only firer, in area 2
    // Sniper: Tex (smoke, area 1) 1 misses; Buster (area 2, covering fire) 6: wounded, stops
    // firing. Nobody fires any more: no friendly-fire roll for Tex.
    ScriptedDice d{1, 6};
    sniper_phase(s, d);
    CHECK(d.remaining() == 0);
    CHECK(s.m[kBuster].wounded());
    CHECK(s.m[kTex].fit());
}

TEST_CASE("H7 bug-out with the Lt in area 2: the men in area 3 go, he stays", "[fpb][H7]") {
    State s;
    s.m[kLt].area = 2;
    ScriptedDice d{2, 2};
    CHECK(bug_out_phase(s, d) == 6);
    CHECK(s.m[kLt].fit());
    CHECK(s.m[kLt].area == 2);
}

TEST_CASE("H7 a fit Lt in area 1 cannot order it: each man rolls", "[fpb][H7]") {
    State s;
    s.m[kLt].area = 1;
    ScriptedDice d{1, 2, 6, 6, 1, 2, 6, 6, 1, 2, 6, 6};  // Tex, Reflex, Legs go
    CHECK(bug_out_phase(s, d) == 3);
    CHECK(d.remaining() == 0);
}

TEST_CASE("H8 the game ends when no fit marine is on the board", "[fpb][H8]") {
    State s;
    Options o;
    for (int i : {kLt, kTex, kBuster, kReflex, kSnowball, kLegs, kEdsel}) s.m[i].status = kOut;
    s.turn = 3;
    end_turn(s, o);
    CHECK(s.over);
    const Outcome r = outcome_of(s);
    CHECK(r.withdrawn == 7);
    CHECK(r.left_behind == 1);  // Ice-cube
    CHECK(r.outcome == Outcome::kCostly);
}

// Issue 29: every number of the rule book is an option; each test plays the book's value and a
// changed one on the same faces, so it fails if the option is ignored.
namespace {
Options with(std::initializer_list<std::pair<std::string, std::string>> set) {
    Settings s;
    for (const auto& [k, v] : set) s.emplace_back(k, v);
    return parse_options(s);
}
}  // namespace

TEST_CASE("H6 options: the sniper's table by area and cover", "[fpb][H6][variant]") {
    auto tex_in = [](int area, bool cover, bool smoke) {
        State s;
        s.m[kTex].area = static_cast<std::uint8_t>(area);
        s.m[kBuster].firing = cover;  // from area 3: no friendly fire roll unless smoke
        if (smoke) s.smoke[area] = 3;
        return s;
    };
    struct Case {
        const char* name;
        int area;
        bool cover, smoke;
        int face;        // wounds by the book ...
        const char* to;  // ... and not under this value
    };
    for (const Case& c : {Case{"sniper.area1.open", 1, false, false, 4, "5-6"},
                          Case{"sniper.area1.covered", 1, true, false, 5, "6"},
                          Case{"sniper.area1.smoke", 1, true, true, 6, "none"},
                          Case{"sniper.area2.open", 2, false, false, 5, "6"},
                          Case{"sniper.area2.covered", 2, true, false, 6, "1"}}) {
        INFO(c.name);
        const std::vector<int> faces =
            c.smoke ? std::vector<int>{c.face, 1} : std::vector<int>{c.face};
        State a = tex_in(c.area, c.cover, c.smoke), b = a;
        ScriptedDice da(faces), db(faces);
        sniper_phase(a, da, with({}));
        sniper_phase(b, db, with({{c.name, c.to}}));
        CHECK(a.m[kTex].wounded());
        CHECK(b.m[kTex].fit());
    }
    {  // area 2 in smoke: never by the book; 3-6 wounds on a 3
        State a = tex_in(2, false, true), b = a;
        ScriptedDice da{3}, db{3};
        sniper_phase(a, da, with({}));
        sniper_phase(b, db, with({{"sniper.area2.smoke", "3-6"}}));
        CHECK(a.m[kTex].fit());
        CHECK(b.m[kTex].wounded());
    }
    CHECK(scenario(with({{"sniper.area1.open", "5-6"}})).find("sniper.area1.open=5,6") !=
          std::string::npos);
    CHECK(scenario(with({})) == scenario(Options{}));
}

TEST_CASE("H6 options: friendly fire and the excess wounded", "[fpb][H6][variant]") {
    {  // friendly fire wounds on 6 by the book; on 5-6 a 5 wounds
        State a;
        a.m[kTex].area = 1;
        a.m[kBuster].firing = true;
        a.smoke[1] = 3;
        State b = a;
        ScriptedDice da{1, 5}, db{1, 5};
        sniper_phase(a, da, with({}));
        sniper_phase(b, db, with({{"friendly_fire.wounds_on", "5-6"}}));
        CHECK(a.m[kTex].fit());
        CHECK(b.m[kTex].wounded());
    }
    {  // two wounded in area 1 (Ice-cube, then Tex): kept by the book; one at most kills Tex
        State a;
        a.m[kTex].area = 1;
        State b = a;
        ScriptedDice da{6}, db{6};
        sniper_phase(a, da, with({}));
        sniper_phase(b, db, with({{"excess.max_wounded", "1"}}));
        CHECK(a.m[kTex].wounded());
        CHECK(b.m[kTex].status == kDead);
        CHECK(b.m[kIceCube].wounded());
    }
}

TEST_CASE("H1, H2 options: each marine's Guts", "[fpb][H2][variant]") {
    CHECK(with({}).guts[kTex] == 9);
    CHECK(with({{"guts.tex", "5"}}).guts[kTex] == 5);
    // Tex's carry: 3 + 4 = 7 succeeds at Guts 9 (both move), fails at guts.tex=5 (no double)
    auto carry = [](const Options& o) {
        State s;
        s.m[kTex].area = s.m[kTex].start_area = 1;
        CarryPlan p = no_carries();
        p[kTex] = kIceCube;
        ScriptedDice d(cat({3, 4}, quiet(5)));
        reaction_phase(s, p, d, o);
        return s;
    };
    CHECK(carry(with({})).m[kIceCube].area == 2);
    CHECK(carry(with({{"guts.tex", "5"}})).m[kIceCube].area == 1);
    // the Lt's roll for smoke: 4 + 5 = 9 fails at Guts 8, succeeds at guts.lt=9
    State a, b;
    ScriptedDice da{4, 5, 3}, db{4, 5, 3};
    leader_phase(a, Order::smoke(3), da, with({}));
    leader_phase(b, Order::smoke(3), db, with({{"guts.lt", "9"}}));
    CHECK(a.smoke[3] == 0);
    CHECK(b.smoke[3] == 5);
    // bravest-first sends the highest Guts: Tex by the book, Edsel at guts.edsel=12
    State s;
    Dice dice(1);
    const Order o1 = BravestFirst::of(with({})).leader(s, dice);
    const Order o2 = BravestFirst::of(with({{"guts.edsel", "12"}})).leader(s, dice);
    CHECK(o1.step[kTex] == -1);
    CHECK(o2.step[kEdsel] == -1);
}

TEST_CASE("H4 options: smoke.turns", "[fpb][H4][variant]") {
    State a, b, c;
    ScriptedDice da{1, 1, 4}, db{1, 1, 4}, dc{1, 1, 4, 3};
    leader_phase(a, Order::smoke(3), da, with({}));
    leader_phase(b, Order::smoke(3), db, with({{"smoke.turns", "1d6"}}));
    leader_phase(c, Order::smoke(3), dc, with({{"smoke.turns", "2d6+1"}}));
    CHECK(a.smoke[3] == 6);
    CHECK(b.smoke[3] == 4);
    CHECK(c.smoke[3] == 8);
    CHECK(dc.remaining() == 0);
    // a d8 (any die): ScriptedDice replays its face
    State d;
    ScriptedDice dd{1, 1, 8};
    leader_phase(d, Order::smoke(3), dd, with({{"smoke.turns", "1d8"}}));
    CHECK(d.smoke[3] == 8);
}

TEST_CASE("H1 options: where Ice-cube lies", "[fpb][H1][variant]") {
    CHECK(opening(with({})).m[kIceCube].area == 1);
    const auto o = with({{"squad.icecube_area", "2"}});
    const State s = opening(o);
    CHECK(s.m[kIceCube].area == 2);
    CHECK(s.m[kIceCube].start_area == 2);
    CHECK(s.m[kIceCube].wounded());
    CHECK(write_position(opening(o), o).find("marine icecube 2 wounded") != std::string::npos);
    // played games start there: a wounded man only moves toward area 3 (carried), so under the
    // variant Ice-cube never ends in area 1, by the book he often does (bug-out leaves him)
    BugOut p;
    Dice dice(7);
    int in1_variant = 0, in1_book = 0;
    for (int k = 0; k < 200; ++k) {
        const State g = play(o, p, dice), h = play(with({}), p, dice);
        in1_variant += g.m[kIceCube].on_board() && g.m[kIceCube].area == 1;
        in1_book += h.m[kIceCube].on_board() && h.m[kIceCube].area == 1;
    }
    CHECK(in1_variant == 0);
    CHECK(in1_book > 0);
}

TEST_CASE("H2 options: the Guts roll's dice, its direction and its critical",
          "[fpb][H2][H2a][variant]") {
    // the Lt's smoke roll: 4 + 5 = 9 fails his Guts 8 by the book; one die (guts.roll=1d6) reads
    // the 4 alone and succeeds, the 5 then the smoke's d6 (5 + 2 turns)
    State a, b;
    ScriptedDice da{4, 5, 3}, db{4, 5};
    leader_phase(a, Order::smoke(3), da, with({}));
    leader_phase(b, Order::smoke(3), db, with({{"guts.roll", "1d6"}}));
    CHECK(a.smoke[3] == 0);
    CHECK(da.remaining() == 1);
    CHECK(b.smoke[3] == 7);
    CHECK(db.remaining() == 0);
    // at or over: the same 9 succeeds against Guts 8
    State c;
    ScriptedDice dc{4, 5, 3};
    leader_phase(c, Order::smoke(3), dc, with({{"guts.succeeds", "at_or_over"}}));
    CHECK(c.smoke[3] == 5);
    // a d8 pool: 3d8 rolls three d8 (ScriptedDice replays their faces), 2 + 7 + 8 = 17 > 8
    const Options d8 = with({{"guts.roll", "3d8"}});
    ScriptedDice dd{2, 7, 8, 1, 1, 1};
    const Guts g1 = guts_roll(8, dd, d8), g2 = guts_roll(8, dd, d8);
    CHECK((!g1.success && !g1.critical));
    CHECK((g2.success && g2.critical));  // 1, 1, 1: every die alike
    // criticals on 3d6: double (every die alike, the book's natural double) or any pair
    const Options pair = with({{"guts.roll", "3d6"}, {"guts.critical", "pair"}});
    const Options all = with({{"guts.roll", "3d6"}});
    ScriptedDice p1{2, 5, 2}, p2{2, 5, 2};
    CHECK(guts_roll(9, p1, pair).critical);
    CHECK_FALSE(guts_roll(9, p2, all).critical);
    CHECK(guts_roll(9, p1 = ScriptedDice{3, 3, 3}, all).critical);
    // guts.critical=none: Legs's carry on 4 + 4 = 8 > 6 succeeds by the book (a double), not now
    auto carry = [](const Options& o) {
        State s;
        s.m[kLegs].area = s.m[kLegs].start_area = 1;
        CarryPlan p = no_carries();
        p[kLegs] = kIceCube;
        ScriptedDice d(cat({4, 4}, quiet(5)));
        reaction_phase(s, p, d, o);
        return s;
    };
    CHECK(carry(with({})).m[kIceCube].area == 2);
    CHECK(carry(with({{"guts.critical", "none"}})).m[kIceCube].area == 1);
    // H2a: a kept (or exploding, counted, rerolled) Guts roll shows no single dice to read a
    // critical from: refused unless guts.critical=none, then its total alone: 6 + 5 + 4 of
    // 1, 6, 5, 4 = 15 > 9 fails
    try {
        with({{"guts.roll", "4d6kh3"}});
        FAIL("4d6kh3 with the book's critical was taken");
    } catch (const UsageError& e) {
        CHECK(std::string(e.what()).find("guts.roll='4d6kh3' is not valid") != std::string::npos);
        CHECK(std::string(e.what()).find("guts.critical=none") != std::string::npos);
    }
    const Options kept = with({{"guts.roll", "4d6kh3"}, {"guts.critical", "none"}});
    ScriptedDice dk{1, 6, 5, 4};
    const Guts gk = guts_roll(9, dk, kept);
    CHECK((!gk.success && !gk.critical));
    CHECK(dk.remaining() == 0);
    // the Guts scores run to the roll's most
    CHECK_THROWS_AS(with({{"guts.tex", "13"}}), UsageError);
    CHECK(with({{"guts.roll", "3d6"}, {"guts.tex", "13"}}).guts[kTex] == 13);
    CHECK_THROWS_AS(with({{"guts.roll", "1d6"}, {"guts.tex", "7"}}), UsageError);
    // bravest-first under at_or_over sends the man with the lowest Guts: Legs (6, first in
    // roster order of the two 6s), not Tex (9)
    State s;
    Dice dice(1);
    const Order o1 = BravestFirst::of(with({{"guts.succeeds", "at_or_over"}})).leader(s, dice);
    CHECK(o1.step[kLegs] == -1);
    CHECK(o1.step[kTex] == 0);
}

TEST_CASE("H1, H1a options: the field's areas and where the squad starts",
          "[fpb][H1][H1a][variant]") {
    const Options four = with({{"field.areas", "4"}});
    const State s = opening(four);
    CHECK(s.cover() == 4);
    CHECK(s.m[kIceCube].area == 1);
    for (int i : {kLt, kTex, kBuster, kReflex, kSnowball, kLegs, kEdsel}) CHECK(s.m[i].area == 4);
    CHECK(opening(with({})).m[kTex].area == 3);
    // one marine placed elsewhere; "cover" is the last area whatever the field
    const Options tex2 = with({{"squad.tex_area", "2"}, {"squad.buster_area", "cover"}});
    CHECK(opening(tex2).m[kTex].area == 2);
    CHECK(opening(tex2).m[kBuster].area == 3);
    CHECK_THROWS_AS(with({{"squad.tex_area", "4"}}), UsageError);
    CHECK(opening(with({{"field.areas", "4"}, {"squad.tex_area", "4"}})).m[kTex].area == 4);
    // the sniper: area 3 is cover by the book (no die rolled); with four areas it is open
    // ground, its row empty by default (a die rolled, no wound), sniper.area3.open=6 wounds
    auto tex_in_3 = [](const Options& o) {
        State t = opening(o);
        t.m[kTex].area = 3;
        return t;
    };
    State a = tex_in_3(with({})), b = tex_in_3(four),
          c = tex_in_3(with({{"field.areas", "4"}, {"sniper.area3.open", "6"}}));
    ScriptedDice da{}, db{6}, dc{6};
    sniper_phase(a, da, with({}));
    sniper_phase(b, db, four);
    sniper_phase(c, dc, with({{"field.areas", "4"}, {"sniper.area3.open", "6"}}));
    CHECK(a.m[kTex].fit());
    CHECK(b.m[kTex].fit());
    CHECK(db.remaining() == 0);
    CHECK(c.m[kTex].wounded());
    // a bug-out withdraws from the last area: with four areas, nobody in area 3 goes
    State d = tex_in_3(four);
    d.m[kLt].area = 3;  // the Lt one area from cover: one roll for all (bug_out.lt_reach)
    ScriptedDice dd{1, 2};
    CHECK(bug_out_phase(d, dd, -1, four) == 5);  // Buster .. Edsel, in area 4
    CHECK(d.m[kTex].fit());
    CHECK(d.m[kLt].fit());
    // carries and Heroics head for the last area: Tex in area 3 carries Ice-cube on to area 4
    State e = opening(four);
    e.m[kTex].area = e.m[kTex].start_area = 3;
    e.m[kIceCube].area = e.m[kIceCube].start_area = 3;
    CarryPlan plan = no_carries();
    plan[kTex] = kIceCube;
    ScriptedDice de(cat({1, 2}, quiet(5)));
    reaction_phase(e, plan, de, four);
    CHECK(e.m[kIceCube].area == 4);
    State f = opening(with({}));  // by the book area 3 is cover: no carry from there
    f.m[kIceCube].area = f.m[kIceCube].start_area = 3;
    CHECK_FALSE(can_carry(f, kTex, kIceCube));
    // positions name every area of the field
    const std::string text = write_position(opening(four), four);
    CHECK(text.find("smoke 4 0") != std::string::npos);
    CHECK(read_position(text, "p", four).m[kLegs].area == 4);
    CHECK_THROWS_AS(read_position(text, "p", with({})), UsageError);
}

TEST_CASE("H4 options: the Lt's reach and his actions a turn", "[fpb][H4][variant]") {
    // smoke into area 1 from area 3: out of reach by the book (nothing rolled), in reach at 2
    const Options far = with({{"leader.reach", "2"}});
    State a, b = opening(far);
    ScriptedDice da{}, db{1, 2, 3};
    leader_phase(a, Order::smoke(1), da, with({}));
    leader_phase(b, Order::smoke(1), db, far);
    CHECK(a.smoke[1] == 0);
    CHECK(b.smoke[1] == 5);
    CHECK(db.remaining() == 0);
    // reach 0: only the Lt's own area; Tex in area 2 is beyond a move order
    const Options near = with({{"leader.reach", "0"}});
    State c = opening(near);
    c.m[kTex].area = 2;
    ScriptedDice dc{};
    leader_phase(c, Order{}.move(kTex, -1), dc, near);
    CHECK(c.m[kTex].area == 2);
    // the choices listed follow the reach: smoke into 3 areas at reach 2, 1 at reach 0
    auto smokes = [](const State& s, const Options& o) {
        std::vector<Game::Choice> out(Game::kMaxChoices);
        State t = s;
        Game::begin(t);
        const int n = Game::legal(t, o, out.data());
        int k = 0;
        for (int i = 0; i < n; ++i)
            k += out[static_cast<std::size_t>(i)].order.kind == Order::kSmoke;
        return k;
    };
    CHECK(smokes(opening(with({})), with({})) == 2);
    CHECK(smokes(opening(far), far) == 3);
    CHECK(smokes(opening(near), near) == 1);
    // two actions a turn: the policy is asked twice, the Lt rolls twice
    Scripted p;
    p.order = Order::smoke(3);
    const Options two = with({{"leader.orders", "2"}});
    State d = opening(two), e;
    // two smoke orders (Lt 1+2, d6 1: 3 turns; Lt 1+2, d6 4: 6 turns), six quiet reactions
    ScriptedDice dd(cat({1, 2, 1, 1, 2, 4}, quiet(6)));
    play_turn(d, two, p, dd);
    CHECK(dd.remaining() == 0);
    CHECK(d.smoke[3] == 5);  // 6, the longer, less the end of the turn
    ScriptedDice de(cat({1, 2, 1}, quiet(6)));
    play_turn(e, with({}), p, de);
    CHECK(de.remaining() == 0);
    CHECK(e.smoke[3] == 2);
    // no action at all: the policy is never asked, six reactions only
    State f = opening(with({{"leader.orders", "0"}}));
    ScriptedDice df(quiet(6));
    play_turn(f, with({{"leader.orders", "0"}}), p, df);
    CHECK(df.remaining() == 0);
    CHECK(f.smoke[3] == 0);
}

TEST_CASE("H6 options: covering fire's firers and friendly fire's areas", "[fpb][H6][variant]") {
    // Tex in area 1, Buster alone firing: covered by the book (a 4 misses), open when two firers
    // are needed (4 wounds)
    State a;
    a.m[kTex].area = 1;
    a.m[kBuster].firing = true;
    State b = a;
    ScriptedDice da{4}, db{4};
    sniper_phase(a, da, with({}));
    sniper_phase(b, db, with({{"covering_fire.firers", "2"}}));
    CHECK(a.m[kTex].fit());
    CHECK(b.m[kTex].wounded());
    // Tex in smoke in area 1, Buster firing from area 2: a friendly-fire roll by the book (6
    // wounds); none when only fire from area 3 counts
    State c;
    c.m[kTex].area = 1;
    c.smoke[1] = 2;
    c.m[kBuster].area = 2;
    c.m[kBuster].firing = true;
    State d = c;
    ScriptedDice dc{1, 1, 6}, dd{1, 1};  // sniper: Tex 1, Buster 1; then friendly fire
    sniper_phase(c, dc, with({}));
    sniper_phase(d, dd, with({{"friendly_fire.from_area", "3"}}));
    CHECK(dc.remaining() == 0);
    CHECK(dd.remaining() == 0);
    CHECK(c.m[kTex].wounded());
    CHECK(d.m[kTex].fit());
}

TEST_CASE("H7 options: the Lt's bug-out reach and the wounded each man takes",
          "[fpb][H7][variant]") {
    // the Lt in area 2: one roll for all by the book; at reach 0 every man in cover rolls
    State a;
    a.m[kLt].area = 2;
    State b = a;
    ScriptedDice da{2, 2}, db{1, 2, 6, 6, 1, 2, 6, 6, 1, 2, 6, 6};
    CHECK(bug_out_phase(a, da, -1, with({})) == 6);
    CHECK(bug_out_phase(b, db, -1, with({{"bug_out.lt_reach", "0"}})) == 3);
    CHECK(db.remaining() == 0);
    // the Lt alone fit in cover with Ice-cube and Buster wounded there: he takes one by the
    // book, both with bug_out.wounded_each=2, none with 0
    auto lone_lt = [] {
        State s;
        for (int i : {kTex, kReflex, kSnowball, kLegs, kEdsel}) s.m[i].status = kOut;
        s.m[kIceCube].area = 3;
        s.m[kBuster].status = kWounded;
        return s;
    };
    State c = lone_lt(), d = lone_lt(), e = lone_lt();
    ScriptedDice dc{1, 2}, dd{1, 2}, de{1, 2};
    CHECK(bug_out_phase(c, dc, -1, with({})) == 2);
    CHECK(bug_out_phase(d, dd, -1, with({{"bug_out.wounded_each", "2"}})) == 3);
    CHECK(bug_out_phase(e, de, -1, with({{"bug_out.wounded_each", "0"}})) == 1);
    CHECK(d.m[kBuster].status == kOut);
    CHECK(e.m[kIceCube].wounded());
}

namespace {
// A policy's leader orders, each checked against the legal ones (Game::legal lists every order
// the kernel does not ignore, one of each equivalent set).
template <class P>
struct Checked {
    P inner;
    const Options* o;
    int orders = 0, illegal = 0;
    template <class D>
    Order leader(const State& s, D& dice) {
        const Order order = inner.leader(s, dice);
        static std::vector<Game::Choice> out(Game::kMaxChoices);
        const int n = Game::legal(s, *o, out.data());
        bool found = order.kind == Order::kNone;
        for (int i = 0; i < n && !found; ++i) {
            const Order& l = out[static_cast<std::size_t>(i)].order;
            found = l.kind == order.kind &&
                    (order.kind == Order::kSmoke  ? l.area == order.area
                     : order.kind == Order::kMove ? l.step == order.step
                                                  : (l.who & order.who) == order.who);
        }
        ++orders;
        illegal += !found;
        return order;
    }
    template <class D>
    CarryPlan carries(const State& s, D& dice) {
        return inner.carries(s, dice);
    }
    template <class D>
    bool bug_out(const State& s, D& dice) {
        return inner.bug_out(s, dice);
    }
};
}  // namespace

TEST_CASE("policies play on under changed field and command", "[fpb][variant][policies]") {
    // Every rule-of-thumb strategy still gives only orders the rules allow, and still brings
    // men home, Ice-cube among them, on a longer field, with a longer reach, two actions a turn,
    // an at-or-over Guts roll. (Games may still run to the cap: with the Lt down, men who
    // opened fire forward can never come back, H5, as by the book.)
    const Options o = with({{"field.areas", "5"},
                            {"leader.reach", "2"},
                            {"leader.orders", "2"},
                            {"guts.succeeds", "at_or_over"},
                            {"guts.lt", "5"},
                            {"guts.tex", "4"},
                            {"sniper.area3.open", "6"},
                            {"bug_out.lt_reach", "2"}});
    auto run = [&](auto policy) {
        Checked<decltype(policy)> p{policy, &o};
        Dice dice(11);
        int withdrawn = 0, rescued = 0;
        for (int k = 0; k < 300; ++k) {
            State s = opening(o);
            play_from(s, o, p, dice);
            const Outcome r = outcome_of(s);
            withdrawn += r.withdrawn;
            rescued += r.icecube_rescued;
        }
        CHECK(p.orders > 300);
        CHECK(p.illegal == 0);
        return std::array<int, 2>{withdrawn, rescued};
    };
    for (const auto& r : {run(CoverAndCarry::of(o)), run(SmokeAndCarry::of(o)),
                          run(LeadFromFront::of(o)), run(BravestFirst::of(o))}) {
        CHECK(r[0] > 3 * 300);  // more than three marines a game on average
        CHECK(r[1] > 300 / 4);  // Ice-cube is fetched from area 1 of 5 in a quarter of games
    }
    CHECK(run(BugOut{})[0] > 3 * 300);
}

TEST_CASE("H4 options: smoke.orders, the smoke the Lt has for the game", "[fpb][H4][variant]") {
    const Options one = with({{"smoke.orders", "1"}});
    State a = opening(with({})), b = opening(one);
    // two smoke orders: by the book both roll (Lt 1+2, d6; Lt 6+6 fails); with one order, the
    // first uses it (even a failed attempt would) and the second is ignored: nothing rolled
    ScriptedDice da{1, 2, 3, 6, 6}, db{1, 2, 3};
    leader_phase(a, Order::smoke(3), da, with({}));
    leader_phase(a, Order::smoke(2), da, with({}));
    leader_phase(b, Order::smoke(3), db, one);
    leader_phase(b, Order::smoke(2), db, one);
    CHECK(da.remaining() == 0);
    CHECK(db.remaining() == 0);
    CHECK(a.smoke[3] == 5);
    CHECK(b.smoke[3] == 5);
    CHECK(b.smoke_left == 0);
    // no smoke among the legal choices once it is used; smoke-and-carry turns to its men
    std::vector<Game::Choice> out(Game::kMaxChoices);
    State t = b, u = opening(with({}));
    t.m[kLt].area = u.m[kLt].area = 2;  // Ice-cube's area in the Lt's reach
    Game::begin(t);
    const int n = Game::legal(t, one, out.data());
    for (int i = 0; i < n; ++i) CHECK(out[static_cast<std::size_t>(i)].order.kind != Order::kSmoke);
    Dice dice(3);
    CHECK(SmokeAndCarry::of(one).leader(t, dice).kind != Order::kSmoke);
    CHECK(SmokeAndCarry::of(with({})).leader(u, dice).kind == Order::kSmoke);
    // positions carry the orders left, only when limited
    const std::string text = write_position(b, one);
    CHECK(text.find("smoke_orders 0") != std::string::npos);
    CHECK(read_position(text, "p", one).smoke_left == 0);
    CHECK(write_position(a, with({})).find("smoke_orders") == std::string::npos);
    CHECK_THROWS_AS(read_position(text, "p", with({})), UsageError);
    CHECK(scenario(one) == "max_turns=50 smoke.orders=1");
}

TEST_CASE("H1 options: squad.size, the men who take the field", "[fpb][H1][variant]") {
    const Options five = with({{"squad.size", "5"}});  // lt, icecube, tex, buster, reflex
    const State s = opening(five);
    CHECK(s.m[kReflex].fit());
    for (int i : {kSnowball, kLegs, kEdsel}) {
        CHECK(s.m[i].status == kAbsent);
        CHECK_FALSE(s.m[i].on_board());
    }
    // one turn of nothing: six quiet reactions by the book, three with five men
    Scripted p;
    State a = opening(with({})), b = s;
    ScriptedDice da(quiet(6)), db(quiet(3));
    play_turn(a, with({}), p, da);
    play_turn(b, five, p, db);
    CHECK(da.remaining() == 0);
    CHECK(db.remaining() == 0);
    // the absent are counted nowhere: every man in the field out is a clean game
    State c = opening(five);
    for (int i : {kLt, kIceCube, kTex, kBuster, kReflex}) c.m[i].status = kOut;
    c.turn = 4;
    end_turn(c, five);
    const Outcome r = outcome_of(c);
    CHECK(r.withdrawn == 5);
    CHECK(r.left_behind == 0);
    CHECK(r.outcome == Outcome::kClean);
    std::array<std::int32_t, kMetricCount> m{};
    to_metrics(c, m.data());
    CHECK(m[kMarineTime + 2 * 6] == 4);  // edsel (the seventh after Ice-cube): censored at 4
    CHECK(m[kMarineTime + 2 * 6 + 1] == 0);
    // positions say who is absent, and must agree with squad.size
    const std::string text = write_position(s, five);
    CHECK(text.find("marine edsel - absent") != std::string::npos);
    CHECK(read_position(text, "p", five).m[kLegs].status == kAbsent);
    CHECK_THROWS_AS(read_position(text, "p", with({})), UsageError);
    CHECK_THROWS_AS(with({{"squad.size", "1"}}), UsageError);
}

TEST_CASE("H3a restrict: read, named in the scenario, refused when bad", "[fpb][H3a]") {
    CHECK(parse_options({}).barred == 0);
    CHECK(scenario(parse_options({})).find("restrict") == std::string::npos);
    CHECK(parse_options({{"restrict", "none"}}).barred == 0);
    const Options o = parse_options({{"restrict", "carry,smoke"}});
    CHECK(o.barred == (Options::kBarSmoke | Options::kBarCarry));
    CHECK(scenario(o).find("restrict=smoke,carry") != std::string::npos);
    CHECK(opening(o).barred == o.barred);
    for (const char* bad : {"bug_out", "", "smoke,,carry", "Smoke"})
        CHECK_THROWS_WITH(parse_options({{"restrict", bad}}),
                          Catch::Contains("restrict") && Catch::Contains("first_out"));
}

TEST_CASE("H3a a barred order is played as no order; the others as the book plays them",
          "[fpb][H3a]") {
    auto at_leader = [](const Options& o) {
        State s = opening(o);
        Game::begin(s);
        REQUIRE(s.phase == State::kLeader);
        return s;
    };
    Game::Choice cover;
    cover.order = Order::cover(static_cast<std::uint8_t>(1 << kTex));
    {  // barred: no Lt roll, nobody fires
        const Options o = parse_options({{"restrict", "cover"}});
        State s = at_leader(o);
        ScriptedDice none{};
        Game::step(s, o, cover, none);
        CHECK_FALSE(s.m[kTex].firing);
        CHECK(s.phase == State::kCarry);
    }
    {  // another order barred: covering fire exactly as the book (the Lt's roll, 4 + 4)
        const Options o = parse_options({{"restrict", "smoke,halt,move,carry,first_out"}});
        State s = at_leader(o), book = at_leader(Options{});
        ScriptedDice d{4, 4}, e{4, 4};
        Game::step(s, o, cover, d);
        Game::step(book, Options{}, cover, e);
        CHECK(d.remaining() == 0);
        CHECK(s.m[kTex].firing);
        CHECK(book.m[kTex].firing);
    }
    {  // a smoke order barred: nothing rolled (can_smoke is false)
        const Options o = parse_options({{"restrict", "smoke"}});
        State s = at_leader(o);
        CHECK_FALSE(s.can_smoke());
        Game::Choice smoke;
        smoke.order = Order::smoke(3);
        ScriptedDice none{};
        Game::step(s, o, smoke, none);
        CHECK(s.smoke[3] == 0);
    }
}

TEST_CASE("H3a carries barred: the would-be carrier reacts like the others", "[fpb][H3a]") {
    const Options o = parse_options({{"restrict", "carry"}});
    State s = opening(o);
    s.m[kTex].area = 1;
    s.m[kBuster].area = 1;
    Scripted p;
    p.plan[kTex] = kIceCube;
    // No carry: Tex, Buster and the four others react quietly; the sniper rolls 1, 1 for Tex and
    // Buster in area 1.
    ScriptedDice d(cat(quiet(6), {1, 1}));
    play_turn(s, o, p, d);
    CHECK(d.remaining() == 0);
    CHECK(s.m[kTex].area == 1);
    CHECK(s.m[kIceCube].area == 1);
}

TEST_CASE("H3a legal choices leave out the barred ones and keep the rest", "[fpb][H3a]") {
    std::vector<Game::Choice> all(Game::kMaxChoices), some(Game::kMaxChoices);
    State book;
    Game::begin(book);
    book.m[kLt].area = 2;  // smoke into areas 1-3, every order in reach
    book.m[kTex].firing = true;
    const Options o = parse_options({{"restrict", "cover,move"}});
    State s = book;
    s.barred = o.barred;
    const int n = Game::legal(book, Options{}, all.data());
    const int k = Game::legal(s, o, some.data());
    int kept = 0;
    for (int i = 0; i < n; ++i) {
        const bool barred = all[i].order.kind == Order::kCover || all[i].order.kind == Order::kMove;
        kept += !barred;
        if (!barred) CHECK(std::find(some.begin(), some.begin() + k, all[i]) != some.begin() + k);
    }
    CHECK(k == kept);
    CHECK(kept < n);
}

TEST_CASE("H3a every policy honours the restriction over whole games", "[fpb][H3a]") {
    const Options o = parse_options({{"restrict", "cover,halt,carry,first_out"}});
    for (const char* name : {"cover-and-carry", "smoke-and-carry", "lead-from-front",
                             "bravest-first", "bug-out", "random", "rollout:4", "mcts:40"}) {
        const PolicyChoice pc = parse_policy("fpb", kPolicyInfos, name);
        Policy policy = kPolicies[pc.index].make(o, pc.args);
        int decisions = 0;
        for (std::uint64_t g = 0; g < 20; ++g) {
            odds::Dice dice(g + 1);
            State s = opening(o);
            Game::begin(s);
            while (!s.over) {
                const auto c =
                    std::visit([&](auto& p) { return Game::decide(s, o, p, dice); }, policy);
                if (s.phase == State::kLeader) {
                    CHECK(c.order.kind != Order::kCover);
                    CHECK(c.order.kind != Order::kHalt);
                }
                if (s.phase == State::kCarry) CHECK(c.carry == no_carries());
                if (s.phase == State::kBugOut) CHECK(c.first_out == -1);
                ++decisions;
                Game::apply(s, o, c, dice);
            }
        }
        CHECK(decisions > 20);
    }
}
