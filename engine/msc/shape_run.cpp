#include "engine/msc/shape_run.hpp"

#include "engine/msc/msc.hpp"
#include "engine/msc/policies.hpp"
#include "reports/csv.hpp"

namespace odds::msc::shape_run {

void report(ShapeReport& rep, const msc::Options& o, const std::array<msc::Policy, 2>& seat,
            const odds::shape::Config& cfg, odds::shape::Sampler& games) {
    using G = msc::Game;
    const msc::Run run{
        o, {msc::plan_of(o, 0, seat[0].doctrine), msc::plan_of(o, 1, seat[1].doctrine)}};
    const auto start = [&](Dice& dice) { return msc::opening(o, run.plans, dice); };
    const auto turn = [](const msc::State& s) { return s.turn; };
    const auto score = [&](const msc::State& s) { return G::reward(s, o, 0); };
    rep.scenario = msc::scenario(run);
    odds::shape::rollout_report(
        rep, cfg, games, "msc", false, [&](std::uint64_t i, std::vector<double>& out) {
            std::visit(
                [&](const auto& a, const auto& b) {
                    odds::shape::rollout_trace<G>(o, start, a, b, cfg, i, turn, score, out);
                },
                seat[0].strategy, seat[1].strategy);
        });
}

}  // namespace odds::msc::shape_run
