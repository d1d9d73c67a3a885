// Minimal Space Combat: The Strategic Game in the registry.
#include "engine/msc/msc.hpp"
#include "policies/msc/policies.hpp"
#include "sim/game_run.hpp"
#include "sim/games/games.hpp"

namespace odds {

namespace {

constexpr std::string_view kGame = "msc";

struct MscGame {
    struct Options {
        msc::Options rules;
        std::array<msc::Design, msc::kSides> designs;
    };
    using Seats = std::tuple<msc::Strategy, msc::Strategy>;
    template <class D, class A, class B>
    static void play(const Options& o, D& dice, std::int32_t* metrics, A& a, B& b) {
        msc::to_metrics(msc::play(o.rules, o.designs, a, b, dice), metrics);
    }
};

std::unique_ptr<PreparedRun> prepare(const Settings& settings,
                                     const std::vector<std::string>& policies) {
    MscGame::Options o{msc::parse_options(settings), {}};
    const auto& infos = msc::policy_infos();
    const auto idx = pick_seat_policies(kGame, {"a", "b"}, infos, policies);
    std::array<msc::Policy, msc::kSides> seat{msc::make_policy(idx[0]), msc::make_policy(idx[1])};
    // M2a: one design a side: the option's, else the policy's doctrine at 15 BP.
    for (int side = 0; side < msc::kSides; ++side)
        o.designs[static_cast<std::size_t>(side)] =
            o.rules.design[static_cast<std::size_t>(side)]
                ? *o.rules.design[static_cast<std::size_t>(side)]
                : msc::doctrine_design(seat[static_cast<std::size_t>(side)].doctrine, 15);
    auto run = std::make_unique<GameRun<MscGame>>(
        o, MscGame::Seats{seat[0].strategy, seat[1].strategy});
    run->game = std::string(kGame);
    run->scenario = msc::scenario(o.rules) + " ships=" + msc::to_string(o.designs[0]) + "/" +
                    msc::to_string(o.designs[1]);
    run->policy = "a=" + std::string(infos[idx[0]].name) + " b=" + std::string(infos[idx[1]].name);
    run->metrics = msc::metric_specs(o.rules);
    run->survivals = {msc::survival_spec()};
    run->chunk_size = 256;  // campaigns are long: small chunks keep Ctrl-C prompt
    return run;
}

}  // namespace

GameEntry msc_entry() {
    return {kGame, "Minimal Space Combat: The Strategic Game",
            "two players: build fleets from your systems' production and take the enemy home",
            msc::option_infos(), msc::policy_infos(), prepare, "a, b", nullptr, "msc/1",
            "a_win,b_win,draw,advantage_first,turns,timeouts,end_home,end_annihilation",
            "a_win,b_win,draw"};
}

}  // namespace odds
