// Bosconian-D in the registry.
#include "engine/bosconian/bosconian.hpp"
#include "policies/bosconian/policies.hpp"
#include "sim/game_run.hpp"
#include "sim/games/games.hpp"

namespace odds {

namespace {
struct BosconianGame {
    using Options = bosconian::Options;
    using Policy = bosconian::Policy;
    template <class P, class D>
    static void play(const Options& o, P& policy, D& dice, std::int32_t* metrics) {
        bosconian::to_metrics(bosconian::play(o, policy, dice), metrics);
    }
};

std::unique_ptr<PreparedRun> prepare(const Settings& settings,
                                     const std::vector<std::string>& policies) {
    const auto options = bosconian::parse_options(settings);
    const auto index = pick_policy("bosconian", bosconian::kPolicies, policies);
    auto run = std::make_unique<GameRun<BosconianGame>>(options, bosconian::make_policy(index));
    run->game = "bosconian";
    run->scenario = bosconian::scenario(options);
    run->policy = std::string(bosconian::kPolicies[index].name);
    run->metrics = bosconian::metric_specs(options);
    run->survival = bosconian::survival_spec();
    run->chunk_size = 16384;
    return run;
}
}  // namespace

GameEntry bosconian_entry() {
    return {"bosconian", "Bosconian-D",
            "solo: fly one lap of the quadrant and destroy every enemy base before your hull "
            "gives out",
            bosconian::option_infos(), bosconian::kPolicies, prepare};
}

}  // namespace odds
