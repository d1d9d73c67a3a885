// odds compare --variant: variants of the rules on the same dice (common random numbers), each
// measured against the first by paired differences, exact where the game's solver solves both.
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "reports/csv.hpp"
#include "reports/stats.hpp"
#include "sim/cli/cli.hpp"
#include "sim/registry.hpp"
#include "tests/helpers.hpp"

using namespace odds;
namespace fs = std::filesystem;

namespace {

using test::cli;

fs::path temp(const std::string& name) { return test::temp_path("variants", name); }

// The row of variants.csv for a variant, a policy and a metric.
std::size_t row_of(const CsvTable& t, const std::string& variant, const std::string& metric,
                   const std::string& policy = "") {
    for (std::size_t r = 0; r < t.rows.size(); ++r)
        if (t.at(r, "variant") == variant && t.at(r, "metric") == metric &&
            (policy.empty() || t.at(r, "policy") == policy))
            return r;
    FAIL("no row " << variant << " " << metric << " " << policy);
    return 0;
}

double num(const CsvTable& t, std::size_t r, const char* column) {
    return std::stod(t.at(r, column));
}

// The exact mean of `metric` under `settings` (its bounds), from the game's solver.
Interval exact_mean(const char* game, const Settings& settings, const std::string& metric) {
    const ExactReport x = find_game(game).exact(settings, {});
    for (const auto& law : x.laws)
        if (law.spec.name == metric) return summarize(law, true).ci;
    FAIL("no exact law of " << metric);
    return {};
}

}  // namespace

TEST_CASE("compare --variant: Cosmo-Mines 3d6 against the book, exactly and on the same dice",
          "[compare][variant]") {
    const auto dir = temp("cosmo");
    const auto r =
        cli({"compare", "bosconian", "--variant", "book", "--variant", "cosmo_mine.damage=3d6",
             "-n", "100k", "--seed", "3", "--out", dir.string(), "--no-progress"});
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    const CsvTable t = parse_csv(test::slurp(dir / "variants.csv"));
    for (const char* metric : {"win", "damage"}) {
        INFO(metric);
        // The exact difference is odds exact's of each variant, one minus the other (bounds).
        const Interval book = exact_mean("bosconian", {}, metric);
        const Interval mine = exact_mean("bosconian", {{"cosmo_mine.damage", "3d6"}}, metric);
        const std::size_t row = row_of(t, "cosmo_mine.damage=3d6", metric);
        CHECK(num(t, row, "exact_diff_low") == Approx(mine.low - book.high).epsilon(1e-12));
        CHECK(num(t, row, "exact_diff_high") == Approx(mine.high - book.low).epsilon(1e-12));
        CHECK(num(t, row, "exact_mean_low") == Approx(mine.low).epsilon(1e-12));
        CHECK(num(t, row_of(t, "book", metric), "exact_mean_high") ==
              Approx(book.high).epsilon(1e-12));
        // The played difference agrees with it within 4 standard errors (the interval is 1.96).
        const double diff = num(t, row, "diff");
        const double se = (num(t, row, "diff_high") - num(t, row, "diff_low")) / (2 * 1.96);
        const double exact = (mine.low - book.high + mine.high - book.low) / 2;
        CHECK(std::abs(diff - exact) <= 4 * se + (mine.high - mine.low + book.high - book.low));
        // The first variant's row has no difference of its own.
        CHECK(t.at(row_of(t, "book", metric), "diff").empty());
    }
    // The table says which metrics moved and the exact difference beside the played one.
    CHECK(r.out.find("cosmo_mine.damage=3d6 - book, policy rules") != std::string::npos);
    CHECK(r.out.find("exact ") != std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("compare --variant: the paired interval is narrower than the unpaired one",
          "[compare][variant]") {
    // hull=95 against the book: every playout of both variants meets the same dice, so the
    // damage taken moves together and the paired difference is far tighter than two separate
    // samples' intervals would give.
    const auto dir = temp("paired");
    REQUIRE(cli({"compare", "bosconian", "--variant", "book", "--variant", "hull=95", "-n", "20000",
                 "--out", dir.string(), "--no-progress"})
                .code == 0);
    const CsvTable t = parse_csv(test::slurp(dir / "variants.csv"));
    for (const char* metric : {"damage", "sectors_entered"}) {
        INFO(metric);
        const std::size_t a = row_of(t, "book", metric), b = row_of(t, "hull=95", metric);
        const double half_a = (num(t, a, "ci_high") - num(t, a, "ci_low")) / 2;
        const double half_b = (num(t, b, "ci_high") - num(t, b, "ci_low")) / 2;
        const double unpaired = std::sqrt(half_a * half_a + half_b * half_b);
        const double paired = (num(t, b, "diff_high") - num(t, b, "diff_low")) / 2;
        CHECK(paired < unpaired / 2);
        CHECK(t.at(b, "moved") == "true");
    }
    fs::remove_all(dir);
}

TEST_CASE("compare --variant: policies ranked within each variant, a two-seat game's seats",
          "[compare][variant]") {
    const auto variant = temp("sniper.toml");
    std::ofstream(variant) << "[sniper.area1]\nopen = \"5-6\"\n";
    const auto r = cli({"compare", "fpb", "--variant", "book", "--variant", variant.string(),
                        "--policy", "bug-out", "--policy", "lead-from-front", "-n", "2000",
                        "--metrics", "icecube_rescued,killed", "--no-progress"});
    INFO(r.out << r.err);
    REQUIRE(r.code == 0);
    CHECK(r.out.find("policies ranked by") != std::string::npos);
    CHECK(test::occurrences(r.out, " - book, policy ") == 2);  // one block per policy
    // Two seats: every seat's result compared (the default policies, both seats).
    const auto duel = cli({"compare", "dimension-duel", "--variant", "book", "--variant",
                           "damage.die=d8", "-n", "2000", "--no-progress"});
    INFO(duel.out);
    REQUIRE(duel.code == 0);
    for (const char* m : {"tau_win", "kaon_win", "draw"})
        CHECK(duel.out.find(std::string("  ") + m) != std::string::npos);
    fs::remove(variant);
}

TEST_CASE("compare --variant refuses what compares nothing: one line, exit 2, nothing written",
          "[compare][variant]") {
    const auto dir = temp("refused");
    const std::vector<std::pair<std::vector<std::string>, std::string>> cases = {
        {{"--variant", "book"}, "at least two variants"},
        {{"--variant", "book", "--variant", "hull=100"},
         "plays the same rules as --variant 'book'"},
        {{"--variant", "book", "--variant", "/nonexistent.toml"}, "no such file"},
        {{"--variant", "book", "--variant", "hull=90,,base_cannons=5"}, "is not NAME=VALUE"},
        {{"--variant", "book", "--variant", "hull=90,hull=95"}, "sets 'hull' twice"},
        {{"--variant", "book", "--variant", "hull=0"}, "hull='0' is not valid"},
        {{"--variant", "book", "--variant", "hull=90", "--fixed", "kaon=dice"}, "one seat"},
    };
    for (const auto& [extra, says] : cases) {
        std::vector<std::string> args{"compare", "bosconian", "-n", "100", "--out", dir.string()};
        args.insert(args.end(), extra.begin(), extra.end());
        test::check_refused(cli(args), says, dir);
    }
}
