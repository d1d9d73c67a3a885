// Fpb: odds shape's hook (issue 32; docs/skill.md): its win probability at each
// step of sampled games, and the figures of reports/shape.hpp. The registry's (register.cpp).
#pragma once

#include <array>

#include "engine/fpb/policies.hpp"
#include "reports/exact_report.hpp"
#include "sim/shape_run.hpp"

namespace odds::fpb::shape_run {

// The shape of a mission turn by turn (odds shape): the odds that Ice-cube is brought out
// (icecube_rescued, H8), estimated at the start of every turn (H3) by rollouts of the
// policy from there.
void report(ShapeReport& rep, const Options& o, const std::array<Policy, 1>& seats,
            const odds::shape::Config& cfg, odds::shape::Sampler& games);

}  // namespace odds::fpb::shape_run
