// Race, the model registration (docs/adding-a-game.md): solo, positions, an exact solver. One of
// the tests' games (CMake's ODDS_TEST_GAMES), not the odds program's.
#include "engine/race/exact.hpp"
#include "engine/race/policies.hpp"
#include "engine/race/race.hpp"
#include "engine/race/shape_run.hpp"
#include "sim/register_game.hpp"

namespace odds {
namespace {

struct Race {
    static constexpr std::string_view name = "race";
    static constexpr auto parse_options = race::parse_options;
    static constexpr auto option_table = race::option_table;
    static constexpr auto& policies = race::kPolicies;
    static constexpr auto survival_spec = race::survival_spec;
    static constexpr auto exact = exact::race::report;
    static constexpr auto shape = race::shape_run::report;
    static constexpr std::string_view headline[] = {"win", "turns", "rolls"};
    static constexpr std::string_view ladder[] = {"random", "walk", "roll", "best"};
};

}  // namespace

GameEntry race_entry() {
    return entry_of<Race>(
        {.title = "Race",
         .summary =
             "solo: walk two squares or roll one die, to reach the goal in time (a test game)",
         .rules_version = "race/2",
         .search = "mcts:{n}"});
}

}  // namespace odds
