// What odds says about itself: its version, its games' limits, its warnings (issue 21).
#include <catch2/catch.hpp>

#include <string>

#include "sim/exact/bosconian.hpp"
#include "sim/exact/duel.hpp"
#include "sim/registry.hpp"
#include "tests/helpers.hpp"

using namespace odds;

namespace {
std::size_t occurrences(const std::string& text, const std::string& what) {
    std::size_t n = 0;
    for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++n;
    return n;
}
}  // namespace

TEST_CASE("odds version and --version: the version, every game's rules version, the build", "[cli][version]") {
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
    const std::string hp = "hp up to " + std::to_string(exact::duel::kMaxExactHp);
    CHECK(occurrences(duel.out, hp) == 2);  // best-response's help, and the exact solver's line
    CHECK(duel.out.find("hp up to 200") == std::string::npos);
    const std::string over = "hp=" + std::to_string(exact::duel::kMaxExactHp + 1);
    CHECK(test::cli({"exact", "dimension-duel", "--set", over}).code == 2);
    CHECK(test::cli({"run", "dimension-duel", "--set", over, "--policy", "tau=best-response", "-n", "10"})
              .code == 2);
    const auto bosconian = test::cli({"list", "bosconian"});
    CHECK(bosconian.out.find("hull up to " + std::to_string(exact::bosconian::kMaxExactHull)) !=
          std::string::npos);
}

TEST_CASE("B1 start_sector=1 is the lap's last sector: a warning, and the help says so", "[cli][bosconian][B1]") {
    const auto last = test::cli({"run", "bosconian", "--set", "start_sector=1", "-n", "100", "--no-progress"});
    CHECK(last.code == 0);
    CHECK(last.err.find("odds run: warning: start_sector=1 leaves 1 sector of the lap's 36 to play: "
                        "sector 1 is resolved last") != std::string::npos);
    const auto exact = test::cli({"exact", "bosconian", "--set", "start_sector=36"});
    CHECK(exact.err.find("odds exact: warning: start_sector=36 leaves 2 sectors") != std::string::npos);
    // A fair part-way question, and start_encounter=true (sector 1 first), raise no warning.
    CHECK(test::cli({"run", "bosconian", "--set", "start_sector=14", "-n", "100", "--no-progress"}).err.find("warning") ==
          std::string::npos);
    CHECK(test::cli({"run", "bosconian", "--set", "start_sector=1", "--set", "start_encounter=true", "-n",
                     "100", "--no-progress"})
              .err.find("warning") == std::string::npos);
    CHECK(test::cli({"list", "bosconian"}).out.find("sector 1 comes last unless start_encounter=true") !=
          std::string::npos);
}
