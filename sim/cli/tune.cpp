// odds tune: search rule options for the setting that best meets one or more targets.
//
//   odds tune GAME --vary NAME=VALUES [--vary ...] --target GOAL [--target ...] [run options]
//             [--search bisection|halving|ntbea] [NTBEA options] [--out DIR [--report]]
//
// The command line is read once, into a TuneSpec (sim/tune_search.hpp); a Tuner searches (one
// option and one METRIC=VALUE: bisection; otherwise, one plain target over at most 4096 settings:
// successive halving; several targets, a weighted or 'within' target, or a larger space: NTBEA,
// sim/ntbea.hpp); then the path, the best setting and its variant file are written here. Where
// the game has an exact solver that resolves a setting, its exact value is used instead of
// playing (docs/commands.md).
#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <filesystem>
#include <iomanip>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <thread>

#include "engine/dice.hpp"
#include "engine/stop.hpp"
#include "reports/csv.hpp"
#include "reports/schema.hpp"
#include "reports/stats.hpp"
#include "sim/cli/args.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/report.hpp"
#include "sim/cli/spec.hpp"
#include "sim/cli/vary.hpp"
#include "sim/interrupt.hpp"
#include "sim/rules_file.hpp"
#include "sim/runner.hpp"
#include "sim/tune_search.hpp"

namespace odds::cli {

namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMaxCandidates = 4096;  // bisection and successive halving
constexpr double kMaxSpace = 1e15;            // NTBEA

std::uint64_t count_option(const Value& given, const char* name, std::uint64_t lo,
                           std::uint64_t hi) {
    const std::string s = *given;
    std::uint64_t v = 0;
    bool read = s == "0";
    try {
        if (!read) v = parse_playouts(s);
        read = true;
    } catch (const UsageError&) {}
    if (!read || v < lo || v > hi)
        throw UsageError("--" + std::string(name) + " '" + s + "' is not valid; give a whole " +
                         "number from " + std::to_string(lo) + " to " + std::to_string(hi));
    return v;
}

// One target, unweighted, METRIC=VALUE or max / min: the searches as they were before several
// targets (no confirmation; their output unchanged).
bool one_plain_target(const std::vector<tune::Target>& targets) {
    return targets.size() == 1 && !targets[0].weighted &&
           targets[0].kind != tune::Target::Kind::within;
}

// The search: --search, else bisection (one ordered knob, one METRIC=VALUE target), halving (one
// unweighted value / max / min target over at most 4096 settings) or NTBEA.
SearchKind search_of(const Args& opt, const TuneSpec& s, double space) {
    const bool one_plain = one_plain_target(s.targets);
    const bool can_bisect = s.knobs.size() == 1 && s.knobs[0].ordered && one_plain &&
                            s.targets[0].kind == tune::Target::Kind::value;
    // Halving wherever it can play every setting: it beat NTBEA on the same budget there
    // (tests/test_ntbea.cpp, docs/commands.md).
    SearchKind kind = can_bisect                ? SearchKind::bisection
                      : space <= kMaxCandidates ? SearchKind::halving
                                                : SearchKind::ntbea;
    if (opt.search) {
        const std::string how = *opt.search;
        if (how != "bisection" && how != "halving" && how != "ntbea")
            throw UsageError("--search '" + how + "' (valid: bisection, halving, ntbea)");
        if (how == "bisection" && !can_bisect)
            throw UsageError(
                "--search bisection takes one --vary of whole numbers (a range) and one "
                "METRIC=VALUE target");
        kind = how == "bisection" ? SearchKind::bisection
               : how == "halving" ? SearchKind::halving
                                  : SearchKind::ntbea;
    }
    if (kind != SearchKind::ntbea && space > kMaxCandidates)
        throw UsageError("the search has more than " + std::to_string(kMaxCandidates) +
                         " settings: narrow the ranges or give a STEP (NAME=LO..HI:STEP), or "
                         "search with --search ntbea");
    if (kind == SearchKind::ntbea && space > kMaxSpace)
        throw UsageError("the search has more than 1e15 settings: narrow the ranges");
    for (const auto& [o, given] : {std::pair{"budget", &opt.budget},
                                   {"trial-playouts", &opt.trial_playouts},
                                   {"explore", &opt.explore},
                                   {"neighbours", &opt.neighbours},
                                   {"deviations", &opt.deviations}})
        if (kind != SearchKind::ntbea && given->given())
            throw UsageError(std::string("--") + o +
                             " is NTBEA's (--search ntbea, the default over more than 4096 "
                             "settings)");
    if (one_plain && kind != SearchKind::ntbea && opt.finalists.given())
        throw UsageError(
            "--finalists: one plain target's search confirms no finalists (several "
            "targets, a weighted or 'within' one, or --search ntbea do)");
    return kind;
}

void read_ntbea_options(const Args& opt, TuneSpec& s) {
    s.ntbea.trials = count_option(opt.budget, "budget", 1, 1000000);
    s.trial_playouts = count_option(opt.trial_playouts, "trial-playouts", 1, 1000000000);
    s.finalists = static_cast<std::size_t>(count_option(opt.finalists, "finalists", 1, 100));
    s.ntbea.neighbours =
        static_cast<std::size_t>(count_option(opt.neighbours, "neighbours", 1, 10000));
    s.ntbea.deviations =
        static_cast<std::size_t>(count_option(opt.deviations, "deviations", 0, 1000));
    const std::string k = *opt.explore;
    std::istringstream in(k);
    if (!(in >> s.ntbea.explore) || !(in >> std::ws).eof() || !std::isfinite(s.ntbea.explore) ||
        s.ntbea.explore < 0)
        throw UsageError("--explore '" + k + "' is not valid; give a number from 0 up (1: TAG's)");
    s.ntbea.seed = stream_seed(s.cfg.seed, kConfirmStream + 1);
}

// Every target's metric is one the game reports (at the probe setting).
void check_metrics(const TuneSpec& s, const PreparedRun& probe) {
    std::vector<std::string> names;
    for (const auto& m : probe.metrics) names.push_back(m.name);
    std::string valid;
    for (const auto& n : names) valid += (valid.empty() ? "" : ", ") + n;
    for (const auto& t : s.targets)
        if (std::find(names.begin(), names.end(), t.metric) == names.end())
            throw UsageError("--target '" + t.text + "': " + std::string(s.game->name) +
                             " has no metric '" + t.metric + "'" + did_you_mean(t.metric, names) +
                             " (valid: " + valid + ")");
}

// Each listed value through the game's own reading (its message names the option and what is
// valid): alone, or else beside the other knobs' first values, or their last (a value valid only
// with another knob's, Bosconian-D's sectors=6 with bases=2, passes). Then both ends of every
// knob together; returns the last run prepared (the probe).
std::unique_ptr<PreparedRun> check_values(const TuneSpec& s) {
    const auto with_others = [&](std::size_t knob, const std::string& v, int others) {
        Settings one = s.base;
        for (std::size_t i = 0; i < s.knobs.size(); ++i)
            if (i == knob)
                one.emplace_back(s.knobs[i].name, v);
            else if (others)
                one.emplace_back(s.knobs[i].name,
                                 others < 0 ? s.knobs[i].values.front() : s.knobs[i].values.back());
        return one;
    };
    for (std::size_t k = 0; k < s.knobs.size(); ++k) {
        if (s.knobs[k].ordered) continue;  // a range: its ends, below
        for (const auto& v : s.knobs[k].values) {
            try {
                s.game->prepare(with_others(k, v, 0), s.policies);
            } catch (const UsageError&) {
                bool passes = false;
                for (const int others : {-1, 1}) try {
                        s.game->prepare(with_others(k, v, others), s.policies);
                        passes = true;
                    } catch (const UsageError&) {}
                if (!passes) throw;
            }
        }
    }
    // Both ends; with a list among the knobs an end the game refuses is skipped (the search skips
    // such settings), as long as one end is played.
    const bool lists =
        std::any_of(s.knobs.begin(), s.knobs.end(), [](const Knob& k) { return !k.ordered; });
    std::unique_ptr<PreparedRun> probe;
    std::optional<UsageError> refused;
    for (const bool high : {false, true}) {
        Settings one = s.base;
        for (const auto& k : s.knobs)
            one.emplace_back(k.name, high ? k.values.back() : k.values[0]);
        try {
            probe = s.game->prepare(one, s.policies);
        } catch (const UsageError& e) {
            if (!lists) throw;
            if (!refused) refused = e;
        }
    }
    if (!probe) throw *refused;
    return probe;
}

struct TuneArgs {
    TuneSpec spec;
    RunArgs run;  // --playouts, --seed, --threads, --no-progress (sim/cli/args.hpp)
    std::unique_ptr<PreparedRun> probe;  // the first and last settings checked; its policy
    std::optional<std::string> out_dir;
    bool report = false;
    double space = 1;  // settings in all
};

// `writes`: this process writes --out (one process, or rank 0 under mpirun).
TuneArgs read_args(const Args& opt, bool writes) {
    TuneArgs a;
    TuneSpec& s = a.spec;
    s.game = &game_of(opt);
    if (opt.vary.empty()) throw UsageError("nothing to tune: give --vary NAME=LO..HI");
    if (opt.target.empty())
        throw UsageError(
            "no target: give --target METRIC=VALUE, 'METRIC within LO..HI', 'METRIC max' or "
            "'METRIC min'");
    for (auto& v : parse_varies(opt.vary, *s.game, kTuneVary))
        s.knobs.push_back({std::move(v.name), std::move(v.values), v.ordered});
    for (const auto& t : opt.target) {
        s.targets.push_back(tune::parse_target(t));
        // A metric aimed at twice would count twice in the combined distance, silently.
        for (std::size_t i = 0; i + 1 < s.targets.size(); ++i)
            if (s.targets[i].metric == s.targets.back().metric)
                throw UsageError("--target '" + t + "': " + s.targets.back().metric +
                                 " is aimed at already ('" + s.targets[i].text +
                                 "'); give a metric one target, with @WEIGHT to weigh it");
    }
    s.base = settings_of(opt);
    for (const auto& k : s.knobs)
        for (const auto& [n, v] : s.base)
            if (n == k.name)
                throw UsageError("option '" + n + "' is both set (--set) and varied (--vary)");
    for (const auto& k : s.knobs) a.space *= static_cast<double>(k.values.size());
    a.run = run_args_of(opt);
    if (opt.dry_run && opt.sharing.team)
        throw UsageError("--dry-run under mpirun: time the search with one process");
    if (a.run.shard && opt.sharing.team)
        throw UsageError("--shard '" + a.run.shard->text +
                         "' under mpirun: odds tune shares each evaluation over the ranks itself; "
                         "give mpirun without --shard");
    if (a.run.shard || opt.sharing.executor)
        throw UsageError(
            "odds tune does not shard (--shard, odds merge): which setting it plays next depends "
            "on what it has played, so its work cannot be declared as shards before it plays; "
            "run it under mpirun, which shares each evaluation over the ranks, or in one "
            "process, which plays on every core (--threads)");
    s.policies = opt.policy;
    s.cfg = a.run.config();
    s.search = search_of(opt, s, a.space);
    read_ntbea_options(opt, s);
    s.confirm_halving = s.search == SearchKind::halving && !one_plain_target(s.targets);
    a.probe = check_values(s);
    check_metrics(s, *a.probe);
    if (writes) a.out_dir = out_dir_of(opt);
    a.report = report_wanted(opt);
    s.use_exact = !opt.no_exact;
    s.progress = a.run.progress() && writes;  // under mpirun, rank 0's bar alone
    s.team = opt.sharing.team;
    return a;
}

// A knob's column: 14 wide, or its name and two spaces.
int width(const Knob& k) { return static_cast<int>(std::max<std::size_t>(14, k.name.size() + 2)); }

const char* search_name(SearchKind k) {
    return k == SearchKind::bisection ? "bisection"
           : k == SearchKind::halving ? "successive halving"
                                      : "NTBEA";
}

std::string targets_text(const std::vector<tune::Target>& targets) {
    std::string t = targets.size() == 1 ? "target " : "targets ";
    for (std::size_t i = 0; i < targets.size(); ++i) t += (i ? "; " : "") + targets[i].text;
    return t;
}

// "mean [low, high]", "? [low, high]" for exact bounds.
std::string estimate(const Eval& e, std::size_t k) {
    return (std::isnan(e.mean[k]) ? std::string("?") : fixed(e.mean[k])) + " [" + fixed(e.low[k]) +
           ", " + fixed(e.high[k]) + "]";
}

// The combined distance's value and conservative interval (several targets).
std::pair<double, std::pair<double, double>> distance_of(const TuneSpec& s, const Eval& e) {
    std::vector<double> m(s.targets.size());
    for (std::size_t k = 0; k < m.size(); ++k) m[k] = e.at(k);
    return {tune::combined_distance(s.targets, m), tune::combined_range(s.targets, e.low, e.high)};
}

// tune.csv: one row per evaluation and target (and, with several targets, one for their combined
// distance), in the order made (docs/output.md).
std::string csv_text(const TuneSpec& s, const std::vector<Eval>& path, const std::string& policy,
                     bool interrupted) {
    std::string csv = schema::kTuneHead.header(false);
    for (const auto& k : s.knobs) csv += ',' + csv_field(k.name);
    csv += ',' + schema::kTune.header();
    const std::string tail_status = interrupted ? "partial" : "complete";
    for (std::size_t i = 0; i < path.size(); ++i) {
        const Eval& e = path[i];
        std::string head = csv_field(s.game->name) + ',' + csv_field(e.scenario) + ',' +
                           csv_field(policy) + ',' + std::to_string(s.cfg.seed) + ',' +
                           std::to_string(i + 1) + ',' + e.phase + ',' + std::to_string(e.round);
        for (std::size_t k = 0; k < e.values.size(); ++k)
            head += ',' + csv_field(s.knobs[k].values[e.values[k]]);
        const std::string tail = ',' + (e.playouts ? std::to_string(e.playouts) : "") + ',' +
                                 e.method + ',' + (e.best ? "true" : "false") + ',' + tail_status +
                                 '\n';
        for (std::size_t k = 0; k < s.targets.size(); ++k)
            csv += head + ',' + csv_field(s.targets[k].metric) + ',' +
                   csv_field(s.targets[k].text) + ',' +
                   (std::isnan(e.mean[k]) ? "" : format_double(e.mean[k])) + ',' +
                   format_double(e.low[k]) + ',' + format_double(e.high[k]) + tail;
        if (s.targets.size() > 1) {
            const auto [d, range] = distance_of(s, e);
            csv += head + ",distance,weighted sum," + format_double(d) + ',' +
                   format_double(range.first) + ',' + format_double(range.second) + tail;
        }
    }
    return csv;
}

// The columns every table of evaluations has after its first ones (left-aligned): the knobs,
// each target's metric, the distance (several targets) and the playouts; then a row's values
// under them, the best marked.
void eval_head(std::ostream& o, const TuneSpec& s) {
    for (const auto& k : s.knobs) o << std::setw(width(k)) << k.name;
    for (const auto& t : s.targets) o << std::setw(36) << t.metric;
    if (s.targets.size() > 1) o << std::setw(12) << "distance";
    o << "playouts\n";
}
void eval_row(std::ostream& o, const TuneSpec& s, const Eval& e) {
    for (std::size_t k = 0; k < e.values.size(); ++k)
        o << std::setw(width(s.knobs[k])) << s.knobs[k].values[e.values[k]];
    for (std::size_t k = 0; k < s.targets.size(); ++k) o << std::setw(36) << estimate(e, k);
    if (s.targets.size() > 1) o << std::setw(12) << fixed(distance_of(s, e).first);
    o << (e.playouts ? std::to_string(e.playouts) : std::string("exact"))
      << (e.best ? "  <- best" : "") << '\n';
}

// The path as a table: every evaluation (bisection, halving).
std::string path_table(const TuneSpec& s, const std::vector<Eval>& path) {
    std::ostringstream table;
    table << std::left << std::setw(6) << "step" << std::setw(11) << "phase";
    eval_head(table, s);
    for (std::size_t i = 0; i < path.size(); ++i) {
        table << std::setw(6) << (i + 1) << std::setw(11) << path[i].phase;
        eval_row(table, s, path[i]);
    }
    return table.str();
}

// How far a target stays from its wish at the best setting: "met", "0.0123 above", ...
std::string verdict(const tune::Target& t, const Eval& e, std::size_t k) {
    const double m = e.at(k);
    switch (t.kind) {
        case tune::Target::Kind::max:
        case tune::Target::Kind::min:
            return t.kind == tune::Target::Kind::max ? "as high as found" : "as low as found";
        case tune::Target::Kind::within:
            if (t.met(m)) return "met";
            return m < t.lo ? fixed(t.lo - m) + " short of its low end"
                            : fixed(m - t.hi) + " over its high end";
        case tune::Target::Kind::value:
            break;
    }
    const auto [lo, hi] = t.distance_range(e.low[k], e.high[k]);
    if (lo == 0) return "met (" + fixed(t.value) + " within the interval)";
    return "misses by " + fixed(std::abs(m - t.value)) + (m > t.value ? " (above)" : " (below)");
}

void print_best(std::ostream& out, const TuneSpec& s, const Eval& best, bool interrupted) {
    out << (interrupted ? "best so far:" : "best:");
    for (std::size_t i = 0; i < s.knobs.size(); ++i)
        out << ' ' << s.knobs[i].name << '=' << s.knobs[i].values[best.values[i]];
    const char* how = best.playouts ? " (95% interval)" : " (exact)";
    if (s.targets.size() == 1 && s.search != SearchKind::ntbea) {
        out << "  " << s.targets[0].metric << ' ' << estimate(best, 0) << how << '\n';
        return;
    }
    out << how << '\n';
    for (std::size_t k = 0; k < s.targets.size(); ++k)
        out << "  " << std::left << std::setw(36) << s.targets[k].text << ' ' << estimate(best, k)
            << "  " << verdict(s.targets[k], best, k) << '\n';
    if (s.targets.size() > 1) {
        const auto [d, range] = distance_of(s, best);
        out << "  combined distance " << fixed(d) << " [" << fixed(range.first) << ", "
            << fixed(range.second) << "]\n";
    }
}

// NTBEA: what the search did, then the confirmation as a table.
std::string ntbea_table(const TuneSpec& s, const Tuner& t) {
    std::uint64_t played = 0, exact = 0, deviations = 0;
    std::ostringstream o;
    for (const auto& e : t.path()) {
        if (e.phase != "ntbea" && e.phase != "deviation") continue;
        (e.playouts ? played += e.playouts : ++exact);
        deviations += e.phase == "deviation";
    }
    o << "search: " << t.trials() << " trials (" << deviations
      << " of them one-step deviations from the best) over " << t.distinct() << " of "
      << std::setprecision(15) <<
        [&] {
            double n = 1;
            for (const auto& k : s.knobs) n *= static_cast<double>(k.values.size());
            return n;
        }()
      << " settings, " << played << " playouts (" << s.trial_playouts << " a trial), " << exact
      << " trials exact\n";
    o << "confirmation: " << s.finalists << " finalists (the best by their own trials, then by "
      << "the model), " << s.cfg.playouts
      << " playouts each on fresh dice (or exact), 95% intervals\n";
    o << std::left << std::setw(6) << "rank";
    eval_head(o, s);
    for (const auto& e : t.path()) {
        if (e.phase != "confirm") continue;
        o << std::setw(6) << e.round;
        eval_row(o, s, e);
    }
    return o.str();
}

std::string queued_text(const TuneArgs& a) {
    const TuneSpec& s = a.spec;
    std::ostringstream o;
    o << std::setprecision(15);
    if (s.search != SearchKind::ntbea) {
        o << search_name(s.search) << " over " << a.space << " settings, up to " << s.cfg.playouts
          << " playouts each";
        return o.str();
    }
    o << "NTBEA over " << a.space << " settings: " << s.ntbea.trials << " trials of "
      << s.trial_playouts << " playouts, then " << s.finalists << " confirmed with "
      << s.cfg.playouts;
    return o.str();
}

// Under mpirun: every rank has read the command line (and rank 0 made --out) before any plays,
// or none plays; rank 0 says which rank failed and why (a UsageError stays one: exit 2). One
// collective call, made by every rank alike.
void ready_together(const Team& team, const std::exception_ptr& failed) {
    std::string mine = "-";
    if (failed) try {
            std::rethrow_exception(failed);
        } catch (const UsageError& e) {
            mine = std::string("u") + e.what();
        } catch (const std::exception& e) {
            mine = std::string("f") + e.what();
        } catch (...) {
            mine = "f";
        }
    const auto all = team.all_gather(mine);
    if (failed) std::rethrow_exception(failed);
    for (std::size_t r = 0; r < all.size(); ++r) {
        const std::string why = "MPI rank " + std::to_string(r) + ": " + all[r].substr(1);
        if (all[r][0] == 'u') throw UsageError(why);
        if (all[r][0] == 'f') throw std::runtime_error(why);
    }
}

void run_search(Tuner& t, SearchKind kind) {
    switch (kind) {
        case SearchKind::bisection:
            return t.bisect();
        case SearchKind::halving:
            return t.halve();
        case SearchKind::ntbea:
            return t.search_ntbea();
    }
}

// --dry-run: the search played for about two seconds, then stopped (nothing kept or written),
// and its whole extrapolated from the playouts done a second: NTBEA's trials then its finalists
// (its deviation rounds, which depend on what it finds, not counted); halving and bisection
// between the time so far and every setting at --playouts. Nothing evaluated in the time: a
// lower bound.
int tune_dry_run(Tuner& t, const TuneArgs& a, Io io) {
    static constexpr double kTime = 2.0;
    const TuneSpec& s = a.spec;
    const auto start = std::chrono::steady_clock::now();
    bool finished = false;
    {
        InterruptGuard guard;
        std::atomic<bool> ended{false};
        JoinedThreads timer;
        const struct End {  // however the search ends, before the timer is joined
            std::atomic<bool>& ended;
            ~End() { ended = true; }
        } end{ended};
        timer.threads.emplace_back([start, &ended] {
            while (!ended &&
                   std::chrono::steady_clock::now() - start < std::chrono::duration<double>(kTime))
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            if (!ended) g_stop_requested = true;
        });
        try {
            run_search(t, s.search);
            finished = true;
        } catch (const Tuner::Interrupted&) {
        } catch (const StopRequested&) {}
    }
    const bool user_stop = InterruptGuard::signal() != 0;
    InterruptGuard::reset();
    if (user_stop) return 130;
    const double seconds =
        std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const bool ntbea = s.search == SearchKind::ntbea;
    double done = 0;  // playouts evaluated
    if (ntbea)
        done = static_cast<double>(t.trials() * s.trial_playouts);
    else
        for (const Eval& e : t.path()) done += static_cast<double>(e.playouts);
    const double all =
        ntbea
            ? static_cast<double>(s.ntbea.trials * s.trial_playouts + s.finalists * s.cfg.playouts)
            : a.space * static_cast<double>(s.cfg.playouts);
    std::string expected;
    if (finished)
        expected = "about " + sim::duration_words(seconds) + " in all (it finished)";
    else if (done == 0)
        expected = "more than " + sim::duration_words(seconds) + " in all";
    else if (ntbea)
        expected = "about " + sim::duration_words(std::max(seconds, seconds * all / done)) +
                   " in all (its deviation rounds not counted)";
    else
        expected = "more than " + sim::duration_words(seconds) + ", at most " +
                   sim::duration_words(std::max(seconds, seconds * all / done)) + " in all";
    io.out << "odds tune --dry-run: " << s.game->name << ", " << queued_text(a) << " on "
           << s.cfg.threads << (s.cfg.threads == 1 ? " thread" : " threads") << "; timed for "
           << sim::duration_words(seconds) << ", nothing kept or written\n"
           << "expected: " << expected
           << " (within a factor of two: docs/performance.md#the-cost-before-the-run)\n";
    return 0;
}

}  // namespace

int cmd_tune(const Args& opt, Io io) {
    // Under mpirun every rank runs this same search, each evaluation played by all of them
    // together (sim/tune_search.cpp); rank 0 alone speaks (the others' streams are silent) and
    // writes.
    const bool writes = !opt.sharing.team || opt.sharing.team->rank == 0;
    TuneArgs a;
    std::exception_ptr failed;
    try {
        a = read_args(opt, writes);  // --out checked, made only when there is a path to write
    } catch (...) {
        if (!opt.sharing.team) throw;
        failed = std::current_exception();
    }
    if (opt.sharing.team) ready_together(*opt.sharing.team, failed);
    const TuneSpec& s = a.spec;
    Tuner t(s);
    if (opt.dry_run) return tune_dry_run(t, a, io);
    announce_queued(a.run, io, "odds tune", queued_text(a), s.cfg.threads);
    bool interrupted = false;
    try {
        InterruptGuard guard;  // the exact solver's evaluations too, not only the playouts
        run_search(t, s.search);
    } catch (const Tuner::Interrupted&) {
        interrupted = true;
    } catch (const StopRequested&) {  // inside the exact solver
        interrupted = true;
    }
    if (interrupted) t.mark_best_so_far();
    if (t.refused())
        io.err << "odds tune: " << t.refused() << (t.refused() == 1 ? " setting" : " settings")
               << " skipped, the game refusing the combination (the first: " << t.first_refusal()
               << ")\n";

    if (interrupted && t.path().empty()) {  // no header-only tune.csv claiming a best so far
        io.err << "odds tune: interrupted before the first setting was evaluated; nothing "
                  "written\n";
        return 130;
    }
    const Eval* best = nullptr;
    for (const auto& e : t.path())
        if (e.best) best = &e;
    // The files first, then the table: a command stopped while it prints into a full pipe has
    // written them whole (issue 40: it left an empty folder).
    if (a.out_dir) {
        prepare_out_dir(*a.out_dir);
        const fs::path dir(*a.out_dir);
        std::vector<std::pair<fs::path, std::string>> files{
            {dir / "tune.csv", csv_text(s, t.path(), a.probe->policy, interrupted)}};
        if (best)
            files.emplace_back(dir / "best.toml",
                               rules_file_text(*s.game, t.settings_for(best->values)));
        write_out_files(std::move(files), dir, "tune", opt.command_line,
                        {std::string(s.game->name)});
        if (a.report) write_report(dir, "tune", io);
    }
    io.out << s.game->name << " tune | " << a.probe->policy << " | " << targets_text(s.targets)
           << " | " << search_name(s.search) << ", seed " << s.cfg.seed
           << ", common random numbers\n";
    io.out << (s.search == SearchKind::ntbea ? ntbea_table(s, t) : path_table(s, t.path()));
    if (best) print_best(io.out, s, *best, interrupted);
    if (interrupted) {
        io.err << "odds tune: interrupted; the path so far is shown (and written, marked partial, "
                  "with the best so far)\n";
        return 130;
    }
    return 0;
}

namespace {
void tune_options(po::options_description& d) {
    d.add_options()(
        "vary", po::value<std::vector<std::string>>()->composing()->value_name("NAME=VALUES"),
        "a rule option searched: NAME=LO..HI[:STEP] (alias LO:HI:STEP), NAME={LO..HI} inside a "
        "value ('damage={2..6}d6'), or values NAME=v1,v2,... or NAME='v1|v2|...' (a comma-list "
        "option: '|', or one --vary per value) (repeatable)")(
        "target", po::value<std::vector<std::string>>()->composing()->value_name("GOAL"),
        "what to meet: METRIC=VALUE, 'METRIC within LO..HI' (LO.. or ..HI: one side open), "
        "'METRIC max' or 'METRIC min', each with an optional @WEIGHT; several are combined as "
        "the weighted sum of their distances (repeatable)")(
        "search", po::value<std::string>()->value_name("HOW"),
        "bisection (one option, METRIC=VALUE, the metric monotone in it; the default there), "
        "halving (successive halving over every setting, or an exact scan; the default for one "
        "target over at most 4096 settings) or ntbea (the default otherwise)")(
        "no-exact", "play every setting, even where the game's exact solver could answer")(
        "budget", po::value<std::string>()->default_value("200")->value_name("N"),
        "NTBEA: trials, each one setting evaluated")(
        "trial-playouts", po::value<std::string>()->default_value("1k")->value_name("N"),
        "NTBEA: playouts a trial (a setting's k-th trial on the dice of every setting's k-th)")(
        "finalists", po::value<std::string>()->default_value("3")->value_name("K"),
        "NTBEA: the best K settings by the model, confirmed with --playouts on fresh dice")(
        "explore", po::value<std::string>()->default_value("1")->value_name("K"),
        "NTBEA: the exploration weight of the upper confidence bound, in units of the spread of "
        "the trials' values")(
        "neighbours", po::value<std::string>()->default_value("50")->value_name("N"),
        "NTBEA: settings mutated from the current one each trial, the most promising played")(
        "deviations", po::value<std::string>()->default_value("1")->value_name("N"),
        "NTBEA: after the trials, up to N rounds of one-step deviations from the best (every "
        "setting one option away, played; moving while one is better)");
    add_run_options(d, "100k",
                    "refused: the search picks what it plays next from what it has played, so "
                    "its work cannot be cut into shards before it plays (under mpirun every rank "
                    "plays a share of each evaluation; docs/cluster.md)");
    d.add_options()("dry-run",
                    "play the search for about two seconds and print what the whole would take; "
                    "nothing written");
    add_game_options(d);
    out_option(d,
               "write tune.csv (every evaluation on the path, the best marked) and best.toml "
               "(the best setting's variant file) into DIR");
    add_report_option(d);
}
}  // namespace

const CommandSpec tune_spec = {
    "tune",
    "search rule options for the setting that meets one or more targets",
    "odds tune GAME --vary NAME=VALUES [--vary ...] --target GOAL [--target ...] [options]",
    "Searches the varied rule options for the setting that best meets the targets: "
    "METRIC=VALUE, 'METRIC within LO..HI', 'METRIC max' or 'METRIC min', each with an optional "
    "@WEIGHT, combined as the weighted sum of their distances. One option and one value: "
    "bisection, assuming the metric moves monotonically with the option. Otherwise, up to 4096 "
    "settings: successive halving, each round on the same dice (common random numbers), the "
    "better half kept with twice the playouts, --playouts the last round's; beyond, or with "
    "--search ntbea: NTBEA (N-tuple bandit evolutionary algorithm, as TAG runs it). With "
    "several targets (or after NTBEA) the best --finalists are confirmed on fresh dice. Where "
    "the game's exact solver resolves a setting, its exact value is used (--no-exact: play "
    "it). Prints the path and the best setting with its 95% interval; --out DIR writes "
    "DIR/tune.csv and DIR/best.toml (the best setting's variant file).\n\n"
    "Under mpirun every rank runs the same search and plays a share of each evaluation's "
    "playouts, which every rank then adds up: the output is one process's, byte for byte "
    "(docs/cluster.md). --shard and odds merge are refused: which setting the search plays next "
    "depends on what it has played, so its work cannot be declared as shards before it plays.",
    {"odds tune bosconian --vary hull=100..400 --target win=0.25",
     "odds tune bosconian --vary hull=200..300:10 --vary 'bases=2d6|1d6+3' --target win=0.333 "
     "--target 'sectors_entered within 12..' --no-exact"},
    "game",
    1,
    tune_options,
    cmd_tune};

}  // namespace odds::cli
