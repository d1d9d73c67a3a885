// Dimension Duel's equilibrium (equilibrium.hpp): the matrix-game solver against games solved by
// hand and against LP duality; the game's value; and the policy `equilibrium` checked with the
// exact solver: best-response gains nothing against it, and it does no worse than the value
// against every other policy, from either seat; and the game solved again on rule variants by an
// independent method written here (the kernel's turns enumerated, Shapley-Snow kernels).
#include <catch2/catch.hpp>

#include <Eigen/Dense>
#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

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

namespace {

// An independent solve of the game D2a makes of Dimension Duel, sharing nothing with
// equilibrium.cpp but the kernel: each turn is played by the kernel (Game::apply) for every
// choice of the six decisions and every sequence of the die's faces (ScriptedDice); each matrix
// game is solved by Shapley and Snow's kernels instead of the simplex; and the states are solved
// all at once, by backward induction over the turns from the cap (D6: a draw, 1/2), instead of
// pair by pair in order of total hit points.
namespace independent {

constexpr int kRays = 2, kRegions = 3, kF = kFunctionCount;
constexpr int kChoices = kRays * kRays * kRegions * kRegions * kF * kF;
constexpr int kHigh = 100000;  // hit points no turn of the variants below can take

struct Choices {
    int ray, shield, focus, region, fa, fd;
};
int index_of(const Choices& c) {
    return ((((c.ray * kRays + c.shield) * kRegions + c.focus) * kRegions + c.region) * kF + c.fa) *
               kF +
           c.fd;
}
Choices choices_of(int i) {
    Choices c{};
    c.fd = i % kF;
    i /= kF;
    c.fa = i % kF;
    i /= kF;
    c.region = i % kRegions;
    i /= kRegions;
    c.focus = i % kRegions;
    i /= kRegions;
    c.shield = i % kRays;
    c.ray = i / kRays;
    return c;
}

// The hit points one turn takes from the attacker and from the defender, and its probability.
struct Loss {
    int attacker, defender;
    double p;
};

// The kernel's turn 1 (Tau attacks, D1) from kHigh hit points each, with these choices and faces;
// what it took from each side.
std::pair<int, int> play_turn(const Options& o, const Choices& c, ScriptedDice& dice) {
    State s = opening(o);
    s.hp[kTau] = s.hp[kKaon] = kHigh;
    for (int choice : {c.ray, c.shield, c.focus, c.region, c.fa, c.fd})
        Game::apply(s, o, static_cast<Game::Choice>(choice), dice);
    if (s.step != 0 || s.over) throw std::logic_error("the turn did not end as one turn");
    return {kHigh - s.hp[kTau], kHigh - s.hp[kKaon]};
}

// For every choice of a turn, the law of what it takes from each side: every sequence of the
// faces it rolls, played by the kernel. One dice term (NdX+K) only: every face is a dX.
std::vector<std::vector<Loss>> turn_losses(const Options& o) {
    REQUIRE(o.die.n == 1);
    const int sides = o.die.terms[0].sides;
    std::vector<std::vector<Loss>> out(kChoices);
    for (int i = 0; i < kChoices; ++i) {
        const Choices c = choices_of(i);
        ScriptedDice count(std::vector<int>(64, 1));
        play_turn(o, c, count);
        const std::size_t rolled = count.used();  // how many faces this turn rolls
        const double p = std::pow(1.0 / sides, static_cast<double>(rolled));
        std::map<std::pair<int, int>, double> law;
        std::vector<int> faces(rolled, 1);
        for (;;) {
            ScriptedDice dice(faces);
            law[play_turn(o, c, dice)] += p;
            if (dice.remaining() != 0) throw std::logic_error("faces left over");
            std::size_t k = 0;  // the next sequence, as an odometer
            while (k < rolled && faces[k] == sides) faces[k++] = 1;
            if (k == rolled) break;
            ++faces[k];
        }
        for (const auto& [loss, q] : law)
            out[static_cast<std::size_t>(i)].push_back({loss.first, loss.second, q});
    }
    return out;
}

// The value of the zero-sum matrix game a (the row player maximising) and an optimal strategy
// for each side, by Shapley and Snow (1950): some pair of optimal strategies solves the
// indifference equations on a square submatrix whose bordered matrix is nonsingular. Every pair
// of supports of equal size is tried, smallest first; the first solution that is a pair of mixed
// strategies, each guaranteeing the value against every pure reply, is the game's.
double game_value(const Eigen::MatrixXd& a, Eigen::VectorXd* row = nullptr,
                  Eigen::VectorXd* col = nullptr) {
    const int m = static_cast<int>(a.rows()), n = static_cast<int>(a.cols());
    constexpr double kEps = 1e-12;
    for (int k = 1; k <= std::min(m, n); ++k)
        for (unsigned rs = 1; rs < (1u << m); ++rs) {
            if (__builtin_popcount(rs) != k) continue;
            for (unsigned cs = 1; cs < (1u << n); ++cs) {
                if (__builtin_popcount(cs) != k) continue;
                std::vector<int> ri, ci;
                for (int i = 0; i < m; ++i)
                    if (rs >> i & 1) ri.push_back(i);
                for (int j = 0; j < n; ++j)
                    if (cs >> j & 1) ci.push_back(j);
                // x (rows ri) makes every column of ci pay v; y (columns ci) every row of ri.
                Eigen::MatrixXd bx = Eigen::MatrixXd::Zero(k + 1, k + 1), by = bx;
                for (int p = 0; p < k; ++p) {
                    for (int q = 0; q < k; ++q) {
                        bx(p, q) =
                            a(ri[static_cast<std::size_t>(q)], ci[static_cast<std::size_t>(p)]);
                        by(p, q) =
                            a(ri[static_cast<std::size_t>(p)], ci[static_cast<std::size_t>(q)]);
                    }
                    bx(p, k) = by(p, k) = -1;
                    bx(k, p) = by(k, p) = 1;
                }
                Eigen::VectorXd rhs = Eigen::VectorXd::Zero(k + 1);
                rhs(k) = 1;
                const Eigen::FullPivLU<Eigen::MatrixXd> lx(bx), ly(by);
                if (!lx.isInvertible() || !ly.isInvertible()) continue;
                const Eigen::VectorXd sx = lx.solve(rhs), sy = ly.solve(rhs);
                if (sx.head(k).minCoeff() < -kEps || sy.head(k).minCoeff() < -kEps) continue;
                Eigen::VectorXd x = Eigen::VectorXd::Zero(m), y = Eigen::VectorXd::Zero(n);
                for (int p = 0; p < k; ++p) {
                    x(ri[static_cast<std::size_t>(p)]) = std::max(0.0, sx(p));
                    y(ci[static_cast<std::size_t>(p)]) = std::max(0.0, sy(p));
                }
                const double v = sx(k);
                if (std::abs(sy(k) - v) > 1e-10) continue;
                if ((x.transpose() * a).minCoeff() < v - 1e-10 || (a * y).maxCoeff() > v + 1e-10)
                    continue;
                if (row) *row = x;
                if (col) *col = y;
                return v;
            }
        }
    FAIL("no kernel solves the game");
    return 0;
}

// W(a, d), the attacker's score, for every state, as equilibrium.hpp indexes it.
struct Solution {
    int hp = 0;
    std::vector<double> w;
    double at(int a, int d) const { return w[static_cast<std::size_t>((a - 1) * hp + d - 1)]; }
};

// The attacker's score after a turn that left the attacker a, the defender d (D6); the defender
// attacks next (D1).
double score(const Solution& s, int a, int d) {
    if (a <= 0 && d <= 0) return 0.5;
    if (a <= 0) return 0;
    if (d <= 0) return 1;
    return 1 - s.at(d, a);
}

// Step 3's matrix (the attacker's function by the defender's) at (a, d) after steps 1-2.
Eigen::MatrixXd step3(const std::vector<std::vector<Loss>>& losses, const Solution& s, int a, int d,
                      int ray, int shield, int focus, int region) {
    Eigen::MatrixXd m(kF, kF);
    for (int fa = 0; fa < kF; ++fa)
        for (int fd = 0; fd < kF; ++fd) {
            double v = 0;
            for (const Loss& l :
                 losses[static_cast<std::size_t>(index_of({ray, shield, focus, region, fa, fd}))])
                v += l.p * score(s, a - l.attacker, d - l.defender);
            m(fa, fd) = v;
        }
    return m;
}

// The matrices of steps 2 and 1 at (a, d): each entry the value of the step after it.
struct Stages {
    std::array<std::array<Eigen::MatrixXd, kRays>, kRays> s3[kRegions][kRegions];
    std::array<Eigen::MatrixXd, kRays> s2[kRays];
    Eigen::MatrixXd s1 = Eigen::MatrixXd(kRays, kRays);
};

Stages stages(const std::vector<std::vector<Loss>>& losses, const Solution& s, int a, int d,
              std::map<std::vector<double>, double>& solved) {
    Stages g;
    for (int ray = 0; ray < kRays; ++ray)
        for (int shield = 0; shield < kRays; ++shield) {
            Eigen::MatrixXd m2(kRegions, kRegions);
            for (int focus = 0; focus < kRegions; ++focus)
                for (int region = 0; region < kRegions; ++region) {
                    Eigen::MatrixXd m3 = step3(losses, s, a, d, ray, shield, focus, region);
                    const std::vector<double> key(m3.data(), m3.data() + m3.size());
                    auto it = solved.find(key);
                    if (it == solved.end()) it = solved.emplace(key, game_value(m3)).first;
                    m2(focus, region) = it->second;
                    g.s3[focus][region][ray][shield] = std::move(m3);
                }
            g.s1(ray, shield) = game_value(m2);
            g.s2[ray][shield] = m2;
        }
    return g;
}

// Backward induction from the cap: W at 0 turns left is the draw's 1/2 (D6), at n + 1 turns left
// the value of the turn's stage games with W at n. Until it settles (the solver takes the cap of
// 10000 turns as never near, equilibrium.hpp).
Solution solve(const Options& o, const std::vector<std::vector<Loss>>& losses, int* sweeps) {
    Solution s{o.hp, std::vector<double>(static_cast<std::size_t>(o.hp * o.hp), 0.5)};
    for (*sweeps = 1; *sweeps <= 1000; ++*sweeps) {
        std::map<std::vector<double>, double> solved;
        Solution next = s;
        double move = 0;
        for (int a = 1; a <= o.hp; ++a)
            for (int d = 1; d <= o.hp; ++d) {
                const double v = game_value(stages(losses, s, a, d, solved).s1);
                next.w[static_cast<std::size_t>((a - 1) * o.hp + d - 1)] = v;
                move = std::max(move, std::abs(v - s.at(a, d)));
            }
        s = std::move(next);
        if (move <= 1e-15) break;
    }
    return s;
}

// The worst shortfall of a mixed strategy pair in the matrix game a of value v: how far the row
// strategy x falls below v against some pure reply, or the column strategy y lets some pure row
// above it.
template <std::size_t M, std::size_t N>
double shortfall(const Eigen::MatrixXd& a, double v, const std::array<double, M>& x,
                 const std::array<double, N>& y) {
    double worst = 0;
    for (int j = 0; j < a.cols(); ++j) {
        double got = 0;
        for (int i = 0; i < a.rows(); ++i) got += x[static_cast<std::size_t>(i)] * a(i, j);
        worst = std::max(worst, v - got);
    }
    for (int i = 0; i < a.rows(); ++i) {
        double given = 0;
        for (int j = 0; j < a.cols(); ++j) given += y[static_cast<std::size_t>(j)] * a(i, j);
        worst = std::max(worst, given - v);
    }
    return worst;
}

}  // namespace independent
}  // namespace

TEST_CASE(
    "D2a equilibrium on rule variants against an independent solve: the kernel's turns "
    "enumerated, Shapley-Snow kernels, backward induction from the cap",
    "[duel][D2a][D4][D5][D6][options]") {
    using namespace independent;
    // The book, and variants of the die, the factor and the dice awarded. equilibrium() refuses
    // single_use and max_turns below 10000 (the test above), and under every option it takes a
    // Disruptor every turn still forces the cap's draw (D5, D6): W = 1/2 in every state, which
    // the backward induction here must find for itself. So the comparison is of the values and
    // of the stage strategies: at every state, every step and every earlier choice, the solver's
    // two mixed strategies must each guarantee, against every pure reply, the value of the stage
    // game built here. Its strategies are the Disruptor wherever a function is chosen, which is
    // optimal whatever the dice do: no check of its output can see the damage law (the book's
    // turns here, or the book's laws in the solver, pass alike). What it does see: values off
    // 1/2, a no-damage turn valued otherwise than the cap's draw with roles swapped, a stage
    // strategy that is not optimal.
    for (const Settings& variant :
         {Settings{{"hp", "5"}},
          Settings{{"hp", "5"}, {"damage.die", "1d8"}, {"intensifier.factor", "3"}},
          Settings{{"hp", "4"},
                   {"damage.die", "1d4+1"},
                   {"calibrate.dice", "2"},
                   {"focus.dice", "0"},
                   {"delayed.dice", "3"}}}) {
        const Options o = parse_options(variant);
        INFO(scenario(o));
        const auto losses = turn_losses(o);
        if (!o.book) {  // a game of its own: some turn's law differs from the book's
            Options book;
            book.hp = o.hp;
            const auto book_losses = turn_losses(book);
            bool differs = false;
            for (std::size_t i = 0; i < losses.size(); ++i) {
                differs = differs || losses[i].size() != book_losses[i].size();
                for (std::size_t j = 0; !differs && j < losses[i].size(); ++j)
                    differs = losses[i][j].attacker != book_losses[i][j].attacker ||
                              losses[i][j].defender != book_losses[i][j].defender ||
                              losses[i][j].p != book_losses[i][j].p;
            }
            CHECK(differs);
        }
        int sweeps = 0;
        const Solution w = solve(o, losses, &sweeps);
        CHECK(sweeps <= 1000);  // settled
        const auto table = equilibrium(o);
        REQUIRE(table->hp == o.hp);
        std::map<std::vector<double>, double> solved;
        for (int a = 1; a <= o.hp; ++a)
            for (int d = 1; d <= o.hp; ++d) {
                INFO("state (" << a << ", " << d << ")");
                const StageLaws& laws = table->at(a, d);
                CHECK(std::abs(laws.value - w.at(a, d)) <= 1e-9);
                CHECK(std::abs(w.at(a, d) - 0.5) <= 1e-12);
                const Stages g = stages(losses, w, a, d, solved);
                double worst = 0;
                worst = std::max(worst, shortfall(g.s1, w.at(a, d), laws.ray, laws.shield));
                for (int ray = 0; ray < kRays; ++ray)
                    for (int shield = 0; shield < kRays; ++shield) {
                        const auto& m2 = g.s2[ray][shield];
                        const int blocked = ray == shield;
                        worst =
                            std::max(worst, shortfall(m2, g.s1(ray, shield), laws.focus[blocked],
                                                      laws.region[blocked]));
                        for (int focus = 0; focus < kRegions; ++focus)
                            for (int region = 0; region < kRegions; ++region) {
                                const int k =
                                    StageLaws::step3(Calibration{ray, shield, focus, region});
                                worst = std::max(
                                    worst,
                                    shortfall(g.s3[focus][region][ray][shield], m2(focus, region),
                                              laws.attacker_function[static_cast<std::size_t>(k)],
                                              laws.defender_function[static_cast<std::size_t>(k)]));
                            }
                    }
                CHECK(worst <= 1e-9);
            }
    }
}

// D2b, restricted play: the same independent solve with a table per attacking seat and each
// seat's functions given here as lists (not read from Options::barred): the step-3 game keeps the
// attacker's functions as rows and the defender's as columns.
namespace {
namespace independent {

using Open = std::array<std::vector<int>, 2>;  // the functions each seat may play

// The functions but `barred` (Function values).
std::vector<int> but(std::initializer_list<int> barred) {
    std::vector<int> out;
    for (int f = 0; f < kF; ++f)
        if (std::find(barred.begin(), barred.end(), f) == barred.end()) out.push_back(f);
    return out;
}

// W for each attacking seat: w[att][(a - 1) * hp + d - 1], a the attacker's hit points.
struct SeatSolution {
    int hp = 0;
    std::array<std::vector<double>, 2> w;
    double at(int att, int a, int d) const {
        return w[static_cast<std::size_t>(att)][static_cast<std::size_t>((a - 1) * hp + d - 1)];
    }
};

// The attacker's (att's) score after a turn that left him a, the defender d: the defender
// attacks next (D1, D6).
double seat_score(const SeatSolution& s, int att, int a, int d) {
    if (a <= 0 && d <= 0) return 0.5;
    if (a <= 0) return 0;
    if (d <= 0) return 1;
    return 1 - s.at(1 - att, d, a);
}

// The stage games at (a, d) with att attacking: step 3 over the open functions only.
struct SeatStages {
    Eigen::MatrixXd s3[kRays][kRays][kRegions][kRegions];
    Eigen::MatrixXd s2[kRays][kRays];
    Eigen::MatrixXd s1 = Eigen::MatrixXd(kRays, kRays);
};
SeatStages seat_stages(const std::vector<std::vector<Loss>>& losses, const SeatSolution& s,
                       const Open& open, int att, int a, int d,
                       std::map<std::vector<double>, double>& solved) {
    const auto& rows = open[static_cast<std::size_t>(att)];
    const auto& cols = open[static_cast<std::size_t>(1 - att)];
    SeatStages g;
    for (int ray = 0; ray < kRays; ++ray)
        for (int shield = 0; shield < kRays; ++shield) {
            Eigen::MatrixXd m2(kRegions, kRegions);
            for (int focus = 0; focus < kRegions; ++focus)
                for (int region = 0; region < kRegions; ++region) {
                    Eigen::MatrixXd m3(static_cast<Eigen::Index>(rows.size()),
                                       static_cast<Eigen::Index>(cols.size()));
                    for (std::size_t i = 0; i < rows.size(); ++i)
                        for (std::size_t j = 0; j < cols.size(); ++j) {
                            double v = 0;
                            for (const Loss& l : losses[static_cast<std::size_t>(
                                     index_of({ray, shield, focus, region, rows[i], cols[j]}))])
                                v += l.p * seat_score(s, att, a - l.attacker, d - l.defender);
                            m3(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = v;
                        }
                    std::vector<double> key(m3.data(), m3.data() + m3.size());
                    key.push_back(static_cast<double>(m3.rows()));
                    auto it = solved.find(key);
                    if (it == solved.end()) it = solved.emplace(key, game_value(m3)).first;
                    m2(focus, region) = it->second;
                    g.s3[ray][shield][focus][region] = std::move(m3);
                }
            g.s1(ray, shield) = game_value(m2);
            g.s2[ray][shield] = m2;
        }
    return g;
}

// Backward induction from the cap (D6), both seats' tables, until it settles: `move`, the last
// sweep's largest change. Where a side can stall (a Disruptor kept by one seat) it settles
// slowly: at most 3000 sweeps.
SeatSolution seat_solve(const Options& o, const std::vector<std::vector<Loss>>& losses,
                        const Open& open, double* last_move) {
    const auto n = static_cast<std::size_t>(o.hp * o.hp);
    SeatSolution s{o.hp, {std::vector<double>(n, 0.5), std::vector<double>(n, 0.5)}};
    for (int sweeps = 1; sweeps <= 3000; ++sweeps) {
        std::map<std::vector<double>, double> solved;
        SeatSolution next = s;
        double move = 0;
        for (int att = 0; att < 2; ++att)
            for (int a = 1; a <= o.hp; ++a)
                for (int d = 1; d <= o.hp; ++d) {
                    const double v = game_value(seat_stages(losses, s, open, att, a, d, solved).s1);
                    next.w[static_cast<std::size_t>(att)]
                          [static_cast<std::size_t>((a - 1) * o.hp + d - 1)] = v;
                    move = std::max(move, std::abs(v - s.at(att, a, d)));
                }
        s = std::move(next);
        *last_move = move;
        if (move <= 1e-15) break;
    }
    return s;
}

// shortfall() on a step-3 game over the open functions: the laws' entries for them.
double open_shortfall(const Eigen::MatrixXd& a, double v, const std::vector<int>& rows,
                      const std::vector<int>& cols, const std::array<double, kF>& x,
                      const std::array<double, kF>& y) {
    double worst = 0;
    for (int j = 0; j < a.cols(); ++j) {
        double got = 0;
        for (int i = 0; i < a.rows(); ++i)
            got += x[static_cast<std::size_t>(rows[static_cast<std::size_t>(i)])] * a(i, j);
        worst = std::max(worst, v - got);
    }
    for (int i = 0; i < a.rows(); ++i) {
        double given = 0;
        for (int j = 0; j < a.cols(); ++j)
            given += y[static_cast<std::size_t>(cols[static_cast<std::size_t>(j)])] * a(i, j);
        worst = std::max(worst, given - v);
    }
    return worst;
}

}  // namespace independent
}  // namespace

TEST_CASE(
    "D2b restricted equilibrium against the independent solve: each seat's barred functions "
    "dropped from its rows or columns, a table per attacking seat",
    "[duel][D2a][D2b][D5][D6]") {
    using namespace independent;
    struct Case {
        Settings settings;
        Open open;
    };
    const Case cases[] = {
        // The Disruptor barred to Tau alone: Kaon can still force the draw (D5, D6).
        {{{"hp", "3"}, {"restrict.tau", "disruptor"}}, {but({kDisruptor}), but({})}},
        // Barred to both: nobody can force it.
        {{{"hp", "3"}, {"restrict.tau", "disruptor"}, {"restrict.kaon", "disruptor"}},
         {but({kDisruptor}), but({kDisruptor})}},
        // Several, each seat its own, on a variant of the dice.
        {{{"hp", "3"},
          {"damage.die", "1d4+1"},
          {"restrict.tau", "delayed,intensifier"},
          {"restrict.kaon", "disruptor,changer"}},
         {but({kDelayed, kIntensifier}), but({kDisruptor, kChangerSelf, kChangerOpponent})}},
    };
    for (const Case& c : cases) {
        const Options o = parse_options(c.settings);
        INFO(scenario(o));
        const auto losses = turn_losses(o);
        double move = 1;
        const SeatSolution w = seat_solve(o, losses, c.open, &move);
        INFO("last move " << move);
        CHECK(move <= 1e-10);  // near settled: the stalling side slows it (seat_solve)
        const auto table = equilibrium(o);
        CHECK(table->residual <= 1e-12);
        std::map<std::vector<double>, double> solved;
        double off = 0;  // how far the values move off 1/2
        for (int att = 0; att < 2; ++att)
            for (int a = 1; a <= o.hp; ++a)
                for (int d = 1; d <= o.hp; ++d) {
                    INFO("attacker " << kSeatNames[att] << " at (" << a << ", " << d << ")");
                    const StageLaws& laws = table->at(static_cast<Seat>(att), a, d);
                    const double v = w.at(att, a, d);
                    CHECK(std::abs(laws.value - v) <= 1e-9);
                    off = std::max(off, std::abs(v - 0.5));
                    // A barred function never has a chance (D2b).
                    for (int k = 0; k < 4; ++k)
                        for (int f = 0; f < kF; ++f) {
                            const auto fi = static_cast<std::size_t>(f);
                            const auto ki = static_cast<std::size_t>(k);
                            if (o.is_barred(att, static_cast<Function>(f)))
                                CHECK(laws.attacker_function[ki][fi] == 0);
                            if (o.is_barred(1 - att, static_cast<Function>(f)))
                                CHECK(laws.defender_function[ki][fi] == 0);
                        }
                    const SeatStages g = seat_stages(losses, w, c.open, att, a, d, solved);
                    double worst = shortfall(g.s1, v, laws.ray, laws.shield);
                    for (int ray = 0; ray < kRays; ++ray)
                        for (int shield = 0; shield < kRays; ++shield) {
                            const auto& m2 = g.s2[ray][shield];
                            const int blocked = ray == shield;
                            worst = std::max(worst,
                                             shortfall(m2, g.s1(ray, shield), laws.focus[blocked],
                                                       laws.region[blocked]));
                            for (int focus = 0; focus < kRegions; ++focus)
                                for (int region = 0; region < kRegions; ++region) {
                                    const auto k = static_cast<std::size_t>(
                                        StageLaws::step3(Calibration{ray, shield, focus, region}));
                                    worst = std::max(
                                        worst,
                                        open_shortfall(
                                            g.s3[ray][shield][focus][region], m2(focus, region),
                                            c.open[static_cast<std::size_t>(att)],
                                            c.open[static_cast<std::size_t>(1 - att)],
                                            laws.attacker_function[k], laws.defender_function[k]));
                                }
                        }
                    // The laws are the tilted stage games' (equilibrium.cpp, kTilt = 1e-6): each
                    // loses at most twice the tilt.
                    CHECK(worst <= 2e-6 + 1e-9);
                }
        CHECK(off > 1e-4);  // a restricted game of its own, off the book's 1/2 everywhere
    }
}

TEST_CASE(
    "D2b restricted alike in both seats the game stays the same for both; while both keep the "
    "Disruptor it is 1/2 everywhere; a seat barred from it alone is held to 1/2 at most",
    "[duel][D2a][D2b][D5][D6]") {
    using namespace independent;
    // Derived, not measured: whoever keeps the Disruptor can play it every turn and force the
    // cap's draw (D5, D6), so keeps at least 1/2; both keep it: exactly 1/2 in every state.
    for (const char* barred : {"intensifier", "delayed,deflector,changer", "changer_self"}) {
        Options o = parse_options({{"hp", "12"}, {"restrict.tau", barred}});
        INFO("restrict.tau=" << barred);
        const auto one = equilibrium(o);
        CHECK_FALSE(one->kaon_states.empty());  // restricted differently: a table per seat
        o = parse_options({{"hp", "12"}, {"restrict.tau", barred}, {"restrict.kaon", barred}});
        const auto both = equilibrium(o);
        CHECK(both->kaon_states.empty());  // alike: one table
        for (int att = 0; att < 2; ++att)
            for (int a = 1; a <= 12; ++a)
                for (int d = 1; d <= 12; ++d) {
                    CHECK(std::abs(one->at(static_cast<Seat>(att), a, d).value - 0.5) <= 1e-12);
                    CHECK(std::abs(both->at(static_cast<Seat>(att), a, d).value - 0.5) <= 1e-12);
                }
    }
    // The Disruptor barred to Tau alone: Kaon keeps at least 1/2 wherever it stands, so Tau at
    // most 1/2, attacking (W_tau) or defending (1 - W_kaon).
    const auto tau_barred =
        equilibrium(parse_options({{"hp", "12"}, {"restrict.tau", "disruptor"}}));
    for (int a = 1; a <= 12; ++a)
        for (int d = 1; d <= 12; ++d) {
            CHECK(tau_barred->at(kTau, a, d).value <= 0.5 + 1e-12);
            CHECK(tau_barred->at(kKaon, a, d).value >= 0.5 - 1e-12);
        }
    CHECK(tau_barred->value() < 0.5 - 0.01);
    // Barred to both: no side can force the draw, but the game is still the same for both, so
    // the independent solve, which keeps a table per attacking seat and assumes nothing, finds
    // the two tables equal; and the values move off 1/2.
    const Options o =
        parse_options({{"hp", "3"}, {"restrict.tau", "disruptor"}, {"restrict.kaon", "disruptor"}});
    double move = 1;
    const SeatSolution w =
        seat_solve(o, turn_losses(o), {but({kDisruptor}), but({kDisruptor})}, &move);
    CHECK(move <= 1e-12);
    double off = 0;
    for (int a = 1; a <= o.hp; ++a)
        for (int d = 1; d <= o.hp; ++d) {
            CHECK(std::abs(w.at(kTau, a, d) - w.at(kKaon, a, d)) <= 1e-12);
            off = std::max(off, std::abs(w.at(kTau, a, d) - 0.5));
        }
    CHECK(off > 1e-3);
}

TEST_CASE(
    "D2b barring a dominated function costs nothing: the two particle changers resolve alike, "
    "so either alone can go",
    "[duel][D2b][D3][D4]") {
    // D3, D4: only whether the ray and the shield match counts, and each changer flips that
    // once, whichever particle it flips: Self and Opponent resolve alike against every function
    // in every calibration, for either player. So a seat that may play one loses nothing by
    // losing the other.
    Options book;
    for (int ray = 0; ray < 2; ++ray)
        for (int shield = 0; shield < 2; ++shield)
            for (int focus = 0; focus < 3; ++focus)
                for (int region = 0; region < 3; ++region)
                    for (int f = 0; f < kFunctionCount; ++f) {
                        const Calibration c{ray, shield, focus, region};
                        const auto fn = static_cast<Function>(f);
                        for (const auto& [x, y] :
                             {std::pair{resolve(c, kChangerSelf, fn, book),
                                        resolve(c, kChangerOpponent, fn, book)},
                              std::pair{resolve(c, fn, kChangerSelf, book),
                                        resolve(c, fn, kChangerOpponent, book)}}) {
                            CHECK(x.attacker_dice == y.attacker_dice);
                            CHECK(x.defender_dice == y.defender_dice);
                            CHECK(x.multiplier == y.multiplier);
                            CHECK(x.deflected == y.deflected);
                            CHECK(x.disrupted == y.disrupted);
                        }
                    }
    // Where the value is not 1/2 anyway: the Disruptor barred to both.
    const Settings base{{"hp", "12"}, {"restrict.kaon", "disruptor"}};
    Settings plain = base;
    plain.push_back({"restrict.tau", "disruptor"});
    const auto w = equilibrium(parse_options(plain));
    for (const char* dominated : {"disruptor,changer_opponent", "disruptor,changer_self"}) {
        Settings s = base;
        s.push_back({"restrict.tau", dominated});
        INFO("restrict.tau=" << dominated);
        const auto r = equilibrium(parse_options(s));
        double cost = 0;
        for (int att = 0; att < 2; ++att)
            for (int a = 1; a <= 12; ++a)
                for (int d = 1; d <= 12; ++d)
                    cost = std::max(cost, std::abs(r->at(static_cast<Seat>(att), a, d).value -
                                                   w->at(static_cast<Seat>(att), a, d).value));
        CHECK(cost <= 1e-12);
    }
    // Both changers at once are no duplicate: that costs Tau something.
    Settings both = base;
    both.push_back({"restrict.tau", "disruptor,changer"});
    CHECK(equilibrium(parse_options(both))->value() < w->value() - 1e-6);
}

TEST_CASE(
    "D2b restricted equilibrium: it scores its value against itself, best-response restricted "
    "alike gains nothing against it, and no other policy does better, from either seat",
    "[duel][D2a][D2b][exact]") {
    for (const Settings& s :
         {Settings{{"hp", "12"}, {"restrict.tau", "disruptor"}},
          Settings{{"hp", "12"}, {"restrict.tau", "disruptor"}, {"restrict.kaon", "disruptor"}},
          Settings{{"hp", "12"},
                   {"intensifier.factor", "3"},
                   {"restrict.tau", "delayed,deflector"},
                   {"restrict.kaon", "disruptor,intensifier"}}}) {
        const Options o = parse_options(s);
        INFO(scenario(o));
        const auto table = equilibrium(o);
        const Policy eq = Equilibrium{table};
        const double value = table->value();
        // Played against itself, it scores the value: it does not stall to the cap's draw where
        // the value is not 1/2 (equilibrium.cpp, tilt_laws).
        CHECK(std::abs(tau_score(o, eq, eq) - value) <= 1e-9);
        const auto tau_table = exact::dimension_duel::best_response(o, kTau, eq);
        const auto kaon_table = exact::dimension_duel::best_response(o, kKaon, eq);
        // Best-response picks among its seat's functions only (D2b).
        for (const auto& [seat, t] : {std::pair{kTau, tau_table}, std::pair{kKaon, kaon_table}})
            for (const auto& e : t->entries)
                for (const std::uint8_t f : e.function)
                    CHECK_FALSE(o.is_barred(seat, static_cast<Function>(f)));
        CHECK(tau_score(o, BestResponse{tau_table}, eq) <= value + 1e-9);
        CHECK(tau_score(o, eq, BestResponse{kaon_table}) >= value - 1e-9);
        for (const char* name : {"dice", "aggressor", "survivor", "calibrator"}) {
            INFO(name);
            std::size_t i = 0;
            while (kPolicies[i].name != name) ++i;
            const Policy other = kPolicies[i].make(o, PolicyArgs{});
            CHECK(tau_score(o, eq, other) >= value - 1e-9);
            CHECK(tau_score(o, other, eq) <= value + 1e-9);
        }
    }
}

TEST_CASE("D2b restricted equilibrium plays as its laws say from either seat: Monte Carlo, 4 sigma",
          "[duel][D2a][D2b][exact]") {
    const Settings s{{"hp", "12"}, {"restrict.tau", "disruptor"}};
    const Options o = parse_options(s);
    const Policy eq = Equilibrium{equilibrium(o)};
    for (const bool tau_eq : {true, false}) {
        const auto exact = tau_eq ? exact::dimension_duel::solve(o, eq, DicePolicy{})
                                  : exact::dimension_duel::solve(o, DicePolicy{}, eq);
        const std::uint64_t n = 3000;
        const Tally t =
            test::monte_carlo("dimension-duel", s,
                              tau_eq ? std::vector<std::string>{"tau=equilibrium", "kaon=dice"}
                                     : std::vector<std::string>{"tau=dice", "kaon=equilibrium"},
                              n, 41);
        CHECK(test::counts(t, kTauPlayed + static_cast<int>(kDisruptor))[0] ==
              n);  // never played (D2b)
        for (auto [metric, p] :
             {std::pair{kTauWin, exact.tau_win}, std::pair{kKaonWin, exact.kaon_win},
              std::pair{kDraw, exact.draw}}) {
            const double seen = static_cast<double>(test::counts(t, metric)[1]) / n;
            INFO("tau plays equilibrium " << tau_eq << ", metric " << metric << ": exact " << p
                                          << ", seen " << seen);
            CHECK(std::abs(seen - p) <= 4 * std::sqrt(p * (1 - p) / n) + 1e-9);
        }
    }
}

TEST_CASE(
    "D2b restricted equilibrium scores the value against itself at hp=40, one seat restricted, "
    "either seat: it does not stall to the draw where the value is not 1/2",
    "[duel][D2a][D2b][exact]") {
    // Before the tilt was a fixed 1e-6 (equilibrium.cpp, tilt_laws), the seat that keeps the
    // Disruptor played it every turn from states worth up to 0.75 to it: Tau scored 0.283109
    // against a value of 0.281829 (restrict.tau), 0.718136 against 0.718171 (restrict.kaon).
    for (const char* seat : {"restrict.tau", "restrict.kaon"}) {
        const Options o = parse_options({{"hp", "40"}, {seat, "disruptor"}});
        INFO(scenario(o));
        const auto table = equilibrium(o);
        const Policy eq = Equilibrium{table};
        CHECK(std::abs(tau_score(o, eq, eq) - table->value()) <= 1e-6);
    }
}

TEST_CASE(
    "D2b restricted equilibrium against itself, one seat restricted, either seat: Monte Carlo "
    "against the exact solver and the value, 4 sigma",
    "[duel][D2a][D2b][exact]") {
    for (const char* seat : {"restrict.tau", "restrict.kaon"}) {
        const Settings s{{"hp", "12"}, {seat, "disruptor"}};
        const Options o = parse_options(s);
        INFO(scenario(o));
        const auto table = equilibrium(o);
        const Policy eq = Equilibrium{table};
        const auto exact = exact::dimension_duel::solve(o, eq, eq);
        const double score = exact.tau_win + exact.draw / 2;
        CHECK(std::abs(score - table->value()) <= 1e-9);
        const std::uint64_t n = 2000;  // about half of them play to the cap
        const Tally t =
            test::monte_carlo("dimension-duel", s, {"tau=equilibrium", "kaon=equilibrium"}, n, 53);
        const auto win = test::counts(t, kTauWin), draw = test::counts(t, kDraw);
        const double seen = (static_cast<double>(win[1]) + static_cast<double>(draw[1]) / 2) /
                            static_cast<double>(n);
        // Tau's score takes 0, 1/2 or 1: its variance from the exact law.
        const double var = exact.tau_win + exact.draw / 4 - score * score;
        INFO("exact " << score << ", seen " << seen);
        CHECK(std::abs(seen - score) <= 4 * std::sqrt(var / static_cast<double>(n)) + 1e-9);
    }
}

TEST_CASE(
    "D2b restricted equilibrium at hp=75 is good to 1e-10: every stage game certified, and the "
    "same solve in extended precision agrees",
    "[duel][D2a][D2b][exact]") {
    // Issue 40: with the Disruptor barred to Tau, hp=75's values were 1.3e-7 off an independent
    // solve (3e-9 at hp=40). The simplex alone, Bland's rule with a fixed tolerance, gave values
    // up to 1e-4 off on nearly flat stage games (those where one side can stall), and a value
    // iteration that had settled on a wrong value kept it: where both seats' stage games are
    // worth a turn without damage, every point of a line is a fixed point. Now every stage
    // game's value is certified by its strategies (the row's least column and the column's
    // greatest row within 1e-14), and the whole table solved again in long double (64-bit
    // mantissa, certified to 1e-17) must agree with it to 1e-10 in every state.
    for (const char* seat : {"restrict.tau", "restrict.kaon"}) {
        const Options o = parse_options({{"hp", "75"}, {seat, "disruptor"}});
        INFO(scenario(o));
        const auto fast = solve_equilibrium<double>(o);
        CHECK(fast.certified <= kCertified<double>);
        if (std::string_view(seat) == "restrict.kaon") continue;  // one extended solve: 15 s
        const auto wide = solve_equilibrium<long double>(o);
        CHECK(wide.certified <= kCertified<long double>);
        double worst = 0;
        for (int att = 0; att < 2; ++att)
            for (int a = 1; a <= o.hp; ++a)
                for (int d = 1; d <= o.hp; ++d)
                    worst = std::max(
                        worst,
                        static_cast<double>(std::abs(fast.at(static_cast<Seat>(att), a, d).value -
                                                     wide.at(static_cast<Seat>(att), a, d).value)));
        INFO("worst difference " << worst);
        CHECK(worst <= 1e-10);
    }
}

TEST_CASE("solve_matrix_game certifies nearly flat and degenerate games", "[duel][D2a]") {
    // Games like the stage games where a side can stall: entries within 1e-11 of each other,
    // rows and columns repeated, and a few exact ties. The returned strategies must each
    // guarantee the returned value to within kCertified against every pure reply.
    std::mt19937_64 rng(40);
    std::uniform_real_distribution<double> u(0.0, 1.0);
    for (int trial = 0; trial < 20000; ++trial) {
        const int m = 2 + static_cast<int>(rng() % 6), n = 2 + static_cast<int>(rng() % 6);
        const double base = u(rng), spread = std::pow(10.0, -1 - static_cast<int>(rng() % 12));
        std::vector<double> values;  // a few distinct values, so that ties abound
        for (int k = 0; k < 4; ++k) values.push_back(base + spread * u(rng));
        std::vector<double> a(static_cast<std::size_t>(m * n));
        for (auto& x : a) x = values[rng() % values.size()];
        if (rng() % 3 == 0)  // a repeated row
            std::copy_n(a.begin(), n, a.begin() + n);
        double x[8], y[8], gap = 1;
        const double v = solve_matrix_game<double>(a, m, n, x, y, &gap);
        double lo = 2, hi = -1;
        for (int j = 0; j < n; ++j) {
            double g = 0;
            for (int i = 0; i < m; ++i) g += x[i] * a[static_cast<std::size_t>(i * n + j)];
            lo = std::min(lo, g);
        }
        for (int i = 0; i < m; ++i) {
            double g = 0;
            for (int j = 0; j < n; ++j) g += y[j] * a[static_cast<std::size_t>(i * n + j)];
            hi = std::max(hi, g);
        }
        INFO("trial " << trial << ": " << m << "x" << n << ", spread " << spread);
        CHECK(gap <= kCertified<double>);
        CHECK(v >= lo - 1e-15);
        CHECK(v <= hi + 1e-15);
        CHECK(hi - lo <= 2e-14);
    }
}
