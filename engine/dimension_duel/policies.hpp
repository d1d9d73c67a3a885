// Dimension Duel policies (D2). Each decides the three choices of a turn and states the same
// choices as probabilities for the exact solver; tests check the two agree.
//
//   dice        the rules as written: the seed's charts, rolled
//   aggressor   Intensifier when its own dice are ahead; else it hunts for dice
//   survivor    stops incoming dice: Deflector when behind on hit points, Disruptor otherwise
//   calibrator  uses the particle changers to win step 1 (unblock its ray, match its shield)
//   best-response  maximises its exact win probability against the opponent's known policy
//   equilibrium    the optimal mixed strategies of the game (equilibrium.hpp), sampled
//   mcts        UCT tree search (policies/mcts.hpp) for the seat's win probability (draws half)
//
// The strategic policies calibrate (steps 1 and 2) by the charts, like `dice`: against an
// opponent who cannot see the choice, no particle or region is better than another.
#pragma once

#include <array>
#include <memory>
#include <variant>
#include <vector>

#include "engine/dice.hpp"
#include "engine/dimension_duel/dimension_duel.hpp"
#include "engine/dimension_duel/equilibrium.hpp"
#include "policies/mcts.hpp"
#include "policies/policy_table.hpp"

namespace odds::dimension_duel {

using ParticleLaw = std::array<double, 2>;
using RegionLaw = std::array<double, 3>;
using FunctionLaw = std::array<double, kFunctionCount>;

// The seed's charts (D2): particle 1-3 Tau / 4-6 Kaon; region 1-2 head, 3-4 torso, 5-6
// extremities; function 1 bluff .. 5 intensifier, 6 a changer (again: 1-3 self, 4-6 opponent),
// rolled again while the result is used up (D7). Each is an option (chart.*).
struct Charts {
    // D2: the charts' faces are options (chart.tau, chart.head, chart.torso, chart.changer_self).
    // The book's charts are arithmetic: known at compile time in the book's straight turn (a
    // BookView), else by View::book. A runtime View::book alone was a load and a branch a chart
    // (the view lives in memory, which the dice's byte stores may alias): 4% more instructions
    // in aggressor/survivor playouts. Inlined: gcc left region a call, 1.3x slower.
    template <class V, class Dice>
    [[gnu::always_inline]] static int particle(const V& v, Dice& dice) {
        const int f = dice.d6();
        if (V::kBook || (!V::kVariant && v.book)) return f <= 3 ? 0 : 1;
        return v.options->charts.particle[static_cast<std::size_t>(f)];
    }
    template <class V, class Dice>
    [[gnu::always_inline]] static int region(const V& v, Dice& dice) {
        const int f = dice.d6();
        if (V::kBook || (!V::kVariant && v.book)) return (f - 1) / 2;
        return v.options->charts.region[static_cast<std::size_t>(f)];
    }
    template <class V, class Dice>
    [[gnu::always_inline]] static Function function(const V& v, Dice& dice) {
        for (;;) {
            const int roll = dice.d6();
            Function f;
            if (V::kBook || (!V::kVariant && v.book)) {
                f = roll <= 5 ? static_cast<Function>(roll - 1)
                              : (dice.d6() <= 3 ? kChangerSelf : kChangerOpponent);
            } else {
                const Options::ChartFaces& c = v.options->charts;
                f = static_cast<Function>(c.function[static_cast<std::size_t>(roll)]);
                if (f == kChangerSelf && !c.self[static_cast<std::size_t>(dice.d6())])
                    f = kChangerOpponent;
            }
            // D7: a used function rolled again; D2b: a barred one too (a book bars none).
            if (V::kBook ? v.options->available(v.my_used, f)
                         : v.options->allowed(v.me, v.my_used, f))
                return f;
        }
    }
    // Counted faces over 6 (or 36): the book's 3/6, 2/6 and 3/36 are the same doubles as 1/2,
    // 1/3 and 1/12 (each correctly rounded).
    static ParticleLaw particle_law(const View& v) {
        const int t = v.options->chart_tau.count(6);
        return {t / 6.0, (6 - t) / 6.0};
    }
    static RegionLaw region_law(const View& v) {
        int h = 0, t = 0;
        for (int f = 1; f <= 6; ++f) {
            if (v.options->chart_head.has(f))
                ++h;
            else if (v.options->chart_torso.has(f))
                ++t;
        }
        return {h / 6.0, t / 6.0, (6 - h - t) / 6.0};
    }
    static FunctionLaw function_law(const View& v) {
        // The book's law as a constant (the exact solver asks it 36 times a state: counting the
        // chart's faces each time made ExactHp75 1.2x slower).
        FunctionLaw p{1.0 / 6, 1.0 / 6, 1.0 / 6, 1.0 / 6, 1.0 / 6, 1.0 / 12, 1.0 / 12};
        if (!v.options->book) {
            const int self = v.options->chart_changer_self.count(6);
            int faces[kFunctionCount] = {};  // faces of the function chart (a changer's: Self)
            for (int face = 1; face <= 6; ++face) ++faces[v.options->function_on(face)];
            for (int f = kBluff; f <= kIntensifier; ++f) p[f] = faces[f] / 6.0;
            p[kChangerSelf] = faces[kChangerSelf] * self / 36.0;
            p[kChangerOpponent] = faces[kChangerSelf] * (6 - self) / 36.0;
        }
        double total = 0;
        for (int f = 0; f < kFunctionCount; ++f) {
            if (!v.options->allowed(v.me, v.my_used, static_cast<Function>(f))) p[f] = 0;
            total += p[f];
        }
        for (double& x : p) x /= total;
        return p;
    }
};

// A policy whose step 3 is a deterministic rule of thumb and whose steps 1-2 use the charts.
template <class Rule>
struct RuleOfThumb {
    template <class V, class Dice>
    int particle(const V& v, Dice& dice) {
        return Charts::particle(v, dice);
    }
    template <class V, class Dice>
    int region(const V& v, int, int, Dice& dice) {
        return Charts::region(v, dice);
    }
    // The book's straight turn (a BookView) knows its options bar nothing (D2b).
    template <class V, class Dice>
    Function function(const V& v, const Calibration& c, Dice&) {
        return Rule::template choose<V::kBook>(v, c);
    }
    ParticleLaw particle_law(const View& v) const { return Charts::particle_law(v); }
    RegionLaw region_law(const View& v, int, int) const { return Charts::region_law(v); }
    FunctionLaw function_law(const View& v, const Calibration& c) const {
        FunctionLaw p{};
        p[Rule::template choose<false>(v, c)] = 1;
        return p;
    }
};

// The first function of `prefs` the seat may still play (D7: not used up; D2b: not barred to
// it); Bluff always is. kBook: the options are the book's, which bar nothing.
template <bool kBook>
Function first_available(const View& v, std::initializer_list<Function> prefs) {
    for (Function f : prefs)
        if (kBook ? v.options->available(v.my_used, f) : v.options->allowed(v.me, v.my_used, f))
            return f;
    return kBluff;
}

// The dice coming at each side from steps 1-2 (before functions): the attacker's only.
inline int my_dice(const View& v, const Calibration& c) {
    return v.attacking ? c.attacker_dice() : 0;
}
inline int their_dice(const View& v, const Calibration& c) {
    return v.attacking ? 0 : c.attacker_dice();
}

// Aggressor: "double it when I'm ahead". With more dice than the opponent, Intensifier; else, as
// attacker with a blocked ray, flip it (Changer-Self); otherwise a Delayed Attack.
struct AggressorRule {
    template <bool kBook = false>
    static Function choose(const View& v, const Calibration& c) {
        if (my_dice(v, c) > their_dice(v, c))
            return first_available<kBook>(v, {kIntensifier, kDelayed});
        if (v.attacking && c.ray == c.shield)
            return first_available<kBook>(v, {kChangerSelf, kDelayed});
        return first_available<kBook>(v, {kDelayed});
    }
};

// Survivor: "don't get hit". Facing dice: Deflector when behind on hit points (send them back),
// Disruptor otherwise (cancel them). Facing none: a Delayed Attack.
struct SurvivorRule {
    template <bool kBook = false>
    static Function choose(const View& v, const Calibration& c) {
        if (their_dice(v, c) > 0)
            return v.my_hp < v.opp_hp
                       ? first_available<kBook>(v, {kDeflector, kDisruptor, kDelayed})
                       : first_available<kBook>(v, {kDisruptor, kDeflector, kDelayed});
        return first_available<kBook>(v, {kDelayed});
    }
};

// Calibrator: "win step 1". A blocked attacker flips his own ray; an unblocked defender flips
// his own shield to match; otherwise a Delayed Attack.
struct CalibratorRule {
    template <bool kBook = false>
    static Function choose(const View& v, const Calibration& c) {
        const bool blocked = c.ray == c.shield;
        if (v.attacking == blocked)
            return first_available<kBook>(v, {kChangerSelf, kChangerOpponent, kDelayed});
        return first_available<kBook>(v, {kDelayed});
    }
};

struct DicePolicy {
    template <class V, class Dice>
    int particle(const V& v, Dice& dice) {
        return Charts::particle(v, dice);
    }
    template <class V, class Dice>
    int region(const V& v, int, int, Dice& dice) {
        return Charts::region(v, dice);
    }
    template <class V, class Dice>
    Function function(const V& v, const Calibration&, Dice& dice) {
        return Charts::function(v, dice);
    }
    ParticleLaw particle_law(const View& v) const { return Charts::particle_law(v); }
    RegionLaw region_law(const View& v, int, int) const { return Charts::region_law(v); }
    FunctionLaw function_law(const View& v, const Calibration&) const {
        return Charts::function_law(v);
    }
};

using Aggressor = RuleOfThumb<AggressorRule>;
using Survivor = RuleOfThumb<SurvivorRule>;
using Calibrator = RuleOfThumb<CalibratorRule>;

// Best response: a table of choices per state (my hp, opponent's hp, role), computed by the exact
// solver against one known opponent policy (sim/exact/duel). Deterministic.
struct BestResponseTable {
    int hp = 0;
    struct Entry {
        std::uint8_t particle = 0;
        std::array<std::uint8_t, 4> region{};     // by (ray, shield)
        std::array<std::uint8_t, 36> function{};  // by calibration
    };
    std::vector<Entry> entries;  // index: ((my_hp - 1) * hp + opp_hp - 1) * 2 + attacking

    static int calibration_index(const Calibration& c) {
        return ((c.ray * 2 + c.shield) * 3 + c.focus) * 3 + c.region;
    }
    const Entry& at(const View& v) const {
        return entries[static_cast<std::size_t>(((v.my_hp - 1) * hp + v.opp_hp - 1) * 2 +
                                                v.attacking)];
    }
};

struct BestResponse {
    std::shared_ptr<const BestResponseTable> table;

    template <class Dice>
    int particle(const View& v, Dice&) {
        return table->at(v).particle;
    }
    template <class Dice>
    int region(const View& v, int ray, int shield, Dice&) {
        return table->at(v).region[ray * 2 + shield];
    }
    template <class Dice>
    Function function(const View& v, const Calibration& c, Dice&) {
        return static_cast<Function>(
            table->at(v)
                .function[static_cast<std::size_t>(BestResponseTable::calibration_index(c))]);
    }
    ParticleLaw particle_law(const View& v) const {
        ParticleLaw p{};
        p[table->at(v).particle] = 1;
        return p;
    }
    RegionLaw region_law(const View& v, int ray, int shield) const {
        RegionLaw p{};
        p[table->at(v).region[ray * 2 + shield]] = 1;
        return p;
    }
    FunctionLaw function_law(const View& v, const Calibration& c) const {
        FunctionLaw p{};
        p[table->at(v)
              .function[static_cast<std::size_t>(BestResponseTable::calibration_index(c))]] = 1;
        return p;
    }
};

// Equilibrium: at every state and step, the optimal mixed strategy of the stage's matrix game
// (equilibrium.hpp), drawn with the dice. It never does worse than the game's value, whatever
// the other seat plays.
struct Equilibrium {
    std::shared_ptr<const EquilibriumTable> table;

    template <std::size_t N, class Dice>
    static int sample(const std::array<double, N>& law, Dice& dice) {
        const double u = static_cast<double>(dice.word() >> 11) * 0x1.0p-53;
        double below = 0;
        int last = 0;
        for (std::size_t i = 0; i < N; ++i) {
            if (law[i] <= 0) continue;
            last = static_cast<int>(i);
            below += law[i];
            if (u < below) return last;
        }
        return last;  // rounding: the sum fell short of u
    }
    template <class Dice>
    int particle(const View& v, Dice& dice) {
        return sample(particle_law(v), dice);
    }
    template <class Dice>
    int region(const View& v, int ray, int shield, Dice& dice) {
        return sample(region_law(v, ray, shield), dice);
    }
    template <class Dice>
    Function function(const View& v, const Calibration& c, Dice& dice) {
        return static_cast<Function>(sample(function_law(v, c), dice));
    }
    ParticleLaw particle_law(const View& v) const {
        return v.attacking ? table->at(v).ray : table->at(v).shield;
    }
    RegionLaw region_law(const View& v, int ray, int shield) const {
        const auto& s = table->at(v);
        return v.attacking ? s.focus[ray == shield] : s.region[ray == shield];
    }
    FunctionLaw function_law(const View& v, const Calibration& c) const {
        const auto& s = table->at(v);
        return (v.attacking ? s.attacker_function
                            : s.defender_function)[static_cast<std::size_t>(StageLaws::step3(c))];
    }
};

// The policies that do not search and need nothing solved first: what mcts may roll out with
// (the table's first rows, in order).
using Basic = std::variant<DicePolicy, Aggressor, Survivor, Calibrator>;
inline constexpr std::string_view kRollouts[] = {"dice", "aggressor", "survivor", "calibrator"};

// UCT over the duel's decision points (policies/mcts.hpp), maximising the seat's win probability
// (draws half, Game::reward), rolling out with one of the Basic policies in both seats. Asked a
// step's question, it rebuilds the position from what it is shown (View: hit points, functions
// used, turns played; the earlier steps) and searches from there. As defender (D2a) it is not
// shown the attacker's choice of the same step: every iteration samples one
// (Game::determinize). Below the root the tree is sequential: the seats it imagines later see
// the attacker's choice of each step (a simplification of the simultaneous steps).
struct Mcts : odds::Mcts<Game, Basic> {
    using odds::Mcts<Game, Basic>::Mcts;
    template <class Dice>
    int particle(const View& v, Dice& dice) {
        return search(at(v, 0), *v.options, dice);
    }
    template <class Dice>
    int region(const View& v, int ray, int shield, Dice& dice) {
        State s = at(v, 2);
        s.c.ray = ray;
        s.c.shield = shield;
        return search(s, *v.options, dice);
    }
    template <class Dice>
    Function function(const View& v, const Calibration& c, Dice& dice) {
        State s = at(v, 4);
        s.c = c;
        return static_cast<Function>(search(s, *v.options, dice));
    }

private:
    // The position `v` shows, at the step the attacker's (`step`) or the defender's (step + 1)
    // decision of it.
    static State at(const View& v, int step) {
        State s;
        const Seat opp = v.me == kTau ? kKaon : kTau;
        s.hp[v.me] = v.my_hp;
        s.hp[opp] = v.opp_hp;
        s.used[v.me] = v.my_used;
        s.used[opp] = v.opp_used;
        s.turn = v.turn;
        s.step = static_cast<std::uint8_t>(step + (v.attacking ? 0 : 1));
        return s;
    }
};

using Policy =
    std::variant<DicePolicy, Aggressor, Survivor, Calibrator, BestResponse, Equilibrium, Mcts>;

Policy make_mcts(const Options& o, const PolicyArgs& a);
inline constexpr PolicyParam kMctsParams[] = {odds::mcts_iterations_param(), odds::mcts_c_param(),
                                              odds::mcts_rollout_param(kRollouts, 0)};

// The policies, the default first: name, help and factory. A best-response seat is made without
// its table, which the registration solves against the other seat's policy.
inline constexpr PolicyRow<PolicyFactory<Policy, Options>> kPolicies[] = {
    {"dice", "the rules as written: every choice rolled on the seed's charts", made<DicePolicy>},
    {"aggressor", "Intensifier when its dice are ahead; flips a blocked ray; else Delayed Attack",
     made<Aggressor>},
    {"survivor", "facing dice: Deflector when behind on hit points, else Disruptor; else Delayed",
     made<Survivor>},
    {"calibrator",
     "particle changers to win step 1 (unblock its ray, match its shield); else Delayed",
     made<Calibrator>},
    {.name = "best-response",
     .help = "maximises its exact win probability against the other seat's policy "
             "(no turn cap below 10000; hp up to 150, as the exact solver)",
     .make = made<BestResponse>,
     .needs_fixed_opponent = true},
    {"equilibrium",
     "the game's optimal mixed strategies, solved before the run (D2a; hp up to 150, "
     "single_use=false, max_turns of 10000 or more)",
     [](const Options& o, const PolicyArgs&) -> Policy { return Equilibrium{equilibrium(o)}; }},
    {"mcts",
     "UCT tree search for the seat's win probability (draws half): N iterations, exploration C, "
     "rolling out with the named policy; as defender it samples the attacker's hidden choice",
     make_mcts, kMctsParams},
};
inline constexpr auto kPolicyInfos = infos_of(kPolicies);

// Every policy the table can make plays the kernel's policy interface, and every one but mcts
// states its choices as probabilities for the exact solver (which refuses mcts).
static_assert(every_alternative<Policy>([]<class P> {
    return PolicyFor<P, odds::Dice> && (SolvablePolicy<P> || std::same_as<P, Mcts>);
}));
static_assert(PolicyFor<Mcts, ScriptedDice>);
static_assert(std::size(kRollouts) == std::variant_size_v<Basic>);
static_assert(odds::ResumableGame<Game, odds::Dice> && odds::ResumableGame<Game, ScriptedDice>);

inline Policy make_mcts(const Options& o, const PolicyArgs& a) {
    return make_search<Mcts, Basic>(kPolicies, o, a);
}

}  // namespace odds::dimension_duel
