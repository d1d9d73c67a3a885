// Race in the registry: one of the tests' games (CMake's ODDS_TEST_GAMES), not the odds
// program's; docs/adding-a-game.md walks through this file. Race is the kernel's traits
// (sim/register_game.hpp says what they may hold); entry_of builds the entry from them.
#include "engine/race/exact.hpp"
#include "engine/race/policies.hpp"
#include "engine/race/race.hpp"
#include "sim/register_game.hpp"
#include "sim/shape_run.hpp"

namespace odds {

namespace {

struct Race {
    static constexpr std::string_view name = "race";
    static constexpr auto parse_options = race::parse_options;
    static constexpr auto& policies = race::kPolicies;
    static constexpr auto survival_spec = race::survival_spec;
    static race::State opening(const race::Options&) { return {}; }
    static void exact(ExactReport& r, const race::Options& o,
                      const std::array<race::Policy, 1>& p) {
        const auto mass = exact::race::solve(o, p[0]);
        const auto specs = race::metric_specs(o);
        for (std::size_t m = 0; m < specs.size(); ++m) r.laws.push_back({specs[m], mass[m], 0.0});
    }
    // The shape of a race turn by turn (odds shape): P(win) exact from the value table of the
    // policy (exact::race::values), or rollouts for mcts or when asked.
    static void shape(ShapeReport& rep, const race::Options& o,
                      const std::array<race::Policy, 1>& p, const shape::Config& cfg) {
        shape::Tally empty;
        empty.solo = true;
        const auto start = [](Dice&) { return race::State{}; };
        const auto turn = [](const race::State& s) { return s.turn; };
        const auto win = [](const race::State& s) { return s.won ? 1.0 : 0.0; };
        ChunkedResult<shape::Tally> r;
        if (cfg.force_rollouts || std::holds_alternative<race::Mcts>(p[0])) {
            shape::refuse_exact(cfg, "race",
                                "mcts searches; its value table needs a policy that "
                                "states its moves as probabilities");
            empty.rollouts = cfg.rollouts;
            rep.estimator = shape::rollout_estimator(cfg);
            r = shape::run_traces(cfg, empty, [&](std::uint64_t i, std::vector<double>& out) {
                std::visit(
                    [&](const auto& a) {
                        shape::rollout_trace<race::Game>(o, start, a, a, cfg, i, turn, win, out);
                    },
                    p[0]);
            });
        } else {
            const auto table = exact::race::values(o, p[0]);
            rep.estimator = "exact (the policy's value table)";
            const auto value = [&](const race::State& s) { return table.at(s); };
            r = shape::run_traces(cfg, empty, [&](std::uint64_t i, std::vector<double>& out) {
                std::visit(
                    [&](const auto& a) {
                        shape::exact_trace<race::Game>(o, start, a, a, cfg, i, turn, value, win,
                                                       out);
                    },
                    p[0]);
            });
        }
        rep.tally = std::move(r.tally);
        rep.partial = r.partial;
    }
};

constexpr std::string_view kHeadline[] = {"win", "turns", "rolls"};
// odds skill's ladder, weakest first (docs/skill.md).
constexpr std::string_view kLadder[] = {"random", "walk", "roll", "best"};

}  // namespace

GameEntry race_entry() {
    return entry_of<Race>(
        {.title = "Race",
         .summary =
             "solo: walk two squares or roll one die, to reach the goal in time (a test game)",
         .options = race::option_infos(),
         .rules_version = "race/2",
         .headline = kHeadline,
         .ladder = kLadder,
         .search = "mcts:{n}"});
}

}  // namespace odds
