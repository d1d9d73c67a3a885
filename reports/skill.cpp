#include "reports/skill.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <random>
#include <tuple>

#include "engine/stop.hpp"
#include "reports/ratings.hpp"

namespace odds {

namespace {

// The sums a block of games contributes, per group: of y, of y^2, of d = y - c (c: each game's
// mean over the groups) and of d^2. Vw and Vp follow from the sums of any multiset of blocks, so
// a bootstrap resample costs groups x blocks, not groups x games.
struct Sums {
    double y = 0, y2 = 0, d = 0, d2 = 0;
};
inline constexpr std::size_t kMaxBlocks = 4096;

// Vw and Vp (reports/skill.hpp) from the blocks' sums, block b counted times[b] times;
// `games`: the games those blocks hold in all.
std::pair<double, double> components(const std::vector<Sums>& sums, std::size_t groups,
                                     std::span<const std::size_t> times, double games) {
    const std::size_t blocks = times.size();
    std::vector<Sums> total(groups);
    for (std::size_t g = 0; g < groups; ++g)
        for (std::size_t b = 0; b < blocks; ++b) {
            if (times[b] == 0) continue;
            const auto t = static_cast<double>(times[b]);
            const Sums& s = sums[g * blocks + b];
            total[g].y += t * s.y, total[g].y2 += t * s.y2;
            total[g].d += t * s.d, total[g].d2 += t * s.d2;
        }
    double within = 0, between = 0;
    for (const Sums& t : total) {
        const double mean = t.y / games, dev = t.d / games;  // dev: m_g less the grand mean
        within += (t.y2 - games * mean * mean) / (games - 1);
        between += dev * dev - (t.d2 - games * dev * dev) / (games - 1) / games;
    }
    return {std::max(0.0, within) / static_cast<double>(groups),
            between / static_cast<double>(groups)};
}

double share_of(double within, double between) {
    const double total = within + std::max(0.0, between);
    return total > 0 ? within / total : std::numeric_limits<double>::quiet_NaN();
}

}  // namespace

LuckShare luck_share(std::span<const double> y, std::size_t groups, std::size_t n,
                     std::uint64_t seed, int resamples) {
    // The games in blocks of consecutive games (at most kMaxBlocks; games are independent, so a
    // block is as good a unit to resample as a game), each block's sums per group.
    const std::size_t size = (n + kMaxBlocks - 1) / kMaxBlocks;
    const std::size_t blocks = (n + size - 1) / size;
    std::vector<Sums> sums(groups * blocks);
    std::vector<double> held(blocks, 0.0);  // games a block holds
    for (std::size_t j = 0; j < n; ++j) {
        if (j % 65536 == 0) throw_if_stop_requested();
        double c = 0;
        for (std::size_t g = 0; g < groups; ++g) c += y[g * n + j];
        c /= static_cast<double>(groups);
        const std::size_t b = j / size;
        held[b] += 1;
        for (std::size_t g = 0; g < groups; ++g) {
            const double v = y[g * n + j], d = v - c;
            Sums& s = sums[g * blocks + b];
            s.y += v, s.y2 += v * v, s.d += d, s.d2 += d * d;
        }
    }
    LuckShare r;
    const std::vector<std::size_t> once(blocks, 1);
    std::tie(r.within, r.between) = components(sums, groups, once, static_cast<double>(n));
    r.share = share_of(r.within, r.between);
    if (std::isnan(r.share)) {
        r.ci = {r.share, r.share};
        return r;
    }
    std::mt19937_64 rng(seed);
    std::uniform_int_distribution<std::size_t> block(0, blocks - 1);
    std::vector<double> shares;
    std::vector<std::size_t> times(blocks);
    for (int k = 0; k < resamples; ++k) {
        throw_if_stop_requested();
        std::fill(times.begin(), times.end(), 0);
        double games = 0;
        for (std::size_t i = 0; i < blocks; ++i) {
            const std::size_t b = block(rng);
            ++times[b];
            games += held[b];
        }
        const auto [w, v] = components(sums, groups, times, games);
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

namespace {

// Marks each rung told apart from its neighbour below in the order of value, by `apart(upper,
// lower)`.
template <class Apart>
void mark_steps(std::vector<Rung>& r, const Apart& apart) {
    std::vector<std::size_t> order(r.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(),
                     [&](std::size_t a, std::size_t b) { return r[a].value < r[b].value; });
    for (std::size_t i = 0; i < order.size(); ++i) {
        r[order[i]].strength = order.size() - i;
        if (i == 0) continue;
        r[order[i]].below = static_cast<int>(order[i - 1]);
        r[order[i]].apart_from_below = apart(order[i], order[i - 1]);
    }
}

}  // namespace

std::vector<Rung> rate_rungs(std::span<const double> x, std::size_t k, std::size_t n) {
    std::vector<Rung> r(k);
    auto row = [&](std::size_t i) { return x.subspan(i * n, n); };
    const std::vector<double> zero(n, 0.0);
    for (std::size_t i = 0; i < k; ++i) {
        const Step s = paired_step(row(i), zero);
        r[i] = {s.diff, s.ci, false};
    }
    mark_steps(r, [&](std::size_t upper, std::size_t lower) {
        return paired_step(row(upper), row(lower)).distinguishable();
    });
    return r;
}

std::vector<Rung> rate_pairings(std::span<const PairingPoints> pairings, std::size_t k) {
    std::vector<std::vector<double>> played(k, std::vector<double>(k, 0.0)),
        points(k, std::vector<double>(k, 0.0));
    for (const auto& p : pairings) {
        played[p.a][p.b] += p.games;
        played[p.b][p.a] += p.games;
        points[p.a][p.b] += p.first;
        points[p.b][p.a] += p.games - p.first;
    }
    const auto ratings = bradley_terry(played, points);
    std::vector<Rung> r(k);
    for (std::size_t i = 0; i < k; ++i) r[i] = {ratings[i].rating, ratings[i].ci, false};
    mark_steps(r, [&](std::size_t upper, std::size_t lower) {
        return r[upper].ci.low > r[lower].ci.high;
    });
    return r;
}

int depth_of(std::span<const Rung> rungs) {
    int d = 0;
    for (const auto& r : rungs) d += r.apart_from_below ? 1 : 0;
    return d;
}

}  // namespace odds
