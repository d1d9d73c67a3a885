#include "reports/stats.hpp"

#include <boost/accumulators/accumulators.hpp>
#include <boost/accumulators/statistics/stats.hpp>
#include <boost/accumulators/statistics/weighted_mean.hpp>
#include <boost/accumulators/statistics/weighted_skewness.hpp>
#include <boost/accumulators/statistics/weighted_variance.hpp>
#include <cmath>

namespace odds {

namespace acc = boost::accumulators;

double Distribution::total() const {
    double s = 0;
    for (double m : mass) s += m;
    return s;
}

std::vector<Distribution> distributions(const Tally& t, std::span<const MetricSpec> specs) {
    std::vector<Distribution> out;
    for (std::size_t m = 0; m < t.metric_count(); ++m) {
        const auto c = t.counts(m);
        out.push_back({specs[m], std::vector<double>(c.begin(), c.end())});
    }
    return out;
}

Interval wilson(double successes, double n, double z) {
    if (n <= 0) return {0, 1};
    const double p = successes / n;
    const double z2 = z * z;
    const double denom = 1 + z2 / n;
    const double centre = (p + z2 / (2 * n)) / denom;
    const double half = z / denom * std::sqrt(p * (1 - p) / n + z2 / (4 * n * n));
    return {std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

double quantile(const Distribution& d, int percent) {
    const double total = d.total();
    double cum = 0;
    for (std::size_t i = 0; i < d.mass.size(); ++i) {
        cum += d.mass[i];
        // cum / total >= percent / 100, compared without dividing (exact for integer counts).
        if (d.mass[i] > 0 && cum * 100 >= percent * total) return value_of(d.spec, i);
    }
    return static_cast<double>(d.spec.hi) / d.spec.scale;
}

Summary summarize(const Distribution& d, bool exact) {
    Summary s;
    s.metric = d.spec.name;
    s.kind = d.spec.kind;
    acc::accumulator_set<double,
                         acc::stats<acc::tag::weighted_mean, acc::tag::weighted_variance,
                                    acc::tag::weighted_skewness>,
                         double>
        a;
    // Unresolved mass (exact solvers only) sits at the lowest value: the figures are lower bounds.
    Distribution low = d;
    if (d.unresolved > 1e-12) {  // below that, rounding noise of a converged solver
        if (low.mass.empty()) low.mass.assign(1, 0.0);
        low.mass[0] += d.unresolved;
        low.unresolved = 0;
    }
    s.unresolved = d.unresolved;
    bool any = false;
    for (std::size_t i = 0; i < low.mass.size(); ++i) {
        if (low.mass[i] <= 0) continue;
        const double v = value_of(d.spec, i);
        if (!any) s.min = v;
        s.max = v;
        any = true;
        a(v, acc::weight = low.mass[i]);
    }
    s.n = low.total();
    if (!any) return s;
    s.mean = acc::weighted_mean(a);
    const double var = std::max(0.0, static_cast<double>(acc::weighted_variance(a)));
    s.skewness = var > 0 ? static_cast<double>(acc::weighted_skewness(a)) : 0.0;
    if (exact) {
        s.stddev = std::sqrt(var);
        s.ci = {s.mean,
                s.mean + d.unresolved * static_cast<double>(d.spec.hi - d.spec.lo) / d.spec.scale};
    } else {
        s.stddev = s.n > 1 ? std::sqrt(var * s.n / (s.n - 1)) : 0.0;
        if (s.kind == MetricKind::rate)
            s.ci = wilson(s.mean * s.n, s.n);
        else
            s.ci = {s.mean - kZ95 * s.stddev / std::sqrt(s.n),
                    s.mean + kZ95 * s.stddev / std::sqrt(s.n)};
    }
    s.p05 = quantile(low, 5);
    s.p25 = quantile(low, 25);
    s.p50 = quantile(low, 50);
    s.p75 = quantile(low, 75);
    s.p95 = quantile(low, 95);
    return s;
}

}  // namespace odds
