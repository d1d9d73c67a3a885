// Dimension Duel solved exactly: an absorbing Markov chain over (Tau's hit points, Kaon's hit
// points, whose attack), for any pair of policies that state their choices as probabilities.
//
// Each state's turn is enumerated (step-1 particles, step-2 regions, step-3 functions, each by the
// policies' laws), folded into at most 49 outcome classes (dice per side, multiplier, deflection,
// disruption, D3-D5), and spread over the damage dice into a law of (damage to Tau, damage to
// Kaon). The policies give few distinct class laws over all the states, so each damage law is
// built once and shared by the states that have it. Hit points never rise, so absorption
// probabilities come from one backward pass over hit-point pairs; a turn without damage links a
// pair's two states (who attacks), a 2x2 linear system solved with Eigen. The law of the game's
// length comes from a forward pass over turns, run until the mass still playing is below 1e-15
// (what is left is reported as unresolved), and the winner's hit points from the states'
// expected visits it counts; mass that reaches a state from which the duel can never end is a
// draw at max_turns (D6).
//
// single_use (D7) would add both players' used functions to the state; it is not solved.
#pragma once

#include <array>
#include <cstddef>
#include <memory>
#include <string>
#include <vector>

#include "engine/dimension_duel/policies.hpp"
#include "reports/exact_report.hpp"

namespace odds::exact::dimension_duel {

using odds::dimension_duel::Options;
using odds::dimension_duel::Policy;

struct Result {
    double tau_win = 0, kaon_win = 0, draw = 0;  // draw: both dead, or the turn cap
    double timeout = 0;                          // the part of draw that is the turn cap
    double expected_turns = 0;
    std::vector<double> turns;      // turns[t]: P(the duel lasts exactly t turns); turns[0] = 0
    std::vector<double> winner_hp;  // winner_hp[v]: P(the winner ends with v hit points); draw: 0
    double unresolved = 0;          // mass still playing when the forward pass stopped
};

inline constexpr int kMaxExactHp = 150;              // 45,000 states: about 0.6 s
inline constexpr int kBestResponseMinTurns = 10000;  // the default cap: it never binds

// What solve() and best_response() refuse, for odds list: "hp up to 150, single_use=false...".
std::string limits();
// Throws UsageError for single_use=true or hp above kMaxExactHp.
Result solve(const Options& o, const Policy& tau, const Policy& kaon);
// The same from a position (odds exact --state): `start` at the start of a turn, its hit points
// within 1..hp; the laws of turns count the turns played before it (r.turns[t] is 0 for every
// t up to start.turn).
Result solve_from(const Options& o, const Policy& tau, const Policy& kaon,
                  const odds::dimension_duel::State& start);

// The exact value of every state at the start of a turn, for a pair of policies: P(Tau wins) and
// P(draw) from (Tau's hp, Kaon's hp, who attacks), hp within 1..hp, by the backward pass solve()
// runs (its absorption probabilities, unchanged). The values plan as if the duel had no turn cap
// (so it refuses a max_turns below kBestResponseMinTurns, where the cap could bind), but for a
// state from which the duel can never end, or whose chance not to end is left over, which is a
// draw (D6), as solve() counts it. Refuses what solve() refuses.
struct ValueTable {
    int hp = 0;
    std::vector<double> tau_win, draw;  // by index(ht, hk, attacker)
    std::size_t index(int ht, int hk, odds::dimension_duel::Seat attacker) const {
        return static_cast<std::size_t>(((ht - 1) * hp + (hk - 1)) * 2 + attacker);
    }
    // Tau's expected score (a draw half) from a state at the start of a turn; an ended duel's is
    // its outcome: 1, 1/2 or 0.
    double tau_score(const odds::dimension_duel::State& s) const;
};
ValueTable values(const Options& o, const Policy& tau, const Policy& kaon);

// The best response of `seat` against `opponent` (the other seat): every choice maximises the
// exact probability that `seat` wins, planning as if the duel had no turn cap; so it refuses a
// max_turns below kBestResponseMinTurns (where the cap could bind), as it does hp above
// kMaxExactHp and single_use. Its functions are those restrict.SEAT leaves it (D2b).
std::shared_ptr<const odds::dimension_duel::BestResponseTable> best_response(
    const Options& o, odds::dimension_duel::Seat seat, const Policy& opponent);
// best-response in `seat` (its row needs_fixed_opponent): `mine`'s table solved against `other`.
void solve_against(const Options& o, std::size_t seat, Policy& mine, const Policy& other);

// odds exact dimension-duel (GameEntry::exact, ::exact_from): solve_from's law of every metric,
// the game's value where the equilibrium is solved (equilibrium.hpp), and the survival table.
void report(ExactReport& rep, const Options& o, const std::array<Policy, 2>& seats,
            const odds::dimension_duel::State& start);

}  // namespace odds::exact::dimension_duel
