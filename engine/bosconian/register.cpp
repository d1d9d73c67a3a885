// Bosconian-D: solo, no decisions to make (one policy), an exact solver, warnings before a run.
#include "engine/bosconian/bosconian.hpp"
#include "engine/bosconian/exact.hpp"
#include "engine/bosconian/policies.hpp"
#include "engine/bosconian/shape_run.hpp"
#include "sim/register_game.hpp"

namespace odds {
namespace {

struct Bosconian {
    static constexpr std::string_view name = "bosconian";
    static constexpr auto parse_options = bosconian::parse_options;
    static constexpr auto option_table = bosconian::option_table;
    static constexpr auto& policies = bosconian::kPolicies;
    static constexpr auto survival_spec = bosconian::survival_spec;
    static constexpr auto warnings = bosconian::warnings;
    static constexpr auto exact = exact::bosconian::report;
    static constexpr auto shape = bosconian::shape_run::report;
    static constexpr std::string_view headline[] = {"win", "damage", "sectors_entered",
                                                    "bases_destroyed"};
};

}  // namespace

GameEntry bosconian_entry() {
    return entry_of<Bosconian>(
        {.title = "Bosconian-D",
         .summary = "solo: fly one lap of the quadrant and destroy every enemy base before your "
                    "hull gives out",
         .rules_version = "bosconian/2",
         .exact_limits = "hull up to " + std::to_string(exact::bosconian::kMaxExactHull)});
}

}  // namespace odds
