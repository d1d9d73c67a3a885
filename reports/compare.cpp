#include "reports/compare.hpp"

#include <algorithm>
#include <boost/math/distributions/normal.hpp>
#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <limits>
#include <numeric>

namespace odds {

Moments moments(const Distribution& d) {
    Moments m;
    double sum = 0, sum2 = 0;
    for (std::size_t i = 0; i < d.mass.size(); ++i) {
        const double v = value_of(d.spec, i);
        m.n += d.mass[i];
        sum += d.mass[i] * v;
    }
    if (m.n == 0) return m;
    m.mean = sum / m.n;
    for (std::size_t i = 0; i < d.mass.size(); ++i) {
        const double dv = value_of(d.spec, i) - m.mean;
        sum2 += d.mass[i] * dv * dv;
    }
    m.var = m.n > 1 ? sum2 / (m.n - 1) : 0;
    return m;
}

ShiftTest shift_test(const Moments& a, const Moments& b, double alpha) {
    const boost::math::normal z;
    const double z_crit = boost::math::quantile(z, 1 - alpha / 2);
    const double z_power = boost::math::quantile(z, 0.8);
    ShiftTest t;
    t.diff = b.mean - a.mean;
    t.se = std::sqrt((a.n > 0 ? a.var / a.n : 0) + (b.n > 0 ? b.var / b.n : 0));
    t.threshold = z_crit * t.se;
    t.detectable = (z_crit + z_power) * t.se;
    // With no spread at all (a constant metric) any difference is a shift.
    t.moved = t.se > 0 ? std::abs(t.diff) > t.threshold : t.diff != 0;
    return t;
}

PairedDifference paired_difference(const PairSums& sums, std::uint64_t n, double scale) {
    PairedDifference r;
    if (n == 0) return r;
    const double nn = static_cast<double>(n);
    const double mean = static_cast<double>(sums.sum) / nn;
    r.diff = mean / scale;
    if (n == 1) {
        r.low = -std::numeric_limits<double>::infinity();
        r.high = std::numeric_limits<double>::infinity();
        return r;
    }
    const double var = (static_cast<double>(sums.sum_sq) - nn * mean * mean) / (nn - 1);
    const double se = std::sqrt(std::max(0.0, var) / nn);
    // Student's t with n - 1 degrees of freedom (the normal's z once n is large).
    const boost::math::students_t t(nn - 1);
    const double q = boost::math::quantile(t, 0.975);
    r.low = (mean - q * se) / scale;
    r.high = (mean + q * se) / scale;
    if (se > 0) {
        r.p = 2 * boost::math::cdf(boost::math::complement(t, std::abs(mean) / se));
        r.p_below = r.p < std::numeric_limits<double>::min();
    } else
        r.p = mean == 0 ? 1.0 : 0.0;
    return r;
}

std::vector<double> holm(std::span<const double> p) {
    std::vector<std::size_t> order(p.size());
    std::iota(order.begin(), order.end(), std::size_t{0});
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return p[a] < p[b]; });
    std::vector<double> adjusted(p.size());
    double running = 0;
    for (std::size_t i = 0; i < order.size(); ++i) {
        running = std::max(running, std::min(1.0, static_cast<double>(p.size() - i) * p[order[i]]));
        adjusted[order[i]] = running;
    }
    return adjusted;
}

}  // namespace odds
