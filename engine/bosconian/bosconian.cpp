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

using O = Options;

// B5: the encounter table in its order (the seed's faces 1 to 6): encounter.KEY and what its
// faces give. The first four are the threats of tables 1-4, which one d6 resolves: destroyed on
// KEY.destroyed_on, else KEY.damage (B7: a formation's missiles are missiles too).
struct EncounterRow {
    std::string_view key, gives;
    Field<O, FaceSet> faces, destroyed_on = {};
    Field<O, DiceExpr> damage = {};
    bool in_formations = false;
};
constexpr EncounterRow kEncounterOptions[] = {
    {"i_missile", "an I-type missile", field<&O::encounter_i_missile>,
     field<&O::i_missile_destroyed_on>, field<&O::i_missile_damage>, true},
    {"cosmo_mine", "a cosmo-mine", field<&O::encounter_cosmo_mine>,
     field<&O::cosmo_mine_destroyed_on>, field<&O::cosmo_mine_damage>},
    {"p_missile", "a P-type missile", field<&O::encounter_p_missile>,
     field<&O::p_missile_destroyed_on>, field<&O::p_missile_damage>, true},
    {"asteroid", "an asteroid", field<&O::encounter_asteroid>, field<&O::asteroid_destroyed_on>,
     field<&O::asteroid_damage>},
    {"formation", "a formation attack", field<&O::encounter_formation>},
    {"spy_ship", "a spy ship", field<&O::encounter_spy_ship>}};

void check_options(Options& o, const OptionReader& r);

OptionTable<Options> make_table() {
    OptionTable<O> t("bosconian");
    t.defaults({.naming = Naming::always});  // the scenario's own knobs
    t.add({
        {"sectors", integer(field<&O::sectors>, 1, kMaxSectors), "B1",
         "sectors in the quadrant, {range}"},
        // A fixed layout decides the count: bases is read after it (checked in parse_options).
        {.name = "bases",
         .type = dice_option(field<&O::bases>, 1, kMaxSectors),
         .ruling = "B2",
         .help = "how many bases: dice rolled before placement, or a fixed count; at most sectors",
         .after = "layout"},
    });
    t.defaults({});
    t.add({"placement.gap", dice_option(field<&O::placement_gap>, 1, kMaxSectors), "B2, B2c",
           "the sectors counted on from the last base to place the next"});
    t.defaults({.naming = Naming::always});
    t.add({
        {.name = "layout",
         .type = Text<O>{.read = read_layout,
                         .write = write_layout,
                         .takes = "sector numbers such as 4,9,15, or random",
                         .comma_list = true},
         .ruling = "B2",
         .help = "base sectors, e.g. 4,9,15 (the map already rolled), or random",
         .after = "sectors"},
        {"hull", integer(field<&O::hull>, 1, kMaxHull), "B3", "damage that destroys the ship"},
        {"base_cannons", integer(field<&O::base_cannons>, 1, kMaxCannons), "B8",
         "cannons on each base"},
        {"start_damage", integer(field<&O::start_damage>, 0, named("hull", -1)), "B3",
         "damage the ship has already taken"},
        // "first" is the first sector of the lap order, which start_encounter decides (B1); the
        // scenario gives the sector itself.
        {.name = "start_sector",
         .type = integer(field<&O::start_sector>, 1, named("sectors"), "first"),
         .ruling = "B3",
         .help = "the next sector the ship enters, in the lap order (2, 3, ..., 36, then 1: sector "
                 "1 comes last unless start_encounter=true, B1); bases earlier in the lap count "
                 "destroyed",
         .after = "start_encounter",
         .scenario_value = [](const O& o) { return std::to_string(o.effective_start()); }},
        {"start_alert", integer(field<&O::start_alert>, 0, kMaxAlert), "B3, B6",
         "alerted sectors still to come"},
        {"start_encounter", boolean(field<&O::start_encounter>), "B1",
         "true: the start sector is resolved first, not last"},
    });
    t.defaults({});                                  // the rule book's numbers
    for (const EncounterRow& e : kEncounterOptions)  // B5, B5a
        t.add({concat("encounter.", e.key), faces_option(e.faces, 6), "B5, B5a",
               concat("the encounter table: the faces of the encounter d6 that give ", e.gives,
                      " (faces given here are taken from the encounter that had them; a face of "
                      "none: no encounter)")});
    for (int i = 0; i < 4; ++i) {  // B5's tables 1-4 (B7: a formation's missiles)
        const EncounterRow& x = kEncounterOptions[i];
        const std::string table = concat("encounter table ", std::to_string(i + 1), ": ");
        const std::string_view name = x.gives.substr(x.gives.find(' ') + 1);
        const std::string_view ruling = x.in_formations ? "B5, B7" : "B5";
        t.add({concat(x.key, ".destroyed_on"), faces_option(x.destroyed_on, 6), ruling,
               concat(table, "the faces of the ", name, "'s d6 that destroy it",
                      x.in_formations ? concat(", a formation's ", name, "s' too") : "")});
        t.add({concat(x.key, ".damage"), dice_option(x.damage, 0, kMaxThreatDamage), ruling,
               concat(table, "the damage of ", x.gives, " that is not destroyed",
                      x.in_formations ? ", a formation's too" : "")});
    }
    t.add({
        {"formation.missiles", integer(field<&O::formation_missiles>, 1, kMaxFormation), "B7",
         "encounter table 5: the missiles of a formation attack, {range}"},
        {"formation.i_type", faces_option(field<&O::formation_i_type>, 6), "B7",
         "the faces of the formation's type d6 that make it I-type missiles (the others: P-type)"},
        {"formation.leader_rerolled_on", faces_option(field<&O::formation_leader_rerolled_on>, 6),
         "B7, B7a", "the faces of the leader's number that are rolled again (not all six)"},
        {"spy_ship.destroyed_on", faces_option(field<&O::spy_ship_destroyed_on>, 6), "B5",
         "encounter table 6: the faces of the spy ship's d6 that destroy it"},
        {"spy_ship.alert", dice_option(field<&O::spy_ship_alert>, 0, kMaxAlert), "B5, B6",
         "encounter table 6: the sectors of alert a spy ship that escapes adds"},
        {"alert.encounters", integer(field<&O::alert_encounters>, 1, kMaxAlertEncounters), "B6",
         "the encounters of an alerted sector that holds no base, {range}"},
        {"base_combat.cannon_destroyed_on",
         faces_option(field<&O::base_combat_cannon_destroyed_on>, 6), "B8, B8a",
         "base combat sequence: the faces of the round's d6 on which the ship destroys a cannon "
         "(the others: the base attacks); at least one"},
        {"base_attack.e_missile_on", faces_option(field<&O::base_attack_e_missile_on>, 6), "B8",
         "base attack: the faces of the attack d6 on which the base fires an E-type missile (the "
         "others: all its active cannons)"},
        {"e_missile.destroyed_on", faces_option(field<&O::e_missile_destroyed_on>, 6), "B8",
         "the faces of the E-type missile's d6 that destroy it"},
        {"e_missile.damage", dice_option(field<&O::e_missile_damage>, 0, kMaxThreatDamage), "B8",
         "the damage of an E-type missile that is not destroyed"},
        {"cannon_fire.shots", dice_option(field<&O::cannon_fire_shots>, 0, kMaxCannonDice), "B8",
         "cannon fire: the shots each active cannon fires (a roll each)"},
        {"cannon_fire.evaded", dice_option(field<&O::cannon_fire_evaded>, 0, kMaxCannonDice), "B8",
         "cannon fire: the shots the ship evades, a roll for each cannon fired (damage: shots less "
         "evaded, never below 0)"},
    });
    t.after_reading(check_options);
    return t;
}
}  // namespace

const OptionTable<Options>& option_table() { return built_once<make_table>(); }

Options parse_options(const Settings& settings) { return option_table().parse(settings); }

namespace {
// What no bound states, checked once the options are read (OptionTable::after_reading).
void check_options(Options& o, const OptionReader& r) {
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
        FaceSet given;
        std::string owner[7] = {};
        for (const EncounterRow& e : kEncounterOptions) {
            const std::string name = concat("encounter.", e.key);
            if (!r.text(name)) continue;
            const FaceSet faces = e.faces.get(o);
            for (int f = 1; f <= 6; ++f)
                if (faces.has(f) && given.has(f))
                    r.fail(name, to_string(faces),
                           "faces no other encounter.* option given gives (face " +
                               std::to_string(f) + " is " + owner[f] + "'s, B5a)");
            for (int f = 1; f <= 6; ++f)
                if (faces.has(f)) owner[f] = name;
            given.lo |= faces.lo;
        }
        for (const EncounterRow& e : kEncounterOptions)
            if (!r.text(concat("encounter.", e.key))) {
                FaceSet faces = e.faces.get(o);
                faces.lo &= ~given.lo;
                e.faces.set(o, faces);
            }
    }
    // B7a: a leader's number rolled again on every face would be rolled for ever.
    if (o.formation_leader_rerolled_on.count(6) == 6)
        r.fail("formation.leader_rerolled_on", to_string(o.formation_leader_rerolled_on),
               "at most five of the six faces (the leader's number must be able to stand, B7a)");
    // B8a: with no face that destroys a cannon, no base could ever be destroyed.
    if (o.base_combat_cannon_destroyed_on.empty())
        r.fail("base_combat.cannon_destroyed_on", to_string(o.base_combat_cannon_destroyed_on),
               "at least one face (with none no base could ever be destroyed, B8a)");
    o.settle();  // the tables play reads
}

// A d6's face set as a byte, bit f for face f.
std::uint8_t d6_faces(const FaceSet& s) { return static_cast<std::uint8_t>((s.lo & 0x3F) << 1); }
// Whether a roll's faces can be read ahead and summed: at most eight d6 and a constant.
bool held(const DiceExpr& e) { return e.only_d6 && e.d6 <= 8; }
std::uint64_t low_bytes(int n) { return n == 8 ? ~0ull : (std::uint64_t{1} << (8 * n)) - 1; }
}  // namespace

namespace {
// B5, B5a: the encounter table's cells.
void compile_encounters(const Options& o, Tables& t) {
    // B5, B5a: each face of the encounter die gives the first encounter of these that has it.
    struct Threat {
        const FaceSet& faces;
        const FaceSet& destroyed_on;
        Roll roll;
    };
    const Threat threats[4] = {
        {o.encounter_i_missile, o.i_missile_destroyed_on, kRollIMissile},
        {o.encounter_cosmo_mine, o.cosmo_mine_destroyed_on, kRollCosmoMine},
        {o.encounter_p_missile, o.p_missile_destroyed_on, kRollPMissile},
        {o.encounter_asteroid, o.asteroid_destroyed_on, kRollAsteroid},
    };
    for (int e = 1; e <= 6; ++e)
        for (int d = 1; d <= 6; ++d) {
            EncounterCell c{0, 0, 0, 0, 0, 1, EncounterCell::kFaces, 0};  // B5a: a quiet roll
            if (o.encounter_formation.has(e)) {
                c.kind = EncounterCell::kFormation;
            } else if (o.encounter_any(e)) {
                const bool spy = o.encounter_spy_ship.has(e);
                Roll roll = kRollSpyAlert;
                bool escaped;
                if (spy) {
                    escaped = !o.spy_ship_destroyed_on.has(d);  // B6: it raises the alert
                } else {
                    const Threat* th = &threats[3];
                    for (const Threat& x : threats)
                        if (x.faces.has(e)) {
                            th = &x;
                            break;
                        }
                    roll = th->roll;
                    escaped = !th->destroyed_on.has(d);  // it hits the ship
                }
                c.damage = static_cast<std::int8_t>(spy ? 0 : -1);
                c.alert = static_cast<std::int8_t>(spy ? -1 : 0);
                c.escaped = static_cast<std::uint8_t>(spy && escaped);
                c.rolled = 2;
                if (escaped) {
                    const DiceExpr& r = o.roll_of(roll);
                    if (held(r)) {
                        c.mask = low_bytes(r.d6);
                        c.add = static_cast<std::int16_t>(r.constant);
                        c.rolled = static_cast<std::uint8_t>(2 + r.d6);
                    } else {
                        c.kind = EncounterCell::kRolled;
                        c.roll = roll;
                    }
                }
            }
            t.encounter[static_cast<std::size_t>(e * 8 + d)] = c;
            if (c.kind != EncounterCell::kFaces || c.add != 0)
                t.encounter_off_path = static_cast<std::uint8_t>(t.encounter_off_path | 1u << e);
        }
}

// B7: the formation's missiles and dice.
void compile_formation(const Options& o, Tables& t) {
    const auto missile = [](const FaceSet& destroyed_on, const DiceExpr& damage, Roll roll) {
        FormationMissile m;
        m.destroyed_on = d6_faces(destroyed_on);
        m.rolled = !held(damage);
        m.dice = static_cast<std::uint8_t>(m.rolled ? 0 : damage.d6);
        m.add = static_cast<std::int16_t>(m.rolled ? 0 : damage.constant);
        m.roll = roll;
        return m;
    };
    t.missile[1] = missile(o.i_missile_destroyed_on, o.i_missile_damage, kRollIMissile);
    t.missile[0] = missile(o.p_missile_destroyed_on, o.p_missile_damage, kRollPMissile);
    t.i_type = d6_faces(o.formation_i_type);
    t.leader_rerolled = d6_faces(o.formation_leader_rerolled_on);
    t.missiles = o.formation_missiles;
    const int most_dice = std::max(t.missile[0].dice, t.missile[1].dice);
    t.formation_faces = 2 + (t.missiles - 1) + t.missiles * (1 + most_dice) + 8;
}

// B8: base combat's dice.
void compile_base_combat(const Options& o, Tables& t) {
    t.cannon_destroyed_on = d6_faces(o.base_combat_cannon_destroyed_on);
    t.e_missile_on = d6_faces(o.base_attack_e_missile_on);
    t.e_missile_destroyed_on = d6_faces(o.e_missile_destroyed_on);
    t.cannon_lost = FaceTest::of(t.cannon_destroyed_on);
    t.e_missile_attack = FaceTest::of(t.e_missile_on);
    const bool e_held = held(o.e_missile_damage);
    const int e_dice = e_held ? o.e_missile_damage.d6 : 0;
    t.e_missile_mask = kLowBytes[static_cast<std::size_t>(e_dice)];
    t.e_missile_add = e_held ? o.e_missile_damage.constant : 0;
    t.e_missile_round = 0;
    for (int d = 1; d <= 6; ++d) {
        const bool hits = !((t.e_missile_destroyed_on >> d) & 1u);
        const std::uint64_t round = hits ? 0x10u | static_cast<unsigned>(3 + e_dice) : 3u;
        t.e_missile_round |= round << (8 * d);
    }
    const DiceExpr &shots = o.cannon_fire_shots, &evaded = o.cannon_fire_evaded;
    const bool fire_held = held(shots) && held(evaded);
    t.shots_dice = static_cast<std::uint8_t>(fire_held ? shots.d6 : 0);
    t.evaded_dice = static_cast<std::uint8_t>(fire_held ? evaded.d6 : 0);
    t.shots_add = static_cast<std::int16_t>(fire_held ? shots.constant : 0);
    t.evaded_add = static_cast<std::int16_t>(fire_held ? evaded.constant : 0);
    t.read_ahead = 0;
    if (e_held && fire_held)
        for (int c = 8; c >= 1 && !t.read_ahead; --c)
            if (c * t.shots_dice <= 8 && c * t.evaded_dice <= 8) t.read_ahead = c;
    const std::uint8_t odd = 0b0101010;  // faces 1, 3, 5
    t.odd = t.cannon_destroyed_on == odd && t.e_missile_on == odd && t.read_ahead == 8 &&
            t.shots_dice == 1 && t.evaded_dice == 1 && t.shots_add == 0 && t.evaded_add == 0;
}
}  // namespace

FaceTest FaceTest::of(std::uint8_t set) {
    set &= 0b1111110;  // faces 1..6
    FaceTest t;
    const bool complement = std::popcount(set) > 3;
    if (complement) {
        set = static_cast<std::uint8_t>(~set & 0b1111110);
        t.flip = kLowBits;
    }
    // The values, the last repeated to three (a value of 0 matches no face: an empty set).
    int n = 0;
    for (int f = 1; f <= 6; ++f)
        if ((set >> f) & 1u)
            t.value[static_cast<std::size_t>(n++)] = kLowBits * static_cast<unsigned>(f);
    for (int k = n; k < 3; ++k)
        t.value[static_cast<std::size_t>(k)] = n ? t.value[static_cast<std::size_t>(n - 1)] : 0;
    return t;
}

Tables compile_tables(const Options& o) {
    Tables t;
    compile_encounters(o, t);
    compile_formation(o, t);
    t.alert_encounters = o.alert_encounters;
    // B2d redraws only where a roll lands on a free sector less than one time in 64: never for
    // one die of at most 64 faces and a constant (each total 1/X), the book's 1d6 among them.
    // Any other gap counts its misses.
    const DiceExpr& gap = o.placement_gap;
    t.placement_redraws = !(gap.one_die() && gap.terms[0].sides <= 64);
    if (!gap.plain()) t.gap_law = gap_law(gap);  // a few microseconds: no stop flag looked at
    t.reach = reach_table(o.sectors, gap.min(), gap.max());
    compile_base_combat(o, t);
    return t;
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

std::string scenario(const Options& o) { return option_table().scenario(o); }

std::vector<MetricSpec> metric_specs(const Options& o) {
    MetricSpecs<Options> m{o, {}};
    declare_metrics(m);
    return std::move(m.specs);
}

SurvivalSpec survival_spec() {
    // Kaplan-Meier over sectors entered: a lost ship is the event, a completed mission censored.
    return SurvivalSpec{kSectors, kWin, 0, "sectors_entered", "", "the ship is lost"};
}

}  // namespace odds::bosconian
