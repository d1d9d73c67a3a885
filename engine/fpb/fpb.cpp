#include "engine/fpb/fpb.hpp"

namespace odds::fpb {

namespace {
constexpr Option<Options> kOptions[] = {
    {.name = "max_turns",
     .type = integer(field<&Options::max_turns>, 1, 250),
     .help = "turns after which the game ends, everyone on the board left behind, {range}",
     .ruling = "H3"},
};
constexpr OptionTable<Options> kTable{"fpb", kOptions};
}  // namespace

std::span<const OptionInfo> option_infos() {
    static const std::vector<OptionInfo> infos = kTable.describe();
    return infos;
}

Options parse_options(const Settings& settings) { return kTable.read(kTable.reader(settings)); }

std::string scenario(const Options& o) { return kTable.scenario(o); }

std::vector<MetricSpec> metric_specs(const Options& o) {
    const int t = o.max_turns;
    std::vector<MetricSpec> m = {
        {"withdrawn", "marines withdrawn, wounded ones included (H7, H8)", MetricKind::count, 0, 8},
        {"wounded_withdrawn", "wounded marines carried out (H7)", MetricKind::count, 0, 8},
        {"left_behind", "marines left on the board (H8; everyone at the turn cap)",
         MetricKind::count, 0, 8},
        {"killed", "marines killed by the sniper (H6)", MetricKind::count, 0, 8},
        {"icecube_rescued", "Ice-cube withdrawn (H8)", MetricKind::rate, 0, 1},
        {"turns", "turns played (H3)", MetricKind::count, 1, t},
        {"clean", "nobody left behind or killed (H8)", MetricKind::rate, 0, 1},
        {"costly", "some withdrawn, someone left or killed (H8)", MetricKind::rate, 0, 1},
        {"lost", "nobody withdrawn (H8)", MetricKind::rate, 0, 1},
        {"squad_time", "the turn of the squad's first casualty, or of the end", MetricKind::count,
         1, t},
        {"squad_hit", "someone besides Ice-cube was wounded or killed", MetricKind::rate, 0, 1},
    };
    for (int i = 0; i < kSquad; ++i) {
        if (i == kIceCube) continue;
        const std::string n = kNames[i];
        m.push_back(
            {n + "_time", "the turn " + n + " was hit, or left the game", MetricKind::count, 1, t});
        m.push_back({n + "_hit", n + " was wounded or killed", MetricKind::rate, 0, 1});
    }
    return m;
}

std::vector<SurvivalSpec> survival_specs() {
    // P(neither wounded nor killed) by turn: the squad's first casualty, then each marine's.
    std::vector<SurvivalSpec> s = {SurvivalSpec{kSquadTime, kSquadHit, 1, "turn", "squad"}};
    for (int i = 0, k = 0; i < kSquad; ++i) {
        if (i == kIceCube) continue;
        s.push_back(
            SurvivalSpec{kMarineTime + 2 * k, kMarineTime + 2 * k + 1, 1, "turn", kNames[i]});
        ++k;
    }
    return s;
}

}  // namespace odds::fpb
