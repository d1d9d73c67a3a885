// Race in the registry: one of the tests' games (CMake's ODDS_TEST_GAMES), not the odds
// program's; docs/adding-a-game.md walks through this file. Race is the kernel's traits
// (sim/register_game.hpp names what they may hold); entry_of builds the entry from them.
#include "engine/race/exact.hpp"
#include "engine/race/policies.hpp"
#include "engine/race/race.hpp"
#include "sim/register_game.hpp"

namespace odds {

namespace {

struct Race {
    static constexpr std::string_view name = "race";
    using Options = race::Options;
    using State = race::State;
    static constexpr auto parse_options = race::parse_options;
    static constexpr auto& policies = race::kPolicies;
    static constexpr auto& policy_infos = race::kPolicyInfos;
    static constexpr auto scenario = race::scenario;
    static constexpr auto metric_specs = race::metric_specs;
    static constexpr auto survival_spec = race::survival_spec;
    static constexpr auto read_position = race::read_position;
    static constexpr auto write_position = race::write_position;
    static State opening(const Options&) { return {}; }
    template <class D, class P>
    static void play(State s, const Options& o, D& dice, std::int32_t* metrics, P& policy) {
        race::play_from(s, o, policy, dice);
        race::to_metrics(s, metrics);
    }
    static void exact(ExactReport& r, const Options& o, const std::array<race::Policy, 1>& seat) {
        const auto mass = exact::race::solve(o, seat[0]);
        const auto specs = race::metric_specs(o);
        for (std::size_t m = 0; m < specs.size(); ++m) r.laws.push_back({specs[m], mass[m], 0.0});
    }
};

constexpr std::string_view kHeadline[] = {"win", "turns", "rolls"};

}  // namespace

GameEntry race_entry() {
    return entry_of<Race>(
        {.title = "Race",
         .summary =
             "solo: walk two squares or roll one die, to reach the goal in time (a test game)",
         .options = race::option_infos(),
         .rules_version = "race/2",
         .headline = kHeadline});
}

}  // namespace odds
