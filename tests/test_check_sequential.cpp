// odds check --sequential and targets files, through the command, on the tiny test game race:
// the verdicts and exit codes (0 unchanged or met, 1 moved or missed, 3 inconclusive at the cap),
// the records a baseline keeps for it, the reports, and bad targets (one line, exit 2).
#include <unistd.h>

#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>

#include "reports/csv.hpp"
#include "tests/helpers.hpp"

using namespace odds;
namespace fs = std::filesystem;
using test::cli;

namespace {

struct Dir {
    fs::path path = fs::temp_directory_path() / ("odds-seq-" + std::to_string(::getpid()));
    Dir() {
        fs::remove_all(path);
        fs::create_directories(path);
    }
    ~Dir() { fs::remove_all(path); }
    std::string file(const std::string& name, const std::string& text = "") const {
        const auto p = path / name;
        if (!text.empty()) std::ofstream(p) << text;
        return p.string();
    }
};

}  // namespace

TEST_CASE("check --sequential: unchanged, moved, inconclusive at the cap", "[cli][sequential]") {
    const Dir d;
    const std::string base = d.file("race.baseline");
    REQUIRE(cli({"baseline", "race", "-n", "20k", "--no-progress", "--out", base}).code == 0);

    // Room enough to decide (an unchanged game may need more than the default cap, twice the
    // baseline's playouts; a true shift of the tolerance is missed 5% of the time).
    const auto same =
        cli({"check", base, "--sequential", "--max-playouts", "100k", "--no-progress", "-j", "2"});
    INFO(same.out << same.err);
    CHECK(same.code == 0);
    CHECK(test::occurrences(same.out, "unchanged    ") == 3);
    // What is played depends on the seed alone, not the threads.
    CHECK(cli({"check", base, "--sequential", "--max-playouts", "100k", "--no-progress", "-j", "1"})
              .out == same.out);

    const auto moved = cli({"check", base, "--sequential", "--set", "goal=22", "--no-progress"});
    INFO(moved.out);
    CHECK(moved.code == 1);
    CHECK(moved.out.find("MOVED        rolls") != std::string::npos);
    CHECK(moved.out.find("=> the balance MOVED") != std::string::npos);

    const std::string json = d.file("r.json"), junit = d.file("r.xml");
    const auto capped = cli({"check", base, "--sequential", "--max-playouts", "4096",
                             "--no-progress", "--json", json, "--junit", junit});
    INFO(capped.out);
    CHECK(capped.code == 3);
    CHECK(capped.out.find("=> INCONCLUSIVE at the cap (4096 playouts)") != std::string::npos);
    const std::string j = test::slurp(json), x = test::slurp(junit);
    CHECK(j.find("\"exit_code\": 3") != std::string::npos);
    CHECK(j.find("\"mode\": \"sequential\"") != std::string::npos);
    CHECK(j.find("\"verdict\": \"inconclusive\"") != std::string::npos);
    CHECK(j.find("\"sequential\": {\"llr\": ") != std::string::npos);
    CHECK(x.find("<error type=\"inconclusive\"") != std::string::npos);
}

TEST_CASE("baseline --tolerance and --sequential are recorded and used", "[cli][sequential]") {
    const Dir d;
    const std::string base = d.file("race.baseline");
    REQUIRE(cli({"baseline", "race", "-n", "20k", "--no-progress", "--tolerance", "rolls=5",
                 "--sequential", "--out", base})
                .code == 0);
    const std::string text = test::slurp(base);
    CHECK(text.find("\ntolerance rolls 5\n") != std::string::npos);
    CHECK(text.find("\ncheck sequential\n") != std::string::npos);
    // Sequential without --sequential; rolls moves by about 1.5, well under its tolerance of 5.
    const auto r = cli({"check", base, "--set", "goal=22", "--no-progress"});
    INFO(r.out);
    CHECK(r.out.find("sequential check (GSPRT)") != std::string::npos);
    CHECK(r.out.find("unchanged    rolls") != std::string::npos);
    CHECK(r.out.find("tolerance 5 ") != std::string::npos);
    // A tolerance for a metric the file does not record: its line named, exit 2.
    const std::string bad = d.file("bad.baseline", text + "tolerance nosuch 1\n");
    const auto b = cli({"check", bad, "--no-progress"});
    CHECK(b.code == 2);
    CHECK(b.err.find(bad + ":" + std::to_string(std::count(text.begin(), text.end(), '\n') + 1) +
                     ": tolerance for 'nosuch'") != std::string::npos);
}

TEST_CASE("targets: met, missed, and percentiles", "[cli][sequential]") {
    const Dir d;
    // race at goal=20 (the exact solver, tests/../engine/race): win about 0.866, turns 7 or 8.
    const std::string met = d.file("met.targets",
                                   "odds-targets 1\ngame race\nplayouts 100k\n"
                                   "target win within 0.8..0.9\n"
                                   "target turns p95 at most 8\n"
                                   "target rolls at least 3 margin 0.1\n");
    const auto a = cli({"check", met, "--no-progress"});
    INFO(a.out << a.err);
    CHECK(a.code == 0);
    CHECK(test::occurrences(a.out, "met          ") == 3);
    CHECK(a.out.find("=> every target met") != std::string::npos);
    const std::string missed = d.file("missed.targets",
                                      "odds-targets 1\ngame race\nset goal=20\npolicy best\n"
                                      "target win at most 0.5\ntarget turns p50 at least 8\n");
    const auto b = cli({"check", missed, "--no-progress"});
    INFO(b.out);
    CHECK(b.code == 1);
    CHECK(b.out.find("MISSED       win at most 0.5") != std::string::npos);
    CHECK(b.out.find("met          turns p50 at least 8") != std::string::npos);
}

TEST_CASE("bad targets and sequential options: one line, exit 2", "[cli][sequential]") {
    const Dir d;
    struct Case {
        std::string body;  // after the header and game
        std::string mentions;
    };
    const Case cases[] = {
        {"target win at lest 0.5\n", "at lest"},
        {"target win within 0.9..0.1\n", "A is above B"},
        {"target win within 0.1-0.9\n", "0.1-0.9"},
        {"target wins at least 0.5\n", "wins"},
        {"target win at least half\n", "half"},
        {"target win at least 0.5 margin -1\n", "-1"},
        {"target turns p101 at most 8\n", "p101"},
        {"target win at least 0.5 please\n", "please"},
        {"metric win rate 0.5 0.4 0.6 0:1 1:1\ntarget win at least 0.5\n", "metric"},
        {"set goal=0\ntarget win at least 0.5\n", "goal"},
    };
    for (const auto& c : cases) {
        const std::string f = d.file("t.targets", "odds-targets 1\ngame race\n" + c.body);
        const auto r = cli({"check", f, "--no-progress"});
        INFO(c.body << " -> " << r.err);
        CHECK(r.code == 2);
        CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
        CHECK(r.err.find(c.mentions) != std::string::npos);
        CHECK(r.out.empty());
    }
    const std::string ok =
        d.file("ok.targets", "odds-targets 1\ngame race\ntarget win at least 0.5\n");
    for (const auto& args : std::vector<std::vector<std::string>>{{"--false-alarm", "0"},
                                                                  {"--false-alarm", "0.7"},
                                                                  {"--miss", "x"},
                                                                  {"--max-playouts", "0"}}) {
        std::vector<std::string> a{"check", ok, "--no-progress"};
        a.insert(a.end(), args.begin(), args.end());
        const auto r = cli(a);
        INFO(args[0] << ' ' << args[1] << " -> " << r.err);
        CHECK(r.code == 2);
        CHECK(r.err.find(args[1]) != std::string::npos);
    }
}

TEST_CASE("targets in every file check writes: met / missed, the statistic named, the bound drawn",
          "[cli][sequential][report]") {
    const Dir d;
    // race at goal=20, policy best: win about 0.87 (a target at most 0.5 is missed), turns p95 8.
    const std::string file = d.file("t.targets",
                                    "odds-targets 1\ngame race\nset goal=20\npolicy best\n"
                                    "target win at most 0.5\ntarget turns p95 at most 9\n");
    const std::string out = (d.path / "out").string(), json = d.file("r.json"),
                      junit = d.file("r.xml");
    const auto r = cli({"check", file, "--no-progress", "--out", out, "--report", "--json", json,
                        "--junit", junit});
    INFO(r.out << r.err);
    REQUIRE(r.code == 1);
    const auto t = parse_csv(test::slurp(fs::path(out) / "check.csv"));
    REQUIRE(t.rows.size() == 2);
    for (std::size_t i = 0; i < 2; ++i) {
        CHECK(t.at(i, "mode") == "targets");  // not "statistical"
        CHECK(t.at(i, "shift").empty());      // no baseline: no shift
        CHECK(t.at(i, "tolerance").empty());
        CHECK(t.at(i, "margin") == "0.01");
        CHECK(t.at(i, "old_mean").empty());
    }
    CHECK(t.at(0, "verdict") == "missed");  // not "moved"
    CHECK(t.at(0, "statistic") == "mean");
    CHECK(t.at(0, "value") == t.at(0, "new_mean"));
    CHECK(t.at(0, "target_low").empty());
    CHECK(t.at(0, "target_high") == "0.5");
    CHECK(t.at(1, "verdict") == "met");  // not "unchanged"
    CHECK(t.at(1, "kind") == "count");   // turns is a count, though its test is on a share
    CHECK(t.at(1, "statistic") == "p95");
    // The p95 itself, as the terminal says it, not the mean.
    const auto at = r.out.find("now p95 ");
    REQUIRE(at != std::string::npos);
    CHECK(t.at(1, "value") == r.out.substr(at + 8, r.out.find(' ', at + 8) - at - 8));
    CHECK(t.at(1, "value") != t.at(1, "new_mean"));
    CHECK(t.at(1, "target_high") == "9");

    const std::string j = test::slurp(json);
    CHECK(j.find("\"verdict\": \"missed\"") != std::string::npos);
    CHECK(j.find("\"verdict\": \"met\"") != std::string::npos);
    CHECK(j.find("\"moved\"") == std::string::npos);
    CHECK(j.find("\"unchanged\"") == std::string::npos);
    CHECK(j.find("\"mode\": \"targets\"") != std::string::npos);
    CHECK(j.find("\"shift\": null") != std::string::npos);
    CHECK(j.find("\"shift\": 0") == std::string::npos);
    CHECK(j.find("\"target\": {\"statistic\": \"p95\", \"value\": ") != std::string::npos);
    const std::string x = test::slurp(junit);
    CHECK(x.find("<failure type=\"missed\"") != std::string::npos);
    CHECK(x.find("moved") == std::string::npos);

    const std::string page = test::slurp(fs::path(out) / "report.html");
    CHECK(page.find("a target is MISSED") != std::string::npos);
    CHECK(page.find("the balance MOVED") == std::string::npos);
    CHECK(page.find("statistical") == std::string::npos);
    CHECK(page.find("targets checked sequentially") != std::string::npos);
    CHECK(page.find(">baseline</text>") == std::string::npos);           // no empty baseline row
    CHECK(test::occurrences(page, "(met inside)</title></rect>") == 2);  // each bound drawn
    CHECK(page.find("the target: at most 0.5") != std::string::npos);
    CHECK(page.find("the target: p95 at most 9") != std::string::npos);
    CHECK(page.find("turns, its p95") != std::string::npos);
}

TEST_CASE("a sequential check's files name its mode", "[cli][sequential][report]") {
    const Dir d;
    const std::string base = d.file("race.baseline");
    REQUIRE(cli({"baseline", "race", "-n", "20k", "--no-progress", "--out", base}).code == 0);
    const std::string out = (d.path / "out").string();
    const auto r = cli({"check", base, "--sequential", "--set", "goal=22", "--no-progress", "--out",
                        out, "--report"});
    REQUIRE(r.code == 1);
    const auto t = parse_csv(test::slurp(fs::path(out) / "check.csv"));
    REQUIRE(!t.rows.empty());
    CHECK(t.at(0, "mode") == "sequential");
    CHECK(t.at(0, "verdict") == "moved");
    CHECK(t.at(0, "statistic") == "mean");
    const std::string page = test::slurp(fs::path(out) / "report.html");
    CHECK(page.find("sequential check") != std::string::npos);
    CHECK(page.find("statistical") == std::string::npos);
    CHECK(page.find("baseline ± tolerance") != std::string::npos);  // the shift tested for
}
