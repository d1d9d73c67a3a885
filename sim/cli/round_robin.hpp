// One round robin for the commands that seat policies against each other in a two-seat game:
// odds tournament's pairings and odds skill's two-seat ladder are the same games.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "sim/registry.hpp"

namespace odds::cli {

// Policy a (of the entrants) in the first seat against b in the second, prepared.
struct Pairing {
    std::size_t a = 0, b = 0;
    std::unique_ptr<PreparedRun> run;
};

// Every ordered pair of distinct entrants, seats swapped (a against b, then b against a), in the
// order a, then b; but two that each need a fixed opponent (best-response) never meet. Each is
// prepared under `settings`: a mistake in a pairing is a UsageError before anything is played.
std::vector<Pairing> round_robin(const GameEntry& game, const Settings& settings,
                                 const std::vector<std::string>& entrants);

}  // namespace odds::cli
