// The outcome of a two-seat game played by turns (sides A and B): the first seven metrics of
// Minimal Space Combat and Naval Duel, under Ludii's names where it has them: who won, side A's
// score (AdvantageP1), turns, the share ended by the turn cap (Timeouts) and the share drawn
// before it (Drawishness). Dimension Duel reports the same under its seats' names.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "engine/metric.hpp"

namespace odds::versus {

enum Outcome : int {
    kAWin,
    kBWin,
    kDraw,
    kAdvantageFirst,
    kTurns,
    kTimeouts,
    kDrawishness,
    kOutcomeCount
};

// Their specs. `rule` is the ruling on how the game ends ("M8"); `draw` and `drawn_early` say
// what a draw, and a draw before the turn cap, are in this game.
inline std::vector<MetricSpec> outcome_specs(int max_turns, const std::string& rule,
                                             const std::string& draw,
                                             const std::string& drawn_early) {
    return {
        {"a_win", "side A won (" + rule + ")", MetricKind::rate, 0, 1},
        {"b_win", "side B won (" + rule + ")", MetricKind::rate, 0, 1},
        {"draw", "a draw: " + draw + " (" + rule + ")", MetricKind::rate, 0, 1},
        {"advantage_first", "side A's score: 1 a win, 1/2 a draw (P(A wins) + P(draw)/2)",
         MetricKind::count, 0, 2, 2},
        {"turns", "turns played", MetricKind::count, 1, max_turns},
        {"timeouts", "ended by max_turns (" + rule + ")", MetricKind::rate, 0, 1},
        {"drawishness", "a draw before max_turns: " + drawn_early + " (" + rule + ")",
         MetricKind::rate, 0, 1},
    };
}

// winner: 0 side A, 1 side B, -1 a draw; timeout: ended by the turn cap.
constexpr void outcome(int winner, int turns, bool timeout, std::int32_t* out) noexcept {
    out[kAWin] = winner == 0;
    out[kBWin] = winner == 1;
    out[kDraw] = winner == -1;
    out[kAdvantageFirst] = winner == 0 ? 2 : winner == -1 ? 1 : 0;  // halves (scale 2)
    out[kTurns] = turns;
    out[kTimeouts] = timeout;
    out[kDrawishness] = winner == -1 && !timeout;
}

}  // namespace odds::versus
