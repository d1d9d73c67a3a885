// odds sweep: every combination of varied rule options, each played with the same seed (common
// random numbers: chunk k of every combination starts from the same dice), into one tidy
// sweep.csv.
#include <algorithm>
#include <filesystem>
#include <iomanip>
#include <optional>
#include <sstream>

#include "reports/csv.hpp"
#include "reports/schema.hpp"
#include "reports/stats.hpp"
#include "sim/cli/args.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/report.hpp"
#include "sim/cli/spec.hpp"
#include "sim/cli/vary.hpp"
#include "sim/executor.hpp"

namespace odds::cli {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxCombinations = 10000;
using Vary = Varied;  // sim/cli/vary.hpp

struct Combination {
    std::vector<std::string> values;  // one per Vary
    std::unique_ptr<PreparedRun> run;
};

// The --vary options checked against --set, and their combinations' count, at most
// kMaxCombinations.
std::size_t combinations_of(const std::vector<Vary>& varies, const Settings& base) {
    for (const auto& v : varies)
        for (const auto& [n, val] : base)
            if (n == v.name)
                throw UsageError("option '" + n + "' is both set (--set) and varied (--vary)");
    std::size_t total = 1;
    for (const auto& v : varies) {
        total *= v.values.size();
        if (total > kMaxCombinations)
            throw UsageError("the sweep has more than " + std::to_string(kMaxCombinations) +
                             " combinations");
    }
    return total;
}

// Every combination prepared, the first --vary varying slowest.
std::vector<Combination> prepare_combinations(const GameEntry& game,
                                              const std::vector<Vary>& varies, const Settings& base,
                                              const std::vector<std::string>& policies,
                                              std::size_t total) {
    std::vector<Combination> combos(total);
    for (std::size_t c = 0; c < total; ++c) {
        std::size_t rest = c;
        Settings s = base;
        std::vector<std::string> values(varies.size());
        for (std::size_t i = varies.size(); i-- > 0;) {
            values[i] = varies[i].values[rest % varies[i].values.size()];
            rest /= varies[i].values.size();
        }
        for (std::size_t i = 0; i < varies.size(); ++i) s.emplace_back(varies[i].name, values[i]);
        combos[c].values = values;
        combos[c].run = game.prepare(s, policies);
    }
    return combos;
}

// sweep.csv and the table, a combination's rows added as soon as it is played: its tally is
// dropped then, so a sweep holds one combination's tally at a time (docs/commands.md).
struct SweepRows {
    std::string csv;
    std::ostringstream table;
    // Each varied option's column: as wide as its name or its widest value and two spaces, 14 at
    // least, so that long names (sniper.area1.open) never run into the next.
    std::vector<int> widths;
    SweepRows(const std::vector<Vary>& varies, const GameEntry& game) {
        for (const auto& v : varies) {
            std::size_t w = std::max<std::size_t>(12, v.name.size());
            for (const auto& x : v.values) w = std::max(w, x.size());
            widths.push_back(static_cast<int>(w + 2));
        }
        csv = schema::kSweepHead.header(false);
        for (const auto& v : varies) csv += ',' + csv_field(v.name);
        csv += ',' + schema::kSweep.header();
        for (std::size_t i = 0; i < varies.size(); ++i)
            table << std::left << std::setw(widths[i]) << varies[i].name;
        for (const auto& h : game.headline) table << std::left << std::setw(32) << h;
        table << '\n';
    }
    void add(const Combination& combo, const RunResult& r, const GameEntry& game,
             std::uint64_t seed) {
        for (std::size_t i = 0; i < combo.values.size(); ++i)
            table << std::left << std::setw(widths[i]) << combo.values[i];
        for (const auto& d : distributions(r.tally, combo.run->metrics)) {
            const Summary s = summarize(d, false);
            csv += csv_field(combo.run->game) + ',' + csv_field(combo.run->scenario) + ',' +
                   csv_field(combo.run->policy) + ',' + std::to_string(seed) + ',' +
                   std::to_string(r.tally.playouts());
            for (const auto& v : combo.values) csv += ',' + csv_field(v);
            csv += ',' + csv_field(s.metric) + ',' + format_double(s.mean) + ',' +
                   format_double(s.stddev) + ',' + format_double(s.ci.low) + ',' +
                   format_double(s.ci.high) + ',' + (r.partial ? "partial" : "complete") + '\n';
            for (const auto& h : game.headline)
                if (h == s.metric)
                    table << std::left << std::setw(32)
                          << (fixed(s.mean) + " [" + fixed(s.ci.low) + ", " + fixed(s.ci.high) +
                              "]");
        }
        table << (r.partial ? "  (partial)" : "") << '\n';
    }
};

}  // namespace

int cmd_sweep(const Args& opt, Io io) {
    const GameEntry& game = game_of(opt);
    if (opt.vary.empty())
        throw UsageError("nothing to sweep: give --vary NAME=LO..HI:STEP or NAME=v1,v2,...");
    const std::vector<Vary> varies = parse_varies(opt.vary, game, kSweepVary);
    const Settings base = settings_of(opt);
    const std::size_t total = combinations_of(varies, base);

    // Every input is checked before anything runs: the cheap ones first.
    const RunArgs run_args = run_args_of(opt, game.each_run_playouts());
    const RunConfig cfg = run_args.config();
    const std::optional<std::string> out_dir = out_dir_of(opt);
    const Format format = format_of(opt);
    const bool report = report_wanted(opt);
    const std::vector<Combination> combos =
        prepare_combinations(game, varies, base, opt.policy, total);
    ExecutorOf share = run_args.executor();  // --shard I/N, odds merge, MPI
    share->begin(run_args.plan("sweep", game, jobs_of(combos, cfg.playouts)), io.err);
    if (out_dir && !share->dry()) prepare_out_dir(*out_dir, share->mode() == Executor::Mode::shard);

    announce_queued(run_args, io, "odds sweep",
                    std::to_string(total) + (total == 1 ? " combination x " : " combinations x ") +
                        std::to_string(cfg.playouts) +
                        " playouts = " + std::to_string(total * cfg.playouts) + " playouts",
                    cfg.threads);
    SweepRows rows(varies, game);
    ProgressBar bar(cfg.playouts * total, run_args.progress());
    bool partial = false;
    for (std::size_t c = 0; c < total && !partial; ++c) {
        RunConfig one = cfg;
        one.chunk_size = combos[c].run->chunk_size;
        const RunResult r = share->play(c, *combos[c].run, one, &bar, cfg.playouts * c);
        partial = r.partial;
        if (share->mode() != Executor::Mode::shard) rows.add(combos[c], r, game, cfg.seed);
    }
    bar.finish();
    if (const auto shard_done = share->finish(io.out, io.err, "odds sweep")) return *shard_done;

    if (out_dir) {
        const fs::path dir(*out_dir);
        write_out_files({{dir / "sweep.csv", rows.csv}}, dir, "sweep", opt.command_line,
                        {std::string(game.name)});
        if (report) write_report(dir, "sweep", io);
    }
    if (format != Format::table)
        print_rows(io.out, format, rows.csv);
    else
        io.out << game.name << " sweep | " << combos.front().run->policy << " | seed " << cfg.seed
               << " | " << cfg.playouts << " playouts per combination, common random numbers\n"
               << rows.table.str();
    if (partial) {
        io.err << "odds sweep: interrupted; the rows written are marked partial or missing\n";
        return 130;
    }
    return 0;
}

namespace {
void sweep_options(po::options_description& d) {
    d.add_options()(
        "vary", po::value<std::vector<std::string>>()->composing()->value_name("NAME=VALUES"),
        "a rule option and its values: NAME=LO..HI[:STEP] (alias LO:HI:STEP) or NAME=v1,v2,...; a "
        "comma-list option: NAME=VALUE, one --vary per value (repeatable)");
    add_run_options(d, nullptr, nullptr, kEachRunPlayouts);
    add_game_options(d);
    out_option(d, "write sweep.csv into DIR");
    add_report_option(d);
    add_format_option(d, "sweep.csv");
}
}  // namespace

const CommandSpec sweep_spec = {
    "sweep",
    "every combination of varied rule options, with common random numbers",
    "odds sweep GAME --vary NAME=VALUES [--vary ...] [options]",
    "Plays every combination of the varied rule options with the same seed (common random "
    "numbers), and writes one row per (values, metric) into DIR/sweep.csv: mean, standard "
    "deviation and 95% interval. A table of the game's headline metrics goes to stdout.\n\n"
    "An option named in several --vary takes the values of each. An option whose value is "
    "itself a comma list (bosconian's layout, msc's map) takes one value per --vary, at least "
    "two: --vary layout=4,9 --vary layout=4,9,15 (a single --vary layout=4,9 is ambiguous and "
    "refused).",
    {"odds sweep bosconian --vary hull=80..160:10 -n 1M",
     "odds sweep msc --vary budget=300,525,800 --vary escorts_a=0,25,50 -n 1000"},
    "game",
    1,
    sweep_options,
    cmd_sweep};

}  // namespace odds::cli
