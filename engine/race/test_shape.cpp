// odds shape on the tests' tiny game (sim/shape_run.hpp, exact::race::values): figures known
// exactly, the value table against the solver, and the rollout estimator against the exact
// values along the same races (4 standard errors).
#include <catch2/catch.hpp>
#include <cmath>

#include "engine/race/exact.hpp"
#include "engine/race/policies.hpp"
#include "sim/registry.hpp"
#include "sim/shape_run.hpp"

using namespace odds;
using namespace odds::race;

namespace {

double measure(const ShapeReport& r, const std::string& name) {
    for (const auto& m : r.tally.measures())
        if (m.name == name) return m.value;
    FAIL("no measure " << name);
    return 0;
}

ShapeReport shape_of(const Settings& s, const char* policy, std::uint64_t games) {
    shape::Config cfg;
    cfg.seed = 9;
    cfg.games = games;
    cfg.threads = 2;
    shape::Sampler all;  // every game here
    return find_game("race").shape(s, {policy}, cfg, all);
}

}  // namespace

TEST_CASE("race shape: the value table is best's plan and the solver's P(win)", "[race][shape]") {
    const Options o{20, 8};
    const auto best = exact::race::values(o, make_policy(0, o));
    const Plan plan = best_plan(o);
    for (int s = 0; s <= o.goal; ++s)
        for (int t = 0; t <= o.max_turns; ++t)
            CHECK(std::abs(best.value[s][t] - plan.value[s][t]) < 1e-12);
    for (std::size_t k = 0; k < 4; ++k) {
        const Policy p = make_policy(k, o);
        CHECK(std::abs(exact::race::values(o, p).at(State{}) - exact::race::solve(o, p)[kWin][1]) <
              1e-12);
    }
    CHECK_THROWS_WITH(exact::race::values(o, make_policy(4, o)), Catch::Contains("mcts"));
}

TEST_CASE("race shape: figures known exactly", "[race][shape]") {
    // Walking to 16 in 8 turns always wins, and is known to from the start.
    const auto sure = shape_of({{"goal", "16"}}, "walk", 50);
    CHECK(measure(sure, "steps") == 8);
    CHECK(measure(sure, "success") == 1);
    CHECK(measure(sure, "p_start") == 1);
    CHECK(measure(sure, "no_return") == 0);
    CHECK(measure(sure, "decided_at_start") == 1);
    // Walking to 20 in 8 turns never does.
    const auto never = shape_of({}, "walk", 50);
    CHECK(measure(never, "success") == 0);
    CHECK(measure(never, "no_return") == 0);
    // One roll to reach square 2: 5/6 before it, and only the roll tells.
    const auto once = shape_of({{"goal", "2"}, {"max_turns", "1"}}, "roll", 600);
    CHECK(measure(once, "steps") == 1);
    CHECK(measure(once, "p_start") == Approx(5.0 / 6).epsilon(1e-12));
    CHECK(measure(once, "no_return") == 1);
    CHECK(measure(once, "decided_at_end") == 1);
    const double se = std::sqrt(5.0 / 36 / 600);
    CHECK(std::abs(measure(once, "success") - 5.0 / 6) < 4 * se);
    const auto fan = once.tally.fan();
    REQUIRE(fan.size() == 2);
    CHECK(fan[0].q[0] == Approx(0.83));  // 5/6 to the hundredth
}

TEST_CASE("race shape: rollouts estimate the exact odds along the same races, 4 SE",
          "[race][shape][statistics]") {
    const Options o{20, 8};
    shape::Config cfg;
    cfg.seed = 21;
    cfg.rollouts = 200;
    for (std::size_t k : {1u, 2u, 3u}) {  // walk, roll, random
        const Policy policy = make_policy(k, o);
        const auto table = exact::race::values(o, policy);
        const auto start = [](Dice&) { return State{}; };
        const auto turn = [](const State& s) { return s.turn; };
        const auto win = [](const State& s) { return s.won ? 1.0 : 0.0; };
        const auto value = [&](const State& s) { return table.at(s); };
        double z = 0, var = 0, chi = 0;
        int estimates = 0;
        for (std::uint64_t i = 0; i < 60; ++i) {
            std::vector<double> exact, est;
            std::visit(
                [&](const auto& p) {
                    shape::exact_trace<Game>(o, start, p, p, cfg, i, turn, value, win, exact);
                    shape::rollout_trace<Game>(o, start, p, p, cfg, i, turn, win, est);
                },
                policy);
            REQUIRE(exact.size() == est.size());  // the same race: rollouts leave its dice alone
            CHECK(exact.back() == est.back());
            for (std::size_t t = 0; t + 1 < exact.size(); ++t) {
                const double v = exact[t] * (1 - exact[t]) / cfg.rollouts;
                z += est[t] - exact[t];
                var += v;
                if (v > 0) {
                    chi += (est[t] - exact[t]) * (est[t] - exact[t]) / v;
                    ++estimates;
                } else {
                    CHECK(est[t] == exact[t]);  // a sure state: every rollout agrees
                }
            }
        }
        INFO("policy " << k << ": sum of errors " << z << " +- " << std::sqrt(var) << ", "
                       << estimates << " estimates, mean squared z " << chi / estimates);
        CHECK(std::abs(z) <= 4 * std::sqrt(var) + 1e-12);
        if (estimates > 0) {
            CHECK(std::abs(chi / estimates - 1) <= 4 * std::sqrt(2.0 / estimates));
        }
    }
}
