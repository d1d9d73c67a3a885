// What every registered game must do, checked by looping over the registry (like OpenSpiel's
// random-simulation test), so a new game is covered without editing this file. For each game and
// each of its policies:
//   - every metric of every playout lies in its declared range, and the metrics fit the buffer;
//   - a run on 1 thread and on 3 threads gives identical tallies (and so identical files);
//   - the runner agrees with play_each, playout for playout (a run of one-playout chunks seeds
//     chunk k as play_each seeds playout k);
//   - playing allocates nothing on the heap (where allocations are counted: not under sanitizers);
// and for each game: its committed baseline exists, records this rules version and passes
// `odds check`; a bad value of every rule option is refused with exit 2; and for each game with
// positions (docs/positions.md): `odds state`'s own output, given back to --state, plays exactly
// as a fresh game under every policy, and a malformed position is one line naming FILE:LINE.
#include <catch2/catch.hpp>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <random>
#include <string>
#include <vector>

#include "sim/registry.hpp"
#include "tests/alloc_counter.hpp"
#include "tests/helpers.hpp"

using namespace odds;
namespace fs = std::filesystem;

namespace {

std::string folder_of(std::string_view game) {
    std::string f(game);
    for (auto& c : f)
        if (c == '-') c = '_';
    return f;
}

// Few games of the search policies, which take milliseconds each; more of the others.
std::uint64_t games_for(std::string_view policy) {
    return policy.find("rollout") != std::string_view::npos ||
                   policy.find("mcts") != std::string_view::npos
               ? 12
               : 40;
}

// What the tests play for a policy of the table: its name, but mcts at a small budget (its
// default searches 1,000 iterations a decision; its play is the same code at any budget), and
// so msc's DOCTRINE/mcts.
std::string played(std::string_view policy) {
    return policy == "mcts" || policy.ends_with("/mcts") ? std::string(policy) + ":16"
                                                         : std::string(policy);
}

// The game prepared with policy `p` (a two-seat policy that needs a fixed opponent plays the
// first seat against the default policy), by `make(settings, policies)`.
template <class Make>
std::unique_ptr<PreparedRun> prepared_with(const GameEntry& g, const PolicyInfo& p, Make&& make) {
    if (!p.needs_fixed_opponent) return make(Settings{}, std::vector<std::string>{played(p.name)});
    REQUIRE(g.seats.size() == 2);
    return make(Settings{}, std::vector<std::string>{
                                std::string(g.seats[0]) + "=" + played(p.name),
                                std::string(g.seats[1]) + "=" + std::string(g.policies[0].name)});
}

// Every metric of each of n playouts (values as play_each writes them) in its declared range.
void check_in_range(const PreparedRun& run, const std::vector<std::int32_t>& values,
                    std::uint64_t n) {
    const std::size_t m = run.metrics.size();
    for (std::uint64_t i = 0; i < n; ++i)
        for (std::size_t k = 0; k < m; ++k) {
            const auto& spec = run.metrics[k];
            const std::int32_t v = values[i * m + k];
            INFO("playout " << i << ", metric " << spec.name << " = " << v);
            CHECK(v >= spec.lo);
            CHECK(v <= spec.hi);
        }
}

bool same_counts(const Tally& a, const Tally& b, std::size_t metrics) {
    for (std::size_t m = 0; m < metrics; ++m) {
        const auto x = a.counts(m), y = b.counts(m);
        if (!std::equal(x.begin(), x.end(), y.begin(), y.end())) return false;
    }
    return a.playouts() == b.playouts();
}

}  // namespace

TEST_CASE(
    "every game and policy: metrics in range, thread-independent, run = play_each, no allocation",
    "[conformance]") {
    for (const auto& g : games()) {
        for (const auto& p : g.policies) {
            // A bare name plays every seat of a two-seat game; a policy that cannot face itself
            // (best-response plans against a fixed opponent) plays the first seat against the
            // default policy.
            INFO("game " << g.name << ", policy " << p.name);
            const std::unique_ptr<PreparedRun> run = prepared_with(g, p, g.prepare);
            const std::size_t m = run->metrics.size();
            REQUIRE(m >= 1);
            REQUIRE(m <= static_cast<std::size_t>(kMaxMetrics));
            const std::uint64_t n = games_for(p.name);

            // play_each: every value in its declared range; no allocation.
            std::vector<std::int32_t> values(n * m);
            run->play_each(5, 0, 1, values.data());  // warm up: first-use statics
            const long before = test::allocations();
            run->play_each(5, 0, n, values.data());
            if (test::counting()) CHECK(test::allocations() == before);
            check_in_range(*run, values, n);

            // The runner with one-playout chunks replays play_each, playout for playout.
            RunConfig cfg;
            cfg.playouts = n;
            cfg.seed = 5;
            cfg.threads = 2;
            cfg.chunk_size = 1;
            const Tally by_runner = run->run(cfg, {}).tally;
            Tally by_each(run->metrics, run->survivals);
            for (std::uint64_t i = 0; i < n; ++i) by_each.add(&values[i * m]);
            CHECK(same_counts(by_runner, by_each, m));

            // 1 and 3 threads, several chunks: identical tallies.
            cfg.chunk_size = 4;
            cfg.threads = 1;
            const Tally one = run->run(cfg, {}).tally;
            cfg.threads = 3;
            const Tally three = run->run(cfg, {}).tally;
            CHECK(same_counts(one, three, m));
            CHECK(one.playouts() == n);
        }
    }
}

TEST_CASE("every game: its baseline exists, records this rules version and passes odds check",
          "[conformance]") {
    for (const auto& g : games()) {
        INFO("game " << g.name);
        const fs::path file = fs::path(ODDS_SOURCE_DIR) / "engine" / folder_of(g.name) /
                              (std::string(g.name) + ".baseline");
        REQUIRE(fs::exists(file));
        const auto r = test::cli({"check", "--no-progress", file.string()});
        INFO(r.out << r.err);
        CHECK(r.code == 0);
        CHECK(r.out.find("exact check") !=
              std::string::npos);  // same rules version, seed, playouts
    }
}

TEST_CASE("every game: a bad value of every rule option is refused with exit 2, one line",
          "[conformance]") {
    for (const auto& g : games()) {
        CHECK_FALSE(g.options.empty());
        for (const auto& o : g.options) {
            const std::string set = std::string(o.name) + "=?bad?";
            const auto r =
                test::cli({"run", std::string(g.name), "--set", set, "-n", "1", "--no-progress"});
            INFO(g.name << " --set " << set << ": " << r.err);
            CHECK(r.code == 2);
            CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
            CHECK(r.err.find(std::string(o.name)) != std::string::npos);
        }
        const auto unknown =
            test::cli({"run", std::string(g.name), "--set", "no_such_option=1", "-n", "1"});
        CHECK(unknown.code == 2);
    }
}

TEST_CASE("every game with positions: odds state's own output plays exactly as a fresh game",
          "[conformance][position]") {
    for (const GameEntry& g : listed_games()) {  // the engine's scripts too
        if (!g.opening_position) continue;
        INFO("game " << g.name);
        REQUIRE(g.prepare_from);
        const auto printed = test::cli({"state", std::string(g.name)});
        INFO(printed.err);
        REQUIRE(printed.code == 0);
        CHECK(printed.out == g.opening_position({}));
        const std::string file = "opening-" + std::string(g.name) + ".txt";
        for (const auto& p : g.policies) {
            INFO("policy " << p.name);
            const auto fresh = prepared_with(g, p, g.prepare);
            const auto from = prepared_with(g, p, [&](const Settings& s, const auto& pol) {
                return g.prepare_from(s, pol, printed.out, file);
            });
            REQUIRE(from->metrics.size() == fresh->metrics.size());
            RunConfig cfg;
            cfg.playouts = games_for(p.name);
            cfg.seed = 11;
            cfg.threads = 2;
            cfg.chunk_size = 4;
            CHECK(same_counts(fresh->run(cfg, {}).tally, from->run(cfg, {}).tally,
                              fresh->metrics.size()));
        }
    }
}

TEST_CASE("every game with positions: a malformed position is one line naming FILE:LINE, exit 2",
          "[conformance][position]") {
    for (const GameEntry& g : listed_games()) {  // the engine's scripts too
        if (!g.opening_position) continue;
        INFO("game " << g.name);
        const std::string opening = g.opening_position({});
        const auto line = std::count(opening.begin(), opening.end(), '\n') + 2;
        const fs::path file = test::temp_path("position", std::string(g.name) + ".txt");
        {
            std::ofstream out(file);
            out << opening << "\n?bad? 1\n";
        }
        const fs::path dir = test::temp_path("position", std::string(g.name) + "-out");
        const auto r = test::cli({"run", std::string(g.name), "--state", file.string(), "-n", "1",
                                  "--no-progress", "--out", dir.string()});
        INFO(r.err);
        CHECK(r.code == 2);
        CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
        CHECK(r.err.find(file.string() + ":" + std::to_string(line) + ": ") != std::string::npos);
        CHECK(r.err.find("?bad?") != std::string::npos);
        CHECK_FALSE(fs::exists(dir));
        fs::remove(file);
    }
}

namespace {

// A random legal-looking value of a declared option, small values likelier (log-uniform over
// its range), so that playouts stay short; "" leaves it at its default (text options: maps and
// layouts are drawn "random" half the time; paths and designs have their own tests).
std::string random_value(const OptionInfo& o, std::mt19937_64& rng) {
    std::uniform_real_distribution<double> u(0.0, 1.0);
    switch (o.kind) {
        case OptionKind::boolean:
            return u(rng) < 0.5 ? "true" : "false";
        case OptionKind::choice:
            return o.words.empty() ? "" : o.words[rng() % o.words.size()];
        case OptionKind::integer: {
            if (!o.words.empty() && u(rng) < 0.25) return o.words.front();
            const double span = static_cast<double>(o.max - o.min) + 1;
            const auto v = o.min + static_cast<std::int64_t>(std::exp(u(rng) * std::log(span))) - 1;
            return std::to_string(std::clamp(v, o.min, o.max));
        }
        case OptionKind::text:  // maps and layouts: random ones half the time
            return o.values.find("random") != std::string::npos && u(rng) < 0.5 ? "random" : "";
        case OptionKind::dice:  // a few dice of a size from 2 to 12, their totals in range
            for (int tries = 0; tries < 20; ++tries) {
                const int n = 1 + static_cast<int>(rng() % 4), x = 2 + static_cast<int>(rng() % 11);
                if (n >= o.min && n * x <= o.max)
                    return std::to_string(n) + "d" + std::to_string(x);
            }
            return "";
        case OptionKind::faces: {  // a random subset of the die's faces
            std::string s;
            for (int f = 1; f <= o.max; ++f)
                if (rng() % 2) {
                    if (!s.empty()) s += ',';
                    s += std::to_string(f);
                }
            return s.empty() ? "none" : s;
        }
        case OptionKind::steps:
            return "";
    }
    return "";
}

}  // namespace

// Issue 30: a valid run must never abort on a value past a metric's declared range (Naval Duel's
// captures, bounded by the fleet though recaptures repeat them, did). Every game, under policies
// drawn at random from its table (a different one a seat) and options drawn at random from their
// declared ranges: every metric of every playout inside the range declared for those options.
TEST_CASE("every game under random policies and random options: metrics in their ranges",
          "[conformance][property]") {
    std::mt19937_64 rng(30);
    for (const auto& g : games()) {
        const auto& seats = g.seats;
        for (int trial = 0; trial < 24; ++trial) {
            // Drawn again until the options and policies are accepted together (some options
            // rule each other out: a random map's width, the book's layout under best-response).
            std::unique_ptr<PreparedRun> run;
            std::string said;
            bool search = false;
            for (int attempt = 0; !run && attempt < 100; ++attempt) {
                Settings settings;
                for (const auto& o : g.options)
                    if (rng() % 2)
                        if (auto v = random_value(o, rng); !v.empty())
                            settings.emplace_back(o.name, v);
                std::vector<std::string> policies;
                search = false;
                for (std::size_t s = 0; s < std::max<std::size_t>(1, seats.size()); ++s) {
                    const std::string name(g.policies[rng() % g.policies.size()].name);
                    search = search || games_for(name) < 40;
                    const std::string seat = seats.empty() ? "" : std::string(seats[s]) + "=";
                    policies.push_back(seat + played(name));
                }
                // A search policy plays its games move by move: a drawn game that runs to the
                // turn cap (equilibrium's Disruptors against mcts: 10,000 turns of search) would
                // take minutes, so with search the cap is at most 100 where the game has one.
                if (search && std::any_of(g.options.begin(), g.options.end(),
                                          [](const auto& o) { return o.name == "max_turns"; })) {
                    auto cap = std::find_if(settings.begin(), settings.end(),
                                            [](const auto& s) { return s.first == "max_turns"; });
                    if (cap == settings.end())
                        settings.emplace_back("max_turns", "100");
                    else if (std::stoll(cap->second) > 100)
                        cap->second = "100";
                }
                said.clear();
                for (const auto& [n, v] : settings) said += " --set " + n + "=" + v;
                for (const auto& p : policies) said += " --policy " + p;
                try {
                    run = g.prepare(settings, policies);
                } catch (const UsageError&) {}
            }
            INFO("odds run " << g.name << said);
            REQUIRE(run);
            const std::size_t m = run->metrics.size();
            const std::uint64_t n = search ? 2 : 40;
            std::vector<std::int32_t> values(n * m);
            run->play_each(static_cast<std::uint64_t>(trial), 0, n, values.data());
            check_in_range(*run, values, n);
        }
    }
}

// The run the issue found aborting (SIGABRT: a value past metric 12's declared range): two
// ships a side, the boarder recapturing what the gunner took back. It completes now, and no
// capture count passes its range.
TEST_CASE("naval: captures and recaptures stay in captured_by's range", "[conformance][naval]") {
    const auto r = test::cli({"run", "naval", "--policy", "a=gunner", "--policy", "b=boarder",
                              "--set", "ships=2", "-n", "2000", "--no-progress"});
    INFO(r.err);
    CHECK(r.code == 0);
}
