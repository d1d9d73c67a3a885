// odds tournament: every ordered pair of policies in a two-seat game, seats swapped, each pairing
// on the same dice (chunk k of every pairing starts from the same stream: common random numbers),
// with win/draw/loss rates per pairing and seat and Bradley-Terry ratings.
#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <cmath>
#include <exception>
#include <filesystem>
#include <iomanip>
#include <mutex>
#include <optional>
#include <sstream>
#include <thread>

#include "engine/stop.hpp"
#include "policies/policy_table.hpp"
#include "reports/csv.hpp"
#include "reports/ratings.hpp"
#include "reports/schema.hpp"
#include "reports/stats.hpp"
#include "sim/cli/args.hpp"
#include "sim/cli/commands.hpp"
#include "sim/cli/report.hpp"
#include "sim/cli/round_robin.hpp"
#include "sim/cli/spec.hpp"
#include "sim/executor.hpp"
#include "sim/interrupt.hpp"

namespace odds::cli {

namespace fs = std::filesystem;

namespace {

// A pairing of the round robin (sim/cli/round_robin.hpp) and what the tournament reports of it
// once played: the games, and how many of them the first seat won, the second seat won, were
// drawn (its tally is dropped at once, so a tournament holds one pairing's tally at a time:
// docs/commands.md).
struct Played : Pairing {
    std::uint64_t games = 0;
    std::array<std::uint64_t, 3> results{};
    bool partial = false;
};

// Seconds a game of each pairing, from a few of its games timed before the tournament, for the
// progress bar alone (the games are not counted): a rollout pairing costs far more a game than a
// rule-of-thumb one, and the time left must weigh it so. Each pairing plays 1, 2, 4... games
// until it has taken kCalibration or played `max_games`; pairings are spread over `threads`.
std::vector<double> time_pairings(const std::vector<Played>& pairings, std::uint64_t seed,
                                  std::uint64_t max_games, unsigned threads) {
    constexpr double kCalibration = 0.02;  // seconds a pairing, or a single game if longer
    std::vector<double> cost(pairings.size(), 0.0);
    std::atomic<std::size_t> next{0};
    const auto& stop = InterruptGuard::flag();
    std::atomic<bool> failed{false};
    std::exception_ptr error;  // a worker's exception (out of memory), rethrown below
    std::mutex mu;
    auto calibrate = [&] {
        std::vector<std::int32_t> buf;
        for (std::size_t i;
             (i = next.fetch_add(1)) < pairings.size() && !stop.load() && !failed.load();) {
            const PreparedRun& run = *pairings[i].run;
            std::uint64_t played = 0;
            double seconds = 0;
            for (std::uint64_t n = 1; played < max_games && seconds < kCalibration && !stop.load();
                 n *= 2) {
                n = std::min(n, max_games - played);
                buf.resize(n * run.metrics.size());
                const auto start = std::chrono::steady_clock::now();
                try {
                    run.play_each(seed, played, n, buf.data());
                } catch (const StopRequested&) {  // a search stopped inside a game
                    return;
                }
                seconds +=
                    std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
                played += n;
            }
            cost[i] = played > 0 ? seconds / static_cast<double>(played) : 0.0;
        }
    };
    auto worker = [&] {
        try {
            calibrate();
        } catch (...) {
            std::lock_guard lock(mu);
            if (!error) error = std::current_exception();
            failed = true;
        }
    };
    {
        JoinedThreads pool;
        const auto n = std::max<std::size_t>(1, std::min<std::size_t>(threads, pairings.size()));
        for (std::size_t t = 0; t < n; ++t) pool.threads.emplace_back(worker);
    }
    if (error) std::rethrow_exception(error);
    return cost;
}

// The policies entered, each checked: a bare name, entered once by its canonical spelling (its
// parameters' defaults filled in: rollout and rollout:8 are one policy; so are mcts:5 and
// mcts:5:1.41), as compare refuses one twice.
void check_entrants(const GameEntry& game, const std::vector<std::string>& names) {
    std::vector<std::string> canonical;
    for (std::size_t i = 0; i < names.size(); ++i) {
        if (names[i].find('=') != std::string::npos)
            throw UsageError("--policy '" + names[i] +
                             "': give bare policy names; the tournament seats them");
        canonical.push_back(parse_policy(game.name, game.policies, names[i]).label);
        for (std::size_t j = 0; j < i; ++j)
            if (canonical[j] == canonical[i])
                throw UsageError(names[j] == names[i]
                                     ? "policy '" + names[i] + "' is entered twice"
                                     : "policy '" + names[i] + "' is entered twice: '" + names[j] +
                                           "' and '" + names[i] + "' are both " + canonical[i]);
    }
}

// The round robin of the policies entered, checked first.
std::vector<Played> pairings_of(const GameEntry& game, const Args& opt,
                                const std::vector<std::string>& names) {
    check_entrants(game, names);
    std::vector<Played> pairings;
    for (Pairing& p : round_robin(game, settings_of(opt), names))
        pairings.push_back({std::move(p)});
    return pairings;
}

// Plays the pairings one after another under the executor, each keeping only its games and
// results; stops after the first interrupted one. Returns how many were played.
std::size_t play_pairings(std::vector<Played>& pairings, const GameEntry& game,
                          const RunConfig& cfg, Executor& share, bool show) {
    // The bar counts games; its share of the work done, and so the time left, weighs each
    // pairing by its cost a game, timed on a few games first (only when the bar is shown).
    ProgressBar bar(cfg.playouts * pairings.size(), show, "games");
    std::vector<double> cost;
    const std::vector<std::uint64_t> games(pairings.size(), cfg.playouts);
    if (show) {
        bar.update(0, 0.0);  // "estimating..."
        InterruptGuard guard;
        // At most a twentieth of each pairing's games, and 64.
        cost = time_pairings(pairings, cfg.seed,
                             std::clamp<std::uint64_t>(cfg.playouts / 20, 1, 64), cfg.threads);
        bar.restart();
    }
    std::size_t played = 0;
    for (auto& p : pairings) {
        RunConfig one = cfg;
        one.chunk_size = p.run->chunk_size;
        const std::size_t i = played;
        const RunResult r = share.play(i, *p.run, one, [&, i](std::uint64_t done) {
            bar.update(cfg.playouts * i + done, weighted_work(cost, games, i, done));
        });
        p.games = r.tally.playouts();
        for (std::size_t v = 0; v < 3; ++v)  // first seat's win, second's win, draw
            for (std::size_t m = 0; m < p.run->metrics.size(); ++m)
                if (p.run->metrics[m].name == game.versus[v]) p.results[v] = r.tally.counts(m)[1];
        p.partial = r.partial;
        ++played;
        if (p.partial) break;
    }
    bar.finish();
    return played;
}

// What the tournament reports of the pairings played: tournament.csv's rows, the table's cells
// (first wins/draws/second wins), the ratings from every policy's points, and what each policy
// brings to its pairings' scenarios.
struct Standings {
    std::string csv;
    std::vector<std::vector<std::string>> cell;
    std::vector<Rating> ratings;
    std::vector<std::string> scenarios, own_text;
    std::string common;
    bool partial = false;
};

void add_pairing(Standings& st, const Played& p, const GameEntry& game,
                 const std::vector<std::string>& names, std::uint64_t seed,
                 std::vector<std::vector<double>>& games_played,
                 std::vector<std::vector<double>>& points) {
    const double n = static_cast<double>(p.games);
    double rate[3] = {0, 0, 0};
    for (std::size_t v = 0; v < 3; ++v) rate[v] = n > 0 ? static_cast<double>(p.results[v]) : 0;
    const char* result_names[3] = {"first_wins", "second_wins", "draw"};
    const std::string first(game.seats[0]), second(game.seats[1]);
    for (int v : {0, 2, 1}) {
        const Interval ci = wilson(rate[v], n);
        st.csv += csv_field(game.name.data()) + ',' + csv_field(p.run->scenario) + ',' +
                  std::to_string(seed) + ',' + std::to_string(p.games) + ',' + first + ',' +
                  csv_field(names[p.a]) + ',' + second + ',' + csv_field(names[p.b]) + ',' +
                  result_names[v] + ',' + format_double(n > 0 ? rate[v] / n : 0) + ',' +
                  format_double(ci.low) + ',' + format_double(ci.high) + ',' +
                  (p.partial ? "partial" : "complete") + '\n';
    }
    games_played[p.a][p.b] += n;
    games_played[p.b][p.a] += n;
    points[p.a][p.b] += rate[0] + rate[2] / 2;
    points[p.b][p.a] += rate[1] + rate[2] / 2;
    st.cell[p.a][p.b] =
        n > 0 ? fixed(rate[0] / n, 3) + "/" + fixed(rate[2] / n, 3) + "/" + fixed(rate[1] / n, 3)
              : "-";
}

// What every pairing shares (the header, ratings.csv's scenario), and what each policy brings to
// its pairings' scenarios, seat by seat (msc: the ships it builds as side a and as side b):
// tournament.csv gives each pairing's whole scenario.
void scenario_parts(Standings& st, const std::vector<Played>& pairings, std::size_t k) {
    for (const auto& p : pairings) st.scenarios.push_back(p.run->scenario);
    st.common = common_scenario(st.scenarios);
    std::vector<std::array<std::vector<std::string>, 2>> own(k);
    for (const auto& p : pairings) {
        const auto& ss = p.run->seat_scenario;
        if (ss.size() != 2) continue;
        for (const auto& [who, s] :
             {std::pair{p.a, std::size_t{0}}, std::pair{p.b, std::size_t{1}}})
            if (std::find(own[who][s].begin(), own[who][s].end(), ss[s]) == own[who][s].end())
                own[who][s].push_back(ss[s]);
    }
    st.own_text.assign(k, "");
    for (std::size_t i = 0; i < k; ++i)
        for (const auto& seat_words : own[i])
            for (const auto& w : seat_words)
                st.own_text[i] += (st.own_text[i].empty() ? "" : " ") + w;
}

Standings standings_of(const std::vector<Played>& pairings, std::size_t played,
                       const GameEntry& game, const std::vector<std::string>& names,
                       std::uint64_t seed) {
    const std::size_t k = names.size();
    Standings st;
    st.partial = played > 0 && pairings[played - 1].partial;
    st.csv = schema::kTournament.header();
    st.cell.assign(k, std::vector<std::string>(k, "-"));
    std::vector<std::vector<double>> games_played(k, std::vector<double>(k, 0.0)),
        points(k, std::vector<double>(k, 0.0));
    for (std::size_t i = 0; i < played; ++i)
        add_pairing(st, pairings[i], game, names, seed, games_played, points);
    scenario_parts(st, pairings, k);
    st.ratings = bradley_terry(games_played, points);
    return st;
}

// ratings.csv: a policy a row.
std::string ratings_csv(const Standings& st, const GameEntry& game,
                        const std::vector<std::string>& names, std::uint64_t seed) {
    std::string rcsv = schema::kRatings.header();
    for (std::size_t i = 0; i < names.size(); ++i) {
        const Rating& r = st.ratings[i];
        rcsv += csv_field(game.name.data()) + ',' + csv_field(st.common) + ',' +
                std::to_string(seed) + ',' + csv_field(names[i]) + ',' + format_double(r.rating) +
                ',' + format_double(r.ci.low) + ',' + format_double(r.ci.high) + ',' +
                std::to_string(static_cast<std::uint64_t>(std::llround(r.games))) + ',' +
                // score: the share of the points, as the table on stdout says it; points last.
                format_double(r.games > 0 ? r.score / r.games : 0) + ',' +
                (st.partial ? "partial" : "complete") + ',' + csv_field(st.own_text[i]) + ',' +
                format_double(r.score) + '\n';
    }
    return rcsv;
}

// The cross table (first seat in rows) and the ratings, ranked.
std::string tournament_table(const Standings& st, const GameEntry& game,
                             const std::vector<std::string>& names, const RunConfig& cfg) {
    const std::size_t k = names.size();
    const std::string first(game.seats[0]), second(game.seats[1]);
    std::ostringstream t;
    // Columns as wide as the longest name (at least a cell's "0.000/0.000/0.000").
    int wide = 17;
    for (const auto& n : names) wide = std::max(wide, static_cast<int>(n.size()));
    t << game.name << " tournament | " << st.common << " | seed " << cfg.seed << " | "
      << cfg.playouts << " games a pairing, the same dice for every pairing"
      << (st.partial ? " (PARTIAL: interrupted)" : "") << '\n';
    // Listed when the pairings' scenarios differ (else the header holds them whole).
    if (std::any_of(st.scenarios.begin(), st.scenarios.end(),
                    [&](const auto& x) { return x != st.common; })) {
        t << "each policy's part of its pairings' scenarios:\n";
        for (std::size_t i = 0; i < k; ++i)
            t << "  " << std::left << std::setw(wide + 2) << names[i] << st.own_text[i] << '\n';
    }
    t << '\n'
      << first << " (rows) against " << second << " (columns): " << first << " wins / draws / "
      << second << " wins\n"
      << std::left;
    t << std::setw(wide + 2) << "";
    for (std::size_t b = 0; b < k; ++b) t << std::setw(wide + 2) << names[b];
    t << '\n';
    for (std::size_t a = 0; a < k; ++a) {
        t << std::setw(wide + 2) << names[a];
        for (std::size_t b = 0; b < k; ++b) t << std::setw(wide + 2) << st.cell[a][b];
        t << '\n';
    }
    std::vector<std::size_t> order(k);
    for (std::size_t i = 0; i < k; ++i) order[i] = i;
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) {
        return st.ratings[a].rating > st.ratings[b].rating;
    });
    t << "\nBradley-Terry ratings (Elo scale, mean 0; 95% interval)\n";
    for (std::size_t r = 0; r < k; ++r) {
        const auto& x = st.ratings[order[r]];
        t << std::setw(4) << r + 1 << std::setw(wide + 2) << names[order[r]] << std::right
          << std::setw(6) << fixed(x.rating, 0) << "  [" << fixed(x.ci.low, 0) << ", "
          << fixed(x.ci.high, 0) << "]  score " << fixed(x.games > 0 ? x.score / x.games : 0, 3)
          << std::left << '\n';
    }
    return t.str();
}

}  // namespace

int cmd_tournament(const Args& opt, Io io) {
    const GameEntry& game = game_of(opt);
    if (game.seats.empty() || game.versus.empty())
        throw UsageError("game '" + std::string(game.name) +
                         "' has one seat; a tournament needs a two-seat game (" +
                         game_names(has_two_seats) + ")");
    const RunArgs run_args = run_args_of(opt, game.each_run_playouts());
    const RunConfig cfg = run_args.config();
    const std::optional<std::string> out_dir = out_dir_of(opt);
    const Format format = format_of(opt);
    const bool report = report_wanted(opt);
    const auto names = opt.policy;
    if (names.size() < 2) throw UsageError("a tournament needs at least two --policy entries");
    std::vector<Played> pairings = pairings_of(game, opt, names);
    ExecutorOf share = run_args.executor();  // --shard I/N, odds merge, MPI
    share->begin(run_args.plan("tournament", game, jobs_of(pairings, cfg.playouts)), io.err);
    if (out_dir && !share->dry()) prepare_out_dir(*out_dir, share->mode() == Executor::Mode::shard);

    announce_queued(run_args, io, "odds tournament",
                    std::to_string(pairings.size()) + " pairings x " +
                        std::to_string(cfg.playouts) +
                        " games = " + std::to_string(pairings.size() * cfg.playouts) + " games",
                    cfg.threads);
    const std::size_t played = play_pairings(pairings, game, cfg, *share, run_args.progress());
    if (const auto shard_done = share->finish(io.out, io.err, "odds tournament"))
        return *shard_done;

    const Standings st = standings_of(pairings, played, game, names, cfg.seed);
    const std::string rcsv = ratings_csv(st, game, names, cfg.seed);
    if (out_dir) {
        const fs::path dir(*out_dir);
        write_out_files({{dir / "tournament.csv", st.csv}, {dir / "ratings.csv", rcsv}}, dir,
                        "tournament", opt.command_line, {std::string(game.name)});
        if (report) write_report(dir, "tournament", io);
    }
    if (format == Format::table)
        io.out << tournament_table(st, game, names, cfg);
    else
        print_rows(io.out, format, rcsv);
    if (st.partial) {
        io.err
            << "odds tournament: interrupted; the pairings written are marked partial or missing\n";
        return 130;
    }
    return 0;
}

namespace {
void tournament_options(po::options_description& d) {
    add_run_options(d, nullptr, nullptr, kEachRunPlayouts);
    add_game_options(d);
    out_option(d, "write tournament.csv and ratings.csv into DIR");
    add_report_option(d);
    add_format_option(d, "ratings.csv");
}
}  // namespace

const CommandSpec tournament_spec = {
    "tournament",
    "every ordered pair of policies of a two-seat game, with ratings",
    "odds tournament GAME --policy A --policy B [--policy C ...] [options]",
    "Plays every ordered pair of policies (each in both seats; a policy does not play itself), "
    "every pairing on the same dice, and reports each pairing's win, draw and loss rates with "
    "95% intervals, and a Bradley-Terry rating per policy. With --out DIR: tournament.csv and "
    "ratings.csv.",
    {"odds tournament naval --policy gunner --policy boarder -n 2000",
     "odds tournament msc --policy balanced/strike --policy turtle/strike -n 1000 --out t"},
    "game",
    1,
    tournament_options,
    cmd_tournament};

}  // namespace odds::cli
