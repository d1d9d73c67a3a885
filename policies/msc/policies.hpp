// Minimal Space Combat policies: a design doctrine and a strategy, named design/strategy (M2, M9:
// policies see the whole board).
//
//   strategies  expand  the nearest systems not yet ours, a third of the fleet guarding home
//               rush    everything in one stack to the enemy home
//               raid    detachments of two ships against the enemy's systems
//               random  a random heading every turn
//               strike  expand until 1.5 times the enemy's ships, then strike at its home
//   every strategy but random retreats from a fight it is losing badly (strength, ships times
//   offence plus defence, below half the enemy's)
#pragma once

#include <array>
#include <string>
#include <variant>

#include "engine/msc/msc.hpp"
#include "policies/policy_info.hpp"

namespace odds::msc {

namespace strategy {

inline bool losing_badly(const State& s, int side, int mine, int theirs) {
    const Design& a = s.design[static_cast<std::size_t>(side)];
    const Design& b = s.design[static_cast<std::size_t>(1 - side)];
    return 2 * mine * (a.offence() + a.defence()) < theirs * (b.offence() + b.defence());
}

// The nearest system `side` does not own (not the enemy home unless nothing else is left).
// Ties go to the system nearer the enemy home: the same rule for both sides, whatever the map's
// row order (breaking ties by row order gave the side whose home lies lower on the map the
// contested middle first).
inline hex::Hex nearest_unowned(const State& s, int side, const hex::Hex& from) {
    const hex::Hex enemy = s.home[static_cast<std::size_t>(1 - side)];
    int best = -1, bd = 1 << 30, be = 1 << 30;
    for (int pass = 0; pass < 2 && best < 0; ++pass)
        for (int i = 0; i < s.n_sys; ++i) {
            const System& y = s.sys[static_cast<std::size_t>(i)];
            if (y.owner == side || (pass == 0 && y.home_of >= 0)) continue;
            const int d = hex::distance(from, y.pos), e = hex::distance(enemy, y.pos);
            if (d < bd || (d == bd && e < be)) {
                bd = d;
                be = e;
                best = i;
            }
        }
    return best < 0 ? enemy : s.sys[static_cast<std::size_t>(best)].pos;
}

// The nearest system the enemy owns (its home last), else the nearest unowned one; ties as above.
inline hex::Hex nearest_enemy(const State& s, int side, const hex::Hex& from) {
    const hex::Hex enemy = s.home[static_cast<std::size_t>(1 - side)];
    int best = -1, bd = 1 << 30, be = 1 << 30;
    for (int i = 0; i < s.n_sys; ++i) {
        const System& y = s.sys[static_cast<std::size_t>(i)];
        if (y.owner != 1 - side || y.home_of >= 0) continue;
        const int d = hex::distance(from, y.pos), e = hex::distance(enemy, y.pos);
        if (d < bd || (d == bd && e < be)) {
            bd = d;
            be = e;
            best = i;
        }
    }
    return best < 0 ? nearest_unowned(s, side, from) : s.sys[static_cast<std::size_t>(best)].pos;
}

// A fleet sitting on a system it is capturing stays until the system is ours.
inline bool capturing(const State& s, int side, const hex::Hex& at) {
    for (int i = 0; i < s.n_sys; ++i) {
        const System& y = s.sys[static_cast<std::size_t>(i)];
        if (y.pos == at && y.home_of < 0 && y.owner != side) return true;
    }
    return false;
}

struct Expand {
    template <class Dice>
    Orders orders(const State& s, int side, int i, Dice&) {
        const Fleet& f = s.fleets[static_cast<std::size_t>(side)][static_cast<std::size_t>(i)];
        const hex::Hex home = s.home[static_cast<std::size_t>(side)];
        if (f.pos == home) {  // guard home with a third; send the rest out
            Orders o{home, 0, {}};
            if (f.ships >= 2) {
                o.detach = f.ships - (f.ships + 2) / 3;
                o.detach_target = nearest_unowned(s, side, home);
            }
            return o;
        }
        if (capturing(s, side, f.pos)) return {f.pos, 0, {}};
        return {nearest_unowned(s, side, f.pos), 0, {}};
    }
    template <class Dice>
    bool retreat(const State& s, int side, int mine, int theirs, Dice&) {
        return losing_badly(s, side, mine, theirs);
    }
};

// Strike: expand until ahead, then go for the throat. While the side has fewer than 1.5 times
// the enemy's ships it plays `expand`; once it has, every fleet but the home guard heads for the
// enemy home.
struct Strike {
    template <class Dice>
    Orders orders(const State& s, int side, int i, Dice& dice) {
        if (2 * s.ships(side) < 3 * s.ships(1 - side)) return Expand{}.orders(s, side, i, dice);
        const Fleet& f = s.fleets[static_cast<std::size_t>(side)][static_cast<std::size_t>(i)];
        const hex::Hex home = s.home[static_cast<std::size_t>(side)];
        const hex::Hex enemy = s.home[static_cast<std::size_t>(1 - side)];
        if (f.pos == home && f.ships >= 2) return {home, f.ships - (f.ships + 2) / 3, enemy};
        return {f.pos == home ? home : enemy, 0, {}};
    }
    template <class Dice>
    bool retreat(const State& s, int side, int mine, int theirs, Dice&) {
        return losing_badly(s, side, mine, theirs);
    }
};

struct Rush {
    template <class Dice>
    Orders orders(const State& s, int side, int, Dice&) {
        return {s.home[static_cast<std::size_t>(1 - side)], 0, {}};
    }
    template <class Dice>
    bool retreat(const State& s, int side, int mine, int theirs, Dice&) {
        return losing_badly(s, side, mine, theirs);
    }
};

struct Raid {
    template <class Dice>
    Orders orders(const State& s, int side, int i, Dice&) {
        const Fleet& f = s.fleets[static_cast<std::size_t>(side)][static_cast<std::size_t>(i)];
        if (capturing(s, side, f.pos) && f.ships <= 2) return {f.pos, 0, {}};
        Orders o{nearest_enemy(s, side, f.pos), 0, {}};
        if (f.ships > 2) {  // peel off two ships against the enemy's systems
            o.detach = 2;
            o.detach_target = o.target;
            o.target = nearest_unowned(s, side, f.pos);
        }
        return o;
    }
    template <class Dice>
    bool retreat(const State& s, int side, int mine, int theirs, Dice&) {
        return losing_badly(s, side, mine, theirs);
    }
};

struct Random {
    template <class Dice>
    Orders orders(const State& s, int side, int i, Dice& dice) {
        const Fleet& f = s.fleets[static_cast<std::size_t>(side)][static_cast<std::size_t>(i)];
        hex::Hex t = f.pos;
        const int facing = dice.d6() - 1;
        for (int k = 0; k < 8; ++k) t = hex::neighbour(t, facing);
        return {t, 0, {}};
    }
    template <class Dice>
    bool retreat(const State&, int, int, int, Dice& dice) { return dice.d6() == 6; }
};

}  // namespace strategy

using Strategy = std::variant<strategy::Expand, strategy::Rush, strategy::Raid, strategy::Random,
                              strategy::Strike>;

// A seat: its ship design and its strategy.
struct Policy {
    Doctrine doctrine = Doctrine::balanced;
    Strategy strategy;
};

inline constexpr const char* kDoctrines[4] = {"balanced", "glass-cannon", "turtle", "fast"};
inline constexpr int kStrategyCount = 5;
inline constexpr const char* kStrategies[kStrategyCount] = {"expand", "rush", "raid", "random", "strike"};
inline constexpr int kPolicyCount = 4 * kStrategyCount;

// Every design/strategy pair, for `odds list` and the seat parser.
inline const std::array<PolicyInfo, kPolicyCount>& policy_infos() {
    static const auto infos = [] {
        static std::array<std::string, kPolicyCount> names, helps;
        const char* design_help[4] = {"balanced ships (E3S3T3W3)", "all-offence ships (E2S0T5W4)",
                                      "all-shield ships (E2S5T0W4)", "fast ships (E5S2T2W3)"};
        const char* strategy_help[kStrategyCount] = {
            "take the nearest systems, a third guarding home",
            "one stack straight at the enemy home",
            "two-ship detachments against the enemy's systems",
            "a random heading every turn",
            "expand until 1.5 times the enemy's ships, then all but the home guard at the enemy home"};
        std::array<PolicyInfo, kPolicyCount> out{};
        for (int d = 0; d < 4; ++d)
            for (int st = 0; st < kStrategyCount; ++st) {
                const auto k = static_cast<std::size_t>(d * kStrategyCount + st);
                names[k] = std::string(kDoctrines[d]) + "/" + kStrategies[st];
                helps[k] = std::string(design_help[d]) + "; " + strategy_help[st];
                out[k] = {names[k], helps[k]};
            }
        return out;
    }();
    return infos;
}

inline Policy make_policy(std::size_t index) {
    Policy p;
    p.doctrine = static_cast<Doctrine>(index / kStrategyCount);
    switch (index % kStrategyCount) {
        case 0: p.strategy = strategy::Expand{}; break;
        case 1: p.strategy = strategy::Rush{}; break;
        case 2: p.strategy = strategy::Raid{}; break;
        case 3: p.strategy = strategy::Random{}; break;
        default: p.strategy = strategy::Strike{}; break;
    }
    return p;
}

}  // namespace odds::msc
