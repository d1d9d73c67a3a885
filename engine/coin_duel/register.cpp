// Coin Duel: a throwaway two-seat game, no positions.
#include "engine/coin_duel/coin_duel.hpp"
#include "engine/coin_duel/policies.hpp"
#include "sim/register_game.hpp"

namespace odds {
namespace {

struct CoinDuel {
    static constexpr std::string_view name = "coin-duel";
    static constexpr std::array<std::string_view, 2> seats{"a", "b"};
    static constexpr auto parse_options = coin_duel::parse_options;
    static constexpr auto& policies = coin_duel::kPolicies;
    static constexpr auto survival_spec = coin_duel::survival_spec;
};
constexpr std::string_view kHeadline[] = {"a_win", "b_win", "draw", "turns"};

}  // namespace

GameEntry coin_duel_entry() {
    return entry_of<CoinDuel>({.title = "Coin Duel",
                               .summary = "two players: throw a die safe or bold, first to win",
                               .options = coin_duel::option_infos(),
                               .rules_version = "coin-duel/1",
                               .headline = kHeadline});
}

}  // namespace odds
