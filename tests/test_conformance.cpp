// What every registered game must do, checked by looping over the registry (like OpenSpiel's
// random-simulation test), so a new game is covered without editing this file. For each game and
// each of its policies:
//   - every metric of every playout lies in its declared range, and the metrics fit the buffer;
//   - a run on 1 thread and on 3 threads gives identical tallies (and so identical files);
//   - the runner agrees with play_each, playout for playout (a run of one-playout chunks seeds
//     chunk k as play_each seeds playout k);
//   - playing allocates nothing on the heap (where allocations are counted: not under sanitizers);
// and for each game: its committed baseline exists, records this rules version and passes
// `odds check`; a bad value of every rule option is refused with exit 2.
#include <catch2/catch.hpp>

#include <algorithm>
#include <filesystem>
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
    return policy.find("rollout") != std::string_view::npos ? 12 : 40;
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
            std::unique_ptr<PreparedRun> run;
            try {
                run = g.prepare({}, {std::string(p.name)});
            } catch (const UsageError&) {
                REQUIRE_FALSE(g.seats.empty());
                auto seats = split_names(g.seats);
                for (auto& seat : seats) seat.erase(0, seat.find_first_not_of(' '));
                run = g.prepare({}, {seats[0] + "=" + std::string(p.name),
                                     seats[1] + "=" + std::string(g.policies[0].name)});
            }
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
            for (std::uint64_t i = 0; i < n; ++i)
                for (std::size_t k = 0; k < m; ++k) {
                    const auto& spec = run->metrics[k];
                    const std::int32_t v = values[i * m + k];
                    INFO("playout " << i << ", metric " << spec.name << " = " << v);
                    CHECK(v >= spec.lo);
                    CHECK(v <= spec.hi);
                }

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
