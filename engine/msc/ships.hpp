// Minimal Space Combat ships (ruling M2) and the arithmetic of strategic combat (M7): the pieces
// of the campaign kernel that stand on their own. The campaign is in msc.hpp; a side's mix of
// designs (M2a) is its Plan there.
//
// M2: ENGINE, SHIELDS and TO-HIT cost 1 BP a unit and never exceed 5; each weapon costs 2 BP; a
// ship totals 10, 15 or 20 BP. Offensive BPs = TO-HIT + weapon BPs; defensive BPs = SHIELDS.
// A ship with ENGINE 0 cannot move.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "engine/rule_values.hpp"

namespace odds::msc {

inline constexpr int kMaxRating = 5;

struct Design {
    int engine = 0, shields = 0, to_hit = 0, weapons = 0;

    constexpr int cost() const noexcept { return engine + shields + to_hit + 2 * weapons; }
    constexpr int offence() const noexcept { return to_hit + 2 * weapons; }  // offensive BPs
    constexpr int defence() const noexcept { return shields; }               // defensive BPs
    constexpr bool legal() const noexcept {
        const int c = cost();
        return engine >= 0 && shields >= 0 && to_hit >= 0 && weapons >= 0 && engine <= kMaxRating &&
               shields <= kMaxRating && to_hit <= kMaxRating && (c == 10 || c == 15 || c == 20);
    }
    constexpr bool operator==(const Design&) const = default;
};

// M2: every legal design, cheapest first, then by ENGINE, SHIELDS and TO-HIT: what a side may
// build (M4). design_index is a design's place in it, -1 for an illegal one.
inline constexpr int kDesigns = 311;
inline constexpr std::array<Design, kDesigns> kAllDesigns = [] {
    std::array<Design, kDesigns> out{};
    int n = 0;
    for (int cost : {10, 15, 20})
        for (int e = 0; e <= kMaxRating; ++e)
            for (int s = 0; s <= kMaxRating; ++s)
                for (int t = 0; t <= kMaxRating; ++t)
                    if (const int w2 = cost - e - s - t; w2 >= 0 && w2 % 2 == 0)
                        out[static_cast<std::size_t>(n++)] = Design{e, s, t, w2 / 2};
    return out;
}();
// Each legal design's place in kAllDesigns, by its ratings (weapons 0..10 for 20 BP).
inline constexpr int kMaxWeapons = 10;
inline constexpr auto kDesignIndex = [] {
    std::array<std::int16_t,
               (kMaxRating + 1) * (kMaxRating + 1) * (kMaxRating + 1) * (kMaxWeapons + 1)>
        out{};
    out.fill(-1);
    for (int i = 0; i < kDesigns; ++i) {
        const Design& d = kAllDesigns[static_cast<std::size_t>(i)];
        out[static_cast<std::size_t>(
            ((d.engine * (kMaxRating + 1) + d.shields) * (kMaxRating + 1) + d.to_hit) *
                (kMaxWeapons + 1) +
            d.weapons)] = static_cast<std::int16_t>(i);
    }
    return out;
}();
constexpr int design_index(const Design& d) noexcept {
    if (!d.legal()) return -1;
    return kDesignIndex[static_cast<std::size_t>(
        ((d.engine * (kMaxRating + 1) + d.shields) * (kMaxRating + 1) + d.to_hit) *
            (kMaxWeapons + 1) +
        d.weapons)];
}

// "E3S4T4W2": ENGINE, SHIELDS, TO-HIT, weapons; nullopt unless well formed and legal (M2).
std::optional<Design> parse_design(std::string_view text);
std::string to_string(const Design& d);

// The design doctrines of the policies, for a ship of `bp` (10, 15 or 20) BPs:
//   balanced      spread evenly, ENGINE 3
//   glass-cannon  all offence: TO-HIT 5, every other BP in weapons, ENGINE 2-3, no shields
//   turtle        all shields: SHIELDS 5, ENGINE 2, the rest to offence
//   fast          ENGINE 5, the rest split between shields and offence
enum class Doctrine { balanced, glass_cannon, turtle, fast };
Design doctrine_design(Doctrine d, int bp);
std::optional<Doctrine> parse_doctrine(std::string_view name);

// M7: Strategic Combat's numbers (the rule options combat.*): a die per 7 offensive BPs when
// attacking, per 3 defensive BPs when defending; each 5-6 of the attacker destroys a ship, each
// 5-6 of the defender cancels one.
struct CombatRules {
    int offense_bp_per_die = 7;
    int defense_bp_per_die = 3;
    FaceSet hits_on = FaceSet::range(5, 6);
    FaceSet saves_on = FaceSet::range(5, 6);
    constexpr bool operator==(const CombatRules&) const = default;
};

// M7: the dice a side rolls from its fleet's totals.
constexpr int attack_dice(int offence, const CombatRules& r = {}) noexcept {
    return offence / r.offense_bp_per_die;
}
constexpr int defence_dice(int defence, const CombatRules& r = {}) noexcept {
    return defence / r.defense_bp_per_die;
}

// M7: one attack: every hit (5-6) of the attacker destroys a ship, every save (5-6) of the
// defender cancels one. Returns the defender's losses (never below zero); the defender's policy
// picks which.
template <class Dice>
int resolve_attack(int offence, int defence, Dice& dice, const CombatRules& r = {}) {
    int hits = 0, saves = 0;
    for (int i = 0, n = attack_dice(offence, r); i < n; ++i) hits += r.hits_on.has(dice.d6());
    for (int i = 0, n = defence_dice(defence, r); i < n; ++i) saves += r.saves_on.has(dice.d6());
    return hits > saves ? hits - saves : 0;
}

}  // namespace odds::msc
