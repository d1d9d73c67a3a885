// Bosconian-D in the registry.
#include <cstdio>

#include "engine/bosconian/bosconian.hpp"
#include "engine/bosconian/exact.hpp"
#include "engine/bosconian/policies.hpp"
#include "reports/csv.hpp"
#include "sim/game_run.hpp"
#include "sim/registry.hpp"

namespace odds {

namespace {
struct BosconianGame {
    using Options = bosconian::Options;
    using Seats = std::tuple<bosconian::Policy>;
    template <class D, class P>
    static void play(const Options& o, D& dice, std::int32_t* metrics, P& policy) {
        bosconian::to_metrics(bosconian::play(o, policy, dice), metrics);
    }
};

std::unique_ptr<PreparedRun> prepare(const Settings& settings,
                                     const std::vector<std::string>& policies) {
    const auto options = bosconian::parse_options(settings);
    const auto chosen = pick_policy("bosconian", bosconian::kPolicyInfos, policies);
    auto run = std::make_unique<GameRun<BosconianGame>>(
        options,
        BosconianGame::Seats{bosconian::kPolicies[chosen.index].make(options, chosen.args)});
    run->game = "bosconian";
    run->scenario = bosconian::scenario(options);
    run->policy = chosen.label;
    run->metrics = bosconian::metric_specs(options);
    run->survivals = {bosconian::survival_spec()};
    // What a seed plays depends on the chunk size (chunk k rolls stream_seed(seed, k)): changing it
    // changes the rules version. 256: a 1,000-game run is four chunks, two threads busy.
    run->chunk_size = 256;
    run->warnings = bosconian::warnings(options);
    return run;
}
ExactReport solve_exact(const Settings& settings, const std::vector<std::string>& policies) {
    const auto options = bosconian::parse_options(settings);
    const auto chosen = pick_policy("bosconian", bosconian::kPolicyInfos, policies);
    const auto solved = exact::bosconian::solve(options);
    const auto specs = bosconian::metric_specs(options);
    ExactReport r{"bosconian", bosconian::scenario(options), chosen.label, {}, {}, {}};
    const std::pair<int, const exact::bosconian::MetricLaw*> laws[] = {
        {bosconian::kWin, &solved.win},
        {bosconian::kDamage, &solved.damage},
        {bosconian::kSectors, &solved.sectors_entered},
        {bosconian::kBasesPlaced, &solved.bases_placed}};
    for (const auto& [metric, law] : laws)
        r.laws.push_back({specs[metric], law->mass, law->unresolved});
    r.warnings = bosconian::warnings(options);
    if (solved.p_wrap == 0)  // every layout resolved: the survival table too
        r.survival = survival_csv_exact(solved.lost_at, solved.won_at, 0);
    if (solved.p_wrap > 0) {
        // The fewest bases whose first pass can pass the last sector: the longest gaps (B2).
        const int fewest = (options.sectors - 1) / options.placement_gap.max() + 1;
        char line[512];
        std::snprintf(line, sizeof line,
                      "The random layout wraps past sector %d with probability %.6g; what those "
                      "layouts do is not resolved (the 'unresolved' column). They hold %d bases or "
                      "more, and a win must survive every base fight ahead and every empty sector "
                      "up to the last base before the wrap, so at most %.3g of it is a win: P(win) "
                      "lies in [%.10f, %.10f].",
                      options.sectors, solved.p_wrap, fewest, solved.win_bound, solved.win.mass[1],
                      solved.win.mass[1] + solved.win_bound);
        r.notes.emplace_back(line);
    }
    return r;
}

}  // namespace

GameEntry bosconian_entry() {
    return {.name = "bosconian",
            .title = "Bosconian-D",
            .summary =
                "solo: fly one lap of the quadrant and destroy every enemy base before your "
                "hull gives out",
            .options = bosconian::option_infos(),
            .policies = bosconian::kPolicyInfos,
            .prepare = prepare,
            .exact = solve_exact,
            .rules_version = "bosconian/2",
            .headline = "win,damage,sectors_entered,bases_destroyed",
            .exact_limits = "hull up to " + std::to_string(exact::bosconian::kMaxExactHull)};
}

}  // namespace odds
