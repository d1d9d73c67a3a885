// The CLI's contract for bad input: one line on stderr naming the bad value and what is valid,
// exit code 2, and nothing written. And --help everywhere.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <sstream>

#include "engine/rule_options.hpp"
#include "sim/cli/cli.hpp"
#include "tests/helpers.hpp"

using namespace odds;
namespace fs = std::filesystem;

namespace {

using Result = test::CliResult;
using test::cli;

std::size_t lines(const std::string& s) {
    return static_cast<std::size_t>(std::count(s.begin(), s.end(), '\n'));
}

}  // namespace

TEST_CASE("bad input: one line naming the value, exit 2, nothing written", "[cli]") {
    const fs::path out = fs::temp_directory_path() / ("odds-cli-" + std::to_string(::getpid()));
    fs::remove_all(out);
    struct Case {
        std::vector<std::string> args;
        std::string mentions;  // the bad value, as the message must name it
    };
    const Case cases[] = {
        {{"run", "nosuchgame"}, "nosuchgame"},
        {{"run", "bosconian", "--set", "colour=red"}, "colour"},
        {{"run", "bosconian", "--set", "hull=abc"}, "abc"},
        {{"run", "bosconian", "--set", "hull=0"}, "hull='0'"},
        {{"run", "bosconian", "--set", "hull"}, "hull"},
        {{"run", "bosconian", "--set", "layout=4,40"}, "40"},
        {{"run", "bosconian", "--set", "layout=4,9,4"}, "repeated"},
        {{"run", "bosconian", "--set", "bases=7d6"}, "7d6"},
        {{"run", "bosconian", "--set", "start_sector=99"}, "99"},
        {{"run", "bosconian", "--policy", "cheat"}, "cheat"},
        {{"run", "bosconian", "--playouts", "1.5"}, "1.5"},
        {{"run", "bosconian", "--playouts", "0"}, "'0'"},
        {{"run", "bosconian", "--playouts", "lots"}, "lots"},
        {{"run", "bosconian", "--playouts", "2e12"}, "2e12"},
        {{"run", "bosconian", "--threads", "0"}, "'0'"},
        {{"run", "bosconian", "--seed", "-1"}, "-1"},
        {{"run", "bosconian", "--frobnicate"}, "frobnicate"},
        {{"run"}, "bosconian"},
        {{"fly"}, "fly"},
        {{"list", "nosuchgame"}, "nosuchgame"},
        {{"exact", "nosuchgame"}, "nosuchgame"},
        {{"exact", "bosconian", "--set", "hull=-3"}, "-3"},
        {{"exact", "bosconian", "--set", "layout=0"}, "layout='0'"},
        {{"exact"}, "bosconian"},
        {{"run", "dimension-duel", "--policy", "tau=nosuch"}, "nosuch"},
        {{"run", "dimension-duel", "--policy", "moon=dice"}, "moon"},
        {{"run", "dimension-duel", "--policy", "dice", "--policy", "kaon=survivor"}, "dice"},
        {{"run", "dimension-duel", "--policy", "tau=dice", "--policy", "tau=survivor"}, "tau"},
        {{"run", "dimension-duel", "--policy", "best-response"}, "best-response"},
        {{"run", "dimension-duel", "--set", "hp=0"}, "hp='0'"},
        {{"run", "dimension-duel", "--set", "single_use=perhaps"}, "perhaps"},
        {{"exact", "dimension-duel", "--set", "single_use=true"}, "single_use=true"},
        {{"run", "naval", "--set", "width=3"}, "width='3'"},
        {{"run", "naval", "--set", "height=5"}, "height='5'"},
        {{"run", "naval", "--set", "islands=500"}, "500"},
        {{"run", "naval", "--set", "ships=8"}, "ships='8'"},
        {{"run", "naval", "--policy", "a=pirate"}, "pirate"},
        {{"run", "naval", "--policy", "rollout:0"}, "rollout:0"},
        {{"run", "naval", "--policy", "gunner:4"}, "gunner:4"},
        {{"run", "naval", "--policy", "b=rollout:4:x"}, "rollout:4:x"},
        {{"exact", "naval"}, "naval"},
    };
    for (const auto& c : cases) {
        auto args = c.args;
        if (args.size() >= 2 && (args[0] == "run" || args[0] == "exact"))
            args.insert(args.end(), {"--out", out.string()});
        const Result r = cli(args);
        INFO("odds " <<
             [&] {
                 std::string s;
                 for (auto& a : args) s += a + ' ';
                 return s;
             }()
                     << "\nstderr: " << r.err);
        CHECK(r.code == 2);
        CHECK(lines(r.err) == 1);
        CHECK(r.err.find(c.mentions) != std::string::npos);
        CHECK(r.out.empty());
        CHECK_FALSE(fs::exists(out));
    }
}

TEST_CASE("an unwritable --out is bad input too", "[cli]") {
    const fs::path file =
        fs::temp_directory_path() / ("odds-cli-file-" + std::to_string(::getpid()));
    {
        std::FILE* f = std::fopen(file.c_str(), "w");
        std::fclose(f);
    }
    for (const std::string& dir :
         {file.string(), file.string() + "/sub", std::string("/proc/odds")}) {
        const Result r = cli({"run", "bosconian", "-n", "1000", "--out", dir});
        INFO(r.err);
        CHECK(r.code == 2);
        CHECK(lines(r.err) == 1);
        CHECK(r.err.find(dir) != std::string::npos);
    }
    fs::remove(file);
}

TEST_CASE("baseline --out: an unwritable file is bad input, a missing folder is made", "[cli]") {
    const fs::path file =
        fs::temp_directory_path() / ("odds-cli-bfile-" + std::to_string(::getpid()));
    {
        std::FILE* f = std::fopen(file.c_str(), "w");
        std::fclose(f);
    }
    const fs::path dir =
        fs::temp_directory_path() / ("odds-cli-bdir-" + std::to_string(::getpid()));
    fs::remove_all(dir);
    // /proc takes no new files; a file's folder that is a file; a directory as the file.
    for (const std::string& out :
         {std::string("/proc/b.baseline"), std::string("/proc/odds/b.baseline"),
          file.string() + "/b.baseline", fs::temp_directory_path().string()}) {
        const Result r = cli({"baseline", "bosconian", "-n", "1000", "--out", out});
        INFO(r.err);
        CHECK(r.code == 2);
        CHECK(lines(r.err) == 1);
        CHECK(r.err.find("'" + out + "'") != std::string::npos);
        CHECK(r.out.empty());
    }
    const fs::path nested = dir / "new" / "folder" / "b.baseline";
    const Result made = cli({"baseline", "bosconian", "-n", "1000", "--out", nested.string()});
    INFO(made.err);
    CHECK(made.code == 0);
    CHECK(fs::is_regular_file(nested));
    CHECK(std::distance(fs::directory_iterator(nested.parent_path()), fs::directory_iterator{}) ==
          1);
    CHECK(cli({"check", nested.string()}).code == 0);
    fs::remove_all(dir);
    fs::remove(file);
}

TEST_CASE("without a progress bar, every command that has one says what is queued as it starts",
          "[cli]") {
    const fs::path file =
        fs::temp_directory_path() / ("odds-cli-queued-" + std::to_string(::getpid()) + ".baseline");
    struct Case {
        std::vector<std::string> args;
        std::string line;  // the whole of stderr
    };
    const Case cases[] = {
        {{"run", "bosconian", "-n", "2k", "-j", "2"},
         "odds run: 2000 playouts of bosconian queued on 2 threads\n"},
        {{"baseline", "bosconian", "-n", "2k", "-j", "1", "--out", file.string()},
         "odds baseline: 2000 playouts of bosconian queued on 1 thread\n"},
        {{"check", file.string(), file.string(), "-j", "2"},
         "odds check: 2 baselines, 4000 playouts queued on 2 threads\n"},
        {{"sweep", "bosconian", "--vary", "hull=90:110:10", "-n", "1000", "-j", "2"},
         "odds sweep: 3 combinations x 1000 playouts = 3000 playouts queued on 2 threads\n"},
        {{"compare", "dimension-duel", "--policy", "tau=dice", "--policy", "tau=survivor",
          "--fixed", "kaon=dice", "-n", "1000", "-j", "2"},
         "odds compare: 2 policies x 1000 playouts = 2000 playouts queued on 2 threads\n"},
        {{"tournament", "dimension-duel", "--policy", "dice", "--policy", "survivor", "--policy",
          "aggressor", "-n", "500", "-j", "2"},
         "odds tournament: 6 pairings x 500 games = 3000 games queued on 2 threads\n"},
        {{"tune", "race", "--vary", "goal=10..20", "--target", "win=0.5", "--no-exact", "-n",
          "1000", "-j", "2"},
         "odds tune: bisection over 11 settings, up to 1000 playouts each queued on 2 threads\n"},
    };
    for (const auto& c : cases) {
        auto args = c.args;
        args.push_back("--no-progress");
        const Result r = cli(args);
        INFO(args[0]);
        CHECK(r.code == 0);
        CHECK(r.err == c.line);
    }
    fs::remove(file);
}

TEST_CASE("values are case-sensitive everywhere: a case variant is refused, naming the valid form",
          "[cli]") {
    struct Case {
        std::vector<std::string> args;
        std::string mentions;  // the bad value
        std::string valid;     // what the message offers instead
    };
    const Case cases[] = {
        {{"run", "msc", "--set", "escort_b=e3s2t3w1"},
         "e3s2t3w1",
         "E<engine>S<shields>T<to-hit>W<weapons>"},
        {{"run", "msc", "--set", "design_a=E3s4T4W2"},
         "E3s4T4W2",
         "E<engine>S<shields>T<to-hit>W<weapons>"},
        {{"run", "msc", "--set", "escort_a=Doctrine"}, "Doctrine", "doctrine"},
        {{"run", "msc", "--set", "initiative=A"}, "'A'", "roll, a or b"},
        {{"run", "msc", "--policy", "a=Balanced/strike"}, "Balanced", "balanced"},
        {{"run", "bosconian", "--set", "start_encounter=TRUE"}, "TRUE", "true or false"},
        {{"run", "bosconian", "--set", "layout=Random"}, "Random", "random"},
        {{"run", "bosconian", "--set", "bases=2D6"}, "2D6", "2d6"},
        {{"run", "bosconian", "--policy", "Rules"}, "Rules", "rules"},
        {{"run", "dimension-duel", "--set", "changers=Shared"}, "Shared", "shared or separate"},
        {{"run", "dimension-duel", "--policy", "tau=Dice"}, "Dice", "dice"},
        {{"run", "dimension-duel", "--policy", "Tau=dice"}, "Tau", "tau"},
        {{"run", "Bosconian"}, "Bosconian", "bosconian"},
        {{"run", "bosconian", "-n", "1K"}, "1K", "suffixes k, M, G"},
        {{"run", "bosconian", "-n", "1m"}, "1m", "suffixes k, M, G"},
        {{"run", "bosconian", "-n", "1E6"}, "1E6", "1e6"},
        {{"run", "bosconian", "-n", "1B"}, "1B", "suffixes k, M, G"},
        {{"RUN", "bosconian"}, "RUN", "run"},
    };
    for (const auto& c : cases) {
        const Result r = cli(c.args);
        INFO(c.args[c.args.size() - 1] << "\nstderr: " << r.err);
        CHECK(r.code == 2);
        CHECK(lines(r.err) == 1);
        CHECK(r.err.find(c.mentions) != std::string::npos);
        CHECK(r.err.find(c.valid) != std::string::npos);
        CHECK(r.out.empty());
    }
    // The documented spellings are accepted.
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"run", "msc", "-n", "2", "--set", "escort_b=E3S2T3W1"},
          {"run", "bosconian", "-n", "1k", "--set", "start_encounter=true", "--policy", "rules"},
          {"run", "bosconian", "-n", "1e3"}}) {
        const Result r = cli(args);
        INFO(r.err);
        CHECK(r.code == 0);
    }
}

TEST_CASE("--help on every command, and list shows every option", "[cli]") {
    for (const auto& args : std::vector<std::vector<std::string>>{
             {"--help"}, {"help"}, {"run", "--help"}, {"list", "--help"}, {"exact", "--help"}}) {
        const Result r = cli(args);
        CHECK(r.code == 0);
        CHECK(r.out.find("usage") != std::string::npos);
    }
    const Result list = cli({"list"});
    CHECK(list.code == 0);
    for (const char* name :
         {"dimension-duel",   "dice",          "aggressor",     "survivor",
          "calibrator",       "best-response", "hp=75",         "max_turns=10000",
          "single_use=false", "bosconian",     "rules",         "sectors=36",
          "bases=2d6",        "layout=random", "hull=100",      "base_cannons=6",
          "start_damage=0",   "start_sector",  "start_alert=0", "start_encounter=false"})
        CHECK(list.out.find(name) != std::string::npos);
}

TEST_CASE("playout counts: 1000000, 1e6 and 1M", "[cli]") {
    CHECK(parse_count("1000000") == 1'000'000u);
    CHECK(parse_count("1e6") == 1'000'000u);
    CHECK(parse_count("1M") == 1'000'000u);
    CHECK(parse_count("2.5k") == 2'500u);
    CHECK(parse_count("1e8") == 100'000'000u);
    CHECK(parse_count("1e12") == 1'000'000'000'000u);
    CHECK_FALSE(parse_count("1.5"));
    CHECK_FALSE(parse_count("1e"));
    CHECK_FALSE(parse_count("M"));
    CHECK_FALSE(parse_count("-5"));
    CHECK_FALSE(parse_count("1e13"));
    CHECK_FALSE(parse_count("0"));
    CHECK_FALSE(parse_count("0.0e9"));
}

TEST_CASE("playout counts are read exactly: a fraction, however small, is refused", "[cli]") {
    // Through a double each of these rounds to a whole number.
    CHECK_FALSE(parse_count("1.00000000000000000001"));
    CHECK_FALSE(parse_count("999999999999.99999999"));
    CHECK_FALSE(parse_count("1000000000000.0000001"));
    CHECK_FALSE(parse_count("1.0000000000000001M"));
    CHECK_FALSE(parse_count("1e-3k"));  // no negative exponent
    CHECK_FALSE(parse_count("1e99999999999999999999"));
    // Whole numbers in any of the documented forms, however they are written.
    CHECK(parse_count("1.00000000000000000000") == 1u);
    CHECK(parse_count("0000000000000000000000001") == 1u);
    CHECK(parse_count("0.000000000000000000001e21") == 1u);
    CHECK(parse_count("1.5M") == 1'500'000u);
    CHECK(parse_count("0.001k") == 1u);
    CHECK(parse_count("999999999999") == 999'999'999'999u);
    CHECK(parse_count("1000000000000.000") == 1'000'000'000'000u);
    CHECK(parse_count("1000G") == 1'000'000'000'000u);
    CHECK_FALSE(parse_count("1001G"));
    const auto r = test::cli({"run", "bosconian", "--playouts", "1.00000000000000000001"});
    CHECK(r.code == 2);
    CHECK(r.err ==
          "odds run: --playouts '1.00000000000000000001' is not valid; give a whole "
          "number from 1 to 1e12, such as 1000000, 1e6, 1M or 2.5k (suffixes k, M, G)\n");
    CHECK(r.out.empty());
}

TEST_CASE("a good run prints its table and writes its files", "[cli]") {
    const fs::path out = fs::temp_directory_path() / ("odds-cli-ok-" + std::to_string(::getpid()));
    const Result r =
        cli({"run", "bosconian", "-n", "20k", "--set", "layout=4,9,15", "--out", out.string()});
    CHECK(r.code == 0);
    CHECK(r.out.find("win") != std::string::npos);
    CHECK(r.out.find("layout=4,9,15") != std::string::npos);
    for (const char* f :
         {"summary.csv", "distributions.csv", "survival.csv", "provenance.csv", "metrics.csv"})
        CHECK(fs::exists(out / f));
    // No temporary file left behind.
    CHECK(std::distance(fs::directory_iterator(out), fs::directory_iterator{}) == 5);
    fs::remove_all(out);
}

TEST_CASE("odds exact writes the summary and distributions, marked exact", "[cli][exact]") {
    const fs::path out =
        fs::temp_directory_path() / ("odds-cli-exact-" + std::to_string(::getpid()));
    const Result r = cli({"exact", "bosconian", "--set", "layout=4,9,15", "--out", out.string()});
    CHECK(r.code == 0);
    CHECK(r.out.find("exact") != std::string::npos);
    std::ifstream in(out / "summary.csv");
    std::string header, row;
    std::getline(in, header);
    std::getline(in, row);
    CHECK(header.rfind("game,scenario,policy,seed,playouts,metric,mean,stddev,ci_low,ci_high,",
                       0) == 0);
    CHECK(row.find(",win,") != std::string::npos);
    CHECK(row.find(",exact,complete,0") != std::string::npos);
    CHECK(fs::exists(out / "distributions.csv"));
    fs::remove_all(out);
}

TEST_CASE("odds state prints the opening position; --state starts a run from a position",
          "[cli][position]") {
    const auto opening = cli({"state", "race", "--set", "goal=12"});
    INFO(opening.err);
    REQUIRE(opening.code == 0);
    CHECK(opening.out.find("square 0") != std::string::npos);
    CHECK(opening.out.find("turn 0") != std::string::npos);

    const fs::path file = test::temp_path("cli-state", "race.txt");
    {
        std::ofstream out(file);
        out << "square 11  # one step from the goal\nturn 7\n";
    }
    // From square 11 of 12 with a turn left, walking always wins.
    const auto walk = cli({"run", "race", "--set", "goal=12", "--state", file.string(), "--policy",
                           "walk", "-n", "100", "--no-progress"});
    INFO(walk.err);
    REQUIRE(walk.code == 0);
    CHECK(walk.out.find("state=" + file.string()) != std::string::npos);
    CHECK(walk.out.find("win") != std::string::npos);
    CHECK(walk.out.find("1.0000") != std::string::npos);

    struct Case {
        std::vector<std::string> args;
        std::string says;
    };
    const std::vector<Case> bad = {
        {{"state"}, "which game?"},
        {{"state", "bosconian"}, "has no positions yet (games with positions: "},
        {{"state", "race", "--set", "goal=1"}, "goal"},
        {{"run", "bosconian", "--state", file.string(), "-n", "1"}, "has no positions yet"},
        {{"exact", "race", "--state", file.string()}, "cannot start from a position"},
        {{"run", "race", "--state", file.string() + ".missing", "-n", "1"}, "cannot be read"},
        {{"run", "race", "--state", fs::temp_directory_path().string(), "-n", "1"},
         "is not a file"},
        {{"run", "race", "--set", "goal=11", "--state", file.string(), "-n", "1"},
         file.string() + ":1: square '11' is not a whole number in 0..10 (R1, R3"},
    };
    for (const auto& c : bad) {
        const auto r = cli(c.args);
        INFO(r.err);
        CHECK(r.code == 2);
        CHECK(lines(r.err) == 1);
        CHECK(r.err.find(c.says) != std::string::npos);
    }
    fs::remove(file);
}

TEST_CASE("odds exact --state solves from a position, for a game whose solver can",
          "[cli][position][exact]") {
    const fs::path file = test::temp_path("cli-state", "duel.txt");
    {
        std::ofstream out(file);
        out << "hp tau 1\nhp kaon 1\nattacker tau\n";
    }
    const auto r = cli({"exact", "dimension-duel", "--set", "hp=10", "--state", file.string()});
    INFO(r.err);
    REQUIRE(r.code == 0);
    CHECK(r.out.find("state=" + file.string()) != std::string::npos);
    CHECK(r.out.find("tau_win") != std::string::npos);
    // The solver's own limits hold from a position too: one line, exit 2.
    const auto bad = cli({"exact", "dimension-duel", "--set", "hp=10", "--state", file.string(),
                          "--set", "single_use=true"});
    CHECK(bad.code == 2);
    CHECK(lines(bad.err) == 1);
    fs::remove(file);
}
