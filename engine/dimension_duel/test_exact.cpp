// The Dimension Duel exact solver against Monte Carlo (4 standard errors, fixed seeds) for
// several policy pairs and two hp values; its laws sum to 1; best-response beats every policy.
#include <catch2/catch.hpp>
#include <cmath>

#include "engine/dimension_duel/dimension_duel.hpp"
#include "engine/dimension_duel/exact.hpp"
#include "engine/dimension_duel/policies.hpp"
#include "sim/registry.hpp"
#include "tests/exact.hpp"
#include "tests/helpers.hpp"

using namespace odds;
namespace ex = odds::exact::dimension_duel;

namespace {

Tally monte_carlo(const Settings& settings, const std::vector<std::string>& policies,
                  std::uint64_t playouts, std::uint64_t seed) {
    return test::monte_carlo("dimension-duel", settings, policies, playouts, seed);
}
using test::counts;

dimension_duel::Policy make(const std::string& name) {
    if (name == "dice") return dimension_duel::DicePolicy{};
    if (name == "aggressor") return dimension_duel::Aggressor{};
    if (name == "survivor") return dimension_duel::Survivor{};
    return dimension_duel::Calibrator{};
}

}  // namespace

TEST_CASE("exact duel laws sum to 1 within 1e-12", "[duel][exact]") {
    dimension_duel::Options o;
    for (const auto& [a, b] : {std::pair{"dice", "dice"}, std::pair{"aggressor", "survivor"},
                               std::pair{"calibrator", "aggressor"}}) {
        const auto r = ex::solve(o, make(a), make(b));
        INFO(a << " vs " << b);
        CHECK(std::abs(r.tau_win + r.kaon_win + r.draw + r.unresolved - 1) < 1e-12);
        CHECK(r.unresolved < 1e-12);
        CHECK(std::abs(test::total(r.turns) + r.unresolved - 1) < 1e-12);
        CHECK(std::abs(test::total(r.winner_hp) + r.unresolved - 1) < 1e-12);
    }
}

TEST_CASE("exact duel odds equal Monte Carlo", "[duel][exact][statistics]") {
    struct Case {
        const char* hp;
        std::vector<std::string> policies;
    };
    const Case cases[] = {
        {"75", {"dice"}},
        {"75", {"tau=aggressor", "kaon=survivor"}},
        {"75", {"tau=calibrator", "kaon=dice"}},
        {"20", {"tau=survivor", "kaon=aggressor"}},
        {"20", {"tau=dice", "kaon=best-response"}},
        {"20", {"dice"}},
    };
    std::uint64_t seed = 500;
    for (const auto& c : cases) {
        const Settings settings{{"hp", c.hp}};
        const auto prepared = find_game("dimension-duel").prepare(settings, c.policies);
        INFO(prepared->scenario << " | " << prepared->policy);
        const ExactReport exact = find_game("dimension-duel").exact(settings, c.policies);
        const Tally mc = monte_carlo(settings, c.policies, 200'000, ++seed);
        // exact laws in order: tau_win, kaon_win, draw, advantage_first, turns, winner_hp,
        // timeouts, drawishness
        test::require_matches(counts(mc, dimension_duel::kTauWin), exact.laws[0].mass);
        test::require_matches(counts(mc, dimension_duel::kKaonWin), exact.laws[1].mass);
        test::require_matches(counts(mc, dimension_duel::kDraw), exact.laws[2].mass);
        // Both the tally's turns histogram and the exact law start at turn 1.
        test::require_matches(counts(mc, dimension_duel::kTurns), exact.laws[4].mass);
        test::require_matches(counts(mc, dimension_duel::kWinnerHp), exact.laws[5].mass);
        test::require_matches(counts(mc, dimension_duel::kDrawishness), exact.laws[7].mass);
    }
}

TEST_CASE("best-response beats every policy against the same opponent", "[duel][exact]") {
    dimension_duel::Options o;
    o.hp = 30;
    for (const char* opponent : {"dice", "aggressor", "survivor", "calibrator"}) {
        const dimension_duel::Policy opp = make(opponent);
        for (dimension_duel::Seat seat : {dimension_duel::kTau, dimension_duel::kKaon}) {
            INFO("best response as " << dimension_duel::kSeatNames[seat] << " against "
                                     << opponent);
            const dimension_duel::Policy br =
                dimension_duel::BestResponse{ex::best_response(o, seat, opp)};
            auto win = [&](const dimension_duel::Policy& me) {
                const auto r =
                    seat == dimension_duel::kTau ? ex::solve(o, me, opp) : ex::solve(o, opp, me);
                return seat == dimension_duel::kTau ? r.tau_win : r.kaon_win;
            };
            const double best = win(br);
            for (const char* other : {"dice", "aggressor", "survivor", "calibrator"})
                CHECK(best >= win(make(other)) - 1e-9);
        }
    }
}
