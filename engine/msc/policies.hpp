// Minimal Space Combat policies: a design doctrine and a strategy, named design/strategy (M2, M9:
// policies see the whole board).
//
//   strategies  expand  the nearest systems not yet ours, a third of the fleet guarding home
//               rush    everything in one stack to the enemy home
//               raid    detachments of two ships against the enemy's systems
//               random  a random heading every turn
//               strike  expand until 1.5 times the enemy's ships, then strike at its home
//   every strategy but random retreats from a fight it is losing badly (strength, the sum over
//   its ships there of offence plus defence, below half the enemy's); random retreats on a 6
//   loss rules (M7: the defender's policy picks the losses; the strategy's third part):
//               cheap-first  lose the cheapest ships first (the default)
//               keep-guns    lose the ships with the least offence first
//               keep-speed   lose the slowest ships first (the fleet's ENGINE, M5, stays high)
#pragma once

#include <array>
#include <string>
#include <variant>

#include "engine/msc/msc.hpp"
#include "policies/policy_info.hpp"

namespace odds::msc {

// M7d: which of a side's ships is lost first. Ties go to the cheaper design, then the main one.
enum class LossRule { cheap_first, keep_guns, keep_speed };
inline constexpr int kLossRules = 3;
inline constexpr const char* kLossRuleNames[kLossRules] = {"cheap-first", "keep-guns", "keep-speed"};

inline int pick_loss(LossRule rule, const Plan& plan, const Counts& present) {
    auto key = [&](int d) {
        const Design& x = plan.design[static_cast<std::size_t>(d)];
        switch (rule) {
            case LossRule::keep_guns: return x.offence() * 100 + x.cost();
            case LossRule::keep_speed: return x.engine * 100 + x.cost();
            default: return x.cost();
        }
    };
    int best = -1;
    for (int d = 0; d < kMaxDesigns; ++d)
        if (present[static_cast<std::size_t>(d)] > 0 && (best < 0 || key(d) < key(best))) best = d;
    return best < 0 ? 0 : best;
}

namespace strategy {

// Every strategy's loss choice (M7d): its loss rule.
struct Losses {
    LossRule loss = LossRule::cheap_first;
    template <class Dice>
    int lose(const State& s, int side, const Counts& present, Dice&) const {
        return pick_loss(loss, s.plan[static_cast<std::size_t>(side)], present);
    }
};

// Strength in a fight: the sum over a side's ships there of offence plus defence.
inline int strength(const State& s, int side, const hex::Hex& h) {
    const Counts c = s.present(side, h);
    int t = 0;
    for (int d = 0; d < kMaxDesigns; ++d)
        t += c[static_cast<std::size_t>(d)] * (s.design(side, d).offence() + s.design(side, d).defence());
    return t;
}

inline bool losing_badly(const State& s, int side, const hex::Hex& h) {
    return 2 * strength(s, side, h) < strength(s, 1 - side, h);
}

// About k of a fleet's ships to detach, each design in proportion (M5a).
inline Counts share_of(const Fleet& f, int k) {
    const int total = f.ships();
    Counts out{};
    if (total <= 0) return out;
    int left = k;
    for (int d = kMaxDesigns - 1; d > 0; --d) {
        const auto u = static_cast<std::size_t>(d);
        out[u] = std::min({f.n[u], left, (k * f.n[u] + total / 2) / total});
        left -= out[u];
    }
    out[0] = std::min(f.n[0], left);
    left -= out[0];
    for (int d = 1; d < kMaxDesigns && left > 0; ++d) {  // the main design ran short
        const auto u = static_cast<std::size_t>(d);
        const int more = std::min(left, f.n[u] - out[u]);
        out[u] += more;
        left -= more;
    }
    return out;
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

// The home guard of `expand` and `strike`: a third of all the side's ships (at least one).
inline int guard(const State& s, int side) { return std::max(1, (s.ships(side) + 2) / 3); }

// A fleet sitting on a system it is capturing stays until the system is ours.
inline bool capturing(const State& s, int side, const hex::Hex& at) {
    for (int i = 0; i < s.n_sys; ++i) {
        const System& y = s.sys[static_cast<std::size_t>(i)];
        if (y.pos == at && y.home_of < 0 && y.owner != side) return true;
    }
    return false;
}

struct Expand : Losses {
    template <class Dice>
    Orders orders(const State& s, int side, int i, Dice&) {
        const Fleet& f = s.fleets[static_cast<std::size_t>(side)][static_cast<std::size_t>(i)];
        const hex::Hex home = s.home[static_cast<std::size_t>(side)];
        if (f.pos == home) {  // guard home with a third of all the side's ships; send the rest out
            Orders o{home, {}, {}};
            if (const int spare = f.ships() - guard(s, side); spare > 0 && spare < f.ships()) {
                o.detach = share_of(f, spare);
                o.detach_target = nearest_unowned(s, side, home);
            }
            return o;
        }
        if (capturing(s, side, f.pos)) return {f.pos, {}, {}};
        return {nearest_unowned(s, side, f.pos), {}, {}};
    }
    template <class Dice>
    bool retreat(const State& s, int side, const hex::Hex& h, Dice&) {
        return losing_badly(s, side, h);
    }
};

// Strike: expand until ahead, then go for the throat. While the side has fewer than 1.5 times
// the enemy's ships it plays `expand`; once it has, every fleet but the home guard heads for the
// enemy home.
struct Strike : Losses {
    template <class Dice>
    Orders orders(const State& s, int side, int i, Dice& dice) {
        if (2 * s.ships(side) < 3 * s.ships(1 - side)) return Expand{}.orders(s, side, i, dice);
        const Fleet& f = s.fleets[static_cast<std::size_t>(side)][static_cast<std::size_t>(i)];
        const hex::Hex home = s.home[static_cast<std::size_t>(side)];
        const hex::Hex enemy = s.home[static_cast<std::size_t>(1 - side)];
        if (const int spare = f.ships() - guard(s, side); f.pos == home && spare > 0 && spare < f.ships())
            return {home, share_of(f, spare), enemy};
        return {f.pos == home ? home : enemy, {}, {}};
    }
    template <class Dice>
    bool retreat(const State& s, int side, const hex::Hex& h, Dice&) {
        return losing_badly(s, side, h);
    }
};

struct Rush : Losses {
    template <class Dice>
    Orders orders(const State& s, int side, int, Dice&) {
        return {s.home[static_cast<std::size_t>(1 - side)], {}, {}};
    }
    template <class Dice>
    bool retreat(const State& s, int side, const hex::Hex& h, Dice&) {
        return losing_badly(s, side, h);
    }
};

struct Raid : Losses {
    template <class Dice>
    Orders orders(const State& s, int side, int i, Dice&) {
        const Fleet& f = s.fleets[static_cast<std::size_t>(side)][static_cast<std::size_t>(i)];
        if (capturing(s, side, f.pos) && f.ships() <= 2) return {f.pos, {}, {}};
        Orders o{nearest_enemy(s, side, f.pos), {}, {}};
        if (f.ships() > 2) {  // peel off two ships against the enemy's systems
            o.detach = share_of(f, 2);
            o.detach_target = o.target;
            o.target = nearest_unowned(s, side, f.pos);
        }
        return o;
    }
    template <class Dice>
    bool retreat(const State& s, int side, const hex::Hex& h, Dice&) {
        return losing_badly(s, side, h);
    }
};

struct Random : Losses {
    template <class Dice>
    Orders orders(const State& s, int side, int i, Dice& dice) {
        const Fleet& f = s.fleets[static_cast<std::size_t>(side)][static_cast<std::size_t>(i)];
        hex::Hex t = f.pos;
        const int facing = dice.d6() - 1;
        for (int k = 0; k < 8; ++k) t = hex::neighbour(t, facing);
        return {t, {}, {}};
    }
    template <class Dice>
    bool retreat(const State&, int, const hex::Hex&, Dice& dice) { return dice.d6() == 6; }
};

}  // namespace strategy

using Strategy = std::variant<strategy::Expand, strategy::Rush, strategy::Raid, strategy::Random,
                              strategy::Strike>;

// A seat: its design doctrine (its ships, M2a) and its strategy (movement, losses, retreat).
struct Policy {
    Doctrine doctrine = Doctrine::balanced;
    Strategy strategy;
};

// M2a: a doctrine's plan: its design at 15 BP, escorts of its design at 10 BP.
inline Design doctrine_main(Doctrine d) { return doctrine_design(d, 15); }
inline Design doctrine_escort(Doctrine d) { return doctrine_design(d, 10); }

inline constexpr const char* kDoctrines[4] = {"balanced", "glass-cannon", "turtle", "fast"};
inline constexpr int kStrategyCount = 5;
inline constexpr const char* kStrategies[kStrategyCount] = {"expand", "rush", "raid", "random", "strike"};
inline constexpr int kPolicyCount = 4 * kStrategyCount * kLossRules;

// A policy's parts: doctrine, strategy and loss rule, indices into the tables above.
struct PolicyParts {
    int doctrine, strategy, loss;
};

// The policies in `odds list` order: the default first, then every (doctrine, strategy, loss rule)
// in that nesting. The default, turtle/strike, plays its mirror to a decision in most campaigns
// on the seed's map (expand never attacks, so the old default, balanced/expand, always reached
// the turn cap; the balanced/strike mirror does in more than half of them).
inline constexpr PolicyParts kDefaultPolicy{2, 4, 0};
inline const std::array<PolicyParts, kPolicyCount>& policy_parts() {
    static const auto parts = [] {
        std::array<PolicyParts, kPolicyCount> out{};
        std::size_t k = 0;
        out[k++] = kDefaultPolicy;
        for (int d = 0; d < 4; ++d)
            for (int st = 0; st < kStrategyCount; ++st)
                for (int l = 0; l < kLossRules; ++l)
                    if (d != kDefaultPolicy.doctrine || st != kDefaultPolicy.strategy ||
                        l != kDefaultPolicy.loss)
                        out[k++] = {d, st, l};
        return out;
    }();
    return parts;
}

// Every design/strategy pair, each with its loss rules (design/strategy loses the cheapest
// ships first; design/strategy/keep-guns and design/strategy/keep-speed the other rules), for
// `odds list` and the seat parser, in policy_parts() order.
inline const std::array<PolicyInfo, kPolicyCount>& policy_infos() {
    static const auto infos = [] {
        static std::array<std::string, kPolicyCount> names, helps;
        const char* design_help[4] = {"balanced", "all-offence", "all-shield", "fast"};
        const char* strategy_help[kStrategyCount] = {
            "take the nearest systems, a third guarding home",
            "one stack straight at the enemy home",
            "two-ship detachments against the enemy's systems",
            "a random heading every turn",
            "expand until 1.5 times the enemy's ships, then all but the home guard at the enemy home"};
        const char* loss_help[kLossRules] = {"losing the cheapest ships first",
                                             "losing the ships with the least offence first",
                                             "losing the slowest ships first"};
        std::array<PolicyInfo, kPolicyCount> out{};
        for (std::size_t k = 0; k < kPolicyCount; ++k) {
            const auto [d, st, l] = policy_parts()[k];
            names[k] = std::string(kDoctrines[d]) + "/" + kStrategies[st] +
                       (l ? std::string("/") + kLossRuleNames[l] : std::string());
            const auto doc = static_cast<Doctrine>(d);
            helps[k] = std::string(design_help[d]) + " ships (" + to_string(doctrine_main(doc)) +
                       ", escorts " + to_string(doctrine_escort(doc)) + "); " +
                       strategy_help[st] + "; " + loss_help[l];
            out[k] = {names[k], helps[k]};
        }
        return out;
    }();
    return infos;
}

inline Policy make_policy(std::size_t index) {
    const auto [d, st, l] = policy_parts()[index];
    Policy p;
    p.doctrine = static_cast<Doctrine>(d);
    switch (st) {
        case 0: p.strategy = strategy::Expand{}; break;
        case 1: p.strategy = strategy::Rush{}; break;
        case 2: p.strategy = strategy::Raid{}; break;
        case 3: p.strategy = strategy::Random{}; break;
        default: p.strategy = strategy::Strike{}; break;
    }
    std::visit([&](auto& x) { x.loss = static_cast<LossRule>(l); }, p.strategy);
    return p;
}

}  // namespace odds::msc
