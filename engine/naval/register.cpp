// Naval Duel in the registry: the kernel's traits, from which entry_of builds the entry.
#include "engine/naval/naval.hpp"
#include "engine/naval/policies.hpp"
#include "sim/register_game.hpp"

namespace odds {

namespace {

struct Naval {
    static constexpr std::string_view name = "naval";
    static constexpr std::array<std::string_view, 2> seats{"a", "b"};
    static constexpr auto parse_options = naval::parse_options;
    static constexpr auto& policies = naval::kPolicies;
    static constexpr auto survival_spec = naval::survival_spec;
    static constexpr auto opening = naval::opening;
    template <class D, class A, class B>
    static void play(const naval::Start& start, const naval::Options&, D& dice,
                     std::int32_t* metrics, A& a, B& b) {
        naval::to_metrics(naval::play(start, a, b, dice), metrics);
    }
    // Small chunks keep progress and Ctrl-C prompt, and a 1,000-game run on every core (an mcts
    // game takes about a second: two a chunk).
    static std::uint32_t chunk_size(const naval::Policy& a, const naval::Policy& b) {
        if (std::holds_alternative<naval::Mcts>(a) || std::holds_alternative<naval::Mcts>(b))
            return 2;
        return std::holds_alternative<naval::Rollout>(a) ||
                       std::holds_alternative<naval::Rollout>(b)
                   ? 16
                   : 64;
    }
};

constexpr std::string_view kHeadline[] = {"a_win",           "b_win",         "draw",
                                          "advantage_first", "turns",         "timeouts",
                                          "boardings",       "more_guns_won", "fewer_guns_won"};
// odds skill's ladder, weakest first (docs/skill.md).
constexpr std::string_view kLadder[] = {"random", "gunner-no-grape", "gunner", "boarder"};
constexpr std::string_view kVersus[] = {"a_win", "b_win", "draw"};

}  // namespace

GameEntry naval_entry() {
    return entry_of<Naval>({.title = "Naval Duel",
                            .summary = "two players: fleets of ships of the line trade broadsides "
                                       "and board on a hex sea",
                            .options = naval::option_infos(),
                            .rules_version = "naval/4",
                            .headline = kHeadline,
                            .versus = kVersus,
                            .ladder = kLadder,
                            .search = "mcts:{n}"});
}

}  // namespace odds
