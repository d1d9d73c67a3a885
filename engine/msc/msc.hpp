// Minimal Space Combat: The Strategic Game, the campaign (rulings M1-M9). Rules page: RULES.md
// beside this file.
//
// Two sides, A and B, each build ships of two designs (M2a: a main design and an escort, as a
// share of the ships built; their policy's doctrine, or the options) and move fleets of them
// over a hex star map. Fixed capacity: kMaxFleets fleets a side, kMaxDesigns designs a side
// (a fleet counts its ships per design) and kMaxSystems systems. A map that would exceed them
// is refused before the run starts; a side at kMaxFleets fleets cannot detach more, and its new
// ships wait for a free slot (M5a).
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <concepts>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/decision.hpp"
#include "engine/hex.hpp"
#include "engine/metric.hpp"
#include "engine/msc/map.hpp"
#include "engine/msc/ships.hpp"
#include "engine/rule_options.hpp"
#include "engine/versus.hpp"

namespace odds::msc {

inline constexpr int kMaxFleets = 16;
inline constexpr int kSides = 2;
inline constexpr int kMaxRounds =
    1000;  // M7a: a combat still going then ends by the attacker's retreat
// M2a, M2b: a side's designs: its plan's main design [0] and escort [1], and up to two more it
// chose to build (M2b: at most four designs a side in a campaign).
inline constexpr int kMaxDesigns = 4;
inline constexpr int kDefaultEscortShare = 25;  // M2a: one ship in four an escort

// M2a: what a side means to build (the doctrines' build order; M4: the policy decides). Ships of
// its main design and of its escort design, the escorts a share (in percent) of the ships built:
// the next ship is an escort when that keeps the escorts within the share (share 25: every fourth
// ship). A plan of one design builds only that. In a State, design[2..] hold the other designs
// the side chose to build (M2b); an empty slot is Design{} (cost 0).
struct Plan {
    std::array<Design, kMaxDesigns> design{};
    int escort_share = 0;  // 0..100

    constexpr Plan() = default;
    constexpr Plan(const Design& main) noexcept : design{main, main} {}  // NOLINT: one design
    constexpr Plan(const Design& main, const Design& escort, int share) noexcept
        : design{main, escort}, escort_share(share) {}

    // The slot holding design d, else the first free slot (to hold it), else -1 (M2b).
    constexpr int slot_for(const Design& d) const noexcept {
        int free = -1;
        for (int k = 0; k < kMaxDesigns; ++k) {
            if (design[k] == d) return k;
            if (free < 0 && design[k].empty()) free = k;
        }
        return free;
    }

    // The design (0 main, 1 escort) of the next ship, given how many of each were built.
    constexpr int next(const std::array<int, kMaxDesigns>& built) const noexcept {
        return 100 * (built[1] + 1) <= escort_share * (built[0] + built[1] + 1) ? 1 : 0;
    }
};

struct Options {
    bool random_map = false;                  // M1
    std::shared_ptr<const StarMap> map_file;  // M1b: map=PATH; none: the seed's example map
    std::string map_path;                     // M1b: PATH as given
    int width = 26, height = 22, systems = 30;
    bool swap_homes = false;  // M1a: side A starts at the map's second home, B at the first
    int budget = 525;         // M3
    int max_turns = 300;      // M8
    int initiative = -1;      // M4a: -1 rolled each turn (M4); 0 or 1: that side is always Player 1
    std::array<std::optional<Design>, kSides>
        design{};  // M2a: overrides the doctrine's main design
    std::array<std::optional<Design>, kSides> escort{};  // M2a: overrides the doctrine's escort
    std::array<int, kSides> escort_share{kDefaultEscortShare, kDefaultEscortShare};  // M2a
    CombatRules combat{};         // M7: dice per BPs, the faces that hit and save
    int max_rounds = kMaxRounds;  // M7a: rounds after which the attacker retreats
    int bp_per_system = 1;        // M4: BPs an owned system yields a turn
    int home_bp = 0;              // M4, M1: BPs the home yields a turn; 0: bp_per_system
    int capture_turns = 2;        // M6: turns in a row alone in a system that capture it
    int produces_after = 2;       // M6: a system captured on turn T produces from T + this
    ShipRules ships{};            // M2: costs, maxima, sizes; M5: hexes per ENGINE point
    // M2a: the size of a doctrine's main design and of its escort: an index into ships.sizes
    // (the book: 15 and 10 BP).
    int main_size = 1, escort_size = 0;
    int initiative_die = 6;  // M4: the die both sides roll for initiative
    int retreat_hexes = 1;   // M7: how far a retreat goes toward home
    // M2c, M5b, M7f (restricted play, options restrict.a and restrict.b): what each side may
    // never do, a bit each: build a ship of the small, medium or large size (ships.*_bp), merge
    // fleets, split a fleet (detach ships), retreat.
    enum Bar : std::uint8_t {
        kBarSmall = 1,
        kBarMedium = 2,
        kBarLarge = 4,
        kBarMerge = 8,
        kBarSplit = 16,
        kBarRetreat = 32
    };
    std::array<std::uint8_t, kSides> barred{};
    bool bars(int side, std::uint8_t bit) const noexcept {
        return (barred[static_cast<std::size_t>(side)] & bit) != 0;
    }
    // M2c: is a ship of `cost` BP of a size barred to `side` (the sizes in ships.sizes' order)?
    bool bars_size(int side, int cost) const noexcept {
        for (std::size_t z = 0; z < ships.sizes.size(); ++z)
            if (ships.sizes[z] == cost) return bars(side, static_cast<std::uint8_t>(1u << z));
        return false;
    }

    // The map played when it is not random: a map file's (M1b), else the seed's (M1).
    const StarMap& star_map() const noexcept { return map_file ? *map_file : example_map(); }
};

// The declared rule options (engine/rule_options.hpp), in the order `odds list` shows them.
const OptionTable<Options>& option_table();
Options parse_options(const Settings& settings);
// M2a: a doctrine's main design and escort under the options' ship rules and sizes; UsageError
// naming the option where the doctrine has no legal design of that size.
Design doctrine_main(Doctrine d, const Options& o);
Design doctrine_escort(Doctrine d, const Options& o);
// M2a: side `side`'s plan under doctrine `d`: its main design and its escort (the options'
// design_X and escort_X, else the doctrine's at doctrine.main_size and doctrine.escort_size),
// the escorts escorts_X percent of the ships built.
Plan plan_of(const Options& o, std::size_t side, Doctrine d);
// A plan as a scenario names it: MAIN+ESCORT@SHARE%, or MAIN alone without escorts.
std::string to_string(const Plan& p);
std::string scenario(const Options& o);

using Counts = std::array<int, kMaxDesigns>;  // ships per design of the side's plan (M2a)

struct Fleet {
    hex::Hex pos{};
    Counts n{};       // its ships, per design; none: the slot is free
    int arrived = 0;  // the movement order in which it last entered its hex (M7)

    constexpr int ships() const noexcept {
        int t = 0;
        for (int k : n) t += k;
        return t;
    }
};

struct System {
    hex::Hex pos{};
    std::int8_t owner = -1;     // -1: nobody
    std::int8_t occupant = -1;  // the side alone here at the end of recent turns
    std::uint8_t streak = 0;    // how many turns in a row (M6)
    int captured = -100;        // the turn it was captured (M6: produces from captured + 2)
    std::int8_t home_of = -1;   // a side's home system
};

// Where play rests (the resumable form, msc::Game below): whose decision and which.
//   build    M4 (and M3 at the start): build one ship of any legal design, or save
//   merge    M5a, at the start of a side's movement: merge two of its fleets in one hex, or not
//   orders   M5, M5a: a fleet's orders: set a ship aside for a detachment, send the detachment,
//            or move (ending the fleet's orders)
//   lose     M7d: the design of the next ship to lose
//   retreat  M7: retreat, or fight on (asked after every round, also where the side cannot
//            retreat, M7c, M7e: there fighting on is the one legal choice)
//   over     M8: the campaign is over
// The machine passes through the stages after `over` without resting (msc_play.hpp).
enum class Stage : std::uint8_t {
    build,
    merge,
    orders,
    lose,
    retreat,
    over,
    production,  // M4: a new turn: its production
    movement,    // M4: initiative, then Player 1's movement
    next_fleet,  // M5: the next fleet of the moving side to order
    fights,      // M7: the hexes holding both sides
    fight,       // M7: the next fight, if any
    round,       // M7: the next round of the fight under way
    fight_over,
    turn_over,  // M6, M8
};

struct State {
    std::array<System, kMaxSystems> sys{};
    int n_sys = 0;
    hex::Bounds bounds{};
    std::array<hex::Hex, kSides> home{};
    std::array<Plan, kSides> plan{};
    ShipRules ship_rules{};  // M2, M5: the options' (Options::ships), set by the opening
    std::array<std::array<Fleet, kMaxFleets>, kSides> fleets{};
    std::array<int, kSides> bp{};        // BPs saved
    std::array<int, kSides> produced{};  // BPs produced (the starting budget not counted)
    std::array<int, kSides>
        cap_hits{};  // M5a: detachments refused, turns unbuilt, for want of a fleet slot
    std::array<int, kSides> built{}, lost{};
    std::array<Counts, kSides> built_by{};  // ships built per design (M2a)
    int turn = 0;
    int first = 0;       // this turn's Player 1 (M4)
    int move_clock = 0;  // orders fleet arrivals (M7)
    int winner = -2;     // -2: playing; -1: draw; else the side
    enum End { kNone, kHome, kAnnihilation, kTurnCap } end = kNone;

    // The decision play rests at (msc::Game), and what the phase under way needs to go on.
    Stage stage = Stage::build;
    int to_move = 0;                            // who decides
    int fleet = -1;                             // orders: the fleet being ordered
    Counts pending{};                           // orders: its ships set aside for a detachment
    std::array<bool, kMaxFleets> moved{};       // this movement phase: fleets done (M5)
    std::array<hex::Hex, kMaxFleets> fights{};  // M7: this turn's fights, in side A's fleet order
    int n_fights = 0, fight = 0;
    int attacker = 0, round = 0;  // M7: the fight under way
    int losses = 0;               // lose: ships `side` still loses in this half-round

    // Side `side`'s slot for design d (M2b); -1: none free.
    int design_slot(int side, const Design& d) const noexcept { return plan[side].slot_for(d); }

    // Lookups over the map, filled by setup() (and by index() after a map edited by hand): the
    // system at each hex of the map (1 + its index; 0: none), each system's distance from each
    // home, and the systems' coordinates a column each (so a search over them is a vector loop).
    std::array<std::uint8_t, kMaxMapSide * kMaxMapSide> sys_at{};
    std::array<std::array<std::uint8_t, kMaxSystems>, kSides> from_home{};
    std::array<std::int16_t, kMaxSystems> sys_q{}, sys_r{};
    void index() noexcept {
        sys_at.fill(0);
        for (int i = 0; i < n_sys; ++i) {
            sys_at[static_cast<std::size_t>(cell(sys[i].pos))] = static_cast<std::uint8_t>(i + 1);
            sys_q[i] = static_cast<std::int16_t>(sys[i].pos.q);
            sys_r[i] = static_cast<std::int16_t>(sys[i].pos.r);
            for (int side = 0; side < kSides; ++side)
                from_home[side][i] =
                    static_cast<std::uint8_t>(hex::distance(home[side], sys[i].pos));
        }
        claims();
    }
    // Each system's claim, a byte a system in one column (for the strategies' searches): its
    // owner (0 or 1; 3: nobody), plus 4 for a home. Kept by the kernel at the end of each turn;
    // index() and recount() refresh it after systems edited by hand.
    std::array<std::uint8_t, kMaxSystems> claim{};
    void claims() noexcept {
        for (int i = 0; i < n_sys; ++i)
            claim[i] =
                static_cast<std::uint8_t>((sys[i].home_of >= 0 ? 4 : 0) | (sys[i].owner & 3));
    }
    // The hex's cell in sys_at; -1 outside every map's largest rectangle.
    static int cell(const hex::Hex& h) noexcept {
        const int c = hex::offset_col(h), r = hex::offset_row(h);
        return static_cast<unsigned>(c) < kMaxMapSide && static_cast<unsigned>(r) < kMaxMapSide
                   ? r * kMaxMapSide + c
                   : -1;
    }
    // The index of the system in hex h; -1: none.
    int system_at(const hex::Hex& h) const noexcept {
        const int c = cell(h);
        return c < 0 ? -1 : sys_at[static_cast<std::size_t>(c)] - 1;
    }

    // Which of a side's fleet slots hold ships, a bit a slot (slot i: bit i), kept by the kernel
    // as fleets are formed (a build into a free slot, a detachment) and emptied (a merge, the
    // last ship lost), so play walks a side's fleets without scanning its 16 slots; recount()
    // after editing fleets by hand.
    static_assert(kMaxFleets <= 16);
    std::array<std::uint16_t, kSides> alive{};
    void form(int side, int i) noexcept { alive[side] |= static_cast<std::uint16_t>(1u << i); }
    void empty(int side, int i) noexcept { alive[side] &= static_cast<std::uint16_t>(~(1u << i)); }

    // A side's fleets with ships, in slot order.
    struct Live {
        int n = 0;
        std::array<std::int8_t, kMaxFleets> slot{};
    };
    Live live(int side) const noexcept {
        Live l;
        for (unsigned m = alive[side]; m != 0; m &= m - 1)
            l.slot[l.n++] = static_cast<std::int8_t>(std::countr_zero(m));
        return l;
    }

    // Ships afloat a side, kept by the kernel as ships are built and lost (the strategies' fast
    // count); recount() after editing fleets or systems by hand (it also marks the slots holding
    // ships and the systems' claims).
    std::array<int, kSides> afloat{};
    void recount() noexcept {
        claims();
        for (int side = 0; side < kSides; ++side) {
            afloat[side] = ships(side);
            alive[side] = 0;
            for (int i = 0; i < kMaxFleets; ++i)
                if (fleets[side][i].ships() > 0) form(side, i);
        }
    }

    int ships(int side) const noexcept {
        Counts t{};  // per design first: one vector add a fleet
        for (const auto& f : fleets[side])
            for (int d = 0; d < kMaxDesigns; ++d) t[d] += f.n[d];
        int n = 0;
        for (int k : t) n += k;
        return n;
    }
    bool occupied_by(const hex::Hex& h, int side) const noexcept {
        for (unsigned m = alive[side]; m != 0; m &= m - 1)
            if (fleets[side][std::countr_zero(m)].pos == h) return true;
        return false;
    }
    // A side's ships in hex h, per design.
    Counts present(int side, const hex::Hex& h) const noexcept {
        Counts c{};
        for (unsigned m = alive[side]; m != 0; m &= m - 1)
            if (const Fleet& f = fleets[side][std::countr_zero(m)]; f.pos == h)
                for (int d = 0; d < kMaxDesigns; ++d) c[d] += f.n[d];
        return c;
    }
    const Design& design(int side, int d) const noexcept { return plan[side].design[d]; }
    // M5: a fleet moves up to the lowest ENGINE among its ships (hexes, movement.hexes_per_engine
    // a point).
    int range(int side, const Fleet& f) const noexcept {
        int r = kMaxRating;
        for (int d = 0; d < kMaxDesigns; ++d)
            if (f.n[d] > 0) r = std::min(r, design(side, d).engine);
        return r * ship_rules.hexes_per_engine;
    }
    // A design's BPs, offensive and defensive BPs under the campaign's costs (M2).
    int cost(int side, int d) const noexcept { return design(side, d).cost(ship_rules); }
    int offence(int side, int d) const noexcept { return design(side, d).offence(ship_rules); }
    int defence(int side, int d) const noexcept { return design(side, d).defence(ship_rules); }
    int owned(int side) const noexcept;  // systems owned, the home included (M4)
};

// The opening (M1, M3): the map (the seed's, or random from `dice`), the plans, each side's
// budget saved and no ships yet, resting at side A's first build (msc::Game plays on from it).
template <class Dice>
State opening(const Options& o, const std::array<Plan, kSides>& plans, Dice& dice);
// The opening with each side's budget spent by its plan (M2a) on ships at home, as one fleet:
// the start of turn 1 under the doctrines' build order (for tests and the phase functions).
template <class Dice>
State setup(const Options& o, const std::array<Plan, kSides>& plans, Dice& dice);

// One fleet's orders for this turn's movement (M5): where to go, and optionally ships (per
// design) to detach into a new fleet with a target of its own.
struct Orders {
    hex::Hex target{};
    Counts detach{};
    hex::Hex detach_target{};
    constexpr bool operator==(const Orders&) const = default;
};

// One choice at a decision point (msc::Game). Which fields matter depends on the kind:
//   save      build: build nothing more this phase (M4)
//   build     build: one ship of design design_of_code(a) (M2, M2b), at home
//   done      merge: no more merges this phase
//   merge     merge: fleet b joins fleet a, in the same hex (a < b; M5a)
//   detach    orders: one ship of design slot a set aside for a detachment (M5a)
//   send      orders: the ships set aside become a new fleet, moving toward orders.target
//   go        orders: the fleet moves toward orders.target (its orders are over)
//   orders    orders: a whole fleet's orders at once (the strategies' form): orders.detach
//             leave toward orders.detach_target, then the fleet toward orders.target; the same as
//             the detach, send and go choices it stands for (never listed by legal)
//   lose      lose: a ship of design slot a is lost (M7d)
//   stay      retreat: fight on
//   retreat   retreat: retreat one hex toward home (M7; listed by legal only where the side
//             can: not at home, M7c, nor with a ship of ENGINE 0 there, M7e; else it stays)
struct Choice {
    enum Kind : std::uint8_t {
        save,
        build,
        done,
        merge,
        detach,
        send,
        go,
        orders,
        lose,
        stay,
        retreat
    };
    Kind kind = save;
    std::int16_t a = 0, b = 0;
    Orders order{};
    constexpr bool operator==(const Choice&) const = default;
};

// M5: the most hexes a point of ENGINE moves a fleet (movement.hexes_per_engine), and the most
// hexes a fleet can reach in a move.
inline constexpr int kMaxHexesPerEngine = 3;
inline constexpr int kMaxRange = kMaxRating * kMaxHexesPerEngine;
inline constexpr int kMaxReach = 3 * kMaxRange * (kMaxRange + 1) + 1;
// The most choices a decision offers: every legal design and saving (build), or a detachment of
// each design and every hex in reach (orders).
inline constexpr int kMaxChoices = std::max(kMaxDesignsLegal + 1, kMaxDesigns + kMaxReach);

// What the kernel asks a side's policy (its strategy) with dice of type Dice: every decision the
// rules leave to the player. A policy either answers each question:
//   build    M4, M2b: the design of the next ship to build at home, or Design{} to save
//   merge    M5a: two of its fleets in one hex to merge, {a, b} (b joins a), or {-1, -1}
//   orders   a fleet's orders, M5 (a detachment and where the fleet goes)
//   lose     M7d: the design of the next ship to lose, among the side's ships present in the
//            fight (one asked per hit)
//   retreat  M7, after each round of a fight
// or picks among the legal choices themselves (choose: msc::Game::legal's list).
template <class P, class Dice>
concept AnswersFor = requires(P& policy, const State& s, int side, int fleet, const Counts& present,
                              const hex::Hex& fight, Dice& dice) {
    { policy.build(s, side, dice) } -> std::same_as<Design>;
    { policy.merge(s, side, dice) } -> std::same_as<std::array<int, 2>>;
    { policy.orders(s, side, fleet, dice) } -> std::same_as<Orders>;
    { policy.lose(s, side, present, dice) } -> std::same_as<int>;
    { policy.retreat(s, side, fight, dice) } -> std::same_as<bool>;
};
template <class P, class Dice>
concept ChoosesFor = requires(P& policy, const State& s, const Choice* legal, int n, Dice& dice) {
    { policy.choose(s, legal, n, dice) } -> std::same_as<Choice>;
};
template <class P, class Dice>
concept PolicyFor = AnswersFor<P, Dice> || ChoosesFor<P, Dice>;

// A step from `from` toward `to`: the neighbour inside the map closest to `to` (ties: the first
// facing, clockwise from north). A step along a facing brings a hex one nearer exactly when both
// cube coordinates it changes move toward the target's, so no distance is computed.
inline hex::Hex step_toward(const State& s, const hex::Hex& from, const hex::Hex& to) {
    const int dq = to.q - from.q, dr = to.r - from.r, ds = -dq - dr;
    const bool nearer[6] = {dr < 0 && ds > 0, dq > 0 && dr<0, dq> 0 && ds<0, dr> 0 && ds < 0,
                            dq < 0 && dr > 0, dq < 0 && ds > 0};
    for (int f = 0; f < 6; ++f)
        if (nearer[f]) {
            const hex::Hex n = from + hex::kDirections[static_cast<std::size_t>(f)];
            if (s.bounds.contains(n)) return n;
        }
    return from;
}

// Positions (RULES.md, "Positions"): a campaign at the start of a turn (or, at turn 0, before
// the starting budget is spent) as text. read_position fills the map and the plans from the
// options and `plans`, then the file's turn, BPs, fleets and systems; a malformed or illegal
// position throws UsageError "FILE:LINE: WHAT (RULE)". The State it returns is not yet settled:
// the playout's first steps (detail::settle) roll its dice.
std::string write_position(const State& s, const Options& o);
State read_position(std::string_view text, std::string_view file, const Options& o,
                    const std::array<Plan, kSides>& plans);
// The opening as a position (odds state msc): turn 0, each side's budget saved, no ships yet
// (M3). Refused for map=random, which draws a new map for every campaign (M1).
State opening(const Options& o);

// A run of campaigns: the rules, each side's plan (its policy's doctrine decides it, M2a), and
// the position every campaign starts from (--state), else a fresh opening under the plans.
struct Run {
    Options rules;
    std::array<Plan, kSides> plans;
    std::optional<State> start = {};
};
// The run's scenario: the rules' and ships=A/B (each side's plan); and each side's part alone,
// ships_a=A and ships_b=B.
std::string scenario(const Run& r);
std::vector<std::string> seat_scenario(const Run& r);

// The campaign's turn loop and phases: in msc_play.hpp (templates over the policies and dice).

// The metrics of one campaign, declared once in msc.cpp (declare_metrics, engine/metric.hpp).
enum Metric : int {
    kAWin,
    kBWin,
    kDraw,
    kAdvantageFirst,
    kTurns,
    kTimeouts,
    kDrawishness,
    kEndHome,
    kEndAnnihilation,
    kSystemsA,
    kSystemsB,
    kBuiltA,
    kBuiltB,
    kShipsLostA,
    kShipsLostB,
    kBpA,
    kBpB,
    kFleetCapHits,
    kMetricCount
};
static_assert(int{kAWin} == int{versus::kAWin} && int{kDrawishness} == int{versus::kDrawishness},
              "the outcome metrics (engine/versus.hpp) come first");
std::vector<MetricSpec> metric_specs(const Options& o);
SurvivalSpec survival_spec();
void to_metrics(const State& s, std::int32_t* out) noexcept;

}  // namespace odds::msc

#include "engine/msc/msc_play.hpp"
