// What the tests share: the CLI run in-process, and a game's Monte Carlo tally by name.
#pragma once

#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <chrono>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "engine/stop.hpp"
#include "sim/cli/cli.hpp"
#include "sim/registry.hpp"

namespace odds::test {

// Whether `f` ends by StopRequested within a second of a stop request (Ctrl-C: engine/stop.hpp)
// made 100 ms after it starts; the request is withdrawn after.
template <class F>
bool stops_within_a_second(F f) {
    std::jthread raise([] {
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        g_stop_requested = true;
    });
    const auto start = std::chrono::steady_clock::now();
    bool stopped = false;
    try {
        f();
    } catch (const StopRequested&) {
        stopped = true;
    }
    const bool prompt = std::chrono::steady_clock::now() - start < std::chrono::seconds(1);
    raise.join();
    g_stop_requested = false;
    return stopped && prompt;
}

struct CliResult {
    int code;
    std::string out, err;
};

// Runs `odds ARGS...` in-process.
inline CliResult cli(std::vector<std::string> args) {
    args.insert(args.begin(), "odds");
    std::vector<const char*> argv;
    for (const auto& a : args) argv.push_back(a.c_str());
    std::ostringstream o, e;
    const int rc = odds_main(static_cast<int>(argv.size()), argv.data(), o, e);
    return {rc, o.str(), e.str()};
}

// `playouts` of `game` on two threads.
inline Tally monte_carlo(const char* game, const Settings& settings,
                         const std::vector<std::string>& policies, std::uint64_t playouts,
                         std::uint64_t seed) {
    const auto prepared = find_game(game).prepare(settings, policies);
    RunConfig cfg;
    cfg.playouts = playouts;
    cfg.seed = seed;
    cfg.threads = 2;
    cfg.chunk_size = prepared->chunk_size;
    return prepared->run(cfg, {}).tally;
}

// Metric m's histogram as a vector.
inline std::vector<std::uint64_t> counts(const Tally& t, int metric) {
    const auto c = t.counts(static_cast<std::size_t>(metric));
    return {c.begin(), c.end()};
}

// A prepared run's `playouts` on 1 and on 2 threads, in chunks of `chunk`: whether every
// metric's histogram is the same (results depend only on the seed).
inline bool same_on_1_and_2_threads(const PreparedRun& run, std::uint64_t playouts,
                                    std::uint64_t seed, std::uint32_t chunk) {
    RunConfig cfg;
    cfg.playouts = playouts;
    cfg.seed = seed;
    cfg.chunk_size = chunk;
    cfg.threads = 1;
    const Tally one = run.run(cfg, {}).tally;
    cfg.threads = 2;
    const Tally two = run.run(cfg, {}).tally;
    for (std::size_t m = 0; m < run.metrics.size(); ++m)
        if (counts(one, static_cast<int>(m)) != counts(two, static_cast<int>(m))) return false;
    return one.playouts() == playouts;
}

// The whole of a file ("" when it cannot be read).
inline std::string slurp(const std::filesystem::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// How many times `what` occurs in `text`, overlaps counted.
inline std::size_t occurrences(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}

// The message of the UsageError `f` throws, or "(no error)".
inline std::string usage_error(const std::function<void()>& f) {
    try {
        f();
    } catch (const UsageError& e) {
        return e.what();
    }
    return "(no error)";
}

// A scratch path in the temporary folder, odds-PREFIX-PID-NAME: unique to this process.
inline std::filesystem::path temp_path(std::string_view prefix, const std::string& name) {
    return std::filesystem::temp_directory_path() /
           ("odds-" + std::string(prefix) + "-" + std::to_string(::getpid()) + "-" + name);
}

// A refusal as every command makes one: exit 2, one line on stderr holding `says`, nothing on
// stdout, and `dir` (the --out asked for) not made.
inline void check_refused(const CliResult& r, const std::string& says,
                          const std::filesystem::path& dir) {
    INFO(r.err);
    CHECK(r.code == 2);
    CHECK(r.err.find(says) != std::string::npos);
    CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    CHECK(r.out.empty());
    CHECK_FALSE(std::filesystem::exists(dir));
}

// A baseline file of Bosconian-D with one playout moved from a loss to a win (the counts still
// add up to the playouts): what a kernel that plays differently would record.
inline void move_one_loss_to_a_win(const std::filesystem::path& file) {
    std::string text = slurp(file);
    const auto at = text.find("metric win rate");
    const auto zero = text.find(" 0:", at), one = text.find(" 1:", at);
    REQUIRE((zero != std::string::npos && one != std::string::npos));
    const auto end_zero = text.find(' ', zero + 1), end_one = text.find_first_of(" \n", one + 1);
    const long losses = std::stol(text.substr(zero + 3, end_zero - zero - 3));
    const long wins = std::stol(text.substr(one + 3, end_one - one - 3));
    text = text.substr(0, zero) + " 0:" + std::to_string(losses - 1) +
           " 1:" + std::to_string(wins + 1) + text.substr(end_one);
    std::ofstream(file) << text;
}

}  // namespace odds::test
