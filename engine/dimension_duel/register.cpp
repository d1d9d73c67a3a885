// Dimension Duel in the registry.
#include <algorithm>

#include "engine/dimension_duel/dimension_duel.hpp"
#include "engine/dimension_duel/exact.hpp"
#include "engine/dimension_duel/policies.hpp"
#include "reports/csv.hpp"
#include "sim/game_run.hpp"
#include "sim/position_run.hpp"
#include "sim/registry.hpp"

namespace odds {

namespace {

struct DuelGame {
    using Options = dimension_duel::Options;
    using Seats = std::tuple<dimension_duel::Policy, dimension_duel::Policy>;
    template <class D, class T, class K>
    static void play_from(dimension_duel::State s, const Options& o, D& dice, std::int32_t* metrics,
                          T& tau, K& kaon) {
        dimension_duel::play_from(s, o, tau, kaon, dice);
        dimension_duel::to_metrics(s.out, metrics);
    }
    template <class D, class T, class K>
    static void play(const Options& o, D& dice, std::int32_t* metrics, T& tau, K& kaon) {
        dimension_duel::to_metrics(dimension_duel::play(o, tau, kaon, dice), metrics);
    }
};
using DuelFrom = FromPosition<DuelGame, dimension_duel::State>;

constexpr std::string_view kGame = "dimension-duel";

// The seats' policies; a best-response seat is solved against the other seat's policy.
std::pair<DuelGame::Seats, std::string> make_seats(const dimension_duel::Options& o,
                                                   const std::vector<std::string>& args) {
    const auto chosen =
        pick_seat_policies(kGame, {"tau", "kaon"}, dimension_duel::kPolicyInfos, args);
    std::array<dimension_duel::Policy, 2> seats;
    for (std::size_t s = 0; s < 2; ++s)
        seats[s] = dimension_duel::kPolicies[chosen[s].index].make(o, chosen[s].args);
    const auto best = [&](std::size_t s) {
        return std::holds_alternative<dimension_duel::BestResponse>(seats[s]);
    };
    if (best(0) && best(1))
        throw UsageError(std::string(kGame) +
                         ": best-response needs a fixed opponent; give the other seat a policy");
    for (std::size_t s = 0; s < 2; ++s)
        if (best(s))
            std::get<dimension_duel::BestResponse>(seats[s]).table =
                exact::dimension_duel::best_response(o, static_cast<dimension_duel::Seat>(s),
                                                     seats[1 - s]);
    const std::string label = seats_label({"tau", "kaon"}, chosen);
    return {DuelGame::Seats{seats[0], seats[1]}, label};
}

// A fresh duel (start: none) or one from a position.
std::unique_ptr<PreparedRun> prepare_at(const dimension_duel::Options& options,
                                        const std::vector<std::string>& policies,
                                        const dimension_duel::State* start) {
    auto [seats, label] = make_seats(options, policies);
    std::unique_ptr<PreparedRun> run;
    if (start)
        run = std::make_unique<GameRun<DuelFrom>>(DuelFrom::Options{options, *start},
                                                  std::move(seats));
    else
        run = std::make_unique<GameRun<DuelGame>>(options, std::move(seats));
    run->game = std::string(kGame);
    run->scenario = dimension_duel::scenario(options);
    run->policy = label;
    run->metrics = dimension_duel::metric_specs(options);
    run->survivals = {dimension_duel::survival_spec()};
    // What a seed plays depends on the chunk size (chunk k rolls stream_seed(seed, k)): changing it
    // changes the rules version. 256: a 1,000-game run is four chunks, two threads busy.
    run->chunk_size = 256;
    return run;
}

std::unique_ptr<PreparedRun> prepare(const Settings& settings,
                                     const std::vector<std::string>& policies) {
    return prepare_at(dimension_duel::parse_options(settings), policies, nullptr);
}

std::string opening(const Settings& settings) {
    const auto options = dimension_duel::parse_options(settings);
    return dimension_duel::write_position(dimension_duel::opening(options), options);
}

std::unique_ptr<PreparedRun> prepare_from(const Settings& settings,
                                          const std::vector<std::string>& policies,
                                          std::string_view text, std::string_view file) {
    const auto options = dimension_duel::parse_options(settings);
    const auto start = dimension_duel::read_position(text, file, options);
    return prepare_at(options, policies, &start);
}

ExactReport exact_at(const dimension_duel::Options& options,
                     const std::vector<std::string>& policies, const dimension_duel::State& start) {
    const auto [seats, label] = make_seats(options, policies);
    const auto r =
        exact::dimension_duel::solve_from(options, std::get<0>(seats), std::get<1>(seats), start);
    const auto specs = dimension_duel::metric_specs(options);
    auto spec = [&](int m) { return specs[m]; };
    ExactReport rep{std::string(kGame), dimension_duel::scenario(options), label, {}, {}, {}};
    const double u = r.unresolved;
    auto rest = [u](double p) { return std::max(0.0, 1 - p - u); };  // no rounding below zero
    rep.laws.push_back({spec(dimension_duel::kTauWin), {rest(r.tau_win), r.tau_win}, u});
    rep.laws.push_back({spec(dimension_duel::kKaonWin), {rest(r.kaon_win), r.kaon_win}, u});
    rep.laws.push_back({spec(dimension_duel::kDraw), {rest(r.draw), r.draw}, u});
    rep.laws.push_back({spec(dimension_duel::kAdvantageFirst), {r.kaon_win, r.draw, r.tau_win}, u});
    rep.laws.push_back({spec(dimension_duel::kTurns), {r.turns.begin() + 1, r.turns.end()}, u});
    rep.laws.push_back({spec(dimension_duel::kWinnerHp), r.winner_hp, u});
    rep.laws.push_back({spec(dimension_duel::kTimeouts), {rest(r.timeout), r.timeout}, u});
    rep.laws.push_back(
        {spec(dimension_duel::kDrawishness), {rest(r.draw - r.timeout), r.draw - r.timeout}, u});
    try {  // the game's value, where it is solved (equilibrium.hpp)
        const double v = dimension_duel::equilibrium(options)->value();
        rep.notes.push_back("the game's value for tau under optimal play (draws half, D2a): " +
                            std::to_string(v) + "; policy equilibrium plays it");
    } catch (const UsageError&) {}
    // P(still running after t turns): every duel ends by the event.
    rep.survival = survival_csv_exact({r.turns.begin() + 1, r.turns.end()}, {}, 1);
    return rep;
}

ExactReport solve_exact(const Settings& settings, const std::vector<std::string>& policies) {
    const auto options = dimension_duel::parse_options(settings);
    return exact_at(options, policies, dimension_duel::opening(options));
}

ExactReport exact_from(const Settings& settings, const std::vector<std::string>& policies,
                       std::string_view text, std::string_view file) {
    const auto options = dimension_duel::parse_options(settings);
    return exact_at(options, policies, dimension_duel::read_position(text, file, options));
}

}  // namespace

GameEntry dimension_duel_entry() {
    return {
        .name = kGame,
        .title = "Dimension Duel",
        .summary = "two players: particle devices fire rays and raise shields until one is dust",
        .options = dimension_duel::option_infos(),
        .policies = dimension_duel::kPolicyInfos,
        .prepare = prepare,
        .seats = "tau, kaon",
        .exact = solve_exact,
        .rules_version = "dimension-duel/2",
        .headline = "tau_win,kaon_win,draw,advantage_first,turns,winner_hp",
        .versus = "tau_win,kaon_win,draw",
        .exact_limits = "hp up to " + std::to_string(exact::dimension_duel::kMaxExactHp) +
                        ", single_use=false; best-response likewise, and max_turns of 10000 "
                        "or more",
        .opening_position = opening,
        .prepare_from = prepare_from,
        .exact_from = exact_from};
}

}  // namespace odds
