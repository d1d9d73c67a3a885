// The generic tree search (policies/mcts.hpp) as a Dimension Duel policy: legal play to the end,
// the defender's honest sample of the attacker's hidden choice (D2a), determinism, the exact
// solvers' refusal, and a strength check against the exact value of the rules as written.
// Fixed seeds; tolerances of 4 standard errors. (No allocation: tests/test_alloc.cpp.)
#include <catch2/catch.hpp>

#include <cmath>

#include "engine/dice.hpp"
#include "engine/dimension_duel/dimension_duel.hpp"
#include "engine/dimension_duel/exact.hpp"
#include "engine/dimension_duel/policies.hpp"
#include "sim/registry.hpp"
#include "tests/helpers.hpp"

using namespace odds;
using namespace odds::dimension_duel;

namespace {

dimension_duel::Mcts searcher(const Options& o, int n, std::size_t rollout = 0) {
    return dimension_duel::Mcts(n, 1.41,
                                narrow_policy<Basic>(kPolicies[rollout].make(o, PolicyArgs{})));
}

bool is_legal(const State& s, const Options& o, Game::Choice c) {
    Game::Choice legal[Game::kMaxChoices];
    const int n = Game::legal(s, o, legal);
    for (int i = 0; i < n; ++i)
        if (legal[i] == c) return true;
    return false;
}

}  // namespace

TEST_CASE("duel mcts plays legal choices to the end of the duel (D2, D6, D7)", "[duel][mcts]") {
    for (const bool single_use : {false, true}) {
        Options o;
        o.hp = 20;
        o.single_use = single_use;
        auto tau = searcher(o, 48, 1);  // rolls out with aggressor
        DicePolicy kaon;
        Dice dice(17);
        for (int game = 0; game < 20; ++game) {
            State s = opening(o);
            int decisions = 0;
            while (!Game::over(s, o)) {
                const int seat = Game::to_move(s, o);
                const Game::Choice c =
                    seat == kTau ? Game::decide(s, o, tau, dice) : Game::decide(s, o, kaon, dice);
                INFO("single_use " << single_use << ", game " << game << ", turn " << s.turn
                                   << ", step " << int(s.step) << ", choice " << int(c));
                REQUIRE(is_legal(s, o, c));  // D7: under single_use, a function still unused
                Game::apply(s, o, c, dice);
                ++decisions;
            }
            CHECK(decisions == 6 * s.out.turns);  // D2: six decision points a turn
            const bool tau_dead = s.hp[kTau] <= 0, kaon_dead = s.hp[kKaon] <= 0;  // D6
            CHECK((tau_dead || kaon_dead || s.out.timeout));
            CHECK(s.out.winner == (tau_dead && kaon_dead ? -1 : tau_dead ? kKaon : kTau));
        }
    }
}

TEST_CASE("duel mcts as defender samples the attacker's hidden choice of the step (D2a)",
          "[duel][mcts]") {
    const Options o;
    State s = opening(o);
    s.step = 1;  // Kaon's shield; Tau's ray (0) is in the state but hidden from Kaon
    Dice dice(3);
    int rays[2] = {0, 0};
    for (int i = 0; i < 400; ++i) {
        State copy = s;
        Game::determinize(copy, o, kKaon, dice);
        ++rays[copy.c.ray];
    }
    // A fair coin: 200 each within 4 standard errors (sqrt(400 / 4) = 10).
    CHECK(std::abs(rays[0] - 200) <= 40);
    // The attacker itself sees everything: its copy is the position as it is.
    State mine = s;
    Game::determinize(mine, o, kTau, dice);
    CHECK(mine.c.ray == 0);
    // Step 5 under single_use: only a function the attacker can still play (D7).
    Options su;
    su.single_use = true;
    State f = opening(su);
    f.step = 5;
    f.used[kTau] = static_cast<std::uint8_t>(~su.bit(kDelayed) & 0x3f);  // all but Delayed used
    for (int i = 0; i < 50; ++i) {
        State copy = f;
        Game::determinize(copy, su, kKaon, dice);
        CHECK((copy.fa == kDelayed || copy.fa == kBluff));
    }
}

TEST_CASE("duel mcts depends only on the seed: 1 and 2 threads, identical tallies",
          "[duel][mcts]") {
    const auto run =
        find_game("dimension-duel").prepare({{"hp", "15"}}, {"tau=mcts:24:rollout=survivor"});
    CHECK(run->policy == "tau=mcts:24:rollout=survivor kaon=dice");
    CHECK(test::same_on_1_and_2_threads(*run, 24, 8, 4));
}

TEST_CASE("the duel's exact solvers refuse mcts with one line", "[duel][mcts][exact]") {
    const Options o;
    const Policy mcts = searcher(o, 10);
    const Policy dice = DicePolicy{};
    CHECK_THROWS_WITH(exact::dimension_duel::solve(o, mcts, dice),
                      Catch::Contains("mcts searches"));
    CHECK_THROWS_WITH(exact::dimension_duel::best_response(o, kKaon, mcts),
                      Catch::Contains("mcts searches"));
    const auto r =
        test::cli({"exact", "dimension-duel", "--policy", "tau=mcts", "--policy", "kaon=dice"});
    CHECK(r.code == 2);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
}

TEST_CASE("duel mcts as tau beats dice more than half the time, and more than dice does",
          "[duel][mcts][statistics]") {
    const Settings settings{{"hp", "20"}};
    const Options o = parse_options(settings);
    // What the rules as written give Tau against them, exactly (draws half).
    const auto exact = exact::dimension_duel::solve(o, DicePolicy{}, DicePolicy{});
    const double dice_score = exact.tau_win + exact.draw / 2;
    const std::uint64_t n = 400;
    const Tally t =
        test::monte_carlo("dimension-duel", settings, {"tau=mcts:150", "kaon=dice"}, n, 31);
    // advantage_first: 2 a Tau win, 1 a draw, 0 a loss (halves).
    const auto adv = test::counts(t, kAdvantageFirst);
    const double score = (static_cast<double>(adv[2]) + static_cast<double>(adv[1]) / 2) / n;
    const double se = 0.5 / std::sqrt(static_cast<double>(n));  // the largest a score's can be
    INFO("mcts scores " << score << " as tau; dice " << dice_score);
    CHECK(score - 4 * se > 0.5);
    CHECK(score - 4 * se > dice_score);
}
