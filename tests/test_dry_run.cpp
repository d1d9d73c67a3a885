// Know the cost before paying it (sim/executor.hpp): --dry-run prints each job's playouts and
// expected time, from about a second's play of each, and exits 0 with nothing written; a long run
// says what it expects to take once its first second has told it.
#include <catch2/catch.hpp>

#include <atomic>
#include <chrono>
#include <filesystem>
#include <string>
#include <thread>

#include "engine/stop.hpp"
#include "sim/executor.hpp"
#include "sim/interrupt.hpp"
#include "tests/helpers.hpp"

using namespace odds;
namespace fs = std::filesystem;

TEST_CASE("a duration in words", "[dry-run]") {
    CHECK(sim::duration_words(0.04) == "0.0 s");
    CHECK(sim::duration_words(3.21) == "3.2 s");
    CHECK(sim::duration_words(42.4) == "42 s");
    CHECK(sim::duration_words(200) == "3 min 20 s");
    CHECK(sim::duration_words(7500) == "2 h 5 min");
}

TEST_CASE(
    "a dry run (--dry-run) prints every job and the expected time, exits 0 and writes nothing",
    "[dry-run][cli]") {
    const auto dir = test::temp_path("dry-run", "out");
    fs::remove_all(dir);
    const auto r = test::cli({"sweep", "fpb", "--vary", "max_turns=10,20", "-n", "200k",
                              "--dry-run", "--no-progress", "--out", dir.string()});
    INFO(r.err);
    REQUIRE(r.code == 0);
    CHECK(r.out.rfind("odds sweep --dry-run: fpb, 2 jobs of 400000 playouts in all on ", 0) == 0);
    CHECK(r.out.find("  max_turns=10 | cover-and-carry: 200000 playouts, about ") !=
          std::string::npos);
    CHECK(r.out.find("  max_turns=20 | cover-and-carry: 200000 playouts, about ") !=
          std::string::npos);
    CHECK(r.out.find("\nexpected: about ") != std::string::npos);
    CHECK(r.out.find(" s in all") != std::string::npos);
    CHECK_FALSE(fs::exists(dir));   // nothing made, nothing written
    CHECK_FALSE(stop_requested());  // the calibration's stop is not left for what follows

    // Every command that shares its work out takes it.
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"run", "bosconian", "-n", "100k"},
          {"compare", "bosconian", "--variant", "book", "--variant", "hull=80", "-n", "20k"},
          {"tournament", "naval", "--policy", "gunner", "--policy", "boarder", "-n", "50"},
          {"restrict", "fpb", "-n", "200"},
          {"shape", "dimension-duel", "-n", "100"}}) {
        std::vector<std::string> a = args;
        a.insert(a.end(), {"--dry-run", "--no-progress", "--out", dir.string()});
        const auto d = test::cli(a);
        INFO(args[0] << ": " << d.err);
        CHECK(d.code == 0);
        CHECK(d.out.find("odds " + args[0] + " --dry-run: ") != std::string::npos);
        CHECK(d.out.find("\nexpected: ") != std::string::npos);
        CHECK_FALSE(fs::exists(dir));
    }
}

TEST_CASE("tune's dry run plays its search for about two seconds and writes nothing",
          "[dry-run][cli][tune]") {
    const auto dir = test::temp_path("dry-run", "tune");
    fs::remove_all(dir);
    const auto r = test::cli({"tune", "fpb", "--vary", "max_turns=10..60", "--target",
                              "withdrawn max", "--search", "ntbea", "--trial-playouts", "20000",
                              "--dry-run", "--no-progress", "--out", dir.string()});
    INFO(r.err);
    REQUIRE(r.code == 0);
    CHECK(r.out.rfind("odds tune --dry-run: fpb, NTBEA over 51 settings: ", 0) == 0);
    CHECK(r.out.find("; timed for ") != std::string::npos);
    CHECK(r.out.find("\nexpected: about ") != std::string::npos);
    CHECK(r.out.find("(its deviation rounds not counted)") != std::string::npos);
    CHECK_FALSE(fs::exists(dir));
    CHECK_FALSE(stop_requested());
}

TEST_CASE("a dry run refuses what it cannot time, in one line", "[dry-run][cli]") {
    const auto shard = test::cli({"run", "bosconian", "--dry-run", "--shard", "1/2"});
    CHECK(shard.code == 2);
    CHECK(shard.err ==
          "odds run: --dry-run with --shard '1/2': a dry run times the whole plan; give one of "
          "the two\n");
    const auto sequential =
        test::cli({"check", std::string(ODDS_SOURCE_DIR) + "/engine/fpb/fpb.baseline",
                   "--sequential", "--dry-run"});
    CHECK(sequential.code == 2);
    CHECK(sequential.err.find("--dry-run with --sequential") != std::string::npos);
}

TEST_CASE("a run longer than ten seconds says what it expects to take after its first second",
          "[dry-run][cli]") {
    // 2G missions take minutes on any machine; stopped after 2.5 s, as Ctrl-C would.
    std::jthread stopper([](std::stop_token st) {
        const auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(2500);
        while (!st.stop_requested() && std::chrono::steady_clock::now() < until)
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        g_stop_requested = true;
    });
    const auto r = test::cli({"run", "bosconian", "-n", "2G", "--no-progress"});
    stopper.join();
    InterruptGuard::reset();
    CHECK(r.code == 130);
    CHECK(r.err.find("odds run: expected to take about ") != std::string::npos);
    CHECK(r.err.find(" more (from its first ") != std::string::npos);
}
