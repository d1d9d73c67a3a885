// What `odds check` decides for each metric of each baseline, and the machine-readable reports of
// it: JUnit XML (--junit: one test case per metric per baseline, one test suite per baseline
// file) and JSON (--json). The table on stdout is made from the same records
// (sim/cli/baseline.cpp).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reports/compare.hpp"
#include "reports/stats.hpp"

namespace odds {

// unchanged: no change found. tolerated: a change was found, but it is not shown to exceed the
// metric's --tolerance (passes). inconclusive: a sequential check reached its playout cap before
// deciding (fails, exit 3). moved: the balance moved, or a target is missed (fails, exit 1).
// Targets (odds check on a targets file) say met for unchanged and missed for moved.
enum class Verdict { unchanged, tolerated, inconclusive, moved };
const char* verdict_name(Verdict v);  // "unchanged", "tolerated", "inconclusive", "moved"
// A target's verdict in its own words: "met" (unchanged), "missed" (moved), "inconclusive".
const char* target_verdict_name(Verdict v);
// odds check's exit code for an overall verdict: 1 moved, 3 inconclusive, else 0.
int verdict_exit_code(Verdict v);

// Exact mode (same rules version, seed and playouts): counts that match are unchanged; counts
// that differ are tolerated when the metric has a tolerance X and the mean moved by at most X
// (|shift| <= X), else moved.
Verdict exact_verdict(bool counts_match, double shift, std::optional<double> tolerance);

// Statistical mode: moved when the test rejects "|true shift| <= X", i.e. when the shift seen is
// beyond the tolerance X by more than the test's alarm threshold (|shift| > X + threshold; with
// no tolerance, X = 0: the plain two-sided test). Tolerated when only the plain test alarms
// (threshold < |shift| <= X + threshold); else unchanged. For a true shift anywhere within +-X
// the false-alarm rate stays at most the test's.
Verdict statistical_verdict(const ShiftTest& t, std::optional<double> tolerance);

struct MetricCheck {
    std::string name;
    std::string kind;                  // "rate" or "count"
    bool reported = true;              // false: this build no longer reports the metric
    Summary old_s, new_s;              // new_s is meaningless when !reported
    bool counts_match = false;         // exact mode: every count as recorded
    double shift = 0;                  // new mean - old mean
    std::optional<double> threshold;   // statistical mode: the test's alarm threshold on |shift|
    std::optional<double> detectable;  // statistical mode: a true shift found with probability
                                       // 80%, tolerance included
    std::optional<double> tolerance;   // --tolerance, when given for this metric
    Verdict verdict = Verdict::unchanged;
    std::string line;  // the table's line for the metric, without the status
    // Sequential mode (--sequential, and targets): the GSPRT's log-likelihood ratio (its side
    // nearest to moved or missed) against Wald's bounds, and the playouts it took to decide.
    struct Sequential {
        double llr = 0, lower = 0, upper = 0;
        double tolerance = 0;        // baselines: the shift tested for; targets: the margin
        std::uint64_t playouts = 0;  // played when it was decided (the cap if it was not)
        double fixed_playouts = 0;   // baselines: what a fixed test at the same rates needs
    };
    std::optional<Sequential> sequential;
    // A target (a targets file's line): the statistic it names, its value in the re-run, its
    // bounds (at least V: low; at most V: high; within A..B: both). Its margin is
    // sequential->tolerance; a target has no baseline, no shift and no tolerance.
    struct Target {
        std::string statistic;  // "mean" or "pXX"
        double value = 0;
        std::optional<double> low, high;
    };
    std::optional<Target> target;
};

struct BaselineCheck {
    std::string file, game, scenario, policy;
    std::string rules_baseline, rules_build;
    bool exact = true;
    std::string mode;    // "exact", "statistical", "sequential" or "targets" (empty: by `exact`)
    std::string reason;  // statistical mode: why not exact
    std::uint64_t seed_baseline = 0, seed = 0, playouts_baseline = 0, playouts = 0;
    double false_alarm = 0;  // statistical mode: per metric, corrected for their number
    double seconds = 0;      // wall time of the re-run
    std::vector<MetricCheck> metrics;
    Verdict verdict() const;  // the worst of its metrics'
    bool targets() const { return mode == "targets"; }
    // A verdict in this file's words: a targets file's met / missed / inconclusive.
    const char* verdict_word(Verdict v) const;
};

Verdict overall_verdict(const std::vector<BaselineCheck>& checks);
// The overall verdict in words: "moved" when a baseline moved, "missed" when only targets were
// missed; "met" when every file is a targets file and every target is met; else verdict_name.
const char* overall_verdict_word(const std::vector<BaselineCheck>& checks);

// Text made safe for XML 1.0 attribute values and character data (& < > " ' escaped; control
// characters XML cannot hold and malformed UTF-8 replaced by U+FFFD).
std::string xml_escape(std::string_view text);
// A JSON string literal, quotes included (malformed UTF-8 replaced by U+FFFD).
std::string json_string(std::string_view text);
// A JSON number: the shortest form that reads back to v; null when v is not finite.
std::string json_number(double v);

// JUnit XML: <testsuites> with one <testsuite> per baseline file (its counts and time) and one
// <testcase> per metric (classname the file, name the metric); a moved metric has a <failure>
// whose message gives the shift and the alarm threshold (tolerance included).
std::string check_junit(const std::vector<BaselineCheck>& checks);

// One JSON document: the odds version, the overall verdict, and per baseline file its game,
// scenario, policy, rules versions, mode, seed, playouts and, per metric, the old and new mean
// with their 95% intervals, the shift, threshold, detectable shift, tolerance and verdict.
std::string check_json(const std::vector<BaselineCheck>& checks, std::string_view odds_version);

// check.csv (--out DIR): one row per baseline file and metric, its verdict, the old and new mean
// with their 95% intervals, the shift, the alarm threshold and the detectable shift (the
// HTML report's input; columns in docs/output.md).
std::string check_csv(const std::vector<BaselineCheck>& checks);

}  // namespace odds
