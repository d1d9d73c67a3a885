// Naval Duel in the registry: the kernel's traits, from which entry_of builds the entry.
#include "engine/naval/naval.hpp"
#include "engine/naval/policies.hpp"
#include "sim/register_game.hpp"
#include "sim/shape_run.hpp"

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
    // The shape of a game turn by turn (odds shape): side A's odds estimated at the start of
    // every turn (N4) by rollouts of the two sides' own policies from there (the whole state,
    // hands and deck included: the odds of an onlooker who sees everything).
    static void shape(ShapeReport& rep, const naval::Options& o,
                      const std::array<naval::Policy, 2>& seat, const shape::Config& cfg) {
        using G = naval::Game;
        const naval::Start opening = naval::opening(o);
        const G::Options go{};
        const auto start = [&](Dice& dice) { return G::start(opening, dice); };
        const auto turn = [](const naval::State& s) { return s.turn; };
        const auto score = [&](const naval::State& s) { return G::reward(s, go, 0); };
        shape::Tally empty;
        shape::refuse_exact(cfg, "naval", "no solver");
        empty.rollouts = cfg.rollouts;
        rep.estimator = shape::rollout_estimator(cfg);
        auto r = shape::run_traces(cfg, empty, [&](std::uint64_t i, std::vector<double>& out) {
            std::visit(
                [&](const auto& a, const auto& b) {
                    shape::rollout_trace<G>(go, start, a, b, cfg, i, turn, score, out);
                },
                seat[0], seat[1]);
        });
        rep.tally = std::move(r.tally);
        rep.partial = r.partial;
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
