#include "reports/html_report.hpp"
#include "reports/schema.hpp"

#include <algorithm>
#include <cmath>
#include <fstream>
#include <limits>
#include <map>
#include <optional>
#include <stdexcept>

#include "engine/line_reader.hpp"
#include "engine/rule_options.hpp"
#include "reports/csv.hpp"
#include "reports/svg.hpp"
#include "reports/tune_targets.hpp"

namespace odds {

namespace fs = std::filesystem;
using svg::escape;
using svg::num;

std::string provenance_csv(const Provenance& p) {
    return schema::kProvenance.header() + csv_field(p.odds_version) + ',' + csv_field(p.command) +
           ',' + csv_field(p.game) + ',' + csv_field(p.rules_version) + ',' +
           csv_field(p.command_line) + '\n';
}

std::string metrics_csv(const std::string& game, const std::vector<MetricSpec>& metrics,
                        bool header) {
    std::string s = header ? schema::kMetrics.header() : std::string();
    for (const auto& m : metrics)
        s += csv_field(game) + ',' + csv_field(m.name) + ',' +
             (m.kind == MetricKind::rate ? "rate" : "count") + ',' + csv_field(m.unit) + ',' +
             csv_field(m.help) + '\n';
    return s;
}

std::string command_line(const std::string& command, const std::vector<std::string>& args) {
    std::string line = "odds " + command;
    for (const auto& a : args) {
        const bool plain = !a.empty() && a.find_first_not_of(
                                             "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                             "0123456789-_./=:,+@%") == std::string::npos;
        if (plain) {
            line += ' ' + a;
            continue;
        }
        line += " '";
        for (char c : a) line += c == '\'' ? std::string("'\\''") : std::string(1, c);
        line += '\'';
    }
    return line;
}

namespace {

std::string slurp(const fs::path& p) {
    return read_input_file(p.string(), "the report's input", kMaxDataFile, kMaxDataLine);
}

CsvTable read(const fs::path& dir, const char* name) {
    const fs::path p = dir / name;
    std::error_code ec;
    if (!fs::is_regular_file(p, ec)) return {};
    return parse_csv(slurp(p));
}

double number(const std::string& s) {
    if (s.empty()) return std::numeric_limits<double>::quiet_NaN();
    try {
        std::size_t used = 0;
        const double v = std::stod(s, &used);
        return used == s.size() ? v : std::numeric_limits<double>::quiet_NaN();
    } catch (const std::exception&) {
        return std::numeric_limits<double>::quiet_NaN();
    }
}

// The values of `column`, each once, in the order first seen.
std::vector<std::string> distinct(const CsvTable& t, std::string_view column) {
    std::vector<std::string> out;
    for (std::size_t r = 0; r < t.rows.size(); ++r)
        if (std::find(out.begin(), out.end(), t.at(r, column)) == out.end())
            out.push_back(t.at(r, column));
    return out;
}

// A cell for people: a number with more than 6 significant digits rounded to 6 (the CSV beside
// the page has every digit); any other text as it is.
std::string readable(const std::string& cell) {
    const double v = number(cell);
    if (std::isnan(v) || cell.size() <= 8) return cell;
    return num(v, 6);
}

// A table of `columns` (its heads) and rows of cells, in a collapsed <details> under a chart.
std::string table(const std::vector<std::string>& heads,
                  const std::vector<std::vector<std::string>>& rows,
                  const std::string& summary = "the numbers", bool open = false) {
    std::string s = std::string(open ? "<details open>" : "<details>") + "<summary>" +
                    escape(summary) + "</summary><table><thead><tr>";
    for (const auto& h : heads) s += "<th>" + escape(h) + "</th>";
    s += "</tr></thead><tbody>";
    for (const auto& r : rows) {
        s += "<tr>";
        for (const auto& c : r) s += "<td>" + escape(readable(c)) + "</td>";
        s += "</tr>";
    }
    return s + "</tbody></table></details>";
}

// A CSV's rows (those `keep` accepts) as a table of the given columns.
template <class Keep>
std::string csv_table(const CsvTable& t, const std::vector<std::string>& columns, Keep keep,
                      const std::string& summary = "the numbers", bool open = false) {
    std::vector<std::vector<std::string>> rows;
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
        if (!keep(r)) continue;
        std::vector<std::string> row;
        for (const auto& c : columns) row.push_back(t.at(r, c));
        rows.push_back(std::move(row));
    }
    return table(columns, rows, summary, open);
}

std::string figure(const std::string& chart, const std::string& numbers) {
    return "<figure>" + chart + "</figure>" + numbers;
}

// A metric's row in the folder's metrics.csv (none where the command wrote none).
std::optional<std::size_t> metric_row(const CsvTable& words, const std::string& metric) {
    for (std::size_t r = 0; r < words.rows.size(); ++r)
        if (words.at(r, schema::kMetrics["metric"]) == metric) return r;
    return std::nullopt;
}

// A metric's description as the game declares it, from metrics.csv.
std::string metric_words(const CsvTable& words, const std::string& metric) {
    const auto r = metric_row(words, metric);
    if (!r) return "";
    return "<p class=\"what\">" + escape(words.at(*r, schema::kMetrics["description"])) +
           (words.at(*r, schema::kMetrics["kind"]) == "rate" ? " (0 or 1 a playout)" : "") + "</p>";
}

// What a metric's value a playout is measured in, from metrics.csv: "share of playouts" for a
// rate, a count's unit ("hull points"), "" where the folder does not say (tune's distance, or a
// folder older than the unit column).
std::string unit_of(const CsvTable& words, const std::string& metric) {
    const auto r = metric_row(words, metric);
    if (!r) return "";
    if (words.at(*r, schema::kMetrics["kind"]) == "rate") return "share of playouts";
    return words.has(schema::kMetrics["unit"]) ? words.at(*r, schema::kMetrics["unit"]) : "";
}

// An axis of a metric's mean a playout: "damage, hull points per playout (mean)", "win, share
// of playouts"; `what` before the metric ("difference in ") and `how` after it (" (policy -
// best)").
std::string mean_axis(const CsvTable& words, const std::string& metric,
                      const std::string& what = "", const std::string& how = "") {
    const std::string unit = unit_of(words, metric);
    if (unit == "share of playouts") return what + metric + how + ", share of playouts";
    return what + metric + how + ", " + (unit.empty() ? "mean" : unit) + " per playout" +
           (unit.empty() || !what.empty() ? "" : " (mean)");
}

// A metric's heading: its name (`after` it, a verdict), and its description under it.
std::string metric_heading(const CsvTable& words, const std::string& metric,
                           const std::string& after = "") {
    return "<h3>" + escape(metric + after) + "</h3>" + metric_words(words, metric);
}

// The header: what made the folder's figures, from the CSV files and provenance.csv.
std::string provenance_section(const CsvTable& prov, const CsvTable& main) {
    const auto first = [&](std::string_view column) {
        if (main.rows.empty()) return std::string();
        return main.at(0, column);
    };
    std::vector<std::pair<std::string, std::string>> facts;
    const auto add = [&](const std::string& k, const std::string& v) {
        if (!v.empty()) facts.emplace_back(k, v);
    };
    add("game", !prov.rows.empty() ? prov.at(0, schema::kProvenance["game"]) : first("game"));
    add("scenario", first("scenario"));
    add("policies", first("policy"));
    add("seed", first("seed"));
    add("playouts", first("playouts"));
    add("method", first("method") == "exact" ? "exact"
                  : first("method").empty()  ? ""
                                             : "Monte Carlo");
    add("status", first("status"));
    if (!prov.rows.empty()) {
        add("rules version", prov.at(0, schema::kProvenance["rules_version"]));
        add("command line", prov.at(0, schema::kProvenance["command_line"]));
        add("odds version", prov.at(0, schema::kProvenance["odds_version"]));
    } else {
        add("command line", "not recorded (no provenance.csv in the folder)");
    }
    std::string s = "<section class=\"provenance\"><h2>What made these figures</h2><dl>";
    for (const auto& [k, v] : facts)
        s += "<dt>" + escape(k) + "</dt><dd>" +
             (k == "command line" && !prov.rows.empty() ? "<code>" + escape(v) + "</code>"
                                                        : escape(v)) +
             "</dd>";
    return s + "</dl></section>";
}

std::string partial_note(const CsvTable& t) {
    for (std::size_t r = 0; r < t.rows.size(); ++r)
        if (t.at(r, "status") == "partial")
            return "<p class=\"warning\">Interrupted: these figures are partial (the work done "
                   "before Ctrl-C).</p>";
    return "";
}

// The summary row of `metric` when it is 0 or 1 a playout (a rate, or a count seen only at 0
// and 1: a win, a loss); else none.
std::optional<std::size_t> rate_row(const std::string& metric, const CsvTable& summary) {
    for (std::size_t r = 0; r < summary.rows.size(); ++r)
        if (summary.at(r, schema::kSummary["metric"]) == metric &&
            summary.at(r, schema::kSummary["min"]) == "0" &&
            summary.at(r, schema::kSummary["max"]) == "1" &&
            summary.at(r, schema::kSummary["p05"]).find('.') == std::string::npos)
            return r;
    return std::nullopt;
}

// The axis of a metric's values, one a playout: a rate's 0 or 1, a count in its unit.
std::string metric_axis(const std::string& metric, const CsvTable& summary, const CsvTable& words) {
    if (rate_row(metric, summary)) return metric + " (per playout: 0 or 1)";
    const std::string unit = unit_of(words, metric);
    if (unit.empty()) return metric + " (value per playout)";
    return (unit == metric ? metric : metric + ", " + unit) + " (a playout's value)";
}

// A metric that is 0 or 1 a playout, drawn as what it is, a rate: its mean with its 95%
// interval (the played one, and the exact one's bounds from exact/ where it is there), not as
// two bars.
std::string rate_chart(const std::string& metric, const CsvTable& summary, std::size_t row,
                       const CsvTable& exact_summary, bool is_exact) {
    const auto at = [](const CsvTable& t, std::size_t r, std::string_view column) {
        return number(t.at(r, column));
    };
    std::vector<svg::ForestRow> rows{
        {is_exact ? "exact" : "Monte Carlo", at(summary, row, schema::kSummary["mean"]),
         at(summary, row, schema::kSummary["ci_low"]),
         at(summary, row, schema::kSummary["ci_high"]),
         is_exact ? "the exact rate (its bounds)" : "the share of playouts, 95% interval", 1, ""}};
    if (const auto e = rate_row(metric, exact_summary))
        rows.push_back({"exact",
                        (at(exact_summary, *e, schema::kSummary["mean_low"]) +
                         at(exact_summary, *e, schema::kSummary["mean_high"])) /
                            2,
                        at(exact_summary, *e, schema::kSummary["mean_low"]),
                        at(exact_summary, *e, schema::kSummary["mean_high"]),
                        "the exact rate (its bounds, from exact/)", 2, ""});
    return svg::forest_chart(metric + ": how often? (its rate, with its 95% interval)",
                             metric + ": the share of playouts (0 to 1)", rows, std::nullopt);
}

svg::Law law_of(const CsvTable& d, const std::string& metric, const std::string& name) {
    svg::Law law;
    law.name = name;
    for (std::size_t r = 0; r < d.rows.size(); ++r) {
        if (d.at(r, schema::kDistributions["metric"]) != metric) continue;
        law.x.push_back(number(d.at(r, schema::kDistributions["value"])));
        law.p.push_back(number(d.at(r, schema::kDistributions["probability"])));
        law.at_least.push_back(number(d.at(r, schema::kDistributions["at_least"])));
        law.tips.push_back(d.at(r, schema::kDistributions["count"]).empty()
                               ? ""
                               : d.at(r, schema::kDistributions["count"]) + " playouts");
        if (const double u = number(d.at(r, schema::kDistributions["unresolved"])); u > 0)
            law.unresolved = std::max(law.unresolved, u);
    }
    return law;
}

// "exact", or with unresolved mass "exact (lower bounds)": the page says how much is unresolved.
std::string exact_name(const CsvTable& d, const std::string& metric) {
    for (std::size_t r = 0; r < d.rows.size(); ++r)
        if (d.at(r, schema::kDistributions["metric"]) == metric &&
            number(d.at(r, schema::kDistributions["unresolved"])) > 0)
            return "exact (lower bounds)";
    return "exact";
}

// With unresolved mass in an exact law: how much, and what it means for the charts.
std::string unresolved_note(const CsvTable& d) {
    double most = 0;
    for (std::size_t r = 0; r < d.rows.size(); ++r)
        if (d.at(r, schema::kDistributions["method"]) == "exact")
            most = std::max(most, number(d.at(r, schema::kDistributions["unresolved"])));
    if (!(most > 0)) return "";
    return " The exact solver leaves a probability of " + escape(num(most, 3)) +
           " unresolved: its probabilities are lower bounds, each higher by at most that.";
}

std::string summary_table(const CsvTable& summary) {
    return csv_table(
        summary,
        {"metric", "mean", "ci_low", "ci_high", "stddev", "min", "p05", "p25", "p50", "p75", "p95",
         "max", "unresolved"},
        [](std::size_t) { return true; }, "the summary (summary.csv)", true);
}

// A metric's numbers under its chart: its rows of distributions.csv, or, where the chart bins
// the values (more than svg::kMostBars), the bins as drawn (a small page).
std::string law_numbers(const CsvTable& dist, const std::string& metric, const svg::Law& law) {
    if (law.x.size() <= svg::kMostBars)
        return csv_table(
            dist, {"value", "count", "probability", "cdf", "at_least"},
            [&](std::size_t r) { return dist.at(r, schema::kDistributions["metric"]) == metric; });
    const svg::Law b = svg::binned(law);
    std::vector<std::vector<std::string>> cells;
    for (std::size_t i = 0; i < b.x.size(); ++i)
        cells.push_back({b.tips[i], num(b.p[i], 6), num(b.at_least[i], 6)});
    return table({"values", "probability", "at_least (of the first)"}, cells,
                 "the numbers, binned as drawn (distributions.csv has every value)");
}

std::string run_sections(const fs::path& dir) {
    const CsvTable summary = read(dir, "summary.csv");
    const CsvTable dist = read(dir, "distributions.csv");
    // The exact law beside the Monte Carlo, when it is of the same scenario and policies (a
    // folder's exact/ left from another run is not drawn).
    CsvTable exact = read(dir, "exact/distributions.csv");
    if (!exact.rows.empty() && (dist.rows.empty() ||
                                exact.at(0, schema::kDistributions["scenario"]) !=
                                    dist.at(0, schema::kDistributions["scenario"]) ||
                                exact.at(0, schema::kDistributions["policy"]) !=
                                    dist.at(0, schema::kDistributions["policy"]) ||
                                dist.at(0, schema::kDistributions["method"]) == "exact"))
        exact = {};
    const CsvTable surv = read(dir, "survival.csv");
    const CsvTable words = read(dir, kMetricsFile);
    const CsvTable exact_summary = exact.rows.empty() ? CsvTable{} : read(dir, "exact/summary.csv");
    const bool is_exact =
        !dist.rows.empty() && dist.at(0, schema::kDistributions["method"]) == "exact";
    std::string s =
        partial_note(summary) + "<section><h2>Summary</h2>" + summary_table(summary) + "</section>";
    if (!dist.rows.empty()) {
        s += "<section><h2>Distributions</h2><p>Bars: P(X = x), the share of playouts with each "
             "value; line: P(X &#8805; x), the share with at least that value (right axis). A "
             "metric that is 0 or 1 a playout (a win) is drawn as its rate with its 95% "
             "interval." +
             std::string(exact.rows.empty() ? ""
                                            : " Diamonds and the dashed line: the exact law, "
                                              "from <code>exact/</code>.") +
             unresolved_note(exact.rows.empty() ? dist : exact) + "</p>";
        for (const auto& metric : distinct(dist, schema::kDistributions["metric"])) {
            std::vector<svg::Law> laws{
                law_of(dist, metric, is_exact ? exact_name(dist, metric) : "Monte Carlo")};
            if (!exact.rows.empty()) {
                auto e = law_of(exact, metric, exact_name(exact, metric));
                if (!e.x.empty()) laws.push_back(std::move(e));
            }
            const std::string numbers = law_numbers(dist, metric, laws.front());
            const auto rate = rate_row(metric, summary);
            s += metric_heading(words, metric) +
                 figure(rate ? rate_chart(metric, summary, *rate, exact_summary, is_exact)
                             : svg::distribution_chart(metric + ": which values, how likely?",
                                                       metric_axis(metric, summary, words), laws),
                        numbers);
        }
        s += "</section>";
    }
    if (!surv.rows.empty()) {
        s += "<section><h2>Survival</h2><p>Kaplan-Meier steps: the share of playouts the event has "
             "not yet happened to after each step; a + marks a step where some ended without the "
             "event (censored).</p>";
        const bool subjects = surv.has(schema::kSurvivalSubject["subject"]);
        for (const auto& subject : subjects ? distinct(surv, schema::kSurvivalSubject["subject"])
                                            : std::vector<std::string>{""}) {
            svg::Survival c;
            c.name = subject.empty() ? "survival" : subject;
            const auto keep = [&](std::size_t r) {
                return !subjects || surv.at(r, schema::kSurvivalSubject["subject"]) == subject;
            };
            for (std::size_t r = 0; r < surv.rows.size(); ++r) {
                if (!keep(r)) continue;
                c.step.push_back(number(surv.at(r, schema::kSurvival["step"])));
                c.survival.push_back(number(surv.at(r, schema::kSurvival["survival"])));
                c.censored.push_back(number(surv.at(r, schema::kSurvival["completed"])) > 0);
            }
            // The step's axis names what a step is (the metric whose value it is), the title the
            // event (survival.csv's event; an older folder's has none).
            std::string step_metric, event;
            for (std::size_t r = 0; r < surv.rows.size() && step_metric.empty(); ++r)
                if (keep(r)) {
                    step_metric = surv.at(r, schema::kSurvival["step_metric"]);
                    if (surv.has(schema::kSurvival["event"]))
                        event = surv.at(r, schema::kSurvival["event"]);
                }
            if (step_metric.empty()) step_metric = "steps";
            if (event.empty()) event = "the event";
            std::string unit = unit_of(words, step_metric);
            const std::string axis =
                step_metric + (unit.empty() || unit == step_metric ? "" : " (" + unit + ")");
            if (unit.empty()) unit = step_metric;
            s +=
                figure(svg::survival_chart("How long until " + event + "? (in " + unit + ")", axis,
                                           "share of playouts before " + event, {c}),
                       csv_table(surv, {"step", "at_risk", "lost", "completed", "survival"}, keep));
        }
        s += "</section>";
    }
    return s;
}

// compare: each policy's means, one forest chart a metric (policies.csv).
std::string policy_means_section(const CsvTable& pol, const CsvTable& words) {
    if (pol.rows.empty()) return {};
    std::string s;
    s += "<section><h2>Each policy's figures</h2>";
    for (const auto& metric : distinct(pol, schema::kPolicies["metric"])) {
        std::vector<svg::ForestRow> rows;
        for (std::size_t r = 0; r < pol.rows.size(); ++r)
            if (pol.at(r, schema::kPolicies["metric"]) == metric)
                rows.push_back({pol.at(r, schema::kPolicies["policy"]),
                                number(pol.at(r, schema::kPolicies["mean"])),
                                number(pol.at(r, schema::kPolicies["ci_low"])),
                                number(pol.at(r, schema::kPolicies["ci_high"])),
                                "rank " + pol.at(r, schema::kPolicies["rank"]), 0, ""});
        s += metric_heading(words, metric) +
             figure(svg::forest_chart(metric + ": what does each policy average?",
                                      mean_axis(words, metric), rows, std::nullopt),
                    csv_table(pol, {"rank", "policy", "mean", "ci_low", "ci_high", "stddev"},
                              [&](std::size_t r) {
                                  return pol.at(r, schema::kPolicies["metric"]) == metric;
                              }));
    }
    s += "</section>";
    return s;
}

// compare: each policy's paired difference to the best, per metric compared; each policy's means.
std::string compare_sections(const fs::path& dir) {
    const CsvTable cmp = read(dir, "compare.csv");
    const CsvTable pol = read(dir, "policies.csv");
    const CsvTable words = read(dir, kMetricsFile);
    std::string best, ranked_by;
    for (std::size_t r = 0; r < pol.rows.size(); ++r)
        if (pol.at(r, schema::kPolicies["rank"]) == "1")
            best = pol.at(r, schema::kPolicies["policy"]),
            ranked_by = pol.at(r, schema::kPolicies["ranked_by"]);
    std::string s = partial_note(cmp) +
                    "<section><h2>Differences to the best</h2><p>Each policy's "
                    "paired difference to the best (<b>" +
                    escape(best) + "</b>, first by " + escape(ranked_by) +
                    "): every policy played the same dice, so the difference is measured playout "
                    "by playout; the bars are 95% intervals, the p-values Holm-adjusted.</p>";
    std::vector<std::string> metrics = distinct(cmp, schema::kCompare["metric"]);
    std::stable_partition(metrics.begin(), metrics.end(),
                          [&](const std::string& m) { return m == ranked_by; });
    // The policies in the ranking's order (policies.csv's rank), so every chart reads as it.
    std::map<std::string, double> rank;
    for (std::size_t r = 0; r < pol.rows.size(); ++r)
        rank.emplace(pol.at(r, schema::kPolicies["policy"]),
                     number(pol.at(r, schema::kPolicies["rank"])));
    const auto rank_of = [&](const std::string& p) {
        const auto it = rank.find(p);
        return it == rank.end() || std::isnan(it->second) ? 1e300 : it->second;
    };
    for (const auto& metric : metrics) {
        std::vector<std::size_t> order;
        for (std::size_t r = 0; r < cmp.rows.size(); ++r) {
            if (cmp.at(r, schema::kCompare["metric"]) != metric) continue;
            const std::string a = cmp.at(r, schema::kCompare["policy_a"]),
                              b = cmp.at(r, schema::kCompare["policy_b"]);
            if (a == best || b == best) order.push_back(r);
        }
        std::stable_sort(order.begin(), order.end(), [&](std::size_t x, std::size_t y) {
            const auto other = [&](std::size_t r) {
                return cmp.at(r, schema::kCompare["policy_a"]) == best
                           ? cmp.at(r, schema::kCompare["policy_b"])
                           : cmp.at(r, schema::kCompare["policy_a"]);
            };
            return rank_of(other(x)) < rank_of(other(y));
        });
        std::vector<svg::ForestRow> rows;
        std::vector<std::vector<std::string>> cells;
        for (const std::size_t r : order) {
            const std::string a = cmp.at(r, schema::kCompare["policy_a"]),
                              b = cmp.at(r, schema::kCompare["policy_b"]);
            const double sign = a == best ? -1 : 1;  // the other policy's mean - the best's
            svg::ForestRow row;
            row.label = a == best ? b : a;
            row.value = sign * number(cmp.at(r, schema::kCompare["diff"]));
            row.low = sign * number(cmp.at(r, sign > 0 ? schema::kCompare["ci_low"]
                                                       : schema::kCompare["ci_high"]));
            row.high = sign * number(cmp.at(r, sign > 0 ? schema::kCompare["ci_high"]
                                                        : schema::kCompare["ci_low"]));
            row.tip = "p (Holm) " + cmp.at(r, schema::kCompare["p_holm"]);
            row.colour = static_cast<int>(rows.size()) + 1;
            rows.push_back(row);
            cells.push_back({row.label, num(row.value), num(row.low), num(row.high),
                             cmp.at(r, schema::kCompare["p_value"]),
                             cmp.at(r, schema::kCompare["p_holm"])});
        }
        if (rows.empty()) continue;
        s += metric_heading(words, metric) +
             figure(
                 svg::forest_chart(
                     metric + ": how far is each policy from the best (" + best + ")?",
                     mean_axis(words, metric, "difference in ", " (policy - best)"), rows, 0.0),
                 table({"policy", "difference", "ci_low", "ci_high", "p_value", "p_holm"}, cells));
    }
    s += "</section>";
    return s + policy_means_section(pol, words);
}

// compare --variant: per metric, each variant's paired difference from the first under each
// policy, with its 95% interval (a forest plot; MOVED marked), and each run's mean.
std::string variants_sections(const fs::path& dir) {
    const CsvTable t = read(dir, "variants.csv");
    const CsvTable words = read(dir, kMetricsFile);
    const auto col = [&](std::size_t r, std::string_view name) { return t.at(r, name); };
    std::string first;
    for (std::size_t r = 0; r < t.rows.size() && first.empty(); ++r)
        if (col(r, schema::kVariants["diff"]).empty()) first = col(r, schema::kVariants["variant"]);
    const bool several = distinct(t, schema::kVariants["policy"]).size() > 1;
    std::string s = partial_note(t) + "<section><h2>Each variant against " + escape(first) +
                    "</h2><p>Every variant played the same dice as <b>" + escape(first) +
                    "</b> under each policy, so each difference is measured playout by playout; "
                    "the bars are 95% intervals, MOVED where the Holm-adjusted p-value is under "
                    "0.05. Where the game's solver solves both variants, the exact difference is "
                    "in the table.</p>";
    for (const auto& metric : distinct(t, schema::kVariants["metric"])) {
        std::vector<svg::ForestRow> rows;
        std::vector<std::vector<std::string>> cells;
        for (std::size_t r = 0; r < t.rows.size(); ++r) {
            if (col(r, schema::kVariants["metric"]) != metric ||
                col(r, schema::kVariants["diff"]).empty())
                continue;
            svg::ForestRow row;
            row.label = col(r, schema::kVariants["variant"]) +
                        (several ? " (" + col(r, schema::kVariants["policy"]) + ")" : "");
            row.value = number(col(r, schema::kVariants["diff"]));
            row.low = number(col(r, schema::kVariants["diff_low"]));
            row.high = number(col(r, schema::kVariants["diff_high"]));
            row.tip = "p (Holm) " + col(r, schema::kVariants["p_holm"]);
            row.colour = static_cast<int>(rows.size()) + 1;
            row.mark = col(r, schema::kVariants["moved"]) == "true" ? "MOVED" : "";
            rows.push_back(row);
            cells.push_back(
                {row.label, col(r, schema::kVariants["diff"]),
                 col(r, schema::kVariants["diff_low"]), col(r, schema::kVariants["diff_high"]),
                 col(r, schema::kVariants["p_holm"]), col(r, schema::kVariants["exact_diff_low"]),
                 col(r, schema::kVariants["exact_diff_high"])});
        }
        if (rows.empty()) continue;
        s += metric_heading(words, metric) +
             figure(svg::forest_chart(
                        metric + ": what did each variant change against " + first + "?",
                        mean_axis(words, metric, "difference in ", " (variant - " + first + ")"),
                        rows, 0.0),
                    table({"variant", "difference", "ci_low", "ci_high", "p_holm", "exact_low",
                           "exact_high"},
                          cells));
    }
    s += "</section><section><h2>Each variant's figures</h2>";
    for (const auto& metric : distinct(t, schema::kVariants["metric"]))
        s +=
            "<h3>" + escape(metric) + "</h3>" +
            csv_table(t,
                      {"variant", "policy", "mean", "ci_low", "ci_high", "exact_mean_low",
                       "exact_mean_high", "rank"},
                      [&](std::size_t r) { return col(r, schema::kVariants["metric"]) == metric; });
    return s + "</section>";
}

// A tournament's playouts: games per pairing (a pairing: one policy in the first seat, one in
// the second), one number when every pairing played as many, else their range; and the total.
std::string tournament_playouts(const CsvTable& t) {
    std::map<std::string, bool> pairings;
    double lo = std::numeric_limits<double>::infinity(), hi = -lo, total = 0;
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
        const std::string key = t.at(r, schema::kTournament["first_policy"]) + '\n' +
                                t.at(r, schema::kTournament["second_policy"]);
        if (pairings.count(key)) continue;
        pairings[key] = true;
        const double n = number(t.at(r, schema::kTournament["playouts"]));
        if (std::isnan(n)) continue;
        lo = std::min(lo, n), hi = std::max(hi, n), total += n;
    }
    if (pairings.empty() || !std::isfinite(lo)) return "";
    return (lo == hi ? num(lo, 15) : num(lo, 15) + " to " + num(hi, 15)) + " games per pairing, " +
           std::to_string(pairings.size()) + " pairings (each policy in each seat against every " +
           "other): " + num(total, 15) + " games";
}

std::string tournament_sections(const fs::path& dir) {
    const CsvTable t = read(dir, "tournament.csv");
    const CsvTable ratings = read(dir, "ratings.csv");
    std::string s = partial_note(t);
    if (!t.rows.empty()) {
        std::vector<std::string> policies = distinct(t, schema::kTournament["first_policy"]);
        for (const auto& p : distinct(t, schema::kTournament["second_policy"]))
            if (std::find(policies.begin(), policies.end(), p) == policies.end())
                policies.push_back(p);
        const std::string first = t.at(0, schema::kTournament["first_seat"]),
                          second = t.at(0, schema::kTournament["second_seat"]);
        const std::size_t n = policies.size();
        std::vector<std::vector<double>> v(
            n, std::vector<double>(n, std::numeric_limits<double>::quiet_NaN()));
        std::vector<std::vector<std::string>> tips(n, std::vector<std::string>(n));
        const auto index = [&](const std::string& p) {
            return static_cast<std::size_t>(std::find(policies.begin(), policies.end(), p) -
                                            policies.begin());
        };
        for (std::size_t r = 0; r < t.rows.size(); ++r) {
            const std::size_t i = index(t.at(r, schema::kTournament["first_policy"])),
                              j = index(t.at(r, schema::kTournament["second_policy"]));
            std::string& tip = tips[i][j];
            if (tip.empty())
                tip = t.at(r, schema::kTournament["first_policy"]) + " (" + first + ") against " +
                      t.at(r, schema::kTournament["second_policy"]) + " (" + second + "), " +
                      t.at(r, schema::kTournament["playouts"]) + " games:";
            tip += " " + t.at(r, schema::kTournament["result"]) + " " +
                   num(number(t.at(r, schema::kTournament["rate"]))) + " [" +
                   num(number(t.at(r, schema::kTournament["ci_low"]))) + ", " +
                   num(number(t.at(r, schema::kTournament["ci_high"]))) + "]";
            if (t.at(r, schema::kTournament["result"]) == "first_wins")
                v[i][j] = number(t.at(r, schema::kTournament["rate"]));
        }
        s += "<section><h2>Who beats whom</h2><p>The share of games the row's policy wins in the "
             "first seat (" +
             escape(first) + ") against the column's in the second (" + escape(second) +
             "); hover a cell for its draws, losses and intervals. " +
             escape(tournament_playouts(t)) + ".</p>" +
             figure(
                 svg::heatmap_chart("Who beats whom? The first seat's win rate: " + first +
                                        " (rows) against " + second + " (columns)",
                                    first + " policy (first seat)",
                                    second + " policy (second seat)", policies, policies, v, tips),
                 csv_table(t,
                           {"first_policy", "second_policy", "result", "rate", "ci_low", "ci_high",
                            "playouts"},
                           [](std::size_t) { return true; })) +
             "</section>";
    }
    if (!ratings.rows.empty()) {
        std::vector<svg::ForestRow> rows;
        for (std::size_t r = 0; r < ratings.rows.size(); ++r)
            rows.push_back({ratings.at(r, schema::kRatings["policy"]),
                            number(ratings.at(r, schema::kRatings["rating"])),
                            number(ratings.at(r, schema::kRatings["ci_low"])),
                            number(ratings.at(r, schema::kRatings["ci_high"])),
                            ratings.at(r, schema::kRatings["games"]) + " games, score " +
                                num(number(ratings.at(r, schema::kRatings["score"])), 3) +
                                (ratings.at(r, schema::kRatings["policy_scenario"]).empty()
                                     ? ""
                                     : "; " + ratings.at(r, schema::kRatings["policy_scenario"])),
                            0, ""});
        std::sort(rows.begin(), rows.end(),
                  [](const auto& a, const auto& b) { return a.value > b.value; });
        s += "<section><h2>Ratings</h2><p>Bradley-Terry ratings on the Elo scale (mean 0) with 95% "
             "intervals.</p>" +
             figure(svg::forest_chart("Who is strongest overall? Bradley-Terry ratings",
                                      "rating (Elo scale, mean 0)", rows, 0.0),
                    csv_table(ratings,
                              {"policy", "rating", "ci_low", "ci_high", "games", "score", "points"},
                              [](std::size_t) { return true; })) +
             "</section>";
    }
    return s;
}

// sweep.csv's varied options: the columns between playouts and metric.
std::vector<std::string> varied_columns(const CsvTable& t) {
    std::vector<std::string> varied;
    bool in = false;
    for (const auto& h : t.header) {
        if (h == "metric") break;
        if (in) varied.push_back(h);
        if (h == "playouts") in = true;
    }
    return varied;
}

std::string varied_options(const CsvTable& t) {
    std::string out;
    for (const auto& v : varied_columns(t)) {
        if (!out.empty()) out += ", ";
        out += v;
    }
    return out;
}

std::string sweep_sections(const fs::path& dir) {
    const CsvTable t = read(dir, "sweep.csv");
    const std::vector<std::string> varied = varied_columns(t);
    const CsvTable words = read(dir, kMetricsFile);
    std::string s = partial_note(t) +
                    "<section><h2>How the odds move</h2><p>Each metric's mean against "
                    "each varied option, with its 95% band; every combination played the same "
                    "dice.</p>";
    for (const auto& metric : distinct(t, schema::kSweep["metric"])) {
        s += metric_heading(words, metric);
        for (const auto& option : varied) {
            std::vector<std::string> values = distinct(t, option);
            bool numeric = true;
            for (const auto& v : values) numeric = numeric && !std::isnan(number(v));
            if (numeric)
                std::sort(values.begin(), values.end(),
                          [](const auto& a, const auto& b) { return number(a) < number(b); });
            // One line per combination of the other varied options.
            std::map<std::string, svg::Line> lines;
            std::vector<std::string> order;
            for (std::size_t r = 0; r < t.rows.size(); ++r) {
                if (t.at(r, schema::kSweep["metric"]) != metric) continue;
                std::string key;
                for (const auto& o : varied)
                    if (o != option) key += (key.empty() ? "" : " ") + o + "=" + t.at(r, o);
                if (!lines.count(key)) order.push_back(key);
                svg::Line& l = lines[key];
                l.name = key.empty() ? metric : key;
                const std::string& v = t.at(r, option);
                l.x.push_back(numeric
                                  ? number(v)
                                  : static_cast<double>(std::find(values.begin(), values.end(), v) -
                                                        values.begin()));
                l.mean.push_back(number(t.at(r, schema::kSweep["mean"])));
                l.low.push_back(number(t.at(r, schema::kSweep["ci_low"])));
                l.high.push_back(number(t.at(r, schema::kSweep["ci_high"])));
            }
            std::vector<svg::Line> ordered;
            for (const auto& k : order) {
                svg::Line l = lines[k];
                std::vector<std::size_t> idx(l.x.size());
                for (std::size_t i = 0; i < idx.size(); ++i) idx[i] = i;
                std::sort(idx.begin(), idx.end(), [&](auto a, auto b) { return l.x[a] < l.x[b]; });
                svg::Line sorted{l.name, {}, {}, {}, {}};
                for (auto i : idx) {
                    sorted.x.push_back(l.x[i]);
                    sorted.mean.push_back(l.mean[i]);
                    sorted.low.push_back(l.low[i]);
                    sorted.high.push_back(l.high[i]);
                }
                ordered.push_back(std::move(sorted));
            }
            std::vector<std::string> columns = varied;
            for (const char* c : {"mean", "ci_low", "ci_high", "stddev", "playouts"})
                columns.push_back(c);
            s += figure(svg::line_chart(metric + ": how does it move with " + option + "?", option,
                                        mean_axis(words, metric), ordered,
                                        numeric ? std::vector<std::string>{} : values),
                        csv_table(t, columns, [&](std::size_t r) {
                            return t.at(r, schema::kSweep["metric"]) == metric;
                        }));
        }
    }
    return s + "</section>";
}

// A verdict's rank (the worst of a file's is its verdict): a target's words rank as a baseline's.
int verdict_rank(const std::string& v) {
    if (v == "moved" || v == "missed") return 3;
    if (v == "inconclusive") return 2;
    if (v == "tolerated") return 1;
    return 0;
}

// A baseline's metric: the baseline's interval and the re-run's, the detectable shift shaded.
std::string baseline_check_row(const CsvTable& t, std::size_t r, const CsvTable& words) {
    const std::string metric = t.at(r, schema::kCheck["metric"]),
                      v = t.at(r, schema::kCheck["verdict"]);
    const bool moved = v == "moved";
    const double old_mean = number(t.at(r, schema::kCheck["old_mean"]));
    const double detectable = number(t.at(r, schema::kCheck["detectable"]));
    std::vector<svg::ForestRow> rows{
        {"baseline", old_mean, number(t.at(r, schema::kCheck["old_ci_low"])),
         number(t.at(r, schema::kCheck["old_ci_high"])), "recorded", 0, ""},
        {"new", number(t.at(r, schema::kCheck["new_mean"])),
         number(t.at(r, schema::kCheck["new_ci_low"])),
         number(t.at(r, schema::kCheck["new_ci_high"])),
         "shift " + t.at(r, schema::kCheck["shift"]) + ", " + v, moved ? 5 : 2,
         moved                 ? "MOVED"
         : v == "tolerated"    ? "tolerated: pass"
         : v == "inconclusive" ? "inconclusive"
                               : "pass"}};
    std::optional<svg::Band> band;
    if (!std::isnan(detectable))
        band = svg::Band{old_mean - detectable, old_mean + detectable,
                         "baseline ± detectable shift (" + num(detectable) + ")"};
    else if (const double tol = number(t.at(r, schema::kCheck["tolerance"])); !std::isnan(tol))
        band = svg::Band{old_mean - tol, old_mean + tol, "baseline ± tolerance (" + num(tol) + ")"};
    const std::string word = moved ? "MOVED" : v;
    return metric_heading(words, metric, ": " + word) +
           figure(svg::forest_chart(metric + ": has it moved from the baseline? " + word,
                                    mean_axis(words, metric), rows, std::nullopt, band,
                                    {"baseline", "", "new"}),
                  csv_table(t,
                            {"metric", "verdict", "old_mean", "old_ci_low", "old_ci_high",
                             "new_mean", "new_ci_low", "new_ci_high", "shift", "alarm_above",
                             "detectable", "tolerance"},
                            [&](std::size_t k) { return k == r; }));
}

// A target: the statistic it names as the re-run measured it (a mean with its interval, or a
// percentile), and the range that meets the target shaded.
std::string target_check_row(const CsvTable& t, std::size_t r, const CsvTable& words) {
    const std::string target = t.at(r, schema::kCheck["metric"]),
                      v = t.at(r, schema::kCheck["verdict"]);
    const std::string statistic = t.at(r, schema::kCheck["statistic"]);
    const std::string metric = target.substr(0, target.find(' '));
    const bool missed = v == "missed";
    const bool mean = statistic == "mean";
    const double value = number(t.at(r, schema::kCheck["value"]));
    const double low = mean ? number(t.at(r, schema::kCheck["new_ci_low"])) : value;
    const double high = mean ? number(t.at(r, schema::kCheck["new_ci_high"])) : value;
    const double bound_low = number(t.at(r, schema::kCheck["target_low"])),
                 bound_high = number(t.at(r, schema::kCheck["target_high"]));
    const std::string word = missed ? "MISSED" : v;
    std::vector<svg::ForestRow> rows{{"now: " + statistic, value, low, high,
                                      "margin " + t.at(r, schema::kCheck["margin"]) + ", " + v,
                                      missed ? 5 : 2, word}};
    // The band: the values that meet the target; a one-sided target's reaches past the data.
    double lo = value, hi = value;
    for (double x : {low, high, bound_low, bound_high})
        if (std::isfinite(x)) lo = std::min(lo, x), hi = std::max(hi, x);
    const double pad = hi > lo ? (hi - lo) * 0.15 : std::max(0.5, std::abs(hi) * 0.1);
    std::optional<svg::Band> band;
    const std::string bounds = target.substr(target.find(' ') + 1);
    // At most V: down to 0 for a metric that is never negative; at least V: up to 1 for a rate.
    const double floor = lo >= 0 ? 0.0 : lo - pad;
    const double ceiling =
        t.at(r, schema::kCheck["kind"]) == "rate" && mean ? std::max(1.0, hi) : hi + pad;
    if (!std::isnan(bound_low) || !std::isnan(bound_high))
        band = svg::Band{std::isnan(bound_low) ? floor : bound_low,
                         std::isnan(bound_high) ? ceiling : bound_high,
                         "the target: " + bounds + " (met inside)"};
    return "<h3>target " + escape(target + ": " + word) + "</h3>" + metric_words(words, metric) +
           figure(svg::forest_chart("target " + target + ": is it met? " + word,
                                    mean ? mean_axis(words, metric)
                                         : metric + ", its " + statistic + " (" +
                                               statistic.substr(1) + "th percentile)",
                                    rows, std::nullopt, band),
                  csv_table(t,
                            {"metric", "verdict", "statistic", "value", "new_mean", "new_ci_low",
                             "new_ci_high", "target_low", "target_high", "margin"},
                            [&](std::size_t k) { return k == r; }));
}

std::string check_sections(const fs::path& dir) {
    const CsvTable t = read(dir, "check.csv");
    const CsvTable words = read(dir, kMetricsFile);
    std::string s;
    for (const auto& file : distinct(t, schema::kCheck["file"])) {
        std::size_t first = 0;
        while (t.at(first, schema::kCheck["file"]) != file) ++first;
        const std::string mode = t.at(first, schema::kCheck["mode"]);
        const bool targets = mode == "targets";
        std::string verdict = targets ? "met" : "unchanged";
        for (std::size_t r = 0; r < t.rows.size(); ++r)
            if (t.at(r, schema::kCheck["file"]) == file &&
                verdict_rank(t.at(r, schema::kCheck["verdict"])) > verdict_rank(verdict))
                verdict = t.at(r, schema::kCheck["verdict"]);
        const std::string head = verdict == "moved"          ? "the balance MOVED"
                                 : verdict == "missed"       ? "a target is MISSED"
                                 : verdict == "inconclusive" ? "INCONCLUSIVE at the cap"
                                 : verdict == "met"          ? "every target met"
                                                             : verdict;
        const std::string how =
            targets ? "targets checked sequentially (GSPRT), rules version " +
                          escape(t.at(first, schema::kCheck["rules_version_build"])) + ", seed " +
                          escape(t.at(first, schema::kCheck["seed"])) + ", " +
                          escape(t.at(first, schema::kCheck["playouts"])) + " playouts"
                    : escape(mode) + " check, rules version " +
                          escape(t.at(first, schema::kCheck["rules_version_baseline"])) +
                          " (this build: " +
                          escape(t.at(first, schema::kCheck["rules_version_build"])) + "), seed " +
                          escape(t.at(first, schema::kCheck["seed"])) + ", " +
                          escape(t.at(first, schema::kCheck["playouts"])) + " playouts";
        s += "<section><h2>" + escape(file) + ": " +
             (verdict_rank(verdict) >= 2 ? "<span class=\"moved\">" + escape(head) + "</span>"
                                         : "<span class=\"pass\">" + escape(head) + "</span>") +
             "</h2><p>" + escape(t.at(first, schema::kCheck["game"])) + " | " +
             escape(t.at(first, schema::kCheck["scenario"])) + " | " +
             escape(t.at(first, schema::kCheck["policy"])) + "<br>" + how + "</p>";
        for (std::size_t r = 0; r < t.rows.size(); ++r) {
            if (t.at(r, schema::kCheck["file"]) != file) continue;
            s += targets ? target_check_row(t, r, words) : baseline_check_row(t, r, words);
        }
        s += "</section>";
    }
    return s;
}

// The tune.csv columns tune_rows reads, looked up here rather than in the template (clang 14,
// the web build's compiler, refuses a consteval call in a template's body).
constexpr std::string_view kTuneBest = schema::kTune["best"];
constexpr std::string_view kTuneCiHigh = schema::kTune["ci_high"];
constexpr std::string_view kTuneCiLow = schema::kTune["ci_low"];
constexpr std::string_view kTuneMean = schema::kTune["mean"];
constexpr std::string_view kTuneMethod = schema::kTune["method"];
constexpr std::string_view kTunePlayouts = schema::kTune["playouts"];
constexpr std::string_view kTunePhase = schema::kTuneHead["phase"];
constexpr std::string_view kTuneStep = schema::kTuneHead["step"];

// odds tune: one forest row per row of tune.csv that `keep` takes (its setting, its estimate and
// interval or exact bounds), the best marked; the best's label (without the step) into `best`.
template <class Keep>
std::vector<svg::ForestRow> tune_rows(const CsvTable& t, const std::vector<std::string>& varied,
                                      Keep keep, std::string& best) {
    std::vector<svg::ForestRow> rows;
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
        if (!keep(r)) continue;
        std::string label = t.at(r, kTuneStep) + ":";
        for (const auto& o : varied) label += " " + o + "=" + t.at(r, o);
        const bool is_best = t.at(r, kTuneBest) == "true";
        if (is_best) best = label.substr(label.find(' ') + 1);
        const double low = number(t.at(r, kTuneCiLow)), high = number(t.at(r, kTuneCiHigh));
        const double mean = number(t.at(r, kTuneMean));
        const std::string how = t.at(r, kTuneMethod) == "exact"
                                    ? std::string(std::isnan(mean) ? "exact bounds" : "exact")
                                    : t.at(r, kTunePlayouts) + " playouts, 95% interval";
        rows.push_back({label, std::isnan(mean) ? (low + high) / 2 : mean, low, high,
                        t.at(r, kTunePhase) + ", " + how, is_best ? 5 : 0, is_best ? "best" : ""});
    }
    return rows;
}

// A target's reference line (METRIC=VALUE, or the end of a one-sided 'within') or band (METRIC
// within LO..HI), from its text.
std::pair<std::optional<double>, std::optional<svg::Band>> tune_reference(const std::string& text) {
    try {
        const tune::Target g = tune::parse_target(text);
        if (g.kind == tune::Target::Kind::value) return {g.value, std::nullopt};
        if (g.kind == tune::Target::Kind::within && std::isfinite(g.lo) && std::isfinite(g.hi))
            return {std::nullopt, svg::Band{g.lo, g.hi, "wished"}};
        if (g.kind == tune::Target::Kind::within)  // one side open: its end, as a line
            return {std::isfinite(g.lo) ? g.lo : g.hi, std::nullopt};
    } catch (const UsageError&) {  // a distance row's "weighted sum", or a file edited by hand
    }
    return {std::nullopt, std::nullopt};
}

// odds tune with several targets (or a confirmation): per target, its metric at each setting
// of the search with the target drawn, then the confirmed finalists with their intervals.
std::string tune_targets_sections(const CsvTable& t, const std::vector<std::string>& varied,
                                  const std::vector<std::string>& columns, const CsvTable& words) {
    std::vector<std::pair<std::string, std::string>> targets;  // metric, target, first seen
    for (std::size_t r = 0; r < t.rows.size(); ++r) {
        const std::pair<std::string, std::string> m{t.at(r, schema::kTune["metric"]),
                                                    t.at(r, schema::kTune["target"])};
        if (std::find(targets.begin(), targets.end(), m) == targets.end()) targets.push_back(m);
    }
    std::string best, s;
    for (const bool confirmed : {false, true}) {
        std::string charts;
        for (const auto& [metric, target] : targets) {
            auto rows = tune_rows(
                t, varied,
                [&, m = metric](std::size_t r) {
                    return t.at(r, schema::kTune["metric"]) == m &&
                           (t.at(r, schema::kTuneHead["phase"]) == "confirm") == confirmed;
                },
                best);
            if (rows.empty()) continue;
            const auto [line, band] = tune_reference(target);
            const std::string what =
                metric == "distance" ? "the combined distance (weighted sum)" : target;
            charts += figure(svg::forest_chart("odds tune: which setting comes closest to " + what +
                                                   (confirmed ? "? The finalists confirmed"
                                                              : "? Each evaluated setting"),
                                               mean_axis(words, metric), rows, line, band),
                             "");
        }
        if (charts.empty()) continue;
        s += std::string("<section><h2>") +
             (confirmed ? "The finalists, confirmed on fresh dice" : "The search") + "</h2>" +
             charts + "</section>";
    }
    std::vector<std::string> cols = columns;
    cols.insert(cols.begin() + static_cast<std::ptrdiff_t>(3 + varied.size()),
                {"metric", "target"});
    const std::string note = partial_note(t);
    return note + "<section><h2>The best setting</h2><p>" +
           (best.empty() ? std::string("No setting was marked best (the search was interrupted).")
                         : std::string(note.empty() ? "Best setting" : "Best setting so far") +
                               ": <strong>" + escape(best) + "</strong>.") +
           " Each target's metric at each evaluation in the order made, the target as the "
           "reference line (a band for 'within'); exact values where the game's solver "
           "resolves the setting.</p>" +
           csv_table(t, cols, [](std::size_t) { return true; }) + "</section>" + s;
}

// odds tune: the search's path, one row per evaluation (setting, estimate and its interval or
// exact bounds), the best setting marked and a METRIC=VALUE target drawn as the reference line.
std::string tune_sections(const fs::path& dir) {
    const CsvTable t = read(dir, "tune.csv");
    if (t.rows.empty())
        return "<section><h2>The search</h2><p>No evaluation was made.</p></section>";
    const std::string metric = t.at(0, schema::kTune["metric"]),
                      target = t.at(0, schema::kTune["target"]);
    std::vector<std::string> varied;  // the columns between round and metric
    {
        const auto& h = t.header;
        const auto from = std::find(h.begin(), h.end(), "round"),
                   to = std::find(h.begin(), h.end(), "metric");
        if (from != h.end() && to != h.end() && from < to) varied.assign(from + 1, to);
    }
    std::vector<std::string> columns{"step", "phase", "round"};
    columns.insert(columns.end(), varied.begin(), varied.end());
    for (const char* c : {"mean", "ci_low", "ci_high", "playouts", "method", "best"})
        columns.push_back(c);
    bool several = false;  // several targets, or a confirmation: tune_targets_sections
    for (std::size_t r = 0; r < t.rows.size(); ++r)
        several = several || t.at(r, schema::kTune["target"]) != target ||
                  t.at(r, schema::kTuneHead["phase"]) == "confirm";
    const CsvTable words = read(dir, kMetricsFile);
    if (several) return tune_targets_sections(t, varied, columns, words);
    std::optional<double> reference;
    if (const auto eq = target.find('='); eq != std::string::npos)
        if (const double v = number(target.substr(eq + 1)); !std::isnan(v)) reference = v;
    std::string best;
    const auto rows = tune_rows(
        t, varied, [](std::size_t) { return true; }, best);
    const std::string note = partial_note(t);  // stopped: the best so far (docs/output.md)
    return note + "<section><h2>The search: target " + escape(target) + "</h2><p>" +
           (best.empty() ? std::string("No setting was marked best (the search was interrupted).")
                         : std::string(note.empty() ? "Best setting" : "Best setting so far") +
                               ": <strong>" + escape(best) + "</strong>.") +
           " Each evaluation in the order made; exact values where the game's solver resolves "
           "the setting.</p>" +
           figure(svg::forest_chart("odds tune: which setting comes closest to " + target + "? " +
                                        metric + " at each evaluated setting",
                                    mean_axis(words, metric), rows, reference),
                  csv_table(t, columns, [](std::size_t) { return true; })) +
           "</section>";
}

// odds skill (docs/skill.md): the ladder as a forest plot, its rungs in their order with their
// intervals (rungs told apart from the one below them marked), and the luck share with its
// interval on the scale from 0 (no chance) to 1 (pure luck).
std::string skill_sections(const fs::path& dir) {
    const CsvTable ladder = read(dir, "ladder.csv");
    const CsvTable skill = read(dir, "skill.csv");
    std::string s = partial_note(ladder);
    if (!ladder.rows.empty()) {
        const std::string measure = ladder.at(0, schema::kLadder["measure"]);
        const bool rated = measure == "rating";
        std::vector<svg::ForestRow> rows;
        for (std::size_t r = 0; r < ladder.rows.size(); ++r) {
            const bool apart = ladder.at(r, schema::kLadder["apart_from_below"]) == "true";
            rows.push_back({ladder.at(r, schema::kLadder["rung"]) + ": " +
                                ladder.at(r, schema::kLadder["policy"]),
                            number(ladder.at(r, schema::kLadder["value"])),
                            number(ladder.at(r, schema::kLadder["ci_low"])),
                            number(ladder.at(r, schema::kLadder["ci_high"])),
                            ladder.at(r, schema::kLadder["games"]) +
                                (rated ? " games a pairing" : " games") +
                                (apart ? "; told apart from the rung below it in strength" : ""),
                            apart ? 2 : 0, apart ? "apart" : ""});
        }
        s += "<section><h2>The ladder</h2><p>Each rung's " +
             escape(rated ? std::string("Bradley-Terry rating (Elo scale, mean 0)")
                          : "mean " + measure) +
             " with its 95% interval, in the ladder's order; <em>apart</em> marks a rung told "
             "apart at 95% from the rung just below it in strength.</p>" +
             figure(svg::forest_chart("odds skill: does a stronger policy do better, rung by rung?",
                                      rated ? "rating (Elo scale, mean 0)" : measure, rows,
                                      rated ? std::optional<double>(0.0) : std::nullopt),
                    csv_table(ladder,
                              {"rung", "policy", "value", "ci_low", "ci_high", "apart_from_below",
                               "games"},
                              [](std::size_t) { return true; })) +
             "</section>";
    }
    if (!skill.rows.empty()) {
        const double share = number(skill.at(0, schema::kSkill["luck_share"]));
        const std::vector<svg::ForestRow> rows{
            {"luck share", share, number(skill.at(0, schema::kSkill["ci_low"])),
             number(skill.at(0, schema::kSkill["ci_high"])),
             "the share of the outcome's variance within a group (the dice); depth " +
                 skill.at(0, schema::kSkill["depth"]) + " of " +
                 skill.at(0, schema::kSkill["rungs"]) + " rungs",
             0, ""}};
        s += "<section><h2>Skill or luck</h2><p>Depth: <strong>" +
             escape(skill.at(0, schema::kSkill["depth"])) + "</strong> of the " +
             escape(std::to_string(
                 std::max(0, std::atoi(skill.at(0, schema::kSkill["rungs"]).c_str()) - 1))) +
             " steps between neighbours in strength are told apart. Luck share: <strong>" +
             escape(std::isnan(share) ? std::string("not known (the outcome never varies)")
                                      : num(share, 3)) +
             "</strong>, the part of the outcome's variance the dice decide once the policies are "
             "fixed (0: no chance, 1: pure luck).</p>" +
             figure(svg::forest_chart("odds skill: how much do the dice decide? The luck share, "
                                      "95% interval",
                                      "share of the outcome's variance", rows, std::nullopt,
                                      svg::Band{0.0, 1.0, "0 (skill) to 1 (luck)"}),
                    csv_table(skill,
                              {"depth", "rungs", "groups", "luck_share", "ci_low", "ci_high",
                               "within", "between"},
                              [](std::size_t) { return true; })) +
             "</section>";
    }
    return s;
}

// odds restrict (docs/skill.md): the restriction ranking as a forest plot, each restriction's
// cost with its 95% interval (a point for an exact one), highest first; a restriction that costs
// nothing is marked as a rule a player can ignore.
std::string restrict_sections(const fs::path& dir) {
    const CsvTable t = read(dir, "restrict.csv");
    if (t.rows.empty()) return {};
    const std::string measure = t.at(0, schema::kRestrict["measure"]);
    std::vector<svg::ForestRow> rows;
    for (std::size_t r = 1; r < t.rows.size(); ++r) {
        const bool ignorable = t.at(r, schema::kRestrict["ignorable"]) == "true";
        const bool never_used = t.at(r, schema::kRestrict["never_used"]) == "true";
        rows.push_back(
            {t.at(r, schema::kRestrict["rank"]) + ": " + t.at(r, schema::kRestrict["restriction"]),
             number(t.at(r, schema::kRestrict["cost"])),
             number(t.at(r, schema::kRestrict["ci_low"])),
             number(t.at(r, schema::kRestrict["ci_high"])),
             "best play under it: " + t.at(r, schema::kRestrict["best_play"]) + "; " + measure +
                 " " + t.at(r, schema::kRestrict["value"]) +
                 (never_used  ? "; every game the same: never used by this play"
                  : ignorable ? "; used, and costs nothing"
                              : ""),
             ignorable || never_used ? 2 : 0,
             never_used  ? "never used"
             : ignorable ? "ignorable"
                         : ""});
    }
    return partial_note(t) + "<section><h2>What each rule element is worth</h2><p>" +
           "Each restriction's cost: what the best available play (" +
           escape(t.at(0, schema::kRestrict["play"])) + ") loses in " + escape(measure) +
           " when it may never make that choice, " +
           (t.at(0, schema::kRestrict["method"]) == "exact"
                ? std::string("exact")
                : "the mean paired difference on the same dice with its 95% interval") +
           "; highest first. <em>never used</em> marks a restriction under which every game "
           "came out the same: the play never made that choice. <em>ignorable</em> marks one "
           "the play used and that costs nothing told apart from 0 (its interval holds 0): a "
           "rule this play can ignore. Unrestricted: " +
           escape(measure) + " " + escape(t.at(0, schema::kRestrict["value"])) + ".</p>" +
           figure(svg::forest_chart("odds restrict: what does each restriction cost the best play?",
                                    measure + " lost", rows, 0.0),
                  csv_table(t,
                            {"rank", "restriction", "best_play", "value", "cost", "ci_low",
                             "ci_high", "ignorable", "never_used", "games"},
                            [](std::size_t) { return true; })) +
           "</section>";
}

// odds shape (docs/skill.md, "The shape of a game"): p's quantiles by step as a fan, then the
// measures.
std::string shape_fan_section(const CsvTable& fan, const CsvTable& shape) {
    svg::Fan f;
    for (std::size_t r = 0; r < fan.rows.size(); ++r) {
        f.step.push_back(number(fan.at(r, schema::kFan["step"])));
        f.q10.push_back(number(fan.at(r, schema::kFan["q10"])));
        f.q25.push_back(number(fan.at(r, schema::kFan["q25"])));
        f.q50.push_back(number(fan.at(r, schema::kFan["q50"])));
        f.q75.push_back(number(fan.at(r, schema::kFan["q75"])));
        f.q90.push_back(number(fan.at(r, schema::kFan["q90"])));
    }
    bool solo = false;
    for (std::size_t r = 0; r < shape.rows.size(); ++r)
        solo = solo || shape.at(r, schema::kShape["measure"]) == "success";
    // The first seat by its name and policy, from fan.csv's policy ("a=gunner b=boarder").
    std::string seat = "seat 0";
    if (!fan.rows.empty() && fan.has(schema::kFan["policy"])) {
        const std::string policy = fan.at(0, schema::kFan["policy"]);
        const std::string first = policy.substr(0, policy.find(' '));
        if (const auto eq = first.find('='); eq != std::string::npos)
            seat = first.substr(0, eq) + " (" + first.substr(eq + 1) + ")";
    }
    const std::string p = solo ? "P(success)" : "P(" + seat + " wins), a draw half";
    return "<section><h2>The odds along the game</h2><p>At each step of the sampled games, " +
           escape(p) +
           " from there: the median game as a line, the middle half and the middle 80% of games "
           "as bands. A game that has ended counts at its outcome (1, 1/2 or 0) from then on; "
           "<em>running</em> is the number of games that reach the step.</p>" +
           figure(svg::fan_chart(solo ? "odds shape: how sure is success, step by step?"
                                      : "odds shape: who is ahead, step by step?",
                                 "step (0: the start)", p, f),
                  csv_table(fan, {"step", "running", "q10", "q25", "q50", "q75", "q90"},
                            [](std::size_t) { return true; })) +
           "</section>";
}

std::string shape_sections(const fs::path& dir) {
    const CsvTable shape = read(dir, "shape.csv");
    const CsvTable fan = read(dir, "fan.csv");
    std::string s;
    if (!fan.rows.empty()) s += shape_fan_section(fan, shape);
    if (!shape.rows.empty())
        s += "<section><h2>The shape of the game</h2><p>Each measure averaged over the sampled "
             "games (docs/skill.md defines them: Ludii's lead changes, drama and decisiveness, "
             "the comeback rate; a solo game's point of no return).</p>" +
             csv_table(
                 shape, {"measure", "value"}, [](std::size_t) { return true; }, "the measures",
                 true) +
             "</section>";
    return s;
}

// The words (NAME=VALUE) of the first row's scenario that every row's scenario holds: what the
// combinations, pairings or policies of a folder share.
std::string shared_scenario(const CsvTable& t) {
    std::vector<std::vector<std::string>> all;
    for (std::size_t r = 0; r < t.rows.size(); ++r) all.push_back(split_words(t.at(r, "scenario")));
    std::string out;
    if (all.empty()) return out;
    for (const auto& w : all.front()) {
        bool everywhere = true;
        for (const auto& words : all)
            everywhere = everywhere && std::find(words.begin(), words.end(), w) != words.end();
        if (!everywhere) continue;
        if (!out.empty()) out += ' ';
        out += w;
    }
    return out;
}

const char* kStyle =
    "body{font-family:system-ui,-apple-system,'Segoe UI',sans-serif;max-width:1000px;margin:1em "
    "auto;padding:0 1em;color:#222;background:#fff}h1{font-size:1.5em}h2{font-size:1.2em;border-"
    "bottom:1px solid "
    "#ccc;margin-top:1.6em}h3{font-size:1em;margin-bottom:.2em}p.what{margin-top:0;color:#555}code{"
    "font-size:.9em;background:#f3f3f3;"
    "padding:0 .2em;word-break:break-all}dl{display:grid;grid-template-columns:max-content "
    "auto;gap:"
    ".2em 1em}dt{font-weight:600}dd{margin:0;word-break:break-word}figure{margin:.5em 0}svg.chart{"
    "max-width:100%;height:auto}svg text{font-size:12px;fill:#222;font-family:inherit}svg "
    ".title{font-size:15px;font-weight:600}.cell text.light{fill:#fff}.axis line{stroke:#555}.axis "
    "line.grid{stroke:#e4e4e4}.s0{fill:#"
    "0072B2;stroke:#0072B2}.s1{fill:#E69F00;stroke:#E69F00}.s2{fill:#009E73;stroke:#009E73}.s3{"
    "fill:#CC79A7;stroke:#CC79A7}.s4{fill:#56B4E9;stroke:#56B4E9}.s5{fill:#D55E00;stroke:#D55E00}."
    "s6{fill:#000;stroke:#000}.bars rect{stroke:none;opacity:.85}.marks path{stroke:#000;stroke-"
    "width:.5}.line{fill:none;stroke-width:2}.dashed{stroke-dasharray:6 4}polygon.band,rect.band{"
    "fill:#888;opacity:.18;stroke:none}polygon.fan-outer{opacity:.18;stroke:none}polygon.fan-"
    "inner{opacity:.35;stroke:none}rect.fan-outer{opacity:.18}rect.fan-inner{opacity:.35}.censor{"
    "stroke:#000;stroke-width:1.5;fill:none}.hit{fill:"
    "transparent;stroke:none}.interval{stroke-width:2.5}.reference{stroke:#000;stroke-dasharray:4 "
    "3}.mark{font-weight:700}.row text{fill:#222;stroke:none}.empty{fill:#eee}.moved{color:#D55E00}"
    ".pass{color:#009E73}.warning{background:#fff3cd;padding:.5em}table{border-collapse:collapse;"
    "font-size:.85em;margin:.5em 0}td,th{border:1px solid #ccc;padding:.15em .5em;text-align:right}"
    "td:first-child,th:first-child{text-align:left}details{margin-bottom:1em}summary{cursor:"
    "pointer;color:#0057a0}@media print{details{display:none}h2{break-after:avoid}figure{break-"
    "inside:avoid}}";

}  // namespace

namespace {

// The policies a table's policy column names, in the order first seen.
std::string policies_in(const CsvTable& t) {
    std::string out;
    for (const auto& p : distinct(t, "policy")) out += (out.empty() ? "" : ", ") + p;
    return out;
}

// What the head row of a command of many runs says of its playouts (a tune's are per setting, in
// its table; a tournament's per pairing).
std::string no_playouts(const fs::path&, const CsvTable&) { return ""; }
std::string pairings_playouts(const fs::path& dir, const CsvTable&) {
    return tournament_playouts(read(dir, "tournament.csv"));
}
std::string ladder_playouts(const fs::path&, const CsvTable& main) {
    return main.at(0, schema::kLadder["games"]) + " games a pairing or rung";
}
std::string shape_playouts(const fs::path&, const CsvTable& main) {
    return main.at(0, schema::kShape["games"]) + " games";
}
std::string restrict_playouts(const fs::path&, const CsvTable& main) {
    return main.at(0, schema::kRestrict["games"]) + " games a restriction";
}

// Whom a command of many runs names in its head row's policy: the policies its `listed` table
// names (a comparison, tournament or ladder), its main table's own (a sweep or tune: one policy
// throughout), or none (a restriction ranking or a shape).
enum class Entrants { listed, own, none };

// Each command's report, declared once: the files it writes (the report reads no others), those
// whose presence marks a folder as its, the main table (the first of `mains` with rows: the head
// row's source), the table naming its entrants, its sections and, for a command of many runs,
// what its head row says of their playouts. A folder is the command's of the lowest `rank` it
// holds a mark of; a run's (summary.csv) otherwise. The rows' order is the order the page's
// footer lists the files in.
struct ReportKind {
    const char* kind;
    std::vector<const char*> files, marks, mains;
    int rank;
    Entrants entrants;
    const char* listed;  // Entrants::listed: the table whose policy column names them
    std::string (*sections)(const fs::path&);
    std::string (*playouts)(const fs::path&, const CsvTable&);  // null: no head row of its own
};

const std::vector<ReportKind>& kinds() {
    const auto main_playouts = [](const fs::path&, const CsvTable& main) {
        return main.at(0, "playouts");
    };
    using E = Entrants;
    static const std::vector<ReportKind> k = {
        {"run",
         {"summary.csv", "distributions.csv", "survival.csv"},
         {},
         {},
         99,
         E::none,
         "",
         run_sections,
         nullptr},
        {"compare",
         {"compare.csv", "policies.csv"},
         {"compare.csv", "policies.csv"},
         {"compare.csv", "policies.csv"},
         7,
         E::listed,
         "policies.csv",
         compare_sections,
         main_playouts},
        {"variants",
         {"variants.csv"},
         {"variants.csv"},
         {"variants.csv"},
         7,
         E::listed,
         "variants.csv",
         variants_sections,
         main_playouts},
        {"tournament",
         {"tournament.csv", "ratings.csv"},
         {"tournament.csv", "ratings.csv"},
         {"ratings.csv", "tournament.csv"},
         5,
         E::listed,
         "ratings.csv",
         tournament_sections,
         pairings_playouts},
        {"sweep",
         {"sweep.csv"},
         {"sweep.csv"},
         {"sweep.csv"},
         6,
         E::own,
         "",
         sweep_sections,
         main_playouts},
        {"check", {"check.csv"}, {"check.csv"}, {}, 1, E::none, "", check_sections, nullptr},
        {"tune",
         {"tune.csv"},
         {"tune.csv"},
         {"tune.csv"},
         0,
         E::own,
         "",
         tune_sections,
         no_playouts},
        {"skill",
         {"ladder.csv", "skill.csv"},
         {"ladder.csv", "skill.csv"},
         {"ladder.csv", "skill.csv"},
         3,
         E::listed,
         "ladder.csv",
         skill_sections,
         ladder_playouts},
        {"exact",
         {"exact/summary.csv", "exact/distributions.csv"},
         {},
         {},
         99,
         E::none,
         "",
         nullptr,
         nullptr},
        {"restrict",
         {"restrict.csv"},
         {"restrict.csv"},
         {"restrict.csv"},
         2,
         E::none,
         "",
         restrict_sections,
         restrict_playouts},
        {"shape",
         {"shape.csv", "fan.csv"},
         {"shape.csv", "fan.csv"},
         {"shape.csv"},
         4,
         E::none,
         "",
         shape_sections,
         shape_playouts},
    };
    return k;
}

}  // namespace

std::vector<std::string> report_inputs(const fs::path& dir) {
    std::vector<std::string> found;
    std::error_code ec;
    for (const char* name : {kProvenanceFile, kMetricsFile})
        if (fs::is_regular_file(dir / name, ec)) found.emplace_back(name);
    const std::size_t about = found.size();  // files about the folder, not figures
    for (const ReportKind& k : kinds())
        for (const char* name : k.files)
            if (fs::is_regular_file(dir / name, ec)) found.emplace_back(name);
    if (found.size() == about) found.clear();
    return found;
}

namespace {

// What a folder holds, as its files say: the command (kind), the report's sections, the table its
// head row is read from and, for a comparison, tournament or ladder, its policies in order.
struct ReportMain {
    std::string kind, body;
    CsvTable main;
    std::string policies;
    const ReportKind* of = nullptr;  // null: a run's (or an exact run's)
};

ReportMain report_main(const fs::path& dir, const std::vector<std::string>& inputs) {
    const auto has = [&](const char* name) {
        return std::find(inputs.begin(), inputs.end(), name) != inputs.end();
    };
    const ReportKind* of = nullptr;
    for (const ReportKind& k : kinds())
        for (const char* mark : k.marks)
            if (has(mark) && (!of || k.rank < of->rank)) of = &k;
    ReportMain r;
    if (!of) {
        r.main = read(dir, "summary.csv");
        r.kind = !r.main.rows.empty() && r.main.at(0, schema::kSummary["method"]) == "exact"
                     ? "exact"
                     : "run";
        r.body = run_sections(dir);
        return r;
    }
    r.kind = of->kind;
    r.of = of;
    for (const char* table : of->mains)
        if (r.main.rows.empty()) r.main = read(dir, table);
    if (of->entrants == Entrants::listed) r.policies = policies_in(read(dir, of->listed));
    r.body = of->sections(dir);
    return r;
}

// A command of many runs (a comparison, tournament, sweep, tune, ladder, ranking or shape): its
// subject is their policies, not one run's, so the head row is built from its main table.
CsvTable subject_head(const fs::path& dir, const ReportMain& r) {
    const CsvTable& main = r.main;
    CsvTable head;
    head.header = {"game", "scenario", "seed", "playouts", "status", "policy"};
    if (!main.rows.empty()) {
        std::vector<std::string> row;
        for (const auto& c : head.header) row.push_back(main.at(0, c));
        row[1] = shared_scenario(main);
        if (r.kind == "sweep") row[1] += " (varied: " + varied_options(main) + ")";
        row[3] = r.of->playouts(dir, main);
        if (r.of->entrants != Entrants::own) row[5] = r.policies;
        head.rows.push_back(row);
    }
    return head;
}

}  // namespace

std::string report_html(const fs::path& dir) {
    const auto inputs = report_inputs(dir);
    if (inputs.empty())
        throw std::runtime_error("'" + dir.string() +
                                 "' holds none of the files odds writes (summary.csv, "
                                 "compare.csv, tournament.csv, sweep.csv, check.csv, tune.csv)");
    const CsvTable prov = read(dir, kProvenanceFile);
    ReportMain r = report_main(dir, inputs);
    std::string& kind = r.kind;
    CsvTable& main = r.main;
    if (r.of && r.of->playouts) main = subject_head(dir, r);
    if (!prov.rows.empty() && !prov.at(0, schema::kProvenance["command"]).empty())
        kind = prov.at(0, schema::kProvenance["command"]);
    std::string game = !prov.rows.empty()  ? prov.at(0, schema::kProvenance["game"])
                       : main.rows.empty() ? ""
                                           : main.at(0, "game");
    const std::string title = "odds " + kind + (game.empty() ? "" : ": " + game);
    std::string files;
    for (const auto& f : inputs) files += (files.empty() ? "" : ", ") + f;
    return "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><meta "
           "name=\"viewport\" "
           "content=\"width=device-width,initial-scale=1\"><title>" +
           escape(title) + "</title><style>" + kStyle + "</style></head><body><h1>" +
           escape(title) + "</h1>" + provenance_section(prov, main) + "<main>" + r.body +
           "</main><footer><p>Made by odds from " + escape(files) +
           " in this folder; every chart's "
           "numbers are in the table under it.</p></footer></body></html>\n";
}

}  // namespace odds
