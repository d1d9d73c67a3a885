// odds baseline and odds check: record a scenario's headline metrics, then re-run it and say
// whether the balance moved.
//
// The baseline and targets files are read by sim/baseline_file.hpp (their records are listed
// there and in docs/output.md). `odds check` treats a file as input: every value is checked
// against the game's declarations (its options, policies, rules version, each metric's kind and
// range, the playouts) before anything is laid out or played; a bad one is one line,
// "FILE:LINE: WHAT".
#include <algorithm>
#include <charconv>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <iomanip>
#include <limits>
#include <map>
#include <optional>
#include <sstream>
#include <thread>
#include <tuple>

#include "engine/line_reader.hpp"
#include "reports/check_report.hpp"
#include "reports/compare.hpp"
#include "reports/csv.hpp"
#include "reports/html_report.hpp"
#include "reports/sequential.hpp"
#include "reports/stats.hpp"
#include "sim/baseline_file.hpp"
#include "sim/cli.hpp"
#include "sim/cli_args.hpp"
#include "sim/cli_commands.hpp"
#include "sim/cli_report.hpp"
#include "sim/cli_spec.hpp"
#include "sim/executor.hpp"
#include "sim/rules_file.hpp"

namespace odds::cli {

namespace fs = std::filesystem;

namespace {

constexpr double kFalseAlarm = 1e-3;  // per metric, before the correction for their number

// Prepares the game as the baseline recorded it, every value checked against the game's
// declarations first (the options and policies by the game itself; each metric's kind, its
// values against its range, its counts against the playouts). Any bad value: a UsageError
// naming the file, the line and the value.
std::unique_ptr<PreparedRun> check_baseline(Baseline& b, const GameEntry*& game_out) {
    const std::string& path = b.file;
    const GameEntry* game = nullptr;
    try {
        game = &find_game(b.game);
    } catch (const UsageError& e) {
        throw LineReader::error_at(path, b.game_line, e.what());
    }
    game_out = game;
    if (!b.targets || !b.rules_version.empty()) {  // rules_version GAME/N, N a whole number
        const std::string prefix = std::string(game->name) + "/";
        if (b.rules_version.rfind(prefix, 0) != 0 ||
            !parse_integer(std::string_view(b.rules_version).substr(prefix.size()), 1, INT32_MAX))
            throw LineReader::error_at(path, b.rules_line,
                                       "rules_version '" + b.rules_version + "' is not " + prefix +
                                           "N (this build: " + std::string(game->rules_version) +
                                           ")");
    }
    // The options and policies, by the game; a refusal is traced to the first line that brings it.
    std::unique_ptr<PreparedRun> run;
    try {
        run = game->prepare(b.settings, b.policies);
    } catch (const UsageError& e) {
        const auto fails = [&](const Settings& s, const std::vector<std::string>& p) {
            try {
                game->prepare(s, p);
                return false;
            } catch (const UsageError&) {
                return true;
            }
        };
        for (std::size_t i = 0; i < b.settings.size(); ++i)
            if (fails(Settings(b.settings.begin(),
                               b.settings.begin() + static_cast<std::ptrdiff_t>(i) + 1),
                      {}))
                throw LineReader::error_at(path, b.set_lines[i], e.what());
        for (std::size_t i = 0; i < b.policies.size(); ++i)
            if (fails(b.settings, std::vector<std::string>(
                                      b.policies.begin(),
                                      b.policies.begin() + static_cast<std::ptrdiff_t>(i) + 1)))
                throw LineReader::error_at(path, b.policy_lines[i], e.what());
        throw LineReader::error_at(path, b.game_line, e.what());
    }
    for (const Target& t : b.goals) {
        std::vector<std::string> names;
        for (const auto& spec : run->metrics) names.push_back(spec.name);
        if (std::find(names.begin(), names.end(), t.metric) == names.end()) {
            std::string valid;
            for (const auto& n : names) valid += (valid.empty() ? "" : ", ") + n;
            throw LineReader::error_at(
                path, t.line,
                "target '" + t.text + "': " + std::string(game->name) + " has no metric '" +
                    t.metric + "'" + did_you_mean(t.metric, names) + " (valid: " + valid + ")");
        }
    }
    for (std::size_t i = 0; i < b.metrics.size(); ++i) {
        BaselineMetric& m = b.metrics[i];
        const auto bad = [&](const std::string& why) {
            return LineReader::error_at(path, m.line, "metric " + m.name + ": " + why);
        };
        for (std::size_t j = 0; j < i; ++j)
            if (b.metrics[j].name == m.name)
                throw bad("appears twice (first on line " + std::to_string(b.metrics[j].line) +
                          ")");
        const MetricSpec* spec = nullptr;
        for (const auto& s : run->metrics)
            if (s.name == m.name) spec = &s;
        std::uint64_t total = 0;
        for (const auto& [v, c] : m.pairs) {
            // A metric this build does not declare is reported as such; its values are bounded by
            // nothing here, and are never laid out.
            if (spec && (v < spec->lo || v > spec->hi))
                throw bad("value " + std::to_string(v) + " is outside its range " +
                          std::to_string(spec->lo) + ".." + std::to_string(spec->hi));
            if (!spec && (v < INT32_MIN || v > INT32_MAX))
                throw bad("value " + std::to_string(v) + " is not a 32-bit whole number");
            if (c < 1 || c > b.playouts)
                throw bad("count " + std::to_string(c) + " of value " + std::to_string(v) +
                          " is not from 1 to the " + std::to_string(b.playouts) + " playouts");
            if (!m.counts.emplace(static_cast<std::int32_t>(v), c).second)
                throw bad("value " + std::to_string(v) + " appears twice");
            total += c;  // both at most the playouts (1e12): no overflow
            if (total > b.playouts)
                throw bad("counts more than the " + std::to_string(b.playouts) +
                          " playouts of line " + std::to_string(b.playouts_line));
        }
        if (spec) {
            const char* kind = spec->kind == MetricKind::rate ? "rate" : "count";
            if (m.kind != kind)
                throw bad("kind '" + m.kind + "', but " + std::string(game->name) + " declares a " +
                          kind);
            const double lo = static_cast<double>(spec->lo) / spec->scale,
                         hi = static_cast<double>(spec->hi) / spec->scale;
            if (m.mean < lo || m.mean > hi)
                throw bad("mean " + format_double(m.mean) + " is outside its range " +
                          format_double(lo) + ".." + format_double(hi));
        }
        if (total != b.playouts)
            throw bad("counts " + std::to_string(total) + " playouts, not the " +
                      std::to_string(b.playouts) + " of line " + std::to_string(b.playouts_line));
    }
    // Every headline metric of the game, as odds baseline records them: one deleted is refused
    // (under this build's rules version; another version may head with other metrics).
    if (!b.targets && b.rules_version == game->rules_version)
        for (const std::string_view headline : game->headline) {
            const std::string name(headline);
            if (std::none_of(b.metrics.begin(), b.metrics.end(),
                             [&](const BaselineMetric& m) { return m.name == name; }))
                throw UsageError(path + ": the baseline lacks headline metric '" + name + "' (" +
                                 std::string(game->name) + " " + std::string(game->rules_version) +
                                 " records every one: " + joined(game->headline, ",") +
                                 "); record the baseline again with odds baseline");
        }
    return run;
}

// The counts of metric m of a tally, by stored value.
std::map<std::int32_t, std::uint64_t> counts_of(const Tally& t, std::size_t m) {
    std::map<std::int32_t, std::uint64_t> out;
    const auto c = t.counts(m);
    for (std::size_t i = 0; i < c.size(); ++i)
        if (c[i]) out[t.lo(m) + static_cast<std::int32_t>(i)] = c[i];
    return out;
}

// The distribution of recorded counts under a metric's spec, its range widened to hold every
// recorded value (a baseline made with other options may reach values this run cannot).
Distribution distribution_of(MetricSpec spec, const std::map<std::int32_t, std::uint64_t>& counts) {
    if (!counts.empty()) {
        spec.lo = std::min(spec.lo, counts.begin()->first);
        spec.hi = std::max(spec.hi, counts.rbegin()->first);
    }
    Distribution d{spec, std::vector<double>(static_cast<std::size_t>(spec.hi - spec.lo + 1), 0.0)};
    for (const auto& [v, c] : counts) d.mass[v - spec.lo] += static_cast<double>(c);
    return d;
}

std::string interval(const Summary& s) {
    std::ostringstream o;
    o << std::fixed << std::setprecision(4) << s.mean << " [" << s.ci.low << ", " << s.ci.high
      << "]";
    return o.str();
}

}  // namespace

namespace {

// --tolerance METRIC=X, each checked: METRIC a metric some given baseline records (once), X a
// number >= 0.
std::map<std::string, double> tolerances_of(const po::variables_map& vm,
                                            const std::vector<std::string>& metric_names) {
    std::map<std::string, double> out;
    if (!vm.count("tolerance")) return out;
    std::string valid;
    for (const auto& n : metric_names) valid += (valid.empty() ? "" : ", ") + n;
    for (const auto& text : vm["tolerance"].as<std::vector<std::string>>()) {
        const auto eq = text.find('=');
        if (eq == std::string::npos || eq == 0)
            throw UsageError("--tolerance '" + text +
                             "' is not METRIC=X (e.g. win=0.005; metrics: " + valid + ")");
        const std::string name = text.substr(0, eq), value = text.substr(eq + 1);
        if (std::find(metric_names.begin(), metric_names.end(), name) == metric_names.end())
            throw UsageError("--tolerance '" + text + "': no baseline given records a metric '" +
                             name + "'" + did_you_mean(name, metric_names) + " (valid: " + valid +
                             ")");
        const auto x = parse_number(value);
        if (!x || *x < 0)
            throw UsageError("--tolerance '" + text + "': '" + value +
                             "' is not a number >= 0 (the largest change of " + name +
                             "'s mean that is not an alarm, in its unit: e.g. " + name + "=0.005)");
        if (!out.emplace(name, *x).second)
            throw UsageError("--tolerance '" + text + "': " + name + " is given a tolerance twice");
    }
    return out;
}

std::string tolerance_note(const std::vector<BaselineMetric>& metrics,
                           const std::map<std::string, double>& tolerances) {
    std::string s;
    for (const auto& m : metrics)
        if (const auto t = tolerances.find(m.name); t != tolerances.end())
            s += (s.empty() ? "; tolerance " : ", ") + m.name + "=" + format_double(t->second);
    return s;
}

}  // namespace

int cmd_baseline(const std::vector<std::string>& args, Io io) {
    const auto parsed = parse_command("baseline", args, io);
    if (!parsed) return 0;
    const po::variables_map& vm = *parsed;
    const GameEntry& game = game_of(vm);
    const Settings settings = settings_of(vm);
    const auto policies = policies_of(vm);
    const auto prepared = game.prepare(settings, policies);
    const RunArgs run_args = run_args_of(vm);
    RunConfig cfg = run_args.config();
    cfg.chunk_size = prepared->chunk_size;
    if (!vm.count("out")) throw UsageError("give the baseline file to write: --out FILE");
    const std::string out = vm["out"].as<std::string>();
    const auto tolerances =
        tolerances_of(vm, std::vector<std::string>(game.headline.begin(), game.headline.end()));
    ExecutorOf share(run_args.shard, io.share);  // --shard I/N, odds merge, MPI (sim/executor.hpp)
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
            const Summary s = summarize(ds[m], false);
            f << "metric " << name << ' ' << (s.kind == MetricKind::rate ? "rate" : "count") << ' '
              << format_double(s.mean) << ' ' << format_double(s.ci.low) << ' '
              << format_double(s.ci.high);
            for (const auto& [v, c] : counts_of(r.tally, m)) f << ' ' << v << ':' << c;
            f << '\n';
            io.out << "  " << std::left << std::setw(18) << name << interval(s) << '\n';
        }
    for (const std::string_view name : game.headline)  // in the metrics' order
        if (const auto t = tolerances.find(std::string(name)); t != tolerances.end())
            f << "tolerance " << name << ' ' << format_double(t->second) << '\n';
    if (vm.count("sequential")) f << "check sequential\n";
    write_file_atomic(out, f.str());
    io.out << "wrote " << out << '\n';
    return 0;
}

namespace {

struct SeqOptions {
    double false_alarm = 1e-3, miss = 0.05;
    std::optional<std::uint64_t> cap;  // --max-playouts
};

SeqOptions seq_options_of(const po::variables_map& vm) {
    SeqOptions o;
    const auto rate = [&](const char* opt, double& into) {
        if (!vm.count(opt)) return;
        const std::string text = vm[opt].as<std::string>();
        const auto v = parse_number(text);
        if (!v || *v <= 0 || *v >= 0.5)
            throw UsageError(std::string("--") + opt + " '" + text +
                             "' is not a rate between 0 and 0.5 (exclusive), e.g. " +
                             (std::string(opt) == "miss" ? "0.05" : "0.001"));
        into = *v;
    };
    rate("false-alarm", o.false_alarm);
    rate("miss", o.miss);
    if (vm.count("max-playouts")) o.cap = parse_playouts(vm["max-playouts"].as<std::string>());
    return o;
}

struct Job {
    Baseline b;
    const GameEntry* game;
    std::unique_ptr<PreparedRun> run;
    RunConfig cfg;
    bool exact;
    bool sequential;    // --sequential, a `check sequential` record, or a targets file
    std::uint64_t cap;  // sequential: at most this many playouts
};

// A check's record of what it checks: the file, the game, the scenario and policies as played,
// the rules versions, the mode.
BaselineCheck check_of(const Job& j) {
    BaselineCheck c;
    c.file = j.b.file;
    c.game = j.b.game;
    c.scenario = j.run->scenario;
    c.policy = j.run->policy;
    c.rules_baseline = j.b.rules_version;
    c.rules_build = j.game->rules_version;
    c.exact = j.exact;
    return c;
}

std::size_t metric_index(const PreparedRun& run, const std::string& name) {
    for (std::size_t i = 0; i < run.metrics.size(); ++i)
        if (run.metrics[i].name == name) return i;
    return run.metrics.size();
}

// A sequentially tested quantity: the mean of metric m, or the share of playouts whose metric m
// is at most `value` (at_most_share) or below it.
struct Quantity {
    std::size_t m = 0;
    enum { mean, share_at_most, share_below } what = mean;
    double value = 0;
};

ShiftEstimate estimate(const Tally& t, const MetricSpec& spec, const Quantity& q) {
    const Distribution d = distribution_of(spec, counts_of(t, q.m));
    if (q.what == Quantity::mean) return mean_estimate(moments(d), spec.kind == MetricKind::rate);
    double hits = 0;
    for (std::size_t i = 0; i < d.mass.size(); ++i) {
        const double v = value_of(d.spec, i);
        if (q.what == Quantity::share_at_most ? v <= q.value : v < q.value) hits += d.mass[i];
    }
    const double n = d.total();
    return mean_estimate(Moments{n, n > 0 ? hits / n : 0, 0}, true);
}

std::string llr_text(const MetricCheck::Sequential& q) {
    std::ostringstream o;
    o << std::setprecision(3) << "LLR " << q.llr << " in (" << q.lower << ", " << q.upper << ")";
    return o.str();
}

// One baseline or targets file, checked sequentially: batches until every metric (target) is
// decided or the cap is reached. Nothing on interruption.
std::optional<BaselineCheck> check_sequential(Job& j, const SeqOptions& o,
                                              const std::map<std::string, double>& tolerances,
                                              bool progress, Io io) {
    BaselineCheck c = check_of(j);
    c.mode = j.b.targets ? "targets" : "sequential";
    c.reason = j.b.targets ? "targets" : "sequential";
    c.seed_baseline = j.b.seed;
    c.seed = j.cfg.seed;
    c.playouts_baseline = j.b.targets ? 0 : j.b.playouts;
    const std::size_t family = j.b.targets ? j.b.goals.size() : j.b.metrics.size();
    c.false_alarm = bonferroni(o.false_alarm, family);

    // One entry per metric (target): what is estimated, and its tests.
    struct Item {
        MetricCheck mc;
        std::vector<std::pair<Quantity, SequentialTest>> tests;
        std::optional<Moments> old_m;  // baselines: the recorded sample's
        std::uint64_t decided_at = 0;
    };
    std::vector<Item> items;
    if (j.b.targets) {
        for (const Target& t : j.b.goals) {
            Item it;
            it.mc.name = t.text;
            it.mc.old_s.mean = it.mc.old_s.ci.low = it.mc.old_s.ci.high =
                std::numeric_limits<double>::quiet_NaN();  // no baseline: null in the report
            const std::size_t m = metric_index(*j.run, t.metric);
            const MetricSpec& spec = j.run->metrics[m];
            const bool share = t.quantile > 0;
            // The metric's kind; the test is on a rate when the target is a percentile.
            it.mc.kind = spec.kind == MetricKind::rate ? "rate" : "count";
            const double margin = t.margin.value_or(
                share || spec.kind == MetricKind::rate
                    ? 0.01
                    : std::max(0.01, 0.01 * std::max(std::abs(t.a), std::abs(t.b))));
            it.mc.tolerance = margin;
            const double q = t.quantile / 100.0;
            if (!share)
                it.tests.emplace_back(
                    Quantity{m, Quantity::mean, 0},
                    target_sequential(t.kind, t.a, t.b, margin, c.false_alarm, o.miss));
            else if (t.kind == TargetKind::at_most)  // pXX <= v: P(X <= v) >= XX%
                it.tests.emplace_back(
                    Quantity{m, Quantity::share_at_most, t.a},
                    target_sequential(TargetKind::at_least, q, 0, margin, c.false_alarm, o.miss));
            else  // pXX >= v: P(X < v) <= XX%
                it.tests.emplace_back(
                    Quantity{m, Quantity::share_below, t.a},
                    target_sequential(TargetKind::at_most, q, 0, margin, c.false_alarm, o.miss));
            items.push_back(std::move(it));
        }
    } else {
        for (const BaselineMetric& bm : j.b.metrics) {
            Item it;
            it.mc.name = bm.name;
            it.mc.kind = bm.kind;
            const std::size_t m = metric_index(*j.run, bm.name);
            if (m == j.run->metrics.size()) {
                it.mc.reported = false;
                it.mc.old_s.mean = bm.mean;
                it.mc.old_s.ci = {bm.low, bm.high};
                it.mc.verdict = Verdict::moved;
                it.mc.line = ": the build no longer reports it";
                items.push_back(std::move(it));
                continue;
            }
            const MetricSpec& spec = j.run->metrics[m];
            const Distribution old_d = distribution_of(spec, bm.counts);
            it.mc.old_s = summarize(old_d, false);
            it.old_m = moments(old_d);
            const bool rate = spec.kind == MetricKind::rate;
            // The shift tested for: --tolerance, else the baseline's record, else the shift a
            // fixed test of the baseline's size finds at these rates (at least one step).
            double tol = 0;
            if (const auto t = tolerances.find(bm.name); t != tolerances.end())
                tol = t->second;
            else if (bm.tolerance)
                tol = *bm.tolerance;
            else
                tol = std::max(detectable_shift(std::sqrt(2 * mean_estimate(*it.old_m, rate).var),
                                                c.false_alarm, o.miss),
                               0.0);
            if (tol <= 0) tol = 1.0 / spec.scale;
            it.mc.tolerance = tol;
            it.tests.emplace_back(Quantity{m, Quantity::mean, 0},
                                  shift_sequential(tol, c.false_alarm, o.miss));
            items.push_back(std::move(it));
        }
    }

    const auto decided = [&](const Tally& t) {
        bool all = true;
        for (auto& it : items) {
            for (auto& [q, test] : it.tests) {
                const MetricSpec& spec = j.run->metrics[q.m];
                const ShiftEstimate e =
                    it.old_m ? shift_estimate(*it.old_m,
                                              moments(distribution_of(spec, counts_of(t, q.m))),
                                              spec.kind == MetricKind::rate)
                             : estimate(t, spec, q);
                test.update(e.shift, e.var);
            }
            bool open = false;
            for (const auto& [q, test] : it.tests) open = open || test.state() == SprtState::open;
            if (!open && it.decided_at == 0) it.decided_at = t.playouts();
            all = all && !open;
        }
        return all;
    };

    ProgressBar bar(j.cap, progress);
    const auto started = std::chrono::steady_clock::now();
    const RunResult r = play_batches(*j.run, j.cfg, j.cap, &bar, decided);
    bar.finish();
    if (r.partial) return std::nullopt;
    c.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    c.playouts = r.tally.playouts();

    io.out << j.b.file << ": " << j.b.game << " | " << j.run->scenario << " | " << j.run->policy
           << '\n'
           << "  " << (j.b.targets ? "targets" : "sequential check")
           << " (GSPRT): false-alarm rate " << o.false_alarm << " / " << family
           << (j.b.targets ? " targets" : " metrics") << ", miss rate " << o.miss << ", at most "
           << j.cap << " playouts in batches of " << batch_size(j.cap, j.cfg.chunk_size) << '\n';
    for (auto& it : items) {
        MetricCheck& mc = it.mc;
        if (!mc.reported) {
            io.out << "  MOVED        " << mc.name << mc.line << '\n';
            c.metrics.push_back(std::move(mc));
            continue;
        }
        // The state: h1 (moved, missed) by any test, h0 (unchanged, met) by all, else open.
        SprtState state = SprtState::h0;
        const OneSided* head = nullptr;
        for (const auto& [q, test] : it.tests) {
            if (test.state() == SprtState::h1) state = SprtState::h1;
            if (test.state() == SprtState::open && state != SprtState::h1) state = SprtState::open;
            const OneSided& h = test.headline();
            if (!head || h.llr > head->llr || h.state == SprtState::h1) head = &h;
        }
        const auto& [q0, test0] = it.tests.front();
        const MetricSpec& spec = j.run->metrics[q0.m];
        const Distribution new_d = distribution_of(spec, counts_of(r.tally, q0.m));
        mc.new_s = summarize(new_d, false);
        mc.verdict = state == SprtState::h1   ? Verdict::moved
                     : state == SprtState::h0 ? Verdict::unchanged
                                              : Verdict::inconclusive;
        MetricCheck::Sequential sq;
        sq.llr = head->llr;
        sq.lower = head->bounds.lower();
        sq.upper = head->bounds.upper();
        sq.tolerance = *mc.tolerance;
        sq.playouts = it.decided_at ? it.decided_at : r.tally.playouts();
        std::ostringstream line;
        line << std::setprecision(4);
        if (it.old_m) {
            const Moments new_m = moments(new_d);
            mc.shift = mc.new_s.mean - mc.old_s.mean;
            sq.fixed_playouts = fixed_playouts_needed(sq.tolerance, it.old_m->var, it.old_m->n,
                                                      new_m.var, c.false_alarm, o.miss);
            line << "old " << interval(mc.old_s) << "  new " << interval(mc.new_s) << "  shift "
                 << mc.shift << "  tolerance " << sq.tolerance << "  " << llr_text(sq) << "  after "
                 << sq.playouts << " playouts (a fixed test: ";
            if (std::isfinite(sq.fixed_playouts))
                line << static_cast<std::uint64_t>(sq.fixed_playouts) << ")";
            else
                line << "none suffices)";
        } else {
            // A target: the statistic it names, its bounds; no baseline, shift or tolerance.
            const Target& goal = j.b.goals[static_cast<std::size_t>(&it - items.data())];
            MetricCheck::Target mt;
            if (goal.kind != TargetKind::at_most) mt.low = goal.a;
            if (goal.kind == TargetKind::at_most) mt.high = goal.a;
            if (goal.kind == TargetKind::within) mt.high = goal.b;
            mc.tolerance.reset();
            if (q0.what == Quantity::mean) {
                mt.statistic = "mean";
                mt.value = mc.new_s.mean;
                line << "now " << interval(mc.new_s);
            } else {
                const ShiftEstimate e = estimate(r.tally, spec, q0);
                const int pct = goal.quantile;
                mt.statistic = "p" + std::to_string(pct);
                mt.value = quantile(new_d, pct);
                line << "now p" << pct << " " << mt.value << " (P("
                     << (q0.what == Quantity::share_at_most ? "<= " : "< ") << q0.value << ") "
                     << fixed(e.shift) << ")";
            }
            mc.target = mt;
            line << "  margin " << sq.tolerance << "  " << llr_text(sq) << "  after " << sq.playouts
                 << " playouts";
        }
        mc.sequential = sq;
        mc.line = line.str();
        const char* status = j.b.targets ? (mc.verdict == Verdict::moved       ? "MISSED       "
                                            : mc.verdict == Verdict::unchanged ? "met          "
                                                                               : "inconclusive ")
                                         : (mc.verdict == Verdict::moved       ? "MOVED        "
                                            : mc.verdict == Verdict::unchanged ? "unchanged    "
                                                                               : "inconclusive ");
        io.out << "  " << status << std::left << std::setw(18) << mc.name << ' ' << mc.line << '\n';
        c.metrics.push_back(std::move(mc));
    }
    switch (c.verdict()) {
        case Verdict::moved:
            io.out << (j.b.targets ? "  => a target is MISSED" : "  => the balance MOVED");
            break;
        case Verdict::inconclusive:
            io.out << "  => INCONCLUSIVE at the cap";
            break;
        default:
            io.out << (j.b.targets ? "  => every target met" : "  => unchanged");
            break;
    }
    io.out << " (" << c.playouts << " playouts)\n";
    return c;
}

}  // namespace

int cmd_check(const std::vector<std::string>& args, Io io) {
    const auto parsed = parse_command("check", args, io);
    if (!parsed) return 0;
    const po::variables_map& vm = *parsed;
    if (!vm.count("file")) throw UsageError("give one or more baseline files");
    const RunArgs run_args = run_args_of(vm);

    // Read and prepare every baseline before playing any.
    const SeqOptions seq = seq_options_of(vm);
    std::vector<Job> jobs;
    // --set and --rules FILE over baselines of several games: each setting applies where the game
    // has the option, with a note where it has not (one CI job checks a tweak across games); a
    // name no game has is a mistake.
    Settings set;
    if (vm.count("set"))
        for (const auto& s : vm["set"].as<std::vector<std::string>>())
            set.push_back(split_setting(s));
    std::vector<std::string> applied_somewhere, notes;  // notes printed once every input is good
    for (std::size_t i = 0; i < set.size(); ++i)        // each option changed once, as run takes it
        for (std::size_t j = 0; j < i; ++j)
            if (set[j].first == set[i].first)
                throw UsageError("--set '" + set[i].first + "=" + set[i].second + "': option '" +
                                 set[i].first + "' is set twice (also --set '" + set[j].first +
                                 "=" + set[j].second + "')");
    for (const auto& file : vm["file"].as<std::vector<std::string>>()) {
        Job j{read_baseline(file), nullptr, nullptr, {}, false, false, 0};
        j.run = check_baseline(j.b, j.game);
        const auto has = [&](const std::string& name) {
            return std::any_of(j.game->options.begin(), j.game->options.end(),
                               [&](const OptionInfo& o) { return o.name == name; });
        };
        Settings mine;
        if (vm.count("rules")) {
            std::vector<std::string> skipped;
            const std::string path = vm["rules"].as<std::string>();
            Settings given;
            for (const auto& [n, v] : set)
                if (has(n)) given.emplace_back(n, v);
            mine = merged_settings(read_rules_file(path, *j.game, &skipped), path, *j.game, given);
            for (const auto& n : skipped) notes.push_back(file + ": note: " + n);
        } else {
            for (const auto& [n, v] : set) {
                if (has(n))
                    mine.emplace_back(n, v);
                else
                    notes.push_back(file + ": note: " + std::string(j.game->name) +
                                    " has no rule option '" + n + "': --set " + n + "=" + v +
                                    " not applied to it");
            }
        }
        for (const auto& [n, v] : mine) applied_somewhere.push_back(n);
        const Settings& overrides = mine;
        if (!overrides.empty()) {
            Settings s = j.b.settings;
            for (const auto& [n, v] : overrides) {
                std::erase_if(s, [&](const auto& p) { return p.first == n; });
                s.emplace_back(n, v);
            }
            j.run = j.game->prepare(s, j.b.policies);
        }
        j.cfg.seed = vm.count("seed") ? parse_seed(vm["seed"].as<std::string>()) : j.b.seed;
        j.cfg.playouts =
            vm.count("playouts") ? parse_playouts(vm["playouts"].as<std::string>()) : j.b.playouts;
        j.cfg.threads = vm.count("threads") ? parse_threads(vm["threads"].as<std::string>())
                                            : std::clamp(std::thread::hardware_concurrency(), 1u,
                                                         unsigned{kMaxThreads});
        j.cfg.chunk_size = j.run->chunk_size;
        j.sequential = j.b.targets || j.b.sequential || vm.count("sequential");
        j.exact = !j.sequential && mine.empty() && j.b.rules_version == j.game->rules_version &&
                  j.cfg.seed == j.b.seed && j.cfg.playouts == j.b.playouts;
        // The cap: --max-playouts, else --playouts, else a targets file's playouts, else twice
        // the baseline's.
        j.cap = seq.cap                ? *seq.cap
                : vm.count("playouts") ? j.cfg.playouts
                : j.b.targets          ? j.b.playouts
                                       : 2 * j.b.playouts;
        if (j.sequential) j.cfg.playouts = j.cap;
        jobs.push_back(std::move(j));
    }
    for (const auto& [n, v] : set)
        if (std::find(applied_somewhere.begin(), applied_somewhere.end(), n) ==
            applied_somewhere.end())
            throw UsageError("--set " + n + "=" + v +
                             ": no game of the baselines given has a rule option '" + n + "'");
    for (const auto& n : notes) io.err << "odds check: " << n << '\n';
    std::vector<std::string> metric_names;
    for (const auto& j : jobs)
        for (const auto& m : j.b.metrics)
            if (std::find(metric_names.begin(), metric_names.end(), m.name) == metric_names.end())
                metric_names.push_back(m.name);
    const auto tolerances = tolerances_of(vm, metric_names);
    // The report files: both checked before either folder is made, both before anything is played.
    std::vector<std::pair<std::string, std::string>> reports;  // option, file
    for (const char* opt : {"junit", "json"})
        if (vm.count(opt)) {
            reports.emplace_back(std::string("--") + opt, vm[opt].as<std::string>());
            check_out_file(reports.back().second, reports.back().first);
        }
    if (reports.size() == 2 && fs::absolute(reports[0].second).lexically_normal() ==
                                   fs::absolute(reports[1].second).lexically_normal())
        throw UsageError("--junit and --json name the same file '" + reports[1].second +
                         "'; give each its own");
    for (const auto& [opt, file] : reports)  // a report never overwrites a baseline it checks
        for (const auto& j : jobs) {
            std::error_code ec;
            if (fs::equivalent(file, j.b.file, ec))
                throw UsageError(opt + " '" + file + "' is the baseline '" + j.b.file +
                                 "'; give the report its own file");
        }
    const std::optional<std::string> out_dir = out_dir_of(vm);
    const bool html = report_wanted(vm);
    if (out_dir)  // nor a file the command writes into --out DIR
        for (const auto& [opt, file] : reports)
            for (const char* own : {"check.csv", kProvenanceFile, kReportFile}) {
                if (own == std::string_view(kReportFile) && !html) continue;
                const fs::path mine = fs::path(*out_dir) / own;
                std::error_code ec;
                if (fs::absolute(file, ec).lexically_normal() ==
                        fs::absolute(mine, ec).lexically_normal() ||
                    fs::equivalent(file, mine, ec))
                    throw UsageError(opt + " '" + file + "' is the file '" + mine.string() +
                                     "' that check writes into --out; give the report its own "
                                     "file");
            }
    for (const auto& [opt, file] : reports) prepare_out_file(file, opt);
    if (out_dir) prepare_out_dir(*out_dir);

    std::uint64_t queued = 0;
    bool any_sequential = false;
    std::size_t targets = 0;
    for (const auto& j : jobs) {
        queued += j.cfg.playouts;
        any_sequential = any_sequential || j.sequential;
        targets += j.b.targets ? 1 : 0;
    }
    const std::size_t baselines = jobs.size() - targets;
    std::string what;
    if (baselines)
        what += std::to_string(baselines) + (baselines == 1 ? " baseline, " : " baselines, ");
    if (targets)
        what += std::to_string(targets) + (targets == 1 ? " targets file, " : " targets files, ");
    announce_queued(
        run_args, io, "odds check",
        what + (any_sequential ? "at most " : "") + std::to_string(queued) + " playouts",
        jobs.front().cfg.threads);
    std::vector<BaselineCheck> checks;
    for (auto& j : jobs) {
        if (j.sequential) {
            const bool decided_before = overall_verdict(checks) == Verdict::moved;
            auto c = check_sequential(j, seq, tolerances, run_args.progress(), io);
            if (!c) {
                io.err << "odds check: interrupted at " << j.b.file << "; the files before it were "
                       << (decided_before ? "decided: the balance MOVED" : "not moved")
                       << (reports.empty() ? "" : "; no report written") << '\n';
                return decided_before ? 1 : 130;
            }
            checks.push_back(std::move(*c));
            continue;
        }
        ProgressBar bar(j.cfg.playouts, run_args.progress());
        const auto started = std::chrono::steady_clock::now();
        const RunResult r = play(*j.run, j.cfg, &bar);
        bar.finish();
        const bool moved_before = overall_verdict(checks) == Verdict::moved;
        if (r.partial) {
            io.err << "odds check: interrupted at " << j.b.file << "; the files before it were "
                   << (moved_before ? "decided: the balance MOVED" : "unchanged")
                   << (reports.empty() ? "" : "; no report written") << '\n';
            return moved_before ? 1 : 130;
        }
        BaselineCheck c = check_of(j);
        c.seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        c.seed_baseline = j.b.seed;
        c.seed = j.cfg.seed;
        c.playouts_baseline = j.b.playouts;
        c.playouts = j.cfg.playouts;
        c.false_alarm = kFalseAlarm / static_cast<double>(j.b.metrics.size());
        if (!j.exact)
            c.reason = j.b.rules_version != j.game->rules_version
                           ? "rules version " + j.b.rules_version + " -> " + c.rules_build
                           : std::string("changed seed, playouts or options");

        io.out << j.b.file << ": " << j.b.game << " | " << j.run->scenario << " | " << j.run->policy
               << '\n';
        if (j.exact)
            io.out << "  exact check: rules version " << j.b.rules_version << ", seed " << j.b.seed
                   << ", " << j.b.playouts << " playouts: every count must match"
                   << tolerance_note(j.b.metrics, tolerances) << '\n';
        else
            io.out << "  statistical check (" << c.reason << "): false-alarm rate " << kFalseAlarm
                   << " per metric / " << j.b.metrics.size() << " metrics"
                   << tolerance_note(j.b.metrics, tolerances) << '\n';
        for (const auto& bm : j.b.metrics) {
            MetricCheck mc;
            mc.name = bm.name;
            mc.kind = bm.kind;
            if (const auto t = tolerances.find(bm.name); t != tolerances.end())
                mc.tolerance = t->second;
            std::size_t m = j.run->metrics.size();
            for (std::size_t i = 0; i < j.run->metrics.size(); ++i)
                if (j.run->metrics[i].name == bm.name) m = i;
            if (m == j.run->metrics.size()) {
                mc.reported = false;
                mc.old_s.mean = bm.mean;
                mc.old_s.ci = {bm.low, bm.high};
                mc.verdict = Verdict::moved;
                mc.line = ": the build no longer reports it";
                io.out << "  MOVED      " << bm.name << mc.line << '\n';
                c.metrics.push_back(std::move(mc));
                continue;
            }
            const MetricSpec& spec = j.run->metrics[m];
            const auto now = counts_of(r.tally, m);
            const Distribution old_d = distribution_of(spec, bm.counts);
            const Distribution new_d = distribution_of(spec, now);
            mc.old_s = summarize(old_d, false);
            mc.new_s = summarize(new_d, false);
            mc.shift = mc.new_s.mean - mc.old_s.mean;
            std::ostringstream line;
            line << "old " << interval(mc.old_s) << "  new " << interval(mc.new_s);
            if (j.exact) {
                mc.counts_match = now == bm.counts;
                mc.verdict = exact_verdict(mc.counts_match, mc.shift, mc.tolerance);
                if (!mc.counts_match && !mc.tolerance)
                    line << "  counts differ: the kernel plays differently";
                else if (!mc.counts_match)
                    line << std::setprecision(4) << "  counts differ: mean shift " << mc.shift
                         << (mc.verdict == Verdict::tolerated ? " within" : " beyond")
                         << " tolerance " << *mc.tolerance;
            } else {
                const auto t = shift_test(moments(old_d), moments(new_d), c.false_alarm);
                const double x = mc.tolerance.value_or(0.0);
                mc.shift = t.diff;
                mc.threshold = t.threshold;
                mc.detectable = x + t.detectable;
                mc.verdict = statistical_verdict(t, mc.tolerance);
                line << std::setprecision(4) << "  shift " << t.diff << " (alarm above ";
                if (mc.tolerance)
                    line << x + t.threshold << ": tolerance " << x << " + " << t.threshold;
                else
                    line << t.threshold;
                line << "; detectable " << *mc.detectable << ")";
            }
            mc.line = line.str();
            const char* status = mc.verdict == Verdict::moved       ? "MOVED      "
                                 : mc.verdict == Verdict::tolerated ? "tolerated  "
                                                                    : "unchanged  ";
            std::ostringstream row;
            row << "  " << status << std::left << std::setw(18) << bm.name << ' ' << mc.line
                << '\n';
            io.out << row.str();
            c.metrics.push_back(std::move(mc));
        }
        switch (c.verdict()) {
            case Verdict::inconclusive:  // sequential checks only
            case Verdict::moved:
                io.out << "  => the balance MOVED\n";
                break;
            case Verdict::tolerated:
                io.out
                    << "  => unchanged within tolerance (a change no larger than the tolerance)\n";
                break;
            case Verdict::unchanged:
                io.out << "  => unchanged\n";
                break;
        }
        checks.push_back(std::move(c));
    }
    for (const auto& [opt, file] : reports) {
        write_file_atomic(
            file, opt == "--junit" ? check_junit(checks) : check_json(checks, ODDS_VERSION));
        io.err << "odds check: wrote " << file << '\n';  // stdout keeps the table alone
    }
    if (out_dir) {
        const fs::path dir(*out_dir);
        std::vector<std::string> game_list;
        for (const auto& c : checks) game_list.push_back(c.game);
        write_files_atomic({{dir / "check.csv", check_csv(checks)},
                            provenance_file(dir, "check", args, game_list)});
        if (html) write_report(dir, "check", io);
    }
    return verdict_exit_code(overall_verdict(checks));
}

}  // namespace odds::cli
