// Comparing samples of a metric: a two-sample z test on the means (Welch's standard error), used
// by `odds check` in its statistical mode; paired differences with Student's t, and Holm's
// adjustment of many p-values, used by `odds compare`.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "reports/stats.hpp"

namespace odds {

struct Moments {
    double n = 0, mean = 0, var = 0;  // var: the sample variance (n - 1)
};
Moments moments(const Distribution& d);

struct ShiftTest {
    double diff = 0;        // b.mean - a.mean
    double se = 0;          // sqrt(var_a / n_a + var_b / n_b)
    double threshold = 0;   // |diff| above this is a shift: z_crit * se
    double detectable = 0;  // the shift found with probability 80%: (z_crit + z_0.8) * se
    bool moved = false;
};

// Two-sided test at false-alarm rate alpha.
ShiftTest shift_test(const Moments& a, const Moments& b, double alpha);

// The paired differences d = a - b of one metric over playouts played on the same dice (common
// random numbers), as exact integer sums in the metric's stored units: chunks merge exactly.
struct PairSums {
    std::int64_t sum = 0;
    std::int64_t sum_sq = 0;
    void add(std::int64_t d) noexcept {
        sum += d;
        sum_sq += d * d;
    }
    void merge(const PairSums& other) noexcept {
        sum += other.sum;
        sum_sq += other.sum_sq;
    }
};

// The mean paired difference over n pairs, its 95% interval by Student's t with n - 1 degrees of
// freedom, and the two-sided p-value of "no difference" (paired t test), in the metric's units
// (stored units / scale). With no spread at all the p-value is 1 for a zero difference, else 0.
// No pairs: all zero, p 1; one pair: no interval (-inf, inf), p 1.
// A p-value below the smallest normal double (DBL_MIN, about 2.2e-308; 0 when it underflows)
// is not held by a double: p_below says so, and the files write it as the bound 1e-300 (a number)
// with their p_below column true.
struct PairedDifference {
    double diff = 0, low = 0, high = 0, p = 1;
    bool p_below = false;
};
inline constexpr const char* kPBound = "1e-300";
PairedDifference paired_difference(const PairSums& sums, std::uint64_t n, double scale = 1);

// Holm's step-down adjustment of m p-values, which holds the family-wise error rate: sorted
// ascending (ties in input order), the i-th smallest (from 0) becomes min(1, (m - i) p), raised
// to the largest adjusted value before it. Returned in the input order.
std::vector<double> holm(std::span<const double> p);

}  // namespace odds
