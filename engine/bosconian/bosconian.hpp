// Bosconian-D: the solo dice game after Namco's arcade Bosconian. Rules page: RULES.md beside
// this file. Every ruling of the rule book (B1-B9) is cited where it is implemented.
//
// The kernel is plain data and function templates over the dice, so the compiler sees through
// every roll: Options (checked once, before any playout), State (fixed size, on the stack),
// Outcome (what one playout reports), and play(). No heap allocation inside a playout.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <cstring>
#include <initializer_list>
#include <span>
#include <string>
#include <type_traits>
#include <vector>

#include "engine/dice.hpp"
#include "engine/metric.hpp"
#include "engine/rule_options.hpp"
#include "engine/rule_values.hpp"

namespace odds::bosconian {

inline constexpr int kMaxSectors = 64;  // a quadrant's bases fit one 64-bit mask
inline constexpr int kMaxHull = 10000;
inline constexpr int kMaxCannons = 20;
inline constexpr int kMaxAlert = 1000;
inline constexpr int kMaxThreatDamage = 1000;  // the most a variant's damage dice may total
inline constexpr int kMaxFormation = 20;       // formation.missiles
inline constexpr int kMaxAlertEncounters = 6;  // alert.encounters
inline constexpr int kMaxCannonDice = 100;     // the most cannon_fire.* may total, per cannon
static_assert(2 + kMaxCannons + 24 <= kMaxPeek, "a base-combat round reads its faces at once");

struct Options {
    int sectors = 36;                     // B1
    DiceExpr bases = DiceExpr::of(2, 6);  // B2: the count, rolled (a whole number: fixed)
    std::uint64_t layout = 0;      // B2: fixed base sectors (bit s-1 for sector s); 0 = random
    int hull = 100;                // B3
    int base_cannons = 6;          // B8
    int start_damage = 0;          // B3
    int start_sector = 0;          // B3: 0 means the first sector of the lap order
    int start_alert = 0;           // B3, B6
    bool start_encounter = false;  // B1
    // B2: the sectors counted on from the last base to place the next; B2c: a variant's "six
    // sectors ahead" are those its least to its greatest total reach.
    DiceExpr placement_gap = DiceExpr::of(1, 6);
    // B5: the encounter die's faces that give each encounter (the seed's table: 1 to 6); B5a: a
    // face of none is a quiet roll.
    FaceSet encounter_i_missile = FaceSet::range(1, 1);
    FaceSet encounter_cosmo_mine = FaceSet::range(2, 2);
    FaceSet encounter_p_missile = FaceSet::range(3, 3);
    FaceSet encounter_asteroid = FaceSet::range(4, 4);
    FaceSet encounter_formation = FaceSet::range(5, 5);
    FaceSet encounter_spy_ship = FaceSet::range(6, 6);
    // B5 table 1, the I-type missile (B7: a formation's I-type missiles too): destroyed on these
    // faces of its d6, else this damage.
    FaceSet i_missile_destroyed_on = FaceSet{0b101101, 0};  // 1, 3, 4, 6
    DiceExpr i_missile_damage = DiceExpr::of(2, 6);
    // B5 table 2, the cosmo-mine: destroyed on these faces of its d6, else this damage.
    FaceSet cosmo_mine_destroyed_on = FaceSet::range(2, 5);
    DiceExpr cosmo_mine_damage = DiceExpr::of(4, 6);
    // B5 table 3, the P-type missile (B7: a formation's P-type missiles too).
    FaceSet p_missile_destroyed_on = FaceSet{0b110011, 0};  // 1, 2, 5, 6
    DiceExpr p_missile_damage = DiceExpr::of(3, 6);
    // B5 table 4, the asteroid: destroyed on these faces of its d6, else this damage.
    FaceSet asteroid_destroyed_on = FaceSet{0b101010, 0};
    DiceExpr asteroid_damage = DiceExpr::of(1, 6);
    // B7, the formation attack: its missiles, the type die's faces for I-type (else P-type), and
    // the faces of the leader's number that are rolled again.
    int formation_missiles = 5;
    FaceSet formation_i_type = FaceSet::range(1, 3);
    FaceSet formation_leader_rerolled_on = FaceSet::range(6, 6);
    // B5 table 6, B6, the spy ship: destroyed on these faces, else it raises this alert.
    FaceSet spy_ship_destroyed_on = FaceSet::range(3, 4);
    DiceExpr spy_ship_alert = DiceExpr::of(1, 6);
    // B6: the encounters of an alerted sector that holds no base.
    int alert_encounters = 2;
    // B8: the base combat die's faces on which the ship destroys a cannon (else the base
    // attacks), the attack die's faces for an E-type missile (else cannon fire), the E-type
    // missile, and cannon fire's dice: the shots of each active cannon, the ship's evasions of
    // each cannon fired.
    FaceSet base_combat_cannon_destroyed_on = FaceSet{0b010101, 0};  // 1, 3, 5
    FaceSet base_attack_e_missile_on = FaceSet{0b010101, 0};         // 1, 3, 5
    FaceSet e_missile_destroyed_on = FaceSet::range(3, 4);
    DiceExpr e_missile_damage = DiceExpr::of(4, 6);
    DiceExpr cannon_fire_shots = DiceExpr::of(1, 6);
    DiceExpr cannon_fire_evaded = DiceExpr::of(1, 6);

    // Whether face e of the encounter die gives an encounter (B5a: else a quiet roll).
    constexpr bool encounter_any(int e) const noexcept {
        return encounter_i_missile.has(e) || encounter_cosmo_mine.has(e) ||
               encounter_p_missile.has(e) || encounter_asteroid.has(e) ||
               encounter_formation.has(e) || encounter_spy_ship.has(e);
    }
    // Every number and table of the rule book (B2, B5-B8), the options named when changed, as
    // the book prints them (OptionTable::is_book): worked out once by parse_options (and true
    // for Options{}). Play then takes the fast paths written for the book's tables, else the
    // variant path, die by die from these values: one test a playout.
    bool book = true;
    bool fixed_layout() const noexcept { return layout != 0; }
    // The first sector of the lap order (B1).
    int first_sector() const noexcept { return start_encounter || sectors == 1 ? 1 : 2; }
    int effective_start() const noexcept { return start_sector ? start_sector : first_sector(); }
    // Position of `sector` in the lap order, 0-based (B1): 2, 3, ..., N, 1 by default.
    int lap_position(int sector) const noexcept {
        if (start_encounter) return sector - 1;
        return sector == 1 ? sectors - 1 : sector - 2;
    }
    // The sector at lap position `pos` (B1).
    int sector_at(int pos) const noexcept {
        if (start_encounter) return pos + 1;
        return pos == sectors - 1 ? 1 : pos + 2;
    }
};

// The declared rule options (engine/rule_options.hpp), in the order `odds list` shows them.
const OptionTable<Options>& option_table();
// Checks and reads `--set` pairs; throws UsageError naming the bad value and what is valid.
Options parse_options(const Settings& settings);
// Every effective option, e.g. "sectors=36 bases=2d6 layout=random hull=100 ...".
// What a user should hear about these options before a run: a start that leaves one or two
// sectors of the lap to play (start_sector=1 is the last sector of the lap, B1).
std::vector<std::string> warnings(const Options& o);
std::string scenario(const Options& o);

struct Outcome {
    bool won = false;
    int damage = 0;  // the ship's damage at the end, start_damage included, capped at hull
    int sectors_entered = 0;
    int bases_placed = 0;     // bases in the layout, including those behind start_sector
    int bases_destroyed = 0;  // bases destroyed during this playout
    int encounters = 0;       // encounter-table rolls resolved
    int alerts = 0;           // spy ships that escaped and raised the alert
};

// The metrics of one playout, declared once (engine/metric.hpp): metric_specs and to_metrics
// read these rows.
enum Metric : int {
    kWin,
    kDamage,
    kSectors,
    kBasesPlaced,
    kBasesDestroyed,
    kEncounters,
    kAlerts,
    kMetricCount
};
template <class M>
constexpr void declare_metrics(M& m) {
    const auto sectors = [](const Options& o) { return o.sectors; };
    const auto rolls = [](const Options& o) { return o.alert_encounters * o.sectors; };
    m(kWin, "win", "the mission succeeded: every base destroyed (B9)", MetricKind::rate, 0, 1,
      [](const Outcome& r) { return r.won ? 1 : 0; });
    m(
        kDamage, "damage", "the ship's damage at the end, capped at the hull (B3)",
        MetricKind::count, 0, [](const Options& o) { return o.hull; },
        [](const Outcome& r) { return r.damage; });
    m(kSectors, "sectors_entered", "sectors entered during the mission (B1)", MetricKind::count, 0,
      sectors, [](const Outcome& r) { return r.sectors_entered; });
    m(kBasesPlaced, "bases_placed", "bases in the layout (B2)", MetricKind::count, 0, sectors,
      [](const Outcome& r) { return r.bases_placed; });
    m(kBasesDestroyed, "bases_destroyed", "bases destroyed during the mission (B8)",
      MetricKind::count, 0, sectors, [](const Outcome& r) { return r.bases_destroyed; });
    m(kEncounters, "encounters", "encounter-table rolls resolved (B5)", MetricKind::count, 0, rolls,
      [](const Outcome& r) { return r.encounters; });
    m(kAlerts, "alerts", "spy ships that escaped and raised the alert (B6)", MetricKind::count, 0,
      rolls, [](const Outcome& r) { return r.alerts; });
}
static_assert(metrics_in_order<kMetricCount>([](auto& m) { declare_metrics(m); }));
std::vector<MetricSpec> metric_specs(const Options& o);
SurvivalSpec survival_spec();

inline void to_metrics(const Outcome& r, std::int32_t* out) noexcept {
    MetricValues<Outcome> m{r, out};
    declare_metrics(m);
}

// ---------------------------------------------------------------------------------------------
// The rules.

// A single threat resolved by one d6 (B5, B8): destroyed on the faces in `destroyed_on` (bit f
// for face f), else `damage_dice` d6 of damage hit the ship.
struct Threat {
    std::uint8_t destroyed_on;
    std::uint8_t damage_dice;
};
constexpr std::uint8_t faces(std::initializer_list<int> fs) {
    std::uint8_t m = 0;
    for (int f : fs) m = static_cast<std::uint8_t>(m | (1u << f));
    return m;
}
inline constexpr Threat kIMissile{faces({1, 3, 4, 6}), 2};      // B5 table 1
inline constexpr Threat kCosmoMine{faces({2, 3, 4, 5}), 4};     // B5 table 2
inline constexpr Threat kPMissile{faces({1, 2, 5, 6}), 3};      // B5 table 3
inline constexpr Threat kAsteroid{faces({2, 4, 6}), 1};         // B5 table 4
inline constexpr Threat kEMissile{faces({3, 4}), 4};            // B8 E-type missile
inline constexpr std::uint8_t kSpyDestroyedOn = faces({3, 4});  // B5 table 6

struct State {
    std::uint64_t bases = 0;  // surviving bases: bit s-1 for sector s
    int damage = 0;
    int alert = 0;  // B6: sectors still to be alerted
    int hull = 100;
    Outcome out{};

    bool ship_destroyed() const noexcept { return damage >= hull; }  // B3
};

// Faces read ahead (Dice::peek) are added eight at a time, as the bytes of one word: the first
// n (0..8) of the eight faces at f, the rest masked off, summed by one multiplication (8 faces of
// at most 6 cannot carry out of the top byte).
static_assert(std::endian::native == std::endian::little, "the first face is the lowest byte");
inline constexpr std::array<std::uint64_t, 9> kLowBytes = {
    0, 0xFF, 0xFFFF, 0xFFFFFF, 0xFFFFFFFF, 0xFFFFFFFFFF, 0xFFFFFFFFFFFF, 0xFFFFFFFFFFFFFF, ~0ull};
inline int face_sum(const std::uint8_t* f, int n) noexcept {
    std::uint64_t x;
    std::memcpy(&x, f, 8);
    return static_cast<int>(((x & kLowBytes[n]) * 0x0101010101010101ull) >> 56);
}
// c ? a : b, computed without a branch (the dice decide c: a branch would be mispredicted).
inline int pick(bool c, int a, int b) noexcept { return b + ((a - b) & -static_cast<int>(c)); }
// The same in one instruction (cmov) where it shortens a chain of steps that the next dice wait
// on; the compiler, left to itself, may make a branch of c ? a : b.
inline int select(bool c, int a, int b) noexcept {
#if defined(__GNUC__) && defined(__x86_64__)
    const int ci = c;
    asm("testl %1, %1\n\tcmovnel %2, %0" : "+r"(b) : "r"(ci), "rm"(a) : "cc");
    return b;
#else
    return pick(c, a, b);
#endif
}

// B7: a five-missile formation attack. The type die and the leader's number are read ahead with
// the fights (a 6 for the leader, rolled again, takes a slower path); each missile fought (at
// most five) is resolved from the faces: the targeting die while the leader and another remain,
// the missile's die, and its damage dice when it hits; the attack ends (one test a fight) when
// the ship or the leader is destroyed or no missile is left.
template <class Dice>
[[gnu::noinline]] void formation_attack(State& s, Dice& dice) {
    // At most 4 targeting dice and 5 missiles of at most 1 + 3 dice: 24 faces; a fight reads
    // at most from face 20 (its targeting die) to face 30 (the eight from its missile's die).
    const std::uint8_t* f = dice.peek(2 + 31);
    const bool i_type = f[0] <= 3;  // 1-3 I-type, 4-6 P-type
    const unsigned destroyed_on = pick(i_type, kIMissile.destroyed_on, kPMissile.destroyed_on);
    const int damage_dice = pick(i_type, kIMissile.damage_dice, kPMissile.damage_dice);
    int leader_number = f[1];
    int i = 2;                 // faces rolled so far
    if (leader_number == 6) {  // a 6 is rolled again
        dice.skip(2);
        do leader_number = dice.d6();
        while (leader_number == 6);
        f = dice.peek(31);
        i = 0;
    }
    int damage = s.damage;
    const int hull = s.hull;
    int leader = 1, others = 4;
    for (;;) {
        const int both = leader & (others > 0);  // a targeting roll only while both remain
        const int first = f[i], second = f[i + 1];
        const int at_leader = (both & (first == leader_number)) | (leader & (both ^ 1));
        const int t = i + both;  // the missile's die
        const int destroyed = (destroyed_on >> select(both, second, first)) & 1u;
        damage += pick(destroyed, 0, face_sum(f + t + 1, damage_dice));
        i = select(destroyed, t + 1, t + 1 + damage_dice);
        leader &= at_leader ^ 1;  // the leader, destroyed or spent
        others -= at_leader ^ 1;
        // The ship destroyed (B3), the leader destroyed (the rest scatter), or none left.
        const int over = (damage >= hull) | (at_leader & destroyed) | ((leader | others) == 0);
        if (over) break;
    }
    s.damage = damage;
    dice.skip(i);
}

// B5: one roll on the encounter table and its resolution. Faces 1-4 (a single threat) and 6 (a
// spy ship: destroyed on 3-4, else d6 more sectors of alert) have the same shape, a die against
// the threat and, unless destroyed, dice that add up; they are resolved from one table without
// a branch per face, indexed by the encounter die and the threat's die: which of the dice after
// them add up (a byte mask of the eight read at once), whether the sum is damage or alert, and
// how many dice are rolled. 5 is a formation attack (B7).
struct EncounterCell {
    std::uint64_t mask;    // the dice that add up (low bytes), none when it is destroyed
    std::int8_t damage;    // -1: the sum damages the ship, else 0
    std::int8_t alert;     // -1: the sum is added to the alert (an escaped spy ship, B6), else 0
    std::uint8_t escaped;  // 1: a spy ship that escaped and raised the alert
    std::uint8_t rolled;   // dice rolled, the two read first included
};
struct EncounterTable {
    std::array<EncounterCell, 64> cells{};  // encounter die * 8 + threat die
    constexpr EncounterTable() {
        struct Row {
            std::uint8_t destroyed_on, dice;
            bool spy;
        };
        constexpr Row rows[7] = {
            {},
            {kIMissile.destroyed_on, kIMissile.damage_dice, false},    // 1 I-type missile
            {kCosmoMine.destroyed_on, kCosmoMine.damage_dice, false},  // 2 cosmo-mine
            {kPMissile.destroyed_on, kPMissile.damage_dice, false},    // 3 P-type missile
            {kAsteroid.destroyed_on, kAsteroid.damage_dice, false},    // 4 asteroid
            {},                                                        // 5 formation attack
            {kSpyDestroyedOn, 1, true},                                // 6 spy ship
        };
        for (int e = 1; e <= 6; ++e)
            for (int d = 1; d <= 6; ++d) {
                const Row r = rows[e];
                const bool escaped = !((r.destroyed_on >> d) & 1u);  // hit the ship, or got away
                const int n = escaped ? r.dice : 0;
                cells[static_cast<std::size_t>(e * 8 + d)] = {
                    n == 8 ? ~0ull : (std::uint64_t{1} << (8 * n)) - 1,
                    static_cast<std::int8_t>(r.spy ? 0 : -1),
                    static_cast<std::int8_t>(r.spy ? -1 : 0),
                    static_cast<std::uint8_t>(r.spy && escaped), static_cast<std::uint8_t>(2 + n)};
            }
    }
};
inline constexpr EncounterTable kEncounterTable{};

// The counters an encounter changes, kept apart from State while a mission is played (play() keeps
// them in registers): a store to an int of State could be to the dice's position (an unsigned
// int) for all the compiler knows, which would then be read back from memory.
struct Counters {
    int damage;
    int alert;
    int encounters;
    int alerts;
};

template <class Dice>
[[gnu::always_inline]] inline void encounter(State& s, Counters& v, Dice& dice) {
    ++v.encounters;
    const std::uint8_t* f = dice.peek(10);
    if (f[0] == 5) {
        dice.skip(1);
        s.damage = v.damage;
        formation_attack(s, dice);
        v.damage = s.damage;
        return;
    }
    const EncounterCell c = kEncounterTable.cells[static_cast<std::size_t>(f[0] * 8 + f[1])];
    std::uint64_t x;
    std::memcpy(&x, f + 2, 8);
    dice.skip(c.rolled);
    const int sum = static_cast<int>(((x & c.mask) * 0x0101010101010101ull) >> 56);
    v.damage += sum & c.damage;
    v.alert += sum & c.alert;  // B6: an escaped spy adds d6 to the alert counter
    v.alerts += c.escaped;
}

// B7 with a variant's values, die by die in the book's order: the type die, the leader's number
// (rolled again on formation.leader_rerolled_on), then each fight: the targeting die while the
// leader and another remain, the missile's die, and its damage when it hits.
template <class Dice>
void formation_variant(const Options& o, Counters& v, int hull, Dice& dice) {
    const bool i_type = o.formation_i_type.has(dice.d6());
    const FaceSet& destroyed_on = i_type ? o.i_missile_destroyed_on : o.p_missile_destroyed_on;
    const DiceExpr& damage = i_type ? o.i_missile_damage : o.p_missile_damage;
    int leader_number;
    do leader_number = dice.d6();
    while (o.formation_leader_rerolled_on.has(leader_number));
    int leader = 1, others = o.formation_missiles - 1;
    while (leader + others > 0) {
        const bool at_leader = leader && others > 0 ? dice.d6() == leader_number : leader == 1;
        const bool destroyed = destroyed_on.has(dice.d6());
        if (!destroyed) v.damage += damage.roll(dice);
        if (at_leader)
            leader = 0;  // destroyed, or spent
        else
            --others;
        if (v.damage >= hull || (at_leader && destroyed)) break;  // B3; the rest scatter
    }
}

// B5 with a variant's values, die by die in the book's order: the encounter die (its faces as
// the encounter.* options give them), the threat's d6, then its damage or alert dice.
template <class Dice>
void encounter_variant(const Options& o, State& s, Counters& v, Dice& dice) {
    ++v.encounters;
    const int e = dice.d6();
    if (!o.encounter_any(e)) return;  // B5a: a face of no encounter, a quiet roll
    if (o.encounter_formation.has(e)) {
        formation_variant(o, v, s.hull, dice);
        return;
    }
    const int d = dice.d6();
    if (o.encounter_spy_ship.has(e)) {
        if (!o.spy_ship_destroyed_on.has(d)) {
            v.alert += o.spy_ship_alert.roll(dice);  // B6
            ++v.alerts;
        }
        return;
    }
    const bool i = o.encounter_i_missile.has(e), c = o.encounter_cosmo_mine.has(e),
               p = o.encounter_p_missile.has(e);
    const FaceSet& destroyed_on = i   ? o.i_missile_destroyed_on
                                  : c ? o.cosmo_mine_destroyed_on
                                  : p ? o.p_missile_destroyed_on
                                      : o.asteroid_destroyed_on;
    const DiceExpr& damage = i   ? o.i_missile_damage
                             : c ? o.cosmo_mine_damage
                             : p ? o.p_missile_damage
                                 : o.asteroid_damage;
    if (!destroyed_on.has(d)) v.damage += damage.roll(dice);
}

template <class Dice>
void encounter(State& s, Dice& dice) {
    Counters v{s.damage, s.alert, s.out.encounters, s.out.alerts};
    encounter(s, v, dice);
    s.damage = v.damage;
    s.alert = v.alert;
    s.out.encounters = v.encounters;
    s.out.alerts = v.alerts;
}
// One encounter under the options (the table's fast path for the book's values).
template <class Dice>
void encounter(const Options& o, State& s, Dice& dice) {
    Counters v{s.damage, s.alert, s.out.encounters, s.out.alerts};
    if (o.book)
        encounter(s, v, dice);
    else
        encounter_variant(o, s, v, dice);
    s.damage = v.damage;
    s.alert = v.alert;
    s.out.encounters = v.encounters;
    s.out.alerts = v.alerts;
}

// The dice an E-type missile's round rolls (B8), by its die d: 3 when it is destroyed (the cannon
// die, the attack die and its own), 3 + 4d6 when it hits; in the nibble at bit 4 * d.
inline constexpr std::uint32_t kMissileRolled = [] {
    std::uint32_t m = 0;
    for (int d = 1; d <= 6; ++d) {
        const bool destroyed = (kEMissile.destroyed_on >> d) & 1u;
        m |= static_cast<std::uint32_t>(destroyed ? 3 : 3 + kEMissile.damage_dice) << (4 * d);
    }
    return m;
}();

// B8: base combat until the base or the ship is destroyed. Returns true when the base is. Each
// round is resolved from faces read ahead: the first die (1, 3, 5: a cannon is destroyed), the
// second (1, 3, 5: an E-type missile, then its die and, if it hits, 4d6; 2, 4, 6: cannon fire,
// the shots then the evasions, a die per cannon each); every case is computed and the one the
// dice chose is taken, and as many faces rolled as it uses.
//
// A round that destroys a cannon rolls one die and nothing else, so with eight cannons or fewer
// a run of them is taken at once: the leading odd faces of the next eight (one test of their low
// bits) destroy as many cannons, the last cannon ending the combat; the first even face begins a
// round in which the base attacks. Each step of the loop is one attack and the cannon rounds
// before it, the same faces in the same order as round by round.
template <class Dice>
bool base_combat(State& s, int cannons, Dice& dice) {
    // The damage is kept here, not in s, while the dice are read: a store to s.damage (an int)
    // could be to the dice's position (an unsigned int) for all the compiler knows, which would
    // then be read back from memory every round.
    int damage = s.damage;
    const int hull = s.hull;
    while (cannons > 8) {  // option base_cannons above 8: round by round down to eight
        // Faces: 0 the cannon die, 1 the attack die, then the missile's die and 4d6 from 2, or
        // the shots from 2 and the evasions from 2 + cannons.
        const std::uint8_t* f = dice.peek(2 + cannons + 24);
        const bool cannon_lost = f[0] & 1;
        const bool missile = f[1] & 1;
        const bool missile_destroyed = (kEMissile.destroyed_on >> f[2]) & 1u;
        const int missile_damage =
            pick(missile_destroyed, 0, face_sum(f + 3, kEMissile.damage_dice));
        int shots = 0, evaded = 0;
        for (int i = 0; i < cannons; ++i) {
            shots += f[2 + i];
            evaded += f[2 + cannons + i];
        }
        const int fire = std::max(shots - evaded, 0);
        const int attack = pick(missile, missile_damage, fire);
        const int attack_dice =
            pick(missile, pick(missile_destroyed, 3, 3 + kEMissile.damage_dice), 2 + 2 * cannons);
        damage += pick(cannon_lost, 0, attack);
        dice.skip(pick(cannon_lost, 1, attack_dice));
        cannons -= cannon_lost;
        if (damage >= hull) {  // B3
            s.damage = damage;
            return false;
        }
    }
    for (;;) {
        // Faces: the run of cannon rounds (at most 7 before an attack), then the attack round's
        // cannon die g[0], attack die g[1], and its missile or its shots and evasions from g[2]
        // (eight read at a time): with run + cannons <= 8, all within the first 18.
        const std::uint8_t* f = dice.peek(18);
        std::uint64_t x, x1, x2;
        std::memcpy(&x, f, 8);
        std::memcpy(&x1, f + 1, 8);
        std::memcpy(&x2, f + 2, 8);
        const int at = std::countr_zero(~x & 0x0101010101010101ull);  // 8 * run; 64: none even
        const int run = at >> 3;
        if (run >= cannons) {  // the last cannon is destroyed: so is the base
            dice.skip(cannons);
            s.damage = damage;
            return true;
        }
        cannons -= run;
        // The faces that decide how many dice the attack rolls, g[1] and g[2], are shifted out
        // of words read before the run is known (byte `run` of x1 and x2), not read after it:
        // the next round's faces wait on fewer steps.
        const bool missile = (x1 >> at) & 1;
        const unsigned missile_die = ((x2 << 2) >> at) & 0x1C;  // 4 * g[2]
        const int missile_rolled = static_cast<int>((kMissileRolled >> missile_die) & 0xF);
        const bool missile_hit = missile_rolled > 3;  // else destroyed, its damage not rolled
        const std::uint8_t* g = f + run;
        const int missile_damage = face_sum(g + 3, kEMissile.damage_dice) * missile_hit;
        const int shots = face_sum(g + 2, cannons);
        const int evaded = face_sum(g + 2 + cannons, cannons);
        const int fire = std::max(shots - evaded, 0);
        damage += select(missile, missile_damage, fire);
        // A select (cmov), not pick(): this is on the path from one round's faces to the next's.
        dice.skip(select(missile, run + missile_rolled, run + 2 + 2 * cannons));
        if (damage >= hull) {  // B3
            s.damage = damage;
            return false;
        }
    }
}

// B8 with a variant's values, round by round in the book's order: the combat die (a cannon
// destroyed on base_combat.cannon_destroyed_on), the attack die (an E-type missile on
// base_attack.e_missile_on, else cannon fire), then the missile's die and damage, or the shots of
// every active cannon and the evasions of every cannon fired. Returns true when the base is
// destroyed.
template <class Dice>
bool base_combat_variant(const Options& o, State& s, int cannons, Dice& dice) {
    int damage = s.damage;
    for (;;) {
        if (o.base_combat_cannon_destroyed_on.has(dice.d6())) {
            if (--cannons == 0) break;
            continue;
        }
        if (o.base_attack_e_missile_on.has(dice.d6())) {
            if (!o.e_missile_destroyed_on.has(dice.d6())) damage += o.e_missile_damage.roll(dice);
        } else {
            int shots = 0, evaded = 0;
            for (int i = 0; i < cannons; ++i) shots += o.cannon_fire_shots.roll(dice);
            for (int i = 0; i < cannons; ++i) evaded += o.cannon_fire_evaded.roll(dice);
            damage += std::max(shots - evaded, 0);
        }
        if (damage >= s.hull) {  // B3
            s.damage = damage;
            return false;
        }
    }
    s.damage = damage;
    return true;
}
// Base combat under the options (the fast path for the book's values).
template <class Dice>
bool base_combat(const Options& o, State& s, int cannons, Dice& dice) {
    return o.book ? base_combat(s, cannons, dice) : base_combat_variant(o, s, cannons, dice);
}

// B2: the random layout. From the last placed base (at first sector 1) count a gap of sectors
// on (a d6 by the book, `roll`, lo..hi its totals), wrapping past the last sector; an occupied
// sector is rolled again from the same base; when all six sectors ahead (B2c: lo..hi ahead) are
// occupied the base goes to the first free sector after them, and B2a: that is checked before
// rolling, so no die is rolled for such a base. B2d: `redraw(placed, ahead)`, called after
// kRedrawAfter rolls in a row land on bases, may return the target itself (any sector > 0, drawn
// from the gap's law on the free sectors it reaches) or 0 to roll on.
inline constexpr int kRedrawAfter = 16;
template <class Roll, class Redraw>
std::uint64_t place_bases_by(int sectors, int count, int lo, int hi, Roll roll, Redraw redraw) {
    std::uint64_t placed = 0;
    int last = 1;
    // The sector k on from the last base, counting past the last sector to sector 1. With six
    // sectors or more, every k the book asks (a roll's 1..6, the search past six up to
    // `sectors`) wraps at most once: one subtraction does what % sectors does, without the
    // division. A smaller quadrant, or a longer gap, can wrap more than once (three sectors: a
    // 6 from sector 1 is sector 1).
    auto ahead = [&](int k) {
        int t = last + k;
        if (t > sectors) t -= sectors;
        if (t > sectors) [[unlikely]]
            t = (t - 1) % sectors + 1;
        return t;
    };
    auto bit = [](int sector) { return std::uint64_t{1} << (sector - 1); };
    for (int b = 0; b < count; ++b) {
        bool room = false;
        for (int k = lo; k <= hi; ++k) room = room || !(placed & bit(ahead(k)));
        int target;
        if (room) {
            int misses = 0;
            for (;;) {
                target = ahead(roll());
                if (!(placed & bit(target))) break;
                if (++misses % kRedrawAfter == 0) [[unlikely]]
                    if (const int t = redraw(placed, ahead); t > 0) {
                        target = t;
                        break;
                    }
            }
        } else {
            int k = hi + 1;
            while (placed & bit(ahead(k))) ++k;
            target = ahead(k);
        }
        placed |= bit(target);
        last = target;
    }
    return placed;
}
// The book's placement: a d6 gap, which lands on a free sector at least one time in six when
// any is in reach (B2a): rolled again until it does.
template <class Dice>
std::uint64_t place_bases(int sectors, int count, Dice& dice) {
    return place_bases_by(
        sectors, count, 1, 6, [&] { return dice.d6(); },
        [](std::uint64_t, const auto&) { return 0; });
}
// B2d: a variant's gap may reach its free sectors only with extreme totals (36 bases in 36
// sectors with placement.gap=32d2: the last free sector, 2^-32 a roll). After kRedrawAfter misses
// in a row, if a roll lands on a free sector less than one time in 64, the gap is drawn at once
// from its law restricted to the free sectors it reaches, by one raw word of the dice: the same
// law as rolling until it lands (each roll is independent of the misses before it), in bounded
// time. Where a roll lands more often than that, the rolling goes on, so every variant whose
// placement ends in reasonable time rolls the same faces as before this ruling.
template <class Dice>
int redraw_gap(const DiceExpr& gap, std::uint64_t placed, const auto& ahead, Dice& dice) {
    const int lo = gap.min(), hi = gap.max();
    std::array<double, kMaxSectors + 1> p{};  // p[k - lo]: P(gap = k), by convolution
    p[0] = 1;
    int span = 0;
    for (int t = 0; t < gap.n; ++t)
        for (int c = 0; c < gap.terms[static_cast<std::size_t>(t)].count; ++c) {
            const int sides = gap.terms[static_cast<std::size_t>(t)].sides;
            std::array<double, kMaxSectors + 1> q{};
            for (int v = 0; v <= span; ++v)
                for (int f = 0; f < sides; ++f)
                    q[static_cast<std::size_t>(v + f)] += p[static_cast<std::size_t>(v)] / sides;
            p = q;
            span += sides - 1;
        }
    double free = 0;
    for (int k = lo; k <= hi; ++k)
        if (!(placed >> (ahead(k) - 1) & 1)) free += p[static_cast<std::size_t>(k - lo)];
    if (free >= 1.0 / 64) return 0;  // roll on: at most 64 rolls a base on average
    // u uniform in [0, free): 53 bits of one word.
    double u = static_cast<double>(dice.word() >> 11) * 0x1p-53 * free;
    int last_free = 0;
    for (int k = lo; k <= hi; ++k) {
        if (placed >> (ahead(k) - 1) & 1) continue;
        last_free = ahead(k);
        u -= p[static_cast<std::size_t>(k - lo)];
        if (u < 0) return last_free;
    }
    return last_free;  // u's rounding past the last free sector's share
}
// A variant's placement: option placement.gap.
template <class Dice>
std::uint64_t place_bases(int sectors, int count, const DiceExpr& gap, Dice& dice) {
    return place_bases_by(
        sectors, count, gap.min(), gap.max(), [&] { return gap.roll(dice); },
        [&](std::uint64_t placed, const auto& ahead) {
            return redraw_gap(gap, placed, ahead, dice);
        });
}

// What the kernel asks a policy: nothing, for B1-B9 leave the player no decision. The policy is
// still the seam through which games with decisions are asked; any class is one.
template <class P, class Dice>
concept PolicyFor = std::is_class_v<P>;

// What play_mission tells an observer between two sectors: nothing, for a plain playout.
struct NoObserver {
    void operator()(int, std::uint64_t, int, int) const noexcept {}
};

// One whole mission (B1-B9); Book: the rule book's tables as printed (the fast paths), else a
// variant's (die by die from the options, the same faces in the same order for the book's).
// `observe(pos, bases, damage, alert)` is called before each sector is entered (the surviving
// bases, the damage and the alert then; odds shape follows a mission by it).
template <bool Book, class Dice, class Observer = NoObserver>
Outcome play_mission(const Options& o, Dice& dice, const Observer& observe = {}) {
    State s;
    s.hull = o.hull;
    s.damage = o.start_damage;
    s.alert = o.start_alert;

    // B2: the layout, fixed or rolled (the count rolled first, 2d6 by the book, then each base
    // placed in its own sector).
    if (o.fixed_layout()) {
        s.bases = o.layout;
        s.out.bases_placed = std::popcount(o.layout);
    } else {
        const int count = o.bases.roll(dice);
        if constexpr (Book)
            s.bases = place_bases(o.sectors, count, dice);
        else
            s.bases = place_bases(o.sectors, count, o.placement_gap, dice);
        s.out.bases_placed = count;
    }

    // B3: bases earlier in the lap order than the start sector count as destroyed; B3a: a random
    // layout is rolled in full first, and with no base left the mission is already won.
    const int start_pos = o.lap_position(o.effective_start());
    for (int pos = 0; pos < start_pos; ++pos)
        s.bases &= ~(std::uint64_t{1} << (o.sector_at(pos) - 1));

    // B1: one lap at most, in lap order; B9: the mission ends with the last base or the ship.
    Counters v{s.damage, s.alert, 0, 0};
    int entered = 0;
    for (int pos = start_pos; s.bases != 0 && pos < o.sectors; ++pos) {
        observe(pos, s.bases, v.damage, v.alert);
        const int sector = o.sector_at(pos);
        const std::uint64_t here = std::uint64_t{1} << (sector - 1);
        ++entered;
        const bool alerted = v.alert > 0;  // B6: entering any sector spends one alerted sector
        v.alert -= alerted;
        if (s.bases & here) {  // B4: a surviving base: base combat and nothing else
            s.damage = v.damage;
            bool destroyed;
            if constexpr (Book)
                destroyed = base_combat(s, o.base_cannons, dice);
            else
                destroyed = base_combat_variant(o, s, o.base_cannons, dice);
            if (destroyed) {
                s.bases &= ~here;
                ++s.out.bases_destroyed;
            }
            v.damage = s.damage;
        } else {  // B4, B6: one encounter, two when alerted
            if constexpr (Book) {
                encounter(s, v, dice);
                if (alerted && v.damage < s.hull) encounter(s, v, dice);
            } else {
                encounter_variant(o, s, v, dice);
                for (int k = 1; alerted && k < o.alert_encounters && v.damage < s.hull; ++k)
                    encounter_variant(o, s, v, dice);
            }
        }
        if (v.damage >= s.hull) break;  // B3
    }
    s.damage = v.damage;
    s.alert = v.alert;
    s.out.sectors_entered = entered;
    s.out.encounters = v.encounters;
    s.out.alerts = v.alerts;

    s.out.won = s.bases == 0 && !s.ship_destroyed();       // B9
    s.out.damage = s.damage < o.hull ? s.damage : o.hull;  // B3b: start_damage included, capped
    return s.out;
}

// A variant's mission, kept out of line: play()'s book path stays as small as it was.
template <class Dice>
[[gnu::noinline]] Outcome play_variant(const Options& o, Dice& dice) {
    return play_mission<false>(o, dice);
}

// One whole mission (B1-B9), with the rules-as-written policy, which asks nothing.
template <class Policy, class Dice>
requires PolicyFor<Policy, Dice> Outcome play(const Options& o, [[maybe_unused]] Policy& policy,
                                              Dice& dice) {
    if (o.book) [[likely]]
        return play_mission<true>(o, dice);
    return play_variant(o, dice);
}

}  // namespace odds::bosconian
