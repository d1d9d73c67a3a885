// Bosconian: odds shape's hook (issue 32; docs/skill.md): its win probability at each
// step of sampled games, and the figures of reports/shape.hpp. The registry's (register.cpp).
#pragma once

#include <array>

#include "engine/bosconian/policies.hpp"
#include "reports/exact_report.hpp"
#include "sim/shape_run.hpp"

namespace odds::bosconian::shape_run {

// The shape of a mission sector by sector (odds shape): P(win) exact before the layout
// and before each sector entered (engine/bosconian/shape.hpp).
void report(ShapeReport& rep, const Options& o, const std::array<Policy, 1>& seats,
            const odds::shape::Config& cfg, odds::shape::Sampler& games);

}  // namespace odds::bosconian::shape_run
