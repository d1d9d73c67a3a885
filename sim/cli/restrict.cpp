// odds restrict: what each rule element is worth (issue 32, section 2; docs/skill.md): restricted
// play after Jaffe et al. (AIIDE 2012). Each restriction a game offers (its rule options
// restrict / restrict.SEAT, their words) is played with the best available play, on the same dice
// as the unrestricted game (common random numbers, game by game), and ranked by what it costs: the
// paired difference of the measure (a seat's score, or a solo game's metric) with its 95%
// interval, or the exact difference where the game's solver gives both values.
#include <algorithm>
#include <atomic>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <iomanip>
#include <limits>
#include <mutex>
#include <numeric>
#include <sstream>
#include <thread>

#include "engine/stop.hpp"
#include "policies/policy_table.hpp"
#include "reports/csv.hpp"
#include "reports/schema.hpp"
#include "sim/cli/args.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/report.hpp"
#include "sim/cli/spec.hpp"
#include "sim/executor.hpp"
#include "sim/group_play.hpp"
#include "sim/interrupt.hpp"
#include "sim/progress.hpp"

namespace odds::cli {

namespace fs = std::filesystem;

namespace {

inline constexpr std::uint64_t kMaxOutcomes = 20'000'000;  // groups x games kept in memory
inline constexpr double kZ = 1.959963984540054;            // the normal's 97.5% point

// The command line, read once (every check made before anything is played or written).
struct RestrictArgs {
    const GameEntry* game = nullptr;
    Settings settings;                      // --set and --rules: the game every variant shares
    std::vector<std::string> options;       // the restrict options the restriction sets
    std::vector<std::string> restrictions;  // their values, one restriction each
    std::string seat;                       // the seat restricted ("both"), empty for solo games
    std::vector<std::string> plays;         // the candidate best plays (one, or the thumbs)
    std::string play_label;                 // how the table names the best play
    std::string opponent;                   // two seats: the other seat's policy
    std::string metric;                     // solo games: the measure
    bool exact = false;
    RunArgs run;  // --playouts, --seed, --threads, --no-progress (sim/cli/args.hpp)
    RunConfig cfg;
    std::optional<std::string> out_dir;
    bool report = false;
};

const OptionInfo& restrict_option(const GameEntry& g, const std::string& name) {
    for (const auto& o : g.options)
        if (o.name == name) return o;
    throw UsageError(std::string(g.name) + " has no option " + name);
}

// Which seat is restricted, and so which options a restriction sets.
void read_seat(const Args& opt, RestrictArgs& a) {
    const GameEntry& g = *a.game;
    const bool given = bool(opt.seat);
    if (g.seats.empty()) {
        if (given)
            throw UsageError("--seat: " + std::string(g.name) + " is a solo game (no seats)");
        a.options = {restrict_option(g, "restrict").name};
        return;
    }
    a.seat = given ? *opt.seat : std::string(g.seats[0]);
    if (a.seat == "both") {
        for (const auto& s : g.seats)
            a.options.push_back(restrict_option(g, "restrict." + std::string(s)).name);
        return;
    }
    if (std::find(g.seats.begin(), g.seats.end(), a.seat) == g.seats.end())
        throw UsageError("--seat '" + a.seat + "': a seat of " + std::string(g.name) + " (" +
                         joined(g.seats, ", ") + "), or both");
    a.options = {restrict_option(g, "restrict." + a.seat).name};
}

// The best available play: the game's search at --budget, the best of its rules of thumb, or
// the policies named.
void read_play(const Args& opt, RestrictArgs& a) {
    const GameEntry& g = *a.game;
    std::string play = bool(opt.play)     ? *opt.play
                       : a.exact          ? std::string(g.solved)
                       : g.search.empty() ? "thumbs"
                                          : "search";
    if (play.empty())
        throw UsageError("--exact: give --play POLICY, the policy both seats play exactly");
    const std::string budget = opt.budget.value_or("32");
    if (play == "search") {
        const auto at = std::string(g.search).find("{n}");
        if (g.search.empty() || at == std::string::npos)
            throw UsageError("--play search: " + std::string(g.name) +
                             " has no search policy; use --play thumbs or name policies");
        const auto n = parse_integer(budget, 1, 1'000'000);
        if (!n) throw UsageError("--budget '" + budget + "': a whole number from 1 to 1000000");
        std::string s(g.search);
        a.plays = {s.replace(at, 3, std::to_string(*n))};
        a.play_label = a.plays[0];
    } else if (opt.budget) {
        throw UsageError("--budget: the budget of --play search, not of --play '" + play + "'");
    } else if (play == "thumbs") {
        for (const auto& r : g.ladder)  // random play is no rule of thumb
            if (r.find("{n}") == std::string_view::npos && r != "random" && !r.ends_with("/random"))
                a.plays.emplace_back(r);
        if (a.plays.empty())
            throw UsageError("--play thumbs: " + std::string(g.name) + " names no rules of thumb");
        a.play_label = "the best of " + std::to_string(a.plays.size()) + " rules of thumb";
    } else {
        a.plays = detail::split_words(play);
        a.play_label = a.plays.size() == 1 ? a.plays[0] : "the best of " + play;
    }
    for (std::size_t i = 0; i < a.plays.size(); ++i)  // dice,dice: one policy, not two
        for (std::size_t j = 0; j < i; ++j)
            if (a.plays[i] == a.plays[j])
                throw UsageError("--play '" + play + "' names " + a.plays[i] +
                                 " twice; name each policy once");
    for (const auto& p : a.plays)  // a bare policy (NAME[:P...]), no seat: the command seats it
        if (p.empty() || p.substr(0, p.find(':')).find('=') != std::string::npos)
            throw UsageError("--play '" + play +
                             "': search, thumbs, or bare policy names, comma-separated");
        else
            parse_policy(g.name, g.policies, p);  // a UsageError naming it when it is not one
    if (a.exact && a.plays.size() != 1)
        throw UsageError("--exact: --play names one policy, which both seats play");
}

RestrictArgs read_args(const Args& opt) {
    RestrictArgs a;
    a.game = &game_of(opt);
    const GameEntry& g = *a.game;
    if (!has_restrictions(g))
        throw UsageError(std::string(g.name) +
                         " offers no restriction (no choice of the player's to bar; games that "
                         "have: " +
                         game_names(has_restrictions) + ")");
    if (!opt.policy.empty())  // the seats are the command's: --play and --opponent
        throw UsageError(
            "--policy: odds restrict seats the best play itself; give --play (and "
            "--opponent for the other seat)");
    a.settings = settings_of(opt);
    a.exact = opt.exact != 0;
    if (a.exact && !g.exact)
        throw UsageError("--exact: " + std::string(g.name) + " has no exact solver (" +
                         game_names(has_exact) + " have)");
    read_seat(opt, a);
    read_play(opt, a);
    if (!opt.restrict.empty()) {
        a.restrictions = opt.restrict;
    } else {
        a.restrictions = restrict_option(g, a.options[0]).words;
    }
    // Each restriction a set of the option's words, each word once (cover,cover or cover, is a
    // slip, not a restriction of its own), and no set given twice (issue 40).
    const OptionInfo& words = restrict_option(g, a.options[0]);
    std::vector<std::vector<std::string>> sets;
    for (const auto& r : a.restrictions) {
        const auto bad = [&](const std::string& why) {
            return UsageError("--restrict '" + r + "': " + why + "; give " + a.options[0] +
                              "'s words (" + or_list(words.words) +
                              "), comma-separated, each once");
        };
        if (r.empty() || r == "none") throw bad("not a restriction (none is the reference)");
        std::vector<std::string> set;
        for (std::size_t at = 0;;) {
            const auto comma = r.find(',', at);
            const std::string w = r.substr(at, comma == std::string::npos ? comma : comma - at);
            if (w.empty()) throw bad("an empty word");
            if (std::find(words.words.begin(), words.words.end(), w) == words.words.end())
                throw bad("'" + w + "' is not one of them");
            if (std::find(set.begin(), set.end(), w) != set.end())
                throw bad("'" + w + "' given twice");
            set.push_back(w);
            if (comma == std::string::npos) break;
            at = comma + 1;
        }
        std::sort(set.begin(), set.end());
        if (std::find(sets.begin(), sets.end(), set) != sets.end())
            throw bad("the same restriction as an earlier --restrict");
        sets.push_back(std::move(set));
    }
    // The other seat: the play itself when it is one policy (a mirror), else the game's default.
    a.opponent = bool(opt.opponent)    ? *opt.opponent
                 : a.plays.size() == 1 ? a.plays[0]
                                       : std::string(g.policies[0].name);
    if (opt.opponent && g.seats.empty())
        throw UsageError("--opponent: " + std::string(g.name) + " is a solo game");
    if (!g.seats.empty()) parse_policy(g.name, g.policies, a.opponent);
    a.metric = bool(opt.metric)  ? *opt.metric
               : g.seats.empty() ? std::string(g.headline.front())
                                 : "";
    if (opt.metric && a.metric.empty())
        throw UsageError("--metric '' is not valid; give a metric of " + std::string(g.name) +
                         " ('odds list " + std::string(g.name) + "' shows them)");
    if (!a.metric.empty() && !g.seats.empty())
        throw UsageError("--metric: a two-seat game is measured by the restricted seat's score");
    a.run = run_args_of(opt);
    a.cfg = a.run.config();
    a.out_dir = out_dir_of(opt);
    a.report = report_wanted(opt);
    return a;
}

// One variant of the game (unrestricted, or one restriction) played by one candidate policy.
struct Group {
    std::size_t variant = 0, play = 0;
    std::unique_ptr<PreparedRun> run;
    std::size_t win = 0, draw = 0;  // the measured seat's win and the draw (solo: win = metric)
};

// The game of variant v (0: the game as given): the restriction added to what --set or --rules
// already bar (restrict.tau=disruptor given, --restrict intensifier: disruptor,intensifier).
Settings variant_settings(const RestrictArgs& a, std::size_t v) {
    Settings s = a.settings;
    if (v == 0) return s;
    for (const auto& o : a.options) {
        const std::string& r = a.restrictions[v - 1];
        const auto given =
            std::find_if(s.begin(), s.end(), [&](const auto& kv) { return kv.first == o; });
        if (given == s.end())
            s.push_back({o, r});
        else
            given->second = given->second == "none" ? r : given->second + "," + r;
    }
    return s;
}

std::vector<std::string> seat_policies(const RestrictArgs& a, const std::string& play) {
    const GameEntry& g = *a.game;
    if (g.seats.empty()) return {play};
    const bool first = a.seat == "both" || a.seat == g.seats[0];
    return {std::string(g.seats[0]) + "=" + (first ? play : a.opponent),
            std::string(g.seats[1]) + "=" + (first ? a.opponent : play)};
}

// The seat measured: the restricted one (both: the first).
std::size_t measured_seat(const RestrictArgs& a) {
    return a.game->seats.empty() || a.seat == "both" || a.seat == a.game->seats[0] ? 0 : 1;
}

std::size_t metric_index(const PreparedRun& run, const std::string& name, const GameEntry& g) {
    for (std::size_t m = 0; m < run.metrics.size(); ++m)
        if (run.metrics[m].name == name) return m;
    throw UsageError("--metric '" + name + "': not a metric of " + std::string(g.name) +
                     " ('odds list " + std::string(g.name) + "' shows them)");
}

std::vector<Group> groups_of(const RestrictArgs& a) {
    std::vector<Group> groups;
    const GameEntry& g = *a.game;
    for (std::size_t v = 0; v <= a.restrictions.size(); ++v)
        for (std::size_t p = 0; p < a.plays.size(); ++p) {
            Group gr{v, p, g.prepare(variant_settings(a, v), seat_policies(a, a.plays[p])), 0, 0};
            if (g.seats.empty()) {
                gr.win = metric_index(*gr.run, a.metric, g);
            } else {
                gr.win = metric_index(*gr.run, std::string(g.versus[measured_seat(a)]), g);
                gr.draw = metric_index(*gr.run, std::string(g.versus[2]), g);
            }
            groups.push_back(std::move(gr));
        }
    return groups;
}

// One row of the ranking: a restriction (or none, the reference) and what it costs.
struct Row {
    std::string restriction;  // the option's value; "none" for the unrestricted game
    std::string best;         // the best play under it (of the candidates)
    double value = 0;         // the measure under it
    double cost = 0, low = 0, high = 0;
    // Costs nothing: the interval holds 0 (exact: 0), though the play used it (never the
    // reference row's). A restriction that changed no game at all is `never_used` instead.
    bool ignorable = false;
    bool never_used = false;  // sampled: every game's result the same as unrestricted
};

struct Ranking {
    std::string game, scenario, seat, play, measure, method;
    std::string opponent;  // two seats: the other seat's policy
    std::uint64_t seed = 0, games = 0;
    bool partial = false, several = false;  // several: candidate plays (the best is named)
    bool given = false;                     // --set or --rules already restrict the reference game
    std::vector<Row> rows;                  // rows[0]: none; then ranked by cost, highest first
};

double mean_of(const std::vector<double>& y, std::size_t g, std::uint64_t n, std::uint64_t games) {
    double s = 0;
    for (std::uint64_t j = 0; j < games; ++j) s += y[g * n + j];
    return s / static_cast<double>(games);
}

// Each variant's best play (the candidate with the highest mean), then the paired differences
// against the unrestricted game's best play, game by game.
std::vector<Row> rank_sampled(const RestrictArgs& a, const std::vector<Group>& groups,
                              const std::vector<double>& y, std::uint64_t games) {
    const std::uint64_t n = a.cfg.playouts;
    const std::size_t plays = a.plays.size();
    std::vector<std::size_t> best(a.restrictions.size() + 1);
    std::vector<double> value(best.size());
    for (std::size_t v = 0; v < best.size(); ++v) {
        value[v] = -std::numeric_limits<double>::infinity();
        for (std::size_t p = 0; p < plays; ++p)
            if (const double m = mean_of(y, v * plays + p, n, games); m > value[v]) {
                value[v] = m;
                best[v] = v * plays + p;
            }
    }
    std::vector<Row> rows;
    for (std::size_t v = 0; v < best.size(); ++v) {
        Row r{v == 0 ? "none" : a.restrictions[v - 1], a.plays[groups[best[v]].play], value[v]};
        double sum = 0, sq = 0;
        for (std::uint64_t j = 0; j < games; ++j) {
            const double d = y[best[0] * n + j] - y[best[v] * n + j];
            sum += d;
            sq += d * d;
        }
        const double g = static_cast<double>(games);
        r.cost = sum / g;
        const double var = games > 1 ? std::max(0.0, (sq - g * r.cost * r.cost) / (g - 1)) : 0;
        const double half = kZ * std::sqrt(var / g);
        r.low = r.cost - half;
        r.high = r.cost + half;
        // Every game the same result under the restriction as without it, on the same dice: the
        // play never made the choice it bars (one it made would have rolled other dice after
        // it). Else, an interval holding 0: the play used it and lost nothing told apart.
        r.never_used = v > 0 && sum == 0 && sq == 0;
        r.ignorable = v > 0 && !r.never_used && r.low <= 0 && r.high >= 0;
        rows.push_back(r);
    }
    return rows;
}

// The exact measure of one variant: the measured seat's score (win + half a draw) from the
// solver's laws.
double exact_value(const RestrictArgs& a, std::size_t v) {
    const GameEntry& g = *a.game;
    const ExactReport rep = g.exact(variant_settings(a, v), seat_policies(a, a.plays[0]));
    auto mean = [&](std::string_view name) {
        for (const auto& law : rep.laws)
            if (law.spec.name == name) {
                double s = 0;
                for (std::size_t i = 0; i < law.mass.size(); ++i)
                    s += law.mass[i] * (law.spec.lo + static_cast<double>(i)) / law.spec.scale;
                return s;
            }
        throw UsageError("--exact: " + std::string(g.name) + "'s solver gives no " +
                         std::string(name));
    };
    if (g.seats.empty()) return mean(a.metric);
    // The game's value under optimal play, where the solver states it (ExactReport::value):
    // what the best play achieves, which the solved policies' own game need not realise
    // exactly (docs/skill.md).
    if (rep.value) return measured_seat(a) == 0 ? *rep.value : 1 - *rep.value;
    return mean(g.versus[measured_seat(a)]) + 0.5 * mean(g.versus[2]);
}

std::vector<Row> rank_exact(const RestrictArgs& a) {
    std::vector<Row> rows;
    InterruptGuard guard;  // the solver checks the stop flag
    const double base = exact_value(a, 0);
    for (std::size_t v = 0; v <= a.restrictions.size(); ++v) {
        const double value = v == 0 ? base : exact_value(a, v);
        const double cost = base - value;
        rows.push_back({v == 0 ? "none" : a.restrictions[v - 1], a.plays[0], value, cost, cost,
                        cost, v > 0 && std::abs(cost) < 1e-6});  // the value's note: 6 decimals
    }
    return rows;
}

void sort_rows(std::vector<Row>& rows) {
    std::stable_sort(rows.begin() + 1, rows.end(),
                     [](const Row& x, const Row& y) { return x.cost > y.cost; });
}

// restrict.csv (docs/output.md): the reference row (restriction none, rank 0), then each
// restriction in the ranking's order.
std::string restrict_csv(const Ranking& k) {
    std::string csv = schema::kRestrict.header();
    for (std::size_t i = 0; i < k.rows.size(); ++i) {
        const Row& r = k.rows[i];
        csv += csv_field(k.game) + ',' + csv_field(k.scenario) + ',' + csv_field(k.seat) + ',' +
               csv_field(k.play) + ',' + k.method + ',' + csv_field(k.measure) + ',' +
               std::to_string(k.seed) + ',' + std::to_string(k.games) + ',' + std::to_string(i) +
               ',' + csv_field(r.restriction) + ',' + csv_field(r.best) + ',' +
               format_double(r.value) + ',' + format_double(r.cost) + ',' + format_double(r.low) +
               ',' + format_double(r.high) + ',' + (r.ignorable ? "true" : "false") + ',' +
               (r.never_used ? "true" : "false") + ',' + (k.partial ? "partial" : "complete") +
               '\n';
    }
    return csv;
}

// One row of the table: the cells padded to their columns, no blank at the end of the line.
std::string table_line(const std::vector<std::pair<std::string, int>>& cells) {
    std::ostringstream t;
    t << std::left;
    for (const auto& [text, width] : cells) t << std::setw(width) << text;
    std::string line = t.str();
    line.erase(line.find_last_not_of(' ') + 1);
    return line + '\n';
}

std::string restrict_table(const Ranking& k) {
    const bool exact = k.method == "exact";
    const int digits = exact ? 6 : 4;  // exact: the value's six decimals
    std::string t = k.game + " restrict | " + k.scenario + " | " +
                    (k.seat.empty() ? "" : "seat " + k.seat + " | ") + "best play " + k.play +
                    (k.opponent.empty() ? "" : " | against " + k.opponent) + " | " +
                    (exact ? std::string("exact")
                           : "seed " + std::to_string(k.seed) + " | " + std::to_string(k.games) +
                                 " games each, the same dice for every restriction") +
                    (k.partial ? " (PARTIAL: interrupted)" : "") + '\n';
    int wide = 13, best = 11;
    for (const auto& r : k.rows) {
        wide = std::max(wide, static_cast<int>(r.restriction.size()) + 2);
        best = std::max(best, static_cast<int>(r.best.size()) + 2);
    }
    const int num = digits + 6, band = exact ? 0 : 22, named = k.several ? best : 0;
    t += table_line({{"rank", 6},
                     {"restriction", wide},
                     {k.measure, std::max(num, static_cast<int>(k.measure.size()) + 2)},
                     {"cost", num},
                     {exact ? "" : "95% interval", band},
                     {k.several ? "best play" : "", named}});
    const int measure_width = std::max(num, static_cast<int>(k.measure.size()) + 2);
    for (std::size_t i = 0; i < k.rows.size(); ++i) {
        const Row& r = k.rows[i];
        const std::string note =
            i == 0         ? (k.given ? "the game as given" : "unrestricted")
            : r.never_used ? "every game the same: never used by this play"
            : !r.ignorable ? ""
            : exact        ? "costs nothing: a rule this play can ignore"
                           : "used, no cost told apart from 0: a rule this play can ignore";
        t += table_line({{i == 0 ? std::string("-") : std::to_string(i), 6},
                         {r.restriction, wide},
                         {fixed(r.value, digits), measure_width},
                         {i == 0 ? std::string("-") : fixed(r.cost, digits), num},
                         {exact || i == 0 ? std::string()
                                          : "[" + fixed(r.low, 4) + ", " + fixed(r.high, 4) + "]",
                          band},
                         {k.several ? r.best : std::string(), named},
                         {note, 0}});
    }
    return t;
}

// The sampled ranking: every variant and candidate play on the same dice (sim/group_play.hpp),
// under the executor (--shard, odds merge, MPI). An exit code when the command ends here: a shard
// written, or stopped before every group had played two games.
std::optional<int> rank_by_play(const RestrictArgs& a, Ranking& k, Io io, int& stopped_by) {
    const auto groups = groups_of(a);
    k.scenario = groups.front().run->scenario;
    if (a.cfg.playouts < 2) throw UsageError("-n '1': a restriction needs two games or more");
    if (a.cfg.playouts > kMaxOutcomes / groups.size())
        throw UsageError("-n " + std::to_string(a.cfg.playouts) + ": " +
                         std::to_string(groups.size()) +
                         " groups x that many games is more outcomes than odds restrict keeps (" +
                         std::to_string(kMaxOutcomes) + ")");
    const bool solo = a.game->seats.empty();
    std::vector<GroupSpec> specs;
    for (const auto& g : groups) specs.push_back({g.run.get(), g.win, g.draw, solo});
    RunConfig cfg = a.cfg;
    cfg.chunk_size = group_block(cfg.playouts);
    std::string label = k.play;
    for (const auto& r : a.restrictions) label += " | " + r;
    ExecutorOf share = a.run.executor();  // --shard I/N, odds merge, MPI
    share->begin(a.run.plan("restrict", *a.game, {groups_job(k.scenario, label, cfg.playouts)}),
                 io.err);
    if (a.out_dir && share->writes_shard_file()) prepare_out_dir(*a.out_dir, true);
    const std::uint64_t total = cfg.playouts * groups.size();
    announce_queued(a.run, io, "odds restrict",
                    std::to_string(groups.size()) + " groups x " + std::to_string(cfg.playouts) +
                        " games = " + std::to_string(total) + " games",
                    cfg.threads);
    ChunkedResult<Outcomes> played;
    {
        ProgressBar bar(total, a.run.progress(), "games");
        played = play_groups(specs, cfg, *share, bar);
        bar.finish();
    }
    if (const auto shard_done = share->finish(io.out, io.err, "odds restrict")) return shard_done;
    k.games = played.tally.games();
    k.partial = k.games < cfg.playouts;
    stopped_by = k.partial ? InterruptGuard::exit_code() : 0;
    if (k.games < 2) {
        io.err << "odds restrict: interrupted before every group had played two games; "
                  "nothing written\n";
        return InterruptGuard::exit_code();
    }
    // The outcomes as the ranking measures them (groups x playouts, the first games played): a
    // solo game's metric in its unit, a two-seat game's points.
    const std::uint64_t n = cfg.playouts;
    std::vector<double> y(total, 0.0);
    for (std::size_t gi = 0; gi < groups.size(); ++gi) {
        const double scale = groups[gi].run->metrics[groups[gi].win].scale;
        for (std::uint64_t j = 0; j < k.games; ++j) {
            const std::int32_t v = played.tally.scores[gi][j];
            y[gi * n + j] = solo ? v / scale : 0.5 * v;
        }
    }
    k.rows = rank_sampled(a, groups, y, k.games);
    return std::nullopt;
}

}  // namespace

int cmd_restrict(const Args& opt, Io io) {
    const RestrictArgs a = read_args(opt);
    const GameEntry& g = *a.game;
    Ranking k;
    k.game = std::string(g.name);
    k.seat = a.seat;
    if (!a.game->seats.empty() && a.seat != "both") k.opponent = a.opponent;
    k.play = a.play_label;
    k.several = a.plays.size() > 1;
    for (const auto& [name, value] : a.settings)
        k.given = k.given || (name.rfind("restrict", 0) == 0 && value != "none");
    k.measure = g.seats.empty() ? a.metric : "score";
    k.method = a.exact ? "exact" : "sampled";
    k.seed = a.cfg.seed;
    int stopped_by = 0;
    if (a.exact && (a.run.shard || a.run.sharing.executor))
        throw UsageError(
            "--exact solves the restricted games: nothing is played, so there is "
            "nothing to share out (--shard, mpirun)");
    if (a.exact) {
        k.scenario = g.prepare(a.settings, seat_policies(a, a.plays[0]))->scenario;
        k.rows = rank_exact(a);
    } else if (const auto ended = rank_by_play(a, k, io, stopped_by)) {
        return *ended;
    }
    sort_rows(k.rows);
    if (a.out_dir) {
        prepare_out_dir(*a.out_dir);
        const fs::path dir(*a.out_dir);
        write_out_files({{dir / "restrict.csv", restrict_csv(k)}}, dir, "restrict",
                        opt.command_line, {k.game});
        if (a.report) write_report(dir, "restrict", io);
    }
    io.out << restrict_table(k);
    if (k.partial) {
        io.err << "odds restrict: interrupted; the ranking is of the first " << k.games
               << " games of every group, marked partial\n";
        return stopped_by;
    }
    return 0;
}

namespace {
void restrict_options(po::options_description& d) {
    d.add_options()("restrict",
                    po::value<std::vector<std::string>>()->composing()->value_name("VALUE"),
                    "a restriction: a value of the game's restrict option, e.g. intensifier or "
                    "cover,halt (repeatable; default: each of its words alone)")(
        "seat", po::value<std::string>()->value_name("SEAT"),
        "two-seat games: the seat restricted (default: the first), or both")(
        "play", po::value<std::string>()->value_name("PLAY"),
        "the best available play: search (the game's search at --budget), thumbs (the best of "
        "its rules of thumb), or policy names, comma-separated (the best of them)")(
        "budget", po::value<std::string>()->value_name("N"), "--play search's budget (default 32)")(
        "opponent", po::value<std::string>()->value_name("NAME"),
        "two-seat games: the other seat's policy (default: --play's one policy, a mirror; "
        "several: the game's default policy)")(
        "metric", po::value<std::string>()->value_name("METRIC"),
        "a solo game's measure (default: its first headline metric)")(
        "exact", "the exact values from the game's solver (Dimension Duel), not sampled games")(
        "playouts,n", po::value<std::string>()->default_value("200")->value_name("N"),
        "games each restriction and each candidate play: 200, 1e3, 2k")(
        "seed,s", po::value<std::string>()->default_value("1")->value_name("N"),
        "the seed (0 to 2^64-1): game j plays on the dice of stream j in every group")(
        "threads,j", po::value<std::string>()->value_name("N"),
        "worker threads (default: every hardware thread)")("no-progress",
                                                           "no progress bar, even on a terminal");
    add_shard_option(d);
    add_game_options(d);
    out_option(d, "write restrict.csv into DIR");
    add_report_option(d);
}
}  // namespace

const CommandSpec restrict_spec = {
    "restrict",
    "what each rule element is worth: restricted play, ranked by what it costs",
    "odds restrict GAME [--restrict VALUE ...] [--seat SEAT|both] [--play PLAY] [options]",
    "Restricted play (Jaffe et al., AIIDE 2012): each restriction the game offers (a value of "
    "its rule option restrict or restrict.SEAT; by default each of its words alone) is played "
    "with the best available play on the same dice as the unrestricted game, and ranked by what "
    "it costs the restricted seat's score (a win 1, a draw 1/2) or a solo game's metric: the "
    "mean paired difference with its 95% interval. A restriction whose interval holds 0 is "
    "flagged: a rule a player can ignore. --exact takes the values from the game's solver "
    "(Dimension Duel, --play equilibrium by default). --out DIR writes restrict.csv "
    "(docs/skill.md).",
    {"odds restrict dimension-duel --exact", "odds restrict fpb --play thumbs -n 2000"},
    "game",
    1,
    restrict_options,
    cmd_restrict};

}  // namespace odds::cli
