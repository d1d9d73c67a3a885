// Minimal Space Combat as a resumable game (msc::Game): every decision the rules leave to a player
// (builds, merges, splits, moves, losses, retreats) with scripted choices, random play over
// every legal choice, and positions (RULES.md, "Positions") through the registry's hooks.
#include <bit>
#include <catch2/catch.hpp>
#include <cmath>
#include <string>
#include <vector>

#include "engine/dice.hpp"
#include "engine/msc/msc.hpp"
#include "engine/msc/policies.hpp"
#include "engine/rule_options.hpp"
#include "sim/registry.hpp"
#include "tests/helpers.hpp"

using namespace odds;
using namespace odds::msc;
using Pick = odds::msc::Choice;  // (odds has a Pick of its own: a rule option's)

static_assert(ResumableGame<Game, Dice> && ResumableGame<Game, ScriptedDice>);

namespace {

const Design kBalanced = *parse_design("E3S3T3W3");

// The legal choices here.
std::vector<Pick> legal_of(const State& s) {
    std::vector<Pick> out(kMaxChoices);
    out.resize(static_cast<std::size_t>(Game::legal(s, Options{}, out.data())));
    return out;
}
bool has(const std::vector<Pick>& v, const Pick& c) {
    return std::find(v.begin(), v.end(), c) != v.end();
}
Pick build_of(const Design& d) {
    return {Pick::build, static_cast<std::int16_t>(design_code(d)), -1, {}};
}
Pick go_to(const hex::Hex& h) { return {Pick::go, 0, 0, {h, {}, {}}}; }

// The opening on the seed's map with 40 BP a side (M3): side A's first build (no dice needed
// until the movement phase's initiative, M4a fixes it).
State opening40(Options& o) {
    o.budget = 40;
    o.initiative = 0;
    ScriptedDice none{};
    return opening(o, {Plan(kBalanced), Plan(kBalanced)}, none);
}

}  // namespace

TEST_CASE("M4 M2b building is the policy's: any legal design affordable, or save",
          "[msc][M4][M2b][decision]") {
    Options o;
    State s = opening40(o);
    REQUIRE(s.stage == Stage::build);
    REQUIRE(s.to_move == 0);
    const auto legal = legal_of(s);
    // Every design of 10, 15 or 20 BP (40 BP afford them all), and saving.
    CHECK(legal.size() == kDesigns + 1);
    CHECK(has(legal, Pick{Pick::save, 0, 0, {}}));
    CHECK(design_of_code(legal.front().a).cost() == 10);  // cheapest first
    CHECK(design_of_code(legal[legal.size() - 2].a).cost() == 20);
    CHECK(has(legal, build_of(*parse_design("E1S5T4W5"))));
    CHECK_FALSE(Design{6, 0, 0, 2}.legal());  // ENGINE 6: not legal (M2)
    // Two choices, two positions: a 20-BP capital ship (a new design: design slot 2), or save.
    const Design capital = *parse_design("E1S5T4W5");
    ScriptedDice none{};
    State built = s, saved = s;
    Game::apply(built, o, build_of(capital), none);
    Game::apply(saved, o, Pick{Pick::save, 0, 0, {}}, none);
    CHECK(built.bp[0] == 20);
    CHECK(built.plan[0].design[2] == capital);
    CHECK(built.fleets[0][0].n == Counts{0, 0, 1, 0});
    CHECK(built.stage == Stage::build);  // 20 BP left: A builds on
    CHECK(built.to_move == 0);
    CHECK(saved.bp[0] == 40);
    CHECK(saved.ships(0) == 0);
    CHECK(saved.to_move == 1);  // A saved: B's builds
    // M2b: four designs a side at most; with four, only those four can be built.
    State full = s;
    full.bp[0] = 100;
    for (const char* d : {"E1S5T4W5", "E5S5T5W0"})
        Game::apply(full, o, build_of(*parse_design(d)), none);
    const auto left = legal_of(full);
    CHECK(left.size() == 1 + 3);  // E3S3T3W3 (slots 0 and 1), the two new ones, and save
    CHECK_FALSE(has(left, build_of(*parse_design("E2S2T2W2"))));
}

TEST_CASE("M5a merging is the policy's: two fleets in one hex merge, or stay apart",
          "[msc][M5a][decision]") {
    Options o;
    State s = opening40(o);
    ScriptedDice none{};
    State t = s;
    Game::apply(t, o, build_of(kBalanced), none);  // side A: 2 ships, one fleet
    Game::apply(t, o, build_of(kBalanced), none);
    while (t.stage == Stage::build) Game::apply(t, o, Pick{Pick::save, 0, 0, {}}, none);
    // Turn 1, A moves first (M4a): one fleet, nothing to merge: A's first fleet's orders.
    REQUIRE(t.stage == Stage::orders);
    // Put a second fleet beside the first and ask again from the merge.
    t.fleets[0][1] = Fleet{t.home[0], {1, 0, 0, 0}, 0};
    t.recount();  // a fleet edited in by hand (State::recount)
    t.stage = Stage::merge;
    const auto legal = legal_of(t);
    REQUIRE(legal.size() == 2);
    State merged = t, apart = t;
    Game::apply(merged, o, legal[0], none);  // {merge, 0, 1}
    Game::apply(apart, o, Pick{Pick::done, 0, 0, {}}, none);
    CHECK(legal[0] == Pick{Pick::merge, 0, 1, {}});
    CHECK(merged.fleets[0][0].ships() == 3);
    CHECK(merged.fleets[0][1].ships() == 0);
    CHECK(apart.fleets[0][0].ships() == 2);
    CHECK(apart.fleets[0][1].ships() == 1);
    CHECK(apart.stage == Stage::orders);
    CHECK(apart.fleet == 0);
}

TEST_CASE("M5 M5a a fleet's orders: any split, one ship at a time, and any hex in reach",
          "[msc][M5][M5a][decision]") {
    Options o;
    ScriptedDice none{};
    State s = opening40(o);
    for (int k = 0; k < 2; ++k) Game::apply(s, o, build_of(kBalanced), none);
    while (s.stage == Stage::build) Game::apply(s, o, Pick{Pick::save, 0, 0, {}}, none);
    REQUIRE(s.stage == Stage::orders);
    REQUIRE(s.to_move == 0);
    const hex::Hex home = s.home[0];
    auto legal = legal_of(s);
    // ENGINE 3: every hex within 3 inside the map (the home is on the top edge), and a detach.
    CHECK(has(legal, Pick{Pick::detach, 0, 0, {}}));
    int hexes = 0;
    for (const Pick& c : legal) hexes += c.kind == Pick::go;
    CHECK(hexes > 10);
    CHECK(hexes < 37);
    const hex::Hex there = hex::from_offset(hex::offset_col(home), hex::offset_row(home) + 3);
    CHECK(has(legal, go_to(there)));
    CHECK(has(legal, go_to(home)));  // staying put
    // Two choices, two positions: split one ship off toward `there` (and keep the other home),
    // or move the whole fleet there.
    State split = s, whole = s;
    Game::apply(split, o, Pick{Pick::detach, 0, 0, {}}, none);
    legal = legal_of(split);
    CHECK_FALSE(has(legal, Pick{Pick::detach, 0, 0, {}}));  // one ship must stay
    CHECK_FALSE(has(legal, go_to(there)));                  // the detachment goes first
    Game::apply(split, o, Pick{Pick::send, 0, 0, {there, {}, {}}}, none);
    REQUIRE(split.stage == Stage::orders);  // the fleet's own orders go on
    Game::apply(split, o, go_to(home), none);
    Game::apply(whole, o, go_to(there), none);
    CHECK(split.fleets[0][0].pos == home);
    CHECK(split.fleets[0][0].ships() == 1);
    CHECK(split.fleets[0][1].pos == there);
    CHECK(split.fleets[0][1].ships() == 1);
    CHECK(whole.fleets[0][0].pos == there);
    CHECK(whole.fleets[0][0].ships() == 2);
    CHECK(whole.fleets[0][1].ships() == 0);
}

TEST_CASE("M7 M7d losses and retreats rest as decisions: two choices, two positions",
          "[msc][M7][M7d][decision]") {
    // B (1 main E2S5T0W4, 2 escorts E5S1T2W1) is attacked by A (3 x E3S3T3W3), as in the
    // loss-rule test of test_rules.cpp: A's 2 hits against 1 save: B loses one ship, its choice.
    const Plan pb(*parse_design("E2S5T0W4"), *parse_design("E5S1T2W1"), 50);
    Options o;
    ScriptedDice none{};
    State s = setup(o, {Plan(kBalanced), pb}, none);
    const hex::Hex at = s.sys[0].pos;
    s.fleets[0][0] = Fleet{at, {3, 0}, 2};
    s.fleets[1][0] = Fleet{at, {1, 2}, 1};
    s.recount();  // fleets edited by hand (State::recount)
    s.fights[0] = at;
    s.n_fights = 1;
    s.fight = 0;
    s.stage = Stage::fight;
    ScriptedDice d{6, 6, 1, 5, 1};
    msc::detail::settle(s, o, d);
    REQUIRE(s.stage == Stage::lose);
    REQUIRE(s.to_move == 1);
    const auto legal = legal_of(s);
    REQUIRE(legal.size() == 2);
    o.initiative = 0;  // no dice for the next turn's initiative (M4a)
    State main = s, escort = s;
    ScriptedDice d1{1, 1, 1, 1}, d2{1, 1, 1, 1};  // B's die and A's three saves: nothing
    Game::apply(main, o, Pick{Pick::lose, 0, 0, {}}, d1);
    Game::apply(escort, o, Pick{Pick::lose, 1, 0, {}}, d2);
    CHECK(main.fleets[1][0].n == Counts{0, 2});
    CHECK(escort.fleets[1][0].n == Counts{1, 1});
    // Then A, the attacker, may retreat (M7): two choices, two positions.
    REQUIRE(main.stage == Stage::retreat);
    REQUIRE(main.to_move == 0);
    State fled = main, stayed = main;
    ScriptedDice none2{};
    Game::apply(fled, o, Pick{Pick::retreat, 0, 0, {}}, none2);
    CHECK(fled.fleets[0][0].pos == step_toward(fled, at, fled.home[0]));
    Game::apply(stayed, o, Pick{Pick::stay, 0, 0, {}}, none2);
    CHECK(stayed.fleets[0][0].pos == at);
    CHECK(stayed.stage == Stage::retreat);
    CHECK(stayed.to_move == 1);  // B's turn to choose
}

TEST_CASE("M7 M7c M7e retreat is legal only where the side can retreat",
          "[msc][M7][M7c][M7e][decision]") {
    // Up to msc/5 legal listed `retreat` at every retreat decision, so random (and anything
    // choosing among legal choices) picked a retreat its side could not make.
    const Design anchored = *parse_design("E0S4T3W4");  // M2: ENGINE 0 cannot move
    Options o;
    ScriptedDice none{};
    State s = setup(o, {Plan(kBalanced), Plan(kBalanced, anchored, 50)}, none);
    const hex::Hex at = s.sys[0].pos;
    for (auto& side : s.fleets)
        for (auto& f : side) f = Fleet{};
    s.fleets[0][0] = Fleet{at, {1, 0}, 2};
    s.fleets[1][0] = Fleet{at, {1, 0}, 1};
    s.recount();
    s.fights[0] = at;
    s.n_fights = 1;
    s.fight = 0;
    s.stage = Stage::retreat;
    const std::vector<Pick> both{{Pick::stay, 0, 0, {}}, {Pick::retreat, 0, 0, {}}};
    const std::vector<Pick> stay{{Pick::stay, 0, 0, {}}};
    for (const int side : {0, 1}) {
        s.to_move = side;
        CHECK(legal_of(s) == both);  // both sides' ships can move: either may retreat
    }
    s.fleets[1][1] = Fleet{at, {0, 1}, 1};  // an ENGINE-0 ship joins B's side in the fight
    s.recount();
    s.to_move = 1;
    CHECK(legal_of(s) == stay);  // M7e: it holds every fleet of B's there
    s.to_move = 0;
    CHECK(legal_of(s) == both);
    // M7c: at home there is no hex nearer home to retreat to.
    for (int side = 0; side < kSides; ++side)
        for (auto& f : s.fleets[side])
            if (f.ships() > 0) f.pos = s.home[0];
    s.fights[0] = s.home[0];
    CHECK(legal_of(s) == stay);
    // And random, choosing among them, stays (no die rolled for a single choice).
    strategy::Random r;
    CHECK(Game::decide(s, o, r, none) == stay[0]);
}

TEST_CASE("M7 issue 30: an ENGINE-0 fleet caught by a stronger one cannot escape it",
          "[msc][M7][M7e][positions]") {
    // Issue 30's position: both fleets of ENGINE 0 in one hex on the last turn. B's fleet,
    // losing badly, retreated under msc/5 in about 21% of campaigns, which then reached the turn
    // cap as draws; it cannot retreat (M7), so the fight goes on until one side is destroyed.
    const GameEntry& msc = find_game("msc");
    const std::string text = "turn 5\nfleet a 12,10 E0S5T5W5x6\nfleet b 12,10 E0S5T5W5x2\n";
    const auto run = msc.prepare_from({{"max_turns", "6"}}, {"a=balanced/rush", "b=balanced/rush"},
                                      text, "e0.txt");
    const std::size_t m = run->metrics.size();
    const std::uint64_t n = 2000;
    std::vector<std::int32_t> out(n * m);
    run->play_each(1, 0, n, out.data());
    std::uint64_t draws = 0, decided = 0;
    for (std::uint64_t i = 0; i < n; ++i) {
        draws += static_cast<std::uint64_t>(out[i * m + kDraw]);
        decided += static_cast<std::uint64_t>(out[i * m + kAWin] + out[i * m + kBWin]);
    }
    CHECK(draws == 0);
    CHECK(decided == n);
}

TEST_CASE("random explores every legal choice: invariants after every decision",
          "[msc][invariants][decision]") {
    Options o;
    o.max_turns = 60;
    Dice dice(7);
    std::array<int, Pick::retreat + 1> seen{};
    int new_designs = 0;
    for (int game = 0; game < 40; ++game) {
        const std::array<Plan, kSides> plans = {
            Plan(doctrine_design(static_cast<Doctrine>(game % 4), 15),
                 doctrine_design(static_cast<Doctrine>((game + 1) % 4), 10), 25),
            Plan(kBalanced)};
        strategy::Random a;
        strategy::Random b;
        State s = opening(o, plans, dice);
        while (!Game::over(s, o)) {
            const int side = Game::to_move(s, o);
            const Pick c = side == 0 ? Game::decide(s, o, a, dice) : Game::decide(s, o, b, dice);
            REQUIRE(has(legal_of(s), c));
            ++seen[c.kind];
            const State before = s;
            State moved = s;  // the choice alone, before any fight it leads to
            msc::detail::play_choice(moved, o, c);
            Game::apply(s, o, c, dice);
            for (int sd = 0; sd < kSides; ++sd) {
                const auto u = static_cast<std::size_t>(sd);
                // BPs spent never exceed BPs produced plus the budget; every ship counted once.
                int spent = 0, alive = 0, built = 0;
                for (int d = 0; d < kMaxDesigns; ++d) {
                    spent += s.built_by[u][d] * s.design(sd, d).cost();
                    built += s.built_by[u][d];
                }
                REQUIRE(spent + s.bp[u] == o.budget + s.produced[u]);
                REQUIRE(built == s.built[u]);
                for (const auto& f : s.fleets[u]) {
                    for (int k : f.n) REQUIRE(k >= 0);
                    if (f.ships() > 0) REQUIRE(s.bounds.contains(f.pos));
                    alive += f.ships();
                }
                REQUIRE(alive == s.built[u] - s.lost[u]);
                REQUIRE(alive == s.afloat[u]);
                for (const Design& d : s.plan[u].design) REQUIRE((d.cost() == 0 || d.legal()));
            }
            // M5: a fleet moves at most its range (the slowest design among its ships).
            if (c.kind == Pick::go || c.kind == Pick::send) {
                const int i =
                    c.kind == Pick::go ? before.fleet : msc::detail::free_slot(before, side);
                const Fleet& f = moved.fleets[side][i];
                REQUIRE(hex::distance(before.fleets[side][before.fleet].pos, f.pos) <=
                        moved.range(side, f));
                REQUIRE(f.pos == c.order.target);  // a hex in reach is reached
            }
        }
        for (int sd = 0; sd < kSides; ++sd) new_designs += s.plan[sd].design[2].cost() > 0;
    }
    for (const auto kind : {Pick::save, Pick::build, Pick::done, Pick::merge, Pick::detach,
                            Pick::send, Pick::go, Pick::lose, Pick::stay, Pick::retreat})
        CHECK(seen[kind] > 0);
    CHECK(new_designs > 0);
}

TEST_CASE("positions: the opening, written and read back, plays as a fresh game",
          "[msc][positions]") {
    const GameEntry& msc = find_game("msc");
    REQUIRE(msc.opening_position);
    REQUIRE(msc.prepare_from);
    for (const std::vector<std::string>& policies :
         {std::vector<std::string>{},
          std::vector<std::string>{"a=balanced/random", "b=fast/raid"}}) {
        const Settings settings{{"max_turns", "80"}};
        const std::string text = msc.opening_position(settings);
        CHECK(text.find("turn 0") != std::string::npos);
        CHECK(text.find("bp a 525") != std::string::npos);
        const auto fresh = msc.prepare(settings, policies);
        const auto from = msc.prepare_from(settings, policies, text, "opening.txt");
        const std::size_t m = fresh->metrics.size();
        std::vector<std::int32_t> x(8 * m), y(8 * m);
        fresh->play_each(5, 0, 8, x.data());
        from->play_each(5, 0, 8, y.data());
        CHECK(x == y);
    }
    CHECK_THROWS_WITH(msc.opening_position({{"map", "random"}}), Catch::Contains("fixed map"));
}

TEST_CASE("positions: a mid-campaign state written and read back is the same state",
          "[msc][positions]") {
    Options o;
    Dice dice(3);
    const std::array<Plan, kSides> plans = {
        Plan(kBalanced, *parse_design("E3S2T3W1"), 25),
        Plan(doctrine_design(Doctrine::fast, 15), doctrine_design(Doctrine::fast, 10), 25)};
    strategy::Strike a;
    strategy::Raid b;
    State s = opening(o, plans, dice);
    play_while(s, o, a, b, dice,
               [](const State& t) { return !(t.stage == Stage::production && t.turn == 20); });
    REQUIRE(s.stage == Stage::production);
    s.fleets[0][0].arrived = s.fleets[1][0].arrived = 0;  // (not part of a position)
    const std::string text = write_position(s, o);
    const State t = read_position(text, "mid.txt", o, plans);
    CHECK(write_position(t, o) == text);
    CHECK(t.stage == Stage::production);
    CHECK(t.turn == 20);
    for (int side = 0; side < kSides; ++side) {
        CHECK(t.bp[side] == s.bp[side]);
        CHECK(t.ships(side) == s.ships(side));
        CHECK(t.owned(side) == s.owned(side));
    }
    CHECK(text.find("fleet a ") != std::string::npos);
    CHECK(text.find("system ") != std::string::npos);
}

TEST_CASE("positions: an illegal position names the file, the line and the rule",
          "[msc][positions]") {
    const Options o;
    const std::array<Plan, kSides> plans{Plan(kBalanced), Plan(kBalanced)};
    auto error = [&](const std::string& text) {
        try {
            (void)read_position(text, "p.txt", o, plans);
        } catch (const UsageError& e) {
            return std::string(e.what());
        }
        return std::string("accepted");
    };
    CHECK(error("turn 3\nfleet a 30,2 E3S3T3W3x4\n") ==
          "p.txt:2: hex '30,2' is off the map (columns 0..25, rows 0..21) (M1)");
    CHECK_THAT(error("fleet a 3,3 E3S3T3W4x4\n"),
               Catch::StartsWith("p.txt:1: ships 'E3S3T3W4x4'") && Catch::EndsWith("(M2)"));
    CHECK_THAT(error("fleet c 3,3 E3S3T3W3x4\n"), Catch::StartsWith("p.txt:1: side 'c'"));
    CHECK_THAT(error("system 3,3 owner a\n"), Catch::StartsWith("p.txt:1: no system at 3,3 (M1)"));
    CHECK_THAT(error("turn 300\n"),
               Catch::StartsWith("p.txt:1: turn '300'") && Catch::EndsWith("(M8)"));
    CHECK_THAT(error("turn 5\nfleet a 10,10 E3S3T3W3x1\n"),
               Catch::StartsWith("p.txt:1: side b has no ships") && Catch::EndsWith("(M8)"));
    CHECK_THAT(error("fleet a 1,1 E1S5T4W5x1 E5S5T5W0x1 E2S2T2W2x1\n"),
               Catch::StartsWith("p.txt:1: design E2S2T2W2") && Catch::EndsWith("(M2b)"));
    std::string seventeen;
    for (int i = 0; i < 17; ++i) seventeen += "fleet a " + std::to_string(i) + ",5 E3S3T3W3x1\n";
    CHECK_THAT(error(seventeen),
               Catch::StartsWith("p.txt:17: a 17th fleet") && Catch::EndsWith("(M5a)"));
    CHECK(error("# nothing but the turn\nturn 0\n") == "accepted");
}

TEST_CASE("positions: the example on the rules page is a legal position", "[msc][positions]") {
    const std::string page = test::slurp(std::string(ODDS_SOURCE_DIR) + "/engine/msc/RULES.md");
    const auto at = page.find("```\n", page.find("## Positions"));
    REQUIRE(at != std::string::npos);
    const std::string text = page.substr(at + 4, page.find("```", at + 4) - at - 4);
    const State s = read_position(text, "RULES.md", Options{},
                                  {Plan(kBalanced, *parse_design("E3S2T3W1"), 25),
                                   Plan(*parse_design("E2S5T0W4"), *parse_design("E2S5T1W1"), 25)});
    CHECK(s.turn == 40);
    CHECK(s.ships(0) == 25);
    CHECK(s.ships(1) == 30);
    CHECK(s.owned(0) == 2);
    CHECK(s.built_by[0][0] == 26);
}

TEST_CASE("sneak holds home and sends one ship at the enemy home", "[msc][strategies]") {
    // The opening of the fast mirror on the seed's map, played by the strategies up to side A's
    // first fleet orders: its one fleet, at home, stays there and detaches a single ship against
    // the enemy home; with that ship away, the home fleet detaches no other.
    Options o;
    Dice dice(3);
    const Plan fast(doctrine_main(Doctrine::fast), doctrine_escort(Doctrine::fast),
                    kDefaultEscortShare);
    State s = opening(o, {fast, fast}, dice);
    strategy::Sneak sneak;
    while (!(s.stage == Stage::orders && s.to_move == 0))
        Game::apply(s, o, Game::decide(s, o, sneak, dice), dice);
    const Fleet& home = s.fleets[0][s.fleet];
    REQUIRE(home.pos == s.home[0]);
    REQUIRE(home.ships() > 1);
    const Orders first = sneak.orders(s, 0, s.fleet, dice);
    CHECK(first.target == s.home[0]);
    CHECK(first.detach_target == s.home[1]);
    int detached = 0;
    for (int d = 0; d < kMaxDesigns; ++d) detached += first.detach[d];
    CHECK(detached == 1);
    Game::apply(s, o, Game::decide(s, o, sneak, dice), dice);  // the orders given
    bool away = false;
    for (unsigned m = s.alive[0]; m != 0; m &= m - 1)
        away = away || s.fleets[0][std::countr_zero(m)].pos != s.home[0];
    CHECK(away);
    for (unsigned m = s.alive[0]; m != 0; m &= m - 1) {
        const int i = std::countr_zero(m);
        if (s.fleets[0][i].pos != s.home[0]) continue;
        const Orders later = sneak.orders(s, 0, i, dice);
        int more = 0;
        for (int d = 0; d < kMaxDesigns; ++d) more += later.detach[d];
        CHECK(more == 0);
        CHECK(later.target == s.home[0]);
    }
}

TEST_CASE("sneak beats a fast rush from either seat: the rush mirror's draw is not the best",
          "[msc][strategies][statistics]") {
    // In the fast/rush mirror both homes fall at the end of turn 6, every campaign a draw. Keeping
    // all but one ship home and sending that one at the enemy home never does worse (the rush
    // must win the fight at this home to draw) and wins when the home holds: its score, a win 1
    // and a draw 1/2, must be above 1/2 by more than 4 standard errors, in both seats.
    const std::uint64_t n = 1000;
    for (int seat = 0; seat < 2; ++seat) {
        const std::vector<std::string> policies =
            seat == 0 ? std::vector<std::string>{"a=fast/sneak", "b=fast/rush"}
                      : std::vector<std::string>{"a=fast/rush", "b=fast/sneak"};
        const Tally t = test::monte_carlo("msc", {}, policies, n, 5);
        const auto wins = test::counts(t, seat == 0 ? kAWin : kBWin);
        const auto losses = test::counts(t, seat == 0 ? kBWin : kAWin);
        const auto draws = test::counts(t, kDraw);
        const double score = (static_cast<double>(wins[1]) + static_cast<double>(draws[1]) / 2) /
                             static_cast<double>(n);
        const double se = 0.5 / std::sqrt(static_cast<double>(n));  // the largest it can be
        INFO("sneak in seat " << seat << " scores " << score << ", lost " << losses[1]);
        CHECK(score - 4 * se > 0.5);
    }
}

namespace {
// Answers every question as scripted (restricted play's tests).
struct Answers {
    Design design{};
    std::array<int, 2> merge_pair{-1, -1};
    Orders order{};
    bool flee = false;
    template <class D>
    Design build(const State&, int, D&) {
        return design;
    }
    template <class D>
    std::array<int, 2> merge(const State&, int, D&) {
        return merge_pair;
    }
    template <class D>
    Orders orders(const State&, int, int, D&) {
        return order;
    }
    template <class D>
    int lose(const State&, int, const Counts&, D&) {
        return 0;
    }
    template <class D>
    bool retreat(const State&, int, const hex::Hex&, D&) {
        return flee;
    }
};
std::vector<Pick> legal_under(const State& s, const Options& o) {
    std::vector<Pick> out(kMaxChoices);
    out.resize(static_cast<std::size_t>(Game::legal(s, o, out.data())));
    return out;
}
}  // namespace

TEST_CASE("M2c M5b M7f restrict.a, restrict.b: read, named in the scenario, refused when bad",
          "[msc][M2c][M5b][M7f]") {
    CHECK(parse_options({}).barred == std::array<std::uint8_t, 2>{0, 0});
    const Options o = parse_options({{"restrict.a", "retreat,large"}, {"restrict.b", "split"}});
    CHECK(o.barred[0] == (Options::kBarLarge | Options::kBarRetreat));
    CHECK(o.barred[1] == Options::kBarSplit);
    CHECK(o.bars_size(0, 20));
    CHECK_FALSE(o.bars_size(0, 15));
    CHECK_FALSE(o.bars_size(1, 20));
    CHECK(scenario(o).find("restrict.a=large,retreat restrict.b=split") != std::string::npos);
    CHECK(scenario(parse_options({})).find("restrict") == std::string::npos);
    CHECK_THROWS_WITH(parse_options({{"restrict.a", "capital"}}),
                      Catch::Contains("restrict.a") && Catch::Contains("retreat"));
}

TEST_CASE("M2c a barred size is never built: not legal, and a policy's such build saves",
          "[msc][M2c][decision]") {
    Options o = parse_options({{"restrict.a", "large"}});
    State s = opening40(o);
    const auto legal = legal_under(s, o);
    int large = 0;
    for_each_design(kBookShips, [&](const Design&, int cost) { return large += cost == 20, true; });
    CHECK(legal.size() == kDesigns + 1 - static_cast<std::size_t>(large));
    for (const auto& c : legal)
        if (c.kind == Pick::build) CHECK(design_of_code(c.a).cost() < 20);
    Answers capital, main;
    capital.design = *parse_design("E1S5T4W5");
    main.design = kBalanced;
    ScriptedDice none{};
    CHECK(Game::decide(s, o, capital, none).kind == Pick::save);
    CHECK(Game::decide(s, o, main, none) == Game::decide(s, Options{}, main, none));
    CHECK(Game::decide(s, Options{}, capital, none).kind == Pick::build);
    s.to_move = 1;  // B's restriction is not A's
    CHECK(Game::decide(s, o, capital, none).kind == Pick::build);
}

TEST_CASE("M7f M5b a side barred from retreating fights on; from merging or splitting, does not",
          "[msc][M7f][M5b][decision]") {
    const Options o = parse_options({{"restrict.a", "retreat,merge,split"}});
    ScriptedDice none{};
    State s = setup(o, {Plan(kBalanced), Plan(kBalanced)}, none);
    const hex::Hex at = s.sys[0].pos;
    for (auto& side : s.fleets)
        for (auto& f : side) f = Fleet{};
    s.fleets[0][0] = Fleet{at, {2, 0}, 2};
    s.fleets[0][1] = Fleet{at, {1, 0}, 2};
    s.fleets[1][0] = Fleet{at, {1, 0}, 1};
    s.recount();
    s.fights[0] = at;
    s.n_fights = 1;
    s.fight = 0;
    s.stage = Stage::retreat;
    Answers flee;
    flee.flee = true;
    s.to_move = 0;
    CHECK(legal_under(s, o) == std::vector<Pick>{{Pick::stay, 0, 0, {}}});
    CHECK(Game::decide(s, o, flee, none).kind == Pick::stay);
    CHECK(Game::decide(s, Options{}, flee, none).kind == Pick::retreat);
    s.to_move = 1;  // B may still retreat
    CHECK(legal_under(s, o).size() == 2);
    CHECK(Game::decide(s, o, flee, none).kind == Pick::retreat);
    // Merging: A's two fleets share a hex; barred, only "no more merging".
    s.to_move = 0;
    s.stage = Stage::merge;
    CHECK(legal_under(s, o) == std::vector<Pick>{{Pick::done, 0, 0, {}}});
    CHECK(legal_under(s, Options{}).size() == 2);
    Answers merge;
    merge.merge_pair = {0, 1};
    CHECK(Game::decide(s, o, merge, none).kind == Pick::done);
    CHECK(Game::decide(s, Options{}, merge, none).kind == Pick::merge);
    // Splitting: A's first fleet's orders; barred, no detach choice, and orders detach nothing.
    s.stage = Stage::orders;
    s.fleet = 0;
    for (const auto& c : legal_under(s, o)) CHECK(c.kind != Pick::detach);
    bool detach = false;
    for (const auto& c : legal_under(s, Options{})) detach = detach || c.kind == Pick::detach;
    CHECK(detach);
    Answers split;
    split.order.target = at;
    split.order.detach = {1, 0};
    split.order.detach_target = s.home[0];
    const Pick c = Game::decide(s, o, split, none);
    CHECK(c.order.detach == Counts{});
    CHECK(c.order.target == at);
    CHECK(Game::decide(s, Options{}, split, none).order.detach == Counts{1, 0});
}

TEST_CASE("M2c M5b M7f random never makes a barred choice over whole campaigns",
          "[msc][M2c][M5b][M7f]") {
    const Options o = parse_options(
        {{"restrict.a", "large,merge,split,retreat"}, {"max_turns", "40"}, {"budget", "120"}});
    strategy::Random a, b;
    int decisions = 0;
    for (std::uint64_t g = 0; g < 10; ++g) {
        odds::Dice dice(g + 3);
        State s = opening(o, {Plan(kBalanced), Plan(kBalanced)}, dice);
        while (s.stage != Stage::over) {
            const Pick c =
                s.to_move == 0 ? Game::decide(s, o, a, dice) : Game::decide(s, o, b, dice);
            if (s.to_move == 0) {
                CHECK(c.kind != Pick::merge);
                CHECK(c.kind != Pick::detach);
                CHECK(c.kind != Pick::retreat);
                if (c.kind == Pick::build) CHECK(design_of_code(c.a).cost() < 20);
                ++decisions;
            }
            Game::apply(s, o, c, dice);
        }
    }
    CHECK(decisions > 100);
}
