#include "engine/race/exact.hpp"

#include "engine/stop.hpp"

namespace odds::exact::race {

using namespace odds::race;

namespace {
void refuse_search(const Policy& policy) {
    if (std::holds_alternative<odds::race::Mcts>(policy))
        throw UsageError(
            "race: exact needs a policy that states its moves as probabilities; "
            "mcts searches (valid: best, walk, roll, random)");
}
double p_roll(const Policy& policy, const State& st) {
    return std::visit(
        [&](const auto& x) -> double {
            if constexpr (requires { x.p_roll(st); })
                return x.p_roll(st);
            else
                return 0;  // refused before
        },
        policy);
}
}  // namespace

Values values(const Options& o, const Policy& policy) {
    refuse_search(policy);
    const auto g = static_cast<std::size_t>(o.goal), r = static_cast<std::size_t>(o.max_turns);
    Values v{std::vector<std::vector<double>>(g + 1, std::vector<double>(r + 1, 0.0))};
    for (std::size_t t = 0; t <= r; ++t) v.value[g][t] = 1;  // R3: at the goal, won
    for (int t = o.max_turns - 1; t >= 0; --t)
        for (int s = 0; s < o.goal; ++s) {
            State st;
            st.square = s;
            st.turn = t;
            const double roll = p_roll(policy, st);
            const auto next = [&](int square) {  // R2, R3
                return v.value[static_cast<std::size_t>(std::min(square, o.goal))]
                              [static_cast<std::size_t>(t) + 1];
            };
            double rolled = next(s > 3 ? s - 3 : 0) / 6;
            for (int f = 2; f <= 6; ++f) rolled += next(s + f) / 6;
            v.value[static_cast<std::size_t>(s)][static_cast<std::size_t>(t)] =
                (1 - roll) * next(s + 2) + roll * rolled;
        }
    return v;
}

std::vector<std::vector<double>> solve(const Options& o, const Policy& policy) {
    refuse_search(policy);
    const auto specs = metric_specs(o);
    std::vector<std::vector<double>> mass;
    for (const auto& s : specs) mass.emplace_back(static_cast<std::size_t>(s.hi - s.lo + 1), 0.0);
    const auto g = static_cast<std::size_t>(o.goal), r = static_cast<std::size_t>(o.max_turns);
    // live[square][rolls]: the probability of still running there after `t` turns.
    std::vector<std::vector<double>> live(g + 1, std::vector<double>(r + 1, 0.0));
    live[0][0] = 1;
    auto finish = [&](bool won, int turns, int square, int rolls, double p) {
        mass[kWin][won] += p;
        mass[kTurns][turns] += p;
        mass[kSquare][square] += p;
        mass[kRolls][rolls] += p;
    };
    for (int t = 0; t < o.max_turns; ++t) {
        throw_if_stop_requested();  // once a turn (engine/stop.hpp)
        std::vector<std::vector<double>> next(g + 1, std::vector<double>(r + 1, 0.0));
        for (int s = 0; s < o.goal; ++s)
            for (int k = 0; k <= t; ++k) {
                const double p = live[s][k];
                if (p == 0) continue;
                State st;
                st.square = s;
                st.turn = t;
                st.rolls = k;
                const double chosen = p_roll(policy, st);
                // R5: a barred move is played as the other (race::allowed)
                const double roll = o.barred & 1u ? 1 : o.barred & 2u ? 0 : chosen;
                auto land = [&](int square, int rolls, double q) {  // R2, R3
                    if (q == 0) return;
                    if (square >= o.goal)
                        finish(true, t + 1, o.goal, rolls, q);
                    else
                        next[square][rolls] += q;
                };
                land(s + 2, k, p * (1 - roll));
                land(s > 3 ? s - 3 : 0, k + 1, p * roll / 6);
                for (int f = 2; f <= 6; ++f) land(s + f, k + 1, p * roll / 6);
            }
        live = std::move(next);
    }
    for (int s = 0; s < o.goal; ++s)  // R3: short of the goal after max_turns: lost
        for (int k = 0; k <= o.max_turns; ++k) finish(false, o.max_turns, s, k, live[s][k]);
    return mass;
}

void report(ExactReport& r, const Options& o, const std::array<Policy, 1>& seat) {
    const auto mass = solve(o, seat[0]);
    const auto specs = metric_specs(o);
    for (std::size_t m = 0; m < specs.size(); ++m) r.laws.push_back({specs[m], mass[m], 0.0});
}

}  // namespace odds::exact::race
