// The odds command line: dispatch, and the commands list, run and exact. Exit codes: 0 done,
// 1 failed while running or writing (or, for check, the balance moved), 2 bad input (one line on
// stderr, nothing written), 130 interrupted by SIGINT, 143 by SIGTERM (partial results written,
// marked partial; odds exact writes nothing).
#include "sim/cli/cli.hpp"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <iomanip>
#include <iostream>
#include <new>
#include <optional>

#include "engine/stop.hpp"
#include "reports/check_report.hpp"
#include "reports/csv.hpp"
#include "reports/stats.hpp"
#include "sim/cli/args.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/common.hpp"
#include "sim/cli/report.hpp"
#include "sim/cli/spec.hpp"
#include "sim/executor.hpp"
#include "sim/interrupt.hpp"
#include "sim/progress.hpp"
#include "sim/registry.hpp"
#include "sim/rules_file.hpp"

namespace odds {

namespace fs = std::filesystem;
using namespace cli;

namespace cli {

namespace {
// Two-seat games: the derived `balance` row after the metrics (docs/output.md, summary.csv).
void add_balance_row(const GameEntry& game, std::vector<Summary>& rows, double n, bool exact) {
    if (game.versus.empty()) return;
    const auto& v = game.versus;
    if (auto b = balance_row(rows, std::string(v[0]), std::string(v[1]), n, exact))
        rows.push_back(*b);
}

// odds exact's files for DIR: summary.csv, distributions.csv and survival.csv where solved.
std::vector<std::pair<fs::path, std::string>> exact_files(const GameEntry& game,
                                                          const ExactReport& report,
                                                          const fs::path& dir) {
    RunInfo info{report.game, report.scenario, report.policy, 0, 0, true, false};
    std::vector<Summary> rows;
    for (const auto& d : report.laws) rows.push_back(summarize(d, true));
    add_balance_row(game, rows, 0, true);
    std::vector<std::pair<fs::path, std::string>> files = {
        {dir / "summary.csv", summary_csv(info, rows)},
        {dir / "distributions.csv", distributions_csv(info, report.laws)}};
    if (!report.survival.empty()) {
        // The solvers' one table: the game's survival table at its defaults names its metric.
        const auto defaults = game.prepare({}, {});
        const std::string step =
            defaults->survivals.empty()
                ? "step"
                : defaults->metrics[static_cast<std::size_t>(defaults->survivals.front().time)]
                      .name;
        files.emplace_back(dir / "survival.csv",
                           survival_csv_described(info, step, report.survival));
    }
    return files;
}
}  // namespace

namespace {

// A metric's range in words: "0 or 1" for a rate, "0..100" for a count, "0..1 by 0.5" for a
// count kept in halves.
std::string range_text(const MetricSpec& m) {
    if (m.kind == MetricKind::rate) return "rate, 0 or 1";
    std::string r = "count, " + format_double(static_cast<double>(m.lo) / m.scale) + ".." +
                    format_double(static_cast<double>(m.hi) / m.scale);
    if (m.scale != 1) r += " by " + format_double(1.0 / m.scale);
    return r;
}

// Every game in `shown` as one JSON document: everything `odds list` says, for tools.
std::string list_json(const std::vector<const GameEntry*>& shown) {
    std::string j = "{\n  \"odds_version\": " + json_string(ODDS_VERSION) + ",\n  \"games\": [";
    const auto names = [](std::span<const std::string_view> v) {
        std::string a = "[";
        for (std::size_t i = 0; i < v.size(); ++i) a += (i ? ", " : "") + json_string(v[i]);
        return a + "]";
    };
    for (std::size_t gi = 0; gi < shown.size(); ++gi) {
        const GameEntry& g = *shown[gi];
        const auto defaults = g.prepare({}, {});
        j += std::string(gi ? "," : "") + "\n    {\n      \"name\": " + json_string(g.name) +
             ",\n      \"title\": " + json_string(g.title) +
             ",\n      \"summary\": " + json_string(g.summary) +
             ",\n      \"seats\": " + names(g.seats) +
             ",\n      \"rules_version\": " + json_string(g.rules_version) +
             ",\n      \"headline\": " + names(g.headline) +
             ",\n      \"versus\": " + names(g.versus) +
             ",\n      \"default_policy\": " + json_string(defaults->policy) +
             ",\n      \"default_scenario\": " + json_string(defaults->scenario) +
             ",\n      \"policies\": [";
        for (std::size_t i = 0; i < g.policies.size(); ++i)
            j += std::string(i ? "," : "") +
                 "\n        {\"name\": " + json_string(g.policies[i].name) +
                 ", \"help\": " + json_string(g.policies[i].help) + "}";
        j += "\n      ],\n      \"options\": [";
        for (std::size_t i = 0; i < g.options.size(); ++i) {
            const OptionInfo& o = g.options[i];
            j += std::string(i ? "," : "") + "\n        {\"name\": " + json_string(o.name) +
                 ", \"default\": " + json_string(o.default_value) +
                 ", \"help\": " + json_string(o.help) +
                 ", \"comma_list\": " + (o.comma_list ? "true" : "false") + "}";
        }
        j += "\n      ],\n      \"metrics\": [";
        for (std::size_t i = 0; i < defaults->metrics.size(); ++i) {
            const MetricSpec& m = defaults->metrics[i];
            j += std::string(i ? "," : "") + "\n        {\"name\": " + json_string(m.name) +
                 ", \"kind\": " + json_string(m.kind == MetricKind::rate ? "rate" : "count") +
                 ", \"min\": " + json_number(static_cast<double>(m.lo) / m.scale) +
                 ", \"max\": " + json_number(static_cast<double>(m.hi) / m.scale) +
                 ", \"step\": " + json_number(1.0 / m.scale) +
                 ", \"help\": " + json_string(m.help) + "}";
        }
        j += "\n      ],\n      \"survival\": [";
        for (std::size_t i = 0; i < defaults->survivals.size(); ++i) {
            const SurvivalSpec& sv = defaults->survivals[i];
            const auto metric = [&](int k) {
                return k < 0 ? std::string("null") : json_string(defaults->metrics[k].name);
            };
            j += std::string(i ? "," : "") + "\n        {\"subject\": " + json_string(sv.subject) +
                 ", \"step\": " + metric(sv.time) + ", \"event\": " + metric(sv.event) +
                 ", \"event_value\": " +
                 (sv.event < 0 ? std::string("null") : std::to_string(sv.event_value)) + "}";
        }
        j += "\n      ],\n      \"exact_solver\": ";
        if (g.exact)
            j += "{\"command\": " + json_string("odds exact " + std::string(g.name)) +
                 ", \"limits\": " + json_string(g.exact_limits) + "}";
        else
            j += "null";
        j += "\n    }";
    }
    return j + "\n  ]\n}\n";
}

}  // namespace

int cmd_list(const Args& opt, Io io) {
    std::vector<const GameEntry*> shown;
    if (opt.game)
        shown.push_back(&find_game(*opt.game));
    else
        for (const auto& g : games()) shown.push_back(&g);
    if (opt.json) {
        io.out << list_json(shown);
        return 0;
    }
    for (const auto* g : shown) {
        // The metrics as the game declares them, at the default options (ranges follow them).
        const auto defaults = g->prepare({}, {});
        io.out << g->name << " - " << g->title << ": " << g->summary << "\n  policies (--policy "
               << (g->seats.empty()
                       ? "NAME"
                       : "NAME for every seat, or SEAT=NAME; seats: " + joined(g->seats, ", "))
               << "; default " << g->policies.front().name << "):\n";
        // One column for names, as wide as the longest (at least 22), then the help.
        std::size_t wide = 20;
        for (const auto& p : g->policies) wide = std::max(wide, p.name.size());
        for (const auto& o : g->options)
            wide = std::max(wide, o.name.size() + 1 + o.default_value.size());
        for (const auto& m : defaults->metrics) wide = std::max(wide, m.name.size());
        const int w = static_cast<int>(wide) + 2;
        for (const auto& p : g->policies)
            io.out << "    " << std::left << std::setw(w) << p.name << p.help << '\n';
        io.out << "  options (--set NAME=VALUE):\n";
        for (const auto& o : g->options)
            io.out << "    " << std::left << std::setw(w)
                   << (std::string(o.name) + "=" + std::string(o.default_value)) << o.help << '\n';
        io.out << "  metrics (one row each in summary.csv; ranges at the default options):\n";
        std::size_t range_wide = 0;
        for (const auto& m : defaults->metrics)
            range_wide = std::max(range_wide, range_text(m).size());
        for (const auto& m : defaults->metrics)
            io.out << "    " << std::left << std::setw(w) << m.name
                   << std::setw(static_cast<int>(range_wide) + 2) << range_text(m) << m.help
                   << '\n';
        io.out << "  exact solver: "
               << (!g->exact                 ? std::string("no")
                   : g->exact_limits.empty() ? std::string("yes (odds exact)")
                                             : "yes (odds exact; " + g->exact_limits + ")")
               << '\n';
    }
    return 0;
}

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
                exact = game.exact(settings_of(opt), opt.policy);
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
    const RunArgs run_args = run_args_of(opt);
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
    ExecutorOf share(run_args.shard, run_args.sharing.executor);  // --shard I/N, odds merge, MPI (sim/executor.hpp)
    share->begin(run_args.plan("run", game, {job_of(*prepared, cfg.playouts)}), io.err);
    if (out_dir) prepare_out_dir(*out_dir, share->mode() == Executor::Mode::shard);
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
        files.push_back(provenance_file(dir, "run", opt.command_line, {std::string(game.name)}));
        write_files_atomic(files);
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

int cmd_exact(const Args& opt, Io io) {
    if (!opt.game) throw UsageError("which game? give one of: " + game_names(true));
    const GameEntry& game = game_of(opt);
    if (!game.exact)
        throw UsageError("game '" + std::string(game.name) +
                         "' has no exact solver (games with one: " + game_names(true) + ")");
    const std::optional<std::string> out_dir = out_dir_of(opt);
    const bool html = report_wanted(opt);
    const Format format = format_of(opt);
    const auto state = state_of(opt, game, game.exact_from != nullptr, "exact");
    const auto start = std::chrono::steady_clock::now();
    ExactReport report;
    try {
        // An exact answer is all or nothing: a stop writes nothing (docs/commands.md).
        InterruptGuard guard;
        report = state ? game.exact_from(settings_of(opt), opt.policy, state->text, state->path)
                       : game.exact(settings_of(opt), opt.policy);  // checks input
    } catch (const StopRequested&) {
        io.err << "odds exact: interrupted after " << std::fixed << std::setprecision(1)
               << std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count()
               << " s; an exact answer is all or nothing: nothing written\n";
        return 130;
    }
    if (state) report.scenario += " state=" + state->path;
    const double ms =
        std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
    if (out_dir) prepare_out_dir(*out_dir);
    for (const auto& w : report.warnings) io.err << "odds exact: warning: " << w << '\n';

    RunInfo info{report.game, report.scenario, report.policy, 0, 0, true, false};
    std::vector<Summary> rows;
    for (const auto& d : report.laws) rows.push_back(summarize(d, true));
    add_balance_row(game, rows, 0, true);
    if (out_dir) {
        const fs::path dir(*out_dir);
        auto files = exact_files(game, report, dir);
        files.push_back(provenance_file(dir, "exact", opt.command_line, {std::string(game.name)}));
        write_files_atomic(files);
        // A survival.csv of an earlier run must not pass for this one's.
        std::error_code ec;
        if (report.survival.empty()) fs::remove(dir / "survival.csv", ec);
        if (html) write_report(dir, "exact", io);
    }
    if (format != Format::table) {  // stdout holds the rows alone; the notes go to stderr
        print_rows(io.out, format, summary_csv(info, rows));
        for (const auto& n : report.notes) io.err << "odds exact: " << n << '\n';
        return 0;
    }
    print_table(io.out, info, rows);
    for (const auto& n : report.notes) io.out << n << '\n';
    io.out << "solved in " << std::fixed << std::setprecision(1) << ms << " ms\n";
    return 0;
}

int cmd_rules(const Args& opt, Io io) {
    const GameEntry& game = game_of(opt);
    const Settings settings = settings_of(opt);
    (void)game.prepare(settings, {});  // every value checked, as a run would
    io.out << rules_file_text(game, settings);
    return 0;
}

int cmd_state(const Args& opt, Io io) {
    if (!opt.game) throw UsageError("which game? give one of: " + position_game_names());
    const GameEntry& game = game_of(opt);
    if (!game.opening_position)
        throw UsageError("game '" + std::string(game.name) +
                         "' has no positions yet (games with positions: " + position_game_names() +
                         ")");
    const Settings settings = settings_of(opt);
    (void)game.prepare(settings, {});  // checks the options
    io.out << game.opening_position(settings);
    return 0;
}

}  // namespace cli

namespace cli {
int cmd_version(const Args&, Io io) {
    io.out << "odds " << ODDS_VERSION << " (" << ODDS_BUILD_TYPE << " build)\n";
    std::size_t wide = 0;
    for (const auto& g : games()) wide = std::max(wide, g.name.size());
    for (const auto& g : games())
        io.out << "  " << std::left << std::setw(static_cast<int>(wide) + 2) << g.name
               << g.rules_version << '\n';
    return 0;
}
}  // namespace cli

int odds_main(int argc, const char* const* argv, std::ostream& out, std::ostream& err) {
    return cli::odds_main_sharing(argc, argv, out, err, nullptr);
}

int with_stdout_flushed(int rc) {
    errno = 0;
    std::cout.flush();
    const bool lost = !std::cout || std::fflush(stdout) != 0 || std::ferror(stdout);
    if (!lost) return rc;
    // A command that failed has said why in its one line (--json /dev/stdout on a full disk: the
    // same cause twice, issue 40).
    if (rc != 0) return rc;
    const int e = errno;
    std::cerr << "odds: cannot write to standard output"
              << (e ? std::string(": ") + std::strerror(e) : std::string()) << '\n';
    return rc == 0 ? 1 : rc;
}

int cli::odds_main_sharing(int argc, const char* const* argv, std::ostream& out, std::ostream& err,
                           Executor* share, const Team* team) {
    std::vector<std::string> args(argv + std::min(argc, 1), argv + argc);
    const std::string command = args.empty() ? "" : args.front();
    if (!args.empty()) args.erase(args.begin());
    bool known = false;
    for (const auto& c : commands()) known = known || c.name == command;
    const std::string who = known ? "odds " + command : "odds";
    InterruptGuard::reset();
    struct ReleaseOutDirs {  // the --out folders this command locked, however it ends
        ~ReleaseOutDirs() {
            release_out_dirs();
            forget_rules_origins();
            release_held_signals();  // a signal that came while files were written acts now
        }
    } release;
    forget_rules_origins();
    const cli::Io io{out, err};
    const Args::Sharing sharing{share, team};
    try {
        (void)games();  // every registration checked before anything else (validate)
        if (command.empty()) {
            err << usage_text(help_columns());
            return 2;
        }
        if (command == "--help" || command == "-h" || command == "help") {
            out << usage_text(help_columns());
            return 0;
        }
        if (command == "--version" || command == "-V")
            return run_command(find_command("version"), args, io, sharing);
        const int rc = run_command(find_command(command), args, io, sharing);
        // Stopped: 128 + the signal's number (130 SIGINT, 143 SIGTERM), whichever way the
        // command says it.
        return rc == 130 ? InterruptGuard::exit_code() : rc;
    } catch (const StopRequested&) {  // a solver or search stopped where nobody else caught it
        err << who << ": interrupted; nothing written\n";
        return InterruptGuard::exit_code();
    } catch (const UsageError& e) {
        // Every message through printable_message: a value with a newline or a terminal escape
        // is shown escaped, a long one cut, so the error stays one short line; a bad value a
        // variant file gave is named at its FILE:LINE.
        err << who << ": " << printable_message(with_rules_origin(e.what())) << '\n';
        return 2;
    } catch (const po::error& e) {  // a value the commands read themselves (as<T>)
        err << who << ": cannot read the command line: " << printable_message(e.what()) << " (see '"
            << who << " --help')\n";
        return 2;
    } catch (const std::bad_alloc&) {
        err << who
            << ": out of memory: this command needs more than the machine could give it "
               "(docs/commands.md says what each command holds at once)\n";
        return 1;
    } catch (const std::exception& e) {
        err << who << ": error: " << printable_message(e.what()) << '\n';
        return 1;
    }
}

}  // namespace odds
