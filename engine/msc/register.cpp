// Minimal Space Combat: The Strategic Game in the registry.
#include "engine/msc/msc.hpp"
#include "engine/msc/policies.hpp"
#include "sim/game_run.hpp"
#include "sim/registry.hpp"

namespace odds {

namespace {

constexpr std::string_view kGame = "msc";

struct MscGame {
    struct Options {
        msc::Options rules;
        std::array<msc::Plan, msc::kSides> plans;
        std::optional<msc::State> start;  // --state: every campaign from this position
    };
    using Seats = std::tuple<msc::Strategy, msc::Strategy>;
    template <class D, class A, class B>
    static void play(const Options& o, D& dice, std::int32_t* metrics, A& a, B& b) {
        msc::to_metrics(o.start ? msc::play_on(*o.start, o.rules, a, b, dice)
                                : msc::play(o.rules, o.plans, a, b, dice),
                        metrics);
    }
};

// prepare, from the position `text` when given (odds run msc --state FILE).
std::unique_ptr<PreparedRun> prepare_at(const Settings& settings,
                                        const std::vector<std::string>& policies,
                                        const std::string_view* text, std::string_view file) {
    MscGame::Options o{msc::parse_options(settings), {}, {}};
    const auto chosen = pick_seat_policies(kGame, {"a", "b"}, msc::policy_infos(), policies);
    std::array<msc::Policy, msc::kSides> seat{
        msc::policy_table()[chosen[0].index].make(o.rules, chosen[0].args),
        msc::policy_table()[chosen[1].index].make(o.rules, chosen[1].args)};
    // M2a: a side's plan: its main design and its escort (the options', else the policy's
    // doctrine at 15 and 10 BP: doctrine.main_size, doctrine.escort_size), the escorts a share
    // of the ships built.
    for (std::size_t side = 0; side < msc::kSides; ++side) {
        const msc::Doctrine doc = seat[side].doctrine;
        o.plans[side] = msc::Plan(
            o.rules.design[side] ? *o.rules.design[side] : msc::doctrine_main(doc, o.rules),
            o.rules.escort[side] ? *o.rules.escort[side] : msc::doctrine_escort(doc, o.rules),
            o.rules.escort_share[side]);
    }
    if (text) o.start = msc::read_position(*text, file, o.rules, o.plans);
    auto run =
        std::make_unique<GameRun<MscGame>>(o, MscGame::Seats{seat[0].strategy, seat[1].strategy});
    run->game = std::string(kGame);
    auto ships = [&](std::size_t side) {
        const msc::Plan& p = o.plans[side];  // main+escort@share%
        if (p.escort_share == 0) return msc::to_string(p.design[0]);
        return msc::to_string(p.design[0]) + "+" + msc::to_string(p.design[1]) + "@" +
               std::to_string(p.escort_share) + "%";
    };
    run->scenario = msc::scenario(o.rules) + " ships=" + ships(0) + "/" + ships(1);
    run->seat_scenario = {"ships_a=" + ships(0), "ships_b=" + ships(1)};
    run->policy = seats_label({"a", "b"}, chosen);
    run->metrics = msc::metric_specs(o.rules);
    run->survivals = {msc::survival_spec()};
    // Campaigns are long: small chunks keep Ctrl-C prompt; a 1,000-campaign run is four chunks,
    // two threads busy. What a seed plays depends on the chunk size: changing it changes the
    // rules version.
    run->chunk_size = 256;
    return run;
}

std::unique_ptr<PreparedRun> prepare(const Settings& settings,
                                     const std::vector<std::string>& policies) {
    return prepare_at(settings, policies, nullptr, {});
}

std::unique_ptr<PreparedRun> prepare_from(const Settings& settings,
                                          const std::vector<std::string>& policies,
                                          std::string_view text, std::string_view file) {
    return prepare_at(settings, policies, &text, file);
}

// The opening: turn 0, each side's budget saved, no ships yet (M3).
std::string opening_position(const Settings& settings) {
    const msc::Options o = msc::parse_options(settings);
    if (o.random_map)
        throw UsageError(
            "msc positions need a fixed map (map=example or a map file): map=random "
            "draws a new map for every campaign (M1)");
    ScriptedDice none{};
    return msc::write_position(msc::detail::unsettled_opening(o, {}, none));
}

}  // namespace

GameEntry msc_entry() {
    return {.name = kGame,
            .title = "Minimal Space Combat: The Strategic Game",
            .summary =
                "two players: build fleets from your systems' production and take the enemy "
                "home",
            .options = msc::option_infos(),
            .policies = msc::policy_infos(),
            .prepare = prepare,
            .seats = "a, b",
            .rules_version = "msc/6",
            .headline = "a_win,b_win,draw,advantage_first,turns,timeouts,end_home,end_annihilation",
            .versus = "a_win,b_win,draw",
            .opening_position = opening_position,
            .prepare_from = prepare_from};
}

}  // namespace odds
