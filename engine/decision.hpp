// Resumable play: the seam search (MCTS, issue 15) and positions (--state) stand on.
//
// A game's kernel exposes its play as a state machine that rests only at decision points. A
// `Game` type (engine/GAME/GAME.hpp, e.g. race::Game) provides, all static and allocation-free:
//
//   Options, State            plain copyable structs; a State is at a decision point or over
//   Choice                    one legal choice (a small value type: an enum, an index, a struct)
//   kMaxChoices               the most choices any decision point offers
//   over(s, o)                the game is finished
//   to_move(s, o)             the seat that decides now: 0 or 1 (solo games: 0)
//   legal(s, o, out)          writes the legal choices here into out[0..n), returns n >= 1;
//                             every choice the rules allow is listed (random explores them all)
//   apply(s, o, choice, dice) plays the choice and every roll after it, up to the next decision
//                             point or the end
//   reward(s, o, seat)        at the end: the seat's result in [0, 1] (two seats: 1 win, 0.5
//                             draw, 0 loss), what search maximises by default
//   decide(s, o, policy, dice) the policy's choice here (each game asks its policy the question
//                             this decision point poses)
//
// and, optionally, for hidden information (Naval's hands and deck):
//
//   determinize(s, o, seat, dice)  replaces, in s, what `seat` cannot see by a sample of what it
//                             could be given what it has seen (the cards in the opponent's hand
//                             and the deck's order, dealt from the cards unaccounted for);
//                             search (policies/mcts.hpp) calls it on its copy of the position at
//                             the start of every iteration, so it plans against the sample, never
//                             against the truth. Absent, the game has perfect information (the
//                             hook is the identity). Same no-allocation rule as apply.
//
// A State with operator== lets search treat the dice closed-loop (one tree node per position
// they lead to; policies/mcts.hpp); without it, or with `static constexpr bool kOpenLoop = true`
// (what a game with determinize should declare), open-loop.
//
// So a state copied at a decision point, one legal choice applied, then play_from(...) under
// any policies, is "what happens if I do this here": exactly what search does, on the stack.
#pragma once

#include <concepts>

#include "engine/stop.hpp"

namespace odds {

template <class G, class Dice>
concept ResumableGame = requires(typename G::State& s, const typename G::State& cs,
                                 const typename G::Options& o, typename G::Choice* out,
                                 const typename G::Choice& c, Dice& dice, int seat) {
    requires std::copyable<typename G::State>;
    { G::kMaxChoices } -> std::convertible_to<int>;
    { G::over(cs, o) } -> std::same_as<bool>;
    { G::to_move(cs, o) } -> std::same_as<int>;
    { G::legal(cs, o, out) } -> std::same_as<int>;
    G::apply(s, o, c, dice);
    { G::reward(cs, o, seat) } -> std::convertible_to<double>;
};

// Plays from `s` to the end, each decision the policy of the seat to move (one seat: pass the
// same policy for both, or a solo game's one policy).
// A game whose length a rule option sets (a campaign of 1000 turns of 10000-round combats) looks
// at the stop request every kStopCheckPlay decisions, so that Ctrl-C ends even one long playout
// within a second (engine/stop.hpp).
template <class G, class Dice, class P0, class P1>
void play_from(typename G::State& s, const typename G::Options& o, Dice& dice, P0& seat0,
               P1& seat1) {
    for (unsigned step = 1; !G::over(s, o); ++step) {
        if (step % kStopCheckPlay == 0) [[unlikely]]
            throw_if_stop_requested();
        const auto c =
            G::to_move(s, o) == 0 ? G::decide(s, o, seat0, dice) : G::decide(s, o, seat1, dice);
        G::apply(s, o, c, dice);
    }
}

}  // namespace odds
