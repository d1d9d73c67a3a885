// Dimension Duel in the registry: the kernel's traits, from which entry_of builds the entry.
#include <algorithm>

#include "engine/dimension_duel/dimension_duel.hpp"
#include "engine/dimension_duel/equilibrium.hpp"
#include "engine/dimension_duel/exact.hpp"
#include "engine/dimension_duel/policies.hpp"
#include "engine/dimension_duel/shape.hpp"
#include "reports/csv.hpp"
#include "sim/register_game.hpp"
#include "sim/shape_run.hpp"

namespace odds {

namespace {

namespace dd = dimension_duel;

struct Duel {
    static constexpr std::string_view name = "dimension-duel";
    static constexpr std::array<std::string_view, 2> seats{"tau", "kaon"};
    static constexpr auto parse_options = dd::parse_options;
    static constexpr auto& policies = dd::kPolicies;
    static constexpr auto survival_spec = dd::survival_spec;
    static constexpr auto opening = dd::opening;
    // best-response: its table solved against the other seat's policy.
    static void solve_against(const dd::Options& o, std::size_t seat, dd::Policy& mine,
                              const dd::Policy& other) {
        std::get<dd::BestResponse>(mine).table =
            exact::dimension_duel::best_response(o, static_cast<dd::Seat>(seat), other);
    }
    static void exact(ExactReport& rep, const dd::Options& o, const std::array<dd::Policy, 2>& seat,
                      const dd::State& start) {
        const auto r = exact::dimension_duel::solve_from(o, seat[0], seat[1], start);
        const auto specs = dd::metric_specs(o);
        const double u = r.unresolved;
        auto rest = [u](double p) { return std::max(0.0, 1 - p - u); };  // no rounding below zero
        auto law = [&](int m, std::vector<double> mass) {
            rep.laws.push_back({specs[m], mass, u});
        };
        law(dd::kTauWin, {rest(r.tau_win), r.tau_win});
        law(dd::kKaonWin, {rest(r.kaon_win), r.kaon_win});
        law(dd::kDraw, {rest(r.draw), r.draw});
        law(dd::kAdvantageFirst, {r.kaon_win, r.draw, r.tau_win});
        law(dd::kTurns, {r.turns.begin() + 1, r.turns.end()});
        law(dd::kWinnerHp, r.winner_hp);
        law(dd::kTimeouts, {rest(r.timeout), r.timeout});
        law(dd::kDrawishness, {rest(r.draw - r.timeout), r.draw - r.timeout});
        try {  // the game's value, where it is solved (equilibrium.hpp)
            const double v = dd::equilibrium(o)->value();
            rep.notes.push_back("the game's value for tau under optimal play (draws half, D2a): " +
                                std::to_string(v) + "; policy equilibrium plays it");
        } catch (const UsageError&) {}
        // P(still running after t turns): every duel ends by the event.
        rep.survival = survival_csv_exact({r.turns.begin() + 1, r.turns.end()}, {}, 1);
    }
    // The shape of sampled duels along their length, turn by turn: Tau's odds exact from the
    // value table (shape.hpp), or rollouts when asked (--estimator rollouts).
    static void shape(ShapeReport& rep, const dd::Options& o, const std::array<dd::Policy, 2>& seat,
                      const shape::Config& cfg) {
        shape::Tally empty;
        const auto start = [&](Dice&) { return dd::opening(o); };
        const auto turn = [](const dd::State& s) { return s.turn; };
        const auto score = [&](const dd::State& s) { return dd::Game::reward(s, o, dd::kTau); };
        ChunkedResult<shape::Tally> r;
        if (cfg.force_rollouts) {
            empty.rollouts = cfg.rollouts;
            rep.estimator = shape::rollout_estimator(cfg);
            r = shape::run_traces(cfg, empty, [&](std::uint64_t i, std::vector<double>& out) {
                std::visit(
                    [&](const auto& a, const auto& b) {
                        shape::rollout_trace<dd::Game>(o, start, a, b, cfg, i, turn, score, out);
                    },
                    seat[0], seat[1]);
            });
        } else {
            const auto table = exact::dimension_duel::values(o, seat[0], seat[1]);
            rep.estimator = "exact (the value table of the seats' policies)";
            r = shape::run_traces(cfg, empty, [&](std::uint64_t i, std::vector<double>& out) {
                out = dd::shape::trace(o, seat[0], seat[1], table, cfg.seed, i).p;
            });
        }
        rep.tally = std::move(r.tally);
        rep.partial = r.partial;
    }
};

constexpr std::string_view kHeadline[] = {"tau_win",         "kaon_win", "draw",
                                          "advantage_first", "turns",    "winner_hp"};
// odds skill's ladder, weakest first (docs/skill.md).
constexpr std::string_view kLadder[] = {"dice", "aggressor", "calibrator", "survivor",
                                        "equilibrium"};
constexpr std::string_view kVersus[] = {"tau_win", "kaon_win", "draw"};

}  // namespace

GameEntry dimension_duel_entry() {
    return entry_of<Duel>(
        {.title = "Dimension Duel",
         .summary = "two players: particle devices fire rays and raise shields until one is dust",
         .options = dd::option_infos(),
         .rules_version = "dimension-duel/2",
         .headline = kHeadline,
         .versus = kVersus,
         .ladder = kLadder,
         .search = "mcts:{n}",
         .exact_limits = "hp up to " + std::to_string(exact::dimension_duel::kMaxExactHp) +
                         ", single_use=false; best-response likewise, and max_turns of 10000 "
                         "or more"});
}

}  // namespace odds
