// Race in the registry: one of the tests' games (CMake's ODDS_TEST_GAMES), not the odds
// program's; docs/adding-a-game.md walks through this file.
#include "engine/race/exact.hpp"
#include "engine/race/policies.hpp"
#include "engine/race/race.hpp"
#include "policies/policy_table.hpp"
#include "sim/game_run.hpp"
#include "sim/position_run.hpp"
#include "sim/registry.hpp"

namespace odds {

namespace {

constexpr std::string_view kGame = "race";

struct RaceGame {
    using Options = race::Options;
    using Seats = std::tuple<race::Policy>;
    template <class D, class P>
    static void play_from(race::State s, const Options& o, D& dice, std::int32_t* metrics,
                          P& policy) {
        race::play_from(s, o, policy, dice);
        race::to_metrics(s, metrics);
    }
    template <class D, class P>
    static void play(const Options& o, D& dice, std::int32_t* metrics, P& policy) {
        play_from(race::State{}, o, dice, metrics, policy);
    }
};

// A fresh race (start: none) or one from a position.
std::unique_ptr<PreparedRun> prepare_at(const Settings& settings,
                                        const std::vector<std::string>& policies,
                                        const race::State* start) {
    const auto options = race::parse_options(settings);
    const auto chosen = pick_policy(kGame, race::kPolicyInfos, policies);
    const RaceGame::Seats seats{race::kPolicies[chosen.index].make(options, chosen.args)};
    std::unique_ptr<PreparedRun> run;
    if (start)
        run = std::make_unique<GameRun<FromPosition<RaceGame, race::State>>>(
            FromPosition<RaceGame, race::State>::Options{options, *start}, seats);
    else
        run = std::make_unique<GameRun<RaceGame>>(options, seats);
    run->game = std::string(kGame);
    run->scenario = race::scenario(options);
    run->policy = chosen.label;
    run->metrics = race::metric_specs(options);
    run->survivals = {race::survival_spec()};
    // What a seed plays depends on the chunk size (chunk k rolls stream_seed(seed, k)): changing it
    // changes the rules version. 256: a 1,000-game run is four chunks, two threads busy.
    run->chunk_size = 256;
    return run;
}

std::unique_ptr<PreparedRun> prepare(const Settings& settings,
                                     const std::vector<std::string>& policies) {
    return prepare_at(settings, policies, nullptr);
}

std::string opening(const Settings& settings) {
    const auto options = race::parse_options(settings);
    return race::write_position(race::State{}, options);
}

std::unique_ptr<PreparedRun> prepare_from(const Settings& settings,
                                          const std::vector<std::string>& policies,
                                          std::string_view text, std::string_view file) {
    const auto start = race::read_position(text, file, race::parse_options(settings));
    return prepare_at(settings, policies, &start);
}

ExactReport solve_exact(const Settings& settings, const std::vector<std::string>& policies) {
    const auto options = race::parse_options(settings);
    const auto chosen = pick_policy(kGame, race::kPolicyInfos, policies);
    const auto mass =
        exact::race::solve(options, race::kPolicies[chosen.index].make(options, chosen.args));
    ExactReport r{std::string(kGame), race::scenario(options), chosen.label, {}, {}, {}};
    const auto specs = race::metric_specs(options);
    for (std::size_t m = 0; m < specs.size(); ++m)
        r.laws.push_back(Distribution{specs[m], mass[m], 0.0});
    return r;
}

}  // namespace

GameEntry race_entry() {
    return {.name = kGame,
            .title = "Race",
            .summary =
                "solo: walk two squares or roll one die, to reach the goal in time (a test game)",
            .options = race::option_infos(),
            .policies = race::kPolicyInfos,
            .prepare = prepare,
            .exact = solve_exact,
            .rules_version = "race/2",
            .headline = "win,turns,rolls",
            .opening_position = opening,
            .prepare_from = prepare_from};
}

}  // namespace odds
