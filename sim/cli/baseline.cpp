// odds baseline: record a scenario's headline metrics, for odds check (sim/cli/check.cpp) to
// re-run later. The file's records are listed in sim/baseline_file.hpp and docs/output.md.
#include <iomanip>
#include <sstream>

#include "reports/csv.hpp"
#include "sim/cli/args.hpp"
#include "sim/cli/check.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/spec.hpp"
#include "sim/executor.hpp"

#include "sim/cli/report.hpp"
#include "sim/cli/spec.hpp"

namespace odds::cli {

int cmd_baseline(const Args& opt, Io io) {
    const GameEntry& game = game_of(opt);
    const Settings settings = settings_of(opt);
    const auto policies = opt.policy;
    const auto prepared = game.prepare(settings, policies);
    // A baseline records each setting and policy on a line of its own: one holding a line break
    // would be written, then refused by odds check (issue 40).
    for (const auto& [n, v] : settings)
        if (v.find_first_of("\r\n") != std::string::npos)
            throw UsageError(n + "='" + v + "': a baseline records each setting on a line of " +
                             "its own; a value with a line break cannot be recorded");
    for (const auto& p : policies)
        if (p.find_first_of("\r\n") != std::string::npos)
            throw UsageError("--policy '" + p + "': a baseline records each policy on a line of " +
                             "its own; a line break cannot be recorded");
    const RunArgs run_args = run_args_of(opt, game.run_playouts);  // the game's own default
    RunConfig cfg = run_args.config();
    cfg.chunk_size = prepared->chunk_size;
    if (!opt.out) throw UsageError("give the baseline file to write: --out FILE");
    const std::string out = *opt.out;
    const auto tolerances =
        tolerances_of(opt, std::vector<std::string>(game.headline.begin(), game.headline.end()));
    ExecutorOf share = run_args.executor();  // --shard I/N, odds merge, MPI
    share->begin(run_args.plan("baseline", game, {job_of(*prepared, cfg.playouts)}), io.err);
    // The last check: its folder is made, as run --out makes its own. A shard's --out is the
    // folder its shard file goes into.
    if (share->writes_shard_file())
        prepare_out_dir(out, true);
    else
        prepare_out_file(out);

    announce_queued(run_args, io, "odds baseline",
                    std::to_string(cfg.playouts) + " playouts of " + prepared->game, cfg.threads);
    ProgressBar bar(cfg.playouts, run_args.progress());
    const RunResult r = share->play(0, *prepared, cfg, &bar);
    bar.finish();
    if (const auto shard_done = share->finish(io.out, io.err, "odds baseline")) return *shard_done;
    if (r.partial) {
        io.err << "odds baseline: interrupted; no baseline written\n";
        return 130;
    }

    std::ostringstream f;
    f << "odds-baseline 1\ngame " << game.name << "\nrules_version " << game.rules_version << '\n';
    for (const auto& [n, v] : settings) f << "set " << n << '=' << v << '\n';
    // The policies as resolved (a default one too), so a later default cannot change the check.
    for (const auto& p : split_words(prepared->policy)) f << "policy " << p << '\n';
    f << "seed " << cfg.seed << "\nplayouts " << cfg.playouts << "\nscenario " << prepared->scenario
      << "\npolicies " << prepared->policy << '\n';
    const auto ds = distributions(r.tally, prepared->metrics);
    io.out << game.name << " baseline | " << prepared->scenario << " | " << prepared->policy
           << " | seed " << cfg.seed << " | " << cfg.playouts << " playouts\n";
    for (const std::string_view name : game.headline)
        for (std::size_t m = 0; m < ds.size(); ++m) {
            if (ds[m].spec.name != name) continue;
            f << metric_record(r.tally, prepared->metrics, m) << '\n';
            const Summary s = summarize(ds[m], false);
            io.out << "  " << std::left << std::setw(18) << name << interval(s) << '\n';
        }
    for (const std::string_view name : game.headline)  // in the metrics' order
        if (const auto t = tolerances.find(std::string(name)); t != tolerances.end())
            f << "tolerance " << name << ' ' << format_double(t->second) << '\n';
    if (opt.sequential) f << "check sequential\n";
    write_file_atomic(out, f.str());
    io.out << "wrote " << out << '\n';
    return 0;
}

namespace {
void baseline_options(po::options_description& d) {
    add_run_options(d);
    add_game_options(d);
    d.add_options()("out,o", po::value<std::string>()->value_name("FILE"),
                    "the baseline file to write (required; its folder is made if missing)")(
        "tolerance", po::value<std::vector<std::string>>()->composing()->value_name("METRIC=X"),
        "record X as METRIC's tolerance: the shift 'odds check --sequential' tests for "
        "(repeatable)")("sequential",
                        "record that 'odds check' checks this baseline sequentially by default");
}
}  // namespace

const CommandSpec baseline_spec = {
    "baseline",
    "record a scenario's headline metrics, to check later",
    "odds baseline GAME [options] --out FILE",
    "Plays a scenario and records it in FILE: the game, its options and policies, the seed, the "
    "playouts, the rules version of this build, and each headline metric with its 95% interval "
    "and its exact counts. 'odds check FILE' re-runs it later.",
    {"odds baseline bosconian --playouts 1M --out balance/bosconian.baseline",
     "odds baseline msc --policy turtle/strike -n 2000 --out balance/msc.baseline"},
    "game",
    1,
    baseline_options,
    cmd_baseline};

}  // namespace odds::cli
