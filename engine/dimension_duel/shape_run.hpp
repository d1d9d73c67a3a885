// Dimension Duel: odds shape's hook (issue 32; docs/skill.md): its win probability at each
// step of sampled games, and the figures of reports/shape.hpp. The registry's (register.cpp).
#pragma once

#include <array>

#include "engine/dimension_duel/policies.hpp"
#include "reports/exact_report.hpp"
#include "sim/shape_run.hpp"

namespace odds::dimension_duel::shape_run {

// The shape of sampled duels along their length, turn by turn: Tau's odds exact from the
// value table (shape.hpp), or rollouts when asked (--estimator rollouts).
void report(ShapeReport& rep, const Options& o, const std::array<Policy, 2>& seats,
            const odds::shape::Config& cfg, odds::shape::Sampler& games);

}  // namespace odds::dimension_duel::shape_run
