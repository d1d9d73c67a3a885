// Minimal Space Combat: the turn and its phases (M3-M8), templates over the policies and the
// dice. Included by msc.hpp.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>

namespace odds::msc {

// A fair whole number in [0, n) from d6 rolls (base-6 digits, rejection): exactly uniform.
template <class Dice>
int uniform_int(int n, Dice& dice) {
    if (n <= 1) return 0;
    long long span = 1;
    int digits = 0;
    while (span < n) {
        span *= 6;
        ++digits;
    }
    const long long limit = span - span % n;
    for (;;) {
        long long v = 0;
        for (int i = 0; i < digits; ++i) v = v * 6 + (dice.d6() - 1);
        if (v < limit) return static_cast<int>(v % n);
    }
}

namespace detail {
inline int free_slot(const State& s, int side) {
    const unsigned free = ~unsigned{s.alive[side]} & ((1u << kMaxFleets) - 1);
    return free != 0 ? std::countr_zero(free) : -1;
}
// The fleet at home new ships join: the one there, else a free slot; -1 when every slot is busy
// elsewhere (M5a).
inline int home_fleet(const State& s, int side) {
    for (unsigned m = s.alive[side]; m != 0; m &= m - 1)
        if (s.fleets[side][std::countr_zero(m)].pos == s.home[side]) return std::countr_zero(m);
    return free_slot(s, side);
}
// M2a: the design slot (0 main, 1 escort) of the plan's next ship.
inline int plan_next(const State& s, int side) { return s.plan[side].next(s.built_by[side]); }
// M4, M2b: one ship of design d bought at home, in design slot `slot` (or the slot holding d, or
// a free one); false when the side cannot (no fleet slot at home, no design slot, too few BPs).
inline bool build_one(State& s, int side, const Design& d, int slot = -1) {
    auto& plan = s.plan[side];
    if (slot < 0 || !(plan.design[slot] == d)) slot = plan.slot_for(d);
    const int at = home_fleet(s, side);
    const int cost = d.cost(s.ship_rules);
    if (slot < 0 || at < 0 || s.bp[side] < cost || !d.legal(s.ship_rules)) return false;
    plan.design[slot] = d;
    s.bp[side] -= cost;
    ++s.built_by[side][slot];
    ++s.built[side];
    ++s.afloat[side];
    Fleet& f = s.fleets[side][at];
    if (f.ships() == 0) {
        f = Fleet{s.home[side], {}, 0};
        s.form(side, at);
    }
    ++f.n[slot];
    return true;
}
// Can `side` build anything now: a fleet slot at home (M5a) and a design it can afford with a
// design slot for it (M2b)?
inline bool can_build(const State& s, int side) {
    if (s.bp[side] < s.ship_rules.smallest() || home_fleet(s, side) < 0) return false;
    for (const Design& d : s.plan[side].design)  // a free slot (cost 0), or affordable
        if (d.cost(s.ship_rules) <= s.bp[side]) return true;
    return false;
}
// M3, M4, M2a: the doctrines' build order: while the plan's next ship is affordable, buy it.
// With every fleet slot busy elsewhere (M5a) nothing is built and the BPs stay saved, counted
// when they would have bought the plan's next ship.
inline void build_by_plan(State& s, int side) {
    if (home_fleet(s, side) < 0) {
        if (s.bp[side] >= s.cost(side, plan_next(s, side))) ++s.cap_hits[side];
        return;
    }
    for (int d = plan_next(s, side); build_one(s, side, s.design(side, d), d);)
        d = plan_next(s, side);
}
// M4: the BPs each side's systems yield this turn (both sides, the systems counted in one pass).
// Each owned system 1 BP (production.bp_per_system); a captured one from the second production
// phase after its capture (capture.produces_after); the home always, while no enemy occupies it
// (production.home_bp).
inline void income(State& s, const Options& o) {
    std::array<int, kSides> n{};  // the producing systems each side owns (not a home)
    const int last = s.turn - o.produces_after;
    for (int i = 0; i < s.n_sys; ++i) {
        const bool yields = last >= s.sys[i].captured;
        n[0] += (s.claim[i] == 0) & yields;
        n[1] += (s.claim[i] == 1) & yields;
    }
    for (int side = 0; side < kSides; ++side) {
        int bp = n[side] * o.bp_per_system;          // M4: production.bp_per_system
        if (!s.occupied_by(s.home[side], 1 - side))  // the home (a system, M1): production.home_bp
            bp += o.home_bp > 0 ? o.home_bp : o.bp_per_system;
        s.bp[side] += bp;
        s.produced[side] += bp;
    }
}
// The build stage for `side` (M4): the cap on fleet slots counted as the doctrines' build order
// would meet it (M5a).
inline void enter_build(State& s, int side) {
    s.stage = Stage::build;
    s.to_move = side;
    if (s.bp[side] >= s.cost(side, plan_next(s, side)) && home_fleet(s, side) < 0)
        ++s.cap_hits[side];
}
}  // namespace detail

template <class Dice>
State opening(const Options& o, const std::array<Plan, kSides>& plans, Dice& dice);

namespace detail {
// The opening before it is settled: the map, the homes, the budgets (M1, M3).
template <class Dice>
State unsettled_opening(const Options& o, const std::array<Plan, kSides>& plans, Dice& dice) {
    State s;
    s.plan = plans;
    s.ship_rules = o.ships;  // M2, M5
    // M1: the seed's map (or a map file's, M1b), or a random one: systems spread evenly (one in
    // each cell of a grid, at a random hex of it), homes in the middle of the top and bottom rows.
    if (!o.random_map) {
        const StarMap& m = o.star_map();
        s.bounds = {m.width, m.height};
        s.home = m.home;
        for (const auto& h : m.systems) s.sys[s.n_sys++].pos = h;
    } else {
        s.bounds = {o.width, o.height};
        s.home = {hex::from_offset(o.width / 2, 0), hex::from_offset(o.width / 2, o.height - 1)};
        int cols = 1;
        while (cols * cols < o.systems) ++cols;
        const int rows = (o.systems + cols - 1) / cols;
        for (int k = 0; k < o.systems; ++k) {
            const int cx = k % cols, cy = k / cols;
            const int x0 = cx * o.width / cols, x1 = (cx + 1) * o.width / cols;
            const int y0 = cy * o.height / rows, y1 = (cy + 1) * o.height / rows;
            for (int tries = 0; tries < 64; ++tries) {
                const hex::Hex h = hex::from_offset(x0 + uniform_int(std::max(1, x1 - x0), dice),
                                                    y0 + uniform_int(std::max(1, y1 - y0), dice));
                bool taken = h == s.home[0] || h == s.home[1];
                for (int i = 0; i < s.n_sys; ++i) taken = taken || s.sys[i].pos == h;
                if (!taken) {
                    s.sys[s.n_sys++].pos = h;
                    break;
                }
            }
        }
    }
    if (o.swap_homes) std::swap(s.home[0], s.home[1]);  // M1a: the sides trade homes
    for (int side = 0; side < kSides; ++side) {
        System& home = s.sys[s.n_sys++];
        home.pos = s.home[side];
        home.owner = static_cast<std::int8_t>(side);
        home.home_of = static_cast<std::int8_t>(side);
        s.bp[side] = o.budget;  // M3: the budget, to spend on ships at home
    }
    s.index();
    enter_build(s, 0);
    return s;
}
}  // namespace detail

template <class Dice>
State setup(const Options& o, const std::array<Plan, kSides>& plans, Dice& dice) {
    State s = detail::unsettled_opening(o, plans, dice);
    for (int side = 0; side < kSides; ++side) detail::build_by_plan(s, side);
    s.stage = Stage::production;
    return s;
}

// M4: production for both sides, each building by its plan (the doctrines' build order; M2a).
// Like the other phase functions it takes fleets as edited by hand (State::recount).
inline void production(State& s, const Options& o = Options{}) {
    s.recount();
    detail::income(s, o);
    for (int side = 0; side < kSides; ++side) detail::build_by_plan(s, side);
}

// M4: initiative. Both roll a die of `sides` faces (initiative.die, the book's d6); high is
// Player 1; ties are rolled again.
template <class Dice>
int initiative(Dice& dice, int sides) {
    for (;;) {
        const int a = roll_die(dice, sides), b = roll_die(dice, sides);
        if (a != b) return a > b ? 0 : 1;
    }
}
template <class Dice>
int initiative(Dice& dice) {
    for (;;) {
        const int a = dice.d6(), b = dice.d6();
        if (a != b) return a > b ? 0 : 1;
    }
}

namespace detail {
// M7: can `side` retreat from the fight in hex h? Not at home, with no hex nearer home to go to
// (M7c); not with a ship of ENGINE 0 there: M7, "a fleet whose lowest ENGINE is 0 cannot
// retreat" (M2, M5: it cannot move), and all the side's fleets there fight as one, so they
// retreat as one, at their slowest ship's speed (M7e).
inline bool can_retreat(const State& s, int side, const hex::Hex& h) {
    if (step_toward(s, h, s.home[side]) == h) return false;
    const Counts c = s.present(side, h);
    for (int d = 0; d < kMaxDesigns; ++d)
        if (c[d] > 0 && s.design(side, d).engine == 0) return false;
    return true;
}
// M7: a retreat, one hex toward home (retreat.hexes; never past home), every fleet of the side
// in h; false when the side cannot retreat (can_retreat), and then nothing moves.
inline bool retreat_from(State& s, int side, const hex::Hex& h, const Options& o) {
    if (!can_retreat(s, side, h)) return false;
    hex::Hex to = step_toward(s, h, s.home[side]);
    for (int k = 1; k < o.retreat_hexes; ++k) to = step_toward(s, to, s.home[side]);
    for (unsigned m = s.alive[side]; m != 0; m &= m - 1)
        if (Fleet& f = s.fleets[side][std::countr_zero(m)]; f.pos == h) f.pos = to;
    return true;
}
// A side's offensive or defensive BPs in hex h: every ship there (M7).
inline int power_at(const State& s, int side, const hex::Hex& h, bool offence) {
    const Counts c = s.present(side, h);
    int p = 0;
    for (int d = 0; d < kMaxDesigns; ++d)
        p += c[d] * (offence ? s.offence(side, d) : s.defence(side, d));
    return p;
}

// M6, M8: the end of a turn: occupation, capture, victory.
inline void end_turn(State& s, const Options& o) {
    // Which sides' fleets end the turn at each system (bit i of a side's words): each live
    // fleet looked up once.
    constexpr int kWords = (kMaxSystems + 63) / 64;
    std::array<std::array<std::uint64_t, kWords>, kSides> in{};
    std::array<bool, kSides> any{};
    for (int side = 0; side < kSides; ++side) {
        any[side] = s.alive[side] != 0;
        for (unsigned m = s.alive[side]; m != 0; m &= m - 1)
            if (const int i = s.system_at(s.fleets[side][std::countr_zero(m)].pos); i >= 0)
                in[side][i >> 6] |= std::uint64_t{1} << (i & 63);
    }
    const auto here = [&](int side, int i) { return (in[side][i >> 6] >> (i & 63) & 1) != 0; };
    const int capture_turns = o.capture_turns;  // (read once: the loop's byte stores may alias it)
    for (int i = 0; i < s.n_sys; ++i) {
        System& y = s.sys[i];
        const bool a = here(0, i), b = here(1, i);
        if (a == b) {  // nobody, or both: nobody is alone here
            y.occupant = -1;
            y.streak = 0;
            // Both (a fleet that retreated into the hex after the fight there): an enemy fleet
            // ended the turn here, so the system is no longer its owner's.
            if (a && y.home_of < 0) {
                y.owner = -1;
                s.claim[i] = 3;
            }
            continue;
        }
        const int side = a ? 0 : 1;
        if (y.occupant == side)
            ++y.streak;
        else {
            y.occupant = static_cast<std::int8_t>(side);
            y.streak = 1;
        }
        if (y.home_of < 0) {
            if (y.owner == 1 - side) y.owner = -1;  // an enemy fleet ended a turn here
            // two turns in a row alone (capture.turns_alone): captured
            if (y.streak >= capture_turns && y.owner != side) {
                y.owner = static_cast<std::int8_t>(side);
                y.captured = s.turn;
            }
            s.claim[i] = static_cast<std::uint8_t>(y.owner & 3);
        }
    }
    // M8: the enemy home held alone at the end of a turn, or the enemy without ships.
    bool takes_home[kSides], wiped[kSides];
    for (int side = 0; side < kSides; ++side) {
        const int enemy_home = s.system_at(s.home[1 - side]);  // a system (M1)
        takes_home[side] = here(side, enemy_home) && !here(1 - side, enemy_home);
        wiped[side] = !any[side];
    }
    const bool a_wins = takes_home[0] || wiped[1], b_wins = takes_home[1] || wiped[0];
    if (a_wins || b_wins) {
        s.winner = a_wins && b_wins ? -1 : (a_wins ? 0 : 1);
        // How it ended: by a home taken (either home, when both fell at once), else by a side
        // left without ships.
        s.end = s.winner == -1
                    ? ((takes_home[0] || takes_home[1]) ? State::kHome : State::kAnnihilation)
                : (a_wins ? takes_home[0] : takes_home[1]) ? State::kHome
                                                           : State::kAnnihilation;
    } else if (s.turn >= o.max_turns) {
        s.winner = -1;
        s.end = State::kTurnCap;
    }
}
}  // namespace detail

// M6, M8: the end of a turn (occupation, capture, victory), fleets as edited by hand.
inline void end_of_turn(State& s, const Options& o) {
    s.recount();
    detail::end_turn(s, o);
}

// The resumable campaign (engine/decision.hpp): play rests at each decision point (Stage) and
// goes on from one to the next by itself.
namespace detail {

// The hexes a fleet at `from` with `range` ENGINE can end its move in: every hex inside the map
// its steps toward reach (M5), itself included. Returns how many it wrote.
inline int reach(const State& s, const hex::Hex& from, int range, hex::Hex* out) {
    int n = 0;
    for (int dq = -range; dq <= range; ++dq)
        for (int dr = std::max(-range, -dq - range); dr <= std::min(range, -dq + range); ++dr) {
            const hex::Hex to{from.q + dq, from.r + dr};
            if (!s.bounds.contains(to)) continue;
            hex::Hex at = from;
            for (int k = 0; k < range && !(at == to); ++k) at = step_toward(s, at, to);
            if (at == to) out[n++] = to;
        }
    return n;
}
// M5: fleet i moves up to its range toward `target` (the lowest ENGINE among its ships).
inline void go(State& s, int side, int i, const hex::Hex& target) {
    Fleet& f = s.fleets[side][i];
    const hex::Hex start = f.pos;
    const int range = s.range(side, f);
    for (int k = 0; k < range && !(f.pos == target); ++k) f.pos = step_toward(s, f.pos, target);
    if (!(f.pos == start)) f.arrived = ++s.move_clock;
}
// M5a: the first two of a side's fleets in one hex (slot order), {-1, -1} for none.
// A filter of hexes: one of 64 bits for each hex (hexes with different bits differ), so that a
// set of fleets' bits tells at once that no two of them share a hex, or that none is in a hex.
inline std::uint64_t hex_bit(const hex::Hex& h) {
    return std::uint64_t{1} << ((h.q + 8 * h.r) & 63);
}
inline std::array<int, 2> first_pair(const State& s, int side) {
    std::uint64_t seen = 0, twice = 0;  // most phases no two fleets share a hex: no pair to seek
    for (unsigned m = s.alive[side]; m != 0; m &= m - 1) {
        const std::uint64_t bit = hex_bit(s.fleets[side][std::countr_zero(m)].pos);
        twice |= seen & bit;
        seen |= bit;
    }
    if (twice == 0) return {-1, -1};
    const State::Live live = s.live(side);
    for (int i = 0; i < live.n; ++i)
        for (int j = i + 1; j < live.n; ++j)
            if (s.fleets[side][live.slot[i]].pos == s.fleets[side][live.slot[j]].pos)
                return {live.slot[i], live.slot[j]};
    return {-1, -1};
}
inline int designs_present(const Counts& c) {
    int n = 0;
    for (int k : c) n += k > 0;
    return n;
}
inline const hex::Hex& fight_hex(const State& s) { return s.fights[s.fight]; }

// Does play rest here: a decision with something to choose?
inline bool rests(const State& s) {
    switch (s.stage) {
        case Stage::build:
            return can_build(s, s.to_move);
        case Stage::merge:
            return first_pair(s, s.to_move)[0] >= 0;
        case Stage::lose:
            return s.losses > 0 && designs_present(s.present(s.to_move, fight_hex(s))) > 1;
        case Stage::orders:
        case Stage::retreat:
        case Stage::over:
            return true;
        default:
            return false;
    }
}

// After a side's orders: the other side moves, or the fights begin.
inline void after_movement(State& s) {
    if (s.to_move == s.first) {
        s.stage = Stage::merge;
        s.to_move = 1 - s.first;
    } else {
        s.stage = Stage::fights;
    }
}
// M5: every fleet of the side, in slot order, once: the next one's orders, or the movement over.
inline void next_fleet(State& s) {
    const int i = s.fleet + 1;
    unsigned m = unsigned{s.alive[s.to_move]} >> i;
    while (m != 0 && s.moved[i + std::countr_zero(m)]) m &= m - 1;
    if (m != 0) {
        s.fleet = i + std::countr_zero(m);
        s.stage = Stage::orders;
    } else {
        after_movement(s);
    }
}
// After a side's merges: its fleets' orders, in slot order (M5).
inline void start_orders(State& s) {
    s.moved = {};
    s.fleet = -1;
    s.pending = {};
    s.stage = Stage::next_fleet;
}
// After a side's builds: the other side builds, or the turn goes on.
inline void after_build(State& s) {
    if (s.to_move == 0)
        enter_build(s, 1);
    else
        s.stage = s.turn == 0 ? Stage::production : Stage::movement;
}
inline void lose_one(State& s, int side, int d) {
    const hex::Hex& h = fight_hex(s);
    const Counts present = s.present(side, h);
    if (d < 0 || d >= kMaxDesigns || present[d] == 0) {  // M7d: the first design present instead
        d = 0;
        while (d < kMaxDesigns && present[d] == 0) ++d;
        if (d == kMaxDesigns) {
            s.losses = 0;  // nothing left to lose
            return;
        }
    }
    for (unsigned m = s.alive[side]; m != 0; m &= m - 1)
        if (Fleet& f = s.fleets[side][std::countr_zero(m)]; f.pos == h && f.n[d] > 0) {
            --f.n[d];
            ++s.lost[side];
            --s.afloat[side];
            if (f.ships() == 0) s.empty(side, std::countr_zero(m));
            break;
        }
    --s.losses;
}
// M7: the side's losses in this half-round, to choose one at a time (M7d).
inline void enter_losses(State& s, int side, int n) {
    s.stage = Stage::lose;
    s.to_move = side;
    s.losses = n;
}

// One step from a stage play does not rest at.
template <class Dice>
void step(State& s, const Options& o, Dice& dice) {
    const int att = s.attacker, def = 1 - s.attacker;
    switch (s.stage) {
        case Stage::production:  // M4: a new turn
            ++s.turn;
            income(s, o);
            enter_build(s, 0);
            return;
        case Stage::build:
            after_build(s);
            return;
        case Stage::movement:  // M4, M4a: initiative, then Player 1 moves
            s.first = o.initiative >= 0       ? o.initiative
                      : o.initiative_die == 6 ? initiative(dice)  // the book's d6: no test a roll
                                              : initiative(dice, o.initiative_die);
            s.stage = Stage::merge;
            s.to_move = s.first;
            return;
        case Stage::merge:
            start_orders(s);
            return;
        case Stage::next_fleet:
            next_fleet(s);
            return;
        case Stage::fights: {  // M7: every hex holding both sides, once, in A's fleet order
            s.n_fights = 0;
            const State::Live a = s.live(0), b = s.live(1);
            std::uint64_t bs = 0;  // B's hexes, filtered: most of A's fleets meet none
            for (int j = 0; j < b.n; ++j) bs |= hex_bit(s.fleets[1][b.slot[j]].pos);
            for (int i = 0; i < a.n; ++i) {
                const hex::Hex& at = s.fleets[0][a.slot[i]].pos;
                if ((bs & hex_bit(at)) == 0) continue;
                bool met = false;
                for (int j = 0; j < b.n && !met; ++j) met = s.fleets[1][b.slot[j]].pos == at;
                if (met && std::find(s.fights.begin(), s.fights.begin() + s.n_fights, at) ==
                               s.fights.begin() + s.n_fights)
                    s.fights[s.n_fights++] = at;
            }
            s.fight = 0;
            s.stage = Stage::fight;
            return;
        }
        case Stage::fight: {  // M7: the side that moved in last attacks
            if (s.fight >= s.n_fights) {
                s.stage = Stage::turn_over;
                return;
            }
            const hex::Hex& h = fight_hex(s);
            int last[kSides] = {0, 0};
            for (int side = 0; side < kSides; ++side)
                for (unsigned m = s.alive[side]; m != 0; m &= m - 1)
                    if (const Fleet& f = s.fleets[side][std::countr_zero(m)]; f.pos == h)
                        last[side] = std::max(last[side], f.arrived);
            s.attacker = last[1] > last[0] ? 1 : 0;
            s.round = 0;
            s.stage = Stage::round;
            return;
        }
        case Stage::round: {
            const hex::Hex& h = fight_hex(s);
            // M7a: an endless standoff ends by the attacker's retreat; M7b: so does a fight in
            // which neither side can roll an attack die. M7: an attacker that cannot retreat (at
            // home, M7c; a ship of ENGINE 0 there, M7e) stays, and the combat ends for this turn
            // with both sides in the hex.
            if (s.round >= o.max_rounds ||
                (attack_dice(power_at(s, att, h, true), o.combat) == 0 &&
                 attack_dice(power_at(s, def, h, true), o.combat) == 0)) {
                retreat_from(s, att, h, o);
                s.stage = Stage::fight_over;
                return;
            }
            enter_losses(s, def,
                         resolve_attack(power_at(s, att, h, true), power_at(s, def, h, false), dice,
                                        o.combat));
            return;
        }
        case Stage::lose: {
            const hex::Hex& h = fight_hex(s);
            if (s.losses > 0) {  // one design present (or none): no choice
                lose_one(s, s.to_move, -1);
                return;
            }
            if (!s.occupied_by(h, s.to_move)) {
                s.stage = Stage::fight_over;
            } else if (s.to_move == def) {  // the second half of the round: the defender fires
                enter_losses(s, att,
                             resolve_attack(power_at(s, def, h, true), power_at(s, att, h, false),
                                            dice, o.combat));
            } else {  // M7: after each round either side may retreat, the attacker asked first
                s.stage = Stage::retreat;
                s.to_move = att;
            }
            return;
        }
        case Stage::fight_over:
            ++s.fight;
            s.stage = Stage::fight;
            return;
        case Stage::turn_over:
            end_turn(s, o);
            s.stage = s.winner != -2 ? Stage::over : Stage::production;
            return;
        default:
            return;
    }
}

// Plays a choice at the decision play rests at (not yet the automatic steps after it).
inline void play_choice(State& s, const Options& o, const Choice& c) {
    const int side = s.to_move;
    switch (c.kind) {
        case Choice::save:
            after_build(s);
            return;
        case Choice::build:
            build_one(s, side, design_of_code(c.a), c.b);
            return;
        case Choice::done:
            start_orders(s);
            return;
        case Choice::merge: {
            Fleet& a = s.fleets[side][c.a];
            Fleet& b = s.fleets[side][c.b];
            for (int d = 0; d < kMaxDesigns; ++d) a.n[d] += b.n[d];
            b.n = {};
            s.empty(side, c.b);
            if (a.ships() > 0) s.form(side, c.a);
            return;
        }
        case Choice::detach:
            ++s.pending[c.a];
            return;
        case Choice::send:
        case Choice::orders: {
            Fleet& f = s.fleets[side][s.fleet];
            const Counts& detach = c.kind == Choice::send ? s.pending : c.order.detach;
            // A detachment: some ships, not all, and none the fleet does not have. (Most orders
            // detach nothing: the check only then.)
            int n = 0;
            for (int d = 0; d < kMaxDesigns; ++d) n += detach[d];
            bool ok = n > 0;
            if (ok)
                for (int d = 0; d < kMaxDesigns; ++d)
                    ok = ok && detach[d] >= 0 && detach[d] <= f.n[d];
            s.moved[s.fleet] = true;
            if (ok && n > 0 && n < f.ships()) {
                if (const int slot = free_slot(s, side); slot < 0) {
                    ++s.cap_hits[side];  // M5a: no slot for the detachment
                } else {
                    for (int d = 0; d < kMaxDesigns; ++d) f.n[d] -= detach[d];
                    s.fleets[side][slot] = Fleet{f.pos, detach, 0};
                    s.form(side, slot);
                    s.moved[slot] = true;
                    go(s, side, slot,
                       c.kind == Choice::send ? c.order.target : c.order.detach_target);
                }
            }
            s.pending = {};
            if (c.kind == Choice::send) return;  // the fleet's orders go on
            go(s, side, s.fleet, c.order.target);
            next_fleet(s);
            return;
        }
        case Choice::go:
            s.moved[s.fleet] = true;
            go(s, side, s.fleet, c.order.target);
            s.pending = {};
            next_fleet(s);
            return;
        case Choice::lose:
            lose_one(s, side, c.a);
            return;
        case Choice::stay:
        case Choice::retreat:
            // M7c, M7: a side that cannot retreat (at home, or held by a ship of ENGINE 0)
            // fights on.
            if (c.kind == Choice::retreat && retreat_from(s, side, fight_hex(s), o)) {
                s.stage = Stage::fight_over;
            } else if (side == s.attacker) {
                s.to_move = 1 - s.attacker;
            } else {
                ++s.round;
                s.stage = Stage::round;
            }
            return;
    }
}

template <class Dice>
void settle(State& s, const Options& o, Dice& dice) {
    while (!rests(s)) step(s, o, dice);
}
}  // namespace detail

// The campaign as a resumable game (engine/decision.hpp): seats 0 (side A) and 1 (side B).
struct Game {
    using Options = msc::Options;
    using State = msc::State;
    using Choice = msc::Choice;
    static constexpr int kMaxChoices = msc::kMaxChoices;

    static bool over(const State& s, const Options&) noexcept { return s.stage == Stage::over; }
    static int to_move(const State& s, const Options&) noexcept { return s.to_move; }
    // Every choice the rules allow here (a whole fleet's orders at once, Choice::orders, is the
    // same as the detach, send and go choices listed for it).
    static int legal(const State& s, const Options& o, Choice* out) noexcept {
        const int side = s.to_move;
        int n = 0;
        switch (s.stage) {
            case Stage::build:  // M4, M2, M2b: any design affordable with a slot for it, or save
                if (detail::home_fleet(s, side) >= 0)
                    for_each_design(s.ship_rules, [&](const Design& d, int cost) {
                        if (cost > s.bp[side]) return false;  // cheapest first
                        // M2c: never a barred size
                        if (s.plan[side].slot_for(d) >= 0 && !o.bars_size(side, cost))
                            out[n++] = {
                                Choice::build, static_cast<std::int16_t>(design_code(d)), -1, {}};
                        return true;
                    });
                out[n++] = {Choice::save, 0, 0, {}};
                return n;
            case Stage::merge: {  // M5a: any two fleets in one hex, or no more merging
                const State::Live live = s.live(side);
                for (int i = 0; i < (o.bars(side, Options::kBarMerge) ? 0 : live.n); ++i)  // M5b
                    for (int j = i + 1; j < live.n; ++j)
                        if (s.fleets[side][live.slot[i]].pos == s.fleets[side][live.slot[j]].pos)
                            out[n++] = {Choice::merge, live.slot[i], live.slot[j], {}};
                out[n++] = {Choice::done, 0, 0, {}};
                return n;
            }
            case Stage::orders: {  // M5, M5a
                const Fleet& f = s.fleets[side][s.fleet];
                int left = 0, pending = 0;
                for (int d = 0; d < kMaxDesigns; ++d) {
                    left += f.n[d] - s.pending[d];
                    pending += s.pending[d];
                }
                if (left > 1 && detail::free_slot(s, side) >= 0 &&
                    !o.bars(side, Options::kBarSplit))  // M5b: no split when barred
                    for (int d = 0; d < kMaxDesigns; ++d)
                        if (f.n[d] > s.pending[d])
                            out[n++] = {Choice::detach, static_cast<std::int16_t>(d), 0, {}};
                const Fleet moving = pending > 0 ? Fleet{f.pos, s.pending, 0} : f;
                // (Room left uninitialised, as for the choices: reach writes the first k.)
                alignas(hex::Hex) std::byte room[sizeof(hex::Hex) * kMaxReach];
                hex::Hex* to = reinterpret_cast<hex::Hex*>(room);
                const int k = detail::reach(s, f.pos, s.range(side, moving), to);
                for (int i = 0; i < k; ++i)
                    out[n++] = {pending > 0 ? Choice::send : Choice::go, 0, 0, {to[i], {}, {}}};
                return n;
            }
            case Stage::lose: {  // M7d: a ship of any design present
                const Counts present = s.present(side, detail::fight_hex(s));
                for (int d = 0; d < kMaxDesigns; ++d)
                    if (present[d] > 0)
                        out[n++] = {Choice::lose, static_cast<std::int16_t>(d), 0, {}};
                return n;
            }
            case Stage::retreat:  // M7: fight on, or retreat where the side can (M7c, M7e)
                out[n++] = {Choice::stay, 0, 0, {}};
                if (detail::can_retreat(s, side, detail::fight_hex(s)) &&
                    !o.bars(side, Options::kBarRetreat))  // M7f
                    out[n++] = {Choice::retreat, 0, 0, {}};
                return n;
            default:
                return 0;
        }
    }
    template <class Dice>
    static void apply(State& s, const Options& o, const Choice& c, Dice& dice) {
        detail::play_choice(s, o, c);
        detail::settle(s, o, dice);
    }
    static double reward(const State& s, const Options&, int seat) noexcept {
        return s.winner == seat ? 1.0 : s.winner == -1 ? 0.5 : 0.0;
    }
    // The policy's choice here: its answer to the question this decision poses, or its pick
    // among the legal choices.
    template <class P, class Dice>
    static Choice decide(const State& s, const Options& o, P& policy, Dice& dice) {
        const int side = s.to_move;
        if constexpr (ChoosesFor<P, Dice>) {
            // Room for the choices, left uninitialised (legal writes the first n; a Choice is an
            // aggregate, its objects begin in these bytes as they are assigned): zeroing room
            // for every legal design at every decision cost the random strategy a third of its
            // time.
            alignas(Choice) std::byte room[sizeof(Choice) * kMaxChoices];
            Choice* legal_here = reinterpret_cast<Choice*>(room);
            const int n = legal(s, o, legal_here);
            return policy.choose(s, legal_here, n, dice);
        } else if (o.barred[static_cast<std::size_t>(side)] != 0) {
            return unbarred(s, o, ask(s, o, policy, dice));
        } else {
            return ask(s, o, policy, dice);
        }
    }

private:
    // M2c, M5b, M7f: a barred choice as the kernel plays it: a build of a barred size saves, a
    // merge is no merge, a split sends the whole fleet, a retreat fights on.
    static Choice unbarred(const State& s, const Options& o, Choice c) noexcept {
        const int side = s.to_move;
        if (c.kind == Choice::build && o.bars_size(side, design_of_code(c.a).cost(s.ship_rules)))
            return {Choice::save, 0, 0, {}};
        if (c.kind == Choice::merge && o.bars(side, Options::kBarMerge))
            return {Choice::done, 0, 0, {}};
        if (c.kind == Choice::orders && o.bars(side, Options::kBarSplit)) c.order.detach = {};
        if (c.kind == Choice::retreat && o.bars(side, Options::kBarRetreat)) c.kind = Choice::stay;
        return c;
    }
    // The question of this decision point, put to a policy that answers it (no legal list).
    template <class P, class Dice>
    static Choice ask(const State& s, const Options&, P& policy, Dice& dice) {
        const int side = s.to_move;
        {
            switch (s.stage) {
                case Stage::build: {
                    const Design d = policy.build(s, side, dice);
                    if (d.empty()) return {Choice::save, 0, 0, {}};
                    // The plan's next ship goes to its plan slot (main and escort may be alike).
                    const int next = detail::plan_next(s, side);
                    return {Choice::build,
                            static_cast<std::int16_t>(design_code(d)),
                            static_cast<std::int16_t>(s.design(side, next) == d ? next : -1),
                            {}};
                }
                case Stage::merge: {
                    const auto [a, b] = policy.merge(s, side, dice);
                    if (a < 0 || b < 0) return {Choice::done, 0, 0, {}};
                    return {Choice::merge,
                            static_cast<std::int16_t>(std::min(a, b)),
                            static_cast<std::int16_t>(std::max(a, b)),
                            {}};
                }
                case Stage::orders:
                    return {Choice::orders, 0, 0, policy.orders(s, side, s.fleet, dice)};
                case Stage::lose:
                    return {Choice::lose,
                            static_cast<std::int16_t>(
                                policy.lose(s, side, s.present(side, detail::fight_hex(s)), dice)),
                            0,
                            {}};
                case Stage::retreat:
                    return {policy.retreat(s, side, detail::fight_hex(s), dice) ? Choice::retreat
                                                                                : Choice::stay,
                            0,
                            0,
                            {}};
                default:
                    return {};
            }
        }
    }
};

template <class Dice>
State opening(const Options& o, const std::array<Plan, kSides>& plans, Dice& dice) {
    State s = detail::unsettled_opening(o, plans, dice);
    detail::settle(s, o, dice);
    return s;
}

// Plays on from `s` with these policies until play leaves the stages `within` accepts (or ends),
// for the phase functions below.
template <class PolicyA, class PolicyB, class Dice, class Within>
void play_while(State& s, const Options& o, PolicyA& pa, PolicyB& pb, Dice& dice, Within within) {
    while (s.stage != Stage::over && within(s)) {
        if (!detail::rests(s)) {
            detail::step(s, o, dice);
            continue;
        }
        const Choice c =
            s.to_move == 0 ? Game::decide(s, o, pa, dice) : Game::decide(s, o, pb, dice);
        detail::play_choice(s, o, c);
    }
}

// M5: one side's movement (its merges and every fleet's orders), with `policy` deciding.
template <class Policy, class Dice>
void movement(State& s, int side, Policy& policy, Dice& dice) {
    const Options o;
    s.recount();
    s.stage = Stage::merge;
    s.to_move = side;
    s.first = side;
    play_while(s, o, policy, policy, dice, [&](const State& t) {
        return t.to_move == side && (t.stage == Stage::merge || t.stage == Stage::next_fleet ||
                                     t.stage == Stage::orders);
    });
}

// M7: strategic combat in one hex, under the rule options `o` (the book's when not given).
template <class PolicyA, class PolicyB, class Dice>
void combat_at(State& s, const hex::Hex& h, const Options& o, PolicyA& pa, PolicyB& pb,
               Dice& dice) {
    s.recount();
    s.fights[0] = h;
    s.n_fights = 1;
    s.fight = 0;
    s.stage = Stage::fight;
    play_while(s, o, pa, pb, dice, [](const State& t) { return t.stage != Stage::turn_over; });
}
template <class PolicyA, class PolicyB, class Dice>
void combat_at(State& s, const hex::Hex& h, PolicyA& pa, PolicyB& pb, Dice& dice) {
    combat_at(s, h, Options{}, pa, pb, dice);
}

// One turn (M4): production, initiative, Player 1 moves, Player 2 moves, combat, the end.
template <class PolicyA, class PolicyB, class Dice>
requires PolicyFor<PolicyA, Dice> && PolicyFor<PolicyB, Dice>
void play_turn(State& s, const Options& o, PolicyA& pa, PolicyB& pb, Dice& dice) {
    s.recount();
    s.stage = Stage::production;
    detail::step(s, o, dice);
    play_while(s, o, pa, pb, dice, [](const State& t) { return t.stage != Stage::production; });
}

// Plays a campaign on from `s` (an opening, or a position: read_position) to its end.
template <class PolicyA, class PolicyB, class Dice>
requires PolicyFor<PolicyA, Dice> && PolicyFor<PolicyB, Dice> State
play_on(State s, const Options& o, PolicyA& pa, PolicyB& pb, Dice& dice) {
    detail::settle(s, o, dice);
    play_from<Game>(s, o, dice, pa, pb);
    return s;
}

template <class PolicyA, class PolicyB, class Dice>
requires PolicyFor<PolicyA, Dice> && PolicyFor<PolicyB, Dice> State play(
    const Options& o, const std::array<Plan, kSides>& plans, PolicyA& pa, PolicyB& pb, Dice& dice) {
    return play_on(detail::unsettled_opening(o, plans, dice), o, pa, pb, dice);
}

// A campaign of a run: on from its start, where it has one, else a fresh one under its plans.
template <class PolicyA, class PolicyB, class Dice>
requires PolicyFor<PolicyA, Dice> && PolicyFor<PolicyB, Dice> State play(const Run& r, PolicyA& pa,
                                                                         PolicyB& pb, Dice& dice) {
    return r.start ? play_on(*r.start, r.rules, pa, pb, dice)
                   : play(r.rules, r.plans, pa, pb, dice);
}

}  // namespace odds::msc
