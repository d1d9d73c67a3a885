// The columns of every CSV file odds writes, declared once (docs/output.md says what each
// means). A writer writes its file's header from here (header()); a reader names a column
// through it, kFile["name"], which is checked when compiled: a name that is not a column of the
// file does not compile. A file whose columns depend on the run (sweep.csv and tune.csv hold the
// varied options; survival.csv a subject where there are several tables) is declared in its
// fixed parts, in order, and its writer puts the run's own columns between them.
#pragma once

#include <array>
#include <cstddef>
#include <string>
#include <string_view>

namespace odds::schema {

template <std::size_t N>
struct Columns {
    std::string_view file;
    std::array<std::string_view, N> names;

    // The column called `name`: a compile-time error when the file has none of that name.
    consteval std::string_view operator[](std::string_view name) const {
        for (const auto c : names)
            if (c == name) return c;
        throw "not a column of this file";  // not a constant expression: does not compile
    }
    // The names joined by commas; with `end`, the header line's newline.
    std::string header(bool end = true) const {
        std::string s;
        for (const auto c : names) {
            if (!s.empty()) s += ',';
            s += c;
        }
        return end ? s + '\n' : s;
    }
};

template <class... S>
consteval auto columns(std::string_view file, S... names) {
    return Columns<sizeof...(S)>{file, {std::string_view(names)...}};
}

// odds run and odds exact (reports/csv.cpp).
inline constexpr auto kSummary =
    columns("summary.csv", "game", "scenario", "policy", "seed", "playouts", "metric", "mean",
            "stddev", "ci_low", "ci_high", "min", "p05", "p25", "p50", "p75", "p95", "max",
            "skewness", "method", "status", "unresolved", "mean_low", "mean_high");
inline constexpr auto kDistributions =
    columns("distributions.csv", "game", "scenario", "policy", "metric", "value", "count",
            "probability", "cdf", "at_least", "method", "status", "unresolved");
// survival.csv: kSurvivalHead, kSurvivalSubject where the run has several tables, kSurvival.
inline constexpr auto kSurvivalHead = columns("survival.csv", "game", "scenario", "policy");
inline constexpr auto kSurvivalSubject = columns("survival.csv", "subject");
inline constexpr auto kSurvival = columns("survival.csv", "step_metric", "event", "step", "at_risk",
                                          "lost", "completed", "survival", "status");
// Every folder's provenance.csv (reports/html_report.cpp).
inline constexpr auto kProvenance =
    columns("provenance.csv", "odds_version", "command", "game", "rules_version", "command_line");
// Beside it where the command plays a game: each metric as the game declares it.
inline constexpr auto kMetrics =
    columns("metrics.csv", "game", "metric", "kind", "unit", "description");

// odds compare (sim/cli/compare.cpp).
inline constexpr auto kCompare = columns(
    "compare.csv", "game", "scenario", "seed", "playouts", "metric", "policy_a", "policy_b",
    "mean_a", "mean_b", "diff", "ci_low", "ci_high", "p_value", "p_holm", "p_below", "status");
inline constexpr auto kPolicies =
    columns("policies.csv", "game", "scenario", "seed", "playouts", "policy", "rank", "ranked_by",
            "metric", "mean", "ci_low", "ci_high", "stddev", "status");

// odds compare --variant (sim/cli/compare.cpp).
inline constexpr auto kVariants =
    columns("variants.csv", "game", "variant", "scenario", "policy", "seed", "playouts", "metric",
            "mean", "ci_low", "ci_high", "diff", "diff_low", "diff_high", "p_value", "p_below",
            "p_holm", "moved", "exact_mean_low", "exact_mean_high", "exact_diff_low",
            "exact_diff_high", "rank", "ranked_by", "status");

// odds tournament (sim/cli/tournament.cpp).
inline constexpr auto kTournament =
    columns("tournament.csv", "game", "scenario", "seed", "playouts", "first_seat", "first_policy",
            "second_seat", "second_policy", "result", "rate", "ci_low", "ci_high", "status");
inline constexpr auto kRatings =
    columns("ratings.csv", "game", "scenario", "seed", "policy", "rating", "ci_low", "ci_high",
            "games", "score", "status", "policy_scenario", "points");

// odds sweep (sim/cli/sweep.cpp): kSweepHead, the varied options, kSweep.
inline constexpr auto kSweepHead =
    columns("sweep.csv", "game", "scenario", "policy", "seed", "playouts");
inline constexpr auto kSweep =
    columns("sweep.csv", "metric", "mean", "stddev", "ci_low", "ci_high", "status");

// odds tune (sim/cli/tune.cpp): kTuneHead, the searched options, kTune.
inline constexpr auto kTuneHead =
    columns("tune.csv", "game", "scenario", "policy", "seed", "step", "phase", "round");
inline constexpr auto kTune = columns("tune.csv", "metric", "target", "mean", "ci_low", "ci_high",
                                      "playouts", "method", "best", "status");

// odds skill (sim/cli/skill.cpp).
inline constexpr auto kLadder =
    columns("ladder.csv", "game", "scenario", "seed", "games", "rung", "policy", "measure", "value",
            "ci_low", "ci_high", "strength", "next_weaker", "apart_from_below", "status");
inline constexpr auto kSkill =
    columns("skill.csv", "game", "scenario", "seed", "games", "ladder", "rungs", "groups", "depth",
            "luck_share", "ci_low", "ci_high", "within", "between", "status");

// odds restrict (sim/cli/restrict.cpp).
inline constexpr auto kRestrict =
    columns("restrict.csv", "game", "scenario", "seat", "play", "method", "measure", "seed",
            "games", "rank", "restriction", "best_play", "value", "cost", "ci_low", "ci_high",
            "ignorable", "never_used", "status");

// odds shape (reports/shape.cpp).
inline constexpr auto kShape = columns("shape.csv", "game", "scenario", "policy", "seed", "games",
                                       "measure", "value", "status");
inline constexpr auto kFan =
    columns("fan.csv", "game", "scenario", "policy", "seed", "games", "step", "running", "q10",
            "q25", "q50", "q75", "q90", "status");

// odds check (reports/check_report.cpp).
inline constexpr auto kCheck =
    columns("check.csv", "file", "game", "scenario", "policy", "mode", "rules_version_baseline",
            "rules_version_build", "seed", "playouts", "metric", "kind", "verdict", "reported",
            "old_mean", "old_ci_low", "old_ci_high", "new_mean", "new_ci_low", "new_ci_high",
            "shift", "threshold", "alarm_above", "detectable", "tolerance", "statistic", "value",
            "target_low", "target_high", "margin");

}  // namespace odds::schema
