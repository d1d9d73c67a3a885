// The sequential tests of `odds check --sequential` (reports/sequential): their arithmetic, and
// their error rates measured by simulation of the very code the command runs, on Bernoulli
// playouts drawn with a fixed seed.
//
// How many repetitions: a rate r measured over R repetitions has standard error
// sqrt(r (1 - r) / R). To tell the nominal rate a from twice it, the acceptance bound a + 4 se(a)
// must lie below 2a - 4 se(2a): sqrt(R) >= 4 (sqrt(a (1 - a)) + sqrt(2a (1 - 2a))) / a, which for
// a = 0.05 is R >= 1716. R = 2000 at a = 0.05 for both rates (the false-alarm rate of the command
// is 0.001, too small to measure quickly; the bounds are the same formula at any alpha).
#include <catch2/catch.hpp>
#include <cmath>
#include <random>

#include "reports/sequential.hpp"

using namespace odds;

TEST_CASE("GSPRT log-likelihood ratio and Wald's bounds", "[sequential]") {
    // Normal likelihoods: ln N(m; mu1, v) / N(m; mu0, v) = ((m-mu0)^2 - (m-mu1)^2) / (2v).
    const double m = 0.3, v = 0.01, mu0 = 0.2, mu1 = 0.5;
    const double direct = ((m - mu0) * (m - mu0) - (m - mu1) * (m - mu1)) / (2 * v);
    CHECK(gsprt_llr(m, v, mu0, mu1) == Approx(direct));
    CHECK(gsprt_llr(0.5, 0, 0.0, 1.0) == 0);  // the midpoint, no spread
    CHECK(std::isinf(gsprt_llr(0.4, 0, mu0, mu1)));
    const SprtBounds b{0.001, 0.05};
    CHECK(b.upper() == Approx(std::log(0.95 / 0.001)));
    CHECK(b.lower() == Approx(std::log(0.05 / 0.999)));
    CHECK(bonferroni(0.001, 4) == Approx(0.00025));
}

TEST_CASE("a one-sided test stays decided once it reaches a bound", "[sequential]") {
    SequentialTest t = shift_sequential(0.1, 0.01, 0.05);
    REQUIRE(t.sides.size() == 2);
    CHECK(t.sides[0].bounds.alpha == Approx(0.005));
    t.update(0.0, 1e-6);  // both sides far below their lower bounds: unchanged
    CHECK(t.state() == SprtState::h0);
    t.update(0.2, 1e-6);  // a later batch cannot reopen them
    CHECK(t.state() == SprtState::h0);
    SequentialTest u = shift_sequential(0.1, 0.01, 0.05);
    u.update(-0.15, 1e-4);  // the downward side accepts "moved"
    CHECK(u.state() == SprtState::h1);
    CHECK(u.headline().mu1 == Approx(-0.1));
}

TEST_CASE("targets: at least, at most, within", "[sequential]") {
    SequentialTest t = target_sequential(TargetKind::within, 0.47, 0.53, 0.01, 0.002, 0.05);
    REQUIRE(t.sides.size() == 2);
    t.update(0.50, 1e-6);
    CHECK(t.state() == SprtState::h0);  // met
    SequentialTest u = target_sequential(TargetKind::at_least, 0.25, 0, 0.01, 0.001, 0.05);
    u.update(0.20, 1e-6);
    CHECK(u.state() == SprtState::h1);  // missed
    SequentialTest w = target_sequential(TargetKind::at_most, 60, 0, 1, 0.001, 0.05);
    w.update(59.99, 1.0);  // too noisy to say
    CHECK(w.state() == SprtState::open);
}

TEST_CASE("fixed-size test: detectable shift and playouts needed", "[sequential]") {
    // z_{0.9995} + z_{0.95} = 3.2905 + 1.6449.
    CHECK(detectable_shift(1.0, 0.001, 0.05) == Approx(3.2905 + 1.6449).epsilon(1e-4));
    // Equal variances: the baseline's own size detects its own detectable shift.
    const double se = std::sqrt(2.0 * 0.25 / 10000);
    const double x = detectable_shift(se, 0.001, 0.05);
    CHECK(fixed_playouts_needed(x, 0.25, 10000, 0.25, 0.001, 0.05) == Approx(10000).epsilon(1e-3));
    CHECK(std::isinf(fixed_playouts_needed(x / 2, 0.25, 10000, 0.25, 0.001, 0.05)));
}

namespace {

struct Rates {
    int h1 = 0, h0 = 0, open = 0;
    double playouts = 0;
};

// R repetitions of a baseline check of a Bernoulli rate: a baseline of n_old playouts at p_old,
// then batches of `batch` at p_new up to `cap`, through shift_estimate and shift_sequential as
// `odds check --sequential` calls them.
Rates simulate_check(double p_old, double p_new, double tolerance, double alpha, double beta,
                     int reps, std::uint64_t seed) {
    constexpr std::uint64_t n_old = 20000, batch = 1000, cap = 80000;
    std::mt19937_64 rng(seed);
    Rates r;
    for (int i = 0; i < reps; ++i) {
        const double k_old =
            static_cast<double>(std::binomial_distribution<std::uint64_t>(n_old, p_old)(rng));
        const Moments old_m{static_cast<double>(n_old), k_old / n_old, 0};
        SequentialTest t = shift_sequential(tolerance, alpha, beta);
        double k = 0, n = 0;
        while (t.state() == SprtState::open && n < cap) {
            k += static_cast<double>(std::binomial_distribution<std::uint64_t>(batch, p_new)(rng));
            n += batch;
            const Moments new_m{n, k / n, 0};
            const ShiftEstimate e = shift_estimate(old_m, new_m, true);
            t.update(e.shift, e.var);
        }
        r.playouts += n;
        (t.state() == SprtState::h1 ? r.h1 : t.state() == SprtState::h0 ? r.h0 : r.open) += 1;
    }
    return r;
}

// Within 4 standard errors above the nominal rate (and so, by R's derivation, below twice it).
bool at_most_nominal(int hits, int reps, double nominal) {
    const double se = std::sqrt(nominal * (1 - nominal) / reps);
    return static_cast<double>(hits) / reps <= nominal + 4 * se;
}

}  // namespace

TEST_CASE("sequential check: false-alarm and miss rates by simulation", "[sequential][error]") {
    constexpr int kReps = 2000;
    constexpr double alpha = 0.05, beta = 0.05, p = 0.3;
    // The tolerance a fixed test of the baseline's 20000 playouts detects at these rates.
    const double tol = detectable_shift(std::sqrt(2 * p * (1 - p) / 20000), alpha, beta);
    const Rates null = simulate_check(p, p, tol, alpha, beta, kReps, 11);
    INFO("unchanged: " << null.h1 << " false alarms, " << null.h0 << " passed, " << null.open
                       << " inconclusive");
    CHECK(at_most_nominal(null.h1, kReps, alpha));
    CHECK(null.open < kReps / 20);  // the cap is seldom reached
    const Rates moved = simulate_check(p, p + tol, tol, alpha, beta, kReps, 12);
    INFO("moved by the tolerance: " << moved.h0 << " missed, " << moved.h1 << " found, "
                                    << moved.open << " inconclusive");
    CHECK(at_most_nominal(moved.h0, kReps, beta));
    // And it needs fewer playouts on average than the fixed test at the same rates (20000).
    CHECK(null.playouts / kReps < 20000);
}

TEST_CASE("the simulation can tell a broken test: doubled alpha shows", "[sequential][error]") {
    // The same simulation, the test run at 4x the nominal false-alarm rate: its rate exceeds
    // the nominal's acceptance bound, so the check above can fail.
    constexpr int kReps = 2000;
    constexpr double alpha = 0.05, beta = 0.05, p = 0.3;
    const double tol = detectable_shift(std::sqrt(2 * p * (1 - p) / 20000), alpha, beta);
    const Rates loose = simulate_check(p, p, tol, 4 * alpha, beta, kReps, 13);
    CHECK_FALSE(at_most_nominal(loose.h1, kReps, alpha));
}

namespace {

// R repetitions of a target "rate at least c" (margin m) on Bernoulli(p) playouts in batches, as
// `odds check` runs a targets file: the counts of "missed" (h1), "met" (h0) and open at the cap.
Rates simulate_target(double c, double m, double p, double alpha, double beta, int reps,
                      std::uint64_t seed) {
    constexpr std::uint64_t batch = 500, cap = 200000;
    std::mt19937_64 rng(seed);
    Rates r;
    for (int i = 0; i < reps; ++i) {
        SequentialTest t = target_sequential(TargetKind::at_least, c, 0, m, alpha, beta);
        double k = 0, n = 0;
        while (t.state() == SprtState::open && n < cap) {
            k += static_cast<double>(std::binomial_distribution<std::uint64_t>(batch, p)(rng));
            n += batch;
            const ShiftEstimate e = mean_estimate(Moments{n, k / n, 0}, true);
            t.update(e.shift, e.var);
        }
        r.playouts += n;
        (t.state() == SprtState::h1 ? r.h1 : t.state() == SprtState::h0 ? r.h0 : r.open) += 1;
    }
    return r;
}

}  // namespace

TEST_CASE("targets: false-alarm and miss rates by simulation", "[sequential][error]") {
    // A target met by its margin is declared missed at most at alpha; one missed by its margin
    // declared met at most at beta (R = 2000 as derived at the top).
    constexpr int kReps = 2000;
    constexpr double alpha = 0.05, beta = 0.05, c = 0.25, m = 0.01;
    const Rates met = simulate_target(c, m, c + m, alpha, beta, kReps, 21);
    INFO("met by the margin: " << met.h1 << " declared missed, " << met.open << " open");
    CHECK(at_most_nominal(met.h1, kReps, alpha));
    const Rates missed = simulate_target(c, m, c - m, alpha, beta, kReps, 22);
    INFO("missed by the margin: " << missed.h0 << " declared met, " << missed.open << " open");
    CHECK(at_most_nominal(missed.h0, kReps, beta));
    CHECK(met.open + missed.open < kReps / 20);
}
