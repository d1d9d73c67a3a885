#include "engine/fpb/shape_run.hpp"

#include "engine/fpb/fpb.hpp"
#include "engine/fpb/policies.hpp"
#include "reports/csv.hpp"

namespace odds::fpb::shape_run {

void report(ShapeReport& rep, const fpb::Options& o, const std::array<fpb::Policy, 1>& p,
            const odds::shape::Config& cfg, odds::shape::Sampler& games) {
    using G = fpb::Game;
    const auto start = [&](Dice&) {
        fpb::State s = fpb::opening(o);
        G::begin(s);
        return s;
    };
    const auto turn = [](const fpb::State& s) { return s.turn; };
    const auto rescued = [](const fpb::State& s) {
        return fpb::outcome_of(s).icecube_rescued ? 1.0 : 0.0;
    };
    rep.notes.push_back("success: Ice-cube brought out (icecube_rescued, H8)");
    odds::shape::rollout_report(
        rep, cfg, games, "fpb", true, [&](std::uint64_t i, std::vector<double>& out) {
            std::visit(
                [&](const auto& a) {
                    odds::shape::rollout_trace<G>(o, start, a, a, cfg, i, turn, rescued, out);
                },
                p[0]);
        });
}

}  // namespace odds::fpb::shape_run
