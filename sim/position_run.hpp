// Binds a game's play from a position (odds run GAME --state FILE) to GameRun unchanged: the
// run's Options carry the rule options and the start State, and every playout copies the State
// and plays on from it. `Base` is the game's binding for fresh games (sim/game_run.hpp) with,
// besides play, a static play_from(State, const Options&, Dice&, metrics, policies...).
#pragma once

#include <cstdint>

#include "sim/game_run.hpp"

namespace odds {

template <class Base, class State>
struct FromPosition {
    struct Options {
        typename Base::Options rules;
        State start;
    };
    using Seats = typename Base::Seats;
    template <class D, class... P>
    static void play(const Options& o, D& dice, std::int32_t* metrics, P&... policies) {
        Base::play_from(o.start, o.rules, dice, metrics, policies...);
    }
};

}  // namespace odds
