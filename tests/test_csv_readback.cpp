// Every CSV the commands write, read back: each integer column holds plain integers (a strict
// parse: digits only, no exponent, no fraction), whatever the count, on every row.
#include <unistd.h>

#include <boost/tokenizer.hpp>
#include <catch2/catch.hpp>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <regex>

#include "reports/csv.hpp"
#include "tests/helpers.hpp"

using namespace odds;
namespace fs = std::filesystem;

namespace {

struct Csv {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
};

Csv read_csv(const fs::path& path) {
    std::ifstream in(path);
    REQUIRE(in);
    Csv csv;
    std::string line;
    using Tokens = boost::tokenizer<boost::escaped_list_separator<char>>;
    for (bool first = true; std::getline(in, line); first = false) {
        const Tokens tokens(line, boost::escaped_list_separator<char>('\\', ',', '"'));
        std::vector<std::string> cells(tokens.begin(), tokens.end());
        if (first)
            csv.header = std::move(cells);
        else
            csv.rows.push_back(std::move(cells));
    }
    return csv;
}

// A whole number as a person would write it: digits, no sign, no leading zero, no exponent.
bool strict_integer(const std::string& s) {
    std::uint64_t v = 0;
    const auto r = std::from_chars(s.data(), s.data() + s.size(), v);
    return !s.empty() && r.ec == std::errc{} && r.ptr == s.data() + s.size() &&
           (s.size() == 1 || s[0] != '0');
}

// Every row's `columns` are strict integers (or empty, where `empty_ok`).
void check_integer_columns(const fs::path& path, const std::vector<std::string>& columns,
                           bool empty_ok = false) {
    INFO(path.string());
    const Csv csv = read_csv(path);
    REQUIRE_FALSE(csv.rows.empty());
    for (const auto& name : columns) {
        const auto at = std::find(csv.header.begin(), csv.header.end(), name);
        REQUIRE(at != csv.header.end());
        const auto c = static_cast<std::size_t>(at - csv.header.begin());
        for (const auto& row : csv.rows) {
            REQUIRE(row.size() == csv.header.size());
            INFO(name << " = '" << row[c] << "'");
            CHECK((strict_integer(row[c]) || (empty_ok && row[c].empty())));
        }
    }
}

// The value column: a plain decimal (a scaled metric stores halves), never an exponent.
void check_plain_values(const fs::path& path) {
    const Csv csv = read_csv(path);
    const auto c = static_cast<std::size_t>(
        std::find(csv.header.begin(), csv.header.end(), "value") - csv.header.begin());
    REQUIRE(c < csv.header.size());
    const std::regex plain("-?(0|[1-9][0-9]*)(\\.[0-9]+)?");
    for (const auto& row : csv.rows) {
        INFO(path.string() << ": value '" << row[c] << "'");
        CHECK(std::regex_match(row[c], plain));
    }
}

fs::path temp(const std::string& name) { return test::temp_path("csv", name); }

}  // namespace

TEST_CASE("whole numbers are written as plain integers", "[reports][csv]") {
    CHECK(format_double(3e6) == "3000000");
    CHECK(format_double(1e5) == "100000");
    CHECK(format_double(-2e7) == "-20000000");
    CHECK(format_double(1e20) == "100000000000000000000");
    CHECK(format_double(2.5) == "2.5");
    CHECK(format_double(1e-7) == "1e-07");  // a tiny fraction keeps its shortest form
    // From 1e-4 up no exponent: 0.0006 (a draw rate of 12 in 20000), not 6e-04.
    CHECK(format_double(0.0006) == "0.0006");
    CHECK(format_double(-0.00012345) == "-0.00012345");
    CHECK(format_double(0.0001) == "0.0001");
    CHECK(format_double(0.7330000000000001) == "0.7330000000000001");  // still every digit
    for (const double v : {0.0006, 1.0 / 3000, 0.00099999999999999991, 2.5e-4 / 3})
        CHECK(std::stod(format_double(v)) == v);
    const std::vector<MetricSpec> specs = {{"steps", "", MetricKind::count, 0, 2}};
    const Distribution d{specs[0], {0.0, 3e6, 1e5}};
    const std::string csv = distributions_csv({"g", "s", "p", 1, 3'100'000, false, false}, {d});
    CHECK(csv.find("g,s,p,steps,1,3000000,") != std::string::npos);
    CHECK(csv.find("g,s,p,steps,2,100000,") != std::string::npos);
}

TEST_CASE("every CSV kind reads back with strict integer columns", "[cli][csv]") {
    const fs::path dir = temp("all");
    fs::remove_all(dir);
    // 100000 playouts of a one-base layout: bases_placed is 1 in every one, a count of 100000
    // (written "1e+05" by the shortest double form).
    const std::vector<std::string> one_base = {"--set", "layout=4", "--set", "hull=1"};
    auto with = [](std::vector<std::string> a, const std::vector<std::string>& b) {
        a.insert(a.end(), b.begin(), b.end());
        return a;
    };
    REQUIRE(test::cli(
                with({"run", "bosconian", "-n", "100k", "--out", (dir / "run").string()}, one_base))
                .code == 0);
    check_integer_columns(dir / "run/summary.csv", {"seed", "playouts"});
    check_integer_columns(dir / "run/distributions.csv", {"count"});
    check_plain_values(dir / "run/distributions.csv");
    check_integer_columns(dir / "run/survival.csv", {"step", "at_risk", "lost", "completed"});

    // Several survival tables (a subject column).
    REQUIRE(test::cli({"run", "fpb", "-n", "2000", "--out", (dir / "fpb").string()}).code == 0);
    check_integer_columns(dir / "fpb/survival.csv", {"step", "at_risk", "lost", "completed"});
    check_integer_columns(dir / "fpb/distributions.csv", {"count"});

    // Exact: no seed, playouts or count (empty cells); steps are still whole numbers.
    REQUIRE(
        test::cli({"exact", "bosconian", "--set", "layout=4,9", "--out", (dir / "exact").string()})
            .code == 0);
    check_integer_columns(dir / "exact/summary.csv", {"seed", "playouts"}, true);
    check_integer_columns(dir / "exact/distributions.csv", {"count"}, true);
    check_plain_values(dir / "exact/distributions.csv");
    check_integer_columns(dir / "exact/survival.csv", {"step"});

    // A two-seat game: scaled metrics (halves) in distributions.csv.
    REQUIRE(
        test::cli({"run", "dimension-duel", "-n", "20k", "--out", (dir / "duel").string()}).code ==
        0);
    check_integer_columns(dir / "duel/summary.csv", {"seed", "playouts"});
    check_integer_columns(dir / "duel/distributions.csv", {"count"});
    check_plain_values(dir / "duel/distributions.csv");

    REQUIRE(test::cli(with({"sweep", "bosconian", "--vary", "base_cannons=5:6:1", "-n", "100k",
                            "--out", (dir / "sweep").string()},
                           one_base))
                .code == 0);
    check_integer_columns(dir / "sweep/sweep.csv", {"seed", "playouts", "base_cannons"});

    REQUIRE(
        test::cli({"compare", "dimension-duel", "--policy", "tau=dice", "--policy", "tau=survivor",
                   "--fixed", "kaon=dice", "-n", "100k", "--out", (dir / "compare").string()})
            .code == 0);
    check_integer_columns(dir / "compare/compare.csv", {"seed", "playouts"});
    check_integer_columns(dir / "compare/tau_dice_kaon_dice/summary.csv", {"seed", "playouts"});

    // 50000 games a pairing, two pairings: 100000 games a policy in ratings.csv.
    REQUIRE(test::cli({"tournament", "dimension-duel", "--policy", "dice", "--policy", "survivor",
                       "-n", "50k", "--out", (dir / "tournament").string()})
                .code == 0);
    check_integer_columns(dir / "tournament/tournament.csv", {"seed", "playouts"});
    check_integer_columns(dir / "tournament/ratings.csv", {"seed", "games"});
    fs::remove_all(dir);
}

TEST_CASE("files that describe themselves: survival names its table, ratings' score is a share",
          "[cli][csv]") {
    const fs::path dir = temp("describe");
    fs::remove_all(dir);
    // survival.csv says whose table it is and what a step is.
    REQUIRE(test::cli({"run", "bosconian", "-n", "2000", "--out", (dir / "run").string()}).code ==
            0);
    const auto surv = parse_csv(test::slurp(dir / "run/survival.csv"));
    REQUIRE(!surv.rows.empty());
    CHECK(surv.at(0, "game") == "bosconian");
    CHECK(surv.at(0, "scenario").find("hull=100") != std::string::npos);
    CHECK(surv.at(0, "policy") == "rules");
    CHECK(surv.at(0, "step_metric") == "sectors_entered");
    CHECK(surv.at(0, "event") == "the ship is lost");  // B3, B9: a lost ship, not a completion

    // ratings.csv: score is the share the table on stdout prints; points the points.
    const auto t = test::cli({"tournament", "dimension-duel", "--policy", "aggressor", "--policy",
                              "survivor", "-n", "2000", "--out", (dir / "tour").string()});
    REQUIRE(t.code == 0);
    const auto ratings = parse_csv(test::slurp(dir / "tour/ratings.csv"));
    REQUIRE(ratings.rows.size() == 2);
    for (std::size_t r = 0; r < 2; ++r) {
        const double score = std::stod(ratings.at(r, "score"));
        const double points = std::stod(ratings.at(r, "points"));
        const double games = std::stod(ratings.at(r, "games"));
        CHECK(score == points / games);
        CHECK((score >= 0 && score <= 1));
        char shown[32];
        std::snprintf(shown, sizeof shown, "score %.3f", score);
        INFO(t.out);
        CHECK(t.out.find(ratings.at(r, "policy")) != std::string::npos);
        CHECK(t.out.find(shown) != std::string::npos);
    }
    // A rate of 0 (survivor never loses to aggressor) has its interval from exactly 0.
    const auto tour = parse_csv(test::slurp(dir / "tour/tournament.csv"));
    std::size_t zeros = 0;
    for (std::size_t r = 0; r < tour.rows.size(); ++r)
        if (tour.at(r, "rate") == "0") {
            ++zeros;
            CHECK(tour.at(r, "ci_low") == "0");
        }
    CHECK(zeros > 0);
    fs::remove_all(dir);
}
