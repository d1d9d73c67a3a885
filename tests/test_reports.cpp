// Statistics and CSV on small hand-made tallies whose answers are known exactly.
#include <catch2/catch.hpp>

#include <boost/math/distributions/students_t.hpp>
#include <cmath>
#include <csignal>
#include <filesystem>
#include <limits>
#include <numbers>
#include <sstream>

#include "reports/compare.hpp"
#include "reports/csv.hpp"
#include "reports/ratings.hpp"
#include "reports/stats.hpp"
#include "reports/tally.hpp"
#include "tests/helpers.hpp"

using namespace odds;

namespace {
const std::vector<MetricSpec> kSpecs = {{"win", "", MetricKind::rate, 0, 1},
                                        {"steps", "", MetricKind::count, 0, 4}};
// Four playouts: (win, steps) = (1, 2), (0, 1), (0, 3), (1, 3).
Tally four() {
    Tally t(kSpecs, SurvivalSpec{1, 0, 0, "steps", ""});
    for (auto v : {std::array{1, 2}, std::array{0, 1}, std::array{0, 3}, std::array{1, 3}})
        t.add(v.data());
    return t;
}
}  // namespace

TEST_CASE("summaries: moments, quantiles and intervals", "[reports]") {
    const auto ds = distributions(four(), kSpecs);
    const Summary steps = summarize(ds[1], false);
    CHECK(steps.mean == Approx(2.25));
    // Sample standard deviation: values 1, 2, 3, 3.
    CHECK(steps.stddev == Approx(std::sqrt((1.5625 + 0.0625 + 0.5625 * 2) / 3)));
    CHECK(steps.min == 1);
    CHECK(steps.max == 3);
    CHECK(steps.p25 == 1);  // the cdf reaches 1/4 at 1
    CHECK(steps.p50 == 2);
    CHECK(steps.p75 == 3);
    CHECK(steps.ci.low == Approx(2.25 - kZ95 * steps.stddev / 2));
    const Summary win = summarize(ds[0], false);
    CHECK(win.mean == Approx(0.5));
    CHECK(win.ci.low == Approx(wilson(2, 4).low));
    const Summary exact = summarize(ds[1], true);
    CHECK(exact.ci.low == exact.mean);
    CHECK(exact.stddev == Approx(std::sqrt(2.75 / 4)));
}

TEST_CASE("Wilson interval: known values", "[reports]") {
    // 0 of 10 at z = 1.96: upper bound z^2 / (n + z^2).
    const Interval i = wilson(0, 10);
    CHECK(i.low == 0);
    CHECK(i.high == Approx(kZ95 * kZ95 / (10 + kZ95 * kZ95)));
    const Interval h = wilson(50, 100);
    CHECK(h.low == Approx(1 - h.high));
}

TEST_CASE("Wilson interval: none and all reach 0 and 1 exactly, not rounding's 1e-19",
          "[reports][csv]") {
    // centre - half is 0 in exact arithmetic; in doubles it was 1.08e-19 at n = 2000.
    for (double n = 1; n <= 5000; ++n) {
        INFO("n = " << n);
        REQUIRE(wilson(0, n).low == 0);
        REQUIRE(wilson(n, n).high == 1);
    }
    CHECK(format_double(wilson(0, 2000).low) == "0");
}

TEST_CASE("Kaplan-Meier survival is written without a product's rounding", "[reports][csv]") {
    // 3000 playouts (naval's table): 1 ends at step 7, 2 at step 8, the rest at 9. Survival
    // after step 8 is 2997 / 3000 = 0.999: a double product wrote 0.9990000000000001.
    const std::vector<MetricSpec> specs = {{"turns", "", MetricKind::count, 0, 10}};
    Tally t(specs, SurvivalSpec{0, -1, 1, "turns", ""});
    for (int i = 0; i < 3000; ++i) {
        const std::int32_t v = i < 1 ? 7 : i < 3 ? 8 : 9;
        t.add(&v);
    }
    const RunInfo info{"g", "", "p", 1, 3000, false, false};
    const std::string csv = survival_csv(info, t, specs);
    INFO(csv);
    CHECK(csv.find(",8,2999,2,0,0.999,complete\n") != std::string::npos);
    CHECK(csv.find("0000000") == std::string::npos);
}

TEST_CASE("Kaplan-Meier survival: losses are events, completions censored", "[reports]") {
    // Losses (win = 0) at steps 1 and 3; completions at 2 and 3.
    // Each row names its game, scenario, policy and the metric whose value the step is.
    const RunInfo info{"g", "o=1", "p", 1, 4, false, false};
    const std::string csv = survival_csv(info, four(), kSpecs);
    CHECK(csv ==
          "game,scenario,policy,step_metric,event,step,at_risk,lost,completed,survival,status\n"
          "g,o=1,p,steps,the playout ends,0,4,0,0,1,complete\n"
          "g,o=1,p,steps,the playout ends,1,4,1,0,0.75,complete\n"
          "g,o=1,p,steps,the playout ends,2,3,0,1,0.75,complete\n"
          "g,o=1,p,steps,the playout ends,3,2,1,1,0.375,complete\n");
    // The exact solvers' tables get the same columns.
    CHECK(survival_csv_described(info, "steps", "the playout ends",
                                 survival_csv_exact({0.25, 0.75}, {}, 1)) ==
          "game,scenario,policy,step_metric,event,step,at_risk,lost,completed,survival,status\n"
          "g,o=1,p,steps,the playout ends,1,1,0.25,0,0.75,complete\n"
          "g,o=1,p,steps,the playout ends,2,0.75,0.75,0,0,complete\n");
}

TEST_CASE("CSV fields are quoted when needed, numbers read back exactly", "[reports]") {
    CHECK(csv_field("a b") == "a b");
    CHECK(csv_field("4,9") == "\"4,9\"");
    CHECK(csv_field("say \"hi\"") == "\"say \"\"hi\"\"\"");
    CHECK(format_double(0.1) == "0.1");
    CHECK(format_double(-0.0) == "0");
    CHECK(std::stod(format_double(1.0 / 3)) == 1.0 / 3);
}

TEST_CASE("distributions.csv: probability, cdf and at_least", "[reports]") {
    RunInfo info{"g", "s", "p", 1, 4, false, false};
    const auto csv = distributions_csv(info, distributions(four(), kSpecs));
    CHECK(csv.find("g,s,p,steps,1,1,0.25,0.25,1,monte_carlo,complete,\n") != std::string::npos);
    CHECK(csv.find("g,s,p,steps,3,2,0.5,1,0.5,monte_carlo,complete,\n") != std::string::npos);
    // Values beyond the observed range are not listed.
    CHECK(csv.find("g,s,p,steps,4,") == std::string::npos);
}

TEST_CASE("distributions.csv: no probability past 1, whatever order the masses sum in",
          "[reports][csv]") {
    // Issue 40: an exact law whose masses sum to 0.9999999999999999 forward and to 1 backward
    // (the at_least column's tail sums) wrote at_least=1.0000000000000002.
    RunInfo info{"g", "s", "p", 0, 0, true, false};
    Distribution d{
        kSpecs[0],
        {0.24255583075299408, 0.25395560918290594, 0.274289018279403, 0.22919954178469695}};
    d.unresolved = 0;
    const auto csv = distributions_csv(info, {d});
    INFO(csv);
    CHECK(csv.find("1.0000") == std::string::npos);
    CHECK(csv.find(",1,exact,") != std::string::npos);  // the first value's at_least: exactly 1
    CHECK(format_probability(1.0000000000000004) == "1");
    CHECK(format_probability(-1e-18) == "0");
    CHECK(format_probability(0.25) == "0.25");
}

TEST_CASE("tallies merge exactly", "[reports]") {
    Tally a = four(), b = four();
    a.merge(b);
    CHECK(a.playouts() == 8);
    CHECK(a.counts(1)[3] == 4);
    CHECK(a.events(0)[1] == 2);
}

TEST_CASE("a tally holds the values seen, not the declared range", "[reports]") {
    // turns declared 0..1,000,000 (max_turns=1000000): a tally holds the first kInitialBins
    // values, and grows only as far as the largest value seen; merging follows suit.
    const std::vector<MetricSpec> specs = {{"win", "", MetricKind::rate, 0, 1},
                                           {"turns", "", MetricKind::count, 0, 1'000'000}};
    Tally a(specs, SurvivalSpec{1, 0, 1, "turns", ""}), b = a, c = a;
    CHECK(a.counts(1).size() == Tally::kInitialBins);
    const std::int32_t p1[2] = {1, 3}, p2[2] = {0, 20000}, p3[2] = {1, 999'999};
    a.add(p1);
    b.add(p2);
    CHECK(b.counts(1).size() == 20001);
    a.merge(b);
    CHECK(a.counts(1).size() == 20001);
    CHECK(a.counts(1)[3] == 1);
    CHECK(a.counts(1)[20000] == 1);
    CHECK(a.events(0).size() == 20001);
    CHECK(a.events(0)[3] == 1);  // won at 3 (event: win = 1)
    CHECK(a.events(0)[20000] == 0);
    // The same counts in any order are equal tallies, whatever each window's length.
    c.add(p2);
    c.add(p1);
    c.add(p3);
    a.add(p3);
    CHECK(a == c);
    c.add(p1);
    CHECK(!(a == c));
    const std::int32_t past[2] = {0, 1'000'001};
    CHECK_THROWS_AS(a.add(past), std::logic_error);
}

TEST_CASE("a tally rebuilt from its (value, count) pairs equals it", "[reports]") {
    // What shard files do: iterate each metric's and each survival table's pairs, add them to
    // an empty tally of the same specs.
    Tally t = four();
    const std::int32_t far[2] = {1, 3};
    t.add(far);
    Tally copy(kSpecs, SurvivalSpec{1, 0, 0, "steps", ""});
    std::size_t pairs = 0;
    for (std::size_t m = 0; m < t.metric_count(); ++m)
        t.for_each_count(m, [&](std::int32_t v, std::uint64_t n) {
            copy.add_count(m, v, n);
            ++pairs;
        });
    for (std::size_t k = 0; k < t.survivals().size(); ++k)
        t.for_each_event(k, [&](std::int32_t v, std::uint64_t n) { copy.add_event(k, v, n); });
    copy.add_playouts(t.playouts());
    CHECK(pairs > 2);
    CHECK(copy == t);
    CHECK_FALSE(copy.add_count(1, -1, 1));  // below the declared range: nothing added
}

TEST_CASE("Bradley-Terry: equal players rate equal; a 3:1 edge is 191 Elo", "[reports][ratings]") {
    const std::vector<std::vector<double>> games = {{0, 1e6, 1e6}, {1e6, 0, 1e6}, {1e6, 1e6, 0}};
    const std::vector<std::vector<double>> even = {{0, 5e5, 5e5}, {5e5, 0, 5e5}, {5e5, 5e5, 0}};
    for (const auto& r : bradley_terry(games, even)) CHECK(std::abs(r.rating) < 1e-6);
    const auto two = bradley_terry({{0, 1e6}, {1e6, 0}}, {{0, 7.5e5}, {2.5e5, 0}});
    CHECK(two[0].rating - two[1].rating == Approx(400 * std::log10(3.0)).margin(0.1));
    CHECK(two[0].rating == Approx(-two[1].rating));
    CHECK(two[0].ci.low < two[0].rating);
    // A clean sweep still gets a finite rating (the prior).
    const auto sweep = bradley_terry({{0, 100}, {100, 0}}, {{0, 100}, {0, 0}});
    CHECK(std::isfinite(sweep[0].rating));
    CHECK(sweep[0].rating > 300);
}

TEST_CASE("balance: 1 - |P(first wins) - P(second wins)|, with its interval", "[reports]") {
    Summary a, b;
    a.metric = "a_win";
    a.mean = 0.6;
    b.metric = "b_win";
    b.mean = 0.3;
    const auto mc = balance_row({a, b}, "a_win", "b_win", 10000, false);
    REQUIRE(mc);
    CHECK(mc->mean == Approx(0.7));
    const double half = kZ95 * std::sqrt((0.6 + 0.3 - 0.09) / 10000);
    CHECK(mc->ci.low == Approx(0.7 - half));
    CHECK(std::isnan(mc->p50));
    const auto ex = balance_row({a, b}, "a_win", "b_win", 0, true);
    CHECK(ex->ci.low == ex->ci.high);
    CHECK_FALSE(balance_row({a}, "a_win", "b_win", 10, false));
}

TEST_CASE("paired differences: Student's t interval and p-value for small n",
          "[reports][compare]") {
    // d = 1, 2, 3, 4: mean 2.5, variance 5/3, standard error sqrt(5/12).
    PairSums s;
    for (int d : {1, 2, 3, 4}) s.add(d);
    CHECK(s.sum == 10);
    CHECK(s.sum_sq == 30);
    const PairedDifference r = paired_difference(s, 4);
    const double se = std::sqrt(5.0 / 12);
    // t(0.975) with 3 degrees of freedom: 3.182446305 (the textbook's 3.182), as boost has it.
    const double q = boost::math::quantile(boost::math::students_t(3), 0.975);
    CHECK(q == Approx(3.182446305284263).epsilon(1e-12));
    CHECK(r.diff == 2.5);
    CHECK(r.low == Approx(2.5 - q * se).epsilon(1e-14));
    CHECK(r.high == Approx(2.5 + q * se).epsilon(1e-14));
    CHECK(r.low == Approx(0.4457397).epsilon(1e-6));
    CHECK(r.high == Approx(4.5542603).epsilon(1e-6));
    // Two-sided p from the t distribution with 3 degrees of freedom in closed form: with
    // x = t / sqrt(3), P(|T| > t) = 1 - (2 / pi) (x / (1 + x^2) + atan x).
    const double x = 2.5 / se / std::sqrt(3.0);
    const double closed_form = 1 - 2 / std::numbers::pi * (x / (1 + x * x) + std::atan(x));
    CHECK(r.p == Approx(closed_form).epsilon(1e-12));
    CHECK(r.p == Approx(0.030466).epsilon(1e-4));

    // The metric's scale divides the difference and its interval, not the p-value.
    const PairedDifference half = paired_difference(s, 4, 2);
    CHECK(half.diff == 1.25);
    CHECK(half.low == Approx(r.low / 2));
    CHECK(half.high == Approx(r.high / 2));
    CHECK(half.p == r.p);

    // Sums merge exactly, in any split.
    PairSums a, b;
    a.add(1);
    a.add(2);
    b.add(3);
    b.add(4);
    a.merge(b);
    CHECK((a.sum == s.sum && a.sum_sq == s.sum_sq));
}

TEST_CASE("paired differences: no spread, no pairs, one pair", "[reports][compare]") {
    PairSums same;
    for (int i = 0; i < 5; ++i) same.add(2);
    const PairedDifference c = paired_difference(same, 5);
    CHECK(c.diff == 2);
    CHECK(c.low == 2);
    CHECK(c.high == 2);
    CHECK(c.p == 0);         // every pair differs by the same amount: certainly a difference
    CHECK_FALSE(c.p_below);  // a true 0, not an underflow
    // A difference of hundreds of standard errors: p underflows, and says it is a bound.
    PairSums big;
    for (int i = 0; i < 100000; ++i) big.add(i % 10 == 0 ? 0 : 1);
    const PairedDifference u = paired_difference(big, 100000);
    CHECK(u.p < std::numeric_limits<double>::min());
    CHECK(u.p_below);
    const PairedDifference zero = paired_difference(PairSums{}, 5);
    CHECK(zero.diff == 0);
    CHECK(zero.p == 1);
    const PairedDifference none = paired_difference(PairSums{}, 0);
    CHECK((none.diff == 0 && none.low == 0 && none.high == 0 && none.p == 1));
    PairSums one;
    one.add(3);
    const PairedDifference single = paired_difference(one, 1);
    CHECK(single.diff == 3);
    CHECK(single.low == -std::numeric_limits<double>::infinity());
    CHECK(single.high == std::numeric_limits<double>::infinity());
    CHECK(single.p == 1);
}

TEST_CASE("Holm's adjustment on hand-computed examples", "[reports][compare]") {
    // Sorted: 0.005 x4 = 0.02; 0.01 x3 = 0.03; 0.03 x2 = 0.06; 0.04 x1 = 0.04, raised to 0.06.
    const std::vector<double> p{0.01, 0.04, 0.03, 0.005};
    const std::vector<double> h = holm(p);
    REQUIRE(h.size() == 4);
    CHECK(h[0] == Approx(0.03));
    CHECK(h[1] == Approx(0.06));
    CHECK(h[2] == Approx(0.06));
    CHECK(h[3] == Approx(0.02));
    // Capped at 1; ties keep their order and their adjusted values are monotone.
    const std::vector<double> capped = holm(std::vector<double>{0.6, 0.2, 0.2, 0.9});
    CHECK(capped == std::vector<double>{1.0, 0.8, 0.8, 1.0});
    CHECK(holm(std::vector<double>{0.05}) == std::vector<double>{0.05});
    CHECK(holm(std::vector<double>{}).empty());
}

TEST_CASE("an exact survival table ends at 0 and carries no subtraction's rounding",
          "[reports][csv]") {
    // Ends at steps 1..4 with 0.1, 0.2, 0.3, 0.4: at_risk 1, 0.9, 0.7, 0.4; survival 0.9, 0.7,
    // 0.4, 0. Subtracting from the total wrote 0.7000000000000001 and -8.9e-17.
    const std::string csv = survival_csv_exact({0.1, 0.2, 0.3, 0.4}, {}, 1);
    INFO(csv);
    CHECK(csv ==
          "step,at_risk,lost,completed,survival,status\n"
          "1,1,0.1,0,0.9,complete\n"
          "2,0.9,0.2,0,0.7,complete\n"
          "3,0.7,0.3,0,0.4,complete\n"
          "4,0.4,0.4,0,0,complete\n");
}

TEST_CASE("a symmetric law's skewness is written 0, not rounding's -8e-15", "[reports][csv]") {
    // Two dice's sum as probabilities (Bosconian's bases_placed, exact): symmetric about 7.
    Distribution d{{"sum", "", MetricKind::count, 2, 12}, {}, 0};
    for (int s = 2; s <= 12; ++s) d.mass.push_back((6 - std::abs(s - 7)) / 36.0);
    const Summary x = summarize(d, true);
    CHECK(x.skewness == 0);
    CHECK(format_double(x.skewness) == "0");
    // A skewed one keeps its skewness.
    Distribution e{{"n", "", MetricKind::count, 0, 2}, {0.7, 0.2, 0.1}, 0};
    CHECK(summarize(e, true).skewness > 0.5);
}

TEST_CASE("no playout: every figure unknown, not a mean of 0 in [0, 0]", "[reports][csv]") {
    // A run stopped inside its first chunk has played nothing: its summary must not claim a
    // value (issue 30). Terminal "?", CSV empty cells, and the balance row likewise.
    const Tally empty(kSpecs, SurvivalSpec{1, 0, 0, "steps", ""});
    const auto ds = distributions(empty, kSpecs);
    std::vector<Summary> rows;
    for (const auto& d : ds) rows.push_back(summarize(d, false));
    for (const auto& r : rows) {
        CHECK(std::isnan(r.mean));
        CHECK(std::isnan(r.ci.low));
        CHECK(std::isnan(r.ci.high));
        CHECK(std::isnan(r.stddev));
        CHECK(std::isnan(r.p50));
        CHECK(std::isnan(r.max));
    }
    rows[0].metric = "a_win";
    rows[1].metric = "b_win";
    const auto bal = balance_row(rows, "a_win", "b_win", 0, false);
    REQUIRE(bal);
    CHECK(std::isnan(bal->mean));
    CHECK(std::isnan(bal->ci.low));
    RunInfo info;
    info.game = "g";
    info.partial = true;
    const std::string csv = summary_csv(info, {rows[0]});
    CHECK(csv.substr(csv.find('\n') + 1) == "g,,,0,0,a_win,,,,,,,,,,,,,monte_carlo,partial,,,\n");
    std::ostringstream os;
    print_table(os, info, {rows[0]});
    CHECK(os.str().find("0.0000") == std::string::npos);
    CHECK(os.str().find("a_win") != std::string::npos);
}

namespace {
volatile std::sig_atomic_t g_seen = 0;
extern "C" void note_signal(int) { g_seen = 1; }
}  // namespace

TEST_CASE("a signal that comes while files are written acts only once the command ends",
          "[reports][csv]") {
    // Issue 40: SIGTERM while --report was written over an older folder left .tmp files and a
    // folder of two seeds' files; two SIGINTs 10 ms apart left summary.csv.tmp.PID. The writers
    // hold SIGINT and SIGTERM from the first file to the command's end.
    const auto dir = test::temp_path("held", "dir");
    std::filesystem::create_directories(dir);
    const auto old = std::signal(SIGTERM, note_signal);
    g_seen = 0;
    write_files_atomic({{dir / "a.csv", "1\n"}});
    std::raise(SIGTERM);  // pending, not delivered
    write_files_atomic({{dir / "a.csv", "2\n"}, {dir / "b.csv", "2\n"}});
    write_file_atomic(dir / "report.html", "2\n");
    CHECK(g_seen == 0);
    release_held_signals();
    CHECK(g_seen == 1);  // delivered on release
    std::signal(SIGTERM, old);
    std::size_t files = 0;
    for (const auto& e : std::filesystem::directory_iterator(dir)) {
        ++files;
        CHECK(e.path().string().find(".tmp") == std::string::npos);
    }
    CHECK(files == 3);
    std::filesystem::remove_all(dir);
}
