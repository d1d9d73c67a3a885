// Search, restrictions and shape on a game script (engine/script.hpp): rollout and mcts play any
// script's choices by replaying the step to the choice and simulating on, each seat for itself;
// a script's `restrict` bars choices for every policy (odds restrict); odds shape follows a
// script's odds step by step by rollouts.
#include <catch2/catch.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "engine/script.hpp"
#include "engine/stop.hpp"
#include "helpers.hpp"
#include "reports/csv.hpp"

using namespace odds;
namespace fs = std::filesystem;

namespace {

fs::path write_script(const std::string& name, const std::string& text) {
    const fs::path p = test::temp_path("script-search", name + ".lua");
    std::ofstream(p) << text;
    return p;
}

// One step: a die is rolled, then the player keeps its face or turns it over (7 - face); the
// score is the face kept. Keeping the higher is right: 4, 5 or 6 every game. The choice comes
// after the roll, so a search must replay the roll to value it.
std::string keep_or_flip(const std::string& goal) {
    return "return {\n"
           "  name = 'flip', goal = '" +
           goal +
           "',\n"
           "  metrics = {{name = 'score', lo = 1, hi = 6, unit = 'pips', help = 'the face "
           "kept'}},\n"
           "  opening = function(o) return {score = 0} end,\n"
           "  over = function(s, o) return s.score > 0 end,\n"
           "  step = function(s, o, roll, choose)\n"
           "    local face = roll(6)\n"
           "    if choose({'keep', 'flip'}) == 'keep' then s.score = face else s.score = 7 - face "
           "end\n"
           "  end,\n"
           "  result = function(s, o) return {score = s.score} end,\n"
           "}\n";
}

// Each game's score under the policy `seat` (seeds 1..n).
std::vector<int> scores(const std::string& goal, script::Seat seat, int n = 200) {
    script::Machine m(script::load(write_script("flip" + goal, keep_or_flip(goal)).string()));
    const std::vector<script::Seat> seats{seat};
    std::vector<int> out;
    for (int i = 1; i <= n; ++i) {
        Dice dice(static_cast<std::uint64_t>(i));
        std::int32_t v[kMaxMetrics];
        m.play({}, dice, seats, v);
        out.push_back(v[0]);
    }
    return out;
}

constexpr int kRandom = 0, kRollout = 1, kMcts = 2;  // the built-in policies, in order

}  // namespace

TEST_CASE("script search: a choice after a roll is valued on that roll, for the declared goal",
          "[script][search]") {
    const auto lowest = [](const std::vector<int>& v) {
        return *std::min_element(v.begin(), v.end());
    };
    const auto highest = [](const std::vector<int>& v) {
        return *std::max_element(v.begin(), v.end());
    };
    // Random keeps the wrong face about half the time: the check below can fail.
    CHECK(lowest(scores("score", {kRandom})) < 4);
    // One simulation a choice suffices: after the replayed roll nothing is left to chance.
    CHECK(lowest(scores("score", {kRollout, 1})) >= 4);
    CHECK(lowest(scores("score", {kMcts, 50, 1.41})) >= 4);
    // goal = "-score": the same search minimises.
    CHECK(highest(scores("-score", {kRollout, 1})) <= 3);
    CHECK(highest(scores("-score", {kMcts, 50, 1.41})) <= 3);
}

TEST_CASE("script search: each seat searches for its own win", "[script][search]") {
    // a then b choose to give or take: a taker wins against a giver, else a draw. Taking is
    // right for either seat, whatever the other does.
    const std::string text =
        "return {\n"
        "  name = 'take', seats = {'a', 'b'},\n"
        "  metrics = {{name = 'a_win', kind = 'rate', help = 'a won'},\n"
        "             {name = 'b_win', kind = 'rate', help = 'b won'},\n"
        "             {name = 'draw', kind = 'rate', help = 'neither'}},\n"
        "  opening = function(o) return {x = '', y = ''} end,\n"
        "  over = function(s, o) return s.y ~= '' end,\n"
        "  step = function(s, o, roll, choose)\n"
        "    roll(6)\n"
        "    s.x = choose('a', {'give', 'take'})\n"
        "    roll(6)\n"
        "    s.y = choose('b', {'give', 'take'})\n"
        "  end,\n"
        "  result = function(s, o)\n"
        "    local a = s.x == 'take' and s.y == 'give'\n"
        "    local b = s.y == 'take' and s.x == 'give'\n"
        "    return {a_win = a, b_win = b, draw = not a and not b}\n"
        "  end,\n"
        "}\n";
    script::Machine m(script::load(write_script("take", text).string()));
    script::Values values;
    script::Machine* playing = &m;
    const auto wins = [&](script::Seat a, script::Seat b) {
        const std::vector<script::Seat> seats{a, b};
        std::array<int, 3> total{};
        for (int i = 1; i <= 200; ++i) {
            Dice dice(static_cast<std::uint64_t>(i));
            std::int32_t v[kMaxMetrics];
            playing->play(values, dice, seats, v);
            for (int k = 0; k < 3; ++k) total[static_cast<std::size_t>(k)] += v[k];
        }
        return total;
    };
    const script::Seat random{kRandom};
    // Random against random: each seat wins about a quarter of the games.
    CHECK(wins(random, random)[1] > 0);
    CHECK(wins(random, random)[0] > 0);
    for (const script::Seat search : {script::Seat{kRollout, 4}, script::Seat{kMcts, 40, 1.41}}) {
        CHECK(wins(search, random)[1] == 0);  // a always takes: b never wins
        CHECK(wins(search, random)[0] > 50);
        CHECK(wins(random, search)[0] == 0);  // b always takes, for b (not for a)
        CHECK(wins(random, search)[1] > 50);
    }
    // restrict.a=take (the script's restrict, one list a seat): a may only give, under search
    // too, so it never wins.
    std::string barred = text;
    barred.insert(barred.find("  metrics"), "  restrict = {a = {'take'}, b = {'take'}},\n");
    auto d = script::load(write_script("take-barred", barred).string());
    script::Machine restricted(d);
    values = script::parse_values(*d, {{"restrict.a", "take"}});
    CHECK(script::scenario(*d, values) == "restrict.a=take");
    playing = &restricted;
    CHECK(wins(script::Seat{kRollout, 4}, random)[0] == 0);
    CHECK(wins(script::Seat{kRollout, 4}, random)[1] > 50);
}

TEST_CASE("script search: through the CLI, the same bytes on any thread count",
          "[script][search]") {
    const fs::path a = test::temp_path("script-search", "risk-1"),
                   b = test::temp_path("script-search", "risk-2");
    fs::remove_all(a), fs::remove_all(b);
    for (const char* policy : {"rollout:4", "mcts:30:0.5"}) {
        INFO(policy);
        REQUIRE(test::cli({"run", "risk", "--policy", policy, "-n", "400", "-j", "1", "--out",
                           a.string()})
                    .code == 0);
        REQUIRE(test::cli({"run", "risk", "--policy", policy, "-n", "400", "-j", "2", "--out",
                           b.string()})
                    .code == 0);
        for (const char* f : {"summary.csv", "distributions.csv", "provenance.csv"})
            CHECK(test::slurp(a / f) == test::slurp(b / f));
        fs::remove_all(a), fs::remove_all(b);
    }
    // A bad parameter is the policy parser's one line; odds exact refuses a search.
    auto r = test::cli({"run", "risk", "--policy", "rollout:0", "-n", "10"});
    CHECK(r.code == 2);
    CHECK(r.err.find("N must be a whole number from 1 to 100000") != std::string::npos);
    // odds skill: the script's ladder, weakest first, under mcts.
    r = test::cli({"skill", "risk", "-n", "40", "--budgets", "8..16", "--no-progress"});
    REQUIRE(r.code == 0);
    CHECK(r.out.find("ladder: random, cautious, press, mcts:8, mcts:16") != std::string::npos);
    r = test::cli({"exact", "risk", "--policy", "mcts"});
    CHECK(r.code == 2);
    CHECK(r.err.find("mcts searches on sampled dice") != std::string::npos);
}

TEST_CASE("script search: Ctrl-C stops a search within a second", "[script][search][stop]") {
    script::Machine m(script::load(write_script("flip-stop", keep_or_flip("score")).string()));
    Dice dice(1);
    std::int32_t out[kMaxMetrics];
    const std::vector<script::Seat> seats{script::Seat{kRollout, 100'000}};
    CHECK(test::stops_within_a_second([&] {
        for (int i = 0; i < 1000; ++i) m.play({}, dice, seats, out);
    }));
}

TEST_CASE("script restrict: a barred choice is barred for every policy", "[script][restrict]") {
    // Cautious stops, press never does: with stop barred the two play alike, exactly.
    const auto conquered = [](std::vector<std::string> args) {
        args.insert(args.begin(), {"exact", "risk"});
        const auto r = test::cli(args);
        REQUIRE(r.code == 0);
        const auto at = r.out.find("\nconquered");
        REQUIRE(at != std::string::npos);
        return r.out.substr(at, r.out.find('\n', at + 1) - at);
    };
    const std::string press = conquered({"--policy", "press"});
    CHECK(conquered({"--policy", "cautious"}) != press);
    CHECK(conquered({"--policy", "cautious", "--set", "restrict=stop"}) == press);
    CHECK(conquered({"--policy", "random", "--set", "restrict=stop"}) == press);
    // odds restrict on a script: the restriction's cost is the difference of the exact values.
    auto r = test::cli({"restrict", "risk", "--exact", "--play", "cautious", "--no-progress"});
    REQUIRE(r.code == 0);
    CHECK(r.out.find("stop         0.479935    -0.479935") != std::string::npos);
    // A restriction that leaves no choice is one line naming it.
    const fs::path p = write_script(
        "flip-barred", keep_or_flip("score").replace(keep_or_flip("score").find("  metrics"), 0,
                                                     "  restrict = {'keep', 'flip'},\n"));
    r = test::cli({"run", p.string(), "--set", "restrict=keep,flip", "-n", "10"});
    CHECK(r.code == 2);
    CHECK(r.err.find("restrict=keep,flip bars every choice here") != std::string::npos);
    r = test::cli({"run", p.string(), "--set", "restrict=stay", "-n", "10"});
    CHECK(r.code == 2);
    CHECK(r.err.find("takes none, or comma-separated: keep, flip") != std::string::npos);
    // A restrict of the wrong shape is refused, not ignored.
    const fs::path keyed = write_script(
        "flip-keyed", keep_or_flip("score").replace(keep_or_flip("score").find("  metrics"), 0,
                                                    "  restrict = {a = {'keep'}},\n"));
    r = test::cli({"run", keyed.string(), "-n", "10"});
    CHECK(r.code == 2);
    CHECK(r.err.find("`restrict` of a solo game is a list") != std::string::npos);
}

TEST_CASE("script shape: a script's odds step by step, the same on any thread count",
          "[script][shape]") {
    const fs::path a = test::temp_path("script-search", "shape-1"),
                   b = test::temp_path("script-search", "shape-2");
    fs::remove_all(a), fs::remove_all(b);
    REQUIRE(test::cli({"shape", "risk", "-n", "60", "--rollouts", "16", "-j", "1", "--out",
                       a.string(), "--no-progress"})
                .code == 0);
    REQUIRE(test::cli({"shape", "risk", "-n", "60", "--rollouts", "16", "-j", "2", "--out",
                       b.string(), "--no-progress"})
                .code == 0);
    for (const char* f : {"shape.csv", "fan.csv"}) CHECK(test::slurp(a / f) == test::slurp(b / f));
    // The mean p at the start: each game's first p is 16 rollouts of press from the opening,
    // whose exact value the solver gives: within 4 standard errors of it.
    const auto shape = parse_csv(test::slurp(a / "shape.csv"));
    double p_start = -1;
    for (std::size_t row = 0; row < shape.rows.size(); ++row)
        if (shape.at(row, "measure") == "p_start") p_start = std::stod(shape.at(row, "value"));
    CHECK(std::abs(p_start - 0.479935) < 4 * std::sqrt(0.25 / (60 * 16)));
    fs::remove_all(a), fs::remove_all(b);
    // A solo goal that is not a rate is scaled to 0..1 by its range, whatever the policy: under
    // random the kept face is a fair die, (3.5 - 1) / 5 = 0.5 at the start.
    const fs::path flip = write_script("flip-shape", keep_or_flip("score"));
    REQUIRE(test::cli({"shape", flip.string(), "--policy", "random", "-n", "50", "--rollouts", "16",
                       "--out", a.string(), "--no-progress"})
                .code == 0);
    const auto scaled = parse_csv(test::slurp(a / "shape.csv"));
    for (std::size_t row = 0; row < scaled.rows.size(); ++row)
        if (scaled.at(row, "measure") == "p_start")
            CHECK(std::abs(std::stod(scaled.at(row, "value")) - 0.5) <
                  4 * std::sqrt(35.0 / 12 / 25 / (50 * 16)));
    fs::remove_all(a);
}
