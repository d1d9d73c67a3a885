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

inline constexpr int kMaxRating = 5;   // the most any ENGINE, SHIELDS or TO-HIT can be (M2)
inline constexpr int kMaxSizes = 3;    // ship sizes: 10, 15 and 20 BP in the book (M2)
inline constexpr int kMaxShipBp = 60;  // the largest size the options allow (M2)

// M2: Minimal Space Combat's ship costs (the rule options ships.*): ENGINE, SHIELDS and TO-HIT
// cost 1 BP a unit and never exceed 5; each weapon costs 2 BP; a ship totals 10, 15 or 20 BP.
// M5 (movement.hexes_per_engine): a fleet moves a hex per point of its lowest ENGINE. Play reads
// them from the State (State::ship_rules, copied from the options by the opening); the defaults
// are the book's.
struct ShipRules {
    int engine_bp = 1, shields_bp = 1, to_hit_bp = 1, weapon_bp = 2;
    int max_engine = kMaxRating, max_shields = kMaxRating, max_to_hit = kMaxRating;
    std::array<int, kMaxSizes> sizes{10, 15, 20};  // ascending; a repeated size counts once
    int hexes_per_engine = 1;
    constexpr bool operator==(const ShipRules&) const = default;

    constexpr bool size_legal(int bp) const noexcept {
        for (int z : sizes)
            if (z == bp) return true;
        return false;
    }
    constexpr int smallest() const noexcept { return sizes[0]; }
};
inline constexpr ShipRules kBookShips{};

struct Design {
    int engine = 0, shields = 0, to_hit = 0, weapons = 0;

    // Its BPs (M2); offensive BPs, those spent on TO-HIT and weapons; defensive, on SHIELDS.
    constexpr int cost(const ShipRules& r = kBookShips) const noexcept {
        return engine * r.engine_bp + shields * r.shields_bp + to_hit * r.to_hit_bp +
               weapons * r.weapon_bp;
    }
    constexpr int offence(const ShipRules& r = kBookShips) const noexcept {
        return to_hit * r.to_hit_bp + weapons * r.weapon_bp;
    }
    constexpr int defence(const ShipRules& r = kBookShips) const noexcept {
        return shields * r.shields_bp;
    }
    constexpr bool legal(const ShipRules& r = kBookShips) const noexcept {
        return engine >= 0 && shields >= 0 && to_hit >= 0 && weapons >= 0 &&
               engine <= r.max_engine && shields <= r.max_shields && to_hit <= r.max_to_hit &&
               r.size_legal(cost(r));
    }
    // The empty design slot (M2b): no ratings at all (no legal design: every size is 1 BP or more).
    constexpr bool empty() const noexcept { return *this == Design{}; }
    constexpr bool operator==(const Design&) const = default;
};

// M2: every legal design under `r`, cheapest first, then by ENGINE, SHIELDS and TO-HIT: what a
// side may build (M4). f(design, its cost) is called for each, in that order, until it returns
// false.
template <class F>
constexpr void for_each_design(const ShipRules& r, F f) {
    int last = 0;
    for (const int bp : r.sizes) {
        if (bp <= last) continue;  // a size repeated
        last = bp;
        // The BPs left for weapons only fall as a rating rises: a loop ends where they run out.
        for (int e = 0, le = bp; e <= r.max_engine && le >= 0; ++e, le -= r.engine_bp)
            for (int s = 0, ls = le; s <= r.max_shields && ls >= 0; ++s, ls -= r.shields_bp)
                for (int t = 0, w = ls; t <= r.max_to_hit && w >= 0; ++t, w -= r.to_hit_bp)
                    if (r.weapon_bp == 2 ? (w & 1) == 0 : w % r.weapon_bp == 0)
                        if (!f(Design{e, s, t, w / r.weapon_bp}, bp)) return;
    }
}
// The most legal designs of any ship rules: one a size for each ENGINE, SHIELDS and TO-HIT.
inline constexpr int kMaxDesignsLegal =
    kMaxSizes * (kMaxRating + 1) * (kMaxRating + 1) * (kMaxRating + 1);
// The book's legal designs (M2): 311.
inline constexpr int kDesigns = [] {
    int n = 0;
    for_each_design(kBookShips, [&](const Design&, int) { return ++n > 0; });
    return n;
}();
static_assert(kDesigns == 311);

// A design as a whole number (Choice::build) and back: each rating its bits (weapons up to 63).
constexpr int design_code(const Design& d) noexcept {
    return d.engine | d.shields << 3 | d.to_hit << 6 | d.weapons << 9;
}
constexpr Design design_of_code(int code) noexcept {
    return {code & 7, code >> 3 & 7, code >> 6 & 7, code >> 9 & 63};
}
static_assert(kMaxRating < 8 && kMaxShipBp < 64, "a design's code fits 15 bits");

// "E3S4T4W2": ENGINE, SHIELDS, TO-HIT, weapons; nullopt unless well formed and legal under `r`
// (M2).
std::optional<Design> parse_design(std::string_view text, const ShipRules& r = kBookShips);
std::string to_string(const Design& d);

// The design doctrines of the policies, for a ship of `bp` (10, 15 or 20) BPs:
//   balanced      spread evenly, ENGINE 3
//   glass-cannon  all offence: TO-HIT 5, every other BP in weapons, ENGINE 2-3, no shields
//   turtle        all shields: SHIELDS 5, ENGINE 2, the rest to offence
//   fast          ENGINE 5, the rest split between shields and offence
// Under other costs (the options ships.*) each keeps its fixed ratings where it can and fills the
// rest the same way; where that does not total `bp` exactly, it is the legal design of `bp`
// nearest those ratings; nullopt when no design of `bp` is legal.
enum class Doctrine { balanced, glass_cannon, turtle, fast };
std::optional<Design> doctrine_design(Doctrine d, int bp, const ShipRules& r);
Design doctrine_design(Doctrine d, int bp);  // the book's costs: always a legal design
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

// M7: the dice a side rolls from its fleet's totals. (The book's 7 and 3 divide by a constant,
// a multiplication, as before they were options: the test is always the same in a run.)
constexpr int attack_dice(int offence, const CombatRules& r = {}) noexcept {
    return r.offense_bp_per_die == 7 ? offence / 7 : offence / r.offense_bp_per_die;
}
constexpr int defence_dice(int defence, const CombatRules& r = {}) noexcept {
    return r.defense_bp_per_die == 3 ? defence / 3 : defence / r.defense_bp_per_die;
}

// k when the faces of a d6 in `f` are k..6 (k in 1..6); 0 for any other set.
constexpr int top_faces_from(const FaceSet& f) noexcept {
    for (int k = 1; k <= 6; ++k)
        if (f == FaceSet::range(k, 6)) return k;
    return 0;
}

// M7: one attack: every hit (5-6) of the attacker destroys a ship, every save (5-6) of the
// defender cancels one. Returns the defender's losses (never below zero); the defender's policy
// picks which.
template <class Dice>
int resolve_attack(int offence, int defence, Dice& dice, const CombatRules& r = {}) {
    // The faces are a d6's (combat.hits_on and saves_on). The faces from k to 6 (the book's 5-6)
    // are a comparison, as before they were options; any other set, a bit test.
    const auto count = [&](int n, const FaceSet& faces) {
        int c = 0;
        if (const int k = top_faces_from(faces); k > 0)
            for (int i = 0; i < n; ++i) c += dice.d6() >= k;
        else
            for (int i = 0; i < n; ++i) c += faces.has(dice.d6());
        return c;
    };
    const int hits = count(attack_dice(offence, r), r.hits_on);
    const int saves = count(defence_dice(defence, r), r.saves_on);
    return hits > saves ? hits - saves : 0;
}

}  // namespace odds::msc
