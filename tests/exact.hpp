// Exact distributions the tests compute for themselves (enumeration and small recursions), and
// the 4-sigma comparison of a Monte Carlo histogram against one.
#pragma once

#include <boost/math/distributions/normal.hpp>
#include <catch2/catch.hpp>
#include <cmath>
#include <cstdint>
#include <vector>

namespace odds::test {

using Dist = std::vector<double>;  // d[v] = P(X = v)

inline Dist convolve(const Dist& a, const Dist& b) {
    if (a.empty() || b.empty()) return {};
    Dist c(a.size() + b.size() - 1, 0.0);
    for (std::size_t i = 0; i < a.size(); ++i)
        for (std::size_t j = 0; j < b.size(); ++j) c[i + j] += a[i] * b[j];
    return c;
}

inline Dist point(std::size_t v = 0) {
    Dist d(v + 1, 0.0);
    d[v] = 1;
    return d;
}

// p * a + q * b
inline Dist mix(double p, const Dist& a, double q, const Dist& b) {
    Dist c(std::max(a.size(), b.size()), 0.0);
    for (std::size_t i = 0; i < a.size(); ++i) c[i] += p * a[i];
    for (std::size_t i = 0; i < b.size(); ++i) c[i] += q * b[i];
    return c;
}

// The sum of n fair d6, by enumeration of the faces one die at a time.
inline Dist sum_d6(int n) {
    Dist die(7, 1.0 / 6);
    die[0] = 0;
    Dist d = point(0);
    for (int i = 0; i < n; ++i) d = convolve(d, die);
    return d;
}

inline double mean(const Dist& d) {
    double m = 0;
    for (std::size_t v = 0; v < d.size(); ++v) m += static_cast<double>(v) * d[v];
    return m;
}

inline double variance(const Dist& d) {
    const double m = mean(d);
    double s = 0;
    for (std::size_t v = 0; v < d.size(); ++v)
        s += (static_cast<double>(v) - m) * (static_cast<double>(v) - m) * d[v];
    return s;
}

inline double total(const Dist& d) {
    double s = 0;
    for (double x : d) s += x;
    return s;
}

// Every value's frequency, and the mean, within about 4 standard errors of the exact value. With
// k values compared at once the bound widens to keep the whole comparison's false-alarm rate at
// 1e-4 (Bonferroni: z = the normal quantile at 1 - 1e-4 / 2k, at least 4).
inline void require_matches(const std::vector<std::uint64_t>& counts, const Dist& exact) {
    double n = 0;
    for (auto c : counts) n += static_cast<double>(c);
    REQUIRE(n > 0);
    const std::size_t size = std::max(counts.size(), exact.size());
    double k = 0;
    for (double p : exact) k += p > 0 ? 1 : 0;
    const double z = std::max(
        4.0, boost::math::quantile(boost::math::normal(), 1 - 1e-4 / (2 * std::max(k, 1.0))));
    double observed_mean = 0;
    for (std::size_t v = 0; v < size; ++v) {
        const double p = v < exact.size() ? std::max(0.0, exact[v]) : 0.0;  // no -0 rounding
        const double f = v < counts.size() ? static_cast<double>(counts[v]) / n : 0.0;
        observed_mean += static_cast<double>(v) * f;
        const double se = std::sqrt(p * (1 - p) / n);
        INFO("value " << v << ": observed " << f << ", exact " << p << ", se " << se);
        if (p == 0)
            CHECK(f == 0);  // impossible values never occur
        else                // one count of slack for values of tiny probability
            CHECK(std::abs(f - p) <= z * se + 1.0 / n);
    }
    const double se_mean = std::sqrt(variance(exact) / n);
    INFO("mean: observed " << observed_mean << ", exact " << mean(exact) << ", se " << se_mean);
    CHECK(std::abs(observed_mean - mean(exact)) <= 4 * se_mean + 1.0 / n);
}

}  // namespace odds::test
