// The shape of a game along its length (issue 32, section 3; docs/skill.md, "The shape of a
// game"), for any game: the measures of one game's sequence of win probabilities, and a tally of
// many games that merges in any grouping (the runner's chunks), with the fan of quantiles by step.
//
// The sequence. A game of T steps (turns, or a solo game's sectors) has p_0 .. p_T: p_t the
// probability, at the start of step t, that seat 0 wins (a draw counts one half) or, in a solo
// game, that the game succeeds; p_T is the outcome (1, 1/2 or 0). Where p_t comes from (an exact
// value table, or rollouts) is the game's business (sim/shape_run.hpp); these functions only read
// the sequence.
//
// Two seats: Ludii's measures (engine/dimension_duel/shape.hpp writes the definitions out, with
// the Ludii files they come from; measure_two computes the same ones) and the comeback rate.
// One seat: the point of no return, the first step t from which the outcome that happened was
// known to 95% at every later step: p_u >= 0.95 for every u in t..T after a success, p_u <= 0.05
// after a failure. 0: known from the start; T: only the end told.
#pragma once

#include <array>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <vector>

namespace odds::shape {

inline constexpr double kKnown = 0.95;  // the point of no return's certainty
inline constexpr int kFanBins = 101;    // p on the fan, to the hundredth
inline constexpr int kFanSteps = 500;   // the steps the fan follows (a longer game: not past it)

// What one odds shape run is asked.
struct Config {
    std::uint64_t seed = 1;
    std::uint64_t games = 0;
    unsigned threads = 1;
    int rollouts = 64;  // rollouts a step, for a game without an exact value (the estimator)
    bool force_rollouts = false;  // rollouts even where the game has exact values
    bool force_exact = false;     // exact values or a UsageError (--estimator exact)
    std::function<void(std::uint64_t)> progress;  // games done, called now and then (may be empty)
};

// One two-seat game (Ludii's measures; engine/dimension_duel/shape.hpp defines each).
struct TwoSeat {
    int turns = 0;    // T
    int winner = -1;  // 0 seat 0, 1 seat 1, -1 a draw
    int lead_changes = 0;
    double lead_change = 0, drama = 0, drama_max = 0, threshold = -1, decisiveness = 0;
    int behind_at_half = -1;  // 0, 1, -1 nobody
    bool comeback = false;
};
// p_0 .. p_T for seat 0 (T >= 1); the winner is read from p_T (1, 0, else a draw).
TwoSeat measure_two(std::span<const double> p);

// One solo game.
struct Solo {
    int steps = 0;  // T
    bool success = false;
    int no_return = 0;  // the point of no return, 0..T
};
Solo measure_solo(std::span<const double> p);

// One quantile row of the fan: step t, the games it holds and p's quantiles there.
struct FanRow {
    int step = 0;
    std::uint64_t running = 0;  // games that reach step t (the others ended: at their outcome)
    std::array<double, 5> q{};  // 10%, 25%, 50%, 75%, 90%
};
inline constexpr std::array<double, 5> kFanQuantiles = {0.10, 0.25, 0.50, 0.75, 0.90};

// A measure for the table and shape.csv.
struct Measure {
    std::string name;
    double value = 0;
    std::string meaning;
};

// Many games, summed; merge() adds another tally (of later games: the runner merges chunks in
// order, so the sums are the same for any number of threads).
struct Tally {
    bool solo = false;
    int rollouts = 0;  // the estimator's rollouts a step (0: exact), for its standard error
    std::uint64_t games = 0;
    double steps = 0, p_start = 0, outcome = 0;
    // two seats
    double lead_changes = 0, lead_change = 0, drama = 0, drama_max = 0, threshold = 0,
           decisiveness = 0;
    std::uint64_t behind_at_half = 0, comebacks = 0;
    // one seat
    double no_return = 0, no_return_share = 0, no_return_success = 0;       // sums (the last: of
    std::uint64_t decided_at_start = 0, decided_at_end = 0, successes = 0;  // the successes)
    std::vector<std::uint64_t> no_return_at;  // games by their point of no return's step
    // the estimator: the sum of the estimates' standard errors, and how many there were
    double se_sum = 0;
    std::uint64_t estimates = 0;
    // the fan: hist[t][b] games running at step t with p_t in bin b (p to the hundredth), and
    // ended[T][k] games that ended at step T with outcome k (0 loss, 1 draw, 2 win)
    std::vector<std::array<std::uint64_t, kFanBins>> hist;
    std::vector<std::array<std::uint64_t, 3>> ended;

    void add(std::span<const double> p);
    void merge(const Tally& o);
    // The measures' means (and rates), in the order of the table.
    std::vector<Measure> measures() const;
    // p's quantiles by step, 0 .. the longest game (at most kFanSteps); a game that ended counts
    // at its outcome from then on.
    std::vector<FanRow> fan() const;
    double mean_se() const { return estimates ? se_sum / static_cast<double>(estimates) : 0.0; }
};

// shape.csv's and fan.csv's text (docs/output.md).
// `partial`: stopped before every game was played (status partial, else complete).
std::string shape_csv(const Tally& t, const std::string& game, const std::string& scenario,
                      const std::string& policy, std::uint64_t seed, bool partial = false);
std::string fan_csv(const Tally& t, const std::string& game, const std::string& scenario,
                    const std::string& policy, std::uint64_t seed, bool partial);

}  // namespace odds::shape
