#include "engine/bosconian/bosconian.hpp"

#include <string_view>
#include <utility>

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
     .type = dice_option(field<&Options::bases>, 1, kMaxSectors),
     .help = "how many bases: dice rolled before placement, or a fixed count; at most sectors",
     .ruling = "B2",
     .after = "layout"},
    {.name = "placement.gap",
     .type = dice_option(field<&Options::placement_gap>, 1, kMaxSectors),
     .help = "the sectors counted on from the last base to place the next",
     .ruling = "B2, B2c",
     .named_when_changed = true},
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
    {.name = "encounter.i_missile",
     .type = faces_option(field<&Options::encounter_i_missile>, 6),
     .help =
         "the encounter table: the faces of the encounter d6 that give an I-type missile (faces "
         "given here are taken from the encounter that had them; a face of none: no encounter)",
     .ruling = "B5, B5a",
     .named_when_changed = true},
    {.name = "encounter.cosmo_mine",
     .type = faces_option(field<&Options::encounter_cosmo_mine>, 6),
     .help = "the encounter table: the faces of the encounter d6 that give a cosmo-mine (faces "
             "given here are taken from the encounter that had them; a face of none: no encounter)",
     .ruling = "B5, B5a",
     .named_when_changed = true},
    {.name = "encounter.p_missile",
     .type = faces_option(field<&Options::encounter_p_missile>, 6),
     .help = "the encounter table: the faces of the encounter d6 that give a P-type missile (faces "
             "given here are taken from the encounter that had them; a face of none: no encounter)",
     .ruling = "B5, B5a",
     .named_when_changed = true},
    {.name = "encounter.asteroid",
     .type = faces_option(field<&Options::encounter_asteroid>, 6),
     .help = "the encounter table: the faces of the encounter d6 that give an asteroid (faces "
             "given here are taken from the encounter that had them; a face of none: no encounter)",
     .ruling = "B5, B5a",
     .named_when_changed = true},
    {.name = "encounter.formation",
     .type = faces_option(field<&Options::encounter_formation>, 6),
     .help =
         "the encounter table: the faces of the encounter d6 that give a formation attack (faces "
         "given here are taken from the encounter that had them; a face of none: no encounter)",
     .ruling = "B5, B5a",
     .named_when_changed = true},
    {.name = "encounter.spy_ship",
     .type = faces_option(field<&Options::encounter_spy_ship>, 6),
     .help = "the encounter table: the faces of the encounter d6 that give a spy ship (faces given "
             "here are taken from the encounter that had them; a face of none: no encounter)",
     .ruling = "B5, B5a",
     .named_when_changed = true},
    {.name = "i_missile.destroyed_on",
     .type = faces_option(field<&Options::i_missile_destroyed_on>, 6),
     .help = "encounter table 1: the faces of the I-type missile's d6 that destroy it, a "
             "formation's I-type missiles' too",
     .ruling = "B5, B7",
     .named_when_changed = true},
    {.name = "i_missile.damage",
     .type = dice_option(field<&Options::i_missile_damage>, 0, kMaxThreatDamage),
     .help = "encounter table 1: the damage of an I-type missile that is not destroyed, a "
             "formation's too",
     .ruling = "B5, B7",
     .named_when_changed = true},
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
    {.name = "p_missile.destroyed_on",
     .type = faces_option(field<&Options::p_missile_destroyed_on>, 6),
     .help = "encounter table 3: the faces of the P-type missile's d6 that destroy it, a "
             "formation's P-type missiles' too",
     .ruling = "B5, B7",
     .named_when_changed = true},
    {.name = "p_missile.damage",
     .type = dice_option(field<&Options::p_missile_damage>, 0, kMaxThreatDamage),
     .help = "encounter table 3: the damage of a P-type missile that is not destroyed, a "
             "formation's too",
     .ruling = "B5, B7",
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
    {.name = "formation.missiles",
     .type = integer(field<&Options::formation_missiles>, 1, kMaxFormation),
     .help = "encounter table 5: the missiles of a formation attack, {range}",
     .ruling = "B7",
     .named_when_changed = true},
    {.name = "formation.i_type",
     .type = faces_option(field<&Options::formation_i_type>, 6),
     .help =
         "the faces of the formation's type d6 that make it I-type missiles (the others: P-type)",
     .ruling = "B7",
     .named_when_changed = true},
    {.name = "formation.leader_rerolled_on",
     .type = faces_option(field<&Options::formation_leader_rerolled_on>, 6),
     .help = "the faces of the leader's number that are rolled again (not all six)",
     .ruling = "B7, B7a",
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
    {.name = "alert.encounters",
     .type = integer(field<&Options::alert_encounters>, 1, kMaxAlertEncounters),
     .help = "the encounters of an alerted sector that holds no base, {range}",
     .ruling = "B6",
     .named_when_changed = true},
    {.name = "base_combat.cannon_destroyed_on",
     .type = faces_option(field<&Options::base_combat_cannon_destroyed_on>, 6),
     .help = "base combat sequence: the faces of the round's d6 on which the ship destroys a "
             "cannon (the others: the base attacks); at least one",
     .ruling = "B8, B8a",
     .named_when_changed = true},
    {.name = "base_attack.e_missile_on",
     .type = faces_option(field<&Options::base_attack_e_missile_on>, 6),
     .help = "base attack: the faces of the attack d6 on which the base fires an E-type missile "
             "(the others: all its active cannons)",
     .ruling = "B8",
     .named_when_changed = true},
    {.name = "e_missile.destroyed_on",
     .type = faces_option(field<&Options::e_missile_destroyed_on>, 6),
     .help = "the faces of the E-type missile's d6 that destroy it",
     .ruling = "B8",
     .named_when_changed = true},
    {.name = "e_missile.damage",
     .type = dice_option(field<&Options::e_missile_damage>, 0, kMaxThreatDamage),
     .help = "the damage of an E-type missile that is not destroyed",
     .ruling = "B8",
     .named_when_changed = true},
    {.name = "cannon_fire.shots",
     .type = dice_option(field<&Options::cannon_fire_shots>, 0, kMaxCannonDice),
     .help = "cannon fire: the shots each active cannon fires (a roll each)",
     .ruling = "B8",
     .named_when_changed = true},
    {.name = "cannon_fire.evaded",
     .type = dice_option(field<&Options::cannon_fire_evaded>, 0, kMaxCannonDice),
     .help = "cannon fire: the shots the ship evades, a roll for each cannon fired (damage: shots "
             "less evaded, never below 0)",
     .ruling = "B8",
     .named_when_changed = true},
};
constexpr OptionTable<Options> kTable{"bosconian", kOptions};
}  // namespace

const OptionTable<Options>& option_table() { return kTable; }

Options parse_options(const Settings& settings) {
    const OptionReader r = kTable.reader(settings);
    Options o = kTable.read(r);

    // What no bound says: a fixed layout decides the count (B2), ...
    if (o.fixed_layout()) {
        const int fixed = std::popcount(o.layout);
        const std::string count = std::to_string(fixed);
        if (const auto t = r.text("bases"); t && (o.bases.n != 0 || o.bases.constant != fixed))
            r.fail("bases", *t,
                   "the layout's count, " + count + ", when layout is given (or leave bases out)");
        o.bases = DiceExpr::of(0, 0, fixed);
    }
    // ... B2b: placement must always succeed: at most one base a sector (2d6 may need 12) ...
    if (!o.fixed_layout() && o.bases.max() > o.sectors)
        r.fail("bases", to_string(o.bases),
               "a count or dice of at most sectors=" + std::to_string(o.sectors) +
                   (o.bases.n ? " (" + to_string(o.bases) + " may roll " +
                                    std::to_string(o.bases.max()) + ")"
                              : ""));
    // ... and B3a: a fixed layout must leave a base ahead of the ship.
    if (o.fixed_layout()) {
        bool ahead = false;
        for (int pos = o.lap_position(o.effective_start()); pos < o.sectors; ++pos)
            ahead = ahead || (o.layout & bit(o.sector_at(pos)));
        if (!ahead)
            r.fail("start_sector", std::to_string(o.effective_start()),
                   "a sector at or before the layout's last base in the lap order");
    }
    // B5a: a face given to an encounter by an encounter.* option is that encounter's alone: it
    // is taken from the encounter that had it by the book, and two options given may not share
    // it. A face left to no encounter is a quiet roll (no encounter).
    {
        struct Row {
            std::string_view name;
            FaceSet* faces;
        };
        const Row table[] = {{"encounter.i_missile", &o.encounter_i_missile},
                             {"encounter.cosmo_mine", &o.encounter_cosmo_mine},
                             {"encounter.p_missile", &o.encounter_p_missile},
                             {"encounter.asteroid", &o.encounter_asteroid},
                             {"encounter.formation", &o.encounter_formation},
                             {"encounter.spy_ship", &o.encounter_spy_ship}};
        FaceSet given;
        std::string_view owner[7] = {};
        for (const Row& row : table) {
            if (!r.text(row.name)) continue;
            for (int f = 1; f <= 6; ++f)
                if (row.faces->has(f) && given.has(f))
                    r.fail(row.name, to_string(*row.faces),
                           "faces no other encounter.* option given gives (face " +
                               std::to_string(f) + " is " + std::string(owner[f]) + "'s, B5a)");
            for (int f = 1; f <= 6; ++f)
                if (row.faces->has(f)) owner[f] = row.name;
            given.lo |= row.faces->lo;
        }
        for (const Row& row : table)
            if (!r.text(row.name)) row.faces->lo &= ~given.lo;
    }
    // B7a: a leader's number rolled again on every face would be rolled for ever.
    if (o.formation_leader_rerolled_on.count(6) == 6)
        r.fail("formation.leader_rerolled_on", to_string(o.formation_leader_rerolled_on),
               "at most five of the six faces (the leader's number must be able to stand, B7a)");
    // B8a: with no face that destroys a cannon, no base could ever be destroyed.
    if (o.base_combat_cannon_destroyed_on.empty())
        r.fail("base_combat.cannon_destroyed_on", to_string(o.base_combat_cannon_destroyed_on),
               "at least one face (with none no base could ever be destroyed, B8a)");
    o.book = o.book_tables();
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
        {"encounters", "encounter-table rolls resolved (B5)", MetricKind::count, 0,
         o.alert_encounters * n},
        {"alerts", "spy ships that escaped and raised the alert (B6)", MetricKind::count, 0,
         o.alert_encounters * n},
    };
}

SurvivalSpec survival_spec() {
    // Kaplan-Meier over sectors entered: a lost ship is the event, a completed mission censored.
    return SurvivalSpec{kSectors, kWin, 0, "sectors_entered", ""};
}

}  // namespace odds::bosconian
