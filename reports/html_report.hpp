// The HTML report of an output folder (odds report DIR, and --report on run, exact, compare,
// tournament, sweep and check): one self-contained report.html made from the folder's CSV files
// alone (and provenance.csv, where the command that wrote them records its command line and rules
// version), so the same folder always gives the same page, whoever writes it. Charts are inline
// SVG (reports/svg.hpp), each with its numbers in a collapsed table under it; no script, no
// network. What each chart shows: docs/output.md, "report.html".
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "engine/metric.hpp"

namespace odds {

inline constexpr const char* kProvenanceFile = "provenance.csv";
inline constexpr const char* kReportFile = "report.html";
inline constexpr const char* kMetricsFile = "metrics.csv";

// What the CSV files do not say about the command that wrote them.
struct Provenance {
    std::string odds_version;
    std::string command;        // "run", "exact", "compare", "tournament", "sweep", "check"
    std::string game;           // the game (check: every baseline's, space-separated)
    std::string rules_version;  // the build's rules version of the game (check: each game's)
    std::string command_line;   // as typed, each argument quoted where a shell needs it
};
std::string provenance_csv(const Provenance& p);

// metrics.csv's rows for one game's metrics (with the header first when `header`): each metric's
// kind and description as the game declares them (engine/metric.hpp), for the report's words.
std::string metrics_csv(const std::string& game, const std::vector<MetricSpec>& metrics,
                        bool header);

// The command line `odds COMMAND ARGS...` as a shell reads it back: arguments holding anything
// but letters, digits and -_./=:,+@% are single-quoted.
std::string command_line(const std::string& command, const std::vector<std::string>& args);

// The files of `dir` a report is made from, in the order the report shows them; empty when the
// folder holds none of them.
std::vector<std::string> report_inputs(const std::filesystem::path& dir);

// The report of the folder, as one HTML document. Throws std::runtime_error when the folder holds
// no file odds writes (report_inputs is empty) or one cannot be read.
std::string report_html(const std::filesystem::path& dir);

}  // namespace odds
