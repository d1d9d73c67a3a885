#include "engine/bosconian/bosconian.hpp"

#include <string_view>

namespace odds::bosconian {

namespace {
std::uint64_t bit(int sector) { return std::uint64_t{1} << (sector - 1); }

// B2: layout=4,9,15, comma-separated sectors, each inside the quadrant and given once; or random.
std::string read_layout(Options& o, std::string_view text) {
    o.layout = 0;
    if (text == "random") return "";
    for (std::string_view rest = text;;) {
        const auto comma = rest.find(',');
        const std::string_view item = rest.substr(0, comma);
        const auto v = parse_integer(item, 1, o.sectors);
        if (!v)
            return "distinct sectors from 1 to " + std::to_string(o.sectors) +
                   " such as 4,9,15, or random (got '" + std::string(item) + "')";
        if (o.layout & bit(static_cast<int>(*v)))
            return "distinct sectors (sector " + std::to_string(*v) + " is repeated)";
        o.layout |= bit(static_cast<int>(*v));
        if (comma == std::string_view::npos) return "";
        rest.remove_prefix(comma + 1);
    }
}

std::string write_layout(const Options& o) {
    if (!o.fixed_layout()) return "random";
    std::string s;
    for (int sector = 1; sector <= o.sectors; ++sector)
        if (o.layout & bit(sector)) {
            if (!s.empty()) s += ',';
            s += std::to_string(sector);
        }
    return s;
}

constexpr Option<Options> kOptions[] = {
    {.name = "sectors",
     .type = integer(field<&Options::sectors>, 1, kMaxSectors),
     .help = "sectors in the quadrant, {range}",
     .ruling = "B1"},
    // A fixed layout decides the count: bases is read after it (checked in parse_options).
    {.name = "bases",
     .type = integer(field<&Options::bases>, 1, named("sectors"), "2d6"),
     .help = "how many bases: 2d6, or a fixed count",
     .ruling = "B2",
     .after = "layout"},
    {.name = "layout",
     .type = Text<Options>{.read = read_layout,
                           .write = write_layout,
                           .takes = "sector numbers such as 4,9,15, or random",
                           .comma_list = true},
     .help = "base sectors, e.g. 4,9,15 (the map already rolled), or random",
     .ruling = "B2",
     .after = "sectors"},
    {.name = "hull",
     .type = integer(field<&Options::hull>, 1, kMaxHull),
     .help = "damage that destroys the ship",
     .ruling = "B3"},
    {.name = "base_cannons",
     .type = integer(field<&Options::base_cannons>, 1, kMaxCannons),
     .help = "cannons on each base",
     .ruling = "B8"},
    {.name = "start_damage",
     .type = integer(field<&Options::start_damage>, 0, named("hull", -1)),
     .help = "damage the ship has already taken",
     .ruling = "B3"},
    // "first" is the first sector of the lap order, which start_encounter decides (B1); the
    // scenario gives the sector itself.
    {.name = "start_sector",
     .type = integer(field<&Options::start_sector>, 1, named("sectors"), "first"),
     .help = "the next sector the ship enters, in the lap order (2, 3, ..., 36, then 1: sector "
             "1 comes last unless start_encounter=true, B1); bases earlier in the lap count "
             "destroyed",
     .ruling = "B3",
     .after = "start_encounter",
     .scenario_value = [](const Options& o) { return std::to_string(o.effective_start()); }},
    {.name = "start_alert",
     .type = integer(field<&Options::start_alert>, 0, kMaxAlert),
     .help = "alerted sectors still to come",
     .ruling = "B3, B6"},
    {.name = "start_encounter",
     .type = boolean(field<&Options::start_encounter>),
     .help = "true: the start sector is resolved first, not last",
     .ruling = "B1"},
    {.name = "cosmo_mine.destroyed_on",
     .type = faces_option(field<&Options::cosmo_mine_destroyed_on>, 6),
     .help = "encounter table 2: the faces of the cosmo-mine's d6 that destroy it",
     .ruling = "B5",
     .named_when_changed = true},
    {.name = "cosmo_mine.damage",
     .type = dice_option(field<&Options::cosmo_mine_damage>, 0, kMaxThreatDamage),
     .help = "encounter table 2: the damage of a cosmo-mine that is not destroyed",
     .ruling = "B5",
     .named_when_changed = true},
    {.name = "asteroid.destroyed_on",
     .type = faces_option(field<&Options::asteroid_destroyed_on>, 6),
     .help = "encounter table 4: the faces of the asteroid's d6 that destroy it",
     .ruling = "B5",
     .named_when_changed = true},
    {.name = "asteroid.damage",
     .type = dice_option(field<&Options::asteroid_damage>, 0, kMaxThreatDamage),
     .help = "encounter table 4: the damage of an asteroid that is not destroyed",
     .ruling = "B5",
     .named_when_changed = true},
    {.name = "spy_ship.destroyed_on",
     .type = faces_option(field<&Options::spy_ship_destroyed_on>, 6),
     .help = "encounter table 6: the faces of the spy ship's d6 that destroy it",
     .ruling = "B5",
     .named_when_changed = true},
    {.name = "spy_ship.alert",
     .type = dice_option(field<&Options::spy_ship_alert>, 0, kMaxAlert),
     .help = "encounter table 6: the sectors of alert a spy ship that escapes adds",
     .ruling = "B5, B6",
     .named_when_changed = true},
};
constexpr OptionTable<Options> kTable{"bosconian", kOptions};
}  // namespace

std::span<const OptionInfo> option_infos() {
    static const std::vector<OptionInfo> infos = kTable.describe();
    return infos;
}

Options parse_options(const Settings& settings) {
    const OptionReader r = kTable.reader(settings);
    Options o = kTable.read(r);

    // What no bound says: a fixed layout decides the count (B2), ...
    if (o.fixed_layout()) {
        const std::string count = std::to_string(std::popcount(o.layout));
        if (const auto t = r.text("bases"); t && *t == "2d6")
            r.fail("bases", *t,
                   "the layout's count, " + count + ", when layout is given (or leave bases out)");
        if (const auto t = r.text("bases"); t && o.bases != std::popcount(o.layout))
            r.fail("bases", *t, "the layout's count, " + count + ", when layout is given");
        o.bases = std::popcount(o.layout);
    }
    // ... B2b: placement must always succeed: at most one base a sector, and 2d6 may need 12 ...
    if (!o.fixed_layout() && o.bases == 0 && o.sectors < 12)
        r.fail("bases", "2d6",
               "a fixed count of at most sectors=" + std::to_string(o.sectors) +
                   " (2d6 may need 12 sectors)");
    // ... and B3a: a fixed layout must leave a base ahead of the ship.
    if (o.fixed_layout()) {
        bool ahead = false;
        for (int pos = o.lap_position(o.effective_start()); pos < o.sectors; ++pos)
            ahead = ahead || (o.layout & bit(o.sector_at(pos)));
        if (!ahead)
            r.fail("start_sector", std::to_string(o.effective_start()),
                   "a sector at or before the layout's last base in the lap order");
    }
    return o;
}

std::vector<std::string> warnings(const Options& o) {
    std::vector<std::string> out;
    if (!o.start_sector) return out;
    const int left = o.sectors - o.lap_position(o.start_sector);
    if (left > 2)
        return out;  // a part-way mission is a fair question; one or two sectors is not much of one
    std::string w = "start_sector=" + std::to_string(o.start_sector) + " leaves " +
                    std::to_string(left) + (left == 1 ? " sector" : " sectors") + " of the lap's " +
                    std::to_string(o.sectors) + " to play";
    if (o.start_sector == 1 && !o.start_encounter)
        w += ": sector 1 is resolved last, after sector " + std::to_string(o.sectors) +
             " (B1); a whole mission starts at sector 2, the default";
    out.push_back(w);
    return out;
}

std::string scenario(const Options& o) { return kTable.scenario(o); }

std::vector<MetricSpec> metric_specs(const Options& o) {
    const int n = o.sectors;
    return {
        {"win", "the mission succeeded: every base destroyed (B9)", MetricKind::rate, 0, 1},
        {"damage", "the ship's damage at the end, capped at the hull (B3)", MetricKind::count, 0,
         o.hull},
        {"sectors_entered", "sectors entered during the mission (B1)", MetricKind::count, 0, n},
        {"bases_placed", "bases in the layout (B2)", MetricKind::count, 0, n},
        {"bases_destroyed", "bases destroyed during the mission (B8)", MetricKind::count, 0, n},
        {"encounters", "encounter-table rolls resolved (B5)", MetricKind::count, 0, 2 * n},
        {"alerts", "spy ships that escaped and raised the alert (B6)", MetricKind::count, 0, 2 * n},
    };
}

SurvivalSpec survival_spec() {
    // Kaplan-Meier over sectors entered: a lost ship is the event, a completed mission censored.
    return SurvivalSpec{kSectors, kWin, 0, "sectors_entered", ""};
}

}  // namespace odds::bosconian
