// Skill or luck (issue 32; docs/skill.md): how much of a game's outcome the dice decide, against
// the policies that play it, from a ladder of policies played on common random numbers.
//
// The data: y[g * n + j], the outcome of game j of group g (a rung of a solo game's ladder, or an
// ordered pairing of a two-seat game's: the first seat's score, 1 a win, 1/2 a draw, 0 a loss),
// every group playing game j on the same dice. Draw a group at random (each alike) and a game:
// the outcome's variance V splits into the variance of the groups' true means (the policies':
// what choosing who plays changes) and the mean variance within a group (what the dice, and any
// coin a policy flips, change once the policies are fixed):
//
//   V = Vp + Vw,   Vp = (1/K) sum_g (mu_g - mu)^2,   Vw = (1/K) sum_g Var(y_g.)
//
// and the luck share is Vw / V: 1 for a game of pure luck (the policies change nothing), 0 for a
// game without chance (a pairing always ends alike). It is a property of the game on this ladder:
// a ladder of stronger or more varied policies has a larger Vp.
//
// Estimators (both unbiased): Vw by the mean of the groups' sample variances; Vp by the groups'
// squared deviations from the grand mean less each one's sampling variance, which on common
// random numbers is that of its deviation from each game's mean over the groups (the dice every
// group shares cancel), Vp = (1/K) sum_g [ (m_g - m)^2 - s^2(y_gj - c_j) / n ], floored at 0. The
// 95% interval is a percentile bootstrap over the games j (each resample keeps a game's outcomes
// in every group together, as the dice tie them; past 4,096 games, over blocks of consecutive
// games, at most 4,096 of them), seeded: the same data give the same interval.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "reports/stats.hpp"

namespace odds {

struct LuckShare {
    double share = 0;                // Vw / (Vw + Vp); NaN when the outcome never varies
    Interval ci;                     // 95%, percentile bootstrap over the games
    double within = 0, between = 0;  // the estimates of Vw and Vp
};

// groups x n outcomes, row by row; n >= 2, groups >= 2. Checks the stop flag between resamples
// (engine/stop.hpp: throws StopRequested).
LuckShare luck_share(std::span<const double> y, std::size_t groups, std::size_t n,
                     std::uint64_t seed = 1, int resamples = 1000);

// A solo ladder's step from rung b to rung a on the same games: the mean paired difference
// y_a - y_b with its 95% interval (normal, from the differences' standard error).
struct Step {
    double diff = 0;
    Interval ci;
    bool distinguishable() const { return ci.low > 0 || ci.high < 0; }
};
Step paired_step(std::span<const double> a, std::span<const double> b);

// A rung's strength on its ladder: its value with a 95% interval, and whether it is told apart at
// 95% from the rung just below it in strength.
struct Rung {
    double value = 0;
    Interval ci;
    bool apart_from_below = false;  // told apart from `below`
    // Its place by strength (1 the strongest), and the rung just weaker (-1: the weakest): the
    // neighbour apart_from_below speaks of.
    std::size_t strength = 0;
    int below = -1;
};
// A solo ladder: x holds k rungs x n games, row by row, every rung on the same games. Each rung's
// mean with its interval; neighbours in mean order are told apart when their paired difference's
// interval excludes 0.
std::vector<Rung> rate_rungs(std::span<const double> x, std::size_t k, std::size_t n);
// A two-seat ladder: for each ordered pairing, the games and the first seat's points (a win 1, a
// draw 1/2). Bradley-Terry ratings (reports/ratings.hpp); neighbours in rating order are told
// apart when their 95% intervals do not overlap.
struct PairingPoints {
    std::size_t a = 0, b = 0;  // the rungs in the first seat and in the second
    double games = 0, first = 0;
};
std::vector<Rung> rate_pairings(std::span<const PairingPoints> pairings, std::size_t k);
// The depth: the rungs told apart from the one below them.
int depth_of(std::span<const Rung> rungs);

}  // namespace odds
