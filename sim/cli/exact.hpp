// What odds exact writes, shared with odds run --report (its exact laws beside the playouts').
#pragma once

#include <filesystem>
#include <string>
#include <utility>
#include <vector>

#include "reports/exact_report.hpp"
#include "reports/stats.hpp"
#include "sim/registry.hpp"

namespace odds::cli {

// Two-seat games: the derived `balance` row after the metrics (docs/output.md, summary.csv).
void add_balance_row(const GameEntry& game, std::vector<Summary>& rows, double n, bool exact);

// odds exact's files for DIR: summary.csv, distributions.csv and survival.csv where solved.
std::vector<std::pair<std::filesystem::path, std::string>> exact_files(
    const GameEntry& game, const ExactReport& report, const std::filesystem::path& dir);

}  // namespace odds::cli
