// Minimal Space Combat: two seats, each policy a doctrine (its ships) and a strategy, positions.
#include "engine/msc/msc.hpp"
#include "engine/msc/policies.hpp"
#include "sim/register_game.hpp"

namespace odds {
namespace {

struct Msc {
    static constexpr std::string_view name = "msc";
    static constexpr std::array<std::string_view, 2> seats{"a", "b"};
    static constexpr auto parse_options = msc::parse_options;
    static constexpr auto option_table = msc::option_table;
    static constexpr auto policies = msc::policy_table;
    static constexpr auto survival_spec = msc::survival_spec;
    static msc::Strategy seat(const msc::Policy& p) { return p.strategy; }
    // The run: each side's plan follows its policy's doctrine (M2a), a position read under them.
    static msc::Run bind(const msc::Options& o, const std::array<msc::Policy, 2>& seat,
                         const PositionText* at) {
        msc::Run r{o, {msc::plan_of(o, 0, seat[0].doctrine), msc::plan_of(o, 1, seat[1].doctrine)}};
        if (at) r.start = msc::read_position(at->text, at->file, o, r.plans);
        return r;
    }
    // odds shape: side A's odds estimated at the start of every turn (M4) by rollouts of the two
    // sides' own strategies from there.
    static void shape(ShapeReport& rep, const msc::Options& o,
                      const std::array<msc::Policy, 2>& seat, const odds::shape::Config& cfg,
                      odds::shape::Sampler& games) {
        const msc::Run run = bind(o, seat, nullptr);
        const std::array<msc::Strategy, 2> strategies{seat[0].strategy, seat[1].strategy};
        const auto start = [&](Dice& dice) { return msc::opening(o, run.plans, dice); };
        const auto turn = [](const msc::State& s) { return s.turn; };
        const auto score = [&](const msc::State& s) { return msc::Game::reward(s, o, 0); };
        rep.scenario = msc::scenario(run);
        odds::shape::rollout_report<msc::Game>(rep, cfg, games, "msc", o, strategies, start, turn,
                                               score);
    }
    static constexpr std::string_view headline[] = {
        "a_win", "b_win",    "draw",     "advantage_first",
        "turns", "timeouts", "end_home", "end_annihilation"};
    static constexpr std::string_view ladder[] = {"balanced/random", "balanced/expand",
                                                  "balanced/strike", "turtle/strike", "fast/rush"};
};

}  // namespace

GameEntry msc_entry() {
    return entry_of<Msc>({.title = "Minimal Space Combat: The Strategic Game",
                          .summary = "two players: build fleets from your systems' production and "
                                     "take the enemy home",
                          .rules_version = "msc/6",
                          .search = "fast/mcts:{n}",
                          // about 4,200 campaigns a second on 2 cores: two minutes for odds run
                          .run_playouts = 500'000});
}

}  // namespace odds
