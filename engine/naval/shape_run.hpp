// Naval: odds shape's hook (issue 32; docs/skill.md): its win probability at each
// step of sampled games, and the figures of reports/shape.hpp. The registry's (register.cpp).
#pragma once

#include <array>

#include "engine/naval/policies.hpp"
#include "reports/exact_report.hpp"
#include "sim/shape_run.hpp"

namespace odds::naval::shape_run {

// The shape of a game turn by turn (odds shape): side A's odds estimated at the start of
// every turn (N4) by rollouts of the two sides' own policies from there (the whole state,
// hands and deck included: the odds of an onlooker who sees everything).
void report(ShapeReport& rep, const Options& o, const std::array<Policy, 2>& seats,
            const odds::shape::Config& cfg, odds::shape::Sampler& games);

}  // namespace odds::naval::shape_run
