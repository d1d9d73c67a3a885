// Naval Duel in the registry.
#include "engine/naval/naval.hpp"
#include "engine/naval/policies.hpp"
#include "sim/game_run.hpp"
#include "sim/registry.hpp"

namespace odds {

namespace {

constexpr std::string_view kGame = "naval";

struct NavalGame {
    using Options = naval::Options;
    using Seats = std::tuple<naval::Policy, naval::Policy>;
    template <class D, class A, class B>
    static void play(const Options& o, D& dice, std::int32_t* metrics, A& a, B& b) {
        naval::to_metrics(naval::play(o, a, b, dice), metrics);
    }
};

// The seats' policies from args "NAME" or "SEAT=NAME"; rollout takes its budget as rollout:N.
std::unique_ptr<PreparedRun> prepare(const Settings& settings,
                                     const std::vector<std::string>& policies) {
    const auto options = naval::parse_options(settings);
    std::vector<std::string> names;
    std::array<naval::Rollout, 2> search{};
    for (const auto& arg : policies) {
        const auto eq = arg.find('=');
        const auto at = eq == std::string::npos ? 0 : eq + 1;
        std::string name = arg;
        if (const auto colon = name.find(':'); colon != std::string::npos) {
            // rollout:N or rollout:N:H
            const std::string_view rest = std::string_view(name).substr(colon + 1);
            const auto second = rest.find(':');
            const auto n = parse_integer(rest.substr(0, second), 1, 100000);
            const auto h = second == std::string_view::npos ? std::optional<std::int64_t>(0)
                                                            : parse_integer(rest.substr(second + 1), 0, 60);
            if (name.substr(at, colon - at) != "rollout" || !n || !h)
                throw UsageError("naval: policy '" + arg +
                                 "' is not valid; only rollout takes parameters: rollout:N or "
                                 "rollout:N:H, N simulations from 1 to 100000, H turns from 0 to 60");
            const std::string seat = name.substr(0, at == 0 ? 0 : at - 1);
            for (int k = 0; k < 2; ++k)
                if (seat.empty() || seat == (k == 0 ? "a" : "b")) {
                    search[static_cast<std::size_t>(k)].budget = static_cast<int>(*n);
                    search[static_cast<std::size_t>(k)].horizon = static_cast<int>(*h);
                }
            name = name.substr(0, colon);
        }
        names.push_back(name);
    }
    const auto idx = pick_seat_policies(kGame, {"a", "b"}, naval::kPolicies, names);
    std::array<naval::Policy, 2> seat;
    std::array<std::string, 2> label;
    for (int k = 0; k < 2; ++k) {
        const std::string_view chosen = naval::kPolicies[idx[static_cast<std::size_t>(k)]].name;
        auto& p = seat[static_cast<std::size_t>(k)];
        label[static_cast<std::size_t>(k)] = std::string(chosen);
        if (chosen == "gunner") p = naval::Gunner{};
        else if (chosen == "gunner-no-grape") p = naval::Gunner{false};
        else if (chosen == "boarder") p = naval::Boarder{};
        else if (chosen == "random") p = naval::Random{};
        else {
            const naval::Rollout& r = search[static_cast<std::size_t>(k)];
            p = r;
            label[static_cast<std::size_t>(k)] += ":" + std::to_string(r.budget);
            if (r.horizon > 0) label[static_cast<std::size_t>(k)] += ":" + std::to_string(r.horizon);
        }
    }
    auto run = std::make_unique<GameRun<NavalGame>>(options, NavalGame::Seats{seat[0], seat[1]});
    run->game = std::string(kGame);
    run->scenario = naval::scenario(options);
    run->policy = "a=";  // appended piecewise: GCC 12 warns falsely (-Wrestrict) on "a=" + s
    run->policy.append(label[0]).append(" b=").append(label[1]);
    run->metrics = naval::metric_specs(options);
    run->survivals = {naval::survival_spec()};
    const bool searching = label[0].rfind("rollout", 0) == 0 || label[1].rfind("rollout", 0) == 0;
    run->chunk_size = searching ? 16 : 1024;  // small chunks keep progress and Ctrl-C prompt
    return run;
}

}  // namespace

GameEntry naval_entry() {
    return {.name = kGame,
            .title = "Naval Duel",
            .summary = "two players: fleets of ships of the line trade broadsides and board on a hex "
                       "sea",
            .options = naval::option_infos(),
            .policies = naval::kPolicies,
            .prepare = prepare,
            .seats = "a, b",
            .rules_version = "naval/3",
            .headline = "a_win,b_win,draw,advantage_first,turns,timeouts,boardings,more_guns_won,"
                        "fewer_guns_won",
            .versus = "a_win,b_win,draw"};
}

}  // namespace odds
