// The HTML report: the SVG writer's scales, ticks and escaping; the report made from a folder's
// files alone (the same page from --report and from `odds report DIR`); its charts per kind; and
// the CLI's --report, provenance.csv and check.csv. tests/report_browser.sh renders the pages in
// Chromium.
#include <catch2/catch.hpp>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <set>
#include <string>

#include "reports/csv.hpp"
#include "reports/html_report.hpp"
#include "reports/svg.hpp"
#include "tests/helpers.hpp"

namespace fs = std::filesystem;
using namespace odds;
using odds::test::cli;
using odds::test::occurrences;
using odds::test::slurp;
using odds::test::temp_path;

namespace {

void write(const fs::path& p, const std::string& text) {
    fs::create_directories(p.parent_path());
    std::ofstream(p, std::ios::binary) << text;
}

}  // namespace

TEST_CASE("svg: a linear scale maps the data's ends onto the drawing's, inverted for y",
          "[report]") {
    const svg::LinearScale x{0, 10, 70, 670};
    CHECK(x(0) == 70);
    CHECK(x(10) == 670);
    CHECK(x(2.5) == 220);
    const svg::LinearScale y{0, 1, 300, 50};  // up the page
    CHECK(y(0) == 300);
    CHECK(y(1) == 50);
    CHECK(y(0.2) == Approx(250));
    CHECK(svg::LinearScale{3, 3, 0, 100}(3) == 50);  // an empty domain: the middle
}

TEST_CASE("svg: ticks are 1, 2 or 5 times a power of ten and cover the range", "[report]") {
    const auto t = svg::nice_ticks(0, 1, 5);
    CHECK(t.step == Approx(0.2));
    REQUIRE(t.values.size() == 6);
    CHECK(t.values.front() == 0);
    CHECK(t.values.back() == Approx(1));

    const auto u = svg::nice_ticks(3, 97, 5);
    CHECK(u.step == 20);
    CHECK(u.values.front() == 0);
    CHECK(u.values.back() == 100);

    const auto v = svg::nice_ticks(-0.013, 0.021, 4);
    CHECK(v.step == Approx(0.01));
    CHECK(v.values.front() == Approx(-0.02));
    CHECK(v.values.back() == Approx(0.03));
    for (double x : v.values) CHECK(std::abs(x / v.step - std::round(x / v.step)) < 1e-9);

    const auto w = svg::nice_ticks(-150, 150, 6);
    CHECK(w.step == 50);
    CHECK(w.values.size() == 7);

    const auto same = svg::nice_ticks(5, 5, 5);  // one value: widened, never a single tick
    CHECK(same.values.size() >= 2);
    CHECK(same.values.front() <= 5);
    CHECK(same.values.back() >= 5);

    CHECK(svg::tick_label(0.5, 0.25) == "0.50");
    CHECK(svg::tick_label(20, 20) == "20");
    CHECK(svg::tick_label(-1e-17, 0.1) == "0.0");  // no "-0.0"
    CHECK(svg::num(0.038459) == "0.03846");
    CHECK(svg::num(1200) == "1200");
    CHECK(svg::num(2.5) == "2.5");
    CHECK(svg::num(-0.0004590000000000011) == "-0.000459");
    CHECK(svg::num(std::nan("")) == "?");
}

TEST_CASE("svg: a policy or option with <, & or quotes cannot break the page", "[report]") {
    const std::string evil = "<script>alert(\"&\")</script>'x'";
    CHECK(svg::escape(evil) ==
          "&lt;script&gt;alert(&quot;&amp;&quot;)&lt;/script&gt;&apos;x&apos;");
    const std::vector<std::string> charts = {
        svg::forest_chart(evil, evil, {{evil, 1, 0, 2, evil, 0, evil}}, 0.0, svg::Band{0, 1, evil},
                          {evil}),
        svg::heatmap_chart(evil, evil, evil, {evil}, {evil}, {{0.5}}, {{evil}}),
        svg::line_chart(evil, evil, evil, {{evil, {0}, {1}, {0}, {2}}}, {evil}),
        svg::distribution_chart(evil, evil, {{evil, {0, 1}, {0.5, 0.5}, {1, 0.5}, {evil, evil}}}),
        svg::survival_chart(evil, evil, evil, {{evil, {1, 2}, {0.5, 0.2}, {true, false}}})};
    for (const auto& c : charts) {
        CHECK(c.find("<script") == std::string::npos);
        CHECK(c.find("&lt;script&gt;") != std::string::npos);
        CHECK(c.rfind("<svg", 0) == 0);
        CHECK(c.find("</svg>") == c.size() - 6);
        CHECK(occurrences(c, "<title>") >= 2);  // the chart's own, and the marks' hover text
    }
}

TEST_CASE("csv: files read back field by field, quotes, commas and line breaks included",
          "[report]") {
    const auto t = parse_csv("a,b,c\r\n1,\"x, \"\"y\"\"\",\n\"line\nbreak\",,3\n");
    REQUIRE(t.header == std::vector<std::string>{"a", "b", "c"});
    REQUIRE(t.rows.size() == 2);
    CHECK(t.at(0, "b") == "x, \"y\"");
    CHECK(t.at(0, "c").empty());
    CHECK(t.at(1, "a") == "line\nbreak");
    CHECK(t.at(1, "c") == "3");
    CHECK(t.at(1, "nothing").empty());
    CHECK(!t.has("nothing"));
    // Every CSV odds writes reads back to its fields.
    RunInfo info{"g", "layout=4,9 name=\"q\"", "p", 1, 10, false, false};
    const auto s = parse_csv(summary_csv(info, {}));
    CHECK(s.header.front() == "game");
    CHECK(command_line("run", {"bosconian", "--set", "layout=4,9", "--policy", "a b", "it's"}) ==
          "odds run bosconian --set layout=4,9 --policy 'a b' 'it'\\''s'");
}

TEST_CASE("report: hand-written files with markup in every text cell stay text", "[report]") {
    const fs::path dir = temp_path("report", "evil");
    fs::remove_all(dir);
    const std::string evil = "\"<b>&amp;</b>\"\"'";  // a CSV field: <b>&amp;</b>"'
    write(dir / "sweep.csv",
          "game,scenario,policy,seed,playouts,opt,metric,mean,stddev,ci_low,ci_high,status\n"
          "race,s," +
              evil +
              ",1,100,a<b,win,0.5,0.5,0.4,0.6,complete\n"
              "race,s," +
              evil + ",1,100,c&d,win,0.6,0.5,0.5,0.7,complete\n");
    const std::string html = report_html(dir);
    CHECK(html.find("<b>") == std::string::npos);
    CHECK(html.find("&lt;b&gt;&amp;amp;&lt;/b&gt;&quot;&apos;") != std::string::npos);
    CHECK(html.find("a&lt;b") != std::string::npos);
    CHECK(html.find("c&amp;d") != std::string::npos);
    CHECK(occurrences(html, "<svg") == 1);                                   // win against opt
    CHECK(html.find("<script") == std::string::npos);                        // no script at all
    CHECK(html.find("http://") == html.find("http://www.w3.org/2000/svg"));  // no network
    fs::remove_all(dir);
}

TEST_CASE("report: a folder without odds's files is refused", "[report]") {
    const fs::path dir = temp_path("report", "empty");
    fs::remove_all(dir);
    fs::create_directories(dir);
    CHECK(report_inputs(dir).empty());
    CHECK_THROWS(report_html(dir));
    const auto r = cli({"report", dir.string()});
    CHECK(r.code == 2);
    CHECK(r.err.find("holds none of the files odds writes") != std::string::npos);
    CHECK(!fs::exists(dir / "report.html"));
    const auto missing = cli({"report", (dir / "nope").string()});
    CHECK(missing.code == 2);
    CHECK(missing.err.find("is not a folder") != std::string::npos);
    CHECK(cli({"report"}).code == 2);
    fs::remove_all(dir);
}

TEST_CASE("report: a file past the input bound is refused before it is read", "[report]") {
    // Issue 40: a 1 GiB distributions.csv was read whole (4 GB, 50 s) before it was refused.
    const fs::path dir = temp_path("report", "huge");
    fs::remove_all(dir);
    REQUIRE(cli({"run", "bosconian", "-n", "100", "--no-progress", "--out", dir.string()}).code ==
            0);
    fs::resize_file(dir / "distributions.csv", std::uintmax_t{1} << 30);  // sparse: no disk used
    const auto r = cli({"report", dir.string()});
    CHECK(r.code == 2);
    CHECK(r.err == "odds report: the report's input '" + (dir / "distributions.csv").string() +
                       "' is 1.0 GiB; odds reads at most 512.0 MiB of it\n");
    CHECK(!fs::exists(dir / "report.html"));
    fs::remove_all(dir);
}

TEST_CASE("report: odds report reads a sweep of an option whose name holds dots", "[report]") {
    // Found while issue 41 checked every report kind: sweep.csv's column of squad.size was
    // refused as "not a header of column names" by odds report (--report itself wrote it).
    const fs::path dir = temp_path("report", "dotted");
    fs::remove_all(dir);
    REQUIRE(cli({"sweep", "fpb", "--vary", "squad.size=6..7", "-n", "200", "--no-progress", "--out",
                 dir.string()})
                .code == 0);
    const auto r = cli({"report", dir.string()});
    INFO(r.err);
    CHECK(r.code == 0);
    CHECK(fs::exists(dir / "report.html"));
    fs::remove_all(dir);
}

TEST_CASE("report: --report without --out is bad input, exit 2, nothing played or written",
          "[report][cli]") {
    for (const std::vector<std::string>& args :
         {std::vector<std::string>{"run", "race", "--report"},
          {"exact", "race", "--report"},
          {"compare", "race", "--policy", "best", "--policy", "walk", "--report"},
          {"sweep", "race", "--vary", "goal=10,20", "--report"},
          {"check", ODDS_SOURCE_DIR "/engine/race/race.baseline", "--report"}}) {
        const auto r = cli(args);
        CHECK(r.code == 2);
        CHECK(r.err == "odds " + args.front() +
                           ": --report writes report.html beside the CSV files: give --out DIR "
                           "too\n");
        CHECK(r.out.empty());
    }
}

TEST_CASE("run --report: the page is a function of the folder, as odds report DIR makes it",
          "[report][cli]") {
    const fs::path dir = temp_path("report", "run");
    fs::remove_all(dir);
    const auto r = cli({"run", "race", "-n", "2000", "--out", dir.string(), "--report", "-j", "2"});
    REQUIRE(r.code == 0);
    const std::string page = slurp(dir / "report.html");
    // Every metric's distribution, exact and Monte Carlo on one chart (race has a solver), and
    // its survival table.
    const auto summary = parse_csv(slurp(dir / "summary.csv"));
    const auto surv = parse_csv(slurp(dir / "survival.csv"));
    CHECK(fs::exists(dir / "exact" / "distributions.csv"));
    CHECK(occurrences(page, "<svg") == summary.rows.size() + (surv.rows.empty() ? 0 : 1));
    // A metric that is 0 or 1 a playout (race's win) is drawn as its rate with its interval,
    // the exact rate beside it; every other as bars, the exact law on the same chart.
    const std::size_t rates = occurrences(page, ": the share of playouts (0 to 1)");  // its axis
    CHECK(rates >= 1);
    CHECK(occurrences(page, "the exact rate (its bounds, from exact/)") == rates);
    CHECK(occurrences(page, "exact: P(X = x)") == summary.rows.size() - rates);
    CHECK(occurrences(page, "<details") == occurrences(page, "<svg") + 1);  // + the summary
    const auto prov = parse_csv(slurp(dir / "provenance.csv"));
    REQUIRE(prov.rows.size() == 1);
    CHECK(prov.at(0, "command") == "run");
    CHECK(prov.at(0, "game") == "race");
    CHECK(prov.at(0, "rules_version") == find_game("race").rules_version);
    // Rebuilt from what was parsed: the same however typed or shared (docs/output.md).
    CHECK(prov.at(0, "command_line") == "odds run race --playouts=2000 --report");
    CHECK(page.find(prov.at(0, "command_line")) != std::string::npos);
    CHECK(page.find("<dt>seed</dt><dd>1</dd>") != std::string::npos);
    CHECK(page.find("<dt>playouts</dt><dd>2000</dd>") != std::string::npos);
    // The survival chart's axis says what a step is (survival.csv's step_metric), its title the
    // event it counts (survival.csv's event), its y axis what survives.
    CHECK(page.find(">turns</text>") != std::string::npos);
    CHECK(page.find(">How long until the race is lost? (in turns)</text>") != std::string::npos);
    CHECK(page.find(">share of playouts before the race is lost</text>") != std::string::npos);
    // Every chart asks its question; each metric is described in the game's words (metrics.csv).
    std::size_t questions = 0;
    for (auto at = page.find("class=\"title\""); at != std::string::npos;
         at = page.find("class=\"title\"", at + 1)) {
        const auto text = page.find('>', at) + 1;
        questions += page.substr(text, page.find('<', text) - text).find('?') != std::string::npos;
    }
    CHECK(questions == occurrences(page, "<svg"));
    const auto words = parse_csv(slurp(dir / "metrics.csv"));
    REQUIRE(words.rows.size() == summary.rows.size());
    for (std::size_t k = 0; k < words.rows.size(); ++k) {
        CHECK(words.at(k, "game") == "race");
        // A count says its unit, and its axes say it ("square, squares (a playout's value)").
        CHECK((words.at(k, "kind") == "rate") == words.at(k, "unit").empty());
        if (words.at(k, "kind") == "count" && words.at(k, "unit") != words.at(k, "metric"))
            CHECK(page.find(">" + words.at(k, "metric") + ", " + words.at(k, "unit") +
                            " (a playout&apos;s value)</text>") != std::string::npos);
        CHECK(page.find("<h3>" + words.at(k, "metric") + "</h3><p class=\"what\">" +
                        words.at(k, "description")) != std::string::npos);
    }
    fs::remove(dir / "report.html");
    const auto again = cli({"report", dir.string()});
    CHECK(again.code == 0);
    CHECK(slurp(dir / "report.html") == page);
    // A run without --report leaves exact/ as it was; its law, of another scenario, is not drawn.
    REQUIRE(cli({"run", "race", "-n", "500", "--set", "goal=10", "--out", dir.string()}).code == 0);
    CHECK(fs::exists(dir / "exact" / "distributions.csv"));
    REQUIRE(cli({"report", dir.string()}).code == 0);
    CHECK(occurrences(slurp(dir / "report.html"), "exact: P(X = x)") == 0);
    fs::remove_all(dir);
}

TEST_CASE("compare, tournament, sweep, check and tune --report draw their charts",
          "[report][cli]") {
    const fs::path base = temp_path("report", "kinds");
    fs::remove_all(base);
    const auto page = [&](const char* kind) { return slurp(base / kind / "report.html"); };
    REQUIRE(cli({"compare", "race", "--policy", "best", "--policy", "walk", "-n", "500", "--out",
                 (base / "compare").string(), "--report"})
                .code == 0);
    const auto cmp = parse_csv(slurp(base / "compare" / "compare.csv"));
    const auto pol = parse_csv(slurp(base / "compare" / "policies.csv"));
    std::set<std::string> compared, metrics;
    for (std::size_t r = 0; r < cmp.rows.size(); ++r) compared.insert(cmp.at(r, "metric"));
    for (std::size_t r = 0; r < pol.rows.size(); ++r) metrics.insert(pol.at(r, "metric"));
    // A forest of differences to the best per compared metric, and of means per metric.
    CHECK(occurrences(page("compare"), "<svg") == compared.size() + metrics.size());
    // Each title twice: the chart's <title> (for screen readers) and its drawn text.
    CHECK(occurrences(page("compare"), "how far is each policy from the best") ==
          2 * compared.size());

    REQUIRE(cli({"tournament", "dimension-duel", "--policy", "dice", "--policy", "aggressor",
                 "--policy", "survivor", "-n", "200", "--out", (base / "tournament").string(),
                 "--report"})
                .code == 0);
    const std::string t = page("tournament");
    CHECK(occurrences(t, "<svg") == 2);                // the heatmap, the ratings
    CHECK(occurrences(t, "<g class=\"cell\">") == 6);  // 3 x 3 less the diagonal
    CHECK(t.find("Bradley-Terry ratings") != std::string::npos);

    REQUIRE(cli({"sweep", "race", "--vary", "goal=10:20:5", "-n", "300", "--out",
                 (base / "sweep").string(), "--report"})
                .code == 0);
    const auto sw = parse_csv(slurp(base / "sweep" / "sweep.csv"));
    std::set<std::string> swept;
    for (std::size_t r = 0; r < sw.rows.size(); ++r) swept.insert(sw.at(r, "metric"));
    CHECK(occurrences(page("sweep"), "<svg") == swept.size());
    CHECK(occurrences(page("sweep"), "how does it move with goal?") == 2 * swept.size());

    const auto c = cli({"check", ODDS_SOURCE_DIR "/engine/race/race.baseline", "-n", "3000",
                        "--out", (base / "check").string(), "--report"});
    REQUIRE(c.code == 0);
    const auto checks = parse_csv(slurp(base / "check" / "check.csv"));
    REQUIRE(!checks.rows.empty());
    CHECK(checks.at(0, "mode") == "statistical");
    CHECK(checks.at(0, "verdict") == "unchanged");
    CHECK(!checks.at(0, "detectable").empty());
    const std::string k = page("check");
    CHECK(occurrences(k, "<svg") == checks.rows.size());
    CHECK(occurrences(k, "baseline ± detectable shift") >= checks.rows.size());

    REQUIRE(cli({"tune", "race", "--vary", "goal=10..30", "--target", "win=0.5", "--out",
                 (base / "tune").string(), "--report"})
                .code == 0);
    const auto tune = parse_csv(slurp(base / "tune" / "tune.csv"));
    REQUIRE(!tune.rows.empty());
    CHECK(tune.at(0, "target") == "win=0.5");
    const std::string u = page("tune");
    CHECK(occurrences(u, "<svg") == 1);  // the path, one row per evaluation
    CHECK(occurrences(u, "<g class=\"row s") == tune.rows.size());
    CHECK(u.find("Best setting: <strong>goal=") != std::string::npos);
    fs::remove_all(base);
}

TEST_CASE("svg: a law of thousands of values is drawn in at most 200 bins, its mass kept",
          "[report]") {
    svg::Law big{"many", {}, {}, {}, {}};
    double above = 1;
    for (int v = 0; v < 1000; ++v) {
        big.x.push_back(v);
        big.p.push_back(1.0 / 1000);
        big.at_least.push_back(above);
        above -= 1.0 / 1000;
    }
    const svg::Law b = svg::binned(big);
    CHECK(b.x.size() == 200);  // bins of 5 values
    CHECK(b.p.front() == Approx(0.005));
    double mass = 0;
    for (double p : b.p) mass += p;
    CHECK(mass == Approx(1));
    CHECK(b.tips.front() == "values 0 to 4");
    CHECK(b.at_least[1] == Approx(big.at_least[5]));
    CHECK(svg::binned(b).x.size() == b.x.size());  // a small law as it is
    const std::string chart = svg::distribution_chart("t", "x", {big});
    CHECK(occurrences(chart, "<rect x=") == 200);
}

TEST_CASE("svg: the tallest bar reaches its value on the probability axis", "[report]") {
    // P(X = 1) = 0.75: the axis runs to 0.8 (nice ticks); the plot area is 56..308 (y up).
    const std::string chart =
        svg::distribution_chart("t", "x", {{"law", {0, 1}, {0.25, 0.75}, {1, 0.75}, {}}});
    const double top = 56, bottom = 308;
    const svg::LinearScale y{0, 0.8, bottom, top};
    char want[64];
    std::snprintf(want, sizeof want, "y=\"%.1f\"", y(0.75));
    INFO(chart);
    CHECK(chart.find(want) != std::string::npos);
    CHECK(chart.find(">0.8</text>") != std::string::npos);  // the top tick of P(X = x)
    CHECK(chart.find(">1.0</text>") != std::string::npos);  // the top tick of P(X >= x)
}

TEST_CASE("check --report: a moved metric is marked MOVED, in its chart and its file's verdict",
          "[report][cli]") {
    const fs::path dir = temp_path("report", "moved");
    fs::remove_all(dir);
    const auto r = cli({"check", ODDS_SOURCE_DIR "/engine/race/race.baseline", "--set", "goal=12",
                        "-n", "5000", "--out", dir.string(), "--report", "--no-progress"});
    REQUIRE(r.code == 1);  // the balance moved
    const auto checks = parse_csv(slurp(dir / "check.csv"));
    std::size_t moved = 0;
    for (std::size_t i = 0; i < checks.rows.size(); ++i)
        moved += checks.at(i, "verdict") == "moved";
    REQUIRE(moved > 0);
    const std::string page = slurp(dir / "report.html");
    CHECK(page.find("<span class=\"moved\">the balance MOVED</span>") != std::string::npos);
    // Each moved metric's new value is marked at its row's end, and its heading says so.
    CHECK(occurrences(page, "<text class=\"mark\"") == checks.rows.size());
    CHECK(occurrences(page, ">MOVED</text>") == moved);
    CHECK(occurrences(page, ": MOVED</h3>") == moved);
    fs::remove_all(dir);
}

TEST_CASE("run --state --report draws the exact law from that position, not a fresh game",
          "[report][cli][position]") {
    const fs::path base = temp_path("report", "state");
    fs::remove_all(base);
    fs::create_directories(base);
    const fs::path pos = base / "pos.txt";
    { std::ofstream(pos) << "hp tau 9\nhp kaon 30\nturn 1\nattacker tau\n"; }
    REQUIRE(cli({"run", "dimension-duel", "--state", pos.string(), "-n", "2000", "--out",
                 (base / "run").string(), "--report"})
                .code == 0);
    REQUIRE(cli({"exact", "dimension-duel", "--state", pos.string(), "--out",
                 (base / "exact").string()})
                .code == 0);
    // The run's exact/ folder holds what odds exact --state gives, scenario and all.
    CHECK(slurp(base / "run" / "exact" / "summary.csv") == slurp(base / "exact" / "summary.csv"));
    CHECK(parse_csv(slurp(base / "run" / "exact" / "summary.csv"))
              .at(0, "scenario")
              .ends_with("state=" + pos.string()));
    CHECK(slurp(base / "run" / "report.html").find("exact law") != std::string::npos);
    fs::remove_all(base);
}

TEST_CASE("svg: a law with one value holding most of the mass is drawn on a log scale",
          "[report][charts]") {
    // Bosconian's damage: 96% at 100, the rest spread thin. On a linear axis the rest would be
    // under a pixel high; on the log scale every value's bar shows.
    svg::Law spike{"Monte Carlo", {}, {}, {}, {}};
    double left = 1;
    for (int v = 0; v <= 100; ++v) {
        const double p = v == 100 ? 0.96 : 0.04 / 100;
        spike.x.push_back(v);
        spike.p.push_back(p);
        spike.at_least.push_back(left);
        left -= p;
    }
    const std::string chart = svg::distribution_chart("damage", "damage", {spike});
    CHECK(chart.find("P(X = x), log scale") != std::string::npos);
    CHECK(chart.find(">0.001</text>") != std::string::npos);  // a decade's tick
    // The smallest bars (0.0004) rise well above the axis: at least a tenth of the plot.
    std::size_t tall = 0;
    for (std::size_t at = chart.find("<rect x="); at != std::string::npos;
         at = chart.find("<rect x=", at + 1)) {
        const auto h = chart.find("height=\"", at);
        if (h != std::string::npos && std::stod(chart.substr(h + 8)) > 25) ++tall;
    }
    CHECK(tall >= 101);
    // An ordinary law keeps its linear axis.
    const std::string plain =
        svg::distribution_chart("t", "x", {{"law", {0, 1, 2}, {0.3, 0.4, 0.3}, {1, 0.7, 0.3}, {}}});
    CHECK(plain.find("log scale") == std::string::npos);
}

TEST_CASE("svg: an exact law with unresolved mass draws P(X >= x) as a bound", "[report][charts]") {
    svg::Law exact{"exact (lower bounds)", {1, 2, 3}, {0.5, 0.2, 0.1}, {0.8, 0.3, 0.1}, {}};
    exact.unresolved = 0.2;
    svg::Law mc{"Monte Carlo", {1, 2, 3}, {0.6, 0.25, 0.15}, {1, 0.4, 0.15}, {}};
    const std::string chart = svg::distribution_chart("t", "x", {mc, exact});
    CHECK(chart.find("P(X ≥ x) at least (a lower bound)") != std::string::npos);
    CHECK(chart.find("lies in the band (0.2 unresolved)") != std::string::npos);
    CHECK(chart.find("<polygon class=\"band\"") != std::string::npos);
    // Without unresolved mass: a plain line, no band.
    exact.unresolved = 0;
    const std::string resolved = svg::distribution_chart("t", "x", {mc, exact});
    CHECK(resolved.find("a lower bound") == std::string::npos);
    CHECK(resolved.find("<polygon class=\"band\"") == std::string::npos);
}

TEST_CASE("svg: a sweep over a whole-number option gets whole-number ticks", "[report][charts]") {
    const std::string chart = svg::line_chart(
        "t", "ships", "win",
        {{"win", {1, 2, 3, 4}, {0.5, 0.4, 0.5, 0.6}, {0.4, 0.3, 0.4, 0.5}, {0.6, 0.5, 0.6, 0.7}}});
    const auto x_axis = chart.substr(chart.find("<g class=\"axis x\""));
    for (const char* t : {">1</text>", ">2</text>", ">3</text>", ">4</text>"})
        CHECK(x_axis.find(t) != std::string::npos);
    CHECK(x_axis.find(">1.5</text>") == std::string::npos);
    CHECK(x_axis.find(".5</text>") == std::string::npos);
    // A fractional option keeps its fractional ticks.
    const std::string frac = svg::line_chart(
        "t", "p", "win", {{"win", {0.1, 0.2, 0.3}, {1, 2, 3}, {1, 2, 3}, {1, 2, 3}}});
    CHECK(frac.substr(frac.find("<g class=\"axis x\"")).find(">0.15</text>") != std::string::npos);
}

TEST_CASE("svg: a heatmap's names are written whole, however long", "[report][charts]") {
    const std::vector<std::string> names = {"balanced/expand/keep-speed", "turtle/strike",
                                            "balanced/rush/keep-guns-and-a-very-long-tail"};
    const std::vector<std::vector<double>> v(3, std::vector<double>(3, 0.5));
    const std::string chart = svg::heatmap_chart("t", "rows", "cols", names, names, v, {});
    CHECK(chart.find("…") == std::string::npos);
    for (const auto& n : names) {
        CHECK(occurrences(chart, ">" + n + "</text>") == 2);  // as a row and as a column
    }
    // The drawing is wide enough for the longest row name at the left.
    const auto w = chart.find("width=\"");
    CHECK(std::stod(chart.substr(w + 7)) > 6.6 * static_cast<double>(names[2].size()) + 3 * 44);
}

TEST_CASE("report: the tournament page names its playouts; compare charts follow the ranking",
          "[report][charts]") {
    const fs::path dir = temp_path("report", "ranked");
    fs::remove_all(dir);
    std::string t =
        "game,scenario,seed,playouts,first_seat,first_policy,second_seat,second_policy,result,"
        "rate,ci_low,ci_high,status\n";
    for (const char* a : {"x", "y"})
        for (const char* b : {"x", "y"})
            if (std::string(a) != b)
                for (const char* r : {"first_wins", "draw", "second_wins"})
                    t += std::string("g,s,1,500,p,") + a + ",q," + b + "," + r +
                         ",0.3,0.2,0.4,complete\n";
    write(dir / "tour/tournament.csv", t);
    const std::string tour = report_html(dir / "tour");
    CHECK(tour.find("500 games per pairing, 2 pairings") != std::string::npos);
    CHECK(tour.find("1000 games") != std::string::npos);

    // compare.csv in the order given (a before b); the ranking says c, then b, then a.
    write(dir / "cmp/compare.csv",
          "game,scenario,seed,playouts,metric,policy_a,policy_b,mean_a,mean_b,diff,ci_low,ci_high,"
          "p_value,p_holm,status\n"
          "g,s,1,100,win,a,b,0.1,0.2,-0.1,-0.2,0,0.01,0.03,complete\n"
          "g,s,1,100,win,a,c,0.1,0.5,-0.4,-0.5,-0.3,0.01,0.03,complete\n"
          "g,s,1,100,win,b,c,0.2,0.5,-0.3,-0.4,-0.2,0.01,0.03,complete\n");
    write(dir / "cmp/policies.csv",
          "game,scenario,seed,playouts,rank,policy,ranked_by,metric,mean,ci_low,ci_high,stddev,"
          "status\n"
          "g,s,1,100,1,c,win,win,0.5,0.4,0.6,0.5,complete\n"
          "g,s,1,100,2,b,win,win,0.2,0.1,0.3,0.4,complete\n"
          "g,s,1,100,3,a,win,win,0.1,0.05,0.2,0.3,complete\n");
    const std::string cmp = report_html(dir / "cmp");
    const auto diffs = cmp.substr(cmp.find("from the best (c)?"));
    const auto b_at = diffs.find(">b</text>"), a_at = diffs.find(">a</text>");
    REQUIRE(b_at != std::string::npos);
    REQUIRE(a_at != std::string::npos);
    CHECK(b_at < a_at);  // b (rank 2) above a (rank 3), though compare.csv lists a first
    fs::remove_all(dir);
}

TEST_CASE("svg: a forest plot of non-negative values keeps its axis at 0 and up",
          "[report][charts]") {
    // A target `turns p95 at most 30` drawn from 0: the margin added no tick at -10.
    const std::string chart =
        svg::forest_chart("t", "turns", {{"now: p95", 37, 37, 37, "", 5, "MISSED"}}, std::nullopt,
                          svg::Band{0, 30, "the target"});
    CHECK(chart.find(">0</text>") != std::string::npos);
    CHECK(chart.find(">-") == std::string::npos);
}
