// Bosconian-D in the registry: the kernel's traits, from which entry_of builds the entry.
#include "engine/bosconian/bosconian.hpp"
#include "engine/bosconian/exact.hpp"
#include "engine/bosconian/policies.hpp"
#include "engine/bosconian/shape.hpp"
#include "reports/csv.hpp"
#include "sim/register_game.hpp"
#include "sim/shape_run.hpp"

namespace odds {

namespace {

struct Bosconian {
    static constexpr std::string_view name = "bosconian";
    static constexpr auto parse_options = bosconian::parse_options;
    static constexpr auto& policies = bosconian::kPolicies;
    static constexpr auto survival_spec = bosconian::survival_spec;
    static constexpr auto warnings = bosconian::warnings;
    static void exact(ExactReport& r, const bosconian::Options& o,
                      const std::array<bosconian::Policy, 1>&) {
        const auto solved = exact::bosconian::solve(o);
        const auto specs = bosconian::metric_specs(o);
        const std::pair<int, const exact::bosconian::MetricLaw*> laws[] = {
            {bosconian::kWin, &solved.win},
            {bosconian::kDamage, &solved.damage},
            {bosconian::kSectors, &solved.sectors_entered},
            {bosconian::kBasesPlaced, &solved.bases_placed}};
        for (const auto& [metric, law] : laws)
            r.laws.push_back({specs[metric], law->mass, law->unresolved});
        if (solved.p_wrap == 0)  // every layout resolved: the survival table too
            r.survival = survival_csv_exact(solved.lost_at, solved.won_at, 0);
        if (solved.p_wrap > 0) r.notes.push_back(exact::bosconian::unresolved_note(o, solved));
    }
    // The shape of a mission sector by sector (odds shape): P(win) exact before the layout
    // and before each sector entered (engine/bosconian/shape.hpp).
    static void shape(ShapeReport& rep, const bosconian::Options& o,
                      const std::array<bosconian::Policy, 1>&, const shape::Config& cfg) {
        if (cfg.force_rollouts)
            throw UsageError(
                "--estimator rollouts: bosconian has no decision to roll out; its odds are "
                "exact (valid: exact)");
        const bosconian::shape::Tracer tracer(o);
        shape::Tally empty;
        empty.solo = true;
        rep.estimator = "exact (the solver's backward pass for the layout rolled)";
        rep.notes.push_back(
            "step 0: before the layout is rolled; step k: before the k-th "
            "sector entered; success: the mission won (B9)");
        auto r = shape::run_traces(cfg, empty, [&](std::uint64_t i, std::vector<double>& out) {
            tracer.trace(cfg.seed, i, out);
        });
        rep.tally = std::move(r.tally);
        rep.partial = r.partial;
    }
};

constexpr std::string_view kHeadline[] = {"win", "damage", "sectors_entered", "bases_destroyed"};

}  // namespace

GameEntry bosconian_entry() {
    return entry_of<Bosconian>(
        {.title = "Bosconian-D",
         .summary = "solo: fly one lap of the quadrant and destroy every enemy base before your "
                    "hull gives out",
         .options = bosconian::option_infos(),
         .rules_version = "bosconian/2",
         .headline = kHeadline,
         .exact_limits = "hull up to " + std::to_string(exact::bosconian::kMaxExactHull)});
}

}  // namespace odds
