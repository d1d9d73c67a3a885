#include "reports/stats.hpp"

#include <algorithm>
#include <boost/accumulators/accumulators.hpp>
#include <boost/accumulators/statistics/stats.hpp>
#include <boost/accumulators/statistics/weighted_mean.hpp>
#include <boost/accumulators/statistics/weighted_skewness.hpp>
#include <boost/accumulators/statistics/weighted_variance.hpp>
#include <cmath>
#include <limits>

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
    // At the ends the interval reaches 0 (no successes) or 1 (all): exactly, not centre - half's
    // rounding (1e-19 for a zero).
    return {successes <= 0 ? 0.0 : std::max(0.0, centre - half),
            successes >= n ? 1.0 : std::min(1.0, centre + half)};
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

namespace {
// Moments and quantiles of a distribution with no unresolved mass.
Summary summarize_resolved(const Distribution& d, bool exact) {
    Summary s;
    s.metric = d.spec.name;
    s.kind = d.spec.kind;
    acc::accumulator_set<double,
                         acc::stats<acc::tag::weighted_mean, acc::tag::weighted_variance,
                                    acc::tag::weighted_skewness>,
                         double>
        a;
    bool any = false;
    for (std::size_t i = 0; i < d.mass.size(); ++i) {
        if (d.mass[i] <= 0) continue;
        const double v = value_of(d.spec, i);
        if (!any) s.min = v;
        s.max = v;
        any = true;
        a(v, acc::weight = d.mass[i]);
    }
    s.n = d.total();
    if (!any) {
        // No outcome at all (a run stopped inside its first chunk): nothing is known, and 0 with
        // an interval [0, 0] would claim a value. Every figure is NaN: "?" on the terminal, an
        // empty cell in the CSV.
        const double nan = std::numeric_limits<double>::quiet_NaN();
        s.mean = s.stddev = s.skewness = s.min = s.max = nan;
        s.p05 = s.p25 = s.p50 = s.p75 = s.p95 = nan;
        s.ci = {nan, nan};
        return s;
    }
    s.mean = acc::weighted_mean(a);
    const double var = std::max(0.0, static_cast<double>(acc::weighted_variance(a)));
    s.skewness = var > 0 ? static_cast<double>(acc::weighted_skewness(a)) : 0.0;
    // A symmetric law's skewness is 0; its moments' rounding leaves 1e-14. Below 1e-9 it is that
    // rounding (a sample's skewness has a standard error of sqrt(6/n), above 1e-5 for any run).
    if (std::abs(s.skewness) < 1e-9) s.skewness = 0;
    if (exact) {
        s.stddev = std::sqrt(var);
        s.ci = {s.mean, s.mean};
    } else {
        s.stddev = s.n > 1 ? std::sqrt(var * s.n / (s.n - 1)) : 0.0;
        if (s.kind == MetricKind::rate)
            s.ci = wilson(s.mean * s.n, s.n);
        else
            s.ci = {s.mean - kZ95 * s.stddev / std::sqrt(s.n),
                    s.mean + kZ95 * s.stddev / std::sqrt(s.n)};
    }
    s.p05 = quantile(d, 5);
    s.p25 = quantile(d, 25);
    s.p50 = quantile(d, 50);
    s.p75 = quantile(d, 75);
    s.p95 = quantile(d, 95);
    return s;
}
}  // namespace

Summary summarize(const Distribution& d, bool exact) {
    if (!exact || d.unresolved <= kNegligible) {
        Distribution resolved = d;
        resolved.unresolved = 0;
        return summarize_resolved(resolved, exact);
    }
    // Unresolved mass: bound everything by placing it at the lowest and at the highest value.
    Distribution low = d, high = d;
    low.unresolved = high.unresolved = 0;
    if (low.mass.empty()) low.mass.assign(1, 0.0);
    low.mass.front() += d.unresolved;
    high.mass.resize(static_cast<std::size_t>(d.spec.hi - d.spec.lo + 1), 0.0);
    high.mass.back() += d.unresolved;
    const Summary a = summarize_resolved(low, true), b = summarize_resolved(high, true);
    Summary s = a;
    s.unresolved = d.unresolved;
    s.ci = {a.mean, b.mean};
    const double nan = std::numeric_limits<double>::quiet_NaN();
    s.mean = s.stddev = s.skewness = nan;
    auto agree = [&](double x, double y) { return x == y ? x : nan; };
    s.min = agree(a.min, b.min);
    s.max = agree(a.max, b.max);
    s.p05 = agree(a.p05, b.p05);
    s.p25 = agree(a.p25, b.p25);
    s.p50 = agree(a.p50, b.p50);
    s.p75 = agree(a.p75, b.p75);
    s.p95 = agree(a.p95, b.p95);
    return s;
}

std::optional<Summary> balance_row(const std::vector<Summary>& rows, const std::string& first_win,
                                   const std::string& second_win, double n, bool exact) {
    const Summary* a = nullptr;
    const Summary* b = nullptr;
    for (const auto& r : rows) {
        if (r.metric == first_win) a = &r;
        if (r.metric == second_win) b = &r;
    }
    if (!a || !b) return std::nullopt;
    const double nan = std::numeric_limits<double>::quiet_NaN();
    Summary s;
    s.metric = "balance";
    s.kind = MetricKind::rate;
    s.n = n;
    s.stddev = s.skewness = s.min = s.max = s.p05 = s.p25 = s.p50 = s.p75 = s.p95 = nan;
    if (std::isnan(a->mean + b->mean) && !(exact && (a->bounded() || b->bounded()))) {
        s.mean = nan;  // no outcome played: nothing known (a run stopped in its first chunk)
        s.ci = {nan, nan};
        return s;
    }
    if (exact && (a->bounded() || b->bounded())) {
        // Each win probability lies within its bounds: so does their difference, and 1 - |d|.
        const double d_low = a->ci.low - b->ci.high, d_high = a->ci.high - b->ci.low;
        const double nearest =
            d_low <= 0 && d_high >= 0 ? 0.0 : std::min(std::abs(d_low), std::abs(d_high));
        s.unresolved = std::max(a->unresolved, b->unresolved);
        s.mean = nan;
        s.ci = {1 - std::max(std::abs(d_low), std::abs(d_high)), 1 - nearest};
        return s;
    }
    const double d = a->mean - b->mean;
    s.mean = 1 - std::abs(d);
    if (exact || n <= 0) {
        s.ci = {s.mean, s.mean};
    } else {
        const double half = kZ95 * std::sqrt(std::max(0.0, (a->mean + b->mean - d * d) / n));
        s.ci = {std::max(0.0, s.mean - half), std::min(1.0, s.mean + half)};
    }
    return s;
}

}  // namespace odds
