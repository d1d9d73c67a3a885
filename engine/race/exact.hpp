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

}  // namespace odds::exact::race
