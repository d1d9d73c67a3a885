#include "engine/dimension_duel/shape_run.hpp"

#include <algorithm>
#include "engine/dimension_duel/dimension_duel.hpp"
#include "engine/dimension_duel/equilibrium.hpp"
#include "engine/dimension_duel/exact.hpp"
#include "engine/dimension_duel/policies.hpp"
#include "engine/dimension_duel/shape.hpp"
#include "reports/csv.hpp"

namespace odds::dimension_duel::shape_run {

namespace dd = dimension_duel;

void report(ShapeReport& rep, const dd::Options& o, const std::array<dd::Policy, 2>& seat,
            const odds::shape::Config& cfg, odds::shape::Sampler& games) {
    odds::shape::Tally empty;
    const auto start = [&](Dice&) { return dd::opening(o); };
    const auto turn = [](const dd::State& s) { return s.turn; };
    const auto score = [&](const dd::State& s) { return dd::Game::reward(s, o, dd::kTau); };
    ChunkedResult<odds::shape::Tally> r;
    if (cfg.force_rollouts) {
        empty.rollouts = cfg.rollouts;
        rep.estimator = odds::shape::rollout_estimator(cfg);
        r = odds::shape::run_traces(
            cfg, games, empty,
            odds::shape::rollout_traces<dd::Game>(o, seat, start, turn, score, cfg));
    } else {
        const auto table = exact::dimension_duel::values(o, seat[0], seat[1]);
        rep.estimator = "exact (the value table of the seats' policies)";
        r = odds::shape::run_traces(
            cfg, games, empty, [&](std::uint64_t i, std::vector<double>& out) {
                out = dd::shape::trace(o, seat[0], seat[1], table, cfg.seed, i).p;
            });
    }
    rep.tally = std::move(r.tally);
    rep.partial = r.partial;
}

}  // namespace odds::dimension_duel::shape_run
