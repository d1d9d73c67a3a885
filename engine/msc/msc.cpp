#include "engine/msc/msc.hpp"

namespace odds::msc {

namespace {
constexpr OptionInfo kOptions[] = {
    {"map", "example", "example (the seed's map, 26 x 22, 30 systems), random, or the path of a map file in the same format (M1, M1b); a path may hold commas, so odds sweep takes one map per --vary", true},
    {"width", "26", "random map: columns of hexes, 8..64 (M1)"},
    {"height", "22", "random map: rows of hexes, 8..64 (M1)"},
    {"systems", "30", "random map: star systems besides the homes, 2..100 (M1)"},
    {"budget", "525", "BPs each side spends on its starting fleet, 10..5000 (M3)"},
    {"max_turns", "300", "turns after which the campaign is a draw, 1..1000 (M8)"},
    {"swap_homes", "false", "true: side A starts at the map's second home, side B at the first (M1a)"},
    {"initiative", "roll", "roll: both roll for Player 1 every turn (M4); a or b: that side is always Player 1, to measure what initiative is worth (M4a)"},
    {"design_a", "doctrine", "side A's main design, e.g. E3S4T4W2 (ENGINE, SHIELDS, TO-HIT, weapons), or doctrine (M2a)"},
    {"design_b", "doctrine", "side B's main design, likewise (M2a)"},
    {"escort_a", "doctrine", "side A's escort design, e.g. E3S2T3W1, or doctrine (its design at 10 BP) (M2a)"},
    {"escort_b", "doctrine", "side B's escort design, likewise (M2a)"},
    {"escorts_a", "25", "percent of side A's ships built as escorts, 0..100 (M2a)"},
    {"escorts_b", "25", "percent of side B's ships built as escorts, 0..100 (M2a)"},
};
}  // namespace

std::span<const OptionInfo> option_infos() { return kOptions; }

Options parse_options(const Settings& settings) {
    const OptionReader r("msc", kOptions, settings);
    Options o;
    if (const auto t = r.text("map"); t && *t != "example") {
        if (*t == "random") {
            o.random_map = true;
        } else if (t->empty()) {
            r.fail("map", *t, "example, random or the path of a map file");
        } else {  // M1b: a designer's own map
            try {
                o.map_file = read_map_file(*t);
            } catch (const UsageError& e) {
                throw UsageError("msc: " + std::string(e.what()));
            }
            o.map_path = *t;
        }
    }
    o.width = static_cast<int>(r.integer("width", 26, 8, 64));
    o.height = static_cast<int>(r.integer("height", 22, 8, 64));
    o.systems = static_cast<int>(r.integer("systems", 30, 2, 100));
    if (!o.random_map && (r.text("width") || r.text("height") || r.text("systems")))
        r.fail("map", o.map_file ? o.map_path : "example",
               "random when width, height or systems are given");
    if (o.random_map && o.systems > o.width * o.height / 4)
        r.fail("systems", std::to_string(o.systems),
               "at most a quarter of the hexes (" + std::to_string(o.width * o.height / 4) + ")");
    o.budget = static_cast<int>(r.integer("budget", 525, 10, 5000));
    o.max_turns = static_cast<int>(r.integer("max_turns", 300, 1, 1000));
    o.swap_homes = r.boolean("swap_homes", false);
    if (const auto t = r.text("initiative"); t && *t != "roll") {
        if (*t != "a" && *t != "b") r.fail("initiative", *t, "roll, a or b");
        o.initiative = *t == "a" ? 0 : 1;
    }
    const char* names[2][kSides] = {{"design_a", "design_b"}, {"escort_a", "escort_b"}};
    for (int which = 0; which < 2; ++which)
        for (int side = 0; side < kSides; ++side)
            if (const auto t = r.text(names[which][side]); t && *t != "doctrine") {
                const auto d = parse_design(*t);
                if (!d)
                    r.fail(names[which][side], *t,
                           "E<engine>S<shields>T<to-hit>W<weapons>, each rating 0..5, costing 10, "
                           "15 or 20 BP (a weapon 2 BP), or doctrine");
                (which ? o.escort : o.design)[static_cast<std::size_t>(side)] = *d;
            }
    o.escort_share[0] = static_cast<int>(r.integer("escorts_a", kDefaultEscortShare, 0, 100));
    o.escort_share[1] = static_cast<int>(r.integer("escorts_b", kDefaultEscortShare, 0, 100));
    return o;
}

std::string scenario(const Options& o) {
    std::string s = o.random_map ? "map=random width=" + std::to_string(o.width) + " height=" +
                                       std::to_string(o.height) + " systems=" +
                                       std::to_string(o.systems)
                                 : "map=" + (o.map_file ? o.map_path : std::string("example"));
    if (o.swap_homes) s += " swap_homes=true";
    if (o.initiative >= 0) s += o.initiative == 0 ? " initiative=a" : " initiative=b";
    s += " budget=" + std::to_string(o.budget) + " max_turns=" + std::to_string(o.max_turns);
    for (int side = 0; side < kSides; ++side)
        s += std::string(side ? " design_b=" : " design_a=") +
             (o.design[static_cast<std::size_t>(side)] ? to_string(*o.design[static_cast<std::size_t>(side)]) : "doctrine");
    for (int side = 0; side < kSides; ++side)
        s += std::string(side ? " escort_b=" : " escort_a=") +
             (o.escort[static_cast<std::size_t>(side)] ? to_string(*o.escort[static_cast<std::size_t>(side)]) : "doctrine");
    for (int side = 0; side < kSides; ++side)
        s += std::string(side ? " escorts_b=" : " escorts_a=") +
             std::to_string(o.escort_share[static_cast<std::size_t>(side)]);
    return s;
}

int State::owned(int side) const noexcept {
    int n = 0;
    for (int i = 0; i < n_sys; ++i) {
        const System& y = sys[static_cast<std::size_t>(i)];
        n += y.home_of == side ? !occupied_by(y.pos, 1 - side) : y.owner == side;
    }
    return n;
}

std::vector<MetricSpec> metric_specs(const Options& o) {
    // Bounds: a side produces at most one BP a system a turn, and builds ships of 10 BP or more.
    const int t = o.max_turns,
              n = (o.random_map ? o.systems : static_cast<int>(o.star_map().systems.size())) + 2;
    const int bp = t * n, ships = (o.budget + bp) / 10 + 1;
    auto m = versus::outcome_specs(t, "M8", "the turn cap, or both sides won at once", "both sides won at once");
    m.insert(m.end(), {
        {"end_home", "ended by a fleet alone in the enemy home (M8)", MetricKind::rate, 0, 1},
        {"end_annihilation", "ended with a side without ships (M8)", MetricKind::rate, 0, 1},
        {"systems_owned_a", "systems side A owned at the end, its home included (M6)", MetricKind::count, 0, n},
        {"systems_owned_b", "systems side B owned at the end (M6)", MetricKind::count, 0, n},
        {"ships_built_a", "ships side A built, the starting fleet included (M3, M4)", MetricKind::count, 0, ships},
        {"ships_built_b", "ships side B built (M3, M4)", MetricKind::count, 0, ships},
        {"ships_lost_a", "ships side A lost (M7)", MetricKind::count, 0, ships},
        {"ships_lost_b", "ships side B lost (M7)", MetricKind::count, 0, ships},
        {"bp_produced_a", "BPs side A produced (M4)", MetricKind::count, 0, bp},
        {"bp_produced_b", "BPs side B produced (M4)", MetricKind::count, 0, bp},
        {"fleet_cap_hits", "times a side was held back by its 16 fleet slots: a detachment refused, or a turn's ships not built (M5a)",
         MetricKind::count, 0, 2 * (kMaxFleets + 1) * t},
    });
    return m;
}

SurvivalSpec survival_spec() { return SurvivalSpec{kTurns, -1, 1, "turns", ""}; }

void to_metrics(const State& s, std::int32_t* out) noexcept {
    versus::outcome(s.winner, s.turn, s.end == State::kTurnCap, out);
    out[kEndHome] = s.end == State::kHome;
    out[kEndAnnihilation] = s.end == State::kAnnihilation;
    out[kSystemsA] = s.owned(0);
    out[kSystemsB] = s.owned(1);
    out[kBuiltA] = s.built[0];
    out[kBuiltB] = s.built[1];
    out[kShipsLostA] = s.lost[0];
    out[kShipsLostB] = s.lost[1];
    out[kBpA] = s.produced[0];
    out[kBpB] = s.produced[1];
    out[kFleetCapHits] = s.cap_hits[0] + s.cap_hits[1];
}

}  // namespace odds::msc
