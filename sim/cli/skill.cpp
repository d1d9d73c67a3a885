// odds skill: a game's skill ladder (issue 32; docs/skill.md). The rungs (the policies given,
// weakest first, then search at doubling budgets) play every game on the same dice: each ordered
// pairing of a two-seat game, each rung of a solo game. The report: each rung's strength (a
// Bradley-Terry rating, or the metric's mean) with its 95% interval, the game's depth on the
// ladder (the steps between neighbours in strength that are told apart at 95%), and the luck
// share of the outcome (reports/skill.hpp).
#include <algorithm>
#include <atomic>
#include <cmath>
#include <exception>
#include <filesystem>
#include <iomanip>
#include <mutex>
#include <numeric>
#include <sstream>
#include <thread>

#include "engine/stop.hpp"
#include "policies/policy_table.hpp"
#include "reports/csv.hpp"
#include "reports/schema.hpp"
#include "reports/skill.hpp"
#include "sim/cli/args.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/report.hpp"
#include "sim/cli/round_robin.hpp"
#include "sim/cli/spec.hpp"
#include "sim/executor.hpp"
#include "sim/group_play.hpp"
#include "sim/interrupt.hpp"
#include "sim/progress.hpp"

namespace odds::cli {

namespace fs = std::filesystem;

namespace {

inline constexpr std::uint64_t kMaxOutcomes = 20'000'000;  // groups x games kept in memory

// The ladder's rungs: the --policy names as given, then --search's spelling at each budget of
// --budgets (doubling from LO up to HI), each checked against the game's policy table.
std::vector<std::string> rungs_of(const Args& opt, const GameEntry& game) {
    std::vector<std::string> rungs = opt.policy;
    if (rungs.empty())  // the game's own ladder (registry: weakest first)
        for (const auto& r : game.ladder) rungs.emplace_back(r);
    for (const auto& r : rungs)
        if (r.find('=') != std::string::npos)
            throw UsageError("--policy '" + r + "': give bare policy names; the ladder seats them");
    // The game's own search (registry) unless --search names one; a game without: none.
    const std::string search = bool(opt.search)      ? *opt.search
                               : game.search.empty() ? std::string("none")
                                                     : std::string(game.search);
    const std::string budgets = opt.budgets.value_or("16..64");
    const bool has_search =
        search != "none" && std::any_of(game.policies.begin(), game.policies.end(), [&](auto& p) {
            return search.rfind(std::string(p.name) + ":", 0) == 0 || search == p.name;
        });
    if (opt.search && search != "none" && !has_search)
        throw UsageError("--search '" + search + "': not a policy of " + std::string(game.name) +
                         " ('odds list " + std::string(game.name) + "' shows them), or none");
    if (has_search && budgets != "none") {
        const auto at = search.find("{n}");
        if (at == std::string::npos)
            throw UsageError("--search '" + search + "': write {n} where the budget goes, e.g. " +
                             "mcts:{n}");
        std::string why;
        const auto range = parse_range(budgets, why);
        if (budgets.find(':') != std::string::npos)  // LO..HI:STEP: a step was ignored
            why = "the budgets double from LO: no STEP";
        if (!range || !why.empty() || range->lo < 1 || range->hi > 1'000'000)
            throw UsageError("--budgets '" + budgets +
                             "': a range LO..HI of budgets from 1 to 1000000, doubling from LO" +
                             (why.empty() ? "" : " (" + why + ")") + ", or none");
        for (std::int64_t n = range->lo; n <= range->hi; n *= 2)
            rungs.push_back(search.substr(0, at) + std::to_string(n) + search.substr(at + 3));
    }
    if (rungs.size() < 2)
        throw UsageError(
            game.policies.size() < 2
                ? std::string(game.name) + " has one policy (no decision to make): no ladder"
                : "a skill ladder needs two rungs or more: give --policy NAME for each rule of "
                  "thumb, weakest first (and --search, --budgets for search)");
    std::vector<std::string> labels;
    for (const auto& r : rungs) {
        labels.push_back(parse_policy(game.name, game.policies, r).label);
        for (std::size_t j = 0; j + 1 < labels.size(); ++j)
            if (labels[j] == labels.back())
                throw UsageError("policy '" + r + "' is on the ladder twice");
    }
    return rungs;
}

// One group of games: a rung (solo: a == b) or a pairing of the round robin (two seats:
// sim/cli/round_robin.hpp), and where its outcome is.
struct Group : Pairing {
    std::size_t score[3] = {0, 0, 0};  // two seats: first's win, second's win, draw; solo: [0]
};

std::vector<Group> groups_of(const Args& opt, const GameEntry& game,
                             const std::vector<std::string>& rungs, std::string& metric) {
    std::vector<Group> groups;
    const Settings settings = settings_of(opt);
    auto index = [&](const PreparedRun& run, const std::string& name) {
        for (std::size_t m = 0; m < run.metrics.size(); ++m)
            if (run.metrics[m].name == name) return m;
        throw UsageError("--metric '" + name + "': not a metric of " + std::string(game.name) +
                         " ('odds list " + std::string(game.name) + "' shows them)");
    };
    if (game.seats.empty()) {
        if (metric.empty()) metric = std::string(game.headline.front());
        for (std::size_t r = 0; r < rungs.size(); ++r) {
            Group g{{r, r, game.prepare(settings, {rungs[r]})}};
            g.score[0] = index(*g.run, metric);
            groups.push_back(std::move(g));
        }
        return groups;
    }
    if (!metric.empty())
        throw UsageError("--metric: a two-seat game's ladder is rated by its results; " +
                         std::string(game.name) + " takes no --metric");
    for (Pairing& p : round_robin(game, settings, rungs)) {
        Group g{std::move(p)};
        for (std::size_t v = 0; v < 3; ++v) g.score[v] = index(*g.run, std::string(game.versus[v]));
        groups.push_back(std::move(g));
    }
    return groups;
}

// The groups as group_play plays them: a rung's metric, or a pairing's first seat's points.
std::vector<GroupSpec> specs_of(const std::vector<Group>& groups, bool solo) {
    std::vector<GroupSpec> specs;
    for (const auto& g : groups) specs.push_back({g.run.get(), g.score[0], g.score[2], solo});
    return specs;
}

// The outcomes of the first `games` games of each group, packed (groups x games), as the ladder
// measures them: a solo game's metric; a two-seat game's first seat's points (a draw half).
std::vector<double> first_games(const Outcomes& o, std::uint64_t games, bool solo) {
    std::vector<double> x;
    x.reserve(o.scores.size() * games);
    for (const auto& g : o.scores)
        for (std::uint64_t j = 0; j < games; ++j) x.push_back(solo ? g[j] : 0.5 * g[j]);
    return x;
}

// v to `digits` decimals, "?" when not known, and never "-0" (a rating of -0.3 prints 0).
std::string number(double v, int digits) {
    if (std::isnan(v)) return "?";
    std::string s = fixed(v, digits);
    if (s.find_first_not_of("-0.") == std::string::npos && s[0] == '-') s.erase(0, 1);
    return s;
}

// What a ladder found: its files and its table are written from this alone.
struct Ladder {
    std::string game, scenario, measure;  // measure: "rating", or the solo game's metric
    std::vector<std::string> rungs;
    std::uint64_t seed = 0, games = 0;
    std::size_t groups = 0;
    bool solo = false, partial = false;
    std::vector<Rung> results;
    LuckShare luck;
};

// Each rung's strength, from the outcomes x (groups x games).
std::vector<Rung> rate(const std::vector<Group>& groups, const Ladder& l,
                       const std::vector<double>& x) {
    if (l.solo) return rate_rungs(x, l.rungs.size(), l.games);
    std::vector<PairingPoints> points;
    for (std::size_t gi = 0; gi < groups.size(); ++gi) {
        double first = 0;
        for (std::uint64_t j = 0; j < l.games; ++j) first += x[gi * l.games + j];
        points.push_back({groups[gi].a, groups[gi].b, static_cast<double>(l.games), first});
    }
    return rate_pairings(points, l.rungs.size());
}

// ladder.csv and skill.csv (docs/output.md).
std::pair<std::string, std::string> ladder_files(const Ladder& l) {
    const std::string status = l.partial ? "partial" : "complete";
    const std::string head = csv_field(l.game) + ',' + csv_field(l.scenario) + ',' +
                             std::to_string(l.seed) + ',' + std::to_string(l.games) + ',';
    std::string ladder = schema::kLadder.header();
    for (std::size_t i = 0; i < l.rungs.size(); ++i) {
        const Rung& r = l.results[i];
        ladder +=
            head + std::to_string(i + 1) + ',' + csv_field(l.rungs[i]) + ',' + l.measure + ',' +
            format_double(r.value) + ',' + format_double(r.ci.low) + ',' +
            format_double(r.ci.high) + ',' + std::to_string(r.strength) + ',' +
            (r.below < 0 ? std::string() : csv_field(l.rungs[static_cast<std::size_t>(r.below)])) +
            ',' + (r.apart_from_below ? "true" : "false") + ',' + status + '\n';
    }
    auto cell = [](double v) { return std::isnan(v) ? std::string() : format_double(v); };
    const std::string skill = schema::kSkill.header() + head + csv_field(joined(l.rungs, " ")) +
                              ',' + std::to_string(l.rungs.size()) + ',' +
                              std::to_string(l.groups) + ',' + std::to_string(depth_of(l.results)) +
                              ',' + cell(l.luck.share) + ',' + cell(l.luck.ci.low) + ',' +
                              cell(l.luck.ci.high) + ',' + format_double(l.luck.within) + ',' +
                              format_double(l.luck.between) + ',' + status + '\n';
    return {ladder, skill};
}

// The table on stdout.
std::string ladder_table(const Ladder& l) {
    std::ostringstream t;
    int wide = 8;
    for (const auto& r : l.rungs) wide = std::max(wide, static_cast<int>(r.size()));
    const char* group = l.solo ? "rung" : "pairing";
    t << l.game << " skill | " << l.scenario << " | seed " << l.seed << " | " << l.games
      << (l.solo ? " games a rung" : " games a pairing, both seats") << ", the same dice for every "
      << group << (l.partial ? " (PARTIAL: interrupted)" : "") << '\n'
      << "ladder: " << joined(l.rungs, ", ")
      << " (the luck share below is of this ladder's policies)\n"
      << std::left << std::setw(6) << "rung" << std::setw(wide + 2) << "policy" << std::setw(12)
      << l.measure << std::setw(24) << "95% interval" << std::setw(10) << "strength"
      << "told apart from the next weaker\n";
    const int digits = l.solo ? 4 : 0;
    for (std::size_t i = 0; i < l.rungs.size(); ++i) {
        const Rung& r = l.results[i];
        std::string interval = "[";
        interval += number(r.ci.low, digits);
        interval += ", ";
        interval += number(r.ci.high, digits);
        interval += ']';
        const std::string weaker =
            r.below < 0 ? "(the weakest)" : l.rungs[static_cast<std::size_t>(r.below)];
        t << std::setw(6) << i + 1 << std::setw(wide + 2) << l.rungs[i] << std::setw(12)
          << number(r.value, digits) << std::setw(24) << interval << std::setw(10) << r.strength
          << (r.below < 0 ? std::string("-") : (r.apart_from_below ? "yes: " : "no: ") + weaker)
          << '\n';
    }
    t << "depth: " << depth_of(l.results) << " of " << l.rungs.size() - 1
      << " steps between neighbours in strength told apart (95%)\n"
      << "luck share: " << number(l.luck.share, 3) << " [" << number(l.luck.ci.low, 3) << ", "
      << number(l.luck.ci.high, 3) << "] of the outcome's variance is within a " << group
      << " (the dice), " << number(1 - l.luck.share, 3) << " between " << group
      << "s (the policies)\n";
    return t.str();
}

// -n: two games a group at least, and no more outcomes than odds skill keeps.
void check_games(std::uint64_t games, std::size_t groups) {
    if (games < 2) throw UsageError("-n '1': a ladder needs two games a group or more");
    if (games > kMaxOutcomes / groups)
        throw UsageError("-n " + std::to_string(games) + ": " + std::to_string(groups) +
                         " groups x that many games is more outcomes than odds skill keeps (" +
                         std::to_string(kMaxOutcomes) + ")");
}

}  // namespace

int cmd_skill(const Args& opt, Io io) {
    const GameEntry& game = game_of(opt);
    RunArgs run_args = run_args_of(opt);
    if (!run_args.playouts) run_args.playouts = game.skill_games;  // the game's own default
    const RunConfig cfg = run_args.config();
    const std::optional<std::string> out_dir = out_dir_of(opt);
    const bool report = report_wanted(opt);
    Ladder l;
    l.game = std::string(game.name);
    l.rungs = rungs_of(opt, game);
    l.measure = opt.metric.value_or("");
    if (opt.metric && l.measure.empty())  // not "no --metric" (issue 40)
        throw UsageError("--metric '' is not valid; give a metric of " + l.game + " ('odds list " +
                         l.game + "' shows them)");
    const auto groups = groups_of(opt, game, l.rungs, l.measure);
    l.solo = game.seats.empty();
    if (!l.solo) l.measure = "rating";
    l.seed = cfg.seed;
    l.groups = groups.size();
    {  // what every group shares (Minimal Space Combat's ships differ by pairing)
        std::vector<std::string> scenarios;
        for (const auto& g : groups) scenarios.push_back(g.run->scenario);
        l.scenario = common_scenario(scenarios);
    }
    check_games(cfg.playouts, groups.size());
    const std::uint64_t total = cfg.playouts * groups.size();
    RunConfig played_cfg = cfg;
    played_cfg.chunk_size = group_block(cfg.playouts);
    ExecutorOf share = run_args.executor();  // --shard I/N, odds merge, MPI
    share->begin(run_args.plan("skill", game,
                               {groups_job(l.scenario, joined(l.rungs, " | "), cfg.playouts)}),
                 io.err);
    if (out_dir && share->writes_shard_file()) prepare_out_dir(*out_dir, true);
    announce_queued(run_args, io, "odds skill",
                    std::to_string(groups.size()) + (l.solo ? " rungs" : " pairings") + " x " +
                        std::to_string(cfg.playouts) + " games = " + std::to_string(total) +
                        " games",
                    cfg.threads);
    ChunkedResult<Outcomes> played;
    {
        InterruptGuard guard;
        ProgressBar bar(total, run_args.progress(), "games");
        played = play_groups(specs_of(groups, l.solo), played_cfg, *share, bar);
        bar.finish();
    }
    if (const auto shard_done = share->finish(io.out, io.err, "odds skill")) return *shard_done;
    l.games = played.tally.games();
    l.partial = l.games < cfg.playouts;
    if (l.games < 2) {
        io.err << "odds skill: interrupted before every rung had played two games; nothing "
                  "written\n";
        return InterruptGuard::exit_code();
    }
    const auto x = first_games(played.tally, l.games, l.solo);
    l.results = rate(groups, l, x);
    const int stopped_by = l.partial ? InterruptGuard::exit_code() : 0;
    InterruptGuard::reset();  // the games stopped; the bootstrap below may be stopped again
    {
        InterruptGuard guard;
        l.luck = luck_share(x, groups.size(), l.games, cfg.seed);
    }
    if (out_dir) {  // made only now: a ladder stopped before it had two games writes nothing
        prepare_out_dir(*out_dir);
        const fs::path dir(*out_dir);
        const auto [ladder, skill] = ladder_files(l);
        write_out_files({{dir / "ladder.csv", ladder}, {dir / "skill.csv", skill}}, dir, "skill",
                        opt.command_line, {l.game});
        if (report) write_report(dir, "skill", io);
    }
    io.out << ladder_table(l);
    if (l.partial) {
        io.err << "odds skill: interrupted; the ladder is of the first " << l.games
               << " games of every " << (l.solo ? "rung" : "pairing") << ", marked partial\n";
        return stopped_by;
    }
    return 0;
}

namespace {
void skill_options(po::options_description& d) {
    d.add_options()("playouts,n", po::value<std::string>()->value_name("N"),
                    "games a pairing (two seats) or a rung (solo): 100, 1e3, 2k (default: the "
                    "game's own, about two minutes on 2 cores; 100 for most games)")(
        "seed,s", po::value<std::string>()->default_value("1")->value_name("N"),
        "the ladder's seed (0 to 2^64-1)")("threads,j", po::value<std::string>()->value_name("N"),
                                           "worker threads (default: every hardware thread)")(
        "no-progress", "no progress bar, even on a terminal")(
        "search", po::value<std::string>()->value_name("SPELL"),
        "the search policy, {n} where its budget goes (default: the game's own, e.g. "
        "mcts:{n}), or none")(
        "budgets", po::value<std::string>()->value_name("LO..HI"),
        "search budgets, doubling from LO up to HI (default 16..64), or none")(
        "metric", po::value<std::string>()->value_name("METRIC"),
        "a solo game's measure of strength (default: its first headline metric)");
    add_shard_option(d);
    add_game_options(d);
    out_option(d, "write ladder.csv and skill.csv into DIR");
    add_report_option(d);
}
}  // namespace

const CommandSpec skill_spec = {
    "skill",
    "a skill ladder: how far search climbs, the game's depth and its luck share",
    "odds skill GAME --policy A --policy B [...] [--search SPELL --budgets LO..HI] [options]",
    "Plays a ladder of policies on the same dice: the --policy rungs as given (rules of thumb, "
    "random, the solved policy; weakest first) and the search policy at doubling budgets. A "
    "two-seat game plays every ordered pairing, -n games each; a solo game plays each rung "
    "-n games. Prints each rung's strength (a two-seat game's Bradley-Terry rating, a solo "
    "game's metric) with its 95% interval, the depth (the steps between neighbours in strength "
    "told apart at 95%) and the luck share: the part of the outcome's variance that lies within "
    "a pairing or rung (the dice) rather than between them (the policies), with a 95% bootstrap "
    "interval (docs/skill.md). --out DIR writes ladder.csv and skill.csv.",
    {"odds skill naval --policy random --policy gunner --policy boarder --budgets 16..64 -n 40",
     "odds skill fpb --policy bug-out --policy lead-from-front --search "
     "mcts:{n}:rollout=lead-from-front --budgets 16..128 -n 1000"},
    "game",
    1,
    skill_options,
    cmd_skill};

}  // namespace odds::cli
