// What a game's exact solver fills for the registry (sim/registry.hpp, GameEntry::exact and
// ::shape): the exact law of each metric, and the shape of sampled games along their length. Here,
// not in sim/, so that engine/GAME/exact.cpp and shape.cpp fill them themselves.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "reports/shape.hpp"
#include "reports/stats.hpp"

namespace odds {

// What an exact solver returns: the exact law of each metric it solves.
struct ExactReport {
    std::string game;
    std::string scenario;
    std::string policy;
    std::vector<Distribution> laws;  // probabilities (plus any unresolved mass)
    std::vector<std::string> notes;  // printed under the table
    std::string survival;            // survival.csv, where the solver resolves it; else empty
    std::vector<std::string> warnings = {};  // printed on stderr (one line each)
    // The first seat's value under optimal play (draws half), where the solver states it.
    std::optional<double> value = {};
};

// The shape of a game along its length (odds shape; docs/skill.md): the tally of sampled games
// (reports/shape.hpp), with how p was known at each step.
struct ShapeReport {
    std::string game;
    std::string scenario;
    std::string policy;
    std::string estimator;  // "exact (...)" or "N rollouts of the seats' policies a step"
    shape::Tally tally;
    std::vector<std::string> notes;  // printed under the table
    bool partial = false;            // stopped before every game was played
};

}  // namespace odds
