#include "engine/race/race.hpp"

namespace odds::race {

namespace {
constexpr OptionInfo kOptions[] = {
    {"goal", "20", "the square to reach, 2..100 (R1)"},
    {"max_turns", "8", "turns before the race is lost, 1..50 (R1)"},
};
}  // namespace

std::span<const OptionInfo> option_infos() { return kOptions; }

Options parse_options(const Settings& settings) {
    const OptionReader r("race", kOptions, settings);
    Options o;
    o.goal = static_cast<int>(r.integer("goal", 20, 2, kMaxGoal));
    o.max_turns = static_cast<int>(r.integer("max_turns", 8, 1, kMaxTurns));
    return o;
}

std::string scenario(const Options& o) {
    return "goal=" + std::to_string(o.goal) + " max_turns=" + std::to_string(o.max_turns);
}

std::vector<MetricSpec> metric_specs(const Options& o) {
    return {{"win", "the goal reached within max_turns (R3)", MetricKind::rate, 0, 1},
            {"turns", "turns played (R3)", MetricKind::count, 0, o.max_turns},
            {"square", "the square at the end, the goal at most (R4)", MetricKind::count, 0, o.goal},
            {"rolls", "turns the player rolled (R2)", MetricKind::count, 0, o.max_turns}};
}

SurvivalSpec survival_spec() { return SurvivalSpec{kTurns, kWin, 0, "turns", ""}; }

}  // namespace odds::race
