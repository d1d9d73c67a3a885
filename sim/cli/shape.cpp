// odds shape: the shape of a game along its length (issue 32; docs/skill.md), for games that can
// follow a game's odds step by step (GameEntry::shape): lead changes, drama and decisiveness as
// Ludii defines them and the comeback rate (two seats), the point of no return (one seat),
// averaged over sampled games, and the fan of p's quantiles by step (fan.csv, the report).
#include <filesystem>
#include <iomanip>
#include <sstream>

#include "reports/csv.hpp"
#include "reports/shape.hpp"
#include "sim/cli/args.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/report.hpp"
#include "sim/cli/spec.hpp"
#include "sim/interrupt.hpp"
#include "sim/progress.hpp"
#include "sim/shape_run.hpp"

namespace odds::cli {

namespace fs = std::filesystem;

namespace {

inline constexpr std::uint64_t kMaxShapeGames = 100'000'000;
inline constexpr int kMaxRollouts = 100'000;

// The command line, read once.
struct ShapeArgs {
    RunArgs run;  // --playouts, --seed, --threads, --no-progress, --shard (sim/cli/args.hpp)
    const GameEntry* game = nullptr;
    Settings settings;
    std::vector<std::string> policies;
    shape::Config cfg;
    std::optional<std::string> out_dir;
    bool report = false;
    bool progress = false;
};

int rollouts_of(const std::string& text) {
    std::size_t used = 0;
    long long n = -1;
    try {
        n = std::stoll(text, &used);
    } catch (const std::exception&) {
        used = 0;
    }
    if (used != text.size() || text.empty() || n < 1 || n > kMaxRollouts)
        throw UsageError("--rollouts '" + text + "': a whole number of rollouts a step, 1 to " +
                         std::to_string(kMaxRollouts));
    return static_cast<int>(n);
}

// --estimator: "" (the game's own: exact where it has it), "exact" or "rollouts".
std::string estimator_of(const Args& opt) {
    if (!opt.estimator) return "";
    const std::string e = *opt.estimator;
    if (e != "exact" && e != "rollouts")
        throw UsageError("--estimator '" + e + "': valid: exact, rollouts");
    return e;
}

ShapeArgs parse_shape_args(const Args& opt) {
    ShapeArgs a;
    a.game = &game_of(opt);
    if (!a.game->shape)
        throw UsageError(std::string(a.game->name) +
                         " cannot follow a game's odds step by step yet (games that can: " +
                         game_names(has_shape) + ")");
    a.run = run_args_of(opt);
    if (!a.run.playouts) a.run.playouts = a.game->shape_games;  // the game's own default
    const RunConfig run = a.run.config();
    if (run.playouts > kMaxShapeGames)
        throw UsageError("-n " + std::to_string(run.playouts) + ": odds shape samples at most " +
                         std::to_string(kMaxShapeGames) + " games");
    if (run.playouts == 0) throw UsageError("-n 0: odds shape samples one game or more");
    a.cfg.seed = run.seed;
    a.cfg.games = run.playouts;
    a.cfg.threads = run.threads;
    a.cfg.rollouts = rollouts_of(*opt.rollouts);
    a.cfg.force_rollouts = estimator_of(opt) == "rollouts";
    a.cfg.force_exact = estimator_of(opt) == "exact";
    a.settings = settings_of(opt);
    a.policies = opt.policy;
    a.out_dir = out_dir_of(opt);
    a.report = report_wanted(opt);
    a.progress = a.run.progress();
    if (a.run.shard) {  // a shard's state holds its games' p's (sim/shape_run.hpp)
        const std::uint64_t most = (run.playouts + a.run.shard->count - 1) / a.run.shard->count;
        if (most > shape::kMaxShardGames)
            throw UsageError(
                "--shard " + a.run.shard->text +
                ": a shard of odds shape keeps each "
                "of its games' odds step by step, at most " +
                std::to_string(shape::kMaxShardGames) + " games; -n " +
                std::to_string(run.playouts) + " needs " +
                std::to_string((run.playouts + shape::kMaxShardGames - 1) / shape::kMaxShardGames) +
                " shards or more");
    }
    return a;
}

std::string shape_table(const ShapeReport& r, const ShapeArgs& a) {
    std::ostringstream t;
    t << r.game << " shape | " << r.scenario << " | policy " << r.policy << " | seed " << a.cfg.seed
      << " | " << r.tally.games << " games | p at each step: " << r.estimator << '\n'
      << std::left << std::setw(18) << "measure" << std::setw(12) << "value"
      << "what it is\n";
    for (const auto& m : r.tally.measures())
        t << std::setw(18) << m.name << std::setw(12) << fixed(m.value, 4) << m.meaning << '\n';
    for (const auto& n : r.notes) t << n << '\n';
    return t.str();
}

void write_shape_files(const ShapeReport& r, const ShapeArgs& a,
                       const std::vector<std::string>& command_line, Io io) {
    prepare_out_dir(*a.out_dir);
    const fs::path dir(*a.out_dir);
    write_out_files({{dir / "shape.csv", shape::shape_csv(r.tally, r.game, r.scenario, r.policy,
                                                          a.cfg.seed, r.partial)},
                     {dir / "fan.csv", shape::fan_csv(r.tally, r.game, r.scenario, r.policy,
                                                      a.cfg.seed, r.partial)}},
                    dir, "shape", command_line, {r.game});
    if (a.report) write_report(dir, "shape", io);
}

// The plan: one job, a game a chunk (sim/shape_run.hpp), named by the games' scenario and seats.
Plan shape_plan(const ShapeArgs& a, const std::string& scenario, const std::string& policy) {
    return a.run.plan("shape", *a.game, {{scenario, policy, a.cfg.games, 1}});
}

}  // namespace

int cmd_shape(const Args& opt, Io io) {
    ShapeArgs a = parse_shape_args(opt);
    ExecutorOf share = a.run.executor();  // --shard I/N, odds merge, MPI
    shape::Sampler games(*share, [&](const std::string& scenario, const std::string& policy) {
        share->begin(shape_plan(a, scenario, policy), io.err);  // the hook has read its input
        if (a.out_dir && share->writes_shard_file()) prepare_out_dir(*a.out_dir, true);
    });
    ShapeReport r;
    std::error_code ec;
    const bool had_out = a.out_dir && fs::exists(*a.out_dir, ec);
    try {
        InterruptGuard guard;  // the games and any value table's solve look at the stop flag
        ProgressBar bar(a.cfg.games, a.progress, "games");
        a.cfg.progress = [&bar](std::uint64_t done) { bar.update(done); };
        r = a.game->shape(a.settings, a.policies, a.cfg, games);
        bar.finish();
    } catch (const UsageError&) {  // a shard past what it may keep: no empty folder left
        if (a.out_dir && !had_out) fs::remove(*a.out_dir, ec);
        throw;
    }
    if (const auto shard_done = share->finish(io.out, io.err, "odds shape")) return *shard_done;
    if (r.tally.games == 0) {
        io.err << "odds shape: interrupted before the first game was traced; nothing written\n";
        return InterruptGuard::exit_code();
    }
    if (a.out_dir) write_shape_files(r, a, opt.command_line, io);
    io.out << shape_table(r, a);
    if (r.partial) {
        // Shards stopped each at its own game: the games traced are not the first ones.
        const bool merged = share->mode() == Executor::Mode::merge;
        io.err << "odds shape: interrupted; the figures are of the " << (merged ? "" : "first ")
               << r.tally.games << " games" << (merged ? " the shards traced" : "") << '\n';
        return InterruptGuard::exit_code();
    }
    return 0;
}

namespace {
void shape_options(po::options_description& d) {
    d.add_options()("playouts,n", po::value<std::string>()->value_name("N"),
                    "games to sample: 10000, 1e5, 100k (default: the game's own, about two "
                    "minutes on 2 cores; 10k for most games)")(
        "seed,s", po::value<std::string>()->default_value("1")->value_name("N"),
        "the seed (0 to 2^64-1): game i plays on the dice of stream i")(
        "threads,j", po::value<std::string>()->value_name("N"),
        "worker threads (default: every hardware thread)")("no-progress",
                                                           "no progress bar, even on a terminal")(
        "rollouts", po::value<std::string>()->default_value("64")->value_name("N"),
        "games played on from each step by the seats' own policies, where p is estimated "
        "(1 to 100000)")("estimator", po::value<std::string>()->value_name("KIND"),
                         "exact (the default where the game has exact values) or rollouts");
    add_shard_option(d, "a shard keeps each of its games' odds step by step, 200000 games at most");
    add_game_options(d);
    out_option(d, "write shape.csv and fan.csv into DIR");
    add_report_option(d);
}
}  // namespace

const CommandSpec shape_spec = {
    "shape",
    "the shape of a game along its length: lead changes, drama, decisiveness, comebacks",
    "odds shape GAME [--policy SEAT=NAME ...] [options]",
    "Samples -n games and follows each step by step (a turn; a sector of Bosconian-D) with the "
    "odds of seat 0 to win (a solo game: to succeed) from there: exact where the game's solver "
    "gives them (Dimension Duel, Bosconian-D, race), else estimated by --rollouts games played "
    "on by the seats' own policies. Reports, averaged over the games, the measures Ludii "
    "defines on such a sequence (lead changes, drama, decisiveness) and the comeback rate, how "
    "often the side behind at half-time wins; for a solo game, the point of no return, the step "
    "from which the outcome was known to 95% (docs/skill.md). Games play on every thread and "
    "shard like a run's (--shard, odds merge, mpirun); the figures are the same for any "
    "--threads and any shards. --out DIR writes shape.csv and fan.csv (p's "
    "quantiles by step); --report draws the fan.",
    {"odds shape dimension-duel", "odds shape naval -n 200 --rollouts 32 --out shape --report"},
    "game",
    1,
    shape_options,
    cmd_shape};

}  // namespace odds::cli
