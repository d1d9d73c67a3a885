// The list of registered games. Compiled into each program rather than into odds_sim, because
// the programs differ: the odds program registers CMake's ODDS_GAMES, the test programs
// ODDS_GAMES and ODDS_TEST_GAMES (the tests' own tiny games). Each program's games.inc has one
// ODDS_GAME(GAME) line a game, and engine/GAME/register.cpp defines GAME_entry().
#include <iterator>
#include <stdexcept>

#include "sim/registry.hpp"

namespace odds {

// Each game defines GAME_entry() in engine/GAME/register.cpp; the list of games is CMake's
// ODDS_GAMES, written to games.inc as one ODDS_GAME(GAME) line each.
#define ODDS_GAME(game) GameEntry game##_entry();
#include "sim/games.inc"
#undef ODDS_GAME

std::span<const GameEntry> games() {
#define ODDS_GAME(game) game##_entry(),
    static const GameEntry kGames[] = {
#include "sim/games.inc"
    };
#undef ODDS_GAME
    static const bool checked = [] {
        for (const auto& g : kGames) validate(g);
        for (std::size_t i = 0; i < std::size(kGames); ++i)
            for (std::size_t j = 0; j < i; ++j)
                if (kGames[i].name == kGames[j].name)
                    throw std::logic_error("two games are registered as '" +
                                           std::string(kGames[i].name) + "'");
        return true;
    }();
    (void)checked;
    return kGames;
}

}  // namespace odds
