// Dimension Duel's equilibrium (equilibrium.hpp): the matrix-game solver against games solved by
// hand and against LP duality; the game's value; and the policy `equilibrium` checked with the
// exact solver: best-response gains nothing against it, and it does no worse than the value
// against every other policy, from either seat.
#include <catch2/catch.hpp>

#include <cmath>
#include <string>

#include "engine/dice.hpp"
#include "engine/dimension_duel/equilibrium.hpp"
#include "engine/dimension_duel/exact.hpp"
#include "engine/dimension_duel/policies.hpp"
#include "tests/helpers.hpp"

using namespace odds;
using namespace odds::dimension_duel;

namespace {

// Tau's score (draws half) under the exact solver.
double tau_score(const Options& o, const Policy& tau, const Policy& kaon) {
    const auto r = exact::dimension_duel::solve(o, tau, kaon);
    return r.tau_win + r.draw / 2;
}

Options small() {
    Options o;
    o.hp = 12;
    return o;
}

}  // namespace

TEST_CASE("matrix games: values and optimal strategies, by hand and by duality", "[duel][D2a]") {
    double x[8], y[8];
    // Matching pennies: 0, each side 1/2.
    CHECK(solve_matrix_game(std::vector<double>{1, -1, -1, 1}, 2, 2, x, y) ==
          Approx(0).margin(1e-12));
    CHECK(x[0] == Approx(0.5));
    CHECK(y[1] == Approx(0.5));
    // [[3, -1], [-2, 1]]: value 1/7, the row player's first row with 3/7, the column's 2/7.
    CHECK(solve_matrix_game(std::vector<double>{3, -1, -2, 1}, 2, 2, x, y) == Approx(1.0 / 7));
    CHECK(x[0] == Approx(3.0 / 7));
    CHECK(y[0] == Approx(2.0 / 7));
    // A saddle point: row 2 against column 1, value 2.
    CHECK(solve_matrix_game(std::vector<double>{1, 0, 2, 3, 0, 5}, 3, 2, x, y) == Approx(2));
    CHECK(x[1] == Approx(1));
    CHECK(y[0] == Approx(1));
    // Random 7x7 games: each strategy guarantees the value against every pure reply.
    Dice dice(77);
    for (int g = 0; g < 200; ++g) {
        std::vector<double> a(49);
        for (double& v : a) v = static_cast<double>(dice.d6() * 6 + dice.d6()) / 7 - 3;
        const double v = solve_matrix_game(a, 7, 7, x, y);
        double sx = 0, sy = 0;
        for (int i = 0; i < 7; ++i) {
            CHECK(x[i] >= 0);
            CHECK(y[i] >= 0);
            sx += x[i];
            sy += y[i];
        }
        CHECK(sx == Approx(1).margin(1e-12));
        CHECK(sy == Approx(1).margin(1e-12));
        for (int j = 0; j < 7; ++j) {
            double row_gets = 0, col_gives = 0;
            for (int i = 0; i < 7; ++i) {
                row_gets += x[i] * a[static_cast<std::size_t>(i * 7 + j)];
                col_gives += y[i] * a[static_cast<std::size_t>(j * 7 + i)];
            }
            CHECK(row_gets >= v - 1e-9);
            CHECK(col_gives <= v + 1e-9);
        }
    }
}

TEST_CASE("D2a the game's value is 1/2 from every state: a Disruptor every turn forces the draw",
          "[duel][D2a][D5][D6]") {
    for (int hp : {1, 5, 12, 40}) {
        Options o;
        o.hp = hp;
        const auto t = equilibrium(o);
        INFO("hp " << hp);
        CHECK(t->residual <= 1e-12);
        for (int a = 1; a <= hp; ++a)
            for (int d = 1; d <= hp; ++d) CHECK(t->at(a, d).value == Approx(0.5).margin(1e-9));
    }
    Options single = small();
    single.single_use = true;
    CHECK_THROWS_WITH(equilibrium(single), Catch::Contains("single_use"));
    Options capped = small();
    capped.max_turns = 50;
    CHECK_THROWS_WITH(equilibrium(capped), Catch::Contains("max_turns"));
}

TEST_CASE("D2a equilibrium: best-response gains nothing against it, from either seat",
          "[duel][D2a][exact]") {
    const Options o = small();
    const Policy eq = Equilibrium{equilibrium(o)};
    const double value = equilibrium(o)->value();
    CHECK(tau_score(o, eq, eq) == Approx(value).margin(1e-9));
    const Policy tau_br = BestResponse{exact::dimension_duel::best_response(o, kTau, eq)};
    const Policy kaon_br = BestResponse{exact::dimension_duel::best_response(o, kKaon, eq)};
    CHECK(tau_score(o, tau_br, eq) <= value + 1e-6);
    CHECK(tau_score(o, eq, kaon_br) >= value - 1e-6);
}

TEST_CASE("D2a equilibrium does at least as well as the value against every other policy",
          "[duel][D2a][exact]") {
    const Options o = small();
    const Policy eq = Equilibrium{equilibrium(o)};
    const double value = equilibrium(o)->value();
    for (std::size_t i = 0; i < std::size(kPolicies); ++i) {
        const Policy other = kPolicies[i].make(o, PolicyArgs{});
        if (std::holds_alternative<BestResponse>(other)) continue;  // the test above
        if (std::holds_alternative<dimension_duel::Mcts>(other))
            continue;  // no laws to solve (test_mcts.cpp)
        INFO(kPolicies[i].name);
        CHECK(tau_score(o, eq, other) >= value - 1e-6);
        CHECK(tau_score(o, other, eq) <= value + 1e-6);
    }
}

TEST_CASE("equilibrium plays as its laws say: Monte Carlo against the exact solver, 4 sigma",
          "[duel][D2a][exact]") {
    const Options o = small();
    const Policy eq = Equilibrium{equilibrium(o)};
    const auto exact = exact::dimension_duel::solve(o, eq, DicePolicy{});
    const std::uint64_t n = 1500;  // a third of them play to the cap
    const Tally t = test::monte_carlo("dimension-duel", {{"hp", "12"}},
                                      {"tau=equilibrium", "kaon=dice"}, n, 31);
    for (auto [metric, p] : {std::pair{kTauWin, exact.tau_win}, std::pair{kKaonWin, exact.kaon_win},
                             std::pair{kDraw, exact.draw}}) {
        const double seen = static_cast<double>(test::counts(t, metric)[1]) / n;
        INFO("metric " << metric << ": exact " << p << ", seen " << seen);
        CHECK(std::abs(seen - p) <= 4 * std::sqrt(p * (1 - p) / n) + 1e-9);
    }
}

TEST_CASE("D2a equilibrium follows damage.die and intensifier.factor: best-response gains nothing",
          "[duel][D2a][exact][options]") {
    for (const Settings& variant :
         {Settings{{"hp", "12"}, {"damage.die", "1d8"}},
          Settings{{"hp", "12"}, {"intensifier.factor", "3"}, {"damage.die", "1d4+1"}},
          Settings{{"hp", "12"}, {"calibrate.dice", "2"}, {"delayed.dice", "3"}}}) {
        const Options o = parse_options(variant);
        INFO(scenario(o));
        const auto table = equilibrium(o);
        CHECK(table != equilibrium(small()));  // solved for the variant, not the book's cache
        const Policy eq = Equilibrium{table};
        const double value = table->value();
        CHECK(value == Approx(0.5).margin(1e-9));  // a Disruptor every turn still forces it
        const Policy tau_br = BestResponse{exact::dimension_duel::best_response(o, kTau, eq)};
        const Policy kaon_br = BestResponse{exact::dimension_duel::best_response(o, kKaon, eq)};
        CHECK(tau_score(o, tau_br, eq) <= value + 1e-6);
        CHECK(tau_score(o, eq, kaon_br) >= value - 1e-6);
        // Monte Carlo of the variant against the exact solver, 4 sigma.
        const auto exact = exact::dimension_duel::solve(o, eq, DicePolicy{});
        const std::uint64_t n = 3000;
        const Tally t =
            test::monte_carlo("dimension-duel", variant, {"tau=equilibrium", "kaon=dice"}, n, 77);
        for (auto [metric, p] :
             {std::pair{kTauWin, exact.tau_win}, std::pair{kKaonWin, exact.kaon_win},
              std::pair{kDraw, exact.draw}}) {
            const double seen = static_cast<double>(test::counts(t, metric)[1]) / n;
            INFO("metric " << metric << ": exact " << p << ", seen " << seen);
            CHECK(std::abs(seen - p) <= 4 * std::sqrt(p * (1 - p) / n) + 1e-9);
        }
    }
}
