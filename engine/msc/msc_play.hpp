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
        if (s.fleets[side][i].ships() == 0) return i;
    return -1;
}
// The fleet at home new ships join: the one there, else a free slot; -1 when every slot is busy
// elsewhere (M5a).
inline int home_fleet(const State& s, int side) {
    const auto& fl = s.fleets[side];
    for (int i = 0; i < kMaxFleets; ++i)
        if (fl[i].ships() > 0 && fl[i].pos == s.home[side]) return i;
    return free_slot(s, side);
}
// M3, M4, M2a: saved BPs buy ships at home in the plan's order (main designs and escorts) while
// the next one is affordable; they join the fleet at home, else a new one. With every fleet
// slot busy elsewhere (M5a) nothing is built and the BPs stay saved.
inline void build(State& s, int side) {
    const auto u = static_cast<std::size_t>(side);
    const int slot = home_fleet(s, side);
    if (slot < 0) {
        if (s.bp[u] >= s.design(side, s.plan[u].next(s.built_by[u])).cost()) ++s.cap_hits[u];
        return;
    }
    Fleet& f = s.fleets[u][slot];
    for (;;) {
        const int d = s.plan[u].next(s.built_by[u]);
        const int cost = s.design(side, d).cost();
        if (s.bp[u] < cost) break;
        s.bp[u] -= cost;
        ++s.built_by[u][d];
        ++s.built[u];
        if (f.ships() == 0) f = Fleet{s.home[u], {}, 0};
        ++f.n[d];
    }
}
}  // namespace detail

template <class Dice>
State setup(const Options& o, const std::array<Plan, kSides>& plans, Dice& dice) {
    State s;
    s.plan = plans;
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
        // M3: the budget, spent on ships at home (in the plan's order, M2a), as one fleet; what
        // is left is saved.
        s.bp[side] = o.budget;
        detail::build(s, side);
    }
    s.index();
    return s;
}

// M4: production. Each owned system yields 1 BP; a captured one from the second production
// phase after its capture; the home always, while no enemy occupies it. New ships at home.
inline void production(State& s) {
    for (int side = 0; side < kSides; ++side) {
        int income = 0;
        for (int i = 0; i < s.n_sys; ++i) {
            const System& y = s.sys[i];
            if (y.home_of == side)
                income += !s.occupied_by(y.pos, 1 - side);
            else if (y.owner == side && s.turn >= y.captured + 2)
                ++income;
        }
        s.bp[side] += income;
        s.produced[side] += income;
        detail::build(s, side);
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
// into a new fleet; each moves up to the lowest ENGINE among its ships.
template <class Policy, class Dice>
void movement(State& s, int side, Policy& policy, Dice& dice) {
    auto& fl = s.fleets[side];
    {  // each fleet joins the first fleet (in slot order) in its hex
        const State::Live live = s.live(side);
        for (int j = 1; j < live.n; ++j) {
            Fleet& b = fl[live.slot[j]];
            for (int i = 0; i < j; ++i)
                if (Fleet& a = fl[live.slot[i]]; a.pos == b.pos && a.ships() > 0) {
                    for (int d = 0; d < kMaxDesigns; ++d) a.n[d] += b.n[d];
                    b.n = {};
                    break;
                }
        }
    }
    auto go = [&](int i, const hex::Hex& target) {
        Fleet& f = fl[i];
        const hex::Hex start = f.pos;
        const int range = s.range(side, f);
        for (int k = 0; k < range && !(f.pos == target); ++k) f.pos = step_toward(s, f.pos, target);
        if (!(f.pos == start)) f.arrived = ++s.move_clock;
    };
    std::array<bool, kMaxFleets> moved{};
    for (int i = 0; i < kMaxFleets; ++i) {
        if (fl[i].ships() == 0 || moved[i]) continue;
        const Orders o = policy.orders(s, side, i, dice);
        moved[i] = true;
        Fleet& f = fl[i];
        // A detachment: some ships, not all, and none the fleet does not have.
        int n = 0;
        bool ok = true;
        for (int d = 0; d < kMaxDesigns; ++d) {
            const int k = o.detach[d];
            ok = ok && k >= 0 && k <= f.n[d];
            n += k;
        }
        if (ok && n > 0 && n < f.ships()) {
            if (const int slot = detail::free_slot(s, side); slot < 0) {
                ++s.cap_hits[side];  // M5a: no slot for the detachment
            } else {
                for (int d = 0; d < kMaxDesigns; ++d) f.n[d] -= o.detach[d];
                fl[slot] = Fleet{f.pos, o.detach, 0};
                moved[slot] = true;
                go(slot, o.detach_target);
            }
        }
        go(i, o.target);
    }
}

namespace detail {
// M7, M7d: `n` losses of `side` in hex h. One ship at a time, the side's policy names the design
// (among those present; a design not present falls back to the first that is); the ship leaves
// the first fleet there (slot order) that has one.
template <class Policy, class Dice>
void take_losses(State& s, int side, const hex::Hex& h, int n, Policy& policy, Dice& dice) {
    for (; n > 0; --n) {
        const Counts present = s.present(side, h);
        int d = policy.lose(static_cast<const State&>(s), side, present, dice);
        if (d < 0 || d >= kMaxDesigns || present[d] == 0) {
            d = 0;
            while (d < kMaxDesigns && present[d] == 0) ++d;
            if (d == kMaxDesigns) return;  // nothing left to lose
        }
        for (auto& f : s.fleets[side])
            if (f.pos == h && f.n[d] > 0) {
                --f.n[d];
                ++s.lost[side];
                break;
            }
    }
}
// M7: a retreat, one hex toward home; false when there is no hex nearer home (at home).
inline bool retreat_from(State& s, int side, const hex::Hex& h) {
    const hex::Hex to = step_toward(s, h, s.home[side]);
    if (to == h) return false;
    for (auto& f : s.fleets[side])
        if (f.ships() > 0 && f.pos == h) f.pos = to;
    return true;
}
// A side's offensive or defensive BPs in hex h: every ship there (M7).
inline int power_at(const State& s, int side, const hex::Hex& h, bool offence) {
    const Counts c = s.present(side, h);
    int p = 0;
    for (int d = 0; d < kMaxDesigns; ++d)
        p += c[d] * (offence ? s.design(side, d).offence() : s.design(side, d).defence());
    return p;
}
}  // namespace detail

// M7: strategic combat in one hex.
template <class PolicyA, class PolicyB, class Dice>
void combat_at(State& s, const hex::Hex& h, PolicyA& pa, PolicyB& pb, Dice& dice) {
    int last[kSides] = {0, 0};
    for (int side = 0; side < kSides; ++side)
        for (const auto& f : s.fleets[side])
            if (f.ships() > 0 && f.pos == h) last[side] = std::max(last[side], f.arrived);
    const int att = last[1] > last[0] ? 1 : 0;  // the side that moved in last attacks
    const int def = 1 - att;
    auto power = [&](int side, bool offence) { return detail::power_at(s, side, h, offence); };
    auto alive = [&](int side) { return s.occupied_by(h, side); };
    // M7d: each side's policy picks its own losses; M7: and decides its retreat.
    auto lose = [&](int side, int n) {
        if (side == 0)
            detail::take_losses(s, 0, h, n, pa, dice);
        else
            detail::take_losses(s, 1, h, n, pb, dice);
    };
    auto wants_out = [&](int side) {
        return side == 0 ? pa.retreat(static_cast<const State&>(s), 0, h, dice)
                         : pb.retreat(static_cast<const State&>(s), 1, h, dice);
    };
    for (int round = 0; round < kMaxRounds; ++round) {
        // M7b: if neither side can roll an attack die, the attacker retreats.
        if (attack_dice(power(att, true)) == 0 && attack_dice(power(def, true)) == 0) {
            detail::retreat_from(s, att, h);
            return;
        }
        lose(def, resolve_attack(power(att, true), power(def, false), dice));
        if (!alive(def)) return;
        lose(att, resolve_attack(power(def, true), power(att, false), dice));
        if (!alive(att)) return;
        // After each round either side may retreat (M7); M7c: not from its own home.
        if (wants_out(att) && detail::retreat_from(s, att, h)) return;
        if (wants_out(def) && detail::retreat_from(s, def, h)) return;
    }
    detail::retreat_from(s, att, h);  // M7a: an endless standoff ends by the attacker's retreat
}

// M6, M8: the end of a turn: occupation, capture, victory.
inline void end_of_turn(State& s, const Options& o) {
    // Which sides' fleets end the turn at each system: each live fleet looked up once.
    std::array<std::uint8_t, kMaxSystems> here{};
    std::array<bool, kSides> any{};
    for (int side = 0; side < kSides; ++side) {
        const State::Live live = s.live(side);
        any[side] = live.n > 0;
        for (int k = 0; k < live.n; ++k)
            if (const int i = s.system_at(s.fleets[side][live.slot[k]].pos); i >= 0)
                here[i] |= static_cast<std::uint8_t>(1 << side);
    }
    for (int i = 0; i < s.n_sys; ++i) {
        System& y = s.sys[i];
        const bool a = here[i] & 1, b = here[i] & 2;
        if (a == b) {  // nobody, or both: nobody is alone here
            y.occupant = -1;
            y.streak = 0;
            // Both (a fleet that retreated into the hex after the fight there): an enemy fleet
            // ended the turn here, so the system is no longer its owner's.
            if (a && y.home_of < 0) y.owner = -1;
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
            if (y.owner == 1 - side) y.owner = -1;   // an enemy fleet ended a turn here
            if (y.streak >= 2 && y.owner != side) {  // two turns in a row alone: captured
                y.owner = static_cast<std::int8_t>(side);
                y.captured = s.turn;
            }
        }
    }
    // M8: the enemy home held alone at the end of a turn, or the enemy without ships.
    bool takes_home[kSides], wiped[kSides];
    for (int side = 0; side < kSides; ++side) {
        const int enemy_home = s.system_at(s.home[1 - side]);  // a system (M1)
        takes_home[side] = (here[enemy_home] >> side & 1) && !(here[enemy_home] >> (1 - side) & 1);
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

// One turn (M4): production, initiative, Player 1 moves, Player 2 moves, combat.
template <class PolicyA, class PolicyB, class Dice>
requires PolicyFor<PolicyA, Dice> && PolicyFor<PolicyB, Dice>
void play_turn(State& s, const Options& o, PolicyA& pa, PolicyB& pb, Dice& dice) {
    ++s.turn;
    production(s);
    s.first = o.initiative >= 0 ? o.initiative : initiative(dice);  // M4a: a fixed Player 1
    for (int k = 0; k < kSides; ++k) {
        const int side = k == 0 ? s.first : 1 - s.first;
        if (side == 0)
            movement(s, 0, pa, dice);
        else
            movement(s, 1, pb, dice);
    }
    // Combat in every hex holding both sides after movement, once each, in side A's fleet order.
    std::array<hex::Hex, kMaxFleets> fights{};
    int n = 0;
    const State::Live a = s.live(0), b = s.live(1);
    for (int i = 0; i < a.n; ++i) {
        const hex::Hex& at = s.fleets[0][a.slot[i]].pos;
        bool met = false;
        for (int j = 0; j < b.n && !met; ++j) met = s.fleets[1][b.slot[j]].pos == at;
        if (met && std::find(fights.begin(), fights.begin() + n, at) == fights.begin() + n)
            fights[n++] = at;
    }
    for (int i = 0; i < n; ++i) combat_at(s, fights[i], pa, pb, dice);
    end_of_turn(s, o);
}

template <class PolicyA, class PolicyB, class Dice>
requires PolicyFor<PolicyA, Dice> && PolicyFor<PolicyB, Dice> State play(
    const Options& o, const std::array<Plan, kSides>& plans, PolicyA& pa, PolicyB& pb, Dice& dice) {
    State s = setup(o, plans, dice);
    while (s.winner == -2) play_turn(s, o, pa, pb, dice);
    return s;
}

}  // namespace odds::msc
