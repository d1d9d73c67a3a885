// Dimension Duel: two seats, positions, an exact solver (best-response's too) and odds shape.
#include "engine/dimension_duel/dimension_duel.hpp"
#include "engine/dimension_duel/exact.hpp"
#include "engine/dimension_duel/policies.hpp"
#include "engine/dimension_duel/shape_run.hpp"
#include "sim/register_game.hpp"

namespace odds {
namespace {

struct Duel {
    static constexpr std::string_view name = "dimension-duel";
    static constexpr std::array<std::string_view, 2> seats{"tau", "kaon"};
    static constexpr auto parse_options = dimension_duel::parse_options;
    static constexpr auto option_table = dimension_duel::option_table;
    static constexpr auto& policies = dimension_duel::kPolicies;
    static constexpr auto survival_spec = dimension_duel::survival_spec;
    static constexpr auto solve_against = exact::dimension_duel::solve_against;
    static constexpr auto exact = exact::dimension_duel::report;
    static constexpr auto shape = dimension_duel::shape_run::report;
    static constexpr std::string_view headline[] = {"tau_win",         "kaon_win", "draw",
                                                    "advantage_first", "turns",    "winner_hp"};
    static constexpr std::string_view ladder[] = {"dice", "aggressor", "calibrator", "survivor",
                                                  "equilibrium"};
};

}  // namespace

GameEntry dimension_duel_entry() {
    return entry_of<Duel>(
        {.title = "Dimension Duel",
         .summary = "two players: particle devices fire rays and raise shields until one is dust",
         .rules_version = "dimension-duel/3",
         .search = "mcts:{n}",
         .solved = "equilibrium",
         .exact_limits = exact::dimension_duel::limits()});
}

}  // namespace odds
