// Dimension Duel solved as a game: the equilibrium of the stochastic game D2a makes of it.
//
// Each turn is three simultaneous-choice steps revealed in order (D2a): step 1 (ray, shield) is a
// 2x2 matrix game whose entries are the values of step 2 (focus, region), a 3x3 matrix game whose
// entries are the values of step 3 (the functions), a 7x7 matrix game whose entries are the
// expected values of the states the dice lead to (D3-D5). The payoff is the attacker's score:
// 1 for a win, 1/2 for a draw (both dead, or the D6 turn cap), 0 for a loss; zero-sum, as Kaon's
// score is 1 minus Tau's. The game is the same for both seats but for who attacks, so a state is
// (the attacker's hit points, the defender's) and W(a, d) is the attacker's value there.
//
// Hit points never rise, so states are solved in increasing order of a + d. A turn without damage
// (a Disruptor, or no dice) leads from (a, d) to (d, a) with the roles swapped: that pair is
// solved by value iteration (Shapley's) from the cap's value 1/2 until it moves less than 1e-15.
// Each matrix game is solved exactly by the simplex method (dense, Bland's rule).
//
// What it finds under the rules as written: W = 1/2 in every state. Either side can force the
// D6 draw by playing a Disruptor every turn (nobody rolls, D5), so neither can be held below 1/2,
// and so neither can get above it. The policy `equilibrium` plays the stage games' optimal mixed
// strategies, which never do worse than 1/2 against anything (tests: best-response gains
// nothing against it). single_use (D7) would add each side's used functions to the state: not
// solved, refused.
//
// Restricted play (D2b, options restrict.tau and restrict.kaon): each step-3 matrix game keeps
// only the rows of the functions the attacker may play and the columns of the defender's, and
// the barred ones get probability 0. Restricted alike in both seats, the game is still the same
// for both, and one table serves both. Restricted otherwise, a state is (the attacker's hit
// points, the defender's, who attacks): a table per attacking seat, and a turn without damage
// links Tau attacking at (a, d) with Kaon attacking at (d, a). Whoever keeps the Disruptor can
// still force the draw: while both keep it, W = 1/2 whatever else is barred; a seat barred from
// it, the other not, is held to at most 1/2; barred to both, the values move off 1/2 (RULES.md,
// "Restricted play").
#pragma once

#include <array>
#include <memory>
#include <span>
#include <vector>

#include "engine/dimension_duel/dimension_duel.hpp"

namespace odds::dimension_duel {

// The value of the zero-sum matrix game a (m rows x n columns, row-major, the row player
// maximising), and an optimal mixed strategy for each player: row[0..m), col[0..n). m, n <= 8.
// Certified: the strategies are checked against every pure reply, and the value lies between
// what the row strategy guarantees and what the column strategy concedes; `gap` (if given) is
// that bracket's width, within kCertified whenever the simplex, the transposed simplex or, last,
// Shapley and Snow's kernels over every pair of supports find it so (issue 40: Bland's simplex
// alone, with a fixed tolerance, was 1e-4 off on nearly flat games).
template <class Real>
inline constexpr Real kCertified = Real(1e-14);
template <>
inline constexpr long double kCertified<long double> = 1e-17L;
template <class Real>
Real solve_matrix_game(std::span<const Real> a, int m, int n, Real* row, Real* col,
                       Real* gap = nullptr);
inline double solve_matrix_game(std::span<const double> a, int m, int n, double* row, double* col) {
    return solve_matrix_game<double>(a, m, n, row, col);
}
extern template double solve_matrix_game(std::span<const double>, int, int, double*, double*,
                                         double*);
extern template long double solve_matrix_game(std::span<const long double>, int, int, long double*,
                                              long double*, long double*);

// One state's equilibrium: each step's mixed strategies, the attacker's first (D2a). Real is
// double for play; long double only for the test that checks the solution's precision.
template <class Real>
struct BasicStageLaws {
    Real value = 0.5;  // W(a, d): the attacker's score
    std::array<Real, 2> ray{}, shield{};
    std::array<std::array<Real, 3>, 2> focus{}, region{};  // by blocked (ray == shield)
    std::array<std::array<Real, kFunctionCount>, 4> attacker_function{},
        defender_function{};  // by blocked * 2 + (focus != region)

    static int step3(const Calibration& c) noexcept {
        return (c.ray == c.shield) * 2 + (c.focus != c.region);
    }
};
using StageLaws = BasicStageLaws<double>;

template <class Real>
struct BasicEquilibriumTable {
    int hp = 0;
    // Tau attacking; and Kaon attacking too when kaon_states is empty (the seats are restricted
    // alike, D2b, so the game is the same for both). Index: (attacker hp - 1) * hp + defender
    // hp - 1.
    std::vector<BasicStageLaws<Real>> states;
    std::vector<BasicStageLaws<Real>> kaon_states;  // Kaon attacking, when restrictions differ

    // Tau attacking (every state when the seats are restricted alike).
    const BasicStageLaws<Real>& at(int attacker_hp, int defender_hp) const {
        return states[static_cast<std::size_t>((attacker_hp - 1) * hp + defender_hp - 1)];
    }
    const BasicStageLaws<Real>& at(Seat attacker, int attacker_hp, int defender_hp) const {
        const auto& s = attacker == kKaon && !kaon_states.empty() ? kaon_states : states;
        return s[static_cast<std::size_t>((attacker_hp - 1) * hp + defender_hp - 1)];
    }
    const BasicStageLaws<Real>& at(const View& v) const {
        const Seat opp = v.me == kTau ? kKaon : kTau;
        return v.attacking ? at(v.me, v.my_hp, v.opp_hp) : at(opp, v.opp_hp, v.my_hp);
    }
    // The game's value for Tau at the start (Tau attacks first, D1).
    Real value() const { return at(kTau, hp, hp).value; }
    // The largest move of the last value-iteration sweep of any state pair.
    Real residual = 0;
    // The widest bracket of any stage game solved (solve_matrix_game's gap): how far any stage
    // value can be off.
    Real certified = 0;
};
using EquilibriumTable = BasicEquilibriumTable<double>;

inline constexpr int kMaxEquilibriumHp = 150;

// The equilibrium for these options. Throws UsageError for single_use, hp above
// kMaxEquilibriumHp, or max_turns below 10000 (a near cap would make the values depend on the
// turn).
template <class Real = double>
BasicEquilibriumTable<Real> solve_equilibrium(const Options& o);
extern template BasicEquilibriumTable<double> solve_equilibrium(const Options&);
extern template BasicEquilibriumTable<long double> solve_equilibrium(const Options&);
// The same, solved once per hp, damage.die, intensifier.factor, dice awarded and restrictions
// (D2b), and kept (the policy's, the registration's).
std::shared_ptr<const EquilibriumTable> equilibrium(const Options& o);

}  // namespace odds::dimension_duel
