// Full Plastic Bodybag: Heroes. A raw lieutenant's squad must bring a wounded pointman back from
// a sniper's field of fire. Rules page: RULES.md beside this file; every ruling (H1-H8) is cited
// where it is implemented.
//
// One fixed-size record per named marine; the whole game state is a small struct copied by value
// (the rollout policy copies it thousands of times a decision). The policy decides the leader's
// action, the carry attempts and the bug-out call; it is a template parameter. No heap allocation
// inside a playout.
#pragma once

#include <array>
#include <concepts>
#include <cstdint>
#include <cstdlib>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "engine/decision.hpp"
#include "engine/metric.hpp"
#include "engine/rule_options.hpp"
#include "engine/rule_values.hpp"

namespace odds::fpb {

// H1: the squad, in roster order (every roll over the squad goes in this order).
enum MarineId : int { kLt, kIceCube, kTex, kBuster, kReflex, kSnowball, kLegs, kEdsel, kSquad };
inline constexpr const char* kNames[kSquad] = {"lt",     "icecube",  "tex",  "buster",
                                               "reflex", "snowball", "legs", "edsel"};
// H1: the field is areas 1 (exposed) .. N (cover, where the squad bugs out); the book's N is 3
// (option field.areas, up to kMaxAreas).
inline constexpr int kMaxAreas = 5;

// kOut: withdrawn (H7); kAbsent: not in the game at all (H1: squad.size)
enum Status : std::uint8_t { kFit, kWounded, kDead, kOut, kAbsent };

struct Marine {
    std::uint8_t area = 3;  // 1 (exposed) .. the cover area; meaningless once killed or out
    Status status = kFit;
    bool firing = false;            // giving covering fire (H4, H5)
    bool moved = false;             // moved this turn (H4, H5)
    bool carrying = false;          // tried to carry this turn (H5)
    bool carried = false;           // (a wounded marine) carried this turn: one carrier each (H5)
    bool was_wounded = false;       // withdrawn while wounded (H8)
    std::uint8_t start_area = 3;    // where the turn began (H5)
    std::uint16_t wound_order = 0;  // when wounded: the excess rule kills the latest first (H6)
    std::uint8_t hit_turn = 0;      // the turn he was wounded (0: never)
    std::uint8_t end_turn = 0;      // the turn he left the game (withdrawn, killed) or it ended

    bool fit() const noexcept { return status == kFit; }
    bool wounded() const noexcept { return status == kWounded; }
    bool on_board() const noexcept { return status == kFit || status == kWounded; }
};

// The rule book's numbers (RULES.md, "Options"); the defaults are the book's.
struct Options {
    int max_turns = 50;  // H3
    // H6: the faces of the sniper's d6 that wound a fit marine in area 1, 2, ... (the cover area
    // is never a target), by what covers him: open (no smoke, no covering fire), covered
    // (covering fire), smoke. The book has rows for areas 1 and 2 (area 3 is cover); the others
    // serve a longer field (field.areas) and are empty by default.
    enum Cover : int { kOpen, kCovered, kSmoke };
    using SniperRow = std::array<FaceSet, 3>;
    std::array<SniperRow, kMaxAreas - 1> sniper_rows = {
        SniperRow{FaceSet::range(4, 6), FaceSet::range(5, 6), FaceSet::range(6, 6)},
        SniperRow{FaceSet::range(5, 6), FaceSet::range(6, 6), FaceSet{}}, SniperRow{}, SniperRow{}};
    std::array<int, kSquad> guts = {8, 0, 9, 8, 7, 7, 6, 6};  // H1, H2
    // H2: the Guts roll: its dice, whether a total at or under the Guts succeeds (the book) or at
    // or over it, and what is a critical: every die alike (a natural double), any two alike, none.
    DiceExpr guts_dice = DiceExpr::of(2, 6);
    bool guts_at_or_over = false;
    enum Critical : int { kDouble, kPair, kNoCritical };
    int guts_critical = kDouble;
    // Derived (parse_options sets them): guts.roll is two d6 and a constant (the book's 2d6, or
    // 2d6+1 ...), rolled as the book's two faces whatever guts.succeeds and guts.critical say
    // (with two dice a double and a pair are one thing), that constant, and whether a roll of
    // two alike is a critical; any other dice are rolled by guts_roll_variant.
    bool guts_two_d6 = true;
    int guts_add = 0;
    bool guts_double_critical = true;
    DiceExpr smoke_turns = DiceExpr::of(1, 6, 2);  // H4
    int smoke_orders = 0;                          // H4: smoke orders a game (0: no limit)
    FaceSet friendly_fire = FaceSet::range(6, 6);  // H6
    int max_wounded_per_area = 2;                  // H6: the excess rule
    int icecube_area = 1;                          // H1: where Ice-cube lies wounded at the start
    // H1: where each fit marine starts (0: the cover area, the book's area 3); Ice-cube's entry
    // unused (icecube_area).
    std::array<int, kSquad> start_area{};
    int squad_size = kSquad;  // H1: the first squad.size men of the roster take the field
    int areas = 3;            // H1: field.areas, the last of them the cover area
    int lt_reach = 1;         // H4: the Lt's reach in areas (1: his own and the adjacent ones)
    int orders = 1;           // H4: leader actions a turn
    int cover_firers = 1;     // H6: firers needed for the covered column
    int friendly_from = 2;  // H6: covering fire from this area or any behind it risks friendly fire
    int bug_out_lt_reach = 1;  // H7: the Lt's reach from the cover area for one roll for all
    int bug_out_wounded = 1;   // H7: wounded men each withdrawing marine takes
    // H3a (restricted play, option restrict): the choices the player may never make, a bit each:
    // the Lt's orders smoke, covering fire, halt, move (bit kind - 1 of Order::Kind, H4), a
    // voluntary carry (H5), choosing the wounded man who goes first in a bug-out (H7a).
    enum Bar : std::uint8_t {
        kBarSmoke = 1,
        kBarCover = 2,
        kBarHalt = 4,
        kBarMove = 8,
        kBarCarry = 16,
        kBarFirstOut = 32
    };
    std::uint8_t barred = 0;

    const FaceSet& sniper(int area, int cover) const noexcept {
        return sniper_rows[static_cast<std::size_t>(area - 1)][static_cast<std::size_t>(cover)];
    }
    // The Guts a marine succeeds at (H2) compares as "higher is braver" whichever way the roll
    // succeeds: the policies' measure of a man's nerve.
    int nerve(int marine) const noexcept {
        const int g = guts[static_cast<std::size_t>(marine)];
        return guts_at_or_over ? -g : g;
    }
};
inline constexpr Options kBookOptions{};

// The declared rule options (engine/rule_options.hpp), in the order `odds list` shows them.
const OptionTable<Options>& option_table();
Options parse_options(const Settings& settings);
std::string scenario(const Options& o);

struct State {
    std::array<Marine, kSquad> m{};
    // turns of smoke left in areas 1..areas (index 0 unused)
    std::array<std::uint8_t, kMaxAreas + 1> smoke{};
    int turn = 0;
    std::uint16_t wound_clock = 0;
    bool over = false;
    // The field and the Lt's command as the options set them (opening), carried by every
    // state so that the kernel's helpers and the policies need no options: the areas (the last
    // is cover, H1), the Lt's reach and his actions a turn (H4), and those left this turn.
    std::uint8_t areas = 3, reach = 1, orders = 1, orders_left = 0;
    // Smoke orders left this game (H4: smoke.orders); kNoLimit by the book.
    static constexpr std::uint8_t kNoLimit = 255;
    std::uint8_t smoke_left = kNoLimit;
    // H3a: the choices restricted play bars (Options::barred, its kBar* bits), carried like the
    // Lt's command so that the kernel's helpers and the policies need no options.
    std::uint8_t barred = 0;
    bool can_smoke() const noexcept { return smoke_left > 0 && (barred & Options::kBarSmoke) == 0; }
    // Where the turn stands (the resumable form, Game below): between turns, or at one of its
    // decision points: the leader's action (H4), the carries (H5), the bug-out call (H7).
    enum Phase : std::uint8_t { kNewTurn, kLeader, kCarry, kBugOut } phase = kNewTurn;

    State() {  // H1
        for (auto& x : m) x.area = 3;
        m[kIceCube].area = 1;
        m[kIceCube].status = kWounded;
        m[kIceCube].start_area = 1;
    }
    int cover() const noexcept { return areas; }  // H1a: the last area is cover
    const Marine& lt() const noexcept { return m[kLt]; }
    bool lt_commands() const noexcept { return m[kLt].fit(); }  // H4: unwounded, on the board
    // Within the Lt's reach: his area or an adjacent one (H4; leader.reach areas away).
    bool in_reach(int area) const noexcept {
        const int d = area - m[kLt].area;
        return d >= -reach && d <= reach;
    }
    bool any_fit_on_board() const noexcept {
        for (const auto& x : m)
            if (x.fit()) return true;
        return false;
    }
};

// The opening position under the options (H1: field.areas, squad.*_area; H4: leader.*).
inline State opening(const Options& o) {
    State s;
    s.areas = static_cast<std::uint8_t>(o.areas);
    s.reach = static_cast<std::uint8_t>(o.lt_reach);
    s.orders = static_cast<std::uint8_t>(o.orders);
    s.smoke_left =
        o.smoke_orders == 0 ? State::kNoLimit : static_cast<std::uint8_t>(o.smoke_orders);
    s.barred = o.barred;  // H3a
    for (int i = 0; i < kSquad; ++i) {
        const int a = o.start_area[static_cast<std::size_t>(i)];
        s.m[i].area = s.m[i].start_area = static_cast<std::uint8_t>(a == 0 ? o.areas : a);
    }
    s.m[kIceCube].area = s.m[kIceCube].start_area = static_cast<std::uint8_t>(o.icecube_area);
    for (int i = o.squad_size; i < kSquad; ++i) s.m[i].status = kAbsent;
    return s;
}

// H4: the leader's one action this turn.
struct Order {
    enum Kind : std::uint8_t { kNone, kSmoke, kCover, kHalt, kMove } kind = kNone;
    std::uint8_t area = 0;                   // kSmoke: the area
    std::uint8_t who = 0;                    // kCover, kHalt, kMove: the marines (bit i: marine i)
    std::array<std::int8_t, kSquad> step{};  // kMove: -1 toward area 1, +1 toward cover

    static Order none() { return {}; }
    static Order smoke(int area) {
        Order o;
        o.kind = kSmoke;
        o.area = static_cast<std::uint8_t>(area);
        return o;
    }
    static Order cover(std::uint8_t who) {
        Order o;
        o.kind = kCover;
        o.who = who;
        return o;
    }
    static Order halt(std::uint8_t who) {
        Order o;
        o.kind = kHalt;
        o.who = who;
        return o;
    }
    Order& move(int marine, int step_) {
        kind = kMove;
        who = static_cast<std::uint8_t>(who | (1u << marine));
        step[marine] = static_cast<std::int8_t>(step_);
        return *this;
    }
    bool operator==(const Order&) const = default;  // search's tree (policies/mcts.hpp)
};

// H3a: is an order of this kind barred by restricted play (bit kind - 1; no order never is)?
inline bool order_barred(const State& s, int kind) noexcept {
    return kind != Order::kNone && (s.barred >> (kind - 1) & 1u) != 0;
}

// Carry attempts: carry[c] is the wounded marine c tries to carry, or -1 (H5).
using CarryPlan = std::array<std::int8_t, kSquad>;
inline CarryPlan no_carries() {
    CarryPlan p;
    p.fill(-1);
    return p;
}

// What the kernel asks a policy, for a State s, with dice of type Dice:
//   leader   the leader's action, H4 (asked only if the Lt commands)
//   carries  the carry attempts, H5
//   bug_out  whether to call the bug-out, H7
// The kernel ignores any part of a decision the rules do not allow (a marine out of reach, a
// carry from the wrong area...), so a policy can never break a rule.
template <class P, class Dice>
concept PolicyFor = requires(P& policy, const State& s, Dice& dice) {
    { policy.leader(s, dice) } -> std::same_as<Order>;
    { policy.carries(s, dice) } -> std::same_as<CarryPlan>;
    { policy.bug_out(s, dice) } -> std::same_as<bool>;
};

// H2: 2d6 at or under Guts succeeds; a natural double is also a critical.
struct Guts {
    bool success;
    bool critical;
};
template <class Dice>
Guts guts_roll(int guts, Dice& dice) {
    const int a = dice.d6(), b = dice.d6();
    return {a + b <= guts, a == b};
}
// H2 under the options: guts.roll's dice in order (each d6 drawn as the book's roll draws its
// two), at or under the Guts or, with guts.succeeds=at_or_over, at or over it; a critical per
// guts.critical (H2a: every die alike, or any two; one die alone never makes one). Out of line:
// the book's roll below stays small where it is inlined.
template <class Dice>
[[gnu::noinline]] Guts guts_roll_variant(int guts, Dice& dice, const Options& o) {
    const DiceExpr& e = o.guts_dice;
    int t = e.constant, first = 0, n = 0;
    bool alike = true, pair = false;
    FaceSet seen;
    for (int i = 0; i < e.n; ++i) {
        const DiceExpr::Term term = e.terms[static_cast<std::size_t>(i)];
        if (term.kind != DiceExpr::Term::plain) {  // guts.critical=none (check_options)
            t += term.roll(dice);
            continue;
        }
        for (int k = 0; k < term.count; ++k) {
            const int f = roll_die(dice, term.sides);
            t += f;
            if (n++ == 0) first = f;
            alike = alike && f == first;
            pair = pair || seen.has(f);
            seen.add(f);
        }
    }
    const bool critical = n >= 2 && (o.guts_critical == Options::kDouble ? alike
                                     : o.guts_critical == Options::kPair ? pair
                                                                         : false);
    return {o.guts_at_or_over ? t >= guts : t <= guts, critical};
}
template <class Dice>
Guts guts_roll(int guts, Dice& dice, const Options& o) {
    if (o.guts_two_d6) [[likely]] {
        const int a = dice.d6(), b = dice.d6();
        const int t = a + b + o.guts_add;
        return {o.guts_at_or_over ? t >= guts : t <= guts, o.guts_double_critical && a == b};
    }
    return guts_roll_variant(guts, dice, o);
}

// Can marine c carry wounded w this turn (H5)? Both began the turn in the same area (not cover),
// c is fit and has not moved, w is wounded and not yet carried this turn.
inline bool can_carry(const State& s, int c, int w) {
    const Marine& a = s.m[c];
    const Marine& b = s.m[w];
    return c != w && a.fit() && !a.moved && !a.carrying && b.wounded() && !b.carried &&
           a.area == a.start_area && b.area == b.start_area && a.area == b.area &&
           a.area < s.cover();
}

// H5a: the order in which Heroics and bug-outs take wounded marines: Ice-cube first, then the
// others in roster order (the Lt included).
inline constexpr std::array<std::uint8_t, kSquad> kRescueOrder = {
    kIceCube, kLt, kTex, kBuster, kReflex, kSnowball, kLegs, kEdsel};

// The wounded marine in `area` (not cover) a hero carries (H5, H5a). The one-carrier limit belongs
// to the voluntary carry alone: a man already carried this turn is carried again.
inline int wounded_to_carry(const State& s, int area) {
    if (area >= s.cover()) return -1;
    for (const int w : kRescueOrder)
        if (s.m[w].wounded() && s.m[w].area == area) return w;
    return -1;
}

inline void wound(State& s, int i) {
    Marine& x = s.m[i];
    x.status = kWounded;
    x.firing = false;  // H6: a newly wounded marine stops firing
    x.wound_order = ++s.wound_clock;
    x.hit_turn = static_cast<std::uint8_t>(s.turn);
}

inline void move_marine(State& s, int i, int step) {
    Marine& x = s.m[i];
    x.area = static_cast<std::uint8_t>(x.area + step);
    x.moved = true;
    x.firing = false;  // H4: moving ends covering fire
}

// H3: the start of a turn.
inline void begin_turn(State& s) {
    ++s.turn;
    for (auto& x : s.m) {
        x.moved = x.carrying = x.carried = false;
        x.start_area = x.area;
    }
}

// H4: the leader's action.
template <class Dice>
void leader_phase(State& s, const Order& order, Dice& dice, const Options& o = kBookOptions) {
    if (!s.lt_commands()) return;
    const int lt_guts = o.guts[kLt];
    auto eligible = [&](int i) {
        const Marine& x = s.m[i];
        return ((order.who >> i) & 1) && x.fit() && s.in_reach(x.area);
    };
    switch (order.kind) {
        case Order::kNone:
            break;
        case Order::kSmoke:
            if (order.area < 1 || order.area > s.areas || !s.in_reach(order.area) || !s.can_smoke())
                break;
            if (s.smoke_left != State::kNoLimit) --s.smoke_left;  // an order used (smoke.orders)
            if (guts_roll(lt_guts, dice, o).success) {
                const int turns = o.smoke_turns.roll(dice);  // d6 + 2 turns; the longer stays
                if (turns > s.smoke[order.area])
                    s.smoke[order.area] = static_cast<std::uint8_t>(turns);
            }
            break;
        case Order::kCover:
        case Order::kHalt: {
            bool any = false;
            for (int i = 0; i < kSquad; ++i) any = any || (i != kLt && eligible(i));
            // H4a: for his men, not himself; one Lt roll for all of them
            if (!any || !guts_roll(lt_guts, dice, o).success) break;
            for (int i = 0; i < kSquad; ++i)
                if (i != kLt && eligible(i)) s.m[i].firing = order.kind == Order::kCover;
            break;
        }
        case Order::kMove: {
            // Reach is judged before anyone moves; each figure rolls its own Guts.
            std::array<bool, kSquad> go{};
            for (int i = 0; i < kSquad; ++i) {
                const int to = s.m[i].area + order.step[i];
                const int step = order.step[i];
                go[i] = eligible(i) && (step == 1 || step == -1) && to >= 1 && to <= s.areas;
            }
            for (int i = 0; i < kSquad; ++i)
                if (go[i] && guts_roll(o.guts[i], dice, o).success)
                    move_marine(s, i, order.step[i]);
            break;
        }
    }
}

// H5: carries, then the reaction rolls.
template <class Dice>
void reaction_phase(State& s, const CarryPlan& plan, Dice& dice, const Options& o = kBookOptions) {
    for (int c = 0; c < kSquad; ++c) {
        const int w = plan[c];
        if (w < 0 || w >= kSquad || !can_carry(s, c, w)) continue;
        Marine& carrier = s.m[c];
        carrier.carrying = true;
        carrier.firing = false;  // H4: carrying ends covering fire
        s.m[w].carried = true;
        const Guts g = guts_roll(o.guts[c], dice, o);
        if (g.success || g.critical) {  // both move one area toward cover
            move_marine(s, c, +1);
            s.m[w].area = carrier.area;
        }
    }
    for (int i = 0; i < kSquad; ++i) {
        Marine& x = s.m[i];
        if (i == kLt || !x.fit() || x.moved || x.firing || x.carrying) continue;
        const Guts g = guts_roll(o.guts[i], dice, o);
        if (g.critical) {  // Heroics (H5; H5a: only wounded marines in areas 1-2 count; Ice-cube
                           // first)
            if (const int w = wounded_to_carry(s, x.area); w >= 0) {
                x.carrying = true;
                s.m[w].carried = true;
                move_marine(s, i, +1);
                s.m[w].area = x.area;
            } else {
                int best = 0;  // the nearest wounded marine's area; ties: the nearer the front
                for (int w2 = 0; w2 < kSquad; ++w2) {
                    const Marine& y = s.m[w2];
                    if (!y.wounded() || y.area == s.cover()) continue;
                    const int d = std::abs(y.area - x.area), bd = std::abs(best - x.area);
                    if (best == 0 || d < bd || (d == bd && y.area < best)) best = y.area;
                }
                if (best != 0 && best != x.area) move_marine(s, i, best < x.area ? -1 : +1);
            }
        } else if (!g.success) {
            x.firing = true;  // opens up: covering fire
        }
    }
}

// H6: the sniper, friendly fire, and the excess wounded.
template <class Dice>
void sniper_phase(State& s, Dice& dice, const Options& o = kBookOptions) {
    int firers = 0;  // H6a: judged once, before the sniper's first roll
    for (const auto& x : s.m) firers += x.fit() && x.firing;
    const bool cover = firers >= o.cover_firers;  // "at least one marine" (cover.firers)
    for (int i = 0; i < kSquad; ++i) {
        const Marine& x = s.m[i];
        if (!x.fit() || x.area == s.cover()) continue;  // cover is never a target (H1a)
        const int r = dice.d6();
        // smoke overrides covering fire
        const int c =
            s.smoke[x.area] > 0 ? Options::kSmoke : (cover ? Options::kCovered : Options::kOpen);
        if (o.sniper(x.area, c).has(r)) wound(s, i);
    }
    bool friendly = false;     // H6a: judged after the sniper's rolls (the newly wounded stopped)
    for (const auto& x : s.m)  // from area 2 or 3 (friendly_fire.from_area)
        friendly = friendly || (x.fit() && x.firing && x.area >= o.friendly_from);
    if (friendly)
        for (int i = 0; i < kSquad; ++i) {
            const Marine& x = s.m[i];
            if (x.fit() && s.smoke[x.area] > 0 && o.friendly_fire.has(dice.d6())) wound(s, i);
        }
    // The excess rule: one pass counts the wounded by area; only an area over the limit is
    // walked again, the most recently wounded killed first, areas in rising order.
    std::array<std::uint8_t, kMaxAreas + 1> wounded{};
    bool excess = false;
    for (const auto& x : s.m)
        if (x.wounded()) excess = ++wounded[x.area] > o.max_wounded_per_area || excess;
    if (!excess) return;
    for (int area = 1; area <= s.areas; ++area) {
        if (wounded[static_cast<std::size_t>(area)] <= o.max_wounded_per_area) continue;
        for (;;) {
            int count = 0, latest = -1;
            for (int i = 0; i < kSquad; ++i) {
                const Marine& x = s.m[i];
                if (!x.wounded() || x.area != area) continue;
                ++count;
                if (latest < 0 || x.wound_order > s.m[latest].wound_order) latest = i;
            }
            if (count <= o.max_wounded_per_area) break;
            s.m[latest].status = kDead;  // the most recently wounded
            s.m[latest].end_turn = static_cast<std::uint8_t>(s.turn);
        }
    }
}

// H7: the bug-out, when called. Returns the marines withdrawn. H7a: which wounded man in cover
// (area 3) each withdrawing marine takes is the player's: `first` (a wounded marine there) goes
// first, then H5a's order (Ice-cube first, then the roster); -1: H5a's order alone. Each takes
// bug_out.wounded_each of them (the book: one).
template <class Dice>
int bug_out_phase(State& s, Dice& dice, int first = -1, const Options& o = kBookOptions) {
    int out = 0;
    auto withdraw = [&](int i) {
        Marine& x = s.m[i];
        x.was_wounded = x.wounded();
        x.status = kOut;
        x.firing = false;
        x.end_turn = static_cast<std::uint8_t>(s.turn);
        ++out;
    };
    const int cover = s.cover();
    auto take_one = [&] {  // one wounded marine in cover (H7a, H5a)
        if (first >= 0 && first < kSquad && s.m[first].wounded() && s.m[first].area == cover) {
            withdraw(first);
            return;
        }
        for (const int w : kRescueOrder)
            if (s.m[w].wounded() && s.m[w].area == cover) {
                withdraw(w);
                return;
            }
    };
    auto take_wounded = [&] {
        for (int k = 0; k < o.bug_out_wounded; ++k) take_one();
    };
    const Marine& lt = s.m[kLt];
    // One Lt roll for everybody when he is in cover or adjacent (bug_out.lt_reach)
    if (lt.fit() && cover - lt.area <= o.bug_out_lt_reach) {
        if (!guts_roll(o.guts[kLt], dice, o).success) return 0;
        std::array<bool, kSquad> fit3{};
        for (int i = 0; i < kSquad; ++i) fit3[i] = s.m[i].fit() && s.m[i].area == cover;
        for (int i = 0; i < kSquad; ++i)
            if (fit3[i]) {
                withdraw(i);
                take_wounded();
            }
    } else {  // each fit marine in cover rolls for himself
        for (int i = 0; i < kSquad; ++i) {
            const Marine& x = s.m[i];
            if (!x.fit() || x.area != cover) continue;
            if (guts_roll(o.guts[i], dice, o).success) {
                withdraw(i);
                take_wounded();
            }
        }
    }
    return out;
}

// H3, H8: the end of a turn.
inline void end_turn(State& s, const Options& o) {
    for (int a = 1; a <= kMaxAreas; ++a)  // no smoke lies past the field's areas
        if (s.smoke[a] > 0) --s.smoke[a];
    if (!s.any_fit_on_board() || s.turn >= o.max_turns) {
        s.over = true;
        for (auto& x : s.m)  // the absent never hit: their time is the game's (censored)
            if (x.on_board() || x.status == kAbsent) x.end_turn = static_cast<std::uint8_t>(s.turn);
    }
}

// A policy may also choose, when it calls a bug-out, the wounded marine in area 3 taken first
// (H7a); one that does not leaves H5a's order.
template <class P, class Dice>
concept ChoosesFirstOut = requires(P& policy, const State& s, Dice& dice) {
    { policy.first_out(s, dice) } -> std::same_as<int>;
};

// The wounded marines in area 3 when a bug-out is called, at most two (H6's excess rule has
// just run); -1 where there is none.
inline std::array<int, 2> wounded_in_cover(const State& s) noexcept {
    std::array<int, 2> w = {-1, -1};
    int n = 0;
    for (int i = 0; i < kSquad && n < 2; ++i)
        if (s.m[i].wounded() && s.m[i].area == s.cover()) w[static_cast<std::size_t>(n++)] = i;
    return w;
}

// The resumable form (engine/decision.hpp): a turn rests at up to three decision points,
//   kLeader   the leader's action (H4), when the Lt commands
//   kCarry    the carry attempts (H5), every turn
//   kBugOut   the bug-out call and, with two wounded men in area 3, which goes first (H7, H7a),
//             when a fit marine is on the board
// and apply plays every roll up to the next one. legal lists every choice the rules allow, one
// of each set of choices the rules make equivalent: an order naming marines it cannot reach
// (H4), covering fire from men already firing or a halt of men who are not, and carries the
// rules refuse (H5) are dropped, as the kernel ignores them.
struct Game {
    using Options = fpb::Options;
    using State = fpb::State;
    struct Choice {
        Order order{};                   // kLeader
        CarryPlan carry = no_carries();  // kCarry
        bool bug_out = false;            // kBugOut
        std::int8_t first_out = -1;      // kBugOut: the wounded man taken first, -1 H5a's order
        bool operator==(const Choice&) const = default;
    };
    // None, smoke into each area in reach, covering fire or a halt (a subset of the six men but the
    // Lt who could be named, as firing or not), or a move (stay, back or forward for each of the
    // seven fit men at most: Ice-cube is never fit).
    static constexpr int kMaxChoices = 1 + kMaxAreas + 64 + 2187;

    static bool over(const State& s, const Options&) noexcept { return s.over; }
    static int to_move(const State&, const Options&) noexcept { return 0; }
    static double reward(const State& s, const Options&, int) noexcept {
        return outcome_of_withdrawn(s) / double(kSquad);
    }

    static int legal(const State& s, const Options&, Choice* out) noexcept {
        int n = 0;
        const auto add = [&](const Order& order) {
            out[n] = Choice{};
            out[n++].order = order;
        };
        if (s.phase == State::kLeader) {
            add(Order::none());
            for (int a = 1; a <= s.areas; ++a)
                if (s.in_reach(a) && s.can_smoke()) add(Order::smoke(a));
            std::uint8_t cover = 0, halt = 0;
            std::array<std::uint8_t, kSquad> movers{};
            int k = 0;
            for (int i = 0; i < kSquad; ++i) {
                const Marine& x = s.m[i];
                if (!x.fit() || !s.in_reach(x.area)) continue;
                movers[static_cast<std::size_t>(k++)] = static_cast<std::uint8_t>(i);
                if (i == kLt) continue;
                (x.firing ? halt : cover) |= static_cast<std::uint8_t>(1u << i);
            }
            for (const auto& [mask, kind] :
                 {std::pair{cover, Order::kCover}, std::pair{halt, Order::kHalt}})
                for (unsigned sub = order_barred(s, kind) ? 0u : mask; sub != 0;
                     sub = (sub - 1) & mask)  // non-empty subsets (none when barred, H3a)
                    add(kind == Order::kCover ? Order::cover(static_cast<std::uint8_t>(sub))
                                              : Order::halt(static_cast<std::uint8_t>(sub)));
            if (order_barred(s, Order::kMove)) return n;  // H3a
            // Moves: each mover stays, steps back or steps forward where the field allows.
            std::array<std::int8_t, kSquad> step{};
            for (;;) {
                int i = 0;  // the next combination, as a mixed-radix counter over the movers
                for (; i < k; ++i) {
                    const int area = s.m[movers[static_cast<std::size_t>(i)]].area;
                    std::int8_t& st = step[static_cast<std::size_t>(i)];
                    st = st == 0 ? (area > 1 ? -1 : 1) : (st == -1 && area < s.areas ? 1 : 0);
                    if (st != 0) break;
                }
                if (i == k) break;
                Order o;
                for (int j = 0; j < k; ++j)
                    if (step[static_cast<std::size_t>(j)] != 0)
                        o.move(movers[static_cast<std::size_t>(j)],
                               step[static_cast<std::size_t>(j)]);
                add(o);
            }
        } else if (s.phase == State::kCarry) {
            // Every plan of carries: each possible carrier tries none or one man no one else
            // tries (H5), carriers in roster order.
            Choice c;
            c.carry = no_carries();
            out[n++] = c;
            if (s.barred & Options::kBarCarry) return n;  // H3a: no carry
            for (int at = 0; at < n; ++at) {
                const CarryPlan base = out[at].carry;
                int last = -1;  // extend only after the plan's last carrier: each plan once
                std::array<bool, kSquad> taken{};
                for (int i = 0; i < kSquad; ++i)
                    if (base[static_cast<std::size_t>(i)] >= 0) {
                        last = i;
                        taken[static_cast<std::size_t>(base[static_cast<std::size_t>(i)])] = true;
                    }
                for (int carrier = last + 1; carrier < kSquad; ++carrier)
                    for (int w = 0; w < kSquad; ++w)
                        if (!taken[static_cast<std::size_t>(w)] && can_carry(s, carrier, w)) {
                            out[n] = out[at];
                            out[n++].carry[static_cast<std::size_t>(carrier)] =
                                static_cast<std::int8_t>(w);
                        }
            }
        } else {
            const auto call = [&](int first) {
                out[n] = Choice{};
                out[n].bug_out = first >= -1;
                out[n++].first_out = static_cast<std::int8_t>(first < -1 ? -1 : first);
            };
            call(-2);  // no bug-out
            call(-1);  // a bug-out, H5a's order
            const auto w = wounded_in_cover(s);
            // H7a: two wounded men in area 3: the other may go first (H3a: unless barred)
            if (w[1] >= 0 && (s.barred & Options::kBarFirstOut) == 0)
                call(w[0] == kIceCube ? w[1] : (w[1] == kIceCube ? w[0] : w[1]));
        }
        return n;
    }

    template <class P, class Dice>
    static Choice decide(const State& s, const Options&, P& policy, Dice& dice) {
        Choice c;
        switch (s.phase) {
            case State::kLeader:
                c.order = policy.leader(s, dice);
                break;
            case State::kCarry:
                c.carry = policy.carries(s, dice);
                break;
            default:
                c.bug_out = policy.bug_out(s, dice);
                if constexpr (ChoosesFirstOut<P, Dice>)
                    if (c.bug_out)
                        c.first_out = static_cast<std::int8_t>(policy.first_out(s, dice));
                break;
        }
        return c;
    }

    // Plays the choice and every roll up to the next decision point (or the end).
    template <class Dice>
    static void apply(State& s, const Options& o, const Choice& c, Dice& dice) {
        step(s, o, c, dice);
        if (!s.over && s.phase == State::kNewTurn) begin(s);
    }

    // From between turns to the next turn's first decision point (H3).
    static void begin(State& s) noexcept {
        begin_turn(s);
        s.orders_left = s.orders;
        s.phase = s.lt_commands() && s.orders > 0 ? State::kLeader : State::kCarry;
    }

    // The choice and the rolls after it, up to the next decision point or the turn's end.
    template <class Dice>
    static void step(State& s, const Options& o, const Choice& c, Dice& dice) {
        switch (s.phase) {
            case State::kLeader:  // H4: leader.orders actions a turn (the book: one)
                // H3a: a barred order is played as no order (a policy never gets round it).
                if (s.barred != 0 && order_barred(s, c.order.kind))
                    leader_phase(s, Order::none(), dice, o);
                else
                    leader_phase(s, c.order, dice, o);
                if (--s.orders_left == 0 || !s.lt_commands()) s.phase = State::kCarry;
                return;
            case State::kCarry:  // H3a: no carry when carries are barred
                reaction_phase(s, (s.barred & Options::kBarCarry) ? no_carries() : c.carry, dice,
                               o);
                sniper_phase(s, dice, o);
                if (s.any_fit_on_board()) {
                    s.phase = State::kBugOut;
                    return;
                }
                break;
            case State::kBugOut:
                if (c.bug_out)  // H3a: H5a's order when the choice is barred
                    bug_out_phase(s, dice, (s.barred & Options::kBarFirstOut) ? -1 : c.first_out,
                                  o);
                break;
            default:
                return;
        }
        end_turn(s, o);
        s.phase = State::kNewTurn;
    }

private:
    static int outcome_of_withdrawn(const State& s) noexcept {
        int n = 0;
        for (const auto& x : s.m) n += x.status == kOut;
        return n;
    }
};

// One whole turn (H3) from between turns, every decision asked of the policy.
template <class Policy, class Dice>
requires PolicyFor<Policy, Dice>
void play_turn(State& s, const Options& o, Policy& policy, Dice& dice) {
    if (s.phase == State::kNewTurn) Game::begin(s);
    do Game::step(s, o, Game::decide(s, o, policy, dice), dice);
    while (s.phase != State::kNewTurn);
}

// Plays on from `s` (between turns, or at a decision point) until the game ends (H8).
template <class Policy, class Dice>
requires PolicyFor<Policy, Dice>
void play_from(State& s, const Options& o, Policy& policy, Dice& dice) {
    if (!s.over && s.phase == State::kNewTurn) Game::begin(s);
    odds::play_from<Game>(s, o, dice, policy, policy);
}

// Positions (RULES.md, "Positions"): the game between two turns as text: the turns played,
// smoke, and every marine's area and state. read_position refuses a marine outside areas 1-3,
// a fit Ice-cube, more than two wounded men in an area, a finished game and the like, with one
// UsageError "FILE:LINE: WHAT (RULE)".
std::string write_position(const State& s, const Options& o);
State read_position(std::string_view text, std::string_view file, const Options& o);

// What a finished game reports (H8).
struct Outcome {
    int withdrawn = 0, wounded_withdrawn = 0, left_behind = 0, killed = 0, turns = 0;
    bool icecube_rescued = false;
    enum Class { kClean, kCostly, kLost } outcome = kLost;
};

inline Outcome outcome_of(const State& s) {
    Outcome r;
    r.turns = s.turn;
    for (int i = 0; i < kSquad; ++i) {
        const Marine& x = s.m[i];
        if (x.status == kAbsent) {
            continue;  // not in the game (squad.size): counted nowhere
        } else if (x.status == kOut) {
            ++r.withdrawn;
            r.wounded_withdrawn += x.was_wounded;
        } else if (x.status == kDead) {
            ++r.killed;
        } else {
            ++r.left_behind;  // wounded on the board, or anyone at the turn cap (H3)
        }
    }
    r.icecube_rescued = s.m[kIceCube].status == kOut;
    r.outcome = r.withdrawn == 0
                    ? Outcome::kLost
                    : (r.left_behind == 0 && r.killed == 0 ? Outcome::kClean : Outcome::kCostly);
    return r;
}

template <class Policy, class Dice>
requires PolicyFor<Policy, Dice> State play(const Options& o, Policy& policy, Dice& dice) {
    State s = opening(o);
    play_from(s, o, policy, dice);
    return s;
}

// The metrics of one game, declared once (engine/metric.hpp): metric_specs and to_metrics read
// these rows.
enum Metric : int {
    kWithdrawn,
    kWoundedWithdrawn,
    kLeftBehind,
    kKilled,
    kIceCubeRescued,
    kTurns,
    kClean,
    kCostly,
    kLost,
    kSquadTime,
    kSquadHit,    // the squad: the turn of the first casualty (or the end), and whether
    kMarineTime,  // per marine but Ice-cube: time and hit, 7 x 2
    kMetricCount = kMarineTime + 2 * 7
};
// What the rows read: the state at the end, its outcome (H8), and the turn of the squad's first
// casualty besides Ice-cube (0: none).
struct Ended {
    const State& s;
    Outcome r;
    int first_hit = 0;
    explicit Ended(const State& end) noexcept : s(end), r(outcome_of(end)) {
        for (int i = 0; i < kSquad; ++i) {
            const int t = s.m[i].hit_turn;
            if (i != kIceCube && t > 0 && (first_hit == 0 || t < first_hit)) first_hit = t;
        }
    }
};
template <class M>
constexpr void declare_metrics(M& m) {
    using K = MetricKind;
    const auto t = [](const Options& o) { return o.max_turns; };
    m(kWithdrawn, "withdrawn", "marines withdrawn, wounded ones included (H7, H8)",
      counts("marines"), 0, 8, [](const Ended& e) { return e.r.withdrawn; });
    m(kWoundedWithdrawn, "wounded_withdrawn", "wounded marines carried out (H7)", counts("marines"),
      0, 8, [](const Ended& e) { return e.r.wounded_withdrawn; });
    m(kLeftBehind, "left_behind", "marines left on the board (H8; everyone at the turn cap)",
      counts("marines"), 0, 8, [](const Ended& e) { return e.r.left_behind; });
    m(kKilled, "killed", "marines killed by the sniper (H6)", counts("marines"), 0, 8,
      [](const Ended& e) { return e.r.killed; });
    m(kIceCubeRescued, "icecube_rescued", "Ice-cube withdrawn (H8)", K::rate, 0, 1,
      [](const Ended& e) { return e.r.icecube_rescued; });
    m(kTurns, "turns", "turns played (H3)", counts("turns"), 1, t,
      [](const Ended& e) { return e.r.turns; });
    m(kClean, "clean", "nobody left behind or killed (H8)", K::rate, 0, 1,
      [](const Ended& e) { return e.r.outcome == Outcome::kClean; });
    m(kCostly, "costly", "some withdrawn, someone left or killed (H8)", K::rate, 0, 1,
      [](const Ended& e) { return e.r.outcome == Outcome::kCostly; });
    m(kLost, "lost", "nobody withdrawn (H8)", K::rate, 0, 1,
      [](const Ended& e) { return e.r.outcome == Outcome::kLost; });
    m(kSquadTime, "squad_time", "the turn of the squad's first casualty, or of the end",
      counts("turns"), 1, t,
      [](const Ended& e) { return e.first_hit > 0 ? e.first_hit : e.s.turn; });
    m(kSquadHit, "squad_hit", "someone besides Ice-cube was wounded or killed", K::rate, 0, 1,
      [](const Ended& e) { return e.first_hit > 0; });
    for (int i = 0, k = 0; i < kSquad; ++i) {
        if (i == kIceCube) continue;
        const auto name = [i](const char* suffix) {
            return [=] { return std::string(kNames[i]) + suffix; };
        };
        m(
            kMarineTime + 2 * k, name("_time"),
            [i] { return "the turn " + std::string(kNames[i]) + " was hit, or left the game"; },
            counts("turns"), 1, t,
            [i](const Ended& e) {
                const Marine& x = e.s.m[i];
                return x.hit_turn > 0 ? x.hit_turn : x.end_turn;
            });
        m(
            kMarineTime + 2 * k + 1, name("_hit"),
            [i] { return std::string(kNames[i]) + " was wounded or killed"; }, K::rate, 0, 1,
            [i](const Ended& e) { return e.s.m[i].hit_turn > 0; });
        ++k;
    }
}
static_assert(metrics_in_order<kMetricCount>([](auto& m) { declare_metrics(m); }));
std::vector<MetricSpec> metric_specs(const Options& o);
std::vector<SurvivalSpec> survival_specs();

inline void to_metrics(const State& s, std::int32_t* out) noexcept {
    const Ended e(s);
    MetricValues<Ended> m{e, out};
    declare_metrics(m);
}

}  // namespace odds::fpb
