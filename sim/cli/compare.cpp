// odds compare: several policies on the same dice, playout by playout (common random numbers),
// with paired differences for every pair and every headline metric (and the ranking metric and
// the table's), ranked by one metric, and every policy's figures side by side (policies.csv).
// The playouts run on the one runner (sim/runner.hpp); the statistics are reports/compare.hpp's.
#include <algorithm>
#include <cctype>
#include <filesystem>
#include <iomanip>
#include <limits>
#include <optional>
#include <span>
#include <sstream>

#include "reports/compare.hpp"
#include "reports/csv.hpp"
#include "reports/schema.hpp"
#include "reports/stats.hpp"
#include "sim/cli/args.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/report.hpp"
#include "sim/cli/spec.hpp"
#include "sim/executor.hpp"
#include "sim/interrupt.hpp"

namespace odds::cli {

namespace fs = std::filesystem;

namespace {

constexpr std::uint64_t kMaxChunk = 1024;  // playouts a work unit at most (less for slow games)

// What a comparison adds up, a chunk at a time: every policy's tally and the paired differences'
// sums of every pair of policies on every compared metric; chunks merge exactly.
struct PairedTally {
    std::vector<Tally> tallies;
    std::vector<PairSums> pairs;  // [pair index * compared metric count + h]
    std::uint64_t n = 0;
    void merge(const PairedTally& other) {
        for (std::size_t q = 0; q < tallies.size(); ++q) tallies[q].merge(other.tallies[q]);
        for (std::size_t q = 0; q < pairs.size(); ++q) pairs[q].merge(other.pairs[q]);
        n += other.n;
    }
};

// A shard's state of a comparison (sim/executor.hpp): every policy's tally, then the pairs' sums.
void write_state(std::vector<std::string>& lines, const PairedTally& t) {
    lines.push_back("paired " + std::to_string(t.n) + ' ' + std::to_string(t.tallies.size()) + ' ' +
                    std::to_string(t.pairs.size()));
    for (const auto& tally : t.tallies) cli::write_state(lines, tally);
    std::string sums = "sums";
    for (const auto& p : t.pairs)
        sums += ' ' + std::to_string(p.sum) + ' ' + std::to_string(p.sum_sq);
    lines.push_back(std::move(sums));
}

void add_state(StateReader& in, PairedTally& t) {
    const auto head = in.line("paired");
    if (head.size() != 4 || in.u64(head[2]) != t.tallies.size() ||
        in.u64(head[3]) != t.pairs.size())
        throw in.bad("a comparison of another shape than this one");
    if (__builtin_add_overflow(t.n, in.u64(head[1]), &t.n))
        throw in.bad("playouts past 64 bits, merged");
    for (auto& tally : t.tallies) cli::add_state(in, tally);
    const auto sums = in.line("sums");
    if (sums.size() != 1 + 2 * t.pairs.size()) throw in.bad("a 'sums' line of another length");
    for (std::size_t q = 0; q < t.pairs.size(); ++q) {
        // A forged shard could wrap a sum: refused, never wrapped (signed overflow is undefined).
        PairSums& p = t.pairs[q];
        if (__builtin_add_overflow(p.sum, in.i64(sums[1 + 2 * q]), &p.sum) ||
            __builtin_add_overflow(p.sum_sq, in.i64(sums[2 + 2 * q]), &p.sum_sq))
            throw in.bad("paired sums past 64 bits, merged");
    }
}

// The paired sums are exact 64-bit integers: the sum of d^2 over n playouts, |d| at most a
// compared metric's range, must fit. A run past that is refused before it plays rather than
// wrapped (issue 30).
void require_paired_sums_fit(std::span<const MetricSpec> metrics,
                             const std::vector<std::size_t>& compared, std::uint64_t playouts) {
    for (const std::size_t m : compared) {
        const MetricSpec& spec = metrics[m];
        const auto range = static_cast<std::uint64_t>(std::int64_t{spec.hi} - spec.lo);
        if (range == 0) continue;
        const std::uint64_t most =
            static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max()) / (range * range);
        if (playouts > most)
            throw UsageError("-n " + std::to_string(playouts) +
                             ": compare's exact paired sums of " + spec.name + " (range " +
                             std::to_string(spec.lo) + ".." + std::to_string(spec.hi) +
                             ") hold at most " + std::to_string(most) + " playouts; give fewer");
    }
}

struct PairStat {
    double mean_a = 0, mean_b = 0;
    PairedDifference d;
    double p_holm = 1;
};

std::string dir_name(const std::string& label) {
    std::string s;
    for (char c : label) s += std::isalnum(static_cast<unsigned char>(c)) || c == '-' ? c : '_';
    return s;
}

// What a comparison plays and reports: the policies' runs, the seat compared (two-seat games),
// the metrics compared pair by pair (head), the table's columns and the ranking metric.
struct Comparison {
    std::vector<std::unique_ptr<PreparedRun>> runs;
    int seat = -1;
    std::vector<std::size_t> head, columns;
    std::size_t rank_by = 0;
    std::size_t k() const { return runs.size(); }
    std::size_t paired_index(std::size_t m) const {
        return static_cast<std::size_t>(std::find(head.begin(), head.end(), m) - head.begin());
    }
    const MetricSpec& metric(std::size_t m) const { return runs[0]->metrics[m]; }
};

// Two-seat games: every entry names the same seat, the one compared; -1 for a solo game.
int compared_seat(const GameEntry& game, const std::vector<std::string>& entries) {
    int seat = -1;
    if (game.seats.empty()) return seat;
    for (const auto& e : entries) {
        const auto eq = e.find('=');
        int k = -1;
        for (std::size_t i = 0; i < game.seats.size(); ++i)
            if (eq != std::string::npos && e.substr(0, eq) == game.seats[i])
                k = static_cast<int>(i);
        if (k < 0)
            throw UsageError("--policy '" + e + "': name the compared seat, SEAT=NAME (seats: " +
                             joined(game.seats, ", ") + ")");
        if (seat >= 0 && k != seat)
            throw UsageError("--policy '" + e +
                             "' names another seat: every entry compares "
                             "the same seat; fix the other with --fixed");
        seat = k;
    }
    return seat;
}

std::vector<std::unique_ptr<PreparedRun>> prepare_compared(
    const GameEntry& game, const Args& opt, const std::vector<std::string>& entries) {
    const std::vector<std::string> fixed_args =
        !opt.fixed.empty() ? opt.fixed : std::vector<std::string>{};
    if (!fixed_args.empty() && game.seats.empty())
        throw UsageError(std::string(game.name) + " has one seat: --fixed is for two-seat games");
    std::vector<std::unique_ptr<PreparedRun>> runs;
    for (const auto& e : entries) {
        std::vector<std::string> a{e};
        a.insert(a.end(), fixed_args.begin(), fixed_args.end());
        runs.push_back(game.prepare(settings_of(opt), a));
        for (std::size_t j = 0; j + 1 < runs.size(); ++j)
            if (runs[j]->policy == runs.back()->policy)
                throw UsageError("policy '" + runs.back()->policy + "' is compared twice");
    }
    return runs;
}

std::size_t metric_named(const GameEntry& game, const PreparedRun& run, const std::string& name,
                         const std::string& option) {
    std::vector<std::string> names;
    for (std::size_t m = 0; m < run.metrics.size(); ++m) {
        if (run.metrics[m].name == name) return m;
        names.push_back(run.metrics[m].name);
    }
    std::string valid;
    for (const auto& n : names) valid += (valid.empty() ? "" : ", ") + n;
    throw UsageError(option + " '" + name + "' is not a metric of " + std::string(game.name) +
                     did_you_mean(name, names) + " (valid: " + valid + ")");
}

// --metrics A,B,...: every name between commas, empty ones too ('', 'withdrawn,', 'a,,b'), refused.
std::vector<std::size_t> metrics_listed(const GameEntry& game, const PreparedRun& run,
                                        const std::string& list) {
    std::vector<std::string> names;
    for (std::size_t at = 0;;) {
        const auto comma = list.find(',', at);
        names.push_back(list.substr(at, comma == std::string::npos ? comma : comma - at));
        if (comma == std::string::npos) break;
        at = comma + 1;
    }
    std::vector<std::size_t> columns;
    for (const auto& name : names) {
        if (name.empty())
            throw UsageError("--metrics '" + list + "': an empty name; give METRIC,METRIC,...");
        const std::size_t m = metric_named(game, run, name, "--metrics");
        if (std::find(columns.begin(), columns.end(), m) != columns.end())
            throw UsageError("--metrics '" + list + "' names '" + name + "' twice");
        columns.push_back(m);
    }
    return columns;
}

// The metrics compared pair by pair (compare.csv): the headline ones (a two-seat game's compared
// seat's wins first), then the ranking metric and the table's, where not among them.
void choose_metrics(Comparison& c, const GameEntry& game, const Args& opt) {
    const PreparedRun& run = *c.runs[0];
    std::vector<std::string> head_names(game.headline.begin(), game.headline.end());
    if (c.seat >= 0) {  // by default, rank by the compared seat's wins
        const std::string wins(game.versus[static_cast<std::size_t>(c.seat)]);
        std::erase(head_names, wins);
        head_names.insert(head_names.begin(), wins);
    }
    for (const auto& name : head_names)
        for (std::size_t m = 0; m < run.metrics.size(); ++m)
            if (run.metrics[m].name == name) c.head.push_back(m);
    c.rank_by = bool(opt.rank_by) ? metric_named(game, run, *opt.rank_by, "--rank-by") : c.head[0];
    if (opt.metrics)
        c.columns = metrics_listed(game, run, *opt.metrics);
    else
        c.columns.assign(
            c.head.begin(),
            c.head.begin() + static_cast<std::ptrdiff_t>(std::min<std::size_t>(c.head.size(), 4)));
    for (const std::size_t m : c.columns)
        if (std::find(c.head.begin(), c.head.end(), m) == c.head.end()) c.head.push_back(m);
    if (std::find(c.head.begin(), c.head.end(), c.rank_by) == c.head.end())
        c.head.push_back(c.rank_by);
}

// Every policy's folder in --out, before anything is played.
void make_policy_dirs(const std::string& out_dir, const Comparison& c) {
    for (const auto& r : c.runs) {
        const fs::path sub = fs::path(out_dir) / dir_name(r->policy);
        std::error_code ec;
        if (fs::exists(sub, ec) && !fs::is_directory(sub, ec))
            throw UsageError("--out '" + out_dir + "': '" + sub.string() +
                             "' exists and is not a directory");
        fs::create_directories(sub, ec);
        if (ec) throw UsageError("--out '" + out_dir + "': cannot create '" + sub.string() + "'");
    }
}

// Plays every policy's playouts on the same dice, chunk by chunk, under the executor: chunk k
// plays playouts first = k * chunk .. for every policy, playout j on Dice(stream_seed(seed, j))
// (PreparedRun::play_each). Chunks merge in order, so an interrupted comparison keeps an exact
// prefix.
ChunkedResult<PairedTally> play_compared(const Comparison& c, const RunConfig& cfg, Executor& share,
                                         ProgressBar& bar) {
    const std::size_t k = c.k(), metrics = c.runs[0]->metrics.size(), hn = c.head.size();
    PairedTally empty;
    for (const auto& r : c.runs) empty.tallies.emplace_back(r->metrics, r->survivals);
    empty.pairs.assign(k * (k - 1) / 2 * hn, {});
    const auto play_chunk = [&](Dice&, std::uint64_t first, std::uint64_t n, PairedTally& part) {
        std::vector<std::int32_t> values(k * n * metrics);  // policy p's playout i: p * n + i
        const auto value = [&](std::size_t p, std::uint64_t i, std::size_t m) {
            return values[(p * n + i) * metrics + m];
        };
        for (std::size_t p = 0; p < k; ++p) {
            std::int32_t* out = values.data() + p * n * metrics;
            c.runs[p]->play_each(cfg.seed, first, n, out);
            for (std::uint64_t i = 0; i < n; ++i) part.tallies[p].add(out + i * metrics);
        }
        std::size_t pi = 0;
        for (std::size_t a = 0; a < k; ++a)
            for (std::size_t b = a + 1; b < k; ++b, ++pi)
                for (std::size_t h = 0; h < hn; ++h) {
                    PairSums& ps = part.pairs[pi * hn + h];
                    for (std::uint64_t i = 0; i < n; ++i)
                        ps.add(std::int64_t{value(a, i, c.head[h])} - value(b, i, c.head[h]));
                }
        part.n += n;
    };
    InterruptGuard guard;
    RunControl ctl;
    ctl.stop = &InterruptGuard::flag();
    ctl.progress = [&](std::uint64_t done) { bar.update(k * done); };
    return share.play_chunks(0, cfg, empty, play_chunk, ctl);
}

// The figures of a comparison played: every policy's summaries, the ranking, and every pair's
// paired differences with Holm's adjustment over every test (family-wise error rate).
struct Compared {
    std::vector<std::vector<Summary>> sums;
    std::vector<std::size_t> order;           // by --rank-by's metric, higher first
    std::vector<std::vector<PairStat>> stat;  // [pair][compared metric]
    std::uint64_t n = 0;
    bool partial = false;
};

Compared figures_of(const Comparison& c, const PairedTally& total, bool partial) {
    const std::size_t k = c.k(), hn = c.head.size();
    Compared f;
    f.n = total.n;
    f.partial = partial;
    f.sums.resize(k);
    for (std::size_t p = 0; p < k; ++p)
        for (const auto& d : distributions(total.tallies[p], c.runs[p]->metrics))
            f.sums[p].push_back(summarize(d, false));
    f.order.resize(k);
    for (std::size_t p = 0; p < k; ++p) f.order[p] = p;
    std::stable_sort(f.order.begin(), f.order.end(), [&](std::size_t a, std::size_t b) {
        return f.sums[a][c.rank_by].mean > f.sums[b][c.rank_by].mean;
    });
    f.stat.assign(k * (k - 1) / 2, std::vector<PairStat>(hn));
    std::size_t pi = 0;
    for (std::size_t a = 0; a < k; ++a)
        for (std::size_t b = a + 1; b < k; ++b, ++pi)
            for (std::size_t h = 0; h < hn; ++h)
                f.stat[pi][h] = {f.sums[a][c.head[h]].mean, f.sums[b][c.head[h]].mean,
                                 paired_difference(total.pairs[pi * hn + h], total.n,
                                                   c.runs[a]->metrics[c.head[h]].scale)};
    std::vector<double> p;
    for (const auto& row : f.stat)
        for (const auto& x : row) p.push_back(x.d.p);
    const std::vector<double> adjusted = holm(p);
    std::size_t i = 0;
    for (auto& row : f.stat)
        for (auto& x : row) x.p_holm = adjusted[i++];
    return f;
}

// compare.csv: every pair on every compared metric.
std::string compare_csv(const GameEntry& game, const Comparison& c, const Compared& f,
                        std::uint64_t seed) {
    std::string csv = schema::kCompare.header();
    std::size_t q = 0;
    const auto& runs = c.runs;
    for (std::size_t a = 0; a < c.k(); ++a)
        for (std::size_t b = a + 1; b < c.k(); ++b, ++q)
            for (std::size_t h = 0; h < c.head.size(); ++h) {
                const PairStat& x = f.stat[q][h];
                csv += csv_field(game.name.data()) + ',' + csv_field(runs[a]->scenario) + ',' +
                       std::to_string(seed) + ',' + std::to_string(f.n) + ',' +
                       csv_field(runs[a]->metrics[c.head[h]].name) + ',' +
                       csv_field(runs[a]->policy) + ',' + csv_field(runs[b]->policy) + ',' +
                       format_double(x.mean_a) + ',' + format_double(x.mean_b) + ',' +
                       format_double(x.d.diff) + ',' + format_double(x.d.low) + ',' +
                       format_double(x.d.high) + ',' +
                       (x.d.p_below ? kPBound : format_double(x.d.p)) + ',' +
                       (x.d.p_below && x.p_holm < std::numeric_limits<double>::min()
                            ? kPBound
                            : format_double(x.p_holm)) +
                       ',' + (f.partial ? "partial" : "complete") + '\n';
            }
    return csv;
}

// policies.csv: every policy's figures side by side, one row per policy and metric, in the order
// of the ranking.
std::string policies_csv(const GameEntry& game, const Comparison& c, const Compared& f,
                         std::uint64_t seed) {
    std::string csv = schema::kPolicies.header();
    for (std::size_t r = 0; r < c.k(); ++r) {
        const std::size_t p = f.order[r];
        const PreparedRun& run = *c.runs[p];
        for (const Summary& s : f.sums[p])
            csv += csv_field(game.name.data()) + ',' + csv_field(run.scenario) + ',' +
                   std::to_string(seed) + ',' + std::to_string(f.n) + ',' + csv_field(run.policy) +
                   ',' + std::to_string(r + 1) + ',' + csv_field(run.metrics[c.rank_by].name) +
                   ',' + csv_field(s.metric) + ',' + format_double(s.mean) + ',' +
                   format_double(s.ci.low) + ',' + format_double(s.ci.high) + ',' +
                   format_double(s.stddev) + ',' + (f.partial ? "partial" : "complete") + '\n';
    }
    return csv;
}

void write_compare_files(const fs::path& dir, const GameEntry& game, const Comparison& c,
                         const Compared& f, std::uint64_t seed,
                         const std::vector<std::string>& command_line) {
    std::vector<std::pair<fs::path, std::string>> files{
        {dir / "compare.csv", compare_csv(game, c, f, seed)},
        {dir / "policies.csv", policies_csv(game, c, f, seed)}};
    for (std::size_t p = 0; p < c.k(); ++p) {
        const PreparedRun& run = *c.runs[p];
        const RunInfo info{run.game, run.scenario, run.policy, seed, f.n, false, f.partial};
        files.emplace_back(dir / dir_name(run.policy) / "summary.csv",
                           summary_csv(info, f.sums[p]));
    }
    files.push_back(provenance_file(dir, "compare", command_line, {std::string(game.name)}));
    write_files_atomic(files);
}

// The header: what every policy's scenario shares; a policy that decides part of it (msc: the
// ships it builds) has that part listed (its summary.csv has the whole).
void print_compare_header(std::ostream& t, const GameEntry& game, const Comparison& c,
                          const Compared& f, std::uint64_t seed, int name_width) {
    std::vector<std::string> scenarios;
    for (const auto& r : c.runs) scenarios.push_back(r->scenario);
    const std::string common = common_scenario(scenarios);
    t << game.name << " compare | " << common << " | seed " << seed << " | " << f.n
      << " playouts each, the same dice for every policy"
      << (f.partial ? " (PARTIAL: interrupted)" : "") << '\n';
    if (std::none_of(c.runs.begin(), c.runs.end(),
                     [&](const auto& r) { return r->scenario != common; }))
        return;
    t << "each policy's part of the scenario:\n";
    for (const auto& r : c.runs)
        t << "  " << std::left << std::setw(name_width) << r->policy
          << scenario_rest(r->scenario, common) << '\n';
}

// Row r of the ranking against #1 on the ranking metric: its paired difference and p(Holm).
std::string versus_first(const Comparison& c, const Compared& f, std::size_t r) {
    const std::size_t a = f.order[r], b = f.order[0], k = c.k();
    const std::size_t lo = std::min(a, b), hi = std::max(a, b);
    std::size_t idx = 0;  // the pair (lo, hi)
    for (std::size_t x = 0; x < lo; ++x) idx += k - 1 - x;
    idx += hi - lo - 1;
    const double sign = a < b ? 1.0 : -1.0;
    const PairStat& s = f.stat[idx][c.paired_index(c.rank_by)];
    const double low = sign > 0 ? s.d.low : -s.d.high, high = sign > 0 ? s.d.high : -s.d.low;
    std::ostringstream pv;
    if (s.p_holm < 1e-15)
        pv << "<1e-15";
    else
        pv << std::setprecision(2) << s.p_holm;
    return fixed(sign * s.d.diff) + " [" + fixed(low) + ", " + fixed(high) +
           "] p(Holm)=" + pv.str();
}

std::string compare_table(const GameEntry& game, const Comparison& c, const Compared& f,
                          std::uint64_t seed) {
    int name_width = 30;  // the policy column: as wide as the longest name, and a space
    for (const auto& r : c.runs)
        name_width = std::max(name_width, static_cast<int>(r->policy.size()) + 1);
    std::ostringstream t;
    print_compare_header(t, game, c, f, seed, name_width);
    t << std::left << std::setw(5) << "rank" << std::setw(name_width) << "policy";
    const auto column_width = [&](std::size_t m) {
        return std::max(26, static_cast<int>(c.metric(m).name.size()) + 2);
    };
    for (const std::size_t m : c.columns) t << std::setw(column_width(m)) << c.metric(m).name;
    t << std::setw(34) << ("vs #1 on " + c.metric(c.rank_by).name) << '\n';
    for (std::size_t r = 0; r < c.k(); ++r) {
        const std::size_t p = f.order[r];
        t << std::left << std::setw(5) << r + 1 << std::setw(name_width) << c.runs[p]->policy;
        for (const std::size_t m : c.columns) {
            const Summary& s = f.sums[p][m];
            t << std::setw(column_width(m))
              << (fixed(s.mean) + " [" + fixed(s.ci.low, 3) + ", " + fixed(s.ci.high, 3) + "]");
        }
        if (r > 0) t << versus_first(c, f, r);
        t << '\n';
    }
    return t.str();
}

}  // namespace

int cmd_compare(const Args& opt, Io io) {
    const GameEntry& game = game_of(opt);
    const RunArgs run_args = run_args_of(opt);
    RunConfig cfg = run_args.config();
    const std::optional<std::string> out_dir = out_dir_of(opt);
    const Format format = format_of(opt);
    const bool report = report_wanted(opt);
    if (cfg.playouts < 2) throw UsageError("--playouts must be at least 2 for paired intervals");
    const auto entries = opt.policy;
    if (entries.size() < 2) throw UsageError("compare needs at least two --policy entries");
    Comparison c;
    c.seat = compared_seat(game, entries);
    c.runs = prepare_compared(game, opt, entries);
    choose_metrics(c, game, opt);
    require_paired_sums_fit(c.runs[0]->metrics, c.head, cfg.playouts);
    // Chunks no larger than any game run's own, so Ctrl-C answers as promptly.
    std::uint64_t chunk = kMaxChunk;
    for (const auto& r : c.runs) chunk = std::min<std::uint64_t>(chunk, r->chunk_size);
    cfg.chunk_size = static_cast<std::uint32_t>(chunk);
    ExecutorOf share = run_args.executor();  // --shard I/N, odds merge, MPI
    std::string policies;
    for (const auto& r : c.runs) policies += (policies.empty() ? "" : " | ") + r->policy;
    share->begin(
        run_args.plan("compare", game,
                      {{c.runs[0]->scenario, policies,
                        Executor::chunks_of(cfg.playouts, cfg.chunk_size), cfg.chunk_size}}),
        io.err);
    if (out_dir) {
        prepare_out_dir(*out_dir, share->mode() == Executor::Mode::shard);
        if (!share->writes_shard_file()) make_policy_dirs(*out_dir, c);  // a shard: its file only
    }

    const std::size_t k = c.k();
    announce_queued(run_args, io, "odds compare",
                    std::to_string(k) + " policies x " + std::to_string(cfg.playouts) +
                        " playouts = " + std::to_string(k * cfg.playouts) + " playouts",
                    std::max(1u, cfg.threads));
    // The bar counts games, every policy's playouts; a chunk plays every policy, so each chunk
    // costs alike and the games done measure the work done.
    ProgressBar bar(k * cfg.playouts, run_args.progress(), "games");
    const ChunkedResult<PairedTally> played = play_compared(c, cfg, *share, bar);
    bar.finish();
    if (const auto shard_done = share->finish(io.out, io.err, "odds compare")) return *shard_done;

    const Compared f = figures_of(c, played.tally, played.partial);
    if (out_dir) {
        write_compare_files(*out_dir, game, c, f, cfg.seed, opt.command_line);
        if (report) write_report(*out_dir, "compare", io);
    }
    if (format == Format::table)
        io.out << compare_table(game, c, f, cfg.seed);
    else
        print_rows(io.out, format, policies_csv(game, c, f, cfg.seed));
    if (f.partial) {
        io.err << "odds compare: interrupted after " << f.n << " of " << cfg.playouts
               << " playouts; results written are marked partial\n";
        return 130;
    }
    return 0;
}

namespace {
void compare_options(po::options_description& d) {
    add_run_options(d, "100k");
    add_game_options(d);
    d.add_options()("fixed",
                    po::value<std::vector<std::string>>()->composing()->value_name("SEAT=NAME"),
                    "a policy every entry plays with, for two-seat games")(
        "rank-by", po::value<std::string>()->value_name("METRIC"),
        "rank the policies by this metric, highest first (default: the game's first headline "
        "metric; a two-seat game's: the compared seat's wins)")(
        "metrics", po::value<std::string>()->value_name("A,B,..."),
        "the table's columns: these metrics, comma-separated ('odds list GAME' names them; "
        "default: the first four headline metrics)");
    out_option(d, "write compare.csv, policies.csv and each policy's summary.csv into DIR");
    add_report_option(d);
    add_format_option(d, "policies.csv");
}
}  // namespace

const CommandSpec compare_spec = {
    "compare",
    "several policies on the same dice: paired differences, ranked",
    "odds compare GAME --policy A --policy B [--policy C ...] [options]",
    "Plays every policy on the same dice, playout by playout (common random numbers), ranks "
    "them by one metric (--rank-by; default the game's first headline metric), and prints a "
    "table of each policy's metrics (--metrics; default the first four headline metrics) with "
    "95% intervals and its paired difference from the first. With --out DIR: DIR/compare.csv "
    "(for every pair and headline, ranking or table metric: the paired difference with its 95% "
    "interval and p-value), DIR/policies.csv (every policy's mean, interval and standard "
    "deviation of every metric) and each policy's DIR/<policy>/summary.csv. For a two-seat "
    "game, name the seat being compared (--policy tau=aggressor --policy tau=survivor) and fix "
    "the other with --fixed kaon=dice.",
    {"odds compare fpb --policy bug-out --policy lead-from-front --metrics icecube_rescued,killed "
     "-n 20k",
     "odds compare dimension-duel --policy tau=aggressor --policy tau=survivor --fixed kaon=dice"},
    "game",
    1,
    compare_options,
    cmd_compare};

}  // namespace odds::cli
