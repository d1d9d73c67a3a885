// The CSV files and the readable table of a run. Columns are documented in docs/output.md;
// every file is tidy (one observation a row) for pandas or R.
#pragma once

#include <cstdint>
#include <filesystem>
#include <ostream>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "reports/stats.hpp"
#include "reports/tally.hpp"

namespace odds {

// Who and what a report describes.
struct RunInfo {
    std::string game;
    std::string scenario;  // every effective rule option
    std::string policy;
    std::uint64_t seed = 0;
    std::uint64_t playouts = 0;  // playouts behind the figures (0 for exact)
    bool exact = false;          // method column: "exact" or "monte_carlo"
    bool partial = false;        // status column: "partial" (interrupted) or "complete"
};

// RFC 4180: quoted when it holds a comma, quote or line break.
std::string csv_field(std::string_view s);
// Shortest text that reads back as the same double; a whole number as a plain integer (never
// "3e+06"), so integer columns stay integers.
std::string format_double(double v);
// A probability as format_double writes it, clamped to [0, 1]: sums of exact masses taken in
// different orders can land an ulp past either end (at_least=1.0000000000000004), and no
// probability a file holds may (issue 40).
std::string format_probability(double p);

std::string summary_csv(const RunInfo& info, const std::vector<Summary>& rows);
std::string distributions_csv(const RunInfo& info, const std::vector<Distribution>& ds);
// Kaplan-Meier survival over each survival table's time metric (empty when the game has none):
// who and what (game, scenario, policy), the table's subject where there are several, and the
// metric whose value `step` is (step_metric, a name of `metrics`); the status column says
// complete or partial (info.partial).
std::string survival_csv(const RunInfo& info, const Tally& t, std::span<const MetricSpec> metrics);
// The steps' columns from exact laws (at_risk, lost and completed are probabilities; lost[i] and
// completed[i] are P(ended at time lo + i by the event / censored)), without the columns that
// say whose table it is: survival_csv_described adds them.
std::string survival_csv_exact(const std::vector<double>& lost,
                               const std::vector<double>& completed, std::int32_t lo);
// A table of survival_csv_exact's columns with game, scenario, policy, step_metric and event in
// front, as survival_csv writes them.
std::string survival_csv_described(const RunInfo& info, std::string_view step_metric,
                                   std::string_view event, std::string_view table);

// A CSV file read back (RFC 4180: quoted fields may hold commas, quotes and line breaks): its
// header and rows, each cell found by its column's name.
struct CsvTable {
    std::vector<std::string> header;
    std::vector<std::vector<std::string>> rows;
    bool has(std::string_view column) const;
    // The cell of `column` in row `row`; "" when the file has no such column.
    const std::string& at(std::size_t row, std::string_view column) const;
};
CsvTable parse_csv(std::string_view text);

// A readable table of the summaries.
void print_table(std::ostream& os, const RunInfo& info, const std::vector<Summary>& rows);

// Writes `content` to `path` atomically: a temporary file beside it, then a rename.
void write_file_atomic(const std::filesystem::path& path, std::string_view content);
// Writes several files as a set: every temporary file first, then the renames, so a failure
// leaves the old set (or none) rather than a mix.
void write_files_atomic(const std::vector<std::pair<std::filesystem::path, std::string>>& files);

// From a command's first file written to its end, SIGINT and SIGTERM wait (the calling thread
// blocks them; its workers are done by then): a signal, or a second one, that came while files
// were renamed into place would leave a temporary file, or a folder of new files beside old
// ones (issue 40). Both writers above hold them; release_held_signals, when the command ends,
// restores the mask, and a signal that came meanwhile acts then.
void hold_signals();
void release_held_signals();

}  // namespace odds
