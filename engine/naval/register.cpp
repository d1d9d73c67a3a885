// Naval Duel in the registry.
#include "engine/naval/naval.hpp"
#include "engine/naval/policies.hpp"
#include "sim/game_run.hpp"
#include "sim/registry.hpp"

namespace odds {

namespace {

constexpr std::string_view kGame = "naval";

// A run's options and where each of its games starts (a fresh game: the opening).
struct Run {
    naval::Options options;
    naval::Start start;
};

struct NavalGame {
    using Options = Run;
    using Seats = std::tuple<naval::Policy, naval::Policy>;
    template <class D, class A, class B>
    static void play(const Options& o, D& dice, std::int32_t* metrics, A& a, B& b) {
        naval::to_metrics(naval::play(o.start, a, b, dice), metrics);
    }
};

// The seats' policies from args "NAME" or "SEAT=NAME" (rollout:N:H: the table's parameters),
// every game starting from `start` (else the opening).
std::unique_ptr<PreparedRun> prepare_at(const naval::Options& options,
                                        const std::vector<std::string>& policies,
                                        naval::Start start) {
    const auto chosen = pick_seat_policies(kGame, {"a", "b"}, naval::kPolicyInfos, policies);
    std::array<naval::Policy, 2> seat;
    for (std::size_t k = 0; k < 2; ++k)
        seat[k] = naval::kPolicies[chosen[k].index].make(options, chosen[k].args);
    auto run = std::make_unique<GameRun<NavalGame>>(Run{options, std::move(start)},
                                                    NavalGame::Seats{seat[0], seat[1]});
    run->game = std::string(kGame);
    run->scenario = naval::scenario(options);
    run->policy = seats_label({"a", "b"}, chosen);
    run->metrics = naval::metric_specs(options);
    run->survivals = {naval::survival_spec()};
    const bool mcts = std::holds_alternative<naval::Mcts>(seat[0]) ||
                      std::holds_alternative<naval::Mcts>(seat[1]);
    const bool rollout = std::holds_alternative<naval::Rollout>(seat[0]) ||
                         std::holds_alternative<naval::Rollout>(seat[1]);
    // Small chunks keep progress and Ctrl-C prompt, and a 1,000-game run on every core (an mcts
    // game takes about a second: two a chunk). What a
    // seed plays depends on the chunk size (chunk k rolls stream_seed(seed, k)): changing it
    // changes the rules version.
    run->chunk_size = mcts ? 2 : rollout ? 16 : 64;
    return run;
}

std::unique_ptr<PreparedRun> prepare(const Settings& settings,
                                     const std::vector<std::string>& policies) {
    const auto options = naval::parse_options(settings);
    return prepare_at(options, policies, naval::opening(options));
}

std::string opening_position(const Settings& settings) {
    return naval::write_position(naval::opening(naval::parse_options(settings)));
}

std::unique_ptr<PreparedRun> prepare_from(const Settings& settings,
                                          const std::vector<std::string>& policies,
                                          std::string_view text, std::string_view file) {
    const auto options = naval::parse_options(settings);
    return prepare_at(options, policies, naval::read_position(text, file, options));
}

}  // namespace

GameEntry naval_entry() {
    return {.name = kGame,
            .title = "Naval Duel",
            .summary =
                "two players: fleets of ships of the line trade broadsides and board on a hex "
                "sea",
            .options = naval::option_infos(),
            .policies = naval::kPolicyInfos,
            .prepare = prepare,
            .seats = "a, b",
            .rules_version = "naval/4",
            .headline =
                "a_win,b_win,draw,advantage_first,turns,timeouts,boardings,more_guns_won,"
                "fewer_guns_won",
            .versus = "a_win,b_win,draw",
            .opening_position = opening_position,
            .prepare_from = prepare_from};
}

}  // namespace odds
