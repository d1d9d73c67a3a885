// odds restrict (issue 32, section 2; docs/skill.md): restricted play ranked by what it costs.
#include <algorithm>
#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <sstream>

#include "tests/helpers.hpp"

namespace {
std::string line_of(const std::string& out, const std::string& restriction) {
    std::istringstream in(out);
    for (std::string line; std::getline(in, line);)
        if (line.find(" " + restriction + " ") != std::string::npos) return line;
    return {};
}
}  // namespace

TEST_CASE("odds restrict: a dominated function costs exactly 0, the Disruptor most (exact)",
          "[restrict][cli]") {
    // D3/D4 resolve the changer's two modes alike, so barring one of them leaves Tau's value at
    // 1/2 (test_equilibrium.cpp); the Disruptor is worth much more (engine/dimension_duel/README).
    const auto r = odds::test::cli({"restrict", "dimension-duel", "--exact", "--set", "hp=12",
                                    "--restrict", "changer_self", "--restrict", "disruptor"});
    REQUIRE(r.code == 0);
    const std::string self = line_of(r.out, "changer_self"), dis = line_of(r.out, "disruptor");
    CHECK(self.find("0.0000") != std::string::npos);
    CHECK(self.find("a rule this play can ignore") != std::string::npos);
    CHECK(dis.find("a rule this play can ignore") == std::string::npos);
    CHECK(r.out.find("1     disruptor") != std::string::npos);  // ranked first
    // Both seats barred from the Disruptor: the game stays nearly fair (Tau, attacking first,
    // gains 0.0007 at hp=12; 0.00002 at hp=75, engine/dimension_duel/README.md).
    const auto both = odds::test::cli({"restrict", "dimension-duel", "--exact", "--set", "hp=12",
                                       "--seat", "both", "--restrict", "disruptor"});
    REQUIRE(both.code == 0);
    CHECK(line_of(both.out, "disruptor").find("0.500663    -0.000663") != std::string::npos);
}

TEST_CASE("odds restrict: a dominated move costs 0 in the race, exactly and sampled",
          "[restrict][cli]") {
    // Two squares to go in one turn: walking wins surely, rolling 5 times in 6 (a 1 steps back):
    // rolling is dominated, so barring it costs nothing, and barring walking costs 1/6.
    const std::vector<std::string> race = {"restrict", "race",   "--play", "best",
                                           "--set",    "goal=2", "--set",  "max_turns=1"};
    auto with = [&](std::vector<std::string> extra) {
        auto a = race;
        a.insert(a.end(), extra.begin(), extra.end());
        return odds::test::cli(a);
    };
    const auto exact = with({"--exact"});
    REQUIRE(exact.code == 0);
    CHECK(line_of(exact.out, "roll").find("1.000000    0.000000    costs nothing") !=
          std::string::npos);
    CHECK(line_of(exact.out, "walk").find("0.833333    0.166667") != std::string::npos);
    CHECK(exact.out.find("1     walk") != std::string::npos);
    const auto sampled = with({"-n", "600", "--no-progress"});
    REQUIRE(sampled.code == 0);
    CHECK(line_of(sampled.out, "roll").find("[0.0000, 0.0000]") != std::string::npos);
    // The best play never rolls here: every game the same, never used (not "can ignore").
    CHECK(line_of(sampled.out, "roll").find("never used by this play") != std::string::npos);
    CHECK(line_of(sampled.out, "walk").find("ignore") == std::string::npos);
    // Barring both moves leaves a turn no move: refused (R5).
    const auto both = with({"--restrict", "walk,roll"});
    CHECK(both.code == 2);
    CHECK(both.err.find("never both") != std::string::npos);
}

TEST_CASE("odds restrict: a restriction adds to what --set already bars", "[restrict][cli]") {
    // The game without the Disruptor for either player (engine/dimension_duel/README.md's right
    // column): Tau barred from the Deflector too has nothing against Kaon's, and nearly always
    // loses.
    const auto r = odds::test::cli({"restrict", "dimension-duel", "--exact", "--set", "hp=12",
                                    "--set", "restrict.tau=disruptor", "--set",
                                    "restrict.kaon=disruptor", "--restrict", "deflector"});
    REQUIRE(r.code == 0);
    CHECK(r.out.find("restrict.tau=disruptor restrict.kaon=disruptor |") != std::string::npos);
    CHECK(line_of(r.out, "none").find("0.500663") != std::string::npos);
    CHECK(line_of(r.out, "deflector").find("0.009060    0.491602") != std::string::npos);
}

TEST_CASE("odds restrict: a choice no policy makes costs nothing, sampled, paired game by game",
          "[restrict][cli]") {
    // The rules of thumb never choose who goes first in a bug-out (H7a), so on the same dice
    // every game is the same: the cost is exactly 0, its interval [0, 0].
    const auto out = odds::test::temp_path("restrict", "fpb");
    std::filesystem::remove_all(out);
    const auto r = odds::test::cli({"restrict", "fpb", "--play", "cover-and-carry,lead-from-front",
                                    "--restrict", "first_out", "--restrict", "carry", "-n", "300",
                                    "--no-progress", "--out", out.string(), "--report"});
    REQUIRE(r.code == 0);
    CHECK(line_of(r.out, "first_out").find("[0.0000, 0.0000]") != std::string::npos);
    CHECK(line_of(r.out, "first_out").find("never used by this play") != std::string::npos);
    CHECK(line_of(r.out, "first_out").find("ignore") == std::string::npos);
    CHECK(line_of(r.out, "none").find("ignore") == std::string::npos);
    CHECK(line_of(r.out, "carry").find("ignore") == std::string::npos);
    std::ifstream csv(out / "restrict.csv");
    std::string header;
    std::getline(csv, header);
    CHECK(header ==
          "game,scenario,seat,play,method,measure,seed,games,rank,restriction,best_play,value,"
          "cost,ci_low,ci_high,ignorable,never_used,status");
    std::ifstream html(out / "report.html");  // the ranking drawn, the ignorable one marked
    const std::string page((std::istreambuf_iterator<char>(html)), {});
    CHECK(page.find("What each rule element is worth") != std::string::npos);
    CHECK(page.find("1: first_out") == std::string::npos);  // carry costs more: ranked first
    CHECK(page.find("2: first_out") != std::string::npos);
    CHECK(page.find(">never used<") != std::string::npos);
    std::filesystem::remove_all(out);
}

TEST_CASE("odds restrict: the same ranking on 1 and 2 threads, and bad input", "[restrict][cli]") {
    const std::vector<std::string> naval = {"restrict", "naval",   "--play",       "gunner",
                                            "--set",    "ships=3", "--set",        "width=8",
                                            "-n",       "40",      "--no-progress"};
    auto with = [&](std::vector<std::string> extra) {
        auto a = naval;
        a.insert(a.end(), extra.begin(), extra.end());
        return odds::test::cli(a);
    };
    const auto one = with({"--threads", "1"}), two = with({"--threads", "2"});
    REQUIRE(one.code == 0);
    CHECK(one.out == two.out);
    CHECK(one.out.find("board") != std::string::npos);
    struct Bad {
        std::vector<std::string> args;
        std::string says;
    };
    const Bad bad[] = {
        // The dispatcher names the command once (issue 43: it was "odds restrict: odds restrict:").
        {{"restrict", "bosconian"}, "odds restrict: bosconian offers no restriction"},
        {{"restrict", "naval", "--policy", "gunner"}, "--play"},
        {{"restrict", "naval", "--play", "gunner", "--budget", "8"}, "--budget"},
        {{"restrict", "naval", "--seat", "c"}, "'c'"},
        {{"restrict", "fpb", "--seat", "a"}, "solo"},
        {{"restrict", "naval", "--restrict", "ram"}, "ram"},
        {{"restrict", "naval", "--restrict", "none"}, "none"},
        {{"restrict", "naval", "--budget", "0"}, "'0'"},
        {{"restrict", "naval", "--play", "admiral"}, "admiral"},
        {{"restrict", "fpb", "--exact"}, "--exact"},
        {{"restrict", "naval", "--metric", "turns"}, "--metric"},
        {{"restrict", "naval", "--play", "gunner", "-n", "1"}, "'1'"},
        {{"restrict", "dimension-duel", "--exact", "--play", "dice,survivor"}, "--exact"},
    };
    for (const auto& b : bad) {
        const auto r = odds::test::cli(b.args);
        INFO(b.args.back() << ": " << r.err);
        CHECK(r.code == 2);
        CHECK(r.err.find(b.says) != std::string::npos);
        CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
    }
}
