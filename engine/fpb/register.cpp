// Full Plastic Bodybag: Heroes in the registry.
#include "engine/fpb/fpb.hpp"
#include "engine/fpb/policies.hpp"
#include "sim/game_run.hpp"
#include "sim/registry.hpp"

namespace odds {

namespace {

constexpr std::string_view kGame = "fpb";

struct FpbGame {
    using Options = fpb::Options;
    using Seats = std::tuple<fpb::Policy>;
    template <class D, class P>
    static void play(const Options& o, D& dice, std::int32_t* metrics, P& policy) {
        fpb::to_metrics(fpb::play(o, policy, dice), metrics);
    }
};

// The policy named in `args`; rollout takes its budget as rollout:N.
std::pair<fpb::Policy, std::string> make_policy(const fpb::Options& o,
                                                const std::vector<std::string>& args) {
    if (args.size() > 1)
        throw UsageError("fpb has one seat: give --policy once, not " + std::to_string(args.size()) +
                         " times");
    std::string name = args.empty() ? std::string(fpb::kPolicies[0].name) : args[0];
    int budget = 16;
    if (const auto colon = name.find(':'); colon != std::string::npos) {
        const auto b = parse_integer(std::string_view(name).substr(colon + 1), 1, 100000);
        if (name.substr(0, colon) != "rollout" || !b)
            throw UsageError("fpb: policy '" + name +
                             "' is not valid; only rollout takes a budget: rollout:N, N from 1 "
                             "to 100000");
        budget = static_cast<int>(*b);
        name = "rollout";
    }
    const std::string_view chosen = fpb::kPolicies[pick_policy(kGame, fpb::kPolicies, {name})].name;
    if (chosen == "bug-out") return {fpb::BugOut{}, name};
    if (chosen == "cover-and-carry") return {fpb::CoverAndCarry{}, name};
    if (chosen == "smoke-and-carry") return {fpb::SmokeAndCarry{}, name};
    if (chosen == "lead-from-front") return {fpb::LeadFromFront{}, name};
    if (chosen == "bravest-first") return {fpb::BravestFirst{}, name};
    if (chosen == "random") return {fpb::Random{}, name};
    return {fpb::Rollout{budget, o}, "rollout:" + std::to_string(budget)};
}

std::unique_ptr<PreparedRun> prepare(const Settings& settings,
                                     const std::vector<std::string>& policies) {
    const auto options = fpb::parse_options(settings);
    auto [policy, label] = make_policy(options, policies);
    auto run = std::make_unique<GameRun<FpbGame>>(options, FpbGame::Seats{std::move(policy)});
    run->game = std::string(kGame);
    run->scenario = fpb::scenario(options);
    run->policy = label;
    run->metrics = fpb::metric_specs(options);
    run->survivals = fpb::survival_specs();
    // rollout plays thousands of games a decision: small chunks keep Ctrl-C and progress prompt
    run->chunk_size = label.rfind("rollout", 0) == 0 ? 64 : 16384;
    return run;
}

}  // namespace

GameEntry fpb_entry() {
    return {.name = kGame,
            .title = "Full Plastic Bodybag: Heroes",
            .summary = "solo: a raw lieutenant's squad must bring its wounded pointman back under a "
                       "sniper's gun",
            .options = fpb::option_infos(),
            .policies = fpb::kPolicies,
            .prepare = prepare,
            .rules_version = "fpb/2",
            .headline = "withdrawn,wounded_withdrawn,left_behind,killed,icecube_rescued,turns,clean,"
                        "costly,lost"};
}

}  // namespace odds
