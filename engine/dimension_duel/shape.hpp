// The shape of a duel along its length (issue 32, section 3): Tau's exact win probability at the
// start of every turn of sampled duels, and the measures Ludii defines on such a sequence (lead
// changes, drama, decisiveness), with the comeback rate.
//
// The sequence. A duel of T turns has states s_0 (the opening) .. s_T (the end), each at the start
// of a turn. p_t = P(Tau wins) + P(draw)/2 from s_t, by the exact value table
// (exact::dimension_duel::values), for the policies that play the duel; p_T is the outcome: 1,
// 1/2 or 0. Ludii's evaluation of player 1 is p_t here, of player 2 1 - p_t (a probability in
// [0, 1]; Ludii's heuristic evaluations are in [-1, 1], so its differences are twice ours).
// Like Ludii, which evaluates the state before each real move (trial.generateRealMovesList()), the
// measures read the states before each turn, s_0 .. s_{T-1}: Ludii's move is our turn. The winner
// is Ludii's "highest ranked players" (Utils.highestRankedPlayers): the side that won, or both
// after a draw (D6).
//
// The measures of one duel (Ludeme/Ludii, Evaluation/src/metrics/):
//   leaders(t)      the sides whose evaluation at s_t is the highest: {Tau} if p_t > 1/2, {Kaon}
//                   if p_t < 1/2, both if p_t = 1/2 (single/stateEvaluation/LeadChange.java).
//   lead_changes    the number of t in 1..T-1 with leaders(t) != leaders(t-1).
//   lead_change     Ludii's LeadChange: its count starts from an empty set of past leaders, so
//                   the opening always counts as one change, divided by the number of moves:
//                   (1 + lead_changes) / T. A duel without a lead change has 1/T.
//   drama(t)        the highest evaluation at s_t minus the winner's (averaged over the winners
//                   after a draw): max(p_t, 1 - p_t) - p_w(t), where p_w is the winner's
//                   evaluation; 0 while the eventual winner leads (multiple/metrics/Drama.java).
//   drama           Ludii's Drama Average: the mean of drama(t) over t = 0..T-1
//                   (MultiMetricFramework.metricAverage); drama_max its Drama Max (metricMax).
//   threshold       Ludii's DecisivenessThreshold: the highest evaluation any non-winner has at
//                   s_0..s_{T-1}; -1 (Ludii's floor) after a draw, where nobody is a non-winner
//                   (single/stateEvaluation/decisiveness/DecisivenessThreshold.java).
//   decisiveness    Ludii's DecisivenessMoves: the first t in 0..T-1 at which a winner's
//                   evaluation exceeds the threshold, T if none, divided by T
//                   (DecisivenessMoves.java). Ludii's code divides the two as Java ints, which
//                   truncates every value below 1 to 0; we divide as reals, what its
//                   description ("percentage number of moves") says. It is the first time the
//                   winner is above every value the loser ever had, not a point after which the
//                   winner stays above it. After a draw it is 0 (threshold -1).
//   behind_at_half  the side with p < 1/2 at turn floor(T/2) of the duel's own length (Tau if
//                   p < 1/2, Kaon if p > 1/2, nobody at exactly 1/2).
//   comeback        that side won.
// Over N duels each measure is the mean of the duels' values (as Ludii averages over trials); the
// comeback rate is comebacks / duels with a side behind at half-time.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "engine/dimension_duel/exact.hpp"

namespace odds::dimension_duel::shape {

struct GameShape {
    int turns = 0;    // T
    int winner = -1;  // kTau, kKaon, -1 a draw
    int lead_changes = 0;
    double lead_change = 0;   // Ludii's LeadChange: (1 + lead_changes) / T
    double drama = 0;         // Ludii's Drama Average
    double drama_max = 0;     // Ludii's Drama Max
    double threshold = -1;    // Ludii's DecisivenessThreshold
    double decisiveness = 0;  // Ludii's DecisivenessMoves, as reals
    int behind_at_half = -1;  // kTau, kKaon, -1 nobody
    bool comeback = false;
};

// The measures of one duel from p_0 .. p_T (T >= 1 turns; p_T is the outcome) and its winner.
GameShape measure(std::span<const double> p, int winner);

// One duel's p_0 .. p_T and outcome, sampled with the kernel's own turn (play_turn).
struct Trace {
    std::vector<double> p;
    int winner = -1;
    int turns = 0;
};

struct Summary {
    std::uint64_t games = 0;
    double lead_changes = 0, lead_change = 0, drama = 0, drama_max = 0, threshold = 0,
           decisiveness = 0;  // means over the duels
    double turns = 0;         // the mean length
    std::uint64_t behind_at_half = 0, comebacks = 0;
    double comeback_rate() const {
        return behind_at_half == 0
                   ? 0.0
                   : static_cast<double>(comebacks) / static_cast<double>(behind_at_half);
    }
};

// N duels between `tau` and `kaon`, duel i rolled by Dice(stream_seed(seed, i)) (as the runner's
// play_each rolls game i), one copy of each policy for all of them; p_t from `table` (values() for
// the same options and policies). Deterministic for a seed. Refuses what values() refuses.
Summary sample(const Options& o, const Policy& tau, const Policy& kaon,
               const exact::dimension_duel::ValueTable& table, std::uint64_t seed,
               std::uint64_t games);
// Duel i of sample()'s: its trace.
Trace trace(const Options& o, const Policy& tau, const Policy& kaon,
            const exact::dimension_duel::ValueTable& table, std::uint64_t seed, std::uint64_t i);

}  // namespace odds::dimension_duel::shape
