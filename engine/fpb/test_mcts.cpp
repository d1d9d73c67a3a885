// The generic tree search (policies/mcts.hpp) as a Full Plastic Bodybag policy: legal play to the
// end under the game's invariants, determinism, and strength against `random` (paired on nothing:
// two Monte Carlo means, 4 standard errors of their difference) and against `rollout`. Fixed
// seeds. (No allocation:
// tests/test_alloc.cpp.)
#include <catch2/catch.hpp>

#include <cmath>
#include <string>
#include <vector>

#include "engine/dice.hpp"
#include "engine/fpb/fpb.hpp"
#include "engine/fpb/policies.hpp"
#include "sim/registry.hpp"
#include "tests/helpers.hpp"

using namespace odds;
using namespace odds::fpb;

namespace {

fpb::Mcts searcher(const Options& o, int n, std::size_t rollout = 0) {
    return fpb::Mcts(n, 1.41, narrow_policy<Basic>(kPolicies[rollout].make(o, PolicyArgs{})), o);
}

// The mean and standard error of metric m over a tally's playouts.
std::pair<double, double> mean_se(const Tally& t, int m) {
    const auto c = test::counts(t, m);
    double n = 0, sum = 0, sq = 0;
    for (std::size_t v = 0; v < c.size(); ++v) {
        const double k = static_cast<double>(c[v]), x = static_cast<double>(v);
        n += k;
        sum += k * x;
        sq += k * x * x;
    }
    const double mean = sum / n;
    return {mean, std::sqrt((sq / n - mean * mean) / n)};
}

}  // namespace

TEST_CASE("fpb mcts plays legal choices to the end, every man counted once (H3-H8)",
          "[fpb][mcts]") {
    const Options o;
    auto policy = searcher(o, 40, 5);  // rolls out at random
    Dice dice(12);
    std::vector<Game::Choice> legal(Game::kMaxChoices);
    int decisions = 0;
    for (int game = 0; game < 12; ++game) {
        State s;
        Game::begin(s);
        while (!s.over) {
            const Game::Choice c = Game::decide(s, o, policy, dice);
            const int n = Game::legal(s, o, legal.data());
            bool listed = false;
            for (int k = 0; k < n && !listed; ++k) listed = legal[static_cast<std::size_t>(k)] == c;
            INFO("game " << game << ", turn " << s.turn << ", phase " << int(s.phase));
            REQUIRE(listed);
            Game::apply(s, o, c, dice);
            ++decisions;
        }
        const Outcome r = outcome_of(s);
        CHECK(r.withdrawn + r.left_behind + r.killed == kSquad);
        CHECK(r.turns <= o.max_turns);
        CHECK(Game::reward(s, o, 0) == r.withdrawn / 8.0);  // what the search maximised
    }
    CHECK(decisions > 2 * 12);
}

TEST_CASE("fpb mcts depends only on the seed: 1 and 2 threads, identical tallies", "[fpb][mcts]") {
    const auto run = find_game("fpb").prepare({}, {"mcts:24:rollout=lead-from-front"});
    CHECK(run->policy == "mcts:24:rollout=lead-from-front");
    CHECK(test::same_on_1_and_2_threads(*run, 24, 4, 4));
}

TEST_CASE("fpb mcts brings home more marines than random, by 4 standard errors",
          "[fpb][mcts][statistics]") {
    const Tally mcts = test::monte_carlo("fpb", {}, {"mcts:48"}, 200, 21);
    const Tally random = test::monte_carlo("fpb", {}, {"random"}, 4000, 21);
    const auto [a, sa] = mean_se(mcts, kWithdrawn);
    const auto [b, sb] = mean_se(random, kWithdrawn);
    INFO("mcts " << a << " +- " << sa << ", random " << b << " +- " << sb);
    CHECK(a - b > 4 * std::sqrt(sa * sa + sb * sb));
}

// Issue 15's goal for Bodybag: search brings home more marines than every strategy, `rollout`
// (flat Monte Carlo over the same candidate orders, 16 playouts each) included.
TEST_CASE("fpb mcts over the candidate orders brings home more marines than rollout:16",
          "[fpb][mcts][statistics]") {
    const Tally mcts = test::monte_carlo("fpb", {}, {"mcts:200:rollout=lead-from-front"}, 1000, 23);
    const Tally flat = test::monte_carlo("fpb", {}, {"rollout:16"}, 1000, 24);
    const auto [a, sa] = mean_se(mcts, kWithdrawn);
    const auto [b, sb] = mean_se(flat, kWithdrawn);
    INFO("mcts " << a << " +- " << sa << ", rollout:16 " << b << " +- " << sb);
    CHECK(a - b > 4 * std::sqrt(sa * sa + sb * sb));
}

// Issue 15: the other objectives as a parameter. Each goal raises its own measure above what the
// default goal (marines withdrawn) gives it.
TEST_CASE("fpb mcts goal=clean and goal=icecube raise clean games and Ice-cube rescued",
          "[fpb][mcts][statistics]") {
    const char* base = "mcts:100:rollout=lead-from-front";
    const Tally withdrawn = test::monte_carlo("fpb", {}, {base}, 300, 25);
    const Tally clean = test::monte_carlo("fpb", {}, {std::string(base) + ":goal=clean"}, 300, 26);
    const Tally icecube =
        test::monte_carlo("fpb", {}, {std::string(base) + ":goal=icecube"}, 300, 27);
    for (const auto& [goal, m] :
         {std::pair{&clean, kClean}, std::pair{&icecube, kIceCubeRescued}}) {
        const auto [a, sa] = mean_se(*goal, m);
        const auto [b, sb] = mean_se(withdrawn, m);
        INFO("metric " << m << ": its goal " << a << " +- " << sa << ", goal=withdrawn " << b
                       << " +- " << sb);
        CHECK(a - b > 4 * std::sqrt(sa * sa + sb * sb));
    }
}
