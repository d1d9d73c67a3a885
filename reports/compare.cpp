#include "reports/compare.hpp"

#include <boost/math/distributions/normal.hpp>
#include <cmath>

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

}  // namespace odds
