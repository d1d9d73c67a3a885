// Msc: odds shape's hook (issue 32; docs/skill.md): its win probability at each
// step of sampled games, and the figures of reports/shape.hpp. The registry's (register.cpp).
#pragma once

#include <array>

#include "engine/msc/policies.hpp"
#include "reports/exact_report.hpp"
#include "sim/shape_run.hpp"

namespace odds::msc::shape_run {

// The shape of a campaign turn by turn (odds shape): side A's odds estimated at the start of
// every turn (M4) by rollouts of the two sides' own strategies from there.
void report(ShapeReport& rep, const Options& o, const std::array<Policy, 2>& seats,
            const odds::shape::Config& cfg, odds::shape::Sampler& games);

}  // namespace odds::msc::shape_run
