#include "engine/bosconian/bosconian.hpp"

#include <string_view>

namespace odds::bosconian {

namespace {
constexpr OptionInfo kOptions[] = {
    {"sectors", "36", "sectors in the quadrant, 1..64 (B1)"},
    {"bases", "2d6", "how many bases: 2d6, or a fixed count (B2)"},
    {"layout", "random", "base sectors, e.g. 4,9,15 (the map already rolled), or random (B2)", true},
    {"hull", "100", "damage that destroys the ship (B3)"},
    {"base_cannons", "6", "cannons on each base (B8)"},
    {"start_damage", "0", "damage the ship has already taken (B3)"},
    {"start_sector", "first", "the next sector the ship enters, in the lap order (2, 3, ..., 36, then 1: sector 1 comes last unless start_encounter=true, B1); bases earlier in the lap count destroyed (B3)"},
    {"start_alert", "0", "alerted sectors still to come (B3, B6)"},
    {"start_encounter", "false", "true: the start sector is resolved first, not last (B1)"},
};

std::uint64_t bit(int sector) { return std::uint64_t{1} << (sector - 1); }
}  // namespace

std::span<const OptionInfo> option_infos() { return kOptions; }

Options parse_options(const Settings& settings) {
    const OptionReader r("bosconian", kOptions, settings);
    Options o;
    o.sectors = static_cast<int>(r.integer("sectors", 36, 1, kMaxSectors));

    if (const auto t = r.text("layout"); t && *t != "random") {
        // Comma-separated sectors, each inside the quadrant and given once.
        std::string_view rest = *t;
        if (rest.empty()) r.fail("layout", *t, "sector numbers such as 4,9,15, or random");
        while (true) {
            const auto comma = rest.find(',');
            const std::string_view item = rest.substr(0, comma);
            const auto v = parse_integer(item, 1, o.sectors);
            if (!v)
                r.fail("layout", *t,
                       "distinct sectors from 1 to " + std::to_string(o.sectors) +
                           " such as 4,9,15, or random (got '" + std::string(item) + "')");
            if (o.layout & bit(static_cast<int>(*v)))
                r.fail("layout", *t,
                       "distinct sectors (sector " + std::to_string(*v) + " is repeated)");
            o.layout |= bit(static_cast<int>(*v));
            if (comma == std::string_view::npos) break;
            rest.remove_prefix(comma + 1);
        }
    }

    if (const auto t = r.text("bases"); t && *t == "2d6" && o.fixed_layout())
        r.fail("bases", *t, "the layout's count, " + std::to_string(std::popcount(o.layout)) +
                                ", when layout is given (or leave bases out)");
    if (const auto t = r.text("bases"); t && *t != "2d6") {
        const auto v = parse_integer(*t, 1, o.sectors);
        if (!v) r.fail("bases", *t, "2d6 or a whole number from 1 to " + std::to_string(o.sectors));
        o.bases = static_cast<int>(*v);
        if (o.fixed_layout() && o.bases != std::popcount(o.layout))
            r.fail("bases", *t,
                   "the layout's count, " + std::to_string(std::popcount(o.layout)) +
                       ", when layout is given");
    }
    if (o.fixed_layout()) o.bases = std::popcount(o.layout);
    // B2b: placement must always succeed: at most one base a sector, and 2d6 may need 12.
    if (!o.fixed_layout() && o.bases == 0 && o.sectors < 12)
        r.fail("bases", "2d6", "a fixed count of at most sectors=" + std::to_string(o.sectors) +
                                   " (2d6 may need 12 sectors)");

    o.hull = static_cast<int>(r.integer("hull", 100, 1, kMaxHull));
    o.base_cannons = static_cast<int>(r.integer("base_cannons", 6, 1, kMaxCannons));
    o.start_damage = static_cast<int>(r.integer("start_damage", 0, 0, o.hull - 1));
    o.start_encounter = r.boolean("start_encounter", false);
    if (const auto t = r.text("start_sector"); t && *t != "first")
        o.start_sector = static_cast<int>(r.integer("start_sector", 0, 1, o.sectors));
    o.start_alert = static_cast<int>(r.integer("start_alert", 0, 0, kMaxAlert));

    if (o.fixed_layout()) {  // B3a: a fixed layout must leave a base ahead of the ship
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
    if (left > 2) return out;  // a part-way mission is a fair question; one or two sectors is not much of one
    std::string w = "start_sector=" + std::to_string(o.start_sector) + " leaves " +
                    std::to_string(left) + (left == 1 ? " sector" : " sectors") + " of the lap's " +
                    std::to_string(o.sectors) + " to play";
    if (o.start_sector == 1 && !o.start_encounter)
        w += ": sector 1 is resolved last, after sector " + std::to_string(o.sectors) +
             " (B1); a whole mission starts at sector 2, the default";
    out.push_back(w);
    return out;
}

std::string scenario(const Options& o) {
    std::string s = "sectors=" + std::to_string(o.sectors);
    s += " bases=" + (o.bases ? std::to_string(o.bases) : std::string("2d6"));
    s += " layout=";
    if (o.fixed_layout()) {
        bool first = true;
        for (int sector = 1; sector <= o.sectors; ++sector)
            if (o.layout & bit(sector)) {
                if (!first) s += ',';
                s += std::to_string(sector);
                first = false;
            }
    } else {
        s += "random";
    }
    s += " hull=" + std::to_string(o.hull);
    s += " base_cannons=" + std::to_string(o.base_cannons);
    s += " start_damage=" + std::to_string(o.start_damage);
    s += " start_sector=" + std::to_string(o.effective_start());
    s += " start_alert=" + std::to_string(o.start_alert);
    s += std::string(" start_encounter=") + (o.start_encounter ? "true" : "false");
    return s;
}

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
        {"alerts", "spy ships that escaped and raised the alert (B6)", MetricKind::count, 0,
         2 * n},
    };
}

SurvivalSpec survival_spec() {
    // Kaplan-Meier over sectors entered: a lost ship is the event, a completed mission censored.
    return SurvivalSpec{kSectors, kWin, 0, "sectors_entered", ""};
}

}  // namespace odds::bosconian
