// What odds says about itself: its version, its games' limits, its warnings (issue 21).
#include <catch2/catch.hpp>

#include <algorithm>
#include <sstream>
#include <string>

#include "engine/bosconian/exact.hpp"
#include "engine/dimension_duel/exact.hpp"
#include "sim/cli/args.hpp"
#include "sim/cli/spec.hpp"
#include "sim/registry.hpp"
#include "tests/helpers.hpp"

using namespace odds;

TEST_CASE("odds version and --version: the version, every game's rules version, the build",
          "[cli][version]") {
    for (const char* form : {"version", "--version"}) {
        const auto r = test::cli({form});
        INFO(form << ": " << r.out << r.err);
        CHECK(r.code == 0);
        CHECK(r.out.rfind(std::string("odds ") + ODDS_VERSION_EXPECTED + " (", 0) == 0);
        CHECK(r.out.find(" build)") != std::string::npos);
        for (const auto& g : games()) {
            CHECK(r.out.find(std::string(g.name)) != std::string::npos);
            CHECK(r.out.find(std::string(g.rules_version)) != std::string::npos);
        }
    }
    CHECK(test::cli({"version", "extra"}).code == 2);
}

TEST_CASE("odds list and the exact solvers agree on their limits", "[cli][list]") {
    const auto duel = test::cli({"list", "dimension-duel"});
    const std::string hp = "hp up to " + std::to_string(exact::dimension_duel::kMaxExactHp);
    // best-response's and equilibrium's help, and the exact solver's line
    static_assert(dimension_duel::kMaxEquilibriumHp == exact::dimension_duel::kMaxExactHp);
    CHECK(test::occurrences(duel.out, hp) == 3);
    CHECK(duel.out.find("hp up to 200") == std::string::npos);
    const std::string over = "hp=" + std::to_string(exact::dimension_duel::kMaxExactHp + 1);
    CHECK(test::cli({"exact", "dimension-duel", "--set", over}).code == 2);
    CHECK(test::cli(
              {"run", "dimension-duel", "--set", over, "--policy", "tau=best-response", "-n", "10"})
              .code == 2);
    const auto bosconian = test::cli({"list", "bosconian"});
    CHECK(bosconian.out.find("hull up to " + std::to_string(exact::bosconian::kMaxExactHull)) !=
          std::string::npos);
}

TEST_CASE("B1 start_sector=1 is the lap's last sector: a warning, and the help says so",
          "[cli][bosconian][B1]") {
    const auto last =
        test::cli({"run", "bosconian", "--set", "start_sector=1", "-n", "100", "--no-progress"});
    CHECK(last.code == 0);
    CHECK(
        last.err.find("odds run: warning: start_sector=1 leaves 1 sector of the lap's 36 to play: "
                      "sector 1 is resolved last") != std::string::npos);
    const auto exact = test::cli({"exact", "bosconian", "--set", "start_sector=36"});
    CHECK(exact.err.find("odds exact: warning: start_sector=36 leaves 2 sectors") !=
          std::string::npos);
    // A fair part-way question, and start_encounter=true (sector 1 first), raise no warning.
    CHECK(test::cli({"run", "bosconian", "--set", "start_sector=14", "-n", "100", "--no-progress"})
              .err.find("warning") == std::string::npos);
    CHECK(test::cli({"run", "bosconian", "--set", "start_sector=1", "--set", "start_encounter=true",
                     "-n", "100", "--no-progress"})
              .err.find("warning") == std::string::npos);
    CHECK(test::cli({"list", "bosconian"})
              .out.find("sector 1 comes last unless start_encounter=true") != std::string::npos);
}

TEST_CASE("--help: every command's help has its synopsis, two examples and its options, wrapped",
          "[cli][help]") {
    for (const unsigned columns : {60u, 100u}) {
        for (const auto& c : cli::commands()) {
            const std::string help = cli::help_text(c, columns);
            INFO(c.name << " at " << columns << " columns:\n" << help);
            CHECK(help.rfind("usage: " + std::string(c.synopsis), 0) == 0);
            CHECK(test::occurrences(help, "\n  odds ") +
                      test::occurrences(help, "\n  source <(odds") ==
                  2);
            CHECK(help.find("--help") != std::string::npos);
            std::istringstream lines(help);
            for (std::string line; std::getline(lines, line);)  // examples are commands: never cut
                if (line.rfind("  odds ", 0) != 0 && line.rfind("  source ", 0) != 0 &&
                    line.rfind("usage: ", 0) != 0)
                    CHECK(line.size() <= columns);
        }
    }
    // The command line's --help prints the same (columns from $COLUMNS when set).
    const auto r = test::cli({"sweep", "--help"});
    CHECK(r.code == 0);
    CHECK(r.out.find("usage: odds sweep GAME --vary") == 0);
    CHECK(r.out.find("examples:\n  odds sweep bosconian --vary hull=80..160:10") !=
          std::string::npos);
}

TEST_CASE("command-line mistakes are told in odds's words, with the nearest valid name",
          "[cli][help]") {
    struct Case {
        std::vector<std::string> args;
        const char* says;
    };
    const Case cases[] = {
        {{"rnu", "bosconian"}, "odds: unknown command 'rnu' (did you mean 'run'?)"},
        {{"run", "bosconain"}, "unknown game 'bosconain' (did you mean 'bosconian'?)"},
        {{"run", "bosconian", "--seeds", "3"}, "unknown option '--seeds' (did you mean '--seed'?)"},
        {{"run", "bosconian", "--set", "hul=90"}, "unknown option 'hul' (did you mean 'hull'?)"},
        {{"run", "fpb", "--policy", "bugout"}, "unknown policy 'bugout' (did you mean 'bug-out'?)"},
        {{"run", "bosconian", "--seed"}, "option '--seed' needs a value"},
        {{"run", "bosconian", "msc"}, "'odds run' takes one game"},
        {{"run", "bosconian", "-n", "5", "-n", "6"}, "option '--playouts' is given more than once"},
        {{"version", "now"}, "'odds version' takes no arguments"},
        {{"completion", "fish"}, "which shell? give bash or zsh ('fish' is neither)"},
    };
    for (const auto& c : cases) {
        const auto r = test::cli(c.args);
        INFO(r.err);
        CHECK(r.code == 2);
        CHECK(r.err.find(c.says) != std::string::npos);
        CHECK(std::count(r.err.begin(), r.err.end(), '\n') == 1);
        // Boost.Program_options' own phrasing never reaches the user.
        CHECK(r.err.find("unrecognised") == std::string::npos);
        CHECK(r.err.find("the required argument") == std::string::npos);
        CHECK(r.err.find("positional options") == std::string::npos);
    }
    // A name far from every valid one gets no guess.
    CHECK(test::cli({"run", "chess"}).err.find("did you mean") == std::string::npos);
}

TEST_CASE("registrations are checked when the program starts: a wrong metric name is caught",
          "[registry]") {
    for (const auto& g : games()) CHECK_NOTHROW(validate(g));
    GameEntry g = find_game("bosconian");
    const std::string_view misspelt[] = {"win", "damage", "sectors_entred"};
    g.headline = misspelt;
    CHECK_THROWS_WITH(
        validate(g), Catch::Contains("headline metric 'sectors_entred' is not one of its metrics"));
    g = find_game("naval");
    const std::string_view two[] = {"a_win", "b_win"}, drawn[] = {"a_win", "b_win", "drawn"};
    g.versus = two;
    CHECK_THROWS_WITH(validate(g), Catch::Contains("three versus metrics"));
    g.versus = drawn;
    CHECK_THROWS_WITH(validate(g), Catch::Contains("versus metric 'drawn'"));
    g = find_game("msc");
    g.rules_version = "naval/3";
    CHECK_THROWS_WITH(validate(g), Catch::Contains("rules version 'naval/3' is not 'msc/N'"));
}

TEST_CASE("a two-seat entry's versus metrics are its seats' wins, then draw, unless it names them",
          "[registry]") {
    std::vector<std::string> seen;
    for (const auto& g : games()) {
        if (g.seats.size() != 2) {
            CHECK(g.versus.empty());
            continue;
        }
        std::string versus;
        for (const auto& m : g.versus) versus += std::string(m) + " ";
        seen.push_back(std::string(g.name) + ": " + versus);
    }
    CHECK(seen == std::vector<std::string>{"dimension-duel: tau_win kaon_win draw ",
                                           "msc: a_win b_win draw ", "naval: a_win b_win draw "});
}

TEST_CASE("a policy that needs a fixed opponent says so by a field, and is refused in both seats",
          "[registry]") {
    std::vector<std::string> flagged;
    for (const auto& g : games())
        for (const auto& p : g.policies) {
            if (!p.needs_fixed_opponent) continue;
            flagged.push_back(std::string(g.name) + " " + std::string(p.name));
            INFO(flagged.back());
            REQUIRE(g.seats.size() == 2);
            CHECK_THROWS_WITH(g.prepare({}, {std::string(p.name)}),
                              std::string(g.name) + ": " + std::string(p.name) +
                                  " needs a fixed opponent; give the other seat a policy");
        }
    CHECK(flagged == std::vector<std::string>{"dimension-duel best-response"});
}

TEST_CASE("every command's options are parsed once, into Args: each declared option is bound",
          "[cli]") {
    // Issue 41: commands read typed fields (sim/cli/common.hpp's Args), never a parsed option by
    // its name; the dispatcher (sim/cli/args.cpp) binds every declared option to its field.
    for (const auto& c : cli::commands()) {
        const auto d = cli::options_of(c);
        for (const auto& o : d.options()) {
            INFO("odds " << c.name << " --" << o->long_name());
            CHECK(cli::bound(o->long_name()));
        }
    }
    CHECK_FALSE(cli::bound("no-such-option"));
}

TEST_CASE("a command's work is shared out (shard files, MPI's ranks) where it takes --shard",
          "[cli][mpi]") {
    // sim/cli/mpi.cpp asks shares_out: the list is the declarations', never a second one.
    for (const char* name : {"run", "sweep", "tournament", "compare", "baseline", "check", "skill",
                             "restrict", "shape"}) {
        INFO(name);
        CHECK(cli::shares_out(name));
    }
    // tune declares --shard to refuse it; under MPI its ranks are a team, asked for first.
    CHECK(cli::shares_out("tune"));
    for (const char* name : {"exact", "merge", "report", "list", "dice", "nosuch", ""}) {
        INFO(name);
        CHECK_FALSE(cli::shares_out(name));
    }
}
