// Race (engine/race/RULES.md): a one-die race to a goal square, the tests' tiny game and the
// example of docs/adding-a-game.md. Rulings R1-R4 are the rules page's own.
#pragma once

#include <array>
#include <concepts>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "engine/decision.hpp"
#include "engine/metric.hpp"
#include "engine/rule_options.hpp"

namespace odds::race {

inline constexpr int kMaxGoal = 100;
inline constexpr int kMaxTurns = 50;

struct Options {
    int goal = 20;      // R1
    int max_turns = 8;  // R1
    // R5 (restricted play, option restrict): the moves the player may never make, bit 0 walk,
    // bit 1 roll; never both (the turn would have no move: refused when read).
    std::uint8_t barred = 0;
};

// The declared rule options (engine/rule_options.hpp), in the order `odds list` shows them.
const OptionTable<Options>& option_table();
Options parse_options(const Settings& settings);
std::string scenario(const Options& o);

enum class Move : std::uint8_t { walk, roll };  // R2
// R5: the move played for the one chosen: the other when it is barred.
inline Move allowed(const Options& o, Move m) noexcept {
    return (o.barred >> static_cast<int>(m) & 1u) ? (m == Move::walk ? Move::roll : Move::walk) : m;
}

// The decision point: the runner's square and the turns played so far.
struct State {
    int square = 0;  // R1
    int turn = 0;
    int rolls = 0;
    bool won = false;

    bool over(const Options& o) const noexcept { return won || turn >= o.max_turns; }
    bool operator==(const State&) const = default;  // closed-loop search (policies/mcts.hpp)
};

// The policy interface (a concept): one decision a turn, from the state before it.
template <class P, class Dice>
concept PolicyFor = requires(P& p, const State& s, const Options& o, Dice& dice) {
    { p.choose(s, o, dice) } -> std::same_as<Move>;
};

// R2, R3: one turn with the chosen move.
template <class Dice>
void apply(State& s, const Options& o, Move m, Dice& dice) {
    m = allowed(o, m);  // R5: a barred move is played as the other
    ++s.turn;
    if (m == Move::walk) {
        s.square += 2;
    } else {
        ++s.rolls;
        const int face = dice.d6();
        s.square = face == 1 ? (s.square > 3 ? s.square - 3 : 0) : s.square + face;
    }
    if (s.square >= o.goal) {  // R3: the goal reached or passed wins at once
        s.square = o.goal;
        s.won = true;
    }
}

// The resumable form (engine/decision.hpp): one seat, one decision a turn.
struct Game {
    using Options = race::Options;
    using State = race::State;
    using Choice = Move;
    static constexpr int kMaxChoices = 2;
    static bool over(const State& s, const Options& o) noexcept { return s.over(o); }
    static int to_move(const State&, const Options&) noexcept { return 0; }
    static int legal(const State&, const Options& o, Choice* out) noexcept {
        int n = 0;  // R2: both moves are legal; R5: but a barred one
        for (const Move m : {Move::walk, Move::roll})
            if ((o.barred >> static_cast<int>(m) & 1u) == 0) out[n++] = m;
        return n;
    }
    template <class Dice>
    static void apply(State& s, const Options& o, Choice c, Dice& dice) {
        race::apply(s, o, c, dice);
    }
    static double reward(const State& s, const Options&, int) noexcept { return s.won; }
    template <class P, class Dice>
    static Choice decide(const State& s, const Options& o, P& policy, Dice& dice) {
        return policy.choose(s, o, dice);
    }
};

// Plays from `s` to the end (R3).
template <class P, class Dice>
requires PolicyFor<P, Dice>
void play_from(State& s, const Options& o, P& policy, Dice& dice) {
    odds::play_from<Game>(s, o, dice, policy, policy);
}

template <class P, class Dice>
requires PolicyFor<P, Dice> State play(const Options& o, P& policy, Dice& dice) {
    State s;
    play_from(s, o, policy, dice);
    return s;
}

// Positions (RULES.md, "Positions"): the state between two turns as text. opening is a fresh
// State (R1: square 0, turn 0); write_position prints `s`; read_position reads one, refusing a
// square at or past the goal or a turn at or past max_turns (the race would be over, R1, R3) with
// one UsageError "FILE:LINE: WHAT (RULE)".
State opening(const Options& o);
std::string write_position(const State& s, const Options& o);
State read_position(std::string_view text, std::string_view file, const Options& o);

// R4: what a game reports, declared once (engine/metric.hpp): metric_specs and to_metrics read
// these rows.
enum Metric : int { kWin, kTurns, kSquare, kRolls, kMetricCount };
template <class M>
constexpr void declare_metrics(M& m) {
    const auto max_turns = [](const Options& o) { return o.max_turns; };
    m(kWin, "win", "the goal reached within max_turns (R3)", MetricKind::rate, 0, 1,
      [](const State& s) { return s.won; });
    m(kTurns, "turns", "turns played (R3)", counts("turns"), 0, max_turns,
      [](const State& s) { return s.turn; });
    m(
        kSquare, "square", "the square at the end, the goal at most (R4)", counts("squares"), 0,
        [](const Options& o) { return o.goal; }, [](const State& s) { return s.square; });
    m(kRolls, "rolls", "turns the player rolled (R2)", counts("turns"), 0, max_turns,
      [](const State& s) { return s.rolls; });
}
static_assert(metrics_in_order<kMetricCount>([](auto& m) { declare_metrics(m); }));
std::vector<MetricSpec> metric_specs(const Options& o);
SurvivalSpec survival_spec();
inline void to_metrics(const State& s, std::int32_t* out) noexcept {
    MetricValues<State> m{s, out};
    declare_metrics(m);
}

}  // namespace odds::race
