// odds skill (issue 32; docs/skill.md): the luck share where it is known exactly (a game of pure
// luck, a game without chance, and ladders whose every rung or pairing the exact solvers solve),
// the depth, and the command's bad input.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <iomanip>
#include <random>
#include <sstream>

#include "reports/skill.hpp"
#include "sim/registry.hpp"
#include "tests/helpers.hpp"

namespace fs = std::filesystem;
using namespace odds;

TEST_CASE("luck share: pure luck is 1, no chance is 0", "[skill]") {
    const std::size_t groups = 4, n = 500;
    std::mt19937_64 rng(7);
    std::bernoulli_distribution coin(0.3);
    // Pure luck on common random numbers: game j ends alike whoever plays it.
    std::vector<double> luck(groups * n);
    for (std::size_t j = 0; j < n; ++j) {
        const double v = coin(rng) ? 1.0 : 0.0;
        for (std::size_t g = 0; g < groups; ++g) luck[g * n + j] = v;
    }
    const LuckShare a = luck_share(luck, groups, n);
    CHECK(a.share == 1.0);
    CHECK(a.between == Approx(0).margin(1e-15));
    CHECK(a.ci.low == 1.0);
    // Pure luck with each group's own dice: the same law in every group; the share is 1 up to
    // sampling (Vp's estimate is unbiased, so near 0, and floored at 0).
    std::vector<double> own(groups * n);
    for (auto& v : own) v = coin(rng) ? 1.0 : 0.0;
    const LuckShare b = luck_share(own, groups, n);
    CHECK(b.share > 0.98);
    CHECK(b.ci.high == 1.0);
    // No chance: every game of a group ends alike.
    std::vector<double> fixed(groups * n);
    for (std::size_t g = 0; g < groups; ++g)
        for (std::size_t j = 0; j < n; ++j) fixed[g * n + j] = 0.25 * static_cast<double>(g);
    const LuckShare c = luck_share(fixed, groups, n);
    CHECK(c.share == 0.0);
    CHECK(c.within == 0.0);
    CHECK(c.between == Approx(0.078125));  // (1/4) sum (0.25 g - 0.375)^2, g = 0..3
    CHECK(c.ci.high == 0.0);
    // No variance at all: not known.
    const std::vector<double> flat(groups * n, 1.0);
    CHECK(std::isnan(luck_share(flat, groups, n).share));
}

TEST_CASE("depth: pure luck is 0, no chance tells every step apart", "[skill]") {
    const std::size_t k = 4, n = 300;
    std::mt19937_64 rng(9);
    std::uniform_int_distribution<int> die(1, 6);
    // Solo, pure luck on common random numbers: every rung's game j scores alike, so every
    // paired difference is 0 and no step is told apart.
    std::vector<double> luck(k * n), skill(k * n);
    for (std::size_t j = 0; j < n; ++j) {
        const double v = die(rng);
        for (std::size_t g = 0; g < k; ++g) {
            luck[g * n + j] = v;
            skill[g * n + j] = 2.0 * static_cast<double>(g);  // no chance: the rung decides
        }
    }
    CHECK(depth_of(rate_rungs(luck, k, n)) == 0);
    const auto climb = rate_rungs(skill, k, n);
    CHECK(depth_of(climb) == 3);
    CHECK(climb[3].value == 6.0);
    CHECK_FALSE(climb[0].apart_from_below);  // the weakest has none below it
    // Two seats, pure luck: every pairing scores half its games for each side; equal ratings,
    // overlapping intervals. No chance: the stronger rung always wins; every step told apart.
    std::vector<PairingPoints> even, strict;
    for (std::size_t a = 0; a < k; ++a)
        for (std::size_t b = 0; b < k; ++b) {
            if (a == b) continue;
            even.push_back({a, b, 200.0, 100.0});
            strict.push_back({a, b, 200.0, a > b ? 200.0 : 0.0});
        }
    CHECK(depth_of(rate_pairings(even, k)) == 0);
    const auto ranked = rate_pairings(strict, k);
    CHECK(depth_of(ranked) == 3);
    CHECK(ranked[3].value > ranked[2].value);
}

TEST_CASE("luck share: the estimators are unbiased for a known mixture", "[skill][statistics]") {
    // Two groups, Bernoulli(0.2) and Bernoulli(0.6), independent dice: Vw = (0.16 + 0.24) / 2 =
    // 0.2, Vp = 0.04, share 0.2 / 0.24. The mean over 2000 seeds of each estimate lies within 4
    // standard errors of the truth; 20 games a group, so that an estimate biased by a group's
    // sampling variance (0.01 here, six standard errors) fails.
    const std::size_t n = 20;
    double sw = 0, sw2 = 0, sp = 0, sp2 = 0;
    const int seeds = 2000;
    for (int s = 0; s < seeds; ++s) {
        std::mt19937_64 rng(static_cast<std::uint64_t>(s) + 1000);
        std::bernoulli_distribution lo(0.2), hi(0.6);
        std::vector<double> y(2 * n);
        for (std::size_t j = 0; j < n; ++j) {
            y[j] = lo(rng) ? 1 : 0;
            y[n + j] = hi(rng) ? 1 : 0;
        }
        const LuckShare r = luck_share(y, 2, n, 1, 1);
        sw += r.within, sw2 += r.within * r.within;
        sp += r.between, sp2 += r.between * r.between;
    }
    auto se = [&](double s, double s2) {
        const double m = s / seeds;
        return std::sqrt((s2 / seeds - m * m) / (seeds - 1));
    };
    CHECK(std::abs(sw / seeds - 0.2) < 4 * se(sw, sw2));
    CHECK(std::abs(sp / seeds - 0.04) < 4 * se(sp, sp2));
}

namespace {

// skill.csv's luck share and its interval, from `odds skill ARGS --out DIR`.
struct Measured {
    double share, low, high;
    int depth;
};
Measured run_skill(std::vector<std::string> args) {
    const fs::path dir = fs::temp_directory_path() / ("odds-skill-" + std::to_string(getpid()));
    fs::remove_all(dir);
    args.insert(args.begin(), "skill");
    for (const char* a : {"--no-progress", "--out"}) args.emplace_back(a);
    args.push_back(dir.string());
    const auto r = test::cli(args);
    INFO(r.err);
    REQUIRE(r.code == 0);
    std::ifstream f(dir / "skill.csv");
    std::string header, row;
    std::getline(f, header);
    std::getline(f, row);
    std::vector<std::string> cells;
    std::stringstream ss(row);
    for (std::string c; std::getline(ss, c, ',');) cells.push_back(c);
    fs::remove_all(dir);
    const auto at = [&](std::size_t from_end) { return cells[cells.size() - from_end]; };
    return {std::stod(at(6)), std::stod(at(5)), std::stod(at(4)), std::stoi(at(7))};
}

// The exact luck share of groups whose outcome laws are known: each a list of (value, chance).
double exact_share(const std::vector<std::vector<std::pair<double, double>>>& laws) {
    double within = 0, sum = 0, sum2 = 0;
    for (const auto& law : laws) {
        double m = 0, m2 = 0;
        for (const auto& [v, p] : law) m += v * p, m2 += v * v * p;
        within += m2 - m * m;
        sum += m, sum2 += m * m;
    }
    const auto k = static_cast<double>(laws.size());
    const double between = sum2 / k - (sum / k) * (sum / k);
    return within / k / (within / k + between);
}

double exact_mass(const ExactReport& r, const std::string& metric) {
    for (const auto& law : r.laws)
        if (law.spec.name == metric) return law.mass.size() > 1 ? law.mass[1] : 0.0;
    FAIL("no metric " << metric);
    return 0;
}

}  // namespace

TEST_CASE("odds skill on a solo game: the luck share against the exact solver's",
          "[skill][statistics][cli]") {
    // Race's rungs walk, roll and best are each solved exactly (P(win)): the share of a win's
    // variance within a rung is known, and the ladder's estimate lies within 4 of its bootstrap
    // standard errors.
    std::vector<std::vector<std::pair<double, double>>> laws;
    for (const char* p : {"walk", "roll", "best"}) {
        const double w = exact_mass(find_game("race").exact({}, {p}), "win");
        laws.push_back({{1.0, w}, {0.0, 1 - w}});
    }
    const double truth = exact_share(laws);
    const auto m = run_skill({"race", "--policy", "walk", "--policy", "roll", "--policy", "best",
                              "--budgets", "none", "-n", "4000", "--seed", "3"});
    const double se = (m.high - m.low) / (2 * 1.959964);
    INFO("exact " << truth << ", measured " << m.share << " [" << m.low << ", " << m.high << "]");
    CHECK(std::abs(m.share - truth) < 4 * se);
    CHECK(m.depth == 2);  // walk (never wins) < roll < best, each step far beyond its interval
}

TEST_CASE("odds skill on a two-seat game: the luck share against the exact solver's",
          "[skill][statistics][cli]") {
    // Dimension Duel at hp 10: every ordered pairing of dice, aggressor and survivor solved
    // exactly (Tau's win, Kaon's win, draw): the first seat's score law is known.
    const char* rungs[] = {"dice", "aggressor", "survivor"};
    std::vector<std::vector<std::pair<double, double>>> laws;
    for (const char* a : rungs)
        for (const char* b : rungs) {
            if (std::string(a) == b) continue;
            const auto r =
                find_game("dimension-duel")
                    .exact({{"hp", "10"}}, {std::string("tau=") + a, std::string("kaon=") + b});
            const double win = exact_mass(r, "tau_win"), draw = exact_mass(r, "draw");
            laws.push_back({{1.0, win}, {0.5, draw}, {0.0, 1 - win - draw}});
        }
    const double truth = exact_share(laws);
    const auto m =
        run_skill({"dimension-duel", "--set", "hp=10", "--policy", "dice", "--policy", "aggressor",
                   "--policy", "survivor", "--budgets", "none", "-n", "3000"});
    const double se = (m.high - m.low) / (2 * 1.959964);
    INFO("exact " << truth << ", measured " << m.share << " [" << m.low << ", " << m.high << "]");
    CHECK(std::abs(m.share - truth) < 4 * se);
}

TEST_CASE("odds skill: the same ladder on 1 and 2 threads, and bad input", "[skill][cli]") {
    const std::vector<std::string> ladder = {"skill",    "race", "--policy",     "roll",
                                             "--policy", "best", "--budgets",    "2..8",
                                             "-n",       "300",  "--no-progress"};
    auto with = [&](std::vector<std::string> extra) {
        auto a = ladder;
        a.insert(a.end(), extra.begin(), extra.end());
        return test::cli(a);
    };
    const auto one = with({"--threads", "1"}), two = with({"--threads", "2"});
    REQUIRE(one.code == 0);
    CHECK(one.out == two.out);
    CHECK(one.out.find("mcts:8") != std::string::npos);
    struct Bad {
        std::vector<std::string> args;
        std::string says;
    };
    const Bad bad[] = {
        {{"skill", "race", "--policy", "roll", "--budgets", "none"}, "two rungs"},
        {{"skill", "race", "--policy", "roll", "--budgets", "8..x"}, "8..x"},
        {{"skill", "race", "--policy", "roll", "--search", "walk:{n}"}, "walk"},
        {{"skill", "race", "--policy", "roll", "--search", "beam:{n}"}, "beam:{n}"},
        {{"skill", "race", "--policy", "roll", "--search", "mcts"}, "{n}"},
        {{"skill", "race", "--policy", "roll", "--policy", "roll"}, "twice"},
        {{"skill", "race", "--policy", "roll", "--metric", "colour"}, "colour"},
        {{"skill", "race", "--policy", "roll", "-n", "1"}, "'1'"},
        {{"skill", "dimension-duel", "--policy", "dice", "--policy", "survivor", "--metric",
          "turns"},
         "--metric"},
        {{"skill", "dimension-duel", "--policy", "tau=dice", "--policy", "survivor"}, "tau=dice"},
    };
    for (const auto& b : bad) {
        const auto r = test::cli(b.args);
        INFO(b.args.back() << ": " << r.err);
        CHECK(r.code == 2);
        CHECK(r.err.find(b.says) != std::string::npos);
        CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    }
}

TEST_CASE("docs/skill.md lists every game's own ladder and search as registered", "[skill][docs]") {
    std::ifstream f(fs::path(ODDS_SOURCE_DIR) / "docs" / "skill.md");
    std::stringstream page;
    page << f.rdbuf();
    for (const auto& g : games()) {
        if (g.ladder.empty() || g.name == "race") continue;  // race: the tests' own game
        std::string row = "| `" + std::string(g.name) + "` | ";
        for (std::size_t i = 0; i < g.ladder.size(); ++i)
            row += (i ? ", `" : "`") + std::string(g.ladder[i]) + "`";
        row += " | `" + std::string(g.search) + "` |";
        INFO(row);
        CHECK(page.str().find(row) != std::string::npos);
    }
}
