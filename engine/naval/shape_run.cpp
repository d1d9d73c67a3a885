#include "engine/naval/shape_run.hpp"

#include "engine/naval/naval.hpp"
#include "engine/naval/policies.hpp"
#include "reports/csv.hpp"

namespace odds::naval::shape_run {

void report(ShapeReport& rep, const naval::Options& o, const std::array<naval::Policy, 2>& seat,
            const odds::shape::Config& cfg, odds::shape::Sampler& games) {
    using G = naval::Game;
    const naval::Start opening = naval::opening(o);
    const G::Options go{};
    const auto start = [&](Dice& dice) { return G::start(opening, dice); };
    const auto turn = [](const naval::State& s) { return s.turn; };
    const auto score = [&](const naval::State& s) { return G::reward(s, go, 0); };
    odds::shape::rollout_report(
        rep, cfg, games, "naval", false, [&](std::uint64_t i, std::vector<double>& out) {
            std::visit(
                [&](const auto& a, const auto& b) {
                    odds::shape::rollout_trace<G>(go, start, a, b, cfg, i, turn, score, out);
                },
                seat[0], seat[1]);
        });
}

}  // namespace odds::naval::shape_run
