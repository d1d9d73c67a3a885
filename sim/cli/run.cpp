// odds run: play a game many times and report its odds (docs/commands.md, docs/output.md).
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "engine/stop.hpp"
#include "reports/csv.hpp"
#include "reports/stats.hpp"
#include "sim/cli/args.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/common.hpp"
#include "sim/cli/exact.hpp"
#include "sim/cli/report.hpp"
#include "sim/executor.hpp"
#include "sim/interrupt.hpp"
#include "sim/progress.hpp"
#include "sim/registry.hpp"

namespace odds::cli {

namespace fs = std::filesystem;

namespace {

// --report of a run: where the game's exact solver solves this scenario (from the position,
// with --state, where it has a solver from one), its laws go into DIR/exact/ and onto the
// report's charts beside the Monte Carlo's; beyond the solver, none. Returns false when a stop
// request came while solving: the report then goes without exact laws (the playouts are all
// there).
bool write_report_exact_laws(const GameEntry& game, const Args& opt,
                             const std::optional<StateFile>& state, const fs::path& dir) {
    std::optional<ExactReport> exact;
    bool stopped = false;
    InterruptGuard guard;
    if (state ? game.exact_from != nullptr : game.exact != nullptr) try {
            if (state) {
                exact = game.exact_from(settings_of(opt), opt.policy, state->text, state->path);
                exact->scenario += " state=" + state->path;
            } else {
                exact = exact_beside(game)(settings_of(opt), opt.policy);
            }
        } catch (const UsageError&) {  // beyond the solver: the report has no exact law
        } catch (const StopRequested&) {
            stopped = true;
        }
    std::error_code ec;
    if (exact) {
        fs::create_directories(dir / "exact", ec);
        write_files_atomic(exact_files(game, *exact, dir / "exact"));
    } else {
        fs::remove_all(dir / "exact", ec);  // an earlier run's laws are not this one's
    }
    return !stopped;
}

}  // namespace

int cmd_run(const Args& opt, Io io) {
    // Every input is checked, cheapest first, before anything runs or is written.
    const GameEntry& game = game_of(opt);
    const RunArgs run_args = run_args_of(opt, game.run_playouts);  // the game's own default
    RunConfig cfg = run_args.config();
    const std::optional<std::string> out_dir = out_dir_of(opt);
    const bool report = report_wanted(opt);
    const Format format = format_of(opt);
    const auto state = state_of(opt, game, game.prepare_from != nullptr, "run");
    const auto prepared =
        state ? game.prepare_from(settings_of(opt), opt.policy, state->text, state->path)
              : game.prepare(settings_of(opt), opt.policy);
    if (state) prepared->scenario += " state=" + state->path;
    cfg.chunk_size = prepared->chunk_size;
    ExecutorOf share = run_args.executor();  // --shard I/N, odds merge, MPI
    share->begin(run_args.plan("run", game, {job_of(*prepared, cfg.playouts)}), io.err);
    if (out_dir && !share->dry()) prepare_out_dir(*out_dir, share->mode() == Executor::Mode::shard);
    for (const auto& w : prepared->warnings) io.err << "odds run: warning: " << w << '\n';

    announce_queued(run_args, io, "odds run",
                    std::to_string(cfg.playouts) + " playouts of " + prepared->game, cfg.threads);
    ProgressBar bar(cfg.playouts, run_args.progress());
    const RunResult result = share->play(0, *prepared, cfg, &bar);
    bar.finish();
    if (const auto shard_done = share->finish(io.out, io.err, "odds run")) return *shard_done;

    RunInfo info{prepared->game, prepared->scenario,      prepared->policy,
                 cfg.seed,       result.tally.playouts(), false,
                 result.partial};
    bool exact_stopped = false;  // --report: stopped while solving the exact laws
    const auto ds = distributions(result.tally, prepared->metrics);
    std::vector<Summary> rows;
    for (const auto& d : ds) rows.push_back(summarize(d, false));
    add_balance_row(game, rows, static_cast<double>(result.tally.playouts()), false);
    if (out_dir) {
        const fs::path dir(*out_dir);
        std::vector<std::pair<fs::path, std::string>> files = {
            {dir / "summary.csv", summary_csv(info, rows)},
            {dir / "distributions.csv", distributions_csv(info, ds)}};
        if (auto sv = survival_csv(info, result.tally, prepared->metrics); !sv.empty())
            files.emplace_back(dir / "survival.csv", std::move(sv));
        write_out_files(std::move(files), dir, "run", opt.command_line, {std::string(game.name)});
        if (report) {
            exact_stopped = !write_report_exact_laws(game, opt, state, dir);
            write_report(dir, "run", io);
        }
    }
    if (format == Format::table)
        print_table(io.out, info, rows);
    else
        print_rows(io.out, format, summary_csv(info, rows));
    if (result.partial) {
        io.err << "odds run: interrupted after " << result.tally.playouts() << " of "
               << cfg.playouts << " playouts; results written are marked partial\n";
        return 130;
    }
    if (exact_stopped) {
        io.err << "odds run: interrupted while solving the report's exact laws; the playouts are "
                  "complete, the report has no exact laws\n";
        return 130;
    }
    return 0;
}

namespace {
void run_options(po::options_description& d) {
    add_run_options(d);
    add_game_options(d);
    add_state_option(d,
                     "start every playout from the position in FILE instead of a fresh game "
                     "('odds state GAME' prints the opening one to edit; docs/positions.md)");
    out_option(d,
               "write summary.csv, distributions.csv and survival.csv into DIR (made if missing)");
    add_report_option(d);
    add_format_option(d, "summary.csv");
}
}  // namespace

const CommandSpec run_spec = {
    "run",
    "play a game many times and report its odds",
    "odds run GAME [options]",
    "Plays GAME many times in parallel and reports its odds: a table on stdout and, with --out, "
    "the files summary.csv, distributions.csv and survival.csv (docs/output.md). The same seed "
    "gives the same files for any --threads.",
    {"odds run bosconian --playouts 1e7",
     "odds run msc --policy a=fast/strike --set swap_homes=true --out runs/msc"},
    "game",
    1,
    run_options,
    cmd_run};

}  // namespace odds::cli
