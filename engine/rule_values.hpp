// The values a designer writes for a rule (docs/variants.md): one small syntax for every game.
//
//   whole number    7
//   dice            NdX, NdX+K, NdX-K, and sums of those: 4d6, 1d6+2, 2d6+1d4, 3d8-1 (X from 2 to
//                   100, at most four terms of at most 100 dice each; a plain number is a constant)
//                   A term may carry one of the common modifiers (Roll20, AnyDice, icepool):
//                     keep      4d6kh3 (k3, dl1 alike), 2d20kl1 (dh1): the K highest or lowest dice
//                     explode   3d6!: a die showing its top face adds another, at most
//                     kExplodeDepth
//                               more a die (AnyDice's explode depth)
//                     count     6d6>=5, 6d6<=2: the number of dice at or over (under) a face
//                     reroll    d6r1, d6r<2, d6r>5: rolled again while on those faces; d6ro1 once
//   face set        the faces of one die that count: 2-5, 1,3,4,6, 6, none
//   step table      "at least T gives V" rows, in rising order: 5:1,7:2,9:3 (below the first: 0)
//
// Each is a fixed-size value, read and checked once per run into a game's Options; a playout
// reads it from plain arrays and never allocates. DiceExpr::roll draws an unbiased die of any size
// (d6 through the dice's own fast path), and law() gives the exact distribution of its total by
// convolution, for exact solvers and `odds dice`.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "engine/dice.hpp"

namespace odds {

inline constexpr int kMaxDieSides = 100;
inline constexpr int kMaxDiceTerms = 4;
inline constexpr int kMaxDiceCount = 100;
inline constexpr int kMaxDiceConstant = 10000;
inline constexpr int kExplodeDepth = 2;  // d6! rolls at most two more dice a die (top: 18)
inline constexpr int kMaxKeepDice = 20;  // NdXkhK: N at most 20 (one roll's faces held at once)

// One fair die of `sides` faces (2..kMaxDieSides): the dice's d6 for six sides, else a fair
// whole number from its raw words (rejection: no face favoured). ScriptedDice replays the faces
// given, each checked against the die.
template <class D>
int roll_die(D& dice, int sides) {
    if (sides == 6) return dice.d6();
    if constexpr (requires { dice.roll(sides); })
        return dice.roll(sides);
    else
        return 1 + static_cast<int>(below(dice, static_cast<std::uint32_t>(sides)));
}

// A sum of dice and a constant: "2d6+1d4-1".
struct DiceExpr {
    struct Term {
        // What the term does with its N dice: plain adds them; the rest as in the header.
        enum Kind : std::uint8_t { plain, keep_high, keep_low, explode, at_least, at_most, reroll };
        std::uint8_t count = 0;  // N of NdX
        std::uint8_t sides = 0;  // X of NdX
        Kind kind = plain;
        std::uint8_t a = 0;  // keep: K; at_least / at_most: the face; reroll: lowest face
        std::uint8_t b = 0;  // reroll: highest face rerolled
        bool once = false;   // reroll: only once (ro)
        constexpr bool operator==(const Term&) const = default;

        constexpr int min() const {
            switch (kind) {
                case keep_high:
                case keep_low:
                    return a;
                case at_least:
                    return a == 1 ? count : 0;  // >=1: every die, always
                case at_most:
                    return a == sides ? count : 0;
                case reroll:
                    return count * (once || a > 1 ? 1 : b + 1);
                default:
                    return count;
            }
        }
        constexpr int max() const {
            switch (kind) {
                case keep_high:
                case keep_low:
                    return a * sides;
                case explode:
                    return count * sides * (kExplodeDepth + 1);
                case at_least:
                case at_most:
                    return count;
                case reroll:
                    return count * (once || b < sides ? sides : a - 1);
                default:
                    return count * sides;
            }
        }
        // One die of the term as rolled (explode: with what it adds; reroll: after rerolling).
        template <class D>
        int die(D& dice) const {
            int f = roll_die(dice, sides);
            if (kind == explode) {
                int total = f;
                for (int more = 0; f == sides && more < kExplodeDepth; ++more)
                    total += f = roll_die(dice, sides);
                return total;
            }
            if (kind == reroll)
                for (int again = 0; f >= a && f <= b && !(once && again == 1); ++again)
                    f = roll_die(dice, sides);
            return f;
        }
        // The term's total: its dice in order.
        template <class D>
        int roll(D& dice) const {
            if (kind == keep_high || kind == keep_low) {
                std::array<std::uint8_t, kMaxKeepDice> f{};
                for (int k = 0; k < count; ++k)
                    f[static_cast<std::size_t>(k)] = static_cast<std::uint8_t>(die(dice));
                int s = 0;  // K passes of "take the best left": K and N are small
                for (int kept = 0; kept < a; ++kept) {
                    int best = -1;
                    for (int k = 0; k < count; ++k) {
                        const int v = f[static_cast<std::size_t>(k)];
                        if (v == 0) continue;
                        if (best < 0 || (kind == keep_high ? v > f[static_cast<std::size_t>(best)]
                                                           : v < f[static_cast<std::size_t>(best)]))
                            best = k;
                    }
                    s += f[static_cast<std::size_t>(best)];
                    f[static_cast<std::size_t>(best)] = 0;
                }
                return s;
            }
            int s = 0;
            for (int k = 0; k < count; ++k) {
                const int f = die(dice);
                s += kind == at_least ? f >= a : kind == at_most ? f <= a : f;
            }
            return s;
        }
    };
    std::array<Term, kMaxDiceTerms> terms{};
    std::uint8_t n = 0;    // terms used
    int constant = 0;      // K
    bool only_d6 = false;  // every term a plain d6: rolled as one sum_d6
    std::uint8_t d6 = 0;   // then, the dice in all

    constexpr bool operator==(const DiceExpr&) const = default;

    // NdX (+K); a constant when count is 0.
    static constexpr DiceExpr of(int count, int sides, int constant = 0) {
        DiceExpr e;
        if (count > 0) {
            e.terms[0] = {static_cast<std::uint8_t>(count), static_cast<std::uint8_t>(sides)};
            e.n = 1;
        }
        e.constant = constant;
        e.finish();
        return e;
    }
    constexpr void finish() {
        int dice = 0;
        bool six = true;
        for (int i = 0; i < n; ++i) {
            six = six && terms[static_cast<std::size_t>(i)].sides == 6 &&
                  terms[static_cast<std::size_t>(i)].kind == Term::plain;
            dice += terms[static_cast<std::size_t>(i)].count;
        }
        only_d6 = six;
        d6 = static_cast<std::uint8_t>(six ? dice : 0);
    }

    // Every term plain NdX: its dice add up, face by face (the kernels' own fast paths read
    // such terms directly; any other declines them).
    constexpr bool plain() const {
        for (int i = 0; i < n; ++i)
            if (terms[static_cast<std::size_t>(i)].kind != Term::plain) return false;
        return true;
    }
    // One plain die and a constant, 1dX+K: each total 1/X.
    constexpr bool one_die() const {
        return n == 1 && terms[0].count == 1 && terms[0].kind == Term::plain;
    }

    constexpr int min() const {
        int s = constant;
        for (int i = 0; i < n; ++i) s += terms[static_cast<std::size_t>(i)].min();
        return s;
    }
    constexpr int max() const {
        int s = constant;
        for (int i = 0; i < n; ++i) s += terms[static_cast<std::size_t>(i)].max();
        return s;
    }

    // The total of one roll: the terms' dice in order, then the constant.
    template <class D>
    int roll(D& dice) const {
        if (only_d6) return dice.sum_d6(d6) + constant;
        int s = constant;
        for (int i = 0; i < n; ++i) {
            const Term& t = terms[static_cast<std::size_t>(i)];
            if (t.kind == Term::plain)
                for (int k = 0; k < t.count; ++k) s += roll_die(dice, t.sides);
            else
                s += t.roll(dice);
        }
        return s;
    }
};

// "2d6+1d4-1", or the message's end saying what is valid.
std::optional<DiceExpr> parse_dice(std::string_view text, std::string* why = nullptr);
// The expression as parse_dice reads it back: terms in the order given, the constant last.
std::string to_string(const DiceExpr& e);
// What a dice value takes, as messages and docs say it.
inline constexpr std::string_view kDiceTakes =
    "dice: NdX, NdX+K or NdX-K, or a sum of those such as 2d6+1d4 (X from 2 to 100), a term "
    "perhaps kept (4d6kh3, 2d20kl1), exploding (3d6!), counted (6d6>=5) or rerolled (d6r1), or a "
    "whole number";
// The exact law of the total: p[i] = P(total = min() + i), i in 0 .. max() - min(), by
// convolution of the terms' laws (a kept term's by its order statistics). A long one looks at
// the stop flag; one of a few milliseconds does not (parsing, after a stop, computes those).
std::vector<double> law(const DiceExpr& e);
// The law of one term's total, from its min().
std::vector<double> law(const DiceExpr::Term& t);

// The faces of one die that count ("2-5", "1,3,4,6", "none").
struct FaceSet {
    std::uint64_t lo = 0, hi = 0;  // bit f-1 of lo for faces 1..64, bit f-65 of hi for 65..100

    constexpr bool operator==(const FaceSet&) const = default;
    static constexpr FaceSet range(int from, int to) {
        FaceSet s;
        for (int f = from; f <= to; ++f) s.add(f);
        return s;
    }
    constexpr void add(int face) {
        if (face <= 64)
            lo |= std::uint64_t{1} << (face - 1);
        else
            hi |= std::uint64_t{1} << (face - 65);
    }
    constexpr bool has(int face) const {
        return face <= 64 ? (lo >> (face - 1)) & 1 : (hi >> (face - 65)) & 1;
    }
    constexpr bool empty() const { return lo == 0 && hi == 0; }
    // The highest face in the set (0 when empty).
    constexpr int top() const {
        for (int f = kMaxDieSides; f >= 1; --f)
            if (has(f)) return f;
        return 0;
    }
    // How many faces of a die of `sides` faces are in the set.
    constexpr int count(int sides) const {
        int c = 0;
        for (int f = 1; f <= sides; ++f) c += has(f);
        return c;
    }
};
// "2-5", "1,3,4,6", "6", "none" for faces of a die of `sides` faces.
std::optional<FaceSet> parse_faces(std::string_view text, int sides, std::string* why = nullptr);
std::string to_string(const FaceSet& s);
std::string faces_takes(int sides);

// Rows "at least T: V" in rising T: a total's value is the V of the last row whose T it reaches,
// else 0 ("5:1,7:2,9:3": 4 -> 0, 5 -> 1, 8 -> 2, 12 -> 3).
inline constexpr int kMaxSteps = 12;
struct StepTable {
    std::array<std::int16_t, kMaxSteps> at_least{}, value{};
    std::uint8_t n = 0;

    constexpr bool operator==(const StepTable&) const = default;
    constexpr int of(int total) const {
        int v = 0;
        for (int i = 0; i < n; ++i)
            if (total >= at_least[static_cast<std::size_t>(i)])
                v = value[static_cast<std::size_t>(i)];
        return v;
    }
};
std::optional<StepTable> parse_steps(std::string_view text, std::string* why = nullptr);
std::string to_string(const StepTable& t);
inline constexpr std::string_view kStepsTakes =
    "a step table T:V,T:V,... (at least T gives V; T rising, whole numbers from -1000 to 1000)";

}  // namespace odds
