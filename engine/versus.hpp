// The outcome of a two-seat game played by turns (sides A and B): the first seven metrics of
// Minimal Space Combat and Naval Duel, under Ludii's names where it has them: who won, side A's
// score (AdvantageP1), turns, the share ended by the turn cap (Timeouts) and the share drawn
// before it (Drawishness). Dimension Duel reports the same under its seats' names.
#pragma once

#include <cstdint>
#include <string>

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

// Their rows, for the game's declare_metrics (engine/metric.hpp). `rule` is the ruling on how
// the game ends ("M8"); `draw` and `drawn_early` say what a draw, and a draw before the turn cap,
// are in this game. From what a playout ends with, r: winner(r), 0 side A, 1 side B, -1 a draw;
// turns(r); timeout(r), ended by the turn cap.
template <class M, class Winner, class Turns, class Timeout>
constexpr void outcome_rows(M& m, const char* rule, const char* draw, const char* drawn_early,
                            const Winner& winner, const Turns& turns, const Timeout& timeout) {
    const auto by = [rule](const char* what) {
        return [=] { return std::string(what) + " (" + rule + ")"; };
    };
    m(kAWin, "a_win", by("side A won"), MetricKind::rate, 0, 1,
      [=](const auto& r) { return winner(r) == 0; });
    m(kBWin, "b_win", by("side B won"), MetricKind::rate, 0, 1,
      [=](const auto& r) { return winner(r) == 1; });
    m(
        kDraw, "draw", [=] { return "a draw: " + std::string(draw) + " (" + rule + ")"; },
        MetricKind::rate, 0, 1, [=](const auto& r) { return winner(r) == -1; });
    m(
        kAdvantageFirst, "advantage_first",
        "side A's score: 1 a win, 1/2 a draw (P(A wins) + P(draw)/2)", counts("points"), 0, 2,
        [=](const auto& r) { return winner(r) == 0    ? 2
                                    : winner(r) == -1 ? 1
                                                      : 0; },  // halves
        2);
    m(
        kTurns, "turns", "turns played", counts("turns"), 1,
        [](const auto& o) { return o.max_turns; }, turns);
    m(kTimeouts, "timeouts", by("ended by max_turns"), MetricKind::rate, 0, 1, timeout);
    m(
        kDrawishness, "drawishness",
        [=] { return "a draw before max_turns: " + std::string(drawn_early) + " (" + rule + ")"; },
        MetricKind::rate, 0, 1, [=](const auto& r) { return winner(r) == -1 && !timeout(r); });
}

}  // namespace odds::versus
