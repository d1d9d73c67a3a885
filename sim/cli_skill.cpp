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
#include "reports/ratings.hpp"
#include "reports/skill.hpp"
#include "sim/cli_commands.hpp"
#include "sim/cli_report.hpp"
#include "sim/cli_spec.hpp"
#include "sim/interrupt.hpp"
#include "sim/progress.hpp"

namespace odds::cli {

namespace fs = std::filesystem;

namespace {

inline constexpr std::uint64_t kMaxOutcomes = 50'000'000;  // groups x games kept in memory

// The ladder's rungs: the --policy names as given, then --search's spelling at each budget of
// --budgets (doubling from LO up to HI), each checked against the game's policy table.
std::vector<std::string> rungs_of(const po::variables_map& vm, const GameEntry& game) {
    std::vector<std::string> rungs = policies_of(vm);
    for (const auto& r : rungs)
        if (r.find('=') != std::string::npos)
            throw UsageError("--policy '" + r + "': give bare policy names; the ladder seats them");
    const std::string search = vm.count("search") ? vm["search"].as<std::string>() : "mcts:{n}";
    const std::string budgets = vm.count("budgets") ? vm["budgets"].as<std::string>() : "16..64";
    const bool has_search =
        search != "none" && std::any_of(game.policies.begin(), game.policies.end(), [&](auto& p) {
            return search.rfind(std::string(p.name) + ":", 0) == 0 || search == p.name;
        });
    if (vm.count("search") && search != "none" && !has_search)
        throw UsageError("--search '" + search + "': not a policy of " + std::string(game.name) +
                         " ('odds list " + std::string(game.name) + "' shows them), or none");
    if (has_search && budgets != "none") {
        const auto at = search.find("{n}");
        if (at == std::string::npos)
            throw UsageError("--search '" + search + "': write {n} where the budget goes, e.g. " +
                             "mcts:{n}");
        std::string why;
        const auto range = parse_range(budgets, why);
        if (!range || range->lo < 1 || range->hi > 1'000'000)
            throw UsageError("--budgets '" + budgets +
                             "': a range LO..HI of budgets from 1 to 1000000, doubling from LO" +
                             (why.empty() ? "" : " (" + why + ")") + ", or none");
        for (std::int64_t n = range->lo; n <= range->hi; n *= 2)
            rungs.push_back(search.substr(0, at) + std::to_string(n) + search.substr(at + 3));
    }
    if (rungs.size() < 2)
        throw UsageError(
            "a skill ladder needs two rungs or more: give --policy NAME for each "
            "rule of thumb, weakest first (and --search, --budgets for search)");
    std::vector<std::string> labels;
    for (const auto& r : rungs) {
        labels.push_back(parse_policy(game.name, game.policies, r).label);
        for (std::size_t j = 0; j + 1 < labels.size(); ++j)
            if (labels[j] == labels.back())
                throw UsageError("policy '" + r + "' is on the ladder twice");
    }
    return rungs;
}

// One group of games: a rung (solo) or an ordered pairing (two seats), and where its outcome is.
struct Group {
    std::size_t a = 0, b = 0;  // the rungs: first seat and second (solo: a == b)
    std::unique_ptr<PreparedRun> run;
    std::size_t score[3] = {0, 0, 0};  // two seats: first's win, second's win, draw; solo: [0]
};

std::vector<Group> groups_of(const po::variables_map& vm, const GameEntry& game,
                             const std::vector<std::string>& rungs, std::string& metric) {
    std::vector<Group> groups;
    const Settings settings = settings_of(vm);
    const auto seats = split_names(game.seats);
    auto seat = [&](std::size_t s) {
        std::string n = seats[s];
        n.erase(0, n.find_first_not_of(' '));
        return n;
    };
    auto index = [&](const PreparedRun& run, const std::string& name) {
        for (std::size_t m = 0; m < run.metrics.size(); ++m)
            if (run.metrics[m].name == name) return m;
        throw UsageError("--metric '" + name + "': not a metric of " + std::string(game.name) +
                         " ('odds list " + std::string(game.name) + "' shows them)");
    };
    if (seats.empty()) {
        if (metric.empty()) metric = split_names(game.headline).at(0);
        for (std::size_t r = 0; r < rungs.size(); ++r) {
            Group g{r, r, game.prepare(settings, {rungs[r]}), {}};
            g.score[0] = index(*g.run, metric);
            groups.push_back(std::move(g));
        }
        return groups;
    }
    if (!metric.empty())
        throw UsageError("--metric: a two-seat game's ladder is rated by its results; " +
                         std::string(game.name) + " takes no --metric");
    const auto versus = split_names(game.versus);
    for (std::size_t a = 0; a < rungs.size(); ++a)
        for (std::size_t b = 0; b < rungs.size(); ++b) {
            if (a == b) continue;
            Group g{a,
                    b,
                    game.prepare(settings, {seat(0) + "=" + rungs[a], seat(1) + "=" + rungs[b]}),
                    {}};
            for (std::size_t v = 0; v < 3; ++v) g.score[v] = index(*g.run, versus[v]);
            groups.push_back(std::move(g));
        }
    return groups;
}

// Plays game j of every group into y[g * n + j] on `threads` threads, the units (a few games of
// one group) taken block of games by block, every group's block before the next block, so that
// an interrupted ladder has played the same first games in every group. Returns how many first
// games every group has played.
std::uint64_t play_groups(const std::vector<Group>& groups, std::uint64_t n, std::uint64_t seed,
                          unsigned threads, bool solo, std::vector<double>& y, ProgressBar& bar) {
    // Small units first and last alike: a searched game can take a second, and Ctrl-C keeps only
    // the games every group has played.
    const std::uint64_t block = std::clamp<std::uint64_t>(n / 256, 1, 16);
    const std::uint64_t blocks = (n + block - 1) / block;
    const std::uint64_t units = blocks * groups.size();
    std::vector<char> done(units, 0);
    std::atomic<std::uint64_t> next{0}, games{0};
    std::exception_ptr error;
    std::mutex mu;
    const auto& stop = InterruptGuard::flag();
    auto work = [&] {
        std::vector<std::int32_t> out;
        for (std::uint64_t u; (u = next.fetch_add(1)) < units && !stop.load();) {
            const Group& g = groups[u % groups.size()];
            const std::uint64_t first = u / groups.size() * block;
            const std::uint64_t count = std::min(block, n - first);
            const std::size_t m = g.run->metrics.size();
            out.resize(count * m);
            try {
                g.run->play_each(seed, first, count, out.data());
            } catch (const StopRequested&) {
                return;
            } catch (...) {
                std::lock_guard lock(mu);
                if (!error) error = std::current_exception();
                return;
            }
            const std::size_t gi = u % groups.size();
            for (std::uint64_t i = 0; i < count; ++i) {
                const std::int32_t* row = &out[i * m];
                y[gi * n + first + i] =
                    solo ? row[g.score[0]] : row[g.score[0]] + 0.5 * row[g.score[2]];
            }
            done[u] = 1;
            bar.update(games.fetch_add(count) + count);
        }
    };
    {
        std::vector<std::jthread> pool;
        for (unsigned t = 0; t < std::max(1u, threads); ++t) pool.emplace_back(work);
    }
    if (error) std::rethrow_exception(error);
    std::uint64_t complete = 0;  // the blocks every group has played, from the first
    while (complete < blocks &&
           std::all_of(done.begin() + static_cast<std::ptrdiff_t>(complete * groups.size()),
                       done.begin() + static_cast<std::ptrdiff_t>((complete + 1) * groups.size()),
                       [](char c) { return c != 0; }))
        ++complete;
    return std::min(n, complete * block);
}

// The outcomes of the first `games` games of each group, packed: groups x games.
std::vector<double> first_games(const std::vector<double>& y, std::size_t groups, std::uint64_t n,
                                std::uint64_t games) {
    std::vector<double> x;
    x.reserve(groups * games);
    for (std::size_t g = 0; g < groups; ++g)
        x.insert(x.end(), y.begin() + static_cast<std::ptrdiff_t>(g * n),
                 y.begin() + static_cast<std::ptrdiff_t>(g * n + games));
    return x;
}

// A rung's strength: its value with a 95% interval, and whether it is told apart from the rung
// just below it in strength.
struct RungResult {
    double value = 0;
    Interval ci;
    bool apart_from_below = false;
};

// Two seats: Bradley-Terry ratings from the pairings' points; neighbours in rating order are
// told apart when their 95% intervals do not overlap.
std::vector<RungResult> rate_pairings(const std::vector<Group>& groups, std::size_t k,
                                      const std::vector<double>& x, std::uint64_t games) {
    std::vector<std::vector<double>> played(k, std::vector<double>(k, 0.0)),
        points(k, std::vector<double>(k, 0.0));
    for (std::size_t gi = 0; gi < groups.size(); ++gi) {
        const auto& g = groups[gi];
        double first = 0;
        for (std::uint64_t j = 0; j < games; ++j) first += x[gi * games + j];
        const auto n = static_cast<double>(games);
        played[g.a][g.b] += n;
        played[g.b][g.a] += n;
        points[g.a][g.b] += first;
        points[g.b][g.a] += n - first;
    }
    const auto ratings = bradley_terry(played, points);
    std::vector<RungResult> r(k);
    for (std::size_t i = 0; i < k; ++i) r[i] = {ratings[i].rating, ratings[i].ci, false};
    std::vector<std::size_t> order(k);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return r[a].value < r[b].value; });
    for (std::size_t i = 1; i < k; ++i)
        r[order[i]].apart_from_below = r[order[i]].ci.low > r[order[i - 1]].ci.high;
    return r;
}

// Solo: each rung's mean with its 95% interval; neighbours in mean order are told apart when
// their paired difference's 95% interval (the same games) excludes zero.
std::vector<RungResult> rate_rungs(std::size_t k, const std::vector<double>& x,
                                   std::uint64_t games) {
    std::vector<RungResult> r(k);
    auto row = [&](std::size_t i) { return std::span<const double>(x.data() + i * games, games); };
    const std::vector<double> zero(games, 0.0);
    for (std::size_t i = 0; i < k; ++i) {
        const Step s = paired_step(row(i), zero);
        r[i] = {s.diff, s.ci, false};
    }
    std::vector<std::size_t> order(k);
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return r[a].value < r[b].value; });
    for (std::size_t i = 1; i < k; ++i)
        r[order[i]].apart_from_below =
            paired_step(row(order[i]), row(order[i - 1])).distinguishable();
    return r;
}

// v to `digits` decimals, "?" when not known, and never "-0" (a rating of -0.3 prints 0).
std::string number(double v, int digits) {
    if (std::isnan(v)) return "?";
    std::string s = fixed(v, digits);
    if (s.find_first_not_of("-0.") == std::string::npos && s[0] == '-') s.erase(0, 1);
    return s;
}

}  // namespace

int cmd_skill(const std::vector<std::string>& args, Io io) {
    const auto parsed = parse_command("skill", args, io);
    if (!parsed) return 0;
    const po::variables_map& vm = *parsed;
    const GameEntry& game = game_of(vm);
    const RunConfig cfg = run_config_of(vm);
    const std::optional<std::string> out_dir = out_dir_of(vm);
    const bool report = report_wanted(vm);
    const auto rungs = rungs_of(vm, game);
    std::string metric = vm.count("metric") ? vm["metric"].as<std::string>() : "";
    const auto groups = groups_of(vm, game, rungs, metric);
    const bool solo = game.seats.empty();
    if (cfg.playouts < 2) throw UsageError("-n '1': a ladder needs two games a group or more");
    if (cfg.playouts > kMaxOutcomes / groups.size())
        throw UsageError("-n " + std::to_string(cfg.playouts) + ": " +
                         std::to_string(groups.size()) +
                         " groups x that many games is more "
                         "outcomes than odds skill keeps (" +
                         std::to_string(kMaxOutcomes) + ")");
    const std::uint64_t total = cfg.playouts * groups.size();
    announce_queued(vm, io, "odds skill",
                    std::to_string(groups.size()) + (solo ? " rungs" : " pairings") + " x " +
                        std::to_string(cfg.playouts) + " games = " + std::to_string(total) +
                        " games",
                    cfg.threads);
    std::vector<double> y(total, 0.0);
    std::uint64_t games = 0;
    {
        InterruptGuard guard;
        ProgressBar bar(total, progress_wanted(vm), "games");
        games = play_groups(groups, cfg.playouts, cfg.seed, cfg.threads, solo, y, bar);
        bar.finish();
    }
    const bool partial = games < cfg.playouts;
    if (games < 2) {
        io.err << "odds skill: interrupted before every rung had played two games; nothing "
                  "written\n";
        return 130;
    }
    const auto x = first_games(y, groups.size(), cfg.playouts, games);
    const auto results =
        solo ? rate_rungs(rungs.size(), x, games) : rate_pairings(groups, rungs.size(), x, games);
    const int stopped_by = partial ? InterruptGuard::exit_code() : 0;
    InterruptGuard::reset();  // the games stopped; the bootstrap below may be stopped again
    LuckShare luck;
    {
        InterruptGuard guard;
        luck = luck_share(x, groups.size(), games, cfg.seed);
    }
    int depth = 0;
    for (const auto& r : results) depth += r.apart_from_below ? 1 : 0;

    const std::string& scenario = groups.front().run->scenario;
    const std::string status = partial ? "partial" : "complete";
    const std::string measure = solo ? metric : "rating";
    std::string ladder =
        "game,scenario,seed,games,rung,policy,measure,value,ci_low,ci_high,"
        "apart_from_below,status\n";
    for (std::size_t i = 0; i < rungs.size(); ++i)
        ladder += csv_field(std::string(game.name)) + ',' + csv_field(scenario) + ',' +
                  std::to_string(cfg.seed) + ',' + std::to_string(games) + ',' +
                  std::to_string(i + 1) + ',' + csv_field(rungs[i]) + ',' + measure + ',' +
                  format_double(results[i].value) + ',' + format_double(results[i].ci.low) + ',' +
                  format_double(results[i].ci.high) + ',' +
                  (results[i].apart_from_below ? "true" : "false") + ',' + status + '\n';
    auto cell = [](double v) { return std::isnan(v) ? std::string() : format_double(v); };
    const std::string skill =
        "game,scenario,seed,games,rungs,groups,depth,luck_share,ci_low,ci_high,within,between,"
        "status\n" +
        csv_field(std::string(game.name)) + ',' + csv_field(scenario) + ',' +
        std::to_string(cfg.seed) + ',' + std::to_string(games) + ',' +
        std::to_string(rungs.size()) + ',' + std::to_string(groups.size()) + ',' +
        std::to_string(depth) + ',' + cell(luck.share) + ',' + cell(luck.ci.low) + ',' +
        cell(luck.ci.high) + ',' + format_double(luck.within) + ',' + format_double(luck.between) +
        ',' + status + '\n';
    if (out_dir) {  // made only now: a ladder stopped before it had two games writes nothing
        prepare_out_dir(*out_dir);
        const fs::path dir(*out_dir);
        write_files_atomic({{dir / "ladder.csv", ladder},
                            {dir / "skill.csv", skill},
                            provenance_file(dir, "skill", args, {std::string(game.name)})});
        if (report) write_report(dir, "skill", io);
    }

    std::ostringstream t;
    int wide = 8;
    for (const auto& r : rungs) wide = std::max(wide, static_cast<int>(r.size()));
    t << game.name << " skill | " << scenario << " | seed " << cfg.seed << " | " << games
      << (solo ? " games a rung" : " games a pairing, both seats") << ", the same dice for every "
      << (solo ? "rung" : "pairing") << (partial ? " (PARTIAL: interrupted)" : "") << '\n'
      << std::left << std::setw(6) << "rung" << std::setw(wide + 2) << "policy" << std::setw(12)
      << (solo ? metric : "rating") << std::setw(24) << "95% interval"
      << "above the one below it in strength\n";
    const int digits = solo ? 4 : 0;
    for (std::size_t i = 0; i < rungs.size(); ++i) {
        std::string interval = "[";
        interval += number(results[i].ci.low, digits);
        interval += ", ";
        interval += number(results[i].ci.high, digits);
        interval += ']';
        t << std::setw(6) << i + 1 << std::setw(wide + 2) << rungs[i] << std::setw(12)
          << number(results[i].value, digits) << std::setw(24) << interval
          << (results[i].apart_from_below ? "yes" : "-") << '\n';
    }
    t << "depth: " << depth << " of " << rungs.size() - 1
      << " steps between neighbours in strength told apart (95%)\n"
      << "luck share: " << number(luck.share, 3) << " [" << number(luck.ci.low, 3) << ", "
      << number(luck.ci.high, 3) << "] of the outcome's variance is within a "
      << (solo ? "rung" : "pairing") << " (the dice), " << number(1 - luck.share, 3) << " between "
      << (solo ? "rungs" : "pairings") << " (the policies)\n";
    io.out << t.str();
    if (partial) {
        io.err << "odds skill: interrupted; the ladder is of the first " << games
               << " games of every " << (solo ? "rung" : "pairing") << ", marked partial\n";
        return stopped_by;
    }
    return 0;
}

}  // namespace odds::cli
