// Coin Duel (engine/coin_duel/RULES.md): a throwaway two-seat game, C1-C4.
#pragma once

#include <concepts>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "engine/metric.hpp"
#include "engine/rule_options.hpp"
#include "engine/versus.hpp"

namespace odds::coin_duel {

struct Options {
    int max_turns = 10;  // C1
};
std::span<const OptionInfo> option_infos();
Options parse_options(const Settings& settings);
std::string scenario(const Options& o);

enum class Throw : std::uint8_t { safe, bold };  // C2

struct State {
    int turn = 0;
    int winner = -1;  // 0 a, 1 b, -1 none yet
};

template <class P, class Dice>
concept PolicyFor = requires(P& p, const State& s, Dice& dice) {
    { p.choose(s, dice) } -> std::same_as<Throw>;
};

// C1-C3: the duel, a first.
template <class A, class B, class Dice>
requires PolicyFor<A, Dice> && PolicyFor<B, Dice> State play(const Options& o, A& a, B& b,
                                                             Dice& dice) {
    State s;
    while (s.winner < 0 && s.turn < o.max_turns) {
        const int side = s.turn % 2;
        const Throw t = side == 0 ? a.choose(s, dice) : b.choose(s, dice);
        const int face = dice.d6();
        ++s.turn;
        if (face == 6 || (t == Throw::bold && face == 5)) s.winner = side;  // C2
        if (t == Throw::bold && face == 1) s.winner = 1 - side;            // C2
    }
    return s;  // C3: no winner, a draw
}

// C4
std::vector<MetricSpec> metric_specs(const Options& o);
SurvivalSpec survival_spec();
inline void to_metrics(const State& s, std::int32_t* out) noexcept {
    versus::outcome(s.winner, s.turn, s.winner < 0, out);
}

}  // namespace odds::coin_duel
