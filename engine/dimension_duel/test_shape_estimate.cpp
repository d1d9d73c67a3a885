// odds shape's rollout estimator (sim/shape_run.hpp) against the exact value table along the same
// duels: where the solver gives p exactly, the estimate is within 4 standard errors of it, summed
// over every turn of 40 duels, and its squared errors average one standard error squared.
#include <catch2/catch.hpp>
#include <cmath>
#include <variant>
#include <vector>

#include "engine/dimension_duel/dimension_duel.hpp"
#include "engine/dimension_duel/exact.hpp"
#include "engine/dimension_duel/policies.hpp"
#include "sim/shape_run.hpp"

using namespace odds;
namespace dd = odds::dimension_duel;

TEST_CASE("shape: rollouts estimate the exact value table along the same duels, 4 SE",
          "[duel][shape][statistics]") {
    dd::Options o;
    o.hp = 14;
    odds::shape::Config cfg;
    cfg.seed = 5;
    cfg.rollouts = 100;
    const std::pair<dd::Policy, dd::Policy> pairs[] = {{dd::DicePolicy{}, dd::DicePolicy{}},
                                                       {dd::Survivor{}, dd::Aggressor{}}};
    for (const auto& [tau, kaon] : pairs) {
        const auto table = exact::dimension_duel::values(o, tau, kaon);
        const auto start = [&](Dice&) { return dd::opening(o); };
        const auto turn = [](const dd::State& s) { return s.turn; };
        const auto score = [&](const dd::State& s) { return dd::Game::reward(s, o, dd::kTau); };
        const auto value = [&](const dd::State& s) { return table.tau_score(s); };
        double z = 0, var = 0, chi = 0;
        int estimates = 0;
        for (std::uint64_t i = 0; i < 40; ++i) {
            std::vector<double> exact, est;
            std::visit(
                [&](const auto& a, const auto& b) {
                    odds::shape::exact_trace<dd::Game>(o, start, a, b, cfg, i, turn, value, score,
                                                       exact);
                    odds::shape::rollout_trace<dd::Game>(o, start, a, b, cfg, i, turn, score, est);
                },
                tau, kaon);
            REQUIRE(exact.size() == est.size());  // the same duel
            CHECK(exact.back() == est.back());
            for (std::size_t t = 0; t + 1 < exact.size(); ++t) {
                // A draw scores 1/2: the variance of one rollout is at most p(1 - p).
                const double v = exact[t] * (1 - exact[t]) / cfg.rollouts;
                z += est[t] - exact[t];
                var += v;
                if (v > 1e-9) {
                    chi += (est[t] - exact[t]) * (est[t] - exact[t]) / v;
                    ++estimates;
                }
            }
        }
        INFO("sum of errors " << z << " +- " << std::sqrt(var) << "; mean squared z "
                              << chi / estimates << " over " << estimates);
        REQUIRE(estimates > 100);
        CHECK(std::abs(z) <= 4 * std::sqrt(var));
        CHECK(std::abs(chi / estimates - 1) <= 4 * std::sqrt(2.0 / estimates));
    }
}
