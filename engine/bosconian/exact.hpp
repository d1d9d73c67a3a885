// Bosconian-D solved exactly: a Markov chain over the state between sectors.
//
// Between two sectors the mission is (damage, alert): damage 0..hull-1 (the rows of an Eigen
// matrix), alert 0..sectors (its columns; an alert longer than the sectors left acts like one
// that lasts them all). Each sector maps that matrix linearly: a base fight convolves every column
// with the exact damage law of a whole fight (B8, a renewal equation per cannon count); an empty
// sector with one or two encounters (B5, B6, B7) convolves with the law of an encounter that
// raises no alert and shifts columns for the spy ships that escape. Damage at or past the hull is
// the ship's loss, counted in the sector where it happens (B3).
//
// Fixed layouts and mid-mission starts are exact. The random layout (B2) is scanned together
// with the play as a renewal process (bases ahead to place, distance from the last one): exact as
// long as placement never wraps past the last sector. Placements that wrap put bases in sectors
// the ship has already passed in that scan; their probability is computed exactly, but what they
// do to the mission is not: it is reported as `unresolved` mass, with the most it can add to the
// win probability bounded by `win_bound` (a win must survive every base fight ahead and an
// encounter in every empty sector up to the last base placed before the wrap: 3.4e-7 for the
// seed's mission).
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "engine/bosconian/bosconian.hpp"
#include "reports/exact_report.hpp"

namespace odds::exact::bosconian {

using odds::bosconian::Options;

struct MetricLaw {
    std::vector<double> mass;  // mass[v - lo]: the exactly resolved probability of value v
    double unresolved = 0;     // probability whose value is not resolved (wrapping layouts)
};

struct Result {
    // In the order of odds::bosconian::Metric: win, damage, sectors_entered, bases_placed,
    // bases_destroyed (encounters and alerts are not solved).
    MetricLaw win, damage, sectors_entered, bases_placed, bases_destroyed;
    std::vector<double> lost_at, won_at;  // by sectors entered: P(ship lost / mission won there)
    double p_wrap = 0;     // probability that the random layout wraps past the last sector
    double win_bound = 0;  // at most this much of p_wrap can be a win
};

inline constexpr int kMaxExactHull = 1000;  // dense hull x hull matrices: 8 MB each at 1000

// Throws UsageError for a hull above kMaxExactHull.
Result solve(const Options& o);

// P(win) between two sectors (odds shape): value of the mission about to enter the sector at lap
// position pos (first <= pos), with its damage and alert, for one layout of surviving bases. Past
// the last base: 1 (won). Damage at or past the hull is not a state (the ship is lost).
struct WinTable {
    int first = 0, positions = 0, hull = 0, cols = 0;
    std::vector<double> value;  // [pos - first][min(alert, sectors)][damage]
    double at(int pos, int damage, int alert) const {
        if (pos - first >= positions) return 1.0;
        const int a = alert < cols ? alert : cols - 1;
        return value[(static_cast<std::size_t>(pos - first) * static_cast<std::size_t>(cols) +
                      static_cast<std::size_t>(a)) *
                         static_cast<std::size_t>(hull) +
                     static_cast<std::size_t>(damage)];
    }
};
// The backward pass of the solver's Markov chain (the transpose of its sector maps), for any
// layout under one set of options: built once, tables for many layouts (thread-safe).
class MissionValues {
public:
    explicit MissionValues(const Options& o);  // throws UsageError for a hull above the limit
    ~MissionValues();
    MissionValues(const MissionValues&) = delete;
    MissionValues& operator=(const MissionValues&) = delete;
    // The table for surviving bases `bases` (bit s-1 for sector s), from lap position `first`.
    WinTable table(std::uint64_t bases, int first) const;

private:
    struct Impl;
    std::unique_ptr<Impl> impl_;
};

// What the report says of the wrapping layouts `r` leaves unresolved (p_wrap > 0): their
// probability and the bounds on P(win), one line under the table.
std::string unresolved_note(const Options& o, const Result& r);

// odds exact bosconian (GameEntry::exact): the laws of win, damage, sectors_entered and
// bases_placed; the survival table where every layout resolved, else the note above.
void report(ExactReport& r, const Options& o);

// The exact damage law of the pieces, truncated at `max_damage` (mass beyond it is dropped).
std::vector<double> encounter_law_without_alert(std::size_t max_damage);  // B5, B7
// The same under the options' tables (encounter.*, the threats' faces and dice, formation.*).
std::vector<double> encounter_law_without_alert(const Options& o, std::size_t max_damage);
std::vector<double> base_fight_law(int cannons, std::size_t max_damage);  // B8
// The same under the options' base combat (base_combat.*, base_attack.*, e_missile.*,
// cannon_fire.*).
std::vector<double> base_fight_law(const Options& o, int cannons, std::size_t max_damage);

}  // namespace odds::exact::bosconian
