// The values a designer writes (engine/rule_values.hpp, docs/variants.md): dice expressions,
// face sets and step tables, read, written back, rolled and solved.
#include <catch2/catch.hpp>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "engine/dice.hpp"
#include "engine/rule_values.hpp"
#include "tests/helpers.hpp"

using namespace odds;

TEST_CASE("dice expressions read, and are written back as they read", "[values][dice]") {
    for (const auto& [text, written, lo, hi] :
         std::vector<std::tuple<std::string, std::string, int, int>>{
             {"4d6", "4d6", 4, 24},
             {"3d6", "3d6", 3, 18},
             {"1d6+2", "1d6+2", 3, 8},
             {"d8", "1d8", 1, 8},
             {"2d6+1d4", "2d6+1d4", 3, 16},
             {"3d8-1", "3d8-1", 2, 23},
             {"2d6 + 1", "2d6+1", 3, 13},
             {"7", "7", 7, 7},
             {"0", "0", 0, 0},
             {"1d100", "1d100", 1, 100},
             {"1d2+1d3+1d4+1d5", "1d2+1d3+1d4+1d5", 4, 14},
         }) {
        INFO(text);
        std::string why;
        const auto e = parse_dice(text, &why);
        INFO(why);
        REQUIRE(e);
        CHECK(to_string(*e) == written);
        CHECK(e->min() == lo);
        CHECK(e->max() == hi);
        CHECK(parse_dice(written) == e);  // round trip
    }
    CHECK(parse_dice("4d6")->only_d6);
    CHECK(parse_dice("4d6")->d6 == 4);
    CHECK_FALSE(parse_dice("2d6+1d4")->only_d6);
}

TEST_CASE("bad dice expressions say what is valid", "[values][dice]") {
    for (const auto& [text, says] : std::vector<std::pair<std::string, std::string>>{
             {"", "NdX"},
             {"x", "NdX"},
             {"2D6", "NdX"},
             {"4d1", "2 to 100 faces"},
             {"1d101", "2 to 100 faces"},
             {"0d6", "1 to 100 dice"},
             {"101d6", "1 to 100 dice"},
             {"3d6-1d4", "added, not taken away"},
             {"1d2+1d2+1d2+1d2+1d2", "at most 4 terms"},
             {"2d6+", "NdX"},
             {"20000", "constant"},
         }) {
        INFO(text);
        std::string why;
        CHECK_FALSE(parse_dice(text, &why));
        CHECK(why.find(says) != std::string::npos);
    }
}

TEST_CASE("a dice expression's law is its enumeration's", "[values][dice][exact]") {
    for (const char* text : {"3d6", "4d6", "2d6+1d4-1", "1d8+1d3", "2d10"}) {
        INFO(text);
        const DiceExpr e = *parse_dice(text);
        // Every face of every die, counted.
        std::map<int, double> count;
        std::vector<int> sides;
        for (int i = 0; i < e.n; ++i)
            for (int k = 0; k < e.terms[static_cast<std::size_t>(i)].count; ++k)
                sides.push_back(e.terms[static_cast<std::size_t>(i)].sides);
        std::vector<int> face(sides.size(), 1);
        double ways = 0;
        for (;;) {
            int total = e.constant;
            for (int f : face) total += f;
            count[total] += 1;
            ways += 1;
            std::size_t j = 0;
            while (j < face.size() && face[j] == sides[j]) face[j++] = 1;
            if (j == face.size()) break;
            ++face[j];
        }
        const auto p = law(e);
        REQUIRE(p.size() == static_cast<std::size_t>(e.max() - e.min() + 1));
        for (std::size_t i = 0; i < p.size(); ++i)
            CHECK(p[i] == Approx(count[e.min() + static_cast<int>(i)] / ways).epsilon(1e-12));
    }
}

TEST_CASE("a die of any size is fair: every face within 4 standard errors", "[values][dice]") {
    for (int sides : {2, 3, 6, 8, 10, 20, 100}) {
        INFO("d" << sides);
        Dice dice(29);
        const int n = 200000;
        std::vector<int> seen(static_cast<std::size_t>(sides) + 1, 0);
        for (int i = 0; i < n; ++i) {
            const int f = roll_die(dice, sides);
            REQUIRE(f >= 1);
            REQUIRE(f <= sides);
            ++seen[static_cast<std::size_t>(f)];
        }
        const double p = 1.0 / sides, se = std::sqrt(n * p * (1 - p));
        for (int f = 1; f <= sides; ++f)
            CHECK(std::abs(seen[static_cast<std::size_t>(f)] - n * p) < 4 * se);
    }
}

TEST_CASE("a dice expression rolls its terms' dice in order, then adds the constant",
          "[values][dice]") {
    ScriptedDice dice{5, 1, 7, 3, 6};
    CHECK(parse_dice("2d6+1d8-1")->roll(dice) == 5 + 1 + 7 - 1);
    CHECK(dice.used() == 3);
    ScriptedDice d6{6, 6, 6, 1};
    CHECK(parse_dice("3d6")->roll(d6) == 18);  // the sum_d6 fast path
    CHECK(d6.remaining() == 1);
    ScriptedDice bad{7};
    CHECK_THROWS(parse_dice("1d6")->roll(bad));  // a 7 is no face of a d6
}

TEST_CASE("face sets read ranges, lists and none, and write back their shortest form",
          "[values][faces]") {
    for (const auto& [text, written, count] :
         std::vector<std::tuple<std::string, std::string, int>>{
             {"2-5", "2-5", 4},
             {"1,3,4,6", "1,3,4,6", 4},
             {"5-6", "5,6", 2},
             {"6", "6", 1},
             {"none", "none", 0},
             {"1-6", "1-6", 6},
             {"1,2,3", "1-3", 3},
         }) {
        INFO(text);
        const auto s = parse_faces(text, 6);
        REQUIRE(s);
        CHECK(to_string(*s) == written);
        CHECK(s->count(6) == count);
        CHECK(parse_faces(written, 6) == s);
    }
    CHECK(parse_faces("4-6", 6)->has(5));
    CHECK_FALSE(parse_faces("4-6", 6)->has(3));
    CHECK(parse_faces("70-80", 100)->has(75));
    for (const char* bad : {"", "0", "7", "3-1", "2,2", "a", "2-", "1,,2"}) {
        INFO(bad);
        CHECK_FALSE(parse_faces(bad, 6));
    }
}

TEST_CASE("step tables give the value of the last step a total reaches", "[values][steps]") {
    const auto t = parse_steps("5:1,7:2,9:3");
    REQUIRE(t);
    CHECK(to_string(*t) == "5:1,7:2,9:3");
    CHECK(t->of(4) == 0);
    CHECK(t->of(5) == 1);
    CHECK(t->of(8) == 2);
    CHECK(t->of(12) == 3);
    for (const char* bad : {"", "5", "5:1,5:2", "7:1,5:2", "5:x", "5:1;7:2"}) {
        INFO(bad);
        CHECK_FALSE(parse_steps(bad));
    }
}

TEST_CASE("odds dice: each expression's exact law, and which of two rolls higher",
          "[values][dice][cli]") {
    const auto dir = test::temp_path("dice", "out");
    std::filesystem::remove_all(dir);
    const auto r = test::cli({"dice", "3d6", "4d6", "--out", dir.string()});
    INFO(r.err);
    REQUIRE(r.code == 0);
    CHECK(r.out.find("3d6: totals 3..18, mean 10.5000, standard deviation 2.9580") !=
          std::string::npos);
    // P(3d6 > 4d6), P(equal), by enumerating all 6^7 rolls
    long more = 0, tie = 0, all = 0;
    for (int a = 0; a < 216; ++a)
        for (int b = 0; b < 1296; ++b) {
            const int x = a % 6 + a / 6 % 6 + a / 36 + 3;
            const int y = b % 6 + b / 6 % 6 + b / 36 % 6 + b / 216 + 4;
            more += x > y;
            tie += x == y;
            ++all;
        }
    char line[160];
    std::snprintf(line, sizeof line, "P(3d6 > 4d6) = %.6f, P(equal) = %.6f",
                  static_cast<double>(more) / static_cast<double>(all),
                  static_cast<double>(tie) / static_cast<double>(all));
    CHECK(r.out.find(line) != std::string::npos);
    const std::string csv = test::slurp(dir / "dice.csv");
    CHECK(csv.rfind("expression,total,probability,at_least,at_most,mean,stddev\n", 0) == 0);
    CHECK(csv.find("\n3d6,10,0.125,0.625,0.5,10.5,") != std::string::npos);  // 27/216
    CHECK(csv.find("\n4d6,24,") != std::string::npos);
    const auto bad = test::cli({"dice", "3d6", "2D6"});
    CHECK(bad.code == 2);
    CHECK(bad.err ==
          "odds dice: '2D6' is not a dice expression; " + std::string(kDiceTakes) + "\n");
}
