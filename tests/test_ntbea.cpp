// odds tune's NTBEA (sim/ntbea.hpp, docs/commands.md) on the tiny test game race, whose exact
// solver gives every setting's true value, so the best setting of any set of targets is known.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <map>

#include "reports/tune_targets.hpp"
#include "sim/ntbea.hpp"
#include "sim/registry.hpp"
#include "tests/helpers.hpp"

using namespace odds;
namespace fs = std::filesystem;

namespace {

// Race's exact means of `metrics` at goal, max_turns (solved once each).
std::vector<double> exact_means(int goal, int max_turns, const std::vector<std::string>& metrics) {
    static std::map<std::pair<int, int>, std::map<std::string, double>> cache;
    auto& m = cache[{goal, max_turns}];
    if (m.empty()) {
        const auto rep = find_game("race").exact(
            {{"goal", std::to_string(goal)}, {"max_turns", std::to_string(max_turns)}}, {});
        for (const auto& law : rep.laws) m[law.spec.name] = summarize(law, true).mean;
    }
    std::vector<double> out;
    for (const auto& name : metrics) out.push_back(m.at(name));
    return out;
}

struct Problem {
    int goal_lo, goal_hi, turns_lo, turns_hi;
    std::vector<tune::Target> targets;
    double loss(int goal, int turns) const {
        std::vector<std::string> names;
        for (const auto& t : targets) names.push_back(t.metric);
        return tune::combined_distance(targets, exact_means(goal, turns, names));
    }
    std::pair<int, int> best() const {
        std::pair<int, int> b{goal_lo, turns_lo};
        for (int g = goal_lo; g <= goal_hi; ++g)
            for (int t = turns_lo; t <= turns_hi; ++t)
                if (loss(g, t) < loss(b.first, b.second)) b = {g, t};
        return b;
    }
    // One knob at a time from (goal_lo, turns_lo): the best goal for the turns, then the best
    // turns for that goal, and so on until neither moves.
    std::pair<int, int> one_at_a_time() const {
        int g = goal_lo, t = turns_lo;
        for (bool moved = true; moved;) {
            moved = false;
            for (int x = goal_lo; x <= goal_hi; ++x)
                if (loss(x, t) < loss(g, t)) g = x, moved = true;
            for (int y = turns_lo; y <= turns_hi; ++y)
                if (loss(g, y) < loss(g, t)) t = y, moved = true;
        }
        return {g, t};
    }
};

// The best row of a complete tune.csv's first target, split into fields (race's are unquoted).
std::vector<std::string> best_fields(const std::string& csv) {
    std::istringstream in(csv);
    for (std::string line; std::getline(in, line);)
        if (line.find(",true,") != std::string::npos) {
            std::vector<std::string> f;
            std::istringstream ls(line);
            for (std::string x; std::getline(ls, x, ',');) f.push_back(x);
            return f;
        }
    return {};
}

std::vector<std::string> tune_args(const Problem& p, const std::vector<std::string>& more) {
    std::vector<std::string> a{
        "tune",
        "race",
        "--vary",
        "goal=" + std::to_string(p.goal_lo) + ".." + std::to_string(p.goal_hi),
        "--vary",
        "max_turns=" + std::to_string(p.turns_lo) + ".." + std::to_string(p.turns_hi),
        "--no-progress"};
    for (const auto& t : p.targets) a.insert(a.end(), {"--target", t.text});
    a.insert(a.end(), more.begin(), more.end());
    return a;
}

// Race, goal 10..40 x max_turns 3..12 (310 settings), toward win=0.5 and rolls=3: the exact best
// is goal=14 max_turns=4 (combined distance 0.030; the next best 0.181).
Problem two_targets() {
    return {10, 40, 3, 12, {tune::parse_target("win=0.5"), tune::parse_target("rolls=3")}};
}

bool found_best(const std::vector<std::string>& args, const std::string& out) {
    const auto r = test::cli(args);
    if (r.code != 0) return false;
    const auto f = best_fields(test::slurp(fs::path(out) / "tune.csv"));
    return f.size() > 8 && f[7] == "14" && f[8] == "4";
}

fs::path temp_out(const char* name) {
    const fs::path out = fs::temp_directory_path() / (name + std::to_string(::getpid()));
    fs::remove_all(out);
    return out;
}

}  // namespace

TEST_CASE("ntbea: the model and the mutation", "[tune][ntbea]") {
    tune::NTupleModel m({3, 4}, true);
    CHECK(m.tuples() == 3);  // two 1-tuples and the whole setting (no pairs beyond it)
    CHECK(std::isnan(m.mean({0, 0})));
    m.add({0, 1}, 1.0);
    m.add({0, 2}, 0.0);
    CHECK(m.mean({0, 1}) == Approx((0.5 + 1.0 + 1.0) / 3));
    CHECK(m.mean({2, 3}) != m.mean({2, 3}));  // nothing seen: NaN
    // An unseen setting's bound is above every seen one's: it is tried first.
    CHECK(m.ucb({1, 0}, 1.0) > m.ucb({0, 1}, 1.0));
    tune::SearchRng rng(7);
    for (int i = 0; i < 1000; ++i) {
        const auto q = tune::mutate({1, 2}, {3, 4}, rng);
        CHECK((q[0] != 1 || q[1] != 2));
        CHECK(q[0] < 3);
        CHECK(q[1] < 4);
    }
}
TEST_CASE("tune: two knobs that interact: one at a time misses, NTBEA finds the best",
          "[tune][ntbea]") {
    const Problem p = two_targets();
    REQUIRE(p.best() == std::pair{14, 4});
    // One knob at a time from the lowest setting stops at goal=11 max_turns=3: no single knob's
    // move from there helps, though moving both does.
    CHECK(p.one_at_a_time() == std::pair{11, 3});
    CHECK(p.loss(11, 3) > 10 * p.loss(14, 4));
    const fs::path out = temp_out("odds-ntbea-");
    // Exact values (race's solver): 160 trials and a round of one-step deviations (39 more)
    // over 310 settings find it.
    CHECK(found_best(tune_args(p, {"--search", "ntbea", "--budget", "160", "--out", out.string()}),
                     out.string()));
    // Played (no solver): the same trials of 2000 playouts, 3 finalists of 20000, over 10 seeds:
    // the best is found 10 times in 10 (the rate docs/commands.md states; one miss allowed).
    // Without the deviations (200 trials), 8 in 10.
    int found = 0;
    for (int seed = 1; seed <= 10; ++seed)
        found += found_best(tune_args(p, {"--search", "ntbea", "--budget", "160", "--no-exact",
                                          "--seed", std::to_string(seed), "--trial-playouts", "2k",
                                          "-n", "20k", "--out", out.string()}),
                            out.string());
    CHECK(found >= 9);
    fs::remove_all(out);
}

// The measure behind the default (docs/commands.md): on the same budget, successive halving
// (every setting played on common random numbers, -n 57k: 458,855 playouts a run with its one
// finalist's confirmation) and NTBEA (160 trials and 39 one-step deviations of 2000 playouts, 3
// finalists of 20000: 458,000) both find the best 10 times in 10 (NTBEA without the deviations,
// 200 trials: 8 in 10); so halving stays the default wherever it can play every setting (at most
// 4096), NTBEA beyond.
TEST_CASE("tune: NTBEA against successive halving on the same budget", "[tune][ntbea]") {
    const Problem p = two_targets();
    const fs::path out = temp_out("odds-ntbea-halving-");
    int halving = 0, ntbea = 0;
    for (int seed = 1; seed <= 10; ++seed) {
        const std::vector<std::string> common{"--no-exact", "--seed", std::to_string(seed), "--out",
                                              out.string()};
        auto a = common;
        a.insert(a.end(), {"--search", "halving", "-n", "57k", "--finalists", "1"});
        halving += found_best(tune_args(p, a), out.string());
        auto b = common;
        b.insert(b.end(),
                 {"--search", "ntbea", "--budget", "160", "--trial-playouts", "2k", "-n", "20k"});
        ntbea += found_best(tune_args(p, b), out.string());
    }
    INFO("halving " << halving << "/10, NTBEA " << ntbea << "/10");
    CHECK(halving >= ntbea);
    CHECK(halving == 10);
    fs::remove_all(out);
}

TEST_CASE("tune: several targets, the same bytes on 1 and 2 threads, the variant file",
          "[tune][ntbea]") {
    const Problem p = two_targets();
    const fs::path o1 = temp_out("odds-ntbea-j1-"), o2 = temp_out("odds-ntbea-j2-");
    const std::vector<std::string> common{
        "--search", "ntbea", "--no-exact", "--budget", "60", "--trial-playouts", "3k", "-n", "20k"};
    auto a1 = tune_args(p, common), a2 = a1;
    a1.insert(a1.end(), {"-j", "1", "--out", o1.string()});
    a2.insert(a2.end(), {"-j", "2", "--out", o2.string()});
    const auto r1 = test::cli(a1), r2 = test::cli(a2);
    INFO(r2.out << r2.err);
    REQUIRE(r2.code == 0);
    CHECK(r1.out == r2.out);
    const std::string csv = test::slurp(o2 / "tune.csv");
    CHECK(test::slurp(o1 / "tune.csv") == csv);
    // Each evaluation: a row per target and one for the combined distance.
    CHECK(test::occurrences(csv, ",win,win=0.5,") == test::occurrences(csv, ",distance,"));
    CHECK(test::occurrences(csv, ",confirm,") == 3 * 3);
    CHECK(r2.out.find("combined distance") != std::string::npos);
    // The variant file plays the best setting.
    const auto f = best_fields(csv);
    const auto run = test::cli(
        {"run", "race", "--rules", (o2 / "best.toml").string(), "-n", "1k", "--no-progress"});
    INFO(run.err);
    CHECK(run.code == 0);
    CHECK(run.out.find("goal=" + f[7] + " max_turns=" + f[8]) != std::string::npos);
    fs::remove_all(o1);
    fs::remove_all(o2);
}

TEST_CASE("tune: within, max and weights; several targets by halving", "[tune][ntbea]") {
    // goal 18..30, max_turns 7..8: win falls as the goal grows; 'within 0.6..0.7' is met exactly
    // where the exact solver says so, and the verdict says met.
    const auto r =
        test::cli({"tune", "race", "--vary", "goal=18..30", "--vary", "max_turns=7..8", "--target",
                   "win within 0.6..0.7", "--target", "rolls min@0.01", "--no-progress"});
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    CHECK(r.out.find("successive halving") != std::string::npos);
    CHECK(r.out.find("  win within 0.6..0.7") != std::string::npos);
    CHECK(r.out.find(" met\n") != std::string::npos);
    CHECK(r.out.find("rolls min@0.01") != std::string::npos);
}

TEST_CASE("tune: bad input for several targets and NTBEA is one line, exit 2", "[tune][ntbea]") {
    struct Case {
        std::vector<std::string> args;
        std::string mentions;
    };
    const Case cases[] = {
        {{"--vary", "goal=10..30", "--target", "win within 0.7..0.2"}, "LO is above HI"},
        {{"--vary", "goal=10..30", "--target", "win within .."}, "neither"},
        {{"--vary", "goal=10..30", "--target", "win within 0.2"}, "0.2"},
        {{"--vary", "goal=10..30", "--target", "win=0.5@0"}, "'0'"},
        {{"--vary", "goal=10..30", "--target", "win=0.5@much"}, "much"},
        {{"--vary", "goal=10..30", "--target", "win=0.5", "--target", "rols max"}, "rols"},
        {{"--vary", "goal=10", "--target", "win=0.5"}, "goal=10"},
        {{"--vary", "goal=10,10", "--target", "win=0.5"}, "twice"},
        {{"--vary", "goal=10,x", "--target", "win=0.5"}, "'x'"},
        {{"--vary", "goal=10|", "--target", "win=0.5"}, "empty"},
        {{"--vary", "goal=10..30", "--target", "win=0.5", "--budget", "50"}, "--budget"},
        {{"--vary", "goal=10..30", "--target", "win=0.5", "--search", "ntbea", "--budget", "0"},
         "--budget '0'"},
        {{"--vary", "goal=10..30", "--target", "win=0.5", "--search", "ntbea", "--explore", "-1"},
         "--explore '-1'"},
        {{"--vary", "goal=10..30", "--target", "win=0.5", "--search", "ntbea", "--finalists", "0"},
         "--finalists '0'"},
        {{"--vary", "goal=10..30", "--target", "win=0.5", "--search", "ntbea", "--deviations",
          "some"},
         "--deviations 'some'"},
        {{"--vary", "goal=10..30", "--target", "win=0.5", "--shard", "1/2"}, "does not shard"},
        {{"--vary", "goal=10..30", "--vary", "max_turns=1..50", "--vary", "goal=40", "--target",
          "win=0.5", "--search", "bisection"},
         "bisection"},
    };
    for (const auto& c : cases) {
        std::vector<std::string> args{"tune", "race", "--no-progress"};
        args.insert(args.end(), c.args.begin(), c.args.end());
        const auto r = test::cli(args);
        INFO(c.mentions << " -> " << r.err);
        CHECK(r.code == 2);
        CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
        CHECK(r.err.find(c.mentions) != std::string::npos);
        CHECK(r.out.empty());
    }
}

// Each value is valid alone, a combination is not (Bosconian-D: bases at most sectors): the
// search skips it, says so on stderr, and tunes the rest; NTBEA does not move to it again.
TEST_CASE("tune: a combination the game refuses is skipped", "[tune][ntbea]") {
    for (const std::string search : {"halving", "ntbea"}) {
        const fs::path out = temp_out("odds-ntbea-refused-");
        std::vector<std::string> args{
            "tune",       "bosconian", "--vary",   "sectors=12|6|36",     "--vary", "bases=2|9|3",
            "--target",   "win=0.3",   "--target", "sectors_entered max", "-n",     "2k",
            "--no-exact", "--search",  search,     "--no-progress",       "--out",  out.string()};
        if (search == "ntbea")
            args.insert(args.end(), {"--budget", "30", "--trial-playouts", "500"});
        const auto r = test::cli(args);
        INFO(search << ": " << r.err);
        REQUIRE(r.code == 0);
        CHECK(r.err.find("1 setting skipped, the game refusing the combination (the first: "
                         "bosconian: bases='9' is not valid") != std::string::npos);
        const std::string csv = test::slurp(out / "tune.csv");
        CHECK(csv.find(",6,9,") == std::string::npos);
        CHECK(test::occurrences(csv, ",true,complete") == 3);
        fs::remove_all(out);
    }
}
