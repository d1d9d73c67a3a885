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

// The tables play reads (B5-B8), compiled once from the options (compile_tables, when they are
// read): the book's tables are one set of values among others, read from these arrays by the
// same loops, so a variant's table costs what a lookup costs. A face set of a d6 is a byte, bit
// f for face f. A roll's faces are read ahead (Dice::peek) and summed eight at a time: a roll of
// at most eight d6 and a constant is a byte mask and the constant; a roll the faces read ahead
// cannot hold (a die of other than six faces, or more than eight d6) is rolled by its DiceExpr
// where it falls (Options::roll_of), the same dice in the same order.
enum Roll : std::uint8_t {  // the rolls of B5-B8 a table may have to roll by its DiceExpr
    kRollIMissile,
    kRollCosmoMine,
    kRollPMissile,
    kRollAsteroid,
    kRollSpyAlert,
};
// B5: one roll of the encounter table, by the encounter die and the threat's die.
struct EncounterCell {
    std::uint64_t mask;    // the faces after the two read first that add up (low bytes)
    std::int16_t add;      // the roll's constant (NdX+K), when the faces add up
    std::int8_t damage;    // -1: the sum damages the ship, else 0
    std::int8_t alert;     // -1: the sum is added to the alert (an escaped spy ship, B6), else 0
    std::uint8_t escaped;  // 1: a spy ship that escaped and raised the alert
    std::uint8_t rolled;   // faces rolled, the encounter die (and the threat's die) included
    std::uint8_t kind;     // kFaces, kFormation (B7) or kRolled (by `roll`)
    std::uint8_t roll;     // kRolled: which Roll
    // kFaces: the faces and the constant `add`; with no constant, the straight path (the book's
    // every cell but a formation's). Tables::encounter_off_path marks the others.
    static constexpr std::uint8_t kFaces = 0, kFormation = 2, kRolled = 3;
};
// B7: a formation's missile of one type: the faces of its d6 that destroy it, else its damage.
struct FormationMissile {
    std::uint8_t destroyed_on = 0;
    std::uint8_t dice = 0;  // d6 summed from the faces read ahead (0..8) ...
    std::int16_t add = 0;   // ... and the constant
    bool rolled = false;    // else its damage is rolled by the Roll `roll`
    std::uint8_t roll = 0;
};
// Which of eight d6 faces (the bytes of a word) lie in a set of faces, at once: bit 0 of byte k
// set when face k does. A face equals a value when no bit of their XOR is set (faces and values
// are 1..6, three bits), so a set of at most three faces is three such tests; a larger set is the
// complement's tests, flipped. No face is looked up: a handful of steps on the word the faces
// were read in.
struct FaceTest {
    std::array<std::uint64_t, 3> value{};  // a value in every byte (0, no face, where none)
    std::uint64_t flip = 0;  // bit 0 of every byte when the values are the complement's

    static FaceTest of(std::uint8_t set);  // bit f of `set` for face f (1..6)
    std::uint64_t operator()(std::uint64_t faces) const noexcept {
        std::uint64_t none = ~std::uint64_t{0};  // bit 0 of a byte: it differs from every value
        for (const std::uint64_t v : value) {
            const std::uint64_t d = faces ^ v;
            none &= d | (d >> 1) | (d >> 2);
        }
        return (~none & 0x0101010101010101ull) ^ flip;
    }
};
struct Tables {
    std::array<EncounterCell, 64> encounter{};  // encounter die * 8 + threat die (B5)
    // Bit e: a cell of encounter die e leaves the straight path (not kFaces, or a constant).
    std::uint8_t encounter_off_path = 0;
    std::array<FormationMissile, 2> missile{};  // B7: [1] I-type, [0] P-type
    std::uint8_t i_type = 0;                    // B7: the type die's faces for I-type
    std::uint8_t leader_rerolled = 0;           // B7: the leader's number's faces rolled again
    int missiles = 0;                           // B7: formation.missiles
    // B7: the faces a whole attack may read (the type die and the leader's number, then each
    // fight's targeting die, missile's die and damage dice, the last damage read eight at a
    // time; the book's 34): read at once when at most kMaxPeek.
    int formation_faces = 0;
    int alert_encounters = 0;  // B6: the encounters of an alerted sector
    // B2d: placement.gap may come up on a free sector less than one time in 64 (never with one
    // die of at most 64 faces, the book's 1d6), so that a placement may be redrawn (place_bases).
    bool placement_redraws = true;
    // B2d: P(gap = k), k = 0..kMaxSectors, of a gap whose terms are not all plain (kept,
    // exploding, counted or rerolled dice: rule_values.hpp), for redraw_gap.
    std::array<double, kMaxSectors + 1> gap_law{};
    std::array<std::uint64_t, kMaxSectors + 1> reach{};  // B2c: reach_table of placement.gap
    // B8: the combat die's faces that destroy a cannon, the attack die's for an E-type missile,
    // and the missile's damage when it hits: its d6 among the eight faces after the missile's
    // die (a byte mask) and a constant (where read_ahead > 0).
    std::uint8_t cannon_destroyed_on = 0, e_missile_on = 0, e_missile_destroyed_on = 0;
    FaceTest cannon_lost, e_missile_attack;  // cannon_destroyed_on and e_missile_on, eight at once
    std::uint64_t e_missile_mask = 0;
    int e_missile_add = 0;
    // B8, by the missile's die d, in byte d: the faces an E-type missile's round rolls (bits
    // 0-3: 3 when the missile is destroyed, 3 and its damage dice, at most 8, when it hits) and
    // bit 4 when it hits (where read_ahead > 0). One word, held in a register by base_combat:
    // the next round's faces wait on a shift, not on a load from a table.
    std::uint64_t e_missile_round = 0;
    // B8 cannon fire: each cannon's shots and evasions, as d6 (each at most eight) and constants.
    std::uint8_t shots_dice = 0, evaded_dice = 0;
    std::int16_t shots_add = 0, evaded_add = 0;
    // The most cannons a base may have left for its rounds to be read ahead, a run of cannons
    // lost and an attack at once (0..8): more, and a round is rolled die by die. 0 when a roll
    // of B8 is not of d6 the faces can hold.
    int read_ahead = 0;
    // The book's dice tests: a cannon lost and an E-type missile on the odd faces, one d6 a shot
    // and an evasion. Base combat then tests eight faces at once by their low bits; any other
    // sets by FaceTest, eight at once too, in more steps (see base_combat).
    bool odd = false;
};
struct Options;
Tables compile_tables(const Options& o);

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
    // The tables play reads, compiled from the fields above: by parse_options once they are
    // read, and for Options{} here. Code that changes a table's field directly calls settle().
    Tables tables = compile_tables(*this);
    void settle() { tables = compile_tables(*this); }
    // The roll `r` (Roll) of these options.
    const DiceExpr& roll_of(int r) const noexcept {
        switch (r) {
            case kRollIMissile:
                return i_missile_damage;
            case kRollCosmoMine:
                return cosmo_mine_damage;
            case kRollPMissile:
                return p_missile_damage;
            case kRollAsteroid:
                return asteroid_damage;
            default:
                return spy_ship_alert;
        }
    }
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
    // Bases by lap position (B1), bit p for the sector at lap position p, from bases by sector
    // (bit s-1 for sector s), and back: a rotation by one sector unless the lap starts at 1.
    std::uint64_t to_lap(std::uint64_t by_sector) const noexcept {
        if (start_encounter) return by_sector;
        return (by_sector >> 1) | ((by_sector & 1) << (sectors - 1));
    }
    std::uint64_t from_lap(std::uint64_t lap) const noexcept {
        if (start_encounter) return lap;
        const std::uint64_t all = sectors == 64 ? ~0ull : (std::uint64_t{1} << sectors) - 1;
        return ((lap << 1) & all) | (lap >> (sectors - 1));
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
        counts("hull points"), 0, [](const Options& o) { return o.hull; },
        [](const Outcome& r) { return r.damage; });
    m(kSectors, "sectors_entered", "sectors entered during the mission (B1)", counts("sectors"), 0,
      sectors, [](const Outcome& r) { return r.sectors_entered; });
    m(kBasesPlaced, "bases_placed", "bases in the layout (B2)", counts("bases"), 0, sectors,
      [](const Outcome& r) { return r.bases_placed; });
    m(kBasesDestroyed, "bases_destroyed", "bases destroyed during the mission (B8)",
      counts("bases"), 0, sectors, [](const Outcome& r) { return r.bases_destroyed; });
    m(kEncounters, "encounters", "encounter-table rolls resolved (B5)", counts("encounter rolls"),
      0, rolls, [](const Outcome& r) { return r.encounters; });
    m(kAlerts, "alerts", "spy ships that escaped and raised the alert (B6)", counts("spy ships"), 0,
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
inline constexpr std::uint64_t kLowBits = 0x0101010101010101ull;  // bit 0 of each of 8 bytes
inline int face_sum(const std::uint8_t* f, int n) noexcept {
    std::uint64_t x;
    std::memcpy(&x, f, 8);
    return static_cast<int>(((x & kLowBytes[n]) * kLowBits) >> 56);
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

// The counters an encounter changes, kept apart from State while a mission is played (play() keeps
// them in registers): a store to an int of State could be to the dice's position (an unsigned
// int) for all the compiler knows, which would then be read back from memory.
struct Counters {
    int damage;
    int alert;
    int encounters;
    int alerts;
};

// B7: a formation attack. The type die and the leader's number are read ahead with the fights
// (a leader's number rolled again, formation.leader_rerolled_on, takes a slower path); each
// missile fought is resolved from the faces: the targeting die while the leader and another
// remain, the missile's die, and its damage dice when it hits; the attack ends (one test a
// fight) when the ship or the leader is destroyed or no missile is left. Faces are read ahead
// kMaxPeek at a time: a fight reads at most ten (its targeting die, its missile's die and eight
// damage dice), so the window moves on when fewer are left in it; a damage the faces cannot
// hold is rolled where it falls.
// Returns the ship's damage after the attack (a value, not a reference to the caller's counters,
// which then stay in registers).
template <class Dice>
[[gnu::noinline]] int formation_attack(const Options& o, int damage, int hull, Dice& dice) {
    const Tables& t = o.tables;
    // Faces read at once: the whole attack's where it fits (the book's 34), else kMaxPeek.
    const bool fits = t.formation_faces <= kMaxPeek;
    const int read = fits ? t.formation_faces : kMaxPeek;
    const std::uint8_t* f = dice.peek(read);
    const FormationMissile m = t.missile[(t.i_type >> f[0]) & 1u];
    const unsigned destroyed_on = m.destroyed_on;
    int leader_number = f[1];
    int i = 2;                                        // faces rolled so far
    if ((t.leader_rerolled >> leader_number) & 1u) {  // B7, B7a: rolled again
        dice.skip(2);
        do leader_number = dice.d6();
        while ((t.leader_rerolled >> leader_number) & 1u);
        f = dice.peek(read);
        i = 0;
    }
    int leader = 1, others = t.missiles - 1;
    // Steady: every fight's faces lie within the first read (the book's five missiles of at most
    // three dice: 26 faces), and none is rolled.
    // The fights, Steady or not: the same loop, compiled twice so the book's has no test for the
    // window or a rolled damage.
    const auto fights = [&]<bool Steady>() {
        for (;;) {
            if (!Steady && i > kMaxPeek - 10) [[unlikely]] {  // the window moves on
                dice.skip(i);
                f = dice.peek(kMaxPeek);
                i = 0;
            }
            const int both = leader & (others > 0);  // a targeting roll only while both remain
            const int first = f[i], second = f[i + 1];
            const int at_leader = (both & (first == leader_number)) | (leader & (both ^ 1));
            const int d = i + both;  // the missile's die
            const int destroyed = (destroyed_on >> select(both, second, first)) & 1u;
            if (!Steady && m.rolled) [[unlikely]] {  // a damage the faces cannot hold
                dice.skip(d + 1);
                if (!destroyed) damage += o.roll_of(m.roll).roll(dice);
                f = dice.peek(kMaxPeek);
                i = 0;
            } else {
                damage += pick(destroyed, 0, face_sum(f + d + 1, m.dice) + m.add);
                i = select(destroyed, d + 1, d + 1 + m.dice);
            }
            leader &= at_leader ^ 1;  // the leader, destroyed or spent
            others -= at_leader ^ 1;
            // The ship destroyed (B3), the leader destroyed (the rest scatter), or none left.
            const int over = (damage >= hull) | (at_leader & destroyed) | ((leader | others) == 0);
            if (over) break;
        }
    };
    if (fits && !m.rolled) [[likely]]
        fights.template operator()<true>();
    else
        fights.template operator()<false>();
    dice.skip(i);
    return damage;
}

// B5: one roll on the encounter table and its resolution, from the table's cell for the
// encounter die and the threat's die (Tables::encounter): a single threat and a spy ship have
// the same shape, a die against the threat and, unless destroyed, dice that add up, to the
// damage or to the alert (B6); the cell says which faces add up (a byte mask of the eight read
// at once) and how many faces are rolled, so no face is branched on. A formation (B7) and a roll
// the faces cannot hold leave the cell's straight path. B5a: a quiet face rolls one die.
template <class Dice>
[[gnu::always_inline]] inline void encounter(const Options& o, Counters& v, int hull, Dice& dice) {
    ++v.encounters;
    const std::uint8_t* f = dice.peek(10);
    // Off the straight path (the book's: a formation alone), told by the encounter die, before
    // the cell is loaded: a mispredicted branch waits on one face, not on the cell too.
    if ((o.tables.encounter_off_path >> f[0]) & 1u) [[unlikely]] {
        const EncounterCell c = o.tables.encounter[static_cast<std::size_t>(f[0] * 8 + f[1])];
        if (c.kind == EncounterCell::kFormation) {
            dice.skip(1);
            v.damage = formation_attack(o, v.damage, hull, dice);
            return;
        }
        // A roll the faces cannot hold, or the faces and a constant (NdX+K), or the faces alone
        // (a cell of the straight path beside one that is not, for the same encounter die).
        std::uint64_t x;
        std::memcpy(&x, f + 2, 8);
        dice.skip(c.rolled);
        const int sum = c.kind == EncounterCell::kRolled
                            ? o.roll_of(c.roll).roll(dice)
                            : static_cast<int>(((x & c.mask) * kLowBits) >> 56) + c.add;
        v.damage += sum & c.damage;
        v.alert += sum & c.alert;
        v.alerts += c.escaped;
        return;
    }
    const EncounterCell c = o.tables.encounter[static_cast<std::size_t>(f[0] * 8 + f[1])];
    std::uint64_t x;  // the straight path: the faces alone (no constant)
    std::memcpy(&x, f + 2, 8);
    dice.skip(c.rolled);
    const int sum = static_cast<int>(((x & c.mask) * kLowBits) >> 56);
    v.damage += sum & c.damage;
    v.alert += sum & c.alert;  // B6: an escaped spy adds its roll to the alert counter
    v.alerts += c.escaped;
}

// n encounters more while the ship survives (B6: an alerted sector's third and after), out of the
// mission's loop: a value in, a value out, so its counters stay in registers.
template <class Dice>
[[gnu::noinline]] Counters encounters_out_of_line(const Options& o, Counters v, int hull, int n,
                                                  Dice& dice) {
    for (int k = 0; k < n && v.damage < hull; ++k) encounter(o, v, hull, dice);
    return v;
}

// One encounter under the options, on a State (rule tests, odds shape).
template <class Dice>
void encounter(const Options& o, State& s, Dice& dice) {
    Counters v{s.damage, s.alert, s.out.encounters, s.out.alerts};
    encounter(o, v, s.hull, dice);
    s.damage = v.damage;
    s.alert = v.alert;
    s.out.encounters = v.encounters;
    s.out.alerts = v.alerts;
}
// One encounter under the book's tables.
template <class Dice>
void encounter(State& s, Dice& dice) {
    static const Options book;
    encounter(book, s, dice);
}

// The total of n rolls of `e` (a cannon's shots or evasions, B8): the same faces in the same
// order as rolling each in turn.
template <class Dice>
int roll_times(const DiceExpr& e, int n, Dice& dice) {
    if (e.only_d6) return dice.sum_d6(n * e.d6) + n * e.constant;
    int s = 0;
    for (int i = 0; i < n; ++i) s += e.roll(dice);
    return s;
}

// B8 round by round, die by die: the combat die, the attack die, then the missile's die and
// damage or each cannon's shots and evasions, while the base has more cannons than
// Tables::read_ahead. A value in, a value out (kept out of base_combat's registers).
struct BaseFight {
    int damage, cannons;
    int over;  // 1 the base destroyed, -1 the ship (B3), 0 fighting on
};
template <class Dice>
[[gnu::noinline]] BaseFight rounds_die_by_die(const Options& o, BaseFight f, int hull, Dice& dice) {
    const Tables& t = o.tables;
    while (f.cannons > t.read_ahead) {
        if ((t.cannon_destroyed_on >> dice.d6()) & 1u) {
            if (--f.cannons == 0) return {f.damage, 0, 1};
            continue;
        }
        if ((t.e_missile_on >> dice.d6()) & 1u) {
            if (!((t.e_missile_destroyed_on >> dice.d6()) & 1u))
                f.damage += o.e_missile_damage.roll(dice);
        } else {
            const int shots = roll_times(o.cannon_fire_shots, f.cannons, dice);
            const int evaded = roll_times(o.cannon_fire_evaded, f.cannons, dice);
            f.damage += std::max(shots - evaded, 0);
        }
        if (f.damage >= hull) return {f.damage, f.cannons, -1};  // B3
    }
    return f;
}

// B8: base combat until the base or the ship is destroyed. Returns true when the base is.
//
// With more cannons than Tables::read_ahead, a round is rolled die by die: the combat die, the
// attack die, then the missile's die and damage or each cannon's shots and evasions. Then each
// round is resolved from faces read ahead: every case is computed and the one the dice chose is
// taken, and as many faces rolled as it uses. A round that destroys a cannon rolls one die and
// nothing else, so a run of them is taken at once: the leading faces of the next eight that
// destroy a cannon, the last cannon ending the combat; the first other face begins a round in
// which the base attacks. Each step of the loop is one attack and the cannon rounds before it,
// the same faces in the same order as round by round.
//
// Odd: the book's dice tests (Tables::odd), a cannon lost and an E-type missile on the odd
// faces and one d6 a shot and an evasion, so eight faces are tested at once by their low bits
// and the fire's faces are two a cannon; else the eight are tested by Tables::cannon_lost and
// e_missile_attack (FaceTest: up to three comparisons of the word) and the fire's faces counted
// from the tables. A template argument, picked once a mission: the book's test is one AND on the
// chain of steps from one round's faces to the next's, which FaceTest's dozen steps would
// lengthen.
template <bool Odd, class Dice>
bool base_combat(const Options& o, State& s, int cannons, Dice& dice) {
    const Tables& t = o.tables;
    // The damage is kept here, not in s, while the dice are read: a store to s.damage (an int)
    // could be to the dice's position (an unsigned int) for all the compiler knows, which would
    // then be read back from memory every round.
    int damage = s.damage;
    const int hull = s.hull;
    // What every round reads, held in registers: the dice's byte stores could alias the tables
    // for all the compiler knows, which would then be read again every round.
    const std::uint64_t e_round = t.e_missile_round;
    const std::uint64_t e_mask = t.e_missile_mask;
    const int e_add = t.e_missile_add;
    if (cannons > t.read_ahead) [[unlikely]] {  // round by round, die by die, down to read_ahead
        const BaseFight r = rounds_die_by_die(o, {damage, cannons, 0}, hull, dice);
        damage = r.damage;
        cannons = r.cannons;
        if (r.over != 0) {
            s.damage = damage;
            return r.over > 0;
        }
    }
    for (;;) {
        // Faces: the run of cannon rounds (at most 7 before an attack), then the attack round's
        // combat die g[0], attack die g[1], and its missile (g[2], then at most 8 dice) or its
        // shots and evasions from g[2] (at most 8 each, read eight at a time): within the first
        // 18 when they are one a cannon (Odd), else the first 25.
        const std::uint8_t* f = dice.peek(Odd ? 18 : 25);
        std::uint64_t x, x1, x2;
        std::memcpy(&x, f, 8);
        std::memcpy(&x1, f + 1, 8);
        std::memcpy(&x2, f + 2, 8);
        std::uint64_t lost = x;  // bit 0 of byte k: face k destroys a cannon
        if constexpr (!Odd) lost = t.cannon_lost(x);
        const int at = std::countr_zero(~lost & kLowBits);  // 8 * run; 64: none other
        const int run = at >> 3;
        if (run >= cannons) {  // the last cannon is destroyed: so is the base
            dice.skip(cannons);
            s.damage = damage;
            return true;
        }
        cannons -= run;
        const std::uint8_t* g = f + run;
        // The faces that decide how many dice the attack rolls, g[1] and g[2], are shifted out
        // of words read before the run is known (byte `run` of x1 and x2), not read after it:
        // the next round's faces wait on fewer steps.
        bool missile;
        if constexpr (Odd)
            missile = (x1 >> at) & 1;
        else
            missile = (t.e_missile_attack(x1) >> at) & 1;
        const unsigned missile_byte = ((x2 << 3) >> at) & 0x38;  // 8 * g[2]
        const unsigned missile_round = static_cast<unsigned>(e_round >> missile_byte);
        const int missile_rolled = static_cast<int>(missile_round & 0xF);
        std::uint64_t e;
        std::memcpy(&e, g + 3, 8);
        // Its damage when it hits, else none.
        const int missile_damage = (static_cast<int>(((e & e_mask) * kLowBits) >> 56) + e_add) *
                                   static_cast<int>((missile_round >> 4) & 1u);
        const int shots_faces = Odd ? cannons : cannons * t.shots_dice;
        const int evaded_faces = Odd ? cannons : cannons * t.evaded_dice;
        int shots = face_sum(g + 2, shots_faces);
        int evaded = face_sum(g + 2 + shots_faces, evaded_faces);
        if constexpr (!Odd) {
            shots += cannons * t.shots_add;
            evaded += cannons * t.evaded_add;
        }
        const int fire = std::max(shots - evaded, 0);
        damage += select(missile, missile_damage, fire);
        // A select (cmov), not pick(): this is on the path from one round's faces to the next's.
        dice.skip(select(missile, run + missile_rolled, run + 2 + shots_faces + evaded_faces));
        if (damage >= hull) {  // B3
            s.damage = damage;
            return false;
        }
    }
}
// Base combat under the options' tables (rule tests, odds shape).
template <class Dice>
bool base_combat(const Options& o, State& s, int cannons, Dice& dice) {
    return o.tables.odd ? base_combat<true>(o, s, cannons, dice)
                        : base_combat<false>(o, s, cannons, dice);
}
// Base combat under the book's tables.
template <class Dice>
bool base_combat(State& s, int cannons, Dice& dice) {
    static const Options book;
    return base_combat<true>(book, s, cannons, dice);
}

// B2: the random layout. From the last placed base (at first sector 1) count a gap of sectors
// on (a d6 by the book, `roll`, lo..hi its totals), wrapping past the last sector; an occupied
// sector is rolled again from the same base; when all six sectors ahead (B2c: lo..hi ahead) are
// occupied the base goes to the first free sector after them, and B2a: that is checked before
// rolling, so no die is rolled for such a base. B2d: `redraw(placed, ahead)`, called after
// kRedrawAfter rolls in a row land on bases, may return the target itself (any sector > 0, drawn
// from the gap's law on the free sectors it reaches) or 0 to roll on.
inline constexpr int kRedrawAfter = 16;
// B2c: reach[s], the sectors a gap of lo..hi reaches from a base in sector s (bit t-1 for sector
// t, wrapping past the last sector as often as the gap does), s = 1..sectors. The placement's
// room test is then one mask a base, whatever the gap (Tables::reach holds the options').
inline std::array<std::uint64_t, kMaxSectors + 1> reach_table(int sectors, int lo, int hi) {
    std::array<std::uint64_t, kMaxSectors + 1> reach{};
    const int n = std::min(hi - lo + 1, sectors);  // more wraps reach no more sectors
    for (int s = 1; s <= sectors; ++s)
        for (int k = lo; k < lo + n; ++k)
            reach[static_cast<std::size_t>(s)] |= std::uint64_t{1} << ((s + k - 1) % sectors);
    return reach;
}
// `reach`: reach_table(sectors, lo, hi).
template <class Roll, class Redraw>
[[gnu::always_inline]] inline std::uint64_t place_bases_by(int sectors, int count, int hi,
                                                           const std::uint64_t* reach, Roll roll,
                                                           Redraw redraw, bool may_redraw = true) {
    std::uint64_t placed = 0;
    int last = 1;
    // The sector k on from the last base, counting past the last sector to sector 1. With six
    // sectors or more, every k the book asks (a roll's 1..6, the search past six up to
    // `sectors`) wraps at most once: one subtraction does what % sectors does, without the
    // division. A smaller quadrant, or a longer gap, can wrap more than once (three sectors: a
    // 6 from sector 1 is sector 1).
    // (A function of its base, so that `last` never leaves a register: redraw is handed a copy.)
    const auto ahead_of = [sectors](int from, int k) {
        int t = from + k;
        if (t > sectors) t -= sectors;
        if (t > sectors) [[unlikely]]
            t = (t - 1) % sectors + 1;
        return t;
    };
    const auto ahead = [&](int k) { return ahead_of(last, k); };
    auto bit = [](int sector) { return std::uint64_t{1} << (sector - 1); };
    for (int b = 0; b < count; ++b) {
        // B2a, B2c: a sector lo..hi on from the last base is free (one mask a base, no branch).
        const bool room = (placed & reach[last]) != reach[last];
        int target;
        if (room) {
            int misses = 0;
            for (;;) {
                target = ahead(roll());
                if (!(placed & bit(target))) break;
                if (may_redraw && ++misses % kRedrawAfter == 0) [[unlikely]]
                    if (const int t = redraw(placed, [=](int k) { return ahead_of(last, k); });
                        t > 0) {
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
// B2d: a variant's gap may reach its free sectors only with extreme totals (36 bases in 36
// sectors with placement.gap=32d2: the last free sector, 2^-32 a roll). After kRedrawAfter misses
// in a row, if a roll lands on a free sector less than one time in 64, the gap is drawn at once
// from its law restricted to the free sectors it reaches, by one raw word of the dice: the same
// law as rolling until it lands (each roll is independent of the misses before it), in bounded
// time. Where a roll lands more often than that, the rolling goes on, so every variant whose
// placement ends in reasonable time rolls the same faces as before this ruling.
// P(gap = k), k = 0..kMaxSectors, by law() (rule_values.hpp): for a gap not all plain dice.
inline std::array<double, kMaxSectors + 1> gap_law(const DiceExpr& gap) {
    std::array<double, kMaxSectors + 1> p{};
    const std::vector<double> q = law(gap);
    for (std::size_t i = 0; i < q.size(); ++i)
        if (gap.min() + static_cast<int>(i) <= kMaxSectors)
            p[static_cast<std::size_t>(gap.min()) + i] = q[i];
    return p;
}
// `table`: gap_law(gap) of a gap not all plain dice (the die-by-die reference and the tests pass
// none, and it is computed here).
template <class Dice>
[[gnu::noinline]] int redraw_gap(const DiceExpr& gap,
                                 const std::array<double, kMaxSectors + 1>* table,
                                 std::uint64_t placed, const auto& ahead, Dice& dice) {
    const int lo = gap.min(), hi = gap.max();
    std::array<double, kMaxSectors + 1> p{};  // p[k - lo]: P(gap = k), by convolution
    p[0] = 1;
    int span = 0;
    if (!gap.plain()) {
        const auto q = table ? *table : gap_law(gap);
        for (int k = lo; k <= hi; ++k)
            p[static_cast<std::size_t>(k - lo)] = q[static_cast<std::size_t>(k)];
    } else
        for (int t = 0; t < gap.n; ++t)
            for (int c = 0; c < gap.terms[static_cast<std::size_t>(t)].count; ++c) {
                const int sides = gap.terms[static_cast<std::size_t>(t)].sides;
                std::array<double, kMaxSectors + 1> q{};
                for (int v = 0; v <= span; ++v)
                    for (int f = 0; f < sides; ++f)
                        q[static_cast<std::size_t>(v + f)] +=
                            p[static_cast<std::size_t>(v)] / sides;
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
// A roll kept out of the mission's loop, whose registers it would take.
template <class Dice>
[[gnu::noinline]] int roll_out_of_line(const DiceExpr& e, Dice& dice) {
    return e.roll(dice);
}
// The placement of option placement.gap (the book's 1d6 included).
// may_redraw: false when the gap is sure to land on a free sector at least one time in 64
// (Tables::placement_redraws), so that B2d never redraws and the misses need no count.
// Out of line, once a mission: the placement's loop has the registers to itself, and the
// mission's loop keeps its own.
template <class Dice>
[[gnu::noinline]] std::uint64_t place_bases(int sectors, int count, const DiceExpr& gap, Dice& dice,
                                            bool may_redraw,
                                            const std::array<double, kMaxSectors + 1>* table,
                                            const std::uint64_t* reach) {
    // One d6 (and a constant), the book's gap, as one face; the test and the constant held in
    // registers (the dice's byte stores could alias `gap` for all the compiler knows).
    const bool one_d6 = gap.only_d6 && gap.d6 == 1;
    const int constant = gap.constant;
    if (one_d6 && !may_redraw) [[likely]]  // the same loop, compiled with nothing else to roll
        return place_bases_by(
            sectors, count, 6 + constant, reach, [&] { return dice.d6() + constant; },
            [](std::uint64_t, const auto&) { return 0; }, false);
    return place_bases_by(
        sectors, count, gap.max(), reach,
        [&] { return one_d6 ? dice.d6() + constant : roll_out_of_line(gap, dice); },
        [&](std::uint64_t placed, const auto& ahead) {
            return redraw_gap(gap, table, placed, ahead, dice);
        },
        may_redraw);
}
// The placement of a gap without the options' tables (the rule tests, the die-by-die
// reference): its reach computed here, every miss counted for B2d.
template <class Dice>
std::uint64_t place_bases(int sectors, int count, const DiceExpr& gap, Dice& dice) {
    const auto reach = reach_table(sectors, gap.min(), gap.max());
    return place_bases(sectors, count, gap, dice, true, nullptr, reach.data());
}
// The book's placement: a d6 gap, which lands on a free sector at least one time in six when
// any is in reach (B2a), so it is rolled again until it does (B2d never redraws it).
template <class Dice>
std::uint64_t place_bases(int sectors, int count, Dice& dice) {
    return place_bases(sectors, count, DiceExpr::of(1, 6), dice);
}

// What the kernel asks a policy: nothing, for B1-B9 leave the player no decision. The policy is
// still the seam through which games with decisions are asked; any class is one.
template <class P, class Dice>
concept PolicyFor = std::is_class_v<P>;

// What play_mission tells an observer between two sectors: nothing, for a plain playout.
struct NoObserver {
    void operator()(int, std::uint64_t, int, int) const noexcept {}
};

// One whole mission (B1-B9) under the options' tables; Odd: Tables::odd (base_combat).
// `observe(pos, bases, damage, alert)` is called before each sector is entered (the surviving
// bases, the damage and the alert then; odds shape follows a mission by it).
template <bool Odd, class Dice, class Observer = NoObserver>
Outcome play_mission(const Options& o, Dice& dice, const Observer& observe = {}) {
    State s;
    s.hull = o.hull;
    s.damage = o.start_damage;
    s.alert = o.start_alert;

    // B2: the layout, fixed or rolled (the count rolled first, 2d6 by the book, then each base
    // placed in its own sector, a gap of 1d6 by the book).
    if (o.fixed_layout()) {
        s.bases = o.layout;
        s.out.bases_placed = std::popcount(o.layout);
    } else {
        // The count's d6 summed here (the book's 2d6), any other roll out of line.
        const DiceExpr& bases = o.bases;
        const int count =
            bases.only_d6 ? dice.sum_d6(bases.d6) + bases.constant : roll_out_of_line(bases, dice);
        s.bases = place_bases(o.sectors, count, o.placement_gap, dice, o.tables.placement_redraws,
                              &o.tables.gap_law, o.tables.reach.data());
        s.out.bases_placed = count;
    }

    // B3: bases earlier in the lap order than the start sector count as destroyed; B3a: a random
    // layout is rolled in full first, and with no base left the mission is already won. The
    // mission reads the bases by lap position (Options::to_lap): the sector entered at position
    // pos is bit pos.
    const int start_pos = o.lap_position(o.effective_start());
    std::uint64_t lap = o.to_lap(s.bases) & (~std::uint64_t{0} << start_pos);

    // B1: one lap at most, in lap order; B9: the mission ends with the last base or the ship. A
    // base left is ahead (one behind was fought to its end), so the lap ends with the last base.
    Counters v{s.damage, s.alert, 0, 0};
    const int hull = s.hull;
    const int more = o.tables.alert_encounters - 1;  // B6: an alerted sector's after the first
    int pos = start_pos;
    for (; lap != 0; ++pos) {
        observe(pos, o.from_lap(lap), v.damage, v.alert);
        const std::uint64_t here = std::uint64_t{1} << pos;
        const bool alerted = v.alert > 0;  // B6: entering any sector spends one alerted sector
        v.alert -= alerted;
        if (lap & here) {  // B4: a surviving base: base combat and nothing else
            s.damage = v.damage;
            const bool base_destroyed = base_combat<Odd>(o, s, o.base_cannons, dice);
            v.damage = s.damage;
            if (!base_destroyed) {  // B3: it ends with the base or the ship
                ++pos;
                break;
            }
            lap &= ~here;
            ++s.out.bases_destroyed;
        } else {  // B4, B6: one encounter, alert.encounters (two by the book) when alerted
            encounter(o, v, hull, dice);
            // The alerted sector's second encounter on one branch (the book's two), any more
            // out of line.
            if (alerted && more > 0 && v.damage < hull) {
                encounter(o, v, hull, dice);
                if (more > 1) [[unlikely]]
                    v = encounters_out_of_line(o, v, hull, more - 1, dice);
            }
            if (v.damage >= hull) {  // B3
                ++pos;
                break;
            }
        }
    }
    s.bases = o.from_lap(lap);
    s.damage = v.damage;
    s.alert = v.alert;
    s.out.sectors_entered = pos - start_pos;
    s.out.encounters = v.encounters;
    s.out.alerts = v.alerts;

    s.out.won = s.bases == 0 && !s.ship_destroyed();       // B9
    s.out.damage = s.damage < o.hull ? s.damage : o.hull;  // B3b: start_damage included, capped
    return s.out;
}

// One whole mission (B1-B9), with the rules-as-written policy, which asks nothing.
template <class Policy, class Dice>
requires PolicyFor<Policy, Dice> Outcome play(const Options& o, [[maybe_unused]] Policy& policy,
                                              Dice& dice) {
    if (o.tables.odd) [[likely]]
        return play_mission<true>(o, dice);
    return play_mission<false>(o, dice);
}

}  // namespace odds::bosconian
