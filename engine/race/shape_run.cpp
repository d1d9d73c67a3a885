#include "engine/race/shape_run.hpp"

#include "engine/race/exact.hpp"
#include "engine/race/policies.hpp"
#include "engine/race/race.hpp"
#include "reports/csv.hpp"

namespace odds::race::shape_run {

void report(ShapeReport& rep, const race::Options& o, const std::array<race::Policy, 1>& p,
            const odds::shape::Config& cfg, odds::shape::Sampler& games) {
    odds::shape::Tally empty;
    empty.solo = true;
    const auto start = [](Dice&) { return race::State{}; };
    const auto turn = [](const race::State& s) { return s.turn; };
    const auto win = [](const race::State& s) { return s.won ? 1.0 : 0.0; };
    ChunkedResult<odds::shape::Tally> r;
    if (cfg.force_rollouts || std::holds_alternative<race::Mcts>(p[0])) {
        odds::shape::refuse_exact(cfg, "race",
                                  "mcts searches; its value table needs a policy that "
                                  "states its moves as probabilities");
        empty.rollouts = cfg.rollouts;
        rep.estimator = odds::shape::rollout_estimator(cfg);
        r = odds::shape::run_traces(
            cfg, games, empty,
            odds::shape::rollout_traces<race::Game>(o, p, start, turn, win, cfg));
    } else {
        const auto table = exact::race::values(o, p[0]);
        rep.estimator = "exact (the policy's value table)";
        const auto value = [&](const race::State& s) { return table.at(s); };
        r = odds::shape::run_traces(cfg, games, empty,
                                    [&](std::uint64_t i, std::vector<double>& out) {
                                        std::visit(
                                            [&](const auto& a) {
                                                odds::shape::exact_trace<race::Game>(
                                                    o, start, a, a, cfg, i, turn, value, win, out);
                                            },
                                            p[0]);
                                    });
    }
    rep.tally = std::move(r.tally);
    rep.partial = r.partial;
}

}  // namespace odds::race::shape_run
