// Statistics of one metric from its distribution: exact integer counts (Monte Carlo) or exact
// probabilities (the exact solvers). Moments through Boost.Accumulators, weighted by the mass of
// each value; quantiles read exactly off the cumulative distribution; rates with Wilson 95%
// intervals.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "engine/metric.hpp"
#include "reports/tally.hpp"

namespace odds {

inline constexpr double kZ95 = 1.959963984540054;  // the standard normal's 97.5% point
// Unresolved mass at or below this is a converged solver's rounding: reported as none.
inline constexpr double kNegligible = 1e-12;

// The distribution of one metric: mass[i] is the count (or probability) of value lo + i.
// An exact solver may leave some probability unresolved (its value unknown): `unresolved`.
struct Distribution {
    MetricSpec spec;
    std::vector<double> mass;
    double unresolved = 0;
    double total() const;  // the mass, without the unresolved part
};

// One distribution per metric of a tally, in the tally's order.
std::vector<Distribution> distributions(const Tally& t, std::span<const MetricSpec> specs);

struct Interval {
    double low = 0, high = 0;
};

// Wilson score interval for `successes` out of `n` at normal quantile z.
Interval wilson(double successes, double n, double z = kZ95);

// The smallest value whose cumulative mass reaches percent/100 of the total (the inverse CDF).
double quantile(const Distribution& d, int percent);

// The value of bin i of a metric: (lo + i) / scale.
inline double value_of(const MetricSpec& m, std::size_t i) {
    return static_cast<double>(m.lo + static_cast<std::int32_t>(i)) / m.scale;
}

struct Summary {
    std::string metric;
    MetricKind kind = MetricKind::count;
    double n = 0;  // playouts (Monte Carlo) or total probability (exact)
    double mean = 0, stddev = 0, skewness = 0;  // NaN where not known
    Interval ci;  // 95%: Wilson for rates, mean +- z sd/sqrt(n) for counts; exact: the bounds
                  // of the mean, [mean, mean], or with unresolved mass the bounds it allows
    double unresolved = 0;
    // Exact with unresolved mass: the mean is not known, only its bounds (ci).
    bool bounded() const { return unresolved > kNegligible; }
    double min = 0, p05 = 0, p25 = 0, p50 = 0, p75 = 0, p95 = 0, max = 0;
};

// exact: the mass is a probability distribution; the interval collapses onto the value, and the
// standard deviation is the distribution's own (no n - 1 correction). With unresolved mass the
// mean is not known: it is NaN, and ci holds its bounds, the mean with that mass at the metric's
// lowest value (ci.low) and at its highest (ci.high); a quantile, min or max is given only where
// both placements agree, else NaN, and the standard deviation and skewness are NaN.
Summary summarize(const Distribution& d, bool exact);

// Two-seat games: the derived row `balance` = 1 - |P(first seat wins) - P(second seat wins)|,
// from the summaries of the two win metrics (named first_win, second_win) over n playouts (or
// exact). Its interval is the normal one for a difference of multinomial proportions; it has no
// quantiles (NaN). Exact with unresolved mass: the bounds the two rows' bounds allow, mean NaN.
std::optional<Summary> balance_row(const std::vector<Summary>& rows, const std::string& first_win,
                                   const std::string& second_win, double n, bool exact);

}  // namespace odds
