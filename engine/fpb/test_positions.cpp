// Full Plastic Bodybag's resumable form and positions: each decision (the leader's action, the
// carries, the bug-out call and, H7a, who goes first) with scripted dice, two choices leading to
// two positions; legal's choice sets; `random` reaching every legal choice; the position text
// read back exactly, every mistake refused in one line; play resumed from a written position.
#include <algorithm>
#include <catch2/catch.hpp>
#include <functional>
#include <set>

#include "engine/dice.hpp"
#include "engine/fpb/fpb.hpp"
#include "engine/fpb/policies.hpp"
#include "engine/fpb/test_choices.hpp"
#include "tests/helpers.hpp"

using namespace odds;
using namespace odds::fpb;

namespace {

static_assert(ResumableGame<Game, ScriptedDice>);
static_assert(ResumableGame<Game, odds::Dice>);

std::vector<Game::Choice> legal(const State& s) {
    std::vector<Game::Choice> out(Game::kMaxChoices);
    out.resize(static_cast<std::size_t>(Game::legal(s, Options{}, out.data())));
    return out;
}

std::set<std::string> effects(const State& s) {
    std::set<std::string> e;
    for (const auto& c : legal(s)) e.insert(choices::effect(s, c));
    return e;
}

using test::usage_error;

// Reaction rolls that do nothing (1 + 2: a success, no double) for `men` men.
std::vector<int> quiet(int men, std::vector<int> before = {}) {
    for (int i = 0; i < men; ++i) {
        before.push_back(1);
        before.push_back(2);
    }
    return before;
}

// Two wounded men, Ice-cube and Buster, in area 1 with Tex; the carry decision of turn 1.
State two_wounded_at_the_front() {
    State s;
    s.m[kBuster].status = kWounded;
    s.m[kBuster].area = 1;
    s.m[kTex].area = 1;
    Game::begin(s);
    ScriptedDice none{};
    Game::apply(s, Options{}, Game::Choice{}, none);  // the Lt orders nothing
    REQUIRE(s.phase == State::kCarry);
    return s;
}

// Tex alone fit, in area 3 with two wounded men, Ice-cube and Buster: the bug-out call.
State last_man_standing() {
    State s;
    s.m[kLt].status = kDead;
    s.m[kIceCube].area = 3;
    s.m[kBuster].status = kWounded;
    for (int i = kReflex; i < kSquad; ++i) s.m[i].status = kOut;
    s.turn = 5;
    s.phase = State::kBugOut;
    return s;
}

}  // namespace

TEST_CASE("H4 the leader's decision: two orders, two positions", "[fpb][H4][position]") {
    const Options o;
    State s;
    Game::begin(s);
    REQUIRE(s.phase == State::kLeader);
    State a = s, b = s;
    ScriptedDice none{}, tex_goes{1, 2};  // Tex's Guts: 3, a success
    Game::Choice move;
    move.order = Order{}.move(kTex, -1);
    Game::apply(a, o, Game::Choice{}, none);
    Game::apply(b, o, move, tex_goes);
    CHECK(tex_goes.remaining() == 0);
    CHECK(a.m[kTex].area == 3);
    CHECK(b.m[kTex].area == 2);
    CHECK(a.phase == State::kCarry);
    CHECK(b.phase == State::kCarry);
    // At the opening: none, smoke into 2 or 3, covering fire from any of the 63 groups of the
    // six men, and the 127 moves of the Lt and his men back toward area 2.
    const auto e = effects(s);
    CHECK(e.size() == 1 + 2 + 63 + 127);
    CHECK(legal(s).size() == e.size());  // no two legal choices do the same
}

TEST_CASE("H5 the carry decision: two plans, two positions", "[fpb][H5][position]") {
    const Options o;
    const State s = two_wounded_at_the_front();
    // Tex tries to carry Ice-cube, or Buster: his Guts 1+2 succeeds; four quiet reactions in
    // area 3; the sniper's die at Tex, now in area 2, misses.
    std::vector<int> faces = quiet(4, {1, 2});
    faces.push_back(1);
    State a = s, b = s;
    Game::Choice ice, bus;
    ice.carry[kTex] = kIceCube;
    bus.carry[kTex] = kBuster;
    ScriptedDice da(faces), db(faces);
    Game::apply(a, o, ice, da);
    Game::apply(b, o, bus, db);
    CHECK(da.remaining() == 0);
    CHECK(db.remaining() == 0);
    CHECK(a.m[kIceCube].area == 2);
    CHECK(a.m[kBuster].area == 1);
    CHECK(b.m[kIceCube].area == 1);
    CHECK(b.m[kBuster].area == 2);
    CHECK(a.phase == State::kBugOut);
    // Tex carries nobody, Ice-cube or Buster.
    CHECK(effects(s) == std::set<std::string>{"carry", "carry2>1", "carry2>3"});
}

TEST_CASE("H7a the bug-out decision: stay, go, or go with the other wounded man first",
          "[fpb][H7][H7a][position]") {
    const Options o;
    const State s = last_man_standing();
    CHECK(effects(s) == std::set<std::string>{"stay", "go", "go3"});
    State stay = s, go = s, other = s;
    Game::Choice no, yes, buster_first;
    yes.bug_out = buster_first.bug_out = true;
    buster_first.first_out = kBuster;
    ScriptedDice none{}, d1{1, 2}, d2{1, 2};  // Tex's Guts: 3, he goes, taking one man
    Game::step(stay, o, no, none);
    Game::step(go, o, yes, d1);
    Game::step(other, o, buster_first, d2);
    CHECK(stay.m[kTex].fit());
    CHECK(go.m[kIceCube].status == kOut);
    CHECK(go.m[kBuster].status == kWounded);
    CHECK(other.m[kIceCube].status == kWounded);
    CHECK(other.m[kBuster].status == kOut);
    CHECK(other.m[kBuster].was_wounded);
    CHECK(go.over);
    CHECK(other.over);
    CHECK(outcome_of(go).icecube_rescued);
    CHECK_FALSE(outcome_of(other).icecube_rescued);
}

TEST_CASE("legal: every move of seven men at most fits kMaxChoices", "[fpb][H4]") {
    State s;
    for (auto& x : s.m) x.area = 2;
    Game::begin(s);
    const auto n = legal(s).size();
    CHECK(n == 1 + 3 + 63 + (2187 - 1));
    CHECK(n <= static_cast<std::size_t>(Game::kMaxChoices));
}

TEST_CASE("random reaches every legal choice: leader, carries, bug-out", "[fpb][random]") {
    Random random;
    odds::Dice dice(99);
    State lead;
    lead.m[kTex].firing = true;  // one man to halt, five to cover
    lead.m[kLt].area = 2;
    Game::begin(lead);
    const State carry = two_wounded_at_the_front();
    const State bug = last_man_standing();
    const State* const cases[] = {&lead, &carry, &bug};
    for (const State* s : cases) {
        const auto all = effects(*s);
        std::set<std::string> seen;
        for (int k = 0; k < 200 * static_cast<int>(all.size()) && seen.size() < all.size(); ++k) {
            const auto c = Game::decide(*s, Options{}, random, dice);
            const auto e = choices::effect(*s, c);
            INFO(e);
            REQUIRE(all.count(e) == 1);  // random never does what legal does not list
            seen.insert(e);
        }
        CHECK(seen == all);
    }
}

TEST_CASE("fpb positions: the opening written and read back is the fresh game", "[fpb][position]") {
    const Options o;
    const std::string text = write_position(State{}, o);
    CHECK(text.find("marine icecube 1 wounded") != std::string::npos);
    CHECK(text.find("marine lt 3 fit") != std::string::npos);
    const State s = read_position(text, "p", o);
    const State fresh;
    for (int i = 0; i < kSquad; ++i) {
        INFO(kNames[i]);
        CHECK(s.m[i].area == fresh.m[i].area);
        CHECK(s.m[i].status == fresh.m[i].status);
        CHECK(s.m[i].start_area == fresh.m[i].start_area);
        CHECK(s.m[i].wound_order == fresh.m[i].wound_order);
        CHECK(s.m[i].hit_turn == fresh.m[i].hit_turn);
    }
    CHECK(s.turn == 0);
    CHECK(s.wound_clock == fresh.wound_clock);
    CHECK(s.phase == State::kNewTurn);
}

TEST_CASE("fpb positions: every mistake is one line naming the file, the line and the rule",
          "[fpb][position]") {
    const Options o;
    const std::string opening = write_position(State{}, o);
    const auto with = [&](const std::string& from, const std::string& to) {
        std::string t = opening;
        const auto at = t.find(from);
        REQUIRE(at != std::string::npos);
        t.replace(at, from.size(), to);
        return usage_error([&] { (void)read_position(t, "squad.txt", o); });
    };
    const auto line_of = [&](const std::string& what) {
        const auto at = opening.find(what);
        return std::to_string(
            std::count(opening.begin(), opening.begin() + static_cast<long>(at), '\n') + 1);
    };
    CHECK(with("marine tex 3 fit", "marine tex 4 fit") ==
          "squad.txt:" + line_of("marine tex") +
              ": area '4' is not a whole number in 1..3 (H1: areas 1 (exposed), 2 and 3 (cover); "
              "'-' off the board)");
    CHECK(with("marine icecube 1 wounded", "marine icecube 1 fit") ==
          "squad.txt:" + line_of("marine icecube") +
              ": Ice-cube cannot be fit: he is wounded, with no Guts (H1, H2)");
    CHECK(with("marine lt 3 fit", "marine lt 3 firing").find("(H4a)") != std::string::npos);
    CHECK(with("turn 0", "turn 50") ==
          "squad.txt:" + line_of("turn 0") +
              ": turn '50' is not a whole number in 0..49 (H3: max_turns ends the game)");
    CHECK(with("smoke 2 0", "smoke 2 9").find("(H4: d6 + 2 at most)") != std::string::npos);
    CHECK(with("marine tex 3 fit", "marine tex 3 wounded") ==
          "squad.txt:" + line_of("marine tex") +
              ": tex is wounded before the first turn: only Ice-cube begins wounded (H1)");
    CHECK(with("turn 0 ", "turn 3 ").find("(no error)") ==
          0);  // a later turn is a position like any other
    CHECK(with("marine tex 3 fit", "marine tex 3 fit\nmarine tex 2 fit")
              .find("a second line for tex") != std::string::npos);
    CHECK(with("marine tex 3 fit\n", "") ==
          "squad.txt: no line for marine tex (marine NAME AREA STATE)");
    CHECK(with("marine tex 3 fit", "marine tux 3 fit").find("'tux' is not a marine") !=
          std::string::npos);
    CHECK(with("marine tex 3 fit", "marine tex 3 brave").find("state 'brave'") !=
          std::string::npos);
    // Three wounded in area 1 (turn 2: the men were hit in play).
    std::string three = opening;
    three.replace(three.find("turn 0"), 6, "turn 2");
    three.replace(three.find("marine tex 3 fit"), 16, "marine tex 1 wounded");
    three.replace(three.find("marine buster 3 fit"), 19, "marine buster 1 wounded");
    CHECK(usage_error([&] {
              (void)read_position(three, "squad.txt", o);
          }).find("a third wounded marine in area 1: more than two are killed (H6)") !=
          std::string::npos);
    // Nobody fit on the board: the game is over.
    State done;
    for (int i = 0; i < kSquad; ++i)
        if (i != kIceCube) done.m[i].status = kOut;
    done.turn = 4;
    CHECK(usage_error([&] { (void)read_position(write_position(done, o), "squad.txt", o); }) ==
          "squad.txt: no fit marine on the board: the game is over (H8)");
}

TEST_CASE("fpb: a position written between turns plays on exactly as the game it was written from",
          "[fpb][position]") {
    const Options o;
    int resumed_games = 0;
    for (std::uint64_t seed = 1; seed <= 60; ++seed) {
        INFO("seed " << seed);
        Random random;
        odds::Dice whole(seed);
        State s;
        for (int t = 0; t < 3 && !s.over; ++t) play_turn(s, o, random, whole);
        if (s.over) continue;
        ++resumed_games;
        const std::string text = write_position(s, o);
        State from = read_position(text, "p", o);
        CHECK(write_position(from, o) == text);
        odds::Dice resumed = whole;
        play_from(s, o, random, whole);
        play_from(from, o, random, resumed);
        const Outcome a = outcome_of(s), b = outcome_of(from);
        CHECK(a.withdrawn == b.withdrawn);
        CHECK(a.killed == b.killed);
        CHECK(a.left_behind == b.left_behind);
        CHECK(a.turns == b.turns);
        for (int i = 0; i < kSquad; ++i) CHECK(s.m[i].status == from.m[i].status);
    }
    CHECK(resumed_games > 10);
}
