// Race: odds shape's hook (issue 32; docs/skill.md): its win probability at each
// step of sampled games, and the figures of reports/shape.hpp. The registry's (register.cpp).
#pragma once

#include <array>

#include "engine/race/policies.hpp"
#include "reports/exact_report.hpp"
#include "sim/shape_run.hpp"

namespace odds::race::shape_run {

// The shape of a race turn by turn (odds shape): P(win) exact from the value table of the
// policy (exact::race::values), or rollouts for mcts or when asked.
void report(ShapeReport& rep, const Options& o, const std::array<Policy, 1>& seats,
            const odds::shape::Config& cfg, odds::shape::Sampler& games);

}  // namespace odds::race::shape_run
