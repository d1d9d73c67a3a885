// odds shape for every game (reports/shape.hpp, sim/shape_run.hpp, sim/cli/shape.cpp): the
// measures of hand-built sequences where each is known exactly, the fan's quantiles, the same
// figures on 1 and 2 threads, and bad input. The race game's exact figures and the estimator
// against exact values are in engine/race/test_shape.cpp and engine/dimension_duel/.
#include <algorithm>
#include <catch2/catch.hpp>
#include <cmath>
#include <iomanip>
#include <sstream>

#include "reports/shape.hpp"
#include "reports/stats.hpp"
#include "sim/registry.hpp"
#include "sim/shape_run.hpp"
#include "tests/helpers.hpp"

using namespace odds;
using ShapeTally = odds::shape::Tally;

TEST_CASE("shape: Ludii's measures of two-seat sequences known by hand", "[shape]") {
    // T = 4; leaders {both} {0} {1} {1}; seat 1 won (p_T = 0).
    const std::vector<double> a = {0.5, 0.7, 0.4, 0.3, 0.0};
    const auto g = shape::measure_two(a);
    CHECK(g.turns == 4);
    CHECK(g.winner == 1);
    CHECK(g.lead_changes == 2);
    CHECK(g.lead_change == Approx(3.0 / 4));
    CHECK(g.drama == Approx(0.4 / 4));  // only at 0.7: 0.7 - 0.3
    CHECK(g.drama_max == Approx(0.4));
    CHECK(g.threshold == Approx(0.7));     // the loser's best
    CHECK(g.decisiveness == Approx(1.0));  // the winner never above 0.7 before the end
    CHECK(g.behind_at_half == 0);          // p_2 = 0.4: seat 0 behind, and lost
    CHECK_FALSE(g.comeback);
    // Seat 0 behind at half-time (p_2 = 0.2) and won: a comeback.
    const std::vector<double> b = {0.6, 0.3, 0.2, 0.6, 1.0};
    const auto h = shape::measure_two(b);
    CHECK(h.winner == 0);
    CHECK(h.behind_at_half == 0);
    CHECK(h.comeback);
    CHECK(h.threshold == Approx(0.8));     // seat 1's best: 1 - 0.2
    CHECK(h.decisiveness == Approx(1.0));  // 0.6 never above 0.8
    // Over both: one comeback of two games with a side behind, with Wilson's interval.
    ShapeTally t;
    t.add(a);
    t.add(b);
    const Interval ci = wilson(1, 2);
    for (const auto& m : t.measures()) {
        if (m.name == "comeback_rate") CHECK(m.value == 0.5);
        if (m.name == "comeback_low") CHECK(m.value == ci.low);
        if (m.name == "comeback_high") CHECK(m.value == ci.high);
        if (m.name == "lead_changes") CHECK(m.value == Approx((2 + 2) / 2.0));
    }
    // A draw: nobody is a non-winner (threshold -1), decided at once.
    const std::vector<double> d = {0.5, 0.5};
    CHECK(shape::measure_two(d).threshold == -1);
    CHECK(shape::measure_two(d).decisiveness == 0);
}

TEST_CASE("shape: the point of no return of solo sequences known by hand", "[shape]") {
    const std::vector<double> a = {0.5, 0.96, 0.9, 0.97, 1.0};  // known from step 3 on
    CHECK(shape::measure_solo(a).no_return == 3);
    CHECK(shape::measure_solo(a).success);
    const std::vector<double> b = {0.04, 0.03, 0.0};  // a failure known from the start
    CHECK(shape::measure_solo(b).no_return == 0);
    const std::vector<double> c = {0.5, 0.0};  // only the end told
    CHECK(shape::measure_solo(c).no_return == 1);
    const std::vector<double> d = {0.95, 0.05, 0.95, 1.0};  // 0.95 is known (at least)
    CHECK(shape::measure_solo(d).no_return == 2);
    ShapeTally t;
    t.solo = true;
    for (const auto* p : {&a, &b, &c, &d}) t.add(*p);
    const auto m = t.measures();
    const auto value = [&](const std::string& name) {
        for (const auto& x : m)
            if (x.name == name) return x.value;
        FAIL("no measure " << name);
        return 0.0;
    };
    CHECK(value("no_return") == Approx((3 + 0 + 1 + 2) / 4.0));
    CHECK(value("no_return_success") == Approx((3 + 2) / 2.0));
    CHECK(value("no_return_failure") == Approx((0 + 1) / 2.0));
    CHECK(value("decided_at_start") == Approx(0.25));
    CHECK(value("decided_at_end") == Approx(0.25));  // c
    CHECK(value("no_return_median") == 1);           // 0, 1, 2, 3: the second of four
    CHECK(value("success") == Approx(0.5));
}

TEST_CASE("shape: the fan's quantiles, an ended game at its outcome, and merge", "[shape]") {
    ShapeTally whole, first, second;
    whole.solo = first.solo = second.solo = true;
    const std::vector<std::vector<double>> games = {
        {0.2, 0.0}, {0.4, 0.6, 1.0}, {0.6, 0.7, 0.8, 1.0}, {0.8, 0.5, 0.3, 0.0}};
    for (std::size_t i = 0; i < games.size(); ++i) {
        whole.add(games[i]);
        (i < 2 ? first : second).add(games[i]);
    }
    first.merge(second);
    CHECK(shape::fan_csv(first, "g", "s", "p", 1, false) ==
          shape::fan_csv(whole, "g", "s", "p", 1, false));
    CHECK(shape::shape_csv(first, "g", "s", "p", 1) == shape::shape_csv(whole, "g", "s", "p", 1));
    const auto fan = whole.fan();
    REQUIRE(fan.size() == 4);
    // Step 0: 0.2 0.4 0.6 0.8; the 10% quantile is the least holding 0.4 game: 0.2; the median
    // the least holding 2: 0.4; the 90%, 3.6 games: 0.8.
    CHECK(fan[0].running == 4);
    CHECK(fan[0].q[0] == Approx(0.2));
    CHECK(fan[0].q[2] == Approx(0.4));
    CHECK(fan[0].q[4] == Approx(0.8));
    // Step 2: the first game ended lost (0), then 1.0, 0.8, 0.3: median 0.3.
    CHECK(fan[2].running == 3);
    CHECK(fan[2].q[2] == Approx(0.3));
    CHECK(fan[2].q[0] == Approx(0.0));
    // Step 3: 0, 1, 1, 0.
    CHECK(fan[3].running == 2);
    CHECK(fan[3].q[2] == Approx(0.0));
    CHECK(fan[3].q[3] == Approx(1.0));
}

namespace {
std::string files_of(const ShapeReport& r) {
    return shape::shape_csv(r.tally, r.game, r.scenario, r.policy, 3) +
           shape::fan_csv(r.tally, r.game, r.scenario, r.policy, 3, false);
}
}  // namespace

TEST_CASE("shape: the same figures on 1 and 2 threads, exact and estimated",
          "[shape][determinism]") {
    struct Case {
        const char* game;
        Settings settings;
        std::vector<std::string> policies;
        std::uint64_t games;
        bool rollouts;
    };
    for (const auto& c :
         {Case{"race", {}, {"random"}, 300, false}, Case{"race", {}, {"roll"}, 40, true},
          Case{"bosconian", {}, {}, 40, false},
          Case{"naval", {{"ships", "3"}}, {"a=gunner", "b=boarder"}, 4, true},
          Case{"fpb", {}, {"bug-out"}, 6, true}, Case{"dimension-duel", {}, {}, 100, false}}) {
        shape::Config cfg;
        cfg.seed = 3;
        cfg.games = c.games;
        cfg.rollouts = 6;
        cfg.force_rollouts = c.rollouts;
        const auto& g = find_game(c.game);
        shape::Sampler all;  // every game here
        cfg.threads = 1;
        const ShapeReport one = g.shape(c.settings, c.policies, cfg, all);
        cfg.threads = 2;
        const ShapeReport two = g.shape(c.settings, c.policies, cfg, all);
        INFO(c.game);
        CHECK(one.tally.games == c.games);
        CHECK(files_of(one) == files_of(two));
        cfg.seed = 4;  // the check has teeth: another seed, other figures
        CHECK(files_of(g.shape(c.settings, c.policies, cfg, all)) != files_of(one));
    }
}

TEST_CASE("odds shape: the command prints the tally's measures; --out writes the files",
          "[shape][cli]") {
    const auto dir = std::filesystem::temp_directory_path() / "odds_test_shape_out";
    std::filesystem::remove_all(dir);
    const auto r = test::cli({"shape", "dimension-duel", "--set", "hp=20", "--policy",
                              "tau=survivor", "--policy", "kaon=dice", "-n", "3000", "--seed", "4",
                              "--out", dir.string(), "--report"});
    INFO(r.err);
    REQUIRE(r.code == 0);
    shape::Config cfg;
    cfg.seed = 4;
    cfg.games = 3000;
    shape::Sampler all;
    const ShapeReport direct =
        find_game("dimension-duel").shape({{"hp", "20"}}, {"tau=survivor", "kaon=dice"}, cfg, all);
    const auto measures = direct.tally.measures();
    REQUIRE(measures.size() == 13);
    for (const auto& m : measures) {
        std::ostringstream want;
        want << m.name << std::string(18 - m.name.size(), ' ') << std::fixed << std::setprecision(4)
             << m.value;
        INFO(want.str());
        CHECK(r.out.find(want.str()) != std::string::npos);
    }
    for (const char* f : {"shape.csv", "fan.csv", "provenance.csv", "report.html"})
        CHECK(std::filesystem::is_regular_file(dir / f));
    std::ifstream fan(dir / "fan.csv");
    std::stringstream text;
    text << fan.rdbuf();
    CHECK(text.str() ==
          shape::fan_csv(direct.tally, direct.game, direct.scenario, direct.policy, 4, false));
    CHECK(text.str().rfind("game,scenario,policy,seed,games,step,", 0) == 0);
    std::filesystem::remove_all(dir);
}

TEST_CASE("odds shape: bad input is one line, exit 2, nothing written", "[shape][cli]") {
    const auto dir = std::filesystem::temp_directory_path() / "odds_test_shape_bad";
    std::filesystem::remove_all(dir);
    for (const std::vector<std::string>& bad :
         {std::vector<std::string>{"shape", "dimension-duel", "--set", "max_turns=50"},
          {"shape", "dimension-duel", "--policy", "tau=mcts"},
          {"shape", "dimension-duel", "-n", "0"},
          {"shape", "naval", "--rollouts", "0"},
          {"shape", "naval", "--rollouts", "12x"},
          {"shape", "naval", "--rollouts", "100001"},
          {"shape", "naval", "--estimator", "guess"},
          {"shape", "naval", "-n", "1", "--rollouts", "1", "--estimator", "exact"},
          {"shape", "fpb", "-n", "1", "--rollouts", "1", "--estimator", "exact"},
          {"shape", "bosconian", "--estimator", "rollouts"},
          {"shape", "msc", "--policy", "a=nobody"}}) {
        auto args = bad;
        args.insert(args.end(), {"--out", dir.string()});
        const auto b = test::cli(args);
        INFO(bad.back() << ": " << b.err);
        CHECK(b.code == 2);
        CHECK(std::count(b.err.begin(), b.err.end(), '\n') == 1);
        CHECK_FALSE(std::filesystem::exists(dir));
    }
}
