// odds check: re-run baselines (and targets files) and say whether the balance moved.
//
// The files are read by sim/baseline_file.hpp (their records are listed there and in
// docs/output.md). `odds check` treats a file as input: every value is checked against the
// game's declarations (its options, policies, rules version, each metric's kind and range, the
// playouts) before anything is laid out or played; a bad one is one line, "FILE:LINE: WHAT".
// The fixed checks are one plan for the executor (sim/executor.hpp), so they shard and merge as
// every command that plays; the sequential ones (sim/cli/check_sequential.cpp) decide batch by
// batch.
#include <algorithm>
#include <chrono>
#include <filesystem>
#include <iomanip>
#include <sstream>

#include "engine/line_reader.hpp"
#include "reports/check_report.hpp"
#include "reports/csv.hpp"
#include "reports/html_report.hpp"
#include "sim/cli/args.hpp"
#include "sim/cli/check.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/report.hpp"
#include "sim/cli/spec.hpp"
#include "sim/executor.hpp"
#include "sim/rules_file.hpp"

namespace odds::cli {

namespace fs = std::filesystem;

namespace {

// The baseline's game, and its rules version GAME/N checked (N a whole number).
const GameEntry& game_of_baseline(const Baseline& b) {
    const std::string& path = b.file;
    const GameEntry* game = nullptr;
    try {
        game = &find_game(b.game);
    } catch (const UsageError& e) {
        throw LineReader::error_at(path, b.game_line, e.what());
    }
    if (!b.targets || !b.rules_version.empty()) {
        const std::string prefix = std::string(game->name) + "/";
        if (b.rules_version.rfind(prefix, 0) != 0 ||
            !parse_integer(std::string_view(b.rules_version).substr(prefix.size()), 1, INT32_MAX))
            throw LineReader::error_at(path, b.rules_line,
                                       "rules_version '" + b.rules_version + "' is not " + prefix +
                                           "N (this build: " + std::string(game->rules_version) +
                                           ")");
    }
    return *game;
}

// The options and policies, by the game; a refusal is traced to the first line that brings it.
std::unique_ptr<PreparedRun> prepare_baseline(const Baseline& b, const GameEntry& game) {
    try {
        return game.prepare(b.settings, b.policies);
    } catch (const UsageError& e) {
        const auto fails = [&](const Settings& s, const std::vector<std::string>& p) {
            try {
                game.prepare(s, p);
                return false;
            } catch (const UsageError&) {
                return true;
            }
        };
        for (std::size_t i = 0; i < b.settings.size(); ++i)
            if (fails(Settings(b.settings.begin(),
                               b.settings.begin() + static_cast<std::ptrdiff_t>(i) + 1),
                      {}))
                throw LineReader::error_at(b.file, b.set_lines[i], e.what());
        for (std::size_t i = 0; i < b.policies.size(); ++i)
            if (fails(b.settings, std::vector<std::string>(
                                      b.policies.begin(),
                                      b.policies.begin() + static_cast<std::ptrdiff_t>(i) + 1)))
                throw LineReader::error_at(b.file, b.policy_lines[i], e.what());
        throw LineReader::error_at(b.file, b.game_line, e.what());
    }
}

// Each target names a metric the game reports.
void check_targets(const Baseline& b, const GameEntry& game, const PreparedRun& run) {
    std::vector<std::string> names;
    std::string valid;
    for (const auto& spec : run.metrics) {
        names.push_back(spec.name);
        valid += (valid.empty() ? "" : ", ") + spec.name;
    }
    for (const Target& t : b.goals)
        if (std::find(names.begin(), names.end(), t.metric) == names.end())
            throw LineReader::error_at(
                b.file, t.line,
                "target '" + t.text + "': " + std::string(game.name) + " has no metric '" +
                    t.metric + "'" + did_you_mean(t.metric, names) + " (valid: " + valid + ")");
}

// Metric i's record: once, its kind, its values in range, its counts adding up to the playouts
// (m.counts filled from its pairs).
void check_metric(Baseline& b, std::size_t i, const GameEntry& game, const PreparedRun& run) {
    BaselineMetric& m = b.metrics[i];
    const auto bad = [&](const std::string& why) {
        return LineReader::error_at(b.file, m.line, "metric " + m.name + ": " + why);
    };
    for (std::size_t j = 0; j < i; ++j)
        if (b.metrics[j].name == m.name)
            throw bad("appears twice (first on line " + std::to_string(b.metrics[j].line) + ")");
    const MetricSpec* spec = nullptr;
    for (const auto& s : run.metrics)
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
            throw bad("counts more than the " + std::to_string(b.playouts) + " playouts of line " +
                      std::to_string(b.playouts_line));
    }
    if (spec) {
        const char* kind = spec->kind == MetricKind::rate ? "rate" : "count";
        if (m.kind != kind)
            throw bad("kind '" + m.kind + "', but " + std::string(game.name) + " declares a " +
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
void check_headline(const Baseline& b, const GameEntry& game) {
    if (b.targets || b.rules_version != game.rules_version) return;
    for (const std::string_view headline : game.headline) {
        const std::string name(headline);
        if (std::none_of(b.metrics.begin(), b.metrics.end(),
                         [&](const BaselineMetric& m) { return m.name == name; }))
            throw UsageError(b.file + ": the baseline lacks headline metric '" + name + "' (" +
                             std::string(game.name) + " " + std::string(game.rules_version) +
                             " records every one: " + joined(game.headline, ",") +
                             "); record the baseline again with odds baseline");
    }
}

}  // namespace

std::unique_ptr<PreparedRun> check_baseline(Baseline& b, const GameEntry*& game_out) {
    const GameEntry& game = game_of_baseline(b);
    game_out = &game;
    auto run = prepare_baseline(b, game);
    check_targets(b, game, *run);
    for (std::size_t i = 0; i < b.metrics.size(); ++i) check_metric(b, i, game, *run);
    check_headline(b, game);
    return run;
}

std::map<std::int32_t, std::uint64_t> counts_of(const Tally& t, std::size_t m) {
    std::map<std::int32_t, std::uint64_t> out;
    const auto c = t.counts(m);
    for (std::size_t i = 0; i < c.size(); ++i)
        if (c[i]) out[t.lo(m) + static_cast<std::int32_t>(i)] = c[i];
    return out;
}

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

std::string unchecked_note(const CheckJob& j) {
    return j.unchecked.empty() ? "" : "; not checked (--metrics): " + joined(j.unchecked, ", ");
}

std::string metric_record(const Tally& tally, std::span<const MetricSpec> specs, std::size_t m) {
    const Summary s = summarize(distributions(tally, specs)[m], false);
    std::string r = "metric " + specs[m].name + ' ' +
                    (s.kind == MetricKind::rate ? "rate" : "count") + ' ' + format_double(s.mean) +
                    ' ' + format_double(s.ci.low) + ' ' + format_double(s.ci.high);
    for (const auto& [v, c] : counts_of(tally, m))
        r += ' ' + std::to_string(v) + ':' + std::to_string(c);
    return r;
}

std::map<std::string, double> tolerances_of(const Args& opt,
                                            const std::vector<std::string>& metric_names) {
    std::map<std::string, double> out;
    if (opt.tolerance.empty()) return out;
    std::string valid;
    for (const auto& n : metric_names) valid += (valid.empty() ? "" : ", ") + n;
    for (const auto& text : opt.tolerance) {
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

SeqOptions seq_options_of(const Args& opt) {
    SeqOptions o;
    const auto rate = [&](const char* name, const Value& given, double& into) {
        if (!given) return;
        const std::string text = *given;
        const auto v = parse_number(text);
        if (!v || *v <= 0 || *v >= 0.5)
            throw UsageError(std::string("--") + name + " '" + text +
                             "' is not a rate between 0 and 0.5 (exclusive), e.g. " +
                             (std::string(name) == "miss" ? "0.05" : "0.001"));
        into = *v;
    };
    rate("false-alarm", opt.false_alarm, o.false_alarm);
    rate("miss", opt.miss, o.miss);
    if (opt.max_playouts) o.cap = parse_playouts(*opt.max_playouts);
    return o;
}

BaselineCheck check_of(const CheckJob& j) {
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

namespace {

constexpr double kFalseAlarm = 1e-3;  // per metric, before the correction for their number

// odds check's arguments, parsed once.
struct CheckArgs {
    std::vector<std::string> files;
    RunArgs run;  // --seed and --playouts only when given: a baseline's own otherwise
    SeqOptions seq;
    bool sequential = false;           // --sequential
    Settings set;                      // --set, each option once
    std::optional<std::string> rules;  // --rules FILE
    std::optional<std::string> out_dir;
    bool html = false;  // --report
    // --metrics A,B,...: the metrics checked (every one when empty), as given.
    std::vector<std::string> metrics;
    std::string metrics_text;
    bool update = false;  // --update: each baseline rewritten from this build's playouts
};

CheckArgs check_args_of(const Args& opt) {
    if (opt.files.empty()) throw UsageError("give one or more baseline files");
    CheckArgs a;
    a.files = opt.files;
    a.run = run_args_of(opt);
    a.seq = seq_options_of(opt);
    a.sequential = opt.sequential > 0;
    if (!opt.set.empty())
        for (const auto& s : opt.set) a.set.push_back(split_setting(s));
    for (std::size_t i = 0; i < a.set.size(); ++i)  // each option changed once, as run takes it
        for (std::size_t j = 0; j < i; ++j)
            if (a.set[j].first == a.set[i].first)
                throw UsageError("--set '" + a.set[i].first + "=" + a.set[i].second +
                                 "': option '" + a.set[i].first + "' is set twice (also --set '" +
                                 a.set[j].first + "=" + a.set[j].second + "')");
    if (opt.rules) a.rules = *opt.rules;
    if (opt.metrics) {
        a.metrics_text = *opt.metrics;
        a.metrics = comma_names("--metrics", a.metrics_text);
    }
    a.update = opt.update;
    if (a.update) {
        // The accept step: the baseline's own seed and playouts, every metric, played once.
        const auto refuse = [](const std::string& option) {
            throw UsageError(
                "--update rewrites each baseline with its own seed, playouts and "
                "metrics; " +
                option + " cannot go with it");
        };
        if (opt.seed) refuse("--seed");
        if (opt.playouts) refuse("--playouts");
        if (opt.metrics) refuse("--metrics");
        if (opt.sequential) refuse("--sequential");
        if (opt.max_playouts) refuse("--max-playouts");
        if (opt.shard) refuse("--shard");
    }
    if (opt.dry_run && opt.sequential)
        throw UsageError(
            "--dry-run with --sequential: a sequential check plays until it is "
            "decided, at most --max-playouts; time the fixed check instead");
    return a;
}

// --metrics: the job's metrics (a targets file's targets) narrowed to those listed; each name
// the job records goes into `recorded`. A file left with nothing to check is a mistake.
void select_metrics(CheckJob& j, const CheckArgs& a, std::vector<std::string>& recorded) {
    if (a.metrics.empty()) return;
    const auto listed = [&](const std::string& name) {
        return std::find(a.metrics.begin(), a.metrics.end(), name) != a.metrics.end();
    };
    std::vector<std::string> own;
    if (j.b.targets) {
        for (const auto& t : j.b.goals) own.push_back(t.metric);
        std::erase_if(j.b.goals, [&](const Target& t) { return !listed(t.metric); });
    } else {
        for (const auto& m : j.b.metrics) own.push_back(m.name);
        std::erase_if(j.b.metrics, [&](const BaselineMetric& m) { return !listed(m.name); });
    }
    for (const auto& name : own)
        if (!listed(name) &&
            std::find(j.unchecked.begin(), j.unchecked.end(), name) == j.unchecked.end())
            j.unchecked.push_back(name);
    recorded.insert(recorded.end(), own.begin(), own.end());
    if (j.b.targets ? j.b.goals.empty() : j.b.metrics.empty())
        throw UsageError(j.b.file + ": --metrics '" + a.metrics_text + "' names none of its " +
                         (j.b.targets ? "targets' metrics" : "metrics") + " (" + joined(own, ", ") +
                         ")");
}

// --set and --rules FILE over baselines of several games: each setting applies where the game
// has the option, with a note where it has not (one CI job checks a tweak across games).
Settings overrides_for(const CheckJob& j, const CheckArgs& a, std::vector<std::string>& notes,
                       std::vector<RulesSetting>& skipped) {
    const auto has = [&](const std::string& name) {
        return std::any_of(j.game->options.begin(), j.game->options.end(),
                           [&](const OptionInfo& o) { return o.name == name; });
    };
    Settings mine;
    if (a.rules) {
        std::vector<RulesSetting> mine_skipped;
        Settings given;
        for (const auto& [n, v] : a.set)
            if (has(n)) given.emplace_back(n, v);
        mine = merged_settings(read_rules_file(*a.rules, *j.game, &mine_skipped), *a.rules, *j.game,
                               given);
        for (const auto& x : mine_skipped) {
            notes.push_back(j.b.file + ": note: " + *a.rules + ":" + std::to_string(x.line) + ": " +
                            std::string(j.game->name) + " has no rule option '" + x.name +
                            "': not applied to it");
            skipped.push_back(x);
        }
        return mine;
    }
    for (const auto& [n, v] : a.set) {
        if (has(n))
            mine.emplace_back(n, v);
        else
            notes.push_back(j.b.file + ": note: " + std::string(j.game->name) +
                            " has no rule option '" + n + "': --set " + n + "=" + v +
                            " not applied to it");
    }
    return mine;
}

// The seed, playouts and mode of a check: the baseline's, unless the command line says otherwise.
void configure(CheckJob& j, const CheckArgs& a, bool overridden) {
    j.cfg.seed = a.run.seed.value_or(j.b.seed);
    j.cfg.playouts = a.run.playouts.value_or(j.b.playouts);
    j.cfg.threads = a.run.threads;
    j.cfg.chunk_size = j.run->chunk_size;
    j.sequential = !a.update && (j.b.targets || j.b.sequential || a.sequential);
    j.exact = !j.sequential && !overridden && j.b.rules_version == j.game->rules_version &&
              j.cfg.seed == j.b.seed && j.cfg.playouts == j.b.playouts;
    // The cap: --max-playouts, else --playouts, else a targets file's playouts, else twice the
    // baseline's.
    j.cap = a.seq.cap        ? *a.seq.cap
            : a.run.playouts ? j.cfg.playouts
            : j.b.targets    ? j.b.playouts
                             : 2 * j.b.playouts;
    if (j.sequential) j.cfg.playouts = j.cap;
}

// Every file read and prepared before any is played; a --set no game has is a mistake.
std::vector<CheckJob> prepare_checks(const CheckArgs& a, Io io) {
    std::vector<CheckJob> jobs;
    std::vector<std::string> applied_somewhere, notes;  // notes printed once every input is good
    std::vector<std::string> known;                     // every checked game's options
    std::vector<RulesSetting> skipped;                  // the file's options some game lacks
    std::vector<std::string> recorded;                  // every metric the files check
    for (const auto& file : a.files) {
        CheckJob j;
        j.b = read_baseline(file);
        j.run = check_baseline(j.b, j.game);
        if (a.update && j.b.targets)
            throw UsageError(file +
                             " is a targets file: it states goals, which --update does "
                             "not rewrite; give baselines only");
        for (const auto& o : j.game->options)  // each option, and each table grouping it
            for (auto dot = o.name.find('.');; dot = o.name.find('.', dot + 1)) {
                known.push_back(o.name.substr(0, dot));
                if (dot == std::string::npos) break;
            }
        const Settings mine = overrides_for(j, a, notes, skipped);
        for (const auto& [n, v] : mine) applied_somewhere.push_back(n);
        // The variant played: the baseline's, unless --set or --rules change it. Given the same
        // one the baseline records (its variant file again, in any spelling), the check stays
        // exact.
        bool changed = false;
        if (!mine.empty()) {
            Settings s = j.b.settings;
            for (const auto& setting : mine) {  // not a structured binding: clang 14 (the
                                                // web build) cannot capture one
                std::erase_if(s, [&](const auto& p) { return p.first == setting.first; });
                s.push_back(setting);
            }
            j.run = j.game->prepare(s, j.b.policies);
            changed = j.game->canonical(s) != j.game->canonical(j.b.settings);
            j.played = std::move(s);
        } else {
            j.played = j.b.settings;
        }
        select_metrics(j, a, recorded);
        configure(j, a, changed);
        jobs.push_back(std::move(j));
    }
    for (const auto& [n, v] : a.set)
        if (std::find(applied_somewhere.begin(), applied_somewhere.end(), n) ==
            applied_somewhere.end())
            throw UsageError("--set " + n + "=" + v +
                             ": no game of the baselines given has a rule option '" + n + "'");
    // A variant file's option that no game checked has is a mistake, as a --set's is
    // (docs/variants.md): a typo would otherwise pass as a note.
    for (const auto& x : skipped)
        if (std::find(known.begin(), known.end(), x.name) == known.end())
            throw UsageError(*a.rules + ":" + std::to_string(x.line) +
                             ": no game of the baselines given has a rule option '" + x.name + "'");
    for (const auto& name : a.metrics)
        if (std::find(recorded.begin(), recorded.end(), name) == recorded.end()) {
            std::vector<std::string> valid;
            for (const auto& r : recorded)
                if (std::find(valid.begin(), valid.end(), r) == valid.end()) valid.push_back(r);
            throw UsageError("--metrics '" + a.metrics_text + "': no file given checks a metric '" +
                             name + "'" + did_you_mean(name, valid) +
                             " (valid: " + joined(valid, ", ") + ")");
        }
    for (const auto& n : notes) io.err << "odds check: " << n << '\n';
    return jobs;
}

std::vector<std::string> metric_names_of(const std::vector<CheckJob>& jobs) {
    std::vector<std::string> names;
    for (const auto& j : jobs)
        for (const auto& m : j.b.metrics)
            if (std::find(names.begin(), names.end(), m.name) == names.end())
                names.push_back(m.name);
    return names;
}

// --junit FILE and --json FILE (option, file), each checked before anything is made or played:
// neither the other, a baseline checked, nor a file check writes into --out.
std::vector<std::pair<std::string, std::string>> report_files_of(
    const Args& opt, const CheckArgs& a, const std::vector<CheckJob>& jobs) {
    std::vector<std::pair<std::string, std::string>> reports;
    for (const auto& [name, given] : {std::pair{"--junit", &opt.junit}, {"--json", &opt.json_file}})
        if (*given) {
            reports.emplace_back(name, **given);
            check_out_file(reports.back().second, reports.back().first);
        }
    if (reports.size() == 2 && fs::absolute(reports[0].second).lexically_normal() ==
                                   fs::absolute(reports[1].second).lexically_normal())
        throw UsageError("--junit and --json name the same file '" + reports[1].second +
                         "'; give each its own");
    for (const auto& [option, file] : reports)  // a report never overwrites a baseline it checks
        for (const auto& j : jobs) {
            std::error_code ec;
            if (fs::equivalent(file, j.b.file, ec))
                throw UsageError(option + " '" + file + "' is the baseline '" + j.b.file +
                                 "'; give the report its own file");
        }
    if (!a.out_dir) return reports;
    for (const auto& [option, file] : reports)
        for (const char* own : {"check.csv", kProvenanceFile, kReportFile}) {
            if (own == std::string_view(kReportFile) && !a.html) continue;
            const fs::path mine = fs::path(*a.out_dir) / own;
            std::error_code ec;
            if (fs::absolute(file, ec).lexically_normal() ==
                    fs::absolute(mine, ec).lexically_normal() ||
                fs::equivalent(file, mine, ec))
                throw UsageError(option + " '" + file + "' is the file '" + mine.string() +
                                 "' that check writes into --out; give the report its own file");
        }
    return reports;
}

// The plan of the fixed checks, one job a baseline, for the executor: under --shard (or odds
// merge, or MPI) each shard plays its share of their chunks. A sequential check decides after
// each batch whether to play on, so it cannot be split: refused under a shard.
Plan check_plan(const CheckArgs& a, const std::vector<CheckJob>& jobs, const Executor& share) {
    Plan p;
    p.command = "check";
    for (const auto& j : jobs) {
        if (j.sequential && share.mode() == Executor::Mode::shard)
            throw UsageError(j.b.file + " is checked sequentially (" +
                             (j.b.targets      ? std::string("a targets file")
                              : j.b.sequential ? std::string("its `check sequential` record")
                                               : std::string("--sequential")) +
                             "): its batches depend on the results so far, so it cannot be "
                             "shared out (--shard, mpirun); check it in one process");
        if (j.sequential) continue;
        if (p.game.find(j.game->name) == std::string::npos) {
            p.game += (p.game.empty() ? "" : " ") + std::string(j.game->name);
            p.rules_version +=
                (p.rules_version.empty() ? "" : " ") + std::string(j.game->rules_version);
        }
        // The seed in the job's identity: shards of a baseline edited between them never merge.
        p.jobs.push_back(job_of(*j.run, j.cfg.playouts));
        p.jobs.back().scenario += " seed=" + std::to_string(j.cfg.seed);
        p.job_playouts.push_back(j.cfg.playouts);
    }
    p.seed = a.run.seed.value_or(0);
    p.playouts = a.run.playouts.value_or(0);
    p.args = a.run.command_line;
    p.out = a.run.out;
    p.shard_bar = a.run.shard && !a.run.no_progress;
    return p;
}

// One metric of a fixed check: its verdict and line.
MetricCheck fixed_metric(const CheckJob& j, const BaselineMetric& bm, const Tally& tally,
                         double false_alarm, const std::map<std::string, double>& tolerances) {
    MetricCheck mc;
    mc.name = bm.name;
    mc.kind = bm.kind;
    if (const auto t = tolerances.find(bm.name); t != tolerances.end()) mc.tolerance = t->second;
    std::size_t m = j.run->metrics.size();
    for (std::size_t i = 0; i < j.run->metrics.size(); ++i)
        if (j.run->metrics[i].name == bm.name) m = i;
    if (m == j.run->metrics.size()) {
        mc.reported = false;
        mc.old_s.mean = bm.mean;
        mc.old_s.ci = {bm.low, bm.high};
        mc.verdict = Verdict::moved;
        mc.line = ": the build no longer reports it";
        return mc;
    }
    const MetricSpec& spec = j.run->metrics[m];
    const auto now = counts_of(tally, m);
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
                 << (mc.verdict == Verdict::tolerated ? " within" : " beyond") << " tolerance "
                 << *mc.tolerance;
    } else {
        const auto t = shift_test(moments(old_d), moments(new_d), false_alarm);
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
    return mc;
}

// A fixed check of one baseline from its playouts' tally, printed on io.out.
BaselineCheck check_fixed(const CheckJob& j, const Tally& tally, double seconds,
                          const std::map<std::string, double>& tolerances, Io io) {
    BaselineCheck c = check_of(j);
    c.seconds = seconds;
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
               << tolerance_note(j.b.metrics, tolerances) << unchecked_note(j) << '\n';
    else
        io.out << "  statistical check (" << c.reason << "): false-alarm rate " << kFalseAlarm
               << " per metric / " << j.b.metrics.size() << " metrics"
               << tolerance_note(j.b.metrics, tolerances) << unchecked_note(j) << '\n';
    for (const auto& bm : j.b.metrics) {
        MetricCheck mc = fixed_metric(j, bm, tally, c.false_alarm, tolerances);
        if (!mc.reported) {
            io.out << "  MOVED      " << bm.name << mc.line << '\n';
        } else {
            const char* status = mc.verdict == Verdict::moved       ? "MOVED      "
                                 : mc.verdict == Verdict::tolerated ? "tolerated  "
                                                                    : "unchanged  ";
            std::ostringstream row;
            row << "  " << status << std::left << std::setw(18) << bm.name << ' ' << mc.line
                << '\n';
            io.out << row.str();
        }
        c.metrics.push_back(std::move(mc));
    }
    switch (c.verdict()) {
        case Verdict::inconclusive:  // sequential checks only
        case Verdict::moved:
            io.out << "  => the balance MOVED\n";
            break;
        case Verdict::tolerated:
            io.out << "  => unchanged within tolerance (a change no larger than the tolerance)\n";
            break;
        case Verdict::unchanged:
            io.out << "  => unchanged\n";
            break;
    }
    return c;
}

// The baseline file of `j` rewritten from this build's playouts (odds check --update): its
// rules version this build's, its `set` lines the variant played, its scenario, policies and
// metric lines from `tally`; every other line (comments, seed, playouts, policy, tolerance,
// check) as it was. A metric this build no longer reports cannot be rewritten: refused.
std::string updated_baseline(const CheckJob& j, const Tally& tally) {
    const std::string text = read_input_file(j.b.file, "baseline");
    std::vector<std::string> lines;
    for (std::size_t from = 0; from < text.size();) {
        const std::size_t nl = text.find('\n', from);
        lines.push_back(text.substr(from, nl == std::string::npos ? nl : nl - from));
        from = nl == std::string::npos ? text.size() : nl + 1;
    }
    const bool crlf = !lines.empty() && lines[0].ends_with('\r');
    const bool had_sets = !j.b.set_lines.empty();
    std::string out;
    const auto put = [&](const std::string& line) { out += line + (crlf ? "\r\n" : "\n"); };
    bool sets_written = false;
    const auto put_sets = [&] {
        if (sets_written) return;
        sets_written = true;
        for (const auto& [n, v] : j.played) put("set " + n + '=' + v);
    };
    for (const auto& line : lines) {
        const auto words = split_words(line);
        const std::string key = words.empty() ? "" : words[0];
        if (key == "rules_version") {
            put("rules_version " + std::string(j.game->rules_version));
            if (!had_sets) put_sets();
        } else if (key == "set") {
            put_sets();
        } else if (key == "scenario") {
            put("scenario " + j.run->scenario);
        } else if (key == "policies") {
            put("policies " + j.run->policy);
        } else if (key == "metric" && words.size() > 1) {
            std::size_t m = 0;
            while (m < j.run->metrics.size() && j.run->metrics[m].name != words[1]) ++m;
            if (m == j.run->metrics.size())
                throw UsageError(j.b.file + ": metric " + words[1] +
                                 " is no longer reported by this build: --update cannot rewrite "
                                 "it; record a new baseline (odds baseline)");
            put(metric_record(tally, j.run->metrics, m));
        } else {
            out += line + (line.ends_with('\r') || !crlf ? "\n" : "\r\n");
        }
    }
    return out;
}

// "odds check: N baselines, M targets files, [at most ]P playouts queued on T threads".
void announce_checks(const CheckArgs& a, const std::vector<CheckJob>& jobs, Io io) {
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
        a.run, io, "odds check",
        what + (any_sequential ? "at most " : "") + std::to_string(queued) + " playouts",
        jobs.front().cfg.threads);
}

// Interrupted at `file`: what the files before it said; the exit code (1 when one moved).
int interrupted_at(const std::string& file, const std::vector<BaselineCheck>& checks,
                   bool sequential, bool reports, Io io) {
    const bool moved_before = overall_verdict(checks) == Verdict::moved;
    io.err << "odds check: interrupted at " << file << "; the files before it were "
           << (moved_before ? "decided: the balance MOVED"
               : sequential ? "not moved"
                            : "unchanged")
           << (reports ? "; no report written" : "") << '\n';
    return moved_before ? 1 : 130;
}

void write_check_files(const CheckArgs& a, const std::vector<BaselineCheck>& checks,
                       const std::vector<std::pair<std::string, std::string>>& reports,
                       const std::vector<std::string>& command_line, Io io) {
    for (const auto& [opt, file] : reports) {
        write_file_atomic(
            file, opt == "--junit" ? check_junit(checks) : check_json(checks, ODDS_VERSION));
        io.err << "odds check: wrote " << file << '\n';  // stdout keeps the table alone
    }
    if (!a.out_dir) return;
    const fs::path dir(*a.out_dir);
    std::vector<std::string> game_list;
    for (const auto& c : checks) game_list.push_back(c.game);
    write_out_files({{dir / "check.csv", check_csv(checks)}}, dir, "check", command_line,
                    game_list);
    if (a.html) write_report(dir, "check", io);
}

}  // namespace

int cmd_check(const Args& opt, Io io) {
    CheckArgs a = check_args_of(opt);
    std::vector<CheckJob> jobs = prepare_checks(a, io);
    const auto tolerances = tolerances_of(opt, metric_names_of(jobs));
    a.out_dir = out_dir_of(opt);
    a.html = report_wanted(opt);
    const auto reports = report_files_of(opt, a, jobs);
    ExecutorOf share = a.run.executor();  // --shard I/N, odds merge, MPI
    share->begin(check_plan(a, jobs, *share), io.err);
    const bool shard = share->mode() == Executor::Mode::shard;
    const bool dry = share->mode() == Executor::Mode::dry;  // --dry-run: timed, nothing judged
    if (!shard && !dry)
        for (const auto& [option, file] : reports) prepare_out_file(file, option);
    if (a.out_dir && !dry) prepare_out_dir(*a.out_dir, shard);

    announce_checks(a, jobs, io);
    std::vector<BaselineCheck> checks;
    std::vector<std::pair<std::string, std::string>> updates;  // --update: file, new text
    std::size_t fixed = 0;  // the plan's job of the next fixed check
    for (auto& j : jobs) {
        if (j.sequential && dry) continue;  // its cost is its own: at most --max-playouts
        if (j.sequential) {
            auto c = check_sequential(j, a.seq, tolerances, a.run.progress(), io);
            if (!c) return interrupted_at(j.b.file, checks, true, !reports.empty(), io);
            checks.push_back(std::move(*c));
            continue;
        }
        ProgressBar bar(j.cfg.playouts, a.run.progress());
        const auto started = std::chrono::steady_clock::now();
        const RunResult r = share->play(fixed++, *j.run, j.cfg, &bar);
        bar.finish();
        if (shard || dry) {
            if (r.partial) break;  // the executor says so, and writes no shard
            continue;
        }
        if (r.partial) return interrupted_at(j.b.file, checks, false, !reports.empty(), io);
        const double seconds =
            std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
        checks.push_back(check_fixed(j, r.tally, seconds, tolerances, io));
        if (a.update) updates.emplace_back(j.b.file, updated_baseline(j, r.tally));
    }
    if (const auto shard_done = share->finish(io.out, io.err, "odds check")) return *shard_done;
    write_check_files(a, checks, reports, opt.command_line, io);
    if (a.update) {  // every file played whole before any is rewritten
        for (std::size_t i = 0; i < updates.size(); ++i) {
            const auto& [file, text] = updates[i];
            write_file_atomic(file, text);
            std::vector<std::string> moved;
            for (const auto& m : checks[i].metrics)
                if (m.verdict != Verdict::unchanged) moved.push_back(m.name);
            const std::string& was = jobs[i].b.rules_version;
            const std::string now(jobs[i].game->rules_version);
            io.out << "updated " << file << ": rules version "
                   << (was == now ? now : was + " -> " + now) << "; "
                   << (moved.empty() ? "no metric moved" : joined(moved, ", ") + " moved") << '\n';
        }
        return 0;  // accepted: the files now hold this build's balance
    }
    return verdict_exit_code(overall_verdict(checks));
}

namespace {
void check_options(po::options_description& d) {
    d.add_options()("rules", po::value<std::string>()->value_name("FILE"),
                    "play each baseline under the rule options of a variant file (those its game "
                    "has; a note names the others); --set applies on top");
    d.add_options()("seed,s", po::value<std::string>()->value_name("N"),
                    "play with this seed instead of the baseline's")(
        "playouts,n", po::value<std::string>()->value_name("N"),
        "play this many instead of the baseline's")(
        "threads,j", po::value<std::string>()->value_name("N"),
        "worker threads (default: every hardware thread)")(
        "set", po::value<std::vector<std::string>>()->composing()->value_name("NAME=VALUE"),
        "change a rule option from the baseline's (repeatable)")(
        "tolerance", po::value<std::vector<std::string>>()->composing()->value_name("METRIC=X"),
        "a change of METRIC's mean by at most X (in the metric's unit, X >= 0) is not an alarm: "
        "statistical mode alarms only when the shift exceeds X by more than the alarm threshold; "
        "exact mode passes counts that differ if the mean moved by at most X (repeatable)")(
        "junit", po::value<std::string>()->value_name("FILE"),
        "also write JUnit XML to FILE: a test suite per baseline, a test case per metric "
        "(its folder is made if missing)")(
        "json", po::value<std::string>()->value_name("FILE"),
        "also write the verdicts as one JSON document to FILE (its folder is made if missing)")(
        "sequential",
        "test each metric sequentially (GSPRT): play in batches until every metric is decided, "
        "unchanged or moved by its tolerance, or the cap is reached (exit 3: inconclusive)")(
        "false-alarm", po::value<std::string>()->value_name("A"),
        "sequential: the false-alarm rate per baseline, spread over its metrics by Bonferroni "
        "(default 0.001)")("miss", po::value<std::string>()->value_name("B"),
                           "sequential: the miss rate per metric (default 0.05)")(
        "max-playouts", po::value<std::string>()->value_name("N"),
        "sequential: play at most N playouts per file (default: twice the baseline's; a "
        "targets file's own playouts)")(
        "metrics", po::value<std::string>()->value_name("A,B,..."),
        "check only these metrics (each one a file given records; the false-alarm rate is "
        "spread over them alone): a rule meant to lengthen the game need not fail on turns")(
        "update",
        "accept the balance as it now plays: rewrite each baseline from this build's "
        "playouts (its seed, playouts, metrics, policies, tolerances and comments kept; the "
        "rules version this build's; --set and --rules recorded as its variant), after saying "
        "what moved; exit 0 once written")("no-progress", "no progress bar, even on a terminal");
    add_shard_option(d, "the fixed checks only: a sequential check cannot be shared out");
    out_option(d, "also write check.csv, every metric's verdict, into DIR (made if missing)");
    add_report_option(d);
}
}  // namespace

const CommandSpec check_spec = {
    "check",
    "re-run baselines: has the balance moved?",
    "odds check FILE... [options]",
    "Re-runs each baseline and says whether the balance moved. With the baseline's rules "
    "version, seed, playouts and variant, every count must match exactly: any difference "
    "means the kernel plays differently. Otherwise each headline metric is tested for a shift "
    "of its mean, at a false-alarm rate of 1e-3 per metric divided by the number of metrics.\n\n"
    "--tolerance METRIC=X: a change of at most X in METRIC's mean is not an alarm. In "
    "statistical mode the metric is MOVED only when its shift exceeds X by more than the alarm "
    "threshold (the test rejects |true shift| <= X); a smaller shift the plain test would flag "
    "is 'tolerated'. In exact mode, counts that differ with the mean moved by at most X are "
    "'tolerated'. Tolerated metrics pass.\n\n"
    "--sequential: each metric is tested sequentially (GSPRT, as fishtest does) for "
    "'unchanged' against 'moved by at least its tolerance' (--tolerance, the baseline's "
    "tolerance record, else the shift a fixed test of the baseline's size detects), playing in "
    "batches until every metric is decided or --max-playouts is reached. A targets file "
    "(odds-targets 1; docs/ci.md) states what balance means, 'target advantage_first within "
    "0.47..0.53', and is always checked sequentially.\n\n"
    "--shard I/N plays one share of the fixed checks' playouts and 'odds merge' adds the "
    "shares up to the verdicts one process gives, byte for byte (docs/cluster.md).\n\n"
    "A baseline recorded under a variant (odds baseline --rules FILE or --set) stays an exact "
    "check when given the same variant again, in any spelling. --metrics A,B checks only those "
    "metrics. --update rewrites each baseline from this build (the snapshot-accept step), "
    "after printing what moved.\n\n"
    "--junit FILE and --json FILE also write the verdicts for CI, beside the table. "
    "Exit 0: unchanged, tolerated or met; 1: moved or a target missed; 2: bad input; 3: a "
    "sequential check inconclusive at its cap.",
    {"odds check balance/*.baseline --junit reports/balance.xml",
     "odds check balance/bosconian.baseline --set hull=95 --tolerance win=0.005"},
    "file",
    -1,
    check_options,
    cmd_check};

}  // namespace odds::cli
