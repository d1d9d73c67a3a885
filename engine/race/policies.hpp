// Race policies (engine/race/RULES.md): best (solved by backward induction), walk, roll, random,
// and mcts (policies/mcts.hpp, the generic tree search, proven here against `best`). Each but
// mcts states its choice as a probability of rolling, so the exact solver (exact.cpp) can weigh
// both moves.
#pragma once

#include <array>
#include <variant>

#include "engine/dice.hpp"
#include "engine/race/race.hpp"
#include "policies/mcts.hpp"
#include "policies/policy_table.hpp"

namespace odds::race {

// P(win) from every (square, turns played), playing the best move from there on (R2, R3), and
// which move that is. Backward induction over turns; a tie goes to walking.
struct Plan {
    std::array<std::array<double, kMaxTurns + 1>, kMaxGoal + 1> value{};
    std::array<std::array<bool, kMaxTurns + 1>, kMaxGoal + 1> roll{};
};

inline Plan best_plan(const Options& o) {
    Plan p;
    for (int t = o.max_turns; t >= 0; --t)
        for (int s = 0; s <= o.goal; ++s) {
            auto& v = p.value[s][t];
            if (s == o.goal) {
                v = 1;
                continue;
            }
            if (t == o.max_turns) {
                v = 0;
                continue;
            }
            auto next = [&](int square) {
                return p.value[square < o.goal ? square : o.goal][t + 1];
            };
            double walk = next(s + 2);
            double roll = next(s > 3 ? s - 3 : 0) / 6;
            for (int f = 2; f <= 6; ++f) roll += next(s + f) / 6;
            if (o.barred & 1u) walk = -1;  // R5: the best of the moves left
            if (o.barred & 2u) roll = -1;
            p.roll[s][t] = roll > walk;
            v = roll > walk ? roll : walk;
        }
    return p;
}

struct Best {
    Plan plan;
    template <class Dice>
    Move choose(const State& s, const Options&, Dice&) const {
        return plan.roll[s.square][s.turn] ? Move::roll : Move::walk;
    }
    double p_roll(const State& s) const { return plan.roll[s.square][s.turn]; }
};
struct Walk {
    template <class Dice>
    Move choose(const State&, const Options&, Dice&) const {
        return Move::walk;
    }
    double p_roll(const State&) const { return 0; }
};
struct Roll {
    template <class Dice>
    Move choose(const State&, const Options&, Dice&) const {
        return Move::roll;
    }
    double p_roll(const State&) const { return 1; }
};
struct Random {  // a fair coin from the dice: odd walks, even rolls
    template <class Dice>
    Move choose(const State&, const Options&, Dice& dice) const {
        return dice.d6() % 2 ? Move::walk : Move::roll;
    }
    double p_roll(const State&) const { return 0.5; }
};

// The policies that do not search: the exact solver's, and what mcts may roll out with.
using Basic = std::variant<Best, Walk, Roll, Random>;
inline constexpr std::string_view kRollouts[] = {"best", "walk", "roll", "random"};

// UCT over race's decisions (policies/mcts.hpp), rolling out with one of the Basic policies.
struct Mcts : odds::Mcts<Game, Basic> {
    using odds::Mcts<Game, Basic>::Mcts;
    template <class Dice>
    Move choose(const State& s, const Options& o, Dice& dice) {
        return search(s, o, dice);
    }
};

using Policy = std::variant<Best, Walk, Roll, Random, Mcts>;

Policy make_mcts(const Options& o, const PolicyArgs& a);
inline constexpr PolicyParam kMctsParams[] = {odds::mcts_iterations_param(), odds::mcts_c_param(),
                                              odds::mcts_rollout_param(kRollouts, 3)};

inline constexpr PolicyRow<PolicyFactory<Policy, Options>> kPolicies[] = {
    {"best", "the move that maximises P(win) from here, solved exactly before the run",
     [](const Options& o, const PolicyArgs&) -> Policy { return Best{best_plan(o)}; }},
    {"walk", "always walks two squares", made<Walk>},
    {"roll", "always rolls the die", made<Roll>},
    {"random", "walks or rolls on a fair coin", made<Random>},
    {"mcts", "UCT tree search, N iterations, exploration C, rolling out with the named policy",
     make_mcts, kMctsParams},
};
inline constexpr auto kPolicyInfos = infos_of(kPolicies);

static_assert(every_alternative<Policy>([]<class P> { return PolicyFor<P, odds::Dice>; }));
static_assert(PolicyFor<Best, ScriptedDice> && PolicyFor<Mcts, ScriptedDice>);
static_assert(std::size(kRollouts) == std::variant_size_v<Basic>);
static_assert(odds::ResumableGame<Game, odds::Dice> && odds::ResumableGame<Game, ScriptedDice>);

inline Policy make_mcts(const Options& o, const PolicyArgs& a) {
    return make_search<Mcts, Basic>(kPolicies, o, a);
}

// The policy of row `index`, for the solver and the tests.
inline Policy make_policy(std::size_t index, const Options& o) {
    return kPolicies[index].make(o, PolicyArgs{});
}

}  // namespace odds::race
