// The generic tree search (policies/mcts.hpp) as a Minimal Space Combat policy, over a plan a
// turn (msc::Search): legal play to the end of the campaign, the score of a campaign cut short,
// determinism, and strength against the rules of thumb. Fixed seeds; tolerances of 4 standard
// errors. (No allocation: tests/test_alloc.cpp.)
#include <catch2/catch.hpp>

#include <cmath>

#include "engine/dice.hpp"
#include "engine/msc/msc.hpp"
#include "engine/msc/policies.hpp"
#include "sim/registry.hpp"
#include "tests/helpers.hpp"

using namespace odds;
using namespace odds::msc;

namespace {

Plan plan_of(Doctrine d) { return Plan(doctrine_main(d), doctrine_escort(d), kDefaultEscortShare); }

// A Choice the kernel accepts at `s`: one Game::legal lists (a build naming the plan's slot
// for its design, M2a, as the strategies do), or a whole fleet's orders (the strategies' form,
// M5, M5a) to a hex of the map detaching ships the fleet has.
bool accepted(const State& s, const msc::Choice& c) {
    msc::Choice legal[Game::kMaxChoices];
    const int n = Game::legal(s, Options{}, legal);
    for (int i = 0; i < n; ++i)
        if (legal[i] == c ||
            (c.kind == msc::Choice::build && legal[i].kind == c.kind && legal[i].a == c.a))
            return true;
    if (c.kind != msc::Choice::orders || s.stage != Stage::orders) return false;
    const Fleet& f = s.fleets[s.to_move][s.fleet];
    bool ok = s.bounds.contains(c.order.target);
    for (int d = 0; d < kMaxDesigns; ++d) ok = ok && c.order.detach[d] <= f.n[d];
    return ok;
}

}  // namespace

TEST_CASE("msc mcts answers every decision legally, by a plan a turn, to the campaign's end",
          "[msc][mcts]") {
    const Options o;
    int searched = 0, not_rollout = 0;
    for (const int side : {0, 1}) {
        msc::Mcts searcher(40, 1.41, Basic{strategy::Strike{}}, 4, o);
        REQUIRE(searcher.options.n_plans == 6);  // strike, expand, rush, raid, sneak, hold
        strategy::Strike rival;
        Dice dice(7 + side);
        for (int g = 0; g < 3; ++g) {
            State s = opening(o, {plan_of(Doctrine::balanced), plan_of(Doctrine::balanced)}, dice);
            while (!Game::over(s, o)) {
                const bool mine = s.to_move == side;
                const bool plans = mine && Search::plans_here(s, side);
                const msc::Choice c =
                    mine ? Game::decide(s, o, searcher, dice) : Game::decide(s, o, rival, dice);
                if (mine) {
                    INFO("turn " << s.turn << ", stage " << static_cast<int>(s.stage));
                    REQUIRE(accepted(s, c));
                    // Every answer is a strategy's: the plan's for orders, the rollout's else.
                    const int plan = searcher.plan[side];
                    REQUIRE(plan >= 0);
                    REQUIRE(plan < searcher.options.n_plans);
                    const msc::Choice expected =
                        std::visit([&](auto p) { return Game::decide(s, o, p, dice); },
                                   Search::strategy(s, searcher.options, searcher.plan));
                    CHECK(expected == c);
                    searched += plans;
                    not_rollout += plans && plan != 0;
                }
                Game::apply(s, o, c, dice);
            }
            CHECK(s.winner != -2);
        }
    }
    CHECK(searched > 20);
    CHECK(not_rollout > 0);  // the search does choose, not only the rollout strategy
}

TEST_CASE("msc mcts scores a campaign cut short by the side's share of worth, the turn cap a draw",
          "[msc][mcts]") {
    Dice dice(3);
    const Options o;
    Search::State s{setup(o, {plan_of(Doctrine::balanced), plan_of(Doctrine::turtle)}, dice), {}};
    Search::Options so;
    so.max_turns = 300;
    s.campaign.end = State::kTurnCap;
    s.campaign.winner = -1;
    s.campaign.turn = 12;  // cut short by the horizon
    s.campaign.bp[0] = 30;
    const int a = Search::worth(s.campaign, 0, o), b = Search::worth(s.campaign, 1, o);
    // Its ships at their cost (15 BP the main design, 10 the escort, M2a), its BPs, ten turns of
    // its one system's production.
    const auto& built = s.campaign.built_by[0];
    REQUIRE(built[0] + built[1] == s.campaign.ships(0));
    CHECK(a == 15 * built[0] + 10 * built[1] + 30 + 10 * 1);
    // production.bp_per_system=3: ten turns of 3 BP from its one system.
    CHECK(Search::worth(s.campaign, 0, parse_options({{"production.bp_per_system", "3"}})) ==
          a + 20);
    CHECK(Search::reward(s, so, 0) == Approx(static_cast<double>(a) / (a + b)));
    CHECK(Search::reward(s, so, 0) + Search::reward(s, so, 1) == Approx(1.0));
    s.campaign.turn = 300;  // the campaign's own cap: a draw (M8)
    CHECK(Search::reward(s, so, 0) == 0.5);
    s.campaign.winner = 1;
    s.campaign.end = State::kHome;
    CHECK(Search::reward(s, so, 1) == 1.0);
    CHECK(Search::reward(s, so, 0) == 0.0);
}

TEST_CASE("msc mcts depends only on the seed: 1 and 2 threads, identical tallies", "[msc][mcts]") {
    const auto run =
        find_game("msc").prepare({}, {"a=balanced/mcts:24:1.41:4:rollout=strike", "b=fast/strike"});
    CHECK(run->policy == "a=balanced/mcts:24:1.41:4:rollout=strike b=fast/strike");
    CHECK(test::same_on_1_and_2_threads(*run, 8, 4, 2));
}

TEST_CASE("msc mcts rolling out strike beats strike from the seat strike loses in",
          "[msc][mcts][statistics]") {
    // In the balanced/strike mirror side B (the bottom home) scores about 0.7, most campaigns
    // running to the turn cap; searching which strategy plays each turn, with strike as its only
    // model of the opponent, must do better by more than 4 standard errors.
    const std::uint64_t n = 100;
    const auto score_b = [&](const std::string& b, std::uint64_t games) {
        const Tally t = test::monte_carlo("msc", {}, {"a=balanced/strike", "b=" + b}, games, 17);
        const auto wins = test::counts(t, kBWin), draws = test::counts(t, kDraw);
        return (static_cast<double>(wins[1]) + static_cast<double>(draws[1]) / 2) /
               static_cast<double>(games);
    };
    const double strike = score_b("balanced/strike", 400);
    const double mcts = score_b("balanced/mcts:40:1.41:5:rollout=strike", n);
    const double se = 0.5 / std::sqrt(static_cast<double>(n));  // the largest a score's can be
    INFO("mcts scores " << mcts << " as side B; strike " << strike);
    CHECK(mcts - 4 * se > 0.5);
    CHECK(mcts - 4 * se > strike);
}

TEST_CASE("msc mcts keeps a plan once chosen, and models the opponent from the board",
          "[msc][mcts]") {
    const Options o;
    msc::Mcts searcher(100, 1.41, Basic{strategy::Rush{}}, 10, o);
    REQUIRE(searcher.options.n_plans == 6);  // rush, expand, raid, strike, sneak, hold
    REQUIRE(searcher.sneak_plan == 4);
    Dice dice(11);
    State s = opening(o, {plan_of(Doctrine::fast), plan_of(Doctrine::fast)}, dice);
    strategy::Rush rush;
    while (!Search::plans_here(s, s.to_move))
        Game::apply(s, o, Game::decide(s, o, rush, dice), dice);
    // Turn 1: the enemy has shown nothing yet; the model is the rollout strategy.
    REQUIRE(s.turn == 1);
    CHECK(searcher.opponent_model(s) == 0);
    // A descent: every plan is open at first; once one is chosen, only it.
    Search::Options so = searcher.options;
    so.seat = s.to_move;
    so.rules.max_turns = 20;
    Search::State st{s, {}};
    Search::Choice legal[Search::kMaxChoices];
    CHECK(Search::legal(st, so, legal) == 6);
    Search::apply(st, so, Search::Choice{4}, dice);
    REQUIRE_FALSE(Search::over(st, so));
    REQUIRE(Search::to_move(st, so) == so.seat);
    REQUIRE(Search::legal(st, so, legal) == 1);
    CHECK(legal[0] == 4);
    CHECK(Search::decide(st, so, Search::Rollout{}, dice) == 4);
    // Later: an enemy with every ship at home is modelled as sneak, one with its ships away as
    // the rollout strategy.
    State later = st.campaign;
    REQUIRE(later.turn > 1);
    const int e = 1 - later.to_move;
    for (unsigned m = later.alive[e]; m != 0; m &= m - 1)
        later.fleets[e][std::countr_zero(m)].pos = later.home[e];
    CHECK(searcher.opponent_model(later) == searcher.sneak_plan);
    for (unsigned m = later.alive[e]; m != 0; m &= m - 1)
        later.fleets[e][std::countr_zero(m)].pos = later.home[1 - e];
    CHECK(searcher.opponent_model(later) == 0);
}

TEST_CASE("msc mcts beats fast/rush and fast/sneak from either seat", "[msc][mcts][statistics]") {
    // sneak beats a rush and loses to expansion; search, playing a plan it keeps against the
    // opponent read off the board, must score (a win 1, a draw 1/2) above 1/2 against both, by
    // more than 4 standard errors (the scores' own), in both seats.
    for (const std::string rival : {"fast/rush", "fast/sneak"})
        for (int seat = 0; seat < 2; ++seat) {
            // The rush: about 0.6, most campaigns drawn; sneak: lost every time, a longer game.
            const std::uint64_t n = rival == "fast/rush" ? 300 : 60;
            const std::vector<std::string> policies =
                seat == 0 ? std::vector<std::string>{"a=fast/mcts", "b=" + rival}
                          : std::vector<std::string>{"a=" + rival, "b=fast/mcts"};
            const Tally t = test::monte_carlo("msc", {}, policies, n, 23);
            const double w = static_cast<double>(test::counts(t, seat == 0 ? kAWin : kBWin)[1]) /
                             static_cast<double>(n);
            const double d =
                static_cast<double>(test::counts(t, kDraw)[1]) / static_cast<double>(n);
            const double l = 1 - w - d;
            const double score = w + d / 2;
            const double var = w * (1 - score) * (1 - score) + d * (0.5 - score) * (0.5 - score) +
                               l * score * score;
            const double se = std::sqrt(var / static_cast<double>(n));
            INFO("mcts in seat " << seat << " against " << rival << ": won " << w << ", drew " << d
                                 << ", score " << score << " (se " << se << ")");
            CHECK(score - 4 * se > 0.5);
        }
}

TEST_CASE("msc mcts plays the campaign's rule options in its search, not the book's",
          "[msc][mcts][options]") {
    const Options o = parse_options({{"combat.offense_bp_per_die", "6"},
                                     {"combat.hits_on", "4-6"},
                                     {"production.bp_per_system", "2"},
                                     {"max_turns", "120"}});
    const msc::Mcts m(10, 1.0, rollout_strategy(0), 0, o);
    CHECK(m.options.rules.combat.offense_bp_per_die == 6);
    CHECK(m.options.rules.combat.hits_on == FaceSet::range(4, 6));
    CHECK(m.options.rules.bp_per_system == 2);
    CHECK(m.options.max_turns == 120);
    const msc::Mcts book(10, 1.0, rollout_strategy(0), 0, msc::Options{});
    CHECK(book.options.rules.combat == CombatRules{});
}
