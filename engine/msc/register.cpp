// Minimal Space Combat: The Strategic Game in the registry: the kernel's traits, from which
// entry_of builds the entry. A run's options hold each side's plan, which its policy's doctrine
// decides (Run, bind).
#include "engine/msc/msc.hpp"
#include "engine/msc/policies.hpp"
#include "sim/register_game.hpp"
#include "sim/shape_run.hpp"

namespace odds {

namespace {

struct Msc {
    static constexpr std::string_view name = "msc";
    static constexpr std::array<std::string_view, 2> seats{"a", "b"};
    using Options = msc::Options;
    using State = msc::State;
    static constexpr auto parse_options = msc::parse_options;
    static constexpr auto policies = msc::policy_table;
    static constexpr auto policy_infos = msc::policy_infos;
    static constexpr auto survival_spec = msc::survival_spec;
    static msc::Strategy seat(const msc::Policy& p) { return p.strategy; }
    struct Run {
        Options rules;
        std::array<msc::Plan, msc::kSides> plans;
        std::optional<State> start;  // --state: every campaign from this position
    };
    // Each side's plan follows its policy's doctrine (M2a).
    static Run bind(const Options& o, const std::array<msc::Policy, 2>& seat,
                    const PositionText* at) {
        Run r{o, {msc::plan_of(o, 0, seat[0].doctrine), msc::plan_of(o, 1, seat[1].doctrine)}, {}};
        if (at) r.start = msc::read_position(at->text, at->file, o, r.plans);
        return r;
    }
    template <class D, class A, class B>
    static void play(const Run& r, D& dice, std::int32_t* metrics, A& a, B& b) {
        msc::to_metrics(r.start ? msc::play_on(*r.start, r.rules, a, b, dice)
                                : msc::play(r.rules, r.plans, a, b, dice),
                        metrics);
    }
    static std::string scenario(const Run& r) {
        return msc::scenario(r.rules) + " ships=" + msc::to_string(r.plans[0]) + "/" +
               msc::to_string(r.plans[1]);
    }
    static std::vector<std::string> seat_scenario(const Run& r) {
        return {"ships_a=" + msc::to_string(r.plans[0]), "ships_b=" + msc::to_string(r.plans[1])};
    }
    // The opening: turn 0, each side's budget saved, no ships yet (M3).
    static State opening(const Options& o) {
        if (o.random_map)
            throw UsageError(
                "msc positions need a fixed map (map=example or a map file): map=random "
                "draws a new map for every campaign (M1)");
        ScriptedDice none{};
        return msc::detail::unsettled_opening(o, {}, none);
    }
    // The shape of a campaign turn by turn (odds shape): side A's odds estimated at the start of
    // every turn (M4) by rollouts of the two sides' own strategies from there.
    static void shape(ShapeReport& rep, const Options& o, const std::array<msc::Policy, 2>& seat,
                      const shape::Config& cfg) {
        using G = msc::Game;
        const Run run = bind(o, seat, nullptr);
        const auto start = [&](Dice& dice) { return msc::opening(o, run.plans, dice); };
        const auto turn = [](const State& s) { return s.turn; };
        const auto score = [&](const State& s) { return G::reward(s, o, 0); };
        shape::Tally empty;
        shape::refuse_exact(cfg, "msc", "no solver");
        empty.rollouts = cfg.rollouts;
        rep.estimator = shape::rollout_estimator(cfg);
        rep.scenario = scenario(run);
        auto r = shape::run_traces(cfg, empty, [&](std::uint64_t i, std::vector<double>& out) {
            std::visit(
                [&](const auto& a, const auto& b) {
                    shape::rollout_trace<G>(o, start, a, b, cfg, i, turn, score, out);
                },
                seat[0].strategy, seat[1].strategy);
        });
        rep.tally = std::move(r.tally);
        rep.partial = r.partial;
    }
};

constexpr std::string_view kHeadline[] = {"a_win", "b_win",    "draw",     "advantage_first",
                                          "turns", "timeouts", "end_home", "end_annihilation"};
// odds skill's ladder, weakest first (docs/skill.md).
constexpr std::string_view kLadder[] = {"balanced/random", "balanced/expand", "balanced/strike",
                                        "turtle/strike", "fast/rush"};
constexpr std::string_view kVersus[] = {"a_win", "b_win", "draw"};

}  // namespace

GameEntry msc_entry() {
    return entry_of<Msc>({.title = "Minimal Space Combat: The Strategic Game",
                          .summary = "two players: build fleets from your systems' production and "
                                     "take the enemy home",
                          .options = msc::option_infos(),
                          .rules_version = "msc/6",
                          .headline = kHeadline,
                          .versus = kVersus,
                          .ladder = kLadder,
                          .search = "fast/mcts:{n}"});
}

}  // namespace odds
