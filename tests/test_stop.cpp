// A stop request (Ctrl-C, SIGTERM: engine/stop.hpp) inside one playout or one exact solution:
// search, flat Monte Carlo and the exact solvers throw StopRequested; the runner drops the chunk
// stopped inside, so a stopped run is a prefix of whole chunks on any number of threads. (The
// real signals, the exit codes and the files: tests/cli_interrupt.sh.)
#include <catch2/catch.hpp>

#include <atomic>
#include <utility>
#include <vector>

#include "engine/dice.hpp"
#include "engine/dimension_duel/dimension_duel.hpp"
#include "engine/dimension_duel/equilibrium.hpp"
#include "engine/race/policies.hpp"
#include "engine/stop.hpp"
#include "policies/mcts.hpp"
#include "sim/registry.hpp"
#include "sim/runner.hpp"

using namespace odds;

namespace {

// Sets the stop request for its lifetime.
struct Stopped {
    Stopped() { g_stop_requested = true; }
    ~Stopped() { g_stop_requested = false; }
    Stopped(const Stopped&) = delete;
    Stopped& operator=(const Stopped&) = delete;
};

// The first playout of each chunk merged, in merge order.
struct Firsts {
    std::vector<std::uint64_t> v;
    void merge(const Firsts& o) { v.insert(v.end(), o.v.begin(), o.v.end()); }
};

}  // namespace

TEST_CASE("search stops at a stop request: StopRequested, within kStopCheckEvery iterations",
          "[stop][mcts]") {
    const race::Options o;
    race::Mcts mcts(100000, 1.41, narrow_policy<race::Basic>(race::make_policy(3, o)));
    race::State s;
    Dice dice(1);
    CHECK_NOTHROW(race::Mcts(200, 1.41, mcts.rollout()).choose(s, o, dice));
    {
        const Stopped stop;
        CHECK_THROWS_AS(mcts.choose(s, o, dice), StopRequested);
    }
    // The request cleared, the same search plays on.
    CHECK_NOTHROW(race::Mcts(200, 1.41, mcts.rollout()).choose(s, o, dice));
}

TEST_CASE("a search policy or a flat Monte Carlo one stopped inside a game: the chunk is dropped",
          "[stop][runner]") {
    const std::vector<std::pair<const char*, std::vector<std::string>>> runs = {
        {"naval", {"a=mcts:50", "b=gunner"}},
        {"naval", {"a=rollout:200", "b=gunner"}},
        {"fpb", {"mcts:50"}},
        {"fpb", {"rollout:200"}},
        {"dimension-duel", {"tau=mcts:50", "kaon=dice"}},
        {"msc", {"a=balanced/mcts:50", "b=balanced/rush"}},
        {"race", {"mcts:50"}}};
    for (const auto& [game, policies] : runs) {
        INFO(game << ' ' << policies.front());
        const auto run = find_game(game).prepare({}, policies);
        RunConfig cfg;
        cfg.playouts = 4;
        cfg.threads = 1;
        cfg.chunk_size = 2;
        // No stop flag of the runner's own (ctl.stop unset): only the search sees the request.
        const Stopped stop;
        const RunResult r = run->run(cfg, {});
        CHECK(r.partial);
        CHECK(r.chunks == 0);
        CHECK(r.tally.playouts() == 0);
    }
}

TEST_CASE("a chunk stopped inside is dropped: the result is a prefix of whole chunks, any threads",
          "[stop][runner]") {
    for (unsigned threads : {1u, 3u}) {
        INFO(threads << " threads");
        const RunConfig cfg{.playouts = 100, .seed = 5, .threads = threads, .chunk_size = 10};
        std::atomic<bool> stopped{false};
        const auto r =
            run_chunks(cfg, Firsts{}, [&](Dice&, std::uint64_t first, std::uint64_t, Firsts& c) {
                c.v.push_back(first);
                // Chunk 4 stops inside; the request stands for every chunk after it.
                if (first >= 40 || stopped) {
                    stopped = true;
                    throw StopRequested{};
                }
            });
        CHECK(r.partial);
        REQUIRE(r.chunks <= 4);
        // Whatever other threads finished, only chunks 0..K-1 merge, K <= 4, in order.
        std::vector<std::uint64_t> prefix;
        for (std::uint64_t k = 0; k < r.chunks; ++k) prefix.push_back(k * 10);
        CHECK(r.tally.v == prefix);
        if (threads == 1) CHECK(r.chunks == 4);
    }
}

TEST_CASE("the exact solvers stop at a stop request: StopRequested, nothing returned",
          "[stop][exact]") {
    for (const char* game : {"bosconian", "dimension-duel", "race"}) {
        INFO(game);
        const auto& g = find_game(game);
        REQUIRE(g.exact != nullptr);
        CHECK_NOTHROW(g.exact({}, {}));
        const Stopped stop;
        CHECK_THROWS_AS(g.exact({}, {}), StopRequested);
    }
    // Dimension Duel's equilibrium (the policy `equilibrium` solves it when prepared).
    const auto o = dimension_duel::parse_options({{"hp", "12"}, {"max_turns", "10000"}});
    const Stopped stop;
    CHECK_THROWS_AS(dimension_duel::solve_equilibrium(o), StopRequested);
}
