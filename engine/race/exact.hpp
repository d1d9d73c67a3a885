// Race, exactly: the law of every metric under any policy, by a forward pass over the
// distribution of (square, rolls) turn by turn (engine/race/RULES.md).
#pragma once

#include <array>
#include <vector>

#include "engine/race/policies.hpp"
#include "reports/exact_report.hpp"

namespace odds::exact::race {

// mass[m][v - lo]: P(metric m = v), for the metrics of odds::race::metric_specs.
std::vector<std::vector<double>> solve(const odds::race::Options& o, const odds::race::Policy& p);
// odds exact race (GameEntry::exact): solve()'s law of every metric, nothing unresolved.
void report(ExactReport& r, const odds::race::Options& o,
            const std::array<odds::race::Policy, 1>& seat);

// P(win) under the policy from every (square, turns played): value[square][turn], by backward
// induction over turns (R2, R3); the square at the goal is a win, a turn at max_turns short of it
// a loss. What odds shape follows a race by. Refuses mcts, as solve does.
struct Values {
    std::vector<std::vector<double>> value;
    double at(const odds::race::State& s) const {
        return value[static_cast<std::size_t>(s.square)][static_cast<std::size_t>(s.turn)];
    }
};
Values values(const odds::race::Options& o, const odds::race::Policy& p);

}  // namespace odds::exact::race
