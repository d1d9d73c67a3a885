// odds check for CI: --tolerance (a change no larger than the designer cares about is not an
// alarm), and the --junit and --json reports beside an unchanged table. The reports' structure
// is also read back by real parsers (python3's json and xml.etree) in tests/check_reports.sh.
#include <unistd.h>

#include <catch2/catch.hpp>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

#include "reports/check_report.hpp"
#include "tests/helpers.hpp"

using namespace odds;
namespace fs = std::filesystem;

namespace {

using test::cli;

fs::path temp(const std::string& name) { return test::temp_path("check", name); }

// The committed Bosconian baseline (hull=100, 1M playouts). Re-run at hull=95 its win rate
// moves by -0.005001 with an alarm threshold of 0.000962; damage by -4.81, sectors_entered by
// -0.344, bases_destroyed by -0.107.
const std::string kBosconian =
    std::string(ODDS_SOURCE_DIR) + "/engine/bosconian/bosconian.baseline";

ShiftTest shift(double diff, double threshold) {
    ShiftTest t;
    t.diff = diff;
    t.se = threshold / 3;
    t.threshold = threshold;
    t.detectable = threshold * 1.3;
    t.moved = std::abs(diff) > threshold;
    return t;
}

}  // namespace

TEST_CASE("the tolerance's verdicts: moved only beyond the tolerance plus the alarm threshold",
          "[check][tolerance]") {
    // Statistical: |shift| > X + threshold is moved; threshold < |shift| <= X + threshold is
    // tolerated; within the threshold, unchanged. No tolerance is X = 0, the plain test.
    CHECK(statistical_verdict(shift(0.0048, 0.001), std::nullopt) == Verdict::moved);
    CHECK(statistical_verdict(shift(-0.0048, 0.001), 0.0) == Verdict::moved);
    CHECK(statistical_verdict(shift(-0.0048, 0.001), 0.003) == Verdict::moved);
    CHECK(statistical_verdict(shift(-0.0048, 0.001), 0.0045) == Verdict::tolerated);
    CHECK(statistical_verdict(shift(-0.0048, 0.001), 0.005) == Verdict::tolerated);
    CHECK(statistical_verdict(shift(0.0005, 0.001), 0.005) == Verdict::unchanged);
    CHECK(statistical_verdict(shift(0.0005, 0.001), std::nullopt) == Verdict::unchanged);
    // A constant metric (no spread): any shift beyond X moves, a smaller one is tolerated.
    ShiftTest flat;
    flat.diff = 1;
    CHECK(statistical_verdict(flat, std::nullopt) == Verdict::moved);
    CHECK(statistical_verdict(flat, 0.5) == Verdict::moved);
    CHECK(statistical_verdict(flat, 1.0) == Verdict::tolerated);
    flat.diff = 0;
    CHECK(statistical_verdict(flat, std::nullopt) == Verdict::unchanged);
    // Exact: matching counts are unchanged; differing counts are tolerated when the mean moved by
    // at most X, and moved otherwise or without a tolerance.
    CHECK(exact_verdict(true, 0, std::nullopt) == Verdict::unchanged);
    CHECK(exact_verdict(false, 0, std::nullopt) == Verdict::moved);
    CHECK(exact_verdict(false, 1e-5, 1e-5) == Verdict::tolerated);
    CHECK(exact_verdict(false, -2e-5, 1e-5) == Verdict::moved);
}

TEST_CASE("check --tolerance: a shift beyond the tolerance still fails, a smaller one passes",
          "[check][tolerance]") {
    const std::vector<std::string> others = {"--tolerance", "damage=5",
                                             "--tolerance", "sectors_entered=0.4",
                                             "--tolerance", "bases_destroyed=0.12"};
    auto check = [&](const std::string& win) {
        std::vector<std::string> args = {"check",         kBosconian,    "--set",     "hull=95",
                                         "--no-progress", "--tolerance", "win=" + win};
        args.insert(args.end(), others.begin(), others.end());
        return cli(args);
    };
    // 0.003 + 0.000962 < 0.005001: the shift is shown to exceed the tolerance.
    const auto beyond = check("0.003");
    INFO(beyond.out << beyond.err);
    CHECK(beyond.code == 1);
    CHECK(beyond.out.find("MOVED      win") != std::string::npos);
    CHECK(beyond.out.find("(alarm above 0.003962: tolerance 0.003 + 0.0009622;") !=
          std::string::npos);
    CHECK(beyond.out.find("tolerated  damage") != std::string::npos);
    CHECK(beyond.out.find("=> the balance MOVED") != std::string::npos);
    CHECK(beyond.out.find(
              "; tolerance win=0.003, damage=5, sectors_entered=0.4, bases_destroyed=0.12\n") !=
          std::string::npos);
    // 0.005: every shift is within its tolerance; the check passes, saying so.
    const auto within = check("0.005");
    INFO(within.out << within.err);
    CHECK(within.code == 0);
    CHECK(test::occurrences(within.out, "\n  tolerated  ") == 4);
    CHECK(within.out.find("=> unchanged within tolerance") != std::string::npos);
    // 0.0045 is below the shift seen, but not by more than the noise: not shown to exceed it.
    CHECK(check("0.0045").code == 0);
    // A tolerance on one metric leaves the others' alarms alone.
    const auto one =
        cli({"check", kBosconian, "--set", "hull=95", "--no-progress", "--tolerance", "win=0.01"});
    CHECK(one.code == 1);
    CHECK(one.out.find("tolerated  win") != std::string::npos);
    CHECK(one.out.find("MOVED      damage") != std::string::npos);
}

TEST_CASE("check --tolerance in exact mode: differing counts pass when the mean moved by at most X",
          "[check][tolerance]") {
    const auto file = temp("exact.baseline");
    REQUIRE(
        cli({"baseline", "bosconian", "-n", "20k", "--no-progress", "--out", file.string()}).code ==
        0);
    // One playout moved from a loss to a win: the counts differ, the win rate moved by 1/20000.
    test::move_one_loss_to_a_win(file);

    const auto plain = cli({"check", file.string(), "--no-progress"});
    CHECK(plain.code == 1);
    CHECK(plain.out.find("MOVED      win") != std::string::npos);
    const auto within = cli({"check", file.string(), "--no-progress", "--tolerance", "win=0.0001"});
    INFO(within.out);
    CHECK(within.code == 0);
    CHECK(within.out.find("exact check") != std::string::npos);
    CHECK(within.out.find("tolerated  win") != std::string::npos);
    CHECK(within.out.find("counts differ: mean shift -5e-05 within tolerance 0.0001") !=
          std::string::npos);
    CHECK(within.out.find("unchanged  damage") != std::string::npos);
    const auto beyond =
        cli({"check", file.string(), "--no-progress", "--tolerance", "win=0.00001"});
    CHECK(beyond.code == 1);
    CHECK(beyond.out.find("MOVED      win") != std::string::npos);
    CHECK(beyond.out.find("beyond tolerance 1e-05") != std::string::npos);
    fs::remove(file);
}

TEST_CASE("check --tolerance, --junit and --json refuse bad values with exit 2, writing nothing",
          "[check][cli]") {
    const auto dir = temp("reports");
    const std::string junit = (dir / "sub" / "j.xml").string(),
                      json = (dir / "sub" / "c.json").string();
    fs::remove_all(dir);
    const auto copy = temp("copy.baseline");
    fs::copy_file(kBosconian, copy, fs::copy_options::overwrite_existing);
    struct Case {
        std::vector<std::string> args;
        std::string says;
    };
    const Case cases[] = {
        {{"--tolerance", "wins=0.005"},
         "--tolerance 'wins=0.005': no baseline given records a metric 'wins' (did you mean "
         "'win'?) "
         "(valid: win, damage, sectors_entered, bases_destroyed)"},
        {{"--tolerance", "win=-0.1"}, "--tolerance 'win=-0.1': '-0.1' is not a number >= 0"},
        {{"--tolerance", "win=abc"}, "--tolerance 'win=abc': 'abc' is not a number >= 0"},
        {{"--tolerance", "win="}, "--tolerance 'win=': '' is not a number >= 0"},
        {{"--tolerance", "win=nan"}, "'nan' is not a number >= 0"},
        {{"--tolerance", "win=inf"}, "'inf' is not a number >= 0"},
        {{"--tolerance", "win=0.1%"}, "'0.1%' is not a number >= 0"},
        {{"--tolerance", "win"}, "--tolerance 'win' is not METRIC=X"},
        {{"--tolerance", "=0.1"}, "--tolerance '=0.1' is not METRIC=X"},
        {{"--tolerance", "win=0.1", "--tolerance", "win=0.2"}, "win is given a tolerance twice"},
        {{"--tolerance"}, "option '--tolerance' needs a value"},
        {{"--junit"}, "option '--junit' needs a value"},
        {{"--junit", fs::temp_directory_path().string()},
         "--junit '" + fs::temp_directory_path().string() + "' is a directory"},
        {{"--json", "/proc/odds/c.json"}, "--json '/proc/odds/c.json' cannot be created"},
        {{"--junit", junit, "--json", (dir / "sub" / ".." / "sub" / "j.xml").string()},
         "--junit and --json name the same file"},
        // A report never overwrites a baseline (a copy here, should that ever fail).
        {{copy.string(), "--json", copy.string()},
         "--json '" + copy.string() + "' is the baseline '" + copy.string() + "'"},
    };
    for (const auto& c : cases) {
        std::vector<std::string> args = {"check", kBosconian, "--no-progress"};
        // Reports asked for beside the bad value are not written, nor their folder made.
        if (std::find(c.args.begin(), c.args.end(), "--junit") == c.args.end() &&
            std::find(c.args.begin(), c.args.end(), "--json") == c.args.end())
            args.insert(args.end(), {"--junit", junit, "--json", json});
        args.insert(args.end(), c.args.begin(), c.args.end());
        const auto r = cli(args);
        test::check_refused(r, c.says, dir);
    }
    CHECK(test::slurp(copy) == test::slurp(kBosconian));
    fs::remove(copy);
    fs::remove_all(dir);  // made only if a case above failed
}

TEST_CASE(
    "check --junit and --json: written beside an unchanged table, every metric of every baseline",
    "[check][report]") {
    const auto dir = temp("written");
    fs::remove_all(dir);
    const auto junit = dir / "ci" / "balance.xml", json = dir / "json" / "balance.json";
    const std::vector<std::string> base = {"check",   kBosconian,    "--no-progress", "--set",
                                           "hull=95", "--tolerance", "win=0.005"};
    const auto table = cli(base);
    auto with = base;
    with.insert(with.end(), {"--junit", junit.string(), "--json", json.string()});
    const auto r = cli(with);
    CHECK(r.code == 1);
    CHECK(r.out == table.out);  // the table alone on stdout, as without the reports
    CHECK(r.err.find("odds check: wrote " + junit.string()) != std::string::npos);
    // Folders made; no temporary file left behind.
    REQUIRE(fs::exists(junit));
    REQUIRE(fs::exists(json));
    CHECK(std::distance(fs::directory_iterator(junit.parent_path()), fs::directory_iterator{}) ==
          1);

    const std::string x = test::slurp(junit);
    CHECK(x.rfind("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"odds check\" "
                  "tests=\"4\" "
                  "failures=\"3\" errors=\"0\" time=\"",
                  0) == 0);
    CHECK(x.find("<testsuite name=\"" + kBosconian +
                 "\" tests=\"4\" failures=\"3\" errors=\"0\" skipped=\"0\"") != std::string::npos);
    CHECK(test::occurrences(x, "<testcase classname=\"" + kBosconian + "\" name=\"") == 4);
    CHECK(test::occurrences(x, "<failure type=\"moved\"") == 3);
    CHECK(x.find("name=\"win\">\n      <system-out>tolerated: win") != std::string::npos);
    CHECK(
        x.find("message=\"damage moved: shift -4.812, alarm above 0.03312; detectable 0.04073\"") !=
        std::string::npos);
    CHECK(x.find("<property name=\"mode\" value=\"statistical\"/>") != std::string::npos);

    const std::string j = test::slurp(json);
    CHECK(j.find("\"verdict\": \"moved\",\n  \"exit_code\": 1,") != std::string::npos);
    CHECK(j.find("\"file\": \"" + kBosconian + "\"") != std::string::npos);
    CHECK(
        j.find("\"rules_version\": {\"baseline\": \"bosconian/2\", \"build\": \"bosconian/2\"}") !=
        std::string::npos);
    CHECK(j.find("\"mode\": \"statistical\"") != std::string::npos);
    CHECK(j.find("{\"name\": \"win\", \"kind\": \"rate\", \"verdict\": \"tolerated\"") !=
          std::string::npos);
    CHECK(j.find("\"shift\": -0.005000") != std::string::npos);  // -0.005001 in binary
    CHECK(j.find("\"counts_match\": null, \"threshold\": 0.000962") != std::string::npos);
    CHECK(
        j.find(
            "\"tolerance\": 0.005,\n         \"target\": null,\n         \"sequential\": null}") !=
        std::string::npos);
    CHECK(test::occurrences(j, "\"verdict\": \"moved\"") ==
          1 + 1 + 3);  // overall, the baseline, 3 metrics

    // Exact mode, unchanged: every test case passes; exit 0.
    const auto same = cli(
        {"check", kBosconian, "--no-progress", "--junit", junit.string(), "--json", json.string()});
    CHECK(same.code == 0);
    CHECK(test::slurp(junit).find("tests=\"4\" failures=\"0\"") != std::string::npos);
    CHECK(test::slurp(junit).find("<failure") == std::string::npos);
    const std::string j2 = test::slurp(json);
    CHECK(j2.find("\"verdict\": \"unchanged\",\n  \"exit_code\": 0,") != std::string::npos);
    CHECK(j2.find("\"mode\": \"exact\",\n      \"reason\": null,") != std::string::npos);
    CHECK(test::occurrences(j2, "\"counts_match\": true, \"threshold\": null") == 4);
    fs::remove_all(dir);
}

TEST_CASE("the reports' escaping: XML and JSON hold any file name", "[check][report]") {
    CHECK(xml_escape("a&b<c>\"d'e") == "a&amp;b&lt;c&gt;&quot;d&apos;e");
    CHECK(xml_escape("tab\there\nnl") == "tab&#9;here&#10;nl");
    // Characters XML 1.0 cannot hold and malformed UTF-8 become U+FFFD; good UTF-8 stays.
    CHECK(xml_escape(std::string("x\x01y", 3)) == "x\xEF\xBF\xBDy");
    CHECK(xml_escape("caf\xC3\xA9 \xE2\x82\xAC") == "caf\xC3\xA9 \xE2\x82\xAC");
    CHECK(xml_escape("bad\xFF") == "bad\xEF\xBF\xBD");
    CHECK(xml_escape("\xC0\xAF") == "\xEF\xBF\xBD\xEF\xBF\xBD");                  // overlong '/'
    CHECK(xml_escape("\xED\xA0\x80") == "\xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD");  // a surrogate
    CHECK(xml_escape("cut\xE2\x82") == "cut\xEF\xBF\xBD\xEF\xBF\xBD");

    CHECK(json_string("a\"b\\c/d") == "\"a\\\"b\\\\c/d\"");
    CHECK(json_string("\n\t\r\b\f") == "\"\\n\\t\\r\\b\\f\"");
    CHECK(json_string(std::string("\x01\x1f", 2)) == "\"\\u0001\\u001f\"");
    CHECK(json_string("\xFF") == "\"\xEF\xBF\xBD\"");
    CHECK(json_string("\xF0\x9F\x8E\xB2") == "\"\xF0\x9F\x8E\xB2\"");  // a die, 4 bytes

    CHECK(json_number(0.1) == "0.1");
    CHECK(json_number(-0.0) == "0");
    CHECK(json_number(1e-300) == "1e-300");
    CHECK(json_number(1000000) == "1000000");
    CHECK(json_number(std::numeric_limits<double>::quiet_NaN()) == "null");
    CHECK(json_number(std::numeric_limits<double>::infinity()) == "null");
}
