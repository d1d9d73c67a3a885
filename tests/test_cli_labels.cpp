// Labels that say what the numbers are, and the reference odds gives of itself (issue 21): exact
// bounds, every pairing's scenario, the progress line, odds list's metrics and JSON, compare's
// ranking and risk table.
#include <unistd.h>

#include <boost/tokenizer.hpp>
#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <string>

#include "reports/csv.hpp"
#include "reports/stats.hpp"
#include "sim/registry.hpp"
#include "tests/helpers.hpp"

using namespace odds;
namespace fs = std::filesystem;

namespace {

fs::path temp(const std::string& name) {
    const fs::path p = fs::temp_directory_path() / ("odds-labels-" + name + "-" + std::to_string(::getpid()));
    fs::remove_all(p);
    return p;
}

std::string slurp(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::ostringstream s;
    s << in.rdbuf();
    return s.str();
}

// A CSV file as rows of named cells.
struct Csv {
    std::vector<std::string> header;
    std::vector<std::map<std::string, std::string>> rows;
};

Csv parse_csv(const std::string& text) {
    Csv csv;
    std::istringstream in(text);
    std::string line;
    using Tokens = boost::tokenizer<boost::escaped_list_separator<char>>;
    for (bool first = true; std::getline(in, line); first = false) {
        const Tokens tokens(line, boost::escaped_list_separator<char>('\\', ',', '"'));
        std::vector<std::string> cells(tokens.begin(), tokens.end());
        if (first) {
            csv.header = cells;
            continue;
        }
        REQUIRE(cells.size() == csv.header.size());
        std::map<std::string, std::string> row;
        for (std::size_t i = 0; i < cells.size(); ++i) row[csv.header[i]] = cells[i];
        csv.rows.push_back(std::move(row));
    }
    return csv;
}

const std::map<std::string, std::string>& row_of(const Csv& csv, const std::string& metric) {
    for (const auto& r : csv.rows)
        if (r.at("metric") == metric) return r;
    FAIL("no row for " << metric);
    return csv.rows.front();
}

// The table line of `metric`.
std::string table_line(const std::string& table, const std::string& metric) {
    std::istringstream in(table);
    for (std::string line; std::getline(in, line);)
        if (line.rfind(metric + " ", 0) == 0) return line;
    return {};
}

}  // namespace

// ---------------------------------------------------------------------------------------------
// Exact results with unresolved mass: bounds, not a mean and a confidence interval.

TEST_CASE("exact with unresolved mass: the mean is empty, its bounds in mean_low and mean_high",
          "[cli][exact][labels]") {
    const auto dir = temp("exact");
    const auto r = test::cli({"exact", "bosconian", "--out", dir.string()});
    REQUIRE(r.code == 0);
    const Csv csv = parse_csv(slurp(dir / "summary.csv"));
    REQUIRE(csv.header.size() >= 3);
    CHECK(csv.header[csv.header.size() - 3] == "unresolved");  // the new columns come last
    CHECK(csv.header[csv.header.size() - 2] == "mean_low");
    CHECK(csv.header[csv.header.size() - 1] == "mean_high");
    for (const char* m : {"win", "damage", "sectors_entered"}) {  // the random layout's wrap
        INFO(m);
        const auto& row = row_of(csv, m);
        CHECK(std::stod(row.at("unresolved")) > 0);
        CHECK(row.at("mean").empty());  // not known: not a lower bound dressed as a mean
        CHECK(std::stod(row.at("mean_low")) < std::stod(row.at("mean_high")));
        CHECK(row.at("mean_low") == row.at("ci_low"));
        CHECK(row.at("mean_high") == row.at("ci_high"));
    }
    // Fully resolved: the mean, and bounds equal to it.
    const auto& placed = row_of(csv, "bases_placed");
    CHECK(placed.at("unresolved") == "0");
    CHECK_FALSE(placed.at("mean").empty());
    CHECK(placed.at("mean_low") == placed.at("mean"));
    CHECK(placed.at("mean_high") == placed.at("mean"));
    // The table heads the column as bounds, and shows the unknown mean as "?".
    CHECK(r.out.find("95% CI") == std::string::npos);
    CHECK(r.out.find("bounds") != std::string::npos);
    const std::string win = table_line(r.out, "win");
    REQUIRE_FALSE(win.empty());
    CHECK(win.substr(18, 11) == "          ?");
    CHECK(table_line(r.out, "bases_placed").find("7.000000") != std::string::npos);
    fs::remove_all(dir);
}

TEST_CASE("Monte Carlo summaries keep every byte, the bound columns left empty at the end",
          "[cli][labels][reports]") {
    Summary s;
    s.metric = "win";
    s.kind = MetricKind::rate;
    s.n = 4;
    s.mean = 0.5;
    s.stddev = 0.5;
    s.ci = {0.25, 0.75};
    s.max = 1;
    s.p50 = 1;
    const RunInfo mc{"g", "a=1", "p", 7, 4, false, false};
    CHECK(summary_csv(mc, {s}) ==
          "game,scenario,policy,seed,playouts,metric,mean,stddev,ci_low,ci_high,min,p05,p25,p50,"
          "p75,p95,max,skewness,method,status,unresolved,mean_low,mean_high\n"
          "g,a=1,p,7,4,win,0.5,0.5,0.25,0.75,0,0,0,1,0,0,1,0,monte_carlo,complete,,,\n");
    std::ostringstream table;
    print_table(table, mc, {s});
    CHECK(table.str().find("95% CI") != std::string::npos);
    CHECK(table.str().find("bounds") == std::string::npos);
    // The same row, exact: the bounds filled in.
    const RunInfo ex{"g", "a=1", "p", 0, 0, true, false};
    s.ci = {0.5, 0.5};
    CHECK(summary_csv(ex, {s}).find(",exact,complete,0,0.5,0.5\n") != std::string::npos);
}

TEST_CASE("the exact balance row of a game with unresolved mass is bounded, its mean unknown",
          "[reports][labels]") {
    Summary a, b;
    a.metric = "a_win";
    b.metric = "b_win";
    a.mean = b.mean = std::nan("");
    a.ci = {0.5, 0.6};  // 0.1 unresolved
    b.ci = {0.3, 0.4};
    a.unresolved = b.unresolved = 0.1;
    const auto bal = balance_row({a, b}, "a_win", "b_win", 0, true);
    REQUIRE(bal);
    CHECK(std::isnan(bal->mean));
    CHECK(bal->bounded());
    CHECK(bal->ci.low == Approx(1 - 0.3));   // a 0.6, b 0.3
    CHECK(bal->ci.high == Approx(1 - 0.1));  // a 0.5, b 0.4
    // Bounds that allow an even game reach 1.
    b.ci = {0.45, 0.55};
    CHECK(balance_row({a, b}, "a_win", "b_win", 0, true)->ci.high == Approx(1.0));
}
