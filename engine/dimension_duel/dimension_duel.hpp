// Dimension Duel: two particle devices, Tau and Kaon, fight to the death. Rules page: RULES.md
// beside this file; every ruling (D1-D7) is cited where it is implemented.
//
// The kernel asks a policy per seat for every choice (D2) and rolls only the damage dice itself;
// its play is the resumable Game below (engine/decision.hpp), six decision points a turn.
// Policies are template parameters, so the hot loop has no virtual call. Fixed-size state, no
// heap allocation inside a playout.
#pragma once

#include <array>
#include <concepts>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <type_traits>
#include <utility>
#include <vector>

#include "engine/decision.hpp"
#include "engine/dice.hpp"
#include "engine/metric.hpp"
#include "engine/rule_options.hpp"
#include "engine/rule_values.hpp"

namespace odds::dimension_duel {

enum Seat : int { kTau = 0, kKaon = 1 };
inline constexpr const char* kSeatNames[2] = {"tau", "kaon"};

// D2: the secondary functions of step 3. The particle changer has two modes.
enum Function : std::uint8_t {
    kBluff,
    kDisruptor,
    kDelayed,
    kDeflector,
    kIntensifier,
    kChangerSelf,
    kChangerOpponent,
    kFunctionCount
};
inline constexpr const char* kFunctionNames[kFunctionCount] = {
    "bluff",       "disruptor",    "delayed",         "deflector",
    "intensifier", "changer_self", "changer_opponent"};

// D7: what single_use tracks: one bit per function but Bluff. D7a: the changer's two modes are
// one function (the seed's chart rolls them as one) unless `changers=separate`.
constexpr std::uint8_t use_bit(Function f, bool separate_changers = false) noexcept {
    switch (f) {
        case kBluff:
            return 0;
        case kChangerSelf:
            return 1u << 4;
        case kChangerOpponent:
            return separate_changers ? 1u << 5 : 1u << 4;
        default:
            return static_cast<std::uint8_t>(1u << (f - 1));
    }
}

struct Options {
    int hp = 75;                     // D1
    int max_turns = 10000;           // D6
    bool single_use = false;         // D7
    bool separate_changers = false;  // D7a
    // D2: the seed's charts, as the `dice` policy (and the rules of thumb's steps 1-2) roll them
    // on a d6: the faces for Tau (ray or anti-Tau shield; the rest Kaon), for the head and the
    // torso (the head's first; the rest extremities), and the changer's re-roll for Self.
    FaceSet chart_tau = FaceSet::range(1, 3);
    FaceSet chart_head = FaceSet::range(1, 2);
    FaceSet chart_torso = FaceSet::range(3, 4);
    FaceSet chart_changer_self = FaceSet::range(1, 3);
    // D2: the function chart on a d6: the faces of each function, the first of these that has
    // the face; a face in none is a Bluff; a changer rolls again for its mode (above).
    FaceSet chart_disruptor = FaceSet::range(2, 2);
    FaceSet chart_delayed = FaceSet::range(3, 3);
    FaceSet chart_deflector = FaceSet::range(4, 4);
    FaceSet chart_intensifier = FaceSet::range(5, 5);
    FaceSet chart_changer = FaceSet::range(6, 6);
    // The function chart's face (D2): kChangerSelf stands for either changer, before its mode.
    Function function_on(int face) const noexcept {
        if (chart_disruptor.has(face)) return kDisruptor;
        if (chart_delayed.has(face)) return kDelayed;
        if (chart_deflector.has(face)) return kDeflector;
        if (chart_intensifier.has(face)) return kIntensifier;
        if (chart_changer.has(face)) return kChangerSelf;
        return kBluff;
    }
    // The charts as a variant's turn reads them, by a d6's face (1..6): the particle (0 Tau, 1
    // Kaon), the region (0 head, 1 torso, 2 extremities), the function (kChangerSelf for either
    // changer) and the changer's mode (1 Self). Worked out from the faces above once (here, and
    // by settle()): a chart roll is one lookup, not a search of face sets.
    struct ChartFaces {
        std::array<std::uint8_t, 7> particle{}, region{}, function{}, self{};
    };
    ChartFaces chart_faces() const noexcept {
        ChartFaces c;
        for (int f = 1; f <= 6; ++f) {
            const auto i = static_cast<std::size_t>(f);
            c.particle[i] = chart_tau.has(f) ? 0 : 1;
            c.region[i] = chart_head.has(f) ? 0 : (chart_torso.has(f) ? 1 : 2);
            c.function[i] = function_on(f);
            c.self[i] = chart_changer_self.has(f) ? 1 : 0;
        }
        return c;
    }
    ChartFaces charts = chart_faces();
    int calibrate_dice = 1;             // D4: dice for a shield that does not stop the ray
    int focus_dice = 1;                 // D4: dice for a region not reinforced
    int delayed_dice = 1;               // D4: dice for a Delayed Attack
    DiceExpr die = DiceExpr::of(1, 6);  // D4: what each die awarded rolls (damage.die)
    int intensifier_factor = 2;         // D5: each Intensifier multiplies the totals by this
    // D2b (restricted play): the functions each seat may never play, one bit per Function (bit
    // kBluff never set: a seat always has Bluff). Options restrict.tau and restrict.kaon.
    std::array<std::uint8_t, 2> barred{};

    // Every option of a turn (the D2 charts, D2b's restrictions, D4's dice, D5's factor: the
    // options named when changed) at the book's value (OptionTable::is_book): set by
    // parse_options, read once a playout, which then plays the book's turn as straight code with
    // those values as constants (play_from, Game::finish_turn<true>). A default Options is the
    // book; code that changes those fields directly calls settle().
    bool book = true;
    // The turn's dice at the book's values (D4: one die for each of calibrate, focus and delayed,
    // each die 1d6; D5: an Intensifier doubles), whatever the charts and restrictions: a
    // variant of the charts (chart.tau=1-2) or of D2b then rolls its turn's dice as the book's
    // turn does, as constants (Game::finish_turn<true>), and reads only its charts (issue 45).
    // Implied by `book`.
    bool book_dice = true;
    void settle();

    // D4: the total of n dice awarded. A die of d6s only (the book's 1d6) draws its faces as one
    // sum_d6, the same faces in the same order as rolling each die in turn; any other die rolls
    // out of line (roll_dice_any), so the d6 path stays small enough to inline.
    template <class Dice>
    int roll_dice(Dice& dice, int n) const {
        if (die.only_d6) [[likely]]
            return dice.sum_d6(n * die.d6) + n * die.constant;
        return roll_dice_any(dice, n);
    }
    template <class Dice>
    [[gnu::noinline]] int roll_dice_any(Dice& dice, int n) const {
        int s = 0;
        for (int i = 0; i < n; ++i) s += die.roll(dice);
        return s;
    }
    // D5: the multiplier of a turn with `intensifiers` Intensifiers played (0, 1 or 2).
    int multiplier(int intensifiers) const noexcept {
        return intensifiers == 0 ? 1
                                 : (intensifiers == 1 ? intensifier_factor
                                                      : intensifier_factor * intensifier_factor);
    }
    // The most dice the attacker can be awarded in a turn (D4; the book's 3).
    int max_dice() const noexcept { return calibrate_dice + focus_dice + delayed_dice; }
    // The most one turn's dice can take from a player (D4: 3 dice; D5: two Intensifiers).
    int max_hit() const noexcept { return max_dice() * die.max() * multiplier(2); }

    std::uint8_t bit(Function f) const noexcept { return use_bit(f, separate_changers); }
    // D7: may a player who has used `used` still play f?
    bool available(std::uint8_t used, Function f) const noexcept {
        return !single_use || (used & bit(f)) == 0;
    }
    // D2b: is f barred to `seat`?
    bool is_barred(int seat, Function f) const noexcept {
        return (barred[static_cast<std::size_t>(seat)] >> f & 1u) != 0;
    }
    // D2b, D7: may `seat`, having used `used`, play f? (A book's options bar nothing: the book's
    // fast paths ask available() alone.)
    bool allowed(int seat, std::uint8_t used, Function f) const noexcept {
        return !is_barred(seat, f) && available(used, f);
    }
};

// D4: each side's dice in one turn: calibrate.dice + focus.dice + delayed.dice at most (each 0..3).
inline constexpr int kMaxDice = 9;
// D4: the law of the total of n dice awarded, n = 0..kMaxDice, under damage.die: laws[n][t] =
// P(total t), by convolution of the die's law (its exact law, engine/rule_values.hpp). For the
// exact solvers.
std::array<std::vector<double>, kMaxDice + 1> damage_laws(const Options& o);

// The declared rule options (engine/rule_options.hpp), in the order `odds list` shows them.
const OptionTable<Options>& option_table();
Options parse_options(const Settings& settings);
std::string scenario(const Options& o);

// What a seat's policy sees when it chooses (D2): both players' hit points, its role, and the
// functions each has used (under single_use).
struct View {
    Seat me = kTau;
    bool attacking = true;
    int my_hp = 0, opp_hp = 0;
    std::uint8_t my_used = 0, opp_used = 0;
    const Options* options = nullptr;
    int turn = 0;  // turns played (the turn cap, D6: what a searching policy plays on from)
    // The options' charts are the book's (Options::book): the charts' fast path (policies.hpp).
    // False is always right (the charts then read options).
    bool book = false;
    static constexpr bool kBook = false;
    static constexpr bool kVariant = false;
};
// The view of the book's straight turn (detail::straight_turn<true>): the charts' policies that
// take the view's type (Charts in policies.hpp) know at compile time that they are the book's.
struct BookView : View {
    static constexpr bool kBook = true;
};
// The view of a variant's straight turn (detail::straight_turn<false>): the charts' policies
// read the charts' lookups (Options::charts) without asking View::book.
struct VariantView : View {
    static constexpr bool kVariant = true;
};

// Steps 1 and 2 as chosen (before any particle changer), known to both players in step 3.
// Particles: 0 Tau, 1 Kaon (the ray's type, or the type the shield stops). Regions: 0 head,
// 1 torso, 2 extremities.
struct Calibration {
    int ray = 0, shield = 0, focus = 0, region = 0;
    // The attacker's dice from steps 1 and 2 (D4), before functions.
    int attacker_dice() const noexcept { return (ray != shield) + (focus != region); }
};

// What the kernel asks each seat's policy, with dice of type Dice:
//   particle  step 1 (ray or shield)
//   region    step 2, knowing step 1
//   function  step 3, knowing steps 1-2
template <class P, class Dice>
concept PolicyFor = requires(P& policy, const View& v, int ray, int shield, const Calibration& c,
                             Dice& dice) {
    { policy.particle(v, dice) } -> std::same_as<int>;
    { policy.region(v, ray, shield, dice) } -> std::same_as<int>;
    { policy.function(v, c, dice) } -> std::same_as<Function>;
};
// What the exact solver asks of it besides: the same choices as probabilities.
template <class P>
concept SolvablePolicy = requires(const P& policy, const View& v, int ray, int shield,
                                  const Calibration& c) {
    { policy.particle_law(v) } -> std::same_as<std::array<double, 2>>;
    { policy.region_law(v, ray, shield) } -> std::same_as<std::array<double, 3>>;
    { policy.function_law(v, c) } -> std::same_as<std::array<double, kFunctionCount>>;
};

// The outcome of one turn's functions (D3-D5): dice per side, the multiplier, and who is hit.
struct Resolution {
    int attacker_dice = 0, defender_dice = 0;
    int multiplier = 1;      // intensifier.factor per Intensifier (D5; the book's 2)
    int intensifiers = 0;    // Intensifiers played, 0..2 (D5)
    bool deflected = false;  // an odd number of Deflectors: each total hits its roller (D5)
    bool disrupted = false;  // any Disruptor: nobody rolls (D5)
};

// kBook: the turn's dice are the book's (Options::book_dice), taken as constants.
template <bool kBook = false>
inline Resolution resolve(const Calibration& c, Function fa, Function fd,
                          const Options& o) noexcept {
    Resolution r;
    // D3: the changers flip the step-1 particles, cumulatively.
    const int ray = c.ray ^ (fa == kChangerSelf) ^ (fd == kChangerOpponent);
    const int shield = c.shield ^ (fa == kChangerOpponent) ^ (fd == kChangerSelf);
    // D4: the attacker's dice; the defender's only from his Delayed Attack.
    if constexpr (kBook) {
        r.attacker_dice = (ray != shield) + (c.focus != c.region) + (fa == kDelayed);
        r.defender_dice = (fd == kDelayed);
    } else {
        r.attacker_dice = (ray != shield) * o.calibrate_dice +
                          (c.focus != c.region) * o.focus_dice + (fa == kDelayed) * o.delayed_dice;
        r.defender_dice = (fd == kDelayed) * o.delayed_dice;
    }
    // D5
    r.disrupted = fa == kDisruptor || fd == kDisruptor;
    r.intensifiers = (fa == kIntensifier) + (fd == kIntensifier);
    const int factor = kBook ? 2 : o.intensifier_factor;
    r.multiplier = (fa == kIntensifier ? factor : 1) * (fd == kIntensifier ? factor : 1);
    r.deflected = ((fa == kDeflector) + (fd == kDeflector)) % 2 == 1;
    return r;
}

// A rolled turn's outcome as an index for tables, 0..kOutcomes-1: the dice each side rolls (D4:
// 0 to 3 for the attacker, 0 or 1 for the defender in the book; up to kMaxDice and 3 under the
// options), the Intensifiers played (0, 1 or 2) and the deflection (D5). A disrupted turn, where
// nobody rolls, has none. Ordered as (attacker's dice, defender's, Intensifiers, deflection).
inline constexpr int kOutcomes = (kMaxDice + 1) * 4 * 3 * 2;
inline int outcome_index(const Resolution& r) noexcept {
    return ((r.attacker_dice * 4 + r.defender_dice) * 3 + r.intensifiers) * 2 +
           (r.deflected ? 1 : 0);
}

struct Outcome {
    int winner = -1;  // kTau, kKaon, or -1 for a draw (both dead, or the turn cap)
    bool timeout = false;
    int turns = 0;
    int hp[2] = {0, 0};     // at the end (may be below zero)
    int dealt[2] = {0, 0};  // damage each side's dice did to the other side
    int played[2][kFunctionCount] = {};
};

// A duel between decisions (D2a): the hit points, the functions used (D7), the turns played, and
// how far the turn under way has gone: `step` 0..5 is the decision asked next (below), with the
// choices made so far in `c` and `fa`.
struct State {
    int hp[2] = {0, 0};
    std::uint8_t used[2] = {0, 0};
    int turn = 0;  // turns played
    std::uint8_t step = 0;
    Calibration c{};
    Function fa = kBluff;
    bool over = false;
    Outcome out{};
};

// The duel's opening (D1): both players at full hit points, Tau about to attack.
inline State opening(const Options& o) noexcept {
    State s;
    s.hp[kTau] = s.hp[kKaon] = o.hp;
    return s;
}

// D1: Tau attacks on odd turns, Kaon on even ones (the turn under way is turn + 1).
inline Seat attacker(const State& s) noexcept { return s.turn % 2 == 0 ? kTau : kKaon; }

inline View view_of(const State& s, const Options& o, Seat me, bool attacking) noexcept {
    const Seat opp = me == kTau ? kKaon : kTau;
    return View{me, attacking, s.hp[me], s.hp[opp], s.used[me], s.used[opp], &o, s.turn, o.book};
}

// The resumable form (engine/decision.hpp). D2a: each of a turn's three steps is made by both
// players at once and revealed before the next, so each step is two decision points, the
// attacker's then the defender's, and the defender's is asked without the attacker's choice of
// the same step (the policy's View and arguments hold only the earlier steps):
//   step 0, 1  the attacker's ray, the defender's shield (particle: 0 Tau, 1 Kaon)
//   step 2, 3  the attacker's focus, the defender's region (0 head, 1 torso, 2 extremities)
//   step 4, 5  the attacker's function, the defender's (D7: under single_use, the unused ones;
//              D2b: never one barred to the seat)
// The dice of damage (D4, D5) are rolled when the defender's function is applied; then the
// duel ends (D6) or the next turn begins. A Choice is the particle, region or Function.
struct Game {
    using Options = dimension_duel::Options;
    using State = dimension_duel::State;
    using Choice = std::uint8_t;
    static constexpr int kMaxChoices = kFunctionCount;

    static bool over(const State& s, const Options&) noexcept { return s.over; }
    static int to_move(const State& s, const Options&) noexcept {
        const Seat a = attacker(s);
        return s.step % 2 == 0 ? a : 1 - a;
    }
    static int legal(const State& s, const Options& o, Choice* out) noexcept {
        if (s.step < 4) {
            const int n = s.step < 2 ? 2 : 3;
            for (int i = 0; i < n; ++i) out[i] = static_cast<Choice>(i);
            return n;
        }
        int n = 0;
        const int seat = to_move(s, o);
        const std::uint8_t used = s.used[seat];
        for (int f = 0; f < kFunctionCount; ++f)  // D2b, D7
            if (o.allowed(seat, used, static_cast<Function>(f))) out[n++] = static_cast<Choice>(f);
        return n;
    }
    static double reward(const State& s, const Options&, int seat) noexcept {
        return s.out.winner == seat ? 1.0 : s.out.winner < 0 ? 0.5 : 0.0;
    }
    // D2a for search (policies/mcts.hpp): the defender decides a step without the attacker's
    // choice of it, so the defender's searching copy replaces that choice by a uniform sample
    // of the attacker's legal ones (ray, focus, or, D2b and D7, a function still open to him).
    // Open-loop: the sampled positions never meet in one node.
    static constexpr bool kOpenLoop = true;
    template <class Dice>
    static void determinize(State& s, const Options& o, int seat, Dice& dice) {
        if (s.over || s.step % 2 == 0 || seat != to_move(s, o)) return;
        if (s.step == 1) {
            s.c.ray = static_cast<int>(below(dice, 2));
        } else if (s.step == 3) {
            s.c.focus = static_cast<int>(below(dice, 3));
        } else {
            Choice fs[kMaxChoices];
            int n = 0;
            const Seat a = attacker(s);
            for (int f = 0; f < kFunctionCount; ++f)
                if (o.allowed(a, s.used[a], static_cast<Function>(f)))
                    fs[n++] = static_cast<Choice>(f);
            s.fa = static_cast<Function>(fs[below(dice, static_cast<std::uint32_t>(n))]);
        }
    }
    // The policy's answer to the question this step poses (D2a).
    template <class P, class Dice>
    static Choice decide(const State& s, const Options& o, P& policy, Dice& dice) {
        const Seat me = static_cast<Seat>(to_move(s, o));
        const View v = view_of(s, o, me, me == attacker(s));
        if (s.step < 2) return static_cast<Choice>(policy.particle(v, dice));
        if (s.step < 4) return static_cast<Choice>(policy.region(v, s.c.ray, s.c.shield, dice));
        return static_cast<Choice>(policy.function(v, s.c, dice));
    }
    template <class Dice>
    static void apply(State& s, const Options& o, Choice choice, Dice& dice) {
        if (o.book_dice)
            apply_as<true>(s, o, choice, dice);
        else
            apply_as<false>(s, o, choice, dice);
    }
    // kBook: the turn's dice are the book's (Options::book_dice), their values constants.
    template <bool kBook, class Dice>
    static void apply_as(State& s, const Options& o, Choice choice, Dice& dice) {
        switch (s.step) {
            case 0:
                s.c.ray = choice;
                break;
            case 1:
                s.c.shield = choice;
                break;
            case 2:
                s.c.focus = choice;
                break;
            case 3:
                s.c.region = choice;
                break;
            case 4:
                s.fa = static_cast<Function>(choice);
                break;
            default:
                finish_turn<kBook>(s, o, static_cast<Function>(choice), dice);
                s.step = 0;
                return;
        }
        ++s.step;
    }

    // The turn's functions (D3-D5, D7), its dice (step 4), and the end (D6): what apply does
    // with the defender's function (step 5), for play_from's straight-line turn too. Always
    // inlined: gcc left it a call, and the call, its saved registers and the State it could then
    // no longer keep in registers made aggressor/survivor playouts 1.3x slower. kBook: the
    // turn's dice are the book's (Options::book_dice), their values constants, the dice one
    // sum_d6 a side.
    template <bool kBook, class Dice>
    [[gnu::always_inline]] static void finish_turn(State& s, const Options& o, Function fd,
                                                   Dice& dice) {
        const Seat a = attacker(s), d = a == kTau ? kKaon : kTau;
        ++s.turn;
        for (auto [seat, f] : {std::pair{a, s.fa}, std::pair{d, fd}}) {
            ++s.out.played[seat][f];
            s.used[seat] = static_cast<std::uint8_t>(s.used[seat] | o.bit(f));  // D7
        }
        const Resolution r = resolve<kBook>(s.c, s.fa, fd, o);  // D3, D4, D5
        if (!r.disrupted) {
            int ta, td;  // the attacker's first
            if constexpr (kBook) {
                ta = dice.sum_d6(r.attacker_dice) * r.multiplier;
                td = dice.sum_d6(r.defender_dice) * r.multiplier;
            } else {
                ta = o.roll_dice(dice, r.attacker_dice) * r.multiplier;
                td = o.roll_dice(dice, r.defender_dice) * r.multiplier;
            }
            if (r.deflected) {
                s.hp[a] -= ta;
                s.hp[d] -= td;
            } else {
                s.hp[d] -= ta;
                s.hp[a] -= td;
                s.out.dealt[a] += ta;
                s.out.dealt[d] += td;
            }
        }
        s.c = Calibration{};
        s.fa = kBluff;
        const bool tau_dead = s.hp[kTau] <= 0, kaon_dead = s.hp[kKaon] <= 0;  // D6
        if (tau_dead || kaon_dead)
            s.out.winner = tau_dead && kaon_dead ? -1 : (tau_dead ? kKaon : kTau);
        else if (s.turn >= o.max_turns)  // D6: the turn cap is a draw
            s.out.timeout = true;
        else
            return;
        s.over = true;
        s.out.turns = s.turn;
        s.out.hp[0] = s.hp[0];
        s.out.hp[1] = s.hp[1];
    }
};

// One whole turn (D1-D5; D6 at its end), its six decisions asked of the seats' policies.
template <class TauPolicy, class KaonPolicy, class Dice>
requires PolicyFor<TauPolicy, Dice> && PolicyFor<KaonPolicy, Dice>
void play_turn(State& s, const Options& o, TauPolicy& tau, KaonPolicy& kaon, Dice& dice) {
    do {
        const Game::Choice c = Game::to_move(s, o) == kTau ? Game::decide(s, o, tau, dice)
                                                           : Game::decide(s, o, kaon, dice);
        Game::apply(s, o, c, dice);
    } while (s.step != 0);
}

namespace detail {
// A turn from its first step as straight-line code: Game's six decision points in its order (the
// attacker's then the defender's ray and shield, focus and region, functions; D2a), each policy
// asked what Game::decide asks it, then Game::finish_turn, without Game's step switch and its
// seat lookups per decision. The same calls and dice as play_turn: the runner's hot loop. kBook:
// the options are the book's (Options::book), so the policies' charts (BookView) are constants;
// kBookDice: the turn's dice and multipliers are (Options::book_dice, implied by kBook).
template <bool kBook, bool kBookDice, class A, class D, class Dice>
void straight_turn(State& s, const Options& o, Seat a, A& att, D& def, Dice& dice) {
    const Seat d = a == kTau ? kKaon : kTau;
    using V = std::conditional_t<kBook, BookView, VariantView>;
    const V va{view_of(s, o, a, true)}, vd{view_of(s, o, d, false)};
    s.c.ray = static_cast<Game::Choice>(att.particle(va, dice));
    s.c.shield = static_cast<Game::Choice>(def.particle(vd, dice));
    s.c.focus = static_cast<Game::Choice>(att.region(va, s.c.ray, s.c.shield, dice));
    s.c.region = static_cast<Game::Choice>(def.region(vd, s.c.ray, s.c.shield, dice));
    s.fa = att.function(va, s.c, dice);
    Game::finish_turn<kBookDice>(s, o, def.function(vd, s.c, dice), dice);
}

template <bool kBook, bool kBookDice, class TauPolicy, class KaonPolicy, class Dice>
void straight_turns(State& s, const Options& o, TauPolicy& tau, KaonPolicy& kaon, Dice& dice) {
    while (!s.over) {
        // max_turns allows a million turns, all of them without damage under some variants.
        if (static_cast<unsigned>(s.turn) % kStopCheckPlay == kStopCheckPlay - 1) [[unlikely]]
            throw_if_stop_requested();
        if (attacker(s) == kTau)
            straight_turn<kBook, kBookDice>(s, o, kTau, tau, kaon, dice);
        else
            straight_turn<kBook, kBookDice>(s, o, kKaon, kaon, tau, dice);
    }
}

// play_from with the options' values as constants (kBook; kBookDice: the turn's dice alone) or
// read (a variant's).
template <bool kBook, bool kBookDice, class TauPolicy, class KaonPolicy, class Dice>
void play_from_as(State& s, const Options& o, TauPolicy& tau, KaonPolicy& kaon, Dice& dice) {
    while (!s.over && s.step != 0) {
        const Game::Choice c = Game::to_move(s, o) == kTau ? Game::decide(s, o, tau, dice)
                                                           : Game::decide(s, o, kaon, dice);
        Game::apply_as<kBookDice>(s, o, c, dice);
    }
    straight_turns<kBook, kBookDice>(s, o, tau, kaon, dice);
}

// A variant's duel out of line, so that its code takes nothing from the book's: inlined beside
// it, it made gcc stop inlining the book's Dice::sum_d6 (aggressor/survivor playouts 1.2x
// slower). Not gnu::cold: optimised for size, a variant's playouts took 1.6x longer again.
template <class TauPolicy, class KaonPolicy, class Dice>
[[gnu::noinline]] void variant_play_from(State& s, const Options& o, TauPolicy& tau,
                                         KaonPolicy& kaon, Dice& dice) {
    // A variant of the charts or of D2b alone rolls its dice as the book's turn does.
    if (o.book_dice)
        play_from_as<false, true>(s, o, tau, kaon, dice);
    else
        play_from_as<false, false>(s, o, tau, kaon, dice);
}
}  // namespace detail

// Plays on from `s` (at a decision point) to the end of the duel (D6): a turn begun (a
// position mid-turn) through Game, every whole turn after it straight.
template <class TauPolicy, class KaonPolicy, class Dice>
requires PolicyFor<TauPolicy, Dice> && PolicyFor<KaonPolicy, Dice>
void play_from(State& s, const Options& o, TauPolicy& tau, KaonPolicy& kaon, Dice& dice) {
    // The book's options (the default) read once: its turns with their values as constants.
    if (o.book) [[likely]]
        detail::play_from_as<true, true>(s, o, tau, kaon, dice);
    else
        detail::variant_play_from(s, o, tau, kaon, dice);
}

// A whole duel (D1-D7).
template <class TauPolicy, class KaonPolicy, class Dice>
requires PolicyFor<TauPolicy, Dice> && PolicyFor<KaonPolicy, Dice> Outcome play(const Options& o,
                                                                                TauPolicy& tau,
                                                                                KaonPolicy& kaon,
                                                                                Dice& dice) {
    State s = opening(o);
    play_from(s, o, tau, kaon, dice);
    return s.out;
}

// Positions (RULES.md, "Positions"): a duel before a turn as text. write_position prints `s`
// (at the start of a turn); read_position reads one, refusing hit points outside 1..hp, a turn
// past max_turns, an attacker the turn's parity contradicts, used functions without single_use
// (D1, D6, D7), with one UsageError "FILE:LINE: WHAT (RULE)".
std::string write_position(const State& s, const Options& o);
State read_position(std::string_view text, std::string_view file, const Options& o);

// The metrics of one duel, declared once (engine/metric.hpp): metric_specs and to_metrics read
// these rows.
enum Metric : int {
    kTauWin,
    kKaonWin,
    kDraw,
    kAdvantageFirst,
    kTurns,
    kWinnerHp,
    kTimeouts,
    kDrawishness,
    kTauDealt,
    kKaonDealt,
    kTauPlayed,  // kFunctionCount metrics: tau_bluff ...
    kKaonPlayed = kTauPlayed + kFunctionCount,
    kMetricCount = kKaonPlayed + kFunctionCount
};
template <class M>
constexpr void declare_metrics(M& m) {
    using K = MetricKind;
    const auto turns = [](const Options& o) { return o.max_turns; };
    // The last blow may overshoot by at most one turn's most (3 dice x 6 x 4 in the book).
    const auto dealt = [](const Options& o) { return o.hp + o.max_hit(); };
    m(kTauWin, "tau_win", "Tau won (D6)", K::rate, 0, 1,
      [](const Outcome& r) { return r.winner == kTau; });
    m(kKaonWin, "kaon_win", "Kaon won (D6)", K::rate, 0, 1,
      [](const Outcome& r) { return r.winner == kKaon; });
    m(kDraw, "draw", "both died in one turn, or the turn cap (D6)", K::rate, 0, 1,
      [](const Outcome& r) { return r.winner < 0; });
    m(
        kAdvantageFirst, "advantage_first",
        "Tau's score, 1 a win, 1/2 a draw: P(Tau wins) + P(draw)/2 (Ludii's AdvantageP1)",
        counts("points"), 0, 2,
        [](const Outcome& r) { return r.winner == kTau ? 2 : (r.winner < 0 ? 1 : 0); },
        2);  // halves
    m(kTurns, "turns", "turns played (D1)", counts("turns"), 1, turns,
      [](const Outcome& r) { return r.turns; });
    m(
        kWinnerHp, "winner_hp", "the winner's hit points at the end (0 for a draw)",
        counts("hit points"), 0, [](const Options& o) { return o.hp; },
        [](const Outcome& r) { return r.winner < 0 ? 0 : r.hp[r.winner]; });
    m(kTimeouts, "timeouts", "ended as a draw by max_turns (D6)", K::rate, 0, 1,
      [](const Outcome& r) { return r.timeout; });
    m(kDrawishness, "drawishness", "a draw before max_turns: both died in one turn (D6)", K::rate,
      0, 1, [](const Outcome& r) { return r.winner < 0 && !r.timeout; });
    m(kTauDealt, "tau_dealt", "damage Tau's dice did to Kaon", counts("hit points"), 0, dealt,
      [](const Outcome& r) { return r.dealt[kTau]; });
    m(kKaonDealt, "kaon_dealt", "damage Kaon's dice did to Tau", counts("hit points"), 0, dealt,
      [](const Outcome& r) { return r.dealt[kKaon]; });
    for (int seat = 0; seat < 2; ++seat)
        for (int f = 0; f < kFunctionCount; ++f)
            m((seat == kTau ? kTauPlayed : kKaonPlayed) + f,
              [=] { return std::string(kSeatNames[seat]) + "_" + kFunctionNames[f]; },
              [=] {
                  return std::string("times ") + kSeatNames[seat] + " played " + kFunctionNames[f] +
                         " (D2)";
              },
              counts("turns"), 0, turns, [=](const Outcome& r) { return r.played[seat][f]; });
}
static_assert(metrics_in_order<kMetricCount>([](auto& m) { declare_metrics(m); }));
std::vector<MetricSpec> metric_specs(const Options& o);
SurvivalSpec survival_spec();

inline void to_metrics(const Outcome& r, std::int32_t* out) noexcept {
    MetricValues<Outcome> m{r, out};
    declare_metrics(m);
}
// The metrics of a duel played to its end from `s` (play_from).
inline void to_metrics(const State& s, std::int32_t* out) noexcept { to_metrics(s.out, out); }

}  // namespace odds::dimension_duel
