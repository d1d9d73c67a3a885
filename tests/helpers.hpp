// What the tests share: the CLI run in-process, and a game's Monte Carlo tally by name.
#pragma once

#include <cstdint>
#include <sstream>
#include <string>
#include <vector>

#include "sim/cli.hpp"
#include "sim/registry.hpp"

namespace odds::test {

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

}  // namespace odds::test
