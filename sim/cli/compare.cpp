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
#include "sim/rules_file.hpp"

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

// What a comparison plays and reports: its runs (the policies'; with --variant, every variant's
// under every policy entry, run v * per_variant + p), the pairs whose paired differences it
// keeps (a before b), the seat compared (two-seat games), the metrics compared pair by pair
// (head), the table's columns and the ranking metric.
struct Comparison {
    std::vector<std::unique_ptr<PreparedRun>> runs;
    std::vector<std::pair<std::size_t, std::size_t>> pairs;
    std::vector<std::string> variants;  // --variant's labels, as given; empty: policies alone
    std::size_t per_variant = 0;        // runs a variant (its policy entries, at least one)
    int seat = -1;
    std::vector<std::size_t> head, columns;
    std::size_t rank_by = 0;
    std::size_t k() const { return runs.size(); }
    // The index in `pairs` of the pair (a, b), a < b.
    std::size_t pair_of(std::size_t a, std::size_t b) const {
        return static_cast<std::size_t>(std::find(pairs.begin(), pairs.end(), std::pair{a, b}) -
                                        pairs.begin());
    }
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
    std::vector<std::size_t> columns;
    for (const auto& name : comma_names("--metrics", list))
        columns.push_back(metric_named(game, run, name, "--metrics"));
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

// A run's folder in --out: its policy's name; with --variant, its variant's label, then its
// policy's when several are compared.
std::string run_dir_name(const Comparison& c, std::size_t r) {
    if (c.variants.empty()) return dir_name(c.runs[r]->policy);
    std::string name = dir_name(c.variants[r / c.per_variant]);
    if (c.per_variant > 1) {
        name += '/';
        name += dir_name(c.runs[r]->policy);
    }
    return name;
}

// Every run's folder in --out, before anything is played.
void make_run_dirs(const std::string& out_dir, const Comparison& c) {
    for (std::size_t r = 0; r < c.k(); ++r) {
        const fs::path sub = fs::path(out_dir) / run_dir_name(c, r);
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
    empty.pairs.assign(c.pairs.size() * hn, {});
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
        for (std::size_t pi = 0; pi < c.pairs.size(); ++pi) {
            const auto [a, b] = c.pairs[pi];
            for (std::size_t h = 0; h < hn; ++h) {
                PairSums& ps = part.pairs[pi * hn + h];
                for (std::uint64_t i = 0; i < n; ++i)
                    ps.add(std::int64_t{value(a, i, c.head[h])} - value(b, i, c.head[h]));
            }
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
    f.stat.assign(c.pairs.size(), std::vector<PairStat>(hn));
    for (std::size_t pi = 0; pi < c.pairs.size(); ++pi) {
        const auto [a, b] = c.pairs[pi];
        for (std::size_t h = 0; h < hn; ++h)
            f.stat[pi][h] = {f.sums[a][c.head[h]].mean, f.sums[b][c.head[h]].mean,
                             paired_difference(total.pairs[pi * hn + h], total.n,
                                               c.runs[a]->metrics[c.head[h]].scale)};
    }
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
    const auto& runs = c.runs;
    for (std::size_t q = 0; q < c.pairs.size(); ++q) {
        const auto [a, b] = c.pairs[q];
        for (std::size_t h = 0; h < c.head.size(); ++h) {
            const PairStat& x = f.stat[q][h];
            csv += csv_field(game.name.data()) + ',' + csv_field(runs[a]->scenario) + ',' +
                   std::to_string(seed) + ',' + std::to_string(f.n) + ',' +
                   csv_field(runs[a]->metrics[c.head[h]].name) + ',' + csv_field(runs[a]->policy) +
                   ',' + csv_field(runs[b]->policy) + ',' + format_double(x.mean_a) + ',' +
                   format_double(x.mean_b) + ',' + format_double(x.d.diff) + ',' +
                   format_double(x.d.low) + ',' + format_double(x.d.high) + ',' +
                   (x.d.p_below ? kPBound : format_double(x.d.p)) + ',' +
                   (x.d.p_below && x.p_holm < std::numeric_limits<double>::min()
                        ? kPBound
                        : format_double(x.p_holm)) +
                   ',' + (x.d.p_below ? "true" : "false") + ',' +
                   (f.partial ? "partial" : "complete") + '\n';
        }
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

// A comparison's files in --out: its own tables (`files`), each run's summary.csv in its folder,
// and provenance.csv, all or none.
void write_comparison_files(const fs::path& dir, const GameEntry& game, const Comparison& c,
                            const Compared& f, std::uint64_t seed,
                            const std::vector<std::string>& command_line,
                            std::vector<std::pair<fs::path, std::string>> files) {
    for (std::size_t p = 0; p < c.k(); ++p) {
        const PreparedRun& run = *c.runs[p];
        const RunInfo info{run.game, run.scenario, run.policy, seed, f.n, false, f.partial};
        files.emplace_back(dir / run_dir_name(c, p) / "summary.csv", summary_csv(info, f.sums[p]));
    }
    write_out_files(std::move(files), dir, "compare", command_line, {std::string(game.name)});
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
    const std::size_t a = f.order[r], b = f.order[0];
    const std::size_t idx = c.pair_of(std::min(a, b), std::max(a, b));
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

// ---------------------------------------------------------------------------------------------
// --variant: the same policies under several variants of the rules, on the same dice.

// A variant compared: its label as given and the settings it plays, the command's --set and
// --rules with its own on top.
struct Variant {
    std::string label;
    Settings settings;
};

// "NAME=VALUE[,NAME=VALUE...]": a comma begins a new setting only where NAME= follows it, so a
// value may hold commas itself (encounter.i_missile=1,3).
Settings variant_settings(const std::string& text) {
    Settings own;
    for (std::size_t from = 0;;) {
        const std::size_t comma = text.find(',', from);
        const std::string part =
            text.substr(from, comma == std::string::npos ? comma : comma - from);
        if (part.find('=') != std::string::npos) {
            own.push_back(split_setting(part));
            for (std::size_t j = 0; j + 1 < own.size(); ++j)
                if (own[j].first == own.back().first)
                    throw UsageError("--variant '" + text + "' sets '" + own.back().first +
                                     "' twice");
        } else if (own.empty() || part.empty()) {
            throw UsageError("--variant '" + text + "': '" + part +
                             "' is not NAME=VALUE; a variant is book, a variant file, or "
                             "NAME=VALUE[,NAME=VALUE...]");
        } else {
            own.back().second += ',' + part;
        }
        if (comma == std::string::npos) return own;
        from = comma + 1;
    }
}

// Every --variant, read: `book` (the command's --set and --rules alone), a variant file (odds
// rules writes one), or NAME=VALUE,...; at least two (prepare_variants checks that no two play
// the same rules).
std::vector<Variant> variants_of(const GameEntry& game, const Args& opt) {
    const Settings base = settings_of(opt);
    std::vector<Variant> variants;
    for (const auto& text : opt.variant) {
        Settings own;
        if (text == "book") {
        } else if (text.find('=') != std::string::npos) {
            own = variant_settings(text);
        } else {
            std::error_code ec;
            if (!fs::is_regular_file(text, ec))
                throw UsageError("--variant '" + text +
                                 "': no such file; a variant is book, a variant file (odds rules " +
                                 std::string(game.name) + " writes one), or NAME=VALUE[,...]");
            own = merged_settings(read_rules_file(text, game), text, game, {});
        }
        Variant v{text, base};
        for (const auto& setting : own) {  // not a structured binding: clang 14 (the web
                                           // build) cannot capture one
            std::erase_if(v.settings, [&](const auto& p) { return p.first == setting.first; });
            v.settings.push_back(setting);
        }
        variants.push_back(std::move(v));
    }
    if (variants.size() < 2)
        throw UsageError(
            "compare --variant needs at least two variants: book, a variant file, "
            "or NAME=VALUE[,NAME=VALUE...] (the first is the one the others are "
            "measured against)");
    return variants;
}

// The runs of a comparison of variants: variant v under policy entry p is run v * P + p (P the
// entries, or one run of the game's default policies when none is given). The pairs: each
// entry's run under every variant against the first variant's, then every two entries within a
// variant (for its ranking).
void prepare_variants(Comparison& c, const GameEntry& game, const Args& opt,
                      const std::vector<Variant>& variants) {
    const auto& entries = opt.policy;
    if (!opt.fixed.empty() && game.seats.empty())
        throw UsageError(std::string(game.name) + " has one seat: --fixed is for two-seat games");
    c.seat = entries.empty() ? -1 : compared_seat(game, entries);
    c.per_variant = std::max<std::size_t>(1, entries.size());
    for (const auto& v : variants) {
        c.variants.push_back(v.label);
        for (std::size_t p = 0; p < c.per_variant; ++p) {
            std::vector<std::string> a;
            if (!entries.empty()) a.push_back(entries[p]);
            a.insert(a.end(), opt.fixed.begin(), opt.fixed.end());
            c.runs.push_back(game.prepare(v.settings, a));
            for (std::size_t q = c.runs.size() - 1 - p; q + 1 < c.runs.size(); ++q)
                if (c.runs[q]->policy == c.runs.back()->policy)
                    throw UsageError("policy '" + c.runs.back()->policy + "' is compared twice");
        }
        // The same rules twice compare nothing: a run's scenario names every effective option.
        const std::size_t here = c.runs.size() - c.per_variant;
        for (std::size_t w = 0; w + 1 < c.variants.size(); ++w)
            if (c.runs[w * c.per_variant]->scenario == c.runs[here]->scenario)
                throw UsageError("--variant '" + v.label + "' plays the same rules as --variant '" +
                                 c.variants[w] + "'; give variants that differ");
    }
    const std::size_t per = c.per_variant;
    for (std::size_t p = 0; p < per; ++p)
        for (std::size_t v = 1; v < variants.size(); ++v) c.pairs.emplace_back(p, v * per + p);
    for (std::size_t v = 0; v < variants.size(); ++v)
        for (std::size_t a = 0; a < per; ++a)
            for (std::size_t b = a + 1; b < per; ++b)
                c.pairs.emplace_back(v * per + a, v * per + b);
}

// Each run's exact mean of each compared metric (its bounds: a point when the solver resolves
// all of it), where the game's exact solver solves the run's variant and policies; [run][h].
struct ExactMeans {
    std::vector<std::vector<std::optional<Interval>>> mean;
    bool stopped = false;  // a stop request came while solving: the rest unsolved
};

ExactMeans exact_means(const GameEntry& game, const Comparison& c,
                       const std::vector<Variant>& variants, const Args& opt, bool solve) {
    ExactMeans e;
    e.mean.assign(c.k(), std::vector<std::optional<Interval>>(c.head.size()));
    if (!solve || !game.exact || opt.no_exact) return e;
    InterruptGuard guard;
    for (std::size_t r = 0; r < c.k() && !e.stopped; ++r) {
        std::vector<std::string> a;
        if (!opt.policy.empty()) a.push_back(opt.policy[r % c.per_variant]);
        a.insert(a.end(), opt.fixed.begin(), opt.fixed.end());
        try {
            const ExactReport x = exact_beside(game)(variants[r / c.per_variant].settings, a);
            for (std::size_t h = 0; h < c.head.size(); ++h)
                for (const auto& law : x.laws)
                    if (law.spec.name == c.metric(c.head[h]).name)
                        e.mean[r][h] = summarize(law, true).ci;
        } catch (const UsageError&) {  // beyond the solver: played figures alone
        } catch (const StopRequested&) {
            e.stopped = true;
        }
    }
    return e;
}

// The difference run - first variant's run of the same policy entry, exactly: the bounds of
// one mean minus the other's.
std::optional<Interval> exact_difference(const ExactMeans& e, std::size_t run, std::size_t first,
                                         std::size_t h) {
    const auto& a = e.mean[run][h];
    const auto& b = e.mean[first][h];
    if (!a || !b) return std::nullopt;
    return Interval{a->low - b->high, a->high - b->low};
}

// A metric moved when its paired difference is told from 0 at 5%, Holm-adjusted over every
// difference the comparison reports.
constexpr double kMovedAt = 0.05;

// Each policy entry's place within variant v by the ranking metric (1 first).
std::vector<std::size_t> ranks_within(const Comparison& c, const Compared& f, std::size_t v) {
    std::vector<std::size_t> order(c.per_variant), rank(c.per_variant);
    for (std::size_t p = 0; p < c.per_variant; ++p) order[p] = p;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return f.sums[v * c.per_variant + a][c.rank_by].mean >
               f.sums[v * c.per_variant + b][c.rank_by].mean;
    });
    for (std::size_t i = 0; i < order.size(); ++i) rank[order[i]] = i + 1;
    return rank;
}

// An exact difference as the table prints it, six significant digits: a number, or the bounds
// "[LOW, HIGH]" where the solver left some of the law unresolved.
std::string interval_text(const Interval& i) {
    char low[32], high[32];
    std::snprintf(low, sizeof low, "%.6g", i.low);
    std::snprintf(high, sizeof high, "%.6g", i.high);
    if (std::string_view(low) == high) return low;
    std::string t = "[";
    t += low;
    t += ", ";
    t += high;
    t += ']';
    return t;
}

// variants.csv: every run's figures of every compared metric, with its paired difference from
// the first variant's run of the same policy entry.
std::string variants_csv(const GameEntry& game, const Comparison& c, const Compared& f,
                         const ExactMeans& e, std::uint64_t seed) {
    std::string csv = schema::kVariants.header();
    for (std::size_t r = 0; r < c.k(); ++r) {
        const std::size_t v = r / c.per_variant, p = r % c.per_variant;
        const PreparedRun& run = *c.runs[r];
        const std::size_t rank = ranks_within(c, f, v)[p];
        for (std::size_t h = 0; h < c.head.size(); ++h) {
            const Summary& s = f.sums[r][c.head[h]];
            std::string diff = ",,,,,,";  // diff .. moved: none for the first variant
            if (v > 0) {
                const PairStat& x = f.stat[c.pair_of(p, r)][h];
                // The pair is (first, this): its difference is first - this; turned around.
                diff = format_double(0.0 - x.d.diff) + ',' + format_double(0.0 - x.d.high) + ',' +
                       format_double(0.0 - x.d.low) + ',' +
                       (x.d.p_below ? std::string(kPBound) : format_double(x.d.p)) + ',' +
                       (x.d.p_below ? "true" : "false") + ',' +
                       (x.d.p_below && x.p_holm < std::numeric_limits<double>::min()
                            ? std::string(kPBound)
                            : format_double(x.p_holm)) +
                       ',' + (x.p_holm < kMovedAt ? "true" : "false");
            }
            std::string exact = ",,,";
            if (const auto& m = e.mean[r][h]) {
                exact = format_double(m->low) + ',' + format_double(m->high) + ',';
                if (const auto d = exact_difference(e, r, p, h); d && v > 0)
                    exact += format_double(d->low) + ',' + format_double(d->high);
                else
                    exact += ',';
            }
            csv += csv_field(game.name.data()) + ',' + csv_field(c.variants[v]) + ',' +
                   csv_field(run.scenario) + ',' + csv_field(run.policy) + ',' +
                   std::to_string(seed) + ',' + std::to_string(f.n) + ',' +
                   csv_field(run.metrics[c.head[h]].name) + ',' + format_double(s.mean) + ',' +
                   format_double(s.ci.low) + ',' + format_double(s.ci.high) + ',' + diff + ',' +
                   exact + ',' + std::to_string(rank) + ',' +
                   csv_field(run.metrics[c.rank_by].name) + ',' +
                   (f.partial ? "partial" : "complete") + '\n';
        }
    }
    return csv;
}

// The table of a comparison of variants: what each variant plays, each run's figures, then
// each variant's paired differences from the first under each policy entry (which metrics
// moved, by how much, exactly where the solver solves both), and the policies' ranking within
// each variant.
std::string variants_table(const GameEntry& game, const Comparison& c, const Compared& f,
                           const ExactMeans& e, std::uint64_t seed) {
    std::vector<std::string> scenarios;
    for (const auto& r : c.runs) scenarios.push_back(r->scenario);
    const std::string common = common_scenario(scenarios);
    std::ostringstream t;
    t << game.name << " compare | " << common << " | seed " << seed << " | " << f.n
      << " playouts each, the same dice for every variant"
      << (f.partial ? " (PARTIAL: interrupted)" : "") << '\n';
    int label_width = 12, policy_width = 10;
    for (const auto& v : c.variants)
        label_width = std::max(label_width, static_cast<int>(v.size()) + 2);
    for (const auto& r : c.runs)
        policy_width = std::max(policy_width, static_cast<int>(r->policy.size()) + 2);
    t << "variants (what each changes from what they share):\n";
    for (std::size_t v = 0; v < c.variants.size(); ++v) {
        const std::string rest = scenario_rest(c.runs[v * c.per_variant]->scenario, common);
        t << "  " << std::left << std::setw(label_width) << c.variants[v]
          << (rest.empty() ? "nothing" : rest) << '\n';
    }
    t << '\n'
      << std::left << std::setw(label_width) << "variant" << std::setw(policy_width) << "policy";
    const auto column_width = [&](std::size_t m) {
        return std::max(26, static_cast<int>(c.metric(m).name.size()) + 2);
    };
    for (std::size_t i = 0; i < c.columns.size(); ++i)  // the last column's name unpadded
        t << std::setw(i + 1 < c.columns.size() ? column_width(c.columns[i]) : 0)
          << c.metric(c.columns[i]).name;
    t << '\n';
    for (std::size_t r = 0; r < c.k(); ++r) {
        std::ostringstream row;
        row << std::left << std::setw(label_width) << c.variants[r / c.per_variant]
            << std::setw(policy_width) << c.runs[r]->policy;
        for (const std::size_t m : c.columns) {
            const Summary& s = f.sums[r][m];
            row << std::setw(column_width(m))
                << (fixed(s.mean) + " [" + fixed(s.ci.low, 3) + ", " + fixed(s.ci.high, 3) + "]");
        }
        std::string text = row.str();
        text.erase(text.find_last_not_of(' ') + 1);
        t << text << '\n';
    }
    int metric_width = 12;
    for (const std::size_t m : c.head)
        metric_width = std::max(metric_width, static_cast<int>(c.metric(m).name.size()) + 2);
    for (std::size_t v = 1; v < c.variants.size(); ++v)
        for (std::size_t p = 0; p < c.per_variant; ++p) {
            const std::size_t r = v * c.per_variant + p;
            t << '\n'
              << c.variants[v] << " - " << c.variants[0] << ", policy " << c.runs[r]->policy
              << " (paired on the same dice; 95% intervals; p Holm-adjusted):\n";
            std::vector<std::string> moved;
            for (std::size_t h = 0; h < c.head.size(); ++h) {
                const PairStat& x = f.stat[c.pair_of(p, r)][h];
                std::ostringstream pv;
                if (x.p_holm < 1e-15)
                    pv << "<1e-15";
                else
                    pv << std::setprecision(2) << x.p_holm;
                const bool is_moved = x.p_holm < kMovedAt;
                if (is_moved) moved.push_back(c.metric(c.head[h]).name);
                std::ostringstream line;
                line << "  " << std::left << std::setw(metric_width) << c.metric(c.head[h]).name
                     << std::setw(34)
                     << (fixed(0.0 - x.d.diff) + " [" + fixed(0.0 - x.d.high) + ", " +
                         fixed(0.0 - x.d.low) + "]")
                     << std::setw(18) << ("p(Holm)=" + pv.str()) << std::setw(17)
                     << (is_moved ? "MOVED" : "no change shown");
                // Exact bounds wider than the playouts' interval say nothing more: left out
                // (variants.csv has them).
                if (const auto d = exact_difference(e, r, p, h);
                    d && d->high - d->low <= x.d.high - x.d.low)
                    line << "exact " << interval_text(*d);
                std::string text = line.str();
                text.erase(text.find_last_not_of(' ') + 1);
                t << text << '\n';
            }
            t << "  => " << (moved.empty() ? "no metric moved" : "moved: " + joined(moved, ", "))
              << '\n';
        }
    if (c.per_variant > 1) {
        t << "\npolicies ranked by " << c.metric(c.rank_by).name << " within each variant:\n";
        const auto first = ranks_within(c, f, 0);
        for (std::size_t v = 0; v < c.variants.size(); ++v) {
            const auto rank = ranks_within(c, f, v);
            std::vector<std::string> in_order(c.per_variant);
            for (std::size_t p = 0; p < c.per_variant; ++p)
                in_order[rank[p] - 1] = c.runs[v * c.per_variant + p]->policy;
            t << "  " << std::setw(label_width) << c.variants[v];
            for (std::size_t i = 0; i < in_order.size(); ++i)
                t << (i ? "  " : "") << i + 1 << ' ' << in_order[i];
            if (v > 0) t << (rank == first ? "  (the same order)" : "  (the order changed)");
            t << '\n';
        }
    }
    return t.str();
}

// What both kinds of comparison share, once the runs and pairs are chosen: the chunk size (no
// larger than any run's own, so Ctrl-C answers as promptly), the plan (one job: `scenario`, and
// every run's policy), --out's folders (a shard writes its file only), the
// announcement, the bar (it counts games, every run's playouts: a chunk plays every run, so each
// chunk costs alike) and the play. An exit code when the command ends here (a shard written).
struct Played {
    std::optional<int> exit;
    Compared f;
};
Played play_comparison(const GameEntry& game, const Comparison& c, const RunArgs& run_args,
                       RunConfig& cfg, const std::string& scenario, const std::string& queued,
                       const std::optional<std::string>& out_dir, Io io) {
    require_paired_sums_fit(c.runs[0]->metrics, c.head, cfg.playouts);
    std::uint64_t chunk = kMaxChunk;
    for (const auto& r : c.runs) chunk = std::min<std::uint64_t>(chunk, r->chunk_size);
    cfg.chunk_size = static_cast<std::uint32_t>(chunk);
    ExecutorOf share = run_args.executor();  // --shard I/N, odds merge, MPI
    std::string policies;
    for (const auto& r : c.runs) policies += (policies.empty() ? "" : " | ") + r->policy;
    share->begin(
        run_args.plan("compare", game,
                      {{scenario, policies, Executor::chunks_of(cfg.playouts, cfg.chunk_size),
                        cfg.chunk_size}}),
        io.err);
    if (out_dir && !share->dry()) {
        prepare_out_dir(*out_dir, share->mode() == Executor::Mode::shard);
        if (!share->writes_shard_file()) make_run_dirs(*out_dir, c);
    }
    const std::size_t k = c.k();
    announce_queued(run_args, io, "odds compare",
                    queued + std::to_string(cfg.playouts) +
                        " playouts = " + std::to_string(k * cfg.playouts) + " playouts",
                    std::max(1u, cfg.threads));
    ProgressBar bar(k * cfg.playouts, run_args.progress(), "games");
    const ChunkedResult<PairedTally> played = play_compared(c, cfg, *share, bar);
    bar.finish();
    if (const auto shard_done = share->finish(io.out, io.err, "odds compare"))
        return {shard_done, {}};
    return {std::nullopt, figures_of(c, played.tally, played.partial)};
}

// odds compare's arguments that both kinds of comparison read, parsed once.
struct CompareArgs {
    RunArgs run;
    RunConfig cfg;
    std::optional<std::string> out_dir;
    Format format;
    bool report = false;
};
CompareArgs compare_args_of(const Args& opt, const GameEntry& game) {
    CompareArgs a{run_args_of(opt, game.each_run_playouts()),
                  {},
                  out_dir_of(opt),
                  format_of(opt),
                  report_wanted(opt)};
    a.cfg = a.run.config();
    if (a.cfg.playouts < 2) throw UsageError("--playouts must be at least 2 for paired intervals");
    return a;
}

// odds compare --variant: the comparison of variants, played and reported.
int compare_variants(const GameEntry& game, const Args& opt, CompareArgs a, Io io) {
    const RunArgs& run_args = a.run;
    RunConfig& cfg = a.cfg;
    const std::optional<std::string>& out_dir = a.out_dir;
    const Format format = a.format;
    const bool report = a.report;
    const std::vector<Variant> variants = variants_of(game, opt);
    Comparison c;
    prepare_variants(c, game, opt, variants);
    choose_metrics(c, game, opt);
    std::string scenarios;  // the job's identity: every variant's rules
    for (const auto& r : c.runs) scenarios += (scenarios.empty() ? "" : " | ") + r->scenario;
    const Played played = play_comparison(game, c, run_args, cfg, scenarios,
                                          std::to_string(c.variants.size()) + " variants x " +
                                              std::to_string(c.per_variant) + " policies x ",
                                          out_dir, io);
    if (played.exit) return *played.exit;
    const Compared& f = played.f;
    const ExactMeans e = exact_means(game, c, variants, opt, !f.partial);
    if (out_dir) {
        write_comparison_files(
            *out_dir, game, c, f, cfg.seed, opt.command_line,
            {{fs::path(*out_dir) / "variants.csv", variants_csv(game, c, f, e, cfg.seed)}});
        if (report) write_report(*out_dir, "compare", io);
    }
    if (format == Format::table)
        io.out << variants_table(game, c, f, e, cfg.seed);
    else
        print_rows(io.out, format, variants_csv(game, c, f, e, cfg.seed));
    if (e.stopped)
        io.err << "odds compare: interrupted while solving the variants exactly; the playouts "
                  "are complete, the exact figures missing\n";
    if (f.partial) {
        io.err << "odds compare: interrupted after " << f.n << " of " << cfg.playouts
               << " playouts; results written are marked partial\n";
        return 130;
    }
    return e.stopped ? 130 : 0;
}

}  // namespace

int cmd_compare(const Args& opt, Io io) {
    const GameEntry& game = game_of(opt);
    CompareArgs args = compare_args_of(opt, game);
    if (!opt.variant.empty()) return compare_variants(game, opt, std::move(args), io);
    const RunArgs& run_args = args.run;
    RunConfig& cfg = args.cfg;
    const std::optional<std::string>& out_dir = args.out_dir;
    const Format format = args.format;
    const bool report = args.report;
    const auto entries = opt.policy;
    if (entries.size() < 2) throw UsageError("compare needs at least two --policy entries");
    Comparison c;
    c.seat = compared_seat(game, entries);
    c.runs = prepare_compared(game, opt, entries);
    for (std::size_t a = 0; a < c.k(); ++a)  // every pair of policies
        for (std::size_t b = a + 1; b < c.k(); ++b) c.pairs.emplace_back(a, b);
    choose_metrics(c, game, opt);
    const Played played = play_comparison(game, c, run_args, cfg, c.runs[0]->scenario,
                                          std::to_string(c.k()) + " policies x ", out_dir, io);
    if (played.exit) return *played.exit;
    const Compared& f = played.f;
    if (out_dir) {
        write_comparison_files(
            *out_dir, game, c, f, cfg.seed, opt.command_line,
            {{fs::path(*out_dir) / "compare.csv", compare_csv(game, c, f, cfg.seed)},
             {fs::path(*out_dir) / "policies.csv", policies_csv(game, c, f, cfg.seed)}});
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
    add_run_options(d, nullptr, nullptr, kEachRunPlayouts);
    add_game_options(d);
    d.add_options()("fixed",
                    po::value<std::vector<std::string>>()->composing()->value_name("SEAT=NAME"),
                    "a policy every entry plays with, for two-seat games")(
        "variant", po::value<std::vector<std::string>>()->composing()->value_name("V"),
        "compare variants of the rules instead of policies alone: book, a variant file, or "
        "NAME=VALUE[,NAME=VALUE...] on top of --set and --rules (repeatable; the first is the "
        "one the others are measured against)")(
        "no-exact", "with --variant: do not solve the variants exactly (only the playouts)")(
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
    "the other with --fixed kaon=dice.\n\n"
    "--variant V (repeatable, two or more): every variant of the rules plays the same dice under "
    "each --policy (or the game's default), and each is measured against the first: per "
    "metric, its paired difference with a 95% interval, whether it moved (Holm-adjusted p under "
    "0.05), the exact difference where the game's solver solves both, and the policies' ranking "
    "within each variant. With --out DIR: DIR/variants.csv and each run's summary.csv.",
    {"odds compare fpb --policy bug-out --policy lead-from-front --metrics icecube_rescued,killed "
     "-n 20k",
     "odds compare dimension-duel --policy tau=aggressor --policy tau=survivor --fixed kaon=dice"},
    "game",
    1,
    compare_options,
    cmd_compare};

}  // namespace odds::cli
