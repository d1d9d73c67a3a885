#include "sim/ntbea.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <set>

namespace odds::tune {

NTupleModel::NTupleModel(std::vector<std::uint32_t> sizes, bool pairs) : sizes_(std::move(sizes)) {
    const std::size_t n = sizes_.size();
    for (std::size_t i = 0; i < n; ++i) tuples_.push_back({{i}, {}});
    if (pairs && n > 2)
        for (std::size_t i = 0; i < n; ++i)
            for (std::size_t j = i + 1; j < n; ++j) tuples_.push_back({{i, j}, {}});
    if (n > 1) {
        Tuple all;
        for (std::size_t i = 0; i < n; ++i) all.dims.push_back(i);
        tuples_.push_back(std::move(all));
    }
}

std::uint64_t NTupleModel::key(const Tuple& t, const Point& p) const {
    std::uint64_t k = 0;
    for (const std::size_t d : t.dims) k = k * sizes_[d] + p[d];  // the space is < 2^63
    return k;
}

void NTupleModel::add(const Point& p, double value) {
    for (auto& t : tuples_) {
        Stat& s = t.stats[key(t, p)];
        s.sum += value;
        ++s.n;
    }
    ++samples_;
}

double NTupleModel::mean(const Point& p) const {
    double sum = 0;
    int seen = 0;
    for (const auto& t : tuples_) {
        const auto it = t.stats.find(key(t, p));
        if (it == t.stats.end()) continue;
        sum += it->second.sum / static_cast<double>(it->second.n);
        ++seen;
    }
    return seen ? sum / seen : std::numeric_limits<double>::quiet_NaN();
}

double NTupleModel::ucb(const Point& p, double k) const {
    constexpr double eps = 0.1;  // TAG's NTupleSystem.epsilon
    const double log_n = std::log(1.0 + static_cast<double>(samples_));
    double explore = 0;
    for (const auto& t : tuples_) {
        const auto it = t.stats.find(key(t, p));
        const double n = it == t.stats.end() ? 0.0 : static_cast<double>(it->second.n);
        explore += std::sqrt(log_n / (n + eps));
    }
    const double m = mean(p);
    return (std::isnan(m) ? 0.0 : m) + k * explore / static_cast<double>(tuples_.size());
}

std::uint64_t SearchRng::next() {
    std::uint64_t z = (s_ += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

std::uint32_t SearchRng::below(std::uint32_t n) {
    // Lemire's multiply-shift with rejection: unbiased, the same on every platform.
    const std::uint64_t limit = (std::uint64_t{1} << 32) - ((std::uint64_t{1} << 32) % n);
    while (true) {
        const std::uint64_t x = next() >> 32;
        if (x < limit) return static_cast<std::uint32_t>(x % n);
    }
}

double SearchRng::unit() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

Point random_point(const std::vector<std::uint32_t>& sizes, SearchRng& rng) {
    Point p(sizes.size());
    for (std::size_t i = 0; i < sizes.size(); ++i) p[i] = rng.below(sizes[i]);
    return p;
}

Point mutate(const Point& p, const std::vector<std::uint32_t>& sizes, SearchRng& rng) {
    std::vector<std::size_t> free;  // the options with another value to take
    for (std::size_t i = 0; i < sizes.size(); ++i)
        if (sizes[i] > 1) free.push_back(i);
    Point q = p;
    if (free.empty()) return q;
    const double rate = 1.0 / static_cast<double>(free.size());
    const auto change = [&](std::size_t d) {
        const std::uint32_t other = rng.below(sizes[d] - 1);  // any value but the current one
        q[d] = other >= p[d] ? other + 1 : other;
    };
    bool changed = false;
    for (const std::size_t d : free)
        if (rng.unit() < rate) {
            change(d);
            changed = true;
        }
    if (!changed) change(free[rng.below(static_cast<std::uint32_t>(free.size()))]);
    return q;
}

void ntbea(const std::vector<std::uint32_t>& sizes, const NtbeaOptions& options,
           const std::function<double(const Point&, std::uint64_t trial)>& evaluate,
           NTupleModel& model, std::vector<Trial>& trials) {
    SearchRng rng(options.seed);
    Point current = random_point(sizes, rng);
    std::set<Point> refused;
    double lowest = std::numeric_limits<double>::infinity(), highest = -lowest;
    for (std::uint64_t t = 0; t < options.trials; ++t) {
        const double v = evaluate(current, t);
        if (std::isnan(v)) {
            refused.insert(current);
        } else {
            model.add(current, v);
            trials.push_back({current, v});
            lowest = std::min(lowest, v);
            highest = std::max(highest, v);
        }
        // k in units of the values seen: the same search whatever the metric's scale.
        const double spread = highest > lowest ? highest - lowest : 1.0;
        const double k = options.explore * spread;
        Point best;
        double best_ucb = -std::numeric_limits<double>::infinity();
        for (std::size_t i = 0; i < options.neighbours; ++i) {
            Point q = mutate(current, sizes, rng);
            if (refused.count(q)) continue;
            const double u = model.ucb(q, k);
            if (u > best_ucb) {
                best_ucb = u;
                best = std::move(q);
            }
        }
        if (!best.empty()) current = std::move(best);
    }
}

std::vector<Point> best_sampled(const NTupleModel& model, const std::vector<Trial>& trials,
                                std::size_t count) {
    std::vector<Point> distinct;
    std::map<Point, bool> seen;
    for (const auto& t : trials)
        if (seen.emplace(t.point, true).second) distinct.push_back(t.point);
    std::stable_sort(distinct.begin(), distinct.end(),
                     [&](const Point& a, const Point& b) { return model.mean(a) > model.mean(b); });
    if (distinct.size() > count) distinct.resize(count);
    return distinct;
}

Point one_step_deviations(const std::vector<std::uint32_t>& sizes, Point start, std::size_t steps,
                          const std::function<double(const Point&, std::uint64_t trial)>& evaluate,
                          NTupleModel& model, std::vector<Trial>& trials) {
    const auto own = [&](const Point& p) {
        double sum = 0;
        std::uint64_t n = 0;
        for (const auto& t : trials)
            if (t.point == p) sum += t.value, ++n;
        return n ? sum / static_cast<double>(n) : -std::numeric_limits<double>::infinity();
    };
    Point current = std::move(start);
    for (std::size_t step = 0; step < steps; ++step) {
        Point best = current;
        double best_value = own(current);
        for (std::size_t d = 0; d < sizes.size(); ++d)
            for (std::uint32_t v = 0; v < sizes[d]; ++v) {
                if (v == current[d]) continue;
                Point q = current;
                q[d] = v;
                const double value = evaluate(q, trials.size());
                if (std::isnan(value)) continue;
                model.add(q, value);
                trials.push_back({q, value});
                if (own(q) > best_value) {
                    best_value = own(q);
                    best = q;
                }
            }
        if (best == current) break;
        current = std::move(best);
    }
    return current;
}

std::vector<Point> best_own(const std::vector<Trial>& trials, std::size_t count) {
    std::vector<Point> distinct;
    std::map<Point, std::pair<double, std::uint64_t>> own;  // sum, trials
    for (const auto& t : trials) {
        auto [it, fresh] = own.try_emplace(t.point, 0.0, 0);
        if (fresh) distinct.push_back(t.point);
        it->second.first += t.value;
        ++it->second.second;
    }
    const auto mean = [&](const Point& p) {
        const auto& [sum, n] = own.at(p);
        return sum / static_cast<double>(n);
    };
    std::stable_sort(distinct.begin(), distinct.end(),
                     [&](const Point& a, const Point& b) { return mean(a) > mean(b); });
    if (distinct.size() > count) distinct.resize(count);
    return distinct;
}

std::vector<Point> finalists(const NTupleModel& model, const std::vector<Trial>& trials,
                             std::size_t count) {
    std::vector<Point> out = best_own(trials, (count + 1) / 2);
    for (auto& p : best_sampled(model, trials, count)) {
        if (out.size() >= count) break;
        if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(std::move(p));
    }
    for (auto& p : best_own(trials, count)) {  // fewer by the model than asked: fill by own
        if (out.size() >= count) break;
        if (std::find(out.begin(), out.end(), p) == out.end()) out.push_back(std::move(p));
    }
    return out;
}

}  // namespace odds::tune
