// Full Plastic Bodybag: Heroes in the registry.
#include "engine/fpb/fpb.hpp"
#include "engine/fpb/policies.hpp"
#include "sim/game_run.hpp"
#include "sim/position_run.hpp"
#include "sim/registry.hpp"

namespace odds {

namespace {

constexpr std::string_view kGame = "fpb";

struct FpbGame {
    using Options = fpb::Options;
    using Seats = std::tuple<fpb::Policy>;
    template <class D, class P>
    static void play_from(fpb::State s, const Options& o, D& dice, std::int32_t* metrics,
                          P& policy) {
        fpb::play_from(s, o, policy, dice);
        fpb::to_metrics(s, metrics);
    }
    template <class D, class P>
    static void play(const Options& o, D& dice, std::int32_t* metrics, P& policy) {
        fpb::to_metrics(fpb::play(o, policy, dice), metrics);
    }
};
using FpbFrom = FromPosition<FpbGame, fpb::State>;

// A fresh game (start: none) or one from a position.
std::unique_ptr<PreparedRun> prepare_at(const fpb::Options& options,
                                        const std::vector<std::string>& policies,
                                        const fpb::State* start) {
    const PolicyChoice chosen = pick_policy(kGame, fpb::kPolicyInfos, policies);
    const fpb::Policy policy = fpb::kPolicies[chosen.index].make(options, chosen.args);
    std::unique_ptr<PreparedRun> run;
    if (start)
        run = std::make_unique<GameRun<FpbFrom>>(FpbFrom::Options{options, *start},
                                                 FpbGame::Seats{policy});
    else
        run = std::make_unique<GameRun<FpbGame>>(options, FpbGame::Seats{policy});
    run->game = std::string(kGame);
    run->scenario = fpb::scenario(options);
    run->policy = chosen.label;
    run->metrics = fpb::metric_specs(options);
    run->survivals = fpb::survival_specs();
    // rollout plays thousands of games a decision: small chunks keep Ctrl-C and progress prompt.
    // What a seed plays depends on the chunk size (chunk k rolls stream_seed(seed, k)): changing
    // it changes the rules version. 256: a 1,000-game run is four chunks, two threads busy.
    run->chunk_size = std::holds_alternative<fpb::Rollout>(policy) ? 64 : 256;
    return run;
}

std::unique_ptr<PreparedRun> prepare(const Settings& settings,
                                     const std::vector<std::string>& policies) {
    return prepare_at(fpb::parse_options(settings), policies, nullptr);
}

std::string opening(const Settings& settings) {
    const auto options = fpb::parse_options(settings);
    return fpb::write_position(fpb::State::start(options), options);
}

std::unique_ptr<PreparedRun> prepare_from(const Settings& settings,
                                          const std::vector<std::string>& policies,
                                          std::string_view text, std::string_view file) {
    const auto options = fpb::parse_options(settings);
    const auto start = fpb::read_position(text, file, options);
    return prepare_at(options, policies, &start);
}

}  // namespace

GameEntry fpb_entry() {
    return {.name = kGame,
            .title = "Full Plastic Bodybag: Heroes",
            .summary =
                "solo: a raw lieutenant's squad must bring its wounded pointman back under a "
                "sniper's gun",
            .options = fpb::option_infos(),
            .policies = fpb::kPolicyInfos,
            .prepare = prepare,
            .rules_version = "fpb/4",
            .headline =
                "withdrawn,wounded_withdrawn,left_behind,killed,icecube_rescued,turns,clean,"
                "costly,lost",
            .opening_position = opening,
            .prepare_from = prepare_from};
}

}  // namespace odds
