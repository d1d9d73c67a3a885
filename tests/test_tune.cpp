// odds tune on the tiny test game race, whose exact solver gives every setting's true value:
// bisection with exact values finds the exact crossing, successive halving on playouts lands near
// the target, the path goes to tune.csv, and bad input is one line, exit 2.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>

#include "sim/registry.hpp"
#include "tests/helpers.hpp"

using namespace odds;
namespace fs = std::filesystem;
using test::cli;

namespace {

double exact_win(int goal, int max_turns) {
    const auto rep = find_game("race").exact(
        {{"goal", std::to_string(goal)}, {"max_turns", std::to_string(max_turns)}}, {});
    for (const auto& law : rep.laws)
        if (law.spec.name == "win") return summarize(law, true).mean;
    return NAN;
}

// The best row of a complete tune.csv, split into fields (no field of race's is quoted).
std::vector<std::string> best_row(const std::string& csv) {
    std::istringstream in(csv);
    for (std::string line; std::getline(in, line);)
        if (line.size() > 14 && line.substr(line.size() - 14) == ",true,complete") {
            std::vector<std::string> f;
            std::istringstream ls(line);
            for (std::string x; std::getline(ls, x, ',');) f.push_back(x);
            return f;
        }
    return {};
}

}  // namespace

TEST_CASE("tune: bisection with exact values finds the exact crossing", "[cli][tune]") {
    const fs::path out = fs::temp_directory_path() / ("odds-tune-" + std::to_string(::getpid()));
    fs::remove_all(out);
    const auto r = cli({"tune", "race", "--vary", "goal=2..60", "--target", "win=0.5",
                        "--no-progress", "--out", out.string()});
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    // The goal whose exact win is nearest 0.5, by solving every goal.
    int nearest = 2;
    for (int g = 2; g <= 60; ++g)
        if (std::abs(exact_win(g, 8) - 0.5) < std::abs(exact_win(nearest, 8) - 0.5)) nearest = g;
    CHECK(r.out.find("best: goal=" + std::to_string(nearest) + " ") != std::string::npos);
    CHECK(r.out.find("(exact)") != std::string::npos);
    const std::string csv = test::slurp(out / "tune.csv");
    CHECK(csv.rfind(
              "game,scenario,policy,seed,step,phase,round,goal,metric,target,mean,ci_low,ci_high,"
              "playouts,method,best,status\n",
              0) == 0);
    const auto best = best_row(csv);
    REQUIRE(best.size() == 17);
    CHECK(best[7] == std::to_string(nearest));
    CHECK(best[14] == "exact");
    // Bisection: about log2(59) + 2 evaluations, not a scan.
    CHECK(test::occurrences(csv, ",bisection,") <= 9);
    fs::remove_all(out);
}

TEST_CASE("tune: successive halving on playouts, common random numbers", "[cli][tune]") {
    const fs::path out = fs::temp_directory_path() / ("odds-tune2-" + std::to_string(::getpid()));
    fs::remove_all(out);
    const std::vector<std::string> args{
        "tune",     "race",      "--vary", "goal=14..30:2", "--vary",     "max_turns=5..8",
        "--target", "win=0.5",   "-n",     "16k",           "--no-exact", "--no-progress",
        "--out",    out.string()};
    auto a1 = args;
    a1.insert(a1.end(), {"-j", "1"});
    auto a2 = args;
    a2.insert(a2.end(), {"-j", "2"});
    const auto r = cli(a2);
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    CHECK(cli(a1).out == r.out);  // the seed decides, not the threads
    const auto best = best_row(test::slurp(out / "tune.csv"));
    REQUIRE(best.size() == 18);
    CHECK(best[10] == "win=0.5");
    CHECK(best[5] == "halving");
    CHECK(best[15] == "monte_carlo");
    CHECK(best[14] == "16000");  // the last round plays --playouts
    // The grid's nearest setting to 0.5 is within 0.01 of it; the one found, by its exact value,
    // within 0.03 (about 8 standard errors of a 16k-playout rate: halving keeps the better half).
    const double found = exact_win(std::stoi(best[7]), std::stoi(best[8]));
    INFO("found goal=" << best[7] << " max_turns=" << best[8] << " exact win " << found);
    CHECK(std::abs(found - 0.5) < 0.03);
    fs::remove_all(out);
}

TEST_CASE("tune: bad input is one line, exit 2", "[cli][tune]") {
    struct Case {
        std::vector<std::string> args;
        std::string mentions;
    };
    const Case cases[] = {
        {{"--vary", "goal=30..10", "--target", "win=0.5"}, "goal=30..10"},
        {{"--vary", "goal=10..x", "--target", "win=0.5"}, "goal=10..x"},
        {{"--vary", "goal=10,,20", "--target", "win=0.5"}, "goal=10,,20"},
        {{"--vary", "colour=1..3", "--target", "win=0.5"}, "colour"},
        {{"--vary", "goal=1..30", "--target", "win=0.5"}, "goal"},
        {{"--vary", "goal=10..30", "--target", "wins=0.5"}, "wins"},
        {{"--vary", "goal=10..30", "--target", "win=half"}, "half"},
        {{"--vary", "goal=10..30", "--target", "win maybe"}, "win maybe"},
        {{"--vary", "goal=10..30"}, "--target"},
        {{"--target", "win=0.5"}, "--vary"},
        {{"--vary", "goal=10..30", "--vary", "goal=12..14", "--target", "win=0.5"}, "twice"},
        {{"--vary", "goal=10..30", "--target", "win=0.5", "--search", "grid"}, "grid"},
        {{"--vary", "goal=10..30", "--target", "win max", "--search", "bisection"}, "bisection"},
    };
    for (const auto& c : cases) {
        std::vector<std::string> args{"tune", "race", "--no-progress"};
        args.insert(args.end(), c.args.begin(), c.args.end());
        const auto r = cli(args);
        INFO(c.mentions << " -> " << r.err);
        CHECK(r.code == 2);
        CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
        CHECK(r.err.find(c.mentions) != std::string::npos);
        CHECK(r.out.empty());
    }
}

// Issue 29: tune searches a whole-number part of a value, written in braces: the values are the
// text around it with each whole number in LO..HI ("{1..6}d6": 1d6 to 6d6). On a whole-number
// option it is the same search as the plain range on the same grid.
TEST_CASE("tune --vary NAME={LO..HI}: a whole-number part of a value", "[tune][variants]") {
    const auto braces = test::cli(
        {"tune", "bosconian", "--vary", "hull={8..12}0", "--target", "win=0.05", "--no-progress"});
    const auto plain = test::cli({"tune", "bosconian", "--vary", "hull=80..120:10", "--target",
                                  "win=0.05", "--no-progress"});
    INFO(braces.err);
    REQUIRE(braces.code == 0);
    CHECK(braces.out == plain.out);
    CHECK(braces.out.find("best: hull=110 ") != std::string::npos);
    const auto bad =
        test::cli({"tune", "bosconian", "--vary", "hull={8..12", "--target", "win=0.05"});
    CHECK(bad.code == 2);
    CHECK(bad.err.find("a '{' without its '}'") != std::string::npos);
}
