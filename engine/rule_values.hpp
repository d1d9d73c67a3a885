// The values a designer writes for a rule (docs/variants.md): one small syntax for every game.
//
//   whole number    7
//   dice            NdX, NdX+K, NdX-K, and sums of those: 4d6, 1d6+2, 2d6+1d4, 3d8-1 (X from 2 to
//                   100, at most four terms of at most 100 dice each; a plain number is a constant)
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
        std::uint8_t count = 0;  // N of NdX
        std::uint8_t sides = 0;  // X of NdX
        constexpr bool operator==(const Term&) const = default;
    };
    std::array<Term, kMaxDiceTerms> terms{};
    std::uint8_t n = 0;    // terms used
    int constant = 0;      // K
    bool only_d6 = false;  // every term a d6: rolled as one sum_d6
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
            six = six && terms[static_cast<std::size_t>(i)].sides == 6;
            dice += terms[static_cast<std::size_t>(i)].count;
        }
        only_d6 = six;
        d6 = static_cast<std::uint8_t>(six ? dice : 0);
    }

    constexpr int min() const {
        int s = constant;
        for (int i = 0; i < n; ++i) s += terms[static_cast<std::size_t>(i)].count;
        return s;
    }
    constexpr int max() const {
        int s = constant;
        for (int i = 0; i < n; ++i)
            s +=
                terms[static_cast<std::size_t>(i)].count * terms[static_cast<std::size_t>(i)].sides;
        return s;
    }
    // The dice rolled in all (faces drawn from the dice).
    constexpr int dice() const {
        int s = 0;
        for (int i = 0; i < n; ++i) s += terms[static_cast<std::size_t>(i)].count;
        return s;
    }

    // The total of one roll: the terms' dice in order, then the constant.
    template <class D>
    int roll(D& dice) const {
        if (only_d6) return dice.sum_d6(d6) + constant;
        int s = constant;
        for (int i = 0; i < n; ++i) {
            const Term t = terms[static_cast<std::size_t>(i)];
            for (int k = 0; k < t.count; ++k) s += roll_die(dice, t.sides);
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
    "dice: NdX, NdX+K or NdX-K, or a sum of those such as 2d6+1d4 (X from 2 to 100), or a whole "
    "number";
// The exact law of the total: p[i] = P(total = min() + i), i in 0 .. max() - min(), by
// convolution of the dice's uniform laws.
std::vector<double> law(const DiceExpr& e);

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
