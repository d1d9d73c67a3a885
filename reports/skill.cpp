#include "reports/skill.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <tuple>

#include "engine/stop.hpp"

namespace odds {

namespace {

// Vw and Vp (reports/skill.hpp) of the games `pick` (indices into 0..n-1, repeats allowed).
std::pair<double, double> components(std::span<const double> y, std::size_t groups,
                                     std::size_t n, std::span<const std::size_t> pick) {
    const auto m = static_cast<double>(pick.size());
    std::vector<double> col(pick.size(), 0.0);  // each game's mean over the groups
    for (std::size_t g = 0; g < groups; ++g)
        for (std::size_t i = 0; i < pick.size(); ++i) col[i] += y[g * n + pick[i]];
    for (double& c : col) c /= static_cast<double>(groups);
    double grand = 0;
    for (double c : col) grand += c;
    grand /= m;
    double within = 0, between = 0;
    for (std::size_t g = 0; g < groups; ++g) {
        double mean = 0;
        for (std::size_t i = 0; i < pick.size(); ++i) mean += y[g * n + pick[i]];
        mean /= m;
        double ss = 0, ssd = 0;
        const double dev = mean - grand;  // the mean of y_gj - c_j
        for (std::size_t i = 0; i < pick.size(); ++i) {
            const double v = y[g * n + pick[i]];
            ss += (v - mean) * (v - mean);
            const double d = v - col[i] - dev;
            ssd += d * d;
        }
        within += ss / (m - 1);
        between += dev * dev - ssd / (m - 1) / m;
    }
    return {within / static_cast<double>(groups), between / static_cast<double>(groups)};
}

double share_of(double within, double between) {
    const double total = within + std::max(0.0, between);
    return total > 0 ? within / total : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

LuckShare luck_share(std::span<const double> y, std::size_t groups, std::size_t n,
                     std::uint64_t seed, int resamples) {
    LuckShare r;
    std::vector<std::size_t> all(n);
    for (std::size_t j = 0; j < n; ++j) all[j] = j;
    std::tie(r.within, r.between) = components(y, groups, n, all);
    r.share = share_of(r.within, r.between);
    if (std::isnan(r.share)) {
        r.ci = {r.share, r.share};
        return r;
    }
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<std::size_t> game(0, n - 1);
    std::vector<double> shares;
    std::vector<std::size_t> pick(n);
    for (int b = 0; b < resamples; ++b) {
        throw_if_stop_requested();
        for (auto& p : pick) p = game(rng);
        const auto [w, v] = components(y, groups, n, pick);
        const double s = share_of(w, v);
        shares.push_back(std::isnan(s) ? 1.0 : s);  // a resample without variance: all luck
    }
    std::sort(shares.begin(), shares.end());
    const auto at = [&](double q) {
        const auto i = static_cast<std::size_t>(std::floor(q * static_cast<double>(resamples - 1)));
        return shares[std::min(i, shares.size() - 1)];
    };
    r.ci = {at(0.025), at(0.975)};
    return r;
}

Step paired_step(std::span<const double> a, std::span<const double> b) {
    const std::size_t n = std::min(a.size(), b.size());
    Step s;
    if (n < 2) return s;
    double mean = 0;
    for (std::size_t j = 0; j < n; ++j) mean += a[j] - b[j];
    mean /= static_cast<double>(n);
    double ss = 0;
    for (std::size_t j = 0; j < n; ++j) ss += (a[j] - b[j] - mean) * (a[j] - b[j] - mean);
    const double se = std::sqrt(ss / static_cast<double>(n - 1) / static_cast<double>(n));
    s.diff = mean;
    s.ci = {mean - kZ95 * se, mean + kZ95 * se};
    return s;
}

}  // namespace odds
