#include "engine/bosconian/shape_run.hpp"

#include "engine/bosconian/bosconian.hpp"
#include "engine/bosconian/exact.hpp"
#include "engine/bosconian/policies.hpp"
#include "engine/bosconian/shape.hpp"
#include "reports/csv.hpp"

namespace odds::bosconian::shape_run {

void report(ShapeReport& rep, const bosconian::Options& o, const std::array<bosconian::Policy, 1>&,
            const odds::shape::Config& cfg, odds::shape::Sampler& games) {
    if (cfg.force_rollouts)
        throw UsageError(
            "--estimator rollouts: bosconian has no decision to roll out; its odds are "
            "exact (valid: exact)");
    const bosconian::shape::Tracer tracer(o);
    odds::shape::Tally empty;
    empty.solo = true;
    rep.estimator = "exact (the solver's backward pass for the layout rolled)";
    rep.notes.push_back(
        "step 0: before the layout is rolled; step k: before the k-th "
        "sector entered; success: the mission won (B9)");
    auto r = odds::shape::run_traces(
        cfg, games, empty,
        [&](std::uint64_t i, std::vector<double>& out) { tracer.trace(cfg.seed, i, out); });
    rep.tally = std::move(r.tally);
    rep.partial = r.partial;
}

}  // namespace odds::bosconian::shape_run
