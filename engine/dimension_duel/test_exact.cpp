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

TEST_CASE("D4 damage_laws: the law of n dice awarded against an enumeration of every face",
          "[duel][exact][D4][options]") {
    for (const char* die : {"1d6", "1d8", "1d4+2", "2d3", "1d2+1d3"}) {
        INFO("damage.die=" << die);
        const auto o = dimension_duel::parse_options({{"damage.die", die}});
        const auto laws = dimension_duel::damage_laws(o);
        // One die by hand: every face of every term, equally likely.
        std::vector<double> one = {1.0};
        for (int i = 0; i < o.die.n; ++i)
            for (int c = 0; c < o.die.terms[static_cast<std::size_t>(i)].count; ++c) {
                const int sides = o.die.terms[static_cast<std::size_t>(i)].sides;
                std::vector<double> next(one.size() + static_cast<std::size_t>(sides), 0.0);
                for (std::size_t v = 0; v < one.size(); ++v)
                    for (int f = 1; f <= sides; ++f)
                        next[v + static_cast<std::size_t>(f)] += one[v] / sides;
                one = next;
            }
        one.insert(one.begin(), static_cast<std::size_t>(o.die.constant), 0.0);
        // n dice by enumerating each die's total (three nested loops for three dice).
        for (int n = 0; n < 4; ++n) {
            std::vector<double> want(static_cast<std::size_t>(3 * o.die.max() + 1), 0.0);
            const std::size_t m = one.size();
            for (std::size_t a = 0; a < (n >= 1 ? m : 1); ++a)
                for (std::size_t b = 0; b < (n >= 2 ? m : 1); ++b)
                    for (std::size_t c = 0; c < (n >= 3 ? m : 1); ++c)
                        want[a + b + c] +=
                            (n >= 1 ? one[a] : 1) * (n >= 2 ? one[b] : 1) * (n >= 3 ? one[c] : 1);
            const auto& got = laws[static_cast<std::size_t>(n)];
            for (std::size_t t = 0; t < want.size(); ++t) {
                INFO(n << " dice, total " << t);
                CHECK((t < got.size() ? got[t] : 0.0) == Approx(want[t]).margin(1e-15));
            }
        }
    }
}

TEST_CASE("exact duel odds follow damage.die and intensifier.factor: Monte Carlo, 4 SE",
          "[duel][exact][statistics][options]") {
    struct Case {
        Settings settings;
        std::vector<std::string> policies;
    };
    const Case cases[] = {
        {{{"hp", "20"}, {"damage.die", "1d8"}}, {"dice"}},
        {{{"hp", "20"}, {"intensifier.factor", "3"}}, {"tau=aggressor", "kaon=survivor"}},
        {{{"hp", "25"}, {"damage.die", "1d4+1d3"}, {"intensifier.factor", "1"}},
         {"tau=calibrator", "kaon=dice"}},
        {{{"hp", "15"}, {"damage.die", "1d10"}}, {"tau=dice", "kaon=best-response"}},
    };
    std::uint64_t seed = 900;
    for (const auto& c : cases) {
        const auto prepared = find_game("dimension-duel").prepare(c.settings, c.policies);
        INFO(prepared->scenario << " | " << prepared->policy);
        const ExactReport exact = find_game("dimension-duel").exact(c.settings, c.policies);
        const Tally mc = monte_carlo(c.settings, c.policies, 200'000, ++seed);
        test::require_matches(counts(mc, dimension_duel::kTauWin), exact.laws[0].mass);
        test::require_matches(counts(mc, dimension_duel::kKaonWin), exact.laws[1].mass);
        test::require_matches(counts(mc, dimension_duel::kDraw), exact.laws[2].mass);
        test::require_matches(counts(mc, dimension_duel::kTurns), exact.laws[4].mass);
        test::require_matches(counts(mc, dimension_duel::kWinnerHp), exact.laws[5].mass);
    }
    // The variant changes the odds: the solver does not solve the book.
    const auto book =
        ex::solve(dimension_duel::parse_options({{"hp", "20"}}), make("dice"), make("dice"));
    const auto d8 = ex::solve(dimension_duel::parse_options({{"hp", "20"}, {"damage.die", "1d8"}}),
                              make("dice"), make("dice"));
    CHECK(std::abs(book.expected_turns - d8.expected_turns) > 0.1);
}

TEST_CASE("the exact solver refuses a turn's damage past 255, naming the options",
          "[duel][exact][options]") {
    const auto o = dimension_duel::parse_options({{"damage.die", "1d100"}});
    CHECK_THROWS_WITH(ex::solve(o, make("dice"), make("dice")),
                      Catch::Contains("damage.die") && Catch::Contains("intensifier.factor"));
    CHECK_THROWS_WITH(ex::best_response(o, dimension_duel::kTau, make("dice")),
                      Catch::Contains("damage.die"));
    // 1d20 x 2 x 2 x 3 = 240: solved.
    const auto r = ex::solve(dimension_duel::parse_options({{"hp", "10"}, {"damage.die", "1d20"}}),
                             make("dice"), make("dice"));
    CHECK(std::abs(r.tau_win + r.kaon_win + r.draw + r.unresolved - 1) < 1e-12);
}

TEST_CASE("exact duel odds follow the dice awarded (D4) and the charts (D2): Monte Carlo, 4 SE",
          "[duel][exact][statistics][options]") {
    struct Case {
        Settings settings;
        std::vector<std::string> policies;
    };
    const Case cases[] = {
        {{{"hp", "20"}, {"calibrate.dice", "2"}, {"delayed.dice", "3"}}, {"dice"}},
        {{{"hp", "20"}, {"focus.dice", "0"}, {"damage.die", "1d4"}},
         {"tau=aggressor", "kaon=survivor"}},
        {{{"hp", "15"}, {"calibrate.dice", "3"}, {"focus.dice", "3"}, {"delayed.dice", "3"}},
         {"tau=best-response", "kaon=calibrator"}},
        {{{"hp", "20"},
          {"chart.tau", "1-5"},
          {"chart.head", "1"},
          {"chart.torso", "2"},
          {"chart.changer_self", "1-2"}},
         {"dice"}},
        {{{"hp", "20"}, {"chart.tau", "6"}, {"chart.head", "none"}},
         {"tau=aggressor", "kaon=dice"}},
    };
    std::uint64_t seed = 950;
    for (const auto& c : cases) {
        const auto prepared = find_game("dimension-duel").prepare(c.settings, c.policies);
        INFO(prepared->scenario << " | " << prepared->policy);
        const ExactReport exact = find_game("dimension-duel").exact(c.settings, c.policies);
        const Tally mc = monte_carlo(c.settings, c.policies, 200'000, ++seed);
        test::require_matches(counts(mc, dimension_duel::kTauWin), exact.laws[0].mass);
        test::require_matches(counts(mc, dimension_duel::kKaonWin), exact.laws[1].mass);
        test::require_matches(counts(mc, dimension_duel::kDraw), exact.laws[2].mass);
        test::require_matches(counts(mc, dimension_duel::kTurns), exact.laws[4].mass);
        test::require_matches(counts(mc, dimension_duel::kWinnerHp), exact.laws[5].mass);
    }
}
