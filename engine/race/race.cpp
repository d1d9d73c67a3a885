#include "engine/race/race.hpp"

namespace odds::race {

namespace {
constexpr Option<Options> kOptions[] = {
    {.name = "goal",
     .type = integer(field<&Options::goal>, 2, kMaxGoal),
     .help = "the square to reach, {range}",
     .ruling = "R1"},
    {.name = "max_turns",
     .type = integer(field<&Options::max_turns>, 1, kMaxTurns),
     .help = "turns before the race is lost, {range}",
     .ruling = "R1"},
};
constexpr OptionTable<Options> kTable{"race", kOptions};
}  // namespace

std::span<const OptionInfo> option_infos() {
    static const std::vector<OptionInfo> infos = kTable.describe();
    return infos;
}

Options parse_options(const Settings& settings) { return kTable.read(kTable.reader(settings)); }

std::string scenario(const Options& o) { return kTable.scenario(o); }

std::vector<MetricSpec> metric_specs(const Options& o) {
    return {
        {"win", "the goal reached within max_turns (R3)", MetricKind::rate, 0, 1},
        {"turns", "turns played (R3)", MetricKind::count, 0, o.max_turns},
        {"square", "the square at the end, the goal at most (R4)", MetricKind::count, 0, o.goal},
        {"rolls", "turns the player rolled (R2)", MetricKind::count, 0, o.max_turns}};
}

SurvivalSpec survival_spec() { return SurvivalSpec{kTurns, kWin, 0, "turns", ""}; }

}  // namespace odds::race
