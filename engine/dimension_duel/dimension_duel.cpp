#include "engine/dimension_duel/dimension_duel.hpp"

namespace odds::dimension_duel {

namespace {
constexpr Option<Options> kOptions[] = {
    {.name = "hp",
     .type = integer(field<&Options::hp>, 1, 1000),
     .help = "hit points each player starts with, {range}",
     .ruling = "D1"},
    {.name = "max_turns",
     .type = integer(field<&Options::max_turns>, 1, 1'000'000),
     .help = "turns after which the duel is a draw, {range}",
     .ruling = "D6"},
    {.name = "single_use",
     .type = boolean(field<&Options::single_use>),
     .help = "true: each function but Bluff can be used once per game",
     .ruling = "D7"},
    {.name = "changers",
     .type = choice(field<&Options::separate_changers>, "shared,separate"),
     .help =
         "under single_use, the changer's two modes are one function (shared) or two (separate)",
     .ruling = "D7a"},
};
constexpr OptionTable<Options> kTable{"dimension-duel", kOptions};
}  // namespace

std::span<const OptionInfo> option_infos() {
    static const std::vector<OptionInfo> infos = kTable.describe();
    return infos;
}

Options parse_options(const Settings& settings) { return kTable.read(kTable.reader(settings)); }

std::string scenario(const Options& o) { return kTable.scenario(o); }

std::vector<MetricSpec> metric_specs(const Options& o) {
    const int turns = o.max_turns;
    const int dealt = o.hp + 72;  // the last blow may overshoot by at most 3 dice x 6 x 4
    std::vector<MetricSpec> m = {
        {"tau_win", "Tau won (D6)", MetricKind::rate, 0, 1},
        {"kaon_win", "Kaon won (D6)", MetricKind::rate, 0, 1},
        {"draw", "both died in one turn, or the turn cap (D6)", MetricKind::rate, 0, 1},
        {"advantage_first",
         "Tau's score, 1 a win, 1/2 a draw: P(Tau wins) + P(draw)/2 (Ludii's AdvantageP1)",
         MetricKind::count, 0, 2, 2},
        {"turns", "turns played (D1)", MetricKind::count, 1, turns},
        {"winner_hp", "the winner's hit points at the end (0 for a draw)", MetricKind::count, 0,
         o.hp},
        {"timeouts", "ended as a draw by max_turns (D6)", MetricKind::rate, 0, 1},
        {"drawishness", "a draw before max_turns: both died in one turn (D6)", MetricKind::rate, 0,
         1},
        {"tau_dealt", "damage Tau's dice did to Kaon", MetricKind::count, 0, dealt},
        {"kaon_dealt", "damage Kaon's dice did to Tau", MetricKind::count, 0, dealt},
    };
    for (int seat = 0; seat < 2; ++seat)
        for (int f = 0; f < kFunctionCount; ++f)
            m.push_back({std::string(kSeatNames[seat]) + "_" + kFunctionNames[f],
                         std::string("times ") + kSeatNames[seat] + " played " + kFunctionNames[f] +
                             " (D2)",
                         MetricKind::count, 0, turns});
    return m;
}

SurvivalSpec survival_spec() {
    // P(the duel is still running after t turns): every duel ends by the event.
    return SurvivalSpec{kTurns, -1, 1, "turns", ""};
}

}  // namespace odds::dimension_duel
