// Full Plastic Bodybag statistics and invariants: the first turn of `bug-out` against an exact
// enumeration; invariants on every phase of thousands of random games; rollout against random
// with a paired interval.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/dice.hpp"
#include "engine/fpb/fpb.hpp"
#include "engine/fpb/policies.hpp"
#include "engine/fpb/test_choices.hpp"
#include "sim/cli/cli.hpp"
#include "tests/exact.hpp"

using namespace odds;
using namespace odds::fpb;

TEST_CASE("bug-out's first turn matches an exact enumeration", "[fpb][statistics]") {
    // Turn 1 under bug-out: no order; each of the six men in cover rolls his reaction: a double
    // is Heroics (one area toward Ice-cube: into area 2), a failure opens covering fire, a
    // success stays. The sniper shoots the men in area 2: 6 with covering fire, else 5-6. The
    // Lt calls the bug-out: 2d6 <= 8 withdraws him and every fit man in area 3.
    // Z = 10 * withdrawn + men hit this turn.
    const int men[6] = {kTex, kBuster, kReflex, kSnowball, kLegs, kEdsel};
    test::Dist exact(100, 0.0);
    const double p_lt = 26.0 / 36;
    for (int code = 0; code < 729; ++code) {  // each man: 0 heroics, 1 failure, 2 success
        double p = 1;
        int heroes = 0, stay = 0;
        bool cover = false;
        for (int k = 0, c = code; k < 6; ++k, c /= 3) {
            const int g = kBookOptions.guts[static_cast<std::size_t>(men[k])];
            int succ = 0, fail = 0;
            for (int a = 1; a <= 6; ++a)
                for (int b = 1; b <= 6; ++b)
                    if (a != b) (a + b <= g ? succ : fail) += 1;
            const int cat = c % 3;
            p *= (cat == 0 ? 6 : cat == 1 ? fail : succ) / 36.0;
            heroes += cat == 0;
            stay += cat != 0;
            cover = cover || cat == 1;
        }
        const double hit = cover ? 1.0 / 6 : 2.0 / 6;
        for (int h = 0; h <= heroes; ++h) {
            double ph = 1;  // binomial(heroes, hit) at h
            for (int i = 0; i < h; ++i) ph *= static_cast<double>(heroes - i) / (i + 1) * hit;
            ph *= std::pow(1 - hit, heroes - h);
            exact[static_cast<std::size_t>(10 * (1 + stay) + h)] += p * ph * p_lt;
            exact[h] += p * ph * (1 - p_lt);
        }
    }
    CHECK(test::total(exact) == Approx(1).margin(1e-12));
    Dice dice(314);
    Options o;
    std::vector<std::uint64_t> counts(100, 0);
    for (int i = 0; i < 400'000; ++i) {
        State s;
        BugOut p;
        play_turn(s, o, p, dice);
        const Outcome r = outcome_of(s);
        int hit = 0;
        for (const auto& x : s.m) hit += x.hit_turn == 1;
        ++counts[10 * r.withdrawn + hit];
    }
    test::require_matches(counts, exact);
}

TEST_CASE("invariants hold after every phase of random games", "[fpb][invariants]") {
    Options o;
    Dice dice(2718);
    Random policy;
    auto places = [](const State& s) {
        for (const auto& x : s.m) {
            if (x.on_board()) REQUIRE((x.area >= 1 && x.area <= 3));  // on the board: one area
            REQUIRE((x.status == kFit || x.status == kWounded || x.status == kDead ||
                     x.status == kOut));
            REQUIRE_FALSE((x.carrying && x.firing));  // nobody both carrying and firing
            if (!x.fit()) REQUIRE_FALSE(x.firing);    // only the fit fire
        }
    };
    int games = 0, turns = 0, decisions = 0;
    std::vector<Game::Choice> legal(Game::kMaxChoices);
    for (; games < 5000; ++games) {
        State s;
        play_turn(s, o, policy, dice);  // the first turn as play_turn plays it
        ++turns;
        if (!s.over) Game::begin(s);
        // Then decision by decision: each of random's choices is one legal lists (by what it
        // does), and the invariants hold at every decision point.
        while (!s.over) {
            places(s);
            const auto c = Game::decide(s, o, policy, dice);
            const int n = Game::legal(s, o, legal.data());
            REQUIRE(n >= 1);
            REQUIRE(n <= Game::kMaxChoices);
            const std::string e = choices::effect(s, c);
            bool listed = false;
            for (int k = 0; k < n && !listed; ++k) listed = choices::effect(s, legal[k]) == e;
            INFO("phase " << int(s.phase) << ": " << e);
            REQUIRE(listed);
            const bool bug_out = s.phase == State::kBugOut;
            if (s.phase == State::kCarry) ++turns;
            Game::apply(s, o, c, dice);
            ++decisions;
            places(s);
            if (bug_out || s.phase == State::kLeader)
                for (int area = 1; area <= 3; ++area) {  // at most two wounded an area
                    int w = 0;
                    for (const auto& x : s.m) w += x.wounded() && x.area == area;
                    REQUIRE(w <= 2);
                }
        }
        const Outcome r = outcome_of(s);
        REQUIRE(r.withdrawn + r.left_behind + r.killed == kSquad);  // every man counted once
        REQUIRE(r.turns <= o.max_turns);
    }
    CHECK(turns > games);
    CHECK(decisions > 2 * games);
}

TEST_CASE("rollout beats random on marines withdrawn, paired CI above zero", "[fpb][rollout]") {
    const auto dir =
        std::filesystem::temp_directory_path() / ("odds-fpb-compare-" + std::to_string(::getpid()));
    std::vector<std::string> args = {
        "odds", "compare", "fpb",    "--policy", "rollout:8", "--policy",   "random",
        "-n",   "600",     "--seed", "11",       "--out",     dir.string(), "--no-progress"};
    std::vector<const char*> argv;
    for (const auto& a : args) argv.push_back(a.c_str());
    std::ostringstream out, err;
    REQUIRE(odds_main(static_cast<int>(argv.size()), argv.data(), out, err) == 0);
    std::ifstream in(dir / "compare.csv");
    std::string line;
    bool found = false;
    while (std::getline(in, line)) {
        if (line.find(",withdrawn,rollout:8,random,") == std::string::npos) continue;
        found = true;
        // ...,mean_a,mean_b,diff,ci_low,ci_high,p_value,status
        std::vector<std::string> cells;
        std::stringstream ss(line);
        for (std::string c; std::getline(ss, c, ',');) cells.push_back(c);
        const double ci_low = std::stod(cells[10]);
        INFO(line);
        CHECK(ci_low > 0);
    }
    CHECK(found);
    std::filesystem::remove_all(dir);
}
