// Naval Duel: two seats on a hex sea, positions; its searching policies are slow (chunk_size).
#include "engine/naval/naval.hpp"
#include "engine/naval/policies.hpp"
#include "sim/register_game.hpp"

namespace odds {
namespace {

struct Naval {
    static constexpr std::string_view name = "naval";
    static constexpr std::array<std::string_view, 2> seats{"a", "b"};
    static constexpr auto parse_options = naval::parse_options;
    static constexpr auto option_table = naval::option_table;
    static constexpr auto& policies = naval::kPolicies;
    static constexpr auto survival_spec = naval::survival_spec;
    // An mcts game takes about a second: two a chunk keep a 1,000-game run on every core.
    static std::uint32_t chunk_size(const naval::Policy& a, const naval::Policy& b) {
        return any_is<naval::Mcts>(a, b) ? 2 : any_is<naval::Rollout>(a, b) ? 16 : 64;
    }
    // odds shape: side A's odds estimated at the start of every turn (N4) by rollouts of the two
    // sides' own policies from there (the whole state, hands and deck included: the odds of an
    // onlooker who sees everything).
    static void shape(ShapeReport& rep, const naval::Options& o,
                      const std::array<naval::Policy, 2>& seat, const odds::shape::Config& cfg,
                      odds::shape::Sampler& games) {
        using G = naval::Game;
        const naval::Start opening = naval::opening(o);
        const G::Options go{};
        const auto start = [&](Dice& dice) { return G::start(opening, dice); };
        const auto turn = [](const naval::State& s) { return s.turn; };
        const auto score = [&](const naval::State& s) { return G::reward(s, go, 0); };
        odds::shape::rollout_report<G>(rep, cfg, games, "naval", go, seat, start, turn, score);
    }
    static constexpr std::string_view headline[] = {
        "a_win",    "b_win",     "draw",          "advantage_first", "turns",
        "timeouts", "boardings", "more_guns_won", "fewer_guns_won"};
    static constexpr std::string_view ladder[] = {"random", "gunner-no-grape", "gunner", "boarder"};
};

}  // namespace

GameEntry naval_entry() {
    return entry_of<Naval>({.title = "Naval Duel",
                            .summary = "two players: fleets of ships of the line trade broadsides "
                                       "and board on a hex sea",
                            .rules_version = "naval/4",
                            .search = "mcts:{n}",
                            // odds shape estimates every turn by rollouts, and odds skill's
                            // searches play long games: about two minutes on 2 cores each;
                            // odds run plays about 2,500 games a second there
                            .shape_games = 500,
                            .skill_games = 16,
                            .run_playouts = 300'000});
}

}  // namespace odds
