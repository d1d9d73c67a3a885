// Comparing two samples of a metric: a two-sample z test on the means (Welch's standard error),
// used by `odds check` in its statistical mode.
#pragma once

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

}  // namespace odds
