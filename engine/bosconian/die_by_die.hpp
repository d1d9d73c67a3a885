// Bosconian-D's rules die by die, written as the rule book reads (B5-B8), from the options'
// values: the reference the table-driven kernel (bosconian.hpp) is held to, die for die, under
// the book and under random variants (test_rules.cpp). Tests only: play never calls it.
#pragma once

#include <algorithm>

#include "engine/bosconian/bosconian.hpp"

namespace odds::bosconian::die_by_die {

// B7 with a variant's values, die by die in the book's order: the type die, the leader's number
// (rolled again on formation.leader_rerolled_on), then each fight: the targeting die while the
// leader and another remain, the missile's die, and its damage when it hits.
template <class Dice>
void formation_of(const Options& o, Counters& v, int hull, Dice& dice) {
    const bool i_type = o.formation_i_type.has(dice.d6());
    const FaceSet& destroyed_on = i_type ? o.i_missile_destroyed_on : o.p_missile_destroyed_on;
    const DiceExpr& damage = i_type ? o.i_missile_damage : o.p_missile_damage;
    int leader_number;
    do leader_number = dice.d6();
    while (o.formation_leader_rerolled_on.has(leader_number));
    int leader = 1, others = o.formation_missiles - 1;
    while (leader + others > 0) {
        const bool at_leader = leader && others > 0 ? dice.d6() == leader_number : leader == 1;
        const bool destroyed = destroyed_on.has(dice.d6());
        if (!destroyed) v.damage += damage.roll(dice);
        if (at_leader)
            leader = 0;  // destroyed, or spent
        else
            --others;
        if (v.damage >= hull || (at_leader && destroyed)) break;  // B3; the rest scatter
    }
}

// B5 with a variant's values, die by die in the book's order: the encounter die (its faces as
// the encounter.* options give them), the threat's d6, then its damage or alert dice.
template <class Dice>
void encounter_of(const Options& o, State& s, Counters& v, Dice& dice) {
    ++v.encounters;
    const int e = dice.d6();
    if (!o.encounter_any(e)) return;  // B5a: a face of no encounter, a quiet roll
    if (o.encounter_formation.has(e)) {
        formation_of(o, v, s.hull, dice);
        return;
    }
    const int d = dice.d6();
    if (o.encounter_spy_ship.has(e)) {
        if (!o.spy_ship_destroyed_on.has(d)) {
            v.alert += o.spy_ship_alert.roll(dice);  // B6
            ++v.alerts;
        }
        return;
    }
    const bool i = o.encounter_i_missile.has(e), c = o.encounter_cosmo_mine.has(e),
               p = o.encounter_p_missile.has(e);
    const FaceSet& destroyed_on = i   ? o.i_missile_destroyed_on
                                  : c ? o.cosmo_mine_destroyed_on
                                  : p ? o.p_missile_destroyed_on
                                      : o.asteroid_destroyed_on;
    const DiceExpr& damage = i   ? o.i_missile_damage
                             : c ? o.cosmo_mine_damage
                             : p ? o.p_missile_damage
                                 : o.asteroid_damage;
    if (!destroyed_on.has(d)) v.damage += damage.roll(dice);
}

// B8 with a variant's values, round by round in the book's order: the combat die (a cannon
// destroyed on base_combat.cannon_destroyed_on), the attack die (an E-type missile on
// base_attack.e_missile_on, else cannon fire), then the missile's die and damage, or the shots of
// every active cannon and the evasions of every cannon fired. Returns true when the base is
// destroyed.
template <class Dice>
bool base_combat_of(const Options& o, State& s, int cannons, Dice& dice) {
    int damage = s.damage;
    for (;;) {
        if (o.base_combat_cannon_destroyed_on.has(dice.d6())) {
            if (--cannons == 0) break;
            continue;
        }
        if (o.base_attack_e_missile_on.has(dice.d6())) {
            if (!o.e_missile_destroyed_on.has(dice.d6())) damage += o.e_missile_damage.roll(dice);
        } else {
            int shots = 0, evaded = 0;
            for (int i = 0; i < cannons; ++i) shots += o.cannon_fire_shots.roll(dice);
            for (int i = 0; i < cannons; ++i) evaded += o.cannon_fire_evaded.roll(dice);
            damage += std::max(shots - evaded, 0);
        }
        if (damage >= s.hull) {  // B3
            s.damage = damage;
            return false;
        }
    }
    s.damage = damage;
    return true;
}

// One whole mission (B1-B9) die by die: play_mission's order with the functions above.
template <class Dice>
Outcome play(const Options& o, Dice& dice) {
    State s;
    s.hull = o.hull;
    s.damage = o.start_damage;
    s.alert = o.start_alert;
    if (o.fixed_layout()) {
        s.bases = o.layout;
        s.out.bases_placed = std::popcount(o.layout);
    } else {
        const int count = o.bases.roll(dice);
        s.bases = place_bases(o.sectors, count, o.placement_gap, dice);
        s.out.bases_placed = count;
    }
    const int start_pos = o.lap_position(o.effective_start());
    for (int pos = 0; pos < start_pos; ++pos)
        s.bases &= ~(std::uint64_t{1} << (o.sector_at(pos) - 1));
    Counters v{s.damage, s.alert, 0, 0};
    int entered = 0;
    for (int pos = start_pos; s.bases != 0 && pos < o.sectors; ++pos) {
        const std::uint64_t here = std::uint64_t{1} << (o.sector_at(pos) - 1);
        ++entered;
        const bool alerted = v.alert > 0;
        v.alert -= alerted;
        if (s.bases & here) {
            s.damage = v.damage;
            if (base_combat_of(o, s, o.base_cannons, dice)) {
                s.bases &= ~here;
                ++s.out.bases_destroyed;
            }
            v.damage = s.damage;
        } else {
            encounter_of(o, s, v, dice);
            for (int k = 1; alerted && k < o.alert_encounters && v.damage < s.hull; ++k)
                encounter_of(o, s, v, dice);
        }
        if (v.damage >= s.hull) break;
    }
    s.damage = v.damage;
    s.out.sectors_entered = entered;
    s.out.encounters = v.encounters;
    s.out.alerts = v.alerts;
    s.out.won = s.bases == 0 && !s.ship_destroyed();
    s.out.damage = s.damage < o.hull ? s.damage : o.hull;
    return s.out;
}

}  // namespace odds::bosconian::die_by_die
