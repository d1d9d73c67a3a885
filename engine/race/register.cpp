// Race in the registry: one of the tests' games (CMake's ODDS_TEST_GAMES), not the odds
// program's; docs/adding-a-game.md walks through this file. Race is the kernel's traits
// (sim/register_game.hpp says what they may hold); entry_of builds the entry from them.
#include "engine/race/exact.hpp"
#include "engine/race/policies.hpp"
#include "engine/race/race.hpp"
#include "sim/register_game.hpp"

namespace odds {

namespace {

struct Race {
    static constexpr std::string_view name = "race";
    static constexpr auto parse_options = race::parse_options;
    static constexpr auto& policies = race::kPolicies;
    static constexpr auto survival_spec = race::survival_spec;
    static race::State opening(const race::Options&) { return {}; }
    static void exact(ExactReport& r, const race::Options& o,
                      const std::array<race::Policy, 1>& p) {
        const auto mass = exact::race::solve(o, p[0]);
        const auto specs = race::metric_specs(o);
        for (std::size_t m = 0; m < specs.size(); ++m) r.laws.push_back({specs[m], mass[m], 0.0});
    }
};

constexpr std::string_view kHeadline[] = {"win", "turns", "rolls"};
// odds skill's ladder, weakest first (docs/skill.md).
constexpr std::string_view kLadder[] = {"random", "walk", "roll", "best"};

}  // namespace

GameEntry race_entry() {
    return entry_of<Race>(
        {.title = "Race",
         .summary =
             "solo: walk two squares or roll one die, to reach the goal in time (a test game)",
         .options = race::option_infos(),
         .rules_version = "race/2",
         .headline = kHeadline,
         .ladder = kLadder,
         .search = "mcts:{n}"});
}

}  // namespace odds
