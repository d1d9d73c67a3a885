// Sequential tests of a mean: the generalized sequential probability ratio test (GSPRT) as
// fishtest uses it, with the normal approximation of the log-likelihood ratio. `odds check
// --sequential` tests each headline metric of a baseline for "unchanged" against "moved by at
// least its tolerance", and each line of a targets file for "met" against "missed"; both play in
// batches and stop once every test is decided (or at the playout cap).
//
// One one-sided test, H0: mean = mu0 against H1: mean = mu1, on an estimate m of the mean with
// variance v: LLR = (mu1 - mu0) (2 m - mu0 - mu1) / (2 v) (the log of the ratio of the two normal
// likelihoods). Wald's bounds: accept H1 when LLR >= ln((1 - beta) / alpha), accept H0 when LLR
// <= ln(beta / (1 - alpha)); alpha = P(accept H1 | H0), beta = P(accept H0 | H1). Batches only
// make the test overshoot its bounds, which lowers both error rates.
//
// A baseline check compares the new sample's mean with the baseline's: m = the shift new - old,
// v = var_old / n_old + var_new / n_new. Its score v^-1 m has the canonical joint distribution of
// group-sequential testing (independent increments in the information 1/v, although the
// baseline's part is fixed), so Wald's bounds hold as for one growing sample; the information is
// capped by the baseline's own size (1/v <= n_old / var_old), so a tolerance too small for the
// baseline stays inconclusive however many playouts are played.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "reports/compare.hpp"

namespace odds {

// Wald's bounds for one test.
struct SprtBounds {
    double alpha = 0.001, beta = 0.05;
    double lower() const;  // ln(beta / (1 - alpha)): at or below, accept H0
    double upper() const;  // ln((1 - beta) / alpha): at or above, accept H1
};

// The GSPRT's log-likelihood ratio of H1: mean = mu1 against H0: mean = mu0, for an estimate m
// with variance v (normal approximation). v = 0: +-infinity by the side m is on (0 at the
// midpoint).
double gsprt_llr(double m, double v, double mu0, double mu1);

enum class SprtState { open, h0, h1 };

// One one-sided test; once it reaches a bound it stays decided (later batches do not reopen it).
struct OneSided {
    double mu0 = 0, mu1 = 0;
    SprtBounds bounds;
    SprtState state = SprtState::open;
    double llr = 0;  // at the last update (frozen once decided)
    void update(double m, double v);
};

// The verdict of a family of one-sided tests on one estimate: h1 as soon as any accepts H1 (the
// bad hypothesis: moved, or a target missed), h0 when every one accepted H0, else open.
struct SequentialTest {
    std::vector<OneSided> sides;
    void update(double m, double v);
    SprtState state() const;
    // The test nearest to H1 (the largest LLR over the open or H1 sides; every side's when all
    // accepted H0): the LLR the report shows against its bounds.
    const OneSided& headline() const;
};

// "unchanged" (shift 0) against "moved by at least `tolerance`" either way: two one-sided tests,
// mu1 = +tolerance and mu1 = -tolerance, each at false-alarm rate alpha / 2 and miss rate beta.
SequentialTest shift_sequential(double tolerance, double alpha, double beta);

// A target on a mean, with an indifference margin: "at least c" is met when the mean is c +
// margin, missed when it is c - margin (H0 met, H1 missed: alpha is the rate of declaring a target
// missed that is met by the margin, beta of declaring one met that is missed by the margin);
// "at most c" mirrors it; "within a..b" is both, each at alpha / 2.
enum class TargetKind { at_least, at_most, within };
SequentialTest target_sequential(TargetKind kind, double a, double b, double margin, double alpha,
                                 double beta);

// The shift new - old of a baseline check and its variance var_old / n_old + var_new / n_new. A
// rate's variance is taken at (successes + 1/2) / (n + 1), so a rate seen at 0 or 1 still has
// some: one playout the other way is then not an infinite likelihood ratio.
struct ShiftEstimate {
    double shift = 0, var = 0;
};
ShiftEstimate shift_estimate(const Moments& old_m, const Moments& new_m, bool rate);
// A mean and its variance var / n, a rate's variance taken as above.
ShiftEstimate mean_estimate(const Moments& m, bool rate);

// Bonferroni: each of m tests at alpha / m keeps the family's false-alarm rate at most alpha
// (sequential tests that stop at different times leave Holm's step-down no fixed order).
double bonferroni(double alpha, std::size_t m);

// The smallest shift a fixed-size two-sided z test finds with probability 1 - beta at
// false-alarm rate alpha, with standard error se: (z_{1-alpha/2} + z_{1-beta}) se.
double detectable_shift(double se, double alpha, double beta);

// The playouts a fixed-size two-sided test of the shift against a baseline of n_old playouts
// (variance var_old) needs to find a true shift of `tolerance` with probability 1 - beta at
// false-alarm rate alpha, when the new sample has variance var_new: n with
// detectable_shift(sqrt(var_old / n_old + var_new / n), alpha, beta) = tolerance. Infinity when
// even infinitely many cannot (the baseline alone is too noisy); 0 when var_new is 0.
double fixed_playouts_needed(double tolerance, double var_old, double n_old, double var_new,
                             double alpha, double beta);

}  // namespace odds
