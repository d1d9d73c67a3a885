#include "reports/shape.hpp"
#include "reports/schema.hpp"

#include <algorithm>
#include <cmath>

#include "reports/csv.hpp"
#include "reports/stats.hpp"

namespace odds::shape {

namespace {

// The seats leading at p (Ludii's LeadChange: those whose evaluation is highest), as bits: 1 seat
// 0, 2 seat 1.
int leaders(double p) { return p > 0.5 ? 1 : (p < 0.5 ? 2 : 3); }

// The highest evaluation less the winners' (their mean after a draw): Ludii's Drama of a state.
double drama_at(double p, int winner) {
    const double top = std::max(p, 1 - p);
    if (winner == 0) return top - p;
    if (winner == 1) return top - (1 - p);
    return ((top - p) + (top - (1 - p))) / 2;
}

int winner_of(double outcome) { return outcome >= 1 ? 0 : (outcome <= 0 ? 1 : -1); }

int bin_of(double p) {
    return std::clamp(static_cast<int>(std::lround(p * (kFanBins - 1))), 0, kFanBins - 1);
}

// The q-quantile of a histogram of `total` games: the least bin holding it, as a probability.
double quantile(const std::array<std::uint64_t, kFanBins>& h, std::uint64_t total, double q) {
    const double need = q * static_cast<double>(total);
    std::uint64_t cum = 0;
    for (int b = 0; b < kFanBins; ++b) {
        cum += h[static_cast<std::size_t>(b)];
        if (static_cast<double>(cum) >= need && cum > 0) return b / double(kFanBins - 1);
    }
    return 1.0;
}

}  // namespace

TwoSeat measure_two(std::span<const double> p) {
    TwoSeat g;
    const int n = static_cast<int>(p.size()) - 1;  // T: the states before each step, p[0..T-1]
    g.turns = n;
    if (n < 1) return g;
    g.winner = winner_of(p.back());
    const int winner = g.winner;
    const auto at = [&](int t) { return p[static_cast<std::size_t>(t)]; };
    double drama = 0;
    for (int t = 0; t < n; ++t) {
        if (t > 0 && leaders(at(t)) != leaders(at(t - 1))) ++g.lead_changes;
        const double d = drama_at(at(t), winner);
        drama += d / n;  // Ludii's metricAverage: the sum of value / length
        g.drama_max = std::max(g.drama_max, d);
        if (winner == 0) g.threshold = std::max(g.threshold, 1 - at(t));
        if (winner == 1) g.threshold = std::max(g.threshold, at(t));
    }
    g.drama = drama;
    g.lead_change = static_cast<double>(1 + g.lead_changes) / n;
    int first = n;
    for (int t = 0; t < n && first == n; ++t) {
        const double w = at(t), l = 1 - at(t);
        if ((winner != 1 && w > g.threshold) || (winner != 0 && l > g.threshold)) first = t;
    }
    g.decisiveness = static_cast<double>(first) / n;
    const double half = at(n / 2);
    g.behind_at_half = half < 0.5 ? 0 : (half > 0.5 ? 1 : -1);
    g.comeback = g.behind_at_half >= 0 && winner == g.behind_at_half;
    return g;
}

Solo measure_solo(std::span<const double> p) {
    Solo g;
    const int n = static_cast<int>(p.size()) - 1;
    g.steps = std::max(n, 0);
    if (n < 0) return g;
    g.success = p.back() > 0.5;
    const auto known = [&](double x) { return g.success ? x >= kKnown : x <= 1 - kKnown; };
    int t = n;  // p_T is the outcome: always known
    while (t > 0 && known(p[static_cast<std::size_t>(t) - 1])) --t;
    g.no_return = t;
    return g;
}

void Tally::add(std::span<const double> p) {
    if (p.empty()) return;
    const int n = static_cast<int>(p.size()) - 1;
    ++games;
    steps += n;
    p_start += p.front();
    outcome += p.back();
    if (solo) {
        const Solo g = measure_solo(p);
        no_return += g.no_return;
        if (g.success) {
            ++successes;
            no_return_success += g.no_return;
        }
        no_return_share += n > 0 ? static_cast<double>(g.no_return) / n : 0.0;
        decided_at_start += g.no_return == 0;
        decided_at_end += n > 0 && g.no_return == n;
        if (no_return_at.size() <= static_cast<std::size_t>(g.no_return))
            no_return_at.resize(static_cast<std::size_t>(g.no_return) + 1, 0);
        ++no_return_at[static_cast<std::size_t>(g.no_return)];
    } else if (n >= 1) {
        const TwoSeat g = measure_two(p);
        lead_changes += g.lead_changes;
        lead_change += g.lead_change;
        drama += g.drama;
        drama_max += g.drama_max;
        threshold += g.threshold;
        decisiveness += g.decisiveness;
        behind_at_half += g.behind_at_half >= 0;
        comebacks += g.comeback;
    }
    if (rollouts > 0)
        for (int t = 0; t < n; ++t) {  // the estimates: every p_t but the outcome
            const double x = p[static_cast<std::size_t>(t)];
            se_sum += std::sqrt(x * (1 - x) / rollouts);
            ++estimates;
        }
    const int kept = std::min(n, kFanSteps - 1);
    if (hist.size() < static_cast<std::size_t>(kept) + 1)
        hist.resize(static_cast<std::size_t>(kept) + 1, std::array<std::uint64_t, kFanBins>{});
    for (int t = 0; t <= kept; ++t)
        ++hist[static_cast<std::size_t>(t)][static_cast<std::size_t>(bin_of(p[t]))];
    if (n < kFanSteps) {
        if (ended.size() < static_cast<std::size_t>(n) + 1)
            ended.resize(static_cast<std::size_t>(n) + 1, std::array<std::uint64_t, 3>{});
        const int k = p.back() >= 1 ? 2 : (p.back() <= 0 ? 0 : 1);
        ++ended[static_cast<std::size_t>(n)][static_cast<std::size_t>(k)];
    }
}

void Tally::merge(const Tally& o) {
    games += o.games;
    for (auto [a, b] : {std::pair{&steps, o.steps},
                        {&p_start, o.p_start},
                        {&outcome, o.outcome},
                        {&lead_changes, o.lead_changes},
                        {&lead_change, o.lead_change},
                        {&drama, o.drama},
                        {&drama_max, o.drama_max},
                        {&threshold, o.threshold},
                        {&decisiveness, o.decisiveness},
                        {&no_return, o.no_return},
                        {&no_return_share, o.no_return_share},
                        {&se_sum, o.se_sum},
                        {&no_return_success, o.no_return_success}})
        *a += b;
    behind_at_half += o.behind_at_half;
    comebacks += o.comebacks;
    decided_at_start += o.decided_at_start;
    decided_at_end += o.decided_at_end;
    successes += o.successes;
    estimates += o.estimates;
    if (no_return_at.size() < o.no_return_at.size()) no_return_at.resize(o.no_return_at.size(), 0);
    for (std::size_t i = 0; i < o.no_return_at.size(); ++i) no_return_at[i] += o.no_return_at[i];
    if (hist.size() < o.hist.size()) hist.resize(o.hist.size(), {});
    for (std::size_t t = 0; t < o.hist.size(); ++t)
        for (std::size_t b = 0; b < kFanBins; ++b) hist[t][b] += o.hist[t][b];
    if (ended.size() < o.ended.size()) ended.resize(o.ended.size(), {});
    for (std::size_t t = 0; t < o.ended.size(); ++t)
        for (std::size_t k = 0; k < 3; ++k) ended[t][k] += o.ended[t][k];
}

std::vector<Measure> Tally::measures() const {
    const double n = games ? static_cast<double>(games) : 1.0;
    std::vector<Measure> m = {
        {"games", static_cast<double>(games), "games sampled"},
        {"steps", steps / n, "the mean length of a game, in steps (step 0: the start)"},
        {"p_start", p_start / n, "the mean p at the first step"}};
    if (solo) {
        std::uint64_t cum = 0, median = 0;
        for (std::size_t t = 0; t < no_return_at.size(); ++t) {
            cum += no_return_at[t];
            if (2 * cum >= games) {
                median = t;
                break;
            }
        }
        m.insert(m.end(),
                 {{"success", outcome / n, "the share of games that succeeded"},
                  {"no_return", no_return / n,
                   "the point of no return: the step from which the outcome was known to 95%"},
                  {"no_return_median", static_cast<double>(median),
                   "its median over the games, in steps"},
                  {"no_return_success",
                   successes ? no_return_success / static_cast<double>(successes) : 0.0,
                   "its mean over the games that succeeded"},
                  {"no_return_failure",
                   games > successes
                       ? (no_return - no_return_success) / static_cast<double>(games - successes)
                       : 0.0,
                   "its mean over the games that failed"},
                  {"no_return_share", no_return_share / n, "the share of a game played before it"},
                  {"decided_at_start", static_cast<double>(decided_at_start) / n,
                   "the share of games known to 95% from the first step"},
                  {"decided_at_end", static_cast<double>(decided_at_end) / n,
                   "the share of games that only the last step decided"}});
    } else {
        m.insert(
            m.end(),
            {{"lead_changes", lead_changes / n,
              "times a game's leader (p above or below 1/2) changes"},
             {"lead_change", lead_change / n, "Ludii's LeadChange: (1 + lead changes) / steps"},
             {"drama", drama / n,
              "Ludii's Drama: how far below the leader the winner was, averaged"},
             {"drama_max", drama_max / n, "Ludii's Drama Max: the most the winner was below"},
             {"threshold", threshold / n, "Ludii's DecisivenessThreshold: the loser's best p"},
             {"decisiveness", decisiveness / n,
              "Ludii's DecisivenessMoves: the share of a game's steps (from step 0, the start) "
              "before the winner passed it"},
             {"behind_at_half", static_cast<double>(behind_at_half) / n,
              "the share of games with a side behind (p < 1/2) at half-time: step T/2 of T, "
              "rounded down"},
             {"comeback_rate",
              behind_at_half ? static_cast<double>(comebacks) / static_cast<double>(behind_at_half)
                             : 0.0,
              "of those, the share the side behind won"}});
        const Interval ci =
            wilson(static_cast<double>(comebacks), static_cast<double>(behind_at_half));
        m.push_back(
            {"comeback_low", behind_at_half ? ci.low : 0.0, "its 95% interval (Wilson), low end"});
        m.push_back({"comeback_high", behind_at_half ? ci.high : 1.0, "its high end"});
    }
    if (rollouts > 0)
        m.push_back(
            {"estimate_se", mean_se(),
             "the mean standard error of a step's p (" + std::to_string(rollouts) + " rollouts)"});
    return m;
}

std::vector<FanRow> Tally::fan() const {
    std::vector<FanRow> rows;
    std::array<std::uint64_t, 3> done{};  // games over before step t, by outcome
    for (std::size_t t = 0; t < hist.size(); ++t) {
        if (t > 0 && t - 1 < ended.size())
            for (std::size_t k = 0; k < 3; ++k) done[k] += ended[t - 1][k];
        std::array<std::uint64_t, kFanBins> h = hist[t];
        std::uint64_t running = 0;
        for (auto c : h) running += c;
        h[0] += done[0];
        h[kFanBins / 2] += done[1];
        h[kFanBins - 1] += done[2];
        const std::uint64_t total = running + done[0] + done[1] + done[2];
        FanRow r{static_cast<int>(t), running, {}};
        for (std::size_t i = 0; i < kFanQuantiles.size(); ++i)
            r.q[i] = quantile(h, total, kFanQuantiles[i]);
        rows.push_back(r);
    }
    return rows;
}

std::string shape_csv(const Tally& t, const std::string& game, const std::string& scenario,
                      const std::string& policy, std::uint64_t seed, bool partial) {
    std::string csv = schema::kShape.header();
    for (const auto& m : t.measures())
        csv += csv_field(game) + ',' + csv_field(scenario) + ',' + csv_field(policy) + ',' +
               std::to_string(seed) + ',' + std::to_string(t.games) + ',' + m.name + ',' +
               format_double(m.value) + (partial ? ",partial\n" : ",complete\n");
    return csv;
}

std::string fan_csv(const Tally& t, const std::string& game, const std::string& scenario,
                    const std::string& policy, std::uint64_t seed, bool partial) {
    std::string csv = schema::kFan.header();
    const std::string head = csv_field(game) + ',' + csv_field(scenario) + ',' + csv_field(policy) +
                             ',' + std::to_string(seed) + ',' + std::to_string(t.games) + ',';
    for (const auto& r : t.fan()) {
        csv += head + std::to_string(r.step) + ',' + std::to_string(r.running);
        for (double q : r.q) csv += ',' + format_double(q);
        csv += partial ? ",partial\n" : ",complete\n";
    }
    return csv;
}

}  // namespace odds::shape
