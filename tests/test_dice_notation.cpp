// The common dice notations (engine/rule_values.hpp, docs/variants.md): keep highest or lowest,
// exploding dice with a cap, counted successes and rerolls, each read, written back, rolled in
// the order the notation says and solved exactly. The laws are held to an enumeration that
// knows nothing of law(): every sequence of faces the roll itself asks for, each weighed by its
// chance, the roll's own total summed.
#include <catch2/catch.hpp>

#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "engine/dice.hpp"
#include "engine/rule_values.hpp"
#include "tests/helpers.hpp"

using namespace odds;

namespace {

// Faces given in advance; asked for one more, it says so with the die's size.
struct Branch {
    int sides;
};
struct PrefixDice {
    const std::vector<int>& faces;
    std::size_t used = 0;
    int roll(int sides) {
        if (used == faces.size()) throw Branch{sides};
        return faces[used++];
    }
    int d6() { return roll(6); }
    int sum_d6(int n) {
        int s = 0;
        for (int i = 0; i < n; ++i) s += d6();
        return s;
    }
};

// Every sequence of faces the roll can draw, depth first: a total's chance is the sum over the
// sequences that give it. Rerolling until a face is kept has no last sequence: branches below
// 1e-13 are left out, their mass counted in `lost`, which bounds the difference at any total.
void enumerate(const DiceExpr& e, std::vector<int>& faces, double p, std::map<int, double>& out,
               double& lost) {
    PrefixDice dice{faces};
    try {
        const int total = e.roll(dice);
        REQUIRE(dice.used == faces.size());  // no face drawn and left unread
        out[total] += p;
    } catch (const Branch& b) {
        if (p / b.sides < 1e-13) {
            lost += p;
            return;
        }
        for (int f = 1; f <= b.sides; ++f) {
            faces.push_back(f);
            enumerate(e, faces, p / b.sides, out, lost);
            faces.pop_back();
        }
    }
}

}  // namespace

TEST_CASE("dice notations read, and are written back in one spelling", "[values][dice]") {
    for (const auto& [text, written, lo, hi] :
         std::vector<std::tuple<std::string, std::string, int, int>>{
             {"4d6kh3", "4d6kh3", 3, 18},
             {"4d6k3", "4d6kh3", 3, 18},
             {"4d6dl1", "4d6kh3", 3, 18},
             {"2d20kl1", "2d20kl1", 1, 20},
             {"2d20dh1", "2d20kl1", 1, 20},
             {"d6!", "1d6!", 1, 18},  // at most two more dice: 6 + 6 + 6
             {"3d6!+2", "3d6!+2", 5, 56},
             {"6d6>=5", "6d6>=5", 0, 6},
             {"10d10<=3", "10d10<=3", 0, 10},
             {"3d6>=1", "3d6>=1", 3, 3},  // every die counts: a constant (ties rerolled know)
             {"2d4<=4+1", "2d4<=4+1", 3, 3},
             {"d6r1", "1d6r1", 2, 6},
             {"2d6r<2", "2d6r<2", 6, 12},
             {"d6r>5", "1d6r>5", 1, 4},
             {"d6ro1", "1d6ro1", 1, 6},
             {"4d6kh3+1d4!+2d6>=6-1", "4d6kh3+1d4!+2d6>=6-1", 3, 31},
         }) {
        INFO(text);
        std::string why;
        const auto e = parse_dice(text, &why);
        INFO(why);
        REQUIRE(e);
        CHECK(to_string(*e) == written);
        CHECK(e->min() == lo);
        CHECK(e->max() == hi);
        CHECK(parse_dice(written) == e);
        CHECK_FALSE(e->only_d6);  // no kernel's fast path of plain d6 takes it
        CHECK_FALSE(e->plain());
    }
}

TEST_CASE("bad dice notations say what is valid", "[values][dice]") {
    for (const auto& [text, says] : std::vector<std::pair<std::string, std::string>>{
             {"4d6kh5", "4d6kh takes a number from 1 to 4"},
             {"4d6kh0", "from 1 to 4"},
             {"4d6dl4", "4d6dl takes a number from 1 to 3"},
             {"21d6kh3", "at most 20 dice"},
             {"4d6kh3kl1", "one modifier a term"},
             {"3d6!!", "one modifier a term"},
             {"d6>=7", "1d6>= takes a number from 1 to 6"},
             {"d6r<6", "reroll every face forever"},
             {"d6r", "1d6r takes a number"},
             {"d6rx", "1d6r takes a number"},
         }) {
        INFO(text);
        std::string why;
        CHECK_FALSE(parse_dice(text, &why));
        INFO(why);
        CHECK(why.find(says) != std::string::npos);
    }
}

TEST_CASE("4d6kh3 has mean 15869/1296, by enumerating all 1296 rolls", "[values][dice][exact]") {
    long sum = 0;
    for (int r = 0; r < 1296; ++r) {
        int f[4] = {r % 6 + 1, r / 6 % 6 + 1, r / 36 % 6 + 1, r / 216 + 1};
        std::sort(f, f + 4);
        sum += f[1] + f[2] + f[3];
    }
    REQUIRE(sum == 15869);
    const DiceExpr e = *parse_dice("4d6kh3");
    const auto p = law(e);
    double mean = 0;
    for (std::size_t i = 0; i < p.size(); ++i) mean += p[i] * (e.min() + static_cast<double>(i));
    CHECK(mean == Approx(15869.0 / 1296).epsilon(1e-13));
}

TEST_CASE("each notation's law is the enumeration of the faces its roll draws",
          "[values][dice][exact]") {
    for (const char* text : {"4d6kh3", "3d6kl2", "2d20kl1", "5d4kh2+1", "1d6!", "2d4!", "3d3!+1d6",
                             "6d6>=5", "5d8<=3", "3d6>=1", "2d4<=4", "2d6r1", "1d6r<2", "1d8r>7",
                             "3d6ro1", "2d4ro<2", "1d6!+1d6r1+2d6>=4-3"}) {
        INFO(text);
        const DiceExpr e = *parse_dice(text);
        std::map<int, double> want;
        std::vector<int> faces;
        double lost = 0;
        enumerate(e, faces, 1.0, want, lost);
        CHECK(lost < 1e-7);
        const auto p = law(e);
        REQUIRE(p.size() == static_cast<std::size_t>(e.max() - e.min() + 1));
        double total = 0;
        for (std::size_t i = 0; i < p.size(); ++i) {
            const int t = e.min() + static_cast<int>(i);
            INFO("total " << t);
            CHECK(p[i] == Approx(want[t]).margin(lost + 1e-12));
            total += p[i];
        }
        for (const auto& [t, q] : want) CHECK((t >= e.min() && t <= e.max()));
        CHECK(total == Approx(1.0).epsilon(1e-12));
    }
}

TEST_CASE("each notation rolls its dice in the order it says", "[values][dice]") {
    const auto roll = [](const char* text, std::vector<int> faces) {
        ScriptedDice dice(faces);
        const int total = parse_dice(text)->roll(dice);
        CHECK(dice.remaining() == 0);  // every face given was read, no more
        return total;
    };
    CHECK(roll("4d6kh3", {1, 5, 2, 6}) == 13);
    CHECK(roll("4d6kl3", {1, 5, 2, 6}) == 8);
    CHECK(roll("3d6!", {6, 6, 6, 2, 3}) == 18 + 2 + 3);  // the first die stops at its cap
    CHECK(roll("2d6!", {6, 1, 4}) == 7 + 4);             // an explosion follows its own die
    CHECK(roll("6d6>=5", {5, 6, 1, 4, 5, 2}) == 3);
    CHECK(roll("6d6<=2", {5, 6, 1, 4, 5, 2}) == 2);
    CHECK(roll("2d6r1", {1, 1, 3, 1, 6}) == 9);    // until a face that stays
    CHECK(roll("2d6ro1", {1, 1, 1, 5}) == 1 + 5);  // once: a 1 rerolled may come again
    CHECK(roll("1d6ro1", {1, 1}) == 1);
    CHECK(roll("1d6r>5+1d4", {6, 5, 2, 3}) == 5);
}

TEST_CASE("each notation rolls fairly from the kernels' dice: totals within 4 standard errors",
          "[values][dice]") {
    for (const char* text : {"4d6kh3", "2d20kl1", "2d6!", "6d6>=5", "1d6r1", "2d10ro<3"}) {
        INFO(text);
        const DiceExpr e = *parse_dice(text);
        const auto p = law(e);
        Dice dice(73);
        const int n = 200000;
        std::vector<int> seen(p.size(), 0);
        for (int i = 0; i < n; ++i) ++seen[static_cast<std::size_t>(e.roll(dice) - e.min())];
        for (std::size_t i = 0; i < p.size(); ++i) {
            const double se = std::sqrt(n * p[i] * (1 - p[i]));
            CHECK(std::abs(seen[i] - n * p[i]) <= 4 * se + 1e-9);
        }
    }
}
