// Minimal Space Combat: the turn and its phases (M3-M8), templates over the policies and the
// dice. Included by msc.hpp.
#pragma once

#include <algorithm>

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
    for (int i = 0; i < kMaxFleets; ++i)
        if (s.fleets[static_cast<std::size_t>(side)][static_cast<std::size_t>(i)].ships == 0) return i;
    return -1;
}
// New ships (or a starting fleet) at home: join a fleet there, else a new one (M3, M4). False
// when every fleet slot is busy elsewhere (M5a): the ships are not built, their BPs stay saved.
inline bool add_at_home(State& s, int side, int n) {
    auto& fl = s.fleets[static_cast<std::size_t>(side)];
    for (auto& f : fl)
        if (f.ships > 0 && f.pos == s.home[static_cast<std::size_t>(side)]) {
            f.ships += n;
            return true;
        }
    const int slot = free_slot(s, side);
    if (slot < 0) return false;
    fl[static_cast<std::size_t>(slot)] = Fleet{s.home[static_cast<std::size_t>(side)], n, 0};
    return true;
}
}  // namespace detail

template <class Dice>
State setup(const Options& o, const std::array<Design, kSides>& designs, Dice& dice) {
    State s;
    s.design = designs;
    // M1: the seed's map, or a random one: systems spread evenly (one in each cell of a grid,
    // at a random hex of it), homes in the middle of the top and bottom rows.
    if (!o.random_map) {
        const StarMap& m = example_map();
        s.bounds = {m.width, m.height};
        s.home = m.home;
        for (const auto& h : m.systems) s.sys[static_cast<std::size_t>(s.n_sys++)].pos = h;
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
                for (int i = 0; i < s.n_sys; ++i) taken = taken || s.sys[static_cast<std::size_t>(i)].pos == h;
                if (!taken) {
                    s.sys[static_cast<std::size_t>(s.n_sys++)].pos = h;
                    break;
                }
            }
        }
    }
    for (int side = 0; side < kSides; ++side) {
        System& home = s.sys[static_cast<std::size_t>(s.n_sys++)];
        home.pos = s.home[static_cast<std::size_t>(side)];
        home.owner = static_cast<std::int8_t>(side);
        home.home_of = static_cast<std::int8_t>(side);
        // M3: the budget, spent on ships at home, as one fleet; what is left is saved.
        const int cost = designs[static_cast<std::size_t>(side)].cost();
        const int n = o.budget / cost;
        s.bp[static_cast<std::size_t>(side)] = o.budget - n * cost;
        s.built[static_cast<std::size_t>(side)] = n;
        if (n > 0) detail::add_at_home(s, side, n);
    }
    return s;
}

// M4: production. Each owned system yields 1 BP; a captured one from the second production
// phase after its capture; the home always, while no enemy occupies it. New ships at home.
inline void production(State& s) {
    for (int side = 0; side < kSides; ++side) {
        int income = 0;
        for (int i = 0; i < s.n_sys; ++i) {
            const System& y = s.sys[static_cast<std::size_t>(i)];
            if (y.home_of == side) income += !s.occupied_by(y.pos, 1 - side);
            else if (y.owner == side && s.turn >= y.captured + 2) ++income;
        }
        s.bp[static_cast<std::size_t>(side)] += income;
        s.produced[static_cast<std::size_t>(side)] += income;
        const int cost = s.design[static_cast<std::size_t>(side)].cost();
        const int n = s.bp[static_cast<std::size_t>(side)] / cost;
        if (n > 0 && detail::add_at_home(s, side, n)) {
            s.bp[static_cast<std::size_t>(side)] -= n * cost;
            s.built[static_cast<std::size_t>(side)] += n;
        }
    }
}

// M4: initiative. Both roll; high is Player 1; ties are rolled again.
template <class Dice>
int initiative(Dice& dice) {
    for (;;) {
        const int a = dice.d6(), b = dice.d6();
        if (a != b) return a > b ? 0 : 1;
    }
}

// M5: one side's movement. Fleets in one hex merge first (M5a); each fleet may detach ships
// into a new fleet; each moves up to its ENGINE (one design a side: every ship's ENGINE).
template <class Policy, class Dice>
void movement(State& s, int side, Policy& policy, Dice& dice) {
    auto& fl = s.fleets[static_cast<std::size_t>(side)];
    for (int i = 0; i < kMaxFleets; ++i)
        for (int j = i + 1; j < kMaxFleets; ++j)
            if (fl[static_cast<std::size_t>(i)].ships > 0 && fl[static_cast<std::size_t>(j)].ships > 0 &&
                fl[static_cast<std::size_t>(i)].pos == fl[static_cast<std::size_t>(j)].pos) {
                fl[static_cast<std::size_t>(i)].ships += fl[static_cast<std::size_t>(j)].ships;
                fl[static_cast<std::size_t>(j)].ships = 0;
            }
    const int range = s.design[static_cast<std::size_t>(side)].engine;
    auto go = [&](int i, const hex::Hex& target) {
        Fleet& f = fl[static_cast<std::size_t>(i)];
        const hex::Hex start = f.pos;
        for (int k = 0; k < range && !(f.pos == target); ++k) f.pos = step_toward(s, f.pos, target);
        if (!(f.pos == start)) f.arrived = ++s.move_clock;
    };
    const int existing = kMaxFleets;
    std::array<bool, kMaxFleets> moved{};
    for (int i = 0; i < existing; ++i) {
        if (fl[static_cast<std::size_t>(i)].ships == 0 || moved[static_cast<std::size_t>(i)]) continue;
        const Orders o = policy.orders(s, side, i, dice);
        moved[static_cast<std::size_t>(i)] = true;
        if (o.detach > 0 && o.detach < fl[static_cast<std::size_t>(i)].ships) {
            if (const int slot = detail::free_slot(s, side); slot >= 0) {
                fl[static_cast<std::size_t>(i)].ships -= o.detach;
                fl[static_cast<std::size_t>(slot)] = Fleet{fl[static_cast<std::size_t>(i)].pos, o.detach, 0};
                moved[static_cast<std::size_t>(slot)] = true;
                go(slot, o.detach_target);
            }
        }
        go(i, o.target);
    }
}

namespace detail {
// Ships of `side` in hex h, and removing n of them (fleets in slot order).
inline int ships_at(const State& s, int side, const hex::Hex& h) {
    int n = 0;
    for (const auto& f : s.fleets[static_cast<std::size_t>(side)])
        if (f.ships > 0 && f.pos == h) n += f.ships;
    return n;
}
inline void remove_at(State& s, int side, const hex::Hex& h, int n) {
    for (auto& f : s.fleets[static_cast<std::size_t>(side)]) {
        if (n == 0) return;
        if (f.ships == 0 || !(f.pos == h)) continue;
        const int k = std::min(n, f.ships);
        f.ships -= k;
        n -= k;
        s.lost[static_cast<std::size_t>(side)] += k;
    }
}
// M7: a retreat, one hex toward home; false when there is no hex nearer home (at home).
inline bool retreat_from(State& s, int side, const hex::Hex& h) {
    const hex::Hex to = step_toward(s, h, s.home[static_cast<std::size_t>(side)]);
    if (to == h) return false;
    for (auto& f : s.fleets[static_cast<std::size_t>(side)])
        if (f.ships > 0 && f.pos == h) f.pos = to;
    return true;
}
}  // namespace detail

// M7: strategic combat in one hex.
template <class PolicyA, class PolicyB, class Dice>
void combat_at(State& s, const hex::Hex& h, PolicyA& pa, PolicyB& pb, Dice& dice) {
    int last[kSides] = {0, 0};
    for (int side = 0; side < kSides; ++side)
        for (const auto& f : s.fleets[static_cast<std::size_t>(side)])
            if (f.ships > 0 && f.pos == h) last[side] = std::max(last[side], f.arrived);
    const int att = last[1] > last[0] ? 1 : 0;  // the side that moved in last attacks
    const int def = 1 - att;
    auto power = [&](int side, bool offence) {
        const Design& d = s.design[static_cast<std::size_t>(side)];
        return detail::ships_at(s, side, h) * (offence ? d.offence() : d.defence());
    };
    auto wants_out = [&](int side) {
        const int mine = detail::ships_at(s, side, h), theirs = detail::ships_at(s, 1 - side, h);
        return side == 0 ? pa.retreat(s, 0, mine, theirs, dice) : pb.retreat(s, 1, mine, theirs, dice);
    };
    for (int round = 0; round < kMaxRounds; ++round) {
        // M7b: if neither side can roll an attack die, the attacker retreats.
        if (attack_dice(power(att, true)) == 0 && attack_dice(power(def, true)) == 0) {
            detail::retreat_from(s, att, h);
            return;
        }
        detail::remove_at(s, def, h, resolve_attack(power(att, true), power(def, false), dice));
        if (detail::ships_at(s, def, h) == 0) return;
        detail::remove_at(s, att, h, resolve_attack(power(def, true), power(att, false), dice));
        if (detail::ships_at(s, att, h) == 0) return;
        // After each round either side may retreat (M7); M7c: not from its own home.
        if (wants_out(att) && detail::retreat_from(s, att, h)) return;
        if (wants_out(def) && detail::retreat_from(s, def, h)) return;
    }
    detail::retreat_from(s, att, h);  // M7a: an endless standoff ends by the attacker's retreat
}

// M6, M8: the end of a turn: occupation, capture, victory.
inline void end_of_turn(State& s, const Options& o) {
    for (int i = 0; i < s.n_sys; ++i) {
        System& y = s.sys[static_cast<std::size_t>(i)];
        const bool a = s.occupied_by(y.pos, 0), b = s.occupied_by(y.pos, 1);
        if (a == b) {  // nobody, or both: nobody is alone here
            y.occupant = -1;
            y.streak = 0;
            continue;
        }
        const int side = a ? 0 : 1;
        if (y.occupant == side) ++y.streak;
        else {
            y.occupant = static_cast<std::int8_t>(side);
            y.streak = 1;
        }
        if (y.home_of < 0) {
            if (y.owner == 1 - side) y.owner = -1;  // an enemy fleet ended a turn here
            if (y.streak >= 2 && y.owner != side) {  // two turns in a row alone: captured
                y.owner = static_cast<std::int8_t>(side);
                y.captured = s.turn;
            }
        }
    }
    // M8: the enemy home held alone at the end of a turn, or the enemy without ships.
    bool takes_home[kSides], wiped[kSides];
    for (int side = 0; side < kSides; ++side) {
        const hex::Hex& enemy_home = s.home[static_cast<std::size_t>(1 - side)];
        takes_home[side] = s.occupied_by(enemy_home, side) && !s.occupied_by(enemy_home, 1 - side);
        wiped[side] = s.ships(side) == 0;
    }
    const bool a_wins = takes_home[0] || wiped[1], b_wins = takes_home[1] || wiped[0];
    if (a_wins || b_wins) {
        s.winner = a_wins && b_wins ? -1 : (a_wins ? 0 : 1);
        s.end = (a_wins ? takes_home[0] : takes_home[1]) ? State::kHome : State::kAnnihilation;
        if (s.winner == -1) s.end = State::kAnnihilation;
    } else if (s.turn >= o.max_turns) {
        s.winner = -1;
        s.end = State::kTurnCap;
    }
}

// One turn (M4): production, initiative, Player 1 moves, Player 2 moves, combat.
template <class PolicyA, class PolicyB, class Dice>
void play_turn(State& s, const Options& o, PolicyA& pa, PolicyB& pb, Dice& dice) {
    ++s.turn;
    production(s);
    s.first = initiative(dice);
    for (int k = 0; k < kSides; ++k) {
        const int side = k == 0 ? s.first : 1 - s.first;
        if (side == 0) movement(s, 0, pa, dice);
        else movement(s, 1, pb, dice);
    }
    // Combat in every hex holding both sides after movement, once each, in side A's fleet order.
    std::array<hex::Hex, kMaxFleets> fights{};
    int n = 0;
    for (const auto& f : s.fleets[0])
        if (f.ships > 0 && s.occupied_by(f.pos, 1) &&
            std::find(fights.begin(), fights.begin() + n, f.pos) == fights.begin() + n)
            fights[static_cast<std::size_t>(n++)] = f.pos;
    for (int i = 0; i < n; ++i) combat_at(s, fights[static_cast<std::size_t>(i)], pa, pb, dice);
    end_of_turn(s, o);
}

template <class PolicyA, class PolicyB, class Dice>
State play(const Options& o, const std::array<Design, kSides>& designs, PolicyA& pa, PolicyB& pb,
           Dice& dice) {
    State s = setup(o, designs, dice);
    while (s.winner == -2) play_turn(s, o, pa, pb, dice);
    return s;
}

}  // namespace odds::msc
