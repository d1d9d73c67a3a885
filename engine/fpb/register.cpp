// Full Plastic Bodybag: Heroes in the registry.
#include "engine/fpb/fpb.hpp"
#include "engine/fpb/policies.hpp"
#include "sim/game_run.hpp"
#include "sim/registry.hpp"

namespace odds {

namespace {

constexpr std::string_view kGame = "fpb";

struct FpbGame {
    using Options = fpb::Options;
    using Seats = std::tuple<fpb::Policy>;
    template <class D, class P>
    static void play(const Options& o, D& dice, std::int32_t* metrics, P& policy) {
        fpb::to_metrics(fpb::play(o, policy, dice), metrics);
    }
};

std::unique_ptr<PreparedRun> prepare(const Settings& settings,
                                     const std::vector<std::string>& policies) {
    const auto options = fpb::parse_options(settings);
    const PolicyChoice chosen = pick_policy(kGame, fpb::kPolicyInfos, policies);
    const fpb::Policy policy = fpb::kPolicies[chosen.index].make(options, chosen.args);
    auto run = std::make_unique<GameRun<FpbGame>>(options, FpbGame::Seats{policy});
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
            .rules_version = "fpb/3",
            .headline =
                "withdrawn,wounded_withdrawn,left_behind,killed,icecube_rescued,turns,clean,"
                "costly,lost"};
}

}  // namespace odds
