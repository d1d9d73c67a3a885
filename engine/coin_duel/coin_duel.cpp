#include "engine/coin_duel/coin_duel.hpp"

namespace odds::coin_duel {

namespace {
constexpr Option<Options> kOptions[] = {
    {.name = "max_turns",
     .type = integer(field<&Options::max_turns>, 1, 100),
     .help = "turns before the duel is a draw, {range}",
     .ruling = "C1"},
};
constexpr OptionTable<Options> kTable{"coin-duel", kOptions};
}  // namespace

std::span<const OptionInfo> option_infos() {
    static const std::vector<OptionInfo> infos = kTable.describe();
    return infos;
}
Options parse_options(const Settings& settings) { return kTable.read(kTable.reader(settings)); }
std::string scenario(const Options& o) { return kTable.scenario(o); }

std::vector<MetricSpec> metric_specs(const Options& o) {  // C4
    return versus::outcome_specs(o.max_turns, "C2, C3", "no winner by max_turns", "never");
}
SurvivalSpec survival_spec() { return SurvivalSpec{versus::kTurns, versus::kTimeouts, 0, "turns", ""}; }

}  // namespace odds::coin_duel
