// The HTML report on the command line: --report on run, exact, compare, tournament, sweep and
// check, provenance.csv beside every folder of CSV files, and `odds report DIR`
// (reports/html_report.hpp makes the page from the folder).
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "sim/cli/common.hpp"

namespace odds::cli {

// --report, for a command whose CSV files go into --out DIR.
void add_report_option(po::options_description& d);
// Whether --report was given; a UsageError when it was without --out (checked before anything
// is played or written).
bool report_wanted(const Args& opt);

// Writes a command's files into `dir`, all or none (write_files_atomic), with two more that say
// what made them:
// - provenance.csv: the command, its command line rebuilt (Args::command_line: the same for one
//   process and for shards merged, whatever the folder, threads or shards), the game(s) and this
//   build's rules version of each;
// - metrics.csv, where there are games: each game's metrics as it declares them (kind and
//   description), so that the folder's report describes them in the game's words.
void write_out_files(std::vector<std::pair<std::filesystem::path, std::string>> files,
                     const std::filesystem::path& dir, const std::string& command,
                     const std::vector<std::string>& command_line,
                     const std::vector<std::string>& games);

// Writes DIR/report.html from the folder's files (after they are written), saying so on stderr.
void write_report(const std::filesystem::path& dir, const std::string& command, Io io);

}  // namespace odds::cli
