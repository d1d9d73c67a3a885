// Race, exactly: the law of every metric under any policy, by a forward pass over the
// distribution of (square, rolls) turn by turn (engine/race/RULES.md).
#pragma once

#include <vector>

#include "engine/race/policies.hpp"

namespace odds::exact::race {

// mass[m][v - lo]: P(metric m = v), for the metrics of odds::race::metric_specs.
std::vector<std::vector<double>> solve(const odds::race::Options& o, const odds::race::Policy& p);

}  // namespace odds::exact::race
