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
double solve_matrix_game(std::span<const double> a, int m, int n, double* row, double* col);

// One state's equilibrium: each step's mixed strategies, the attacker's first (D2a).
struct StageLaws {
    double value = 0.5;  // W(a, d): the attacker's score
    std::array<double, 2> ray{}, shield{};
    std::array<std::array<double, 3>, 2> focus{}, region{};  // by blocked (ray == shield)
    std::array<std::array<double, kFunctionCount>, 4> attacker_function{},
        defender_function{};  // by blocked * 2 + (focus != region)

    static int step3(const Calibration& c) noexcept {
        return (c.ray == c.shield) * 2 + (c.focus != c.region);
    }
};

struct EquilibriumTable {
    int hp = 0;
    // Tau attacking; and Kaon attacking too when kaon_states is empty (the seats are restricted
    // alike, D2b, so the game is the same for both). Index: (attacker hp - 1) * hp + defender
    // hp - 1.
    std::vector<StageLaws> states;
    std::vector<StageLaws> kaon_states;  // Kaon attacking, when the seats' restrictions differ

    // Tau attacking (every state when the seats are restricted alike).
    const StageLaws& at(int attacker_hp, int defender_hp) const {
        return states[static_cast<std::size_t>((attacker_hp - 1) * hp + defender_hp - 1)];
    }
    const StageLaws& at(Seat attacker, int attacker_hp, int defender_hp) const {
        const auto& s = attacker == kKaon && !kaon_states.empty() ? kaon_states : states;
        return s[static_cast<std::size_t>((attacker_hp - 1) * hp + defender_hp - 1)];
    }
    const StageLaws& at(const View& v) const {
        const Seat opp = v.me == kTau ? kKaon : kTau;
        return v.attacking ? at(v.me, v.my_hp, v.opp_hp) : at(opp, v.opp_hp, v.my_hp);
    }
    // The game's value for Tau at the start (Tau attacks first, D1).
    double value() const { return at(kTau, hp, hp).value; }
    // The largest move of the last value-iteration sweep of any state pair.
    double residual = 0;
};

inline constexpr int kMaxEquilibriumHp = 150;

// The equilibrium for these options. Throws UsageError for single_use, hp above
// kMaxEquilibriumHp, or max_turns below 10000 (a near cap would make the values depend on the
// turn).
EquilibriumTable solve_equilibrium(const Options& o);
// The same, solved once per hp, damage.die, intensifier.factor, dice awarded and restrictions
// (D2b), and kept (the policy's, the registration's).
std::shared_ptr<const EquilibriumTable> equilibrium(const Options& o);

}  // namespace odds::dimension_duel
