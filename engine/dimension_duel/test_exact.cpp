// The Dimension Duel exact solver against Monte Carlo (4 standard errors, fixed seeds) for
// several policy pairs and two hp values; its laws sum to 1; best-response beats every policy.
#include <catch2/catch.hpp>
#include <cmath>
#include <map>
#include <string>
#include <utility>
#include <vector>

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

// A variant's exact laws against 200,000 playouts of it (seed `seed`), 4 standard errors:
// tau_win, kaon_win, draw, turns and winner_hp.
void require_exact_matches_monte_carlo(const Settings& settings,
                                       const std::vector<std::string>& policies,
                                       std::uint64_t seed) {
    const auto prepared = find_game("dimension-duel").prepare(settings, policies);
    INFO(prepared->scenario << " | " << prepared->policy);
    const ExactReport exact = find_game("dimension-duel").exact(settings, policies);
    const Tally mc = monte_carlo(settings, policies, 200'000, seed);
    test::require_matches(counts(mc, dimension_duel::kTauWin), exact.laws[0].mass);
    test::require_matches(counts(mc, dimension_duel::kKaonWin), exact.laws[1].mass);
    test::require_matches(counts(mc, dimension_duel::kDraw), exact.laws[2].mass);
    test::require_matches(counts(mc, dimension_duel::kTurns), exact.laws[4].mass);
    test::require_matches(counts(mc, dimension_duel::kWinnerHp), exact.laws[5].mass);
}

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
    for (const auto& c : cases) require_exact_matches_monte_carlo(c.settings, c.policies, ++seed);
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
    for (const auto& c : cases) require_exact_matches_monte_carlo(c.settings, c.policies, ++seed);
}

namespace {
// The rules as written, a variant's numbers given plainly, for an enumeration that shares no code
// with the kernel or the solver: the charts as lists of faces, each function's effect spelled
// out (D2-D5), the dice by brute force over every face.
struct Book {
    std::vector<int> tau_faces, head_faces, torso_faces, self_faces;
    int calibrate = 1, focus = 1, delayed = 1, sides = 6, plus = 0, factor = 2;
    std::vector<int> function_of_face;  // faces 1-6: 0 bluff .. 4 intensifier, 5 a changer
};
bool in(const std::vector<int>& faces, int f) {
    for (const int x : faces)
        if (x == f) return true;
    return false;
}
// P(total = t) of n dice awarded, each 1d(sides)+plus, by listing every face of every die.
std::vector<double> dice_law(const Book& b, int n) {
    std::vector<double> law(static_cast<std::size_t>(n * (b.sides + b.plus) + 1), 0.0);
    std::vector<int> faces(static_cast<std::size_t>(n), 1);
    double each = 1;
    for (int i = 0; i < n; ++i) each /= b.sides;
    for (;;) {
        int t = 0;
        for (const int f : faces) t += f + b.plus;
        law[static_cast<std::size_t>(t)] += each;
        int i = 0;
        while (i < n && faces[static_cast<std::size_t>(i)] == b.sides)
            faces[static_cast<std::size_t>(i++)] = 1;
        if (i == n) break;
        ++faces[static_cast<std::size_t>(i)];
    }
    return law;
}
}  // namespace

TEST_CASE("exact duel odds under a variant equal an independent enumeration of every roll",
          "[duel][exact][options]") {
    // Every number changed at once: the charts (the function chart without a Bluff or a
    // Disruptor), the dice of each award, the die, the factor.
    const Book b{{1, 2, 3, 4}, {1}, {2, 3, 4, 5}, {6}, 2, 1, 2, 3, 1, 3, {5, 4, 2, 3, 4, 5}};
    const int hp = 9;
    const auto o = dimension_duel::parse_options({{"hp", std::to_string(hp)},
                                                  {"chart.tau", "1-4"},
                                                  {"chart.head", "1"},
                                                  {"chart.torso", "2-5"},
                                                  {"chart.changer_self", "6"},
                                                  {"calibrate.dice", "2"},
                                                  {"focus.dice", "1"},
                                                  {"delayed.dice", "2"},
                                                  {"chart.disruptor", "none"},
                                                  {"chart.delayed", "3"},
                                                  {"chart.deflector", "4"},
                                                  {"chart.intensifier", "2,5"},
                                                  {"chart.changer", "1,6"},
                                                  {"damage.die", "1d3+1"},
                                                  {"intensifier.factor", "3"}});
    REQUIRE_FALSE(o.book);
    // One turn's law of (damage to the attacker, damage to the defender), dice policy on both
    // sides: the rolls of steps 1-3, then the dice.
    std::map<std::pair<int, int>, double> turn;
    const double sixth = 1.0 / 6;
    enum { bluff, disruptor, delayed, deflector, intensifier, self, opponent };
    std::vector<std::pair<int, double>> functions;  // the function chart with its re-roll
    for (int f = 1; f <= 6; ++f) {
        const int g = b.function_of_face[static_cast<std::size_t>(f - 1)];
        if (g < 5)
            functions.push_back({g, sixth});
        else
            for (int m = 1; m <= 6; ++m)
                functions.push_back({in(b.self_faces, m) ? self : opponent, sixth * sixth});
    }
    for (int rf = 1; rf <= 6; ++rf)
        for (int sf = 1; sf <= 6; ++sf)
            for (int ff = 1; ff <= 6; ++ff)
                for (int gf = 1; gf <= 6; ++gf)
                    for (const auto& [fa, pa] : functions)
                        for (const auto& [fd, pd] : functions) {
                            const double p = std::pow(sixth, 4) * pa * pd;
                            int ray = in(b.tau_faces, rf) ? 0 : 1,
                                shield = in(b.tau_faces, sf) ? 0 : 1;
                            auto region = [&](int f) {
                                return in(b.head_faces, f) ? 0 : (in(b.torso_faces, f) ? 1 : 2);
                            };
                            if (fa == self) ray ^= 1;
                            if (fa == opponent) shield ^= 1;
                            if (fd == self) shield ^= 1;
                            if (fd == opponent) ray ^= 1;
                            if (fa == disruptor || fd == disruptor) {
                                turn[{0, 0}] += p;
                                continue;
                            }
                            const int na = (ray != shield ? b.calibrate : 0) +
                                           (region(ff) != region(gf) ? b.focus : 0) +
                                           (fa == delayed ? b.delayed : 0);
                            const int nd = fd == delayed ? b.delayed : 0;
                            int m = 1;
                            if (fa == intensifier) m *= b.factor;
                            if (fd == intensifier) m *= b.factor;
                            const bool back = (fa == deflector) != (fd == deflector);
                            const auto la = dice_law(b, na), ld = dice_law(b, nd);
                            for (std::size_t x = 0; x < la.size(); ++x)
                                for (std::size_t y = 0; y < ld.size(); ++y) {
                                    const double q = p * la[x] * ld[y];
                                    if (q == 0) continue;
                                    const int ta = static_cast<int>(x) * m,
                                              td = static_cast<int>(y) * m;
                                    // (to the attacker, to the defender)
                                    turn[back ? std::pair{ta, td} : std::pair{td, ta}] += q;
                                }
                        }
    // P(Tau wins), P(Kaon wins) from every state by value iteration (hit points never rise; a
    // turn without damage hands the attack over).
    auto at = [&](std::vector<double>& v, int t, int k, int a) -> double& {
        return v[static_cast<std::size_t>(((t - 1) * hp + k - 1) * 2 + a)];
    };
    std::vector<double> tau(static_cast<std::size_t>(hp * hp * 2), 0.0), kaon = tau;
    for (int iter = 0; iter < 400; ++iter)
        for (int t = 1; t <= hp; ++t)
            for (int k = 1; k <= hp; ++k)
                for (int a = 0; a < 2; ++a) {
                    double wt = 0, wk = 0;
                    for (const auto& [dmg, p] : turn) {
                        const int nt = t - (a == 0 ? dmg.first : dmg.second);
                        const int nk = k - (a == 0 ? dmg.second : dmg.first);
                        if (nt > 0 && nk > 0) {
                            wt += p * at(tau, nt, nk, 1 - a);
                            wk += p * at(kaon, nt, nk, 1 - a);
                        } else if (nk <= 0 && nt > 0) {
                            wt += p;
                        } else if (nt <= 0 && nk > 0) {
                            wk += p;
                        }
                    }
                    at(tau, t, k, a) = wt;
                    at(kaon, t, k, a) = wk;
                }
    const auto r = ex::solve(o, make("dice"), make("dice"));
    CHECK(r.tau_win == Approx(at(tau, hp, hp, 0)).margin(1e-9));
    CHECK(r.kaon_win == Approx(at(kaon, hp, hp, 0)).margin(1e-9));
    // And the book's numbers give other odds: the enumeration is not of the book.
    const auto book = ex::solve(dimension_duel::parse_options({{"hp", std::to_string(hp)}}),
                                make("dice"), make("dice"));
    CHECK(std::abs(book.tau_win - r.tau_win) > 0.01);
}
