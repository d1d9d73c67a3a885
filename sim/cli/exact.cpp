// odds exact: the exact odds of a game, where its solver solves it (docs/exact.md).
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <optional>
#include <string>
#include <vector>

#include "engine/stop.hpp"
#include "reports/csv.hpp"
#include "reports/stats.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/common.hpp"
#include "sim/cli/exact.hpp"
#include "sim/cli/report.hpp"
#include "sim/interrupt.hpp"
#include "sim/registry.hpp"

namespace odds::cli {

namespace fs = std::filesystem;

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
        const SurvivalSpec table =
            defaults->survivals.empty() ? SurvivalSpec{} : defaults->survivals.front();
        const std::string step =
            table.time < 0 ? "step" : defaults->metrics[static_cast<std::size_t>(table.time)].name;
        files.emplace_back(dir / "survival.csv",
                           survival_csv_described(info, step, table.event_words, report.survival));
    }
    return files;
}

int cmd_exact(const Args& opt, Io io) {
    if (!opt.game) throw UsageError("which game? give one of: " + game_names(has_exact));
    const GameEntry& game = game_of(opt);
    if (!game.exact)
        throw UsageError("game '" + std::string(game.name) + "' has no exact solver" +
                         (game.no_exact.empty() ? "" : ": " + game.no_exact) +
                         " (games with one: " + game_names(has_exact) + ")");
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
        write_out_files(std::move(files), dir, "exact", opt.command_line, {std::string(game.name)});
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

namespace {
void exact_options(po::options_description& d) {
    add_game_options(d);
    add_state_option(d,
                     "solve from the position in FILE instead of a fresh game, for games whose "
                     "solver can (docs/positions.md)");
    out_option(d, "write summary.csv, distributions.csv (and survival.csv where solved) into DIR");
    add_report_option(d);
    add_format_option(d, "summary.csv");
}
}  // namespace

const CommandSpec exact_spec = {
    "exact",
    "the exact odds, for games with an exact solver",
    "odds exact GAME [options]",
    "The exact odds of GAME, where the mathematics allows: the same summary.csv and "
    "distributions.csv columns as 'odds run', with method 'exact'. Where part of the "
    "probability is not resolved, the figures are bounds (docs/output.md).",
    {"odds exact bosconian --set layout=4,9,17,22,30 --set start_sector=14",
     "odds exact dimension-duel --policy tau=survivor --policy kaon=dice"},
    "game",
    1,
    exact_options,
    cmd_exact};

}  // namespace odds::cli
