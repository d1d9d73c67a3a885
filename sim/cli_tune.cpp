// odds tune: search rule options for the setting that best meets a target on one metric.
//
//   odds tune GAME --vary NAME=LO..HI[:STEP] [--vary ...] --target METRIC=VALUE | "METRIC max" |
//             "METRIC min" [run options] [--out DIR]
//
// One option and a target value: bisection over the option's whole numbers, assuming the metric
// moves monotonically with it (the path shows when it does not bracket the target). Otherwise
// (several options, or max / min): successive halving over every combination, each round played
// with the same seed (common random numbers: chunk k of every candidate starts from the same
// dice), the better half kept and its playouts doubled, to the last candidate. Where the game has
// an exact solver that resolves the point, its exact value is used instead of playing; where it
// leaves probability unresolved its bounds are used when they decide (bisection), else the point
// is played.
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <iomanip>
#include <limits>
#include <optional>
#include <sstream>

#include "engine/stop.hpp"
#include "reports/csv.hpp"
#include "reports/stats.hpp"
#include "sim/cli_args.hpp"
#include "sim/cli_commands.hpp"
#include "sim/cli_report.hpp"
#include "sim/cli_spec.hpp"
#include "sim/interrupt.hpp"

namespace odds::cli {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxCandidates = 4096;

struct Range {
    std::string name;
    std::int64_t lo = 0, hi = 0, step = 1;
    // A whole-number part of a value (docs/variants.md): the value is before + N + after, N in
    // LO..HI ("{1..6}d6": 1d6 .. 6d6; "{3..6}-6": the faces from N to 6).
    std::string before, after;
    std::size_t size() const { return static_cast<std::size_t>((hi - lo) / step) + 1; }
    std::int64_t at(std::size_t i) const { return lo + static_cast<std::int64_t>(i) * step; }
    std::string text(std::int64_t v) const { return before + std::to_string(v) + after; }
};

// NAME=LO..HI[:STEP], or its alias NAME=LO:HI:STEP (sweep's spelling): sim/cli_common.hpp.
Range parse_tune_range(const std::string& text) {
    const auto bad = [&](const std::string& why) {
        return UsageError("--vary '" + text + "': " + why +
                          " (tune takes NAME=" + std::string(kRangeForms) +
                          ", LO < HI; or a whole-number part of a value in braces, "
                          "NAME={1..6}d6)");
    };
    const auto eq = text.find('=');
    if (eq == std::string::npos || eq == 0) throw bad("no NAME=");
    Range r;
    r.name = text.substr(0, eq);
    std::string spec = text.substr(eq + 1);
    if (const auto open = spec.find('{'); open != std::string::npos) {  // a part of the value
        const auto close = spec.find('}', open);
        if (close == std::string::npos) throw bad("a '{' without its '}'");
        r.before = spec.substr(0, open);
        r.after = spec.substr(close + 1);
        if (r.before.find_first_of("{}") != std::string::npos ||
            r.after.find_first_of("{}") != std::string::npos)
            throw bad("more than one {LO..HI}");
        spec = spec.substr(open + 1, close - open - 1);
    }
    if (!is_range(spec)) throw bad("no LO..HI");
    std::string why;
    const auto range = parse_range(spec, why);
    if (!range) throw bad(why);
    if (range->lo == range->hi) throw bad("LO is not below HI");
    r.lo = range->lo;
    r.hi = range->hi;
    r.step = range->step;
    r.hi = r.lo + static_cast<std::int64_t>(r.size() - 1) * r.step;  // on the grid
    return r;
}

struct Goal {
    std::string metric;
    enum { value, max, min } what = value;
    double target = 0;
    std::string text;
};

Goal parse_goal(const std::string& text) {
    Goal g;
    g.text = text;
    const auto eq = text.find('=');
    const auto space = text.find(' ');
    if (eq != std::string::npos && eq > 0) {
        g.metric = text.substr(0, eq);
        const std::string v = text.substr(eq + 1);
        double x = 0;
        std::istringstream in(v);
        if (!(in >> x) || !(in >> std::ws).eof() || !std::isfinite(x))
            throw UsageError("--target '" + text + "': '" + v +
                             "' is not a number (valid: METRIC=VALUE, 'METRIC max', 'METRIC min')");
        g.target = x;
        return g;
    }
    if (space != std::string::npos && space > 0) {
        g.metric = text.substr(0, space);
        const std::string w = text.substr(space + 1);
        if (w == "max" || w == "min") {
            g.what = w == "max" ? Goal::max : Goal::min;
            return g;
        }
    }
    throw UsageError("--target '" + text +
                     "' is not METRIC=VALUE, 'METRIC max' or 'METRIC min' (e.g. win=0.25)");
}

// One evaluation of a setting.
struct Eval {
    std::vector<std::int64_t> values;
    std::string scenario;
    double mean = std::numeric_limits<double>::quiet_NaN();  // NaN: exact with unresolved mass
    double low = 0, high = 0;                                // 95% interval, or exact bounds
    std::uint64_t playouts = 0;                              // 0: exact
    std::string method;                                      // exact, monte_carlo
    std::string phase;                                       // bisection, halving, scan
    int round = 0;
    bool best = false;
};

struct Tuner {
    const GameEntry& game;
    const Settings& base;
    const std::vector<std::string>& policies;
    const std::vector<Range>& ranges;
    const Goal& goal;
    RunConfig cfg;
    bool use_exact;
    bool progress;
    std::vector<Eval> path;
    std::size_t candidates = 0;  // successive halving's settings

    Settings settings_for(const std::vector<std::int64_t>& values) const {
        Settings s = base;
        for (std::size_t i = 0; i < ranges.size(); ++i)
            s.emplace_back(ranges[i].name, ranges[i].text(values[i]));
        return s;
    }

    // The exact value, when the solver takes this setting; nullopt to play it.
    std::optional<Eval> exact(const std::vector<std::int64_t>& values) const {
        if (!use_exact || !game.exact) return std::nullopt;
        try {
            const ExactReport rep = game.exact(settings_for(values), policies);
            for (const auto& law : rep.laws) {
                if (law.spec.name != goal.metric) continue;
                const Summary s = summarize(law, true);
                Eval e;
                e.values = values;
                e.scenario = rep.scenario;
                e.mean = s.bounded() ? std::numeric_limits<double>::quiet_NaN() : s.mean;
                e.low = s.ci.low;
                e.high = s.ci.high;
                e.method = "exact";
                return e;
            }
        } catch (const UsageError&) {  // beyond the solver's limits: play it
        }
        return std::nullopt;
    }

    Eval play_it(const std::vector<std::int64_t>& values, std::uint64_t playouts) const {
        const auto run = game.prepare(settings_for(values), policies);
        RunConfig one = cfg;
        one.playouts = playouts;
        one.chunk_size = run->chunk_size;
        ProgressBar bar(playouts, progress);
        const RunResult r = play(*run, one, &bar);
        bar.finish();
        if (r.partial) throw Interrupted{};
        Eval e;
        e.values = values;
        e.scenario = run->scenario;
        const auto ds = distributions(r.tally, run->metrics);
        for (const auto& d : ds)
            if (d.spec.name == goal.metric) {
                const Summary s = summarize(d, false);
                e.mean = s.mean;
                e.low = s.ci.low;
                e.high = s.ci.high;
            }
        e.playouts = r.tally.playouts();
        e.method = "monte_carlo";
        return e;
    }

    struct Interrupted {};

    // Higher is better.
    double score(const Eval& e) const {
        const double m = std::isnan(e.mean) ? (e.low + e.high) / 2 : e.mean;
        switch (goal.what) {
            case Goal::max:
                return m;
            case Goal::min:
                return -m;
            case Goal::value:
                break;
        }
        return -std::abs(m - goal.target);
    }

    Eval& record(Eval e, const char* phase, int round) {
        e.phase = phase;
        e.round = round;
        path.push_back(std::move(e));
        return path.back();
    }

    // Bisection on ranges[0]: the sign of mean - target at a point, exact bounds used when they
    // decide it.
    void bisect() {
        const Range& r = ranges.front();
        const auto sign_at = [&](std::size_t i) {
            std::optional<Eval> e = exact({r.at(i)});
            if (e && std::isnan(e->mean) && goal.target >= e->low && goal.target <= e->high)
                e.reset();  // the bounds straddle the target: play it
            const Eval& got = record(e ? *e : play_it({r.at(i)}, cfg.playouts), "bisection", 0);
            const double m = std::isnan(got.mean) ? (got.low + got.high) / 2 : got.mean;
            return m < goal.target ? -1 : m > goal.target ? 1 : 0;
        };
        std::size_t lo = 0, hi = r.size() - 1;
        const int s_lo = sign_at(lo), s_hi = sign_at(hi);
        if (s_lo != 0 && s_hi != 0 && s_lo != s_hi) {
            while (hi - lo > 1) {
                const std::size_t mid = lo + (hi - lo) / 2;
                const int s = sign_at(mid);
                if (s == 0) break;
                (s == s_lo ? lo : hi) = mid;
            }
        }
        mark_best();
    }

    // Successive halving over every combination (exact values: one scan, no halving needed).
    void halve() {
        std::vector<std::vector<std::int64_t>> cands(1);
        for (const auto& r : ranges) {
            std::vector<std::vector<std::int64_t>> next;
            for (const auto& c : cands)
                for (std::size_t i = 0; i < r.size(); ++i) {
                    auto v = c;
                    v.push_back(r.at(i));
                    next.push_back(std::move(v));
                }
            cands = std::move(next);
        }
        // Exact where the solver resolves every candidate.
        std::vector<Eval> exacts;
        for (const auto& c : cands) {
            auto e = exact(c);
            if (!e || std::isnan(e->mean)) {
                exacts.clear();
                break;
            }
            exacts.push_back(std::move(*e));
        }
        if (!exacts.empty()) {
            for (auto& e : exacts) record(std::move(e), "scan", 0);
            mark_best();
            return;
        }
        candidates = cands.size();
        int rounds = 0;
        while ((std::size_t{1} << rounds) < cands.size()) ++rounds;
        std::vector<std::size_t> alive(cands.size());
        for (std::size_t i = 0; i < alive.size(); ++i) alive[i] = i;
        for (int round = 0;; ++round) {
            // Twice the playouts each round, the last (round `rounds`) all of --playouts.
            const std::uint64_t n = std::max<std::uint64_t>(
                1, cfg.playouts >> static_cast<unsigned>(std::max(0, rounds - round)));
            std::vector<std::pair<double, std::size_t>> scored;  // score, index into path
            for (const std::size_t i : alive) {
                record(play_it(cands[i], n), "halving", round);
                scored.emplace_back(score(path.back()), i);
            }
            if (alive.size() == 1) break;
            std::stable_sort(scored.begin(), scored.end(),
                             [](const auto& a, const auto& b) { return a.first > b.first; });
            alive.clear();
            for (std::size_t k = 0; k < (scored.size() + 1) / 2; ++k)
                alive.push_back(scored[k].second);
        }
        path.back().best = true;  // the last round's one candidate
    }

    void mark_best() { mark_best_of(0); }

    // The best of path[from..], marked (nothing when that is empty).
    void mark_best_of(std::size_t from) {
        if (from >= path.size()) return;
        std::size_t best = from;
        for (std::size_t i = from + 1; i < path.size(); ++i)
            if (score(path[i]) > score(path[best])) best = i;
        path[best].best = true;
    }

    // After a stop: the best so far. Bisection: the best of the path, as at its end. Successive
    // halving: the best of its last finished round (every candidate alive played alike), or of
    // the candidates round 0 played when it did not finish; a scan writes nothing until every
    // setting is solved, so has no path. (docs/output.md)
    void mark_best_so_far(bool bisection) {
        for (auto& e : path) e.best = false;
        if (bisection || path.empty()) return mark_best();
        // Round r played ceil(candidates / 2^r) settings; the last round with its full count.
        std::size_t from = 0, alive = candidates;
        for (std::size_t i = 0; i < path.size();) {
            std::size_t j = i;
            while (j < path.size() && path[j].round == path[i].round) ++j;
            if (j - i == alive) from = i;  // a finished round
            if (j - i < alive) break;
            alive = (alive + 1) / 2;
            i = j;
        }
        mark_best_of(from);
    }
};

}  // namespace

int cmd_tune(const std::vector<std::string>& args, Io io) {
    const auto parsed = parse_command("tune", args, io);
    if (!parsed) return 0;
    const po::variables_map& vm = *parsed;
    const GameEntry& game = game_of(vm);
    if (!vm.count("vary")) throw UsageError("nothing to tune: give --vary NAME=LO..HI");
    if (!vm.count("target"))
        throw UsageError("no target: give --target METRIC=VALUE, 'METRIC max' or 'METRIC min'");
    std::vector<Range> ranges;
    for (const auto& text : vm["vary"].as<std::vector<std::string>>()) {
        ranges.push_back(parse_tune_range(text));
        for (std::size_t i = 0; i + 1 < ranges.size(); ++i)
            if (ranges[i].name == ranges.back().name)
                throw UsageError("--vary '" + text + "': " + ranges.back().name +
                                 " is varied twice");
    }
    const Goal goal = parse_goal(vm["target"].as<std::string>());
    const Settings base = settings_of(vm);
    for (const auto& r : ranges)
        for (const auto& [n, v] : base)
            if (n == r.name)
                throw UsageError("option '" + n + "' is both set (--set) and varied (--vary)");
    std::size_t total = 1;
    for (const auto& r : ranges) {
        total *= r.size();
        if (total > kMaxCandidates)
            throw UsageError("the search has more than " + std::to_string(kMaxCandidates) +
                             " settings: narrow the ranges or give a STEP (NAME=LO..HI:STEP)");
    }
    const auto policies = policies_of(vm);
    const RunArgs run_args = run_args_of(vm);
    RunConfig cfg = run_args.config();
    // Every input checked before anything is played: both ends of every range, and the metric.
    std::unique_ptr<PreparedRun> probe;
    for (const bool high : {false, true}) {
        Settings s = base;
        for (const auto& r : ranges) s.emplace_back(r.name, r.text(high ? r.hi : r.lo));
        probe = game.prepare(s, policies);
    }
    {
        std::vector<std::string> names;
        for (const auto& m : probe->metrics) names.push_back(m.name);
        if (std::find(names.begin(), names.end(), goal.metric) == names.end()) {
            std::string valid;
            for (const auto& n : names) valid += (valid.empty() ? "" : ", ") + n;
            throw UsageError("--target '" + goal.text + "': " + std::string(game.name) +
                             " has no metric '" + goal.metric + "'" +
                             did_you_mean(goal.metric, names) + " (valid: " + valid + ")");
        }
    }
    const std::optional<std::string> out_dir = out_dir_of(vm);
    const bool report = report_wanted(vm);

    bool bisection = ranges.size() == 1 && goal.what == Goal::value;
    if (vm.count("search")) {
        const std::string how = vm["search"].as<std::string>();
        if (how != "bisection" && how != "halving")
            throw UsageError("--search '" + how + "' (valid: bisection, halving)");
        if (how == "bisection" && !bisection)
            throw UsageError("--search bisection takes one --vary and a METRIC=VALUE target");
        bisection = how == "bisection";
    }
    if (out_dir) prepare_out_dir(*out_dir);
    Tuner t{game, base, policies, ranges, goal, cfg, !vm.count("no-exact"), run_args.progress(),
            {},   0};
    announce_queued(run_args, io, "odds tune",
                    std::string(bisection ? "bisection" : "successive halving") + " over " +
                        std::to_string(total) + " settings, up to " + std::to_string(cfg.playouts) +
                        " playouts each",
                    cfg.threads);
    bool interrupted = false;
    try {
        InterruptGuard guard;  // the exact solver's evaluations too, not only the playouts
        bisection ? t.bisect() : t.halve();
    } catch (const Tuner::Interrupted&) {
        interrupted = true;
    } catch (const StopRequested&) {  // inside the exact solver
        interrupted = true;
    }
    if (interrupted) t.mark_best_so_far(bisection);

    std::string csv = "game,scenario,policy,seed,step,phase,round";
    for (const auto& r : ranges) csv += ',' + csv_field(r.name);
    csv += ",metric,target,mean,ci_low,ci_high,playouts,method,best,status\n";
    std::ostringstream table;
    table << game.name << " tune | " << probe->policy << " | target " << goal.text << " | "
          << (bisection ? "bisection" : "successive halving") << ", seed " << cfg.seed
          << ", common random numbers\n";
    table << std::left << std::setw(6) << "step" << std::setw(11) << "phase";
    for (const auto& r : ranges) table << std::setw(14) << r.name;
    table << std::setw(36) << goal.metric << "playouts\n";
    const Eval* best = nullptr;
    for (std::size_t i = 0; i < t.path.size(); ++i) {
        const Eval& e = t.path[i];
        if (e.best) best = &e;
        csv += csv_field(game.name) + ',' + csv_field(e.scenario) + ',' + csv_field(probe->policy) +
               ',' + std::to_string(cfg.seed) + ',' + std::to_string(i + 1) + ',' + e.phase + ',' +
               std::to_string(e.round);
        for (std::size_t k = 0; k < e.values.size(); ++k)
            csv += ',' + csv_field(ranges[k].text(e.values[k]));
        csv += ',' + csv_field(goal.metric) + ',' + csv_field(goal.text) + ',' +
               (std::isnan(e.mean) ? "" : format_double(e.mean)) + ',' + format_double(e.low) +
               ',' + format_double(e.high) + ',' + (e.playouts ? std::to_string(e.playouts) : "") +
               ',' + e.method + ',' + (e.best ? "true" : "false") + ',' +
               (interrupted ? "partial" : "complete") + '\n';
        table << std::setw(6) << (i + 1) << std::setw(11) << e.phase;
        for (std::size_t k = 0; k < e.values.size(); ++k)
            table << std::setw(14) << ranges[k].text(e.values[k]);
        table << std::setw(36)
              << ((std::isnan(e.mean) ? std::string("?") : fixed(e.mean)) + " [" + fixed(e.low) +
                  ", " + fixed(e.high) + "]")
              << (e.playouts ? std::to_string(e.playouts) : std::string("exact"))
              << (e.best ? "  <- best" : "") << '\n';
    }
    io.out << table.str();
    if (best) {
        io.out << (interrupted ? "best so far:" : "best:");
        for (std::size_t i = 0; i < ranges.size(); ++i)
            io.out << ' ' << ranges[i].name << '=' << ranges[i].text(best->values[i]);
        io.out << "  " << goal.metric << ' '
               << (std::isnan(best->mean) ? std::string("?") : fixed(best->mean)) << " ["
               << fixed(best->low) << ", " << fixed(best->high) << "]"
               << (best->playouts ? " (95% interval)" : " (exact)") << '\n';
    }
    if (out_dir) {
        const fs::path dir(*out_dir);
        write_files_atomic({{dir / "tune.csv", csv},
                            provenance_file(dir, "tune", args, {std::string(game.name)})});
        if (report) write_report(dir, "tune", io);
    }
    if (interrupted) {
        io.err << "odds tune: interrupted; the path so far is shown (and written, marked partial, "
                  "with the best so far)\n";
        return 130;
    }
    return 0;
}

}  // namespace odds::cli
