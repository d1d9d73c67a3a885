#include "engine/dimension_duel/shape.hpp"

#include <algorithm>
#include <string>
#include <variant>

#include "engine/dice.hpp"
#include "engine/rule_options.hpp"
#include "engine/stop.hpp"

namespace odds::dimension_duel::shape {

namespace {
// The sides leading at p (LeadChange.java: the players whose evaluation is the highest), as bits:
// 1 Tau, 2 Kaon.
int leaders(double p) { return p > 0.5 ? 1 : (p < 0.5 ? 2 : 3); }

// The winners' evaluation at p, averaged over the winners (a draw: both, Drama.java).
double drama_at(double p, int winner) {
    const double top = std::max(p, 1 - p);
    if (winner == kTau) return top - p;
    if (winner == kKaon) return top - (1 - p);
    return ((top - p) + (top - (1 - p))) / 2;
}

// Plays duel `i` turn by turn through the kernel's play_turn, appending p_t at each turn's start.
template <class T, class K>
void play_traced(const Options& o, T& tau, K& kaon, const exact::dimension_duel::ValueTable& table,
                 std::uint64_t seed, std::uint64_t i, Trace& out) {
    Dice dice(stream_seed(seed, i));
    State s = opening(o);
    out.p.clear();
    out.p.push_back(table.tau_score(s));
    while (!s.over) {
        play_turn(s, o, tau, kaon, dice);
        out.p.push_back(table.tau_score(s));
    }
    out.winner = s.out.winner;
    out.turns = s.turn;
}

void check(const Options& o, const exact::dimension_duel::ValueTable& table) {
    if (table.hp != o.hp)
        throw UsageError("dimension-duel: the value table is for hp=" + std::to_string(table.hp) +
                         ", the duel for hp=" + std::to_string(o.hp));
}
}  // namespace

GameShape measure(std::span<const double> p, int winner) {
    GameShape g;
    const int n = static_cast<int>(p.size()) - 1;  // T: the states before each turn are p[0..T-1]
    g.turns = n;
    g.winner = winner;
    if (n < 1) return g;
    const auto at = [&](int t) { return p[static_cast<std::size_t>(t)]; };
    double drama = 0;
    for (int t = 0; t < n; ++t) {
        if (t > 0 && leaders(at(t)) != leaders(at(t - 1))) ++g.lead_changes;
        const double d = drama_at(at(t), winner);
        drama += d / n;  // metricAverage's sum of value / length
        g.drama_max = std::max(g.drama_max, d);
        if (winner == kTau) g.threshold = std::max(g.threshold, 1 - at(t));
        if (winner == kKaon) g.threshold = std::max(g.threshold, at(t));
    }
    g.drama = drama;
    g.lead_change = static_cast<double>(1 + g.lead_changes) / n;
    int first = n;
    for (int t = 0; t < n && first == n; ++t) {
        const double w = at(t), l = 1 - at(t);
        if ((winner != kKaon && w > g.threshold) || (winner != kTau && l > g.threshold)) first = t;
    }
    g.decisiveness = static_cast<double>(first) / n;
    const double half = at(n / 2);
    g.behind_at_half = half < 0.5 ? kTau : (half > 0.5 ? kKaon : -1);
    g.comeback = g.behind_at_half >= 0 && winner == g.behind_at_half;
    return g;
}

Trace trace(const Options& o, const Policy& tau, const Policy& kaon,
            const exact::dimension_duel::ValueTable& table, std::uint64_t seed, std::uint64_t i) {
    check(o, table);
    Trace out;
    std::visit([&](auto t, auto k) { play_traced(o, t, k, table, seed, i, out); }, tau, kaon);
    return out;
}

Summary sample(const Options& o, const Policy& tau, const Policy& kaon,
               const exact::dimension_duel::ValueTable& table, std::uint64_t seed,
               std::uint64_t games) {
    check(o, table);
    Summary s;
    s.games = games;
    if (games == 0) return s;
    std::visit(
        [&](auto t, auto k) {  // one copy of each policy for every duel, as play_each
            Trace tr;          // reused: its buffer grows to the longest duel once
            for (std::uint64_t i = 0; i < games; ++i) {
                throw_if_stop_requested();
                play_traced(o, t, k, table, seed, i, tr);
                const GameShape g = measure(tr.p, tr.winner);
                s.lead_changes += g.lead_changes;
                s.lead_change += g.lead_change;
                s.drama += g.drama;
                s.drama_max += g.drama_max;
                s.threshold += g.threshold;
                s.decisiveness += g.decisiveness;
                s.turns += g.turns;
                s.behind_at_half += g.behind_at_half >= 0;
                s.comebacks += g.comeback;
            }
        },
        tau, kaon);
    const double n = static_cast<double>(games);
    for (double* x : {&s.lead_changes, &s.lead_change, &s.drama, &s.drama_max, &s.threshold,
                      &s.decisiveness, &s.turns})
        *x /= n;
    return s;
}

}  // namespace odds::dimension_duel::shape
